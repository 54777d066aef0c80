//===- QuantMatmulOps.cpp - Quantized contractions: shapes and verifiers --===//
//
// The ops of RlxQuantMatmulOps.td: qmatmul, qconv, dequant_matmul,
// dequant_weight, scaled_matmul and fp8_from_bits. Each shape rule checks the
// operands' shapes against each other (shared by inferReturnTypes and
// inferSymbolicShapes); the verifiers check attributes and operand presence.
//
//===----------------------------------------------------------------------===//
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include "OpUtils.h"

using namespace mlir;
using namespace mlir::rlx;

/// Whether `value` (a ranked tensor) has rank `rank`.
static bool hasRank(Value value, int64_t rank) {
  return cast<RankedTensorType>(value.getType()).getRank() == rank;
}

/// Checks that `param` is rank 0, or (with `perColumn`) rank 0 or `[n]`,
/// one per output column (`channels`: per output channel, C_out).
static LogicalResult checkParam(ShapeContext &context,
                                std::optional<Location> loc, Value param,
                                StringRef what, AffineExpr n, bool perColumn,
                                bool channels = false) {
  SymbolicShape shape = context.getShape(param);
  if (shape.empty())
    return success();
  if (perColumn && shape.size() == 1 && context.requireEqual(shape[0], n))
    return success();
  if (perColumn && channels)
    return emitOptionalError(loc, what,
                             " must have rank 0 or be [C_out] (one per "
                             "output channel, C_out = ",
                             formatSize(n), "), got ",
                             ShapeContext::format(shape));
  if (perColumn)
    return emitOptionalError(loc, what,
                             " must have rank 0 or be [N] (one per output "
                             "column, N = ",
                             formatSize(n), "), got ",
                             ShapeContext::format(shape));
  return emitOptionalError(loc, what, " must have rank 0, got ",
                           ShapeContext::format(shape));
}

/// The `[..., M, N]` shape of `lhs` `[..., M, K]` times `rhs` `[K, N]`.
static FailureOr<SymbolicShape>
inferRank2RhsMatmulShape(ShapeContext &context, std::optional<Location> loc,
                         Value lhs, Value rhs) {
  if (!hasRank(rhs, 2))
    return emitOptionalError(loc, "rhs must be [K, N], got rank ",
                             cast<RankedTensorType>(rhs.getType()).getRank());
  return inferMatmulShape(context, loc, lhs, rhs);
}

//===----------------------------------------------------------------------===//
// QMatmulOp
//===----------------------------------------------------------------------===//

static FailureOr<SymbolicShape> inferQMatmulShape(ShapeContext &context,
                                                  std::optional<Location> loc,
                                                  QMatmulOp::Adaptor adaptor) {
  FailureOr<SymbolicShape> shape = inferRank2RhsMatmulShape(
      context, loc, adaptor.getLhs(), adaptor.getRhs());
  if (failed(shape))
    return failure();
  AffineExpr n = shape->back();
  if (failed(checkParam(context, loc, adaptor.getLhsZeroPoint(),
                        "lhs_zero_point", n, false)) ||
      failed(checkParam(context, loc, adaptor.getRhsZeroPoint(),
                        "rhs_zero_point", n, true)))
    return failure();
  Value scales[] = {adaptor.getLhsScale(), adaptor.getRhsScale(),
                    adaptor.getOutputScale(), adaptor.getOutputZeroPoint()};
  int present = llvm::count_if(scales, [](Value v) { return v != nullptr; });
  if (present != 0 && present != 4)
    return emitOptionalError(
        loc, "the requantize epilogue needs all of lhs_scale, rhs_scale, "
             "output_scale and output_zero_point");
  if (present == 4 &&
      (failed(checkParam(context, loc, scales[0], "lhs_scale", n, false)) ||
       failed(checkParam(context, loc, scales[1], "rhs_scale", n, true)) ||
       failed(checkParam(context, loc, scales[2], "output_scale", n, false)) ||
       failed(
           checkParam(context, loc, scales[3], "output_zero_point", n, false))))
    return failure();
  return shape;
}

LogicalResult QMatmulOp::inferReturnTypes(MLIRContext *context,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  unsigned width = adaptor.getLhsScale() ? 8 : 32;
  return appendType(inferQMatmulShape(shapes, loc, adaptor),
                    IntegerType::get(context, width), inferred);
}

LogicalResult
QMatmulOp::inferSymbolicShapes(ShapeContext &context,
                               SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(inferQMatmulShape(context, getLoc(), Adaptor(*this)),
                     shapes);
}

LogicalResult QMatmulOp::verify() {
  if (getOutputUnsigned() && !isRequantized())
    return emitOpError("output_unsigned needs the requantize epilogue (an "
                       "i32 result has no storage signedness)");
  return success();
}

