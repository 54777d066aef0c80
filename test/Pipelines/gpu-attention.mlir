// RUN: rlx-opt %s --rlx-gpu-pipeline --mlir-print-ir-after=rlx-map-to-gpu -o /dev/null 2>&1 | rlx-opt --canonicalize | FileCheck %s
// RUN: rlx-opt %s --rlx-gpu-pipeline="attention-query-tile=4" --mlir-print-ir-after=rlx-map-to-gpu -o /dev/null 2>&1 | rlx-opt --canonicalize | FileCheck %s --check-prefix=TILE4

// Causal attention on the GPU is one kernel: a thread per (batch, head,
// query) by default (1 x 2 x 8 = 16 threads), each running the online
// softmax over the key tiles its mask reaches; with query tiles of 4, a
// thread per tile (4 threads).
// CHECK-LABEL: func.func @causal
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c1, %{{.*}} = %c1, %{{.*}} = %c1) threads({{.*}}) in (%{{.*}} = %c16, %{{.*}} = %c1, %{{.*}} = %c1)
// CHECK:           scf.for
// CHECK:             math.exp
// CHECK-NOT:     gpu.launch
// CHECK:         return
// TILE4-LABEL: func.func @causal
// TILE4:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c1, %{{.*}} = %c1, %{{.*}} = %c1) threads({{.*}}) in (%{{.*}} = %c4, %{{.*}} = %c1, %{{.*}} = %c1)
// TILE4-NOT:     gpu.launch
// TILE4:         return
func.func @causal(%q: tensor<1x8x2x16xf32>, %k: tensor<1x8x2x16xf32>, %v: tensor<1x8x2x16xf32>) -> tensor<1x8x2x16xf32> {
  %0 = rlx.attention bshd %q, %k, %v heads = 2 kv_heads = 2 mask = causal : (tensor<1x8x2x16xf32>, tensor<1x8x2x16xf32>, tensor<1x8x2x16xf32>) -> tensor<1x8x2x16xf32>
  return %0 : tensor<1x8x2x16xf32>
}

// The backward op: dq's accumulator is zero-filled by one kernel, then one
// kernel has a thread per (batch, kv head) (1 x 2) running the key tiles, the
// query tiles of its group's heads, and its slices of dq, dk and dv.
// CHECK-LABEL: func.func @causal_backward
// CHECK:         gpu.launch
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c1, %{{.*}} = %c1, %{{.*}} = %c1) threads({{.*}}) in (%{{.*}} = %c2, %{{.*}} = %c1, %{{.*}} = %c1)
// CHECK:           scf.for
// CHECK:             math.exp
// CHECK-NOT:     gpu.launch
// CHECK:         return
func.func @causal_backward(%q: tensor<1x8x4x16xf32>, %k: tensor<1x8x2x16xf32>, %o: tensor<1x8x4x16xf32>, %lse: tensor<1x4x8xf32>) -> (tensor<1x8x4x16xf32>, tensor<1x8x2x16xf32>, tensor<1x8x2x16xf32>) {
  %0:3 = rlx.attention_backward bshd %q, %k, %k, %o, %o, %lse heads = 4 kv_heads = 2 mask = causal : (tensor<1x8x4x16xf32>, tensor<1x8x2x16xf32>, tensor<1x8x2x16xf32>, tensor<1x8x4x16xf32>, tensor<1x8x4x16xf32>, tensor<1x4x8xf32>) -> (tensor<1x8x4x16xf32>, tensor<1x8x2x16xf32>, tensor<1x8x2x16xf32>)
  return %0#0, %0#1, %0#2 : tensor<1x8x4x16xf32>, tensor<1x8x2x16xf32>, tensor<1x8x2x16xf32>
}
