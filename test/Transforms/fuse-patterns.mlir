// RUN: rlx-opt %s --rlx-fuse-patterns -split-input-file | FileCheck %s
// RUN: rlx-opt %s --rlx-fuse-patterns --rlx-unfuse -split-input-file | FileCheck %s --check-prefix=UNFUSED

// silu(gate half) * up half, in either operand order, becomes rlx.swiglu;
// the gate in the low half sets gate_first.
// CHECK-LABEL: func.func @swiglu(
// CHECK-SAME:    %[[X:.*]]: tensor<4x16xf32>)
// CHECK-NEXT:    %[[A:.*]] = rlx.swiglu %[[X]] : tensor<4x16xf32> -> tensor<4x8xf32>
// CHECK-NEXT:    %[[B:.*]] = rlx.swiglu %[[X]] gate_first : tensor<4x16xf32> -> tensor<4x8xf32>
// CHECK-NEXT:    return %[[A]], %[[B]]
// UNFUSED-LABEL: func.func @swiglu(
// UNFUSED-SAME:    %[[X:.*]]: tensor<4x16xf32>)
// UNFUSED:         %[[UP:.*]] = rlx.narrow %[[X]] axis = 1, start = 0, length = 8
// UNFUSED:         %[[GATE:.*]] = rlx.narrow %[[X]] axis = 1, start = 8, length = 8
// UNFUSED:         %[[S:.*]] = rlx.silu %[[GATE]]
// UNFUSED:         %[[Y:.*]] = rlx.mul %[[S]], %[[UP]]
// UNFUSED:         %[[UP2:.*]] = rlx.narrow %[[X]] axis = 1, start = 8, length = 8
// UNFUSED:         %[[GATE2:.*]] = rlx.narrow %[[X]] axis = 1, start = 0, length = 8
// UNFUSED:         %[[S2:.*]] = rlx.silu %[[GATE2]]
// UNFUSED:         %[[Y2:.*]] = rlx.mul %[[S2]], %[[UP2]]
// UNFUSED:         return %[[Y]], %[[Y2]]
func.func @swiglu(%x: tensor<4x16xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %up = rlx.narrow %x axis = 1, start = 0, length = 8 : tensor<4x16xf32> -> tensor<4x8xf32>
  %gate = rlx.narrow %x axis = -1, start = 8, length = 8 : tensor<4x16xf32> -> tensor<4x8xf32>
  %s = rlx.silu %gate : tensor<4x8xf32>
  %y = rlx.mul %up, %s : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %gate2 = rlx.narrow %x axis = 1, start = 0, length = 8 : tensor<4x16xf32> -> tensor<4x8xf32>
  %up2 = rlx.narrow %x axis = 1, start = 8, length = 8 : tensor<4x16xf32> -> tensor<4x8xf32>
  %s2 = rlx.silu %gate2 : tensor<4x8xf32>
  %y2 = rlx.mul %s2, %up2 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y, %y2 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Not SwiGLU: the silu is used elsewhere, the halves overlap, the halves
// come from different tensors, or the split is not on the last axis.
// CHECK-LABEL: func.func @not_swiglu(
// CHECK-NOT:     rlx.swiglu
// CHECK:         return
func.func @not_swiglu(%x: tensor<4x16xf32>, %z: tensor<4x16xf32>, %w: tensor<8x4xf32>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x4xf32>) {
  %up = rlx.narrow %x axis = 1, start = 0, length = 8 : tensor<4x16xf32> -> tensor<4x8xf32>
  %gate = rlx.narrow %x axis = 1, start = 8, length = 8 : tensor<4x16xf32> -> tensor<4x8xf32>
  %s = rlx.silu %gate : tensor<4x8xf32>
  %shared = rlx.mul %s, %up : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %overlap = rlx.narrow %x axis = 1, start = 4, length = 8 : tensor<4x16xf32> -> tensor<4x8xf32>
  %s1 = rlx.silu %overlap : tensor<4x8xf32>
  %o = rlx.mul %s1, %up : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %zgate = rlx.narrow %z axis = 1, start = 8, length = 8 : tensor<4x16xf32> -> tensor<4x8xf32>
  %s2 = rlx.silu %zgate : tensor<4x8xf32>
  %d = rlx.mul %s2, %up : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %wup = rlx.narrow %w axis = 0, start = 0, length = 4 : tensor<8x4xf32> -> tensor<4x4xf32>
  %wgate = rlx.narrow %w axis = 0, start = 4, length = 4 : tensor<8x4xf32> -> tensor<4x4xf32>
  %s3 = rlx.silu %wgate : tensor<4x4xf32>
  %a = rlx.mul %s3, %wup : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %shared, %s, %o, %d, %a : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x4xf32>
}

// -----

// matmul + bias [N] + activation -> matmul_bias_act, the bias on either side
// of the add, batch dimensions broadcast.
// CHECK-LABEL: func.func @matmul_bias_act(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<4x8xf32>, %[[W:[a-z0-9]+]]: tensor<8x6xf32>, %[[B:[a-z0-9]+]]: tensor<6xf32>, %[[XB:[a-z0-9]+]]: tensor<3x1x4x8xf16>, %[[WB:[a-z0-9]+]]: tensor<2x8x6xf16>, %[[BB:[a-z0-9]+]]: tensor<6xf16>)
// CHECK-NEXT:    %[[A:.*]] = rlx.matmul_bias_act %[[X]], %[[W]], %[[B]] activation = gelu : (tensor<4x8xf32>, tensor<8x6xf32>, tensor<6xf32>) -> tensor<4x6xf32>
// CHECK-NEXT:    %[[C:.*]] = rlx.matmul_bias_act %[[XB]], %[[WB]], %[[BB]] activation = hard_swish : (tensor<3x1x4x8xf16>, tensor<2x8x6xf16>, tensor<6xf16>) -> tensor<3x2x4x6xf16>
// CHECK-NEXT:    return %[[A]], %[[C]]
// UNFUSED-LABEL: func.func @matmul_bias_act(
// UNFUSED-SAME:    %[[X:[a-z0-9]+]]: tensor<4x8xf32>, %[[W:[a-z0-9]+]]: tensor<8x6xf32>, %[[B:[a-z0-9]+]]: tensor<6xf32>, %[[XB:[a-z0-9]+]]: tensor<3x1x4x8xf16>, %[[WB:[a-z0-9]+]]: tensor<2x8x6xf16>, %[[BB:[a-z0-9]+]]: tensor<6xf16>)
// UNFUSED-NEXT:    %[[M:.*]] = rlx.matmul %[[X]], %[[W]]
// UNFUSED-NEXT:    %[[S:.*]] = rlx.add %[[M]], %[[B]]
// UNFUSED-NEXT:    %[[A:.*]] = rlx.gelu %[[S]]
// UNFUSED-NEXT:    %[[MB:.*]] = rlx.matmul %[[XB]], %[[WB]]
// UNFUSED-NEXT:    %[[SB:.*]] = rlx.add %[[MB]], %[[BB]]
// UNFUSED-NEXT:    %[[C:.*]] = rlx.hard_swish %[[SB]]
// UNFUSED-NEXT:    return %[[A]], %[[C]]
func.func @matmul_bias_act(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>, %b: tensor<6xf32>,
                           %xb: tensor<3x1x4x8xf16>, %wb: tensor<2x8x6xf16>, %bb: tensor<6xf16>)
    -> (tensor<4x6xf32>, tensor<3x2x4x6xf16>) {
  %m = rlx.matmul %x, %w : (tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  %s = rlx.add %m, %b : (tensor<4x6xf32>, tensor<6xf32>) -> tensor<4x6xf32>
  %a = rlx.gelu %s : tensor<4x6xf32>
  %mb = rlx.matmul %xb, %wb : (tensor<3x1x4x8xf16>, tensor<2x8x6xf16>) -> tensor<3x2x4x6xf16>
  %sb = rlx.add %bb, %mb : (tensor<6xf16>, tensor<3x2x4x6xf16>) -> tensor<3x2x4x6xf16>
  %c = rlx.hard_swish %sb : tensor<3x2x4x6xf16>
  return %a, %c : tensor<4x6xf32>, tensor<3x2x4x6xf16>
}

// -----

// The activation joins only as the add's sole user, and only when it is an
// ActivationKind: with a second user of the add, or after rlx.clamp, the
// fused op has no activation.
// CHECK-LABEL: func.func @matmul_bias_no_act(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<4x8xf32>, %[[W:[a-z0-9]+]]: tensor<8x6xf32>, %[[B:[a-z0-9]+]]: tensor<6xf32>)
// CHECK-NEXT:    %[[S:.*]] = rlx.matmul_bias_act %[[X]], %[[W]], %[[B]] : (tensor<4x8xf32>, tensor<8x6xf32>, tensor<6xf32>) -> tensor<4x6xf32>
// CHECK-NEXT:    %[[R:.*]] = rlx.relu %[[S]]
// CHECK-NEXT:    %[[S2:.*]] = rlx.matmul_bias_act %[[X]], %[[W]], %[[B]] : (tensor<4x8xf32>, tensor<8x6xf32>, tensor<6xf32>) -> tensor<4x6xf32>
// CHECK-NEXT:    %[[E:.*]] = rlx.clamp %[[S2]]
// CHECK-NEXT:    return %[[R]], %[[S]], %[[E]]
func.func @matmul_bias_no_act(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>, %b: tensor<6xf32>)
    -> (tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>) {
  %m = rlx.matmul %x, %w : (tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  %s = rlx.add %m, %b : (tensor<4x6xf32>, tensor<6xf32>) -> tensor<4x6xf32>
  %r = rlx.relu %s : tensor<4x6xf32>
  %m2 = rlx.matmul %x, %w : (tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  %s2 = rlx.add %m2, %b : (tensor<4x6xf32>, tensor<6xf32>) -> tensor<4x6xf32>
  %e = rlx.clamp %s2 {min = 0.0 : f64} : tensor<4x6xf32>
  return %r, %s, %e : tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>
}

// -----

// matmul + a residual of the result's shape -> matmul_residual.
// CHECK-LABEL: func.func @matmul_residual(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<2x4x8xf32>, %[[W:[a-z0-9]+]]: tensor<8x6xf32>, %[[R:[a-z0-9]+]]: tensor<2x4x6xf32>)
// CHECK-NEXT:    %[[Y:.*]] = rlx.matmul_residual %[[X]], %[[W]], %[[R]] : (tensor<2x4x8xf32>, tensor<8x6xf32>, tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
// CHECK-NEXT:    %[[T:.*]] = rlx.tanh %[[Y]]
// CHECK-NEXT:    return %[[T]]
// UNFUSED-LABEL: func.func @matmul_residual(
// UNFUSED-SAME:    %[[X:[a-z0-9]+]]: tensor<2x4x8xf32>, %[[W:[a-z0-9]+]]: tensor<8x6xf32>, %[[R:[a-z0-9]+]]: tensor<2x4x6xf32>)
// UNFUSED-NEXT:    %[[M:.*]] = rlx.matmul %[[X]], %[[W]]
// UNFUSED-NEXT:    %[[Y:.*]] = rlx.add %[[M]], %[[R]]
// UNFUSED-NEXT:    %[[T:.*]] = rlx.tanh %[[Y]]
func.func @matmul_residual(%x: tensor<2x4x8xf32>, %w: tensor<8x6xf32>, %r: tensor<2x4x6xf32>)
    -> tensor<2x4x6xf32> {
  %m = rlx.matmul %x, %w : (tensor<2x4x8xf32>, tensor<8x6xf32>) -> tensor<2x4x6xf32>
  %y = rlx.add %r, %m : (tensor<2x4x6xf32>, tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  %t = rlx.tanh %y : tensor<2x4x6xf32>
  return %t : tensor<2x4x6xf32>
}

// -----

// Not fused: a matmul with a second user, a bias of shape [1, N] or [M, 1],
// an add that broadcasts the product further, an integer matmul.
// CHECK-LABEL: func.func @not_matmul_epilogue(
// CHECK-NOT:     rlx.matmul_bias_act
// CHECK-NOT:     rlx.matmul_residual
// CHECK:         return
func.func @not_matmul_epilogue(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>, %b: tensor<6xf32>,
                               %row: tensor<1x6xf32>, %col: tensor<4x1xf32>, %big: tensor<3x4x6xf32>,
                               %xi: tensor<4x8xi32>, %wi: tensor<8x6xi32>, %bi: tensor<6xi32>)
    -> (tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<3x4x6xf32>,
        tensor<4x6xi32>) {
  %m0 = rlx.matmul %x, %w : (tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  %s0 = rlx.add %m0, %b : (tensor<4x6xf32>, tensor<6xf32>) -> tensor<4x6xf32>
  %m1 = rlx.matmul %x, %w : (tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  %s1 = rlx.add %m1, %row : (tensor<4x6xf32>, tensor<1x6xf32>) -> tensor<4x6xf32>
  %m2 = rlx.matmul %x, %w : (tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  %s2 = rlx.add %col, %m2 : (tensor<4x1xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  %m3 = rlx.matmul %x, %w : (tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  %s3 = rlx.add %m3, %big : (tensor<4x6xf32>, tensor<3x4x6xf32>) -> tensor<3x4x6xf32>
  %mi = rlx.matmul %xi, %wi : (tensor<4x8xi32>, tensor<8x6xi32>) -> tensor<4x6xi32>
  %si = rlx.add %mi, %bi : (tensor<4x6xi32>, tensor<6xi32>) -> tensor<4x6xi32>
  return %s0, %m0, %s1, %s2, %s3, %si : tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>,
      tensor<4x6xf32>, tensor<3x4x6xf32>, tensor<4x6xi32>
}

// -----

// conv -> add(reshape(bias) to [1, C, 1, 1]) -> relu, and conv -> add(expand
// of a [C, 1, 1] reshape) -> add(residual) -> silu -> conv_bias_act, with
// every conv attribute kept.
// CHECK-LABEL: func.func @conv_bias_act(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<2x4x9x9xf32>, %[[W:[a-z0-9]+]]: tensor<6x2x3x3xf32>, %[[B:[a-z0-9]+]]: tensor<6xf32>, %[[R:[a-z0-9]+]]: tensor<2x6x4x3xf32>)
// CHECK-NEXT:    %[[A:.*]] = rlx.conv_bias_act %[[X]], %[[W]], %[[B]] stride = [2, 2] padding = [1, 0, 0, 1] dilation = [1, 2] groups = 2 activation = relu : (tensor<2x4x9x9xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<2x6x4x3xf32>
// CHECK-NEXT:    %[[C:.*]] = rlx.conv_bias_act %[[X]], %[[W]], %[[B]], %[[R]] stride = [2, 2] padding = [1, 0, 0, 1] dilation = [1, 2] groups = 2 activation = silu : (tensor<2x4x9x9xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>, tensor<2x6x4x3xf32>) -> tensor<2x6x4x3xf32>
// CHECK-NEXT:    return %[[A]], %[[C]]
// UNFUSED-LABEL: func.func @conv_bias_act(
// UNFUSED-SAME:    %[[X:[a-z0-9]+]]: tensor<2x4x9x9xf32>, %[[W:[a-z0-9]+]]: tensor<6x2x3x3xf32>, %[[B:[a-z0-9]+]]: tensor<6xf32>, %[[R:[a-z0-9]+]]: tensor<2x6x4x3xf32>)
// UNFUSED-NEXT:    %[[C0:.*]] = rlx.conv %[[X]], %[[W]] stride = [2, 2] padding = [1, 0, 0, 1] dilation = [1, 2] groups = 2
// UNFUSED-NEXT:    %[[B0:.*]] = rlx.reshape %[[B]] : tensor<6xf32> -> tensor<1x6x1x1xf32>
// UNFUSED-NEXT:    %[[S0:.*]] = rlx.add %[[C0]], %[[B0]]
// UNFUSED-NEXT:    %[[A:.*]] = rlx.relu %[[S0]]
// UNFUSED-NEXT:    %[[C1:.*]] = rlx.conv %[[X]], %[[W]]
// UNFUSED-NEXT:    %[[B1:.*]] = rlx.reshape %[[B]] : tensor<6xf32> -> tensor<1x6x1x1xf32>
// UNFUSED-NEXT:    %[[S1:.*]] = rlx.add %[[C1]], %[[B1]]
// UNFUSED-NEXT:    %[[T1:.*]] = rlx.add %[[S1]], %[[R]]
// UNFUSED-NEXT:    %[[C:.*]] = rlx.silu %[[T1]]
// UNFUSED-NEXT:    return %[[A]], %[[C]]
func.func @conv_bias_act(%x: tensor<2x4x9x9xf32>, %w: tensor<6x2x3x3xf32>, %b: tensor<6xf32>,
                         %r: tensor<2x6x4x3xf32>) -> (tensor<2x6x4x3xf32>, tensor<2x6x4x3xf32>) {
  %c0 = rlx.conv %x, %w stride = [2, 2] padding = [1, 0, 0, 1] dilation = [1, 2] groups = 2
      : (tensor<2x4x9x9xf32>, tensor<6x2x3x3xf32>) -> tensor<2x6x4x3xf32>
  %b0 = rlx.reshape %b : tensor<6xf32> -> tensor<1x6x1x1xf32>
  %s0 = rlx.add %c0, %b0 : (tensor<2x6x4x3xf32>, tensor<1x6x1x1xf32>) -> tensor<2x6x4x3xf32>
  %a = rlx.relu %s0 : tensor<2x6x4x3xf32>
  %c1 = rlx.conv %x, %w stride = [2, 2] padding = [1, 0, 0, 1] dilation = [1, 2] groups = 2
      : (tensor<2x4x9x9xf32>, tensor<6x2x3x3xf32>) -> tensor<2x6x4x3xf32>
  %b1 = rlx.reshape %b : tensor<6xf32> -> tensor<6x1x1xf32>
  %e1 = rlx.expand %b1 : tensor<6x1x1xf32> -> tensor<2x6x4x3xf32>
  %s1 = rlx.add %e1, %c1 : (tensor<2x6x4x3xf32>, tensor<2x6x4x3xf32>) -> tensor<2x6x4x3xf32>
  %t1 = rlx.add %r, %s1 : (tensor<2x6x4x3xf32>, tensor<2x6x4x3xf32>) -> tensor<2x6x4x3xf32>
  %c = rlx.silu %t1 : tensor<2x6x4x3xf32>
  return %a, %c : tensor<2x6x4x3xf32>, tensor<2x6x4x3xf32>
}

// -----

// A bias that is not a reshaped [C] vector (here an argument of shape
// [C, 1]) is reshaped to [C]; without an activation (rlx.clamp is none) or
// residual the fused op ends at the bias add; a residual add alone (no
// activation) joins.
// CHECK-LABEL: func.func @conv_bias_forms(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<1x3x8xf16>, %[[W:[a-z0-9]+]]: tensor<5x3x3xf16>, %[[B:[a-z0-9]+]]: tensor<5x1xf16>, %[[R:[a-z0-9]+]]: tensor<1x5x6xf16>)
// CHECK-NEXT:    %[[V:.*]] = rlx.reshape %[[B]] : tensor<5x1xf16> -> tensor<5xf16>
// CHECK-NEXT:    %[[A:.*]] = rlx.conv_bias_act %[[X]], %[[W]], %[[V]] stride = [1] padding = [0, 0] dilation = [1] groups = 1 : (tensor<1x3x8xf16>, tensor<5x3x3xf16>, tensor<5xf16>) -> tensor<1x5x6xf16>
// CHECK-NEXT:    %[[E:.*]] = rlx.clamp %[[A]]
// CHECK-NEXT:    %[[V2:.*]] = rlx.reshape %[[B]] : tensor<5x1xf16> -> tensor<5xf16>
// CHECK-NEXT:    %[[C:.*]] = rlx.conv_bias_act %[[X]], %[[W]], %[[V2]], %[[R]] stride = [1] padding = [0, 0] dilation = [1] groups = 1 : (tensor<1x3x8xf16>, tensor<5x3x3xf16>, tensor<5xf16>, tensor<1x5x6xf16>) -> tensor<1x5x6xf16>
// CHECK-NEXT:    return %[[E]], %[[C]]
func.func @conv_bias_forms(%x: tensor<1x3x8xf16>, %w: tensor<5x3x3xf16>, %b: tensor<5x1xf16>,
                           %r: tensor<1x5x6xf16>) -> (tensor<1x5x6xf16>, tensor<1x5x6xf16>) {
  %c0 = rlx.conv %x, %w stride = [1] padding = [0, 0] dilation = [1] groups = 1
      : (tensor<1x3x8xf16>, tensor<5x3x3xf16>) -> tensor<1x5x6xf16>
  %s0 = rlx.add %c0, %b : (tensor<1x5x6xf16>, tensor<5x1xf16>) -> tensor<1x5x6xf16>
  %e = rlx.clamp %s0 {max = 1.0 : f64} : tensor<1x5x6xf16>
  %c1 = rlx.conv %x, %w stride = [1] padding = [0, 0] dilation = [1] groups = 1
      : (tensor<1x3x8xf16>, tensor<5x3x3xf16>) -> tensor<1x5x6xf16>
  %s1 = rlx.add %c1, %b : (tensor<1x5x6xf16>, tensor<5x1xf16>) -> tensor<1x5x6xf16>
  %t1 = rlx.add %s1, %r : (tensor<1x5x6xf16>, tensor<1x5x6xf16>) -> tensor<1x5x6xf16>
  return %e, %t1 : tensor<1x5x6xf16>, tensor<1x5x6xf16>
}

// -----

// Not fused: a conv with a second user, a bias along the wrong axis, a
// full-shape (not per-channel) first add.
// CHECK-LABEL: func.func @not_conv_bias(
// CHECK-NOT:     rlx.conv_bias_act
// CHECK:         return
func.func @not_conv_bias(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>,
                         %wrong: tensor<1x1x6x1xf32>, %full: tensor<1x4x6x6xf32>)
    -> (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) {
  %c0 = rlx.conv %x, %w stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 1
      : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  %b0 = rlx.reshape %b : tensor<4xf32> -> tensor<1x4x1x1xf32>
  %s0 = rlx.add %c0, %b0 : (tensor<1x4x6x6xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x6x6xf32>
  %c1 = rlx.conv %x, %w stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 1
      : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  %s1 = rlx.add %c1, %wrong : (tensor<1x4x6x6xf32>, tensor<1x1x6x1xf32>) -> tensor<1x4x6x6xf32>
  %c2 = rlx.conv %x, %w stride = [1, 1] padding = [0, 0, 0, 0] dilation = [1, 1] groups = 1
      : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  %s2 = rlx.add %c2, %full : (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %s0, %c0, %s1, %s2 : tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>
}

// -----

// add -> layer_norm with the sum also returned (after the norm): one
// residual_layer_norm whose sum replaces the add.
// CHECK-LABEL: func.func @residual_layer_norm(
// CHECK-SAME:      %[[X:[a-z0-9]+]]: tensor<4x8xf32>, %[[R:[a-z0-9]+]]: tensor<4x8xf32>, %[[G:[a-z0-9]+]]: tensor<8xf32>, %[[B:[a-z0-9]+]]: tensor<8xf32>)
// CHECK-NEXT:    %[[N:.*]], %[[S:.*]] = rlx.residual_layer_norm %[[X]], %[[R]], %[[G]], %[[B]] axis = -1 eps = 1.000000e-05
// CHECK-NEXT:    %[[E:.*]] = rlx.exp %[[S]]
// CHECK-NEXT:    return %[[N]], %[[E]]
// UNFUSED-LABEL: func.func @residual_layer_norm(
// UNFUSED-NEXT:    %[[S:.*]] = rlx.add
// UNFUSED-NEXT:    %[[N:.*]] = rlx.layer_norm %[[S]]
// UNFUSED-NEXT:    rlx.exp %[[S]]
func.func @residual_layer_norm(%x: tensor<4x8xf32>, %r: tensor<4x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %h = rlx.add %x, %r : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %n = rlx.layer_norm %h, %g, %b axis = -1 eps = 1.0e-5 : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %e = rlx.exp %h : tensor<4x8xf32>
  return %n, %e : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @residual_rms_norm(
// CHECK-NEXT:    %[[N:.*]], %{{.*}} = rlx.residual_rms_norm %{{.*}}, %{{.*}}, %{{.*}} axis = 1 eps
// CHECK-NEXT:    return %[[N]]
func.func @residual_rms_norm(%x: tensor<4x8xf16>, %r: tensor<4x8xf16>, %g: tensor<8xf16>) -> tensor<4x8xf16> {
  %h = rlx.add %r, %x : (tensor<4x8xf16>, tensor<4x8xf16>) -> tensor<4x8xf16>
  %n = rlx.rms_norm %h, %g axis = 1 eps = 1.0e-6 : (tensor<4x8xf16>, tensor<8xf16>) -> tensor<4x8xf16>
  return %n : tensor<4x8xf16>
}

// -----

// Negative: a broadcasting add is no residual; a sum read before the norm
// cannot come from the fused op; saved statistics are not fused.
// CHECK-LABEL: func.func @residual_norm_negative(
// CHECK-NOT:     rlx.residual_
// CHECK:         return
func.func @residual_norm_negative(%x: tensor<4x8xf32>, %b1: tensor<8xf32>, %g: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x1xf32>) {
  %h = rlx.add %x, %b1 : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %n = rlx.rms_norm %h, %g axis = 1 eps = 1.0e-6 : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %h2 = rlx.add %x, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %e = rlx.exp %h2 : tensor<4x8xf32>
  %n2 = rlx.rms_norm %h2, %g axis = 1 eps = 1.0e-6 : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %h3 = rlx.add %e, %x : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %n3:2 = rlx.rms_norm %h3, %g axis = 1 eps = 1.0e-6 with_statistics : (tensor<4x8xf32>, tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x1xf32>)
  return %n, %n2, %e, %n3#0, %n3#1 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x1xf32>
}
