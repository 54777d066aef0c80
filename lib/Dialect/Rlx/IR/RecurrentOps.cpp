//===- RecurrentOps.cpp - rlx.lstm, rlx.gru, rlx.rnn ----------------------===//
//
// Shape rules, verifiers and decompositions of the recurrent layers. The
// decomposition is the op's definition: per layer and direction, one
// matmul projects the inputs of every step, and an rlx.scan runs the cell
// on the carried state. Everything after (fusion, tiling, lowering to both
// targets, gradients) is that of the rlx ops it produces.
//
//===----------------------------------------------------------------------===//
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include "OpUtils.h"

using namespace mlir;
using namespace mlir::rlx;

namespace {
/// The operands and attributes the three recurrent ops share.
struct RecurrentLayout {
  Value input;
  ValueRange weights;
  /// The initial states given: none, h0, or h0 and c0.
  SmallVector<Value, 2> initialStates;
  int64_t numLayers, numDirections, numGates;
  bool batchFirst;
  /// The states a step carries: 2 for LSTM (h, c), else 1.
  int64_t numStates;

  /// The layout of recurrent op `OpTy` (lstm, gru or rnn).
  template <typename OpTy>
  static RecurrentLayout get(typename OpTy::Adaptor adaptor) {
    RecurrentLayout layout;
    layout.input = adaptor.getInput();
    layout.weights = adaptor.getWeights();
    layout.numLayers = adaptor.getNumLayers();
    layout.numDirections = adaptor.getBidirectional() ? 2 : 1;
    layout.numGates = OpTy::getNumGates();
    layout.batchFirst = adaptor.getBatchFirst();
    layout.numStates = 1;
    if (adaptor.getH0())
      layout.initialStates.push_back(adaptor.getH0());
    if constexpr (std::is_same_v<OpTy, LstmOp>) {
      layout.numStates = 2;
      if (adaptor.getC0())
        layout.initialStates.push_back(adaptor.getC0());
    }
    return layout;
  }

  int64_t getTimeAxis() const { return batchFirst ? 1 : 0; }
  int64_t getBatchAxis() const { return batchFirst ? 0 : 1; }
  int64_t getWeightsPerDirection() const {
    return static_cast<int64_t>(weights.size()) / (numLayers * numDirections);
  }
};
} // namespace

