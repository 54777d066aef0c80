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

/// Whether a tensor of `shape` provably has no elements.
static bool isProvablyEmpty(ArrayRef<AffineExpr> shape) {
  return llvm::any_of(shape, [](AffineExpr size) {
    auto constant = dyn_cast<AffineConstantExpr>(size);
    return constant && constant.getValue() == 0;
  });
}

LogicalResult mlir::rlx::requireGatherSource(ShapeContext &context,
                                             std::optional<Location> loc,
                                             ArrayRef<AffineExpr> source,
                                             int64_t axis,
                                             ArrayRef<AffineExpr> indices) {
  if (isProvablyEmpty(indices) ||
      context.requireLessEqual(context.getConstant(1), source[axis]))
    return success();
  RankedTensorType type =
      ShapeContext::getType(indices, IndexType::get(context.getContext()));
  std::string count = type.hasStaticShape()
                          ? std::to_string(type.getNumElements())
                          : ShapeContext::format(indices);
  return emitOptionalError(loc, "cannot gather ", count, " indices from axis ",
                           axis, " of size 0");
}

/// The result shape of `rlx.gather`: the table's shape with `axis` replaced
/// by the indices' shape.
static FailureOr<SymbolicShape> inferGatherShape(ShapeContext &context,
                                                 std::optional<Location> loc,
                                                 ArrayRef<AffineExpr> table,
                                                 ArrayRef<AffineExpr> indices,
                                                 int64_t rawAxis) {
  FailureOr<int64_t> axis = normalizeAxis(loc, rawAxis, table.size());
  if (failed(axis) ||
      failed(requireGatherSource(context, loc, table, *axis, indices)))
    return failure();
  SymbolicShape result(table.take_front(*axis));
  llvm::append_range(result, indices);
  llvm::append_range(result, table.drop_front(*axis + 1));
  return result;
}

FailureOr<RankedTensorType>
mlir::rlx::inferGatherType(std::optional<Location> loc, Type tableType,
                           Type indicesType, int64_t axis) {
  FailureOr<RankedTensorType> table = getRankedType(loc, tableType, "table");
  FailureOr<RankedTensorType> indices =
      getRankedType(loc, indicesType, "indices");
  if (failed(table) || failed(indices))
    return failure();
  ShapeContext context(table->getContext());
  FailureOr<SymbolicShape> shape = inferGatherShape(
      context, loc, context.getShape(*table), context.getShape(*indices), axis);
  if (failed(shape))
    return failure();
  return ShapeContext::getType(*shape, table->getElementType());
}

static FailureOr<SymbolicShape> inferGatherShape(ShapeContext &context,
                                                 std::optional<Location> loc,
                                                 GatherOp::Adaptor adaptor) {
  if (failed(getRankedType(loc, adaptor.getTable(), "table")) ||
      failed(getRankedType(loc, adaptor.getIndices(), "indices")))
    return failure();
  return inferGatherShape(context, loc, context.getShape(adaptor.getTable()),
                          context.getShape(adaptor.getIndices()),
                          adaptor.getAxis());
}

LogicalResult GatherOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  return appendType(
      inferGatherShape(shapes, loc, adaptor),
      cast<RankedTensorType>(adaptor.getTable().getType()).getElementType(),
      inferred);
}

LogicalResult
GatherOp::inferSymbolicShapes(ShapeContext &context,
                              SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(inferGatherShape(context, getLoc(), Adaptor(*this)),
                     shapes);
}

