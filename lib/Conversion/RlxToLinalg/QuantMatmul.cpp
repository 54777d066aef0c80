//===- QuantMatmul.cpp - rlx quantized contractions to linalg -------------===//
//
// qmatmul:        one contraction generic accumulating
//                 (lhs - zp) * (rhs - zp) in i32, then (requantized) one
//                 parallel generic for the epilogue.
// qconv:          the input and the weight minus their zero points (i32
//                 generics), padded with 0, one grouped convolution
//                 generic accumulating in i32, the same epilogue.
// dequant_matmul: one contraction generic whose body reads the weight's
//                 byte, its group's scale (and zero point) and dequantizes
//                 the value next to the multiply-add. K is split into the
//                 group loop and the loops within a group, and the input is
//                 expanded to match (a reshape), so every indexing map is a
//                 plain affine map of the loops (no floordiv or mod): the
//                 codegen layer tiles it as any contraction and the
//                 dequantization stays inside the tile.
// scaled_matmul:  one contraction generic that decodes both FP8 operands to
//                 f32 (bit arithmetic, exact) and accumulates in f32, then
//                 the scaling as a parallel generic.
// dequant_weight: one parallel generic with dequant_matmul's dequantization.
// fp8_from_bits:  a parallel generic of arith.bitcast.
//
//===----------------------------------------------------------------------===//

#include "BlockLayout.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "rlx/Conversion/RlxToLinalg/RlxToLinalg.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

using namespace mlir;
using namespace mlir::rlx;

/// An integer constant of type `type`.
static Value intConst(OpBuilder &b, Location loc, Type type, int64_t value) {
  return arith::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, value));
}

/// A float constant of type `type`.
static Value floatConst(OpBuilder &b, Location loc, Type type, double value) {
  return arith::ConstantOp::create(b, loc, type, b.getFloatAttr(type, value));
}

/// The i8 `byte` widened to `type`: zero- or sign-extended.
static Value widen(OpBuilder &b, Location loc, Value byte, Type type,
                   bool isUnsigned) {
  if (isUnsigned)
    return arith::ExtUIOp::create(b, loc, type, byte);
  return arith::ExtSIOp::create(b, loc, type, byte);
}

/// The f16 whose little-endian bytes are `lo`, `hi` (i8), extended to
/// `type` (exact).
static Value decodeF16(OpBuilder &b, Location loc, Value lo, Value hi,
                       Type type) {
  Type i16 = b.getI16Type();
  Value low = arith::ExtUIOp::create(b, loc, i16, lo);
  Value high =
      arith::ShLIOp::create(b, loc, arith::ExtUIOp::create(b, loc, i16, hi),
                            intConst(b, loc, i16, 8));
  Value bits = arith::OrIOp::create(b, loc, low, high);
  Value half = arith::BitcastOp::create(b, loc, b.getF16Type(), bits);
  return arith::ExtFOp::create(b, loc, type, half);
}

