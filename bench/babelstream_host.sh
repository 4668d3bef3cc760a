#!/usr/bin/env bash
# BabelStream v5.0 on the host device against its OpenMP model (issue 29): builds the SYCL 1.2.1
# model (its Dot is an nd_range local-memory tree), the SYCL 2020 accessor and USM models
# (sycl::reduction) with syclone++ and the OpenMP model with clang++-22 -fopenmp, all -O3 with the
# same -march, from an unmodified BabelStream v5.0 checkout, into OUT.
# Usage: bench/babelstream_host.sh BABELSTREAM_SRC OUT [march]   (after scripts/setup.sh)
# Run:   SYCLONE_DEVICE_SELECTOR=host OUT/sycl2020-usm -s $((1 << 25)) -n 100 ; OUT/omp ...
set -euo pipefail
src=$(cd "$1" && pwd)/src
out=$2
march=${3:-native}
root=$(cd "$(dirname "$0")/.." && pwd)
syclone=${SYCLONE_CXX:-$root/build/bin/syclone++}
mkdir -p "$out"
flags=(-O3 -march="$march" -std=c++17 -I"$src")
for model in sycl sycl2020-acc sycl2020-usm; do
  macro=SYCL2020
  [ "$model" = sycl ] && macro=SYCL
  "$syclone" -fsycl-targets=host "${flags[@]}" -D"$macro" -I"$src/$model" "$src/main.cpp" \
    "$src/$model"/*.cpp -o "$out/$model"
done
clang++-22 "${flags[@]}" -fopenmp -DOMP -I"$src/omp" "$src/main.cpp" "$src/omp/OMPStream.cpp" \
  -o "$out/omp"
# The OpenMP runtime travels with the binaries (the GPU machine has no LLVM).
omp=$(ldd "$out/omp" | awk '/libomp/ {print $3}')
[ -n "$omp" ] && cp -L "$omp" "$out/"
echo "built: $(ls "$out")"
