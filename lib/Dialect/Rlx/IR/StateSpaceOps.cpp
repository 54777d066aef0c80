//===- StateSpaceOps.cpp - selective_scan, mamba2, gated_delta_net --------===//
//
// Shape rules and chunked decompositions of the state-space and
// linear-attention ops. The decomposition is the op's definition: the
// sequence is cut into chunks, an rlx.scan over the chunks carries the
// state, and each scan step computes its whole chunk with matmuls, a
// cumulative sum of log decays and the masked matrix of decays between the
// chunk's steps. Everything after (fusion, lowering, gradients: the
// backward scan saves the state entering each chunk and recomputes the
// chunk) is that of the rlx ops it produces.
//
//===----------------------------------------------------------------------===//
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include "OpUtils.h"
#include "PrimitiveBuilder.h"

#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace mlir::rlx;

//===----------------------------------------------------------------------===//
// Shape rules
//===----------------------------------------------------------------------===//

namespace {
/// Matches operands against the layouts the ODS states, shapes written as
/// lists of size names (`{"batch", "D", "L"}`): the first operand to name
/// a size binds it, later ones must agree.
class LayoutMatcher {
public:
  LayoutMatcher(ShapeContext &context, std::optional<Location> loc)
      : context(context), loc(loc) {}

  /// Matches `value`, the operand `what`, against `dims`; a null `value`
  /// (an absent optional operand) matches.
  LogicalResult match(Value value, StringRef what, ArrayRef<StringRef> dims) {
    if (!value)
      return success();
    SymbolicShape shape = context.getShape(value);
    bool matches = shape.size() == dims.size();
    for (auto [size, name] : llvm::zip(shape, dims)) {
      if (!matches)
        break;
      auto [it, inserted] = sizes.try_emplace(name, size);
      matches = inserted || context.requireEqual(it->second, size);
    }
    if (matches)
      return success();
    std::string expected;
    llvm::raw_string_ostream os(expected);
    llvm::interleaveComma(dims, os, [&](StringRef name) {
      os << name;
      if (AffineExpr size = sizes.lookup(name))
        os << " = " << formatSize(size);
    });
    return emitOptionalError(loc, what, " must be [", expected, "], got ",
                             ShapeContext::format(shape));
  }

  /// The static value of the bound size `name`; fails with a diagnostic
  /// when it is `?`.
  FailureOr<int64_t> getStatic(StringRef name) {
    if (auto constant = dyn_cast<AffineConstantExpr>(sizes.lookup(name)))
      return constant.getValue();
    return emitOptionalError(loc, "the size ", name, " must be static");
  }

  /// `count` (the static size `name`) splits into `groups` equal groups.
  LogicalResult requireGroups(StringRef name, int64_t count, int64_t groups) {
    if (groups > 0 && count % groups == 0)
      return success();
    return emitOptionalError(loc, name, " = ", count, " does not split into ",
                             groups, " groups");
  }

  SymbolicShape getShape(ArrayRef<StringRef> dims) const {
    return llvm::map_to_vector(
        dims, [&](StringRef name) { return sizes.lookup(name); });
  }

private:
  ShapeContext &context;
  std::optional<Location> loc;
  llvm::StringMap<AffineExpr> sizes;
};
} // namespace

static FailureOr<SmallVector<SymbolicShape>>
inferShapes(ShapeContext &context, std::optional<Location> loc,
            SelectiveScanOp::Adaptor op) {
  LayoutMatcher layout(context, loc);
  auto groupedDims = [](Value value) -> SmallVector<StringRef> {
    if (cast<RankedTensorType>(value.getType()).getRank() == 4)
      return {"batch", "G", "N", "L"};
    return {"batch", "N", "L"};
  };
  if (failed(layout.match(op.getU(), "u", {"batch", "D", "L"})) ||
      failed(layout.match(op.getDelta(), "delta", {"batch", "D", "L"})) ||
      failed(layout.match(op.getA(), "A", {"D", "N"})) ||
      failed(layout.match(op.getB(), "B", groupedDims(op.getB()))) ||
      failed(layout.match(op.getC(), "C", groupedDims(op.getC()))) ||
      failed(layout.match(op.getD(), "D", {"D"})) ||
      failed(layout.match(op.getZ(), "z", {"batch", "D", "L"})) ||
      failed(layout.match(op.getDeltaBias(), "delta_bias", {"D"})))
    return failure();
  FailureOr<int64_t> channels = layout.getStatic("D");
  if (failed(channels) || failed(layout.getStatic("N")))
    return failure();
  for (Value grouped : {op.getB(), op.getC()}) {
    if (cast<RankedTensorType>(grouped.getType()).getRank() != 4)
      continue;
    FailureOr<int64_t> groups = layout.getStatic("G");
    if (failed(groups) || failed(layout.requireGroups("D", *channels, *groups)))
      return failure();
  }
  return SmallVector<SymbolicShape>{layout.getShape({"batch", "D", "L"}),
                                    layout.getShape({"batch", "D", "N"})};
}

