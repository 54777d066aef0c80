//===- RowsOp.cpp - rlx.rows: tiles of rows and their linalg form ---------===//
//
// `TilingInterface` cuts an rlx.rows into tiles of whole rows, and
// `decomposeOperation` writes a tile as linalg generics, one per stage of
// its reductions, as IREE's LinalgExt softmax decomposes. Upstream's
// linalg.softmax is one fixed formula; a row region's body is any graph of
// elementwise ops and reductions over the same rows (the normalizations,
// the softmax losses, what fusion merged into them), so the op carries that
// body and derives its stages from it.
//
//===----------------------------------------------------------------------===//
#include "rlx/Dialect/Rlx/IR/BodyGenerics.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::rlx;

//===----------------------------------------------------------------------===//
// Tiling
//===----------------------------------------------------------------------===//

SmallVector<Range> RowsOp::getIterationDomain(OpBuilder &b) {
  // The outs have the iteration shape or the row shape (size 1 along the
  // row axes), the inputs broadcast to it.
  SmallVector<int64_t> shape = getIterationShape();
  SmallVector<Value> tensors(getInputs());
  llvm::append_range(tensors, getOuts());
  SmallVector<OpFoldResult> sizes = getLoopSizes(
      b, getLoc(), shape, tensors,
      llvm::map_to_vector(tensors, [&](Value tensor) {
        return getBroadcastIndexingMap(getTensorType(tensor), shape);
      }));
  return llvm::map_to_vector(sizes, [&](OpFoldResult size) {
    return Range{b.getIndexAttr(0), size, b.getIndexAttr(1)};
  });
}

SmallVector<utils::IteratorType> RowsOp::getLoopIteratorTypes() {
  SmallVector<utils::IteratorType> iterators(getIterationShape().size(),
                                             utils::IteratorType::parallel);
  for (int64_t axis : getReducedAxes())
    iterators[axis] = utils::IteratorType::reduction;
  return iterators;
}

/// The part of a value of shape `shape` (broadcast numpy-style to the
/// iteration shape, of rank `rank`) that the tile at `offsets` and `sizes`
/// of the loops reads or writes: its size-1 dimensions whole, the others
/// the tile's (which holds the row axes whole).
static void getValueTile(ArrayRef<int64_t> shape, int64_t rank,
                         ArrayRef<OpFoldResult> offsets,
                         ArrayRef<OpFoldResult> sizes, OpBuilder &b,
                         SmallVectorImpl<OpFoldResult> &valueOffsets,
                         SmallVectorImpl<OpFoldResult> &valueSizes) {
  int64_t lead = rank - shape.size();
  for (auto [i, size] : llvm::enumerate(shape)) {
    int64_t d = lead + i;
    bool whole = size == 1;
    valueOffsets.push_back(whole ? b.getIndexAttr(0) : offsets[d]);
    valueSizes.push_back(whole ? b.getIndexAttr(1) : sizes[d]);
  }
}

