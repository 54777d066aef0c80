// The linear-algebra ops through the GPU pipeline (gpu-linear-algebra.test):
// a batch of matrices per op, `?` sizes, and gradients through cholesky,
// the triangular solves and logdet (a Gaussian-process likelihood) and
// through a matrix function (its Daleckii-Krein rule).
func.func @factorizations(%a: tensor<?x8x8xf32>, %b: tensor<?x8x2xf32>) -> (tensor<?x8x8xf32>, tensor<?x8x2xf32>, tensor<?x8x2xf32>, tensor<?xf32>, tensor<?xf32>) {
  %l = rlx.cholesky %a : tensor<?x8x8xf32> -> tensor<?x8x8xf32>
  %x = rlx.triangular_solve lower %l, %b transpose : tensor<?x8x8xf32>, tensor<?x8x2xf32> -> tensor<?x8x2xf32>
  %y = rlx.solve %a, %b : tensor<?x8x8xf32>, tensor<?x8x2xf32> -> tensor<?x8x2xf32>
  %d = rlx.det %a : tensor<?x8x8xf32> -> tensor<?xf32>
  %s, %ld = rlx.logdet %a : tensor<?x8x8xf32> -> tensor<?xf32>, tensor<?xf32>
  return %l, %x, %y, %d, %ld : tensor<?x8x8xf32>, tensor<?x8x2xf32>, tensor<?x8x2xf32>, tensor<?xf32>, tensor<?xf32>
}

func.func @decompositions(%a: tensor<4x6x6xf32>, %b: tensor<4x7x3xf32>) -> (tensor<4x6xf32>, tensor<4x6x6xf32>, tensor<4x7x3xf32>, tensor<4x3x3xf32>, tensor<4x7x3xf32>, tensor<4x3xf32>, tensor<4x3x3xf32>, tensor<4x6x6xf32>) {
  %l, %v = rlx.eigh %a : tensor<4x6x6xf32> -> tensor<4x6xf32>, tensor<4x6x6xf32>
  %q, %r = rlx.qr %b : tensor<4x7x3xf32> -> tensor<4x7x3xf32>, tensor<4x3x3xf32>
  %u, %s, %vh = rlx.svd %b : tensor<4x7x3xf32> -> tensor<4x7x3xf32>, tensor<4x3xf32>, tensor<4x3x3xf32>
  %e = rlx.sqrtm %a : tensor<4x6x6xf32>
  return %l, %v, %q, %r, %u, %s, %vh, %e : tensor<4x6xf32>, tensor<4x6x6xf32>, tensor<4x7x3xf32>, tensor<4x3x3xf32>, tensor<4x7x3xf32>, tensor<4x3xf32>, tensor<4x3x3xf32>, tensor<4x6x6xf32>
}

// -log p(y) of a Gaussian with covariance k, up to the constant.
func.func @likelihood(%k: tensor<16x16xf32>, %y: tensor<16x1xf32>) -> tensor<f32> attributes {rlx.differentiate = array<i64: 0>} {
  %l = rlx.cholesky %k : tensor<16x16xf32> -> tensor<16x16xf32>
  %z = rlx.triangular_solve lower %l, %y : tensor<16x16xf32>, tensor<16x1xf32> -> tensor<16x1xf32>
  %zz = rlx.mul %z, %z : (tensor<16x1xf32>, tensor<16x1xf32>) -> tensor<16x1xf32>
  %quad = rlx.reduce sum %zz axes = [0, 1] : tensor<16x1xf32> -> tensor<f32>
  %sign, %logdet = rlx.logdet %k : tensor<16x16xf32> -> tensor<f32>, tensor<f32>
  %half = rlx.constant dense<5.000000e-01> : tensor<f32>
  %sum = rlx.add %quad, %logdet : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %nll = rlx.mul %sum, %half : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %nll : tensor<f32>
}

func.func @log_euclidean(%a: tensor<?x5x5xf32>) -> tensor<f32> attributes {rlx.differentiate = array<i64: 0>} {
  %l = rlx.logm %a : tensor<?x5x5xf32>
  %sq = rlx.mul %l, %l : (tensor<?x5x5xf32>, tensor<?x5x5xf32>) -> tensor<?x5x5xf32>
  %s = rlx.reduce sum %sq axes = [0, 1, 2] : tensor<?x5x5xf32> -> tensor<f32>
  return %s : tensor<f32>
}