static FailureOr<SmallVector<SymbolicShape>>
inferShapes(ShapeContext &context, std::optional<Location> loc,
            Mamba2Op::Adaptor op) {
  LayoutMatcher layout(context, loc);
  if (failed(layout.match(op.getX(), "x", {"batch", "L", "H", "P"})) ||
      failed(layout.match(op.getDt(), "dt", {"batch", "L", "H"})) ||
      failed(layout.match(op.getA(), "A", {"H"})) ||
      failed(layout.match(op.getB(), "B", {"batch", "L", "G", "N"})) ||
      failed(layout.match(op.getC(), "C", {"batch", "L", "G", "N"})) ||
      failed(layout.match(op.getD(), "D", {"H"})) ||
      failed(layout.match(op.getZ(), "z", {"batch", "L", "H", "P"})) ||
      failed(layout.match(op.getDtBias(), "dt_bias", {"H"})) ||
      failed(layout.match(op.getInitialState(), "initial_state",
                          {"batch", "H", "P", "N"})))
    return failure();
  FailureOr<int64_t> heads = layout.getStatic("H");
  FailureOr<int64_t> groups = layout.getStatic("G");
  if (failed(heads) || failed(groups) || failed(layout.getStatic("P")) ||
      failed(layout.getStatic("N")) ||
      failed(layout.requireGroups("H", *heads, *groups)))
    return failure();
  return SmallVector<SymbolicShape>{layout.getShape({"batch", "L", "H", "P"}),
                                    layout.getShape({"batch", "H", "P", "N"})};
}

static FailureOr<SmallVector<SymbolicShape>>
inferShapes(ShapeContext &context, std::optional<Location> loc,
            GatedDeltaNetOp::Adaptor op) {
  LayoutMatcher layout(context, loc);
  if (failed(layout.match(op.getQ(), "q", {"batch", "L", "H", "K"})) ||
      failed(layout.match(op.getK(), "k", {"batch", "L", "H", "K"})) ||
      failed(layout.match(op.getV(), "v", {"batch", "L", "H", "V"})) ||
      failed(layout.match(op.getG(), "g", {"batch", "L", "H"})) ||
      failed(layout.match(op.getBeta(), "beta", {"batch", "L", "H"})) ||
      failed(layout.match(op.getInitialState(), "initial_state",
                          {"batch", "H", "V", "K"})))
    return failure();
  if (failed(layout.getStatic("H")) || failed(layout.getStatic("K")) ||
      failed(layout.getStatic("V")))
    return failure();
  return SmallVector<SymbolicShape>{layout.getShape({"batch", "L", "H", "V"}),
                                    layout.getShape({"batch", "H", "V", "K"})};
}

/// `inferReturnTypes` of state-space op `OpTy`.
template <typename OpTy>
static LogicalResult inferStateSpaceTypes(MLIRContext *context,
                                          std::optional<Location> loc,
                                          typename OpTy::Adaptor adaptor,
                                          SmallVectorImpl<Type> &inferred) {
  ShapeContext shapes(context);
  FailureOr<SmallVector<SymbolicShape>> result =
      inferShapes(shapes, loc, adaptor);
  if (failed(result))
    return failure();
  Type element = cast<RankedTensorType>(adaptor.getOperands()[0].getType())
                     .getElementType();
  for (const SymbolicShape &shape : *result)
    inferred.push_back(ShapeContext::getType(shape, element));
  return success();
}

