// RUN: rlx-opt %s -split-input-file -verify-diagnostics

// Every shape rule of the scatters and gather_nd.

func.func @elements_rank(%d: tensor<4x6xf32>, %i: tensor<3xi64>, %u: tensor<3xf32>) -> tensor<4x6xf32> {
  // expected-error @+2 {{data, indices and updates must have one rank, got 2, 1 and 1}}
  // expected-error @+1 {{'rlx.scatter_elements' op failed to infer returned types}}
  %0 = rlx.scatter_elements add %d, %i, %u axis = 0 : (tensor<4x6xf32>, tensor<3xi64>, tensor<3xf32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

func.func @elements_axis(%d: tensor<4x6xf32>, %i: tensor<3x6xi64>, %u: tensor<3x6xf32>) -> tensor<4x6xf32> {
  // expected-error @+2 {{axis 2 is out of range}}
  // expected-error @+1 {{'rlx.scatter_elements' op failed to infer returned types}}
  %0 = rlx.scatter_elements add %d, %i, %u axis = 2 : (tensor<4x6xf32>, tensor<3x6xi64>, tensor<3x6xf32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

func.func @elements_updates_shape(%d: tensor<4x6xf32>, %i: tensor<3x6xi64>, %u: tensor<3x5xf32>) -> tensor<4x6xf32> {
  // expected-error @+2 {{updates shape [3, 5] differs from indices shape [3, 6]}}
  // expected-error @+1 {{'rlx.scatter_elements' op failed to infer returned types}}
  %0 = rlx.scatter_elements none %d, %i, %u axis = 0 : (tensor<4x6xf32>, tensor<3x6xi64>, tensor<3x5xf32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

func.func @elements_indices_too_large(%d: tensor<4x6xf32>, %i: tensor<3x7xi64>, %u: tensor<3x7xf32>) -> tensor<4x6xf32> {
  // expected-error @+2 {{indices shape [3, 7] is larger than the data shape [4, 6] in dimension 1, which is not the scatter axis}}
  // expected-error @+1 {{'rlx.scatter_add' op failed to infer returned types}}
  %0 = rlx.scatter_add %d, %i, %u axis = 0 : (tensor<4x6xf32>, tensor<3x7xi64>, tensor<3x7xf32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

func.func @elements_element_types(%d: tensor<4x6xf32>, %i: tensor<3x6xi64>, %u: tensor<3x6xf16>) -> tensor<4x6xf32> {
  // expected-error @+1 {{all of {data, updates, result} have same element type}}
  %0 = rlx.scatter_elements add %d, %i, %u axis = 0 : (tensor<4x6xf32>, tensor<3x6xi64>, tensor<3x6xf16>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

func.func @elements_float_indices(%d: tensor<4x6xf32>, %i: tensor<3x6xf32>, %u: tensor<3x6xf32>) -> tensor<4x6xf32> {
  // expected-error @+1 {{operand #1 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values}}
  %0 = rlx.scatter_elements add %d, %i, %u axis = 0 : (tensor<4x6xf32>, tensor<3x6xf32>, tensor<3x6xf32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

func.func @elements_bad_reduction(%d: tensor<4x6xf32>, %i: tensor<3x6xi64>, %u: tensor<3x6xf32>) -> tensor<4x6xf32> {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'reduction' [none, add, mul, max, min]}}
  %0 = rlx.scatter_elements mean %d, %i, %u axis = 0 : (tensor<4x6xf32>, tensor<3x6xi64>, tensor<3x6xf32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

func.func @elements_result_type(%d: tensor<4x6xf32>, %i: tensor<3x6xi64>, %u: tensor<3x6xf32>) -> tensor<4x7xf32> {
  // expected-error @+2 {{inferred type(s) 'tensor<4x6xf32>' are incompatible with return type(s) of operation 'tensor<4x7xf32>'}}
  // expected-error @+1 {{'rlx.scatter_elements' op failed to infer returned types}}
  %0 = rlx.scatter_elements add %d, %i, %u axis = 0 : (tensor<4x6xf32>, tensor<3x6xi64>, tensor<3x6xf32>) -> tensor<4x7xf32>
  return %0 : tensor<4x7xf32>
}

// -----

func.func @nd_depth_dynamic(%d: tensor<4x5xf32>, %i: tensor<3x?xi64>, %u: tensor<3xf32>) -> tensor<4x5xf32> {
  // expected-error @+2 {{the last dimension of indices (the number of coordinates) must be static}}
  // expected-error @+1 {{'rlx.scatter_nd' op failed to infer returned types}}
  %0 = rlx.scatter_nd add %d, %i, %u : (tensor<4x5xf32>, tensor<3x?xi64>, tensor<3xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @nd_depth_too_deep(%d: tensor<4x5xf32>, %i: tensor<3x3xi64>, %u: tensor<3xf32>) -> tensor<4x5xf32> {
  // expected-error @+2 {{indices address 3 dimensions after 0 batch dimensions of rank-2 data: need 0 < k <= 2}}
  // expected-error @+1 {{'rlx.scatter_nd' op failed to infer returned types}}
  %0 = rlx.scatter_nd add %d, %i, %u : (tensor<4x5xf32>, tensor<3x3xi64>, tensor<3xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @nd_depth_zero(%d: tensor<4x5xf32>) -> tensor<3x4x5xf32> {
  %i = arith.constant dense<0> : tensor<3x0xi64>
  // expected-error @+2 {{indices address 0 dimensions after 0 batch dimensions of rank-2 data: need 0 < k <= 2}}
  // expected-error @+1 {{'rlx.gather_nd' op failed to infer returned types}}
  %0 = rlx.gather_nd %d, %i : (tensor<4x5xf32>, tensor<3x0xi64>) -> tensor<3x4x5xf32>
  return %0 : tensor<3x4x5xf32>
}

// -----

func.func @nd_scalar_indices(%d: tensor<4x5xf32>, %i: tensor<i64>) -> tensor<f32> {
  // expected-error @+2 {{batch_dims 0 needs indices of rank at least 1 (the batch, then the coordinates), got rank 0}}
  // expected-error @+1 {{'rlx.gather_nd' op failed to infer returned types}}
  %0 = rlx.gather_nd %d, %i : (tensor<4x5xf32>, tensor<i64>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @nd_batch_mismatch(%d: tensor<4x5x6xf32>, %i: tensor<3x2x1xi64>) -> tensor<3x2x6xf32> {
  // expected-error @+2 {{indices batch dimension 0 (3) differs from data's (4)}}
  // expected-error @+1 {{'rlx.gather_nd' op failed to infer returned types}}
  %0 = rlx.gather_nd %d, %i batch_dims = 1 : (tensor<4x5x6xf32>, tensor<3x2x1xi64>) -> tensor<3x2x6xf32>
  return %0 : tensor<3x2x6xf32>
}

// -----

func.func @nd_negative_batch(%d: tensor<4x5x6xf32>, %i: tensor<3x2xi64>) -> tensor<3x6xf32> {
  // expected-error @+2 {{batch_dims -1 needs indices of rank at least 0}}
  // expected-error @+1 {{'rlx.gather_nd' op failed to infer returned types}}
  %0 = rlx.gather_nd %d, %i batch_dims = -1 : (tensor<4x5x6xf32>, tensor<3x2xi64>) -> tensor<3x6xf32>
  return %0 : tensor<3x6xf32>
}

// -----

func.func @nd_updates_shape(%d: tensor<4x5x6xf32>, %i: tensor<7x2xi64>, %u: tensor<7x5xf32>) -> tensor<4x5x6xf32> {
  // expected-error @+2 {{updates shape [7, 5] is not [7, 6], the indices' shape without its last dimension followed by the data's shape after the addressed dimensions}}
  // expected-error @+1 {{'rlx.scatter_nd' op failed to infer returned types}}
  %0 = rlx.scatter_nd none %d, %i, %u : (tensor<4x5x6xf32>, tensor<7x2xi64>, tensor<7x5xf32>) -> tensor<4x5x6xf32>
  return %0 : tensor<4x5x6xf32>
}

// -----

func.func @nd_gather_empty_source(%d: tensor<4x0xf32>, %i: tensor<3x2xi64>) -> tensor<3xf32> {
  // expected-error @+2 {{cannot gather 6 indices from axis 1 of size 0}}
  // expected-error @+1 {{'rlx.gather_nd' op failed to infer returned types}}
  %0 = rlx.gather_nd %d, %i : (tensor<4x0xf32>, tensor<3x2xi64>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
