//===- SplitBroadcastReads.cpp - A broadcast read's element read once -----===//
//
// Written here because upstream's split of these reads
// (`TransferReadToVectorLoadLowering`) produces n-D `vector.load`s, which
// its LLVM lowering does not take, and `convert-vector-to-scf` lowers the
// reads it leaves element by element.
//
//===----------------------------------------------------------------------===//
#include "rlx/Codegen/Passes.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXCPUSPLITBROADCASTREADS
#include "rlx/Codegen/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;

namespace {
/// transfer_read(map with broadcasts) -> broadcast(transfer_read(minor
/// identity, size 1 in the broadcast dimensions)).
struct SplitBroadcastRead : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    VectorType type = read.getVectorType();
    SmallVector<unsigned> broadcastDims;
    if (!isa<MemRefType>(read.getShapedType()) || read.getMask() ||
        type.isScalable() ||
        !read.getPermutationMap().isMinorIdentityWithBroadcasting(
            &broadcastDims) ||
        broadcastDims.empty())
      return failure();
    SmallVector<int64_t> shape(type.getShape());
    SmallVector<bool> inBounds = read.getInBoundsValues();
    for (unsigned dim : broadcastDims) {
      shape[dim] = 1;
      // The one element read along a broadcast dimension is in bounds (the
      // verifier requires it of broadcast dimensions).
      inBounds[dim] = true;
    }
    AffineMap map = read.getPermutationMap();
    auto element = vector::TransferReadOp::create(
        rewriter, read.getLoc(), VectorType::get(shape, type.getElementType()),
        read.getBase(), read.getIndices(), read.getPadding(),
        AffineMap::getMinorIdentityMap(map.getNumDims(), map.getNumResults(),
                                       rewriter.getContext()),
        inBounds);
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(read, type, element);
    return success();
  }
};

struct RlxCpuSplitBroadcastReadsPass
    : rlx::impl::RlxCpuSplitBroadcastReadsBase<RlxCpuSplitBroadcastReadsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<SplitBroadcastRead>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
