//===- GradientRules.cpp - Reverse-mode rules of rlx ops ------------------===//
//
// One rule per op, attached as an external model of GradientOpInterface.
// Each rule builds its operands' gradients from rlx ops, reading the
// forward values it needs. A broadcast operand's gradient is summed over
// the dimensions it was broadcast along.
//
//===----------------------------------------------------------------------===//
#include "rlx/Transforms/GradientRules.h"

#include "mlir/IR/DialectRegistry.h"
#include "rlx/Dialect/Rlx/IR/Activation.h"
#include "rlx/Dialect/Rlx/IR/RlxDialect.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

using namespace mlir;
using namespace mlir::rlx;

using Gradients = SmallVector<Value>;

static RankedTensorType getTensorType(Value value) {
  return cast<RankedTensorType>(value.getType());
}

/// A rank-0 constant of `like`'s element type, which broadcasts against
/// anything.
static Value scalar(OpBuilder &b, Location loc, Value like, double value) {
  Type element = getTensorType(like).getElementType();
  return ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(RankedTensorType::get({}, element),
                             b.getFloatAttr(element, value)));
}

Value mlir::rlx::createSplatLike(OpBuilder &b, Location loc, Value like,
                                 double value) {
  RankedTensorType type = getTensorType(like);
  // Complex: value + 0i from two real splats.
  if (isa<ComplexType>(type.getElementType())) {
    Value re = createSplatLike(b, loc, RealOp::create(b, loc, like), value);
    Value im = createSplatLike(b, loc, RealOp::create(b, loc, like), 0.0);
    return ComplexOp::create(b, loc, re, im);
  }
  if (!type.hasStaticShape())
    return ExpandOp::create(b, loc, type, scalar(b, loc, like, value), like);
  return ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(type,
                             b.getFloatAttr(type.getElementType(), value)));
}

/// `grad` (of a broadcast result) summed back to the shape of `operand`.
static Value sumToShape(OpBuilder &b, Location loc, Value grad,
                        Value operand) {
  RankedTensorType type = getTensorType(operand);
  RankedTensorType gradType = getTensorType(grad);
  if (gradType.getShape() == type.getShape())
    return grad;
  int64_t lead = gradType.getRank() - type.getRank();
  SmallVector<int64_t> axes;
  for (int64_t d = 0; d < gradType.getRank(); ++d)
    if (d < lead || (type.getDimSize(d - lead) == 1 &&
                     gradType.getDimSize(d) != 1))
      axes.push_back(d);
  Value summed = axes.empty() ? grad
                              : ReduceOp::create(b, loc, grad, ReduceKind::Sum,
                                                 axes, /*keep_dim=*/true)
                                    .getResult();
  return ReshapeOp::create(b, loc, type, summed);
}

/// `grad` broadcast to the shape of `like`, whose `?` sizes it takes where
/// a size-1 dimension of `grad` is repeated.
static Value expandLike(OpBuilder &b, Location loc, Value grad, Value like) {
  RankedTensorType gradType = getTensorType(grad);
  RankedTensorType type = getTensorType(like).clone(gradType.getElementType());
  int64_t lead = type.getRank() - gradType.getRank();
  bool repeatsToDynamic =
      llvm::any_of(llvm::seq(type.getRank()), [&](int64_t d) {
        return type.isDynamicDim(d) &&
               (d < lead || gradType.getDimSize(d - lead) == 1);
      });
  return ExpandOp::create(b, loc, type, grad,
                          repeatsToDynamic ? like : Value());
}

/// The number of elements of `x` along `axes` as a rank-0 tensor of
/// `like`'s element type: a constant where those sizes are static.
static Value countAlong(OpBuilder &b, Location loc, Value x,
                        ArrayRef<int64_t> axes, Value like) {
  auto type = RankedTensorType::get({}, getTensorType(like).getElementType());
  ArrayRef<int64_t> sizes = getTensorType(x).getShape();
  if (llvm::any_of(axes, [&](int64_t axis) {
        return ShapedType::isDynamic(sizes[axis]);
      }))
    return NumelOp::create(b, loc, type, x, axes);
  int64_t count = 1;
  for (int64_t axis : axes)
    count *= sizes[axis];
  return ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(type,
                             b.getFloatAttr(type.getElementType(), count)));
}

/// 0 where `loses`, 1/2 where `ties`, 1 elsewhere.
static Value shares(OpBuilder &b, Location loc, Value like, Value loses,
                    Value ties) {
  Value share = WhereOp::create(b, loc, ties, scalar(b, loc, like, 0.5),
                                scalar(b, loc, like, 1.0));
  return WhereOp::create(b, loc, loses, scalar(b, loc, like, 0.0), share);
}

/// A rank-0 constant `value` of integer type `element`.
static Value integerScalar(OpBuilder &b, Location loc, Type element,
                           int64_t value) {
  return ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(RankedTensorType::get({}, element),
                             b.getIntegerAttr(element, value)));
}

/// A tensor of `shape` and integer `element` type holding each element's
/// index along `axis` (no constant of its size is built).
static Value iota(OpBuilder &b, Location loc, Type element,
                  ArrayRef<int64_t> shape, int64_t axis) {
  return IotaOp::create(b, loc, RankedTensorType::get(shape, element), axis);
}

/// `x` padded with zeros by `lo` and `hi` along `axis`.
static Value padAxis(OpBuilder &b, Location loc, Value x, int64_t axis,
                     int64_t lo, int64_t hi) {
  if (lo == 0 && hi == 0)
    return x;
  SmallVector<int64_t> pads(2 * getTensorType(x).getRank(), 0);
  pads[2 * axis] = lo;
  pads[2 * axis + 1] = hi;
  return PadOp::create(b, loc, x, PadMode::Constant, pads, FloatAttr());
}

/// `part` in zeros shaped like `like`, placed along `axis` `offset`
/// elements after the start or, with `fromEnd`, ending `offset` elements
/// before the end; the other sizes of `part` are `like`'s. Where a length
/// along `axis` is `?`, no pad of static sizes reaches the end: `part` is
/// written into zeros (kv_append at a constant position, reversed to count
/// from the end).
static Value placeAlong(OpBuilder &b, Location loc, Value part, Value like,
                        int64_t axis, int64_t offset, bool fromEnd) {
  int64_t size = getTensorType(like).getDimSize(axis);
  int64_t length = getTensorType(part).getDimSize(axis);
  if (!ShapedType::isDynamic(size) && !ShapedType::isDynamic(length)) {
    int64_t rest = size - length - offset;
    return fromEnd ? padAxis(b, loc, part, axis, rest, offset)
                   : padAxis(b, loc, part, axis, offset, rest);
  }
  auto reversedIf = [&](Value value) -> Value {
    return fromEnd ? ReverseOp::create(b, loc, value, ArrayRef<int64_t>{axis})
                   : value;
  };
  Value placed = KvAppendOp::create(
      b, loc, createSplatLike(b, loc, like, 0.0), reversedIf(part),
      integerScalar(b, loc, b.getI64Type(), offset), axis);
  return reversedIf(placed);
}

/// The last `length` elements of `x` along `axis`.
static Value lastAlong(OpBuilder &b, Location loc, Value x, int64_t axis,
                       int64_t length) {
  int64_t size = getTensorType(x).getDimSize(axis);
  if (!ShapedType::isDynamic(size))
    return NarrowOp::create(b, loc, x, axis, size - length, length);
  auto reversed = [&](Value value) -> Value {
    return ReverseOp::create(b, loc, value, ArrayRef<int64_t>{axis});
  };
  return reversed(NarrowOp::create(b, loc, reversed(x), axis, 0, length));
}

/// `axis` in [-rank, rank) as an index in [0, rank).
static int64_t normalizeAxis(int64_t axis, int64_t rank) {
  return axis < 0 ? axis + rank : axis;
}

//===----------------------------------------------------------------------===//
// Rules
//===----------------------------------------------------------------------===//

static Gradients gradientOf(AddOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  return {sumToShape(b, loc, g, op.getLhs()), sumToShape(b, loc, g, op.getRhs())};
}

static Gradients gradientOf(SubOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  return {sumToShape(b, loc, g, op.getLhs()),
          sumToShape(b, loc, NegOp::create(b, loc, g), op.getRhs())};
}

static Gradients gradientOf(MulOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  return {sumToShape(b, loc, MulOp::create(b, loc, g, op.getRhs()),
                     op.getLhs()),
          sumToShape(b, loc, MulOp::create(b, loc, g, op.getLhs()),
                     op.getRhs())};
}

/// d(l / r) = g / r and -(g / r) * (l / r).
static Gradients gradientOf(DivOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  Value dl = DivOp::create(b, loc, g, op.getRhs());
  Value dr = NegOp::create(b, loc, MulOp::create(b, loc, dl, op.getResult()));
  return {sumToShape(b, loc, dl, op.getLhs()),
          sumToShape(b, loc, dr, op.getRhs())};
}

static Gradients gradientOf(CastOp op, OpBuilder &b, Value g) {
  if (!isa<FloatType>(getTensorType(op.getInput()).getElementType()))
    return {Value()};
  return {CastOp::create(b, op.getLoc(), op.getInput().getType(), g)};
}

static Gradients gradientOf(WhereOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  Value zero = scalar(b, loc, g, 0.0);
  return {Value(),
          sumToShape(b, loc,
                     WhereOp::create(b, loc, op.getCondition(), g, zero),
                     op.getOnTrue()),
          sumToShape(b, loc,
                     WhereOp::create(b, loc, op.getCondition(), zero, g),
                     op.getOnFalse())};
}

static Gradients gradientOf(ReshapeOp op, OpBuilder &b, Value g) {
  return {ReshapeOp::create(b, op.getLoc(), op.getInput().getType(), g)};
}

/// `like` only gives the shape: its gradient is zero.
static Gradients gradientOf(ExpandOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  Gradients grads = {sumToShape(b, loc, g, op.getInput())};
  if (Value like = op.getLike())
    grads.push_back(isa<FloatType>(getTensorType(like).getElementType())
                        ? createSplatLike(b, loc, like, 0.0)
                        : Value());
  return grads;
}

static Gradients gradientOf(TransposeOp op, OpBuilder &b, Value g) {
  ArrayRef<int64_t> permutation = op.getPermutation();
  SmallVector<int64_t> inverse(permutation.size());
  for (auto [i, p] : llvm::enumerate(permutation))
    inverse[p] = i;
  return {TransposeOp::create(b, op.getLoc(), g, inverse)};
}

/// The product of the other elements of each element's group of `x`
/// reduced over `axes` (sorted): the reduced axes moved last and flattened,
/// the exclusive running products from both ends multiplied, so zeros need
/// no division.
static Value productOfOthers(OpBuilder &b, Location loc, Value x,
                             ArrayRef<int64_t> axes) {
  RankedTensorType type = getTensorType(x);
  SmallVector<int64_t> permutation, movedShape, flatShape;
  for (int64_t d = 0, rank = type.getRank(); d < rank; ++d)
    if (!llvm::is_contained(axes, d))
      permutation.push_back(d);
  flatShape = llvm::map_to_vector(
      permutation, [&](int64_t d) { return type.getDimSize(d); });
  int64_t group = 1;
  for (int64_t axis : axes) {
    permutation.push_back(axis);
    group *= type.getDimSize(axis);
  }
  for (int64_t d : permutation)
    movedShape.push_back(type.getDimSize(d));
  flatShape.push_back(group);
  int64_t last = flatShape.size() - 1;
  Value flat = ReshapeOp::create(
      b, loc, type.clone(flatShape),
      TransposeOp::create(b, loc, x, permutation));
  auto reversed = [&](Value v) {
    return ReverseOp::create(b, loc, v, ArrayRef<int64_t>{last});
  };
  Value before = CumprodOp::create(b, loc, flat, last, /*exclusive=*/true);
  Value after = reversed(
      CumprodOp::create(b, loc, reversed(flat), last, /*exclusive=*/true));
  Value others = ReshapeOp::create(b, loc, type.clone(movedShape),
                                   MulOp::create(b, loc, before, after));
  SmallVector<int64_t> inverse(permutation.size());
  for (auto [i, p] : llvm::enumerate(permutation))
    inverse[p] = i;
  return TransposeOp::create(b, loc, others, inverse);
}

