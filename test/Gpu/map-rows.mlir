// RUN: rlx-opt %s --rlx-map-to-gpu --canonicalize --split-input-file | FileCheck %s
// RUN: rlx-opt %s --rlx-map-to-gpu="shared-memory-bytes=2303" --canonicalize --split-input-file | FileCheck %s --check-prefix=SCRATCH
// RUN: rlx-opt %s --rlx-map-to-gpu="shared-memory-bytes=2304" --canonicalize --split-input-file | FileCheck %s --check-prefix=FITS

// Softmax rows as bufferization leaves them: one block per row (32 blocks
// of 256 threads), the 512-element row buffer in shared memory, the
// accumulators private to each thread. Each stage strides over the row by
// the block size; the max and the sum are per-thread partial results
// combined by gpu.all_reduce, then folded into every thread's copy of the
// accumulator. Every stage reads the buffer where the same thread wrote
// it, so no barrier is needed.
// CHECK-LABEL: func.func @softmax
// CHECK:         gpu.launch blocks(%[[ROW:[^,]*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c32, %{{.*}} = %c1, %{{.*}} = %c1) threads(%[[TID:[^,]*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c256, %{{.*}} = %c1, %{{.*}} = %c1)
// CHECK-SAME:      workgroup(%[[BUF:.*]] : memref<1x512xf32, #gpu.address_space<workgroup>>)
// CHECK:           %[[ACC:.*]] = memref.alloca() : memref<1xf32>
// CHECK:           %[[IN:.*]] = memref.subview %arg0[%[[ROW]], 0] [1, 512]
// CHECK:           memref.store %{{.*}}, %[[ACC]][%c0]
// CHECK:           %[[INIT:.*]] = memref.load %[[ACC]][%c0]
// CHECK:           %[[PART:.*]] = scf.for %[[I:.*]] = %[[TID]] to %c512 step %c256 iter_args(%[[P:.*]] = %cst{{.*}}) -> (f32) {
// CHECK:             %[[X:.*]] = memref.load %[[IN]][%c0, %[[I]]]
// CHECK:             %[[M:.*]] = arith.maximumf %[[P]], %[[X]] : f32
// CHECK:             scf.yield %[[M]]
// CHECK:           %[[MAX:.*]] = gpu.all_reduce maximumf %[[PART]] uniform {
// CHECK:           %[[FOLD:.*]] = arith.maximumf %[[INIT]], %[[MAX]] : f32
// CHECK:           memref.store %[[FOLD]], %[[ACC]][%c0]
// CHECK:           scf.for %[[J:.*]] = %[[TID]] to %c512 step %c256 {
// CHECK:             math.exp
// CHECK:             memref.store %{{.*}}, %[[BUF]][%c0, %[[J]]]
// CHECK:           scf.for %{{.*}} = %[[TID]] to %c512 step %c256 iter_args
// CHECK:             memref.load %[[BUF]]
// CHECK:             arith.addf
// CHECK:           gpu.all_reduce add
// The division writes the row's output where bufferization had it write
// the buffer and copy it out.
// CHECK:           %[[OUT:.*]] = memref.subview %arg1[%[[ROW]], 0] [1, 512]
// CHECK:           scf.for %[[K:.*]] = %[[TID]] to %c512 step %c256 {
// CHECK:             memref.load %[[BUF]][%c0, %[[K]]]
// CHECK:             arith.divf
// CHECK:             memref.store %{{.*}}, %[[OUT]][%c0, %[[K]]]
// CHECK-NOT:       scf.for
// CHECK-NOT:       gpu.barrier
// CHECK:           gpu.terminator
// CHECK-NOT:     memref.alloc
// CHECK:         return

