//===- RlxQuantOps.td - Affine quantization ----------------*- tablegen -*-===//
//
// Included by RlxOps.td. Affine (scale and zero point) quantization as
// PyTorch 1.13 defines it, per tensor or per channel along one axis:
//
//   q = saturate(round_half_to_even(x * (1 / scale)) + zero_point)
//   x' = (q - zero_point) * scale
//
// `1 / scale` is computed first and the product rounded, as PyTorch's CPU
// kernels (FBGEMM's Quantize) do, in f32 (f64 for f64 inputs); ONNX's
// QuantizeLinear divides, which differs from it at inputs within an ulp of
// a rounding tie. Adding the zero point after rounding (not before) matters
// at ties for an odd zero point.
//
// The quantization parameters are `scale` and `zero_point`: rank 0 for one
// pair per tensor, or rank 1 of the size of dimension `axis` (in
// [-rank, rank)) for one pair per slice along it, as torch's
// quantize_per_channel. `axis` is present exactly when they have rank 1.
//
// The integer arithmetic is exact for every input: the rounded value
// saturates before the zero point is added, so no overflow or poison
// conversion exists, and ±inf saturate. A NaN input quantizes as 0 does
// (PyTorch's result is undefined there).
//
//===----------------------------------------------------------------------===//
#ifndef RLX_DIALECT_RLX_IR_RLXQUANTOPS_TD
#define RLX_DIALECT_RLX_IR_RLXQUANTOPS_TD

include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "rlx/Dialect/Rlx/IR/RlxDialect.td"
include "rlx/Dialect/Rlx/IR/RlxInterfaces.td"

// Quantized values: i8, holding an i8 or (with `unsigned`) the bits of a u8.
def Rlx_QuantizedTensor : RankedTensorOf<[I8]>;
// Integer zero points (quantize, dequantize, fake_quantize): i32, the
// number itself whatever the storage's signedness.
def Rlx_ZeroPointTensor : RankedTensorOf<[I32]>;

// The channel axis of a verified op, normalized.
defvar Rlx_QuantAxisDecl = [{
    /// The channel axis in [0, rank), or nothing for per-tensor parameters.
    /// Valid on a verified op.
    std::optional<int64_t> getChannelAxis() {
      std::optional<int64_t> axis = getAxis();
      if (!axis)
        return std::nullopt;
      int64_t rank = ::llvm::cast<::mlir::RankedTensorType>(
          getInput().getType()).getRank();
      return *axis < 0 ? *axis + rank : *axis;
    }
  }];

// The formula of an op that is one elementwise loop: `buildElement`.
defvar Rlx_QuantElementDecl = [{
    /// The result element from `operands`, one stored scalar per operand:
    /// the elements of the tensor operands at one position and the scale
    /// and zero point of its slice (or of the tensor). The op's formula,
    /// which its lowering places in a linalg.generic.
    ::mlir::Value buildElement(::mlir::rlx::ScalarBuilder &b,
                               ::mlir::ValueRange operands);
  }];

// An op on an input quantized with `scale` and `zero_point` (per tensor, or
// per channel along `axis`); its shape rule checks the parameters against
// the input.
class Rlx_QuantOp<string mnemonic, list<Trait> traits = []>
    : Rlx_Op<mnemonic, traits # [Pure, InferTypeOpAdaptor, Rlx_ShapeRule]> {
  let extraClassDeclaration =
      !strconcat(Rlx_QuantAxisDecl, Rlx_QuantElementDecl);
}

// The signedness of the storage: the unit attribute `is_unsigned`, written
// `unsigned` (C++ cannot name an accessor parameter `unsigned`).
defvar Rlx_QuantSignednessDoc = [{

    The storage is i8: without `unsigned` (the unit attribute
    `is_unsigned`) it holds a signed value in [-128, 127] and the zero
    point should lie there; with `unsigned` the i8
    holds the bit pattern of a u8 in [0, 255] (rlx has signless integers
    only: `rlx.cast` would read it as signed) and the zero point should lie
    in [0, 255], as torch.quint8 and ONNX's uint8. A zero point outside the
    storage range is not an error: the formula applies as written.
  }];