/// The FP8 scalar `value` (f8E4M3FN or f8E5M2) as an f32, exactly, by bit
/// arithmetic (no target has to support FP8 conversions).
static Value decodeFp8(OpBuilder &b, Location loc, Value value) {
  Type i8 = b.getI8Type(), i16 = b.getI16Type(), i32 = b.getI32Type();
  Type f32 = b.getF32Type();
  Value byte = arith::BitcastOp::create(b, loc, i8, value);
  if (isa<Float8E5M2Type>(value.getType())) {
    // e5m2 is the high byte of an f16.
    Value bits =
        arith::ShLIOp::create(b, loc, arith::ExtUIOp::create(b, loc, i16, byte),
                              intConst(b, loc, i16, 8));
    Value half = arith::BitcastOp::create(b, loc, b.getF16Type(), bits);
    return arith::ExtFOp::create(b, loc, f32, half);
  }
  // e4m3fn: s.eeee.mmm, bias 7, no infinities, S.1111.111 is NaN.
  Value bits = arith::ExtUIOp::create(b, loc, i32, byte);
  auto c = [&](int64_t v) { return intConst(b, loc, i32, v); };
  Value exponent = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, bits, c(3)), c(15));
  Value mantissa = arith::AndIOp::create(b, loc, bits, c(7));
  // Normal: 2^(e - 7) * (1 + m / 8) as f32 bits.
  Value normalBits = arith::OrIOp::create(
      b, loc,
      arith::ShLIOp::create(
          b, loc, arith::AddIOp::create(b, loc, exponent, c(120)), c(23)),
      arith::ShLIOp::create(b, loc, mantissa, c(20)));
  Value normal = arith::BitcastOp::create(b, loc, f32, normalBits);
  // Subnormal (and zero): m * 2^-9.
  Value subnormal = arith::MulFOp::create(
      b, loc, arith::UIToFPOp::create(b, loc, f32, mantissa),
      floatConst(b, loc, f32, 1.0 / 512.0));
  Value isSubnormal =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, exponent, c(0));
  Value magnitude =
      arith::SelectOp::create(b, loc, isSubnormal, subnormal, normal);
  Value isNan = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::AndIOp::create(b, loc, bits, c(0x7f)), c(0x7f));
  magnitude = arith::SelectOp::create(
      b, loc, isNan, floatConst(b, loc, f32, std::nan("")), magnitude);
  Value sign = arith::ShLIOp::create(
      b, loc, arith::AndIOp::create(b, loc, bits, c(0x80)), c(24));
  Value signedBits = arith::OrIOp::create(
      b, loc, arith::BitcastOp::create(b, loc, i32, magnitude), sign);
  return arith::BitcastOp::create(b, loc, f32, signedBits);
}

/// The map of a `numLoops`-loop generic to the result-shaped operand of a
/// product with `batchRank` batch loops: (batch..., m, n).
static AffineMap getOutputMap(MLIRContext *ctx, int64_t numLoops,
                              int64_t batchRank) {
  SmallVector<int64_t> dims = llvm::to_vector(llvm::seq<int64_t>(0, batchRank));
  dims.push_back(batchRank);
  dims.push_back(batchRank + 1);
  return getLoopsMap(ctx, numLoops, dims);
}

/// The map of the lhs [batch..., M, K] of a generic with loops
/// (batch..., m, n, k).
static AffineMap getLhsMap(MLIRContext *ctx, int64_t batchRank) {
  SmallVector<int64_t> dims = llvm::to_vector(llvm::seq<int64_t>(0, batchRank));
  dims.push_back(batchRank);
  dims.push_back(batchRank + 2);
  return getLoopsMap(ctx, batchRank + 3, dims);
}

/// A map to a parameter of rank 0, or (when `param` has rank 1) indexed by
/// the `n` loop.
static AffineMap getColumnParamMap(MLIRContext *ctx, int64_t numLoops,
                                   int64_t nLoop, Value param) {
  if (cast<RankedTensorType>(param.getType()).getRank() == 0)
    return AffineMap::get(numLoops, 0, ctx);
  return getLoopsMap(ctx, numLoops, {nLoop});
}

/// `count` iterator types: `parallel` ones then reductions to make `total`.
static SmallVector<utils::IteratorType> getIterators(int64_t parallel,
                                                     int64_t total) {
  SmallVector<utils::IteratorType> iterators(parallel,
                                             utils::IteratorType::parallel);
  iterators.append(total - parallel, utils::IteratorType::reduction);
  return iterators;
}

