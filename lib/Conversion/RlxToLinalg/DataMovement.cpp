//===- DataMovement.cpp - rlx shape and data movement ops to linalg -------===//
#include "Utils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "rlx/Conversion/RlxToLinalg/RlxToLinalg.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

using namespace mlir;
using namespace mlir::rlx;

namespace {
struct ConstantToArith : OpConversionPattern<ConstantOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, op.getType(),
                                                   op.getValue());
    return success();
  }
};

/// Row-major reshape as collapse-to-1-D then expand: both are pure metadata
/// on contiguous buffers, and canonicalization merges them where it can.
/// With `?` sizes, one collapse or expand whose groups keep each `?` apart
/// where the shapes allow it; else the same through 1-D where the result
/// has at most one `?` (an expand group computes one size), else
/// `tensor.reshape` to the computed sizes.
struct ReshapeToTensor : OpConversionPattern<ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value value = adaptor.getInput();
    RankedTensorType inType = op.getInput().getType(), outType = op.getType();
    // Between a static shape and one with a single `?`, the `?` follows
    // from the element count: reshape statically and cast (no collapse or
    // expand group may turn static sizes into a `?` one or back).
    if (inType.hasStaticShape() && !outType.hasStaticShape()) {
      if (RankedTensorType staticOut =
              getWithCountedSize(outType, inType.getNumElements())) {
        Value reshaped = reshapeStatic(rewriter, loc, value, staticOut);
        rewriter.replaceOpWithNewOp<tensor::CastOp>(op, outType, reshaped);
        return success();
      }
    }
    if (!inType.hasStaticShape() && outType.hasStaticShape()) {
      if (RankedTensorType staticIn =
              getWithCountedSize(inType, outType.getNumElements())) {
        value = tensor::CastOp::create(rewriter, loc, staticIn, value);
        rewriter.replaceOp(op, reshapeStatic(rewriter, loc, value, outType));
        return success();
      }
    }
    if (!inType.hasStaticShape() || !outType.hasStaticShape()) {
      if (Value reshaped = reshapeDynamic(rewriter, op, value)) {
        rewriter.replaceOp(op, reshaped);
        return success();
      }
    }
    rewriter.replaceOp(op,
                       reshapeThroughFlat(rewriter, loc, value, inType, outType,
                                          getResultSizes(rewriter, op)));
    return success();
  }

  /// `type` with its one `?` size the one that gives it `count` elements;
  /// null where it has another number of `?`s or the size is not
  /// determined (other sizes 0).
  static RankedTensorType getWithCountedSize(RankedTensorType type,
                                             int64_t count) {
    if (type.getNumDynamicDims() != 1)
      return nullptr;
    int64_t known = 1;
    for (int64_t size : type.getShape())
      if (!ShapedType::isDynamic(size))
        known *= size;
    if (known == 0 || count % known != 0)
      return nullptr;
    SmallVector<int64_t> shape(type.getShape());
    for (int64_t &size : shape)
      if (ShapedType::isDynamic(size))
        size = count / known;
    return type.clone(shape);
  }

  /// The reshape of `value` (static shape) to the static `outType`.
  static Value reshapeStatic(OpBuilder &b, Location loc, Value value,
                             RankedTensorType outType) {
    auto inType = cast<RankedTensorType>(value.getType());
    SmallVector<OpFoldResult> sizes =
        getAsIndexOpFoldResult(b.getContext(), outType.getShape());
    return reshapeThroughFlat(b, loc, value, inType, outType, sizes);
  }

  /// Collapse to 1-D, then expand to `outType` of sizes `sizes`.
  static Value reshapeThroughFlat(OpBuilder &b, Location loc, Value value,
                                  RankedTensorType inType,
                                  RankedTensorType outType,
                                  ArrayRef<OpFoldResult> sizes) {
    auto flatType =
        RankedTensorType::get({inType.hasStaticShape() ? inType.getNumElements()
                                                       : ShapedType::kDynamic},
                              inType.getElementType());
    auto allDims = [](int64_t rank) {
      SmallVector<ReassociationIndices> groups;
      if (rank > 0)
        groups.push_back(llvm::to_vector(llvm::seq<int64_t>(0, rank)));
      return groups;
    };
    if (inType.getRank() != 1)
      value = inType.getRank() == 0
                  ? tensor::ExpandShapeOp::create(b, loc, flatType, value,
                                                  allDims(0))
                        .getResult()
                  : tensor::CollapseShapeOp::create(b, loc, value,
                                                    allDims(inType.getRank()))
                        .getResult();
    if (outType.getRank() == 0)
      value =
          tensor::CollapseShapeOp::create(b, loc, outType, value, allDims(0));
    else if (outType.getRank() != 1)
      value = tensor::ExpandShapeOp::create(b, loc, outType, value,
                                            allDims(outType.getRank()), sizes);
    else if (value.getType() != outType)
      value = tensor::CastOp::create(b, loc, outType, value);
    return value;
  }

  /// The reshape of `value` where one collapse or expand does it, or where
  /// no 1-D expand group would compute two `?` sizes; null otherwise.
  static Value reshapeDynamic(OpBuilder &b, ReshapeOp op, Value value) {
    Location loc = op.getLoc();
    RankedTensorType inType = op.getInput().getType(), outType = op.getType();
    SmallVector<OpFoldResult> sizes = getResultSizes(b, op);
    std::optional<SmallVector<ReassociationIndices>> groups =
        getReassociationIndicesForReshape(inType, outType);
    if (groups && inType.getRank() > outType.getRank())
      return tensor::CollapseShapeOp::create(b, loc, outType, value, *groups);
    if (groups && inType.getRank() < outType.getRank())
      return tensor::ExpandShapeOp::create(b, loc, outType, value, *groups,
                                           sizes);
    if (outType.getNumDynamicDims() <= 1)
      return nullptr;
    SmallVector<Value> shape = llvm::map_to_vector(sizes, [&](OpFoldResult s) {
      return getValueOrCreateConstantIndexOp(b, loc, s);
    });
    Value shapeTensor = tensor::FromElementsOp::create(
        b, loc, RankedTensorType::get({outType.getRank()}, b.getIndexType()),
        shape);
    return tensor::ReshapeOp::create(b, loc, outType, value, shapeTensor);
  }
};

