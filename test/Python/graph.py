# RUN: rm -rf %t && env RLX_CACHE_DIR=%t %oracle_python %s
# REQUIRES: torch
# The rlx Python graph builder, gradients and training (issue 16): models
# built with rlx.Graph against PyTorch in float64, every rlx op a method,
# `?` sizes, constants of each element type, several results, threads,
# rlx.grad against autograd, SGD and Adam steps against torch.optim, and the
# errors a user can make while building (raised at the line that made them)
# and at run time.
import inspect
import os
import sys

import numpy as np
import torch
import torch.nn.functional as F

import rlx
from rlx.graph import op_specs
from rlx_testing.checks import check, finish

torch.manual_seed(16)
rng = np.random.default_rng(16)


def close(name, got, want, rtol, atol):
    want = want.detach().numpy() if hasattr(want, "detach") else want
    got = np.asarray(got, np.float64)
    ok = got.shape == want.shape and np.allclose(got, want, rtol=rtol,
                                                 atol=atol)
    check(name, ok, f"shape {got.shape} vs {want.shape}, max error "
          f"{np.abs(got - want).max() if got.shape == want.shape else '-'}")


def raises(name, fn, error, fragments):
    try:
        fn()
    except error as e:
        text = str(e)
        missing = [f for f in fragments if f not in text]
        check(name, not missing, f"{missing} not in {text!r}")
        return
    except Exception as e:  # noqa: BLE001 - the wrong error is a failure
        check(name, False, f"{type(e).__name__}: {e}")
        return
    check(name, False, "no error")


