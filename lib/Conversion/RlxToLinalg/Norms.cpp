//===- Norms.cpp - Normalization and positional encoding ops to linalg ----===//
//
// layer_norm, rms_norm and the softmax losses are row ops: rlx-to-linalg
// lowers them as row regions of their decompositions (RowOps.cpp). The
// normalizations here (group_norm, layer_norm2d, ada_layer_norm) are one (RMS) or two (centered) reduction generics for the
// statistics (sum -> mean, then the sum of squares of the centered values, so
// the variance never cancels catastrophically the way E[x^2] - E[x]^2 does)
// and one elementwise generic that normalizes and applies the affine.
// Statistics live in the computation type (f32 for f16/bf16) and every result
// is rounded to the storage type once.
//
//===----------------------------------------------------------------------===//
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "rlx/Conversion/RlxToLinalg/RlxToLinalg.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include <limits>

using namespace mlir;
using namespace mlir::rlx;

/// The map of a `rank`-loop generic that reads the loops `dims`.
static AffineMap getProjection(MLIRContext *context, int64_t rank,
                               ArrayRef<int64_t> dims) {
  SmallVector<AffineExpr> exprs;
  for (int64_t d : dims)
    exprs.push_back(getAffineDimExpr(d, context));
  return AffineMap::get(rank, 0, exprs, context);
}

/// The loops of a `rank`-loop generic that are not in `axes`.
static SmallVector<int64_t> getKeptDims(int64_t rank, ArrayRef<int64_t> axes) {
  SmallVector<int64_t> kept;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(axes, d))
      kept.push_back(d);
  return kept;
}

using RowBody =
    function_ref<Value(ScalarBuilder &, ValueRange args, Value accumulator)>;

/// Reduces `full` (iterated with the identity map) over `axes` into a tensor
/// of its other dimensions with element type `accType`, starting from
/// `identity`. `extra` inputs are read through `extraMaps`. `body` combines
/// the raw element arguments (full first, then extra) into the accumulator.
static Value reduceRows(OpBuilder &b, Location loc, Value full,
                        ArrayRef<int64_t> axes, ValueRange extra,
                        ArrayRef<AffineMap> extraMaps, Type accType,
                        double identity, RowBody body) {
  auto fullType = cast<RankedTensorType>(full.getType());
  int64_t rank = fullType.getRank();
  SmallVector<int64_t> kept = getKeptDims(rank, axes);
  SmallVector<int64_t> shape;
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  for (int64_t d : kept)
    shape.push_back(fullType.getDimSize(d));
  for (int64_t d : axes)
    iterators[d] = utils::IteratorType::reduction;
  auto resultType = RankedTensorType::get(shape, accType);
  Value init = createFilledTensor(
      b, loc, resultType,
      arith::ConstantOp::create(b, loc, b.getFloatAttr(accType, identity)));
  SmallVector<Value> inputs = {full};
  inputs.append(extra.begin(), extra.end());
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank)};
  maps.append(extraMaps.begin(), extraMaps.end());
  maps.push_back(getProjection(b.getContext(), rank, kept));
  auto generic = linalg::GenericOp::create(
      b, loc, resultType, inputs, init, maps, iterators,
      [&](OpBuilder &nested, Location bodyLoc, ValueRange args) {
        ScalarBuilder scalar(nested, bodyLoc);
        linalg::YieldOp::create(nested, bodyLoc,
                                body(scalar, args.drop_back(), args.back()));
      });
  return generic.getResult(0);
}

/// A parallel generic producing `resultType` (iterated with its identity
/// map) from `inputs` read through `maps`; `body` gets the raw element
/// arguments and returns the result element.
static Value mapRows(OpBuilder &b, Location loc, RankedTensorType resultType,
                     ValueRange inputs, ArrayRef<AffineMap> maps,
                     function_ref<Value(ScalarBuilder &, ValueRange)> body) {
  int64_t rank = resultType.getRank();
  SmallVector<AffineMap> allMaps(maps);
  allMaps.push_back(b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, resultType, inputs, createEmptyTensor(b, loc, resultType),
      allMaps, iterators,
      [&](OpBuilder &nested, Location bodyLoc, ValueRange args) {
        ScalarBuilder scalar(nested, bodyLoc);
        linalg::YieldOp::create(nested, bodyLoc,
                                body(scalar, args.drop_back()));
      });
  return generic.getResult(0);
}

namespace {
/// Per-row statistics of a normalization, in the computation type, shaped
/// like the input without the normalized axes.
struct RowStatistics {
  /// Null for RMS normalization, which does not center.
  Value mean;
  /// 1 / sqrt(var + eps), or 1 / sqrt(mean(x^2) + eps) without centering.
  Value rstd;
};
} // namespace

