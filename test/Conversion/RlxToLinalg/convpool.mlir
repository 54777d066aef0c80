// RUN: rlx-opt %s --rlx-to-linalg -split-input-file | FileCheck %s

// Padding is an explicit tensor.pad with zeros; one group is the plain named
// convolution accumulating into a zero-filled tensor.

// CHECK-LABEL: func.func @conv2d(
// CHECK-SAME:      %[[X:.*]]: tensor<1x3x8x8xf32>, %[[W:.*]]: tensor<4x3x3x3xf32>)
// CHECK:         %[[PZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[PADDED:.*]] = tensor.pad %[[X]] low[0, 0, 1, 1] high[0, 0, 0, 1]
// CHECK:           tensor.yield %[[PZERO]] : f32
// CHECK:         } : tensor<1x3x8x8xf32> to tensor<1x3x9x10xf32>
// CHECK:         %[[ACC:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x4x4x8xf32>)
// CHECK:         %[[CONV:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>} ins(%[[PADDED]], %[[W]] : tensor<1x3x9x10xf32>, tensor<4x3x3x3xf32>) outs(%[[ACC]] : tensor<1x4x4x8xf32>)
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[CONV]]
func.func @conv2d(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x4x8xf32> {
  %0 = rlx.conv %x, %w stride = [2, 1] padding = [1, 0, 1, 1] dilation = [1, 1] groups = 1 : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x8xf32>
  return %0 : tensor<1x4x4x8xf32>
}

// -----

// 2-D groups: channels split group-major into the NGCHW / GFCHW named op; f16
// accumulates in f32 and is rounded once.

// CHECK-LABEL: func.func @conv2d_groups_f16(
// CHECK-SAME:      %[[X:.*]]: tensor<1x4x6x6xf16>, %[[W:.*]]: tensor<6x2x3x3xf16>)
// CHECK-NOT:     tensor.pad
// CHECK:         %[[GX:.*]] = tensor.expand_shape %[[X]] {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 2, 2, 6, 6] : tensor<1x4x6x6xf16> into tensor<1x2x2x6x6xf16>
// CHECK:         %[[GW:.*]] = tensor.expand_shape %[[W]] {{\[\[}}0, 1], [2], [3], [4]] output_shape [2, 3, 2, 3, 3] : tensor<6x2x3x3xf16> into tensor<2x3x2x3x3xf16>
// CHECK:         %[[ACC:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x2x3x2x2xf32>)
// CHECK:         %[[CONV:.*]] = linalg.conv_2d_ngchw_gfchw {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%[[GX]], %[[GW]] : tensor<1x2x2x6x6xf16>, tensor<2x3x2x3x3xf16>) outs(%[[ACC]] : tensor<1x2x3x2x2xf32>)
// CHECK:         %[[FLAT:.*]] = tensor.collapse_shape %[[CONV]] {{\[\[}}0], [1, 2], [3], [4]] : tensor<1x2x3x2x2xf32> into tensor<1x6x2x2xf32>
// CHECK:         %[[R:.*]] = linalg.generic {{.*}} ins(%[[FLAT]] : tensor<1x6x2x2xf32>) outs(%{{.*}} : tensor<1x6x2x2xf16>)
// CHECK:           arith.truncf %{{.*}} : f32 to f16
// CHECK:         return %[[R]]
func.func @conv2d_groups_f16(%x: tensor<1x4x6x6xf16>, %w: tensor<6x2x3x3xf16>) -> tensor<1x6x2x2xf16> {
  %0 = rlx.conv %x, %w stride = [1, 1] padding = [0, 0, 0, 0] dilation = [2, 2] groups = 2 : (tensor<1x4x6x6xf16>, tensor<6x2x3x3xf16>) -> tensor<1x6x2x2xf16>
  return %0 : tensor<1x6x2x2xf16>
}

// -----

// One input and one output channel per group: the depthwise named op with
// the weight's size-1 dimension collapsed away.

// CHECK-LABEL: func.func @conv2d_depthwise(
// CHECK-SAME:      %[[X:.*]]: tensor<1x3x5x5xf32>, %[[W:.*]]: tensor<3x1x3x3xf32>)
// CHECK:         %[[F:.*]] = tensor.collapse_shape %[[W]] {{\[\[}}0, 1], [2], [3]] : tensor<3x1x3x3xf32> into tensor<3x3x3xf32>
// CHECK:         %[[CONV:.*]] = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[X]], %[[F]] : tensor<1x3x5x5xf32>, tensor<3x3x3xf32>)
// CHECK:         return %[[CONV]]
func.func @conv2d_depthwise(%x: tensor<1x3x5x5xf32>, %w: tensor<3x1x3x3xf32>) -> tensor<1x3x2x2xf32> {
  %0 = rlx.conv %x, %w stride = [2, 2] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 3 : (tensor<1x3x5x5xf32>, tensor<3x1x3x3xf32>) -> tensor<1x3x2x2xf32>
  return %0 : tensor<1x3x2x2xf32>
}

// -----

// 1-D (and 3-D) groups have no named op: a contraction generic over
// (n, g, f, o, c, k) reading input[n, g, c, o * stride + k * dilation].

// CHECK-DAG:   #[[IN:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4, d3 * 2 + d5 * 3)>
// CHECK-DAG:   #[[WT:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>
// CHECK-DAG:   #[[OUT:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @conv1d_groups(
// CHECK:         %[[GX:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2], [3]] output_shape [1, 2, 2, 9]
// CHECK:         %[[GW:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2], [3]] output_shape [2, 3, 2, 2]
// CHECK:         %[[CONV:.*]] = linalg.generic {indexing_maps = [#[[IN]], #[[WT]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[GX]], %[[GW]] : tensor<1x2x2x9xf32>, tensor<2x3x2x2xf32>) outs(%{{.*}} : tensor<1x2x3x3xf32>)
// CHECK:           %[[P:.*]] = arith.mulf
// CHECK:           arith.addf %{{.*}}, %[[P]]
// CHECK:         tensor.collapse_shape %[[CONV]] {{\[\[}}0], [1, 2], [3]] : tensor<1x2x3x3xf32> into tensor<1x6x3xf32>
func.func @conv1d_groups(%x: tensor<1x4x9xf32>, %w: tensor<6x2x2xf32>) -> tensor<1x6x3xf32> {
  %0 = rlx.conv %x, %w stride = [2] padding = [0, 0] dilation = [3] groups = 2 : (tensor<1x4x9xf32>, tensor<6x2x2xf32>) -> tensor<1x6x3xf32>
  return %0 : tensor<1x6x3xf32>
}

// -----

// conv_transpose: the input is inserted at a stride into zeros padded by
// dilation * (K - 1) - lo (and - hi + output_padding); the weight is regrouped,
// channel-swapped and flipped, then convolved with stride 1.

// CHECK-DAG:   #[[FLIP:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d1, -d3 + 2, -d4 + 2)>
// CHECK-LABEL: func.func @conv_transpose2d(
// CHECK-SAME:      %[[X:.*]]: tensor<1x4x3x3xf32>, %[[W:.*]]: tensor<4x1x3x3xf32>)
// CHECK:         %[[ZEROS:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x4x8x7xf32>)
// CHECK:         %[[SPREAD:.*]] = tensor.insert_slice %[[X]] into %[[ZEROS]][0, 0, 1, 2] [1, 4, 3, 3] [1, 1, 2, 1] : tensor<1x4x3x3xf32> into tensor<1x4x8x7xf32>
// CHECK:         %[[GW:.*]] = tensor.expand_shape %[[W]] {{\[\[}}0, 1], [2], [3], [4]] output_shape [2, 2, 1, 3, 3]
// CHECK:         %[[FLIPPED:.*]] = linalg.generic {indexing_maps = [#[[FLIP]], #{{.*}}]{{.*}} ins(%[[GW]] : tensor<2x2x1x3x3xf32>) outs(%{{.*}} : tensor<2x1x2x3x3xf32>)
// CHECK:         %[[CW:.*]] = tensor.collapse_shape %[[FLIPPED]] {{\[\[}}0, 1], [2], [3], [4]] : tensor<2x1x2x3x3xf32> into tensor<2x2x3x3xf32>
// CHECK:         %[[GX:.*]] = tensor.expand_shape %[[SPREAD]] {{\[\[}}0], [1, 2], [3], [4]]
// CHECK:         %[[GCW:.*]] = tensor.expand_shape %[[CW]] {{\[\[}}0, 1], [2], [3], [4]]
// CHECK:         linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%[[GX]], %[[GCW]] : tensor<1x2x2x8x7xf32>, tensor<2x1x2x3x3xf32>) outs(%{{.*}} : tensor<1x2x1x6x5xf32>)
func.func @conv_transpose2d(%x: tensor<1x4x3x3xf32>, %w: tensor<4x1x3x3xf32>) -> tensor<1x2x6x5xf32> {
  %0 = rlx.conv_transpose %x, %w stride = [2, 1] padding = [1, 1, 0, 0] output_padding = [1, 0] dilation = [1, 1] groups = 2 : (tensor<1x4x3x3xf32>, tensor<4x1x3x3xf32>) -> tensor<1x2x6x5xf32>
  return %0 : tensor<1x2x6x5xf32>
}

// -----

// Padding beyond the dilated kernel makes the low pad negative: the spread
// input is cropped.

// CHECK-LABEL: func.func @conv_transpose1d_crop(
// CHECK-SAME:      %[[X:.*]]: tensor<1x2x4xf32>
// CHECK:         %[[SPREAD:.*]] = tensor.insert_slice %[[X]] into %{{.*}}[0, 0, 0] [1, 2, 4] [1, 1, 1] : tensor<1x2x4xf32> into tensor<1x2x5xf32>
// CHECK:         %[[CROPPED:.*]] = tensor.extract_slice %[[SPREAD]][0, 0, 1] [1, 2, 4] [1, 1, 1] : tensor<1x2x5xf32> to tensor<1x2x4xf32>
// CHECK:         linalg.conv_1d_ncw_fcw {{.*}} ins(%[[CROPPED]], %{{.*}} : tensor<1x2x4xf32>, tensor<2x2x3xf32>) outs(%{{.*}} : tensor<1x2x2xf32>)
func.func @conv_transpose1d_crop(%x: tensor<1x2x4xf32>, %w: tensor<2x2x3xf32>) -> tensor<1x2x2xf32> {
  %0 = rlx.conv_transpose %x, %w stride = [1] padding = [3, 1] output_padding = [0] dilation = [1] groups = 1 : (tensor<1x2x4xf32>, tensor<2x2x3xf32>) -> tensor<1x2x2xf32>
  return %0 : tensor<1x2x2xf32>
}

// -----

// Max pooling pads with -inf (plus the ceil_mode overhang) and accumulates
// from -inf.

// CHECK-LABEL: func.func @max_pool2d_ceil(
// CHECK-SAME:      %[[X:.*]]: tensor<1x2x5x5xf32>)
// CHECK:         %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK:         %[[PADDED:.*]] = tensor.pad %[[X]] low[0, 0, 0, 1] high[0, 0, 1, 1]
// CHECK:           tensor.yield %[[NEGINF]] : f32
// CHECK:         } : tensor<1x2x5x5xf32> to tensor<1x2x6x7xf32>
// CHECK:         %[[INITV:.*]] = arith.constant 0xFF800000 : f32
// CHECK:         %[[WINDOW:.*]] = tensor.empty() : tensor<2x2xf32>
// CHECK:         %[[INIT:.*]] = linalg.fill ins(%[[INITV]] : f32) outs(%{{.*}} : tensor<1x2x3x3xf32>)
// CHECK:         %[[POOL:.*]] = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[PADDED]], %[[WINDOW]] : tensor<1x2x6x7xf32>, tensor<2x2xf32>) outs(%[[INIT]] : tensor<1x2x3x3xf32>)
// CHECK:         return %[[POOL]]
func.func @max_pool2d_ceil(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32> {
  %0 = rlx.pool max %x kernel = [2, 2] stride = [2, 2] padding = [0, 0, 1, 1] ceil_mode : tensor<1x2x5x5xf32> -> tensor<1x2x3x3xf32>
  return %0 : tensor<1x2x3x3xf32>
}

// -----

// Average pooling sums a zero-padded input, then divides each output by its
// window count, computed from the output index: the window
// [o * stride - lo, min(o * stride - lo + K, X + hi)) clipped to [0, X)
// without count_include_pad.

// CHECK-LABEL: func.func @avg_pool1d_exclude_pad(
// CHECK-SAME:      %[[X:.*]]: tensor<1x2x5xf32>)
// CHECK:         %[[PADDED:.*]] = tensor.pad %[[X]] low[0, 0, 1] high[0, 0, 1]
// CHECK:         %[[SUM:.*]] = linalg.pooling_ncw_sum {dilations = dense<1> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>} ins(%[[PADDED]], %{{.*}} : tensor<1x2x7xf32>, tensor<3xf32>) outs(%{{.*}} : tensor<1x2x3xf32>)
// CHECK:         %[[AVG:.*]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<1x2x3xf32>) outs(%{{.*}} : tensor<1x2x3xf32>)
// CHECK:         ^bb0(%[[S:.*]]: f32, %{{.*}}: f32):
// CHECK:           %[[O:.*]] = linalg.index 2 : index
// CHECK:           %[[OS:.*]] = arith.muli %[[O]], %{{.*}} : index
// CHECK:           %[[START:.*]] = arith.subi %[[OS]], %{{.*}} : index
// CHECK:           %[[STOP:.*]] = arith.addi %[[START]], %{{.*}} : index
// CHECK:           %[[END:.*]] = arith.minsi %[[STOP]], %{{.*}} : index
// CHECK:           %[[CSTART:.*]] = arith.maxsi %[[START]], %{{.*}} : index
// CHECK:           %[[CEND:.*]] = arith.minsi %[[END]], %{{.*}} : index
// CHECK:           %[[COUNT:.*]] = arith.subi %[[CEND]], %[[CSTART]] : index
// CHECK:           %[[CI:.*]] = arith.index_cast %[[COUNT]] : index to i64
// CHECK:           %[[CF:.*]] = arith.sitofp %[[CI]] : i64 to f32
// CHECK:           %[[Q:.*]] = arith.divf %[[S]], %[[CF]] : f32
// CHECK:           linalg.yield %[[Q]] : f32
// CHECK:         return %[[AVG]]
func.func @avg_pool1d_exclude_pad(%x: tensor<1x2x5xf32>) -> tensor<1x2x3xf32> {
  %0 = rlx.pool avg %x kernel = [3] stride = [2] padding = [1, 1] : tensor<1x2x5xf32> -> tensor<1x2x3xf32>
  return %0 : tensor<1x2x3xf32>
}

// -----

// count_include_pad clips the window only to the padded input.

// CHECK-LABEL: func.func @avg_pool1d_include_pad(
// CHECK:           %[[END:.*]] = arith.minsi
// CHECK-NOT:       arith.maxsi
// CHECK-NOT:       arith.minsi
// CHECK:           arith.subi %[[END]], %{{.*}} : index
func.func @avg_pool1d_include_pad(%x: tensor<1x2x5xf32>) -> tensor<1x2x3xf32> {
  %0 = rlx.pool avg %x kernel = [3] stride = [2] padding = [1, 1] count_include_pad : tensor<1x2x5xf32> -> tensor<1x2x3xf32>
  return %0 : tensor<1x2x3xf32>
}

// -----

// 3-D pooling runs the channels-last named op between transposes.

// CHECK-LABEL: func.func @max_pool3d(
// CHECK-SAME:      %[[X:.*]]: tensor<1x2x4x4x4xf32>)
// CHECK:         %[[LAST:.*]] = linalg.transpose ins(%[[X]] : tensor<1x2x4x4x4xf32>) outs(%{{.*}} : tensor<1x4x4x4x2xf32>) permutation = [0, 2, 3, 4, 1]
// CHECK:         %[[POOL:.*]] = linalg.pooling_ndhwc_max {{.*}} ins(%[[LAST]], %{{.*}} : tensor<1x4x4x4x2xf32>, tensor<2x2x2xf32>) outs(%{{.*}} : tensor<1x2x2x2x2xf32>)
// CHECK:         %[[BACK:.*]] = linalg.transpose ins(%[[POOL]] : tensor<1x2x2x2x2xf32>) outs(%{{.*}} : tensor<1x2x2x2x2xf32>) permutation = [0, 4, 1, 2, 3]
// CHECK:         return %[[BACK]]
func.func @max_pool3d(%x: tensor<1x2x4x4x4xf32>) -> tensor<1x2x2x2x2xf32> {
  %0 = rlx.pool max %x kernel = [2, 2, 2] stride = [2, 2, 2] padding = [0, 0, 0, 0, 0, 0] : tensor<1x2x4x4x4xf32> -> tensor<1x2x2x2x2xf32>
  return %0 : tensor<1x2x2x2x2xf32>
}

// -----

// Global pooling reduces the spatial dimensions to [N, C], divides by their
// size and restores them as size-1 dimensions.

// CHECK-DAG:   #[[KEEP:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
// CHECK-LABEL: func.func @global_avg_pool2d(
// CHECK-SAME:      %[[X:.*]]: tensor<2x3x4x5xbf16>)
// CHECK:         %[[SUM:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #[[KEEP]]], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%[[X]] : tensor<2x3x4x5xbf16>) outs(%{{.*}} : tensor<2x3xf32>)
// CHECK:           arith.extf %{{.*}} : bf16 to f32
// CHECK:         %[[MEAN:.*]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<2x3xf32>) outs(%{{.*}} : tensor<2x3xbf16>)
// CHECK:           %[[N:.*]] = arith.constant 2.000000e+01 : f32
// CHECK:           arith.divf %{{.*}}, %[[N]] : f32
// CHECK:         %[[R:.*]] = tensor.expand_shape %[[MEAN]] {{\[\[}}0], [1, 2, 3]] output_shape [2, 3, 1, 1] : tensor<2x3xbf16> into tensor<2x3x1x1xbf16>
// CHECK:         return %[[R]]
func.func @global_avg_pool2d(%x: tensor<2x3x4x5xbf16>) -> tensor<2x3x1x1xbf16> {
  %0 = rlx.global_pool avg %x : tensor<2x3x4x5xbf16> -> tensor<2x3x1x1xbf16>
  return %0 : tensor<2x3x1x1xbf16>
}

// -----

// Nearest resampling is one indexed copy reading (o * X) floordiv O, which
// for resize_nearest2x is o floordiv 2 (also for `?` sizes, below).

// CHECK-DAG:   #[[NEAREST:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, (d2 * 5) floordiv 7, (d3 * 3) floordiv 6)>
// CHECK-DAG:   #[[HALF:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2 floordiv 2, d3 floordiv 2)>
// CHECK-LABEL: func.func @nearest(
// CHECK-SAME:      %[[X:.*]]: tensor<1x2x5x3xf32>, %[[Y:.*]]: tensor<1x2x3x4xi32>)
// CHECK:         linalg.generic {indexing_maps = [#[[NEAREST]], #{{.*}}]{{.*}} ins(%[[X]] : tensor<1x2x5x3xf32>) outs(%{{.*}} : tensor<1x2x7x6xf32>)
// CHECK:         linalg.generic {indexing_maps = [#[[HALF]], #{{.*}}]{{.*}} ins(%[[Y]] : tensor<1x2x3x4xi32>) outs(%{{.*}} : tensor<1x2x6x8xi32>)
func.func @nearest(%x: tensor<1x2x5x3xf32>, %y: tensor<1x2x3x4xi32>) -> (tensor<1x2x7x6xf32>, tensor<1x2x6x8xi32>) {
  %0 = rlx.interpolate_nearest %x size = [7, 6] : tensor<1x2x5x3xf32> -> tensor<1x2x7x6xf32>
  %1 = rlx.resize_nearest2x %y : tensor<1x2x3x4xi32> -> tensor<1x2x6x8xi32>
  return %0, %1 : tensor<1x2x7x6xf32>, tensor<1x2x6x8xi32>
}

