//===- IndexingOps.cpp - Indexing and data movement ops: verifiers, shape inference ---===//
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include "OpUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace mlir::rlx;

/// `axis` normalized from [-rank, rank) to [0, rank), or an op error naming
/// it as `what`.
static FailureOr<int64_t> verifyAxis(Operation *op, int64_t axis, int64_t rank,
                                     StringRef what) {
  if (axis < -rank || axis >= rank)
    return op->emitOpError(what)
           << " " << axis << " is out of range for rank " << rank;
  return axis < 0 ? axis + rank : axis;
}

//===----------------------------------------------------------------------===//
// GatherOp / GatherElementsOp
//===----------------------------------------------------------------------===//

Value GatherOp::createRowIndex(OpBuilder &b, Location loc, Value rawIndex,
                               OpFoldResult axisSize) {
  Value index = arith::IndexCastOp::create(b, loc, b.getIndexType(), rawIndex);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value negative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, index, zero);
  Value size = getValueOrCreateConstantIndexOp(b, loc, axisSize);
  Value wrapped = arith::AddIOp::create(b, loc, index, size);
  index = arith::SelectOp::create(b, loc, negative, wrapped, index);
  Value low = arith::MaxSIOp::create(b, loc, index, zero);
  std::optional<int64_t> staticSize = getConstantIntValue(axisSize);
  Value last =
      staticSize ? arith::ConstantIndexOp::create(b, loc, *staticSize - 1)
                 : arith::SubIOp::create(
                       b, loc, size, arith::ConstantIndexOp::create(b, loc, 1))
                       .getResult();
  return arith::MinSIOp::create(b, loc, low, last);
}

/// An index set with elements cannot read from an empty axis.
static LogicalResult checkGatherSource(std::optional<Location> loc,
                                       RankedTensorType source, int64_t axis,
                                       RankedTensorType indices) {
  if (source.getDimSize(axis) == 0 && indices.getNumElements() != 0)
    return emitOptionalError(loc, "cannot gather ", indices.getNumElements(),
                             " indices from axis ", axis, " of size 0");
  return success();
}

FailureOr<RankedTensorType>
mlir::rlx::inferGatherType(std::optional<Location> loc, Type tableType,
                           Type indicesType, int64_t rawAxis) {
  FailureOr<RankedTensorType> table = getRankedType(loc, tableType, "table");
  FailureOr<RankedTensorType> indices =
      getRankedType(loc, indicesType, "indices");
  if (failed(table) || failed(indices))
    return failure();
  FailureOr<int64_t> axis = normalizeAxis(loc, rawAxis, table->getRank());
  if (failed(axis) || failed(checkGatherSource(loc, *table, *axis, *indices)))
    return failure();
  ArrayRef<int64_t> shape = table->getShape();
  SmallVector<int64_t> result(shape.take_front(*axis));
  llvm::append_range(result, indices->getShape());
  llvm::append_range(result, shape.drop_front(*axis + 1));
  return RankedTensorType::get(result, table->getElementType());
}

LogicalResult GatherOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  FailureOr<RankedTensorType> type =
      inferGatherType(loc, adaptor.getTable().getType(),
                      adaptor.getIndices().getType(), adaptor.getAxis());
  if (failed(type))
    return failure();
  inferred.push_back(*type);
  return success();
}

