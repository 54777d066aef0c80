//===- Regions.cpp - rlx.region to one linalg.generic ---------------------===//
//
// An elementwise region becomes a single linalg.generic over its iteration
// shape: the body ops' `buildScalar`s are chained in the generic's body, so
// no intermediate tensor exists. Each intermediate is rounded to its element
// type as the unfused op would store it, which keeps fused and unfused
// results identical.
//
//===----------------------------------------------------------------------===//
#include "Utils.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/IRMapping.h"
#include "rlx/Conversion/RlxToLinalg/RlxToLinalg.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

using namespace mlir;
using namespace mlir::rlx;

namespace {
struct ElementwiseRegionToGeneric : OpConversionPattern<RegionOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(RegionOp region, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = region.getLoc();
    int64_t rank = region.getIterationShape().size();
    SmallVector<AffineMap> maps;
    for (Value input : adaptor.getInputs())
      maps.push_back(getBroadcastIndexingMap(
          cast<RankedTensorType>(input.getType()), rank));
    SmallVector<Value> inits;
    for (Type type : region.getResultTypes()) {
      inits.push_back(
          createEmptyTensor(rewriter, loc, cast<RankedTensorType>(type)));
      maps.push_back(rewriter.getMultiDimIdentityMap(rank));
    }
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    Block &body = region.getBody().front();
    auto generic = linalg::GenericOp::create(
        rewriter, loc, region.getResultTypes(), adaptor.getInputs(), inits,
        maps, iterators,
        [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
          ScalarBuilder scalar(b, bodyLoc);
          auto elementType = [](Value tensor) {
            return cast<RankedTensorType>(tensor.getType()).getElementType();
          };
          // Each body value as a scalar in its computation type.
          IRMapping scalars;
          for (auto [arg, element] :
               llvm::zip(body.getArguments(), args.take_front(
                                                  body.getNumArguments())))
            scalars.map(arg, scalar.convert(element, ScalarBuilder::computeType(
                                                         element.getType())));
          for (Operation &op : body.without_terminator()) {
            SmallVector<Value> operands = llvm::to_vector(llvm::map_range(
                op.getOperands(), [&](Value v) { return scalars.lookup(v); }));
            Value result =
                cast<ScalarComputeOpInterface>(op).buildScalar(scalar, operands);
            Type storage = elementType(op.getResult(0));
            Value stored = scalar.convert(result, storage);
            scalars.map(op.getResult(0),
                        scalar.convert(stored,
                                       ScalarBuilder::computeType(storage)));
          }
          SmallVector<Value> yielded;
          for (Value value : region.getYield().getValues())
            yielded.push_back(
                scalar.convert(scalars.lookup(value), elementType(value)));
          linalg::YieldOp::create(b, bodyLoc, yielded);
        });
    rewriter.replaceOp(region, generic.getResults());
    return success();
  }
};
} // namespace

void mlir::rlx::populateRegionToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<ElementwiseRegionToGeneric>(patterns.getContext());
}