/// Sum and mean spread the gradient over the reduced axes (mean divided by
/// their size). Max and min pass it to the extremum, shared evenly among
/// equal extrema (as torch.amax and torch.amin; torch.max along a dimension
/// picks one instead). Prod multiplies it by the product of the other
/// elements (zeros included, as PyTorch).
static Gradients gradientOf(ReduceOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  RankedTensorType inputType = op.getInput().getType();
  ReduceKind kind = op.getKind();
  SmallVector<int64_t> kept(inputType.getShape());
  SmallVector<int64_t> axes = op.getNormalizedAxes();
  for (int64_t axis : axes)
    kept[axis] = 1;
  RankedTensorType keptType = inputType.clone(kept);
  Value grad = ReshapeOp::create(b, loc, keptType, g);
  Value input = op.getInput();
  if (kind == ReduceKind::Sum)
    return {expandLike(b, loc, grad, input)};
  if (kind == ReduceKind::Mean)
    return {expandLike(
        b, loc,
        DivOp::create(b, loc, grad, countAlong(b, loc, input, axes, grad)),
        input)};
  if (kind == ReduceKind::Prod)
    return {MulOp::create(b, loc, grad,
                          productOfOthers(b, loc, op.getInput(), axes))};
  Value extremum = ReshapeOp::create(b, loc, keptType, op.getResult());
  Value isExtremum = EqOp::create(b, loc, op.getInput(), extremum);
  Value ties = ReduceOp::create(
      b, loc, CastOp::create(b, loc, inputType, isExtremum), ReduceKind::Sum,
      axes, /*keep_dim=*/true);
  return {WhereOp::create(b, loc, isExtremum, DivOp::create(b, loc, grad, ties),
                          scalar(b, loc, g, 0.0))};
}

/// max and min: the gradient goes to the larger (smaller) operand, half to
/// each where they are equal, and to both where either is NaN, as
/// torch.maximum and torch.minimum. `LhsLoses` compares lhs with rhs.
template <typename LhsLoses, typename RhsLoses, typename OpTy>
static Gradients extremumGradients(OpTy op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  Value lhs = op.getLhs(), rhs = op.getRhs();
  Value ties = EqOp::create(b, loc, lhs, rhs);
  Value dl = MulOp::create(
      b, loc, g,
      shares(b, loc, g, LhsLoses::create(b, loc, lhs, rhs), ties));
  Value dr = MulOp::create(
      b, loc, g,
      shares(b, loc, g, RhsLoses::create(b, loc, lhs, rhs), ties));
  return {sumToShape(b, loc, dl, lhs), sumToShape(b, loc, dr, rhs)};
}

static Gradients gradientOf(MaxOp op, OpBuilder &b, Value g) {
  return extremumGradients<LtOp, GtOp>(op, b, g);
}

static Gradients gradientOf(MinOp op, OpBuilder &b, Value g) {
  return extremumGradients<GtOp, LtOp>(op, b, g);
}

/// d(l ^ r) = g r l^(r - 1) and g y ln(l), the latter 0 where l = 0 and
/// r >= 0 (as PyTorch).
static Gradients gradientOf(PowOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  Value lhs = op.getLhs(), rhs = op.getRhs();
  Value power = PowOp::create(
      b, loc, lhs, SubOp::create(b, loc, rhs, scalar(b, loc, g, 1.0)));
  Value dl = MulOp::create(b, loc, g, MulOp::create(b, loc, rhs, power));
  Value zeroBase = BitAndOp::create(
      b, loc, EqOp::create(b, loc, lhs, scalar(b, loc, g, 0.0)),
      GeOp::create(b, loc, rhs, scalar(b, loc, g, 0.0)));
  Value logTerm = WhereOp::create(
      b, loc, zeroBase, scalar(b, loc, g, 0.0),
      MulOp::create(b, loc, op.getResult(), LogOp::create(b, loc, lhs)));
  Value dr = MulOp::create(b, loc, g, logTerm);
  return {sumToShape(b, loc, dl, lhs), sumToShape(b, loc, dr, rhs)};
}

/// d atan2(l, r) = g r / (l^2 + r^2) and -g l / (l^2 + r^2).
static Gradients gradientOf(Atan2Op op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  Value lhs = op.getLhs(), rhs = op.getRhs();
  Value scaled = DivOp::create(
      b, loc, g,
      AddOp::create(b, loc, MulOp::create(b, loc, lhs, lhs),
                    MulOp::create(b, loc, rhs, rhs)));
  Value dl = MulOp::create(b, loc, scaled, rhs);
  Value dr = NegOp::create(b, loc, MulOp::create(b, loc, scaled, lhs));
  return {sumToShape(b, loc, dl, lhs), sumToShape(b, loc, dr, rhs)};
}

/// fmod(l, r) = l - trunc(l / r) r: g and -g trunc(l / r), the quotient
/// recovered exactly as round((l - fmod(l, r)) / r) (torch.fmod).
static Gradients gradientOf(ModOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  Value lhs = op.getLhs(), rhs = op.getRhs();
  Value quotient = RoundOp::create(
      b, loc,
      DivOp::create(b, loc, SubOp::create(b, loc, lhs, op.getResult()), rhs));
  Value dr = NegOp::create(b, loc, MulOp::create(b, loc, g, quotient));
  return {sumToShape(b, loc, g, lhs), sumToShape(b, loc, dr, rhs)};
}

static Gradients gradientOf(FmaOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  return {sumToShape(b, loc, MulOp::create(b, loc, g, op.getB()), op.getA()),
          sumToShape(b, loc, MulOp::create(b, loc, g, op.getA()), op.getB()),
          sumToShape(b, loc, g, op.getC())};
}

/// The gradient passes where the input lies within the bounds, bounds
/// included (torch.clamp).
static Gradients gradientOf(ClampOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  Value x = op.getInput();
  Value inside;
  auto require = [&](Value condition) {
    inside = inside ? BitAndOp::create(b, loc, inside, condition).getResult()
                    : condition;
  };
  if (FloatAttr min = op.getMinAttr())
    require(GeOp::create(b, loc, x, scalar(b, loc, x, min.getValueAsDouble())));
  if (FloatAttr max = op.getMaxAttr())
    require(LeOp::create(b, loc, x, scalar(b, loc, x, max.getValueAsDouble())));
  if (!inside)
    return {g};
  return {WhereOp::create(b, loc, inside, g, scalar(b, loc, g, 0.0))};
}

/// The last two axes of `x` swapped.
static Value transposeLast(OpBuilder &b, Location loc, Value x) {
  int64_t rank = getTensorType(x).getRank();
  SmallVector<int64_t> permutation = llvm::to_vector(llvm::seq<int64_t>(rank));
  std::swap(permutation[rank - 1], permutation[rank - 2]);
  return TransposeOp::create(b, loc, x, permutation);
}

/// dA = g B^T, dB = A^T g, summed over broadcast batch dimensions.
static Gradients gradientOf(MatmulOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  Value dl = MatmulOp::create(b, loc, g, transposeLast(b, loc, op.getRhs()));
  Value dr = MatmulOp::create(b, loc, transposeLast(b, loc, op.getLhs()), g);
  return {sumToShape(b, loc, dl, op.getLhs()),
          sumToShape(b, loc, dr, op.getRhs())};
}

/// The block-quantized weight of `op` (dequant_matmul or
/// dequant_grouped_matmul) dequantized once by rlx.dequant_weight (f32) and
/// cast to the type of `op`'s result.
template <typename OpTy>
static Value createDequantizedWeight(OpTy op, OpBuilder &b) {
  Location loc = op.getLoc();
  Value w = DequantWeightOp::create(b, loc, op.getWeight(), op.getScales(),
                                    op.getZeroPoints(), op.getSchemeAttr(),
                                    op.getGroupSizeAttr());
  Type element = op.getType().getElementType();
  auto wType = cast<RankedTensorType>(w.getType());
  if (wType.getElementType() != element)
    w = CastOp::create(b, loc, wType.clone(element), w);
  return w;
}

/// dx = dy @ W: the weight dequantized once (rlx.dequant_weight, f32
/// [N, K]) and cast to the input's type; the integer weight, its scales and
/// zero points receive no gradient.
static Gradients gradientOf(DequantMatmulOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  Value w = createDequantizedWeight(op, b);
  Gradients grads(op->getNumOperands(), Value());
  grads[0] = MatmulOp::create(b, loc, g, w);
  return grads;
}

/// dx = y (g - sum(g y)) along the axis.
static Gradients gradientOf(SoftmaxOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  Value y = op.getResult();
  Value gy = MulOp::create(b, loc, g, y);
  Value sum = ReduceOp::create(b, loc, gy, ReduceKind::Sum,
                               {op.getNormalizedAxis()}, /*keep_dim=*/true);
  return {MulOp::create(b, loc, y, SubOp::create(b, loc, g, sum))};
}

/// dx = g - softmax(x) sum(g) along the axis.
static Gradients gradientOf(LogSoftmaxOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  Value sum = ReduceOp::create(b, loc, g, ReduceKind::Sum,
                               {op.getNormalizedAxis()}, /*keep_dim=*/true);
  Value probabilities = ExpOp::create(b, loc, op.getResult());
  return {SubOp::create(b, loc, g, MulOp::create(b, loc, probabilities, sum))};
}

/// layer_norm: its backward op, from the statistics the op saved or, when
/// it saved none, from a copy that does. Gradients reaching the saved
/// statistics themselves are not propagated.
static Gradients gradientOf(LayerNormOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  ValueRange stats = op.getStatistics();
  if (stats.empty())
    stats = LayerNormOp::create(b, loc, op.getInput(), op.getGamma(),
                                op.getBeta(), op.getAxisAttr(),
                                op.getEpsAttr(), b.getUnitAttr())
                .getStatistics();
  auto backward = LayerNormBackwardOp::create(
      b, loc, g, op.getInput(), op.getGamma(), stats[0], stats[1],
      op.getAxisAttr());
  return SmallVector<Value>(backward->getResults());
}

static Gradients gradientOf(RmsNormOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  ValueRange stats = op.getStatistics();
  if (stats.empty())
    stats = RmsNormOp::create(b, loc, op.getInput(), op.getGamma(),
                              op.getBeta(), op.getAxisAttr(), op.getEpsAttr(),
                              b.getUnitAttr())
                .getStatistics();
  auto backward = RmsNormBackwardOp::create(
      b, loc, g, op.getInput(), op.getGamma(), stats[0], op.getAxisAttr(),
      op.getBeta() ? b.getUnitAttr() : UnitAttr());
  return SmallVector<Value>(backward->getResults());
}

