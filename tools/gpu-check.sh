#!/usr/bin/env bash
# GPU check: on a machine with an NVIDIA GPU, compiles the GPU kernel suite
# for the GPU's architecture, assembles it with ptxas, JIT-loads every PTX
# module through the runtime's CUDA path, and prints one summary. Without a
# GPU it says so and exits 77 (skipped). See docs/gpu.md.
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
  echo "gpu-check: nothing ran on a GPU; here only ptxas validates the PTX"
  echo "gpu-check: (lit: test/Pipelines/gpu-ptx.test)."
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

echo "gpu-check: $pass passed, $fail failed on $name ($chip)"
echo "gpu-check: not run: the numeric e2e suite on CUDA (rlx-run cannot run"
echo "gpu-check: --target=cuda modules yet; see docs/gpu.md)"
[ "$fail" -eq 0 ]
