# RUN: rm -rf %t && env RLX_CACHE_DIR=%t %oracle_python %s
# REQUIRES: torch
# rlx.lstm, rlx.gru and rlx.rnn (RlxRecurrentOps.td, decomposed into a
# projection matmul and an rlx.scan per layer and direction) against
# torch.nn.LSTM / GRU / RNN in float64, forward and backward: one and two
# layers, one and two directions, with and without biases and initial
# states, sequence- and batch-first, tanh and relu, `?` time and batch
# (several sizes from one module), f32 against float64. Gradients of a
# weighted sum of the output and final states with respect to the input,
# every weight and the initial states, against torch.autograd and central
# differences of the compiled forward.
import numpy as np
import torch

import rlx
from rlx_testing.checks import check, check_close, finish

rng = np.random.default_rng(1901)
torch.manual_seed(1901)


def tensor_type(shape, dtype):
    dims = "x".join("?" if d is None else str(d) for d in shape)
    return f"tensor<{dims}x{dtype}>" if shape else f"tensor<{dtype}>"


def make_module(kind, layers, bidirectional, bias, initial, batch_first,
                relu, hidden, features, dynamic, dtype):
    """A module with @forward (the op's results) and @loss (a weighted sum
    of them, differentiated with respect to every floating-point
    argument but the weights of the sum)."""
    gates = {"lstm": 4, "gru": 3, "rnn": 1}[kind]
    states = 2 if kind == "lstm" else 1
    dirs = 2 if bidirectional else 1
    t, b = (None, None) if dynamic else (5, 3)
    x_shape = (b, t, features) if batch_first else (t, b, features)
    y_shape = x_shape[:2] + (dirs * hidden,)
    s_shape = (layers * dirs, b, hidden)
    weights = []
    for layer in range(layers):
        for _ in range(dirs):
            width = features if layer == 0 else dirs * hidden
            weights += [(gates * hidden, width), (gates * hidden, hidden)]
            if bias:
                weights += [(gates * hidden,), (gates * hidden,)]
    args = [("x", x_shape)] + [(f"w{i}", s) for i, s in enumerate(weights)]
    if initial:
        args += [("h0", s_shape)] + ([("c0", s_shape)] if states == 2 else [])
    ty = {n: tensor_type(s, dtype) for n, s in args}
    results = [y_shape] + [s_shape] * states
    result_types = [tensor_type(s, dtype) for s in results]
    weight_names = [n for n, _ in args if n.startswith("w")]
    attrs = ""
    if initial:
        names = ["h0", "c0"][:states]
        attrs += (f" initial({', '.join('%' + n for n in names)} : "
                  f"{', '.join(ty[n] for n in names)})")
    if layers > 1:
        attrs += f" layers = {layers}"
    if bidirectional:
        attrs += " bidirectional"
    if batch_first:
        attrs += " batch_first"
    if relu:
        attrs += " relu"
    op = (f"rlx.{kind} %x weights({', '.join('%' + n for n in weight_names)}"
          f" : {', '.join(ty[n] for n in weight_names)}){attrs} : {ty['x']}"
          f" -> {', '.join(result_types)}")
    outs = ", ".join(f"%r{i}" for i in range(len(results)))
    signature = ", ".join(f"%{n}: {ty[n]}" for n, _ in args)
    forward = (f"func.func @forward({signature}) -> "
               f"({', '.join(result_types)}) {{\n  {outs} = {op}\n"
               f"  return {outs} : {', '.join(result_types)}\n}}\n")
    seeds = ", ".join(f"%s{i}: {t}" for i, t in enumerate(result_types))
    body = f"  {outs} = {op}\n"
    total = None
    for i, (shape, t) in enumerate(zip(results, result_types)):
        axes = ", ".join(str(d) for d in range(3))
        body += (f"  %m{i} = rlx.mul %r{i}, %s{i} : ({t}, {t}) -> {t}\n"
                 f"  %l{i} = rlx.reduce sum %m{i} axes = [{axes}] : {t} -> "
                 f"tensor<{dtype}>\n")
        if total is None:
            total = f"%l{i}"
        else:
            body += (f"  %t{i} = rlx.add {total}, %l{i} : (tensor<{dtype}>, "
                     f"tensor<{dtype}>) -> tensor<{dtype}>\n")
            total = f"%t{i}"
    wrt = ", ".join(str(i) for i in range(len(args)))
    loss = (f"func.func @loss({signature}, {seeds}) -> tensor<{dtype}> "
            f"attributes {{rlx.differentiate = array<i64: {wrt}>}} {{\n"
            f"{body}  return {total} : tensor<{dtype}>\n}}\n")
    return forward + loss, len(args), results


