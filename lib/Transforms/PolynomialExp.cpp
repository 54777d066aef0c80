//===- PolynomialExp.cpp - math.exp as a vectorizable polynomial ----------===//
#include "rlx/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXPOLYNOMIALEXP
#include "rlx/Transforms/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;

namespace {
struct RlxPolynomialExpPass
    : rlx::impl::RlxPolynomialExpBase<RlxPolynomialExpPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    auto isExp = [](StringRef name) {
      return name == math::ExpOp::getOperationName();
    };
    populateMathPolynomialApproximationPatterns(patterns, isExp);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