/// `inferSymbolicShapes` of state-space op `op`.
template <typename OpTy>
static LogicalResult
inferStateSpaceSymbolicShapes(OpTy op, ShapeContext &context,
                              SmallVectorImpl<SymbolicShape> &shapes) {
  FailureOr<SmallVector<SymbolicShape>> result =
      inferShapes(context, op.getLoc(), typename OpTy::Adaptor(op));
  if (failed(result))
    return failure();
  llvm::append_range(shapes, *result);
  return success();
}

static LogicalResult verifyChunk(Operation *op, int64_t chunk) {
  if (chunk < 1)
    return op->emitOpError("chunk must be at least 1, got ") << chunk;
  return success();
}

//===----------------------------------------------------------------------===//
// Decomposition
//===----------------------------------------------------------------------===//

static RankedTensorType getTensorType(Value value) {
  return cast<RankedTensorType>(value.getType());
}

static Value transpose(OpBuilder &b, Location loc, Value value,
                       ArrayRef<int64_t> permutation) {
  return TransposeOp::create(b, loc, value, permutation);
}

/// `value` with its last two dimensions swapped.
static Value transposeLast(OpBuilder &b, Location loc, Value value) {
  int64_t rank = getTensorType(value).getRank();
  SmallVector<int64_t> permutation = llvm::to_vector(llvm::seq<int64_t>(rank));
  std::swap(permutation[rank - 1], permutation[rank - 2]);
  return transpose(b, loc, value, permutation);
}

/// The shape of `value` with `sizes` in place of dimensions [from, to).
static SmallVector<int64_t> replaceDims(Value value, int64_t from, int64_t to,
                                        ArrayRef<int64_t> sizes) {
  ArrayRef<int64_t> shape = getTensorType(value).getShape();
  SmallVector<int64_t> result(shape.take_front(from));
  llvm::append_range(result, sizes);
  llvm::append_range(result, shape.drop_front(to));
  return result;
}

namespace {
/// How a sequence of `length` steps is cut into `count` chunks of `size`
/// steps, the last padded.
struct Chunking {
  int64_t length, size, count;

  /// Chunks of at most `chunk` steps; one step per chunk for a `?` length.
  static Chunking get(int64_t length, int64_t chunk) {
    if (ShapedType::isDynamic(length))
      return {length, 1, ShapedType::kDynamic};
    int64_t size = std::clamp<int64_t>(length, 1, chunk);
    return {length, size, (length + size - 1) / size};
  }

  /// `value` with its sequence axis `axis` padded with zeros to whole
  /// chunks and split into [count, size].
  Value split(OpBuilder &b, Location loc, Value value, int64_t axis) const {
    if (!ShapedType::isDynamic(length) && count * size != length) {
      SmallVector<int64_t> pads(2 * getTensorType(value).getRank(), 0);
      pads[2 * axis + 1] = count * size - length;
      value =
          PadOp::create(b, loc, value, PadMode::Constant, pads, FloatAttr());
    }
    return PrimitiveBuilder(b, loc).reshape(
        value, replaceDims(value, axis, axis + 1, {count, size}));
  }

  /// The inverse of `split` on the scan's stacked outputs: axes [axis,
  /// axis + 1] merged and cut back to the sequence's length.
  Value merge(OpBuilder &b, Location loc, Value value, int64_t axis) const {
    int64_t padded =
        ShapedType::isDynamic(count) ? ShapedType::kDynamic : count * size;
    value = PrimitiveBuilder(b, loc).reshape(
        value, replaceDims(value, axis, axis + 2, {padded}));
    if (padded != length)
      value = NarrowOp::create(b, loc, value, axis, 0, length);
    return value;
  }
};
} // namespace

/// `[T, T]` booleans, true where `s < t` (or `s <= t` with `diagonal`).
static Value createLowerMask(OpBuilder &b, Location loc, int64_t size,
                             bool diagonal) {
  SmallVector<bool> mask;
  for (int64_t t = 0; t < size; ++t)
    for (int64_t s = 0; s < size; ++s)
      mask.push_back(diagonal ? s <= t : s < t);
  return ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(RankedTensorType::get({size, size}, b.getI1Type()),
                             mask));
}

