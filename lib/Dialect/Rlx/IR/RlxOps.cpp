//===- RlxOps.cpp - rlx op verifiers, shape inference and folders ---------===//
#include "rlx/Dialect/Rlx/IR/RlxOps.h"
#include "OpUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Traits.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::rlx;

std::string mlir::rlx::formatShape(ArrayRef<int64_t> shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << '[';
  llvm::interleaveComma(shape, os);
  os << ']';
  return text;
}

FailureOr<RankedTensorType> mlir::rlx::getRankedType(std::optional<Location> loc,
                                                    Value value,
                                                    StringRef what) {
  return getRankedType(loc, value.getType(), what);
}

FailureOr<RankedTensorType> mlir::rlx::getRankedType(std::optional<Location> loc,
                                                    Type type, StringRef what) {
  if (auto ranked = dyn_cast<RankedTensorType>(type))
    return ranked;
  return emitOptionalError(loc, "expected ", what,
                           " to be a ranked tensor, got ", type);
}

FailureOr<int64_t> mlir::rlx::normalizeAxis(std::optional<Location> loc,
                                            int64_t axis, int64_t rank,
                                            StringRef what) {
  if (axis < -rank || axis >= rank)
    return emitOptionalError(loc, what, " ", axis, " is out of range for rank ",
                             rank);
  return axis < 0 ? axis + rank : axis;
}

//===----------------------------------------------------------------------===//
// Tensor sizes
//===----------------------------------------------------------------------===//

/// The number of bytes a static `type` occupies (i1 and other sub-byte
/// elements take a byte each), or nothing when it or the element count
/// overflows int64_t.
static std::optional<int64_t> getAddressableBytes(RankedTensorType type) {
  std::optional<int64_t> count = 1;
  for (int64_t size : type.getShape()) {
    count = llvm::checkedMul(*count, size);
    if (!count)
      return std::nullopt;
  }
  int64_t elementBytes =
      llvm::divideCeil(type.getElementType().getIntOrFloatBitWidth(), 8);
  return llvm::checkedMul(*count, elementBytes);
}

LogicalResult mlir::rlx::verifyAddressableTensors(Operation *op) {
  auto check = [&](Type type, StringRef kind,
                   unsigned index) -> LogicalResult {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !tensor.hasStaticShape() ||
        !tensor.getElementType().isIntOrFloat() ||
        getAddressableBytes(tensor))
      return success();
    return op->emitOpError()
           << kind << " #" << index << " of type " << type
           << " has more elements or bytes than fit in a 64-bit index (at "
              "most 2^63 - 1 bytes per tensor)";
  };
  for (auto [index, type] : llvm::enumerate(op->getOperandTypes()))
    if (failed(check(type, "operand", index)))
      return failure();
  for (auto [index, type] : llvm::enumerate(op->getResultTypes()))
    if (failed(check(type, "result", index)))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// Broadcasting and elementwise folding
//===----------------------------------------------------------------------===//

LogicalResult
mlir::rlx::inferBroadcastResultType(std::optional<Location> loc,
                                    TypeRange operandTypes, Type elementType,
                                    SmallVectorImpl<Type> &inferred) {
  SmallVector<int64_t> shape;
  for (Type type : operandTypes) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor)
      return emitOptionalError(loc, "expected ranked tensor operands");
    SmallVector<int64_t> next;
    if (!OpTrait::util::getBroadcastedShape(shape, tensor.getShape(), next))
      return emitOptionalError(loc,
                               "operand shapes are not broadcast "
                               "compatible: ",
                               formatShape(shape), " and ",
                               formatShape(tensor.getShape()));
    shape = std::move(next);
  }
  if (!elementType)
    elementType = cast<RankedTensorType>(operandTypes.back()).getElementType();
  inferred.push_back(RankedTensorType::get(shape, elementType));
  return success();
}

/// Folding evaluates `buildScalar` once per element, so cap the work.
static constexpr int64_t kMaxFoldedElements = 4096;

