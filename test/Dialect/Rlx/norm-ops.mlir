// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// Round-trip of every normalization, rotary embedding and loss op through the
// custom and the generic form.

// CHECK-LABEL: func.func @layer_norm(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<2x3x4xf32>, %[[G:[a-z0-9]+]]: tensor<4xf32>, %[[B:[a-z0-9]+]]: tensor<4xf32>, %[[G3:[a-z0-9]+]]: tensor<3xf32>, %[[H:[a-z0-9]+]]: tensor<5x8xf16>, %[[HG:[a-z0-9]+]]: tensor<8xf16>)
// CHECK-NEXT:    %{{.*}} = rlx.layer_norm %[[X]], %[[G]], %[[B]] axis = -1 eps = 1.000000e-05 : (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:    %{{.*}} = rlx.layer_norm %[[X]], %[[G3]], %[[G3]] axis = 1 eps = 0.000000e+00 : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:    %{{.*}} = rlx.layer_norm %[[H]], %[[HG]], %[[HG]] axis = 1 eps = 5.000000e-01 : (tensor<5x8xf16>, tensor<8xf16>, tensor<8xf16>) -> tensor<5x8xf16>
// CHECK-NEXT:    %{{.*}}, %{{.*}}:2 = rlx.layer_norm %[[X]], %[[G3]], %[[G3]] axis = -2 eps = 1.000000e-05 with_statistics : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3x4xf32>, tensor<2x1x4xf32>, tensor<2x1x4xf32>)
// CHECK-NEXT:    %{{.*}}, %{{.*}}:2 = rlx.layer_norm %[[H]], %[[HG]], %[[HG]] axis = 1 eps = 1.000000e-05 with_statistics : (tensor<5x8xf16>, tensor<8xf16>, tensor<8xf16>) -> (tensor<5x8xf16>, tensor<5x1xf32>, tensor<5x1xf32>)
// CHECK-NEXT:    return
func.func @layer_norm(%x: tensor<2x3x4xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>, %g3: tensor<3xf32>, %h: tensor<5x8xf16>, %hg: tensor<8xf16>) {
  %0 = rlx.layer_norm %x, %g, %b axis = -1 eps = 1.0e-5 : (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  %1 = rlx.layer_norm %x, %g3, %g3 axis = 1 eps = 0.0 : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
  %2 = rlx.layer_norm %h, %hg, %hg axis = 1 eps = 5.0e-1 : (tensor<5x8xf16>, tensor<8xf16>, tensor<8xf16>) -> tensor<5x8xf16>
  %3:3 = rlx.layer_norm %x, %g3, %g3 axis = -2 eps = 1.0e-5 with_statistics : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3x4xf32>, tensor<2x1x4xf32>, tensor<2x1x4xf32>)
  %4:3 = rlx.layer_norm %h, %hg, %hg axis = 1 eps = 1.0e-5 with_statistics : (tensor<5x8xf16>, tensor<8xf16>, tensor<8xf16>) -> (tensor<5x8xf16>, tensor<5x1xf32>, tensor<5x1xf32>)
  return
}