/// From `cumulative` `[..., T]`, the running sums of a chunk's log decays,
/// the decays between its steps `[..., T, T]`: `exp(cumulative[t] -
/// cumulative[s])` for `s <= t`, 0 above the diagonal. The exponent is
/// masked before `exp`, so the entries above the diagonal (growths, maybe
/// huge) never reach it, nor their gradients.
static Value createDecayMatrix(OpBuilder &b, Location loc, Value cumulative) {
  RankedTensorType type = getTensorType(cumulative);
  int64_t rank = type.getRank();
  int64_t size = type.getDimSize(rank - 1);
  Value to = PrimitiveBuilder(b, loc).reshape(
      cumulative, replaceDims(cumulative, rank - 1, rank, {size, 1}));
  Value from = PrimitiveBuilder(b, loc).reshape(
      cumulative, replaceDims(cumulative, rank - 1, rank, {1, size}));
  Value exponent = SubOp::create(b, loc, to, from);
  Value masked = WhereOp::create(
      b, loc, createLowerMask(b, loc, size, /*diagonal=*/true), exponent,
      PrimitiveBuilder(b, loc).scalar(
          type.getElementType(), -std::numeric_limits<double>::infinity()));
  return ExpOp::create(b, loc, masked);
}

/// Builds an rlx.scan along `axis` over `xs` carrying `init`; `buildStep`
/// gets the carried state and one chunk of each x and returns the next
/// state and the chunk's output. Returns the final state and the stacked
/// outputs, of type `stackedType`.
static std::pair<Value, Value> createChunkScan(
    OpBuilder &b, Location loc, Value init, ValueRange xs, int64_t axis,
    RankedTensorType stackedType,
    function_ref<std::pair<Value, Value>(OpBuilder &, ValueRange)> buildStep) {
  auto scan = ScanOp::create(b, loc, TypeRange{init.getType(), stackedType},
                             ValueRange{init}, xs, axis,
                             /*length=*/IntegerAttr(), /*reverse=*/false);
  Block &body = scan.getBody().emplaceBlock();
  body.addArgument(init.getType(), loc);
  for (Value x : xs) {
    SmallVector<int64_t> shape(getTensorType(x).getShape());
    shape.erase(shape.begin() + axis);
    body.addArgument(getTensorType(x).clone(shape), loc);
  }
  OpBuilder nested = OpBuilder::atBlockEnd(&body);
  auto [next, output] = buildStep(nested, body.getArguments());
  YieldOp::create(nested, loc, ValueRange{next, output});
  return {scan.getResult(0), scan.getResult(1)};
}

/// `dt + bias` (bias broadcast as given), softplus'd if asked.
static Value createStepSizes(OpBuilder &b, Location loc, Value dt, Value bias,
                             bool softplus) {
  if (bias)
    dt = AddOp::create(b, loc, dt, bias);
  return softplus ? SoftplusOp::create(b, loc, dt).getResult() : dt;
}

/// `y + D x` (D broadcast as given), times `silu(z)`; absent terms skipped.
static Value createSkipAndGate(OpBuilder &b, Location loc, Value y, Value x,
                               Value skip, Value z) {
  if (skip)
    y = AddOp::create(b, loc, y, MulOp::create(b, loc, skip, x));
  if (z)
    y = MulOp::create(b, loc, y, SiluOp::create(b, loc, z));
  return y;
}

//===----------------------------------------------------------------------===//
// SelectiveScanOp
//===----------------------------------------------------------------------===//

LogicalResult
SelectiveScanOp::inferReturnTypes(MLIRContext *context,
                                  std::optional<Location> loc, Adaptor adaptor,
                                  SmallVectorImpl<Type> &inferred) {
  return inferStateSpaceTypes<SelectiveScanOp>(context, loc, adaptor, inferred);
}

LogicalResult
SelectiveScanOp::inferSymbolicShapes(ShapeContext &context,
                                     SmallVectorImpl<SymbolicShape> &shapes) {
  return inferStateSpaceSymbolicShapes(*this, context, shapes);
}

LogicalResult SelectiveScanOp::verify() {
  return verifyChunk(*this, getChunk());
}

