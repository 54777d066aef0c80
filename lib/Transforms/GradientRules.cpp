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

/// A constant of `like`'s type (or of `like`'s element type and `shape`)
/// filled with `value`.
static Value splat(OpBuilder &b, Location loc, Value like, double value,
                   std::optional<ArrayRef<int64_t>> shape = std::nullopt) {
  RankedTensorType type = getTensorType(like);
  if (shape)
    type = type.clone(*shape);
  return ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(type, b.getFloatAttr(type.getElementType(),
                                                  value)));
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
  Value zero = splat(b, loc, g, 0.0);
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

static Gradients gradientOf(ExpandOp op, OpBuilder &b, Value g) {
  return {sumToShape(b, op.getLoc(), g, op.getInput())};
}

static Gradients gradientOf(TransposeOp op, OpBuilder &b, Value g) {
  ArrayRef<int64_t> permutation = op.getPermutation();
  SmallVector<int64_t> inverse(permutation.size());
  for (auto [i, p] : llvm::enumerate(permutation))
    inverse[p] = i;
  return {TransposeOp::create(b, op.getLoc(), g, inverse)};
}

/// Sum and mean spread the gradient over the reduced axes (mean divided by
/// their size).
static Gradients gradientOf(ReduceOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  RankedTensorType inputType = op.getInput().getType();
  if (op.getKind() != ReduceKind::Sum && op.getKind() != ReduceKind::Mean)
    return {};
  SmallVector<int64_t> kept(inputType.getShape());
  int64_t count = 1;
  for (int64_t axis : op.getNormalizedAxes()) {
    kept[axis] = 1;
    count *= inputType.getDimSize(axis);
  }
  Value grad = ReshapeOp::create(b, loc, inputType.clone(kept), g);
  if (op.getKind() == ReduceKind::Mean)
    grad = DivOp::create(b, loc, grad, splat(b, loc, grad, count));
  return {ExpandOp::create(b, loc, inputType, grad)};
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

static Gradients gradientOf(ConvOp op, OpBuilder &b, Value g) {
  Location loc = op.getLoc();
  Value dx = ConvBackwardInputOp::create(
      b, loc, op.getInput().getType(), g, op.getWeight(), op.getStrideAttr(),
      op.getPaddingAttr(), op.getDilationAttr(), op.getGroupsAttr());
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
  Location loc = op.getLoc();
  RankedTensorType inputType = op.getInput().getType();
  int64_t rank = inputType.getRank();
  int64_t axis = op.getAxis() < 0 ? op.getAxis() + rank : op.getAxis();
  auto zeros = [&](int64_t length) {
    SmallVector<int64_t> shape(inputType.getShape());
    shape[axis] = length;
    return splat(b, loc, g, 0.0, shape);
  };
  int64_t after = inputType.getDimSize(axis) - op.getStart() - op.getLength();
  SmallVector<Value> pieces;
  if (op.getStart() > 0)
    pieces.push_back(zeros(op.getStart()));
  pieces.push_back(g);
  if (after > 0)
    pieces.push_back(zeros(after));
  if (pieces.size() == 1)
    return {g};
  return {ConcatOp::create(b, loc, pieces, axis)};
}

/// rope: the rotation by the negated angle; the tables get none.
static Gradients gradientOf(RopeOp op, OpBuilder &b, Value g) {
  return {RopeBackwardOp::create(b, op.getLoc(), op.getStyleAttr(), g,
                                 op.getCos(), op.getSin(),
                                 op.getHeadDimAttr(), op.getNRotAttr()),
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
    attachGradientModels<AddOp, SubOp, MulOp, DivOp, CastOp, WhereOp,
                         ReshapeOp, ExpandOp, TransposeOp, ReduceOp, MatmulOp,
                         SoftmaxOp, LogSoftmaxOp, LayerNormOp, RmsNormOp,
                         SoftmaxCrossEntropyOp,
                         SoftmaxCrossEntropyWithLabelsOp, ConvOp, PoolOp,
                         GatherOp, CumsumOp, NarrowOp, RopeOp, AttentionOp>(
        context);
    attachUnaryGradientModels<
        GeluOp, GeluApproxOp, SiluOp, ReluOp, SigmoidOp, TanhOp, ExpOp, LogOp,
        SqrtOp, RsqrtOp, NegOp, AbsOp, SinOp, CosOp, TanOp, AtanOp, RecipOp,
        RoundOp, FloorOp, CeilOp, SignOp, SoftplusOp, EluOp, ErfOp,
        HardSwishOp, HardSigmoidOp, MishOp, SoftsignOp, LogSigmoidOp>(context);
  });
}
