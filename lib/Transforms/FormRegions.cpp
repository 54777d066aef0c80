//===- FormRegions.cpp - rlx.region formation and its inverse ------------===//
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

static ArrayRef<int64_t> getShape(Value value) {
  return cast<RankedTensorType>(value.getType()).getShape();
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
  /// Members computing an operand of the contraction.
  DenseSet<Operation *> prologue;
  /// The region the members make: its kind, iteration shape and reduced
  /// axes. An elementwise cluster with axes holds per-row values of those
  /// axes and must become a row cluster.
  FusionKind kind;
  SmallVector<int64_t> shape;
  SmallVector<int64_t> axes;
  /// Whether per-row values may join an elementwise or reduction cluster
  /// before the reduction that makes it a row cluster, and whether some did.
  bool expectRows;
  bool hasPendingRows = false;

  Cluster(Operation *seed, bool expectRows)
      : seed(seed), expectRows(expectRows) {
    ops.insert(seed);
    if (auto reduction = dyn_cast<ReductionOpInterface>(seed)) {
      kind = FusionKind::Reduction;
      shape = llvm::to_vector(getShape(reduction.getReducedInput()));
      axes = reduction.getReducedAxes();
    } else if (isa<ContractionOpInterface>(seed)) {
      // A contraction whose result leaves unchanged may still take a
      // prologue.
      kind = FusionKind::Contraction;
      shape = llvm::to_vector(getShape(seed->getResult(0)));
    } else {
      kind = FusionKind::Elementwise;
      shape = llvm::to_vector(getShape(seed->getResult(0)));
    }
  }

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

/// The kinds a pass run may form.
struct EnabledKinds {
  bool elementwise, reduction, row, contraction;
};
} // namespace

enum class Absorb { No, Join, Recompute };

/// The kind, shape and axes `cluster` would have with `producer` as a
/// member, or failure when `producer` cannot join it.
static FailureOr<std::tuple<FusionKind, SmallVector<int64_t>,
                            SmallVector<int64_t>>>
getKindWith(const Cluster &cluster, Operation *producer,
            const EnabledKinds &enabled) {
  FusionKind kind = cluster.kind;
  SmallVector<int64_t> shape = cluster.shape, axes = cluster.axes;
  if (auto reduction = dyn_cast<ReductionOpInterface>(producer)) {
    // A member reads its result: the cluster broadcasts it back, by rows.
    if (!enabled.row || kind == FusionKind::Contraction)
      return failure();
    if (kind == FusionKind::Elementwise) {
      shape = llvm::to_vector(getShape(reduction.getReducedInput()));
      axes = reduction.getReducedAxes();
    }
    kind = FusionKind::Row;
  } else if (isa<ContractionOpInterface>(producer)) {
    if (!enabled.contraction || kind != FusionKind::Elementwise)
      return failure();
    kind = FusionKind::Contraction;
  }
  auto fits = [&](Operation *op) {
    return canJoinRegion(op, kind, shape, axes);
  };
  if (cluster.expectRows && isa<ScalarComputeOpInterface>(producer) &&
      !fits(producer)) {
    // A per-row value (the iteration shape with the row axes of size 1)
    // joins ahead of its reduction.
    if (kind == FusionKind::Reduction) {
      if (!canJoinRegion(producer, FusionKind::Row, shape, axes) ||
          !llvm::all_of(cluster.ops, [&](Operation *op) {
            return canJoinRegion(op, FusionKind::Row, shape, axes);
          }))
        return failure();
      return std::make_tuple(kind, shape, axes);
    }
    if (kind != FusionKind::Elementwise)
      return failure();
    ArrayRef<int64_t> rowShape = getShape(producer->getResult(0));
    if (rowShape.size() != shape.size())
      return failure();
    SmallVector<int64_t> rowAxes;
    for (auto [d, size] : llvm::enumerate(rowShape))
      if (size != shape[d]) {
        if (size != 1)
          return failure();
        rowAxes.push_back(d);
      }
    if (!axes.empty() && axes != rowAxes)
      return failure();
    return std::make_tuple(kind, shape, rowAxes);
  }
  if (!fits(producer))
    return failure();
  if (kind != cluster.kind || shape != cluster.shape)
    if (!llvm::all_of(cluster.ops, fits))
      return failure();
  return std::make_tuple(kind, shape, axes);
}

