//===- BodyGenerics.cpp - Region bodies as linalg generics ----------------===//
#include "rlx/Dialect/Rlx/IR/BodyGenerics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

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
    exprs.push_back(size != shape[lead + d]
                        ? getAffineConstantExpr(0, context)
                        : getAffineDimExpr(lead + d, context));
  return AffineMap::get(shape.size(), 0, exprs, context);
}

Value mlir::rlx::createEmptyTensor(OpBuilder &b, Location loc,
                                   RankedTensorType type) {
  return tensor::EmptyOp::create(b, loc, type.getShape(),
                                 type.getElementType());
}

Value mlir::rlx::createFilledTensor(OpBuilder &b, Location loc,
                                    RankedTensorType type, Value value) {
  Value empty = createEmptyTensor(b, loc, type);
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
  for (auto [i, result] : llvm::enumerate(results)) {
    auto type = RankedTensorType::get(shape, getElementType(result));
    if (inits.empty())
      outs.push_back(createEmptyTensor(b, loc, type));
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

RankedTensorType mlir::rlx::getAccumulatorType(ArrayRef<int64_t> shape,
                                               ArrayRef<int64_t> axes,
                                               Type type) {
  SmallVector<int64_t> kept;
  for (auto [d, size] : llvm::enumerate(shape))
    if (!llvm::is_contained(axes, static_cast<int64_t>(d)))
      kept.push_back(size);
  return RankedTensorType::get(kept, type);
}

AffineMap mlir::rlx::getAccumulatorMap(MLIRContext *context, int64_t rank,
                                       ArrayRef<int64_t> axes) {
  SmallVector<AffineExpr> kept;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(axes, d))
      kept.push_back(getAffineDimExpr(d, context));
  return AffineMap::get(rank, 0, kept, context);
}

int64_t mlir::rlx::getReducedCount(ArrayRef<int64_t> shape,
                                   ArrayRef<int64_t> axes) {
  int64_t count = 1;
  for (int64_t axis : axes)
    count *= shape[axis];
  return count;
}

/// A tensor of `type` filled with `reduction`'s identity.
static Value createIdentityTensor(OpBuilder &b, Location loc,
                                  ReductionOpInterface reduction,
                                  RankedTensorType type) {
  ScalarBuilder scalar(b, loc);
  return createFilledTensor(
      b, loc, type, reduction.buildIdentity(scalar, type.getElementType()));
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
  for (ReductionOpInterface reduction : reductions) {
    Type accType =
        ScalarBuilder::computeType(getElementType(reduction.getReducedInput()));
    inits.push_back(createIdentityTensor(
        b, loc, reduction, getAccumulatorType(shape, axes, accType)));
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
