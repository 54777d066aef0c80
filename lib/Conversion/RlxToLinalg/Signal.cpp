//===- Signal.cpp - FFTs and complex numbers to loops and generics --------===//
//
// Upstream MLIR has no FFT op to lower to, so the transforms become an
// scf.forall over the lines along the last axis (Utils' buildLineLoop, as
// the sorts) whose iterations run the transform's scalar loops on real and
// imaginary line buffers:
//
// - n whose prime factors are 2, 3 and 5: a mixed-radix Stockham FFT (radix
//   4 first, then 2, 3, 5). Stage s of radix p combines, for each of the L
//   frequencies of the sub-transforms so far and each residue c of the
//   r = n / L interleaved subsequences, p values twiddled by
//   exp(sign 2 pi i m j / (L p)) with a p-point DFT; it reads one buffer and
//   writes the other in natural order (no bit reversal). Twiddles are
//   constants computed in double at compile time; the p-point DFTs are
//   unrolled, their factors +-1 and +-i exact.
// - other n: Bluestein's chirp-z transform, a convolution computed by two
//   power-of-two FFTs of M >= 2n - 1 points; the chirp and the transform
//   of its convolution kernel are compile-time constants.
//
// The complex-number ops are elementwise generics on the `complex` dialect's
// create / re / im, which the LLVM conversions lower.
//
//===----------------------------------------------------------------------===//
#include "LoopBuilder.h"
#include "Utils.h"

#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Transforms/DialectConversion.h"
#include "rlx/Conversion/RlxToLinalg/RlxToLinalg.h"
#include "rlx/Dialect/Rlx/IR/BodyGenerics.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

#include "llvm/Support/MathExtras.h"

#include <complex>

using namespace mlir;
using namespace mlir::rlx;

//===----------------------------------------------------------------------===//
// Compile-time plans
//===----------------------------------------------------------------------===//

/// The radices of a Stockham FFT of `n` points (4s first), or none if `n`
/// has a prime factor above 5.
static std::optional<SmallVector<int64_t>> getRadices(int64_t n) {
  SmallVector<int64_t> radices;
  for (int64_t p : {4, 2, 3, 5})
    while (n % p == 0) {
      radices.push_back(p);
      n /= p;
    }
  if (n != 1)
    return std::nullopt;
  return radices;
}

/// exp(sign 2 pi i k / n), with the angle reduced first.
static std::complex<double> getRoot(int64_t k, int64_t n, int sign) {
  double angle = sign * 2.0 * M_PI * static_cast<double>(k % n) / n;
  return std::polar(1.0, angle);
}

/// The DFT of `x` (a power-of-two length) with exp(-2 pi i jk / n), in
/// double at compile time: Bluestein's kernel transform.
static void computeFft(MutableArrayRef<std::complex<double>> x) {
  int64_t n = x.size();
  if (n == 1)
    return;
  SmallVector<std::complex<double>> even, odd;
  for (int64_t i = 0; i < n; i += 2) {
    even.push_back(x[i]);
    odd.push_back(x[i + 1]);
  }
  computeFft(even);
  computeFft(odd);
  for (int64_t k = 0; k < n / 2; ++k) {
    std::complex<double> t = getRoot(k, n, -1) * odd[k];
    x[k] = even[k] + t;
    x[k + n / 2] = even[k] - t;
  }
}

//===----------------------------------------------------------------------===//
// Scalar code of one line
//===----------------------------------------------------------------------===//

namespace {
/// A line of complex numbers as its real and imaginary parts, 1-D tensors
/// of the real element type.
struct ComplexLine {
  Value re, im;
};

/// Builds the transforms of one line.
class FftBuilder : public LoopBuilder {
public:
  using LoopBuilder::LoopBuilder;

  /// The unscaled DFT of the `n` points of `line`, with the root
  /// exp(sign 2 pi i / n).
  ComplexLine transform(ComplexLine line, int64_t n, int sign) {
    if (std::optional<SmallVector<int64_t>> radices = getRadices(n))
      return stockham(line, n, *radices, sign);
    return bluestein(line, n, sign);
  }