/// The requantize epilogue of qmatmul and qconv, as PyTorch's: the
/// multiplier in f64 rounded to f32, the product in f32, round half to
/// even, the zero point, saturate (in i64: exact for any zero point). The
/// weight's scale is rank 0 or indexed by the result's dimension
/// `channelDim`.
static Value createRequantize(OpBuilder &rewriter, Location loc, Value acc,
                              Value inputScale, Value weightScale,
                              Value outputScale, Value outputZeroPoint,
                              int64_t channelDim, bool outUnsigned,
                              ArrayRef<OpFoldResult> sizes,
                              RankedTensorType type) {
  MLIRContext *ctx = rewriter.getContext();
  int64_t rank = type.getRank();
  Type f32 = rewriter.getF32Type(), i64 = rewriter.getI64Type();
  AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
  AffineMap scalar = AffineMap::get(rank, 0, ctx);
  SmallVector<AffineMap> epilogueMaps = {
      identity, scalar, getColumnParamMap(ctx, rank, channelDim, weightScale),
      scalar,   scalar, identity};
  Value init = createEmptyTensor(rewriter, loc, sizes, type.getElementType());
  auto epilogue = linalg::GenericOp::create(
      rewriter, loc, type,
      ValueRange{acc, inputScale, weightScale, outputScale, outputZeroPoint},
      init, epilogueMaps,
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [&](OpBuilder &b, Location l, ValueRange args) {
        Type f64 = b.getF64Type();
        auto toF64 = [&](Value v) -> Value {
          return v.getType() == f64 ? v : arith::ExtFOp::create(b, l, f64, v);
        };
        Value product =
            arith::MulFOp::create(b, l, toF64(args[1]), toF64(args[2]));
        Value multiplier = arith::TruncFOp::create(
            b, l, f32, arith::DivFOp::create(b, l, product, toF64(args[3])));
        Value scaled = arith::MulFOp::create(
            b, l, arith::SIToFPOp::create(b, l, f32, args[0]), multiplier);
        Value rounded = math::RoundEvenOp::create(b, l, scaled);
        // |rounded| <= 2^40 keeps the conversion defined; NaN becomes
        // the lower bound (then the zero point, then saturation).
        Value bound = floatConst(b, l, f32, 1099511627776.0);
        Value negBound = floatConst(b, l, f32, -1099511627776.0);
        Value clamped = arith::MinNumFOp::create(
            b, l, arith::MaxNumFOp::create(b, l, rounded, negBound), bound);
        Value q = arith::AddIOp::create(
            b, l, arith::FPToSIOp::create(b, l, i64, clamped),
            arith::ExtSIOp::create(b, l, i64, args[4]));
        Value lo = intConst(b, l, i64, outUnsigned ? 0 : -128);
        Value hi = intConst(b, l, i64, outUnsigned ? 255 : 127);
        q = arith::MinSIOp::create(b, l, arith::MaxSIOp::create(b, l, q, lo),
                                   hi);
        Value byte = arith::TruncIOp::create(b, l, b.getI8Type(), q);
        linalg::YieldOp::create(b, l, byte);
      });
  return epilogue.getResult(0);
}

namespace {
//===----------------------------------------------------------------------===//
// qmatmul
//===----------------------------------------------------------------------===//

struct QMatmulToLinalg : OpConversionPattern<QMatmulOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(QMatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    RankedTensorType type = op.getType();
    int64_t batchRank = type.getRank() - 2;
    int64_t numLoops = batchRank + 3;
    Type i32 = rewriter.getI32Type();
    SmallVector<OpFoldResult> sizes = getResultSizes(rewriter, op);
    Value acc = createFilledTensor(rewriter, loc, sizes,
                                   intConst(rewriter, loc, i32, 0));
    SmallVector<AffineMap> maps = {
        getLhsMap(ctx, batchRank),
        getLoopsMap(ctx, numLoops, {batchRank + 2, batchRank + 1}),
        AffineMap::get(numLoops, 0, ctx),
        getColumnParamMap(ctx, numLoops, batchRank + 1,
                          adaptor.getRhsZeroPoint()),
        getOutputMap(ctx, numLoops, batchRank)};
    bool lhsUnsigned = op.getLhsUnsigned(), rhsUnsigned = op.getRhsUnsigned();
    auto product = linalg::GenericOp::create(
        rewriter, loc, acc.getType(),
        ValueRange{adaptor.getLhs(), adaptor.getRhs(),
                   adaptor.getLhsZeroPoint(), adaptor.getRhsZeroPoint()},
        acc, maps, getIterators(numLoops - 1, numLoops),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value a = arith::SubIOp::create(
              b, l, widen(b, l, args[0], i32, lhsUnsigned), args[2]);
          Value w = arith::SubIOp::create(
              b, l, widen(b, l, args[1], i32, rhsUnsigned), args[3]);
          Value sum = arith::AddIOp::create(b, l, args[4],
                                            arith::MulIOp::create(b, l, a, w));
          linalg::YieldOp::create(b, l, sum);
        });
    Value result = product.getResult(0);
    if (!op.isRequantized()) {
      rewriter.replaceOp(op, result);
      return success();
    }

