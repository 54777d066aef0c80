// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// CHECK-LABEL: func.func @swiglu(
// CHECK:         rlx.swiglu %{{.*}} : tensor<4x16xf32> -> tensor<4x8xf32>
// CHECK:         rlx.swiglu %{{.*}} gate_first : tensor<2x3x6xf16> -> tensor<2x3x3xf16>
// CHECK:         rlx.swiglu %{{.*}} : tensor<2xbf16> -> tensor<1xbf16>
func.func @swiglu(%a: tensor<4x16xf32>, %b: tensor<2x3x6xf16>, %c: tensor<2xbf16>)
    -> (tensor<4x8xf32>, tensor<2x3x3xf16>, tensor<1xbf16>) {
  %0 = rlx.swiglu %a : tensor<4x16xf32> -> tensor<4x8xf32>
  %1 = rlx.swiglu %b gate_first : tensor<2x3x6xf16> -> tensor<2x3x3xf16>
  %2 = rlx.swiglu %c : tensor<2xbf16> -> tensor<1xbf16>
  return %0, %1, %2 : tensor<4x8xf32>, tensor<2x3x3xf16>, tensor<1xbf16>
}

// CHECK-LABEL: func.func @matmul_bias_act(
// CHECK:         rlx.matmul_bias_act %{{.*}}, %{{.*}}, %{{.*}} activation = gelu : (tensor<4x8xf32>, tensor<8x6xf32>, tensor<6xf32>) -> tensor<4x6xf32>
// CHECK:         rlx.matmul_bias_act %{{.*}}, %{{.*}}, %{{.*}} : (tensor<3x1x4x8xf16>, tensor<2x8x5xf16>, tensor<5xf16>) -> tensor<3x2x4x5xf16>
// CHECK:         rlx.matmul_bias_act %{{.*}}, %{{.*}}, %{{.*}} activation = log_sigmoid : (tensor<4x8xbf16>, tensor<8x6xbf16>, tensor<6xbf16>) -> tensor<4x6xbf16>
func.func @matmul_bias_act(%a: tensor<4x8xf32>, %b: tensor<8x6xf32>, %bias: tensor<6xf32>,
                           %c: tensor<3x1x4x8xf16>, %d: tensor<2x8x5xf16>, %e: tensor<5xf16>,
                           %f: tensor<4x8xbf16>, %g: tensor<8x6xbf16>, %h: tensor<6xbf16>)
    -> (tensor<4x6xf32>, tensor<3x2x4x5xf16>, tensor<4x6xbf16>) {
  %0 = rlx.matmul_bias_act %a, %b, %bias activation = gelu
      : (tensor<4x8xf32>, tensor<8x6xf32>, tensor<6xf32>) -> tensor<4x6xf32>
  %1 = rlx.matmul_bias_act %c, %d, %e
      : (tensor<3x1x4x8xf16>, tensor<2x8x5xf16>, tensor<5xf16>) -> tensor<3x2x4x5xf16>
  %2 = rlx.matmul_bias_act %f, %g, %h activation = log_sigmoid
      : (tensor<4x8xbf16>, tensor<8x6xbf16>, tensor<6xbf16>) -> tensor<4x6xbf16>
  return %0, %1, %2 : tensor<4x6xf32>, tensor<3x2x4x5xf16>, tensor<4x6xbf16>
}

