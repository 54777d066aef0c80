//===- Passes.h - rlx transformation passes ---------------------*- C++ -*-===//
#ifndef RLX_TRANSFORMS_PASSES_H
#define RLX_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"

namespace mlir::rlx {

/// Where the buffers of the functions rlx-export-abi exports live: the
/// runtime stages device buffers for `Cuda` modules.
enum class AbiTarget { Cpu, Cuda };

/// The prefix rlx-mangle-function-names gives the functions a module defines.
inline constexpr llvm::StringLiteral kMangledFunctionPrefix = "rlx_fn_";

/// The prefix of the symbol a module exports for each C function its
/// rlx.custom_calls call: `rlx_custom_<f>` holds the address of
/// `_mlir_ciface_<f>`, null where the module was linked without it.
inline constexpr llvm::StringLiteral kCustomCallSymbolPrefix = "rlx_custom_";

/// The name a function had in the program: `symbol` without the prefix of
/// rlx-mangle-function-names.
inline StringRef getProgramFunctionName(StringRef symbol) {
  symbol.consume_front(kMangledFunctionPrefix);
  return symbol;
}

#define GEN_PASS_DECL
#include "rlx/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "rlx/Transforms/Passes.h.inc"

/// Inlines every `rlx.region` under `root` and expands every fused op
/// (`FusedOpInterface`) into the primitive ops it stands for, as
/// `--rlx-unfuse` does.
void unfuse(RewriterBase &rewriter, Operation *root);

/// Replaces every op under `root` that has a decomposition
/// (`DecomposableOpInterface`) by the ops it stands for, theirs too, as
/// `--rlx-decompose` does; with `keepDifferentiable`, ops that also have a
/// gradient rule of their own (`GradientOpInterface`) stay, as
/// `--rlx-autodiff` differentiates them by it.
void decompose(RewriterBase &rewriter, Operation *root,
               bool keepDifferentiable = false);

} // namespace mlir::rlx

#endif // RLX_TRANSFORMS_PASSES_H
