// RUN: rlx-opt %s --rlx-to-linalg --canonicalize -split-input-file | FileCheck %s

// rlx.sample lowers as its expansion (RlxSampleOps.td): the logits in f32,
// divided by the temperature, the top k of each row in descending order
// (rlx.topk: a heap per row, so only k = 4 columns go on), exp of them
// minus the first, the inclusive and exclusive running sums (rlx.associative_scan), the
// kept prefix (e > 0, exclusive sum < top_p * total), the kept count as an
// integer running sum, the kept mass gathered at its last kept position, the
// rows' uniforms (one Philox generic over [rows, 1]), the count of kept
// running sums <= u * mass, the gather of the token from topk's indices,
// and the declared i32.
// CHECK-LABEL: func.func @sample(
// CHECK-SAME:    %[[L:[a-z0-9]+]]: tensor<?x8xf16>, %[[S:[a-z0-9]+]]: tensor<i64>, %[[O:[a-z0-9]+]]: tensor<i64>)
// CHECK:         %[[X:.*]] = linalg.generic {{.*}} ins(%[[L]] : tensor<?x8xf16>) outs(%{{.*}} : tensor<?x8xf32>)
// CHECK:           arith.extf
// CHECK:         %[[T:.*]] = linalg.generic {{.*}} ins(%[[X]], %{{.*}} : tensor<?x8xf32>, tensor<f32>)
// CHECK:           arith.divf
// CHECK:         %[[TOP:.*]]:2 = scf.forall {{.*}} -> (tensor<?x4xf32>, tensor<?x4xi64>)
// CHECK:         %[[MAX:.*]] = tensor.extract_slice %[[TOP]]#0[0, 0] [%{{.*}}, 1] [1, 1]
// CHECK:         linalg.generic {{.*}} ins(%[[TOP]]#0, %[[MAX]] : tensor<?x4xf32>, tensor<?x1xf32>)
// CHECK:           arith.subf
// CHECK:         %[[E:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<?x4xf32>)
// CHECK:           math.exp
// CHECK:         %[[C:.*]] = rlx.associative_scan axis = 1 identity = 0.000000e+00 : f32 ins(%[[E]] : tensor<?x4xf32>)
// CHECK:           arith.cmpf ogt
// CHECK:         %[[BEFORE:.*]] = rlx.associative_scan axis = 1 exclusive identity = 0.000000e+00 : f32 ins(%[[E]] : tensor<?x4xf32>)
// CHECK:         tensor.extract_slice %[[C]][0, 3] [%{{.*}}, 1] [1, 1]
// CHECK:           arith.mulf
// CHECK:         linalg.generic {{.*}} ins(%[[BEFORE]], %{{.*}} : tensor<?x4xf32>, tensor<?x1xf32>)
// CHECK:           arith.cmpf olt
// CHECK:         %[[KEPT:.*]] = linalg.generic
// CHECK:           arith.andi
// CHECK:         rlx.associative_scan axis = 1 identity = 0 : i64
// CHECK:           arith.maxsi
// CHECK:         %[[U:.*]] = linalg.generic {{.*}} ins(%[[S]], %[[O]] : tensor<i64>, tensor<i64>) outs(%{{.*}} : tensor<?x1xf32>)
// CHECK:         linalg.generic {{.*}} ins(%[[C]], %{{.*}} : tensor<?x4xf32>, tensor<?x1xf32>)
// CHECK:           arith.cmpf ole
// CHECK:         rlx.associative_scan axis = 1 identity = 0 : i64
// CHECK:           arith.minsi
// CHECK:         %[[TOKEN:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<?x1xi32>)
// CHECK:           arith.trunci
// CHECK:         %[[R:.*]] = tensor.collapse_shape %[[TOKEN]] {{\[}}[0, 1]] : tensor<?x1xi32> into tensor<?xi32>
// CHECK:         return %[[R]]
func.func @sample(%l: tensor<?x8xf16>, %s: tensor<i64>, %o: tensor<i64>) -> tensor<?xi32> {
  %0 = rlx.sample %l, %s, %o top_k = 4 top_p = 0.9 temperature = 0.5 : tensor<?x8xf16> -> tensor<?xi32>
  return %0 : tensor<?xi32>
}

// -----

// Defaults on f64: no cast, no division, no top-k mask, no nucleus; the
// uniforms are f64 (32 bits of the word). One row: the result is rank 0.
// CHECK-LABEL: func.func @defaults(
// CHECK-NOT:     arith.divf
// CHECK-NOT:     rlx.associative_scan axis = 0 exclusive
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<1xf64>)
// CHECK:           arith.uitofp %{{.*}} : i32 to f64
// CHECK:         tensor.collapse_shape %{{.*}} [] : tensor<1xi64> into tensor<i64>
func.func @defaults(%l: tensor<8xf64>, %s: tensor<i64>, %o: tensor<i64>) -> tensor<i64> {
  %0 = rlx.sample %l, %s, %o : tensor<8xf64> -> tensor<i64>
  return %0 : tensor<i64>
}

// -----

// temperature = 0: the argmax, nothing random.
// CHECK-LABEL: func.func @greedy(
// CHECK-NOT:     scf.forall
// CHECK-NOT:     arith.uitofp
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK:         return
func.func @greedy(%l: tensor<3x8xf32>, %s: tensor<i64>, %o: tensor<i64>) -> tensor<3xi64> {
  %0 = rlx.sample %l, %s, %o top_k = 2 temperature = 0.0 : tensor<3x8xf32> -> tensor<3xi64>
  return %0 : tensor<3xi64>
}
