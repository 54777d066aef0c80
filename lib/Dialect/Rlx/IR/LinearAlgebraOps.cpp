//===- LinearAlgebraOps.cpp - Solvers and factorizations: type rules ------===//
//
// One shape rule per operand pattern (a square matrix batch; a square
// matrix batch and right-hand sides), used by both `inferReturnTypes` and
// `inferSymbolicShapes`, so builders, the parser, the verifier and the
// dynamic-shape analysis report the same located errors.
//
//===----------------------------------------------------------------------===//
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include "OpUtils.h"
#include "PrimitiveBuilder.h"

using namespace mlir;
using namespace mlir::rlx;

/// The shape of the batch of square matrices `value` (`what`: the operand's
/// name in diagnostics): rank >= 2 and the last two sizes equal.
static FailureOr<SymbolicShape> getSquareShape(ShapeContext &context,
                                               std::optional<Location> loc,
                                               Value value, StringRef what) {
  FailureOr<RankedTensorType> type = getRankedType(loc, value, what);
  if (failed(type))
    return failure();
  if (type->getRank() < 2)
    return emitOptionalError(
        loc, what, " must be a batch of matrices (rank >= 2), got ", *type);
  SymbolicShape shape = context.getShape(value);
  if (!context.requireEqual(shape[shape.size() - 2], shape.back()))
    return emitOptionalError(loc, what, " must hold square matrices, got ",
                             formatShape(type->getShape()));
  return shape;
}

/// The batch shape of the square matrices `value`, the shape of one number
/// per matrix.
static FailureOr<SymbolicShape> inferPerMatrixShape(ShapeContext &context,
                                                    std::optional<Location> loc,
                                                    Value value) {
  FailureOr<SymbolicShape> shape = getSquareShape(context, loc, value, "input");
  if (failed(shape))
    return failure();
  shape->pop_back_n(2);
  return shape;
}

/// The shape of `x` in `a x = b`: `b`'s, after checking that `b` is
/// `[..., n, k]` for `a` `[..., n, n]` with the same batch.
static FailureOr<SymbolicShape> inferSolveShape(ShapeContext &context,
                                                std::optional<Location> loc,
                                                Value a, Value b) {
  FailureOr<SymbolicShape> aShape = getSquareShape(context, loc, a, "a");
  FailureOr<RankedTensorType> bType = getRankedType(loc, b, "b");
  if (failed(aShape) || failed(bType))
    return failure();
  auto aType = cast<RankedTensorType>(a.getType());
  if (bType->getRank() != aType.getRank())
    return emitOptionalError(
        loc, "b must have a's rank ", aType.getRank(),
        " (right-hand sides as the columns of [..., n, k]; batch dimensions "
        "do not broadcast), got ",
        *bType);
  SymbolicShape bShape = context.getShape(b);
  for (auto [aSize, bSize] : llvm::zip_equal(ArrayRef(*aShape).drop_back(2),
                                             ArrayRef(bShape).drop_back(2)))
    if (!context.requireEqual(aSize, bSize))
      return emitOptionalError(
          loc, "a and b must have the same batch dimensions, got ",
          formatShape(aType.getShape()), " and ",
          formatShape(bType->getShape()));
  if (!context.requireEqual(aShape->back(), bShape[bShape.size() - 2]))
    return emitOptionalError(loc, "b must have as many rows as a, got ",
                             formatShape(aType.getShape()), " and ",
                             formatShape(bType->getShape()));
  return bShape;
}

/// The element type of a possibly ill-typed operand (the parser infers
/// result types before verifying operand types).
static Type getElementType(Value value) {
  return getElementTypeOrSelf(value.getType());
}

//===----------------------------------------------------------------------===//
// CholeskyOp
//===----------------------------------------------------------------------===//

LogicalResult CholeskyOp::inferReturnTypes(MLIRContext *context,
                                           std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &inferred) {
  Value input = adaptor.getInput();
  ShapeContext shapes(context);
  return appendType(getSquareShape(shapes, loc, input, "input"),
                    getElementType(input), inferred);
}

LogicalResult
CholeskyOp::inferSymbolicShapes(ShapeContext &context,
                                SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(getSquareShape(context, getLoc(), getInput(), "input"),
                     shapes);
}

//===----------------------------------------------------------------------===//
// TriangularSolveOp / SolveOp
//===----------------------------------------------------------------------===//

