//===- ScalarBuilder.h - Emits scalar arith/math for rlx ops ----*- C++ -*-===//
//
// The vocabulary in which elementwise rlx ops state their semantics
// (`ScalarComputeOpInterface::buildScalar`). Each method dispatches on the
// operand type (float vs integer) so that an op's formula is written once for
// every element type it accepts.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_DIALECT_RLX_IR_SCALARBUILDER_H
#define RLX_DIALECT_RLX_IR_SCALARBUILDER_H

#include "mlir/IR/Builders.h"

namespace mlir::rlx {

enum class ComparePredicate { eq, ne, lt, le, gt, ge };

class ScalarBuilder {
public:
  ScalarBuilder(OpBuilder &builder, Location loc)
      : builder(builder), loc(loc) {}

  /// The type elementwise arithmetic runs in for elements stored as
  /// `storageType`: f16 and bf16 compute in f32, everything else as stored.
  static Type computeType(Type storageType);

  OpBuilder &getBuilder() { return builder; }
  Location getLoc() const { return loc; }

  /// A constant of the same type as `like`. For integers the value is
  /// truncated toward zero and saturated to the type's range.
  Value constant(Value like, double value);

  Value add(Value a, Value b);
  Value sub(Value a, Value b);
  Value mul(Value a, Value b);
  /// Integers truncate toward zero and never trap: x / 0 = 0, x % 0 = x,
  /// INT_MIN / -1 = INT_MIN, INT_MIN % -1 = 0. `rem` has the sign of `a`.
  Value div(Value a, Value b);
  Value rem(Value a, Value b);
  /// NaN-propagating maximum and minimum.
  Value max(Value a, Value b);
  Value min(Value a, Value b);
  Value clamp(Value x, Value lo, Value hi);
  Value neg(Value x);
  Value abs(Value x);
  Value sign(Value x);
  Value fma(Value a, Value b, Value c);

  Value exp(Value x);
  Value expm1(Value x);
  Value log(Value x);
  Value log1p(Value x);
  Value sqrt(Value x);
  Value rsqrt(Value x);
  Value tanh(Value x);
  Value erf(Value x);
  Value sin(Value x);
  Value cos(Value x);
  Value tan(Value x);
  Value atan(Value x);
  Value atan2(Value y, Value x);
  Value pow(Value base, Value exponent);
  Value floor(Value x);
  Value ceil(Value x);
  Value roundEven(Value x);
  /// 1 / (1 + exp(-x)).
  Value sigmoid(Value x);
  /// x * sigmoid(x).
  Value silu(Value x);
  /// ln(1 + exp(x)) without overflow: max(x, 0) + ln(1 + exp(-|x|)).
  Value softplus(Value x);

  Value bitAnd(Value a, Value b);
  Value bitOr(Value a, Value b);
  Value bitXor(Value a, Value b);
  Value shiftLeft(Value x, Value amount);
  Value shiftRight(Value x, Value amount);

  /// Gives i1. Floats compare ordered except `ne` (unordered).
  Value compare(ComparePredicate predicate, Value a, Value b);
  Value select(Value condition, Value onTrue, Value onFalse);
  /// Converts between any two rlx element types (see rlx.cast).
  Value convert(Value x, Type to);

private:
  OpBuilder &builder;
  Location loc;
};

} // namespace mlir::rlx

#endif // RLX_DIALECT_RLX_IR_SCALARBUILDER_H
