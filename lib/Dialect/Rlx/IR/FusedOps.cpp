//===- FusedOps.cpp - Named fused ops: shape inference and unfusing -------===//
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include "OpUtils.h"

using namespace mlir;
using namespace mlir::rlx;

LogicalResult SwigluOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  FailureOr<RankedTensorType> input =
      getRankedType(loc, adaptor.getInput(), "input");
  if (failed(input))
    return failure();
  if (input->getRank() == 0)
    return emitOptionalError(loc, "input must have rank >= 1");
  SmallVector<int64_t> shape(input->getShape());
  if (shape.back() % 2 != 0)
    return emitOptionalError(loc, "the last axis holds [up, gate] halves "
                                  "and must have even length, got ",
                             shape.back());
  shape.back() /= 2;
  inferred.push_back(RankedTensorType::get(shape, input->getElementType()));
  return success();
}

SmallVector<Value> SwigluOp::unfuse(OpBuilder &b) {
  Location loc = getLoc();
  int64_t axis = getInput().getType().getRank() - 1;
  int64_t half = getHalfLength();
  int64_t upStart = getGateFirst() ? half : 0;
  int64_t gateStart = getGateFirst() ? 0 : half;
  Value up = NarrowOp::create(b, loc, getInput(), axis, upStart, half);
  Value gate = NarrowOp::create(b, loc, getInput(), axis, gateStart, half);
  Value activated = SiluOp::create(b, loc, gate);
  return {MulOp::create(b, loc, activated, up).getResult()};
}
