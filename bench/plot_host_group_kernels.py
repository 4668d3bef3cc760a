#!/usr/bin/env python3
"""SVG bars of one bench/host_group_kernels run: each kernel's time as work-item loops, as fibers
and (where there is one) the OpenMP loop doing the same work, on a log scale. Reads the log of
host_group_kernels (loops, fibers) and host_group_kernels_omp for the first problem size in it.
No plotting library needed. Usage: plot_host_group_kernels.py LOG -o OUT.svg
"""
import argparse
import math
import re

ROW = re.compile(r"^(\S.*?)\s{2,}([0-9.]+) ms$")
OPENMP = {"per-group sum, reduce_over_group": "openmp per-group sum",
          "per-group sum, local-memory tree": "openmp per-group sum",
          "per-group sum, sub-group shifts": "openmp per-group sum",
          "copy, nd_range": "openmp copy",
          "copy, grid-stride nd_range (16 x 256)": "openmp copy, grid-stride chunks (16 x 256)",
          "transpose, 16x16 local tile + barrier": "openmp transpose, 16x16 blocks",
          "transpose, naive (nd_range 16x16)": "openmp transpose, naive",
          "3-point stencil, local memory + barrier": "openmp 3-point stencil",
          "3-point stencil, naive": "openmp 3-point stencil"}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("log")
    parser.add_argument("-o", "--out", required=True)
    args = parser.parse_args()
    runs, section, title = {}, None, ""
    for line in open(args.log):
        if line.startswith("device:") and "mode " in line:
            mode = line.rsplit("mode ", 1)[1].strip()
            mode = "loops" if mode == "report" else mode  # loops that report fallbacks
            if mode in runs:
                break  # the next problem size
            section, title = runs.setdefault(mode, {}), line.split(",")[1].strip()
        elif line.startswith("openmp threads"):
            section = runs.setdefault("openmp", {})
        elif section is not None and (m := ROW.match(line.strip())):
            section[m.group(1)] = float(m.group(2))
    kernels = [k for k in runs["loops"] if k in OPENMP]
    series = [("work-item loops", "#1f77b4"), ("fibers", "#d62728"), ("OpenMP", "#2ca02c")]
    lo, hi = 0.01, max(runs["fibers"].values()) * 2
    scale = lambda ms: 330 * (math.log10(ms) - math.log10(lo)) / (math.log10(hi) - math.log10(lo))
    row, left = 54, 290
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="680" height="{60 + row * len(kernels)}"'
           ' font-family="sans-serif" font-size="12">',
           f'<text x="10" y="18" font-size="14">host device, {title}: time per kernel (ms, log scale)</text>']
    for i, (name, colour) in enumerate(series):
        out.append(f'<rect x="{left + i * 120}" y="28" width="10" height="10" fill="{colour}"/>'
                   f'<text x="{left + 14 + i * 120}" y="37">{name}</text>')
    for r, kernel in enumerate(kernels):
        y = 50 + r * row
        out.append(f'<text x="10" y="{y + 22}">{kernel}</text>')
        values = [runs["loops"][kernel], runs["fibers"][kernel], runs["openmp"][OPENMP[kernel]]]
        for i, ms in enumerate(values):
            w = max(scale(ms), 1)
            out.append(f'<rect x="{left}" y="{y + i * 15}" width="{w:.1f}" height="13" '
                       f'fill="{series[i][1]}"/><text x="{left + w + 4:.1f}" y="{y + i * 15 + 11}">'
                       f'{ms:g}</text>')
    out.append("</svg>")
    open(args.out, "w").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
