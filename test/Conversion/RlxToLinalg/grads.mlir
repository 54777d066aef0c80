// RUN: rlx-opt %s --rlx-to-linalg --rlx-gpu-select-lowering-config --rlx-tile-and-fuse --canonicalize -split-input-file | FileCheck %s

// The activation gradients are elementwise ops: one generic whose body is
// the forward op's buildGradient.
// CHECK-LABEL: func.func @relu_backward(
// CHECK:         linalg.generic
// CHECK:           arith.cmpf ole
// CHECK:           arith.select
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @relu_backward(%dy: tensor<4x8xf32>, %x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = rlx.relu_backward %dy, %x : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @tanh_backward(
// CHECK:         linalg.generic
// CHECK:           math.tanh
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @tanh_backward(%dy: tensor<4x8xf16>, %x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %0 = rlx.activation_backward tanh %dy, %x : tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}

// -----

// layer_norm_backward along the middle axis: dx in one row region (an
// scf.forall over the 2 x 4 rows with both row sums in one reduction
// generic), then dgamma and dbeta summed over axes 0 and 2.
// CHECK-LABEL: func.func @layer_norm_backward(
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) in (2, 4)
// CHECK:           linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-NOT:       iterator_types = ["parallel", "reduction", "parallel"]
// CHECK:           scf.forall.in_parallel
// CHECK:         linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "reduction"]
// CHECK:         linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "reduction"]
// CHECK-NOT:     scf.forall
// CHECK:         return
func.func @layer_norm_backward(%dy: tensor<2x6x4xf32>, %x: tensor<2x6x4xf32>, %g: tensor<6xf32>, %m: tensor<2x1x4xf32>, %r: tensor<2x1x4xf32>) -> (tensor<2x6x4xf32>, tensor<6xf32>, tensor<6xf32>) {
  %0:3 = rlx.layer_norm_backward %dy, %x, %g, %m, %r axis = 1 : (tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<6xf32>, tensor<2x1x4xf32>, tensor<2x1x4xf32>) -> (tensor<2x6x4xf32>, tensor<6xf32>, tensor<6xf32>)
  return %0#0, %0#1, %0#2 : tensor<2x6x4xf32>, tensor<6xf32>, tensor<6xf32>
}

// -----

// batch_norm_inference_backward: the channels are the rows, so all three
// gradients come out of one row region.
// CHECK-LABEL: func.func @batch_norm_backward(
// CHECK:         scf.forall (%{{.*}}) in (3)
// CHECK:           linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "reduction"]
// CHECK:           scf.forall.in_parallel
// CHECK-NOT:     linalg.generic {{.*}} "reduction"
// CHECK:         return
func.func @batch_norm_backward(%dy: tensor<2x3x4xf32>, %x: tensor<2x3x4xf32>, %g: tensor<3xf32>) -> (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>) {
  %0:3 = rlx.batch_norm_inference_backward %dy, %x, %g, %g, %g eps = 1.0e-5 : (tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>)
  return %0#0, %0#1, %0#2 : tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>
}

// -----

// The labelled cross-entropy gradient: one row region over the 3 rows.
// CHECK-LABEL: func.func @labels_backward(
// CHECK:         scf.forall (%{{.*}}) in (3)
// CHECK:           scf.forall.in_parallel
// CHECK-NOT:     scf.forall
// CHECK:         return
func.func @labels_backward(%l: tensor<3x10xf32>, %i: tensor<3xi64>, %d: tensor<3xf32>) -> tensor<3x10xf32> {
  %0 = rlx.softmax_cross_entropy_with_labels_backward %l, %i, %d : (tensor<3x10xf32>, tensor<3xi64>, tensor<3xf32>) -> tensor<3x10xf32>
  return %0 : tensor<3x10xf32>
}

// -----

// gated_residual_backward with a gate broadcast along axis 1: dupdate and
// the dgate sum in one row region over the 2 x 8 rows; dinput is dy.
// CHECK-LABEL: func.func @gated_residual_rows(
// CHECK-SAME:      %[[DY:[a-z0-9]+]]: tensor<2x5x8xf32>
// CHECK:         %[[R:.*]]:2 = scf.forall (%{{.*}}, %{{.*}}) in (2, 8)
// CHECK:           linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]
// CHECK:           scf.forall.in_parallel
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[DY]], %[[R]]#0, %[[R]]#1
func.func @gated_residual_rows(%dy: tensor<2x5x8xf32>, %u: tensor<2x5x8xf32>, %g: tensor<2x1x8xf32>) -> (tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<2x1x8xf32>) {
  %0:3 = rlx.gated_residual_backward %dy, %u, %g : (tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<2x1x8xf32>) -> (tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<2x1x8xf32>)
  return %0#0, %0#1, %0#2 : tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<2x1x8xf32>
}

// -----

// An unbroadcast gate has no rows: two elementwise products.
// CHECK-LABEL: func.func @gated_residual_full(
// CHECK-NOT:     scf.forall
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @gated_residual_full(%dy: tensor<5x8xf32>, %u: tensor<5x8xf32>, %g: tensor<5x8xf32>) -> (tensor<5x8xf32>, tensor<5x8xf32>, tensor<5x8xf32>) {
  %0:3 = rlx.gated_residual_backward %dy, %u, %g : (tensor<5x8xf32>, tensor<5x8xf32>, tensor<5x8xf32>) -> (tensor<5x8xf32>, tensor<5x8xf32>, tensor<5x8xf32>)
  return %0#0, %0#1, %0#2 : tensor<5x8xf32>, tensor<5x8xf32>, tensor<5x8xf32>
}

// -----

// ada_layer_norm_backward: dx in one row region over the 2 x 5 rows of the
// last axis; dscale and dshift summed over the broadcast axis 1 after it.
// CHECK-LABEL: func.func @ada_layer_norm_backward(
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) in (2, 5)
// CHECK:           linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:           scf.forall.in_parallel
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-NOT:     scf.forall
// CHECK:         return
func.func @ada_layer_norm_backward(%dy: tensor<2x5x8xf32>, %x: tensor<2x5x8xf32>, %s: tensor<2x1x8xf32>) -> (tensor<2x5x8xf32>, tensor<2x1x8xf32>, tensor<2x1x8xf32>) {
  %0:3 = rlx.ada_layer_norm_backward layer %dy, %x, %s eps = 1.0e-5 : (tensor<2x5x8xf32>, tensor<2x5x8xf32>, tensor<2x1x8xf32>) -> (tensor<2x5x8xf32>, tensor<2x1x8xf32>, tensor<2x1x8xf32>)
  return %0#0, %0#1, %0#2 : tensor<2x5x8xf32>, tensor<2x1x8xf32>, tensor<2x1x8xf32>
}