/// Converts a constant scalar from its storage type to its computation type
/// (or back), as the lowering does with extf/truncf.
static Attribute convertScalarAttr(Attribute attr, Type to) {
  if (cast<TypedAttr>(attr).getType() == to)
    return attr;
  auto floatAttr = dyn_cast<FloatAttr>(attr);
  auto floatType = dyn_cast<FloatType>(to);
  if (!floatAttr || !floatType)
    return {};
  APFloat value = floatAttr.getValue();
  bool losesInfo;
  value.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                &losesInfo);
  return FloatAttr::get(floatType, value);
}

OpFoldResult mlir::rlx::foldElementwise(ScalarComputeOpInterface op,
                                        ArrayRef<Attribute> operands) {
  auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!resultType)
    return {};
  SmallVector<DenseElementsAttr> inputs;
  for (Attribute attr : operands) {
    auto dense = dyn_cast_or_null<DenseElementsAttr>(attr);
    if (!dense)
      return {};
    inputs.push_back(dense);
  }
  if (resultType.getNumElements() == 0)
    return DenseElementsAttr::get(resultType, ArrayRef<Attribute>{});
  // Splats fold at any size (one evaluation, one stored element); anything
  // else costs an evaluation and an attribute per element.
  bool allSplat = llvm::all_of(inputs, [](auto d) { return d.isSplat(); });
  if (!allSplat && resultType.getNumElements() > kMaxFoldedElements)
    return {};
  int64_t count = allSplat ? 1 : resultType.getNumElements();
  ArrayRef<int64_t> shape = resultType.getShape();

  // Evaluate in a detached block: createOrFold reduces the formula to an
  // arith.constant when every op on the way folds.
  Block scratch;
  OpBuilder builder(op->getContext());
  builder.setInsertionPointToStart(&scratch);
  ScalarBuilder scalar(builder, op->getLoc());
  Type resultElement = resultType.getElementType();
  SmallVector<Attribute> results;
  SmallVector<int64_t> index(shape.size());
  for (int64_t linear = 0; linear < count; ++linear) {
    // Multi-dimensional index of this output element.
    for (int64_t d = shape.size() - 1, rest = linear; d >= 0; --d) {
      index[d] = rest % shape[d];
      rest /= shape[d];
    }
    SmallVector<Value> args;
    for (DenseElementsAttr input : inputs) {
      ArrayRef<int64_t> inShape = input.getType().getShape();
      int64_t offset = 0;
      if (!input.isSplat()) {
        int64_t lead = shape.size() - inShape.size();
        for (auto [d, size] : llvm::enumerate(inShape))
          offset = offset * size + (size == 1 ? 0 : index[lead + d]);
      }
      Attribute element = input.getValues<Attribute>()[offset];
      Type computeType =
          ScalarBuilder::computeType(cast<TypedAttr>(element).getType());
      auto typed =
          dyn_cast_or_null<TypedAttr>(convertScalarAttr(element, computeType));
      if (!typed)
        return {};
      args.push_back(arith::ConstantOp::create(builder, op->getLoc(), typed));
    }
    Value value = op.buildScalar(scalar, args);
    Attribute folded;
    if (!matchPattern(value, m_Constant(&folded)))
      return {};
    folded = convertScalarAttr(folded, resultElement);
    if (!folded)
      return {};
    results.push_back(folded);
  }
  if (allSplat)
    return SplatElementsAttr::get(resultType, results.front());
  return DenseElementsAttr::get(resultType, results);
}

DenseElementsAttr mlir::rlx::convertFloatElements(DenseFPElementsAttr elements,
                                                  FloatType type) {
  if (!elements.isSplat() && elements.getNumElements() > kMaxFoldedElements)
    return {};
  return elements.mapValues(type, [&](const APFloat &value) {
    APFloat converted = value;
    bool losesInfo;
    converted.convert(type.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                      &losesInfo);
    return converted.bitcastToAPInt();
  });
}