def torch_module(kind, layers, bidirectional, bias, batch_first, relu, hidden,
                 features):
    cls = {"lstm": torch.nn.LSTM, "gru": torch.nn.GRU, "rnn": torch.nn.RNN}
    kwargs = dict(num_layers=layers, bidirectional=bidirectional, bias=bias,
                  batch_first=batch_first)
    if kind == "rnn":
        kwargs["nonlinearity"] = "relu" if relu else "tanh"
    return cls[kind](features, hidden, **kwargs).double()


def run_case(name, kind, layers=1, bidirectional=False, bias=True,
             initial=False, batch_first=False, relu=False, hidden=6,
             features=4, dynamic=False, sizes=((5, 3),), dtype="f64",
             fd=False):
    text, num_args, results = make_module(kind, layers, bidirectional, bias,
                                          initial, batch_first, relu, hidden,
                                          features, dynamic, dtype)
    m = rlx.compile(text)
    module = torch_module(kind, layers, bidirectional, bias, batch_first,
                          relu, hidden, features)
    with torch.no_grad():
        for p in module.parameters():
            p.copy_(torch.tensor(rng.uniform(-0.5, 0.5, p.shape)))
    np_type = np.float64 if dtype == "f64" else np.float32
    rtol, atol = (1e-10, 1e-12) if dtype == "f64" else (2e-5, 2e-5)
    for steps, batch in sizes:
        label = f"{name}_{steps}x{batch}"
        shape = (batch, steps, features) if batch_first else (steps, batch,
                                                              features)
        x = torch.tensor(rng.standard_normal(shape), requires_grad=True)
        states = 2 if kind == "lstm" else 1
        dirs = 2 if bidirectional else 1
        inits = [torch.tensor(rng.standard_normal((layers * dirs, batch,
                                                   hidden)),
                              requires_grad=True)
                 for _ in range(states)] if initial else []
        hx = (tuple(inits) if kind == "lstm" else inits[0]) if initial \
            else None
        y, final = module(x, hx)
        outs = [y] + (list(final) if kind == "lstm" else [final])
        seeds = [torch.tensor(rng.standard_normal(o.shape)) for o in outs]
        loss = sum((o * s).sum() for o, s in zip(outs, seeds))
        loss.backward()
        flat = list(module._flat_weights)
        args = [a.detach().numpy().astype(np_type)
                for a in [x] + flat + inits]
        got = m["forward"](*args)
        for i, (g, want) in enumerate(zip(got, outs)):
            check_close(f"{label}_out{i}", g, want.detach().numpy(), rtol,
                        atol)
        seed_args = [s.numpy().astype(np_type) for s in seeds]
        grads = m["loss_grad"](*args, *seed_args)
        check_close(f"{label}_loss", grads[0], loss.detach().numpy(), rtol,
                    atol)
        wants = [x.grad] + [w.grad for w in flat] + [i.grad for i in inits]
        for i, (g, want) in enumerate(zip(grads[1:], wants)):
            check_close(f"{label}_d{i}", g, want.numpy(), rtol, atol)
        module.zero_grad()
        if fd:
            for i in (0, 1, 2, num_args - 1):
                for index in rng.integers(0, args[i].size, 2):
                    h = 1e-6
                    plus = [a.copy() for a in args]
                    minus = [a.copy() for a in args]
                    plus[i].flat[index] += h
                    minus[i].flat[index] -= h
                    f = [float(m["loss"](*a, *seed_args))
                         for a in (plus, minus)]
                    numeric = (f[0] - f[1]) / (2 * h)
                    analytic = float(np.asarray(grads[1 + i]).flat[index])
                    tolerance = 1e-6 * max(1, abs(numeric))
                    check(f"{label}_fd_d{i}_{index}",
                          abs(numeric - analytic) <= tolerance,
                          f"{analytic} vs {numeric}")


run_case("lstm", "lstm", fd=True)
run_case("lstm_stack", "lstm", layers=2, bidirectional=True, initial=True,
         batch_first=True, dynamic=True, sizes=((4, 2), (1, 3), (7, 1)),
         fd=True)
run_case("gru", "gru", initial=True)
run_case("gru_stack", "gru", layers=2, bidirectional=True, initial=True,
         dynamic=True, sizes=((6, 2), (1, 1)), fd=True)
run_case("gru_no_bias", "gru", bias=False, batch_first=True)
run_case("rnn", "rnn", bidirectional=True)
run_case("rnn_relu", "rnn", layers=2, bias=False, initial=True, relu=True,
         dynamic=True, sizes=((5, 2), (2, 4)), fd=True)
run_case("lstm_f32", "lstm", layers=2, initial=True, dtype="f32")
finish()
