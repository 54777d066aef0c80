// RUN: rlx-opt %s --split-input-file --verify-diagnostics --rlx-gpu-pipeline

// Ops the GPU path cannot compile yet fail compilation, named at their
// location, before any lowering.

func.func @topk(%x: tensor<4x8xf32>) -> (tensor<4x2xf32>, tensor<4x2xi64>) {
  // expected-error @+1 {{'rlx.topk' is not supported by the GPU pipeline yet}}
  %v, %i = rlx.topk %x k = 2 : tensor<4x8xf32> -> tensor<4x2xf32>, tensor<4x2xi64>
  return %v, %i : tensor<4x2xf32>, tensor<4x2xi64>
}

// -----

func.func @attention(%q: tensor<1x4x2x8xf32>, %k: tensor<1x4x2x8xf32>, %v: tensor<1x4x2x8xf32>) -> tensor<1x4x2x8xf32> {
  // expected-error @+1 {{'rlx.attention' is not supported by the GPU pipeline yet}}
  %0 = rlx.attention bshd %q, %k, %v heads = 2 kv_heads = 2 mask = causal : (tensor<1x4x2x8xf32>, tensor<1x4x2x8xf32>, tensor<1x4x2x8xf32>) -> tensor<1x4x2x8xf32>
  return %0 : tensor<1x4x2x8xf32>
}
