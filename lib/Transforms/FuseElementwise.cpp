//===- FuseElementwise.cpp - Elementwise fusion without recomputation -----===//
#include "rlx/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXFUSEELEMENTWISE
#include "rlx/Transforms/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;

/// Whether `producer`'s payload costs nothing worth saving: only casts
/// between element types (and the yield), which a consumer reading each
/// element several times may as well redo.
static bool isFreeToRecompute(linalg::GenericOp producer) {
  return llvm::all_of(producer.getBody()->without_terminator(),
                      [](Operation &op) { return isa<CastOpInterface>(op); });
}

/// Upstream's default rule: the producer has no other use.
static bool hasSingleUseProducer(OpOperand *fusedOperand) {
  Operation *producer = fusedOperand->get().getDefiningOp();
  return producer && producer->hasOneUse();
}

/// Fuses a single-use producer into the consumer of `fusedOperand` when the
/// fused op computes each of the producer's elements once, or when the
/// producer is free to recompute.
static bool isFusionWithoutRecomputation(OpOperand *fusedOperand) {
  auto producer = fusedOperand->get().getDefiningOp<linalg::GenericOp>();
  if (!producer || !hasSingleUseProducer(fusedOperand))
    return false;
  auto consumer = dyn_cast<linalg::LinalgOp>(fusedOperand->getOwner());
  if (!consumer)
    return false;
  // A permutation map reads every element exactly once; any loop it leaves
  // out (a contraction's other dimensions, a broadcast) repeats the reads.
  if (consumer.getMatchingIndexingMap(fusedOperand).isPermutation())
    return true;
  return isFreeToRecompute(producer);
}

namespace {
struct RlxFuseElementwisePass
    : rlx::impl::RlxFuseElementwiseBase<RlxFuseElementwisePass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    // What upstream's linalg-fuse-elementwise-ops populates, with the cost
    // rule above for the fusion of generics.
    linalg::populateElementwiseOpsFusionPatterns(patterns,
                                                 isFusionWithoutRecomputation);
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns,
                                                      hasSingleUseProducer);
    tensor::populateBubbleUpExpandShapePatterns(patterns);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
    context->getLoadedDialect<linalg::LinalgDialect>()
        ->getCanonicalizationPatterns(patterns);
    linalg::populateConstantFoldLinalgOperations(patterns,
                                                 hasSingleUseProducer);
    (void)applyPatternsGreedily(getOperation(), std::move(patterns),
                                GreedyRewriteConfig().setUseTopDownTraversal());
  }
};
} // namespace
