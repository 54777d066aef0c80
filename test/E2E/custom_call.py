# RUN: rm -rf %t && mkdir -p %t && env RLX_CACHE_DIR=%t/cache %oracle_python %s %t %cc %rlx_src_root/runtime/include
# REQUIRES: torch
# rlx.custom_call end to end: C functions (written with <rlx/custom_call.h>)
# compiled by the C compiler, linked into modules by rlx-compile --link (an
# object file, and an archive, whose member only --undefined pulls in for
# the weak reference), called on a view (a narrowed tensor: an offset and a
# row stride the callee reads), on a transposed tensor, with rank-0 and i64
# buffers, twice with one declaration, next to rlx ops; inside an
# rlx.custom_fn whose backward is another C function, differentiated by
# --rlx-autodiff. Results against numpy in float64. A module compiled
# without its C function does not load (a NOT_FOUND status naming it), and
# --link files that do not define it are a compile error naming it.
import os
import subprocess
import sys

import numpy as np

import rlx
from rlx.runtime import Error
from rlx_testing.checks import check, check_close, finish

work, cc, include = sys.argv[1:4]

C_SOURCE = r"""
#include <math.h>
#include <rlx/custom_call.h>

typedef RLX_BUFFER(float, 2) f32_2d;
typedef RLX_BUFFER0(float) f32_0d;
typedef RLX_BUFFER0(int64_t) i64_0d;
typedef RLX_BUFFER(double, 2) f64_2d;
typedef RLX_BUFFER(double, 1) f64_1d;

#define AT2(b, i, j) (b)->aligned[(b)->offset + (i) * (b)->strides[0] + \
                                  (j) * (b)->strides[1]]

/* y = sign(x) max(|x| - t, 0); count = the elements that pass. */
RLX_CUSTOM_CALL(soft_threshold)(f32_2d *x, f32_0d *t, f32_2d *y,
                                i64_0d *count) {
  float threshold = t->aligned[t->offset];
  int64_t n = 0;
  for (int64_t i = 0; i < x->sizes[0]; ++i)
    for (int64_t j = 0; j < x->sizes[1]; ++j) {
      float v = AT2(x, i, j);
      float m = fabsf(v) - threshold;
      AT2(y, i, j) = m > 0 ? copysignf(m, v) : 0.0f;
      n += m > 0;
    }
  count->aligned[count->offset] = n;
}

/* dx = dy where |x| > t, else 0. */
RLX_CUSTOM_CALL(soft_threshold_grad)(f32_2d *x, f32_0d *t, f32_2d *dy,
                                     f32_2d *dx) {
  float threshold = t->aligned[t->offset];
  for (int64_t i = 0; i < x->sizes[0]; ++i)
    for (int64_t j = 0; j < x->sizes[1]; ++j)
      AT2(dx, i, j) = fabsf(AT2(x, i, j)) > threshold ? AT2(dy, i, j) : 0.0f;
}

/* The Euclidean norm of each row. */
RLX_CUSTOM_CALL(row_norms)(f64_2d *x, f64_1d *norms) {
  for (int64_t i = 0; i < x->sizes[0]; ++i) {
    double sum = 0;
    for (int64_t j = 0; j < x->sizes[1]; ++j)
      sum += AT2(x, i, j) * AT2(x, i, j);
    norms->aligned[norms->offset + i * norms->strides[0]] = sqrt(sum);
  }
}
"""

MODULE = """
func.func @threshold(%a: tensor<4x32xf32>, %t: tensor<f32>) -> (tensor<4x16xf32>, tensor<i64>, tensor<4x16xf32>) {
  // Columns 8..23 of each row: a view with an offset and a row stride.
  %x = rlx.narrow %a axis = 1, start = 8, length = 16 : tensor<4x32xf32> -> tensor<4x16xf32>
  %y, %n = rlx.custom_call @soft_threshold(%x, %t) : (tensor<4x16xf32>, tensor<f32>) -> (tensor<4x16xf32>, tensor<i64>)
  // A second call of the same function, on the first one's result.
  %y2, %n2 = rlx.custom_call @soft_threshold(%y, %t) : (tensor<4x16xf32>, tensor<f32>) -> (tensor<4x16xf32>, tensor<i64>)
  %e = rlx.exp %y2 : tensor<4x16xf32>
  return %y, %n, %e : tensor<4x16xf32>, tensor<i64>, tensor<4x16xf32>
}

func.func @norms(%x: tensor<5x3xf64>) -> tensor<3xf64> {
  %xt = rlx.transpose %x [1, 0] : tensor<5x3xf64> -> tensor<3x5xf64>
  %n = rlx.custom_call @row_norms(%xt) : (tensor<3x5xf64>) -> tensor<3xf64>
  %s = rlx.mul %n, %n : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  return %s : tensor<3xf64>
}

// sum(soft_threshold(x, t)^2), the C function's gradient given by another.
func.func @loss(%x: tensor<4x16xf32>, %t: tensor<f32>) -> tensor<f32>
    attributes {rlx.differentiate = array<i64: 0, 1>} {
  %y = rlx.custom_fn (%x, %t : tensor<4x16xf32>, tensor<f32>) -> (tensor<4x16xf32>) {
  ^bb0(%a: tensor<4x16xf32>, %b: tensor<f32>):
    %r, %c = rlx.custom_call @soft_threshold(%a, %b) : (tensor<4x16xf32>, tensor<f32>) -> (tensor<4x16xf32>, tensor<i64>)
    rlx.yield %r : tensor<4x16xf32>
  } backward {
  ^bb0(%a: tensor<4x16xf32>, %b: tensor<f32>, %r: tensor<4x16xf32>, %dr: tensor<4x16xf32>):
    %da = rlx.custom_call @soft_threshold_grad(%a, %b, %dr) : (tensor<4x16xf32>, tensor<f32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    // d/dt = -sign(x) where |x| > t, i.e. -sign(r).
    %s = rlx.sign %r : tensor<4x16xf32>
    %sd = rlx.mul %s, %dr : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %sum = rlx.reduce sum %sd axes = [0, 1] : tensor<4x16xf32> -> tensor<f32>
    %db = rlx.neg %sum : tensor<f32>
    rlx.yield %da, %db : tensor<4x16xf32>, tensor<f32>
  }
  %sq = rlx.mul %y, %y : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %l = rlx.reduce sum %sq axes = [0, 1] : tensor<4x16xf32> -> tensor<f32>
  return %l : tensor<f32>
}
"""


