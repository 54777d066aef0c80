// RUN: rlx-opt %s --split-input-file --rlx-cpu-split-broadcast-reads | FileCheck %s

// A row's scale read back for a register tile of the row: one element,
// then a broadcast, rather than a transfer that convert-vector-to-scf would
// make a loop of single-lane inserts.
// CHECK-LABEL: func.func @row_scale(
// CHECK-SAME:      %[[M:.*]]: memref<2x32x1xf32>, %[[I:.*]]: index, %[[J:.*]]: index)
// CHECK:         %[[E:.*]] = vector.transfer_read %[[M]][%[[I]], %[[J]], %{{.*}}], %{{.*}} {in_bounds = [true, true, true]} : memref<2x32x1xf32>, vector<1x1x1xf32>
// CHECK:         %[[V:.*]] = vector.broadcast %[[E]] : vector<1x1x1xf32> to vector<1x1x64xf32>
// CHECK:         return %[[V]]
func.func @row_scale(%m: memref<2x32x1xf32>, %i: index, %j: index) -> vector<1x1x64xf32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %m[%i, %j, %c0], %pad {in_bounds = [true, true, true], permutation_map = affine_map<(d0, d1, d2) -> (d0, d1, 0)>} : memref<2x32x1xf32>, vector<1x1x64xf32>
  return %v : vector<1x1x64xf32>
}

// -----

// Broadcasts in leading and minor dimensions; the read dimension keeps its
// size and its in_bounds.
// CHECK-LABEL: func.func @two_broadcasts(
// CHECK:         %[[E:.*]] = vector.transfer_read {{.*}} {in_bounds = [true, false, true]} : memref<?x?x?xf32>, vector<1x8x1xf32>
// CHECK:         vector.broadcast %[[E]] : vector<1x8x1xf32> to vector<4x8x16xf32>
func.func @two_broadcasts(%m: memref<?x?x?xf32>, %i: index) -> vector<4x8x16xf32> {
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %m[%i, %i, %i], %pad {in_bounds = [true, false, true], permutation_map = affine_map<(d0, d1, d2) -> (0, d1, 0)>} : memref<?x?x?xf32>, vector<4x8x16xf32>
  return %v : vector<4x8x16xf32>
}

// -----

// Left alone: reads without broadcasts, masked reads, permutations (not a
// minor identity) and reads of tensors.
// CHECK-LABEL: func.func @unchanged(
// CHECK-NOT:     vector.broadcast
// CHECK-COUNT-4: vector.transfer_read
// CHECK-NOT:     vector.broadcast
func.func @unchanged(%m: memref<8x8xf32>, %t: tensor<8x8xf32>, %i: index, %mask: vector<1xi1>)
    -> (vector<8xf32>, vector<16xf32>, vector<8x8xf32>, vector<16xf32>) {
  %pad = arith.constant 0.0 : f32
  %a = vector.transfer_read %m[%i, %i], %pad {in_bounds = [true]} : memref<8x8xf32>, vector<8xf32>
  %b = vector.transfer_read %m[%i, %i], %pad, %mask {permutation_map = affine_map<(d0, d1) -> (0)>} : memref<8x8xf32>, vector<16xf32>
  %c = vector.transfer_read %m[%i, %i], %pad {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<8x8xf32>, vector<8x8xf32>
  %d = vector.transfer_read %t[%i, %i], %pad {in_bounds = [true], permutation_map = affine_map<(d0, d1) -> (0)>} : tensor<8x8xf32>, vector<16xf32>
  return %a, %b, %c, %d : vector<8xf32>, vector<16xf32>, vector<8x8xf32>, vector<16xf32>
}
