//===- Dialects.h - C API for the rlx dialect ---------------------*- C -*-===//
//
// The rlx dialect through MLIR's C API: its dialect handle, and one call that
// registers everything rlx IR and its pipelines use, so that a client of the
// C API (other languages' bindings, the `rlx` Python package) can parse,
// build, verify and lower rlx IR.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_C_DIALECTS_H
#define RLX_C_DIALECTS_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Rlx, rlx);

/// Inserts into `registry` the rlx dialect and what its pipelines lower
/// through: the upstream dialects with their extensions and the
/// translations to LLVM IR.
MLIR_CAPI_EXPORTED void rlxRegisterDialects(MlirDialectRegistry registry);

#ifdef __cplusplus
}
#endif

#endif // RLX_C_DIALECTS_H
