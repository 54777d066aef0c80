// RUN: rlx-opt %s -split-input-file -verify-diagnostics

// Every verifier rule of the rlx dialect: ODS type constraints, traits,
// result-type inference and the hand-written verifiers.

//===----------------------------------------------------------------------===//
// Shapes and element types
//===----------------------------------------------------------------------===//

func.func @unranked(%x: tensor<*xf32>) {
  // expected-error @+1 {{'rlx.exp' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<*xf32>'}}
  %0 = "rlx.exp"(%x) : (tensor<*xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @float_op_on_int(%x: tensor<3xi32>) {
  // expected-error @+1 {{'rlx.exp' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<3xi32>'}}
  %0 = rlx.exp %x : tensor<3xi32>
  return
}

// -----

func.func @number_op_on_bool(%x: tensor<3xi1>) {
  // expected-error @+1 {{'rlx.relu' op operand #0 must be ranked tensor of number values, but got 'tensor<3xi1>'}}
  %0 = rlx.relu %x : tensor<3xi1>
  return
}

// -----

func.func @unsigned_element(%x: tensor<3xui8>) {
  // expected-error @+1 {{'rlx.add' op operand #0 must be ranked tensor of number values, but got 'tensor<3xui8>'}}
  %0 = rlx.add %x, %x : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xui8>
  return
}

// -----

func.func @index_element(%x: tensor<3xindex>) {
  // expected-error @+1 {{'rlx.stop_gradient' op operand #0 must be ranked tensor of rlx element values, but got 'tensor<3xindex>'}}
  %0 = rlx.stop_gradient %x : tensor<3xindex>
  return
}

// -----

func.func @fp8_element(%x: tensor<3xf8E4M3FN>) {
  // expected-error @+1 {{'rlx.cast' op operand #0 must be ranked tensor of rlx element values, but got 'tensor<3xf8E4M3FN>'}}
  %0 = rlx.cast %x : tensor<3xf8E4M3FN> -> tensor<3xf32>
  return
}

// -----

func.func @unary_type_mismatch(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'rlx.exp' op requires the same type for all operands and results}}
  %0 = "rlx.exp"(%x) : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @unary_element_mismatch(%x: tensor<3xi32>) {
  // expected-error @+1 {{'rlx.neg' op requires the same type for all operands and results}}
  %0 = "rlx.neg"(%x) : (tensor<3xi32>) -> tensor<3xi64>
  return
}

// -----

func.func @stop_gradient_type_mismatch(%x: tensor<3xf32>) {
  // expected-error @+1 {{'rlx.stop_gradient' op requires the same type for all operands and results}}
  %0 = "rlx.stop_gradient"(%x) : (tensor<3xf32>) -> tensor<3xf16>
  return
}

//===----------------------------------------------------------------------===//
// Binary ops
//===----------------------------------------------------------------------===//

// -----

func.func @bit_op_on_float(%x: tensor<3xf32>) {
  // expected-error @+1 {{'rlx.bit_and' op operand #0 must be ranked tensor of integer or bool values, but got 'tensor<3xf32>'}}
  %0 = rlx.bit_and %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @shl_on_bool(%x: tensor<3xi1>) {
  // expected-error @+1 {{'rlx.shl' op operand #0 must be ranked tensor of signless integer values, but got 'tensor<3xi1>'}}
  %0 = rlx.shl %x, %x : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
  return
}

// -----

func.func @shr_on_float(%x: tensor<3xf16>) {
  // expected-error @+1 {{'rlx.shr' op operand #0 must be ranked tensor of signless integer values, but got 'tensor<3xf16>'}}
  %0 = rlx.shr %x, %x : (tensor<3xf16>, tensor<3xf16>) -> tensor<3xf16>
  return
}

// -----

func.func @pow_on_int(%x: tensor<3xi32>) {
  // expected-error @+1 {{'rlx.pow' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<3xi32>'}}
  %0 = rlx.pow %x, %x : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  return
}

// -----

func.func @add_on_bool(%x: tensor<3xi1>) {
  // expected-error @+1 {{'rlx.add' op operand #0 must be ranked tensor of number values, but got 'tensor<3xi1>'}}
  %0 = rlx.add %x, %x : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
  return
}

// -----

func.func @binary_element_mismatch(%x: tensor<3xf32>, %y: tensor<3xf16>) {
  // expected-error @+1 {{'rlx.add' op requires the same element type for all operands}}
  %0 = rlx.add %x, %y : (tensor<3xf32>, tensor<3xf16>) -> tensor<3xf16>
  return
}

// -----

func.func @not_broadcastable(%x: tensor<3xf32>, %y: tensor<4xf32>) {
  // expected-error @+2 {{operand shapes are not broadcast compatible: [3] and [4]}}
  // expected-error @+1 {{'rlx.mul' op failed to infer returned types}}
  %0 = rlx.mul %x, %y : (tensor<3xf32>, tensor<4xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @not_broadcastable_zero(%x: tensor<0x3xi32>, %y: tensor<2x3xi32>) {
  // expected-error @+2 {{operand shapes are not broadcast compatible: [0, 3] and [2, 3]}}
  // expected-error @+1 {{'rlx.sub' op failed to infer returned types}}
  %0 = rlx.sub %x, %y : (tensor<0x3xi32>, tensor<2x3xi32>) -> tensor<0x3xi32>
  return
}

// -----

func.func @wrong_broadcast_result(%x: tensor<3xf32>, %y: tensor<2x1xf32>) {
  // expected-error @+2 {{'rlx.add' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  // expected-error @+1 {{'rlx.add' op failed to infer returned types}}
  %0 = rlx.add %x, %y : (tensor<3xf32>, tensor<2x1xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @wrong_result_element(%x: tensor<3xf32>) {
  // expected-error @+2 {{'rlx.div' op inferred type(s) 'tensor<3xf32>' are incompatible with return type(s) of operation 'tensor<3xf16>'}}
  // expected-error @+1 {{'rlx.div' op failed to infer returned types}}
  %0 = rlx.div %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf16>
  return
}

//===----------------------------------------------------------------------===//
// Comparisons, where, fma
//===----------------------------------------------------------------------===//

// -----

func.func @compare_result_not_bool(%x: tensor<3xf32>) {
  // expected-error @+1 {{'rlx.eq' op result #0 must be ranked tensor of 1-bit signless integer values, but got 'tensor<3xf32>'}}
  %0 = rlx.eq %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @compare_element_mismatch(%x: tensor<3xf32>, %y: tensor<3xi32>) {
  // expected-error @+1 {{'rlx.lt' op requires the same element type for all operands}}
  %0 = rlx.lt %x, %y : (tensor<3xf32>, tensor<3xi32>) -> tensor<3xi1>
  return
}

// -----

func.func @compare_wrong_shape(%x: tensor<3xf32>) {
  // expected-error @+2 {{'rlx.ge' op inferred type(s) 'tensor<3xi1>' are incompatible with return type(s) of operation 'tensor<1x3xi1>'}}
  // expected-error @+1 {{'rlx.ge' op failed to infer returned types}}
  %0 = rlx.ge %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<1x3xi1>
  return
}

// -----

func.func @where_condition_not_bool(%x: tensor<3xf32>, %c: tensor<3xi8>) {
  // expected-error @+1 {{'rlx.where' op operand #0 must be ranked tensor of 1-bit signless integer values, but got 'tensor<3xi8>'}}
  %0 = rlx.where %c, %x, %x : (tensor<3xi8>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @where_element_mismatch(%x: tensor<3xf32>, %y: tensor<3xi32>, %c: tensor<3xi1>) {
  // expected-error @+1 {{'rlx.where' op failed to verify that all of {on_true, on_false, result} have same element type}}
  %0 = rlx.where %c, %x, %y : (tensor<3xi1>, tensor<3xf32>, tensor<3xi32>) -> tensor<3xi32>
  return
}

// -----

func.func @where_not_broadcastable(%x: tensor<3xf32>, %c: tensor<2xi1>) {
  // expected-error @+2 {{operand shapes are not broadcast compatible: [2] and [3]}}
  // expected-error @+1 {{'rlx.where' op failed to infer returned types}}
  %0 = rlx.where %c, %x, %x : (tensor<2xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @fma_on_int(%x: tensor<2x3xi32>) {
  // expected-error @+1 {{'rlx.fma' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<2x3xi32>'}}
  %0 = rlx.fma %x, %x, %x : (tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  return
}

// -----

func.func @fma_element_mismatch(%x: tensor<3xf32>, %y: tensor<3xf16>) {
  // expected-error @+1 {{'rlx.fma' op requires the same element type for all operands}}
  %0 = rlx.fma %x, %x, %y : (tensor<3xf32>, tensor<3xf32>, tensor<3xf16>) -> tensor<3xf16>
  return
}

// -----

func.func @fma_wrong_result(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{'rlx.fma' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<3x2xf32>'}}
  // expected-error @+1 {{'rlx.fma' op failed to infer returned types}}
  %0 = rlx.fma %x, %x, %x : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<3x2xf32>
  return
}

//===----------------------------------------------------------------------===//
// cast, clamp
//===----------------------------------------------------------------------===//

// -----

func.func @cast_shape_mismatch(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'rlx.cast' op requires the same shape for all operands and results}}
  %0 = rlx.cast %x : tensor<2x3xf32> -> tensor<3x2xi32>
  return
}

// -----

func.func @cast_to_unsupported(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'rlx.cast' op result #0 must be ranked tensor of rlx element values, but got 'tensor<2x3xui8>'}}
  %0 = rlx.cast %x : tensor<2x3xf32> -> tensor<2x3xui8>
  return
}

// -----

func.func @clamp_no_bounds(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'rlx.clamp' op requires at least one of 'min' and 'max'}}
  %0 = rlx.clamp %x : tensor<2x3xf32>
  return
}

// -----

func.func @clamp_min_above_max(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'rlx.clamp' op requires min <= max, got min = 2.000000e+00 and max = 1.000000e+00}}
  %0 = rlx.clamp %x {min = 2.0, max = 1.0} : tensor<2x3xf32>
  return
}

// -----

func.func @clamp_int_min_above_max(%x: tensor<4xi32>) {
  // expected-error @+1 {{'rlx.clamp' op requires min <= max, got min = 5.000000e-01 and max = 2.500000e-01}}
  %0 = rlx.clamp %x {min = 0.5, max = 0.25} : tensor<4xi32>
  return
}

// -----

func.func @clamp_f32_bound(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'rlx.clamp' op attribute 'min' failed to satisfy constraint: 64-bit float attribute}}
  %0 = rlx.clamp %x {min = 1.0 : f32} : tensor<2x3xf32>
  return
}

// -----

func.func @clamp_on_bool(%x: tensor<2xi1>) {
  // expected-error @+1 {{'rlx.clamp' op operand #0 must be ranked tensor of number values, but got 'tensor<2xi1>'}}
  %0 = rlx.clamp %x {min = 0.0} : tensor<2xi1>
  return
}

//===----------------------------------------------------------------------===//
// matmul
//===----------------------------------------------------------------------===//

// -----

func.func @matmul_rank1(%x: tensor<3xf32>, %y: tensor<3x5xf32>) {
  // expected-error @+2 {{operands must have rank >= 2, got 1 and 2}}
  // expected-error @+1 {{'rlx.matmul' op failed to infer returned types}}
  %0 = rlx.matmul %x, %y : (tensor<3xf32>, tensor<3x5xf32>) -> tensor<5xf32>
  return
}

// -----

func.func @matmul_rank0(%x: tensor<2x3xf32>, %y: tensor<f32>) {
  // expected-error @+2 {{operands must have rank >= 2, got 2 and 0}}
  // expected-error @+1 {{'rlx.matmul' op failed to infer returned types}}
  %0 = rlx.matmul %x, %y : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
  return
}

// -----

func.func @matmul_k_mismatch(%x: tensor<2x3xf32>, %y: tensor<4x5xf32>) {
  // expected-error @+2 {{contracting dimensions differ: lhs [2, 3] has K = 3, rhs [4, 5] has K = 4}}
  // expected-error @+1 {{'rlx.matmul' op failed to infer returned types}}
  %0 = rlx.matmul %x, %y : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return
}

// -----

func.func @matmul_batch_mismatch(%x: tensor<2x2x3xf32>, %y: tensor<3x3x5xf32>) {
  // expected-error @+2 {{batch dimensions are not broadcast compatible: [2] and [3]}}
  // expected-error @+1 {{'rlx.matmul' op failed to infer returned types}}
  %0 = rlx.matmul %x, %y : (tensor<2x2x3xf32>, tensor<3x3x5xf32>) -> tensor<2x2x5xf32>
  return
}

// -----

func.func @matmul_wrong_result(%x: tensor<2x3xf32>, %y: tensor<3x4xf32>) {
  // expected-error @+2 {{'rlx.matmul' op inferred type(s) 'tensor<2x4xf32>' are incompatible with return type(s) of operation 'tensor<2x5xf32>'}}
  // expected-error @+1 {{'rlx.matmul' op failed to infer returned types}}
  %0 = rlx.matmul %x, %y : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x5xf32>
  return
}

// -----

func.func @matmul_wrong_result_element(%x: tensor<2x3xbf16>, %y: tensor<3x4xbf16>) {
  // expected-error @+2 {{'rlx.matmul' op inferred type(s) 'tensor<2x4xbf16>' are incompatible with return type(s) of operation 'tensor<2x4xf32>'}}
  // expected-error @+1 {{'rlx.matmul' op failed to infer returned types}}
  %0 = rlx.matmul %x, %y : (tensor<2x3xbf16>, tensor<3x4xbf16>) -> tensor<2x4xf32>
  return
}

// -----

func.func @matmul_element_mismatch(%x: tensor<2x3xi32>, %y: tensor<3x4xi64>) {
  // expected-error @+1 {{'rlx.matmul' op requires the same element type for all operands}}
  %0 = rlx.matmul %x, %y : (tensor<2x3xi32>, tensor<3x4xi64>) -> tensor<2x4xi32>
  return
}

// -----

func.func @matmul_bool(%x: tensor<2x3xi1>, %y: tensor<3x4xi1>) {
  // expected-error @+1 {{'rlx.matmul' op operand #0 must be ranked tensor of number values, but got 'tensor<2x3xi1>'}}
  %0 = rlx.matmul %x, %y : (tensor<2x3xi1>, tensor<3x4xi1>) -> tensor<2x4xi1>
  return
}

//===----------------------------------------------------------------------===//
// reduce
//===----------------------------------------------------------------------===//

// -----

func.func @reduce_no_axes(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{requires at least one reduced axis}}
  // expected-error @+1 {{'rlx.reduce' op failed to infer returned types}}
  %0 = rlx.reduce sum %x axes = [] : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @reduce_axis_too_large(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{axis 2 is out of range for rank 2}}
  // expected-error @+1 {{'rlx.reduce' op failed to infer returned types}}
  %0 = rlx.reduce max %x axes = [2] : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

func.func @reduce_axis_too_negative(%x: tensor<3xf32>) {
  // expected-error @+2 {{axis -2 is out of range for rank 1}}
  // expected-error @+1 {{'rlx.reduce' op failed to infer returned types}}
  %0 = rlx.reduce min %x axes = [-2] : tensor<3xf32> -> tensor<f32>
  return
}

// -----

func.func @reduce_rank0(%x: tensor<f32>) {
  // expected-error @+2 {{axis 0 is out of range for rank 0}}
  // expected-error @+1 {{'rlx.reduce' op failed to infer returned types}}
  %0 = rlx.reduce sum %x axes = [0] : tensor<f32> -> tensor<f32>
  return
}

// -----

func.func @reduce_duplicate_axis(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{axis 1 is reduced twice}}
  // expected-error @+1 {{'rlx.reduce' op failed to infer returned types}}
  %0 = rlx.reduce sum %x axes = [1, 1] : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

func.func @reduce_duplicate_negative_axis(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{axis -1 is reduced twice}}
  // expected-error @+1 {{'rlx.reduce' op failed to infer returned types}}
  %0 = rlx.reduce prod %x axes = [1, -1] : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

func.func @reduce_mean_int(%x: tensor<2x3xi32>) {
  // expected-error @+1 {{'rlx.reduce' op 'mean' requires a floating-point input, got 'tensor<2x3xi32>'}}
  %0 = rlx.reduce mean %x axes = [1] : tensor<2x3xi32> -> tensor<2xi32>
  return
}

// -----

func.func @reduce_bool(%x: tensor<2x3xi1>) {
  // expected-error @+1 {{'rlx.reduce' op operand #0 must be ranked tensor of number values, but got 'tensor<2x3xi1>'}}
  %0 = rlx.reduce max %x axes = [1] : tensor<2x3xi1> -> tensor<2xi1>
  return
}

// -----

func.func @reduce_missing_keep_dim(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{'rlx.reduce' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<2x1xf32>'}}
  // expected-error @+1 {{'rlx.reduce' op failed to infer returned types}}
  %0 = rlx.reduce sum %x axes = [1] : tensor<2x3xf32> -> tensor<2x1xf32>
  return
}

// -----

func.func @reduce_wrong_result_element(%x: tensor<2x3xf16>) {
  // expected-error @+2 {{'rlx.reduce' op inferred type(s) 'tensor<2xf16>' are incompatible with return type(s) of operation 'tensor<2xf32>'}}
  // expected-error @+1 {{'rlx.reduce' op failed to infer returned types}}
  %0 = rlx.reduce mean %x axes = [1] : tensor<2x3xf16> -> tensor<2xf32>
  return
}

// -----

func.func @reduce_unknown_kind(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'kind' [sum, mean, max, min, prod]}}
  %0 = rlx.reduce avg %x axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
  return
}

//===----------------------------------------------------------------------===//
// softmax, log_softmax
//===----------------------------------------------------------------------===//

// -----

func.func @softmax_axis_too_large(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %0 = rlx.softmax %x axis = 2 : tensor<2x3xf32>
  return
}

// -----

func.func @log_softmax_axis_too_negative(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{axis -3 is out of range for rank 2}}
  %0 = rlx.log_softmax %x axis = -3 : tensor<2x3xf32>
  return
}

// -----

func.func @softmax_rank0(%x: tensor<f32>) {
  // expected-error @+1 {{axis 0 is out of range for rank 0}}
  %0 = rlx.softmax %x axis = 0 : tensor<f32>
  return
}

// -----

func.func @softmax_on_int(%x: tensor<2x3xi32>) {
  // expected-error @+1 {{'rlx.softmax' op operand #0 must be ranked tensor of floating-point values, but got 'tensor<2x3xi32>'}}
  %0 = rlx.softmax %x axis = 0 : tensor<2x3xi32>
  return
}

// -----

func.func @softmax_type_mismatch(%x: tensor<3xf32>) {
  // expected-error @+1 {{'rlx.softmax' op requires the same type for all operands and results}}
  %0 = "rlx.softmax"(%x) <{axis = 0 : i64}> : (tensor<3xf32>) -> tensor<3xf16>
  return
}

// -----

func.func @softmax_i32_axis(%x: tensor<3xf32>) {
  // expected-error @+1 {{'rlx.softmax' op attribute 'axis' failed to satisfy constraint: 64-bit integer attribute}}
  %0 = "rlx.softmax"(%x) <{axis = 0 : i32}> : (tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @softmax_missing_axis(%x: tensor<3xf32>) {
  // expected-error @+1 {{'rlx.softmax' op requires attribute 'axis'}}
  %0 = "rlx.softmax"(%x) : (tensor<3xf32>) -> tensor<3xf32>
  return
}

//===----------------------------------------------------------------------===//
// constant
//===----------------------------------------------------------------------===//

// -----

func.func @constant_type_mismatch() {
  // expected-error @+1 {{'rlx.constant' op failed to verify that all of {value, result} have same type}}
  %0 = "rlx.constant"() <{value = dense<1.0> : tensor<2xf32>}> : () -> tensor<3xf32>
  return
}

// -----

func.func @constant_element_mismatch() {
  // expected-error @+1 {{'rlx.constant' op failed to verify that all of {value, result} have same type}}
  %0 = "rlx.constant"() <{value = dense<[1, 2]> : tensor<2xi32>}> : () -> tensor<2xf32>
  return
}

// -----

func.func @constant_unsupported_element() {
  // expected-error @+1 {{'rlx.constant' op result #0 must be ranked tensor of rlx element values, but got 'tensor<2xui8>'}}
  %0 = rlx.constant dense<1> : tensor<2xui8>
  return
}

// -----

func.func @constant_scalar_attr() {
  // expected-error @+1 {{invalid properties {value = 1.000000e+00 : f32} for op rlx.constant: Invalid attribute `value` in property conversion: 1.000000e+00 : f32}}
  %0 = "rlx.constant"() <{value = 1.0 : f32}> : () -> tensor<f32>
  return
}

//===----------------------------------------------------------------------===//
// reshape, transpose, expand
//===----------------------------------------------------------------------===//

// -----

func.func @reshape_element_count(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'rlx.reshape' op cannot reshape [2, 3] (6 elements) to [7] (7 elements)}}
  %0 = rlx.reshape %x : tensor<2x3xf32> -> tensor<7xf32>
  return
}

// -----

func.func @reshape_zero_elements(%x: tensor<0x3xf32>) {
  // expected-error @+1 {{'rlx.reshape' op cannot reshape [0, 3] (0 elements) to [] (1 elements)}}
  %0 = rlx.reshape %x : tensor<0x3xf32> -> tensor<f32>
  return
}

// -----

func.func @reshape_element_type(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'rlx.reshape' op failed to verify that all of {input, result} have same element type}}
  %0 = rlx.reshape %x : tensor<2x3xf32> -> tensor<6xf16>
  return
}

// -----

func.func @transpose_short_permutation(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{permutation has 1 entries but the input has rank 2}}
  // expected-error @+1 {{'rlx.transpose' op failed to infer returned types}}
  %0 = rlx.transpose %x [0] : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

func.func @transpose_long_permutation(%x: tensor<f32>) {
  // expected-error @+2 {{permutation has 1 entries but the input has rank 0}}
  // expected-error @+1 {{'rlx.transpose' op failed to infer returned types}}
  %0 = rlx.transpose %x [0] : tensor<f32> -> tensor<f32>
  return
}

// -----

func.func @transpose_repeated_entry(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{permutation [1, 1] is not a permutation of [0, 2)}}
  // expected-error @+1 {{'rlx.transpose' op failed to infer returned types}}
  %0 = rlx.transpose %x [1, 1] : tensor<2x3xf32> -> tensor<3x3xf32>
  return
}

