// RUN: rlx-opt %s -split-input-file -verify-diagnostics

// Every verifier rule of sort, argsort, cummax_indices and histogram.

//===----------------------------------------------------------------------===//
// sort / argsort
//===----------------------------------------------------------------------===//

func.func @sort_axis_too_large(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{axis 2 is out of range for rank 2}}
  // expected-error @+1 {{'rlx.sort' op failed to infer returned types}}
  %0:2 = rlx.sort %x axis = 2 : tensor<2x3xf32> -> tensor<2x3xf32>, tensor<2x3xi64>
  return
}

// -----

func.func @sort_rank0(%x: tensor<f32>) {
  // expected-error @+2 {{axis 0 is out of range for rank 0}}
  // expected-error @+1 {{'rlx.sort' op failed to infer returned types}}
  %0:2 = rlx.sort %x axis = 0 : tensor<f32> -> tensor<f32>, tensor<i64>
  return
}

// -----

func.func @sort_bool(%x: tensor<4xi1>) {
  // expected-error @+1 {{'rlx.sort' op operand #0 must be ranked tensor of number values, but got 'tensor<4xi1>'}}
  %0:2 = rlx.sort %x axis = 0 : tensor<4xi1> -> tensor<4xi1>, tensor<4xi64>
  return
}

// -----

func.func @sort_i32_indices(%x: tensor<5xf32>) {
  // expected-error @+1 {{'rlx.sort' op result #1 must be ranked tensor of 64-bit signless integer values, but got 'tensor<5xi32>'}}
  %0:2 = rlx.sort %x axis = 0 : tensor<5xf32> -> tensor<5xf32>, tensor<5xi32>
  return
}

// -----

func.func @sort_values_type(%x: tensor<5xf32>) {
  // expected-error @+2 {{'rlx.sort' op failed to infer returned types}}
  // expected-error @+1 {{'rlx.sort' op inferred type(s) 'tensor<5xf32>', 'tensor<5xi64>' are incompatible with return type(s) of operation 'tensor<5xf16>', 'tensor<5xi64>'}}
  %0:2 = rlx.sort %x axis = 0 : tensor<5xf32> -> tensor<5xf16>, tensor<5xi64>
  return
}

// -----

func.func @sort_indices_shape(%x: tensor<2x5xf32>) {
  // expected-error @+2 {{'rlx.sort' op failed to infer returned types}}
  // expected-error @+1 {{'rlx.sort' op inferred type(s) 'tensor<2x5xf32>', 'tensor<2x5xi64>' are incompatible with return type(s) of operation 'tensor<2x5xf32>', 'tensor<5x2xi64>'}}
  %0:2 = rlx.sort %x axis = 1 : tensor<2x5xf32> -> tensor<2x5xf32>, tensor<5x2xi64>
  return
}

// -----

func.func @argsort_axis_too_negative(%x: tensor<2x3xi32>) {
  // expected-error @+2 {{axis -3 is out of range for rank 2}}
  // expected-error @+1 {{'rlx.argsort' op failed to infer returned types}}
  %0 = rlx.argsort %x axis = -3 descending : tensor<2x3xi32> -> tensor<2x3xi64>
  return
}

// -----

func.func @argsort_i32_result(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'rlx.argsort' op result #0 must be ranked tensor of 64-bit signless integer values, but got 'tensor<2x3xi32>'}}
  %0 = rlx.argsort %x axis = 1 : tensor<2x3xf32> -> tensor<2x3xi32>
  return
}

// -----

func.func @argsort_shape(%x: tensor<?x3xf32>) {
  // expected-error @+2 {{'rlx.argsort' op failed to infer returned types}}
  // expected-error @+1 {{'rlx.argsort' op inferred type(s) 'tensor<?x3xi64>' are incompatible with return type(s) of operation 'tensor<?x4xi64>'}}
  %0 = rlx.argsort %x axis = 0 : tensor<?x3xf32> -> tensor<?x4xi64>
  return
}

//===----------------------------------------------------------------------===//
// cummax_indices
//===----------------------------------------------------------------------===//

// -----

func.func @cummax_indices_axis(%x: tensor<4xf32>) {
  // expected-error @+2 {{axis 1 is out of range for rank 1}}
  // expected-error @+1 {{'rlx.cummax_indices' op failed to infer returned types}}
  %0 = rlx.cummax_indices %x axis = 1 : tensor<4xf32> -> tensor<4xi64>
  return
}

// -----

func.func @cummax_indices_i32(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rlx.cummax_indices' op result #0 must be ranked tensor of 64-bit signless integer values, but got 'tensor<4xi32>'}}
  %0 = rlx.cummax_indices %x axis = 0 : tensor<4xf32> -> tensor<4xi32>
  return
}

// -----

func.func @cummax_indices_bool(%x: tensor<4xi1>) {
  // expected-error @+1 {{'rlx.cummax_indices' op operand #0 must be ranked tensor of number values, but got 'tensor<4xi1>'}}
  %0 = rlx.cummax_indices %x axis = 0 : tensor<4xi1> -> tensor<4xi64>
  return
}

