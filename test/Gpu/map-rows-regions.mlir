// RUN: rlx-opt %s --rlx-fuse --rlx-to-linalg --canonicalize --linalg-fuse-elementwise-ops --cse --rlx-gpu-select-lowering-config --rlx-tile-and-fuse --canonicalize --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-results-to-out-params="hoist-static-allocs modify-public-functions" --cse --canonicalize --rlx-map-to-gpu --canonicalize | FileCheck %s

// Row regions as the GPU pipeline lowers them, one block per row.

// Layer norm (bf16): the row converted to f32 and the centered row (each
// read by two stages) in shared memory, the mean and the variance two block
// reductions, the normalized row written to the output directly (the bf16
// buffer bufferization copied out is not allocated), gamma and beta
// converted where they are read. Every stage reads the row where the same
// thread wrote it: no barrier.
// CHECK-LABEL: func.func @layer_norm
// CHECK:         gpu.launch blocks(%[[B:[^,]*]], {{.*}}) in (%{{.*}} = %c16, {{.*}}) threads(%[[TID:[^,]*]], {{.*}}) in (%{{.*}} = %c256,
// CHECK-SAME:      workgroup(%[[ROW:[^ ]*]] : memref<1x256xf32, #gpu.address_space<workgroup>>, %{{[^ ]*}} : memref<1x256xf32, #gpu.address_space<workgroup>>) {
// CHECK:           %[[OUT:.*]] = memref.subview %arg3[%[[B]], 0] [1, 256]
// CHECK:           scf.for %{{.*}} = %[[TID]] to %c256 step %c256 {
// CHECK:             arith.extf
// CHECK:             memref.store %{{.*}}, %[[ROW]]
// CHECK:           gpu.all_reduce add
// CHECK:           gpu.all_reduce add
// CHECK:           math.rsqrt
// CHECK:           scf.for
// CHECK:             memref.load %arg1
// CHECK:             arith.extf %{{.*}} : bf16 to f32
// CHECK:             arith.truncf
// CHECK:             memref.store %{{.*}}, %[[OUT]]
// CHECK-NOT:       gpu.barrier
// CHECK-NOT:       scf.for
// CHECK:           gpu.terminator

