//===- Passes.h - C API for rlx's passes and pipelines ------------*- C -*-===//
//
// rlx's passes and pipelines through MLIR's C API. After rlxRegisterPasses,
// MLIR's own pass-manager calls (mlirParsePassPipeline,
// mlirOpPassManagerAddPipeline) accept them by name; rlxRunPassPipeline is
// the one call that lowers a module.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_C_PASSES_H
#define RLX_C_PASSES_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Registers every rlx pass and the rlx-fuse, rlx-cpu-pipeline and
/// rlx-gpu-pipeline pipelines with MLIR's pass registry (once per process;
/// later calls do nothing).
MLIR_CAPI_EXPORTED void rlxRegisterPasses(void);

/// Runs the textual pass pipeline `pipeline` on `op`: a pass list such as
/// "rlx-cpu-pipeline" or "rlx-fuse,canonicalize", anchored on `op` (usually
/// a builtin.module), or a full pipeline
/// "builtin.module(rlx-cpu-pipeline{threads=2})". Registers the rlx passes
/// first. A pipeline that does not parse and a pass that fails report
/// diagnostics through the context's handlers and return failure.
MLIR_CAPI_EXPORTED MlirLogicalResult rlxRunPassPipeline(MlirOperation op,
                                                        MlirStringRef pipeline);

#ifdef __cplusplus
}
#endif

#endif // RLX_C_PASSES_H
