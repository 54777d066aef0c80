// RUN: rlx-opt %s | rlx-opt | FileCheck %s

// A schedule written by hand round-trips on any op with loops.
// CHECK-LABEL: func.func @scheduled
// CHECK: linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [32, 64, 0], cache = [0, 0, 128], vector = [4, 16, 1]>}
// CHECK: linalg.generic
// CHECK-SAME: rlx.lowering_config = #rlx.lowering_config<distribution = [32, 64], cache = [0, 0], vector = [4, 16]>
func.func @scheduled(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [32, 64, 0], cache = [0, 0, 128], vector = [4, 16, 1]>}
      ins(%a, %a : tensor<64x64xf32>, tensor<64x64xf32>) outs(%a : tensor<64x64xf32>) -> tensor<64x64xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%0 : tensor<64x64xf32>) outs(%a : tensor<64x64xf32>)
      attrs = {rlx.lowering_config = #rlx.lowering_config<distribution = [32, 64], cache = [0, 0], vector = [4, 16]>} {
  ^bb0(%x: f32, %y: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  } -> tensor<64x64xf32>
  return %1 : tensor<64x64xf32>
}

// The packed inputs round-trip; without any, nothing is printed.
// CHECK-LABEL: func.func @packed
// CHECK: linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 64, 0], cache = [16, 0, 32], vector = [8, 32, 1], packed = [1]>}
func.func @packed(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 64, 0], cache = [16, 0, 32], vector = [8, 32, 1], packed = [1]>}
      ins(%a, %a : tensor<64x64xf32>, tensor<64x64xf32>) outs(%a : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// A run-time guard of the thread tiles round-trips; 0 (none) is not printed.
// CHECK-LABEL: func.func @guarded
// CHECK: linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [32, 64, 0], cache = [0, 0, 0], vector = [4, 16, 1], min_parallel_iterations = 65536>}
// CHECK: linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [32, 64, 0], cache = [0, 0, 0], vector = [4, 16, 1]>}
func.func @guarded(%a: tensor<?x64xf32>, %b: tensor<64x64xf32>) -> tensor<?x64xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?x64xf32>
  %e = tensor.empty(%n) : tensor<?x64xf32>
  %0 = linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [32, 64, 0], cache = [0, 0, 0], vector = [4, 16, 1], min_parallel_iterations = 65536>}
      ins(%a, %b : tensor<?x64xf32>, tensor<64x64xf32>) outs(%e : tensor<?x64xf32>) -> tensor<?x64xf32>
  %1 = linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [32, 64, 0], cache = [0, 0, 0], vector = [4, 16, 1], min_parallel_iterations = 0>}
      ins(%0, %b : tensor<?x64xf32>, tensor<64x64xf32>) outs(%e : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %1 : tensor<?x64xf32>
}
