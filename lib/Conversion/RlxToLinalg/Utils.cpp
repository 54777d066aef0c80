//===- Utils.cpp - Helpers shared by the rlx-to-linalg patterns -----------===//
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"
#include "rlx/Dialect/Rlx/IR/ScalarBuilder.h"

using namespace mlir;
using namespace mlir::rlx;

AffineMap mlir::rlx::getLoopsMap(MLIRContext *context, int64_t numLoops,
                                 ArrayRef<int64_t> dims) {
  SmallVector<AffineExpr> exprs;
  for (int64_t d : dims)
    exprs.push_back(getAffineDimExpr(d, context));
  return AffineMap::get(numLoops, 0, exprs, context);
}

SmallVector<OpFoldResult> mlir::rlx::getResultSizes(OpBuilder &b, Operation *op,
                                                    unsigned result) {
  auto type = cast<RankedTensorType>(op->getResult(result).getType());
  if (type.hasStaticShape())
    return getAsIndexOpFoldResult(b.getContext(), type.getShape());
  ReifiedRankedShapedTypeDims sizes;
  LogicalResult reified = reifyResultShapes(b, op, sizes);
  assert(succeeded(reified) && "rlx ops with `?` sizes have a shape rule");
  (void)reified;
  return sizes[result];
}

Value mlir::rlx::createIndexedCopy(OpBuilder &b, Location loc, Value input,
                                   AffineMap inputMap,
                                   RankedTensorType resultType,
                                   ArrayRef<OpFoldResult> sizes) {
  int64_t rank = resultType.getRank();
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  Value init = sizes.empty() ? createEmptyTensor(b, loc, resultType)
                             : createEmptyTensor(b, loc, sizes,
                                                 resultType.getElementType());
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), input, init,
      ArrayRef<AffineMap>{inputMap, b.getMultiDimIdentityMap(rank)}, iterators,
      [](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        linalg::YieldOp::create(nested, nestedLoc, args[0]);
      });
  return generic.getResult(0);
}

Value mlir::rlx::mapElements(
    OpBuilder &b, Location loc, Value input, RankedTensorType resultType,
    function_ref<Value(OpBuilder &, Location, Value)> convert) {
  int64_t rank = resultType.getRank();
  AffineMap identity = b.getMultiDimIdentityMap(rank);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  Value init = createEmptyTensor(b, loc, tensor::getMixedSizes(b, loc, input),
                                 resultType.getElementType());
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), input, init,
      ArrayRef<AffineMap>{identity, identity}, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        linalg::YieldOp::create(nested, nestedLoc,
                                convert(nested, nestedLoc, args[0]));
      });
  return generic.getResult(0);
}

Value mlir::rlx::convertElements(OpBuilder &b, Location loc, Value input,
                                 Type elementType) {
  auto type = cast<RankedTensorType>(input.getType());
  if (type.getElementType() == elementType)
    return input;
  return mapElements(b, loc, input, type.clone(elementType),
                     [&](OpBuilder &nested, Location nestedLoc, Value x) {
                       return ScalarBuilder(nested, nestedLoc)
                           .convert(x, elementType);
                     });
}

Value mlir::rlx::appendUnitDim(OpBuilder &b, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape.push_back(1);
  SmallVector<ReassociationIndices> reassociation;
  for (int64_t d = 0; d < type.getRank(); ++d)
    reassociation.push_back({d});
  if (!reassociation.empty())
    reassociation.back().push_back(type.getRank());
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, value);
  sizes.push_back(b.getIndexAttr(1));
  return tensor::ExpandShapeOp::create(b, loc, type.clone(shape), value,
                                       reassociation, sizes);
}

Value mlir::rlx::createScatter(
    OpBuilder &b, Location loc, Value updates, Value indices, Value init,
    ArrayRef<int64_t> loopDims, ArrayRef<int64_t> indexLoops,
    ArrayRef<int64_t> indexDims, bool clampIndices,
    function_ref<Value(ScalarBuilder &, Value update, Value current)> combine) {
  auto scatter =
      ScatterOp::create(b, loc, init.getType(), updates, indices, init,
                        loopDims, indexLoops, indexDims, clampIndices);
  Type updateType = getElementTypeOrSelf(updates.getType());
  Type elementType = getElementTypeOrSelf(init.getType());
  OpBuilder::InsertionGuard guard(b);
  Block *body = b.createBlock(&scatter.getCombiner(), {},
                              {updateType, elementType}, {loc, loc});
  ScalarBuilder scalar(b, loc);
  YieldOp::create(b, loc,
                  combine(scalar, body->getArgument(0), body->getArgument(1)));
  return scatter.getResult();
}

RankedTensorType mlir::rlx::getLineType(Value tensor, int64_t axis) {
  auto type = cast<RankedTensorType>(tensor.getType());
  return RankedTensorType::get({type.getDimSize(axis)}, type.getElementType());
}

Value mlir::rlx::createEmptyLine(OpBuilder &b, Location loc,
                                 RankedTensorType like, Value n) {
  OpFoldResult length = like.isDynamicDim(0)
                            ? OpFoldResult(n)
                            : OpFoldResult(b.getIndexAttr(like.getDimSize(0)));
  return tensor::EmptyOp::create(b, loc, length, like.getElementType());
}

SmallVector<Value> mlir::rlx::buildLineLoop(
    OpBuilder &b, Location loc, Value input, int64_t axis, ValueRange inits,
    function_ref<SmallVector<Value>(OpBuilder &, Location, Value, ValueRange)>
        body) {
  int64_t rank = cast<RankedTensorType>(input.getType()).getRank();
  if (rank == 1)
    return body(b, loc, input, inits);

  SmallVector<OpFoldResult> lines = tensor::getMixedSizes(b, loc, input);
  lines.erase(lines.begin() + axis);
  auto forall =
      scf::ForallOp::create(b, loc, lines, inits, /*mapping=*/std::nullopt);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(forall.getBody());
  // The line at the loop's position: every other dimension at its induction
  // variable, the axis whole.
  SmallVector<OpFoldResult> offsets, strides(rank, b.getIndexAttr(1));
  SmallVector<Value> ivs = forall.getInductionVars();
  for (int64_t d = 0, iv = 0; d < rank; ++d)
    offsets.push_back(d == axis ? OpFoldResult(b.getIndexAttr(0))
                                : OpFoldResult(ivs[iv++]));
  auto lineSizes = [&](Value tensor) {
    SmallVector<OpFoldResult> sizes(rank, b.getIndexAttr(1));
    sizes[axis] = tensor::getMixedSize(b, loc, tensor, axis);
    return sizes;
  };
  auto extractLine = [&](Value tensor) -> Value {
    return tensor::ExtractSliceOp::create(b, loc, getLineType(tensor, axis),
                                          tensor, offsets, lineSizes(tensor),
                                          strides);
  };
  Value line = extractLine(input);
  SmallVector<Value> lineInits =
      llvm::map_to_vector(forall.getRegionIterArgs(), extractLine);
  SmallVector<Value> results = body(b, loc, line, lineInits);
  // The terminator holds nothing but the inserts: sizes are read before it.
  SmallVector<SmallVector<OpFoldResult>> insertSizes =
      llvm::map_to_vector(forall.getRegionIterArgs(), lineSizes);
  b.setInsertionPointToStart(forall.getTerminator().getBody());
  for (auto [result, dest, sizes] :
       llvm::zip_equal(results, forall.getRegionIterArgs(), insertSizes))
    tensor::ParallelInsertSliceOp::create(b, loc, result, dest, offsets, sizes,
                                          strides);
  return forall.getResults();
}
