//===- Autodiff.cpp - Reverse-mode differentiation of a loss --------------===//
//
// Calls are inlined into the gradient function before it is differentiated,
// rather than given a rule of their own: a rule for func.call would have to
// differentiate the callee into a second function per call signature and
// pass every forward value that callee's backward reads out of it, which is
// what inlining gives for free, and the inlined ops fuse with the caller's.
//
// The control-flow ops are differentiated here rather than by a
// GradientOpInterface rule: their gradients flow to the values their
// regions read from the enclosing function, which are not operands, and
// their backward is a reverse sweep of a region, the same sweep as the
// function's. rlx.if's backward is an rlx.if on the same condition whose
// branches recompute their forward and sweep it. rlx.scan's forward also
// stacks the carried values each step starts from (memory: length times
// the carried values, not every intermediate of the body); its backward
// is a scan in the other direction that recomputes one step from its saved
// carried values and sweeps it, carrying the carried values' adjoints and
// the sums of the adjoints of the values the body reads from outside. So
// each step runs its forward twice, as checkpointing every step would.
// rlx.while has no gradient: its trip count is known only once it has run.
// rlx.custom_fn's gradient is the backward region its user wrote, cloned
// with the op's inputs, results and the results' adjoints.
//
//===----------------------------------------------------------------------===//
#include "rlx/Transforms/Passes.h"

#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/InliningUtils.h"
#include "mlir/Transforms/RegionUtils.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"
#include "rlx/Transforms/GradientRules.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXAUTODIFF
#include "rlx/Transforms/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;
using namespace mlir::rlx;

static constexpr StringLiteral kDifferentiateAttr = "rlx.differentiate";

/// Moves `copy`, and before it the copies it reads, in front of `point`.
static void hoistBefore(Operation *copy, Operation *point,
                        const DenseSet<Operation *> &copies) {
  if (copy->isBeforeInBlock(point))
    return;
  for (Value operand : copy->getOperands())
    if (Operation *def = operand.getDefiningOp(); def && copies.contains(def))
      hoistBefore(def, point, copies);
  copy->moveBefore(point);
}

/// Gives the backward its own copy of each elementwise forward value it
/// reads when the copy costs no other saved value: every operand is an
/// argument, a constant, a forward value the backward reads (saved anyway)
/// or a value it recomputes too. Otherwise the value itself is saved. Each
/// copy comes before the first backward op that reads it.
static void recomputeElementwise(Block &body,
                                 ArrayRef<Operation *> forwardOps) {
  DenseSet<Operation *> forward(forwardOps.begin(), forwardOps.end());
  // A use inside a region counts as one by the op of `body` holding it.
  auto reader = [&](OpOperand &use) {
    return body.findAncestorOpInBlock(*use.getOwner());
  };
  auto isBackwardUse = [&](OpOperand &use) {
    Operation *op = reader(use);
    return !forward.contains(op) && !isa<func::ReturnOp>(op);
  };
  auto firstBackwardReader = [&](Value value) {
    Operation *first = nullptr;
    for (OpOperand &use : value.getUses())
      if (isBackwardUse(use) && (!first || reader(use)->isBeforeInBlock(first)))
        first = reader(use);
    return first;
  };
  IRMapping recomputed;
  DenseSet<Operation *> copies;
  auto isAvailable = [&](Value operand) {
    Operation *def = operand.getDefiningOp();
    return !def || def->hasTrait<OpTrait::ConstantLike>() ||
           recomputed.contains(operand) || firstBackwardReader(operand);
  };
  for (Operation *op : forwardOps) {
    if (!isa<ScalarComputeOpInterface>(op) || op->getNumResults() != 1)
      continue;
    Value value = op->getResult(0);
    Operation *firstReader = firstBackwardReader(value);
    if (!firstReader || !llvm::all_of(op->getOperands(), isAvailable))
      continue;
    for (Value operand : op->getOperands())
      if (Value copy = recomputed.lookupOrNull(operand))
        hoistBefore(copy.getDefiningOp(), firstReader, copies);
    OpBuilder b(firstReader);
    Operation *copy = b.clone(*op, recomputed);
    copies.insert(copy);
    value.replaceUsesWithIf(copy->getResult(0), isBackwardUse);
  }
}

