//===- SequentialOps.cpp - rlx.associative_scan, rlx.scatter: tiles ------===//
//
// A scan carries its running value from one position to the next, and a
// scatter with repeated indices writes the same element in order: linalg
// cannot state either, and IREE's LinalgExt scan and scatter, which do, are
// not in upstream MLIR. These ops follow their design: `TilingInterface`
// cuts the parallel loops (for a scatter also the index positions, which
// write into the same destination in turn), and `decomposeOperation` writes a
// tile as scf.for loops over the sequential positions. A tile of one line steps
// through scalars (one GPU thread per line, or a contiguous line on a CPU);
// a wider tile steps through slices, one parallel generic each, which
// vectorize across the lines. The tile sizes, a schedule's choice, pick the
// form; the ops only say what is computed.
//
//===----------------------------------------------------------------------===//
#include "rlx/Dialect/Rlx/IR/BodyGenerics.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::rlx;

//===----------------------------------------------------------------------===//
// Shared
//===----------------------------------------------------------------------===//

/// One loop per dimension of `tensor`, from 0 to its size.
static SmallVector<Range> getDomain(OpBuilder &b, Location loc, Value tensor) {
  SmallVector<Range> domain;
  for (OpFoldResult size : tensor::getMixedSizes(b, loc, tensor))
    domain.push_back(Range{b.getIndexAttr(0), size, b.getIndexAttr(1)});
  return domain;
}

static tensor::ExtractSliceOp extractTile(OpBuilder &b, Location loc,
                                          Value tensor,
                                          ArrayRef<OpFoldResult> offsets,
                                          ArrayRef<OpFoldResult> sizes) {
  SmallVector<OpFoldResult> strides(offsets.size(), b.getIndexAttr(1));
  return tensor::ExtractSliceOp::create(b, loc, tensor, offsets, sizes,
                                        strides);
}

/// Whether every dimension of `shape` outside [first, first + count) is a
/// static 1: the tile is one line along the others.
static bool isOneLine(ArrayRef<int64_t> shape, int64_t first, int64_t count) {
  for (auto [d, size] : llvm::enumerate(shape)) {
    int64_t dim = d;
    if ((dim < first || dim >= first + count) && size != 1)
      return false;
  }
  return true;
}

/// The sizes of `sizes` outside [first, first + count), and the tensor type
/// of that shape with `elementType`: one step's slice, rank-reduced.
static RankedTensorType getStepType(ArrayRef<OpFoldResult> sizes, int64_t first,
                                    int64_t count, Type elementType,
                                    SmallVectorImpl<OpFoldResult> &stepSizes) {
  SmallVector<int64_t> shape;
  for (auto [d, size] : llvm::enumerate(sizes)) {
    int64_t dim = d;
    if (dim >= first && dim < first + count)
      continue;
    stepSizes.push_back(size);
    shape.push_back(getConstantIntValue(size).value_or(ShapedType::kDynamic));
  }
  return RankedTensorType::get(shape, elementType);
}

/// A parallel generic over tensors of one shape, `inputs` into `outs`.
static linalg::GenericOp
createStepGeneric(OpBuilder &b, Location loc, ValueRange inputs,
                  ValueRange outs,
                  function_ref<void(OpBuilder &, Location, ValueRange)> body) {
  int64_t rank = cast<RankedTensorType>(outs.front().getType()).getRank();
  SmallVector<AffineMap> maps(inputs.size() + outs.size(),
                              b.getMultiDimIdentityMap(rank));
  return linalg::GenericOp::create(
      b, loc, outs.getTypes(), inputs, outs, maps,
      SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
      body);
}

//===----------------------------------------------------------------------===//
// rlx.associative_scan
//===----------------------------------------------------------------------===//

LogicalResult AssociativeScanOp::verify() {
  RankedTensorType type = getInit().getType();
  int64_t rank = type.getRank();
  if (getAxis() < 0 || getAxis() >= rank)
    return emitOpError("axis ")
           << getAxis() << " is out of range [0, " << rank << ")";
  if (getResult().getType() != type)
    return emitOpError("result type ")
           << getResult().getType() << " differs from init type " << type;
  if (getInput().getType() != type)
    return emitOpError("input type ")
           << getInput().getType() << " differs from init type " << type;
  if (!getIdentity().getType().isIntOrFloat())
    return emitOpError("identity must be an integer or float, got ")
           << getIdentity();
  return success();
}

