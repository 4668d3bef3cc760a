#!/usr/bin/env bash
# What the work-item loop compiler adds to the host compile (issue 29: at most 1.2x): each source
# is compiled for the host device (-fsycl-targets=host -O2 -c) by syclone++'s own clang command
# with the pass plugin and without it (the same command, less -fpass-plugin): the best CPU time
# (user + system) of REPS compiles each, which a busy machine disturbs less than wall time.
# Usage: bench/host_compile_time.sh [reps] source...   (after scripts/setup.sh)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
syclone=${SYCLONE_CXX:-$root/build/bin/syclone++}
reps=${1:-3}
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
best() { # command... -> the best CPU time (user + system, seconds) of the compile
  local best=999999 t
  for _ in $(seq "$reps"); do
    t=$( { TIMEFORMAT='%U %S'; time "$@" >/dev/null 2>&1; } 2>&1 | awk '{print $1 + $2}')
    best=$(awk -v a="$best" -v b="$t" 'BEGIN{print (b < a) ? b : a}')
  done
  echo "$best"
}
printf '%-40s %10s %10s %7s\n' source "with (s)" "without" ratio  # CPU seconds
total_with=0
total_without=0
for source in "$@"; do
  # The clang command syclone++ runs for the host compile, one argument per line.
  mapfile -t with < <("$syclone" -fsycl-targets=host -O2 -c "$source" -o "$tmp/o.o" -### 2>&1 |
    awk '/-fsycl-host-only/ && /-fpass-plugin/ {print; exit}' | xargs -n1 printf '%s\n')
  [ "${#with[@]}" -gt 0 ] || { echo "no host command for $source" >&2; exit 1; }
  # The plugin's side file goes to this script's own folder (syclone++'s is gone by now).
  for i in "${!with[@]}"; do
    [[ ${with[$i]} == -fplugin-arg-syclone-out=* ]] && with[$i]=-fplugin-arg-syclone-out=$tmp/side
  done
  without=()
  for a in "${with[@]}"; do [[ $a == -fpass-plugin=* ]] || without+=("$a"); done
  tw=$(best "${with[@]}")
  to=$(best "${without[@]}")
  total_with=$(awk -v a="$total_with" -v b="$tw" 'BEGIN{print a+b}')
  total_without=$(awk -v a="$total_without" -v b="$to" 'BEGIN{print a+b}')
  printf '%-40s %10.2f %10.2f %7.3f\n' "$(basename "$source")" "$tw" "$to" \
    "$(awk -v a="$tw" -v b="$to" 'BEGIN{print a/b}')"
done
printf '%-40s %10.2f %10.2f %7.3f\n' total "$total_with" "$total_without" \
  "$(awk -v a="$total_with" -v b="$total_without" 'BEGIN{print a/b}')"
