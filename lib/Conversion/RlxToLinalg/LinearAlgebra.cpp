//===- LinearAlgebra.cpp - Solvers and factorizations to loops ------------===//
//
// Factorizations are sequential within a matrix and linalg has no op for
// them (upstream MLIR has no LAPACK-like dialect; IREE calls out to
// libraries or runs them as scalar loops too), so each op becomes an
// scf.forall over its batch whose iterations run the algorithm's scalar
// scf loops on their matrix, as `Sort.cpp` does for lines: one-shot
// bufferization writes them in place, the CPU pipeline runs the forall on
// its threads and the GPU pipeline as a kernel of a thread per matrix. Each
// matrix is its own problem, so results do not depend on the thread count.
//
// Every loop carries the tensors it writes (tensor.insert in place); a
// matrix the algorithm overwrites (the LU factors, the right-hand sides)
// is an output of the forall initialized with its input, so bufferization
// copies it once for the whole batch rather than per matrix.
//
// - cholesky: the column-by-column (left-looking) algorithm, dot products
//   of rows of the factor (contiguous); n^3/3 multiply-adds.
// - triangular_solve: substitution row by row, in place in the right-hand
//   sides (forwards for a lower op(a), backwards for an upper one), each
//   solved row subtracted along the rows (contiguous).
// - solve, det, logdet: LU with partial pivoting (the first element of
//   largest magnitude in the column, LAPACK's choice), right-looking;
//   solve eliminates its right-hand sides with the rows (L^-1 P b) and
//   back-substitutes with U. A zero pivot (the column below it is zero
//   too) eliminates nothing, so the determinant is exactly 0.
//
// These are the reference schedules: blocked factorizations whose trailing
// updates are matmuls (the codegen layer's fast path) are the planned
// replacement for large matrices.
//
//===----------------------------------------------------------------------===//
#include "LoopBuilder.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"
#include "rlx/Conversion/RlxToLinalg/RlxToLinalg.h"
#include "rlx/Dialect/Rlx/IR/BodyGenerics.h"
#include "rlx/Dialect/Rlx/IR/RlxOps.h"

using namespace mlir;
using namespace mlir::rlx;

//===----------------------------------------------------------------------===//
// Scalar code on one matrix
//===----------------------------------------------------------------------===//

namespace {
/// The scalar code of one matrix: LoopBuilder's, and the row operations the
/// factorizations share.
class MatrixBuilder : public LoopBuilder {
public:
  using LoopBuilder::LoopBuilder;

  /// The plane rotation (c, s) whose tangent is t =
  /// sign(z) / (|z| + sqrt(1 + z^2)), the smaller root of t^2 + 2zt = 1
  /// (Golub & Van Loan's sym.schur2), or the identity where `rotate` is
  /// false.
  struct Rotation {
    Value cosine, sine;
  };
  Rotation rotation(Value z, Value rotate) {
    Value one = constant(1.0);
    Value sign = select(compare(arith::CmpFPredicate::OGE, z, constant(0.0)),
                        one, constant(-1.0));
    Value t = div(sign, add(abs(z), sqrt(add(one, mul(z, z)))));
    t = select(rotate, t, constant(0.0));
    Value c = div(one, sqrt(add(one, mul(t, t))));
    return {c, mul(t, c)};
  }

  /// `matrix` with rows `r` and `s` replaced by c r - s s and s r + c s.
  Value rotateRows(Value matrix, Value r, Value s, Value cosine, Value sine) {
    return loop(index(0), size(matrix, 1), matrix, [&](Value j, Value m) {
      Value atR = read(m, {r, j}), atS = read(m, {s, j});
      m = write(sub(mul(cosine, atR), mul(sine, atS)), m, {r, j});
      return write(add(mul(sine, atR), mul(cosine, atS)), m, {s, j});
    });
  }

  /// The identity matrix written into the 2-D `matrix` (ones on the main
  /// diagonal of a possibly rectangular matrix).
  Value identity(Value matrix) {
    Value one = constant(1.0), zero = constant(0.0);
    return loop(index(0), size(matrix, 0), matrix, [&](Value i, Value m) {
      return loop(index(0), size(matrix, 1), m, [&](Value j, Value m) {
        return write(select(equalI(i, j), one, zero), m, {i, j});
      });
    });
  }

  /// -1 where the element of largest magnitude of row `i` of `matrix` (the
  /// first such) is negative, else 1: the factor that fixes the sign of a
  /// vector stored as that row.
  Value rowSign(Value matrix, Value i) {
    Value zero = constant(0.0);
    SmallVector<Value> largest = loop(
        index(0), size(matrix, 1), {zero, zero},
        [&](Value j, ValueRange best) -> SmallVector<Value> {
          Value x = read(matrix, {i, j});
          Value larger = compare(arith::CmpFPredicate::OGT, abs(x), best[0]);
          return {select(larger, abs(x), best[0]), select(larger, x, best[1])};
        });
    return select(compare(arith::CmpFPredicate::OLT, largest[1], zero),
                  constant(-1.0), constant(1.0));
  }

