//===- InterchangeReductions.cpp - Contiguous innermost loops -------------===//
#include "rlx/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXINTERCHANGEREDUCTIONS
#include "rlx/Transforms/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;

/// The loop order that moves the last parallel loop of `op` innermost, or
/// none when that would not make the inner loop contiguous.
static std::optional<SmallVector<unsigned>>
getContiguousInnerOrder(linalg::LinalgOp op) {
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (op.getNumReductionLoops() == 0 ||
      iterators.back() != utils::IteratorType::reduction)
    return std::nullopt;
  auto lastParallel = llvm::find_if(llvm::reverse(iterators), [](auto it) {
    return it == utils::IteratorType::parallel;
  });
  if (lastParallel == iterators.rend())
    return std::nullopt;
  unsigned inner = iterators.size() - 1 -
                   std::distance(iterators.rbegin(), lastParallel);
  for (AffineMap map : op.getIndexingMapsArray()) {
    for (unsigned r = 0, e = map.getNumResults(); r < e; ++r)
      if (map.getResult(r).isFunctionOfDim(inner) && r + 1 != e)
        return std::nullopt;
  }
  SmallVector<unsigned> order;
  for (unsigned i = 0, e = iterators.size(); i < e; ++i)
    if (i != inner)
      order.push_back(i);
  order.push_back(inner);
  return order;
}

namespace {
struct RlxInterchangeReductionsPass
    : rlx::impl::RlxInterchangeReductionsBase<RlxInterchangeReductionsPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> contractions;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (getContiguousInnerOrder(op))
        contractions.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : contractions) {
      SmallVector<unsigned> order = *getContiguousInnerOrder(op);
      rewriter.setInsertionPoint(op);
      // Named contractions are generalized first; generics (the attention
      // tiles' contractions, dot_general) are interchanged as they are.
      auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      if (!generic) {
        FailureOr<linalg::GenericOp> generalized =
            linalg::generalizeNamedOp(rewriter, op);
        if (failed(generalized))
          continue;
        generic = *generalized;
      }
      (void)linalg::interchangeGenericOp(rewriter, generic, order);
    }
  }
};
} // namespace
