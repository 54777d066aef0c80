//===- TileContractions.cpp - Matmuls tiled through workgroup memory ------===//
//
// rlx-gpu-tile-contractions rewrites a float contraction C(b, m, n) +=
// A(b, m, k) * B(b, k, n) - a matmul, or a convolution as an implicit GEMM
// whose B tile is gathered from the image - into the classic shared-memory
// kernel, written with ordinary loops and buffers:
//
//   scf.forall (b, bm, bn) [#gpu.block<z, y, x>]       one block per C tile
//     A, B tiles: memref.alloc in workgroup memory
//     scf.for k0 step tile-k
//       scf.forall (ty, tx) [#gpu.thread<y, x>]       copy the A tile
//       scf.forall (ty, tx) [#gpu.thread<y, x>]       copy the B tile
//       scf.forall (ty, tx) [#gpu.thread<y, x>]       per-thread micro-tile
//
// With tensor cores (f16 or bf16), the third loop runs over warps, each
// contracting 16x8x16 tiles (vector.contract).
//
// Sibling thread loops never overlap: on the GPU the mapping inserts a
// barrier after each one, and on a CPU they run one after the other, so the
// same IR can be executed on the CPU to test the tiling.
//
// rlx-gpu-map-foralls turns such a block loop into a gpu.launch with
// upstream's thread mapping and mma.sync conversion (which bf16 goes
// through as f16 views of its tiles), and keeps each thread's accumulators
// in registers across the k loop.
//
//===----------------------------------------------------------------------===//
#include "rlx/Gpu/Passes.h"

#include "mlir/Conversion/VectorToGPU/VectorToGPU.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/TransformOps/GPUTransformOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Iterators.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXGPUTILECONTRACTIONS
#define GEN_PASS_DEF_RLXGPUMAPFORALLS
#include "rlx/Gpu/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;

namespace {
/// A contraction C(b, m, n) += A(b, m, k) * B(b, k, n) over float buffers
/// with static shapes, where b, m, n and k are groups of loop dimensions:
/// a matmul (one dimension each), or a convolution as an implicit GEMM
/// (b: batch and depth, m: output channels, n: output image, k: input
/// channels and filter window; A is the filter, B the input).
struct Matmul {
  // An op handle: using it does not modify the matmul description.
  mutable linalg::LinalgOp op;
  // The operands with the m and the n dimensions.
  OpOperand *lhs, *rhs;
  // Loop dimensions, b, m and n in C's order.
  SmallVector<unsigned> batchDims, mDims, nDims, kDims;
  SmallVector<int64_t> loopSizes;
  FloatType accType;

  int64_t getSize(ArrayRef<unsigned> dims) const {
    int64_t size = 1;
    for (unsigned dim : dims)
      size *= loopSizes[dim];
    return size;
  }
  SmallVector<int64_t> getSizes(ArrayRef<unsigned> dims) const {
    return llvm::map_to_vector(dims,
                               [&](unsigned dim) { return loopSizes[dim]; });
  }
};

/// Tile sizes and the thread grid they imply.
struct Tiling {
  int64_t tileM, tileN, tileK, threadTileM, threadTileN;
  bool workgroupMemory, tensorCores;
  int64_t threadsY() const { return tileM / threadTileM; }
  int64_t threadsX() const { return tileN / threadTileN; }
  int64_t threads() const { return threadsY() * threadsX(); }
};

/// The tensor-core kernel's layout: a 2x2 grid of warps, each computing a
/// (tile-m / 2) x (tile-n / 2) part of C as m16n8k16 mma tiles.
constexpr int64_t kWarpsY = 2, kWarpsX = 2, kThreadsPerWarp = 32;
constexpr int64_t kMmaM = 16, kMmaN = 8, kMmaK = 16;
/// The alignment of the tile buffers, in bytes.
constexpr uint64_t kTileAlignment = 16;
} // namespace

/// `value` through an optional arith.extf, when it is block argument `arg`.
static bool isExtendedArg(Value value, BlockArgument arg) {
  if (auto ext = value.getDefiningOp<arith::ExtFOp>())
    value = ext.getIn();
  return value == arg;
}

/// Whether `op`'s body is `out + ext(a) * ext(b)` with the product and the
/// sum in the output's type, the only computation this kernel implements.
static bool isMulAddBody(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  auto add = yield.getValues()[0].getDefiningOp<arith::AddFOp>();
  if (!add)
    return false;
  BlockArgument a = body->getArgument(0), b = body->getArgument(1),
                out = body->getArgument(2);
  Value product = add.getLhs() == out ? add.getRhs() : add.getLhs();
  if (add.getLhs() != out && add.getRhs() != out)
    return false;
  auto mul = product.getDefiningOp<arith::MulFOp>();
  if (!mul || mul.getType() != out.getType())
    return false;
  return (isExtendedArg(mul.getLhs(), a) && isExtendedArg(mul.getRhs(), b)) ||
         (isExtendedArg(mul.getLhs(), b) && isExtendedArg(mul.getRhs(), a));
}

