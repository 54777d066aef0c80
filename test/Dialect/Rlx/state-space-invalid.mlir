// RUN: rlx-opt %s -split-input-file -verify-diagnostics

func.func @u_rank(%u: tensor<2x8xf32>, %A: tensor<8x4xf32>, %B: tensor<2x4x5xf32>) {
  // expected-error @+2 {{u must be [batch, D, L], got [2, 8]}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %h = rlx.selective_scan %u, %u, %A, %B, %B : (tensor<2x8xf32>, tensor<2x8xf32>, tensor<8x4xf32>, tensor<2x4x5xf32>, tensor<2x4x5xf32>) -> (tensor<2x8xf32>, tensor<2x8x4xf32>)
  return
}

// -----

func.func @a_channels(%u: tensor<2x8x5xf32>, %A: tensor<6x4xf32>, %B: tensor<2x4x5xf32>) {
  // expected-error @+2 {{A must be [D = 8, N], got [6, 4]}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %h = rlx.selective_scan %u, %u, %A, %B, %B : (tensor<2x8x5xf32>, tensor<2x8x5xf32>, tensor<6x4xf32>, tensor<2x4x5xf32>, tensor<2x4x5xf32>) -> (tensor<2x8x5xf32>, tensor<2x8x4xf32>)
  return
}

// -----

func.func @b_length(%u: tensor<2x8x5xf32>, %A: tensor<8x4xf32>, %B: tensor<2x4x6xf32>) {
  // expected-error @+2 {{B must be [batch = 2, N = 4, L = 5], got [2, 4, 6]}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %h = rlx.selective_scan %u, %u, %A, %B, %B : (tensor<2x8x5xf32>, tensor<2x8x5xf32>, tensor<8x4xf32>, tensor<2x4x6xf32>, tensor<2x4x6xf32>) -> (tensor<2x8x5xf32>, tensor<2x8x4xf32>)
  return
}

// -----

func.func @groups(%u: tensor<2x8x5xf32>, %A: tensor<8x4xf32>, %B: tensor<2x3x4x5xf32>) {
  // expected-error @+2 {{D = 8 does not split into 3 groups}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %h = rlx.selective_scan %u, %u, %A, %B, %B : (tensor<2x8x5xf32>, tensor<2x8x5xf32>, tensor<8x4xf32>, tensor<2x3x4x5xf32>, tensor<2x3x4x5xf32>) -> (tensor<2x8x5xf32>, tensor<2x8x4xf32>)
  return
}

// -----

func.func @dynamic_state(%u: tensor<2x8x5xf32>, %A: tensor<8x?xf32>, %B: tensor<2x?x5xf32>) {
  // expected-error @+2 {{the size N must be static}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %h = rlx.selective_scan %u, %u, %A, %B, %B : (tensor<2x8x5xf32>, tensor<2x8x5xf32>, tensor<8x?xf32>, tensor<2x?x5xf32>, tensor<2x?x5xf32>) -> (tensor<2x8x5xf32>, tensor<2x8x?xf32>)
  return
}

// -----

func.func @skip(%u: tensor<2x8x5xf32>, %A: tensor<8x4xf32>, %B: tensor<2x4x5xf32>, %D: tensor<4xf32>) {
  // expected-error @+2 {{D must be [D = 8], got [4]}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %h = rlx.selective_scan %u, %u, %A, %B, %B D(%D) : (tensor<2x8x5xf32>, tensor<2x8x5xf32>, tensor<8x4xf32>, tensor<2x4x5xf32>, tensor<2x4x5xf32>, tensor<4xf32>) -> (tensor<2x8x5xf32>, tensor<2x8x4xf32>)
  return
}

// -----

func.func @chunk(%u: tensor<2x8x5xf32>, %A: tensor<8x4xf32>, %B: tensor<2x4x5xf32>) {
  // expected-error @+1 {{'rlx.selective_scan' op chunk must be at least 1, got 0}}
  %y, %h = rlx.selective_scan %u, %u, %A, %B, %B chunk = 0 : (tensor<2x8x5xf32>, tensor<2x8x5xf32>, tensor<8x4xf32>, tensor<2x4x5xf32>, tensor<2x4x5xf32>) -> (tensor<2x8x5xf32>, tensor<2x8x4xf32>)
  return
}

// -----

func.func @element_types(%u: tensor<2x8x5xf32>, %A: tensor<8x4xf64>, %B: tensor<2x4x5xf32>) {
  // expected-error @+1 {{requires the same element type for all operands and results}}
  %y, %h = rlx.selective_scan %u, %u, %A, %B, %B : (tensor<2x8x5xf32>, tensor<2x8x5xf32>, tensor<8x4xf64>, tensor<2x4x5xf32>, tensor<2x4x5xf32>) -> (tensor<2x8x5xf32>, tensor<2x8x4xf32>)
  return
}

// -----

func.func @result_type(%u: tensor<2x8x5xf32>, %A: tensor<8x4xf32>, %B: tensor<2x4x5xf32>) {
  // expected-error @+2 {{inferred type(s) 'tensor<2x8x5xf32>', 'tensor<2x8x4xf32>' are incompatible with return type(s) of operation 'tensor<2x8x5xf32>', 'tensor<2x8x5xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %h = rlx.selective_scan %u, %u, %A, %B, %B : (tensor<2x8x5xf32>, tensor<2x8x5xf32>, tensor<8x4xf32>, tensor<2x4x5xf32>, tensor<2x4x5xf32>) -> (tensor<2x8x5xf32>, tensor<2x8x5xf32>)
  return
}

