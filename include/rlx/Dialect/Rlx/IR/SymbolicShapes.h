//===- SymbolicShapes.h - Shape rules over symbolic sizes -------*- C++ -*-===//
//
// An rlx op states its shape rule once, over sizes that are affine
// expressions: a static size is a constant, a size unknown at compile time
// (a `?` dimension) is a symbol. The one rule then serves three readers,
// each a `ShapeContext`:
//
// - type inference and verification (`ShapeContext` itself): every `?` is a
//   fresh symbol, a relation between two sizes that is not decided at
//   compile time is deferred, and a result size that is not a constant is
//   `?`;
// - `reifyResultShapes` (`ReifyShapeContext`): symbols stand for
//   `tensor.dim` of the operands, and result sizes are materialized as
//   `affine.apply` (arith for products and divisions of symbols);
// - the function-level analysis (`FunctionShapeAnalysis`): sizes are
//   expressions of the function's argument sizes, equalities the rules
//   require are solved by substitution (so sizes that must be equal are one
//   symbol), and what remains becomes run-time requirements of the
//   compiled function's ABI.
//
// Upstream MLIR has the last two halves (`ReifyRankedShapedTypeOpInterface`,
// the `shape` dialect's constraints) but no symbolic form that one rule can
// be written against, hence this vocabulary.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_DIALECT_RLX_IR_SYMBOLICSHAPES_H
#define RLX_DIALECT_RLX_IR_SYMBOLICSHAPES_H

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <string>

namespace mlir {
class OpBuilder;
} // namespace mlir

namespace mlir::rlx {

/// The sizes of a ranked tensor, outermost first.
using SymbolicShape = SmallVector<AffineExpr, 4>;

/// A relation between two sizes that must hold at run time.
enum class SizeRelation { Equal, LessEqual };

class ShapeContext {
public:
  explicit ShapeContext(MLIRContext *context) : context(context) {}
  virtual ~ShapeContext() = default;

  MLIRContext *getContext() const { return context; }

  /// The sizes of `value`, a ranked tensor; the same expressions every time.
  virtual SymbolicShape getShape(Value value);
  /// The sizes of `type`: static sizes are constants, each `?` a fresh
  /// symbol.
  SymbolicShape getShape(RankedTensorType type);
  /// Makes `shape` the sizes of `value` (a block argument standing for an
  /// operand, or a result whose rule ran).
  void setShape(Value value, ArrayRef<AffineExpr> shape) {
    shapes[value] = SymbolicShape(shape);
  }

  /// Runs the shape rule of every op of `block` in order, recording the
  /// sizes of their results. An op without a rule must have static result
  /// types. Fails with a diagnostic otherwise or when a rule fails.
  LogicalResult inferBlock(Block &block);
  /// The same for one op.
  virtual LogicalResult inferOp(Operation &op);

  AffineExpr getConstant(int64_t size) const {
    return getAffineConstantExpr(size, context);
  }

  /// Requires `lhs == rhs` (resp. `lhs <= rhs`) of the sizes at run time.
  /// Returns false when the relation provably fails; the rule then reports
  /// its error. A relation not decided at compile time is recorded
  /// (`recordRequirement`) and returns true.
  bool requireEqual(AffineExpr lhs, AffineExpr rhs);
  bool requireLessEqual(AffineExpr lhs, AffineExpr rhs);

  /// Whether `lhs == rhs` is known at compile time.
  bool isKnownEqual(AffineExpr lhs, AffineExpr rhs) const;

  /// The ranked tensor type of `shape`: sizes that are not constants are `?`.
  static RankedTensorType getType(ArrayRef<AffineExpr> shape, Type elementType);
  /// `[?, 4]`: the shape as its type prints it, for diagnostics.
  static std::string format(ArrayRef<AffineExpr> shape);

  /// A size no rule determines from the operands' (a result's size that
  /// depends on which branch ran or on how often a loop ran): a fresh
  /// symbol. A relation on it holds on the path that produced it, not on
  /// every run (a branch's backward reads the gradient of a `?` result at
  /// its own size), so `requireEqual` and `requireLessEqual` accept one
  /// that is not decided at compile time without recording it.
  virtual AffineExpr getUnknownSize() {
    unknownSymbols.insert(numSymbols);
    return getFreshSymbol();
  }

protected:
  /// `expr` in MLIR's simplified form (flattened where it is affine), so
  /// that equal sizes compare equal.
  AffineExpr simplify(AffineExpr expr) const {
    return simplifyAffineExpr(expr, /*numDims=*/0, numSymbols);
  }
  AffineExpr getFreshSymbol() {
    return getAffineSymbolExpr(numSymbols++, context);
  }
  /// Called for a relation the rule requires that is not decided at
  /// compile time. Type inference defers it: the ABI analysis checks it.
  virtual void recordRequirement(SizeRelation, AffineExpr, AffineExpr) {}
  /// Applies what the context knows to `expr` (the analysis' substitutions).
  virtual AffineExpr resolve(AffineExpr expr) const { return expr; }

