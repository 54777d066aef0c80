// Exact Gaussian-process regression with a squared-exponential (RBF) kernel,
// in float64, on 64 points of 2 inputs. The hyperparameters are logs, so any
// real value is valid: the lengthscale ell = exp(log_ell), the signal
// variance sf2 = exp(log_sf2), the noise variance sn2 = exp(log_sn2).
//
//   K     = sf2 exp(-|x_i - x_j|^2 / (2 ell^2)) + sn2 I
//   L     = cholesky(K)                          (rlx.cholesky)
//   alpha = L^-T (L^-1 y) = K^-1 y               (two rlx.triangular_solve)
//   NLML  = 1/2 y^T alpha + sum_i log L_ii + n/2 log(2 pi)
//
// `@nlml` is the negative log marginal likelihood -log p(y | X); marked
// rlx.differentiate, --rlx-autodiff (run by rlx-compile's pipeline) defines
// `@nlml_grad`, the NLML and its gradient with respect to the three
// log-hyperparameters, through the Cholesky factorization's and the
// triangular solves' gradient rules. `@predict` is the posterior at `?` test
// points: the mean K_*^T alpha and the latent function's variance
// sf2 - |L^-1 K_*|^2 per point. examples/gaussian_process.py fits the
// hyperparameters with Adam on @nlml_grad and checks every step and the
// posterior against PyTorch (torch.linalg.cholesky, solve_triangular,
// autograd) in float64.

func.func @nlml(%log_ell: tensor<f64>, %log_sf2: tensor<f64>, %log_sn2: tensor<f64>,
                %x: tensor<64x2xf64>, %y: tensor<64x1xf64>) -> tensor<f64>
    attributes {rlx.differentiate = array<i64: 0, 1, 2>} {
  // The inputs in lengthscales: x / ell = x exp(-log_ell).
  %neg_log_ell = rlx.neg %log_ell : tensor<f64>
  %inv_ell = rlx.exp %neg_log_ell : tensor<f64>
  %xs = rlx.mul %x, %inv_ell : (tensor<64x2xf64>, tensor<f64>) -> tensor<64x2xf64>
  // Squared distances from the differences of every pair (exactly 0 on the
  // diagonal, never negative), then the kernel.
  %xi = rlx.reshape %xs : tensor<64x2xf64> -> tensor<64x1x2xf64>
  %xj = rlx.reshape %xs : tensor<64x2xf64> -> tensor<1x64x2xf64>
  %diff = rlx.sub %xi, %xj : (tensor<64x1x2xf64>, tensor<1x64x2xf64>) -> tensor<64x64x2xf64>
  %diff2 = rlx.mul %diff, %diff : (tensor<64x64x2xf64>, tensor<64x64x2xf64>) -> tensor<64x64x2xf64>
  %d2 = rlx.reduce sum %diff2 axes = [2] : tensor<64x64x2xf64> -> tensor<64x64xf64>
  %minus_half = rlx.constant dense<-0.5> : tensor<f64>
  %e = rlx.mul %d2, %minus_half : (tensor<64x64xf64>, tensor<f64>) -> tensor<64x64xf64>
  %corr = rlx.exp %e : tensor<64x64xf64>
  %sf2 = rlx.exp %log_sf2 : tensor<f64>
  %kf = rlx.mul %corr, %sf2 : (tensor<64x64xf64>, tensor<f64>) -> tensor<64x64xf64>
  // The noise on the diagonal: the identity is the lower triangle of the
  // upper triangle of ones.
  %ones = rlx.constant dense<1.0> : tensor<64x64xf64>
  %upper = rlx.trilu upper %ones : tensor<64x64xf64>
  %eye = rlx.trilu lower %upper : tensor<64x64xf64>
  %sn2 = rlx.exp %log_sn2 : tensor<f64>
  %noise = rlx.mul %eye, %sn2 : (tensor<64x64xf64>, tensor<f64>) -> tensor<64x64xf64>
  %k = rlx.add %kf, %noise : (tensor<64x64xf64>, tensor<64x64xf64>) -> tensor<64x64xf64>
  // alpha = K^-1 y: L z = y, then L^T alpha = z.
  %l = rlx.cholesky %k : tensor<64x64xf64> -> tensor<64x64xf64>
  %z = rlx.triangular_solve lower %l, %y
      : tensor<64x64xf64>, tensor<64x1xf64> -> tensor<64x1xf64>
  %alpha = rlx.triangular_solve lower %l, %z transpose
      : tensor<64x64xf64>, tensor<64x1xf64> -> tensor<64x1xf64>
  // The data fit 1/2 y^T alpha.
  %ya = rlx.mul %y, %alpha : (tensor<64x1xf64>, tensor<64x1xf64>) -> tensor<64x1xf64>
  %quad = rlx.reduce sum %ya axes = [0, 1] : tensor<64x1xf64> -> tensor<f64>
  %half = rlx.constant dense<0.5> : tensor<f64>
  %fit = rlx.mul %quad, %half : (tensor<f64>, tensor<f64>) -> tensor<f64>
  // The complexity 1/2 log det K = sum_i log L_ii (L's diagonal is its
  // product with the identity summed over rows).
  %l_eye = rlx.mul %l, %eye : (tensor<64x64xf64>, tensor<64x64xf64>) -> tensor<64x64xf64>
  %diag = rlx.reduce sum %l_eye axes = [1] : tensor<64x64xf64> -> tensor<64xf64>
  %log_diag = rlx.log %diag : tensor<64xf64>
  %half_logdet = rlx.reduce sum %log_diag axes = [0] : tensor<64xf64> -> tensor<f64>
  // n/2 log(2 pi) for n = 64.
  %norm = rlx.constant dense<58.81206612509905> : tensor<f64>
  %sum = rlx.add %fit, %half_logdet : (tensor<f64>, tensor<f64>) -> tensor<f64>
  %nlml = rlx.add %sum, %norm : (tensor<f64>, tensor<f64>) -> tensor<f64>
  return %nlml : tensor<f64>
}

