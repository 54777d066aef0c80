//===- RlxOps.h - rlx dialect operations ------------------------*- C++ -*-===//
#ifndef RLX_DIALECT_RLX_IR_RLXOPS_H
#define RLX_DIALECT_RLX_IR_RLXOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "rlx/Dialect/Rlx/IR/Random.h"
#include "rlx/Dialect/Rlx/IR/RlxDialect.h"
#include "rlx/Dialect/Rlx/IR/ScalarBuilder.h"
#include "rlx/Dialect/Rlx/IR/SymbolicShapes.h"

#include "rlx/Dialect/Rlx/IR/RlxEnums.h.inc"

namespace mlir::rlx {
/// The check every RowOpInterface op runs: a first operand without elements
/// gives results without elements.
LogicalResult verifyRowsNotEmpty(Operation *op);
} // namespace mlir::rlx

#include "rlx/Dialect/Rlx/IR/RlxInterfaces.h.inc"

namespace mlir::rlx {

/// The numpy-style broadcast of the shapes of `operands` (ranked tensors).
/// A `?` size does not broadcast: it must equal the size it meets unless
/// that is a static 1, which it replaces.
FailureOr<SymbolicShape> inferBroadcastShape(ShapeContext &context,
                                             std::optional<Location> loc,
                                             ValueRange operands);

/// The type of the broadcast of `operands`. The result element type is
/// `elementType`, or the last operand's when null.
LogicalResult inferBroadcastResultType(MLIRContext *context,
                                       std::optional<Location> loc,
                                       ValueRange operands, Type elementType,
                                       SmallVectorImpl<Type> &inferred);

/// Evaluates an elementwise op on constant operands through its
/// `buildScalar`; returns null unless every operand is a constant.
OpFoldResult foldElementwise(ScalarComputeOpInterface op,
                             ArrayRef<Attribute> operands);

/// `elements` converted to `type` with round-to-nearest-even; null for a
/// non-splat of more elements than the folders evaluate.
DenseElementsAttr convertFloatElements(DenseFPElementsAttr elements,
                                       FloatType type);

/// Folds `x op identity` (and `identity op x` when commutative) to `x` when
/// the identity is a splat and the result type equals the type of `x`.
OpFoldResult foldBinaryIdentity(Operation *op, ArrayRef<Attribute> operands,
                                double identity, bool commutative);

/// Fails with an error on `op` unless every static tensor it takes or gives
/// has an element count and a byte size that fit in int64_t (the 64-bit
/// `index` every rlx target computes offsets in).
LogicalResult verifyAddressableTensors(Operation *op);

/// Fails with an error on `op` if it has `?` dimensions without a shape rule
/// (`SymbolicShapeOpInterface`; destination-style ops need none) or result
/// types that disagree with its rule.
LogicalResult verifyShapesFollowRule(Operation *op);

/// Fails with an error on the op of `rule` if its result types disagree with
/// its rule: a size the rule knows is that size or `?`, one it does not is
/// `?`.
LogicalResult verifyResultsFollowRule(SymbolicShapeOpInterface rule);

/// Every rlx op's operands and results are addressable
/// (`verifyAddressableTensors`), checked before the op's own verifier, so
/// shape arithmetic there and later cannot overflow.
template <typename ConcreteType>
class AddressableTensors
    : public OpTrait::TraitBase<ConcreteType, AddressableTensors> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return verifyAddressableTensors(op);
  }
};

/// Every rlx op's sizes follow its shape rule (`verifyShapesFollowRule`).
template <typename ConcreteType>
class ShapesFollowRule
    : public OpTrait::TraitBase<ConcreteType, ShapesFollowRule> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return verifyShapesFollowRule(op);
  }
};

} // namespace mlir::rlx

#define GET_OP_CLASSES
#include "rlx/Dialect/Rlx/IR/RlxOps.h.inc"

namespace mlir {
class RewriterBase;
} // namespace mlir

namespace mlir::rlx {

/// Moves `ops` (all in one block) into a new rlx.region of `kind` placed at
/// the last of them. Values they read from outside become the region's
/// inputs; their values read outside it (which must come after the last op)
/// become its results. Ops in `copied` are cloned into the region but stay
/// for their users outside.
RegionOp outlineIntoRegion(RewriterBase &rewriter, ArrayRef<Operation *> ops,
                           FusionKind kind,
                           const DenseSet<Operation *> &copied = {});

/// Replaces `op` by its decomposition (`RowOpInterface::decomposeRows`),
/// with the primitives that work on the rows in one `row` region. A
/// decomposition without a reduction has no rows: its primitives stay as
/// they are and the result is null.
RegionOp decomposeIntoRowRegion(RewriterBase &rewriter, RowOpInterface op);

/// Whether `op` may join a region of `kind` whose iteration shape is
/// `shape` (reducing `axes` for `reduction` and `row`): a property of its
/// interfaces, checked again by the region verifier.
bool canJoinRegion(Operation *op, FusionKind kind, ArrayRef<int64_t> shape,
                   ArrayRef<int64_t> axes);

} // namespace mlir::rlx

#endif // RLX_DIALECT_RLX_IR_RLXOPS_H