static RowStatistics computeStatistics(OpBuilder &b, Location loc, Value input,
                                       ArrayRef<int64_t> axes, bool centered,
                                       double eps) {
  auto type = cast<RankedTensorType>(input.getType());
  Type computeType = ScalarBuilder::computeType(type.getElementType());
  int64_t count = 1;
  for (int64_t axis : axes)
    count *= type.getDimSize(axis);
  AffineMap rowMap = getProjection(b.getContext(), type.getRank(),
                                   getKeptDims(type.getRank(), axes));
  RowStatistics stats;
  Value squares;
  if (centered) {
    Value sum = reduceRows(b, loc, input, axes, {}, {}, computeType, 0.0,
                           [&](ScalarBuilder &s, ValueRange args, Value acc) {
                             return s.add(acc, s.convert(args[0], computeType));
                           });
    auto rowType = cast<RankedTensorType>(sum.getType());
    stats.mean = mapElements(b, loc, sum, rowType,
                             [&](OpBuilder &nested, Location l, Value total) {
                               ScalarBuilder s(nested, l);
                               return s.div(total, s.constant(total, count));
                             });
    squares =
        reduceRows(b, loc, input, axes, stats.mean, rowMap, computeType, 0.0,
                   [&](ScalarBuilder &s, ValueRange args, Value acc) {
                     Value centeredX =
                         s.sub(s.convert(args[0], computeType), args[1]);
                     return s.add(acc, s.mul(centeredX, centeredX));
                   });
  } else {
    squares = reduceRows(b, loc, input, axes, {}, {}, computeType, 0.0,
                         [&](ScalarBuilder &s, ValueRange args, Value acc) {
                           Value x = s.convert(args[0], computeType);
                           return s.add(acc, s.mul(x, x));
                         });
  }
  stats.rstd =
      mapElements(b, loc, squares, cast<RankedTensorType>(squares.getType()),
                  [&](OpBuilder &nested, Location l, Value total) {
                    ScalarBuilder s(nested, l);
                    return s.rsqrt(s.add(s.div(total, s.constant(total, count)),
                                         s.constant(total, eps)));
                  });
  return stats;
}

using AffineBody =
    function_ref<Value(ScalarBuilder &, Value normalized, ValueRange params)>;

/// Normalizes `input` over `axes` with `stats` (centering when they have a
/// mean) and applies `affine` to each normalized element (computation type)
/// with the elements of `params` (read through `paramMaps`, converted to the
/// computation type).
static Value normalize(OpBuilder &b, Location loc, Value input,
                       ArrayRef<int64_t> axes, RowStatistics stats,
                       ValueRange params, ArrayRef<AffineMap> paramMaps,
                       AffineBody affine) {
  auto type = cast<RankedTensorType>(input.getType());
  int64_t rank = type.getRank();
  Type storage = type.getElementType();
  Type computeType = ScalarBuilder::computeType(storage);
  bool centered = static_cast<bool>(stats.mean);
  AffineMap rowMap =
      getProjection(b.getContext(), rank, getKeptDims(rank, axes));
  SmallVector<Value> inputs = {input, stats.rstd};
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank), rowMap};
  if (centered) {
    inputs.push_back(stats.mean);
    maps.push_back(rowMap);
  }
  size_t firstParam = inputs.size();
  inputs.append(params.begin(), params.end());
  maps.append(paramMaps.begin(), paramMaps.end());
  return mapRows(
      b, loc, type, inputs, maps, [&](ScalarBuilder &s, ValueRange args) {
        Value x = s.convert(args[0], computeType);
        if (centered)
          x = s.sub(x, args[2]);
        Value normalized = s.mul(x, args[1]);
        SmallVector<Value> paramValues;
        for (Value p : args.drop_front(firstParam))
          paramValues.push_back(s.convert(p, computeType));
        return s.convert(affine(s, normalized, paramValues), storage);
      });
}

/// Computes the statistics of `input` over `axes` and normalizes with them.
static Value computeAndNormalize(OpBuilder &b, Location loc, Value input,
                                 ArrayRef<int64_t> axes, bool centered,
                                 double eps, ValueRange params,
                                 ArrayRef<AffineMap> paramMaps,
                                 AffineBody affine) {
  return normalize(b, loc, input, axes,
                   computeStatistics(b, loc, input, axes, centered, eps),
                   params, paramMaps, affine);
}

/// normalized * gamma + beta, or without beta when there is none.
static Value applyGammaBeta(ScalarBuilder &s, Value normalized,
                            ValueRange params) {
  Value scaled = s.mul(normalized, params[0]);
  return params.size() > 1 ? s.add(scaled, params[1]) : scaled;
}

