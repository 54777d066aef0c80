//===- Random.cpp - rlx random ops to linalg ------------------------------===//
//
// Each random op is one parallel linalg.generic whose body computes its
// element from the element's row-major linear index (linalg.index), the
// seed and the offset, through the op's own buildElement: no state, so
// tiling, threads and vectorization cannot change the numbers.
//
//===----------------------------------------------------------------------===//

#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "rlx/Conversion/RlxToLinalg/RlxToLinalg.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

using namespace mlir;
using namespace mlir::rlx;

/// A parallel generic over `sizes` reading the scalar `seed` and `offset`
/// and `inputs` (with identity maps), whose element is `element(b, loc,
/// linearIndex, seed, offset, inputElements)`.
static Value createRandomGeneric(
    OpBuilder &b, Location loc, RankedTensorType type,
    ArrayRef<OpFoldResult> sizes, Value seed, Value offset, ValueRange inputs,
    function_ref<Value(OpBuilder &, Location, Value, Value, Value, ValueRange)>
        element) {
  int64_t rank = type.getRank();
  MLIRContext *context = b.getContext();
  // Row-major strides, computed once outside the loops.
  SmallVector<Value> strides(rank);
  Value stride = arith::ConstantIndexOp::create(b, loc, 1);
  for (int64_t d = rank - 1; d >= 0; --d) {
    strides[d] = stride;
    stride = arith::MulIOp::create(
        b, loc, stride, getValueOrCreateConstantIndexOp(b, loc, sizes[d]));
  }
  AffineMap scalarMap = AffineMap::get(rank, 0, context);
  AffineMap identity = b.getMultiDimIdentityMap(rank);
  SmallVector<AffineMap> maps = {scalarMap, scalarMap};
  maps.append(inputs.size() + 1, identity);
  SmallVector<Value> operands = {seed, offset};
  llvm::append_range(operands, inputs);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, type, operands,
      createEmptyTensor(b, loc, sizes, type.getElementType()), maps, iterators,
      [&](OpBuilder &nested, Location bodyLoc, ValueRange args) {
        Value linear = arith::ConstantIndexOp::create(nested, bodyLoc, 0);
        for (int64_t d = 0; d < rank; ++d) {
          Value index = linalg::IndexOp::create(nested, bodyLoc, d);
          linear = arith::AddIOp::create(
              nested, bodyLoc, linear,
              arith::MulIOp::create(nested, bodyLoc, index, strides[d]));
        }
        Value index = arith::IndexCastOp::create(nested, bodyLoc,
                                                 nested.getI64Type(), linear);
        linalg::YieldOp::create(nested, bodyLoc,
                                element(nested, bodyLoc, index, args[0],
                                        args[1], args.slice(2, inputs.size())));
      });
  return generic.getResult(0);
}

namespace {
template <typename OpTy> struct GeneratorToLinalg : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = op.getType();
    SmallVector<OpFoldResult> sizes =
        getAsIndexOpFoldResult(rewriter.getContext(), type.getShape());
    Value result = createRandomGeneric(
        rewriter, op.getLoc(), type, sizes, adaptor.getSeed(),
        adaptor.getOffset(), ValueRange(),
        [&](OpBuilder &b, Location loc, Value index, Value seed, Value offset,
            ValueRange) {
          return op.buildElement(b, loc, index, seed, offset);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct DropoutToLinalg : OpConversionPattern<DropoutOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(DropoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value result = createRandomGeneric(
        rewriter, op.getLoc(), op.getType(), getResultSizes(rewriter, op),
        adaptor.getSeed(), adaptor.getOffset(), adaptor.getInput(),
        [&](OpBuilder &b, Location loc, Value index, Value seed, Value offset,
            ValueRange inputs) {
          return op.buildElement(b, loc, index, seed, offset, inputs[0]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};
} // namespace

void mlir::rlx::populateRandomToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<GeneratorToLinalg<RngBitsOp>, GeneratorToLinalg<RngUniformOp>,
               GeneratorToLinalg<RngNormalOp>, DropoutToLinalg>(
      patterns.getContext());
}