//===----------------------------------------------------------------------===//
// QConvOp
//===----------------------------------------------------------------------===//

static FailureOr<SymbolicShape> inferQConvShape(ShapeContext &context,
                                                std::optional<Location> loc,
                                                QConvOp::Adaptor adaptor) {
  Value input = adaptor.getInput();
  auto inputType = cast<RankedTensorType>(input.getType());
  if (inputType.getRank() != 4)
    return emitOptionalError(loc,
                             "qconv is 2-D: input must be [N, C, H, W], "
                             "got rank ",
                             inputType.getRank());
  FailureOr<SymbolicShape> shape = inferConvShape(
      context, loc, input.getType(), adaptor.getWeight().getType(),
      adaptor.getStride(), adaptor.getPadding(), adaptor.getDilation(),
      adaptor.getGroups(), [&] { return context.getShape(input); });
  if (failed(shape))
    return failure();
  AffineExpr channels = (*shape)[1];
  if (failed(checkParam(context, loc, adaptor.getInputZeroPoint(),
                        "input_zero_point", channels, false)) ||
      failed(checkParam(context, loc, adaptor.getWeightZeroPoint(),
                        "weight_zero_point", channels, true, true)))
    return failure();
  Value scales[] = {adaptor.getInputScale(), adaptor.getWeightScale(),
                    adaptor.getOutputScale(), adaptor.getOutputZeroPoint()};
  int present = llvm::count_if(scales, [](Value v) { return v != nullptr; });
  if (present != 0 && present != 4)
    return emitOptionalError(
        loc, "the requantize epilogue needs all of input_scale, weight_scale, "
             "output_scale and output_zero_point");
  if (present == 4 &&
      (failed(checkParam(context, loc, scales[0], "input_scale", channels,
                         false)) ||
       failed(checkParam(context, loc, scales[1], "weight_scale", channels,
                         true, true)) ||
       failed(checkParam(context, loc, scales[2], "output_scale", channels,
                         false)) ||
       failed(checkParam(context, loc, scales[3], "output_zero_point", channels,
                         false))))
    return failure();
  return shape;
}

LogicalResult QConvOp::inferReturnTypes(MLIRContext *context,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  unsigned width = adaptor.getInputScale() ? 8 : 32;
  return appendType(inferQConvShape(shapes, loc, adaptor),
                    IntegerType::get(context, width), inferred);
}

LogicalResult
QConvOp::inferSymbolicShapes(ShapeContext &context,
                             SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(inferQConvShape(context, getLoc(), Adaptor(*this)),
                     shapes);
}

LogicalResult QConvOp::verify() {
  if (getOutputUnsigned() && !isRequantized())
    return emitOpError("output_unsigned needs the requantize epilogue (an "
                       "i32 result has no storage signedness)");
  return success();
}

//===----------------------------------------------------------------------===//
// DequantMatmulOp
//===----------------------------------------------------------------------===//

/// The bytes per group of values of `scheme` with `groupSize` values per
/// group; 0 for an unknown scheme.
static int64_t getSchemeGroupBytes(StringRef scheme, int64_t groupSize) {
  if (scheme == "int8")
    return groupSize;
  if (scheme == "int4")
    return groupSize / 2;
  if (scheme == "q8_0")
    return 34;
  if (scheme == "q4_0")
    return 18;
  return 0;
}

/// K of a block-quantized `weight` (rows of `weight`'s last dimension in
/// bytes).
static int64_t getSchemeReductionSize(StringRef scheme, int64_t groupSize,
                                      Value weight) {
  int64_t rowBytes = cast<RankedTensorType>(weight.getType()).getShape().back();
  return rowBytes / getSchemeGroupBytes(scheme, groupSize) * groupSize;
}

int64_t DequantMatmulOp::getBytesPerGroup() {
  return getSchemeGroupBytes(getScheme(), getGroupSize());
}

int64_t DequantMatmulOp::getReductionSize() {
  return getSchemeReductionSize(getScheme(), getGroupSize(), getWeight());
}

int64_t DequantWeightOp::getBytesPerGroup() {
  return getSchemeGroupBytes(getScheme(), getGroupSize());
}

int64_t DequantWeightOp::getReductionSize() {
  return getSchemeReductionSize(getScheme(), getGroupSize(), getWeight());
}

int64_t DequantGroupedMatmulOp::getBytesPerGroup() {
  return getSchemeGroupBytes(getScheme(), getGroupSize());
}

int64_t DequantGroupedMatmulOp::getReductionSize() {
  return getSchemeReductionSize(getScheme(), getGroupSize(), getWeight());
}