LogicalResult AssociativeScanOp::verifyRegions() {
  Block &body = getCombiner().front();
  Type computeType = getIdentity().getType();
  Type elementType = getInit().getType().getElementType();
  if (body.getNumArguments() != 2 ||
      body.getArgument(0).getType() != computeType ||
      body.getArgument(1).getType() != elementType)
    return emitOpError("combiner must take the running value (")
           << computeType << ") and an element (" << elementType << ")";
  auto yield = body.empty() ? nullptr : dyn_cast<YieldOp>(body.back());
  if (!yield || yield.getValues().getTypes() != TypeRange(computeType))
    return emitOpError("combiner must yield one ") << computeType;
  for (Operation &op : body.without_terminator())
    if (op.getNumRegions() != 0 || !isMemoryEffectFree(&op))
      return op.emitOpError("cannot be in a scan's combiner: it must be "
                            "scalar code without side effects");
  return success();
}

SmallVector<Range> AssociativeScanOp::getIterationDomain(OpBuilder &b) {
  return getDomain(b, getLoc(), getInput());
}

SmallVector<utils::IteratorType> AssociativeScanOp::getLoopIteratorTypes() {
  SmallVector<utils::IteratorType> iterators(getInit().getType().getRank(),
                                             utils::IteratorType::parallel);
  // Also asked before the op is verified (rlx.lowering_config's verifier).
  if (getAxis() >= 0 && getAxis() < static_cast<int64_t>(iterators.size()))
    iterators[getAxis()] = utils::IteratorType::reduction;
  return iterators;
}

FailureOr<TilingResult>
AssociativeScanOp::getTiledImplementation(OpBuilder &b,
                                          ArrayRef<OpFoldResult> offsets,
                                          ArrayRef<OpFoldResult> sizes) {
  // The running value does not cross tiles, so a tile holds whole lines. A
  // dynamic axis cannot be compared with a tile's size cheaply; its tiles
  // are taken to be whole (a tile size of 0 for the axis).
  int64_t axis = getAxis();
  int64_t extent = getInit().getType().getDimSize(axis);
  if (!isConstantIntValue(offsets[axis], 0) ||
      (!ShapedType::isDynamic(extent) &&
       getConstantIntValue(sizes[axis]) != extent))
    return emitOpError("cannot split the scanned axis ")
           << axis << ": a tile scans whole lines";
  Location loc = getLoc();
  tensor::ExtractSliceOp input =
      extractTile(b, loc, getInput(), offsets, sizes);
  tensor::ExtractSliceOp init = extractTile(b, loc, getInit(), offsets, sizes);
  Operation *tiled =
      mlir::clone(b, getOperation(), init.getType(), ValueRange{input, init});
  return TilingResult{
      {tiled}, SmallVector<Value>(tiled->getResults()), {input, init}};
}

LogicalResult AssociativeScanOp::getResultTilePosition(
    OpBuilder &b, unsigned resultNumber, ArrayRef<OpFoldResult> offsets,
    ArrayRef<OpFoldResult> sizes, SmallVector<OpFoldResult> &resultOffsets,
    SmallVector<OpFoldResult> &resultSizes) {
  resultOffsets.assign(offsets.begin(), offsets.end());
  resultSizes.assign(sizes.begin(), sizes.end());
  return success();
}

