//===- ShardingInterfaceImpl.cpp - rlx ops under upstream sharding --------===//
//
// Upstream MLIR partitions SPMD programs with the `shard` dialect: an op takes
// part in `sharding-propagation` and `shard-partition` through
// `shard::ShardingInterface`, which describes it as loops that index its
// operands and results. Upstream has models for linalg, tensor and arith ops;
// these are the models of rlx ops, so a graph is sharded while a matmul's
// contraction, a norm's row and a loss's classes are still ops of their own,
// before autodiff's output is fused or lowered.
//
// Each op is described by a `LoopSpace`. Upstream's default methods take every
// result dimension to be one loop (projected permutations); here a dimension
// may be several loops major to minor (a reshape's merged dimensions: the
// heads and head size of [B, S, H * D]), and a loop may be split only in
// blocks that are multiples of a granule (whole heads) or not at all (a norm's
// row, a softmax's classes). So the methods below are written over the
// LoopSpace rather than upstream's defaults. An op without a rule of its own
// runs replicated: every operand is gathered whole and every process computes
// the whole result, which is always correct and never silently wrong.
//
//===----------------------------------------------------------------------===//
#include "rlx/Dialect/Rlx/Extensions/ShardingInterfaceImpl.h"

#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Shard/Interfaces/ShardingInterface.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::rlx;
using shard::GridAxis;
using shard::ReductionKind;
using shard::Sharding;

namespace {

/// An op's iteration space for sharding: its loops, and for each operand and
/// then each result, the loops of each dimension, major to minor (one loop
/// for all but merged dimensions).
struct LoopSpace {
  struct Loop {
    int64_t extent;
    /// Blocks of a split must be multiples of this; 0: never split.
    int64_t granule;
    utils::IteratorType iterator;
    ReductionKind kind;
  };
  SmallVector<Loop> loops;
  SmallVector<SmallVector<SmallVector<unsigned>>> tensors;
  /// The op is a mean: partial results average rather than add.
  bool mean = false;

  unsigned addLoop(int64_t extent, int64_t granule = 1,
                   utils::IteratorType iterator = utils::IteratorType::parallel,
                   ReductionKind kind = ReductionKind::Sum) {
    if (ShapedType::isDynamic(extent))
      granule = 0;
    loops.push_back({extent, granule, iterator, kind});
    return loops.size() - 1;
  }
  /// A dimension of `extent` of its own, never split.
  unsigned addFixedLoop(int64_t extent) { return addLoop(extent, 0); }

  /// The loop a split of a dimension splits: its leading loop of size > 1.
  unsigned getSplitLoop(ArrayRef<unsigned> dim) const {
    for (unsigned loop : dim)
      if (loops[loop].extent != 1)
        return loop;
    return dim.front();
  }

  /// Whether `loop` may be split in `count` equal blocks.
  bool canSplit(unsigned loop, int64_t count) const {
    const Loop &l = loops[loop];
    return l.granule > 0 && count > 0 && !ShapedType::isDynamic(l.extent) &&
           l.extent % (count * l.granule) == 0;
  }

  /// A loop that is not its dimension's leading one cannot be split: its
  /// blocks would not be contiguous in the tensor.
  void freezeMinorLoops() {
    for (auto &tensor : tensors)
      for (auto &dim : tensor)
        for (unsigned loop : dim)
          if (loop != getSplitLoop(dim))
            loops[loop].granule = 0;
  }

