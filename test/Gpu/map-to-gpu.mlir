// RUN: rlx-opt %s --rlx-map-to-gpu --canonicalize --split-input-file --verify-diagnostics | FileCheck %s
// RUN: rlx-opt %s --rlx-map-to-gpu="block-size=128" --canonicalize --split-input-file --verify-diagnostics | FileCheck %s --check-prefix=B128
// RUN: not rlx-opt %s --rlx-map-to-gpu="block-size=0" --split-input-file 2>&1 | FileCheck %s --check-prefix=BAD-SIZE
// RUN: not rlx-opt %s --rlx-map-to-gpu="max-blocks=0" --split-input-file 2>&1 | FileCheck %s --check-prefix=BAD-BLOCKS

// An elementwise op with a broadcast input: a grid-stride loop over the
// 64x1000 elements in vectors of 4, 16000 iterations on 63 (125) blocks of
// 256 (128) threads, the 2-d position of each vector recovered from the
// linear one.
// CHECK-LABEL: func.func @elementwise
// CHECK-DAG:     %[[N:.*]] = arith.constant 16000 : index
// CHECK-DAG:     %[[STRIDE:.*]] = arith.constant 16128 : index
// CHECK-DAG:     %[[THREADS:.*]] = arith.constant 256 : index
// CHECK-DAG:     %[[BLOCKS:.*]] = arith.constant 63 : index
// CHECK:         gpu.launch blocks(%[[BX:[^,]*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[BLOCKS]], %{{.*}} = %c1, %{{.*}} = %c1) threads(%[[TX:[^,]*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[THREADS]], %{{.*}} = %c1, %{{.*}} = %c1)
// CHECK:           %[[BASE:.*]] = arith.muli %[[BX]], %[[THREADS]] : index
// CHECK:           %[[FIRST:.*]] = arith.addi %[[BASE]], %[[TX]] : index
// CHECK:           scf.for %[[I:.*]] = %[[FIRST]] to %[[N]] step %[[STRIDE]] {
// CHECK:             %[[LIN:.*]] = arith.muli %[[I]], %c4 : index
// CHECK:             %[[POS:.*]]:2 = affine.delinearize_index %[[LIN]] into (64, 1000)
// CHECK:             vector.load %arg0[%[[POS]]#0, %[[POS]]#1] {alignment = 16 : i64} : memref<64x1000xf32>, vector<4xf32>
// CHECK:             vector.load %arg1[%[[POS]]#1] {alignment = 16 : i64} : memref<1000xf32>, vector<4xf32>
// CHECK:             arith.addf %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK:             vector.store %{{.*}}, %arg2[%[[POS]]#0, %[[POS]]#1] {alignment = 16 : i64}
// CHECK:           gpu.terminator
// CHECK-NEXT:    }
// CHECK-NEXT:    return
// B128-LABEL:  func.func @elementwise
// B128-DAG:      %[[THREADS:.*]] = arith.constant 128 : index
// B128-DAG:      %[[BLOCKS:.*]] = arith.constant 125 : index
// B128:          gpu.launch blocks({{.*}}) in (%{{.*}} = %[[BLOCKS]], {{.*}}) threads({{.*}}) in (%{{.*}} = %[[THREADS]],
// BAD-SIZE:    error: block-size must be positive
// BAD-BLOCKS:  error: max-blocks must be positive

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @elementwise(%x: memref<64x1000xf32>, %b: memref<1000xf32>, %o: memref<64x1000xf32>) {
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : memref<64x1000xf32>, memref<1000xf32>) outs(%o : memref<64x1000xf32>) {
  ^bb0(%a: f32, %c: f32, %out: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#red = affine_map<(d0, d1) -> (d0)>
// A row reduction: one block per row (64 blocks of 256 threads), the
// threads striding over the row into partial sums that gpu.all_reduce
// combines; thread 0 adds the total to the output.
// CHECK-LABEL: func.func @reduce_rows
// CHECK:         gpu.launch blocks(%[[ROW:[^,]*]], {{.*}}) in (%{{.*}} = %c64, %{{.*}} = %c1, %{{.*}} = %c1) threads(%[[TX:[^,]*]], {{.*}}) in (%{{.*}} = %c256, %{{.*}} = %c1, %{{.*}} = %c1)
// CHECK-NEXT:      %[[PART:.*]] = scf.for %[[K:.*]] = %[[TX]] to %c300 step %c256 iter_args(%[[P:.*]] = %cst) -> (f32) {
// CHECK-NEXT:        %[[X:.*]] = memref.load %arg0[%[[ROW]], %[[K]]]
// CHECK-NEXT:        %[[S:.*]] = arith.addf %[[X]], %[[P]]
// CHECK-NEXT:        scf.yield %[[S]]
// CHECK:           %[[TOTAL:.*]] = gpu.all_reduce add %[[PART]] uniform
// CHECK:           %[[FIRST:.*]] = arith.cmpi eq, %[[TX]], %c0
// CHECK-NEXT:      scf.if %[[FIRST]] {
// CHECK-NEXT:        %[[ACC:.*]] = memref.load %arg1[%[[ROW]]]
// CHECK-NEXT:        %[[SUM:.*]] = arith.addf %[[TOTAL]], %[[ACC]]
// CHECK-NEXT:        memref.store %[[SUM]], %arg1[%[[ROW]]]
func.func @reduce_rows(%x: memref<64x300xf32>, %o: memref<64xf32>) {
  linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x300xf32>) outs(%o : memref<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
// Reducing the outer dimension: one thread per output, neighbouring
// threads reading neighbouring elements; the reduced axis a loop in the
// thread.
// CHECK-LABEL: func.func @reduce_columns
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c1, %{{.*}} = %c1, %{{.*}} = %c1) threads(%[[TX:[^,]*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c64, %{{.*}} = %c1, %{{.*}} = %c1)
// CHECK-NOT:       gpu.all_reduce
// CHECK:           scf.for %[[K:.*]] = %c0 to %c300 step %c1 {
// CHECK-NEXT:        memref.load %arg0[%[[K]], %[[TX]]]
func.func @reduce_columns(%x: memref<300x64xf32>, %o: memref<64xf32>) {
  linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<300x64xf32>) outs(%o : memref<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#all = affine_map<(d0, d1) -> ()>
// A full reduction: one block of 128 threads for the 128 elements.
// CHECK-LABEL: func.func @reduce_all
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c1, %{{.*}} = %c1, %{{.*}} = %c1) threads(%[[TX:[^,]*]], {{.*}}) in (%{{.*}} = %c128, %{{.*}} = %c1, %{{.*}} = %c1)
// CHECK-NEXT:      scf.for %[[K:.*]] = %[[TX]] to %c128 step %c128
// CHECK-NEXT:        %[[IJ:.*]]:2 = affine.delinearize_index %[[K]] into (16, 8)
// CHECK-NEXT:        memref.load %arg0[%[[IJ]]#0, %[[IJ]]#1]
// CHECK:           gpu.all_reduce maximumf
// A combiner gpu.all_reduce has no operation for (a difference) keeps one
// thread per output.
// CHECK-LABEL: func.func @reduce_difference
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c1, %{{.*}} = %c1, %{{.*}} = %c1) threads({{.*}}) in (%{{.*}} = %c64, %{{.*}} = %c1, %{{.*}} = %c1)
// CHECK-NOT:       gpu.all_reduce
// CHECK:           scf.for %{{.*}} = %c0 to %c300 step %c1
// CHECK:             arith.subf
// A full reduction of fewer elements than a warp is one thread.
// CHECK-LABEL: func.func @reduce_few
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c1, %{{.*}} = %c1, %{{.*}} = %c1) threads({{.*}}) in (%{{.*}} = %c1, %{{.*}} = %c1, %{{.*}} = %c1)
// CHECK-NEXT:      scf.for %{{.*}} = %c0 to %c4
// CHECK-NEXT:        scf.for %{{.*}} = %c0 to %c4
func.func @reduce_all(%x: memref<16x8xf32>, %o: memref<f32>) {
  linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction"]}
      ins(%x : memref<16x8xf32>) outs(%o : memref<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.maximumf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}
func.func @reduce_difference(%x: memref<64x300xf32>, %o: memref<64xf32>) {
  linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x300xf32>) outs(%o : memref<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.subf %acc, %a : f32
    linalg.yield %s : f32
  }
  return
}
func.func @reduce_few(%x: memref<4x4xf32>, %o: memref<f32>) {
  linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction"]}
      ins(%x : memref<4x4xf32>) outs(%o : memref<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.maximumf %a, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

memref.global "private" constant @cst : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
// The constant is copied to a device buffer, the temporary lives in device
// memory, the copy to the result is a kernel, and both buffers are freed.
// CHECK-LABEL: func.func @buffers
// CHECK:         %[[CST:.*]] = memref.get_global @cst
// CHECK:         %[[DCST:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] () : memref<4xf32>
// CHECK:         gpu.memcpy async [%{{.*}}] %[[DCST]], %[[CST]]
// CHECK:         %[[TMP:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] () : memref<4xf32>
// CHECK:         gpu.launch
// CHECK:           vector.load %[[DCST]]
// CHECK:           vector.store %{{.*}}, %[[TMP]]
// CHECK:         gpu.launch
// CHECK:           vector.load %[[TMP]]
// CHECK:           vector.store %{{.*}}, %arg1
// CHECK:         gpu.dealloc async [%{{.*}}] %[[TMP]]
// CHECK:         gpu.dealloc async [%{{.*}}] %[[DCST]]
// CHECK:         return
func.func @buffers(%x: memref<4xf32>, %o: memref<4xf32>) {
  %c = memref.get_global @cst : memref<4xf32>
  %t = memref.alloc() : memref<4xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x, %c : memref<4xf32>, memref<4xf32>) outs(%t : memref<4xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %s = arith.mulf %a, %b : f32
    linalg.yield %s : f32
  }
  memref.copy %t, %o : memref<4xf32> to memref<4xf32>
  return
}

// -----

// Rows shorter than a warp: one row per thread, its buffer in the thread's
// local memory, its ops sequential loops.
// CHECK-LABEL: func.func @rows
// CHECK:         gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c32, %{{.*}} = %c1, %{{.*}} = %c1)
// CHECK-NEXT:      %[[BUF:.*]] = memref.alloca() : memref<16xf32>
// CHECK:           scf.for
// CHECK:             memref.store %{{.*}}, %[[BUF]]
// CHECK:           scf.for
// CHECK:             memref.load %[[BUF]]
// CHECK-NOT:     memref.alloc(
func.func @rows(%x: memref<32x16xf32>, %o: memref<32x16xf32>) {
  scf.forall (%r) in (32) {
    %buf = memref.alloc() : memref<16xf32>
    %in = memref.subview %x[%r, 0] [1, 16] [1, 1] : memref<32x16xf32> to memref<16xf32, strided<[1], offset: ?>>
    %out = memref.subview %o[%r, 0] [1, 16] [1, 1] : memref<32x16xf32> to memref<16xf32, strided<[1], offset: ?>>
    linalg.copy ins(%in : memref<16xf32, strided<[1], offset: ?>>) outs(%buf : memref<16xf32>)
    linalg.copy ins(%buf : memref<16xf32>) outs(%out : memref<16xf32, strided<[1], offset: ?>>)
  }
  return
}

// -----

// A thread's buffers of a partial tile's size get the size's constant bound
// and are allocated once, where the thread's code begins, also when a loop
// allocates them: the driver sizes the stack from the kernel's frame, which
// neither a run-time size nor an allocation per iteration fits.
// CHECK-LABEL: func.func @partial_tile_buffers
// CHECK:         gpu.launch
// CHECK-NEXT:      %[[TILE:.*]] = memref.alloca() : memref<16x8xf32>
// CHECK-NEXT:      %[[ROWS:.*]] = memref.alloca() : memref<16xf32>
// CHECK:           %[[N:.*]] = affine.min
// CHECK:           %[[ROWS_VIEW:.*]] = memref.reinterpret_cast %[[ROWS]] to offset: [0], sizes: [%[[N]]], strides: [1] : memref<16xf32> to memref<?xf32>
// CHECK:           scf.for
// CHECK-NEXT:        %[[TILE_VIEW:.*]] = memref.reinterpret_cast %[[TILE]] to offset: [0], sizes: [%[[N]], 8], strides: [8, 1] : memref<16x8xf32> to memref<?x8xf32>
// CHECK-NOT:     memref.alloc
#tail = affine_map<(d0) -> (-d0 * 16 + 37, 16)>
func.func @partial_tile_buffers(%x: memref<37x8xf32>, %o: memref<37xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.forall (%t) in (3) {
    %n = affine.min #tail(%t)
    %r = affine.apply affine_map<(d0) -> (d0 * 16)>(%t)
    %rows = memref.alloc(%n) : memref<?xf32>
    %in = memref.subview %x[%r, 0] [%n, 8] [1, 1] : memref<37x8xf32> to memref<?x8xf32, strided<[8, 1], offset: ?>>
    %out = memref.subview %o[%r] [%n] [1] : memref<37xf32> to memref<?xf32, strided<[1], offset: ?>>
    scf.for %k = %c0 to %c4 step %c1 {
      %tile = memref.alloc(%n) : memref<?x8xf32>
      linalg.copy ins(%in : memref<?x8xf32, strided<[8, 1], offset: ?>>) outs(%tile : memref<?x8xf32>)
      linalg.reduce ins(%tile : memref<?x8xf32>) outs(%rows : memref<?xf32>) dimensions = [1]
        (%a: f32, %b: f32) {
          %s = arith.addf %a, %b : f32
          linalg.yield %s : f32
        }
    }
    linalg.copy ins(%rows : memref<?xf32>) outs(%out : memref<?xf32, strided<[1], offset: ?>>)
  }
  return
}

// -----

// A buffer of run-time size with no constant bound, known before the kernel
// starts: a slice per thread of a device scratch buffer the host allocates
// (the slices 64-byte aligned) and frees.
// CHECK: #[[SLICES:.*]] = affine_map<()[s0, s1] -> (s1 * ((s0 ceildiv 16) * 64))>
// CHECK-LABEL: func.func @runtime_row_buffers(
// CHECK-SAME:    %[[X:[^:]*]]: memref<?x?xf32>
// CHECK:         %[[M:.*]] = memref.dim %[[X]], %c0
// CHECK:         %[[N:.*]] = memref.dim %[[X]], %c1
// CHECK:         %[[TOTAL:.*]] = affine.apply #[[SLICES]]()[%[[N]], %[[M]]]
// CHECK:         %[[SCRATCH:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] (%[[TOTAL]]) : memref<?xi8>
// CHECK:         gpu.launch
// CHECK:           %[[ROW:.*]] = arith.addi
// CHECK:           %[[AT:.*]] = affine.apply #[[SLICES]]()[%{{.*}}, %[[ROW]]]
// CHECK:           memref.view %[[SCRATCH]][%[[AT]]][%{{.*}}] : memref<?xi8> to memref<?xf32>
// CHECK:         gpu.dealloc async [%{{.*}}] %[[SCRATCH]] : memref<?xi8>
// CHECK-NOT:     memref.alloca(
func.func @runtime_row_buffers(%x: memref<?x?xf32>, %o: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %x, %c0 : memref<?x?xf32>
  %n = memref.dim %x, %c1 : memref<?x?xf32>
  scf.forall (%r) in (%m) {
    %buf = memref.alloc(%n) : memref<?xf32>
    %in = memref.subview %x[%r, 0] [1, %n] [1, 1] : memref<?x?xf32> to memref<?xf32, strided<[1], offset: ?>>
    %out = memref.subview %o[%r, 0] [1, %n] [1, 1] : memref<?x?xf32> to memref<?xf32, strided<[1], offset: ?>>
    linalg.copy ins(%in : memref<?xf32, strided<[1], offset: ?>>) outs(%buf : memref<?xf32>)
    linalg.copy ins(%buf : memref<?xf32>) outs(%out : memref<?xf32, strided<[1], offset: ?>>)
  }
  return
}

// -----

// A buffer a loop carries stays a new one in each iteration: the next reads
// the last.
// CHECK-LABEL: func.func @carried_buffer
// CHECK:         gpu.launch
// CHECK-NEXT:      %[[FIRST:.*]] = memref.alloca() : memref<8xf32>
// CHECK:           scf.for %{{.*}} iter_args(%[[PREV:.*]] = %[[FIRST]]) -> (memref<8xf32>) {
// CHECK-NEXT:        %[[NEXT:.*]] = memref.alloca() : memref<8xf32>
// CHECK:             scf.yield %[[NEXT]]
func.func @carried_buffer(%x: memref<4x8xf32>, %o: memref<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.forall (%r) in (4) {
    %init = memref.alloc() : memref<8xf32>
    %in = memref.subview %x[%r, 0] [1, 8] [1, 1] : memref<4x8xf32> to memref<8xf32, strided<[1], offset: ?>>
    linalg.copy ins(%in : memref<8xf32, strided<[1], offset: ?>>) outs(%init : memref<8xf32>)
    %last = scf.for %k = %c0 to %c3 step %c1 iter_args(%prev = %init) -> (memref<8xf32>) {
      %next = memref.alloc() : memref<8xf32>
      linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%prev : memref<8xf32>) outs(%next : memref<8xf32>) {
      ^bb0(%a: f32, %b: f32):
        %s = arith.addf %a, %a : f32
        linalg.yield %s : f32
      }
      scf.yield %next : memref<8xf32>
    }
    %out = memref.subview %o[%r, 0] [1, 8] [1, 1] : memref<4x8xf32> to memref<8xf32, strided<[1], offset: ?>>
    linalg.copy ins(%last : memref<8xf32>) outs(%out : memref<8xf32, strided<[1], offset: ?>>)
  }
  return
}

// -----

// A size the thread computes, without a constant bound: no place for it.
func.func @unbounded_thread_buffer(%x: memref<4xindex>, %o: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 1.0 : f32
  scf.forall (%r) in (4) {
    %n = memref.load %x[%r] : memref<4xindex>
    // expected-error @+1 {{a GPU thread's buffer whose size is neither bounded by a constant nor known before its kernel starts cannot be placed}}
    %buf = memref.alloc(%n) : memref<?xf32>
    linalg.fill ins(%cst : f32) outs(%buf : memref<?xf32>)
    %e = memref.load %buf[%c0] : memref<?xf32>
    memref.store %e, %o[%r] : memref<4xf32>
  }
  return
}

// -----

// Memory accesses that no kernel covers and no read-back handles are
// errors, never host code over device memory.
func.func @host_vector_read(%x: memref<4xf32>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'vector.load' would access device memory from the host}}
  %v = vector.load %x[%c0] : memref<4xf32>, vector<4xf32>
  return %v : vector<4xf32>
}