/// layer_norm2d is layer_norm along the channels.
static Gradients gradientOf(LayerNorm2dOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  IntegerAttr axis = b.getI64IntegerAttr(1);
  ValueRange stats =
      LayerNormOp::create(b, loc, op.getInput(), op.getGamma(), op.getBeta(),
                          axis, op.getEpsAttr(), b.getUnitAttr())
          .getStatistics();
  auto backward = LayerNormBackwardOp::create(
      b, loc, g, op.getInput(), op.getGamma(), stats[0], stats[1], axis);
  return SmallVector<Value>(backward->getResults());
}

static Gradients gradientOf(GroupNormOp op, OpBuilder &b, Value g) {
  auto backward = GroupNormBackwardOp::create(
      b, op.getLoc(), g, op.getInput(), op.getGamma(), op.getGroupsAttr(),
      op.getEpsAttr());
  return SmallVector<Value>(backward->getResults());
}

/// batch_norm_inference: its backward op for input, gamma and beta; the
/// running statistics, if differentiated, from dgamma and dbeta:
/// dmean = -dbeta gamma rstd and dvariance = -dgamma gamma rstd^2 / 2.
static Gradients gradientOf(BatchNormInferenceOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  auto backward = BatchNormInferenceBackwardOp::create(
      b, loc, g, op.getInput(), op.getGamma(), op.getMean(),
      op.getVariance(), op.getEpsAttr());
  Value gamma = op.getGamma();
  Value rstd = RsqrtOp::create(
      b, loc,
      AddOp::create(b, loc, op.getVariance(),
                    scalar(b, loc, gamma, op.getEps().convertToDouble())));
  Value gammaRstd = MulOp::create(b, loc, gamma, rstd);
  Value dmean = NegOp::create(
      b, loc, MulOp::create(b, loc, backward.getDbeta(), gammaRstd));
  Value dvariance = MulOp::create(
      b, loc,
      MulOp::create(b, loc, backward.getDgamma(),
                    MulOp::create(b, loc, gammaRstd, rstd)),
      scalar(b, loc, gamma, -0.5));
  return {backward.getDx(), backward.getDgamma(), backward.getDbeta(), dmean,
          dvariance};
}

static Gradients gradientOf(AdaLayerNormOp op, OpBuilder &b, Value g) {
  auto backward = AdaLayerNormBackwardOp::create(
      b, op.getLoc(), op.getKindAttr(), g, op.getInput(), op.getScale(),
      op.getEpsAttr());
  return SmallVector<Value>(backward->getResults());
}

static Gradients gradientOf(GatedResidualOp op, OpBuilder &b, Value g) {
  auto backward = GatedResidualBackwardOp::create(
      b, op.getLoc(), g, op.getUpdate(), op.getGate());
  return SmallVector<Value>(backward->getResults());
}

/// The losses: the logits' gradient; targets and labels get none.
static Gradients gradientOf(SoftmaxCrossEntropyOp op, OpBuilder &b, Value g) {
  return {SoftmaxCrossEntropyBackwardOp::create(b, op.getLoc(), op.getLogits(),
                                                op.getTargets(), g),
          Value()};
}

static Gradients gradientOf(SoftmaxCrossEntropyWithLabelsOp op, OpBuilder &b,
                            Value g) {
  return {SoftmaxCrossEntropyWithLabelsBackwardOp::create(
              b, op.getLoc(), op.getLogits(), op.getLabels(), g),
          Value()};
}

/// Whether `value` [N, C, X...] has a `?` spatial size.
static bool hasDynamicSpatialSize(Value value) {
  return llvm::any_of(getTensorType(value).getShape().drop_front(2),
                      ShapedType::isDynamic);
}

/// The input gradient takes `?` spatial sizes from the input itself: a
/// strided convolution's result does not give them.
static Gradients gradientOf(ConvOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  Value sizes = hasDynamicSpatialSize(op.getInput()) ? op.getInput() : Value();
  Value dx = ConvBackwardInputOp::create(
      b, loc, op.getInput().getType(), g, op.getWeight(), sizes,
      op.getStrideAttr(), op.getPaddingAttr(), op.getDilationAttr(),
      op.getGroupsAttr());
  Value dw = ConvBackwardWeightOp::create(
      b, loc, op.getWeight().getType(), g, op.getInput(), op.getStrideAttr(),
      op.getPaddingAttr(), op.getDilationAttr(), op.getGroupsAttr());
  return {dx, dw};
}

static Gradients gradientOf(PoolOp op, OpBuilder &b, Value g) {
  return {PoolBackwardOp::create(b, op.getLoc(), op.getKindAttr(), g,
                                 op.getInput(), op.getKernelAttr(),
                                 op.getStrideAttr(), op.getPaddingAttr(),
                                 op.getCeilModeAttr(),
                                 op.getCountIncludePadAttr())};
}

static Gradients gradientOf(ConvTransposeOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  Value dx = ConvTransposeBackwardInputOp::create(
      b, loc, op.getInput().getType(), g, op.getWeight(), op.getStrideAttr(),
      op.getPaddingAttr(), op.getOutputPaddingAttr(), op.getDilationAttr(),
      op.getGroupsAttr());
  Value dw = ConvTransposeBackwardWeightOp::create(
      b, loc, op.getWeight().getType(), g, op.getInput(), op.getStrideAttr(),
      op.getPaddingAttr(), op.getOutputPaddingAttr(), op.getDilationAttr(),
      op.getGroupsAttr());
  return {dx, dw};
}

static Gradients gradientOf(GlobalPoolOp op, OpBuilder &b, Value g) {
  return {GlobalPoolBackwardOp::create(b, op.getLoc(), op.getKindAttr(), g,
                                       op.getInput())};
}

/// resize_nearest2x: each 2x2 block of the gradient summed.
static Gradients gradientOf(ResizeNearest2xOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  RankedTensorType inputType = op.getInput().getType();
  ArrayRef<int64_t> shape = inputType.getShape();
  // One `?` size at most: a reshape matches them in order.
  if (llvm::count_if(shape, ShapedType::isDynamic) > 1)
    return {Value()};
  SmallVector<int64_t> blocks = {shape[0], shape[1], shape[2], 2, shape[3], 2};
  Value viewed = ReshapeOp::create(b, loc, inputType.clone(blocks), g);
  return {ReduceOp::create(b, loc, viewed, ReduceKind::Sum,
                           ArrayRef<int64_t>{3, 5}, /*keep_dim=*/false)};
}

/// interpolate_nearest: per spatial dimension, the gradient times the
/// one-hot [O, X] matrix of the input index each output index reads.
static Gradients gradientOf(InterpolateNearestOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  RankedTensorType inputType = op.getInput().getType();
  Type element = inputType.getElementType();
  int64_t rank = inputType.getRank();
  Value grad = g;
  for (int64_t d = 2; d < rank; ++d) {
    int64_t in = inputType.getDimSize(d);
    int64_t out = getTensorType(grad).getDimSize(d);
    // The one-hot matrix is a constant.
    if (ShapedType::isDynamic(in) || ShapedType::isDynamic(out))
      return {Value()};
    SmallVector<Attribute> selects;
    for (int64_t o = 0; o < out; ++o)
      for (int64_t x = 0; x < in; ++x)
        selects.push_back(b.getFloatAttr(element, o * in / out == x));
    Value onehot = ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(RankedTensorType::get({out, in}, element),
                               selects));
    SmallVector<int64_t> toLast = llvm::to_vector(llvm::seq<int64_t>(rank));
    std::swap(toLast[d], toLast[rank - 1]);
    Value moved = TransposeOp::create(b, loc, grad, toLast);
    grad = TransposeOp::create(b, loc, MatmulOp::create(b, loc, moved, onehot),
                               toLast);
  }
  return {grad};
}

/// The table's gradient scatter-adds; the indices get none.
static Gradients gradientOf(GatherOp op, OpBuilder &b, Value g) {
  return {GatherBackwardOp::create(b, op.getLoc(), op.getTable().getType(), g,
                                   op.getIndices(), op.getAxisAttr()),
          Value()};
}

static Gradients gradientOf(CumsumOp op, OpBuilder &b, Value g) {
  return {CumsumBackwardOp::create(b, op.getLoc(), g, op.getAxisAttr(),
                                   op.getExclusiveAttr())};
}

/// narrow: the gradient in its place along the axis, zeros elsewhere.
static Gradients gradientOf(NarrowOp op, OpBuilder &b, Value g) {
  int64_t axis = normalizeAxis(op.getAxis(), op.getInput().getType().getRank());
  return {placeAlong(b, op.getLoc(), g, op.getInput(), axis, op.getStart(),
                     /*fromEnd=*/false)};
}

/// concat: each input's window of the gradient.
static Gradients gradientOf(ConcatOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  int64_t axis = normalizeAxis(op.getAxis(), getTensorType(g).getRank());
  Gradients grads;
  int64_t offset = 0;
  for (Value input : op.getInputs()) {
    int64_t length = getTensorType(input).getDimSize(axis);
    grads.push_back(NarrowOp::create(b, loc, g, axis, offset, length));
    offset += length;
  }
  return grads;
}

/// slice: the gradient in the places it was read from, zeros elsewhere. A
/// negative step reads backwards: the reversed gradient, forwards from the
/// last index read; a step k > 1 leaves k - 1 zeros between elements.
static Gradients gradientOf(SliceOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  RankedTensorType inputType = op.getInput().getType();
  int64_t rank = inputType.getRank();
  int64_t axis = normalizeAxis(op.getAxis(), rank);
  int64_t length = op.getLength(), step = op.getStep();
  if (length == 0)
    return {createSplatLike(b, loc, op.getInput(), 0.0)};
  int64_t first = op.getStart();
  Value grad = g;
  if (step < 0) {
    grad = ReverseOp::create(b, loc, grad, ArrayRef<int64_t>{axis});
    first += (length - 1) * step;
    step = -step;
  }
  if (step > 1) {
    SmallVector<int64_t> spread(getTensorType(grad).getShape());
    spread.insert(spread.begin() + axis + 1, 1);
    grad = ReshapeOp::create(b, loc, getTensorType(grad).clone(spread), grad);
    grad = padAxis(b, loc, grad, axis + 1, 0, step - 1);
    SmallVector<int64_t> flat(inputType.getShape());
    flat[axis] = length * step;
    grad = ReshapeOp::create(b, loc, getTensorType(grad).clone(flat), grad);
    grad = NarrowOp::create(b, loc, grad, axis, 0, (length - 1) * step + 1);
  }
  return {placeAlong(b, loc, grad, op.getInput(), axis, first,
                     /*fromEnd=*/false)};
}

/// pad, one dimension at a time: the padding undone (negative pads: a
/// crop's gradient is zeros), plus what each border read from the input
/// added back where it read it.
static Gradients gradientOf(PadOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  ArrayRef<int64_t> pads = op.getPads();
  Value grad = g;
  for (int64_t d = 0, rank = op.getInput().getType().getRank(); d < rank; ++d) {
    int64_t lo = pads[2 * d], hi = pads[2 * d + 1];
    if (lo == 0 && hi == 0)
      continue;
    Value inner = padAxis(b, loc, grad, d, -lo, -hi);
    if (op.getMode() == PadMode::Constant) {
      grad = inner;
      continue;
    }
    Value low = lo ? NarrowOp::create(b, loc, grad, d, 0, lo) : Value();
    Value high = hi ? lastAlong(b, loc, grad, d, hi) : Value();
    auto addBack = [&](Value part, int64_t offset, bool fromEnd) {
      inner = AddOp::create(
          b, loc, inner, placeAlong(b, loc, part, inner, d, offset, fromEnd));
    };
    auto reversed = [&](Value part) {
      return ReverseOp::create(b, loc, part, ArrayRef<int64_t>{d});
    };
    auto summed = [&](Value part) {
      return ReduceOp::create(b, loc, part, ReduceKind::Sum,
                              ArrayRef<int64_t>{d}, /*keep_dim=*/true);
    };
    switch (op.getMode()) {
    case PadMode::Reflect: // low[i] read x[lo - i], high[k] read x[n - 2 - k]
      if (low)
        addBack(reversed(low), 1, /*fromEnd=*/false);
      if (high)
        addBack(reversed(high), 1, /*fromEnd=*/true);
      break;
    case PadMode::Replicate: // the edges
      if (low)
        addBack(summed(low), 0, /*fromEnd=*/false);
      if (high)
        addBack(summed(high), 0, /*fromEnd=*/true);
      break;
    case PadMode::Circular: // the other end
      if (low)
        addBack(low, 0, /*fromEnd=*/true);
      if (high)
        addBack(high, 0, /*fromEnd=*/false);
      break;
    case PadMode::Constant:
      break;
    }
    grad = inner;
  }
  return {grad};
}