  /// Sorts the 1-D `values` (ascending, or `descending`) by selection,
  /// exchanging the rows of each of `matrices` alike; returns the sorted
  /// values, then the matrices. NaNs stay where no comparison moves them.
  SmallVector<Value> sortWithRows(Value values, ValueRange matrices,
                                  bool descending) {
    Value n = size(values, 0);
    auto predicate =
        descending ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT;
    SmallVector<Value> inits = {values};
    llvm::append_range(inits, matrices);
    return loop(index(0), n, inits,
                [&](Value i, ValueRange carried) -> SmallVector<Value> {
                  Value values = carried[0];
                  Value pick =
                      loop(addI(i, index(1)), n, {i, read(values, {i})},
                           [&](Value j, ValueRange best) -> SmallVector<Value> {
                             Value x = read(values, {j});
                             Value better = compare(predicate, x, best[1]);
                             return {select(better, j, best[0]),
                                     select(better, x, best[1])};
                           })
                          .front();
                  Value atI = read(values, {i}), atPick = read(values, {pick});
                  SmallVector<Value> sorted = {
                      write(atI, write(atPick, values, {i}), {pick})};
                  for (Value matrix : carried.drop_front())
                    sorted.push_back(swapRows(matrix, i, pick));
                  return sorted;
                });
  }

  /// `matrix` with rows `r` and `s` exchanged.
  Value swapRows(Value matrix, Value r, Value s) {
    return loop(index(0), size(matrix, 1), matrix, [&](Value j, Value m) {
      Value atR = read(m, {r, j}), atS = read(m, {s, j});
      return write(atR, write(atS, m, {r, j}), {s, j});
    });
  }
};
} // namespace

/// The results of `body` run on every matrix of a batch: an scf.forall over
/// the `batchRank` leading dimensions of `outputs` (initialized with them)
/// whose iteration extracts the slices at its position of `inputs` and
/// `outputs` (their trailing dimensions: matrices, or 0-D tensors for one
/// number per matrix) and inserts the slices `body` returns for the
/// outputs. Without batch dimensions `body` runs once, on the tensors;
/// for empty matrices it does not run.
static SmallVector<Value>
buildMatrixLoop(OpBuilder &b, Location loc, int64_t batchRank,
                ValueRange inputs, ValueRange outputs,
                function_ref<SmallVector<Value>(OpBuilder &, Location,
                                                ValueRange, ValueRange)>
                    body) {
  // Empty matrices (a static 0 among the matrix sizes; `?` sizes that are
  // 0 run loops of no iteration) leave the outputs as initialized, and
  // must: their slices would start past the end.
  auto hasEmptyMatrices = [&](Value tensor) {
    ArrayRef<int64_t> shape =
        cast<RankedTensorType>(tensor.getType()).getShape();
    return llvm::is_contained(shape.drop_front(batchRank), 0);
  };
  if (llvm::any_of(inputs, hasEmptyMatrices) ||
      llvm::any_of(outputs, hasEmptyMatrices))
    return llvm::to_vector(outputs);
  if (batchRank == 0)
    return body(b, loc, inputs, outputs);

  SmallVector<OpFoldResult> batch = tensor::getMixedSizes(b, loc, outputs[0]);
  batch.resize(batchRank);
  auto forall =
      scf::ForallOp::create(b, loc, batch, outputs, /*mapping=*/std::nullopt);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(forall.getBody());
  SmallVector<Value> ivs = forall.getInductionVars();
  // A tensor's slice at the loop's position: the batch dimensions at their
  // induction variables, the others whole.
  auto sliceSizes = [&](Value tensor) {
    SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, tensor);
    std::fill_n(sizes.begin(), batchRank, b.getIndexAttr(1));
    return sizes;
  };
  auto sliceOffsets = [&](Value tensor) {
    int64_t rank = cast<RankedTensorType>(tensor.getType()).getRank();
    SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
    for (int64_t d = 0; d < batchRank; ++d)
      offsets[d] = ivs[d];
    return offsets;
  };
  auto sliceStrides = [&](Value tensor) {
    int64_t rank = cast<RankedTensorType>(tensor.getType()).getRank();
    return SmallVector<OpFoldResult>(rank, b.getIndexAttr(1));
  };
  auto extractSlice = [&](Value tensor) -> Value {
    auto type = cast<RankedTensorType>(tensor.getType());
    auto sliceType = RankedTensorType::get(
        type.getShape().drop_front(batchRank), type.getElementType());
    return tensor::ExtractSliceOp::create(
        b, loc, sliceType, tensor, sliceOffsets(tensor), sliceSizes(tensor),
        sliceStrides(tensor));
  };
  SmallVector<Value> inputSlices = llvm::map_to_vector(inputs, extractSlice);
  SmallVector<Value> outputSlices =
      llvm::map_to_vector(forall.getRegionIterArgs(), extractSlice);
  SmallVector<Value> results = body(b, loc, inputSlices, outputSlices);
  // The terminator holds nothing but the inserts: sizes are read before it.
  SmallVector<SmallVector<OpFoldResult>> insertSizes =
      llvm::map_to_vector(forall.getRegionIterArgs(), sliceSizes);
  b.setInsertionPointToStart(forall.getTerminator().getBody());
  for (auto [result, dest, sizes] :
       llvm::zip_equal(results, forall.getRegionIterArgs(), insertSizes))
    tensor::ParallelInsertSliceOp::create(
        b, loc, result, dest, sliceOffsets(dest), sizes, sliceStrides(dest));
  return forall.getResults();
}

static int64_t getBatchRank(Value matrices) {
  return cast<RankedTensorType>(matrices.getType()).getRank() - 2;
}

/// An uninitialized tensor of `type` with the sizes of `like`'s leading
/// dimensions (`type`'s rank of them) where `type` has `?`.
static Value createEmptyLike(OpBuilder &b, Location loc, RankedTensorType type,
                             Value like) {
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, like);
  sizes.resize(type.getRank());
  return createEmptyTensor(b, loc, sizes, type.getElementType());
}

