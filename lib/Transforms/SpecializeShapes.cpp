//===- SpecializeShapes.cpp - Static values for `?` sizes -----------------===//
//
// Names `?` sizes as rlx-export-abi does (FunctionShapeAnalysis) and
// replaces the named ones by their values in the type of every value of the
// function, each from its shape in that analysis. Upstream's shape refinement
// (`tensor.cast` folding, `resolve-ranked-shaped-type-result-dims`) works on
// one op at a time and does not change a function's signature; here the
// function's arguments, every op and its results change together.
//
//===----------------------------------------------------------------------===//
#include "rlx/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXSPECIALIZESHAPES
#include "rlx/Transforms/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;
using namespace mlir::rlx;

/// `declared` with the sizes `shape` knows (constants) where it has `?`.
static RankedTensorType refine(RankedTensorType declared,
                               ArrayRef<AffineExpr> shape) {
  SmallVector<int64_t> sizes(declared.getShape());
  for (auto [size, expr] : llvm::zip(sizes, shape))
    if (auto constant = dyn_cast<AffineConstantExpr>(expr))
      size = constant.getValue();
  return declared.clone(sizes);
}

namespace {
struct RlxSpecializeShapesPass
    : rlx::impl::RlxSpecializeShapesBase<RlxSpecializeShapesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::StringMap<int64_t> values;
    for (StringRef entry : sizes) {
      auto [name, text] = entry.split('=');
      int64_t value;
      if (name.empty() || text.getAsInteger(10, value) || value < 0) {
        module.emitError() << "rlx-specialize-shapes: '" << entry
                           << "' is not NAME=VALUE with VALUE >= 0";
        return signalPassFailure();
      }
      values[name.trim()] = value;
    }
    llvm::StringSet<> used;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (!func.isPublic() || func.isDeclaration())
        continue;
      Block &body = func.getBody().front();
      FunctionShapeAnalysis analysis(&getContext());
      if (failed(analysis.run(body)))
        return signalPassFailure();
      // The given sizes as constants in place of their symbols.
      SmallVector<std::string> names = analysis.getSymbolNames(body);
      SmallVector<AffineExpr> replacements;
      for (auto [position, name] : llvm::enumerate(names)) {
        auto it = values.find(name);
        replacements.push_back(
            it == values.end()
                ? getAffineSymbolExpr(position, &getContext())
                : getAffineConstantExpr(it->second, &getContext()));
        if (it != values.end())
          used.insert(name);
      }
      // What is left to run time may be decided by the given values.
      for (const FunctionShapeAnalysis::Requirement &requirement :
           analysis.getRequirements()) {
        AffineExpr lhs = requirement.lhs.replaceSymbols(replacements);
        AffineExpr rhs = requirement.rhs.replaceSymbols(replacements);
        bool equal = requirement.relation == SizeRelation::Equal;
        auto margin = dyn_cast<AffineConstantExpr>(simplifyAffineExpr(
            equal ? lhs - rhs : rhs - lhs, /*numDims=*/0, names.size()));
        if (margin &&
            (equal ? margin.getValue() != 0 : margin.getValue() < 0)) {
          // Printed with the symbols as the manifest names them.
          SmallVector<AffineExpr> named;
          for (auto [position, name] : llvm::enumerate(names)) {
            unsigned index = position;
            if (!name.empty())
              (void)StringRef(name).drop_front().getAsInteger(10, index);
            named.push_back(getAffineSymbolExpr(index, &getContext()));
          }
          std::string relation;
          llvm::raw_string_ostream os(relation);
          os << requirement.lhs.replaceSymbols(named)
             << (equal ? " == " : " <= ")
             << requirement.rhs.replaceSymbols(named);
          requirement.op->emitOpError("needs ")
              << relation
              << ", which the sizes given to rlx-specialize-shapes break";
          return signalPassFailure();
        }
      }
      // Every value's type from its shape in the whole function's analysis,
      // not from its op's rule on refined operands: a rule that reads its
      // declared result type (a reshape's `?` sizes, matched in order)
      // would match other sizes once some are constants.
      auto specialize = [&](Value value) {
        auto type = dyn_cast<RankedTensorType>(value.getType());
        if (!type || type.hasStaticShape())
          return;
        SymbolicShape shape = analysis.getShape(value);
        for (AffineExpr &size : shape)
          size = size.replaceSymbols(replacements);
        value.setType(refine(type, shape));
      };
      func.walk([&](Block *block) {
        for (BlockArgument argument : block->getArguments())
          specialize(argument);
        for (Operation &op : *block)
          for (Value result : op.getResults())
            specialize(result);
      });
      func.setType(FunctionType::get(&getContext(), body.getArgumentTypes(),
                                     body.getTerminator()->getOperandTypes()));
    }
    for (const auto &entry : values)
      if (!used.contains(entry.getKey())) {
        module.emitError() << "rlx-specialize-shapes: no exported function "
                              "has a size named '"
                           << entry.getKey() << "'";
        return signalPassFailure();
      }
  }
};
} // namespace