/// tile: the gradient viewed as [r0, n0, r1, n1, ...] summed over the
/// repetitions.
static Gradients gradientOf(TileOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  RankedTensorType inputType = op.getInput().getType();
  RankedTensorType gradType = getTensorType(g);
  if (gradType.hasStaticShape() && gradType.getNumElements() == 0)
    return {createSplatLike(b, loc, op.getInput(), 0.0)};
  SmallVector<int64_t> blocks, repetitionAxes;
  for (auto [size, reps] :
       llvm::zip_equal(inputType.getShape(), op.getReps())) {
    // A reshape cannot split a `?` size into repetitions and a `?` block.
    if (ShapedType::isDynamic(size) && reps != 1)
      return {Value()};
    repetitionAxes.push_back(blocks.size());
    blocks.append({reps, size});
  }
  Value viewed = ReshapeOp::create(b, loc, inputType.clone(blocks), g);
  return {ReduceOp::create(b, loc, viewed, ReduceKind::Sum, repetitionAxes,
                           /*keep_dim=*/false)};
}

/// The same mask and scale on the gradient: dropout with the same key.
static Gradients gradientOf(DropoutOp op, OpBuilder &b, Value g) {
  return {DropoutOp::create(b, op.getLoc(), g, op.getSeed(), op.getOffset(),
                            op.getPAttr()),
          Value(), Value()};
}

/// The straight-through estimator: the result's gradient where the input's
/// quantized value lies in [quant_min, quant_max]; the scale and the
/// integer zero point receive none (as in PyTorch).
static Gradients gradientOf(FakeQuantizeOp op, OpBuilder &b, Value g) {
  return {FakeQuantizeBackwardOp::create(
              b, op.getLoc(), g, op.getInput(), op.getScale(),
              op.getZeroPoint(), op.getQuantMinAttr(), op.getQuantMaxAttr(),
              op.getAxisAttr()),
          Value(), Value()};
}

/// LSQ: the input's, the scale's and the zero point's gradients, in one op.
static Gradients gradientOf(FakeQuantizeLsqOp op, OpBuilder &b, Value g) {
  auto backward = FakeQuantizeLsqBackwardOp::create(
      b, op.getLoc(), g, op.getInput(), op.getScale(), op.getZeroPoint(),
      op.getQuantMinAttr(), op.getQuantMaxAttr(), op.getAxisAttr(),
      op.getGradFactorAttr());
  return {backward.getDx(), backward.getDscale(), backward.getDzeroPoint()};
}

static Gradients gradientOf(ReverseOp op, OpBuilder &b, Value g) {
  return {ReverseOp::create(b, op.getLoc(), g, op.getAxes())};
}

static Gradients gradientOf(RollOp op, OpBuilder &b, Value g) {
  SmallVector<int64_t> back = llvm::map_to_vector(
      op.getShifts(), [](int64_t shift) { return -shift; });
  return {RollOp::create(b, op.getLoc(), g, back, op.getDims())};
}

static Gradients gradientOf(TriluOp op, OpBuilder &b, Value g) {
  return {TriluOp::create(b, op.getLoc(), g, op.getPartAttr(),
                          op.getDiagonalAttr())};
}

/// The size of dimension `dim` of `data` as a rank-0 tensor of integer type
/// `element` (rlx.numel, a constant where the size is static).
static Value dimSize(OpBuilder &b, Location loc, Value data, int64_t dim,
                     Type element) {
  return NumelOp::create(b, loc, RankedTensorType::get({}, element), data,
                         ArrayRef<int64_t>{dim});
}

/// The sizes of the `count` dimensions of `data` from `first` that the last
/// dimension of n-d indices addresses, as a `[count]` tensor of `element`,
/// which broadcasts against the indices.
static Value dimSizes(OpBuilder &b, Location loc, Value data, int64_t first,
                      int64_t count, Type element) {
  SmallVector<Value> sizes;
  for (int64_t j = 0; j < count; ++j)
    sizes.push_back(
        ReshapeOp::create(b, loc, RankedTensorType::get({1}, element),
                          dimSize(b, loc, data, first + j, element)));
  return count == 1 ? sizes.front()
                    : ConcatOp::create(b, loc, sizes, /*axis=*/0).getResult();
}

/// `indices` wrapped once from [-n, 0), for the sizes `sizes`.
static Value wrapIndices(OpBuilder &b, Location loc, Value indices,
                         Value sizes) {
  Type element = getTensorType(indices).getElementType();
  return WhereOp::create(
      b, loc, LtOp::create(b, loc, indices, integerScalar(b, loc, element, 0)),
      AddOp::create(b, loc, indices, sizes), indices);
}

/// `indices` as the gathers read them (wrapped once, then clamped to
/// [0, n - 1]): where a gather's gradient adds back.
static Value clampGatherIndices(OpBuilder &b, Location loc, Value indices,
                                Value sizes) {
  Type element = getTensorType(indices).getElementType();
  Value last = SubOp::create(b, loc, sizes, integerScalar(b, loc, element, 1));
  Value low = MaxOp::create(b, loc, wrapIndices(b, loc, indices, sizes),
                            integerScalar(b, loc, element, 0));
  return MinOp::create(b, loc, low, last);
}

/// Whether each index in `indices` is in [-n, n) for the sizes `sizes`
/// (those a scatter writes rather than drops); for n-d indices (`nd`),
/// every coordinate along the last dimension, which is dropped.
static Value inRangeMask(OpBuilder &b, Location loc, Value indices, Value sizes,
                         bool nd) {
  Type element = getTensorType(indices).getElementType();
  Value wrapped = wrapIndices(b, loc, indices, sizes);
  Value fits = BitAndOp::create(
      b, loc, GeOp::create(b, loc, wrapped, integerScalar(b, loc, element, 0)),
      LtOp::create(b, loc, wrapped, sizes));
  if (!nd)
    return fits;
  RankedTensorType type = getTensorType(fits);
  Value counts = CastOp::create(b, loc, type.clone(element), fits);
  Value all = ReduceOp::create(b, loc, counts, ReduceKind::Min,
                               ArrayRef<int64_t>{type.getRank() - 1},
                               /*keep_dim=*/false);
  return NeOp::create(b, loc, all, integerScalar(b, loc, element, 0));
}

static Gradients gradientOf(GatherElementsOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  int64_t axis = normalizeAxis(op.getAxis(), op.getInput().getType().getRank());
  Value indices = op.getIndices();
  Value sizes = dimSize(b, loc, op.getInput(), axis,
                        getTensorType(indices).getElementType());
  return {
      ScatterAddOp::create(b, loc, createSplatLike(b, loc, op.getInput(), 0.0),
                           clampGatherIndices(b, loc, indices, sizes), g, axis),
      Value()};
}

static Gradients gradientOf(GatherNdOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  Value indices = op.getIndices();
  RankedTensorType indicesType = op.getIndices().getType();
  int64_t batch = op.getBatchDims();
  Value sizes =
      dimSizes(b, loc, op.getData(), batch, indicesType.getShape().back(),
               indicesType.getElementType());
  return {ScatterNdOp::create(b, loc,
                              createSplatLike(b, loc, op.getData(), 0.0),
                              clampGatherIndices(b, loc, indices, sizes), g,
                              ScatterReduction::Add, batch),
          Value()};
}

/// topk: the values' gradient goes back to the positions they were taken
/// from.
static Gradients gradientOf(TopKOp op, OpBuilder &b, Value g) {
  Value input = op.getInput();
  return {ScatterAddOp::create(
      b, op.getLoc(), createSplatLike(b, op.getLoc(), input, 0.0),
      op.getIndices(), g, getTensorType(input).getRank() - 1)};
}

/// dgates[t, j] = dy[t] . product(x[t], ids[t, j]) of a gated grouped
/// product: the ungated products of the T*k (row, expert) pairs, made by
/// `ungated` from x repeated k times ([T*k, K]) and the ids flattened
/// ([T*k]), dotted with dy.
static Value
createGateGradient(OpBuilder &b, Location loc, Value x, Value g, Value ids,
                   Value gates,
                   llvm::function_ref<Value(Value, Value)> ungated) {
  RankedTensorType xType = getTensorType(x);
  int64_t rows = xType.getDimSize(0), depth = xType.getDimSize(1),
          columns = getTensorType(g).getDimSize(1),
          topK = getTensorType(gates).getDimSize(1);
  auto reshape = [&](Value value, ArrayRef<int64_t> shape) -> Value {
    return ReshapeOp::create(
        b, loc,
        RankedTensorType::get(shape, getTensorType(value).getElementType()),
        value);
  };
  // x repeated k times (a product with ones, exact), one row per
  // (row, expert) pair.
  Value ones = ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(
          RankedTensorType::get({1, topK, 1}, xType.getElementType()),
          b.getFloatAttr(xType.getElementType(), 1.0)));
  int64_t pairs =
      ShapedType::isDynamic(rows) ? ShapedType::kDynamic : rows * topK;
  Value repeated =
      reshape(MulOp::create(b, loc, reshape(x, {rows, 1, depth}), ones),
              {pairs, depth});
  Value products = ungated(repeated, reshape(ids, {pairs}));
  Value dotted = MulOp::create(b, loc, reshape(products, {rows, topK, columns}),
                               reshape(g, {rows, 1, columns}));
  return ReduceOp::create(b, loc, dotted, ReduceKind::Sum, ArrayRef<int64_t>{2},
                          /*keep_dim=*/false);
}

