//===- SelectLoweringConfig.cpp - CPU schedules for linalg ops ------------===//
//
// The register tile is the outer-product micro-kernel of BLIS-style GEMMs:
// 8 rows of the left operand broadcast against two vectors of a row of the
// right one, 16 vector accumulators that stay in registers for a whole
// cache tile of the reduction (32 vector registers on AVX-512, 16 on AVX2
// where LLVM splits each vector in two; both fit). A matmul with long rows
// of its right operand packs each cache tile of it into panels of one
// register tile's width, so a tile's reduction reads memory in order.
// Convolutions get the same kernel; elementwise ops and reductions inside
// conversion-made loops stream through memory a few vectors at a time.
//
//===----------------------------------------------------------------------===//
#include "Common/MatmulLoops.h"
#include "Common/TileOpConfigs.h"
#include "rlx/Codegen/Passes.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "rlx/Dialect/Rlx/IR/RlxDialect.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXCPUSELECTLOWERINGCONFIG
#include "rlx/Codegen/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;
using namespace mlir::rlx;

namespace {
/// Register tiles of contractions: rows of kRegisterVectors vectors, one
/// accumulator each. 8 rows make 16 accumulators, half of AVX-512's 32
/// vector registers; AVX2 has 16, which 16 accumulators would fill and
/// spill, so 256-bit targets take 4 rows (measured on one AVX2 core: a
/// 1024^3 f32 matmul 90 -> 37 ms; 6 rows were as fast on static sizes but
/// made a matmul of `?` rows 40 times slower).
constexpr int64_t kRegisterRows = 8;
constexpr int64_t kNarrowRegisterRows = 4;
constexpr int64_t kRegisterVectors = 2;
constexpr int64_t kCacheReduction = 256;
constexpr int64_t kThreadRows = 64;
constexpr int64_t kThreadColumns = 256;
/// A matmul whose right operand has rows at least this long packs it: its
/// cache tile's rows are then so far apart that they conflict in the cache
/// (power-of-two rows all map to the same sets). A packed matmul's thread
/// tile has up to this many rows, which reuse each packed panel.
constexpr int64_t kPackedThreadRows = 512;
constexpr int64_t kPackColumns = 1024;
/// Convolutions are split into at least this many thread tiles where their
/// rows allow, so that every core of a typical CPU gets a share.
constexpr int64_t kMinThreadTiles = 16;
/// Ops with fewer iterations than this (a few microseconds of work) are not
/// split into thread tiles: a parallel region's fork and join would cost
/// more than the threads save.
constexpr int64_t kMinParallelIterations = int64_t(1) << 16;
/// Attention with fewer thread tiles than kMinThreadTiles splits its keys
/// into parts of at least this many (split-K): fewer would make the merge
/// of the partial states cost more than the keys.
constexpr int64_t kMinSplitKeys = 256;
/// Elementwise ops and reductions step through memory this many vectors at
/// a time.
constexpr int64_t kStreamVectors = 4;

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

/// A register tile of `extent` columns, at most `maxVectors` vectors of
/// `lanes` lanes: whole vectors where they divide the loop, else as many
/// whole vectors as the loop holds (rlx-tile-and-fuse peels the partial
/// last tile, and rlx-cpu-vectorize gives it whole vectors whose lanes past
/// its end are left out), else, for a loop shorter than a vector, the whole
/// loop.
int64_t getColumnTile(int64_t extent, int64_t lanes, int64_t maxVectors) {
  if (ShapedType::isDynamic(extent))
    return lanes * maxVectors;
  for (int64_t vectors = maxVectors; vectors >= 1; --vectors)
    if (extent % (vectors * lanes) == 0)
      return vectors * lanes;
  return extent < lanes ? extent : lanes * std::min(maxVectors, extent / lanes);
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

  /// Rows of a contraction's register tile (see kRegisterRows).
  int64_t getRegisterRows() const {
    return vectorBits >= 512 ? kRegisterRows : kNarrowRegisterRows;
  }

  /// The lanes of a vector of the element type of `op`'s (first) result;
  /// none when it is neither a float nor an integer of at least a byte
  /// (vectors of i1 are packed bits, not the byte per element of memory).
  std::optional<int64_t> getResultLanes(linalg::LinalgOp op) {
    if (op.getNumDpsInits() == 0)
      return std::nullopt;
    auto resultType =
        dyn_cast<ShapedType>(op.getDpsInitOperand(0)->get().getType());
    if (!resultType)
      return std::nullopt;
    Type element = resultType.getElementType();
    if (!isa<FloatType>(element) &&
        !(element.isSignlessInteger() && element.getIntOrFloatBitWidth() >= 8))
      return std::nullopt;
    return std::max<int64_t>(1, vectorBits / element.getIntOrFloatBitWidth());
  }

  /// Register tiles of outer products, cache tiles of the reduction,
  /// thread tiles of rows and columns; null for ops that are not
  /// contractions of floats or integers. Of several m loops (a matmul of a
  /// [batch, sequence, features] activation by a weight) the innermost makes
  /// the register rows and the others are taken one at a time, as batches are;
  /// so are the outer n loops (a matrix times a batch of matrices); of several
  /// k loops (a projection from [heads, features]) the innermost is cut into
  /// cache tiles, and every k loop takes one step per register tile.
  LoweringConfigAttr getContractionConfig(linalg::LinalgOp op) {
    if (!linalg::isaContractionOpInterface(op))
      return nullptr;
    FailureOr<linalg::ContractionDimensions> dims =
        linalg::inferContractionDims(op);
    std::optional<int64_t> lanes = getResultLanes(op);
    if (failed(dims) || dims->m.empty() || dims->n.empty() || dims->k.empty() ||
        !lanes)
      return nullptr;
    SmallVector<int64_t> extents = op.getStaticLoopRanges();
    unsigned loops = extents.size();
    SmallVector<int64_t> distribution(loops, 0), cache(loops, 0),
        vector(loops, 0);
    SmallVector<unsigned> outer(dims->batch.begin(), dims->batch.end());
    outer.append(dims->m.begin(), std::prev(dims->m.end()));
    outer.append(dims->n.begin(), std::prev(dims->n.end()));
    for (unsigned loop : outer) {
      distribution[loop] = getOuterTile(extents[loop], 1, 1);
      vector[loop] = 1;
    }
    for (unsigned loop : dims->k)
      vector[loop] = 1;
    unsigned m = dims->m.back(), n = dims->n.back(), k = dims->k.back();
    vector[m] = getRegisterTile(extents[m], getRegisterRows());
    vector[n] = getColumnTile(extents[n], *lanes, kRegisterVectors);
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
      cache[k] =
          getDividingTile(extents[k], kCacheReduction, 1, kCacheReduction / 4);
    SmallVector<int64_t> packed;
    if (isPackable(op, extents, distribution, vector)) {
      // Each packed panel serves a thread tile of many rows, swept in cache
      // tiles of register-tile rows.
      packed.push_back(1);
      cache[m] = getOuterTile(extents[m], kThreadRows, vector[m]);
      distribution[m] = getOuterTile(extents[m], kPackedThreadRows,
                                     std::max(cache[m], vector[m]));
    }
    return LoweringConfigAttr::get(op->getContext(), distribution, cache,
                                   vector, packed);
  }

  /// Whether `op`'s right operand is worth packing and can be: a plain
  /// matmul (A[m, k] times B[k, n], nothing transposed or batched) with a
  /// static B of long rows (m may be `?`: a batch or a sequence), whose
  /// thread tiles are whole panels.
  static bool isPackable(linalg::LinalgOp op, ArrayRef<int64_t> extents,
                         ArrayRef<int64_t> distribution,
                         ArrayRef<int64_t> vector) {
    std::optional<MatmulLoops> loops = getMatmulLoops(op);
    if (!loops || ShapedType::isDynamic(extents[loops->n]) ||
        ShapedType::isDynamic(extents[loops->k]))
      return false;
    unsigned n = loops->n;
    int64_t threadColumns = distribution[n] ? distribution[n] : extents[n];
    return extents[n] >= kPackColumns && threadColumns > vector[n] &&
           threadColumns % vector[n] == 0;
  }

  /// Convolutions (plain, grouped and depthwise) and pooling windows are
  /// tiled down to one window position and one input channel per register
  /// tile, where they are outer products like a matmul's: a vector of
  /// output columns times a column of filters (output channels; none for a
  /// pooling window, whose tile is one row of columns). Threads take images,
  /// groups, channels and output rows; the cache tile is one output row, so
  /// the filters' tiles sweep the rows of input it reads while they are
  /// cached. Null unless output columns are the result's contiguous
  /// dimension (channels-last layouts).
  LoweringConfigAttr getConvolutionConfig(linalg::LinalgOp op) {
    if (!linalg::isaConvolutionOpInterface(op))
      return nullptr;
    FailureOr<linalg::ConvolutionDimensions> dims =
        linalg::inferConvolutionDims(op);
    std::optional<int64_t> lanes = getResultLanes(op);
    if (failed(dims) || dims->outputImage.empty() ||
        dims->outputChannel.size() > 1 || !lanes)
      return nullptr;
    // Only the images (a batch) and the output positions may be `?`: the
    // channels' and the window's tiles are chosen from their extents.
    SmallVector<int64_t> extents = op.getStaticLoopRanges();
    for (auto [loop, extent] : llvm::enumerate(extents))
      if (ShapedType::isDynamic(extent) &&
          !llvm::is_contained(dims->batch, loop) &&
          !llvm::is_contained(dims->outputImage, loop))
        return nullptr;
    unsigned columns = dims->outputImage.back();
    AffineMap resultMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    if (resultMap.getNumResults() == 0 ||
        resultMap.getResults().back() !=
            getAffineDimExpr(columns, op.getContext()))
      return nullptr;
    unsigned loops = extents.size();
    // Every loop not named below (batch, group, window, input channel) is
    // one iteration per register tile.
    SmallVector<int64_t> distribution(loops, 0), cache(loops, 0),
        vector(loops, 1);
    // The filters: output channels, or a depthwise convolution's channels;
    // the groups of a grouped one are taken one at a time, like images.
    std::optional<unsigned> channels;
    SmallVector<unsigned> batches(dims->batch.begin(), dims->batch.end());
    if (!dims->outputChannel.empty()) {
      channels = dims->outputChannel.front();
      batches.append(dims->depth.begin(), dims->depth.end());
    } else if (!dims->depth.empty()) {
      channels = dims->depth.back();
      batches.append(dims->depth.begin(), std::prev(dims->depth.end()));
    }
    vector[columns] = getColumnTile(extents[columns], *lanes, kRegisterVectors);
    // As many accumulators as the matmul tile: more rows of channels when a
    // row of columns fills fewer vectors.
    int64_t vectorsPerRow = llvm::divideCeil(vector[columns], *lanes);
    if (channels)
      vector[*channels] = getRegisterTile(
          extents[*channels],
          std::max<int64_t>(1, getRegisterRows() * kRegisterVectors /
                                   vectorsPerRow));
    for (unsigned image : dims->outputImage)
      if (image != columns)
        cache[image] = 1;

    int64_t threadTiles = 1;
    for (unsigned batch : batches) {
      distribution[batch] = getOuterTile(extents[batch], 1, 1);
      // A `?` batch counts as enough images for every core.
      threadTiles *= ShapedType::isDynamic(extents[batch]) ? kMinThreadTiles
                                                           : extents[batch];
    }
    if (channels) {
      distribution[*channels] =
          getOuterTile(extents[*channels], kThreadRows, vector[*channels]);
      if (distribution[*channels])
        threadTiles *=
            llvm::divideCeil(extents[*channels], distribution[*channels]);
    }
    // Rows of the first image dimension make up the rest of the tiles, so
    // a single image still spreads over every core; `?` rows are split one
    // at a time (the threads take contiguous runs of them).
    unsigned rows = dims->outputImage.front();
    if (rows != columns && threadTiles < kMinThreadTiles) {
      int64_t wanted = llvm::divideCeil(kMinThreadTiles, threadTiles);
      if (ShapedType::isDynamic(extents[rows])) {
        distribution[rows] = 1;
      } else {
        int64_t size = getDividingTile(
            extents[rows], std::max<int64_t>(1, extents[rows] / wanted), 1, 1);
        distribution[rows] = size < extents[rows] ? size : 0;
      }
    }
    return LoweringConfigAttr::get(op->getContext(), distribution, cache,
                                   vector, /*packed=*/{});
  }

  /// Elementwise ops and reductions that are not contractions: register
  /// tiles of up to four vectors along the loop that walks their first
  /// operand's contiguous dimension (a reduction's reduced row, or the
  /// columns that a reduction over rows accumulates into; the result's when
  /// every input is a scalar), one iteration of every other loop. Null when
  /// some operand is read across that loop (transposed) rather than along
  /// it or not at all (broadcast), when the op indexes tensors in its body,
  /// or, in the strict mode, when the vectors would run along a reduction
  /// (summed in another order than the scalar loop's).
  LoweringConfigAttr getStreamingConfig(linalg::LinalgOp op) {
    std::optional<int64_t> lanes = getResultLanes(op);
    if (!lanes || linalg::isaContractionOpInterface(op) ||
        linalg::isaConvolutionOpInterface(op))
      return nullptr;
    bool readsInBody = false;
    op->walk([&](tensor::ExtractOp) { readsInBody = true; });
    if (readsInBody)
      return nullptr;
    OpOperand *streamed = op.getDpsInitOperand(0);
    for (OpOperand *input : op.getDpsInputOperands())
      if (op.getMatchingIndexingMap(input).getNumResults() > 0) {
        streamed = input;
        break;
      }
    AffineMap streamedMap = op.getMatchingIndexingMap(streamed);
    if (streamedMap.getNumResults() == 0)
      return nullptr;
    auto inner = dyn_cast<AffineDimExpr>(streamedMap.getResults().back());
    if (!inner)
      return nullptr;
    unsigned loop = inner.getPosition();
    if (strictFp &&
        op.getIteratorTypesArray()[loop] != utils::IteratorType::parallel)
      return nullptr;
    SmallVector<int64_t> extents = op.getStaticLoopRanges();
    // The vector loop walks every operand's innermost dimension that is
    // not a broadcast or of size 1 (a per-row value of a row's tile).
    auto isUnit = [&](AffineExpr expr) {
      auto dim = dyn_cast<AffineDimExpr>(expr);
      return !dim || extents[dim.getPosition()] == 1;
    };
    for (AffineMap map : op.getIndexingMapsArray()) {
      if (!map.isProjectedPermutation(/*allowZeroInResults=*/true))
        return nullptr;
      std::optional<unsigned> position =
          map.getResultPosition(getAffineDimExpr(loop, op.getContext()));
      if (position && extents[loop] != 1 &&
          !llvm::all_of(map.getResults().drop_front(*position + 1), isUnit))
        return nullptr;
    }
    return getRowTileConfig(op, loop, *lanes);
  }

  /// Any other op with a float or integer result whose contiguous
  /// dimension is walked by a parallel loop (a transposed read, a gather in
  /// the payload, a window that no other schedule takes): register tiles of
  /// up to four vectors of result elements along that loop, each one step
  /// of every other loop, reductions included. Null for a reduction into a
  /// scalar or a row of results that no parallel loop walks (or one of a
  /// single element, such as a row op's tile's statistic): such an op
  /// stays one loop nest in its own order, as does an op that reads an
  /// operand through an index that is not increasing
  /// (`hasIncreasingIndexingMaps`).
  LoweringConfigAttr getResultRowConfig(linalg::LinalgOp op) {
    std::optional<int64_t> lanes = getResultLanes(op);
    if (!lanes || op.getNumDpsInits() != 1 || !hasIncreasingIndexingMaps(op))
      return nullptr;
    AffineMap resultMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    if (resultMap.getNumResults() == 0)
      return nullptr;
    auto inner = dyn_cast<AffineDimExpr>(resultMap.getResults().back());
    if (!inner ||
        op.getIteratorTypesArray()[inner.getPosition()] !=
            utils::IteratorType::parallel ||
        op.getStaticLoopRanges()[inner.getPosition()] == 1)
      return nullptr;
    return getRowTileConfig(op, inner.getPosition(), *lanes);
  }

  /// Register tiles of up to four vectors along `loop`, one iteration of
  /// every other loop; thread tiles of the outermost parallel loops, split
  /// into at least 16 tiles in whole register tiles that divide them where
  /// some size does (a dynamic loop in tiles of one register tile each).
  LoweringConfigAttr getRowTileConfig(linalg::LinalgOp op, unsigned loop,
                                      int64_t lanes) {
    SmallVector<int64_t> distribution, vector;
    getRowTiles(op.getStaticLoopRanges(), op.getIteratorTypesArray(), loop,
                lanes, distribution, vector);
    return LoweringConfigAttr::get(op->getContext(), distribution,
                                   SmallVector<int64_t>(distribution.size(), 0),
                                   vector,
                                   /*packed=*/{});
  }

  /// The tiles of getRowTileConfig for loops of `extents`: a step of up to
  /// four vectors along `loop` (of one iteration without it) and of one
  /// iteration of every other loop, and thread tiles of whole steps.
  static void getRowTiles(ArrayRef<int64_t> extents,
                          ArrayRef<utils::IteratorType> iterators,
                          std::optional<unsigned> loop, int64_t lanes,
                          SmallVectorImpl<int64_t> &distribution,
                          SmallVectorImpl<int64_t> &vector) {
    distribution.assign(extents.size(), 0);
    vector.assign(extents.size(), 1);
    if (loop)
      vector[*loop] = getColumnTile(extents[*loop], lanes, kStreamVectors);
    int64_t wanted = kMinThreadTiles;
    for (auto [dim, extent] : llvm::enumerate(extents)) {
      if (wanted <= 1)
        break;
      if (iterators[dim] != utils::IteratorType::parallel)
        continue;
      int64_t step = vector[dim];
      if (ShapedType::isDynamic(extent)) {
        // As many steps as make a tile of kMinParallelIterations /
        // kMinThreadTiles iterations of the other loops (a `?` one counts
        // as large): the tiles of a large `?` loop then cost more than
        // their fork.
        int64_t others = 1;
        for (auto [other, size] : llvm::enumerate(extents))
          if (other != dim)
            others = std::min(others * (ShapedType::isDynamic(size)
                                            ? kMinParallelIterations
                                            : std::max<int64_t>(size, 1)),
                              kMinParallelIterations);
        distribution[dim] =
            step * std::max<int64_t>(1, kMinParallelIterations /
                                            kMinThreadTiles / (others * step));
        break;
      }
      int64_t steps = extent / step;
      if (steps <= 1)
        continue;
      if (steps <= wanted) {
        distribution[dim] = step;
        wanted = llvm::divideCeil(wanted, steps);
        continue;
      }
      int64_t size = step * llvm::divideCeil(steps, wanted);
      int64_t dividing = getDividingTile(extent, size, step, step);
      distribution[dim] = dividing ? dividing : size;
      wanted = 1;
    }
  }

  /// Scans and scatters (rlx.associative_scan, rlx.scatter): their sequential
  /// loops whole, in cache tiles that the decomposition steps through. When
  /// the lines along the sequential loops are contiguous (no loop after the
  /// last sequential one is longer than 1), a cache tile is one line, whose
  /// steps read consecutive elements; else it is up to four vectors of the
  /// innermost loop (one iteration of the other parallel loops), and each
  /// step one vector operation across those lines. Thread tiles as for
  /// rows of elementwise ops, when the op is large enough and not in a loop
  /// that runs in parallel already.
  LoweringConfigAttr getSequentialConfig(TilingInterface op) {
    if (!isa<AssociativeScanOp, ScatterOp>(op))
      return nullptr;
    SmallVector<int64_t> extents = getSequentialLoopRanges(op);
    SmallVector<utils::IteratorType> iterators = op.getLoopIteratorTypes();
    auto sequential = [&](unsigned loop) {
      return iterators[loop] == utils::IteratorType::reduction;
    };
    unsigned inner = extents.size() - 1;
    bool contiguousLines = true;
    for (int64_t loop = inner; loop >= 0 && !sequential(loop); --loop)
      contiguousLines &= extents[loop] == 1;
    Type element =
        cast<ShapedType>(op->getResult(0).getType()).getElementType();
    int64_t lanes =
        std::max<int64_t>(1, vectorBits / element.getIntOrFloatBitWidth());
    SmallVector<int64_t> distribution, cache;
    getRowTiles(extents, iterators,
                contiguousLines ? std::nullopt : std::optional(inner), lanes,
                distribution, cache);
    for (unsigned loop = 0; loop < extents.size(); ++loop)
      if (sequential(loop))
        cache[loop] = 0;
    if (op->getParentOfType<LoopLikeOpInterface>() ||
        getIterationCount(extents) < kMinParallelIterations)
      distribution.assign(extents.size(), 0);
    // An empty loop: nothing to tile, the decomposition leaves the
    // destination as it is.
    if (llvm::is_contained(extents, 0))
      cache.assign(extents.size(), 0);
    return LoweringConfigAttr::get(op->getContext(), distribution, cache,
                                   SmallVector<int64_t>(extents.size(), 0),
                                   /*packed=*/{});
  }

  /// `config` with its thread tiles guarded at run time
  /// (min_parallel_iterations) where `op` has `?` loops, which may make
  /// fewer iterations than are worth a parallel region; not where the tiles
  /// split a reduction (their partial results are merged whatever the
  /// sizes) or the op is a packed matmul.
  static LoweringConfigAttr guardDynamicThreadTiles(linalg::LinalgOp op,
                                                    LoweringConfigAttr config) {
    SmallVector<int64_t> extents = op.getStaticLoopRanges();
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    ArrayRef<int64_t> distribution = config.getDistribution();
    bool split = llvm::any_of(llvm::seq(distribution.size()), [&](size_t i) {
      return distribution[i] != 0 &&
             iterators[i] == utils::IteratorType::reduction;
    });
    // A packed matmul's panels need thread tiles of static columns; its
    // static columns and reduction (long rows of B) make it large anyway.
    if (split || !config.getPacked().empty() ||
        llvm::none_of(extents, ShapedType::isDynamic) ||
        llvm::all_of(distribution, [](int64_t size) { return size == 0; }))
      return config;
    return LoweringConfigAttr::get(op->getContext(), distribution,
                                   config.getCache(), config.getVector(),
                                   config.getPacked(), kMinParallelIterations);
  }

  /// The number of iterations of loops of `extents`, counted up to
  /// kMinParallelIterations only (no overflow; a dynamic size may be
  /// large).
  static int64_t getIterationCount(ArrayRef<int64_t> extents) {
    int64_t iterations = 1;
    for (int64_t extent : extents)
      iterations =
          ShapedType::isDynamic(extent) || extent >= kMinParallelIterations
              ? kMinParallelIterations
              : std::min(iterations * extent, kMinParallelIterations);
    return iterations;
  }

  /// Attention's tiles divide their loop where a size of at least a
  /// quarter of the preferred one does.
  static int64_t getAttentionTile(const Range &range, int64_t preferred) {
    std::optional<int64_t> extent = getConstantIntValue(range.size);
    if (!extent)
      return preferred;
    if (*extent <= preferred)
      return *extent;
    int64_t dividing = getDividingTile(*extent, preferred, 1,
                                       std::max<int64_t>(1, preferred / 4));
    return dividing ? dividing : preferred;
  }

  /// `config` of reduction `op` with its outermost reduction loop that
  /// holds two register tiles or more split into thread tiles, where its
  /// parallel loops give none (a maximum of a whole tensor; float sums over
  /// neighbouring loops are cut into parallel blocks by
  /// rlx-split-reductions before): at least kMinThreadTiles parts of whole
  /// register tiles (dividing the loop where a size down to half does),
  /// each reduced into a partial result of its own that upstream's
  /// `PartialReductionOpInterface` merges after the loop. Only ops whose
  /// every result folds in by one op with a neutral element (what the merge
  /// rebuilds), and, in the strict mode, not float sums or products, which
  /// the merge would add in another order.
  LoweringConfigAttr splitReduction(linalg::LinalgOp op,
                                    LoweringConfigAttr config) {
    ArrayRef<int64_t> distribution = config.getDistribution();
    if (op.getNumReductionLoops() == 0 || op.hasIndexSemantics() ||
        llvm::any_of(distribution, [](int64_t size) { return size != 0; }))
      return config;
    for (unsigned result = 0; result < op.getNumDpsInits(); ++result) {
      SmallVector<Operation *> combiners;
      if (!matchReduction(op.getRegionOutputArgs(), result, combiners) ||
          combiners.size() != 1 || !arith::getNeutralElement(combiners[0]) ||
          (strictFp && isa<arith::AddFOp, arith::MulFOp>(combiners[0])))
        return config;
    }
    SmallVector<int64_t> extents = op.getStaticLoopRanges();
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    ArrayRef<int64_t> vector = config.getVector();
    for (auto [loop, extent] : llvm::enumerate(extents)) {
      int64_t step = std::max<int64_t>(vector[loop], 1);
      if (iterators[loop] != utils::IteratorType::reduction ||
          ShapedType::isDynamic(extent) || extent / step < 2)
        continue;
      int64_t size = step * llvm::divideCeil(extent / step, kMinThreadTiles);
      int64_t dividing =
          getDividingTile(extent, size, step, std::max(step, size / 2));
      SmallVector<int64_t> split(distribution);
      split[loop] = dividing ? dividing : size;
      return LoweringConfigAttr::get(op->getContext(), split, config.getCache(),
                                     vector, config.getPacked());
    }
    return config;
  }

  void runOnOperation() override {
    if (vectorBits < 32 || vectorBits % 32 != 0) {
      getOperation().emitError()
          << "rlx-cpu-select-lowering-config: vector-bits must be a positive "
             "multiple of 32, got "
          << vectorBits.getValue();
      return signalPassFailure();
    }
    if (attentionQueryTile <= 0 || attentionKeyTile <= 0) {
      getOperation().emitError()
          << "rlx-cpu-select-lowering-config: attention tile sizes must be "
             "positive, got "
          << attentionQueryTile.getValue() << " queries and "
          << attentionKeyTile.getValue() << " keys";
      return signalPassFailure();
    }
    getOperation().walk([&](Operation *op) {
      if (op->hasAttr(LoweringConfigAttr::kAttrName))
        return;
      LoweringConfigAttr config = getAttentionConfig(
          op, attentionQueryTile, attentionKeyTile, getAttentionTile);
      config = splitAttentionKeys(op, config, kMinThreadTiles, kMinSplitKeys);
      // Rows in a parallel loop already (a conversion's), or too few to
      // share, are a loop on the calling thread.
      if (auto rows = dyn_cast<RowsOp>(op)) {
        SmallVector<int64_t> shape = rows.getIterationShape();
        bool distribute = !op->getParentOfType<LoopLikeOpInterface>() &&
                          getIterationCount(shape) >= kMinParallelIterations;
        config = getRowsConfig(op, distribute);
        // `?` rows may be few: the thread tiles are guarded at run time,
        // and cache tiles of one row step through the rows of a small
        // op's single thread tile.
        if (distribute && llvm::any_of(shape, ShapedType::isDynamic))
          config = LoweringConfigAttr::get(
              op->getContext(), config.getDistribution(),
              config.getDistribution(), config.getVector(), /*packed=*/{},
              kMinParallelIterations);
      }
      if (auto tileable = dyn_cast<TilingInterface>(op); tileable && !config)
        config = getSequentialConfig(tileable);
      if (config)
        op->setAttr(LoweringConfigAttr::kAttrName, config);
    });
    // An op without iterations (an empty dimension) has nothing to tile.
    getOperation().walk([&](linalg::LinalgOp op) {
      if (op->hasAttr(LoweringConfigAttr::kAttrName) ||
          !op.hasPureTensorSemantics() ||
          llvm::is_contained(op.getStaticLoopRanges(), 0))
        return;
      // Ops in loops that a conversion made (rows, attention's blocks)
      // already run in parallel where their loops do, and small ops run on
      // the calling thread: they get cache and register tiles only.
      bool inLoop = op->getParentOfType<LoopLikeOpInterface>() != nullptr;
      LoweringConfigAttr config = getContractionConfig(op);
      if (!config)
        config = getConvolutionConfig(op);
      if (!config)
        config = getStreamingConfig(op);
      if (!config)
        config = getResultRowConfig(op);
      if (!config)
        return;
      if (inLoop ||
          getIterationCount(op.getStaticLoopRanges()) < kMinParallelIterations)
        config = LoweringConfigAttr::get(
            op->getContext(),
            SmallVector<int64_t>(config.getDistribution().size(), 0),
            config.getCache(), config.getVector(), config.getPacked());
      else
        config = guardDynamicThreadTiles(op, splitReduction(op, config));
      op->setAttr(LoweringConfigAttr::kAttrName, config);
    });
  }
};
} // namespace
