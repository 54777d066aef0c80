//===- ExportAbi.cpp - Describe public functions for the runtime ----------===//
#include "rlx/Dialect/Rlx/IR/RlxOps.h"
#include "rlx/Dialect/Rlx/IR/SymbolicShapes.h"
#include "rlx/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CheckedArithmetic.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXEXPORTABI
#include "rlx/Transforms/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;

static constexpr StringLiteral kManifestSymbol = "rlx_manifest";
/// The runtime's limits (docs/runtime.md).
static constexpr int64_t kMaxRank = 32;

/// The runtime's name for an element type, or empty if it has none.
static StringRef getDtypeName(Type type) {
  if (type.isF32()) return "f32";
  if (type.isF16()) return "f16";
  if (type.isBF16()) return "bf16";
  if (type.isF64()) return "f64";
  if (type.isSignlessInteger(1)) return "i1";
  if (type.isSignlessInteger(8)) return "i8";
  if (type.isSignlessInteger(16)) return "i16";
  if (type.isSignlessInteger(32)) return "i32";
  if (type.isSignlessInteger(64)) return "i64";
  if (auto complex = dyn_cast<ComplexType>(type)) {
    if (complex.getElementType().isF32())
      return "c64";
    if (complex.getElementType().isF64())
      return "c128";
  }
  return "";
}

/// Prints a size in the manifest's expression syntax (docs/runtime.md):
/// integers, symbol names, `+ - * / %` with `/` and `%` floored, as affine
/// `floordiv` and `mod` are. `precedence` is the binding strength the
/// context needs: 0 for a sum, 1 for a factor's left operand, 2 for its right
/// operand.
static void printSize(AffineExpr size, ArrayRef<std::string> names,
                      int precedence, llvm::raw_ostream &os) {
  if (auto constant = dyn_cast<AffineConstantExpr>(size)) {
    if (constant.getValue() < 0 && precedence > 0)
      os << '(' << constant.getValue() << ')';
    else
      os << constant.getValue();
    return;
  }
  if (auto symbol = dyn_cast<AffineSymbolExpr>(size)) {
    os << names[symbol.getPosition()];
    return;
  }
  auto binary = cast<AffineBinaryOpExpr>(size);
  AffineExpr lhs = binary.getLHS(), rhs = binary.getRHS();
  switch (binary.getKind()) {
  case AffineExprKind::Add: {
    if (precedence > 0)
      os << '(';
    printSize(lhs, names, 0, os);
    // `a + b * -1` and `a + -c` print as subtractions.
    auto product = dyn_cast<AffineBinaryOpExpr>(rhs);
    auto factor = product && product.getKind() == AffineExprKind::Mul
                      ? dyn_cast<AffineConstantExpr>(product.getRHS())
                      : AffineConstantExpr();
    auto constant = dyn_cast<AffineConstantExpr>(rhs);
    if (factor && factor.getValue() == -1) {
      os << '-';
      printSize(product.getLHS(), names, 1, os);
    } else if (constant && constant.getValue() < 0) {
      os << '-' << -constant.getValue();
    } else {
      os << '+';
      printSize(rhs, names, 0, os);
    }
    if (precedence > 0)
      os << ')';
    return;
  }
  case AffineExprKind::CeilDiv:
    // ceildiv(a, b) = floordiv(a + b - 1, b) for the positive constant
    // divisors shape rules use.
    printSize((lhs + rhs - 1).floorDiv(rhs), names, precedence, os);
    return;
  case AffineExprKind::Mul:
  case AffineExprKind::FloorDiv:
  case AffineExprKind::Mod: {
    if (precedence > 1)
      os << '(';
    printSize(lhs, names, 1, os);
    os << (binary.getKind() == AffineExprKind::Mul        ? '*'
           : binary.getKind() == AffineExprKind::FloorDiv ? '/'
                                                          : '%');
    printSize(rhs, names, 2, os);
    if (precedence > 1)
      os << ')';
    return;
  }
  default:
    break;
  }
  llvm_unreachable("shape rules build sizes from symbols and constants");
}

