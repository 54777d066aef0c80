#!/usr/bin/env bash
# GPU check: compiles the GPU kernel suite, a part of the numeric e2e suite
# (test/E2E) and the GPU benchmarks (bench/gpu.py) for a GPU, then, on a
# machine with that GPU, assembles and JIT-loads every kernel module, runs
# every e2e case on the GPU against PyTorch's CPU results and times the
# benchmarks, and prints one summary. Without a GPU the run says so and
# exits 77 (skipped). See docs/gpu.md, "Checking on a GPU".
#
# Usage:
#   tools/gpu-check.sh [BUILD_DIR]    both steps, on a GPU machine with the
#                                     toolchain (BUILD_DIR default: build)
#   tools/gpu-check.sh --prepare DIR [--chip sm_90] [--build BUILD_DIR]
#                      [--suites "NAME..."] [--quick] [--tiny-bench]
#                                     compiles everything into DIR, here
#   tools/gpu-check.sh --run DIR [--runs N] [--logs LOGDIR]
#                                     runs DIR on a GPU machine that needs
#                                     only bash and python3 with numpy
#                                     (torch: the benchmarks' baselines)
#
# --suites: test/E2E suites (NAME, or NAME:ARG:... for a suite that takes
# arguments) or paths to suite scripts; --quick: the benchmarks' quick set;
# --tiny-bench: the benchmarks' tiny shapes (tests on the fake driver);
# --logs: keep every suite's replay log and the benchmarks' in LOGDIR (the
# summary shows only a suite's first 20 failures).
# $ORACLE_PYTHON (default /usr/bin/python3, with torch) computes the
# references when preparing; $PYTHON (default python3) runs DIR.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
# The e2e suites checked on the GPU (about 1840 cases). Not recordable:
# autodiff.py and autodiff_ops.py (they compare runs with each other),
# fusion.py and fused_contraction.py (loop-nest checks of the CPU
# pipeline), gpu_tiling.py (the CPU by design).
default_suites="elementwise_unary elementwise_binary elementwise_misc dtypes
  reduction norms fused_rows linear convpool data_movement indexing scans
  composition attention:16:8 attention_backward:16:8 grads grad_spatial"
oracle=${ORACLE_PYTHON:-/usr/bin/python3}
python=${PYTHON:-python3}

