//===- RlxOps.cpp - rlx op verifiers, shape inference and folders ---------===//
#include "rlx/Dialect/Rlx/IR/RlxOps.h"
#include "OpUtils.h"
#include "PrimitiveBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Traits.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::rlx;

std::string mlir::rlx::formatSize(AffineExpr size) {
  if (auto constant = dyn_cast<AffineConstantExpr>(size))
    return std::to_string(constant.getValue());
  return "?";
}

std::string mlir::rlx::formatShape(ArrayRef<int64_t> shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << '[';
  llvm::interleaveComma(shape, os, [&](int64_t size) {
    if (ShapedType::isDynamic(size))
      os << '?';
    else
      os << size;
  });
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

Value mlir::rlx::createBatchZeros(OpBuilder &b, Location loc,
                                  RankedTensorType type, Value batchSource,
                                  int64_t batchAxis) {
  Type element = type.getElementType();
  if (type.hasStaticShape())
    return ConstantOp::create(
        b, loc, DenseElementsAttr::get(type, b.getFloatAttr(element, 0)));
  int64_t rank = cast<RankedTensorType>(batchSource.getType()).getRank();
  SmallVector<int64_t> otherAxes;
  for (int64_t axis = 0; axis < rank; ++axis)
    if (axis != batchAxis)
      otherAxes.push_back(axis);
  Value sizes = ReduceOp::create(b, loc, batchSource, ReduceKind::Sum,
                                 otherAxes, /*keep_dim=*/false);
  SmallVector<int64_t> columnShape(type.getRank(), 1);
  columnShape[0] = ShapedType::kDynamic;
  auto columnType = RankedTensorType::get(columnShape, element);
  Value like = ReshapeOp::create(b, loc, columnType, sizes);
  Value column = ExpandOp::create(
      b, loc, columnType, PrimitiveBuilder(b, loc).scalar(element, 0), like);
  return ExpandOp::create(b, loc, type, column);
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

/// An op without a shape rule requires static shapes (destination-style ops
/// are shaped by their inits); an op with one has result types that agree
/// with it: a size the rule knows is that size or `?`, and a size it does
/// not know is `?`.
LogicalResult mlir::rlx::verifyShapesFollowRule(Operation *op) {
  auto isRanked = [](Type type) { return isa<RankedTensorType>(type); };
  auto rule = dyn_cast<SymbolicShapeOpInterface>(op);
  // Destination-style results are shaped as their inits; ops that infer
  // their result types through the rule are checked by InferTypeOpInterface;
  // the rules of ops with regions read their bodies, whose ops are verified
  // later: their region verifiers check them (verifyResultsFollowRule).
  if (isa<DestinationStyleOpInterface>(op) ||
      (rule && (isa<InferTypeOpInterface>(op) || op->getNumRegions() > 0)))
    return success();
  if (!rule) {
    // An op without results (a terminator) computes no sizes.
    if (op->getNumResults() == 0)
      return success();
    auto check = [&](Type type, StringRef kind,
                     unsigned index) -> LogicalResult {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor || tensor.hasStaticShape())
        return success();
      return op->emitOpError("does not support dynamic dimensions: ")
             << kind << " #" << index << " has type " << type;
    };
    for (auto [index, type] : llvm::enumerate(op->getOperandTypes()))
      if (failed(check(type, "operand", index)))
        return failure();
    for (auto [index, type] : llvm::enumerate(op->getResultTypes()))
      if (failed(check(type, "result", index)))
        return failure();
    return success();
  }
  // ODS reports operands and results that are not ranked tensors.
  if (!llvm::all_of(op->getOperandTypes(), isRanked) ||
      !llvm::all_of(op->getResultTypes(), isRanked))
    return success();
  return verifyResultsFollowRule(rule);
}

LogicalResult
mlir::rlx::verifyResultsFollowRule(SymbolicShapeOpInterface rule) {
  Operation *op = rule;
  ShapeContext context(op->getContext());
  SmallVector<SymbolicShape> shapes;
  if (failed(rule.inferSymbolicShapes(context, shapes)))
    return failure();
  if (shapes.size() != op->getNumResults())
    return op->emitOpError("shape rule gives ")
           << shapes.size() << " shapes for " << op->getNumResults()
           << " results";
  for (auto [index, result] : llvm::enumerate(op->getResults())) {
    auto type = cast<RankedTensorType>(result.getType());
    ArrayRef<AffineExpr> shape = shapes[index];
    bool agrees = static_cast<int64_t>(shape.size()) == type.getRank();
    for (auto [size, declared] : llvm::zip(shape, type.getShape())) {
      if (!agrees || ShapedType::isDynamic(declared))
        continue;
      auto constant = dyn_cast<AffineConstantExpr>(size);
      agrees = constant && constant.getValue() == declared;
    }
    if (!agrees)
      return op->emitOpError("result #")
             << index << " has type " << type << ", but its shape is "
             << ShapeContext::format(shape);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Broadcasting and elementwise folding
//===----------------------------------------------------------------------===//

static bool isStaticOne(AffineExpr size) {
  auto constant = dyn_cast<AffineConstantExpr>(size);
  return constant && constant.getValue() == 1;
}

FailureOr<SymbolicShape> mlir::rlx::inferBroadcastShape(
    ShapeContext &context, std::optional<Location> loc, ValueRange operands) {
  SymbolicShape shape;
  for (Value operand : operands) {
    if (!isa<RankedTensorType>(operand.getType()))
      return emitOptionalError(loc, "expected ranked tensor operands");
    SymbolicShape next = context.getShape(operand);
    SymbolicShape &longer = next.size() > shape.size() ? next : shape;
    SymbolicShape &shorter = next.size() > shape.size() ? shape : next;
    SymbolicShape result = longer;
    size_t lead = longer.size() - shorter.size();
    for (auto [d, size] : llvm::enumerate(shorter)) {
      AffineExpr &out = result[lead + d];
      if (isStaticOne(out) || context.isKnownEqual(out, size)) {
        out = size;
        continue;
      }
      if (isStaticOne(size))
        continue;
      if (!context.requireEqual(out, size))
        return emitOptionalError(loc,
                                 "operand shapes are not broadcast "
                                 "compatible: ",
                                 ShapeContext::format(shape), " and ",
                                 ShapeContext::format(next));
      if (isa<AffineConstantExpr>(size))
        out = size;
    }
    shape = std::move(result);
  }
  return shape;
}

LogicalResult mlir::rlx::inferBroadcastResultType(
    MLIRContext *context, std::optional<Location> loc, ValueRange operands,
    Type elementType, SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  FailureOr<SymbolicShape> shape = inferBroadcastShape(shapes, loc, operands);
  if (failed(shape))
    return failure();
  if (!elementType)
    elementType =
        cast<RankedTensorType>(operands.back().getType()).getElementType();
  inferred.push_back(ShapeContext::getType(*shape, elementType));
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

FailureOr<SymbolicShape>
mlir::rlx::inferMatmulShape(ShapeContext &context, std::optional<Location> loc,
                            Value lhsValue, Value rhsValue) {
  auto lhs = dyn_cast<RankedTensorType>(lhsValue.getType());
  auto rhs = dyn_cast<RankedTensorType>(rhsValue.getType());
  if (!lhs || !rhs)
    return emitOptionalError(loc, "expected ranked tensor operands");
  if (lhs.getRank() < 2 || rhs.getRank() < 2)
    return emitOptionalError(loc, "operands must have rank >= 2, got ",
                             lhs.getRank(), " and ", rhs.getRank());
  SymbolicShape l = context.getShape(lhsValue);
  SymbolicShape r = context.getShape(rhsValue);
  if (!context.requireEqual(l.back(), r[r.size() - 2]))
    return emitOptionalError(
        loc, "contracting dimensions differ: lhs ", formatShape(lhs.getShape()),
        " has K = ", lhs.getShape().back(), ", rhs ",
        formatShape(rhs.getShape()), " has K = ", rhs.getShape()[r.size() - 2]);
  // The batch dimensions broadcast as elementwise operands do.
  SymbolicShape batch;
  ArrayRef<AffineExpr> lb = ArrayRef(l).drop_back(2),
                       rb = ArrayRef(r).drop_back(2);
  size_t rank = std::max(lb.size(), rb.size());
  for (size_t i = 0; i < rank; ++i) {
    AffineExpr a = i + lb.size() >= rank ? lb[i + lb.size() - rank]
                                         : context.getConstant(1);
    AffineExpr b = i + rb.size() >= rank ? rb[i + rb.size() - rank]
                                         : context.getConstant(1);
    if (isStaticOne(a) || context.isKnownEqual(a, b))
      batch.push_back(b);
    else if (isStaticOne(b))
      batch.push_back(a);
    else if (context.requireEqual(a, b))
      batch.push_back(isa<AffineConstantExpr>(b) ? b : a);
    else
      return emitOptionalError(loc,
                               "batch dimensions are not broadcast "
                               "compatible: ",
                               formatShape(lhs.getShape().drop_back(2)),
                               " and ",
                               formatShape(rhs.getShape().drop_back(2)));
  }
  batch.push_back(l[l.size() - 2]);
  batch.push_back(r.back());
  return batch;
}

FailureOr<RankedTensorType>
mlir::rlx::inferMatmulType(std::optional<Location> loc, Value lhs, Value rhs) {
  ShapeContext context(lhs.getContext());
  FailureOr<SymbolicShape> shape = inferMatmulShape(context, loc, lhs, rhs);
  if (failed(shape))
    return failure();
  return ShapeContext::getType(
      *shape, cast<RankedTensorType>(lhs.getType()).getElementType());
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

LogicalResult
MatmulOp::inferSymbolicShapes(ShapeContext &context,
                              SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(inferMatmulShape(context, getLoc(), getLhs(), getRhs()),
                     shapes);
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

/// Normalizes and checks reduction axes (or axes that are `verb`, e.g.
/// counted); sorted on success.
static FailureOr<SmallVector<int64_t>>
normalizeReduceAxes(std::optional<Location> loc, ArrayRef<int64_t> axes,
                    int64_t rank, StringRef verb = "reduced") {
  if (axes.empty())
    return emitOptionalError(loc, "requires at least one ", verb, " axis");
  SmallVector<int64_t> normalized;
  llvm::SmallBitVector seen(rank);
  for (int64_t axis : axes) {
    FailureOr<int64_t> n = normalizeAxis(loc, axis, rank);
    if (failed(n))
      return failure();
    if (seen.test(*n))
      return emitOptionalError(loc, "axis ", axis, " is ", verb, " twice");
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

static FailureOr<SymbolicShape> inferReduceShape(ShapeContext &context,
                                                 std::optional<Location> loc,
                                                 ReduceOp::Adaptor adaptor) {
  auto input = dyn_cast<RankedTensorType>(adaptor.getInput().getType());
  if (!input)
    return emitOptionalError(loc, "expected a ranked tensor input");
  FailureOr<SmallVector<int64_t>> axes =
      normalizeReduceAxes(loc, adaptor.getAxes(), input.getRank());
  if (failed(axes))
    return failure();
  SymbolicShape shape;
  for (auto [d, size] : llvm::enumerate(context.getShape(adaptor.getInput()))) {
    if (!llvm::is_contained(*axes, static_cast<int64_t>(d)))
      shape.push_back(size);
    else if (adaptor.getKeepDim())
      shape.push_back(context.getConstant(1));
  }
  return shape;
}

LogicalResult ReduceOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  return appendType(inferReduceShape(shapes, loc, adaptor),
                    getElementTypeOrSelf(adaptor.getInput().getType()),
                    inferred);
}

LogicalResult
ReduceOp::inferSymbolicShapes(ShapeContext &context,
                              SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(inferReduceShape(context, getLoc(), Adaptor(*this)),
                     shapes);
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
                            OpFoldResult count) {
  if (getKind() != ReduceKind::Mean)
    return accumulator;
  if (std::optional<int64_t> constant = getConstantIntValue(count))
    return b.div(accumulator, b.constant(accumulator, *constant));
  OpBuilder &builder = b.getBuilder();
  Value count64 = arith::IndexCastOp::create(
      builder, b.getLoc(), builder.getI64Type(), cast<Value>(count));
  Value divisor = arith::SIToFPOp::create(builder, b.getLoc(),
                                          accumulator.getType(), count64);
  return b.div(accumulator, divisor);
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

/// The product of `sizes`.
static AffineExpr getProduct(ShapeContext &context,
                             ArrayRef<AffineExpr> sizes) {
  AffineExpr product = context.getConstant(1);
  for (AffineExpr size : sizes)
    product = product * size;
  return product;
}

// With n `?` result sizes, the first n - 1 are the input sizes at the same
// positions (a reshape of the trailing dimensions keeps the leading
// dynamic ones) and the last is what the element count leaves.
LogicalResult
ReshapeOp::inferSymbolicShapes(ShapeContext &context,
                               SmallVectorImpl<SymbolicShape> &shapes) {
  SymbolicShape in = context.getShape(getInput());
  ArrayRef<int64_t> declared = getType().getShape();
  SmallVector<int64_t> dynamic;
  for (auto [d, size] : llvm::enumerate(declared))
    if (ShapedType::isDynamic(size))
      dynamic.push_back(d);
  // The input's `?` sizes, in order: the k-th `?` of the result (but the
  // last) takes the k-th.
  SmallVector<int64_t> inputDynamic;
  for (auto [d, size] : llvm::enumerate(getInput().getType().getShape()))
    if (ShapedType::isDynamic(size))
      inputDynamic.push_back(d);
  SymbolicShape out;
  SymbolicShape remaining = in;
  int64_t staticCount = 1;
  size_t copied = 0;
  for (auto [d, size] : llvm::enumerate(declared)) {
    if (!ShapedType::isDynamic(size)) {
      out.push_back(context.getConstant(size));
      std::optional<int64_t> product = llvm::checkedMul(staticCount, size);
      if (!product)
        return emitOpError("result sizes ")
               << formatShape(declared) << " multiply past 2^63";
      staticCount = *product;
      continue;
    }
    if (static_cast<int64_t>(d) == dynamic.back()) {
      out.push_back(AffineExpr());
      continue;
    }
    if (copied == inputDynamic.size())
      return emitOpError("result dimension ")
             << d << " is `?` but the input has no `?` dimension left to "
             << "take its size from";
    int64_t source = inputDynamic[copied++];
    out.push_back(in[source]);
    remaining[source] = context.getConstant(1);
  }
  AffineExpr count = getProduct(context, remaining);
  auto mismatch = [&] {
    InFlightDiagnostic diag = emitOpError("cannot reshape ")
                              << ShapeContext::format(in);
    if (auto inCount = dyn_cast<AffineConstantExpr>(getProduct(context, in)))
      diag << " (" << inCount.getValue() << " elements)";
    diag << " to " << formatShape(declared);
    if (dynamic.empty())
      diag << " (" << staticCount << " elements)";
    else
      diag << ": the element counts do not divide";
    return diag;
  };
  if (dynamic.empty()) {
    if (!context.requireEqual(count, context.getConstant(staticCount)))
      return mismatch();
  } else {
    if (staticCount == 0)
      return emitOpError("cannot infer the `?` size of result dimension ")
             << dynamic.back() << " next to a size-0 dimension";
    if (!context.requireEqual(count % staticCount, context.getConstant(0)))
      return mismatch();
    out[dynamic.back()] = count.floorDiv(staticCount);
  }
  shapes.push_back(out);
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

static FailureOr<SymbolicShape>
inferTransposeShape(ShapeContext &context, std::optional<Location> loc,
                    TransposeOp::Adaptor adaptor) {
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
  SymbolicShape shape = context.getShape(adaptor.getInput());
  return llvm::map_to_vector<4>(perm, [&](int64_t d) { return shape[d]; });
}

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *context,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  return appendType(inferTransposeShape(shapes, loc, adaptor),
                    getElementTypeOrSelf(adaptor.getInput().getType()),
                    inferred);
}

LogicalResult
TransposeOp::inferSymbolicShapes(ShapeContext &context,
                                 SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(inferTransposeShape(context, getLoc(), Adaptor(*this)),
                     shapes);
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

LogicalResult
ExpandOp::inferSymbolicShapes(ShapeContext &context,
                              SmallVectorImpl<SymbolicShape> &shapes) {
  SymbolicShape in = context.getShape(getInput());
  ArrayRef<int64_t> out = getType().getShape();
  if (in.size() > out.size())
    return emitOpError("cannot expand rank ")
           << in.size() << " to the lower rank " << out.size();
  std::optional<SymbolicShape> like;
  if (getLike()) {
    like = context.getShape(getLike());
    if (like->size() != out.size())
      return emitOpError("result rank ")
             << out.size() << " differs from the rank " << like->size()
             << " of `like`";
  }
  auto formatSize = [](AffineExpr size) {
    return StringRef(ShapeContext::format(size)).drop_front().drop_back().str();
  };
  int64_t lead = out.size() - in.size();
  SymbolicShape shape;
  for (auto [d, size] : llvm::enumerate(out)) {
    int64_t inDim = static_cast<int64_t>(d) - lead;
    AffineExpr from = inDim >= 0 ? in[inDim] : context.getConstant(1);
    // The size of the result: `like`'s, else the declared one, else (a `?`
    // that is not repeated) the input's.
    AffineExpr to = like                           ? (*like)[d]
                    : !ShapedType::isDynamic(size) ? context.getConstant(size)
                                                   : AffineExpr();
    if (!isStaticOne(from)) {
      // Not repeated: the size passes through.
      if (to && !context.requireEqual(from, to))
        return emitOpError("cannot expand ")
               << ShapeContext::format(in) << " to "
               << (like ? ShapeContext::format(*like) : formatShape(out))
               << ": input dimension " << inDim << " has size "
               << formatSize(from) << " but the result has " << formatSize(to)
               << "; only size-1 dimensions broadcast";
      shape.push_back(to ? to : from);
      continue;
    }
    if (!to)
      return emitOpError("result dimension ")
             << d << " is `?` where the input has size 1: a repeated "
             << "dimension needs a static size or a `like` operand";
    shape.push_back(to);
  }
  shapes.push_back(shape);
  return success();
}

OpFoldResult ExpandOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getInput()))
    if (dense.isSplat() && getType().hasStaticShape())
      return SplatElementsAttr::get(getType(),
                                    dense.getSplatValue<Attribute>());
  return {};
}

//===----------------------------------------------------------------------===//
// NumelOp
//===----------------------------------------------------------------------===//

SmallVector<int64_t> NumelOp::getNormalizedAxes() {
  return *normalizeReduceAxes(std::nullopt, getAxes(),
                              getInput().getType().getRank());
}

LogicalResult
NumelOp::inferSymbolicShapes(ShapeContext &context,
                             SmallVectorImpl<SymbolicShape> &shapes) {
  if (failed(normalizeReduceAxes(getLoc(), getAxes(),
                                 getInput().getType().getRank(), "counted")))
    return failure();
  shapes.push_back({});
  return success();
}

OpFoldResult NumelOp::fold(FoldAdaptor) {
  ArrayRef<int64_t> sizes = getInput().getType().getShape();
  int64_t count = 1;
  for (int64_t axis : getNormalizedAxes()) {
    if (ShapedType::isDynamic(sizes[axis]))
      return {};
    count *= sizes[axis];
  }
  RankedTensorType type = getType();
  Type element = type.getElementType();
  Attribute value =
      isa<FloatType>(element)
          ? Attribute(FloatAttr::get(element, static_cast<double>(count)))
          : Attribute(IntegerAttr::get(element, count));
  return DenseElementsAttr::get(type, value);
}

//===----------------------------------------------------------------------===//
// ConcatOp
//===----------------------------------------------------------------------===//

static FailureOr<SymbolicShape> inferConcatShape(ShapeContext &context,
                                                 std::optional<Location> loc,
                                                 ConcatOp::Adaptor adaptor) {
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
  SymbolicShape shape = context.getShape(adaptor.getInputs().front());
  shape[*axis] = context.getConstant(0);
  for (auto [i, value] : llvm::enumerate(adaptor.getInputs())) {
    auto type = cast<RankedTensorType>(value.getType());
    if (type.getRank() != first.getRank())
      return emitOptionalError(loc, "input ", i, " has rank ", type.getRank(),
                               ", expected ", first.getRank());
    SymbolicShape sizes = context.getShape(value);
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (d != *axis && !context.requireEqual(sizes[d], shape[d]))
        return emitOptionalError(
            loc, "input ", i, " has shape ", formatShape(type.getShape()),
            ", which differs from ", formatShape(first.getShape()),
            " outside the concatenation axis ", *axis);
    shape[*axis] = shape[*axis] + sizes[*axis];
  }
  return shape;
}

LogicalResult ConcatOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  FailureOr<SymbolicShape> shape = inferConcatShape(shapes, loc, adaptor);
  if (failed(shape))
    return failure();
  inferred.push_back(ShapeContext::getType(
      *shape, cast<RankedTensorType>(adaptor.getInputs().front().getType())
                  .getElementType()));
  return success();
}

LogicalResult
ConcatOp::inferSymbolicShapes(ShapeContext &context,
                              SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(inferConcatShape(context, getLoc(), Adaptor(*this)),
                     shapes);
}

OpFoldResult ConcatOp::fold(FoldAdaptor) {
  if (getInputs().size() == 1)
    return getInputs().front();
  return {};
}

//===----------------------------------------------------------------------===//
// NarrowOp / SliceOp
//===----------------------------------------------------------------------===//

/// The shape of a window of `length` elements `start + j * step` along
/// `axis`; every index read lies inside the axis (required at run time
/// where the axis is `?`).
static FailureOr<SymbolicShape> inferWindowShape(ShapeContext &context,
                                                 std::optional<Location> loc,
                                                 Value inputValue, int64_t axis,
                                                 int64_t start, int64_t length,
                                                 int64_t step) {
  auto input = dyn_cast<RankedTensorType>(inputValue.getType());
  if (!input)
    return emitOptionalError(loc, "expected a ranked tensor input");
  FailureOr<int64_t> dim = normalizeAxis(loc, axis, input.getRank());
  if (failed(dim))
    return failure();
  if (step == 0)
    return emitOptionalError(loc, "step must be non-zero");
  if (length < 0)
    return emitOptionalError(loc, "length must be >= 0, got ", length);
  SymbolicShape shape = context.getShape(inputValue);
  AffineExpr size = shape[*dim];
  auto outside = [&] {
    auto constant = dyn_cast<AffineConstantExpr>(size);
    return emitOptionalError(
        loc, "window start = ", start, ", length = ", length, ", step = ", step,
        " reads outside axis ", *dim, " of size ",
        constant ? std::to_string(constant.getValue()) : std::string("?"));
  };
  // The lowest and highest index read (an empty window may sit at the end
  // of the axis: x[n:n]).
  int64_t low = start, high = start;
  if (length == 0) {
    if (start < 0 ||
        !context.requireLessEqual(context.getConstant(start), size))
      return outside();
  } else {
    std::optional<int64_t> span = llvm::checkedMul(length - 1, step);
    std::optional<int64_t> last =
        span ? llvm::checkedAdd(start, *span) : std::nullopt;
    if (!last || *last == std::numeric_limits<int64_t>::max())
      return outside();
    low = std::min(start, *last);
    high = std::max(start, *last);
    if (low < 0 ||
        !context.requireLessEqual(context.getConstant(high + 1), size))
      return outside();
  }
  shape[*dim] = context.getConstant(length);
  return shape;
}

static LogicalResult inferWindowType(MLIRContext *context,
                                     std::optional<Location> loc, Value input,
                                     int64_t axis, int64_t start,
                                     int64_t length, int64_t step,
                                     SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  FailureOr<SymbolicShape> shape =
      inferWindowShape(shapes, loc, input, axis, start, length, step);
  if (failed(shape))
    return failure();
  inferred.push_back(ShapeContext::getType(
      *shape, cast<RankedTensorType>(input.getType()).getElementType()));
  return success();
}

LogicalResult NarrowOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  return inferWindowType(context, loc, adaptor.getInput(), adaptor.getAxis(),
                         adaptor.getStart(), adaptor.getLength(), /*step=*/1,
                         inferred);
}

LogicalResult
NarrowOp::inferSymbolicShapes(ShapeContext &context,
                              SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(inferWindowShape(context, getLoc(), getInput(), getAxis(),
                                      getStart(), getLength(), /*step=*/1),
                     shapes);
}

OpFoldResult NarrowOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}

LogicalResult SliceOp::inferReturnTypes(MLIRContext *context,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  return inferWindowType(context, loc, adaptor.getInput(), adaptor.getAxis(),
                         adaptor.getStart(), adaptor.getLength(),
                         adaptor.getStep(), inferred);
}

LogicalResult
SliceOp::inferSymbolicShapes(ShapeContext &context,
                             SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(inferWindowShape(context, getLoc(), getInput(), getAxis(),
                                      getStart(), getLength(), getStep()),
                     shapes);
}

#define GET_OP_CLASSES
#include "rlx/Dialect/Rlx/IR/RlxOps.cpp.inc"
