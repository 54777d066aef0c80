// RUN: rlx-opt %s --rlx-fuse --rlx-to-linalg --canonicalize --linalg-fuse-elementwise-ops --rlx-fuse-epilogues --canonicalize -split-input-file | FileCheck %s

// With the default tiles (16 whole rows), a contraction region's left
// prologue runs per row block inside the tile loop, next to the matmul and
// the epilogue; the right prologue runs once, before it (every block reads
// all of it).

// CHECK-LABEL: func.func @prologues(
// CHECK:         %[[RHS:.*]] = linalg.generic
// CHECK:           math.tanh
// CHECK:         scf.for %{{.*}} = %c0 to %c32 step %c16
// CHECK:           %[[LHS:.*]] = linalg.generic
// CHECK-SAME:        outs(%{{.*}} : tensor<16x8xf32>)
// CHECK:             math.erf
// CHECK:           linalg.matmul ins(%[[LHS]], %[[RHS]] : tensor<16x8xf32>, tensor<8x16xf32>)
// CHECK:           linalg.generic
// CHECK:             arith.maximumf
// CHECK:           scf.yield
// CHECK-NOT:     linalg.
func.func @prologues(%x: tensor<32x8xf32>, %s: tensor<8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> tensor<32x16xf32> {
  %xs = rlx.mul %x, %s : (tensor<32x8xf32>, tensor<8xf32>) -> tensor<32x8xf32>
  %xa = rlx.gelu %xs : tensor<32x8xf32>
  %wt = rlx.tanh %w : tensor<8x16xf32>
  %m = rlx.matmul %xa, %wt : (tensor<32x8xf32>, tensor<8x16xf32>) -> tensor<32x16xf32>
  %a = rlx.add %m, %b : (tensor<32x16xf32>, tensor<16xf32>) -> tensor<32x16xf32>
  %g = rlx.relu %a : tensor<32x16xf32>
  return %g : tensor<32x16xf32>
}