// CHECK-LABEL: func.func @rms_norm(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<2x4xbf16>, %[[G:[a-z0-9]+]]: tensor<4xbf16>, %[[B:[a-z0-9]+]]: tensor<4xbf16>, %[[V:[a-z0-9]+]]: tensor<4xf64>)
// CHECK-NEXT:    %{{.*}} = rlx.rms_norm %[[X]], %[[G]] axis = -1 eps = 5.000000e-01 : (tensor<2x4xbf16>, tensor<4xbf16>) -> tensor<2x4xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.rms_norm %[[X]], %[[G]], %[[B]] axis = 1 eps = 5.000000e-01 : (tensor<2x4xbf16>, tensor<4xbf16>, tensor<4xbf16>) -> tensor<2x4xbf16>
// CHECK-NEXT:    %{{.*}}, %{{.*}} = rlx.rms_norm %[[X]], %[[G]] axis = 1 eps = 5.000000e-01 with_statistics : (tensor<2x4xbf16>, tensor<4xbf16>) -> (tensor<2x4xbf16>, tensor<2x1xf32>)
// CHECK-NEXT:    %{{.*}}, %{{.*}} = rlx.rms_norm %[[V]], %[[V]], %[[V]] axis = 0 eps = 5.000000e-01 with_statistics : (tensor<4xf64>, tensor<4xf64>, tensor<4xf64>) -> (tensor<4xf64>, tensor<1xf64>)
// CHECK-NEXT:    return
func.func @rms_norm(%x: tensor<2x4xbf16>, %g: tensor<4xbf16>, %b: tensor<4xbf16>, %v: tensor<4xf64>) {
  %0 = rlx.rms_norm %x, %g axis = -1 eps = 5.0e-1 : (tensor<2x4xbf16>, tensor<4xbf16>) -> tensor<2x4xbf16>
  %1 = rlx.rms_norm %x, %g, %b axis = 1 eps = 5.0e-1 : (tensor<2x4xbf16>, tensor<4xbf16>, tensor<4xbf16>) -> tensor<2x4xbf16>
  %2:2 = rlx.rms_norm %x, %g axis = 1 eps = 5.0e-1 with_statistics : (tensor<2x4xbf16>, tensor<4xbf16>) -> (tensor<2x4xbf16>, tensor<2x1xf32>)
  %3:2 = rlx.rms_norm %v, %v, %v axis = 0 eps = 5.0e-1 with_statistics : (tensor<4xf64>, tensor<4xf64>, tensor<4xf64>) -> (tensor<4xf64>, tensor<1xf64>)
  return
}

// CHECK-LABEL: func.func @channel_norms(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<2x6x3x3xf64>, %[[P:[a-z0-9]+]]: tensor<6xf64>, %[[Y:[a-z0-9]+]]: tensor<4x6xf64>)
// CHECK-NEXT:    %{{.*}} = rlx.group_norm %[[X]], %[[P]], %[[P]] groups = 3 eps = 1.000000e-05 : (tensor<2x6x3x3xf64>, tensor<6xf64>, tensor<6xf64>) -> tensor<2x6x3x3xf64>
// CHECK-NEXT:    %{{.*}} = rlx.group_norm %[[Y]], %[[P]], %[[P]] groups = 6 eps = 1.000000e-05 : (tensor<4x6xf64>, tensor<6xf64>, tensor<6xf64>) -> tensor<4x6xf64>
// CHECK-NEXT:    %{{.*}} = rlx.layer_norm2d %[[X]], %[[P]], %[[P]] eps = 5.000000e-01 : (tensor<2x6x3x3xf64>, tensor<6xf64>, tensor<6xf64>) -> tensor<2x6x3x3xf64>
// CHECK-NEXT:    %{{.*}} = rlx.batch_norm_inference %[[X]], %[[P]], %[[P]], %[[P]], %[[P]] eps = 1.000000e-05 : (tensor<2x6x3x3xf64>, tensor<6xf64>, tensor<6xf64>, tensor<6xf64>, tensor<6xf64>) -> tensor<2x6x3x3xf64>
// CHECK-NEXT:    %{{.*}} = rlx.batch_norm_inference %[[Y]], %[[P]], %[[P]], %[[P]], %[[P]] eps = 0.000000e+00 : (tensor<4x6xf64>, tensor<6xf64>, tensor<6xf64>, tensor<6xf64>, tensor<6xf64>) -> tensor<4x6xf64>
// CHECK-NEXT:    return
func.func @channel_norms(%x: tensor<2x6x3x3xf64>, %p: tensor<6xf64>, %y: tensor<4x6xf64>) {
  %0 = rlx.group_norm %x, %p, %p groups = 3 eps = 1.0e-5 : (tensor<2x6x3x3xf64>, tensor<6xf64>, tensor<6xf64>) -> tensor<2x6x3x3xf64>
  %1 = rlx.group_norm %y, %p, %p groups = 6 eps = 1.0e-5 : (tensor<4x6xf64>, tensor<6xf64>, tensor<6xf64>) -> tensor<4x6xf64>
  %2 = rlx.layer_norm2d %x, %p, %p eps = 5.0e-1 : (tensor<2x6x3x3xf64>, tensor<6xf64>, tensor<6xf64>) -> tensor<2x6x3x3xf64>
  %3 = rlx.batch_norm_inference %x, %p, %p, %p, %p eps = 1.0e-5 : (tensor<2x6x3x3xf64>, tensor<6xf64>, tensor<6xf64>, tensor<6xf64>, tensor<6xf64>) -> tensor<2x6x3x3xf64>
  %4 = rlx.batch_norm_inference %y, %p, %p, %p, %p eps = 0.0 : (tensor<4x6xf64>, tensor<6xf64>, tensor<6xf64>, tensor<6xf64>, tensor<6xf64>) -> tensor<4x6xf64>
  return
}