def f32(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def t64(array):
    return torch.tensor(array, dtype=torch.float64)


# -- every op is a method, with the op's attributes as keywords ---------------
specs = op_specs()
built = [n for n, s in specs.items() if not s["regions"] and n != "yield"]
check("methods", all(callable(getattr(rlx.Graph, n, None)) for n in built),
      [n for n in built if not hasattr(rlx.Graph, n)])
check("method_count", len(built) > 100, len(built))
signature = inspect.signature(rlx.Graph.conv)
check("conv_signature",
      list(signature.parameters)[1:] == ["input", "weight", "stride",
                                         "padding", "dilation", "groups",
                                         "loc"], signature)
check("enum_doc", "bshd" in rlx.Graph.attention.__doc__,
      rlx.Graph.attention.__doc__)

# -- an MLP classifier: matmul, broadcasting add, tanh, softmax --------------
g = rlx.Graph("mlp")
x = g.tensor([8, 4], name="x")
w1, b1 = g.tensor([4, 16], name="w1"), g.tensor([16], name="b1")
w2 = g.tensor([16, 3], name="w2")
probs = g.softmax(g.tanh(x @ w1 + b1) @ w2, axis=1)
g.output(probs)
check("mlir", "rlx.softmax" in g.mlir() and "func.func @mlp" in g.mlir(),
      g.mlir())
xs, w1s, b1s, w2s = f32(8, 4), f32(4, 16), f32(16), f32(16, 3)
mlp = g.compile()
reference = torch.softmax(torch.tanh(t64(xs) @ t64(w1s) + t64(b1s)) @ t64(w2s),
                          1)
close("mlp_named", mlp(x=xs, w1=w1s, b1=b1s, w2=w2s), reference, 1e-5, 1e-6)
close("mlp_positional", mlp(xs, w1s, b1s, w2s), reference, 1e-5, 1e-6)
close("mlp_torch_inputs", mlp(torch.tensor(xs), w1s, b1s, w2s), reference,
      1e-5, 1e-6)
# The same graph again is a cache hit: no new entry in the cache directory.
entries = sorted(os.listdir(rlx.cache_dir()))
again = g.compile()
check("cache", sorted(os.listdir(rlx.cache_dir())) == entries, entries)
close("cache_result", again(xs, w1s, b1s, w2s), reference, 1e-5, 1e-6)

# -- a conv block: conv, batch norm (inference), relu, max pool, global pool -
g = rlx.Graph("conv_block")
image = g.tensor([2, 3, 16, 16], name="image")
weight = g.tensor([8, 3, 3, 3], name="weight")
stats = [g.tensor([8], name=n) for n in ("gamma", "beta", "mean", "var")]
y = g.conv(image, weight, stride=[1, 1], padding=[1, 1, 1, 1],
           dilation=[1, 1], groups=1)
y = g.relu(g.batch_norm_inference(y, *stats, eps=1e-5))
y = g.pool(y, kind="max", kernel=[2, 2], stride=[2, 2], padding=[0, 0, 0, 0])
pooled = g.global_pool(y, kind="avg")
g.output(y, pooled)
images, weights = f32(2, 3, 16, 16), f32(8, 3, 3, 3)
gamma, beta, mean = f32(8), f32(8), f32(8)
var = np.abs(f32(8)) + 0.5
got, got_pooled = g.compile()(images, weights, gamma, beta, mean, var)
want = F.max_pool2d(F.relu(F.batch_norm(
    F.conv2d(t64(images), t64(weights), padding=1), t64(mean), t64(var),
    t64(gamma), t64(beta), eps=1e-5)), 2)
close("conv_block", got, want, 1e-4, 1e-5)
close("global_pool", got_pooled, want.mean((2, 3), keepdim=True), 1e-4, 1e-5)

# -- attention with several results, layer norm with its statistics ---------
g = rlx.Graph("attention")
q, k, v = (g.tensor([2, 8, 2, 16], name=n) for n in "qkv")
out, logsumexp = g.attention(q, k, v, layout="bshd", num_heads=2,
                             num_kv_heads=2, mask_kind="causal",
                             with_logsumexp=True)
normed, *statistics = g.layer_norm(g.reshape(out, shape=[2, 8, -1]),
                                   g.constant(np.ones(32, np.float32)),
                                   g.constant(np.zeros(32, np.float32)),
                                   axis=2, eps=1e-5, with_statistics=True)
check("results", out.shape == (2, 8, 2, 16) and len(statistics) == 2,
      (out, logsumexp, statistics))
g.output(normed, logsumexp)
qs, ks, vs = f32(2, 8, 2, 16), f32(2, 8, 2, 16), f32(2, 8, 2, 16)
got, got_lse = g.compile()(qs, ks, vs)
scores = (t64(qs).transpose(1, 2) @ t64(ks).transpose(1, 2).transpose(-1, -2)
          ) / 4.0
scores = scores.masked_fill(torch.ones(8, 8).triu(1).bool(), float("-inf"))
attended = (torch.softmax(scores, -1) @ t64(vs).transpose(1, 2)).transpose(1, 2)
close("attention", got, F.layer_norm(attended.reshape(2, 8, 32), [32]), 1e-4,
      1e-5)
close("logsumexp", got_lse, torch.logsumexp(scores, -1), 1e-5, 1e-5)

# -- `?` sizes, scalar inputs, Python numbers, constants of each dtype -------
g = rlx.Graph("dynamic")
x = g.tensor([None, 4], name="x")
scale = g.tensor([], name="scale")
y = g.cast(g.sigmoid(x * scale + 1.0) * 2, dtype="f64")
g.output(y)
check("dynamic_shape", y.shape == (None, 4) and y.dtype == "f64", y)
dynamic = g.compile()
for rows in (1, 5):
    xs = f32(rows, 4)
    close(f"dynamic_{rows}", dynamic(xs, np.float32(0.5)),
          torch.sigmoid(t64(xs) * 0.5 + 1) * 2, 1e-6, 1e-6)

g = rlx.Graph("constants")
a = g.constant(np.arange(6, dtype=np.float16).reshape(2, 3))
b = g.constant(np.array([[1.5, -2.25, 3.0]], np.float32), dtype="bf16")
mask = g.constant(np.array([True, False, True]))
index = g.constant(np.array([1, 0], np.int64))
check("constant_types", (a.dtype, b.dtype, mask.dtype, index.dtype) ==
      ("f16", "bf16", "i1", "i64"), (a, b, mask, index))
picked = g.gather(g.cast(a, dtype="f32"), index, axis=0)
chosen = g.where(mask, g.cast(b, dtype="f32"), picked)
g.output(chosen)
close("constants", g.compile()(),
      np.array([[1.5, 4.0, 3.0], [1.5, 1.0, 3.0]]), 0, 0)

# -- identical results at 1 and 2 threads ------------------------------------
g = rlx.Graph("threads")
x, w = g.tensor([64, 96], name="x"), g.tensor([96, 80], name="w")
g.output(g.gelu(x @ w))
xs, ws = f32(64, 96), f32(96, 80)
one = g.compile(threads=1)(xs, ws)
two = g.compile(threads=2)(xs, ws)
check("threads", np.array_equal(one, two), np.abs(one - two).max())
rlx.set_num_threads(1)

# -- gradients against autograd ----------------------------------------------
g = rlx.Graph("loss")
w1, b1 = g.tensor([4, 16], name="w1"), g.tensor([16], name="b1")
w2, b2 = g.tensor([16, 3], name="w2"), g.tensor([3], name="b2")
x, labels = g.tensor([32, 4], name="x"), g.tensor([32], "i64", name="labels")
logits = g.tanh(x @ w1 + b1) @ w2 + b2
loss = g.reduce(g.softmax_cross_entropy_with_labels(logits, labels),
                kind="mean", axes=[0])
g.output(loss)
params = [torch.randn(4, 16) * 0.5, torch.zeros(16), torch.randn(16, 3) * 0.5,
          torch.zeros(3)]
data, targets = torch.randn(32, 4), torch.randint(0, 3, (32,))


def torch_loss(ps):
    return F.cross_entropy(torch.tanh(data.double() @ ps[0] + ps[1]) @ ps[2]
                           + ps[3], targets)


gradient = rlx.grad(g, wrt=[w1, b1, w2, b2]).compile()
got = gradient(*[p.numpy() for p in params], data.numpy(), targets.numpy())
leaves = [p.double().requires_grad_() for p in params]
want = torch_loss(leaves)
want.backward()
close("grad_loss", got[0], want, 1e-6, 1e-6)
for name, value, leaf in zip(["w1", "b1", "w2", "b2"], got[1:], leaves):
    close(f"grad_{name}", value, leaf.grad, 1e-4, 1e-6)
partial = rlx.grad(g, wrt=[w2]).compile()(*[p.numpy() for p in params],
                                          data.numpy(), targets.numpy())
check("grad_subset", len(partial) == 2, len(partial))
close("grad_subset_w2", partial[1], leaves[2].grad, 1e-4, 1e-6)

# -- SGD with momentum and Adam against torch.optim, 10 steps ----------------
for optimizer, torch_optimizer in [
        (rlx.SGD(lr=0.5, momentum=0.9, weight_decay=1e-3),
         lambda ps: torch.optim.SGD(ps, lr=0.5, momentum=0.9,
                                    weight_decay=1e-3)),
        (rlx.Adam(lr=0.05), lambda ps: torch.optim.Adam(ps, lr=0.05))]:
    label = type(optimizer).__name__
    trainer = rlx.Trainer(g, {"w1": params[0], "b1": params[1],
                              w2: params[2], b2: params[3]}, optimizer)
    leaves = [p.double().requires_grad_() for p in params]
    reference = torch_optimizer(leaves)
    worst = 0.0
    for _ in range(10):
        got = trainer.step(x=data.numpy(), labels=targets.numpy())
        reference.zero_grad()
        want = torch_loss(leaves)
        want.backward()
        reference.step()
        worst = max(worst, abs(got - float(want)))
    check(f"{label}_losses", worst < 1e-5, worst)
    for name, leaf in zip(["w1", "b1", "w2", "b2"], leaves):
        close(f"{label}_{name}", trainer.parameters[name], leaf, 1e-4, 1e-4)

# -- errors while building: raised at the line that made them ---------------
g = rlx.Graph("errors")
x = g.tensor([4, 8], name="x")
line = sys._getframe().f_lineno + 1
raises("shape_mismatch", lambda: g.matmul(x, x), rlx.GraphError,
       [f"graph.py:{line}:", "contracting dimensions differ"])
raises("broadcast", lambda: g.add(x, g.constant(np.ones(3, np.float32))),
       rlx.GraphError, ["error:"])
raises("unknown_attribute", lambda: g.softmax(x, axes=1), TypeError,
       ["'axes'", "attributes: axis"])
raises("missing_attribute", lambda: g.softmax(x), TypeError, ["'axis'"])
raises("enum_value", lambda: g.reduce(x, kind="median", axes=[0]),
       rlx.GraphError, ["median", "sum, mean, max, min, prod"])
raises("verifier", lambda: g.softmax(x, axis=5), rlx.GraphError, ["axis"])
raises("other_graph", lambda: g.exp(rlx.Graph("other").tensor([2])),
       rlx.GraphError, ["another graph"])
raises("too_many_operands", lambda: g.exp(x, x), TypeError, ["1 operand"])
raises("no_outputs", g.mlir, rlx.GraphError, ["no outputs"])
raises("bad_dtype", lambda: g.tensor([2], "f13"), TypeError, ["f13"])
raises("grad_not_scalar", lambda: (g.output(x), rlx.grad(g, wrt=[x])),
       rlx.GraphError, ["scalar loss"])
g.output(g.reduce(x, kind="sum", axes=[0, 1]))
raises("grad_not_input", lambda: rlx.grad(g, wrt=[g.exp(x)]),
       rlx.GraphError, ["input"])
# After a failed op the graph is still valid and compiles.
errors = g.compile()
close("after_errors", errors(np.ones((4, 8), np.float32)), np.array(32.0), 0,
      0)

# -- errors at run time: the runtime's status as rlx.Error -------------------
raises("run_shape", lambda: errors(np.ones((4, 7), np.float32)), rlx.Error,
       ["SHAPE_MISMATCH", "input 0"])
raises("run_dtype", lambda: errors(np.ones((4, 8), np.float64)), rlx.Error,
       ["DTYPE_MISMATCH"])
raises("run_unknown_name", lambda: errors(y=np.ones((4, 8), np.float32)),
       TypeError, ["unknown input(s) y", "the inputs are x"])
raises("run_missing_name", lambda: mlp(x=xs), TypeError,
       ["missing input(s) w1, b1, w2"])

finish()
