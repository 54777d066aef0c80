//===- CheckGpuSupport.cpp - Reject rlx ops the GPU path cannot compile ---===//
#include "rlx/Gpu/Passes.h"

#include "rlx/Dialect/Rlx/IR/RlxOps.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXCHECKGPUSUPPORT
#include "rlx/Gpu/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;

namespace {
struct RlxCheckGpuSupportPass
    : rlx::impl::RlxCheckGpuSupportBase<RlxCheckGpuSupportPass> {
  void runOnOperation() override {
    bool unsupported = false;
    getOperation()->walk([&](Operation *op) {
      // Their lowerings loop on the host over tensor slices.
      if (!isa<rlx::CumsumOp, rlx::CumprodOp, rlx::CummaxOp, rlx::TopKOp,
               rlx::AttentionOp, rlx::AttentionBackwardOp>(op))
        return;
      op->emitError() << "'" << op->getName()
                      << "' is not supported by the GPU pipeline yet";
      unsupported = true;
    });
    if (unsupported)
      signalPassFailure();
  }
};
} // namespace