//===----------------------------------------------------------------------===//
// histogram
//===----------------------------------------------------------------------===//

// -----

func.func @histogram_f16(%x: tensor<8xf16>) {
  // expected-error @+1 {{'rlx.histogram' op operand #0 must be ranked tensor of 32-bit float or 64-bit float values, but got 'tensor<8xf16>'}}
  %0 = rlx.histogram %x bins = 4 min = 0.0 max = 1.0 : tensor<8xf16> -> tensor<4xf16>
  return
}

// -----

func.func @histogram_integers(%x: tensor<8xi32>) {
  // expected-error @+1 {{'rlx.histogram' op operand #0 must be ranked tensor of 32-bit float or 64-bit float values, but got 'tensor<8xi32>'}}
  %0 = rlx.histogram %x bins = 4 min = 0.0 max = 1.0 : tensor<8xi32> -> tensor<4xf32>
  return
}

// -----

func.func @histogram_no_bins(%x: tensor<8xf32>) {
  // expected-error @+2 {{bins = 0 must be at least 1}}
  // expected-error @+1 {{'rlx.histogram' op failed to infer returned types}}
  %0 = rlx.histogram %x bins = 0 min = 0.0 max = 1.0 : tensor<8xf32> -> tensor<0xf32>
  return
}

// -----

func.func @histogram_min_equals_max(%x: tensor<8xf32>) {
  // expected-error @+2 {{min = 0.000000e+00 must be less than max = 0.000000e+00 in 'f32' (the data's own range, torch.histc's min == max form, is not supported)}}
  // expected-error @+1 {{'rlx.histogram' op failed to infer returned types}}
  %0 = rlx.histogram %x bins = 100 min = 0.0 max = 0.0 : tensor<8xf32> -> tensor<100xf32>
  return
}

// -----

func.func @histogram_min_above_max(%x: tensor<8xf64>) {
  // expected-error @+2 {{min = 3.000000e+00 must be less than max = 1.000000e+00 in 'f64'}}
  // expected-error @+1 {{'rlx.histogram' op failed to infer returned types}}
  %0 = rlx.histogram %x bins = 4 min = 3.0 max = 1.0 : tensor<8xf64> -> tensor<4xf64>
  return
}

// -----

// Distinct as f64 attributes, equal once rounded to f32.
func.func @histogram_bounds_equal_in_f32(%x: tensor<8xf32>) {
  // expected-error @+2 {{must be less than max = 1.000000e+00 in 'f32'}}
  // expected-error @+1 {{'rlx.histogram' op failed to infer returned types}}
  %0 = rlx.histogram %x bins = 4 min = 0.99999999999 max = 1.0 : tensor<8xf32> -> tensor<4xf32>
  return
}

// -----

func.func @histogram_infinite_bound(%x: tensor<8xf32>) {
  // expected-error @+2 {{min = 0.000000e+00 and max = INF must be finite in 'f32'}}
  // expected-error @+1 {{'rlx.histogram' op failed to infer returned types}}
  %0 = rlx.histogram %x bins = 4 min = 0.0 max = 0x7FF0000000000000 : tensor<8xf32> -> tensor<4xf32>
  return
}

// -----

// 1e39 is finite as an f64 attribute and infinite in f32.
func.func @histogram_bound_overflows_f32(%x: tensor<8xf32>) {
  // expected-error @+2 {{must be finite in 'f32'}}
  // expected-error @+1 {{'rlx.histogram' op failed to infer returned types}}
  %0 = rlx.histogram %x bins = 4 min = 0.0 max = 1.0e+39 : tensor<8xf32> -> tensor<4xf32>
  return
}

// -----

func.func @histogram_span_overflows(%x: tensor<8xf32>) {
  // expected-error @+2 {{(max - min) * bins overflows 'f32' for min = -3.000000e+38, max = 3.000000e+38, bins = 2}}
  // expected-error @+1 {{'rlx.histogram' op failed to infer returned types}}
  %0 = rlx.histogram %x bins = 2 min = -3.0e+38 max = 3.0e+38 : tensor<8xf32> -> tensor<2xf32>
  return
}

// -----

func.func @histogram_wrong_bins(%x: tensor<?x8xf32>) {
  // expected-error @+2 {{'rlx.histogram' op failed to infer returned types}}
  // expected-error @+1 {{'rlx.histogram' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<5xf32>'}}
  %0 = rlx.histogram %x bins = 4 min = 0.0 max = 1.0 : tensor<?x8xf32> -> tensor<5xf32>
  return
}

// -----

func.func @histogram_result_type(%x: tensor<8xf32>) {
  // expected-error @+2 {{'rlx.histogram' op failed to infer returned types}}
  // expected-error @+1 {{'rlx.histogram' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<4xf64>'}}
  %0 = rlx.histogram %x bins = 4 min = 0.0 max = 1.0 : tensor<8xf32> -> tensor<4xf64>
  return
}
