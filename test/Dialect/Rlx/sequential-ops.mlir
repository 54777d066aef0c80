// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// Round-trip of rlx.associative_scan and rlx.scatter, the code generation forms of
// the cumulative ops and of the scatters and gather_backward, through the
// custom and the generic form.

// An exclusive f16 scan carrying an f32 running value.
// CHECK-LABEL: func.func @scan(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<4x8xf16>, %[[INIT:[a-z0-9]+]]: tensor<4x8xf16>)
// CHECK-NEXT:    %[[R:.*]] = rlx.associative_scan axis = 1 exclusive identity = 0.000000e+00 : f32 ins(%[[X]] : tensor<4x8xf16>) outs(%[[INIT]] : tensor<4x8xf16>) {
// CHECK-NEXT:    ^bb0(%[[ACC:[a-z0-9]+]]: f32, %[[E:[a-z0-9]+]]: f16):
// CHECK-NEXT:      %[[W:.*]] = arith.extf %[[E]] : f16 to f32
// CHECK-NEXT:      %[[N:.*]] = arith.addf %[[ACC]], %[[W]] : f32
// CHECK-NEXT:      rlx.yield %[[N]] : f32
// CHECK-NEXT:    } -> tensor<4x8xf16>
// CHECK-NEXT:    return %[[R]]
func.func @scan(%x: tensor<4x8xf16>, %init: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %r = rlx.associative_scan axis = 1 exclusive identity = 0.0 : f32 ins(%x : tensor<4x8xf16>) outs(%init : tensor<4x8xf16>) {
  ^bb0(%running: f32, %element: f16):
    %e = arith.extf %element : f16 to f32
    %next = arith.addf %running, %e : f32
    rlx.yield %next : f32
  } -> tensor<4x8xf16>
  return %r : tensor<4x8xf16>
}

// An inclusive integer scan over a dynamic tile.
// CHECK-LABEL: func.func @scan_dynamic(
// CHECK:         rlx.associative_scan axis = 0 identity = -128 : i8 ins(%{{.*}} : tensor<?x3xi8>) outs(%{{.*}} : tensor<?x3xi8>) {
// CHECK:           arith.maxsi
// CHECK:         } -> tensor<?x3xi8>
func.func @scan_dynamic(%x: tensor<?x3xi8>, %init: tensor<?x3xi8>) -> tensor<?x3xi8> {
  %r = rlx.associative_scan axis = 0 identity = -128 : i8 ins(%x : tensor<?x3xi8>) outs(%init : tensor<?x3xi8>) {
  ^bb0(%running: i8, %element: i8):
    %next = arith.maxsi %running, %element : i8
    rlx.yield %next : i8
  } -> tensor<?x3xi8>
  return %r : tensor<?x3xi8>
}

// gather_backward's form: an index of rank 2 along the middle axis, bf16
// added into f32 with clamped indices.
// CHECK-LABEL: func.func @scatter_gather_backward(
// CHECK-SAME:    %[[S:[a-z0-9]+]]: tensor<2x3x5x4xbf16>, %[[I:[a-z0-9]+]]: tensor<3x5x1xi32>, %[[T:[a-z0-9]+]]: tensor<2x10x4xf32>)
// CHECK-NEXT:    %[[R:.*]] = rlx.scatter loop_dims = [0, -1, -1, 2] index_loops = [1, 2] index_dims = [1] clamp_indices ins(%[[S]], %[[I]] : tensor<2x3x5x4xbf16>, tensor<3x5x1xi32>) outs(%[[T]] : tensor<2x10x4xf32>) {
// CHECK-NEXT:    ^bb0(%[[U:.*]]: bf16, %[[C:.*]]: f32):
// CHECK-NEXT:      %[[E:.*]] = arith.extf %[[U]] : bf16 to f32
// CHECK-NEXT:      %[[N:.*]] = arith.addf %[[C]], %[[E]] : f32
// CHECK-NEXT:      rlx.yield %[[N]] : f32
// CHECK-NEXT:    } -> tensor<2x10x4xf32>
// CHECK-NEXT:    return %[[R]]
func.func @scatter_gather_backward(%s: tensor<2x3x5x4xbf16>, %i: tensor<3x5x1xi32>, %t: tensor<2x10x4xf32>) -> tensor<2x10x4xf32> {
  %r = rlx.scatter loop_dims = [0, -1, -1, 2] index_loops = [1, 2] index_dims = [1] clamp_indices ins(%s, %i : tensor<2x3x5x4xbf16>, tensor<3x5x1xi32>) outs(%t : tensor<2x10x4xf32>) {
  ^bb0(%u: bf16, %c: f32):
    %e = arith.extf %u : bf16 to f32
    %n = arith.addf %c, %e : f32
    rlx.yield %n : f32
  } -> tensor<2x10x4xf32>
  return %r : tensor<2x10x4xf32>
}

// scatter_elements' form: every loop indexes the indices, all but the axis
// address the data; `none` yields the update.
// CHECK-LABEL: func.func @scatter_elements_form(
// CHECK-NEXT:    rlx.scatter loop_dims = [0, -1] index_loops = [0, 1] index_dims = [1] ins(%{{.*}}, %{{.*}} : tensor<3x2xi32>, tensor<3x2x1xi64>) outs(%{{.*}} : tensor<4x5xi32>) {
func.func @scatter_elements_form(%u: tensor<3x2xi32>, %i: tensor<3x2x1xi64>, %t: tensor<4x5xi32>) -> tensor<4x5xi32> {
  %r = rlx.scatter loop_dims = [0, -1] index_loops = [0, 1] index_dims = [1] ins(%u, %i : tensor<3x2xi32>, tensor<3x2x1xi64>) outs(%t : tensor<4x5xi32>) {
  ^bb0(%a: i32, %b: i32):
    rlx.yield %a : i32
  } -> tensor<4x5xi32>
  return %r : tensor<4x5xi32>
}

// scatter_nd's form with no index loops: one update slice at one position
// of two coordinates, dynamic sizes.
// CHECK-LABEL: func.func @scatter_nd_form(
// CHECK-NEXT:    rlx.scatter loop_dims = [2] index_loops = [] index_dims = [0, 1] ins(%{{.*}}, %{{.*}} : tensor<?xf32>, tensor<2xi64>) outs(%{{.*}} : tensor<?x?x?xf32>) {
func.func @scatter_nd_form(%u: tensor<?xf32>, %i: tensor<2xi64>, %t: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %r = rlx.scatter loop_dims = [2] index_loops = [] index_dims = [0, 1] ins(%u, %i : tensor<?xf32>, tensor<2xi64>) outs(%t : tensor<?x?x?xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.maximumf %b, %a : f32
    rlx.yield %m : f32
  } -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}
