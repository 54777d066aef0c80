// RUN: rlx-opt %s --rlx-to-linalg -split-input-file | FileCheck %s

// swiglu: the halves are views (extract_slice) of the input, read by one
// generic; f16 silu is rounded to f16 before the product, like rlx.silu.
// CHECK-LABEL: func.func @swiglu_f16(
// CHECK-SAME:    %[[X:.*]]: tensor<2x8xf16>)
// CHECK-DAG:     %[[UP:.*]] = tensor.extract_slice %[[X]][0, 0] [2, 4] [1, 1]
// CHECK-DAG:     %[[GATE:.*]] = tensor.extract_slice %[[X]][0, 4] [2, 4] [1, 1]
// CHECK:         linalg.generic {{.*}} ins(%[[UP]], %[[GATE]] : tensor<2x4xf16>, tensor<2x4xf16>)
// CHECK:         ^bb0(%[[U:[a-z0-9_]+]]: f16, %[[G:[a-z0-9_]+]]: f16, %{{[a-z0-9_]+}}: f16):
// CHECK-DAG:       %[[UF:.*]] = arith.extf %[[U]] : f16 to f32
// CHECK-DAG:       %[[GF:.*]] = arith.extf %[[G]] : f16 to f32
// CHECK:           math.exp
// CHECK:           %[[SILU:.*]] = arith.mulf %[[GF]], %{{.*}} : f32
// CHECK:           %[[SH:.*]] = arith.truncf %[[SILU]] : f32 to f16
// CHECK:           %[[SF:.*]] = arith.extf %[[SH]] : f16 to f32
// CHECK:           %[[P:.*]] = arith.mulf %[[SF]], %[[UF]] : f32
// CHECK:           %[[R:.*]] = arith.truncf %[[P]] : f32 to f16
// CHECK-NEXT:      linalg.yield %[[R]] : f16
// CHECK-NOT:     linalg.generic
func.func @swiglu_f16(%x: tensor<2x8xf16>) -> tensor<2x4xf16> {
  %0 = rlx.swiglu %x : tensor<2x8xf16> -> tensor<2x4xf16>
  return %0 : tensor<2x4xf16>
}

// -----

