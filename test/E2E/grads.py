# RUN: %oracle_python %s
# RUN: %oracle_python %s --no-fuse
# The GPU's row kernels (norm gradients: a block per row) run on the CPU,
# threads taking turns between barriers (rlx-compile --gpu-blocks-on-cpu):
# RUN: env RLX_TEST_TARGET=gpu-blocks-descending %oracle_python %s
# REQUIRES: torch
# Backward ops against torch.autograd in float64: relu_backward and
# activation_backward for every ActivationKind (random points plus the
# non-differentiable ones: 0, the hard_* kinks, large inputs), f32, f16 and
# f64; layer_norm_backward and rms_norm_backward (with and without the beta
# gradient) over the last, a middle and the first axis, fed the statistics
# of the forward op's `with_statistics`; group_norm_backward (1, some and C
# groups; 0 to 3 spatial dims) and batch_norm_inference_backward;
# ada_layer_norm_backward (layer and rms; scale/shift [B, 1, D], [D] and
# unbroadcast) and gated_residual_backward (gate [B, 1, D], [D] and
# unbroadcast); the
# softmax cross-entropy backward ops with soft, unnormalized and one-hot
# targets, integer labels and out-of-range labels (NaN rows). The f64 cases of the norms, the
# losses and two activations are also checked against central finite
# differences of the forward in float64, independently of autograd. Every
# case also runs on constants through the folders; with --no-fuse (second
# RUN line) the module is compiled unfused instead, so each row op lowers
# through rlx-to-linalg's own decomposition into one row region.
import sys

import numpy as np
import torch
import torch.nn.functional as F
from rlx_testing import Suite, type_of, ttype

nan = float("nan")
rng = np.random.default_rng(11)
NO_FUSE = "--no-fuse" in sys.argv[1:]
s = Suite(fold=not NO_FUSE, compile_args=["--no-fuse"] if NO_FUSE else [])