LogicalResult TriangularSolveOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  return appendType(
      inferSolveShape(shapes, loc, adaptor.getA(), adaptor.getB()),
      getElementType(adaptor.getB()), inferred);
}

LogicalResult
TriangularSolveOp::inferSymbolicShapes(ShapeContext &context,
                                       SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(inferSolveShape(context, getLoc(), getA(), getB()),
                     shapes);
}

LogicalResult SolveOp::inferReturnTypes(MLIRContext *context,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  return appendType(
      inferSolveShape(shapes, loc, adaptor.getA(), adaptor.getB()),
      getElementType(adaptor.getB()), inferred);
}

LogicalResult
SolveOp::inferSymbolicShapes(ShapeContext &context,
                             SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(inferSolveShape(context, getLoc(), getA(), getB()),
                     shapes);
}

//===----------------------------------------------------------------------===//
// DetOp / LogdetOp
//===----------------------------------------------------------------------===//

LogicalResult DetOp::inferReturnTypes(MLIRContext *context,
                                      std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &inferred) {
  Value input = adaptor.getInput();
  ShapeContext shapes(context);
  return appendType(inferPerMatrixShape(shapes, loc, input),
                    getElementType(input), inferred);
}

LogicalResult
DetOp::inferSymbolicShapes(ShapeContext &context,
                           SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(inferPerMatrixShape(context, getLoc(), getInput()),
                     shapes);
}

LogicalResult LogdetOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  Value input = adaptor.getInput();
  ShapeContext shapes(context);
  FailureOr<SymbolicShape> shape = inferPerMatrixShape(shapes, loc, input);
  if (failed(shape))
    return failure();
  inferred.append(2, ShapeContext::getType(*shape, getElementType(input)));
  return success();
}

LogicalResult
LogdetOp::inferSymbolicShapes(ShapeContext &context,
                              SmallVectorImpl<SymbolicShape> &shapes) {
  FailureOr<SymbolicShape> shape =
      inferPerMatrixShape(context, getLoc(), getInput());
  if (failed(shape))
    return failure();
  shapes.assign(2, *shape);
  return success();
}

//===----------------------------------------------------------------------===//
// EighOp / QrOp / SvdOp
//===----------------------------------------------------------------------===//

/// `inferReturnTypes` from a shape rule giving the shapes of every result,
/// all of the input's element type.
static LogicalResult inferTypes(
    MLIRContext *context, Type element,
    function_ref<FailureOr<SmallVector<SymbolicShape>>(ShapeContext &)> rule,
    SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  FailureOr<SmallVector<SymbolicShape>> result = rule(shapes);
  if (failed(result))
    return failure();
  for (const SymbolicShape &shape : *result)
    inferred.push_back(ShapeContext::getType(shape, element));
  return success();
}

/// eigh: the eigenvalues `[..., n]` and the eigenvectors `[..., n, n]`.
static FailureOr<SmallVector<SymbolicShape>>
inferEighShapes(ShapeContext &context, std::optional<Location> loc,
                Value input) {
  FailureOr<SymbolicShape> square =
      getSquareShape(context, loc, input, "input");
  if (failed(square))
    return failure();
  SymbolicShape values = *square;
  values.pop_back();
  return SmallVector<SymbolicShape>{values, *square};
}

/// The batch shape and the sizes m, n and k = min(m, n) of the matrices
/// `input` `[..., m, n]` of a reduced factorization. k must be known, so
/// m and n are static or the same size.
struct ReducedSizes {
  SymbolicShape batch;
  AffineExpr m, n, k;
};
static FailureOr<ReducedSizes> getReducedSizes(ShapeContext &context,
                                               std::optional<Location> loc,
                                               Value input) {
  FailureOr<RankedTensorType> type = getRankedType(loc, input, "input");
  if (failed(type))
    return failure();
  if (type->getRank() < 2)
    return emitOptionalError(loc,
                             "input must be a batch of matrices (rank >= 2), "
                             "got ",
                             *type);
  SymbolicShape shape = context.getShape(input);
  AffineExpr m = shape[shape.size() - 2], n = shape.back();
  shape.pop_back_n(2);
  auto staticM = dyn_cast<AffineConstantExpr>(m);
  auto staticN = dyn_cast<AffineConstantExpr>(n);
  AffineExpr k;
  if (context.isKnownEqual(m, n))
    k = m;
  else if (staticM && staticN)
    k = context.getConstant(std::min(staticM.getValue(), staticN.getValue()));
  else
    return emitOptionalError(
        loc,
        "the reduced factors have min(m, n) columns: the matrix sizes must "
        "be static or equal, got ",
        formatShape(type->getShape()));
  return ReducedSizes{shape, m, n, k};
}