//===----------------------------------------------------------------------===//
// The algorithms on one matrix
//===----------------------------------------------------------------------===//

/// The Cholesky factor of `a` written into `l` (zero above the diagonal).
static Value buildCholesky(MatrixBuilder &mb, Value a, Value l) {
  Value zero = mb.constant(0.0), n = mb.size(a, 0);
  return mb.loop(mb.index(0), n, l, [&](Value j, Value l) {
    // The pivot: what remains of a[j, j] after the columns before j.
    Value squares = mb.sum(mb.index(0), j, zero, [&](Value k, Value sum) {
      Value ljk = mb.read(l, {j, k});
      return mb.add(sum, mb.mul(ljk, ljk));
    });
    Value pivot = mb.sub(mb.read(a, {j, j}), squares);
    // Not positive (or NaN): NaN, which every later column inherits.
    Value diagonal =
        mb.select(mb.compare(arith::CmpFPredicate::OGT, pivot, zero),
                  mb.sqrt(pivot), mb.nan());
    l = mb.write(diagonal, l, {j, j});
    return mb.loop(mb.addI(j, mb.index(1)), n, l, [&](Value i, Value l) {
      Value dot = mb.sum(mb.index(0), j, zero, [&](Value k, Value sum) {
        return mb.add(sum, mb.mul(mb.read(l, {i, k}), mb.read(l, {j, k})));
      });
      Value below = mb.div(mb.sub(mb.read(a, {i, j}), dot), diagonal);
      return mb.write(below, l, {i, j});
    });
  });
}

/// `x` (holding the right-hand sides) overwritten with the solution of
/// op(a) x = b, op(a) triangular: `lower` if its nonzero triangle is below
/// the diagonal (of op(a), so a transposed upper `a` is lower), `transpose`
/// to read a^T, `unitDiagonal` to take the diagonal as 1.
static Value buildTriangularSolve(MatrixBuilder &mb, Value a, Value x,
                                  bool lower, bool transpose,
                                  bool unitDiagonal) {
  Value n = mb.size(a, 0), last = mb.subI(n, mb.index(1));
  // Substitution visits the rows in order for a lower op(a), from the last
  // for an upper one.
  auto row = [&](Value step) { return lower ? step : mb.subI(last, step); };
  auto element = [&](Value i, Value k) {
    return transpose ? mb.read(a, {k, i}) : mb.read(a, {i, k});
  };
  // Row i of x minus a(i, k) times row k, for each solved row k in
  // substitution order, then divided by a(i, i): the rows' elements are
  // contiguous, so the innermost loops run along them.
  Value columns = mb.size(x, 1);
  auto forEachColumn = [&](Value x, function_ref<Value(Value, Value)> body) {
    return mb.loop(mb.index(0), columns, x, body);
  };
  return mb.loop(mb.index(0), n, x, [&](Value step, Value x) {
    Value i = row(step);
    x = mb.loop(mb.index(0), step, x, [&](Value earlier, Value x) {
      Value k = row(earlier), factor = element(i, k);
      return forEachColumn(x, [&](Value c, Value x) {
        Value rest =
            mb.sub(mb.read(x, {i, c}), mb.mul(factor, mb.read(x, {k, c})));
        return mb.write(rest, x, {i, c});
      });
    });
    if (unitDiagonal)
      return x;
    Value diagonal = element(i, i);
    return forEachColumn(x, [&](Value c, Value x) {
      return mb.write(mb.div(mb.read(x, {i, c}), diagonal), x, {i, c});
    });
  });
}

namespace {
/// The LU factorization of a matrix with partial pivoting: P a = L U, L
/// unit lower and U upper packed into `factors`; `parity` is +1 or -1
/// after an even or odd number of row exchanges; `rhs` (if any) is P b
/// eliminated with the rows: L^-1 P b.
struct LuFactors {
  Value factors, parity, rhs;
};
} // namespace

/// Factors `a` in place (the forall initialized it with the input), also
/// eliminating the right-hand sides `b` if given.
static LuFactors buildLu(MatrixBuilder &mb, Value a, Value b) {
  Value n = mb.size(a, 0), one = mb.index(1), zero = mb.constant(0.0);
  SmallVector<Value> inits = {a, mb.constant(1.0)};
  if (b)
    inits.push_back(b);
  SmallVector<Value> results =
      mb.loop(mb.index(0), n, inits, [&](Value k, ValueRange carried) {
        Value lu = carried[0], parity = carried[1];
        Value rhs = b ? carried[2] : Value();
        // The pivot row: the first of largest magnitude at or below k.
        Value next = mb.addI(k, one);
        Value pivotRow =
            mb.loop(next, n, {k, mb.abs(mb.read(lu, {k, k}))},
                    [&](Value i, ValueRange best) -> SmallVector<Value> {
                      Value magnitude = mb.abs(mb.read(lu, {i, k}));
                      Value larger = mb.compare(arith::CmpFPredicate::OGT,
                                                magnitude, best[1]);
                      return {mb.select(larger, i, best[0]),
                              mb.select(larger, magnitude, best[1])};
                    })
                .front();
        lu = mb.swapRows(lu, k, pivotRow);
        if (rhs)
          rhs = mb.swapRows(rhs, k, pivotRow);
        parity = mb.select(mb.equalI(pivotRow, k), parity, mb.neg(parity));
        Value pivot = mb.read(lu, {k, k});
        // A zero pivot heads a zero column: nothing to eliminate (LAPACK's
        // rule), and no 0/0 to make the determinant NaN.
        Value nonzero = mb.compare(arith::CmpFPredicate::UNE, pivot, zero);
        SmallVector<Value> rows = {lu};
        if (rhs)
          rows.push_back(rhs);
        rows = mb.loop(next, n, rows, [&](Value i, ValueRange rows) {
          Value lu = rows[0];
          Value multiplier =
              mb.select(nonzero, mb.div(mb.read(lu, {i, k}), pivot), zero);
          lu = mb.write(multiplier, lu, {i, k});
          // Row i of a matrix minus `multiplier` times row k, from column
          // `from`.
          auto eliminate = [&](Value m, Value from) {
            return mb.loop(from, mb.size(m, 1), m, [&](Value j, Value m) {
              Value updated = mb.sub(mb.read(m, {i, j}),
                                     mb.mul(multiplier, mb.read(m, {k, j})));
              return mb.write(updated, m, {i, j});
            });
          };
          SmallVector<Value> updated = {eliminate(lu, next)};
          if (rhs)
            updated.push_back(eliminate(rows[1], mb.index(0)));
          return updated;
        });
        SmallVector<Value> yielded = {rows[0], parity};
        if (rhs)
          yielded.push_back(rows[1]);
        return yielded;
      });
  return {results[0], results[1], b ? results[2] : Value()};
}

