// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// Round-trip of every backward op through the custom and the generic form.

// CHECK-LABEL: func.func @activations(
// CHECK-SAME:    %[[DY:[a-z0-9]+]]: tensor<2x3xf32>, %[[X:[a-z0-9]+]]: tensor<2x3xf32>, %[[H:[a-z0-9]+]]: tensor<4xf16>)
// CHECK-NEXT:    %{{.*}} = rlx.relu_backward %[[DY]], %[[X]] : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.activation_backward gelu %[[DY]], %[[X]] : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.activation_backward log_sigmoid %[[DY]], %[[X]] : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.activation_backward round %[[H]], %[[H]] : tensor<4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.activation_backward erf %[[H]], %[[H]] : tensor<4xf16>
// CHECK-NEXT:    return
func.func @activations(%dy: tensor<2x3xf32>, %x: tensor<2x3xf32>, %h: tensor<4xf16>) {
  %0 = rlx.relu_backward %dy, %x : tensor<2x3xf32>
  %1 = rlx.activation_backward gelu %dy, %x : tensor<2x3xf32>
  %2 = rlx.activation_backward log_sigmoid %dy, %x : tensor<2x3xf32>
  %3 = rlx.activation_backward round %h, %h : tensor<4xf16>
  %4 = rlx.activation_backward erf %h, %h : tensor<4xf16>
  return
}

// CHECK-LABEL: func.func @norms(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<2x3x4xf32>, %[[G:[a-z0-9]+]]: tensor<3xf32>, %[[S:[a-z0-9]+]]: tensor<2x1x4xf32>, %[[H:[a-z0-9]+]]: tensor<5x8xf16>, %[[HG:[a-z0-9]+]]: tensor<8xf16>, %[[HS:[a-z0-9]+]]: tensor<5x1xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.layer_norm_backward %[[X]], %[[X]], %[[G]], %[[S]], %[[S]] axis = 1 : (tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<3xf32>, tensor<2x1x4xf32>, tensor<2x1x4xf32>) -> (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.layer_norm_backward %[[H]], %[[H]], %[[HG]], %[[HS]], %[[HS]] axis = -1 : (tensor<5x8xf16>, tensor<5x8xf16>, tensor<8xf16>, tensor<5x1xf32>, tensor<5x1xf32>) -> (tensor<5x8xf16>, tensor<8xf16>, tensor<8xf16>)
// CHECK-NEXT:    %{{.*}} = rlx.rms_norm_backward %[[X]], %[[X]], %[[G]], %[[S]] axis = -2 : (tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<3xf32>, tensor<2x1x4xf32>) -> (tensor<2x3x4xf32>, tensor<3xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.rms_norm_backward %[[H]], %[[H]], %[[HG]], %[[HS]] axis = 1 with_beta_grad : (tensor<5x8xf16>, tensor<5x8xf16>, tensor<8xf16>, tensor<5x1xf32>) -> (tensor<5x8xf16>, tensor<8xf16>, tensor<8xf16>)
// CHECK-NEXT:    return
func.func @norms(%x: tensor<2x3x4xf32>, %g: tensor<3xf32>, %s: tensor<2x1x4xf32>, %h: tensor<5x8xf16>, %hg: tensor<8xf16>, %hs: tensor<5x1xf32>) {
  %0:3 = rlx.layer_norm_backward %x, %x, %g, %s, %s axis = 1 : (tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<3xf32>, tensor<2x1x4xf32>, tensor<2x1x4xf32>) -> (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>)
  %1:3 = rlx.layer_norm_backward %h, %h, %hg, %hs, %hs axis = -1 : (tensor<5x8xf16>, tensor<5x8xf16>, tensor<8xf16>, tensor<5x1xf32>, tensor<5x1xf32>) -> (tensor<5x8xf16>, tensor<8xf16>, tensor<8xf16>)
  %2:2 = rlx.rms_norm_backward %x, %x, %g, %s axis = -2 : (tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<3xf32>, tensor<2x1x4xf32>) -> (tensor<2x3x4xf32>, tensor<3xf32>)
  %3:3 = rlx.rms_norm_backward %h, %h, %hg, %hs axis = 1 with_beta_grad : (tensor<5x8xf16>, tensor<5x8xf16>, tensor<8xf16>, tensor<5x1xf32>) -> (tensor<5x8xf16>, tensor<8xf16>, tensor<8xf16>)
  return
}

