// RUN: rlx-opt %s -split-input-file -verify-diagnostics

// Every verifier rule of argmax/argmin, the scans and topk.

//===----------------------------------------------------------------------===//
// argmax / argmin
//===----------------------------------------------------------------------===//

func.func @argmax_float_result(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'rlx.argmax' op result #0 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values, but got 'tensor<2xf32>'}}
  %0 = rlx.argmax %x axis = 1 : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

func.func @argmin_i16_result(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'rlx.argmin' op result #0 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values, but got 'tensor<2xi16>'}}
  %0 = rlx.argmin %x axis = 1 : tensor<2x3xf32> -> tensor<2xi16>
  return
}

// -----

func.func @argmax_bool_input(%x: tensor<4xi1>) {
  // expected-error @+1 {{'rlx.argmax' op operand #0 must be ranked tensor of number values, but got 'tensor<4xi1>'}}
  %0 = rlx.argmax %x axis = 0 : tensor<4xi1> -> tensor<i64>
  return
}

// -----

func.func @argmax_axis_too_large(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'rlx.argmax' op axis 2 is out of range for rank 2}}
  %0 = rlx.argmax %x axis = 2 : tensor<2x3xf32> -> tensor<2xi64>
  return
}

// -----

func.func @argmin_axis_too_negative(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'rlx.argmin' op axis -3 is out of range for rank 2}}
  %0 = rlx.argmin %x axis = -3 : tensor<2x3xf32> -> tensor<2xi64>
  return
}

// -----

func.func @argmax_rank0(%x: tensor<f32>) {
  // expected-error @+1 {{'rlx.argmax' op axis 0 is out of range for rank 0}}
  %0 = rlx.argmax %x axis = 0 : tensor<f32> -> tensor<i64>
  return
}

// -----

func.func @argmax_empty_axis(%x: tensor<3x0xf32>) {
  // expected-error @+1 {{'rlx.argmax' op axis 1 of 'tensor<3x0xf32>' is empty: it has no maximum}}
  %0 = rlx.argmax %x axis = 1 : tensor<3x0xf32> -> tensor<3xi64>
  return
}

// -----

func.func @argmin_empty_axis(%x: tensor<0xi32>) {
  // expected-error @+1 {{'rlx.argmin' op axis -1 of 'tensor<0xi32>' is empty: it has no minimum}}
  %0 = rlx.argmin %x axis = -1 : tensor<0xi32> -> tensor<i32>
  return
}

// -----

func.func @argmax_i32_too_short(%x: tensor<2147483648xf32>) {
  // expected-error @+1 {{'rlx.argmax' op an i32 result cannot index axis 0 of length 2147483648}}
  %0 = rlx.argmax %x axis = 0 : tensor<2147483648xf32> -> tensor<i32>
  return
}

// -----

func.func @argmax_wrong_shape(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'rlx.argmax' op result #0 has type 'tensor<2x3xi64>', but its shape is [2, 4]}}
  %0 = rlx.argmax %x axis = 1 : tensor<2x3x4xf32> -> tensor<2x3xi64>
  return
}

// -----

func.func @argmin_keep_dim_wrong_shape(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'rlx.argmin' op result #0 has type 'tensor<2x4xi64>', but its shape is [2, 1, 4]}}
  %0 = rlx.argmin %x axis = -2 keep_dim : tensor<2x3x4xf32> -> tensor<2x4xi64>
  return
}

//===----------------------------------------------------------------------===//
// cumsum / cumprod / cummax
//===----------------------------------------------------------------------===//

// -----

func.func @cumsum_axis_too_large(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'rlx.cumsum' op axis 2 is out of range for rank 2}}
  %0 = rlx.cumsum %x axis = 2 : tensor<2x3xf32>
  return
}

// -----

func.func @cumprod_axis_too_negative(%x: tensor<2x3xi32>) {
  // expected-error @+1 {{'rlx.cumprod' op axis -3 is out of range for rank 2}}
  %0 = rlx.cumprod %x axis = -3 exclusive : tensor<2x3xi32>
  return
}

