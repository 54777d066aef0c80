// REQUIRES: cuda-toolkit
// RUN: rlx-opt %s --rlx-gpu-pipeline | FileCheck %s
// RUN: rlx-opt %s --rlx-gpu-pipeline | FileCheck %s --check-prefix=BIN
// RUN: rlx-opt %s --rlx-gpu-pipeline="chip=sm_90 block-size=128" | FileCheck %s --check-prefix=SM90
// RUN: rlx-opt %s --rlx-fuse --rlx-to-linalg --canonicalize --linalg-fuse-elementwise-ops --cse --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --buffer-results-to-out-params="hoist-static-allocs modify-public-functions" --canonicalize --rlx-map-to-gpu --canonicalize | FileCheck %s --check-prefix=KERNELS

// The stages up to the kernels (the GPU pipeline's first half): the
// elementwise chain is one fused kernel over 64x1000 elements; softmax is a
// row region whose rows go one per thread, the row's max, exp, sum and
// division sequential in the thread with the row buffer thread-local.

// KERNELS-LABEL: func.func @chain
// KERNELS-SAME:      (%[[X:.*]]: memref<64x1000xf32>, %[[Y:.*]]: memref<64x1000xf32>, %[[OUT:.*]]: memref<64x1000xf32>)
// KERNELS:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c250, {{.*}}) threads({{.*}}) in (%{{.*}} = %c256,
// KERNELS:           memref.load %[[X]]
// KERNELS:           memref.load %[[Y]]
// KERNELS:           math.erf
// KERNELS:           math.tanh
// KERNELS:           memref.store %{{.*}}, %[[OUT]]
// KERNELS-NOT:     gpu.launch
// KERNELS:         return

// KERNELS-LABEL: func.func @softmax
// KERNELS:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c1, {{.*}}) threads(%[[ROW:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c32,
// KERNELS:           memref.subview %arg0[%[[ROW]], 0] [1, 512]
// KERNELS:           scf.for
// KERNELS:             arith.maximumf
// KERNELS:           %[[BUF:.*]] = memref.alloca() {{.*}} : memref<1x512xf32>
// KERNELS:           scf.for
// KERNELS:             math.exp
// KERNELS:             memref.store %{{.*}}, %[[BUF]]
// KERNELS:           scf.for
// KERNELS:             arith.addf
// KERNELS:           scf.for
// KERNELS:             arith.divf
// KERNELS-NOT:     gpu.launch
// KERNELS:         return

// The whole pipeline: host functions in the LLVM dialect launching kernels
// whose PTX is embedded for the requested chip, with the runtime's entry
// points.

// CHECK-LABEL: llvm.func @chain(
// CHECK-SAME:      attributes {llvm.emit_c_interface}
// CHECK:         gpu.launch_func @chain_kernel::@chain_kernel blocks in
// CHECK-LABEL: llvm.func @softmax(
// CHECK:         gpu.launch_func @softmax_kernel::@softmax_kernel blocks in
// BIN:         gpu.binary @chain_kernel [#gpu.object<#nvvm.target<chip = "sm_80", features = "+ptx80">, {{.*}}assembly = "{{.*}}.target sm_80{{.*}}.visible .entry chain_kernel({{.*}}ld.global{{.*}}st.global
// BIN-NOT:       .extern
// BIN-SAME:      ">]
// BIN:         gpu.binary @softmax_kernel [#gpu.object<#nvvm.target<chip = "sm_80", {{.*}}.visible .entry softmax_kernel({{.*}}.maxntid 32, 1, 1{{.*}}ld.global{{.*}}st.global
// CHECK:       llvm.mlir.global external constant @rlx_manifest
// CHECK:       llvm.func @rlx_invoke_chain(
// CHECK:       llvm.func @rlx_invoke_softmax(

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
