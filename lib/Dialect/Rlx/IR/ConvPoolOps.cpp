//===- ConvPoolOps.cpp - Convolution, pooling and resampling ops: verifiers, shape inference, folders ---===//
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include "OpUtils.h"

using namespace mlir;
using namespace mlir::rlx;

FailureOr<SymbolicShape> mlir::rlx::inferBatchedShape(
    ShapeContext &context, std::optional<Location> loc, Value input,
    ValueRange staticOperands,
    function_ref<FailureOr<RankedTensorType>(Type)> inferStatic) {
  auto type = dyn_cast<RankedTensorType>(input.getType());
  if (!type)
    return emitOptionalError(loc, "expected a ranked tensor input");
  for (auto [d, size] : llvm::enumerate(type.getShape()))
    if (d > 0 && ShapedType::isDynamic(size))
      return emitOptionalError(loc, "input ", formatShape(type.getShape()),
                               " may have a `?` size only in its batch "
                               "(dimension 0): channels and spatial sizes "
                               "must be static");
  for (Value operand : staticOperands)
    if (auto operandType = dyn_cast<RankedTensorType>(operand.getType());
        operandType && !operandType.hasStaticShape())
      return emitOptionalError(
          loc, "weights and parameters must be static, got ", operandType);
  SmallVector<int64_t> shape(type.getShape());
  if (!shape.empty() && ShapedType::isDynamic(shape[0]))
    shape[0] = 1;
  FailureOr<RankedTensorType> result = inferStatic(type.clone(shape));
  if (failed(result))
    return failure();
  SymbolicShape resultShape = context.getShape(*result);
  if (!resultShape.empty() && type.getRank() > 0)
    resultShape[0] = context.getShape(input)[0];
  return resultShape;
}

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
  return type;
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

FailureOr<RankedTensorType>
mlir::rlx::inferConvType(std::optional<Location> loc, Type inputType,
                         Type weightType, ArrayRef<int64_t> stride,
                         ArrayRef<int64_t> padding, ArrayRef<int64_t> dilation,
                         int64_t groups) {
  FailureOr<ConvOperandTypes> operands = checkConvOperands(
      loc, inputType, weightType, stride, padding, dilation, groups);
  if (failed(operands))
    return failure();
  RankedTensorType input = operands->input;
  int64_t spatial = input.getRank() - 2;
  ArrayRef<int64_t> in = input.getShape(), w = operands->weight.getShape();
  if (w[0] % groups != 0)
    return emitOptionalError(loc, "'groups' (", groups,
                             ") must divide the output channels (weight "
                             "dimension 0 = ",
                             w[0], ")");
  if (w[1] != in[1] / groups)
    return emitOptionalError(
        loc, "weight ", formatShape(w), " must have input channels / groups = ",
        in[1] / groups, " in dimension 1, got ", w[1]);
  SmallVector<int64_t> shape = {in[0], w[0]};
  for (int64_t i = 0; i < spatial; ++i) {
    int64_t padded = in[i + 2] + padding[2 * i] + padding[2 * i + 1];
    int64_t window = dilation[i] * (w[i + 2] - 1) + 1;
    if (window > padded)
      return emitOptionalError(loc, "spatial dimension ", i,
                               ": dilated kernel size ", window,
                               " exceeds the padded input size ", padded);
    shape.push_back((padded - window) / stride[i] + 1);
  }
  return RankedTensorType::get(shape, input.getElementType());
}

static FailureOr<SymbolicShape> inferConvShape(ShapeContext &context,
                                               std::optional<Location> loc,
                                               ConvOp::Adaptor adaptor) {
  return inferBatchedShape(
      context, loc, adaptor.getInput(), adaptor.getWeight(), [&](Type input) {
        return inferConvType(loc, input, adaptor.getWeight().getType(),
                             adaptor.getStride(), adaptor.getPadding(),
                             adaptor.getDilation(), adaptor.getGroups());
      });
}

