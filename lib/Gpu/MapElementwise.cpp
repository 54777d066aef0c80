//===- MapElementwise.cpp - Elementwise ops as grid-stride kernels --------===//
//
// An elementwise linalg op becomes a kernel over a bounded grid in which
// each thread strides over the op's iterations by the grid's size. When the
// innermost dimension of every operand it varies along is contiguous, an
// iteration covers a 16-byte vector of elements: vector.load/vector.store
// with their alignment (ld.global.v4 in PTX), the payload on vectors. A
// contiguous op whose size is not a multiple of the vector width runs as
// one dimension with a scalar loop for the remainder.
//
//===----------------------------------------------------------------------===//
#include "Kernels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::rlx;

/// Bytes a vector iteration moves per operand at most.
constexpr int64_t kVectorBytes = 16;

namespace {
/// How the iterations of an elementwise kernel go over the op's elements.
struct VectorPlan {
  /// Elements per iteration; 1 is the scalar kernel.
  int64_t width = 1;
  /// Whether the vector iterations run over the op as one dimension.
  bool flat = false;
};
} // namespace

/// The bytes of an element of `type` when it is a power of two of at least
/// one byte.
static std::optional<int64_t> getElementBytes(MemRefType type) {
  Type element = type.getElementType();
  if (!element.isIntOrFloat())
    return std::nullopt;
  unsigned bits = element.getIntOrFloatBitWidth();
  if (bits < 8 || !llvm::isPowerOf2_32(bits))
    return std::nullopt;
  return bits / 8;
}

/// Whether every element that `type` holds at an index whose last
/// coordinate is a multiple of `width` starts a `width`-element vector
/// aligned to its size, given a base address aligned to it.
static bool isVectorAligned(MemRefType type, int64_t width) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) || strides.empty() ||
      strides.back() != 1 || ShapedType::isDynamic(offset) ||
      offset % width != 0)
    return false;
  return llvm::all_of(ArrayRef<int64_t>(strides).drop_back(), [&](int64_t s) {
    return !ShapedType::isDynamic(s) && s % width == 0;
  });
}

/// Whether the payload of `op` can run on vectors: each op whose operands
/// vary per element maps elementwise to vectors.
static bool hasVectorizablePayload(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  DenseSet<Value> varying(body->getArguments().begin(),
                          body->getArguments().end());
  for (Operation &inner : body->without_terminator()) {
    if (isa<linalg::IndexOp>(inner))
      return false;
    if (llvm::none_of(inner.getOperands(),
                      [&](Value v) { return varying.contains(v); }))
      continue;
    if (!OpTrait::hasElementwiseMappableTraits(&inner))
      return false;
    varying.insert(inner.result_begin(), inner.result_end());
  }
  return true;
}

static VectorPlan planVectors(linalg::LinalgOp op, ArrayRef<int64_t> ranges) {
  if (ranges.empty() || !hasVectorizablePayload(op))
    return {};
  unsigned innermost = ranges.size() - 1;
  int64_t widestBytes = 0;
  bool allIdentity = true;
  SmallVector<MemRefType> vectorized;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type)
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    allIdentity &= map.isIdentity() && type.getLayout().isIdentity();
    ArrayRef<AffineExpr> results = map.getResults();
    auto usesInnermost = [&](AffineExpr e) {
      return e.isFunctionOfDim(innermost);
    };
    if (llvm::none_of(results, usesInnermost)) {
      // One element for the whole vector: loaded once and broadcast.
      if (op.isDpsInit(&operand))
        return {};
      continue;
    }
    auto last = dyn_cast<AffineDimExpr>(results.back());
    if (!last || last.getPosition() != innermost ||
        llvm::any_of(results.drop_back(), usesInnermost))
      return {};
    std::optional<int64_t> bytes = getElementBytes(type);
    if (!bytes)
      return {};
    widestBytes = std::max(widestBytes, *bytes);
    vectorized.push_back(type);
  }
  if (widestBytes == 0)
    return {};
  int64_t width = kVectorBytes / widestBytes;
  if (width < 2)
    return {};
  if (ranges[innermost] % width == 0 &&
      llvm::all_of(vectorized, [&](MemRefType type) {
        return isVectorAligned(type, width);
      }))
    return {width, /*flat=*/false};
  // Contiguous operands: vectors may span rows of the op.
  int64_t elements = 1;
  for (int64_t range : ranges)
    elements *= range;
  if (allIdentity && elements >= width)
    return {width, /*flat=*/true};
  return {};
}