/// Inlines every call in `func`, the callees' calls too, so that the
/// gradient is built from rlx ops alone: one rule per op rather than one per
/// function, and the callee's forward values are at hand for the backward as
/// any others. Fails with a diagnostic on a call to a declaration or a
/// recursive call.
static LogicalResult inlineCalls(func::FuncOp func) {
  InlinerInterface interface(func.getContext());
  auto cloneCallee = [](OpBuilder &, Region *src, Block *inlineBlock,
                        Block *postInsertBlock, IRMapping &mapper,
                        bool /*shouldCloneInlinedRegion*/) {
    src->cloneInto(inlineBlock->getParent(), postInsertBlock->getIterator(),
                   mapper);
  };
  // Each round inlines one level of calls; a call left after as many rounds
  // as there are functions is part of a cycle.
  auto module = func->getParentOfType<ModuleOp>();
  size_t rounds = llvm::range_size(module.getOps<func::FuncOp>());
  for (size_t round = 0;; ++round) {
    SmallVector<func::CallOp> calls;
    func.walk([&](func::CallOp call) { calls.push_back(call); });
    if (calls.empty())
      return success();
    for (func::CallOp call : calls) {
      auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
          call, call.getCalleeAttr());
      if (!callee || callee.isExternal())
        return call.emitError("cannot differentiate through a call to '")
               << call.getCallee() << "', which has no body";
      if (!callee.getBody().hasOneBlock())
        return call.emitError("cannot differentiate through a call to '")
               << call.getCallee() << "', which has more than one block";
      if (round == rounds)
        return call.emitError("cannot differentiate through recursive "
                              "calls to '")
               << call.getCallee() << "'";
      if (failed(inlineCall(interface, cloneCallee, call, callee,
                            &callee.getBody())))
        return call.emitError("cannot inline '") << call.getCallee() << "'";
      call.erase();
    }
  }
}

using AdjointMap = DenseMap<Value, Value>;

/// Whether `value` can carry a gradient: a tensor of real or complex
/// floating-point numbers.
static bool isDifferentiable(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type)
    return false;
  Type element = type.getElementType();
  if (auto complex = dyn_cast<ComplexType>(element))
    element = complex.getElementType();
  return isa<FloatType>(element);
}

/// Adds `grad` to the adjoint of `value`.
static void accumulate(OpBuilder &b, AdjointMap &adjoints, Value value,
                       Value grad) {
  auto [it, inserted] = adjoints.try_emplace(value, grad);
  if (!inserted)
    it->second = createGradientSum(b, grad.getLoc(), it->second, grad);
}

/// `value` with the type `type`, which it has already or refines or is
/// refined by (a branch's static size where the rlx.if's result is `?`).
static Value castTo(OpBuilder &b, Value value, Type type) {
  if (value.getType() == type)
    return value;
  return ReshapeOp::create(b, value.getLoc(), type, value);
}

/// The active values the regions of `op` read from outside it, in the
/// order they are first read.
static SetVector<Value> getActiveCaptures(Operation *op,
                                          const DenseSet<Value> &active) {
  SetVector<Value> captured;
  getUsedValuesDefinedAbove(op->getRegions(), captured);
  return SetVector<Value>(llvm::from_range,
                          llvm::make_filter_range(captured, [&](Value v) {
                            return active.contains(v);
                          }));
}

static void propagateActivity(Block &block, DenseSet<Value> &active);

