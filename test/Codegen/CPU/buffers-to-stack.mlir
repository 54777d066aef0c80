// RUN: rlx-opt %s --split-input-file --rlx-cpu-buffers-to-stack | FileCheck %s
// RUN: rlx-opt %s --split-input-file --rlx-cpu-buffers-to-stack="max-scope-bytes=4096" | FileCheck %s --check-prefix=SCOPE

// A thread tile's buffer of `?` rows bounded by the tile (64 rows of 16
// floats): one stack buffer per thread of the team, at the start of the
// parallel region, viewed with the tile's rows in each iteration.
// CHECK-LABEL: func.func @thread_tile(
// CHECK:         omp.parallel {
// CHECK-NEXT:      %[[STACK:.*]] = memref.alloca() {alignment = 64 : i64} : memref<4096xi8>
// CHECK:           omp.loop_nest
// CHECK:             %[[ROWS:.*]] = affine.min
// CHECK:             %[[TILE:.*]] = memref.view %[[STACK]][%{{.*}}][%[[ROWS]]] : memref<4096xi8> to memref<?x16xf32>
// CHECK:             memref.store %{{.*}}, %[[TILE]]
// CHECK-NOT:         memref.alloc(
// CHECK-NOT:         memref.dealloc
func.func @thread_tile(%n: index) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1.0 : f32
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c64) {
        %rows = affine.min affine_map<(d0)[s0] -> (64, s0 - d0)>(%i)[%n]
        %tile = memref.alloc(%rows) {alignment = 64 : i64} : memref<?x16xf32>
        memref.store %one, %tile[%c0, %c0] : memref<?x16xf32>
        memref.dealloc %tile : memref<?x16xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// A buffer of a sequential loop's iterations goes to the function's entry,
// out of the loop (an scf.for is an allocation scope, but its lowering does
// not restore the stack after each iteration); a static one too.
// CHECK-LABEL: func.func @sequential_loop(
// CHECK-DAG:     %[[STATIC:.*]] = memref.alloca() {alignment = 64 : i64} : memref<128xi8>
// CHECK-DAG:     %[[BOUNDED:.*]] = memref.alloca() {alignment = 64 : i64} : memref<32xi8>
// CHECK:         scf.for %[[I:.*]] =
// CHECK:           %[[REST:.*]] = affine.min
// CHECK:           memref.view %[[BOUNDED]][%{{.*}}][%[[REST]]] : memref<32xi8> to memref<?xf32>
// CHECK:           memref.view %[[STATIC]][%{{.*}}][] : memref<128xi8> to memref<4x8xf32>
// CHECK-NOT:     memref.alloc(
// CHECK-NOT:     memref.dealloc
func.func @sequential_loop(%n: index, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %n step %c8 {
    %rest = affine.min affine_map<(d0)[s0] -> (8, s0 - d0)>(%i)[%n]
    %part = memref.alloc(%rest) : memref<?xf32>
    %block = memref.alloc() : memref<4x8xf32>
    %x = memref.load %block[%c0, %c0] : memref<4x8xf32>
    memref.store %x, %part[%c0] : memref<?xf32>
    %y = memref.load %part[%c0] : memref<?xf32>
    memref.store %y, %out[%i] : memref<?xf32>
    memref.dealloc %block : memref<4x8xf32>
    memref.dealloc %part : memref<?xf32>
  }
  return
}

// -----

// Buffers that stay on the heap: in an scf.forall (its iterations may run
// at once), of a size without a constant bound, larger than
// max-buffer-bytes, freed in another block, or not freed (a result).
// CHECK-LABEL: func.func @heap_buffers(
// CHECK-NOT:     memref.alloca
// CHECK-COUNT-5: memref.alloc(
// CHECK-NOT:     memref.alloca
func.func @heap_buffers(%n: index, %flag: i1) -> memref<4xf32> {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  scf.forall (%i) in (4) {
    %tile = memref.alloc() : memref<16xf32>
    memref.store %one, %tile[%c0] : memref<16xf32>
    memref.dealloc %tile : memref<16xf32>
  }
  %unbounded = memref.alloc(%n) : memref<?xf32>
  memref.store %one, %unbounded[%c0] : memref<?xf32>
  memref.dealloc %unbounded : memref<?xf32>
  %large = memref.alloc() : memref<128x256xf32>
  memref.store %one, %large[%c0, %c0] : memref<128x256xf32>
  memref.dealloc %large : memref<128x256xf32>
  %elsewhere = memref.alloc() : memref<4xf32>
  scf.if %flag {
    memref.dealloc %elsewhere : memref<4xf32>
  }
  %result = memref.alloc() : memref<4xf32>
  memref.store %one, %result[%c0] : memref<4xf32>
  return %result : memref<4xf32>
}

// -----

// A scope's stack buffers stop at max-scope-bytes: the second 4 KiB buffer
// stays on the heap with a 4 KiB budget.
// SCOPE-LABEL: func.func @scope_budget(
// SCOPE:         memref.alloca() {alignment = 64 : i64} : memref<4096xi8>
// SCOPE-NOT:     memref.alloca
// SCOPE:         memref.view
// SCOPE:         memref.alloc() : memref<1024xf32>
// SCOPE:         memref.dealloc
// CHECK-LABEL: func.func @scope_budget(
// CHECK-COUNT-2: memref.alloca() {alignment = 64 : i64} : memref<4096xi8>
// CHECK-NOT:     memref.alloc(
func.func @scope_budget(%out: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : memref<1024xf32>
  %x = memref.load %a[%c0] : memref<1024xf32>
  memref.store %x, %out[%c0] : memref<2xf32>
  memref.dealloc %a : memref<1024xf32>
  %b = memref.alloc() : memref<1024xf32>
  %y = memref.load %b[%c0] : memref<1024xf32>
  memref.store %y, %out[%c1] : memref<2xf32>
  memref.dealloc %b : memref<1024xf32>
  return
}