FailureOr<SmallVector<Value>>
AssociativeScanOp::decomposeOperation(OpBuilder &b) {
  Location loc = getLoc();
  int64_t axis = getAxis();
  RankedTensorType type = getInit().getType();
  Type storage = type.getElementType();
  Type computeType = getIdentity().getType();
  // Nothing to scan (and a step's slice of an empty dimension would fail
  // tensor's bounds check).
  if (llvm::is_contained(type.getShape(), 0))
    return SmallVector<Value>{getInit()};
  Value identity = arith::ConstantOp::create(b, loc, getIdentity());
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, getInput());
  Value length = getValueOrCreateConstantIndexOp(b, loc, sizes[axis]);

  Block &combiner = getCombiner().front();
  // The next running value, and the value stored at the element's position.
  auto step = [&](OpBuilder &nested, Location bodyLoc, Value running,
                  Value element) -> std::pair<Value, Value> {
    IRMapping mapping;
    mapping.map(combiner.getArguments(), ValueRange{running, element});
    for (Operation &op : combiner.without_terminator())
      nested.clone(op, mapping);
    Value next = mapping.lookup(combiner.getTerminator()->getOperand(0));
    ScalarBuilder scalar(nested, bodyLoc);
    return {next, scalar.convert(getExclusive() ? running : next, storage)};
  };

  if (isOneLine(type.getShape(), axis, 1)) {
    auto loop = scf::ForOp::create(
        b, loc, zero, length, one, ValueRange{identity, getInit()},
        [&](OpBuilder &nested, Location bodyLoc, Value position,
            ValueRange iterArgs) {
          SmallVector<Value> indices(type.getRank(), zero);
          indices[axis] = position;
          Value element =
              tensor::ExtractOp::create(nested, bodyLoc, getInput(), indices);
          auto [next, stored] = step(nested, bodyLoc, iterArgs[0], element);
          Value updated = tensor::InsertOp::create(nested, bodyLoc, stored,
                                                   iterArgs[1], indices);
          scf::YieldOp::create(nested, bodyLoc, ValueRange{next, updated});
        });
    return SmallVector<Value>{loop.getResult(1)};
  }

  // One step: the slice at a position along the axis, over all lines.
  SmallVector<OpFoldResult> stepSizes;
  RankedTensorType sliceType = getStepType(sizes, axis, 1, storage, stepSizes);
  Value runningInit =
      linalg::FillOp::create(
          b, loc, identity,
          tensor::EmptyOp::create(b, loc, stepSizes, computeType).getResult())
          .getResult(0);
  auto loop = scf::ForOp::create(
      b, loc, zero, length, one, ValueRange{runningInit, getInit()},
      [&](OpBuilder &nested, Location bodyLoc, Value position,
          ValueRange iterArgs) {
        SmallVector<OpFoldResult> offsets(type.getRank(),
                                          nested.getIndexAttr(0));
        SmallVector<OpFoldResult> sliceSizes(sizes);
        offsets[axis] = position;
        sliceSizes[axis] = nested.getIndexAttr(1);
        SmallVector<OpFoldResult> strides(type.getRank(),
                                          nested.getIndexAttr(1));
        Value slice = tensor::ExtractSliceOp::create(nested, bodyLoc, sliceType,
                                                     getInput(), offsets,
                                                     sliceSizes, strides);
        Value emptySlice =
            tensor::EmptyOp::create(nested, bodyLoc, stepSizes, storage);
        // The running values are updated in place (the generic's output),
        // so the loop yields a buffer equivalent to its iter_arg, as
        // one-shot bufferization requires.
        linalg::GenericOp generic = createStepGeneric(
            nested, bodyLoc, slice, ValueRange{iterArgs[0], emptySlice},
            [&](OpBuilder &inner, Location innerLoc, ValueRange args) {
              auto [next, stored] = step(inner, innerLoc, args[1], args[0]);
              linalg::YieldOp::create(inner, innerLoc,
                                      ValueRange{next, stored});
            });
        Value updated = tensor::InsertSliceOp::create(
            nested, bodyLoc, generic.getResult(1), iterArgs[1], offsets,
            sliceSizes, strides);
        scf::YieldOp::create(nested, bodyLoc,
                             ValueRange{generic.getResult(0), updated});
      });
  return SmallVector<Value>{loop.getResult(1)};
}

//===----------------------------------------------------------------------===//
// rlx.scatter
//===----------------------------------------------------------------------===//

/// Whether `values` is strictly increasing.
static bool isIncreasing(ArrayRef<int64_t> values) {
  for (size_t i = 1; i < values.size(); ++i)
    if (values[i - 1] >= values[i])
      return false;
  return true;
}