//===----------------------------------------------------------------------===//
// Quantize and dequantize
//===----------------------------------------------------------------------===//

def Rlx_QuantizeOp : Rlx_QuantOp<"quantize"> {
  let summary = "affine quantization of floats to i8 or u8 (round half to even)";
  let description = !strconcat([{
    `result = saturate(round_half_to_even(input * (1 / scale)) + zero_point)`
    for every element, with the scale and zero point of its slice along
    `axis` (per channel) or of the tensor: torch.quantize_per_tensor and
    torch.quantize_per_channel bit for bit, computed in f32 (f64 for an f64
    input; an f16/bf16 input is extended exactly, and a scale is rounded to
    the computation type as PyTorch rounds its double scales to float).
    `saturate` clamps to [-128, 127], or [0, 255] with `unsigned`. `scale`
    is any float type and should be positive (0 gives ±inf, which
    saturates); `zero_point` is i32.
  }], Rlx_QuantSignednessDoc, [{

    ```mlir
    %q = rlx.quantize %x, %scale, %zp axis = 0 unsigned
        : (tensor<64x?xf32>, tensor<64xf32>, tensor<64xi32>) -> tensor<64x?xi8>
    ```
  }]);
  let arguments = (ins Rlx_FloatTensor:$input, Rlx_FloatTensor:$scale,
                       Rlx_ZeroPointTensor:$zero_point,
                       OptionalAttr<Rlx_I64Attr>:$axis, UnitAttr:$is_unsigned);
  let results = (outs Rlx_QuantizedTensor:$result);
  let assemblyFormat = [{
    $input `,` $scale `,` $zero_point (`axis` `=` $axis^)?
    (`unsigned` $is_unsigned^)? attr-dict `:` functional-type(operands, results)
  }];
}

