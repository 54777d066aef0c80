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

/// Named fused ops (rlx.swiglu): one loop nest each.
void populateFusedOpToLinalgPatterns(RewritePatternSet &patterns);
/// rlx.region: one linalg.generic per elementwise region.
void populateRegionToLinalgPatterns(RewritePatternSet &patterns);

/// Tile sizes of the online-softmax attention lowering: queries per tile and
/// keys per tile (both positive).
struct AttentionTileSizes {
  int64_t query = 64;
  int64_t key = 64;
};
/// rlx.attention and rlx.attention_backward as FlashAttention(-2) tiles.
void populateAttentionToLinalgPatterns(RewritePatternSet &patterns,
                                       AttentionTileSizes tiles);

/// All of the above.
void populateRlxToLinalgPatterns(RewritePatternSet &patterns,
                                 AttentionTileSizes attentionTiles = {});

} // namespace mlir::rlx

#endif // RLX_CONVERSION_RLXTOLINALG_RLXTOLINALG_H
