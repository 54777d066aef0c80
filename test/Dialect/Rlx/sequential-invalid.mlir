// RUN: rlx-opt %s -split-input-file -verify-diagnostics

// Every verifier rule of rlx.associative_scan and rlx.scatter.

func.func @scan_axis(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{axis 2 is out of range [0, 2)}}
  %r = rlx.associative_scan axis = 2 identity = 0.0 : f32 ins(%x : tensor<4x8xf32>) outs(%x : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %n = arith.addf %a, %b : f32
    rlx.yield %n : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

func.func @scan_negative_axis(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{axis -1 is out of range [0, 2)}}
  %r = rlx.associative_scan axis = -1 identity = 0.0 : f32 ins(%x : tensor<4x8xf32>) outs(%x : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %n = arith.addf %a, %b : f32
    rlx.yield %n : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

func.func @scan_rank0(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{axis 0 is out of range [0, 0)}}
  %r = rlx.associative_scan axis = 0 identity = 0.0 : f32 ins(%x : tensor<f32>) outs(%x : tensor<f32>) {
  ^bb0(%a: f32, %b: f32):
    %n = arith.addf %a, %b : f32
    rlx.yield %n : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}

// -----

func.func @scan_input_shape(%x: tensor<4x7xf32>, %init: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{input type 'tensor<4x7xf32>' differs from init type 'tensor<4x8xf32>'}}
  %r = rlx.associative_scan axis = 1 identity = 0.0 : f32 ins(%x : tensor<4x7xf32>) outs(%init : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %n = arith.addf %a, %b : f32
    rlx.yield %n : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

func.func @scan_input_element(%x: tensor<4x8xf16>, %init: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{input type 'tensor<4x8xf16>' differs from init type 'tensor<4x8xf32>'}}
  %r = rlx.associative_scan axis = 1 identity = 0.0 : f32 ins(%x : tensor<4x8xf16>) outs(%init : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %n = arith.addf %a, %b : f32
    rlx.yield %n : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

func.func @scan_result(%x: tensor<4x8xf32>) -> tensor<4x8xf16> {
  // expected-error @+1 {{result type 'tensor<4x8xf16>' differs from init type 'tensor<4x8xf32>'}}
  %r = rlx.associative_scan axis = 1 identity = 0.0 : f32 ins(%x : tensor<4x8xf32>) outs(%x : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %n = arith.addf %a, %b : f32
    rlx.yield %n : f32
  } -> tensor<4x8xf16>
  return %r : tensor<4x8xf16>
}

// -----

func.func @scan_identity(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{identity must be an integer or float}}
  %r = rlx.associative_scan axis = 1 identity = dense<0.0> : vector<2xf32> ins(%x : tensor<4x8xf32>) outs(%x : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %n = arith.addf %a, %b : f32
    rlx.yield %n : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

func.func @scan_combiner_arguments(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  // expected-error @+1 {{combiner must take the running value ('f32') and an element ('f16')}}
  %r = rlx.associative_scan axis = 1 identity = 0.0 : f32 ins(%x : tensor<4x8xf16>) outs(%x : tensor<4x8xf16>) {
  ^bb0(%a: f32, %b: f32):
    %n = arith.addf %a, %b : f32
    rlx.yield %n : f32
  } -> tensor<4x8xf16>
  return %r : tensor<4x8xf16>
}

// -----

func.func @scan_combiner_yield(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  // expected-error @+1 {{combiner must yield one 'f32'}}
  %r = rlx.associative_scan axis = 1 identity = 0.0 : f32 ins(%x : tensor<4x8xf16>) outs(%x : tensor<4x8xf16>) {
  ^bb0(%a: f32, %b: f16):
    rlx.yield %b : f16
  } -> tensor<4x8xf16>
  return %r : tensor<4x8xf16>
}

// -----

func.func @scan_combiner_effects(%x: tensor<4x8xf32>, %m: memref<f32>) -> tensor<4x8xf32> {
  %r = rlx.associative_scan axis = 1 identity = 0.0 : f32 ins(%x : tensor<4x8xf32>) outs(%x : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    // expected-error @+1 {{cannot be in a scan's combiner: it must be scalar code without side effects}}
    %c = memref.alloca() : memref<f32>
    %n = arith.addf %a, %b : f32
    rlx.yield %n : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

func.func @scan_empty_combiner(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'rlx.associative_scan' op expects a non-empty block}}
  %r = "rlx.associative_scan"(%x, %x) <{axis = 1 : i64, identity = 0.0 : f32}> ({
  ^bb0(%a: f32, %b: f32):
  }) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// A lowering_config is checked before the op: a malformed op still gets
// its own diagnostic.
func.func @scan_axis_with_config(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{axis 7 is out of range [0, 2)}}
  %r = rlx.associative_scan axis = 7 identity = 0.0 : f32 ins(%x : tensor<4x8xf32>) outs(%x : tensor<4x8xf32>) attributes {rlx.lowering_config = #rlx.lowering_config<distribution = [1, 0], cache = [0, 0], vector = [0, 0]>} {
  ^bb0(%a: f32, %b: f32):
    %n = arith.addf %a, %b : f32
    rlx.yield %n : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

func.func @scatter_result(%u: tensor<3x4xf32>, %i: tensor<3x1xi64>, %t: tensor<10x4xf32>) -> tensor<10x4xf16> {
  // expected-error @+1 {{result type 'tensor<10x4xf16>' differs from init type 'tensor<10x4xf32>'}}
  %r = rlx.scatter loop_dims = [-1, 1] index_loops = [0] index_dims = [0] ins(%u, %i : tensor<3x4xf32>, tensor<3x1xi64>) outs(%t : tensor<10x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    rlx.yield %a : f32
  } -> tensor<10x4xf16>
  return %r : tensor<10x4xf16>
}

// -----

func.func @scatter_float_indices(%u: tensor<3x4xf32>, %i: tensor<3x1xf32>, %t: tensor<10x4xf32>) -> tensor<10x4xf32> {
  // expected-error @+1 {{indices must be integers, got 'tensor<3x1xf32>'}}
  %r = rlx.scatter loop_dims = [-1, 1] index_loops = [0] index_dims = [0] ins(%u, %i : tensor<3x4xf32>, tensor<3x1xf32>) outs(%t : tensor<10x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    rlx.yield %a : f32
  } -> tensor<10x4xf32>
  return %r : tensor<10x4xf32>
}

// -----

func.func @scatter_loop_dims_count(%u: tensor<3x4xf32>, %i: tensor<3x1xi64>, %t: tensor<10x4xf32>) -> tensor<10x4xf32> {
  // expected-error @+1 {{loop_dims has 1 entries for 2 update loops}}
  %r = rlx.scatter loop_dims = [-1] index_loops = [0] index_dims = [0] ins(%u, %i : tensor<3x4xf32>, tensor<3x1xi64>) outs(%t : tensor<10x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    rlx.yield %a : f32
  } -> tensor<10x4xf32>
  return %r : tensor<10x4xf32>
}

// -----

func.func @scatter_loop_dims_range(%u: tensor<3x4xf32>, %i: tensor<3x1xi64>, %t: tensor<10x4xf32>) -> tensor<10x4xf32> {
  // expected-error @+1 {{loop_dims entry 2 is not -1 or a dimension of the rank-2 init}}
  %r = rlx.scatter loop_dims = [-1, 2] index_loops = [0] index_dims = [0] ins(%u, %i : tensor<3x4xf32>, tensor<3x1xi64>) outs(%t : tensor<10x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    rlx.yield %a : f32
  } -> tensor<10x4xf32>
  return %r : tensor<10x4xf32>
}

// -----

func.func @scatter_loop_dims_order(%u: tensor<3x4xf32>, %i: tensor<3x1xi64>, %t: tensor<4x3x5xf32>) -> tensor<4x3x5xf32> {
  // expected-error @+1 {{loop_dims must address init dimensions in increasing order}}
  %r = rlx.scatter loop_dims = [1, 0] index_loops = [0] index_dims = [2] ins(%u, %i : tensor<3x4xf32>, tensor<3x1xi64>) outs(%t : tensor<4x3x5xf32>) {
  ^bb0(%a: f32, %b: f32):
    rlx.yield %a : f32
  } -> tensor<4x3x5xf32>
  return %r : tensor<4x3x5xf32>
}

// -----

func.func @scatter_index_loops(%u: tensor<3x4xf32>, %i: tensor<3x1xi64>, %t: tensor<10x4xf32>) -> tensor<10x4xf32> {
  // expected-error @+1 {{index_loops must be increasing update loops in [0, 2)}}
  %r = rlx.scatter loop_dims = [-1, 1] index_loops = [2] index_dims = [0] ins(%u, %i : tensor<3x4xf32>, tensor<3x1xi64>) outs(%t : tensor<10x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    rlx.yield %a : f32
  } -> tensor<10x4xf32>
  return %r : tensor<10x4xf32>
}

// -----

func.func @scatter_unaddressed_loop(%u: tensor<3x4xf32>, %i: tensor<1xi64>, %t: tensor<10x4xf32>) -> tensor<10x4xf32> {
  // expected-error @+1 {{update loop 0 addresses no init dimension, so it must index indices (be in index_loops)}}
  %r = rlx.scatter loop_dims = [-1, 1] index_loops = [] index_dims = [0] ins(%u, %i : tensor<3x4xf32>, tensor<1xi64>) outs(%t : tensor<10x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    rlx.yield %a : f32
  } -> tensor<10x4xf32>
  return %r : tensor<10x4xf32>
}

// -----

func.func @scatter_no_index_dims(%u: tensor<3x4xf32>, %i: tensor<3x0xi64>, %t: tensor<10x4xf32>) -> tensor<10x4xf32> {
  // expected-error @+1 {{index_dims must not be empty}}
  %r = rlx.scatter loop_dims = [0, 1] index_loops = [0] index_dims = [] ins(%u, %i : tensor<3x4xf32>, tensor<3x0xi64>) outs(%t : tensor<10x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    rlx.yield %a : f32
  } -> tensor<10x4xf32>
  return %r : tensor<10x4xf32>
}

// -----

func.func @scatter_index_dim_twice(%u: tensor<3x4xf32>, %i: tensor<3x1xi64>, %t: tensor<10x4xf32>) -> tensor<10x4xf32> {
  // expected-error @+1 {{index_dims entry 1 is not a dimension of the init that no loop addresses}}
  %r = rlx.scatter loop_dims = [-1, 1] index_loops = [0] index_dims = [1] ins(%u, %i : tensor<3x4xf32>, tensor<3x1xi64>) outs(%t : tensor<10x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    rlx.yield %a : f32
  } -> tensor<10x4xf32>
  return %r : tensor<10x4xf32>
}

// -----

func.func @scatter_uncovered(%u: tensor<3x4xf32>, %i: tensor<3x1xi64>, %t: tensor<10x4x2xf32>) -> tensor<10x4x2xf32> {
  // expected-error @+1 {{loop_dims and index_dims address 2 of the 3 init dimensions}}
  %r = rlx.scatter loop_dims = [-1, 1] index_loops = [0] index_dims = [0] ins(%u, %i : tensor<3x4xf32>, tensor<3x1xi64>) outs(%t : tensor<10x4x2xf32>) {
  ^bb0(%a: f32, %b: f32):
    rlx.yield %a : f32
  } -> tensor<10x4x2xf32>
  return %r : tensor<10x4x2xf32>
}

// -----

func.func @scatter_depth(%u: tensor<3x4xf32>, %i: tensor<3x2xi64>, %t: tensor<10x4xf32>) -> tensor<10x4xf32> {
  // expected-error @+1 {{indices of type 'tensor<3x2xi64>' must have one dimension per index loop (1) and a last dimension of 1}}
  %r = rlx.scatter loop_dims = [-1, 1] index_loops = [0] index_dims = [0] ins(%u, %i : tensor<3x4xf32>, tensor<3x2xi64>) outs(%t : tensor<10x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    rlx.yield %a : f32
  } -> tensor<10x4xf32>
  return %r : tensor<10x4xf32>
}

// -----

func.func @scatter_index_extent(%u: tensor<3x4xf32>, %i: tensor<5x1xi64>, %t: tensor<10x4xf32>) -> tensor<10x4xf32> {
  // expected-error @+1 {{indices dimension 0 has size 5 but update loop 0 has 3}}
  %r = rlx.scatter loop_dims = [-1, 1] index_loops = [0] index_dims = [0] ins(%u, %i : tensor<3x4xf32>, tensor<5x1xi64>) outs(%t : tensor<10x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    rlx.yield %a : f32
  } -> tensor<10x4xf32>
  return %r : tensor<10x4xf32>
}

// -----

func.func @scatter_loop_extent(%u: tensor<3x5xf32>, %i: tensor<3x1xi64>, %t: tensor<10x4xf32>) -> tensor<10x4xf32> {
  // expected-error @+1 {{update loop 1 of size 5 exceeds init dimension 1 of size 4}}
  %r = rlx.scatter loop_dims = [-1, 1] index_loops = [0] index_dims = [0] ins(%u, %i : tensor<3x5xf32>, tensor<3x1xi64>) outs(%t : tensor<10x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    rlx.yield %a : f32
  } -> tensor<10x4xf32>
  return %r : tensor<10x4xf32>
}

// -----

func.func @scatter_clamp_empty(%u: tensor<3x4xf32>, %i: tensor<3x1xi64>, %t: tensor<0x4xf32>) -> tensor<0x4xf32> {
  // expected-error @+1 {{cannot clamp an index into dimension 0 of size 0}}
  %r = rlx.scatter loop_dims = [-1, 1] index_loops = [0] index_dims = [0] clamp_indices ins(%u, %i : tensor<3x4xf32>, tensor<3x1xi64>) outs(%t : tensor<0x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    rlx.yield %a : f32
  } -> tensor<0x4xf32>
  return %r : tensor<0x4xf32>
}

// -----

func.func @scatter_combiner_types(%u: tensor<3x4xf32>, %i: tensor<3x1xi64>, %t: tensor<10x4xf64>) -> tensor<10x4xf64> {
  // expected-error @+1 {{combiner must take an update ('f32') and the element it lands on ('f64')}}
  %r = rlx.scatter loop_dims = [-1, 1] index_loops = [0] index_dims = [0] ins(%u, %i : tensor<3x4xf32>, tensor<3x1xi64>) outs(%t : tensor<10x4xf64>) {
  ^bb0(%a: f32, %b: f32):
    rlx.yield %a : f32
  } -> tensor<10x4xf64>
  return %r : tensor<10x4xf64>
}

// -----

func.func @scatter_combiner_yield(%u: tensor<3x4xf32>, %i: tensor<3x1xi64>, %t: tensor<10x4xf32>) -> tensor<10x4xf32> {
  // expected-error @+1 {{combiner must yield one 'f32'}}
  %r = rlx.scatter loop_dims = [-1, 1] index_loops = [0] index_dims = [0] ins(%u, %i : tensor<3x4xf32>, tensor<3x1xi64>) outs(%t : tensor<10x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf olt, %a, %b : f32
    rlx.yield %c : i1
  } -> tensor<10x4xf32>
  return %r : tensor<10x4xf32>
}

// -----

func.func @scatter_with_config(%u: tensor<3x4xf32>, %i: tensor<3x1xi64>, %t: tensor<10x4xf32>) -> tensor<10x4xf32> {
  // expected-error @+1 {{loop_dims entry 7 is not -1 or a dimension of the rank-2 init}}
  %r = rlx.scatter loop_dims = [-1, 7] index_loops = [0] index_dims = [0] ins(%u, %i : tensor<3x4xf32>, tensor<3x1xi64>) outs(%t : tensor<10x4xf32>) attributes {rlx.lowering_config = #rlx.lowering_config<distribution = [0, 1], cache = [0, 0], vector = [0, 0]>} {
  ^bb0(%a: f32, %b: f32):
    rlx.yield %a : f32
  } -> tensor<10x4xf32>
  return %r : tensor<10x4xf32>
}