// Shared memory holds the 2 KiB row buffer and the 128-byte buffers of the
// two block reductions: with one byte less, the row buffer is a slice of a
// global scratch buffer, one row per block.
// FITS-LABEL: func.func @softmax
// FITS:         gpu.launch {{.*}} workgroup(%{{.*}} : memref<1x512xf32, #gpu.address_space<workgroup>>)
// SCRATCH-LABEL: func.func @softmax
// SCRATCH:         %[[SCRATCH:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] () : memref<32x1x512xf32>
// SCRATCH:         gpu.launch blocks(%[[ROW:[^,]*]], %{{.*}}, %{{.*}}) in
// SCRATCH-NOT:       workgroup
// SCRATCH:           %[[SLICE:.*]] = memref.subview %[[SCRATCH]][%[[ROW]], 0, 0] [1, 1, 512] [1, 1, 1]
// SCRATCH:           memref.store %{{.*}}, %[[SLICE]]
// SCRATCH:         gpu.dealloc async [%{{.*}}] %[[SCRATCH]]

#id = affine_map<(d0, d1) -> (d0, d1)>
#acc = affine_map<(d0, d1) -> (d0)>
func.func @softmax(%x: memref<32x512xf32>, %o: memref<32x512xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %ninf = arith.constant 0xFF800000 : f32
  scf.forall (%r) in (32) {
    %in = memref.subview %x[%r, 0] [1, 512] [1, 1] : memref<32x512xf32> to memref<1x512xf32, strided<[512, 1], offset: ?>>
    %acc = memref.alloc() : memref<1xf32>
    linalg.fill ins(%ninf : f32) outs(%acc : memref<1xf32>)
    linalg.generic {indexing_maps = [#id, #acc], iterator_types = ["parallel", "reduction"]}
        ins(%in : memref<1x512xf32, strided<[512, 1], offset: ?>>) outs(%acc : memref<1xf32>) {
    ^bb0(%a: f32, %m: f32):
      %0 = arith.maximumf %m, %a : f32
      linalg.yield %0 : f32
    }
    %max = memref.load %acc[%c0] : memref<1xf32>
    %buf = memref.alloc() : memref<1x512xf32>
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%in : memref<1x512xf32, strided<[512, 1], offset: ?>>) outs(%buf : memref<1x512xf32>) {
    ^bb0(%a: f32, %b: f32):
      %0 = arith.subf %a, %max : f32
      %1 = math.exp %0 : f32
      linalg.yield %1 : f32
    }
    linalg.fill ins(%zero : f32) outs(%acc : memref<1xf32>)
    linalg.generic {indexing_maps = [#id, #acc], iterator_types = ["parallel", "reduction"]}
        ins(%buf : memref<1x512xf32>) outs(%acc : memref<1xf32>) {
    ^bb0(%a: f32, %s: f32):
      %0 = arith.addf %s, %a : f32
      linalg.yield %0 : f32
    }
    %sum = memref.load %acc[%c0] : memref<1xf32>
    linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%buf : memref<1x512xf32>) outs(%buf : memref<1x512xf32>) {
    ^bb0(%a: f32, %b: f32):
      %0 = arith.divf %a, %sum : f32
      linalg.yield %0 : f32
    }
    %out = memref.subview %o[%r, 0] [1, 512] [1, 1] : memref<32x512xf32> to memref<1x512xf32, strided<[512, 1], offset: ?>>
    memref.copy %buf, %out : memref<1x512xf32> to memref<1x512xf32, strided<[512, 1], offset: ?>>
  }
  return
}

// -----

// A stage that reads the row buffer in another order than it was written
// (reversed) reads elements other threads wrote: a barrier separates the
// stages. The stage before it read the input only, so it needs none.
// Rows of 100 elements run on 128 threads.
// CHECK-LABEL: func.func @reverse
// CHECK:         gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c128, {{.*}}) workgroup(%[[BUF:.*]] : memref<100xf32, #gpu.address_space<workgroup>>)
// CHECK-NOT:       gpu.barrier
// CHECK:           scf.for
// CHECK:             memref.store %{{.*}}, %[[BUF]]
// CHECK:           gpu.barrier
// CHECK-NEXT:      scf.for
// CHECK:             memref.load %[[BUF]]
// CHECK-NOT:       gpu.barrier
// CHECK:           gpu.terminator
#id1 = affine_map<(d0) -> (d0)>
#rev = affine_map<(d0) -> (99 - d0)>
func.func @reverse(%x: memref<8x100xf32>, %o: memref<8x100xf32>) {
  scf.forall (%r) in (8) {
    %in = memref.subview %x[%r, 0] [1, 100] [1, 1] : memref<8x100xf32> to memref<100xf32, strided<[1], offset: ?>>
    %out = memref.subview %o[%r, 0] [1, 100] [1, 1] : memref<8x100xf32> to memref<100xf32, strided<[1], offset: ?>>
    %buf = memref.alloc() : memref<100xf32>
    linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
        ins(%in : memref<100xf32, strided<[1], offset: ?>>) outs(%buf : memref<100xf32>) {
    ^bb0(%a: f32, %b: f32):
      %0 = arith.mulf %a, %a : f32
      linalg.yield %0 : f32
    }
    linalg.generic {indexing_maps = [#rev, #id1], iterator_types = ["parallel"]}
        ins(%buf : memref<100xf32>) outs(%out : memref<100xf32, strided<[1], offset: ?>>) {
    ^bb0(%a: f32, %b: f32):
      linalg.yield %a : f32
    }
  }
  return
}

// -----

// A buffer written in another order than the copy out reads it: the copy
// stays (the writer cannot write the output in its place), after a
// barrier.
// CHECK-LABEL: func.func @reverse_copy
// CHECK:         gpu.launch {{.*}} workgroup(%[[BUF:.*]] : memref<100xf32, #gpu.address_space<workgroup>>)
// CHECK:           scf.for
// CHECK:             memref.store %{{.*}}, %[[BUF]]
// CHECK:           gpu.barrier
// CHECK-NEXT:      scf.for
// CHECK:             memref.load %[[BUF]]
// CHECK:             memref.store
#id1 = affine_map<(d0) -> (d0)>
#rev = affine_map<(d0) -> (99 - d0)>
func.func @reverse_copy(%x: memref<8x100xf32>, %o: memref<8x100xf32>) {
  scf.forall (%r) in (8) {
    %in = memref.subview %x[%r, 0] [1, 100] [1, 1] : memref<8x100xf32> to memref<100xf32, strided<[1], offset: ?>>
    %buf = memref.alloc() : memref<100xf32>
    linalg.generic {indexing_maps = [#id1, #rev], iterator_types = ["parallel"]}
        ins(%in : memref<100xf32, strided<[1], offset: ?>>) outs(%buf : memref<100xf32>) {
    ^bb0(%a: f32, %b: f32):
      linalg.yield %a : f32
    }
    %out = memref.subview %o[%r, 0] [1, 100] [1, 1] : memref<8x100xf32> to memref<100xf32, strided<[1], offset: ?>>
    memref.copy %buf, %out : memref<100xf32> to memref<100xf32, strided<[1], offset: ?>>
  }
  return
}

// -----

// maxnumf keeps its NaN semantics (NaN is its neutral element), integer
// reductions and rows longer than the block work the same way: 3000
// elements on 256 threads, 100000 rows on as many blocks. Two reductions
// of one op share the loop. Stores of per-row values to global memory are
// made by one thread.
// CHECK-LABEL: func.func @maxnum_rows
// CHECK-DAG:     %[[NAN:.*]] = arith.constant 0xFFC00000 : f32
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK:         gpu.launch blocks(%[[ROW:[^,]*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c100000, {{.*}} threads(%[[TID:[^,]*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c256,
// CHECK:           %[[P:.*]]:2 = scf.for %{{.*}} = %[[TID]] to %c3000 step %c256 iter_args(%{{.*}} = %[[NAN]], %{{.*}} = %[[ZERO]])
// CHECK:             arith.maxnumf
// CHECK:             arith.addi
// CHECK:           gpu.all_reduce maxnumf %[[P]]#0 uniform
// CHECK:           gpu.all_reduce add %[[P]]#1 uniform
// CHECK:           %[[FIRST:.*]] = arith.cmpi eq, %[[TID]], %c0
// CHECK:           scf.if %[[FIRST]] {
// CHECK-NEXT:        memref.store %{{.*}}, %arg2[%[[ROW]]]
#id = affine_map<(d0, d1) -> (d0, d1)>
#acc = affine_map<(d0, d1) -> (d0)>
func.func @maxnum_rows(%x: memref<100000x3000xf32>, %n: memref<100000x3000xi32>, %o: memref<100000xf32>, %p: memref<100000xi32>) {
  %c0 = arith.constant 0 : index
  %nan = arith.constant 0x7FC00000 : f32
  %zero = arith.constant 0 : i32
  scf.forall (%r) in (100000) {
    %in = memref.subview %x[%r, 0] [1, 3000] [1, 1] : memref<100000x3000xf32> to memref<1x3000xf32, strided<[3000, 1], offset: ?>>
    %ni = memref.subview %n[%r, 0] [1, 3000] [1, 1] : memref<100000x3000xi32> to memref<1x3000xi32, strided<[3000, 1], offset: ?>>
    %acc = memref.alloc() : memref<1xf32>
    %iacc = memref.alloc() : memref<1xi32>
    linalg.fill ins(%nan : f32) outs(%acc : memref<1xf32>)
    linalg.fill ins(%zero : i32) outs(%iacc : memref<1xi32>)
    linalg.generic {indexing_maps = [#id, #id, #acc, #acc], iterator_types = ["parallel", "reduction"]}
        ins(%in, %ni : memref<1x3000xf32, strided<[3000, 1], offset: ?>>, memref<1x3000xi32, strided<[3000, 1], offset: ?>>) outs(%acc, %iacc : memref<1xf32>, memref<1xi32>) {
    ^bb0(%a: f32, %i: i32, %m: f32, %s: i32):
      %0 = arith.maxnumf %m, %a : f32
      %1 = arith.addi %s, %i : i32
      linalg.yield %0, %1 : f32, i32
    }
    %max = memref.load %acc[%c0] : memref<1xf32>
    %sum = memref.load %iacc[%c0] : memref<1xi32>
    memref.store %max, %o[%r] : memref<100000xf32>
    memref.store %sum, %p[%r] : memref<100000xi32>
  }
  return
}

// -----

// Fallbacks to one row per thread. A combiner gpu.all_reduce has no
// operation for (a difference), and an accumulator chain of two ops, keep
// the rows sequential in their thread.
// CHECK-LABEL: func.func @subtract_rows
// CHECK:         gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c64,
// CHECK-NOT:       gpu.all_reduce
// CHECK:           scf.for %{{.*}} = %c0 to %c512 step %c1
// CHECK:             arith.subf
// CHECK-LABEL: func.func @two_op_combiner
// CHECK-NOT:       gpu.all_reduce
// CHECK:           scf.for %{{.*}} = %c0 to %c512 step %c1
// CHECK:             arith.addf
// CHECK:             arith.mulf
// A 16-bit accumulator (upstream shuffles 32 or 64 bits) falls back too.
// CHECK-LABEL: func.func @half_accumulator
// CHECK-NOT:       gpu.all_reduce
// CHECK:           scf.for %{{.*}} = %c0 to %c512 step %c1
#id = affine_map<(d0, d1) -> (d0, d1)>
#acc = affine_map<(d0, d1) -> (d0)>
func.func @subtract_rows(%x: memref<64x512xf32>, %o: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  scf.forall (%r) in (64) {
    %in = memref.subview %x[%r, 0] [1, 512] [1, 1] : memref<64x512xf32> to memref<1x512xf32, strided<[512, 1], offset: ?>>
    %acc = memref.alloc() : memref<1xf32>
    linalg.fill ins(%zero : f32) outs(%acc : memref<1xf32>)
    linalg.generic {indexing_maps = [#id, #acc], iterator_types = ["parallel", "reduction"]}
        ins(%in : memref<1x512xf32, strided<[512, 1], offset: ?>>) outs(%acc : memref<1xf32>) {
    ^bb0(%a: f32, %s: f32):
      %0 = arith.subf %s, %a : f32
      linalg.yield %0 : f32
    }
    %v = memref.load %acc[%c0] : memref<1xf32>
    memref.store %v, %o[%r] : memref<64xf32>
  }
  return
}

func.func @two_op_combiner(%x: memref<64x512xf32>, %o: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  scf.forall (%r) in (64) {
    %in = memref.subview %x[%r, 0] [1, 512] [1, 1] : memref<64x512xf32> to memref<1x512xf32, strided<[512, 1], offset: ?>>
    %acc = memref.alloc() : memref<1xf32>
    linalg.fill ins(%zero : f32) outs(%acc : memref<1xf32>)
    linalg.generic {indexing_maps = [#id, #acc], iterator_types = ["parallel", "reduction"]}
        ins(%in : memref<1x512xf32, strided<[512, 1], offset: ?>>) outs(%acc : memref<1xf32>) {
    ^bb0(%a: f32, %s: f32):
      %0 = arith.addf %s, %a : f32
      %1 = arith.mulf %0, %half : f32
      linalg.yield %1 : f32
    }
    %v = memref.load %acc[%c0] : memref<1xf32>
    memref.store %v, %o[%r] : memref<64xf32>
  }
  return
}

func.func @half_accumulator(%x: memref<64x512xf16>, %o: memref<64xf16>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f16
  scf.forall (%r) in (64) {
    %in = memref.subview %x[%r, 0] [1, 512] [1, 1] : memref<64x512xf16> to memref<1x512xf16, strided<[512, 1], offset: ?>>
    %acc = memref.alloc() : memref<1xf16>
    linalg.fill ins(%zero : f16) outs(%acc : memref<1xf16>)
    linalg.generic {indexing_maps = [#id, #acc], iterator_types = ["parallel", "reduction"]}
        ins(%in : memref<1x512xf16, strided<[512, 1], offset: ?>>) outs(%acc : memref<1xf16>) {
    ^bb0(%a: f16, %s: f16):
      %0 = arith.addf %s, %a : f16
      linalg.yield %0 : f16
    }
    %v = memref.load %acc[%c0] : memref<1xf16>
    memref.store %v, %o[%r] : memref<64xf16>
  }
  return
}

// -----

// Rows shorter than a warp (here 1 element) keep one row per thread.
// CHECK-LABEL: func.func @short_rows
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c4, {{.*}}) threads({{.*}}) in (%{{.*}} = %c256,
// CHECK-NOT:       gpu.all_reduce
#id = affine_map<(d0, d1) -> (d0, d1)>
#acc = affine_map<(d0, d1) -> (d0)>
func.func @short_rows(%x: memref<1024x1xf32>, %o: memref<1024xf32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  scf.forall (%r) in (1024) {
    %in = memref.subview %x[%r, 0] [1, 1] [1, 1] : memref<1024x1xf32> to memref<1x1xf32, strided<[1, 1], offset: ?>>
    %acc = memref.alloc() : memref<1xf32>
    linalg.fill ins(%zero : f32) outs(%acc : memref<1xf32>)
    linalg.generic {indexing_maps = [#id, #acc], iterator_types = ["parallel", "reduction"]}
        ins(%in : memref<1x1xf32, strided<[1, 1], offset: ?>>) outs(%acc : memref<1xf32>) {
    ^bb0(%a: f32, %s: f32):
      %0 = arith.addf %s, %a : f32
      linalg.yield %0 : f32
    }
    %v = memref.load %acc[%c0] : memref<1xf32>
    memref.store %v, %o[%r] : memref<1024xf32>
  }
  return
}
