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

Value mlir::rlx::buildActivation(ScalarBuilder &b, ActivationKind kind,
                                 Value x) {
  // Ask a detached instance of the op for its formula. Its operand is a
  // placeholder: a unary op's formula reads only the scalar it is given.
  Block placeholders;
  auto type = RankedTensorType::get({}, x.getType());
  OperationState state(b.getLoc(), getActivationOpName(kind));
  state.addOperands(placeholders.addArgument(type, b.getLoc()));
  state.addTypes(type);
  Operation *op = Operation::create(state);
  auto activation = dyn_cast<ScalarComputeOpInterface>(op);
  assert(activation && "ActivationKind names an elementwise rlx op");
  Value result = activation.buildScalar(b, x);
  op->destroy();
  return result;
}

Operation *mlir::rlx::createActivationOp(OpBuilder &b, Location loc,
                                         ActivationKind kind, Value input) {
  OperationState state(loc, getActivationOpName(kind));
  state.addOperands(input);
  state.addTypes(input.getType());
  return b.create(state);
}
