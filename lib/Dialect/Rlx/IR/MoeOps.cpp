//===- MoeOps.cpp - Mixture-of-experts ops: verifiers, shape rules --------===//
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include "OpUtils.h"

using namespace mlir;
using namespace mlir::rlx;

//===----------------------------------------------------------------------===//
// GroupedMatmulOp
//===----------------------------------------------------------------------===//

/// The routing rules of the grouped products (`name` in the messages):
/// `expert_ids` `[T]` for a `[T, K]` input without gates, `[T, k]` with
/// `gates` of that shape and the input's element type; every id reads an
/// expert of `weight` (axis 0).
static LogicalResult checkRouting(ShapeContext &context,
                                  std::optional<Location> loc, StringRef name,
                                  Value input, Value weight, Value ids,
                                  Value gates) {
  FailureOr<RankedTensorType> idsType = getRankedType(loc, ids, "expert_ids");
  if (failed(idsType))
    return failure();
  int64_t idsRank = gates ? 2 : 1;
  if (idsType->getRank() != idsRank)
    return emitOptionalError(loc, name, "'s expert_ids must be ",
                             gates ? "[T, k] with gates" : "[T] without gates",
                             ", got rank ", idsType->getRank());
  SymbolicShape inputShape = context.getShape(input);
  SymbolicShape idShape = context.getShape(ids);
  if (!context.requireEqual(idShape[0], inputShape[0]))
    return emitOptionalError(loc, name, "'s expert_ids ",
                             ShapeContext::format(idShape),
                             " do not have one row per input row ",
                             ShapeContext::format(inputShape));
  if (gates) {
    FailureOr<RankedTensorType> gatesType = getRankedType(loc, gates, "gates");
    if (failed(gatesType))
      return failure();
    Type element = cast<RankedTensorType>(input.getType()).getElementType();
    if (gatesType->getElementType() != element)
      return emitOptionalError(loc, name, "'s gates element type ",
                               gatesType->getElementType(),
                               " differs from the input's ", element);
    SymbolicShape gateShape = context.getShape(gates);
    if (gateShape.size() != 2 ||
        !context.requireEqual(gateShape[0], idShape[0]) ||
        !context.requireEqual(gateShape[1], idShape[1]))
      return emitOptionalError(
          loc, name, "'s gates ", ShapeContext::format(gateShape),
          " differ from the expert_ids' shape ", ShapeContext::format(idShape));
  }
  // Every id reads an expert: a weight without one reads nothing only when
  // there are no ids.
  return requireGatherSource(context, loc, context.getShape(weight), 0,
                             idShape);
}

/// `[T, N]` for `input` `[T, K]`, `weight` `[E, K, N]` of the input's
/// element type, and the routing `checkRouting` states.
static FailureOr<SymbolicShape>
inferGroupedMatmulShape(ShapeContext &context, std::optional<Location> loc,
                        GroupedMatmulOp::Adaptor adaptor) {
  FailureOr<RankedTensorType> inputType =
      getRankedType(loc, adaptor.getInput(), "input");
  FailureOr<RankedTensorType> weightType =
      getRankedType(loc, adaptor.getWeight(), "weight");
  if (failed(inputType) || failed(weightType))
    return failure();
  if (inputType->getRank() != 2 || weightType->getRank() != 3)
    return emitOptionalError(loc,
                             "grouped_matmul needs a [T, K] input and an "
                             "[E, K, N] weight, got ranks ",
                             inputType->getRank(), " and ",
                             weightType->getRank());
  Type element = inputType->getElementType();
  if (weightType->getElementType() != element)
    return emitOptionalError(loc, "grouped_matmul's weight element type ",
                             weightType->getElementType(),
                             " differs from the input's ", element);
  SymbolicShape input = context.getShape(adaptor.getInput());
  SymbolicShape weight = context.getShape(adaptor.getWeight());
  if (!context.requireEqual(weight[1], input[1]))
    return emitOptionalError(
        loc, "grouped_matmul's weight ", ShapeContext::format(weight),
        " does not fit the input ", ShapeContext::format(input),
        ": needs [E, K, N] for a [T, K] input");
  if (failed(checkRouting(context, loc, "grouped_matmul", adaptor.getInput(),
                          adaptor.getWeight(), adaptor.getExpertIds(),
                          adaptor.getGates())))
    return failure();
  return SymbolicShape{input[0], weight[2]};
}

LogicalResult
GroupedMatmulOp::inferReturnTypes(MLIRContext *context,
                                  std::optional<Location> loc, Adaptor adaptor,
                                  SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  return appendType(
      inferGroupedMatmulShape(shapes, loc, adaptor),
      cast<RankedTensorType>(adaptor.getInput().getType()).getElementType(),
      inferred);
}

LogicalResult
GroupedMatmulOp::inferSymbolicShapes(ShapeContext &context,
                                     SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(inferGroupedMatmulShape(context, getLoc(), Adaptor(*this)),
                     shapes);
}

//===----------------------------------------------------------------------===//
// DequantGroupedMatmulOp
//===----------------------------------------------------------------------===//

/// `[T, N]` for `input` `[T, K]` and a block-quantized `weight`
/// `[E, N, bytes]` holding rows of K values, routed as `checkRouting`
/// states.
static FailureOr<SymbolicShape>
inferDequantGroupedMatmulShape(ShapeContext &context,
                               std::optional<Location> loc,
                               DequantGroupedMatmulOp::Adaptor adaptor) {
  auto inputType = cast<RankedTensorType>(adaptor.getInput().getType());
  if (inputType.getRank() != 2)
    return emitOptionalError(loc,
                             "dequant_grouped_matmul needs a [T, K] "
                             "input, got rank ",
                             inputType.getRank());
  FailureOr<SmallVector<int64_t>> values = checkBlockWeight(
      loc, adaptor.getScheme(), adaptor.getGroupSize(), adaptor.getWeight(),
      adaptor.getScales(), adaptor.getZeroPoints(), /*rank=*/3);
  if (failed(values))
    return failure();
  int64_t n = (*values)[1], k = (*values)[2];
  SymbolicShape input = context.getShape(adaptor.getInput());
  if (!context.requireEqual(input[1], context.getConstant(k)))
    return emitOptionalError(
        loc, "input has K = ", formatSize(input[1]), " but the ",
        adaptor.getScheme(), " experts ",
        formatShape(
            cast<RankedTensorType>(adaptor.getWeight().getType()).getShape()),
        " hold rows of K = ", k);
  if (failed(checkRouting(context, loc, "dequant_grouped_matmul",
                          adaptor.getInput(), adaptor.getWeight(),
                          adaptor.getExpertIds(), adaptor.getGates())))
    return failure();
  return SymbolicShape{input[0], context.getConstant(n)};
}

LogicalResult DequantGroupedMatmulOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  return appendType(
      inferDequantGroupedMatmulShape(shapes, loc, adaptor),
      cast<RankedTensorType>(adaptor.getInput().getType()).getElementType(),
      inferred);
}

LogicalResult DequantGroupedMatmulOp::inferSymbolicShapes(
    ShapeContext &context, SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(
      inferDequantGroupedMatmulShape(context, getLoc(), Adaptor(*this)),
      shapes);
}

LogicalResult DequantGroupedMatmulOp::verify() {
  return verifyBlockScheme(*this, getScheme(), getGroupSize(), getScales(),
                           getZeroPoints());
}
