//===- RlxOps.td - rlx dialect operations ------------------*- tablegen -*-===//
#ifndef RLX_DIALECT_RLX_IR_RLXOPS_TD
#define RLX_DIALECT_RLX_IR_RLXOPS_TD

include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "rlx/Dialect/Rlx/IR/RlxDialect.td"
include "rlx/Dialect/Rlx/IR/RlxEnums.td"
include "rlx/Dialect/Rlx/IR/RlxInterfaces.td"

//===----------------------------------------------------------------------===//
// Elementwise op classes. `scalar` is the body of `buildScalar`: the op's
// arithmetic on one element, written against `ScalarBuilder b`.
//===----------------------------------------------------------------------===//

class Rlx_ElementwiseOp<string mnemonic, list<Trait> traits = []>
    : Rlx_Op<mnemonic, traits # [Pure,
        DeclareOpInterfaceMethods<Rlx_ScalarComputeOpInterface>,
        Rlx_SymbolicShapeOpInterface]> {
  let hasFolder = 1;
}

// y = f(x), same type in and out.
class Rlx_UnaryOp<string mnemonic, Type tensor, string formula,
                  code scalarBody, code gradientBody>
    : Rlx_ElementwiseOp<mnemonic, [SameOperandsAndResultType, Elementwise,
        DeclareOpInterfaceMethods<Rlx_UnaryGradientOpInterface>]> {
  let summary = "elementwise " # mnemonic # ": " # formula;
  let description = "Computes `" # formula # "` for every element.";
  let arguments = (ins tensor:$input);
  let results = (outs tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let extraClassDefinition = [{
    ::mlir::Value $cppClass::buildScalar(::mlir::rlx::ScalarBuilder &b,
                                         ::mlir::ValueRange operands) {
      ::mlir::Value x = operands[0];
  }] # scalarBody # [{
    }
    ::mlir::Value $cppClass::buildGradient(::mlir::rlx::ScalarBuilder &b,
                                           ::mlir::Value x, ::mlir::Value dy) {
  }] # gradientBody # [{
    }
    ::mlir::OpFoldResult $cppClass::fold(FoldAdaptor adaptor) {
      return ::mlir::rlx::foldElementwise(*this, adaptor.getOperands());
    }
  }];
}

class Rlx_UnaryFloatOp<string mnemonic, string formula, code scalarBody,
                       code gradientBody>
    : Rlx_UnaryOp<mnemonic, Rlx_FloatTensor, formula, scalarBody,
                  gradientBody>;
class Rlx_UnaryNumberOp<string mnemonic, string formula, code scalarBody,
                        code gradientBody>
    : Rlx_UnaryOp<mnemonic, Rlx_NumberTensor, formula, scalarBody,
                  gradientBody>;

// Broadcasting n-ary op whose result shape is the numpy broadcast of its
// operand shapes. `resultElement` is empty when the result element type is
// that of the last operand.
class Rlx_BroadcastOp<string mnemonic, string resultElement, code scalarBody,
                      code foldBody, list<Trait> traits = []>
    : Rlx_ElementwiseOp<mnemonic, traits # [InferTypeOpAdaptor]> {
  let extraClassDeclaration = [{
    ::llvm::LogicalResult inferSymbolicShapes(
        ::mlir::rlx::ShapeContext &context,
        ::llvm::SmallVectorImpl<::mlir::rlx::SymbolicShape> &shapes);
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *context, std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &types) {
      return ::mlir::rlx::inferBroadcastResultType(
          context, loc, adaptor.getOperands(), }] # resultElement # [{,
          types);
    }
    ::llvm::LogicalResult $cppClass::inferSymbolicShapes(
        ::mlir::rlx::ShapeContext &context,
        ::llvm::SmallVectorImpl<::mlir::rlx::SymbolicShape> &shapes) {
      ::mlir::FailureOr<::mlir::rlx::SymbolicShape> shape =
          ::mlir::rlx::inferBroadcastShape(context, getLoc(), getOperands());
      if (::mlir::failed(shape))
        return ::mlir::failure();
      shapes.push_back(*shape);
      return ::mlir::success();
    }
    ::mlir::Value $cppClass::buildScalar(::mlir::rlx::ScalarBuilder &b,
                                         ::mlir::ValueRange operands) {
  }] # scalarBody # [{
    }
    ::mlir::OpFoldResult $cppClass::fold(FoldAdaptor adaptor) {
  }] # foldBody # [{
      return ::mlir::rlx::foldElementwise(*this, adaptor.getOperands());
    }
  }];
}

class Rlx_BinaryOp<string mnemonic, Type tensor, string formula,
                   code scalarBody, code foldBody = "">
    : Rlx_BroadcastOp<mnemonic, "::mlir::Type()", [{
      ::mlir::Value lhs = operands[0], rhs = operands[1];
  }] # scalarBody, foldBody, [SameOperandsElementType]> {
  let summary = "elementwise " # mnemonic # " with broadcasting: " # formula;
  let description = "Computes `" # formula # "` for every element of the "
    "numpy-style broadcast of `lhs` and `rhs`.";
  let arguments = (ins tensor:$lhs, tensor:$rhs);
  let results = (outs tensor:$result);
  let assemblyFormat =
    "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
}

