// RUN: rlx-opt %s --rlx-to-linalg -split-input-file | FileCheck %s

// rlx.if: scf.if on the condition's element; the branches' ops lowered in
// place; a branch yielding a static refinement of the result type casts.
// CHECK-LABEL: func.func @branch(
// CHECK-SAME:    %[[P:[a-z0-9]+]]: tensor<i1>, %[[X:[a-z0-9]+]]: tensor<4xf32>)
// CHECK:         %[[C:.*]] = tensor.extract %[[P]][] : tensor<i1>
// CHECK:         %[[R:.*]] = scf.if %[[C]] -> (tensor<?xf32>) {
// CHECK:           %[[E:.*]] = linalg.generic
// CHECK:             math.exp
// CHECK:           %[[EC:.*]] = tensor.cast %[[E]] : tensor<4xf32> to tensor<?xf32>
// CHECK:           scf.yield %[[EC]] : tensor<?xf32>
// CHECK:         } else {
// CHECK:           %[[S:.*]] = tensor.extract_slice %[[X]][0] [2] [1]
// CHECK:           %[[SC:.*]] = tensor.cast %[[S]] : tensor<2xf32> to tensor<?xf32>
// CHECK:           scf.yield %[[SC]] : tensor<?xf32>
// CHECK:         }
// CHECK:         return %[[R]]
func.func @branch(%p: tensor<i1>, %x: tensor<4xf32>) -> tensor<?xf32> {
  %r = rlx.if %p -> (tensor<?xf32>) {
    %e = rlx.exp %x : tensor<4xf32>
    rlx.yield %e : tensor<4xf32>
  } else {
    %s = rlx.narrow %x axis = 0, start = 0, length = 2 : tensor<4xf32> -> tensor<2xf32>
    rlx.yield %s : tensor<2xf32>
  }
  return %r : tensor<?xf32>
}

// -----

// rlx.while: scf.while, the condition region before (its i1 read and
// passed to scf.condition with the carried values), the body after.
// CHECK-LABEL: func.func @loop(
// CHECK-SAME:    %[[N:[a-z0-9]+]]: tensor<i64>, %[[X:[a-z0-9]+]]: tensor<?xf32>, %[[L:[a-z0-9]+]]: tensor<i64>
// CHECK:         %[[W:.*]]:2 = scf.while (%[[A:.*]] = %[[N]], %[[B:.*]] = %[[X]]) : (tensor<i64>, tensor<?xf32>) -> (tensor<i64>, tensor<?xf32>) {
// CHECK:           %[[LT:.*]] = linalg.generic {{.*}} ins(%[[A]], %[[L]] : tensor<i64>, tensor<i64>)
// CHECK:             arith.cmpi slt
// CHECK:           %[[C:.*]] = tensor.extract %[[LT]][] : tensor<i1>
// CHECK:           scf.condition(%[[C]]) %[[A]], %[[B]] : tensor<i64>, tensor<?xf32>
// CHECK:         } do {
// CHECK:         ^bb0(%[[A2:.*]]: tensor<i64>, %[[B2:.*]]: tensor<?xf32>):
// CHECK:           math.tanh
// CHECK:           scf.yield %{{.*}}, %{{.*}} : tensor<i64>, tensor<?xf32>
// CHECK:         }
// CHECK:         return %[[W]]#0, %[[W]]#1
func.func @loop(%n: tensor<i64>, %x: tensor<?xf32>, %limit: tensor<i64>, %one: tensor<i64>) -> (tensor<i64>, tensor<?xf32>) {
  %i, %y = rlx.while %n, %x : tensor<i64>, tensor<?xf32> condition {
  ^bb0(%a: tensor<i64>, %b: tensor<?xf32>):
    %c = rlx.lt %a, %limit : (tensor<i64>, tensor<i64>) -> tensor<i1>
    rlx.yield %c : tensor<i1>
  } do {
  ^bb0(%a: tensor<i64>, %b: tensor<?xf32>):
    %a1 = rlx.add %a, %one : (tensor<i64>, tensor<i64>) -> tensor<i64>
    %b1 = rlx.tanh %b : tensor<?xf32>
    rlx.yield %a1, %b1 : tensor<i64>, tensor<?xf32>
  }
  return %i, %y : tensor<i64>, tensor<?xf32>
}

// -----