/// The batch shape followed by `sizes`.
static SymbolicShape withMatrix(const SymbolicShape &batch,
                                ArrayRef<AffineExpr> sizes) {
  SymbolicShape shape = batch;
  shape.append(sizes.begin(), sizes.end());
  return shape;
}

/// qr: q `[..., m, k]` and r `[..., k, n]`.
static FailureOr<SmallVector<SymbolicShape>>
inferQrShapes(ShapeContext &context, std::optional<Location> loc, Value input) {
  FailureOr<ReducedSizes> sizes = getReducedSizes(context, loc, input);
  if (failed(sizes))
    return failure();
  return SmallVector<SymbolicShape>{
      withMatrix(sizes->batch, {sizes->m, sizes->k}),
      withMatrix(sizes->batch, {sizes->k, sizes->n})};
}

/// svd: u `[..., m, k]`, s `[..., k]` and vh `[..., k, n]`.
static FailureOr<SmallVector<SymbolicShape>>
inferSvdShapes(ShapeContext &context, std::optional<Location> loc,
               Value input) {
  FailureOr<ReducedSizes> sizes = getReducedSizes(context, loc, input);
  if (failed(sizes))
    return failure();
  return SmallVector<SymbolicShape>{
      withMatrix(sizes->batch, {sizes->m, sizes->k}),
      withMatrix(sizes->batch, {sizes->k}),
      withMatrix(sizes->batch, {sizes->k, sizes->n})};
}

static LogicalResult appendShapes(FailureOr<SmallVector<SymbolicShape>> result,
                                  SmallVectorImpl<SymbolicShape> &shapes) {
  if (failed(result))
    return failure();
  llvm::append_range(shapes, *result);
  return success();
}

LogicalResult EighOp::inferReturnTypes(MLIRContext *context,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  Value input = adaptor.getInput();
  return inferTypes(
      context, getElementType(input),
      [&](ShapeContext &shapes) { return inferEighShapes(shapes, loc, input); },
      inferred);
}

LogicalResult
EighOp::inferSymbolicShapes(ShapeContext &context,
                            SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShapes(inferEighShapes(context, getLoc(), getInput()), shapes);
}

LogicalResult QrOp::inferReturnTypes(MLIRContext *context,
                                     std::optional<Location> loc,
                                     Adaptor adaptor,
                                     SmallVectorImpl<Type> &inferred) {
  Value input = adaptor.getInput();
  return inferTypes(
      context, getElementType(input),
      [&](ShapeContext &shapes) { return inferQrShapes(shapes, loc, input); },
      inferred);
}

LogicalResult
QrOp::inferSymbolicShapes(ShapeContext &context,
                          SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShapes(inferQrShapes(context, getLoc(), getInput()), shapes);
}

LogicalResult SvdOp::inferReturnTypes(MLIRContext *context,
                                      std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &inferred) {
  Value input = adaptor.getInput();
  return inferTypes(
      context, getElementType(input),
      [&](ShapeContext &shapes) { return inferSvdShapes(shapes, loc, input); },
      inferred);
}

LogicalResult
SvdOp::inferSymbolicShapes(ShapeContext &context,
                           SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShapes(inferSvdShapes(context, getLoc(), getInput()), shapes);
}

//===----------------------------------------------------------------------===//
// Functions of symmetric matrices
//===----------------------------------------------------------------------===//

