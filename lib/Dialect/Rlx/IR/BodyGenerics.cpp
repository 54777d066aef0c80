//===- BodyGenerics.cpp - Region bodies as linalg generics ----------------===//
#include "rlx/Dialect/Rlx/IR/BodyGenerics.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::rlx;

/// Binds a generic's block arguments to the body's `leaves` and emits
/// `ops` on their elements: the scalars of the body's values.
static IRMapping emitBodyOps(ScalarBuilder &scalar, ArrayRef<Value> leaves,
                             ValueRange args, ArrayRef<Operation *> ops) {
  IRMapping scalars;
  for (auto [leaf, element] : llvm::zip(leaves, args))
    bindElement(scalar, scalars, leaf, element);
  for (Operation *op : ops)
    emitScalarOp(scalar, op, scalars);
  return scalars;
}

AffineMap mlir::rlx::getBroadcastIndexingMap(RankedTensorType operand,
                                             ArrayRef<int64_t> shape) {
  MLIRContext *context = operand.getContext();
  int64_t lead = shape.size() - operand.getRank();
  SmallVector<AffineExpr> exprs;
  for (auto [d, size] : llvm::enumerate(operand.getShape()))
    exprs.push_back(size == 1 && shape[lead + d] != 1
                        ? getAffineConstantExpr(0, context)
                        : getAffineDimExpr(lead + d, context));
  return AffineMap::get(shape.size(), 0, exprs, context);
}

Value mlir::rlx::createEmptyTensor(OpBuilder &b, Location loc,
                                   RankedTensorType type) {
  return tensor::EmptyOp::create(b, loc, type.getShape(),
                                 type.getElementType());
}

Value mlir::rlx::createEmptyTensor(OpBuilder &b, Location loc,
                                   ArrayRef<OpFoldResult> sizes,
                                   Type elementType) {
  return tensor::EmptyOp::create(b, loc, sizes, elementType);
}

SmallVector<OpFoldResult> mlir::rlx::getLoopSizes(OpBuilder &b, Location loc,
                                                  ArrayRef<int64_t> shape,
                                                  ValueRange tensors,
                                                  ArrayRef<AffineMap> maps) {
  SmallVector<OpFoldResult> sizes;
  for (auto [loop, size] : llvm::enumerate(shape)) {
    if (!ShapedType::isDynamic(size)) {
      sizes.push_back(b.getIndexAttr(size));
      continue;
    }
    OpFoldResult found;
    for (auto [tensor, map] : llvm::zip(tensors, maps)) {
      std::optional<unsigned> position =
          map.getResultPosition(getAffineDimExpr(loop, b.getContext()));
      if (position && getTensorType(tensor).isDynamicDim(*position)) {
        found = b.createOrFold<tensor::DimOp>(loc, tensor, *position);
        break;
      }
    }
    assert(found && "a `?` loop is a `?` dimension of a tensor it reads");
    sizes.push_back(found);
  }
  return sizes;
}

Value mlir::rlx::createFilledTensor(OpBuilder &b, Location loc,
                                    RankedTensorType type, Value value) {
  Value empty = createEmptyTensor(b, loc, type);
  return linalg::FillOp::create(b, loc, value, empty).getResult(0);
}

Value mlir::rlx::createFilledTensor(OpBuilder &b, Location loc,
                                    ArrayRef<OpFoldResult> sizes, Value value) {
  Value empty = createEmptyTensor(b, loc, sizes, value.getType());
  return linalg::FillOp::create(b, loc, value, empty).getResult(0);
}

SmallVector<ReassociationIndices>
mlir::rlx::getKeepDimReassociation(int64_t rank, ArrayRef<int64_t> axes) {
  SmallVector<ReassociationIndices> groups;
  ReassociationIndices leading;
  for (int64_t d = 0; d < rank; ++d) {
    if (!llvm::is_contained(axes, d)) {
      groups.push_back(leading);
      leading.clear();
      groups.back().push_back(d);
    } else if (groups.empty()) {
      leading.push_back(d);
    } else {
      groups.back().push_back(d);
    }
  }
  return groups;
}

