//===- FormRegions.cpp - Elementwise rlx.region formation -----------------===//
#include "rlx/Transforms/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXFORMREGIONS
#define GEN_PASS_DEF_RLXUNFUSE
#include "rlx/Transforms/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;
using namespace mlir::rlx;

/// An op that may join an elementwise region: it states its scalar
/// semantics and yields one ranked tensor.
static bool isElementwiseFusible(Operation *op) {
  return isa<ScalarComputeOpInterface>(op) && op->getNumResults() == 1 &&
         isa<RankedTensorType>(op->getResult(0).getType());
}

static ArrayRef<int64_t> getShape(Operation *op) {
  return cast<RankedTensorType>(op->getResult(0).getType()).getShape();
}

namespace {
/// Ops of one future region, all in one block; `seed` is the last of them
/// and the region's position.
struct Cluster {
  Operation *seed;
  llvm::SetVector<Operation *> ops;
  /// Members that are copied into the region while the original stays for
  /// users outside it.
  DenseSet<Operation *> recomputed;

  bool contains(Operation *op) const { return ops.contains(op); }
  /// A member whose results only cluster ops read.
  bool owns(Operation *op) const {
    return contains(op) && !recomputed.contains(op);
  }

  /// Distinct values the cluster reads from outside, were `extra` to join.
  unsigned countInputs(Operation *extra) const {
    llvm::SetVector<Value> inputs;
    auto collect = [&](Operation *op) {
      for (Value operand : op->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (def != extra && (!def || !contains(def)))
          inputs.insert(operand);
      }
    };
    for (Operation *op : ops)
      collect(op);
    collect(extra);
    return inputs.size();
  }
};
} // namespace

enum class Absorb { No, Join, Recompute };

/// Whether `producer` may join `cluster`: as a member (its outside users, if
/// any, read an extra region result), or as a recomputed copy.
static Absorb canAbsorb(const Cluster &cluster, Operation *producer,
                        bool multiOutput, bool recompute, unsigned maxInputs) {
  if (!isElementwiseFusible(producer) || cluster.contains(producer) ||
      producer->getBlock() != cluster.seed->getBlock() ||
      getShape(producer) != getShape(cluster.seed) ||
      cluster.countInputs(producer) > maxInputs)
    return Absorb::No;
  bool servedByResult = true;
  for (Operation *user : producer->getUsers()) {
    if (cluster.owns(user))
      continue;
    // A user outside reads the region's result, defined at the seed; a
    // recomputed member's original stays before it.
    Operation *ancestor =
        cluster.seed->getBlock()->findAncestorOpInBlock(*user);
    if (!multiOutput || !ancestor || cluster.recomputed.contains(user) ||
        !cluster.seed->isBeforeInBlock(ancestor))
      servedByResult = false;
  }
  if (servedByResult)
    return Absorb::Join;
  return recompute ? Absorb::Recompute : Absorb::No;
}

/// Replaces the cluster's ops with one rlx.region at the seed.
static void createRegion(RewriterBase &rewriter, Cluster &cluster) {
  // Block order keeps defs before uses inside the body.
  SmallVector<Operation *> ops(cluster.ops.begin(), cluster.ops.end());
  llvm::sort(ops, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });
  llvm::SetVector<Value> inputs;
  SmallVector<Value> results;
  for (Operation *op : ops) {
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (!def || !cluster.contains(def))
        inputs.insert(operand);
    }
    if (cluster.recomputed.contains(op))
      continue;
    Value result = op->getResult(0);
    if (op == cluster.seed ||
        llvm::any_of(result.getUsers(),
                     [&](Operation *user) { return !cluster.owns(user); }))
      results.push_back(result);
  }

  Location loc = rewriter.getFusedLoc(llvm::to_vector(
      llvm::map_range(ops, [](Operation *op) { return op->getLoc(); })));
  rewriter.setInsertionPoint(cluster.seed);
  auto region = RegionOp::create(
      rewriter, loc, ValueRange(results).getTypes(), FusionKind::Elementwise,
      inputs.getArrayRef());
  Block *body = rewriter.createBlock(
      &region.getBody(), {}, ValueRange(inputs.getArrayRef()).getTypes(),
      SmallVector<Location>(inputs.size(), loc));
  IRMapping mapping;
  mapping.map(inputs.getArrayRef(), body->getArguments());
  for (Operation *op : ops)
    rewriter.clone(*op, mapping);
  SmallVector<Value> yielded;
  for (Value result : results)
    yielded.push_back(mapping.lookup(result));
  YieldOp::create(rewriter, loc, yielded);

  for (auto [result, replacement] : llvm::zip(results, region.getResults()))
    rewriter.replaceUsesWithIf(result, replacement, [&](OpOperand &use) {
      return !cluster.owns(use.getOwner());
    });
  for (Operation *op : llvm::reverse(ops))
    if (!cluster.recomputed.contains(op))
      rewriter.eraseOp(op);
}