namespace {
struct LayerNorm2dToLinalg : OpConversionPattern<LayerNorm2dOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(LayerNorm2dOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    AffineMap channel = getProjection(rewriter.getContext(), 4, {1});
    rewriter.replaceOp(op, computeAndNormalize(
                               rewriter, op.getLoc(), adaptor.getInput(), {1},
                               /*centered=*/true, op.getEps().convertToDouble(),
                               {adaptor.getGamma(), adaptor.getBeta()},
                               {channel, channel}, applyGammaBeta));
    return success();
  }
};

/// [N, C, *spatial] is viewed as [N, G, C/G, *spatial] and normalized over
/// every dimension after G; gamma and beta read channel g * (C/G) + c.
struct GroupNormToLinalg : OpConversionPattern<GroupNormOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(GroupNormOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    int64_t groups = op.getGroups();
    int64_t perGroup = type.getDimSize(1) / groups;
    SmallVector<int64_t> grouped = {type.getDimSize(0), groups, perGroup};
    llvm::append_range(grouped, type.getShape().drop_front(2));
    int64_t rank = grouped.size();
    SmallVector<ReassociationIndices> reassociation = {{0}, {1, 2}};
    for (int64_t d = 3; d < rank; ++d)
      reassociation.push_back({d});
    auto groupedType = RankedTensorType::get(grouped, type.getElementType());
    Value input = tensor::ExpandShapeOp::create(
        rewriter, loc, groupedType, adaptor.getInput(), reassociation);
    SmallVector<int64_t> axes;
    for (int64_t d = 2; d < rank; ++d)
      axes.push_back(d);
    MLIRContext *context = rewriter.getContext();
    AffineMap channel = AffineMap::get(rank, 0,
                                       getAffineDimExpr(1, context) * perGroup +
                                           getAffineDimExpr(2, context));
    Value result = computeAndNormalize(
        rewriter, loc, input, axes, /*centered=*/true,
        op.getEps().convertToDouble(), {adaptor.getGamma(), adaptor.getBeta()},
        {channel, channel}, applyGammaBeta);
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(op, type, result,
                                                         reassociation);
    return success();
  }
};

struct AdaLayerNormToLinalg : OpConversionPattern<AdaLayerNormOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AdaLayerNormOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    int64_t rank = op.getType().getRank();
    AffineMap modulation =
        getBroadcastIndexingMap(op.getScale().getType(), rank);
    rewriter.replaceOp(
        op,
        computeAndNormalize(
            rewriter, op.getLoc(), adaptor.getInput(), {rank - 1},
            op.getKind() == AdaNormKind::Layer, op.getEps().convertToDouble(),
            {adaptor.getScale(), adaptor.getShift()}, {modulation, modulation},
            [](ScalarBuilder &s, Value normalized, ValueRange p) {
              Value factor = s.add(s.constant(p[0], 1.0), p[0]);
              return s.add(s.mul(normalized, factor), p[1]);
            }));
    return success();
  }
};

/// One elementwise generic with the frozen statistics read per channel.
struct BatchNormInferenceToLinalg : OpConversionPattern<BatchNormInferenceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BatchNormInferenceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = op.getType();
    int64_t rank = type.getRank();
    Type storage = type.getElementType();
    Type computeType = ScalarBuilder::computeType(storage);
    double eps = op.getEps().convertToDouble();
    AffineMap channel = getProjection(rewriter.getContext(), rank, {1});
    rewriter.replaceOp(
        op, mapRows(rewriter, op.getLoc(), type,
                    {adaptor.getInput(), adaptor.getGamma(), adaptor.getBeta(),
                     adaptor.getMean(), adaptor.getVariance()},
                    {rewriter.getMultiDimIdentityMap(rank), channel, channel,
                     channel, channel},
                    [&](ScalarBuilder &s, ValueRange args) {
                      SmallVector<Value> v;
                      for (Value arg : args)
                        v.push_back(s.convert(arg, computeType));
                      Value rstd = s.rsqrt(s.add(v[4], s.constant(v[4], eps)));
                      Value normalized = s.mul(s.sub(v[0], v[3]), rstd);
                      return s.convert(s.add(s.mul(normalized, v[1]), v[2]),
                                       storage);
                    }));
    return success();
  }
};

struct GatedResidualToLinalg : OpConversionPattern<GatedResidualOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(GatedResidualOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = op.getType();
    int64_t rank = type.getRank();
    Type storage = type.getElementType();
    Type computeType = ScalarBuilder::computeType(storage);
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    rewriter.replaceOp(
        op,
        mapRows(rewriter, op.getLoc(), type,
                {adaptor.getInput(), adaptor.getUpdate(), adaptor.getGate()},
                {identity, identity,
                 getBroadcastIndexingMap(op.getGate().getType(), rank)},
                [&](ScalarBuilder &s, ValueRange args) {
                  Value x = s.convert(args[0], computeType);
                  Value y = s.convert(args[1], computeType);
                  Value gate = s.convert(args[2], computeType);
                  return s.convert(s.add(x, s.mul(gate, y)), storage);
                }));
    return success();
  }
};

