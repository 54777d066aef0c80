//===- ControlFlowOps.cpp - rlx.if, rlx.while, rlx.scan, rlx.custom_fn ----===//
//
// Region verifiers and shape rules of the control-flow ops and of
// rlx.custom_fn, whose body is a region like theirs. The shape rules
// run the rules of the ops in the regions (the regions' values get sizes in
// the same context as the enclosing function's). Loops keep the sizes of
// their carried values, as jax.lax's do, so that every size in a body is
// one of the function's; the results of rlx.if have the size both branches
// provably give, else an unknown one (a branch-dependent size).
//
//===----------------------------------------------------------------------===//
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include "OpUtils.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::rlx;

/// Checks that `yield` (of `op`) yields `values` of `types` (`what` names
/// them in the diagnostic); `exact` false lets a yielded type be a static
/// refinement of the one expected (a branch yielding 4 where the result is
/// `?`).
static LogicalResult verifyYielded(YieldOp yield, ValueRange values,
                                   TypeRange types, StringRef what,
                                   bool exact = true) {
  if (values.size() != types.size())
    return yield.emitOpError("yields ") << values.size() << " values where "
                                        << what << " needs " << types.size();
  for (auto [index, value, type] : llvm::enumerate(values, types)) {
    bool fits = value.getType() == type;
    if (!exact && !fits) {
      auto got = cast<RankedTensorType>(value.getType());
      auto want = cast<RankedTensorType>(type);
      fits = got.getElementType() == want.getElementType() &&
             got.getRank() == want.getRank() &&
             llvm::all_of(llvm::zip(got.getShape(), want.getShape()),
                          [](auto sizes) {
                            auto [have, need] = sizes;
                            return ShapedType::isDynamic(need) || have == need;
                          });
    }
    if (!fits)
      return yield.emitOpError("value #")
             << index << " has type " << value.getType() << " where " << what
             << " needs " << type;
  }
  return success();
}

/// The rlx.yield ending `region` of `op`; fails with a diagnostic.
static FailureOr<YieldOp> getYield(Operation *op, Region &region) {
  Block &block = region.front();
  if (auto yield = block.empty() ? YieldOp() : dyn_cast<YieldOp>(block.back()))
    return yield;
  return op->emitOpError("region must end in rlx.yield");
}

/// Checks that the entry block of `region` takes arguments of `types`.
static LogicalResult verifyArguments(Operation *op, Region &region,
                                     TypeRange types, StringRef what) {
  Block &block = region.front();
  if (block.getNumArguments() != types.size())
    return op->emitOpError(what) << " takes " << block.getNumArguments()
                                 << " arguments, expected " << types.size();
  for (auto [index, argument, type] :
       llvm::enumerate(block.getArguments(), types))
    if (argument.getType() != type)
      return op->emitOpError(what)
             << " argument #" << index << " has type " << argument.getType()
             << ", expected " << type;
  return success();
}

/// The size of a result that two regions give as `a` and `b`: theirs when
/// they are known equal, else `declared` when static, else unknown.
static AffineExpr mergeSize(ShapeContext &context, AffineExpr a, AffineExpr b,
                            int64_t declared) {
  if (context.isKnownEqual(a, b))
    return a;
  if (!ShapedType::isDynamic(declared))
    return context.getConstant(declared);
  return context.getUnknownSize();
}