FailureOr<TilingResult>
RowsOp::getTiledImplementation(OpBuilder &b, ArrayRef<OpFoldResult> offsets,
                               ArrayRef<OpFoldResult> sizes) {
  SmallVector<int64_t> shape = getIterationShape();
  SmallVector<int64_t> axes = getReducedAxes();
  int64_t rank = shape.size();
  // A tile holds whole rows; its body's types have the tile's sizes (`?`
  // for the partial tiles of a loop its tile size does not divide, or of a
  // `?` loop).
  SmallVector<int64_t> tileShape;
  for (auto [d, offset, size] : llvm::enumerate(offsets, sizes)) {
    std::optional<int64_t> staticSize = getConstantIntValue(size);
    bool isRowAxis = llvm::is_contained(axes, static_cast<int64_t>(d));
    // A `?` row axis is whole when its tile is the loop (tile size 0).
    if (isRowAxis &&
        (!isConstantIntValue(offset, 0) ||
         (!ShapedType::isDynamic(shape[d]) && staticSize != shape[d])))
      return emitOpError("cannot split row axis ")
             << d << ": a tile holds whole rows";
    tileShape.push_back(isRowAxis ? shape[d]
                                  : staticSize.value_or(ShapedType::kDynamic));
  }
  auto retype = [&](Type type) -> Type {
    auto tensor = cast<RankedTensorType>(type);
    int64_t lead = rank - tensor.getRank();
    SmallVector<int64_t> sliced;
    for (auto [i, size] : llvm::enumerate(tensor.getShape())) {
      int64_t d = lead + i;
      sliced.push_back(size == 1 || llvm::is_contained(axes, d) ? size
                                                                : tileShape[d]);
    }
    return tensor.clone(sliced);
  };

  Location loc = getLoc();
  SmallVector<Operation *> slices;
  auto slice = [&](Value value) -> Value {
    SmallVector<OpFoldResult> valueOffsets, valueSizes;
    getValueTile(getTensorType(value).getShape(), rank, offsets, sizes, b,
                 valueOffsets, valueSizes);
    SmallVector<OpFoldResult> strides(valueOffsets.size(), b.getIndexAttr(1));
    auto extract = tensor::ExtractSliceOp::create(
        b, loc, cast<RankedTensorType>(retype(value.getType())), value,
        valueOffsets, valueSizes, strides);
    slices.push_back(extract);
    return extract;
  };
  SmallVector<Value> inputs = llvm::map_to_vector(getInputs(), slice);
  SmallVector<Value> outs = llvm::map_to_vector(getOuts(), slice);
  auto tiled =
      RowsOp::create(b, loc, ValueRange(outs).getTypes(), inputs, outs);

  // The body on the tile's shape: the same ops, each value retyped.
  OpBuilder::InsertionGuard guard(b);
  Block &body = getBody().front();
  Block *tiledBody = b.createBlock(
      &tiled.getBody(), {}, ValueRange(inputs).getTypes(),
      llvm::map_to_vector(body.getArguments(),
                          [](BlockArgument arg) { return arg.getLoc(); }));
  IRMapping mapping;
  mapping.map(body.getArguments(), tiledBody->getArguments());
  for (Operation &op : body) {
    Operation *clone = b.clone(op, mapping);
    for (OpResult result : clone->getResults())
      result.setType(retype(result.getType()));
  }
  return TilingResult{{tiled}, SmallVector<Value>(tiled->getResults()), slices};
}

LogicalResult RowsOp::getResultTilePosition(
    OpBuilder &b, unsigned resultNumber, ArrayRef<OpFoldResult> offsets,
    ArrayRef<OpFoldResult> sizes, SmallVector<OpFoldResult> &resultOffsets,
    SmallVector<OpFoldResult> &resultSizes) {
  getValueTile(getTensorType(getResult(resultNumber)).getShape(),
               getIterationShape().size(), offsets, sizes, b, resultOffsets,
               resultSizes);
  return success();
}

//===----------------------------------------------------------------------===//
// Decomposition
//===----------------------------------------------------------------------===//

namespace {
/// Plans and emits the linalg form of one rlx.rows. Body values are either
/// per-row (reductions and elementwise ops on per-row values: one element
/// per row, computed by generics over the kept dimensions, the shape of the
/// reductions' accumulators) or per-element (computed inside the generics
/// over the iteration shape, which read per-row values through the
/// accumulator map: a vector loop along a row reads one scalar per row).
/// Reductions fall into stages: a reduction whose input needs a stage-k value
/// runs in stage k + 1. A per-element value that several stages (or a stage and
/// the results) need is computed once, into a staged tensor, when it is first
/// needed; everything else is recomputed where it is needed.
class RowsDecomposition {
public:
  explicit RowsDecomposition(RowsOp op)
      : op(op), body(op.getBody().front()), inputs(op.getInputs()),
        shape(op.getIterationShape()), axes(op.getReducedAxes()) {
    rowShape = shape;
    for (int64_t axis : axes)
      rowShape[axis] = 1;
    for (auto [d, size] : llvm::enumerate(shape))
      if (!llvm::is_contained(axes, static_cast<int64_t>(d)))
        keptShape.push_back(size);
    classify();
  }

  SmallVector<Value> emit(OpBuilder &b);

private:
  int64_t getRank() const { return shape.size(); }
  bool isInput(Value v) const { return isa<BlockArgument>(v); }
  bool isPerRow(Value v) const { return perRow.contains(v); }
  Value getInput(Value arg) const {
    return inputs[cast<BlockArgument>(arg).getArgNumber()];
  }
  /// Whether input `v` has size 1 along every row axis, so it is one value
  /// per row.
  bool isRowInvariantInput(Value v) const;

