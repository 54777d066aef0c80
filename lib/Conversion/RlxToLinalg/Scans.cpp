//===- Scans.cpp - Index reductions, scans and top-k to linalg ---===//
//
// argmax/argmin are one reduction generic with two accumulators (value,
// index). Scans and top-k are sequential, which linalg cannot state. Scans
// become rlx.scan, which code generation tiles and writes as loops; top-k
// is an scf.for over tensors (bufferized in place by one-shot
// bufferization) whose body is a linalg generic over all the rows.
//
//===----------------------------------------------------------------------===//
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "rlx/Conversion/RlxToLinalg/RlxToLinalg.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include <optional>

using namespace mlir;
using namespace mlir::rlx;

//===----------------------------------------------------------------------===//
// Ranking (value, index) pairs: argmax, argmin and topk
//===----------------------------------------------------------------------===//

namespace {
/// A strict total order on (value, index) pairs of one row: the better value
/// first, equal values by the smaller index. NaN sits at one end: first
/// (argmax, argmin, topk largest, like torch) or last (topk smallest).
struct Ranking {
  bool preferLarger;
  bool nanFirst;
};
} // namespace

/// A value of `type` ranked at the very end (`best` false) or start (`best`
/// true) of `ranking`: every value ranks before the end or ties with it, and
/// likewise after the start. Paired with an index past the row (end) or
/// before it (start), it ranks strictly after (before) every element.
static Value createExtremeValue(OpBuilder &b, Location loc, Ranking ranking,
                                Type type, bool best) {
  TypedAttr attr;
  if (auto floatType = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &sem = floatType.getFloatSemantics();
    // The extreme away from NaN is an infinity: the end is -inf when larger
    // values rank first (+inf otherwise), the start the opposite one.
    APFloat value = ranking.nanFirst == best
                        ? APFloat::getNaN(sem)
                        : APFloat::getInf(sem, ranking.preferLarger != best);
    attr = b.getFloatAttr(type, value);
  } else {
    unsigned width = type.getIntOrFloatBitWidth();
    attr = b.getIntegerAttr(type, ranking.preferLarger == best
                                      ? APInt::getSignedMaxValue(width)
                                      : APInt::getSignedMinValue(width));
  }
  return arith::ConstantOp::create(b, loc, attr);
}

static Value createIndexConstant(OpBuilder &b, Location loc, Type type,
                                 int64_t value) {
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, value));
}

/// i1: whether (x, xIndex) ranks strictly before (y, yIndex).
static Value ranksBefore(ScalarBuilder &b, Ranking ranking, Value x,
                         Value xIndex, Value y, Value yIndex) {
  OpBuilder &builder = b.getBuilder();
  Location loc = b.getLoc();
  // Ordered float compares: false when either side is NaN.
  Value better = b.compare(ranking.preferLarger ? ComparePredicate::gt
                                                : ComparePredicate::lt,
                           x, y);
  Value same = b.compare(ComparePredicate::eq, x, y);
  if (isa<FloatType>(x.getType())) {
    Value xIsNan = b.compare(ComparePredicate::ne, x, x);
    Value yIsNan = b.compare(ComparePredicate::ne, y, y);
    Value nanBeatsNumber =
        ranking.nanFirst
            ? arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ugt,
                                    xIsNan, yIsNan)
            : arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                                    xIsNan, yIsNan);
    better = arith::OrIOp::create(builder, loc, better, nanBeatsNumber);
    same = arith::OrIOp::create(
        builder, loc, same,
        arith::AndIOp::create(builder, loc, xIsNan, yIsNan));
  }
  Value smallerIndex = arith::CmpIOp::create(
      builder, loc, arith::CmpIPredicate::slt, xIndex, yIndex);
  return arith::OrIOp::create(
      builder, loc, better,
      arith::AndIOp::create(builder, loc, same, smallerIndex));
}

/// The sizes of `tensor` without `axis`.
static SmallVector<OpFoldResult> getRowSizes(OpBuilder &b, Location loc,
                                             Value tensor, int64_t axis) {
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, tensor);
  sizes.erase(sizes.begin() + axis);
  return sizes;
}

