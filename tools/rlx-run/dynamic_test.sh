#!/bin/sh
# rlx-run on the runtime's fixture with symbolic shapes (manifest version 2):
# --list prints symbolic dims as written and the where clauses, --dim sizes
# the --random inputs, outputs get their computed shapes, and a missing,
# unknown or malformed --dim is an error.
#
# Usage: dynamic_test.sh RLX_RUN FIXTURE_DIR
# Prints one line per check and ends with "N passed, M failed".
set -u
rlx_run=$1
module=$2/rlx_runtime_fixture_dynamic.so
scratch=$(mktemp -d "${TMPDIR:-/tmp}/rlx-run-dynamic-XXXXXX") || exit 2
trap 'rm -rf "$scratch"' EXIT
passed=0
failed=0

# check NAME STATUS TEXT -- ARGS...: runs rlx-run ARGS, expects exit status
# STATUS and TEXT (a fixed string) in its stdout and stderr.
check() {
  name=$1 status=$2 text=$3
  shift 4
  "$rlx_run" "$@" >"$scratch/out" 2>&1
  got=$?
  if [ "$got" -eq "$status" ] && grep -qF -- "$text" "$scratch/out"; then
    passed=$((passed + 1))
    echo "PASS: $name"
  else
    failed=$((failed + 1))
    echo "FAIL: $name: exit status $got (want $status), output:"
    sed 's/^/      /' "$scratch/out"
    echo "      (want '$text')"
  fi
}

check "list: symbolic dims" 0 \
  "concat(f32[A,C], f32[B,C]) -> (f32[A+B,C])" -- "$module" --list
check "list: where clauses" 0 \
  "chunks(f32[S], i8[K]) -> (f32[S/K,K]) where S%K == 0, K <= 64" \
  -- "$module" --list
check "list: input dims that are expressions" 0 \
  "pair_sum(f32[2*N], f32[N]) -> (f32[N])" -- "$module" --list
check "random: --dim sizes the inputs, the output has the computed shape" 0 \
  "output 0: f32[3,3] = [" \
  -- "$module" -f concat --random 1 --dim A=2 --dim B=1 --dim C=3
check "random: an expression of a symbol" 0 "output 0: f32[4] = [" \
  -- "$module" -f pair_sum --random 0 --dim N=4 -o "$scratch/pair_sum"
check "random: empty inputs" 0 "output 0: f32[0,4] = []" \
  -- "$module" -f add --random 0 --dim S=0
check "random: save and bench" 0 "median:" \
  -- "$module" -f pairs --random 2 --dim S=6 -o "$scratch/pairs" --bench 2
check "npy: a file's shape binds the symbols" 0 "output 0: f32[2] = [" \
  -- "$module" -f window -i "$scratch/pair_sum/out0.npy"
check "missing --dim" 1 \
  "error: 'concat' has symbolic input dims: give each size with --dim NAME=VALUE; missing: C, B" \
  -- "$module" -f concat --random 1 --dim A=2
check "unknown --dim" 1 \
  "error: --dim X: 'add' has no symbol 'X'; its symbols: S" \
  -- "$module" -f add --random 1 --dim S=2 --dim X=4
check "--dim for static shapes" 1 "error: --dim S: the shapes of 'fold' are static" \
  -- "$module" -f fold --random 1 --dim S=2
check "--dim without --random" 2 \
  "error: --dim sets the sizes of --random inputs" -- "$module" -f add --dim S=2
check "--dim given twice" 2 "error: --dim gives 'S' more than once" \
  -- "$module" -f add --random 1 --dim S=2 --dim S=3
check "--dim without a value" 2 "error: --dim needs NAME=VALUE" \
  -- "$module" -f add --random 1 --dim S
check "--dim with a negative value" 2 "error: --dim needs NAME=VALUE" \
  -- "$module" -f add --random 1 --dim S=-1
check "a where clause that fails" 1 \
  "error: 'pairs': S%2 == 0 does not hold with S = 5 (rlx.reshape at model.mlir:12:5)" \
  -- "$module" -f pairs --random 1 --dim S=5
check "a negative result dim" 1 \
  "error: output 0 of 'window': dim 0 = S-2 is negative (-1) with S = 1" \
  -- "$module" -f window --random 1 --dim S=1
check "an input dim that overflows" 1 \
  "error: input 0 of 'pair_sum': dim 0 = 2*N overflows int64 with N = 9223372036854775807" \
  -- "$module" -f pair_sum --random 1 --dim N=9223372036854775807

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