// -----

func.func @transpose_entry_out_of_range(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{permutation [0, 2] is not a permutation of [0, 2)}}
  // expected-error @+1 {{'rlx.transpose' op failed to infer returned types}}
  %0 = rlx.transpose %x [0, 2] : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @transpose_negative_entry(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{permutation [-1, 0] is not a permutation of [0, 2)}}
  // expected-error @+1 {{'rlx.transpose' op failed to infer returned types}}
  %0 = rlx.transpose %x [-1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  return
}

// -----

func.func @transpose_wrong_result(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{'rlx.transpose' op inferred type(s) 'tensor<3x2xf32>' are incompatible with return type(s) of operation 'tensor<2x3xf32>'}}
  // expected-error @+1 {{'rlx.transpose' op failed to infer returned types}}
  %0 = rlx.transpose %x [1, 0] : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @expand_to_lower_rank(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'rlx.expand' op cannot expand rank 2 to the lower rank 1}}
  %0 = rlx.expand %x : tensor<2x3xf32> -> tensor<3xf32>
  return
}

// -----

func.func @expand_incompatible_dim(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'rlx.expand' op cannot expand [2, 3] to [4, 3]: input dimension 0 has size 2 but the result has 4; only size-1 dimensions broadcast}}
  %0 = rlx.expand %x : tensor<2x3xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @expand_to_zero(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'rlx.expand' op cannot expand [2, 3] to [5, 2, 0]: input dimension 1 has size 3 but the result has 0; only size-1 dimensions broadcast}}
  %0 = rlx.expand %x : tensor<2x3xf32> -> tensor<5x2x0xf32>
  return
}

