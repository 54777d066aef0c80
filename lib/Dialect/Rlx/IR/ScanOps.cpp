//===- ScanOps.cpp - Index reductions, scans and top-k: verifiers, shape inference ---===//
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include "OpUtils.h"

#include <limits>

using namespace mlir;
using namespace mlir::rlx;

/// Fails with an error naming `op` unless `axis` is in [-rank, rank).
static LogicalResult verifyAxis(Operation *op, int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    return op->emitOpError("axis ")
           << axis << " is out of range for rank " << rank;
  return success();
}

//===----------------------------------------------------------------------===//
// ArgMaxOp / ArgMinOp
//===----------------------------------------------------------------------===//

template <typename OpTy>
static LogicalResult verifyArgReduce(OpTy op) {
  RankedTensorType input = op.getInput().getType();
  RankedTensorType result = op.getType();
  if (failed(verifyAxis(op, op.getAxis(), input.getRank())))
    return failure();
  int64_t axis = op.getNormalizedAxis();
  int64_t length = input.getDimSize(axis);
  if (length == 0)
    return op.emitOpError("axis ")
           << op.getAxis() << " of " << input << " is empty: it has no "
           << (std::is_same_v<OpTy, ArgMaxOp> ? "maximum" : "minimum");
  if (result.getElementType().isInteger(32) &&
      length > std::numeric_limits<int32_t>::max())
    return op.emitOpError("an i32 result cannot index axis ")
           << op.getAxis() << " of length " << length;
  SmallVector<int64_t> shape;
  for (auto [d, size] : llvm::enumerate(input.getShape())) {
    if (static_cast<int64_t>(d) != axis)
      shape.push_back(size);
    else if (op.getKeepDim())
      shape.push_back(1);
  }
  if (result.getShape() != ArrayRef<int64_t>(shape))
    return op.emitOpError("result shape ")
           << formatShape(result.getShape()) << " should be "
           << formatShape(shape) << " (axis " << op.getAxis()
           << (op.getKeepDim() ? " kept as size 1" : " dropped") << ")";
  return success();
}

LogicalResult ArgMaxOp::verify() { return verifyArgReduce(*this); }

LogicalResult ArgMinOp::verify() { return verifyArgReduce(*this); }

//===----------------------------------------------------------------------===//
// CumsumOp / CumprodOp / CummaxOp
//===----------------------------------------------------------------------===//

template <typename OpTy>
static LogicalResult verifyScanAxis(OpTy op) {
  return verifyAxis(op, op.getAxis(), op.getType().getRank());
}

LogicalResult CumsumOp::verify() { return verifyScanAxis(*this); }

LogicalResult CumprodOp::verify() { return verifyScanAxis(*this); }

LogicalResult CummaxOp::verify() { return verifyScanAxis(*this); }

//===----------------------------------------------------------------------===//
// TopKOp
//===----------------------------------------------------------------------===//

LogicalResult TopKOp::inferReturnTypes(MLIRContext *context,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  auto input = dyn_cast<RankedTensorType>(adaptor.getInput().getType());
  if (!input)
    return emitOptionalError(loc, "expected a ranked tensor input");
  if (input.getRank() == 0)
    return emitOptionalError(loc, "topk needs an input of rank >= 1, got ",
                             input);
  int64_t k = adaptor.getK();
  int64_t length = input.getShape().back();
  if (k <= 0 || k > length)
    return emitOptionalError(loc, "k = ", k, " is not in [1, ", length,
                             "], the length of the last axis of ", input);
  SmallVector<int64_t> shape(input.getShape());
  shape.back() = k;
  inferred.push_back(RankedTensorType::get(shape, input.getElementType()));
  inferred.push_back(RankedTensorType::get(shape, IntegerType::get(context, 64)));
  return success();
}