SmallVector<Value> SelectiveScanOp::decompose(OpBuilder &b) {
  Location loc = getLoc();
  RankedTensorType stateType = getLastState().getType();
  int64_t batch = stateType.getDimSize(0), channels = stateType.getDimSize(1),
          states = stateType.getDimSize(2);
  Chunking chunking = Chunking::get(getU().getType().getDimSize(2), getChunk());
  int64_t size = chunking.size;

  Value bias = getDeltaBias() ? PrimitiveBuilder(b, loc).reshape(getDeltaBias(),
                                                                 {channels, 1})
                              : Value();
  Value dt = createStepSizes(b, loc, getDelta(), bias, getDeltaSoftplus());
  Value scaledInput = MulOp::create(b, loc, dt, getU());
  // B and C as [batch, G, N, L], then chunked as [batch, G, chunks, N, T].
  auto toGroupedChunks = [&](Value value) {
    if (getTensorType(value).getRank() == 3)
      value = PrimitiveBuilder(b, loc).reshape(value,
                                               replaceDims(value, 1, 1, {1}));
    return transpose(b, loc, chunking.split(b, loc, value, 3), {0, 1, 3, 2, 4});
  };
  Value groupedB = toGroupedChunks(getB()), groupedC = toGroupedChunks(getC());
  // B and C may have their own numbers of groups.
  int64_t groupsB = getTensorType(groupedB).getDimSize(1),
          groupsC = getTensorType(groupedC).getDimSize(1);
  Value A = PrimitiveBuilder(b, loc).reshape(getA(), {channels, states, 1});

  SmallVector<int64_t> stackedShape = {batch, channels, chunking.count, size};
  auto [lastState, stacked] = createChunkScan(
      b, loc, createBatchZeros(b, loc, stateType, getU(), /*batchAxis=*/0),
      {chunking.split(b, loc, dt, 2), chunking.split(b, loc, scaledInput, 2),
       groupedB, groupedC},
      /*axis=*/2,
      RankedTensorType::get(stackedShape, stateType.getElementType()),
      [&](OpBuilder &b, ValueRange args) -> std::pair<Value, Value> {
        Value h = args[0], dt = args[1], du = args[2], Bc = args[3],
              Cc = args[4];
        // Log decays a[d, n, t] = dt[d, t] A[d, n] and their running sums.
        Value a = MulOp::create(
            b, loc,
            PrimitiveBuilder(b, loc).reshape(dt, {batch, channels, 1, size}),
            A);
        Value cumulative = CumsumOp::create(b, loc, a, /*axis=*/3);
        Value decays = createDecayMatrix(b, loc, cumulative);
        // Inputs x[d, n, s] = B[g(d), n, s] dt[d, s] u[d, s].
        Value inputs = MulOp::create(
            b, loc,
            PrimitiveBuilder(b, loc).reshape(Bc,
                                             {batch, groupsB, 1, states, size}),
            PrimitiveBuilder(b, loc).reshape(
                du, {batch, groupsB, channels / groupsB, 1, size}));
        inputs = PrimitiveBuilder(b, loc).reshape(
            inputs, {batch, channels, states, size, 1});
        // The states h_t of every step: the chunk's decayed inputs plus the
        // entering state decayed to t.
        Value within = PrimitiveBuilder(b, loc).reshape(
            MatmulOp::create(b, loc, decays, inputs),
            {batch, channels, states, size});
        Value entering = MulOp::create(
            b, loc, ExpOp::create(b, loc, cumulative),
            PrimitiveBuilder(b, loc).reshape(h, {batch, channels, states, 1}));
        Value stepStates = AddOp::create(b, loc, within, entering);
        // y[d, t] = sum_n C[g(d), n, t] h_t[d, n].
        Value read = MulOp::create(
            b, loc,
            PrimitiveBuilder(b, loc).reshape(
                stepStates, {batch, groupsC, channels / groupsC, states, size}),
            PrimitiveBuilder(b, loc).reshape(
                Cc, {batch, groupsC, 1, states, size}));
        Value y = ReduceOp::create(b, loc, read, ReduceKind::Sum,
                                   ArrayRef<int64_t>{3}, /*keep_dim=*/false);
        Value next = PrimitiveBuilder(b, loc).reshape(
            NarrowOp::create(b, loc, stepStates, 3, size - 1, 1),
            {batch, channels, states});
        return {next,
                PrimitiveBuilder(b, loc).reshape(y, {batch, channels, size})};
      });
  Value y = chunking.merge(b, loc, stacked, 2);
  Value skip = getD() ? PrimitiveBuilder(b, loc).reshape(getD(), {channels, 1})
                      : Value();
  return {createSkipAndGate(b, loc, y, getU(), skip, getZ()), lastState};
}

