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
/// its shape (the seed and the zeros of gradients); for complex elements,
/// `value` + 0i.
Value createSplatLike(OpBuilder &b, Location loc, Value like, double value);

/// The sum of two gradients of one value: rlx.add, or part by part for
/// complex tensors (which have no elementwise arithmetic).
Value createGradientSum(OpBuilder &b, Location loc, Value x, Value y);

/// Attaches `GradientOpInterface` to the rlx ops that have a rule.
void registerGradientRules(DialectRegistry &registry);

} // namespace mlir::rlx

#endif // RLX_TRANSFORMS_GRADIENTRULES_H
