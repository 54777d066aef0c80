//===- RlxQuantMatmulOps.td - Quantized contractions -------*- tablegen -*-===//
//
// Included by RlxOps.td after RlxQuantOps.td. Contractions on quantized
// operands:
//
//   rlx.qmatmul         i8 x i8 -> i32 (MatMulInteger), or requantized to
//                       i8 (torch.ops.quantized.linear / QLinearMatMul)
//   rlx.qconv           the same for a 2-D convolution (ConvInteger /
//                       QLinearConv / torch's quantized conv2d)
//   rlx.dequant_matmul  floats x block-quantized weights (int8 and int4
//                       groups, GGUF Q8_0 and Q4_0), dequantized inside the
//                       contraction
//   rlx.dequant_weight  such a weight dequantized to f32 (for the gradient)
//   rlx.scaled_matmul   FP8 x FP8 with per-tensor scales, f32 accumulation
//   rlx.fp8_from_bits   i8 bytes reinterpreted as FP8 (the route by which
//                       FP8 values enter a graph: the runtime has no FP8)
//
//===----------------------------------------------------------------------===//
#ifndef RLX_DIALECT_RLX_IR_RLXQUANTMATMULOPS_TD
#define RLX_DIALECT_RLX_IR_RLXQUANTMATMULOPS_TD

include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "rlx/Dialect/Rlx/IR/RlxDialect.td"
include "rlx/Dialect/Rlx/IR/RlxInterfaces.td"

// i32 tensors: zero points and integer accumulators.
def Rlx_I32Tensor : RankedTensorOf<[I32]>;
// FP8 values, accepted by rlx.scaled_matmul (and produced by
// rlx.fp8_from_bits) only: the rest of rlx has no FP8 arithmetic.
def Rlx_Fp8 : AnyTypeOf<[F8E4M3FN, F8E5M2], "FP8 (f8E4M3FN or f8E5M2)">;
def Rlx_Fp8Tensor : RankedTensorOf<[Rlx_Fp8]>;

//===----------------------------------------------------------------------===//
// qmatmul
//===----------------------------------------------------------------------===//