// RMS norm (f16), rows of 768 on 256 threads, three elements each.
// CHECK-LABEL: func.func @rms_norm
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c64, {{.*}}) threads(%[[TID:[^,]*]], {{.*}}) in (%{{.*}} = %c256,
// CHECK-SAME:      workgroup(%{{.*}} : memref<1x768xf32, #gpu.address_space<workgroup>>) {
// CHECK:           scf.for %{{.*}} = %[[TID]] to %c768 step %c256 iter_args
// CHECK:             arith.mulf
// CHECK:             arith.addf
// CHECK:           gpu.all_reduce add
// CHECK:           math.rsqrt

// Cross-entropy with labels: the label's logit (a sum) and the max in one
// reduction loop, two block reductions; then the sum of exponentials; the
// row's loss written by one thread.
// CHECK-LABEL: func.func @cross_entropy
// CHECK:         gpu.launch blocks(%[[R:[^,]*]], {{.*}}) in (%{{.*}} = %c64, {{.*}}) threads(%[[TID:[^,]*]], {{.*}}) in (%{{.*}} = %c256,
// CHECK:           %[[OUT:.*]] = memref.subview %{{.*}}[%[[R]], 0] [1, 1]
// CHECK:           %[[P:.*]]:2 = scf.for %{{.*}} = %[[TID]] to %c1000 step %c256 iter_args
// CHECK:             arith.select
// CHECK:             arith.addf
// CHECK:             arith.maximumf
// CHECK:           gpu.all_reduce add %[[P]]#0 uniform
// CHECK:           gpu.all_reduce maximumf %[[P]]#1 uniform
// CHECK:           scf.for %{{.*}} = %[[TID]] to %c1000 step %c256 iter_args
// CHECK:             math.exp
// CHECK:           gpu.all_reduce add
// CHECK:           %[[LOSS:.*]] = memref.collapse_shape %[[OUT]]
// CHECK:           scf.for %{{.*}} = %[[TID]] to %c1 step %c256 {
// CHECK:             math.log
// CHECK:             memref.store %{{.*}}, %[[LOSS]]

// Softmax over the last axis of a 3-d tensor: 4x8 rows on 32 blocks, the
// row position recovered from the block id; rows of 100 on 128 threads.
// CHECK-LABEL: func.func @softmax_3d
// CHECK:         gpu.launch blocks(%[[B:[^,]*]], {{.*}}) in (%{{.*}} = %c32, {{.*}}) threads({{.*}}) in (%{{.*}} = %c128,
// CHECK-SAME:      workgroup(%{{.*}} : memref<1x1x100xf32, #gpu.address_space<workgroup>>)
// CHECK:           %[[RC:.*]]:2 = affine.delinearize_index %[[B]] into (4, 8)
// CHECK:           memref.subview %arg0[%[[RC]]#0, %[[RC]]#1, 0] [1, 1, 100]

// Rows of 5000 elements: 20000 bytes of shared memory, 256 threads
// striding.
// CHECK-LABEL: func.func @softmax_long
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c2, {{.*}}) threads(%[[TID:[^,]*]], {{.*}}) in (%{{.*}} = %c256,
// CHECK-SAME:      workgroup(%{{.*}} : memref<1x5000xf32, #gpu.address_space<workgroup>>)
// CHECK:           scf.for %{{.*}} = %[[TID]] to %c5000 step %c256

// Rows of one element: one row per thread.
// CHECK-LABEL: func.func @softmax_short
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c4, {{.*}}) threads(%{{.*}}) in (%{{.*}} = %c256,
// CHECK-NOT:       gpu.all_reduce
// CHECK:           memref.alloca
// CHECK:         return

func.func @layer_norm(%x: tensor<16x256xbf16>, %g: tensor<256xbf16>, %b: tensor<256xbf16>) -> tensor<16x256xbf16> {
  %0 = rlx.layer_norm %x, %g, %b axis = 1 eps = 1.0e-5 : (tensor<16x256xbf16>, tensor<256xbf16>, tensor<256xbf16>) -> tensor<16x256xbf16>
  return %0 : tensor<16x256xbf16>
}
func.func @rms_norm(%x: tensor<64x768xf16>, %g: tensor<768xf16>) -> tensor<64x768xf16> {
  %n = rlx.rms_norm %x, %g axis = 1 eps = 1.0e-6 : (tensor<64x768xf16>, tensor<768xf16>) -> tensor<64x768xf16>
  return %n : tensor<64x768xf16>
}
func.func @cross_entropy(%x: tensor<64x1000xf32>, %l: tensor<64xi64>) -> tensor<64xf32> {
  %r = rlx.softmax_cross_entropy_with_labels %x, %l : (tensor<64x1000xf32>, tensor<64xi64>) -> tensor<64xf32>
  return %r : tensor<64xf32>
}
func.func @softmax_3d(%x: tensor<4x8x100xf32>) -> tensor<4x8x100xf32> {
  %0 = rlx.softmax %x axis = 2 : tensor<4x8x100xf32>
  return %0 : tensor<4x8x100xf32>
}
func.func @softmax_long(%x: tensor<2x5000xf32>) -> tensor<2x5000xf32> {
  %0 = rlx.softmax %x axis = 1 : tensor<2x5000xf32>
  return %0 : tensor<2x5000xf32>
}
func.func @softmax_short(%x: tensor<1000x1xf32>) -> tensor<1000x1xf32> {
  %0 = rlx.softmax %x axis = 1 : tensor<1000x1xf32>
  return %0 : tensor<1000x1xf32>
}

// A single row has no row loop: its reductions are one-block kernels, and
// the kernels after them load the per-row values themselves (no host access
// to device memory).
// CHECK-LABEL: func.func @softmax_single_row
// CHECK:         %[[ACC:.*]], %{{.*}} = gpu.alloc async
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c1, {{.*}}) threads({{.*}}) in (%{{.*}} = %c256,
// CHECK:           gpu.all_reduce maximumf
// CHECK:         gpu.launch
// CHECK-NEXT:      scf.for
// CHECK:             %[[MAX:.*]] = memref.load %[[ACC]][]
// CHECK:             vector.broadcast %[[MAX]]
// CHECK:             math.exp %{{.*}} : vector<4xf32>
// CHECK:           gpu.all_reduce add
// CHECK:         return
func.func @softmax_single_row(%x: tensor<512xf32>) -> tensor<512xf32> {
  %0 = rlx.softmax %x axis = 0 : tensor<512xf32>
  return %0 : tensor<512xf32>
}