  SmallVector<AffineMap> getMaps(MLIRContext *context) const {
    SmallVector<AffineMap> maps;
    for (const auto &tensor : tensors) {
      SmallVector<AffineExpr> exprs;
      for (const auto &dim : tensor) {
        AffineExpr expr = getAffineConstantExpr(0, context);
        int64_t stride = 1;
        for (unsigned loop : llvm::reverse(dim)) {
          expr = expr + getAffineDimExpr(loop, context) * stride;
          if (!ShapedType::isDynamic(loops[loop].extent))
            stride *= loops[loop].extent;
        }
        exprs.push_back(expr);
      }
      maps.push_back(AffineMap::get(loops.size(), 0, exprs, context));
    }
    return maps;
  }
};

RankedTensorType getRankedType(Value value) {
  return dyn_cast<RankedTensorType>(value.getType());
}

/// One dimension of one loop.
SmallVector<unsigned> dimOf(unsigned loop) { return {loop}; }

/// Every dimension of every tensor a loop of its own, never split: the op
/// runs replicated.
LoopSpace getReplicatedSpace(Operation *op) {
  LoopSpace space;
  auto addTensor = [&](Value value) {
    auto &tensor = space.tensors.emplace_back();
    if (RankedTensorType type = getRankedType(value))
      for (int64_t size : type.getShape())
        tensor.push_back(dimOf(space.addFixedLoop(size)));
  };
  for (Value operand : op->getOperands())
    addTensor(operand);
  for (Value result : op->getResults())
    addTensor(result);
  return space;
}

/// `operand`'s dimensions against the loops of `resultLoops`, numpy-style:
/// aligned at the end, a size-1 dimension that broadcasts its own loop.
SmallVector<SmallVector<unsigned>>
getBroadcastDims(LoopSpace &space, ArrayRef<int64_t> shape,
                 ArrayRef<int64_t> resultShape,
                 ArrayRef<unsigned> resultLoops) {
  SmallVector<SmallVector<unsigned>> dims;
  int64_t offset = resultShape.size() - shape.size();
  for (auto [i, size] : llvm::enumerate(shape)) {
    int64_t resultDim = offset + i;
    if (size == 1 && resultShape[resultDim] != 1)
      dims.push_back(dimOf(space.addFixedLoop(1)));
    else
      dims.push_back(dimOf(resultLoops[resultDim]));
  }
  return dims;
}

std::optional<LoopSpace> getElementwiseSpace(Operation *op) {
  RankedTensorType resultType = getRankedType(op->getResult(0));
  if (!resultType)
    return std::nullopt;
  LoopSpace space;
  SmallVector<unsigned> loops;
  for (int64_t size : resultType.getShape())
    loops.push_back(space.addLoop(size));
  for (Value operand : op->getOperands()) {
    RankedTensorType type = getRankedType(operand);
    if (!type || type.getRank() > resultType.getRank())
      return std::nullopt;
    space.tensors.push_back(
        getBroadcastDims(space, type.getShape(), resultType.getShape(), loops));
  }
  for (Value result : op->getResults()) {
    if (result.getType() != resultType)
      return std::nullopt;
    space.tensors.push_back(getBroadcastDims(space, resultType.getShape(),
                                             resultType.getShape(), loops));
  }
  return space;
}

/// [..., M, K] x [..., K, N] -> [..., M, N]: batch, M and N split freely, K
/// split into partial sums.
LoopSpace getMatmulSpace(MatmulOp op) {
  ArrayRef<int64_t> result = op.getType().getShape();
  ArrayRef<int64_t> lhs = op.getLhs().getType().getShape();
  ArrayRef<int64_t> rhs = op.getRhs().getType().getShape();
  LoopSpace space;
  SmallVector<unsigned> loops;
  for (int64_t size : result.drop_back(2))
    loops.push_back(space.addLoop(size));
  unsigned m = space.addLoop(result[result.size() - 2]);
  unsigned n = space.addLoop(result.back());
  unsigned k = space.addLoop(lhs.back(), 1, utils::IteratorType::reduction);
  ArrayRef<int64_t> batch = result.drop_back(2);
  auto addOperand = [&](ArrayRef<int64_t> shape, unsigned row, unsigned col) {
    auto dims = getBroadcastDims(space, shape.drop_back(2), batch, loops);
    dims.push_back(dimOf(row));
    dims.push_back(dimOf(col));
    space.tensors.push_back(dims);
  };
  addOperand(lhs, m, k);
  addOperand(rhs, k, n);
  auto &out = space.tensors.emplace_back();
  for (unsigned loop : loops)
    out.push_back(dimOf(loop));
  out.push_back(dimOf(m));
  out.push_back(dimOf(n));
  return space;
}

LoopSpace getReduceSpace(ReduceOp op) {
  ReductionKind kind = ReductionKind::Sum;
  switch (op.getKind()) {
  case ReduceKind::Sum:
  case ReduceKind::Mean:
    break;
  case ReduceKind::Max:
    kind = ReductionKind::Max;
    break;
  case ReduceKind::Min:
    kind = ReductionKind::Min;
    break;
  case ReduceKind::Prod:
    kind = ReductionKind::Product;
    break;
  }
  auto reduction = cast<ReductionOpInterface>(op.getOperation());
  SmallVector<int64_t> axes = reduction.getReducedAxes();
  LoopSpace space;
  space.mean = op.getKind() == ReduceKind::Mean;
  SmallVector<SmallVector<unsigned>> input, result;
  for (auto [axis, size] :
       llvm::enumerate(op.getInput().getType().getShape())) {
    if (!llvm::is_contained(axes, int64_t(axis))) {
      unsigned loop = space.addLoop(size);
      input.push_back(dimOf(loop));
      result.push_back(dimOf(loop));
      continue;
    }
    input.push_back(
        dimOf(space.addLoop(size, 1, utils::IteratorType::reduction, kind)));
    if (op.getKeepDim())
      result.push_back(dimOf(space.addFixedLoop(1)));
  }
  space.tensors = {input, result};
  return space;
}

LoopSpace getTransposeSpace(TransposeOp op) {
  LoopSpace space;
  SmallVector<SmallVector<unsigned>> input, result;
  for (int64_t size : op.getInput().getType().getShape())
    input.push_back(dimOf(space.addLoop(size)));
  for (int64_t axis : op.getPermutation())
    result.push_back(input[axis]);
  space.tensors = {input, result};
  return space;
}

/// A reshape that merges or splits groups of dimensions: the loops are the
/// finer shape's dimensions; each coarse dimension is its group, major to
/// minor. Other reshapes run replicated.
std::optional<LoopSpace> getReshapeSpace(ReshapeOp op) {
  auto inputType = cast<RankedTensorType>(op.getInput().getType());
  auto resultType = cast<RankedTensorType>(op.getType());
  if (!inputType.hasStaticShape() || !resultType.hasStaticShape())
    return std::nullopt;
  bool expands = resultType.getRank() >= inputType.getRank();
  RankedTensorType fine = expands ? resultType : inputType;
  RankedTensorType coarse = expands ? inputType : resultType;
  std::optional<SmallVector<ReassociationIndices>> groups =
      getReassociationIndicesForReshape(coarse, fine);
  if (!groups)
    return std::nullopt;
  LoopSpace space;
  SmallVector<SmallVector<unsigned>> fineDims, coarseDims;
  for (int64_t size : fine.getShape())
    fineDims.push_back(dimOf(space.addLoop(size)));
  for (const ReassociationIndices &group : *groups) {
    SmallVector<unsigned> &dim = coarseDims.emplace_back();
    for (int64_t index : group)
      dim.push_back(index);
  }
  space.tensors.push_back(expands ? coarseDims : fineDims);
  space.tensors.push_back(expands ? fineDims : coarseDims);
  space.freezeMinorLoops();
  return space;
}

/// A splat constant is the same in every block; other constants are only
/// ever whole.
std::optional<LoopSpace> getConstantSpace(ConstantOp op) {
  auto value = dyn_cast<DenseElementsAttr>(op.getValue());
  if (!value || !value.isSplat())
    return std::nullopt;
  LoopSpace space;
  auto &result = space.tensors.emplace_back();
  for (int64_t size : value.getType().getShape())
    result.push_back(dimOf(space.addLoop(size)));
  return space;
}

/// Ops computed row by row along `axis` of their first operand: the other
/// dimensions split freely, the row never. Operands of the first operand's
/// shape follow it; 1-D operands of the row's length are the row's weights;
/// operands and results without the row axis are the per-row values.
std::optional<LoopSpace> getRowSpace(Operation *op, int64_t axis) {
  RankedTensorType inputType = getRankedType(op->getOperand(0));
  if (!inputType)
    return std::nullopt;
  ArrayRef<int64_t> shape = inputType.getShape();
  LoopSpace space;
  SmallVector<unsigned> loops;
  for (auto [i, size] : llvm::enumerate(shape))
    loops.push_back(int64_t(i) == axis ? space.addFixedLoop(size)
                                       : space.addLoop(size));
  SmallVector<int64_t> rowShape(shape);
  rowShape.erase(rowShape.begin() + axis);
  SmallVector<unsigned> rowLoops(loops);
  rowLoops.erase(rowLoops.begin() + axis);
  auto addTensor = [&](Value value) {
    RankedTensorType type = getRankedType(value);
    if (!type)
      return false;
    auto &dims = space.tensors.emplace_back();
    if (type.getShape() == shape) {
      for (unsigned loop : loops)
        dims.push_back(dimOf(loop));
    } else if (type.getShape() == ArrayRef<int64_t>(rowShape)) {
      for (unsigned loop : rowLoops)
        dims.push_back(dimOf(loop));
    } else if (type.getRank() == 1 && type.getDimSize(0) == shape[axis]) {
      dims.push_back(dimOf(loops[axis]));
    } else {
      return false;
    }
    return true;
  };
  for (Value operand : op->getOperands())
    if (!addTensor(operand))
      return std::nullopt;
  for (Value result : op->getResults())
    if (!addTensor(result))
      return std::nullopt;
  return space;
}

/// Convolutions and pooling split by batch (dimension 0 of every spatial
/// tensor but the weight); where no result has the batch (a weight's
/// gradient), the batch is summed, and its blocks are partial sums.
LoopSpace getBatchSpace(Operation *op, Value weight, bool resultIsWeight) {
  LoopSpace space;
  auto batchType = cast<RankedTensorType>(op->getOperand(0).getType());
  unsigned batch =
      space.addLoop(batchType.getDimSize(0), 1,
                    resultIsWeight ? utils::IteratorType::reduction
                                   : utils::IteratorType::parallel);
  for (Value value : llvm::concat<Value>(op->getOperands(), op->getResults())) {
    auto type = cast<RankedTensorType>(value.getType());
    bool hasBatch = value != weight && type.getRank() > 0 &&
                    !(resultIsWeight && value.getDefiningOp() == op);
    SmallVector<SmallVector<unsigned>> dims;
    for (auto [i, size] : llvm::enumerate(type.getShape()))
      dims.push_back(i == 0 && hasBatch ? dimOf(batch)
                                        : dimOf(space.addFixedLoop(size)));
    space.tensors.push_back(dims);
  }
  return space;
}

/// Rotary embeddings: every axis but the rotated head's features splits,
/// `bsd`'s packed heads in whole heads; the tables follow the positions. The
/// backward op is the same rotation, transposed.
template <typename RopeOpTy> LoopSpace getRopeSpace(RopeOpTy op) {
  auto inputType = cast<RankedTensorType>(op->getOperand(0).getType());
  ArrayRef<int64_t> shape = inputType.getShape();
  int64_t rank = shape.size();
  int64_t sequenceAxis = RopeOp::getSequenceAxis(op.getLayout(), rank);
  LoopSpace space;
  SmallVector<SmallVector<unsigned>> dims;
  for (auto [axis, size] : llvm::enumerate(shape)) {
    int64_t granule = 1;
    if (int64_t(axis) == rank - 1)
      granule = op.getLayout() == AttentionLayout::BSD ? op.getHeadDim() : 0;
    dims.push_back(dimOf(space.addLoop(size, granule)));
  }
  space.tensors.push_back(dims);
  for (Value table : {op.getCos(), op.getSin()}) {
    auto type = cast<RankedTensorType>(table.getType());
    space.tensors.push_back(
        {dims[sequenceAxis], dimOf(space.addFixedLoop(type.getDimSize(1)))});
  }
  space.tensors.push_back(dims);
  return space;
}

/// Attention splits by batch and by key/value heads, each process taking
/// whole groups of query heads: a query head's dimension is (kv head, head
/// in group), major to minor. The sequence and feature axes never split.
/// With one key/value head (multi-query), the forward op may split the
/// query heads alone; the backward op sums dk and dv over a group, so it
/// never splits within one.
std::optional<LoopSpace> getAttentionSpace(Operation *op,
                                           AttentionLayout layout,
                                           AttentionMask mask, Value q, Value k,
                                           bool splitsGroups) {
  std::optional<int64_t> headAxis = AttentionOp::getHeadAxis(layout);
  if (!headAxis ||
      (mask != AttentionMask::None && mask != AttentionMask::Causal &&
       mask != AttentionMask::SlidingWindow))
    return std::nullopt;
  auto qType = cast<RankedTensorType>(q.getType());
  auto kType = cast<RankedTensorType>(k.getType());
  if (!qType.hasStaticShape() || !kType.hasStaticShape())
    return std::nullopt;
  int64_t kvHeads = kType.getDimSize(*headAxis);
  if (kvHeads <= 0 || qType.getDimSize(*headAxis) % kvHeads)
    return std::nullopt;
  int64_t groupSize = qType.getDimSize(*headAxis) / kvHeads;
  int64_t sequenceAxis = AttentionOp::getSequenceAxis(layout);
  LoopSpace space;
  unsigned batch = space.addLoop(qType.getDimSize(0));
  unsigned kvHead = space.addLoop(kvHeads);
  unsigned inGroup = space.addLoop(groupSize, splitsGroups ? 1 : 0);
  unsigned queries = space.addFixedLoop(qType.getDimSize(sequenceAxis));
  unsigned keys = space.addFixedLoop(kType.getDimSize(sequenceAxis));
  // [B, S, H, D] or [B, H, S, D] from the batch, heads, sequence, features.
  auto layoutDims = [&](SmallVector<unsigned> heads, unsigned sequence,
                        int64_t features) {
    SmallVector<SmallVector<unsigned>> dims(4);
    dims[0] = dimOf(batch);
    dims[*headAxis] = heads;
    dims[sequenceAxis] = dimOf(sequence);
    dims[3] = dimOf(space.addFixedLoop(features));
    return dims;
  };
  SmallVector<unsigned> queryHeads = {kvHead, inGroup};
  auto addTensor = [&](Value value) -> bool {
    auto type = cast<RankedTensorType>(value.getType());
    ArrayRef<int64_t> shape = type.getShape();
    if (type.getRank() == 4 && shape[*headAxis] == kvHeads * groupSize &&
        shape[sequenceAxis] == qType.getDimSize(sequenceAxis))
      space.tensors.push_back(layoutDims(queryHeads, queries, shape[3]));
    else if (type.getRank() == 4 && shape[*headAxis] == kvHeads &&
             shape[sequenceAxis] == kType.getDimSize(sequenceAxis))
      space.tensors.push_back(layoutDims({kvHead}, keys, shape[3]));
    else if (type.getRank() == 3) // logsumexp: [B, H, S_q]
      space.tensors.push_back({dimOf(batch), queryHeads, dimOf(queries)});
    else
      return false;
    return true;
  };
  // q, k, v, then the backward op's out, dout and logsumexp; then results.
  for (Value value : llvm::concat<Value>(op->getOperands(), op->getResults()))
    if (!addTensor(value))
      return std::nullopt;
  return space;
}

/// Narrow and concat: every axis but the one they cut or join.
LoopSpace getAlongAxisSpace(Operation *op, int64_t axis) {
  LoopSpace space;
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  SmallVector<unsigned> loops;
  for (auto [i, size] : llvm::enumerate(resultType.getShape()))
    loops.push_back(space.addLoop(int64_t(i) == axis ? 1 : size,
                                  int64_t(i) == axis ? 0 : 1));
  for (Value value : llvm::concat<Value>(op->getOperands(), op->getResults())) {
    auto &dims = space.tensors.emplace_back();
    auto type = cast<RankedTensorType>(value.getType());
    for (auto [i, size] : llvm::enumerate(type.getShape()))
      dims.push_back(int64_t(i) == axis ? dimOf(space.addFixedLoop(size))
                                        : dimOf(loops[i]));
  }
  return space;
}

/// The op's loop space: its own rule, or replicated.
LoopSpace getLoopSpace(Operation *op) {
  std::optional<LoopSpace> space =
      llvm::TypeSwitch<Operation *, std::optional<LoopSpace>>(op)
          .Case([](MatmulOp op) { return getMatmulSpace(op); })
          .Case([](ReduceOp op) { return getReduceSpace(op); })
          .Case([](TransposeOp op) { return getTransposeSpace(op); })
          .Case([](ReshapeOp op) { return getReshapeSpace(op); })
          .Case([](ConstantOp op) { return getConstantSpace(op); })
          .Case<RopeOp, RopeBackwardOp>(
              [](auto op) { return getRopeSpace(op); })
          .Case<ConvOp, ConvTransposeOp, ConvBackwardInputOp>([](auto op) {
            return getBatchSpace(op, op.getWeight(), /*resultIsWeight=*/false);
          })
          .Case<ConvBackwardWeightOp, ConvTransposeBackwardWeightOp>(
              [](Operation *op) {
                return getBatchSpace(op, Value(), /*resultIsWeight=*/true);
              })
          .Case<PoolOp, GlobalPoolOp, PoolBackwardOp, GlobalPoolBackwardOp>(
              [](Operation *op) {
                return getBatchSpace(op, Value(), /*resultIsWeight=*/false);
              })
          .Case([](AttentionOp op) -> std::optional<LoopSpace> {
            if (op.getMask())
              return std::nullopt;
            return getAttentionSpace(op, op.getLayout(), op.getMaskKind(),
                                     op.getQ(), op.getK(),
                                     /*splitsGroups=*/true);
          })
          .Case([](AttentionBackwardOp op) -> std::optional<LoopSpace> {
            if (op.getMask())
              return std::nullopt;
            return getAttentionSpace(op, op.getLayout(), op.getMaskKind(),
                                     op.getQ(), op.getK(),
                                     /*splitsGroups=*/false);
          })
          .Case<NarrowOp, ConcatOp>([](auto op) {
            int64_t rank = op.getType().getRank();
            return getAlongAxisSpace(op, op.getAxis() < 0 ? op.getAxis() + rank
                                                          : op.getAxis());
          })
          .Case<SoftmaxOp, LogSoftmaxOp>(
              [](auto op) { return getRowSpace(op, op.getNormalizedAxis()); })
          .Case<RmsNormOp, LayerNormOp>(
              [](auto op) -> std::optional<LoopSpace> {
                if (op.getWithStatistics())
                  return std::nullopt;
                return getRowSpace(op, op.getNormalizedAxis());
              })
          .Case<SoftmaxCrossEntropyOp, SoftmaxCrossEntropyBackwardOp,
                SoftmaxCrossEntropyWithLabelsOp,
                SoftmaxCrossEntropyWithLabelsBackwardOp>(
              [](Operation *op) { return getRowSpace(op, 1); })
          .Default([](Operation *op) -> std::optional<LoopSpace> {
            if (isa<ScalarComputeOpInterface>(op))
              return getElementwiseSpace(op);
            return std::nullopt;
          });
  if (space)
    return std::move(*space);
  return getReplicatedSpace(op);
}

shard::GridOp lookupGrid(Operation *op, FlatSymbolRefAttr grid) {
  return SymbolTable::lookupNearestSymbolFrom<shard::GridOp>(op, grid);
}

/// The tensors of `op` with their shardings: operands, then results.
SmallVector<Sharding, 0> concatShardings(ArrayRef<Sharding> operands,
                                         ArrayRef<Sharding> results) {
  SmallVector<Sharding, 0> all(operands);
  llvm::append_range(all, results);
  return all;
}

/// The sharding of a tensor of `type` whose dimensions are `dims`, under the
/// loops' split axes.
Sharding getTensorSharding(MLIRContext *context, const LoopSpace &space,
                           ArrayRef<SmallVector<unsigned>> dims, Type type,
                           const shard::ShardingOption &option) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType)
    return Sharding();
  // A rank-0 tensor is whole everywhere; upstream spells it without axes.
  if (tensorType.getRank() == 0)
    return Sharding(option.grid);
  SmallVector<SmallVector<GridAxis>> splitAxes;
  for (const auto &dim : dims) {
    unsigned loop = space.getSplitLoop(dim);
    splitAxes.push_back(loop < option.shardingArray.size()
                            ? option.shardingArray[loop]
                            : SmallVector<GridAxis>());
  }
  shard::removeTrailingEmptySubArray(splitAxes);
  SmallVector<shard::GridAxesAttr> attrs;
  for (const auto &axes : splitAxes)
    attrs.push_back(shard::GridAxesAttr::get(context, axes));
  return Sharding::get(option.grid, attrs);
}

