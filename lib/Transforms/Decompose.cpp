//===- Decompose.cpp - Expand ops defined by compositions -----------------===//
//
// The recurrent layers, the state-space mixers and the functions of
// symmetric matrices are defined by the rlx ops they decompose into
// (DecomposableOpInterface); expanding them before fusion lets their parts
// fuse and tile like any others.
//
//===----------------------------------------------------------------------===//
#include "rlx/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXDECOMPOSE
#include "rlx/Transforms/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;
using namespace mlir::rlx;

void mlir::rlx::decompose(RewriterBase &rewriter, Operation *root,
                          bool keepDifferentiable) {
  // A decomposition may contain decomposable ops: repeat until none is left.
  for (;;) {
    SmallVector<DecomposableOpInterface> ops;
    root->walk([&](DecomposableOpInterface op) {
      if (!keepDifferentiable || !isa<GradientOpInterface>(*op))
        ops.push_back(op);
    });
    if (ops.empty())
      return;
    for (DecomposableOpInterface op : ops) {
      rewriter.setInsertionPoint(op);
      rewriter.replaceOp(op, op.decompose(rewriter));
    }
  }
}

namespace {
struct RlxDecomposePass : rlx::impl::RlxDecomposeBase<RlxDecomposePass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    decompose(rewriter, getOperation());
  }
};
} // namespace
