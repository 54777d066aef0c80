// RUN: rlx-opt %s --rlx-autodiff -split-input-file -verify-diagnostics | FileCheck %s

// Gradients through rlx.if and rlx.scan (lib/Transforms/Autodiff.cpp): the
// backward of an if is an if on the same condition whose branches
// recompute their forward and sweep it, yielding the adjoints of the active
// values the branches read (zeros from a branch that does not read one).
// CHECK-LABEL: func.func @branch_grad(
// CHECK-SAME:    %[[P:[a-z0-9]+]]: tensor<i1>, %[[X:[a-z0-9]+]]: tensor<4xf32>, %[[W:[a-z0-9]+]]: tensor<4xf32>)
// CHECK:         %[[SEED:.*]] = rlx.expand
// CHECK:         %[[D:.*]]:2 = rlx.if %[[P]] -> (tensor<4xf32>, tensor<4xf32>) {
// CHECK:           %[[DX:.*]] = rlx.mul %[[SEED]], %[[W]]
// CHECK:           %[[DW:.*]] = rlx.mul %[[SEED]], %[[X]]
// CHECK:           rlx.yield %[[DX]], %[[DW]]
// CHECK:         } else {
// CHECK:           %[[Z:.*]] = rlx.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK:           rlx.yield %[[SEED]], %[[Z]]
// CHECK:         return %{{.*}}, %[[D]]#0, %[[D]]#1
func.func @branch(%p: tensor<i1>, %x: tensor<4xf32>, %w: tensor<4xf32>) -> tensor<f32>
    attributes {rlx.differentiate = array<i64: 1, 2>} {
  %r = rlx.if %p -> (tensor<4xf32>) {
    %a = rlx.mul %x, %w : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    rlx.yield %a : tensor<4xf32>
  } else {
    rlx.yield %x : tensor<4xf32>
  }
  %l = rlx.reduce sum %r axes = [0] : tensor<4xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// A result whose size depends on the branch: each branch reads its
// adjoint at its own size.
// CHECK-LABEL: func.func @sizes_grad(
// CHECK:         %[[SEED:.*]] = rlx.expand %{{.*}} like %{{.*}} : tensor<1xf32>, tensor<?xf32> -> tensor<?xf32>
// CHECK:         rlx.if %{{.*}} -> (tensor<6xf32>) {
// CHECK:           rlx.reshape %[[SEED]] : tensor<?xf32> -> tensor<6xf32>
// CHECK:         } else {
// CHECK:           %[[R:.*]] = rlx.reshape %[[SEED]] : tensor<?xf32> -> tensor<2xf32>
// CHECK:           rlx.pad constant %[[R]] pads = [1, 3]
func.func @sizes(%p: tensor<i1>, %x: tensor<6xf32>) -> tensor<f32>
    attributes {rlx.differentiate = array<i64: 1>} {
  %r = rlx.if %p -> (tensor<?xf32>) {
    rlx.yield %x : tensor<6xf32>
  } else {
    %s = rlx.narrow %x axis = 0, start = 1, length = 2 : tensor<6xf32> -> tensor<2xf32>
    rlx.yield %s : tensor<2xf32>
  }
  %t = rlx.reduce sum %r axes = [0] : tensor<?xf32> -> tensor<f32>
  return %t : tensor<f32>
}

// -----

// A scan: the forward also stacks the carried value each step starts from
// (a third result); the backward scans the other way over the saved
// carried values, the xs and the outputs' adjoints, carrying the carried
// value's adjoint and the sum of the weight's, and stacks the xs'.
// CHECK-LABEL: func.func @rnn_grad(
// CHECK-SAME:    %[[H0:[a-z0-9]+]]: tensor<?x8xf32>, %[[XS:[a-z0-9]+]]: tensor<?x?x3xf32>, %[[WX:[a-z0-9]+]]: tensor<3x8xf32>)
// CHECK:         %[[F:.*]]:3 = rlx.scan (%[[H0]] : tensor<?x8xf32>) over (%[[XS]] : tensor<?x?x3xf32>) -> (tensor<?x8xf32>, tensor<?x?x8xf32>, tensor<?x?x8xf32>) {
// CHECK:         ^bb0(%[[C:[a-z0-9]+]]: tensor<?x8xf32>, %{{.*}}: tensor<?x3xf32>):
// CHECK:           rlx.yield %[[N:.*]], %[[N]], %[[C]] : tensor<?x8xf32>, tensor<?x8xf32>, tensor<?x8xf32>
// CHECK:         %[[DYS:.*]] = rlx.expand %{{.*}} like %[[F]]#1
// CHECK:         %[[DH:.*]] = rlx.expand %{{.*}} like %[[F]]#0
// CHECK:         %[[DW0:.*]] = rlx.constant dense<0.000000e+00> : tensor<3x8xf32>
// CHECK:         %[[B:.*]]:3 = rlx.scan (%[[DH]], %[[DW0]] : tensor<?x8xf32>, tensor<3x8xf32>) over (%[[F]]#2, %[[XS]], %[[DYS]] : tensor<?x?x8xf32>, tensor<?x?x3xf32>, tensor<?x?x8xf32>) reverse -> (tensor<?x8xf32>, tensor<3x8xf32>, tensor<?x?x3xf32>) {
// CHECK:         ^bb0(%[[DC:[a-z0-9]+]]: tensor<?x8xf32>, %[[DWS:[a-z0-9]+]]: tensor<3x8xf32>, %[[SC:[a-z0-9]+]]: tensor<?x8xf32>, %[[X:[a-z0-9]+]]: tensor<?x3xf32>, %[[DY:[a-z0-9]+]]: tensor<?x8xf32>):
// CHECK:           %[[P:.*]] = rlx.matmul %[[X]], %[[WX]]
// CHECK:           %[[S:.*]] = rlx.add %[[P]], %[[SC]]
// CHECK:           %[[G:.*]] = rlx.add %[[DC]], %[[DY]]
// CHECK:           %[[DS:.*]] = rlx.activation_backward tanh %[[G]], %[[S]]
// CHECK:           %[[DX:.*]] = rlx.matmul %[[DS]], %{{.*}} : (tensor<?x8xf32>, tensor<8x3xf32>) -> tensor<?x3xf32>
// CHECK:           %[[DWX:.*]] = rlx.matmul %{{.*}}, %[[DS]] : (tensor<3x?xf32>, tensor<?x8xf32>) -> tensor<3x8xf32>
// CHECK:           %[[SUM:.*]] = rlx.add %[[DWS]], %[[DWX]]
// CHECK:           rlx.yield %[[DS]], %[[SUM]], %[[DX]]
// CHECK:         return %{{.*}}, %[[B]]#0, %[[B]]#2, %[[B]]#1
func.func @rnn(%h0: tensor<?x8xf32>, %xs: tensor<?x?x3xf32>, %wx: tensor<3x8xf32>) -> tensor<f32>
    attributes {rlx.differentiate = array<i64: 0, 1, 2>} {
  %h, %hs = rlx.scan (%h0 : tensor<?x8xf32>) over (%xs : tensor<?x?x3xf32>) -> (tensor<?x8xf32>, tensor<?x?x8xf32>) {
  ^bb0(%c: tensor<?x8xf32>, %x: tensor<?x3xf32>):
    %p = rlx.matmul %x, %wx : (tensor<?x3xf32>, tensor<3x8xf32>) -> tensor<?x8xf32>
    %s = rlx.add %p, %c : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
    %n = rlx.tanh %s : tensor<?x8xf32>
    rlx.yield %n, %n : tensor<?x8xf32>, tensor<?x8xf32>
  }
  %l = rlx.reduce sum %hs axes = [0, 1, 2] : tensor<?x?x8xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// Reverse along axis 1: the backward runs forward. The rank-0 carried value
// is saved as [1] slices (a unit dimension, so that axis 1 exists), and the
// scan computes the loss itself.
// CHECK-LABEL: func.func @reverse_axis_grad(
// CHECK:         %[[F:.*]]:2 = rlx.scan (%{{.*}} : tensor<f32>) over (%{{.*}} : tensor<3x5xf32>) axis = 1 reverse -> (tensor<f32>, tensor<1x5xf32>) {
// CHECK:           %[[S:.*]] = rlx.reshape %{{.*}} : tensor<f32> -> tensor<1xf32>
// CHECK:           rlx.yield %{{.*}}, %[[S]] : tensor<f32>, tensor<1xf32>
// CHECK:         %[[B:.*]] = rlx.scan (%{{.*}} : tensor<f32>) over (%[[F]]#1, %{{.*}} : tensor<1x5xf32>, tensor<3x5xf32>) axis = 1 -> (tensor<f32>) {
// CHECK:           rlx.reshape %{{.*}} : tensor<1xf32> -> tensor<f32>
// CHECK:         return %[[F]]#0, %[[B]]
func.func @reverse_axis(%c0: tensor<f32>, %xs: tensor<3x5xf32>) -> tensor<f32>
    attributes {rlx.differentiate = array<i64: 0>} {
  %c = rlx.scan (%c0 : tensor<f32>) over (%xs : tensor<3x5xf32>) axis = 1 reverse -> (tensor<f32>) {
  ^bb0(%h: tensor<f32>, %x: tensor<3xf32>):
    %y = rlx.mul %x, %h : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
    %t = rlx.reduce sum %y axes = [0] : tensor<3xf32> -> tensor<f32>
    rlx.yield %t : tensor<f32>
  }
  return %c : tensor<f32>
}

// -----

// A length and no xs; an integer counter is saved (the body reads it) but
// carries no adjoint.
// CHECK-LABEL: func.func @counter_grad(
// CHECK:         %[[F:.*]]:4 = rlx.scan (%{{.*}}, %{{.*}} : tensor<i64>, tensor<4xf32>) over () length = 3 -> (tensor<i64>, tensor<4xf32>, tensor<3xi64>, tensor<3x4xf32>)
// CHECK:         %[[B:.*]]:2 = rlx.scan (%{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xf32>) over (%[[F]]#2, %[[F]]#3 : tensor<3xi64>, tensor<3x4xf32>) length = 3 reverse -> (tensor<4xf32>, tensor<4xf32>)
// CHECK:         return %{{.*}}, %[[B]]#1
func.func @counter(%x0: tensor<4xf32>, %w: tensor<4xf32>) -> tensor<f32>
    attributes {rlx.differentiate = array<i64: 1>} {
  %zero = rlx.constant dense<0> : tensor<i64>
  %one = rlx.constant dense<1> : tensor<i64>
  %n, %x = rlx.scan (%zero, %x0 : tensor<i64>, tensor<4xf32>) over () length = 3 -> (tensor<i64>, tensor<4xf32>) {
  ^bb0(%i: tensor<i64>, %v: tensor<4xf32>):
    %i1 = rlx.add %i, %one : (tensor<i64>, tensor<i64>) -> tensor<i64>
    %f = rlx.cast %i : tensor<i64> -> tensor<f32>
    %m = rlx.mul %v, %w : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %a = rlx.add %m, %f : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    rlx.yield %i1, %a : tensor<i64>, tensor<4xf32>
  }
  %l = rlx.reduce sum %x axes = [0] : tensor<4xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// A body that does not read its carried value: the carried value's
// adjoint is still carried (a scan of length 0 returns its init), and is
// zero after one step.
// CHECK-LABEL: func.func @inactive_grad(
// CHECK:         rlx.scan
// CHECK:         %[[B:.*]] = rlx.scan (%{{.*}} : tensor<4xf32>) over (%{{.*}}, %{{.*}} : tensor<5x4xf32>, tensor<5x4xf32>) reverse -> (tensor<4xf32>)
// CHECK:           %[[Z:.*]] = rlx.constant dense<0.000000e+00> : tensor<4xf32>
// CHECK:           rlx.yield %[[Z]]
func.func @inactive(%x: tensor<4xf32>, %ys: tensor<5x4xf32>) -> tensor<f32>
    attributes {rlx.differentiate = array<i64: 0>} {
  %s = rlx.scan (%x : tensor<4xf32>) over (%ys : tensor<5x4xf32>) -> (tensor<4xf32>) {
  ^bb0(%c: tensor<4xf32>, %y: tensor<4xf32>):
    %a = rlx.add %y, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    rlx.yield %a : tensor<4xf32>
  }
  %m = rlx.mul %s, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %l = rlx.reduce sum %m axes = [0] : tensor<4xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

func.func @loop(%x0: tensor<4xf32>) -> tensor<f32>
    attributes {rlx.differentiate = array<i64: 0>} {
  %limit = rlx.constant dense<1.0> : tensor<f32>
  %half = rlx.constant dense<0.5> : tensor<f32>
  // expected-error @+1 {{cannot differentiate 'rlx.while': its number of iterations is known only once it has run; a loop with a known trip count is an 'rlx.scan'}}
  %x = rlx.while %x0 : tensor<4xf32> condition {
  ^bb0(%v: tensor<4xf32>):
    %m = rlx.reduce max %v axes = [0] : tensor<4xf32> -> tensor<f32>
    %c = rlx.gt %m, %limit : (tensor<f32>, tensor<f32>) -> tensor<i1>
    rlx.yield %c : tensor<i1>
  } do {
  ^bb0(%v: tensor<4xf32>):
    %h = rlx.mul %v, %half : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    rlx.yield %h : tensor<4xf32>
  }
  %l = rlx.reduce sum %x axes = [0] : tensor<4xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// An integer loop off the differentiated path needs no gradient.
// CHECK-LABEL: func.func @off_path_grad(
// CHECK:         rlx.while
func.func @off_path(%x: tensor<4xf32>, %n0: tensor<i64>) -> tensor<f32>
    attributes {rlx.differentiate = array<i64: 0>} {
  %one = rlx.constant dense<1> : tensor<i64>
  %ten = rlx.constant dense<10> : tensor<i64>
  %n = rlx.while %n0 : tensor<i64> condition {
  ^bb0(%i: tensor<i64>):
    %c = rlx.lt %i, %ten : (tensor<i64>, tensor<i64>) -> tensor<i1>
    rlx.yield %c : tensor<i1>
  } do {
  ^bb0(%i: tensor<i64>):
    %i1 = rlx.add %i, %one : (tensor<i64>, tensor<i64>) -> tensor<i64>
    rlx.yield %i1 : tensor<i64>
  }
  %f = rlx.cast %n : tensor<i64> -> tensor<f32>
  %m = rlx.mul %x, %f : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %l = rlx.reduce sum %m axes = [0] : tensor<4xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// A recurrent layer is differentiated through its decomposition: the
// gradient function has the projection matmul, the scan saving its
// states, and the reverse scan.
// CHECK-LABEL: func.func @rnn_layer_grad(
// CHECK:         rlx.matmul %{{.*}}, %{{.*}} : (tensor<3x2x2xf32>, tensor<2x4xf32>) -> tensor<3x2x4xf32>
// CHECK:         %[[F:.*]]:3 = rlx.scan (%{{.*}} : tensor<2x4xf32>) over (%{{.*}} : tensor<3x2x4xf32>) -> (tensor<2x4xf32>, tensor<3x2x4xf32>, tensor<3x2x4xf32>)
// CHECK:         rlx.scan (%{{.*}}, %{{.*}} : tensor<2x4xf32>, tensor<4x4xf32>) over (%[[F]]#2, %{{.*}}, %{{.*}} : tensor<3x2x4xf32>, tensor<3x2x4xf32>, tensor<3x2x4xf32>) reverse
// CHECK-NOT:     rlx.rnn
func.func @rnn_layer(%x: tensor<3x2x2xf32>, %wi: tensor<4x2xf32>, %wh: tensor<4x4xf32>) -> tensor<f32>
    attributes {rlx.differentiate = array<i64: 1, 2>} {
  %y, %h = rlx.rnn %x weights(%wi, %wh : tensor<4x2xf32>, tensor<4x4xf32>) : tensor<3x2x2xf32> -> tensor<3x2x4xf32>, tensor<1x2x4xf32>
  %l = rlx.reduce sum %y axes = [0, 1, 2] : tensor<3x2x4xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// rlx.custom_fn: the backward the user wrote, cloned with the input, the
// result and the result's adjoint, replaces the body's gradient (rounding
// would give zero).
// CHECK-LABEL: func.func @straight_through_grad(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<4xf32>)
// CHECK:         %[[R:.*]] = rlx.custom_fn (%[[X]] : tensor<4xf32>)
// CHECK:         %[[SEED:.*]] = rlx.expand
// CHECK-NOT:     rlx.round
// CHECK:         %[[D:.*]] = rlx.mul %[[SEED]], %[[R]]
// CHECK:         return %{{.*}}, %[[D]]
func.func @straight_through(%x: tensor<4xf32>) -> tensor<f32>
    attributes {rlx.differentiate = array<i64: 0>} {
  %r = rlx.custom_fn (%x : tensor<4xf32>) -> (tensor<4xf32>) {
  ^bb0(%a: tensor<4xf32>):
    %q = rlx.round %a : tensor<4xf32>
    rlx.yield %q : tensor<4xf32>
  } backward {
  ^bb0(%a: tensor<4xf32>, %q: tensor<4xf32>, %dq: tensor<4xf32>):
    %g = rlx.mul %dq, %q : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    rlx.yield %g : tensor<4xf32>
  }
  %l = rlx.reduce sum %r axes = [0] : tensor<4xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// A C function has no gradient: an rlx.custom_fn supplies one
// (test/E2E/custom_call.py).
func.func @custom_call(%a: tensor<4xf32>) -> tensor<f32>
    attributes {rlx.differentiate = array<i64: 0>} {
  // expected-error @+1 {{no gradient rule for 'rlx.custom_call' on the path from a differentiated argument to the loss}}
  %y = rlx.custom_call @f(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %l = rlx.reduce sum %y axes = [0] : tensor<4xf32> -> tensor<f32>
  return %l : tensor<f32>
}
