//===- SymbolicShapes.cpp - Shape rules over symbolic sizes ---------------===//
#include "rlx/Dialect/Rlx/IR/SymbolicShapes.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::rlx;

SymbolicShape ShapeContext::getShape(Value value) {
  auto it = shapes.find(value);
  if (it != shapes.end())
    return it->second;
  SymbolicShape shape = getShape(cast<RankedTensorType>(value.getType()));
  shapes[value] = shape;
  return shape;
}

SymbolicShape ShapeContext::getShape(RankedTensorType type) {
  SymbolicShape shape;
  for (int64_t size : type.getShape())
    shape.push_back(ShapedType::isDynamic(size) ? getFreshSymbol()
                                                : getConstant(size));
  return shape;
}

LogicalResult ShapeContext::inferBlock(Block &block) {
  for (Operation &op : block)
    if (failed(inferOp(op)))
      return failure();
  return success();
}

LogicalResult ShapeContext::inferOp(Operation &op) {
  if (auto rule = dyn_cast<SymbolicShapeOpInterface>(op)) {
    SmallVector<SymbolicShape> results;
    if (failed(rule.inferSymbolicShapes(*this, results)))
      return failure();
    for (auto [result, shape] : llvm::zip(op.getResults(), results))
      setShape(result, shape);
    return success();
  }
  for (auto [index, result] : llvm::enumerate(op.getResults())) {
    auto type = dyn_cast<RankedTensorType>(result.getType());
    if (type && !type.hasStaticShape())
      return op.emitOpError("result #") << index << " has type " << type
                                        << ", whose sizes no shape rule gives";
  }
  return success();
}

bool ShapeContext::isKnownEqual(AffineExpr lhs, AffineExpr rhs) const {
  AffineExpr difference = simplify(resolve(lhs) - resolve(rhs));
  auto constant = dyn_cast<AffineConstantExpr>(difference);
  return constant && constant.getValue() == 0;
}

bool ShapeContext::requireEqual(AffineExpr lhs, AffineExpr rhs) {
  lhs = resolve(lhs);
  rhs = resolve(rhs);
  if (auto constant = dyn_cast<AffineConstantExpr>(simplify(lhs - rhs)))
    return constant.getValue() == 0;
  if (!readsUnknownSize(lhs) && !readsUnknownSize(rhs))
    recordRequirement(SizeRelation::Equal, lhs, rhs);
  return true;
}

bool ShapeContext::readsUnknownSize(AffineExpr expr) const {
  bool reads = false;
  expr.walk([&](AffineExpr sub) {
    if (auto symbol = dyn_cast<AffineSymbolExpr>(sub))
      reads |= unknownSymbols.contains(symbol.getPosition());
  });
  return reads;
}

/// Whether `expr` is >= 0 for every value of its symbols, which are sizes
/// (>= 0): sums, products and positive divisions of sizes and non-negative
/// constants.
static bool isKnownNonNegative(AffineExpr expr) {
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return constant.getValue() >= 0;
  if (isa<AffineSymbolExpr>(expr))
    return true;
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary)
    return false;
  switch (binary.getKind()) {
  case AffineExprKind::Add:
  case AffineExprKind::Mul:
  case AffineExprKind::FloorDiv:
  case AffineExprKind::CeilDiv:
    return isKnownNonNegative(binary.getLHS()) &&
           isKnownNonNegative(binary.getRHS());
  case AffineExprKind::Mod:
    // Floored: in [0, divisor) for a positive divisor.
    return isa<AffineConstantExpr>(binary.getRHS()) &&
           cast<AffineConstantExpr>(binary.getRHS()).getValue() > 0;
  default:
    return false;
  }
}

bool ShapeContext::requireLessEqual(AffineExpr lhs, AffineExpr rhs) {
  lhs = resolve(lhs);
  rhs = resolve(rhs);
  AffineExpr slack = simplify(rhs - lhs);
  if (auto constant = dyn_cast<AffineConstantExpr>(slack))
    return constant.getValue() >= 0;
  if (isKnownNonNegative(slack))
    return true;
  if (!readsUnknownSize(lhs) && !readsUnknownSize(rhs))
    recordRequirement(SizeRelation::LessEqual, lhs, rhs);
  return true;
}