/// Jacobi sweeps after which eigh and svd stop even if a NaN or an
/// unforeseen input kept them from converging (they converge
/// quadratically, in under 10 sweeps for matrices of any practical size).
constexpr int64_t kMaxJacobiSweeps = 40;

namespace {
/// rlx.eigh's outputs on one matrix: the work matrix (initialized with the
/// input), the eigenvectors as rows (scratch), then the results.
struct EighOutputs {
  Value work, rows, eigenvalues, eigenvectors;
};
} // namespace

/// The Jacobi rotation in the plane (p, q) that zeroes w[p, q] of the
/// symmetric work matrix `w`: rows p and q are rotated and mirrored into
/// columns p and q, the 2x2 block at (p, q) set as the rotation makes it
/// exactly, and the rotation accumulated into the rows of `rows`. Returns
/// both matrices.
static SmallVector<Value> buildEighRotation(MatrixBuilder &mb, Value w,
                                            Value rows, Value p, Value q) {
  Value zero = mb.constant(0.0), n = mb.size(w, 0);
  Value apq = mb.read(w, {p, q});
  Value app = mb.read(w, {p, p}), aqq = mb.read(w, {q, q});
  Value z = mb.div(mb.sub(aqq, app), mb.mul(mb.constant(2.0), apq));
  MatrixBuilder::Rotation rotation =
      mb.rotation(z, mb.compare(arith::CmpFPredicate::UNE, apq, zero));
  Value c = rotation.cosine, s = rotation.sine;
  w = mb.loop(mb.index(0), n, w, [&](Value k, Value w) {
    Value wp = mb.read(w, {p, k}), wq = mb.read(w, {q, k});
    Value np = mb.sub(mb.mul(c, wp), mb.mul(s, wq));
    Value nq = mb.add(mb.mul(s, wp), mb.mul(c, wq));
    w = mb.write(np, w, {p, k});
    w = mb.write(nq, w, {q, k});
    w = mb.write(np, w, {k, p});
    return mb.write(nq, w, {k, q});
  });
  Value shift = mb.mul(mb.div(s, c), apq);
  w = mb.write(mb.sub(app, shift), w, {p, p});
  w = mb.write(mb.add(aqq, shift), w, {q, q});
  w = mb.write(zero, w, {p, q});
  w = mb.write(zero, w, {q, p});
  return {w, mb.rotateRows(rows, p, q, c, s)};
}

/// The cyclic Jacobi eigenvalue algorithm on a symmetric matrix: each
/// rotation zeroes one off-diagonal element, updating the rows p and q of
/// the work matrix and their mirrored columns, and the rows of the
/// accumulated rotation (the eigenvectors as rows, contiguous).
static EighOutputs buildEigh(MatrixBuilder &mb, EighOutputs out) {
  Value n = mb.size(out.work, 0), zero = mb.constant(0.0);
  Value first = mb.index(0), one = mb.index(1);
  // The symmetric matrix of the lower triangle; the identity.
  Value w = mb.loop(first, n, out.work, [&](Value i, Value w) {
    return mb.loop(mb.addI(i, one), n, w, [&](Value j, Value w) {
      return mb.write(mb.read(w, {j, i}), w, {i, j});
    });
  });
  Value rows = mb.identity(out.rows);
  // Sums of squares of the elements (i, j) of `w` for which `keep`.
  auto sumOfSquares = [&](Value w, function_ref<Value(Value, Value)> keep) {
    return mb.loop(first, n, zero, [&](Value i, Value sum) {
      return mb.loop(first, n, sum, [&](Value j, Value sum) {
        Value x = mb.read(w, {i, j});
        Value square =
            keep ? mb.select(keep(i, j), mb.mul(x, x), zero) : mb.mul(x, x);
        return mb.add(sum, square);
      });
    });
  };
  Value eps = mb.constant(mb.epsilon());
  Value tolerance = mb.mul(sumOfSquares(w, nullptr), mb.mul(eps, eps));
  SmallVector<Value> converged = mb.loop(
      first, mb.index(kMaxJacobiSweeps), {w, rows},
      [&](Value, ValueRange carried) -> SmallVector<Value> {
        Value offDiagonal = sumOfSquares(carried[0], [&](Value i, Value j) {
          return arith::CmpIOp::create(mb.builder(), mb.location(),
                                       arith::CmpIPredicate::ne, i, j);
        });
        // Ordered: a NaN keeps the sweeps (and its spread) going.
        Value done =
            mb.compare(arith::CmpFPredicate::OLE, offDiagonal, tolerance);
        return mb.ifElse(
            done, [&]() -> SmallVector<Value> { return carried; },
            [&]() -> SmallVector<Value> {
              return mb.loop(first, n, carried, [&](Value p, ValueRange pq) {
                return mb.loop(
                    mb.addI(p, one), n, pq, [&](Value q, ValueRange pq) {
                      return buildEighRotation(mb, pq[0], pq[1], p, q);
                    });
              });
            });
      });
  w = converged[0];
  Value values = mb.loop(first, n, out.eigenvalues, [&](Value i, Value l) {
    return mb.write(mb.read(w, {i, i}), l, {i});
  });
  SmallVector<Value> sorted =
      mb.sortWithRows(values, converged[1], /*descending=*/false);
  Value sortedValues = sorted[0], sortedRows = sorted[1];
  Value vectors = mb.loop(first, n, out.eigenvectors, [&](Value i, Value v) {
    Value sign = mb.rowSign(sortedRows, i);
    return mb.loop(first, n, v, [&](Value k, Value v) {
      return mb.write(mb.mul(sign, mb.read(sortedRows, {i, k})), v, {k, i});
    });
  });
  return {w, sortedRows, sortedValues, vectors};
}

