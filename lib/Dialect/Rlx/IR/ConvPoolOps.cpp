//===- ConvPoolOps.cpp - Convolution, pooling and resampling ops: verifiers, shape inference, folders ---===//
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include "OpUtils.h"

using namespace mlir;
using namespace mlir::rlx;

/// The channels-first activation type `valueType` as a ranked tensor with 1
/// to 3 spatial dimensions (`minSpatial` to `maxSpatial`), or a diagnostic
/// naming `what`.
static FailureOr<RankedTensorType>
getActivationType(std::optional<Location> loc, Type valueType, StringRef what,
                  int64_t minSpatial = 1, int64_t maxSpatial = 3) {
  FailureOr<RankedTensorType> ranked = getRankedType(loc, valueType, what);
  if (failed(ranked))
    return failure();
  RankedTensorType type = *ranked;
  int64_t spatial = type.getRank() - 2;
  if (spatial < minSpatial || spatial > maxSpatial) {
    if (minSpatial == maxSpatial)
      return emitOptionalError(loc, what, " must have rank ", minSpatial + 2,
                               " ([N, C, spatial...]), got ",
                               formatShape(type.getShape()));
    return emitOptionalError(loc, what, " must have rank ", minSpatial + 2,
                             " to ", maxSpatial + 2,
                             " ([N, C, spatial...]), got ",
                             formatShape(type.getShape()));
  }
  if (type.isDynamicDim(1))
    return emitOptionalError(loc, what, " ", formatShape(type.getShape()),
                             " must have static channels (dimension 1)");
  return type;
}

/// The number of positions of a window of `window` elements stepping by
/// `stride` along spatial dimension `dim` of `size` elements padded by `lo`
/// and `hi`: (size + lo + hi - window) / stride + 1, the division rounded
/// up in `ceilMode`. The window must fit in the padded size: checked here
/// when `size` is static, at run time when it is `?`.
static FailureOr<AffineExpr>
inferWindowPositions(ShapeContext &context, std::optional<Location> loc,
                     int64_t dim, AffineExpr size, int64_t lo, int64_t hi,
                     int64_t window, int64_t stride, StringRef windowName,
                     bool ceilMode = false) {
  AffineExpr padded = size + lo + hi;
  if (!context.requireLessEqual(context.getConstant(window), padded)) {
    std::string paddedSize = ShapeContext::format(padded);
    return emitOptionalError(
        loc, "spatial dimension ", dim, ": ", windowName, " ", window,
        " exceeds the padded input size ",
        StringRef(paddedSize).drop_front().drop_back()); // Without brackets.
  }
  AffineExpr span = padded - window;
  return (ceilMode ? span.ceilDiv(stride) : span.floorDiv(stride)) + 1;
}

/// Checks that `values` (attribute `name`) has `size` entries, each at least
/// `minimum`.
static LogicalResult checkSpatialArray(std::optional<Location> loc,
                                       StringRef name, ArrayRef<int64_t> values,
                                       int64_t size, int64_t minimum) {
  if (static_cast<int64_t>(values.size()) != size)
    return emitOptionalError(loc, "'", name, "' must have ", size,
                             " entries, got ", values.size(), ": ",
                             formatShape(values));
  for (int64_t v : values)
    if (v < minimum)
      return emitOptionalError(loc, "'", name, "' entries must be ",
                               minimum == 0 ? "non-negative" : "positive",
                               ", got ", formatShape(values));
  return success();
}

/// Checks the stride, [lo, hi] padding and dilation arrays of a convolution
/// over `spatial` dimensions.
static LogicalResult checkConvAttributes(std::optional<Location> loc,
                                         int64_t spatial,
                                         ArrayRef<int64_t> stride,
                                         ArrayRef<int64_t> padding,
                                         ArrayRef<int64_t> dilation) {
  if (failed(checkSpatialArray(loc, "stride", stride, spatial, 1)) ||
      failed(checkSpatialArray(loc, "padding", padding, 2 * spatial, 0)) ||
      failed(checkSpatialArray(loc, "dilation", dilation, spatial, 1)))
    return failure();
  return success();
}

