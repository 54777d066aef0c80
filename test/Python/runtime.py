# RUN: rm -rf %t && env RLX_CACHE_DIR=%t %oracle_python %s
# REQUIRES: torch
# The rlx Python package's runtime binding and compile cache (issue 16):
# results against numpy float64 references, `?` sizes, several outputs,
# bf16 through float32, complex64 and complex128, torch tensors as inputs,
# identical results at 1 and 2 threads, the on-disk cache, a mesh module's
# shape and split outputs (issue 21), and every error a user can make at run
# time as an rlx.Error carrying the runtime's (or rlx-compile's) message.
import os
import time

import numpy as np
import torch

import rlx
from rlx_testing.checks import check, finish

rng = np.random.default_rng(16)


def raises(name, fn, code, fragment):
    try:
        fn()
    except rlx.Error as e:
        check(name, e.code == code and fragment in str(e),
              f"got {e.code}: {e}")
        return
    check(name, False, "no error")


TEXT = """
func.func @layer(%x: tensor<?x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> tensor<?x16xf32> {
  %0 = rlx.matmul %x, %w : (tensor<?x8xf32>, tensor<8x16xf32>) -> tensor<?x16xf32>
  %1 = rlx.add %0, %b : (tensor<?x16xf32>, tensor<16xf32>) -> tensor<?x16xf32>
  %2 = rlx.gelu %1 : tensor<?x16xf32>
  return %2 : tensor<?x16xf32>
}
func.func @stats(%x: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?xf32>) {
  %0 = rlx.softmax %x axis = 1 : tensor<?x?xf32>
  %1 = rlx.reduce max %x axes = [1] : tensor<?x?xf32> -> tensor<?xf32>
  return %0, %1 : tensor<?x?xf32>, tensor<?xf32>
}
func.func @join(%a: tensor<?x3xf32>, %b: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = rlx.concat %a, %b axis = 0 : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
func.func @half(%x: tensor<4x4xbf16>) -> tensor<4x4xbf16> {
  %0 = rlx.mul %x, %x : (tensor<4x4xbf16>, tensor<4x4xbf16>) -> tensor<4x4xbf16>
  return %0 : tensor<4x4xbf16>
}
"""

start = time.perf_counter()
module = rlx.compile(TEXT)
first = time.perf_counter() - start
check("functions", sorted(module.functions) == ["half", "join", "layer",
                                                 "stats"], module)
check("signature", module.layer.signature() ==
      "layer(f32[s0,8], f32[8,16], f32[16]) -> (f32[s0,16])",
      module.layer.signature())

check("input_shapes", module.stats.symbols == ["s0", "s1"] and
      module.stats.input_shapes(3, 5) == [(3, 5)] and
      module.layer.input_shapes(7) == [(7, 8), (8, 16), (16,)],
      (module.stats.symbols, module.stats.input_shapes(3, 5)))
raises("input_shapes_count", lambda: module.stats.input_shapes(3),
       "INVALID_ARGUMENT", "has 2 symbols (s0, s1), got 1 sizes")


def gelu(v):
    return 0.5 * v * (1 + np.vectorize(__import__("math").erf)(v / np.sqrt(2)))


w = rng.standard_normal((8, 16)).astype(np.float32)
b = rng.standard_normal(16).astype(np.float32)
for rows in (1, 7, 64):
    x = rng.standard_normal((rows, 8)).astype(np.float32)
    got = module.layer(x, w, b)
    want = gelu(x.astype(np.float64) @ w + b)
    check(f"layer_{rows}", got.shape == (rows, 16) and
          np.allclose(got, want, rtol=1e-5, atol=1e-5),
          f"max error {np.abs(got - want).max()}")

x = rng.standard_normal((5, 9)).astype(np.float32)
soft, top = module.stats(x)
ref = np.exp(x - x.max(1, keepdims=True))
check("stats_softmax", np.allclose(soft, ref / ref.sum(1, keepdims=True),
                                   rtol=1e-6, atol=1e-7))
check("stats_max", np.array_equal(top, x.max(1)))

a, c = np.ones((2, 3), np.float32), np.zeros((4, 3), np.float32)
joined = module.join(a, c)
check("join_shape", joined.shape == (6, 3) and joined[:2].all() and
      not joined[2:].any(), joined)

h = rng.standard_normal((4, 4)).astype(np.float32)
got = module.half(h)
check("bf16", got.dtype == np.float32 and
      np.allclose(got, h.astype(np.float64) ** 2, rtol=2e-2, atol=1e-2),
      got)

t = torch.from_numpy(rng.standard_normal((3, 8)).astype(np.float32))
got = module.layer(t, torch.from_numpy(w), b)
check("torch_inputs", np.allclose(got, gelu(t.double().numpy() @ w + b),
                                  rtol=1e-5, atol=1e-5))
# A transposed (non-contiguous) view is copied to the layout it needs.
check("strided_input", np.allclose(module.layer(x[:, :8].copy(), w, b),
                                   module.layer(np.asfortranarray(x[:, :8]),
                                                w, b)))

big = rng.standard_normal((512, 8)).astype(np.float32)
rlx.set_num_threads(1)
one = module.layer(big, w, b)
rlx.set_num_threads(2)
two = module.layer(big, w, b)
check("threads", np.array_equal(one, two) and rlx.get_num_threads() == 2)

