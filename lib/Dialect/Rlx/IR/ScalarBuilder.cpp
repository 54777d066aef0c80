//===- ScalarBuilder.cpp - Emits scalar arith/math for rlx ops ------------===//
#include "rlx/Dialect/Rlx/IR/ScalarBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"

#include <cmath>

using namespace mlir;
using namespace mlir::rlx;

static bool isFloat(Value v) { return isa<FloatType>(v.getType()); }

Type ScalarBuilder::computeType(Type storageType) {
  if (storageType.isF16() || storageType.isBF16())
    return Float32Type::get(storageType.getContext());
  return storageType;
}

/// `value` truncated toward zero and saturated to a `width`-bit signed
/// integer (NaN gives 0); for i1, `value != 0`.
static APInt toSaturatedInt(double value, unsigned width) {
  if (width == 1)
    return APInt(1, value != 0);
  if (std::isnan(value))
    return APInt(width, 0);
  double limit = std::ldexp(1.0, width - 1);
  if (value >= limit)
    return APInt::getSignedMaxValue(width);
  if (value < -limit)
    return APInt::getSignedMinValue(width);
  return APInt(width, static_cast<int64_t>(value), /*isSigned=*/true);
}

Value ScalarBuilder::constant(Value like, double value) {
  Type type = like.getType();
  TypedAttr attr;
  if (auto floatType = dyn_cast<FloatType>(type))
    attr = builder.getFloatAttr(floatType, value);
  else
    attr = builder.getIntegerAttr(
        type, toSaturatedInt(value, type.getIntOrFloatBitWidth()));
  return builder.createOrFold<arith::ConstantOp>(loc, attr);
}

template <typename FloatOp, typename IntOp>
static Value floatOrInt(OpBuilder &builder, Location loc, Value a, Value b) {
  if (isFloat(a))
    return builder.createOrFold<FloatOp>(loc, a, b);
  return builder.createOrFold<IntOp>(loc, a, b);
}

Value ScalarBuilder::add(Value a, Value b) {
  return floatOrInt<arith::AddFOp, arith::AddIOp>(builder, loc, a, b);
}
Value ScalarBuilder::sub(Value a, Value b) {
  return floatOrInt<arith::SubFOp, arith::SubIOp>(builder, loc, a, b);
}
Value ScalarBuilder::mul(Value a, Value b) {
  return floatOrInt<arith::MulFOp, arith::MulIOp>(builder, loc, a, b);
}
/// Integer division is undefined (it traps on x86) for a zero divisor and
/// for INT_MIN / -1. rlx defines both: x / 0 = 0, x % 0 = x, INT_MIN / -1 =
/// INT_MIN and INT_MIN % -1 = 0, so that a == (a / b) * b + a % b holds in
/// wrapping arithmetic for every a and b. The divisor is replaced by 1 where
/// either case occurs, which already gives the INT_MIN results.
struct SafeDivision {
  Value divisor, divisorIsZero;
};
static SafeDivision safeDivision(ScalarBuilder &b, Value a, Value divisor) {
  unsigned width = a.getType().getIntOrFloatBitWidth();
  Value intMin = b.getBuilder().createOrFold<arith::ConstantOp>(
      b.getLoc(), b.getBuilder().getIntegerAttr(
                      a.getType(), APInt::getSignedMinValue(width)));
  Value isZero =
      b.compare(ComparePredicate::eq, divisor, b.constant(divisor, 0));
  Value overflows =
      b.bitAnd(b.compare(ComparePredicate::eq, a, intMin),
               b.compare(ComparePredicate::eq, divisor,
                         b.constant(divisor, -1)));
  Value one = b.constant(divisor, 1);
  return {b.select(b.bitOr(isZero, overflows), one, divisor), isZero};
}

