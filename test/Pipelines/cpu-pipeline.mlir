// RUN: rlx-opt %s --rlx-cpu-pipeline | FileCheck %s
// RUN: rlx-opt %s --rlx-cpu-pipeline | FileCheck %s --check-prefix=CLEAN
// RUN: rlx-opt %s --rlx-cpu-pipeline | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVMIR
// RUN: rlx-opt %s --rlx-cpu-pipeline | FileCheck %s --check-prefix=FUSED
// RUN: rlx-opt %s --rlx-cpu-pipeline="fuse-elementwise=false form-regions=false" | FileCheck %s --check-prefix=UNFUSED
// RUN: rlx-opt %s --rlx-cpu-pipeline="polynomial-exp=false" | FileCheck %s --check-prefix=LIBEXP

// The CPU pipeline takes rlx on tensors all the way to the LLVM dialect:
// nothing of the tensor-level or loop-level dialects may survive.

// CLEAN:     {{^}}module {
// CLEAN-NOT: {{[^a-z_](rlx|linalg|tensor|memref|bufferization|scf|cf|affine|arith|math|func)\.}}
// CLEAN-NOT: unrealized_conversion_cast
// CLEAN-NOT: llvm.fpext {{.*}} : bf16
// CLEAN-NOT: llvm.fptrunc {{.*}} to bf16

// A small MLP layer: matmul, bias, gelu (erf from libm), softmax (exp as a
// polynomial in plain arithmetic by default, the LLVM intrinsic, i.e. libm,
// with polynomial-exp=false).

// The layer's intermediates are small: on the stack, not the heap.
// CHECK-NOT:   llvm.func @malloc
// CHECK:       llvm.func @erff(f32) -> f32
// CHECK-NOT:   llvm.func @malloc

