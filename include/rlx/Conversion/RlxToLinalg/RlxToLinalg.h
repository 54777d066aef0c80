//===- RlxToLinalg.h - rlx to linalg patterns, by op family -----*- C++ -*-===//
#ifndef RLX_CONVERSION_RLXTOLINALG_RLXTOLINALG_H
#define RLX_CONVERSION_RLXTOLINALG_RLXTOLINALG_H

#include "mlir/Transforms/DialectConversion.h"

namespace mlir::rlx {

/// Every op implementing ScalarComputeOpInterface.
void populateElementwiseToLinalgPatterns(RewritePatternSet &patterns);
/// rlx.matmul.
void populateLinearToLinalgPatterns(RewritePatternSet &patterns);
/// rlx.constant, reshape, transpose, expand, concat, narrow, slice.
void populateDataMovementToLinalgPatterns(RewritePatternSet &patterns);

/// group_norm, layer_norm2d, ada_layer_norm, batch_norm_inference,
/// gated_residual, rope.
void populateNormToLinalgPatterns(RewritePatternSet &patterns);
/// Convolution, pooling and resampling.
void populateConvPoolToLinalgPatterns(RewritePatternSet &patterns);
/// Indexing and data movement beyond the core (gather, pad, tile, ...).
void populateIndexingToLinalgPatterns(RewritePatternSet &patterns);
/// rng_bits, rng_uniform, rng_normal and dropout.
void populateRandomToLinalgPatterns(RewritePatternSet &patterns);
/// quantize, dequantize, fake_quantize, fake_quantize_lsq and their backward
/// ops.
void populateQuantToLinalgPatterns(RewritePatternSet &patterns);
/// qmatmul, qconv, dequant_matmul (dequantizing in the contraction's body),
/// dequant_weight, scaled_matmul and fp8_from_bits (QuantMatmul.cpp).
void populateQuantMatmulToLinalgPatterns(RewritePatternSet &patterns);
/// scatter_elements, scatter_add and scatter_nd (as rlx.scatter).
void populateScatterToLinalgPatterns(RewritePatternSet &patterns);
/// Index reductions and scans (as rlx.associative_scan).
void populateScanToLinalgPatterns(RewritePatternSet &patterns);
/// sort, argsort, topk, cummax_indices and histogram.
void populateSortToLinalgPatterns(RewritePatternSet &patterns);
/// cholesky, triangular_solve, solve, det and logdet (scalar loops per
/// matrix in an scf.forall over the batch).
void populateLinearAlgebraToLinalgPatterns(RewritePatternSet &patterns);
/// fft, ifft, rfft, irfft (scalar loops per line in an scf.forall) and the
/// complex-number ops (generics on the complex dialect).
void populateSignalToLinalgPatterns(RewritePatternSet &patterns);
/// rlx.sample as its expansion into rlx ops (and the rows' uniforms).
void populateSampleToLinalgPatterns(RewritePatternSet &patterns);

/// Named fused ops: rlx.swiglu in one loop nest, fused contractions as the
/// contraction and one elementwise epilogue, rlx.lora_matmul as its
/// expansion.
void populateFusedOpToLinalgPatterns(RewritePatternSet &patterns);
/// rlx.if, rlx.while and rlx.scan: scf.if, scf.while and scf.for on tensors
/// with the ops' regions moved in; rlx.custom_fn: its body inlined
/// (ControlFlow.cpp).
void populateControlFlowToScfPatterns(RewritePatternSet &patterns);
/// rlx.grouped_matmul and rlx.dequant_grouped_matmul: one contraction
/// generic that gathers (and dequantizes) the routed expert's weights in its
/// body (GroupedMatmul.cpp).
void populateGroupedMatmulToLinalgPatterns(RewritePatternSet &patterns);
/// rlx.region of every kind: one loop nest each. Reductions and row ops
/// (softmax, layer_norm, ...) are lowered through regions: rlx-to-linalg
/// wraps them first.
void populateRegionToLinalgPatterns(RewritePatternSet &patterns);

/// rlx.attention and rlx.attention_backward as their code generation forms
/// (rlx.online_attention; rlx.attention_dq and rlx.attention_dkdv), which
/// the codegen layer tiles.
void populateAttentionToLinalgPatterns(RewritePatternSet &patterns);

/// The spatial and indexing backward ops: conv_backward_input/weight,
/// pool_backward, gather_backward (as rlx.scatter), cumsum_backward and
/// rope_backward.
void populateGradSpatialToLinalgPatterns(RewritePatternSet &patterns);

/// All of the above.
void populateRlxToLinalgPatterns(RewritePatternSet &patterns);

} // namespace mlir::rlx

#endif // RLX_CONVERSION_RLXTOLINALG_RLXTOLINALG_H
