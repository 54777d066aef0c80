# RUN: %oracle_python %s
# REQUIRES: torch
# matmul: rank 2, batched with broadcast batch dims, size-1 M/N/K, f16 (f32
# accumulation), f64 and i32.
import numpy as np
import torch
from rlx_testing import Suite, elem_of, type_of, ttype

rng = np.random.default_rng(3)
s = Suite(fold=True)
# A K-term f32 dot product of values in [-1, 1) is off by up to ~sqrt(K) ulp
# of the terms, not of the (possibly cancelled) result: atol 1e-5, not 1e-6.
F32_DOT = (1e-5, 1e-5)


def matmul(name, a_shape, b_shape, dt=np.float32, tol=None):
    if np.dtype(dt).kind == "f":
        a, b = (rng.uniform(-1, 1, sh).astype(dt)
                for sh in (a_shape, b_shape))
    else:
        a, b = (rng.integers(-50, 50, sh).astype(dt)
                for sh in (a_shape, b_shape))
    out = ttype(torch.matmul(torch.zeros(a_shape), torch.zeros(b_shape)).shape,
                elem_of(a))
    s.case(name, f"%r = rlx.matmul %a0, %a1 : ({type_of(a)}, {type_of(b)}) "
           f"-> {out}", [a, b], torch.matmul, out=out,
           tol=tol or (F32_DOT if dt == np.float32 else None))


matmul("matmul_2d", (5, 7), (7, 3))
matmul("matmul_2d_odd", (33, 65), (65, 17))
matmul("matmul_batched", (4, 3, 5), (4, 5, 2))
matmul("matmul_batch_bcast", (2, 1, 3, 4), (5, 4, 2))
matmul("matmul_lhs_batch", (3, 2, 4), (4, 6))
matmul("matmul_rhs_batch", (2, 4), (3, 4, 6))
matmul("matmul_m1", (1, 8), (8, 3))
matmul("matmul_n1", (4, 8), (8, 1))
matmul("matmul_k1", (4, 1), (1, 3))
matmul("matmul_all1", (1, 1), (1, 1))
matmul("matmul_batch1_k1", (1, 3, 1), (2, 1, 4))
# f16 in and out, accumulated in f32: the only error is the final rounding.
matmul("matmul_f16", (16, 64), (64, 8), np.float16)
matmul("matmul_f16_batched", (2, 1, 3, 32), (3, 32, 5), np.float16)
matmul("matmul_f64", (6, 9), (9, 4), np.float64)
matmul("matmul_i32", (3, 5), (2, 5, 4), np.int32)
matmul("matmul_i64", (3, 5), (5, 4), np.int64)
s.run()