usage() {
  sed -n '/^# Usage:/,/^# references/p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

# Sets `gpu` to "NAME, MAJOR.MINOR" of device 0, or says why there is none
# and exits 77.
find_gpu() {
  gpu=""
  if command -v nvidia-smi > /dev/null 2>&1; then
    gpu=$(nvidia-smi --query-gpu=name,compute_cap --format=csv,noheader \
      2>/dev/null | head -n 1)
  fi
  if [ -z "$gpu" ]; then
    why="nvidia-smi $(command -v nvidia-smi > /dev/null 2>&1 && echo 'lists no GPU' || echo 'not found')"
    ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1' || why="$why, libcuda.so.1 not installed"
    echo "gpu-check: no NVIDIA GPU on this machine ($why)."
    echo "gpu-check: nothing ran on a GPU, and the numeric e2e suite was not"
    echo "gpu-check: run on CUDA; here ptxas validates the PTX (lit:"
    echo "gpu-check: test/Pipelines/gpu-ptx.test) and a fake driver the runtime's"
    echo "gpu-check: CUDA path (lit: test/Runtime/cuda-*.test)."
    echo "gpu-check: SKIPPED"
    exit 77
  fi
}

pass=0
fail=0
step() {  # step NAME COMMAND...: runs COMMAND, counts and reports it.
  local what=$1
  shift
  if "$@" > "$work/log" 2>&1; then
    pass=$((pass + 1))
    echo "  ok    $what"
  else
    fail=$((fail + 1))
    echo "  FAIL  $what"
    sed 's/^/        /' "$work/log" | tail -n 20
  fi
}

# The summary line "N <word>, M failed" of a harness's output, or "".
harness_summary() {
  grep -E "^[0-9]+ $1, [0-9]+ failed$" "$2" | tail -n 1
}

# prepare DIR CHIP BUILD SUITES BENCH_FLAGS: compiles everything into DIR.
prepare() {
  local dir=$1 chip=$2 build=$3 suites=$4 bench_flags=$5
  echo "gpu-check: preparing $dir for $chip"
  if [ ! -x "$build/bin/rlx-compile" ]; then
    echo "gpu-check: no $build/bin/rlx-compile: build first (make build)"
    return 1
  fi
  if [ -d "$dir" ] && [ ! -f "$dir/PREPARED" ] && [ -n "$(ls -A "$dir")" ]; then
    echo "gpu-check: $dir exists and was not made by --prepare: not replacing it"
    return 1
  fi
  rm -rf "$dir" && mkdir -p "$dir/bin" "$dir/lib" "$dir/ptx" "$dir/e2e" \
    "$dir/python/rlx_testing" && echo "incomplete" > "$dir/PREPARED" ||
    return 1

  # The runtime and the tools that run modules, with every library they
  # need that the system does not provide (ldd: those under the build).
  cp "$build/bin/rlx-run" "$build/bin/rlx-cuda-test" "$dir/bin/" &&
    cp "$build/lib/librlx_runtime.so" "$dir/lib/" || return 1
  local lib
  for lib in $(ldd "$build/bin/rlx-run" "$build/bin/rlx-cuda-test" \
      "$build/lib/librlx_runtime.so" 2>/dev/null |
      awk -v b="$build" '$3 ~ "^"b {print $3}' | sort -u); do
    cp "$lib" "$dir/lib/"
  done
  cp "$root"/python/rlx_testing/*.py "$dir/python/rlx_testing/"

  # The kernel suite, one PTX file per kernel module.
  step "compile the kernel suite to PTX for $chip" \
    "$build/bin/rlx-compile" --target=cuda --chip="$chip" --emit=ptx \
    "$root/test/Pipelines/Inputs/gpu-kernels.mlir" -o "$work/suite.ptx"
  step "split the kernel suite into modules" \
    "$(command -v split-file || echo /usr/lib/llvm-22/bin/split-file)" \
    "$work/suite.ptx" "$dir/ptx"

  # The e2e suites, recorded by the harness (rlx_testing.recorded).
  local entry name args script
  for entry in $suites; do
    IFS=: read -r -a args <<< "$entry"
    name=${args[0]}
    args=("${args[@]:1}")
    script=$root/test/E2E/$name.py
    case $name in */*) script=$name ;; esac
    name=$(basename "$name" .py)
    [ ${#args[@]} -gt 0 ] && name="$name-$(IFS=-; echo "${args[*]}")"
    RLX_TEST_TARGET=cuda RLX_TEST_CUDA_CHIP=$chip RLX_BUILD_DIR=$build \
      RLX_TEST_RECORD=$dir/e2e/$name \
      PYTHONPATH=$root/python${PYTHONPATH:+:$PYTHONPATH} \
      "$oracle" "$script" "${args[@]}" > "$work/record.log" 2>&1
    local summary
    summary=$(harness_summary recorded "$work/record.log")
    if [ -z "$summary" ] || [ ! -f "$dir/e2e/$name/cases.json" ]; then
      fail=$((fail + 1))
      echo "  FAIL  record e2e $name: no recording"
      tail -n 20 "$work/record.log" | sed 's/^/        /'
    else
      # Cases that fail here (compile errors) are recorded as failures and
      # counted again by --run.
      pass=$((pass + 1))
      echo "  ok    record e2e $name: $summary"
      grep '^FAIL ' "$work/record.log" | head -n 5 | sed 's/^/        /'
    fi
  done

  # The benchmarks: the modules, and the script that times them.
  mkdir -p "$dir/bench" && cp "$root/bench/gpu.py" "$dir/bench/"
  step "compile the benchmarks for $chip" \
    "$oracle" "$root/bench/gpu.py" --prepare "$dir/bench" --chip "$chip" \
    --build "$build" $bench_flags

  # Libraries the compiled modules load beyond the system's (none today:
  # they need libc and libm) go to DIR/lib too.
  local needed missing
  needed=$(find "$dir/e2e" "$dir/bench" -name '*.so' -print0 |
    xargs -0 ldd 2>/dev/null | awk '$2 == "=>" {print $1, $3}' | sort -u)
  missing=$(echo "$needed" | awk '$2 == "not" {print $1}' | tr '\n' ' ')
  for lib in $(echo "$needed" | awk -v b="$build" \
      '$2 ~ "^(" b "|/usr/lib/llvm-)" {print $2}'); do
    cp "$lib" "$dir/lib/"
  done
  if [ -n "$missing" ]; then
    fail=$((fail + 1))
    echo "  FAIL  the modules need libraries not found here: $missing"
  fi

  {
    echo "chip=$chip"
    echo "commit=$(git -C "$root" describe --always --dirty 2>/dev/null)"
    echo "date=$(date -u +%Y-%m-%dT%H:%MZ)"
  } > "$dir/PREPARED"
  echo "gpu-check: prepared $dir ($(($(du -sb "$dir" | cut -f1) / 1000000))" \
    "MB): $pass steps ok, $fail failed; run it with tools/gpu-check.sh" \
    "--run $dir"
}

# run DIR RUNS: runs a prepared DIR on device 0 and prints the summary.
run() {
  local dir=$1 runs=$2
  if ! grep -q '^chip=' "$dir/PREPARED" 2>/dev/null; then
    echo "gpu-check: $dir was not made by tools/gpu-check.sh --prepare" \
      "(or it did not finish)"
    return 1
  fi
  find_gpu
  local name=${gpu%%,*} chip
  chip=sm_$(echo "${gpu##*,}" | tr -d ' .')
  local prepared_chip
  prepared_chip=$(sed -n 's/^chip=//p' "$dir/PREPARED")
  echo "gpu-check: $name ($chip); $dir: $(tr '\n' ' ' < "$dir/PREPARED")"
  [ "$prepared_chip" = "$chip" ] ||
    echo "gpu-check: note: compiled for $prepared_chip, running on $chip" \
      "(the driver JIT-compiles PTX for newer GPUs, not for older ones)"
  dir=$(cd "$dir" && pwd)
  # A copy to another machine may not keep the executable bits.
  chmod +x "$dir"/bin/* 2>/dev/null
  # Containers may mount the driver where the loader does not look.
  local d
  if [ -z "${RLX_CUDA_DRIVER:-}" ] &&
      ! ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1'; then
    for d in /usr/local/nvidia/lib64 /usr/local/nvidia/lib; do
      if [ -e "$d/libcuda.so.1" ]; then
        export RLX_CUDA_DRIVER=$d/libcuda.so.1
        echo "gpu-check: the driver: $RLX_CUDA_DRIVER"
        break
      fi
    done
  fi
  export LD_LIBRARY_PATH=$dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  export PYTHONUNBUFFERED=1  # a log cut short keeps what was printed
  export RLX_BUILD_DIR=$dir
  export PYTHONPATH=$dir/python${PYTHONPATH:+:$PYTHONPATH}

  # Every program below comes from DIR: say which runtime rlx-run loads.
  local runtime
  runtime=$(ldd "$dir/bin/rlx-run" 2>/dev/null | awk '/librlx_runtime/ {print $3}')
  if [ "$runtime" = "$dir/lib/librlx_runtime.so" ]; then
    pass=$((pass + 1))
    echo "  ok    rlx-run loads $runtime"
  else
    fail=$((fail + 1))
    echo "  FAIL  rlx-run loads '${runtime:-no librlx_runtime.so}', not DIR's"
  fi

  local ptxas f
  ptxas=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
  for f in "$dir"/ptx/*.ptx; do
    if [ -x "$ptxas" ]; then
      step "ptxas -arch=$chip $(basename "$f")" \
        "$ptxas" -arch="$chip" "$f" -o "$work/out.cubin"
    fi
    step "driver JIT of $(basename "$f")" "$dir/bin/rlx-cuda-test" --load-ptx "$f"
  done

  # The numeric e2e suites: every recorded case run by rlx-run on device 0,
  # its outputs compared with PyTorch's (CPU, float64) saved in DIR.
  cases_passed=0
  cases_failed=0
  if ! "$python" -c "import numpy" > /dev/null 2>&1; then
    fail=$((fail + 1))
    echo "  FAIL  e2e suites: $python cannot import numpy"
  else
    local suite summary ok bad
    for suite in "$dir"/e2e/*/; do
      suite=$(basename "$suite")
      "$python" -m rlx_testing.recorded "$dir/e2e/$suite" > "$work/e2e.log" 2>&1
      [ -n "$logs" ] && cp "$work/e2e.log" "$logs/e2e-$suite.log"
      summary=$(harness_summary passed "$work/e2e.log")
      if [ -z "$summary" ]; then
        fail=$((fail + 1))
        echo "  FAIL  e2e $suite on CUDA: no summary"
        tail -n 20 "$work/e2e.log" | sed 's/^/        /'
        continue
      fi
      read -r ok _ bad _ <<< "$summary"
      cases_passed=$((cases_passed + ok))
      cases_failed=$((cases_failed + bad))
      if [ "$bad" -eq 0 ]; then
        pass=$((pass + 1))
        echo "  ok    e2e $suite on CUDA: $summary"
      else
        fail=$((fail + 1))
        echo "  FAIL  e2e $suite on CUDA: $summary"
        grep '^FAIL ' "$work/e2e.log" | head -n 20 | sed 's/^/        /'
      fi
    done
  fi

  # The benchmarks, after the numeric suite; their table as it comes.
  "$python" "$dir/bench/gpu.py" --prepared "$dir/bench" --tools "$dir/bin" \
    --runs "$runs" 2>&1 | tee "$work/bench.log" | sed 's/^/  /'
  bench_status=${PIPESTATUS[0]}
  [ -n "$logs" ] && cp "$work/bench.log" "$logs/bench.log"
  bench=$(grep '^gpu-bench: [0-9]' "$work/bench.log" | tail -n 1)
  if [ "$bench_status" -eq 0 ] && [ -n "$bench" ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "  FAIL  benchmarks (exit status $bench_status)"
  fi

  echo "gpu-check: $pass passed, $fail failed on $name ($chip);" \
    "e2e cases on CUDA: $cases_passed passed, $cases_failed failed"
  echo "gpu-check: ${bench:-gpu-bench: no summary}"
}

mode=both
dir=""
chip=""
build=$root/build
suites=$default_suites
bench_flags=""
runs=20
logs=""
while [ $# -gt 0 ]; do
  case $1 in
    --prepare|--run)
      mode=${1#--}
      [ $# -ge 2 ] || usage
      dir=$2
      shift 2 ;;
    --chip) [ $# -ge 2 ] || usage; chip=$2; shift 2 ;;
    --build) [ $# -ge 2 ] || usage; build=$2; shift 2 ;;
    --suites) [ $# -ge 2 ] || usage; suites=$2; shift 2 ;;
    --runs) [ $# -ge 2 ] || usage; runs=$2; shift 2 ;;
    --logs) [ $# -ge 2 ] || usage; logs=$2; mkdir -p "$logs" || exit 2; shift 2 ;;
    --quick) bench_flags="$bench_flags --quick"; shift ;;
    --tiny-bench) bench_flags="$bench_flags --tiny"; shift ;;
    -h|--help) usage ;;
    -*) echo "gpu-check: unknown option '$1'" >&2; usage ;;
    *) build=$1; shift ;;
  esac
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
case $mode in
  prepare)
    prepare "$dir" "${chip:-sm_90}" "$build" "$suites" "$bench_flags" &&
      [ "$fail" -eq 0 ] ;;
  run)
    run "$dir" "$runs" && [ "$fail" -eq 0 ] ;;
  both)
    find_gpu
    chip=${chip:-sm_$(echo "${gpu##*,}" | tr -d ' .')}
    prepare "$work/prepared" "$chip" "$build" "$suites" "$bench_flags" &&
      run "$work/prepared" "$runs" && [ "$fail" -eq 0 ] ;;
esac
