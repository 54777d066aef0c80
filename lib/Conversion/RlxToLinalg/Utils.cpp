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

Value mlir::rlx::createLineLoop(
    OpBuilder &b, Location loc, int64_t axis, Value out,
    function_ref<Value(OpBuilder &, Location, ArrayRef<Value>, Value)>
        buildLine) {
  auto type = cast<RankedTensorType>(out.getType());
  SmallVector<OpFoldResult> lineCounts;
  for (auto [d, size] : llvm::enumerate(type.getShape()))
    if (static_cast<int64_t>(d) != axis)
      lineCounts.push_back(b.getIndexAttr(size));
  // A single line needs no loop (canonicalization would fold it away).
  if (lineCounts.empty()) {
    Value start = arith::ConstantIndexOp::create(b, loc, 0);
    return buildLine(b, loc, start, out);
  }

  auto forall = scf::ForallOp::create(
      b, loc, lineCounts, out, /*mapping=*/std::nullopt,
      [&](OpBuilder &nested, Location bodyLoc, ValueRange args) {
        ValueRange ivs = args.drop_back();
        Value sharedOut = args.back();
        Value zero = arith::ConstantIndexOp::create(nested, bodyLoc, 0);
        SmallVector<Value> start;
        SmallVector<OpFoldResult> offsets, sizes;
        for (int64_t d = 0, next = 0; d < type.getRank(); ++d) {
          start.push_back(d == axis ? zero : ivs[next++]);
          offsets.push_back(start.back());
          sizes.push_back(nested.getIndexAttr(d == axis ? type.getDimSize(d)
                                                        : 1));
        }
        SmallVector<OpFoldResult> strides(type.getRank(),
                                          nested.getIndexAttr(1));
        auto lineType = RankedTensorType::get({type.getDimSize(axis)},
                                              type.getElementType());
        Value line = tensor::ExtractSliceOp::create(
            nested, bodyLoc, lineType, sharedOut, offsets, sizes, strides);
        Value updated = buildLine(nested, bodyLoc, start, line);
        auto inParallel = scf::InParallelOp::create(nested, bodyLoc);
        nested.setInsertionPointToStart(inParallel.getBody());
        tensor::ParallelInsertSliceOp::create(nested, bodyLoc, updated,
                                              sharedOut, offsets, sizes,
                                              strides);
      });
  return forall.getResult(0);
}
