// RUN: rlx-opt %s --rlx-gpu-pipeline --mlir-print-ir-after=rlx-map-to-gpu --mlir-disable-threading -o /dev/null 2>&1 | rlx-opt --canonicalize | FileCheck %s
// RUN: rlx-opt %s --rlx-gpu-pipeline="attention-query-tile=1 attention-key-tile=16" --mlir-print-ir-after=rlx-map-to-gpu --mlir-disable-threading -o /dev/null 2>&1 | rlx-opt --canonicalize | FileCheck %s --check-prefix=QUERY1
// RUN: rlx-opt %s --rlx-gpu-pipeline="attention-query-tile=1 attention-key-tile=4" --mlir-print-ir-after=rlx-map-to-gpu --mlir-disable-threading -o /dev/null 2>&1 | rlx-opt --canonicalize | FileCheck %s --check-prefix=THREAD

// Causal attention on the GPU is one kernel with a block per (batch, head,
// query tile): 1 x 2 x 64/32 = 4 blocks of 256 threads. The key loop is
// uniform across the block; each step copies the key tile transposed into
// shared memory (after a barrier: the last step's threads may still read
// it; consecutive threads read consecutive elements of a key, writing a
// column of the transposed tile, whose rows are padded to 33 elements so
// the writes hit different banks), computes the tile's scores in shared
// memory, each thread summing
// over the head dimension for its (query, key) pairs, and updates the
// running maximum, sum and accumulator, shared too.
// CHECK-LABEL: func.func @causal
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c4, %{{.*}} = %c1, %{{.*}} = %c1) threads({{.*}}) in (%{{.*}} = %c256, %{{.*}} = %c1, %{{.*}} = %c1)
// CHECK-SAME:      workgroup(
// CHECK-SAME:      memref<32x33xf32, #gpu.address_space<workgroup>>
// CHECK:           scf.for %{{.*}} = %c0 to %{{.*}} step %c32 {
// CHECK:             gpu.barrier
// CHECK:             scf.for %[[I:.*]] = %[[TID:.*]] to %c1024 step %c256 {
// CHECK:               %[[KD:.*]]:2 = affine.delinearize_index %[[I]] into (32, 32)
// CHECK:               memref.load %{{.*}}[%[[KD]]#0, %[[KD]]#1] : memref<32x32xf32, strided<[64, 1], offset: ?>>
// CHECK:               memref.store %{{.*}}[%[[KD]]#1, %[[KD]]#0] : memref<32x32xf32, strided<[33, 1]>, #gpu.address_space<workgroup>>
// CHECK:             gpu.barrier
// CHECK:             scf.for %{{.*}} = %[[TID]] to %c1024 step %c256 {
// CHECK:               scf.for %{{.*}} = %c0 to %c32 step %c1 iter_args
// CHECK:             math.exp
// CHECK:         gpu.terminator
// CHECK-NOT:     gpu.launch
// CHECK:         return
// A block per query: 1 x 2 x 64 blocks, whose threads share the key tile's
// 16 x 32 elements.
// QUERY1-LABEL: func.func @causal
// QUERY1:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c128, %{{.*}} = %c1, %{{.*}} = %c1) threads({{.*}}) in (%{{.*}} = %c256, %{{.*}} = %c1, %{{.*}} = %c1)
// QUERY1-SAME:      memref<32x17xf32, #gpu.address_space<workgroup>>
// QUERY1-NOT:     gpu.launch
// QUERY1:         return
func.func @causal(%q: tensor<1x64x2x32xf32>, %k: tensor<1x64x2x32xf32>, %v: tensor<1x64x2x32xf32>) -> tensor<1x64x2x32xf32> {
  %0 = rlx.attention bshd %q, %k, %v heads = 2 kv_heads = 2 mask = causal : (tensor<1x64x2x32xf32>, tensor<1x64x2x32xf32>, tensor<1x64x2x32xf32>) -> tensor<1x64x2x32xf32>
  return %0 : tensor<1x64x2x32xf32>
}

// Tiles with less work than a warp's (4 keys x 4 features) keep a thread
// per tile: 1 x 2 x 8 threads, each running its tile's ops sequentially.
// THREAD-LABEL: func.func @tiny_heads
// THREAD:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c1, %{{.*}} = %c1, %{{.*}} = %c1) threads({{.*}}) in (%{{.*}} = %c16, %{{.*}} = %c1, %{{.*}} = %c1)
// THREAD-NOT:       gpu.barrier
// THREAD:           scf.for
// THREAD:             math.exp
// THREAD-NOT:     gpu.launch
// THREAD:         return
func.func @tiny_heads(%q: tensor<1x8x2x4xf32>, %k: tensor<1x8x2x4xf32>, %v: tensor<1x8x2x4xf32>) -> tensor<1x8x2x4xf32> {
  %0 = rlx.attention bshd %q, %k, %v heads = 2 kv_heads = 2 mask = causal : (tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>, tensor<1x8x2x4xf32>) -> tensor<1x8x2x4xf32>
  return %0 : tensor<1x8x2x4xf32>
}

// The backward op: delta = rowsum(dout * out) (a fill, then a block per
// row), then FlashAttention-2's two passes. dq: a block per (head, query
// tile), 4 x 2, stepping through the key tiles its causal mask reaches,
// dq's accumulator in shared memory. dk and dv: a block per (kv head, key
// tile), 2 x 2, stepping through the group's 2 query heads and, for each,
// the query tiles that see the key tile (from the tile's own onwards).
// CHECK-LABEL: func.func @causal_backward
// CHECK:         gpu.launch
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c256, %{{.*}} = %c1, %{{.*}} = %c1)
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c8, %{{.*}} = %c1, %{{.*}} = %c1) threads({{.*}}) in (%{{.*}} = %c256, %{{.*}} = %c1, %{{.*}} = %c1)
// CHECK-SAME:      workgroup(
// CHECK:           scf.for %{{.*}} = %c0 to %{{.*}} step %c32 {
// CHECK:             gpu.barrier
// CHECK:             math.exp
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c4, %{{.*}} = %c1, %{{.*}} = %c1) threads({{.*}}) in (%{{.*}} = %c256, %{{.*}} = %c1, %{{.*}} = %c1)
// CHECK-SAME:      workgroup(
// CHECK:           scf.for %{{.*}} = %c0 to %c2 step %c1 {
// CHECK:             scf.for %{{.*}} = %{{.*}} to %c64 step %c32 {
// CHECK:               gpu.barrier
// CHECK:               math.exp
// CHECK-NOT:     gpu.launch
// CHECK:         return
func.func @causal_backward(%q: tensor<1x64x4x32xf32>, %k: tensor<1x64x2x32xf32>, %o: tensor<1x64x4x32xf32>, %lse: tensor<1x4x64xf32>) -> (tensor<1x64x4x32xf32>, tensor<1x64x2x32xf32>, tensor<1x64x2x32xf32>) {
  %0:3 = rlx.attention_backward bshd %q, %k, %k, %o, %o, %lse heads = 4 kv_heads = 2 mask = causal : (tensor<1x64x4x32xf32>, tensor<1x64x2x32xf32>, tensor<1x64x2x32xf32>, tensor<1x64x4x32xf32>, tensor<1x64x4x32xf32>, tensor<1x4x64xf32>) -> (tensor<1x64x4x32xf32>, tensor<1x64x2x32xf32>, tensor<1x64x2x32xf32>)
  return %0#0, %0#1, %0#2 : tensor<1x64x4x32xf32>, tensor<1x64x2x32xf32>, tensor<1x64x2x32xf32>
}