/// Runs the payload of `op` on the `width` elements from iteration `ivs`
/// (`flatOperands` and position `linear` for a flat plan).
static void emitVectorIteration(OpBuilder &b, Location loc, linalg::LinalgOp op,
                                int64_t width, ValueRange ivs, Value linear,
                                ArrayRef<Value> flatOperands,
                                const IRMapping &captured) {
  unsigned innermost = op.getNumLoops() - 1;
  auto getVectorType = [&](Type element) {
    return VectorType::get({width}, element);
  };
  auto getIndices = [&](OpOperand &operand) -> SmallVector<Value> {
    if (!flatOperands.empty())
      return {linear};
    return applyIndexingMap(b, loc, op.getMatchingIndexingMap(&operand), ivs);
  };
  auto getMemRef = [&](OpOperand &operand) {
    return flatOperands.empty() ? operand.get()
                                : flatOperands[operand.getOperandNumber()];
  };
  auto getAlignment = [&](Value memref) {
    auto type = cast<MemRefType>(memref.getType());
    return llvm::MaybeAlign(width * *getElementBytes(type));
  };

  IRMapping mapping = captured;
  for (OpOperand &operand : op->getOpOperands()) {
    BlockArgument arg = op.getMatchingBlockArgument(&operand);
    if (arg.use_empty())
      continue;
    Value memref = getMemRef(operand);
    if (!isa<MemRefType>(memref.getType())) {
      mapping.map(arg, memref);
      continue;
    }
    bool varies = llvm::any_of(
        op.getMatchingIndexingMap(&operand).getResults(),
        [&](AffineExpr e) { return e.isFunctionOfDim(innermost); });
    if (!varies) {
      mapping.map(arg,
                  memref::LoadOp::create(b, loc, memref, getIndices(operand)));
      continue;
    }
    mapping.map(arg, vector::LoadOp::create(
                         b, loc, getVectorType(arg.getType()), memref,
                         getIndices(operand), /*nontemporal=*/false,
                         getAlignment(memref)));
  }
  auto asVector = [&](Value v) -> Value {
    if (isa<VectorType>(v.getType()))
      return v;
    return vector::BroadcastOp::create(b, loc, getVectorType(v.getType()), v);
  };
  Block *body = op.getBlock();
  for (Operation &inner : body->without_terminator()) {
    SmallVector<Value> operands =
        llvm::to_vector(llvm::map_range(inner.getOperands(), [&](Value v) {
          return mapping.lookupOrDefault(v);
        }));
    if (llvm::none_of(operands,
                      [](Value v) { return isa<VectorType>(v.getType()); })) {
      b.clone(inner, mapping);
      continue;
    }
    SmallVector<Type> resultTypes = llvm::to_vector(
        llvm::map_range(inner.getResultTypes(),
                        [&](Type t) -> Type { return getVectorType(t); }));
    OperationState state(loc, inner.getName(),
                         llvm::map_to_vector(operands, asVector), resultTypes,
                         inner.getAttrs());
    mapping.map(inner.getResults(), b.create(state)->getResults());
  }
  for (auto [init, yielded] : llvm::zip(op.getDpsInitsMutable(),
                                        body->getTerminator()->getOperands())) {
    Value memref = getMemRef(init);
    vector::StoreOp::create(b, loc, asVector(mapping.lookupOrDefault(yielded)),
                            memref, getIndices(init), /*nontemporal=*/false,
                            getAlignment(memref));
  }
}

