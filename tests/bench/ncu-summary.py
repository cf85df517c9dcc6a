#!/usr/bin/env python3
# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
"""Per-kernel table of an Nsight Compute run.

    ncu --clock-control none --csv --page raw --metrics METRICS PROGRAM ... > run.csv
    tests/bench/ncu-summary.py run.csv [FRAMES]

One row per kernel and grid size: launches, GPU microseconds per frame
(the launches' total over FRAMES), registers per thread, achieved
occupancy, SM and DRAM throughput and L1 throughput as shares of the
peak. METRICS: gpu__time_duration.sum, launch__registers_per_thread,
launch__grid_size, sm__warps_active.avg.pct_of_peak_sustained_active,
sm__throughput.avg.pct_of_peak_sustained_elapsed,
dram__throughput.avg.pct_of_peak_sustained_elapsed,
l1tex__throughput.avg.pct_of_peak_sustained_active.
"""
import collections
import csv
import sys


def num(s):
    try:
        return float(s.replace(",", ""))
    except ValueError:
        return 0.0


def main():
    hdr, data = None, []
    for r in csv.reader(open(sys.argv[1])):
        if r and r[0] == "ID":
            hdr = r
        elif hdr and len(r) == len(hdr) and r[0].isdigit():
            data.append(dict(zip(hdr, r)))
    frames = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
    rows = collections.OrderedDict()
    for d in data:
        key = "%s g%s" % (d["Kernel Name"][:40], d.get("launch__grid_size", ""))
        row = rows.setdefault(key, [0, 0.0, d])
        row[0] += 1
        row[1] += num(d.get("gpu__time_duration.sum", "0"))
    print("%-52s %5s %9s %4s %5s %5s %5s %5s" % ("kernel, grid", "n", "us/frame",
          "reg", "occ%", "sm%", "dram%", "l1%"))
    total = 0.0
    for key, (n, ns, d) in rows.items():
        us = ns / 1000.0 / frames
        total += us
        print("%-52s %5d %9.2f %4s %5.1f %5.1f %5.1f %5.1f" % (
            key, n, us, d.get("launch__registers_per_thread", ""),
            num(d.get("sm__warps_active.avg.pct_of_peak_sustained_active", "0")),
            num(d.get("sm__throughput.avg.pct_of_peak_sustained_elapsed", "0")),
            num(d.get("dram__throughput.avg.pct_of_peak_sustained_elapsed", "0")),
            num(d.get("l1tex__throughput.avg.pct_of_peak_sustained_active", "0"))))
    print("total us/frame %.2f" % total)


if __name__ == "__main__":
    main()