class Rlx_CompareOp<string mnemonic, string predicate>
    : Rlx_BroadcastOp<mnemonic, "::mlir::IntegerType::get(context, 1)", [{
      return b.compare(::mlir::rlx::ComparePredicate::}] # predicate #
      [{, operands[0], operands[1]);
  }], "", [SameOperandsElementType]> {
  let summary = "elementwise comparison `" # mnemonic # "` with broadcasting";
  let description = [{
    Compares the numpy-style broadcast of `lhs` and `rhs`, giving `i1`.
    Floats compare ordered (false when either is NaN) except `ne`, which is
    true for NaN, as in IEEE-754 and PyTorch. Integers compare signed.
  }];
  let arguments = (ins Rlx_Tensor:$lhs, Rlx_Tensor:$rhs);
  let results = (outs Rlx_BoolTensor:$result);
  let assemblyFormat =
    "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Unary activations (op-set tier 1, 29 ops). The second body is the op's
// gradient (`buildGradient`): `dx` from the input `x` and the result's
// gradient `dy`; `buildScalar(b, x)` gives the result `y` where the
// derivative is cheaper in it. Each follows PyTorch's backward formula,
// including its choice at non-differentiable points.
//===----------------------------------------------------------------------===//

def Rlx_GeluOp : Rlx_UnaryFloatOp<"gelu", "0.5*x*(1+erf(x/sqrt(2)))", [{
  return b.mul(b.mul(b.constant(x, 0.5), x),
               b.add(b.constant(x, 1.0),
                     b.erf(b.mul(x, b.constant(x, M_SQRT1_2)))));
}], [{
  // dy * (cdf(x) + x * pdf(x)).
  ::mlir::Value cdf = b.mul(b.constant(x, 0.5),
      b.add(b.constant(x, 1.0), b.erf(b.mul(x, b.constant(x, M_SQRT1_2)))));
  ::mlir::Value pdf = b.mul(b.constant(x, 0.5 * M_2_SQRTPI * M_SQRT1_2),
      b.exp(b.mul(b.constant(x, -0.5), b.mul(x, x))));
  return b.mul(dy, b.add(cdf, b.mul(x, pdf)));
}]>;
def Rlx_GeluApproxOp : Rlx_UnaryFloatOp<"gelu_approx",
    "0.5*x*(1+tanh(sqrt(2/pi)*(x+0.044715*x^3)))", [{
  ::mlir::Value cube = b.mul(b.mul(x, x), x);
  ::mlir::Value inner = b.mul(b.constant(x, M_2_SQRTPI * M_SQRT1_2),
                              b.add(x, b.mul(b.constant(x, 0.044715), cube)));
  return b.mul(b.mul(b.constant(x, 0.5), x),
               b.add(b.constant(x, 1.0), b.tanh(inner)));
}], [{
  ::mlir::Value square = b.mul(x, x);
  ::mlir::Value beta = b.constant(x, M_2_SQRTPI * M_SQRT1_2);
  ::mlir::Value t = b.tanh(b.mul(beta, b.add(x, b.mul(
      b.constant(x, 0.044715), b.mul(square, x)))));
  ::mlir::Value half = b.constant(x, 0.5);
  ::mlir::Value one = b.constant(x, 1.0);
  ::mlir::Value outer = b.mul(half, b.add(one, t));
  ::mlir::Value inner = b.mul(b.mul(b.mul(half, x), b.sub(one, b.mul(t, t))),
      b.mul(beta, b.add(one, b.mul(b.constant(x, 3 * 0.044715), square))));
  return b.mul(dy, b.add(outer, inner));
}]>;
def Rlx_SiluOp : Rlx_UnaryFloatOp<"silu", "x*sigmoid(x)", [{
  return b.silu(x);
}], [{
  ::mlir::Value s = b.sigmoid(x);
  ::mlir::Value one = b.constant(x, 1.0);
  return b.mul(b.mul(dy, s), b.add(one, b.mul(x, b.sub(one, s))));
}]>;
def Rlx_ReluOp : Rlx_UnaryNumberOp<"relu", "max(x, 0)", [{
  return b.max(x, b.constant(x, 0.0));
}], [{
  // 0 at x = 0; NaN inputs pass dy, as PyTorch's threshold_backward.
  return b.select(b.compare(::mlir::rlx::ComparePredicate::le, x,
                            b.constant(x, 0.0)),
                  b.constant(dy, 0.0), dy);
}]>;
def Rlx_SigmoidOp : Rlx_UnaryFloatOp<"sigmoid", "1/(1+exp(-x))", [{
  return b.sigmoid(x);
}], [{
  ::mlir::Value y = buildScalar(b, x);
  return b.mul(b.mul(dy, b.sub(b.constant(x, 1.0), y)), y);
}]>;
def Rlx_TanhOp : Rlx_UnaryFloatOp<"tanh", "tanh(x)", [{ return b.tanh(x); }],
    [{
  ::mlir::Value y = buildScalar(b, x);
  return b.mul(dy, b.sub(b.constant(x, 1.0), b.mul(y, y)));
}]>;
def Rlx_ExpOp : Rlx_UnaryFloatOp<"exp", "exp(x)", [{ return b.exp(x); }], [{
  return b.mul(dy, buildScalar(b, x));
}]>;
def Rlx_LogOp : Rlx_UnaryFloatOp<"log", "ln(x)", [{ return b.log(x); }], [{
  return b.div(dy, x);
}]>;
def Rlx_SqrtOp : Rlx_UnaryFloatOp<"sqrt", "sqrt(x)", [{ return b.sqrt(x); }],
    [{
  return b.div(dy, b.mul(b.constant(x, 2.0), buildScalar(b, x)));
}]>;
def Rlx_RsqrtOp : Rlx_UnaryFloatOp<"rsqrt", "1/sqrt(x)", [{
  return b.rsqrt(x);
}], [{
  ::mlir::Value y = buildScalar(b, x);
  return b.mul(b.mul(b.constant(x, -0.5), dy), b.mul(b.mul(y, y), y));
}]>;
def Rlx_NegOp : Rlx_UnaryNumberOp<"neg", "-x", [{ return b.neg(x); }], [{
  return b.neg(dy);
}]>;
def Rlx_AbsOp : Rlx_UnaryNumberOp<"abs", "|x|", [{ return b.abs(x); }], [{
  return b.mul(dy, b.sign(x));
}]>;
def Rlx_SinOp : Rlx_UnaryFloatOp<"sin", "sin(x)", [{ return b.sin(x); }], [{
  return b.mul(dy, b.cos(x));
}]>;
def Rlx_CosOp : Rlx_UnaryFloatOp<"cos", "cos(x)", [{ return b.cos(x); }], [{
  return b.mul(dy, b.neg(b.sin(x)));
}]>;
def Rlx_TanOp : Rlx_UnaryFloatOp<"tan", "tan(x)", [{ return b.tan(x); }], [{
  ::mlir::Value y = buildScalar(b, x);
  return b.mul(dy, b.add(b.constant(x, 1.0), b.mul(y, y)));
}]>;
def Rlx_AtanOp : Rlx_UnaryFloatOp<"atan", "atan(x)", [{ return b.atan(x); }],
    [{
  return b.div(dy, b.add(b.mul(x, x), b.constant(x, 1.0)));
}]>;
def Rlx_RecipOp : Rlx_UnaryFloatOp<"recip", "1/x", [{
  return b.div(b.constant(x, 1.0), x);
}], [{
  ::mlir::Value y = buildScalar(b, x);
  return b.mul(b.neg(dy), b.mul(y, y));
}]>;
// Rounding: round passes the gradient straight through (PyTorch gives 0;
// straight-through is what quantization-aware training wants); floor, ceil
// and sign give 0, as PyTorch.
def Rlx_RoundOp : Rlx_UnaryFloatOp<"round", "round half to even", [{
  return b.roundEven(x);
}], [{ return dy; }]>;
def Rlx_FloorOp : Rlx_UnaryFloatOp<"floor", "floor(x)", [{
  return b.floor(x);
}], [{ return b.constant(dy, 0.0); }]>;
def Rlx_CeilOp : Rlx_UnaryFloatOp<"ceil", "ceil(x)", [{ return b.ceil(x); }],
    [{ return b.constant(dy, 0.0); }]>;
def Rlx_SignOp : Rlx_UnaryNumberOp<"sign",
    "-1, 0 or 1 (sign(0) = 0, sign(NaN) = NaN)", [{
  return b.sign(x);
}], [{ return b.constant(dy, 0.0); }]>;
def Rlx_SoftplusOp : Rlx_UnaryFloatOp<"softplus", "ln(1+exp(x))", [{
  return b.softplus(x);
}], [{
  // The exact derivative; PyTorch's threshold (1 above x = 20) differs by
  // less than 2.1e-9.
  return b.mul(dy, b.sigmoid(x));
}]>;
def Rlx_EluOp : Rlx_UnaryFloatOp<"elu", "x > 0 ? x : exp(x)-1", [{
  return b.select(b.compare(::mlir::rlx::ComparePredicate::gt, x,
                            b.constant(x, 0.0)),
                  x, b.expm1(x));
}], [{
  return b.select(b.compare(::mlir::rlx::ComparePredicate::le, x,
                            b.constant(x, 0.0)),
                  b.mul(dy, b.exp(x)), dy);
}]>;
def Rlx_ErfOp : Rlx_UnaryFloatOp<"erf", "erf(x)", [{ return b.erf(x); }], [{
  return b.mul(b.mul(b.constant(x, M_2_SQRTPI), b.exp(b.neg(b.mul(x, x)))),
               dy);
}]>;
def Rlx_HardSwishOp : Rlx_UnaryFloatOp<"hard_swish",
    "x*clamp(x+3, 0, 6)/6", [{
  ::mlir::Value gate = b.clamp(b.add(x, b.constant(x, 3.0)),
                               b.constant(x, 0.0), b.constant(x, 6.0));
  // Scale the gate first: x * 6 would overflow for |x| near the max.
  return b.mul(x, b.div(gate, b.constant(x, 6.0)));
}], [{
  // x/3 + 0.5 on [-3, 3], as PyTorch's scalar kernel (its vectorized one
  // gives 1 at x = 3).
  using ::mlir::rlx::ComparePredicate;
  ::mlir::Value slope = b.mul(dy, b.add(b.div(x, b.constant(x, 3.0)),
                                        b.constant(x, 0.5)));
  return b.select(b.compare(ComparePredicate::lt, x, b.constant(x, -3.0)),
                  b.constant(dy, 0.0),
                  b.select(b.compare(ComparePredicate::le, x,
                                     b.constant(x, 3.0)),
                           slope, dy));
}]>;
def Rlx_HardSigmoidOp : Rlx_UnaryFloatOp<"hard_sigmoid",
    "clamp(x/6+0.5, 0, 1)", [{
  return b.clamp(b.add(b.div(x, b.constant(x, 6.0)), b.constant(x, 0.5)),
                 b.constant(x, 0.0), b.constant(x, 1.0));
}], [{
  // 0 at the kinks x = -3 and x = 3, as PyTorch.
  using ::mlir::rlx::ComparePredicate;
  ::mlir::Value inside = b.bitAnd(
      b.compare(ComparePredicate::gt, x, b.constant(x, -3.0)),
      b.compare(ComparePredicate::lt, x, b.constant(x, 3.0)));
  return b.select(inside, b.div(dy, b.constant(dy, 6.0)),
                  b.constant(dy, 0.0));
}]>;
def Rlx_MishOp : Rlx_UnaryFloatOp<"mish", "x*tanh(softplus(x))", [{
  return b.mul(x, b.tanh(b.softplus(x)));
}], [{
  ::mlir::Value t = b.tanh(b.softplus(x));
  ::mlir::Value slope = b.mul(b.mul(x, b.sigmoid(x)),
                              b.sub(b.constant(x, 1.0), b.mul(t, t)));
  return b.mul(dy, b.add(t, slope));
}]>;
def Rlx_SoftsignOp : Rlx_UnaryFloatOp<"softsign", "x/(1+|x|)", [{
  return b.div(x, b.add(b.constant(x, 1.0), b.abs(x)));
}], [{
  ::mlir::Value denominator = b.add(b.constant(x, 1.0), b.abs(x));
  return b.div(dy, b.mul(denominator, denominator));
}]>;
def Rlx_LogSigmoidOp : Rlx_UnaryFloatOp<"log_sigmoid",
    "min(x,0) - ln(1+exp(-|x|))", [{
  return b.sub(b.min(x, b.constant(x, 0.0)),
               b.log1p(b.exp(b.neg(b.abs(x)))));
}], [{
  return b.mul(dy, b.sigmoid(b.neg(x)));
}]>;

//===----------------------------------------------------------------------===//
// Binary arithmetic (14 ops)
//===----------------------------------------------------------------------===//

def Rlx_AddOp : Rlx_BinaryOp<"add", Rlx_NumberTensor, "lhs + rhs",
    [{ return b.add(lhs, rhs); }],
    // x + (-0.0) is exact; x + (+0.0) turns -0.0 into +0.0.
    [{ if (auto r = foldBinaryIdentity(*this, adaptor.getOperands(), -0.0,
                                       /*commutative=*/true)) return r; }]>;
def Rlx_SubOp : Rlx_BinaryOp<"sub", Rlx_NumberTensor, "lhs - rhs",
    [{ return b.sub(lhs, rhs); }],
    [{ if (auto r = foldBinaryIdentity(*this, adaptor.getOperands(), 0.0,
                                       /*commutative=*/false)) return r; }]>;
def Rlx_MulOp : Rlx_BinaryOp<"mul", Rlx_NumberTensor, "lhs * rhs",
    [{ return b.mul(lhs, rhs); }],
    [{ if (auto r = foldBinaryIdentity(*this, adaptor.getOperands(), 1.0,
                                       /*commutative=*/true)) return r; }]>;
def Rlx_DivOp : Rlx_BinaryOp<"div", Rlx_NumberTensor,
    "lhs / rhs (integers truncate toward zero)",
    [{ return b.div(lhs, rhs); }],
    [{ if (auto r = foldBinaryIdentity(*this, adaptor.getOperands(), 1.0,
                                       /*commutative=*/false)) return r; }]> {
  let description = [{
    Computes `lhs / rhs` for every element of the numpy-style broadcast of
    `lhs` and `rhs`. Integer division truncates toward zero and is defined
    for every operand (it never traps): `x / 0 = 0` and
    `INT_MIN / -1 = INT_MIN`, so that `a == (a / b) * b + a % b` (`rlx.mod`)
    holds in wrapping arithmetic.
  }];
}
def Rlx_MaxOp : Rlx_BinaryOp<"max", Rlx_NumberTensor,
    "max(lhs, rhs), NaN-propagating", [{ return b.max(lhs, rhs); }]>;
def Rlx_MinOp : Rlx_BinaryOp<"min", Rlx_NumberTensor,
    "min(lhs, rhs), NaN-propagating", [{ return b.min(lhs, rhs); }]>;
def Rlx_PowOp : Rlx_BinaryOp<"pow", Rlx_FloatTensor, "lhs ^ rhs",
    [{ return b.pow(lhs, rhs); }]>;
def Rlx_ModOp : Rlx_BinaryOp<"mod", Rlx_NumberTensor,
    "fmod(lhs, rhs): the remainder has the sign of the dividend",
    [{ return b.rem(lhs, rhs); }]> {
  let description = [{
    Computes `fmod(lhs, rhs)` for every element of the numpy-style broadcast
    of `lhs` and `rhs`: the remainder has the sign of the dividend. Integer
    remainders are defined for every operand (they never trap): `x % 0 = x`
    and `INT_MIN % -1 = 0`, so that `a == (a / b) * b + a % b` (`rlx.div`)
    holds in wrapping arithmetic.
  }];
}
def Rlx_BitAndOp : Rlx_BinaryOp<"bit_and", Rlx_IntOrBoolTensor, "lhs & rhs",
    [{ return b.bitAnd(lhs, rhs); }]>;
def Rlx_BitOrOp : Rlx_BinaryOp<"bit_or", Rlx_IntOrBoolTensor, "lhs | rhs",
    [{ return b.bitOr(lhs, rhs); }]>;
def Rlx_BitXorOp : Rlx_BinaryOp<"bit_xor", Rlx_IntOrBoolTensor, "lhs ^ rhs",
    [{ return b.bitXor(lhs, rhs); }]>;
def Rlx_ShlOp : Rlx_BinaryOp<"shl", RankedTensorOf<[Rlx_Int]>,
    "lhs << rhs; amounts outside [0, bitwidth) give 0",
    [{ return b.shiftLeft(lhs, rhs); }]>;
def Rlx_ShrOp : Rlx_BinaryOp<"shr", RankedTensorOf<[Rlx_Int]>,
    "arithmetic lhs >> rhs; amounts outside [0, bitwidth) fill with the sign",
    [{ return b.shiftRight(lhs, rhs); }]>;
def Rlx_Atan2Op : Rlx_BinaryOp<"atan2", Rlx_FloatTensor, "atan2(lhs, rhs)",
    [{ return b.atan2(lhs, rhs); }]>;

//===----------------------------------------------------------------------===//
// Comparisons (6 ops)
//===----------------------------------------------------------------------===//

def Rlx_EqOp : Rlx_CompareOp<"eq", "eq">;
def Rlx_NeOp : Rlx_CompareOp<"ne", "ne">;
def Rlx_LtOp : Rlx_CompareOp<"lt", "lt">;
def Rlx_LeOp : Rlx_CompareOp<"le", "le">;
def Rlx_GtOp : Rlx_CompareOp<"gt", "gt">;
def Rlx_GeOp : Rlx_CompareOp<"ge", "ge">;

//===----------------------------------------------------------------------===//
// Other elementwise ops
//===----------------------------------------------------------------------===//

def Rlx_WhereOp : Rlx_BroadcastOp<"where", "::mlir::Type()", [{
  return b.select(operands[0], operands[1], operands[2]);
}], "", [AllElementTypesMatch<["on_true", "on_false", "result"]>]> {
  let summary = "elementwise select with broadcasting";
  let description = [{
    `result = condition ? on_true : on_false`, over the numpy-style broadcast
    of all three operands.
  }];
  let arguments = (ins Rlx_BoolTensor:$condition, Rlx_Tensor:$on_true,
                       Rlx_Tensor:$on_false);
  let results = (outs Rlx_Tensor:$result);
  let assemblyFormat = [{
    $condition `,` $on_true `,` $on_false attr-dict `:`
    functional-type(operands, results)
  }];
}

def Rlx_FmaOp : Rlx_BroadcastOp<"fma", "::mlir::Type()", [{
  return b.fma(operands[0], operands[1], operands[2]);
}], "", [SameOperandsElementType]> {
  let summary = "fused multiply-add with a single rounding";
  let description = [{
    `result = a * b + c` rounded once, over the numpy-style broadcast of the
    three operands.
  }];
  let arguments = (ins Rlx_FloatTensor:$a, Rlx_FloatTensor:$b,
                       Rlx_FloatTensor:$c);
  let results = (outs Rlx_FloatTensor:$result);
  let assemblyFormat =
    "$a `,` $b `,` $c attr-dict `:` functional-type(operands, results)";
}

def Rlx_CastOp : Rlx_ElementwiseOp<"cast", [SameOperandsAndResultShape]> {
  let summary = "elementwise conversion to the result element type";
  let description = [{
    Converts each element to the element type of the result. Floats round to
    nearest even; float to integer truncates toward zero and saturates at the
    integer range, with NaN giving 0; anything to `i1` is `x != 0`; `i1` to a
    number gives 0 or 1; integers convert as signed, and narrowing an integer
    keeps its low bits (two's complement wrap-around, as in C and PyTorch).
  }];
  let arguments = (ins Rlx_Tensor:$input);
  let results = (outs Rlx_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let extraClassDefinition = [{
    ::mlir::Value CastOp::buildScalar(::mlir::rlx::ScalarBuilder &b,
                                      ::mlir::ValueRange operands) {
      // Straight to the storage type: f64 -> f16 must round once.
      return b.convert(operands[0], getType().getElementType());
    }
    ::mlir::OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
      if (getInput().getType() == getType())
        return getInput();
      // arith declines to fold inexact float truncations; rlx.cast defines
      // them as round-to-nearest-even.
      if (auto floats = ::llvm::dyn_cast_or_null<::mlir::DenseFPElementsAttr>(
              adaptor.getInput()))
        if (auto to = ::llvm::dyn_cast<::mlir::FloatType>(
                getType().getElementType()))
          return ::mlir::rlx::convertFloatElements(floats, to);
      return ::mlir::rlx::foldElementwise(*this, adaptor.getOperands());
    }
  }];
}

def Rlx_ClampOp : Rlx_ElementwiseOp<"clamp",
    [SameOperandsAndResultType, Elementwise]> {
  let summary = "elementwise clamp to [min, max]";
  let description = [{
    `result = min(max(x, min), max)`; either bound may be omitted. For
    integer tensors the bounds are truncated toward zero. NaN stays NaN.
  }];
  let arguments = (ins Rlx_NumberTensor:$input, OptionalAttr<F64Attr>:$min,
                       OptionalAttr<F64Attr>:$max);
  let results = (outs Rlx_NumberTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasVerifier = 1;
}

def Rlx_StopGradientOp : Rlx_ElementwiseOp<"stop_gradient",
    [SameOperandsAndResultType, Elementwise]> {
  let summary = "identity whose gradient is zero";
  let description = [{
    Returns its input unchanged. Automatic differentiation does not propagate
    gradients through it, so it is never folded away at the graph level.
  }];
  let arguments = (ins Rlx_Tensor:$input);
  let results = (outs Rlx_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasFolder = 0;
}

//===----------------------------------------------------------------------===//
// Contractions and reductions
//===----------------------------------------------------------------------===//

def Rlx_MatmulOp : Rlx_Op<"matmul", [Pure, Rlx_ShapeRule, InferTypeOpAdaptor,
                                     Rlx_ContractionOpInterface,
                                     SameOperandsElementType]> {
  let summary = "batched matrix product with broadcast batch dimensions";
  let description = [{
    `[..., M, K] x [..., K, N] -> [..., M, N]`. Both operands have rank >= 2;
    their batch dimensions (all but the last two) broadcast numpy-style.
    Low-precision floats (f16, bf16) accumulate in f32.
  }];
  let arguments = (ins Rlx_NumberTensor:$lhs, Rlx_NumberTensor:$rhs);
  let results = (outs Rlx_NumberTensor:$result);
  let assemblyFormat =
    "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
}

def Rlx_ReduceOp : Rlx_Op<"reduce", [Pure, Rlx_ShapeRule, InferTypeOpAdaptor,
    DeclareOpInterfaceMethods<Rlx_ReductionOpInterface>]> {
  let summary = "reduction over a set of axes";
  let description = [{
    Reduces `input` over `axes` (distinct, each in `[-rank, rank)`) with
    `kind` (sum, mean, max, min, prod). With `keep_dim` the reduced axes stay
    as size-1 dimensions. `mean` requires a floating-point input. Reducing a
    zero-length axis gives the combiner's identity (0, 1, -inf, +inf) and NaN
    for the mean.
  }];
  let arguments = (ins Rlx_NumberTensor:$input, Rlx_ReduceKind:$kind,
                       DenseI64ArrayAttr:$axes, UnitAttr:$keep_dim);
  let results = (outs Rlx_NumberTensor:$result);
  let assemblyFormat = [{
    $kind $input `axes` `=` $axes (`keep_dim` $keep_dim^)? attr-dict `:`
    type($input) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The reduced axes, normalized to [0, rank) and sorted.
    ::llvm::SmallVector<int64_t> getNormalizedAxes();
  }];
}

class Rlx_SoftmaxLikeOp<string mnemonic, string formula>
    : Rlx_Op<mnemonic, [Pure, SameOperandsAndResultType,
        Rlx_SymbolicShapeOpInterface,
        DeclareOpInterfaceMethods<Rlx_RowOpInterface>]> {
  let summary = mnemonic # " along one axis";
  let description = "Computes `" # formula # "` along `axis` (in `[-rank, "
    "rank)`), subtracting the maximum first so that large inputs do not "
    "overflow.";
  let arguments = (ins Rlx_FloatTensor:$input, Rlx_I64Attr:$axis);
  let results = (outs Rlx_FloatTensor:$result);
  let assemblyFormat = "$input `axis` `=` $axis attr-dict `:` type($input)";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// `axis` normalized to [0, rank).
    int64_t getNormalizedAxis() {
      int64_t rank = getType().getRank();
      return getAxis() < 0 ? getAxis() + rank : getAxis();
    }
  }];
}

def Rlx_SoftmaxOp
    : Rlx_SoftmaxLikeOp<"softmax", "exp(x - max) / sum(exp(x - max))">;
def Rlx_LogSoftmaxOp
    : Rlx_SoftmaxLikeOp<"log_softmax", "x - max - log(sum(exp(x - max)))">;

//===----------------------------------------------------------------------===//
// Shape and data movement
//===----------------------------------------------------------------------===//

def Rlx_ConstantOp : Rlx_Op<"constant", [Pure, ConstantLike,
    AllTypesMatch<["value", "result"]>]> {
  let summary = "constant tensor";
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Rlx_Tensor:$result);
  let assemblyFormat = "$value attr-dict";
  let hasFolder = 1;
}

def Rlx_ReshapeOp : Rlx_Op<"reshape", [Pure, Rlx_ShapeRule,
    AllElementTypesMatch<["input", "result"]>]> {
  let summary = "row-major reshape to the result type";
  let description = [{
    Reinterprets the elements of `input`, in row-major order, with the shape
    of the result. Both shapes have the same number of elements.

    With `n` dynamic (`?`) result sizes, the first `n - 1` are the first
    `n - 1` dynamic sizes of the input, in order (a row-major reshape keeps
    the order of the dimensions it does not merge or split), and the last is
    what the element count leaves, which must divide evenly at run time:
    `[?, ?, 512] -> [?, ?, 8, 64]` keeps batch and sequence,
    `[?, ?, 64] -> [?, 64]` merges them, `[?, 32, ?, ?] -> [?, 4, 8, ?, ?]`
    splits the static channels of an image batch.
  }];
  let arguments = (ins Rlx_Tensor:$input);
  let results = (outs Rlx_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
}

def Rlx_TransposeOp : Rlx_Op<"transpose", [Pure, Rlx_ShapeRule,
                                           InferTypeOpAdaptor]> {
  let summary = "permutation of the dimensions";
  let description = [{
    `result` dimension `i` is `input` dimension `permutation[i]`.
  }];
  let arguments = (ins Rlx_Tensor:$input, DenseI64ArrayAttr:$permutation);
  let results = (outs Rlx_Tensor:$result);
  let assemblyFormat = [{
    $input $permutation attr-dict `:` type($input) `->` type($result)
  }];
  let hasFolder = 1;
}

def Rlx_ExpandOp : Rlx_Op<"expand", [Pure, Rlx_ShapeRule,
    AllElementTypesMatch<["input", "result"]>]> {
  let summary = "broadcast to the result shape";
  let description = [{
    Broadcasts `input` numpy-style to the shape of the result: missing
    leading dimensions are added and size-1 dimensions repeated. A `?`
    input size is not repeated: the result size there is the same.

    With `like`, the result has the shape of `like` (whose values are not
    read): this is how a size-1 dimension broadcasts to a run-time size,
    as the gradient of a sum over a `?` axis does. Each input size that is
    not 1 must equal `like`'s.

    ```mlir
    %0 = rlx.expand %b : tensor<16xf32> -> tensor<4x16xf32>
    %1 = rlx.expand %g like %x : tensor<1x16xf32>, tensor<?x16xf32>
           -> tensor<?x16xf32>
    ```
  }];
  let arguments = (ins Rlx_Tensor:$input, Optional<Rlx_Tensor>:$like);
  let results = (outs Rlx_Tensor:$result);
  let assemblyFormat = [{
    $input (`like` $like^)? attr-dict `:` type($input) (`,` type($like)^)?
    `->` type($result)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Type":$result, "::mlir::Value":$input), [{
      build($_builder, $_state, result, input, /*like=*/::mlir::Value());
    }]>
  ];
  let hasFolder = 1;
}

def Rlx_NumelOp : Rlx_Op<"numel", [Pure, Rlx_ShapeRule]> {
  let summary = "number of elements along axes";
  let description = [{
    The product of the sizes of `input` along `axes` (distinct, each in
    `[-rank, rank)`) as a rank-0 tensor of the result's number type;
    `input`'s values are not read. Folds to a constant where those sizes
    are static; otherwise it reads the run-time sizes (the count by which
    the gradient of a mean over a `?` axis divides).

    ```mlir
    %n = rlx.numel %x axes = [0] : tensor<?x16xf32> -> tensor<f32>
    ```
  }];
  let arguments = (ins Rlx_Tensor:$input, DenseI64ArrayAttr:$axes);
  let results = (outs Rlx_NumberTensor:$result);
  let assemblyFormat = [{
    $input `axes` `=` $axes attr-dict `:` type($input) `->` type($result)
  }];
  let hasFolder = 1;
  let extraClassDeclaration = [{
    /// The counted axes, normalized to [0, rank) and sorted.
    ::llvm::SmallVector<int64_t> getNormalizedAxes();
  }];
}

def Rlx_ConcatOp : Rlx_Op<"concat", [Pure, Rlx_ShapeRule, InferTypeOpAdaptor,
                                     SameOperandsAndResultElementType]> {
  let summary = "concatenation along one axis";
  let description = [{
    Joins `inputs` along `axis` (in `[-rank, rank)`); all other dimensions
    must agree.
  }];
  let arguments = (ins Variadic<Rlx_Tensor>:$inputs, Rlx_I64Attr:$axis);
  let results = (outs Rlx_Tensor:$result);
  let assemblyFormat = [{
    $inputs `axis` `=` $axis attr-dict `:` functional-type($inputs, results)
  }];
  let hasFolder = 1;
}

def Rlx_NarrowOp : Rlx_Op<"narrow", [Pure, Rlx_ShapeRule,
                                     InferTypeOpAdaptor]> {
  let summary = "contiguous window along one axis";
  let description = [{
    Selects elements `[start, start + length)` of `axis`.
  }];
  let arguments = (ins Rlx_Tensor:$input, Rlx_I64Attr:$axis, Rlx_I64Attr:$start,
                       Rlx_I64Attr:$length);
  let results = (outs Rlx_Tensor:$result);
  let assemblyFormat = [{
    $input `axis` `=` $axis `,` `start` `=` $start `,` `length` `=` $length
    attr-dict `:` type($input) `->` type($result)
  }];
  let hasFolder = 1;
}

def Rlx_SliceOp : Rlx_Op<"slice", [Pure, Rlx_ShapeRule,
                                   InferTypeOpAdaptor]> {
  let summary = "strided window along one axis";
  let description = [{
    Output element `j` along `axis` reads input index `start + j * step` for
    `j` in `[0, length)`. `step` is non-zero and may be negative (`x[::-1]`);
    every index read lies inside the axis.
  }];
  let arguments = (ins Rlx_Tensor:$input, Rlx_I64Attr:$axis, Rlx_I64Attr:$start,
                       Rlx_I64Attr:$length, Rlx_I64Attr:$step);
  let results = (outs Rlx_Tensor:$result);
  let assemblyFormat = [{
    $input `axis` `=` $axis `,` `start` `=` $start `,` `length` `=` $length
    `,` `step` `=` $step attr-dict `:` type($input) `->` type($result)
  }];
}

//===----------------------------------------------------------------------===//
// Op families with their own files
//===----------------------------------------------------------------------===//

include "rlx/Dialect/Rlx/IR/RlxNormOps.td"
include "rlx/Dialect/Rlx/IR/RlxConvPoolOps.td"
include "rlx/Dialect/Rlx/IR/RlxIndexingOps.td"
include "rlx/Dialect/Rlx/IR/RlxRandomOps.td"
include "rlx/Dialect/Rlx/IR/RlxQuantOps.td"
include "rlx/Dialect/Rlx/IR/RlxQuantMatmulOps.td"
include "rlx/Dialect/Rlx/IR/RlxScanOps.td"
include "rlx/Dialect/Rlx/IR/RlxSortOps.td"
include "rlx/Dialect/Rlx/IR/RlxLinearAlgebraOps.td"
include "rlx/Dialect/Rlx/IR/RlxSignalOps.td"
include "rlx/Dialect/Rlx/IR/RlxSampleOps.td"
include "rlx/Dialect/Rlx/IR/RlxScatterOps.td"
include "rlx/Dialect/Rlx/IR/RlxRegionOps.td"
include "rlx/Dialect/Rlx/IR/RlxControlFlowOps.td"
include "rlx/Dialect/Rlx/IR/RlxRecurrentOps.td"
include "rlx/Dialect/Rlx/IR/RlxStateSpaceOps.td"
include "rlx/Dialect/Rlx/IR/RlxCustomOps.td"
include "rlx/Dialect/Rlx/IR/RlxSequentialOps.td"
include "rlx/Dialect/Rlx/IR/RlxMoeOps.td"
include "rlx/Dialect/Rlx/IR/RlxFusedOps.td"
include "rlx/Dialect/Rlx/IR/RlxAttentionOps.td"
include "rlx/Dialect/Rlx/IR/RlxGradSpatialOps.td"
include "rlx/Dialect/Rlx/IR/RlxGradOps.td"

#endif // RLX_DIALECT_RLX_IR_RLXOPS_TD
