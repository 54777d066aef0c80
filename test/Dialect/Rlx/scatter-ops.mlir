// RUN: rlx-opt %s | rlx-opt | FileCheck %s
// RUN: rlx-opt %s --mlir-print-op-generic | rlx-opt | FileCheck %s

// Round trip of the scatters and gather_nd through the custom and the
// generic form; batch_dims = 0 is not printed; `?` sizes follow the rules.

// CHECK-LABEL: func.func @scatter_elements(
// CHECK-SAME:    %[[D:[a-z0-9]+]]: tensor<4x6xf32>, %[[I:[a-z0-9]+]]: tensor<3x6xi64>, %[[U:[a-z0-9]+]]: tensor<3x6xf32>, %[[J:[a-z0-9]+]]: tensor<2x5xi32>, %[[V:[a-z0-9]+]]: tensor<2x5xi32>, %[[E:[a-z0-9]+]]: tensor<4x6xi32>)
// CHECK-NEXT:    %{{.*}} = rlx.scatter_elements none %[[D]], %[[I]], %[[U]] axis = 0 : (tensor<4x6xf32>, tensor<3x6xi64>, tensor<3x6xf32>) -> tensor<4x6xf32>
// CHECK-NEXT:    %{{.*}} = rlx.scatter_elements add %[[D]], %[[I]], %[[U]] axis = -2 : (tensor<4x6xf32>, tensor<3x6xi64>, tensor<3x6xf32>) -> tensor<4x6xf32>
// CHECK-NEXT:    %{{.*}} = rlx.scatter_elements mul %[[D]], %[[I]], %[[U]] axis = 0 : (tensor<4x6xf32>, tensor<3x6xi64>, tensor<3x6xf32>) -> tensor<4x6xf32>
// CHECK-NEXT:    %{{.*}} = rlx.scatter_elements max %[[E]], %[[J]], %[[V]] axis = 1 : (tensor<4x6xi32>, tensor<2x5xi32>, tensor<2x5xi32>) -> tensor<4x6xi32>
// CHECK-NEXT:    %{{.*}} = rlx.scatter_elements min %[[E]], %[[J]], %[[V]] axis = 1 : (tensor<4x6xi32>, tensor<2x5xi32>, tensor<2x5xi32>) -> tensor<4x6xi32>
// CHECK-NEXT:    %{{.*}} = rlx.scatter_add %[[D]], %[[I]], %[[U]] axis = 0 : (tensor<4x6xf32>, tensor<3x6xi64>, tensor<3x6xf32>) -> tensor<4x6xf32>
func.func @scatter_elements(%d: tensor<4x6xf32>, %i: tensor<3x6xi64>, %u: tensor<3x6xf32>, %j: tensor<2x5xi32>, %v: tensor<2x5xi32>, %e: tensor<4x6xi32>) {
  %0 = rlx.scatter_elements none %d, %i, %u axis = 0 : (tensor<4x6xf32>, tensor<3x6xi64>, tensor<3x6xf32>) -> tensor<4x6xf32>
  %1 = rlx.scatter_elements add %d, %i, %u axis = -2 : (tensor<4x6xf32>, tensor<3x6xi64>, tensor<3x6xf32>) -> tensor<4x6xf32>
  %2 = rlx.scatter_elements mul %d, %i, %u axis = 0 : (tensor<4x6xf32>, tensor<3x6xi64>, tensor<3x6xf32>) -> tensor<4x6xf32>
  %3 = rlx.scatter_elements max %e, %j, %v axis = 1 : (tensor<4x6xi32>, tensor<2x5xi32>, tensor<2x5xi32>) -> tensor<4x6xi32>
  %4 = rlx.scatter_elements min %e, %j, %v axis = 1 : (tensor<4x6xi32>, tensor<2x5xi32>, tensor<2x5xi32>) -> tensor<4x6xi32>
  %5 = rlx.scatter_add %d, %i, %u axis = 0 : (tensor<4x6xf32>, tensor<3x6xi64>, tensor<3x6xf32>) -> tensor<4x6xf32>
  return
}

// CHECK-LABEL: func.func @scatter_nd(
// CHECK-NEXT:    %{{.*}} = rlx.scatter_nd none %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4x5x6xbf16>, tensor<7x2xi64>, tensor<7x6xbf16>) -> tensor<4x5x6xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.scatter_nd add %{{.*}}, %{{.*}}, %{{.*}} batch_dims = 1 : (tensor<4x5x6xbf16>, tensor<4x3x1xi32>, tensor<4x3x6xbf16>) -> tensor<4x5x6xbf16>
// CHECK-NEXT:    %{{.*}} = rlx.scatter_nd max %{{.*}}, %{{.*}}, %{{.*}} : (tensor<?x5x6xf32>, tensor<?x3xi64>, tensor<?xf32>) -> tensor<?x5x6xf32>
func.func @scatter_nd(%d: tensor<4x5x6xbf16>, %i: tensor<7x2xi64>, %u: tensor<7x6xbf16>, %j: tensor<4x3x1xi32>, %v: tensor<4x3x6xbf16>, %dd: tensor<?x5x6xf32>, %ii: tensor<?x3xi64>, %uu: tensor<?xf32>) {
  %0 = rlx.scatter_nd none %d, %i, %u : (tensor<4x5x6xbf16>, tensor<7x2xi64>, tensor<7x6xbf16>) -> tensor<4x5x6xbf16>
  %1 = rlx.scatter_nd add %d, %j, %v batch_dims = 1 : (tensor<4x5x6xbf16>, tensor<4x3x1xi32>, tensor<4x3x6xbf16>) -> tensor<4x5x6xbf16>
  %2 = rlx.scatter_nd max %dd, %ii, %uu batch_dims = 0 : (tensor<?x5x6xf32>, tensor<?x3xi64>, tensor<?xf32>) -> tensor<?x5x6xf32>
  return
}

// CHECK-LABEL: func.func @gather_nd(
// CHECK-NEXT:    %{{.*}} = rlx.gather_nd %{{.*}}, %{{.*}} : (tensor<4x5x6xf32>, tensor<7x2xi64>) -> tensor<7x6xf32>
// CHECK-NEXT:    %{{.*}} = rlx.gather_nd %{{.*}}, %{{.*}} batch_dims = 1 : (tensor<4x5x6xf32>, tensor<4x2x3x2xi32>) -> tensor<4x2x3xf32>
// CHECK-NEXT:    %{{.*}} = rlx.gather_nd %{{.*}}, %{{.*}} : (tensor<?x5xi1>, tensor<3x?x2xi64>) -> tensor<3x?xi1>
func.func @gather_nd(%d: tensor<4x5x6xf32>, %i: tensor<7x2xi64>, %j: tensor<4x2x3x2xi32>, %b: tensor<?x5xi1>, %k: tensor<3x?x2xi64>) {
  %0 = rlx.gather_nd %d, %i : (tensor<4x5x6xf32>, tensor<7x2xi64>) -> tensor<7x6xf32>
  %1 = rlx.gather_nd %d, %j batch_dims = 1 : (tensor<4x5x6xf32>, tensor<4x2x3x2xi32>) -> tensor<4x2x3xf32>
  %2 = rlx.gather_nd %b, %k : (tensor<?x5xi1>, tensor<3x?x2xi64>) -> tensor<3x?xi1>
  return
}
