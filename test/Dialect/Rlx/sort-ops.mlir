// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// Round-trip of sort, argsort, cummax_indices and histogram through the
// custom and the generic form.

// CHECK-LABEL: func.func @sort(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x3x4xf32>, %[[B:[a-z0-9]+]]: tensor<?x5xi8>, %[[C:[a-z0-9]+]]: tensor<7xbf16>)
// CHECK-NEXT:    %{{.*}}, %{{.*}} = rlx.sort %[[A]] axis = 1 : tensor<2x3x4xf32> -> tensor<2x3x4xf32>, tensor<2x3x4xi64>
// CHECK-NEXT:    %{{.*}}, %{{.*}} = rlx.sort %[[A]] axis = -1 descending : tensor<2x3x4xf32> -> tensor<2x3x4xf32>, tensor<2x3x4xi64>
// CHECK-NEXT:    %{{.*}}, %{{.*}} = rlx.sort %[[B]] axis = 0 descending : tensor<?x5xi8> -> tensor<?x5xi8>, tensor<?x5xi64>
// CHECK-NEXT:    %{{.*}}, %{{.*}} = rlx.sort %[[C]] axis = 0 : tensor<7xbf16> -> tensor<7xbf16>, tensor<7xi64>
// CHECK-NEXT:    return
func.func @sort(%a: tensor<2x3x4xf32>, %b: tensor<?x5xi8>, %c: tensor<7xbf16>) {
  %0:2 = rlx.sort %a axis = 1 : tensor<2x3x4xf32> -> tensor<2x3x4xf32>, tensor<2x3x4xi64>
  %1:2 = rlx.sort %a axis = -1 descending : tensor<2x3x4xf32> -> tensor<2x3x4xf32>, tensor<2x3x4xi64>
  %2:2 = rlx.sort %b axis = 0 descending : tensor<?x5xi8> -> tensor<?x5xi8>, tensor<?x5xi64>
  %3:2 = rlx.sort %c axis = 0 : tensor<7xbf16> -> tensor<7xbf16>, tensor<7xi64>
  return
}

// CHECK-LABEL: func.func @argsort(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<?x?xf16>, %[[B:[a-z0-9]+]]: tensor<0x3xi64>)
// CHECK-NEXT:    %{{.*}} = rlx.argsort %[[A]] axis = -2 descending : tensor<?x?xf16> -> tensor<?x?xi64>
// CHECK-NEXT:    %{{.*}} = rlx.argsort %[[B]] axis = 1 : tensor<0x3xi64> -> tensor<0x3xi64>
// CHECK-NEXT:    return
func.func @argsort(%a: tensor<?x?xf16>, %b: tensor<0x3xi64>) {
  %0 = rlx.argsort %a axis = -2 descending : tensor<?x?xf16> -> tensor<?x?xi64>
  %1 = rlx.argsort %b axis = 1 : tensor<0x3xi64> -> tensor<0x3xi64>
  return
}

// CHECK-LABEL: func.func @cummax_indices(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<4x?xf32>, %[[B:[a-z0-9]+]]: tensor<6xi32>)
// CHECK-NEXT:    %{{.*}} = rlx.cummax_indices %[[A]] axis = 1 : tensor<4x?xf32> -> tensor<4x?xi64>
// CHECK-NEXT:    %{{.*}} = rlx.cummax_indices %[[B]] axis = -1 : tensor<6xi32> -> tensor<6xi64>
// CHECK-NEXT:    return
func.func @cummax_indices(%a: tensor<4x?xf32>, %b: tensor<6xi32>) {
  %0 = rlx.cummax_indices %a axis = 1 : tensor<4x?xf32> -> tensor<4x?xi64>
  %1 = rlx.cummax_indices %b axis = -1 : tensor<6xi32> -> tensor<6xi64>
  return
}

// CHECK-LABEL: func.func @histogram(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<?x128xf32>, %[[B:[a-z0-9]+]]: tensor<f64>)
// CHECK-NEXT:    %{{.*}} = rlx.histogram %[[A]] bins = 10 min = 0.000000e+00 max = 1.000000e+00 : tensor<?x128xf32> -> tensor<10xf32>
// CHECK-NEXT:    %{{.*}} = rlx.histogram %[[B]] bins = 1 min = -2.500000e+00 max = 3.000000e+00 : tensor<f64> -> tensor<1xf64>
// CHECK-NEXT:    return
func.func @histogram(%a: tensor<?x128xf32>, %b: tensor<f64>) {
  %0 = rlx.histogram %a bins = 10 min = 0.0 max = 1.0 : tensor<?x128xf32> -> tensor<10xf32>
  %1 = rlx.histogram %b bins = 1 min = -2.5 max = 3.0 : tensor<f64> -> tensor<1xf64>
  return
}