//===----------------------------------------------------------------------===//
// Mamba2Op
//===----------------------------------------------------------------------===//

LogicalResult Mamba2Op::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  return inferStateSpaceTypes<Mamba2Op>(context, loc, adaptor, inferred);
}

LogicalResult
Mamba2Op::inferSymbolicShapes(ShapeContext &context,
                              SmallVectorImpl<SymbolicShape> &shapes) {
  return inferStateSpaceSymbolicShapes(*this, context, shapes);
}

LogicalResult Mamba2Op::verify() { return verifyChunk(*this, getChunk()); }

SmallVector<Value> Mamba2Op::decompose(OpBuilder &b) {
  Location loc = getLoc();
  RankedTensorType stateType = getFinalState().getType();
  int64_t batch = stateType.getDimSize(0), heads = stateType.getDimSize(1),
          features = stateType.getDimSize(2);
  Chunking chunking = Chunking::get(getX().getType().getDimSize(1), getChunk());
  int64_t size = chunking.size;
  int64_t groups = getB().getType().getDimSize(2);
  int64_t perGroup = heads / groups;

  Value dt = createStepSizes(b, loc, getDt(), getDtBias(), getDtSoftplus());
  // Head-major chunks: X = dt x as [batch, H, chunks, T, P], the log
  // decays dt A as [batch, H, chunks, T], B and C as [batch, G, chunks, T,
  // N].
  Value scaledInput = MulOp::create(
      b, loc, getX(),
      PrimitiveBuilder(b, loc).reshape(dt, replaceDims(dt, 3, 3, {1})));
  auto toHeadChunks = [&](Value value) {
    SmallVector<int64_t> permutation = {0, 2, 1};
    if (getTensorType(value).getRank() == 4)
      permutation.push_back(3);
    return chunking.split(b, loc, transpose(b, loc, value, permutation), 2);
  };
  Value logDecays = MulOp::create(b, loc, dt, getA());

  SmallVector<int64_t> stackedShape = {batch, heads, chunking.count, size,
                                       features};
  Value init = getInitialState() ? PrimitiveBuilder(b, loc).reshape(
                                       getInitialState(), stateType.getShape())
                                 : createBatchZeros(b, loc, stateType, getX(),
                                                    /*batchAxis=*/0);
  auto [finalState, stacked] = createChunkScan(
      b, loc, init,
      {toHeadChunks(scaledInput), toHeadChunks(logDecays), toHeadChunks(getB()),
       toHeadChunks(getC())},
      /*axis=*/2,
      RankedTensorType::get(stackedShape, stateType.getElementType()),
      [&](OpBuilder &b, ValueRange args) -> std::pair<Value, Value> {
        Value h = args[0], X = args[1], a = args[2], Bc = args[3], Cc = args[4];
        auto byGroup = [&](Value value, int64_t count) {
          return PrimitiveBuilder(b, loc).reshape(
              value, replaceDims(value, 1, 2, {groups, count}));
        };
        auto byHead = [&](Value value) {
          return PrimitiveBuilder(b, loc).reshape(
              value, replaceDims(value, 1, 3, {heads}));
        };
        Value cumulative = CumsumOp::create(b, loc, a, /*axis=*/2);
        Value decays = createDecayMatrix(b, loc, cumulative); // [b, H, T, T]
        // The diagonal block: ((C B^T) * decays) X.
        Value scores = MatmulOp::create(b, loc, Cc, transposeLast(b, loc, Bc));
        Value mixing = byHead(MulOp::create(b, loc, byGroup(scores, 1),
                                            byGroup(decays, perGroup)));
        Value within = MatmulOp::create(b, loc, mixing, X);
        // The entering state read by C and decayed to each step.
        Value read = byHead(
            MatmulOp::create(b, loc, byGroup(Cc, 1),
                             transposeLast(b, loc, byGroup(h, perGroup))));
        Value decayFromStart = PrimitiveBuilder(b, loc).reshape(
            ExpOp::create(b, loc, cumulative), {batch, heads, size, 1});
        Value y = AddOp::create(b, loc, within,
                                MulOp::create(b, loc, read, decayFromStart));
        // The leaving state: the entering one decayed over the chunk, plus
        // X^T (decays to the end * B).
        Value toEnd = PrimitiveBuilder(b, loc).reshape(
            NarrowOp::create(b, loc, decays, 2, size - 1, 1),
            {batch, groups, perGroup, size, 1});
        Value weighted = MulOp::create(b, loc, toEnd, byGroup(Bc, 1));
        Value added = byHead(MatmulOp::create(
            b, loc, byGroup(transposeLast(b, loc, X), perGroup), weighted));
        Value total = PrimitiveBuilder(b, loc).reshape(
            ExpOp::create(b, loc,
                          NarrowOp::create(b, loc, cumulative, 2, size - 1, 1)),
            {batch, heads, 1, 1});
        Value next =
            AddOp::create(b, loc, MulOp::create(b, loc, total, h), added);
        return {next, y};
      });
  Value y = transpose(b, loc, chunking.merge(b, loc, stacked, 2), {0, 2, 1, 3});
  Value skip =
      getD() ? PrimitiveBuilder(b, loc).reshape(getD(), {heads, 1}) : Value();
  return {createSkipAndGate(b, loc, y, getX(), skip, getZ()), finalState};
}

