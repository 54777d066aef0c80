// REQUIRES: cuda-toolkit
// RUN: rlx-opt %s --rlx-gpu-pipeline | FileCheck %s
// RUN: rlx-opt %s --rlx-gpu-pipeline --mlir-disable-threading --mlir-print-ir-after=rlx-map-to-gpu -o /dev/null 2>&1 | rlx-opt --canonicalize | FileCheck %s --check-prefix=KERNELS

// A scan on the GPU is one kernel with a thread per line, not a host loop
// launching a kernel per step: the host function launches once and
// branches nowhere.
// CHECK-LABEL: llvm.func @rlx_fn_cumsum_middle(
// CHECK-NOT:     llvm.br
// CHECK-NOT:     llvm.cond_br
// CHECK:         gpu.launch_func @cumsum_middle_kernel::@cumsum_middle_kernel
// CHECK-NOT:     gpu.launch_func
// CHECK-NOT:     llvm.br
// CHECK-NOT:     llvm.cond_br
// CHECK:         llvm.return
// CHECK-LABEL: llvm.func @rlx_fn_cummax_last(
// CHECK-NOT:     llvm.br
// CHECK:         gpu.launch_func @cummax_last_kernel::@cummax_last_kernel
// CHECK-NOT:     gpu.launch_func
// CHECK:         llvm.return
// CHECK-LABEL: llvm.func @rlx_fn_cumprod_rank1(
// CHECK-NOT:     llvm.br
// CHECK:         gpu.launch_func @cumprod_rank1_kernel::@cumprod_rank1_kernel
// CHECK-NOT:     gpu.launch_func
// CHECK:         llvm.return
// CHECK-LABEL: llvm.func @rlx_fn_gather_backward(
// CHECK-NOT:     llvm.br
// CHECK:         gpu.launch_func
// CHECK-NOT:     gpu.launch_func
// CHECK:         llvm.return

// 8 x 64 lines of 1000 elements along the middle axis: 2 blocks of 256
// threads. Thread t scans line (t / 64, t % 64), so at each step
// neighbouring threads load and store neighbouring elements.
// KERNELS-LABEL: func.func @cumsum_middle
// KERNELS-SAME:      (%[[X:.*]]: memref<8x1000x64xf32>, %[[OUT:.*]]: memref<8x1000x64xf32>)
// KERNELS-NOT:     scf.for
// KERNELS:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c2, {{.*}}) threads(%[[T:[^,]*]], {{.*}}) in (%{{.*}} = %c256,
// KERNELS:           %[[LINE:.*]] = arith.addi %[[T]], %{{.*}} : index
// KERNELS:           %[[K:.*]] = arith.remsi %[[LINE]], %c64
// KERNELS:           %[[I:.*]] = arith.divsi %[[LINE]], %c64
// KERNELS:           %[[INPUT:.*]] = memref.subview %[[X]][%[[I]], 0, %[[K]]] [1, 1000, 1] [1, 1, 1]
// KERNELS:           %[[RESULT:.*]] = memref.subview %[[OUT]][%[[I]], 0, %[[K]]] [1, 1000, 1] [1, 1, 1]
// KERNELS:           scf.for %[[J:.*]] = %c0 to %c1000 step %c1 iter_args(%[[SUM:.*]] = %{{.*}}) -> (f32)
// KERNELS:             %[[XV:.*]] = memref.load %[[INPUT]][%c0, %[[J]], %c0]
// KERNELS:             %[[NEXT:.*]] = arith.addf %[[SUM]], %[[XV]] : f32
// KERNELS:             memref.store %[[NEXT]], %[[RESULT]][%c0, %[[J]], %c0]
// KERNELS-NOT:       memref.copy
// KERNELS-NOT:     gpu.launch
// KERNELS:         return
func.func @cumsum_middle(%x: tensor<8x1000x64xf32>) -> tensor<8x1000x64xf32> {
  %0 = rlx.cumsum %x axis = 1 : tensor<8x1000x64xf32>
  return %0 : tensor<8x1000x64xf32>
}

