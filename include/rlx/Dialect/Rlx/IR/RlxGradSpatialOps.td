//===- RlxGradSpatialOps.td - Spatial and indexing backward ops -*- tablegen -*-===//
//
// Included by RlxOps.td. The adjoints of convolution, transposed
// convolution, pooling, gather, cumsum and rope: each takes the gradient of its forward op's result
// (`grad_output`) and whatever forward operand the adjoint needs, carries
// the forward op's attributes unchanged, and gives the gradient of one
// forward operand. Where the forward result shape does not determine that
// operand's shape (strided convolution and pooling floor the output size,
// gather drops the table's axis), the shape is the declared result type and
// the verifier checks it against the forward op's own shape inference.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_DIALECT_RLX_IR_RLXGRADSPATIALOPS_TD
#define RLX_DIALECT_RLX_IR_RLXGRADSPATIALOPS_TD

include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "rlx/Dialect/Rlx/IR/RlxDialect.td"
include "rlx/Dialect/Rlx/IR/RlxConvPoolOps.td"
include "rlx/Dialect/Rlx/IR/RlxIndexingOps.td"
include "rlx/Dialect/Rlx/IR/RlxNormOps.td"

//===----------------------------------------------------------------------===//
// Convolution
//===----------------------------------------------------------------------===//

