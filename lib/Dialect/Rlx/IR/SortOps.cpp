//===- SortOps.cpp - Sorts, cummax indices and histograms: type rules ----===//
//
// Every check is made where the result types are inferred, so builders,
// the parser and the verifier report the same located errors.
//
//===----------------------------------------------------------------------===//
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include "OpUtils.h"

#include "llvm/ADT/APFloat.h"

using namespace mlir;
using namespace mlir::rlx;

/// The input's shape with `element`, after checking that `axis` is in
/// [-rank, rank) of the ranked `input` (rank >= 1).
static FailureOr<RankedTensorType>
inferAlongAxisType(std::optional<Location> loc, Value input, int64_t axis,
                   Type element) {
  FailureOr<RankedTensorType> type = getRankedType(loc, input, "input");
  if (failed(type))
    return failure();
  if (failed(normalizeAxis(loc, axis, type->getRank())))
    return failure();
  return type->clone(element);
}

//===----------------------------------------------------------------------===//
// SortOp / ArgsortOp / CummaxIndicesOp
//===----------------------------------------------------------------------===//

LogicalResult SortOp::inferReturnTypes(MLIRContext *context,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  FailureOr<RankedTensorType> indices =
      inferAlongAxisType(loc, adaptor.getInput(), adaptor.getAxis(),
                         IntegerType::get(context, 64));
  if (failed(indices))
    return failure();
  inferred.push_back(adaptor.getInput().getType());
  inferred.push_back(*indices);
  return success();
}

LogicalResult ArgsortOp::inferReturnTypes(MLIRContext *context,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &inferred) {
  FailureOr<RankedTensorType> indices =
      inferAlongAxisType(loc, adaptor.getInput(), adaptor.getAxis(),
                         IntegerType::get(context, 64));
  if (failed(indices))
    return failure();
  inferred.push_back(*indices);
  return success();
}

LogicalResult
CummaxIndicesOp::inferReturnTypes(MLIRContext *context,
                                  std::optional<Location> loc, Adaptor adaptor,
                                  SmallVectorImpl<Type> &inferred) {
  FailureOr<RankedTensorType> indices =
      inferAlongAxisType(loc, adaptor.getInput(), adaptor.getAxis(),
                         IntegerType::get(context, 64));
  if (failed(indices))
    return failure();
  inferred.push_back(*indices);
  return success();
}

//===----------------------------------------------------------------------===//
// HistogramOp
//===----------------------------------------------------------------------===//

/// `value` rounded to `type`'s semantics (to nearest even, as torch converts
/// its bounds).
static APFloat roundToType(double value, FloatType type) {
  APFloat rounded(value);
  bool losesInfo;
  rounded.convert(type.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                  &losesInfo);
  return rounded;
}

/// `[bins]`, after checking the element type and the bounds: finite in the
/// input's type, `min < max`, and `(max - min) * bins` finite there.
static FailureOr<SymbolicShape>
inferHistogramShape(ShapeContext &context, std::optional<Location> loc,
                    HistogramOp::Adaptor adaptor) {
  FailureOr<RankedTensorType> input =
      getRankedType(loc, adaptor.getInput(), "input");
  if (failed(input))
    return failure();
  auto element = dyn_cast<FloatType>(input->getElementType());
  if (!element || !(element.isF32() || element.isF64()))
    return emitOptionalError(loc, "histogram needs an f32 or f64 input, got ",
                             *input);
  int64_t bins = adaptor.getBins();
  if (bins < 1)
    return emitOptionalError(loc, "bins = ", bins, " must be at least 1");
  double minAttr = adaptor.getMin().convertToDouble();
  double maxAttr = adaptor.getMax().convertToDouble();
  APFloat min = roundToType(minAttr, element);
  APFloat max = roundToType(maxAttr, element);
  if (!min.isFinite() || !max.isFinite())
    return emitOptionalError(loc, "min = ", minAttr, " and max = ", maxAttr,
                             " must be finite in ", element);
  if (min.compare(max) != APFloat::cmpLessThan)
    return emitOptionalError(loc, "min = ", minAttr,
                             " must be less than max = ", maxAttr, " in ",
                             element,
                             " (the data's own range, torch.histc's "
                             "min == max form, is not supported)");
  APFloat span = max;
  span.subtract(min, APFloat::rmNearestTiesToEven);
  APFloat scaled = roundToType(static_cast<double>(bins), element);
  scaled.multiply(span, APFloat::rmNearestTiesToEven);
  if (!scaled.isFinite())
    return emitOptionalError(loc, "(max - min) * bins overflows ", element,
                             " for min = ", minAttr, ", max = ", maxAttr,
                             ", bins = ", bins);
  return SymbolicShape{context.getConstant(bins)};
}

LogicalResult HistogramOp::inferReturnTypes(MLIRContext *context,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  FailureOr<SymbolicShape> shape = inferHistogramShape(shapes, loc, adaptor);
  return appendType(
      shape,
      cast<RankedTensorType>(adaptor.getInput().getType()).getElementType(),
      inferred);
}

LogicalResult
HistogramOp::inferSymbolicShapes(ShapeContext &context,
                                 SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(inferHistogramShape(context, getLoc(), Adaptor(*this)),
                     shapes);
}