static std::optional<Matmul> matchMatmul(linalg::LinalgOp op) {
  // Only ops of the function body become kernels of their own (not the
  // ops of a row loop), and a kernel must not write an operand it reads.
  if (!isa<func::FuncOp>(op->getParentOp()) || !op.hasPureBufferSemantics() ||
      op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      op.hasDynamicShape() ||
      llvm::is_contained(op.getDpsInputs(), op.getDpsInits()[0]))
    return std::nullopt;
  // Empty loops are left to rlx-map-to-gpu, which drops them.
  if (llvm::is_contained(op.getStaticLoopRanges(), 0))
    return std::nullopt;
  auto accType = dyn_cast<FloatType>(
      getElementTypeOrSelf(op.getDpsInitOperand(0)->get().getType()));
  if (!accType || !isMulAddBody(op))
    return std::nullopt;

  // Loop dimensions of the output and of the first (second) input only,
  // of all three, and reduced.
  SmallVector<unsigned> firstDims, secondDims, batchDims, kDims;
  if (linalg::isaContractionOpInterface(op)) {
    FailureOr<linalg::ContractionDimensions> dims =
        linalg::inferContractionDims(op);
    if (failed(dims))
      return std::nullopt;
    firstDims.assign(dims->m.begin(), dims->m.end());
    secondDims.assign(dims->n.begin(), dims->n.end());
    batchDims.assign(dims->batch.begin(), dims->batch.end());
    kDims.assign(dims->k.begin(), dims->k.end());
  } else if (linalg::isaConvolutionOpInterface(op)) {
    FailureOr<linalg::ConvolutionDimensions> dims =
        linalg::inferConvolutionDims(op);
    if (failed(dims))
      return std::nullopt;
    // The image's batch is a batch of the GEMM even though the filter does
    // not use it.
    firstDims.assign(dims->outputImage.begin(), dims->outputImage.end());
    secondDims.assign(dims->outputChannel.begin(), dims->outputChannel.end());
    batchDims.assign(dims->batch.begin(), dims->batch.end());
    llvm::append_range(batchDims, dims->depth);
    kDims.assign(dims->inputChannel.begin(), dims->inputChannel.end());
    llvm::append_range(kDims, dims->filterLoop);
  } else {
    return std::nullopt;
  }
  if (firstDims.empty() || secondDims.empty() || kDims.empty() ||
      firstDims.size() + secondDims.size() + batchDims.size() +
              kDims.size() !=
          op.getNumLoops())
    return std::nullopt;

  // C must be (b..., m..., n...): the batch dimensions, then one group of
  // free dimensions, then the other (n, whose rows the threads read and
  // write as vectors).
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (!outMap.isProjectedPermutation(/*allowZeroInResults=*/false))
    return std::nullopt;
  SmallVector<unsigned> outDims = llvm::map_to_vector(
      outMap.getResults(), [](AffineExpr expr) {
        return cast<AffineDimExpr>(expr).getPosition();
      });
  auto isGroup = [](ArrayRef<unsigned> dims, ArrayRef<unsigned> group) {
    return dims.size() == group.size() &&
           llvm::all_of(dims, [&](unsigned dim) {
             return llvm::is_contained(group, dim);
           });
  };
  ArrayRef<unsigned> outRef = outDims;
  ArrayRef<unsigned> batch = outRef.take_front(batchDims.size());
  ArrayRef<unsigned> free = outRef.drop_front(batchDims.size());
  if (!isGroup(batch, batchDims))
    return std::nullopt;
  Matmul matmul{op, nullptr, nullptr, llvm::to_vector(batch), {}, {}, kDims,
                op.getStaticLoopRanges(), accType};
  for (auto [m, n, lhs, rhs] :
       {std::make_tuple(&firstDims, &secondDims, 0, 1),
        std::make_tuple(&secondDims, &firstDims, 1, 0)}) {
    if (isGroup(free.take_front(m->size()), *m) &&
        isGroup(free.drop_front(m->size()), *n)) {
      matmul.mDims = llvm::to_vector(free.take_front(m->size()));
      matmul.nDims = llvm::to_vector(free.drop_front(m->size()));
      matmul.lhs = op.getDpsInputOperand(lhs);
      matmul.rhs = op.getDpsInputOperand(rhs);
      break;
    }
  }
  if (!matmul.lhs)
    return std::nullopt;
  // C is read as a (b, m, n) view: collapsing its dimensions needs an
  // identity layout.
  auto cType = cast<MemRefType>(op.getDpsInitOperand(0)->get().getType());
  if (cType.getRank() != (batchDims.empty() ? 2 : 3) &&
      !cType.getLayout().isIdentity())
    return std::nullopt;
  return matmul;
}

static Value constantIndex(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

/// The indices of `operand` at the loop position `loopIndices`.
static SmallVector<Value> getOperandIndices(OpBuilder &b, Location loc,
                                            linalg::LinalgOp op,
                                            OpOperand *operand,
                                            ArrayRef<Value> loopIndices) {
  AffineMap map = op.getMatchingIndexingMap(operand);
  return llvm::map_to_vector(map.getResults(), [&](AffineExpr expr) -> Value {
    if (auto dim = dyn_cast<AffineDimExpr>(expr))
      return loopIndices[dim.getPosition()];
    return affine::AffineApplyOp::create(
        b, loc, AffineMap::get(map.getNumDims(), 0, expr), loopIndices);
  });
}

/// Sets the indices of `dims` in `loopIndices` from `linear`, their
/// row-major linearization.
static void delinearizeInto(OpBuilder &b, Location loc, Value linear,
                            const Matmul &matmul, ArrayRef<unsigned> dims,
                            SmallVectorImpl<Value> &loopIndices) {
  for (unsigned dim : llvm::reverse(dims.drop_front())) {
    Value size = constantIndex(b, loc, matmul.loopSizes[dim]);
    loopIndices[dim] = arith::RemUIOp::create(b, loc, linear, size);
    linear = arith::DivUIOp::create(b, loc, linear, size);
  }
  loopIndices[dims.front()] = linear;
}

/// An scf.forall over a `sizeY` x `sizeX` grid of threads, mapped to their
/// y and x ids.
static scf::ForallOp
createThreadLoop(OpBuilder &b, Location loc, int64_t sizeY, int64_t sizeX,
                 function_ref<void(OpBuilder &, Location, Value, Value)> body) {
  MLIRContext *context = b.getContext();
  ArrayAttr mapping = b.getArrayAttr(
      {gpu::GPUThreadMappingAttr::get(context, gpu::MappingId::DimY),
       gpu::GPUThreadMappingAttr::get(context, gpu::MappingId::DimX)});
  return scf::ForallOp::create(
      b, loc,
      ArrayRef<OpFoldResult>{b.getIndexAttr(sizeY), b.getIndexAttr(sizeX)},
      ValueRange(), mapping,
      [&](OpBuilder &nested, Location loc, ValueRange ivs) {
        body(nested, loc, ivs[0], ivs[1]);
        scf::InParallelOp::create(nested, loc);
      });
}

/// The threads of a block of `matmul`'s kernel, as a (y, x) grid.
static std::pair<int64_t, int64_t> getThreadGrid(const Tiling &tiling,
                                                 bool tensorCores) {
  if (tensorCores)
    return {1, kWarpsY * kWarpsX * kThreadsPerWarp};
  return {tiling.threadsY(), tiling.threadsX()};
}

/// Copies the `rows` x `cols` tile of `operand` at (`rowStart`,
/// `colStart`) in the linearized loop dimensions `rowDims` x `colDims`, of
/// batch `batch`, into `tile` (transposed when `transpose`), with zeros
/// past the bounds. Consecutive threads copy consecutive columns.
static void copyTile(OpBuilder &b, Location loc, const Matmul &matmul,
                     std::pair<int64_t, int64_t> threadGrid,
                     OpOperand *operand, Value tile, Value batch,
                     ArrayRef<unsigned> rowDims, ArrayRef<unsigned> colDims,
                     Value rowStart, Value colStart, int64_t rows,
                     int64_t cols, bool transpose) {
  int64_t threadsY = threadGrid.first, threadsX = threadGrid.second;
  createThreadLoop(
      b, loc, threadsY, threadsX,
      [&](OpBuilder &b, Location loc, Value ty, Value tx) {
    Value threadsXValue = constantIndex(b, loc, threadsX);
    Value thread = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, ty, threadsXValue), tx);
    Value colsValue = constantIndex(b, loc, cols);
    scf::ForOp::create(
        b, loc, thread, constantIndex(b, loc, rows * cols),
        constantIndex(b, loc, threadsY * threadsX), ValueRange(),
        [&](OpBuilder &b, Location loc, Value element, ValueRange) {
          Value row = arith::DivUIOp::create(b, loc, element, colsValue);
          Value col = arith::RemUIOp::create(b, loc, element, colsValue);
          Value rowIndex = arith::AddIOp::create(b, loc, rowStart, row);
          Value colIndex = arith::AddIOp::create(b, loc, colStart, col);
          auto inBounds = [&](Value index, ArrayRef<unsigned> dims) {
            return arith::CmpIOp::create(
                b, loc, arith::CmpIPredicate::ult, index,
                constantIndex(b, loc, matmul.getSize(dims)));
          };
          Value valid =
              arith::AndIOp::create(b, loc, inBounds(rowIndex, rowDims),
                                    inBounds(colIndex, colDims));
          Type elementType = getElementTypeOrSelf(operand->get().getType());
          auto load = scf::IfOp::create(
              b, loc, valid,
              [&](OpBuilder &b, Location loc) {
                // Dimensions the operand does not use are never read.
                SmallVector<Value> loopIndices(matmul.loopSizes.size(),
                                               constantIndex(b, loc, 0));
                if (batch)
                  delinearizeInto(b, loc, batch, matmul, matmul.batchDims,
                                  loopIndices);
                delinearizeInto(b, loc, rowIndex, matmul, rowDims, loopIndices);
                delinearizeInto(b, loc, colIndex, matmul, colDims, loopIndices);
                Value value = memref::LoadOp::create(
                    b, loc, operand->get(),
                    getOperandIndices(b, loc, matmul.op, operand, loopIndices));
                scf::YieldOp::create(b, loc, value);
              },
              [&](OpBuilder &b, Location loc) {
                scf::YieldOp::create(
                    b, loc,
                    arith::ConstantOp::create(b, loc,
                                              b.getZeroAttr(elementType))
                        .getResult());
              });
          SmallVector<Value> tileIndices =
              transpose ? SmallVector<Value>{col, row}
                        : SmallVector<Value>{row, col};
          memref::StoreOp::create(b, loc, load.getResult(0), tile,
                                  tileIndices);
          scf::YieldOp::create(b, loc);
        });
  });
}

