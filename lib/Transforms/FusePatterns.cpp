//===- FusePatterns.cpp - Named fused-op patterns -------------------------===//
#include "rlx/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXFUSEPATTERNS
#include "rlx/Transforms/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;
using namespace mlir::rlx;

namespace {
/// mul(silu(narrow(x, gate)), narrow(x, up)) over the two halves of x's last
/// axis -> swiglu(x).
struct FuseSwiglu : OpRewritePattern<MulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MulOp mul,
                                PatternRewriter &rewriter) const override {
    for (auto [activated, other] : {std::pair(mul.getLhs(), mul.getRhs()),
                                    std::pair(mul.getRhs(), mul.getLhs())}) {
      auto silu = activated.getDefiningOp<SiluOp>();
      if (!silu || !silu->hasOneUse())
        continue;
      auto gate = silu.getInput().getDefiningOp<NarrowOp>();
      auto up = other.getDefiningOp<NarrowOp>();
      if (!gate || !up || gate.getInput() != up.getInput())
        continue;
      RankedTensorType inputType = gate.getInput().getType();
      int64_t rank = inputType.getRank();
      int64_t total = inputType.getShape().back();
      auto isLastAxis = [&](NarrowOp narrow) {
        return narrow.getAxis() == rank - 1 || narrow.getAxis() == -1;
      };
      int64_t half = total / 2;
      if (!isLastAxis(gate) || !isLastAxis(up) || total % 2 != 0 ||
          gate.getLength() != half || up.getLength() != half)
        continue;
      bool gateFirst = gate.getStart() == 0 && up.getStart() == half;
      bool upFirst = up.getStart() == 0 && gate.getStart() == half;
      if (!gateFirst && !upFirst)
        continue;
      rewriter.replaceOpWithNewOp<SwigluOp>(mul, gate.getInput(), gateFirst);
      return success();
    }
    return rewriter.notifyMatchFailure(mul, "not a SwiGLU pattern");
  }
};

struct RlxFusePatternsPass
    : rlx::impl::RlxFusePatternsBase<RlxFusePatternsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FuseSwiglu>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
