#!/usr/bin/python3
# Must not change (issue 29): the JSON report of `syncproof check --engine both` over the case
# library and over generated frames is the same as the recorded baseline, timings apart — every
# verdict, assumption list, trace, `why`, `missing:` and fix. A speed-up that changes one of them
# fails here, with the cases that differ and a diff of the first few. A deliberate change (a rule
# or a case changed) records the new baseline with --update; the commit says why it changed.
#
# usage: report_baseline.py SYNCPROOF SOURCE_DIR WORK_DIR {cases|frames} [--update]
#   cases:  the whole library (cases/), run from SOURCE_DIR
#   frames: the bench's generated frames (bench/frame_gen.h, seed 1): 1,000 and 5,000 commands,
#           and 1,000 with each seeded bug; written to WORK_DIR by `syncproof_bench frame-text`
#           (bench/syncproof_bench beside SYNCPROOF) and checked there (with --no-fix, see below), so that the report names
#           them by relative path
# The exit code of the check must be what its summary says (0: everything as expected, and the
# engines agree; 6: they disagree), and is checked against the baseline's too.
import difflib
import json
import os
import subprocess
import sys

TIMEOUT = 900  # seconds for one check; the frames take ~40 s of CPU in the optimised build
BUGS = ["no-gl1-invalidate", "no-label-wait", "no-gl2-writeback", "no-sync-cpdma"]


def normalise(doc):
    """The report without what depends on the machine: wall-clock times and the worker count."""

    def strip(x):
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if k != "ms" and not k.endswith("_ms")}
        if isinstance(x, list):
            return [strip(v) for v in x]
        return x

    doc = strip(doc)
    doc.get("run", {}).pop("jobs", None)
    return doc


def lines_of(doc):
    """One line per case (sorted by file), then the run and the summary: a changed case is one line."""
    out = [json.dumps(c, sort_keys=True) for c in sorted(doc["cases"], key=lambda c: c["file"])]
    rest = {k: v for k, v in doc.items() if k != "cases"}
    out.append(json.dumps(rest, sort_keys=True))
    return out


def run(syncproof, cwd, inputs, extra=()):
    cmd = [syncproof, "check", "--engine", "both", "--format", "json"] + list(extra) + inputs
    out = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT)
    try:
        doc = json.loads(out.stdout)
    except json.JSONDecodeError:
        sys.exit(f"{' '.join(cmd)}: exit {out.returncode}, no JSON report\n{out.stderr[-4000:]}")
    if doc["summary"]["exit_code"] != out.returncode:
        sys.exit(f"exit {out.returncode} but the summary says {doc['summary']['exit_code']}")
    return lines_of(normalise(doc))


def frames(bench, work):
    os.makedirs(work, exist_ok=True)
    made = []
    for n, bug in [(1000, None), (5000, None)] + [(1000, b) for b in BUGS]:
        name = f"frame-{n}" + (f"-{bug}" if bug else "") + ".sync"
        args = [bench, "frame-text", str(n)] + (["--bug", bug] if bug else [])
        text = subprocess.run(args, capture_output=True, text=True, timeout=TIMEOUT, check=True)
        with open(os.path.join(work, name), "w") as f:
            f.write(text.stdout)
        made.append(name)
    return made


def main():
    args = [a for a in sys.argv[1:] if a != "--update"]
    update = "--update" in sys.argv[1:]
    if len(args) != 4 or args[3] not in ("cases", "frames"):
        sys.exit("usage: report_baseline.py SYNCPROOF SOURCE_DIR WORK_DIR {cases|frames} [--update]")
    syncproof, root, work, what = args
    syncproof = os.path.abspath(syncproof)
    baseline = os.path.join(root, "tests", "cases", "baseline", f"{what}.jsonl")
    if what == "cases":
        got = run(syncproof, root, ["cases/"])
    else:
        bench = os.path.join(os.path.dirname(syncproof), "bench", "syncproof_bench")
        # --no-fix: without it the fix search that stands in for refuted advice takes 100 s on
        # the 1,000-command no-gl2-writeback frame (issue 29's note); the library covers fixes.
        got = run(syncproof, work, frames(bench, work), ["--no-fix"])
    if update:
        with open(baseline, "w") as f:
            f.write("\n".join(got) + "\n")
        print(f"{baseline}: {len(got) - 1} cases recorded")
        return
    with open(baseline) as f:
        want = f.read().splitlines()
    if got == want:
        print(f"{what}: {len(got) - 1} cases, the same report as {os.path.relpath(baseline, root)}")
        return
    name = lambda line: json.loads(line).get("file", "(run and summary)")
    old = {name(l): l for l in want}
    new = {name(l): l for l in got}
    changed = sorted(k for k in old.keys() | new.keys() if old.get(k) != new.get(k))
    print(f"{what}: {len(changed)} of {len(new)} report entries differ from the baseline:")
    for k in changed:
        print(f"  {k}" + ("" if k in old else " (new)") + ("" if k in new else " (gone)"))
    for k in changed[:3]:
        pretty = lambda l: json.dumps(json.loads(l), indent=1, sort_keys=True).splitlines() if l else []
        diff = difflib.unified_diff(pretty(old.get(k)), pretty(new.get(k)), "baseline", "now",
                                    lineterm="", n=2)
        print("\n".join(list(diff)[:80]))
    print(f"A deliberate change: {' '.join(sys.argv[:1] + args)} --update, and say why in the commit.")
    sys.exit(1)


main()