/// The shapes of `output` then of each final state; fails with a
/// diagnostic when the operands do not fit the layout the ODS states.
static FailureOr<SmallVector<SymbolicShape>>
inferRecurrentShapes(ShapeContext &context, std::optional<Location> loc,
                     const RecurrentLayout &layout) {
  auto inputType = cast<RankedTensorType>(layout.input.getType());
  if (inputType.getRank() != 3)
    return emitOptionalError(loc,
                             "the input must be [T, B, I] (or [B, T, I] "
                             "batch-first), got rank ",
                             inputType.getRank());
  if (layout.numLayers < 1)
    return emitOptionalError(loc, "needs at least one layer, got ",
                             layout.numLayers);
  int64_t numWeights = layout.weights.size();
  // (Compared before multiplying: a huge layer count cannot overflow.)
  int64_t numBlocks = layout.numLayers <= numWeights
                          ? layout.numLayers * layout.numDirections
                          : -1;
  if (numWeights != 4 * numBlocks && numWeights != 2 * numBlocks)
    return emitOptionalError(
        loc,
        "expects 4 weights per layer and direction (2 without biases) "
        "for ",
        layout.numLayers, " layers and ", layout.numDirections,
        " directions, got ", numWeights);
  auto hiddenType = cast<RankedTensorType>(layout.weights[1].getType());
  if (hiddenType.getRank() != 2 || !hiddenType.hasStaticShape())
    return emitOptionalError(loc,
                             "w_hh must be a static [G*H, H] matrix, "
                             "got ",
                             hiddenType);
  int64_t hidden = hiddenType.getDimSize(1);
  int64_t gateRows = layout.numGates * hidden;
  SymbolicShape input = context.getShape(layout.input);
  int64_t perDirection = layout.getWeightsPerDirection();
  for (int64_t block = 0; block < numBlocks; ++block) {
    int64_t layer = block / layout.numDirections;
    ValueRange weights =
        layout.weights.slice(block * perDirection, perDirection);
    StringRef names[] = {"w_ih", "w_hh", "b_ih", "b_hh"};
    for (auto [index, weight] : llvm::enumerate(weights)) {
      auto type = cast<RankedTensorType>(weight.getType());
      SmallVector<int64_t> expected = {gateRows};
      if (index == 1) {
        expected.push_back(hidden);
      } else if (index == 0) {
        // Layer 0 reads the input's features (compared with the input's
        // below), later layers the previous layer's D*H.
        bool matrix = type.getRank() == 2;
        expected.push_back(layer > 0 ? layout.numDirections * hidden
                           : matrix  ? type.getDimSize(1)
                                     : ShapedType::kDynamic);
      }
      if (!type.hasStaticShape() || type.getShape() != ArrayRef(expected))
        return emitOptionalError(
            loc, names[index], " of layer ", layer, " direction ",
            block % layout.numDirections, " must be ", formatShape(expected),
            " (G*H = ", layout.numGates, "*", hidden, "), got ", type);
    }
    if (layer == 0 &&
        !context.requireEqual(
            input[2],
            context.getConstant(
                cast<RankedTensorType>(weights[0].getType()).getDimSize(1))))
      return emitOptionalError(
          loc, "the input has ", formatSize(input[2]),
          " features, w_ih of layer 0 reads ",
          cast<RankedTensorType>(weights[0].getType()).getDimSize(1));
  }
  AffineExpr batch = input[layout.getBatchAxis()];
  SymbolicShape state = {context.getConstant(numBlocks), batch,
                         context.getConstant(hidden)};
  for (Value initial : layout.initialStates) {
    SymbolicShape shape = context.getShape(initial);
    if (shape.size() != 3 ||
        !llvm::all_of(llvm::zip(shape, state), [&](auto sizes) {
          return context.requireEqual(std::get<0>(sizes), std::get<1>(sizes));
        }))
      return emitOptionalError(loc, "an initial state must be [L*D, B, H] = ",
                               ShapeContext::format(state), ", got ",
                               ShapeContext::format(shape));
  }
  SymbolicShape output = input;
  output[2] = context.getConstant(layout.numDirections * hidden);
  SmallVector<SymbolicShape> shapes = {output};
  shapes.append(layout.numStates, state);
  return shapes;
}

/// `inferReturnTypes` of recurrent op `OpTy`.
template <typename OpTy>
static LogicalResult inferRecurrentTypes(MLIRContext *context,
                                         std::optional<Location> loc,
                                         typename OpTy::Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  RecurrentLayout layout = RecurrentLayout::get<OpTy>(adaptor);
  ShapeContext shapes(context);
  FailureOr<SmallVector<SymbolicShape>> result =
      inferRecurrentShapes(shapes, loc, layout);
  if (failed(result))
    return failure();
  Type element =
      cast<RankedTensorType>(layout.input.getType()).getElementType();
  for (const SymbolicShape &shape : *result)
    inferred.push_back(ShapeContext::getType(shape, element));
  return success();
}

/// `inferSymbolicShapes` of recurrent op `op`.
template <typename OpTy>
static LogicalResult
inferRecurrentSymbolicShapes(OpTy op, ShapeContext &context,
                             SmallVectorImpl<SymbolicShape> &shapes) {
  FailureOr<SmallVector<SymbolicShape>> result = inferRecurrentShapes(
      context, op.getLoc(),
      RecurrentLayout::get<OpTy>(typename OpTy::Adaptor(op)));
  if (failed(result))
    return failure();
  llvm::append_range(shapes, *result);
  return success();
}

