//===- SelectLoweringConfig.cpp - CPU schedules for contractions ----------===//
//
// The register tile is the outer-product micro-kernel of BLIS-style GEMMs:
// 8 rows of the left operand broadcast against two vectors of a row of the
// right one, 16 vector accumulators that stay in registers for a whole
// cache tile of the reduction (32 vector registers on AVX-512, 16 on AVX2
// where LLVM splits each vector in two; both fit).
//
//===----------------------------------------------------------------------===//
#include "rlx/Codegen/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "rlx/Dialect/Rlx/IR/RlxDialect.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXCPUSELECTLOWERINGCONFIG
#include "rlx/Codegen/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;
using namespace mlir::rlx;

namespace {
constexpr int64_t kRegisterRows = 8;
constexpr int64_t kRegisterVectors = 2;
constexpr int64_t kCacheReduction = 256;
constexpr int64_t kThreadRows = 64;
constexpr int64_t kThreadColumns = 256;

/// The largest multiple of `step` that divides `extent`, at most `limit` and
/// at least `floor`; 0 when there is none.
int64_t getDividingTile(int64_t extent, int64_t limit, int64_t step,
                        int64_t floor) {
  for (int64_t size = limit - limit % step; size >= std::max(floor, step);
       size -= step)
    if (extent % size == 0)
      return size;
  return 0;
}

/// A register tile of a loop of `extent` iterations: the whole loop when it
/// is at most `preferred`, else a tile that divides it (every tile then has
/// the same static shape), else the whole loop up to twice `preferred`;
/// `preferred` (partial tiles at the end) when none of these.
int64_t getRegisterTile(int64_t extent, int64_t preferred) {
  if (ShapedType::isDynamic(extent))
    return preferred;
  if (extent <= preferred)
    return extent;
  if (int64_t dividing = getDividingTile(extent, preferred, 1, preferred / 4))
    return dividing;
  return extent <= 2 * preferred ? extent : preferred;
}

/// A thread or cache tile of a loop of `extent` iterations: 0, untiled, when
/// one tile would cover the loop, else a multiple of the register tile
/// `step` that divides the loop; `preferred` when none does.
int64_t getOuterTile(int64_t extent, int64_t preferred, int64_t step) {
  if (ShapedType::isDynamic(extent))
    return preferred;
  if (extent <= preferred)
    return 0;
  int64_t dividing = getDividingTile(extent, preferred, step, step);
  return dividing ? dividing : preferred;
}

struct RlxCpuSelectLoweringConfigPass
    : rlx::impl::RlxCpuSelectLoweringConfigBase<
          RlxCpuSelectLoweringConfigPass> {
  using Base::Base;

  /// Register tiles of outer products, cache tiles of the reduction,
  /// thread tiles of rows and columns; null for ops that are not float
  /// contractions with one m, n and k loop.
  LoweringConfigAttr getContractionConfig(linalg::LinalgOp op) {
    if (!linalg::isaContractionOpInterface(op))
      return nullptr;
    FailureOr<linalg::ContractionDimensions> dims =
        linalg::inferContractionDims(op);
    auto resultType =
        dyn_cast<ShapedType>(op.getDpsInitOperand(0)->get().getType());
    if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
        dims->k.size() != 1 || !resultType ||
        !isa<FloatType>(resultType.getElementType()))
      return nullptr;
    unsigned elementBits = resultType.getElementType().getIntOrFloatBitWidth();
    int64_t lanes = std::max<int64_t>(1, vectorBits / elementBits);
    SmallVector<int64_t> extents = op.getStaticLoopRanges();
    unsigned loops = extents.size();
    SmallVector<int64_t> distribution(loops, 0), cache(loops, 0),
        vector(loops, 0);
    for (unsigned batch : dims->batch) {
      distribution[batch] = getOuterTile(extents[batch], 1, 1);
      vector[batch] = 1;
    }
    unsigned m = dims->m.front(), n = dims->n.front(), k = dims->k.front();
    vector[m] = getRegisterTile(extents[m], kRegisterRows);
    vector[n] = getRegisterTile(extents[n], kRegisterVectors * lanes);
    vector[k] = 1;
    distribution[m] = getOuterTile(extents[m], kThreadRows, vector[m]);
    distribution[n] = getOuterTile(extents[n], kThreadColumns, vector[n]);
    // A problem within one thread tile is shared out by register rows: it
    // still runs in parallel, and its epilogue is fused per tile.
    bool oneThreadTile =
        llvm::all_of(distribution, [](int64_t size) { return size == 0; });
    if (oneThreadTile && ShapedType::isStatic(extents[m]) &&
        extents[m] > vector[m])
      distribution[m] = vector[m];
    // A reduction that no cache tile divides is left whole: a partial tile
    // would make every tile's shape dynamic.
    if (ShapedType::isStatic(extents[k]) && extents[k] > kCacheReduction)
      cache[k] = getDividingTile(extents[k], kCacheReduction, 1,
                                 kCacheReduction / 4);
    return LoweringConfigAttr::get(op->getContext(), distribution, cache,
                                   vector);
  }

  void runOnOperation() override {
    if (vectorBits < 32 || vectorBits % 32 != 0) {
      getOperation().emitError()
          << "rlx-cpu-select-lowering-config: vector-bits must be a positive "
             "multiple of 32, got "
          << vectorBits.getValue();
      return signalPassFailure();
    }
    // Ops in loops that conversions tile themselves (attention's blocks)
    // are theirs to schedule until they move to this layer.
    // An op without iterations (an empty dimension) has nothing to tile.
    for (auto op : getOperation().getBody().getOps<linalg::LinalgOp>()) {
      if (op->hasAttr(LoweringConfigAttr::kAttrName) ||
          !op.hasPureTensorSemantics() ||
          llvm::is_contained(op.getStaticLoopRanges(), 0))
        continue;
      if (LoweringConfigAttr config = getContractionConfig(op))
        op->setAttr(LoweringConfigAttr::kAttrName, config);
    }
  }
};
} // namespace