def Rlx_QMatmulOp : Rlx_Op<"qmatmul", [Pure, InferTypeOpAdaptor,
    Rlx_ShapeRule, AttrSizedOperandSegments]> {
  let summary = "i8 x i8 matmul accumulated in i32, optionally requantized to i8";
  let description = [{
    `lhs` `[..., M, K]` (any batch dimensions, `?` sizes allowed) times
    `rhs` `[K, N]`, both i8 storage (with `lhs_unsigned` / `rhs_unsigned`
    the bits of a u8, as `rlx.quantize`'s `unsigned`), with i32 zero points:
    `lhs_zero_point` rank 0, `rhs_zero_point` rank 0 or `[N]` (one per
    output column). The accumulator is exact integer arithmetic in i32:

        acc[..., m, n] = sum_k (lhs[..., m, k] - lhs_zp) * (rhs[k, n] - rhs_zp[n])

    (wrapping modulo 2^32 on overflow, which needs K > 2^15 at 8 bits).
    Without the `requantize` group the result is `acc` (i32): ONNX
    MatMulInteger. With it - `lhs_scale` (rank 0), `rhs_scale` (rank 0 or
    `[N]`), `output_scale` (rank 0), each f32 or f64, and
    `output_zero_point` (i32, rank 0) - the result is i8
    (`output_unsigned`: u8 bits):

        multiplier[n] = f32(lhs_scale * rhs_scale[n] / output_scale)   (in f64)
        result = saturate(round_half_to_even(f32(acc) * multiplier[n])
                          + output_zero_point)                          (in f32)

    the multiplier computed in f64 and rounded once to f32, the product in
    f32. This is torch.ops.quantized.linear's requantization (PyTorch
    1.13, no bias; its scales are doubles: pass them as f64 to get its
    result bit for bit, as the e2e test checks with the onednn and qnnpack
    engines - quint8 activations and output, qint8 weights, per tensor or
    per output channel). ONNX QLinearMatMul is the same formula with f32
    scales up to the multiplier's rounding. `saturate` clamps to
    [-128, 127], or [0, 255] with `output_unsigned`; an |f32 product|
    beyond 2^40 saturates. Not differentiable (integer operands).

    ```mlir
    %acc = rlx.qmatmul %a, %b, %azp, %bzp lhs_unsigned
        : (tensor<?x64xi8>, tensor<64x32xi8>, tensor<i32>, tensor<i32>)
        -> tensor<?x32xi32>
    %y = rlx.qmatmul %a, %b, %azp, %bzp
        requantize %as, %bs, %os, %ozp lhs_unsigned output_unsigned
        : (tensor<?x64xi8>, tensor<64x32xi8>, tensor<i32>, tensor<32xi32>,
           tensor<f32>, tensor<32xf32>, tensor<f32>, tensor<i32>)
        -> tensor<?x32xi8>
    ```
  }];
  let arguments = (ins Rlx_QuantizedTensor:$lhs, Rlx_QuantizedTensor:$rhs,
                       Rlx_I32Tensor:$lhs_zero_point,
                       Rlx_I32Tensor:$rhs_zero_point,
                       Optional<RankedTensorOf<[F32, F64]>>:$lhs_scale,
                       Optional<RankedTensorOf<[F32, F64]>>:$rhs_scale,
                       Optional<RankedTensorOf<[F32, F64]>>:$output_scale,
                       Optional<Rlx_I32Tensor>:$output_zero_point,
                       UnitAttr:$lhs_unsigned, UnitAttr:$rhs_unsigned,
                       UnitAttr:$output_unsigned);
  let results = (outs RankedTensorOf<[I8, I32]>:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $lhs_zero_point `,` $rhs_zero_point
    (`requantize` $lhs_scale^ `,` $rhs_scale `,` $output_scale `,`
     $output_zero_point)?
    (`lhs_unsigned` $lhs_unsigned^)? (`rhs_unsigned` $rhs_unsigned^)?
    (`output_unsigned` $output_unsigned^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Whether the result is requantized to i8 (the four epilogue operands
    /// are present).
    bool isRequantized() { return getLhsScale() != nullptr; }
  }];
}

def Rlx_QConvOp : Rlx_Op<"qconv", [Pure, InferTypeOpAdaptor,
    Rlx_ShapeRule, AttrSizedOperandSegments]> {
  let summary = "2-D i8 convolution accumulated in i32, optionally requantized";
  let description = [{
    `rlx.conv` (2-D, NCHW input `[N, C_in, H, W]`, weight
    `[C_out, C_in / groups, KH, KW]`, `stride`, `padding` `[top, bottom,
    left, right]`, `dilation`, `groups`: the same shape rule, `?` batch and
    spatial sizes allowed) of i8 storage operands (`input_unsigned` /
    `weight_unsigned`: u8 bits) with zero points subtracted:

        acc[n, o, y, x] = sum_{c, i, j} (input[n, g C + c, ...] - input_zp)
                                        * (weight[o, c, i, j] - weight_zp[o])

    in i32, where padding positions contribute 0 (the input is padded with
    its zero point, as PyTorch's quantized conv and ONNX QLinearConv do).
    `input_zero_point` is rank 0, `weight_zero_point` rank 0 or `[C_out]`.
    Without `requantize` the result is `acc` (i32, ONNX ConvInteger); with
    it (`input_scale`, `weight_scale` rank 0 or `[C_out]`, `output_scale`,
    f32 or f64, and `output_zero_point`) the result is i8, requantized per
    output channel exactly as `rlx.qmatmul` states:
    `saturate(round_half_to_even(f32(acc) * f32(input_scale *
    weight_scale[o] / output_scale)) + output_zero_point)`: torch's
    quantized conv2d (no bias). Not differentiable.

    ```mlir
    %y = rlx.qconv %x, %w, %xz, %wz requantize %xs, %ws, %ys, %yz
        stride = [1, 1] padding = [1, 1, 1, 1] dilation = [1, 1] groups = 1
        input_unsigned output_unsigned
        : (tensor<?x16x32x32xi8>, tensor<32x16x3x3xi8>, tensor<i32>,
           tensor<32xi32>, tensor<f64>, tensor<32xf64>, tensor<f64>,
           tensor<i32>) -> tensor<?x32x32x32xi8>
    ```
  }];
  let arguments = (ins Rlx_QuantizedTensor:$input, Rlx_QuantizedTensor:$weight,
                       Rlx_I32Tensor:$input_zero_point,
                       Rlx_I32Tensor:$weight_zero_point,
                       Optional<RankedTensorOf<[F32, F64]>>:$input_scale,
                       Optional<RankedTensorOf<[F32, F64]>>:$weight_scale,
                       Optional<RankedTensorOf<[F32, F64]>>:$output_scale,
                       Optional<Rlx_I32Tensor>:$output_zero_point,
                       DenseI64ArrayAttr:$stride, DenseI64ArrayAttr:$padding,
                       DenseI64ArrayAttr:$dilation, Rlx_I64Attr:$groups,
                       UnitAttr:$input_unsigned, UnitAttr:$weight_unsigned,
                       UnitAttr:$output_unsigned);
  let results = (outs RankedTensorOf<[I8, I32]>:$result);
  let assemblyFormat = [{
    $input `,` $weight `,` $input_zero_point `,` $weight_zero_point
    (`requantize` $input_scale^ `,` $weight_scale `,` $output_scale `,`
     $output_zero_point)?
    `stride` `=` $stride `padding` `=` $padding `dilation` `=` $dilation
    `groups` `=` $groups
    (`input_unsigned` $input_unsigned^)? (`weight_unsigned` $weight_unsigned^)?
    (`output_unsigned` $output_unsigned^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Whether the result is requantized to i8.
    bool isRequantized() { return getInputScale() != nullptr; }
  }];
}

//===----------------------------------------------------------------------===//
// dequant_matmul and dequant_weight
//===----------------------------------------------------------------------===//

defvar Rlx_BlockQuantDecl = [{
    /// Whether the scheme is a GGUF block layout (scales inside `weight`).
    bool isGguf() { return getScheme() == "q8_0" || getScheme() == "q4_0"; }
    /// The number of weight bytes per group of `getGroupSize()` values.
    int64_t getBytesPerGroup();
    /// K, the number of values per weight row.
    int64_t getReductionSize();
  }];

def Rlx_DequantMatmulOp : Rlx_Op<"dequant_matmul", [Pure, InferTypeOpAdaptor,
    Rlx_ShapeRule, AttrSizedOperandSegments]> {
  let summary = "a matmul with block-quantized weights, dequantized in the loop";
  let description = [{
    `result[..., m, n] = sum_k input[..., m, k] * W[n, k]` for `input`
    `[..., M, K]` (f16, bf16 or f32; any batch dimensions, `?` sizes
    allowed but K static) and a weight W of N rows of K values (`[N, K]`,
    torch.nn.Linear's and GGUF's orientation: `x @ W^T`) stored quantized
    in `weight`, raw bytes (i8) whose layout `scheme` gives. The lowering
    is one linalg.generic whose body reads a weight byte (and its group's
    scale and zero point) and dequantizes it next to the multiply-add, so
    tiling keeps the dequantization inside each tile and no float weight
    tensor exists. W's values are dequantized in f32 (exactly for the GGUF
    schemes and f16 scales); products accumulate in f32 (f64 for f64) and
    round once to the input's type.

    Schemes (G = `group_size`, one of 32, 64, 128, dividing K; byte offsets
    along a row of `weight`):

    - `"int8"`: `weight` `[N, K]`, one i8 `q` per value; `scales` `[N, K/G]`
      (f16 or f32); `W[n, k] = (q[n, k] - z) * scales[n, k / G]`, with
      `z = zero_points[n, k / G]` (i8 `[N, K/G]`) or 0 without zero points.
    - `"int4"`: `weight` `[N, K/2]`, two values per byte: byte `j` holds
      `k = 2j` in its low nibble (bits 0-3) and `k = 2j + 1` in its high
      nibble (bits 4-7), each an unsigned `u` in [0, 15]; `scales` as for
      int8; `W[n, k] = (u - z) * scales[n, k / G]` with `z` from
      `zero_points` (i8 `[N, K/G]`, values in [0, 15]) or 8 without zero
      points (symmetric int4: `u - 8` in [-8, 7]).
    - `"q8_0"` (GGUF/llama.cpp block_q8_0; G = 32, no `scales` or
      `zero_points` operand): `weight` `[N, 34 * K/32]`, block `b` of a row
      at bytes `34b .. 34b + 33`: bytes `34b`, `34b + 1` are the f16 scale
      `d` (little endian), bytes `34b + 2 + i` are `qs[i]` (i8);
      `W[n, 32b + i] = qs[i] * d`.
    - `"q4_0"` (GGUF/llama.cpp block_q4_0; G = 32): `weight`
      `[N, 18 * K/32]`, block `b` at bytes `18b .. 18b + 17`: bytes `18b`,
      `18b + 1` are the f16 scale `d` (little endian), byte `18b + 2 + j`
      (j in [0, 16)) holds element `32b + j` in its low nibble and element
      `32b + j + 16` in its high nibble; `W[n, k] = (nibble - 8) * d`.

    Differentiable with respect to `input` only:
    `dinput = dresult @ W`: the backward materializes W once, with
    `rlx.dequant_weight`, and casts it to the input's type.

    ```mlir
    %y = rlx.dequant_matmul %x, %w, %scales scheme = "int4" group_size = 64
        : (tensor<?x4096xf16>, tensor<4096x2048xi8>, tensor<4096x64xf16>)
        -> tensor<?x4096xf16>
    %z = rlx.dequant_matmul %x, %q scheme = "q4_0"
        : (tensor<?x4096xf32>, tensor<11008x2304xi8>) -> tensor<?x11008xf32>
    ```
  }];
  let arguments = (ins Rlx_FloatTensor:$input, Rlx_QuantizedTensor:$weight,
                       Optional<RankedTensorOf<[F16, F32]>>:$scales,
                       Optional<Rlx_QuantizedTensor>:$zero_points,
                       StrAttr:$scheme,
                       DefaultValuedAttr<Rlx_I64Attr, "32">:$group_size);
  let results = (outs Rlx_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $weight (`,` $scales^)? (`zero_points` $zero_points^)?
    `scheme` `=` $scheme (`group_size` `=` $group_size^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = Rlx_BlockQuantDecl;
}

def Rlx_DequantWeightOp : Rlx_Op<"dequant_weight", [Pure, InferTypeOpAdaptor,
    Rlx_ShapeRule, AttrSizedOperandSegments]> {
  let summary = "a block-quantized weight dequantized to f32 [..., N, K]";
  let description = [{
    The f32 weight `W` `[N, K]` that `rlx.dequant_matmul` with the same
    `weight`, `scales`, `zero_points`, `scheme` and `group_size` multiplies
    by (its description states the layouts): `rlx.dequant_matmul` equals
    `rlx.matmul(input, transpose(W))` up to the order of the sums. A stack
    of such weights (`weight` `[..., N, bytes]`, `scales` and `zero_points`
    `[..., N, K / group_size]`, as `rlx.dequant_grouped_matmul`'s experts)
    gives `[..., N, K]`. The gradients of `rlx.dequant_matmul` and
    `rlx.dequant_grouped_matmul` materialize W with it (`dinput =
    dresult @ W`); forward code should use those ops, which never
    materialize W.

    ```mlir
    %w = rlx.dequant_weight %q scheme = "q4_0"
        : (tensor<4096x2304xi8>) -> tensor<4096x4096xf32>
    ```
  }];
  let arguments = (ins Rlx_QuantizedTensor:$weight,
                       Optional<RankedTensorOf<[F16, F32]>>:$scales,
                       Optional<Rlx_QuantizedTensor>:$zero_points,
                       StrAttr:$scheme,
                       DefaultValuedAttr<Rlx_I64Attr, "32">:$group_size);
  let results = (outs RankedTensorOf<[F32]>:$result);
  let assemblyFormat = [{
    $weight (`,` $scales^)? (`zero_points` $zero_points^)?
    `scheme` `=` $scheme (`group_size` `=` $group_size^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = Rlx_BlockQuantDecl;
}

//===----------------------------------------------------------------------===//
// scaled_matmul and FP8 values
//===----------------------------------------------------------------------===//

def Rlx_ScaledMatmulOp : Rlx_Op<"scaled_matmul", [Pure, InferTypeOpAdaptor,
    Rlx_ShapeRule]> {
  let summary = "FP8 x FP8 matmul with per-tensor scales, accumulated in f32";
  let description = [{
    `result = f32(f32(acc * lhs_scale) * rhs_scale)` with
    `acc = sum_k f32(lhs[..., m, k]) * f32(rhs[k, n])` accumulated in f32,
    for `lhs` `[..., M, K]` and `rhs` `[K, N]` of FP8 types (f8E4M3FN or
    f8E5M2, independently; `?` sizes allowed) and rank-0 f32 scales: the
    scaled-matmul formula of torch._scaled_mm / cuBLASLt with f32 output.
    Every FP8 value converts to f32 exactly, and each product of two is
    exact in f32 (at most 8 significant bits), so on the CPU the only
    roundings are the f32 sums and the two scalings. f8E4M3FN's NaN
    (S.1111.111) is NaN. Differentiable with respect to neither FP8 operand
    through rlx's autodiff (FP8 tensors have no gradient type); a model
    differentiates its f32 master values instead.

    ```mlir
    %y = rlx.scaled_matmul %a, %b, %sa, %sb
        : (tensor<?x64xf8E4M3FN>, tensor<64x32xf8E5M2>, tensor<f32>,
           tensor<f32>) -> tensor<?x32xf32>
    ```
  }];
  let arguments = (ins Rlx_Fp8Tensor:$lhs, Rlx_Fp8Tensor:$rhs,
                       RankedTensorOf<[F32]>:$lhs_scale,
                       RankedTensorOf<[F32]>:$rhs_scale);
  let results = (outs RankedTensorOf<[F32]>:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $lhs_scale `,` $rhs_scale attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Rlx_Fp8FromBitsOp : Rlx_Op<"fp8_from_bits", [Pure, InferTypeOpAdaptor,
    Rlx_ShapeRule]> {
  let summary = "i8 bytes reinterpreted as FP8 values";
  let description = [{
    The FP8 tensor (`format` "e4m3fn": f8E4M3FN, "e5m2": f8E5M2) whose
    elements have the bits of `input`'s: how FP8 data (which the runtime
    passes as i8 bytes) enters a graph for `rlx.scaled_matmul`.

    ```mlir
    %a = rlx.fp8_from_bits %bytes format = "e4m3fn"
        : (tensor<?x64xi8>) -> tensor<?x64xf8E4M3FN>
    ```
  }];
  let arguments = (ins Rlx_QuantizedTensor:$input,
                       StrAttr:$format);
  let results = (outs Rlx_Fp8Tensor:$result);
  let assemblyFormat = [{
    $input `format` `=` $format attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

#endif // RLX_DIALECT_RLX_IR_RLXQUANTMATMULOPS_TD
