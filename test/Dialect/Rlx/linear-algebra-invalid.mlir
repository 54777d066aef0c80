// RUN: rlx-opt %s -split-input-file -verify-diagnostics

func.func @cholesky_rank(%a: tensor<4xf32>) {
  // expected-error @+2 {{input must be a batch of matrices (rank >= 2), got 'tensor<4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %l = rlx.cholesky %a : tensor<4xf32> -> tensor<4xf32>
  return
}

// -----

func.func @cholesky_square(%a: tensor<2x4x3xf32>) {
  // expected-error @+2 {{input must hold square matrices, got [2, 4, 3]}}
  // expected-error @+1 {{failed to infer returned types}}
  %l = rlx.cholesky %a : tensor<2x4x3xf32> -> tensor<2x4x3xf32>
  return
}

// -----

func.func @cholesky_element(%a: tensor<4x4xf16>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of 32-bit float or 64-bit float values, but got 'tensor<4x4xf16>'}}
  %l = rlx.cholesky %a : tensor<4x4xf16> -> tensor<4x4xf16>
  return
}

// -----

func.func @cholesky_result(%a: tensor<4x4xf32>) {
  // expected-error @+1 {{requires the same element type for all operands and results}}
  %l = rlx.cholesky %a : tensor<4x4xf32> -> tensor<4x4xf64>
  return
}

// -----

func.func @solve_rank(%a: tensor<2x4x4xf32>, %b: tensor<4x1xf32>) {
  // expected-error @+2 {{b must have a's rank 3 (right-hand sides as the columns of [..., n, k]; batch dimensions do not broadcast), got 'tensor<4x1xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %x = rlx.solve %a, %b : tensor<2x4x4xf32>, tensor<4x1xf32> -> tensor<4x1xf32>
  return
}

// -----

func.func @solve_batch(%a: tensor<2x4x4xf32>, %b: tensor<3x4x1xf32>) {
  // expected-error @+2 {{a and b must have the same batch dimensions, got [2, 4, 4] and [3, 4, 1]}}
  // expected-error @+1 {{failed to infer returned types}}
  %x = rlx.solve %a, %b : tensor<2x4x4xf32>, tensor<3x4x1xf32> -> tensor<3x4x1xf32>
  return
}

// -----

func.func @solve_rows(%a: tensor<4x4xf64>, %b: tensor<5x2xf64>) {
  // expected-error @+2 {{b must have as many rows as a, got [4, 4] and [5, 2]}}
  // expected-error @+1 {{failed to infer returned types}}
  %x = rlx.solve %a, %b : tensor<4x4xf64>, tensor<5x2xf64> -> tensor<5x2xf64>
  return
}

// -----

func.func @solve_element_types(%a: tensor<4x4xf64>, %b: tensor<4x2xf32>) {
  // expected-error @+1 {{requires the same element type for all operands and results}}
  %x = rlx.solve %a, %b : tensor<4x4xf64>, tensor<4x2xf32> -> tensor<4x2xf32>
  return
}

// -----

func.func @triangular_solve_square(%a: tensor<4x3xf32>, %b: tensor<4x2xf32>) {
  // expected-error @+2 {{a must hold square matrices, got [4, 3]}}
  // expected-error @+1 {{failed to infer returned types}}
  %x = rlx.triangular_solve lower %a, %b : tensor<4x3xf32>, tensor<4x2xf32> -> tensor<4x2xf32>
  return
}

// -----

func.func @triangular_solve_part(%a: tensor<4x4xf32>, %b: tensor<4x2xf32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'part' [lower, upper]}}
  %x = rlx.triangular_solve diagonal %a, %b : tensor<4x4xf32>, tensor<4x2xf32> -> tensor<4x2xf32>
  return
}

// -----

func.func @triangular_solve_result(%a: tensor<4x4xf32>, %b: tensor<4x2xf32>) {
  // expected-error @+2 {{inferred type(s) 'tensor<4x2xf32>' are incompatible with return type(s) of operation 'tensor<4x3xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %x = rlx.triangular_solve upper %a, %b : tensor<4x4xf32>, tensor<4x2xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @det_result(%a: tensor<2x3x3xf32>) {
  // expected-error @+2 {{inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<2x3xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %d = rlx.det %a : tensor<2x3x3xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @logdet_square(%a: tensor<3x2xf32>) {
  // expected-error @+2 {{input must hold square matrices, got [3, 2]}}
  // expected-error @+1 {{failed to infer returned types}}
  %s, %l = rlx.logdet %a : tensor<3x2xf32> -> tensor<f32>, tensor<f32>
  return
}

// -----

func.func @eigh_square(%a: tensor<3x4xf32>) {
  // expected-error @+2 {{input must hold square matrices, got [3, 4]}}
  // expected-error @+1 {{failed to infer returned types}}
  %l, %v = rlx.eigh %a : tensor<3x4xf32> -> tensor<3xf32>, tensor<3x4xf32>
  return
}

// -----

func.func @eigh_values(%a: tensor<4x4xf32>) {
  // expected-error @+2 {{inferred type(s) 'tensor<4xf32>', 'tensor<4x4xf32>' are incompatible with return type(s) of operation 'tensor<4x1xf32>', 'tensor<4x4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %l, %v = rlx.eigh %a : tensor<4x4xf32> -> tensor<4x1xf32>, tensor<4x4xf32>
  return
}

// -----

func.func @qr_dynamic(%a: tensor<?x4xf32>) {
  // expected-error @+2 {{the reduced factors have min(m, n) columns: the matrix sizes must be static or equal, got [?, 4]}}
  // expected-error @+1 {{failed to infer returned types}}
  %q, %r = rlx.qr %a : tensor<?x4xf32> -> tensor<?x4xf32>, tensor<4x4xf32>
  return
}

// -----

func.func @qr_rank(%a: tensor<4xf32>) {
  // expected-error @+2 {{input must be a batch of matrices (rank >= 2), got 'tensor<4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %q, %r = rlx.qr %a : tensor<4xf32> -> tensor<4xf32>, tensor<4xf32>
  return
}

// -----

func.func @svd_shapes(%a: tensor<5x3xf64>) {
  // expected-error @+2 {{inferred type(s) 'tensor<5x3xf64>', 'tensor<3xf64>', 'tensor<3x3xf64>' are incompatible with return type(s) of operation 'tensor<5x5xf64>', 'tensor<3xf64>', 'tensor<3x3xf64>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %u, %s, %vh = rlx.svd %a : tensor<5x3xf64> -> tensor<5x5xf64>, tensor<3xf64>, tensor<3x3xf64>
  return
}

// -----

func.func @svd_dynamic(%a: tensor<3x?xf64>) {
  // expected-error @+2 {{the reduced factors have min(m, n) columns: the matrix sizes must be static or equal, got [3, ?]}}
  // expected-error @+1 {{failed to infer returned types}}
  %u, %s, %vh = rlx.svd %a : tensor<3x?xf64> -> tensor<3x3xf64>, tensor<3xf64>, tensor<3x?xf64>
  return
}

// -----

func.func @expm_square(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{input must hold square matrices, got [2, 3]}}
  %e = rlx.expm %a : tensor<2x3xf32>
  return
}

// -----

func.func @logm_element(%a: tensor<3x3xbf16>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of 32-bit float or 64-bit float values, but got 'tensor<3x3xbf16>'}}
  %e = rlx.logm %a : tensor<3x3xbf16>
  return
}
