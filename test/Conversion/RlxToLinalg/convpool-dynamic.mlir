// RUN: rlx-opt %s --rlx-to-linalg --canonicalize --cse | FileCheck %s

// `?` batch and image sizes: a window op's output sizes come from its padded
// input, (X - window) floordiv stride + 1; a ceil_mode pool pads its input's
// high end further by (-span) mod stride, computed; a global average divides
// by the run-time count of positions.
// CHECK-DAG:   #[[OUT:map[0-9]*]] = affine_map<()[s0] -> ((s0 - 3) floordiv 2 + 1)>
// CHECK-DAG:   #[[CEIL_PAD:map[0-9]*]] = affine_map<()[s0] -> ((-((s0 - 3) floordiv 2)) mod 2 + 1)>
// CHECK-DAG:   #[[COUNT:map[0-9]*]] = affine_map<()[s0, s1] -> (s0 * s1)>
// CHECK-LABEL: func.func @dynamic_spatial(
// CHECK:         %[[PADDED:.*]] = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK:         %[[N:.*]] = tensor.dim %[[PADDED]], %c0
// CHECK:         %[[PH:.*]] = tensor.dim %[[PADDED]], %c2
// CHECK:         %[[OH:.*]] = affine.apply #[[OUT]]()[%[[PH]]]
// CHECK:         %[[PW:.*]] = tensor.dim %[[PADDED]], %c3
// CHECK:         %[[OW:.*]] = affine.apply #[[OUT]]()[%[[PW]]]
// CHECK:         %[[INIT:.*]] = tensor.empty(%[[N]], %[[OH]], %[[OW]]) : tensor<?x4x?x?xf32>
// CHECK:         %[[FILLED:.*]] = linalg.fill {{.*}} outs(%[[INIT]]
// CHECK:         %[[CONV:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[PADDED]], %arg1 : tensor<?x3x?x?xf32>, tensor<4x3x3x3xf32>) outs(%[[FILLED]] : tensor<?x4x?x?xf32>)
// CHECK:         %[[HIGH_H:.*]] = affine.apply #[[CEIL_PAD]]()[%[[PH]]]
// CHECK:         %[[HIGH_W:.*]] = affine.apply #[[CEIL_PAD]]()[%[[PW]]]
// CHECK:         tensor.pad %[[CONV]] low[0, 0, 1, 1] high[0, 0, %[[HIGH_H]], %[[HIGH_W]]]
// CHECK:         linalg.pooling_nchw_sum
// CHECK:         %[[H:.*]] = tensor.dim %arg0, %c2
// CHECK:         %[[W:.*]] = tensor.dim %arg0, %c3
// CHECK:         %[[POSITIONS:.*]] = affine.apply #[[COUNT]]()[%[[H]], %[[W]]]
// CHECK:         %[[COUNT_I64:.*]] = arith.index_cast %[[POSITIONS]] : index to i64
// CHECK:         linalg.generic
// CHECK:           arith.sitofp %[[COUNT_I64]] : i64 to f32
func.func @dynamic_spatial(%x: tensor<?x3x?x?xf32>, %w: tensor<4x3x3x3xf32>) -> (tensor<?x4x?x?xf32>, tensor<?x3x1x1xf32>) {
  %0 = rlx.conv %x, %w stride = [2, 2] padding = [1, 1, 1, 1] dilation = [1, 1] groups = 1 : (tensor<?x3x?x?xf32>, tensor<4x3x3x3xf32>) -> tensor<?x4x?x?xf32>
  %1 = rlx.pool avg %0 kernel = [3, 3] stride = [2, 2] padding = [1, 1, 1, 1] ceil_mode : tensor<?x4x?x?xf32> -> tensor<?x4x?x?xf32>
  %2 = rlx.global_pool avg %x : tensor<?x3x?x?xf32> -> tensor<?x3x1x1xf32>
  return %1, %2 : tensor<?x4x?x?xf32>, tensor<?x3x1x1xf32>
}
