//===- Passes.td - rlx conversion passes -------------------*- tablegen -*-===//
#ifndef RLX_CONVERSION_PASSES_TD
#define RLX_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def RlxToLinalg : Pass<"rlx-to-linalg"> {
  let summary = "Lower rlx ops to linalg, tensor, scf, arith and math on tensors";
  let description = [{
    Rewrites every `rlx` op into upstream dialects on tensors: elementwise ops
    become `linalg.generic` whose body is the op's `buildScalar`, contractions
    become `linalg.matmul` or contraction generics, and data movement becomes
    `linalg.transpose`, `tensor.extract_slice`/`insert_slice` and reshapes.
    Top-k is an `scf.for` loop over tensors whose body is a linalg op over
    all rows. Scans (cumsum, cumprod, cummax) become `rlx.associative_scan` and
    gather_backward and the scatters `rlx.scatter`, sequential ops in
    destination style
    that the codegen layer tiles and writes as loops. `rlx.attention` becomes
    `rlx.online_attention` and its normalization, `rlx.attention_backward`
    `rlx.attention_dq` and `rlx.attention_dkdv`: destination-style ops
    that the codegen layer tiles (`rlx-tile-and-fuse`) and decomposes into
    linalg ops tile by tile, so that no `[S_q, S_k]` tensor exists. How
    any op is tiled is not decided here, and the pass has no schedule
    options; a `lowering_config` attribute on an `rlx.attention`, a scan or
    a `gather_backward` is carried to its codegen form.

    Reductions and row ops have one lowering each, the region's: first every
    row op (softmax, log_softmax, layer_norm, rms_norm, the softmax losses)
    outside a region is replaced by its decomposition, with the row work in a
    `row` region, and every reduction outside a region becomes a one-op
    `reduction` region. Then each `rlx.region` becomes one loop nest (see
    `rlx.region`). f16 and bf16 compute and accumulate in f32. An rlx op
    without a lowering is a located error naming it.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::complex::ComplexDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

#endif // RLX_CONVERSION_PASSES_TD