  void classify();
  /// The stage of the reductions `v` needs the results of (0: none).
  unsigned getStage(Value v);
  /// Adds to `leaves` the values that computing per-element `v` reads
  /// (inputs, staged and per-row values) and to `ops` the per-element ops it
  /// evaluates.
  void collect(Value v, llvm::SetVector<Value> &leaves,
               llvm::SetVector<Operation *> &ops) const;
  /// The tensor holding leaf `v`.
  Value getLeafTensor(Value v) const;
  /// How a generic over the iteration shape reads leaf `v`'s tensor.
  AffineMap getLeafMap(Value v) const;
  /// How a generic over the kept dimensions reads input `input`, which has
  /// size 1 along the row axes.
  AffineMap getPerRowInputMap(Value input) const;

  /// Computes the per-row `values` not computed yet, in one generic over
  /// the kept dimensions, into `destinations` where they have one.
  void emitPerRow(OpBuilder &b, Location loc, ArrayRef<Value> values,
                  const DenseMap<Value, Value> &destinations);
  void emitPerRow(OpBuilder &b, Location loc, ArrayRef<Value> values) {
    emitPerRow(b, loc, values, DenseMap<Value, Value>());
  }
  /// What a generic over the iteration shape computing `roots` reads (its
  /// leaves, their tensors and maps, the per-row values computed first) and
  /// the body ops it evaluates, in block order.
  struct GenericOperands {
    llvm::SetVector<Value> leaves;
    SmallVector<Value> tensors;
    SmallVector<AffineMap> maps;
    SmallVector<Operation *> ops;
  };
  GenericOperands gatherOperands(OpBuilder &b, Location loc,
                                 ArrayRef<Value> roots);
  /// A generic over the iteration shape computing per-element `values` into
  /// `inits` (or new tensors).
  linalg::GenericOp emitPerElement(OpBuilder &b, Location loc,
                                   ArrayRef<Value> values, ValueRange inits);
  void emitStage(OpBuilder &b, Location loc, unsigned stage);

  RowsOp op;
  Block &body;
  ValueRange inputs;
  SmallVector<int64_t> shape;
  SmallVector<int64_t> axes;
  SmallVector<int64_t> rowShape;
  SmallVector<int64_t> keptShape;
  /// The sizes of the iteration shape's loops and of the kept ones (`?`
  /// sizes read from the tensors), set by `emit`.
  SmallVector<OpFoldResult> loopSizes;
  SmallVector<OpFoldResult> keptSizes;

  DenseSet<Value> perRow;
  DenseMap<Value, unsigned> stages;
  unsigned lastStage = 0;
  /// Per-element values computed once, by the stage that first needs them.
  DenseMap<Value, unsigned> staged;

  /// Tensors of the values computed so far: staged values, per-row values,
  /// and the accumulators of reductions (before their finish).
  DenseMap<Value, Value> stagedTensors;
  DenseMap<Value, Value> perRowTensors;
  DenseMap<Value, Value> accumulators;
};
} // namespace

bool RowsDecomposition::isRowInvariantInput(Value v) const {
  ArrayRef<int64_t> inputShape = getTensorType(v).getShape();
  int64_t offset = getRank() - inputShape.size();
  for (int64_t axis : axes)
    if (axis >= offset && inputShape[axis - offset] != 1)
      return false;
  return true;
}

void RowsDecomposition::classify() {
  for (Operation &bodyOp : body.without_terminator()) {
    Value result = bodyOp.getResult(0);
    if (isa<ReductionOpInterface>(bodyOp)) {
      perRow.insert(result);
      continue;
    }
    bool onRows =
        getTensorType(result).getShape() == ArrayRef<int64_t>(rowShape) &&
        llvm::all_of(bodyOp.getOperands(), [&](Value operand) {
          return isPerRow(operand) ||
                 (isInput(operand) && isRowInvariantInput(operand));
        });
    if (onRows)
      perRow.insert(result);
  }
  for (auto reduction : body.getOps<ReductionOpInterface>())
    lastStage = std::max(lastStage, getStage(reduction->getResult(0)));

  // Stage a per-element value needed by more than one stage (the results
  // being the stage after the last), unless every user that needs it is
  // itself staged.
  DenseMap<Value, SmallVector<unsigned>> neededBy;
  auto need = [&](Value root, unsigned stage) {
    llvm::SetVector<Value> leaves;
    llvm::SetVector<Operation *> ops;
    collect(root, leaves, ops);
    for (Operation *needed : ops) {
      SmallVector<unsigned> &needers = neededBy[needed->getResult(0)];
      if (!llvm::is_contained(needers, stage))
        needers.push_back(stage);
    }
  };
  for (auto reduction : body.getOps<ReductionOpInterface>())
    need(reduction.getReducedInput(), getStage(reduction->getResult(0)));
  for (Value result : op.getYield().getValues())
    if (!isPerRow(result))
      need(result, lastStage + 1);
  for (Operation &bodyOp : llvm::reverse(body.without_terminator())) {
    Value value = bodyOp.getResult(0);
    auto it = neededBy.find(value);
    if (it == neededBy.end() || it->second.size() < 2)
      continue;
    bool readDirectly = llvm::any_of(bodyOp.getUsers(), [&](Operation *user) {
      return user->getNumResults() == 0 || isa<ReductionOpInterface>(user) ||
             isPerRow(user->getResult(0)) ||
             !staged.contains(user->getResult(0));
    });
    if (readDirectly)
      staged[value] = *llvm::min_element(it->second);
  }
}