  /// An uninitialized line of `n` points.
  ComplexLine createLine(int64_t n) {
    return {tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{n}, element),
            tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{n}, element)};
  }

  /// A 1-D constant of `values`, rounded to the element type.
  Value createTable(ArrayRef<double> values) {
    auto type =
        RankedTensorType::get({static_cast<int64_t>(values.size())}, element);
    SmallVector<Attribute> attrs;
    for (double value : values)
      attrs.push_back(b.getFloatAttr(element, value));
    return arith::ConstantOp::create(b, loc,
                                     DenseElementsAttr::get(type, attrs));
  }
  ComplexLine createTable(ArrayRef<std::complex<double>> values) {
    SmallVector<double> re, im;
    for (std::complex<double> value : values) {
      re.push_back(value.real());
      im.push_back(value.imag());
    }
    return {createTable(re), createTable(im)};
  }

  std::pair<Value, Value> read(ComplexLine line, Value i) {
    return {LoopBuilder::read(line.re, i), LoopBuilder::read(line.im, i)};
  }
  ComplexLine write(ComplexLine line, Value i, Value re, Value im) {
    return {LoopBuilder::write(re, line.re, i),
            LoopBuilder::write(im, line.im, i)};
  }
  std::pair<Value, Value> multiply(std::pair<Value, Value> x,
                                   std::pair<Value, Value> y) {
    return {sub(mul(x.first, y.first), mul(x.second, y.second)),
            add(mul(x.first, y.second), mul(x.second, y.first))};
  }

