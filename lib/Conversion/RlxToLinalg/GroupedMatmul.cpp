//===- GroupedMatmul.cpp - rlx.grouped_matmul to linalg -------------------===//
//
// rlx.grouped_matmul is one linalg.generic over (t, k, n) - (t, j, k, n)
// with gates - whose body reads the routed expert's weight element
// W[rule(ids[t]), k, n] with tensor.extract: the expert is gathered inside
// the contraction, so no per-row [T, K, N] copy of the weights is ever
// made, and the op reads what T rows times one [K, N] matrix read, whatever
// the routing. f16/bf16 accumulate in f32 (gates included) and round once
// after the reduction. The reductions (j, k) sit between the row loop and
// the column loop so that the tiles sweep a row of W[e] (contiguous in n)
// for each k, streaming each expert's matrix once per row; with n before k
// (the order of rlx.matmul's generic) each 64-column tile walked all of
// W[e] at a stride of N elements, 3x slower (256x512 rows by 8 experts of
// 512x1024, one thread: 725 ms against 240 ms, bit-identical results).
//
// How the codegen layer schedules it. The CPU and GPU lowering configs
// (lib/Codegen/{CPU,GPU}/SelectLoweringConfig.cpp) give BLIS-style
// register tiles of outer products, cache tiles of the reduction, packing
// and tensor-core tiles only to generics that
// `linalg::isaContractionOpInterface` accepts: a multiply-add of two
// *operands* read through projected maps. Here the second factor is a
// tensor.extract at a data-dependent coordinate, so this is not a
// contraction in that sense: the CPU config makes thread tiles of 16 rows
// and register tiles of one row by 64 columns (vector = [1, 1, 64]), which
// the CPU vectorizer leaves scalar (upstream's linalg::vectorize takes
// n-D tensor.extract only with `vectorizeNDExtract`, which
// lib/Codegen/CPU/Vectorize.cpp does not set; setting it measured 240 ->
// 182 ms on the shape above); the GPU pipeline gives each output element
// a thread that runs the k loop. Every output element is one sequential
// sum in a fixed order, so the result does not depend on the thread count
// or the tiling. What it lacks is reuse: W is read once per row instead of
// once per register tile of rows, so rows cost what a GEMV per row costs
// (the dense rlx.matmul of the same shape takes 1.5 ms on that machine).
// For decode (T of a few tokens, most experts seeing zero or one row) that
// is what any kernel reads; for prefill and training it is far off.
//
// The fast form is the sorted (segmented) grouped GEMM of MegaBlocks,
// CUTLASS's grouped GEMM and vLLM's fused_moe: count the rows per expert
// (a histogram of the ids), prefix-sum the counts into segment offsets,
// permute the rows of x into expert order (a stable argsort of the ids),
// run one dense [T_e, K] x [K, N] GEMM per expert segment - each a real
// contraction that the codegen layer tiles with its micro-kernels (on GPUs
// one launch over (expert, tile) pairs, a segment's last tile masked) -
// and scatter the rows back, scaling by the gates and summing a row's k
// experts on the way. It is not done now because the segment sizes T_e are
// data: each GEMM's M is a run-time bound inside a loop over experts (or a
// tile list built at run time), which the contraction schedules - static
// register and cache tiles chosen per op at compile time, the GPU's
// block-tiled tensor-core kernels over one static-or-`?` iteration space -
// do not express yet; it also adds the permutation and its inverse (two
// more passes over x and y) and a sort, which only pay off when segments
// are long. (Computing every expert densely and selecting rows would use
// the tiled kernels today, but costs E times the flops and reads every
// expert's weights even when a decode step routes to two of them.)
//
//===----------------------------------------------------------------------===//
#include "BlockLayout.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "rlx/Conversion/RlxToLinalg/RlxToLinalg.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"
#include "rlx/Dialect/Rlx/IR/ScalarBuilder.h"

using namespace mlir;
using namespace mlir::rlx;

