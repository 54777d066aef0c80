//===- RlxDialect.cpp - The rlx dialect -----------------------------------===//
#include "rlx/Dialect/Rlx/IR/RlxDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/InliningUtils.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::rlx;

#include "rlx/Dialect/Rlx/IR/RlxOpsDialect.cpp.inc"
#include "rlx/Dialect/Rlx/IR/RlxEnums.cpp.inc"
#include "rlx/Dialect/Rlx/IR/RlxInterfaces.cpp.inc"

/// The optional entries of a lowering config, each `, key = value` at most
/// once, in any order (ODS's optional groups cannot tell two that both
/// start with a comma apart).
static ParseResult parseLoweringConfigOptions(AsmParser &parser,
                                              SmallVector<int64_t> &packed,
                                              int64_t &minParallelIterations) {
  bool seenPacked = false, seenMinParallelIterations = false;
  while (succeeded(parser.parseOptionalComma())) {
    SMLoc loc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return failure();
    if (key == "packed" && !seenPacked) {
      seenPacked = true;
      if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
            return parser.parseInteger(packed.emplace_back());
          }))
        return failure();
    } else if (key == "min_parallel_iterations" && !seenMinParallelIterations) {
      seenMinParallelIterations = true;
      if (parser.parseInteger(minParallelIterations))
        return failure();
    } else {
      return parser.emitError(loc, "expected 'packed' or "
                                   "'min_parallel_iterations', once each");
    }
  }
  return success();
}

static void printLoweringConfigOptions(AsmPrinter &printer,
                                       ArrayRef<int64_t> packed,
                                       int64_t minParallelIterations) {
  if (!packed.empty())
    printer << ", packed = [" << packed << "]";
  if (minParallelIterations != 0)
    printer << ", min_parallel_iterations = " << minParallelIterations;
}

#define GET_ATTRDEF_CLASSES
#include "rlx/Dialect/Rlx/IR/RlxAttrs.cpp.inc"

LogicalResult
LoweringConfigAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                           ArrayRef<int64_t> distribution,
                           ArrayRef<int64_t> cache, ArrayRef<int64_t> vector,
                           ArrayRef<int64_t> packed,
                           int64_t minParallelIterations) {
  if (distribution.size() != cache.size() ||
      distribution.size() != vector.size())
    return emitError() << "lowering_config levels have "
                       << distribution.size() << ", " << cache.size()
                       << " and " << vector.size()
                       << " tile sizes; each level needs one per loop";
  for (ArrayRef<int64_t> level : {distribution, cache, vector})
    if (llvm::any_of(level, [](int64_t size) { return size < 0; }))
      return emitError() << "lowering_config tile sizes must be >= 0";
  if (llvm::any_of(packed, [](int64_t input) { return input != 1; }))
    return emitError() << "lowering_config can pack only input 1 (the right "
                          "operand of a contraction)";
  if (minParallelIterations < 0)
    return emitError() << "lowering_config min_parallel_iterations must be "
                          ">= 0";
  return success();
}

namespace {
/// rlx ops compute values from values (no memory, no control flow out of
/// their regions), so any of them can move into a caller: `--inline` and
/// rlx-autodiff inline calls between functions of rlx ops.
struct RlxInlinerInterface : DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;

  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
};

/// Ops with a shape rule materialize their result sizes through it, so
/// upstream passes that reify shapes (`tensor.dim` folding, bufferization,
/// tiling) see rlx ops as they see linalg ones.
template <typename OpTy>
struct ReifyThroughShapeRule : ReifyRankedShapedTypeOpInterface::ExternalModel<
                                   ReifyThroughShapeRule<OpTy>, OpTy> {
  LogicalResult reifyResultShapes(Operation *op, OpBuilder &builder,
                                  ReifiedRankedShapedTypeDims &reified) const {
    return reifyFromShapeRule(op, builder, reified);
  }
};

template <typename OpTy> void attachReifyModel(MLIRContext *context) {
  if constexpr (std::is_base_of_v<SymbolicShapeOpInterface::Trait<OpTy>, OpTy>)
    OpTy::template attachInterface<ReifyThroughShapeRule<OpTy>>(*context);
}

template <typename... OpTys> void attachReifyModels(MLIRContext *context) {
  (attachReifyModel<OpTys>(context), ...);
}
} // namespace

