#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks that every #include in core/, collector/, widgets/ and app/ points down or sideways
within its own folder, never up (resources/DESIGN.md §2): each folder may include its own headers
and those of the folders listed for it below, which are the folders its CMake target links.
Within a folder, a component (a header and its .cpp) that includes another must not be included
back by it, directly or round a loop: such a loop is an arrow up inside the folder. A component's
private parts are named after it and come without their pair: a .cpp with no header
(ChartPanelHover.cpp, SqliteStoreCuration.cpp) or a header with no .cpp (SqliteStoreTransaction.h,
BoardFileDetail.h) whose name starts with the component's belongs to it.
Prints each arrow that runs the wrong way as file:line, each loop, and exits 1 if there is one.

    python3 resources/check-layers.py            # from the repository root
    python3 resources/check-layers.py --counts   # also prints the number of arrows per folder
"""
import os
import re
import sys

BELOW = {
    "core/base": [],
    "core/store": ["core/base"],
    "core/store/sqlite": ["core/store", "core/base"],
    "core/store/postgres": ["core/store", "core/base"],
    "core/store/postgres/module": ["core/store/postgres", "core/store", "core/base"],
    "core/analysis": ["core/store", "core/base"],
    "core/report": ["core/analysis", "core/artifacts", "core/store", "core/base"],
    "core/board": ["core/base"],
    "core/artifacts": ["core/base"],
    "core": ["core/*"],
    "core/schema": [],
    "collector/listeners": ["core/base"],
    "collector": ["collector/listeners", "core", "core/*"],
    "widgets/common": ["core", "core/*"],
    "widgets/runs": ["widgets/common", "core", "core/*"],
    "widgets/chart/engine": ["widgets/common", "core", "core/*"],
    "widgets/chart": ["widgets/chart/engine", "widgets/common", "core", "core/*"],
    "widgets/board": ["widgets/chart", "widgets/chart/engine", "widgets/runs", "widgets/common", "core", "core/*"],
    "widgets/insights": ["widgets/chart", "widgets/chart/engine", "widgets/common", "core", "core/*"],
    "widgets/compare": ["widgets/runs", "widgets/common", "core", "core/*"],
    "widgets/details": ["widgets/common", "core", "core/*"],
    "widgets/launch": ["widgets/common", "collector", "collector/*", "core", "core/*"],
    "widgets/window": ["widgets/*", "collector", "collector/*", "core", "core/*"],
    "widgets": [],
    "app": ["widgets/*", "collector", "collector/*", "core", "core/*"],
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def allowed(folder, target_folder):
    if target_folder == folder:
        return True
    for pattern in BELOW[folder]:
        if pattern.endswith("/*"):
            if target_folder.startswith(pattern[:-1]):
                return True
        elif target_folder == pattern:
            return True
    return False


def loops(edges):
    """The components that lie on a loop of includes, each loop once (Tarjan's strongly connected
    components of the graph component -> components it includes)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def owners(directory, names):
    """Each file stem of a folder -> the component it belongs to (see the module's docstring)."""
    stems = {os.path.splitext(n)[0] for n in names if n.endswith((".cpp", ".h"))}
    paired = {s for s in stems if s + ".cpp" in names and s + ".h" in names}
    headed = {s for s in stems if s + ".h" in names}
    owner = {}
    for stem in stems:
        owner[stem] = stem
        if stem in paired:
            continue
        prefixes = [c for c in headed if c != stem and stem.startswith(c)]
        if prefixes:
            owner[stem] = max(prefixes, key=len)
    return {os.path.join(directory, s): os.path.join(directory, o) for s, o in owner.items()}


def main():
    counts = {folder: 0 for folder in BELOW}
    bad = []
    edges = {}
    for top in ("core", "collector", "widgets", "app"):
        for directory, _, files in os.walk(top):
            if directory not in BELOW:
                bad.append(f"{directory}: a folder resources/check-layers.py does not know; add it to BELOW")
                continue
            owner = owners(directory, files)
            for name in sorted(files):
                if not name.endswith((".cpp", ".h")):
                    continue
                path = os.path.join(directory, name)
                with open(path, encoding="utf-8") as source:
                    for number, line in enumerate(source, 1):
                        match = INCLUDE.match(line)
                        if not match or "/" not in match.group(1):
                            continue  # a header beside the file, or a generated one
                        target = os.path.dirname(match.group(1))
                        if not os.path.isdir(target):
                            continue
                        component = owner[os.path.splitext(path)[0]]
                        included = os.path.splitext(match.group(1))[0]
                        included = owners(target, os.listdir(target)).get(included, included)
                        if target == directory and included != component:
                            edges.setdefault(component, set()).add(included)
                        if not allowed(directory, target):
                            counts[directory] += 1
                            bad.append(f"{path}:{number}: includes {match.group(1)}, a folder above {directory}")
    for loop in loops(edges):
        counts[os.path.dirname(loop[0])] += 1
        bad.append("a loop of includes: " + " -> ".join(loop) + " -> back")
    if "--counts" in sys.argv:
        for folder, n in counts.items():
            print(f"{folder}: {n} arrows up")
    for line in bad:
        print(line, file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