/// Requires each of `next` (a body's yielded carried values) to have the
/// sizes of the `inits` it replaces, and appends those sizes to `shapes`.
static LogicalResult
requireCarriedShapes(Operation *op, ShapeContext &context, ValueRange inits,
                     ValueRange next, SmallVectorImpl<SymbolicShape> &shapes) {
  for (auto [init, value] : llvm::zip(inits, next)) {
    SymbolicShape initShape = context.getShape(init);
    SymbolicShape nextShape = context.getShape(value);
    for (auto [before, after] : llvm::zip(initShape, nextShape))
      if (!context.requireEqual(before, after))
        return op->emitOpError("the body changes a carried value's shape from ")
               << ShapeContext::format(initShape) << " to "
               << ShapeContext::format(nextShape);
    shapes.push_back(initShape);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// IfOp
//===----------------------------------------------------------------------===//

LogicalResult IfOp::verifyRegions() {
  for (Region *region : {&getThenRegion(), &getElseRegion()}) {
    FailureOr<YieldOp> yield = getYield(*this, *region);
    if (failed(yield) ||
        failed(verifyYielded(*yield, yield->getValues(), getResultTypes(),
                             "the result", /*exact=*/false)))
      return failure();
  }
  return verifyResultsFollowRule(*this);
}

// A result has the size both branches give it when they provably agree.
LogicalResult
IfOp::inferSymbolicShapes(ShapeContext &context,
                          SmallVectorImpl<SymbolicShape> &shapes) {
  if (failed(context.inferBlock(getThenRegion().front())) ||
      failed(context.inferBlock(getElseRegion().front())))
    return failure();
  FailureOr<YieldOp> thenYield = getYield(*this, getThenRegion());
  FailureOr<YieldOp> elseYield = getYield(*this, getElseRegion());
  if (failed(thenYield) || failed(elseYield))
    return failure();
  for (auto [thenValue, elseValue, type] : llvm::zip(
           thenYield->getValues(), elseYield->getValues(), getResultTypes())) {
    SymbolicShape thenShape = context.getShape(thenValue);
    SymbolicShape elseShape = context.getShape(elseValue);
    SymbolicShape shape;
    for (auto [thenSize, elseSize, declared] : llvm::zip(
             thenShape, elseShape, cast<RankedTensorType>(type).getShape()))
      shape.push_back(mergeSize(context, thenSize, elseSize, declared));
    shapes.push_back(shape);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// WhileOp
//===----------------------------------------------------------------------===//

LogicalResult WhileOp::inferReturnTypes(MLIRContext *, std::optional<Location>,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  llvm::append_range(inferred, adaptor.getInits().getTypes());
  return success();
}

LogicalResult WhileOp::verifyRegions() {
  TypeRange carried = getInits().getTypes();
  if (failed(verifyArguments(*this, getConditionRegion(), carried,
                             "the condition region")) ||
      failed(verifyArguments(*this, getBody(), carried, "the body")))
    return failure();
  Type predicate = RankedTensorType::get({}, IntegerType::get(getContext(), 1));
  FailureOr<YieldOp> condition = getYield(*this, getConditionRegion());
  FailureOr<YieldOp> next = getYield(*this, getBody());
  if (failed(condition) || failed(next))
    return failure();
  if (failed(verifyYielded(*condition, condition->getValues(), predicate,
                           "the condition (a tensor<i1>)")) ||
      failed(verifyYielded(*next, next->getValues(), carried,
                           "the carried values")))
    return failure();
  return verifyResultsFollowRule(*this);
}

// Carried values keep their sizes (as jax.lax.while_loop's): the regions
// see them with the inits' sizes, and the body must yield those sizes.
LogicalResult
WhileOp::inferSymbolicShapes(ShapeContext &context,
                             SmallVectorImpl<SymbolicShape> &shapes) {
  for (Region *region : {&getConditionRegion(), &getBody()})
    for (auto [argument, init] : llvm::zip(region->getArguments(), getInits()))
      context.setShape(argument, context.getShape(init));
  if (failed(context.inferBlock(getConditionRegion().front())) ||
      failed(context.inferBlock(getBody().front())))
    return failure();
  FailureOr<YieldOp> yield = getYield(*this, getBody());
  if (failed(yield))
    return failure();
  return requireCarriedShapes(*this, context, getInits(), yield->getValues(),
                              shapes);
}

//===----------------------------------------------------------------------===//
// ScanOp
//===----------------------------------------------------------------------===//

/// `axis` of the scan normalized for a tensor of rank `rank` (an x, or a
/// stacked y).
static FailureOr<int64_t> getScanAxis(ScanOp op, int64_t rank, StringRef what) {
  return normalizeAxis(op.getLoc(), op.getAxis(), rank, what);
}

int64_t ScanOp::getStaticLength() {
  for (Value x : getXs()) {
    auto type = cast<RankedTensorType>(x.getType());
    int64_t axis = getAxis() < 0 ? getAxis() + type.getRank() : getAxis();
    // (An axis out of range is the verifier's to report.)
    if (axis >= 0 && axis < type.getRank() && !type.isDynamicDim(axis))
      return type.getDimSize(axis);
  }
  if (getXs().empty() && getLength())
    return *getLength();
  return ShapedType::kDynamic;
}

/// `type` without dimension `axis`.
static RankedTensorType dropAxis(RankedTensorType type, int64_t axis) {
  SmallVector<int64_t> shape(type.getShape());
  shape.erase(shape.begin() + axis);
  return type.clone(shape);
}

/// `type` with a dimension of `size` inserted at `axis`.
static RankedTensorType insertAxis(RankedTensorType type, int64_t axis,
                                   int64_t size) {
  SmallVector<int64_t> shape(type.getShape());
  shape.insert(shape.begin() + axis, size);
  return type.clone(shape);
}

LogicalResult ScanOp::verify() {
  std::optional<int64_t> length = getLength();
  if (getNumResults() < getInits().size())
    return emitOpError("returns ")
           << getNumResults() << " values but carries " << getInits().size();
  if (getXs().empty() && !length)
    return emitOpError("needs xs to scan or a length");
  if (length && *length < 0)
    return emitOpError("length must be non-negative, got ") << *length;
  for (auto [index, x] : llvm::enumerate(getXs())) {
    auto type = cast<RankedTensorType>(x.getType());
    if (type.getRank() == 0)
      return emitOpError("xs #") << index
                                 << " is a scalar: it has no axis "
                                    "to scan";
    FailureOr<int64_t> axis = getScanAxis(*this, type.getRank(), "axis");
    if (failed(axis))
      return failure();
    int64_t size = type.getDimSize(*axis);
    int64_t expected = getStaticLength();
    if (!ShapedType::isDynamic(size) && !ShapedType::isDynamic(expected) &&
        size != expected)
      return emitOpError("xs #")
             << index << " has " << size << " positions along axis " << *axis
             << ", another " << expected;
    if (length && !ShapedType::isDynamic(size) && size != *length)
      return emitOpError("length ") << *length << " differs from the " << size
                                    << " positions of xs #" << index;
  }
  return success();
}

LogicalResult ScanOp::verifyRegions() {
  int64_t numCarried = getInits().size();
  SmallVector<Type> arguments(getInits().getTypes());
  for (Value x : getXs()) {
    auto type = cast<RankedTensorType>(x.getType());
    arguments.push_back(
        dropAxis(type, *getScanAxis(*this, type.getRank(), "axis")));
  }
  if (failed(verifyArguments(*this, getBody(), arguments, "the body")))
    return failure();
  FailureOr<YieldOp> yield = getYield(*this, getBody());
  if (failed(yield))
    return failure();
  ValueRange yielded = yield->getValues();
  if (yielded.size() != getNumResults())
    return yield->emitOpError("yields ")
           << yielded.size() << " values for a scan of " << numCarried
           << " carried values and " << getNumResults() - numCarried
           << " stacked outputs";
  if (failed(verifyYielded(*yield, yielded.take_front(numCarried),
                           getInits().getTypes(), "the carried values")))
    return failure();
  for (auto [index, init, result] :
       llvm::enumerate(getInits(), getFinalCarries()))
    if (init.getType() != result.getType())
      return emitOpError("result #")
             << index << " has type " << result.getType()
             << ", the carried value's is " << init.getType();
  int64_t length = getStaticLength();
  for (auto [index, slice, result] :
       llvm::enumerate(yielded.drop_front(numCarried), getStackedOutputs())) {
    auto sliceType = cast<RankedTensorType>(slice.getType());
    FailureOr<int64_t> axis =
        getScanAxis(*this, sliceType.getRank() + 1, "axis");
    if (failed(axis))
      return failure();
    RankedTensorType stacked = insertAxis(sliceType, *axis, length);
    if (result.getType() != stacked)
      return emitOpError("result #")
             << numCarried + index << " has type " << result.getType()
             << ", the stacked output's is " << stacked;
  }
  return verifyResultsFollowRule(*this);
}

// The body sees the carried values with the inits' sizes and the slices of
// the xs; the carried values must keep their sizes (required equal to the
// inits'), and each stacked output is its slice's shape with the length
// inserted.
LogicalResult
ScanOp::inferSymbolicShapes(ShapeContext &context,
                            SmallVectorImpl<SymbolicShape> &shapes) {
  Block &body = getBody().front();
  int64_t numCarried = getInits().size();
  if (body.getNumArguments() != numCarried + getXs().size())
    return emitOpError("the body takes ")
           << body.getNumArguments() << " arguments, expected "
           << numCarried + getXs().size();
  AffineExpr length;
  if (std::optional<int64_t> attr = getLength())
    length = context.getConstant(*attr);
  for (auto [init, argument] :
       llvm::zip(getInits(), body.getArguments().take_front(numCarried)))
    context.setShape(argument, context.getShape(init));
  for (auto [x, argument] :
       llvm::zip(getXs(), body.getArguments().drop_front(numCarried))) {
    SymbolicShape shape = context.getShape(x);
    FailureOr<int64_t> axis = getScanAxis(*this, shape.size(), "axis");
    if (failed(axis))
      return failure();
    if (!length)
      length = shape[*axis];
    else if (!context.requireEqual(shape[*axis], length))
      return emitOpError("the xs have ")
             << formatSize(shape[*axis]) << " and " << formatSize(length)
             << " positions along the scanned axis";
    shape.erase(shape.begin() + *axis);
    context.setShape(argument, shape);
  }
  if (failed(context.inferBlock(body)))
    return failure();
  FailureOr<YieldOp> yield = getYield(*this, getBody());
  if (failed(yield))
    return failure();
  if (failed(requireCarriedShapes(*this, context, getInits(),
                                  yield->getValues().take_front(numCarried),
                                  shapes)))
    return failure();
  for (Value slice : yield->getValues().drop_front(numCarried)) {
    SymbolicShape shape = context.getShape(slice);
    FailureOr<int64_t> axis = getScanAxis(*this, shape.size() + 1, "axis");
    if (failed(axis))
      return failure();
    shape.insert(shape.begin() + *axis, length);
    shapes.push_back(shape);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// CustomFnOp
//===----------------------------------------------------------------------===//

LogicalResult CustomFnOp::verifyRegions() {
  if (failed(verifyArguments(*this, getBody(), getInputs().getTypes(),
                             "the body")))
    return failure();
  FailureOr<YieldOp> yield = getYield(*this, getBody());
  if (failed(yield) || failed(verifyYielded(*yield, yield->getValues(),
                                            getResultTypes(), "the result")))
    return failure();
  // The backward takes the inputs, the results and the results' gradients,
  // and yields the inputs' gradients.
  SmallVector<Type> arguments(getInputs().getTypes());
  llvm::append_range(arguments, getResultTypes());
  llvm::append_range(arguments, getResultTypes());
  if (failed(verifyArguments(*this, getBackward(), arguments, "the backward")))
    return failure();
  FailureOr<YieldOp> backwardYield = getYield(*this, getBackward());
  if (failed(backwardYield) ||
      failed(verifyYielded(*backwardYield, backwardYield->getValues(),
                           getInputs().getTypes(), "the inputs' gradients")))
    return failure();
  return verifyResultsFollowRule(*this);
}

// The results have the sizes the body yields for the inputs' sizes.
LogicalResult
CustomFnOp::inferSymbolicShapes(ShapeContext &context,
                                SmallVectorImpl<SymbolicShape> &shapes) {
  Block &body = getBody().front();
  if (body.getNumArguments() != getInputs().size())
    return emitOpError("the body takes ")
           << body.getNumArguments() << " arguments, expected "
           << getInputs().size();
  for (auto [input, argument] : llvm::zip(getInputs(), body.getArguments()))
    context.setShape(argument, context.getShape(input));
  if (failed(context.inferBlock(body)))
    return failure();
  FailureOr<YieldOp> yield = getYield(*this, getBody());
  if (failed(yield))
    return failure();
  for (Value value : yield->getValues())
    shapes.push_back(context.getShape(value));
  return success();
}

//===----------------------------------------------------------------------===//
// CustomCallOp
//===----------------------------------------------------------------------===//

LogicalResult CustomCallOp::verify() {
  StringRef callee = getCallee();
  auto isIdentifierChar = [](char c) { return llvm::isAlnum(c) || c == '_'; };
  if (callee.empty() || llvm::isDigit(callee.front()) ||
      !llvm::all_of(callee, isIdentifierChar))
    return emitOpError("callee must be a C identifier, got '") << callee << "'";
  for (auto [index, type] : llvm::enumerate(getResultTypes()))
    if (!cast<RankedTensorType>(type).hasStaticShape())
      return emitOpError("result ")
             << index << " must have a static shape (the caller allocates "
             << "it before the call), got " << type;
  return success();
}

// The results are the buffers the caller allocates: their declared types.
LogicalResult
CustomCallOp::inferSymbolicShapes(ShapeContext &context,
                                  SmallVectorImpl<SymbolicShape> &shapes) {
  for (Type type : getResultTypes())
    shapes.push_back(context.getShape(cast<RankedTensorType>(type)));
  return success();
}
