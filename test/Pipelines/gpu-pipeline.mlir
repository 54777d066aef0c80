// REQUIRES: cuda-toolkit
// RUN: rlx-opt %s --rlx-gpu-pipeline | FileCheck %s
// RUN: rlx-opt %s --rlx-gpu-pipeline | FileCheck %s --check-prefix=BIN
// RUN: rlx-opt %s --rlx-gpu-pipeline="chip=sm_90 block-size=128" | FileCheck %s --check-prefix=SM90
// RUN: rlx-opt %s --rlx-gpu-pipeline="max-blocks=8" | FileCheck %s --check-prefix=GRID
// RUN: rlx-opt %s --rlx-fuse --rlx-to-linalg --canonicalize --linalg-fuse-elementwise-ops --cse --rlx-gpu-select-lowering-config --rlx-tile-and-fuse --canonicalize --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-results-to-out-params="hoist-static-allocs modify-public-functions" --canonicalize --rlx-map-to-gpu --canonicalize | FileCheck %s --check-prefix=KERNELS

// The stages up to the kernels (the GPU pipeline's first half): the
// elementwise chain is one fused grid-stride kernel over 64x1000 elements
// in vectors of 4 (16000 iterations on 63 blocks of 256 threads); softmax
// is a row region run one block per row, the row buffer in shared memory,
// its max and sum block reductions.

// KERNELS-LABEL: func.func @chain
// KERNELS-SAME:      (%[[X:.*]]: memref<64x1000xf32>, %[[Y:.*]]: memref<64x1000xf32>, %[[OUT:.*]]: memref<64x1000xf32>)
// KERNELS:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c63, {{.*}}) threads({{.*}}) in (%{{.*}} = %c256,
// KERNELS:           scf.for %[[I:.*]] = %{{.*}} to %c16000 step %c16128 {
// KERNELS:             %[[E:.*]] = arith.muli %[[I]], %c4
// KERNELS:             %[[IJ:.*]]:2 = affine.delinearize_index %[[E]] into (64, 1000)
// KERNELS:             vector.load %[[X]][%[[IJ]]#0, %[[IJ]]#1] {alignment = 16 : i64} : memref<64x1000xf32>, vector<4xf32>
// KERNELS:             vector.load %[[Y]]
// KERNELS:             math.erf %{{.*}} : vector<4xf32>
// KERNELS:             math.tanh
// KERNELS:             vector.store %{{.*}}, %[[OUT]][%[[IJ]]#0, %[[IJ]]#1] {alignment = 16 : i64}
// KERNELS-NOT:     gpu.launch
// KERNELS:         return

// KERNELS-LABEL: func.func @softmax
// KERNELS:         gpu.launch blocks(%[[ROW:[^,]*]], {{.*}}) in (%{{.*}} = %c32, {{.*}}) threads(%[[TID:[^,]*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c256,
// KERNELS-SAME:      workgroup(%[[BUF:.*]] : memref<1x512xf32, #gpu.address_space<workgroup>>)
// KERNELS:           memref.subview %arg0[%[[ROW]], 0] [1, 512]
// KERNELS:           scf.for %{{.*}} = %[[TID]] to %c512 step %c256 iter_args
// KERNELS:             arith.maximumf
// KERNELS:           gpu.all_reduce maximumf
// KERNELS:           scf.for %{{.*}} = %[[TID]] to %c512 step %c256 {
// KERNELS:             math.exp
// KERNELS:             memref.store %{{.*}}, %[[BUF]]
// KERNELS:           scf.for
// KERNELS:             arith.addf
// KERNELS:           gpu.all_reduce add
// KERNELS:           scf.for
// KERNELS:             arith.divf
// KERNELS-NOT:     gpu.launch
// KERNELS:         return

// The whole pipeline: host functions in the LLVM dialect launching kernels
// whose PTX is embedded for the requested chip, with the runtime's entry
// points.

// CHECK-LABEL: llvm.func @rlx_fn_chain(
// CHECK-SAME:      attributes {llvm.emit_c_interface}
// CHECK:         gpu.launch_func @chain_kernel::@chain_kernel blocks in
// CHECK-LABEL: llvm.func @rlx_fn_softmax(
// CHECK:         gpu.launch_func @softmax_kernel::@softmax_kernel blocks in
// BIN:         gpu.binary @chain_kernel [#gpu.object<#nvvm.target<chip = "sm_80", features = "+ptx80">, {{.*}}assembly = "{{.*}}.target sm_80{{.*}}.visible .entry chain_kernel({{.*}}ld.global.v4.b32
// BIN-NOT:       .extern
// BIN-SAME:      ">]
// BIN:         gpu.binary @softmax_kernel [#gpu.object<#nvvm.target<chip = "sm_80", {{.*}}.visible .entry softmax_kernel({{.*}}.maxntid 256, 1, 1{{.*}}.shared{{.*}}ld.global{{.*}}shfl.sync.bfly.b32{{.*}}bar.sync
// CHECK:       llvm.mlir.global external constant @rlx_manifest
// CHECK:       llvm.func @rlx_invoke_chain(
// CHECK:       llvm.func @rlx_invoke_softmax(

// The elementwise grid is bounded by max-blocks; its constants are
// immediates of the kernel, not arguments.
// GRID-LABEL:  llvm.func @rlx_fn_chain(
// GRID-DAG:      %[[ONE:.*]] = llvm.mlir.constant(1 : index) : i64
// GRID-DAG:      %[[BLOCKS:.*]] = llvm.mlir.constant(8 : index) : i64
// GRID-DAG:      %[[THREADS:.*]] = llvm.mlir.constant(256 : index) : i64
// GRID:          gpu.launch_func @chain_kernel::@chain_kernel blocks in (%[[BLOCKS]], %[[ONE]], %[[ONE]]) threads in (%[[THREADS]], %[[ONE]], %[[ONE]]) : i64 args(%{{[^:]*}} : !llvm.ptr,

// SM90:        gpu.binary @chain_kernel [#gpu.object<#nvvm.target<chip = "sm_90", {{.*}}.target sm_90{{.*}}.maxntid 128, 1, 1

func.func @chain(%x: tensor<64x1000xf32>, %y: tensor<64x1000xf32>) -> tensor<64x1000xf32> {
  %0 = rlx.add %x, %y : (tensor<64x1000xf32>, tensor<64x1000xf32>) -> tensor<64x1000xf32>
  %1 = rlx.gelu %0 : tensor<64x1000xf32>
  %2 = rlx.tanh %1 : tensor<64x1000xf32>
  return %2 : tensor<64x1000xf32>
}

func.func @softmax(%x: tensor<32x512xf32>) -> tensor<32x512xf32> {
  %0 = rlx.softmax %x axis = 1 : tensor<32x512xf32>
  return %0 : tensor<32x512xf32>
}