/// True if `attr` is a splat equal to `value`; floats must match bitwise, so
/// that -0.0 and +0.0 are told apart.
static bool isSplatOf(Attribute attr, double value) {
  auto splat = dyn_cast_or_null<SplatElementsAttr>(attr);
  if (!splat)
    return false;
  if (auto f = dyn_cast<FloatAttr>(splat.getSplatValue<Attribute>())) {
    APFloat expected(value);
    bool losesInfo;
    expected.convert(f.getValue().getSemantics(), APFloat::rmNearestTiesToEven,
                     &losesInfo);
    return f.getValue().bitwiseIsEqual(expected);
  }
  if (auto i = dyn_cast<IntegerAttr>(splat.getSplatValue<Attribute>()))
    return i.getValue().getSExtValue() == static_cast<int64_t>(value);
  return false;
}

OpFoldResult mlir::rlx::foldBinaryIdentity(Operation *op,
                                           ArrayRef<Attribute> operands,
                                           double identity, bool commutative) {
  Type resultType = op->getResult(0).getType();
  if (isSplatOf(operands[1], identity) &&
      op->getOperand(0).getType() == resultType)
    return op->getOperand(0);
  if (commutative && isSplatOf(operands[0], identity) &&
      op->getOperand(1).getType() == resultType)
    return op->getOperand(1);
  return {};
}

//===----------------------------------------------------------------------===//
// ClampOp / StopGradientOp
//===----------------------------------------------------------------------===//

LogicalResult ClampOp::verify() {
  if (!getMin() && !getMax())
    return emitOpError("requires at least one of 'min' and 'max'");
  for (FloatAttr bound : {getMinAttr(), getMaxAttr()})
    if (bound && bound.getValue().isNaN())
      return emitOpError("bounds must not be NaN");
  if (getMin() && getMax() &&
      getMinAttr().getValueAsDouble() > getMaxAttr().getValueAsDouble())
    return emitOpError("requires min <= max, got min = ")
           << getMinAttr().getValueAsDouble()
           << " and max = " << getMaxAttr().getValueAsDouble();
  return success();
}

Value ClampOp::buildScalar(ScalarBuilder &b, ValueRange operands) {
  Value x = operands[0];
  if (FloatAttr lo = getMinAttr())
    x = b.max(x, b.constant(x, lo.getValueAsDouble()));
  if (FloatAttr hi = getMaxAttr())
    x = b.min(x, b.constant(x, hi.getValueAsDouble()));
  return x;
}

OpFoldResult ClampOp::fold(FoldAdaptor adaptor) {
  return foldElementwise(*this, adaptor.getOperands());
}

Value StopGradientOp::buildScalar(ScalarBuilder &, ValueRange operands) {
  return operands[0];
}

//===----------------------------------------------------------------------===//
// MatmulOp
//===----------------------------------------------------------------------===//

FailureOr<RankedTensorType>
mlir::rlx::inferMatmulType(std::optional<Location> loc, Value lhsValue,
                           Value rhsValue) {
  auto lhs = dyn_cast<RankedTensorType>(lhsValue.getType());
  auto rhs = dyn_cast<RankedTensorType>(rhsValue.getType());
  if (!lhs || !rhs)
    return emitOptionalError(loc, "expected ranked tensor operands");
  if (lhs.getRank() < 2 || rhs.getRank() < 2)
    return emitOptionalError(loc, "operands must have rank >= 2, got ",
                             lhs.getRank(), " and ", rhs.getRank());
  ArrayRef<int64_t> l = lhs.getShape(), r = rhs.getShape();
  int64_t k = l.back(), kr = r[r.size() - 2];
  if (k != kr)
    return emitOptionalError(loc, "contracting dimensions differ: lhs ",
                             formatShape(l), " has K = ", k, ", rhs ",
                             formatShape(r), " has K = ", kr);
  SmallVector<int64_t> batch;
  if (!OpTrait::util::getBroadcastedShape(l.drop_back(2), r.drop_back(2),
                                          batch))
    return emitOptionalError(loc,
                             "batch dimensions are not broadcast "
                             "compatible: ",
                             formatShape(l.drop_back(2)), " and ",
                             formatShape(r.drop_back(2)));
  batch.push_back(l[l.size() - 2]);
  batch.push_back(r.back());
  return RankedTensorType::get(batch, lhs.getElementType());
}

LogicalResult MatmulOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  FailureOr<RankedTensorType> type =
      inferMatmulType(loc, adaptor.getLhs(), adaptor.getRhs());
  if (failed(type))
    return failure();
  inferred.push_back(*type);
  return success();
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