LogicalResult ConvOp::inferReturnTypes(MLIRContext *context,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  return appendType(inferConvShape(shapes, loc, adaptor),
                    getElementTypeOrSelf(adaptor.getInput().getType()),
                    inferred);
}

LogicalResult
ConvOp::inferSymbolicShapes(ShapeContext &context,
                            SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(inferConvShape(context, getLoc(), Adaptor(*this)), shapes);
}

FailureOr<RankedTensorType> mlir::rlx::inferConvTransposeType(
    std::optional<Location> loc, Type inputType, Type weightType,
    ArrayRef<int64_t> stride, ArrayRef<int64_t> padding,
    ArrayRef<int64_t> outputPadding, ArrayRef<int64_t> dilation,
    int64_t groups) {
  FailureOr<ConvOperandTypes> operands = checkConvOperands(
      loc, inputType, weightType, stride, padding, dilation, groups);
  if (failed(operands))
    return failure();
  RankedTensorType input = operands->input;
  int64_t spatial = input.getRank() - 2;
  if (failed(
          checkSpatialArray(loc, "output_padding", outputPadding, spatial, 0)))
    return failure();
  for (int64_t i = 0; i < spatial; ++i)
    if (outputPadding[i] >= std::max(stride[i], dilation[i]))
      return emitOptionalError(
          loc, "'output_padding' ", formatShape(outputPadding),
          " must be smaller than the stride or the dilation in dimension ", i);
  ArrayRef<int64_t> in = input.getShape(), w = operands->weight.getShape();
  if (w[0] != in[1])
    return emitOptionalError(loc, "weight ", formatShape(w),
                             " must have the input channels (", in[1],
                             ") in dimension 0");
  SmallVector<int64_t> shape = {in[0], w[1] * groups};
  for (int64_t i = 0; i < spatial; ++i) {
    if (in[i + 2] == 0)
      return emitOptionalError(loc, "spatial dimension ", i,
                               " of the input is empty");
    int64_t size = (in[i + 2] - 1) * stride[i] - padding[2 * i] -
                   padding[2 * i + 1] + dilation[i] * (w[i + 2] - 1) +
                   outputPadding[i] + 1;
    if (size < 1)
      return emitOptionalError(loc, "spatial dimension ", i,
                               ": padding crops the output to size ", size);
    shape.push_back(size);
  }
  return RankedTensorType::get(shape, input.getElementType());
}

static FailureOr<SymbolicShape>
inferConvTransposeShape(ShapeContext &context, std::optional<Location> loc,
                        ConvTransposeOp::Adaptor adaptor) {
  return inferBatchedShape(
      context, loc, adaptor.getInput(), adaptor.getWeight(), [&](Type input) {
        return inferConvTransposeType(
            loc, input, adaptor.getWeight().getType(), adaptor.getStride(),
            adaptor.getPadding(), adaptor.getOutputPadding(),
            adaptor.getDilation(), adaptor.getGroups());
      });
}

LogicalResult
ConvTransposeOp::inferReturnTypes(MLIRContext *context,
                                  std::optional<Location> loc, Adaptor adaptor,
                                  SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  return appendType(inferConvTransposeShape(shapes, loc, adaptor),
                    getElementTypeOrSelf(adaptor.getInput().getType()),
                    inferred);
}

LogicalResult
ConvTransposeOp::inferSymbolicShapes(ShapeContext &context,
                                     SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(inferConvTransposeShape(context, getLoc(), Adaptor(*this)),
                     shapes);
}

