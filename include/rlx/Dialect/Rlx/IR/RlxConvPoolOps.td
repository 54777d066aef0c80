//===- RlxConvPoolOps.td - Convolution, pooling and resampling ops -*- tablegen -*-===//
//
// Included by RlxOps.td; enums defined here are generated with the others.
//
// Layout conventions shared by every op here: activations are channels-first
// (`[N, C, spatial...]`, i.e. NCW, NCHW, NCDHW), the spatial rank is the
// input rank minus 2, and per-dimension attributes list the spatial
// dimensions in order. Padding is one array of `2 * spatial rank` values,
// `[lo_0, hi_0, lo_1, hi_1, ...]`: the zeros (or -inf) added before and after
// each spatial dimension, so asymmetric padding needs no separate op.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_DIALECT_RLX_IR_RLXCONVPOOLOPS_TD
#define RLX_DIALECT_RLX_IR_RLXCONVPOOLOPS_TD

include "mlir/IR/EnumAttr.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "rlx/Dialect/Rlx/IR/RlxDialect.td"
include "rlx/Dialect/Rlx/IR/RlxInterfaces.td"

def Rlx_PoolKind : I32EnumAttr<"PoolKind", "pooling combiner", [
    I32EnumAttrCase<"Max", 0, "max">,
    I32EnumAttrCase<"Avg", 1, "avg">
  ]> {
  let cppNamespace = "::mlir::rlx";
}

//===----------------------------------------------------------------------===//
// Convolutions
//===----------------------------------------------------------------------===//

def Rlx_ConvOp : Rlx_Op<"conv", [Pure, Rlx_ShapeRule, InferTypeOpAdaptor,
                                 Rlx_ContractionOpInterface,
                                 SameOperandsAndResultElementType]> {
  let summary = "1-D, 2-D or 3-D grouped convolution (cross-correlation)";
  let description = [{
    Cross-correlates `input` `[N, C_in, X_1..X_r]` (r = 1, 2 or 3, taken from
    the input rank) with `weight` `[C_out, C_in / groups, K_1..K_r]`, as
    PyTorch's `conv1d`/`conv2d`/`conv3d` without bias (a bias is a separate
    broadcasting `rlx.add`):

    ```
    g = co / (C_out / groups)
    result[n, co, o...] = sum over c in [0, C_in / groups), k...:
        input_padded[n, g * (C_in / groups) + c, o_i * stride_i + k_i * dilation_i]
        * weight[co, c, k...]
    ```

    `input_padded` is `input` with `padding[2i]` zeros before and
    `padding[2i + 1]` zeros after spatial dimension `i`, so both symmetric
    (PyTorch's `padding`) and asymmetric (`F.pad` then `conv`) padding are one
    op. The result `[N, C_out, O_1..O_r]` is inferred with
    `O_i = (X_i + lo_i + hi_i - dilation_i * (K_i - 1) - 1) / stride_i + 1`
    (floor division). `groups = C_in` is a depthwise convolution.

    Rules: strides and dilations are positive, pads non-negative, one stride
    and dilation per spatial dimension and two pads; `groups` is positive and
    divides both `C_in` and `C_out`; the weight's second dimension is
    `C_in / groups`; every `O_i >= 1` (the dilated kernel fits in the padded
    input). f16 and bf16 accumulate in f32 and round once.

    The batch and the spatial sizes may be `?`: one compiled function
    serves every batch and image size. `O_i` is then computed at run time,
    where the requirement that the dilated kernel fits is checked (a status,
    not a wild read). Channels and weights are static.
  }];
  let arguments = (ins Rlx_FloatTensor:$input, Rlx_FloatTensor:$weight,
                       DenseI64ArrayAttr:$stride, DenseI64ArrayAttr:$padding,
                       DenseI64ArrayAttr:$dilation, Rlx_I64Attr:$groups);
  let results = (outs Rlx_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $weight `stride` `=` $stride `padding` `=` $padding
    `dilation` `=` $dilation `groups` `=` $groups attr-dict `:`
    functional-type(operands, results)
  }];
}