/// The eigenvalue function's decomposition: v f(l) v^T, the columns of v
/// scaled by f(l) and multiplied by v^T.
static SmallVector<Value> decomposeSpectral(SpectralFunctionOpInterface op,
                                            OpBuilder &b) {
  Location loc = op->getLoc();
  PrimitiveBuilder pb(b, loc);
  auto eigh = EighOp::create(b, loc, op->getOperand(0));
  Value v = eigh.getEigenvectors();
  Value f = op.applyToEigenvalues(b, eigh.getEigenvalues());
  SmallVector<int64_t> rowShape(cast<RankedTensorType>(f.getType()).getShape());
  rowShape.insert(rowShape.end() - 1, 1);
  Value scaled = pb.op<MulOp>(v, pb.reshape(f, rowShape));
  int64_t rank = cast<RankedTensorType>(v.getType()).getRank();
  SmallVector<int64_t> swapLast = llvm::to_vector(llvm::seq<int64_t>(rank));
  std::swap(swapLast[rank - 1], swapLast[rank - 2]);
  return {pb.op<MatmulOp>(scaled, pb.op<TransposeOp>(v, swapLast))};
}

/// Where `x` and `y` (broadcast) are closer than `threshold`, the centered
/// expansion `series(m, d)` of their divided difference (m their mean, d
/// their difference), elsewhere `(f(x) - f(y)) / d`. The expansion keeps
/// the cancellation of the quotient out; the thresholds balance its
/// truncation against that cancellation for the element type.
static Value buildGuardedDifferences(
    OpBuilder &b, Location loc, Value x, Value y, Value threshold,
    function_ref<Value(Value)> f,
    function_ref<Value(PrimitiveBuilder &, Value, Value)> series) {
  PrimitiveBuilder pb(b, loc);
  Type element = PrimitiveBuilder::elementType(x);
  Value d = pb.op<SubOp>(x, y);
  Value m = pb.op<MulOp>(pb.op<AddOp>(x, y), pb.scalar(element, 0.5));
  Value quotient = pb.op<DivOp>(pb.op<SubOp>(f(x), f(y)), d);
  Value close = pb.op<LtOp>(pb.op<AbsOp>(d), threshold);
  return pb.op<WhereOp>(close, series(pb, m, d), quotient);
}

/// The threshold of the f64 or f32 element type of `x`.
static double pickThreshold(Value x, double f64, double f32) {
  return PrimitiveBuilder::elementType(x).isF64() ? f64 : f32;
}

Value ExpmOp::applyToEigenvalues(OpBuilder &b, Value eigenvalues) {
  return ExpOp::create(b, getLoc(), eigenvalues);
}

/// exp: e^m (1 + d^2/24 + d^4/1920) below |d| = 0.04 (f64) or 0.7 (f32),
/// where the next term (d^6/322560) and the quotient's rounding (~eps/d)
/// are both below 2e-14 (f64) or 4e-7 (f32) relative.
Value ExpmOp::buildDividedDifferences(OpBuilder &b, Value x, Value y) {
  Location loc = getLoc();
  PrimitiveBuilder pb(b, loc);
  Type element = PrimitiveBuilder::elementType(x);
  Value threshold = pb.scalar(element, pickThreshold(x, 0.04, 0.7));
  return buildGuardedDifferences(
      b, loc, x, y, threshold,
      [&](Value v) -> Value { return ExpOp::create(b, loc, v); },
      [&](PrimitiveBuilder &pb, Value m, Value d) {
        Value d2 = pb.op<MulOp>(d, d);
        Value poly = pb.op<AddOp>(
            pb.scalar(element, 1.0),
            pb.op<MulOp>(
                d2, pb.op<AddOp>(
                        pb.scalar(element, 1.0 / 24),
                        pb.op<MulOp>(d2, pb.scalar(element, 1.0 / 1920)))));
        return pb.op<MulOp>(pb.op<ExpOp>(m), poly);
      });
}

Value LogmOp::applyToEigenvalues(OpBuilder &b, Value eigenvalues) {
  return LogOp::create(b, getLoc(), eigenvalues);
}

/// log: (1 + r^2/12 + r^4/80) / m with r = d/m below |r| = 0.016 (f64) or
/// 0.27 (f32), where the next term (r^6/448) and the quotient's rounding
/// are both below 1e-13 (f64) or 1e-6 (f32) relative. The threshold
/// scales with m (the compared |d| is against 0.016 m).
Value LogmOp::buildDividedDifferences(OpBuilder &b, Value x, Value y) {
  Location loc = getLoc();
  PrimitiveBuilder pb(b, loc);
  Type element = PrimitiveBuilder::elementType(x);
  Value scale =
      pb.op<MulOp>(pb.op<AbsOp>(pb.op<AddOp>(x, y)), pb.scalar(element, 0.5));
  Value threshold =
      pb.op<MulOp>(scale, pb.scalar(element, pickThreshold(x, 0.016, 0.27)));
  return buildGuardedDifferences(
      b, loc, x, y, threshold,
      [&](Value v) -> Value { return LogOp::create(b, loc, v); },
      [&](PrimitiveBuilder &pb, Value m, Value d) {
        Value r = pb.op<DivOp>(d, m);
        Value r2 = pb.op<MulOp>(r, r);
        Value poly = pb.op<AddOp>(
            pb.scalar(element, 1.0),
            pb.op<MulOp>(
                r2,
                pb.op<AddOp>(pb.scalar(element, 1.0 / 12),
                             pb.op<MulOp>(r2, pb.scalar(element, 1.0 / 80)))));
        return pb.op<DivOp>(poly, m);
      });
}