/// The weight as a ranked tensor of the same rank as the input.
static FailureOr<RankedTensorType> getWeightType(std::optional<Location> loc,
                                                 Type weight, int64_t rank) {
  FailureOr<RankedTensorType> ranked = getRankedType(loc, weight, "weight");
  if (failed(ranked))
    return failure();
  RankedTensorType type = *ranked;
  if (type.getRank() != rank)
    return emitOptionalError(loc, "weight must have rank ", rank,
                             " like the input, got ",
                             formatShape(type.getShape()));
  return type;
}

namespace {
/// The input and weight of a convolution or a transposed convolution.
struct ConvOperandTypes {
  RankedTensorType input, weight;
};
} // namespace

/// Checks what convolutions and transposed convolutions share: the input
/// and weight ranks, the stride, padding and dilation arrays, and groups
/// that divide the input channels.
static FailureOr<ConvOperandTypes>
checkConvOperands(std::optional<Location> loc, Type inputType, Type weightType,
                  ArrayRef<int64_t> stride, ArrayRef<int64_t> padding,
                  ArrayRef<int64_t> dilation, int64_t groups) {
  FailureOr<RankedTensorType> input =
      getActivationType(loc, inputType, "input");
  if (failed(input))
    return failure();
  FailureOr<RankedTensorType> weight =
      getWeightType(loc, weightType, input->getRank());
  if (failed(weight) || failed(checkConvAttributes(loc, input->getRank() - 2,
                                                   stride, padding, dilation)))
    return failure();
  int64_t channels = input->getDimSize(1);
  if (groups < 1)
    return emitOptionalError(loc, "'groups' must be positive, got ", groups);
  if (channels % groups != 0)
    return emitOptionalError(loc, "'groups' (", groups,
                             ") must divide the input channels (", channels,
                             ")");
  return ConvOperandTypes{*input, *weight};
}

FailureOr<SymbolicShape>
mlir::rlx::inferConvShape(ShapeContext &context, std::optional<Location> loc,
                          Type inputType, Type weightType,
                          ArrayRef<int64_t> stride, ArrayRef<int64_t> padding,
                          ArrayRef<int64_t> dilation, int64_t groups,
                          function_ref<SymbolicShape()> getInputSizes) {
  FailureOr<ConvOperandTypes> operands = checkConvOperands(
      loc, inputType, weightType, stride, padding, dilation, groups);
  if (failed(operands))
    return failure();
  RankedTensorType input = operands->input;
  if (!operands->weight.hasStaticShape())
    return emitOptionalError(loc, "weight must be static, got ",
                             operands->weight);
  int64_t spatial = input.getRank() - 2;
  ArrayRef<int64_t> w = operands->weight.getShape();
  int64_t channels = input.getDimSize(1);
  if (w[0] % groups != 0)
    return emitOptionalError(loc, "'groups' (", groups,
                             ") must divide the output channels (weight "
                             "dimension 0 = ",
                             w[0], ")");
  if (w[1] != channels / groups)
    return emitOptionalError(loc, "weight ", formatShape(w),
                             " must have input channels / groups = ",
                             channels / groups, " in dimension 1, got ", w[1]);
  SymbolicShape in = getInputSizes();
  SymbolicShape shape = {in[0], context.getConstant(w[0])};
  for (int64_t i = 0; i < spatial; ++i) {
    FailureOr<AffineExpr> size = inferWindowPositions(
        context, loc, i, in[i + 2], padding[2 * i], padding[2 * i + 1],
        dilation[i] * (w[i + 2] - 1) + 1, stride[i], "dilated kernel size");
    if (failed(size))
      return failure();
    shape.push_back(*size);
  }
  return shape;
}

