// RUN: rlx-opt %s --rlx-map-to-gpu --split-input-file --verify-diagnostics | FileCheck %s

// What host code may remain after bufferization, and how rlx-map-to-gpu
// keeps the host from touching device memory.

// A scalar read on the host (a one-row statistic after the row loop was
// folded away) moves into the kernel that uses it; nothing is read on the
// host.
// CHECK-LABEL: func.func @sink_scalar_read
// CHECK-NOT:     memref.load
// CHECK:         gpu.launch
// CHECK:           %[[SUM:.*]] = memref.load %arg1[] : memref<f32>
// CHECK:           %[[MEAN:.*]] = arith.divf %[[SUM]]
// CHECK:           vector.broadcast %[[MEAN]] : f32 to vector<4xf32>
// CHECK:         return
func.func @sink_scalar_read(%x: memref<16xf32>, %sum: memref<f32>, %o: memref<16xf32>) {
  %n = arith.constant 16.0 : f32
  %s = memref.load %sum[] : memref<f32>
  %mean = arith.divf %s, %n : f32
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : memref<16xf32>) outs(%o : memref<16xf32>) {
  ^bb0(%a: f32, %out: f32):
    %c = arith.subf %a, %mean : f32
    linalg.yield %c : f32
  }
  return
}

// -----

// A runtime offset (kv_append's position) read on the host to place a copy:
// the read, the clamp and the view move into the copy's kernel.
// CHECK-LABEL: func.func @sink_runtime_offset
// CHECK-NOT:     memref.load
// CHECK:         gpu.launch
// CHECK:           %[[POS:.*]] = memref.load %arg2[] : memref<i64>
// CHECK:           %[[IDX:.*]] = arith.index_cast %[[POS]]
// CHECK:           memref.subview %arg1[0, %{{.*}}, 0] [2, 1, 3]
// CHECK:         return
func.func @sink_runtime_offset(%u: memref<2x1x3xf32>, %c: memref<2x8x3xf32>, %p: memref<i64>) {
  %c0 = arith.constant 0 : index
  %c7 = arith.constant 7 : index
  %pos = memref.load %p[] : memref<i64>
  %i = arith.index_cast %pos : i64 to index
  %lo = arith.maxsi %i, %c0 : index
  %at = arith.minsi %lo, %c7 : index
  %view = memref.subview %c[0, %at, 0] [2, 1, 3] [1, 1, 1] : memref<2x8x3xf32> to memref<2x1x3xf32, strided<[24, 3, 1], offset: ?>>
  memref.copy %u, %view : memref<2x1x3xf32> to memref<2x1x3xf32, strided<[24, 3, 1], offset: ?>>
  return
}

// -----

// The buffer is overwritten (the fill) before the kernel that uses the value
// read from it: the value is first copied, by a one-thread kernel, into a
// buffer of its own, which the later kernel reads.
// CHECK-LABEL: func.func @snapshot_overwritten_read
// CHECK:         %[[SNAP:.*]], %{{.*}} = gpu.alloc async {{.*}} : memref<f32>
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c1{{.*}}) threads({{.*}}) in (%{{.*}} = %c1
// CHECK:           %[[V:.*]] = memref.load %arg0[] : memref<f32>
// CHECK:           memref.store %[[V]], %[[SNAP]][] : memref<f32>
// CHECK:         gpu.launch
// CHECK:           memref.store %{{.*}}, %arg0[] : memref<f32>
// CHECK:         gpu.launch
// CHECK:           memref.load %[[SNAP]][] : memref<f32>
// CHECK:         gpu.dealloc async {{.*}} %[[SNAP]]
func.func @snapshot_overwritten_read(%acc: memref<f32>, %x: memref<8xf32>, %o: memref<8xf32>) {
  %zero = arith.constant 0.0 : f32
  %m = memref.load %acc[] : memref<f32>
  linalg.fill ins(%zero : f32) outs(%acc : memref<f32>)
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : memref<8xf32>) outs(%o : memref<8xf32>) {
  ^bb0(%a: f32, %out: f32):
    %d = arith.subf %a, %m : f32
    linalg.yield %d : f32
  }
  return
}

// -----

