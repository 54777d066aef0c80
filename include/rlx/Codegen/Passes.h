//===- Passes.h - rlx code generation passes --------------------*- C++ -*-===//
#ifndef RLX_CODEGEN_PASSES_H
#define RLX_CODEGEN_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::rlx {

#define GEN_PASS_DECL
#include "rlx/Codegen/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "rlx/Codegen/Passes.h.inc"

} // namespace mlir::rlx

#endif // RLX_CODEGEN_PASSES_H