Value ScalarBuilder::div(Value a, Value b) {
  if (isFloat(a))
    return builder.createOrFold<arith::DivFOp>(loc, a, b);
  SafeDivision safe = safeDivision(*this, a, b);
  Value quotient = builder.createOrFold<arith::DivSIOp>(loc, a, safe.divisor);
  return select(safe.divisorIsZero, constant(a, 0), quotient);
}
Value ScalarBuilder::rem(Value a, Value b) {
  if (isFloat(a))
    return builder.createOrFold<arith::RemFOp>(loc, a, b);
  SafeDivision safe = safeDivision(*this, a, b);
  Value remainder =
      builder.createOrFold<arith::RemSIOp>(loc, a, safe.divisor);
  return select(safe.divisorIsZero, a, remainder);
}
Value ScalarBuilder::max(Value a, Value b) {
  return floatOrInt<arith::MaximumFOp, arith::MaxSIOp>(builder, loc, a, b);
}
Value ScalarBuilder::min(Value a, Value b) {
  return floatOrInt<arith::MinimumFOp, arith::MinSIOp>(builder, loc, a, b);
}
Value ScalarBuilder::clamp(Value x, Value lo, Value hi) {
  return min(max(x, lo), hi);
}

Value ScalarBuilder::neg(Value x) {
  if (isFloat(x))
    return builder.createOrFold<arith::NegFOp>(loc, x);
  return sub(constant(x, 0), x);
}

Value ScalarBuilder::abs(Value x) {
  if (isFloat(x))
    return builder.createOrFold<math::AbsFOp>(loc, x);
  return builder.createOrFold<math::AbsIOp>(loc, x);
}

Value ScalarBuilder::sign(Value x) {
  // Zero (and NaN) pass through unchanged.
  Value zero = constant(x, 0);
  Value negative = select(compare(ComparePredicate::lt, x, zero),
                          constant(x, -1), x);
  return select(compare(ComparePredicate::gt, x, zero), constant(x, 1),
                negative);
}

Value ScalarBuilder::fma(Value a, Value b, Value c) {
  if (isFloat(a)) {
    // math.fma has no folder; evaluate constants with one rounding here.
    FloatAttr fa, fb, fc;
    if (matchPattern(a, m_Constant(&fa)) && matchPattern(b, m_Constant(&fb)) &&
        matchPattern(c, m_Constant(&fc))) {
      APFloat result = fa.getValue();
      result.fusedMultiplyAdd(fb.getValue(), fc.getValue(),
                              APFloat::rmNearestTiesToEven);
      return builder.createOrFold<arith::ConstantOp>(
          loc, builder.getFloatAttr(a.getType(), result));
    }
    return builder.createOrFold<math::FmaOp>(loc, a, b, c);
  }
  return add(mul(a, b), c);
}

Value ScalarBuilder::exp(Value x) {
  return builder.createOrFold<math::ExpOp>(loc, x);
}
Value ScalarBuilder::expm1(Value x) {
  return builder.createOrFold<math::ExpM1Op>(loc, x);
}
Value ScalarBuilder::log(Value x) {
  return builder.createOrFold<math::LogOp>(loc, x);
}
Value ScalarBuilder::log1p(Value x) {
  return builder.createOrFold<math::Log1pOp>(loc, x);
}
Value ScalarBuilder::sqrt(Value x) {
  return builder.createOrFold<math::SqrtOp>(loc, x);
}
Value ScalarBuilder::rsqrt(Value x) {
  return builder.createOrFold<math::RsqrtOp>(loc, x);
}
Value ScalarBuilder::tanh(Value x) {
  return builder.createOrFold<math::TanhOp>(loc, x);
}
Value ScalarBuilder::erf(Value x) {
  return builder.createOrFold<math::ErfOp>(loc, x);
}
Value ScalarBuilder::sin(Value x) {
  return builder.createOrFold<math::SinOp>(loc, x);
}
Value ScalarBuilder::cos(Value x) {
  return builder.createOrFold<math::CosOp>(loc, x);
}
Value ScalarBuilder::tan(Value x) {
  return builder.createOrFold<math::TanOp>(loc, x);
}
Value ScalarBuilder::atan(Value x) {
  return builder.createOrFold<math::AtanOp>(loc, x);
}
Value ScalarBuilder::atan2(Value y, Value x) {
  // Upstream's folder gives NaN for atan2(±0, ±0); evaluate constants with
  // the C library, which the compiled code calls too.
  FloatAttr fy, fx;
  if (matchPattern(y, m_Constant(&fy)) && matchPattern(x, m_Constant(&fx))) {
    double yv = fy.getValueAsDouble(), xv = fx.getValueAsDouble();
    double result = y.getType().isF32()
                        ? std::atan2(static_cast<float>(yv),
                                     static_cast<float>(xv))
                        : std::atan2(yv, xv);
    return constant(y, result);
  }
  return builder.createOrFold<math::Atan2Op>(loc, y, x);
}
Value ScalarBuilder::pow(Value base, Value exponent) {
  return builder.createOrFold<math::PowFOp>(loc, base, exponent);
}
Value ScalarBuilder::floor(Value x) {
  return builder.createOrFold<math::FloorOp>(loc, x);
}
Value ScalarBuilder::ceil(Value x) {
  return builder.createOrFold<math::CeilOp>(loc, x);
}
Value ScalarBuilder::roundEven(Value x) {
  return builder.createOrFold<math::RoundEvenOp>(loc, x);
}