# A bound call reads its inputs in place at each run and writes the same
# output buffers; once closed it refuses to run.
inp = rng.standard_normal((4, 8)).astype(np.float32)
call = module.layer.bind(inp, w, b)
call()
first_out = call.results().copy()
inp *= 2
call()
check("bound_call", np.allclose(first_out, gelu(inp / 2 @ w.astype(np.float64)
                                                 + b), rtol=1e-5, atol=1e-5)
      and np.allclose(call.results(), gelu(inp.astype(np.float64) @ w + b),
                      rtol=1e-5, atol=1e-5))
call.close()
raises("closed_call", call, "INVALID_ARGUMENT", "closed call of 'layer'")

# The cache: the same text and options load the same file; other options
# compile again.
start = time.perf_counter()
again = rlx.compile(TEXT)
second = time.perf_counter() - start
check("cache_hit", again.path == module.path and second < first / 5,
      f"{again.path} vs {module.path}, {second:.3f} s vs {first:.3f} s")
files = sorted(f for f in os.listdir(rlx.cache_dir()) if f.endswith(".so"))
check("cache_files", len(files) == 1, files)
fresh = rlx.compile(TEXT, cache=False)
check("cache_refresh", fresh.path == module.path and len(
    [f for f in os.listdir(rlx.cache_dir()) if f.endswith(".so")]) == 1)
other = rlx.compile(TEXT, opt_level=1)
check("cache_options", other.path != module.path and np.allclose(
    other.layer(x[:, :8].copy(), w, b), module.layer(x[:, :8].copy(), w, b),
    rtol=1e-6, atol=1e-6))

# Complex tensors (c64, c128) are numpy's complex64 and complex128, in and
# out: the runtime's hand-written fixture module multiplies c64 vectors and
# splits a c128 matrix into its parts.
complex_module = rlx.load(os.path.join(
    os.path.dirname(rlx.runtime.library_path()),
    "rlx_runtime_fixture_complex.so"))
check("complex_signature", complex_module.mul_c64.signature() ==
      "mul_c64(c64[3], c64[3]) -> (c64[3])",
      complex_module.mul_c64.signature())
ca = np.array([1 + 2j, 3 - 1j, 0.5], np.complex64)
cb = np.array([2, 1 + 1j, -4 + 2j], np.complex64)
got = complex_module.mul_c64(ca, cb)
check("complex64", got.dtype == np.complex64 and np.array_equal(got, ca * cb),
      got)
cz = np.array([[0.1 + 2j, -3 + 0.5j], [-1j, 4.25 + 1e-3j]])
re, im, total = complex_module.split_c128(cz)
check("complex128", total.dtype == np.complex128 and total.shape == () and
      np.array_equal(re, cz.real) and np.array_equal(im, cz.imag) and
      np.isclose(total, cz.sum(), rtol=1e-15, atol=0), (re, im, total))
raises("complex_dtype", lambda: complex_module.mul_c64(ca.astype(
    np.complex128), cb), "DTYPE_MISMATCH", "expected dtype c64, got c128")
raises("complex_for_real", lambda: module.layer(np.zeros((2, 8), np.complex64),
                                                w, b),
       "DTYPE_MISMATCH", "input 0 of 'layer': expected dtype f32, got c64")

# A mesh module (the runtime's fixture, on a fake MPI of 2 processes; this
# is process 0): whole inputs in, this process's block of a split output.
mesh_module = rlx.load(os.path.join(
    os.path.dirname(rlx.runtime.library_path()),
    "rlx_runtime_fixture_mesh.so"))
check("mesh", mesh_module.mesh == (2,) and mesh_module.num_processes == 2 and
      mesh_module.process == 0 and complex_module.mesh == () and
      complex_module.num_processes == 1,
      (mesh_module.mesh, mesh_module.num_processes, mesh_module.process))
whole, block = mesh_module.rows(np.arange(12, dtype=np.float32).reshape(4, 3),
                                np.zeros(3, np.float32))
check("mesh_outputs", whole.shape == (4, 3) and block.shape == (2, 3),
      (whole.shape, block.shape))

# Errors at run time carry the runtime's status and message.
raises("shape", lambda: module.layer(x[:, :8].copy(), w[:4], b),
       "SHAPE_MISMATCH", "input 1 of 'layer': dim 0 is 4, expected 8")
raises("dtype", lambda: module.layer(x[:, :8].astype(np.float64), w, b),
       "DTYPE_MISMATCH", "input 0 of 'layer'")
raises("count", lambda: module.layer(x[:, :8].copy(), w), "INVALID_ARGUMENT",
       "takes 3 inputs, got 2")
raises("rank", lambda: module.layer(np.zeros(8, np.float32), w, b),
       "SHAPE_MISMATCH", "input 0 of 'layer'")
raises("numpy_dtype", lambda: module.layer(np.zeros((2, 8), np.uint32), w, b),
       "DTYPE_MISMATCH", "numpy dtype uint32 has no rlx element type")
raises("function", lambda: module["missing"], "NOT_FOUND", "layer")
raises("module", lambda: rlx.load("/nonexistent/module.so"), "NOT_FOUND",
       "/nonexistent/module.so")
raises("compile", lambda: rlx.compile("func.func @f(%x: tensor<2xf32>) -> "
                                      "tensor<3xf32> {\n  %0 = rlx.exp %x : "
                                      "tensor<2xf32>\n  return %0 : "
                                      "tensor<3xf32>\n}\n"),
       "INVALID_ARGUMENT", "error:")

finish()