//===----------------------------------------------------------------------===//
// GatedDeltaNetOp
//===----------------------------------------------------------------------===//

LogicalResult
GatedDeltaNetOp::inferReturnTypes(MLIRContext *context,
                                  std::optional<Location> loc, Adaptor adaptor,
                                  SmallVectorImpl<Type> &inferred) {
  return inferStateSpaceTypes<GatedDeltaNetOp>(context, loc, adaptor, inferred);
}

LogicalResult
GatedDeltaNetOp::inferSymbolicShapes(ShapeContext &context,
                                     SmallVectorImpl<SymbolicShape> &shapes) {
  return inferStateSpaceSymbolicShapes(*this, context, shapes);
}

LogicalResult GatedDeltaNetOp::verify() {
  return verifyChunk(*this, getChunk());
}

/// `(I + A)^-1` of the strictly lower triangular `A` `[..., T, T]`, as
/// `(I - A)(I + A^2)(I + A^4)...`: A is nilpotent (`A^T = 0`), so the
/// product of the factors up to `A^(2^m)` with `2^(m+1) >= T` is exact.
/// log2(T) squarings and products, all matmuls, where a forward
/// substitution would take T dependent steps.
static Value createUnitLowerInverse(OpBuilder &b, Location loc, Value A,
                                    int64_t size) {
  Type element = getTensorType(A).getElementType();
  SmallVector<double> identityValues(size * size, 0.0);
  for (int64_t i = 0; i < size; ++i)
    identityValues[i * size + i] = 1.0;
  auto identityType = RankedTensorType::get({size, size}, element);
  SmallVector<Attribute> identityAttrs =
      llvm::map_to_vector(identityValues, [&](double v) -> Attribute {
        return b.getFloatAttr(element, v);
      });
  Value identity = ConstantOp::create(
      b, loc, DenseElementsAttr::get(identityType, identityAttrs));
  Value inverse = SubOp::create(b, loc, identity, A);
  Value power = A;
  for (int64_t span = 2; span < size; span *= 2) {
    power = MatmulOp::create(b, loc, power, power);
    inverse = MatmulOp::create(b, loc, inverse,
                               AddOp::create(b, loc, identity, power));
  }
  return inverse;
}