FailureOr<RankedTensorType>
mlir::rlx::inferConvType(std::optional<Location> loc, Type inputType,
                         Type weightType, ArrayRef<int64_t> stride,
                         ArrayRef<int64_t> padding, ArrayRef<int64_t> dilation,
                         int64_t groups) {
  ShapeContext context(inputType.getContext());
  FailureOr<SymbolicShape> shape = inferConvShape(
      context, loc, inputType, weightType, stride, padding, dilation, groups,
      [&] { return context.getShape(cast<RankedTensorType>(inputType)); });
  if (failed(shape))
    return failure();
  return ShapeContext::getType(*shape, getElementTypeOrSelf(inputType));
}

static FailureOr<SymbolicShape> inferConvOpShape(ShapeContext &context,
                                                 std::optional<Location> loc,
                                                 ConvOp::Adaptor adaptor) {
  Value input = adaptor.getInput();
  return inferConvShape(
      context, loc, input.getType(), adaptor.getWeight().getType(),
      adaptor.getStride(), adaptor.getPadding(), adaptor.getDilation(),
      adaptor.getGroups(), [&] { return context.getShape(input); });
}

LogicalResult ConvOp::inferReturnTypes(MLIRContext *context,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  return appendType(inferConvOpShape(shapes, loc, adaptor),
                    getElementTypeOrSelf(adaptor.getInput().getType()),
                    inferred);
}

LogicalResult
ConvOp::inferSymbolicShapes(ShapeContext &context,
                            SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(inferConvOpShape(context, getLoc(), Adaptor(*this)),
                     shapes);
}

FailureOr<SymbolicShape> mlir::rlx::inferConvTransposeShape(
    ShapeContext &context, std::optional<Location> loc, Type inputType,
    Type weightType, ArrayRef<int64_t> stride, ArrayRef<int64_t> padding,
    ArrayRef<int64_t> outputPadding, ArrayRef<int64_t> dilation, int64_t groups,
    function_ref<SymbolicShape()> getInputSizes) {
  FailureOr<ConvOperandTypes> operands = checkConvOperands(
      loc, inputType, weightType, stride, padding, dilation, groups);
  if (failed(operands))
    return failure();
  RankedTensorType input = operands->input;
  if (!operands->weight.hasStaticShape())
    return emitOptionalError(loc, "weight must be static, got ",
                             operands->weight);
  int64_t spatial = input.getRank() - 2;
  if (failed(
          checkSpatialArray(loc, "output_padding", outputPadding, spatial, 0)))
    return failure();
  for (int64_t i = 0; i < spatial; ++i)
    if (outputPadding[i] >= std::max(stride[i], dilation[i]))
      return emitOptionalError(
          loc, "'output_padding' ", formatShape(outputPadding),
          " must be smaller than the stride or the dilation in dimension ", i);
  ArrayRef<int64_t> w = operands->weight.getShape();
  int64_t channels = input.getDimSize(1);
  if (w[0] != channels)
    return emitOptionalError(loc, "weight ", formatShape(w),
                             " must have the input channels (", channels,
                             ") in dimension 0");
  SymbolicShape in = getInputSizes();
  SymbolicShape shape = {in[0], context.getConstant(w[1] * groups)};
  AffineExpr one = context.getConstant(1);
  for (int64_t i = 0; i < spatial; ++i) {
    if (!context.requireLessEqual(one, in[i + 2]))
      return emitOptionalError(loc, "spatial dimension ", i,
                               " of the input is empty");
    AffineExpr size = (in[i + 2] - 1) * stride[i] - padding[2 * i] -
                      padding[2 * i + 1] + dilation[i] * (w[i + 2] - 1) +
                      outputPadding[i] + 1;
    if (!context.requireLessEqual(one, size)) {
      std::string cropped = ShapeContext::format(size);
      return emitOptionalError(loc, "spatial dimension ", i,
                               ": padding crops the output to size ",
                               StringRef(cropped).drop_front().drop_back());
    }
    shape.push_back(size);
  }
  return shape;
}

