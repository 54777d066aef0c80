// RUN: rlx-opt %s --rlx-autodiff -split-input-file -verify-diagnostics | FileCheck %s

// cholesky: phi(l^T g) (lower triangle, diagonal halved), two solves with
// l transposed, then the symmetric part.
// CHECK-LABEL: func.func @cholesky_grad(
// CHECK:         %[[L:.*]] = rlx.cholesky %{{.*}} : tensor<4x4xf64> -> tensor<4x4xf64>
// CHECK:         %[[LT:.*]] = rlx.transpose %[[L]] [1, 0]
// CHECK:         %[[P:.*]] = rlx.matmul %[[LT]], %{{.*}}
// CHECK:         %[[LOW:.*]] = rlx.trilu lower %[[P]]
// CHECK:         %[[PHI:.*]] = rlx.sub %[[LOW]], %{{.*}}
// CHECK:         %[[S1:.*]] = rlx.triangular_solve lower %[[L]], %[[PHI]] transpose
// CHECK:         %[[S1T:.*]] = rlx.transpose %[[S1]] [1, 0]
// CHECK:         %[[S2:.*]] = rlx.triangular_solve lower %[[L]], %[[S1T]] transpose
// CHECK:         %[[S:.*]] = rlx.transpose %[[S2]] [1, 0]
// CHECK:         %[[ST:.*]] = rlx.transpose %[[S]] [1, 0]
// CHECK:         %[[SUM:.*]] = rlx.add %[[S]], %[[ST]]
// CHECK:         %[[GA:.*]] = rlx.mul %[[SUM]], %{{.*}}
// CHECK:         return %{{.*}}, %[[GA]]
func.func @cholesky(%a: tensor<4x4xf64>) -> tensor<f64> attributes {rlx.differentiate = array<i64: 0>} {
  %l = rlx.cholesky %a : tensor<4x4xf64> -> tensor<4x4xf64>
  %s = rlx.reduce sum %l axes = [0, 1] : tensor<4x4xf64> -> tensor<f64>
  return %s : tensor<f64>
}

// -----

// triangular_solve: gb by the same solve with transpose flipped; ga = -gb
// x^T on the strict lower triangle (unit diagonal).
// CHECK-LABEL: func.func @triangular_solve_grad(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x3x3xf32>, %[[B:[a-z0-9]+]]: tensor<2x3x2xf32>
// CHECK:         %[[X:.*]] = rlx.triangular_solve lower %[[A]], %[[B]] unit_diagonal
// CHECK:         %[[GB:.*]] = rlx.triangular_solve lower %[[A]], %{{.*}} transpose unit_diagonal
// CHECK:         %[[XT:.*]] = rlx.transpose %[[X]] [0, 2, 1]
// CHECK:         %[[OUTER:.*]] = rlx.matmul %[[GB]], %[[XT]]
// CHECK:         %[[NEG:.*]] = rlx.neg %[[OUTER]]
// CHECK:         %[[GA:.*]] = rlx.trilu lower %[[NEG]] diagonal = -1
// CHECK:         return %{{.*}}, %[[GA]], %[[GB]]
func.func @triangular_solve(%a: tensor<2x3x3xf32>, %b: tensor<2x3x2xf32>) -> tensor<f32> attributes {rlx.differentiate = array<i64: 0, 1>} {
  %x = rlx.triangular_solve lower %a, %b unit_diagonal : tensor<2x3x3xf32>, tensor<2x3x2xf32> -> tensor<2x3x2xf32>
  %s = rlx.reduce sum %x axes = [0, 1, 2] : tensor<2x3x2xf32> -> tensor<f32>
  return %s : tensor<f32>
}

// -----

// An upper a read transposed: ga = -x gb^T on the upper triangle.
// CHECK-LABEL: func.func @triangular_solve_upper_grad(
// CHECK:         %[[X:.*]] = rlx.triangular_solve upper %{{.*}}, %{{.*}} transpose
// CHECK:         %[[GB:.*]] = rlx.triangular_solve upper %{{.*}}, %{{.*}} :
// CHECK:         %[[GBT:.*]] = rlx.transpose %[[GB]] [1, 0]
// CHECK:         rlx.matmul %[[X]], %[[GBT]]
// CHECK:         rlx.trilu upper
func.func @triangular_solve_upper(%a: tensor<3x3xf64>, %b: tensor<3x1xf64>) -> tensor<f64> attributes {rlx.differentiate = array<i64: 0>} {
  %x = rlx.triangular_solve upper %a, %b transpose : tensor<3x3xf64>, tensor<3x1xf64> -> tensor<3x1xf64>
  %s = rlx.reduce sum %x axes = [0, 1] : tensor<3x1xf64> -> tensor<f64>
  return %s : tensor<f64>
}

