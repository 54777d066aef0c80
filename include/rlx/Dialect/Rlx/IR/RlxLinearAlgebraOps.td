//===- RlxLinearAlgebraOps.td - Solvers and factorizations -*- tablegen -*-===//
//
// Dense linear algebra on batches of matrices (torch.linalg's): a Cholesky
// factorization, triangular and general solves, determinants. Matrices are
// the last two dimensions of f32 or f64 tensors; the dimensions before them
// are a batch, the same for every operand (no broadcasting: rlx.expand
// makes it explicit). Every size may be `?` (qr and svd: the matrix sizes
// static or equal, as their factors have min(m, n) columns). Included by
// RlxOps.td.
//
// None of them fails at run time: an input outside an op's domain (a
// singular or non-positive-definite matrix) gives the result its
// description states (NaN, inf or 0), never a hang or an error status, so
// that a batch with one bad matrix still computes the others.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_DIALECT_RLX_IR_RLXLINEARALGEBRAOPS_TD
#define RLX_DIALECT_RLX_IR_RLXLINEARALGEBRAOPS_TD

include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "rlx/Dialect/Rlx/IR/RlxDialect.td"
include "rlx/Dialect/Rlx/IR/RlxInterfaces.td"

def Rlx_SolverTensor : RankedTensorOf<[F32, F64]>;

defvar Rlx_SolverLoweringDoc = [{

    Lowering: an `scf.forall` over the batch whose iterations run the
    factorization's scalar loops on their matrix (one thread per matrix on
    the GPU); see `op-mapping.md` for the algorithms and their costs.
}];

class Rlx_LinearAlgebraOp<string mnemonic, list<Trait> traits = []>
    : Rlx_Op<mnemonic, !listconcat([Pure, SameOperandsAndResultElementType,
                                    InferTypeOpAdaptor, Rlx_ShapeRule],
                                   traits)>;