SmallVector<Value> GatedDeltaNetOp::decompose(OpBuilder &b) {
  Location loc = getLoc();
  RankedTensorType stateType = getFinalState().getType();
  Type element = stateType.getElementType();
  int64_t batch = stateType.getDimSize(0), heads = stateType.getDimSize(1),
          keys = stateType.getDimSize(3);
  Chunking chunking = Chunking::get(getQ().getType().getDimSize(1), getChunk());
  int64_t size = chunking.size;
  double scale = getScaleAttr() ? getScaleAttr().getValueAsDouble()
                                : 1.0 / std::sqrt(static_cast<double>(keys));

  // Head-major chunks: [batch, H, chunks, T(, features)].
  auto toHeadChunks = [&](Value value) {
    SmallVector<int64_t> permutation = {0, 2, 1};
    if (getTensorType(value).getRank() == 4)
      permutation.push_back(3);
    return chunking.split(b, loc, transpose(b, loc, value, permutation), 2);
  };
  Value q = MulOp::create(b, loc, getQ(),
                          PrimitiveBuilder(b, loc).scalar(element, scale));
  Value init = getInitialState() ? PrimitiveBuilder(b, loc).reshape(
                                       getInitialState(), stateType.getShape())
                                 : createBatchZeros(b, loc, stateType, getQ(),
                                                    /*batchAxis=*/0);
  SmallVector<int64_t> stackedShape = {batch, heads, chunking.count, size,
                                       stateType.getDimSize(2)};
  auto [finalState, stacked] = createChunkScan(
      b, loc, init,
      {toHeadChunks(q), toHeadChunks(getK()), toHeadChunks(getV()),
       toHeadChunks(getG()), toHeadChunks(getBeta())},
      /*axis=*/2, RankedTensorType::get(stackedShape, element),
      [&](OpBuilder &b, ValueRange args) -> std::pair<Value, Value> {
        Value S = args[0], qc = args[1], kc = args[2], vc = args[3],
              gc = args[4], betac = args[5];
        auto column = [&](Value value) {
          return PrimitiveBuilder(b, loc).reshape(value,
                                                  {batch, heads, size, 1});
        };
        Value cumulative = CumsumOp::create(b, loc, gc, /*axis=*/2);
        Value decays = createDecayMatrix(b, loc, cumulative); // G [b, H, T, T]
        Value keysT = transposeLast(b, loc, kc);
        Value beta = column(betac);
        // A[t, s] = beta_t G[t, s] (k_t . k_s) below the diagonal.
        Value interactions = MulOp::create(
            b, loc,
            MulOp::create(b, loc, beta, MatmulOp::create(b, loc, kc, keysT)),
            decays);
        Value A = WhereOp::create(
            b, loc, createLowerMask(b, loc, size, /*diagonal=*/false),
            interactions, PrimitiveBuilder(b, loc).scalar(element, 0));
        Value transform = createUnitLowerInverse(b, loc, A, size);
        // The pseudo-values U = T (beta V) - T (beta exp(gamma) K) S_0^T.
        Value decayFromStart = column(ExpOp::create(b, loc, cumulative));
        Value W = MatmulOp::create(
            b, loc, transform,
            MulOp::create(b, loc, MulOp::create(b, loc, beta, decayFromStart),
                          kc));
        Value stateT = transposeLast(b, loc, S);
        Value U =
            SubOp::create(b, loc,
                          MatmulOp::create(b, loc, transform,
                                           MulOp::create(b, loc, beta, vc)),
                          MatmulOp::create(b, loc, W, stateT));
        // O = exp(gamma) Q S_0^T + ((Q K^T) * G) U.
        Value fromState = MatmulOp::create(
            b, loc, MulOp::create(b, loc, decayFromStart, qc), stateT);
        Value attention =
            MulOp::create(b, loc, MatmulOp::create(b, loc, qc, keysT), decays);
        Value o = AddOp::create(b, loc, fromState,
                                MatmulOp::create(b, loc, attention, U));
        // S_T = exp(gamma_T) S_0 + U^T (G[T, :] K).
        Value toEnd = column(NarrowOp::create(b, loc, decays, 2, size - 1, 1));
        Value total = PrimitiveBuilder(b, loc).reshape(
            ExpOp::create(b, loc,
                          NarrowOp::create(b, loc, cumulative, 2, size - 1, 1)),
            {batch, heads, 1, 1});
        Value next =
            AddOp::create(b, loc, MulOp::create(b, loc, total, S),
                          MatmulOp::create(b, loc, transposeLast(b, loc, U),
                                           MulOp::create(b, loc, toEnd, kc)));
        return {next, o};
      });
  Value o = transpose(b, loc, chunking.merge(b, loc, stacked, 2), {0, 2, 1, 3});
  return {o, finalState};
}