Value ScalarBuilder::sigmoid(Value x) {
  Value one = constant(x, 1);
  return div(one, add(one, exp(neg(x))));
}

Value ScalarBuilder::silu(Value x) { return mul(x, sigmoid(x)); }

Value ScalarBuilder::softplus(Value x) {
  return add(max(x, constant(x, 0)), log1p(exp(neg(abs(x)))));
}

Value ScalarBuilder::bitAnd(Value a, Value b) {
  return builder.createOrFold<arith::AndIOp>(loc, a, b);
}
Value ScalarBuilder::bitOr(Value a, Value b) {
  return builder.createOrFold<arith::OrIOp>(loc, a, b);
}
Value ScalarBuilder::bitXor(Value a, Value b) {
  return builder.createOrFold<arith::XOrIOp>(loc, a, b);
}

/// arith shifts are poison for amounts outside [0, bitwidth); rlx defines
/// them, so select a saturated value there.
static Value shiftAmountInRange(ScalarBuilder &b, Value amount) {
  unsigned width = amount.getType().getIntOrFloatBitWidth();
  return b.getBuilder().createOrFold<arith::CmpIOp>(
      b.getLoc(), arith::CmpIPredicate::ult, amount,
      b.constant(amount, width));
}

Value ScalarBuilder::shiftLeft(Value x, Value amount) {
  Value shifted = builder.createOrFold<arith::ShLIOp>(loc, x, amount);
  return select(shiftAmountInRange(*this, amount), shifted, constant(x, 0));
}

Value ScalarBuilder::shiftRight(Value x, Value amount) {
  unsigned width = x.getType().getIntOrFloatBitWidth();
  Value shifted = builder.createOrFold<arith::ShRSIOp>(loc, x, amount);
  Value signFill =
      builder.createOrFold<arith::ShRSIOp>(loc, x, constant(x, width - 1));
  return select(shiftAmountInRange(*this, amount), shifted, signFill);
}

Value ScalarBuilder::compare(ComparePredicate predicate, Value a, Value b) {
  if (isFloat(a)) {
    arith::CmpFPredicate p;
    switch (predicate) {
    case ComparePredicate::eq: p = arith::CmpFPredicate::OEQ; break;
    case ComparePredicate::ne: p = arith::CmpFPredicate::UNE; break;
    case ComparePredicate::lt: p = arith::CmpFPredicate::OLT; break;
    case ComparePredicate::le: p = arith::CmpFPredicate::OLE; break;
    case ComparePredicate::gt: p = arith::CmpFPredicate::OGT; break;
    case ComparePredicate::ge: p = arith::CmpFPredicate::OGE; break;
    }
    return builder.createOrFold<arith::CmpFOp>(loc, p, a, b);
  }
  // Booleans order false < true; wider integers are signed.
  bool isBool = a.getType().isInteger(1);
  arith::CmpIPredicate p;
  switch (predicate) {
  case ComparePredicate::eq: p = arith::CmpIPredicate::eq; break;
  case ComparePredicate::ne: p = arith::CmpIPredicate::ne; break;
  case ComparePredicate::lt:
    p = isBool ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt;
    break;
  case ComparePredicate::le:
    p = isBool ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle;
    break;
  case ComparePredicate::gt:
    p = isBool ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt;
    break;
  case ComparePredicate::ge:
    p = isBool ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge;
    break;
  }
  return builder.createOrFold<arith::CmpIOp>(loc, p, a, b);
}

Value ScalarBuilder::select(Value condition, Value onTrue, Value onFalse) {
  return builder.createOrFold<arith::SelectOp>(loc, condition, onTrue,
                                               onFalse);
}

