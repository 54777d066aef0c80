//===- RegionOps.cpp - rlx.region and rlx.yield ---------------------------===//
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include "mlir/Dialect/Traits.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"

#include "OpUtils.h"

using namespace mlir;
using namespace mlir::rlx;

static ArrayRef<int64_t> getShape(Value value) {
  return cast<RankedTensorType>(value.getType()).getShape();
}

YieldOp RegionOp::getYield() {
  return dyn_cast<YieldOp>(getBody().front().getTerminator());
}

/// The shape a region body with results `resultTypes` iterates over: the
/// input of its reductions, its contraction's result, else its results'.
static SmallVector<int64_t> getIterationShape(Block &body,
                                              TypeRange resultTypes) {
  for (Operation &op : body) {
    if (auto reduction = dyn_cast<ReductionOpInterface>(op))
      return llvm::to_vector(getShape(reduction.getReducedInput()));
    if (isa<ContractionOpInterface>(op))
      return llvm::to_vector(getShape(op.getResult(0)));
  }
  return llvm::to_vector(cast<RankedTensorType>(resultTypes[0]).getShape());
}

static SmallVector<int64_t> getReducedAxes(Block &body) {
  for (Operation &op : body)
    if (auto reduction = dyn_cast<ReductionOpInterface>(op))
      return reduction.getReducedAxes();
  return {};
}

SmallVector<int64_t> RegionOp::getIterationShape() {
  return ::getIterationShape(getBody().front(), getResultTypes());
}

SmallVector<int64_t> RegionOp::getReducedAxes() {
  return ::getReducedAxes(getBody().front());
}

// The body's ops give the sizes: its arguments are the inputs', its
// results those of the values it yields.
LogicalResult
RegionOp::inferSymbolicShapes(ShapeContext &context,
                              SmallVectorImpl<SymbolicShape> &shapes) {
  Block &body = getBody().front();
  if (body.getNumArguments() != getInputs().size())
    return emitOpError("body takes ")
           << body.getNumArguments() << " arguments for " << getInputs().size()
           << " inputs";
  for (auto [argument, input] : llvm::zip(body.getArguments(), getInputs())) {
    if (argument.getType() != input.getType())
      return emitOpError("body argument of type ")
             << argument.getType() << " stands for an input of type "
             << input.getType();
    context.setShape(argument, context.getShape(input));
  }
  auto yield = body.empty() ? YieldOp() : dyn_cast<YieldOp>(body.back());
  if (!yield)
    return emitOpError("body must end in rlx.yield");
  if (failed(context.inferBlock(body)))
    return failure();
  for (Value value : yield.getValues())
    shapes.push_back(context.getShape(value));
  return success();
}

LogicalResult RegionOp::verify() {
  if (getResults().empty())
    return emitOpError("must return at least one value");
  return success();
}

/// `shape` with `axes` set to 1.
static SmallVector<int64_t> getRowShape(ArrayRef<int64_t> shape,
                                        ArrayRef<int64_t> axes) {
  SmallVector<int64_t> rowShape(shape);
  for (int64_t axis : axes)
    rowShape[axis] = 1;
  return rowShape;
}