/// `rlx.bounds` on a function argument: one bound per dimension of a ranked
/// tensor (a memref once bufferized), -1 (none) or a size at least the
/// static one.
/// `rlx.split_axes` on a function argument or result of `type`: an array
/// of at most rank arrays of mesh axes, no axis twice. Whether the axes are
/// the mesh's and the blocks equal is rlx-shard-annotate's to check, where
/// the mesh is known.
static LogicalResult verifySplitAxes(Operation *op, Type type,
                                     Attribute attribute, StringRef what) {
  auto fail =
      [&]() {
        return op->emitError()
               << "'" << RlxDialect::kSplitAxesAttrName << "' of " << what
               << " must be an array of at most rank arrays of distinct mesh "
                  "axes (integers >= 0), e.g. [[0], []]";
      };
  auto dims = dyn_cast<ArrayAttr>(attribute);
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!dims || !tensorType || int64_t(dims.size()) > tensorType.getRank())
    return fail();
  SmallVector<int64_t> seen;
  for (Attribute dim : dims) {
    auto axes = dyn_cast<ArrayAttr>(dim);
    if (!axes)
      return fail();
    for (Attribute axis : axes) {
      auto value = dyn_cast<IntegerAttr>(axis);
      if (!value || value.getInt() < 0 ||
          llvm::is_contained(seen, value.getInt()))
        return fail();
      seen.push_back(value.getInt());
    }
  }
  return success();
}

LogicalResult
RlxDialect::verifyRegionResultAttribute(Operation *op, unsigned regionIndex,
                                        unsigned resultIndex,
                                        NamedAttribute attribute) {
  auto function = dyn_cast<FunctionOpInterface>(op);
  if (attribute.getName() != kSplitAxesAttrName || !function)
    return op->emitError() << "unknown rlx result attribute '"
                           << attribute.getName().getValue() << "'";
  return verifySplitAxes(op, function.getResultTypes()[resultIndex],
                         attribute.getValue(),
                         "result " + std::to_string(resultIndex));
}

LogicalResult RlxDialect::verifyRegionArgAttribute(Operation *op,
                                                   unsigned regionIndex,
                                                   unsigned argIndex,
                                                   NamedAttribute attribute) {
  if (attribute.getName() == kSplitAxesAttrName) {
    auto function = dyn_cast<FunctionOpInterface>(op);
    if (!function)
      return op->emitError() << "'" << kSplitAxesAttrName
                             << "' is an attribute of function arguments";
    return verifySplitAxes(op, function.getArgumentTypes()[argIndex],
                           attribute.getValue(),
                           "argument " + std::to_string(argIndex));
  }
  if (attribute.getName() != kBoundsAttrName)
    return op->emitError() << "unknown rlx argument attribute '"
                           << attribute.getName().getValue() << "'";
  auto bounds = dyn_cast<DenseI64ArrayAttr>(attribute.getValue());
  auto function = dyn_cast<FunctionOpInterface>(op);
  auto type = function
                  ? dyn_cast<ShapedType>(function.getArgumentTypes()[argIndex])
                  : nullptr;
  if (!bounds || !type || !type.hasRank())
    return op->emitError() << "'" << kBoundsAttrName
                           << "' must be an array<i64> on a ranked tensor "
                              "argument of a function";
  if (static_cast<int64_t>(bounds.size()) != type.getRank())
    return op->emitError() << "'" << kBoundsAttrName << "' of argument "
                           << argIndex << " has " << bounds.size()
                           << " entries but the argument has rank "
                           << type.getRank();
  for (auto [d, bound] : llvm::enumerate(bounds.asArrayRef())) {
    if (bound < -1)
      return op->emitError()
             << "'" << kBoundsAttrName
             << "' entries are sizes or -1 (no bound), got " << bound;
    if (bound != -1 && !type.isDynamicDim(d) && bound < type.getDimSize(d))
      return op->emitError()
             << "'" << kBoundsAttrName << "' of argument " << argIndex
             << " bounds dimension " << d << " by " << bound
             << ", below its static size " << type.getDimSize(d);
  }
  return success();
}

