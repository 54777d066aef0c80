// RUN: rlx-opt %s --rlx-to-linalg --linalg-fuse-elementwise-ops --rlx-fuse-epilogues="tile-sizes=8,32" --canonicalize -split-input-file | FileCheck %s
// RUN: rlx-opt %s --rlx-to-linalg --rlx-fuse-epilogues="tile-sizes=4,16" --canonicalize -split-input-file | FileCheck %s --check-prefix=SMALL
// RUN: not rlx-opt %s --rlx-fuse-epilogues="tile-sizes=-1,8" 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: rlx-fuse-epilogues: 'tile-sizes' takes two sizes >= 0

// matmul + bias: the epilogue is tiled (64 columns in tiles of 32; 8 rows
// fit one tile) and the fill and the matmul move into the tile loop, which
// computes each [8, 32] result tile and adds the bias to it right away.
// CHECK-LABEL: func.func @matmul_bias(
// CHECK-NOT:     linalg.matmul
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK:           %[[FILL:.*]] = linalg.fill {{.*}} -> tensor<8x32xf32>
// CHECK:           %[[MM:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x16xf32>, tensor<16x32xf32>) outs(%[[FILL]] : tensor<8x32xf32>)
// CHECK:           linalg.generic {{.*}} ins(%[[MM]], %{{.*}} : tensor<8x32xf32>, tensor<32xf32>)
// CHECK:             arith.addf
// CHECK:           tensor.insert_slice
// SMALL-LABEL: func.func @matmul_bias(
// SMALL:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x16xf32>, tensor<16x16xf32>) outs(%{{.*}} : tensor<4x16xf32>)
func.func @matmul_bias(%x: tensor<8x16xf32>, %w: tensor<16x64xf32>, %b: tensor<64xf32>) -> tensor<8x64xf32> {
  %0 = rlx.matmul %x, %w : (tensor<8x16xf32>, tensor<16x64xf32>) -> tensor<8x64xf32>
  %1 = rlx.add %0, %b : (tensor<8x64xf32>, tensor<64xf32>) -> tensor<8x64xf32>
  return %1 : tensor<8x64xf32>
}

// -----

// A contraction whose result is also returned is not fused: the tile loop
// would compute it a second time.
// CHECK-LABEL: func.func @shared_contraction(
// CHECK-NOT:     scf.for
// CHECK:         linalg.matmul
// CHECK:         linalg.generic
func.func @shared_contraction(%x: tensor<8x16xf32>, %w: tensor<16x64xf32>, %b: tensor<64xf32>) -> (tensor<8x64xf32>, tensor<8x64xf32>) {
  %0 = rlx.matmul %x, %w : (tensor<8x16xf32>, tensor<16x64xf32>) -> tensor<8x64xf32>
  %1 = rlx.add %0, %b : (tensor<8x64xf32>, tensor<64xf32>) -> tensor<8x64xf32>
  return %0, %1 : tensor<8x64xf32>, tensor<8x64xf32>
}

// -----

// An elementwise prologue stays outside the loop when tiles split rows
// (tile-sizes=8,32 here): fusing it would recompute it for every column
// tile. With whole rows per tile it is fused (fuse-epilogues-rows.mlir).
// CHECK-LABEL: func.func @prologue_stays(
// CHECK:         %[[PRO:.*]] = linalg.generic
// CHECK:           math.exp
// CHECK:         scf.for
// CHECK:           linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x16xf32>, tensor<16x32xf32>)
// CHECK-NOT:       math.exp
func.func @prologue_stays(%x: tensor<8x16xf32>, %w: tensor<16x64xf32>) -> tensor<8x64xf32> {
  %e = rlx.exp %x : tensor<8x16xf32>
  %0 = rlx.matmul %e, %w : (tensor<8x16xf32>, tensor<16x64xf32>) -> tensor<8x64xf32>
  %1 = rlx.relu %0 : tensor<8x64xf32>
  return %1 : tensor<8x64xf32>
}

// -----

// Empty iteration spaces are left alone.
// CHECK-LABEL: func.func @empty_reduction(
// CHECK-NOT:     scf.for
func.func @empty_reduction(%x: tensor<0x3xf32>) -> tensor<3xf32> {
  %0 = rlx.reduce mean %x axes = [0] : tensor<0x3xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// The subtraction reads the row sums by broadcast: fusing the reduction
// into column tiles would recompute every row sum once per tile, so nothing
// is tiled (row regions are the way to fuse this).
// CHECK-LABEL: func.func @row_statistics(
// CHECK-NOT:     scf.for
func.func @row_statistics(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %0 = rlx.reduce sum %x axes = [1] keep_dim : tensor<8x64xf32> -> tensor<8x1xf32>
  %1 = rlx.sub %x, %0 : (tensor<8x64xf32>, tensor<8x1xf32>) -> tensor<8x64xf32>
  return %1 : tensor<8x64xf32>
}