/// The routing operands of a grouped product for a generic of `numLoops`
/// loops whose loop 0 is the row (and loop 1 the expert choice j with
/// gates): the ids at (t) or (t, j) and the gates at (t, j), after the
/// input's operand.
static void addRouting(MLIRContext *ctx, int64_t numLoops, Value ids,
                       Value gates, SmallVectorImpl<Value> &inputs,
                       SmallVectorImpl<AffineMap> &maps) {
  auto dim = [&](int64_t d) { return getAffineDimExpr(d, ctx); };
  inputs.push_back(ids);
  if (!gates) {
    maps.push_back(AffineMap::get(numLoops, 0, {dim(0)}, ctx));
    return;
  }
  AffineMap routed = AffineMap::get(numLoops, 0, {dim(0), dim(1)}, ctx);
  maps.append({routed, routed});
  inputs.push_back(gates);
}

/// The zero accumulator of `op`'s result in `accType`.
static Value createAccumulator(ConversionPatternRewriter &rewriter,
                               Location loc, Operation *op, Type accType) {
  Value zero = arith::ConstantOp::create(rewriter, loc, accType,
                                         rewriter.getZeroAttr(accType));
  return linalg::FillOp::create(rewriter, loc, zero,
                                createEmptyTensor(rewriter, loc,
                                                  getResultSizes(rewriter, op),
                                                  accType))
      .getResult(0);
}

/// Yields acc + x * w (times the gate with gates), x and w converted to
/// `accType`, from the block arguments (x, id[, gate], acc) of a routed
/// generic.
static void yieldRoutedTerm(OpBuilder &b, Location loc, ValueRange args,
                            Value w, bool gated, Type accType) {
  ScalarBuilder scalar(b, loc);
  Value x = scalar.convert(args[0], accType);
  Value term = scalar.mul(x, scalar.convert(w, accType));
  if (gated)
    term = scalar.mul(scalar.convert(args[2], accType), term);
  linalg::YieldOp::create(b, loc, scalar.add(args.back(), term));
}