private:
  Value indexOf(Value base, int64_t scale, Value term) {
    return addI(base, arith::MulIOp::create(b, loc, term, index(scale)));
  }

  /// `sum + root * t` for a compile-time root, exact for +-1 and +-i.
  std::pair<Value, Value> addRotated(std::pair<Value, Value> sum,
                                     std::pair<Value, Value> t,
                                     std::complex<double> root) {
    auto [re, im] = t;
    constexpr double kExact = 1e-12;
    if (std::abs(root.imag()) < kExact)
      return root.real() > 0
                 ? std::pair{add(sum.first, re), add(sum.second, im)}
                 : std::pair{sub(sum.first, re), sub(sum.second, im)};
    if (std::abs(root.real()) < kExact)
      // i (re + i im) = -im + i re.
      return root.imag() > 0
                 ? std::pair{sub(sum.first, im), add(sum.second, re)}
                 : std::pair{add(sum.first, im), sub(sum.second, re)};
    std::pair<Value, Value> rotated =
        multiply(t, {constant(root.real()), constant(root.imag())});
    return {add(sum.first, rotated.first), add(sum.second, rotated.second)};
  }

  /// The mixed-radix Stockham FFT (see the file comment): `in` is read,
  /// each stage writes a new line.
  ComplexLine stockham(ComplexLine in, int64_t n, ArrayRef<int64_t> radices,
                       int sign) {
    int64_t l = 1, r = n;
    for (int64_t p : radices) {
      int64_t lp = l * p, rp = r / p;
      // twiddles[j * p + m] = exp(sign 2 pi i m j / (L p)).
      SmallVector<std::complex<double>> twiddles;
      for (int64_t j = 0; j < l; ++j)
        for (int64_t m = 0; m < p; ++m)
          twiddles.push_back(getRoot(m * j, lp, sign));
      ComplexLine table = createTable(twiddles);
      ComplexLine source = in;
      ComplexLine out = createLine(n);
      SmallVector<Value> written = loop(
          index(0), index(l), {out.re, out.im}, [&](Value j, ValueRange jLine) {
            return loop(
                index(0), index(rp), jLine,
                [&](Value c, ValueRange line) -> SmallVector<Value> {
                  // t_m = twiddle * source[j r + c + rp m].
                  Value base = indexOf(c, r, j);
                  SmallVector<std::pair<Value, Value>> t;
                  for (int64_t m = 0; m < p; ++m) {
                    std::pair<Value, Value> x =
                        read(source, indexOf(base, rp, index(m)));
                    if (m > 0 && l > 1)
                      x = multiply(x, read(table, indexOf(index(m), p, j)));
                    t.push_back(x);
                  }
                  // out[(j + L q) rp + c] = sum_m t_m exp(sign 2 pi i mq/p).
                  // (The root of t_0 is 1: the sums start from it.)
                  ComplexLine target{line[0], line[1]};
                  for (int64_t q = 0; q < p; ++q) {
                    std::pair<Value, Value> sum = t[0];
                    for (int64_t m = 1; m < p; ++m)
                      sum = addRotated(sum, t[m], getRoot(m * q, p, sign));
                    Value position = indexOf(c, rp, addI(j, index(l * q)));
                    target = write(target, position, sum.first, sum.second);
                  }
                  return {target.re, target.im};
                });
          });
      in = {written[0], written[1]};
      l = lp;
      r = rp;
    }
    return in;
  }

  /// Bluestein: X_k = conj(b_k) sum_j (x_j conj(b_j)) b_(k-j), b_m =
  /// exp(-sign pi i m^2 / n), the convolution by M-point FFTs.
  ComplexLine bluestein(ComplexLine in, int64_t n, int sign) {
    int64_t m = llvm::PowerOf2Ceil(2 * n - 1);
    SmallVector<std::complex<double>> chirp, kernel(m);
    for (int64_t k = 0; k < n; ++k)
      // k^2 mod 2n keeps the angle small and exact.
      chirp.push_back(getRoot((k * k) % (2 * n), 2 * n, -sign));
    for (int64_t k = 0; k < n; ++k) {
      kernel[k] = chirp[k];
      if (k > 0)
        kernel[m - k] = chirp[k];
    }
    computeFft(kernel);
    ComplexLine chirpTable = createTable(chirp);
    ComplexLine kernelTable = createTable(kernel);
    auto conjugate = [&](std::pair<Value, Value> z) {
      return std::pair{z.first, neg(z.second)};
    };
    // a = x conj(b), zero past n.
    ComplexLine a = createLine(m);
    SmallVector<Value> padded =
        loop(index(0), index(n), {a.re, a.im},
             [&](Value j, ValueRange line) -> SmallVector<Value> {
               auto [re, im] =
                   multiply(read(in, j), conjugate(read(chirpTable, j)));
               ComplexLine written = write({line[0], line[1]}, j, re, im);
               return {written.re, written.im};
             });
    Value zero = constant(0.0);
    padded =
        loop(index(n), index(m), padded,
             [&](Value j, ValueRange line) -> SmallVector<Value> {
               ComplexLine written = write({line[0], line[1]}, j, zero, zero);
               return {written.re, written.im};
             });
    SmallVector<int64_t> radices = *getRadices(m);
    ComplexLine spectrum = stockham({padded[0], padded[1]}, m, radices, -1);
    ComplexLine product = createLine(m);
    SmallVector<Value> multiplied =
        loop(index(0), index(m), {product.re, product.im},
             [&](Value j, ValueRange line) -> SmallVector<Value> {
               auto [re, im] =
                   multiply(read(spectrum, j), read(kernelTable, j));
               ComplexLine written = write({line[0], line[1]}, j, re, im);
               return {written.re, written.im};
             });
    ComplexLine convolution =
        stockham({multiplied[0], multiplied[1]}, m, radices, 1);
    // X_k = conj(b_k) convolution_k / M.
    Value scale = constant(1.0 / m);
    ComplexLine out = createLine(n);
    SmallVector<Value> result =
        loop(index(0), index(n), {out.re, out.im},
             [&](Value k, ValueRange line) -> SmallVector<Value> {
               auto [re, im] = multiply(read(convolution, k),
                                        conjugate(read(chirpTable, k)));
               ComplexLine written =
                   write({line[0], line[1]}, k, mul(re, scale), mul(im, scale));
               return {written.re, written.im};
             });
    return {result[0], result[1]};
  }
};
} // namespace