    rewriter.replaceOp(
        op, createRequantize(rewriter, loc, result, adaptor.getLhsScale(),
                             adaptor.getRhsScale(), adaptor.getOutputScale(),
                             adaptor.getOutputZeroPoint(), type.getRank() - 1,
                             op.getOutputUnsigned(), sizes, type));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// qconv
//===----------------------------------------------------------------------===//

/// `value` (i8) widened to i32 minus `zeroPoint` (rank 0, or rank 1 along
/// dimension 0), as a parallel generic.
static Value subtractZeroPoint(OpBuilder &b, Location loc, Value value,
                               Value zeroPoint, bool isUnsigned) {
  auto type = cast<RankedTensorType>(value.getType());
  int64_t rank = type.getRank();
  MLIRContext *ctx = b.getContext();
  Type i32 = b.getI32Type();
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, value);
  Value init = createEmptyTensor(b, loc, sizes, i32);
  AffineMap identity = b.getMultiDimIdentityMap(rank);
  AffineMap zpMap = cast<RankedTensorType>(zeroPoint.getType()).getRank() == 0
                        ? AffineMap::get(rank, 0, ctx)
                        : getLoopsMap(ctx, rank, {0});
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), ValueRange{value, zeroPoint}, init,
      SmallVector<AffineMap>{identity, zpMap, identity},
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      [&](OpBuilder &nested, Location l, ValueRange args) {
        Value wide = widen(nested, l, args[0], i32, isUnsigned);
        Value diff = arith::SubIOp::create(nested, l, wide, args[1]);
        linalg::YieldOp::create(nested, l, diff);
      });
  return generic.getResult(0);
}