// The axis innermost: a thread per row (3 x 5 threads), each walking its own
// row; f16 runs in f32 and stores the previous maximum.
// KERNELS-LABEL: func.func @cummax_last
// KERNELS:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c1, {{.*}}) threads({{.*}}) in (%{{.*}} = %c15,
// KERNELS:           scf.for %{{.*}} = %c0 to %c40 step %c1 iter_args(%[[MAX:.*]] = %{{.*}}) -> (f32)
// KERNELS:             arith.extf
// KERNELS:             arith.maximumf %[[MAX]]
// KERNELS:             arith.truncf %[[MAX]] : f32 to f16
// KERNELS-NOT:     gpu.launch
// KERNELS:         return
func.func @cummax_last(%x: tensor<3x5x40xf16>) -> tensor<3x5x40xf16> {
  %0 = rlx.cummax %x axis = -1 exclusive : tensor<3x5x40xf16>
  return %0 : tensor<3x5x40xf16>
}

// A single line: one kernel of one thread, writing the result in place.
// KERNELS-LABEL: func.func @cumprod_rank1
// KERNELS-SAME:      (%[[X:.*]]: memref<100xi32>, %[[OUT:.*]]: memref<100xi32>)
// KERNELS-NOT:     gpu.alloc
// KERNELS:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c1, %{{.*}} = %c1, %{{.*}} = %c1) threads({{.*}}) in (%{{.*}} = %c1, %{{.*}} = %c1, %{{.*}} = %c1)
// KERNELS:           scf.for %[[J:.*]] = %c0 to %c100 step %c1 iter_args(%[[P:.*]] = %c1_i32) -> (i32)
// KERNELS:             %[[XV:.*]] = memref.load %[[X]][%[[J]]]
// KERNELS:             %[[NEXT:.*]] = arith.muli %[[P]], %[[XV]] : i32
// KERNELS:             memref.store %[[NEXT]], %[[OUT]][%[[J]]]
// KERNELS-NOT:     gpu.launch
// KERNELS:         return
func.func @cumprod_rank1(%x: tensor<100xi32>) -> tensor<100xi32> {
  %0 = rlx.cumprod %x axis = 0 : tensor<100xi32>
  return %0 : tensor<100xi32>
}

// gather_backward's scatter-add (rlx.scatter): one kernel with a thread per
// line of the table along the gathered axis (the 64 columns), each
// zero-filling its line and then adding the 6 gathered rows' elements into
// it; the indices are read through a view with a unit coordinate dimension.
// KERNELS-LABEL: func.func @gather_backward
// KERNELS-SAME:      (%[[DY:.*]]: memref<2x3x64xf32>, %[[IDX:.*]]: memref<2x3xi64>, %[[OUT:.*]]: memref<10x64xf32>)
// KERNELS:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c1, {{.*}}) threads(%[[T:[^,]*]], {{.*}}) in (%{{.*}} = %c64,
// KERNELS:           %[[IDX1:.*]] = memref.expand_shape %[[IDX]] {{\[}}[0], [1, 2]] output_shape [2, 3, 1]
// KERNELS:           %[[SRC:.*]] = memref.subview %[[DY]][0, 0, %[[T]]] [2, 3, 1] [1, 1, 1]
// KERNELS:           %[[LINE:.*]] = memref.subview %[[OUT]][0, %[[T]]] [10, 1] [1, 1]
// KERNELS:           scf.for %[[R:.*]] = %c0 to %c10 step %c1 {
// KERNELS:             memref.store %{{.*}}, %[[LINE]][%[[R]], %c0]
// KERNELS:           scf.for %[[P:.*]] = %c0 to %c2 step %c1 {
// KERNELS:             scf.for %[[Q:.*]] = %c0 to %c3 step %c1 {
// KERNELS:               memref.load %[[IDX1]][%[[P]], %[[Q]], %c0]
// KERNELS:               %[[ROW:.*]] = arith.minsi
// KERNELS:               %[[G:.*]] = memref.load %[[SRC]][%[[P]], %[[Q]], %c0]
// KERNELS:               %[[A:.*]] = memref.load %[[LINE]][%[[ROW]], %c0]
// KERNELS:               %[[S:.*]] = arith.addf %[[A]], %[[G]]
// KERNELS:               memref.store %[[S]], %[[LINE]][%[[ROW]], %c0]
// KERNELS-NOT:     gpu.launch
// KERNELS:         return
func.func @gather_backward(%dy: tensor<2x3x64xf32>, %i: tensor<2x3xi64>) -> tensor<10x64xf32> {
  %0 = rlx.gather_backward %dy, %i axis = 0 : (tensor<2x3x64xf32>, tensor<2x3xi64>) -> tensor<10x64xf32>
  return %0 : tensor<10x64xf32>
}
