//===- DataMovement.cpp - rlx shape and data movement ops to linalg -------===//
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
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
struct ReshapeToTensor : OpConversionPattern<ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value value = adaptor.getInput();
    RankedTensorType inType = op.getInput().getType(), outType = op.getType();
    auto flatType = RankedTensorType::get({inType.getNumElements()},
                                          inType.getElementType());
    auto allDims = [](int64_t rank) {
      SmallVector<ReassociationIndices> groups;
      if (rank > 0)
        groups.push_back(llvm::to_vector(llvm::seq<int64_t>(0, rank)));
      return groups;
    };
    if (inType.getRank() != 1)
      value = inType.getRank() == 0
                  ? tensor::ExpandShapeOp::create(rewriter, loc, flatType,
                                                  value, allDims(0))
                        .getResult()
                  : tensor::CollapseShapeOp::create(rewriter, loc, value,
                                                    allDims(inType.getRank()))
                        .getResult();
    if (outType.getRank() == 0)
      value = tensor::CollapseShapeOp::create(rewriter, loc, outType, value,
                                              allDims(0));
    else if (outType.getRank() != 1)
      value = tensor::ExpandShapeOp::create(rewriter, loc, outType, value,
                                            allDims(outType.getRank()));
    rewriter.replaceOp(op, value);
    return success();
  }
};

struct TransposeToLinalg : OpConversionPattern<TransposeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value init = createEmptyTensor(rewriter, op.getLoc(), op.getType());
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
        op, createIndexedCopy(
                rewriter, op.getLoc(), adaptor.getInput(),
                getBroadcastIndexingMap(op.getInput().getType(),
                                        type.getShape()),
                type));
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
    Value result = createEmptyTensor(rewriter, loc, type);
    if (type.getNumElements() == 0) {
      rewriter.replaceOp(op, result);
      return success();
    }
    SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
    int64_t position = 0;
    for (Value input : adaptor.getInputs()) {
      auto inputType = cast<RankedTensorType>(input.getType());
      // An empty slice may sit at offset == size, which insert_slice rejects.
      if (inputType.getNumElements() == 0)
        continue;
      offsets[axis] = rewriter.getIndexAttr(position);
      SmallVector<OpFoldResult> sizes;
      for (int64_t size : inputType.getShape())
        sizes.push_back(rewriter.getIndexAttr(size));
      result = tensor::InsertSliceOp::create(rewriter, loc, input, result,
                                             offsets, sizes, strides);
      position += inputType.getDimSize(axis);
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
    // An empty window reads nothing; its start need not be a valid index.
    if (type.getNumElements() == 0) {
      rewriter.replaceOp(op, createEmptyTensor(rewriter, loc, type));
      return success();
    }
    if (step > 0) {
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
      SmallVector<OpFoldResult> sizes;
      for (int64_t size : type.getShape())
        sizes.push_back(rewriter.getIndexAttr(size));
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
        op, createIndexedCopy(
                rewriter, loc, adaptor.getInput(),
                AffineMap::get(rank, 0, exprs, rewriter.getContext()), type));
    return success();
  }
};
} // namespace

void mlir::rlx::populateDataMovementToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ConstantToArith, ReshapeToTensor, TransposeToLinalg,
               ExpandToLinalg, ConcatToTensor, WindowToTensor<NarrowOp>,
               WindowToTensor<SliceOp>>(patterns.getContext());
}
