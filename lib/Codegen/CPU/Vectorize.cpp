//===- Vectorize.cpp - Register tiles to vector ops -----------------------===//
#include "rlx/Codegen/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "rlx/Dialect/Rlx/IR/RlxDialect.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXCPUVECTORIZE
#include "rlx/Codegen/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;
using namespace mlir::rlx;

namespace {
struct RlxCpuVectorizePass
    : rlx::impl::RlxCpuVectorizeBase<RlxCpuVectorizePass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    SmallVector<linalg::LinalgOp> candidates;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (op->hasAttr(LoweringConfigAttr::kAttrName) &&
          op.hasPureTensorSemantics())
        candidates.push_back(op);
    });
    IRRewriter rewriter(context);
    for (linalg::LinalgOp op : candidates) {
      // A partial tile (a dynamic shape) and an op the vectorizer does not
      // handle stay loop nests: slower, not wrong. Partial tiles need masked
      // vectorization, which the contraction patterns below do not keep
      // consistent yet.
      auto config = op->getAttrOfType<LoweringConfigAttr>(
          LoweringConfigAttr::kAttrName);
      // No register tiles in the config: not this pass's to vectorize.
      if (llvm::all_of(config.getVector(), [](int64_t s) { return s == 0; }) ||
          op.hasDynamicShape() || failed(linalg::vectorizeOpPrecondition(op)))
        continue;
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::VectorizationResult> vectorized =
          linalg::vectorize(rewriter, op);
      if (failed(vectorized))
        continue;
      if (op->getNumResults() > 0)
        rewriter.replaceOp(op, vectorized->replacements);
      else
        rewriter.eraseOp(op);
    }

    // Multiply-add reductions to vector.contract, slices into transfers.
    RewritePatternSet patterns(context);
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    vector::populateVectorReductionToContractPatterns(patterns);
    vector::populateSinkVectorOpsPatterns(patterns);
    tensor::populateFoldTensorSubsetIntoVectorTransferPatterns(patterns);
    vector::TransferReadOp::getCanonicalizationPatterns(patterns, context);
    vector::TransferWriteOp::getCanonicalizationPatterns(patterns, context);
    tensor::ExtractSliceOp::getCanonicalizationPatterns(patterns, context);
    tensor::InsertSliceOp::getCanonicalizationPatterns(patterns, context);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();

    // Innermost loops first, so an accumulator moves out of every loop it
    // does not depend on.
    getOperation().walk([&](scf::ForOp loop) {
      (void)hoistLoopInvariantSubsets(rewriter, loop);
    });
  }
};
} // namespace