/// Appends `arg f32 2 s0 8` (or `res ...`) for one tensor of `sizes`; fails
/// with a diagnostic on `func` if the type cannot cross the C ABI.
static LogicalResult describeTensor(func::FuncOp func, StringRef role,
                                    unsigned index, Type type,
                                    ArrayRef<AffineExpr> sizes,
                                    ArrayRef<std::string> names,
                                    llvm::raw_ostream &os) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  StringRef dtype = tensor ? getDtypeName(tensor.getElementType()) : "";
  if (!tensor || dtype.empty())
    return func.emitError()
           << "cannot export function '" << func.getSymName()
           << "': " << (role == "arg" ? "argument " : "result ") << index
           << " has type " << type
           << "; exported functions take and return "
              "ranked tensors of f32, f16, bf16, f64, i1, "
              "i8, i16, i32, i64, complex<f32> or complex<f64>";
  auto limitError = [&](StringRef what) {
    return func.emitError() << "cannot export function '" << func.getSymName()
                            << "': " << (role == "arg" ? "argument " : "result ")
                            << index << " of type " << type << " " << what;
  };
  if (tensor.getRank() > kMaxRank)
    return limitError("has more than 32 dimensions");
  // Sizes known at compile time must fit; the runtime checks the others.
  // A complex element is two of its parts.
  Type element = tensor.getElementType();
  auto complex = dyn_cast<ComplexType>(element);
  int64_t bits = complex ? 2 * complex.getElementType().getIntOrFloatBitWidth()
                         : element.getIntOrFloatBitWidth();
  std::optional<int64_t> bytes = std::max<int64_t>(1, bits / 8);
  for (AffineExpr size : sizes)
    if (auto constant = dyn_cast<AffineConstantExpr>(size))
      bytes =
          bytes ? llvm::checkedMul(*bytes, constant.getValue()) : std::nullopt;
  if (!bytes)
    return limitError("does not fit in 2^63 bytes");
  os << role << ' ' << dtype << ' ' << tensor.getRank();
  for (AffineExpr size : sizes) {
    os << ' ';
    printSize(size, names, 0, os);
  }
  os << '\n';
  return success();
}

