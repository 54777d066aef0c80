#!/usr/bin/env bash
# GPU check: on a machine with an NVIDIA GPU, compiles the GPU kernel suite
# for the GPU's architecture, assembles it with ptxas, JIT-loads every PTX
# module through the runtime's CUDA path, runs a representative part of the
# numeric e2e suite (test/E2E) on the GPU against PyTorch on the CPU, and
# prints one summary. Without a GPU it says so and exits 77 (skipped). See
# docs/gpu.md.
#
# Usage: tools/gpu-check.sh [BUILD_DIR]   (default: build)
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
suite=$root/test/Pipelines/Inputs/gpu-kernels.mlir

gpu=""
if command -v nvidia-smi > /dev/null 2>&1; then
  gpu=$(nvidia-smi --query-gpu=name,compute_cap --format=csv,noheader 2>/dev/null | head -n 1)
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

name=${gpu%%,*}
cap=$(echo "${gpu##*,}" | tr -d ' .')
chip=sm_$cap
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "gpu-check: $name ($chip)"

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

step "compile the kernel suite to PTX for $chip" \
  "$build/bin/rlx-compile" --target=cuda --chip="$chip" --emit=ptx "$suite" -o "$work/suite.ptx"
mkdir -p "$work/ptx"
/usr/lib/llvm-22/bin/split-file "$work/suite.ptx" "$work/ptx" 2>/dev/null ||
  split-file "$work/suite.ptx" "$work/ptx"
ptxas=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
for f in "$work"/ptx/*.ptx; do
  if [ -x "$ptxas" ]; then
    step "ptxas -arch=$chip $(basename "$f")" "$ptxas" -arch="$chip" "$f" -o "$work/out.cubin"
  fi
  step "driver JIT of $(basename "$f")" "$build/bin/rlx-cuda-test" --load-ptx "$f"
done

# The numeric e2e suites: every case compiled with --target=cuda and run by
# rlx-run on device 0, its outputs compared with PyTorch (CPU, float64).
e2e_suites="elementwise_unary elementwise_binary reduction norms fused_rows
            linear convpool"
cases_passed=0
cases_failed=0
oracle=/usr/bin/python3
if ! "$oracle" -c "import torch, numpy" > /dev/null 2>&1; then
  fail=$((fail + 1))
  echo "  FAIL  e2e suites: $oracle cannot import torch and numpy"
else
  for suite_name in $e2e_suites; do
    RLX_TEST_TARGET=cuda RLX_TEST_CUDA_CHIP=$chip RLX_BUILD_DIR=$build \
      PYTHONPATH=$root/python${PYTHONPATH:+:$PYTHONPATH} \
      "$oracle" "$root/test/E2E/$suite_name.py" > "$work/e2e.log" 2>&1
    summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$work/e2e.log" | tail -n 1)
    if [ -z "$summary" ]; then
      fail=$((fail + 1))
      echo "  FAIL  e2e $suite_name on CUDA: no summary"
      tail -n 20 "$work/e2e.log" | sed 's/^/        /'
      continue
    fi
    read -r ok _ bad _ <<< "$summary"
    cases_passed=$((cases_passed + ok))
    cases_failed=$((cases_failed + bad))
    if [ "$bad" -eq 0 ]; then
      pass=$((pass + 1))
      echo "  ok    e2e $suite_name on CUDA: $summary"
    else
      fail=$((fail + 1))
      echo "  FAIL  e2e $suite_name on CUDA: $summary"
      grep '^FAIL ' "$work/e2e.log" | head -n 20 | sed 's/^/        /'
    fi
  done
fi

echo "gpu-check: $pass passed, $fail failed on $name ($chip);" \
  "e2e cases on CUDA: $cases_passed passed, $cases_failed failed"
[ "$fail" -eq 0 ]
