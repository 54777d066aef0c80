//===- ShardAnnotate.cpp - A module's mesh and its functions' shardings ---===//
//
// A program states how its functions are split in `rlx.split_axes`
// attributes (or rlx-compile --data-parallel writes them); upstream's
// `sharding-propagation` and `shard-partition` start from `shard.shard` ops.
// This pass turns the one into the other, checking what partitioning
// assumes and would otherwise get wrong silently (a split that leaves
// unequal blocks).
//
//===----------------------------------------------------------------------===//
#include "rlx/Transforms/Passes.h"

#include "rlx/Dialect/Rlx/IR/RlxDialect.h"

#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXSHARDANNOTATE
#include "rlx/Transforms/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;
using shard::GridAxis;

static constexpr StringLiteral kSplitAxesAttr =
    rlx::RlxDialect::kSplitAxesAttrName;
static constexpr StringLiteral kDefaultGridName = "mesh";
/// Where the MPI lowering reads which MPI ABI to call.
static constexpr StringLiteral kMpiAttr = "dlti.map";

namespace {
struct RlxShardAnnotatePass
    : rlx::impl::RlxShardAnnotateBase<RlxShardAnnotatePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<shard::GridOp> grid = getOrCreateGrid(module);
    if (failed(grid))
      return signalPassFailure();
    if (!*grid)
      return;
    if (failed(applyDataParallel(module, *grid)))
      return signalPassFailure();
    // MPIToLLVM spells MPI's handles in MPICH's ABI unless told otherwise;
    // OpenMPI is what the setup installs and rlx-compile links.
    if (!module->hasAttr(kMpiAttr)) {
      MLIRContext *context = &getContext();
      module->setAttr(
          kMpiAttr,
          MapAttr::get(context,
                       {DataLayoutEntryAttr::get(
                           StringAttr::get(context, "MPI:Implementation"),
                           StringAttr::get(context, "OpenMPI"))}));
    }
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isDeclaration() && failed(annotate(func, *grid)))
        return signalPassFailure();
  }

  /// The module's grid, sized by `mesh`; null where there is neither.
  FailureOr<shard::GridOp> getOrCreateGrid(ModuleOp module) {
    auto grids = llvm::to_vector(module.getOps<shard::GridOp>());
    if (grids.size() > 1) {
      grids[1].emitError() << "a module runs on one mesh; this one has "
                           << grids.size() << " shard.grid ops";
      return failure();
    }
    shard::GridOp grid = grids.empty() ? nullptr : grids.front();
    if (mesh.empty()) {
      if (grid && llvm::any_of(grid.getShape(), ShapedType::isDynamic)) {
        grid.emitError() << "a mesh's sizes must be static: the processes "
                            "are known when the module is compiled";
        return failure();
      }
      return grid;
    }
    for (int64_t size : mesh)
      if (size < 1) {
        module.emitError() << "mesh sizes must be >= 1, got " << size;
        return failure();
      }
    OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
    if (!grid)
      return shard::GridOp::create(b, module.getLoc(), kDefaultGridName,
                                   ArrayRef<int64_t>(mesh));
    grid.setShape(ArrayRef<int64_t>(mesh));
    return grid;
  }

  /// `data-parallel=f:4:5`: dimension 0 of those arguments over every axis.
  LogicalResult applyDataParallel(ModuleOp module, shard::GridOp grid) {
    SmallVector<int64_t> allAxes =
        llvm::to_vector(llvm::seq<int64_t>(0, grid.getRank()));
    for (StringRef spec : dataParallel) {
      SmallVector<StringRef> parts;
      spec.split(parts, ':');
      auto func = module.lookupSymbol<func::FuncOp>(parts.front());
      if (!func || func.isDeclaration())
        return module.emitError()
               << "data-parallel: no function '" << parts.front()
               << "' is defined in the module";
      if (parts.size() < 2)
        return module.emitError() << "data-parallel: '" << spec
                                  << "' names no argument (FUNC:ARG[:ARG...])";
      for (StringRef part : llvm::drop_begin(parts)) {
        unsigned index;
        if (part.getAsInteger(10, index) || index >= func.getNumArguments())
          return func.emitError()
                 << "data-parallel: '" << part << "' is not an argument of '"
                 << func.getSymName() << "' (it has " << func.getNumArguments()
                 << ")";
        Builder b(&getContext());
        func.setArgAttr(index, kSplitAxesAttr,
                        b.getArrayAttr({b.getI64ArrayAttr(allAxes)}));
      }
    }
    return success();
  }

  /// The split of a value of `type` that `attr` states, checked against the
  /// grid: per dimension, the grid axes it is split over. The attribute's
  /// structure (arrays of distinct axes, at most rank of them) is the
  /// dialect's verifier's; what needs the mesh is checked here.
  FailureOr<SmallVector<SmallVector<GridAxis>>>
  parseSplitAxes(Attribute attr, Type type, shard::GridOp grid,
                 func::FuncOp func, const Twine &what) {
    SmallVector<SmallVector<GridAxis>> splitAxes;
    if (!attr)
      return splitAxes;
    auto fail = [&](const Twine &message) {
      return func.emitError()
             << what << ": " << kSplitAxesAttr << " " << message;
    };
    auto tensorType = dyn_cast<RankedTensorType>(type);
    auto dims = cast<ArrayAttr>(attr);
    // --data-parallel writes the attribute before the verifier sees it.
    if (!tensorType || int64_t(dims.size()) > tensorType.getRank())
      return fail("has " + Twine(dims.size()) +
                  " entries, more than the rank of " +
                  Twine(tensorType ? tensorType.getRank() : 0));
    for (auto [dim, axes] : llvm::enumerate(dims.getAsRange<ArrayAttr>())) {
      SmallVector<GridAxis> &dimAxes = splitAxes.emplace_back();
      for (auto axis : axes.getAsValueRange<IntegerAttr>()) {
        if (axis.getSExtValue() >= grid.getRank())
          return fail("names a mesh axis that is not in [0, " +
                      Twine(grid.getRank()) + ")");
        dimAxes.push_back(axis.getSExtValue());
      }
      int64_t count = shard::collectiveProcessGroupSize(dimAxes, grid);
      int64_t size = tensorType.getDimSize(dim);
      if (!dimAxes.empty() && (ShapedType::isDynamic(size) || size % count))
        return fail("splits dimension " + Twine(dim) + " of size " +
                    (ShapedType::isDynamic(size) ? Twine("?") : Twine(size)) +
                    " into " + Twine(count) +
                    " blocks: a split dimension must be static and "
                    "divisible by its processes");
    }
    return splitAxes;
  }

  Value createSharding(OpBuilder &b, Location loc, shard::GridOp grid,
                       ArrayRef<SmallVector<GridAxis>> splitAxes) {
    SmallVector<shard::GridAxesAttr> axes;
    for (const auto &dimAxes : splitAxes)
      axes.push_back(shard::GridAxesAttr::get(b.getContext(), dimAxes));
    // Upstream spells a replicated tensor with one empty sub-array.
    if (axes.empty())
      axes.push_back(shard::GridAxesAttr::get(b.getContext(), {}));
    return shard::ShardingOp::create(b, loc, grid.getSymName(), axes);
  }

  LogicalResult annotate(func::FuncOp func, shard::GridOp grid) {
    SmallVector<SmallVector<SmallVector<GridAxis>>> argAxes, resultAxes;
    bool anySplit = false;
    for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
      auto axes = parseSplitAxes(func.getArgAttr(i, kSplitAxesAttr), type, grid,
                                 func, "argument " + Twine(i));
      if (failed(axes))
        return failure();
      anySplit |= !axes->empty();
      argAxes.push_back(*axes);
    }
    for (auto [i, type] : llvm::enumerate(func.getResultTypes())) {
      auto axes = parseSplitAxes(func.getResultAttr(i, kSplitAxesAttr), type,
                                 grid, func, "result " + Twine(i));
      if (failed(axes))
        return failure();
      anySplit |= !axes->empty();
      resultAxes.push_back(*axes);
    }
    if (!anySplit)
      return success();
    if (!func.getBody().hasOneBlock())
      return func.emitError()
             << "a sharded function has one block; this one has "
             << func.getBlocks().size();
    WalkResult calls = func.walk([&](CallOpInterface call) {
      call->emitError() << "a sharded function calls no other function: "
                           "inline it first (--inline)";
      return WalkResult::interrupt();
    });
    if (calls.wasInterrupted())
      return failure();

    Block &body = func.getBody().front();
    OpBuilder b = OpBuilder::atBlockBegin(&body);
    for (BlockArgument arg : body.getArguments()) {
      auto type = dyn_cast<RankedTensorType>(arg.getType());
      if (!type || type.getRank() == 0)
        continue;
      Value sharding =
          createSharding(b, arg.getLoc(), grid, argAxes[arg.getArgNumber()]);
      auto shardOp = shard::ShardOp::create(b, arg.getLoc(), arg, sharding,
                                            /*annotate_for_users=*/true);
      arg.replaceAllUsesExcept(shardOp, shardOp);
    }
    Operation *terminator = body.getTerminator();
    b.setInsertionPoint(terminator);
    for (OpOperand &operand : terminator->getOpOperands()) {
      auto type = dyn_cast<RankedTensorType>(operand.get().getType());
      if (!type || type.getRank() == 0)
        continue;
      Value sharding = createSharding(b, terminator->getLoc(), grid,
                                      resultAxes[operand.getOperandNumber()]);
      operand.set(shard::ShardOp::create(b, terminator->getLoc(), operand.get(),
                                         sharding,
                                         /*annotate_for_users=*/true));
    }
    return success();
  }
};
} // namespace