/// The result shape of `rlx.gather_elements`: the indices' shape, which fits
/// inside the input outside `axis`.
static FailureOr<SymbolicShape>
inferGatherElementsShape(ShapeContext &context, std::optional<Location> loc,
                         GatherElementsOp::Adaptor adaptor) {
  FailureOr<RankedTensorType> inputType =
      getRankedType(loc, adaptor.getInput(), "input");
  FailureOr<RankedTensorType> indicesType =
      getRankedType(loc, adaptor.getIndices(), "indices");
  if (failed(inputType) || failed(indicesType))
    return failure();
  if (inputType->getRank() != indicesType->getRank())
    return emitOptionalError(loc, "indices have rank ", indicesType->getRank(),
                             " but the input has rank ", inputType->getRank());
  SymbolicShape input = context.getShape(adaptor.getInput());
  SymbolicShape indices = context.getShape(adaptor.getIndices());
  FailureOr<int64_t> axis =
      normalizeAxis(loc, adaptor.getAxis(), inputType->getRank());
  if (failed(axis) ||
      failed(requireGatherSource(context, loc, input, *axis, indices)))
    return failure();
  for (int64_t d = 0; d < inputType->getRank(); ++d)
    if (d != *axis && !context.requireLessEqual(indices[d], input[d]))
      return emitOptionalError(
          loc, "indices shape ", ShapeContext::format(indices),
          " is larger than the input shape ", ShapeContext::format(input),
          " in dimension ", d, ", which is not the gather axis");
  return indices;
}

LogicalResult
GatherElementsOp::inferReturnTypes(MLIRContext *context,
                                   std::optional<Location> loc, Adaptor adaptor,
                                   SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  return appendType(
      inferGatherElementsShape(shapes, loc, adaptor),
      cast<RankedTensorType>(adaptor.getInput().getType()).getElementType(),
      inferred);
}

LogicalResult
GatherElementsOp::inferSymbolicShapes(ShapeContext &context,
                                      SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(
      inferGatherElementsShape(context, getLoc(), Adaptor(*this)), shapes);
}

//===----------------------------------------------------------------------===//
// PadOp
//===----------------------------------------------------------------------===//

/// The result shape of `rlx.pad`: every size grown by its two pads. The
/// modes that read the input to fill the border need it large enough, and
/// negative (cropping) pads need as many elements as they remove: a `?`
/// size is required to be at run time.
static FailureOr<SymbolicShape> inferPadShape(ShapeContext &context,
                                              std::optional<Location> loc,
                                              PadOp::Adaptor adaptor) {
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
  SymbolicShape sizes = context.getShape(adaptor.getInput());
  SymbolicShape shape;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t lo = pads[2 * d], hi = pads[2 * d + 1];
    std::optional<int64_t> grown = llvm::checkedAdd(lo, hi);
    int64_t size = input->getDimSize(d);
    if (grown && !ShapedType::isDynamic(size))
      grown = llvm::checkedAdd(size, *grown);
    if (!grown)
      return emitOptionalError(loc, "padded size of dimension ", d,
                               " overflows int64");
    std::string sizeText = formatSize(sizes[d]);
    if (lo < 0 || hi < 0) {
      if (adaptor.getMode() != PadMode::Constant)
        return emitOptionalError(
            loc, "pads of dimension ", d, " are [", lo, ", ", hi,
            "]; only constant padding takes negative (cropping) pads");
      // Both crops are counted before either pad: [-2, 1] of a size-1
      // dimension is not a valid crop.
      int64_t cropped = -std::min<int64_t>(lo, 0) - std::min<int64_t>(hi, 0);
      if (!context.requireLessEqual(context.getConstant(cropped), sizes[d]))
        return emitOptionalError(loc, "pads of dimension ", d, " are [", lo,
                                 ", ", hi, "]: they crop ", cropped,
                                 " elements of its size ", sizeText);
    }
    for (int64_t pad : {lo, hi}) {
      switch (adaptor.getMode()) {
      case PadMode::Constant:
        break;
      case PadMode::Reflect:
        if (pad > 0 &&
            !context.requireLessEqual(context.getConstant(pad + 1), sizes[d]))
          return emitOptionalError(loc, "reflect pad ", pad, " of dimension ",
                                   d, " must be smaller than its size ",
                                   sizeText);
        break;
      case PadMode::Replicate:
        if (pad > 0 &&
            !context.requireLessEqual(context.getConstant(1), sizes[d]))
          return emitOptionalError(loc,
                                   "cannot replicate the edge of "
                                   "dimension ",
                                   d, ", which is empty");
        break;
      case PadMode::Circular:
        if (!context.requireLessEqual(context.getConstant(pad), sizes[d]))
          return emitOptionalError(loc, "circular pad ", pad, " of dimension ",
                                   d, " must be at most its size ", sizeText);
        break;
      }
    }
    shape.push_back(sizes[d] + lo + hi);
  }
  return shape;
}

