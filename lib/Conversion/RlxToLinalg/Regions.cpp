//===- Regions.cpp - rlx.region to one loop nest --------------------------===//
//
// Each region kind becomes one loop nest in which no intermediate tensor of
// the iteration shape exists. Body ops contribute their scalar semantics
// (ScalarComputeOpInterface, ReductionOpInterface), and every body value is
// rounded to its element type as the unfused op would store it, which keeps
// fused and unfused results identical.
//
//   elementwise  one linalg.generic
//   reduction    one linalg.generic with reduction loops
//   row          an scf.forall over rows; per row, one reduction generic per
//                stage of dependent reductions, then one generic writing the
//                row's results
//   contraction  the contraction, then one epilogue generic that
//                --rlx-fuse-epilogues applies per result tile
//
//===----------------------------------------------------------------------===//
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "rlx/Conversion/RlxToLinalg/RlxToLinalg.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::rlx;

static RankedTensorType getTensorType(Value value) {
  return cast<RankedTensorType>(value.getType());
}

static Type getElementType(Value value) {
  return getTensorType(value).getElementType();
}

/// `value` (in a computation type) rounded to `storage` and back, as an
/// unfused op stores and its consumer reloads it.
static Value roundTo(ScalarBuilder &b, Value value, Type storage) {
  return b.convert(b.convert(value, storage),
                   ScalarBuilder::computeType(storage));
}

/// Emits the scalar computation of elementwise `op` from the scalars of its
/// operands in `scalars` and maps its result to the rounded scalar.
static void emitScalarOp(ScalarBuilder &b, Operation *op, IRMapping &scalars) {
  SmallVector<Value> operands = llvm::to_vector(llvm::map_range(
      op->getOperands(), [&](Value v) { return scalars.lookup(v); }));
  Value result = cast<ScalarComputeOpInterface>(op).buildScalar(b, operands);
  scalars.map(op->getResult(0),
              roundTo(b, result, getElementType(op->getResult(0))));
}

/// Maps body value `value` to `element` (a stored element) in its
/// computation type.
static void bindElement(ScalarBuilder &b, IRMapping &scalars, Value value,
                        Value element) {
  scalars.map(value, b.convert(element, ScalarBuilder::computeType(
                                            element.getType())));
}

/// A parallel generic over `shape` that reads the body values `leaves` from
/// `tensors` (broadcast numpy-style), evaluates every elementwise body op in
/// `ops` (in order) and yields `results` in their element types, into
/// `inits` when given. `captured` maps body values computed outside the
/// generic to scalars.
static linalg::GenericOp
emitElementwiseGeneric(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                       ArrayRef<Value> leaves, ArrayRef<Value> tensors,
                       ArrayRef<Operation *> ops, ArrayRef<Value> results,
                       ValueRange inits = {},
                       const IRMapping *captured = nullptr) {
  int64_t rank = shape.size();
  SmallVector<AffineMap> maps;
  for (Value tensor : tensors)
    maps.push_back(getBroadcastIndexingMap(getTensorType(tensor), shape));
  SmallVector<Value> outs(inits);
  SmallVector<Type> resultTypes;
  for (auto [i, result] : llvm::enumerate(results)) {
    auto type = RankedTensorType::get(shape, getElementType(result));
    if (inits.empty())
      outs.push_back(createEmptyTensor(b, loc, type));
    resultTypes.push_back(outs[i].getType());
    maps.push_back(b.getMultiDimIdentityMap(rank));
  }
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
      b, loc, resultTypes, tensors, outs, maps, iterators,
      [&](OpBuilder &nested, Location bodyLoc, ValueRange args) {
        ScalarBuilder scalar(nested, bodyLoc);
        IRMapping scalars;
        if (captured)
          scalars = *captured;
        for (auto [leaf, element] : llvm::zip(leaves, args))
          bindElement(scalar, scalars, leaf, element);
        for (Operation *op : ops)
          emitScalarOp(scalar, op, scalars);
        SmallVector<Value> yielded;
        for (Value result : results)
          yielded.push_back(
              scalar.convert(scalars.lookup(result), getElementType(result)));
        linalg::YieldOp::create(nested, bodyLoc, yielded);
      });
}

