#!/usr/bin/env bash
# Runs Celerity's examples, built against syclone and staged by stage_gpu.sh, on the NVIDIA
# GPUs of this machine (issues 17, 18): each example on syclone's host device first (the
# reference), then with 1 MPI rank on one GPU, with 2 ranks (one GPU each: Celerity gives each
# rank of a node its share of the GPUs) and with 1 rank driving every GPU, each checked by value;
# then a strong-scaling measurement of wave_sim (time per step from two run lengths, so start-up
# cancels) on 1 and 2 GPUs; then Celerity's test programs that were staged (runtime_tests on
# GPU 0, the system tests distr_tests/mpi_tests with 1 and with 2 ranks), with TESTS=all also
# every other test program of Celerity and its integration test test/integration/backend (from
# celerity-tests.tar.xz, 1 rank, GPU 0 visible).
# Every run has its own time limit, a failure never stops the rest, and a summary table ends
# the log. Needs no MPI, LLVM or network on the machine: Open MPI, syclone and the libraries
# come from this folder.
# Usage: bash <stage>/run_gpu.sh      (logs and the summary under $OUT, default <stage>/logs)
# Environment: DEVICE=gpu (default) or host (everything on syclone's host device, to check the
# script on a machine without a GPU), EXAMPLES (default: hello_world matmul syncing wave_sim
# reduction convolution; "none" skips the examples, the reference runs, syclone's own check and
# the scaling runs), TESTS=staged (default: the test programs of celerity-gpu.tar.gz) or all
# (also those of celerity-tests.tar.xz; the table of every test program goes to $OUT/tests.txt),
# WAVE_N (scaling grid, default 16384 on GPUs), BUDGET_S (stop starting runs after this many
# seconds, default 540), RUN_TIMEOUT (per example run, 150 s), TEST_TIMEOUT (per test program
# run, 240 s), CELERITY_THREAD_PINNING (default: Celerity's, false on fewer than 8 cores).
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${OUT:-$here/logs}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
DEVICE=${DEVICE:-gpu}
TESTS=${TESTS:-staged}
BUDGET_S=${BUDGET_S:-540}
RUN_TIMEOUT=${RUN_TIMEOUT:-150}
start=$(date +%s)
exec > >(tee "$OUT/run_gpu.log") 2>&1
# The programs and libraries: the tree stage_gpu.sh left (KEEP_TREE=1), else its tarball
# unpacked into a fresh folder of $TMPDIR.
# With TESTS=all, Celerity's other test programs come from <stage>/tests-tree or from
# celerity-tests.tar.xz (unpacked into $MORE, its own folder).
if [ -d "$here/tree/bin" ]; then
  S=$here/tree
else
  S=$(mktemp -d "${TMPDIR:-/tmp}/celerity-gpu.XXXXXX")
  trap 'rm -rf "$S"' EXIT
  tar -C "$S" -xzf "$here/celerity-gpu.tar.gz" || { echo "cannot unpack $here/celerity-gpu.tar.gz"; exit 1; }
fi
MORE=""
if [ "$TESTS" = all ]; then
  if [ -d "$here/tests-tree/bin" ]; then
    MORE=$here/tests-tree
  elif [ -f "$here/celerity-tests.tar.xz" ]; then
    MORE=$S/more-tests
    mkdir -p "$MORE"
    # tar -J needs the xz program; Python's lzma module does it where xz is missing.
    tar -C "$MORE" -xJf "$here/celerity-tests.tar.xz" 2>/dev/null ||
      python3 -c "import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])" \
        "$here/celerity-tests.tar.xz" "$MORE" || echo "cannot unpack $here/celerity-tests.tar.xz"
  else
    echo "TESTS=all: neither $here/tests-tree nor $here/celerity-tests.tar.xz (carry it with the stage)"
  fi
fi