// -----

func.func @expand_element_type(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'rlx.expand' op failed to verify that all of {input, result} have same element type}}
  %0 = rlx.expand %x : tensor<2x3xf32> -> tensor<2x3xi32>
  return
}

//===----------------------------------------------------------------------===//
// concat
//===----------------------------------------------------------------------===//

// -----

func.func @concat_rank_mismatch(%x: tensor<2x3xf32>, %y: tensor<3xf32>) {
  // expected-error @+2 {{input 1 has rank 1, expected 2}}
  // expected-error @+1 {{'rlx.concat' op failed to infer returned types}}
  %0 = rlx.concat %x, %y axis = 0 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<5x3xf32>
  return
}

// -----

func.func @concat_dim_mismatch(%x: tensor<2x3xf32>, %y: tensor<2x4xf32>) {
  // expected-error @+2 {{input 1 has shape [2, 4], which differs from [2, 3] outside the concatenation axis 0}}
  // expected-error @+1 {{'rlx.concat' op failed to infer returned types}}
  %0 = rlx.concat %x, %y axis = 0 : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @concat_dim_mismatch_negative_axis(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>, %z: tensor<4x1xf32>) {
  // expected-error @+2 {{input 2 has shape [4, 1], which differs from [2, 3] outside the concatenation axis 1}}
  // expected-error @+1 {{'rlx.concat' op failed to infer returned types}}
  %0 = rlx.concat %x, %y, %z axis = -1 : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<4x1xf32>) -> tensor<2x7xf32>
  return
}