LogicalResult PadOp::inferReturnTypes(MLIRContext *context,
                                      std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  return appendType(
      inferPadShape(shapes, loc, adaptor),
      cast<RankedTensorType>(adaptor.getInput().getType()).getElementType(),
      inferred);
}

LogicalResult
PadOp::inferSymbolicShapes(ShapeContext &context,
                           SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(inferPadShape(context, getLoc(), Adaptor(*this)), shapes);
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
  return success();
}

//===----------------------------------------------------------------------===//
// TileOp / ReverseOp / RollOp / TriluOp
//===----------------------------------------------------------------------===//

/// The result shape of `rlx.tile`: every size times its repetitions.
static FailureOr<SymbolicShape> inferTileShape(ShapeContext &context,
                                               std::optional<Location> loc,
                                               TileOp::Adaptor adaptor) {
  FailureOr<RankedTensorType> input =
      getRankedType(loc, adaptor.getInput(), "input");
  if (failed(input))
    return failure();
  ArrayRef<int64_t> reps = adaptor.getReps();
  if (static_cast<int64_t>(reps.size()) != input->getRank())
    return emitOptionalError(loc, "reps has ", reps.size(),
                             " entries but the input has rank ",
                             input->getRank());
  SymbolicShape sizes = context.getShape(adaptor.getInput());
  SymbolicShape shape;
  for (auto [d, rep] : llvm::enumerate(reps)) {
    if (rep < 0)
      return emitOptionalError(loc, "reps[", d, "] = ", rep,
                               " must be >= 0");
    int64_t size = input->getDimSize(d);
    if (!ShapedType::isDynamic(size) && !llvm::checkedMul(size, rep))
      return emitOptionalError(loc, "tiled size of dimension ", d,
                               " overflows int64");
    shape.push_back(sizes[d] * rep);
  }
  return shape;
}

LogicalResult TileOp::inferReturnTypes(MLIRContext *context,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  return appendType(
      inferTileShape(shapes, loc, adaptor),
      cast<RankedTensorType>(adaptor.getInput().getType()).getElementType(),
      inferred);
}

