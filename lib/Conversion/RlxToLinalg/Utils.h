//===- Utils.h - Helpers shared by the rlx-to-linalg patterns ---*- C++ -*-===//
#ifndef RLX_LIB_CONVERSION_RLXTOLINALG_UTILS_H
#define RLX_LIB_CONVERSION_RLXTOLINALG_UTILS_H

#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::rlx {

/// The indexing map that reads `operand` while iterating over a
/// `resultRank`-dimensional numpy-style broadcast: leading dimensions the
/// operand lacks are dropped and its size-1 dimensions read index 0.
AffineMap getBroadcastIndexingMap(RankedTensorType operand, int64_t resultRank);

/// The same for a loop nest over `shape`, reading a size-1 dimension with
/// the loop when the loop has size 1 too (a reduction loop must appear in
/// some map).
AffineMap getBroadcastIndexingMap(RankedTensorType operand,
                                  ArrayRef<int64_t> shape);

/// An uninitialized tensor of `type`.
Value createEmptyTensor(OpBuilder &b, Location loc, RankedTensorType type);

/// A tensor of `type` filled with `value`.
Value createFilledTensor(OpBuilder &b, Location loc, RankedTensorType type,
                         Value value);

/// A tensor of `resultType` whose element at index i is `input[inputMap(i)]`:
/// broadcasts, strided and reversed reads are all this one parallel copy.
Value createIndexedCopy(OpBuilder &b, Location loc, Value input,
                        AffineMap inputMap, RankedTensorType resultType);

/// Groups for expanding a tensor whose `axes` were reduced away back to rank
/// `rank` with those axes as size-1 dimensions: each reduced axis joins the
/// group of the nearest kept axis before it (leading ones join the first
/// kept axis); no groups when every axis was reduced.
SmallVector<ReassociationIndices> getKeepDimReassociation(int64_t rank,
                                                          ArrayRef<int64_t> axes);

/// Applies `convert` (scalar to scalar) to every element of `input`, giving a
/// tensor of `resultType` (same shape).
Value mapElements(OpBuilder &b, Location loc, Value input,
                  RankedTensorType resultType,
                  function_ref<Value(OpBuilder &, Location, Value)> convert);

/// `input` with every element converted to `elementType` (extf, truncf, ...).
Value convertElements(OpBuilder &b, Location loc, Value input,
                      Type elementType);

/// The rlx.matmul product of `lhs` and `rhs`, accumulated from zero in a
/// tensor of `accType` (the result shape in the computation type).
Value createMatmulAccumulation(OpBuilder &b, Location loc, Value lhs, Value rhs,
                               RankedTensorType accType);

/// The rlx.conv of `input` and `weight` with these attributes, accumulated
/// from zero in a tensor of `accType` (the result shape in the computation
/// type).
Value createConvAccumulation(OpBuilder &b, Location loc, Value input,
                             Value weight, ArrayRef<int64_t> stride,
                             ArrayRef<int64_t> padding,
                             ArrayRef<int64_t> dilation, int64_t groups,
                             RankedTensorType accType);

} // namespace mlir::rlx

#endif // RLX_LIB_CONVERSION_RLXTOLINALG_UTILS_H
