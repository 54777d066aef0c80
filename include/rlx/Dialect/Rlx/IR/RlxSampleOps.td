//===- RlxSampleOps.td - Token sampling as LLM decoders do -*- tablegen -*-===//
//
// rlx.sample: one token per row of logits, drawn with temperature, top-k and
// top-p (nucleus) filtering from the counter-based stream of the random ops
// (RlxRandomOps.td). It is its expansion into rlx ops (sort, exp, cumsum,
// comparisons, reductions, gather_elements) plus the rows' uniforms, which
// --rlx-to-linalg emits, so every target runs the same formulas. Included by
// RlxOps.td.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_DIALECT_RLX_IR_RLXSAMPLEOPS_TD
#define RLX_DIALECT_RLX_IR_RLXSAMPLEOPS_TD

include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "rlx/Dialect/Rlx/IR/RlxDialect.td"
include "rlx/Dialect/Rlx/IR/RlxInterfaces.td"
include "rlx/Dialect/Rlx/IR/RlxRandomOps.td"

def Rlx_SampleOp : Rlx_Op<"sample", [Pure, Rlx_ShapeRule]> {
  let summary = "one token per row of logits: temperature, top-k, top-p";
  let description = [{
    `logits` is `[..., V]` (f16, bf16, f32 or f64; the leading sizes may be
    `?`, `V` is static and at least 1). The result (the declared i64 or i32)
    is `[...]`: for every row `r` (row-major index over the leading
    dimensions) the token, a position in `[0, V)`, that an LLM decoder
    samples. `seed` and `offset` key the draw exactly as they key
    `rlx.rng_uniform`. Computed in the compute type `F` (f32 for f16, bf16
    and f32 logits, f64 for f64), per row:

    1. `temperature == 0`: greedy; the token is `rlx.argmax` of the row
       (ties give the smaller index, the first NaN wins). `top_k` and
       `top_p` are ignored and no random number is drawn.
    2. `x = logits / temperature` in `F`; `s`, `idx` = the row sorted
       descending, stable (`rlx.sort`: equal logits keep the smaller index
       first).
    3. `e[j] = exp(s[j] - s[0])` (so `e[0] = 1`), and `e[j] = 0` for
       `j >= top_k` when `top_k > 0` (top-k keeps the `top_k` highest
       logits, ties at the cut going to the smaller index).
    4. `c` = the inclusive running sum of `e` (sequential, position 0
       first), `C` its exclusive form, `T = c[V - 1]`. Position `j` is kept
       when `e[j] > 0` and, if `top_p < 1`, `C[j] < top_p * T`: the kept
       positions are the smallest prefix of the descending probabilities
       `e / T` whose sum reaches `top_p` (`top_p = 1` keeps all), within the
       top `top_k`; position 0 is always kept. `n` = the number kept.
    5. `u` = element `r` of `rlx.rng_uniform %seed, %offset` of element
       type `F` over the rows (the top 24 bits of the Philox word for f32,
       32 for f64), in [0, 1); `m = max(n - 1, 0)`, `M = c[m]`, the kept
       mass.
    6. The token is `idx[j]` for `j = min(#{kept i : c[i] <= u * M}, m)`:
       the first kept position where the cumulative kept probability
       `c[j] / M` exceeds `u` (inverse CDF in descending-probability order,
       equal probabilities ordered by the smaller index).

    Rows whose probabilities are undefined give the first position of the
    sorted row: a row with a NaN logit gives its first NaN (NaN sorts
    first), else a row with a `+inf` scaled logit (or one that overflows
    `F`) gives its first `+inf`, and a row of `-inf` only gives 0. The
    result depends only on the logits, the attributes, `seed`, `offset` and
    `r`: the same at any thread count and tiling; on the GPU the same up to
    the target's `exp` rounding (the uniforms and the order are
    bit-identical). Not differentiable (an integer result): autodiff
    treats it as a constant.

    Lowering: this expansion, emitted by `--rlx-to-linalg` (after fusion):
    a stable merge sort per row, O(V log V), and four sequential O(V)
    scans per row (two running sums of `e`, two integer counts), the rest
    elementwise or a gather; on the GPU about a dozen kernels, a thread
    per row for the sort and the scans.

    Attributes: `top_k >= 0` (0 = all V; values `>= V` keep all),
    `top_p` in `(0, 1]`, `temperature >= 0` (finite); defaults 0, 1.0,
    1.0.

    ```mlir
    %tok = rlx.sample %logits, %seed, %step top_k = 40 top_p = 0.9
        temperature = 0.7 : tensor<?x32000xf32> -> tensor<?xi64>
    ```
  }];
  let arguments = (ins Rlx_FloatTensor:$logits, Rlx_RandomKey:$seed,
                       Rlx_RandomKey:$offset,
                       DefaultValuedAttr<Rlx_I64Attr, "0">:$top_k,
                       DefaultValuedAttr<F64Attr, "1.0">:$top_p,
                       DefaultValuedAttr<F64Attr, "1.0">:$temperature);
  let results = (outs RankedTensorOf<[I32, I64]>:$result);
  let assemblyFormat = [{
    $logits `,` $seed `,` $offset (`top_k` `=` $top_k^)?
    (`top_p` `=` $top_p^)? (`temperature` `=` $temperature^)? attr-dict `:`
    type($logits) `->` type($result)
  }];
  let hasVerifier = 1;
}

#endif // RLX_DIALECT_RLX_IR_RLXSAMPLEOPS_TD
