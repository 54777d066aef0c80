//===- Random.h - the Philox4x32-10 stream of the random ops ----*- C++ -*-===//
//
// Scalar builders of the counter-based stream the rlx random ops share
// (RlxRandomOps.td states it): each element's word from its linear index,
// the seed and the offset, and the uniform and normal values made of it.
// They emit arith and math ops only, so that one formula serves every
// target and vectorizes.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_DIALECT_RLX_IR_RANDOM_H
#define RLX_DIALECT_RLX_IR_RANDOM_H

#include "mlir/IR/Builders.h"

namespace mlir::rlx::random {

/// Philox4x32-10 of `counter` (4 x i32) under `key` (2 x i32): 4 x i32.
SmallVector<Value, 4> buildPhilox(OpBuilder &b, Location loc,
                                  ArrayRef<Value> counter, ArrayRef<Value> key);

/// The four words of the block holding element `index` (i64).
SmallVector<Value, 4> buildBlock(OpBuilder &b, Location loc, Value index,
                                 Value seed, Value offset);

/// `word_index` of the stream (i32).
Value buildWord(OpBuilder &b, Location loc, Value index, Value seed,
                Value offset);

/// `low + (high - low) * u` of `element` type, `u` the top bits of `word`
/// (as many as the type's significand holds, 32 for f64) times 2^-bits.
Value buildUniform(OpBuilder &b, Location loc, Value word, Type element,
                   double low, double high);

/// `mean + std * z` of `element` type, `z` the Box-Muller normal of element
/// `index`.
Value buildNormal(OpBuilder &b, Location loc, Value index, Value seed,
                  Value offset, Type element, double mean, double std);

/// Whether dropout with probability `p` keeps element `index` (i1).
Value buildKeep(OpBuilder &b, Location loc, Value index, Value seed,
                Value offset, double p);

} // namespace mlir::rlx::random

#endif // RLX_DIALECT_RLX_IR_RANDOM_H
