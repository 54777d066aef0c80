// RUN: rlx-opt %s --split-input-file --rlx-cpu-guard-parallel-regions | FileCheck %s

// A loop with a run-time bound runs in parallel only when it has more than
// one iteration; otherwise a sequential copy runs on the calling thread.
// CHECK-LABEL: func.func @runtime_bound(
// CHECK-SAME:      %[[N:.*]]: index
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK:         %[[SPAN:.*]] = arith.subi %[[N]], %[[C0]] : index
// CHECK:         %[[SEVERAL:.*]] = arith.cmpi sgt, %[[SPAN]], %[[C4]] : index
// CHECK:         scf.if %[[SEVERAL]] {
// CHECK-NEXT:      scf.parallel (%[[I:.*]]) = (%[[C0]]) to (%[[N]]) step (%[[C4]]) {
// CHECK-NEXT:        memref.store {{.*}}[%[[I]]]
// CHECK:         } else {
// CHECK-NEXT:      scf.for %[[J:.*]] = %[[C0]] to %[[N]] step %[[C4]] {
// CHECK-NEXT:        memref.store {{.*}}[%[[J]]]
// CHECK-NOT:     scf.parallel
// CHECK:         return
func.func @runtime_bound(%n: index, %m: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c4) {
    memref.store %one, %m[%i] : memref<?xf32>
    scf.reduce
  }
  return
}

// -----

// Two loops: parallel where either has more than one iteration; the
// sequential copy is a nest, so zero iterations of one stay zero.
// CHECK-LABEL: func.func @two_loops(
// CHECK-SAME:      %[[N:[^:]*]]: index, %[[TILE:[^:]*]]: index
// CHECK:         %[[A:.*]] = arith.cmpi sgt, {{.*}}, %[[TILE]] : index
// CHECK:         %[[B:.*]] = arith.cmpi sgt, {{.*}}, %{{.*}} : index
// CHECK:         %[[SEVERAL:.*]] = arith.ori %[[A]], %[[B]] : i1
// CHECK:         scf.if %[[SEVERAL]] {
// CHECK-NEXT:      scf.parallel (%{{.*}}, %{{.*}}) =
// CHECK:         } else {
// CHECK-NEXT:      scf.for
// CHECK-NEXT:        scf.for
// CHECK-NEXT:          memref.store
func.func @two_loops(%n: index, %tile: index, %m: memref<?x8xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %c8) step (%tile, %c4) {
    memref.store %one, %m[%i, %j] : memref<?x8xf32>
    scf.reduce
  }
  return
}

// -----

// Constant bounds were scheduled for their sizes: left alone. So are loops
// nested in a parallel loop (the outer one decides) and loops with
// reductions.
// CHECK-LABEL: func.func @left_alone(
// CHECK-NOT:     scf.if
// CHECK:         scf.parallel (%{{.*}}) = (%c0) to (%c8) step (%c4)
// CHECK:           scf.parallel (%{{.*}}) = (%c0) to (%{{.*}}) step (%c1)
// CHECK:         scf.parallel (%{{.*}}) = (%c0) to (%{{.*}}) step (%c1) init
// CHECK-NOT:     scf.if
// CHECK:         return
func.func @left_alone(%n: index, %m: memref<8x?xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%c8) step (%c4) {
    scf.parallel (%j) = (%c0) to (%n) step (%c1) {
      memref.store %one, %m[%i, %j] : memref<8x?xf32>
      scf.reduce
    }
    scf.reduce
  }
  %sum = scf.parallel (%j) = (%c0) to (%n) step (%c1) init (%zero) -> f32 {
    %x = memref.load %m[%c0, %j] : memref<8x?xf32>
    scf.reduce(%x : f32) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      scf.reduce.return %s : f32
    }
  }
  return %sum : f32
}