Value mlir::rlx::roundTo(ScalarBuilder &b, Value value, Type storage) {
  return b.convert(b.convert(value, storage),
                   ScalarBuilder::computeType(storage));
}

void mlir::rlx::emitScalarOp(ScalarBuilder &b, Operation *op,
                             IRMapping &scalars) {
  SmallVector<Value> operands = llvm::to_vector(llvm::map_range(
      op->getOperands(), [&](Value v) { return scalars.lookup(v); }));
  Value result = cast<ScalarComputeOpInterface>(op).buildScalar(b, operands);
  scalars.map(op->getResult(0),
              roundTo(b, result, getElementType(op->getResult(0))));
}

void mlir::rlx::bindElement(ScalarBuilder &b, IRMapping &scalars, Value value,
                            Value element) {
  scalars.map(
      value, b.convert(element, ScalarBuilder::computeType(element.getType())));
}

/// The maps reading `tensors` broadcast numpy-style to `shape`.
static SmallVector<AffineMap>
getBroadcastIndexingMaps(ArrayRef<Value> tensors, ArrayRef<int64_t> shape) {
  return llvm::map_to_vector(tensors, [&](Value tensor) {
    return getBroadcastIndexingMap(getTensorType(tensor), shape);
  });
}

linalg::GenericOp mlir::rlx::emitElementwiseGeneric(
    OpBuilder &b, Location loc, ArrayRef<int64_t> shape, ArrayRef<Value> leaves,
    ArrayRef<Value> tensors, ArrayRef<Operation *> ops, ArrayRef<Value> results,
    ValueRange inits) {
  return emitElementwiseGeneric(b, loc, shape, leaves, tensors,
                                getBroadcastIndexingMaps(tensors, shape), ops,
                                results, inits);
}

linalg::GenericOp mlir::rlx::emitElementwiseGeneric(
    OpBuilder &b, Location loc, ArrayRef<int64_t> shape, ArrayRef<Value> leaves,
    ArrayRef<Value> tensors, ArrayRef<AffineMap> tensorMaps,
    ArrayRef<Operation *> ops, ArrayRef<Value> results, ValueRange inits) {
  int64_t rank = shape.size();
  SmallVector<AffineMap> maps(tensorMaps);
  SmallVector<Value> outs(inits);
  SmallVector<Type> resultTypes;
  SmallVector<OpFoldResult> sizes;
  if (inits.empty())
    sizes = getLoopSizes(b, loc, shape, tensors, tensorMaps);
  for (auto [i, result] : llvm::enumerate(results)) {
    if (inits.empty())
      outs.push_back(createEmptyTensor(b, loc, sizes, getElementType(result)));
    resultTypes.push_back(outs[i].getType());
    maps.push_back(b.getMultiDimIdentityMap(rank));
  }
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
      b, loc, resultTypes, tensors, outs, maps, iterators,
      [&](OpBuilder &nested, Location bodyLoc, ValueRange args) {
        ScalarBuilder scalar(nested, bodyLoc);
        IRMapping scalars = emitBodyOps(scalar, leaves, args, ops);
        SmallVector<Value> yielded;
        for (Value result : results)
          yielded.push_back(
              scalar.convert(scalars.lookup(result), getElementType(result)));
        linalg::YieldOp::create(nested, bodyLoc, yielded);
      });
}

AffineMap mlir::rlx::getAccumulatorMap(MLIRContext *context, int64_t rank,
                                       ArrayRef<int64_t> axes) {
  SmallVector<AffineExpr> kept;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(axes, d))
      kept.push_back(getAffineDimExpr(d, context));
  return AffineMap::get(rank, 0, kept, context);
}

