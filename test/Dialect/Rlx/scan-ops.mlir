// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// Round-trip of the index reductions, scans and top-k through the custom and
// the generic form.

// CHECK-LABEL: func.func @argmax(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x3x4xf32>, %[[B:[a-z0-9]+]]: tensor<5xi8>, %[[C:[a-z0-9]+]]: tensor<3x1xf16>)
// CHECK-NEXT:    %{{.*}} = rlx.argmax %[[A]] axis = 1 : tensor<2x3x4xf32> -> tensor<2x4xi64>
// CHECK-NEXT:    %{{.*}} = rlx.argmax %[[A]] axis = -1 keep_dim : tensor<2x3x4xf32> -> tensor<2x3x1xi32>
// CHECK-NEXT:    %{{.*}} = rlx.argmax %[[B]] axis = 0 : tensor<5xi8> -> tensor<i64>
// CHECK-NEXT:    %{{.*}} = rlx.argmax %[[C]] axis = 1 keep_dim : tensor<3x1xf16> -> tensor<3x1xi64>
// CHECK-NEXT:    return
func.func @argmax(%a: tensor<2x3x4xf32>, %b: tensor<5xi8>, %c: tensor<3x1xf16>) {
  %0 = rlx.argmax %a axis = 1 : tensor<2x3x4xf32> -> tensor<2x4xi64>
  %1 = rlx.argmax %a axis = -1 keep_dim : tensor<2x3x4xf32> -> tensor<2x3x1xi32>
  %2 = rlx.argmax %b axis = 0 : tensor<5xi8> -> tensor<i64>
  %3 = rlx.argmax %c axis = 1 keep_dim : tensor<3x1xf16> -> tensor<3x1xi64>
  return
}

// CHECK-LABEL: func.func @argmin(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x3x4xbf16>, %[[B:[a-z0-9]+]]: tensor<0x5xi64>)
// CHECK-NEXT:    %{{.*}} = rlx.argmin %[[A]] axis = 0 keep_dim : tensor<2x3x4xbf16> -> tensor<1x3x4xi32>
// CHECK-NEXT:    %{{.*}} = rlx.argmin %[[B]] axis = -1 : tensor<0x5xi64> -> tensor<0xi64>
// CHECK-NEXT:    return
func.func @argmin(%a: tensor<2x3x4xbf16>, %b: tensor<0x5xi64>) {
  %0 = rlx.argmin %a axis = 0 keep_dim : tensor<2x3x4xbf16> -> tensor<1x3x4xi32>
  %1 = rlx.argmin %b axis = -1 : tensor<0x5xi64> -> tensor<0xi64>
  return
}

// CHECK-LABEL: func.func @scans(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x3xf32>, %[[B:[a-z0-9]+]]: tensor<4xi32>, %[[C:[a-z0-9]+]]: tensor<0x2xf16>)
// CHECK-NEXT:    %{{.*}} = rlx.cumsum %[[A]] axis = 1 : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.cumsum %[[B]] axis = -1 exclusive : tensor<4xi32>
// CHECK-NEXT:    %{{.*}} = rlx.cumprod %[[A]] axis = -2 : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.cumprod %[[C]] axis = 0 exclusive : tensor<0x2xf16>
// CHECK-NEXT:    %{{.*}} = rlx.cummax %[[A]] axis = 0 : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.cummax %[[B]] axis = 0 exclusive : tensor<4xi32>
// CHECK-NEXT:    return
func.func @scans(%a: tensor<2x3xf32>, %b: tensor<4xi32>, %c: tensor<0x2xf16>) {
  %0 = rlx.cumsum %a axis = 1 : tensor<2x3xf32>
  %1 = rlx.cumsum %b axis = -1 exclusive : tensor<4xi32>
  %2 = rlx.cumprod %a axis = -2 : tensor<2x3xf32>
  %3 = rlx.cumprod %c axis = 0 exclusive : tensor<0x2xf16>
  %4 = rlx.cummax %a axis = 0 : tensor<2x3xf32>
  %5 = rlx.cummax %b axis = 0 exclusive : tensor<4xi32>
  return
}

// CHECK-LABEL: func.func @topk(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x5xf32>, %[[B:[a-z0-9]+]]: tensor<7xi16>)
// CHECK-NEXT:    %{{.*}}, %{{.*}} = rlx.topk %[[A]] k = 2 : tensor<2x5xf32> -> tensor<2x2xf32>, tensor<2x2xi64>
// CHECK-NEXT:    %{{.*}}, %{{.*}} = rlx.topk %[[B]] k = 7 smallest : tensor<7xi16> -> tensor<7xi16>, tensor<7xi64>
// CHECK-NEXT:    return
func.func @topk(%a: tensor<2x5xf32>, %b: tensor<7xi16>) {
  %0:2 = rlx.topk %a k = 2 : tensor<2x5xf32> -> tensor<2x2xf32>, tensor<2x2xi64>
  %1:2 = rlx.topk %b k = 7 smallest : tensor<7xi16> -> tensor<7xi16>, tensor<7xi64>
  return
}
