//===- MangleFunctionNames.cpp - Keep program names off C symbols ---------===//
#include "rlx/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXMANGLEFUNCTIONNAMES
#include "rlx/Transforms/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;

namespace {
struct RlxMangleFunctionNamesPass
    : rlx::impl::RlxMangleFunctionNamesBase<RlxMangleFunctionNamesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> functions;
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isDeclaration())
        functions.push_back(func);
    // Longest names first: `f` becomes `rlx_fn_f` only after a program's own
    // `rlx_fn_f` has moved on to `rlx_fn_rlx_fn_f`.
    llvm::stable_sort(functions, [](func::FuncOp a, func::FuncOp b) {
      return a.getSymName().size() > b.getSymName().size();
    });
    SymbolTable symbols(module);
    for (func::FuncOp func : functions) {
      auto mangled = StringAttr::get(
          &getContext(), rlx::kMangledFunctionPrefix + func.getSymName());
      if (Operation *taken = symbols.lookup(mangled)) {
        func.emitError() << "cannot rename function '" << func.getSymName()
                         << "' to '" << mangled.getValue()
                         << "': the module already has a symbol of that name "
                            "(a '"
                         << taken->getName() << "')";
        return signalPassFailure();
      }
      if (failed(symbols.rename(func, mangled))) {
        func.emitError() << "cannot rename the uses of function '"
                         << func.getSymName() << "'";
        return signalPassFailure();
      }
    }
  }
};
} // namespace
