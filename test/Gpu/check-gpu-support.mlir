// RUN: rlx-opt %s --rlx-check-gpu-support --split-input-file --verify-diagnostics | FileCheck %s

// Ops the GPU pipeline compiles pass through unchanged.
// CHECK-LABEL: func.func @supported
// CHECK:         rlx.softmax
func.func @supported(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = rlx.softmax %x axis = 1 : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Each unsupported op is named at its location.
func.func @scans(%x: tensor<2x5xf32>) -> (tensor<2x5xf32>, tensor<2x5xf32>) {
  // expected-error @+1 {{'rlx.cumsum' is not supported by the GPU pipeline yet}}
  %0 = rlx.cumsum %x axis = -1 : tensor<2x5xf32>
  // expected-error @+1 {{'rlx.cummax' is not supported by the GPU pipeline yet}}
  %1 = rlx.cummax %x axis = 0 : tensor<2x5xf32>
  return %0, %1 : tensor<2x5xf32>, tensor<2x5xf32>
}
