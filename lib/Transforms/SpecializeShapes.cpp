//===- SpecializeShapes.cpp - Static values for `?` sizes -----------------===//
//
// Names `?` sizes as rlx-export-abi does (FunctionShapeAnalysis), replaces
// the named ones by their values in the arguments' types, and refines every
// result type through its op's shape rule. Upstream's shape refinement
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

/// Refines the result types of the ops of `block` in order, each from its
/// rule on its (already refined) operands; a region's body first, its
/// arguments typed as its inputs.
static LogicalResult refineBlock(Block &block) {
  for (Operation &op : block) {
    if (auto region = dyn_cast<RegionOp>(op)) {
      Block &body = region.getBody().front();
      for (auto [argument, input] :
           llvm::zip(body.getArguments(), region.getInputs()))
        argument.setType(input.getType());
      if (failed(refineBlock(body)))
        return failure();
    }
    auto rule = dyn_cast<SymbolicShapeOpInterface>(op);
    if (!rule)
      continue;
    ShapeContext context(op.getContext());
    SmallVector<SymbolicShape> shapes;
    if (failed(rule.inferSymbolicShapes(context, shapes)))
      return failure();
    for (auto [result, shape] : llvm::zip(op.getResults(), shapes))
      result.setType(refine(cast<RankedTensorType>(result.getType()), shape));
  }
  return success();
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
      for (BlockArgument argument : body.getArguments()) {
        auto type = dyn_cast<RankedTensorType>(argument.getType());
        if (!type)
          continue;
        SymbolicShape shape = analysis.getShape(argument);
        for (AffineExpr &size : shape)
          size = size.replaceSymbols(replacements);
        argument.setType(refine(type, shape));
      }
      if (failed(refineBlock(body)))
        return signalPassFailure();
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
