//===- Elementwise.cpp - Elementwise rlx ops to linalg.generic ------------===//
//
// One pattern covers every elementwise op: the body of the generic is the
// op's own `buildScalar`, and broadcasting is expressed in indexing maps.
//
//===----------------------------------------------------------------------===//
#include "Utils.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "rlx/Conversion/RlxToLinalg/RlxToLinalg.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

using namespace mlir;
using namespace mlir::rlx;

namespace {
struct ElementwiseToGeneric
    : OpInterfaceConversionPattern<ScalarComputeOpInterface> {
  using OpInterfaceConversionPattern::OpInterfaceConversionPattern;

  LogicalResult
  matchAndRewrite(ScalarComputeOpInterface op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op->getLoc();
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    int64_t rank = resultType.getRank();
    SmallVector<AffineMap> maps;
    for (Value operand : operands)
      maps.push_back(getBroadcastIndexingMap(
          cast<RankedTensorType>(operand.getType()), resultType.getShape()));
    maps.push_back(rewriter.getMultiDimIdentityMap(rank));
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    Type storage = resultType.getElementType();
    Value init =
        createEmptyTensor(rewriter, loc,
                          getLoopSizes(rewriter, loc, resultType.getShape(),
                                       operands, ArrayRef(maps).drop_back()),
                          storage);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, resultType, operands, init, maps, iterators,
        [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
          ScalarBuilder scalar(b, bodyLoc);
          SmallVector<Value> computeArgs;
          for (Value arg : args.drop_back())
            computeArgs.push_back(scalar.convert(
                arg, ScalarBuilder::computeType(arg.getType())));
          Value result = op.buildScalar(scalar, computeArgs);
          linalg::YieldOp::create(b, bodyLoc,
                                  scalar.convert(result, storage));
        });
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};
} // namespace

void mlir::rlx::populateElementwiseToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ElementwiseToGeneric>(patterns.getContext());
}
