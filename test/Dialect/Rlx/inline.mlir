// RUN: rlx-opt %s --inline | FileCheck %s

// rlx ops are legal to inline (the dialect's inliner interface): upstream
// --inline replaces calls to functions of rlx ops, rlx.region included, by
// their bodies and drops the private callees it no longer needs.

// CHECK-NOT:   func.func private @bias_gelu
// CHECK-NOT:   func.func private @scale
// CHECK-LABEL: func.func @caller(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<4x8xf32>, %[[B:[a-z0-9]+]]: tensor<8xf32>)
// CHECK-NOT:     call
// CHECK-DAG:     %[[C:.*]] = rlx.constant dense<2.000000e+00> : tensor<f32>
// CHECK-DAG:     %[[R:.*]] = rlx.region elementwise ins(%[[X]], %[[B]] : tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32> {
// CHECK:           rlx.gelu
// CHECK:           rlx.yield
// CHECK:         }
// CHECK:         %[[M:.*]] = rlx.mul %[[R]], %[[C]]
// CHECK:         %[[S:.*]] = rlx.softmax %[[M]]
// CHECK:         return %[[S]]
func.func private @bias_gelu(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %r = rlx.region elementwise ins(%x, %b : tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>, %c: tensor<8xf32>):
    %0 = rlx.add %a, %c : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
    %1 = rlx.gelu %0 : tensor<4x8xf32>
    rlx.yield %1 : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}
func.func private @scale(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c = rlx.constant dense<2.0> : tensor<f32>
  %m = rlx.mul %x, %c : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %s = rlx.softmax %m axis = 1 : tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}
func.func @caller(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = call @bias_gelu(%x, %b) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %1 = call @scale(%0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}