FailureOr<SmallVector<int64_t>>
mlir::rlx::checkBlockWeight(std::optional<Location> loc, StringRef scheme,
                            int64_t groupSize, Value weight, Value scales,
                            Value zeroPoints, int64_t rank) {
  auto weightType = cast<RankedTensorType>(weight.getType());
  int64_t groupBytes = getSchemeGroupBytes(scheme, groupSize);
  if (groupBytes <= 0)
    return emitOptionalError(loc, "unknown scheme \"", scheme,
                             "\" (int8, int4, q8_0 or q4_0) or group_size ",
                             groupSize);
  StringRef batch = rank == 2 ? "" : rank == 3 ? "E, " : "..., ";
  bool rankFits =
      rank < 0 ? weightType.getRank() >= 2 : weightType.getRank() == rank;
  if (!rankFits || !weightType.hasStaticShape())
    return emitOptionalError(loc, "weight must be [", batch,
                             "N, bytes per row] with static sizes, got ",
                             formatShape(weightType.getShape()));
  int64_t rowBytes = weightType.getShape().back();
  if (rowBytes % groupBytes != 0)
    return emitOptionalError(loc, "a ", scheme, " weight row of ", rowBytes,
                             " bytes is not a whole number of groups of ",
                             groupBytes, " bytes (", groupSize, " values)");
  SmallVector<int64_t> paramShape(weightType.getShape());
  paramShape.back() = rowBytes / groupBytes;
  for (auto [value, what] :
       {std::pair{scales, "scales"}, std::pair{zeroPoints, "zero_points"}}) {
    if (!value)
      continue;
    auto type = cast<RankedTensorType>(value.getType());
    if (type.getShape() != ArrayRef(paramShape))
      return emitOptionalError(loc, what, " must be [", batch,
                               "N, K / group_size] = ", formatShape(paramShape),
                               ", got ", formatShape(type.getShape()));
  }
  SmallVector<int64_t> values(paramShape);
  values.back() *= groupSize;
  return values;
}

static FailureOr<SymbolicShape>
inferDequantMatmulShape(ShapeContext &context, std::optional<Location> loc,
                        DequantMatmulOp::Adaptor adaptor) {
  auto inputType = cast<RankedTensorType>(adaptor.getInput().getType());
  if (inputType.getRank() < 2)
    return emitOptionalError(loc, "input must be [..., M, K], got rank ",
                             inputType.getRank());
  FailureOr<SmallVector<int64_t>> values = checkBlockWeight(
      loc, adaptor.getScheme(), adaptor.getGroupSize(), adaptor.getWeight(),
      adaptor.getScales(), adaptor.getZeroPoints(), /*rank=*/2);
  if (failed(values))
    return failure();
  int64_t n = (*values)[0], k = (*values)[1];
  SymbolicShape shape = context.getShape(adaptor.getInput());
  if (!context.requireEqual(shape.back(), context.getConstant(k)))
    return emitOptionalError(
        loc, "input has K = ", formatSize(shape.back()), " but the ",
        adaptor.getScheme(), " weight ",
        formatShape(
            cast<RankedTensorType>(adaptor.getWeight().getType()).getShape()),
        " holds rows of K = ", k);
  shape.back() = context.getConstant(n);
  return shape;
}

LogicalResult
DequantMatmulOp::inferReturnTypes(MLIRContext *context,
                                  std::optional<Location> loc, Adaptor adaptor,
                                  SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  return appendType(
      inferDequantMatmulShape(shapes, loc, adaptor),
      cast<RankedTensorType>(adaptor.getInput().getType()).getElementType(),
      inferred);
}

LogicalResult
DequantMatmulOp::inferSymbolicShapes(ShapeContext &context,
                                     SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(inferDequantMatmulShape(context, getLoc(), Adaptor(*this)),
                     shapes);
}

LogicalResult mlir::rlx::verifyBlockScheme(Operation *op, StringRef scheme,
                                           int64_t groupSize, Value scales,
                                           Value zeroPoints) {
  if (scheme != "int8" && scheme != "int4" && scheme != "q8_0" &&
      scheme != "q4_0")
    return op->emitOpError("scheme must be \"int8\", \"int4\", \"q8_0\" or "
                           "\"q4_0\", got \"")
           << scheme << "\"";
  if (scheme == "q8_0" || scheme == "q4_0") {
    if (groupSize != 32)
      return op->emitOpError("the GGUF scheme ")
             << scheme << " has blocks of 32 values, got group_size "
             << groupSize;
    if (scales || zeroPoints)
      return op->emitOpError("the GGUF scheme ")
             << scheme
             << " stores its scales in the weight's blocks: no scales or "
                "zero_points operand";
    return success();
  }
  if (groupSize != 32 && groupSize != 64 && groupSize != 128)
    return op->emitOpError("group_size must be 32, 64 or 128, got ")
           << groupSize;
  if (!scales)
    return op->emitOpError("the ")
           << scheme << " scheme needs a scales operand";
  return success();
}

