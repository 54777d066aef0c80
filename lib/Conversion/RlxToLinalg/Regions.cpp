//===- Regions.cpp - rlx.region to linalg ---------------------------------===//
//
// Each region kind becomes ops in which no intermediate tensor of the
// iteration shape exists. Body ops contribute their scalar semantics
// (ScalarComputeOpInterface, ReductionOpInterface), and every body value is
// rounded to its element type as the unfused op would store it, which keeps
// fused and unfused results identical (BodyGenerics.h).
//
//   elementwise  one linalg.generic
//   reduction    one linalg.generic with reduction loops
//   row          rlx.rows, the destination-style form that the codegen layer
//                tiles by rows and decomposes into one generic per stage
//   contraction  the contraction, then one epilogue generic that the codegen
//                layer applies per result tile
//
//===----------------------------------------------------------------------===//
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "rlx/Conversion/RlxToLinalg/RlxToLinalg.h"
#include "rlx/Dialect/Rlx/IR/BodyGenerics.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::rlx;

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

/// `accumulator` finished (the mean's division) and stored in the element
/// type of `reduction`'s result, with its reduced axes kept when it keeps
/// them.
static Value finishReduction(OpBuilder &b, Location loc,
                             ReductionOpInterface reduction, Value accumulator,
                             OpFoldResult count) {
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

    SmallVector<Value> inputs(adaptor.getInputs());
    OpFoldResult count = getReducedCount(
        rewriter, loc,
        getLoopSizes(rewriter, loc, shape, adaptor.getInputs(),
                     llvm::map_to_vector(inputs,
                                         [&](Value input) {
                                           return getBroadcastIndexingMap(
                                               getTensorType(input), shape);
                                         })),
        axes);
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

/// The destination-style form, which code generation tiles by rows and
/// decomposes (RowsOp.cpp).
struct RowRegionToRows : OpConversionPattern<RegionOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(RegionOp region, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (region.getKind() != FusionKind::Row)
      return failure();
    Location loc = region.getLoc();
    ReifiedRankedShapedTypeDims sizes;
    if (failed(reifyResultShapes(rewriter, region, sizes)))
      return failure();
    SmallVector<Value> outs;
    for (auto [type, resultSizes] : llvm::zip(region.getResultTypes(), sizes))
      outs.push_back(
          createEmptyTensor(rewriter, loc, resultSizes,
                            cast<RankedTensorType>(type).getElementType()));
    auto rows = RowsOp::create(rewriter, loc, region.getResultTypes(),
                               adaptor.getInputs(), outs);
    rewriter.inlineRegionBefore(region.getBody(), rows.getBody(),
                                rows.getBody().end());
    rewriter.replaceOp(region, rows.getResults());
    return success();
  }
};
} // namespace

void mlir::rlx::populateRegionToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<ElementwiseRegionToGeneric, ReductionRegionToGeneric,
               RowRegionToRows>(patterns.getContext());
}