// -----

func.func @concat_axis_too_large(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{axis 2 is out of range for rank 2}}
  // expected-error @+1 {{'rlx.concat' op failed to infer returned types}}
  %0 = rlx.concat %x, %x axis = 2 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @concat_axis_too_negative(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{axis -3 is out of range for rank 2}}
  // expected-error @+1 {{'rlx.concat' op failed to infer returned types}}
  %0 = rlx.concat %x axis = -3 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @concat_rank0(%x: tensor<f32>) {
  // expected-error @+2 {{axis 0 is out of range for rank 0}}
  // expected-error @+1 {{'rlx.concat' op failed to infer returned types}}
  %0 = rlx.concat %x, %x axis = 0 : (tensor<f32>, tensor<f32>) -> tensor<2xf32>
  return
}

// -----

func.func @concat_element_mismatch(%x: tensor<2x3xf32>, %y: tensor<2x3xf16>) {
  // expected-error @+1 {{'rlx.concat' op requires the same element type for all operands and results}}
  %0 = rlx.concat %x, %y axis = 0 : (tensor<2x3xf32>, tensor<2x3xf16>) -> tensor<4x3xf32>
  return
}

// -----

func.func @concat_no_inputs() {
  // expected-error @+1 {{'rlx.concat' op expected 1 or more operands, but found 0}}
  %0 = rlx.concat axis = 0 : () -> tensor<4x3xf32>
  return
}

