// RUN: rlx-opt %s -split-input-file -verify-diagnostics

func.func @levels_differ(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{lowering_config levels have 3, 2 and 3 tile sizes; each level needs one per loop}}
  %0 = linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [4, 4, 0], cache = [0, 0], vector = [4, 4, 1]>}
      ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @negative(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{lowering_config tile sizes must be >= 0}}
  %0 = linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [4, -4, 0], cache = [0, 0, 0], vector = [4, 4, 1]>}
      ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @wrong_loop_count(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'rlx.lowering_config' has 2 tile sizes per level, but the op has 3 loops}}
  %0 = linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [4, 4], cache = [0, 0], vector = [4, 4]>}
      ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @not_a_config(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'rlx.lowering_config' must be a #rlx.lowering_config}}
  %0 = linalg.matmul {rlx.lowering_config = [4, 4, 0]}
      ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @no_loops(%a: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'rlx.lowering_config' is only meaningful on ops that can be tiled}}
  %0 = arith.negf %a {rlx.lowering_config = #rlx.lowering_config<distribution = [4], cache = [0], vector = [4]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @bad_syntax(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{expected 'cache'}}
  %0 = linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [4, 4, 0], vector = [4, 4, 1]>}
      ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @packs_left_operand(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{lowering_config can pack only input 1 (the right operand of a contraction)}}
  %0 = linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [4, 4, 0], cache = [0, 0, 0], vector = [4, 4, 1], packed = [0]>}
      ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

// rlx.attention takes the config of its online form: (batch, head, query,
// key).
func.func @attention_loops(%q: tensor<1x8x2x16xf32>) -> tensor<1x8x2x16xf32> {
  // expected-error @+1 {{'rlx.lowering_config' has 3 tile sizes per level, but the op has 4 loops}}
  %0 = rlx.attention bshd %q, %q, %q heads = 2 kv_heads = 2 mask = none {rlx.lowering_config = #rlx.lowering_config<distribution = [1, 1, 4], cache = [0, 0, 0], vector = [0, 0, 0]>} : (tensor<1x8x2x16xf32>, tensor<1x8x2x16xf32>, tensor<1x8x2x16xf32>) -> tensor<1x8x2x16xf32>
  return %0 : tensor<1x8x2x16xf32>
}

// -----

// Attention's forward splits its keys into partial results (split-K); its
// query gradient does not.
func.func @attention_dq_threads_split_keys(%q: tensor<1x8x1x16xf32>, %lse: tensor<1x1x8xf32>) -> tensor<1x8x1x16xf32> {
  // expected-error @+1 {{'rlx.lowering_config' splits reduction loop 3 into thread tiles (distribution), which would write the same results at once}}
  %0 = rlx.attention_dq bshd ins(%q, %q, %q, %q, %lse, %lse : tensor<1x8x1x16xf32>, tensor<1x8x1x16xf32>, tensor<1x8x1x16xf32>, tensor<1x8x1x16xf32>, tensor<1x1x8xf32>, tensor<1x1x8xf32>) outs(%q : tensor<1x8x1x16xf32>) mask_kind = none scale = 1.0 {rlx.lowering_config = #rlx.lowering_config<distribution = [1, 1, 4, 4], cache = [0, 0, 0, 0], vector = [0, 0, 0, 0]>} -> tensor<1x8x1x16xf32>
  return %0 : tensor<1x8x1x16xf32>
}

// -----

// A cumulative op's config is its rlx.associative_scan's: one tile size per dimension,
// the scanned axis a reduction.
func.func @cumsum_loop_count(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'rlx.lowering_config' has 3 tile sizes per level, but the op has 2 loops}}
  %0 = rlx.cumsum %a axis = 1 {rlx.lowering_config = #rlx.lowering_config<distribution = [1, 0, 0], cache = [0, 0, 0], vector = [0, 0, 0]>} : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @cummax_threads_split_axis(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'rlx.lowering_config' splits reduction loop 0 into thread tiles (distribution), which would write the same results at once}}
  %0 = rlx.cummax %a axis = -2 {rlx.lowering_config = #rlx.lowering_config<distribution = [2, 0], cache = [0, 0], vector = [0, 0]>} : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// gather_backward's config is its rlx.scatter's: grad_output's
// dimensions, the index dimensions reductions.
func.func @gather_backward_threads_split_indices(%dy: tensor<3x2x5xf32>, %i: tensor<2x5xi64>) -> tensor<3x9xf32> {
  // expected-error @+1 {{'rlx.lowering_config' splits reduction loop 2 into thread tiles (distribution), which would write the same results at once}}
  %0 = rlx.gather_backward %dy, %i axis = 1 {rlx.lowering_config = #rlx.lowering_config<distribution = [1, 0, 1], cache = [0, 0, 0], vector = [0, 0, 0]>} : (tensor<3x2x5xf32>, tensor<2x5xi64>) -> tensor<3x9xf32>
  return %0 : tensor<3x9xf32>
}

// -----

func.func @scatter_threads_split_indices(%s: tensor<3x4xf32>, %i: tensor<3x1xi64>, %t: tensor<10x4xf32>) -> tensor<10x4xf32> {
  // expected-error @+1 {{'rlx.lowering_config' splits reduction loop 0 into thread tiles (distribution), which would write the same results at once}}
  %r = rlx.scatter loop_dims = [-1, 1] index_loops = [0] index_dims = [0] clamp_indices ins(%s, %i : tensor<3x4xf32>, tensor<3x1xi64>) outs(%t : tensor<10x4xf32>) attributes {rlx.lowering_config = #rlx.lowering_config<distribution = [1, 1], cache = [0, 0], vector = [0, 0]>} {
  ^bb0(%upd: f32, %cur: f32):
    %sum = arith.addf %cur, %upd : f32
    rlx.yield %sum : f32
  } -> tensor<10x4xf32>
  return %r : tensor<10x4xf32>
}

// -----

func.func @cumsum_axis_with_config(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{axis}}
  %0 = rlx.cumsum %a axis = 5 {rlx.lowering_config = #rlx.lowering_config<distribution = [1, 0], cache = [0, 0], vector = [0, 0]>} : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @negative_min_parallel_iterations(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{lowering_config min_parallel_iterations must be >= 0}}
  %0 = linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [4, 4, 0], cache = [0, 0, 0], vector = [4, 4, 1], min_parallel_iterations = -1>}
      ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @repeated_option(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{expected 'packed' or 'min_parallel_iterations', once each}}
  %0 = linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [4, 4, 0], cache = [0, 0, 0], vector = [4, 4, 1], packed = [1], packed = [1]>}
      ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// -----

func.func @unknown_option(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{expected 'packed' or 'min_parallel_iterations', once each}}
  %0 = linalg.matmul {rlx.lowering_config = #rlx.lowering_config<distribution = [4, 4, 0], cache = [0, 0, 0], vector = [4, 4, 1], threads = 2>}
      ins(%a, %a : tensor<8x8xf32>, tensor<8x8xf32>) outs(%a : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