/// Checks the body of a `reduction` or `row` region: reductions over
/// `axes` of `shape`, elementwise ops producing one of `shapes`.
static LogicalResult
verifyReductionBody(Operation *region, Block &body, FusionKind kind,
                    ArrayRef<int64_t> shape, ArrayRef<int64_t> axes,
                    ArrayRef<SmallVector<int64_t>> shapes) {
  auto yield = cast<YieldOp>(body.getTerminator());
  bool isRow = kind == FusionKind::Row;
  for (Operation &op : body.without_terminator()) {
    if (auto reduction = dyn_cast<ReductionOpInterface>(op)) {
      if (getShape(reduction.getReducedInput()) != shape)
        return op.emitOpError("reduces shape ")
               << formatShape(getShape(reduction.getReducedInput()))
               << " inside a region of iteration shape " << formatShape(shape);
      if (reduction.getReducedAxes() != axes)
        return op.emitOpError("reduces axes ")
               << formatShape(reduction.getReducedAxes())
               << " but the region's first reduction reduces "
               << formatShape(axes);
      if (isRow && !reduction.keepsReducedAxes())
        return op.emitOpError("must keep the reduced axes (keep_dim) inside "
                              "a row region");
      if (!isRow && llvm::any_of(op.getUsers(), [](Operation *user) {
            return !isa<YieldOp>(user);
          }))
        return op.emitOpError("is read inside a reduction region; only "
                              "row regions broadcast reductions back");
      continue;
    }
    if (!isa<ScalarComputeOpInterface>(op))
      return op.emitOpError("cannot join a ")
             << stringifyFusionKind(kind)
             << " region: it is neither elementwise nor a reduction";
    if (!llvm::is_contained(shapes, getShape(op.getResult(0))))
      return op.emitOpError("produces shape ")
             << formatShape(getShape(op.getResult(0))) << " inside a "
             << stringifyFusionKind(kind) << " region of iteration shape "
             << formatShape(shape);
  }
  if (isRow)
    for (Value result : yield.getValues())
      if (!llvm::is_contained(shapes, getShape(result)))
        return region->emitOpError("row region results must have the "
                                   "iteration shape ")
               << formatShape(shape) << " or the row shape "
               << formatShape(shapes.back()) << ", got "
               << formatShape(getShape(result));
  if (!isRow)
    for (Value result : yield.getValues())
      if (!result.getDefiningOp<ReductionOpInterface>())
        return region->emitOpError("reduction region results must be "
                                   "reductions");
  return success();
}

/// Collects into `prologue` the ops `contraction` depends on inside its
/// region, with the shape of the operand each computes: elementwise ops of
/// that shape, read only by the prologue and the contraction.
static LogicalResult
getContractionPrologue(Operation *contraction,
                       DenseMap<Operation *, ArrayRef<int64_t>> &prologue) {
  SmallVector<std::pair<Value, ArrayRef<int64_t>>> worklist;
  for (Value operand : contraction->getOperands())
    worklist.push_back({operand, getShape(operand)});
  while (!worklist.empty()) {
    auto [value, operandShape] = worklist.pop_back_val();
    Operation *op = value.getDefiningOp();
    if (!op || prologue.contains(op))
      continue;
    if (!isa<ScalarComputeOpInterface>(op))
      return op->emitOpError("cannot compute an operand of a contraction "
                             "region's contraction: it is not elementwise");
    if (getShape(op->getResult(0)) != operandShape)
      return op->emitOpError("produces shape ")
             << formatShape(getShape(op->getResult(0)))
             << " in the prologue of a contraction operand of shape "
             << formatShape(operandShape);
    prologue[op] = operandShape;
    for (Value producer : op->getOperands())
      worklist.push_back({producer, operandShape});
  }
  for (auto [op, operandShape] : prologue)
    for (Operation *user : op->getUsers())
      if (user != contraction && !prologue.contains(user))
        return op->emitOpError("computes a contraction operand and is also "
                               "read by the epilogue or returned");
  return success();
}