RankedTensorType ShapeContext::getType(ArrayRef<AffineExpr> shape,
                                       Type elementType) {
  SmallVector<int64_t> sizes;
  for (AffineExpr size : shape) {
    auto constant = dyn_cast<AffineConstantExpr>(size);
    sizes.push_back(constant ? constant.getValue() : ShapedType::kDynamic);
  }
  return RankedTensorType::get(sizes, elementType);
}

std::string ShapeContext::format(ArrayRef<AffineExpr> shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << '[';
  llvm::interleaveComma(shape, os, [&](AffineExpr size) {
    if (auto constant = dyn_cast<AffineConstantExpr>(size))
      os << constant.getValue();
    else
      os << '?';
  });
  os << ']';
  return text;
}

//===----------------------------------------------------------------------===//
// ReifyShapeContext
//===----------------------------------------------------------------------===//

ReifyShapeContext::ReifyShapeContext(OpBuilder &builder, Location loc)
    : ShapeContext(builder.getContext()), builder(builder), loc(loc) {}

SymbolicShape ReifyShapeContext::getShape(Value value) {
  auto it = shapes.find(value);
  if (it != shapes.end())
    return it->second;
  auto type = cast<RankedTensorType>(value.getType());
  SymbolicShape shape;
  for (auto [dim, size] : llvm::enumerate(type.getShape())) {
    if (!ShapedType::isDynamic(size)) {
      shape.push_back(getConstant(size));
      continue;
    }
    symbolSources.emplace_back(value, dim);
    shape.push_back(getFreshSymbol());
  }
  shapes[value] = shape;
  return shape;
}

AffineExpr ReifyShapeContext::getUnknownSize() {
  symbolSources.emplace_back(Value(), 0);
  return ShapeContext::getUnknownSize();
}

bool ReifyShapeContext::isMaterializable(ArrayRef<AffineExpr> shape) const {
  bool materializable = true;
  for (AffineExpr size : shape)
    size.walk([&](AffineExpr sub) {
      if (auto symbol = dyn_cast<AffineSymbolExpr>(sub))
        materializable &= symbolSources[symbol.getPosition()].first != nullptr;
    });
  return materializable;
}

OpFoldResult ReifyShapeContext::materialize(AffineExpr expr) {
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return builder.getIndexAttr(constant.getValue());
  if (expr.isPureAffine()) {
    // Only the symbols `expr` reads get a `tensor.dim`.
    SmallVector<OpFoldResult> operands(numSymbols, builder.getIndexAttr(0));
    expr.walk([&](AffineExpr sub) {
      if (auto symbol = dyn_cast<AffineSymbolExpr>(sub)) {
        auto [value, dim] = symbolSources[symbol.getPosition()];
        operands[symbol.getPosition()] =
            builder.createOrFold<tensor::DimOp>(loc, value, dim);
      }
    });
    return affine::makeComposedFoldedAffineApply(
        builder, loc, AffineMap::get(0, numSymbols, expr), operands);
  }
  // Products and quotients of two sizes are not affine: arith computes them.
  auto binary = cast<AffineBinaryOpExpr>(expr);
  Value lhs = getValueOrCreateConstantIndexOp(builder, loc,
                                              materialize(binary.getLHS()));
  Value rhs = getValueOrCreateConstantIndexOp(builder, loc,
                                              materialize(binary.getRHS()));
  switch (binary.getKind()) {
  case AffineExprKind::Add:
    return builder.createOrFold<arith::AddIOp>(loc, lhs, rhs);
  case AffineExprKind::Mul:
    return builder.createOrFold<arith::MulIOp>(loc, lhs, rhs);
  case AffineExprKind::FloorDiv:
    return builder.createOrFold<arith::FloorDivSIOp>(loc, lhs, rhs);
  case AffineExprKind::CeilDiv:
    return builder.createOrFold<arith::CeilDivSIOp>(loc, lhs, rhs);
  case AffineExprKind::Mod: {
    // Affine mod is floored: lhs - floordiv(lhs, rhs) * rhs.
    Value quotient = builder.createOrFold<arith::FloorDivSIOp>(loc, lhs, rhs);
    Value product = builder.createOrFold<arith::MulIOp>(loc, quotient, rhs);
    return builder.createOrFold<arith::SubIOp>(loc, lhs, product);
  }
  default:
    break;
  }
  llvm_unreachable("constants, symbols and pure-affine exprs handled above");
}

