"""Gradients and training steps of rlx graphs, on `--rlx-autodiff`.

    loss_grad = rlx.grad(g, wrt=[w1, b1])        # g returns a scalar loss
    loss, dw1, db1 = loss_grad.compile()(**inputs)

    trainer = rlx.Trainer(g, {w1: w1_init, b1: b1_init}, rlx.Adam(lr=1e-3))
    for x, y in batches:
        loss = trainer.step(x=x, labels=y)

Nothing is differentiated here: the graph's function is marked
`rlx.differentiate` and rlx-compile's pipeline defines `<name>_grad` from
it. A training step is one more function of the same module that calls the
gradient function (through a declaration, as examples/train_mlp.mlir does)
and applies the optimizer's update in rlx ops, so the whole step is one
compiled call.
"""

import numpy as np

from .compiler import compile as _compile
from .graph import Executable, Graph, GraphError, Tensor

__all__ = ["Gradient", "grad", "SGD", "Adam", "Trainer", "train_step"]


def _type_text(tensor):
    dims = "".join(("?" if d is None else str(d)) + "x" for d in tensor.shape)
    return f"tensor<{dims}{tensor.dtype}>"


def _loss_and_indices(graph, wrt):
    graph._check_outputs()
    if len(graph.outputs) != 1 or graph.outputs[0].shape != () or \
            not graph.outputs[0].dtype.startswith(("f", "bf")):
        raise GraphError(
            f"rlx.grad: graph '{graph.name}' must have one output, a "
            f"floating-point scalar loss (it has "
            f"{', '.join(map(repr, graph.outputs))})")
    indices = []
    for tensor in wrt:
        position = next((i for i, t in enumerate(graph.inputs)
                         if t is tensor or (isinstance(tensor, Tensor) and
                                            t.value.ptr == tensor.value.ptr)),
                        None)
        if position is None:
            raise GraphError("rlx.grad: every wrt tensor must be an input of "
                             f"graph '{graph.name}' (g.tensor(...)); "
                             f"{tensor!r} is not")
        if position in indices:
            raise GraphError(f"rlx.grad: input "
                             f"'{graph.input_names[position]}' is listed "
                             "twice")
        if not tensor.dtype.startswith(("f", "bf")):
            raise GraphError(f"rlx.grad: input "
                             f"'{graph.input_names[position]}' is "
                             f"{tensor.dtype}, not floating-point")
        indices.append(position)
    if not indices:
        raise GraphError("rlx.grad: wrt names no input")
    return indices


def _differentiated_function(graph, indices):
    return graph.function_text({
        "rlx.differentiate":
            f"array<i64: {', '.join(str(i) for i in indices)}>"})


class Gradient:
    """The gradient function of a graph: same inputs, results the loss and
    the gradients of the `wrt` inputs, in that order."""

    def __init__(self, graph, wrt):
        self.graph = graph
        self.indices = _loss_and_indices(graph, wrt)
        self.name = graph.name + "_grad"
        self.input_names = list(graph.input_names)

    def mlir(self):
        """The module: the graph's function marked for differentiation."""
        return "module {\n" + _differentiated_function(
            self.graph, self.indices) + "\n}\n"

    def compile(self, target="cpu", fuse=True, threads=None, **options):
        module = _compile(self.mlir(), target=target, fuse=fuse, **options)
        return Executable(module, self.name, self.input_names,
                          threads=threads)


def grad(graph, wrt):
    """The gradient of `graph`'s one output, a scalar loss, with respect to
    its inputs `wrt` (a list of the graph's input Tensors)."""
    return Gradient(graph, list(wrt))


# -- optimizers --------------------------------------------------------------

class SGD:
    """torch.optim.SGD: p -= lr * (g + weight_decay * p), with momentum
    buf = momentum * buf + g (and Nesterov's g + momentum * buf)."""

    def __init__(self, lr, momentum=0.0, weight_decay=0.0, nesterov=False):
        if nesterov and momentum <= 0:
            raise ValueError("Nesterov momentum needs momentum > 0")
        self.lr, self.momentum = float(lr), float(momentum)
        self.weight_decay, self.nesterov = float(weight_decay), nesterov

    def state_names(self):
        return ["momentum"] if self.momentum else []

    def uses_step(self):
        return False

    def update(self, g, param, gradient, state, step):
        dtype = param.dtype
        scalar = lambda v: g.constant(np.array(v, np.float32), dtype=dtype)
        if self.weight_decay:
            gradient = gradient + param * scalar(self.weight_decay)
        new_state = []
        if self.momentum:
            (buffer,) = state
            # torch starts the buffer at the first gradient; a zero buffer
            # with dampening 0 gives the same first step.
            buffer = g.fma(buffer, scalar(self.momentum), gradient)
            new_state.append(buffer)
            gradient = g.fma(buffer, scalar(self.momentum), gradient) \
                if self.nesterov else buffer
        return param - gradient * scalar(self.lr), new_state