// CHECK-LABEL: func.func @adaptive_norms(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<2x5x8xf32>, %[[S:[a-z0-9]+]]: tensor<2x1x8xf32>, %[[V:[a-z0-9]+]]: tensor<8xf32>, %[[H:[a-z0-9]+]]: tensor<4x8xf16>)
// CHECK-NEXT:    %{{.*}} = rlx.ada_layer_norm_backward layer %[[X]], %[[X]], %[[S]] eps = 1.000000e-05 : (tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<2x1x8xf32>) -> (tensor<2x5x8xf32>, tensor<2x1x8xf32>, tensor<2x1x8xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.ada_layer_norm_backward rms %[[H]], %[[H]], %[[H]] eps = 0.000000e+00 : (tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>) -> (tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>)
// CHECK-NEXT:    %{{.*}} = rlx.gated_residual_backward %[[X]], %[[X]], %[[S]] : (tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<2x1x8xf32>) -> (tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<2x1x8xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.gated_residual_backward %[[X]], %[[X]], %[[V]] : (tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<8xf32>) -> (tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<8xf32>)
// CHECK-NEXT:    return
func.func @adaptive_norms(%x: tensor<2x5x8xf32>, %s: tensor<2x1x8xf32>, %v: tensor<8xf32>, %h: tensor<4x8xf16>) {
  %0:3 = rlx.ada_layer_norm_backward layer %x, %x, %s eps = 1.0e-5 : (tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<2x1x8xf32>) -> (tensor<2x5x8xf32>, tensor<2x1x8xf32>, tensor<2x1x8xf32>)
  %1:3 = rlx.ada_layer_norm_backward rms %h, %h, %h eps = 0.0 : (tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>) -> (tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>)
  %2:3 = rlx.gated_residual_backward %x, %x, %s : (tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<2x1x8xf32>) -> (tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<2x1x8xf32>)
  %3:3 = rlx.gated_residual_backward %x, %x, %v : (tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<8xf32>) -> (tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<8xf32>)
  return
}

