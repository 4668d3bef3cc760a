#!/usr/bin/env python3
"""Turns the `result pattern=... impl=... variant=... us=...` lines of cuda_submission and
cuda_native_submission (one log, both programs) into a markdown table with the ratios against
issue 16's goals.
Usage: submission_table.py LOG [-o OUT.md]"""
import argparse
import re
import sys

GOALS = {  # pattern: (goal ratio against native total, what the native row is)
    "usm_inorder": 1.1,
    "buffer_chain": 1.3,
    "two_buffers": 1.3,
    "empty": 1.1,
    "roundtrip": 1.05,
    "graph": None,
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("log")
    ap.add_argument("-o", "--out")
    args = ap.parse_args()
    rows = {}
    devices = []
    phases = {}  # SYCLONE_SUBMIT_PROFILE: pattern -> [(phase, us)]
    section = None
    with open(args.log) as f:
        for line in f:
            m = re.match(r"result pattern=(\S+) impl=(\S+) variant=(\S+) us=([0-9.]+)", line)
            p = re.match(r"--- (\S+)$", line)
            ph = re.match(r"  (\S.*?)\s+([0-9.]+) us$", line)
            if m:
                if section is None:
                    rows[(m[1], m[2], m[3])] = float(m[4])
            elif line.startswith("==="):
                section = None if "profile" not in line.lower() else section
            elif p:
                section = p[1]
                phases[section] = []
            elif ph and section:
                phases[section].append((ph[1], float(ph[2])))
            elif line.startswith("device:") and line.strip() not in devices:
                devices.append(line.strip())
    out = []
    out.append("| pattern | syclone µs/kernel | native µs/kernel | ratio | goal |")
    out.append("| --- | ---: | ---: | ---: | --- |")
    for p, goal in GOALS.items():
        s = rows.get((p, "syclone", "total"))
        n = rows.get((p, "cuda", "total"))
        if s is None or n is None:
            continue
        ratio = s / n
        g = "" if goal is None else f"≤ {goal:.2f}× {'(met)' if ratio <= goal else '(not met)'}"
        out.append(f"| {p} | {s:.2f} | {n:.2f} | {ratio:.2f} | {g} |")
        one = rows.get((p, "syclone_1stream", "total"))
        if one is not None:
            out.append(f"| {p}, SYCLONE_QUEUE_STREAMS=1 | {one:.2f} | {n:.2f} | {one / n:.2f} | |")
        lazy = rows.get((p, "syclone_lazy", "total"))
        if lazy is not None:
            r = lazy / n
            g = "" if goal is None else f"≤ {goal:.2f}× {'(met)' if r <= goal else '(not met)'}"
            out.append(f"| {p}, SYCLONE_CUDA_LAZY_EVENTS=1 | {lazy:.2f} | {n:.2f} | {r:.2f} | {g} |")
        for variant in ("two_streams", "cuLaunchKernel", "cuda_graph_replay"):
            v = rows.get((p, "cuda", variant))
            if v is not None:
                out.append(f"| {p} vs native {variant} | {s:.2f} | {v:.2f} | {s / v:.2f} | |")
    out.append("")
    out.append("Issue cost per kernel (the submitting thread's time, before the wait):")
    out.append("")
    out.append("| what | µs |")
    out.append("| --- | ---: |")
    for (p, impl, variant), v in sorted(rows.items()):
        if variant == "issue" or p == "profile" or "+" in variant or "capture" in variant:
            out.append(f"| {impl} {p} {variant} | {v:.3f} |")
    if phases:
        names = list(phases)
        out.append("")
        out.append("Where a submission's time goes (SYCLONE_SUBMIT_PROFILE=1, µs per submission):")
        out.append("")
        out.append("| phase | " + " | ".join(names) + " |")
        out.append("| --- |" + " ---: |" * len(names))
        order = []
        for n in names:
            for ph, _ in phases[n]:
                if ph not in order:
                    order.append(ph)
        for ph in order:
            vals = [dict(phases[n]).get(ph) for n in names]
            out.append(f"| {ph} | " + " | ".join("" if v is None else f"{v:.3f}" for v in vals) + " |")
    text = "\n".join(devices + [""] + out) + "\n"
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