LogicalResult GatherElementsOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  FailureOr<RankedTensorType> input =
      getRankedType(loc, adaptor.getInput(), "input");
  FailureOr<RankedTensorType> indices =
      getRankedType(loc, adaptor.getIndices(), "indices");
  if (failed(input) || failed(indices))
    return failure();
  if (input->getRank() != indices->getRank())
    return emitOptionalError(loc, "indices have rank ", indices->getRank(),
                             " but the input has rank ", input->getRank());
  FailureOr<int64_t> axis =
      normalizeAxis(loc, adaptor.getAxis(), input->getRank());
  if (failed(axis) || failed(checkGatherSource(loc, *input, *axis, *indices)))
    return failure();
  for (int64_t d = 0; d < input->getRank(); ++d)
    if (d != *axis && indices->getDimSize(d) > input->getDimSize(d))
      return emitOptionalError(
          loc, "indices shape ", formatShape(indices->getShape()),
          " is larger than the input shape ", formatShape(input->getShape()),
          " in dimension ", d, ", which is not the gather axis");
  inferred.push_back(
      RankedTensorType::get(indices->getShape(), input->getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// PadOp
//===----------------------------------------------------------------------===//

LogicalResult PadOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &inferred) {
  FailureOr<RankedTensorType> input =
      getRankedType(loc, adaptor.getInput(), "input");
  if (failed(input))
    return failure();
  ArrayRef<int64_t> pads = adaptor.getPads();
  int64_t rank = input->getRank();
  if (static_cast<int64_t>(pads.size()) != 2 * rank)
    return emitOptionalError(loc, "expected 2 pads per dimension (",
                             2 * rank, " for rank ", rank, "), got ",
                             pads.size());
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t lo = pads[2 * d], hi = pads[2 * d + 1];
    if (lo < 0 || hi < 0)
      return emitOptionalError(loc, "pads of dimension ", d, " are [", lo,
                               ", ", hi,
                               "]; pads must be >= 0 (crop with rlx.narrow)");
    std::optional<int64_t> size = llvm::checkedAdd(input->getDimSize(d), lo);
    if (size)
      size = llvm::checkedAdd(*size, hi);
    if (!size)
      return emitOptionalError(loc, "padded size of dimension ", d,
                               " overflows int64");
    shape.push_back(*size);
  }
  inferred.push_back(RankedTensorType::get(shape, input->getElementType()));
  return success();
}

