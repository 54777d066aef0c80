//===- FusePatterns.cpp - Named fused-op patterns -------------------------===//
#include "rlx/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "rlx/Dialect/Rlx/IR/Activation.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXFUSEPATTERNS
#include "rlx/Transforms/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;
using namespace mlir::rlx;

/// The operand of the binary `add` that is not `value`.
static Value getOtherOperand(AddOp add, Value value) {
  return add.getLhs() == value ? add.getRhs() : add.getLhs();
}

/// An add of `value` and another operand that keeps `value`'s type (no
/// further broadcast), when it is `value`'s sole user.
static AddOp getSameTypeAdd(Value value) {
  if (!value.hasOneUse())
    return {};
  auto add = dyn_cast<AddOp>(*value.getUsers().begin());
  if (!add || add.getType() != value.getType())
    return {};
  return add;
}

/// `value`'s sole user when it is the op of an `ActivationKind`.
static Operation *getActivationUser(Value value) {
  if (!value.hasOneUse())
    return nullptr;
  Operation *user = *value.getUsers().begin();
  return getActivationKind(user) ? user : nullptr;
}

/// The `activation` attribute of a fused op ending in `activationOp`, or
/// none without one.
static ActivationKindAttr getActivationAttr(Operation *activationOp) {
  if (!activationOp)
    return {};
  return ActivationKindAttr::get(activationOp->getContext(),
                                 *getActivationKind(activationOp));
}

/// Whether `shape` is a per-channel bias for a convolution result of rank
/// `rank` with `channels` channels under numpy broadcasting: `[C, 1, ...]`
/// (rank - 1) or `[1, C, 1, ...]` (rank).
static bool isChannelBiasShape(ArrayRef<int64_t> shape, int64_t rank,
                               int64_t channels) {
  int64_t size = shape.size();
  int64_t channelDim = size == rank - 1 ? 0 : size == rank ? 1 : -1;
  if (channelDim < 0)
    return false;
  for (auto [d, extent] : llvm::enumerate(shape))
    if (extent != (static_cast<int64_t>(d) == channelDim ? channels : 1))
      return false;
  return true;
}

/// Replaces `chain.back()` with `fused` and erases the rest of `chain`,
/// each op's only user being the next.
static void replaceChain(PatternRewriter &rewriter, ArrayRef<Operation *> chain,
                         Value fused) {
  rewriter.replaceOp(chain.back(), fused);
  for (Operation *op : llvm::reverse(chain.drop_back()))
    rewriter.eraseOp(op);
}

namespace {
/// mul(silu(narrow(x, gate)), narrow(x, up)) over the two halves of x's last
/// axis -> swiglu(x).
struct FuseSwiglu : OpRewritePattern<MulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MulOp mul,
                                PatternRewriter &rewriter) const override {
    for (auto [activated, other] : {std::pair(mul.getLhs(), mul.getRhs()),
                                    std::pair(mul.getRhs(), mul.getLhs())}) {
      auto silu = activated.getDefiningOp<SiluOp>();
      if (!silu || !silu->hasOneUse())
        continue;
      auto gate = silu.getInput().getDefiningOp<NarrowOp>();
      auto up = other.getDefiningOp<NarrowOp>();
      if (!gate || !up || gate.getInput() != up.getInput())
        continue;
      RankedTensorType inputType = gate.getInput().getType();
      int64_t rank = inputType.getRank();
      int64_t total = inputType.getShape().back();
      auto isLastAxis = [&](NarrowOp narrow) {
        return narrow.getAxis() == rank - 1 || narrow.getAxis() == -1;
      };
      int64_t half = total / 2;
      if (!isLastAxis(gate) || !isLastAxis(up) || total % 2 != 0 ||
          gate.getLength() != half || up.getLength() != half)
        continue;
      bool gateFirst = gate.getStart() == 0 && up.getStart() == half;
      bool upFirst = up.getStart() == 0 && gate.getStart() == half;
      if (!gateFirst && !upFirst)
        continue;
      rewriter.replaceOpWithNewOp<SwigluOp>(mul, gate.getInput(), gateFirst);
      return success();
    }
    return rewriter.notifyMatchFailure(mul, "not a SwiGLU pattern");
  }
};

/// add(matmul(a, b), bias [N]) [-> activation] -> matmul_bias_act, and
/// add(matmul(a, b), residual of the result's shape) -> matmul_residual,
/// in either operand order. The matmul must have no other user; the
/// activation joins only when it is the add's sole user.
struct FuseMatmulEpilogue : OpRewritePattern<MatmulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MatmulOp matmul,
                                PatternRewriter &rewriter) const override {
    RankedTensorType type = matmul.getType();
    AddOp add = getSameTypeAdd(matmul);
    if (!isa<FloatType>(type.getElementType()) || !add)
      return rewriter.notifyMatchFailure(
          matmul, "not a float matmul whose sole user is a same-type add");
    Value other = getOtherOperand(add, matmul);
    auto otherType = cast<RankedTensorType>(other.getType());
    if (otherType == type) {
      rewriter.setInsertionPoint(add);
      Value fused = MatmulResidualOp::create(
          rewriter, add.getLoc(), matmul.getLhs(), matmul.getRhs(), other);
      replaceChain(rewriter, {matmul, add}, fused);
      return success();
    }
    if (otherType.getShape() != type.getShape().take_back())
      return rewriter.notifyMatchFailure(matmul, "not a bias or a residual");
    SmallVector<Operation *> chain = {matmul, add};
    Operation *activation = getActivationUser(add);
    if (activation)
      chain.push_back(activation);
    rewriter.setInsertionPoint(chain.back());
    Value fused = MatmulBiasActOp::create(rewriter, chain.back()->getLoc(),
                                          matmul.getLhs(), matmul.getRhs(),
                                          other, getActivationAttr(activation));
    replaceChain(rewriter, chain, fused);
    return success();
  }
};

