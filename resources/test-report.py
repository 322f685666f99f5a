#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The end of resources/test.sh: what ran, what skipped and why, and (under CI) whether a skip hides
a test the CI machine should run. Reads ctest's Testing/Temporary/LastTest.log of each tree given,
in order: a test skipped in an earlier tree that passed in a later one (the split run's Release
tree) counts as run.

    test-report.py [--ci] LOG...            the counts; with --ci, exit 1 on a skip CI must not have
    test-report.py --rerun-in-release LOG   the tests the Release tree must run again, a line each
    test-report.py --slowest N LOG...       the N slowest tests with their seconds
    test-report.py --slow-list S LOG...     tests/slow-tests.txt anew: every test of S seconds or more
    test-report.py --slow-regex FILE        ctest's -E for the tests FILE names (test.sh --fast)
"""
import re
import sys

# Skips that are the test's own answer, on any machine: a case that does not apply to a backend.
NOT_APPLICABLE = [
    (re.compile(r"roles are PostgreSQL's"), "a PostgreSQL role's case, on another backend"),
]
# Skips of the sanitized tree that the Release tree makes up for (resources/test.sh's split run).
RERUN_IN_RELEASE = re.compile(r"AddressSanitizer|radt-explorer is not built here")


def read_log(path):
    """{test name: (status, seconds, skip reason)}; status is passed, failed or skipped."""
    try:
        text = open(path, encoding="utf-8", errors="replace").read()
    except OSError as error:
        sys.exit(f"test-report: cannot read {path}: {error.strerror}")
    tests = {}
    for block in re.split(r"\n(?=\d+/\d+ Testing: )", text):
        head = re.search(r"^\d+/\d+ Testing: (\S+)", block, re.M)  # the name, without "  # GetParam() = ..."
        if not head:
            continue
        name = head.group(1)
        seconds = re.search(r"^Test time =\s*([\d.]+) sec", block, re.M)
        output = block.split("<end of output>")[0]
        reason = None
        if re.search(r"^\[  SKIPPED \] ", output, re.M):
            status = "skipped"
            said = re.search(r": Skipped\n(.*?)\n\[  SKIPPED \]", output, re.S)
            reason = (said.group(1).strip() if said else "") or "(no reason given)"
        elif re.search(r"^Test Passed\.", block, re.M):
            status = "passed"
        else:
            status = "failed"
        tests[name] = (status, float(seconds.group(1)) if seconds else 0.0, reason)
    return tests


def main(argv):
    mode, count = "report", 0
    if argv[:1] == ["--slow-regex"] and len(argv) == 2:
        names = [line.strip() for line in open(argv[1], encoding="utf-8") if line.strip() and line[0] != "#"]
        # ctest's regular expressions take no "$" inside a group: each name twice, alone and before
        # its parameter's comment.
        print("|".join(f"^{re.escape(name)}$|^{re.escape(name)} " for name in names))
        return 0
    if argv and argv[0] == "--ci":
        mode, argv = "ci", argv[1:]
    elif argv and argv[0] == "--rerun-in-release":
        mode, argv = "rerun", argv[1:]
    elif argv and argv[0] in ("--slowest", "--slow-list"):
        mode, count, argv = argv[0][2:], float(argv[1]), argv[2:]
    if not argv:
        sys.exit(__doc__)
    merged = {}
    for path in argv:
        merged.update(read_log(path))  # a later tree's result replaces an earlier skip
    if mode == "rerun":
        for name, (status, _, reason) in sorted(merged.items()):
            if status == "skipped" and RERUN_IN_RELEASE.search(reason):
                print(name)
        return 0
    if mode == "slowest":
        for name, (status, seconds, _) in sorted(merged.items(), key=lambda item: -item[1][1])[: int(count)]:
            print(f"{seconds:8.2f} {name}")
        return 0
    if mode == "slow-list":
        print(f"# The slow tier: tests that took {count:g} s or more in Release on 2 cores (resources/test.sh\n"
              f"# --fast leaves them out). Made by `python3 resources/test-report.py --slow-list {count:g}\n"
              f"# build/Testing/Temporary/LastTest.log` after a whole run; a line is a test's name as ctest\n"
              f"# shows it, without a parameter's \"# GetParam() = ...\" comment.")
        for name, (status, seconds, _) in sorted(merged.items()):
            if seconds >= count:
                print(name)
        return 0

    counts = {s: sum(1 for t in merged.values() if t[0] == s) for s in ("passed", "failed", "skipped")}
    total_seconds = sum(t[1] for t in merged.values())
    print(f"test-report: {len(merged)} tests, {total_seconds:.0f} s of test time")
    by_reason = {}
    for name, (status, _, reason) in sorted(merged.items()):
        if status == "skipped":
            by_reason.setdefault(reason, []).append(name)
    must_not = []
    for reason, names in sorted(by_reason.items(), key=lambda item: -len(item[1])):
        allowed = next((why for pattern, why in NOT_APPLICABLE if pattern.search(reason)), None)
        print(f"test-report: {len(names)} skipped: {reason.splitlines()[0]}" + (f" [{allowed}]" if allowed else ""))
        for name in names[:5]:
            print(f"    {name}")
        if len(names) > 5:
            print(f"    ... and {len(names) - 5} more")
        if not allowed:
            must_not.extend(names)
    print(f"test-report: {counts['passed']} passed, {counts['failed']} failed, {counts['skipped']} skipped")
    if mode == "ci" and must_not:
        print(f"test-report: {len(must_not)} tests skipped that CI must run (install what they name in "
              f"resources/install-deps.sh or .ci/run): {', '.join(must_not[:10])}"
              + (" ..." if len(must_not) > 10 else ""), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
