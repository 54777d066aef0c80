//===- ScatterOps.cpp - Scatters and n-d gathers: verifiers, shape rules --===//
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include "OpUtils.h"

using namespace mlir;
using namespace mlir::rlx;

//===----------------------------------------------------------------------===//
// ScatterElementsOp / ScatterAddOp
//===----------------------------------------------------------------------===//

/// The result shape of a scatter of single elements: that of `data`, with
/// `indices` and `updates` of one shape of its rank, fitting inside it
/// outside `axis`.
template <typename Adaptor>
static FailureOr<SymbolicShape>
inferScatterElementsShape(ShapeContext &context, std::optional<Location> loc,
                          Adaptor adaptor) {
  FailureOr<RankedTensorType> dataType =
      getRankedType(loc, adaptor.getData(), "data");
  FailureOr<RankedTensorType> indicesType =
      getRankedType(loc, adaptor.getIndices(), "indices");
  FailureOr<RankedTensorType> updatesType =
      getRankedType(loc, adaptor.getUpdates(), "updates");
  if (failed(dataType) || failed(indicesType) || failed(updatesType))
    return failure();
  int64_t rank = dataType->getRank();
  if (indicesType->getRank() != rank || updatesType->getRank() != rank)
    return emitOptionalError(loc,
                             "data, indices and updates must have one "
                             "rank, got ",
                             rank, ", ", indicesType->getRank(), " and ",
                             updatesType->getRank());
  FailureOr<int64_t> axis = normalizeAxis(loc, adaptor.getAxis(), rank);
  if (failed(axis))
    return failure();
  SymbolicShape data = context.getShape(adaptor.getData());
  SymbolicShape indices = context.getShape(adaptor.getIndices());
  SymbolicShape updates = context.getShape(adaptor.getUpdates());
  for (int64_t d = 0; d < rank; ++d)
    if (!context.requireEqual(updates[d], indices[d]))
      return emitOptionalError(
          loc, "updates shape ", ShapeContext::format(updates),
          " differs from indices shape ", ShapeContext::format(indices));
  for (int64_t d = 0; d < rank; ++d)
    if (d != *axis && !context.requireLessEqual(indices[d], data[d]))
      return emitOptionalError(
          loc, "indices shape ", ShapeContext::format(indices),
          " is larger than the data shape ", ShapeContext::format(data),
          " in dimension ", d, ", which is not the scatter axis");
  return data;
}

LogicalResult ScatterElementsOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  return appendType(
      inferScatterElementsShape(shapes, loc, adaptor),
      cast<RankedTensorType>(adaptor.getData().getType()).getElementType(),
      inferred);
}

LogicalResult
ScatterElementsOp::inferSymbolicShapes(ShapeContext &context,
                                       SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(
      inferScatterElementsShape(context, getLoc(), Adaptor(*this)), shapes);
}

LogicalResult ScatterAddOp::inferReturnTypes(MLIRContext *context,
                                             std::optional<Location> loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  return appendType(
      inferScatterElementsShape(shapes, loc, adaptor),
      cast<RankedTensorType>(adaptor.getData().getType()).getElementType(),
      inferred);
}

LogicalResult
ScatterAddOp::inferSymbolicShapes(ShapeContext &context,
                                  SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(
      inferScatterElementsShape(context, getLoc(), Adaptor(*this)), shapes);
}

//===----------------------------------------------------------------------===//
// GatherNdOp / ScatterNdOp
//===----------------------------------------------------------------------===//