def Rlx_ConvTransposeOp : Rlx_Op<"conv_transpose", [Pure, Rlx_ShapeRule, InferTypeOpAdaptor,
                                   SameOperandsAndResultElementType]> {
  let summary = "1-D, 2-D or 3-D grouped transposed convolution";
  let description = [{
    The gradient of `rlx.conv` with respect to its input, as PyTorch's
    `conv_transpose1d`/`2d`/`3d` without bias. `input` is
    `[N, C_in, X_1..X_r]` (r = 1, 2 or 3) and `weight` is
    `[C_in, C_out / groups, K_1..K_r]`; each input element scatters its
    weighted kernel into the output:

    ```
    g = ci / (C_in / groups)
    result[n, g * (C_out / groups) + f, x_i * stride_i + k_i * dilation_i - lo_i] +=
        input[n, ci, x...] * weight[ci, f, k...]
    ```

    for every position landing in `[0, O_i)`. `padding` is
    `[lo_0, hi_0, lo_1, hi_1, ...]` and crops the full scatter on each side
    (PyTorch's symmetric `padding = p` is `lo = hi = p`); `output_padding`
    adds that many positions at the high end of each dimension, resolving the
    ambiguity of strided shapes. The result `[N, C_out, O_1..O_r]` is
    inferred: `O_i = (X_i - 1) * stride_i - lo_i - hi_i
    + dilation_i * (K_i - 1) + output_padding_i + 1`.

    Rules: strides and dilations positive, pads non-negative, one stride,
    dilation and output padding per spatial dimension and two pads;
    `0 <= output_padding_i < max(stride_i, dilation_i)` (as PyTorch);
    `groups` positive, dividing `C_in`, and the weight's first dimension is
    `C_in`; no empty spatial input dimension; every `O_i >= 1`. f16 and
    bf16 accumulate in f32.

    The batch and the spatial sizes may be `?`: one compiled function
    serves every batch and image size; `O_i >= 1` and a non-empty input are
    then run-time requirements. Channels and weights are static.
  }];
  let arguments = (ins Rlx_FloatTensor:$input, Rlx_FloatTensor:$weight,
                       DenseI64ArrayAttr:$stride, DenseI64ArrayAttr:$padding,
                       DenseI64ArrayAttr:$output_padding,
                       DenseI64ArrayAttr:$dilation, Rlx_I64Attr:$groups);
  let results = (outs Rlx_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $weight `stride` `=` $stride `padding` `=` $padding
    `output_padding` `=` $output_padding `dilation` `=` $dilation
    `groups` `=` $groups attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

def Rlx_PoolOp : Rlx_Op<"pool", [Pure, Rlx_ShapeRule, InferTypeOpAdaptor,
                                 SameOperandsAndResultElementType]> {
  let summary = "1-D, 2-D or 3-D max or average pooling";
  let description = [{
    Slides a `kernel` window with `stride` over the spatial dimensions of
    `input` `[N, C, X_1..X_r]` (r = 1, 2 or 3) and takes the maximum
    (`max`) or the mean (`avg`) of each window, as PyTorch's
    `max_poolNd`/`avg_poolNd` (no dilation). `padding` is
    `[lo_0, hi_0, lo_1, hi_1, ...]`; max pooling pads with -inf, average
    pooling with zeros. NaN in a window gives NaN for `max`.

    The result `[N, C, O_1..O_r]` is inferred:
    `O_i = (X_i + lo_i + hi_i - K_i) / stride_i + 1`, rounding the division
    down, or up with `ceil_mode`. In `ceil_mode` the last window must start
    inside the input or the low padding (`(O_i - 1) * stride_i < X_i + lo_i`),
    otherwise `O_i` is one less (PyTorch's rule); a window may then run past
    the high padding and only its part inside the padded input counts.

    The average divides the window sum by the number of window positions
    inside the padded input `[-lo_i, X_i + hi_i)` with `count_include_pad`
    (PyTorch's default), or inside the input `[0, X_i)` without it.

    Rules: one kernel size and stride per spatial dimension (positive) and
    two pads, each non-negative and at most half its kernel size; no empty
    spatial input dimension (together: every window holds an input element);
    `count_include_pad` only with `avg`; every `O_i >= 1`.

    The batch and the spatial sizes may be `?`: one compiled function
    serves every batch and image size; the window fits and the input is not
    empty are then run-time requirements. With a `?` spatial size,
    `ceil_mode` needs `kernel >= stride + high padding` in that dimension:
    PyTorch's rule that drops a last window starting in the high padding
    can apply only otherwise, and it makes `O_i` depend on the size in a way
    that is not affine. Channels are static.
  }];
  let arguments = (ins Rlx_PoolKind:$kind, Rlx_FloatTensor:$input,
                       DenseI64ArrayAttr:$kernel, DenseI64ArrayAttr:$stride,
                       DenseI64ArrayAttr:$padding, UnitAttr:$ceil_mode,
                       UnitAttr:$count_include_pad);
  let results = (outs Rlx_FloatTensor:$result);
  let assemblyFormat = [{
    $kind $input `kernel` `=` $kernel `stride` `=` $stride
    `padding` `=` $padding (`ceil_mode` $ceil_mode^)?
    (`count_include_pad` $count_include_pad^)? attr-dict `:`
    type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Rlx_GlobalPoolOp : Rlx_Op<"global_pool", [Pure, Rlx_ShapeRule, InferTypeOpAdaptor,
                                   SameOperandsAndResultElementType]> {
  let summary = "max or average over all spatial dimensions";
  let description = [{
    Reduces every spatial dimension of `input` `[N, C, X_1..X_r]` (r >= 1)
    with `max` or `avg`, keeping them as size-1 dimensions: the result is
    `[N, C, 1..1]`, as PyTorch's `adaptive_max_poolNd(x, 1)` and
    `adaptive_avg_poolNd(x, 1)` (squeeze with `rlx.reshape` if needed).
    NaN propagates through `max`. An empty spatial input gives -inf for
    `max` and NaN for `avg`, as `rlx.reduce`. f16 and bf16 accumulate in f32.

    The batch and the spatial sizes may be `?` (an average divides by the
    run-time count); channels are static.
  }];
  let arguments = (ins Rlx_PoolKind:$kind, Rlx_FloatTensor:$input);
  let results = (outs Rlx_FloatTensor:$result);
  let assemblyFormat = [{
    $kind $input attr-dict `:` type($input) `->` type($result)
  }];
}

//===----------------------------------------------------------------------===//
// Resampling
//===----------------------------------------------------------------------===//

def Rlx_ResizeNearest2xOp : Rlx_Op<"resize_nearest2x", [Pure, Rlx_ShapeRule,
    InferTypeOpAdaptor, SameOperandsAndResultElementType]> {
  let summary = "2x nearest-neighbour upsampling of NCHW";
  let description = [{
    `[N, C, H, W] -> [N, C, 2H, 2W]` with
    `result[n, c, h, w] = input[n, c, h / 2, w / 2]` (floor division): each
    element becomes a 2x2 block, as
    `F.interpolate(x, scale_factor=2, mode='nearest')`. Any element type.

    The batch and the spatial sizes may be `?`; channels are static.
  }];
  let arguments = (ins Rlx_Tensor:$input);
  let results = (outs Rlx_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def Rlx_InterpolateNearestOp : Rlx_Op<"interpolate_nearest", [Pure, Rlx_ShapeRule,
    InferTypeOpAdaptor, SameOperandsAndResultElementType]> {
  let summary = "nearest-neighbour resampling to a given spatial size";
  let description = [{
    Resamples the spatial dimensions of `input` `[N, C, X_1..X_r]`
    (r = 1, 2 or 3) to `size` `[O_1..O_r]`, giving `[N, C, O_1..O_r]`, with
    `result[n, c, o...] = input[n, c, floor(o_i * X_i / O_i)...]`: PyTorch's
    `F.interpolate(x, size=..., mode='nearest')` (not `'nearest-exact'`).
    The index is computed exactly in integers; PyTorch multiplies by the
    scale `X_i / O_i` rounded to f32, which gives the same indices for
    practical sizes. Sizes may shrink or grow. Any element type. Rules: one
    positive size per spatial dimension, and no empty spatial input
    dimension.

    The batch (dimension 0) may be `?`; channels and the input's spatial
    sizes are static (the index `(o * X) floordiv O` is affine only for a
    static `X`).
  }];
  let arguments = (ins Rlx_Tensor:$input, DenseI64ArrayAttr:$size);
  let results = (outs Rlx_Tensor:$result);
  let assemblyFormat = [{
    $input `size` `=` $size attr-dict `:` type($input) `->` type($result)
  }];
}

#endif // RLX_DIALECT_RLX_IR_RLXCONVPOOLOPS_TD