def build_c():
    source = os.path.join(work, "custom.c")
    with open(source, "w") as f:
        f.write(C_SOURCE)
    obj = os.path.join(work, "custom.o")
    subprocess.run([cc, "-O2", "-fPIC", "-c", source, "-I", include, "-o",
                    obj], check=True)
    archive = os.path.join(work, "libcustom.a")
    # The archiver next to the C compiler (LLVM's), else the system's.
    llvm_ar = os.path.join(os.path.dirname(cc), "llvm-ar")
    ar = llvm_ar if os.path.exists(llvm_ar) else "ar"
    subprocess.run([ar, "rcs", archive, obj], check=True)
    return obj, archive


def soft_threshold(x, t):
    return np.sign(x) * np.maximum(np.abs(x) - t, 0)


rng = np.random.default_rng(1907)
obj, archive = build_c()

for name, link in [("object", obj), ("archive", archive)]:
    m = rlx.compile(MODULE, link=[link])
    a = rng.standard_normal((4, 32)).astype(np.float32)
    t = np.float32(0.6)
    y, n, e = m.threshold(a, np.array(t))
    x = a[:, 8:24].astype(np.float64)
    want = soft_threshold(x, t)
    check_close(f"{name}: soft_threshold of a view", y, want, 1e-6, 1e-6)
    check(f"{name}: count", int(n) == int((np.abs(x) > t).sum()),
          f"{int(n)} vs {(np.abs(x) > t).sum()}")
    check_close(f"{name}: two calls then rlx.exp", e,
                np.exp(soft_threshold(want, t)), 1e-6, 1e-6)

    xs = rng.standard_normal((5, 3))
    check_close(f"{name}: row norms of a transpose, squared", m.norms(xs),
                (xs.T ** 2).sum(axis=1), 1e-12, 1e-12)

    # The gradient through rlx.custom_fn: the backward's C function.
    xg = rng.standard_normal((4, 16)).astype(np.float32)
    outs = m.loss_grad(xg, np.array(t))
    y = soft_threshold(xg.astype(np.float64), t)
    check_close(f"{name}: loss", outs[0], (y ** 2).sum(), 1e-5, 1e-6)
    check_close(f"{name}: d loss / dx", outs[1],
                2 * y * (np.abs(xg) > t), 1e-6, 1e-6)
    check_close(f"{name}: d loss / dt", outs[2], -(2 * y * np.sign(y)).sum(),
                1e-5, 1e-6)

# Without its C function the module does not load.
try:
    rlx.compile(MODULE)
    check("unlinked module: load fails", False, "it loaded")
except Error as error:
    check("unlinked module: NOT_FOUND", error.code == "NOT_FOUND", error.code)
    check("unlinked module: names the function",
          "calls the C function 'soft_threshold' (rlx.custom_call), which is "
          "not linked into it" in str(error), str(error))

# --link files that do not define it: a compile error naming it.
other = os.path.join(work, "other.c")
with open(other, "w") as f:
    f.write("void unrelated(void) {}\n")
other_obj = os.path.join(work, "other.o")
subprocess.run([cc, "-fPIC", "-c", other, "-o", other_obj], check=True)
try:
    rlx.compile(MODULE, link=[other_obj])
    check("link without the function: compile fails", False, "it compiled")
except Error as error:
    check("link without the function: names it",
          "the --link files do not define the C function 'soft_threshold"
          in str(error), str(error))

finish()