FailureOr<RankedTensorType>
mlir::rlx::inferPoolType(std::optional<Location> loc, Type inputType,
                         ArrayRef<int64_t> kernel, ArrayRef<int64_t> stride,
                         ArrayRef<int64_t> padding, bool ceilMode) {
  FailureOr<RankedTensorType> input =
      getActivationType(loc, inputType, "input");
  if (failed(input))
    return failure();
  int64_t spatial = input->getRank() - 2;
  if (failed(checkSpatialArray(loc, "kernel", kernel, spatial, 1)) ||
      failed(checkSpatialArray(loc, "stride", stride, spatial, 1)) ||
      failed(checkSpatialArray(loc, "padding", padding, 2 * spatial, 0)))
    return failure();
  ArrayRef<int64_t> in = input->getShape();
  SmallVector<int64_t> shape = {in[0], in[1]};
  for (int64_t i = 0; i < spatial; ++i) {
    int64_t lo = padding[2 * i], hi = padding[2 * i + 1];
    // An empty dimension would leave windows of padding alone.
    if (in[i + 2] == 0)
      return emitOptionalError(loc, "spatial dimension ", i,
                               " of the input is empty");
    if (lo > kernel[i] / 2 || hi > kernel[i] / 2)
      return emitOptionalError(loc, "'padding' ", formatShape(padding),
                               " must be at most half the kernel size (",
                               kernel[i], ") in dimension ", i);
    int64_t span = in[i + 2] + lo + hi - kernel[i];
    if (span < 0)
      return emitOptionalError(loc, "spatial dimension ", i, ": kernel size ",
                               kernel[i], " exceeds the padded input size ",
                               in[i + 2] + lo + hi);
    int64_t size = (span + (ceilMode ? stride[i] - 1 : 0)) / stride[i] + 1;
    // PyTorch drops a last window that would start in the high padding.
    if (ceilMode && (size - 1) * stride[i] >= in[i + 2] + lo)
      --size;
    shape.push_back(size);
  }
  return RankedTensorType::get(shape, input->getElementType());
}

static FailureOr<SymbolicShape> inferPoolShape(ShapeContext &context,
                                               std::optional<Location> loc,
                                               PoolOp::Adaptor adaptor) {
  return inferBatchedShape(
      context, loc, adaptor.getInput(), {}, [&](Type input) {
        return inferPoolType(loc, input, adaptor.getKernel(),
                             adaptor.getStride(), adaptor.getPadding(),
                             adaptor.getCeilMode());
      });
}

LogicalResult PoolOp::inferReturnTypes(MLIRContext *context,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  return appendType(inferPoolShape(shapes, loc, adaptor),
                    getElementTypeOrSelf(adaptor.getInput().getType()),
                    inferred);
}

LogicalResult
PoolOp::inferSymbolicShapes(ShapeContext &context,
                            SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(inferPoolShape(context, getLoc(), Adaptor(*this)), shapes);
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
  SmallVector<int64_t> shape(input.getRank(), 1);
  shape[0] = input.getDimSize(0);
  shape[1] = input.getDimSize(1);
  return RankedTensorType::get(shape, input.getElementType());
}

static FailureOr<SymbolicShape>
inferGlobalPoolShape(ShapeContext &context, std::optional<Location> loc,
                     GlobalPoolOp::Adaptor adaptor) {
  return inferBatchedShape(
      context, loc, adaptor.getInput(), {},
      [&](Type input) { return inferGlobalPoolType(loc, input); });
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

/// The result type of `rlx.resize_nearest2x` of an input of type `inputType`.
static FailureOr<RankedTensorType>
inferResizeNearest2xType(std::optional<Location> loc, Type inputType) {
  FailureOr<RankedTensorType> input =
      getActivationType(loc, inputType, "input", 2, 2);
  if (failed(input))
    return failure();
  ArrayRef<int64_t> in = input->getShape();
  return RankedTensorType::get({in[0], in[1], 2 * in[2], 2 * in[3]},
                               input->getElementType());
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
  return inferBatchedShape(
      context, loc, adaptor.getInput(), {},
      [&](Type input) { return inferResizeNearest2xType(loc, input); });
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

static FailureOr<SymbolicShape>
inferInterpolateNearestShape(ShapeContext &context, std::optional<Location> loc,
                             InterpolateNearestOp::Adaptor adaptor) {
  return inferBatchedShape(
      context, loc, adaptor.getInput(), {}, [&](Type input) {
        return inferInterpolateNearestType(loc, input, adaptor.getSize());
      });
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
