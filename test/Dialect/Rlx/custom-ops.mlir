// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// Rounding with a straight-through gradient.
// CHECK-LABEL: func.func @straight_through(
// CHECK:         %{{.*}} = rlx.custom_fn (%{{.*}} : tensor<?x8xf32>) -> (tensor<?x8xf32>) {
// CHECK:         ^bb0(%{{.*}}: tensor<?x8xf32>):
// CHECK:           rlx.round
// CHECK:           rlx.yield %{{.*}} : tensor<?x8xf32>
// CHECK:         } backward {
// CHECK:         ^bb0(%{{.*}}: tensor<?x8xf32>, %{{.*}}: tensor<?x8xf32>, %[[D:.*]]: tensor<?x8xf32>):
// CHECK:           rlx.yield %[[D]] : tensor<?x8xf32>
func.func @straight_through(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %r = rlx.custom_fn (%x : tensor<?x8xf32>) -> (tensor<?x8xf32>) {
  ^bb0(%a: tensor<?x8xf32>):
    %q = rlx.round %a : tensor<?x8xf32>
    rlx.yield %q : tensor<?x8xf32>
  } backward {
  ^bb0(%a: tensor<?x8xf32>, %q: tensor<?x8xf32>, %dq: tensor<?x8xf32>):
    rlx.yield %dq : tensor<?x8xf32>
  }
  return %r : tensor<?x8xf32>
}

// Two inputs (one an integer) and two results; the backward reads a
// result and yields a placeholder for the integer input.
// CHECK-LABEL: func.func @two(
// CHECK:         %{{.*}}:2 = rlx.custom_fn (%{{.*}}, %{{.*}} : tensor<4xf64>, tensor<4xi64>) -> (tensor<4xf64>, tensor<f64>) {
// CHECK:         } backward {
// CHECK:         ^bb0(%{{.*}}: tensor<4xf64>, %{{.*}}: tensor<4xi64>, %{{.*}}: tensor<4xf64>, %{{.*}}: tensor<f64>, %{{.*}}: tensor<4xf64>, %{{.*}}: tensor<f64>):
func.func @two(%x: tensor<4xf64>, %i: tensor<4xi64>) -> (tensor<4xf64>, tensor<f64>) {
  %e, %s = rlx.custom_fn (%x, %i : tensor<4xf64>, tensor<4xi64>) -> (tensor<4xf64>, tensor<f64>) {
  ^bb0(%a: tensor<4xf64>, %j: tensor<4xi64>):
    %e = rlx.exp %a : tensor<4xf64>
    %s = rlx.reduce sum %e axes = [0] : tensor<4xf64> -> tensor<f64>
    rlx.yield %e, %s : tensor<4xf64>, tensor<f64>
  } backward {
  ^bb0(%a: tensor<4xf64>, %j: tensor<4xi64>, %e: tensor<4xf64>, %s: tensor<f64>, %de: tensor<4xf64>, %ds: tensor<f64>):
    %t = rlx.add %de, %ds : (tensor<4xf64>, tensor<f64>) -> tensor<4xf64>
    %g = rlx.mul %t, %e : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
    rlx.yield %g, %j : tensor<4xf64>, tensor<4xi64>
  }
  return %e, %s : tensor<4xf64>, tensor<f64>
}

// No inputs: a constant with an empty backward.
// CHECK-LABEL: func.func @no_inputs(
// CHECK:         rlx.custom_fn () -> (tensor<2xf32>) {
// CHECK:         } backward {
// CHECK-NEXT:    ^bb0(%{{.*}}: tensor<2xf32>, %{{.*}}: tensor<2xf32>):
// CHECK-NEXT:      rlx.yield
func.func @no_inputs() -> tensor<2xf32> {
  %r = rlx.custom_fn () -> (tensor<2xf32>) {
    %c = rlx.constant dense<1.0> : tensor<2xf32>
    rlx.yield %c : tensor<2xf32>
  } backward {
  ^bb0(%c: tensor<2xf32>, %dc: tensor<2xf32>):
    rlx.yield
  }
  return %r : tensor<2xf32>
}

// rlx.custom_call: a C function on tensors of any sizes and layouts in,
// static shapes out; calls without inputs or results.
// CHECK-LABEL: func.func @custom_call(
// CHECK:         %{{.*}}:2 = rlx.custom_call @soft_threshold(%{{.*}}, %{{.*}}) : (tensor<?x16xf32>, tensor<f32>) -> (tensor<4x16xf32>, tensor<i64>)
// CHECK:         rlx.custom_call @seed() : () -> tensor<2xi32>
// CHECK:         rlx.custom_call @log_values(%{{.*}}) : (tensor<4x16xf32>) -> ()
func.func @custom_call(%x: tensor<?x16xf32>, %t: tensor<f32>) -> (tensor<4x16xf32>, tensor<i64>, tensor<2xi32>) {
  %y, %n = rlx.custom_call @soft_threshold(%x, %t) : (tensor<?x16xf32>, tensor<f32>) -> (tensor<4x16xf32>, tensor<i64>)
  %s = rlx.custom_call @seed() : () -> tensor<2xi32>
  rlx.custom_call @log_values(%y) : (tensor<4x16xf32>) -> ()
  return %y, %n, %s : tensor<4x16xf32>, tensor<i64>, tensor<2xi32>
}
