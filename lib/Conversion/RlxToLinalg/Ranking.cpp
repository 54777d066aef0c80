//===- Ranking.cpp - Total orders on (value, index) pairs -----------------===//
#include "Ranking.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::rlx;

Value mlir::rlx::createExtremeValue(OpBuilder &b, Location loc, Ranking ranking,
                                    Type type, bool best) {
  TypedAttr attr;
  if (auto floatType = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &sem = floatType.getFloatSemantics();
    // The extreme away from NaN is an infinity: the end is -inf when larger
    // values rank first (+inf otherwise), the start the opposite one.
    APFloat value = ranking.nanFirst == best
                        ? APFloat::getNaN(sem)
                        : APFloat::getInf(sem, ranking.preferLarger != best);
    attr = b.getFloatAttr(type, value);
  } else {
    unsigned width = type.getIntOrFloatBitWidth();
    attr = b.getIntegerAttr(type, ranking.preferLarger == best
                                      ? APInt::getSignedMaxValue(width)
                                      : APInt::getSignedMinValue(width));
  }
  return arith::ConstantOp::create(b, loc, attr);
}

Value mlir::rlx::ranksBefore(ScalarBuilder &b, Ranking ranking, Value x,
                             Value xIndex, Value y, Value yIndex) {
  OpBuilder &builder = b.getBuilder();
  Location loc = b.getLoc();
  // Ordered float compares: false when either side is NaN.
  Value better = b.compare(
      ranking.preferLarger ? ComparePredicate::gt : ComparePredicate::lt, x, y);
  Value same = b.compare(ComparePredicate::eq, x, y);
  if (isa<FloatType>(x.getType())) {
    Value xIsNan = b.compare(ComparePredicate::ne, x, x);
    Value yIsNan = b.compare(ComparePredicate::ne, y, y);
    Value nanBeatsNumber =
        ranking.nanFirst
            ? arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ugt,
                                    xIsNan, yIsNan)
            : arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                                    xIsNan, yIsNan);
    better = arith::OrIOp::create(builder, loc, better, nanBeatsNumber);
    same = arith::OrIOp::create(
        builder, loc, same,
        arith::AndIOp::create(builder, loc, xIsNan, yIsNan));
  }
  Value smallerIndex = arith::CmpIOp::create(
      builder, loc, arith::CmpIPredicate::slt, xIndex, yIndex);
  return arith::OrIOp::create(
      builder, loc, better,
      arith::AndIOp::create(builder, loc, same, smallerIndex));
}