namespace {
/// rlx.svd's outputs on one matrix: the columns being orthogonalized as
/// rows `[k, max(m, n)]` and the accumulated rotation `[k, k]` (scratch),
/// then the results.
struct SvdOutputs {
  Value columns, rotation, u, s, vh;
};
} // namespace

/// The one-sided Jacobi rotation of rows p and q of `state[0]` (the
/// columns being orthogonalized) that makes them orthogonal, unless they
/// are to working precision; accumulated into the rows of `state[1]`.
/// `state[2]` (i1) stays true while no pair needed a rotation. Returns the
/// updated state.
static SmallVector<Value> buildSvdRotation(MatrixBuilder &mb, ValueRange state,
                                           Value p, Value q) {
  Value x = state[0], zero = mb.constant(0.0);
  SmallVector<Value> dots =
      mb.loop(mb.index(0), mb.size(x, 1), {zero, zero, zero},
              [&](Value j, ValueRange sums) -> SmallVector<Value> {
                Value xp = mb.read(x, {p, j}), xq = mb.read(x, {q, j});
                return {mb.add(sums[0], mb.mul(xp, xp)),
                        mb.add(sums[1], mb.mul(xq, xq)),
                        mb.add(sums[2], mb.mul(xp, xq))};
              });
  Value alpha = dots[0], beta = dots[1], gamma = dots[2];
  Value eps = mb.constant(mb.epsilon());
  Value rotate = mb.compare(arith::CmpFPredicate::OGT, mb.abs(gamma),
                            mb.mul(eps, mb.sqrt(mb.mul(alpha, beta))));
  Value z = mb.div(mb.sub(beta, alpha), mb.mul(mb.constant(2.0), gamma));
  MatrixBuilder::Rotation rotation = mb.rotation(z, rotate);
  OpBuilder &b = mb.builder();
  Value yes = arith::ConstantIntOp::create(b, mb.location(), 1, 1);
  Value orthogonal = arith::AndIOp::create(
      b, mb.location(), state[2],
      arith::XOrIOp::create(b, mb.location(), rotate, yes));
  return {mb.rotateRows(x, p, q, rotation.cosine, rotation.sine),
          mb.rotateRows(state[1], p, q, rotation.cosine, rotation.sine),
          orthogonal};
}