/// The alignment of a `type` vector at a multiple of its size in a tile
/// buffer: tiles are 16-byte aligned (memref.alloc's alignment, and
/// rlx-gpu-align-workgroup-memory once they are workgroup attributions).
static llvm::MaybeAlign getVectorAlignment(VectorType type) {
  uint64_t bytes =
      type.getNumElements() * type.getElementType().getIntOrFloatBitWidth() / 8;
  return llvm::Align(std::min<uint64_t>(kTileAlignment, bytes & -bytes));
}

/// `value` (a vector of the operand's elements) in the accumulator type.
static Value extendTo(OpBuilder &b, Location loc, Value value,
                      FloatType accType) {
  auto type = cast<VectorType>(value.getType());
  if (type.getElementType() == accType)
    return value;
  return arith::ExtFOp::create(b, loc, type.clone(accType), value);
}

/// Each thread's threadTileM x threadTileN micro-tile of C: its rows are
/// read once, accumulated over the k tile from the workgroup tiles (A's
/// column, B's row: an outer product per k), and written back. Rows past M
/// and columns past N are masked off.
static void computeMicroTiles(OpBuilder &b, Location loc, const Matmul &matmul,
                              const Tiling &tiling, Value c, Value aTile,
                              Value bTile, Value batch, Value m0, Value n0) {
  createThreadLoop(
      b, loc, tiling.threadsY(), tiling.threadsX(),
      [&](OpBuilder &b, Location loc, Value ty, Value tx) {
    auto rowVectorType = VectorType::get({tiling.threadTileN}, matmul.accType);
    int64_t sizeM = matmul.getSize(matmul.mDims);
    int64_t sizeN = matmul.getSize(matmul.nDims);
    Value tileRow = arith::MulIOp::create(
        b, loc, ty, constantIndex(b, loc, tiling.threadTileM));
    Value tileCol = arith::MulIOp::create(
        b, loc, tx, constantIndex(b, loc, tiling.threadTileN));
    Value col = arith::AddIOp::create(b, loc, n0, tileCol);
    // Columns left in C from `col`, clamped to the row vector by the mask.
    Value colsLeft = arith::SubIOp::create(
        b, loc, constantIndex(b, loc, sizeN), col);
    Value lanes = arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(
            VectorType::get({tiling.threadTileN}, b.getIndexType()),
            llvm::map_to_vector(llvm::seq<int64_t>(0, tiling.threadTileN),
                                [&](int64_t lane) -> Attribute {
                                  return b.getIndexAttr(lane);
                                })));
    Value zeroCount = constantIndex(b, loc, 0);
    Value lastRow = constantIndex(b, loc, sizeM - 1);
    Value zeros = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(rowVectorType,
                                       b.getZeroAttr(matmul.accType)));

    SmallVector<SmallVector<Value>> rowIndices;
    SmallVector<Value> masks, accumulators;
    for (int64_t i = 0; i < tiling.threadTileM; ++i) {
      Value row = arith::AddIOp::create(
          b, loc, m0,
          arith::AddIOp::create(b, loc, tileRow, constantIndex(b, loc, i)));
      Value rowValid = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ult, row,
          constantIndex(b, loc, sizeM));
      Value count =
          arith::SelectOp::create(b, loc, rowValid, colsLeft, zeroCount);
      masks.push_back(arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::slt, lanes,
          vector::BroadcastOp::create(
              b, loc, VectorType::get({tiling.threadTileN}, b.getIndexType()),
              count)));
      // A row past M is fully masked; its index is clamped to C's last row.
      SmallVector<Value> indices = {
          arith::MinUIOp::create(b, loc, row, lastRow), col};
      if (batch)
        indices.insert(indices.begin(), batch);
      accumulators.push_back(vector::MaskedLoadOp::create(
          b, loc, rowVectorType, c, indices, masks.back(), zeros));
      rowIndices.push_back(std::move(indices));
    }

    auto kLoop = scf::ForOp::create(
        b, loc, constantIndex(b, loc, 0), constantIndex(b, loc, tiling.tileK),
        constantIndex(b, loc, 1), accumulators,
        [&](OpBuilder &b, Location loc, Value k, ValueRange rows) {
          // The thread's A column and B row at k, contiguous in the tiles.
          auto loadVector = [&](Value tile, Value index, int64_t size) {
            auto type =
                VectorType::get(size, getElementTypeOrSelf(tile.getType()));
            return vector::LoadOp::create(
                b, loc, type, tile, {k, index}, /*nontemporal=*/false,
                getVectorAlignment(type));
          };
          Value bRow = extendTo(b, loc,
                                loadVector(bTile, tileCol, tiling.threadTileN),
                                matmul.accType);
          Value aColumn = extendTo(
              b, loc, loadVector(aTile, tileRow, tiling.threadTileM),
              matmul.accType);
          SmallVector<Value> updated;
          for (auto [i, acc] : llvm::enumerate(rows)) {
            Value a = vector::ExtractOp::create(b, loc, aColumn,
                                                static_cast<int64_t>(i));
            Value product = arith::MulFOp::create(
                b, loc, vector::BroadcastOp::create(b, loc, rowVectorType, a),
                bRow);
            updated.push_back(arith::AddFOp::create(b, loc, acc, product));
          }
          scf::YieldOp::create(b, loc, updated);
        });
    for (auto [i, acc] : llvm::enumerate(kLoop.getResults()))
      vector::MaskedStoreOp::create(b, loc, c, rowIndices[i], masks[i], acc);
  });
}