/// The input and the weight minus their zero points (i32; the input's
/// padding is then 0), convolved in i32 by one grouped generic, then
/// requantized.
struct QConvToLinalg : OpConversionPattern<QConvOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(QConvOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    Value input =
        subtractZeroPoint(rewriter, loc, adaptor.getInput(),
                          adaptor.getInputZeroPoint(), op.getInputUnsigned());
    Value weight =
        subtractZeroPoint(rewriter, loc, adaptor.getWeight(),
                          adaptor.getWeightZeroPoint(), op.getWeightUnsigned());
    // Pad with the shifted zero point, 0.
    auto [low, high] = splitPadding(op.getPadding());
    if (llvm::any_of(op.getPadding(), [](int64_t p) { return p != 0; })) {
      SmallVector<OpFoldResult> lows(2, rewriter.getIndexAttr(0)),
          highs(2, rewriter.getIndexAttr(0));
      for (auto [l, h] : llvm::zip(low, high)) {
        lows.push_back(rewriter.getIndexAttr(l));
        highs.push_back(rewriter.getIndexAttr(h));
      }
      input = tensor::PadOp::create(
          rewriter, loc, Type(), input, lows, highs,
          intConst(rewriter, loc, rewriter.getI32Type(), 0));
    }
    // The grouped convolution in i32 as one generic: input
    // [N, G, C/G, H, W], weight [G, O/G, C/G, KH, KW], result
    // [N, G, O/G, OH, OW] with loops (n, g, o, y, x, c, i, j).
    MLIRContext *ctx = op.getContext();
    int64_t groups = op.getGroups();
    ArrayRef<int64_t> stride = op.getStride(), dilation = op.getDilation();
    Type i32 = rewriter.getI32Type();
    input = splitDim(rewriter, loc, input, 1, groups);
    weight = splitDim(rewriter, loc, weight, 0, groups);
    SmallVector<OpFoldResult> sizes = getResultSizes(rewriter, op);
    int64_t outGroup = type.getDimSize(1) / groups;
    SmallVector<OpFoldResult> groupedSizes = {
        sizes[0], rewriter.getIndexAttr(groups),
        rewriter.getIndexAttr(outGroup), sizes[2], sizes[3]};
    Value init = createFilledTensor(rewriter, loc, groupedSizes,
                                    intConst(rewriter, loc, i32, 0));
    auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
    SmallVector<AffineMap> maps = {
        AffineMap::get(8, 0,
                       {d(0), d(1), d(5), d(3) * stride[0] + d(6) * dilation[0],
                        d(4) * stride[1] + d(7) * dilation[1]},
                       ctx),
        AffineMap::get(8, 0, {d(1), d(2), d(5), d(6), d(7)}, ctx),
        AffineMap::get(8, 0, {d(0), d(1), d(2), d(3), d(4)}, ctx)};
    auto conv = linalg::GenericOp::create(
        rewriter, loc, init.getType(), ValueRange{input, weight}, init, maps,
        getIterators(5, 8), [&](OpBuilder &b, Location l, ValueRange args) {
          Value product = arith::MulIOp::create(b, l, args[0], args[1]);
          Value sum = arith::AddIOp::create(b, l, args[2], product);
          linalg::YieldOp::create(b, l, sum);
        });
    Value acc = mergeDims(rewriter, loc, conv.getResult(0), 1);
    if (!op.isRequantized()) {
      rewriter.replaceOp(op, acc);
      return success();
    }
    rewriter.replaceOp(
        op, createRequantize(rewriter, loc, acc, adaptor.getInputScale(),
                             adaptor.getWeightScale(), adaptor.getOutputScale(),
                             adaptor.getOutputZeroPoint(), 1,
                             op.getOutputUnsigned(), sizes, type));
    return success();
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// dequant_matmul
//===----------------------------------------------------------------------===//

Value BlockLayout::expandWeight(OpBuilder &b, Location loc,
                                Value weight) const {
  SmallVector<int64_t> shape(rows);
  shape.append({groups, groupBytes});
  int64_t last = rows.size();
  SmallVector<ReassociationIndices> reassociation;
  for (int64_t d = 0; d < last; ++d)
    reassociation.push_back({d});
  reassociation.push_back({last, last + 1});
  return tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(shape, b.getI8Type()), weight,
      reassociation);
}

void BlockLayout::addOperands(OpBuilder &b, Location loc, Value weight,
                              Value scales, Value zeroPoints, int64_t numLoops,
                              ArrayRef<int64_t> rowLoops, int64_t gLoop,
                              SmallVectorImpl<Value> &operands,
                              SmallVectorImpl<AffineMap> &maps) const {
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineExpr> rowExprs;
  for (int64_t loop : rowLoops)
    rowExprs.push_back(getAffineDimExpr(loop, ctx));
  rowExprs.push_back(getAffineDimExpr(gLoop, ctx));
  auto weightMap = [&](AffineExpr byte) {
    SmallVector<AffineExpr> exprs(rowExprs);
    exprs.push_back(byte);
    return AffineMap::get(numLoops, 0, exprs, ctx);
  };
  Value bytes = expandWeight(b, loc, weight);
  operands.push_back(bytes);
  maps.push_back(
      weightMap(getAffineDimExpr(getByteLoop(gLoop), ctx) + getByteOffset()));
  if (gguf) {
    // The f16 scale's two bytes.
    operands.append({bytes, bytes});
    maps.push_back(weightMap(getAffineConstantExpr(0, ctx)));
    maps.push_back(weightMap(getAffineConstantExpr(1, ctx)));
    return;
  }
  AffineMap groupMap = AffineMap::get(numLoops, 0, rowExprs, ctx);
  operands.push_back(scales);
  maps.push_back(groupMap);
  if (zeroPoints) {
    operands.push_back(zeroPoints);
    maps.push_back(groupMap);
  }
}

