//===- EmitMeshEntryPoints.cpp - The rlx_mesh_* functions of a module -----===//
//
// A mesh module calls MPI itself (the `mpi` dialect, lowered by upstream
// MPIToLLVM), so that the runtime never links MPI: it starts, queries and
// stops MPI through these functions, found by name like rlx_invoke_<f>.
//
//===----------------------------------------------------------------------===//
#include "rlx/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/Matchers.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXEMITMESHENTRYPOINTS
#include "rlx/Transforms/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;

/// convert-shard-to-mpi splits a communicator for every all-reduce. Where
/// every process takes the same color, the split keeps every process, and
/// an all-reduce with MPI's predefined (commutative) ops gives every process
/// the same result on it as on the parent: the parent is used, which saves
/// a collective call per all-reduce. It also keeps the module clear of
/// upstream's OpenMPI lowering of the split, which loads the new
/// communicator (a pointer) as an i32. A split by a color that differs
/// between processes (an all-reduce over some axes of a mesh) is refused.
static LogicalResult useParentCommunicators(ModuleOp module) {
  WalkResult result =
      module.walk([](mpi::CommSplitOp split) {
        if (!matchPattern(split.getColor(), m_Constant())) {
          split.emitError()
              << "a collective over some of the mesh's axes needs a split "
                 "communicator, which the MPI lowering cannot make for OpenMPI "
                 "yet: use collectives over the whole mesh";
          return WalkResult::interrupt();
        }
        split.getNewcomm().replaceAllUsesWith(split.getComm());
        split.erase();
        return WalkResult::advance();
      });
  return failure(result.wasInterrupted());
}

namespace {
struct RlxEmitMeshEntryPointsPass
    : rlx::impl::RlxEmitMeshEntryPointsBase<RlxEmitMeshEntryPointsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto grids = llvm::to_vector(module.getOps<shard::GridOp>());
    if (grids.empty())
      return;
    for (shard::GridOp grid : grids)
      grid.erase();
    if (failed(useParentCommunicators(module)))
      return signalPassFailure();
    for (StringRef name : {"rlx_mesh_start", "rlx_mesh_rank", "rlx_mesh_size",
                           "rlx_mesh_any", "rlx_mesh_stop"})
      if (Operation *taken = module.lookupSymbol(name)) {
        taken->emitError() << "'" << name
                           << "' is the name of a mesh module's entry point";
        return signalPassFailure();
      }

    Location loc = module.getLoc();
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    Type i32 = b.getI32Type();
    Type comm = mpi::CommType::get(&getContext());
    auto define = [&](StringRef name, TypeRange inputs) {
      auto func =
          func::FuncOp::create(b, loc, name, b.getFunctionType(inputs, {i32}));
      b.setInsertionPointToStart(func.addEntryBlock());
      return func;
    };
    auto finish = [&](Value result) {
      func::ReturnOp::create(b, loc, result);
      b.setInsertionPointToEnd(module.getBody());
    };
    auto constant = [&](int32_t value) -> Value {
      return arith::ConstantIntOp::create(b, loc, i32, value);
    };
    // The sum or maximum of `value` over every process.
    auto allReduce = [&](Value value, mpi::MPI_ReductionOpEnum kind) {
      auto bufferType = MemRefType::get({1}, i32);
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      Value send = memref::AllocaOp::create(b, loc, bufferType);
      Value receive = memref::AllocaOp::create(b, loc, bufferType);
      memref::StoreOp::create(b, loc, value, send, zero);
      Value world = mpi::CommWorldOp::create(b, loc, comm);
      mpi::AllReduceOp::create(
          b, loc, Type(), send, receive,
          mpi::MPI_ReductionOpEnumAttr::get(&getContext(), kind), world);
      return memref::LoadOp::create(b, loc, receive, zero).getResult();
    };

    // MPI's default error handler (MPI_ERRORS_ARE_FATAL) ends the job on an
    // error, so the functions that only start and stop MPI return 0.
    define("rlx_mesh_start", {});
    mpi::InitOp::create(b, loc, Type());
    finish(constant(0));

    define("rlx_mesh_rank", {});
    Value world = mpi::CommWorldOp::create(b, loc, comm);
    finish(mpi::CommRankOp::create(b, loc, Type(), i32, world).getRank());

    // Upstream lowers no mpi.comm_size: the size is a sum of ones, which
    // makes this a collective call (the runtime makes it on every process,
    // once, as it loads the module).
    define("rlx_mesh_size", {});
    finish(allReduce(constant(1), mpi::MPI_ReductionOpEnum::MPI_SUM));

    func::FuncOp any = define("rlx_mesh_any", {i32});
    finish(allReduce(any.getArgument(0), mpi::MPI_ReductionOpEnum::MPI_MAX));

    define("rlx_mesh_stop", {});
    mpi::FinalizeOp::create(b, loc, Type());
    finish(constant(0));
  }
};
} // namespace
