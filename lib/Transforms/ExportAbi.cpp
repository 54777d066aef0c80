//===- ExportAbi.cpp - Describe public functions for the runtime ----------===//
#include "rlx/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
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
  return "";
}

/// Appends `arg f32 2 4 8` (or `res ...`) for one tensor; fails with a
/// diagnostic on `func` if the type cannot cross the C ABI.
static LogicalResult describeTensor(func::FuncOp func, StringRef role,
                                    unsigned index, Type type,
                                    llvm::raw_ostream &os) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  StringRef dtype = tensor ? getDtypeName(tensor.getElementType()) : "";
  if (!tensor || !tensor.hasStaticShape() || dtype.empty())
    return func.emitError() << "cannot export function '" << func.getSymName()
                            << "': " << (role == "arg" ? "argument " : "result ")
                            << index << " has type " << type
                            << "; exported functions take and return "
                               "statically shaped tensors of f32, f16, bf16, "
                               "f64, i1, i8, i16, i32 or i64";
  auto limitError = [&](StringRef what) {
    return func.emitError() << "cannot export function '" << func.getSymName()
                            << "': " << (role == "arg" ? "argument " : "result ")
                            << index << " of type " << type << " " << what;
  };
  if (tensor.getRank() > kMaxRank)
    return limitError("has more than 32 dimensions");
  std::optional<int64_t> bytes =
      std::max<int64_t>(1, tensor.getElementTypeBitWidth() / 8);
  for (int64_t size : tensor.getShape())
    bytes = bytes ? llvm::checkedMul(*bytes, size) : std::nullopt;
  if (!bytes)
    return limitError("does not fit in 2^63 bytes");
  os << role << ' ' << dtype << ' ' << tensor.getRank();
  for (int64_t size : tensor.getShape())
    os << ' ' << size;
  os << '\n';
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
      operand.set(bufferization::AllocTensorOp::create(
          b, ret.getLoc(), cast<RankedTensorType>(value.getType()),
          /*dynamicSizes=*/ValueRange{}, /*copy=*/value));
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
    std::string manifest = "rlx-module 1\n";
    llvm::raw_string_ostream os(manifest);
    if (target == rlx::AbiTarget::Cuda)
      os << "target cuda\n";
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
      os << "func " << name << ' ' << type.getNumInputs() << ' '
         << type.getNumResults() << '\n';
      for (auto [i, input] : llvm::enumerate(type.getInputs()))
        if (failed(describeTensor(func, "arg", i, input, os)))
          return signalPassFailure();
      for (auto [i, result] : llvm::enumerate(type.getResults()))
        if (failed(describeTensor(func, "res", i, result, os)))
          return signalPassFailure();
      copyRepeatedResults(func);
      func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                    builder.getUnitAttr());
      for (unsigned i = 0, e = type.getNumInputs(); i < e; ++i)
        func.setArgAttr(i, bufferization::BufferizationDialect::kWritableAttrName,
                        builder.getBoolAttr(false));
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
