#!/usr/bin/env python3
"""The closing line of scripts/test.sh, from what the run wrote down.

usage: test-summary.py JUNIT GTEST_DIR [NOT_BUILT...]

JUNIT is ctest's --output-junit file, GTEST_DIR the folder GTEST_OUTPUT=xml:
filled (one file per GoogleTest program), NOT_BUILT a line per part that was
not built, with why. A test is skipped when ctest did not run it (its
SKIP_RETURN_CODE) or when every case it ran was skipped (GTEST_SKIP); cases
skipped inside a test that passed are counted too. Every skip is listed with
its reason: nothing skipped passes for a pass.
"""
import collections
import os
import re
import sys
import xml.etree.ElementTree as ET


def gtest_skips(folder):
    """{program: ([reason of each skipped case], number of cases)}."""
    out = {}
    if not os.path.isdir(folder):
        return out
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".xml"):
            continue
        try:
            root = parse(os.path.join(folder, name))
        except ET.ParseError:
            continue  # a program killed while writing: ctest counts it failed
        reasons, cases = [], 0
        for case in root.iter("testcase"):
            cases += 1
            skipped = case.find("skipped")
            if case.get("result") == "skipped" or skipped is not None:
                text = skipped.get("message", "") if skipped is not None else ""
                # "file:line\nreason[\nGoogle Test trace: ...]": the reason, or
                # the place when none was given
                head, _, reason = text.partition("\n")
                reason = reason.split("\nGoogle Test trace:")[0].replace("\n", " ")
                reasons.append(reason.strip() or head.strip() or "no reason given")
        out[name[: -len(".xml")]] = (reasons, cases)
    return out


def parse(path):
    """An XML file's root; characters XML does not allow (a test's escape
    sequences in its captured output) are dropped first."""
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", "replace")
    text = re.sub("[\x00-\x08\x0b\x0c\x0e-\x1f]", "", text)
    return ET.fromstring(text)


def skip_reason(case):
    """A test ctest did not run: the last line it printed, or ctest's word."""
    lines = [l.strip() for l in (case.findtext("system-out") or "").splitlines() if l.strip()]
    if lines:
        return lines[-1]
    skipped = case.find("skipped")
    return skipped.get("message", "skipped") if skipped is not None else "skipped"


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    junit, gtest_dir, not_built = sys.argv[1], sys.argv[2], sys.argv[3:]
    cases = parse(junit).iter("testcase") if os.path.exists(junit) else []
    programs = gtest_skips(gtest_dir)
    total = passed = failed = 0
    skipped = collections.Counter()   # reason -> tests skipped whole
    inside = collections.Counter()    # reason -> cases skipped inside passing tests
    for case in cases:
        total += 1
        name, status = case.get("name"), case.get("status")
        if status == "notrun" or case.find("skipped") is not None:
            skipped[skip_reason(case)] += 1
        elif status != "run":
            failed += 1
        else:
            # ctest's name is the program's for cuzk_test(); others run no GoogleTest.
            reasons, n = programs.get(name, ([], 0))
            if n and len(reasons) == n:
                skipped["all its cases skipped: " + "; ".join(sorted(set(reasons)))] += 1
            else:
                passed += 1
                inside.update(reasons)
    line = f"{total} tests: {passed} passed, {failed} failed, {sum(skipped.values())} skipped"
    if skipped:
        line += " (" + "; ".join(f"{n} × {r}" for r, n in skipped.most_common()) + ")"
    if inside:
        line += (f"; {sum(inside.values())} GoogleTest cases skipped in tests that passed ("
                 + "; ".join(f"{n} × {r}" for r, n in inside.most_common()) + ")")
    if not_built:
        line += "; not built: " + "; ".join(not_built)
    print(line)


if __name__ == "__main__":
    main()
