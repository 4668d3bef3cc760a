#!/usr/bin/env python3
"""Turns the logs of bench/run_pairs.sh into an SVG chart and a Markdown table.

Reads the lines
    pair=<n> result pattern=<p> impl=<i> variant=<v> us=<best us per kernel>
of each log (one run of run_pairs.sh: native CUDA as impl "cuda", each runtime compared under
its own name), and for every pattern and runtime the ratio of its time to that of the native
process just before it, pair by pair. The chart has one row per log, pattern and runtime: a dot
per pair, a bar at the median, a line at 1 (native) and, dashed, issue 16's goal for the
pattern. No plotting library needed: the SVG is written directly.

Usage: bench/plot_pairs.py LABEL=LOG... [-o bench/results/submission_pairs.svg]
                           [--markdown table.md] [--patterns roundtrip,usm_inorder,...]
"""

import argparse
import collections
import html
import re
import statistics

LINE = re.compile(r"pair=(\d+) result pattern=(\S+) impl=(\S+) variant=(\S+) us=([0-9.]+)")
# Issue 16's goals, as a ratio to the native loop.
GOALS = {"usm_inorder": 1.1, "buffer_chain": 1.3, "two_buffers": 1.3, "empty": 1.1,
         "roundtrip": 1.05, "graph": 1.0}
COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd"]


def ratios(path):
    times = {}
    with open(path, encoding="utf-8", errors="replace") as log:
        for line in log:
            m = LINE.search(line)
            if m:
                times[(int(m[1]), m[2], m[3], m[4])] = float(m[5])
    out = collections.OrderedDict()  # (pattern, impl) -> [ratio per pair]
    for (pair, pattern, impl, variant), us in sorted(times.items()):
        if impl == "cuda" or variant != "total":
            continue
        native = times.get((pair, pattern, "cuda", "total"))
        if native:
            out.setdefault((pattern, impl), []).append(us / native)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("logs", nargs="+", help="LABEL=LOG")
    ap.add_argument("-o", "--output", default="bench/results/submission_pairs.svg")
    ap.add_argument("--markdown")
    ap.add_argument("--patterns", default=",".join(GOALS))
    args = ap.parse_args()
    patterns = args.patterns.split(",")

    rows = []  # (label, pattern, impl, [ratios])
    for spec in args.logs:
        label, path = spec.split("=", 1)
        found = ratios(path)
        for pattern in patterns:
            for (p, impl), r in found.items():
                if p == pattern:
                    rows.append((label, pattern, impl, r))
    impls = list(dict.fromkeys(impl for _, _, impl, _ in rows))
    colour = {impl: COLOURS[i % len(COLOURS)] for i, impl in enumerate(impls)}

    lo, hi = 0.4, 1.6
    left, width, row_h, top = 330, 560, 18, 40
    height = top + row_h * len(rows) + 50
    x = lambda v: left + (min(max(v, lo), hi) - lo) / (hi - lo) * width
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 30}" '
           f'height="{height}" font-family="sans-serif" font-size="11">',
           f'<text x="{left}" y="16" font-size="13">Submission patterns on the H100: syclone '
           f'time / native CUDA time, per pair of processes</text>',
           f'<text x="{left}" y="30" fill="#555">dots: pairs; bar: median; dashed: '
           f'issue 16 goal; lower is faster</text>']
    for t in [0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6]:
        svg.append(f'<line x1="{x(t):.1f}" y1="{top}" x2="{x(t):.1f}" '
                   f'y2="{top + row_h * len(rows)}" stroke="{"#000" if t == 1.0 else "#ddd"}"/>')
        svg.append(f'<text x="{x(t):.1f}" y="{top + row_h * len(rows) + 14}" '
                   f'text-anchor="middle">{t:.1f}</text>')
    for i, (label, pattern, impl, r) in enumerate(rows):
        y = top + row_h * i + row_h / 2
        med = statistics.median(r)
        svg.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">'
                   f'{html.escape(f"{label}: {pattern}, {impl}")} ({len(r)}) '
                   f'{med:.3f}</text>')
        goal = GOALS.get(pattern)
        if goal:
            svg.append(f'<line x1="{x(goal):.1f}" y1="{y - 7:.1f}" x2="{x(goal):.1f}" '
                       f'y2="{y + 7:.1f}" stroke="#d62728" stroke-dasharray="3,2"/>')
        for v in r:
            svg.append(f'<circle cx="{x(v):.1f}" cy="{y:.1f}" r="2.2" fill="{colour[impl]}" '
                       f'fill-opacity="0.55"/>')
        svg.append(f'<line x1="{x(med):.1f}" y1="{y - 6:.1f}" x2="{x(med):.1f}" '
                   f'y2="{y + 6:.1f}" stroke="{colour[impl]}" stroke-width="3"/>')
    svg.append(f'<text x="{left + width / 2}" y="{height - 12}" text-anchor="middle">'
               f'ratio to native CUDA (clipped to {lo}..{hi})</text>')
    svg.append("</svg>")
    with open(args.output, "w", encoding="utf-8") as out:
        out.write("\n".join(svg) + "\n")

    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as md:
            md.write("| run | pattern | runtime | pairs | median | min | max | goal |\n")
            md.write("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |\n")
            for label, pattern, impl, r in rows:
                goal = GOALS.get(pattern)
                md.write(f"| {label} | {pattern} | {impl} | {len(r)} | "
                         f"{statistics.median(r):.3f} | {min(r):.3f} | {max(r):.3f} | "
                         f"{'≤ %.2f' % goal if goal and goal != 1.0 else 'below native'} |\n")


if __name__ == "__main__":
    main()
