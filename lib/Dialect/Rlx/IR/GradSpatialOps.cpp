//===- GradSpatialOps.cpp - Spatial and indexing adjoints: shape rules ---===//
//
// Each adjoint checks its shapes with its forward op's shape rule: applied
// to the sizes of the forward operand the adjoint takes (or, for an input
// gradient, to the sizes its result takes), it must give grad_output's
// sizes, equal where both are static and required at run time where one
// is `?`. The gather adjoint, whose table size no operand gives, checks its
// declared type with the forward op's type inference.
//
//===----------------------------------------------------------------------===//
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include "OpUtils.h"

using namespace mlir;
using namespace mlir::rlx;

/// Checks that the forward op's inferred result type `forward` (if inferred)
/// is the type of `gradOutput`; `operands` names the forward operand shapes.
static LogicalResult checkGradOutputType(Operation *op,
                                         FailureOr<RankedTensorType> forward,
                                         Value gradOutput, StringRef operands) {
  if (failed(forward))
    return failure();
  if (*forward != gradOutput.getType())
    return op->emitOpError("grad_output must have the forward result type ")
           << *forward << " given by " << operands << ", got "
           << gradOutput.getType();
  return success();
}

/// Appends the adjoint's result shape `result` (called once the check
/// passed) after requiring the forward op's result shape `forward`,
/// computed from the adjoint's operands, to be `grad_output`'s: equal where
/// both are known, run-time requirements where a size is `?`.
static LogicalResult
appendAdjointShape(Operation *op, ShapeContext &context,
                   FailureOr<SymbolicShape> forward, Value gradOutput,
                   function_ref<SymbolicShape()> result,
                   SmallVectorImpl<SymbolicShape> &shapes) {
  if (failed(forward))
    return failure();
  SymbolicShape grad = context.getShape(gradOutput);
  if (grad.size() != forward->size())
    return op->emitOpError("grad_output ")
           << ShapeContext::format(grad) << " must have the rank of the "
           << "forward result shape " << ShapeContext::format(*forward);
  for (auto [expected, size] : llvm::zip_equal(*forward, grad))
    if (!context.requireEqual(size, expected))
      return op->emitOpError("grad_output ")
             << ShapeContext::format(grad)
             << " is not the forward result shape "
             << ShapeContext::format(*forward);
  shapes.push_back(result());
  return success();
}

/// The declared sizes of `type`, the batch (dimension 0) that of
/// `gradOutput` where it is `?`, and `?` sizes elsewhere null (for the
/// caller to compute: no fresh symbol stands for a size no value has).
static SymbolicShape getDeclaredShape(ShapeContext &context,
                                      RankedTensorType type, Value gradOutput) {
  SymbolicShape grad = context.getShape(gradOutput);
  // A grad_output without a batch fails the forward rule's rank check.
  AffineExpr batch = grad.empty() ? context.getConstant(0) : grad[0];
  SymbolicShape shape;
  for (auto [d, size] : llvm::enumerate(type.getShape()))
    shape.push_back(!ShapedType::isDynamic(size) ? context.getConstant(size)
                    : d == 0                     ? batch
                                                 : AffineExpr());
  return shape;
}