/// One-sided (Hestenes) Jacobi on `a` `[m, n]`: the k = min(m, n) columns
/// of `a` (`tall`) or of a^T are made orthogonal by plane rotations, which
/// accumulate into V (of `a` or a^T); the columns' norms are the singular
/// values and the normalized columns the other singular vectors.
static SvdOutputs buildSvd(MatrixBuilder &mb, Value a, SvdOutputs out,
                           bool tall) {
  Value first = mb.index(0), one = mb.index(1), zero = mb.constant(0.0);
  Value k = mb.size(out.columns, 0), length = mb.size(out.columns, 1);
  Value columns = mb.loop(first, k, out.columns, [&](Value i, Value x) {
    return mb.loop(first, length, x, [&](Value j, Value x) {
      Value element = tall ? mb.read(a, {j, i}) : mb.read(a, {i, j});
      return mb.write(element, x, {i, j});
    });
  });
  Value rotation = mb.identity(out.rotation);
  Value no = arith::ConstantIntOp::create(mb.builder(), mb.location(), 0, 1);
  Value yes = arith::ConstantIntOp::create(mb.builder(), mb.location(), 1, 1);
  SmallVector<Value> converged = mb.loop(
      first, mb.index(kMaxJacobiSweeps), {columns, rotation, no},
      [&](Value, ValueRange carried) -> SmallVector<Value> {
        return mb.ifElse(
            carried[2], [&]() -> SmallVector<Value> { return carried; },
            [&]() -> SmallVector<Value> {
              return mb.loop(first, k, {carried[0], carried[1], yes},
                             [&](Value p, ValueRange state) {
                               return mb.loop(mb.addI(p, one), k, state,
                                              [&](Value q, ValueRange state) {
                                                return buildSvdRotation(
                                                    mb, state, p, q);
                                              });
                             });
            });
      });
  Value norms = mb.loop(first, k, out.s, [&](Value i, Value s) {
    Value squares = mb.loop(first, length, zero, [&](Value j, Value sum) {
      Value x = mb.read(converged[0], {i, j});
      return mb.add(sum, mb.mul(x, x));
    });
    return mb.write(mb.sqrt(squares), s, {i});
  });
  // Sorted descending; the columns and the rotation's rows follow.
  SmallVector<Value> sorted =
      mb.sortWithRows(norms, {converged[0], converged[1]}, /*descending=*/true);
  Value s = sorted[0], sortedColumns = sorted[1], sortedRotation = sorted[2];
  // The singular vectors of a: the rotation's rows are V's columns of
  // whichever of a and a^T was orthogonalized, the normalized columns the
  // other side's (0 for a zero singular value).
  auto normalized = [&](Value i, Value j) {
    Value si = mb.read(s, {i});
    return mb.select(mb.compare(arith::CmpFPredicate::OGT, si, zero),
                     mb.div(mb.read(sortedColumns, {i, j}), si), zero);
  };
  Value vRows = tall ? sortedRotation : sortedColumns;
  auto fromV = [&](Value i, Value j) {
    return tall ? mb.read(sortedRotation, {i, j}) : normalized(i, j);
  };
  auto fromU = [&](Value i, Value j) {
    return tall ? normalized(i, j) : mb.read(sortedRotation, {i, j});
  };
  SmallVector<Value> written = mb.loop(
      first, k, {out.u, out.vh},
      [&](Value i, ValueRange carried) -> SmallVector<Value> {
        Value sign = mb.rowSign(vRows, i);
        Value u = mb.loop(
            first, mb.size(out.u, 0), carried[0], [&](Value r, Value u) {
              return mb.write(mb.mul(sign, fromU(i, r)), u, {r, i});
            });
        Value vh = mb.loop(
            first, mb.size(out.vh, 1), carried[1], [&](Value c, Value vh) {
              return mb.write(mb.mul(sign, fromV(i, c)), vh, {i, c});
            });
        return {u, vh};
      });
  return {sortedColumns, sortedRotation, written[0], s, written[1]};
}

namespace {
/// rlx.qr's outputs on one matrix: the Householder vectors below R
/// (initialized with the input) and their scales (scratch), then the
/// results.
struct QrOutputs {
  Value work, scales, q, r;
};
} // namespace