def Rlx_ConvBackwardInputOp : Rlx_Op<"conv_backward_input", [Pure, Rlx_ShapeRule,
    AllElementTypesMatch<["grad_output", "weight", "result"]>]> {
  let summary = "gradient of rlx.conv with respect to its input";
  let description = [{
    For `rlx.conv` of an input `[N, C_in, X_1..X_r]` and `weight`
    `[C_out, C_in / groups, K_1..K_r]` with the given `stride`, `padding`,
    `dilation` and `groups`, the gradient of the input from the gradient
    `grad_output` `[N, C_out, O_1..O_r]` of the convolution's result:

    ```
    result[n, g * (C_in / groups) + c, x...] = sum over f, k... with
        o_i = (x_i + lo_i - k_i * dilation_i) / stride_i integral, in [0, O_i):
      grad_output[n, g * (C_out / groups) + f, o...] * weight[g * (C_out / groups) + f, c, k...]
    ```

    This is `rlx.conv_transpose` of `grad_output` by `weight` with the same
    geometry, cropped or extended at the high end to the input size: a
    strided convolution's output size rounds down, so several input sizes
    give the same `grad_output`, and the result type declares which one.
    Input positions no window reads (past the last window) get 0.

    With `like %input` (the forward input, of the result's type; only its
    sizes are read) the result has the input's sizes, which may be `?`:
    `grad_output` cannot give a `?` spatial size, so without `input` only
    the batch may be `?` (it is `grad_output`'s).

    Rules: `rlx.conv`'s rules for the declared input and `weight`, and
    `grad_output` has exactly the type `rlx.conv` infers for them.
    f16 and bf16 accumulate in f32 and round once.
  }];
  let arguments = (ins Rlx_FloatTensor:$grad_output, Rlx_FloatTensor:$weight,
                       Optional<Rlx_FloatTensor>:$input,
                       DenseI64ArrayAttr:$stride, DenseI64ArrayAttr:$padding,
                       DenseI64ArrayAttr:$dilation, Rlx_I64Attr:$groups);
  let results = (outs Rlx_FloatTensor:$result);
  let assemblyFormat = [{
    $grad_output `,` $weight (`like` $input^)? `stride` `=` $stride
    `padding` `=` $padding `dilation` `=` $dilation `groups` `=` $groups
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Rlx_ConvBackwardWeightOp : Rlx_Op<"conv_backward_weight", [Pure, Rlx_ShapeRule,
    AllElementTypesMatch<["grad_output", "input", "result"]>]> {
  let summary = "gradient of rlx.conv with respect to its weight";
  let description = [{
    For `rlx.conv` of `input` `[N, C_in, X_1..X_r]` and a weight
    `[C_out, C_in / groups, K_1..K_r]` with the given `stride`, `padding`,
    `dilation` and `groups`, the gradient of the weight from the gradient
    `grad_output` `[N, C_out, O_1..O_r]` of the convolution's result:

    ```
    g = co / (C_out / groups)
    result[co, c, k...] = sum over n, o...:
        grad_output[n, co, o...]
        * input_padded[n, g * (C_in / groups) + c, o_i * stride_i + k_i * dilation_i]
    ```

    The kernel size is not implied by the other shapes, so the result type
    declares the weight shape. Rules: `rlx.conv`'s rules for `input` and the
    declared weight, and `grad_output` has exactly the type `rlx.conv` infers
    for them. f16 and bf16 accumulate in f32 and round once.
  }];
  let arguments = (ins Rlx_FloatTensor:$grad_output, Rlx_FloatTensor:$input,
                       DenseI64ArrayAttr:$stride, DenseI64ArrayAttr:$padding,
                       DenseI64ArrayAttr:$dilation, Rlx_I64Attr:$groups);
  let results = (outs Rlx_FloatTensor:$result);
  let assemblyFormat = [{
    $grad_output `,` $input `stride` `=` $stride `padding` `=` $padding
    `dilation` `=` $dilation `groups` `=` $groups attr-dict `:`
    functional-type(operands, results)
  }];
}

def Rlx_ConvTransposeBackwardInputOp : Rlx_Op<
    "conv_transpose_backward_input", [Pure, Rlx_ShapeRule,
    AllElementTypesMatch<["grad_output", "weight", "result"]>]> {
  let summary = "gradient of rlx.conv_transpose with respect to its input";
  let description = [{
    For `rlx.conv_transpose` of an input `[N, C_in, X_1..X_r]` and `weight`
    `[C_in, C_out / groups, K_1..K_r]` with the given `stride`, `padding`,
    `output_padding`, `dilation` and `groups`, the gradient of the input from
    the gradient `grad_output` `[N, C_out, O_1..O_r]` of its result. The
    adjoint of the scatter is a gather, `rlx.conv` with the same stride,
    dilation and groups:

    ```
    result[n, ci, x...] = sum over f, k... with p_i = x_i * stride_i + k_i * dilation_i - lo_i in [0, O_i):
        grad_output[n, g * (C_out / groups) + f, p...] * weight[ci, f, k...]
    ```

    (`g = ci / (C_in / groups)`). The result type declares the input shape.
    Rules: `rlx.conv_transpose`'s rules for the declared input and `weight`,
    and `grad_output` has exactly the type it infers for them. f16 and bf16
    accumulate in f32 and round once.
  }];
  let arguments = (ins Rlx_FloatTensor:$grad_output, Rlx_FloatTensor:$weight,
                       DenseI64ArrayAttr:$stride, DenseI64ArrayAttr:$padding,
                       DenseI64ArrayAttr:$output_padding,
                       DenseI64ArrayAttr:$dilation, Rlx_I64Attr:$groups);
  let results = (outs Rlx_FloatTensor:$result);
  let assemblyFormat = [{
    $grad_output `,` $weight `stride` `=` $stride `padding` `=` $padding
    `output_padding` `=` $output_padding `dilation` `=` $dilation
    `groups` `=` $groups attr-dict `:` functional-type(operands, results)
  }];
}

def Rlx_ConvTransposeBackwardWeightOp : Rlx_Op<
    "conv_transpose_backward_weight", [Pure, Rlx_ShapeRule,
    AllElementTypesMatch<["grad_output", "input", "result"]>]> {
  let summary = "gradient of rlx.conv_transpose with respect to its weight";
  let description = [{
    For `rlx.conv_transpose` of `input` `[N, C_in, X_1..X_r]` and a weight
    `[C_in, C_out / groups, K_1..K_r]` with the given `stride`, `padding`,
    `output_padding`, `dilation` and `groups`, the gradient of the weight
    from the gradient `grad_output` `[N, C_out, O_1..O_r]` of its result:

    ```
    result[ci, f, k...] = sum over n, x... with p_i = x_i * stride_i + k_i * dilation_i - lo_i in [0, O_i):
        input[n, ci, x...] * grad_output[n, g * (C_out / groups) + f, p...]
    ```

    (`g = ci / (C_in / groups)`): `rlx.conv_backward_weight` with the roles
    of the two operands exchanged. The result type declares the weight
    shape. Rules: `rlx.conv_transpose`'s rules for `input` and the declared
    weight, and `grad_output` has exactly the type it infers for them. f16
    and bf16 accumulate in f32 and round once.
  }];
  let arguments = (ins Rlx_FloatTensor:$grad_output, Rlx_FloatTensor:$input,
                       DenseI64ArrayAttr:$stride, DenseI64ArrayAttr:$padding,
                       DenseI64ArrayAttr:$output_padding,
                       DenseI64ArrayAttr:$dilation, Rlx_I64Attr:$groups);
  let results = (outs Rlx_FloatTensor:$result);
  let assemblyFormat = [{
    $grad_output `,` $input `stride` `=` $stride `padding` `=` $padding
    `output_padding` `=` $output_padding `dilation` `=` $dilation
    `groups` `=` $groups attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

def Rlx_PoolBackwardOp : Rlx_Op<"pool_backward", [Pure, Rlx_ShapeRule,
    AllTypesMatch<["input", "result"]>,
    AllElementTypesMatch<["grad_output", "input"]>]> {
  let summary = "gradient of rlx.pool with respect to its input";
  let description = [{
    For `rlx.pool` of `input` `[N, C, X_1..X_r]` with the same `kind`,
    `kernel`, `stride`, `padding`, `ceil_mode` and `count_include_pad`, the
    gradient of the input from the gradient `grad_output` `[N, C, O_1..O_r]`
    of the pool's result. Each window passes its gradient back to:

    - `max`: the window's maximum, recomputed from `input`. Among equal
      maxima the first in row-major window order wins, and a NaN wins over
      every number (the last NaN among several), as PyTorch's CPU
      `max_pool` records its indices. Padding never wins.
    - `avg`: every input position of the window, divided by the window's
      divisor in the forward op (positions inside the padded input with
      `count_include_pad`, inside the input without it).

    Gradients of overlapping windows add up; input positions no window
    covers get 0. Rules: `rlx.pool`'s rules, and `grad_output` has exactly
    the type `rlx.pool` infers for `input`; the result has the input's type.
    f16 and bf16 accumulate in f32 and round once.
  }];
  let arguments = (ins Rlx_PoolKind:$kind, Rlx_FloatTensor:$grad_output,
                       Rlx_FloatTensor:$input, DenseI64ArrayAttr:$kernel,
                       DenseI64ArrayAttr:$stride, DenseI64ArrayAttr:$padding,
                       UnitAttr:$ceil_mode, UnitAttr:$count_include_pad);
  let results = (outs Rlx_FloatTensor:$result);
  let assemblyFormat = [{
    $kind $grad_output `,` $input `kernel` `=` $kernel `stride` `=` $stride
    `padding` `=` $padding (`ceil_mode` $ceil_mode^)?
    (`count_include_pad` $count_include_pad^)? attr-dict `:`
    type($grad_output) `,` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Rlx_GlobalPoolBackwardOp : Rlx_Op<"global_pool_backward", [Pure, Rlx_ShapeRule,
    AllTypesMatch<["input", "result"]>,
    AllElementTypesMatch<["grad_output", "input"]>]> {
  let summary = "gradient of rlx.global_pool with respect to its input";
  let description = [{
    For `rlx.global_pool` of `input` `[N, C, X_1..X_r]` (r >= 1) with the
    same `kind`, the gradient of the input from the gradient `grad_output`
    `[N, C, 1..1]` of its result: `rlx.pool_backward` with one window over
    the whole spatial extent. `max` passes each gradient to the maximum of
    its `[n, c]` slice (the first among equal maxima, the last NaN if any,
    as PyTorch's `adaptive_max_pool` with output size 1); `avg` spreads it
    evenly over the slice. Rules: `grad_output` has exactly the type
    `rlx.global_pool` infers for `input`; the result has the input's type.
    f16 and bf16 compute in f32 and round once.
  }];
  let arguments = (ins Rlx_PoolKind:$kind, Rlx_FloatTensor:$grad_output,
                       Rlx_FloatTensor:$input);
  let results = (outs Rlx_FloatTensor:$result);
  let assemblyFormat = [{
    $kind $grad_output `,` $input attr-dict `:` type($grad_output) `,`
    type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Indexing and scans
//===----------------------------------------------------------------------===//

def Rlx_GatherBackwardOp : Rlx_Op<"gather_backward", [Pure, Rlx_ShapeRule,
    AllElementTypesMatch<["grad_output", "result"]>]> {
  let summary = "gradient of rlx.gather with respect to its table (scatter-add)";
  let description = [{
    For `rlx.gather` of a table (the result type) by `indices` along `axis`,
    the gradient of the table from the gradient `grad_output` of the
    gather's result:

    ```
    result = 0
    result[p..., rule(indices[i...]), s...] += grad_output[p..., i..., s...]
    ```

    where `rule` is the gather's index rule (an index in `[-n, 0)` wraps
    once, anything still outside `[0, n)` clamps): the gradient flows to the
    row the gather read. Repeated indices accumulate. The table shape is
    declared by the result type. Rules: those of `rlx.gather` for the
    declared table, `indices` and `axis`, and `grad_output` has exactly the
    type `rlx.gather` infers. f16 and bf16 accumulate in f32 and round once.
  }];
  let arguments = (ins Rlx_FloatTensor:$grad_output, Rlx_IndexTensor:$indices,
                       Rlx_I64Attr:$axis);
  let results = (outs Rlx_FloatTensor:$result);
  let assemblyFormat = [{
    $grad_output `,` $indices `axis` `=` $axis attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Rlx_CumsumBackwardOp : Rlx_Op<"cumsum_backward",
    [Pure, SameOperandsAndResultType, Rlx_SymbolicShapeOpInterface]> {
  let summary = "gradient of rlx.cumsum: the reverse cumulative sum";
  let description = [{
    For `rlx.cumsum` along `axis` (with the same `exclusive`), the gradient
    of its input from the gradient `grad_output` of its result: along
    `axis`, `result[i]` sums `grad_output[j]` for `j` in `[i, n)`, or in
    `(i, n)` with `exclusive`. Rules: `axis` in `[-rank, rank)`.
    f16 and bf16 carry the running sum in f32.
  }];
  let arguments = (ins Rlx_FloatTensor:$grad_output, Rlx_I64Attr:$axis,
                       UnitAttr:$exclusive);
  let results = (outs Rlx_FloatTensor:$result);
  let assemblyFormat = [{
    $grad_output `axis` `=` $axis (`exclusive` $exclusive^)? attr-dict `:`
    type($grad_output)
  }];
  let hasVerifier = 1;
}

def Rlx_RopeBackwardOp : Rlx_Op<"rope_backward", [Pure, Rlx_ShapeRule,
    AllTypesMatch<["grad_output", "result"]>,
    AllElementTypesMatch<["grad_output", "cos", "sin"]>]> {
  let summary = "gradient of rlx.rope with respect to its input";
  let description = [{
    For `rlx.rope` with the same `style`, `layout`, `cos`, `sin`,
    `head_dim` and `n_rot`, the gradient of its input from the gradient `grad_output` of
    its result. Each pair `(a, b)` of the style (`neox`: `(i, i + n_rot / 2)`,
    `gptj`: `(2i, 2i + 1)`) was rotated by an orthogonal 2x2 matrix, so its
    adjoint is the transposed rotation, by the opposite angle:

        result[a] = grad_output[a] * cos[s, i] + grad_output[b] * sin[s, i]
        result[b] = grad_output[b] * cos[s, i] - grad_output[a] * sin[s, i]

    Dimensions `n_rot ..< head_dim` of each head pass through unchanged.
    `cos` and `sin` are treated as constant tables (positions carry no
    gradient). Rules: those of `rlx.rope`.
  }];
  let arguments = (ins Rlx_RopeStyle:$style, Rlx_AttentionLayout:$layout,
                       Rlx_FloatTensor:$grad_output, Rlx_FloatTensor:$cos,
                       Rlx_FloatTensor:$sin, Rlx_I64Attr:$head_dim,
                       Rlx_I64Attr:$n_rot);
  let results = (outs Rlx_FloatTensor:$result);
  let assemblyFormat = [{
    $style $layout $grad_output `,` $cos `,` $sin `head_dim` `=` $head_dim
    `,` `n_rot` `=` $n_rot attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

#endif // RLX_DIALECT_RLX_IR_RLXGRADSPATIALOPS_TD