// Results became out-parameters: 3 input descriptors and 1 output (5 values
// each for rank 2, 3 for rank 1).
// CHECK-LABEL: llvm.func @rlx_fn_mlp(
// CHECK-SAME:      attributes {llvm.emit_c_interface}
// CHECK:         llvm.alloca %{{.*}} x i8 {alignment = 64 : i64}
// CHECK:         llvm.call @erff(%{{.*}}) : (f32) -> f32
// CHECK-NOT:     llvm.intr.exp
// CHECK:         llvm.return
// LIBEXP-LABEL:  llvm.func @rlx_fn_mlp(
// LIBEXP:          llvm.intr.exp(%{{.*}}) : (vector<16xf32>) -> vector<16xf32>
// CHECK-LABEL: llvm.func @_mlir_ciface_rlx_fn_mlp(
// CHECK-SAME:      %{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: !llvm.ptr)
// CHECK-NOT:     llvm.func
// CHECK:         llvm.call @rlx_fn_mlp(
func.func @mlp(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %0 = rlx.matmul %x, %w : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %1 = rlx.add %0, %b : (tensor<4x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  %2 = rlx.gelu %1 : tensor<4x16xf32>
  %3 = rlx.softmax %2 axis = 1 : tensor<4x16xf32>
  return %3 : tensor<4x16xf32>
}

// Mixed element types and ranks at the boundary: f16, bf16 and i1 (stored
// as a byte) with rank-0 tensors, whose descriptors have no sizes or strides.
// bf16 conversions are expanded to integer operations (on the vectors of
// the bf16 result's register tile: its 3 elements in 4 lanes, loaded and
// stored with masks).

// CHECK-LABEL: llvm.func @rlx_fn_mixed(
// CHECK:         llvm.load %{{.*}} : !llvm.ptr -> bf16
// CHECK:         llvm.bitcast %{{.*}} : bf16 to i16
// CHECK:         llvm.fptrunc %{{.*}} : f32 to f16
// CHECK-DAG:     llvm.store %{{.*}}, %{{.*}} : f16, !llvm.ptr
// CHECK-DAG:     llvm.store %{{.*}}, %{{.*}} : i1, !llvm.ptr
// CHECK-DAG:     llvm.bitcast %{{.*}} : vector<4xi16> to vector<4xbf16>
// CHECK-DAG:     llvm.intr.masked.store %{{.*}}, %{{.*}}, %{{.*}} {alignment = 2 : i32} : vector<4xbf16>, vector<4xi1> into !llvm.ptr
// CHECK:         llvm.return
// CHECK-LABEL: llvm.func @_mlir_ciface_rlx_fn_mixed(
// CHECK-SAME:      %{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: !llvm.ptr)
// CHECK:         llvm.load %{{.*}} : !llvm.ptr -> !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK:         llvm.load %{{.*}} : !llvm.ptr -> !llvm.struct<(ptr, ptr, i64)>
// CHECK:         llvm.call @rlx_fn_mixed(
func.func @mixed(%a: tensor<3xf16>, %b: tensor<bf16>, %c: tensor<3xi1>) -> (tensor<3xf16>, tensor<i1>, tensor<3xbf16>) {
  %0 = rlx.cast %b : tensor<bf16> -> tensor<f16>
  %1 = rlx.mul %a, %0 : (tensor<3xf16>, tensor<f16>) -> tensor<3xf16>
  %z = rlx.constant dense<0.0> : tensor<3xf16>
  %2 = rlx.where %c, %1, %z : (tensor<3xi1>, tensor<3xf16>, tensor<3xf16>) -> tensor<3xf16>
  %3 = rlx.reduce max %2 axes = [0] : tensor<3xf16> -> tensor<f16>
  %zz = rlx.constant dense<0.0> : tensor<f16>
  %4 = rlx.gt %3, %zz : (tensor<f16>, tensor<f16>) -> tensor<i1>
  %5 = rlx.cast %2 : tensor<3xf16> -> tensor<3xbf16>
  return %2, %4, %5 : tensor<3xf16>, tensor<i1>, tensor<3xbf16>
}

// With fusion (the default) two elementwise ops share one loop over
// register tiles; without it each has its own, and the intermediate goes
// through memory.

// FUSED-LABEL: llvm.func @rlx_fn_chain(
// FUSED-COUNT-1: llvm.cond_br
// FUSED-NOT:     llvm.cond_br
// FUSED:         llvm.fneg
// FUSED-NOT:     llvm.store
// FUSED:         llvm.intr.fma
// FUSED-LABEL: llvm.func @_mlir_ciface_rlx_fn_chain(

// UNFUSED-LABEL: llvm.func @rlx_fn_chain(
// UNFUSED-COUNT-2: llvm.cond_br
// UNFUSED-NOT:     llvm.cond_br
// UNFUSED-LABEL: llvm.func @_mlir_ciface_rlx_fn_chain(
func.func @chain(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  %0 = rlx.neg %a : tensor<1024xf32>
  %1 = rlx.exp %0 : tensor<1024xf32>
  return %1 : tensor<1024xf32>
}

// The manifest describes the tensor-level signatures, results as `res`.
// CHECK:       llvm.mlir.global external constant @rlx_manifest("rlx-module 2\0Afunc mlp 3 1\0Aarg f32 2 4 8\0Aarg f32 2 8 16\0Aarg f32 1 16\0Ares f32 2 4 16\0Afunc mixed 3 3\0Aarg f16 1 3\0Aarg bf16 0\0Aarg i1 1 3\0Ares f16 1 3\0Ares i1 0\0Ares bf16 1 3\0Afunc chain 1 1\0Aarg f32 1 1024\0Ares f32 1 1024\0A\00")

// One uniform entry point per exported function: args[i] holds the i-th
// descriptor pointer, inputs then outputs.
// CHECK-LABEL: llvm.func @rlx_invoke_mlp(
// CHECK-SAME:      %{{[a-z0-9]+}}: !llvm.ptr) {
// CHECK:         llvm.call @_mlir_ciface_rlx_fn_mlp(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
// CHECK-NEXT:    llvm.return
// CHECK-LABEL: llvm.func @rlx_invoke_mixed(
// CHECK-SAME:      %{{[a-z0-9]+}}: !llvm.ptr) {
// CHECK:         llvm.call @_mlir_ciface_rlx_fn_mixed(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
// CHECK-NEXT:    llvm.return
// CHECK-LABEL: llvm.func @rlx_invoke_chain(
// CHECK:         llvm.call @_mlir_ciface_rlx_fn_chain(%{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr) -> ()

// In LLVM IR the manifest is an exported NUL-terminated byte array, erff a
// libm declaration, and each entry point a `void (ptr)` function.

// LLVMIR:      @rlx_manifest = constant [212 x i8] c"rlx-module 2\0Afunc mlp 3 1\0Aarg f32 2 4 8\0Aarg f32 2 8 16\0Aarg f32 1 16\0Ares f32 2 4 16\0Afunc mixed 3 3\0Aarg f16 1 3\0Aarg bf16 0\0Aarg i1 1 3\0Ares f16 1 3\0Ares i1 0\0Ares bf16 1 3\0Afunc chain 1 1\0Aarg f32 1 1024\0Ares f32 1 1024\0A\00"
// LLVMIR-DAG:  declare float @erff(float)
// LLVMIR-LABEL: define void @rlx_fn_mlp(
// LLVMIR:        call float @erff(float %{{.*}})
// LLVMIR-NOT:    @llvm.exp.f32
// LLVMIR-LABEL: define void @_mlir_ciface_rlx_fn_mlp(ptr %0, ptr %1, ptr %2, ptr %3)
// LLVMIR-LABEL: define void @_mlir_ciface_rlx_fn_mixed(ptr %0, ptr %1, ptr %2, ptr %3, ptr %4, ptr %5)
// LLVMIR-LABEL: define void @rlx_invoke_mlp(ptr %0)
// LLVMIR:        call void @_mlir_ciface_rlx_fn_mlp(ptr %{{.*}}, ptr %{{.*}}, ptr %{{.*}}, ptr %{{.*}})
// LLVMIR-NEXT:   ret void
// LLVMIR-LABEL: define void @rlx_invoke_mixed(ptr %0)
// LLVMIR:        call void @_mlir_ciface_rlx_fn_mixed(ptr %{{.*}}, ptr %{{.*}}, ptr %{{.*}}, ptr %{{.*}}, ptr %{{.*}}, ptr %{{.*}})
// LLVMIR-NEXT:   ret void
// LLVMIR-LABEL: define void @rlx_invoke_chain(ptr %0)
