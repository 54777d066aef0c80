//===- Activation.cpp - Activations named by ActivationKind ---------------===//
#include "rlx/Dialect/Rlx/IR/Activation.h"

using namespace mlir;
using namespace mlir::rlx;

std::string mlir::rlx::getActivationOpName(ActivationKind kind) {
  return (RlxDialect::getDialectNamespace() + "." +
          stringifyActivationKind(kind))
      .str();
}

std::optional<ActivationKind> mlir::rlx::getActivationKind(Operation *op) {
  if (op->getName().getDialectNamespace() != RlxDialect::getDialectNamespace())
    return std::nullopt;
  return symbolizeActivationKind(op->getName().stripDialect());
}

/// Calls `emit` on a detached instance of the op of `kind`. Its operand is
/// a placeholder: a unary op's formulas read only the scalars they are given.
static Value withActivationOp(ScalarBuilder &b, ActivationKind kind,
                              Type scalarType,
                              function_ref<Value(Operation *)> emit) {
  Block placeholders;
  auto type = RankedTensorType::get({}, scalarType);
  OperationState state(b.getLoc(), getActivationOpName(kind));
  state.addOperands(placeholders.addArgument(type, b.getLoc()));
  state.addTypes(type);
  Operation *op = Operation::create(state);
  Value result = emit(op);
  op->destroy();
  return result;
}

Value mlir::rlx::buildActivation(ScalarBuilder &b, ActivationKind kind,
                                 Value x) {
  return withActivationOp(b, kind, x.getType(), [&](Operation *op) {
    auto activation = dyn_cast<ScalarComputeOpInterface>(op);
    assert(activation && "ActivationKind names an elementwise rlx op");
    return activation.buildScalar(b, x);
  });
}

Value mlir::rlx::buildActivationGradient(ScalarBuilder &b,
                                         ActivationKind kind, Value x,
                                         Value dy) {
  return withActivationOp(b, kind, x.getType(), [&](Operation *op) {
    auto activation = dyn_cast<UnaryGradientOpInterface>(op);
    assert(activation && "ActivationKind names a unary rlx op");
    return activation.buildGradient(b, x, dy);
  });
}

Operation *mlir::rlx::createActivationOp(OpBuilder &b, Location loc,
                                         ActivationKind kind, Value input) {
  OperationState state(loc, getActivationOpName(kind));
  state.addOperands(input);
  state.addTypes(input.getType());
  return b.create(state);
}