export LD_LIBRARY_PATH="$S/lib${MORE:+:$MORE/lib}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export OPAL_PREFIX="$S/mpi" OPAL_SYSCONFDIR="$S/mpi/etc" PMIX_PREFIX="$S/pmix"
export PATH="$S/mpi/bin:$PATH"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Containers often forbid process_vm_readv (vader's single copy); shared memory works without.
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_btl=self,vader
export OMPI_MCA_rmaps_base_oversubscribe=1
# No ssh there: the "isolated" launcher starts local processes only (the default rsh launcher
# aborts when it finds no ssh, and so does a singleton MPI_Init); PMIx keeps its job data in
# process memory, not in shared-memory segments containers may restrict.
export OMPI_MCA_plm=isolated PMIX_MCA_gds=hash
export CELERITY_LOG_LEVEL=${CELERITY_LOG_LEVEL:-info}
# Celerity pins its threads to cores (2 ranks need about 8) and warns where there are too few;
# its tests fail on that warning. Where cores are few, pinning is off (affinity_tests sets its
# own pinning and still needs 3 cores).
if [ -z "${CELERITY_THREAD_PINNING+set}" ] && [ "$(nproc)" -lt 8 ]; then
  export CELERITY_THREAD_PINNING=false
  echo "== $(nproc) cores: CELERITY_THREAD_PINNING=false"
fi
gpu_selector=cuda:gpu
[ "$DEVICE" = host ] && gpu_selector=host

summary=()
record() { summary+=("$(printf '%-34s %-6s %s' "$1" "$2" "$3")"); }
out_of_time() { [ $(($(date +%s) - start)) -ge "$BUDGET_S" ]; }

echo "== stage $S${MORE:+ and $MORE}, DEVICE=$DEVICE, TESTS=$TESTS, $(date -u)"
nvidia-smi -L 2>&1 | head -8
SYCLONE_DEVICE_SELECTOR= "$S/bin/syclone-ls" 2>&1 | head -20
ngpu=$(SYCLONE_DEVICE_SELECTOR=cuda:gpu "$S/bin/syclone-ls" 2>/dev/null | grep -c '^\[cuda:gpu')
[ "$DEVICE" = host ] && ngpu=2
echo "== GPUs seen by syclone: $ngpu"
if [ "$ngpu" -lt 1 ]; then
  record "syclone-ls" FAIL "no cuda:gpu device (driver? CUDA_VISIBLE_DEVICES?)"
fi

# run <label> <ranks> <selector> <visible gpus or ''> <example> [args...]: runs in
# $OUT/<label>/<example>/, output in run.log there; sets rc and secs.
run() {
  local label=$1 ranks=$2 selector=$3 visible=$4 ex=$5
  shift 5
  local dir="$OUT/$label/$ex" exe="$S/bin/$ex"
  [ -x "$exe" ] || [ -z "$MORE" ] || exe="$MORE/bin/$ex"
  mkdir -p "$dir"
  local t0 t1
  t0=$(date +%s.%N)
  (
    cd "$dir" || exit 99
    export SYCLONE_DEVICE_SELECTOR=$selector
    [ -n "$visible" ] && export CUDA_VISIBLE_DEVICES=$visible
    if [ "$ranks" = 1 ]; then
      timeout -k 10 "$RUN_TIMEOUT" "$exe" "$@"
    else
      timeout -k 10 "$RUN_TIMEOUT" mpirun --oversubscribe --bind-to none -np "$ranks" \
        -x LD_LIBRARY_PATH -x SYCLONE_DEVICE_SELECTOR -x CELERITY_LOG_LEVEL \
        ${visible:+-x CUDA_VISIBLE_DEVICES} "$exe" "$@"
    fi
  ) > "$dir/run.log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  secs=$(python3 -c "print('%.3f' % ($t1 - $t0))")
  echo "-- $label $ex $*: exit $rc, ${secs}s"
  grep -E "Using platform|Hello|min = |error|Error|ERROR|what\(\)|FAILED|Abort" "$dir/run.log" | head -12 | sed 's/^/   /'
}

# Value checks (python3, standard library only).
cat > "$OUT/check.py" << 'EOF'
import struct, sys, zlib
def png(path):
    data = open(path, 'rb').read()
    pos, idat, w, h = 8, b'', 0, 0
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR': w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
        if kind == b'IDAT': idat += body
        pos += 12 + n
    raw, bpp, stride = zlib.decompress(idat), 3, w * 3
    out, prev, i = bytearray(), bytearray(stride), 0
    for _ in range(h):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0; b = prev[x]; c = prev[x - bpp] if x >= bpp else 0
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out += line; prev = line
    return w, h, out
def floats(path):
    d = open(path, 'rb').read()[16:]
    return struct.unpack('<%df' % (len(d) // 4), d)
what, ref, got = sys.argv[1:4]
if what == 'png':
    (rw, rh, r), (gw, gh, g) = png(ref), png(got)
    assert (rw, rh) == (gw, gh), 'size %dx%d vs %dx%d' % (rw, rh, gw, gh)
    diff = max(abs(x - y) for x, y in zip(r, g)); bad = sum(abs(x - y) > 1 for x, y in zip(r, g))
    print('png %dx%d: max |diff| %d, %d values off by more than 1' % (rw, rh, diff, bad)); sys.exit(bad != 0)
if what == 'wave':
    r, g = floats(ref), floats(got)
    assert len(r) == len(g), 'lengths %d vs %d' % (len(r), len(g))
    scale = max(max(abs(x) for x in r), 1e-30)
    diff = max(abs(x - y) for x, y in zip(r, g))
    print('wave_sim %d values: max |diff| %.3g (relative to max |u| %.3g: %.3g)' % (len(r), diff, scale, diff / scale))
    sys.exit(diff / scale > 1e-3)
if what == 'minmax':
    import re
    vals = lambda p: [float(v) for v in re.findall(r'(?:min|max) = ([-0-9.e]+)', open(p).read())]
    rv, gv = vals(ref), vals(got)
    assert len(rv) == 2 and len(gv) == 2, 'min/max line missing: %s %s' % (rv, gv)
    diff = max(abs(a - b) for a, b in zip(rv, gv)); print('reduction min/max %s vs reference %s' % (gv, rv))
    sys.exit(diff > 1e-4)
EOF

# check <label> <example>: compares $OUT/<label>/<example> with the host reference.
check() {
  local label=$1 ex=$2 dir="$OUT/$1/$2" ref="$OUT/host-ref/$2" why=""
  if [ "$rc" != 0 ]; then record "$label $ex" FAIL "exit $rc (${secs}s)"; return; fi
  case $ex in
    hello_world) grep -q "Hello World!" "$dir/run.log" && why="prints Hello World!" || why=FAIL ;;
    matmul | syncing) why="verified by the example itself" ;;
    convolution) why=$(python3 "$OUT/check.py" png "$ref/output.png" "$dir/output.png" 2>&1) || why="FAIL $why" ;;
    reduction) why=$(python3 "$OUT/check.py" minmax "$ref/run.log" "$dir/run.log" 2>&1) || why="FAIL $why" ;;
    wave_sim) why=$(python3 "$OUT/check.py" wave "$ref/wave_sim_result.bin" "$dir/wave_sim_result.bin" 2>&1) || why="FAIL $why" ;;
  esac
  case $why in FAIL*) record "$label $ex" FAIL "${why#FAIL } (${secs}s)" ;; *) record "$label $ex" ok "$why (${secs}s)" ;; esac
}

