//===- RlxToLinalg.cpp - The rlx-to-linalg pass ---------------------------===//
#include "rlx/Conversion/RlxToLinalg/RlxToLinalg.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "rlx/Conversion/Passes.h"
#include "rlx/Dialect/Rlx/IR/RlxDialect.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXTOLINALG
#include "rlx/Conversion/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;
using namespace mlir::rlx;

void mlir::rlx::populateRlxToLinalgPatterns(RewritePatternSet &patterns) {
  populateElementwiseToLinalgPatterns(patterns);
  populateLinearToLinalgPatterns(patterns);
  populateDataMovementToLinalgPatterns(patterns);
  populateNormToLinalgPatterns(patterns);
  populateConvPoolToLinalgPatterns(patterns);
  populateIndexingToLinalgPatterns(patterns);
  populateRandomToLinalgPatterns(patterns);
  populateQuantToLinalgPatterns(patterns);
  populateQuantMatmulToLinalgPatterns(patterns);
  populateScanToLinalgPatterns(patterns);
  populateSortToLinalgPatterns(patterns);
  populateLinearAlgebraToLinalgPatterns(patterns);
  populateSignalToLinalgPatterns(patterns);
  populateSampleToLinalgPatterns(patterns);
  populateScatterToLinalgPatterns(patterns);
  populateRegionToLinalgPatterns(patterns);
  populateFusedOpToLinalgPatterns(patterns);
  populateGroupedMatmulToLinalgPatterns(patterns);
  populateAttentionToLinalgPatterns(patterns);
  populateGradSpatialToLinalgPatterns(patterns);
  populateControlFlowToScfPatterns(patterns);
}

/// Gives every row op and reduction outside a region the region that is
/// its lowering.
static void wrapInRegions(Operation *root) {
  IRRewriter rewriter(root->getContext());
  SmallVector<RowOpInterface> rowOps;
  root->walk([&](RowOpInterface op) {
    if (!op->getParentOfType<RegionOp>())
      rowOps.push_back(op);
  });
  for (RowOpInterface rowOp : rowOps)
    decomposeIntoRowRegion(rewriter, rowOp);
  // After the row ops: a decomposition may leave reductions over other axes
  // outside its row region (the parameter gradients of the norm backward
  // ops).
  SmallVector<ReductionOpInterface> reductions;
  root->walk([&](ReductionOpInterface op) {
    if (!op->getParentOfType<RegionOp>())
      reductions.push_back(op);
  });
  for (ReductionOpInterface reduction : reductions)
    outlineIntoRegion(rewriter, {reduction.getOperation()},
                      FusionKind::Reduction);
}

namespace {
struct RlxToLinalgPass : rlx::impl::RlxToLinalgBase<RlxToLinalgPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    wrapInRegions(getOperation());
    ConversionTarget target(*context);
    target.addIllegalDialect<RlxDialect>();
    // The code generation forms of attention, row regions, scans and
    // scatters, which the codegen layer tiles; a row region's body moves
    // into its rlx.rows, a scan's or scatter's combiner is built in it.
    target.addLegalOp<OnlineAttentionOp, AttentionDqOp, AttentionDkDvOp, RowsOp,
                      AssociativeScanOp, ScatterOp>();
    target.markOpRecursivelyLegal<RowsOp, AssociativeScanOp, ScatterOp>();
    // Sizes computed from `?` ones are affine.apply (shape rules).
    target.addLegalDialect<affine::AffineDialect, arith::ArithDialect,
                           complex::ComplexDialect, linalg::LinalgDialect,
                           math::MathDialect, scf::SCFDialect,
                           tensor::TensorDialect>();
    RewritePatternSet patterns(context);
    populateRlxToLinalgPatterns(patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
