#!/bin/sh
# rlx-run on the runtime's fixture with complex tensors (c64, c128):
# --list names the dtypes, --random fills both parts, outputs print as
# "re+imj" with the range of |z| and the mean, -o writes NumPy's complex
# descrs and -i reads them back.
#
# Usage: complex_test.sh RLX_RUN FIXTURE_DIR
# Prints one line per check and ends with "N passed, M failed".
set -u
rlx_run=$1
module=$2/rlx_runtime_fixture_complex.so
scratch=$(mktemp -d "${TMPDIR:-/tmp}/rlx-run-complex-XXXXXX") || exit 2
trap 'rm -rf "$scratch"' EXIT
passed=0
failed=0

pass() {
  passed=$((passed + 1))
  echo "PASS: $1"
}

# check NAME STATUS TEXT -- ARGS...: runs rlx-run ARGS, expects exit status
# STATUS and TEXT (a fixed string) in its stdout and stderr.
check() {
  name=$1 status=$2 text=$3
  shift 4
  "$rlx_run" "$@" >"$scratch/out" 2>&1
  got=$?
  if [ "$got" -eq "$status" ] && grep -qF -- "$text" "$scratch/out"; then
    pass "$name"
  else
    failed=$((failed + 1))
    echo "FAIL: $name: exit status $got (want $status), output:"
    sed 's/^/      /' "$scratch/out"
    echo "      (want '$text')"
  fi
}

# check_file NAME FILE TEXT: FILE holds TEXT (a fixed string).
check_file() {
  if grep -qF -- "$3" "$2" 2>/dev/null; then
    pass "$1"
  else
    failed=$((failed + 1))
    echo "FAIL: $1: '$2' lacks '$3'"
  fi
}

check "list: complex dtypes" 0 \
  "split_c128(c128[2,2]) -> (f64[2,2], f64[2,2], c128[])" -- "$module" --list
check "list: c64" 0 "mul_c64(c64[3], c64[3]) -> (c64[3])" -- "$module" --list
# split_c128 copies the parts of its random input: the real parts are
# random, and so are the imaginary ones.
check "random: real parts" 0 \
  "output 0: f64[2,2] = [0.133123, 0.942006, -0.111471, 0.754697]" \
  -- "$module" -f split_c128 --random 1
check "random: imaginary parts" 0 \
  "output 1: f64[2,2] = [0.491564, -0.111282, 0.525789, 0.0461344]" \
  -- "$module" -f split_c128 --random 1
check "print: a complex scalar" 0 "output 2: c128[] = 1.71836+0.952205j" \
  -- "$module" -f split_c128 --random 1
check "print: complex statistics" 0 \
  "  min |z| 1.96455, max |z| 1.96455, mean 1.71836+0.952205j" \
  -- "$module" -f split_c128 --random 1
check "print: a c64 output" 0 "output 0: c64[3] = [" \
  -- "$module" -f mul_c64 --random 7 -o "$scratch/mul"
check "print: c64 statistics" 0 "  min |z| " \
  -- "$module" -f mul_c64 --random 7
check_file "save: c64 is NumPy's complex64" "$scratch/mul/out0.npy" \
  "'descr': '<c8'"
check "save: c128" 0 "wrote $scratch/split/out2.npy" \
  -- "$module" -f split_c128 --random 1 -o "$scratch/split"
check_file "save: c128 is NumPy's complex128" "$scratch/split/out2.npy" \
  "'descr': '<c16'"
check "npy: complex inputs" 0 "output 0: c64[3] = [" \
  -- "$module" -f mul_c64 -i "$scratch/mul/out0.npy" -i "$scratch/mul/out0.npy"
check "npy: a real file for a complex input" 1 \
  "error: input 0 of 'mul_c64': expected dtype c64, got f64" \
  -- "$module" -f mul_c64 -i "$scratch/split/out0.npy" \
  -i "$scratch/mul/out0.npy"
check "npy: c128 for c64" 1 \
  "error: input 1 of 'mul_c64': expected dtype c64, got c128" \
  -- "$module" -f mul_c64 -i "$scratch/mul/out0.npy" \
  -i "$scratch/split/out2.npy"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