// -----

// solve: gb = solve(a^T, g), ga = -gb x^T; `?` sizes.
// CHECK-LABEL: func.func @solve_grad(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<?x?xf64>
// CHECK:         %[[X:.*]] = rlx.solve %[[A]], %{{.*}}
// CHECK:         %[[AT:.*]] = rlx.transpose %[[A]] [1, 0]
// CHECK:         %[[GB:.*]] = rlx.solve %[[AT]], %{{.*}}
// CHECK:         %[[XT:.*]] = rlx.transpose %[[X]] [1, 0]
// CHECK:         %[[OUTER:.*]] = rlx.matmul %[[GB]], %[[XT]]
// CHECK:         %[[GA:.*]] = rlx.neg %[[OUTER]]
// CHECK:         return %{{.*}}, %[[GA]], %[[GB]]
func.func @solve(%a: tensor<?x?xf64>, %b: tensor<?x2xf64>) -> tensor<f64> attributes {rlx.differentiate = array<i64: 0, 1>} {
  %x = rlx.solve %a, %b : tensor<?x?xf64>, tensor<?x2xf64> -> tensor<?x2xf64>
  %s = rlx.reduce sum %x axes = [0, 1] : tensor<?x2xf64> -> tensor<f64>
  return %s : tensor<f64>
}

// -----

// logdet: g a^-T through a solve of a^T against the identity (the
// diagonal of ones, so `?` sizes work); the sign gets no gradient.
// CHECK-LABEL: func.func @logdet_grad(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<?x?xf64>
// CHECK:         %[[AT:.*]] = rlx.transpose %[[A]] [1, 0]
// CHECK:         %[[ONES:.*]] = rlx.expand %{{.*}} like %[[A]]
// CHECK:         %[[LOW:.*]] = rlx.trilu lower %[[ONES]]
// CHECK:         %[[EYE:.*]] = rlx.trilu upper %[[LOW]]
// CHECK:         %[[INV:.*]] = rlx.solve %[[AT]], %[[EYE]]
// CHECK:         %[[GA:.*]] = rlx.mul %{{.*}}, %[[INV]] : (tensor<1x1xf64>, tensor<?x?xf64>)
// CHECK:         return %{{.*}}, %[[GA]]
func.func @logdet(%a: tensor<?x?xf64>) -> tensor<f64> attributes {rlx.differentiate = array<i64: 0>} {
  %s, %l = rlx.logdet %a : tensor<?x?xf64> -> tensor<f64>, tensor<f64>
  return %l : tensor<f64>
}

// -----

// det of a batch: the per-matrix scale g det reshaped to [..., 1, 1].
// CHECK-LABEL: func.func @det_grad(
// CHECK:         %[[D:.*]] = rlx.det
// CHECK:         %[[SCALE:.*]] = rlx.mul %{{.*}}, %[[D]] : (tensor<5xf32>, tensor<5xf32>)
// CHECK:         %[[R:.*]] = rlx.reshape %[[SCALE]] : tensor<5xf32> -> tensor<5x1x1xf32>
// CHECK:         %[[INV:.*]] = rlx.solve
// CHECK:         rlx.mul %[[R]], %[[INV]]
func.func @det(%a: tensor<5x3x3xf32>) -> tensor<f32> attributes {rlx.differentiate = array<i64: 0>} {
  %d = rlx.det %a : tensor<5x3x3xf32> -> tensor<5xf32>
  %s = rlx.reduce sum %d axes = [0] : tensor<5xf32> -> tensor<f32>
  return %s : tensor<f32>
}

// -----

