//===- RandomOps.cpp - the Philox4x32-10 stream and the random ops --------===//
//
// The scalar formulas of the random ops (Random.h) and their verifiers.
// Philox4x32-10 as Random123 defines it: ten rounds of two 32x32->64-bit
// multiplications, the key bumped by the Weyl constants between rounds.
//
//===----------------------------------------------------------------------===//

#include "rlx/Dialect/Rlx/IR/Random.h"

#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include "llvm/Support/MathExtras.h"
#include <cmath>

using namespace mlir;
using namespace mlir::rlx;

static constexpr uint32_t kPhiloxM0 = 0xD2511F53, kPhiloxM1 = 0xCD9E8D57;
static constexpr uint32_t kPhiloxW0 = 0x9E3779B9, kPhiloxW1 = 0xBB67AE85;
static constexpr int kPhiloxRounds = 10;

static Value constantI32(OpBuilder &b, Location loc, uint32_t value) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                      static_cast<int32_t>(value));
}

static Value constantI64(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(b, loc, b.getI64Type(), value);
}

static Value constantFloat(OpBuilder &b, Location loc, Type type,
                           double value) {
  return arith::ConstantOp::create(b, loc, type, b.getFloatAttr(type, value));
}

/// The low and high 32 bits of an i64.
static std::pair<Value, Value> split(OpBuilder &b, Location loc, Value x) {
  Type i32 = b.getI32Type();
  Value high = arith::ShRUIOp::create(b, loc, x, constantI64(b, loc, 32));
  return {arith::TruncIOp::create(b, loc, i32, x),
          arith::TruncIOp::create(b, loc, i32, high)};
}

/// The 64-bit product of two i32s as its low and high halves. An i64
/// multiplication of the zero-extended words rather than arith's
/// mului_extended, whose n-D vector form no LLVM lowering takes; LLVM turns
/// this into the targets' widening multiplies (pmuludq, mul.wide.u32).
static std::pair<Value, Value> multiplyWide(OpBuilder &b, Location loc, Value x,
                                            Value y) {
  Type i64 = b.getI64Type();
  Value product =
      arith::MulIOp::create(b, loc, arith::ExtUIOp::create(b, loc, i64, x),
                            arith::ExtUIOp::create(b, loc, i64, y));
  return split(b, loc, product);
}

SmallVector<Value, 4> random::buildPhilox(OpBuilder &b, Location loc,
                                          ArrayRef<Value> counter,
                                          ArrayRef<Value> key) {
  SmallVector<Value, 4> c(counter);
  Value k0 = key[0], k1 = key[1];
  Value m0 = constantI32(b, loc, kPhiloxM0),
        m1 = constantI32(b, loc, kPhiloxM1);
  Value w0 = constantI32(b, loc, kPhiloxW0),
        w1 = constantI32(b, loc, kPhiloxW1);
  for (int round = 0; round < kPhiloxRounds; ++round) {
    if (round > 0) {
      k0 = arith::AddIOp::create(b, loc, k0, w0);
      k1 = arith::AddIOp::create(b, loc, k1, w1);
    }
    auto [low0, high0] = multiplyWide(b, loc, m0, c[0]);
    auto [low1, high1] = multiplyWide(b, loc, m1, c[2]);
    Value next0 = arith::XOrIOp::create(
        b, loc, arith::XOrIOp::create(b, loc, high1, c[1]), k0);
    Value next2 = arith::XOrIOp::create(
        b, loc, arith::XOrIOp::create(b, loc, high0, c[3]), k1);
    c = {next0, low1, next2, low0};
  }
  return c;
}

SmallVector<Value, 4> random::buildBlock(OpBuilder &b, Location loc,
                                         Value index, Value seed,
                                         Value offset) {
  Value block = arith::ShRUIOp::create(b, loc, index, constantI64(b, loc, 2));
  auto [blockLow, blockHigh] = split(b, loc, block);
  auto [offsetLow, offsetHigh] = split(b, loc, offset);
  auto [seedLow, seedHigh] = split(b, loc, seed);
  return buildPhilox(b, loc, {blockLow, blockHigh, offsetLow, offsetHigh},
                     {seedLow, seedHigh});
}

/// `index` mod 4, as an i64.
static Value laneOf(OpBuilder &b, Location loc, Value index) {
  return arith::AndIOp::create(b, loc, index, constantI64(b, loc, 3));
}

static Value laneIs(OpBuilder &b, Location loc, Value lane, int64_t value) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane,
                               constantI64(b, loc, value));
}

Value random::buildWord(OpBuilder &b, Location loc, Value index, Value seed,
                        Value offset) {
  SmallVector<Value, 4> words = buildBlock(b, loc, index, seed, offset);
  Value lane = laneOf(b, loc, index);
  Value upper = arith::SelectOp::create(b, loc, laneIs(b, loc, lane, 2),
                                        words[2], words[3]);
  Value lower = arith::SelectOp::create(b, loc, laneIs(b, loc, lane, 0),
                                        words[0], words[1]);
  Value isLower = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, lane,
                                        constantI64(b, loc, 2));
  return arith::SelectOp::create(b, loc, isLower, lower, upper);
}

