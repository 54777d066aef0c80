//===- RlxRandomOps.td - counter-based random numbers ------*- tablegen -*-===//
//
// Random numbers from Philox4x32-10 (Salmon et al., "Parallel random
// numbers: as easy as 1, 2, 3", SC'11), a counter-based generator: element
// `i` of a result is a pure function of (seed, offset, i), so the numbers are
// the same on every target, at any thread count and under any tiling, and
// every op here is Pure. The stream, shared by all four ops:
//
//   block b = i / 4, lane l = i % 4 (i the row-major linear index)
//   counter = (lo32(b), hi32(b), lo32(offset), hi32(offset))
//   key     = (lo32(seed), hi32(seed))
//   word_i  = Philox4x32-10(counter, key)[l]
//
// A training loop passes its step as the offset (or a count of the numbers
// it has drawn) to get fresh numbers from one seed.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_RLX_IR_RLXRANDOMOPS_TD
#define RLX_DIALECT_RLX_IR_RLXRANDOMOPS_TD

include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "rlx/Dialect/Rlx/IR/RlxDialect.td"
include "rlx/Dialect/Rlx/IR/RlxInterfaces.td"

// The seed and the offset: i64 scalars (written without their type).
def Rlx_RandomKey : 0DTensorOf<[I64]> {
  let builderCall = "::mlir::RankedTensorType::get({}, $_builder.getI64Type())";
}

// A generator of a static shape. `element` is the body of `buildElement`,
// which returns element `index` (an i64) of the result from the stream of
// `seed` and `offset` (i64 scalars), written with `rlx::random` helpers.
class Rlx_RandomOp<string mnemonic, Type resultType, code element>
    : Rlx_Op<mnemonic, [Pure]> {
  let results = (outs resultType:$result);
  let extraClassDeclaration = [{
    /// Element `index` of the result (the op's scalar formula).
    ::mlir::Value buildElement(::mlir::OpBuilder &b, ::mlir::Location loc,
                               ::mlir::Value index, ::mlir::Value seed,
                               ::mlir::Value offset);
  }];
  let extraClassDefinition = [{
    ::mlir::Value $cppClass::buildElement(::mlir::OpBuilder &b,
                                          ::mlir::Location loc,
                                          ::mlir::Value index,
                                          ::mlir::Value seed,
                                          ::mlir::Value offset) {
      ::mlir::Type element = getType().getElementType();
      (void)element;
  }] # element # [{
    }
  }];
}

def Rlx_RngBitsOp : Rlx_RandomOp<"rng_bits", RankedTensorOf<[I32]>, [{
      return ::mlir::rlx::random::buildWord(b, loc, index, seed, offset);
  }]> {
  let summary = "raw 32-bit words of the Philox4x32-10 stream";
  let description = [{
    `result[i]` is `word_i` of the stream of `seed` at `offset` (see the
    file's header), as the bits of an i32: the generator itself, for random
    integers and for known-answer tests. The result has a static shape.

    ```mlir
    %bits = rlx.rng_bits %seed, %offset : tensor<4x1024xi32>
    ```
  }];
  let arguments = (ins Rlx_RandomKey:$seed, Rlx_RandomKey:$offset);
  let assemblyFormat = "$seed `,` $offset attr-dict `:` type($result)";
}

def Rlx_RngUniformOp : Rlx_RandomOp<"rng_uniform", Rlx_FloatTensor, [{
      ::mlir::Value word =
          ::mlir::rlx::random::buildWord(b, loc, index, seed, offset);
      return ::mlir::rlx::random::buildUniform(
          b, loc, word, element, getLow().convertToDouble(),
          getHigh().convertToDouble());
  }]> {
  let summary = "uniform random numbers in [low, high)";
  let description = [{
    `result[i] = low + (high - low) * u_i`, where `u_i` is the top `m` bits
    of `word_i` times `2^-m`, `m` the element type's significand width (24
    for f32, 11 for f16, 8 for bf16) or 32 for f64: every `u_i` is exact in
    the element type and lies in [0, 1). The result has a static shape.

    ```mlir
    %u = rlx.rng_uniform %seed, %offset low = -1.0 high = 1.0 : tensor<64xf32>
    ```
  }];
  let arguments = (ins Rlx_RandomKey:$seed, Rlx_RandomKey:$offset,
                   DefaultValuedAttr<F64Attr, "0.0">:$low,
                   DefaultValuedAttr<F64Attr, "1.0">:$high);
  let assemblyFormat = [{
    $seed `,` $offset (`low` `=` $low^)? (`high` `=` $high^)? attr-dict `:`
    type($result)
  }];
  let hasVerifier = 1;
}

def Rlx_RngNormalOp : Rlx_RandomOp<"rng_normal", Rlx_FloatTensor, [{
      return ::mlir::rlx::random::buildNormal(
          b, loc, index, seed, offset, element, getMean().convertToDouble(),
          getStd().convertToDouble());
  }]> {
  let summary = "normally distributed random numbers";
  let description = [{
    `result[i] = mean + std * z_i` by the Box-Muller transform of the two
    words of lane pair `l / 2` of element `i`'s block: with
    `u = (top 24 bits of word_2p + 1) * 2^-24` in (0, 1] and
    `v = (top 24 bits of word_2p+1) * 2^-24`, `z = sqrt(-2 ln u) * cos(2 pi v)`
    for even lanes and `* sin(2 pi v)` for odd ones; computed in f32 (f64 for
    an f64 result). The result has a static shape.

    ```mlir
    %z = rlx.rng_normal %seed, %offset std = 0.02 : tensor<768x768xf32>
    ```
  }];
  let arguments = (ins Rlx_RandomKey:$seed, Rlx_RandomKey:$offset,
                   DefaultValuedAttr<F64Attr, "0.0">:$mean,
                   DefaultValuedAttr<F64Attr, "1.0">:$std);
  let assemblyFormat = [{
    $seed `,` $offset (`mean` `=` $mean^)? (`std` `=` $std^)? attr-dict `:`
    type($result)
  }];
  let hasVerifier = 1;
}

def Rlx_DropoutOp : Rlx_Op<"dropout", [Pure,
    AllTypesMatch<["input", "result"]>, Rlx_SymbolicShapeOpInterface]> {
  let summary = "inverted dropout with a counter-based mask";
  let description = [{
    `result[i] = input[i] / (1 - p)` where the stream of `seed` at `offset`
    keeps element `i`, else `0`: element `i` is kept when the top 24 bits of
    `word_i` are at least `round(p * 2^24)`, i.e. when `rlx.rng_uniform` of
    the same seed, offset and shape (f32) is `>= p`. `p` in [0, 1); sizes
    may be `?`. Its gradient is the dropout of the result's gradient with
    the same seed and offset: the same mask, the same scale (as
    torch.nn.functional.dropout in training mode, with rlx's generator).

    ```mlir
    %y = rlx.dropout %x, %seed, %step p = 0.1 : tensor<?x768xf32>
    ```
  }];
  let arguments = (ins Rlx_FloatTensor:$input, Rlx_RandomKey:$seed,
                   Rlx_RandomKey:$offset, F64Attr:$p);
  let results = (outs Rlx_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $seed `,` $offset `p` `=` $p attr-dict `:` type($input)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Element `index` of the result given the input element `x`.
    ::mlir::Value buildElement(::mlir::OpBuilder &b, ::mlir::Location loc,
                               ::mlir::Value index, ::mlir::Value seed,
                               ::mlir::Value offset, ::mlir::Value x);
  }];
}

#endif // RLX_DIALECT_RLX_IR_RLXRANDOMOPS_TD
