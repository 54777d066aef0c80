//===- FusedOps.cpp - Named fused ops to linalg ---------------------------===//
//
// Each fused op becomes one loop nest that reads its input once, doing what
// the unfused graph does in several passes with the same rounding.
//
//===----------------------------------------------------------------------===//
#include "Utils.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "rlx/Conversion/RlxToLinalg/RlxToLinalg.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

using namespace mlir;
using namespace mlir::rlx;

namespace {
/// swiglu: the two halves are views of the input (extract_slice, no copy
/// after bufferization) read by one generic:
/// result[..., j] = silu(gate[..., j]) * up[..., j].
struct SwigluToGeneric : OpConversionPattern<SwigluOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(SwigluOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    int64_t rank = type.getRank();
    int64_t half = op.getHalfLength();
    auto halfView = [&](int64_t start) -> Value {
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> sizes, strides(rank, rewriter.getIndexAttr(1));
      for (int64_t size : type.getShape())
        sizes.push_back(rewriter.getIndexAttr(size));
      offsets.back() = rewriter.getIndexAttr(start);
      return tensor::ExtractSliceOp::create(rewriter, loc, type,
                                            adaptor.getInput(), offsets, sizes,
                                            strides);
    };
    Value up = halfView(op.getGateFirst() ? half : 0);
    Value gate = halfView(op.getGateFirst() ? 0 : half);
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    SmallVector<AffineMap> maps(3, identity);
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    Type storage = type.getElementType();
    Type computeType = ScalarBuilder::computeType(storage);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, type, ValueRange{up, gate},
        createEmptyTensor(rewriter, loc, type), maps, iterators,
        [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
          ScalarBuilder scalar(b, bodyLoc);
          Value up = scalar.convert(args[0], computeType);
          Value gate = scalar.convert(args[1], computeType);
          // Round silu to the element type as the unfused rlx.silu stores it.
          Value activated = scalar.convert(
              scalar.convert(scalar.silu(gate), storage), computeType);
          linalg::YieldOp::create(
              b, bodyLoc, scalar.convert(scalar.mul(activated, up), storage));
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};
} // namespace

void mlir::rlx::populateFusedOpToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<SwigluToGeneric>(patterns.getContext());
}