unsigned RowsDecomposition::getStage(Value v) {
  if (isInput(v))
    return 0;
  auto it = stages.find(v);
  if (it != stages.end())
    return it->second;
  Operation *def = v.getDefiningOp();
  unsigned stage = 0;
  if (auto reduction = dyn_cast<ReductionOpInterface>(def)) {
    stage = getStage(reduction.getReducedInput()) + 1;
  } else {
    for (Value operand : def->getOperands())
      stage = std::max(stage, getStage(operand));
  }
  stages[v] = stage;
  return stage;
}

void RowsDecomposition::collect(Value v, llvm::SetVector<Value> &leaves,
                                llvm::SetVector<Operation *> &ops) const {
  if (isPerRow(v) || isInput(v) || stagedTensors.contains(v)) {
    leaves.insert(v);
    return;
  }
  Operation *def = v.getDefiningOp();
  if (ops.contains(def))
    return;
  for (Value operand : def->getOperands())
    collect(operand, leaves, ops);
  ops.insert(def);
}

Value RowsDecomposition::getLeafTensor(Value v) const {
  if (isInput(v))
    return getInput(v);
  if (Value tensor = stagedTensors.lookup(v))
    return tensor;
  return perRowTensors.lookup(v);
}

AffineMap RowsDecomposition::getLeafMap(Value v) const {
  if (isPerRow(v) && !stagedTensors.contains(v))
    return getAccumulatorMap(body.getParentOp()->getContext(), getRank(), axes);
  return getBroadcastIndexingMap(getTensorType(getLeafTensor(v)), shape);
}

AffineMap RowsDecomposition::getPerRowInputMap(Value input) const {
  MLIRContext *context = body.getParentOp()->getContext();
  ArrayRef<int64_t> inputShape = getTensorType(input).getShape();
  int64_t lead = getRank() - inputShape.size();
  SmallVector<AffineExpr> exprs;
  for (auto [i, size] : llvm::enumerate(inputShape)) {
    int64_t d = lead + i;
    // Loop of dimension d among the kept dimensions.
    int64_t loop =
        d - llvm::count_if(axes, [&](int64_t axis) { return axis < d; });
    bool broadcast =
        llvm::is_contained(axes, d) || (size == 1 && shape[d] != 1);
    exprs.push_back(broadcast ? getAffineConstantExpr(0, context)
                              : getAffineDimExpr(loop, context));
  }
  return AffineMap::get(keptShape.size(), 0, exprs, context);
}

