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
    Scans (cumsum, cumprod, cummax), top-k and gather_backward's scatter-add
    are `scf.for` loops over tensors whose bodies are linalg ops: each step
    covers every line along the axis (every slice of the table), which
    vectorizes on a CPU. Scans along the innermost axis, and with
    `sequential-by-lines` every scan and the scatter-add, are instead an
    `scf.forall` over the lines along the axis, each line computed by an
    `scf.for` of scalar code: one parallel loop, which the GPU pipeline runs
    as one kernel of one thread per line. `rlx.attention` becomes
    `rlx.online_attention` and its normalization, `rlx.attention_backward`
    `rlx.attention_dq` and `rlx.attention_dkdv`: destination-style ops
    that the codegen layer tiles (`rlx-tile-and-fuse`) and decomposes into
    linalg ops tile by tile, so that no `[S_q, S_k]` tensor exists. How
    they are tiled is not decided here.

    Reductions and row ops have one lowering each, the region's: first every
    row op (softmax, log_softmax, layer_norm, rms_norm, the softmax losses)
    outside a region is replaced by its decomposition, with the row work in a
    `row` region, and every reduction outside a region becomes a one-op
    `reduction` region. Then each `rlx.region` becomes one loop nest (see
    `rlx.region`). f16 and bf16 compute and accumulate in f32. An rlx op
    without a lowering is a located error naming it.
  }];
  let options = [
    Option<"sequentialByLines", "sequential-by-lines", "bool",
           /*default=*/"false",
           "Run every scan (cumsum, cumprod, cummax) and gather_backward's "
           "scatter-add one line per iteration of an scf.forall (without "
           "it: only scans along the innermost axis) instead of stepping "
           "along the axis over all lines">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

#endif // RLX_CONVERSION_PASSES_TD