LogicalResult DequantMatmulOp::verify() {
  return verifyBlockScheme(*this, getScheme(), getGroupSize(), getScales(),
                           getZeroPoints());
}

//===----------------------------------------------------------------------===//
// DequantWeightOp
//===----------------------------------------------------------------------===//

static FailureOr<SymbolicShape>
inferDequantWeightShape(ShapeContext &context, std::optional<Location> loc,
                        DequantWeightOp::Adaptor adaptor) {
  FailureOr<SmallVector<int64_t>> values = checkBlockWeight(
      loc, adaptor.getScheme(), adaptor.getGroupSize(), adaptor.getWeight(),
      adaptor.getScales(), adaptor.getZeroPoints(), /*rank=*/-1);
  if (failed(values))
    return failure();
  SymbolicShape shape;
  for (int64_t size : *values)
    shape.push_back(context.getConstant(size));
  return shape;
}

LogicalResult
DequantWeightOp::inferReturnTypes(MLIRContext *context,
                                  std::optional<Location> loc, Adaptor adaptor,
                                  SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  return appendType(inferDequantWeightShape(shapes, loc, adaptor),
                    Float32Type::get(context), inferred);
}

LogicalResult
DequantWeightOp::inferSymbolicShapes(ShapeContext &context,
                                     SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(inferDequantWeightShape(context, getLoc(), Adaptor(*this)),
                     shapes);
}

LogicalResult DequantWeightOp::verify() {
  return verifyBlockScheme(*this, getScheme(), getGroupSize(), getScales(),
                           getZeroPoints());
}

//===----------------------------------------------------------------------===//
// ScaledMatmulOp
//===----------------------------------------------------------------------===//

static FailureOr<SymbolicShape>
inferScaledMatmulShape(ShapeContext &context, std::optional<Location> loc,
                       ScaledMatmulOp::Adaptor adaptor) {
  FailureOr<SymbolicShape> shape = inferRank2RhsMatmulShape(
      context, loc, adaptor.getLhs(), adaptor.getRhs());
  if (failed(shape))
    return failure();
  if (failed(checkParam(context, loc, adaptor.getLhsScale(), "lhs_scale",
                        shape->back(), false)) ||
      failed(checkParam(context, loc, adaptor.getRhsScale(), "rhs_scale",
                        shape->back(), false)))
    return failure();
  return shape;
}

LogicalResult
ScaledMatmulOp::inferReturnTypes(MLIRContext *context,
                                 std::optional<Location> loc, Adaptor adaptor,
                                 SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  return appendType(inferScaledMatmulShape(shapes, loc, adaptor),
                    Float32Type::get(context), inferred);
}

LogicalResult
ScaledMatmulOp::inferSymbolicShapes(ShapeContext &context,
                                    SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(inferScaledMatmulShape(context, getLoc(), Adaptor(*this)),
                     shapes);
}

LogicalResult ScaledMatmulOp::verify() { return success(); }

//===----------------------------------------------------------------------===//
// Fp8FromBitsOp
//===----------------------------------------------------------------------===//

/// The FP8 type named by `format`, or null.
static Type getFp8Type(MLIRContext *context, StringRef format) {
  if (format == "e4m3fn")
    return Float8E4M3FNType::get(context);
  if (format == "e5m2")
    return Float8E5M2Type::get(context);
  return nullptr;
}

LogicalResult Fp8FromBitsOp::inferReturnTypes(MLIRContext *context,
                                              std::optional<Location> loc,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &inferred) {
  Type element = getFp8Type(context, adaptor.getFormat());
  if (!element)
    return emitOptionalError(loc,
                             "format must be \"e4m3fn\" or \"e5m2\", got \"",
                             adaptor.getFormat(), "\"");
  inferred.push_back(
      cast<RankedTensorType>(adaptor.getInput().getType()).clone(element));
  return success();
}

LogicalResult
Fp8FromBitsOp::inferSymbolicShapes(ShapeContext &context,
                                   SmallVectorImpl<SymbolicShape> &shapes) {
  shapes.push_back(context.getShape(getInput()));
  return success();
}

LogicalResult Fp8FromBitsOp::verify() {
  if (!getFp8Type(getContext(), getFormat()))
    return emitOpError("format must be \"e4m3fn\" or \"e5m2\", got \"")
           << getFormat() << "\"";
  return success();
}
