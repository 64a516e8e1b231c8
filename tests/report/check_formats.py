#!/usr/bin/python3
# The JUnit and SARIF reports against published schemas, on real runs: the whole case library, a
# batch whose property comes out against its expectation (a violation: exit 4), and one with an
# unreadable input and a case with errors.
#   junit: every document validates under the Jenkins xUnit plugin's JUnit schema
#          (junit-10.xsd, with xmllint from Debian's libxml2-utils).
#   sarif: every document validates under the SARIF 2.1.0 schema (sarif-2.1.0.json, with
#          python3-jsonschema); executionSuccessful is true for the complete runs (the violation
#          included) and false for the incomplete one; none of the library's refutations (what its
#          cases state) is a result, nor anything an error; every URI is an RFC 3986 reference.
# usage: check_formats.py junit|sarif SYNCPROOF SOURCE_DIR
import json
import os
import re
import subprocess
import sys
import tempfile

import jsonschema

fmt, syncproof, root = sys.argv[1], sys.argv[2], sys.argv[3]
here = os.path.dirname(os.path.abspath(__file__))

BROKEN = """case "the consumer's read is not ordered after the producer's write"
queue acs compute
buffer grid 0x10000 0x4000

on acs:
  produce: Dispatch writes grid as uav
  consume: Dispatch reads grid as srv

prove visible produce -> consume
"""
LINT_ERROR = "queue acs compute\non acs:\n  SyncTopOfPipeX(GL1_INVALIDTE, NONE, 0, D3D12XBOX_FLUSH_RANGE_ALL)\n"


def run(args, expect_rc):
    out = subprocess.run([syncproof, "check", "--format", fmt] + args, cwd=root,
                         capture_output=True, timeout=600)
    assert out.returncode == expect_rc, (args, out.returncode, out.stderr.decode())
    return out.stdout


def validate_junit(doc, name, tmp):
    path = os.path.join(tmp, "report.xml")
    with open(path, "wb") as f:
        f.write(doc)
    out = subprocess.run(["xmllint", "--noout", "--schema", os.path.join(here, "junit-10.xsd"),
                          path], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, f"{name}: not valid JUnit (junit-10.xsd):\n{out.stderr}"
    print(f"{name}: valid under junit-10.xsd")


URI = re.compile(r"^[A-Za-z0-9\-._~/%]*$")  # what syncproof writes: unreserved, '/', %XX


def validate_sarif(doc, name, complete, results=None):
    with open(os.path.join(here, "sarif-2.1.0.json")) as f:
        schema = json.load(f)
    log = json.loads(doc)
    jsonschema.validate(log, schema, cls=jsonschema.Draft202012Validator)
    run_ = log["runs"][0]
    assert run_["invocations"][0]["executionSuccessful"] == complete, (name, run_["invocations"])
    if results is not None:
        got = [(r["ruleId"], r["level"]) for r in run_["results"]]
        assert got == results, (name, got)
    else:  # the library: lint warnings and `check` lines' verdicts (notes) only
        for r in run_["results"]:
            text = r["message"]["text"]
            assert r["level"] in ("warning", "note") and not text.startswith("refute "), (name, r)

    def uris(x):
        if isinstance(x, dict):
            for k, v in x.items():
                if k == "uri":
                    yield v
                else:
                    yield from uris(v)
        elif isinstance(x, list):
            for v in x:
                yield from uris(v)

    for u in uris(log):
        assert URI.match(u), (name, u)
    print(f"{name}: valid SARIF 2.1.0, executionSuccessful {complete}, "
          f"{len(run_['results'])} results")


with tempfile.TemporaryDirectory() as tmp:
    broken = os.path.join(tmp, "broken.sync")
    with open(broken, "w") as f:
        f.write(BROKEN)
    lint = os.path.join(tmp, "lint error.sync")
    with open(lint, "w") as f:
        f.write(LINT_ERROR)
    missing = os.path.join(tmp, "missing.sync")
    runs = [
        ("the library", ["cases/"], 0, True, None),
        ("a violation", ["--no-fix", broken, "cases/same-queue"], 4, True,
         [("P-VISIBLE", "error")]),
        ("with fixes", [broken], 4, True, [("P-VISIBLE", "error")]),
        ("incomplete", [broken, lint, missing], 4, False,
         [("P-VISIBLE", "error"), ("L-CASE", "error")]),
    ]
    for name, args, rc, complete, results in runs:
        doc = run(args, rc)
        if fmt == "junit":
            validate_junit(doc, name, tmp)
        else:
            validate_sarif(doc, name, complete, results)