struct TransposeToLinalg : OpConversionPattern<TransposeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value init =
        createEmptyTensor(rewriter, op.getLoc(), getResultSizes(rewriter, op),
                          op.getType().getElementType());
    rewriter.replaceOp(op, linalg::TransposeOp::create(
                               rewriter, op.getLoc(), adaptor.getInput(), init,
                               op.getPermutation())
                               .getResult());
    return success();
  }
};

/// Broadcast through the same indexing map the elementwise ops use.
struct ExpandToLinalg : OpConversionPattern<ExpandOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ExpandOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = op.getType();
    rewriter.replaceOp(
        op, createIndexedCopy(rewriter, op.getLoc(), adaptor.getInput(),
                              getBroadcastIndexingMap(op.getInput().getType(),
                                                      type.getShape()),
                              type, getResultSizes(rewriter, op)));
    return success();
  }
};

/// The product of the counted sizes, converted to the element type (a `?`
/// size read from the tensor).
struct NumelToTensor : OpConversionPattern<NumelOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(NumelOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value count = arith::ConstantIndexOp::create(rewriter, loc, 1);
    for (int64_t axis : op.getNormalizedAxes())
      count = arith::MulIOp::create(
          rewriter, loc, count,
          tensor::DimOp::create(rewriter, loc, adaptor.getInput(), axis));
    RankedTensorType type = op.getType();
    Type element = type.getElementType();
    Value scalar;
    if (isa<FloatType>(element))
      scalar = arith::SIToFPOp::create(
          rewriter, loc, element,
          arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(),
                                     count));
    else
      scalar = arith::IndexCastOp::create(rewriter, loc, element, count);
    rewriter.replaceOpWithNewOp<tensor::FromElementsOp>(op, type, scalar);
    return success();
  }
};

struct ConcatToTensor : OpConversionPattern<ConcatOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ConcatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    int64_t rank = type.getRank();
    int64_t axis = op.getAxis() < 0 ? op.getAxis() + rank : op.getAxis();
    Value result = createEmptyTensor(
        rewriter, loc, getResultSizes(rewriter, op), type.getElementType());
    if (type.hasStaticShape() && type.getNumElements() == 0) {
      rewriter.replaceOp(op, result);
      return success();
    }
    SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
    OpFoldResult position = rewriter.getIndexAttr(0);
    AffineExpr s0, s1;
    bindSymbols(rewriter.getContext(), s0, s1);
    for (Value input : adaptor.getInputs()) {
      auto inputType = cast<RankedTensorType>(input.getType());
      // An empty slice may sit at offset == size, which insert_slice rejects
      // (a `?` one sits inside the result: the axis is at least as long).
      if (inputType.hasStaticShape() && inputType.getNumElements() == 0)
        continue;
      offsets[axis] = position;
      SmallVector<OpFoldResult> sizes =
          tensor::getMixedSizes(rewriter, loc, input);
      result = tensor::InsertSliceOp::create(rewriter, loc, input, result,
                                             offsets, sizes, strides);
      position = affine::makeComposedFoldedAffineApply(rewriter, loc, s0 + s1,
                                                       {position, sizes[axis]});
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// narrow and slice with a positive step are strided extract_slices; a
/// negative step reads `start + j * step` through an affine indexing map.
template <typename OpTy>
struct WindowToTensor : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;

  static int64_t getStep(NarrowOp) { return 1; }
  static int64_t getStep(SliceOp op) { return op.getStep(); }

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    int64_t rank = type.getRank();
    int64_t axis = op.getAxis() < 0 ? op.getAxis() + rank : op.getAxis();
    int64_t step = getStep(op);
    SmallVector<OpFoldResult> sizes = getResultSizes(rewriter, op);
    // An empty window reads nothing; its start need not be a valid index.
    if (type.getDimSize(axis) == 0) {
      rewriter.replaceOp(
          op, createEmptyTensor(rewriter, loc, sizes, type.getElementType()));
      return success();
    }
    if (step > 0) {
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
      offsets[axis] = rewriter.getIndexAttr(op.getStart());
      strides[axis] = rewriter.getIndexAttr(step);
      rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
          op, type, adaptor.getInput(), offsets, sizes, strides);
      return success();
    }
    SmallVector<AffineExpr> exprs;
    for (int64_t d = 0; d < rank; ++d)
      exprs.push_back(d == axis ? op.getStart() +
                                      rewriter.getAffineDimExpr(d) * step
                                : rewriter.getAffineDimExpr(d));
    rewriter.replaceOp(
        op,
        createIndexedCopy(rewriter, loc, adaptor.getInput(),
                          AffineMap::get(rank, 0, exprs, rewriter.getContext()),
                          type, sizes));
    return success();
  }
};
} // namespace

void mlir::rlx::populateDataMovementToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ConstantToArith, ReshapeToTensor, TransposeToLinalg,
               ExpandToLinalg, NumelToTensor, ConcatToTensor,
               WindowToTensor<NarrowOp>, WindowToTensor<SliceOp>>(
      patterns.getContext());
}