// -----

func.func @mamba2_heads(%x: tensor<2x5x4x8xf32>, %dt: tensor<2x5x3xf32>, %A: tensor<4xf32>, %B: tensor<2x5x1x6xf32>) {
  // expected-error @+2 {{dt must be [batch = 2, L = 5, H = 4], got [2, 5, 3]}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %h = rlx.mamba2 %x, %dt, %A, %B, %B : (tensor<2x5x4x8xf32>, tensor<2x5x3xf32>, tensor<4xf32>, tensor<2x5x1x6xf32>, tensor<2x5x1x6xf32>) -> (tensor<2x5x4x8xf32>, tensor<2x4x8x6xf32>)
  return
}

// -----

func.func @mamba2_groups(%x: tensor<2x5x4x8xf32>, %dt: tensor<2x5x4xf32>, %A: tensor<4xf32>, %B: tensor<2x5x3x6xf32>) {
  // expected-error @+2 {{H = 4 does not split into 3 groups}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %h = rlx.mamba2 %x, %dt, %A, %B, %B : (tensor<2x5x4x8xf32>, tensor<2x5x4xf32>, tensor<4xf32>, tensor<2x5x3x6xf32>, tensor<2x5x3x6xf32>) -> (tensor<2x5x4x8xf32>, tensor<2x4x8x6xf32>)
  return
}

// -----

func.func @mamba2_initial(%x: tensor<2x5x4x8xf32>, %dt: tensor<2x5x4xf32>, %A: tensor<4xf32>, %B: tensor<2x5x1x6xf32>, %h0: tensor<2x4x6x8xf32>) {
  // expected-error @+2 {{initial_state must be [batch = 2, H = 4, P = 8, N = 6], got [2, 4, 6, 8]}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %h = rlx.mamba2 %x, %dt, %A, %B, %B initial(%h0) : (tensor<2x5x4x8xf32>, tensor<2x5x4xf32>, tensor<4xf32>, tensor<2x5x1x6xf32>, tensor<2x5x1x6xf32>, tensor<2x4x6x8xf32>) -> (tensor<2x5x4x8xf32>, tensor<2x4x8x6xf32>)
  return
}

// -----

func.func @mamba2_dynamic_heads(%x: tensor<2x5x?x8xf32>, %dt: tensor<2x5x?xf32>, %A: tensor<?xf32>, %B: tensor<2x5x1x6xf32>) {
  // expected-error @+2 {{the size H must be static}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %h = rlx.mamba2 %x, %dt, %A, %B, %B : (tensor<2x5x?x8xf32>, tensor<2x5x?xf32>, tensor<?xf32>, tensor<2x5x1x6xf32>, tensor<2x5x1x6xf32>) -> (tensor<2x5x?x8xf32>, tensor<2x?x8x6xf32>)
  return
}

// -----

func.func @gdn_keys(%q: tensor<1x5x2x4xf32>, %k: tensor<1x5x2x3xf32>, %v: tensor<1x5x2x3xf32>, %g: tensor<1x5x2xf32>) {
  // expected-error @+2 {{k must be [batch = 1, L = 5, H = 2, K = 4], got [1, 5, 2, 3]}}
  // expected-error @+1 {{failed to infer returned types}}
  %o, %s = rlx.gated_delta_net %q, %k, %v, %g, %g : (tensor<1x5x2x4xf32>, tensor<1x5x2x3xf32>, tensor<1x5x2x3xf32>, tensor<1x5x2xf32>, tensor<1x5x2xf32>) -> (tensor<1x5x2x3xf32>, tensor<1x2x3x4xf32>)
  return
}

// -----

func.func @gdn_beta(%q: tensor<1x5x2x4xf32>, %v: tensor<1x5x2x3xf32>, %g: tensor<1x5x2xf32>, %beta: tensor<1x5x2x1xf32>) {
  // expected-error @+2 {{beta must be [batch = 1, L = 5, H = 2], got [1, 5, 2, 1]}}
  // expected-error @+1 {{failed to infer returned types}}
  %o, %s = rlx.gated_delta_net %q, %q, %v, %g, %beta : (tensor<1x5x2x4xf32>, tensor<1x5x2x4xf32>, tensor<1x5x2x3xf32>, tensor<1x5x2xf32>, tensor<1x5x2x1xf32>) -> (tensor<1x5x2x3xf32>, tensor<1x2x3x4xf32>)
  return
}

// -----

func.func @gdn_chunk(%q: tensor<1x5x2x4xf32>, %v: tensor<1x5x2x3xf32>, %g: tensor<1x5x2xf32>) {
  // expected-error @+1 {{'rlx.gated_delta_net' op chunk must be at least 1, got -2}}
  %o, %s = rlx.gated_delta_net %q, %q, %v, %g, %g chunk = -2 : (tensor<1x5x2x4xf32>, tensor<1x5x2x4xf32>, tensor<1x5x2x3xf32>, tensor<1x5x2xf32>, tensor<1x5x2xf32>) -> (tensor<1x5x2x3xf32>, tensor<1x2x3x4xf32>)
  return
}