LogicalResult ScatterOp::verify() {
  RankedTensorType updates = getUpdates().getType();
  RankedTensorType indices = getIndices().getType();
  RankedTensorType init = getInit().getType();
  ArrayRef<int64_t> loopDims = getLoopDims();
  ArrayRef<int64_t> indexLoops = getIndexLoops();
  ArrayRef<int64_t> indexDims = getIndexDims();
  int64_t loops = updates.getRank(), rank = init.getRank();
  if (getResult().getType() != init)
    return emitOpError("result type ")
           << getResult().getType() << " differs from init type " << init;
  if (!isa<IntegerType>(indices.getElementType()))
    return emitOpError("indices must be integers, got ") << indices;
  if (static_cast<int64_t>(loopDims.size()) != loops)
    return emitOpError("loop_dims has ")
           << loopDims.size() << " entries for " << loops << " update loops";
  SmallVector<int64_t> mappedDims;
  for (int64_t dim : loopDims) {
    if (dim < -1 || dim >= rank)
      return emitOpError("loop_dims entry ")
             << dim << " is not -1 or a dimension of the rank-" << rank
             << " init";
    if (dim != -1)
      mappedDims.push_back(dim);
  }
  if (!isIncreasing(mappedDims))
    return emitOpError("loop_dims must address init dimensions in "
                       "increasing order");
  if (!isIncreasing(indexLoops) ||
      llvm::any_of(indexLoops, [&](int64_t l) { return l < 0 || l >= loops; }))
    return emitOpError("index_loops must be increasing update loops in [0, ")
           << loops << ")";
  for (auto [loop, dim] : llvm::enumerate(loopDims))
    if (dim == -1 && !llvm::is_contained(indexLoops, loop))
      return emitOpError("update loop ")
             << loop << " addresses no init dimension, so it must index "
             << "indices (be in index_loops)";
  if (indexDims.empty())
    return emitOpError("index_dims must not be empty");
  SmallVector<int64_t> covered(mappedDims);
  for (int64_t dim : indexDims) {
    if (dim < 0 || dim >= rank || llvm::is_contained(covered, dim))
      return emitOpError("index_dims entry ")
             << dim << " is not a dimension of the init that no loop "
             << "addresses";
    covered.push_back(dim);
  }
  if (static_cast<int64_t>(covered.size()) != rank)
    return emitOpError("loop_dims and index_dims address ")
           << covered.size() << " of the " << rank << " init dimensions";
  // indices: the index loops' extents, then one coordinate per index dim.
  int64_t depth = indexDims.size();
  if (indices.getRank() != static_cast<int64_t>(indexLoops.size()) + 1 ||
      indices.getShape().back() != depth)
    return emitOpError("indices of type ")
           << indices << " must have one dimension per index loop ("
           << indexLoops.size() << ") and a last dimension of " << depth;
  for (auto [j, loop] : llvm::enumerate(indexLoops)) {
    int64_t have = indices.getDimSize(j), want = updates.getDimSize(loop);
    if (!ShapedType::isDynamic(have) && !ShapedType::isDynamic(want) &&
        have != want)
      return emitOpError("indices dimension ")
             << j << " has size " << have << " but update loop " << loop
             << " has " << want;
  }
  for (auto [loop, dim] : llvm::enumerate(loopDims)) {
    if (dim == -1)
      continue;
    int64_t have = updates.getDimSize(loop), room = init.getDimSize(dim);
    if (!ShapedType::isDynamic(have) && !ShapedType::isDynamic(room) &&
        have > room)
      return emitOpError("update loop ")
             << loop << " of size " << have << " exceeds init dimension " << dim
             << " of size " << room;
  }
  if (getClampIndices() && updates.hasStaticShape() &&
      updates.getNumElements() != 0)
    for (int64_t dim : indexDims)
      if (init.getDimSize(dim) == 0)
        return emitOpError("cannot clamp an index into dimension ")
               << dim << " of size 0";
  return success();
}

LogicalResult ScatterOp::verifyRegions() {
  Block &body = getCombiner().front();
  Type updateType = getUpdates().getType().getElementType();
  Type elementType = getInit().getType().getElementType();
  if (body.getNumArguments() != 2 ||
      body.getArgument(0).getType() != updateType ||
      body.getArgument(1).getType() != elementType)
    return emitOpError("combiner must take an update (")
           << updateType << ") and the element it lands on (" << elementType
           << ")";
  auto yield = body.empty() ? nullptr : dyn_cast<YieldOp>(body.back());
  if (!yield || yield.getValues().getTypes() != TypeRange(elementType))
    return emitOpError("combiner must yield one ") << elementType;
  for (Operation &op : body.without_terminator())
    if (op.getNumRegions() != 0 || !isMemoryEffectFree(&op))
      return op.emitOpError("cannot be in a scatter's combiner: it must be "
                            "scalar code without side effects");
  return success();
}