/// Whether `producer` may join `cluster`: as a member (its outside users, if
/// any, read an extra region result), or as a recomputed copy.
static Absorb canAbsorb(const Cluster &cluster, Operation *producer,
                        const EnabledKinds &enabled, bool multiOutput,
                        bool recompute, unsigned maxInputs) {
  if (cluster.contains(producer) ||
      producer->getBlock() != cluster.seed->getBlock() ||
      failed(getKindWith(cluster, producer, enabled)) ||
      cluster.countInputs(producer) > maxInputs)
    return Absorb::No;
  // The contraction's result is only worth fusing when nothing else reads
  // it, and nothing may feed it from inside (no prologue).
  if (isa<ContractionOpInterface>(producer))
    return llvm::all_of(producer->getUsers(),
                        [&](Operation *user) { return cluster.owns(user); })
               ? Absorb::Join
               : Absorb::No;
  if (cluster.kind == FusionKind::Contraction &&
      llvm::any_of(producer->getUsers(), [](Operation *user) {
        return isa<ContractionOpInterface>(user);
      }))
    return Absorb::No;
  // A reduction region returns only its reductions.
  FusionKind kind = std::get<0>(*getKindWith(cluster, producer, enabled));
  bool servedByResult = kind != FusionKind::Reduction ||
                        llvm::all_of(producer->getUsers(), [&](Operation *u) {
                          return cluster.owns(u);
                        });
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
  return recompute && isa<ScalarComputeOpInterface>(producer)
             ? Absorb::Recompute
             : Absorb::No;
}

/// Whether `producer` may join `cluster`'s contraction prologue, computing
/// an operand of shape `operandShape` that only the cluster reads.
static bool canAbsorbIntoPrologue(const Cluster &cluster, Operation *producer,
                                  ArrayRef<int64_t> operandShape,
                                  unsigned maxInputs) {
  return !cluster.contains(producer) &&
         producer->getBlock() == cluster.seed->getBlock() &&
         isa<ScalarComputeOpInterface>(producer) &&
         producer->getNumResults() == 1 &&
         getShape(producer->getResult(0)) == operandShape &&
         llvm::all_of(producer->getUsers(),
                      [&](Operation *user) { return cluster.owns(user); }) &&
         cluster.countInputs(producer) <= maxInputs;
}

static bool isEnabled(FusionKind kind, const EnabledKinds &enabled) {
  switch (kind) {
  case FusionKind::Elementwise:
    return enabled.elementwise;
  case FusionKind::Reduction:
    return enabled.reduction;
  case FusionKind::Row:
    return enabled.row;
  case FusionKind::Contraction:
    return enabled.contraction;
  }
  llvm_unreachable("covered switch");
}

