#!/usr/bin/env bash
# Runs categories of the Khronos SYCL 2020 CTS against syclone and prints the conformance table
# (category | TUs compiled/total | cases passed/failed/skipped | first errors).
#
#   scripts/cts.sh [--target host|nvptx64] [--cts DIR] [--syclone BUILD] [--out FILE] [category...]
#
# The CTS checkout: --cts, else $SYCLONE_CTS_DIR, else ../shared/sycl-cts. It is configured out of
# tree (default <syclone build>/cts-<target>) with conformance/cts/ as syclone's adapter, so the
# checkout may be read-only; compiles go through ccache when installed. Every test case runs in its
# own process with a time limit (--timeout, default 120 s). `--help` lists the other options.
set -euo pipefail
exec python3 "$(dirname "$0")/../conformance/cts/cts.py" "$@"
