//===- Utils.cpp - Helpers shared by the rlx-to-linalg patterns -----------===//
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
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

Value mlir::rlx::createIndexedCopy(OpBuilder &b, Location loc, Value input,
                                   AffineMap inputMap,
                                   RankedTensorType resultType) {
  int64_t rank = resultType.getRank();
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, resultType, input, createEmptyTensor(b, loc, resultType),
      ArrayRef<AffineMap>{inputMap, b.getMultiDimIdentityMap(rank)},
      iterators, [](OpBuilder &nested, Location nestedLoc, ValueRange args) {
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
  auto generic = linalg::GenericOp::create(
      b, loc, resultType, input, createEmptyTensor(b, loc, resultType),
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
