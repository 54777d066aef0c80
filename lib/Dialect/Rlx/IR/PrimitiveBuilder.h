//===- PrimitiveBuilder.h - Builds primitive rlx ops ------------*- C++ -*-===//
//
// The helper in which row ops state their decompositions
// (`RowOpInterface::decomposeRows`, RowOps.cpp and GradOps.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef RLX_LIB_DIALECT_RLX_IR_PRIMITIVEBUILDER_H
#define RLX_LIB_DIALECT_RLX_IR_PRIMITIVEBUILDER_H

#include "rlx/Dialect/Rlx/IR/RlxOps.h"

namespace mlir::rlx {

/// Builds primitive rlx ops at one place.
class PrimitiveBuilder {
public:
  PrimitiveBuilder(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  static Type elementType(Value x) {
    return llvm::cast<RankedTensorType>(x.getType()).getElementType();
  }

  /// `x` cast to `type` elements, or `x` itself when it has them.
  Value cast(Value x, Type type) {
    auto tensor = llvm::cast<RankedTensorType>(x.getType());
    if (tensor.getElementType() == type)
      return x;
    return CastOp::create(b, loc, tensor.clone(type), x);
  }
  /// `x` in its computation type.
  Value toCompute(Value x) {
    return cast(x, ScalarBuilder::computeType(elementType(x)));
  }

  /// A 0-d constant that broadcasts against anything.
  Value scalar(Type type, double value) {
    auto tensor = RankedTensorType::get({}, type);
    Attribute element = isa<FloatType>(type)
                            ? Attribute(b.getFloatAttr(type, value))
                            : Attribute(b.getIntegerAttr(type, value));
    return ConstantOp::create(b, loc, DenseElementsAttr::get(tensor, element));
  }

  Value reduce(Value x, ReduceKind kind, ArrayRef<int64_t> axes) {
    return ReduceOp::create(b, loc, x, kind, axes, /*keep_dim=*/true);
  }
  Value reduce(Value x, ReduceKind kind, ArrayRef<int64_t> axes,
               bool keepDim) {
    return ReduceOp::create(b, loc, x, kind, axes, keepDim);
  }

  Value reshape(Value x, ArrayRef<int64_t> shape) {
    auto type = llvm::cast<RankedTensorType>(x.getType());
    if (type.getShape() == shape)
      return x;
    return ReshapeOp::create(b, loc, type.clone(shape), x);
  }

  /// `x` summed over the dimensions along which a tensor of `shape`
  /// broadcasts to it, keeping them: `shape` with leading 1s. (Reshape to
  /// `shape` after any cast: a row region takes the place of its last op.)
  Value sumBroadcastDims(Value x, ArrayRef<int64_t> shape) {
    ArrayRef<int64_t> from =
        llvm::cast<RankedTensorType>(x.getType()).getShape();
    int64_t lead = from.size() - shape.size();
    SmallVector<int64_t> axes;
    for (int64_t d = 0, e = from.size(); d < e; ++d)
      if (d < lead || (shape[d - lead] == 1 && from[d] != 1))
        axes.push_back(d);
    return axes.empty() ? x : reduce(x, ReduceKind::Sum, axes);
  }

  /// A 1-D parameter of the length of `axis` reshaped to broadcast along
  /// that axis of a rank-`rank` tensor.
  Value alongAxis(Value param, int64_t axis, int64_t rank) {
    SmallVector<int64_t> shape(rank - axis, 1);
    shape.front() = llvm::cast<RankedTensorType>(param.getType()).getDimSize(0);
    return reshape(param, shape);
  }

  template <typename OpTy, typename... Args> Value op(Args... args) {
    return OpTy::create(b, loc, args...);
  }

  /// The centered normalization of `input` over `axes`, in the computation
  /// type: the mean, the centered values and rstd = rsqrt(var + eps).
  struct Centered {
    Value mean, centered, rstd;
  };
  Centered normalizeCentered(Value input, ArrayRef<int64_t> axes, double eps) {
    Value x = toCompute(input);
    Value mean = reduce(x, ReduceKind::Mean, axes);
    Value centered = op<SubOp>(x, mean);
    Value variance =
        reduce(op<MulOp>(centered, centered), ReduceKind::Mean, axes);
    Value rstd =
        op<RsqrtOp>(op<AddOp>(variance, scalar(elementType(x), eps)));
    return {mean, centered, rstd};
  }

  /// x * rsqrt(mean(x^2) + eps) over `axes` in the computation type, and
  /// rstd.
  std::pair<Value, Value> normalizeRms(Value input, ArrayRef<int64_t> axes,
                                       double eps) {
    Value x = toCompute(input);
    Value meanSquare = reduce(op<MulOp>(x, x), ReduceKind::Mean, axes);
    Value rstd =
        op<RsqrtOp>(op<AddOp>(meanSquare, scalar(elementType(x), eps)));
    return {op<MulOp>(x, rstd), rstd};
  }

  /// max over `axis` of `x` and `log(sum(exp(x - max)))` with `shifted =
  /// x - max` (all in `x`'s type).
  struct LogSumExp {
    Value max, shifted, logSum;
  };
  LogSumExp logSumExp(Value x, int64_t axis) {
    Value max = reduce(x, ReduceKind::Max, axis);
    Value shifted = op<SubOp>(x, max);
    Value sum = reduce(op<ExpOp>(shifted), ReduceKind::Sum, axis);
    return {max, shifted, op<LogOp>(sum)};
  }

  /// For `[N]` integer class labels of rows of `classes` columns: where
  /// a column is the row's label (`[N, C]` i1), and whether the label is in
  /// `[0, C)` (`[N, 1]` i1). Compares only, so no index is ever loaded from,
  /// and against `rlx.iota`, so nothing of `classes` elements is built here.
  struct LabelMask {
    Value isLabel, inRange;
  };
  LabelMask labelMask(Value labels, int64_t classes) {
    auto labelsType = llvm::cast<RankedTensorType>(labels.getType());
    Type labelType = labelsType.getElementType();
    // Compare in i64 where the label type cannot count every class.
    if (classes - 1 > APInt::getSignedMaxValue(
                          labelType.getIntOrFloatBitWidth())
                          .getSExtValue())
      labelType = b.getI64Type();
    Value column =
        reshape(cast(labels, labelType), {labelsType.getDimSize(0), 1});
    Value columns = IotaOp::create(
        b, loc, RankedTensorType::get({classes}, labelType), /*axis=*/0);
    Value inRange =
        op<BitAndOp>(op<GeOp>(column, scalar(labelType, 0)),
                     op<LtOp>(column, scalar(labelType, classes)));
    return {op<EqOp>(columns, column), inRange};
  }

private:
  OpBuilder &b;
  Location loc;
};

} // namespace mlir::rlx

#endif // RLX_LIB_DIALECT_RLX_IR_PRIMITIVEBUILDER_H