Value SqrtmOp::applyToEigenvalues(OpBuilder &b, Value eigenvalues) {
  return SqrtOp::create(b, getLoc(), eigenvalues);
}

/// sqrt: 1 / (sqrt(x) + sqrt(y)), exact and free of cancellation.
Value SqrtmOp::buildDividedDifferences(OpBuilder &b, Value x, Value y) {
  PrimitiveBuilder pb(b, getLoc());
  return pb.op<RecipOp>(pb.op<AddOp>(pb.op<SqrtOp>(x), pb.op<SqrtOp>(y)));
}

Value InvsqrtmOp::applyToEigenvalues(OpBuilder &b, Value eigenvalues) {
  return RsqrtOp::create(b, getLoc(), eigenvalues);
}

/// 1/sqrt: -1 / (sqrt(x) sqrt(y) (sqrt(x) + sqrt(y))), exact and free of
/// cancellation.
Value InvsqrtmOp::buildDividedDifferences(OpBuilder &b, Value x, Value y) {
  PrimitiveBuilder pb(b, getLoc());
  Value sx = pb.op<SqrtOp>(x), sy = pb.op<SqrtOp>(y);
  return pb.op<NegOp>(
      pb.op<RecipOp>(pb.op<MulOp>(pb.op<MulOp>(sx, sy), pb.op<AddOp>(sx, sy))));
}

/// The verifier and shape rule every function of symmetric matrices
/// shares: a batch of square matrices.
static LogicalResult verifySpectral(Operation *op) {
  ShapeContext context(op->getContext());
  return getSquareShape(context, op->getLoc(), op->getOperand(0), "input");
}

static LogicalResult
inferSpectralShapes(Operation *op, ShapeContext &context,
                    SmallVectorImpl<SymbolicShape> &shapes) {
  return appendShape(
      getSquareShape(context, op->getLoc(), op->getOperand(0), "input"),
      shapes);
}

LogicalResult ExpmOp::verify() { return verifySpectral(*this); }
LogicalResult LogmOp::verify() { return verifySpectral(*this); }
LogicalResult SqrtmOp::verify() { return verifySpectral(*this); }
LogicalResult InvsqrtmOp::verify() { return verifySpectral(*this); }

LogicalResult
ExpmOp::inferSymbolicShapes(ShapeContext &context,
                            SmallVectorImpl<SymbolicShape> &shapes) {
  return inferSpectralShapes(*this, context, shapes);
}
LogicalResult
LogmOp::inferSymbolicShapes(ShapeContext &context,
                            SmallVectorImpl<SymbolicShape> &shapes) {
  return inferSpectralShapes(*this, context, shapes);
}
LogicalResult
SqrtmOp::inferSymbolicShapes(ShapeContext &context,
                             SmallVectorImpl<SymbolicShape> &shapes) {
  return inferSpectralShapes(*this, context, shapes);
}
LogicalResult
InvsqrtmOp::inferSymbolicShapes(ShapeContext &context,
                                SmallVectorImpl<SymbolicShape> &shapes) {
  return inferSpectralShapes(*this, context, shapes);
}

SmallVector<Value> ExpmOp::decompose(OpBuilder &b) {
  return decomposeSpectral(*this, b);
}
SmallVector<Value> LogmOp::decompose(OpBuilder &b) {
  return decomposeSpectral(*this, b);
}
SmallVector<Value> SqrtmOp::decompose(OpBuilder &b) {
  return decomposeSpectral(*this, b);
}
SmallVector<Value> InvsqrtmOp::decompose(OpBuilder &b) {
  return decomposeSpectral(*this, b);
}
