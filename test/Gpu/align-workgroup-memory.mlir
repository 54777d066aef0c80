// RUN: rlx-opt %s --pass-pipeline="builtin.module(gpu.module(rlx-gpu-align-workgroup-memory))" | FileCheck %s
// RUN: rlx-opt %s --pass-pipeline="builtin.module(gpu.module(rlx-gpu-align-workgroup-memory{alignment=64}))" | FileCheck %s --check-prefix=A64
// RUN: not rlx-opt %s --pass-pipeline="builtin.module(gpu.module(rlx-gpu-align-workgroup-memory{alignment=12}))" 2>&1 | FileCheck %s --check-prefix=BAD

// Every workgroup attribution gets 16-byte alignment, except one that
// already asks for more.
// CHECK-LABEL: gpu.func @tiles
// CHECK-SAME:      workgroup(%{{.*}} : memref<64x16xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %{{.*}} : memref<16x64xf16, #gpu.address_space<workgroup>> {llvm.align = 32 : i64})
// A64:             workgroup(%{{.*}} : memref<64x16xf16, #gpu.address_space<workgroup>> {llvm.align = 64 : i64}, %{{.*}} : memref<16x64xf16, #gpu.address_space<workgroup>> {llvm.align = 64 : i64})
// BAD: error: alignment must be a power of two
gpu.module @kernels {
  gpu.func @tiles(%out: memref<2xf16>)
      workgroup(%a : memref<64x16xf16, #gpu.address_space<workgroup>>,
                %b : memref<16x64xf16, #gpu.address_space<workgroup>>)
      kernel attributes {workgroup_attrib_attrs = [{}, {llvm.align = 32 : i64}]} {
    %c0 = arith.constant 0 : index
    %x = memref.load %a[%c0, %c0] : memref<64x16xf16, #gpu.address_space<workgroup>>
    %y = memref.load %b[%c0, %c0] : memref<16x64xf16, #gpu.address_space<workgroup>>
    memref.store %x, %out[%c0] : memref<2xf16>
    memref.store %y, %out[%c0] : memref<2xf16>
    gpu.return
  }
}