/// Normalizes and checks reduction axes; sorted on success.
static FailureOr<SmallVector<int64_t>>
normalizeReduceAxes(std::optional<Location> loc, ArrayRef<int64_t> axes,
                    int64_t rank) {
  if (axes.empty())
    return emitOptionalError(loc, "requires at least one reduction axis");
  SmallVector<int64_t> normalized;
  llvm::SmallBitVector seen(rank);
  for (int64_t axis : axes) {
    FailureOr<int64_t> n = normalizeAxis(loc, axis, rank);
    if (failed(n))
      return failure();
    if (seen.test(*n))
      return emitOptionalError(loc, "axis ", axis, " is reduced twice");
    seen.set(*n);
    normalized.push_back(*n);
  }
  llvm::sort(normalized);
  return normalized;
}

SmallVector<int64_t> ReduceOp::getNormalizedAxes() {
  return *normalizeReduceAxes(std::nullopt, getAxes(),
                              getInput().getType().getRank());
}

LogicalResult ReduceOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  auto input = dyn_cast<RankedTensorType>(adaptor.getInput().getType());
  if (!input)
    return emitOptionalError(loc, "expected a ranked tensor input");
  FailureOr<SmallVector<int64_t>> axes =
      normalizeReduceAxes(loc, adaptor.getAxes(), input.getRank());
  if (failed(axes))
    return failure();
  SmallVector<int64_t> shape;
  for (auto [d, size] : llvm::enumerate(input.getShape())) {
    if (!llvm::is_contained(*axes, static_cast<int64_t>(d)))
      shape.push_back(size);
    else if (adaptor.getKeepDim())
      shape.push_back(1);
  }
  inferred.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

LogicalResult ReduceOp::verify() {
  if (getKind() == ReduceKind::Mean &&
      !isa<FloatType>(getInput().getType().getElementType()))
    return emitOpError("'mean' requires a floating-point input, got ")
           << getInput().getType();
  return success();
}

Value ReduceOp::getReducedInput() { return getInput(); }

SmallVector<int64_t> ReduceOp::getReducedAxes() { return getNormalizedAxes(); }

bool ReduceOp::keepsReducedAxes() { return getKeepDim(); }

Value ReduceOp::buildIdentity(ScalarBuilder &b, Type type) {
  TypedAttr attr;
  OpBuilder &builder = b.getBuilder();
  ReduceKind kind = getKind();
  if (auto floatType = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &sem = floatType.getFloatSemantics();
    switch (kind) {
    case ReduceKind::Sum:
    case ReduceKind::Mean:
      attr = builder.getFloatAttr(type, 0.0);
      break;
    case ReduceKind::Prod:
      attr = builder.getFloatAttr(type, 1.0);
      break;
    case ReduceKind::Max:
      attr = builder.getFloatAttr(type, APFloat::getInf(sem, /*Negative=*/true));
      break;
    case ReduceKind::Min:
      attr = builder.getFloatAttr(type, APFloat::getInf(sem));
      break;
    }
  } else {
    unsigned width = type.getIntOrFloatBitWidth();
    switch (kind) {
    case ReduceKind::Sum:
    case ReduceKind::Mean:
      attr = builder.getIntegerAttr(type, 0);
      break;
    case ReduceKind::Prod:
      attr = builder.getIntegerAttr(type, 1);
      break;
    case ReduceKind::Max:
      attr = builder.getIntegerAttr(type, APInt::getSignedMinValue(width));
      break;
    case ReduceKind::Min:
      attr = builder.getIntegerAttr(type, APInt::getSignedMaxValue(width));
      break;
    }
  }
  return arith::ConstantOp::create(builder, b.getLoc(), attr);
}

Value ReduceOp::buildCombine(ScalarBuilder &b, Value accumulator,
                             Value element) {
  switch (getKind()) {
  case ReduceKind::Sum:
  case ReduceKind::Mean:
    return b.add(accumulator, element);
  case ReduceKind::Prod:
    return b.mul(accumulator, element);
  case ReduceKind::Max:
    return b.max(accumulator, element);
  case ReduceKind::Min:
    return b.min(accumulator, element);
  }
  llvm_unreachable("covered switch");
}

