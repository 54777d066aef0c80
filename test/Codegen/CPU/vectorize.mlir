// RUN: rlx-opt %s --split-input-file --rlx-cpu-tile-and-fuse --canonicalize --rlx-cpu-vectorize --canonicalize | FileCheck %s

// A register tile becomes one vector.contract per reduction step; its
// accumulator is read before the reduction loop, carried in registers
// (an iter_arg of vector type) and written after it.
// CHECK-LABEL: func.func @register_tiles
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             %[[ACC:.*]] = vector.transfer_read {{.*}} : tensor<8x64xf32>, vector<4x16xf32>
// CHECK:             %[[SUM:.*]] = scf.for {{.*}} iter_args(%[[CARRIED:.*]] = %[[ACC]]) -> (vector<4x16xf32>)
// CHECK:               vector.transfer_read {{.*}} vector<4x1xf32>
// CHECK:               vector.transfer_read {{.*}} vector<1x16xf32>
// CHECK:               %[[NEXT:.*]] = vector.contract {{.*}} %[[CARRIED]] : vector<4x1xf32>, vector<1x16xf32> into vector<4x16xf32>
// CHECK:               scf.yield %[[NEXT]] : vector<4x16xf32>
// CHECK:             vector.transfer_write %[[SUM]]
// CHECK-NOT:     linalg.matmul
func.func @register_tiles(%a: tensor<8x32xf32>, %b: tensor<32x64xf32>, %c: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %0 = linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0, 0], cache = [0, 0, 0], vector = [4, 16, 1]>}
      ins(%a, %b : tensor<8x32xf32>, tensor<32x64xf32>) outs(%c : tensor<8x64xf32>) -> tensor<8x64xf32>
  return %0 : tensor<8x64xf32>
}

// -----

// A partial register tile (10 rows in tiles of 4) has a dynamic shape: it
// stays a linalg op (a loop nest later), so the result is still right.
// CHECK-LABEL: func.func @partial_tiles
// CHECK:         linalg.matmul {{.*}} tensor<?x16xf32>
func.func @partial_tiles(%a: tensor<10x8xf32>, %b: tensor<8x16xf32>, %c: tensor<10x16xf32>) -> tensor<10x16xf32> {
  %0 = linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0, 0], cache = [0, 0, 0], vector = [4, 16, 1]>}
      ins(%a, %b : tensor<10x8xf32>, tensor<8x16xf32>) outs(%c : tensor<10x16xf32>) -> tensor<10x16xf32>
  return %0 : tensor<10x16xf32>
}

// -----

// An op without a config is not vectorized.
// CHECK-LABEL: func.func @unscheduled
// CHECK:         linalg.matmul
func.func @unscheduled(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.matmul ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// A config without register tiles (thread tiles only) leaves the op to the
// loop lowering.
// CHECK-LABEL: func.func @no_register_tiles
// CHECK:         linalg.matmul
func.func @no_register_tiles(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0, 0], cache = [0, 0, 0], vector = [0, 0, 0]>}
      ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