/// Marks a loop body's carried arguments active where their init or the
/// value the body carries into them is, to a fixed point.
static void propagateThroughLoop(Block &body, ValueRange inits,
                                 DenseSet<Value> &active) {
  ValueRange arguments = body.getArguments().take_front(inits.size());
  for (auto [init, argument] : llvm::zip(inits, arguments))
    if (active.contains(init) && isDifferentiable(argument))
      active.insert(argument);
  for (bool changed = true; changed;) {
    propagateActivity(body, active);
    changed = false;
    ValueRange next = body.getTerminator()->getOperands();
    for (auto [argument, value] : llvm::zip(arguments, next))
      if (active.contains(value) && active.insert(argument).second)
        changed = true;
  }
}

/// Adds to `active` the floating-point values of `block` (and of the
/// regions of its ops) that depend on a value in it: a comparison's i1 or
/// an index carries no gradient.
static void propagateActivity(Block &block, DenseSet<Value> &active) {
  auto markIf = [&](Value value, bool isActive) {
    if (isActive && isDifferentiable(value))
      active.insert(value);
  };
  for (Operation &op : block) {
    if (auto ifOp = dyn_cast<IfOp>(op)) {
      for (Region *region : {&ifOp.getThenRegion(), &ifOp.getElseRegion()}) {
        propagateActivity(region->front(), active);
        for (auto [result, value] :
             llvm::zip(ifOp.getResults(),
                       region->front().getTerminator()->getOperands()))
          markIf(result, active.contains(value));
      }
      continue;
    }
    if (auto scan = dyn_cast<ScanOp>(op)) {
      Block &body = scan.getBody().front();
      size_t numCarried = scan.getInits().size();
      for (auto [x, argument] :
           llvm::zip(scan.getXs(), body.getArguments().drop_front(numCarried)))
        markIf(argument, active.contains(x));
      propagateThroughLoop(body, scan.getInits(), active);
      for (auto [index, result] : llvm::enumerate(scan.getResults()))
        markIf(result,
               index < numCarried
                   ? active.contains(body.getArgument(index))
                   : active.contains(body.getTerminator()->getOperand(index)));
      continue;
    }
    if (auto loop = dyn_cast<WhileOp>(op)) {
      Block &body = loop.getBody().front();
      propagateThroughLoop(body, loop.getInits(), active);
      for (auto [result, argument] :
           llvm::zip(loop.getResults(), body.getArguments()))
        markIf(result, active.contains(argument));
      continue;
    }
    bool readsActive =
        llvm::any_of(op.getOperands(),
                     [&](Value v) { return active.contains(v); }) ||
        !getActiveCaptures(&op, active).empty();
    for (Value result : op.getResults())
      markIf(result, readsActive);
  }
}

namespace {
/// Reverse-mode differentiation of the ops of one block: from the adjoints
/// of the values they define, those of the active values they read. The
/// function's body is one such block; the bodies of rlx.if and rlx.scan,
/// recomputed in their backward, are others.
class ReverseSweep {
public:
  explicit ReverseSweep(DenseSet<Value> &active) : active(active) {}

  /// Sweeps `ops` (one block's, in order) from the last to the first,
  /// adding to `adjoints` (which holds the seeds) the adjoint of every
  /// active value they read. The backward's ops go at `b`'s insertion
  /// point. A differentiated rlx.scan is replaced, in its block and in
  /// `ops`, by one that also stacks its carried values.
  LogicalResult run(OpBuilder &b, MutableArrayRef<Operation *> ops,
                    AdjointMap &adjoints);

private:
  LogicalResult differentiateOp(OpBuilder &b, Operation *op,
                                AdjointMap &adjoints);
  LogicalResult differentiateIf(OpBuilder &b, IfOp op, AdjointMap &adjoints);
  /// Clones the user's backward of `op` with its inputs, results and the
  /// results' adjoints, and accumulates what it yields.
  void applyCustomBackward(OpBuilder &b, CustomFnOp op, AdjointMap &adjoints);
  FailureOr<ScanOp> differentiateScan(OpBuilder &b, ScanOp op,
                                      AdjointMap &adjoints);