/// The shape of the slices that n-d `indices` address in `data` with
/// `batchDims` leading batch dimensions: `indices.shape[:-1] +
/// data.shape[b + k:]`, after checking the batch and the depth `k`.
static FailureOr<SymbolicShape>
inferNdSliceShape(ShapeContext &context, std::optional<Location> loc,
                  Value dataValue, Value indicesValue, int64_t batchDims) {
  FailureOr<RankedTensorType> dataType = getRankedType(loc, dataValue, "data");
  FailureOr<RankedTensorType> indicesType =
      getRankedType(loc, indicesValue, "indices");
  if (failed(dataType) || failed(indicesType))
    return failure();
  int64_t rank = dataType->getRank();
  int64_t indexRank = indicesType->getRank();
  if (batchDims < 0 || indexRank < batchDims + 1)
    return emitOptionalError(loc, "batch_dims ", batchDims,
                             " needs indices of rank at least ", batchDims + 1,
                             " (the batch, then the coordinates), got rank ",
                             indexRank);
  int64_t depth = indicesType->getShape().back();
  if (ShapedType::isDynamic(depth))
    return emitOptionalError(loc, "the last dimension of indices (the number "
                                  "of coordinates) must be static");
  if (depth == 0 || batchDims + depth > rank)
    return emitOptionalError(loc, "indices address ", depth,
                             " dimensions after ", batchDims,
                             " batch dimensions of rank-", rank,
                             " data: need 0 < k <= ", rank - batchDims);
  SymbolicShape data = context.getShape(dataValue);
  SymbolicShape indices = context.getShape(indicesValue);
  for (int64_t d = 0; d < batchDims; ++d)
    if (!context.requireEqual(indices[d], data[d]))
      return emitOptionalError(
          loc, "indices batch dimension ", d, " (", formatSize(indices[d]),
          ") differs from data's (", formatSize(data[d]), ")");
  SymbolicShape slices(ArrayRef<AffineExpr>(indices).drop_back());
  llvm::append_range(slices,
                     ArrayRef<AffineExpr>(data).drop_front(batchDims + depth));
  return slices;
}

static FailureOr<SymbolicShape>
inferGatherNdShape(ShapeContext &context, std::optional<Location> loc,
                   GatherNdOp::Adaptor adaptor) {
  FailureOr<SymbolicShape> result =
      inferNdSliceShape(context, loc, adaptor.getData(), adaptor.getIndices(),
                        adaptor.getBatchDims());
  if (failed(result))
    return failure();
  SymbolicShape data = context.getShape(adaptor.getData());
  SymbolicShape indices = context.getShape(adaptor.getIndices());
  int64_t depth =
      cast<RankedTensorType>(adaptor.getIndices().getType()).getShape().back();
  for (int64_t j = 0; j < depth; ++j)
    if (failed(requireGatherSource(context, loc, data,
                                   adaptor.getBatchDims() + j, indices)))
      return failure();
  return result;
}

LogicalResult GatherNdOp::inferReturnTypes(MLIRContext *context,
                                           std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  return appendType(
      inferGatherNdShape(shapes, loc, adaptor),
      cast<RankedTensorType>(adaptor.getData().getType()).getElementType(),
      inferred);
}

LogicalResult
GatherNdOp::inferSymbolicShapes(ShapeContext &context,
                                SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(inferGatherNdShape(context, getLoc(), Adaptor(*this)),
                     shapes);
}

static FailureOr<SymbolicShape>
inferScatterNdShape(ShapeContext &context, std::optional<Location> loc,
                    ScatterNdOp::Adaptor adaptor) {
  FailureOr<SymbolicShape> slices =
      inferNdSliceShape(context, loc, adaptor.getData(), adaptor.getIndices(),
                        adaptor.getBatchDims());
  if (failed(slices) ||
      failed(getRankedType(loc, adaptor.getUpdates(), "updates")))
    return failure();
  SymbolicShape updates = context.getShape(adaptor.getUpdates());
  bool matches = updates.size() == slices->size();
  for (size_t d = 0; matches && d < updates.size(); ++d)
    matches = context.requireEqual(updates[d], (*slices)[d]);
  if (!matches)
    return emitOptionalError(
        loc, "updates shape ", ShapeContext::format(updates), " is not ",
        ShapeContext::format(*slices),
        ", the indices' shape without its last dimension followed by the "
        "data's shape after the addressed dimensions");
  return context.getShape(adaptor.getData());
}

LogicalResult ScatterNdOp::inferReturnTypes(MLIRContext *context,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  return appendType(
      inferScatterNdShape(shapes, loc, adaptor),
      cast<RankedTensorType>(adaptor.getData().getType()).getElementType(),
      inferred);
}

LogicalResult
ScatterNdOp::inferSymbolicShapes(ShapeContext &context,
                                 SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(inferScatterNdShape(context, getLoc(), Adaptor(*this)),
                     shapes);
}