/// Requires every operand of recurrent op `op` to have the input's element
/// type.
static LogicalResult verifyElementTypes(Operation *op) {
  Type element =
      cast<RankedTensorType>(op->getOperand(0).getType()).getElementType();
  for (Value operand : op->getOperands())
    if (cast<RankedTensorType>(operand.getType()).getElementType() != element)
      return op->emitOpError("every operand must have the input's element "
                             "type ")
             << element << ", got " << operand.getType();
  return success();
}

//===----------------------------------------------------------------------===//
// Decomposition
//===----------------------------------------------------------------------===//

namespace {
/// Builds one step of a cell: the next states (h first) from the carried
/// `states`, the step's input projection `projection` `[B, G*H]` (with the
/// biases that merge), `hiddenWeight` (w_hh transposed, `[H, G*H]`) and
/// `hiddenBias` (b_hh where it does not merge, else null).
using CellBuilder = function_ref<SmallVector<Value>(
    OpBuilder &b, Location loc, ValueRange states, Value projection,
    Value hiddenWeight, Value hiddenBias)>;

/// A view of `value` along axis 1 of `[B, G*H]`: gate `index` of `hidden`
/// wide.
Value gate(OpBuilder &b, Location loc, Value value, int64_t index,
           int64_t hidden) {
  return NarrowOp::create(b, loc, value, 1, index * hidden, hidden);
}
} // namespace

/// Block `block` (layer-major, direction-minor) of the initial states
/// `initial` `[L*D, B, H]` as `[B, H]`.
static Value sliceState(OpBuilder &b, Location loc, Value initial,
                        int64_t block, RankedTensorType type) {
  Value slice = NarrowOp::create(b, loc, initial, 0, block, 1);
  return ReshapeOp::create(b, loc, type, slice);
}

