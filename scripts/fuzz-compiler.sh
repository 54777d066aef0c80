#!/usr/bin/env bash
# Fuzzes rlx-opt's pipelines with rlx-opt-fuzz (tools/rlx-opt-fuzz), built
# with ASan, UBSan and libFuzzer coverage in $FUZZ_BUILD_DIR.
#
#   fuzz-compiler.sh smoke            every seed through every pipeline, then
#                                     a few hundred mutants each (fixed seed)
#   fuzz-compiler.sh run SECONDS      each pipeline for SECONDS
#   fuzz-compiler.sh runs N           each pipeline for N executions
#
# Seeds are the lit tests' and examples' .mlir files, split at `// -----`
# as rlx-opt --split-input-file splits them; the dictionary holds the rlx
# dialect's op and attribute names (written by the harness) and MLIR's
# syntax. Findings (crash-*, leak-*, timeout-*, oom-*) land in
# $FUZZ_BUILD_DIR/fuzz-work/findings/<pipeline>/, and the script fails when
# there are any.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:?usage: fuzz-compiler.sh smoke | run SECONDS | runs N}
build=${FUZZ_BUILD_DIR:-build-fuzz}
fuzzer=$build/bin/rlx-opt-fuzz
work=$build/fuzz-work

declare -A pipelines=(
  [to-linalg]='builtin.module(rlx-to-linalg)'
  [fuse]='builtin.module(rlx-fuse)'
  [autodiff]='builtin.module(rlx-autodiff)'
  [shard]='builtin.module(rlx-shard-annotate{mesh=2},rlx-shard-partition)'
  [cpu]='builtin.module(rlx-cpu-pipeline)'
  [gpu]='builtin.module(rlx-gpu-pipeline)'
)

rm -rf "$work/seeds"
mkdir -p "$work/seeds"
# One seed per split of each file; CHECK lines stay (they are comments).
find test examples -name '*.mlir' -not -path '*/Inputs/*' | sort | while read -r file; do
  awk -v out="$work/seeds/$(echo "$file" | tr '/' '_')" '
    /^\/\/ -----/ { n++; next }
    { print > (out "." n) }' "$file"
done

"$fuzzer" -write-dict="$work/rlx.dict"
cat >> "$work/rlx.dict" <<'DICT'
"func.func"
"return"
"tensor<"
"x"
"f16"
"bf16"
"f32"
"f64"
"i1"
"i8"
"i32"
"i64"
"0x"
"?"
"dense<"
"{"
"}"
"["
"]"
"-> "
" : "
"%arg0"
"%0"
"-1"
"0"
"4294967296"
"9223372036854775807"
"rlx.differentiate"
"arith.constant"
"func.call"
"scf.for"
"private"
DICT

# Each input runs a whole pipeline; UBSan reports abort, ODR/container
# checks are off because the instrumented rlx libraries share containers
# with Debian's uninstrumented libMLIR.
export ASAN_OPTIONS=detect_container_overflow=0:detect_odr_violation=0:allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

status=0
for name in "${!pipelines[@]}"; do
  corpus=$work/corpus/$name
  findings=$work/findings/$name
  # The smoke starts from the seeds alone, so it runs the same every time.
  [ "$mode" = smoke ] && rm -rf "$corpus" "$findings"
  mkdir -p "$corpus" "$findings"
  common=(-pipeline="${pipelines[$name]}" -dict="$work/rlx.dict"
          -artifact_prefix="$findings/" -max_len=16384 -timeout=60
          -rss_limit_mb=4096 -print_final_stats=1)
  case $mode in
    smoke) args=(-seed=1 -runs=$(( $(ls "$work/seeds" | wc -l) + 300 ))) ;;
    run)   args=(-max_total_time="${2:?seconds}") ;;
    runs)  args=(-runs="${2:?executions}") ;;
    *) echo "fuzz-compiler.sh: unknown mode $mode" >&2; exit 2 ;;
  esac
  echo "== rlx-opt-fuzz: $name (${pipelines[$name]})"
  if ! "$fuzzer" "${common[@]}" "${args[@]}" "$corpus" "$work/seeds" \
      > "$work/$name.log" 2>&1; then
    status=1
  fi
  grep -E '^(stat::|Done|INFO: seed corpus)' "$work/$name.log" || true
  # slow-unit-* files are kept for a look, not failures.
  if ls "$findings" | grep -qE '^(crash|leak|timeout|oom)-'; then
    echo "findings in $findings:" && ls "$findings"
    tail -n 60 "$work/$name.log"
    status=1
  fi
done
exit $status