/// The shape of the input gradient `result` of a convolution when no
/// operand has the input's sizes: the declared ones, with the batch of
/// `grad_output` (the only `?` size it can give).
static FailureOr<SymbolicShape> getDeclaredInputShape(Operation *op,
                                                      ShapeContext &context,
                                                      Value result,
                                                      Value gradOutput) {
  auto type = cast<RankedTensorType>(result.getType());
  for (int64_t d = 1; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      return op->emitOpError("needs the forward input (`like %input`) for "
                             "its `?` size in dimension ")
             << d;
  return getDeclaredShape(context, type, gradOutput);
}

LogicalResult ConvBackwardInputOp::inferSymbolicShapes(
    ShapeContext &context, SmallVectorImpl<SymbolicShape> &shapes) {
  FailureOr<SymbolicShape> input =
      getInput()
          ? FailureOr<SymbolicShape>(context.getShape(getInput()))
          : getDeclaredInputShape(*this, context, getResult(), getGradOutput());
  if (failed(input))
    return failure();
  return appendAdjointShape(
      *this, context,
      inferConvShape(context, getLoc(), getType(), getWeight().getType(),
                     getStride(), getPadding(), getDilation(), getGroups(),
                     [&] { return *input; }),
      getGradOutput(), [&] { return *input; }, shapes);
}

LogicalResult ConvBackwardWeightOp::inferSymbolicShapes(
    ShapeContext &context, SmallVectorImpl<SymbolicShape> &shapes) {
  return appendAdjointShape(
      *this, context,
      inferConvShape(context, getLoc(), getInput().getType(), getType(),
                     getStride(), getPadding(), getDilation(), getGroups(),
                     [&] { return context.getShape(getInput()); }),
      getGradOutput(), [&] { return context.getShape(getType()); }, shapes);
}

/// A transposed convolution's output size O = (X - 1) * stride + c is
/// exact, so each `?` input size is (O - c) floordiv stride + 1, and the
/// forward rule then requires O to be one a size X gives.
LogicalResult ConvTransposeBackwardInputOp::inferSymbolicShapes(
    ShapeContext &context, SmallVectorImpl<SymbolicShape> &shapes) {
  RankedTensorType type = getType();
  SymbolicShape grad = context.getShape(getGradOutput());
  SymbolicShape input = getDeclaredShape(context, type, getGradOutput());
  ArrayRef<int64_t> kernel = getWeight().getType().getShape(),
                    stride = getStride(), padding = getPadding(),
                    dilation = getDilation(),
                    outputPadding = getOutputPadding();
  for (int64_t d = 2; d < type.getRank(); ++d) {
    if (!type.isDynamicDim(d))
      continue;
    // Until the forward rule has checked the attributes' lengths, a size
    // they cannot give is 0 (the rule then reports them).
    int64_t i = d - 2;
    if (i >= static_cast<int64_t>(stride.size()) ||
        2 * i + 1 >= static_cast<int64_t>(padding.size()) ||
        i >= static_cast<int64_t>(dilation.size()) ||
        i >= static_cast<int64_t>(outputPadding.size()) ||
        d >= static_cast<int64_t>(kernel.size()) ||
        d >= static_cast<int64_t>(grad.size()) ||
        ShapedType::isDynamic(kernel[d]) || stride[i] < 1) {
      input[d] = context.getConstant(0);
      continue;
    }
    int64_t offset = -padding[2 * i] - padding[2 * i + 1] +
                     dilation[i] * (kernel[d] - 1) + outputPadding[i] + 1;
    input[d] = (grad[d] - offset).floorDiv(stride[i]) + 1;
  }
  return appendAdjointShape(
      *this, context,
      inferConvTransposeShape(context, getLoc(), type, getWeight().getType(),
                              stride, padding, outputPadding, dilation,
                              getGroups(), [&] { return input; }),
      getGradOutput(), [&] { return input; }, shapes);
}

LogicalResult ConvTransposeBackwardWeightOp::inferSymbolicShapes(
    ShapeContext &context, SmallVectorImpl<SymbolicShape> &shapes) {
  return appendAdjointShape(
      *this, context,
      inferConvTransposeShape(context, getLoc(), getInput().getType(),
                              getType(), getStride(), getPadding(),
                              getOutputPadding(), getDilation(), getGroups(),
                              [&] { return context.getShape(getInput()); }),
      getGradOutput(), [&] { return context.getShape(getType()); }, shapes);
}

LogicalResult
PoolBackwardOp::inferSymbolicShapes(ShapeContext &context,
                                    SmallVectorImpl<SymbolicShape> &shapes) {
  SymbolicShape input = context.getShape(getInput());
  return appendAdjointShape(
      *this, context,
      inferPoolShape(context, getLoc(), getInput().getType(), getKernel(),
                     getStride(), getPadding(), getCeilMode(),
                     [&] { return input; }),
      getGradOutput(), [&] { return input; }, shapes);
}

LogicalResult GlobalPoolBackwardOp::inferSymbolicShapes(
    ShapeContext &context, SmallVectorImpl<SymbolicShape> &shapes) {
  if (failed(inferGlobalPoolType(getLoc(), getInput().getType())))
    return failure();
  SymbolicShape input = context.getShape(getInput());
  SymbolicShape forward(input.size(), context.getConstant(1));
  forward[0] = input[0];
  forward[1] = input[1];
  return appendAdjointShape(
      *this, context, forward, getGradOutput(), [&] { return input; }, shapes);
}

LogicalResult ConvBackwardInputOp::verify() {
  if (getInput() && getInput().getType() != getType())
    return emitOpError("the forward input must have the result type ")
           << getType() << ", got " << getInput().getType();
  return success();
}

// The pool adjoints infer their result type from AllTypesMatch, not from
// their rule: their verifiers run it.
LogicalResult PoolBackwardOp::verify() {
  if (getCountIncludePad() && getKind() != PoolKind::Avg)
    return emitOpError("'count_include_pad' only applies to avg pooling");
  return verifyResultsFollowRule(*this);
}

LogicalResult GlobalPoolBackwardOp::verify() {
  return verifyResultsFollowRule(*this);
}

/// The table's sizes are grad_output's outside the gathered axis, which has
/// the declared (static) size: nothing else gives it.
LogicalResult
GatherBackwardOp::inferSymbolicShapes(ShapeContext &context,
                                      SmallVectorImpl<SymbolicShape> &shapes) {
  RankedTensorType table = getType();
  int64_t rank = table.getRank();
  FailureOr<int64_t> axis = normalizeAxis(getLoc(), getAxis(), rank);
  if (failed(axis))
    return failure();
  if (table.isDynamicDim(*axis))
    return emitOpError("the table's gathered axis ")
           << *axis << " must be static: no operand gives its size";
  SymbolicShape grad = context.getShape(getGradOutput());
  SymbolicShape indices = context.getShape(getIndices());
  int64_t gathered = indices.size();
  if (static_cast<int64_t>(grad.size()) != rank - 1 + gathered)
    return emitOpError("grad_output must have rank ")
           << rank - 1 + gathered << " (the table's with axis " << *axis
           << " replaced by the indices'), got " << grad.size();
  SymbolicShape shape;
  for (int64_t d = 0; d < rank; ++d) {
    if (d == *axis) {
      shape.push_back(context.getConstant(table.getDimSize(d)));
      continue;
    }
    AffineExpr size = grad[d < *axis ? d : d + gathered - 1];
    if (!table.isDynamicDim(d) &&
        !context.requireEqual(size, context.getConstant(table.getDimSize(d))))
      return emitOpError("grad_output ")
             << ShapeContext::format(grad) << " does not match the table "
             << formatShape(table.getShape());
    shape.push_back(size);
  }
  for (int64_t i = 0; i < gathered; ++i)
    if (!context.requireEqual(grad[*axis + i], indices[i]))
      return emitOpError("grad_output ")
             << ShapeContext::format(grad) << " does not have the indices' "
             << ShapeContext::format(indices) << " at axis " << *axis;
  shapes.push_back(shape);
  return success();
}

LogicalResult GatherBackwardOp::verify() {
  RankedTensorType table = getType();
  FailureOr<RankedTensorType> forward =
      inferGatherType(getLoc(), table, getIndices().getType(), getAxis());
  return checkGradOutputType(*this, forward, getGradOutput(),
                             "the declared table " +
                                 formatShape(table.getShape()) +
                                 " and the indices");
}

LogicalResult CumsumBackwardOp::verify() {
  if (failed(normalizeAxis(getLoc(), getAxis(), getType().getRank())))
    return failure();
  return success();
}

LogicalResult
RopeBackwardOp::inferSymbolicShapes(ShapeContext &context,
                                    SmallVectorImpl<SymbolicShape> &shapes) {
  SymbolicShape grad = context.getShape(getGradOutput());
  if (failed(requireRopeTables(*this, context, getLayout(), grad,
                               {getCos(), getSin()}, getNRot())))
    return failure();
  shapes.push_back(grad);
  return success();
}

LogicalResult RopeBackwardOp::verify() {
  return verifyRopeOperands(*this, getLayout(), getGradOutput().getType(),
                            getCos(), getSin(), getHeadDim(), getNRot());
}
