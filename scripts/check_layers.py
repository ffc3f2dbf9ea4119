#!/usr/bin/env python3
"""Checks that every #include "..." of the tree points down the layers.

The layers, lowest first (docs/ARCHITECTURE.md, "Layers"; the direction is
apps, python -> engine -> {optics, io,
volume, transpose, kernels} -> core):

  0  include/oocfft vocabulary: error, shape, devices, options, run_report,
     host_threads, hdf5, asm_options -- the public types every layer may name (core
     implements Error and Shape, volume/ and io/ take Options and dataset
     paths). They include nothing but each other.
  1  core
  2  kernels (kernels/cuda is part of kernels), transpose, volume, io, optics
  3  engine/planning
  4  engine/pipeline
  5  engine/backends (host/, cuda/ and the factory)
  6  engine/api, and the public entry points it implements:
     include/oocfft plan, pinned_memory, host_array, asm, oocfft -- a layer
     below the engine that included them would depend on the engine
  7  apps, bench, tests, python, distributed (the MPI plan: a client of
     the engine's API and of one internal entry point, built with MPI only)

It fails on
  * an include from a lower layer to a higher one;
  * a cycle between folders (of the same layer: kernels <-> transpose, ...);
  * a cycle between files, where a file is its header and the sources that
    implement it (x.hpp with x.cpp / x.cu beside it, or a .cpp whose first
    include is the header of the same name elsewhere, as engine/api/plan.cpp
    implements include/oocfft/plan.hpp);
and prints what it found. Exit status 0 when the tree is clean.

Usage: scripts/check_layers.py [repository root]   (python3, stdlib only)
"""
import os
import re
import sys
from collections import defaultdict

SOURCE_SUFFIXES = (".hpp", ".cpp", ".h", ".cu", ".cuh", ".inc")
SKIP_DIRS = {".git", "out", "docs"}  # plus every build*/ folder

PUBLIC_VOCABULARY = {"error", "shape", "devices", "options", "run_report", "host_threads", "hdf5", "asm_options"}

# (folder prefix, folder name in the report, layer); the longest prefix wins.
FOLDERS = [
    ("core/", "core", 1),
    ("kernels/", "kernels", 2),
    ("transpose/", "transpose", 2),
    ("volume/", "volume", 2),
    ("io/", "io", 2),
    ("optics/", "optics", 2),
    ("engine/planning/", "engine/planning", 3),
    ("engine/pipeline/", "engine/pipeline", 4),
    ("engine/backends/", "engine/backends", 5),
    ("engine/api/", "engine/api", 6),
    ("distributed/", "distributed", 7),
    ("apps/", "apps", 7),
    ("bench/", "bench", 7),
    ("tests/", "tests", 7),
    ("python/", "python", 7),
]

# Arrows known to run up that another change removes; reported, not failed.
# Each entry is (from file, to file, why it is still here). An entry that no
# longer matches is reported so that it can be deleted.
KNOWN = []

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def folder_of(path):
    """(folder name, layer) of a repository-relative path, or None."""
    if path.startswith("include/oocfft/"):
        stem = os.path.splitext(os.path.basename(path))[0]
        if stem in PUBLIC_VOCABULARY:
            return ("include/oocfft (vocabulary)", 0)
        return ("include/oocfft (entry points)", 6)
    best = None
    for prefix, name, layer in FOLDERS:
        if path.startswith(prefix) and (best is None or len(prefix) > len(best[0])):
            best = (prefix, name, layer)
    return None if best is None else (best[1], best[2])


def source_files(root):
    for top, dirs, files in os.walk(root):
        rel_top = os.path.relpath(top, root)
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("build") and
                         not (rel_top == "." and d.startswith(".")))
        for f in sorted(files):
            if f.endswith(SOURCE_SUFFIXES):
                yield os.path.normpath(os.path.join(rel_top, f))


def resolve(root, including, name):
    """The repository path an include names, or None (system, generated)."""
    for base in ("", "include/", os.path.dirname(including) + "/"):
        candidate = os.path.normpath(base + name)
        if os.path.isfile(os.path.join(root, candidate)):
            return candidate
    return None


def strongly_connected(nodes, edges):
    """Tarjan's algorithm, iterative; returns the components of more than one node."""
    index, low, on_stack, stack, out = {}, {}, set(), [], []
    counter = [0]
    for start in sorted(nodes):
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    out.append(sorted(component))
    return out


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    includes = {}  # file -> [included file]
    first_include = {}
    for path in source_files(root):
        if folder_of(path) is None:
            continue
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            names = INCLUDE.findall(f.read())
        resolved = [r for r in (resolve(root, path, n) for n in names) if r is not None]
        includes[path] = [r for r in resolved if folder_of(r) is not None]
        if names:
            first_include[path] = resolve(root, path, names[0])

    failures = 0
    known_seen = set()
    folder_edges = defaultdict(set)
    folder_arrows = defaultdict(int)
    upward = []
    for path, targets in sorted(includes.items()):
        src_folder, src_layer = folder_of(path)
        for target in targets:
            dst_folder, dst_layer = folder_of(target)
            if dst_folder != src_folder:
                folder_edges[src_folder].add(dst_folder)
                folder_arrows[(src_folder, dst_folder)] += 1
            if dst_layer > src_layer:
                known = next((k for k in KNOWN if k[0] == path and k[1] == target), None)
                if known is not None:
                    known_seen.add(known)
                    print(f"known, allowed for now: {path} -> {target} ({known[2]})")
                else:
                    upward.append((path, src_folder, target, dst_folder))

    print(f"{len(includes)} files, {sum(len(t) for t in includes.values())} includes of the tree")
    print("arrows between folders (files including, count):")
    for (src, dst), count in sorted(folder_arrows.items(), key=lambda e: (-folder_of_layer(e[0][0]), e[0])):
        print(f"  {src:32s} -> {dst:32s} {count}")

    for path, src, target, dst in upward:
        print(f"UP: {path} ({src}) includes {target} ({dst})")
        failures += 1
    for known in KNOWN:
        if known not in known_seen:
            print(f"stale exception (no longer found, delete it): {known[0]} -> {known[1]}")

    for component in strongly_connected(set(folder_edges) | {d for s in folder_edges.values() for d in s},
                                        folder_edges):
        print("FOLDER CYCLE: " + " <-> ".join(component))
        failures += 1

    # Files: a header and the sources that implement it are one node.
    unit = {}
    for path in includes:
        stem, suffix = os.path.splitext(path)
        unit[path] = stem
    for path, first in first_include.items():
        if path.endswith((".cpp", ".cu")) and first is not None and \
                os.path.splitext(os.path.basename(first))[0] == os.path.splitext(os.path.basename(path))[0]:
            unit[path] = unit.get(first, os.path.splitext(first)[0])
    unit_edges = defaultdict(set)
    for path, targets in includes.items():
        for target in targets:
            a, b = unit[path], unit.get(target, os.path.splitext(target)[0])
            if a != b:
                unit_edges[a].add(b)
    for component in strongly_connected(set(unit_edges), unit_edges):
        print("FILE CYCLE: " + " <-> ".join(component))
        failures += 1

    print("layers: " + ("clean" if failures == 0 else f"{failures} problem(s)"))
    return 1 if failures else 0


def folder_of_layer(name):
    for _, folder, layer in FOLDERS:
        if folder == name:
            return layer
    return 6 if "entry" in name else 0


if __name__ == "__main__":
    sys.exit(main())
