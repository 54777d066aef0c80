//===- Dialects.cpp - C API for the rlx dialect ---------------------------===//

#include "rlx-c/Dialects.h"

#include "mlir/CAPI/Registration.h"
#include "rlx/Dialect/Rlx/IR/RlxDialect.h"
#include "rlx/InitRlx.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Rlx, rlx, mlir::rlx::RlxDialect)

void rlxRegisterDialects(MlirDialectRegistry registry) {
  mlir::rlx::registerRlxDialects(*unwrap(registry));
}
