// RUN: rlx-opt %s --split-input-file --rlx-tile-and-fuse -verify-diagnostics -o /dev/null

// What rlx-tile-and-fuse cannot do with a lowering_config is an error
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

// -----

// A thread tile of grouped heads must hold one head or all of them: two of
// four query heads over two kv heads would read half a kv head each.
func.func @attention_head_tile(%q: tensor<1x8x4x16xf32>, %k: tensor<1x8x2x16xf32>, %acc: tensor<1x8x4x16xf32>, %m: tensor<1x4x8xf32>) -> tensor<1x8x4x16xf32> {
  // expected-error @+4 {{a tile of grouped heads must hold one head or all of them}}
  // expected-error @+3 {{faild to tile operation}}
  // expected-error @+2 {{failed to generate tiling loops}}
  // expected-error @+1 {{rlx-tile-and-fuse: cannot tile at the distribution level of its lowering_config}}
  %0:3 = rlx.online_attention bshd ins(%q, %k, %k : tensor<1x8x4x16xf32>, tensor<1x8x2x16xf32>, tensor<1x8x2x16xf32>) outs(%acc, %m, %m : tensor<1x8x4x16xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>) mask_kind = none scale = 1.0 {rlx.lowering_config = #rlx.lowering_config<distribution = [1, 2, 8, 0], cache = [0, 0, 0, 4], vector = [0, 0, 0, 0]>} -> tensor<1x8x4x16xf32>, tensor<1x4x8xf32>, tensor<1x4x8xf32>
  return %0#0 : tensor<1x8x4x16xf32>
}

// -----

// Decomposition writes one batch and one head: a config that keeps two
// heads in a tile cannot be decomposed.
func.func @attention_decompose(%q: tensor<1x8x2x16xf32>, %acc: tensor<1x8x2x16xf32>, %m: tensor<1x2x8xf32>) -> tensor<1x8x2x16xf32> {
  // expected-error @+1 {{decomposes one batch and one head at a time (tile those loops by 1 first)}}
  %0:3 = rlx.online_attention bshd ins(%q, %q, %q : tensor<1x8x2x16xf32>, tensor<1x8x2x16xf32>, tensor<1x8x2x16xf32>) outs(%acc, %m, %m : tensor<1x8x2x16xf32>, tensor<1x2x8xf32>, tensor<1x2x8xf32>) mask_kind = none scale = 1.0 {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0, 4, 0], cache = [0, 0, 0, 4], vector = [0, 0, 0, 0]>} -> tensor<1x8x2x16xf32>, tensor<1x2x8xf32>, tensor<1x2x8xf32>
  return %0#0 : tensor<1x8x2x16xf32>
}

// -----

// A tile of rlx.rows holds whole rows: a cache tile of the row axis is an
// error naming the axis (then upstream's and the pass's, naming the level).
func.func @rows_split_row(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-error @+4 {{cannot split row axis 1: a tile holds whole rows}}
  // expected-error @+3 {{to tile operation}}
  // expected-error @+2 {{failed to generate tiling loops}}
  // expected-error @+1 {{cannot tile at the cache level}}
  %r = rlx.rows ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) attributes {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0], cache = [1, 4], vector = [0, 0]>} {
  ^bb0(%a: tensor<4x8xf32>):
    %0 = rlx.reduce max %a axes = [1] keep_dim : tensor<4x8xf32> -> tensor<4x1xf32>
    %1 = rlx.sub %a, %0 : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
    rlx.yield %1 : tensor<4x8xf32>
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// A scan's running value does not cross tiles: its axis is never split.
func.func @scan_split_axis(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  // expected-error @+4 {{cannot split the scanned axis 0: a tile scans whole lines}}
  // expected-error @+3 {{tile operation}}
  // expected-error @+2 {{failed to generate tiling loops}}
  // expected-error @+1 {{rlx-tile-and-fuse: cannot tile at the cache level of its lowering_config}}
  %r = rlx.associative_scan axis = 0 identity = 0.0 : f32 ins(%x : tensor<8x4xf32>) outs(%x : tensor<8x4xf32>) attributes {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 0], cache = [4, 0], vector = [0, 0]>} {
  ^bb0(%a: f32, %b: f32):
    %n = arith.addf %a, %b : f32
    rlx.yield %n : f32
  } -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// -----

// Split reductions merge partial results whatever the sizes: their thread
// tiles cannot be guarded.
#split_all = affine_map<(d0, d1) -> (d0, d1)>
#split_scalar = affine_map<(d0, d1) -> ()>
func.func @guarded_split_reduction(%x: tensor<?x1024xf32>, %s: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{min_parallel_iterations cannot guard thread tiles that split a reduction}}
  %0 = linalg.generic {indexing_maps = [#split_all, #split_scalar], iterator_types = ["reduction", "reduction"]} ins(%x : tensor<?x1024xf32>) outs(%s : tensor<f32>) attrs = {rlx.lowering_config = #rlx.lowering_config<distribution = [64, 0], cache = [0, 0], vector = [1, 64], min_parallel_iterations = 4096>} {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %o, %in : f32
    linalg.yield %m : f32
  } -> tensor<f32>
  return %0 : tensor<f32>
}