// -----

func.func @concat_wrong_result(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{'rlx.concat' op inferred type(s) 'tensor<4x3xf32>' are incompatible with return type(s) of operation 'tensor<2x6xf32>'}}
  // expected-error @+1 {{'rlx.concat' op failed to infer returned types}}
  %0 = rlx.concat %x, %x axis = 0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  return
}

//===----------------------------------------------------------------------===//
// narrow, slice
//===----------------------------------------------------------------------===//

// -----

func.func @narrow_past_end(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{window start = 2, length = 2, step = 1 reads outside axis 1 of size 3}}
  // expected-error @+1 {{'rlx.narrow' op failed to infer returned types}}
  %0 = rlx.narrow %x axis = 1, start = 2, length = 2 : tensor<2x3xf32> -> tensor<2x2xf32>
  return
}

// -----

func.func @narrow_start_at_end(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{window start = 3, length = 1, step = 1 reads outside axis 1 of size 3}}
  // expected-error @+1 {{'rlx.narrow' op failed to infer returned types}}
  %0 = rlx.narrow %x axis = -1, start = 3, length = 1 : tensor<2x3xf32> -> tensor<2x1xf32>
  return
}

// -----

func.func @narrow_negative_start(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{window start = -1, length = 1, step = 1 reads outside axis 1 of size 3}}
  // expected-error @+1 {{'rlx.narrow' op failed to infer returned types}}
  %0 = rlx.narrow %x axis = 1, start = -1, length = 1 : tensor<2x3xf32> -> tensor<2x1xf32>
  return
}