/// grouped_matmul, y[t] = sum_j gates[t, j] x[t] W[ids[t, j]] (one
/// unit-gated term without gates):
///   dx[t] = sum_j gates[t, j] dy[t] W[ids[t, j]]^T: grouped_matmul of dy
///     with the experts transposed, same ids and gates;
///   dW[e] = sum_(t, j: ids[t, j] = e) gates[t, j] x[t]^T dy[t]: the per-row
///     outer products ([T, K, N], [T, k, K, N] gated) scatter-added over the
///     expert axis by rlx.gather_backward, whose index rule (wrap once,
///     clamp) is the forward's, so a row's gradient reaches the expert its
///     forward read, and repeated ids accumulate in row order;
///   dgates[t, j] = dy[t] . (x[t] W[ids[t, j]]): the ungated products of
///     the T*k (row, expert) pairs as one grouped_matmul of x repeated k
///     times, dotted with dy.
/// The outer products are the cost: T*K*N (T*k*K*N) elements where a
/// segmented backward (x^T dy per expert segment) would write E*K*N.
static Gradients gradientOf(GroupedMatmulOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  Value x = op.getInput(), w = op.getWeight(), ids = op.getExpertIds(),
        gates = op.getGates();
  RankedTensorType xType = getTensorType(x), gType = getTensorType(g);
  int64_t rows = xType.getDimSize(0), depth = xType.getDimSize(1),
          columns = gType.getDimSize(1);
  auto reshape = [&](Value value, ArrayRef<int64_t> shape) -> Value {
    return ReshapeOp::create(
        b, loc,
        RankedTensorType::get(shape, getTensorType(value).getElementType()),
        value);
  };
  Value wt = TransposeOp::create(b, loc, w, ArrayRef<int64_t>{0, 2, 1});
  Value dx = GroupedMatmulOp::create(b, loc, g, wt, ids, gates);
  // outer[t, k, n] = x[t, k] dy[t, n]
  Value outer = MulOp::create(b, loc, reshape(x, {rows, depth, 1}),
                              reshape(g, {rows, 1, columns}));
  if (!gates) {
    Value dw = GatherBackwardOp::create(b, loc, w.getType(), outer, ids,
                                        b.getI64IntegerAttr(0));
    return {dx, dw, Value()};
  }
  int64_t topK = getTensorType(gates).getDimSize(1);
  Value gated = MulOp::create(b, loc, reshape(gates, {rows, topK, 1, 1}),
                              reshape(outer, {rows, 1, depth, columns}));
  Value dw = GatherBackwardOp::create(b, loc, w.getType(), gated, ids,
                                      b.getI64IntegerAttr(0));
  Value dgates = createGateGradient(
      b, loc, x, g, ids, gates, [&](Value pairRows, Value pairIds) -> Value {
        return GroupedMatmulOp::create(b, loc, pairRows, w, pairIds, Value());
      });
  return {dx, dw, Value(), dgates};
}

/// The quantized experts are constants (no gradient): dx[t] = sum_j
/// gates[t, j] dy[t] W[ids[t, j]], a grouped_matmul of dy with the experts
/// dequantized once (rlx.dequant_weight: [E, N, K], an [E, K', N'] weight
/// of the product with K' = N), cast to the input's type; dgates as for
/// grouped_matmul, the pairs' ungated products made by this op.
static Gradients gradientOf(DequantGroupedMatmulOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  Value w = createDequantizedWeight(op, b);
  Value ids = op.getExpertIds(), gates = op.getGates();
  Gradients grads(op->getNumOperands(), Value());
  grads[0] = GroupedMatmulOp::create(b, loc, g, w, ids, gates);
  if (gates)
    grads[3] =
        createGateGradient(b, loc, op.getInput(), g, ids, gates,
                           [&](Value pairRows, Value pairIds) -> Value {
                             return DequantGroupedMatmulOp::create(
                                 b, loc, pairRows, op.getWeight(), pairIds,
                                 Value(), op.getScales(), op.getZeroPoints(),
                                 op.getSchemeAttr(), op.getGroupSizeAttr());
                           });
  return grads;
}

/// sort: the values' gradient goes back to the positions they came from,
/// dx[indices[j]] = g[j] along the axis (a permutation, so every position
/// receives exactly one).
static Gradients gradientOf(SortOp op, OpBuilder &b, Value g) {
  Value input = op.getInput();
  return {ScatterAddOp::create(b, op.getLoc(),
                               createSplatLike(b, op.getLoc(), input, 0.0),
                               op.getIndices(), g, op.getNormalizedAxis())};
}

/// histogram: no gradient flows through the counts (torch.histc's result
/// does not require grad).
static Gradients gradientOf(HistogramOp op, OpBuilder &b, Value) {
  return {createSplatLike(b, op.getLoc(), op.getInput(), 0.0)};
}

namespace {
/// What the gradients of scatter_elements, scatter_add and scatter_nd share:
/// a scatter of the same form into another tensor, the gather that reads
/// back where each update landed, and which updates were written.
struct ScatterForm {
  OpBuilder &b;
  Location loc;
  Value indices;
  // scatter_nd: its batch_dims; scatter_elements: its axis.
  int64_t axisOrBatch;
  bool nd;
  // The updates' shape, and the shape of one mask entry per index position
  // (the indices' shape without the coordinates for nd) spread over it.
  RankedTensorType updatesType;

  Value scatter(Value data, Value updates, ScatterReduction reduction) const {
    if (nd)
      return ScatterNdOp::create(b, loc, data, indices, updates, reduction,
                                 axisOrBatch);
    return ScatterElementsOp::create(b, loc, data, indices, updates,
                                     axisOrBatch, reduction);
  }
  /// Where each update landed in `t` (of the data's shape), read back.
  Value gather(Value t) const {
    if (nd)
      return GatherNdOp::create(b, loc, t, indices, axisOrBatch);
    return GatherElementsOp::create(b, loc, t, indices, axisOrBatch);
  }
  /// A mask over the index positions, broadcast to the updates: for nd,
  /// with a unit dimension for each slice dimension.
  Value spread(Value mask) const {
    if (!nd)
      return mask;
    RankedTensorType type = getTensorType(mask);
    SmallVector<int64_t> shape(type.getShape());
    shape.resize(updatesType.getRank(), 1);
    return ReshapeOp::create(b, loc, type.clone(shape), mask);
  }
  /// Whether each update was written rather than dropped.
  Value written(Value data) const {
    RankedTensorType indicesType = getTensorType(indices);
    Type element = indicesType.getElementType();
    Value sizes = nd ? dimSizes(b, loc, data, axisOrBatch,
                                indicesType.getShape().back(), element)
                     : dimSize(b, loc, data, axisOrBatch, element);
    return spread(inRangeMask(b, loc, indices, sizes, nd));
  }
  /// A distinct i64 id for each index position, spread over the updates
  /// (static shapes only; else null).
  Value positionIds() const {
    RankedTensorType type = getTensorType(indices);
    SmallVector<int64_t> shape(type.getShape());
    if (nd)
      shape.pop_back();
    auto idsType = RankedTensorType::get(shape, b.getI64Type());
    if (!idsType.hasStaticShape() || !updatesType.hasStaticShape())
      return Value();
    Value flat = IotaOp::create(
        b, loc,
        RankedTensorType::get({idsType.getNumElements()}, b.getI64Type()), 0);
    Value ids = spread(ReshapeOp::create(b, loc, idsType, flat));
    return ExpandOp::create(
        b, loc, RankedTensorType::get(updatesType.getShape(), b.getI64Type()),
        ids, Value());
  }
};
} // namespace

/// The gradients of a scatter's data and updates from the gradient `g` of
/// its result `result`:
///
/// - none: the data's where it was not overwritten; an update's where it
///   is the one that stayed (the last written at its position), found by
///   scattering each update's position id and reading it back.
/// - add: the data's is `g`; a written update's is `g` where it landed.
/// - mul: with P the product of the nonzero factors at a position (the
///   data's and the written updates') and Z the number of zero ones, a
///   factor's gradient is `g * P / factor` when Z = 0, `g * P` for the only
///   zero factor when Z = 1, and 0 otherwise: exact with zeros, unlike
///   dividing the result.
/// - max/min: `g` shared equally by the factors equal to the result (the
///   data's and the written updates'), as torch.scatter_reduce does.
static Gradients scatterGradients(const ScatterForm &form, Value data,
                                  Value updates, Value result,
                                  ScatterReduction reduction, Value g) {
  OpBuilder &b = form.b;
  Location loc = form.loc;
  Value zeroUpdates = createSplatLike(b, loc, updates, 0.0);
  Value written = form.written(data);
  auto onWritten = [&](Value t) {
    return WhereOp::create(b, loc, written, t, zeroUpdates).getResult();
  };
  switch (reduction) {
  case ScatterReduction::None: {
    Value ids = form.positionIds();
    if (!ids)
      return {form.scatter(g, zeroUpdates, ScatterReduction::None), Value(),
              Value()};
    RankedTensorType dataType = getTensorType(data);
    Value noIds = ExpandOp::create(b, loc, dataType.clone(b.getI64Type()),
                                   integerScalar(b, loc, b.getI64Type(), -1),
                                   dataType.hasStaticShape() ? Value() : data);
    Value stayed = EqOp::create(
        b, loc, form.gather(form.scatter(noIds, ids, ScatterReduction::None)),
        ids);
    return {form.scatter(g, zeroUpdates, ScatterReduction::None), Value(),
            WhereOp::create(b, loc, stayed, form.gather(g), zeroUpdates)};
  }
  case ScatterReduction::Add:
    return {g, Value(), onWritten(form.gather(g))};
  case ScatterReduction::Mul: {
    Value one = scalar(b, loc, data, 1.0), zero = scalar(b, loc, data, 0.0);
    Value dataZero = EqOp::create(b, loc, data, zero);
    Value updateZero = EqOp::create(b, loc, updates, zero);
    Value products =
        form.scatter(WhereOp::create(b, loc, dataZero, one, data),
                     WhereOp::create(b, loc, updateZero, one, updates),
                     ScatterReduction::Mul);
    Value ones = createSplatLike(b, loc, data, 1.0);
    Value zeros = createSplatLike(b, loc, data, 0.0);
    Value zeroCounts =
        form.scatter(WhereOp::create(b, loc, dataZero, ones, zeros),
                     onWritten(WhereOp::create(
                         b, loc, updateZero,
                         createSplatLike(b, loc, updates, 1.0), zeroUpdates)),
                     ScatterReduction::Add);
    Value gp = MulOp::create(b, loc, g, products);
    // A factor's share: g P / factor with no zeros, g P for the only zero.
    auto share = [&](Value factor, Value isZero, Value counts, Value gpAt) {
      Value noZeros = EqOp::create(b, loc, counts, zero);
      Value onlyZero =
          BitAndOp::create(b, loc, isZero, EqOp::create(b, loc, counts, one));
      Value safe = WhereOp::create(b, loc, isZero, one, factor);
      return WhereOp::create(
          b, loc, noZeros, DivOp::create(b, loc, gpAt, safe),
          WhereOp::create(b, loc, onlyZero, gpAt, scalar(b, loc, data, 0.0)));
    };
    Value ddata = share(data, dataZero, zeroCounts, gp);
    Value dupdates =
        share(updates, updateZero, form.gather(zeroCounts), form.gather(gp));
    return {ddata, Value(), onWritten(dupdates)};
  }
  case ScatterReduction::Max:
  case ScatterReduction::Min: {
    Value ones = createSplatLike(b, loc, data, 1.0);
    Value zeros = createSplatLike(b, loc, data, 0.0);
    Value dataWins = EqOp::create(b, loc, data, result);
    Value updateWins = BitAndOp::create(
        b, loc, EqOp::create(b, loc, updates, form.gather(result)), written);
    Value counts = form.scatter(
        WhereOp::create(b, loc, dataWins, ones, zeros),
        WhereOp::create(b, loc, updateWins,
                        createSplatLike(b, loc, updates, 1.0), zeroUpdates),
        ScatterReduction::Add);
    // Where no factor equals the result (a NaN), nothing is divided.
    Value shared = DivOp::create(
        b, loc, g, MaxOp::create(b, loc, counts, scalar(b, loc, data, 1.0)));
    return {
        WhereOp::create(b, loc, dataWins, shared, zeros), Value(),
        WhereOp::create(b, loc, updateWins, form.gather(shared), zeroUpdates)};
  }
  }
  return {};
}

static Gradients gradientOf(ScatterElementsOp op, OpBuilder &b, Value g) {
  ScatterForm form{b,
                   op.getLoc(),
                   op.getIndices(),
                   op.getNormalizedAxis(),
                   /*nd=*/false,
                   op.getUpdates().getType()};
  return scatterGradients(form, op.getData(), op.getUpdates(), op.getResult(),
                          op.getReduction(), g);
}