def Rlx_CholeskyOp : Rlx_LinearAlgebraOp<"cholesky"> {
  let summary = "Cholesky factor of symmetric positive-definite matrices";
  let description = !strconcat([{
    `torch.linalg.cholesky(a)`: the lower-triangular `l` with a positive
    diagonal and `l @ l^T = a`, for each `[n, n]` matrix of `a`
    `[..., n, n]`. Only the lower triangle of `a` (diagonal included) is
    read; the strict upper triangle of `l` is 0. Where `a` is not positive
    definite (a pivot `a[j, j] - sum_k l[j, k]^2` is not > 0, or NaN), the
    diagonal element at that pivot and every element computed from it are
    NaN: torch raises an error there.

    Gradient (torch's, symmetric): `ga = (s + s^T) / 2` with
    `s = l^-T phi(l^T gl) l^-1`, `phi` keeping the lower triangle with the
    diagonal halved (two triangular solves and a matmul).

    ```mlir
    %l = rlx.cholesky %k : tensor<?x64x64xf64> -> tensor<?x64x64xf64>
    ```
  }], Rlx_SolverLoweringDoc);
  let arguments = (ins Rlx_SolverTensor:$input);
  let results = (outs Rlx_SolverTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def Rlx_TriangularSolveOp : Rlx_LinearAlgebraOp<"triangular_solve"> {
  let summary = "solve a triangular system for many right-hand sides";
  let description = !strconcat([{
    The `x` `[..., n, k]` with `op(a) @ x = b`, for `a` `[..., n, n]`
    triangular (`part`: `lower` or `upper`; the other triangle is not read)
    and `b` `[..., n, k]`; `op(a)` is `a`, or `a^T` with `transpose`. With
    `unit_diagonal` the diagonal is not read and taken as 1. This is
    `torch.linalg.solve_triangular(a, b, upper=part == upper,
    unitriangular=unit_diagonal)` (of `a.mT` with `transpose`) and
    `jax.scipy.linalg.solve_triangular(a, b, trans, lower,
    unit_diagonal)`. A zero on the diagonal gives inf or NaN in the rows it
    divides.

    Gradient: `gb = op(a)^-T gx` (the same op with `transpose` flipped),
    `ga = -gb x^T` (`-x gb^T` with `transpose`) restricted to the triangle
    read (its strict part with `unit_diagonal`).

    ```mlir
    %x = rlx.triangular_solve lower %l, %y transpose
        : tensor<64x64xf64>, tensor<64x1xf64> -> tensor<64x1xf64>
    ```
  }], Rlx_SolverLoweringDoc);
  let arguments = (ins Rlx_SolverTensor:$a, Rlx_SolverTensor:$b,
                       Rlx_TrianglePart:$part, UnitAttr:$transpose,
                       UnitAttr:$unit_diagonal);
  let results = (outs Rlx_SolverTensor:$result);
  let assemblyFormat = [{
    $part $a `,` $b (`transpose` $transpose^)?
    (`unit_diagonal` $unit_diagonal^)? attr-dict `:` type($a) `,` type($b)
    `->` type($result)
  }];
}

def Rlx_SolveOp : Rlx_LinearAlgebraOp<"solve"> {
  let summary = "solve a general square system for many right-hand sides";
  let description = !strconcat([{
    `torch.linalg.solve(a, b)`: the `x` `[..., n, k]` with `a @ x = b`, for
    `a` `[..., n, n]` and `b` `[..., n, k]`, by LU factorization with
    partial pivoting (LAPACK's `getrf` + `getrs`: the pivot is the first
    element of largest magnitude in its column). A singular `a` (a zero
    pivot) gives inf or NaN in `x`; torch raises an error there.

    Gradient: `gb = solve(a^T, gx)`, `ga = -gb x^T`.

    ```mlir
    %x = rlx.solve %a, %b : tensor<8x32x32xf32>, tensor<8x32x4xf32>
        -> tensor<8x32x4xf32>
    ```
  }], Rlx_SolverLoweringDoc);
  let arguments = (ins Rlx_SolverTensor:$a, Rlx_SolverTensor:$b);
  let results = (outs Rlx_SolverTensor:$result);
  let assemblyFormat = [{
    $a `,` $b attr-dict `:` type($a) `,` type($b) `->` type($result)
  }];
}

def Rlx_DetOp : Rlx_LinearAlgebraOp<"det"> {
  let summary = "determinant of square matrices";
  let description = !strconcat([{
    `torch.linalg.det(a)`: the determinant `[...]` of each `[n, n]` matrix
    of `a` `[..., n, n]`, the product of the LU factorization's pivots
    (partial pivoting, as `rlx.solve`) signed by the parity of its row
    swaps; exactly 0 for a matrix whose elimination meets a zero column,
    and 1 for `n = 0`.

    Gradient: `ga = g det(a) a^-T` (`rlx.solve` of `a^T` against the
    identity). It is inf or NaN at a singular `a`, where torch's
    SVD-based rule gives the adjugate: use `rlx.logdet` or keep away from
    singular matrices when differentiating.

    ```mlir
    %d = rlx.det %a : tensor<4x3x3xf64> -> tensor<4xf64>
    ```
  }], Rlx_SolverLoweringDoc);
  let arguments = (ins Rlx_SolverTensor:$input);
  let results = (outs Rlx_SolverTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def Rlx_LogdetOp : Rlx_LinearAlgebraOp<"logdet"> {
  let summary = "sign and log-magnitude of the determinant";
  let description = !strconcat([{
    `torch.linalg.slogdet(a)`: `sign` (-1, 0 or 1) and `logabsdet`
    (`log |det a|`), both `[...]`, for each `[n, n]` matrix of `a`
    `[..., n, n]`, from the same LU factorization as `rlx.det` (the sum of
    the logs of the pivots' magnitudes, so no product over- or
    underflows). A singular matrix gives sign 0 and logabsdet -inf.

    Gradient of `logabsdet`: `ga = g a^-T`; `sign` has none.

    ```mlir
    %sign, %logabsdet = rlx.logdet %a
        : tensor<64x64xf64> -> tensor<f64>, tensor<f64>
    ```
  }], Rlx_SolverLoweringDoc);
  let arguments = (ins Rlx_SolverTensor:$input);
  let results = (outs Rlx_SolverTensor:$sign, Rlx_SolverTensor:$logabsdet);
  let assemblyFormat = [{
    $input attr-dict `:` type($input) `->` type($sign) `,` type($logabsdet)
  }];
}

//===----------------------------------------------------------------------===//
// Eigen- and singular value decompositions, QR
//===----------------------------------------------------------------------===//

def Rlx_EighOp : Rlx_LinearAlgebraOp<"eigh"> {
  let summary = "eigenvalues and eigenvectors of symmetric matrices";
  let description = !strconcat([{
    `torch.linalg.eigh(a)`: for each symmetric `[n, n]` matrix of `a`
    `[..., n, n]` (only its lower triangle is read, torch's `UPLO='L'`),
    the `eigenvalues` `[..., n]` in ascending order and the orthonormal
    `eigenvectors` `[..., n, n]` as columns, `a = v diag(l) v^T`. Each
    vector's sign is fixed (torch leaves it to LAPACK): its element of
    largest magnitude (the first such) is positive. Vectors of a repeated
    eigenvalue are some orthonormal basis of its eigenspace.

    By the cyclic Jacobi method: sweeps of plane rotations, each zeroing
    one off-diagonal element, until the off-diagonal part is below
    rounding (`sum a_ij^2 <= (eps ||a||_F)^2`) or after 40 sweeps, so a
    NaN input ends too (NaN spreads through the rotations it meets); then
    the pairs are sorted.

    Gradient (torch's, symmetric): `ga = v (skew / e + diag(gl)) v^T` with
    `skew` half the skew-symmetric part of `v^T gv` and `e[i, j] = l[j] -
    l[i]` off the diagonal, so it is inf or NaN where eigenvalues repeat
    and the loss depends on the eigenvectors (a basis of the eigenspace is
    not unique there; where it does not, `skew` is 0 and so is the
    quotient): matrix functions
    (`rlx.expm`, `rlx.logm`, `rlx.sqrtm`, `rlx.invsqrtm`) have exact rules
    of their own.

    ```mlir
    %l, %v = rlx.eigh %a : tensor<?x8x8xf64> -> tensor<?x8xf64>, tensor<?x8x8xf64>
    ```
  }], Rlx_SolverLoweringDoc);
  let arguments = (ins Rlx_SolverTensor:$input);
  let results = (outs Rlx_SolverTensor:$eigenvalues,
                      Rlx_SolverTensor:$eigenvectors);
  let assemblyFormat = [{
    $input attr-dict `:` type($input) `->` type($eigenvalues) `,`
    type($eigenvectors)
  }];
}

def Rlx_QrOp : Rlx_LinearAlgebraOp<"qr"> {
  let summary = "reduced QR factorization";
  let description = !strconcat([{
    `torch.linalg.qr(a, mode='reduced')`: for each `[m, n]` matrix of `a`
    `[..., m, n]`, `q` `[..., m, k]` with orthonormal columns and `r`
    `[..., k, n]` upper triangular, `a = q r`, `k = min(m, n)`. By
    Householder reflections (LAPACK's `geqrf` + `orgqr` and their sign
    convention: `r[j, j]` is negative where column j's reflection is
    nontrivial and `a[j, j] > 0`).

    Gradient (torch's, for `m >= n`): `ga = (gq + q copyltu(m)) r^-T`
    with `m = r gr^T - gq^T q` and `copyltu` mirroring the lower triangle
    onto the upper. Wide matrices (`m < n`) have no gradient rule (a
    located error from `--rlx-autodiff`).

    ```mlir
    %q, %r = rlx.qr %a : tensor<16x4xf64> -> tensor<16x4xf64>, tensor<4x4xf64>
    ```
  }], Rlx_SolverLoweringDoc);
  let arguments = (ins Rlx_SolverTensor:$input);
  let results = (outs Rlx_SolverTensor:$q, Rlx_SolverTensor:$r);
  let assemblyFormat = [{
    $input attr-dict `:` type($input) `->` type($q) `,` type($r)
  }];
}

def Rlx_SvdOp : Rlx_LinearAlgebraOp<"svd"> {
  let summary = "reduced singular value decomposition";
  let description = !strconcat([{
    `torch.linalg.svd(a, full_matrices=False)`: for each `[m, n]` matrix of
    `a` `[..., m, n]`, `u` `[..., m, k]` and `vh` `[..., k, n]` with
    orthonormal columns and rows and the singular values `s` `[..., k]` in
    descending order, `a = u diag(s) vh`, `k = min(m, n)`. Each pair of
    singular vectors has a fixed sign: the element of largest magnitude of
    the column of `v` (the row of `vh`) is positive. The vectors a zero
    singular value leaves undetermined (its column of `u` for a tall
    matrix, its row of `vh` for a wide one) are 0, not an orthonormal
    completion.

    By one-sided (Hestenes) Jacobi on the columns of `a` (of `a^T` when
    `m < n`): sweeps of rotations that make pairs of columns orthogonal,
    until every pair is within rounding (`|x . y| <= eps |x| |y|`) or after
    40 sweeps; the norms of the columns are the singular values. It is
    accurate in the small singular values too (relative to each value,
    not to the largest).

    Gradient (torch's): through the skew parts of `u^T gu` and `v^T gv`
    divided by `s[j]^2 - s[i]^2`, plus the components of `gu` and `gv`
    outside the spans of `u` and `v` divided by `s`; inf or NaN at repeated
    or zero singular values when the loss depends on the vectors, as in
    torch.

    ```mlir
    %u, %s, %vh = rlx.svd %a : tensor<8x5xf32>
        -> tensor<8x5xf32>, tensor<5xf32>, tensor<5x5xf32>
    ```
  }], Rlx_SolverLoweringDoc);
  let arguments = (ins Rlx_SolverTensor:$input);
  let results = (outs Rlx_SolverTensor:$u, Rlx_SolverTensor:$s,
                      Rlx_SolverTensor:$vh);
  let assemblyFormat = [{
    $input attr-dict `:` type($input) `->` type($u) `,` type($s) `,`
    type($vh)
  }];
}

//===----------------------------------------------------------------------===//
// Functions of symmetric matrices
//===----------------------------------------------------------------------===//

class Rlx_SpectralFunctionOp<string mnemonic, string function,
                             string domain>
    : Rlx_Op<mnemonic, [Pure, SameOperandsAndResultType, Rlx_ShapeRule,
        DeclareOpInterfaceMethods<Rlx_SpectralFunctionOpInterface>,
        DeclareOpInterfaceMethods<Rlx_DecomposableOpInterface>]> {
  let summary = "matrix " # function # " of symmetric matrices";
  let description = [{
    The matrix }] # function # [{ of each symmetric `[n, n]` matrix of
    `input` `[..., n, n]` (its lower triangle read), through its
    eigendecomposition: `v f(l) v^T` with `l, v = rlx.eigh(input)`, `f`
    the scalar }] # function # [{ of each eigenvalue. }] # domain # [{

    Decomposed (`--rlx-decompose`) into `rlx.eigh`, `f` of the eigenvalues
    and two matmuls. Differentiated by its own rule, exact at repeated
    eigenvalues: `ga = v (d * (v^T g v)) v^T` (Daleckii-Krein) with
    `d[i, j] = (f(l[i]) - f(l[j])) / (l[i] - l[j])`, `f'(l[i])` where they
    meet (the forms that stay accurate there: `op-mapping.md`). For a
    symmetric `a`, this is the derivative torch's `matrix_exp` takes for
    any matrix.
  }];
  let arguments = (ins Rlx_SolverTensor:$input);
  let results = (outs Rlx_SolverTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasVerifier = 1;
}

def Rlx_ExpmOp : Rlx_SpectralFunctionOp<"expm", "exponential",
    "Every symmetric matrix is in its domain (`torch.linalg.matrix_exp`).">;
def Rlx_LogmOp : Rlx_SpectralFunctionOp<"logm", "logarithm",
    "Its domain is symmetric positive-definite matrices: a zero eigenvalue "
    "gives -inf and a negative one NaN in the eigenvalue's `f`, so in the "
    "result.">;
def Rlx_SqrtmOp : Rlx_SpectralFunctionOp<"sqrtm", "square root",
    "Its domain is symmetric positive-semidefinite matrices (the principal "
    "root); a negative eigenvalue gives NaN.">;
def Rlx_InvsqrtmOp : Rlx_SpectralFunctionOp<"invsqrtm", "inverse square root",
    "Its domain is symmetric positive-definite matrices (`a^-1/2`, the "
    "whitening matrix); a zero eigenvalue gives inf and a negative one "
    "NaN.">;

#endif // RLX_DIALECT_RLX_IR_RLXLINEARALGEBRAOPS_TD