// CHECK-LABEL: func.func @matmul_residual(
// CHECK:         rlx.matmul_residual %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x4x8xf32>, tensor<8x6xf32>, tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
func.func @matmul_residual(%a: tensor<2x4x8xf32>, %b: tensor<8x6xf32>, %r: tensor<2x4x6xf32>)
    -> tensor<2x4x6xf32> {
  %0 = rlx.matmul_residual %a, %b, %r
      : (tensor<2x4x8xf32>, tensor<8x6xf32>, tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  return %0 : tensor<2x4x6xf32>
}

// CHECK-LABEL: func.func @conv_bias_act(
// CHECK:         rlx.conv_bias_act %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} stride = [2, 2] padding = [1, 0, 1, 0] dilation = [1, 1] groups = 2 activation = relu : (tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>, tensor<1x6x4x4xf32>) -> tensor<1x6x4x4xf32>
// CHECK:         rlx.conv_bias_act %{{.*}}, %{{.*}}, %{{.*}} stride = [1] padding = [0, 0] dilation = [2] groups = 1 : (tensor<2x3x9xf16>, tensor<5x3x2xf16>, tensor<5xf16>) -> tensor<2x5x7xf16>
func.func @conv_bias_act(%x: tensor<1x4x8x8xf32>, %w: tensor<6x2x3x3xf32>, %bias: tensor<6xf32>,
                         %r: tensor<1x6x4x4xf32>, %x1: tensor<2x3x9xf16>, %w1: tensor<5x3x2xf16>,
                         %b1: tensor<5xf16>) -> (tensor<1x6x4x4xf32>, tensor<2x5x7xf16>) {
  %0 = rlx.conv_bias_act %x, %w, %bias, %r stride = [2, 2] padding = [1, 0, 1, 0]
      dilation = [1, 1] groups = 2 activation = relu
      : (tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>, tensor<1x6x4x4xf32>) -> tensor<1x6x4x4xf32>
  %1 = rlx.conv_bias_act %x1, %w1, %b1 stride = [1] padding = [0, 0] dilation = [2] groups = 1
      : (tensor<2x3x9xf16>, tensor<5x3x2xf16>, tensor<5xf16>) -> tensor<2x5x7xf16>
  return %0, %1 : tensor<1x6x4x4xf32>, tensor<2x5x7xf16>
}

// CHECK-LABEL: func.func @residual_norms(
// CHECK:         %{{.*}}, %{{.*}} = rlx.residual_layer_norm %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} axis = -1 eps = 1.000000e-05 : (tensor<4x8xf16>, tensor<4x8xf16>, tensor<8xf16>, tensor<8xf16>) -> (tensor<4x8xf16>, tensor<4x8xf16>)
// CHECK:         %{{.*}}, %{{.*}} = rlx.residual_rms_norm %{{.*}}, %{{.*}}, %{{.*}} axis = 1 eps = 0.000000e+00 : (tensor<2x3x5xf32>, tensor<2x3x5xf32>, tensor<3xf32>) -> (tensor<2x3x5xf32>, tensor<2x3x5xf32>)
// CHECK:         %{{.*}}, %{{.*}} = rlx.residual_rms_norm %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} axis = 0 eps
func.func @residual_norms(%x: tensor<4x8xf16>, %r: tensor<4x8xf16>, %g: tensor<8xf16>, %b: tensor<8xf16>,
                          %y: tensor<2x3x5xf32>, %s: tensor<2x3x5xf32>, %h: tensor<3xf32>, %k: tensor<2xf32>) {
  %0:2 = rlx.residual_layer_norm %x, %r, %g, %b axis = -1 eps = 1.0e-5 : (tensor<4x8xf16>, tensor<4x8xf16>, tensor<8xf16>, tensor<8xf16>) -> (tensor<4x8xf16>, tensor<4x8xf16>)
  %1:2 = rlx.residual_rms_norm %y, %s, %h axis = 1 eps = 0.0 : (tensor<2x3x5xf32>, tensor<2x3x5xf32>, tensor<3xf32>) -> (tensor<2x3x5xf32>, tensor<2x3x5xf32>)
  %2:2 = rlx.residual_rms_norm %y, %s, %k, %k axis = 0 eps = 1.0e-6 : (tensor<2x3x5xf32>, tensor<2x3x5xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2x3x5xf32>, tensor<2x3x5xf32>)
  return
}

// CHECK-LABEL: func.func @lora_matmul(
// CHECK:         rlx.lora_matmul %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} scale = 2.000000e+00 : (tensor<?x3x8xf32>, tensor<8x6xf32>, tensor<8x2xf32>, tensor<2x6xf32>) -> tensor<?x3x6xf32>
func.func @lora_matmul(%x: tensor<?x3x8xf32>, %w: tensor<8x6xf32>, %a: tensor<8x2xf32>, %b: tensor<2x6xf32>) -> tensor<?x3x6xf32> {
  %0 = rlx.lora_matmul %x, %w, %a, %b scale = 2.0
      : (tensor<?x3x8xf32>, tensor<8x6xf32>, tensor<8x2xf32>, tensor<2x6xf32>) -> tensor<?x3x6xf32>
  return %0 : tensor<?x3x6xf32>
}
