//===- MoeOps.cpp - Mixture-of-experts ops: verifiers, shape rules --------===//
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include "OpUtils.h"

using namespace mlir;
using namespace mlir::rlx;

//===----------------------------------------------------------------------===//
// GroupedMatmulOp
//===----------------------------------------------------------------------===//

/// `[T, N]` for `input` `[T, K]`, `weight` `[E, K, N]`, `expert_ids` `[T]`
/// (or `[T, k]` with `gates` `[T, k]`), one element type for the floats.
static FailureOr<SymbolicShape>
inferGroupedMatmulShape(ShapeContext &context, std::optional<Location> loc,
                        GroupedMatmulOp::Adaptor adaptor) {
  FailureOr<RankedTensorType> inputType =
      getRankedType(loc, adaptor.getInput(), "input");
  FailureOr<RankedTensorType> weightType =
      getRankedType(loc, adaptor.getWeight(), "weight");
  FailureOr<RankedTensorType> idsType =
      getRankedType(loc, adaptor.getExpertIds(), "expert_ids");
  if (failed(inputType) || failed(weightType) || failed(idsType))
    return failure();
  Value gates = adaptor.getGates();
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
  int64_t idsRank = gates ? 2 : 1;
  if (idsType->getRank() != idsRank)
    return emitOptionalError(loc, "grouped_matmul's expert_ids must be ",
                             gates ? "[T, k] with gates" : "[T] without gates",
                             ", got rank ", idsType->getRank());
  SymbolicShape input = context.getShape(adaptor.getInput());
  SymbolicShape weight = context.getShape(adaptor.getWeight());
  SymbolicShape ids = context.getShape(adaptor.getExpertIds());
  if (!context.requireEqual(weight[1], input[1]))
    return emitOptionalError(
        loc, "grouped_matmul's weight ", ShapeContext::format(weight),
        " does not fit the input ", ShapeContext::format(input),
        ": needs [E, K, N] for a [T, K] input");
  if (!context.requireEqual(ids[0], input[0]))
    return emitOptionalError(
        loc, "grouped_matmul's expert_ids ", ShapeContext::format(ids),
        " do not have one row per input row ", ShapeContext::format(input));
  if (gates) {
    FailureOr<RankedTensorType> gatesType = getRankedType(loc, gates, "gates");
    if (failed(gatesType))
      return failure();
    if (gatesType->getElementType() != element)
      return emitOptionalError(loc, "grouped_matmul's gates element type ",
                               gatesType->getElementType(),
                               " differs from the input's ", element);
    SymbolicShape gateShape = context.getShape(gates);
    if (gateShape.size() != 2 || !context.requireEqual(gateShape[0], ids[0]) ||
        !context.requireEqual(gateShape[1], ids[1]))
      return emitOptionalError(
          loc, "grouped_matmul's gates ", ShapeContext::format(gateShape),
          " differ from the expert_ids' shape ", ShapeContext::format(ids));
  }
  // Every id reads an expert: a weight without one reads nothing only when
  // there are no ids.
  if (failed(requireGatherSource(context, loc, weight, 0, ids)))
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
