//===- Dialects.cpp - C API for the rlx dialect ---------------------------===//

#include "rlx-c/Dialects.h"

#include "mlir/CAPI/Registration.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "rlx/Dialect/Rlx/IR/RlxDialect.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Rlx, rlx, mlir::rlx::RlxDialect)

void rlxRegisterDialects(MlirDialectRegistry registry) {
  unwrap(registry)
      ->insert<mlir::rlx::RlxDialect, mlir::arith::ArithDialect,
               mlir::func::FuncDialect, mlir::tensor::TensorDialect>();
}
