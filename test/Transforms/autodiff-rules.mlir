// RUN: rlx-opt %s --rlx-autodiff -split-input-file | FileCheck %s

// The rules that emit backward ops or closed forms in rlx ops, beyond
// those of autodiff.mlir.

// max reduction: the gradient goes to every maximum (eq against the result
// with the reduced axis kept), divided by how many there are.
// CHECK-LABEL: func.func @reduce_max_grad(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<3x5xf32>
// CHECK:         %[[Y:.*]] = rlx.reduce max %[[X]] axes = [1]
// CHECK:         %[[YK:.*]] = rlx.reshape %[[Y]] : tensor<3xf32> -> tensor<3x1xf32>
// CHECK:         %[[IS:.*]] = rlx.eq %[[X]], %[[YK]] : (tensor<3x5xf32>, tensor<3x1xf32>) -> tensor<3x5xi1>
// CHECK:         %[[ONES:.*]] = rlx.cast %[[IS]] : tensor<3x5xi1> -> tensor<3x5xf32>
// CHECK:         %[[N:.*]] = rlx.reduce sum %[[ONES]] axes = [1] keep_dim
// CHECK:         %[[SHARE:.*]] = rlx.div %{{.*}}, %[[N]] : (tensor<3x1xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
// CHECK:         %[[DX:.*]] = rlx.where %[[IS]], %[[SHARE]], %{{.*}} : (tensor<3x5xi1>, tensor<3x1xf32>, tensor<f32>) -> tensor<3x5xf32>
// CHECK:         return %{{.*}}, %[[DX]]
func.func @reduce_max(%x: tensor<3x5xf32>) -> tensor<f32> attributes {rlx.differentiate = array<i64: 0>} {
  %m = rlx.reduce max %x axes = [1] : tensor<3x5xf32> -> tensor<3xf32>
  %l = rlx.reduce sum %m axes = [0] : tensor<3xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// The norms without saved statistics use their backward ops; layer_norm2d
// is layer_norm along axis 1. batch_norm_inference's running statistics get
// their gradients from dgamma and dbeta.
// CHECK-LABEL: func.func @norms_grad(
// CHECK-DAG:     rlx.ada_layer_norm_backward rms %{{.*}}, %{{.*}}, %{{.*}} eps = 1.000000e-05 : (tensor<2x4x3x3xf32>, tensor<2x4x3x3xf32>, tensor<2x1x1x3xf32>) -> (tensor<2x4x3x3xf32>, tensor<2x1x1x3xf32>, tensor<2x1x1x3xf32>)
// CHECK-DAG:     rlx.gated_residual_backward %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x4x3x3xf32>, tensor<2x4x3x3xf32>, tensor<3xf32>) -> (tensor<2x4x3x3xf32>, tensor<2x4x3x3xf32>, tensor<3xf32>)
// CHECK-DAG:     rlx.batch_norm_inference_backward
// CHECK-DAG:     rlx.layer_norm {{.*}} axis = 1 {{.*}} with_statistics
// CHECK-DAG:     rlx.layer_norm_backward {{.*}} axis = 1
// CHECK-DAG:     rlx.group_norm_backward {{.*}} groups = 2
func.func @norms(%x: tensor<2x4x3x3xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>, %m: tensor<4xf32>, %v: tensor<4xf32>, %s: tensor<2x1x1x3xf32>, %gate: tensor<3xf32>) -> tensor<f32> attributes {rlx.differentiate = array<i64: 0, 1, 2, 3, 4, 5, 6>} {
  %0 = rlx.group_norm %x, %g, %b groups = 2 eps = 1.0e-5 : (tensor<2x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x3x3xf32>
  %1 = rlx.layer_norm2d %0, %g, %b eps = 1.0e-5 : (tensor<2x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x3x3xf32>
  %2 = rlx.batch_norm_inference %1, %g, %b, %m, %v eps = 1.0e-5 : (tensor<2x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x3x3xf32>
  %3 = rlx.ada_layer_norm rms %2, %s, %s eps = 1.0e-5 : (tensor<2x4x3x3xf32>, tensor<2x1x1x3xf32>, tensor<2x1x1x3xf32>) -> tensor<2x4x3x3xf32>
  %4 = rlx.gated_residual %x, %3, %gate : (tensor<2x4x3x3xf32>, tensor<2x4x3x3xf32>, tensor<3xf32>) -> tensor<2x4x3x3xf32>
  %l = rlx.reduce sum %4 axes = [0, 1, 2, 3] : tensor<2x4x3x3xf32> -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// concat splits its gradient with narrow; pad (constant) crops it back with
// the negated pads; a strided slice spreads it with pad, a reversed one
// reverses it first.
// CHECK-LABEL: func.func @data_movement_grad(
// CHECK:         %[[DC:.*]] = rlx.pad constant %{{.*}} pads = [0, 0, -1, 0] : tensor<4x9xf32> -> tensor<4x8xf32>
// CHECK:         %[[DX1:.*]] = rlx.narrow %[[DC]] axis = 1, start = 0, length = 6 : tensor<4x8xf32> -> tensor<4x6xf32>
// CHECK:         %[[DS:.*]] = rlx.narrow %[[DC]] axis = 1, start = 6, length = 2 : tensor<4x8xf32> -> tensor<4x2xf32>
// CHECK:         %[[R:.*]] = rlx.reverse %[[DS]] axes = [1] : tensor<4x2xf32>
// CHECK:         %[[R3:.*]] = rlx.reshape %[[R]] : tensor<4x2xf32> -> tensor<4x2x1xf32>
// CHECK:         %[[SPREAD:.*]] = rlx.pad constant %[[R3]] pads = [0, 0, 0, 0, 0, 2] : tensor<4x2x1xf32> -> tensor<4x2x3xf32>
// CHECK:         %[[FLAT:.*]] = rlx.reshape %[[SPREAD]] : tensor<4x2x3xf32> -> tensor<4x6xf32>
// CHECK:         %[[SPAN:.*]] = rlx.narrow %[[FLAT]] axis = 1, start = 0, length = 4 : tensor<4x6xf32> -> tensor<4x4xf32>
// CHECK:         %[[DX2:.*]] = rlx.pad constant %[[SPAN]] pads = [0, 0, 1, 1] : tensor<4x4xf32> -> tensor<4x6xf32>
// CHECK:         %[[DX:.*]] = rlx.add %[[DX1]], %[[DX2]]
// CHECK:         return %{{.*}}, %[[DX]]
func.func @data_movement(%x: tensor<4x6xf32>) -> tensor<f32> attributes {rlx.differentiate = array<i64: 0>} {
  %s = rlx.slice %x axis = 1, start = 4, length = 2, step = -3 : tensor<4x6xf32> -> tensor<4x2xf32>
  %c = rlx.concat %x, %s axis = 1 : (tensor<4x6xf32>, tensor<4x2xf32>) -> tensor<4x8xf32>
  %p = rlx.pad constant %c pads = [0, 0, 1, 0] : tensor<4x8xf32> -> tensor<4x9xf32>
  %l = rlx.reduce sum %p axes = [0, 1] : tensor<4x9xf32> -> tensor<f32>
  return %l : tensor<f32>
}