SmallVector<Range> ScatterOp::getIterationDomain(OpBuilder &b) {
  return getDomain(b, getLoc(), getUpdates());
}

SmallVector<utils::IteratorType> ScatterOp::getLoopIteratorTypes() {
  // Also asked before the op is verified (rlx.lowering_config's verifier).
  return llvm::map_to_vector(getLoopDims(), [](int64_t dim) {
    return dim == -1 ? utils::IteratorType::reduction
                     : utils::IteratorType::parallel;
  });
}

/// The part of `op`'s destination that the tile of its loops at `offsets`
/// and `sizes` writes: the tile's range of each dimension a loop addresses,
/// and the whole of each indexed dimension.
static void getDestinationTile(ScatterOp op, OpBuilder &b,
                               ArrayRef<OpFoldResult> offsets,
                               ArrayRef<OpFoldResult> sizes,
                               SmallVectorImpl<OpFoldResult> &tileOffsets,
                               SmallVectorImpl<OpFoldResult> &tileSizes) {
  int64_t rank = op.getInit().getType().getRank();
  tileOffsets.assign(rank, b.getIndexAttr(0));
  tileSizes = tensor::getMixedSizes(b, op.getLoc(), op.getInit());
  for (auto [loop, dim] : llvm::enumerate(op.getLoopDims())) {
    if (dim == -1)
      continue;
    tileOffsets[dim] = offsets[loop];
    tileSizes[dim] = sizes[loop];
  }
}

FailureOr<TilingResult>
ScatterOp::getTiledImplementation(OpBuilder &b, ArrayRef<OpFoldResult> offsets,
                                  ArrayRef<OpFoldResult> sizes) {
  Location loc = getLoc();
  tensor::ExtractSliceOp updates =
      extractTile(b, loc, getUpdates(), offsets, sizes);
  SmallVector<OpFoldResult> indexOffsets, indexSizes;
  for (int64_t loop : getIndexLoops()) {
    indexOffsets.push_back(offsets[loop]);
    indexSizes.push_back(sizes[loop]);
  }
  indexOffsets.push_back(b.getIndexAttr(0));
  indexSizes.push_back(b.getIndexAttr(getIndexDims().size()));
  tensor::ExtractSliceOp indices =
      extractTile(b, loc, getIndices(), indexOffsets, indexSizes);
  SmallVector<OpFoldResult> initOffsets, initSizes;
  getDestinationTile(*this, b, offsets, sizes, initOffsets, initSizes);
  tensor::ExtractSliceOp init =
      extractTile(b, loc, getInit(), initOffsets, initSizes);
  Operation *tiled = mlir::clone(b, getOperation(), init.getType(),
                                 ValueRange{updates, indices, init});
  return TilingResult{{tiled},
                      SmallVector<Value>(tiled->getResults()),
                      {updates, indices, init}};
}

LogicalResult ScatterOp::getResultTilePosition(
    OpBuilder &b, unsigned resultNumber, ArrayRef<OpFoldResult> offsets,
    ArrayRef<OpFoldResult> sizes, SmallVector<OpFoldResult> &resultOffsets,
    SmallVector<OpFoldResult> &resultSizes) {
  getDestinationTile(*this, b, offsets, sizes, resultOffsets, resultSizes);
  return success();
}