static Gradients gradientOf(ScatterAddOp op, OpBuilder &b, Value g) {
  ScatterForm form{b,
                   op.getLoc(),
                   op.getIndices(),
                   op.getNormalizedAxis(),
                   /*nd=*/false,
                   op.getUpdates().getType()};
  return scatterGradients(form, op.getData(), op.getUpdates(), op.getResult(),
                          ScatterReduction::Add, g);
}

static Gradients gradientOf(ScatterNdOp op, OpBuilder &b, Value g) {
  ScatterForm form{b,
                   op.getLoc(),
                   op.getIndices(),
                   op.getBatchDims(),
                   /*nd=*/true,
                   op.getUpdates().getType()};
  return scatterGradients(form, op.getData(), op.getUpdates(), op.getResult(),
                          op.getReduction(), g);
}

/// kv_append: the cache's gradient is the result's with the written
/// window zeroed (a write of zeros at the same clamped position); the
/// update's is that window of the result's, read with gather at the
/// position clamped to [0, S - L] (S read at run time where it is `?`).
static Gradients gradientOf(KvAppendOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  int64_t axis = op.getNormalizedAxis();
  Value update = op.getUpdate(), position = op.getPosition();
  Value dcache = KvAppendOp::create(
      b, loc, g, createSplatLike(b, loc, update, 0.0), position, axis);
  int64_t rows = op.getUpdate().getType().getDimSize(axis);
  // The window's positions are an iota of static length.
  if (ShapedType::isDynamic(rows))
    return {dcache, Value(), Value()};
  Type indexElement = getTensorType(position).getElementType();
  Value length =
      NumelOp::create(b, loc, RankedTensorType::get({}, indexElement),
                      op.getCache(), ArrayRef<int64_t>{axis});
  Value last =
      SubOp::create(b, loc, length, integerScalar(b, loc, indexElement, rows));
  Value start = MaxOp::create(b, loc, MinOp::create(b, loc, position, last),
                              integerScalar(b, loc, indexElement, 0));
  Value written = AddOp::create(b, loc, start,
                                iota(b, loc, indexElement, {rows}, 0));
  return {dcache, GatherOp::create(b, loc, g, written, axis), Value()};
}

/// The position of `dim` among the sorted `dims`.
static int64_t sortedPosition(ArrayRef<int64_t> dims, int64_t dim) {
  return llvm::count_if(dims, [&](int64_t d) { return d < dim; });
}

/// dot_general: each operand's gradient contracts the result gradient with
/// the other operand over that operand's free dimensions (batch dimensions
/// stay batch), then is transposed back into the operand's layout.
static Gradients gradientOf(DotGeneralOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  int64_t batch = op.getLhsBatchDims().size();
  SmallVector<int64_t> batchDims =
      llvm::to_vector(llvm::seq<int64_t>(0, batch));
  auto operandGradient = [&](bool isLhs) -> Value {
    Value other = isLhs ? op.getRhs() : op.getLhs();
    Value self = isLhs ? op.getLhs() : op.getRhs();
    ArrayRef<int64_t> selfBatch =
        isLhs ? op.getLhsBatchDims() : op.getRhsBatchDims();
    ArrayRef<int64_t> otherBatch =
        isLhs ? op.getRhsBatchDims() : op.getLhsBatchDims();
    ArrayRef<int64_t> selfContracting =
        isLhs ? op.getLhsContractingDims() : op.getRhsContractingDims();
    ArrayRef<int64_t> otherContracting =
        isLhs ? op.getRhsContractingDims() : op.getLhsContractingDims();
    SmallVector<int64_t> selfFree = op.getFreeDims(isLhs);
    SmallVector<int64_t> otherFree = op.getFreeDims(!isLhs);
    // The result gradient is [batch, lhs free, rhs free]; it contracts
    // its dimensions of the other operand's free ones with those.
    int64_t start = isLhs ? batch + selfFree.size() : batch;
    SmallVector<int64_t> gradContracting = llvm::to_vector(
        llvm::seq<int64_t>(start, start + otherFree.size()));
    Value product = DotGeneralOp::create(b, loc, g, other, batchDims,
                                         otherBatch, gradContracting,
                                         otherFree);
    // The product is [batch, self free, other's contracting dims sorted].
    int64_t rank = getTensorType(self).getRank();
    SmallVector<int64_t> permutation(rank);
    for (auto [k, d] : llvm::enumerate(selfBatch))
      permutation[d] = k;
    for (auto [j, d] : llvm::enumerate(selfFree))
      permutation[d] = batch + j;
    for (auto [d, o] : llvm::zip_equal(selfContracting, otherContracting))
      permutation[d] =
          batch + selfFree.size() + sortedPosition(otherContracting, o);
    return TransposeOp::create(b, loc, product, permutation);
  };
  return {operandGradient(true), operandGradient(false)};
}

/// cummax: each position's gradient goes to the position its running
/// maximum was taken from, the last one to reach it, as torch.cummax's
/// indices: a record (x == y, or a NaN) receives the gradients from itself
/// up to the next record, S[k] - S[next(k)] with S the reverse cumulative
/// sum of the gradient. The exclusive scan is the inclusive one moved one
/// position on.
static Gradients gradientOf(CummaxOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  Value x = op.getInput();
  RankedTensorType type = op.getType();
  int64_t axis = op.getNormalizedAxis();
  int64_t n = type.getDimSize(axis);
  if (ShapedType::isDynamic(n))
    return {Value()};
  if (n <= 1)
    return {op.getExclusive() ? createSplatLike(b, loc, g, 0.0) : g};
  Value y = op.getResult();
  if (op.getExclusive()) {
    g = padAxis(b, loc, NarrowOp::create(b, loc, g, axis, 1, n - 1), axis, 0,
                1);
    y = CummaxOp::create(b, loc, x, axis);
  }
  Value isRecord = BitOrOp::create(b, loc, EqOp::create(b, loc, x, y),
                                   NeOp::create(b, loc, x, x));
  Type i64 = b.getI64Type();
  SmallVector<int64_t> alongAxis(type.getRank(), 1);
  alongAxis[axis] = n;
  Value records =
      WhereOp::create(b, loc, isRecord, iota(b, loc, i64, alongAxis, axis),
                      integerScalar(b, loc, i64, n));
  // The first record at or after each position (a reverse running minimum,
  // the negated reverse running maximum of the negated positions), then
  // the next one after it: moved one position back, n past the end.
  auto reversed = [&](Value v) {
    return ReverseOp::create(b, loc, v, ArrayRef<int64_t>{axis});
  };
  Value firstFrom = NegOp::create(
      b, loc,
      reversed(CummaxOp::create(
          b, loc, reversed(NegOp::create(b, loc, records)), axis)));
  SmallVector<int64_t> pads(2 * type.getRank(), 0);
  pads[2 * axis + 1] = 1;
  Value next =
      PadOp::create(b, loc, NarrowOp::create(b, loc, firstFrom, axis, 1, n - 1),
                    PadMode::Constant, pads, b.getF64FloatAttr(n));
  Value suffix = CumsumBackwardOp::create(b, loc, g, axis);
  Value suffixAfter = GatherElementsOp::create(
      b, loc, padAxis(b, loc, suffix, axis, 0, 1), next, axis);
  return {WhereOp::create(b, loc, isRecord,
                          SubOp::create(b, loc, suffix, suffixAfter),
                          scalar(b, loc, g, 0.0))};
}

/// cumprod: dx[k] = prod(x[:k]) sum over i >= k of g[i] prod(x[k+1..i]),
/// without division, so zeros get PyTorch's gradients. With the axis moved
/// last, the products prod(x[k+1..i]) are a running product along the rows
/// of an [n, n] matrix per position (an intermediate n times the input).
/// The exclusive scan is the inclusive one moved one position on.
static Gradients gradientOf(CumprodOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  RankedTensorType type = op.getType();
  int64_t rank = type.getRank(), axis = op.getNormalizedAxis();
  int64_t n = type.getDimSize(axis);
  if (ShapedType::isDynamic(n))
    return {Value()};
  if (n <= 1)
    return {op.getExclusive() ? createSplatLike(b, loc, g, 0.0) : g};
  if (op.getExclusive())
    g = padAxis(b, loc, NarrowOp::create(b, loc, g, axis, 1, n - 1), axis, 0,
                1);
  SmallVector<int64_t> toLast = llvm::to_vector(llvm::seq<int64_t>(rank));
  std::swap(toLast[axis], toLast[rank - 1]);
  Value x = TransposeOp::create(b, loc, op.getInput(), toLast);
  Value grad = TransposeOp::create(b, loc, g, toLast);
  RankedTensorType lastType = getTensorType(x);
  SmallVector<int64_t> rowShape(lastType.getShape());
  rowShape.insert(rowShape.end() - 1, 1);
  auto asRow = [&](Value v) {
    return ReshapeOp::create(b, loc, lastType.clone(rowShape), v);
  };
  Type i64 = b.getI64Type();
  Value k = iota(b, loc, i64, {n, 1}, 0), i = iota(b, loc, i64, {1, n}, 1);
  Value one = scalar(b, loc, g, 1.0), zero = scalar(b, loc, g, 0.0);
  Value factors =
      WhereOp::create(b, loc, GtOp::create(b, loc, i, k), asRow(x), one);
  Value products = CumprodOp::create(b, loc, factors, rank);
  Value weights = WhereOp::create(b, loc, GeOp::create(b, loc, i, k),
                                  products, zero);
  Value sums = ReduceOp::create(b, loc,
                                MulOp::create(b, loc, weights, asRow(grad)),
                                ReduceKind::Sum, ArrayRef<int64_t>{rank},
                                /*keep_dim=*/false);
  Value before = CumprodOp::create(b, loc, x, rank - 1, /*exclusive=*/true);
  return {TransposeOp::create(b, loc, MulOp::create(b, loc, before, sums),
                              toLast)};
}

/// rope: the rotation by the negated angle; the tables get none.
static Gradients gradientOf(RopeOp op, OpBuilder &b, Value g) {
  return {RopeBackwardOp::create(b, op.getLoc(), op.getStyleAttr(),
                                 op.getLayoutAttr(), g, op.getCos(),
                                 op.getSin(), op.getHeadDimAttr(),
                                 op.getNRotAttr()),
          Value(), Value()};
}

/// attention: attention_backward from the forward's logsumexp, or from a
/// copy that returns it; an additive bias gets its gradient, other masks
/// none.
static Gradients gradientOf(AttentionOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  Value logsumexp = op.getLogsumexp();
  if (!logsumexp)
    logsumexp =
        AttentionOp::create(b, loc, op.getQ(), op.getK(), op.getV(),
                            op.getMask(), op.getLayoutAttr(),
                            op.getNumHeadsAttr(), op.getNumKvHeadsAttr(),
                            op.getMaskKindAttr(), op.getWindowAttr(),
                            op.getScaleAttr(), op.getSoftcapAttr(),
                            b.getUnitAttr())
            .getLogsumexp();
  bool biasGrad = op.getMaskKind() == AttentionMask::Bias;
  auto backward = AttentionBackwardOp::create(
      b, loc, op.getQ(), op.getK(), op.getV(), op.getOut(), g, logsumexp,
      op.getMask(), op.getLayoutAttr(), op.getNumHeadsAttr(),
      op.getNumKvHeadsAttr(), op.getMaskKindAttr(), op.getWindowAttr(),
      op.getScaleAttr(), op.getSoftcapAttr(),
      biasGrad ? b.getUnitAttr() : UnitAttr());
  Gradients grads = {backward.getDq(), backward.getDk(), backward.getDv()};
  if (op.getMask())
    grads.push_back(biasGrad ? backward.getDbias() : Value());
  return grads;
}

