#!/usr/bin/env python3
"""SVG bars of bench/host_subgroup runs in one log: for each sub-group size, the reduction's and
the shuffle-heavy kernel's throughput as a fraction of the nd_range copy kernel of the same run,
for the first runs in the log (named by --labels, comma-separated; default: every run, each named
by the "== LABEL" line before it, else "run N"), with issue 29's goal (0.5) as a line. No plotting
library needed.
Usage: plot_host_subgroup.py LOG -o OUT.svg [--labels "forwarded,no forwarding"]
"""
import argparse
import re

COPY = re.compile(r"^host nd_range copy \(no sub-group operation\): ([0-9.]+) M elements/s")
SIZE = re.compile(r"^host sub-group size\s+(\d+)( \(primary\))?: reduce ([0-9.]+) M elements/s, "
                  r"shuffle-heavy \(\d+ shuffles per work-item\) ([0-9.]+) M elements/s")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("log")
    parser.add_argument("-o", "--out", required=True)
    parser.add_argument("--labels")
    args = parser.parse_args()
    runs, label, copy = [], None, None
    for line in open(args.log):
        line = line.strip()
        if line.startswith("== "):
            label = line[3:]
        elif m := COPY.match(line):
            copy = float(m.group(1))
            runs.append((label or f"run {len(runs) + 1}", {}))
            label = None
        elif (m := SIZE.match(line)) and runs:
            name = m.group(1) + (" (primary)" if m.group(2) else "")
            runs[-1][1][name] = (float(m.group(3)) / copy, float(m.group(4)) / copy)
    if args.labels:
        names = args.labels.split(",")
        runs = [(name, values) for name, (_, values) in zip(names, runs)]
    sizes = list(runs[0][1])
    bars = [(run, kernel) for run, _ in runs for kernel in ("reduce", "shuffle-heavy")]
    colors = ["#1f77b4", "#aec7e8", "#d62728", "#ff9896", "#2ca02c", "#98df8a"]
    width, height, left, bottom, top = 900, 380, 60, 60, 30
    group = (width - left - 20) / len(sizes)
    bar = group * 0.8 / len(bars)
    top_value = max(1.0, max(v for _, r in runs for pair in r.values() for v in pair)) * 1.1
    y = lambda v: height - bottom - (height - bottom - top) * v / top_value
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           'font-family="sans-serif" font-size="11">',
           f'<text x="{left}" y="16" font-size="13">sub-group kernels / nd_range copy, '
           'same run (higher is better; goal 0.5)</text>']
    for v in [i / 4 for i in range(int(top_value * 4) + 1)]:
        out.append(f'<line x1="{left}" x2="{width - 20}" y1="{y(v):.1f}" y2="{y(v):.1f}" '
                   'stroke="#ddd"/>')
        out.append(f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v:.2f}</text>')
    out.append(f'<line x1="{left}" x2="{width - 20}" y1="{y(0.5):.1f}" y2="{y(0.5):.1f}" '
               'stroke="#000" stroke-dasharray="4 3"/>')
    for i, size in enumerate(sizes):
        x0 = left + i * group + group * 0.1
        for j, (run, kernel) in enumerate(bars):
            values = dict(runs)[run].get(size)
            if not values:
                continue
            v = values[0 if kernel == "reduce" else 1]
            out.append(f'<rect x="{x0 + j * bar:.1f}" y="{y(v):.1f}" width="{bar - 1:.1f}" '
                       f'height="{y(0) - y(v):.1f}" fill="{colors[j % len(colors)]}"/>')
        out.append(f'<text x="{x0 + group * 0.4:.1f}" y="{height - bottom + 16}" '
                   f'text-anchor="middle">size {size}</text>')
    for j, (run, kernel) in enumerate(bars):
        lx = left + (j % 3) * 270
        ly = height - 24 + (j // 3) * 14
        out.append(f'<rect x="{lx}" y="{ly - 9}" width="10" height="10" '
                   f'fill="{colors[j % len(colors)]}"/>')
        out.append(f'<text x="{lx + 14}" y="{ly}">{kernel}, {run}</text>')
    out.append("</svg>")
    open(args.out, "w").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