// The posterior at the test points %xt (any number of them): its mean
// K_*^T alpha [?, 1] and the latent function's variance
// sf2 - sum_i (L^-1 K_*)_i^2 [?], K_* = k(x, xt) [64, ?].
func.func @predict(%log_ell: tensor<f64>, %log_sf2: tensor<f64>, %log_sn2: tensor<f64>,
                   %x: tensor<64x2xf64>, %y: tensor<64x1xf64>, %xt: tensor<?x2xf64>)
    -> (tensor<?x1xf64>, tensor<?xf64>) {
  %neg_log_ell = rlx.neg %log_ell : tensor<f64>
  %inv_ell = rlx.exp %neg_log_ell : tensor<f64>
  %xs = rlx.mul %x, %inv_ell : (tensor<64x2xf64>, tensor<f64>) -> tensor<64x2xf64>
  %xts = rlx.mul %xt, %inv_ell : (tensor<?x2xf64>, tensor<f64>) -> tensor<?x2xf64>
  %minus_half = rlx.constant dense<-0.5> : tensor<f64>
  %sf2 = rlx.exp %log_sf2 : tensor<f64>
  // K, L and alpha as in @nlml.
  %xi = rlx.reshape %xs : tensor<64x2xf64> -> tensor<64x1x2xf64>
  %xj = rlx.reshape %xs : tensor<64x2xf64> -> tensor<1x64x2xf64>
  %diff = rlx.sub %xi, %xj : (tensor<64x1x2xf64>, tensor<1x64x2xf64>) -> tensor<64x64x2xf64>
  %diff2 = rlx.mul %diff, %diff : (tensor<64x64x2xf64>, tensor<64x64x2xf64>) -> tensor<64x64x2xf64>
  %d2 = rlx.reduce sum %diff2 axes = [2] : tensor<64x64x2xf64> -> tensor<64x64xf64>
  %e = rlx.mul %d2, %minus_half : (tensor<64x64xf64>, tensor<f64>) -> tensor<64x64xf64>
  %corr = rlx.exp %e : tensor<64x64xf64>
  %kf = rlx.mul %corr, %sf2 : (tensor<64x64xf64>, tensor<f64>) -> tensor<64x64xf64>
  %ones = rlx.constant dense<1.0> : tensor<64x64xf64>
  %upper = rlx.trilu upper %ones : tensor<64x64xf64>
  %eye = rlx.trilu lower %upper : tensor<64x64xf64>
  %sn2 = rlx.exp %log_sn2 : tensor<f64>
  %noise = rlx.mul %eye, %sn2 : (tensor<64x64xf64>, tensor<f64>) -> tensor<64x64xf64>
  %k = rlx.add %kf, %noise : (tensor<64x64xf64>, tensor<64x64xf64>) -> tensor<64x64xf64>
  %l = rlx.cholesky %k : tensor<64x64xf64> -> tensor<64x64xf64>
  %z = rlx.triangular_solve lower %l, %y
      : tensor<64x64xf64>, tensor<64x1xf64> -> tensor<64x1xf64>
  %alpha = rlx.triangular_solve lower %l, %z transpose
      : tensor<64x64xf64>, tensor<64x1xf64> -> tensor<64x1xf64>
  // The cross-covariances K_* between the training and the test points.
  %ti = rlx.reshape %xts : tensor<?x2xf64> -> tensor<1x?x2xf64>
  %cdiff = rlx.sub %xi, %ti : (tensor<64x1x2xf64>, tensor<1x?x2xf64>) -> tensor<64x?x2xf64>
  %cdiff2 = rlx.mul %cdiff, %cdiff : (tensor<64x?x2xf64>, tensor<64x?x2xf64>) -> tensor<64x?x2xf64>
  %cd2 = rlx.reduce sum %cdiff2 axes = [2] : tensor<64x?x2xf64> -> tensor<64x?xf64>
  %ce = rlx.mul %cd2, %minus_half : (tensor<64x?xf64>, tensor<f64>) -> tensor<64x?xf64>
  %ccorr = rlx.exp %ce : tensor<64x?xf64>
  %ks = rlx.mul %ccorr, %sf2 : (tensor<64x?xf64>, tensor<f64>) -> tensor<64x?xf64>
  // The mean K_*^T alpha.
  %kst = rlx.transpose %ks [1, 0] : tensor<64x?xf64> -> tensor<?x64xf64>
  %mean = rlx.matmul %kst, %alpha : (tensor<?x64xf64>, tensor<64x1xf64>) -> tensor<?x1xf64>
  // The variance sf2 - |v|^2 per test point, v = L^-1 K_* (one
  // right-hand side per test point).
  %v = rlx.triangular_solve lower %l, %ks
      : tensor<64x64xf64>, tensor<64x?xf64> -> tensor<64x?xf64>
  %v2 = rlx.mul %v, %v : (tensor<64x?xf64>, tensor<64x?xf64>) -> tensor<64x?xf64>
  %explained = rlx.reduce sum %v2 axes = [0] : tensor<64x?xf64> -> tensor<?xf64>
  %var = rlx.sub %sf2, %explained : (tensor<f64>, tensor<?xf64>) -> tensor<?xf64>
  return %mean, %var : tensor<?x1xf64>, tensor<?xf64>
}
