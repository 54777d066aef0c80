// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// Round-trip of rlx.scan and rlx.index_add, the code generation forms of
// the cumulative ops and of gather_backward, through the custom and the
// generic form.

// An exclusive f16 scan carrying an f32 running value.
// CHECK-LABEL: func.func @scan(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<4x8xf16>, %[[INIT:[a-z0-9]+]]: tensor<4x8xf16>)
// CHECK-NEXT:    %[[R:.*]] = rlx.scan axis = 1 exclusive identity = 0.000000e+00 : f32 ins(%[[X]] : tensor<4x8xf16>) outs(%[[INIT]] : tensor<4x8xf16>) {
// CHECK-NEXT:    ^bb0(%[[ACC:[a-z0-9]+]]: f32, %[[E:[a-z0-9]+]]: f16):
// CHECK-NEXT:      %[[W:.*]] = arith.extf %[[E]] : f16 to f32
// CHECK-NEXT:      %[[N:.*]] = arith.addf %[[ACC]], %[[W]] : f32
// CHECK-NEXT:      rlx.yield %[[N]] : f32
// CHECK-NEXT:    } -> tensor<4x8xf16>
// CHECK-NEXT:    return %[[R]]
func.func @scan(%x: tensor<4x8xf16>, %init: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %r = rlx.scan axis = 1 exclusive identity = 0.0 : f32 ins(%x : tensor<4x8xf16>) outs(%init : tensor<4x8xf16>) {
  ^bb0(%running: f32, %element: f16):
    %e = arith.extf %element : f16 to f32
    %next = arith.addf %running, %e : f32
    rlx.yield %next : f32
  } -> tensor<4x8xf16>
  return %r : tensor<4x8xf16>
}

// An inclusive integer scan over a dynamic tile.
// CHECK-LABEL: func.func @scan_dynamic(
// CHECK:         rlx.scan axis = 0 identity = -128 : i8 ins(%{{.*}} : tensor<?x3xi8>) outs(%{{.*}} : tensor<?x3xi8>) {
// CHECK:           arith.maxsi
// CHECK:         } -> tensor<?x3xi8>
func.func @scan_dynamic(%x: tensor<?x3xi8>, %init: tensor<?x3xi8>) -> tensor<?x3xi8> {
  %r = rlx.scan axis = 0 identity = -128 : i8 ins(%x : tensor<?x3xi8>) outs(%init : tensor<?x3xi8>) {
  ^bb0(%running: i8, %element: i8):
    %next = arith.maxsi %running, %element : i8
    rlx.yield %next : i8
  } -> tensor<?x3xi8>
  return %r : tensor<?x3xi8>
}

// An index of rank 2 along the middle axis, bf16 added into f32.
// CHECK-LABEL: func.func @index_add(
// CHECK-SAME:    %[[S:[a-z0-9]+]]: tensor<2x3x5x4xbf16>, %[[I:[a-z0-9]+]]: tensor<3x5xi32>, %[[T:[a-z0-9]+]]: tensor<2x10x4xf32>)
// CHECK-NEXT:    %[[R:.*]] = rlx.index_add axis = 1 ins(%[[S]], %[[I]] : tensor<2x3x5x4xbf16>, tensor<3x5xi32>) outs(%[[T]] : tensor<2x10x4xf32>) -> tensor<2x10x4xf32>
// CHECK-NEXT:    return %[[R]]
func.func @index_add(%s: tensor<2x3x5x4xbf16>, %i: tensor<3x5xi32>, %t: tensor<2x10x4xf32>) -> tensor<2x10x4xf32> {
  %r = rlx.index_add axis = 1 ins(%s, %i : tensor<2x3x5x4xbf16>, tensor<3x5xi32>) outs(%t : tensor<2x10x4xf32>) -> tensor<2x10x4xf32>
  return %r : tensor<2x10x4xf32>
}

// A rank-0 index removes the axis from the source.
// CHECK-LABEL: func.func @index_add_scalar_index(
// CHECK-NEXT:    rlx.index_add axis = 0 ins(%{{.*}}, %{{.*}} : tensor<4xf32>, tensor<i64>) outs(%{{.*}} : tensor<6x4xf32>) -> tensor<6x4xf32>
func.func @index_add_scalar_index(%s: tensor<4xf32>, %i: tensor<i64>, %t: tensor<6x4xf32>) -> tensor<6x4xf32> {
  %r = rlx.index_add axis = 0 ins(%s, %i : tensor<4xf32>, tensor<i64>) outs(%t : tensor<6x4xf32>) -> tensor<6x4xf32>
  return %r : tensor<6x4xf32>
}
