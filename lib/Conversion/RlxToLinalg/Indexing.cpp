//===- Indexing.cpp - Indexing and data movement ops to linalg ---===//
//
// Reads whose source index is an affine function of the result index (tile,
// reverse, roll) are indexed copies; reads that depend on data, need
// clamping (gathers, non-constant pads) or a `?` size in their formula
// compute the source coordinates in index arithmetic inside a
// linalg.generic and read with tensor.extract.
//
//===----------------------------------------------------------------------===//
#include "Utils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "rlx/Conversion/RlxToLinalg/RlxToLinalg.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

using namespace mlir;
using namespace mlir::rlx;

static Value indexConstant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

/// `index` clamped to [0, last].
static Value clampIndex(OpBuilder &b, Location loc, Value index, Value last) {
  Value low = arith::MaxSIOp::create(b, loc, index, indexConstant(b, loc, 0));
  return arith::MinSIOp::create(b, loc, low, last);
}

/// A parallel linalg.generic over the result of `op` whose body yields
/// `source[coordinates(result index)]`, plus `inputs` read through
/// `inputMaps` and passed to `coordinates` as block arguments.
static Value createGatheringCopy(
    OpBuilder &b, Operation *op, Value source, ValueRange inputs,
    ArrayRef<AffineMap> inputMaps,
    function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange)>
        coordinates) {
  Location loc = op->getLoc();
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  int64_t rank = resultType.getRank();
  SmallVector<AffineMap> maps(inputMaps);
  maps.push_back(b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, resultType, inputs,
      createEmptyTensor(b, loc, getResultSizes(b, op),
                        resultType.getElementType()),
      maps, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        SmallVector<Value> at = coordinates(nested, nestedLoc, args);
        Value element = tensor::ExtractOp::create(nested, nestedLoc, source, at);
        linalg::YieldOp::create(nested, nestedLoc, element);
      });
  return generic.getResult(0);
}

static int64_t normalize(int64_t axis, int64_t rank) {
  return axis < 0 ? axis + rank : axis;
}