def Rlx_DequantizeOp : Rlx_QuantOp<"dequantize"> {
  let summary = "affine dequantization of i8 or u8 to floats";
  let description = !strconcat([{
    `result = (input - zero_point) * scale` for every element, with the
    scale and zero point of its slice along `axis` (per channel) or of the
    tensor. The result has the input's shape and the scale's element type
    (f16, bf16, f32 or f64). The difference is exact and the product is
    rounded once: the float nearest to the exact value, as
    torch.Tensor.dequantize gives for an f32 scale (PyTorch's per-channel
    path multiplies in f64: an f64 scale here, cast to f32, is the same).
  }], Rlx_QuantSignednessDoc, [{

    ```mlir
    %x = rlx.dequantize %q, %scale, %zp
        : (tensor<?x768xi8>, tensor<f32>, tensor<i32>) -> tensor<?x768xf32>
    ```
  }]);
  let arguments = (ins Rlx_QuantizedTensor:$input, Rlx_FloatTensor:$scale,
                       Rlx_ZeroPointTensor:$zero_point,
                       OptionalAttr<Rlx_I64Attr>:$axis, UnitAttr:$is_unsigned);
  let results = (outs Rlx_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $scale `,` $zero_point (`axis` `=` $axis^)?
    (`unsigned` $is_unsigned^)? attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Fake quantization (quantization-aware training)
//===----------------------------------------------------------------------===//

defvar Rlx_FakeQuantDoc = [{

    With `q = round_half_to_even(x * (1 / scale)) + zero_point` (as
    `rlx.quantize` computes it), the result is
    `(clamp(q, quant_min, quant_max) - zero_point) * scale`, rounded once
    to the input's type. `quant_min <= quant_max` lie in the i32 range:
    [-128, 127] is 8-bit signed, [0, 255] unsigned, [-8, 7] 4-bit, [0, 127]
    PyTorch's reduce_range. Computed in f32 for f16/bf16 inputs (f64 for
    f64); `(q - zero_point) * scale` is exact before its one rounding while
    `|q - zero_point| < 2^24`, which every zero point in the range ensures
    for ranges of up to 23 bits. Sizes may be `?`.

    The gradient is the straight-through estimator with PyTorch's mask:
    the result's gradient passes to the input where `q` (before clamping)
    lies in [quant_min, quant_max], and is 0 elsewhere.
  }];

def Rlx_FakeQuantizeOp : Rlx_QuantOp<"fake_quantize",
    []> {
  let summary = "quantize and dequantize in one step, with an integer zero point";
  let description = !strconcat([{
    torch.fake_quantize_per_tensor_affine (rank-0 `scale` and
    `zero_point`) and torch.fake_quantize_per_channel_affine (rank 1 along
    `axis`), bit for bit for f32 and f16 inputs. `scale` is any float type
    (rounded to the computation type), `zero_point` is i32; neither
    receives a gradient.
  }], Rlx_FakeQuantDoc, [{

    ```mlir
    %y = rlx.fake_quantize %x, %scale, %zp quant_min = -128 quant_max = 127
        : (tensor<?x64xf32>, tensor<f32>, tensor<i32>) -> tensor<?x64xf32>
    ```
  }]);
  let arguments = (ins Rlx_FloatTensor:$input, Rlx_FloatTensor:$scale,
                       Rlx_ZeroPointTensor:$zero_point, Rlx_I64Attr:$quant_min,
                       Rlx_I64Attr:$quant_max,
                       OptionalAttr<Rlx_I64Attr>:$axis);
  let results = (outs Rlx_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $scale `,` $zero_point `quant_min` `=` $quant_min
    `quant_max` `=` $quant_max (`axis` `=` $axis^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

defvar Rlx_LsqDoc = [{

    The zero point is learned as a float and used as
    `clamp(round_half_to_even(zero_point), quant_min, quant_max)` in the
    forward and the backward alike. (PyTorch 1.13's per-channel op does
    this; its per-tensor backward instead truncates
    `clamp(zero_point + 0.5, quant_min, quant_max)`, which differs from its
    own forward for negative non-integer zero points and at ties.)
    `scale` and `zero_point` have the input's element type. `grad_factor`
    (default 1, finite) scales both parameter gradients: LSQ's
    `1 / sqrt(numel * quant_max)`.

    Gradients (Esser et al., "Learned Step Size Quantization", 2019, as
    torch._fake_quantize_learnable_per_tensor_affine_backward computes
    them), per element, with `dy` the result's gradient and `z` the integer
    zero point:

    | where                 | dx   | dscale                                   | dzero_point            |
    |-----------------------|------|------------------------------------------|------------------------|
    | q < quant_min         | 0    | dy * (quant_min - z) * grad_factor       | -dy * scale * grad_factor |
    | q > quant_max         | 0    | dy * (quant_max - z) * grad_factor       | -dy * scale * grad_factor |
    | otherwise             | dy   | dy * (y - x) * (1 / scale) * grad_factor | 0                      |

    where `y` is the result; `dscale` and `dzero_point` are summed over the
    tensor (per tensor) or over every axis but `axis` (per channel), in the
    computation type, and rounded once.
  }];

def Rlx_FakeQuantizeLsqOp : Rlx_QuantOp<"fake_quantize_lsq",
    [AllElementTypesMatch<["input", "scale", "zero_point"]>]> {
  let summary = "fake quantization with a learned scale and zero point (LSQ)";
  let description = !strconcat([{
    torch._fake_quantize_learnable_per_tensor_affine (rank-0 `scale` and
    `zero_point`) and ..._per_channel_affine (rank 1 along `axis`): the
    forward is `rlx.fake_quantize`'s with the rounded zero point, and the
    input, the scale and the zero point all receive gradients
    (`rlx.fake_quantize_lsq_backward`).
  }], Rlx_FakeQuantDoc, Rlx_LsqDoc, [{

    ```mlir
    %y = rlx.fake_quantize_lsq %w, %scale, %zp quant_min = -8 quant_max = 7
        axis = 0 : (tensor<64x32xf32>, tensor<64xf32>, tensor<64xf32>)
        -> tensor<64x32xf32>
    ```
  }]);
  let arguments = (ins Rlx_FloatTensor:$input, Rlx_FloatTensor:$scale,
                       Rlx_FloatTensor:$zero_point, Rlx_I64Attr:$quant_min,
                       Rlx_I64Attr:$quant_max,
                       OptionalAttr<Rlx_I64Attr>:$axis,
                       DefaultValuedAttr<F64Attr, "1.0">:$grad_factor);
  let results = (outs Rlx_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $scale `,` $zero_point `quant_min` `=` $quant_min
    `quant_max` `=` $quant_max (`axis` `=` $axis^)?
    (`grad_factor` `=` $grad_factor^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Backward ops
//===----------------------------------------------------------------------===//

def Rlx_FakeQuantizeBackwardOp : Rlx_QuantOp<"fake_quantize_backward",
    [AllTypesMatch<["dy", "input"]>]> {
  let summary = "gradient of rlx.fake_quantize (straight-through estimator)";
  let description = [{
    `result = dy` where `round_half_to_even(input * (1 / scale)) +
    zero_point` lies in [quant_min, quant_max], else 0: the gradient of
    `rlx.fake_quantize`'s input given the gradient `dy` of its result, with
    the same operands and attributes. PyTorch's
    fake_quantize_per_tensor_affine_cachemask_backward.
  }];
  let arguments = (ins Rlx_FloatTensor:$dy, Rlx_FloatTensor:$input,
                       Rlx_FloatTensor:$scale, Rlx_ZeroPointTensor:$zero_point,
                       Rlx_I64Attr:$quant_min, Rlx_I64Attr:$quant_max,
                       OptionalAttr<Rlx_I64Attr>:$axis);
  let results = (outs Rlx_FloatTensor:$result);
  let assemblyFormat = [{
    $dy `,` $input `,` $scale `,` $zero_point `quant_min` `=` $quant_min
    `quant_max` `=` $quant_max (`axis` `=` $axis^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Rlx_FakeQuantizeLsqBackwardOp : Rlx_QuantOp<"fake_quantize_lsq_backward",
    [AllTypesMatch<["dy", "input"]>,
     AllElementTypesMatch<["input", "scale", "zero_point"]>]> {
  let summary = "gradients of rlx.fake_quantize_lsq";
  let description = !strconcat([{
    The gradients of `rlx.fake_quantize_lsq`'s input, scale and zero point
    given the gradient `dy` of its result, with the same operands and
    attributes.
  }], Rlx_LsqDoc, [{

    Lowered as one elementwise loop nest for `dx` and one reduction for
    `dscale` and `dzero_point`, which recomputes the per-element terms
    rather than storing them.
  }]);
  let arguments = (ins Rlx_FloatTensor:$dy, Rlx_FloatTensor:$input,
                       Rlx_FloatTensor:$scale, Rlx_FloatTensor:$zero_point,
                       Rlx_I64Attr:$quant_min, Rlx_I64Attr:$quant_max,
                       OptionalAttr<Rlx_I64Attr>:$axis,
                       DefaultValuedAttr<F64Attr, "1.0">:$grad_factor);
  let results = (outs Rlx_FloatTensor:$dx, Rlx_FloatTensor:$dscale,
                      Rlx_FloatTensor:$dzero_point);
  let assemblyFormat = [{
    $dy `,` $input `,` $scale `,` $zero_point `quant_min` `=` $quant_min
    `quant_max` `=` $quant_max (`axis` `=` $axis^)?
    (`grad_factor` `=` $grad_factor^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = Rlx_QuantAxisDecl # [{
    /// The gradient terms of one element from `operands`, one stored scalar
    /// per operand (as `buildElement` takes them): the input gradient and
    /// the element's contributions to the scale's and the zero point's
    /// gradients, in the computation type.
    ::llvm::SmallVector<::mlir::Value, 3>
    buildGradientTerms(::mlir::rlx::ScalarBuilder &b,
                       ::mlir::ValueRange operands);
  }];
}

#endif // RLX_DIALECT_RLX_IR_RLXQUANTOPS_TD
