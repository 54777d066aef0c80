// RUN: rlx-opt %s --rlx-to-linalg -split-input-file | FileCheck %s

// scatter_elements: the indices get a coordinate dimension; every loop
// indexes them and all but the axis address the data, so only the axis is
// sequential; the combiner is the reduction.
// CHECK-LABEL: func.func @scatter_elements_max(
// CHECK-SAME:    %[[D:[a-z0-9]+]]: tensor<4x6xf32>, %[[I:[a-z0-9]+]]: tensor<3x6xi64>, %[[U:[a-z0-9]+]]: tensor<3x6xf32>)
// CHECK:         %[[I1:.*]] = tensor.expand_shape %[[I]] {{\[}}[0], [1, 2]] output_shape [3, 6, 1] : tensor<3x6xi64> into tensor<3x6x1xi64>
// CHECK:         %[[R:.*]] = rlx.scatter loop_dims = [-1, 1] index_loops = [0, 1] index_dims = [0] ins(%[[U]], %[[I1]] : tensor<3x6xf32>, tensor<3x6x1xi64>) outs(%[[D]] : tensor<4x6xf32>) {
// CHECK:         ^bb0(%[[UP:.*]]: f32, %[[CUR:.*]]: f32):
// CHECK:           %[[M:.*]] = arith.maximumf %[[CUR]], %[[UP]] : f32
// CHECK:           rlx.yield %[[M]] : f32
// CHECK:         return %[[R]]
func.func @scatter_elements_max(%d: tensor<4x6xf32>, %i: tensor<3x6xi64>, %u: tensor<3x6xf32>) -> tensor<4x6xf32> {
  %0 = rlx.scatter_elements max %d, %i, %u axis = 0 : (tensor<4x6xf32>, tensor<3x6xi64>, tensor<3x6xf32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

// scatter_add along the last axis of integers, and `none`, which yields the
// update.
// CHECK-LABEL: func.func @scatter_add_ints(
// CHECK:         rlx.scatter loop_dims = [0, -1] index_loops = [0, 1] index_dims = [1]
// CHECK:           arith.addi
// CHECK:         rlx.scatter loop_dims = [0, -1] index_loops = [0, 1] index_dims = [1]
// CHECK-NEXT:    ^bb0(%[[UP:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT:      rlx.yield %[[UP]] : i32
func.func @scatter_add_ints(%d: tensor<4x6xi32>, %i: tensor<4x2xi32>, %u: tensor<4x2xi32>) -> (tensor<4x6xi32>, tensor<4x6xi32>) {
  %0 = rlx.scatter_add %d, %i, %u axis = -1 : (tensor<4x6xi32>, tensor<4x2xi32>, tensor<4x2xi32>) -> tensor<4x6xi32>
  %1 = rlx.scatter_elements none %d, %i, %u axis = 1 : (tensor<4x6xi32>, tensor<4x2xi32>, tensor<4x2xi32>) -> tensor<4x6xi32>
  return %0, %1 : tensor<4x6xi32>, tensor<4x6xi32>
}

// -----

// scatter_nd with a batch dimension: the batch loop addresses data
// dimension 0 and indexes the indices, the position loop only indexes
// them (sequential), the slice loop addresses dimension 2; the indices are
// used as they are. Dynamic sizes pass through.
// CHECK-LABEL: func.func @scatter_nd_batch(
// CHECK-SAME:    %[[D:[a-z0-9]+]]: tensor<?x5x6xf32>, %[[I:[a-z0-9]+]]: tensor<?x3x1xi64>, %[[U:[a-z0-9]+]]: tensor<?x3x6xf32>)
// CHECK:         rlx.scatter loop_dims = [0, -1, 2] index_loops = [0, 1] index_dims = [1] ins(%[[U]], %[[I]] : tensor<?x3x6xf32>, tensor<?x3x1xi64>) outs(%[[D]] : tensor<?x5x6xf32>)
// CHECK:           arith.mulf
func.func @scatter_nd_batch(%d: tensor<?x5x6xf32>, %i: tensor<?x3x1xi64>, %u: tensor<?x3x6xf32>) -> tensor<?x5x6xf32> {
  %0 = rlx.scatter_nd mul %d, %i, %u batch_dims = 1 : (tensor<?x5x6xf32>, tensor<?x3x1xi64>, tensor<?x3x6xf32>) -> tensor<?x5x6xf32>
  return %0 : tensor<?x5x6xf32>
}

// -----

// gather_nd: a parallel generic over the result whose body reads each
// coordinate from the indices and clamps it (gather's rule) before reading
// the data.
// CHECK-LABEL: func.func @gather_nd(
// CHECK-SAME:    %[[D:[a-z0-9]+]]: tensor<4x5x6xf32>, %[[I:[a-z0-9]+]]: tensor<7x2xi32>)
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} outs(%{{.*}} : tensor<7x6xf32>)
// CHECK:           %[[T:.*]] = linalg.index 0 : index
// CHECK:           tensor.extract %[[I]][%[[T]], %{{.*}}] : tensor<7x2xi32>
// CHECK:           %[[C0:.*]] = arith.minsi
// CHECK:           tensor.extract %[[I]][%[[T]], %{{.*}}] : tensor<7x2xi32>
// CHECK:           %[[C1:.*]] = arith.minsi
// CHECK:           %[[S:.*]] = linalg.index 1 : index
// CHECK:           tensor.extract %[[D]][%[[C0]], %[[C1]], %[[S]]] : tensor<4x5x6xf32>
func.func @gather_nd(%d: tensor<4x5x6xf32>, %i: tensor<7x2xi32>) -> tensor<7x6xf32> {
  %0 = rlx.gather_nd %d, %i : (tensor<4x5x6xf32>, tensor<7x2xi32>) -> tensor<7x6xf32>
  return %0 : tensor<7x6xf32>
}
