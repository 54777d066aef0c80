// RUN: rlx-opt %s --rlx-to-linalg --canonicalize --split-input-file | FileCheck %s

// A batch: one iteration of an scf.forall per matrix, whose output starts
// as zeros (the factor's upper triangle); the pivot's square root where it
// is positive, NaN elsewhere.
// CHECK-LABEL: func.func @cholesky(
// CHECK-DAG:     %[[NAN:.*]] = arith.constant 0x7FF8000000000000 : f64
// CHECK:         %[[ZEROS:.*]] = linalg.fill
// CHECK:         scf.forall (%[[I:.*]]) in (%{{.*}}) shared_outs(%[[OUT:.*]] = %[[ZEROS]])
// CHECK:           %[[A:.*]] = tensor.extract_slice %{{.*}}[%[[I]], 0, 0] [1, 4, 4] [1, 1, 1] : tensor<?x4x4xf64> to tensor<4x4xf64>
// CHECK:           %[[L:.*]] = tensor.extract_slice %[[OUT]][%[[I]], 0, 0]
// CHECK:           scf.for
// CHECK:             %[[PIVOT:.*]] = arith.subf
// CHECK:             %[[POSITIVE:.*]] = arith.cmpf ogt, %[[PIVOT]]
// CHECK:             %[[ROOT:.*]] = math.sqrt %[[PIVOT]]
// CHECK:             arith.select %[[POSITIVE]], %[[ROOT]], %[[NAN]]
// CHECK:           tensor.parallel_insert_slice
func.func @cholesky(%a: tensor<?x4x4xf64>) -> tensor<?x4x4xf64> {
  %l = rlx.cholesky %a : tensor<?x4x4xf64> -> tensor<?x4x4xf64>
  return %l : tensor<?x4x4xf64>
}

// -----

// One matrix: no forall. Substitution in place in the right-hand sides
// (the loops carry b), reading a transposed.
// CHECK-LABEL: func.func @triangular_solve(
// CHECK-SAME:    %[[A:.*]]: tensor<?x?xf32>, %[[B:.*]]: tensor<?x2xf32>
// CHECK-NOT:     scf.forall
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[B]])
// CHECK:           tensor.extract %[[A]][%[[K:.*]], %[[ROW:.*]]] : tensor<?x?xf32>
// CHECK:           arith.divf
// CHECK-NOT:     scf.forall
func.func @triangular_solve(%a: tensor<?x?xf32>, %b: tensor<?x2xf32>) -> tensor<?x2xf32> {
  %x = rlx.triangular_solve upper %a, %b transpose : tensor<?x?xf32>, tensor<?x2xf32> -> tensor<?x2xf32>
  return %x : tensor<?x2xf32>
}

// -----

// solve: the LU factors and the right-hand sides are forall outputs
// initialized with the operands; the factors' result is unused, so
// canonicalization makes them a slice of the input that bufferization
// copies. The pivot is the first of largest magnitude.
// CHECK-LABEL: func.func @solve(
// CHECK-SAME:    %[[A:.*]]: tensor<2x3x3xf64>, %[[B:.*]]: tensor<2x3x1xf64>
// CHECK:         %[[R:.*]] = scf.forall (%[[I:.*]]) in (2) shared_outs(%{{.*}} = %[[B]])
// CHECK:           tensor.extract_slice %[[A]][%[[I]], 0, 0] [1, 3, 3]
// CHECK:           math.absf
// CHECK:           arith.cmpf ogt
// CHECK:           arith.cmpf une
// CHECK:         return %[[R]]
func.func @solve(%a: tensor<2x3x3xf64>, %b: tensor<2x3x1xf64>) -> tensor<2x3x1xf64> {
  %x = rlx.solve %a, %b : tensor<2x3x3xf64>, tensor<2x3x1xf64> -> tensor<2x3x1xf64>
  return %x : tensor<2x3x1xf64>
}

// -----

