#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Counts each class's member functions and data members in the headers of a folder (default
widgets/), largest first: what the house's "no class over 40 member functions or 20 data
members" rule measures. A declaration reader, not a compiler: inside a class body at its own
depth, a declaration with a parameter list is a function (constructors, operators, signals and
slots included; inline bodies count once), one without is a data member (static constants,
type aliases, friends and nested types are not counted).

    python3 resources/class-sizes.py [folder] [--over]   # --over: only classes over the limits
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from importlib import import_module  # noqa: E402

code_only = import_module("long-functions").code_only

CLASS = re.compile(r"\b(class|struct)\s+(\w+)\s*(final\s*)?(:[^{;]*)?\{")
SKIP = re.compile(r"^\s*(using|typedef|friend|static\s+constexpr|enum|struct|class|template|Q_\w+|public|private|protected|signals|slots)\b")


def members(body):
    """(functions, data) of a class body's own declarations."""
    functions = data = 0
    depth, statement = 0, ""
    for ch in body:
        if depth == 0:
            statement += ch
        if ch == "{":
            if depth == 0:
                head = statement[:-1].strip()
                head = re.sub(r"^.*?:\s*$", "", head) if head.endswith(":") else head
                if "(" in head and not SKIP.match(head.split(":")[-1].strip() or head):
                    functions += 1
                    statement = ""
                elif re.match(r"^\s*(enum|struct|class|union)\b", head.split("\n")[-1].strip() or head):
                    statement = ""
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0 and statement == "":
                pass
        elif ch == ";" and depth == 0:
            s = re.sub(r"^(public|private|protected|signals|Q_SIGNALS|public slots|private slots)\s*:", "",
                       statement.strip()).strip()
            statement = ""
            if not s or SKIP.match(s):
                continue
            if "(" in s and not re.search(r"[=]\s*[^=(]*\(", s.split("(")[0] + "("):
                if re.match(r"^[\w:<>,\s\*&]+\s+\w+\s*\{", s):  # brace-initialised data
                    data += 1
                else:
                    functions += 1
            else:
                data += 1
    return functions, data


def classes(path):
    text = code_only(open(path, encoding="utf-8").read())
    for match in CLASS.finditer(text):
        start = match.end()
        depth, i = 1, start
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        yield match.group(2), members(text[start:i - 1])


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    folder = args[0] if args else "widgets"
    rows = []
    for directory, _, files in os.walk(folder):
        for name in files:
            if name.endswith(".h"):
                path = os.path.join(directory, name)
                rows += [(f, d, cls, path) for cls, (f, d) in classes(path)]
    for f, d, cls, path in sorted(rows, reverse=True):
        if "--over" not in sys.argv or f > 40 or d > 20:
            print(f"{f:4d} functions {d:3d} data  {cls}  ({path})")


if __name__ == "__main__":
    main()