// -----

// An element the host returns is read back: a one-thread kernel copies it
// to a device scalar, then to a host one.
// CHECK-LABEL: func.func @host_read(
// CHECK-SAME:    %[[X:.*]]: memref<4xf32>)
// CHECK:         %[[DEV:.*]], %{{.*}} = gpu.alloc async {{.*}} () : memref<f32>
// CHECK:         %[[HOST:.*]] = memref.alloca() : memref<f32>
// CHECK:         gpu.launch
// CHECK:           %[[E:.*]] = memref.load %[[X]][%{{.*}}] : memref<4xf32>
// CHECK:           memref.store %[[E]], %[[DEV]][] : memref<f32>
// CHECK:         gpu.memcpy async {{.*}} %[[HOST]], %[[DEV]]
// CHECK:         %[[V:.*]] = memref.load %[[HOST]][] : memref<f32>
// CHECK:         gpu.dealloc async {{.*}} %[[DEV]]
// CHECK:         return %[[V]]
func.func @host_read(%x: memref<4xf32>) -> f32 {
  %c2 = arith.constant 2 : index
  %v = memref.load %x[%c2] : memref<4xf32>
  return %v : f32
}

// -----

func.func @host_loop_alloc(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{a buffer allocated inside host control flow cannot be placed in device memory}}
    %t = memref.alloc(%i) : memref<?xf32>
  }
  return
}