// One number per matrix: 0-D slices of the results, initialized with the
// values of a 0 x 0 matrix (sign 1, logabsdet 0).
// CHECK-LABEL: func.func @logdet(
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[SIGN:.*]] = linalg.fill ins(%[[ONE]] : f32)
// CHECK:         %[[LOG:.*]] = linalg.fill ins(%[[ZERO]] : f32)
// CHECK:         %[[R:.*]]:2 = scf.forall (%{{.*}}) in (4) shared_outs(%{{.*}} = %[[SIGN]], %{{.*}} = %[[LOG]]) -> (tensor<4xf32>, tensor<4xf32>)
// CHECK:           math.log
// CHECK:           tensor.insert %{{.*}} into %{{.*}}[] : tensor<f32>
// CHECK:         return %[[R]]#0, %[[R]]#1
func.func @logdet(%a: tensor<4x5x5xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %s, %l = rlx.logdet %a : tensor<4x5x5xf32> -> tensor<4xf32>, tensor<4xf32>
  return %s, %l : tensor<4xf32>, tensor<4xf32>
}

// -----

// 0 x 0 matrices: no loop (their slices would start past the end); the
// determinants are the initial 1s.
// CHECK-LABEL: func.func @det_empty(
// CHECK:         %[[ONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK-NOT:     scf.forall
// CHECK:         %[[DET:.*]] = linalg.fill ins(%[[ONE]] : f64)
// CHECK-NOT:     scf.forall
// CHECK:         return %[[DET]]
func.func @det_empty(%a: tensor<3x0x0xf64>) -> tensor<3xf64> {
  %d = rlx.det %a : tensor<3x0x0xf64> -> tensor<3xf64>
  return %d : tensor<3xf64>
}

// -----

// eigh: at most 40 sweeps, each skipped (scf.if) once the off-diagonal part
// is within rounding.
// CHECK-LABEL: func.func @eigh(
// CHECK-DAG:     %[[SWEEPS:.*]] = arith.constant 40 : index
// CHECK:         scf.forall
// CHECK:           scf.for %{{.*}} = %{{.*}} to %[[SWEEPS]]
// CHECK:             %[[DONE:.*]] = arith.cmpf ole
// CHECK:             scf.if %[[DONE]]
func.func @eigh(%a: tensor<2x6x6xf64>) -> (tensor<2x6xf64>, tensor<2x6x6xf64>) {
  %l, %v = rlx.eigh %a : tensor<2x6x6xf64> -> tensor<2x6xf64>, tensor<2x6x6xf64>
  return %l, %v : tensor<2x6xf64>, tensor<2x6x6xf64>
}

// -----

// svd of a wide matrix: the rows are orthogonalized ([k, n] = [3, 5]
// scratch), with a flag that ends the sweeps.
// CHECK-LABEL: func.func @svd_wide(
// CHECK:         tensor.empty() : tensor<3x5xf32>
// CHECK:         scf.for {{.*}} -> (tensor<3x5xf32>, tensor<3x3xf32>, i1)
// CHECK:           scf.if
func.func @svd_wide(%a: tensor<3x5xf32>) -> (tensor<3x3xf32>, tensor<3xf32>, tensor<3x5xf32>) {
  %u, %s, %vh = rlx.svd %a : tensor<3x5xf32> -> tensor<3x3xf32>, tensor<3xf32>, tensor<3x5xf32>
  return %u, %s, %vh : tensor<3x3xf32>, tensor<3xf32>, tensor<3x5xf32>
}

// -----

// qr: the reflections in place in (a copy of) the input's slice, their
// scales in a scratch vector; q and r are the results.
// CHECK-LABEL: func.func @qr(
// CHECK-SAME:    %[[A:.*]]: tensor<?x7x3xf64>
// CHECK:         scf.forall (%[[I:.*]]) in (%{{.*}}) shared_outs(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<?x7x3xf64>, tensor<?x3x3xf64>)
// CHECK:           tensor.extract_slice %[[A]][%[[I]], 0, 0] [1, 7, 3]
// CHECK:           math.sqrt
func.func @qr(%a: tensor<?x7x3xf64>) -> (tensor<?x7x3xf64>, tensor<?x3x3xf64>) {
  %q, %r = rlx.qr %a : tensor<?x7x3xf64> -> tensor<?x7x3xf64>, tensor<?x3x3xf64>
  return %q, %r : tensor<?x7x3xf64>, tensor<?x3x3xf64>
}