/// The factor `norm` scales a transform of `n` points by: the forward
/// transforms (fft, rfft) are unscaled by default, the inverse ones divided
/// by n.
static double getScale(FftNorm norm, int64_t n, bool inverse) {
  switch (norm) {
  case FftNorm::Backward:
    return inverse ? 1.0 / n : 1.0;
  case FftNorm::Forward:
    return inverse ? 1.0 : 1.0 / n;
  case FftNorm::Ortho:
    return 1.0 / std::sqrt(static_cast<double>(n));
  }
  llvm_unreachable("every FftNorm case is handled above");
}

static Value createComplex(OpBuilder &b, Location loc, Type complexType,
                           Value re, Value im) {
  return complex::CreateOp::create(b, loc, complexType, re, im);
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

namespace {
/// rlx.fft, rlx.ifft, rlx.rfft and rlx.irfft: a line loop over the last
/// axis; each line is loaded into real and imaginary buffers (the Hermitian
/// extension for irfft), transformed, scaled and stored.
template <typename OpTy> struct FftToLoops : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;
  static constexpr bool kInverse =
      std::is_same_v<OpTy, IfftOp> || std::is_same_v<OpTy, IrfftOp>;
  static constexpr bool kRealInput = std::is_same_v<OpTy, RfftOp>;
  static constexpr bool kRealOutput = std::is_same_v<OpTy, IrfftOp>;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    RankedTensorType resultType = op.getType();
    int64_t axis = inputType.getRank() - 1;
    // The transform's length: the real signal's for rfft and irfft.
    int64_t n = kRealInput    ? inputType.getShape().back()
                : kRealOutput ? resultType.getShape().back()
                              : inputType.getShape().back();
    Type real = getElementTypeOrSelf(kRealOutput ? resultType : inputType);
    if (auto complex = dyn_cast<ComplexType>(real))
      real = complex.getElementType();
    Type complexType = ComplexType::get(real);
    SmallVector<OpFoldResult> sizes =
        tensor::getMixedSizes(rewriter, loc, input);
    sizes.back() = rewriter.getIndexAttr(resultType.getShape().back());
    Value init =
        createEmptyTensor(rewriter, loc, sizes, resultType.getElementType());
    double scale = getScale(op.getNorm(), n, kInverse);
    int64_t outputs = resultType.getShape().back();
    SmallVector<Value> results = buildLineLoop(
        rewriter, loc, input, axis, init,
        [&](OpBuilder &b, Location loc, Value line,
            ValueRange inits) -> SmallVector<Value> {
          FftBuilder fb(b, loc, real);
          ComplexLine signal = load(fb, line, n);
          ComplexLine spectrum = fb.transform(signal, n, kInverse ? 1 : -1);
          Value factor = fb.constant(scale);
          return {fb.loop(fb.index(0), fb.index(outputs), inits[0],
                          [&](Value k, Value out) {
                            auto [re, im] = fb.read(spectrum, k);
                            Value value =
                                kRealOutput ? fb.mul(re, factor)
                                            : createComplex(b, loc, complexType,
                                                            fb.mul(re, factor),
                                                            fb.mul(im, factor));
                            return fb.LoopBuilder::write(value, out, k);
                          })};
        });
    rewriter.replaceOp(op, results);
    return success();
  }

  /// The `n` points to transform from the line: the complex line, the real
  /// line with zero imaginary parts (rfft), or the Hermitian extension of
  /// the line's first n / 2 + 1 bins, zeros past its end (irfft).
  static ComplexLine load(FftBuilder &fb, Value line, int64_t n) {
    OpBuilder &b = fb.builder();
    Location loc = fb.location();
    ComplexLine points = fb.createLine(n);
    Value zero = fb.constant(0.0);
    auto element = [&](Value i) -> std::pair<Value, Value> {
      Value z = fb.LoopBuilder::read(line, i);
      return {complex::ReOp::create(b, loc, z),
              complex::ImOp::create(b, loc, z)};
    };
    Value available = fb.size(line, 0);
    SmallVector<Value> loaded = fb.loop(
        fb.index(0), fb.index(n), {points.re, points.im},
        [&](Value j, ValueRange carried) -> SmallVector<Value> {
          ComplexLine target{carried[0], carried[1]};
          if (kRealInput)
            target = fb.write(target, j, fb.LoopBuilder::read(line, j), zero);
          else if (!kRealOutput) {
            auto [re, im] = element(j);
            target = fb.write(target, j, re, im);
          } else {
            target = loadHermitian(fb, line, available, n, j, target, element);
          }
          return {target.re, target.im};
        });
    return {loaded[0], loaded[1]};
  }

  /// Point j of the Hermitian extension: bin j for j <= n / 2, the
  /// conjugate of bin n - j above; 0 for a bin past the line's end.
  static ComplexLine
  loadHermitian(FftBuilder &fb, Value line, Value available, int64_t n, Value j,
                ComplexLine target,
                function_ref<std::pair<Value, Value>(Value)> element) {
    OpBuilder &b = fb.builder();
    Location loc = fb.location();
    Value zero = fb.constant(0.0);
    Value upper = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, j,
                                        fb.index(n / 2));
    Value bin = fb.select(upper, fb.subI(fb.index(n), j), j);
    Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, bin,
                                         available);
    SmallVector<Value> value = fb.ifElse(
        inside,
        [&]() -> SmallVector<Value> {
          auto [re, im] = element(bin);
          return {re, fb.select(upper, fb.neg(im), im)};
        },
        [&]() -> SmallVector<Value> {
          return {zero, zero};
        });
    return fb.write(target, j, value[0], value[1]);
  }
};

