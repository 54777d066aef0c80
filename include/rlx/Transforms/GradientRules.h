//===- GradientRules.h - Reverse-mode rules of rlx ops ----------*- C++ -*-===//
#ifndef RLX_TRANSFORMS_GRADIENTRULES_H
#define RLX_TRANSFORMS_GRADIENTRULES_H

#include "mlir/IR/Builders.h"

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::rlx {

/// A floating-point tensor of `like`'s type filled with `value`: a
/// constant, or where `like` has `?` sizes a rank-0 constant expanded to
/// its shape (the seed and the zeros of gradients).
Value createSplatLike(OpBuilder &b, Location loc, Value like, double value);

/// Attaches `GradientOpInterface` to the rlx ops that have a rule.
void registerGradientRules(DialectRegistry &registry);

} // namespace mlir::rlx

#endif // RLX_TRANSFORMS_GRADIENTRULES_H
