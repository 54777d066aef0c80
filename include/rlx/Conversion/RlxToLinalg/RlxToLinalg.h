//===- RlxToLinalg.h - rlx to linalg patterns, by op family -----*- C++ -*-===//
#ifndef RLX_CONVERSION_RLXTOLINALG_RLXTOLINALG_H
#define RLX_CONVERSION_RLXTOLINALG_RLXTOLINALG_H

#include "mlir/Transforms/DialectConversion.h"

namespace mlir::rlx {

/// Every op implementing ScalarComputeOpInterface.
void populateElementwiseToLinalgPatterns(RewritePatternSet &patterns);
/// rlx.matmul.
void populateLinearToLinalgPatterns(RewritePatternSet &patterns);
/// rlx.reduce, rlx.softmax, rlx.log_softmax.
void populateReductionToLinalgPatterns(RewritePatternSet &patterns);
/// rlx.constant, reshape, transpose, expand, concat, narrow, slice.
void populateDataMovementToLinalgPatterns(RewritePatternSet &patterns);

/// Norms, rope and losses.
void populateNormToLinalgPatterns(RewritePatternSet &patterns);
/// Convolution, pooling and resampling.
void populateConvPoolToLinalgPatterns(RewritePatternSet &patterns);
/// Indexing and data movement beyond the core (gather, pad, tile, ...).
void populateIndexingToLinalgPatterns(RewritePatternSet &patterns);
/// Index reductions, scans and top-k.
void populateScanToLinalgPatterns(RewritePatternSet &patterns);

/// Named fused ops: rlx.swiglu in one loop nest, fused contractions as the
/// contraction and one elementwise epilogue.
void populateFusedOpToLinalgPatterns(RewritePatternSet &patterns);
/// rlx.region: one linalg.generic per elementwise region.
void populateRegionToLinalgPatterns(RewritePatternSet &patterns);

/// All of the above.
void populateRlxToLinalgPatterns(RewritePatternSet &patterns);

} // namespace mlir::rlx

#endif // RLX_CONVERSION_RLXTOLINALG_RLXTOLINALG_H