// -----

func.func @cummax_rank0(%x: tensor<f32>) {
  // expected-error @+1 {{'rlx.cummax' op axis 0 is out of range for rank 0}}
  %0 = rlx.cummax %x axis = 0 : tensor<f32>
  return
}

// -----

func.func @cumsum_bool(%x: tensor<4xi1>) {
  // expected-error @+1 {{'rlx.cumsum' op operand #0 must be ranked tensor of number values, but got 'tensor<4xi1>'}}
  %0 = rlx.cumsum %x axis = 0 : tensor<4xi1>
  return
}

// -----

func.func @cumsum_result_type(%x: tensor<4xi32>) {
  // expected-error @+1 {{'rlx.cumsum' op requires the same type for all operands and results}}
  %0 = "rlx.cumsum"(%x) <{axis = 0 : i64}> : (tensor<4xi32>) -> tensor<4xi64>
  return
}

//===----------------------------------------------------------------------===//
// topk
//===----------------------------------------------------------------------===//

// -----

func.func @topk_rank0(%x: tensor<f32>) {
  // expected-error @+2 {{topk needs an input of rank >= 1, got 'tensor<f32>'}}
  // expected-error @+1 {{'rlx.topk' op failed to infer returned types}}
  %0:2 = rlx.topk %x k = 1 : tensor<f32> -> tensor<f32>, tensor<i64>
  return
}

// -----

func.func @topk_k_zero(%x: tensor<2x5xf32>) {
  // expected-error @+2 {{k = 0 is not in [1, 5], the length of the last axis of 'tensor<2x5xf32>'}}
  // expected-error @+1 {{'rlx.topk' op failed to infer returned types}}
  %0:2 = rlx.topk %x k = 0 : tensor<2x5xf32> -> tensor<2x0xf32>, tensor<2x0xi64>
  return
}

// -----

func.func @topk_k_negative(%x: tensor<5xf32>) {
  // expected-error @+2 {{k = -1 is not in [1, 5], the length of the last axis of 'tensor<5xf32>'}}
  // expected-error @+1 {{'rlx.topk' op failed to infer returned types}}
  %0:2 = rlx.topk %x k = -1 : tensor<5xf32> -> tensor<5xf32>, tensor<5xi64>
  return
}

// -----

func.func @topk_k_too_large(%x: tensor<2x5xi32>) {
  // expected-error @+2 {{k = 6 is not in [1, 5], the length of the last axis of 'tensor<2x5xi32>'}}
  // expected-error @+1 {{'rlx.topk' op failed to infer returned types}}
  %0:2 = rlx.topk %x k = 6 smallest : tensor<2x5xi32> -> tensor<2x6xi32>, tensor<2x6xi64>
  return
}

// -----

func.func @topk_wrong_values_type(%x: tensor<2x5xf32>) {
  // expected-error @+2 {{'rlx.topk' op failed to infer returned types}}
  // expected-error @+1 {{'rlx.topk' op inferred type(s) 'tensor<2x2xf32>', 'tensor<2x2xi64>' are incompatible with return type(s) of operation 'tensor<2x2xf16>', 'tensor<2x2xi64>'}}
  %0:2 = rlx.topk %x k = 2 : tensor<2x5xf32> -> tensor<2x2xf16>, tensor<2x2xi64>
  return
}

// -----

func.func @topk_i32_indices(%x: tensor<2x5xf32>) {
  // expected-error @+1 {{'rlx.topk' op result #1 must be ranked tensor of 64-bit signless integer values, but got 'tensor<2x2xi32>'}}
  %0:2 = rlx.topk %x k = 2 : tensor<2x5xf32> -> tensor<2x2xf32>, tensor<2x2xi32>
  return
}

// -----

func.func @topk_bool(%x: tensor<4xi1>) {
  // expected-error @+1 {{'rlx.topk' op operand #0 must be ranked tensor of number values, but got 'tensor<4xi1>'}}
  %0:2 = rlx.topk %x k = 2 : tensor<4xi1> -> tensor<2xi1>, tensor<2xi64>
  return
}