FailureOr<RankedTensorType>
mlir::rlx::inferConvTransposeType(std::optional<Location> loc, Type inputType,
                                  Type weightType, ArrayRef<int64_t> stride,
                                  ArrayRef<int64_t> padding,
                                  ArrayRef<int64_t> outputPadding,
                                  ArrayRef<int64_t> dilation, int64_t groups) {
  ShapeContext context(inputType.getContext());
  FailureOr<SymbolicShape> shape = inferConvTransposeShape(
      context, loc, inputType, weightType, stride, padding, outputPadding,
      dilation, groups,
      [&] { return context.getShape(cast<RankedTensorType>(inputType)); });
  if (failed(shape))
    return failure();
  return ShapeContext::getType(*shape, getElementTypeOrSelf(inputType));
}

static FailureOr<SymbolicShape>
inferConvTransposeOpShape(ShapeContext &context, std::optional<Location> loc,
                          ConvTransposeOp::Adaptor adaptor) {
  Value input = adaptor.getInput();
  return inferConvTransposeShape(
      context, loc, input.getType(), adaptor.getWeight().getType(),
      adaptor.getStride(), adaptor.getPadding(), adaptor.getOutputPadding(),
      adaptor.getDilation(), adaptor.getGroups(),
      [&] { return context.getShape(input); });
}

LogicalResult
ConvTransposeOp::inferReturnTypes(MLIRContext *context,
                                  std::optional<Location> loc, Adaptor adaptor,
                                  SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  return appendType(inferConvTransposeOpShape(shapes, loc, adaptor),
                    getElementTypeOrSelf(adaptor.getInput().getType()),
                    inferred);
}

LogicalResult
ConvTransposeOp::inferSymbolicShapes(ShapeContext &context,
                                     SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(
      inferConvTransposeOpShape(context, getLoc(), Adaptor(*this)), shapes);
}

FailureOr<SymbolicShape>
mlir::rlx::inferPoolShape(ShapeContext &context, std::optional<Location> loc,
                          Type inputType, ArrayRef<int64_t> kernel,
                          ArrayRef<int64_t> stride, ArrayRef<int64_t> padding,
                          bool ceilMode,
                          function_ref<SymbolicShape()> getInputSizes) {
  FailureOr<RankedTensorType> input =
      getActivationType(loc, inputType, "input");
  if (failed(input))
    return failure();
  int64_t spatial = input->getRank() - 2;
  if (failed(checkSpatialArray(loc, "kernel", kernel, spatial, 1)) ||
      failed(checkSpatialArray(loc, "stride", stride, spatial, 1)) ||
      failed(checkSpatialArray(loc, "padding", padding, 2 * spatial, 0)))
    return failure();
  SymbolicShape in = getInputSizes();
  SymbolicShape shape = {in[0], in[1]};
  for (int64_t i = 0; i < spatial; ++i) {
    int64_t lo = padding[2 * i], hi = padding[2 * i + 1];
    // An empty dimension would leave windows of padding alone (the window
    // fitting below implies it unless the padding can hold a window).
    if (lo + hi >= kernel[i] &&
        !context.requireLessEqual(context.getConstant(1), in[i + 2]))
      return emitOptionalError(loc, "spatial dimension ", i,
                               " of the input is empty");
    if (lo > kernel[i] / 2 || hi > kernel[i] / 2)
      return emitOptionalError(loc, "'padding' ", formatShape(padding),
                               " must be at most half the kernel size (",
                               kernel[i], ") in dimension ", i);
    FailureOr<AffineExpr> size =
        inferWindowPositions(context, loc, i, in[i + 2], lo, hi, kernel[i],
                             stride[i], "kernel size", ceilMode);
    if (failed(size))
      return failure();
    // PyTorch drops a last window that would start in the high padding. A
    // rounded-up window count exceeds the floor one by less than a stride,
    // so that happens only when hi + stride > kernel; with a `?` size the
    // drop is not affine and those attributes are not supported.
    if (ceilMode && hi + stride[i] > kernel[i]) {
      auto inSize = dyn_cast<AffineConstantExpr>(in[i + 2]);
      auto count = dyn_cast<AffineConstantExpr>(*size);
      if (!inSize || !count)
        return emitOptionalError(
            loc,
            "ceil_mode with a `?` spatial size needs kernel >= stride + "
            "high padding (",
            kernel[i], " < ", stride[i], " + ", hi, " in dimension ", i,
            "): the last window's drop depends on the size");
      if ((count.getValue() - 1) * stride[i] >= inSize.getValue() + lo)
        size = context.getConstant(count.getValue() - 1);
    }
    shape.push_back(*size);
  }
  return shape;
}

