//===- Autodiff.cpp - Reverse-mode differentiation of a loss --------------===//
//
// Calls are inlined into the gradient function before it is differentiated,
// rather than given a rule of their own: a rule for func.call would have to
// differentiate the callee into a second function per call signature and
// pass every forward value that callee's backward reads out of it, which is
// what inlining gives for free, and the inlined ops fuse with the caller's.
//
//===----------------------------------------------------------------------===//
#include "rlx/Transforms/Passes.h"

#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/InliningUtils.h"
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
static void recomputeElementwise(ArrayRef<Operation *> forwardOps) {
  DenseSet<Operation *> forward(forwardOps.begin(), forwardOps.end());
  auto isBackwardUse = [&](OpOperand &use) {
    return !forward.contains(use.getOwner()) &&
           !isa<func::ReturnOp>(use.getOwner());
  };
  auto firstBackwardReader = [&](Value value) {
    Operation *first = nullptr;
    for (OpOperand &use : value.getUses())
      if (isBackwardUse(use) &&
          (!first || use.getOwner()->isBeforeInBlock(first)))
        first = use.getOwner();
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

/// Builds `<name>_grad` next to `func`; fails with a diagnostic.
static LogicalResult differentiate(func::FuncOp func,
                                   ArrayRef<int64_t> argIndices,
                                   bool recompute) {
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
             << index << " is not a floating-point tensor and has no "
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
  if (gradFunc && (!gradFunc.isDeclaration() ||
                   gradFunc.getFunctionType() != gradType))
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
  // Fused ops and regions have no rules of their own: the gradient is that
  // of the primitive ops they stand for.
  IRRewriter rewriter(b);
  unfuse(rewriter, gradFunc);
  Value loss = terminator.getOperand(0);
  b.setInsertionPoint(terminator);

  // Floating-point values that depend on a differentiated argument (a
  // comparison's i1 or an index carries no gradient).
  DenseSet<Value> active;
  for (int64_t index : argIndices)
    active.insert(body->getArgument(index));
  SmallVector<Operation *> ops;
  for (Operation &op : body->without_terminator()) {
    ops.push_back(&op);
    if (llvm::none_of(op.getOperands(),
                      [&](Value v) { return active.contains(v); }))
      continue;
    for (Value result : op.getResults())
      if (auto type = dyn_cast<RankedTensorType>(result.getType());
          type && isa<FloatType>(type.getElementType()))
        active.insert(result);
  }

  DenseMap<Value, Value> adjoints;
  auto accumulate = [&](Value value, Value grad) {
    auto [it, inserted] = adjoints.try_emplace(value, grad);
    if (!inserted)
      it->second = AddOp::create(b, grad.getLoc(), it->second, grad);
  };
  adjoints[loss] = createSplatLike(b, loc, loss, 1.0);
  for (Operation *op : llvm::reverse(ops)) {
    if (isa<StopGradientOp>(op) ||
        llvm::none_of(op->getResults(), [&](Value r) {
          return adjoints.contains(r) && active.contains(r);
        }))
      continue;
    auto rule = dyn_cast<GradientOpInterface>(op);
    if (!rule)
      return op->emitError("no gradient rule for '")
             << op->getName() << "' on the path from a differentiated "
             << "argument to the loss";
    SmallVector<Value> resultGradients;
    for (Value result : op->getResults()) {
      Value grad = adjoints.lookup(result);
      resultGradients.push_back(
          grad ? grad : createSplatLike(b, op->getLoc(), result, 0.0));
    }
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
      accumulate(operand, grad);
    }
  }

  SmallVector<Value> results = {loss};
  for (int64_t index : argIndices) {
    Value arg = body->getArgument(index);
    Value grad = adjoints.lookup(arg);
    results.push_back(grad ? grad : createSplatLike(b, loc, arg, 0.0));
  }
  terminator->setOperands(results);
  if (recompute)
    recomputeElementwise(ops);
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
      auto indices = dyn_cast<DenseI64ArrayAttr>(func->getAttr(kDifferentiateAttr));
      if (!indices) {
        func.emitError("rlx.differentiate must be an array<i64> of argument "
                       "indices");
        return signalPassFailure();
      }
      if (failed(differentiate(func, indices.asArrayRef(),
                               recomputeElementwise)))
        return signalPassFailure();
    }
  }
};
} // namespace
