// RUN: rlx-opt %s --split-input-file --rlx-gpu-emulate-tile-kernels="thread-order=descending block-size=64" --canonicalize | FileCheck %s
// RUN: rlx-opt %s --split-input-file --rlx-gpu-emulate-tile-kernels="block-size=64" --canonicalize | FileCheck %s --check-prefix=ASCENDING
// RUN: not rlx-opt %s --split-input-file --rlx-gpu-emulate-tile-kernels="thread-order=sideways" 2>&1 | FileCheck %s --check-prefix=ORDER

// Each tile is scaled into a buffer, then written out reversed: the second
// stage reads elements other threads wrote, so on the GPU a barrier
// separates the stages. Emulated, the blocks run one after another and each
// stage is a loop over the 64 threads (from the last, descending), each
// running its share of the stage (thread t: iterations t, t + 64, ...).
// What is the same in every thread (views) is computed once, before.
// CHECK-LABEL: func.func @reversed
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C63:.*]] = arith.constant 63 : index
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK:         %[[BUFFER:.*]] = memref.alloc() : memref<64xf32>
// CHECK:         scf.for %[[TILE:.*]] = %[[C0]] to %[[C4]] step %[[C1]] {
// CHECK:           %[[SOURCE:.*]] = memref.subview %{{.*}}[%[[TILE]], 0]
// CHECK:           %[[TARGET:.*]] = memref.subview %{{.*}}[%[[TILE]], 0]
// CHECK:           scf.for %[[T:.*]] = %[[C0]] to %[[C64]] step %[[C1]] {
// CHECK:             %[[TID:.*]] = arith.subi %[[C63]], %[[T]] : index
// CHECK:             scf.for %[[I:.*]] = %[[TID]] to %[[C64]] step %[[C64]] {
// CHECK:               memref.load %[[SOURCE]][%[[I]]]
// CHECK:               memref.store %{{.*}}, %[[BUFFER]][%[[I]]]
// CHECK:           scf.for %[[T2:.*]] = %[[C0]] to %[[C64]] step %[[C1]] {
// CHECK:             %[[TID2:.*]] = arith.subi %[[C63]], %[[T2]] : index
// CHECK:             scf.for %[[J:.*]] = %[[TID2]] to %[[C64]] step %[[C64]] {
// CHECK:               memref.load %[[BUFFER]]
// CHECK:               memref.store %{{.*}}, %[[TARGET]][%[[J]]]
// CHECK-NOT:     scf.forall
// ASCENDING-LABEL: func.func @reversed
// ASCENDING:         scf.for %[[T:.*]] = %c0 to %c64 step %c1 {
// ASCENDING-NEXT:      scf.for %{{.*}} = %[[T]] to %c64 step %c64
func.func @reversed(%in: memref<4x64xf32>, %out: memref<4x64xf32>) {
  %two = arith.constant 2.0 : f32
  scf.forall (%i) in (4) {
    %buffer = memref.alloc() : memref<64xf32>
    %source = memref.subview %in[%i, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<64xf32, strided<[1], offset: ?>>
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
        ins(%source : memref<64xf32, strided<[1], offset: ?>>) outs(%buffer : memref<64xf32>) {
    ^bb0(%x: f32, %y: f32):
      %scaled = arith.mulf %x, %two : f32
      linalg.yield %scaled : f32
    }
    %target = memref.subview %out[%i, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<64xf32, strided<[1], offset: ?>>
    linalg.generic {indexing_maps = [affine_map<(d0) -> (63 - d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
        ins(%buffer : memref<64xf32>) outs(%target : memref<64xf32, strided<[1], offset: ?>>) {
    ^bb0(%x: f32, %y: f32):
      linalg.yield %x : f32
    }
  }
  return
}

// -----

// Stages that keep every element in its thread need no barrier: one loop
// over the threads runs both.
// CHECK-LABEL: func.func @same_thread
// CHECK:         scf.for
// CHECK:           scf.for %[[T:.*]] =
// CHECK-COUNT-2:     scf.for %{{.*}} = %{{.*}} to %c64 step %c64
// CHECK-NOT:       scf.for
// CHECK:         return
func.func @same_thread(%in: memref<4x64xf32>, %out: memref<4x64xf32>) {
  %two = arith.constant 2.0 : f32
  scf.forall (%i) in (4) {
    %buffer = memref.alloc() : memref<64xf32>
    %source = memref.subview %in[%i, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<64xf32, strided<[1], offset: ?>>
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
        ins(%source : memref<64xf32, strided<[1], offset: ?>>) outs(%buffer : memref<64xf32>) {
    ^bb0(%x: f32, %y: f32):
      %scaled = arith.mulf %x, %two : f32
      linalg.yield %scaled : f32
    }
    %target = memref.subview %out[%i, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<64xf32, strided<[1], offset: ?>>
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
        ins(%buffer : memref<64xf32>) outs(%target : memref<64xf32, strided<[1], offset: ?>>) {
    ^bb0(%x: f32, %y: f32):
      %doubled = arith.addf %x, %x : f32
      linalg.yield %doubled : f32
    }
  }
  return
}

// -----

// A row sum is a block reduction (on the GPU, gpu.all_reduce): each thread
// leaves its partial sum in a buffer, and the total is folded from them in
// thread order once all are done, into the accumulator, private to each
// thread on the GPU and one copy here. Thread 0 stores the result.
// CHECK-LABEL: func.func @block_reduction
// CHECK:         %[[SUM:.*]] = memref.alloc() : memref<1xf32>
// CHECK:         %[[PARTIALS:.*]] = memref.alloc() : memref<64xf32>
// CHECK:         scf.for %[[TILE:.*]] = %c0 to %c4 step %c1 {
// CHECK:           %[[ACC:.*]] = memref.load %[[SUM]][%c0]
// CHECK:           scf.for %[[T:.*]] = %c0 to %c64 step %c1 {
// CHECK:             %[[TID:.*]] = arith.subi %c63, %[[T]]
// CHECK:             %[[PARTIAL:.*]] = scf.for %{{.*}} = %[[TID]] to %c64 step %c64 iter_args
// CHECK:             memref.store %[[PARTIAL]], %[[PARTIALS]][%[[TID]]]
// CHECK:           %[[TOTAL:.*]] = scf.for %[[U:.*]] = %c0 to %c64 step %c1 iter_args(%[[RUNNING:.*]] = %{{.*}})
// CHECK:             memref.load %[[PARTIALS]][%[[U]]]
// CHECK:           %[[FOLDED:.*]] = arith.addf %[[ACC]], %[[TOTAL]]
// CHECK:           memref.store %[[FOLDED]], %[[SUM]][%c0]
// CHECK:           %[[RESULT:.*]] = memref.load %[[SUM]][%c0]
// CHECK:           scf.for %[[T2:.*]] = %c0 to %c64 step %c1 {
// CHECK:             %[[TID2:.*]] = arith.subi %c63, %[[T2]]
// CHECK:             %[[FIRST:.*]] = arith.cmpi eq, %[[TID2]], %c0
// CHECK:             scf.if %[[FIRST]] {
// CHECK:               memref.store %[[RESULT]], %{{.*}}[%[[TILE]]]
// CHECK-NOT:     scf.forall
func.func @block_reduction(%in: memref<4x64xf32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  scf.forall (%i) in (4) {
    %sum = memref.alloc() : memref<1xf32>
    memref.store %zero, %sum[%c0] : memref<1xf32>
    %source = memref.subview %in[%i, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<64xf32, strided<[1], offset: ?>>
    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (0)>], iterator_types = ["reduction"]}
        ins(%source : memref<64xf32, strided<[1], offset: ?>>) outs(%sum : memref<1xf32>) {
    ^bb0(%x: f32, %acc: f32):
      %added = arith.addf %acc, %x : f32
      linalg.yield %added : f32
    }
    %total = memref.load %sum[%c0] : memref<1xf32>
    memref.store %total, %out[%i] : memref<4xf32>
  }
  return
}

// -----

// ORDER: error: thread-order must be 'ascending' or 'descending', not 'sideways'
func.func @any(%in: memref<4xf32>) {
  return
}