/// The ops of `region`'s body in order, without the terminator.
static SmallVector<Operation *> getBodyOps(RegionOp region) {
  return llvm::to_vector(llvm::map_range(
      region.getBody().front().without_terminator(),
      [](Operation &op) { return &op; }));
}

namespace {
//===----------------------------------------------------------------------===//
// elementwise, contraction
//===----------------------------------------------------------------------===//

struct ElementwiseRegionToGeneric : OpConversionPattern<RegionOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(RegionOp region, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FusionKind kind = region.getKind();
    if (kind != FusionKind::Elementwise && kind != FusionKind::Contraction)
      return failure();
    Location loc = region.getLoc();
    Block &body = region.getBody().front();
    IRMapping tensors;
    tensors.map(body.getArguments(), adaptor.getInputs());
    // Values the contraction reads, and the ops computing them.
    llvm::SetVector<Operation *> prologue;
    Operation *contraction = nullptr;
    SmallVector<Operation *> bodyOps = getBodyOps(region);
    for (Operation *op : llvm::reverse(bodyOps))
      if (isa<ContractionOpInterface>(op) ||
          (contraction && llvm::any_of(op->getUsers(), [&](Operation *user) {
             return user == contraction || prologue.contains(user);
           }))) {
        if (isa<ContractionOpInterface>(op))
          contraction = op;
        else
          prologue.insert(op);
      }
    if (contraction) {
      // Each computed operand is one generic over its shape (materialized
      // once: a right-hand side is read by every row block); the
      // contraction is then lowered by its own pattern.
      for (Value operand : contraction->getOperands()) {
        if (!operand.getDefiningOp())
          continue;
        // The ops `operand` depends on, in body order.
        SmallVector<Operation *> ops;
        llvm::SetVector<Value> leaves;
        llvm::SetVector<Operation *> chain;
        SmallVector<Value> worklist = {operand};
        while (!worklist.empty()) {
          Value value = worklist.pop_back_val();
          Operation *op = value.getDefiningOp();
          if (!op) {
            leaves.insert(value);
            continue;
          }
          if (chain.insert(op))
            llvm::append_range(worklist, op->getOperands());
        }
        ops.assign(chain.begin(), chain.end());
        llvm::sort(ops, [](Operation *a, Operation *b) {
          return a->isBeforeInBlock(b);
        });
        SmallVector<Value> leafTensors = llvm::to_vector(llvm::map_range(
            leaves, [&](Value leaf) { return tensors.lookup(leaf); }));
        linalg::GenericOp generic = emitElementwiseGeneric(
            rewriter, loc, getTensorType(operand).getShape(),
            leaves.getArrayRef(), leafTensors, ops, {operand});
        tensors.map(operand, generic.getResult(0));
      }
      tensors.map(contraction->getResult(0),
                  rewriter.clone(*contraction, tensors)->getResult(0));
    }
    // The epilogue reads the contraction's result and the inputs the
    // prologue does not consume.
    SmallVector<Value> leaves, leafTensors;
    SmallVector<Operation *> ops;
    for (BlockArgument arg : body.getArguments())
      if (llvm::any_of(arg.getUsers(), [&](Operation *user) {
            return user != contraction && !prologue.contains(user);
          })) {
        leaves.push_back(arg);
        leafTensors.push_back(tensors.lookup(arg));
      }
    if (contraction) {
      leaves.push_back(contraction->getResult(0));
      leafTensors.push_back(tensors.lookup(contraction->getResult(0)));
    }
    for (Operation *op : getBodyOps(region))
      if (op != contraction && !prologue.contains(op))
        ops.push_back(op);
    SmallVector<Value> results(region.getYield().getValues());
    linalg::GenericOp generic =
        emitElementwiseGeneric(rewriter, loc, region.getIterationShape(),
                               leaves, leafTensors, ops, results);
    rewriter.replaceOp(region, generic.getResults());
    return success();
  }
};

//===----------------------------------------------------------------------===//
// reduction
//===----------------------------------------------------------------------===//