FailureOr<RankedTensorType>
mlir::rlx::inferPoolType(std::optional<Location> loc, Type inputType,
                         ArrayRef<int64_t> kernel, ArrayRef<int64_t> stride,
                         ArrayRef<int64_t> padding, bool ceilMode) {
  ShapeContext context(inputType.getContext());
  FailureOr<SymbolicShape> shape = inferPoolShape(
      context, loc, inputType, kernel, stride, padding, ceilMode,
      [&] { return context.getShape(cast<RankedTensorType>(inputType)); });
  if (failed(shape))
    return failure();
  return ShapeContext::getType(*shape, getElementTypeOrSelf(inputType));
}

static FailureOr<SymbolicShape> inferPoolOpShape(ShapeContext &context,
                                                 std::optional<Location> loc,
                                                 PoolOp::Adaptor adaptor) {
  Value input = adaptor.getInput();
  return inferPoolShape(context, loc, input.getType(), adaptor.getKernel(),
                        adaptor.getStride(), adaptor.getPadding(),
                        adaptor.getCeilMode(),
                        [&] { return context.getShape(input); });
}

LogicalResult PoolOp::inferReturnTypes(MLIRContext *context,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  return appendType(inferPoolOpShape(shapes, loc, adaptor),
                    getElementTypeOrSelf(adaptor.getInput().getType()),
                    inferred);
}

LogicalResult
PoolOp::inferSymbolicShapes(ShapeContext &context,
                            SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(inferPoolOpShape(context, getLoc(), Adaptor(*this)),
                     shapes);
}

LogicalResult PoolOp::verify() {
  if (getCountIncludePad() && getKind() != PoolKind::Avg)
    return emitOpError("'count_include_pad' only applies to avg pooling");
  return success();
}

FailureOr<RankedTensorType>
mlir::rlx::inferGlobalPoolType(std::optional<Location> loc, Type inputType) {
  auto input = dyn_cast<RankedTensorType>(inputType);
  if (!input)
    return emitOptionalError(loc, "expected a ranked tensor input");
  if (input.getRank() < 3)
    return emitOptionalError(loc, "input must have rank >= 3 ([N, C, "
                                  "spatial...]), got ",
                             formatShape(input.getShape()));
  if (input.isDynamicDim(1))
    return emitOptionalError(loc, "input ", formatShape(input.getShape()),
                             " must have static channels (dimension 1)");
  SmallVector<int64_t> shape(input.getRank(), 1);
  shape[0] = input.getDimSize(0);
  shape[1] = input.getDimSize(1);
  return RankedTensorType::get(shape, input.getElementType());
}

static FailureOr<SymbolicShape>
inferGlobalPoolShape(ShapeContext &context, std::optional<Location> loc,
                     GlobalPoolOp::Adaptor adaptor) {
  Value input = adaptor.getInput();
  FailureOr<RankedTensorType> type = inferGlobalPoolType(loc, input.getType());
  if (failed(type))
    return failure();
  SymbolicShape shape(type->getRank(), context.getConstant(1));
  shape[0] = context.getShape(input)[0];
  shape[1] = context.getConstant(type->getDimSize(1));
  return shape;
}

