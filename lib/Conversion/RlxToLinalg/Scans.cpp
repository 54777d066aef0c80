//===- Scans.cpp - Index reductions and scans to linalg -------------------===//
//
// argmax/argmin are one reduction generic with two accumulators (value,
// index). Scans are sequential, which linalg cannot state: they become
// rlx.associative_scan, which code generation tiles and writes as loops.
// (top-k, with the sorts, is in Sort.cpp.)
//
//===----------------------------------------------------------------------===//
#include "Ranking.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "rlx/Conversion/RlxToLinalg/RlxToLinalg.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include <optional>

using namespace mlir;
using namespace mlir::rlx;

//===----------------------------------------------------------------------===//
// argmax / argmin
//===----------------------------------------------------------------------===//

static Value createIndexConstant(OpBuilder &b, Location loc, Type type,
                                 int64_t value) {
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, value));
}

/// The sizes of `tensor` without `axis`.
static SmallVector<OpFoldResult> getRowSizes(OpBuilder &b, Location loc,
                                             Value tensor, int64_t axis) {
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, tensor);
  sizes.erase(sizes.begin() + axis);
  return sizes;
}

/// For every row along `axis` of `input`, the element that ranks first.
/// Gives the value (in the computation type) and the index (of `indexType`)
/// as tensors shaped like `input` without `axis`. One reduction generic:
/// O(axis length) per row.
static std::pair<Value, Value> selectAlongAxis(OpBuilder &b, Location loc,
                                               Value input, int64_t axis,
                                               Ranking ranking,
                                               Type indexType) {
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
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank), rowMap,
                                 rowMap};
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{initValue.getType(), initIndex.getType()}, input,
      ValueRange{initValue, initIndex}, maps, iterators,
      [&](OpBuilder &nested, Location bodyLoc, ValueRange args) {
        ScalarBuilder scalar(nested, bodyLoc);
        Value x = scalar.convert(args[0], computeType);
        Value position = arith::IndexCastOp::create(
            nested, bodyLoc, indexType,
            linalg::IndexOp::create(nested, bodyLoc, axis));
        Value accValue = args[1], accIndex = args[2];
        Value take =
            ranksBefore(scalar, ranking, x, position, accValue, accIndex);
        linalg::YieldOp::create(
            nested, bodyLoc,
            ValueRange{scalar.select(take, x, accValue),
                       scalar.select(take, position, accIndex)});
      });
  return {generic.getResult(0), generic.getResult(1)};
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

/// A scan: rlx.associative_scan with the op's combiner and identity in the
/// computation type, which code generation tiles and writes as loops.
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
    auto scan = AssociativeScanOp::create(
        rewriter, loc, type, adaptor.getInput(), empty, op.getNormalizedAxis(),
        op.getExclusive(), getIdentity(rewriter, computeType));
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
} // namespace

void mlir::rlx::populateScanToLinalgPatterns(RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<ArgReduceToLinalg<ArgMaxOp, true>,
               ArgReduceToLinalg<ArgMinOp, false>>(context);
  patterns.add<ScanToLinalg<CumsumOp, ScanKind::Sum>,
               ScanToLinalg<CumprodOp, ScanKind::Prod>,
               ScanToLinalg<CummaxOp, ScanKind::Max>>(context);
}
