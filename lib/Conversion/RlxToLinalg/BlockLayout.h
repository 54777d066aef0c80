//===- BlockLayout.h - Block-quantized weights in loop nests ----*- C++ -*-===//
//
// How the contractions on block-quantized weights (rlx.dequant_matmul,
// rlx.dequant_weight, rlx.dequant_grouped_matmul; the layouts are stated in
// RlxQuantMatmulOps.td) read and dequantize a weight value inside a
// linalg.generic, shared so that every op decodes the bytes one way.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_LIB_CONVERSION_RLXTOLINALG_BLOCKLAYOUT_H
#define RLX_LIB_CONVERSION_RLXTOLINALG_BLOCKLAYOUT_H

#include "mlir/IR/Builders.h"

#include <string>

namespace mlir::rlx {

/// The loop structure of a block-quantized weight `[rows..., bytes]` of
/// `scheme` (`rows` the stacked dimensions and N): the loops
/// (rows..., g, inner...) enumerate its values with K split into the group
/// `g` and the loops within a group (int8, q8_0: (i) with k = g G + i;
/// int4: (j, h) with k = g G + 2 j + h; q4_0: (h, j) with
/// k = 32 g + 16 h + j), so that every operand is read through a plain
/// affine map of the loops (no floordiv or mod).
struct BlockLayout {
  std::string scheme;
  int64_t groupSize, groups, groupBytes;
  /// The weight's sizes but the last (the stacked dimensions, then N).
  SmallVector<int64_t> rows;
  /// The sizes of the loops within a group.
  SmallVector<int64_t> inner;
  bool int4, q4, gguf, hasZeroPoints;

  template <typename OpTy> explicit BlockLayout(OpTy op) {
    scheme = op.getScheme().str();
    groupSize = op.getGroupSize();
    groups = op.getReductionSize() / groupSize;
    groupBytes = op.getBytesPerGroup();
    rows.assign(op.getWeight().getType().getShape().drop_back().begin(),
                op.getWeight().getType().getShape().drop_back().end());
    int4 = scheme == "int4";
    q4 = scheme == "q4_0";
    gguf = op.isGguf();
    hasZeroPoints = op.getZeroPoints() != nullptr;
    if (int4)
      inner = {groupSize / 2, 2};
    else if (q4)
      inner = {2, 16};
    else
      inner = {groupSize};
  }

  /// The weight as `[rows..., groups, groupBytes]`.
  Value expandWeight(OpBuilder &b, Location loc, Value weight) const;

  /// The weight operands (the weight as `expandWeight` gives it, then the
  /// scales and zero points or the scale's bytes) and their maps, for a
  /// generic of `numLoops` loops whose loops `rowLoops` index the weight's
  /// rows and `gLoop`, `gLoop + 1`... are g, inner.
  void addOperands(OpBuilder &b, Location loc, Value weight, Value scales,
                   Value zeroPoints, int64_t numLoops,
                   ArrayRef<int64_t> rowLoops, int64_t gLoop,
                   SmallVectorImpl<Value> &operands,
                   SmallVectorImpl<AffineMap> &maps) const;

  /// The scalars `addOperands`' operands give a generic's body, read with
  /// tensor.extract at the weight row `rowIndices` (index values; a routed
  /// expert, say) instead: inside the body of a generic whose loops
  /// `gLoop`, `gLoop + 1`... are g, inner. `weight` is `expandWeight`'s.
  SmallVector<Value> extractOperands(OpBuilder &b, Location loc, Value weight,
                                     Value scales, Value zeroPoints,
                                     ValueRange rowIndices,
                                     int64_t gLoop) const;

  /// The number of operands `addOperands` adds.
  int64_t getNumOperands() const { return gguf || hasZeroPoints ? 3 : 2; }

  /// The dequantized value, in `compute`, from the scalars `args` of the
  /// operands `addOperands` added (or `extractOperands` read), in a generic
  /// whose loop `gLoop` is the group's.
  Value dequantize(OpBuilder &b, Location loc, ValueRange args, Type compute,
                   int64_t gLoop) const;

private:
  /// The loop of the byte within a group, and the byte's offset from it.
  int64_t getByteLoop(int64_t gLoop) const {
    return q4 ? gLoop + 2 : gLoop + 1;
  }
  int64_t getByteOffset() const { return gguf ? 2 : 0; }
};

} // namespace mlir::rlx

#endif // RLX_LIB_CONVERSION_RLXTOLINALG_BLOCKLAYOUT_H