SmallVector<Value> BlockLayout::extractOperands(OpBuilder &b, Location loc,
                                                Value weight, Value scales,
                                                Value zeroPoints,
                                                ValueRange rowIndices,
                                                int64_t gLoop) const {
  SmallVector<Value> group(rowIndices);
  group.push_back(linalg::IndexOp::create(b, loc, gLoop));
  auto byteAt = [&](Value byte) -> Value {
    SmallVector<Value> indices(group);
    indices.push_back(byte);
    return tensor::ExtractOp::create(b, loc, weight, indices);
  };
  Value byte = linalg::IndexOp::create(b, loc, getByteLoop(gLoop));
  if (int64_t offset = getByteOffset())
    byte = arith::AddIOp::create(
        b, loc, byte, arith::ConstantIndexOp::create(b, loc, offset));
  SmallVector<Value> args = {byteAt(byte)};
  if (gguf) {
    args.push_back(byteAt(arith::ConstantIndexOp::create(b, loc, 0)));
    args.push_back(byteAt(arith::ConstantIndexOp::create(b, loc, 1)));
    return args;
  }
  args.push_back(tensor::ExtractOp::create(b, loc, scales, group));
  if (zeroPoints)
    args.push_back(tensor::ExtractOp::create(b, loc, zeroPoints, group));
  return args;
}

Value BlockLayout::dequantize(OpBuilder &b, Location l, ValueRange args,
                              Type compute, int64_t gLoop) const {
  Type i32 = b.getI32Type();
  Value q; // the integer value minus its zero point
  Value scale;
  if (int4 || q4) {
    // The nibble: (byte >> 4 h) & 15, h the nibble's loop.
    int64_t nibbleLoop = int4 ? gLoop + 2 : gLoop + 1;
    Value h = arith::IndexCastOp::create(
        b, l, i32, linalg::IndexOp::create(b, l, nibbleLoop));
    Value shift = arith::MulIOp::create(b, l, h, intConst(b, l, i32, 4));
    Value byte = arith::ExtUIOp::create(b, l, i32, args[0]);
    q = arith::AndIOp::create(b, l, arith::ShRUIOp::create(b, l, byte, shift),
                              intConst(b, l, i32, 15));
  } else {
    q = arith::ExtSIOp::create(b, l, i32, args[0]);
  }
  if (gguf) {
    scale = decodeF16(b, l, args[1], args[2], compute);
    if (q4)
      q = arith::SubIOp::create(b, l, q, intConst(b, l, i32, 8));
  } else {
    scale = args[1];
    if (scale.getType() != compute)
      scale = arith::ExtFOp::create(b, l, compute, scale);
    if (hasZeroPoints)
      q = arith::SubIOp::create(b, l, q,
                                arith::ExtSIOp::create(b, l, i32, args[2]));
    else if (int4)
      q = arith::SubIOp::create(b, l, q, intConst(b, l, i32, 8));
  }
  return arith::MulFOp::create(b, l, arith::SIToFPOp::create(b, l, compute, q),
                               scale);
}

