// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// Round-trip of every spatial and indexing backward op through the custom
// and the generic form.

// CHECK-LABEL: func.func @conv_backward(
// CHECK-SAME:    %[[DY1:[a-z0-9]+]]: tensor<2x6x3xf32>, %[[W1:[a-z0-9]+]]: tensor<6x2x3xf32>, %[[X1:[a-z0-9]+]]: tensor<2x4x9xf32>, %[[DY2:[a-z0-9]+]]: tensor<1x5x8x4xf16>, %[[X2:[a-z0-9]+]]: tensor<1x3x8x8xf16>, %[[DY3:[a-z0-9]+]]: tensor<1x2x3x4x5xf64>, %[[W3:[a-z0-9]+]]: tensor<2x1x2x2x2xf64>)
// CHECK-NEXT:    %{{.*}} = rlx.conv_backward_input %[[DY1]], %[[W1]] stride = [2] padding = [1, 0] dilation = [2] groups = 2 : (tensor<2x6x3xf32>, tensor<6x2x3xf32>) -> tensor<2x4x9xf32>
// CHECK-NEXT:    %{{.*}} = rlx.conv_backward_input %[[DY1]], %[[W1]] stride = [2] padding = [1, 0] dilation = [2] groups = 2 : (tensor<2x6x3xf32>, tensor<6x2x3xf32>) -> tensor<2x4x8xf32>
// CHECK-NEXT:    %{{.*}} = rlx.conv_backward_weight %[[DY1]], %[[X1]] stride = [2] padding = [1, 0] dilation = [2] groups = 2 : (tensor<2x6x3xf32>, tensor<2x4x9xf32>) -> tensor<6x2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.conv_backward_weight %[[DY2]], %[[X2]] stride = [1, 2] padding = [1, 1, 0, 2] dilation = [1, 1] groups = 1 : (tensor<1x5x8x4xf16>, tensor<1x3x8x8xf16>) -> tensor<5x3x3x3xf16>
// CHECK-NEXT:    %{{.*}} = rlx.conv_backward_input %[[DY3]], %[[W3]] stride = [1, 1, 1] padding = [0, 0, 0, 0, 0, 0] dilation = [1, 1, 1] groups = 2 : (tensor<1x2x3x4x5xf64>, tensor<2x1x2x2x2xf64>) -> tensor<1x2x4x5x6xf64>
// CHECK-NEXT:    return
func.func @conv_backward(%dy1: tensor<2x6x3xf32>, %w1: tensor<6x2x3xf32>, %x1: tensor<2x4x9xf32>, %dy2: tensor<1x5x8x4xf16>, %x2: tensor<1x3x8x8xf16>, %dy3: tensor<1x2x3x4x5xf64>, %w3: tensor<2x1x2x2x2xf64>) {
  %0 = rlx.conv_backward_input %dy1, %w1 stride = [2] padding = [1, 0] dilation = [2] groups = 2 : (tensor<2x6x3xf32>, tensor<6x2x3xf32>) -> tensor<2x4x9xf32>
  %1 = rlx.conv_backward_input %dy1, %w1 stride = [2] padding = [1, 0] dilation = [2] groups = 2 : (tensor<2x6x3xf32>, tensor<6x2x3xf32>) -> tensor<2x4x8xf32>
  %2 = rlx.conv_backward_weight %dy1, %x1 stride = [2] padding = [1, 0] dilation = [2] groups = 2 : (tensor<2x6x3xf32>, tensor<2x4x9xf32>) -> tensor<6x2x3xf32>
  %3 = rlx.conv_backward_weight %dy2, %x2 stride = [1, 2] padding = [1, 1, 0, 2] dilation = [1, 1] groups = 1 : (tensor<1x5x8x4xf16>, tensor<1x3x8x8xf16>) -> tensor<5x3x3x3xf16>
  %4 = rlx.conv_backward_input %dy3, %w3 stride = [1, 1, 1] padding = [0, 0, 0, 0, 0, 0] dilation = [1, 1, 1] groups = 2 : (tensor<1x2x3x4x5xf64>, tensor<2x1x2x2x2xf64>) -> tensor<1x2x4x5x6xf64>
  return
}

