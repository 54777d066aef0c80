// RUN: rlx-opt %s --rlx-map-to-gpu --canonicalize --split-input-file | FileCheck %s
// RUN: rlx-opt %s --rlx-map-to-gpu="shared-memory-bytes=4096" --canonicalize --split-input-file | FileCheck %s --check-prefix=SHORT

// A loop over independent tiles whose iterations run a uniform loop (the
// shape of attention's key loop): one block per tile. In each step a
// 32 x 32 tile is copied transposed into a buffer and each thread sums
// products for its elements of a 32 x 32 result, the reduction loop in the
// thread. The buffer lives in shared memory, its rows padded to 33
// elements; the copy reads the source along its rows (consecutive threads,
// consecutive elements). The step begins with a barrier (the last step's
// threads may still be reading the buffer), and one separates the copy
// from the products, which read elements other threads wrote.
// CHECK-LABEL: func.func @tile_loop
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c4, %{{.*}} = %c1, %{{.*}} = %c1) threads(%[[TID:[^,]*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c256, %{{.*}} = %c1, %{{.*}} = %c1)
// CHECK-SAME:      workgroup(%[[PADDED:.*]] : memref<32x33xf32, #gpu.address_space<workgroup>>)
// CHECK:           %[[TILE:.*]] = memref.subview %[[PADDED]][0, 0] [32, 32] [1, 1]
// CHECK:           scf.for %[[STEP:.*]] = %c0 to %c8 step %c1 {
// CHECK:             gpu.barrier
// CHECK:             scf.for %[[I:.*]] = %[[TID]] to %c1024 step %c256 {
// CHECK:               %[[C:.*]]:2 = affine.delinearize_index %[[I]] into (32, 32)
// CHECK:               %[[X:.*]] = memref.load %{{.*}}[%[[C]]#0, %[[C]]#1]
// CHECK:               memref.store %[[X]], %[[TILE]][%[[C]]#1, %[[C]]#0]
// CHECK:             gpu.barrier
// CHECK:             scf.for %[[J:.*]] = %[[TID]] to %c1024 step %c256 {
// CHECK:               %[[P:.*]]:2 = affine.delinearize_index %[[J]] into (32, 32)
// CHECK:               %[[INIT:.*]] = memref.load %[[OUT:[a-z0-9_]*]][%[[P]]#0, %[[P]]#1]
// CHECK:               %[[SUM:.*]] = scf.for %[[K:.*]] = %c0 to %c32 step %c1 iter_args(%[[ACC:.*]] = %[[INIT]])
// CHECK:                 memref.load %[[TILE]][%[[K]], %[[P]]#1]
// CHECK:               memref.store %[[SUM]], %[[OUT]][%[[P]]#0, %[[P]]#1]
// CHECK-NOT:     gpu.launch
// With 4 KiB of shared memory the buffer (4224 bytes padded) is a slice of
// a global scratch buffer, one per block.
// SHORT-LABEL: func.func @tile_loop
// SHORT:         %[[SCRATCH:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] () : memref<4x32x32xf32>
// SHORT:         gpu.launch blocks(%[[BLOCK:[^,]*]], {{.*}}) in
// SHORT-NOT:       workgroup(
// SHORT:           memref.subview %[[SCRATCH]][%[[BLOCK]], 0, 0] [1, 32, 32] [1, 1, 1]
func.func @tile_loop(%lhs: memref<4x32x32xf32>, %rhs: memref<256x32xf32>, %out: memref<4x32x32xf32>) {
  scf.forall (%t) in (4) {
    %acc = memref.subview %out[%t, 0, 0] [1, 32, 32] [1, 1, 1] : memref<4x32x32xf32> to memref<32x32xf32, strided<[32, 1], offset: ?>>
    %a = memref.subview %lhs[%t, 0, 0] [1, 32, 32] [1, 1, 1] : memref<4x32x32xf32> to memref<32x32xf32, strided<[32, 1], offset: ?>>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    scf.for %step = %c0 to %c8 step %c1 {
      %row = arith.muli %step, %c32 : index
      %b = memref.subview %rhs[%row, 0] [32, 32] [1, 1] : memref<256x32xf32> to memref<32x32xf32, strided<[32, 1], offset: ?>>
      %bt = memref.alloc() : memref<32x32xf32>
      linalg.transpose ins(%b : memref<32x32xf32, strided<[32, 1], offset: ?>>) outs(%bt : memref<32x32xf32>) permutation = [1, 0]
      linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
          ins(%a, %bt : memref<32x32xf32, strided<[32, 1], offset: ?>>, memref<32x32xf32>) outs(%acc : memref<32x32xf32, strided<[32, 1], offset: ?>>) {
      ^bb0(%x: f32, %y: f32, %z: f32):
        %m = arith.mulf %x, %y : f32
        %s = arith.addf %z, %m : f32
        linalg.yield %s : f32
      }
    }
  }
  return
}

// -----

// A conditional on a per-tile value (a remainder step) is uniform too; the
// threads take their elements inside it.
// CHECK-LABEL: func.func @tile_conditional
// CHECK:         gpu.launch
// CHECK:           %[[LAST:.*]] = arith.cmpi eq
// CHECK:           scf.if %[[LAST]] {
// CHECK:             scf.for %{{.*}} = %{{.*}} to %c64 step %c64 {
// CHECK:               arith.mulf
// CHECK-NOT:     gpu.launch
func.func @tile_conditional(%in: memref<4x64xf32>, %out: memref<4x64xf32>) {
  %c3 = arith.constant 3 : index
  %two = arith.constant 2.0 : f32
  scf.forall (%t) in (4) {
    %src = memref.subview %in[%t, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<64xf32, strided<[1], offset: ?>>
    %dst = memref.subview %out[%t, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<64xf32, strided<[1], offset: ?>>
    %last = arith.cmpi eq, %t, %c3 : index
    scf.if %last {
      linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
          ins(%src : memref<64xf32, strided<[1], offset: ?>>) outs(%dst : memref<64xf32, strided<[1], offset: ?>>) {
      ^bb0(%x: f32, %y: f32):
        %d = arith.mulf %x, %two : f32
        linalg.yield %d : f32
      }
    }
  }
  return
}

// -----

// A loop carrying values (not uniform by construction) is not a block's:
// the tile loop keeps a thread per tile (no barrier, no shared memory).
// CHECK-LABEL: func.func @carried_values
// CHECK:         gpu.launch
// CHECK-NOT:       gpu.barrier
// CHECK-NOT:       workgroup
// CHECK:         return
func.func @carried_values(%in: memref<4x64xf32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  scf.forall (%t) in (4) {
    %sum = scf.for %i = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> (f32) {
      %x = memref.load %in[%t, %i] : memref<4x64xf32>
      %s = arith.addf %acc, %x : f32
      scf.yield %s : f32
    }
    memref.store %sum, %out[%t] : memref<4xf32>
  }
  return
}