namespace {
struct DequantMatmulToLinalg : OpConversionPattern<DequantMatmulOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(DequantMatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    RankedTensorType type = op.getType();
    Type storage = type.getElementType();
    Type compute = ScalarBuilder::computeType(storage);
    BlockLayout layout(op);
    int64_t batchRank = type.getRank() - 2;
    int64_t numInner = layout.inner.size();
    int64_t mLoop = batchRank, nLoop = batchRank + 1, gLoop = batchRank + 2;
    int64_t numLoops = gLoop + 1 + numInner;
    auto dim = [&](int64_t d) { return getAffineDimExpr(d, ctx); };

    // The input [batch..., M, K] as [batch..., M, K / G, inner...].
    auto inputType = cast<RankedTensorType>(adaptor.getInput().getType());
    int64_t inputRank = inputType.getRank();
    SmallVector<ReassociationIndices> inputGroups;
    for (int64_t d = 0; d + 1 < inputRank; ++d)
      inputGroups.push_back({d});
    ReassociationIndices last;
    for (int64_t d = 0; d <= numInner; ++d)
      last.push_back(inputRank - 1 + d);
    inputGroups.push_back(last);
    SmallVector<int64_t> expandedShape(inputType.getShape().drop_back());
    expandedShape.push_back(layout.groups);
    expandedShape.append(layout.inner);
    auto expandedType =
        RankedTensorType::get(expandedShape, inputType.getElementType());
    Value input = tensor::ExpandShapeOp::create(
        rewriter, loc, expandedType, adaptor.getInput(), inputGroups);
    SmallVector<AffineExpr> inputExprs;
    for (int64_t d = 0; d <= mLoop; ++d)
      inputExprs.push_back(dim(d));
    for (int64_t d = gLoop; d < numLoops; ++d)
      inputExprs.push_back(dim(d));

    SmallVector<Value> inputs = {input};
    SmallVector<AffineMap> maps = {
        AffineMap::get(numLoops, 0, inputExprs, ctx)};
    layout.addOperands(rewriter, loc, adaptor.getWeight(), adaptor.getScales(),
                       adaptor.getZeroPoints(), numLoops, {nLoop}, gLoop,
                       inputs, maps);
    maps.push_back(getOutputMap(ctx, numLoops, batchRank));

    SmallVector<OpFoldResult> sizes = getResultSizes(rewriter, op);
    RankedTensorType accType = type.clone(compute);
    Value acc = createFilledTensor(rewriter, loc, sizes,
                                   floatConst(rewriter, loc, compute, 0.0));
    auto product = linalg::GenericOp::create(
        rewriter, loc, accType, inputs, acc, maps,
        getIterators(gLoop, numLoops),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value x = args[0];
          if (x.getType() != compute)
            x = arith::ExtFOp::create(b, l, compute, x);
          Value w = layout.dequantize(
              b, l, args.slice(1, layout.getNumOperands()), compute, gLoop);
          Value sum = arith::AddFOp::create(b, l, args.back(),
                                            arith::MulFOp::create(b, l, x, w));
          linalg::YieldOp::create(b, l, sum);
        });
    Value result = product.getResult(0);
    if (compute != storage)
      result = convertElements(rewriter, loc, result, storage);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// One parallel generic over (rows..., g, inner...) writing the
/// dequantized values as [rows..., groups, inner...], collapsed to
/// [rows..., K].
struct DequantWeightToLinalg : OpConversionPattern<DequantWeightOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(DequantWeightOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    BlockLayout layout(op);
    int64_t gLoop = layout.rows.size();
    int64_t numLoops = gLoop + 1 + layout.inner.size();
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    layout.addOperands(rewriter, loc, adaptor.getWeight(), adaptor.getScales(),
                       adaptor.getZeroPoints(), numLoops,
                       llvm::to_vector(llvm::seq<int64_t>(0, gLoop)), gLoop,
                       inputs, maps);
    maps.push_back(rewriter.getMultiDimIdentityMap(numLoops));
    SmallVector<int64_t> shape(layout.rows);
    shape.push_back(layout.groups);
    shape.append(layout.inner);
    Value init = createEmptyTensor(
        rewriter, loc, RankedTensorType::get(shape, type.getElementType()));
    auto generic = linalg::GenericOp::create(
        rewriter, loc, init.getType(), inputs, init, maps,
        SmallVector<utils::IteratorType>(numLoops,
                                         utils::IteratorType::parallel),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value value = layout.dequantize(b, l, args.drop_back(),
                                          type.getElementType(), gLoop);
          linalg::YieldOp::create(b, l, value);
        });
    SmallVector<ReassociationIndices> reassociation;
    for (int64_t d = 0; d < gLoop; ++d)
      reassociation.push_back({d});
    reassociation.push_back(
        llvm::to_vector(llvm::seq<int64_t>(gLoop, numLoops)));
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
        op, type, generic.getResult(0), reassociation);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// scaled_matmul and fp8_from_bits
