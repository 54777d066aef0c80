//===- LoopBuilder.h - Scalar loops on tensors ------------------*- C++ -*-===//
//
// The builder of the conversions whose ops are sequential within a line or
// a matrix (factorizations, FFTs): their scalar code runs in scf loops on
// tensors, carried through the loops so that one-shot bufferization writes
// them in place.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_LIB_CONVERSION_RLXTOLINALG_LOOPBUILDER_H
#define RLX_LIB_CONVERSION_RLXTOLINALG_LOOPBUILDER_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::rlx {

/// Builds scalar code on tensors: index arithmetic, float arithmetic in
/// one element type, element access (tensor.extract / tensor.insert) and
/// scf loops and branches carrying the tensors they write.
class LoopBuilder {
public:
  using LoopBody = function_ref<SmallVector<Value>(Value, ValueRange)>;

  LoopBuilder(OpBuilder &b, Location loc, Type element)
      : b(b), loc(loc), element(element) {}

  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  Value addI(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value subI(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value equalI(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y);
  }
  Value select(Value condition, Value x, Value y) {
    return arith::SelectOp::create(b, loc, condition, x, y);
  }
  /// The size of dimension `dim` of `tensor`.
  Value size(Value tensor, int64_t dim) {
    return tensor::DimOp::create(b, loc, tensor, dim);
  }

  Value constant(double value) {
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(element, value));
  }
  Value nan() { return constant(std::numeric_limits<double>::quiet_NaN()); }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, loc, x, y); }
  Value neg(Value x) { return arith::NegFOp::create(b, loc, x); }
  Value abs(Value x) { return math::AbsFOp::create(b, loc, x); }
  Value sqrt(Value x) { return math::SqrtOp::create(b, loc, x); }
  Value log(Value x) { return math::LogOp::create(b, loc, x); }
  Value compare(arith::CmpFPredicate predicate, Value x, Value y) {
    return arith::CmpFOp::create(b, loc, predicate, x, y);
  }

  /// The element of `tensor` at `indices` (none for a 0-D tensor).
  Value read(Value tensor, ValueRange indices) {
    return tensor::ExtractOp::create(b, loc, tensor, indices);
  }
  Value write(Value value, Value tensor, ValueRange indices) {
    return tensor::InsertOp::create(b, loc, value, tensor, indices);
  }

  /// The values an scf.for from `lower` to `upper` (step 1) yields, its
  /// iteration given the induction variable and the carried values.
  SmallVector<Value> loop(Value lower, Value upper, ValueRange inits,
                          LoopBody body) {
    auto forOp = scf::ForOp::create(
        b, loc, lower, upper, index(1), inits,
        [&](OpBuilder &nested, Location, Value iv, ValueRange carried) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(nested.getInsertionBlock(),
                              nested.getInsertionPoint());
          scf::YieldOp::create(b, loc, body(iv, carried));
        });
    return forOp.getResults();
  }
  /// A loop carrying one value.
  Value loop(Value lower, Value upper, Value init,
             function_ref<Value(Value, Value)> body) {
    return loop(lower, upper, ValueRange{init},
                [&](Value iv, ValueRange carried) -> SmallVector<Value> {
                  return {body(iv, carried.front())};
                })
        .front();
  }

  /// The sum of `term(k)` over k in [lower, upper), from `init` by
  /// `accumulate(sum, term)`.
  Value sum(Value lower, Value upper, Value init,
            function_ref<Value(Value, Value)> accumulate) {
    return loop(lower, upper, init, accumulate);
  }

  /// The values the branch that `condition` picks yields.
  SmallVector<Value> ifElse(Value condition,
                            function_ref<SmallVector<Value>()> thenBody,
                            function_ref<SmallVector<Value>()> elseBody) {
    auto branch = [&](function_ref<SmallVector<Value>()> body) {
      return [&, body](OpBuilder &nested, Location) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nested.getInsertionBlock(),
                            nested.getInsertionPoint());
        scf::YieldOp::create(b, loc, body());
      };
    };
    return scf::IfOp::create(b, loc, condition, branch(thenBody),
                             branch(elseBody))
        .getResults();
  }

  /// The unit roundoff's double, 2^-52 or 2^-23: the relative spacing of
  /// the element type's numbers.
  double epsilon() const { return element.isF64() ? 0x1p-52 : 0x1p-23; }

  OpBuilder &builder() { return b; }
  Location location() const { return loc; }
  Type elementType() const { return element; }

protected:
  OpBuilder &b;
  Location loc;
  Type element;
};

} // namespace mlir::rlx

#endif // RLX_LIB_CONVERSION_RLXTOLINALG_LOOPBUILDER_H