/// An elementwise generic over `inputs` (of one shape) into a tensor of
/// `resultType`, its body `compute` of the inputs' elements.
static Value createElementwise(
    OpBuilder &b, Location loc, ValueRange inputs, RankedTensorType resultType,
    function_ref<Value(OpBuilder &, Location, ValueRange)> compute) {
  int64_t rank = resultType.getRank();
  Value init =
      createEmptyTensor(b, loc, tensor::getMixedSizes(b, loc, inputs[0]),
                        resultType.getElementType());
  SmallVector<AffineMap> maps(inputs.size() + 1,
                              b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, resultType, inputs, init, maps, iterators,
             [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
               linalg::YieldOp::create(
                   nested, nestedLoc,
                   compute(nested, nestedLoc, args.drop_back()));
             })
      .getResult(0);
}

/// The complex-number ops, one generic each.
template <typename OpTy> struct ComplexToLinalg : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = op.getType();
    Value result = createElementwise(
        rewriter, op.getLoc(), adaptor.getOperands(), type,
        [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          return compute(b, loc, type.getElementType(), args);
        });
    rewriter.replaceOp(op, result);
    return success();
  }

  static Value compute(OpBuilder &b, Location loc, Type element,
                       ValueRange args) {
    if constexpr (std::is_same_v<OpTy, ComplexOp>)
      return createComplex(b, loc, element, args[0], args[1]);
    if constexpr (std::is_same_v<OpTy, RealOp>)
      return complex::ReOp::create(b, loc, args[0]);
    if constexpr (std::is_same_v<OpTy, ImagOp>)
      return complex::ImOp::create(b, loc, args[0]);
    Value re = complex::ReOp::create(b, loc, args[0]);
    Value im = complex::ImOp::create(b, loc, args[0]);
    if constexpr (std::is_same_v<OpTy, ConjugateOp>)
      return createComplex(b, loc, element, re,
                           arith::NegFOp::create(b, loc, im));
    return arith::AddFOp::create(b, loc, arith::MulFOp::create(b, loc, re, re),
                                 arith::MulFOp::create(b, loc, im, im));
  }
};
} // namespace

void mlir::rlx::populateSignalToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<FftToLoops<FftOp>, FftToLoops<IfftOp>, FftToLoops<RfftOp>,
               FftToLoops<IrfftOp>, ComplexToLinalg<ComplexOp>,
               ComplexToLinalg<RealOp>, ComplexToLinalg<ImagOp>,
               ComplexToLinalg<ConjugateOp>, ComplexToLinalg<ComplexNormSqOp>>(
      patterns.getContext());
}