//===----------------------------------------------------------------------===//
// Linear algebra (torch.linalg's rules)
//===----------------------------------------------------------------------===//

/// Identity matrices shaped as the square matrices `like` `[..., n, n]`
/// (sizes may be `?`): the diagonal of a tensor of ones.
static Value identityLike(OpBuilder &b, Location loc, Value like) {
  Value ones = createSplatLike(b, loc, like, 1.0);
  return TriluOp::create(b, loc,
                         TriluOp::create(b, loc, ones, TrianglePart::Lower, 0),
                         TrianglePart::Upper, 0);
}

/// One number per matrix, `[...]`, as `[..., 1, 1]`: it broadcasts over its
/// matrix.
static Value perMatrix(OpBuilder &b, Location loc, Value x) {
  RankedTensorType type = getTensorType(x);
  SmallVector<int64_t> shape(type.getShape());
  shape.append({1, 1});
  return ReshapeOp::create(b, loc, type.clone(shape), x);
}

/// a^-T of the square matrices `a`: rlx.solve of a^T against the identity.
static Value inverseTranspose(OpBuilder &b, Location loc, Value a) {
  return SolveOp::create(b, loc, transposeLast(b, loc, a),
                         identityLike(b, loc, a));
}

/// cholesky: ga = (s + s^T) / 2 with s = l^-T phi(l^T gl) l^-1, phi keeping
/// the lower triangle with the diagonal halved. gl's upper triangle needs
/// no mask: l^T times it is strictly upper, which phi drops.
static Gradients gradientOf(CholeskyOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  Value l = op.getResult();
  Value lower = TriluOp::create(
      b, loc, MatmulOp::create(b, loc, transposeLast(b, loc, l), g),
      TrianglePart::Lower, 0);
  Value halfDiagonal = MulOp::create(
      b, loc, MulOp::create(b, loc, lower, identityLike(b, loc, l)),
      scalar(b, loc, g, 0.5));
  Value phi = SubOp::create(b, loc, lower, halfDiagonal);
  // l^-T phi, then l^-T phi l^-1 = (l^-T (l^-T phi)^T)^T.
  auto solveTransposed = [&](Value rhs) -> Value {
    return TriangularSolveOp::create(b, loc, l, rhs, TrianglePart::Lower,
                                     /*transpose=*/true,
                                     /*unit_diagonal=*/false);
  };
  Value s = transposeLast(
      b, loc, solveTransposed(transposeLast(b, loc, solveTransposed(phi))));
  return {MulOp::create(b, loc,
                        AddOp::create(b, loc, s, transposeLast(b, loc, s)),
                        scalar(b, loc, g, 0.5))};
}

/// triangular_solve: gb = op(a)^-T gx; the gradient of op(a) is -gb x^T,
/// so a's is that or its transpose, on the triangle the op reads.
static Gradients gradientOf(TriangularSolveOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  Value x = op.getResult();
  Value gb =
      TriangularSolveOp::create(b, loc, op.getA(), g, op.getPart(),
                                !op.getTranspose(), op.getUnitDiagonal());
  Value outer =
      op.getTranspose()
          ? MatmulOp::create(b, loc, x, transposeLast(b, loc, gb)).getResult()
          : MatmulOp::create(b, loc, gb, transposeLast(b, loc, x)).getResult();
  int64_t diagonal = 0;
  if (op.getUnitDiagonal())
    diagonal = op.getPart() == TrianglePart::Lower ? -1 : 1;
  return {TriluOp::create(b, loc, NegOp::create(b, loc, outer), op.getPart(),
                          diagonal),
          gb};
}

/// solve: gb = solve(a^T, gx), ga = -gb x^T.
static Gradients gradientOf(SolveOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  Value gb = SolveOp::create(b, loc, transposeLast(b, loc, op.getA()), g);
  return {NegOp::create(b, loc,
                        MatmulOp::create(
                            b, loc, gb, transposeLast(b, loc, op.getResult()))),
          gb};
}

/// det: ga = g det(a) a^-T (inf or NaN at a singular a).
static Gradients gradientOf(DetOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  Value scale = perMatrix(b, loc, MulOp::create(b, loc, g, op.getResult()));
  return {
      MulOp::create(b, loc, scale, inverseTranspose(b, loc, op.getInput()))};
}

/// logdet: ga = g_logabsdet a^-T; the sign has no gradient.
static Gradients gradientOf(LogdetOp op, OpBuilder &b, ValueRange g) {
  Location loc = op.getLoc();
  return {MulOp::create(b, loc, perMatrix(b, loc, g[1]),
                        inverseTranspose(b, loc, op.getInput()))};
}

/// The vectors `[..., n]` as rows `[..., 1, n]` or columns `[..., n, 1]`
/// of matrices they broadcast over.
static Value asRows(OpBuilder &b, Location loc, Value x) {
  RankedTensorType type = getTensorType(x);
  SmallVector<int64_t> shape(type.getShape());
  shape.insert(shape.end() - 1, 1);
  return ReshapeOp::create(b, loc, type.clone(shape), x);
}
static Value asColumns(OpBuilder &b, Location loc, Value x) {
  RankedTensorType type = getTensorType(x);
  SmallVector<int64_t> shape(type.getShape());
  shape.push_back(1);
  return ReshapeOp::create(b, loc, type.clone(shape), x);
}

/// `numerator / gaps`, 0 where the numerator is: a gradient of zeros
/// (no loss term reads the vectors) stays zero at repeated values, where
/// the gap is 0, as in torch, whose rules skip an undefined gradient.
static Value divideByGaps(OpBuilder &b, Location loc, Value numerator,
                          Value gaps) {
  Value zero = scalar(b, loc, numerator, 0.0);
  return WhereOp::create(b, loc, EqOp::create(b, loc, numerator, zero), zero,
                         DivOp::create(b, loc, numerator, gaps));
}

/// eigh: ga = v (skew(v^T gv) / 2e + diag(gl)) v^T, e[i, j] = l[j] - l[i]
/// off the diagonal (its diagonal divides by 1 and is replaced by gl).
/// Only the skew part of v^T gv reaches a symmetric input (torch's rule,
/// whose gradient is symmetric).
static Gradients gradientOf(EighOp op, OpBuilder &b, ValueRange g) {
  Location loc = op.getLoc();
  Value v = op.getEigenvectors(), l = op.getEigenvalues();
  Value vt = transposeLast(b, loc, v);
  Value identity = identityLike(b, loc, v);
  Value gaps = AddOp::create(
      b, loc,
      SubOp::create(b, loc, asRows(b, loc, l), asColumns(b, loc, l)),
      identity);
  Value vtgv = MatmulOp::create(b, loc, vt, g[1]);
  Value halfSkew = MulOp::create(
      b, loc, SubOp::create(b, loc, vtgv, transposeLast(b, loc, vtgv)),
      scalar(b, loc, v, 0.5));
  Value offDiagonal =
      MulOp::create(b, loc, divideByGaps(b, loc, halfSkew, gaps),
                    SubOp::create(b, loc, scalar(b, loc, v, 1.0), identity));
  Value inner = AddOp::create(
      b, loc, offDiagonal,
      MulOp::create(b, loc, identity, asRows(b, loc, g[0])));
  return {MatmulOp::create(b, loc, MatmulOp::create(b, loc, v, inner), vt)};
}

/// Functions of symmetric matrices (Daleckii-Krein): ga = v (d * (v^T g
/// v)) v^T, d the op's divided differences of its function at the
/// eigenvalues, accurate where they meet.
static Gradients spectralGradient(SpectralFunctionOpInterface op, OpBuilder &b,
                                  Value g) {
  Location loc = op->getLoc();
  auto eigh = EighOp::create(b, loc, op->getOperand(0));
  Value v = eigh.getEigenvectors(), l = eigh.getEigenvalues();
  Value vt = transposeLast(b, loc, v);
  Value differences =
      op.buildDividedDifferences(b, asColumns(b, loc, l), asRows(b, loc, l));
  Value inner = MulOp::create(
      b, loc, differences,
      MatmulOp::create(b, loc, MatmulOp::create(b, loc, vt, g), v));
  return {MatmulOp::create(b, loc, MatmulOp::create(b, loc, v, inner), vt)};
}
static Gradients gradientOf(ExpmOp op, OpBuilder &b, Value g) {
  return spectralGradient(op, b, g);
}
static Gradients gradientOf(LogmOp op, OpBuilder &b, Value g) {
  return spectralGradient(op, b, g);
}
static Gradients gradientOf(SqrtmOp op, OpBuilder &b, Value g) {
  return spectralGradient(op, b, g);
}
static Gradients gradientOf(InvsqrtmOp op, OpBuilder &b, Value g) {
  return spectralGradient(op, b, g);
}

/// qr (m >= n): ga = (gq + q copyltu(m)) r^-T, m = r gr^T - gq^T q,
/// copyltu mirroring the lower triangle onto the upper. No rule for wide
/// matrices (an empty list: autodiff's "no gradient rule for this form").
static Gradients gradientOf(QrOp op, OpBuilder &b, ValueRange g) {
  Location loc = op.getLoc();
  ArrayRef<int64_t> shape = op.getInput().getType().getShape();
  int64_t m = shape[shape.size() - 2], n = shape.back();
  // The shape rule makes m and n static unless they are equal.
  if (!ShapedType::isDynamic(m) && !ShapedType::isDynamic(n) && m < n)
    return {};
  Value q = op.getQ(), r = op.getR();
  Value mm = SubOp::create(
      b, loc, MatmulOp::create(b, loc, r, transposeLast(b, loc, g[1])),
      MatmulOp::create(b, loc, transposeLast(b, loc, g[0]), q));
  Value copyltu = AddOp::create(
      b, loc, TriluOp::create(b, loc, mm, TrianglePart::Lower, 0),
      transposeLast(b, loc,
                    TriluOp::create(b, loc, mm, TrianglePart::Lower, -1)));
  Value left =
      AddOp::create(b, loc, g[0], MatmulOp::create(b, loc, q, copyltu));
  // left r^-T = (r^-1 left^T)^T.
  return {transposeLast(
      b, loc,
      TriangularSolveOp::create(b, loc, r, transposeLast(b, loc, left),
                                TrianglePart::Upper, /*transpose=*/false,
                                /*unit_diagonal=*/false))};
}