OpFoldResult mlir::rlx::getReducedCount(OpBuilder &b, Location loc,
                                        ArrayRef<OpFoldResult> sizes,
                                        ArrayRef<int64_t> axes) {
  AffineExpr product = getAffineConstantExpr(1, b.getContext());
  SmallVector<OpFoldResult> operands;
  for (int64_t axis : axes) {
    product = product * getAffineSymbolExpr(operands.size(), b.getContext());
    operands.push_back(sizes[axis]);
  }
  // A product of two dynamic sizes is not affine.
  if (llvm::count_if(operands, [](OpFoldResult size) {
        return !getConstantIntValue(size);
      }) > 1) {
    Value count = arith::ConstantIndexOp::create(b, loc, 1);
    for (OpFoldResult size : operands)
      count = b.createOrFold<arith::MulIOp>(
          loc, count, getValueOrCreateConstantIndexOp(b, loc, size));
    return count;
  }
  return affine::makeComposedFoldedAffineApply(
      b, loc, AffineMap::get(0, operands.size(), product), operands);
}

/// A tensor of `sizes` filled with `reduction`'s identity in `type`.
static Value createIdentityTensor(OpBuilder &b, Location loc,
                                  ReductionOpInterface reduction,
                                  ArrayRef<OpFoldResult> sizes, Type type) {
  ScalarBuilder scalar(b, loc);
  Value empty = createEmptyTensor(b, loc, sizes, type);
  return linalg::FillOp::create(b, loc, reduction.buildIdentity(scalar, type),
                                empty)
      .getResult(0);
}

linalg::GenericOp mlir::rlx::emitReductionGeneric(
    OpBuilder &b, Location loc, ArrayRef<int64_t> shape, ArrayRef<int64_t> axes,
    ArrayRef<Value> leaves, ValueRange tensors, ArrayRef<Operation *> ops,
    ArrayRef<ReductionOpInterface> reductions) {
  SmallVector<Value> tensorList(tensors);
  return emitReductionGeneric(b, loc, shape, axes, leaves, tensors,
                              getBroadcastIndexingMaps(tensorList, shape), ops,
                              reductions);
}

linalg::GenericOp mlir::rlx::emitReductionGeneric(
    OpBuilder &b, Location loc, ArrayRef<int64_t> shape, ArrayRef<int64_t> axes,
    ArrayRef<Value> leaves, ValueRange tensors, ArrayRef<AffineMap> tensorMaps,
    ArrayRef<Operation *> ops, ArrayRef<ReductionOpInterface> reductions) {
  int64_t rank = shape.size();
  SmallVector<AffineMap> maps(tensorMaps);
  SmallVector<Value> inits;
  AffineMap accMap = getAccumulatorMap(b.getContext(), rank, axes);
  SmallVector<OpFoldResult> loopSizes =
      getLoopSizes(b, loc, shape, tensors, tensorMaps);
  SmallVector<OpFoldResult> accSizes;
  for (auto [d, size] : llvm::enumerate(loopSizes))
    if (!llvm::is_contained(axes, static_cast<int64_t>(d)))
      accSizes.push_back(size);
  for (ReductionOpInterface reduction : reductions) {
    Type accType =
        ScalarBuilder::computeType(getElementType(reduction.getReducedInput()));
    inits.push_back(createIdentityTensor(b, loc, reduction, accSizes, accType));
    maps.push_back(accMap);
  }
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  for (int64_t axis : axes)
    iterators[axis] = utils::IteratorType::reduction;
  return linalg::GenericOp::create(
      b, loc, ValueRange(inits).getTypes(), tensors, inits, maps, iterators,
      [&](OpBuilder &nested, Location bodyLoc, ValueRange args) {
        ScalarBuilder scalar(nested, bodyLoc);
        IRMapping scalars = emitBodyOps(scalar, leaves, args, ops);
        SmallVector<Value> combined;
        for (auto [i, acc] : llvm::enumerate(args.drop_front(leaves.size()))) {
          ReductionOpInterface reduction = reductions[i];
          combined.push_back(reduction.buildCombine(
              scalar, acc, scalars.lookup(reduction.getReducedInput())));
        }
        linalg::YieldOp::create(nested, bodyLoc, combined);
      });
}