// -----

// A loop carrying a tensor that bufferization could not update in place
// yields a new buffer each iteration.
func.func @host_loop_yields_alloc(%x: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%b = %x) -> (memref<4xf32>) {
    // expected-error @+1 {{this value is carried out of a host loop or conditional in a new buffer each time, which the GPU pipeline cannot place in device memory (compute the carried tensor in place, or compile for the CPU)}}
    %t = memref.alloc() : memref<4xf32>
    linalg.copy ins(%b : memref<4xf32>) outs(%t : memref<4xf32>)
    scf.yield %t : memref<4xf32>
  }
  return
}

// -----

// A view of such a buffer carried out of the loop is the same case: one
// buffer for every iteration would be overwritten by the next.
func.func @host_loop_yields_view(%x: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%b = %x) -> (memref<4xf32>) {
    // expected-error @+1 {{this value is carried out of a host loop or conditional in a new buffer each time, which the GPU pipeline cannot place in device memory (compute the carried tensor in place, or compile for the CPU)}}
    %t = memref.alloc() : memref<2x4xf32>
    %row = memref.subview %t[0, 0] [1, 4] [1, 1] : memref<2x4xf32> to memref<4xf32, strided<[1]>>
    %c = memref.cast %row : memref<4xf32, strided<[1]>> to memref<4xf32>
    linalg.copy ins(%b : memref<4xf32>) outs(%c : memref<4xf32>)
    scf.yield %c : memref<4xf32>
  }
  return
}

// -----

// Declarations have no host code: left as they are.
// CHECK-LABEL: func.func private @declaration(memref<4xf32>)
// CHECK-NOT:   gpu.launch
func.func private @declaration(memref<4xf32>)