/// svd (Townsend's rule, torch's): with f[i, j] = 1 / (s[j]^2 - s[i]^2),
/// ga = u (f * (j s + s k) + diag(gs)) vh, j and k the skew parts of u^T gu
/// and v^T gv, plus (I - u u^T) gu s^-1 vh for tall matrices and
/// u (gv s^-1)^T (I - v v^T) for wide ones.
static Gradients gradientOf(SvdOp op, OpBuilder &b, ValueRange g) {
  Location loc = op.getLoc();
  Value u = op.getU(), s = op.getS(), vh = op.getVh();
  Value gu = g[0], gs = g[1], gv = transposeLast(b, loc, g[2]);
  Value ut = transposeLast(b, loc, u), v = transposeLast(b, loc, vh);
  auto skew = [&](Value x) -> Value {
    return SubOp::create(b, loc, x, transposeLast(b, loc, x));
  };
  Value utgu = MatmulOp::create(b, loc, ut, gu);
  Value identity = identityLike(b, loc, utgu);
  Value sRows = asRows(b, loc, s), sColumns = asColumns(b, loc, s);
  Value gaps =
      AddOp::create(b, loc,
                    SubOp::create(b, loc, MulOp::create(b, loc, sRows, sRows),
                                  MulOp::create(b, loc, sColumns, sColumns)),
                    identity);
  Value rotations = divideByGaps(
      b, loc,
      AddOp::create(b, loc, MulOp::create(b, loc, skew(utgu), sRows),
                    MulOp::create(b, loc, sColumns,
                                  skew(MatmulOp::create(b, loc, vh, gv)))),
      gaps);
  Value inner = AddOp::create(
      b, loc, rotations, MulOp::create(b, loc, identity, asRows(b, loc, gs)));
  Value ga = MatmulOp::create(b, loc, MatmulOp::create(b, loc, u, inner), vh);
  ArrayRef<int64_t> shape = op.getInput().getType().getShape();
  int64_t m = shape[shape.size() - 2], n = shape.back();
  // The shape rule makes m and n static unless they are equal.
  bool isStatic = !ShapedType::isDynamic(m) && !ShapedType::isDynamic(n);
  if (isStatic && m > n) {
    Value scaled = DivOp::create(b, loc, gu, sRows);
    Value outside = SubOp::create(
        b, loc, scaled,
        MatmulOp::create(b, loc, u, MatmulOp::create(b, loc, ut, scaled)));
    ga = AddOp::create(b, loc, ga, MatmulOp::create(b, loc, outside, vh));
  }
  if (isStatic && n > m) {
    Value scaled = DivOp::create(b, loc, gv, sRows);
    Value outside = SubOp::create(
        b, loc, scaled,
        MatmulOp::create(b, loc, v, MatmulOp::create(b, loc, vh, scaled)));
    ga = AddOp::create(
        b, loc, ga,
        MatmulOp::create(b, loc, u, transposeLast(b, loc, outside)));
  }
  return {ga};
}

//===----------------------------------------------------------------------===//
// Fourier transforms and complex numbers (torch's conventions: the gradient
// of a complex value is dL/dRe + i dL/dIm)
//===----------------------------------------------------------------------===//

/// The norm of the adjoint transform: an unscaled transform's adjoint is
/// the unscaled inverse, and 1/n moves to the other side.
static FftNorm getDualNorm(FftNorm norm) {
  switch (norm) {
  case FftNorm::Backward:
    return FftNorm::Forward;
  case FftNorm::Forward:
    return FftNorm::Backward;
  case FftNorm::Ortho:
    return FftNorm::Ortho;
  }
  llvm_unreachable("every FftNorm case is handled above");
}

/// The sum of the parts `PartOp` (real or imaginary) of `x` and `y`.
template <typename PartOp>
static Value addParts(OpBuilder &b, Location loc, Value x, Value y) {
  return AddOp::create(b, loc, PartOp::create(b, loc, x),
                       PartOp::create(b, loc, y));
}

Value mlir::rlx::createGradientSum(OpBuilder &b, Location loc, Value x,
                                   Value y) {
  if (!isa<ComplexType>(getTensorType(x).getElementType()))
    return AddOp::create(b, loc, x, y);
  return ComplexOp::create(b, loc, addParts<RealOp>(b, loc, x, y),
                           addParts<ImagOp>(b, loc, x, y));
}

/// `z` along the last axis cut or padded with zeros to `size` (complex:
/// part by part).
static Value resizeLast(OpBuilder &b, Location loc, Value z, int64_t size) {
  RankedTensorType type = getTensorType(z);
  int64_t rank = type.getRank(), length = type.getShape().back();
  if (length == size)
    return z;
  auto resize = [&](Value x) -> Value {
    if (length > size)
      return NarrowOp::create(b, loc, x, rank - 1, 0, size);
    SmallVector<int64_t> pads(2 * rank, 0);
    pads.back() = size - length;
    return PadOp::create(b, loc, x, PadMode::Constant, pads, FloatAttr());
  };
  if (!isa<ComplexType>(type.getElementType()))
    return resize(z);
  return ComplexOp::create(b, loc, resize(RealOp::create(b, loc, z)),
                           resize(ImagOp::create(b, loc, z)));
}

static Gradients gradientOf(FftOp op, OpBuilder &b, Value g) {
  return {IfftOp::create(b, op.getLoc(), g, getDualNorm(op.getNorm()))};
}

static Gradients gradientOf(IfftOp op, OpBuilder &b, Value g) {
  return {FftOp::create(b, op.getLoc(), g, getDualNorm(op.getNorm()))};
}

/// rfft: the real part of the adjoint inverse transform of the gradient
/// padded to n bins (the bins rfft does not return have no gradient).
static Gradients gradientOf(RfftOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  int64_t n = op.getInput().getType().getShape().back();
  Value full = resizeLast(b, loc, g, n);
  return {RealOp::create(
      b, loc, IfftOp::create(b, loc, full, getDualNorm(op.getNorm())))};
}

/// irfft: the adjoint rfft of the gradient, the bins that stand for two
/// (all but the zero and Nyquist bins) doubled, resized to the input's
/// bins (zeros for those not used).
static Gradients gradientOf(IrfftOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  int64_t n = op.getSignalLength(), bins = n / 2 + 1;
  Value spectrum = RfftOp::create(b, loc, g, getDualNorm(op.getNorm()));
  SmallVector<double> weights(bins, 2.0);
  weights.front() = 1.0;
  if (n % 2 == 0)
    weights.back() = 1.0;
  Type real = getTensorType(g).getElementType();
  Value weight = ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(
          RankedTensorType::get({bins}, real),
          llvm::map_to_vector(weights, [&](double w) -> Attribute {
            return b.getFloatAttr(real, w);
          })));
  Value weighted = ComplexOp::create(
      b, loc, MulOp::create(b, loc, RealOp::create(b, loc, spectrum), weight),
      MulOp::create(b, loc, ImagOp::create(b, loc, spectrum), weight));
  int64_t inputBins = op.getInput().getType().getShape().back();
  if (ShapedType::isDynamic(inputBins))
    return {Value()};
  return {resizeLast(b, loc, weighted, inputBins)};
}

static Gradients gradientOf(ComplexOp op, OpBuilder &b, Value g) {
  return {RealOp::create(b, op.getLoc(), g), ImagOp::create(b, op.getLoc(), g)};
}

static Gradients gradientOf(RealOp op, OpBuilder &b, Value g) {
  return {ComplexOp::create(b, op.getLoc(), g,
                            createSplatLike(b, op.getLoc(), g, 0.0))};
}

static Gradients gradientOf(ImagOp op, OpBuilder &b, Value g) {
  return {ComplexOp::create(b, op.getLoc(),
                            createSplatLike(b, op.getLoc(), g, 0.0), g)};
}

static Gradients gradientOf(ConjugateOp op, OpBuilder &b, Value g) {
  return {ConjugateOp::create(b, op.getLoc(), g)};
}

/// |z|^2: 2 z g.
static Gradients gradientOf(ComplexNormSqOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  Value twice = MulOp::create(b, loc, g, scalar(b, loc, g, 2.0));
  return {ComplexOp::create(
      b, loc,
      MulOp::create(b, loc, RealOp::create(b, loc, op.getInput()), twice),
      MulOp::create(b, loc, ImagOp::create(b, loc, op.getInput()), twice))};
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

namespace {
/// A unary op's gradient is `rlx.activation_backward` of its kind, whose
/// arithmetic is the derivative the op states next to its own.
template <typename OpTy>
struct UnaryGradientModel
    : GradientOpInterface::ExternalModel<UnaryGradientModel<OpTy>, OpTy> {
  SmallVector<Value> buildGradients(Operation *op, OpBuilder &b,
                                    ValueRange resultGradients) const {
    return {ActivationBackwardOp::create(b, op->getLoc(),
                                         *getActivationKind(op),
                                         resultGradients.front(),
                                         op->getOperand(0))};
  }
};

template <typename OpTy>
struct GradientModel
    : GradientOpInterface::ExternalModel<GradientModel<OpTy>, OpTy> {
  SmallVector<Value> buildGradients(Operation *op, OpBuilder &b,
                                    ValueRange resultGradients) const {
    return gradientOf(cast<OpTy>(op), b, resultGradients.front());
  }
};

/// An op whose rule reads the gradients of several of its results.
template <typename OpTy>
struct ResultsGradientModel
    : GradientOpInterface::ExternalModel<ResultsGradientModel<OpTy>, OpTy> {
  SmallVector<Value> buildGradients(Operation *op, OpBuilder &b,
                                    ValueRange resultGradients) const {
    return gradientOf(cast<OpTy>(op), b, resultGradients);
  }
};
} // namespace

template <typename... OpTys>
static void attachGradientModels(MLIRContext *context) {
  (OpTys::template attachInterface<GradientModel<OpTys>>(*context), ...);
}

template <typename... OpTys>
static void attachUnaryGradientModels(MLIRContext *context) {
  (OpTys::template attachInterface<UnaryGradientModel<OpTys>>(*context), ...);
}

void mlir::rlx::registerGradientRules(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, RlxDialect *) {
    attachGradientModels<
        AddOp, SubOp, MulOp, DivOp, MaxOp, MinOp, PowOp, ModOp, Atan2Op, FmaOp,
        ClampOp, CastOp, WhereOp, ReshapeOp, ExpandOp, TransposeOp, ConcatOp,
        NarrowOp, SliceOp, PadOp, TileOp, ReverseOp, RollOp, TriluOp, ReduceOp,
        MatmulOp, DotGeneralOp, SoftmaxOp, LogSoftmaxOp, LayerNormOp, RmsNormOp,
        LayerNorm2dOp, GroupNormOp, BatchNormInferenceOp, AdaLayerNormOp,
        GatedResidualOp, SoftmaxCrossEntropyOp, SoftmaxCrossEntropyWithLabelsOp,
        ConvOp, ConvTransposeOp, PoolOp, GlobalPoolOp, ResizeNearest2xOp,
        InterpolateNearestOp, GatherOp, GatherElementsOp, GatherNdOp,
        ScatterElementsOp, ScatterAddOp, ScatterNdOp, TopKOp, SortOp,
        HistogramOp, KvAppendOp, CumsumOp, CumprodOp, CummaxOp, RopeOp,
        AttentionOp, DropoutOp, FakeQuantizeOp, FakeQuantizeLsqOp,
        GroupedMatmulOp, DequantMatmulOp, DequantGroupedMatmulOp, CholeskyOp,
        TriangularSolveOp, SolveOp, DetOp, ExpmOp, LogmOp, SqrtmOp, InvsqrtmOp,
        FftOp, IfftOp, RfftOp, IrfftOp, ComplexOp, RealOp, ImagOp, ConjugateOp,
        ComplexNormSqOp>(context);
    LogdetOp::attachInterface<ResultsGradientModel<LogdetOp>>(*context);
    EighOp::attachInterface<ResultsGradientModel<EighOp>>(*context);
    QrOp::attachInterface<ResultsGradientModel<QrOp>>(*context);
    SvdOp::attachInterface<ResultsGradientModel<SvdOp>>(*context);
    attachUnaryGradientModels<
        GeluOp, GeluApproxOp, SiluOp, ReluOp, SigmoidOp, TanhOp, ExpOp, LogOp,
        SqrtOp, RsqrtOp, NegOp, AbsOp, SinOp, CosOp, TanOp, AtanOp, RecipOp,
        RoundOp, FloorOp, CeilOp, SignOp, SoftplusOp, EluOp, ErfOp,
        HardSwishOp, HardSigmoidOp, MishOp, SoftsignOp, LogSigmoidOp>(context);
  });
}
