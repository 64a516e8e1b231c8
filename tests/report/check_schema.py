#!/usr/bin/python3
# `syncproof check --format json` over the case library (and a batch with an unreadable input,
# a lint error and both engines) must validate against docs/report.schema.json.
# usage: check_schema.py SYNCPROOF SOURCE_DIR
import json
import subprocess
import sys

import jsonschema

syncproof, root = sys.argv[1], sys.argv[2]
with open(f"{root}/docs/report.schema.json") as f:
    schema = json.load(f)
jsonschema.Draft202012Validator.check_schema(schema)
runs = [
    ["check", "--format", "json", "cases/"],
    ["check", "--format", "json", "--engine", "both", "cases/deadlock", "cases/same-queue",
     "no-such-file.sync"],
    # every violation carries its cheapest fix (docs/FIX.md)
    ["check", "--format", "json", "--fix", "cases/same-queue", "cases/cross-queue/race-no-fence.sync"],
]
for args in runs:
    out = subprocess.run([syncproof] + args, cwd=root, capture_output=True, text=True, timeout=600)
    doc = json.loads(out.stdout)
    jsonschema.validate(doc, schema, cls=jsonschema.Draft202012Validator)
    assert doc["summary"]["exit_code"] == out.returncode, (doc["summary"], out.returncode)
    print(f"{' '.join(args)}: {len(doc['cases'])} cases valid, exit {out.returncode}")