/// Attention's head counts are attributes: a process's op has its blocks'.
void setLocalHeadCounts(Operation *op) {
  auto update = [](auto attention) {
    std::optional<int64_t> headAxis =
        AttentionOp::getHeadAxis(attention.getLayout());
    if (!headAxis)
      return;
    Builder b(attention.getContext());
    attention.setNumHeadsAttr(
        b.getI64IntegerAttr(attention.getQ().getType().getDimSize(*headAxis)));
    attention.setNumKvHeadsAttr(
        b.getI64IntegerAttr(attention.getK().getType().getDimSize(*headAxis)));
  };
  if (auto attention = dyn_cast<AttentionOp>(op))
    update(attention);
  else if (auto backward = dyn_cast<AttentionBackwardOp>(op))
    update(backward);
}

template <typename OpTy>
struct RlxShardingModel
    : public shard::ShardingInterface::ExternalModel<RlxShardingModel<OpTy>,
                                                     OpTy> {
  SmallVector<utils::IteratorType> getLoopIteratorTypes(Operation *op) const {
    return llvm::map_to_vector(getLoopSpace(op).loops,
                               [](const auto &loop) { return loop.iterator; });
  }

  SmallVector<ReductionKind>
  getReductionLoopIteratorKinds(Operation *op) const {
    SmallVector<ReductionKind> kinds;
    for (const auto &loop : getLoopSpace(op).loops)
      if (loop.iterator == utils::IteratorType::reduction)
        kinds.push_back(loop.kind);
    return kinds;
  }

  SmallVector<AffineMap> getIndexingMaps(Operation *op) const {
    return getLoopSpace(op).getMaps(op->getContext());
  }

  /// The loops' split axes from whatever neighbours say, results first; a
  /// split the op cannot take (a row, a block that is not whole heads, a
  /// size the grid does not divide) is left out, so the operand is
  /// resharded rather than computed wrongly.
  FailureOr<shard::ShardingOption>
  getShardingOption(Operation *op, ArrayRef<Sharding> operandShardings,
                    ArrayRef<Sharding> resultShardings) const {
    LoopSpace space = getLoopSpace(op);
    shard::ShardingOption option;
    option.shardingArray.resize(space.loops.size());
    bool anySharding = false;
    SmallVector<Sharding, 0> shardings =
        concatShardings(operandShardings, resultShardings);
    unsigned numOperands = op->getNumOperands();
    // Results first, as upstream's default: a result annotation is a
    // requirement, an operand's is a suggestion.
    SmallVector<unsigned> order;
    for (unsigned i = numOperands; i < shardings.size(); ++i)
      order.push_back(i);
    for (unsigned i = 0; i < numOperands; ++i)
      order.push_back(i);
    for (unsigned i : order) {
      const Sharding &sharding = shardings[i];
      if (!sharding)
        continue;
      anySharding = true;
      if (!option.grid)
        option.grid = sharding.getGridAttr();
      if (sharding.getGridAttr() != option.grid)
        continue;
      shard::GridOp grid = lookupGrid(op, option.grid);
      if (!grid)
        return failure();
      for (auto [dim, axes] :
           llvm::zip(space.tensors[i], sharding.getSplitAxes())) {
        ArrayRef<GridAxis> axesRef = axes.asArrayRef();
        if (axesRef.empty())
          continue;
        unsigned loop = space.getSplitLoop(dim);
        if (!option.shardingArray[loop].empty() ||
            !space.canSplit(loop,
                            shard::collectiveProcessGroupSize(axesRef, grid)))
          continue;
        bool axisTaken = llvm::any_of(axesRef, [&](GridAxis axis) {
          return llvm::any_of(option.shardingArray, [&](const auto &used) {
            return llvm::is_contained(used, axis);
          });
        });
        if (!axisTaken)
          option.shardingArray[loop].assign(axesRef.begin(), axesRef.end());
      }
    }
    if (!anySharding)
      return shard::ShardingOption::makeEmpty();
    shard::removeTrailingEmptySubArray(option.shardingArray);
    return option;
  }

  FailureOr<std::vector<Sharding>>
  getShardingAnnotations(Operation *op,
                         const shard::ShardingOption &option) const {
    LoopSpace space = getLoopSpace(op);
    std::vector<Sharding> shardings;
    unsigned i = 0;
    for (Value value : llvm::concat<Value>(op->getOperands(), op->getResults()))
      shardings.push_back(getTensorSharding(op->getContext(), space,
                                            space.tensors[i++], value.getType(),
                                            option));
    return shardings;
  }

  LogicalResult
  addShardingAnnotations(Operation *op, OpBuilder &b,
                         const shard::ShardingOption &option) const {
    FailureOr<std::vector<Sharding>> shardings =
        getShardingAnnotations(op, option);
    if (failed(shardings))
      return failure();
    unsigned numOperands = op->getNumOperands();
    for (OpResult result : op->getResults())
      if (Sharding sharding =
              (*shardings)[numOperands + result.getResultNumber()])
        shard::maybeInsertTargetShardingAnnotation(sharding, result, b);
    for (OpOperand &operand : op->getOpOperands()) {
      OpBuilder::InsertionGuard guard(b);
      if (Sharding sharding = (*shardings)[operand.getOperandNumber()])
        shard::maybeInsertSourceShardingAnnotation(sharding, operand, b);
    }
    return success();
  }

  /// The op on its local blocks; a split reduction loop leaves partial
  /// results, combined by one all-reduce per result.
  LogicalResult partition(Operation *op, ArrayRef<Value> partitionedOperands,
                          ArrayRef<Sharding> operandShardings,
                          ArrayRef<Sharding> resultShardings,
                          IRMapping &partitionMap,
                          SymbolTableCollection &symbolTable,
                          OpBuilder &builder) const {
    LoopSpace space = getLoopSpace(op);
    SmallVector<Sharding, 0> shardings =
        concatShardings(operandShardings, resultShardings);
    SmallVector<SmallVector<GridAxis>> loopAxes(space.loops.size());
    FlatSymbolRefAttr gridName;
    for (auto [sharding, dims] : llvm::zip(shardings, space.tensors)) {
      if (!sharding)
        continue;
      gridName = sharding.getGridAttr();
      for (auto [dim, axes] : llvm::zip(dims, sharding.getSplitAxes()))
        if (!axes.empty())
          loopAxes[space.getSplitLoop(dim)].assign(axes.asArrayRef().begin(),
                                                   axes.asArrayRef().end());
    }
    shard::GridOp grid =
        gridName ? shard::getGridOrNull(op, gridName, symbolTable) : nullptr;
    if (!grid) {
      builder.clone(*op, partitionMap);
      return success();
    }

    ImplicitLocOpBuilder b(op->getLoc(), builder);
    SmallVector<Type> localTypes;
    for (auto [result, sharding] : llvm::zip(op->getResults(), resultShardings))
      localTypes.push_back(
          sharding ? shard::shardType(result.getType(), grid, sharding)
                   : result.getType());
    SmallVector<Value> localResults;
    if (auto constant = dyn_cast<ConstantOp>(op)) {
      auto value = cast<DenseElementsAttr>(constant.getValue());
      auto localType = cast<ShapedType>(localTypes.front());
      localResults.push_back(ConstantOp::create(
          b,
          DenseElementsAttr::get(localType, value.getSplatValue<Attribute>())));
    } else {
      IRMapping localMap;
      localMap.map(op->getOperands(), partitionedOperands);
      Operation *clone = b.clone(*op, localMap);
      for (auto [result, type] : llvm::zip(clone->getResults(), localTypes))
        result.setType(type);
      setLocalHeadCounts(clone);
      llvm::append_range(localResults, clone->getResults());
    }

    SmallVector<GridAxis> reductionAxes;
    ReductionKind kind = ReductionKind::Sum;
    for (auto [loop, axes] : llvm::zip(space.loops, loopAxes)) {
      if (loop.iterator != utils::IteratorType::reduction || axes.empty())
        continue;
      llvm::append_range(reductionAxes, axes);
      kind = loop.kind;
    }
    if (!reductionAxes.empty()) {
      llvm::sort(reductionAxes);
      for (Value &result : localResults) {
        result = shard::AllReduceOp::create(b, result, grid.getSymName(),
                                            reductionAxes, kind);
        if (!space.mean)
          continue;
        // The blocks are equal, so the mean is the mean of the blocks' means.
        auto type = cast<RankedTensorType>(result.getType());
        int64_t count = shard::collectiveProcessGroupSize(reductionAxes, grid);
        auto scalarType = RankedTensorType::get({}, type.getElementType());
        Value scale = ConstantOp::create(
            b, DenseElementsAttr::get(
                   scalarType,
                   b.getFloatAttr(type.getElementType(), 1.0 / double(count))));
        result = MulOp::create(b, type, result, scale);
      }
    }
    for (auto [result, local] : llvm::zip(op->getResults(), localResults))
      partitionMap.map(result, local);
    return success();
  }
};

template <typename... OpTys> void attachModels(MLIRContext *context) {
  (OpTys::template attachInterface<RlxShardingModel<OpTys>>(*context), ...);
}

} // namespace

void mlir::rlx::registerShardingInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, RlxDialect *) {
    context->loadDialect<shard::ShardDialect>();
    attachModels<
#define GET_OP_LIST
#include "rlx/Dialect/Rlx/IR/RlxOps.cpp.inc"
        >(context);
  });
}