// CHECK-LABEL: func.func @pool_backward(
// CHECK-SAME:    %[[DY1:[a-z0-9]+]]: tensor<1x2x4x4xf32>, %[[X1:[a-z0-9]+]]: tensor<1x2x7x7xf32>, %[[DY2:[a-z0-9]+]]: tensor<2x3x5xf16>, %[[X2:[a-z0-9]+]]: tensor<2x3x10xf16>, %[[DY3:[a-z0-9]+]]: tensor<1x2x4x4xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.pool_backward max %[[DY1]], %[[X1]] kernel = [3, 3] stride = [2, 2] padding = [1, 1, 1, 1] : tensor<1x2x4x4xf32>, tensor<1x2x7x7xf32> -> tensor<1x2x7x7xf32>
// CHECK-NEXT:    %{{.*}} = rlx.pool_backward avg %[[DY2]], %[[X2]] kernel = [3] stride = [2] padding = [1, 1] count_include_pad : tensor<2x3x5xf16>, tensor<2x3x10xf16> -> tensor<2x3x10xf16>
// CHECK-NEXT:    %{{.*}} = rlx.pool_backward avg %[[DY3]], %[[X1]] kernel = [2, 2] stride = [2, 2] padding = [1, 0, 1, 0] ceil_mode : tensor<1x2x4x4xf32>, tensor<1x2x7x7xf32> -> tensor<1x2x7x7xf32>
// CHECK-NEXT:    return
func.func @pool_backward(%dy1: tensor<1x2x4x4xf32>, %x1: tensor<1x2x7x7xf32>, %dy2: tensor<2x3x5xf16>, %x2: tensor<2x3x10xf16>, %dy3: tensor<1x2x4x4xf32>) {
  %0 = rlx.pool_backward max %dy1, %x1 kernel = [3, 3] stride = [2, 2] padding = [1, 1, 1, 1] : tensor<1x2x4x4xf32>, tensor<1x2x7x7xf32> -> tensor<1x2x7x7xf32>
  %1 = rlx.pool_backward avg %dy2, %x2 kernel = [3] stride = [2] padding = [1, 1] count_include_pad : tensor<2x3x5xf16>, tensor<2x3x10xf16> -> tensor<2x3x10xf16>
  %2 = rlx.pool_backward avg %dy3, %x1 kernel = [2, 2] stride = [2, 2] padding = [1, 0, 1, 0] ceil_mode : tensor<1x2x4x4xf32>, tensor<1x2x7x7xf32> -> tensor<1x2x7x7xf32>
  return
}

// CHECK-LABEL: func.func @indexing_backward(
// CHECK-SAME:    %[[DY:[a-z0-9]+]]: tensor<2x3x4xf32>, %[[I:[a-z0-9]+]]: tensor<2x3xi64>, %[[DY0:[a-z0-9]+]]: tensor<5xbf16>, %[[I0:[a-z0-9]+]]: tensor<i32>, %[[C:[a-z0-9]+]]: tensor<3x5xf32>, %[[R:[a-z0-9]+]]: tensor<2x6x16xf32>, %[[COS:[a-z0-9]+]]: tensor<6x2xf32>, %[[SIN:[a-z0-9]+]]: tensor<6x2xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.gather_backward %[[DY]], %[[I]] axis = 0 : (tensor<2x3x4xf32>, tensor<2x3xi64>) -> tensor<10x4xf32>
// CHECK-NEXT:    %{{.*}} = rlx.gather_backward %[[DY0]], %[[I0]] axis = -1 : (tensor<5xbf16>, tensor<i32>) -> tensor<5x7xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.cumsum_backward %[[C]] axis = -1 exclusive : tensor<3x5xf32>
// CHECK-NEXT:    %{{.*}} = rlx.cumsum_backward %[[C]] axis = 0 : tensor<3x5xf32>
// CHECK-NEXT:    %{{.*}} = rlx.rope_backward gptj bsd %[[R]], %[[COS]], %[[SIN]] head_dim = 8, n_rot = 4 : (tensor<2x6x16xf32>, tensor<6x2xf32>, tensor<6x2xf32>) -> tensor<2x6x16xf32>
// CHECK-NEXT:    %{{.*}} = rlx.rope_backward neox bsd %[[R]], %[[COS]], %[[SIN]] head_dim = 16, n_rot = 4 : (tensor<2x6x16xf32>, tensor<6x2xf32>, tensor<6x2xf32>) -> tensor<2x6x16xf32>
// CHECK-NEXT:    return
func.func @indexing_backward(%dy: tensor<2x3x4xf32>, %i: tensor<2x3xi64>, %dy0: tensor<5xbf16>, %i0: tensor<i32>, %c: tensor<3x5xf32>, %r: tensor<2x6x16xf32>, %cos: tensor<6x2xf32>, %sin: tensor<6x2xf32>) {
  %0 = rlx.gather_backward %dy, %i axis = 0 : (tensor<2x3x4xf32>, tensor<2x3xi64>) -> tensor<10x4xf32>
  %1 = rlx.gather_backward %dy0, %i0 axis = -1 : (tensor<5xbf16>, tensor<i32>) -> tensor<5x7xbf16>
  %2 = rlx.cumsum_backward %c axis = -1 exclusive : tensor<3x5xf32>
  %3 = rlx.cumsum_backward %c axis = 0 : tensor<3x5xf32>
  %4 = rlx.rope_backward gptj bsd %r, %cos, %sin head_dim = 8, n_rot = 4 : (tensor<2x6x16xf32>, tensor<6x2xf32>, tensor<6x2xf32>) -> tensor<2x6x16xf32>
  %5 = rlx.rope_backward neox bsd %r, %cos, %sin head_dim = 16, n_rot = 4 : (tensor<2x6x16xf32>, tensor<6x2xf32>, tensor<6x2xf32>) -> tensor<2x6x16xf32>
  return
}

