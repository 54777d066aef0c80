//===- GuardParallelRegions.cpp - Serial parallel loops of one tile -------===//
//
// Upstream's OpenMP lowering has an `if` clause for this, but a region that
// the clause serializes still goes through libomp's work-sharing set-up
// (which formats an identifier string on each call: ~0.3 us, as much as a
// small op's work); a sequential copy of the loop costs nothing.
//
//===----------------------------------------------------------------------===//
#include "rlx/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXCPUGUARDPARALLELREGIONS
#include "rlx/Codegen/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;

/// Whether `loop` is worth guarding: an outermost parallel loop without
/// reductions whose bounds are not all constants.
static bool isGuardable(scf::ParallelOp loop) {
  if (loop.getNumResults() != 0 || loop->getParentOfType<scf::ParallelOp>())
    return false;
  return llvm::any_of(loop->getOperands(), [](Value bound) {
    return !getConstantIntValue(bound).has_value();
  });
}

/// Runs `loop` as a loop nest on the calling thread where it has at most
/// one iteration:
///   scf.if (some ub - lb > step) { loop } else { loop as scf.for nest }
static LogicalResult guard(RewriterBase &rewriter, scf::ParallelOp loop) {
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  // Steps are positive: a loop from lb to ub has more than one iteration
  // where ub - lb > step.
  Value several;
  for (auto [lower, upper, step] : llvm::zip_equal(
           loop.getLowerBound(), loop.getUpperBound(), loop.getStep())) {
    Value span = arith::SubIOp::create(rewriter, loc, upper, lower);
    Value more = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sgt,
                                       span, step);
    several =
        several ? arith::OrIOp::create(rewriter, loc, several, more) : more;
  }
  auto branches = scf::IfOp::create(rewriter, loc, several,
                                    /*withElseRegion=*/true);
  rewriter.setInsertionPointToStart(branches.elseBlock());
  auto serial = cast<scf::ParallelOp>(rewriter.clone(*loop));
  rewriter.moveOpBefore(loop, branches.thenBlock()->getTerminator());
  return scf::parallelForToNestedFors(rewriter, serial);
}

namespace {
struct RlxCpuGuardParallelRegionsPass
    : rlx::impl::RlxCpuGuardParallelRegionsBase<
          RlxCpuGuardParallelRegionsPass> {
  void runOnOperation() override {
    SmallVector<scf::ParallelOp> loops;
    getOperation()->walk([&](scf::ParallelOp loop) {
      if (isGuardable(loop))
        loops.push_back(loop);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ParallelOp loop : loops)
      if (failed(guard(rewriter, loop)))
        return signalPassFailure();
  }
};
} // namespace