# shellcheck disable=SC2206
examples=(${EXAMPLES:-hello_world matmul syncing wave_sim reduction convolution})
[ "${EXAMPLES:-}" = none ] && examples=()
args_of() {
  case $1 in
    wave_sim) echo "-N 512 -T 15 --dt 0.5 --sample-rate 2" ;;
    reduction | convolution) echo "$S/input.ppm" ;;
  esac
}

# 0. syclone's e2e check of a reduction into USM of another context (as Celerity's reductions).
if [ "${#examples[@]}" -gt 0 ] && [ -x "$S/bin/reduction_usm_of_other_context" ]; then
  run syclone 1 "$gpu_selector" "0" reduction_usm_of_other_context
  if [ "$rc" = 0 ]; then record "syclone reduction_usm_of_other_context" ok "(${secs}s)"; else record "syclone reduction_usm_of_other_context" FAIL "exit $rc"; fi
fi

# 1. The reference: syclone's host device, 1 rank, for the examples whose output is compared.
for ex in "${examples[@]}"; do
  case $ex in wave_sim | reduction | convolution) ;; *) continue ;; esac
  out_of_time && { record "host-ref $ex" skip "time budget spent"; continue; }
  # shellcheck disable=SC2046
  run host-ref 1 host "" "$ex" $(args_of "$ex")
  if [ "$rc" = 0 ]; then record "host-ref $ex" ok "reference (${secs}s)"; else record "host-ref $ex" FAIL "exit $rc (${secs}s)"; fi
