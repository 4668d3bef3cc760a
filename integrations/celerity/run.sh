#!/usr/bin/env bash
# Builds Celerity (celerity/celerity-runtime) against an installed syclone and runs its tests
# and examples (issue 17). Fetches nothing: it takes a Celerity checkout whose vendor/
# submodules are present, applies celerity-syclone.patch (the CELERITY_SYCL_IMPL=syclone
# branch), configures, builds, then runs ctest and the examples with 1, 2 and 4 MPI ranks.
# Usage: integrations/celerity/run.sh <celerity checkout> <syclone install prefix> [build dir]
# Environment: CELERITY_TARGETS (ninja targets, default: everything), RANKS ("1 2 4"),
# EXTRA_CXX_FLAGS (e.g. -DFMT_CONSTEVAL= when vendor/fmt and vendor/spdlog disagree, see
# README.md), OUT (logs, default .).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$1" && pwd)
prefix=$(cd "$2" && pwd)
build=${3:-$src/build-syclone}
out=${OUT:-.}
mkdir -p "$out" "$build"
if ! grep -q CELERITY_SYCL_IS_SYCLONE "$src/include/version.h.in"; then
  (cd "$src" && patch -p1 < "$here/celerity-syclone.patch") || exit 1
fi
cmake -G Ninja -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER=clang++-22 -DCMAKE_C_COMPILER=clang-22 \
  -DCELERITY_SYCL_IMPL=syclone -DCMAKE_PREFIX_PATH="$prefix" -DCELERITY_USE_MIMALLOC=OFF \
  -DCMAKE_CXX_FLAGS="${EXTRA_CXX_FLAGS:-}" 2>&1 | tee "$out/celerity_configure.log" || exit 1
# shellcheck disable=SC2086
ninja -C "$build" -k 0 ${CELERITY_TARGETS:-} 2>&1 | tee "$out/celerity_build.log"
export LD_LIBRARY_PATH="$prefix/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
(cd "$build" && ctest --output-on-failure --timeout 600) 2>&1 | tee "$out/celerity_ctest.log"
# convolution and reduction read an image: a generated 256x192 PPM unless IMAGE names one.
image=${IMAGE:-$out/celerity_input.ppm}
if [ ! -f "$image" ]; then
  python3 -c "
import sys
w, h = 256, 192
px = bytes(v for y in range(h) for x in range(w) for v in ((x * 7) % 256, (y * 5) % 256, ((x + y) * 3) % 256))
open(sys.argv[1], 'wb').write(b'P6\\n%d %d\\n255\\n' % (w, h) + px)" "$image"
fi
for n in ${RANKS:-1 2 4}; do
  for ex in hello_world matmul syncing wave_sim reduction convolution; do
    exe=$(find "$build/examples" -name "$ex" -type f -executable | head -1)
    [ -n "$exe" ] || { echo "example $ex: not built"; continue; }
    args=()
    [ "$ex" = wave_sim ] && args=(-T 15 --dt 0.5 --sample-rate 2)
    [ "$ex" = reduction ] || [ "$ex" = convolution ] && args=("$image")
    echo "==== $ex, $n ranks"
    (cd "$(dirname "$exe")" && timeout 600 mpirun --allow-run-as-root --oversubscribe -n "$n" \
      "$exe" "${args[@]}")
    echo "==== $ex, $n ranks: exit $?"
  done
done 2>&1 | tee "$out/celerity_examples.log"