void RowsDecomposition::emitPerRow(OpBuilder &b, Location loc,
                                   ArrayRef<Value> values,
                                   const DenseMap<Value, Value> &destinations) {
  // What the generic reads (inputs, per-row values computed before, the
  // accumulators of finished stages) and the values it computes.
  llvm::SetVector<Value> reads, computed;
  std::function<void(Value)> visit = [&](Value v) {
    if (computed.contains(v) || reads.contains(v))
      return;
    if (isInput(v) || perRowTensors.contains(v)) {
      reads.insert(v);
      return;
    }
    auto reduction = v.getDefiningOp<ReductionOpInterface>();
    if (reduction && accumulators.contains(v))
      reads.insert(v);
    else if (reduction)
      // Rows of one element: the reduced input is a per-row value.
      visit(reduction.getReducedInput());
    else
      for (Value operand : v.getDefiningOp()->getOperands())
        visit(operand);
    computed.insert(v);
  };
  for (Value value : values)
    visit(value);
  // Only the requested values get tensors: an intermediate a later generic
  // needs is a few scalar ops to recompute, cheaper than a tensor per row.
  // Inputs returned as they are still need a result of their own.
  SmallVector<Value> yielded;
  for (Value value : values)
    if (!perRowTensors.contains(value) && !llvm::is_contained(yielded, value))
      yielded.push_back(value);
  if (yielded.empty())
    return;

  int64_t keptRank = keptShape.size();
  SmallVector<Value> tensors;
  SmallVector<AffineMap> maps;
  for (Value read : reads) {
    if (Value acc = accumulators.lookup(read);
        acc && !perRowTensors.contains(read)) {
      tensors.push_back(acc);
      maps.push_back(b.getMultiDimIdentityMap(keptRank));
      continue;
    }
    if (isInput(read)) {
      tensors.push_back(getInput(read));
      maps.push_back(getPerRowInputMap(getInput(read)));
      continue;
    }
    tensors.push_back(perRowTensors.lookup(read));
    maps.push_back(b.getMultiDimIdentityMap(keptRank));
  }
  SmallVector<Value> outs;
  for (Value value : yielded) {
    Value destination = destinations.lookup(value);
    outs.push_back(destination ? destination
                               : createEmptyTensor(b, loc, keptSizes,
                                                   getElementType(value)));
    maps.push_back(b.getMultiDimIdentityMap(keptRank));
  }
  SmallVector<Value> sortedComputed(computed.begin(), computed.end());
  llvm::sort(sortedComputed, [](Value x, Value y) {
    return x.getDefiningOp()->isBeforeInBlock(y.getDefiningOp());
  });
  OpFoldResult count = getReducedCount(b, loc, loopSizes, axes);
  auto generic = linalg::GenericOp::create(
      b, loc, ValueRange(outs).getTypes(), tensors, outs, maps,
      SmallVector<utils::IteratorType>(keptRank, utils::IteratorType::parallel),
      [&](OpBuilder &nested, Location bodyLoc, ValueRange args) {
        ScalarBuilder scalar(nested, bodyLoc);
        IRMapping scalars;
        DenseMap<Value, Value> totals;
        for (auto [read, element] : llvm::zip(reads, args)) {
          if (accumulators.contains(read) && !perRowTensors.contains(read))
            totals[read] = element;
          else
            bindElement(scalar, scalars, read, element);
        }
        for (Value value : sortedComputed) {
          auto reduction = value.getDefiningOp<ReductionOpInterface>();
          if (!reduction) {
            emitScalarOp(scalar, value.getDefiningOp(), scalars);
            continue;
          }
          Value total = totals.lookup(value);
          if (!total) {
            Type accType = ScalarBuilder::computeType(
                getElementType(reduction.getReducedInput()));
            total = reduction.buildCombine(
                scalar, reduction.buildIdentity(scalar, accType),
                scalar.convert(scalars.lookup(reduction.getReducedInput()),
                               accType));
          }
          scalars.map(value,
                      roundTo(scalar,
                              reduction.buildFinish(scalar, total, count),
                              getElementType(value)));
        }
        SmallVector<Value> results;
        for (Value value : yielded)
          results.push_back(
              scalar.convert(scalars.lookup(value), getElementType(value)));
        linalg::YieldOp::create(nested, bodyLoc, results);
      });
  for (auto [value, result] : llvm::zip(yielded, generic.getResults()))
    perRowTensors[value] = result;
}

RowsDecomposition::GenericOperands
RowsDecomposition::gatherOperands(OpBuilder &b, Location loc,
                                  ArrayRef<Value> roots) {
  GenericOperands operands;
  llvm::SetVector<Operation *> ops;
  for (Value root : roots)
    collect(root, operands.leaves, ops);
  emitPerRow(b, loc, llvm::filter_to_vector(operands.leaves, [&](Value leaf) {
               return isPerRow(leaf);
             }));
  for (Value leaf : operands.leaves) {
    operands.tensors.push_back(getLeafTensor(leaf));
    operands.maps.push_back(getLeafMap(leaf));
  }
  operands.ops.assign(ops.begin(), ops.end());
  llvm::sort(operands.ops,
             [](Operation *x, Operation *y) { return x->isBeforeInBlock(y); });
  return operands;
}

linalg::GenericOp RowsDecomposition::emitPerElement(OpBuilder &b, Location loc,
                                                    ArrayRef<Value> values,
                                                    ValueRange inits) {
  GenericOperands operands = gatherOperands(b, loc, values);
  return emitElementwiseGeneric(b, loc, shape, operands.leaves.getArrayRef(),
                                operands.tensors, operands.maps, operands.ops,
                                values, inits);
}