/// The top `bits` bits of `word` times 2^-bits, in [0, 1), exact in `type`.
static Value topBitsFraction(OpBuilder &b, Location loc, Value word,
                             unsigned bits, Type type) {
  Value top =
      arith::ShRUIOp::create(b, loc, word, constantI32(b, loc, 32 - bits));
  Value value = arith::UIToFPOp::create(b, loc, type, top);
  return arith::MulFOp::create(
      b, loc, value, constantFloat(b, loc, type, std::ldexp(1.0, -int(bits))));
}

Value random::buildUniform(OpBuilder &b, Location loc, Value word, Type element,
                           double low, double high) {
  auto type = cast<FloatType>(element);
  unsigned bits = std::min(type.getFPMantissaWidth(), 32u);
  Value u = topBitsFraction(b, loc, word, bits, type);
  if (low == 0.0 && high == 1.0)
    return u;
  Value scaled =
      arith::MulFOp::create(b, loc, u, constantFloat(b, loc, type, high - low));
  return arith::AddFOp::create(b, loc, scaled,
                               constantFloat(b, loc, type, low));
}

Value random::buildNormal(OpBuilder &b, Location loc, Value index, Value seed,
                          Value offset, Type element, double mean, double std) {
  // Box-Muller in f32 (f64 for f64 results) on the two words of the lane's
  // pair; the odd lane's sine is the cosine of the angle minus pi/2.
  FloatType compute = element.isF64() ? b.getF64Type() : b.getF32Type();
  SmallVector<Value, 4> words = buildBlock(b, loc, index, seed, offset);
  Value lane = laneOf(b, loc, index);
  Value firstPair = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          lane, constantI64(b, loc, 2));
  Value radiusWord =
      arith::SelectOp::create(b, loc, firstPair, words[0], words[2]);
  Value angleWord =
      arith::SelectOp::create(b, loc, firstPair, words[1], words[3]);
  // u in (0, 1]: the log is finite.
  Value u = arith::AddFOp::create(
      b, loc, topBitsFraction(b, loc, radiusWord, 24, compute),
      constantFloat(b, loc, compute, std::ldexp(1.0, -24)));
  Value v = topBitsFraction(b, loc, angleWord, 24, compute);
  Value radius = math::SqrtOp::create(
      b, loc,
      arith::MulFOp::create(b, loc, constantFloat(b, loc, compute, -2.0),
                            math::LogOp::create(b, loc, u)));
  Value odd = arith::TruncIOp::create(b, loc, b.getI1Type(), lane);
  Value shift = arith::SelectOp::create(
      b, loc, odd, constantFloat(b, loc, compute, llvm::numbers::pi / 2),
      constantFloat(b, loc, compute, 0.0));
  Value angle = arith::SubFOp::create(
      b, loc,
      arith::MulFOp::create(
          b, loc, v, constantFloat(b, loc, compute, 2 * llvm::numbers::pi)),
      shift);
  Value z =
      arith::MulFOp::create(b, loc, radius, math::CosOp::create(b, loc, angle));
  Value value = arith::AddFOp::create(
      b, loc,
      arith::MulFOp::create(b, loc, z, constantFloat(b, loc, compute, std)),
      constantFloat(b, loc, compute, mean));
  if (element == compute)
    return value;
  return arith::TruncFOp::create(b, loc, element, value);
}

Value random::buildKeep(OpBuilder &b, Location loc, Value index, Value seed,
                        Value offset, double p) {
  Value word = buildWord(b, loc, index, seed, offset);
  Value top = arith::ShRUIOp::create(b, loc, word, constantI32(b, loc, 8));
  auto threshold = static_cast<uint32_t>(std::nearbyint(std::ldexp(p, 24)));
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, top,
                               constantI32(b, loc, threshold));
}

//===----------------------------------------------------------------------===//
// Verifiers
//===----------------------------------------------------------------------===//

LogicalResult RngUniformOp::verify() {
  double low = getLow().convertToDouble(), high = getHigh().convertToDouble();
  if (!std::isfinite(low) || !std::isfinite(high) || !(low < high))
    return emitOpError("needs finite bounds with low < high, got [")
           << low << ", " << high << ")";
  return success();
}

LogicalResult RngNormalOp::verify() {
  double mean = getMean().convertToDouble(), std = getStd().convertToDouble();
  if (!std::isfinite(mean) || !std::isfinite(std) || std < 0)
    return emitOpError("needs a finite mean and a finite std >= 0, got mean ")
           << mean << ", std " << std;
  return success();
}

LogicalResult DropoutOp::verify() {
  double p = getP().convertToDouble();
  if (!(p >= 0 && p < 1))
    return emitOpError("needs a probability p in [0, 1), got ") << p;
  return success();
}

Value DropoutOp::buildElement(OpBuilder &b, Location loc, Value index,
                              Value seed, Value offset, Value x) {
  double p = getP().convertToDouble();
  if (p == 0)
    return x;
  Type type = x.getType();
  Value keep = random::buildKeep(b, loc, index, seed, offset, p);
  Value scaled = arith::MulFOp::create(
      b, loc, x, constantFloat(b, loc, type, 1.0 / (1.0 - p)));
  return arith::SelectOp::create(b, loc, keep, scaled,
                                 constantFloat(b, loc, type, 0.0));
}