/// Householder QR (LAPACK's geqr2 and org2r): reflection j maps column j
/// of the trailing matrix onto beta e_j, |beta| its norm and its sign
/// opposite to the diagonal element's; q is the product of the reflections
/// applied to the first k columns of the identity, from the last.
static QrOutputs buildQr(MatrixBuilder &mb, QrOutputs out) {
  Value first = mb.index(0), one = mb.index(1), zero = mb.constant(0.0);
  Value m = mb.size(out.work, 0), n = mb.size(out.work, 1);
  Value k = mb.size(out.scales, 0);
  // Applies I - tau v v^T (v: column j of `w` below row j, 1 at row j) to
  // the columns [from, to) of `target` from row j on. With `w` null, v is
  // in `target` itself (in a column the loop does not write).
  auto reflect = [&](Value vectors, Value target, Value j, Value tau,
                     Value from, Value to) {
    Value below = mb.addI(j, one);
    // Element i of v, read from the tensor as the loop carries it.
    auto vector = [&](Value current, Value i) {
      return mb.read(vectors ? vectors : current, {i, j});
    };
    return mb.loop(from, to, target, [&](Value c, Value target) {
      Value dot =
          mb.loop(below, m, mb.read(target, {j, c}), [&](Value i, Value sum) {
            return mb.add(sum,
                          mb.mul(vector(target, i), mb.read(target, {i, c})));
          });
      Value f = mb.mul(tau, dot);
      target = mb.write(mb.sub(mb.read(target, {j, c}), f), target, {j, c});
      return mb.loop(below, m, target, [&](Value i, Value target) {
        Value updated =
            mb.sub(mb.read(target, {i, c}), mb.mul(f, vector(target, i)));
        return mb.write(updated, target, {i, c});
      });
    });
  };
  SmallVector<Value> factored = mb.loop(
      first, k, {out.work, out.scales},
      [&](Value j, ValueRange carried) -> SmallVector<Value> {
        Value w = carried[0], below = mb.addI(j, one);
        Value alpha = mb.read(w, {j, j});
        Value tail = mb.loop(below, m, zero, [&](Value i, Value sum) {
          Value x = mb.read(w, {i, j});
          return mb.add(sum, mb.mul(x, x));
        });
        // A zero column below the diagonal: H = I (LAPACK's dlarfg).
        Value reflects = mb.compare(arith::CmpFPredicate::OGT, tail, zero);
        Value norm = mb.sqrt(mb.add(mb.mul(alpha, alpha), tail));
        Value beta =
            mb.select(mb.compare(arith::CmpFPredicate::OGE, alpha, zero),
                      mb.neg(norm), norm);
        Value tau =
            mb.select(reflects, mb.div(mb.sub(beta, alpha), beta), zero);
        Value scale = mb.select(
            reflects, mb.div(mb.constant(1.0), mb.sub(alpha, beta)), zero);
        w = mb.loop(below, m, w, [&](Value i, Value w) {
          return mb.write(mb.mul(scale, mb.read(w, {i, j})), w, {i, j});
        });
        w = mb.write(mb.select(reflects, beta, alpha), w, {j, j});
        w = reflect(Value(), w, j, tau, below, n);
        return {w, mb.write(tau, carried[1], {j})};
      });
  Value w = factored[0], scales = factored[1];
  Value r = mb.loop(first, k, out.r, [&](Value i, Value r) {
    return mb.loop(first, n, r, [&](Value c, Value r) {
      Value upper = arith::CmpIOp::create(mb.builder(), mb.location(),
                                          arith::CmpIPredicate::sge, c, i);
      return mb.write(mb.select(upper, mb.read(w, {i, c}), zero), r, {i, c});
    });
  });
  Value last = mb.subI(k, one);
  Value q = mb.loop(first, k, mb.identity(out.q), [&](Value step, Value q) {
    Value j = mb.subI(last, step);
    return reflect(w, q, j, mb.read(scales, {j}), j, k);
  });
  return {w, scales, q, r};
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

namespace {
struct CholeskyToLinalg : OpConversionPattern<CholeskyOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(CholeskyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    RankedTensorType type = op.getType();
    Value zero = arith::ConstantOp::create(
        rewriter, loc, rewriter.getFloatAttr(type.getElementType(), 0.0));
    Value zeros =
        linalg::FillOp::create(rewriter, loc, zero,
                               createEmptyLike(rewriter, loc, type, input))
            .getResult(0);
    SmallVector<Value> results =
        buildMatrixLoop(rewriter, loc, getBatchRank(input), input, zeros,
                        [&](OpBuilder &b, Location loc, ValueRange inputs,
                            ValueRange outputs) -> SmallVector<Value> {
                          MatrixBuilder mb(b, loc, type.getElementType());
                          return {buildCholesky(mb, inputs[0], outputs[0])};
                        });
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct TriangularSolveToLinalg : OpConversionPattern<TriangularSolveOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TriangularSolveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value a = adaptor.getA();
    // op(a) is lower when a is lower and not transposed, or upper and
    // transposed.
    bool lower = (op.getPart() == TrianglePart::Lower) != op.getTranspose();
    SmallVector<Value> results = buildMatrixLoop(
        rewriter, loc, getBatchRank(a), a, adaptor.getB(),
        [&](OpBuilder &b, Location loc, ValueRange inputs,
            ValueRange outputs) -> SmallVector<Value> {
          MatrixBuilder mb(b, loc, op.getType().getElementType());
          return {buildTriangularSolve(mb, inputs[0], outputs[0], lower,
                                       op.getTranspose(),
                                       op.getUnitDiagonal())};
        });
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct SolveToLinalg : OpConversionPattern<SolveOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(SolveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value a = adaptor.getA();
    // The LU factors are a second output, dropped: a copy of `a` for the
    // whole batch that the factorization overwrites.
    SmallVector<Value> results = buildMatrixLoop(
        rewriter, loc, getBatchRank(a), {}, {a, adaptor.getB()},
        [&](OpBuilder &b, Location loc, ValueRange,
            ValueRange outputs) -> SmallVector<Value> {
          MatrixBuilder mb(b, loc, op.getType().getElementType());
          LuFactors lu = buildLu(mb, outputs[0], outputs[1]);
          return {lu.factors,
                  buildTriangularSolve(mb, lu.factors, lu.rhs, /*lower=*/false,
                                       /*transpose=*/false,
                                       /*unitDiagonal=*/false)};
        });
    rewriter.replaceOp(op, results[1]);
    return success();
  }
};

/// rlx.det and rlx.logdet: the LU factorization (in a dropped output
/// initialized with the input), then one pass over U's diagonal.
template <typename OpTy>
struct DeterminantToLinalg : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;
  static constexpr bool kIsLog = std::is_same_v<OpTy, LogdetOp>;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    // Initialized with the values of a 0 x 0 matrix: det 1, sign 1,
    // logabsdet 0.
    SmallVector<Value> outputs = {input};
    for (int64_t i = 0, e = op->getNumResults(); i < e; ++i) {
      Value empty = createEmptyLike(rewriter, loc, type, input);
      Value value = arith::ConstantOp::create(
          rewriter, loc,
          rewriter.getFloatAttr(type.getElementType(), i == 1 ? 0.0 : 1.0));
      outputs.push_back(
          linalg::FillOp::create(rewriter, loc, value, empty).getResult(0));
    }
    SmallVector<Value> results = buildMatrixLoop(
        rewriter, loc, getBatchRank(input), {}, outputs,
        [&](OpBuilder &b, Location loc, ValueRange,
            ValueRange outputs) -> SmallVector<Value> {
          MatrixBuilder mb(b, loc, type.getElementType());
          LuFactors lu = buildLu(mb, outputs[0], Value());
          Value n = mb.size(lu.factors, 0);
          auto pivot = [&](Value k) { return mb.read(lu.factors, {k, k}); };
          if (!kIsLog) {
            Value det =
                mb.loop(mb.index(0), n, lu.parity, [&](Value k, Value product) {
                  return mb.mul(product, pivot(k));
                });
            return {lu.factors, mb.write(det, outputs[1], {})};
          }
          // The sign is the product of the pivots' signs: 0 for a zero
          // pivot, NaN for a NaN one (a pivot's own value where it is
          // neither positive nor negative).
          Value zero = mb.constant(0.0);
          SmallVector<Value> signAndLog = mb.loop(
              mb.index(0), n, {lu.parity, zero},
              [&](Value k, ValueRange carried) -> SmallVector<Value> {
                Value u = pivot(k);
                Value sign = mb.select(
                    mb.compare(arith::CmpFPredicate::OGT, u, zero),
                    mb.constant(1.0),
                    mb.select(mb.compare(arith::CmpFPredicate::OLT, u, zero),
                              mb.constant(-1.0), u));
                return {mb.mul(carried[0], sign),
                        mb.add(carried[1], mb.log(mb.abs(u)))};
              });
          return {lu.factors, mb.write(signAndLog[0], outputs[1], {}),
                  mb.write(signAndLog[1], outputs[2], {})};
        });
    rewriter.replaceOp(op, ArrayRef(results).drop_front());
    return success();
  }
};
} // namespace