// CHECK-LABEL: func.func @modulation(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<2x5x8xf32>, %[[M:[a-z0-9]+]]: tensor<2x1x8xf32>, %[[V:[a-z0-9]+]]: tensor<8xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.ada_layer_norm layer %[[X]], %[[M]], %[[M]] eps = 5.000000e-01 : (tensor<2x5x8xf32>, tensor<2x1x8xf32>, tensor<2x1x8xf32>) -> tensor<2x5x8xf32>
// CHECK-NEXT:    %{{.*}} = rlx.ada_layer_norm rms %[[X]], %[[V]], %[[V]] eps = 5.000000e-01 : (tensor<2x5x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x5x8xf32>
// CHECK-NEXT:    %{{.*}} = rlx.gated_residual %[[X]], %[[X]], %[[M]] : (tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<2x1x8xf32>) -> tensor<2x5x8xf32>
// CHECK-NEXT:    %{{.*}} = rlx.gated_residual %[[X]], %[[X]], %[[V]] : (tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<8xf32>) -> tensor<2x5x8xf32>
// CHECK-NEXT:    return
func.func @modulation(%x: tensor<2x5x8xf32>, %m: tensor<2x1x8xf32>, %v: tensor<8xf32>) {
  %0 = rlx.ada_layer_norm layer %x, %m, %m eps = 5.0e-1 : (tensor<2x5x8xf32>, tensor<2x1x8xf32>, tensor<2x1x8xf32>) -> tensor<2x5x8xf32>
  %1 = rlx.ada_layer_norm rms %x, %v, %v eps = 5.0e-1 : (tensor<2x5x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x5x8xf32>
  %2 = rlx.gated_residual %x, %x, %m : (tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<2x1x8xf32>) -> tensor<2x5x8xf32>
  %3 = rlx.gated_residual %x, %x, %v : (tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<8xf32>) -> tensor<2x5x8xf32>
  return
}

// CHECK-LABEL: func.func @rope(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<2x5x16xf16>, %[[C:[a-z0-9]+]]: tensor<5x4xf16>, %[[C2:[a-z0-9]+]]: tensor<5x2xf16>)
// CHECK-NEXT:    %{{.*}} = rlx.rope neox bsd %[[X]], %[[C]], %[[C]] head_dim = 8, n_rot = 8 : (tensor<2x5x16xf16>, tensor<5x4xf16>, tensor<5x4xf16>) -> tensor<2x5x16xf16>
// CHECK-NEXT:    %{{.*}} = rlx.rope gptj bsd %[[X]], %[[C2]], %[[C2]] head_dim = 16, n_rot = 4 : (tensor<2x5x16xf16>, tensor<5x2xf16>, tensor<5x2xf16>) -> tensor<2x5x16xf16>
// CHECK-NEXT:    return
func.func @rope(%x: tensor<2x5x16xf16>, %c: tensor<5x4xf16>, %c2: tensor<5x2xf16>) {
  %0 = rlx.rope neox bsd %x, %c, %c head_dim = 8, n_rot = 8 : (tensor<2x5x16xf16>, tensor<5x4xf16>, tensor<5x4xf16>) -> tensor<2x5x16xf16>
  %1 = rlx.rope gptj bsd %x, %c2, %c2 head_dim = 16, n_rot = 4 : (tensor<2x5x16xf16>, tensor<5x2xf16>, tensor<5x2xf16>) -> tensor<2x5x16xf16>
  return
}

// Each layout reads the positions from its own axis: S = 5 in both.
// CHECK-LABEL: func.func @rope_layouts(
// CHECK-NEXT:    %{{.*}} = rlx.rope neox bshd %{{.*}} head_dim = 8, n_rot = 8 : (tensor<2x5x3x8xf32>, tensor<5x4xf32>, tensor<5x4xf32>) -> tensor<2x5x3x8xf32>
// CHECK-NEXT:    %{{.*}} = rlx.rope gptj bhsd %{{.*}} head_dim = 8, n_rot = 6 : (tensor<2x3x5x8xf32>, tensor<5x3xf32>, tensor<5x3xf32>) -> tensor<2x3x5x8xf32>
// CHECK-NEXT:    %{{.*}} = rlx.rope_backward neox bshd %{{.*}} head_dim = 8, n_rot = 8 : (tensor<2x5x3x8xf32>, tensor<5x4xf32>, tensor<5x4xf32>) -> tensor<2x5x3x8xf32>
func.func @rope_layouts(%x: tensor<2x5x3x8xf32>, %y: tensor<2x3x5x8xf32>, %c: tensor<5x4xf32>, %c3: tensor<5x3xf32>) {
  %0 = rlx.rope neox bshd %x, %c, %c head_dim = 8, n_rot = 8 : (tensor<2x5x3x8xf32>, tensor<5x4xf32>, tensor<5x4xf32>) -> tensor<2x5x3x8xf32>
  %1 = rlx.rope gptj bhsd %y, %c3, %c3 head_dim = 8, n_rot = 6 : (tensor<2x3x5x8xf32>, tensor<5x3xf32>, tensor<5x3xf32>) -> tensor<2x3x5x8xf32>
  %2 = rlx.rope_backward neox bshd %x, %c, %c head_dim = 8, n_rot = 8 : (tensor<2x5x3x8xf32>, tensor<5x4xf32>, tensor<5x4xf32>) -> tensor<2x5x3x8xf32>
  return
}

// CHECK-LABEL: func.func @losses(
// CHECK-SAME:    %[[L:[a-z0-9]+]]: tensor<3x10xf32>, %[[I:[a-z0-9]+]]: tensor<3xi32>, %[[J:[a-z0-9]+]]: tensor<3xi64>)
// CHECK-NEXT:    %{{.*}} = rlx.softmax_cross_entropy %[[L]], %[[L]] : (tensor<3x10xf32>, tensor<3x10xf32>) -> tensor<3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.softmax_cross_entropy_with_labels %[[L]], %[[I]] : (tensor<3x10xf32>, tensor<3xi32>) -> tensor<3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.softmax_cross_entropy_with_labels %[[L]], %[[J]] : (tensor<3x10xf32>, tensor<3xi64>) -> tensor<3xf32>
// CHECK-NEXT:    return
func.func @losses(%l: tensor<3x10xf32>, %i: tensor<3xi32>, %j: tensor<3xi64>) {
  %0 = rlx.softmax_cross_entropy %l, %l : (tensor<3x10xf32>, tensor<3x10xf32>) -> tensor<3xf32>
  %1 = rlx.softmax_cross_entropy_with_labels %l, %i : (tensor<3x10xf32>, tensor<3xi32>) -> tensor<3xf32>
  %2 = rlx.softmax_cross_entropy_with_labels %l, %j : (tensor<3x10xf32>, tensor<3xi64>) -> tensor<3xf32>
  return
}