/// The tensor a reduction's accumulator has after reducing `axes` of
/// `shape` away, in `type`.
static RankedTensorType getAccumulatorType(ArrayRef<int64_t> shape,
                                           ArrayRef<int64_t> axes, Type type) {
  SmallVector<int64_t> kept;
  for (auto [d, size] : llvm::enumerate(shape))
    if (!llvm::is_contained(axes, static_cast<int64_t>(d)))
      kept.push_back(size);
  return RankedTensorType::get(kept, type);
}

/// The map from a loop nest over a `rank`-d shape to the accumulator of a
/// reduction over `axes`.
static AffineMap getAccumulatorMap(MLIRContext *context, int64_t rank,
                                   ArrayRef<int64_t> axes) {
  SmallVector<AffineExpr> kept;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(axes, d))
      kept.push_back(getAffineDimExpr(d, context));
  return AffineMap::get(rank, 0, kept, context);
}

/// The number of elements each reduction of `axes` of `shape` combines.
static int64_t getReducedCount(ArrayRef<int64_t> shape,
                               ArrayRef<int64_t> axes) {
  int64_t count = 1;
  for (int64_t axis : axes)
    count *= shape[axis];
  return count;
}

/// A tensor of `type` filled with `reduction`'s identity.
static Value createIdentityTensor(OpBuilder &b, Location loc,
                                  ReductionOpInterface reduction,
                                  RankedTensorType type) {
  ScalarBuilder scalar(b, loc);
  return createFilledTensor(
      b, loc, type, reduction.buildIdentity(scalar, type.getElementType()));
}

/// A generic over `shape` reducing `axes`: reads the body values `leaves`
/// from `tensors` (broadcast), evaluates the elementwise `ops` in order and
/// folds each of `reductions`' inputs into its accumulator (the identity,
/// in the computation type, with the reduced axes dropped). `captured` maps
/// body values computed outside the generic to scalars.
static linalg::GenericOp
emitReductionGeneric(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                     ArrayRef<int64_t> axes, ArrayRef<Value> leaves,
                     ValueRange tensors, ArrayRef<Operation *> ops,
                     ArrayRef<ReductionOpInterface> reductions,
                     const IRMapping *captured = nullptr) {
  int64_t rank = shape.size();
  SmallVector<AffineMap> maps;
  for (Value tensor : tensors)
    maps.push_back(getBroadcastIndexingMap(getTensorType(tensor), shape));
  SmallVector<Value> inits;
  AffineMap accMap = getAccumulatorMap(b.getContext(), rank, axes);
  for (ReductionOpInterface reduction : reductions) {
    Type accType = ScalarBuilder::computeType(
        getElementType(reduction.getReducedInput()));
    inits.push_back(createIdentityTensor(
        b, loc, reduction, getAccumulatorType(shape, axes, accType)));
    maps.push_back(accMap);
  }
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  for (int64_t axis : axes)
    iterators[axis] = utils::IteratorType::reduction;
  return linalg::GenericOp::create(
      b, loc, ValueRange(inits).getTypes(), tensors, inits, maps, iterators,
      [&](OpBuilder &nested, Location bodyLoc, ValueRange args) {
        ScalarBuilder scalar(nested, bodyLoc);
        IRMapping scalars;
        if (captured)
          scalars = *captured;
        for (auto [leaf, element] : llvm::zip(leaves, args))
          bindElement(scalar, scalars, leaf, element);
        for (Operation *op : ops)
          emitScalarOp(scalar, op, scalars);
        SmallVector<Value> combined;
        for (auto [i, acc] : llvm::enumerate(args.drop_front(leaves.size()))) {
          ReductionOpInterface reduction = reductions[i];
          combined.push_back(reduction.buildCombine(
              scalar, acc, scalars.lookup(reduction.getReducedInput())));
        }
        linalg::YieldOp::create(nested, bodyLoc, combined);
      });
}