/// For every row along `axis` of `input`, the element that ranks first
/// among those ranking strictly after `after` (a (value, index) pair of row
/// tensors), or among all of them without `after`. Gives the value (in the
/// computation type) and the index (of `indexType`) as tensors shaped like
/// `input` without `axis`. One reduction generic: O(axis length) per row.
static std::pair<Value, Value>
selectAlongAxis(OpBuilder &b, Location loc, Value input, int64_t axis,
                Ranking ranking, Type indexType,
                std::optional<std::pair<Value, Value>> after = std::nullopt) {
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t rank = inputType.getRank();
  Type computeType = ScalarBuilder::computeType(inputType.getElementType());
  SmallVector<OpFoldResult> rowSizes = getRowSizes(b, loc, input, axis);
  // The accumulator starts at the end of the ranking, past the row.
  Value initValue = createFilledTensor(
      b, loc, rowSizes,
      createExtremeValue(b, loc, ranking, computeType, /*best=*/false));
  OpFoldResult axisSize = tensor::getMixedSize(b, loc, input, axis);
  std::optional<int64_t> staticSize = getConstantIntValue(axisSize);
  Value length =
      staticSize
          ? createIndexConstant(b, loc, indexType, *staticSize)
          : arith::IndexCastOp::create(b, loc, indexType, cast<Value>(axisSize))
                .getResult();
  Value initIndex = createFilledTensor(b, loc, rowSizes, length);

  SmallVector<AffineExpr> rowExprs;
  SmallVector<utils::IteratorType> iterators;
  for (int64_t d = 0; d < rank; ++d) {
    iterators.push_back(d == axis ? utils::IteratorType::reduction
                                  : utils::IteratorType::parallel);
    if (d != axis)
      rowExprs.push_back(b.getAffineDimExpr(d));
  }
  AffineMap rowMap = AffineMap::get(rank, 0, rowExprs, b.getContext());
  SmallVector<Value> inputs = {input};
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank)};
  if (after) {
    inputs.append({after->first, after->second});
    maps.append({rowMap, rowMap});
  }
  maps.append({rowMap, rowMap});
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{initValue.getType(), initIndex.getType()}, inputs,
      ValueRange{initValue, initIndex}, maps, iterators,
      [&](OpBuilder &nested, Location bodyLoc, ValueRange args) {
        ScalarBuilder scalar(nested, bodyLoc);
        Value x = scalar.convert(args[0], computeType);
        Value position = arith::IndexCastOp::create(
            nested, bodyLoc, indexType,
            linalg::IndexOp::create(nested, bodyLoc, axis));
        Value accValue = args[args.size() - 2], accIndex = args.back();
        Value take =
            ranksBefore(scalar, ranking, x, position, accValue, accIndex);
        if (after) {
          Value eligible = ranksBefore(scalar, ranking, args[1], args[2], x,
                                       position);
          take = arith::AndIOp::create(nested, bodyLoc, take, eligible);
        }
        linalg::YieldOp::create(
            nested, bodyLoc,
            ValueRange{scalar.select(take, x, accValue),
                       scalar.select(take, position, accIndex)});
      });
  return {generic.getResult(0), generic.getResult(1)};
}

/// Writes the row tensor `row` (shaped like `dest` without `axis`) into
/// `dest` at `position` along `axis`.
static Value insertAlongAxis(OpBuilder &b, Location loc, Value row,
                             Value dest, int64_t axis, Value position) {
  int64_t rank = cast<RankedTensorType>(dest.getType()).getRank();
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0)),
      strides(rank, b.getIndexAttr(1));
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, dest);
  offsets[axis] = position;
  sizes[axis] = b.getIndexAttr(1);
  return tensor::InsertSliceOp::create(b, loc, row, dest, offsets, sizes,
                                       strides);
}

static Value createIndex(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

namespace {
/// argmax/argmin: one reduction generic over the axis carrying the best
/// value so far (computation type) and its index (the result type).
template <typename OpTy, bool isMax>
struct ArgReduceToLinalg : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t axis = op.getNormalizedAxis();
    RankedTensorType resultType = op.getType();
    Value index =
        selectAlongAxis(rewriter, loc, adaptor.getInput(), axis,
                        Ranking{/*preferLarger=*/isMax, /*nanFirst=*/true},
                        resultType.getElementType())
            .second;
    if (op.getKeepDim())
      index = tensor::ExpandShapeOp::create(
          rewriter, loc, resultType, index,
          getKeepDimReassociation(resultType.getRank(), axis));
    rewriter.replaceOp(op, index);
    return success();
  }
};

enum class ScanKind { Sum, Prod, Max };

/// A scan: rlx.scan with the op's combiner and identity in the computation
/// type, which code generation tiles and writes as loops.
template <typename OpTy, ScanKind kind>
struct ScanToLinalg : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;

  /// 0 for sum, 1 for prod, and for max the lowest value (-inf, or the
  /// smallest integer).
  static TypedAttr getIdentity(Builder &b, Type type) {
    if (kind == ScanKind::Max) {
      if (auto floatType = dyn_cast<FloatType>(type))
        return b.getFloatAttr(type,
                              APFloat::getInf(floatType.getFloatSemantics(),
                                              /*Negative=*/true));
      return b.getIntegerAttr(
          type, APInt::getSignedMinValue(type.getIntOrFloatBitWidth()));
    }
    int64_t value = kind == ScanKind::Sum ? 0 : 1;
    return isa<FloatType>(type) ? TypedAttr(b.getFloatAttr(type, value))
                                : TypedAttr(b.getIntegerAttr(type, value));
  }

  static Value combine(ScalarBuilder &b, Value running, Value x) {
    switch (kind) {
    case ScanKind::Sum:
      return b.add(running, x);
    case ScanKind::Prod:
      return b.mul(running, x);
    case ScanKind::Max:
      return b.max(running, x);
    }
    llvm_unreachable("covered switch");
  }

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    Value empty = createEmptyTensor(rewriter, loc, getResultSizes(rewriter, op),
                                    type.getElementType());
    // Nothing to compute.
    if (type.hasStaticShape() && type.getNumElements() == 0) {
      rewriter.replaceOp(op, empty);
      return success();
    }
    Type computeType = ScalarBuilder::computeType(type.getElementType());
    auto scan = ScanOp::create(rewriter, loc, type, adaptor.getInput(), empty,
                               op.getNormalizedAxis(), op.getExclusive(),
                               getIdentity(rewriter, computeType));
    Block *body =
        rewriter.createBlock(&scan.getCombiner(), {},
                             {computeType, type.getElementType()}, {loc, loc});
    ScalarBuilder scalar(rewriter, loc);
    Value next = combine(scalar, body->getArgument(0),
                         scalar.convert(body->getArgument(1), computeType));
    YieldOp::create(rewriter, loc, next);
    // A schedule given on the op holds for its tiled form.
    if (Attribute config = op->getAttr(LoweringConfigAttr::kAttrName))
      scan->setAttr(LoweringConfigAttr::kAttrName, config);
    rewriter.replaceOp(op, scan.getResult());
    return success();
  }
};

