# RUN: %oracle_python %s
# REQUIRES: torch
# Functions named like the symbols a compiled module calls or lives beside:
# libm (exp, expf, erff, tanh, ...), libc (malloc, free, memcpy, select,
# read, index), the runtime (rlx_module_load, rlx_invoke_*) and MLIR's
# lowering (memrefCopy, _mlir_ciface_*). Each computes what its body says,
# against torch in float64: the module's own calls to exp or free never bind
# to a program function of that name (rlx-mangle-function-names), and the
# host never binds to the module's (only rlx_invoke_* and rlx_manifest are
# exported).
import numpy as np
import torch
from rlx_testing import Suite, type_of

rng = np.random.default_rng(7)
x = rng.uniform(-3, 3, (4, 8)).astype(np.float32)
positive = rng.uniform(0.1, 5, (4, 8)).astype(np.float32)
# Rows long enough that softmax's temporaries are heap buffers (malloc and
# free).
wide = rng.uniform(-3, 3, (8, 4099)).astype(np.float32)
t = type_of(x)

s = Suite()
UNARY = {
    "exp": ("exp", torch.exp, x),
    "expf": ("exp", torch.exp, x),
    "exp2": ("exp", torch.exp, x),
    "erff": ("erf", torch.erf, x),
    "erf": ("erf", torch.erf, x),
    "tanh": ("tanh", torch.tanh, x),
    "tanhf": ("tanh", torch.tanh, x),
    "sqrt": ("sqrt", torch.sqrt, positive),
    "sqrtf": ("sqrt", torch.sqrt, positive),
    "log": ("log", torch.log, positive),
    "logf": ("log", torch.log, positive),
    "round": ("round", torch.round, x),
    "roundf": ("round", torch.round, x),
    "index": ("neg", torch.neg, x),
    "read": ("abs", torch.abs, x),
    "rlx_module_load": ("sigmoid", torch.sigmoid, x),
    "rlx_function_invoke": ("neg", torch.neg, x),
    "rlx_invoke_exp": ("exp", torch.exp, x),
    "_mlir_ciface_tanh": ("tanh", torch.tanh, x),
    "memrefCopy": ("neg", torch.neg, x),
    "mgpuMemAlloc": ("neg", torch.neg, x),
    "rlx_fn_exp": ("sqrt", torch.sqrt, positive),
}
for name, (op, ref, a) in UNARY.items():
    s.case(name, f"%r = rlx.{op} %a0 : {type_of(a)}", [a], ref, out=type_of(a))

softmax = (f"%r = rlx.softmax %a0 axis = 1 : {type_of(wide)}",
           lambda a: torch.softmax(a, dim=1))
for name in ("malloc", "free", "memcpy", "aligned_alloc", "posix_memalign"):
    s.case(name, softmax[0], [wide], softmax[1], out=type_of(wide))

cond = x > 0
s.case("select",
       f"%r = rlx.where %a0, %a1, %a2 : ({type_of(cond)}, {t}, {t}) -> {t}",
       [cond, x, positive], torch.where, out=t)
s.case("main", f"%r = rlx.transpose %a0 [1, 0] : {t} -> tensor<8x4xf32>",
       [x], lambda a: a.t(), out="tensor<8x4xf32>", tol="exact")
s.run()