Value ReduceOp::buildFinish(ScalarBuilder &b, Value accumulator,
                            int64_t count) {
  if (getKind() != ReduceKind::Mean)
    return accumulator;
  return b.div(accumulator, b.constant(accumulator, count));
}

//===----------------------------------------------------------------------===//
// SoftmaxOp / LogSoftmaxOp
//===----------------------------------------------------------------------===//

template <typename OpTy> static LogicalResult verifySoftmaxAxis(OpTy op) {
  int64_t rank = op.getType().getRank();
  if (op.getAxis() < -rank || op.getAxis() >= rank)
    return op.emitOpError("axis ")
           << op.getAxis() << " is out of range for rank " << rank;
  return success();
}

LogicalResult SoftmaxOp::verify() { return verifySoftmaxAxis(*this); }

LogicalResult LogSoftmaxOp::verify() { return verifySoftmaxAxis(*this); }

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

//===----------------------------------------------------------------------===//
// ReshapeOp
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::verify() {
  RankedTensorType in = getInput().getType(), out = getType();
  if (in.getNumElements() != out.getNumElements())
    return emitOpError("cannot reshape ")
           << formatShape(in.getShape()) << " (" << in.getNumElements()
           << " elements) to " << formatShape(out.getShape()) << " ("
           << out.getNumElements() << " elements)";
  return success();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getInput()))
    return dense.reshape(getType());
  if (auto producer = getInput().getDefiningOp<ReshapeOp>()) {
    getInputMutable().assign(producer.getInput());
    return getResult();
  }
  return {};
}

//===----------------------------------------------------------------------===//
// TransposeOp
//===----------------------------------------------------------------------===//

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  auto input = dyn_cast<RankedTensorType>(adaptor.getInput().getType());
  if (!input)
    return emitOptionalError(loc, "expected a ranked tensor input");
  ArrayRef<int64_t> perm = adaptor.getPermutation();
  if (static_cast<int64_t>(perm.size()) != input.getRank())
    return emitOptionalError(loc, "permutation has ", perm.size(),
                             " entries but the input has rank ",
                             input.getRank());
  if (!isPermutationVector(perm))
    return emitOptionalError(loc, "permutation ", formatShape(perm),
                             " is not a permutation of [0, ", perm.size(), ")");
  SmallVector<int64_t> shape;
  for (int64_t d : perm)
    shape.push_back(input.getDimSize(d));
  inferred.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

OpFoldResult TransposeOp::fold(FoldAdaptor) {
  ArrayRef<int64_t> perm = getPermutation();
  if (llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
    return getInput();
  // transpose(transpose(x, p), q) = transpose(x, p o q).
  if (auto producer = getInput().getDefiningOp<TransposeOp>()) {
    SmallVector<int64_t> composed;
    for (int64_t d : perm)
      composed.push_back(producer.getPermutation()[d]);
    getInputMutable().assign(producer.getInput());
    setPermutation(composed);
    if (llvm::equal(composed, llvm::seq<int64_t>(0, composed.size())))
      return getInput();
    return getResult();
  }
  return {};
}

//===----------------------------------------------------------------------===//
// ExpandOp
//===----------------------------------------------------------------------===//

LogicalResult ExpandOp::verify() {
  ArrayRef<int64_t> in = getInput().getType().getShape();
  ArrayRef<int64_t> out = getType().getShape();
  if (in.size() > out.size())
    return emitOpError("cannot expand rank ")
           << in.size() << " to the lower rank " << out.size();
  int64_t lead = out.size() - in.size();
  for (auto [d, size] : llvm::enumerate(in))
    if (size != 1 && size != out[lead + d])
      return emitOpError("cannot expand ")
             << formatShape(in) << " to " << formatShape(out)
             << ": input dimension " << d << " has size " << size
             << " but the result has " << out[lead + d]
             << "; only size-1 dimensions broadcast";
  return success();
}

OpFoldResult ExpandOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getInput()))
    if (dense.isSplat())
      return SplatElementsAttr::get(getType(),
                                    dense.getSplatValue<Attribute>());
  return {};
}