FailureOr<SmallVector<Value>> ScatterOp::decomposeOperation(OpBuilder &b) {
  Location loc = getLoc();
  RankedTensorType updatesType = getUpdates().getType();
  RankedTensorType initType = getInit().getType();
  ArrayRef<int64_t> loopDims = getLoopDims();
  ArrayRef<int64_t> indexLoops = getIndexLoops();
  ArrayRef<int64_t> indexDims = getIndexDims();
  int64_t loops = updatesType.getRank();
  // Nothing to write (and a step's slice of an empty dimension would fail
  // tensor's bounds check).
  if (llvm::is_contained(updatesType.getShape(), 0))
    return SmallVector<Value>{getInit()};
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, getUpdates());
  SmallVector<Value> extents =
      llvm::map_to_vector(indexDims, [&](int64_t dim) -> Value {
        return getValueOrCreateConstantIndexOp(
            b, loc, tensor::getMixedSize(b, loc, getInit(), dim));
      });
  SmallVector<Value> upperBounds =
      llvm::map_to_vector(indexLoops, [&](int64_t loop) {
        return getValueOrCreateConstantIndexOp(b, loc, sizes[loop]);
      });
  SmallVector<Value> lowerBounds(indexLoops.size(), zero),
      steps(indexLoops.size(), one);

  // The loops that do not index `indices` form each step's slice; with
  // none, or only static 1s, a step is one element.
  SmallVector<int64_t> sliceLoops;
  for (int64_t loop = 0; loop < loops; ++loop)
    if (!llvm::is_contained(indexLoops, loop))
      sliceLoops.push_back(loop);
  bool scalarSteps = llvm::all_of(sliceLoops, [&](int64_t loop) {
    return updatesType.getDimSize(loop) == 1;
  });
  SmallVector<OpFoldResult> stepSizes;
  for (int64_t loop : sliceLoops)
    stepSizes.push_back(sizes[loop]);
  SmallVector<int64_t> stepShape = llvm::map_to_vector(
      sliceLoops, [&](int64_t loop) { return updatesType.getDimSize(loop); });
  auto updateStepType =
      RankedTensorType::get(stepShape, updatesType.getElementType());
  auto initStepType = updateStepType.clone(initType.getElementType());

  Block &combiner = getCombiner().front();
  auto combine = [&](OpBuilder &builder, Value update, Value current) {
    IRMapping mapping;
    mapping.map(combiner.getArguments(), ValueRange{update, current});
    for (Operation &op : combiner.without_terminator())
      builder.clone(op, mapping);
    return mapping.lookup(combiner.getTerminator()->getOperand(0));
  };

  // One step at the index loops' `positions`: the destination coordinates
  // of the indexed dimensions read from `indices`, then the update (or its
  // slice) combined into the element (or slice) they select.
  auto step = [&](OpBuilder &nested, Location bodyLoc, ValueRange positions,
                  Value acc, ArrayRef<Value> coordinates) -> Value {
    auto positionOf = [&](int64_t loop) -> std::optional<Value> {
      auto it = llvm::find(indexLoops, loop);
      if (it == indexLoops.end())
        return std::nullopt;
      return positions[it - indexLoops.begin()];
    };
    SmallVector<OpFoldResult> updateOffsets, updateSizes;
    for (int64_t loop = 0; loop < loops; ++loop) {
      std::optional<Value> position = positionOf(loop);
      updateOffsets.push_back(position ? OpFoldResult(*position)
                                       : nested.getIndexAttr(0));
      updateSizes.push_back(position ? nested.getIndexAttr(1) : sizes[loop]);
    }
    SmallVector<OpFoldResult> accOffsets(initType.getRank()),
        accSizes(initType.getRank());
    for (auto [j, dim] : llvm::enumerate(indexDims)) {
      accOffsets[dim] = coordinates[j];
      accSizes[dim] = nested.getIndexAttr(1);
    }
    for (auto [loop, dim] : llvm::enumerate(loopDims)) {
      if (dim == -1)
        continue;
      accOffsets[dim] = updateOffsets[loop];
      accSizes[dim] = updateSizes[loop];
    }
    if (scalarSteps) {
      auto toValues = [&](ArrayRef<OpFoldResult> offsets) {
        return llvm::map_to_vector(offsets, [&](OpFoldResult offset) {
          return getValueOrCreateConstantIndexOp(nested, bodyLoc, offset);
        });
      };
      Value update = tensor::ExtractOp::create(nested, bodyLoc, getUpdates(),
                                               toValues(updateOffsets));
      SmallVector<Value> at = toValues(accOffsets);
      Value current = tensor::ExtractOp::create(nested, bodyLoc, acc, at);
      return tensor::InsertOp::create(
          nested, bodyLoc, combine(nested, update, current), acc, at);
    }
    SmallVector<OpFoldResult> updateStrides(loops, nested.getIndexAttr(1));
    SmallVector<OpFoldResult> accStrides(initType.getRank(),
                                         nested.getIndexAttr(1));
    Value updateSlice = tensor::ExtractSliceOp::create(
        nested, bodyLoc, updateStepType, getUpdates(), updateOffsets,
        updateSizes, updateStrides);
    Value accSlice = tensor::ExtractSliceOp::create(
        nested, bodyLoc, initStepType, acc, accOffsets, accSizes, accStrides);
    linalg::GenericOp combined = createStepGeneric(
        nested, bodyLoc, updateSlice, accSlice,
        [&](OpBuilder &inner, Location innerLoc, ValueRange args) {
          linalg::YieldOp::create(inner, innerLoc,
                                  combine(inner, args[0], args[1]));
        });
    return tensor::InsertSliceOp::create(nested, bodyLoc, combined.getResult(0),
                                         acc, accOffsets, accSizes, accStrides);
  };

  auto scatterAll = [&](OpBuilder &builder, Location nestLoc) -> Value {
    scf::LoopNest nest = scf::buildLoopNest(
        builder, nestLoc, lowerBounds, upperBounds, steps,
        ValueRange{getInit()},
        [&](OpBuilder &nested, Location bodyLoc, ValueRange positions,
            ValueRange iterArgs) -> scf::ValueVector {
          // Each coordinate wrapped once from [-n, 0); then either clamped
          // to [0, n - 1] or checked against [0, n).
          SmallVector<Value> coordinates;
          Value inRange;
          for (auto [j, extent] : llvm::enumerate(extents)) {
            SmallVector<Value> at(positions);
            at.push_back(arith::ConstantIndexOp::create(nested, bodyLoc, j));
            Value raw =
                tensor::ExtractOp::create(nested, bodyLoc, getIndices(), at);
            if (getClampIndices()) {
              coordinates.push_back(
                  GatherOp::createRowIndex(nested, bodyLoc, raw, extent));
              continue;
            }
            Value index = arith::IndexCastOp::create(
                nested, bodyLoc, nested.getIndexType(), raw);
            Value negative = arith::CmpIOp::create(
                nested, bodyLoc, arith::CmpIPredicate::slt, index, zero);
            Value wrapped =
                arith::AddIOp::create(nested, bodyLoc, index, extent);
            index = arith::SelectOp::create(nested, bodyLoc, negative, wrapped,
                                            index);
            // One unsigned comparison checks both bounds.
            Value fits = arith::CmpIOp::create(
                nested, bodyLoc, arith::CmpIPredicate::ult, index, extent);
            inRange =
                inRange ? arith::AndIOp::create(nested, bodyLoc, inRange, fits)
                              .getResult()
                        : fits;
            coordinates.push_back(index);
          }
          Value acc = iterArgs[0];
          if (!inRange)
            return {step(nested, bodyLoc, positions, acc, coordinates)};
          auto guarded = scf::IfOp::create(
              nested, bodyLoc, inRange,
              [&](OpBuilder &thenBuilder, Location thenLoc) {
                scf::YieldOp::create(
                    thenBuilder, thenLoc,
                    step(thenBuilder, thenLoc, positions, acc, coordinates));
              },
              [&](OpBuilder &elseBuilder, Location elseLoc) {
                scf::YieldOp::create(elseBuilder, elseLoc, acc);
              });
          return {guarded.getResult(0)};
        });
    return nest.results.front();
  };
  // A clamped index into a dimension of no rows has nowhere to go (the
  // clamp would give -1): the updates are then left out.
  Value hasRows;
  if (getClampIndices())
    for (auto [j, dim] : llvm::enumerate(indexDims)) {
      if (!initType.isDynamicDim(dim))
        continue;
      Value nonEmpty = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                             extents[j], zero);
      hasRows =
          hasRows ? arith::AndIOp::create(b, loc, hasRows, nonEmpty).getResult()
                  : nonEmpty;
    }
  if (!hasRows)
    return SmallVector<Value>{scatterAll(b, loc)};
  auto guarded = scf::IfOp::create(
      b, loc, hasRows,
      [&](OpBuilder &thenBuilder, Location thenLoc) {
        scf::YieldOp::create(thenBuilder, thenLoc,
                             scatterAll(thenBuilder, thenLoc));
      },
      [&](OpBuilder &elseBuilder, Location elseLoc) {
        scf::YieldOp::create(elseBuilder, elseLoc, getInit());
      });
  return SmallVector<Value>{guarded.getResult(0)};
}