// eigh: both results' gradients; half the skew part of v^T gv over the
// gaps l[j] - l[i] (1 on the diagonal, which gl replaces), 0 where that
// part is 0 (a loss of the eigenvalues alone at repeated eigenvalues).
// CHECK-LABEL: func.func @eigh_grad(
// CHECK:         %[[L:.*]], %[[V:.*]] = rlx.eigh
// CHECK:         %[[VT:.*]] = rlx.transpose %[[V]] [1, 0]
// CHECK:         %[[ROW:.*]] = rlx.reshape %[[L]] : tensor<4xf64> -> tensor<1x4xf64>
// CHECK:         %[[COL:.*]] = rlx.reshape %[[L]] : tensor<4xf64> -> tensor<4x1xf64>
// CHECK:         %[[E:.*]] = rlx.sub %[[ROW]], %[[COL]]
// CHECK:         %[[GAPS:.*]] = rlx.add %[[E]], %{{.*}}
// CHECK:         %[[VTGV:.*]] = rlx.matmul %[[VT]], %{{.*}}
// CHECK:         %[[VTGVT:.*]] = rlx.transpose %[[VTGV]] [1, 0]
// CHECK:         %[[SKEW:.*]] = rlx.sub %[[VTGV]], %[[VTGVT]]
// CHECK:         %[[HALF:.*]] = rlx.mul %[[SKEW]], %{{.*}}
// CHECK:         %[[ZERO:.*]] = rlx.eq %[[HALF]], %{{.*}}
// CHECK:         %[[Q:.*]] = rlx.div %[[HALF]], %[[GAPS]]
// CHECK:         rlx.where %[[ZERO]], %{{.*}}, %[[Q]]
func.func @eigh(%a: tensor<4x4xf64>, %w: tensor<4x4xf64>) -> tensor<f64> attributes {rlx.differentiate = array<i64: 0>} {
  %l, %v = rlx.eigh %a : tensor<4x4xf64> -> tensor<4xf64>, tensor<4x4xf64>
  %m = rlx.mul %v, %w : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x4xf64>
  %s = rlx.reduce sum %m axes = [0, 1] : tensor<4x4xf64> -> tensor<f64>
  %t = rlx.reduce sum %l axes = [0] : tensor<4xf64> -> tensor<f64>
  %u = rlx.add %s, %t : (tensor<f64>, tensor<f64>) -> tensor<f64>
  return %u : tensor<f64>
}

// -----

// A matrix function keeps its op in the gradient function (autodiff does
// not decompose a decomposable op with a rule of its own) and is
// differentiated by the Daleckii-Krein formula: the divided differences of
// exp (the series where eigenvalues are within 0.7, f32's threshold) times
// v^T g v, between v and v^T.
// CHECK-LABEL: func.func @expm_grad(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<?x4x4xf32>
// CHECK:         rlx.expm %[[A]] : tensor<?x4x4xf32>
// CHECK:         %[[L:.*]], %[[V:.*]] = rlx.eigh %[[A]]
// CHECK:         %[[THRESHOLD:.*]] = rlx.constant dense<0.699999988> : tensor<f32>
// CHECK:         %[[QUOTIENT:.*]] = rlx.div
// CHECK:         %[[CLOSE:.*]] = rlx.lt %{{.*}}, %[[THRESHOLD]]
// CHECK:         %[[D:.*]] = rlx.where %[[CLOSE]], %{{.*}}, %[[QUOTIENT]]
// CHECK:         %[[INNER:.*]] = rlx.mul %[[D]], %{{.*}}
// CHECK:         %[[LEFT:.*]] = rlx.matmul %[[V]], %[[INNER]]
// CHECK:         %[[GA:.*]] = rlx.matmul %[[LEFT]], %{{.*}}
// CHECK:         return %{{.*}}, %[[GA]]
func.func @expm(%a: tensor<?x4x4xf32>) -> tensor<f32> attributes {rlx.differentiate = array<i64: 0>} {
  %e = rlx.expm %a : tensor<?x4x4xf32>
  %s = rlx.reduce sum %e axes = [0, 1, 2] : tensor<?x4x4xf32> -> tensor<f32>
  return %s : tensor<f32>
}

// -----

