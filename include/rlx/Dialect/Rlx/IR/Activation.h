//===- Activation.h - Activations named by ActivationKind -------*- C++ -*-===//
//
// Fused ops name their epilogue activation with `ActivationKind`, whose cases
// are the mnemonics of unary rlx ops. The arithmetic stays with those ops:
// these helpers create the op of a kind, or ask it for its scalar formula
// (`ScalarComputeOpInterface::buildScalar`) or its gradient
// (`UnaryGradientOpInterface::buildGradient`), so an activation and its
// derivative are defined once.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_DIALECT_RLX_IR_ACTIVATION_H
#define RLX_DIALECT_RLX_IR_ACTIVATION_H

#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include <optional>
#include <string>

namespace mlir::rlx {

/// The name of the rlx op that computes `kind`, e.g. "rlx.gelu".
std::string getActivationOpName(ActivationKind kind);

/// The kind `op` computes when it is the rlx op of an `ActivationKind`.
std::optional<ActivationKind> getActivationKind(Operation *op);

/// Emits activation `kind` of the scalar `x` (in its computation type) with
/// the `buildScalar` of the op that defines it.
Value buildActivation(ScalarBuilder &b, ActivationKind kind, Value x);

/// Emits the gradient of activation `kind` for the scalar input `x` given
/// the gradient `dy` of its result (both in their computation type) with
/// the `buildGradient` of the op that defines it.
Value buildActivationGradient(ScalarBuilder &b, ActivationKind kind, Value x,
                              Value dy);

/// Creates the op that computes `kind` on the tensor `input`.
Operation *createActivationOp(OpBuilder &b, Location loc, ActivationKind kind,
                              Value input);

} // namespace mlir::rlx

#endif // RLX_DIALECT_RLX_IR_ACTIVATION_H