LogicalResult GlobalPoolOp::inferReturnTypes(MLIRContext *context,
                                             std::optional<Location> loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  return appendType(inferGlobalPoolShape(shapes, loc, adaptor),
                    getElementTypeOrSelf(adaptor.getInput().getType()),
                    inferred);
}

LogicalResult
GlobalPoolOp::inferSymbolicShapes(ShapeContext &context,
                                  SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(inferGlobalPoolShape(context, getLoc(), Adaptor(*this)),
                     shapes);
}

/// The result type of `rlx.interpolate_nearest` of an input of type
/// `inputType` to spatial sizes `size`.
static FailureOr<RankedTensorType>
inferInterpolateNearestType(std::optional<Location> loc, Type inputType,
                            ArrayRef<int64_t> size) {
  FailureOr<RankedTensorType> input =
      getActivationType(loc, inputType, "input");
  if (failed(input))
    return failure();
  if (failed(checkSpatialArray(loc, "size", size, input->getRank() - 2, 1)))
    return failure();
  for (auto [i, outSize] : llvm::enumerate(size))
    if (input->getDimSize(i + 2) == 0)
      return emitOptionalError(loc, "spatial dimension ", i,
                               " of the input is empty: nothing to resample "
                               "to size ",
                               outSize);
  SmallVector<int64_t> shape = {input->getDimSize(0), input->getDimSize(1)};
  llvm::append_range(shape, size);
  return RankedTensorType::get(shape, input->getElementType());
}

static FailureOr<SymbolicShape>
inferResizeNearest2xShape(ShapeContext &context, std::optional<Location> loc,
                          ResizeNearest2xOp::Adaptor adaptor) {
  Value input = adaptor.getInput();
  if (failed(getActivationType(loc, input.getType(), "input", 2, 2)))
    return failure();
  SymbolicShape in = context.getShape(input);
  return SymbolicShape{in[0], in[1], in[2] * 2, in[3] * 2};
}

LogicalResult ResizeNearest2xOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  return appendType(inferResizeNearest2xShape(shapes, loc, adaptor),
                    getElementTypeOrSelf(adaptor.getInput().getType()),
                    inferred);
}

LogicalResult
ResizeNearest2xOp::inferSymbolicShapes(ShapeContext &context,
                                       SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(
      inferResizeNearest2xShape(context, getLoc(), Adaptor(*this)), shapes);
}

/// The input's spatial sizes must be static: the index map of the lowering,
/// (o * X) floordiv O, is affine only for a static X.
static FailureOr<SymbolicShape>
inferInterpolateNearestShape(ShapeContext &context, std::optional<Location> loc,
                             InterpolateNearestOp::Adaptor adaptor) {
  Value input = adaptor.getInput();
  FailureOr<RankedTensorType> type =
      inferInterpolateNearestType(loc, input.getType(), adaptor.getSize());
  if (failed(type))
    return failure();
  auto inputType = cast<RankedTensorType>(input.getType());
  if (llvm::any_of(inputType.getShape().drop_front(2), ShapedType::isDynamic))
    return emitOptionalError(loc, "input ", formatShape(inputType.getShape()),
                             " must have static spatial sizes");
  SymbolicShape shape = {context.getShape(input)[0]};
  for (int64_t size : type->getShape().drop_front())
    shape.push_back(context.getConstant(size));
  return shape;
}

LogicalResult InterpolateNearestOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  return appendType(inferInterpolateNearestShape(shapes, loc, adaptor),
                    getElementTypeOrSelf(adaptor.getInput().getType()),
                    inferred);
}

LogicalResult InterpolateNearestOp::inferSymbolicShapes(
    ShapeContext &context, SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(
      inferInterpolateNearestShape(context, getLoc(), Adaptor(*this)), shapes);
}