  /// Clones the ops of `source` but its terminator and `skipped` at `b`
  /// (the end of a backward region's block) through `mapping`, which maps
  /// `source`'s arguments, and sweeps the clones from `seeds` (adjoints of
  /// `source`'s values) into `adjoints`.
  LogicalResult sweepClone(OpBuilder &b, Block &source, IRMapping &mapping,
                           ArrayRef<std::pair<Value, Value>> seeds,
                           AdjointMap &adjoints,
                           const DenseSet<Operation *> &skipped = {});

  /// The adjoint `adjoints` holds for `value`, else zeros like it.
  Value getAdjointOrZeros(OpBuilder &b, const AdjointMap &adjoints,
                          Value value) {
    Value grad = adjoints.lookup(value);
    return grad ? grad : createSplatLike(b, value.getLoc(), value, 0.0);
  }

  DenseSet<Value> &active;
};
} // namespace

LogicalResult ReverseSweep::run(OpBuilder &b, MutableArrayRef<Operation *> ops,
                                AdjointMap &adjoints) {
  for (Operation *&op : llvm::reverse(ops)) {
    if (isa<StopGradientOp>(op) ||
        llvm::none_of(op->getResults(), [&](Value r) {
          return adjoints.contains(r) && active.contains(r);
        }))
      continue;
    if (auto ifOp = dyn_cast<IfOp>(op)) {
      if (failed(differentiateIf(b, ifOp, adjoints)))
        return failure();
      continue;
    }
    if (auto scan = dyn_cast<ScanOp>(op)) {
      FailureOr<ScanOp> saving = differentiateScan(b, scan, adjoints);
      if (failed(saving))
        return failure();
      op = *saving;
      continue;
    }
    if (auto custom = dyn_cast<CustomFnOp>(op)) {
      applyCustomBackward(b, custom, adjoints);
      continue;
    }
    if (isa<WhileOp>(op))
      return op->emitError("cannot differentiate 'rlx.while': its number of "
                           "iterations is known only once it has run; a loop "
                           "with a known trip count is an 'rlx.scan'");
    if (failed(differentiateOp(b, op, adjoints)))
      return failure();
  }
  return success();
}

LogicalResult ReverseSweep::differentiateOp(OpBuilder &b, Operation *op,
                                            AdjointMap &adjoints) {
  auto rule = dyn_cast<GradientOpInterface>(op);
  if (!rule)
    return op->emitError("no gradient rule for '")
           << op->getName() << "' on the path from a differentiated "
           << "argument to the loss";
  SmallVector<Value> resultGradients;
  for (Value result : op->getResults())
    resultGradients.push_back(getAdjointOrZeros(b, adjoints, result));
  SmallVector<Value> grads = rule.buildGradients(b, resultGradients);
  if (grads.size() != op->getNumOperands())
    return op->emitError("no gradient rule for this form of '")
           << op->getName() << "'";
  for (auto [i, operand, grad] : llvm::enumerate(op->getOperands(), grads)) {
    if (!active.contains(operand))
      continue;
    if (!grad)
      return op->emitError("no gradient rule for operand ")
             << i << " of '" << op->getName()
             << "', which depends on a differentiated argument";
    accumulate(b, adjoints, operand, grad);
  }
  return success();
}

LogicalResult ReverseSweep::sweepClone(OpBuilder &b, Block &source,
                                       IRMapping &mapping,
                                       ArrayRef<std::pair<Value, Value>> seeds,
                                       AdjointMap &adjoints,
                                       const DenseSet<Operation *> &skipped) {
  SmallVector<Operation *> clones;
  for (Operation &op : source.without_terminator())
    if (!skipped.contains(&op))
      clones.push_back(b.clone(op, mapping));
  // The clones are active where the originals are.
  auto markLikeOriginal = [&](Value original) {
    if (active.contains(original))
      active.insert(mapping.lookup(original));
  };
  for (BlockArgument argument : source.getArguments())
    markLikeOriginal(argument);
  for (Operation &op : source.without_terminator()) {
    if (skipped.contains(&op))
      continue;
    op.walk([&](Operation *nested) {
      llvm::for_each(nested->getResults(), markLikeOriginal);
      for (Region &region : nested->getRegions())
        for (Block &block : region)
          llvm::for_each(block.getArguments(), markLikeOriginal);
    });
  }
  for (auto [value, grad] : seeds) {
    Value clone = mapping.lookupOrDefault(value);
    accumulate(b, adjoints, clone, castTo(b, grad, clone.getType()));
  }
  return run(b, clones, adjoints);
}

