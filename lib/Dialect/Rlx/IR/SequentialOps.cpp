//===- SequentialOps.cpp - rlx.scan and rlx.index_add: tiles, linalg form -===//
//
// A scan carries its running value from one position to the next, and an
// index-add with repeated indices adds into the same row in order: linalg
// cannot state either, and IREE's LinalgExt scan and scatter, which do, are
// not in upstream MLIR. These ops follow their design: `TilingInterface`
// cuts the parallel loops (for index_add also the index positions, which add
// into the same destination in turn), and `decomposeOperation` writes a tile
// as scf.for loops over the sequential positions. A tile of one line steps
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
// rlx.scan
//===----------------------------------------------------------------------===//

LogicalResult ScanOp::verify() {
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

LogicalResult ScanOp::verifyRegions() {
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

SmallVector<Range> ScanOp::getIterationDomain(OpBuilder &b) {
  return getDomain(b, getLoc(), getInput());
}

SmallVector<utils::IteratorType> ScanOp::getLoopIteratorTypes() {
  SmallVector<utils::IteratorType> iterators(getInit().getType().getRank(),
                                             utils::IteratorType::parallel);
  // Also asked before the op is verified (rlx.lowering_config's verifier).
  if (getAxis() >= 0 && getAxis() < static_cast<int64_t>(iterators.size()))
    iterators[getAxis()] = utils::IteratorType::reduction;
  return iterators;
}

FailureOr<TilingResult>
ScanOp::getTiledImplementation(OpBuilder &b, ArrayRef<OpFoldResult> offsets,
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

LogicalResult ScanOp::getResultTilePosition(
    OpBuilder &b, unsigned resultNumber, ArrayRef<OpFoldResult> offsets,
    ArrayRef<OpFoldResult> sizes, SmallVector<OpFoldResult> &resultOffsets,
    SmallVector<OpFoldResult> &resultSizes) {
  resultOffsets.assign(offsets.begin(), offsets.end());
  resultSizes.assign(sizes.begin(), sizes.end());
  return success();
}

FailureOr<SmallVector<Value>> ScanOp::decomposeOperation(OpBuilder &b) {
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
// rlx.index_add
//===----------------------------------------------------------------------===//

LogicalResult IndexAddOp::verify() {
  RankedTensorType source = getSource().getType();
  RankedTensorType indices = getIndices().getType();
  RankedTensorType init = getInit().getType();
  int64_t axis = getAxis();
  if (axis < 0 || axis >= init.getRank())
    return emitOpError("axis ")
           << axis << " is out of range [0, " << init.getRank() << ")";
  if (getResult().getType() != init)
    return emitOpError("result type ")
           << getResult().getType() << " differs from init type " << init;
  if (!isa<IntegerType>(indices.getElementType()))
    return emitOpError("indices must be integers, got ") << indices;
  Type from = source.getElementType(), to = init.getElementType();
  if (!((isa<FloatType>(from) && isa<FloatType>(to)) ||
        (isa<IntegerType>(from) && isa<IntegerType>(to))))
    return emitOpError("cannot add ")
           << from << " elements into " << to
           << " (both must be floats, or both integers)";
  // init's shape with the axis replaced by the indices' shape.
  SmallVector<int64_t> expected(init.getShape().take_front(axis));
  llvm::append_range(expected, indices.getShape());
  llvm::append_range(expected, init.getShape().drop_front(axis + 1));
  if (init.getDimSize(axis) == 0 && source.hasStaticShape() &&
      source.getNumElements() != 0)
    return emitOpError("cannot add into axis ")
           << axis << " of size 0 (a non-empty source has no row to go to)";
  if (source.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError("source shape [")
           << source.getShape() << "] does not match ["
           << ArrayRef<int64_t>(expected)
           << "], the init shape with the axis replaced by the indices' shape";
  return success();
}

SmallVector<Range> IndexAddOp::getIterationDomain(OpBuilder &b) {
  return getDomain(b, getLoc(), getSource());
}

SmallVector<utils::IteratorType> IndexAddOp::getLoopIteratorTypes() {
  SmallVector<utils::IteratorType> iterators(getSource().getType().getRank(),
                                             utils::IteratorType::parallel);
  int64_t axis = getAxis();
  // Also asked before the op is verified (rlx.lowering_config's verifier).
  for (int64_t loop = std::max<int64_t>(axis, 0);
       loop < axis + getIndices().getType().getRank() &&
       loop < static_cast<int64_t>(iterators.size());
       ++loop)
    iterators[loop] = utils::IteratorType::reduction;
  return iterators;
}

/// The part of `op`'s destination that the tile of its loops at `offsets`
/// and `sizes` adds into: the tile's slice of the dimensions other than the
/// axis, and the whole axis.
static void getDestinationTile(IndexAddOp op, OpBuilder &b,
                               ArrayRef<OpFoldResult> offsets,
                               ArrayRef<OpFoldResult> sizes,
                               SmallVectorImpl<OpFoldResult> &tileOffsets,
                               SmallVectorImpl<OpFoldResult> &tileSizes) {
  int64_t axis = op.getAxis();
  int64_t indexRank = op.getIndices().getType().getRank();
  for (int64_t d = 0; d < op.getInit().getType().getRank(); ++d) {
    if (d == axis) {
      tileOffsets.push_back(b.getIndexAttr(0));
      tileSizes.push_back(
          tensor::getMixedSize(b, op.getLoc(), op.getInit(), axis));
      continue;
    }
    int64_t loop = d < axis ? d : d + indexRank - 1;
    tileOffsets.push_back(offsets[loop]);
    tileSizes.push_back(sizes[loop]);
  }
}

FailureOr<TilingResult>
IndexAddOp::getTiledImplementation(OpBuilder &b, ArrayRef<OpFoldResult> offsets,
                                   ArrayRef<OpFoldResult> sizes) {
  Location loc = getLoc();
  int64_t axis = getAxis();
  int64_t indexRank = getIndices().getType().getRank();
  tensor::ExtractSliceOp source =
      extractTile(b, loc, getSource(), offsets, sizes);
  tensor::ExtractSliceOp indices =
      extractTile(b, loc, getIndices(), offsets.slice(axis, indexRank),
                  sizes.slice(axis, indexRank));
  SmallVector<OpFoldResult> initOffsets, initSizes;
  getDestinationTile(*this, b, offsets, sizes, initOffsets, initSizes);
  tensor::ExtractSliceOp init =
      extractTile(b, loc, getInit(), initOffsets, initSizes);
  Operation *tiled = mlir::clone(b, getOperation(), init.getType(),
                                 ValueRange{source, indices, init});
  return TilingResult{{tiled},
                      SmallVector<Value>(tiled->getResults()),
                      {source, indices, init}};
}

LogicalResult IndexAddOp::getResultTilePosition(
    OpBuilder &b, unsigned resultNumber, ArrayRef<OpFoldResult> offsets,
    ArrayRef<OpFoldResult> sizes, SmallVector<OpFoldResult> &resultOffsets,
    SmallVector<OpFoldResult> &resultSizes) {
  getDestinationTile(*this, b, offsets, sizes, resultOffsets, resultSizes);
  return success();
}

FailureOr<SmallVector<Value>> IndexAddOp::decomposeOperation(OpBuilder &b) {
  Location loc = getLoc();
  int64_t axis = getAxis();
  int64_t indexRank = getIndices().getType().getRank();
  RankedTensorType sourceType = getSource().getType();
  RankedTensorType initType = getInit().getType();
  Type accType = initType.getElementType();
  // Nothing to add (and a step's slice of an empty dimension would fail
  // tensor's bounds check).
  if (llvm::is_contained(sourceType.getShape(), 0))
    return SmallVector<Value>{getInit()};
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, getSource());
  OpFoldResult rows = tensor::getMixedSize(b, loc, getInit(), axis);
  SmallVector<Value> lowerBounds(indexRank, zero), steps(indexRank, one);
  SmallVector<Value> upperBounds = llvm::map_to_vector(
      ArrayRef<OpFoldResult>(sizes).slice(axis, indexRank),
      [&](OpFoldResult size) {
        return getValueOrCreateConstantIndexOp(b, loc, size);
      });
  bool oneLine = isOneLine(sourceType.getShape(), axis, indexRank);
  SmallVector<OpFoldResult> stepSizes;
  RankedTensorType sourceStepType = getStepType(
      sizes, axis, indexRank, sourceType.getElementType(), stepSizes);
  auto accStepType = sourceStepType.clone(accType);

  auto addAll = [&](OpBuilder &builder, Location nestLoc) -> Value {
    scf::LoopNest nest = scf::buildLoopNest(
        builder, nestLoc, lowerBounds, upperBounds, steps,
        ValueRange{getInit()},
        [&](OpBuilder &nested, Location bodyLoc, ValueRange positions,
            ValueRange iterArgs) -> scf::ValueVector {
          Value row = GatherOp::createRowIndex(
              nested, bodyLoc,
              tensor::ExtractOp::create(nested, bodyLoc, getIndices(),
                                        positions),
              rows);
          Value acc = iterArgs[0];
          ScalarBuilder scalar(nested, bodyLoc);
          if (oneLine) {
            SmallVector<Value> sourceAt(sourceType.getRank(), zero);
            SmallVector<Value> accAt(initType.getRank(), zero);
            llvm::copy(positions, sourceAt.begin() + axis);
            accAt[axis] = row;
            Value sum = scalar.add(
                tensor::ExtractOp::create(nested, bodyLoc, acc, accAt),
                scalar.convert(tensor::ExtractOp::create(nested, bodyLoc,
                                                         getSource(), sourceAt),
                               accType));
            return {tensor::InsertOp::create(nested, bodyLoc, sum, acc, accAt)
                        .getResult()};
          }
          // One step: the source's slice at the index position, added into
          // the row it selects.
          SmallVector<OpFoldResult> sourceOffsets, sourceSizes, accOffsets,
              accSizes;
          for (auto [d, size] : llvm::enumerate(sizes)) {
            int64_t dim = d;
            bool indexDim = dim >= axis && dim < axis + indexRank;
            sourceOffsets.push_back(indexDim
                                        ? OpFoldResult(positions[dim - axis])
                                        : nested.getIndexAttr(0));
            sourceSizes.push_back(indexDim ? nested.getIndexAttr(1) : size);
            if (indexDim && dim != axis)
              continue;
            accOffsets.push_back(indexDim ? OpFoldResult(row)
                                          : nested.getIndexAttr(0));
            accSizes.push_back(indexDim ? nested.getIndexAttr(1) : size);
          }
          // An index of rank 0 removes the axis from the source.
          if (indexRank == 0) {
            accOffsets.insert(accOffsets.begin() + axis, row);
            accSizes.insert(accSizes.begin() + axis, nested.getIndexAttr(1));
          }
          SmallVector<OpFoldResult> sourceStrides(sourceOffsets.size(),
                                                  nested.getIndexAttr(1));
          SmallVector<OpFoldResult> accStrides(accOffsets.size(),
                                               nested.getIndexAttr(1));
          Value sourceSlice = tensor::ExtractSliceOp::create(
              nested, bodyLoc, sourceStepType, getSource(), sourceOffsets,
              sourceSizes, sourceStrides);
          Value accSlice =
              tensor::ExtractSliceOp::create(nested, bodyLoc, accStepType, acc,
                                             accOffsets, accSizes, accStrides);
          linalg::GenericOp sum = createStepGeneric(
              nested, bodyLoc, sourceSlice, accSlice,
              [&](OpBuilder &inner, Location innerLoc, ValueRange args) {
                ScalarBuilder add(inner, innerLoc);
                linalg::YieldOp::create(
                    inner, innerLoc,
                    add.add(args[1], add.convert(args[0], accType)));
              });
          return {tensor::InsertSliceOp::create(
                      nested, bodyLoc, sum.getResult(0), acc, accOffsets,
                      accSizes, accStrides)
                      .getResult()};
        });
    return nest.results.front();
  };
  if (getConstantIntValue(rows))
    return SmallVector<Value>{addAll(b, loc)};
  // A dynamic axis of no rows has no row to add into: the clamp would give
  // -1. The source is then left out.
  Value hasRows = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ne,
      getValueOrCreateConstantIndexOp(b, loc, rows), zero);
  auto guarded = scf::IfOp::create(
      b, loc, hasRows,
      [&](OpBuilder &thenBuilder, Location thenLoc) {
        scf::YieldOp::create(thenBuilder, thenLoc,
                             addAll(thenBuilder, thenLoc));
      },
      [&](OpBuilder &elseBuilder, Location elseLoc) {
        scf::YieldOp::create(elseBuilder, elseLoc, getInit());
      });
  return SmallVector<Value>{guarded.getResult(0)};
}
