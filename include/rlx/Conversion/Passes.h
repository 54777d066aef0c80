//===- Passes.h - rlx conversion passes -------------------------*- C++ -*-===//
#ifndef RLX_CONVERSION_PASSES_H
#define RLX_CONVERSION_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::rlx {

#define GEN_PASS_DECL
#include "rlx/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "rlx/Conversion/Passes.h.inc"

} // namespace mlir::rlx

#endif // RLX_CONVERSION_PASSES_H