namespace {
/// result[p, i, s] = table[p, rule(indices[i]), s].
struct GatherToLinalg : OpConversionPattern<GatherOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType resultType = op.getType();
    RankedTensorType tableType = op.getTable().getType();
    int64_t indexRank = op.getIndices().getType().getRank();
    int64_t axis = normalize(op.getAxis(), tableType.getRank());
    OpFoldResult axisSize =
        tensor::getMixedSize(rewriter, loc, adaptor.getTable(), axis);
    SmallVector<AffineExpr> indexExprs;
    for (int64_t d = 0; d < indexRank; ++d)
      indexExprs.push_back(rewriter.getAffineDimExpr(axis + d));
    AffineMap indexMap = AffineMap::get(resultType.getRank(), 0, indexExprs,
                                        rewriter.getContext());
    Value result = createGatheringCopy(
        rewriter, op, adaptor.getTable(), adaptor.getIndices(), indexMap,
        [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
          SmallVector<Value> at;
          for (int64_t d = 0; d < tableType.getRank(); ++d) {
            if (d == axis)
              at.push_back(
                  GatherOp::createRowIndex(b, bodyLoc, args[0], axisSize));
            else
              at.push_back(linalg::IndexOp::create(
                  b, bodyLoc, d < axis ? d : d - 1 + indexRank));
          }
          return at;
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// result[q] = input[q with q[axis] = rule(indices[q])].
struct GatherElementsToLinalg : OpConversionPattern<GatherElementsOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(GatherElementsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = op.getType();
    int64_t rank = resultType.getRank();
    int64_t axis = normalize(op.getAxis(), rank);
    OpFoldResult axisSize =
        tensor::getMixedSize(rewriter, op.getLoc(), adaptor.getInput(), axis);
    Value result = createGatheringCopy(
        rewriter, op, adaptor.getInput(), adaptor.getIndices(),
        rewriter.getMultiDimIdentityMap(rank),
        [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
          SmallVector<Value> at;
          for (int64_t d = 0; d < rank; ++d)
            at.push_back(d == axis ? GatherOp::createRowIndex(b, bodyLoc,
                                                              args[0], axisSize)
                                   : linalg::IndexOp::create(b, bodyLoc, d));
          return at;
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// result[B, i, s] = data[B, rule(indices[B, i, 0]), ..., rule(indices[B, i,
/// k - 1]), s]: the coordinates are read inside the body, one tensor.extract
/// each.
struct GatherNdToLinalg : OpConversionPattern<GatherNdOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(GatherNdOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t batch = op.getBatchDims();
    RankedTensorType indicesType = op.getIndices().getType();
    int64_t depth = indicesType.getShape().back();
    int64_t indexLoops = indicesType.getRank() - 1;
    int64_t rank = op.getData().getType().getRank();
    SmallVector<OpFoldResult> dataSizes =
        tensor::getMixedSizes(rewriter, loc, adaptor.getData());
    Value indices = adaptor.getIndices();
    Value result = createGatheringCopy(
        rewriter, op, adaptor.getData(), ValueRange{}, {},
        [&](OpBuilder &b, Location bodyLoc, ValueRange) {
          SmallVector<Value> at, indexAt;
          for (int64_t loop = 0; loop < indexLoops; ++loop)
            indexAt.push_back(linalg::IndexOp::create(b, bodyLoc, loop));
          for (int64_t d = 0; d < batch; ++d)
            at.push_back(indexAt[d]);
          for (int64_t j = 0; j < depth; ++j) {
            SmallVector<Value> component(indexAt);
            component.push_back(indexConstant(b, bodyLoc, j));
            Value raw =
                tensor::ExtractOp::create(b, bodyLoc, indices, component);
            at.push_back(GatherOp::createRowIndex(b, bodyLoc, raw,
                                                  dataSizes[batch + j]));
          }
          for (int64_t d = batch + depth; d < rank; ++d)
            at.push_back(linalg::IndexOp::create(
                b, bodyLoc, indexLoops + d - batch - depth));
          return at;
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// `expr` of `sizes` (symbols s0, s1, ...) as an index value: a constant
/// where the sizes are.
static Value createSizeExpr(OpBuilder &b, Location loc, AffineExpr expr,
                            ArrayRef<OpFoldResult> sizes) {
  AffineMap map = AffineMap::get(0, sizes.size(), expr);
  return getValueOrCreateConstantIndexOp(
      b, loc, affine::makeComposedFoldedAffineApply(b, loc, map, sizes));
}

/// The source coordinate of output coordinate `index` along a dimension of
/// `size` padded by `lo` in front, for the non-constant modes. The shape
/// rule bounds the pads so one reflection or one wrap lands inside.
static Value padSourceIndex(OpBuilder &b, Location loc, PadMode mode,
                            Value index, OpFoldResult size, int64_t lo) {
  Value shifted =
      arith::SubIOp::create(b, loc, index, indexConstant(b, loc, lo));
  AffineExpr n = getAffineSymbolExpr(0, b.getContext());
  switch (mode) {
  case PadMode::Replicate:
    return clampIndex(b, loc, shifted, createSizeExpr(b, loc, n - 1, size));
  case PadMode::Reflect: {
    // |i| mirrors the front; min(a, 2(size-1) - a) mirrors the back.
    Value negated = arith::SubIOp::create(b, loc, indexConstant(b, loc, 0),
                                          shifted);
    Value front = arith::MaxSIOp::create(b, loc, shifted, negated);
    Value back = arith::SubIOp::create(
        b, loc, createSizeExpr(b, loc, 2 * n - 2, size), front);
    return arith::MinSIOp::create(b, loc, front, back);
  }
  case PadMode::Circular: {
    // shifted is in [-size, 2 size), so shifted + size is non-negative.
    Value sizeValue = getValueOrCreateConstantIndexOp(b, loc, size);
    Value lifted = arith::AddIOp::create(b, loc, shifted, sizeValue);
    return arith::RemSIOp::create(b, loc, lifted, sizeValue);
  }
  case PadMode::Constant:
    break;
  }
  llvm_unreachable("constant padding lowers to tensor.pad");
}

/// Constant padding is tensor.pad; the other modes read the input at
/// computed coordinates.
struct PadToLinalg : OpConversionPattern<PadOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(PadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType resultType = op.getType();
    RankedTensorType inputType = op.getInput().getType();
    ArrayRef<int64_t> pads = op.getPads();
    int64_t rank = inputType.getRank();
    if (op.getMode() == PadMode::Constant) {
      Type element = inputType.getElementType();
      // A crop to nothing leaves no element to slice or pad.
      if (llvm::is_contained(resultType.getShape(), 0)) {
        rewriter.replaceOp(op, createEmptyTensor(rewriter, loc,
                                                 getResultSizes(rewriter, op),
                                                 element));
        return success();
      }
      FloatAttr valueAttr = op.getValueAttr();
      double value = valueAttr ? valueAttr.getValueAsDouble() : 0.0;
      TypedAttr attr =
          isa<FloatType>(element)
              ? TypedAttr(rewriter.getFloatAttr(element, value))
              : TypedAttr(rewriter.getIntegerAttr(
                    element, static_cast<int64_t>(value)));
      Value fill = arith::ConstantOp::create(rewriter, loc, attr);
      // Negative pads crop first (a slice), the others pad what is left.
      Value input = adaptor.getInput();
      SmallVector<OpFoldResult> low, high, offsets, sizes,
          strides(rank, rewriter.getIndexAttr(1));
      SmallVector<OpFoldResult> inputSizes =
          tensor::getMixedSizes(rewriter, loc, input);
      AffineExpr size = getAffineSymbolExpr(0, rewriter.getContext());
      bool crops = false;
      for (int64_t d = 0; d < rank; ++d) {
        int64_t lo = pads[2 * d], hi = pads[2 * d + 1];
        int64_t cropLow = std::max<int64_t>(-lo, 0),
                cropHigh = std::max<int64_t>(-hi, 0);
        crops |= cropLow || cropHigh;
        offsets.push_back(rewriter.getIndexAttr(cropLow));
        sizes.push_back(affine::makeComposedFoldedAffineApply(
            rewriter, loc, size - cropLow - cropHigh, {inputSizes[d]}));
        low.push_back(rewriter.getIndexAttr(std::max<int64_t>(lo, 0)));
        high.push_back(rewriter.getIndexAttr(std::max<int64_t>(hi, 0)));
      }
      if (crops)
        input = tensor::ExtractSliceOp::create(rewriter, loc, input, offsets,
                                               sizes, strides);
      rewriter.replaceOp(op, tensor::PadOp::create(rewriter, loc, resultType,
                                                   input, low, high, fill)
                                 .getResult());
      return success();
    }
    SmallVector<OpFoldResult> inputSizes =
        tensor::getMixedSizes(rewriter, loc, adaptor.getInput());
    Value result = createGatheringCopy(
        rewriter, op, adaptor.getInput(), {}, {},
        [&](OpBuilder &b, Location bodyLoc, ValueRange) {
          SmallVector<Value> at;
          for (int64_t d = 0; d < rank; ++d) {
            Value index = linalg::IndexOp::create(b, bodyLoc, d);
            if (pads[2 * d] == 0 && pads[2 * d + 1] == 0)
              at.push_back(index);
            else
              at.push_back(padSourceIndex(b, bodyLoc, op.getMode(), index,
                                          inputSizes[d], pads[2 * d]));
          }
          return at;
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Replaces `op` by a copy of `input` whose read along dimension d is
/// `readExpr(d, i, n)`: i is the result index along d and n the input's
/// size, a constant where static and a symbol where `?`. Where no read needs
/// a `?` size, the reads are one affine map of a parallel copy; otherwise
/// each element computes its coordinates (affine.apply) and extracts. An
/// empty result needs no reads.
static void replaceWithIndexedCopy(
    ConversionPatternRewriter &rewriter, Operation *op, Value input,
    function_ref<AffineExpr(int64_t, AffineExpr, AffineExpr)> readExpr) {
  Location loc = op->getLoc();
  MLIRContext *context = rewriter.getContext();
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t rank = resultType.getRank();
  SmallVector<OpFoldResult> sizes = getResultSizes(rewriter, op);
  if (resultType.hasStaticShape() && resultType.getNumElements() == 0) {
    rewriter.replaceOp(op, createEmptyTensor(rewriter, loc, sizes,
                                             resultType.getElementType()));
    return;
  }
  // Each read as a map (d0)[s0] -> position, s0 the input size along d.
  SmallVector<AffineMap> reads;
  bool needsSizes = false;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t size = inputType.getDimSize(d);
    AffineExpr n = ShapedType::isDynamic(size)
                       ? getAffineSymbolExpr(0, context)
                       : getAffineConstantExpr(size, context);
    AffineMap read =
        AffineMap::get(1, 1, readExpr(d, getAffineDimExpr(0, context), n));
    needsSizes |= read.getResult(0).isFunctionOfSymbol(0);
    reads.push_back(read);
  }
  if (!needsSizes) {
    SmallVector<AffineExpr> exprs;
    for (auto [d, read] : llvm::enumerate(reads))
      exprs.push_back(
          read.getResult(0).replaceDims(getAffineDimExpr(d, context)));
    AffineMap map = AffineMap::get(rank, 0, exprs, context);
    rewriter.replaceOp(
        op, createIndexedCopy(rewriter, loc, input, map, resultType, sizes));
    return;
  }
  SmallVector<Value> inputSizes;
  for (OpFoldResult size : tensor::getMixedSizes(rewriter, loc, input))
    inputSizes.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, size));
  rewriter.replaceOp(
      op, createGatheringCopy(
              rewriter, op, input, {}, {},
              [&](OpBuilder &b, Location bodyLoc, ValueRange) {
                SmallVector<Value> at;
                for (auto [d, read] : llvm::enumerate(reads)) {
                  Value index = linalg::IndexOp::create(b, bodyLoc, d);
                  at.push_back(affine::AffineApplyOp::create(
                      b, bodyLoc, read, ValueRange{index, inputSizes[d]}));
                }
                return at;
              }));
}

/// result[i] = input[i mod shape].
struct TileToLinalg : OpConversionPattern<TileOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TileOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    replaceWithIndexedCopy(rewriter, op, adaptor.getInput(),
                           [&](int64_t d, AffineExpr i, AffineExpr n) {
                             return op.getReps()[d] == 1 ? i : i % n;
                           });
    return success();
  }
};

/// result[i] = input[n - 1 - i] along the reversed axes.
struct ReverseToLinalg : OpConversionPattern<ReverseOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ReverseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    int64_t rank = op.getType().getRank();
    SmallVector<bool> reversed(rank, false);
    for (int64_t axis : op.getAxes())
      reversed[normalize(axis, rank)] = true;
    replaceWithIndexedCopy(rewriter, op, adaptor.getInput(),
                           [&](int64_t d, AffineExpr i, AffineExpr n) {
                             return reversed[d] ? n - 1 - i : i;
                           });
    return success();
  }
};

/// result[i] = input[(i - shift) mod n]. A static n takes the net shift in
/// [0, n), read as (i + n - shift) mod n; a `?` n applies each shift in turn
/// (affine mod is non-negative).
struct RollToLinalg : OpConversionPattern<RollOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(RollOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    int64_t rank = op.getType().getRank();
    SmallVector<int64_t> net = op.getNetShifts();
    replaceWithIndexedCopy(
        rewriter, op, adaptor.getInput(),
        [&](int64_t d, AffineExpr i, AffineExpr n) {
          if (auto size = dyn_cast<AffineConstantExpr>(n))
            return net[d] == 0 ? i : (i + (size.getValue() - net[d])) % n;
          AffineExpr read = i;
          for (auto [shift, dim] :
               llvm::zip_equal(op.getShifts(), op.getDims()))
            if (normalize(dim, rank) == d)
              read = (read - shift) % n;
          return read;
        });
    return success();
  }
};

/// Keeps x where (column - row) is on the kept side of `diagonal`, else 0.
struct TriluToLinalg : OpConversionPattern<TriluOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TriluOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = op.getType();
    int64_t rank = type.getRank();
    bool upper = op.getPart() == TrianglePart::Upper;
    int64_t diagonal = op.getDiagonal();
    Value result = mapElements(
        rewriter, op.getLoc(), adaptor.getInput(), type,
        [&](OpBuilder &b, Location loc, Value x) {
          Value row = linalg::IndexOp::create(b, loc, rank - 2);
          Value column = linalg::IndexOp::create(b, loc, rank - 1);
          Value offset = arith::SubIOp::create(b, loc, column, row);
          Value keep = arith::CmpIOp::create(
              b, loc,
              upper ? arith::CmpIPredicate::sge : arith::CmpIPredicate::sle,
              offset, indexConstant(b, loc, diagonal));
          Value zero = arith::ConstantOp::create(
              b, loc, b.getZeroAttr(type.getElementType()));
          return arith::SelectOp::create(b, loc, keep, x, zero).getResult();
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// A generic without inputs yielding linalg.index of the axis.
struct IotaToLinalg : OpConversionPattern<IotaOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(IotaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = op.getType();
    Location loc = op.getLoc();
    int64_t rank = type.getRank();
    int64_t axis = op.getNormalizedAxis();
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, type, ValueRange(),
        createEmptyTensor(rewriter, loc, type),
        rewriter.getMultiDimIdentityMap(rank), iterators,
        [&](OpBuilder &b, Location bodyLoc, ValueRange) {
          Value index = linalg::IndexOp::create(b, bodyLoc, axis);
          linalg::YieldOp::create(
              b, bodyLoc,
              arith::IndexCastOp::create(b, bodyLoc, type.getElementType(),
                                         index)
                  .getResult());
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// tensor.insert_slice at the clamped runtime position.
struct KvAppendToTensor : OpConversionPattern<KvAppendOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(KvAppendOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType cacheType = op.getType();
    RankedTensorType updateType = op.getUpdate().getType();
    int64_t axis = op.getNormalizedAxis();
    // An empty update writes nothing; its position need not be valid.
    if (updateType.hasStaticShape() && updateType.getNumElements() == 0) {
      rewriter.replaceOp(op, adaptor.getCache());
      return success();
    }
    Value raw = tensor::ExtractOp::create(rewriter, loc, adaptor.getPosition(),
                                          ValueRange{});
    Value position = arith::IndexCastOp::create(
        rewriter, loc, rewriter.getIndexType(), raw);
    // The last valid start is S - L (the shape rule requires L <= S).
    AffineExpr s0, s1;
    bindSymbols(rewriter.getContext(), s0, s1);
    Value last = createSizeExpr(
        rewriter, loc, s0 - s1,
        {tensor::getMixedSize(rewriter, loc, adaptor.getCache(), axis),
         tensor::getMixedSize(rewriter, loc, adaptor.getUpdate(), axis)});
    position = clampIndex(rewriter, loc, position, last);
    SmallVector<OpFoldResult> offsets(cacheType.getRank(),
                                      rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> strides(cacheType.getRank(),
                                      rewriter.getIndexAttr(1));
    SmallVector<OpFoldResult> sizes =
        tensor::getMixedSizes(rewriter, loc, adaptor.getUpdate());
    offsets[axis] = position;
    rewriter.replaceOpWithNewOp<tensor::InsertSliceOp>(
        op, adaptor.getUpdate(), adaptor.getCache(), offsets, sizes, strides);
    return success();
  }
};

/// A contraction generic over loops (batch, lhs free, rhs free,
/// contracting); f16/bf16 accumulate in f32 and round once at the end.
struct DotGeneralToLinalg : OpConversionPattern<DotGeneralOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(DotGeneralOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    RankedTensorType resultType = op.getType();
    Type storage = resultType.getElementType();
    Type accType = ScalarBuilder::computeType(storage);
    auto accTensorType = resultType.clone(accType);
    SmallVector<int64_t> lhsFree = op.getFreeDims(/*isLhs=*/true);
    SmallVector<int64_t> rhsFree = op.getFreeDims(/*isLhs=*/false);
    int64_t numBatch = op.getLhsBatchDims().size();
    int64_t numContracting = op.getLhsContractingDims().size();
    int64_t numParallel = resultType.getRank();
    int64_t numLoops = numParallel + numContracting;

    // Loop position of each operand dimension.
    auto operandMap = [&](int64_t rank, ArrayRef<int64_t> batch,
                          ArrayRef<int64_t> free, int64_t freeOffset,
                          ArrayRef<int64_t> contracting) {
      SmallVector<AffineExpr> exprs(rank);
      for (auto [k, d] : llvm::enumerate(batch))
        exprs[d] = getAffineDimExpr(k, ctx);
      for (auto [k, d] : llvm::enumerate(free))
        exprs[d] = getAffineDimExpr(freeOffset + k, ctx);
      for (auto [k, d] : llvm::enumerate(contracting))
        exprs[d] = getAffineDimExpr(numParallel + k, ctx);
      return AffineMap::get(numLoops, 0, exprs, ctx);
    };
    SmallVector<AffineMap> maps = {
        operandMap(op.getLhs().getType().getRank(), op.getLhsBatchDims(),
                   lhsFree, numBatch, op.getLhsContractingDims()),
        operandMap(op.getRhs().getType().getRank(), op.getRhsBatchDims(),
                   rhsFree, numBatch + lhsFree.size(),
                   op.getRhsContractingDims()),
        AffineMap::get(numLoops, 0,
                       llvm::map_to_vector(llvm::seq<int64_t>(0, numParallel),
                                           [&](int64_t d) {
                                             return getAffineDimExpr(d, ctx);
                                           }),
                       ctx)};
    SmallVector<utils::IteratorType> iterators(numLoops,
                                               utils::IteratorType::parallel);
    for (int64_t k = 0; k < numContracting; ++k)
      iterators[numParallel + k] = utils::IteratorType::reduction;

    Value zero = arith::ConstantOp::create(rewriter, loc, accType,
                                           rewriter.getZeroAttr(accType));
    Value acc =
        createFilledTensor(rewriter, loc, getResultSizes(rewriter, op), zero);
    Value product =
        linalg::GenericOp::create(
            rewriter, loc, accTensorType,
            ValueRange{adaptor.getLhs(), adaptor.getRhs()}, acc, maps,
            iterators,
            [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
              ScalarBuilder scalar(b, bodyLoc);
              Value l = scalar.convert(args[0], accType);
              Value r = scalar.convert(args[1], accType);
              linalg::YieldOp::create(b, bodyLoc,
                                      scalar.add(args[2], scalar.mul(l, r)));
            })
            .getResult(0);
    rewriter.replaceOp(op, convertElements(rewriter, loc, product, storage));
    return success();
  }
};
} // namespace

void mlir::rlx::populateIndexingToLinalgPatterns(RewritePatternSet &patterns) {
  patterns
      .add<GatherToLinalg, GatherElementsToLinalg, GatherNdToLinalg,
           PadToLinalg, TileToLinalg, ReverseToLinalg, RollToLinalg,
           TriluToLinalg, IotaToLinalg, KvAppendToTensor, DotGeneralToLinalg>(
          patterns.getContext());
}