/// `accumulator` finished (the mean's division) and stored in the element
/// type of `reduction`'s result, with its reduced axes kept when it keeps
/// them.
static Value finishReduction(OpBuilder &b, Location loc,
                             ReductionOpInterface reduction, Value accumulator,
                             int64_t count) {
  auto resultType = getTensorType(reduction->getResult(0));
  auto accType = getTensorType(accumulator);
  Value finished = mapElements(
      b, loc, accumulator, accType.clone(resultType.getElementType()),
      [&](OpBuilder &nested, Location bodyLoc, Value acc) {
        ScalarBuilder scalar(nested, bodyLoc);
        return scalar.convert(reduction.buildFinish(scalar, acc, count),
                              resultType.getElementType());
      });
  // A finish that changes nothing is an identity generic, which the
  // canonicalizer erases.
  if (resultType.getRank() == accType.getRank())
    return finished;
  return tensor::ExpandShapeOp::create(
      b, loc, resultType, finished,
      getKeepDimReassociation(resultType.getRank(),
                              reduction.getReducedAxes()));
}

struct ReductionRegionToGeneric : OpConversionPattern<RegionOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(RegionOp region, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (region.getKind() != FusionKind::Reduction)
      return failure();
    Location loc = region.getLoc();
    SmallVector<int64_t> shape = region.getIterationShape();
    SmallVector<int64_t> axes = region.getReducedAxes();
    Block &body = region.getBody().front();
    SmallVector<ReductionOpInterface> reductions =
        llvm::to_vector(body.getOps<ReductionOpInterface>());
    // Reductions are not read inside the region: the elementwise work can
    // all come first.
    SmallVector<Operation *> ops;
    for (Operation *op : getBodyOps(region))
      if (!isa<ReductionOpInterface>(op))
        ops.push_back(op);
    SmallVector<Value> leaves(body.getArguments().begin(),
                              body.getArguments().end());
    linalg::GenericOp generic =
        emitReductionGeneric(rewriter, loc, shape, axes, leaves,
                             adaptor.getInputs(), ops, reductions);

    int64_t count = getReducedCount(shape, axes);
    IRMapping results;
    for (auto [reduction, acc] : llvm::zip(reductions, generic.getResults()))
      results.map(reduction->getResult(0),
                  finishReduction(rewriter, loc, reduction, acc, count));
    rewriter.replaceOp(region,
                       llvm::to_vector(llvm::map_range(
                           region.getYield().getValues(),
                           [&](Value v) { return results.lookup(v); })));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// row
//===----------------------------------------------------------------------===//

/// Plans and emits the lowering of one row region. Body values are either
/// per-row (reductions and elementwise ops on per-row values: one scalar
/// per row, computed at row level) or per-element (computed inside the
/// generics over the row). Reductions fall into stages: a reduction whose
/// input needs a stage-k value runs in stage k + 1. A per-element value that
/// several stages (or a stage and the results) need is computed once, into
/// a row buffer, when it is first needed; everything else is recomputed
/// where it is needed, which for elementwise chains is cheaper than a store
/// and a load.
class RowRegionLowering {
public:
  RowRegionLowering(RegionOp region, ValueRange inputs)
      : region(region), body(region.getBody().front()),
        inputs(inputs.begin(), inputs.end()),
        shape(region.getIterationShape()), axes(region.getReducedAxes()) {
    classify();
  }

  SmallVector<Value> emit(ConversionPatternRewriter &rewriter);

private:
  int64_t getRank() const { return shape.size(); }
  bool isRowAxis(int64_t d) const { return llvm::is_contained(axes, d); }
  bool isInput(Value v) const { return isa<BlockArgument>(v); }
  bool isPerRow(Value v) const { return perRow.contains(v); }
  /// Whether input `v` has size 1 along every row axis, so it is one value
  /// per row.
  bool isRowInvariantInput(Value v) const;

  void classify();
  /// The stage of the reductions `v` needs the results of (0: none).
  unsigned getStage(Value v);
  /// Adds to `leaves` the inputs and staged values, and to `rowValues` the
  /// per-row values, that computing per-element `v` reads; to `ops` the
  /// per-element ops it evaluates (in body order after sorting).
  void collect(Value v, llvm::SetVector<Value> &leaves,
               llvm::SetVector<Value> &rowValues,
               llvm::SetVector<Operation *> &ops) const;

  /// Per-row scalar of `v` at the current row (emitted on first use).
  Value getRowScalar(OpBuilder &b, Location loc, Value v);
  /// `input`'s part for the current row, with size 1 along kept axes.
  Value getRowSlice(OpBuilder &b, Location loc, Value input);
  /// A generic over the row computing per-element `values` into `inits`
  /// (or new row buffers).
  linalg::GenericOp emitRowGeneric(OpBuilder &b, Location loc,
                                   ArrayRef<Value> values, ValueRange inits);
  void emitStage(OpBuilder &b, Location loc, unsigned stage);
  /// Emits one row at the loop induction variables `ivs` (one per kept
  /// axis); returns the row slices of the per-element results and the
  /// scalars of the per-row results, in result order.
  SmallVector<Value> emitRow(OpBuilder &b, Location loc, ValueRange ivs,
                             ValueRange outs);

  RegionOp region;
  Block &body;
  SmallVector<Value> inputs;
  SmallVector<int64_t> shape;
  SmallVector<int64_t> axes;

  DenseSet<Value> perRow;
  DenseMap<Value, unsigned> stages;
  unsigned lastStage = 0;
  /// Per-element values kept in row buffers, by the stage that fills them.
  DenseMap<Value, unsigned> staged;

  // Per-row emission state.
  SmallVector<Value> rowIvs;
  IRMapping rowScalars;
  DenseMap<Value, Value> rowBuffers;
};
} // namespace