/// Each warp's part of the C tile as m16n8k16 tensor-core tiles: the
/// accumulators are read from C, each k step of 16 contracts an A and a B
/// tile from workgroup memory into them (vector.contract, f16 or bf16
/// operands and f32 accumulators, which rlx-gpu-map-foralls turns into
/// ldmatrix and mma.sync), and they are written back. C's tiles
/// are whole: this kernel is only used when they divide C.
static void computeMmaTiles(OpBuilder &b, Location loc, const Matmul &matmul,
                            const Tiling &tiling, Value c, Value aTile,
                            Value bTile, Value batch, Value m0, Value n0) {
  int64_t warpTileM = tiling.tileM / kWarpsY;
  int64_t warpTileN = tiling.tileN / kWarpsX;
  MLIRContext *context = b.getContext();
  // The warps of a block are numbered along x (upstream's warp mapping
  // divides the x threads by the warp size); the 2x2 grid is recovered from
  // the warp's number.
  scf::ForallOp::create(
      b, loc, ArrayRef<OpFoldResult>{b.getIndexAttr(kWarpsY * kWarpsX)},
      ValueRange(),
      b.getArrayAttr(
          {gpu::GPUWarpMappingAttr::get(context, gpu::MappingId::DimX)}),
      [&](OpBuilder &b, Location loc, ValueRange ivs) {
    // Index arithmetic is affine.apply: upstream's mma.sync conversion
    // mistakes scalar arith ops for elementwise ops of its matrices.
    AffineExpr d0, d1;
    bindDims(context, d0, d1);
    auto apply = [&](AffineExpr expr, ValueRange operands) -> Value {
      return affine::AffineApplyOp::create(
          b, loc, AffineMap::get(operands.size(), 0, expr), operands);
    };
    Value wy = apply(d0.floorDiv(kWarpsX), ivs[0]);
    Value wx = apply(d0 % kWarpsX, ivs[0]);
    Type inputType = getElementTypeOrSelf(aTile.getType());
    auto aType = VectorType::get({kMmaM, kMmaK}, inputType);
    auto bType = VectorType::get({kMmaK, kMmaN}, inputType);
    auto accType = VectorType::get({kMmaM, kMmaN}, matmul.accType);
    Value inputZero =
        arith::ConstantOp::create(b, loc, b.getZeroAttr(inputType));
    Value accZero =
        arith::ConstantOp::create(b, loc, b.getZeroAttr(matmul.accType));
    SmallVector<bool> inBounds = {true, true};
    // base + warp * warpTile + i * size.
    auto offset = [&](Value base, Value warp, int64_t warpTile, int64_t i,
                      int64_t size) -> Value {
      return apply(d0 + d1 * warpTile + i * size, {base, warp});
    };
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    int64_t tilesM = warpTileM / kMmaM, tilesN = warpTileN / kMmaN;

    SmallVector<SmallVector<Value>> accIndices;
    SmallVector<Value> accumulators;
    for (int64_t i = 0; i < tilesM; ++i) {
      for (int64_t j = 0; j < tilesN; ++j) {
        SmallVector<Value> indices = {offset(m0, wy, warpTileM, i, kMmaM),
                                      offset(n0, wx, warpTileN, j, kMmaN)};
        if (batch)
          indices.insert(indices.begin(), batch);
        accumulators.push_back(vector::TransferReadOp::create(
            b, loc, accType, c, indices, accZero, inBounds));
        accIndices.push_back(std::move(indices));
      }
    }
    AffineExpr m, n, k;
    bindDims(context, m, n, k);
    ArrayAttr maps = b.getAffineMapArrayAttr(AffineMap::inferFromExprList(
        ArrayRef<ArrayRef<AffineExpr>>{{m, k}, {k, n}, {m, n}}, context));
    ArrayAttr iterators = b.getArrayAttr(
        {vector::IteratorTypeAttr::get(context, vector::IteratorType::parallel),
         vector::IteratorTypeAttr::get(context, vector::IteratorType::parallel),
         vector::IteratorTypeAttr::get(context,
                                       vector::IteratorType::reduction)});
    for (int64_t kk = 0; kk < tiling.tileK; kk += kMmaK) {
      Value kOffset = arith::ConstantIndexOp::create(b, loc, kk);
      SmallVector<Value> aTiles, bTiles;
      for (int64_t i = 0; i < tilesM; ++i)
        aTiles.push_back(vector::TransferReadOp::create(
            b, loc, aType, aTile,
            {offset(zero, wy, warpTileM, i, kMmaM), kOffset}, inputZero,
            inBounds));
      for (int64_t j = 0; j < tilesN; ++j)
        bTiles.push_back(vector::TransferReadOp::create(
            b, loc, bType, bTile,
            {kOffset, offset(zero, wx, warpTileN, j, kMmaN)}, inputZero,
            inBounds));
      for (int64_t i = 0; i < tilesM; ++i)
        for (int64_t j = 0; j < tilesN; ++j) {
          Value &acc = accumulators[i * tilesN + j];
          acc = vector::ContractionOp::create(b, loc, aTiles[i], bTiles[j],
                                              acc, maps, iterators);
        }
    }
    for (auto [acc, indices] : llvm::zip(accumulators, accIndices))
      vector::TransferWriteOp::create(b, loc, acc, c, indices, inBounds);
    scf::InParallelOp::create(b, loc);
  });
}

/// Whether `matmul` runs on tensor cores: f16 or bf16 operands (both the
/// same), an f32 accumulator, and C tiles that divide C (the mma tiles read
/// and write C without masks).
static bool usesTensorCores(const Matmul &matmul, const Tiling &tiling) {
  Type lhs = getElementTypeOrSelf(matmul.lhs->get().getType());
  Type rhs = getElementTypeOrSelf(matmul.rhs->get().getType());
  return tiling.tensorCores && lhs == rhs && (lhs.isF16() || lhs.isBF16()) &&
         matmul.accType.isF32() &&
         matmul.getSize(matmul.mDims) % tiling.tileM == 0 &&
         matmul.getSize(matmul.nDims) % tiling.tileN == 0;
}