/// The decomposition of a recurrent op; `mergeHiddenBias` adds b_hh to the
/// input projection (LSTM, RNN) instead of passing it to `buildCell`.
static SmallVector<Value> decomposeRecurrent(OpBuilder &b, Location loc,
                                             const RecurrentLayout &layout,
                                             bool mergeHiddenBias,
                                             CellBuilder buildCell) {
  auto inputType = cast<RankedTensorType>(layout.input.getType());
  Type element = inputType.getElementType();
  int64_t hidden =
      cast<RankedTensorType>(layout.weights[1].getType()).getDimSize(1);
  int64_t timeAxis = layout.getTimeAxis();
  int64_t batch = inputType.getDimSize(layout.getBatchAxis());
  auto stateType = RankedTensorType::get({batch, hidden}, element);
  int64_t perDirection = layout.getWeightsPerDirection();
  bool biases = perDirection == 4;

  // Without initial states every block starts from the same zeros.
  Value zeros = layout.initialStates.empty()
                    ? createBatchZeros(b, loc, stateType, layout.input,
                                       layout.getBatchAxis())
                    : Value();
  Value sequence = layout.input;
  // The final states of every block, per state kind (h, then c).
  SmallVector<SmallVector<Value>> finals(layout.numStates);
  for (int64_t layer = 0; layer < layout.numLayers; ++layer) {
    SmallVector<Value> outputs;
    for (int64_t direction = 0; direction < layout.numDirections; ++direction) {
      int64_t block = layer * layout.numDirections + direction;
      ValueRange weights =
          layout.weights.slice(block * perDirection, perDirection);
      // Every step's input projection at once: [T, B, in] x [in, G*H].
      Value inputWeight =
          TransposeOp::create(b, loc, weights[0], ArrayRef<int64_t>{1, 0});
      Value projection = MatmulOp::create(b, loc, sequence, inputWeight);
      Value hiddenBias;
      if (biases) {
        Value bias = weights[2];
        if (mergeHiddenBias)
          bias = AddOp::create(b, loc, bias, weights[3]);
        else
          hiddenBias = weights[3];
        projection = AddOp::create(b, loc, projection, bias);
      }
      Value hiddenWeight =
          TransposeOp::create(b, loc, weights[1], ArrayRef<int64_t>{1, 0});

      SmallVector<Value> inits;
      for (int64_t state = 0; state < layout.numStates; ++state)
        inits.push_back(zeros ? zeros
                              : sliceState(b, loc, layout.initialStates[state],
                                           block, stateType));
      auto projectionType = cast<RankedTensorType>(projection.getType());
      SmallVector<int64_t> stackedShape(projectionType.getShape());
      stackedShape.back() = hidden;
      SmallVector<Type> resultTypes(inits.size(), stateType);
      resultTypes.push_back(projectionType.clone(stackedShape));
      auto scan = ScanOp::create(b, loc, resultTypes, inits, projection,
                                 timeAxis, /*length=*/IntegerAttr(),
                                 /*reverse=*/direction == 1);
      Block &body = scan.getBody().emplaceBlock();
      for (Value init : inits)
        body.addArgument(init.getType(), loc);
      body.addArgument(
          RankedTensorType::get({batch, projectionType.getDimSize(2)}, element),
          loc);
      OpBuilder nested = OpBuilder::atBlockEnd(&body);
      SmallVector<Value> next =
          buildCell(nested, loc, body.getArguments().drop_back(),
                    body.getArguments().back(), hiddenWeight, hiddenBias);
      next.push_back(next.front());
      YieldOp::create(nested, loc, next);
      for (int64_t state = 0; state < layout.numStates; ++state)
        finals[state].push_back(scan.getResult(state));
      outputs.push_back(scan.getResults().back());
    }
    sequence = outputs.size() == 1
                   ? outputs.front()
                   : ConcatOp::create(b, loc, outputs, /*axis=*/2).getResult();
  }
  SmallVector<Value> results = {sequence};
  auto blockType = RankedTensorType::get({1, batch, hidden}, element);
  for (ArrayRef<Value> states : finals) {
    SmallVector<Value> blocks;
    for (Value state : states)
      blocks.push_back(ReshapeOp::create(b, loc, blockType, state));
    results.push_back(
        blocks.size() == 1
            ? blocks.front()
            : ConcatOp::create(b, loc, blocks, /*axis=*/0).getResult());
  }
  return results;
}

//===----------------------------------------------------------------------===//
// LstmOp
//===----------------------------------------------------------------------===//

int64_t LstmOp::getNumGates() { return 4; }

LogicalResult LstmOp::inferReturnTypes(MLIRContext *context,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  return inferRecurrentTypes<LstmOp>(context, loc, adaptor, inferred);
}

LogicalResult
LstmOp::inferSymbolicShapes(ShapeContext &context,
                            SmallVectorImpl<SymbolicShape> &shapes) {
  return inferRecurrentSymbolicShapes(*this, context, shapes);
}

LogicalResult LstmOp::verify() {
  if (!getH0() != !getC0())
    return emitOpError("takes h0 and c0 together or neither");
  return verifyElementTypes(*this);
}

SmallVector<Value> LstmOp::decompose(OpBuilder &b) {
  int64_t hidden = getHN().getType().getDimSize(2);
  return decomposeRecurrent(
      b, getLoc(), RecurrentLayout::get<LstmOp>(Adaptor(*this)),
      /*mergeHiddenBias=*/true,
      [&](OpBuilder &b, Location loc, ValueRange states, Value projection,
          Value hiddenWeight, Value) -> SmallVector<Value> {
        Value h = states[0], c = states[1];
        Value gates = AddOp::create(b, loc, projection,
                                    MatmulOp::create(b, loc, h, hiddenWeight));
        Value i = SigmoidOp::create(b, loc, gate(b, loc, gates, 0, hidden));
        Value f = SigmoidOp::create(b, loc, gate(b, loc, gates, 1, hidden));
        Value g = TanhOp::create(b, loc, gate(b, loc, gates, 2, hidden));
        Value o = SigmoidOp::create(b, loc, gate(b, loc, gates, 3, hidden));
        Value nextC = AddOp::create(b, loc, MulOp::create(b, loc, f, c),
                                    MulOp::create(b, loc, i, g));
        Value nextH = MulOp::create(b, loc, o, TanhOp::create(b, loc, nextC));
        return {nextH, nextC};
      });
}