namespace {
/// y[t, n] = sum_(j,) k gates[t, j] * x[t, k] * W[rule(ids[t, j]), k, n], the
/// weight read in the body.
struct GroupedMatmulToLinalg : OpConversionPattern<GroupedMatmulOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(GroupedMatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    RankedTensorType resultType = op.getType();
    Type storage = resultType.getElementType();
    Type accType = ScalarBuilder::computeType(storage);
    Value weight = adaptor.getWeight();
    Value gates = adaptor.getGates();
    bool gated = static_cast<bool>(gates);

    // Loops: (t, k, n), or (t, j, k, n) with gates; the reductions between
    // the rows and the columns (see the file's header).
    int64_t numLoops = gated ? 4 : 3;
    auto dim = [&](int64_t d) { return getAffineDimExpr(d, ctx); };
    AffineExpr t = dim(0), n = dim(numLoops - 1), k = dim(numLoops - 2);
    SmallVector<AffineMap> maps = {AffineMap::get(numLoops, 0, {t, k}, ctx)};
    SmallVector<Value> inputs = {adaptor.getInput()};
    addRouting(ctx, numLoops, adaptor.getExpertIds(), gates, inputs, maps);
    maps.push_back(AffineMap::get(numLoops, 0, {t, n}, ctx));
    SmallVector<utils::IteratorType> iterators(numLoops,
                                               utils::IteratorType::reduction);
    iterators[0] = iterators[numLoops - 1] = utils::IteratorType::parallel;

    Value acc = createAccumulator(rewriter, loc, op, accType);
    OpFoldResult experts = tensor::getMixedSize(rewriter, loc, weight, 0);
    RankedTensorType accTensorType = resultType.clone(accType);
    Value product =
        linalg::GenericOp::create(
            rewriter, loc, accTensorType, inputs, acc, maps, iterators,
            [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
              Value expert =
                  GatherOp::createRowIndex(b, bodyLoc, args[1], experts);
              Value row = linalg::IndexOp::create(b, bodyLoc, numLoops - 2);
              Value column = linalg::IndexOp::create(b, bodyLoc, numLoops - 1);
              Value w = tensor::ExtractOp::create(
                  b, bodyLoc, weight, ValueRange{expert, row, column});
              yieldRoutedTerm(b, bodyLoc, args, w, gated, accType);
            })
            .getResult(0);
    rewriter.replaceOp(op, convertElements(rewriter, loc, product, storage));
    return success();
  }
};
/// rlx.dequant_grouped_matmul: y[t, n] = sum_(j,) g, inner gates[t, j] *
/// x[t, k] * deq(W[rule(ids[t, j])][n, k]), with K split into the group and
/// the loops within it as rlx.dequant_matmul splits it (BlockLayout.h) and
/// the expert's byte, scale and zero point read in the body. Loops
/// (t, [j,] n, g, inner...): W[e] is [N, K] with K contiguous, so the
/// reduction over a group is innermost.
struct DequantGroupedMatmulToLinalg
    : OpConversionPattern<DequantGroupedMatmulOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(DequantGroupedMatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    RankedTensorType resultType = op.getType();
    Type storage = resultType.getElementType();
    Type accType = ScalarBuilder::computeType(storage);
    BlockLayout layout(op);
    Value gates = adaptor.getGates();
    bool gated = static_cast<bool>(gates);
    int64_t nLoop = gated ? 2 : 1, gLoop = nLoop + 1;
    int64_t numLoops = gLoop + 1 + layout.inner.size();
    auto dim = [&](int64_t d) { return getAffineDimExpr(d, ctx); };

    // The input [T, K] as [T, groups, inner...], read at (t, g, inner...).
    auto inputType = cast<RankedTensorType>(adaptor.getInput().getType());
    SmallVector<int64_t> expandedShape = {inputType.getDimSize(0),
                                          layout.groups};
    expandedShape.append(layout.inner);
    Value input = tensor::ExpandShapeOp::create(
        rewriter, loc, inputType.clone(expandedShape), adaptor.getInput(),
        SmallVector<ReassociationIndices>{
            {0}, llvm::to_vector(llvm::seq<int64_t>(1, expandedShape.size()))});
    SmallVector<AffineExpr> inputExprs = {dim(0)};
    for (int64_t d = gLoop; d < numLoops; ++d)
      inputExprs.push_back(dim(d));

    SmallVector<Value> inputs = {input};
    SmallVector<AffineMap> maps = {
        AffineMap::get(numLoops, 0, inputExprs, ctx)};
    addRouting(ctx, numLoops, adaptor.getExpertIds(), gates, inputs, maps);
    maps.push_back(AffineMap::get(numLoops, 0, {dim(0), dim(nLoop)}, ctx));
    SmallVector<utils::IteratorType> iterators(numLoops,
                                               utils::IteratorType::reduction);
    iterators[0] = iterators[nLoop] = utils::IteratorType::parallel;

    Value weight = layout.expandWeight(rewriter, loc, adaptor.getWeight());
    Value scales = adaptor.getScales(), zeroPoints = adaptor.getZeroPoints();
    OpFoldResult experts = rewriter.getIndexAttr(layout.rows[0]);
    Value acc = createAccumulator(rewriter, loc, op, accType);
    Value product =
        linalg::GenericOp::create(
            rewriter, loc, resultType.clone(accType), inputs, acc, maps,
            iterators,
            [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
              Value expert =
                  GatherOp::createRowIndex(b, bodyLoc, args[1], experts);
              Value row = linalg::IndexOp::create(b, bodyLoc, nLoop);
              SmallVector<Value> weightArgs = layout.extractOperands(
                  b, bodyLoc, weight, scales, zeroPoints, {expert, row}, gLoop);
              Value w =
                  layout.dequantize(b, bodyLoc, weightArgs, accType, gLoop);
              yieldRoutedTerm(b, bodyLoc, args, w, gated, accType);
            })
            .getResult(0);
    rewriter.replaceOp(op, convertElements(rewriter, loc, product, storage));
    return success();
  }
};
} // namespace

void mlir::rlx::populateGroupedMatmulToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<GroupedMatmulToLinalg, DequantGroupedMatmulToLinalg>(
      patterns.getContext());
}
