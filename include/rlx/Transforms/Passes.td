//===- Passes.td - rlx transformation passes ---------------*- tablegen -*-===//
#ifndef RLX_TRANSFORMS_PASSES_TD
#define RLX_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def RlxExportAbi : Pass<"rlx-export-abi", "::mlir::ModuleOp"> {
  let summary = "Describe public functions for the rlx runtime's C ABI";
  let description = [{
    Runs on tensor-level IR, before bufferization. For every public function
    it checks that the signature is exportable (statically shaped tensors of
    f32, f16, bf16, f64, i1, i8, i16, i32 or i64, and a C identifier as
    name), marks it `llvm.emit_c_interface`, marks its arguments read-only
    for bufferization (callers own input buffers), copies any value it
    returns more than once (every result gets its own caller buffer), and
    records its signature in the module's `rlx_manifest` string (see
    docs/runtime.md).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::bufferization::BufferizationDialect"];
}

def RlxEmitInvokeWrappers : Pass<"rlx-emit-invoke-wrappers",
                                 "::mlir::ModuleOp"> {
  let summary = "Emit uniform `rlx_invoke_<name>(void **args)` entry points";
  let description = [{
    Runs on the LLVM dialect. For each `_mlir_ciface_<name>` function it
    defines `rlx_invoke_<name>(ptr args)`, which loads one memref descriptor
    pointer per argument from `args` and calls the C-interface function, so
    that the runtime can call any exported function through one signature.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def RlxStridedCopyToLinalg : Pass<"rlx-strided-copy-to-linalg"> {
  let summary = "Rewrite memref.copy between non-contiguous buffers as linalg.copy";
  let description = [{
    The LLVM lowering of a `memref.copy` whose operands are not both
    contiguous calls `memrefCopy` from MLIR's C runner utilities. Compiled
    rlx modules do not link that library, so such copies (e.g. returning a
    strided view) become `linalg.copy`, which lowers to plain loops.
    Contiguous copies stay `memref.copy` (a `memcpy`).
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

#endif // RLX_TRANSFORMS_PASSES_TD
