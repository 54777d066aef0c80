//===- RenameOpenMpiOps.cpp - OpenMPI's names for MPI's reduction ops -----===//
//
// Works around upstream MPIToLLVM, whose OpenMPI traits name the predefined
// reduction ops `ompi_mpi_<op>`: OpenMPI's ABI is `ompi_mpi_op_<op>`
// (mpi.h: `#define MPI_SUM OMPI_PREDEFINED_GLOBAL(MPI_Op, ompi_mpi_op_sum)`).
//
//===----------------------------------------------------------------------===//
#include "rlx/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXRENAMEOPENMPIOPS
#include "rlx/Transforms/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;

namespace {
struct RlxRenameOpenMpiOpsPass
    : rlx::impl::RlxRenameOpenMpiOpsBase<RlxRenameOpenMpiOpsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    static constexpr StringLiteral kOps[] = {
        "max", "min",  "sum",  "prod",   "land",   "band",    "lor",
        "bor", "lxor", "bxor", "maxloc", "minloc", "replace", "no_op"};
    SymbolTable symbols(module);
    for (StringRef op : kOps) {
      std::string lowered = ("ompi_mpi_" + op).str();
      auto global = symbols.lookup<LLVM::GlobalOp>(lowered);
      if (!global || global.getLinkage() != LLVM::Linkage::External ||
          !global.getInitializerRegion().empty() || global.getValue())
        continue;
      std::string name = ("ompi_mpi_op_" + op).str();
      if (auto existing = symbols.lookup<LLVM::GlobalOp>(name)) {
        if (failed(SymbolTable::replaceAllSymbolUses(
                global, existing.getSymNameAttr(), module)))
          return signalPassFailure();
        global.erase();
        continue;
      }
      if (failed(symbols.rename(global, name)))
        return signalPassFailure();
    }
  }
};
} // namespace
