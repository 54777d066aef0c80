//===- KernelReport.cpp - Count loop nests per function -------------------===//
#include "rlx/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

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
      // Outermost loop constructs: a linalg op, an rlx.rows (a loop over
      // rows once tiled) or an scf loop with no loop around it, or the
      // write of a register tile computed there (not of an accumulator that
      // a loop carried).
      unsigned loopNests = 0;
      func->walk<WalkOrder::PreOrder>([&](Operation *op) {
        auto write = dyn_cast<vector::TransferWriteOp>(op);
        if (isa<linalg::LinalgOp, LoopLikeOpInterface, rlx::RowsOp>(op) ||
            (write &&
             !write.getVector().getDefiningOp<LoopLikeOpInterface>())) {
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
