// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// Round-trip of every convolution, pooling and resampling op through the
// custom and the generic form.

// CHECK-LABEL: func.func @conv(
// CHECK-SAME:    %[[X1:[a-z0-9]+]]: tensor<2x4x9xf32>, %[[W1:[a-z0-9]+]]: tensor<6x2x3xf32>, %[[X2:[a-z0-9]+]]: tensor<1x3x8x8xf16>, %[[W2:[a-z0-9]+]]: tensor<5x3x3x3xf16>, %[[X3:[a-z0-9]+]]: tensor<1x2x4x5x6xf64>, %[[W3:[a-z0-9]+]]: tensor<2x1x2x2x2xf64>)
// CHECK-NEXT:    %{{.*}} = rlx.conv %[[X1]], %[[W1]] stride = [2] padding = [1, 0] dilation = [2] groups = 2 : (tensor<2x4x9xf32>, tensor<6x2x3xf32>) -> tensor<2x6x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.conv %[[X2]], %[[W2]] stride = [1, 2] padding = [1, 1, 0, 2] dilation = [1, 1] groups = 1 : (tensor<1x3x8x8xf16>, tensor<5x3x3x3xf16>) -> tensor<1x5x8x4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.conv %[[X3]], %[[W3]] stride = [1, 1, 1] padding = [0, 0, 0, 0, 0, 0] dilation = [1, 1, 1] groups = 2 : (tensor<1x2x4x5x6xf64>, tensor<2x1x2x2x2xf64>) -> tensor<1x2x3x4x5xf64>
// CHECK-NEXT:    return
func.func @conv(%x1: tensor<2x4x9xf32>, %w1: tensor<6x2x3xf32>, %x2: tensor<1x3x8x8xf16>, %w2: tensor<5x3x3x3xf16>, %x3: tensor<1x2x4x5x6xf64>, %w3: tensor<2x1x2x2x2xf64>) {
  %0 = rlx.conv %x1, %w1 stride = [2] padding = [1, 0] dilation = [2] groups = 2 : (tensor<2x4x9xf32>, tensor<6x2x3xf32>) -> tensor<2x6x3xf32>
  %1 = rlx.conv %x2, %w2 stride = [1, 2] padding = [1, 1, 0, 2] dilation = [1, 1] groups = 1 : (tensor<1x3x8x8xf16>, tensor<5x3x3x3xf16>) -> tensor<1x5x8x4xf16>
  %2 = rlx.conv %x3, %w3 stride = [1, 1, 1] padding = [0, 0, 0, 0, 0, 0] dilation = [1, 1, 1] groups = 2 : (tensor<1x2x4x5x6xf64>, tensor<2x1x2x2x2xf64>) -> tensor<1x2x3x4x5xf64>
  return
}

// CHECK-LABEL: func.func @conv_transpose(
// CHECK-SAME:    %[[X1:[a-z0-9]+]]: tensor<1x4x5xbf16>, %[[W1:[a-z0-9]+]]: tensor<4x3x3xbf16>, %[[X2:[a-z0-9]+]]: tensor<2x4x3x3xf32>, %[[W2:[a-z0-9]+]]: tensor<4x1x3x2xf32>, %[[X3:[a-z0-9]+]]: tensor<1x2x2x2x2xf32>, %[[W3:[a-z0-9]+]]: tensor<2x2x2x2x2xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.conv_transpose %[[X1]], %[[W1]] stride = [2] padding = [1, 1] output_padding = [1] dilation = [1] groups = 1 : (tensor<1x4x5xbf16>, tensor<4x3x3xbf16>) -> tensor<1x3x10xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.conv_transpose %[[X2]], %[[W2]] stride = [2, 1] padding = [0, 1, 2, 0] output_padding = [0, 0] dilation = [1, 2] groups = 2 : (tensor<2x4x3x3xf32>, tensor<4x1x3x2xf32>) -> tensor<2x2x6x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.conv_transpose %[[X3]], %[[W3]] stride = [1, 1, 1] padding = [0, 0, 0, 0, 0, 0] output_padding = [0, 0, 0] dilation = [1, 1, 1] groups = 1 : (tensor<1x2x2x2x2xf32>, tensor<2x2x2x2x2xf32>) -> tensor<1x2x3x3x3xf32>
// CHECK-NEXT:    return
func.func @conv_transpose(%x1: tensor<1x4x5xbf16>, %w1: tensor<4x3x3xbf16>, %x2: tensor<2x4x3x3xf32>, %w2: tensor<4x1x3x2xf32>, %x3: tensor<1x2x2x2x2xf32>, %w3: tensor<2x2x2x2x2xf32>) {
  %0 = rlx.conv_transpose %x1, %w1 stride = [2] padding = [1, 1] output_padding = [1] dilation = [1] groups = 1 : (tensor<1x4x5xbf16>, tensor<4x3x3xbf16>) -> tensor<1x3x10xbf16>
  %1 = rlx.conv_transpose %x2, %w2 stride = [2, 1] padding = [0, 1, 2, 0] output_padding = [0, 0] dilation = [1, 2] groups = 2 : (tensor<2x4x3x3xf32>, tensor<4x1x3x2xf32>) -> tensor<2x2x6x3xf32>
  %2 = rlx.conv_transpose %x3, %w3 stride = [1, 1, 1] padding = [0, 0, 0, 0, 0, 0] output_padding = [0, 0, 0] dilation = [1, 1, 1] groups = 1 : (tensor<1x2x2x2x2xf32>, tensor<2x2x2x2x2xf32>) -> tensor<1x2x3x3x3xf32>
  return
}

