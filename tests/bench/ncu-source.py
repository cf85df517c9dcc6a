#!/usr/bin/env python3
# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
"""Where a kernel's instructions and stalls are, from Nsight Compute's
SASS source page.

    ncu --clock-control none --set full -k regex:NAME -c 1 -o rep PROGRAM ...
    ncu -i rep.ncu-rep --page source --csv --print-source sass > src.csv
    tests/bench/ncu-source.py src.csv [TOP]

Per kernel in the file: the executed warp instructions by opcode (the
first word of the SASS line, predicate and modifiers dropped), and the TOP
instructions (default 25) with the most stall samples, with their share of
the kernel's samples.
"""
import collections
import csv
import sys


def num(s):
    try:
        return float(s.replace(",", ""))
    except (AttributeError, ValueError):
        return 0.0


def column(header, *names):
    for name in names:
        for i, h in enumerate(header):
            if h.strip().lower() == name.lower():
                return i
    for name in names:
        for i, h in enumerate(header):
            if name.lower() in h.lower():
                return i
    return None


def opcode(src):
    words = src.split()
    if words and words[0].startswith("@"):
        words = words[1:]
    return words[0].split(".")[0] if words else "?"


def report(name, rows, top):
    if not rows:
        return
    total = sum(r[1] for r in rows) or 1.0
    stalls = sum(r[2] for r in rows) or 1.0
    print("== %s: %.0f warp instructions, %.0f stall samples" % (name, total, stalls))
    ops = collections.Counter()
    for src, ex, _ in rows:
        ops[opcode(src)] += ex
    print("  opcode       warp instr   share")
    for op, ex in ops.most_common(24):
        print("  %-10s %12.0f  %5.1f%%" % (op, ex, 100.0 * ex / total))
    print("  top stall sites (samples, share, executed, SASS):")
    for i, (src, ex, st) in enumerate(sorted(rows, key=lambda r: -r[2])[:top]):
        print("  %7.0f %5.1f%% %10.0f  %s" % (st, 100.0 * st / stalls, ex, src.strip()[:90]))


def main():
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 25
    name, header, rows = "kernel", None, []
    with open(sys.argv[1], newline="") as f:
        for rec in csv.reader(f):
            if not rec:
                continue
            if "Source" in [c.strip() for c in rec] and \
                    any("Instructions Executed" in c for c in rec):
                report(name, rows, top)
                header, rows = rec, []
                isrc = column(header, "Source")
                iex = column(header, "Warp Instructions Executed", "Instructions Executed")
                ist = column(header, "Warp Stall Sampling (All Samples)", "Stall Sampling")
                continue
            if header is None:
                if len(rec) <= 3:
                    name = " ".join(rec)
                continue
            if len(rec) <= max(isrc, iex):
                if len(rec) <= 3:
                    report(name, rows, top)
                    name, rows = " ".join(rec), []
                continue
            stall = num(rec[ist]) if ist is not None and ist < len(rec) else 0.0
            rows.append((rec[isrc], num(rec[iex]), stall))
    report(name, rows, top)
    if header is None:
        print("no source table found; the first lines were:")
        with open(sys.argv[1]) as f:
            for _ in range(8):
                print("  " + f.readline().rstrip()[:200])


if __name__ == "__main__":
    main()