// -----

func.func @narrow_negative_length(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{length must be >= 0, got -1}}
  // expected-error @+1 {{'rlx.narrow' op failed to infer returned types}}
  %0 = rlx.narrow %x axis = 1, start = 0, length = -1 : tensor<2x3xf32> -> tensor<2x1xf32>
  return
}

// -----

func.func @narrow_axis_out_of_range(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{axis -3 is out of range for rank 2}}
  // expected-error @+1 {{'rlx.narrow' op failed to infer returned types}}
  %0 = rlx.narrow %x axis = -3, start = 0, length = 1 : tensor<2x3xf32> -> tensor<2x1xf32>
  return
}

// -----

func.func @narrow_rank0(%x: tensor<f32>) {
  // expected-error @+2 {{axis 0 is out of range for rank 0}}
  // expected-error @+1 {{'rlx.narrow' op failed to infer returned types}}
  %0 = rlx.narrow %x axis = 0, start = 0, length = 1 : tensor<f32> -> tensor<f32>
  return
}

// -----

func.func @narrow_wrong_result(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{'rlx.narrow' op inferred type(s) 'tensor<1x3xf32>' are incompatible with return type(s) of operation 'tensor<2x3xf32>'}}
  // expected-error @+1 {{'rlx.narrow' op failed to infer returned types}}
  %0 = rlx.narrow %x axis = 0, start = 0, length = 1 : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @slice_zero_step(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{step must be non-zero}}
  // expected-error @+1 {{'rlx.slice' op failed to infer returned types}}
  %0 = rlx.slice %x axis = 1, start = 0, length = 1, step = 0 : tensor<2x3xf32> -> tensor<2x1xf32>
  return
}