/// conv -> add(per-channel bias) [-> add(residual)] [-> activation] ->
/// conv_bias_act. The bias operand is `[C, 1, ...]` (rank - 1) or
/// `[1, C, 1, ...]` (the convolution's rank), possibly through an
/// rlx.expand to the result shape; when it is an rlx.reshape of a `[C]`
/// tensor, that tensor becomes the fused op's bias, else the operand is
/// reshaped to `[C]`. The residual add's other operand has the result's
/// shape. Each op must be its predecessor's sole user.
struct FuseConvEpilogue : OpRewritePattern<ConvOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvOp conv,
                                PatternRewriter &rewriter) const override {
    RankedTensorType type = conv.getType();
    int64_t channels = type.getDimSize(1);
    AddOp biasAdd = getSameTypeAdd(conv);
    if (!biasAdd)
      return rewriter.notifyMatchFailure(conv, "no sole add user");
    Value biasOperand = getOtherOperand(biasAdd, conv);
    if (auto expand = biasOperand.getDefiningOp<ExpandOp>())
      biasOperand = expand.getInput();
    if (!isChannelBiasShape(
            cast<RankedTensorType>(biasOperand.getType()).getShape(),
            type.getRank(), channels))
      return rewriter.notifyMatchFailure(conv, "not a per-channel bias");
    auto biasType = RankedTensorType::get({channels}, type.getElementType());
    Value bias;
    if (auto reshape = biasOperand.getDefiningOp<ReshapeOp>();
        reshape && reshape.getInput().getType() == biasType)
      bias = reshape.getInput();

    SmallVector<Operation *> chain = {conv, biasAdd};
    Value residual;
    if (AddOp residualAdd = getSameTypeAdd(biasAdd)) {
      Value other = getOtherOperand(residualAdd, biasAdd);
      if (other.getType() == type) {
        residual = other;
        chain.push_back(residualAdd);
      }
    }
    Operation *activation = getActivationUser(chain.back()->getResult(0));
    if (activation)
      chain.push_back(activation);

    rewriter.setInsertionPoint(chain.back());
    Location loc = chain.back()->getLoc();
    if (!bias)
      bias = ReshapeOp::create(rewriter, loc, biasType, biasOperand);
    Value fused = ConvBiasActOp::create(
        rewriter, loc, conv.getInput(), conv.getWeight(), bias, residual,
        conv.getStrideAttr(), conv.getPaddingAttr(), conv.getDilationAttr(),
        conv.getGroupsAttr(), getActivationAttr(activation));
    replaceChain(rewriter, chain, fused);
    return success();
  }
};

/// add(x, residual) -> layer_norm / rms_norm (no saved statistics) ->
/// residual_layer_norm / residual_rms_norm, when the add does not broadcast
/// and its other users all come after the normalization (they read the
/// fused op's `sum`).
template <typename NormOp, typename FusedOp>
struct FuseResidualNorm : OpRewritePattern<NormOp> {
  using OpRewritePattern<NormOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(NormOp norm,
                                PatternRewriter &rewriter) const override {
    auto add = norm.getInput().template getDefiningOp<AddOp>();
    if (!add || norm.getWithStatistics() ||
        add.getLhs().getType() != add.getType() ||
        add.getRhs().getType() != add.getType())
      return rewriter.notifyMatchFailure(norm, "not a residual norm");
    for (Operation *user : add->getUsers())
      if (user != norm.getOperation() &&
          (user->getBlock() != norm->getBlock() ||
           !norm->isBeforeInBlock(user)))
        return rewriter.notifyMatchFailure(norm,
                                           "the sum is read before the norm");
    auto fused = FusedOp::create(rewriter, norm.getLoc(), add.getLhs(),
                                 add.getRhs(), norm.getGamma(), norm.getBeta(),
                                 norm.getAxisAttr(), norm.getEpsAttr());
    rewriter.replaceAllUsesWith(add.getResult(), fused.getSum());
    rewriter.replaceOp(norm, fused.getResult());
    rewriter.eraseOp(add);
    return success();
  }
};

struct RlxFusePatternsPass
    : rlx::impl::RlxFusePatternsBase<RlxFusePatternsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FuseSwiglu, FuseMatmulEpilogue, FuseConvEpilogue,
                 FuseResidualNorm<LayerNormOp, ResidualLayerNormOp>,
                 FuseResidualNorm<RmsNormOp, ResidualRmsNormOp>>(
        &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