  /// Whether `expr` reads a size from `getUnknownSize`.
  bool readsUnknownSize(AffineExpr expr) const;

  MLIRContext *context;
  unsigned numSymbols = 0;
  DenseMap<Value, SymbolicShape> shapes;
  /// The positions of the symbols `getUnknownSize` made.
  DenseSet<unsigned> unknownSymbols;
};

/// Sizes materialized as IR: each symbol stands for a `tensor.dim` of the
/// operand it came from, created at the builder's insertion point on first
/// use. Rules read sizes from values (`getShape(Value)`), whose symbols have
/// such a source.
class ReifyShapeContext : public ShapeContext {
public:
  ReifyShapeContext(OpBuilder &builder, Location loc);

  SymbolicShape getShape(Value value) override;
  /// A symbol without a `tensor.dim` to read: sizes that use it cannot be
  /// materialized.
  AffineExpr getUnknownSize() override;

  /// Whether every symbol of `shape` reads a `tensor.dim`.
  bool isMaterializable(ArrayRef<AffineExpr> shape) const;
  /// `expr` as an index value or attribute; `expr` must be materializable.
  OpFoldResult materialize(AffineExpr expr);
  SmallVector<OpFoldResult> materialize(ArrayRef<AffineExpr> shape);

private:
  OpBuilder &builder;
  Location loc;
  /// The value each symbol reads: `tensor.dim %value, %dim` (none for an
  /// unknown size).
  SmallVector<std::pair<Value, int64_t>> symbolSources;
};

/// The sizes of a function's tensors as expressions of its arguments' `?`
/// sizes, and the relations between them that must hold at run time.
///
/// Every `?` of an argument is a symbol, numbered in argument order. The
/// analysis runs each op's shape rule in order; an equality a rule requires
/// that is linear in a symbol with coefficient 1 is solved for it by
/// substitution (the latest such symbol is replaced), so sizes that must be
/// equal are one expression and an argument size that must equal a
/// constant becomes that constant. What cannot be solved so
/// (`s0 % 8 == 0`, `5 <= s0`) is a requirement for the caller.
class FunctionShapeAnalysis : public ShapeContext {
public:
  struct Requirement {
    SizeRelation relation;
    AffineExpr lhs, rhs;
    /// The op whose rule requires it.
    Operation *op;
  };

  explicit FunctionShapeAnalysis(MLIRContext *context)
      : ShapeContext(context) {}

  /// Analyzes a function body whose block arguments are its arguments.
  /// Fails with a diagnostic on an op whose result sizes are not known from
  /// them or whose requirements can never hold.
  LogicalResult run(Block &body);

  /// The sizes of `value`, with every substitution applied.
  SymbolicShape getShape(Value value) override;
  using ShapeContext::getShape;

  LogicalResult inferOp(Operation &op) override;

  /// The requirements left, with every substitution applied; none is
  /// decided at compile time.
  SmallVector<Requirement> getRequirements() const;

  AffineExpr resolve(AffineExpr expr) const override;

  /// The names of the symbols left after `run` on `body`: `s0`, `s1`, ... in
  /// the order the arguments' sizes have them bare (every symbol left is some
  /// argument's size as it is, which binds it at run time), indexed by
  /// symbol position; empty for a position that names no symbol.
  SmallVector<std::string> getSymbolNames(Block &body);

private:
  void recordRequirement(SizeRelation relation, AffineExpr lhs,
                         AffineExpr rhs) override;

  /// What each symbol is replaced by (itself when it is not).
  SmallVector<AffineExpr> substitutions;
  SmallVector<Requirement> requirements;
  Operation *currentOp = nullptr;
};

/// `reifyResultShapes` of an op through its `SymbolicShapeOpInterface`.
LogicalResult reifyFromShapeRule(Operation *op, OpBuilder &builder,
                                 ReifiedRankedShapedTypeDims &reified);

} // namespace mlir::rlx

#endif // RLX_DIALECT_RLX_IR_SYMBOLICSHAPES_H