/// Replaces `matmul.op` by the tiled kernel.
static void tileMatmul(RewriterBase &rewriter, const Matmul &matmul,
                       const Tiling &tiling) {
  linalg::LinalgOp op = matmul.op;
  Location loc = op.getLoc();
  MLIRContext *context = rewriter.getContext();
  rewriter.setInsertionPoint(op);
  int64_t sizeM = matmul.getSize(matmul.mDims);
  int64_t sizeN = matmul.getSize(matmul.nDims);
  int64_t sizeK = matmul.getSize(matmul.kDims);

  SmallVector<OpFoldResult> gridSizes = {
      rewriter.getIndexAttr(llvm::divideCeil(sizeM, tiling.tileM)),
      rewriter.getIndexAttr(llvm::divideCeil(sizeN, tiling.tileN))};
  SmallVector<Attribute> gridMapping = {
      gpu::GPUBlockMappingAttr::get(context, gpu::MappingId::DimY),
      gpu::GPUBlockMappingAttr::get(context, gpu::MappingId::DimX)};
  bool batched = !matmul.batchDims.empty();
  if (batched) {
    gridSizes.insert(gridSizes.begin(),
                     rewriter.getIndexAttr(matmul.getSize(matmul.batchDims)));
    gridMapping.insert(gridMapping.begin(), gpu::GPUBlockMappingAttr::get(
                                                context, gpu::MappingId::DimZ));
  }
  // C as (b, m, n), each group collapsed to one dimension.
  Value c = op.getDpsInitOperand(0)->get();
  int64_t viewRank = batched ? 3 : 2;
  if (cast<MemRefType>(c.getType()).getRank() != viewRank) {
    SmallVector<ReassociationIndices> groups;
    int64_t next = 0;
    for (size_t size : {matmul.batchDims.size(), matmul.mDims.size(),
                        matmul.nDims.size()}) {
      if (!size)
        continue;
      groups.push_back(llvm::to_vector(llvm::seq<int64_t>(next, next + size)));
      next += size;
    }
    c = memref::CollapseShapeOp::create(rewriter, loc, c, groups);
  }
  Attribute memorySpace;
  if (tiling.workgroupMemory)
    memorySpace = gpu::AddressSpaceAttr::get(
        context, gpu::GPUDialect::getWorkgroupAddressSpace());
  auto tileType = [&](OpOperand *operand, int64_t cols) {
    return MemRefType::get({tiling.tileK, cols},
                           getElementTypeOrSelf(operand->get().getType()),
                           MemRefLayoutAttrInterface(), memorySpace);
  };
  OpOperand *lhs = matmul.lhs, *rhs = matmul.rhs;
  bool tensorCores = usesTensorCores(matmul, tiling);
  std::pair<int64_t, int64_t> threadGrid = getThreadGrid(tiling, tensorCores);
  // The SIMT kernel stores A transposed, k-major like B, so that a thread
  // reads its rows of A at one k contiguously; ldmatrix wants A m-major.
  MemRefType aTileType =
      tensorCores ? MemRefType::get({tiling.tileM, tiling.tileK},
                                    getElementTypeOrSelf(lhs->get().getType()),
                                    MemRefLayoutAttrInterface(), memorySpace)
                  : tileType(lhs, tiling.tileM);

  scf::ForallOp::create(
      rewriter, loc, gridSizes, ValueRange(),
      rewriter.getArrayAttr(gridMapping),
      [&](OpBuilder &b, Location loc, ValueRange ids) {
        Value batch = batched ? ids.front() : Value();
        ValueRange tileIds = ids.take_back(2);
        Value m0 = arith::MulIOp::create(b, loc, tileIds[0],
                                         constantIndex(b, loc, tiling.tileM));
        Value n0 = arith::MulIOp::create(b, loc, tileIds[1],
                                         constantIndex(b, loc, tiling.tileN));
        IntegerAttr alignment = b.getI64IntegerAttr(kTileAlignment);
        Value aTile =
            memref::AllocOp::create(b, loc, aTileType, ValueRange(), alignment);
        Value bTile = memref::AllocOp::create(
            b, loc, tileType(rhs, tiling.tileN), ValueRange(), alignment);
        scf::ForOp::create(
            b, loc, constantIndex(b, loc, 0), constantIndex(b, loc, sizeK),
            constantIndex(b, loc, tiling.tileK), ValueRange(),
            [&](OpBuilder &b, Location loc, Value k0, ValueRange) {
              copyTile(b, loc, matmul, threadGrid, lhs, aTile, batch,
                       matmul.mDims, matmul.kDims, m0, k0, tiling.tileM,
                       tiling.tileK, /*transpose=*/!tensorCores);
              copyTile(b, loc, matmul, threadGrid, rhs, bTile, batch,
                       matmul.kDims, matmul.nDims, k0, n0, tiling.tileK,
                       tiling.tileN, /*transpose=*/false);
              if (tensorCores)
                computeMmaTiles(b, loc, matmul, tiling, c, aTile, bTile, batch,
                                m0, n0);
              else
                computeMicroTiles(b, loc, matmul, tiling, c, aTile, bTile,
                                  batch, m0, n0);
              scf::YieldOp::create(b, loc);
            });
        memref::DeallocOp::create(b, loc, aTile);
        memref::DeallocOp::create(b, loc, bTile);
        scf::InParallelOp::create(b, loc);
      });
  rewriter.eraseOp(op);
}

namespace {
struct RlxGpuTileContractionsPass
    : rlx::impl::RlxGpuTileContractionsBase<RlxGpuTileContractionsPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    Tiling tiling{tileM,       tileN,           tileK,      threadTileM,
                  threadTileN, workgroupMemory, tensorCores};
    if (tileM <= 0 || tileN <= 0 || tileK <= 0 || threadTileM <= 0 ||
        threadTileN <= 0 || tileM % threadTileM || tileN % threadTileN) {
      func.emitError("tile sizes must be positive and tile-m (tile-n) a "
                     "multiple of thread-tile-m (thread-tile-n)");
      return signalPassFailure();
    }
    if (tiling.threads() > kMaxThreadsPerBlock) {
      func.emitError() << "tiles need " << tiling.threads()
                       << " threads per block, more than "
                       << kMaxThreadsPerBlock;
      return signalPassFailure();
    }
    if (tensorCores &&
        (tileM % (kWarpsY * kMmaM) || tileN % (kWarpsX * kMmaN) ||
         tileK % kMmaK)) {
      func.emitError() << "tensor cores need tile-m, tile-n and tile-k "
                          "multiples of "
                       << kWarpsY * kMmaM << ", " << kWarpsX * kMmaN
                       << " and " << kMmaK;
      return signalPassFailure();
    }
    std::vector<Matmul> matmuls;
    func.walk([&](linalg::LinalgOp op) {
      if (std::optional<Matmul> matmul = matchMatmul(op))
        matmuls.push_back(*matmul);
    });
    IRRewriter rewriter(&getContext());
    for (const Matmul &matmul : matmuls) {
      auto bits = [](OpOperand *operand) {
        return getElementTypeOrSelf(operand->get().getType())
            .getIntOrFloatBitWidth();
      };
      int64_t bytes =
          tileK * (tileM * bits(matmul.lhs) + tileN * bits(matmul.rhs)) / 8;
      if (bytes > kMaxWorkgroupBytes) {
        matmul.op.emitError() << "tiles need " << bytes
                              << " bytes of workgroup memory, more than "
                              << kMaxWorkgroupBytes;
        return signalPassFailure();
      }
      // Grids have at most 65535 blocks along y and z; larger ones stay on
      // the one-thread-per-output mapping, whose grid is along x.
      if (llvm::divideCeil(matmul.getSize(matmul.mDims), tileM) >
              kMaxGridSizeYZ ||
          matmul.getSize(matmul.batchDims) > kMaxGridSizeYZ)
        continue;
      tileMatmul(rewriter, matmul, tiling);
    }
  }

  // What every CUDA GPU offers a block without opting in to more.
  static constexpr int64_t kMaxThreadsPerBlock = 1024;
  static constexpr int64_t kMaxWorkgroupBytes = 48 * 1024;
  static constexpr int64_t kMaxGridSizeYZ = 65535;
};
} // namespace