done

# 2. The GPU runs: 1 rank on GPU 0; 2 ranks (one GPU each where there are two); 1 rank on all.
configs=("gpu1-rank1 1 0")
if [ "$ngpu" -ge 2 ]; then
  configs+=("gpu2-rank2 2 " "gpu2-rank1 1 ")
else
  configs+=("gpu1-rank2 2 0")
fi
for cfg in "${configs[@]}"; do
  read -r label ranks visible <<< "$cfg"
  [ "$DEVICE" = host ] && visible=""
  for ex in "${examples[@]}"; do
    out_of_time && { record "$label $ex" skip "time budget spent"; continue; }
    # shellcheck disable=SC2046
    run "$label" "$ranks" "$gpu_selector" "$visible" "$ex" $(args_of "$ex")
    check "$label" "$ex"
  done
done

# 3. Strong scaling: wave_sim on an N x N grid, T1 and T2 time units (dt 0.25, no output);
# time per step = (t(T2) - t(T1)) / (steps(T2) - steps(T1)).
N=${WAVE_N:-16384}
T1=${WAVE_T1:-100}
T2=${WAVE_T2:-400}
if [ "$DEVICE" = host ]; then N=${WAVE_N:-256}; T1=${WAVE_T1:-5}; T2=${WAVE_T2:-15}; fi
scal=("1gpu 1 0")
[ "$ngpu" -ge 2 ] && scal+=("2gpu-2ranks 2 " "2gpu-1rank 1 ")
case " ${examples[*]} " in *" wave_sim "*) ;; *) scal=() ;; esac
scaling=()
for cfg in "${scal[@]}"; do
  read -r label ranks visible <<< "$cfg"
  [ "$DEVICE" = host ] && visible=""
  times=()
  for T in "$T1" "$T2"; do
    if out_of_time; then times+=(""); continue; fi
    run "scaling-$label-T$T" "$ranks" "$gpu_selector" "$visible" wave_sim -N "$N" -T "$T" --dt 0.25
    if [ "$rc" = 0 ]; then times+=("$secs"); else times+=(""); record "scaling $label T=$T" FAIL "exit $rc"; fi
  done
  if [ -n "${times[0]}" ] && [ -n "${times[1]}" ]; then
    per=$(python3 -c "print('%.4f' % ((${times[1]} - ${times[0]}) / (($T2 - $T1) / 0.25) * 1000))")
    scaling+=("$(printf '%-14s N=%-6s T=%s: %8ss  T=%s: %8ss  => %s ms/step' "$label" "$N" "$T1" "${times[0]}" "$T2" "${times[1]}" "$per")")
    record "scaling $label" ok "$per ms/step (N=$N)"
  fi
done

# 4. Celerity's own test programs, where they were staged (Catch2; their GPU cases skip without
# one): sycl_tests, accessor_tests and backend_tests with 1 rank on every GPU, runtime_tests
# and the other runtime test programs with 1 rank on GPU 0; the system tests distr_tests and
# mpi_tests with 1 rank (as Celerity's CTest runs them) and with 2 ranks (as its CI does: one
# GPU each, or both on GPU 0 where there is one GPU). TESTS=all adds every other test program
# (graphs, grids, queues, the executor, thread pinning; those that start Celerity's runtime
# use GPU 0), 1 rank each, as Celerity's CTest runs them.
tests=("sycl_tests 1 " "accessor_tests 1 " "backend_tests 1 " "runtime_tests 1 0"
  "device_selection_tests 1 0" "runtime_deprecation_tests 1 0" "print_graph_tests 1 0"
  "distr_tests 1 0" "distr_tests 2 " "mpi_tests 1 0" "mpi_tests 2 ")