/// Writes the manifest lines of `func`: its signature with each size a
/// constant, a symbol (a `?` of an argument, named `s0`, `s1`, ... in
/// argument order) or an expression of symbols, then the requirements
/// between sizes that the caller must meet (`where`).
static LogicalResult describeFunction(func::FuncOp func, shard::GridOp grid,
                                      llvm::raw_ostream &os) {
  rlx::FunctionShapeAnalysis analysis(func.getContext());
  Block &body = func.getBody().front();
  if (failed(analysis.run(body)))
    return failure();
  SmallVector<std::string> names = analysis.getSymbolNames(body);
  SmallVector<rlx::SymbolicShape> argShapes;
  for (BlockArgument argument : body.getArguments())
    argShapes.push_back(isa<RankedTensorType>(argument.getType())
                            ? analysis.getShape(argument)
                            : rlx::SymbolicShape());
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  SmallVector<rlx::SymbolicShape> resultShapes;
  for (Value result : ret.getOperands())
    resultShapes.push_back(isa<RankedTensorType>(result.getType())
                               ? analysis.getShape(result)
                               : rlx::SymbolicShape());
  SmallVector<rlx::FunctionShapeAnalysis::Requirement> requirements =
      analysis.getRequirements();
  // A symbol no argument size binds would be a size the caller cannot
  // give; the analysis only makes symbols for argument sizes.
  auto isBound = [&](AffineExpr size) {
    bool bound = true;
    size.walk([&](AffineExpr sub) {
      if (auto symbol = dyn_cast<AffineSymbolExpr>(sub))
        bound &= symbol.getPosition() < names.size() &&
                 !names[symbol.getPosition()].empty();
    });
    return bound;
  };
  for (auto [index, shape] : llvm::enumerate(resultShapes))
    if (!llvm::all_of(shape, isBound))
      return func.emitError() << "cannot export function '" << func.getSymName()
                              << "': the sizes of result " << index
                              << " are not known from its arguments";
  // A mesh function's block types are one process's blocks (the function
  // is partitioned); the manifest states the whole tensors and their splits.
  SmallVector<std::string> splitLines;
  auto addSplits = [&](StringRef role, unsigned index, Attribute attr,
                       rlx::SymbolicShape &shape) {
    auto dims = dyn_cast_if_present<ArrayAttr>(attr);
    if (!dims || !grid)
      return;
    for (auto [dim, axesAttr] : llvm::enumerate(dims)) {
      auto axes = cast<ArrayAttr>(axesAttr);
      if (axes.empty())
        continue;
      std::string line;
      llvm::raw_string_ostream lineOs(line);
      lineOs << "split " << role << ' ' << index << ' ' << dim;
      int64_t count = 1;
      for (Attribute axis : axes) {
        int64_t value = cast<IntegerAttr>(axis).getInt();
        lineOs << ' ' << value;
        count *= grid.getShape()[value];
      }
      shape[dim] = shape[dim] * count;
      splitLines.push_back(line);
    }
  };
  for (auto [i, shape] : llvm::enumerate(argShapes))
    addSplits("arg", i, func.getArgAttr(i, rlx::RlxDialect::kSplitAxesAttrName),
              shape);
  for (auto [i, shape] : llvm::enumerate(resultShapes))
    addSplits("res", i,
              func.getResultAttr(i, rlx::RlxDialect::kSplitAxesAttrName),
              shape);
  FunctionType type = func.getFunctionType();
  os << "func " << func.getSymName() << ' ' << type.getNumInputs() << ' '
     << type.getNumResults() << '\n';
  for (auto [i, input] : llvm::enumerate(type.getInputs()))
    if (failed(describeTensor(func, "arg", i, input, argShapes[i], names, os)))
      return failure();
  for (auto [i, result] : llvm::enumerate(type.getResults()))
    if (failed(
            describeTensor(func, "res", i, result, resultShapes[i], names, os)))
      return failure();
  for (const auto &requirement : requirements) {
    if (!isBound(requirement.lhs) || !isBound(requirement.rhs))
      return requirement.op->emitOpError(
          "requires a relation between sizes that are not known from the "
          "function's arguments");
    os << "where ";
    printSize(requirement.lhs, names, 0, os);
    os << (requirement.relation == rlx::SizeRelation::Equal ? " == " : " <= ");
    printSize(requirement.rhs, names, 0, os);
    os << ' ' << requirement.op->getName();
    if (auto file = dyn_cast<FileLineColLoc>(requirement.op->getLoc()))
      os << " at " << file.getFilename().getValue() << ':' << file.getLine()
         << ':' << file.getColumn();
    os << '\n';
  }
  for (const std::string &line : splitLines)
    os << line << '\n';
  return success();
}

/// Each result of an exported function is written to its own caller buffer,
/// so a value returned twice is copied for its later uses.
static void copyRepeatedResults(func::FuncOp func) {
  func.walk([](func::ReturnOp ret) {
    OpBuilder b(ret);
    for (OpOperand &operand : ret->getOpOperands()) {
      Value value = operand.get();
      bool repeated = llvm::any_of(
          ret->getOperands().take_front(operand.getOperandNumber()),
          [&](Value earlier) { return earlier == value; });
      if (!repeated)
        continue;
      // alloc_tensor, unlike tensor.empty, is never CSE'd into the buffer of
      // the value it copies.
      auto type = cast<RankedTensorType>(value.getType());
      SmallVector<Value> dynamicSizes;
      for (int64_t d = 0; d < type.getRank(); ++d)
        if (type.isDynamicDim(d))
          dynamicSizes.push_back(
              tensor::DimOp::create(b, ret.getLoc(), value, d));
      operand.set(bufferization::AllocTensorOp::create(
          b, ret.getLoc(), type, dynamicSizes, /*copy=*/value));
    }
  });
}

