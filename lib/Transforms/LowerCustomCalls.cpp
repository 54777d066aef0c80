//===- LowerCustomCalls.cpp - rlx.custom_call as a call on buffers --------===//
//
// The one rlx op that is not a computation on tensors: the user's C
// function reads and writes buffers. It becomes a `func.call` of a
// declaration with MLIR's C interface, between the tensors of the graph
// and buffers (`bufferization.to_buffer` / `to_tensor restrict`), which
// one-shot bufferization then joins with the rest of the function's
// buffers.
//
//===----------------------------------------------------------------------===//
#include "rlx/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXLOWERCUSTOMCALLS
#include "rlx/Transforms/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;
using namespace mlir::rlx;

/// The buffer type the callee reads `input` as: any offset and strides.
static MemRefType getInputBufferType(RankedTensorType input) {
  SmallVector<int64_t> strides(input.getRank(), ShapedType::kDynamic);
  auto layout =
      StridedLayoutAttr::get(input.getContext(), ShapedType::kDynamic, strides);
  return MemRefType::get(input.getShape(), input.getElementType(), layout);
}

/// The buffer type the callee writes `result` into: dense, row-major.
static MemRefType getResultBufferType(RankedTensorType result) {
  return MemRefType::get(result.getShape(), result.getElementType());
}

namespace {
struct RlxLowerCustomCallsPass
    : rlx::impl::RlxLowerCustomCallsBase<RlxLowerCustomCallsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<CustomCallOp> calls;
    module.walk([&](CustomCallOp op) { calls.push_back(op); });
    // The module's own symbols, looked up before any declaration is added.
    SymbolTable symbols(module);
    llvm::StringMap<func::FuncOp> declarations;
    OpBuilder moduleBuilder = OpBuilder::atBlockBegin(module.getBody());
    for (CustomCallOp op : calls) {
      SmallVector<Type> argumentTypes;
      for (Type type : op.getInputs().getTypes())
        argumentTypes.push_back(
            getInputBufferType(cast<RankedTensorType>(type)));
      for (Type type : op.getResultTypes())
        argumentTypes.push_back(
            getResultBufferType(cast<RankedTensorType>(type)));
      auto functionType = FunctionType::get(&getContext(), argumentTypes, {});
      StringRef callee = op.getCallee();
      func::FuncOp &declaration = declarations[callee];
      if (!declaration) {
        if (Operation *defined = symbols.lookup(callee)) {
          InFlightDiagnostic diag =
              op.emitOpError("calls the C function '")
              << callee << "', but the module defines a symbol of that name";
          diag.attachNote(defined->getLoc()) << "defined here";
          return signalPassFailure();
        }
        declaration = func::FuncOp::create(moduleBuilder, op.getLoc(), callee,
                                           functionType);
        declaration.setPrivate();
        declaration->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                             UnitAttr::get(&getContext()));
      } else if (declaration.getFunctionType() != functionType) {
        InFlightDiagnostic diag = op.emitOpError("calls '")
                                  << callee << "' with the signature "
                                  << functionType << ", another call with "
                                  << declaration.getFunctionType();
        diag.attachNote(declaration.getLoc()) << "the other call";
        return signalPassFailure();
      }

      OpBuilder b(op);
      Location loc = op.getLoc();
      SmallVector<Value> arguments;
      for (auto [input, type] : llvm::zip(op.getInputs(), argumentTypes))
        arguments.push_back(bufferization::ToBufferOp::create(
            b, loc, type, input, /*read_only=*/true));
      SmallVector<Value> results;
      for (Type type : op.getResultTypes()) {
        Value buffer = memref::AllocOp::create(
            b, loc, getResultBufferType(cast<RankedTensorType>(type)));
        arguments.push_back(buffer);
        results.push_back(buffer);
      }
      func::CallOp::create(b, loc, declaration, arguments);
      // The only tensor of each new buffer, writable by later ops.
      for (auto [buffer, type] : llvm::zip(results, op.getResultTypes()))
        buffer = bufferization::ToTensorOp::create(b, loc, type, buffer,
                                                   /*restrict=*/true,
                                                   /*writable=*/true);
      op->replaceAllUsesWith(results);
      op.erase();
    }
  }
};
} // namespace