// CHECK-LABEL: func.func @channel_norms(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<2x6x3x3xf32>, %[[G:[a-z0-9]+]]: tensor<6xf32>, %[[H:[a-z0-9]+]]: tensor<4x8xf16>, %[[HG:[a-z0-9]+]]: tensor<8xf16>)
// CHECK-NEXT:    %{{.*}} = rlx.group_norm_backward %[[X]], %[[X]], %[[G]] groups = 3 eps = 1.000000e-05 : (tensor<2x6x3x3xf32>, tensor<2x6x3x3xf32>, tensor<6xf32>) -> (tensor<2x6x3x3xf32>, tensor<6xf32>, tensor<6xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.group_norm_backward %[[H]], %[[H]], %[[HG]] groups = 8 eps = 0.000000e+00 : (tensor<4x8xf16>, tensor<4x8xf16>, tensor<8xf16>) -> (tensor<4x8xf16>, tensor<8xf16>, tensor<8xf16>)
// CHECK-NEXT:    %{{.*}} = rlx.batch_norm_inference_backward %[[X]], %[[X]], %[[G]], %[[G]], %[[G]] eps = 1.000000e-05 : (tensor<2x6x3x3xf32>, tensor<2x6x3x3xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) -> (tensor<2x6x3x3xf32>, tensor<6xf32>, tensor<6xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.batch_norm_inference_backward %[[H]], %[[H]], %[[HG]], %[[HG]], %[[HG]] eps = 1.000000e-03 : (tensor<4x8xf16>, tensor<4x8xf16>, tensor<8xf16>, tensor<8xf16>, tensor<8xf16>) -> (tensor<4x8xf16>, tensor<8xf16>, tensor<8xf16>)
// CHECK-NEXT:    return
func.func @channel_norms(%x: tensor<2x6x3x3xf32>, %g: tensor<6xf32>, %h: tensor<4x8xf16>, %hg: tensor<8xf16>) {
  %0:3 = rlx.group_norm_backward %x, %x, %g groups = 3 eps = 1.0e-5 : (tensor<2x6x3x3xf32>, tensor<2x6x3x3xf32>, tensor<6xf32>) -> (tensor<2x6x3x3xf32>, tensor<6xf32>, tensor<6xf32>)
  %1:3 = rlx.group_norm_backward %h, %h, %hg groups = 8 eps = 0.0 : (tensor<4x8xf16>, tensor<4x8xf16>, tensor<8xf16>) -> (tensor<4x8xf16>, tensor<8xf16>, tensor<8xf16>)
  %2:3 = rlx.batch_norm_inference_backward %x, %x, %g, %g, %g eps = 1.0e-5 : (tensor<2x6x3x3xf32>, tensor<2x6x3x3xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) -> (tensor<2x6x3x3xf32>, tensor<6xf32>, tensor<6xf32>)
  %3:3 = rlx.batch_norm_inference_backward %h, %h, %hg, %hg, %hg eps = 1.0e-3 : (tensor<4x8xf16>, tensor<4x8xf16>, tensor<8xf16>, tensor<8xf16>, tensor<8xf16>) -> (tensor<4x8xf16>, tensor<8xf16>, tensor<8xf16>)
  return
}

// CHECK-LABEL: func.func @losses(
// CHECK-SAME:    %[[L:[a-z0-9]+]]: tensor<3x10xf32>, %[[D:[a-z0-9]+]]: tensor<3xf32>, %[[I:[a-z0-9]+]]: tensor<3xi32>, %[[J:[a-z0-9]+]]: tensor<3xi64>, %[[H:[a-z0-9]+]]: tensor<3x10xbf16>, %[[HD:[a-z0-9]+]]: tensor<3xbf16>)
// CHECK-NEXT:    %{{.*}} = rlx.softmax_cross_entropy_backward %[[L]], %[[L]], %[[D]] : (tensor<3x10xf32>, tensor<3x10xf32>, tensor<3xf32>) -> tensor<3x10xf32>
// CHECK-NEXT:    %{{.*}} = rlx.softmax_cross_entropy_with_labels_backward %[[L]], %[[I]], %[[D]] : (tensor<3x10xf32>, tensor<3xi32>, tensor<3xf32>) -> tensor<3x10xf32>
// CHECK-NEXT:    %{{.*}} = rlx.softmax_cross_entropy_with_labels_backward %[[H]], %[[J]], %[[HD]] : (tensor<3x10xbf16>, tensor<3xi64>, tensor<3xbf16>) -> tensor<3x10xbf16>
// CHECK-NEXT:    return
func.func @losses(%l: tensor<3x10xf32>, %d: tensor<3xf32>, %i: tensor<3xi32>, %j: tensor<3xi64>, %h: tensor<3x10xbf16>, %hd: tensor<3xbf16>) {
  %0 = rlx.softmax_cross_entropy_backward %l, %l, %d : (tensor<3x10xf32>, tensor<3x10xf32>, tensor<3xf32>) -> tensor<3x10xf32>
  %1 = rlx.softmax_cross_entropy_with_labels_backward %l, %i, %d : (tensor<3x10xf32>, tensor<3xi32>, tensor<3xf32>) -> tensor<3x10xf32>
  %2 = rlx.softmax_cross_entropy_with_labels_backward %h, %j, %hd : (tensor<3x10xbf16>, tensor<3xi64>, tensor<3xbf16>) -> tensor<3x10xbf16>
  return
}