namespace {
struct EighToLinalg : OpConversionPattern<EighOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(EighOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    RankedTensorType vectorsType = op.getEigenvectors().getType();
    SmallVector<Value> outputs = {
        input, createEmptyLike(rewriter, loc, vectorsType, input),
        createEmptyLike(rewriter, loc, op.getEigenvalues().getType(), input),
        createEmptyLike(rewriter, loc, vectorsType, input)};
    SmallVector<Value> results = buildMatrixLoop(
        rewriter, loc, getBatchRank(input), {}, outputs,
        [&](OpBuilder &b, Location loc, ValueRange,
            ValueRange outputs) -> SmallVector<Value> {
          MatrixBuilder mb(b, loc, vectorsType.getElementType());
          EighOutputs out =
              buildEigh(mb, {outputs[0], outputs[1], outputs[2], outputs[3]});
          return {out.work, out.rows, out.eigenvalues, out.eigenvectors};
        });
    rewriter.replaceOp(op, {results[2], results[3]});
    return success();
  }
};

/// Whether the matrices of the batch `type` have at least as many rows as
/// columns; sizes that are not static are equal (the ops' shape rule).
static bool isTall(RankedTensorType type) {
  ArrayRef<int64_t> shape = type.getShape();
  int64_t m = shape[shape.size() - 2], n = shape.back();
  return ShapedType::isDynamic(m) || ShapedType::isDynamic(n) || m >= n;
}

/// An uninitialized tensor of the batch of `like` followed by `sizes`.
static Value createEmptyMatrices(OpBuilder &b, Location loc, Value like,
                                 ArrayRef<OpFoldResult> sizes) {
  auto type = cast<RankedTensorType>(like.getType());
  SmallVector<OpFoldResult> all = tensor::getMixedSizes(b, loc, like);
  all.resize(type.getRank() - 2);
  all.append(sizes.begin(), sizes.end());
  return createEmptyTensor(b, loc, all, type.getElementType());
}

struct SvdToLinalg : OpConversionPattern<SvdOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(SvdOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    RankedTensorType type = op.getInput().getType();
    bool tall = isTall(type);
    int64_t rank = type.getRank();
    OpFoldResult m = tensor::getMixedSize(rewriter, loc, input, rank - 2);
    OpFoldResult n = tensor::getMixedSize(rewriter, loc, input, rank - 1);
    OpFoldResult k = tall ? n : m, length = tall ? m : n;
    SmallVector<Value> outputs = {
        createEmptyMatrices(rewriter, loc, input, {k, length}),
        createEmptyMatrices(rewriter, loc, input, {k, k}),
        createEmptyMatrices(rewriter, loc, input, {m, k}),
        createEmptyMatrices(rewriter, loc, input, {k}),
        createEmptyMatrices(rewriter, loc, input, {k, n})};
    SmallVector<Value> results = buildMatrixLoop(
        rewriter, loc, rank - 2, input, outputs,
        [&](OpBuilder &b, Location loc, ValueRange inputs,
            ValueRange outputs) -> SmallVector<Value> {
          MatrixBuilder mb(b, loc, type.getElementType());
          SvdOutputs out = buildSvd(
              mb, inputs[0],
              {outputs[0], outputs[1], outputs[2], outputs[3], outputs[4]},
              tall);
          return {out.columns, out.rotation, out.u, out.s, out.vh};
        });
    rewriter.replaceOp(op, ArrayRef(results).drop_front(2));
    return success();
  }
};

struct QrToLinalg : OpConversionPattern<QrOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(QrOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    RankedTensorType type = op.getInput().getType();
    int64_t rank = type.getRank();
    OpFoldResult m = tensor::getMixedSize(rewriter, loc, input, rank - 2);
    OpFoldResult n = tensor::getMixedSize(rewriter, loc, input, rank - 1);
    OpFoldResult k = isTall(type) ? n : m;
    SmallVector<Value> outputs = {
        input, createEmptyMatrices(rewriter, loc, input, {k}),
        createEmptyMatrices(rewriter, loc, input, {m, k}),
        createEmptyMatrices(rewriter, loc, input, {k, n})};
    SmallVector<Value> results = buildMatrixLoop(
        rewriter, loc, rank - 2, {}, outputs,
        [&](OpBuilder &b, Location loc, ValueRange,
            ValueRange outputs) -> SmallVector<Value> {
          MatrixBuilder mb(b, loc, type.getElementType());
          QrOutputs out =
              buildQr(mb, {outputs[0], outputs[1], outputs[2], outputs[3]});
          return {out.work, out.scales, out.q, out.r};
        });
    rewriter.replaceOp(op, ArrayRef(results).drop_front(2));
    return success();
  }
};
} // namespace

void mlir::rlx::populateLinearAlgebraToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<CholeskyToLinalg, TriangularSolveToLinalg, SolveToLinalg,
               DeterminantToLinalg<DetOp>, DeterminantToLinalg<LogdetOp>,
               EighToLinalg, SvdToLinalg, QrToLinalg>(patterns.getContext());
}
