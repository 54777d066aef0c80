//===- Ranking.h - Total orders on (value, index) pairs ---------*- C++ -*-===//
//
// The one order argmax/argmin, topk, sort and argsort rank elements by, so
// that their tie and NaN rules agree wherever the ops are lowered.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_LIB_CONVERSION_RLXTOLINALG_RANKING_H
#define RLX_LIB_CONVERSION_RLXTOLINALG_RANKING_H

#include "mlir/IR/Builders.h"
#include "rlx/Dialect/Rlx/IR/ScalarBuilder.h"

namespace mlir::rlx {

/// A strict total order on (value, index) pairs of one line: the better
/// value first, equal values by the smaller index. NaN sits at one end:
/// first (argmax, argmin, topk largest, descending sorts, like torch) or
/// last (topk smallest, ascending sorts).
struct Ranking {
  bool preferLarger;
  bool nanFirst;
};

/// A value of `type` ranked at the very end (`best` false) or start (`best`
/// true) of `ranking`: every value ranks before the end or ties with it, and
/// likewise after the start. Paired with an index past the line (end) or
/// before it (start), it ranks strictly after (before) every element.
Value createExtremeValue(OpBuilder &b, Location loc, Ranking ranking, Type type,
                         bool best);

/// i1: whether (x, xIndex) ranks strictly before (y, yIndex). `x` and `y`
/// share a type, as do the indices.
Value ranksBefore(ScalarBuilder &b, Ranking ranking, Value x, Value xIndex,
                  Value y, Value yIndex);

} // namespace mlir::rlx

#endif // RLX_LIB_CONVERSION_RLXTOLINALG_RANKING_H