if [ -n "$MORE" ]; then
  for exe in "$MORE"/bin/*_tests; do
    [ -x "$exe" ] || continue
    t=$(basename "$exe")
    case " ${tests[*]} " in *" $t "*) continue ;; esac
    tests+=("$t 1 0")
  done
fi
# Catch2's closing report(s), one per rank: "cases passed/failed/skipped/failed-as-expected of
# total; assertions passed/failed", ranks separated by "; ".
cat > "$OUT/catch2.py" << 'EOF2'
import re, sys
text = re.sub(r'\x1b\[[0-9;]*m', '', open(sys.argv[1], errors='replace').read())
num = lambda line, what: int((re.search(r'(\d+) ' + what, line) or [0, 0])[1])
ranks, lines = [], text.splitlines()
for i, line in enumerate(lines):
    m = re.match(r'All tests passed \((\d+) assertions? in (\d+) test cases?\)', line)
    if m:
        a, c = int(m[1]), int(m[2])
        ranks.append((c, 0, 0, 0, c, a, 0))
    elif line.startswith('test cases:'):
        asrt = next((l for l in lines[i + 1:i + 3] if l.startswith('assertions:')), '')
        total = int(re.match(r'test cases:\s*(\d+)', line)[1])
        ranks.append((num(line, 'passed'), num(line, r'failed(?! as expected)'), num(line, 'skipped'),
                      num(line, 'failed as expected'), total, num(asrt, 'passed'),
                      num(asrt, r'failed(?! as expected)')))
    elif line.startswith('No tests ran'):
        ranks.append((0, 0, 0, 0, 0, 0, 0))
print('; '.join('%d/%d/%d/%d of %d' % r[:5] for r in ranks) or 'no report')
print('; '.join('%d/%d' % r[5:] for r in ranks) or '-')
print(sum(r[1] + r[6] for r in ranks), len(ranks))
EOF2
table=("$(printf '%-34s %-5s %-6s %-40s %-18s %s' program ranks result \
  'test cases pass/fail/skip/xfail of all' 'assertions pass/fail' seconds)")
for cfg in "${tests[@]}"; do
  read -r t ranks visible <<< "$cfg"
  exe=$S/bin/$t
  [ -x "$exe" ] || [ -z "$MORE" ] || exe=$MORE/bin/$t
  [ -x "$exe" ] || continue
  [ "$ranks" = 2 ] && [ "$ngpu" -lt 2 ] && visible=0
  [ "$DEVICE" = host ] && visible=""
  label="tests-rank$ranks"
  if out_of_time; then
    record "test $t, $ranks rank(s)" skip "time budget spent"
    table+=("$(printf '%-34s %-5s %-6s %-40s %-18s %s' "$t" "$ranks" skip '(time budget spent)' - -)")
    continue
  fi
  RUN_TIMEOUT=${TEST_TIMEOUT:-240} run "$label" "$ranks" "$gpu_selector" "$visible" "$t"
  # One Catch2 report per rank (colored under mpirun, which gives its ranks a pty).
  res=$(sed 's/\x1b\[[0-9;]*m//g' "$OUT/$label/$t/run.log" | grep -aE "^(test cases|All tests passed)" |
    tr '\n' ';' | sed 's/;$//')
  { read -r cases; read -r asserts; read -r nfail nreports; } < <(python3 "$OUT/catch2.py" "$OUT/$label/$t/run.log")
  note=""
  # affinity_tests pins threads to cores 1..6 and fails where fewer than 3 cores are free.
  [ "$t" = affinity_tests ] && [ "$(nproc)" -lt 3 ] && note=" (needs >= 3 cores, $(nproc) here)"
  if [ "$rc" = 0 ] && [ "$nfail" = 0 ] && [ "$nreports" -ge "$ranks" ]; then
    record "test $t, $ranks rank(s)" ok "$res (${secs}s)"
    result=ok
  else
    record "test $t, $ranks rank(s)" FAIL "exit $rc: $res (${secs}s)$note"
    result=FAIL
    [ "$rc" = 124 ] || [ "$rc" = 137 ] && cases="timed out after ${TEST_TIMEOUT:-240} s; $cases"
  fi
  table+=("$(printf '%-34s %-5s %-6s %-40s %-18s %s' "$t" "$ranks" "$result" "$cases" "$asserts" "$secs$note")")
done

# 5. Celerity's integration test test/integration/backend (TESTS=all, where it was staged), as
# its run-integration-tests.py runs it for "nvidia" with the CUDA backend compiled in: without
# arguments it lists the devices ("<platform> <device>", one a line); given the index of the
# first CUDA device, Celerity must pick its CUDA backend ("Using CUDA backend for the selected
# devices", logged at level debug); given another device (syclone's host device), it must fall
# back with "No common backend specialization available". Each run also copies 1-, 2- and 3-D
# buffers between the device and the host and checks every value (it aborts on a wrong one).
ib=${MORE:+$MORE/bin/integration_backend}
if [ -n "$ib" ] && [ -x "$ib" ] && ! out_of_time; then
  visible=0
  [ "$DEVICE" = host ] && visible=""
  mkdir -p "$OUT/integration"
  (
    export SYCLONE_DEVICE_SELECTOR=
    [ -n "$visible" ] && export CUDA_VISIBLE_DEVICES=$visible
    cd "$OUT/integration" && timeout -k 10 60 "$ib" > devices.txt 2> devices.err
  )
  echo "-- integration backend: devices"
  sed 's/^/   /' "$OUT/integration/devices.txt"
  cuda_idx=$(grep -in cuda "$OUT/integration/devices.txt" | head -1 | cut -d: -f1)
  other_idx=$(grep -vin cuda "$OUT/integration/devices.txt" | head -1 | cut -d: -f1)
  for what in cuda other; do
    idx=${cuda_idx}
    expect="Using CUDA backend for the selected devices"
    if [ "$what" = other ]; then idx=$other_idx; expect="No common backend specialization available"; fi
    name="integration backend, $what device"
    if [ -z "$idx" ]; then
      # run-integration-tests.py fails without a CUDA device on "nvidia"; the host check has none.
      if [ "$what" = cuda ] && [ "$DEVICE" != host ]; then result=FAIL; else result=skip; fi
      record "$name" "$result" "no such device in the list"
      table+=("$(printf '%-34s %-5s %-6s %-40s %-18s %s' "integration backend ($what)" 1 "$result" "no $what device" - -)")
      continue
    fi
    idx=$((idx - 1))
    CELERITY_LOG_LEVEL=debug run "integration-$what" 1 "" "$visible" integration_backend "$idx"
    log=$OUT/integration-$what/integration_backend/run.log
    dev=$(sed -n "$((idx + 1))p" "$OUT/integration/devices.txt")
    if [ "$rc" = 0 ] && grep -q "$expect" "$log"; then
      result=ok
      record "$name" ok "$dev: \"$expect\", copies checked (${secs}s)"
    else
      result=FAIL
      record "$name" FAIL "$dev: exit $rc$(grep -q "$expect" "$log" || echo ", no \"$expect\"") (${secs}s)"
    fi
    table+=("$(printf '%-34s %-5s %-6s %-40s %-18s %s' "integration backend ($what)" 1 "$result" "${dev:0:40}" - "$secs")")
  done
fi

echo
echo "== strong scaling, wave_sim (DEVICE=$DEVICE)"
printf '%s\n' "${scaling[@]}" | tee "$OUT/scaling.txt"
echo
echo "== summary (DEVICE=$DEVICE, $(($(date +%s) - start)) s)"
printf '%s\n' "${summary[@]}" | tee "$OUT/summary.txt"
if [ "$TESTS" = all ]; then
  echo
  echo "== Celerity's test programs (DEVICE=$DEVICE, logs in $OUT/tests-rank*/<program>/run.log)"
  printf '%s\n' "${table[@]}" | tee "$OUT/tests.txt"
fi
fails=$(printf '%s\n' "${summary[@]}" | grep -c ' FAIL ')
echo "== $fails failed"
exit 0