/// topk: an scf.for of k selection passes over the last axis. Pass p picks,
/// in every row, the element ranking first among those ranking strictly
/// after the one pass p-1 picked (so ties come out by index and nothing is
/// picked twice), and writes it to column p. O(k * n) per row; the first
/// pass compares against a pair ranking before every element.
struct TopKToLinalg : OpConversionPattern<TopKOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TopKOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    RankedTensorType inputType = op.getInput().getType();
    RankedTensorType valuesType = op.getValues().getType();
    RankedTensorType indicesType = op.getIndices().getType();
    SmallVector<OpFoldResult> resultSizes = getResultSizes(rewriter, op);
    Value emptyValues = createEmptyTensor(rewriter, loc, resultSizes,
                                          valuesType.getElementType());
    Value emptyIndices = createEmptyTensor(rewriter, loc, resultSizes,
                                           indicesType.getElementType());
    // No rows: nothing to compute, and slicing a zero-length dimension would
    // fail tensor's static bounds check once the loop position is known.
    if (inputType.hasStaticShape() && inputType.getNumElements() == 0) {
      rewriter.replaceOp(op, ValueRange{emptyValues, emptyIndices});
      return success();
    }
    int64_t axis = inputType.getRank() - 1;
    Type storage = inputType.getElementType();
    Type computeType = ScalarBuilder::computeType(storage);
    Type indexType = indicesType.getElementType();
    Ranking ranking{/*preferLarger=*/!op.getSmallest(),
                    /*nanFirst=*/!op.getSmallest()};
    SmallVector<OpFoldResult> rowSizes =
        getRowSizes(rewriter, loc, input, axis);
    Value firstValue = createFilledTensor(
        rewriter, loc, rowSizes,
        createExtremeValue(rewriter, loc, ranking, computeType,
                           /*best=*/true));
    Value firstIndex =
        createFilledTensor(rewriter, loc, rowSizes,
                           createIndexConstant(rewriter, loc, indexType, -1));
    auto loop = scf::ForOp::create(
        rewriter, loc, createIndex(rewriter, loc, 0),
        createIndex(rewriter, loc, op.getK()), createIndex(rewriter, loc, 1),
        ValueRange{emptyValues, emptyIndices, firstValue, firstIndex},
        [&](OpBuilder &b, Location bodyLoc, Value position,
            ValueRange iterArgs) {
          auto [value, index] =
              selectAlongAxis(b, bodyLoc, input, axis, ranking, indexType,
                              std::make_pair(iterArgs[2], iterArgs[3]));
          Value values =
              insertAlongAxis(b, bodyLoc, convertElements(b, bodyLoc, value,
                                                          storage),
                              iterArgs[0], axis, position);
          Value indices =
              insertAlongAxis(b, bodyLoc, index, iterArgs[1], axis, position);
          // The selection reads the previous pick while it reduces, so it
          // cannot accumulate in place; copying the pick over the previous
          // one keeps the yielded buffers equivalent to the iter_args, as
          // one-shot bufferization requires (O(rows), against O(rows * n)
          // for the selection).
          Value nextValue =
              linalg::CopyOp::create(b, bodyLoc, value, iterArgs[2])
                  .getResult(0);
          Value nextIndex =
              linalg::CopyOp::create(b, bodyLoc, index, iterArgs[3])
                  .getResult(0);
          scf::YieldOp::create(
              b, bodyLoc, ValueRange{values, indices, nextValue, nextIndex});
        });
    rewriter.replaceOp(op, ValueRange{loop.getResult(0), loop.getResult(1)});
    return success();
  }
};
} // namespace

void mlir::rlx::populateScanToLinalgPatterns(RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<ArgReduceToLinalg<ArgMaxOp, true>,
               ArgReduceToLinalg<ArgMinOp, false>, TopKToLinalg>(context);
  patterns.add<ScanToLinalg<CumsumOp, ScanKind::Sum>,
               ScanToLinalg<CumprodOp, ScanKind::Prod>,
               ScanToLinalg<CummaxOp, ScanKind::Max>>(context);
}
