#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Lists the production functions (core/, collector/, widgets/, app/) longer than a limit, longest
first, with file:line and length in lines from the signature's first line to the closing brace.

    python3 resources/long-functions.py          # functions over 80 lines
    python3 resources/long-functions.py 120      # over 120

A brace-counting reader, not a compiler: it knows comments, strings and character literals, and
takes every top-level brace block that is not a namespace, class, struct, enum, union or an
initialiser (`= {`) to be a function. Its counts are what the house's "short functions" rule uses.
"""
import os
import re
import sys

SKIP = re.compile(r"^\s*(namespace|class|struct|enum|union|extern)\b|=\s*$|=\s*\{$")


def code_only(text):
    """The text with comments, string and character literals blanked (newlines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^(]*)\(', text[i:])
            end = text.find(")" + m.group(1) + '"', i) if m else -1
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(" ")
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def functions(path):
    with open(path, encoding="utf-8") as f:
        lines = code_only(f.read()).split("\n")
    depth_stack, found, start = [], [], None
    signature_start = 0
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if not depth_stack and stripped and start is None and not stripped.startswith("#"):
            if signature_start == 0:
                signature_start = number
        for ch in line:
            if ch == "{":
                opening = "".join(lines[signature_start - 1:number]) if signature_start else line
                kind = "block"
                if not any(k == "function" for k in depth_stack):
                    if SKIP.search(opening.split("{")[0] + ("{" if opening.rstrip().endswith("= {") else "")) or \
                            re.match(r"^\s*(namespace|class|struct|enum|union|extern)\b", opening.strip()):
                        kind = "scope"
                    elif depth_stack and depth_stack[-1] == "scope" and re.search(r"\)\s*(const)?\s*(override|noexcept|final)?\s*(->[^{]*)?(:.*)?\{?\s*$", opening.strip()) is None and "(" not in opening:
                        kind = "scope"
                    else:
                        kind = "function"
                        start = signature_start or number
                depth_stack.append(kind)
            elif ch == "}":
                kind = depth_stack.pop() if depth_stack else "scope"
                if kind == "function" and not any(k == "function" for k in depth_stack):
                    found.append((number - start + 1, start))
                    start = None
        if stripped.endswith((";", "}")) or stripped.startswith("#") or not stripped:
            if start is None:
                signature_start = 0
        if depth_stack and depth_stack[-1] == "scope" and stripped.endswith("{"):
            signature_start = 0
    return found


def main():
    limit = int(sys.argv[1]) if len(sys.argv) > 1 else 80
    rows = []
    for top in ("core", "collector", "widgets", "app"):
        for directory, _, files in os.walk(top):
            for name in files:
                if name.endswith((".cpp", ".h")):
                    path = os.path.join(directory, name)
                    rows += [(length, f"{path}:{line}") for length, line in functions(path) if length > limit]
    for length, where in sorted(rows, reverse=True):
        print(f"{length:5d}  {where}")
    print(f"{len(rows)} functions over {limit} lines", file=sys.stderr)


if __name__ == "__main__":
    main()
