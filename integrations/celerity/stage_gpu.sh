#!/usr/bin/env bash
# Stages a Celerity build (made by run.sh or by hand against an installed syclone) for a GPU
# machine that has the NVIDIA driver and CUDA toolkit but no LLVM and no MPI (issues 17, 18):
# the examples, syclone's runtime and CUDA plugin, every library they load that is not glibc
# or libstdc++ (Open MPI 4.1 with PMIx, hwloc, libevent, Boost.Context, libcudart), Open MPI's
# components, help files and launcher (mpirun/orted, relocated with OPAL_PREFIX), a test image
# and run_gpu.sh, which runs it all there. Everything is stripped and packed into
# <out>/celerity-gpu.tar.gz (about 36 MB; run_gpu.sh unpacks it into $TMPDIR), so the folder
# is small to carry; Celerity's other test programs go into <out>/celerity-tests.tar.xz (about
# 7 MB, for run_gpu.sh's TESTS=all). KEEP_TREE=1 keeps the unpacked trees in <out>/tree and
# <out>/tests-tree (run_gpu.sh then uses them).
# Usage: integrations/celerity/stage_gpu.sh <celerity build dir> <syclone prefix> <out dir>
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
prefix=$(cd "$2" && pwd)
dest=$3
rm -rf "$dest"
mkdir -p "$dest/tree"
dest=$(cd "$dest" && pwd)
out=$dest/tree
mkdir -p "$out"/{bin,lib,mpi/bin,pmix}

examples=(hello_world matmul syncing wave_sim reduction convolution)
for ex in "${examples[@]}"; do
  exe=$(find "$build/examples" -name "$ex" -type f -executable | head -1)
  if [ -n "$exe" ]; then cp "$exe" "$out/bin/"; else echo "stage: example $ex not built" >&2; fi
done
# Celerity's test programs that use SYCL devices or the runtime, where they were built (the
# system tests, which Celerity's CI runs under mpirun with several ranks, live in test/system).
staged_tests=(sycl_tests accessor_tests runtime_tests backend_tests device_selection_tests
  runtime_deprecation_tests print_graph_tests distr_tests mpi_tests)
for t in "${staged_tests[@]}"; do
  exe=$build/test/$t
  [ -x "$exe" ] || exe=$build/test/system/$t
  [ -x "$exe" ] && cp "$exe" "$out/bin/"
