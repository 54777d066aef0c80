//===- KernelReport.cpp - Count loop nests per function -------------------===//
#include "rlx/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXKERNELREPORT
#include "rlx/Transforms/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;

namespace {
struct RlxKernelReportPass
    : rlx::impl::RlxKernelReportBase<RlxKernelReportPass> {
  void runOnOperation() override {
    getOperation()->walk([](FunctionOpInterface func) {
      // A declaration has no code to report on.
      if (func.isExternal())
        return;
      // Outermost loop constructs: a linalg op or an scf loop with no loop
      // around it.
      unsigned loopNests = 0;
      func->walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (isa<linalg::LinalgOp, LoopLikeOpInterface>(op)) {
          ++loopNests;
          return WalkResult::skip();
        }
        return WalkResult::advance();
      });
      func->emitRemark() << "'" << func.getName() << "' has " << loopNests
                         << (loopNests == 1 ? " loop nest" : " loop nests");
    });
  }
};
} // namespace
