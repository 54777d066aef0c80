#!/bin/sh
# rlx-run on the runtime's mesh fixture, whose fake MPI takes this
# process's rank, the world's size and the other processes' failures from
# the environment (RLX_FAKE_MESH_RANK, _SIZE, _PEER_FAILED) and, with
# RLX_FAKE_MESH_TRACE=1, prints its calls: rank 0 prints the outputs, each
# rank saves its block of a split output, errors name the rank, and a
# process that fails before the call still takes part in its agreement.
#
# Usage: mesh_test.sh RLX_RUN FIXTURE_DIR
# Prints one line per check and ends with "N passed, M failed".
set -u
rlx_run=$1
module=$2/rlx_runtime_fixture_mesh.so
scratch=$(mktemp -d "${TMPDIR:-/tmp}/rlx-run-mesh-XXXXXX") || exit 2
trap 'rm -rf "$scratch"' EXIT
passed=0
failed=0

# check NAME STATUS TEXT -- ENV... -- ARGS...: runs `env ENV... rlx-run
# ARGS`, expects exit status STATUS and TEXT (a fixed string) in its stdout
# and stderr ("!TEXT": not in them).
check() {
  name=$1 status=$2 text=$3
  shift 4
  env_args=
  while [ "$1" != "--" ]; do
    env_args="$env_args $1"
    shift
  done
  shift
  # shellcheck disable=SC2086
  env $env_args "$rlx_run" "$@" >"$scratch/out" 2>&1
  got=$?
  case $text in
  !*) if grep -qF -- "${text#!}" "$scratch/out"; then found=1; else found=0; fi
      found=$((1 - found)) ;;
  *) if grep -qF -- "$text" "$scratch/out"; then found=1; else found=0; fi ;;
  esac
  if [ "$got" -eq "$status" ] && [ "$found" -eq 1 ]; then
    passed=$((passed + 1))
    echo "PASS: $name"
  else
    failed=$((failed + 1))
    echo "FAIL: $name: exit status $got (want $status), output:"
    sed 's/^/      /' "$scratch/out"
    echo "      (want '$text')"
  fi
}

check "list: the mesh" 0 "mesh [2]: 2 processes" -- -- "$module" --list
check "list: split tensors" 0 "  split output 1: dim 0 over mesh axes [0]" \
  -- -- "$module" --list
check "list: only rank 0 prints" 0 "!rows(" -- RLX_FAKE_MESH_RANK=1 -- \
  "$module" --list
check "rank 0 prints a replicated output whole" 0 \
  "output 0: f32[4,3] = [0, 1, 2, 3, 4, 5, 6, 7, ...]" \
  -- RLX_FAKE_MESH_RANK=0 -- "$module" -f rows --random 1
check "rank 0 prints its block of a split output" 0 \
  "output 1: f32[2,3] (rank 0's block of f32[4,3]) = [0, 1, 2, 3, 4, 5]" \
  -- RLX_FAKE_MESH_RANK=0 -- "$module" -f rows --random 1
check "rank 1 prints nothing" 0 "!output" \
  -- RLX_FAKE_MESH_RANK=1 -- "$module" -f rows --random 1 --bench 2
check "rank 0 saves" 0 "wrote $scratch/o/out1.rank<r>.npy, one per rank (r = 0 to 1)" \
  -- RLX_FAKE_MESH_RANK=0 -- "$module" -f rows --random 1 -o "$scratch/o"
check "rank 1 saves its block quietly" 0 "!wrote" \
  -- RLX_FAKE_MESH_RANK=1 -- "$module" -f rows --random 1 -o "$scratch/o"
for file in out0.npy out1.rank0.npy out1.rank1.npy; do
  if [ -f "$scratch/o/$file" ]; then
    passed=$((passed + 1))
    echo "PASS: saved $file"
  else
    failed=$((failed + 1))
    echo "FAIL: saved $file: missing; have: $(ls "$scratch/o")"
  fi
done
check "a world of another size" 1 \
  "runs on a mesh of 2 processes, but this process is one of 1 (launch it with mpirun -np 2)" \
  -- RLX_FAKE_MESH_SIZE=1 -- "$module" -f rows --random 1
check "errors name the rank" 1 \
  "rlx-run: rank 1: error: input 0 of 'cols': dim 0 is 4, expected 3" \
  -- RLX_FAKE_MESH_RANK=1 -- "$module" -f cols -i "$scratch/o/out0.npy"
check "a failed check is agreed on" 1 "fake mesh: any(1)" \
  -- RLX_FAKE_MESH_TRACE=1 -- "$module" -f cols -i "$scratch/o/out0.npy"
check "another process failed" 1 \
  "rlx-run: rank 0: error: 'rows': another process of the mesh failed this call's checks (see its error); nothing ran" \
  -- RLX_FAKE_MESH_PEER_FAILED=1 -- "$module" -f rows --random 1
check "another process failed: nothing printed" 1 "!output 0" \
  -- RLX_FAKE_MESH_PEER_FAILED=1 -- "$module" -f rows --random 1
check "an input that cannot be read still takes part in the agreement" 1 \
  "fake mesh: any(1)" -- RLX_FAKE_MESH_TRACE=1 RLX_FAKE_MESH_RANK=1 -- \
  "$module" -f cols -i "$scratch/missing.npy"
check "an input that cannot be read: the error" 1 \
  "rlx-run: rank 1: error: cannot open" -- RLX_FAKE_MESH_RANK=1 -- \
  "$module" -f cols -i "$scratch/missing.npy"
check "MPI starts and stops once" 0 "fake mesh: stop (1)" \
  -- RLX_FAKE_MESH_TRACE=1 -- "$module" -f plain --random 3 --bench 3
check "a benchmark agrees after the outputs" 0 "fake mesh: any(0)" \
  -- RLX_FAKE_MESH_TRACE=1 -- "$module" -f plain --random 3 --bench 1

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