// CHECK-LABEL: func.func @conv_transpose_backward(
// CHECK-SAME:    %[[DY:[a-z0-9]+]]: tensor<2x4x15xf32>, %[[W:[a-z0-9]+]]: tensor<4x2x3xf32>, %[[X:[a-z0-9]+]]: tensor<2x4x7xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.conv_transpose_backward_input %[[DY]], %[[W]] stride = [2] padding = [1, 0] output_padding = [1] dilation = [1] groups = 2 : (tensor<2x4x15xf32>, tensor<4x2x3xf32>) -> tensor<2x4x7xf32>
// CHECK-NEXT:    %{{.*}} = rlx.conv_transpose_backward_weight %[[DY]], %[[X]] stride = [2] padding = [1, 0] output_padding = [1] dilation = [1] groups = 2 : (tensor<2x4x15xf32>, tensor<2x4x7xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT:    return
func.func @conv_transpose_backward(%dy: tensor<2x4x15xf32>, %w: tensor<4x2x3xf32>, %x: tensor<2x4x7xf32>) {
  %0 = rlx.conv_transpose_backward_input %dy, %w stride = [2] padding = [1, 0] output_padding = [1] dilation = [1] groups = 2 : (tensor<2x4x15xf32>, tensor<4x2x3xf32>) -> tensor<2x4x7xf32>
  %1 = rlx.conv_transpose_backward_weight %dy, %x stride = [2] padding = [1, 0] output_padding = [1] dilation = [1] groups = 2 : (tensor<2x4x15xf32>, tensor<2x4x7xf32>) -> tensor<4x2x3xf32>
  return
}

// CHECK-LABEL: func.func @global_pool_backward(
// CHECK-SAME:    %[[DY:[a-z0-9]+]]: tensor<2x3x1x1xf32>, %[[X:[a-z0-9]+]]: tensor<2x3x5x4xf32>)
// CHECK-NEXT:    %{{.*}} = rlx.global_pool_backward max %[[DY]], %[[X]] : tensor<2x3x1x1xf32>, tensor<2x3x5x4xf32> -> tensor<2x3x5x4xf32>
// CHECK-NEXT:    %{{.*}} = rlx.global_pool_backward avg %[[DY]], %[[X]] : tensor<2x3x1x1xf32>, tensor<2x3x5x4xf32> -> tensor<2x3x5x4xf32>
// CHECK-NEXT:    return
func.func @global_pool_backward(%dy: tensor<2x3x1x1xf32>, %x: tensor<2x3x5x4xf32>) {
  %0 = rlx.global_pool_backward max %dy, %x : tensor<2x3x1x1xf32>, tensor<2x3x5x4xf32> -> tensor<2x3x5x4xf32>
  %1 = rlx.global_pool_backward avg %dy, %x : tensor<2x3x1x1xf32>, tensor<2x3x5x4xf32> -> tensor<2x3x5x4xf32>
  return
}