LogicalResult ReverseSweep::differentiateIf(OpBuilder &b, IfOp op,
                                            AdjointMap &adjoints) {
  SetVector<Value> captured = getActiveCaptures(op, active);
  if (captured.empty())
    return success();
  Location loc = op.getLoc();
  auto backward = IfOp::create(
      b, loc, ValueRange(captured.getArrayRef()).getTypes(), op.getCondition());
  for (auto [source, dest] :
       llvm::zip(op->getRegions(), backward->getRegions())) {
    Block &block = source.front();
    OpBuilder nested = OpBuilder::atBlockEnd(&dest.emplaceBlock());
    SmallVector<std::pair<Value, Value>> seeds;
    for (auto [result, value] :
         llvm::zip(op.getResults(), block.getTerminator()->getOperands()))
      if (Value grad = adjoints.lookup(result); grad && active.contains(result))
        seeds.emplace_back(value, grad);
    IRMapping mapping;
    AdjointMap branchAdjoints;
    if (failed(sweepClone(nested, block, mapping, seeds, branchAdjoints)))
      return failure();
    SmallVector<Value> grads;
    for (Value value : captured)
      grads.push_back(getAdjointOrZeros(nested, branchAdjoints, value));
    YieldOp::create(nested, loc, grads);
  }
  for (auto [value, grad] : llvm::zip(captured, backward.getResults()))
    accumulate(b, adjoints, value, grad);
  return success();
}

void ReverseSweep::applyCustomBackward(OpBuilder &b, CustomFnOp op,
                                       AdjointMap &adjoints) {
  Block &backward = op.getBackward().front();
  IRMapping mapping;
  SmallVector<Value> arguments(op.getInputs());
  llvm::append_range(arguments, op.getResults());
  for (Value result : op.getResults())
    arguments.push_back(getAdjointOrZeros(b, adjoints, result));
  mapping.map(backward.getArguments(), arguments);
  for (Operation &nested : backward.without_terminator())
    b.clone(nested, mapping);
  for (auto [input, grad] :
       llvm::zip(op.getInputs(), backward.getTerminator()->getOperands()))
    if (active.contains(input))
      accumulate(b, adjoints, input, mapping.lookupOrDefault(grad));
}

/// The dimension `axis` of `op` names in a tensor of `rank`.
static int64_t getScanAxis(ScanOp op, int64_t rank) {
  return op.getAxis() < 0 ? op.getAxis() + rank : op.getAxis();
}

/// `type` with a dimension of `size` inserted at `axis`.
static RankedTensorType insertAxis(RankedTensorType type, int64_t axis,
                                   int64_t size) {
  SmallVector<int64_t> shape(type.getShape());
  shape.insert(shape.begin() + axis, size);
  return type.clone(shape);
}

