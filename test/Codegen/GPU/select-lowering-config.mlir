// RUN: rlx-opt %s --rlx-gpu-select-lowering-config | FileCheck %s
// RUN: rlx-opt %s --rlx-gpu-select-lowering-config="attention-query-tile=1 attention-key-tile=16" | FileCheck %s --check-prefix=QUERY1
// RUN: not rlx-opt %s --rlx-gpu-select-lowering-config=attention-query-tile=-1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD

// A GPU block per batch, head and 32 queries, stepping through 32 keys at
// a time; a shorter loop (20 keys) is one tile.
// BAD: attention tile sizes must be positive, got -1 queries and 32 keys

// CHECK-LABEL: func.func @attention
// CHECK:         rlx.online_attention {{.*}} {rlx.lowering_config = #rlx.lowering_config<distribution = [1, 1, 32, 0], cache = [0, 0, 0, 20], vector = [0, 0, 0, 0]>}
// QUERY1:        rlx.online_attention {{.*}} {rlx.lowering_config = #rlx.lowering_config<distribution = [1, 1, 1, 0], cache = [0, 0, 0, 16], vector = [0, 0, 0, 0]>}
func.func @attention(%q: tensor<1x100x2x16xf32>, %k: tensor<1x20x2x16xf32>, %acc: tensor<1x100x2x16xf32>, %m: tensor<1x2x100xf32>) -> tensor<1x100x2x16xf32> {
  %0:3 = rlx.online_attention bshd ins(%q, %k, %k : tensor<1x100x2x16xf32>, tensor<1x20x2x16xf32>, tensor<1x20x2x16xf32>) outs(%acc, %m, %m : tensor<1x100x2x16xf32>, tensor<1x2x100xf32>, tensor<1x2x100xf32>) mask_kind = none scale = 1.0 -> tensor<1x100x2x16xf32>, tensor<1x2x100xf32>, tensor<1x2x100xf32>
  return %0#0 : tensor<1x100x2x16xf32>
}

// A kernel needs blocks: with one batch, one head and 20 queries (one
// tile), the queries are split in two tiles of 10.
// CHECK-LABEL: func.func @one_block
// CHECK:         rlx.online_attention {{.*}} {rlx.lowering_config = #rlx.lowering_config<distribution = [1, 1, 10, 0], cache = [0, 0, 0, 20], vector = [0, 0, 0, 0]>}
func.func @one_block(%q: tensor<1x20x1x16xf32>, %acc: tensor<1x20x1x16xf32>, %m: tensor<1x1x20xf32>) -> tensor<1x20x1x16xf32> {
  %0:3 = rlx.online_attention bshd ins(%q, %q, %q : tensor<1x20x1x16xf32>, tensor<1x20x1x16xf32>, tensor<1x20x1x16xf32>) outs(%acc, %m, %m : tensor<1x20x1x16xf32>, tensor<1x1x20xf32>, tensor<1x1x20xf32>) mask_kind = none scale = 1.0 -> tensor<1x20x1x16xf32>, tensor<1x1x20xf32>, tensor<1x1x20xf32>
  return %0#0 : tensor<1x20x1x16xf32>
}

// Split-K: a decode step of 4 heads (4 blocks, fewer than 128) splits its
// 8192 keys into 32 parts of 256 (the least), 128 blocks.
// CHECK-LABEL: func.func @decode
// CHECK:         rlx.online_attention {{.*}} {rlx.lowering_config = #rlx.lowering_config<distribution = [1, 1, 1, 256], cache = [0, 0, 0, 32], vector = [0, 0, 0, 0]>}
func.func @decode(%q: tensor<1x1x4x16xf32>, %k: tensor<1x8192x4x16xf32>, %m: tensor<1x4x1xf32>) -> tensor<1x1x4x16xf32> {
  %0:3 = rlx.online_attention bshd ins(%q, %k, %k : tensor<1x1x4x16xf32>, tensor<1x8192x4x16xf32>, tensor<1x8192x4x16xf32>) outs(%q, %m, %m : tensor<1x1x4x16xf32>, tensor<1x4x1xf32>, tensor<1x4x1xf32>) mask_kind = none scale = 1.0 -> tensor<1x1x4x16xf32>, tensor<1x4x1xf32>, tensor<1x4x1xf32>
  return %0#0 : tensor<1x1x4x16xf32>
}

// Scans and scatters: one line per block-level tile, which rlx-map-to-gpu
// runs as one thread each (a loop of lines without shared work).
// CHECK-LABEL: func.func @sequential
// CHECK:         rlx.associative_scan axis = 1 {{.*}}lowering_config<distribution = [1, 0, 1], cache = [0, 0, 0], vector = [0, 0, 0]>
// CHECK:         rlx.scatter {{.*}}lowering_config<distribution = [0, 0, 1], cache = [0, 0, 0], vector = [0, 0, 0]>
func.func @sequential(%c: tensor<16x2048x64xf32>, %e: tensor<1000x768xf32>, %dy: tensor<4x128x768xf32>, %i: tensor<4x128x1xi64>) -> (tensor<16x2048x64xf32>, tensor<1000x768xf32>) {
  %e2 = tensor.empty() : tensor<16x2048x64xf32>
  %0 = rlx.associative_scan axis = 1 identity = 0.0 : f32 ins(%c : tensor<16x2048x64xf32>) outs(%e2 : tensor<16x2048x64xf32>) {
  ^bb0(%r: f32, %x: f32):
    %n = arith.addf %r, %x : f32
    rlx.yield %n : f32
  } -> tensor<16x2048x64xf32>
  %1 = rlx.scatter loop_dims = [-1, -1, 1] index_loops = [0, 1] index_dims = [0] clamp_indices ins(%dy, %i : tensor<4x128x768xf32>, tensor<4x128x1xi64>) outs(%e : tensor<1000x768xf32>) {
  ^bb0(%upd: f32, %cur: f32):
    %sum = arith.addf %cur, %upd : f32
    rlx.yield %sum : f32
  } -> tensor<1000x768xf32>
  return %0, %1 : tensor<16x2048x64xf32>, tensor<1000x768xf32>
}
