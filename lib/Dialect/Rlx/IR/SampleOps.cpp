//===- SampleOps.cpp - rlx.sample: verifier and shape rule ----------------===//
//
// The attributes' ranges and the shape `[..., V] -> [...]`; the op's
// semantics and lowering are its expansion (RlxToLinalg/Sample.cpp).
//
//===----------------------------------------------------------------------===//
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include "OpUtils.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::rlx;

LogicalResult SampleOp::verify() {
  RankedTensorType logits = getLogits().getType();
  if (logits.getRank() < 1)
    return emitOpError("needs logits of rank >= 1 ([..., V]), got ") << logits;
  int64_t vocabulary = logits.getShape().back();
  if (ShapedType::isDynamic(vocabulary))
    return emitOpError("needs a static vocabulary size (the last dimension "
                       "of the logits), got ")
           << logits;
  if (vocabulary < 1)
    return emitOpError("needs a vocabulary of at least one token, got ")
           << logits;
  if (getType().getElementType().isInteger(32) &&
      vocabulary > std::numeric_limits<int32_t>::max())
    return emitOpError("an i32 result cannot hold tokens of a vocabulary of ")
           << vocabulary;
  if (getTopK() < 0)
    return emitOpError("needs top_k >= 0 (0 keeps every token), got ")
           << getTopK();
  double topP = getTopP().convertToDouble();
  if (!(topP > 0 && topP <= 1))
    return emitOpError("needs top_p in (0, 1], got ") << topP;
  double temperature = getTemperature().convertToDouble();
  if (!std::isfinite(temperature) || temperature < 0)
    return emitOpError("needs a finite temperature >= 0, got ") << temperature;
  return success();
}

/// `[..., V] -> [...]`.
LogicalResult
SampleOp::inferSymbolicShapes(ShapeContext &context,
                              SmallVectorImpl<SymbolicShape> &shapes) {
  SymbolicShape logits = context.getShape(getLogits());
  if (logits.empty())
    return emitOpError("needs logits of rank >= 1 ([..., V]), got ")
           << getLogits().getType();
  shapes.push_back(SymbolicShape(logits.begin(), logits.end() - 1));
  return success();
}