FailureOr<ScanOp> ReverseSweep::differentiateScan(OpBuilder &b, ScanOp op,
                                                  AdjointMap &adjoints) {
  Block &body = op.getBody().front();
  int64_t numCarried = op.getInits().size();
  ValueRange carriedArguments = body.getArguments().take_front(numCarried);
  ValueRange sliceArguments = body.getArguments().drop_front(numCarried);
  SetVector<Value> captured = getActiveCaptures(op, active);
  SmallVector<int64_t> activeCarries, activeXs;
  for (auto [index, argument] : llvm::enumerate(carriedArguments))
    if (active.contains(argument))
      activeCarries.push_back(index);
  for (auto [index, argument] : llvm::enumerate(sliceArguments))
    if (active.contains(argument))
      activeXs.push_back(index);
  if (activeCarries.empty() && activeXs.empty() && captured.empty())
    return op;
  Location loc = op.getLoc();
  int64_t length = op.getStaticLength();

  // The forward also stacks the carried values each step starts from, as
  // outputs after the others. One of rank below the scanned axis (axis 2 of
  // a vector) is stacked with leading unit dimensions.
  SmallVector<Type> resultTypes(op.getResultTypes());
  SmallVector<RankedTensorType> savedTypes;
  for (Value argument : carriedArguments) {
    auto type = cast<RankedTensorType>(argument.getType());
    int64_t axis = op.getAxis(), rank = type.getRank();
    int64_t padding =
        std::max<int64_t>(0, axis < 0 ? -axis - rank - 1 : axis - rank);
    SmallVector<int64_t> shape(padding, 1);
    llvm::append_range(shape, type.getShape());
    savedTypes.push_back(type.clone(shape));
    resultTypes.push_back(insertAxis(
        savedTypes.back(), getScanAxis(op, shape.size() + 1), length));
  }
  OpBuilder forwardBuilder(op);
  auto forward = ScanOp::create(forwardBuilder, loc, resultTypes, op.getInits(),
                                op.getXs(), op.getAxisAttr(),
                                op.getLengthAttr(), op.getReverseAttr());
  forward.getBody().takeBody(op.getBody());
  Operation *yield = body.getTerminator();
  DenseSet<Operation *> savingOps;
  OpBuilder yieldBuilder(yield);
  for (auto [argument, type] : llvm::zip(carriedArguments, savedTypes)) {
    Value saved = castTo(yieldBuilder, argument, type);
    if (saved != argument)
      savingOps.insert(saved.getDefiningOp());
    yield->insertOperands(yield->getNumOperands(), saved);
  }
  int64_t numResults = op.getNumResults(), numXs = op.getXs().size();
  ValueRange yielded = yield->getOperands().take_front(numResults);
  ValueRange savedCarries = forward.getResults().drop_front(numResults);

  // The seeds: the adjoints of the final carried values and of the stacked
  // outputs. Then `forward` takes the place of `op`.
  SmallVector<Value> inits, xs(savedCarries), stackedSeeds;
  SmallVector<std::pair<Value, Value>> seeds;
  for (int64_t index : activeCarries)
    inits.push_back(getAdjointOrZeros(b, adjoints, op.getResult(index)));
  for (Value value : captured)
    inits.push_back(createSplatLike(b, loc, value, 0.0));
  llvm::append_range(xs, op.getXs());
  SmallVector<int64_t> seededOutputs;
  for (auto [index, result] : llvm::enumerate(op.getStackedOutputs()))
    if (Value grad = adjoints.lookup(result); grad && active.contains(result)) {
      xs.push_back(grad);
      seededOutputs.push_back(numCarried + index);
    }
  for (auto [old, replacement] :
       llvm::zip(op.getResults(), forward.getResults())) {
    if (active.erase(old))
      active.insert(replacement);
    adjoints.erase(old);
  }
  op->replaceAllUsesWith(forward.getResults().take_front(numResults));
  op.erase();

  // The backward: a scan the other way over the saved carried values, the
  // xs and the seeds of the outputs, carrying the carried values' adjoints
  // and the sums of the captured values'; it stacks the xs' adjoints.
  SmallVector<Type> backwardTypes =
      llvm::to_vector(ValueRange(inits).getTypes());
  for (int64_t index : activeXs) {
    auto type = cast<RankedTensorType>(sliceArguments[index].getType());
    backwardTypes.push_back(
        insertAxis(type, getScanAxis(forward, type.getRank() + 1), length));
  }
  auto backward =
      ScanOp::create(b, loc, backwardTypes, inits, xs, forward.getAxis(),
                     forward.getLengthAttr(), !forward.getReverse());
  Block &backwardBody = backward.getBody().emplaceBlock();
  for (Value init : inits)
    backwardBody.addArgument(init.getType(), loc);
  for (Value x : xs) {
    auto type = cast<RankedTensorType>(x.getType());
    SmallVector<int64_t> shape(type.getShape());
    shape.erase(shape.begin() + getScanAxis(forward, type.getRank()));
    backwardBody.addArgument(type.clone(shape), loc);
  }
  OpBuilder nested = OpBuilder::atBlockEnd(&backwardBody);
  ValueRange carriedAdjoints =
      backwardBody.getArguments().take_front(activeCarries.size());
  ValueRange capturedSums =
      backwardBody.getArguments().slice(activeCarries.size(), captured.size());
  ValueRange slices = backwardBody.getArguments().drop_front(inits.size());
  IRMapping mapping;
  for (auto [argument, saved] : llvm::zip(carriedArguments, slices))
    mapping.map(argument, castTo(nested, saved, argument.getType()));
  for (auto [argument, x] :
       llvm::zip(sliceArguments, slices.drop_front(numCarried)))
    mapping.map(argument, x);
  for (auto [index, adjoint] : llvm::zip(activeCarries, carriedAdjoints))
    seeds.emplace_back(yielded[index], adjoint);
  for (auto [index, seed] :
       llvm::zip(seededOutputs, slices.drop_front(numCarried + numXs)))
    seeds.emplace_back(yielded[index], seed);
  AdjointMap stepAdjoints;
  if (failed(sweepClone(nested, body, mapping, seeds, stepAdjoints, savingOps)))
    return failure();
  SmallVector<Value> next;
  for (int64_t index : activeCarries)
    next.push_back(getAdjointOrZeros(nested, stepAdjoints,
                                     mapping.lookup(carriedArguments[index])));
  for (auto [value, sum] : llvm::zip(captured, capturedSums)) {
    Value grad = stepAdjoints.lookup(value);
    next.push_back(grad ? AddOp::create(nested, loc, sum, grad) : sum);
  }
  for (int64_t index : activeXs)
    next.push_back(getAdjointOrZeros(nested, stepAdjoints,
                                     mapping.lookup(sliceArguments[index])));
  YieldOp::create(nested, loc, next);

  // The adjoints of the inits, the captured values and the xs.
  ValueRange grads = backward.getResults();
  for (auto [index, grad] : llvm::zip(activeCarries, grads))
    if (Value init = forward.getInits()[index]; active.contains(init))
      accumulate(b, adjoints, init, grad);
  for (auto [value, grad] :
       llvm::zip(captured, grads.drop_front(activeCarries.size())))
    accumulate(b, adjoints, value, grad);
  for (auto [index, grad] :
       llvm::zip(activeXs, grads.drop_front(inits.size()))) {
    Value x = forward.getXs()[index];
    accumulate(b, adjoints, x, castTo(b, grad, x.getType()));
  }
  return forward;
}