done
# Every other test program of Celerity's test/CMakeLists.txt (graphs, grids, queues, the
# executor, thread pinning; ~3.2 MB each stripped, ~100 MB together) goes into a second
# tarball, <out>/celerity-tests.tar.xz: xz with a 64 MiB dictionary packs these near-identical
# binaries (each links the same runtime) to a few MB, where gzip gives ~1.2 MB each. run_gpu.sh
# unpacks it with TESTS=all. The aggregates instruction_graph_tests and all_tests (the same
# test cases again) and the benchmarks are left out.
tests_out=$dest/tests-tree
mkdir -p "$tests_out/bin" "$tests_out/lib"
for exe in "$build"/test/*_tests "$build"/test/system/*_tests; do
  [[ -f $exe && -x $exe ]] || continue
  t=$(basename "$exe")
  case " ${staged_tests[*]} instruction_graph_tests all_tests " in *" $t "*) continue ;; esac
  cp "$exe" "$tests_out/bin/"
done
# Celerity's integration test (test/integration/backend: CUDA backend selection and copies),
# where it was built (-DCELERITY_DETAIL_INTEGRATION_TESTING=ON, target backend).
[ -x "$build/test/integration/backend" ] && cp "$build/test/integration/backend" "$tests_out/bin/integration_backend"
cp -a "$prefix"/lib/libsyclone.so* "$prefix/lib/libsyclone-cuda.so" "$out/lib/"
cp "$prefix/bin/syclone-ls" "$out/bin/"
# syclone's own check of what Celerity's reductions need on a GPU (USM of another context),
# built by the same syclone as Celerity.
"$prefix/bin/syclone++" -O2 "$here/../../tests/e2e/reduction_usm_of_other_context.cpp" \
  -o "$out/bin/reduction_usm_of_other_context" || echo "stage: reduction_usm_of_other_context not built" >&2

# Open MPI as Debian installs it (prefix /usr): OPAL_PREFIX=$out/mpi relocates every
# directory it derives from the prefix (lib/x86_64-linux-gnu/openmpi/lib/openmpi3 holds the
# components, share/openmpi the help texts); PMIx likewise with PMIX_PREFIX=$out/pmix.
mpi_pkglib=$(ompi_info --path pkglibdir --parsable 2>/dev/null | sed -n 's/^path:pkglibdir://p')
mpi_pkglib=${mpi_pkglib:-/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3}
mpi_rel=${mpi_pkglib#/usr/}
mkdir -p "$out/mpi/$mpi_rel" "$out/mpi/share" "$out/mpi/etc"
cp -a /usr/share/openmpi "$out/mpi/share/"
cp /etc/openmpi/openmpi-mca-params.conf "$out/mpi/etc/" 2>/dev/null || true
for b in orterun orted; do cp "$(command -v $b)" "$out/mpi/bin/"; done
ln -sf orterun "$out/mpi/bin/mpirun"
ln -sf orterun "$out/mpi/bin/mpiexec"
pmix_so=$(ldd "$mpi_pkglib/mca_pmix_ext3x.so" 2>/dev/null | awk '/libpmix/ {print $3}' | head -1)
pmix_lib=/usr/lib/x86_64-linux-gnu/pmix2/lib
[ -n "$pmix_so" ] && pmix_lib=$(dirname "$(readlink -f "$pmix_so")")
mkdir -p "$out/pmix/lib" "$out/pmix/share"
[ -d "$pmix_lib/pmix" ] && cp -a "$pmix_lib/pmix" "$out/pmix/lib/"
[ -d "$pmix_lib/../share/pmix" ] && cp -a "$pmix_lib/../share/pmix" "$out/pmix/share/"

# Shared libraries: the closure of what the programs, orterun/orted and Open MPI's components
# load, less the C and C++ runtimes every Linux has (and libcuda, which comes with the driver).
system_lib='^(linux-vdso|ld-linux|libc|libm|libdl|libpthread|librt|libutil|libresolv|libstdc\+\+|libgcc_s|libcuda)\.so'
copy_deps() {
  local f dep name
  for f in "$@"; do
    while read -r name dep; do
      [ -n "$dep" ] || continue
      [[ $name =~ $system_lib ]] && continue
      [ -e "$out/lib/$name" ] && continue
      cp -L "$dep" "$out/lib/$name"
      copy_deps "$out/lib/$name"
    done < <(LD_LIBRARY_PATH="$out/lib:$prefix/lib:$pmix_lib" ldd "$f" 2>/dev/null |
      awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}')
  done
}
copy_deps "$out"/bin/* "$out"/mpi/bin/orterun "$out"/mpi/bin/orted "$out/lib/libsyclone-cuda.so"
# Components: keep those whose libraries all resolve inside the stage or the system set
# (drops UCX, libfabric, verbs, PSM, Java: the GPU machine has none and we do not ship them).
base_lib='^(libz|libudev|libbz2|libnl-[a-z-]*3|libhwloc|libpmix|libmunge|libevent[a-z_-]*2\.1|libltdl|libmca_common_(sm|ompio|monitoring|dstore))\.so'
for c in "$mpi_pkglib"/*.so "$pmix_lib"/pmix/*.so; do
  [ -e "$c" ] || continue
  missing=$(LD_LIBRARY_PATH="$out/lib:$pmix_lib" ldd "$c" 2>/dev/null | awk '$2 == "=>" {print $1, $3}' |
    while read -r name dep; do
      [[ $name =~ $system_lib ]] && continue
      [ -e "$out/lib/$name" ] && continue
      if [[ $name =~ $base_lib ]]; then echo "copy:$dep"; else echo "$name"; fi
    done)
  if grep -qv '^copy:\|^$' <<< "$missing"; then
    rm -f "$out/pmix/lib/pmix/$(basename "$c")"
    continue
  fi
  for d in $(sed -n "s/^copy://p" <<< "$missing"); do cp -L "$d" "$out/lib/"; done
  case "$c" in "$mpi_pkglib"/*) cp "$c" "$out/mpi/$mpi_rel/" ;; esac
done
copy_deps "$out/mpi/$mpi_rel"/*.so
# The second tarball's programs link what the first ships; anything else they load goes with them.
for f in "$tests_out"/bin/*; do
  [ -e "$f" ] || continue
  while read -r name dep; do
    [[ $name =~ $system_lib ]] && continue
    [ -e "$out/lib/$name" ] || [ -e "$tests_out/lib/$name" ] || cp -L "$dep" "$tests_out/lib/$name"
  done < <(LD_LIBRARY_PATH="$out/lib:$prefix/lib:$pmix_lib" ldd "$f" 2>/dev/null |
    awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}')
done

strip --strip-unneeded "$out"/bin/* "$out"/lib/*.so* "$out"/mpi/bin/orte* "$out/mpi/$mpi_rel"/*.so \
  "$tests_out"/bin/* "$tests_out"/lib/*.so* 2>/dev/null || true

# The image convolution and reduction read (generated, 512x384 RGB).
python3 -c "
import sys
w, h = 512, 384
px = bytes(v for y in range(h) for x in range(w) for v in (20 + (x * 7) % 211, 30 + (y * 5) % 197, 25 + ((x + y) * 3) % 181))
open(sys.argv[1], 'wb').write(b'P6\\n%d %d\\n255\\n' % (w, h) + px)" "$out/input.ppm"
cp "$here/run_gpu.sh" "$dest/run_gpu.sh"
chmod +x "$dest/run_gpu.sh"
tar -C "$out" -czf "$dest/celerity-gpu.tar.gz" .
if [ -n "$(ls -A "$tests_out/bin")" ]; then
  tar -C "$tests_out" -cf - . | xz -9 -T2 > "$dest/celerity-tests.tar.xz"
fi
[ "${KEEP_TREE:-0}" = 1 ] || rm -rf "$out" "$tests_out"
du -sh "$dest"/*; du -sh "$dest"