/// Checks that the body of `op` (an rlx.region of `kind` or an rlx.rows)
/// takes `inputs`, yields `resultTypes` and holds the ops `kind` allows.
static LogicalResult verifyRegionBody(Operation *op, FusionKind kind,
                                      ValueRange inputs,
                                      TypeRange resultTypes) {
  Block &body = op->getRegion(0).front();
  if (body.getNumArguments() != inputs.size())
    return op->emitOpError("has ")
           << inputs.size() << " inputs but its body takes "
           << body.getNumArguments() << " arguments";
  for (auto [i, input, arg] : llvm::enumerate(inputs, body.getArguments()))
    if (input.getType() != arg.getType())
      return op->emitOpError("input ")
             << i << " has type " << input.getType() << " but body argument "
             << i << " has type " << arg.getType();
  auto yield = body.empty() ? nullptr : dyn_cast<YieldOp>(body.back());
  if (!yield)
    return op->emitOpError("body must end with rlx.yield");
  if (yield.getValues().getTypes() != resultTypes)
    return op->emitOpError("yields ")
           << yield.getValues().getTypes() << " but returns " << resultTypes;

  auto reductions = llvm::to_vector(body.getOps<ReductionOpInterface>());
  auto contractions = llvm::to_vector(body.getOps<ContractionOpInterface>());
  bool reduces = kind == FusionKind::Reduction || kind == FusionKind::Row;
  if (reduces && reductions.empty())
    return op->emitOpError("a ")
           << stringifyFusionKind(kind) << " region must contain a reduction";
  if (kind == FusionKind::Contraction && contractions.size() != 1)
    return op->emitOpError("a contraction region must contain exactly one "
                           "contraction, got ")
           << contractions.size();

  Operation *contraction = kind == FusionKind::Contraction
                               ? contractions.front().getOperation()
                               : nullptr;
  DenseMap<Operation *, ArrayRef<int64_t>> prologue;
  if (contraction && failed(getContractionPrologue(contraction, prologue)))
    return failure();

  SmallVector<int64_t> shape = getIterationShape(body, resultTypes);
  for (auto [i, input] : llvm::enumerate(inputs)) {
    // The contraction reads its operands through its own indexing, and the
    // prologue computes them in their shapes.
    BlockArgument arg = body.getArgument(i);
    if (contraction && !arg.use_empty() &&
        llvm::all_of(arg.getUsers(), [&](Operation *user) {
          return user == contraction || prologue.contains(user);
        }))
      continue;
    SmallVector<int64_t> broadcast;
    ArrayRef<int64_t> inputShape = getShape(input);
    if (!OpTrait::util::getBroadcastedShape(inputShape, shape, broadcast) ||
        ArrayRef<int64_t>(broadcast) != ArrayRef<int64_t>(shape))
      return op->emitOpError("input ")
             << i << " of shape " << formatShape(inputShape)
             << " does not broadcast to the iteration shape "
             << formatShape(shape);
  }

  if (reduces) {
    SmallVector<int64_t> axes = reductions.front().getReducedAxes();
    SmallVector<SmallVector<int64_t>> shapes = {shape};
    if (kind == FusionKind::Row)
      shapes.push_back(getRowShape(shape, axes));
    return verifyReductionBody(op, body, kind, shape, axes, shapes);
  }

  for (Type type : resultTypes)
    if (cast<RankedTensorType>(type).getShape() != ArrayRef<int64_t>(shape))
      return op->emitOpError() << stringifyFusionKind(kind)
                               << " region results must all have shape "
                               << formatShape(shape) << ", got " << type;
  StringRef article = kind == FusionKind::Elementwise ? "an " : "a ";
  for (Operation &bodyOp : body.without_terminator()) {
    if (&bodyOp == contraction || prologue.contains(&bodyOp))
      continue;
    if (!isa<ScalarComputeOpInterface>(bodyOp))
      return bodyOp.emitOpError("cannot join ")
             << article << stringifyFusionKind(kind)
             << " region: it has no scalar semantics "
                "(ScalarComputeOpInterface)";
    if (getShape(bodyOp.getResult(0)) != ArrayRef<int64_t>(shape))
      return bodyOp.emitOpError("produces shape ")
             << formatShape(getShape(bodyOp.getResult(0))) << " inside "
             << article << stringifyFusionKind(kind)
             << " region of iteration shape " << formatShape(shape);
  }
  return success();
}

LogicalResult RegionOp::verifyRegions() {
  if (failed(verifyRegionBody(*this, getKind(), getInputs(), getResultTypes())))
    return failure();
  return verifyResultsFollowRule(*this);
}

//===----------------------------------------------------------------------===//
// rlx.rows
//===----------------------------------------------------------------------===//

YieldOp RowsOp::getYield() {
  Block &body = getBody().front();
  return body.empty() ? nullptr : dyn_cast<YieldOp>(body.back());
}

