//===- EmitInvokeWrappers.cpp - Uniform runtime entry points --------------===//
#include "rlx/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXEMITINVOKEWRAPPERS
#include "rlx/Transforms/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;

static constexpr StringLiteral kCInterfacePrefix = "_mlir_ciface_";
static constexpr StringLiteral kInvokePrefix = "rlx_invoke_";

namespace {
struct RlxEmitInvokeWrappersPass
    : rlx::impl::RlxEmitInvokeWrappersBase<RlxEmitInvokeWrappersPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    auto ptrType = LLVM::LLVMPointerType::get(context);
    auto voidType = LLVM::LLVMVoidType::get(context);
    SmallVector<LLVM::LLVMFuncOp> interfaces, customFunctions;
    for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
      if (!func.getSymName().starts_with(kCInterfacePrefix))
        continue;
      // A C interface the module declares is an rlx.custom_call's callee.
      (func.isExternal() ? customFunctions : interfaces).push_back(func);
    }

    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    // Each custom function's address, null where the module is linked
    // without it (a weak reference): the runtime reads `rlx_custom_<f>` to
    // refuse such a module with a status instead of a failed dlopen.
    for (LLVM::LLVMFuncOp callee : customFunctions) {
      callee.setLinkage(LLVM::Linkage::ExternWeak);
      std::string name =
          (rlx::kCustomCallSymbolPrefix +
           callee.getSymName().drop_front(kCInterfacePrefix.size()))
              .str();
      if (module.lookupSymbol(name)) {
        callee.emitError() << "cannot emit '" << name
                           << "': the module already defines that symbol";
        return signalPassFailure();
      }
      auto address = LLVM::GlobalOp::create(
          b, callee.getLoc(), ptrType, /*isConstant=*/true,
          LLVM::Linkage::External, name, Attribute());
      OpBuilder init = OpBuilder::atBlockBegin(
          b.createBlock(&address.getInitializerRegion()));
      b.setInsertionPointToEnd(module.getBody());
      LLVM::ReturnOp::create(
          init, callee.getLoc(),
          LLVM::AddressOfOp::create(init, callee.getLoc(), callee).getResult());
    }
    for (LLVM::LLVMFuncOp callee : interfaces) {
      LLVM::LLVMFunctionType calleeType = callee.getFunctionType();
      if (!isa<LLVM::LLVMVoidType>(calleeType.getReturnType()) ||
          llvm::any_of(calleeType.getParams(),
                       [](Type t) { return !isa<LLVM::LLVMPointerType>(t); })) {
        callee.emitError() << "cannot emit an invoke wrapper for '"
                           << callee.getSymName()
                           << "': expected memref descriptor pointer "
                              "arguments and no results";
        return signalPassFailure();
      }
      std::string name =
          (kInvokePrefix +
           rlx::getProgramFunctionName(
               callee.getSymName().drop_front(kCInterfacePrefix.size())))
              .str();
      Location loc = callee.getLoc();
      if (module.lookupSymbol(name)) {
        callee.emitError() << "cannot emit '" << name
                           << "': the module already defines that symbol";
        return signalPassFailure();
      }
      auto wrapper = LLVM::LLVMFuncOp::create(
          b, loc, name, LLVM::LLVMFunctionType::get(voidType, {ptrType}));
      Block *entry = wrapper.addEntryBlock(b);
      OpBuilder body = OpBuilder::atBlockBegin(entry);
      Value argv = entry->getArgument(0);
      SmallVector<Value> descriptors;
      for (unsigned i = 0, e = calleeType.getNumParams(); i < e; ++i) {
        Value slot = LLVM::GEPOp::create(body, loc, ptrType, ptrType, argv,
                                         ArrayRef<LLVM::GEPArg>{int32_t(i)});
        descriptors.push_back(LLVM::LoadOp::create(body, loc, ptrType, slot));
      }
      LLVM::CallOp::create(body, loc, callee, descriptors);
      LLVM::ReturnOp::create(body, loc, ValueRange{});
    }
  }
};
} // namespace
