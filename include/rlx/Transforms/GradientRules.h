//===- GradientRules.h - Reverse-mode rules of rlx ops ----------*- C++ -*-===//
#ifndef RLX_TRANSFORMS_GRADIENTRULES_H
#define RLX_TRANSFORMS_GRADIENTRULES_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::rlx {

/// Attaches `GradientOpInterface` to the rlx ops that have a rule.
void registerGradientRules(DialectRegistry &registry);

} // namespace mlir::rlx

#endif // RLX_TRANSFORMS_GRADIENTRULES_H