// A scalar store left on the host (an op over one element, canonicalized)
// runs as a one-thread kernel with the reads it needs.
// CHECK-LABEL: func.func @host_store
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c1{{.*}}) threads({{.*}}) in (%{{.*}} = %c1
// CHECK:           %[[A:.*]] = memref.load %arg0[%{{.*}}]
// CHECK:           %[[E:.*]] = math.exp %[[A]]
// CHECK:           memref.store %[[E]], %arg1[%{{.*}}]
// CHECK-NOT:     memref.load
// CHECK:         return
func.func @host_store(%x: memref<1xf32>, %o: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %a = memref.load %x[%c0] : memref<1xf32>
  %e = math.exp %a : f32
  memref.store %e, %o[%c0] : memref<1xf32>
  return
}

// -----

// A loop of scalar code left on the host (the scan of a single line, whose
// loop over lines was folded away) runs whole in a one-thread kernel.
// CHECK-LABEL: func.func @host_scalar_loop
// CHECK-NOT:     scf.for
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c1{{.*}}) threads({{.*}}) in (%{{.*}} = %c1
// CHECK:           scf.for %[[J:.*]] = %c0{{.*}} to %c6{{.*}} step %c1{{.*}} iter_args(%[[SUM:.*]] = %{{.*}}) -> (f32)
// CHECK:             %[[X:.*]] = memref.load %arg0[%[[J]]]
// CHECK:             %[[NEXT:.*]] = arith.addf %[[SUM]], %[[X]]
// CHECK:             memref.store %[[NEXT]], %arg1[%[[J]]]
// CHECK:         gpu.terminator
// CHECK-NOT:     gpu.launch
// CHECK:         return
func.func @host_scalar_loop(%x: memref<6xf32>, %o: memref<6xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %j = %c0 to %c6 step %c1 iter_args(%acc = %zero) -> (f32) {
    %a = memref.load %x[%j] : memref<6xf32>
    %next = arith.addf %acc, %a : f32
    memref.store %next, %o[%j] : memref<6xf32>
    scf.yield %next : f32
  }
  return
}

// -----

// A loop whose result the host uses stays on the host: each element it
// reads is read back (correct, one copy per element, not fast).
// CHECK-LABEL: func.func @host_loop_result(
// CHECK:         %[[HOST:.*]] = memref.alloca() : memref<f32>
// CHECK:         scf.for
// CHECK:           gpu.launch
// CHECK:           gpu.memcpy async {{.*}} %[[HOST]],
// CHECK:           memref.load %[[HOST]][]
func.func @host_loop_result(%x: memref<6xf32>, %o: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %j = %c0 to %c6 step %c1 iter_args(%acc = %zero) -> (f32) {
    %a = memref.load %x[%j] : memref<6xf32>
    %next = arith.addf %acc, %a : f32
    scf.yield %next : f32
  }
  %cond = arith.cmpf ogt, %sum, %zero : f32
  scf.if %cond {
    memref.store %sum, %o[] : memref<f32>
  }
  return
}

// -----

// A reduction between parallel iterators (argmax over the middle axis): the
// parallel iterators move to the front so the whole op is one kernel.
// CHECK-LABEL: func.func @middle_reduction
// CHECK-COUNT-1: gpu.launch
// CHECK:           scf.for %{{.*}} = %c0{{.*}} to %c5{{.*}} step %c1
// CHECK-NOT:     gpu.launch
// CHECK:         return
func.func @middle_reduction(%x: memref<3x5x7xf32>, %o: memref<3x7xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : memref<3x5x7xf32>) outs(%o : memref<3x7xf32>) {
  ^bb0(%a: f32, %out: f32):
    %m = arith.maximumf %a, %out : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// Tile buffers allocated inside host loops and conditionals (scans,
// attention) are allocated once, on the device, for the whole function.
// CHECK-LABEL: func.func @buffers_in_host_control_flow
// CHECK-DAG:     gpu.alloc async {{.*}} : memref<4xf32>
// CHECK-DAG:     gpu.alloc async {{.*}} : memref<2xf32>
// CHECK:         scf.for
// CHECK-NOT:       alloc
// CHECK:         gpu.dealloc
// CHECK:         gpu.dealloc
func.func @buffers_in_host_control_flow(%n: index, %flag: i1, %x: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %t = memref.alloc() : memref<4xf32>
    memref.copy %x, %t : memref<4xf32> to memref<4xf32>
    scf.if %flag {
      %u = memref.alloc() : memref<2xf32>
      %v = memref.subview %t[0] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1]>>
      memref.copy %v, %u : memref<2xf32, strided<[1]>> to memref<2xf32>
    }
  }
  return
}

// -----

// A read that host control flow needs is read back before the loop.
// CHECK-LABEL: func.func @host_control_flow_read(
// CHECK-SAME:    %[[N:[a-z0-9]+]]: memref<index>
// CHECK:         %[[DEV:.*]], %{{.*}} = gpu.alloc async {{.*}} () : memref<index>
// CHECK:         %[[HOST:.*]] = memref.alloca() : memref<index>
// CHECK:         gpu.launch
// CHECK:           memref.load %[[N]][]
// CHECK:         gpu.memcpy async {{.*}} %[[HOST]], %[[DEV]]
// CHECK:         %[[COUNT:.*]] = memref.load %[[HOST]][] : memref<index>
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[COUNT]]
func.func @host_control_flow_read(%n: memref<index>, %x: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %count = memref.load %n[] : memref<index>
  scf.for %i = %c0 to %count step %c1 {
    linalg.fill ins(%c0 : index) outs(%n : memref<index>)
  }
  return
}