LogicalResult rlx::mapElementwiseToGridStride(linalg::LinalgOp op,
                                              int64_t blockSize,
                                              int64_t maxBlocks, bool vectorize,
                                              RewriterBase &rewriter) {
  if (op.getNumReductionLoops() != 0 || !hasScalarPayload(op))
    return failure();
  std::optional<SmallVector<int64_t>> ranges = getStaticLoopRanges(op);
  if (!ranges)
    return failure();
  int64_t elements = 1;
  for (int64_t range : *ranges)
    elements *= range;
  if (elements == 0) {
    rewriter.eraseOp(op);
    return success();
  }
  VectorPlan plan = vectorize ? planVectors(op, *ranges) : VectorPlan();
  int64_t iterations = elements / plan.width;
  int64_t remainder = elements % plan.width;
  int64_t threads = std::min(blockSize, iterations);
  int64_t blocks =
      std::min<int64_t>(llvm::divideCeil(iterations, threads), maxBlocks);

  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  auto createIndex = [&](OpBuilder &b, int64_t value) -> Value {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  gpu::LaunchOp launch = createLaunch(rewriter, loc, blocks, threads);
  OpBuilder b = OpBuilder::atBlockBegin(&launch.getBody().front());
  Value first = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, launch.getBlockIds().x,
                            createIndex(b, threads)),
      launch.getThreadIds().x);
  Value gridSize = createIndex(b, blocks * threads);
  IRMapping captured = sinkCapturedValues(b, op);

  SmallVector<Value> operands(op->getOperands());
  SmallVector<Value> flatOperands;
  if (plan.flat) {
    for (Value operand : operands) {
      auto type = dyn_cast<MemRefType>(operand.getType());
      if (!type || type.getRank() <= 1) {
        flatOperands.push_back(operand);
        continue;
      }
      ReassociationIndices all(type.getRank());
      std::iota(all.begin(), all.end(), 0);
      flatOperands.push_back(
          memref::CollapseShapeOp::create(b, loc, operand, {all}));
    }
  }

  auto emitScalarIteration = [&](OpBuilder &nested, Location nestedLoc,
                                 Value linear) {
    SmallVector<Value> ivs = delinearize(nested, nestedLoc, linear, *ranges);
    storeResults(
        nested, nestedLoc, op, ivs, operands,
        emitPayload(nested, nestedLoc, op, ivs, operands, {}, &captured));
  };
  scf::ForOp::create(
      b, loc, first, createIndex(b, iterations), gridSize, ValueRange(),
      [&](OpBuilder &nested, Location nestedLoc, Value iv, ValueRange) {
        if (plan.width == 1) {
          emitScalarIteration(nested, nestedLoc, iv);
        } else {
          Value linear = arith::MulIOp::create(nested, nestedLoc, iv,
                                               createIndex(nested, plan.width));
          SmallVector<Value> ivs =
              plan.flat ? SmallVector<Value>()
                        : delinearize(nested, nestedLoc, linear, *ranges);
          emitVectorIteration(nested, nestedLoc, op, plan.width, ivs, linear,
                              flatOperands, captured);
        }
        scf::YieldOp::create(nested, nestedLoc);
      });
  if (remainder != 0) {
    Value start = arith::AddIOp::create(
        b, loc, first, createIndex(b, iterations * plan.width));
    scf::ForOp::create(
        b, loc, start, createIndex(b, elements), gridSize, ValueRange(),
        [&](OpBuilder &nested, Location nestedLoc, Value iv, ValueRange) {
          emitScalarIteration(nested, nestedLoc, iv);
          scf::YieldOp::create(nested, nestedLoc);
        });
  }
  rewriter.eraseOp(op);
  return success();
}