/// [..., S, W] is viewed as [..., S, H, D]; the two members of every pair
/// are two strided slices of the last dimension ([0, n/2) and [n/2, n) for
/// neox, even and odd for gptj). One generic over [..., S, H, n/2] rotates
/// them and writes both, and the results are inserted back into the input,
/// which keeps the dimensions past n_rot.
struct RopeToLinalg : OpConversionPattern<RopeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(RopeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    int64_t rank = type.getRank();
    int64_t headDim = op.getHeadDim(), half = op.getNRot() / 2;
    SmallVector<int64_t> headShape(type.getShape().drop_back());
    headShape.append({type.getShape().back() / headDim, headDim});
    SmallVector<ReassociationIndices> reassociation;
    for (int64_t d = 0; d < rank - 1; ++d)
      reassociation.push_back({d});
    reassociation.push_back({rank - 1, rank});
    Type storage = type.getElementType();
    auto headType = RankedTensorType::get(headShape, storage);
    Value heads = tensor::ExpandShapeOp::create(
        rewriter, loc, headType, adaptor.getInput(), reassociation);

    bool neox = op.getStyle() == RopeStyle::NeoX;
    int64_t headRank = rank + 1;
    SmallVector<int64_t> pairShape(headShape);
    pairShape.back() = half;
    auto pairType = RankedTensorType::get(pairShape, storage);
    SmallVector<OpFoldResult> sizes,
        strides(headRank, rewriter.getIndexAttr(1));
    for (int64_t size : pairShape)
      sizes.push_back(rewriter.getIndexAttr(size));
    strides.back() = rewriter.getIndexAttr(neox ? 1 : 2);
    auto offsetsOf = [&](int64_t member) {
      SmallVector<OpFoldResult> offsets(headRank, rewriter.getIndexAttr(0));
      offsets.back() = rewriter.getIndexAttr(neox ? member * half : member);
      return offsets;
    };
    Value first = tensor::ExtractSliceOp::create(rewriter, loc, pairType, heads,
                                                 offsetsOf(0), sizes, strides);
    Value second = tensor::ExtractSliceOp::create(
        rewriter, loc, pairType, heads, offsetsOf(1), sizes, strides);

    MLIRContext *context = rewriter.getContext();
    AffineMap identity = rewriter.getMultiDimIdentityMap(headRank);
    AffineMap table = getProjection(context, headRank, {rank - 2, rank});
    Type computeType = ScalarBuilder::computeType(storage);
    SmallVector<utils::IteratorType> iterators(headRank,
                                               utils::IteratorType::parallel);
    Value empty = createEmptyTensor(rewriter, loc, pairType);
    auto rotate = linalg::GenericOp::create(
        rewriter, loc, TypeRange{pairType, pairType},
        ValueRange{first, second, adaptor.getCos(), adaptor.getSin()},
        ValueRange{empty, empty},
        ArrayRef<AffineMap>{identity, identity, table, table, identity,
                            identity},
        iterators, [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
          ScalarBuilder s(b, bodyLoc);
          Value a = s.convert(args[0], computeType);
          Value c = s.convert(args[1], computeType);
          Value cos = s.convert(args[2], computeType);
          Value sin = s.convert(args[3], computeType);
          Value rotatedA = s.sub(s.mul(a, cos), s.mul(c, sin));
          Value rotatedB = s.add(s.mul(c, cos), s.mul(a, sin));
          linalg::YieldOp::create(b, bodyLoc,
                                  ValueRange{s.convert(rotatedA, storage),
                                             s.convert(rotatedB, storage)});
        });
    Value result =
        tensor::InsertSliceOp::create(rewriter, loc, rotate.getResult(0), heads,
                                      offsetsOf(0), sizes, strides);
    result =
        tensor::InsertSliceOp::create(rewriter, loc, rotate.getResult(1),
                                      result, offsetsOf(1), sizes, strides);
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(op, type, result,
                                                         reassociation);
    return success();
  }
};
} // namespace

void mlir::rlx::populateNormToLinalgPatterns(RewritePatternSet &patterns) {
  patterns
      .add<LayerNorm2dToLinalg, GroupNormToLinalg, AdaLayerNormToLinalg,
           BatchNormInferenceToLinalg, GatedResidualToLinalg, RopeToLinalg>(
          patterns.getContext());
}