class Adam:
    """torch.optim.Adam (and AdamW with decoupled=True): moments m, v, the
    1-based step number t for the bias corrections."""

    def __init__(self, lr=1e-3, betas=(0.9, 0.999), eps=1e-8,
                 weight_decay=0.0, decoupled=False):
        self.lr, self.betas, self.eps = float(lr), betas, float(eps)
        self.weight_decay, self.decoupled = float(weight_decay), decoupled

    def state_names(self):
        return ["m", "v"]

    def uses_step(self):
        return True

    def update(self, g, param, gradient, state, step):
        dtype = param.dtype
        scalar = lambda v: g.constant(np.array(v, np.float32), dtype=dtype)
        beta1, beta2 = (float(b) for b in self.betas)
        m, v = state
        if self.weight_decay and self.decoupled:
            param = param * scalar(1 - self.lr * self.weight_decay)
        elif self.weight_decay:
            gradient = gradient + param * scalar(self.weight_decay)
        m = g.fma(gradient, scalar(1 - beta1), m * scalar(beta1))
        v = g.fma(gradient * gradient, scalar(1 - beta2), v * scalar(beta2))
        one = scalar(1.0)
        correction1 = one - g.pow(scalar(beta1), step)
        correction2 = one - g.pow(scalar(beta2), step)
        denominator = g.sqrt(v) / g.sqrt(correction2) + scalar(self.eps)
        step_size = scalar(self.lr) / correction1
        return param - m / denominator * step_size, [m, v]


# -- training steps ----------------------------------------------------------

class TrainStep:
    """One optimizer step as a compiled function. Inputs: the graph's
    inputs, then each parameter's optimizer state (`<state>_<param>`), then
    `step` (for optimizers that count steps). Results: the loss, the new
    parameters, the new states."""

    def __init__(self, graph, params, optimizer):
        self.graph = graph
        self.optimizer = optimizer
        self.indices = _loss_and_indices(graph, params)
        self.param_names = [graph.input_names[i] for i in self.indices]
        step = Graph(graph.name + "_step")
        inputs = [step.tensor(t.shape, t.dtype, name=n)
                  for t, n in zip(graph.inputs, graph.input_names)]
        states = []
        for index in self.indices:
            param = graph.inputs[index]
            states.append([
                step.tensor(param.shape, param.dtype,
                            name=f"{state}_{graph.input_names[index]}")
                for state in optimizer.state_names()])
        counter = step.tensor([], "f32", name="step") \
            if optimizer.uses_step() else None
        loss = graph.outputs[0]
        gradients = [graph.inputs[i] for i in self.indices]
        results = step.op(
            "func.call", inputs, {"callee": f"@{graph.name}_grad"},
            result_types=[(t.shape, t.dtype) for t in [loss] + gradients])
        new_params, new_states = [], []
        for position, index in enumerate(self.indices):
            param, state = optimizer.update(
                step, inputs[index], results[1 + position], states[position],
                counter)
            new_params.append(param)
            new_states += state
        step.output(results[0], *new_params, *new_states)
        argument_types = ", ".join(_type_text(t) for t in graph.inputs)
        result_types = ", ".join(_type_text(t) for t in [loss] + gradients)
        step.add_function(_differentiated_function(graph, self.indices))
        step.add_function(f"func.func private @{graph.name}_grad("
                          f"{argument_types}) -> ({result_types})")
        self.step_graph = step

    def mlir(self):
        return self.step_graph.mlir()

    def compile(self, target="cpu", fuse=True, threads=None, **options):
        return self.step_graph.compile(target=target, fuse=fuse,
                                       threads=threads, **options)


def train_step(graph, params, optimizer):
    """The training step of `graph` (one output, a scalar loss) updating its
    input Tensors `params` with `optimizer` (SGD or Adam)."""
    return TrainStep(graph, list(params), optimizer)


class Trainer:
    """Keeps parameters and optimizer state between compiled steps.
    `params` maps the graph's parameter inputs to their initial arrays;
    `step(...)` takes the other inputs (positionally or by name) and
    returns the loss."""

    def __init__(self, graph, params, optimizer, threads=None, **options):
        # Parameters by Tensor or by input name.
        tensors, initial = [], []
        for key, value in dict(params).items():
            if isinstance(key, str):
                if key not in graph.input_names:
                    raise GraphError(f"graph '{graph.name}' has no input "
                                     f"'{key}'")
                key = graph.inputs[graph.input_names.index(key)]
            tensors.append(key)
            initial.append(value)
        self.train_step = train_step(graph, tensors, optimizer)
        self.executable = self.train_step.compile(threads=threads, **options)
        self.parameters = {}
        for name, tensor, value in zip(self.train_step.param_names, tensors,
                                       initial):
            array = np.array(value.detach().cpu().numpy()
                             if hasattr(value, "detach") else value,
                             dtype=np.float32)
            if array.shape != tensor.shape:
                raise ValueError(f"parameter '{name}' has shape "
                                 f"{array.shape}, expected {tensor.shape}")
            self.parameters[name] = array
        self.state = {
            f"{state}_{name}": np.zeros_like(self.parameters[name])
            for name in self.train_step.param_names
            for state in optimizer.state_names()}
        self.steps = 0
        self.data_names = [n for n in graph.input_names
                           if n not in self.parameters]

    def step(self, *args, **kwargs):
        if args and kwargs:
            raise TypeError("give the data inputs by position or by name")
        if args:
            if len(args) != len(self.data_names):
                raise TypeError(f"step() takes {len(self.data_names)} data "
                                f"inputs ({', '.join(self.data_names)}), "
                                f"{len(args)} given")
            kwargs = dict(zip(self.data_names, args))
        self.steps += 1
        inputs = dict(kwargs, **self.parameters, **self.state)
        if self.train_step.optimizer.uses_step():
            inputs["step"] = np.array(self.steps, np.float32)
        outputs = self.executable(**inputs)
        names = self.train_step.param_names
        for name, value in zip(names, outputs[1:1 + len(names)]):
            self.parameters[name] = value
        for name, value in zip(self.state, outputs[1 + len(names):]):
            self.state[name] = value
        return float(outputs[0])
