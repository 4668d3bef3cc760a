#!/usr/bin/env python3
"""Turns the logs of the prefetch benchmarks into an SVG chart and a Markdown table.

Reads every line of the form
    bench=<b> impl=<i> variant=<v> ms=<best time> gbps=<GB/s>
(bench/cuda_prefetch, bench/cuda_prefetch_native, bench/host_prefetch) from the given logs, and
the "device: ..." lines. For each benchmark and implementation it plots the speedup of each
prefetch variant over the same implementation without prefetch (variant "none"): above 1 the
prefetch pays, below 1 it costs. No plotting library needed: the SVG is written directly.

Usage: bench/plot_prefetch.py LOG... [-o bench/results/prefetch.svg] [--markdown table.md]
"""

import argparse
import collections
import html
import re
import sys

LINE = re.compile(
    r"bench=(?P<bench>\S+) impl=(?P<impl>\S+) variant=(?P<variant>\S+) "
    r"ms=(?P<ms>[0-9.]+) gbps=(?P<gbps>[0-9.]+)")
DEVICE = re.compile(r"^device: (.*)$")

# Bar colours per implementation (syclone on the GPU, native CUDA, syclone on the host CPU).
COLOURS = {"syclone": "#1f77b4", "cuda": "#ff7f0e", "syclone-host": "#2ca02c"}
TARGET = {"syclone": "GPU", "cuda": "GPU", "syclone-host": "host CPU"}


def parse(paths):
    results = collections.OrderedDict()  # (bench, impl, variant) -> (ms, gbps)
    devices = []
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as log:
            for line in log:
                m = LINE.search(line)
                if m:
                    key = (m["bench"], m["impl"], m["variant"])
                    results[key] = (float(m["ms"]), float(m["gbps"]))
                    continue
                d = DEVICE.match(line.strip())
                if d and d[1] not in devices:
                    devices.append(d[1])
    return results, devices


def speedups(results):
    """(bench, impl) -> [(variant, speedup over none, ms, gbps)], in log order."""
    rows = collections.OrderedDict()
    for (bench, impl, variant), (ms, gbps) in results.items():
        base = results.get((bench, impl, "none"))
        if base is None:
            continue
        rows.setdefault((bench, impl), []).append((variant, base[0] / ms, ms, gbps))
    return rows


def svg(rows, devices, title):
    bar_h, gap, group_gap = 16, 3, 18
    left, right, top = 250, 120, 70
    width = 900
    plot_w = width - left - right
    top_speedup = max([s for bars in rows.values() for _, s, _, _ in bars] + [1.0])
    scale_max = max(2.0, top_speedup * 1.1)

    def x_of(value):
        return left + plot_w * value / scale_max

    height = top + sum(len(b) * (bar_h + gap) + group_gap for b in rows.values()) + 50
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{width / 2}" y="22" text-anchor="middle" font-size="16">'
        f'{html.escape(title)}</text>',
        f'<text x="{width / 2}" y="40" text-anchor="middle" fill="#555">'
        f'{html.escape("; ".join(devices))}</text>',
        f'<text x="{width / 2}" y="56" text-anchor="middle" fill="#555">speedup over the same '
        f'kernel without prefetch (right of the line: prefetch pays)</text>',
    ]
    y = top
    for (bench, impl), bars in rows.items():
        out.append(f'<text x="8" y="{y + bar_h - 3}" font-weight="bold">'
                   f'{html.escape(bench)} ({html.escape(impl)}, {TARGET.get(impl, "")})</text>')
        for variant, speedup, ms, gbps in bars:
            colour = COLOURS.get(impl, "#7f7f7f")
            opacity = "0.45" if variant == "none" else "1"
            out.append(f'<text x="{left - 6}" y="{y + bar_h - 4}" text-anchor="end">'
                       f'{html.escape(variant)}</text>')
            out.append(f'<rect x="{left}" y="{y}" width="{x_of(speedup) - left:.1f}" '
                       f'height="{bar_h}" fill="{colour}" fill-opacity="{opacity}"/>')
            out.append(f'<text x="{x_of(speedup) + 4:.1f}" y="{y + bar_h - 4}">'
                       f'{speedup:.2f}x  ({ms:.3f} ms, {gbps:.1f} GB/s)</text>')
            y += bar_h + gap
        y += group_gap
    # Axis: speedup 1 (no change) and a few ticks.
    step = 0.5 if scale_max <= 4 else (1 if scale_max <= 10 else 5)
    tick = 0.0
    while tick <= scale_max:
        x = x_of(tick)
        out.append(f'<line x1="{x:.1f}" y1="{top - 6}" x2="{x:.1f}" y2="{y}" '
                   f'stroke="{"#000" if tick == 1 else "#ddd"}" '
                   f'stroke-width="{1.5 if tick == 1 else 1}"/>')
        out.append(f'<text x="{x:.1f}" y="{y + 14}" text-anchor="middle">{tick:g}x</text>')
        tick += step
    out.append("</svg>")
    return "\n".join(out) + "\n"


def markdown(rows):
    lines = ["| benchmark | implementation | variant | best time (ms) | GB/s | speedup |",
             "| --- | --- | --- | ---: | ---: | ---: |"]
    for (bench, impl), bars in rows.items():
        for variant, speedup, ms, gbps in bars:
            lines.append(f"| {bench} | {impl} | {variant} | {ms:.3f} | {gbps:.1f} | "
                         f"{speedup:.2f}x |")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logs", nargs="+")
    parser.add_argument("-o", "--output", default="bench/results/prefetch.svg")
    parser.add_argument("--markdown", help="also write the numbers as a Markdown table here")
    parser.add_argument("--title", default="sycl_ext_oneapi_prefetch: when prefetch pays")
    args = parser.parse_args()
    results, devices = parse(args.logs)
    rows = speedups(results)
    if not rows:
        sys.exit("no bench=... lines with a variant=none baseline in " + ", ".join(args.logs))
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(svg(rows, devices, args.title))
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as f:
            f.write(markdown(rows))
    print(f"wrote {args.output}" + (f" and {args.markdown}" if args.markdown else ""))


if __name__ == "__main__":
    main()
