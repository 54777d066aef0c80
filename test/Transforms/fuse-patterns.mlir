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