// -----

func.func @slice_negative_length(%x: tensor<3xf32>) {
  // expected-error @+2 {{length must be >= 0, got -2}}
  // expected-error @+1 {{'rlx.slice' op failed to infer returned types}}
  %0 = rlx.slice %x axis = 0, start = 0, length = -2, step = -1 : tensor<3xf32> -> tensor<3xf32>
  return
}

// -----

func.func @slice_positive_step_past_end(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{window start = 0, length = 2, step = 3 reads outside axis 1 of size 3}}
  // expected-error @+1 {{'rlx.slice' op failed to infer returned types}}
  %0 = rlx.slice %x axis = 1, start = 0, length = 2, step = 3 : tensor<2x3xf32> -> tensor<2x2xf32>
  return
}

// -----

func.func @slice_negative_step_past_front(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{window start = 1, length = 3, step = -1 reads outside axis 1 of size 3}}
  // expected-error @+1 {{'rlx.slice' op failed to infer returned types}}
  %0 = rlx.slice %x axis = 1, start = 1, length = 3, step = -1 : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @slice_negative_step_start_past_end(%x: tensor<3xf32>) {
  // expected-error @+2 {{window start = 3, length = 1, step = -1 reads outside axis 0 of size 3}}
  // expected-error @+1 {{'rlx.slice' op failed to infer returned types}}
  %0 = rlx.slice %x axis = 0, start = 3, length = 1, step = -1 : tensor<3xf32> -> tensor<1xf32>
  return
}

// -----

func.func @slice_axis_out_of_range(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{axis 2 is out of range for rank 2}}
  // expected-error @+1 {{'rlx.slice' op failed to infer returned types}}
  %0 = rlx.slice %x axis = 2, start = 0, length = 1, step = 1 : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @slice_wrong_result(%x: tensor<4xf32>) {
  // expected-error @+2 {{'rlx.slice' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<4xf32>'}}
  // expected-error @+1 {{'rlx.slice' op failed to infer returned types}}
  %0 = rlx.slice %x axis = 0, start = 3, length = 2, step = -2 : tensor<4xf32> -> tensor<4xf32>
  return
}