LogicalResult PadOp::verify() {
  Type element = getInput().getType().getElementType();
  FloatAttr valueAttr = getValueAttr();
  if (getMode() != PadMode::Constant && valueAttr)
    return emitOpError("'value' is only used by constant padding, not by '")
           << stringifyPadMode(getMode()) << "'";
  if (valueAttr && isa<IntegerType>(element)) {
    // The value must survive the round trip through the element type.
    double value = valueAttr.getValueAsDouble();
    unsigned width = element.getIntOrFloatBitWidth();
    double lowest = width == 1 ? 0.0 : -std::ldexp(1.0, width - 1);
    double highest = width == 1 ? 1.0 : std::ldexp(1.0, width - 1) - 1.0;
    if (value != std::trunc(value) || value < lowest || value > highest)
      return emitOpError("pad value ")
             << llvm::formatv("{0}", valueAttr.getValue()).str()
             << " is not representable in " << element;
  }
  ArrayRef<int64_t> shape = getInput().getType().getShape();
  ArrayRef<int64_t> pads = getPads();
  // This verifier runs before the result type inference, which reports a
  // wrong number of pads.
  if (pads.size() != 2 * shape.size())
    return success();
  for (auto [d, size] : llvm::enumerate(shape)) {
    for (int64_t pad : {pads[2 * d], pads[2 * d + 1]}) {
      switch (getMode()) {
      case PadMode::Constant:
        break;
      case PadMode::Reflect:
        if (pad > 0 && pad >= size)
          return emitOpError("reflect pad ")
                 << pad << " of dimension " << d
                 << " must be smaller than its size " << size;
        break;
      case PadMode::Replicate:
        if (pad > 0 && size == 0)
          return emitOpError("cannot replicate the edge of dimension ")
                 << d << ", which is empty";
        break;
      case PadMode::Circular:
        if (pad > size)
          return emitOpError("circular pad ")
                 << pad << " of dimension " << d
                 << " must be at most its size " << size;
        break;
      }
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// TileOp / ReverseOp / RollOp / TriluOp
//===----------------------------------------------------------------------===//

LogicalResult TileOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  FailureOr<RankedTensorType> input =
      getRankedType(loc, adaptor.getInput(), "input");
  if (failed(input))
    return failure();
  ArrayRef<int64_t> reps = adaptor.getReps();
  if (static_cast<int64_t>(reps.size()) != input->getRank())
    return emitOptionalError(loc, "reps has ", reps.size(),
                             " entries but the input has rank ",
                             input->getRank());
  SmallVector<int64_t> shape;
  for (auto [d, rep] : llvm::enumerate(reps)) {
    if (rep < 0)
      return emitOptionalError(loc, "reps[", d, "] = ", rep,
                               " must be >= 0");
    std::optional<int64_t> size = llvm::checkedMul(input->getDimSize(d), rep);
    if (!size)
      return emitOptionalError(loc, "tiled size of dimension ", d,
                               " overflows int64");
    shape.push_back(*size);
  }
  inferred.push_back(RankedTensorType::get(shape, input->getElementType()));
  return success();
}

LogicalResult ReverseOp::verify() {
  int64_t rank = getType().getRank();
  llvm::SmallBitVector seen(rank);
  for (int64_t axis : getAxes()) {
    FailureOr<int64_t> normalized = verifyAxis(*this, axis, rank, "axis");
    if (failed(normalized))
      return failure();
    if (seen.test(*normalized))
      return emitOpError("axis ") << axis << " is reversed twice";
    seen.set(*normalized);
  }
  return success();
}

LogicalResult IotaOp::verify() {
  RankedTensorType type = getType();
  if (type.getRank() == 0)
    return emitOpError("needs a result of rank >= 1 to have an axis");
  FailureOr<int64_t> axis =
      verifyAxis(*this, getAxis(), type.getRank(), "axis");
  if (failed(axis))
    return failure();
  unsigned width = type.getElementType().getIntOrFloatBitWidth();
  int64_t size = type.getDimSize(*axis);
  if (width < 64 && size - 1 > APInt::getSignedMaxValue(width).getSExtValue())
    return emitOpError("axis ")
           << getAxis() << " has " << size << " indices, more than "
           << type.getElementType() << " can represent";
  return success();
}

LogicalResult RollOp::verify() {
  if (getShifts().size() != getDims().size())
    return emitOpError("has ") << getShifts().size() << " shifts but "
                               << getDims().size() << " dims";
  int64_t rank = getType().getRank();
  for (int64_t dim : getDims())
    if (failed(verifyAxis(*this, dim, rank, "dim")))
      return failure();
  return success();
}

SmallVector<int64_t> RollOp::getNetShifts() {
  ArrayRef<int64_t> shape = getType().getShape();
  SmallVector<int64_t> net(shape.size(), 0);
  for (auto [shift, dim] : llvm::zip_equal(getShifts(), getDims())) {
    int64_t d = dim < 0 ? dim + static_cast<int64_t>(shape.size()) : dim;
    if (shape[d] == 0)
      continue;
    // Reduce each shift first so that the sum cannot overflow.
    int64_t reduced = shift % shape[d];
    net[d] = ((net[d] + reduced) % shape[d] + shape[d]) % shape[d];
  }
  return net;
}

LogicalResult TriluOp::verify() {
  if (getType().getRank() < 2)
    return emitOpError("requires rank >= 2 (rows and columns), got rank ")
           << getType().getRank();
  return success();
}

//===----------------------------------------------------------------------===//
// KvAppendOp
//===----------------------------------------------------------------------===//

LogicalResult KvAppendOp::verify() {
  RankedTensorType cache = getCache().getType(), update = getUpdate().getType();
  if (cache.getRank() != update.getRank())
    return emitOpError("update has rank ")
           << update.getRank() << " but the cache has rank "
           << cache.getRank();
  FailureOr<int64_t> axis = verifyAxis(*this, getAxis(), cache.getRank(), "axis");
  if (failed(axis))
    return failure();
  for (int64_t d = 0; d < cache.getRank(); ++d) {
    if (d == *axis) {
      if (update.getDimSize(d) > cache.getDimSize(d))
        return emitOpError("update has ")
               << update.getDimSize(d) << " rows along axis " << d
               << " but the cache holds only " << cache.getDimSize(d);
    } else if (update.getDimSize(d) != cache.getDimSize(d)) {
      return emitOpError("update shape ")
             << formatShape(update.getShape()) << " differs from the cache "
             << formatShape(cache.getShape()) << " in dimension " << d
             << ", which is not the append axis";
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// DotGeneralOp
//===----------------------------------------------------------------------===//

/// Checks that the batch and contracting dims of one operand are in range and
/// disjoint.
static LogicalResult checkDotDims(std::optional<Location> loc,
                                  StringRef operand, RankedTensorType type,
                                  ArrayRef<int64_t> batch,
                                  ArrayRef<int64_t> contracting) {
  llvm::SmallBitVector seen(type.getRank());
  for (auto [kind, dims] :
       {std::pair<StringRef, ArrayRef<int64_t>>{"batch", batch},
        {"contracting", contracting}}) {
    for (int64_t dim : dims) {
      if (dim < 0 || dim >= type.getRank())
        return emitOptionalError(loc, operand, " ", kind, " dim ", dim,
                                 " is out of range for rank ",
                                 type.getRank());
      if (seen.test(dim))
        return emitOptionalError(loc, operand, " dim ", dim,
                                 " is listed more than once");
      seen.set(dim);
    }
  }
  return success();
}

/// Checks that paired dims have the same size.
static LogicalResult checkDotPairs(std::optional<Location> loc, StringRef kind,
                                   RankedTensorType lhs, ArrayRef<int64_t> l,
                                   RankedTensorType rhs, ArrayRef<int64_t> r) {
  if (l.size() != r.size())
    return emitOptionalError(loc, "lhs has ", l.size(), " ", kind,
                             " dims but rhs has ", r.size());
  for (auto [a, b] : llvm::zip_equal(l, r))
    if (lhs.getDimSize(a) != rhs.getDimSize(b))
      return emitOptionalError(loc, kind, " dims differ in size: lhs dim ", a,
                               " of ", formatShape(lhs.getShape()),
                               " has size ", lhs.getDimSize(a), ", rhs dim ",
                               b, " of ", formatShape(rhs.getShape()),
                               " has size ", rhs.getDimSize(b));
  return success();
}

/// The dims of a rank-`rank` operand outside `batch` and `contracting`.
static SmallVector<int64_t> getDotFreeDims(int64_t rank,
                                           ArrayRef<int64_t> batch,
                                           ArrayRef<int64_t> contracting) {
  SmallVector<int64_t> free;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(batch, d) && !llvm::is_contained(contracting, d))
      free.push_back(d);
  return free;
}

SmallVector<int64_t> DotGeneralOp::getFreeDims(bool isLhs) {
  if (isLhs)
    return getDotFreeDims(getLhs().getType().getRank(), getLhsBatchDims(),
                          getLhsContractingDims());
  return getDotFreeDims(getRhs().getType().getRank(), getRhsBatchDims(),
                        getRhsContractingDims());
}

LogicalResult DotGeneralOp::inferReturnTypes(MLIRContext *,
                                             std::optional<Location> loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &inferred) {
  FailureOr<RankedTensorType> lhs = getRankedType(loc, adaptor.getLhs(), "lhs");
  FailureOr<RankedTensorType> rhs = getRankedType(loc, adaptor.getRhs(), "rhs");
  if (failed(lhs) || failed(rhs))
    return failure();
  ArrayRef<int64_t> lhsBatch = adaptor.getLhsBatchDims();
  ArrayRef<int64_t> rhsBatch = adaptor.getRhsBatchDims();
  ArrayRef<int64_t> lhsContracting = adaptor.getLhsContractingDims();
  ArrayRef<int64_t> rhsContracting = adaptor.getRhsContractingDims();
  if (failed(checkDotDims(loc, "lhs", *lhs, lhsBatch, lhsContracting)) ||
      failed(checkDotDims(loc, "rhs", *rhs, rhsBatch, rhsContracting)) ||
      failed(checkDotPairs(loc, "batch", *lhs, lhsBatch, *rhs, rhsBatch)) ||
      failed(checkDotPairs(loc, "contracting", *lhs, lhsContracting, *rhs,
                           rhsContracting)))
    return failure();
  SmallVector<int64_t> shape;
  for (int64_t d : lhsBatch)
    shape.push_back(lhs->getDimSize(d));
  for (int64_t d : getDotFreeDims(lhs->getRank(), lhsBatch, lhsContracting))
    shape.push_back(lhs->getDimSize(d));
  for (int64_t d : getDotFreeDims(rhs->getRank(), rhsBatch, rhsContracting))
    shape.push_back(rhs->getDimSize(d));
  inferred.push_back(RankedTensorType::get(shape, lhs->getElementType()));
  return success();
}