def randn(*shape, dtype=np.float32, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(dtype)


def vjp(fn, *inputs, grad, wrt):
    """Gradients of `fn(*inputs)` against `grad` for the inputs at `wrt`."""
    inputs = [x.clone().requires_grad_(i in wrt) for i, x in enumerate(inputs)]
    fn(*inputs).backward(grad)
    return tuple(inputs[i].grad for i in wrt)


def finite_differences(fn, *inputs, grad, wrt, h=1e-6):
    """Central differences of sum(grad * fn(*inputs)) for the inputs at
    `wrt`, in float64."""
    grads = []
    for i in wrt:
        x = inputs[i]
        g = torch.zeros_like(x)
        flat = x.reshape(-1)
        for k in range(flat.numel()):
            def loss(delta):
                moved = flat.clone()
                moved[k] += delta
                args = list(inputs)
                args[i] = moved.reshape(x.shape)
                return (grad * fn(*args)).sum()
            g.reshape(-1)[k] = (loss(h) - loss(-h)) / (2 * h)
        grads.append(g)
    return tuple(grads)


# --- activations ----------------------------------------------------------------

# Every ActivationKind: the PyTorch function and the inputs to try (its
# domain). round's reference is straight-through (PyTorch gives 0).
ANY = "any"
ACTIVATIONS = {
    "gelu": (F.gelu, ANY),
    "gelu_approx": (lambda t: F.gelu(t, approximate="tanh"), ANY),
    "silu": (F.silu, ANY),
    "relu": (F.relu, ANY),
    "sigmoid": (torch.sigmoid, ANY),
    "tanh": (torch.tanh, ANY),
    "elu": (F.elu, ANY),
    "mish": (F.mish, ANY),
    "softplus": (F.softplus, ANY),
    "hard_swish": (F.hardswish, ANY),
    "hard_sigmoid": (F.hardsigmoid, ANY),
    "softsign": (F.softsign, ANY),
    "log_sigmoid": (F.logsigmoid, ANY),
    "exp": (torch.exp, ANY),
    "log": (torch.log, "positive"),
    "sqrt": (torch.sqrt, "positive"),
    "rsqrt": (torch.rsqrt, "positive"),
    "neg": (torch.neg, ANY),
    "abs": (torch.abs, ANY),
    "sin": (torch.sin, ANY),
    "cos": (torch.cos, ANY),
    "tan": (torch.tan, "small"),
    "atan": (torch.atan, ANY),
    "recip": (torch.reciprocal, "positive"),
    "round": (lambda t: t + (torch.round(t) - t).detach(), ANY),
    "floor": (torch.floor, ANY),
    "ceil": (torch.ceil, ANY),
    "sign": (torch.sign, ANY),
    "erf": (torch.erf, ANY),
}
# 0 (relu, abs, sign), the kinks of hard_swish and hard_sigmoid, and
# inputs where exp overflows or sigmoid saturates in f32.
EDGES = [0.0, -0.0, -3.0, 3.0, 6.0, -6.0, 25.0, -25.0, 100.0, -100.0]


def activation_input(domain, dtype, n=40):
    x = rng.uniform(-4, 4, n)
    if domain == ANY:
        x = np.concatenate([x, EDGES])
        if dtype == np.float16:  # exp(100) and friends overflow f16
            x = np.clip(x, -8, 8)
    elif domain == "positive":
        x = np.abs(x) + 0.05
    else:
        x = x * 0.35
    return x.astype(dtype)


def activation(name, kind, dtype, fd=False):
    fn, domain = ACTIVATIONS[kind]
    x = activation_input(domain, dtype)
    dy = randn(len(x), dtype=dtype)
    t = type_of(x)

    def ref(dy, x):
        dx = vjp(fn, x, grad=dy, wrt=[0])[0]
        if kind == "hard_swish":
            # PyTorch's vectorized kernel gives dy at x = 3, its scalar one
            # (and rlx) 1.5 * dy.
            dx = torch.where(x == 3, 1.5 * dy, dx)
        return dx
    s.case(name, f"%r = rlx.activation_backward {kind} %a0, %a1 : {t}",
           [dy, x], ref, out=t)
    if fd:  # away from the kinks, where differences are meaningful
        x = rng.uniform(-3, 3, 24).astype(dtype)
        s.case(name + "_finite_differences",
               f"%r = rlx.activation_backward {kind} %a0, %a1 : "
               f"{type_of(x)}", [dy[:24], x],
               lambda dy, x: finite_differences(fn, x, grad=dy, wrt=[0])[0],
               out=type_of(x), tol=(1e-6, 1e-7))


for kind in ACTIVATIONS:
    activation(f"{kind}_f32", kind, np.float32)
for kind in ["gelu", "gelu_approx", "silu", "sigmoid", "tanh", "mish",
             "hard_swish", "log_sigmoid", "rsqrt", "erf"]:
    activation(f"{kind}_f16", kind, np.float16)
activation("gelu_approx_f64", "gelu_approx", np.float64, fd=True)
activation("mish_f64", "mish", np.float64, fd=True)

x = np.array([-2.0, -0.0, 0.0, 1e-30, 3.0, nan], np.float32)
dy = randn(len(x))
s.case("relu_backward", f"%r = rlx.relu_backward %a0, %a1 : {type_of(x)}",
       [dy, x], lambda dy, x: vjp(F.relu, x, grad=dy, wrt=[0])[0],
       out=type_of(x))
x = randn(3, 5, dtype=np.float16)
dy = randn(3, 5, dtype=np.float16)
s.case("relu_backward_f16", f"%r = rlx.relu_backward %a0, %a1 : {type_of(x)}",
       [dy, x], lambda dy, x: vjp(F.relu, x, grad=dy, wrt=[0])[0],
       out=type_of(x))

# --- norms -----------------------------------------------------------------------

F32_NORM = (2e-5, 1e-5)
F16_NORM = (2e-3, 2e-3)


def tolerance(dtype):
    return {np.float32: F32_NORM, np.float16: F16_NORM}.get(dtype)


def gradient_cases(name, body, dy, inputs, forward, wrt, out, fd,
                   forward_args=lambda *xs: xs):
    """A case checking `body`, whose arguments are `dy` then `inputs`, against
    the vjp of `forward(*forward_args(*inputs))` at `wrt` for the gradient
    `dy`; with `fd`, a second case against central finite differences."""
    def reference(gradient):
        return lambda dy, *xs: gradient(forward, *forward_args(*xs), grad=dy,
                                        wrt=wrt)
    s.case(name, body, [dy] + inputs, reference(vjp), out=out,
           tol=tolerance(inputs[0].dtype))
    if fd:
        s.case(name + "_finite_differences", body, [dy] + inputs,
               reference(finite_differences), out=out, tol=(1e-6, 1e-7))


def stat_type(x, axis):
    shape = list(x.shape)
    shape[axis] = 1
    return ttype(shape, "f64" if x.dtype == np.float64 else "f32")


def layer_norm_ref(axis, eps):
    def fn(x, g, b):
        d = x.shape[axis]
        return F.layer_norm(x.movedim(axis, -1), [d], g, b,
                            eps).movedim(-1, axis)
    return fn


def rms_norm_ref(axis, eps):
    def fn(x, g, b=None):
        rstd = torch.rsqrt((x * x).mean(axis, keepdim=True) + eps)
        shape = [1] * x.dim()
        shape[axis] = -1
        y = x * rstd * g.reshape(shape)
        return y if b is None else y + b.reshape(shape)
    return fn


def layer_norm(name, x, axis, eps=1e-5, fd=False):
    d = x.shape[axis]
    g, b = randn(d, dtype=x.dtype), randn(d, dtype=x.dtype)
    dy = randn(*x.shape, dtype=x.dtype)
    t, gt, st = type_of(x), type_of(g), stat_type(x, axis)
    body = (f"%y, %m, %rs = rlx.layer_norm %a1, %a2, %a3 axis = {axis} "
            f"eps = {eps:e} with_statistics : ({t}, {gt}, {gt}) -> "
            f"({t}, {st}, {st})\n"
            f"  %r0, %r1, %r2 = rlx.layer_norm_backward %a0, %a1, %a2, %m, "
            f"%rs axis = {axis} : ({t}, {t}, {gt}, {st}, {st}) -> "
            f"({t}, {gt}, {gt})")
    gradient_cases(name, body, dy, [x, g, b], layer_norm_ref(axis, eps),
                   [0, 1, 2], [t, gt, gt], fd)


layer_norm("layer_norm_last", randn(4, 16), -1)
layer_norm("layer_norm_middle", randn(3, 5, 4), 1)
layer_norm("layer_norm_first", randn(9, 4), 0)
layer_norm("layer_norm_rank1", randn(11), 0)
layer_norm("layer_norm_axis_size1", randn(4, 1), -1)
layer_norm("layer_norm_large_scale", randn(6, 12, scale=1e3), 1)
layer_norm("layer_norm_f16", randn(6, 24, dtype=np.float16), -1)
layer_norm("layer_norm_f16_middle", randn(3, 24, 5, dtype=np.float16), 1)
layer_norm("layer_norm_f64", randn(3, 4, 5, dtype=np.float64), -2, fd=True)


def rms_norm(name, x, axis, with_beta, eps=1e-6, fd=False):
    d = x.shape[axis]
    g, b = randn(d, dtype=x.dtype), randn(d, dtype=x.dtype)
    dy = randn(*x.shape, dtype=x.dtype)
    t, gt, st = type_of(x), type_of(g), stat_type(x, axis)
    params = [g, b] if with_beta else [g]
    args = ", ".join(f"%a{i + 2}" for i in range(len(params)))
    ptypes = ", ".join([gt] * len(params))
    grads = [t, gt, gt] if with_beta else [t, gt]
    results = ", ".join(f"%r{i}" for i in range(len(grads)))
    body = (f"%y, %rs = rlx.rms_norm %a1, {args} axis = {axis} eps = {eps:e} "
            f"with_statistics : ({t}, {ptypes}) -> ({t}, {st})\n"
            f"  {results} = rlx.rms_norm_backward %a0, %a1, %a2, %rs "
            f"axis = {axis}{' with_beta_grad' if with_beta else ''} : "
            f"({t}, {t}, {gt}, {st}) -> ({', '.join(grads)})")
    gradient_cases(name, body, dy, [x] + params, rms_norm_ref(axis, eps),
                   list(range(len(grads))), grads, fd)


rms_norm("rms_norm_last", randn(2, 3, 8), -1, with_beta=False)
rms_norm("rms_norm_last_beta", randn(5, 16), 1, with_beta=True)
rms_norm("rms_norm_middle", randn(3, 6, 4), 1, with_beta=True)
rms_norm("rms_norm_first", randn(7, 3), 0, with_beta=False)
rms_norm("rms_norm_rank1", randn(9), 0, with_beta=True)
rms_norm("rms_norm_f16", randn(4, 32, dtype=np.float16), -1, with_beta=True)
rms_norm("rms_norm_f16_middle", randn(2, 16, 3, dtype=np.float16), 1,
         with_beta=False)
rms_norm("rms_norm_f64", randn(3, 5, 2, dtype=np.float64), 1, with_beta=True,
         fd=True)


def group_norm(name, x, groups, eps=1e-5, fd=False):
    c = x.shape[1]
    g, b = randn(c, dtype=x.dtype), randn(c, dtype=x.dtype)
    dy = randn(*x.shape, dtype=x.dtype)
    t, gt = type_of(x), type_of(g)
    body = (f"%r0, %r1, %r2 = rlx.group_norm_backward %a0, %a1, %a2 "
            f"groups = {groups} eps = {eps:e} : ({t}, {t}, {gt}) -> "
            f"({t}, {gt}, {gt})")

    def fn(x, g, b):
        return F.group_norm(x, groups, g, b, eps)
    gradient_cases(name, body, dy, [x, g, b], fn, [0, 1, 2], [t, gt, gt], fd)


group_norm("group_norm_2d", randn(2, 6, 3, 4), 3)
group_norm("group_norm_instance", randn(2, 4, 5), 4)
group_norm("group_norm_one_group", randn(3, 4, 2, 2), 1)
group_norm("group_norm_no_spatial", randn(5, 6), 2)
group_norm("group_norm_3d", randn(1, 4, 2, 3, 2), 2)
group_norm("group_norm_f16", randn(2, 8, 4, 4, dtype=np.float16), 4)
group_norm("group_norm_f64", randn(2, 4, 3, dtype=np.float64), 2, fd=True)


def batch_norm(name, x, eps=1e-5, fd=False):
    c = x.shape[1]
    g = randn(c, dtype=x.dtype)
    mean = randn(c, dtype=x.dtype)
    var = rng.uniform(0.2, 2.0, c).astype(x.dtype)
    dy = randn(*x.shape, dtype=x.dtype)
    t, gt = type_of(x), type_of(g)
    body = (f"%r0, %r1, %r2 = rlx.batch_norm_inference_backward %a0, %a1, "
            f"%a2, %a3, %a4 eps = {eps:e} : ({t}, {t}, {gt}, {gt}, {gt}) -> "
            f"({t}, {gt}, {gt})")

    def fn(x, g, b, mean, var):
        return F.batch_norm(x, mean, var, g, b, training=False, eps=eps)
    # The op takes no beta (its gradient does not depend on it): 0 here.
    gradient_cases(name, body, dy, [x, g, mean, var], fn, [0, 1, 2],
                   [t, gt, gt], fd,
                   lambda x, g, m, v: (x, g, torch.zeros_like(g), m, v))


batch_norm("batch_norm_2d", randn(3, 4, 5, 2))
batch_norm("batch_norm_no_spatial", randn(6, 5))
batch_norm("batch_norm_1d", randn(2, 3, 7))
batch_norm("batch_norm_f16", randn(4, 6, 3, 3, dtype=np.float16))
batch_norm("batch_norm_f64", randn(2, 3, 4, dtype=np.float64), fd=True)

def ada_layer_norm(name, kind, x, param_shape, eps=1e-5, fd=False):
    scale = randn(*param_shape, dtype=x.dtype)
    dy = randn(*x.shape, dtype=x.dtype)
    t, pt = type_of(x), type_of(scale)
    body = (f"%r0, %r1, %r2 = rlx.ada_layer_norm_backward {kind} %a0, %a1, "
            f"%a2 eps = {eps:e} : ({t}, {t}, {pt}) -> ({t}, {pt}, {pt})")

    def fn(x, scale, shift):
        if kind == "layer":
            n = F.layer_norm(x, x.shape[-1:], eps=eps)
        else:
            n = x * torch.rsqrt((x * x).mean(-1, keepdim=True) + eps)
        return n * (1 + scale) + shift
    # The op takes no shift (its gradient does not depend on it): 0 here.
    gradient_cases(name, body, dy, [x, scale], fn, [0, 1, 2], [t, pt, pt], fd,
                   lambda x, sc: (x, sc, torch.zeros_like(sc)))


ada_layer_norm("ada_layer_norm_layer", "layer", randn(2, 5, 16), (2, 1, 16))
ada_layer_norm("ada_layer_norm_rms", "rms", randn(2, 5, 16), (2, 1, 16))
ada_layer_norm("ada_layer_norm_vector", "layer", randn(3, 8), (8,))
ada_layer_norm("ada_layer_norm_full", "rms", randn(3, 8), (3, 8))
ada_layer_norm("ada_layer_norm_f16", "layer",
               randn(2, 3, 32, dtype=np.float16), (2, 1, 32))
ada_layer_norm("ada_layer_norm_layer_f64", "layer",
               randn(2, 3, 6, dtype=np.float64), (2, 1, 6), fd=True)
ada_layer_norm("ada_layer_norm_rms_f64", "rms",
               randn(2, 3, 6, dtype=np.float64), (2, 1, 6), fd=True)


def gated_residual(name, x, gate_shape, fd=False):
    update = randn(*x.shape, dtype=x.dtype)
    gate = randn(*gate_shape, dtype=x.dtype)
    dy = randn(*x.shape, dtype=x.dtype)
    t, gt = type_of(x), type_of(gate)
    body = (f"%r0, %r1, %r2 = rlx.gated_residual_backward %a0, %a1, %a2 : "
            f"({t}, {t}, {gt}) -> ({t}, {t}, {gt})")

    def fn(x, update, gate):
        return x + gate * update
    # The op takes no input (its gradient does not depend on it): 0 here.
    gradient_cases(name, body, dy, [update, gate], fn, [0, 1, 2],
                   [t, t, gt], fd, lambda u, g: (torch.zeros_like(u), u, g))


gated_residual("gated_residual_rows", randn(2, 5, 8), (2, 1, 8))
gated_residual("gated_residual_vector", randn(4, 3, 8), (8,))
gated_residual("gated_residual_full", randn(3, 8), (3, 8))
gated_residual("gated_residual_f16", randn(2, 4, 16, dtype=np.float16),
               (2, 1, 16))
gated_residual("gated_residual_f64", randn(2, 3, 4, dtype=np.float64),
               (2, 1, 4), fd=True)

# --- losses ----------------------------------------------------------------------


def cross_entropy(name, logits, targets, fd=False):
    dloss = randn(len(logits), dtype=logits.dtype)
    t, dt = type_of(logits), type_of(dloss)
    body = (f"%r = rlx.softmax_cross_entropy_backward %a0, %a1, %a2 : "
            f"({t}, {t}, {dt}) -> {t}")

    def fn(l, t):
        return F.cross_entropy(l, t, reduction="none")
    tol = {np.float32: (1e-5, 1e-6), np.float16: (1e-3, 1e-3)}.get(
        logits.dtype)
    s.case(name, body, [logits, targets, dloss],
           lambda l, t, d: vjp(fn, l, t, grad=d, wrt=[0])[0], out=t, tol=tol)
    if fd:
        s.case(name + "_finite_differences", body, [logits, targets, dloss],
               lambda l, t, d: finite_differences(fn, l, t, grad=d,
                                                  wrt=[0])[0],
               out=t, tol=(1e-6, 1e-7))


def soft_targets(n, c, dtype=np.float32, total=1.0):
    t = rng.uniform(0, 1, (n, c))
    return (total * t / t.sum(1, keepdims=True)).astype(dtype)


cross_entropy("cross_entropy_soft", randn(4, 10, scale=3), soft_targets(4, 10))
cross_entropy("cross_entropy_unnormalized", randn(3, 6),
              soft_targets(3, 6, total=2.5))
cross_entropy("cross_entropy_one_hot", randn(3, 5),
              np.eye(5, dtype=np.float32)[[4, 0, 2]])
cross_entropy("cross_entropy_large", randn(3, 7, scale=1e4),
              soft_targets(3, 7))
cross_entropy("cross_entropy_f16", randn(5, 6, dtype=np.float16),
              soft_targets(5, 6, np.float16))
cross_entropy("cross_entropy_f64", randn(3, 4, dtype=np.float64),
              soft_targets(3, 4, np.float64), fd=True)


def with_labels(name, logits, labels, fd=False):
    dloss = randn(len(logits), dtype=logits.dtype)
    t, dt = type_of(logits), type_of(dloss)
    body = (f"%r = rlx.softmax_cross_entropy_with_labels_backward %a0, %a1, "
            f"%a2 : ({t}, {type_of(labels)}, {dt}) -> {t}")

    def fn(l, y):
        return F.cross_entropy(l, y, reduction="none")

    def ref(l, y, d):
        valid = (y >= 0) & (y < l.shape[1])
        grad = vjp(fn, l, torch.where(valid, y, torch.zeros_like(y)),
                   grad=d, wrt=[0])[0]
        return torch.where(valid[:, None], grad, torch.full_like(grad, nan))
    tol = {np.float32: (1e-5, 1e-6), np.float16: (1e-3, 1e-3)}.get(
        logits.dtype)
    s.case(name, body, [logits, labels, dloss], ref, out=t, tol=tol)
    if fd:
        s.case(name + "_finite_differences", body, [logits, labels, dloss],
               lambda l, y, d: finite_differences(fn, l, y, grad=d,
                                                  wrt=[0])[0],
               out=t, tol=(1e-6, 1e-7))


with_labels("labels_i64", randn(6, 10, scale=3),
            rng.integers(0, 10, 6).astype(np.int64))
with_labels("labels_i32", randn(4, 3), np.array([2, 0, 1, 2], np.int32))
with_labels("labels_large", randn(3, 7, scale=1e4),
            np.array([0, 6, 3], np.int64))
# Rows with a label outside [0, C) are NaN, as the forward's loss.
with_labels("labels_out_of_range", randn(4, 5),
            np.array([5, -1, 2, 1 << 40], np.int64))
with_labels("labels_f16", randn(5, 8, dtype=np.float16),
            np.array([7, 0, 3, 3, 1], np.int32))
with_labels("labels_f64", randn(3, 6, dtype=np.float64),
            np.array([1, 5, 0], np.int64), fd=True)

s.run()