// rlx.scan: scf.for over the positions carrying the state and the stacked
// output (a tensor.empty of the sizes the shape rule gives: the length and
// the carried value's `?` batch); each step slices the xs at its position
// and inserts the step's y there.
// CHECK-LABEL: func.func @rnn(
// CHECK-SAME:    %[[H0:[a-z0-9]+]]: tensor<?x8xf32>, %[[XS:[a-z0-9]+]]: tensor<16x?x3xf32>
// CHECK:         %[[C16:.*]] = arith.constant 16 : index
// CHECK:         %[[EMPTY:.*]] = tensor.empty(%{{.*}}) : tensor<16x?x8xf32>
// CHECK:         %[[FOR:.*]]:2 = scf.for %[[I:[a-z0-9]+]] = %{{.*}} to %[[C16]] step %{{.*}} iter_args(%[[H:[a-z0-9]+]] = %[[H0]], %[[HS:[a-z0-9]+]] = %[[EMPTY]]) -> (tensor<?x8xf32>, tensor<16x?x8xf32>) {
// CHECK:           %[[XB:.*]] = tensor.dim %[[XS]], %{{.*}} : tensor<16x?x3xf32>
// CHECK:           %[[X:.*]] = tensor.extract_slice %[[XS]][%[[I]], 0, 0] [1, %[[XB]], 3] [1, 1, 1] : tensor<16x?x3xf32> to tensor<?x3xf32>
// CHECK:           linalg.matmul
// CHECK:           linalg.matmul
// CHECK:           arith.addf
// CHECK:           %[[N:.*]] = linalg.generic
// CHECK:             math.tanh
// CHECK:           %[[INS:.*]] = tensor.insert_slice %[[N]] into %[[HS]][%[[I]], 0, 0] [1, %{{.*}}, 8] [1, 1, 1] : tensor<?x8xf32> into tensor<16x?x8xf32>
// CHECK:           scf.yield %[[N]], %[[INS]] : tensor<?x8xf32>, tensor<16x?x8xf32>
// CHECK:         }
// CHECK:         return %[[FOR]]#0, %[[FOR]]#1
func.func @rnn(%h0: tensor<?x8xf32>, %xs: tensor<16x?x3xf32>, %wx: tensor<3x8xf32>, %wh: tensor<8x8xf32>) -> (tensor<?x8xf32>, tensor<16x?x8xf32>) {
  %h, %hs = rlx.scan (%h0 : tensor<?x8xf32>) over (%xs : tensor<16x?x3xf32>) -> (tensor<?x8xf32>, tensor<16x?x8xf32>) {
  ^bb0(%c: tensor<?x8xf32>, %x: tensor<?x3xf32>):
    %p = rlx.matmul %x, %wx : (tensor<?x3xf32>, tensor<3x8xf32>) -> tensor<?x8xf32>
    %q = rlx.matmul %c, %wh : (tensor<?x8xf32>, tensor<8x8xf32>) -> tensor<?x8xf32>
    %s = rlx.add %p, %q : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
    %n = rlx.tanh %s : tensor<?x8xf32>
    rlx.yield %n, %n : tensor<?x8xf32>, tensor<?x8xf32>
  }
  return %h, %hs : tensor<?x8xf32>, tensor<16x?x8xf32>
}

// -----

// Reverse along a `?` last axis: position = length - 1 - i.
// CHECK-LABEL: func.func @reverse(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x?xf32>
// CHECK:         scf.for %[[I:[a-z0-9]+]] = %{{.*}} to %[[LEN:[a-z0-9_]+]] step %{{.*}} iter_args
// CHECK:           %[[LAST:.*]] = arith.subi %[[LEN]], %{{.*}} : index
// CHECK:           %[[POS:.*]] = arith.subi %[[LAST]], %[[I]] : index
// CHECK:           tensor.extract_slice %[[A]][0, %[[POS]]] [2, 1] [1, 1] : tensor<2x?xf32> to tensor<2xf32>
// CHECK:           tensor.insert_slice %{{.*}} into %{{.*}}[0, %[[POS]]] [2, 1] [1, 1] : tensor<2xf32> into tensor<2x?xf32>
func.func @reverse(%a: tensor<2x?xf32>) -> tensor<2x?xf32> {
  %y = rlx.scan () over (%a : tensor<2x?xf32>) axis = -1 reverse -> (tensor<2x?xf32>) {
  ^bb0(%x: tensor<2xf32>):
    %m = rlx.exp %x : tensor<2xf32>
    rlx.yield %m : tensor<2xf32>
  }
  return %y : tensor<2x?xf32>
}

// -----

// No xs: the length attribute bounds the loop.
// CHECK-LABEL: func.func @counted(
// CHECK:         %[[C5:.*]] = arith.constant 5 : index
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[C5]] step
func.func @counted(%s: tensor<f32>) -> tensor<f32> {
  %t = rlx.scan (%s : tensor<f32>) over () length = 5 -> (tensor<f32>) {
  ^bb0(%c: tensor<f32>):
    %c1 = rlx.add %c, %c : (tensor<f32>, tensor<f32>) -> tensor<f32>
    rlx.yield %c1 : tensor<f32>
  }
  return %t : tensor<f32>
}

// -----

// rlx.custom_fn: the body inlined, its ops lowered in place; the backward
// (which --rlx-autodiff reads) is dropped.
// CHECK-LABEL: func.func @custom(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<4xf32>)
// CHECK-NOT:     rlx.custom_fn
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK-SAME:      ins(%[[X]] : tensor<4xf32>)
// CHECK:           math.roundeven
// CHECK-NOT:     rlx.
// CHECK:         return %[[R]]
func.func @custom(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = rlx.custom_fn (%x : tensor<4xf32>) -> (tensor<4xf32>) {
  ^bb0(%a: tensor<4xf32>):
    %q = rlx.round %a : tensor<4xf32>
    rlx.yield %q : tensor<4xf32>
  } backward {
  ^bb0(%a: tensor<4xf32>, %q: tensor<4xf32>, %dq: tensor<4xf32>):
    %t = rlx.tanh %dq : tensor<4xf32>
    rlx.yield %t : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
