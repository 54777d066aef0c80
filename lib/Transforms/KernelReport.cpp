//===- KernelReport.cpp - Count loop nests per function -------------------===//
#include "rlx/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

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
      unsigned loopNests = 0;
      func->walk([&](linalg::LinalgOp) { ++loopNests; });
      func->emitRemark() << "'" << func.getName() << "' has " << loopNests
                         << (loopNests == 1 ? " loop nest" : " loop nests");
    });
  }
};
} // namespace