void RowsDecomposition::emitStage(OpBuilder &b, Location loc, unsigned stage) {
  // The values this stage stages, then its reductions, which read them.
  SmallVector<Value> buffered;
  for (Operation &bodyOp : body.without_terminator()) {
    auto it = staged.find(bodyOp.getResult(0));
    if (it != staged.end() && it->second == stage)
      buffered.push_back(bodyOp.getResult(0));
  }
  if (!buffered.empty()) {
    linalg::GenericOp generic = emitPerElement(b, loc, buffered, {});
    for (auto [value, tensor] : llvm::zip(buffered, generic.getResults()))
      stagedTensors[value] = tensor;
  }

  // Reductions of per-row values (rows of one element) are computed with
  // the per-row values that read them.
  SmallVector<ReductionOpInterface> reductions;
  for (auto reduction : body.getOps<ReductionOpInterface>())
    if (stages.lookup(reduction->getResult(0)) == stage &&
        !isPerRow(reduction.getReducedInput()))
      reductions.push_back(reduction);
  if (reductions.empty())
    return;
  GenericOperands operands = gatherOperands(
      b, loc, llvm::map_to_vector(reductions, [](ReductionOpInterface r) {
        return r.getReducedInput();
      }));
  linalg::GenericOp generic = emitReductionGeneric(
      b, loc, shape, axes, operands.leaves.getArrayRef(), operands.tensors,
      operands.maps, operands.ops, reductions);
  for (auto [reduction, acc] : llvm::zip(reductions, generic.getResults()))
    accumulators[reduction->getResult(0)] = acc;
}

SmallVector<Value> RowsDecomposition::emit(OpBuilder &b) {
  Location loc = op.getLoc();
  SmallVector<Value> tensors(op.getInputs());
  llvm::append_range(tensors, op.getOuts());
  loopSizes = getLoopSizes(
      b, loc, shape, tensors, llvm::map_to_vector(tensors, [&](Value tensor) {
        return getBroadcastIndexingMap(getTensorType(tensor), shape);
      }));
  for (auto [d, size] : llvm::enumerate(loopSizes))
    if (!llvm::is_contained(axes, static_cast<int64_t>(d)))
      keptSizes.push_back(size);
  for (unsigned stage = 1; stage <= lastStage; ++stage)
    emitStage(b, loc, stage);

  // Per-element results are written into their destinations by one
  // generic; per-row results are the per-row generics' tensors.
  ValueRange yielded = op.getYield().getValues();
  auto isRowResult = [&](Value value) {
    return isPerRow(value) ||
           (rowShape != shape &&
            getTensorType(value).getShape() == ArrayRef<int64_t>(rowShape));
  };
  // A per-row result is computed into its destination with the row axes
  // collapsed away, so that it is written in place.
  SmallVector<Value> rowResults, elementResults, elementInits;
  DenseMap<Value, Value> rowDestinations;
  for (auto [value, init] : llvm::zip(yielded, op.getOuts())) {
    if (isRowResult(value)) {
      rowResults.push_back(value);
      if (!rowDestinations.contains(value))
        rowDestinations[value] = tensor::CollapseShapeOp::create(
            b, loc, init, getKeepDimReassociation(getRank(), axes));
      continue;
    }
    elementResults.push_back(value);
    elementInits.push_back(init);
  }
  emitPerRow(b, loc, rowResults, rowDestinations);
  linalg::GenericOp elements;
  if (!elementResults.empty())
    elements = emitPerElement(b, loc, elementResults, elementInits);

  // Per-row results keep the row axes, as size-1 dimensions.
  SmallVector<Value> results;
  unsigned nextElement = 0;
  for (Value value : yielded) {
    if (!isRowResult(value)) {
      results.push_back(elements.getResult(nextElement++));
      continue;
    }
    SmallVector<OpFoldResult> rowSizes(loopSizes);
    for (int64_t axis : axes)
      rowSizes[axis] = b.getIndexAttr(1);
    results.push_back(tensor::ExpandShapeOp::create(
        b, loc, getTensorType(value).clone(rowShape),
        perRowTensors.lookup(value), getKeepDimReassociation(getRank(), axes),
        rowSizes));
  }
  return results;
}

FailureOr<SmallVector<Value>> RowsOp::decomposeOperation(OpBuilder &b) {
  return RowsDecomposition(*this).emit(b);
}