bool RowRegionLowering::isRowInvariantInput(Value v) const {
  ArrayRef<int64_t> inputShape = getTensorType(v).getShape();
  int64_t offset = getRank() - inputShape.size();
  for (int64_t axis : axes)
    if (axis >= offset && inputShape[axis - offset] != 1)
      return false;
  return true;
}

void RowRegionLowering::classify() {
  for (Operation &op : body.without_terminator()) {
    Value result = op.getResult(0);
    if (isa<ReductionOpInterface>(op)) {
      perRow.insert(result);
      continue;
    }
    SmallVector<int64_t> rowShape(shape);
    for (int64_t axis : axes)
      rowShape[axis] = 1;
    bool onRows =
        getTensorType(result).getShape() == ArrayRef<int64_t>(rowShape) &&
        llvm::all_of(op.getOperands(), [&](Value operand) {
          return isPerRow(operand) ||
                 (isInput(operand) && isRowInvariantInput(operand));
        });
    if (onRows)
      perRow.insert(result);
  }
  for (Operation &op : body.without_terminator())
    if (auto reduction = dyn_cast<ReductionOpInterface>(op))
      lastStage = std::max(lastStage, getStage(op.getResult(0)));

  // Stage a per-element value needed by more than one stage (the results
  // being the stage after the last), unless every user that needs it is
  // itself staged.
  DenseMap<Value, SmallVector<unsigned>> neededBy;
  auto need = [&](Value root, unsigned stage) {
    llvm::SetVector<Value> leaves, rowValues;
    llvm::SetVector<Operation *> ops;
    collect(root, leaves, rowValues, ops);
    for (Operation *op : ops) {
      SmallVector<unsigned> &needers = neededBy[op->getResult(0)];
      if (!llvm::is_contained(needers, stage))
        needers.push_back(stage);
    }
  };
  for (Operation &op : body.without_terminator())
    if (auto reduction = dyn_cast<ReductionOpInterface>(op))
      need(reduction.getReducedInput(), getStage(op.getResult(0)));
  for (Value result : region.getYield().getValues())
    if (!isPerRow(result))
      need(result, lastStage + 1);
  for (Operation &op : llvm::reverse(body.without_terminator())) {
    Value value = op.getResult(0);
    auto it = neededBy.find(value);
    if (it == neededBy.end() || it->second.size() < 2)
      continue;
    bool readDirectly = llvm::any_of(op.getUsers(), [&](Operation *user) {
      return user->getNumResults() == 0 ||
             isa<ReductionOpInterface>(user) || isPerRow(user->getResult(0)) ||
             !staged.contains(user->getResult(0));
    });
    if (readDirectly)
      staged[value] = *llvm::min_element(it->second);
  }
}