namespace {
struct RlxFormRegionsPass
    : rlx::impl::RlxFormRegionsBase<RlxFormRegionsPass> {
  using Base::Base;

  void runOnOperation() override {
    EnabledKinds enabled{elementwise, reduction, row, contraction};
    IRRewriter rewriter(&getContext());
    if (row) {
      SmallVector<RowOpInterface> rowOps;
      getOperation()->walk([&](RowOpInterface op) { rowOps.push_back(op); });
      for (RowOpInterface op : rowOps) {
        rewriter.setInsertionPoint(op);
        rewriter.replaceOp(op, op.decomposeRows(rewriter));
      }
    }

    SmallVector<Block *> blocks;
    getOperation()->walk([&](Block *block) {
      if (!isa<RegionOp>(block->getParentOp()))
        blocks.push_back(block);
    });
    for (Block *block : blocks) {
      SmallVector<Cluster> clusters;
      DenseSet<Operation *> clustered;
      for (Operation &op : llvm::reverse(*block)) {
        if (clustered.contains(&op) || op.getNumResults() != 1 ||
            !isa<RankedTensorType>(op.getResult(0).getType()) ||
            !isa<ScalarComputeOpInterface, ReductionOpInterface,
                 ContractionOpInterface>(op))
          continue;
        // First let per-row values in ahead of their reduction; grow again
        // without them if no reduction came.
        Cluster cluster(&op, /*expectRows=*/row);
        grow(cluster, clustered, enabled);
        if (cluster.hasPendingRows && cluster.kind != FusionKind::Row) {
          cluster = Cluster(&op, /*expectRows=*/false);
          grow(cluster, clustered, enabled);
        }
        if (cluster.ops.size() < 2 || !isEnabled(cluster.kind, enabled))
          continue;
        // A recomputed original may still seed or join another region.
        for (Operation *member : cluster.ops)
          if (!cluster.recomputed.contains(member))
            clustered.insert(member);
        clusters.push_back(std::move(cluster));
      }
      for (Cluster &cluster : clusters)
        outlineIntoRegion(rewriter, cluster.ops.getArrayRef(), cluster.kind,
                          cluster.recomputed);
    }
  }

  /// Absorbs producers into `cluster` until none qualifies: a producer
  /// refused while one of its users was still outside may qualify once it
  /// joined.
  void grow(Cluster &cluster, const DenseSet<Operation *> &clustered,
            const EnabledKinds &enabled) {
        for (bool grew = true; grew;) {
          grew = false;
          for (unsigned i = 0; i < cluster.ops.size(); ++i) {
            Operation *member = cluster.ops[i];
            bool computesOperand = isa<ContractionOpInterface>(member) ||
                                   cluster.prologue.contains(member);
            for (Value operand : member->getOperands()) {
              Operation *producer = operand.getDefiningOp();
              if (!producer || clustered.contains(producer))
                continue;
              if (computesOperand) {
                // Every prologue op has the shape of the operand it computes.
                ArrayRef<int64_t> operandShape =
                    isa<ContractionOpInterface>(member)
                        ? getShape(operand)
                        : getShape(member->getResult(0));
                if (canAbsorbIntoPrologue(cluster, producer, operandShape,
                                          maxInputs)) {
                  cluster.ops.insert(producer);
                  cluster.prologue.insert(producer);
                  grew = true;
                }
                continue;
              }
              Absorb how = canAbsorb(cluster, producer, enabled, multiOutput,
                                     recompute, maxInputs);
              if (how == Absorb::No)
                continue;
              FusionKind kind = cluster.kind;
              std::tie(cluster.kind, cluster.shape, cluster.axes) =
                  *getKindWith(cluster, producer, enabled);
              if (cluster.kind == kind && !canJoinRegion(producer, kind,
                                                         cluster.shape,
                                                         cluster.axes))
                cluster.hasPendingRows = true;
              cluster.ops.insert(producer);
              if (how == Absorb::Recompute)
                cluster.recomputed.insert(producer);
              grew = true;
            }
          }
        }
  }
};

struct RlxUnfusePass : rlx::impl::RlxUnfuseBase<RlxUnfusePass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    unfuse(rewriter, getOperation());
  }
};
} // namespace

void mlir::rlx::unfuse(RewriterBase &rewriter, Operation *root) {
  SmallVector<RegionOp> regions;
  root->walk([&](RegionOp region) { regions.push_back(region); });
  SmallVector<FusedOpInterface> fusedOps;
  root->walk([&](FusedOpInterface op) { fusedOps.push_back(op); });
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
      yielded.push_back(arg ? region.getInputs()[arg.getArgNumber()] : value);
    }
    rewriter.eraseOp(yield);
    rewriter.inlineBlockBefore(&region.getBody().front(), region,
                               region.getInputs());
    rewriter.replaceOp(region, yielded);
  }
}
