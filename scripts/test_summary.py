#!/usr/bin/env python3
"""The phase summary that scripts/test.sh prints last, so that a regression in any phase shows in
every CI log: each phase's wall time (setup, builds, test runs), CTest's time per label in each
build tree, the slowest ten tests of all, and last one "syncproof: N passed, N failed" line over
the trees that ran.

  test_summary.py PHASES_FILE BUILD_DIR...

PHASES_FILE has one line per phase, "MILLISECONDS NAME". Each BUILD_DIR holds the JUnit file of its
CTest run (ctest-junit.xml, ctest --output-junit); the labels come from CTest itself
(ctest --show-only=json-v1). A tree without a JUnit file (its run did not happen) is skipped with
a word. Uses only Python's standard library."""

import collections
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET


def labels_of(build_dir):
    """CTest's LABELS of every test in the tree, by name."""
    out = subprocess.run(["ctest", "--test-dir", build_dir, "--show-only=json-v1"],
                         capture_output=True, text=True, check=True).stdout
    labels = {}
    for t in json.loads(out).get("tests", []):
        names = []
        for p in t.get("properties", []):
            if p.get("name") == "LABELS":
                names = list(p.get("value", []))
        labels[t["name"]] = names or ["(none)"]
    return labels


def times_of(junit):
    """(name, seconds, status) of every test case in a CTest JUnit file."""
    root = ET.parse(junit).getroot()
    for tc in root.iter("testcase"):
        yield tc.get("name"), float(tc.get("time") or 0), tc.get("status") or ""


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 64
    print("\nsyncproof test summary")
    print("  phases (wall seconds):")
    total = 0.0
    with open(argv[1], encoding="utf-8") as f:
        for line in f:
            ms, _, name = line.strip().partition(" ")
            total += int(ms) / 1000
            print(f"    {name:<44} {int(ms) / 1000:8.0f}")
    print(f"    {'all phases':<44} {total:8.0f}")
    slowest = []
    passed = failed = 0
    for build_dir in argv[2:]:
        junit = os.path.join(build_dir, "ctest-junit.xml")
        if not os.path.exists(junit):
            print(f"  {build_dir}: no CTest run")
            continue
        labels = labels_of(build_dir)
        per_label = collections.defaultdict(lambda: [0, 0.0])
        tests = 0
        for name, seconds, status in times_of(junit):
            tests += 1
            for label in labels.get(name, ["(none)"]):
                per_label[label][0] += 1
                per_label[label][1] += seconds
            slowest.append((seconds, build_dir, name, status))
            if status in ("run", ""):
                passed += 1
            else:
                failed += 1
        print(f"  {build_dir}: CTest time per label ({tests} tests; test seconds, not wall):")
        for label, (n, seconds) in sorted(per_label.items(), key=lambda kv: -kv[1][1]):
            print(f"    {label:<20} {n:5d} tests {seconds:9.1f} s")
    print("  the slowest ten tests:")
    for seconds, build_dir, name, status in sorted(slowest, reverse=True)[:10]:
        shown = name if len(name) <= 96 else name[:93] + "..."
        print(f"    {seconds:7.1f} s  {build_dir:<11} {shown}"
              + ("" if status in ("run", "") else f"  [{status}]"))
    print(f"syncproof: {passed} passed, {failed} failed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