// CHECK-LABEL: func.func @pool(
// CHECK-SAME:    %[[X1:[a-z0-9]+]]: tensor<2x3x7xf32>, %[[X2:[a-z0-9]+]]: tensor<1x2x5x6xf16>, %[[X3:[a-z0-9]+]]: tensor<1x1x4x4x4xf64>)
// CHECK-NEXT:    %{{.*}} = rlx.pool max %[[X1]] kernel = [3] stride = [2] padding = [1, 1] : tensor<2x3x7xf32> -> tensor<2x3x4xf32>
// CHECK-NEXT:    %{{.*}} = rlx.pool avg %[[X2]] kernel = [2, 3] stride = [2, 2] padding = [1, 0, 1, 1] ceil_mode count_include_pad : tensor<1x2x5x6xf16> -> tensor<1x2x3x4xf16>
// CHECK-NEXT:    %{{.*}} = rlx.pool avg %[[X2]] kernel = [3, 3] stride = [2, 2] padding = [0, 0, 0, 0] ceil_mode : tensor<1x2x5x6xf16> -> tensor<1x2x2x3xf16>
// CHECK-NEXT:    %{{.*}} = rlx.pool max %[[X3]] kernel = [2, 2, 2] stride = [2, 2, 2] padding = [0, 0, 0, 0, 0, 0] : tensor<1x1x4x4x4xf64> -> tensor<1x1x2x2x2xf64>
// CHECK-NEXT:    return
func.func @pool(%x1: tensor<2x3x7xf32>, %x2: tensor<1x2x5x6xf16>, %x3: tensor<1x1x4x4x4xf64>) {
  %0 = rlx.pool max %x1 kernel = [3] stride = [2] padding = [1, 1] : tensor<2x3x7xf32> -> tensor<2x3x4xf32>
  %1 = rlx.pool avg %x2 kernel = [2, 3] stride = [2, 2] padding = [1, 0, 1, 1] ceil_mode count_include_pad : tensor<1x2x5x6xf16> -> tensor<1x2x3x4xf16>
  %2 = rlx.pool avg %x2 kernel = [3, 3] stride = [2, 2] padding = [0, 0, 0, 0] ceil_mode : tensor<1x2x5x6xf16> -> tensor<1x2x2x3xf16>
  %3 = rlx.pool max %x3 kernel = [2, 2, 2] stride = [2, 2, 2] padding = [0, 0, 0, 0, 0, 0] : tensor<1x1x4x4x4xf64> -> tensor<1x1x2x2x2xf64>
  return
}

// CHECK-LABEL: func.func @global_pool(
// CHECK-SAME:    %[[X1:[a-z0-9]+]]: tensor<2x3x7xf32>, %[[X2:[a-z0-9]+]]: tensor<1x2x5x6xbf16>)
// CHECK-NEXT:    %{{.*}} = rlx.global_pool avg %[[X1]] : tensor<2x3x7xf32> -> tensor<2x3x1xf32>
// CHECK-NEXT:    %{{.*}} = rlx.global_pool max %[[X2]] : tensor<1x2x5x6xbf16> -> tensor<1x2x1x1xbf16>
// CHECK-NEXT:    return
func.func @global_pool(%x1: tensor<2x3x7xf32>, %x2: tensor<1x2x5x6xbf16>) {
  %0 = rlx.global_pool avg %x1 : tensor<2x3x7xf32> -> tensor<2x3x1xf32>
  %1 = rlx.global_pool max %x2 : tensor<1x2x5x6xbf16> -> tensor<1x2x1x1xbf16>
  return
}

// CHECK-LABEL: func.func @resample(
// CHECK-SAME:    %[[X1:[a-z0-9]+]]: tensor<1x3x4x5xi32>, %[[X2:[a-z0-9]+]]: tensor<2x1x7xf32>, %[[X3:[a-z0-9]+]]: tensor<1x1x2x3x4xi1>)
// CHECK-NEXT:    %{{.*}} = rlx.resize_nearest2x %[[X1]] : tensor<1x3x4x5xi32> -> tensor<1x3x8x10xi32>
// CHECK-NEXT:    %{{.*}} = rlx.interpolate_nearest %[[X1]] size = [3, 11] : tensor<1x3x4x5xi32> -> tensor<1x3x3x11xi32>
// CHECK-NEXT:    %{{.*}} = rlx.interpolate_nearest %[[X2]] size = [4] : tensor<2x1x7xf32> -> tensor<2x1x4xf32>
// CHECK-NEXT:    %{{.*}} = rlx.interpolate_nearest %[[X3]] size = [4, 3, 2] : tensor<1x1x2x3x4xi1> -> tensor<1x1x4x3x2xi1>
// CHECK-NEXT:    return
func.func @resample(%x1: tensor<1x3x4x5xi32>, %x2: tensor<2x1x7xf32>, %x3: tensor<1x1x2x3x4xi1>) {
  %0 = rlx.resize_nearest2x %x1 : tensor<1x3x4x5xi32> -> tensor<1x3x8x10xi32>
  %1 = rlx.interpolate_nearest %x1 size = [3, 11] : tensor<1x3x4x5xi32> -> tensor<1x3x3x11xi32>
  %2 = rlx.interpolate_nearest %x2 size = [4] : tensor<2x1x7xf32> -> tensor<2x1x4xf32>
  %3 = rlx.interpolate_nearest %x3 size = [4, 3, 2] : tensor<1x1x2x3x4xi1> -> tensor<1x1x4x3x2xi1>
  return
}