/// `rlx.lowering_config` on an op: a LoweringConfigAttr with one tile size
/// per loop of the op, which must have loops (TilingInterface).
LogicalResult RlxDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attribute) {
  // rlx-autodiff checks its own `rlx.differentiate`.
  if (attribute.getName() != LoweringConfigAttr::kAttrName)
    return success();
  auto config = dyn_cast<LoweringConfigAttr>(attribute.getValue());
  if (!config)
    return op->emitError() << "'" << LoweringConfigAttr::kAttrName
                           << "' must be a #rlx.lowering_config";
  // Graph ops pass their config on to the codegen form they lower to:
  // rlx.attention to rlx.online_attention, whose loops are (batch, head,
  // query, key); the cumulative ops to rlx.associative_scan (the input's
  // dimensions, the axis a reduction); gather_backward and the scatters to
  // rlx.scatter (the dimensions of grad_output or updates, those that only
  // index a reduction: gather_backward's index dimensions, scatter_elements'
  // axis, scatter_nd's non-batch index dimensions). This runs before the op's
  // own verifier: what is malformed (an axis out of range, a type that is
  // not a ranked tensor) is the op verifier's to report.
  auto getRank = [](Value value) -> int64_t {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    return type ? type.getRank() : 0;
  };
  auto axisAttr = dyn_cast_or_null<IntegerAttr>(op->getAttr("axis"));
  SmallVector<utils::IteratorType> iterators;
  auto setIterators = [&](int64_t rank, int64_t axis, int64_t sequential) {
    iterators.assign(rank, utils::IteratorType::parallel);
    axis = axis < 0 ? axis + rank : axis;
    for (int64_t loop = axis;
         loop >= 0 && loop < std::min(rank, axis + sequential); ++loop)
      iterators[loop] = utils::IteratorType::reduction;
  };
  if (isa<AttentionOp>(op)) {
    setIterators(4, 3, 1);
  } else if (isa<CumsumOp, CumprodOp, CummaxOp>(op)) {
    if (!axisAttr || op->getNumResults() != 1)
      return success();
    setIterators(getRank(op->getResult(0)), axisAttr.getInt(), 1);
  } else if (isa<GatherBackwardOp>(op)) {
    if (!axisAttr || op->getNumOperands() != 2 || op->getNumResults() != 1)
      return success();
    int64_t tableRank = getRank(op->getResult(0));
    int64_t axis = axisAttr.getInt();
    setIterators(getRank(op->getOperand(0)), axis < 0 ? axis + tableRank : axis,
                 getRank(op->getOperand(1)));
  } else if (isa<ScatterElementsOp, ScatterAddOp>(op)) {
    if (!axisAttr || op->getNumOperands() != 3)
      return success();
    setIterators(getRank(op->getOperand(2)), axisAttr.getInt(), 1);
  } else if (isa<ScatterNdOp>(op)) {
    auto batchAttr = dyn_cast_or_null<IntegerAttr>(op->getAttr("batch_dims"));
    int64_t batch = batchAttr ? batchAttr.getInt() : 0;
    if (op->getNumOperands() != 3)
      return success();
    setIterators(getRank(op->getOperand(2)), batch,
                 getRank(op->getOperand(1)) - 1 - batch);
  } else {
    auto tileable = dyn_cast<TilingInterface>(op);
    if (!tileable)
      return op->emitError() << "'" << LoweringConfigAttr::kAttrName
                             << "' is only meaningful on ops that can be tiled";
    iterators = tileable.getLoopIteratorTypes();
  }
  size_t loops = iterators.size();
  if (config.getDistribution().size() != loops)
    return op->emitError() << "'" << LoweringConfigAttr::kAttrName
                           << "' has " << config.getDistribution().size()
                           << " tile sizes per level, but the op has "
                           << loops << " loops";
  // Thread tiles run at once: tiles of a reduction would write the same
  // results, unless they write partial results that merge afterwards
  // (PartialReductionOpInterface: attention's keys, split-K; linalg
  // reductions).
  bool splits = isa<AttentionOp, PartialReductionOpInterface>(op);
  for (auto [loop, size] : llvm::enumerate(config.getDistribution()))
    if (size != 0 && !splits &&
        iterators[loop] == utils::IteratorType::reduction)
      return op->emitError()
             << "'" << LoweringConfigAttr::kAttrName << "' splits reduction loop "
             << loop
             << " into thread tiles (distribution), which would write the "
                "same results at once";
  return success();
}

void RlxDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "rlx/Dialect/Rlx/IR/RlxOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "rlx/Dialect/Rlx/IR/RlxAttrs.cpp.inc"
      >();
  addInterfaces<RlxInlinerInterface>();
  attachReifyModels<
#define GET_OP_LIST
#include "rlx/Dialect/Rlx/IR/RlxOps.cpp.inc"
      >(getContext());
}

Operation *RlxDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, type, elements);
}
