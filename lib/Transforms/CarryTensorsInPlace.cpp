//===- CarryTensorsInPlace.cpp - Loop and conditional results in place ----===//
//
// One-shot bufferization gives a loop's carried tensor one buffer only when
// each iteration yields a value equivalent to its iteration argument; with
// `allow-return-allocs-from-loops` it otherwise allocates a buffer per
// iteration, which ownership-based deallocation frees through run-time
// pointer comparisons. Upstream has no rewrite that makes such loops carry
// their tensors in place, hence this pass: a copy into the destination, the
// form empty-tensor elimination then folds into the value's producer.
//
//===----------------------------------------------------------------------===//
#include "rlx/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXCARRYTENSORSINPLACE
#include "rlx/Transforms/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;

/// Follows `value` back through the ops that write their result in place of
/// one operand (destination-passing ops, loops through their init values,
/// and any op whose bufferization says so) and returns where the buffer
/// comes from: a block argument, or the first value computed into a new
/// buffer.
static Value getBufferSource(Value value,
                             const bufferization::AnalysisState &state) {
  while (auto result = dyn_cast<OpResult>(value)) {
    Operation *op = result.getOwner();
    if (auto dps = dyn_cast<DestinationStyleOpInterface>(op)) {
      value = dps.getTiedOpOperand(result)->get();
      continue;
    }
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      value = loop.getInits()[result.getResultNumber()];
      continue;
    }
    bufferization::AliasingOpOperandList aliases =
        state.getAliasingOpOperands(result);
    if (aliases.getNumAliases() != 1 ||
        aliases.getAliases().front().relation !=
            bufferization::BufferRelation::Equivalent)
      return value;
    value = aliases.getAliases().front().opOperand->get();
  }
  return value;
}

/// `value` copied into `destination` before `terminator`, as the value to
/// pass on.
static Value copyInto(OpBuilder &b, Operation *terminator, Value value,
                      Value destination) {
  b.setInsertionPoint(terminator);
  return linalg::CopyOp::create(b, terminator->getLoc(), value, destination)
      .getResult(0);
}

/// Makes a loop's terminator pass each tensor of `passed` in place of the
/// block argument of the same position in `arguments`, as bufferization
/// requires of loops: an scf.for body's iteration arguments, the arguments
/// of both regions of an scf.while.
static void carryInPlace(MutableOperandRange passed, ValueRange arguments,
                         const bufferization::AnalysisState &state) {
  for (auto [operand, argument] : llvm::zip(passed, arguments)) {
    Value value = operand.get();
    if (!isa<RankedTensorType>(value.getType()) ||
        argument.getType() != value.getType() ||
        getBufferSource(value, state) == argument)
      continue;
    OpBuilder b(operand.getOwner());
    operand.set(copyInto(b, operand.getOwner(), value, argument));
  }
}

/// Makes both branches of `conditional` write each tensor it yields into one
/// destination allocated before it, unless no branch computes that tensor
/// into a new buffer (both yield values from outside, or views of them).
static void yieldInPlace(scf::IfOp conditional,
                         const bufferization::AnalysisState &state) {
  if (conditional.getElseRegion().empty())
    return;
  auto isComputedInside = [&](Value yielded) {
    Value source = getBufferSource(yielded, state);
    return conditional->isAncestor(source.getParentRegion()->getParentOp());
  };
  OpBuilder b(conditional.getContext());
  for (OpResult result : conditional->getResults()) {
    auto type = dyn_cast<RankedTensorType>(result.getType());
    unsigned index = result.getResultNumber();
    Value thenValue = conditional.thenYield()->getOperand(index);
    Value elseValue = conditional.elseYield()->getOperand(index);
    if (!type || !type.hasStaticShape() ||
        (!isComputedInside(thenValue) && !isComputedInside(elseValue)))
      continue;
    b.setInsertionPoint(conditional);
    Value destination =
        tensor::EmptyOp::create(b, conditional.getLoc(), type.getShape(),
                                type.getElementType(), type.getEncoding());
    conditional.thenYield()->setOperand(
        index, copyInto(b, conditional.thenYield(), thenValue, destination));
    conditional.elseYield()->setOperand(
        index, copyInto(b, conditional.elseYield(), elseValue, destination));
  }
}

namespace {
struct RlxCarryTensorsInPlacePass
    : rlx::impl::RlxCarryTensorsInPlaceBase<RlxCarryTensorsInPlacePass> {
  void runOnOperation() override {
    bufferization::BufferizationOptions options;
    bufferization::AnalysisState state(options);
    getOperation().walk([&](Operation *op) {
      if (auto loop = dyn_cast<scf::ForOp>(op)) {
        auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
        carryInPlace(yield.getResultsMutable(), loop.getRegionIterArgs(),
                     state);
      } else if (auto loop = dyn_cast<scf::WhileOp>(op)) {
        carryInPlace(loop.getConditionOp().getArgsMutable(),
                     loop.getBeforeArguments(), state);
        carryInPlace(loop.getYieldOp().getResultsMutable(),
                     loop.getAfterArguments(), state);
      } else if (auto conditional = dyn_cast<scf::IfOp>(op)) {
        yieldInPlace(conditional, state);
      }
    });
  }
};
} // namespace