// sqrtm's divided differences are 1 / (sqrt(x) + sqrt(y)): no threshold.
// CHECK-LABEL: func.func @sqrtm_grad(
// CHECK:         rlx.eigh
// CHECK:         %[[SX:.*]] = rlx.sqrt %{{.*}} : tensor<3x1xf64>
// CHECK:         %[[SY:.*]] = rlx.sqrt %{{.*}} : tensor<1x3xf64>
// CHECK:         %[[SUM:.*]] = rlx.add %[[SX]], %[[SY]]
// CHECK:         rlx.recip %[[SUM]]
// CHECK-NOT:     rlx.where
// CHECK:         return
func.func @sqrtm(%a: tensor<3x3xf64>) -> tensor<f64> attributes {rlx.differentiate = array<i64: 0>} {
  %e = rlx.sqrtm %a : tensor<3x3xf64>
  %s = rlx.reduce sum %e axes = [0, 1] : tensor<3x3xf64> -> tensor<f64>
  return %s : tensor<f64>
}

// -----

// qr of a tall matrix: m = r gr^T - gq^T q, copyltu, one solve with r.
// CHECK-LABEL: func.func @qr_grad(
// CHECK:         %[[Q:.*]], %[[R:.*]] = rlx.qr
// CHECK:         rlx.trilu lower %{{.*}} diagonal = -1
// CHECK:         rlx.triangular_solve upper %[[R]], %{{.*}} : tensor<3x3xf64>, tensor<3x5xf64> -> tensor<3x5xf64>
func.func @qr(%a: tensor<5x3xf64>) -> tensor<f64> attributes {rlx.differentiate = array<i64: 0>} {
  %q, %r = rlx.qr %a : tensor<5x3xf64> -> tensor<5x3xf64>, tensor<3x3xf64>
  %s = rlx.reduce sum %q axes = [0, 1] : tensor<5x3xf64> -> tensor<f64>
  %t = rlx.reduce sum %r axes = [0, 1] : tensor<3x3xf64> -> tensor<f64>
  %u = rlx.add %s, %t : (tensor<f64>, tensor<f64>) -> tensor<f64>
  return %u : tensor<f64>
}

// -----

// qr of a wide matrix has no rule: a located error, not a wrong gradient.
func.func @qr_wide(%a: tensor<3x5xf64>) -> tensor<f64> attributes {rlx.differentiate = array<i64: 0>} {
  // expected-error @+1 {{no gradient rule for this form of 'rlx.qr'}}
  %q, %r = rlx.qr %a : tensor<3x5xf64> -> tensor<3x3xf64>, tensor<3x5xf64>
  %t = rlx.reduce sum %r axes = [0, 1] : tensor<3x5xf64> -> tensor<f64>
  return %t : tensor<f64>
}

// -----

// svd of a tall matrix: the extra term for gu outside u's span; none for
// v (square).
// CHECK-LABEL: func.func @svd_grad(
// CHECK:         %[[U:.*]], %[[S:.*]], %[[VH:.*]] = rlx.svd
// CHECK-NOT:     rlx.div %{{.*}} : (tensor<3x3xf64>, tensor<1x3xf64>)
// CHECK:         %[[SCALED:.*]] = rlx.div %{{.*}} : (tensor<4x3xf64>, tensor<1x3xf64>)
// CHECK:         %[[PROJ:.*]] = rlx.matmul %[[U]], %{{.*}}
// CHECK:         %[[OUTSIDE:.*]] = rlx.sub %[[SCALED]], %[[PROJ]]
// CHECK:         rlx.matmul %[[OUTSIDE]], %[[VH]]
// CHECK-NOT:     rlx.div %{{.*}} : (tensor<3x3xf64>, tensor<1x3xf64>)
// CHECK:         return
func.func @svd(%a: tensor<4x3xf64>) -> tensor<f64> attributes {rlx.differentiate = array<i64: 0>} {
  %u, %s, %vh = rlx.svd %a : tensor<4x3xf64> -> tensor<4x3xf64>, tensor<3xf64>, tensor<3x3xf64>
  %x = rlx.reduce sum %u axes = [0, 1] : tensor<4x3xf64> -> tensor<f64>
  %y = rlx.reduce sum %s axes = [0] : tensor<3xf64> -> tensor<f64>
  %z = rlx.reduce sum %vh axes = [0, 1] : tensor<3x3xf64> -> tensor<f64>
  %xy = rlx.add %x, %y : (tensor<f64>, tensor<f64>) -> tensor<f64>
  %r = rlx.add %xy, %z : (tensor<f64>, tensor<f64>) -> tensor<f64>
  return %r : tensor<f64>
}