SmallVector<int64_t> RowsOp::getIterationShape() {
  return ::getIterationShape(getBody().front(), getResultTypes());
}

SmallVector<int64_t> RowsOp::getReducedAxes() {
  return ::getReducedAxes(getBody().front());
}

// DestinationStyleOpInterface checks the destinations against the results.
LogicalResult RowsOp::verifyRegions() {
  return verifyRegionBody(*this, FusionKind::Row, getInputs(),
                          getResultTypes());
}

RegionOp mlir::rlx::outlineIntoRegion(RewriterBase &rewriter,
                                      ArrayRef<Operation *> ops,
                                      FusionKind kind,
                                      const DenseSet<Operation *> &copied) {
  // Block order keeps defs before uses inside the body.
  SmallVector<Operation *> sorted(ops);
  llvm::sort(sorted, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });
  llvm::SmallPtrSet<Operation *, 16> members(sorted.begin(), sorted.end());
  auto isOwned = [&](Operation *op) {
    return members.contains(op) && !copied.contains(op);
  };
  llvm::SetVector<Value> inputs;
  SmallVector<Value> results;
  for (Operation *op : sorted) {
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (!def || !members.contains(def))
        inputs.insert(operand);
    }
    if (copied.contains(op))
      continue;
    for (Value result : op->getResults())
      if (op == sorted.back() ||
          llvm::any_of(result.getUsers(),
                       [&](Operation *user) { return !isOwned(user); }))
        results.push_back(result);
  }

  Location loc = rewriter.getFusedLoc(llvm::to_vector(
      llvm::map_range(sorted, [](Operation *op) { return op->getLoc(); })));
  rewriter.setInsertionPoint(sorted.back());
  auto region = RegionOp::create(rewriter, loc, ValueRange(results).getTypes(),
                                 kind, inputs.getArrayRef());
  Block *body = rewriter.createBlock(
      &region.getBody(), {}, ValueRange(inputs.getArrayRef()).getTypes(),
      SmallVector<Location>(inputs.size(), loc));
  IRMapping mapping;
  mapping.map(inputs.getArrayRef(), body->getArguments());
  for (Operation *op : sorted)
    rewriter.clone(*op, mapping);
  SmallVector<Value> yielded;
  for (Value result : results)
    yielded.push_back(mapping.lookup(result));
  YieldOp::create(rewriter, loc, yielded);

  for (auto [result, replacement] : llvm::zip(results, region.getResults()))
    rewriter.replaceUsesWithIf(result, replacement, [&](OpOperand &use) {
      return !isOwned(use.getOwner());
    });
  for (Operation *op : llvm::reverse(sorted))
    if (!copied.contains(op))
      rewriter.eraseOp(op);
  return region;
}

bool mlir::rlx::canJoinRegion(Operation *op, FusionKind kind,
                              ArrayRef<int64_t> shape, ArrayRef<int64_t> axes) {
  if (op->getNumResults() != 1)
    return false;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type)
    return false;
  if (auto reduction = dyn_cast<ReductionOpInterface>(op)) {
    if (kind != FusionKind::Reduction && kind != FusionKind::Row)
      return false;
    // A row region iterates over rows, and has none to reduce here (a `?`
    // size may be 0 at run time: its loops then run no row).
    if (kind == FusionKind::Row &&
        llvm::is_contained(getShape(reduction.getReducedInput()), 0))
      return false;
    return getShape(reduction.getReducedInput()) == shape &&
           reduction.getReducedAxes() == axes &&
           (kind != FusionKind::Row || reduction.keepsReducedAxes());
  }
  if (isa<ContractionOpInterface>(op))
    return kind == FusionKind::Contraction && type.getShape() == shape;
  if (!isa<ScalarComputeOpInterface>(op))
    return false;
  return type.getShape() == shape ||
         (kind == FusionKind::Row &&
          type.getShape() == ArrayRef<int64_t>(getRowShape(shape, axes)));
}