//===----------------------------------------------------------------------===//
// ConcatOp
//===----------------------------------------------------------------------===//

LogicalResult ConcatOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  if (adaptor.getInputs().empty())
    return emitOptionalError(loc, "requires at least one input");
  for (Value input : adaptor.getInputs())
    if (!isa<RankedTensorType>(input.getType()))
      return emitOptionalError(loc, "expected ranked tensor inputs");
  auto first = cast<RankedTensorType>(adaptor.getInputs().front().getType());
  FailureOr<int64_t> axis =
      normalizeAxis(loc, adaptor.getAxis(), first.getRank());
  if (failed(axis))
    return failure();
  SmallVector<int64_t> shape(first.getShape());
  shape[*axis] = 0;
  for (auto [i, value] : llvm::enumerate(adaptor.getInputs())) {
    auto type = cast<RankedTensorType>(value.getType());
    if (type.getRank() != first.getRank())
      return emitOptionalError(loc, "input ", i, " has rank ", type.getRank(),
                               ", expected ", first.getRank());
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (d != *axis && type.getDimSize(d) != first.getDimSize(d))
        return emitOptionalError(
            loc, "input ", i, " has shape ", formatShape(type.getShape()),
            ", which differs from ", formatShape(first.getShape()),
            " outside the concatenation axis ", *axis);
    shape[*axis] += type.getDimSize(*axis);
  }
  inferred.push_back(RankedTensorType::get(shape, first.getElementType()));
  return success();
}

OpFoldResult ConcatOp::fold(FoldAdaptor) {
  if (getInputs().size() == 1)
    return getInputs().front();
  return {};
}

//===----------------------------------------------------------------------===//
// NarrowOp / SliceOp
//===----------------------------------------------------------------------===//

/// Checks that `start + j * step`, j in [0, length), stays inside the axis and
/// returns the result type.
static LogicalResult inferWindowType(std::optional<Location> loc,
                                     Type inputType, int64_t axis,
                                     int64_t start, int64_t length,
                                     int64_t step,
                                     SmallVectorImpl<Type> &inferred) {
  auto input = dyn_cast<RankedTensorType>(inputType);
  if (!input)
    return emitOptionalError(loc, "expected a ranked tensor input");
  FailureOr<int64_t> dim = normalizeAxis(loc, axis, input.getRank());
  if (failed(dim))
    return failure();
  int64_t size = input.getDimSize(*dim);
  if (step == 0)
    return emitOptionalError(loc, "step must be non-zero");
  if (length < 0)
    return emitOptionalError(loc, "length must be >= 0, got ", length);
  auto outside = [&] {
    return emitOptionalError(loc, "window start = ", start,
                             ", length = ", length, ", step = ", step,
                             " reads outside axis ", *dim, " of size ", size);
  };
  if (length == 0) {
    // An empty window may sit at the end of the axis (x[n:n]).
    if (start < 0 || start > size)
      return outside();
  } else {
    std::optional<int64_t> span = llvm::checkedMul(length - 1, step);
    std::optional<int64_t> last =
        span ? llvm::checkedAdd(start, *span) : std::nullopt;
    if (start < 0 || start >= size || !last || *last < 0 || *last >= size)
      return outside();
  }
  SmallVector<int64_t> shape(input.getShape());
  shape[*dim] = length;
  inferred.push_back(RankedTensorType::get(shape, input.getElementType()));
  return success();
}

LogicalResult NarrowOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  return inferWindowType(loc, adaptor.getInput().getType(), adaptor.getAxis(),
                         adaptor.getStart(), adaptor.getLength(), /*step=*/1,
                         inferred);
}

OpFoldResult NarrowOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}

LogicalResult SliceOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  return inferWindowType(loc, adaptor.getInput().getType(), adaptor.getAxis(),
                         adaptor.getStart(), adaptor.getLength(),
                         adaptor.getStep(), inferred);
}

#define GET_OP_CLASSES
#include "rlx/Dialect/Rlx/IR/RlxOps.cpp.inc"