unsigned RowRegionLowering::getStage(Value v) {
  if (isInput(v))
    return 0;
  auto it = stages.find(v);
  if (it != stages.end())
    return it->second;
  Operation *op = v.getDefiningOp();
  unsigned stage = 0;
  if (auto reduction = dyn_cast<ReductionOpInterface>(op)) {
    stage = getStage(reduction.getReducedInput()) + 1;
  } else {
    for (Value operand : op->getOperands())
      stage = std::max(stage, getStage(operand));
  }
  stages[v] = stage;
  return stage;
}

void RowRegionLowering::collect(Value v, llvm::SetVector<Value> &leaves,
                                llvm::SetVector<Value> &rowValues,
                                llvm::SetVector<Operation *> &ops) const {
  if (isPerRow(v)) {
    rowValues.insert(v);
    return;
  }
  if (isInput(v) || rowBuffers.contains(v)) {
    leaves.insert(v);
    return;
  }
  Operation *op = v.getDefiningOp();
  if (ops.contains(op))
    return;
  for (Value operand : op->getOperands())
    collect(operand, leaves, rowValues, ops);
  ops.insert(op);
}

Value RowRegionLowering::getRowScalar(OpBuilder &b, Location loc, Value v) {
  if (Value scalar = rowScalars.lookupOrNull(v))
    return scalar;
  ScalarBuilder scalar(b, loc);
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    // One element per row: index the kept axes, 0 along broadcast ones.
    Value input = inputs[arg.getArgNumber()];
    ArrayRef<int64_t> inputShape = getTensorType(input).getShape();
    int64_t offset = getRank() - inputShape.size();
    SmallVector<Value> indices;
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    for (auto [i, size] : llvm::enumerate(inputShape)) {
      int64_t d = i + offset;
      indices.push_back(size == 1 || isRowAxis(d) ? zero : rowIvs[d]);
    }
    bindElement(scalar, rowScalars, v,
                tensor::ExtractOp::create(b, loc, input, indices));
  } else {
    Operation *op = v.getDefiningOp();
    for (Value operand : op->getOperands())
      getRowScalar(b, loc, operand);
    emitScalarOp(scalar, op, rowScalars);
  }
  return rowScalars.lookup(v);
}

Value RowRegionLowering::getRowSlice(OpBuilder &b, Location loc,
                                     Value input) {
  auto type = getTensorType(input);
  int64_t offset = getRank() - type.getRank();
  SmallVector<OpFoldResult> offsets, sizes, strides;
  for (auto [i, size] : llvm::enumerate(type.getShape())) {
    int64_t d = i + offset;
    bool wholeAxis = isRowAxis(d) || size == 1;
    offsets.push_back(wholeAxis ? OpFoldResult(b.getIndexAttr(0))
                                : OpFoldResult(rowIvs[d]));
    sizes.push_back(b.getIndexAttr(wholeAxis ? size : 1));
    strides.push_back(b.getIndexAttr(1));
  }
  return tensor::ExtractSliceOp::create(b, loc, input, offsets, sizes,
                                        strides);
}

/// The iteration shape of one row: the region's, with size 1 along the kept
/// axes.
static SmallVector<int64_t> getRowIterationShape(ArrayRef<int64_t> shape,
                                                 ArrayRef<int64_t> axes) {
  SmallVector<int64_t> rowShape(shape.size(), 1);
  for (int64_t axis : axes)
    rowShape[axis] = shape[axis];
  return rowShape;
}

