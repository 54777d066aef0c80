// RUN: rlx-opt %s --split-input-file --rlx-cpu-tile-and-fuse -verify-diagnostics -o /dev/null

// What rlx-cpu-tile-and-fuse cannot do with a lowering_config is an error
// at the op, never a silently different schedule.

// Packing needs a matmul-shaped contraction.
func.func @packed_batch(%a: tensor<2x8x8xf32>, %b: tensor<2x8x64xf32>, %c: tensor<2x8x64xf32>) -> tensor<2x8x64xf32> {
  // expected-error @+1 {{cannot pack the right operand of this op}}
  %0 = linalg.batch_matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [1, 0, 0, 0], cache = [0, 0, 0, 0], vector = [1, 8, 32, 1], packed = [1]>}
      ins(%a, %b : tensor<2x8x8xf32>, tensor<2x8x64xf32>) outs(%c : tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
  return %0 : tensor<2x8x64xf32>
}

// -----

// Panels must divide the columns of the thread tile.
func.func @packed_partial_panels(%a: tensor<8x8xf32>, %b: tensor<8x48xf32>, %c: tensor<8x48xf32>) -> tensor<8x48xf32> {
  // expected-error @+1 {{cannot pack the right operand of this op}}
  %0 = linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0, 0], cache = [0, 0, 0], vector = [8, 32, 1], packed = [1]>}
      ins(%a, %b : tensor<8x8xf32>, tensor<8x48xf32>) outs(%c : tensor<8x48xf32>) -> tensor<8x48xf32>
  return %0 : tensor<8x48xf32>
}

// -----

// The panels are cut from B's rows: a transposed B cannot be packed.
func.func @packed_transposed(%a: tensor<8x8xf32>, %bt: tensor<64x8xf32>, %c: tensor<8x64xf32>) -> tensor<8x64xf32> {
  // expected-error @+1 {{cannot pack the right operand of this op}}
  %0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %bt : tensor<8x8xf32>, tensor<64x8xf32>) outs(%c : tensor<8x64xf32>)
      {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0, 0], cache = [0, 0, 0], vector = [8, 32, 1], packed = [1]>} -> tensor<8x64xf32>
  return %0 : tensor<8x64xf32>
}