//===----------------------------------------------------------------------===//
// GruOp
//===----------------------------------------------------------------------===//

int64_t GruOp::getNumGates() { return 3; }

LogicalResult GruOp::inferReturnTypes(MLIRContext *context,
                                      std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &inferred) {
  return inferRecurrentTypes<GruOp>(context, loc, adaptor, inferred);
}

LogicalResult
GruOp::inferSymbolicShapes(ShapeContext &context,
                           SmallVectorImpl<SymbolicShape> &shapes) {
  return inferRecurrentSymbolicShapes(*this, context, shapes);
}

LogicalResult GruOp::verify() { return verifyElementTypes(*this); }

SmallVector<Value> GruOp::decompose(OpBuilder &b) {
  int64_t hidden = getHN().getType().getDimSize(2);
  return decomposeRecurrent(
      b, getLoc(), RecurrentLayout::get<GruOp>(Adaptor(*this)),
      /*mergeHiddenBias=*/false,
      [&](OpBuilder &b, Location loc, ValueRange states, Value projection,
          Value hiddenWeight, Value hiddenBias) -> SmallVector<Value> {
        Value h = states[0];
        Value recurrent = MatmulOp::create(b, loc, h, hiddenWeight);
        if (hiddenBias)
          recurrent = AddOp::create(b, loc, recurrent, hiddenBias);
        auto sum = [&](int64_t index) {
          return AddOp::create(b, loc, gate(b, loc, projection, index, hidden),
                               gate(b, loc, recurrent, index, hidden));
        };
        Value r = SigmoidOp::create(b, loc, sum(0));
        Value z = SigmoidOp::create(b, loc, sum(1));
        Value n = TanhOp::create(
            b, loc,
            AddOp::create(
                b, loc, gate(b, loc, projection, 2, hidden),
                MulOp::create(b, loc, r, gate(b, loc, recurrent, 2, hidden))));
        // (1 - z) * n + z * h, as n + z * (h - n).
        Value nextH = AddOp::create(
            b, loc, n, MulOp::create(b, loc, z, SubOp::create(b, loc, h, n)));
        return {nextH};
      });
}

//===----------------------------------------------------------------------===//
// RnnOp
//===----------------------------------------------------------------------===//

int64_t RnnOp::getNumGates() { return 1; }

LogicalResult RnnOp::inferReturnTypes(MLIRContext *context,
                                      std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &inferred) {
  return inferRecurrentTypes<RnnOp>(context, loc, adaptor, inferred);
}

LogicalResult
RnnOp::inferSymbolicShapes(ShapeContext &context,
                           SmallVectorImpl<SymbolicShape> &shapes) {
  return inferRecurrentSymbolicShapes(*this, context, shapes);
}

LogicalResult RnnOp::verify() { return verifyElementTypes(*this); }

SmallVector<Value> RnnOp::decompose(OpBuilder &b) {
  bool relu = getRelu();
  return decomposeRecurrent(
      b, getLoc(), RecurrentLayout::get<RnnOp>(Adaptor(*this)),
      /*mergeHiddenBias=*/true,
      [&](OpBuilder &b, Location loc, ValueRange states, Value projection,
          Value hiddenWeight, Value) -> SmallVector<Value> {
        Value sum =
            AddOp::create(b, loc, projection,
                          MatmulOp::create(b, loc, states[0], hiddenWeight));
        Value nextH = relu ? ReluOp::create(b, loc, sum).getResult()
                           : TanhOp::create(b, loc, sum).getResult();
        return {nextH};
      });
}