linalg::GenericOp RowRegionLowering::emitRowGeneric(OpBuilder &b,
                                                    Location loc,
                                                    ArrayRef<Value> values,
                                                    ValueRange inits) {
  llvm::SetVector<Value> leaves, rowValues;
  llvm::SetVector<Operation *> ops;
  for (Value value : values)
    collect(value, leaves, rowValues, ops);
  IRMapping captured;
  for (Value value : rowValues)
    captured.map(value, getRowScalar(b, loc, value));
  SmallVector<Value> tensors;
  for (Value leaf : leaves)
    tensors.push_back(isInput(leaf)
                          ? getRowSlice(b, loc,
                                        inputs[cast<BlockArgument>(leaf)
                                                   .getArgNumber()])
                          : rowBuffers.lookup(leaf));
  SmallVector<Operation *> sorted(ops.begin(), ops.end());
  llvm::sort(sorted,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return emitElementwiseGeneric(b, loc, getRowIterationShape(shape, axes),
                                leaves.getArrayRef(), tensors, sorted, values,
                                inits, &captured);
}

void RowRegionLowering::emitStage(OpBuilder &b, Location loc,
                                  unsigned stage) {
  // Row buffers this stage fills, then its reductions, which read them.
  SmallVector<Value> buffered;
  for (Operation &op : body.without_terminator())
    if (staged.lookup(op.getResult(0)) == stage &&
        staged.contains(op.getResult(0)))
      buffered.push_back(op.getResult(0));
  if (!buffered.empty()) {
    linalg::GenericOp generic = emitRowGeneric(b, loc, buffered, {});
    for (auto [value, buffer] : llvm::zip(buffered, generic.getResults()))
      rowBuffers[value] = buffer;
  }

  SmallVector<ReductionOpInterface> reductions;
  for (ReductionOpInterface reduction : body.getOps<ReductionOpInterface>())
    if (stages.lookup(reduction->getResult(0)) == stage)
      reductions.push_back(reduction);
  if (reductions.empty())
    return;

  int64_t rank = getRank();
  SmallVector<int64_t> rowShape = getRowIterationShape(shape, axes);
  llvm::SetVector<Value> leaves, rowValues;
  llvm::SetVector<Operation *> ops;
  for (ReductionOpInterface reduction : reductions)
    collect(reduction.getReducedInput(), leaves, rowValues, ops);
  IRMapping captured;
  for (Value value : rowValues)
    captured.map(value, getRowScalar(b, loc, value));
  int64_t count = getReducedCount(shape, axes);
  ScalarBuilder rowScalar(b, loc);
  // Reading no element per iteration means the row axes all have size 1
  // and every value is already one per row: a one-element reduction.
  if (leaves.empty()) {
    for (ReductionOpInterface reduction : reductions) {
      Value input = reduction.getReducedInput();
      Type accType =
          ScalarBuilder::computeType(getElementType(input));
      Value total = reduction.buildCombine(
          rowScalar, reduction.buildIdentity(rowScalar, accType),
          rowScalar.convert(getRowScalar(b, loc, input), accType));
      rowScalars.map(reduction->getResult(0),
                     roundTo(rowScalar,
                             reduction.buildFinish(rowScalar, total, count),
                             getElementType(reduction->getResult(0))));
    }
    return;
  }
  SmallVector<Value> tensors;
  for (Value leaf : leaves)
    tensors.push_back(
        isInput(leaf)
            ? getRowSlice(b, loc,
                          inputs[cast<BlockArgument>(leaf).getArgNumber()])
            : rowBuffers.lookup(leaf));
  SmallVector<Operation *> sorted(ops.begin(), ops.end());
  llvm::sort(sorted,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  linalg::GenericOp generic =
      emitReductionGeneric(b, loc, rowShape, axes, leaves.getArrayRef(),
                           tensors, sorted, reductions, &captured);

  int64_t keptRank = rank - axes.size();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  for (auto [reduction, acc] : llvm::zip(reductions, generic.getResults())) {
    Value total = tensor::ExtractOp::create(
        b, loc, acc, SmallVector<Value>(keptRank, zero));
    Value finished = reduction.buildFinish(rowScalar, total, count);
    rowScalars.map(reduction->getResult(0),
                   roundTo(rowScalar, finished,
                           getElementType(reduction->getResult(0))));
  }
}

SmallVector<Value> RowRegionLowering::emitRow(OpBuilder &b, Location loc,
                                              ValueRange ivs,
                                              ValueRange outs) {
  // Induction variables by axis; row axes have none.
  rowIvs.assign(getRank(), Value());
  unsigned next = 0;
  for (int64_t d = 0; d < getRank(); ++d)
    if (!isRowAxis(d))
      rowIvs[d] = ivs[next++];
  rowScalars.clear();
  rowBuffers.clear();

  for (unsigned stage = 1; stage <= lastStage; ++stage)
    emitStage(b, loc, stage);

  SmallVector<Value> results(region.getNumResults());
  SmallVector<Value> elementResults, inits;
  SmallVector<unsigned> elementIndices;
  for (auto [i, value] : llvm::enumerate(region.getYield().getValues())) {
    if (isPerRow(value)) {
      ScalarBuilder scalar(b, loc);
      results[i] = scalar.convert(getRowScalar(b, loc, value),
                                  getElementType(value));
      continue;
    }
    elementResults.push_back(value);
    elementIndices.push_back(i);
    inits.push_back(getRowSlice(b, loc, outs[i]));
  }
  if (!elementResults.empty()) {
    linalg::GenericOp generic = emitRowGeneric(b, loc, elementResults, inits);
    for (auto [i, result] : llvm::zip(elementIndices, generic.getResults()))
      results[i] = result;
  }
  return results;
}

SmallVector<Value>
RowRegionLowering::emit(ConversionPatternRewriter &rewriter) {
  Location loc = region.getLoc();
  SmallVector<Value> outs;
  for (Type type : region.getResultTypes())
    outs.push_back(
        createEmptyTensor(rewriter, loc, cast<RankedTensorType>(type)));
  SmallVector<OpFoldResult> rowCounts;
  for (int64_t d = 0; d < getRank(); ++d)
    if (!isRowAxis(d))
      rowCounts.push_back(rewriter.getIndexAttr(shape[d]));

  // A single row needs no loop.
  if (rowCounts.empty()) {
    SmallVector<Value> row = emitRow(rewriter, loc, {}, outs);
    for (auto [i, value] : llvm::enumerate(row))
      if (!isa<RankedTensorType>(value.getType()))
        row[i] = tensor::FromElementsOp::create(
            rewriter, loc, cast<RankedTensorType>(outs[i].getType()), value);
    return row;
  }

  auto forall = scf::ForallOp::create(
      rewriter, loc, rowCounts, outs, /*mapping=*/std::nullopt,
      [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
        ValueRange ivs = args.take_front(rowCounts.size());
        ValueRange sharedOuts = args.drop_front(rowCounts.size());
        SmallVector<Value> row = emitRow(b, bodyLoc, ivs, sharedOuts);
        // Each result's part of this row: per-element results are row
        // slices, per-row results one element.
        Value zero = arith::ConstantIndexOp::create(b, bodyLoc, 0);
        SmallVector<SmallVector<OpFoldResult>> offsets, sizes;
        for (auto [value, out] : llvm::zip(row, sharedOuts)) {
          auto outType = getTensorType(out);
          offsets.emplace_back();
          sizes.emplace_back();
          for (auto [d, size] : llvm::enumerate(outType.getShape())) {
            bool wholeAxis = isRowAxis(d) || size == 1;
            offsets.back().push_back(wholeAxis ? OpFoldResult(zero)
                                               : OpFoldResult(rowIvs[d]));
            sizes.back().push_back(b.getIndexAttr(wholeAxis ? size : 1));
          }
          if (!isa<RankedTensorType>(value.getType()))
            value = tensor::FromElementsOp::create(
                b, bodyLoc,
                outType.clone(SmallVector<int64_t>(outType.getRank(), 1)),
                value);
        }
        auto inParallel = scf::InParallelOp::create(b, bodyLoc);
        b.setInsertionPointToStart(inParallel.getBody());
        for (auto [i, value, out] : llvm::enumerate(row, sharedOuts)) {
          SmallVector<OpFoldResult> strides(getTensorType(out).getRank(),
                                            b.getIndexAttr(1));
          tensor::ParallelInsertSliceOp::create(b, bodyLoc, value, out,
                                                offsets[i], sizes[i], strides);
        }
      });
  return forall.getResults();
}

namespace {
struct RowRegionToLoops : OpConversionPattern<RegionOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(RegionOp region, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (region.getKind() != FusionKind::Row)
      return failure();
    RowRegionLowering lowering(region, adaptor.getInputs());
    rewriter.replaceOp(region, lowering.emit(rewriter));
    return success();
  }
};
} // namespace

void mlir::rlx::populateRegionToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<ElementwiseRegionToGeneric, ReductionRegionToGeneric,
               RowRegionToLoops>(patterns.getContext());
}