/// Builds `<name>_grad` next to `func`; fails with a diagnostic.
static LogicalResult
differentiate(func::FuncOp func, ArrayRef<int64_t> argIndices, bool recompute) {
  Location loc = func.getLoc();
  FunctionType type = func.getFunctionType();
  if (type.getNumResults() != 1)
    return func.emitError("a function to differentiate must return one "
                          "value, the loss; got ")
           << type.getNumResults();
  auto lossType = dyn_cast<RankedTensorType>(type.getResult(0));
  if (!lossType || lossType.getRank() != 0 ||
      !isa<FloatType>(lossType.getElementType()))
    return func.emitError("the loss must be a floating-point scalar "
                          "(rank-0 tensor), got ")
           << type.getResult(0);
  if (!func.getBody().hasOneBlock())
    return func.emitError("a function to differentiate must have one block");
  SmallVector<Type> resultTypes = {lossType};
  for (auto [position, index] : llvm::enumerate(argIndices)) {
    if (index < 0 || index >= type.getNumInputs())
      return func.emitError("rlx.differentiate names argument ")
             << index << " of a function with " << type.getNumInputs();
    if (llvm::is_contained(argIndices.take_front(position), index))
      return func.emitError("rlx.differentiate names argument ")
             << index << " twice";
    auto argType = dyn_cast<RankedTensorType>(type.getInput(index));
    if (!argType || !isa<FloatType>(argType.getElementType()))
      return func.emitError("argument ")
             << index
             << " is not a floating-point tensor and has no "
                "gradient";
    resultTypes.push_back(argType);
  }

  // A declaration of the gradient function (so that other functions can
  // call it before it exists) gets the body.
  OpBuilder b(func);
  std::string gradName = (func.getName() + "_grad").str();
  FunctionType gradType = b.getFunctionType(type.getInputs(), resultTypes);
  auto gradFunc = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      func, b.getStringAttr(gradName));
  if (gradFunc &&
      (!gradFunc.isDeclaration() || gradFunc.getFunctionType() != gradType))
    return gradFunc.emitError("'")
           << gradName << "' already exists; only a declaration of type "
           << gradType << " may stand for the gradient function";
  if (!gradFunc) {
    b.setInsertionPointAfter(func);
    gradFunc = func::FuncOp::create(b, loc, gradName, gradType);
  }
  Block *body = gradFunc.addEntryBlock();
  b.setInsertionPointToStart(body);
  IRMapping forward;
  forward.map(func.getArguments(), body->getArguments());
  Block &source = func.getBody().front();
  for (Operation &op : source.without_terminator())
    b.clone(op, forward);
  auto terminator = func::ReturnOp::create(
      b, loc, forward.lookup(source.getTerminator()->getOperand(0)));
  if (failed(inlineCalls(gradFunc)))
    return failure();
  // Fused ops, regions and most ops defined by their decompositions have
  // no rules of their own: the gradient is that of the ops they stand for.
  // A decomposable op with a rule keeps it (a matrix function's is exact
  // where its eigendecomposition's divides by zero).
  IRRewriter rewriter(b);
  unfuse(rewriter, gradFunc);
  decompose(rewriter, gradFunc, /*keepDifferentiable=*/true);
  Value loss = terminator.getOperand(0);
  b.setInsertionPoint(terminator);

  DenseSet<Value> active;
  for (int64_t index : argIndices)
    active.insert(body->getArgument(index));
  propagateActivity(*body, active);
  SmallVector<Operation *> ops = llvm::to_vector(llvm::map_range(
      body->without_terminator(), [](Operation &op) { return &op; }));
  AdjointMap adjoints;
  adjoints[loss] = createSplatLike(b, loc, loss, 1.0);
  if (failed(ReverseSweep(active).run(b, ops, adjoints)))
    return failure();

  // (A differentiated rlx.scan computing the loss has been replaced.)
  SmallVector<Value> results = {terminator.getOperand(0)};
  for (int64_t index : argIndices) {
    Value arg = body->getArgument(index);
    Value grad = adjoints.lookup(arg);
    results.push_back(grad ? grad : createSplatLike(b, loc, arg, 0.0));
  }
  terminator->setOperands(results);
  if (recompute)
    recomputeElementwise(*body, ops);
  return success();
}

namespace {
struct RlxAutodiffPass : rlx::impl::RlxAutodiffBase<RlxAutodiffPass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registerGradientRules(registry);
    func::registerInlinerExtension(registry);
  }

  void runOnOperation() override {
    SmallVector<func::FuncOp> funcs;
    getOperation().walk([&](func::FuncOp func) {
      if (func->hasAttr(kDifferentiateAttr))
        funcs.push_back(func);
    });
    for (func::FuncOp func : funcs) {
      auto indices =
          dyn_cast<DenseI64ArrayAttr>(func->getAttr(kDifferentiateAttr));
      if (!indices) {
        func.emitError("rlx.differentiate must be an array<i64> of argument "
                       "indices");
        return signalPassFailure();
      }
      if (failed(
              differentiate(func, indices.asArrayRef(), recomputeElementwise)))
        return signalPassFailure();
    }
  }
};
} // namespace