LogicalResult
TileOp::inferSymbolicShapes(ShapeContext &context,
                            SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(inferTileShape(context, getLoc(), Adaptor(*this)), shapes);
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
    if (shape[d] == 0 || ShapedType::isDynamic(shape[d]))
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

LogicalResult KvAppendOp::verify() { return verifyResultsFollowRule(*this); }

/// The cache's shape; the update fits inside it along `axis` and matches it
/// elsewhere.
LogicalResult
KvAppendOp::inferSymbolicShapes(ShapeContext &context,
                                SmallVectorImpl<SymbolicShape> &shapes) {
  SymbolicShape cache = context.getShape(getCache());
  SymbolicShape update = context.getShape(getUpdate());
  if (cache.size() != update.size())
    return emitOpError("update has rank ")
           << update.size() << " but the cache has rank " << cache.size();
  FailureOr<int64_t> axis = verifyAxis(*this, getAxis(), cache.size(), "axis");
  if (failed(axis))
    return failure();
  for (int64_t d = 0, rank = cache.size(); d < rank; ++d) {
    if (d == *axis) {
      if (!context.requireLessEqual(update[d], cache[d]))
        return emitOpError("update has ")
               << formatSize(update[d]) << " rows along axis " << d
               << " but the cache holds only " << formatSize(cache[d]);
    } else if (!context.requireEqual(update[d], cache[d])) {
      return emitOpError("update shape ")
             << ShapeContext::format(update) << " differs from the cache "
             << ShapeContext::format(cache) << " in dimension " << d
             << ", which is not the append axis";
    }
  }
  shapes.push_back(cache);
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

/// Requires paired dims to have the same size.
static LogicalResult
requireDotPairs(ShapeContext &context, std::optional<Location> loc,
                StringRef kind, ArrayRef<AffineExpr> lhs, ArrayRef<int64_t> l,
                ArrayRef<AffineExpr> rhs, ArrayRef<int64_t> r) {
  if (l.size() != r.size())
    return emitOptionalError(loc, "lhs has ", l.size(), " ", kind,
                             " dims but rhs has ", r.size());
  for (auto [a, b] : llvm::zip_equal(l, r))
    if (!context.requireEqual(lhs[a], rhs[b]))
      return emitOptionalError(loc, kind, " dims differ in size: lhs dim ", a,
                               " of ", ShapeContext::format(lhs), " has size ",
                               formatSize(lhs[a]), ", rhs dim ", b, " of ",
                               ShapeContext::format(rhs), " has size ",
                               formatSize(rhs[b]));
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

/// The result shape of `rlx.dot_general`: batch, lhs free, rhs free dims.
static FailureOr<SymbolicShape>
inferDotGeneralShape(ShapeContext &context, std::optional<Location> loc,
                     DotGeneralOp::Adaptor adaptor) {
  FailureOr<RankedTensorType> lhsType =
      getRankedType(loc, adaptor.getLhs(), "lhs");
  FailureOr<RankedTensorType> rhsType =
      getRankedType(loc, adaptor.getRhs(), "rhs");
  if (failed(lhsType) || failed(rhsType))
    return failure();
  ArrayRef<int64_t> lhsBatch = adaptor.getLhsBatchDims();
  ArrayRef<int64_t> rhsBatch = adaptor.getRhsBatchDims();
  ArrayRef<int64_t> lhsContracting = adaptor.getLhsContractingDims();
  ArrayRef<int64_t> rhsContracting = adaptor.getRhsContractingDims();
  if (failed(checkDotDims(loc, "lhs", *lhsType, lhsBatch, lhsContracting)) ||
      failed(checkDotDims(loc, "rhs", *rhsType, rhsBatch, rhsContracting)))
    return failure();
  SymbolicShape lhs = context.getShape(adaptor.getLhs());
  SymbolicShape rhs = context.getShape(adaptor.getRhs());
  if (failed(requireDotPairs(context, loc, "batch", lhs, lhsBatch, rhs,
                             rhsBatch)) ||
      failed(requireDotPairs(context, loc, "contracting", lhs, lhsContracting,
                             rhs, rhsContracting)))
    return failure();
  SymbolicShape shape;
  for (int64_t d : lhsBatch)
    shape.push_back(lhs[d]);
  for (int64_t d : getDotFreeDims(lhs.size(), lhsBatch, lhsContracting))
    shape.push_back(lhs[d]);
  for (int64_t d : getDotFreeDims(rhs.size(), rhsBatch, rhsContracting))
    shape.push_back(rhs[d]);
  return shape;
}

LogicalResult DotGeneralOp::inferReturnTypes(MLIRContext *context,
                                             std::optional<Location> loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  return appendType(
      inferDotGeneralShape(shapes, loc, adaptor),
      cast<RankedTensorType>(adaptor.getLhs().getType()).getElementType(),
      inferred);
}

LogicalResult
DotGeneralOp::inferSymbolicShapes(ShapeContext &context,
                                  SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(inferDotGeneralShape(context, getLoc(), Adaptor(*this)),
                     shapes);
}