//===----------------------------------------------------------------------===//

struct ScaledMatmulToLinalg : OpConversionPattern<ScaledMatmulOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ScaledMatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    RankedTensorType type = op.getType();
    int64_t batchRank = type.getRank() - 2;
    int64_t numLoops = batchRank + 3;
    Type f32 = rewriter.getF32Type();
    SmallVector<OpFoldResult> sizes = getResultSizes(rewriter, op);
    Value acc = createFilledTensor(rewriter, loc, sizes,
                                   floatConst(rewriter, loc, f32, 0.0));
    SmallVector<AffineMap> maps = {
        getLhsMap(ctx, batchRank),
        getLoopsMap(ctx, numLoops, {batchRank + 2, batchRank + 1}),
        getOutputMap(ctx, numLoops, batchRank)};
    auto product = linalg::GenericOp::create(
        rewriter, loc, type, ValueRange{adaptor.getLhs(), adaptor.getRhs()},
        acc, maps, getIterators(numLoops - 1, numLoops),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value a = decodeFp8(b, l, args[0]);
          Value w = decodeFp8(b, l, args[1]);
          Value product = arith::MulFOp::create(b, l, a, w);
          Value sum = arith::AddFOp::create(b, l, args[2], product);
          linalg::YieldOp::create(b, l, sum);
        });
    int64_t rank = type.getRank();
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    AffineMap scalar = AffineMap::get(rank, 0, ctx);
    Value init = createEmptyTensor(rewriter, loc, sizes, f32);
    auto scaled = linalg::GenericOp::create(
        rewriter, loc, type,
        ValueRange{product.getResult(0), adaptor.getLhsScale(),
                   adaptor.getRhsScale()},
        init, SmallVector<AffineMap>{identity, scalar, scalar, identity},
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value v = arith::MulFOp::create(b, l, args[0], args[1]);
          Value scaled = arith::MulFOp::create(b, l, v, args[2]);
          linalg::YieldOp::create(b, l, scaled);
        });
    rewriter.replaceOp(op, scaled.getResults());
    return success();
  }
};

struct Fp8FromBitsToLinalg : OpConversionPattern<Fp8FromBitsOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(Fp8FromBitsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = op.getType();
    Type element = type.getElementType();
    rewriter.replaceOp(
        op, mapElements(rewriter, op.getLoc(), adaptor.getInput(), type,
                        [&](OpBuilder &b, Location l, Value byte) -> Value {
                          return arith::BitcastOp::create(b, l, element, byte);
                        }));
    return success();
  }
};
} // namespace

void mlir::rlx::populateQuantMatmulToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns
      .add<QMatmulToLinalg, QConvToLinalg, DequantMatmulToLinalg,
           DequantWeightToLinalg, ScaledMatmulToLinalg, Fp8FromBitsToLinalg>(
          patterns.getContext());
}