//===----------------------------------------------------------------------===//
// rlx-gpu-map-foralls
//===----------------------------------------------------------------------===//

/// The block sizes the thread loops nested in `forall` need: for each of x,
/// y and z, the largest trip count mapped to it. Loops mapped to warps must
/// fit in these threads (mapNestedForallToThreadsImpl checks it).
static FailureOr<SmallVector<int64_t>> getBlockDims(scf::ForallOp forall) {
  SmallVector<int64_t> blockDims = {1, 1, 1};
  WalkResult result = forall.walk([&](scf::ForallOp nested) {
    if (nested == forall)
      return WalkResult::advance();
    std::optional<ArrayAttr> mapping = nested.getMapping();
    std::optional<SmallVector<int64_t>> sizes =
        getConstantIntValues(nested.getMixedUpperBound());
    if (!mapping || !sizes)
      return WalkResult::interrupt();
    for (auto [attr, size] : llvm::zip(*mapping, *sizes)) {
      // Warps are carved out of the threads the other loops need.
      if (isa<gpu::GPUWarpMappingAttr>(attr))
        continue;
      auto thread = dyn_cast<gpu::GPUThreadMappingAttr>(attr);
      if (!thread || thread.getMappingId() > 2)
        return WalkResult::interrupt();
      int64_t &dim = blockDims[thread.getMappingId()];
      dim = std::max(dim, size);
    }
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  return blockDims;
}

/// The buffer a vector load or store accesses (plain, masked or transfer),
/// or null for any other op.
static Value getAccessedBuffer(Operation *op) {
  return TypeSwitch<Operation *, Value>(op)
      .Case<vector::LoadOp, vector::StoreOp, vector::MaskedLoadOp,
            vector::MaskedStoreOp, vector::TransferReadOp,
            vector::TransferWriteOp>(
          [](auto access) { return access.getBase(); })
      .Default([](Operation *) { return Value(); });
}

static bool isVectorStore(Operation *op) {
  return isa<vector::StoreOp, vector::MaskedStoreOp, vector::TransferWriteOp>(
      op);
}

/// The value `store`, a vector store, writes.
static OpOperand &getStoredValue(Operation *store) {
  return *TypeSwitch<Operation *, OpOperand *>(store)
              .Case<vector::StoreOp, vector::MaskedStoreOp,
                    vector::TransferWriteOp>(
                  [](auto op) { return &op.getValueToStoreMutable(); });
}

/// Whether `load` reads exactly the elements `store` writes.
static bool readsWhatIsWritten(Operation *load, Operation *store) {
  if (auto read = dyn_cast<vector::TransferReadOp>(load)) {
    auto write = dyn_cast<vector::TransferWriteOp>(store);
    return write && read.getBase() == write.getBase() &&
           llvm::equal(read.getIndices(), write.getIndices()) &&
           read.getMask() == write.getMask() &&
           read.getVectorType() == write.getVectorType() &&
           read.getPermutationMap() == write.getPermutationMap() &&
           read.getInBoundsAttr() == write.getInBoundsAttr();
  }
  if (auto read = dyn_cast<vector::MaskedLoadOp>(load)) {
    auto write = dyn_cast<vector::MaskedStoreOp>(store);
    return write && read.getBase() == write.getBase() &&
           llvm::equal(read.getIndices(), write.getIndices()) &&
           read.getMask() == write.getMask() &&
           read.getVectorType() == write.getVectorType();
  }
  auto read = dyn_cast<vector::LoadOp>(load);
  auto write = dyn_cast<vector::StoreOp>(store);
  return read && write && read.getBase() == write.getBase() &&
         llvm::equal(read.getIndices(), write.getIndices()) &&
         read.getVectorType() == write.getVectorType();
}

/// Keeps the thread's accumulators in registers across `loop`: when every
/// access to a buffer in the loop body is a vector load or store paired
/// with another by the same loop-invariant operands, each
/// load moves before the loop and each store after it, the value carried
/// by the loop. Valid for the kernels of rlx-gpu-tile-contractions, where
/// such pairs are the rows of one thread's micro-tile of C, or a lane's
/// elements of its warp's mma tiles: nobody else touches them, and distinct
/// ones are disjoint or fully masked.
static void hoistAccumulators(RewriterBase &rewriter, scf::ForOp loop) {
  (void)moveLoopInvariantCode(loop);
  auto isInvariant = [&](Value value) {
    return loop.isDefinedOutsideOfLoop(value);
  };
  SmallVector<std::pair<Operation *, Operation *>> pairs;
  for (Operation &store : *loop.getBody()) {
    if (!isVectorStore(&store))
      continue;
    Value base = getAccessedBuffer(&store);
    OpOperand &stored = getStoredValue(&store);
    if (!isa<MemRefType>(base.getType()) ||
        !llvm::all_of(store.getOpOperands(), [&](OpOperand &operand) {
          return &operand == &stored || isInvariant(operand.get());
        }))
      return;
    Operation *load = nullptr;
    for (Operation *user : base.getUsers()) {
      if (!loop->isAncestor(user))
        continue;
      if (user->getBlock() != loop.getBody() || !getAccessedBuffer(user))
        return;
      if (readsWhatIsWritten(user, &store) &&
          llvm::all_of(user->getOperands(), isInvariant))
        load = user;
    }
    if (!load || !load->isBeforeInBlock(&store))
      return;
    pairs.emplace_back(load, &store);
  }
  if (pairs.empty())
    return;
  SmallVector<Value> inits;
  for (auto [load, store] : pairs) {
    rewriter.moveOpBefore(load, loop);
    inits.push_back(load->getResult(0));
  }
  FailureOr<LoopLikeOpInterface> hoisted =
      cast<LoopLikeOpInterface>(loop.getOperation())
          .replaceWithAdditionalYields(
              rewriter, inits, /*replaceInitOperandUsesInLoop=*/true,
              [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
                return llvm::map_to_vector(pairs, [](auto pair) {
                  return getStoredValue(pair.second).get();
                });
              });
  if (failed(hoisted))
    return;
  Operation *newLoop = hoisted->getOperation();
  ValueRange results =
      newLoop->getResults().take_back(static_cast<int64_t>(pairs.size()));
  Operation *insertionPoint = newLoop;
  for (auto [pair, result] : llvm::zip(pairs, results)) {
    Operation *store = pair.second;
    Value stored = result;
    rewriter.moveOpAfter(store, insertionPoint);
    rewriter.modifyOpInPlace(store,
                             [&] { getStoredValue(store).assign(stored); });
    insertionPoint = store;
  }
}

/// Upstream's mma.sync conversion has fragments for f16 operands but none
/// for bf16 (nvgpu::getMmaSyncRegisterType), although ldmatrix and the
/// fragment layouts depend only on the 16-bit width. The bf16 contractions
/// of `loop` are therefore handed to it reading f16 views of their bf16
/// tiles (unrealized casts of the same buffers: no value is converted), and
/// restoreBF16Fragments turns what it makes of them back to bf16.
/// Contractions of anything but buffer reads are left to the conversion,
/// which rejects them.
static void viewBF16TilesAsF16(RewriterBase &rewriter, scf::ForallOp loop) {
  auto isTileRead = [](Value operand) {
    auto read = operand.getDefiningOp<vector::TransferReadOp>();
    return read && isa<MemRefType>(read.getBase().getType());
  };
  SmallVector<vector::ContractionOp> contracts;
  loop.walk([&](vector::ContractionOp contract) {
    if (contract.getLhsType().getElementType().isBF16() &&
        contract.getRhsType().getElementType().isBF16() &&
        isTileRead(contract.getLhs()) && isTileRead(contract.getRhs()))
      contracts.push_back(contract);
  });
  Type f16 = rewriter.getF16Type();
  DenseMap<Value, Value> views;
  auto getView = [&](Value operand) {
    Value &view = views[operand];
    if (view)
      return view;
    auto read = operand.getDefiningOp<vector::TransferReadOp>();
    Location loc = read.getLoc();
    rewriter.setInsertionPoint(read);
    MemRefType viewType =
        MemRefType::Builder(cast<MemRefType>(read.getBase().getType()))
            .setElementType(f16);
    Value tile = UnrealizedConversionCastOp::create(rewriter, loc, viewType,
                                                    read.getBase())
                     .getResult(0);
    Value padding =
        arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(f16));
    view = vector::TransferReadOp::create(
        rewriter, loc, read.getVectorType().clone(f16), tile,
        read.getIndices(), read.getPermutationMapAttr(), padding,
        read.getMask(), read.getInBoundsAttr());
    return view;
  };
  for (vector::ContractionOp contract : contracts) {
    Value lhs = getView(contract.getLhs()), rhs = getView(contract.getRhs());
    rewriter.setInsertionPoint(contract);
    rewriter.replaceOpWithNewOp<vector::ContractionOp>(
        contract, lhs, rhs, contract.getAcc(), contract.getIndexingMapsAttr(),
        contract.getIteratorTypesAttr(), contract.getKind());
  }
  for (Value read : llvm::make_first_range(views))
    if (read.use_empty())
      rewriter.eraseOp(read.getDefiningOp());
}

/// nvvm.mma.sync of the bf16 fragments `a` and `b` (rows of two bf16, each
/// one 32-bit register) into the f32 fragment `c`, as a fragment of C
/// shaped like nvgpu.mma.sync's result.
static Value createBF16MmaSync(OpBuilder &builder, Location loc, Value a,
                               Value b, Value c, ArrayRef<int64_t> mmaShape) {
  auto wordType = VectorType::get({1}, builder.getI32Type());
  auto registers = [&](Value fragment) {
    auto type = cast<VectorType>(fragment.getType());
    return llvm::map_to_vector(
        llvm::seq<int64_t>(0, type.getDimSize(0)), [&](int64_t row) -> Value {
          Value pair = vector::ExtractOp::create(builder, loc, fragment, row);
          Value word = vector::BitCastOp::create(builder, loc, wordType, pair);
          return vector::ExtractOp::create(builder, loc, word, 0);
        });
  };
  auto cType = cast<VectorType>(c.getType());
  ValueRange accumulators =
      vector::ToElementsOp::create(builder, loc, c).getResults();
  auto mma = NVVM::MmaOp::create(
      builder, loc,
      LLVM::LLVMStructType::getLiteral(
          builder.getContext(),
          SmallVector<Type>(accumulators.size(), cType.getElementType())),
      registers(a), registers(b), accumulators, mmaShape,
      /*b1Op=*/std::nullopt, /*intOverflow=*/std::nullopt,
      std::array{NVVM::MMATypes::bf16, NVVM::MMATypes::bf16},
      std::array{NVVM::MMALayout::row, NVVM::MMALayout::col});
  SmallVector<Value> results = llvm::map_to_vector(
      llvm::seq<int64_t>(0, accumulators.size()), [&](int64_t i) -> Value {
        return LLVM::ExtractValueOp::create(builder, loc, mma, i);
      });
  return vector::FromElementsOp::create(builder, loc, cType, results);
}

/// Undoes viewBF16TilesAsF16 on what the mma.sync conversion made of
/// `loop`: the ldmatrix ops of f16 views read the bf16 tiles into bf16
/// fragments, and each mma.sync of them becomes nvvm.mma.sync with bf16
/// multiplicands, which upstream's convert-nvgpu-to-nvvm cannot lower. Fails
/// if a view is used otherwise.
static LogicalResult restoreBF16Fragments(RewriterBase &rewriter,
                                          scf::ForallOp loop) {
  auto getViewedTile = [](Value fragment) -> Value {
    auto load = fragment.getDefiningOp<nvgpu::LdMatrixOp>();
    if (!load)
      return Value();
    auto view = load.getSrcMemref().getDefiningOp<UnrealizedConversionCastOp>();
    return view ? view.getInputs()[0] : Value();
  };
  SmallVector<nvgpu::MmaSyncOp> mmas;
  loop.walk([&](nvgpu::MmaSyncOp mma) {
    if (getViewedTile(mma.getMatrixA()) || getViewedTile(mma.getMatrixB()))
      mmas.push_back(mma);
  });
  DenseMap<Value, Value> fragments;
  auto getBF16Fragment = [&](Value fragment) {
    Value &bf16 = fragments[fragment];
    if (bf16)
      return bf16;
    auto load = fragment.getDefiningOp<nvgpu::LdMatrixOp>();
    rewriter.setInsertionPoint(load);
    bf16 = nvgpu::LdMatrixOp::create(
        rewriter, load.getLoc(),
        load.getType().clone(rewriter.getBF16Type()),
        getViewedTile(fragment), load.getIndices(), load.getTransposeAttr(),
        load.getNumTilesAttr());
    return bf16;
  };
  for (nvgpu::MmaSyncOp mma : mmas) {
    if (!getViewedTile(mma.getMatrixA()) || !getViewedTile(mma.getMatrixB()) ||
        !mma.getMatrixC().getType().getElementType().isF32())
      return failure();
    Value a = getBF16Fragment(mma.getMatrixA());
    Value b = getBF16Fragment(mma.getMatrixB());
    rewriter.setInsertionPoint(mma);
    rewriter.replaceOp(mma, createBF16MmaSync(rewriter, mma.getLoc(), a, b,
                                              mma.getMatrixC(),
                                              mma.getMmaShapeAsArray()));
  }
  for (Value fragment : llvm::make_first_range(fragments)) {
    if (!fragment.use_empty())
      return failure();
    rewriter.eraseOp(fragment.getDefiningOp());
  }
  SmallVector<UnrealizedConversionCastOp> views;
  loop.walk([&](UnrealizedConversionCastOp view) { views.push_back(view); });
  for (UnrealizedConversionCastOp view : views) {
    if (!view.use_empty())
      return failure();
    rewriter.eraseOp(view);
  }
  return success();
}

/// Turns `forall`, mapped to blocks, into a gpu.launch: block loop indices
/// become block ids, workgroup buffers become workgroup attributions, and
/// the nested thread loops are mapped by upstream's
/// mapNestedForallToThreadsImpl, with a barrier after each.
static LogicalResult mapToLaunch(RewriterBase &rewriter, scf::ForallOp forall) {
  std::optional<SmallVector<int64_t>> gridSizes =
      getConstantIntValues(forall.getMixedUpperBound());
  FailureOr<SmallVector<int64_t>> blockDims = getBlockDims(forall);
  if (!forall.isNormalized() || !gridSizes || failed(blockDims))
    return forall.emitError(
        "a block loop needs static bounds and thread loops with static "
        "bounds mapped to threads x, y or z");
  Location loc = forall.getLoc();
  SmallVector<int64_t> grid = {1, 1, 1};
  for (auto [attr, size] : llvm::zip(*forall.getMapping(), *gridSizes))
    grid[cast<gpu::GPUBlockMappingAttr>(attr).getMappingId()] = size;

  SmallVector<memref::AllocOp> workgroupBuffers;
  forall.walk([&](memref::AllocOp alloc) {
    if (gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(alloc.getType()))
      workgroupBuffers.push_back(alloc);
  });
  SmallVector<Type> attributionTypes = llvm::map_to_vector(
      workgroupBuffers, [](memref::AllocOp alloc) -> Type {
        return alloc.getType();
      });

  rewriter.setInsertionPoint(forall);
  auto dim = [&](int64_t size) { return constantIndex(rewriter, loc, size); };
  auto launch = gpu::LaunchOp::create(
      rewriter, loc, dim(grid[0]), dim(grid[1]), dim(grid[2]),
      dim((*blockDims)[0]), dim((*blockDims)[1]), dim((*blockDims)[2]),
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, attributionTypes);
  Block &body = launch.getBody().front();
  rewriter.setInsertionPointToEnd(&body);
  auto terminator = gpu::TerminatorOp::create(rewriter, loc);

  gpu::KernelDim3 blockIds = launch.getBlockIds();
  SmallVector<Value> ids = {blockIds.x, blockIds.y, blockIds.z};
  SmallVector<Value> ivReplacements = llvm::map_to_vector(
      *forall.getMapping(), [&](Attribute attr) {
        return ids[cast<gpu::GPUBlockMappingAttr>(attr).getMappingId()];
      });
  rewriter.eraseOp(forall.getTerminator());
  rewriter.inlineBlockBefore(forall.getBody(), terminator, ivReplacements);
  rewriter.eraseOp(forall);

  for (auto [alloc, attribution] :
       llvm::zip(workgroupBuffers, launch.getWorkgroupAttributions())) {
    for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
      if (isa<memref::DeallocOp>(user))
        rewriter.eraseOp(user);
    rewriter.replaceOp(alloc, attribution);
  }

  // Warp-level contractions become nvgpu.ldmatrix and nvgpu.mma.sync
  // through upstream's convert-vector-to-gpu{use-nvgpu} steps (bf16 ones
  // through f16 views, then nvvm.mma.sync), applied to each warp loop alone:
  // the conversion takes any scalar arith op it finds for an elementwise op
  // on its matrices.
  SmallVector<scf::ForallOp> warpLoops;
  launch.walk([&](scf::ForallOp loop) {
    std::optional<ArrayAttr> mapping = loop.getMapping();
    if (mapping &&
        llvm::any_of(*mapping, llvm::IsaPred<gpu::GPUWarpMappingAttr>))
      warpLoops.push_back(loop);
  });
  for (scf::ForallOp loop : warpLoops) {
    viewBF16TilesAsF16(rewriter, loop);
    RewritePatternSet patterns(launch.getContext());
    populatePrepareVectorToMMAPatterns(patterns, /*useNvGpu=*/true);
    if (failed(applyPatternsGreedily(loop, std::move(patterns))) ||
        failed(convertVectorToNVVMCompatibleMMASync(rewriter, loop)))
      return loop.emitError("cannot convert this warp loop to mma.sync");
    // The conversion leaves the vector ops it replaced (users before
    // producers in a reverse walk).
    loop.walk<WalkOrder::PostOrder, ReverseIterator>([&](Operation *op) {
      if (isa<vector::VectorDialect>(op->getDialect()) &&
          isOpTriviallyDead(op))
        rewriter.eraseOp(op);
    });
    // The conversion leaves alone the chains it cannot convert.
    WalkResult left = loop.walk(
        [](vector::ContractionOp) { return WalkResult::interrupt(); });
    if (left.wasInterrupted() || failed(restoreBF16Fragments(rewriter, loop)))
      return loop.emitError("cannot convert this warp loop to mma.sync");
  }

  // The thread mapping creates its constants at the insertion point.
  rewriter.setInsertionPointToStart(&launch.getBody().front());
  DiagnosedSilenceableFailure mapped =
      transform::gpu::mapNestedForallToThreadsImpl(
          rewriter, std::nullopt, launch, *blockDims, kThreadsPerWarp,
          /*syncAfterDistribute=*/true);
  if (!mapped.succeeded()) {
    (void)mapped.silence();
    return launch.emitError("cannot map the thread loops of this kernel");
  }
  // The load and the store of an accumulator must use the same index
  // values to be recognized as a pair.
  DominanceInfo dominance(launch);
  eliminateCommonSubExpressions(rewriter, dominance, launch);

  SmallVector<scf::ForOp> loops;
  launch.walk([&](scf::ForOp loop) { loops.push_back(loop); });
  for (scf::ForOp loop : loops)
    hoistAccumulators(rewriter, loop);
  return success();
}

namespace {
struct RlxGpuMapForallsPass
    : rlx::impl::RlxGpuMapForallsBase<RlxGpuMapForallsPass> {
  void runOnOperation() override {
    SmallVector<scf::ForallOp> blockLoops;
    getOperation().walk([&](scf::ForallOp forall) {
      std::optional<ArrayAttr> mapping = forall.getMapping();
      if (mapping && !mapping->empty() &&
          isa<gpu::GPUBlockMappingAttr>(mapping->getValue().front()))
        blockLoops.push_back(forall);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ForallOp forall : blockLoops)
      if (failed(mapToLaunch(rewriter, forall)))
        return signalPassFailure();
  }
};
} // namespace
