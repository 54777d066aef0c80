//===- Passes.h - rlx passes for NVIDIA GPUs --------------------*- C++ -*-===//
#ifndef RLX_GPU_PASSES_H
#define RLX_GPU_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::rlx {

#define GEN_PASS_DECL
#include "rlx/Gpu/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "rlx/Gpu/Passes.h.inc"

} // namespace mlir::rlx

#endif // RLX_GPU_PASSES_H