SmallVector<OpFoldResult>
ReifyShapeContext::materialize(ArrayRef<AffineExpr> shape) {
  return llvm::map_to_vector(
      shape, [&](AffineExpr size) { return materialize(size); });
}

LogicalResult
mlir::rlx::reifyFromShapeRule(Operation *op, OpBuilder &builder,
                              ReifiedRankedShapedTypeDims &reified) {
  auto rule = dyn_cast<SymbolicShapeOpInterface>(op);
  if (!rule)
    return failure();
  ReifyShapeContext context(builder, op->getLoc());
  SmallVector<SymbolicShape> shapes;
  if (failed(rule.inferSymbolicShapes(context, shapes)))
    return failure();
  // A size that depends on which branch or how many iterations ran has no
  // tensor.dim to read.
  if (!llvm::all_of(shapes, [&](const SymbolicShape &shape) {
        return context.isMaterializable(shape);
      }))
    return failure();
  for (const SymbolicShape &shape : shapes)
    reified.push_back(context.materialize(shape));
  return success();
}

//===----------------------------------------------------------------------===//
// FunctionShapeAnalysis
//===----------------------------------------------------------------------===//

AffineExpr FunctionShapeAnalysis::resolve(AffineExpr expr) const {
  if (substitutions.empty())
    return expr;
  SmallVector<AffineExpr> all(substitutions);
  for (unsigned position = all.size(); position < numSymbols; ++position)
    all.push_back(getAffineSymbolExpr(position, context));
  return expr.replaceSymbols(all);
}

SymbolicShape FunctionShapeAnalysis::getShape(Value value) {
  return llvm::map_to_vector<4>(ShapeContext::getShape(value),
                                [&](AffineExpr size) { return resolve(size); });
}

void FunctionShapeAnalysis::recordRequirement(SizeRelation relation,
                                              AffineExpr lhs, AffineExpr rhs) {
  if (relation == SizeRelation::Equal) {
    // `lhs - rhs == 0` solved for a symbol whose coefficient is 1 or -1 (the
    // latest such symbol, so that sizes stay named after the first argument
    // dimension that has them): `s1 + 1 == s0 + 1` makes s1 s0.
    AffineExpr difference = simplify(lhs - rhs);
    for (int position = static_cast<int>(numSymbols) - 1; position >= 0;
         --position) {
      if (!difference.isFunctionOfSymbol(position))
        continue;
      auto at = [&](int64_t value) {
        SmallVector<AffineExpr> values;
        for (unsigned p = 0; p < numSymbols; ++p)
          values.push_back(static_cast<int>(p) == position
                               ? getAffineConstantExpr(value, context)
                               : getAffineSymbolExpr(p, context));
        return difference.replaceSymbols(values);
      };
      AffineExpr rest = simplify(at(0));
      auto coefficient = dyn_cast<AffineConstantExpr>(simplify(at(1) - rest));
      AffineExpr symbol = getAffineSymbolExpr(position, context);
      // Linear in the symbol: the difference is coefficient * symbol + rest.
      if (!coefficient || std::abs(coefficient.getValue()) != 1 ||
          rest.isFunctionOfSymbol(position) ||
          !isKnownEqual(difference, symbol * coefficient.getValue() + rest))
        continue;
      AffineExpr value = coefficient.getValue() == 1 ? -rest : rest;
      for (unsigned p = substitutions.size(); p < numSymbols; ++p)
        substitutions.push_back(getAffineSymbolExpr(p, context));
      SmallVector<AffineExpr> step;
      for (unsigned p = 0; p < numSymbols; ++p)
        step.push_back(getAffineSymbolExpr(p, context));
      step[position] = value;
      for (AffineExpr &substitution : substitutions)
        substitution = substitution.replaceSymbols(step);
      return;
    }
  }
  requirements.push_back({relation, lhs, rhs, currentOp});
}

LogicalResult FunctionShapeAnalysis::inferOp(Operation &op) {
  // Requirements name the innermost op whose rule needs them.
  Operation *outer = currentOp;
  currentOp = &op;
  LogicalResult result = ShapeContext::inferOp(op);
  currentOp = outer;
  return result;
}