namespace {
struct RlxExportAbiPass : rlx::impl::RlxExportAbiBase<RlxExportAbiPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (module.lookupSymbol(kManifestSymbol)) {
      module.emitError() << "module already defines '" << kManifestSymbol
                         << "'";
      return signalPassFailure();
    }
    std::string manifest = "rlx-module 2\n";
    llvm::raw_string_ostream os(manifest);
    if (target == rlx::AbiTarget::Cuda)
      os << "target cuda\n";
    // A mesh module runs once per process (docs/distributed.md).
    auto grids = llvm::to_vector(module.getOps<shard::GridOp>());
    shard::GridOp grid = grids.empty() ? nullptr : grids.front();
    if (grid) {
      if (target == rlx::AbiTarget::Cuda) {
        grid.emitError() << "a mesh module runs on CPUs for now: the cuda "
                            "target has no collectives";
        return signalPassFailure();
      }
      os << "mesh " << grid.getRank();
      for (int64_t size : grid.getShape())
        os << ' ' << size;
      os << '\n';
    }
    // The C functions the module calls, which the runtime checks are
    // linked into it; on the host only.
    llvm::SetVector<StringRef> customFunctions;
    WalkResult walk = module.walk([&](rlx::CustomCallOp op) {
      if (target == rlx::AbiTarget::Cuda) {
        op.emitOpError("calls the host C function '")
            << op.getCallee() << "': the cuda target cannot run it";
        return WalkResult::interrupt();
      }
      customFunctions.insert(op.getCallee());
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    for (StringRef name : customFunctions)
      os << "custom " << name << '\n';
    Builder builder(&getContext());
    for (auto func : module.getOps<func::FuncOp>()) {
      if (!func.isPublic() || func.isDeclaration())
        continue;
      StringRef name = func.getSymName();
      auto isIdentifierChar = [](char c) { return llvm::isAlnum(c) || c == '_'; };
      if (llvm::isDigit(name.front()) || !llvm::all_of(name, isIdentifierChar)) {
        func.emitError() << "cannot export function '" << name
                         << "': its name is not a C identifier";
        return signalPassFailure();
      }
      FunctionType type = func.getFunctionType();
      if (failed(describeFunction(func, grid, os)))
        return signalPassFailure();
      copyRepeatedResults(func);
      func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                    builder.getUnitAttr());
      for (unsigned i = 0, e = type.getNumInputs(); i < e; ++i) {
        func.setArgAttr(i, bufferization::BufferizationDialect::kWritableAttrName,
                        builder.getBoolAttr(false));
        // The manifest states the bounds (`where` lines) and the runtime
        // checks them; the compiled code needs nothing more.
        func.removeArgAttr(i, rlx::RlxDialect::kBoundsAttrName);
        func.removeArgAttr(i, rlx::RlxDialect::kSplitAxesAttrName);
      }
      for (unsigned i = 0, e = type.getNumResults(); i < e; ++i)
        func.removeResultAttr(
            i, StringAttr::get(&getContext(),
                               rlx::RlxDialect::kSplitAxesAttrName));
    }
    manifest.push_back('\0');
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    auto arrayType = LLVM::LLVMArrayType::get(
        IntegerType::get(&getContext(), 8), manifest.size());
    LLVM::GlobalOp::create(b, module.getLoc(), arrayType, /*isConstant=*/true,
                           LLVM::Linkage::External, kManifestSymbol,
                           b.getStringAttr(manifest));
  }
};
} // namespace