/// f64 -> bf16 rounded once. LLVM lowers that truncation to a libcall
/// (`__truncdfbf2`) that libgcc lacks, and f64 -> f32 -> bf16 would round
/// twice. Rounding to f32 with round-to-odd first keeps the final
/// round-to-nearest-even exact: an inexact f32 result is replaced by the
/// neighbour toward zero with its last bit set.
static Value truncF64ToBF16(ScalarBuilder &b, Value x) {
  OpBuilder &builder = b.getBuilder();
  Location loc = b.getLoc();
  Type f32 = builder.getF32Type(), i32 = builder.getI32Type();
  Value nearest = builder.createOrFold<arith::TruncFOp>(loc, f32, x);
  Value back = builder.createOrFold<arith::ExtFOp>(loc, x.getType(), nearest);
  Value bits = builder.createOrFold<arith::BitcastOp>(loc, i32, nearest);
  Value roundedAway =
      b.compare(ComparePredicate::gt, b.abs(back), b.abs(x));
  Value towardZero = b.select(roundedAway, b.sub(bits, b.constant(bits, 1)),
                              bits);
  Value odd = b.bitOr(towardZero, b.constant(bits, 1));
  Value inexact = b.compare(ComparePredicate::ne, back, x);
  Value f32Bits = b.select(inexact, odd, bits);
  Value rounded = builder.createOrFold<arith::BitcastOp>(loc, f32, f32Bits);
  return builder.createOrFold<arith::TruncFOp>(loc, builder.getBF16Type(),
                                               rounded);
}

Value ScalarBuilder::convert(Value x, Type to) {
  Type from = x.getType();
  if (from == to)
    return x;
  auto fromFloat = dyn_cast<FloatType>(from);
  auto toFloat = dyn_cast<FloatType>(to);
  if (fromFloat && toFloat) {
    if (fromFloat.isF64() && toFloat.isBF16())
      return truncF64ToBF16(*this, x);
    if (toFloat.getWidth() > fromFloat.getWidth())
      return builder.createOrFold<arith::ExtFOp>(loc, to, x);
    return builder.createOrFold<arith::TruncFOp>(loc, to, x);
  }
  if (to.isInteger(1)) {
    Value zero = constant(x, 0);
    return fromFloat ? compare(ComparePredicate::ne, x, zero)
                     : builder.createOrFold<arith::CmpIOp>(
                           loc, arith::CmpIPredicate::ne, x, zero);
  }
  if (toFloat) {
    // Integers reach 16-bit floats through f64 (exact up to 2^53), whose
    // truncation rounds once; LLVM has no libgcc-backed direct path.
    Type via = toFloat.getWidth() < 32 ? builder.getF64Type() : to;
    Value converted =
        from.isInteger(1)
            ? builder.createOrFold<arith::UIToFPOp>(loc, via, x)
            : builder.createOrFold<arith::SIToFPOp>(loc, via, x);
    return convert(converted, to);
  }
  unsigned toWidth = to.getIntOrFloatBitWidth();
  if (fromFloat) {
    // fptosi is poison outside the integer range: saturate, NaN -> 0.
    double limit = std::ldexp(1.0, toWidth - 1);
    Value truncated = builder.createOrFold<arith::FPToSIOp>(loc, to, x);
    Value intMax = builder.createOrFold<arith::ConstantOp>(
        loc, builder.getIntegerAttr(to, APInt::getSignedMaxValue(toWidth)));
    Value intMin = builder.createOrFold<arith::ConstantOp>(
        loc, builder.getIntegerAttr(to, APInt::getSignedMinValue(toWidth)));
    Value isNaN = builder.createOrFold<arith::CmpFOp>(
        loc, arith::CmpFPredicate::UNO, x, x);
    Value result = select(isNaN, builder.createOrFold<arith::ConstantOp>(
                                     loc, builder.getIntegerAttr(to, 0)),
                          truncated);
    result = select(compare(ComparePredicate::lt, x, constant(x, -limit)),
                    intMin, result);
    return select(compare(ComparePredicate::ge, x, constant(x, limit)), intMax,
                  result);
  }
  unsigned fromWidth = from.getIntOrFloatBitWidth();
  if (toWidth < fromWidth)
    return builder.createOrFold<arith::TruncIOp>(loc, to, x);
  if (fromWidth == 1)
    return builder.createOrFold<arith::ExtUIOp>(loc, to, x);
  return builder.createOrFold<arith::ExtSIOp>(loc, to, x);
}