SmallVector<FunctionShapeAnalysis::Requirement>
FunctionShapeAnalysis::getRequirements() const {
  SmallVector<Requirement> resolved;
  for (Requirement requirement : requirements) {
    requirement.lhs = resolve(requirement.lhs);
    requirement.rhs = resolve(requirement.rhs);
    bool duplicate = llvm::any_of(resolved, [&](const Requirement &other) {
      return other.relation == requirement.relation &&
             other.lhs == requirement.lhs && other.rhs == requirement.rhs;
    });
    if (!duplicate)
      resolved.push_back(requirement);
  }
  // `c <= e` follows from `c' <= e` with c' > c, and `e <= c` from
  // `e <= c'` with c' < c: only the strongest bounds of a size are
  // requirements.
  auto constantOf = [](const Requirement &requirement, AffineExpr side) {
    auto constant = dyn_cast<AffineConstantExpr>(side);
    return requirement.relation == SizeRelation::LessEqual && constant
               ? std::optional<int64_t>(constant.getValue())
               : std::nullopt;
  };
  auto implies = [&](const Requirement &other, const Requirement &requirement) {
    std::optional<int64_t> lower = constantOf(requirement, requirement.lhs);
    std::optional<int64_t> otherLower = constantOf(other, other.lhs);
    if (lower && otherLower && other.rhs == requirement.rhs)
      return *otherLower > *lower;
    std::optional<int64_t> upper = constantOf(requirement, requirement.rhs);
    std::optional<int64_t> otherUpper = constantOf(other, other.rhs);
    return upper && otherUpper && other.lhs == requirement.lhs &&
           *otherUpper < *upper;
  };
  SmallVector<Requirement> strongest;
  for (const Requirement &requirement : resolved)
    if (llvm::none_of(resolved, [&](const Requirement &other) {
          return implies(other, requirement);
        }))
      strongest.push_back(requirement);
  return strongest;
}

SmallVector<std::string> FunctionShapeAnalysis::getSymbolNames(Block &body) {
  SmallVector<std::string> names(numSymbols);
  unsigned count = 0;
  for (BlockArgument argument : body.getArguments()) {
    if (!isa<RankedTensorType>(argument.getType()))
      continue;
    for (AffineExpr size : getShape(argument))
      if (auto symbol = dyn_cast<AffineSymbolExpr>(size))
        if (names[symbol.getPosition()].empty())
          names[symbol.getPosition()] = "s" + std::to_string(count++);
  }
  return names;
}

LogicalResult FunctionShapeAnalysis::run(Block &body) {
  for (BlockArgument argument : body.getArguments())
    if (isa<RankedTensorType>(argument.getType()))
      (void)ShapeContext::getShape(argument);
  // The arguments' bounds are the caller's first requirements, named after
  // the function.
  if (auto function = dyn_cast<FunctionOpInterface>(body.getParentOp())) {
    currentOp = function;
    for (BlockArgument argument : body.getArguments()) {
      auto bounds = function.getArgAttrOfType<DenseI64ArrayAttr>(
          argument.getArgNumber(), RlxDialect::kBoundsAttrName);
      if (!bounds || !isa<RankedTensorType>(argument.getType()))
        continue;
      SymbolicShape shape = ShapeContext::getShape(argument);
      for (auto [size, bound] : llvm::zip(shape, bounds.asArrayRef()))
        if (bound >= 0 && !requireLessEqual(size, getConstant(bound)))
          return function.emitError("argument ")
                 << argument.getArgNumber() << " is larger than its bounds";
    }
    currentOp = nullptr;
  }
  if (failed(inferBlock(body)))
    return failure();
  // A substitution made after a requirement was recorded may decide it.
  SmallVector<Requirement> kept;
  for (const Requirement &requirement : getRequirements()) {
    AffineExpr difference = requirement.relation == SizeRelation::Equal
                                ? requirement.lhs - requirement.rhs
                                : requirement.rhs - requirement.lhs;
    auto constant = dyn_cast<AffineConstantExpr>(difference);
    if (!constant) {
      kept.push_back(requirement);
      continue;
    }
    bool holds = requirement.relation == SizeRelation::Equal
                     ? constant.getValue() == 0
                     : constant.getValue() >= 0;
    if (!holds)
      return requirement.op->emitOpError(
          "requires sizes that the function's other ops make impossible");
  }
  requirements = std::move(kept);
  return success();
}