namespace {
struct RlxFormRegionsPass
    : rlx::impl::RlxFormRegionsBase<RlxFormRegionsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<Block *> blocks;
    getOperation()->walk([&](Block *block) {
      if (!isa<RegionOp>(block->getParentOp()))
        blocks.push_back(block);
    });
    IRRewriter rewriter(&getContext());
    for (Block *block : blocks) {
      SmallVector<Cluster> clusters;
      DenseSet<Operation *> clustered;
      for (Operation &op : llvm::reverse(*block)) {
        if (clustered.contains(&op) || !isElementwiseFusible(&op))
          continue;
        Cluster cluster{&op, {}};
        cluster.ops.insert(&op);
        // Absorb producers until none qualifies: a producer refused while
        // one of its users was still outside may qualify once it joined.
        for (bool grew = true; grew;) {
          grew = false;
          for (unsigned i = 0; i < cluster.ops.size(); ++i)
            for (Value operand : cluster.ops[i]->getOperands()) {
              Operation *producer = operand.getDefiningOp();
              if (!producer || clustered.contains(producer))
                continue;
              Absorb how = canAbsorb(cluster, producer, multiOutput,
                                     recompute, maxInputs);
              if (how == Absorb::No)
                continue;
              cluster.ops.insert(producer);
              if (how == Absorb::Recompute)
                cluster.recomputed.insert(producer);
              grew = true;
            }
        }
        if (cluster.ops.size() < 2)
          continue;
        // A recomputed original may still seed or join another region.
        for (Operation *member : cluster.ops)
          if (!cluster.recomputed.contains(member))
            clustered.insert(member);
        clusters.push_back(std::move(cluster));
      }
      for (Cluster &cluster : clusters)
        createRegion(rewriter, cluster);
    }
  }
};

struct RlxUnfusePass : rlx::impl::RlxUnfuseBase<RlxUnfusePass> {
  void runOnOperation() override {
    SmallVector<RegionOp> regions;
    getOperation()->walk([&](RegionOp region) { regions.push_back(region); });
    IRRewriter rewriter(&getContext());
    SmallVector<FusedOpInterface> fusedOps;
    getOperation()->walk([&](FusedOpInterface op) { fusedOps.push_back(op); });
    for (FusedOpInterface op : fusedOps) {
      rewriter.setInsertionPoint(op);
      rewriter.replaceOp(op, op.unfuse(rewriter));
    }
    for (RegionOp region : regions) {
      YieldOp yield = region.getYield();
      // A yielded body argument is the region input it stands for.
      SmallVector<Value> yielded;
      for (Value value : yield.getValues()) {
        auto arg = dyn_cast<BlockArgument>(value);
        yielded.push_back(arg ? region.getInputs()[arg.getArgNumber()]
                              : value);
      }
      rewriter.eraseOp(yield);
      rewriter.inlineBlockBefore(&region.getBody().front(), region,
                                 region.getInputs());
      rewriter.replaceOp(region, yielded);
    }
  }
};
} // namespace