// gate_first swaps the halves.
// CHECK-LABEL: func.func @swiglu_gate_first(
// CHECK-SAME:    %[[X:.*]]: tensor<6xf32>)
// CHECK-DAG:     %[[UP:.*]] = tensor.extract_slice %[[X]][3] [3] [1]
// CHECK-DAG:     %[[GATE:.*]] = tensor.extract_slice %[[X]][0] [3] [1]
// CHECK:         linalg.generic {{.*}} ins(%[[UP]], %[[GATE]] : tensor<3xf32>, tensor<3xf32>)
func.func @swiglu_gate_first(%x: tensor<6xf32>) -> tensor<3xf32> {
  %0 = rlx.swiglu %x gate_first : tensor<6xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// matmul_bias_act: the matmul accumulates in f32, then one elementwise
// generic rounds the product to f16, adds the bias (read along the last
// axis) and rounds, applies gelu (rlx.gelu's formula) and rounds, as the
// unfused matmul, add and gelu store their results.
// CHECK-DAG:   #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG:   #[[LAST:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @matmul_bias_act_f16(
// CHECK-SAME:    %[[A:.*]]: tensor<4x8xf16>, %[[B:.*]]: tensor<8x6xf16>, %[[BIAS:.*]]: tensor<6xf16>)
// CHECK:         %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4x6xf32>)
// CHECK:         %[[ACC:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<4x8xf16>, tensor<8x6xf16>) outs(%[[FILL]] : tensor<4x6xf32>)
// CHECK:         linalg.generic {indexing_maps = [#[[ID]], #[[LAST]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:        ins(%[[ACC]], %[[BIAS]] : tensor<4x6xf32>, tensor<6xf16>)
// CHECK:         ^bb0(%[[P:[a-z0-9_]+]]: f32, %[[BI:[a-z0-9_]+]]: f16, %{{[a-z0-9_]+}}: f16):
// CHECK:           %[[PH:.*]] = arith.truncf %[[P]] : f32 to f16
// CHECK:           %[[PF:.*]] = arith.extf %[[PH]] : f16 to f32
// CHECK:           %[[BF:.*]] = arith.extf %[[BI]] : f16 to f32
// CHECK:           %[[S:.*]] = arith.addf %[[PF]], %[[BF]] : f32
// CHECK:           %[[SH:.*]] = arith.truncf %[[S]] : f32 to f16
// CHECK:           %[[SF:.*]] = arith.extf %[[SH]] : f16 to f32
// CHECK:           math.erf
// CHECK:           %[[G:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK:           %[[R:.*]] = arith.truncf %[[G]] : f32 to f16
// CHECK-NEXT:      linalg.yield %[[R]] : f16
// CHECK-NOT:     linalg.generic
func.func @matmul_bias_act_f16(%a: tensor<4x8xf16>, %b: tensor<8x6xf16>, %bias: tensor<6xf16>) -> tensor<4x6xf16> {
  %0 = rlx.matmul_bias_act %a, %b, %bias activation = gelu
      : (tensor<4x8xf16>, tensor<8x6xf16>, tensor<6xf16>) -> tensor<4x6xf16>
  return %0 : tensor<4x6xf16>
}

// -----

// matmul_residual, batched with a broadcast batch: the contraction generic
// of rlx.matmul, then an f32 epilogue that is one add.
// CHECK-DAG:   #[[ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @matmul_residual(
// CHECK-SAME:    %[[A:.*]]: tensor<2x4x8xf32>, %[[B:.*]]: tensor<8x6xf32>, %[[R:.*]]: tensor<2x4x6xf32>)
// CHECK:         %[[ACC:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[A]], %[[B]] :
// CHECK:         linalg.generic {indexing_maps = [#[[ID]], #[[ID]], #[[ID]]], {{.*}} ins(%[[ACC]], %[[R]] : tensor<2x4x6xf32>, tensor<2x4x6xf32>)
// CHECK:         ^bb0(%[[P:[a-z0-9_]+]]: f32, %[[Q:[a-z0-9_]+]]: f32, %{{[a-z0-9_]+}}: f32):
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[P]], %[[Q]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
func.func @matmul_residual(%a: tensor<2x4x8xf32>, %b: tensor<8x6xf32>, %r: tensor<2x4x6xf32>) -> tensor<2x4x6xf32> {
  %0 = rlx.matmul_residual %a, %b, %r
      : (tensor<2x4x8xf32>, tensor<8x6xf32>, tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  return %0 : tensor<2x4x6xf32>
}

// -----

// conv_bias_act: rlx.conv's lowering (pad, named convolution), then one
// epilogue: bias along the channels, residual, relu.
// CHECK-DAG:   #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG:   #[[CH:.*]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @conv_bias_act(
// CHECK-SAME:    %[[X:.*]]: tensor<1x3x8x8xf32>, %[[W:.*]]: tensor<4x3x3x3xf32>, %[[BIAS:.*]]: tensor<4xf32>, %[[R:.*]]: tensor<1x4x8x8xf32>)
// CHECK:         %[[PAD:.*]] = tensor.pad %[[X]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK:         %[[ACC:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[PAD]], %[[W]] :
// CHECK:         linalg.generic {indexing_maps = [#[[ID]], #[[CH]], #[[ID]], #[[ID]]], {{.*}} ins(%[[ACC]], %[[BIAS]], %[[R]] :
// CHECK:         ^bb0(%[[P:[a-z0-9_]+]]: f32, %[[BI:[a-z0-9_]+]]: f32, %[[RE:[a-z0-9_]+]]: f32, %{{[a-z0-9_]+}}: f32):
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[P]], %[[BI]] : f32
// CHECK-NEXT:      %[[T:.*]] = arith.addf %[[S]], %[[RE]] : f32
// CHECK:           %[[M:.*]] = arith.maximumf %[[T]], %{{.*}} : f32
// CHECK-NEXT:      linalg.yield %[[M]] : f32
// CHECK-NOT:     linalg.generic
func.func @conv_bias_act(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %bias: tensor<4xf32>,
                         %r: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %0 = rlx.conv_bias_act %x, %w, %bias, %r stride = [1, 1] padding = [1, 1, 1, 1]
      dilation = [1, 1] groups = 1 activation = relu
      : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %0 : tensor<1x4x8x8xf32>
}

// -----

// Every ActivationKind lowers through its rlx op's formula.
// CHECK-LABEL: func.func @every_activation(
// CHECK-NOT:     rlx.
// CHECK:         math.erf
// CHECK:         math.tanh
// CHECK:         math.expm1
// CHECK:         math.log1p
// CHECK:         return
func.func @every_activation(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %c: tensor<4xf32>)
    -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>,
        tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>,
        tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  %0 = rlx.matmul_bias_act %a, %b, %c activation = gelu : (tensor<2x3xf32>, tensor<3x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %1 = rlx.matmul_bias_act %a, %b, %c activation = gelu_approx : (tensor<2x3xf32>, tensor<3x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %2 = rlx.matmul_bias_act %a, %b, %c activation = silu : (tensor<2x3xf32>, tensor<3x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %3 = rlx.matmul_bias_act %a, %b, %c activation = relu : (tensor<2x3xf32>, tensor<3x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %4 = rlx.matmul_bias_act %a, %b, %c activation = sigmoid : (tensor<2x3xf32>, tensor<3x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %5 = rlx.matmul_bias_act %a, %b, %c activation = tanh : (tensor<2x3xf32>, tensor<3x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %6 = rlx.matmul_bias_act %a, %b, %c activation = elu : (tensor<2x3xf32>, tensor<3x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %7 = rlx.matmul_bias_act %a, %b, %c activation = mish : (tensor<2x3xf32>, tensor<3x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %8 = rlx.matmul_bias_act %a, %b, %c activation = softplus : (tensor<2x3xf32>, tensor<3x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %9 = rlx.matmul_bias_act %a, %b, %c activation = hard_swish : (tensor<2x3xf32>, tensor<3x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %10 = rlx.matmul_bias_act %a, %b, %c activation = hard_sigmoid : (tensor<2x3xf32>, tensor<3x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %11 = rlx.matmul_bias_act %a, %b, %c activation = softsign : (tensor<2x3xf32>, tensor<3x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %12 = rlx.matmul_bias_act %a, %b, %c activation = log_sigmoid : (tensor<2x3xf32>, tensor<3x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12
      : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>,
        tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>,
        tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
}

// -----

// lora_matmul lowers as its expansion: the main product, the adapter's two
// products, the scale and the sum.
// CHECK-LABEL: func.func @lora_matmul(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<4x8xf32>, %[[W:[a-z0-9]+]]: tensor<8x6xf32>, %[[A:[a-z0-9]+]]: tensor<8x2xf32>, %[[B:[a-z0-9]+]]: tensor<2x6xf32>)
// CHECK:         %[[P:.*]] = linalg.matmul ins(%[[X]], %[[W]] : tensor<4x8xf32>, tensor<8x6xf32>)
// CHECK:         %[[D:.*]] = linalg.matmul ins(%[[X]], %[[A]] : tensor<4x8xf32>, tensor<8x2xf32>)
// CHECK:         %[[U:.*]] = linalg.matmul ins(%[[D]], %[[B]] : tensor<4x2xf32>, tensor<2x6xf32>)
// CHECK:         %[[S:.*]] = linalg.generic {{.*}} ins(%[[U]], %{{.*}} : tensor<4x6xf32>, tensor<f32>)
// CHECK:           arith.mulf
// CHECK:         linalg.generic {{.*}} ins(%[[P]], %[[S]] : tensor<4x6xf32>, tensor<4x6xf32>)
// CHECK:           arith.addf
func.func @lora_matmul(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>, %a: tensor<8x2xf32>, %b: tensor<2x6xf32>) -> tensor<4x6xf32> {
  %0 = rlx.lora_matmul %x, %w, %a, %b scale = 2.0
      : (tensor<4x8xf32>, tensor<8x6xf32>, tensor<8x2xf32>, tensor<2x6xf32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}
