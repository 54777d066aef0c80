"""Importing PyTorch modules as rlx graphs (docs/python.md).

    imported = rlx.from_torch(model.eval(), (x,))
    run = imported.compile()
    y = run(x)                      # the parameters are supplied by `run`

The module is traced with torch.fx (symbolic_trace's tracer, recording
stack traces) and the fx graph is interpreted once on rlx graph values:
every tensor is a `rlx.Tensor` of static shape (the example inputs' shapes),
and everything else fx records (sizes, shape arithmetic, dtypes, tensors
made from constants) is computed in Python while importing, so
`x.view(x.size(0), -1)` becomes one rlx.reshape to a known shape.

Standard torch.nn modules are traced through to their functional calls
(nn.Linear is F.linear on its weight), except the few whose forward does
not trace (batch norm, instance norm, transposed convolutions) and the
recurrent layers (nn.LSTM, nn.GRU, nn.RNN: one rlx op each), which have
handlers of their own. Each rlx op is located at the model's source line
that made it: the innermost frame of the fx node's stack trace outside
torch itself.

torch.linalg's solvers and factorizations map to rlx's (batch dimensions
broadcast by rlx.expand), torch.fft's fft, ifft, rfft and irfft to rlx's
along the last axis (another dim is transposed there and back). Complex
tensors are rlx's complex<f32>/complex<f64> tensors: rlx's layout ops take
real elements, so views, indexing and concatenation of complex tensors
run on the real and the imaginary parts and rlx.complex joins them
(_by_parts); arithmetic on them is refused.
"""

import dis
import functools
import inspect
import math
import operator
import os
import re
import traceback

import numpy as np
import torch
import torch.fx
import torch.nn as nn
import torch.nn.functional as F

from .graph import Graph, GraphError, Tensor, dtype_name

__all__ = ["from_torch", "ImportedModule", "CompiledModule",
           "TorchImportError", "UnsupportedTorchOp"]


class TorchImportError(GraphError):
    """A torch call that cannot be imported as written (an argument rlx has
    no equivalent for), or an rlx op that rejected what the call made;
    the message names the torch call and its source line."""


class UnsupportedTorchOp(TorchImportError, NotImplementedError):
    """A torch function, Tensor method or module the importer has no
    mapping for; the message names it and its source line."""


# -- handler registry --------------------------------------------------------

# torch callable (function, builtin) or Tensor method name -> handler. A
# handler takes the importer and the call's arguments, with torch's
# parameter names, so fx's recorded args and kwargs bind to it directly.
_HANDLERS = {}
# module class -> handler(importer, module, *args, **kwargs): the modules
# whose forward does not trace with torch.fx.
_MODULE_HANDLERS = {}


def _handles(*targets):
    def register(handler):
        for target in targets:
            _HANDLERS[target] = handler
        return handler
    return register


# Layout handlers (views, copies, concatenation, indexing) that take complex
# tensors part by part: rlx's layout ops take real elements, so the real
# parts and then the imaginary parts go through the handler and rlx.complex
# joins what they give (_by_parts).
_PART_BY_PART = set()


def _torch_attr(*names):
    """The torch objects of these dotted names that exist in this torch."""
    found = []
    for name in names:
        value = torch
        for part in name.split("."):
            value = getattr(value, part, None)
        if value is not None:
            found.append(value)
    return found


# -- helpers -----------------------------------------------------------------

_FLOAT_DTYPES = ("f16", "bf16", "f32", "f64")
# torch's promotion order for the element types of binary ops.
_PROMOTION = ["i1", "ui8", "i8", "i16", "i32", "i64", "f16", "bf16", "f32",
              "f64"]


def _is_float(dtype):
    return dtype in _FLOAT_DTYPES


def _is_complex(dtype):
    """complex<f32> and complex<f64>: torch's complex64 and complex128."""
    return dtype.startswith("complex")


def _axis(dim, rank):
    """A dimension index in [0, rank)."""
    dim = int(dim)
    if not -rank <= dim < max(rank, 1):
        raise TorchImportError(f"dimension {dim} is out of range for rank "
                               f"{rank}")
    return dim % max(rank, 1)


def _axes(dim, rank):
    """Dimension indices of `dim` (an int, a sequence, or None for all)."""
    if dim is None or (isinstance(dim, (tuple, list)) and not dim):
        return list(range(rank))
    if isinstance(dim, (tuple, list, torch.Size)):
        return [_axis(d, rank) for d in dim]
    return [_axis(dim, rank)]


def _sizes(sizes):
    """A size list from view(*sizes) or view(sizes) arguments."""
    if len(sizes) == 1 and isinstance(sizes[0], (tuple, list, torch.Size)):
        sizes = sizes[0]
    return [int(s) for s in sizes]


def _ntuple(value, n):
    if isinstance(value, (tuple, list)):
        if len(value) == 1:
            return [int(value[0])] * n
        return [int(v) for v in value]
    return [int(value)] * n


def _contains_tensor(value):
    """Whether `value` is or holds (in tuples, lists, dicts) an rlx
    Tensor."""
    if isinstance(value, Tensor):
        return True
    if isinstance(value, (tuple, list)):
        return any(_contains_tensor(v) for v in value)
    if isinstance(value, dict):
        return any(_contains_tensor(v) for v in value.values())
    return False


def _contains_complex(value):
    """Whether `value` is or holds a complex rlx Tensor."""
    if isinstance(value, Tensor):
        return _is_complex(value.dtype)
    if isinstance(value, (tuple, list)):
        return any(_contains_complex(v) for v in value)
    if isinstance(value, dict):
        return any(_contains_complex(v) for v in value.values())
    return False


def _no_complex_arithmetic(*values):
    """Refuses arithmetic on complex values: rlx's elementwise ops take
    real elements."""
    if _contains_complex(values) or any(
            isinstance(v, complex) or (isinstance(v, torch.Tensor) and
                                       v.is_complex()) for v in values):
        raise UnsupportedTorchOp(
            "arithmetic on complex tensors (rlx's elementwise ops take real "
            "elements: compute on .real and .imag, and join them with "
            "torch.complex)")


def _zeros_like(cx, x):
    zero = cx.tensor(0.0, x)
    return zero if x.rank == 0 else cx.rlx.expand(zero, shape=list(x.shape))


def _on_parts(cx, x, function):
    """function (a layout op of real tensors) of x, of each part of a
    complex x."""
    if not _is_complex(x.dtype):
        return function(x)
    return cx.rlx.complex(function(cx.rlx.real(x)),
                          function(cx.rlx.imag(x)))


def _by_parts(cx, handler, args, kwargs):
    """A layout handler of complex tensors: run on the real parts of its
    tensor arguments, then on their imaginary parts (a real floating-point
    tensor among them has a zero imaginary part; integer tensors, indices,
    go to both), and the results joined by rlx.complex."""
    def parts(which):
        def take(value):
            if not isinstance(value, Tensor):
                return value
            if _is_complex(value.dtype):
                return getattr(cx.rlx, which)(value)
            if which == "imag" and _is_float(value.dtype):
                return _zeros_like(cx, value)
            return value
        return torch.fx.node.map_aggregate((args, kwargs), take)

    def joined(real, imag):
        if isinstance(real, Tensor):
            return cx.rlx.complex(real, imag) if _is_float(real.dtype) \
                else real
        if isinstance(real, (tuple, list)):
            return type(real)([joined(r, i) for r, i in zip(real, imag)])
        return real

    (real_args, real_kwargs), (imag_args, imag_kwargs) = \
        parts("real"), parts("imag")
    return joined(handler(*real_args, **real_kwargs),
                  handler(*imag_args, **imag_kwargs))


def _torch_dtype(dtype):
    return {"f32": torch.float32, "f64": torch.float64, "f16": torch.float16,
            "bf16": torch.bfloat16, "i64": torch.int64, "i32": torch.int32,
            "i16": torch.int16, "i8": torch.int8, "ui8": torch.uint8,
            "i1": torch.bool, "complex<f32>": torch.complex64,
            "complex<f64>": torch.complex128}[dtype]


def _reduction(cx, loss, reduction, weight_sum=None):
    """A per-element loss reduced as torch's `reduction` argument says;
    `weight_sum` divides a mean instead of the element count."""
    if reduction not in ("none", "mean", "sum"):
        raise TorchImportError(f"reduction={reduction!r} is not one of "
                               "'none', 'mean', 'sum'")
    if reduction == "none":
        return loss
    axes = list(range(loss.rank))
    if reduction == "mean" and weight_sum is None:
        return cx.rlx.reduce(loss, kind="mean", axes=axes)
    total = cx.rlx.reduce(loss, kind="sum", axes=axes)
    return total if reduction == "sum" else cx.rlx.div(total, weight_sum)


def _no_legacy_reduction(size_average, reduce):
    if size_average is not None or reduce is not None:
        raise UnsupportedTorchOp("size_average= and reduce= (deprecated): "
                                 "use reduction=")


class _LocatedOps:
    """The graph's op methods with the importer's current source location
    passed as `loc`: `cx.rlx.matmul(a, b)`."""

    def __init__(self, importer):
        self._importer = importer

    def __getattr__(self, name):
        return functools.partial(getattr(self._importer.graph, name),
                                 loc=self._importer.loc)


# -- the importer ------------------------------------------------------------

# Frames in these directories are not the model's code.
_LIBRARY_DIRS = (os.path.dirname(os.path.abspath(torch.__file__)) + os.sep,
                 os.path.dirname(os.path.abspath(__file__)) + os.sep)
# A frame of a stack trace as traceback formats it: file, line, code.
_FRAME = re.compile(
    r'File "([^"]+)", line (\d+), in [^\n]*\n(?:    ([^\n]*))?')


def _is_model_code(file):
    return not os.path.abspath(file).startswith(_LIBRARY_DIRS)


# torch functions that reject fx proxies as sizes (torch.arange(x.size(1)))
# or as the sequence of tensors (torch.stack(x.chunk(2)), whose length fx
# does not know).
_PROXY_UNAWARE = ("arange", "ones", "zeros", "full", "empty", "eye", "rand",
                  "randn", "randint", "linspace", "tensor", "cat", "concat",
                  "stack")


class _Proxy(torch.fx.Proxy):
    """torch.fx's Proxy, unpackable under Python 3.11: Proxy.__iter__
    finds the UNPACK_SEQUENCE that unpacks a proxy (`b, t, c = x.size()`,
    `y, (h, c) = lstm(x)`) by instruction index, which 3.11's inline caches
    shift (past the end, for a nested unpack); this finds it by its byte
    offset."""

    def __iter__(self):
        frame = inspect.currentframe().f_back
        unpack = next((i for i in dis.get_instructions(frame.f_code)
                       if i.offset == frame.f_lasti), None)
        if unpack is not None and unpack.opname == "UNPACK_SEQUENCE":
            return iter([self[i] for i in range(unpack.argval)])
        return self.tracer.iter(self)


class _Tracer(torch.fx.Tracer):
    """symbolic_trace's tracer, recording stack traces, that traces into
    every module except those with handlers of their own, and names the
    module whose forward does not trace."""

    def __init__(self):
        super().__init__()
        self.record_stack_traces = True
        self.module_paths = []  # of the modules being traced through

    def is_leaf_module(self, module, qualified_name):
        return isinstance(module, tuple(_MODULE_HANDLERS))

    def trace(self, root, concrete_args=None):
        # During the trace the _PROXY_UNAWARE functions record a call when
        # an argument is a proxy; the importer evaluates it on the sizes or
        # tensors the proxies stand for.
        originals = {name: getattr(torch, name) for name in _PROXY_UNAWARE
                     if hasattr(torch, name)}
        try:
            for name, factory in originals.items():
                setattr(torch, name, self._recording(factory))
            return super().trace(root, concrete_args)
        except UnsupportedTorchOp:
            raise
        except Exception as e:
            raise _untraceable(root, e) from e
        finally:
            for name, factory in originals.items():
                setattr(torch, name, factory)

    def _recording(self, factory):
        @functools.wraps(factory)
        def call(*args, **kwargs):
            proxies = []
            torch.fx.node.map_aggregate(
                (args, kwargs), lambda v: proxies.append(v)
                if isinstance(v, torch.fx.Proxy) else None)
            if proxies:
                return self.create_proxy("call_function", factory, args,
                                         kwargs)
            return factory(*args, **kwargs)
        return call

    def proxy(self, node):
        return _Proxy(node, self)

    def call_module(self, module, forward, args, kwargs):
        self.module_paths.append(self.path_of_module(module))
        try:
            return super().call_module(module, forward, args, kwargs)
        except UnsupportedTorchOp:
            raise
        except Exception as e:
            raise _untraceable(module, e) from e
        finally:
            self.module_paths.pop()

    def create_node(self, *args, **kwargs):
        node = super().create_node(*args, **kwargs)
        # The submodule that made the node, for messages (torch 1.13's fx
        # records no module stack).
        node.meta["rlx_module"] = self.module_paths[-1] \
            if self.module_paths else ""
        return node


def _untraceable(module, error):
    """The error for a module whose forward fx cannot trace, located at the
    innermost line of the model's code that the failure passed through."""
    frames = [f for f in traceback.extract_stack() +
              traceback.extract_tb(error.__traceback__)
              if _is_model_code(f.filename)]
    where = ""
    if frames:
        frame = frames[-1]
        where = f"{frame.filename}:{frame.lineno}: `{frame.line}`: "
    return UnsupportedTorchOp(
        f"{where}{_module_name(module)} does not trace with torch.fx "
        f"({type(error).__name__}: {error})")


class _Importer:
    def __init__(self, module, parameters, name):
        if parameters not in ("inputs", "constants"):
            raise ValueError(f"parameters={parameters!r} is not 'inputs' or "
                             "'constants'")
        self.parameters_as_inputs = parameters == "inputs"
        self.graph = Graph(name)
        self.rlx = _LocatedOps(self)
        self.loc = None
        self.where = ""
        # id(parameter or buffer) -> its state_dict name; tied weights
        # (one tensor under two names) are one input under the first name.
        self.tensor_names = {}
        for named in (module.named_parameters(), module.named_buffers()):
            for tensor_name, tensor in named:
                self.tensor_names.setdefault(id(tensor), tensor_name)
        self.trainable = {id(p) for p in module.parameters()
                          if p.requires_grad}
        self.parameter_names = []
        self.parameter_values = {}
        self.parameter_tensors = {}
        self.trainable_names = []
        self._by_id = {}

    # -- values ---------------------------------------------------------------

    def tensor(self, value, like=None):
        """`value` as an rlx Tensor: a torch tensor or number becomes a
        constant; a number of `like`'s element type, a float tensor of
        `like`'s float type."""
        if isinstance(value, Tensor):
            return value
        if like is not None and isinstance(value, (bool, int, float)):
            return self.rlx.constant(np.asarray(value), dtype=like.dtype)
        if isinstance(value, torch.Tensor):
            array = value.detach().cpu()
            if array.dtype == torch.bfloat16:
                array = array.float()
            array = array.resolve_conj().numpy() if array.is_complex() \
                else array.numpy()
        else:
            array = np.asarray(value)
            if array.dtype == np.float64:
                array = array.astype(np.float32)
        if np.iscomplexobj(array):
            # rlx.constant holds real elements: the parts, joined.
            part = like if like is not None and _is_float(like.dtype) else \
                None
            parts = [np.ascontiguousarray(p) for p in (array.real,
                                                       array.imag)]
            if isinstance(value, torch.Tensor):  # keep complex128's f64
                parts = [torch.from_numpy(p) for p in parts]
            return self.rlx.complex(*[self.tensor(p, part) for p in parts])
        dtype = dtype_name(array.dtype)
        if like is not None and _is_float(dtype) and _is_float(like.dtype):
            dtype = like.dtype
        return self.rlx.constant(array, dtype=dtype)

    def cast(self, x, dtype):
        x = self.tensor(x)
        return x if x.dtype == dtype else self.rlx.cast(x, dtype=dtype)

    def reshape(self, x, shape):
        shape = [int(s) for s in shape]
        return x if list(x.shape) == shape else \
            self.rlx.reshape(x, shape=shape)

    def transpose(self, x, permutation):
        permutation = list(permutation)
        if permutation == list(range(x.rank)):
            return x
        return self.rlx.transpose(x, permutation=permutation)

    def float_tensor(self, x):
        """x, cast to f32 unless it is floating point (torch's promotion of
        integer inputs to the float functions)."""
        x = self.tensor(x)
        return x if _is_float(x.dtype) else self.cast(x, "f32")

    def promote(self, a, b):
        """a and b with torch's type promotion: rlx Tensors of one element
        type, or a Tensor and a Python number it can take."""
        # 0-d torch tensors promote as numbers, as in torch.
        a, b = (v.item() if isinstance(v, torch.Tensor) and v.dim() == 0
                else v for v in (a, b))
        _no_complex_arithmetic(a, b)
        numbers = (bool, int, float)
        if isinstance(a, numbers) and isinstance(b, numbers):
            a = self.tensor(a)
        if isinstance(b, numbers):
            return self._with_number(a, b)
        if isinstance(a, numbers):
            b, a = self._with_number(b, a)
            return a, b
        like = a if isinstance(a, Tensor) else b
        a, b = self.tensor(a, like), self.tensor(b, like)
        if a.dtype != b.dtype:
            dtype = max(a.dtype, b.dtype, key=_PROMOTION.index)
            a, b = self.cast(a, dtype), self.cast(b, dtype)
        return a, b

    def _with_number(self, tensor, number):
        tensor = self.tensor(tensor)
        if isinstance(number, float) and not _is_float(tensor.dtype):
            tensor = self.cast(tensor, "f32")
        elif isinstance(number, int) and not isinstance(number, bool) and \
                tensor.dtype == "i1":
            tensor = self.cast(tensor, "i64")
        return tensor, number

    def attribute(self, tensor):
        """The graph value of a parameter, buffer or tensor attribute."""
        if not isinstance(tensor, torch.Tensor):
            return tensor
        name = self.tensor_names.get(id(tensor))
        if name is None or not self.parameters_as_inputs:
            return self.tensor(tensor)
        if id(tensor) not in self._by_id:
            input_name = self._input_name(name)
            value = self.graph.tensor(tuple(tensor.shape), tensor.dtype,
                                      name=input_name)
            self._by_id[id(tensor)] = value
            self.parameter_names.append(name)
            self.parameter_values[name] = tensor.detach().cpu().numpy()
            self.parameter_tensors[name] = value
            if id(tensor) in self.trainable:
                self.trainable_names.append(name)
        return self._by_id[id(tensor)]

    def _input_name(self, name):
        base = re.sub(r"\W", "_", name)
        if not base.isidentifier():
            base = "p_" + base
        candidate, n = base, 1
        while candidate in self.graph.input_names:
            candidate, n = f"{base}_{n}", n + 1
        return candidate

    # -- interpreting the fx graph --------------------------------------------

    def run(self, root, fx_graph, arguments):
        """Interprets `fx_graph`, traced from module `root`, on `arguments`
        (one value per placeholder). Returns the output's value."""
        env = {}
        placeholders = iter(arguments)
        for node in fx_graph.nodes:
            self.loc, self.where = _location(node)
            args = torch.fx.node.map_arg(node.args, env.__getitem__)
            kwargs = torch.fx.node.map_arg(node.kwargs, env.__getitem__)
            if node.op == "placeholder":
                env[node] = next(placeholders)
            elif node.op == "get_attr":
                env[node] = self.attribute(
                    operator.attrgetter(node.target)(root))
            elif node.op == "call_function":
                env[node] = self.call(node.target, args, kwargs,
                                      _function_name(node.target))
            elif node.op == "call_method":
                env[node] = self.call_method(node.target, args, kwargs)
            elif node.op == "call_module":
                module = root.get_submodule(node.target)
                handler = next(h for cls, h in _MODULE_HANDLERS.items()
                               if isinstance(module, cls))
                env[node] = self.apply(handler, (self, module, *args),
                                       kwargs, _module_name(module))
            elif node.op == "output":
                return args[0]
        raise TorchImportError("the traced graph has no output")

    def call(self, target, args, kwargs, description):
        if not _contains_tensor((args, kwargs)):
            # Sizes, shape arithmetic and tensors made from constants: the
            # values are known while importing.
            return target(*args, **kwargs)
        handler = _HANDLERS.get(target)
        if handler is None:
            raise UnsupportedTorchOp(f"{self.where}: {description} is not "
                                     "supported by the rlx importer")
        return self.apply(handler, (self, *args), kwargs, description)

    def call_method(self, name, args, kwargs):
        receiver = args[0]
        if not _contains_tensor((args, kwargs)):
            return getattr(receiver, name)(*args[1:], **kwargs)
        handler = _HANDLERS.get(name)
        if handler is None:
            raise UnsupportedTorchOp(f"{self.where}: Tensor.{name} is not "
                                     "supported by the rlx importer")
        return self.apply(handler, (self, *args), kwargs, f"Tensor.{name}")

    def apply(self, handler, args, kwargs, description):
        try:
            inspect.signature(handler).bind(*args, **kwargs)
        except TypeError as e:
            raise UnsupportedTorchOp(
                f"{self.where}: {description} with these arguments is not "
                f"supported ({e})") from None
        try:
            if handler in _PART_BY_PART and _contains_complex((args, kwargs)):
                return _by_parts(self, handler, args, kwargs)
            return handler(*args, **kwargs)
        except GraphError as e:
            kind = type(e) if isinstance(e, TorchImportError) else \
                TorchImportError
            raise kind(f"{self.where}: {description}: {e}",
                       e.diagnostics) from e


def _location(node):
    """(loc, where) of an fx node: its innermost stack frame in the model's
    code as (file, line), else its module's path; and for messages,
    "file:line: `code` (module 'path')"."""
    module = node.meta.get("rlx_module", "")
    inside = f" (module '{module}')" if module else ""
    for file, line, code in _FRAME.findall(node.stack_trace or ""):
        if _is_model_code(file):
            code = f": `{code.strip()}`" if code else ""
            return (file, int(line)), f"{file}:{line}{code}{inside}"
    return module or node.name, (module or node.name) + inside


_NAMESPACES = (("torch.nn.functional", F), ("torch.linalg", torch.linalg),
               ("torch.fft", torch.fft), ("torch", torch),
               ("operator", operator), ("math", math))


def _function_name(target):
    for prefix, namespace in _NAMESPACES:
        for name, value in vars(namespace).items():
            if value is target and not name.startswith("_"):
                return f"{prefix}.{name}"
    module = getattr(target, "__module__", None) or "?"
    return f"{module}.{getattr(target, '__qualname__', target)}"


def _module_name(module):
    cls = type(module)
    if cls.__module__.startswith("torch.nn"):
        return f"torch.nn.{cls.__name__}"
    return f"{cls.__module__}.{cls.__qualname__}"




# -- elementwise -------------------------------------------------------------

def _unary(op):
    def handler(cx, input, inplace=False):
        _no_complex_arithmetic(input)
        x = cx.tensor(input)
        if op not in ("relu", "abs", "neg", "sign") and \
                not _is_float(x.dtype):
            x = cx.cast(x, "f32")
        return getattr(cx.rlx, op)(x)
    handler.__name__ = f"_{op}"
    return handler


for _op, _targets in {
        "relu": (torch.relu, F.relu, "relu", "relu_", torch.relu_),
        "silu": (F.silu,),
        "sigmoid": (torch.sigmoid, F.sigmoid, "sigmoid"),
        "tanh": (torch.tanh, F.tanh, "tanh"),
        "exp": (torch.exp, "exp"),
        "log": (torch.log, "log"),
        "sqrt": (torch.sqrt, "sqrt"),
        "rsqrt": (torch.rsqrt, "rsqrt"),
        "neg": (torch.neg, operator.neg, "neg"),
        "sin": (torch.sin, "sin"),
        "cos": (torch.cos, "cos"),
        "tan": (torch.tan, "tan"),
        "atan": (torch.atan, "atan"),
        "erf": (torch.erf, torch.special.erf, "erf"),
        "floor": (torch.floor, "floor"),
        "ceil": (torch.ceil, "ceil"),
        "round": (torch.round, "round"),
        "sign": (torch.sign, "sign"),
        "recip": (torch.reciprocal, "reciprocal"),
        "mish": (F.mish,),
        "hard_swish": (F.hardswish,),
        "hard_sigmoid": (F.hardsigmoid,),
        "softsign": (F.softsign,),
        "log_sigmoid": (F.logsigmoid,),
}.items():
    _handles(*_targets)(_unary(_op))


@_handles(F.gelu, "gelu")
def _gelu(cx, input, approximate="none"):
    if approximate not in ("none", "tanh"):
        raise TorchImportError(f"approximate={approximate!r}")
    op = cx.rlx.gelu if approximate == "none" else cx.rlx.gelu_approx
    return op(cx.tensor(input))


@_handles(F.elu)
def _elu(cx, input, alpha=1.0, inplace=False):
    x = cx.tensor(input)
    if alpha == 1.0:
        return cx.rlx.elu(x)
    return cx.rlx.where(cx.rlx.gt(x, 0.0), x,
                        cx.rlx.mul(cx.rlx.elu(x), float(alpha)))


@_handles(F.selu)
def _selu(cx, input, inplace=False):
    # torch's constants (aten/src/ATen/native/Activation.cpp).
    alpha, scale = 1.6732632423543772848170429916717, \
        1.0507009873554804934193349852946
    return cx.rlx.mul(_elu(cx, input, alpha), scale)


@_handles(F.leaky_relu)
def _leaky_relu(cx, input, negative_slope=0.01, inplace=False):
    x = cx.tensor(input)
    return cx.rlx.where(cx.rlx.gt(x, 0.0), x,
                        cx.rlx.mul(x, float(negative_slope)))


@_handles(F.prelu)
def _prelu(cx, input, weight):
    x, w = cx.tensor(input), cx.tensor(weight)
    if w.shape != (1,) and x.rank > 1:
        # One slope per channel (axis 1).
        w = cx.reshape(w, [w.shape[0]] + [1] * (x.rank - 2))
    return cx.rlx.where(cx.rlx.gt(x, 0.0), x, cx.rlx.mul(x, w))


@_handles(torch.clamp, torch.clip, "clamp", "clip", "clamp_")
def _clamp(cx, input, min=None, max=None):
    x = cx.tensor(input)
    if isinstance(min, (Tensor, torch.Tensor)) or \
            isinstance(max, (Tensor, torch.Tensor)):
        if min is not None:
            x = cx.rlx.max(*cx.promote(x, min))
        if max is not None:
            x = cx.rlx.min(*cx.promote(x, max))
        return x
    return cx.rlx.clamp(x, min=min, max=max)


@_handles(F.hardtanh)
def _hardtanh(cx, input, min_val=-1.0, max_val=1.0, inplace=False):
    return cx.rlx.clamp(cx.tensor(input), min=float(min_val),
                        max=float(max_val))


@_handles(F.relu6)
def _relu6(cx, input, inplace=False):
    return cx.rlx.clamp(cx.tensor(input), min=0.0, max=6.0)


@_handles(F.softplus)
def _softplus(cx, input, beta=1, threshold=20):
    # rlx.softplus is the exact log(1 + exp(x)); torch switches to x above
    # `threshold`, where the two differ by less than exp(-threshold).
    x = cx.tensor(input)
    if beta == 1:
        return cx.rlx.softplus(x)
    return cx.rlx.div(cx.rlx.softplus(cx.rlx.mul(x, float(beta))),
                      float(beta))


@_handles(F.glu)
def _glu(cx, input, dim=-1):
    a, b = _chunk(cx, input, 2, dim)
    return cx.rlx.mul(a, cx.rlx.sigmoid(b))


@_handles(torch.square, "square")
def _square(cx, input):
    x = cx.tensor(input)
    return cx.rlx.mul(x, x)


@_handles(torch.log1p, "log1p")
def _log1p(cx, input):
    return cx.rlx.log(cx.rlx.add(cx.float_tensor(input), 1.0))


@_handles(torch.expm1, "expm1")
def _expm1(cx, input):
    return cx.rlx.sub(cx.rlx.exp(cx.float_tensor(input)), 1.0)


def _binary(op):
    def handler(cx, input, other):
        return getattr(cx.rlx, op)(*cx.promote(input, other))
    handler.__name__ = f"_{op}"
    return handler


for _op, _targets in {
        "mul": (torch.mul, torch.multiply, operator.mul, operator.imul,
                "mul", "mul_", "multiply"),
        "max": (torch.maximum, "maximum"),
        "min": (torch.minimum, "minimum"),
        "mod": (torch.fmod, "fmod"),
        "eq": (torch.eq, operator.eq, "eq"),
        "ne": (torch.ne, operator.ne, "ne"),
        "lt": (torch.lt, operator.lt, "lt"),
        "le": (torch.le, operator.le, "le"),
        "gt": (torch.gt, operator.gt, "gt"),
        "ge": (torch.ge, operator.ge, "ge"),
        "bit_and": (torch.logical_and, torch.bitwise_and, operator.and_,
                    "logical_and", "bitwise_and", "__and__"),
        "bit_or": (torch.logical_or, torch.bitwise_or, operator.or_,
                   "logical_or", "bitwise_or", "__or__"),
        "bit_xor": (torch.logical_xor, torch.bitwise_xor, operator.xor,
                    "logical_xor", "bitwise_xor", "__xor__"),
}.items():
    _handles(*_targets)(_binary(_op))


@_handles(torch.add, operator.add, operator.iadd, "add", "add_")
def _add(cx, input, other, alpha=1):
    a, b = cx.promote(input, other)
    if alpha != 1:
        b = cx.rlx.mul(b, alpha)
    return cx.rlx.add(a, b)


@_handles(torch.sub, torch.subtract, operator.sub, operator.isub, "sub",
          "sub_", "subtract")
def _sub(cx, input, other, alpha=1):
    a, b = cx.promote(input, other)
    if alpha != 1:
        b = cx.rlx.mul(b, alpha)
    return cx.rlx.sub(a, b)


@_handles(torch.rsub, "rsub")
def _rsub(cx, input, other, alpha=1):
    return _sub(cx, other, input, alpha)


@_handles(torch.div, torch.true_divide, torch.divide, operator.truediv,
          operator.itruediv, "div", "div_", "true_divide", "divide")
def _div(cx, input, other, rounding_mode=None):
    a, b = cx.promote(input, other)
    if not _is_float((a if isinstance(a, Tensor) else b).dtype):
        # True division of integers is a float division.
        a, b = cx.promote(cx.cast(a, "f32"), b)
    quotient = cx.rlx.div(a, b)
    if rounding_mode is None:
        return quotient
    if rounding_mode == "floor":
        return cx.rlx.floor(quotient)
    if rounding_mode == "trunc":
        return cx.rlx.where(cx.rlx.lt(quotient, 0.0), cx.rlx.ceil(quotient),
                            cx.rlx.floor(quotient))
    raise TorchImportError(f"rounding_mode={rounding_mode!r}")


@_handles(torch.floor_divide, operator.floordiv, "floor_divide")
def _floor_divide(cx, input, other):
    a, b = cx.promote(input, other)
    a = cx.tensor(a, b if isinstance(b, Tensor) else None)
    b = cx.tensor(b, a)
    if _is_float(a.dtype):
        return cx.rlx.floor(cx.rlx.div(a, b))
    # Integer division truncates in rlx: one less where the remainder is
    # non-zero and the operands' signs differ.
    quotient = cx.rlx.div(a, b)
    remainder = cx.rlx.sub(a, cx.rlx.mul(quotient, b))
    adjust = cx.rlx.bit_and(cx.rlx.ne(remainder, 0),
                            cx.rlx.ne(cx.rlx.lt(remainder, 0),
                                      cx.rlx.lt(b, 0)))
    return cx.rlx.sub(quotient, cx.cast(adjust, a.dtype))


@_handles(torch.remainder, operator.mod, "remainder")
def _remainder(cx, input, other):
    # Python's modulo, of the divisor's sign: a - floor(a / b) * b.
    a, b = cx.promote(input, other)
    return cx.rlx.sub(a, cx.rlx.mul(_floor_divide(cx, a, b), b))


@_handles(torch.pow, operator.pow, "pow", "pow_")
def _pow(cx, input, exponent):
    _no_complex_arithmetic(input, exponent)
    if not isinstance(exponent, (int, float)) or \
            not isinstance(input, (Tensor, torch.Tensor)):
        base, power = cx.promote(input, exponent)
        like = base if isinstance(base, Tensor) else power
        return cx.rlx.pow(cx.tensor(base, like), cx.tensor(power, like))
    x = cx.tensor(input)
    # Small exact powers as products: no log of a negative base, and
    # simpler gradients.
    if exponent == 1:
        return x
    if exponent == 2:
        return cx.rlx.mul(x, x)
    if exponent == 3:
        return cx.rlx.mul(cx.rlx.mul(x, x), x)
    if exponent == 0.5:
        return cx.rlx.sqrt(cx.float_tensor(x))
    if exponent == -0.5:
        return cx.rlx.rsqrt(cx.float_tensor(x))
    if exponent == -1:
        return cx.rlx.recip(cx.float_tensor(x))
    return cx.rlx.pow(*cx.promote(x, exponent))


@_handles(torch.logical_not, operator.invert, operator.not_, "logical_not",
          "__invert__", "bitwise_not")
def _logical_not(cx, input):
    x = cx.tensor(input)
    if x.dtype != "i1":
        raise UnsupportedTorchOp(f"bitwise not of {x.dtype} (only of bool)")
    return cx.rlx.eq(x, False)


@_handles(torch.where, "where")
def _where(cx, condition, input, other):
    a, b = cx.promote(input, other)
    like = a if isinstance(a, Tensor) else b
    return cx.rlx.where(cx.cast(condition, "i1"), cx.tensor(a, like),
                        cx.tensor(b, like))


@_handles(torch.masked_fill, "masked_fill", "masked_fill_")
def _masked_fill(cx, input, mask, value):
    x = cx.tensor(input)
    value = value.item() if isinstance(value, torch.Tensor) else value
    return cx.rlx.where(cx.cast(mask, "i1"), cx.tensor(value, x), x)


@_handles(torch.tril, "tril")
def _tril(cx, input, diagonal=0):
    return cx.rlx.trilu(cx.tensor(input), part="lower", diagonal=diagonal)


@_handles(torch.triu, "triu")
def _triu(cx, input, diagonal=0):
    return cx.rlx.trilu(cx.tensor(input), part="upper", diagonal=diagonal)


# -- dtype, device and identity ----------------------------------------------

@_handles("contiguous", "clone", torch.clone, "cpu", "requires_grad_")
def _identity(cx, input, *args, **kwargs):
    return input


@_handles("detach", torch.detach)
def _detach(cx, input):
    return cx.rlx.stop_gradient(cx.tensor(input))


def _cast_to(dtype):
    def handler(cx, input, memory_format=None):
        return cx.cast(input, dtype)
    return handler


for _method, _dtype in {"float": "f32", "double": "f64", "half": "f16",
                        "bfloat16": "bf16", "long": "i64", "int": "i32",
                        "short": "i16", "bool": "i1"}.items():
    _handles(_method)(_cast_to(_dtype))


@_handles("to", "type")
def _to(cx, input, *args, **kwargs):
    # to(dtype), to(device[, dtype]), to(other), to(dtype=...): only the
    # dtype matters.
    dtype = kwargs.get("dtype")
    for arg in args:
        if isinstance(arg, torch.dtype):
            dtype = arg
        elif isinstance(arg, Tensor):
            dtype = arg.dtype
    if dtype is None:
        return input
    return cx.cast(input, dtype_name(dtype))


@_handles("type_as")
def _type_as(cx, input, other):
    return cx.cast(input, cx.tensor(other).dtype)


@_handles(getattr)
def _getattr(cx, obj, name):
    if not isinstance(obj, Tensor):
        return getattr(obj, name)  # a field of a tuple of results
    attributes = {
        "shape": lambda: torch.Size(obj.shape),
        "dtype": lambda: _torch_dtype(obj.dtype),
        "device": lambda: torch.device("cpu"),
        "ndim": lambda: obj.rank,
        "is_cuda": lambda: False,
        "T": lambda: _on_parts(cx, obj, lambda t: cx.transpose(
            t, list(range(t.rank))[::-1])),
        "mT": lambda: _on_parts(cx, obj,
                                lambda t: _transpose(cx, t, -2, -1)),
        "data": lambda: obj,
        "real": lambda: _real(cx, obj),
        "imag": lambda: _imag(cx, obj),
    }
    if name not in attributes:
        raise UnsupportedTorchOp(f"Tensor attribute {name!r}")
    return attributes[name]()


@_handles("size")
def _size(cx, input, dim=None):
    shape = torch.Size(input.shape)
    return shape if dim is None else shape[dim]


@_handles("dim", "ndimension")
def _dim(cx, input):
    return input.rank


@_handles("numel", torch.numel)
def _numel(cx, input):
    return int(np.prod(input.shape))


def _filled(fill):
    def handler(cx, input, *args, dtype=None, layout=None, device=None,
                requires_grad=False, memory_format=None, pin_memory=None):
        x = cx.tensor(input)
        value = fill if fill is not None else args[0]
        dtype = dtype_name(dtype) if dtype is not None else x.dtype
        return cx.rlx.constant(np.full(x.shape, value), dtype=dtype)
    return handler


_handles(torch.zeros_like, "zero_")(_filled(0))
_handles(torch.ones_like)(_filled(1))
_handles(torch.full_like)(_filled(None))


# -- shapes ------------------------------------------------------------------

@_handles(torch.reshape, "view", "reshape")
def _reshape(cx, input, *shape):
    x = cx.tensor(input)
    if len(shape) == 1 and isinstance(shape[0], torch.dtype):
        raise UnsupportedTorchOp("view(dtype) (a bit cast)")
    shape = _sizes(shape)
    if shape.count(-1) == 1:
        known = int(np.prod([s for s in shape if s != -1]))
        shape[shape.index(-1)] = int(np.prod(x.shape)) // max(known, 1)
    if int(np.prod(shape)) != int(np.prod(x.shape)):
        raise TorchImportError(f"shape {shape} is invalid for an input of "
                               f"shape {list(x.shape)}")
    return cx.reshape(x, shape)


@_handles("view_as", "reshape_as")
def _view_as(cx, input, other):
    return cx.reshape(cx.tensor(input), cx.tensor(other).shape)


@_handles(torch.flatten, "flatten")
def _flatten(cx, input, start_dim=0, end_dim=-1):
    x = cx.tensor(input)
    if x.rank == 0:
        return cx.reshape(x, [1])
    start, end = _axis(start_dim, x.rank), _axis(end_dim, x.rank)
    shape = list(x.shape[:start]) + \
        [int(np.prod(x.shape[start:end + 1]))] + list(x.shape[end + 1:])
    return cx.reshape(x, shape)


@_handles(*_torch_attr("unflatten"), "unflatten")
def _unflatten(cx, input, dim, sizes):
    x = cx.tensor(input)
    axis = _axis(dim, x.rank)
    sizes = list(sizes)
    if -1 in sizes:
        sizes[sizes.index(-1)] = x.shape[axis] // -int(np.prod(sizes))
    return cx.reshape(x, list(x.shape[:axis]) + sizes +
                      list(x.shape[axis + 1:]))


@_handles(torch.squeeze, "squeeze")
def _squeeze(cx, input, dim=None):
    x = cx.tensor(input)
    axes = _axes(dim, x.rank)
    return cx.reshape(x, [s for i, s in enumerate(x.shape)
                          if not (i in axes and s == 1)])


@_handles(torch.unsqueeze, "unsqueeze")
def _unsqueeze(cx, input, dim):
    x = cx.tensor(input)
    shape = list(x.shape)
    shape.insert(_axis(dim, x.rank + 1), 1)
    return cx.reshape(x, shape)


@_handles(torch.permute, "permute")
def _permute(cx, input, *dims):
    x = cx.tensor(input)
    return cx.transpose(x, [_axis(d, x.rank) for d in _sizes(dims)])


@_handles(torch.transpose, torch.swapaxes, "transpose", "swapaxes")
def _transpose(cx, input, dim0, dim1):
    x = cx.tensor(input)
    permutation = list(range(x.rank))
    a, b = _axis(dim0, x.rank), _axis(dim1, x.rank)
    permutation[a], permutation[b] = permutation[b], permutation[a]
    return cx.transpose(x, permutation)


@_handles(torch.t, "t")
def _t(cx, input):
    x = cx.tensor(input)
    return x if x.rank < 2 else _transpose(cx, x, 0, 1)


@_handles("expand", torch.broadcast_to, "broadcast_to")
def _expand(cx, input, *sizes):
    x = cx.tensor(input)
    sizes = _sizes(sizes)
    offset = len(sizes) - x.rank
    shape = [x.shape[i - offset] if s == -1 else s
             for i, s in enumerate(sizes)]
    return x if tuple(shape) == x.shape else cx.rlx.expand(x, shape=shape)


@_handles("expand_as")
def _expand_as(cx, input, other):
    return _expand(cx, input, cx.tensor(other).shape)


@_handles("repeat", torch.tile, "tile")
def _repeat(cx, input, *sizes):
    x = cx.tensor(input)
    reps = _sizes(sizes)
    if len(reps) < x.rank:
        reps = [1] * (x.rank - len(reps)) + reps
    x = cx.reshape(x, [1] * (len(reps) - x.rank) + list(x.shape))
    return cx.rlx.tile(x, reps=reps)


@_handles(torch.cat, *_torch_attr("concat", "concatenate"))
def _cat(cx, tensors, dim=0):
    tensors = [cx.tensor(t) for t in tensors]
    dtype = max((t.dtype for t in tensors), key=_PROMOTION.index)
    tensors = [cx.cast(t, dtype) for t in tensors]
    if len(tensors) == 1:
        return tensors[0]
    return cx.rlx.concat(tensors, axis=_axis(dim, tensors[0].rank))


@_handles(torch.stack)
def _stack(cx, tensors, dim=0):
    tensors = [cx.tensor(t) for t in tensors]
    axis = _axis(dim, tensors[0].rank + 1)
    return _cat(cx, [_unsqueeze(cx, t, axis) for t in tensors], axis)


def _narrow(cx, x, axis, start, length):
    if start == 0 and length == x.shape[axis]:
        return x
    return cx.rlx.narrow(x, axis=axis, start=start, length=length)


@_handles(torch.split, "split")
def _split(cx, tensor, split_size_or_sections, dim=0):
    x = cx.tensor(tensor)
    axis = _axis(dim, x.rank)
    size = x.shape[axis]
    if isinstance(split_size_or_sections, int):
        step = split_size_or_sections
        lengths = [min(step, size - s) for s in range(0, size, step)]
    else:
        lengths = list(split_size_or_sections)
    starts = np.cumsum([0] + lengths[:-1])
    return tuple(_narrow(cx, x, axis, int(s), int(n))
                 for s, n in zip(starts, lengths))


@_handles(torch.chunk, "chunk")
def _chunk(cx, input, chunks, dim=0):
    x = cx.tensor(input)
    size = x.shape[_axis(dim, x.rank)]
    return _split(cx, x, -(-size // chunks), dim)


@_handles(torch.unbind, "unbind")
def _unbind(cx, input, dim=0):
    x = cx.tensor(input)
    axis = _axis(dim, x.rank)
    return tuple(_squeeze(cx, part, axis)
                 for part in _split(cx, x, 1, axis))


@_handles(torch.narrow, "narrow")
def _narrow_call(cx, input, dim, start, length):
    x = cx.tensor(input)
    axis = _axis(dim, x.rank)
    return _narrow(cx, x, axis, int(start) % x.shape[axis], int(length))


@_handles(torch.select, "select")
def _select(cx, input, dim, index):
    x = cx.tensor(input)
    axis = _axis(dim, x.rank)
    return _squeeze(cx, _narrow(cx, x, axis, int(index) % x.shape[axis], 1),
                    axis)


@_handles(torch.index_select, "index_select")
def _index_select(cx, input, dim, index):
    x = cx.tensor(input)
    return cx.rlx.gather(x, cx.tensor(index), axis=_axis(dim, x.rank))


@_handles(torch.gather, "gather")
def _gather(cx, input, dim, index, sparse_grad=False):
    x = cx.tensor(input)
    return cx.rlx.gather_elements(x, cx.tensor(index),
                                  axis=_axis(dim, x.rank))


# torch's scatter reductions -> rlx.scatter_elements'.
_SCATTER_REDUCTIONS = {None: "none", "add": "add", "multiply": "mul",
                       "sum": "add", "prod": "mul", "amax": "max",
                       "amin": "min"}


def _scatter_elements(cx, input, dim, index, src, reduction):
    x = cx.tensor(input)
    if not isinstance(src, (Tensor, torch.Tensor)):
        raise UnsupportedTorchOp("scatter of a scalar value (pass a tensor)")
    updates = cx.tensor(src)
    indices = cx.tensor(index)
    # torch reads the part of src that index covers.
    for axis, size in enumerate(indices.shape):
        updates = _narrow(cx, updates, axis, 0, size)
    if reduction not in _SCATTER_REDUCTIONS:
        raise UnsupportedTorchOp(f"scatter reduce={reduction!r}")
    return cx.rlx.scatter_elements(x, indices, updates,
                                   axis=_axis(dim, x.rank),
                                   reduction=_SCATTER_REDUCTIONS[reduction])


@_handles(torch.scatter, "scatter")
def _scatter(cx, input, dim, index, src=None, value=None, reduce=None):
    return _scatter_elements(cx, input, dim, index,
                             src if src is not None else value, reduce)


@_handles(torch.scatter_add, "scatter_add")
def _scatter_add(cx, input, dim, index, src):
    return _scatter_elements(cx, input, dim, index, src, "add")


@_handles(*_torch_attr("scatter_reduce"), "scatter_reduce")
def _scatter_reduce(cx, input, dim, index, src, reduce, include_self=True):
    if not include_self:
        raise UnsupportedTorchOp("scatter_reduce with include_self=False")
    return _scatter_elements(cx, input, dim, index, src, reduce)


@_handles(torch.sort, "sort")
def _sort(cx, input, dim=-1, descending=False, stable=False):
    # rlx.sort is always stable, a valid result of stable=False too.
    x = cx.tensor(input)
    values, indices = cx.rlx.sort(x, axis=_axis(dim, x.rank),
                                  descending=bool(descending) or None)
    return torch.return_types.sort((values, indices))


@_handles(torch.argsort, "argsort")
def _argsort(cx, input, dim=-1, descending=False, stable=False):
    x = cx.tensor(input)
    return cx.rlx.argsort(x, axis=_axis(dim, x.rank),
                          descending=bool(descending) or None)


@_handles(torch.topk, "topk")
def _topk(cx, input, k, dim=-1, largest=True, sorted=True):
    x = cx.tensor(input)
    if _axis(dim, x.rank) != x.rank - 1:
        raise UnsupportedTorchOp("topk along a dimension other than the "
                                 "last")
    values, indices = cx.rlx.topk(x, k=int(k),
                                  smallest=None if largest else True)
    return torch.return_types.topk((values, indices))


@_handles(torch.cummax, "cummax")
def _cummax(cx, input, dim):
    x = cx.tensor(input)
    axis = _axis(dim, x.rank)
    return torch.return_types.cummax((cx.rlx.cummax(x, axis=axis),
                                      cx.rlx.cummax_indices(x, axis=axis)))


@_handles(torch.histc, "histc")
def _histc(cx, input, bins=100, min=0, max=0):
    if not min < max:
        raise UnsupportedTorchOp("histc without min < max (the data's range)")
    return cx.rlx.histogram(cx.float_tensor(input), bins=int(bins),
                            min=float(min), max=float(max))


@_handles(torch.flip, "flip")
def _flip(cx, input, dims):
    x = cx.tensor(input)
    return cx.rlx.reverse(x, axes=_axes(dims, x.rank))


@_handles(torch.roll, "roll")
def _roll(cx, input, shifts, dims=None):
    x = cx.tensor(input)
    if dims is None:
        raise UnsupportedTorchOp("roll without dims (of the flattened "
                                 "tensor)")
    return cx.rlx.roll(x, shifts=_ntuple(shifts, 1),
                       dims=_axes(dims, x.rank))


@_handles(operator.getitem)
def _getitem(cx, container, index):
    if not isinstance(container, Tensor):
        return container[index]
    return _index(cx, container, index)


def _index(cx, x, index):
    """x[index] for ints, slices (any step), None, Ellipsis and one integer
    tensor or list (a gather along its axis)."""
    index = index if isinstance(index, tuple) else (index,)
    consumed = sum(1 for i in index if i is not None and i is not Ellipsis)
    if consumed > x.rank:
        raise TorchImportError(f"too many indices for a tensor of rank "
                               f"{x.rank}")
    # Ellipsis, or else the end, stands for the dimensions not indexed.
    at = next((n for n, i in enumerate(index) if i is Ellipsis), len(index))
    index = index[:at] + (slice(None),) * (x.rank - consumed) + \
        index[at + 1:]
    shape, axis, gathered = [], 0, False
    for item in index:
        if item is None:
            shape.append(1)
            continue
        size = x.shape[axis]
        if isinstance(item, list):
            item = torch.tensor(item)
        if isinstance(item, (Tensor, torch.Tensor)):
            indices = cx.tensor(item)
            if indices.dtype == "i1" or gathered:
                raise UnsupportedTorchOp(
                    "boolean-mask indexing and more than one tensor index")
            gathered = True
            x = cx.rlx.gather(x, indices, axis=axis)
            shape += list(indices.shape)
            axis += indices.rank
        elif isinstance(item, slice):
            start, stop, step = item.indices(size)
            length = len(range(start, stop, step))
            if step == 1:
                x = _narrow(cx, x, axis, start, length)
            else:
                x = cx.rlx.slice(x, axis=axis, start=start, length=length,
                                 step=step)
            shape.append(length)
            axis += 1
        else:
            position = operator.index(item)
            if not -size <= position < size:
                raise TorchImportError(f"index {position} is out of range "
                                       f"for dimension {axis} of size {size}")
            x = _narrow(cx, x, axis, position % size, 1)
            axis += 1
    return cx.reshape(x, shape)


@_handles(F.pad)
def _pad(cx, input, pad, mode="constant", value=None):
    x = cx.tensor(input)
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise UnsupportedTorchOp(f"F.pad mode={mode!r}")
    # torch lists (lo, hi) pairs from the last dimension backwards.
    pads = [0] * (2 * x.rank)
    for i in range(len(pad) // 2):
        axis = x.rank - 1 - i
        pads[2 * axis], pads[2 * axis + 1] = pad[2 * i], pad[2 * i + 1]
    return cx.rlx.pad(x, mode=mode, pads=pads,
                      value=float(value) if value else None)


# The layout handlers above take complex tensors part by part.
_PART_BY_PART.update((
    _detach, _reshape, _view_as, _flatten, _unflatten, _squeeze,
    _unsqueeze, _permute, _transpose, _t, _expand, _expand_as, _repeat,
    _cat, _stack, _split, _chunk, _unbind, _narrow_call, _select,
    _index_select, _getitem, _flip, _roll))


# -- reductions --------------------------------------------------------------

def _reduce(cx, x, kind, dim, keepdim):
    x = cx.tensor(x)
    if x.rank == 0:
        return x
    if kind == "mean":
        x = cx.float_tensor(x)
    return cx.rlx.reduce(x, kind=kind, axes=_axes(dim, x.rank),
                         keep_dim=bool(keepdim) or None)


def _reduction_handler(kind):
    def handler(cx, input, dim=None, keepdim=False, dtype=None):
        x = cx.tensor(input)
        if dtype is not None:
            x = cx.cast(x, dtype_name(dtype))
        elif kind in ("sum", "prod") and x.dtype == "i1":
            x = cx.cast(x, "i64")
        return _reduce(cx, x, kind, dim, keepdim)
    handler.__name__ = f"_{kind}"
    return handler


_handles(torch.sum, "sum")(_reduction_handler("sum"))
_handles(torch.mean, "mean")(_reduction_handler("mean"))
_handles(torch.prod, "prod")(_reduction_handler("prod"))


@_handles(torch.amax, "amax")
def _amax(cx, input, dim=(), keepdim=False):
    return _reduce(cx, input, "max", dim, keepdim)


@_handles(torch.amin, "amin")
def _amin(cx, input, dim=(), keepdim=False):
    return _reduce(cx, input, "min", dim, keepdim)


def _max_min(kind, arg, result_type):
    """torch.max/min: of all elements, along a dim (values and indices),
    or of two tensors (elementwise)."""
    def handler(cx, input, dim=None, keepdim=False):
        if isinstance(dim, (Tensor, torch.Tensor)):
            return getattr(cx.rlx, kind)(*cx.promote(input, dim))
        values = _reduce(cx, input, kind, dim, keepdim)
        if dim is None:
            return values
        return result_type((values, _arg_reduce(cx, arg, input, dim,
                                                keepdim)))
    handler.__name__ = f"_{kind}"
    return handler


_handles(torch.max, "max")(_max_min("max", "argmax", torch.return_types.max))
_handles(torch.min, "min")(_max_min("min", "argmin", torch.return_types.min))


def _arg_reduce(cx, op, input, dim, keepdim):
    """rlx.argmax/argmin of torch's arguments: i64 indices along `dim`, or
    into the flattened tensor."""
    x = cx.tensor(input)
    if dim is None:
        x, dim = cx.reshape(x, [int(np.prod(x.shape))]), 0
    axis = _axis(dim, x.rank)
    shape = list(x.shape)
    if keepdim:
        shape[axis] = 1
    else:
        shape.pop(axis)
    return getattr(cx.rlx, op)(x, axis=axis, keep_dim=bool(keepdim) or None,
                               shape=shape, dtype="i64")


def _arg_handler(op):
    def handler(cx, input, dim=None, keepdim=False):
        return _arg_reduce(cx, op, input, dim, keepdim)
    handler.__name__ = f"_{op}"
    return handler


_handles(torch.argmax, "argmax")(_arg_handler("argmax"))
_handles(torch.argmin, "argmin")(_arg_handler("argmin"))


def _variance(cx, input, dim, unbiased, keepdim, correction):
    x = cx.float_tensor(input)
    axes = _axes(dim, x.rank)
    if correction is None:
        correction = 0 if unbiased is False else 1
    count = int(np.prod([x.shape[a] for a in axes]))
    centered = cx.rlx.sub(x, cx.rlx.reduce(x, kind="mean", axes=axes,
                                           keep_dim=True))
    squares = cx.rlx.reduce(cx.rlx.mul(centered, centered), kind="sum",
                            axes=axes, keep_dim=bool(keepdim) or None)
    return cx.rlx.div(squares, float(max(count - correction, 0)))


@_handles(torch.var, "var")
def _var(cx, input, dim=None, unbiased=None, keepdim=False, *,
         correction=None):
    return _variance(cx, input, dim, unbiased, keepdim, correction)


@_handles(torch.std, "std")
def _std(cx, input, dim=None, unbiased=None, keepdim=False, *,
         correction=None):
    return cx.rlx.sqrt(_variance(cx, input, dim, unbiased, keepdim,
                                 correction))


@_handles(torch.logsumexp, "logsumexp")
def _logsumexp(cx, input, dim, keepdim=False):
    x = cx.float_tensor(input)
    axes = _axes(dim, x.rank)
    peak = cx.rlx.stop_gradient(cx.rlx.reduce(x, kind="max", axes=axes,
                                              keep_dim=True))
    total = cx.rlx.reduce(cx.rlx.exp(cx.rlx.sub(x, peak)), kind="sum",
                          axes=axes, keep_dim=True)
    result = cx.rlx.add(cx.rlx.log(total), peak)
    return result if keepdim else _squeeze(cx, result, axes)


@_handles(torch.cumsum, "cumsum")
def _cumsum(cx, input, dim, dtype=None):
    x = cx.tensor(input)
    if dtype is not None:
        x = cx.cast(x, dtype_name(dtype))
    return cx.rlx.cumsum(x, axis=_axis(dim, x.rank))


@_handles(torch.norm, "norm")
def _norm(cx, input, p="fro", dim=None, keepdim=False, dtype=None):
    if p not in ("fro", 2, 2.0):
        raise UnsupportedTorchOp(f"norm p={p!r} (only the 2-norm)")
    x = cx.float_tensor(input)
    return cx.rlx.sqrt(_reduce(cx, cx.rlx.mul(x, x), "sum", dim, keepdim))


@_handles(F.normalize)
def _normalize(cx, input, p=2.0, dim=1, eps=1e-12, out=None):
    x = cx.tensor(input)
    norm = cx.rlx.clamp(_norm(cx, x, p, dim, True), min=float(eps))
    return cx.rlx.div(x, norm)


# -- contractions ------------------------------------------------------------

@_handles(torch.matmul, torch.mm, torch.bmm, operator.matmul, "matmul", "mm",
          "bmm")
def _matmul(cx, input, other):
    a, b = cx.promote(input, other)
    a, b = cx.tensor(a), cx.tensor(b)
    # torch's 1-D operands: a row (lhs) or a column (rhs), dropped after.
    vector_lhs, vector_rhs = a.rank == 1, b.rank == 1
    if vector_lhs:
        a = cx.reshape(a, [1, a.shape[0]])
    if vector_rhs:
        b = cx.reshape(b, [b.shape[0], 1])
    result = cx.rlx.matmul(a, b)
    shape = list(result.shape)
    if vector_rhs:
        shape.pop(-1)
    if vector_lhs:
        shape.pop(-1 if vector_rhs else -2)
    return cx.reshape(result, shape)


@_handles(F.linear)
def _linear(cx, input, weight, bias=None):
    y = _matmul(cx, input, _t(cx, weight))
    return y if bias is None else cx.rlx.add(y, cx.tensor(bias, y))


@_handles(torch.addmm, torch.baddbmm, "addmm", "baddbmm")
def _addmm(cx, input, mat1, mat2, *, beta=1, alpha=1):
    product = _matmul(cx, mat1, mat2)
    if alpha != 1:
        product = cx.rlx.mul(product, alpha)
    bias = cx.tensor(input, product)
    if beta != 1:
        bias = cx.rlx.mul(bias, beta)
    return cx.rlx.add(product, bias)


@_handles(torch.einsum)
def _einsum(cx, equation, *operands):
    """einsum of one or two operands without repeated or ellipsis
    subscripts: sums, one rlx.dot_general and a transpose."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    equation = equation.replace(" ", "")
    if "..." in equation or len(operands) > 2:
        raise UnsupportedTorchOp("einsum with '...' or more than two "
                                 "operands")
    inputs, arrow, output = equation.partition("->")
    subscripts = inputs.split(",")
    if not arrow:
        # The implicit output: the labels that appear once, sorted.
        output = "".join(sorted(c for c in set(inputs)
                                if c.isalpha() and inputs.count(c) == 1))
    if any(len(set(s)) != len(s) for s in subscripts):
        raise UnsupportedTorchOp("einsum with a repeated subscript in one "
                                 "operand (a diagonal)")
    tensors = [cx.tensor(t) for t in operands]
    # Sum away the labels of one operand that appear nowhere else.
    for n, (labels, x) in enumerate(zip(subscripts, tensors)):
        others = "".join(subscripts[:n] + subscripts[n + 1:]) + output
        summed = [i for i, c in enumerate(labels) if c not in others]
        if summed:
            x = cx.rlx.reduce(x, kind="sum", axes=summed)
            labels = "".join(c for c in labels if c in others)
        subscripts[n], tensors[n] = labels, x
    if len(tensors) == 1:
        labels, x = subscripts[0], tensors[0]
    else:
        (la, lb), (a, b) = subscripts, cx.promote(*tensors)
        batch = [c for c in la if c in lb and c in output]
        contract = [c for c in la if c in lb and c not in output]
        x = cx.rlx.dot_general(
            a, b, lhs_batch_dims=[la.index(c) for c in batch],
            rhs_batch_dims=[lb.index(c) for c in batch],
            lhs_contracting_dims=[la.index(c) for c in contract],
            rhs_contracting_dims=[lb.index(c) for c in contract])
        # dot_general's result order: batch, lhs free, rhs free.
        labels = "".join(batch) + "".join(c for c in la if c not in lb) + \
            "".join(c for c in lb if c not in la)
    return cx.transpose(x, [labels.index(c) for c in output])


# -- linear algebra ------------------------------------------------------------

def _matrices(cx, value, what, square=True):
    """A batch of matrices [..., m, n] (square: m = n) for a torch.linalg
    function: rlx's solvers and factorizations take f32 or f64."""
    x = cx.tensor(value)
    if _is_complex(x.dtype):
        raise UnsupportedTorchOp(f"{what} of complex matrices (rlx's linear "
                                 "algebra takes f32 or f64)")
    if not _is_float(x.dtype):
        x = cx.cast(x, "f32")  # torch raises for integers; rlx takes f32
    if x.dtype not in ("f32", "f64"):
        raise UnsupportedTorchOp(f"{what} of {x.dtype} (rlx's linear algebra "
                                 "takes f32 or f64)")
    if x.rank < 2:
        raise TorchImportError(f"{what} needs a matrix or a batch of "
                               f"matrices, got a tensor of shape "
                               f"{list(x.shape)}")
    if square and x.shape[-1] != x.shape[-2]:
        raise TorchImportError(f"{what} needs square matrices, got shape "
                               f"{list(x.shape)}")
    return x


def _mT(cx, x):
    return _transpose(cx, x, -2, -1)


def _broadcast_batches(cx, a, b, what):
    """a [..., n, n] and b [..., n, k] expanded to one batch shape, as torch
    broadcasts them (rlx's solvers take equal batch dimensions)."""
    batch_a, batch_b = a.shape[:-2], b.shape[:-2]
    if batch_a == batch_b:
        return a, b
    try:
        batch = tuple(torch.broadcast_shapes(batch_a, batch_b))
    except RuntimeError:
        raise TorchImportError(
            f"{what}: the batch dimensions {list(batch_a)} and "
            f"{list(batch_b)} do not broadcast") from None

    def expanded(x):
        shape = list(batch) + list(x.shape[-2:])
        return x if tuple(shape) == x.shape else \
            cx.rlx.expand(x, shape=shape)
    return expanded(a), expanded(b)


def _linear_system(cx, A, B, what):
    """A and B promoted to one float type, A square."""
    a, b = cx.promote(A, B)
    a = _matrices(cx, a, what)
    b = cx.tensor(b, a)
    return a, cx.cast(b, a.dtype)


@_handles(*_torch_attr("linalg.cholesky"), torch.cholesky, "cholesky")
def _cholesky(cx, A, upper=False):
    # upper=True reads the upper triangle: the transpose of the lower
    # factor of A^T.
    a = _matrices(cx, A, "cholesky")
    if upper:
        return _mT(cx, cx.rlx.cholesky(_mT(cx, a)))
    return cx.rlx.cholesky(a)


@_handles(*_torch_attr("linalg.solve"))
def _linalg_solve(cx, A, B, *, left=True):
    a, b = _linear_system(cx, A, B, "solve")
    # torch's rule: B is a (batch of) vector(s) when it is 1-D or A's
    # shape without its last dimension.
    vector = b.rank == 1 or (b.rank == a.rank - 1 and
                             b.shape == a.shape[:-1])
    if not left:
        if vector:
            raise TorchImportError("solve with left=False of a vector B "
                                   "(torch raises: X A = B takes B "
                                   "[..., k, n])")
        # X A = B: A^T X^T = B^T.
        a, b = _mT(cx, a), _mT(cx, b)
    if vector:
        b = _unsqueeze(cx, b, -1)
    a, b = _broadcast_batches(cx, a, b, "solve")
    x = cx.rlx.solve(a, b)
    if vector:
        return _squeeze(cx, x, -1)
    return x if left else _mT(cx, x)


@_handles(*_torch_attr("linalg.inv"), torch.inverse, "inverse")
def _inverse(cx, A):
    a = _matrices(cx, A, "inv")
    identity = cx.tensor(np.eye(a.shape[-1]), a)
    if a.rank > 2:
        identity = cx.rlx.expand(identity, shape=list(a.shape))
    return cx.rlx.solve(a, identity)


def _triangular_solve(cx, a, b, upper, left, transpose, unitriangular,
                      what):
    if not left:
        # x op(A) = b: op(A)^T x^T = b^T.
        b, transpose = _mT(cx, b), not transpose
    a, b = _broadcast_batches(cx, a, b, what)
    x = cx.rlx.triangular_solve(a, b, part="upper" if upper else "lower",
                                transpose=bool(transpose) or None,
                                unit_diagonal=bool(unitriangular) or None)
    return (x if left else _mT(cx, x)), a


@_handles(*_torch_attr("linalg.solve_triangular"))
def _solve_triangular(cx, A, B, *, upper, left=True, unitriangular=False):
    a, b = _linear_system(cx, A, B, "solve_triangular")
    if b.rank < 2:
        raise TorchImportError("solve_triangular needs B of at least two "
                               "dimensions ([..., n, k])")
    return _triangular_solve(cx, a, b, upper, left, False, unitriangular,
                             "solve_triangular")[0]


@_handles(torch.triangular_solve, "triangular_solve")
def _legacy_triangular_solve(cx, input, A, upper=True, transpose=False,
                             unitriangular=False):
    # torch.triangular_solve(b, A): (the solution, A broadcast).
    a, b = _linear_system(cx, A, input, "triangular_solve")
    return torch.return_types.triangular_solve(_triangular_solve(
        cx, a, b, upper, True, transpose, unitriangular,
        "triangular_solve"))


@_handles(*_torch_attr("linalg.det"), torch.det, "det")
def _det(cx, A):
    return cx.rlx.det(_matrices(cx, A, "det"))


@_handles(*_torch_attr("linalg.slogdet"), torch.slogdet, "slogdet")
def _slogdet(cx, A):
    sign, logabsdet = cx.rlx.logdet(_matrices(cx, A, "slogdet"))
    return torch.return_types.slogdet((sign, logabsdet))


@_handles(torch.logdet, "logdet")
def _logdet(cx, input):
    # log(det): log|det| where det > 0 (-inf where it is 0, as logabsdet
    # is), NaN where det < 0.
    sign, logabsdet = cx.rlx.logdet(_matrices(cx, input, "logdet"))
    return cx.rlx.where(cx.rlx.lt(sign, 0.0),
                        cx.tensor(float("nan"), logabsdet), logabsdet)


def _eigh_input(cx, A, UPLO, what):
    # rlx.eigh reads the lower triangle (torch's UPLO='L'); the upper one is
    # the lower triangle of A^T.
    if UPLO not in ("L", "U"):
        raise TorchImportError(f"{what}: UPLO={UPLO!r} is not 'L' or 'U'")
    a = _matrices(cx, A, what)
    return a if UPLO == "L" else _mT(cx, a)


@_handles(*_torch_attr("linalg.eigh"))
def _eigh(cx, A, UPLO="L"):
    values, vectors = cx.rlx.eigh(_eigh_input(cx, A, UPLO, "eigh"))
    return torch.return_types.linalg_eigh((values, vectors))


@_handles(*_torch_attr("linalg.eigvalsh"))
def _eigvalsh(cx, A, UPLO="L"):
    return cx.rlx.eigh(_eigh_input(cx, A, UPLO, "eigvalsh"))[0]


def _qr(cx, A, complete, what):
    a = _matrices(cx, A, what, square=False)
    m, n = a.shape[-2:]
    if complete and m > n:
        # The complete Q of a tall matrix adds columns that rlx.qr (the
        # reduced factorization) does not compute; for m <= n they agree.
        raise UnsupportedTorchOp(f"{what} with mode='complete' of a tall "
                                 f"matrix ({m} x {n}): rlx.qr is the "
                                 "reduced factorization")
    return cx.rlx.qr(a)


@_handles(*_torch_attr("linalg.qr"))
def _linalg_qr(cx, A, mode="reduced"):
    if mode not in ("reduced", "complete"):
        raise UnsupportedTorchOp(f"qr with mode={mode!r} (only 'reduced', "
                                 "and 'complete' where it is the same)")
    return torch.return_types.linalg_qr(_qr(cx, A, mode == "complete",
                                            "qr"))


@_handles(torch.qr, "qr")
def _legacy_qr(cx, input, some=True):
    return torch.return_types.qr(_qr(cx, input, not some, "torch.qr"))


def _svd(cx, A, full_matrices, what):
    a = _matrices(cx, A, what, square=False)
    m, n = a.shape[-2:]
    if full_matrices and m != n:
        raise UnsupportedTorchOp(
            f"{what} with full_matrices=True of a {m} x {n} matrix: rlx.svd "
            "is the reduced decomposition (pass full_matrices=False)")
    return cx.rlx.svd(a)


@_handles(*_torch_attr("linalg.svd"))
def _linalg_svd(cx, A, full_matrices=True, *, driver=None):
    # driver picks a CUDA algorithm in torch: the results are the same.
    return torch.return_types.linalg_svd(_svd(cx, A, full_matrices, "svd"))


@_handles(*_torch_attr("linalg.svdvals"))
def _svdvals(cx, A, *, driver=None):
    return _svd(cx, A, False, "svdvals")[1]


@_handles(torch.svd, "svd")
def _legacy_svd(cx, input, some=True, compute_uv=True):
    if not compute_uv:
        raise UnsupportedTorchOp("torch.svd with compute_uv=False (use "
                                 "torch.linalg.svdvals)")
    u, s, vh = _svd(cx, input, not some, "torch.svd")
    return torch.return_types.svd((u, s, _mT(cx, vh)))


@_handles(*_torch_attr("linalg.matrix_exp", "matrix_exp"), "matrix_exp")
def _matrix_exp(cx, A):
    raise UnsupportedTorchOp(
        "not supported by the rlx importer: rlx.expm is the exponential of "
        "a symmetric matrix (through its eigendecomposition), and the "
        "importer cannot know that the input is symmetric")


# -- Fourier transforms and complex numbers -----------------------------------

_FFT_NORMS = {None: "backward", "backward": "backward", "forward": "forward",
              "ortho": "ortho"}


def _signal(cx, x, axis, n=None):
    """x with `axis` moved last, trimmed or zero-padded there to n samples
    (of each part of a complex x)."""
    def moved(t):
        t = cx.transpose(t, [i for i in range(t.rank) if i != axis] +
                         [axis])
        size = t.shape[-1]
        if n is None or n == size:
            return t
        if n < size:
            return _narrow(cx, t, t.rank - 1, 0, n)
        return cx.rlx.pad(t, mode="constant",
                          pads=[0] * (2 * t.rank - 1) + [n - size])
    if axis == x.rank - 1 and (n is None or n == x.shape[-1]):
        return x
    return _on_parts(cx, x, moved)


def _unsignal(cx, y, axis):
    """The result of a transform along the last axis moved back to
    `axis`."""
    if axis == y.rank - 1:
        return y
    permutation = list(range(y.rank - 1))
    permutation.insert(axis, y.rank - 1)
    return _on_parts(cx, y, lambda t: cx.transpose(t, permutation))


def _as_complex(cx, x):
    """x as a complex tensor: a real x with zero imaginary parts."""
    if _is_complex(x.dtype):
        return x
    return cx.rlx.complex(x, _zeros_like(cx, x))


def _fourier(kind):
    def handler(cx, input, n=None, dim=-1, norm=None):
        x = cx.tensor(input)
        if not _is_complex(x.dtype):
            x = cx.float_tensor(x)
        if norm not in _FFT_NORMS:
            raise TorchImportError(f"norm={norm!r} is not one of 'backward', "
                                   "'forward', 'ortho'")
        if n is not None and int(n) < 1:
            raise TorchImportError(f"n={n} is not a positive signal length")
        axis = _axis(dim, x.rank)
        options = dict(norm=_FFT_NORMS[norm])
        if kind == "rfft":
            if _is_complex(x.dtype):
                raise TorchImportError("rfft of a complex tensor (torch "
                                       "takes real signals)")
            y = cx.rlx.rfft(_signal(cx, x, axis, n), **options)
        elif kind == "irfft":
            # irfft's n is the length of the result: rlx.irfft's own.
            y = cx.rlx.irfft(_as_complex(cx, _signal(cx, x, axis)),
                             n=None if n is None else int(n), **options)
        else:
            z = _as_complex(cx, _signal(cx, x, axis, n))
            y = getattr(cx.rlx, kind)(z, **options)
        return _unsignal(cx, y, axis)
    handler.__name__ = f"_{kind}"
    return handler


for _kind in ("fft", "ifft", "rfft", "irfft"):
    _handles(*_torch_attr(f"fft.{_kind}"))(_fourier(_kind))


@_handles(torch.real)
def _real(cx, input):
    x = cx.tensor(input)
    return cx.rlx.real(x) if _is_complex(x.dtype) else x


@_handles(torch.imag)
def _imag(cx, input):
    x = cx.tensor(input)
    if not _is_complex(x.dtype):
        raise TorchImportError("imag of a real tensor (torch raises)")
    return cx.rlx.imag(x)


@_handles(torch.complex)
def _complex(cx, real, imag):
    re, im = cx.promote(real, imag)
    re = cx.float_tensor(re)
    return cx.rlx.complex(re, cx.cast(cx.tensor(im, re), re.dtype))


@_handles(torch.conj, *_torch_attr("conj_physical"), "conj",
          "conj_physical")
def _conj(cx, input):
    x = cx.tensor(input)
    return cx.rlx.conjugate(x) if _is_complex(x.dtype) else x


@_handles(*_torch_attr("resolve_conj", "resolve_neg"), "resolve_conj",
          "resolve_neg")
def _resolve(cx, input):
    return input


@_handles(torch.view_as_real)
def _view_as_real(cx, input):
    z = cx.tensor(input)
    if not _is_complex(z.dtype):
        raise TorchImportError("view_as_real of a real tensor")
    return _stack(cx, [cx.rlx.real(z), cx.rlx.imag(z)], -1)


@_handles(torch.view_as_complex)
def _view_as_complex(cx, input):
    x = cx.tensor(input)
    if x.rank == 0 or x.shape[-1] != 2 or x.dtype not in ("f32", "f64"):
        raise TorchImportError("view_as_complex needs an f32 or f64 tensor "
                               f"of last dimension 2, got {x.dtype} "
                               f"{list(x.shape)}")
    return cx.rlx.complex(_select(cx, x, -1, 0), _select(cx, x, -1, 1))


@_handles(torch.abs, operator.abs, "abs")
def _abs(cx, input):
    x = cx.tensor(input)
    if _is_complex(x.dtype):
        # |z| = sqrt(re^2 + im^2).
        return cx.rlx.sqrt(cx.rlx.complex_norm_sq(x))
    return cx.rlx.abs(x)


# -- neural network functions ------------------------------------------------

def _pairs(values):
    """rlx's [lo, hi] per dimension for torch's symmetric paddings."""
    return [p for p in values for _ in (0, 1)]


def _conv_padding(padding, weight, dilation, rank):
    if padding == "valid":
        return [0] * (2 * rank)
    if padding == "same":
        # torch puts the odd element of the padding at the end.
        pads = []
        for k, d in zip(weight.shape[2:], dilation):
            total = d * (k - 1)
            pads += [total // 2, total - total // 2]
        return pads
    return _pairs(_ntuple(padding, rank))


def _add_channel_bias(cx, y, bias):
    if bias is None:
        return y
    b = cx.reshape(cx.tensor(bias, y), [y.shape[1]] + [1] * (y.rank - 2))
    return cx.rlx.add(y, b)


@_handles(F.conv1d, F.conv2d, F.conv3d)
def _conv(cx, input, weight, bias=None, stride=1, padding=0, dilation=1,
          groups=1):
    x, w = cx.tensor(input), cx.tensor(weight)
    rank = x.rank - 2
    dilation = _ntuple(dilation, rank)
    y = cx.rlx.conv(x, w, stride=_ntuple(stride, rank),
                    padding=_conv_padding(padding, w, dilation, rank),
                    dilation=dilation, groups=int(groups))
    return _add_channel_bias(cx, y, bias)


@_handles(F.conv_transpose1d, F.conv_transpose2d, F.conv_transpose3d)
def _conv_transpose(cx, input, weight, bias=None, stride=1, padding=0,
                    output_padding=0, groups=1, dilation=1):
    x, w = cx.tensor(input), cx.tensor(weight)
    rank = x.rank - 2
    y = cx.rlx.conv_transpose(
        x, w, stride=_ntuple(stride, rank),
        padding=_pairs(_ntuple(padding, rank)),
        output_padding=_ntuple(output_padding, rank),
        dilation=_ntuple(dilation, rank), groups=int(groups))
    return _add_channel_bias(cx, y, bias)


def _conv_transpose_module(cx, module, input, output_size=None):
    if module.padding_mode != "zeros":
        raise UnsupportedTorchOp(f"padding_mode={module.padding_mode!r}")
    if output_size is not None:
        raise UnsupportedTorchOp("output_size= (give output_padding)")
    return _conv_transpose(
        cx, input, cx.attribute(module.weight), cx.attribute(module.bias),
        module.stride, module.padding, module.output_padding, module.groups,
        module.dilation)


for _cls in (nn.ConvTranspose1d, nn.ConvTranspose2d, nn.ConvTranspose3d):
    _MODULE_HANDLERS[_cls] = _conv_transpose_module


def _pool_stride(stride, kernel, rank):
    return kernel if stride is None or stride == [] else _ntuple(stride, rank)


def _max_pool(rank):
    def handler(cx, input, kernel_size, stride=None, padding=0, dilation=1,
                ceil_mode=False, return_indices=False):
        if _ntuple(dilation, rank) != [1] * rank or return_indices:
            raise UnsupportedTorchOp("max pooling with dilation or "
                                     "return_indices")
        kernel = _ntuple(kernel_size, rank)
        return cx.rlx.pool(cx.tensor(input), kind="max", kernel=kernel,
                           stride=_pool_stride(stride, kernel, rank),
                           padding=_pairs(_ntuple(padding, rank)),
                           ceil_mode=bool(ceil_mode) or None)
    return handler


def _avg_pool(rank):
    def handler(cx, input, kernel_size, stride=None, padding=0,
                ceil_mode=False, count_include_pad=True,
                divisor_override=None):
        if divisor_override is not None:
            raise UnsupportedTorchOp("avg pooling with divisor_override")
        kernel = _ntuple(kernel_size, rank)
        return cx.rlx.pool(cx.tensor(input), kind="avg", kernel=kernel,
                           stride=_pool_stride(stride, kernel, rank),
                           padding=_pairs(_ntuple(padding, rank)),
                           ceil_mode=bool(ceil_mode) or None,
                           count_include_pad=bool(count_include_pad) or None)
    return handler


def _adaptive_pool(kind, rank):
    def handler(cx, input, output_size, return_indices=False):
        if return_indices:
            raise UnsupportedTorchOp("return_indices=True")
        x = cx.tensor(input)
        spatial = list(x.shape[2:])
        output = [s if o is None else o for o, s in
                  zip(_ntuple(output_size, rank), spatial)]
        if output == [1] * rank:
            return cx.rlx.global_pool(x, kind=kind)
        if any(s % o for s, o in zip(spatial, output)):
            raise UnsupportedTorchOp(
                f"adaptive pooling of {spatial} to {output} (an output "
                "size that does not divide the input: unequal windows)")
        kernel = [s // o for s, o in zip(spatial, output)]
        return cx.rlx.pool(x, kind=kind, kernel=kernel, stride=kernel,
                           padding=[0] * (2 * rank))
    return handler


for _rank in (1, 2, 3):
    _handles(getattr(F, f"max_pool{_rank}d"),
             getattr(torch, f"max_pool{_rank}d"))(_max_pool(_rank))
    _handles(getattr(F, f"avg_pool{_rank}d"),
             *_torch_attr(f"avg_pool{_rank}d"))(_avg_pool(_rank))
    _handles(getattr(F, f"adaptive_avg_pool{_rank}d"))(
        _adaptive_pool("avg", _rank))
    _handles(getattr(F, f"adaptive_max_pool{_rank}d"))(
        _adaptive_pool("max", _rank))


@_handles(F.interpolate)
def _interpolate(cx, input, size=None, scale_factor=None, mode="nearest",
                 align_corners=None, recompute_scale_factor=None,
                 antialias=False):
    x = cx.tensor(input)
    rank = x.rank - 2
    if mode != "nearest":
        raise UnsupportedTorchOp(f"interpolate mode={mode!r} (only "
                                 "'nearest')")
    if size is None:
        scales = scale_factor if isinstance(scale_factor, (tuple, list)) \
            else [scale_factor] * rank
        size = [int(math.floor(s * f)) for s, f in zip(x.shape[2:], scales)]
    return cx.rlx.interpolate_nearest(x, size=_ntuple(size, rank))


def _filled_vector(cx, n, value, like):
    return cx.tensor(np.full(n, value, np.float32), like)


@_handles(F.batch_norm)
def _batch_norm(cx, input, running_mean, running_var, weight=None,
                bias=None, training=False, momentum=0.1, eps=1e-5):
    x = cx.tensor(input)
    channels = x.shape[1]
    gamma = _filled_vector(cx, channels, 1, x) if weight is None else \
        cx.tensor(weight)
    beta = _filled_vector(cx, channels, 0, x) if bias is None else \
        cx.tensor(bias)
    if training or running_mean is None:
        # The batch's statistics (the running ones are not updated).
        axes = [a for a in range(x.rank) if a != 1]
        mean = cx.rlx.reduce(x, kind="mean", axes=axes)
        centered = cx.rlx.sub(x, cx.reshape(
            mean, [channels] + [1] * (x.rank - 2)))
        variance = cx.rlx.reduce(cx.rlx.mul(centered, centered),
                                 kind="mean", axes=axes)
    else:
        mean, variance = cx.tensor(running_mean), cx.tensor(running_var)
    return cx.rlx.batch_norm_inference(x, gamma, beta, mean, variance,
                                       eps=float(eps))


def _batch_norm_module(cx, module, input):
    training = module.training or module.running_mean is None
    return _batch_norm(
        cx, input,
        None if training else cx.attribute(module.running_mean),
        None if training else cx.attribute(module.running_var),
        cx.attribute(module.weight), cx.attribute(module.bias), training,
        module.momentum, module.eps)


@_handles(F.instance_norm)
def _instance_norm(cx, input, running_mean=None, running_var=None,
                   weight=None, bias=None, use_input_stats=True,
                   momentum=0.1, eps=1e-5):
    if not use_input_stats:
        return _batch_norm(cx, input, running_mean, running_var, weight,
                           bias, False, momentum, eps)
    x = cx.tensor(input)
    return _group_norm(cx, x, x.shape[1], weight, bias, eps)


def _instance_norm_module(cx, module, input):
    use_input_stats = module.training or not module.track_running_stats
    return _instance_norm(
        cx, input,
        None if use_input_stats else cx.attribute(module.running_mean),
        None if use_input_stats else cx.attribute(module.running_var),
        cx.attribute(module.weight), cx.attribute(module.bias),
        use_input_stats, module.momentum, module.eps)


for _rank in (1, 2, 3):
    _MODULE_HANDLERS[getattr(nn, f"BatchNorm{_rank}d")] = _batch_norm_module
    _MODULE_HANDLERS[getattr(nn, f"InstanceNorm{_rank}d")] = \
        _instance_norm_module


# -- recurrent layers --------------------------------------------------------

def _recurrent_module(cx, module, input, hx=None):
    """nn.LSTM / nn.GRU / nn.RNN as rlx.lstm / rlx.gru / rlx.rnn, whose
    weights are the module's _flat_weights in order."""
    kind = {nn.LSTM: "lstm", nn.GRU: "gru", nn.RNN: "rnn"}[type(module)]
    name = _module_name(module)
    if getattr(module, "proj_size", 0):
        raise UnsupportedTorchOp(f"{cx.where}: {name} with proj_size is not "
                                 "supported by the rlx importer")
    if module.training and module.dropout and module.num_layers > 1:
        raise UnsupportedTorchOp(f"{cx.where}: {name} with dropout between "
                                 "layers in training mode is not supported "
                                 "by the rlx importer")
    x = cx.tensor(input)
    if x.rank != 3:
        raise UnsupportedTorchOp(f"{cx.where}: {name} on an unbatched "
                                 f"(rank-{x.rank}) input is not supported "
                                 "by the rlx importer")
    options = dict(num_layers=module.num_layers,
                   bidirectional=module.bidirectional or None,
                   batch_first=module.batch_first or None)
    if kind == "rnn" and module.nonlinearity == "relu":
        options["relu"] = True
    if hx is not None:
        if kind == "lstm":
            options["h0"], options["c0"] = cx.tensor(hx[0]), cx.tensor(hx[1])
        else:
            options["h0"] = cx.tensor(hx)
    weights = [cx.attribute(w) for w in module._flat_weights]
    results = getattr(cx.rlx, kind)(x, weights, **options)
    if kind == "lstm":
        return results[0], (results[1], results[2])
    return results


for _cls in (nn.LSTM, nn.GRU, nn.RNN):
    _MODULE_HANDLERS[_cls] = _recurrent_module


@_handles(F.layer_norm)
def _layer_norm(cx, input, normalized_shape, weight=None, bias=None,
                eps=1e-5):
    x = cx.tensor(input)
    normalized = _ntuple(normalized_shape, 1)
    count = int(np.prod(normalized))
    gamma = _filled_vector(cx, count, 1, x) if weight is None else \
        cx.reshape(cx.tensor(weight), [count])
    beta = _filled_vector(cx, count, 0, x) if bias is None else \
        cx.reshape(cx.tensor(bias), [count])
    # Several normalized dimensions are one axis of their product.
    rows = cx.reshape(x, list(x.shape[:x.rank - len(normalized)]) + [count])
    y = cx.rlx.layer_norm(rows, gamma, beta, axis=-1, eps=float(eps))
    return cx.reshape(y, x.shape)


@_handles(F.group_norm)
def _group_norm(cx, input, num_groups, weight=None, bias=None, eps=1e-5):
    x = cx.tensor(input)
    channels = x.shape[1]
    gamma = _filled_vector(cx, channels, 1, x) if weight is None else \
        cx.tensor(weight)
    beta = _filled_vector(cx, channels, 0, x) if bias is None else \
        cx.tensor(bias)
    return cx.rlx.group_norm(x, gamma, beta, groups=int(num_groups),
                             eps=float(eps))


@_handles(F.embedding)
def _embedding(cx, input, weight, padding_idx=None, max_norm=None,
               norm_type=2.0, scale_grad_by_freq=False, sparse=False):
    # padding_idx only changes the gradient (none for that row): not kept.
    if max_norm is not None or scale_grad_by_freq:
        raise UnsupportedTorchOp("embedding with max_norm or "
                                 "scale_grad_by_freq")
    return cx.rlx.gather(cx.tensor(weight), cx.tensor(input), axis=0)


def _dropout(cx, input, p=0.5, training=True, inplace=False):
    if training and p > 0:
        raise UnsupportedTorchOp(
            "dropout in training mode (call module.eval(): evaluated "
            "dropout is the identity)")
    return input


_handles(F.dropout, F.dropout2d, F.dropout3d, F.alpha_dropout,
         F.feature_alpha_dropout, *_torch_attr("nn.functional.dropout1d"),
         "dropout")(_dropout)


def _softmax_axis(dim, rank):
    # torch's implicit dim (deprecated): 0 for ranks 0, 1 and 3, else 1.
    if dim is None:
        dim = 0 if rank in (0, 1, 3) else 1
    return _axis(dim, rank)


@_handles(F.softmax, torch.softmax, "softmax")
def _softmax(cx, input, dim=None, _stacklevel=3, dtype=None):
    x = cx.float_tensor(input)
    if dtype is not None:
        x = cx.cast(x, dtype_name(dtype))
    return cx.rlx.softmax(x, axis=_softmax_axis(dim, x.rank))


@_handles(F.log_softmax, torch.log_softmax, "log_softmax")
def _log_softmax(cx, input, dim=None, _stacklevel=3, dtype=None):
    x = cx.float_tensor(input)
    if dtype is not None:
        x = cx.cast(x, dtype_name(dtype))
    return cx.rlx.log_softmax(x, axis=_softmax_axis(dim, x.rank))


def _scaled_dot_product_attention(cx, query, key, value, attn_mask=None,
                                  dropout_p=0.0, is_causal=False,
                                  scale=None):
    """softmax(q @ k^T * scale + mask) @ v, written out (torch >= 2.0)."""
    q, k, v = cx.tensor(query), cx.tensor(key), cx.tensor(value)
    if dropout_p:
        raise UnsupportedTorchOp("attention dropout")
    scale = 1.0 / math.sqrt(q.shape[-1]) if scale is None else scale
    scores = cx.rlx.mul(_matmul(cx, q, _transpose(cx, k, -2, -1)),
                        float(scale))
    if is_causal:
        attn_mask = torch.ones(q.shape[-2], k.shape[-2],
                               dtype=torch.bool).tril()
    if attn_mask is not None:
        mask = cx.tensor(attn_mask, scores)
        if mask.dtype == "i1":
            scores = cx.rlx.where(mask, scores, cx.tensor(float("-inf"),
                                                          scores))
        else:
            scores = cx.rlx.add(scores, mask)
    return _matmul(cx, cx.rlx.softmax(scores, axis=-1), v)


if hasattr(F, "scaled_dot_product_attention"):
    _handles(F.scaled_dot_product_attention)(_scaled_dot_product_attention)


# -- losses ------------------------------------------------------------------

def _class_last(cx, x):
    """Logits [N, C, d...] as rows [N * d..., C] (torch's class axis is
    1); [C] as [1, C]."""
    if x.rank == 1:
        return cx.reshape(x, [1, x.shape[0]])
    x = cx.transpose(x, [0] + list(range(2, x.rank)) + [1])
    return cx.reshape(x, [int(np.prod(x.shape[:-1])), x.shape[-1]])


def _labelled_loss(cx, per_row, logits, target, weight, ignore_index,
                   reduction, label_smoothing=0.0):
    """A loss of integer class labels: per_row(rows [M, C], labels [M])
    gives each row's loss; class weights, ignore_index, label smoothing and
    the reduction as torch applies them."""
    rows = _class_last(cx, cx.tensor(logits))
    labels = cx.tensor(target)
    label_shape = list(labels.shape)
    labels = cx.reshape(labels, [int(np.prod(label_shape))])
    keep = cx.rlx.ne(labels, int(ignore_index))
    safe = cx.rlx.where(keep, labels, cx.tensor(0, labels))
    loss = per_row(rows, safe)
    row_weight = cx.cast(keep, rows.dtype)
    if weight is not None:
        row_weight = cx.rlx.mul(row_weight, cx.rlx.gather(
            cx.tensor(weight, rows), safe, axis=0))
    loss = cx.rlx.mul(loss, row_weight)
    if label_smoothing:
        if weight is not None:
            raise UnsupportedTorchOp("label_smoothing with class weights")
        uniform = cx.rlx.reduce(cx.rlx.log_softmax(rows, axis=1),
                                kind="mean", axes=[1])
        uniform = cx.rlx.mul(uniform, cx.rlx.neg(cx.cast(keep, rows.dtype)))
        loss = cx.rlx.add(cx.rlx.mul(loss, 1.0 - label_smoothing),
                          cx.rlx.mul(uniform, float(label_smoothing)))
    if reduction == "none":
        return cx.reshape(loss, label_shape)
    return _reduction(cx, loss, reduction,
                      cx.rlx.reduce(row_weight, kind="sum", axes=[0]))


@_handles(F.cross_entropy)
def _cross_entropy(cx, input, target, weight=None, size_average=None,
                   ignore_index=-100, reduce=None, reduction="mean",
                   label_smoothing=0.0):
    _no_legacy_reduction(size_average, reduce)
    x, t = cx.tensor(input), cx.tensor(target)
    if not _is_float(t.dtype):
        return _labelled_loss(
            cx, lambda rows, labels:
            cx.rlx.softmax_cross_entropy_with_labels(rows, labels),
            x, t, weight, ignore_index, reduction, label_smoothing)
    # Class probabilities: a dense target of the logits' shape.
    if weight is not None or label_smoothing:
        raise UnsupportedTorchOp("probability targets with class weights "
                                 "or label_smoothing")
    loss = cx.rlx.softmax_cross_entropy(_class_last(cx, x),
                                        _class_last(cx, cx.tensor(t, x)))
    if reduction == "none":
        return cx.reshape(loss, [x.shape[0]] + list(x.shape[2:])
                          if x.rank > 1 else [])
    return _reduction(cx, loss, reduction)


@_handles(F.nll_loss)
def _nll_loss(cx, input, target, weight=None, size_average=None,
              ignore_index=-100, reduce=None, reduction="mean"):
    _no_legacy_reduction(size_average, reduce)

    def picked(rows, labels):
        column = cx.reshape(labels, [labels.shape[0], 1])
        chosen = cx.rlx.gather_elements(rows, column, axis=1)
        return cx.rlx.neg(cx.reshape(chosen, [labels.shape[0]]))
    return _labelled_loss(cx, picked, input, target, weight, ignore_index,
                          reduction)


def _pointwise_loss(loss):
    def handler(cx, input, target, size_average=None, reduce=None,
                reduction="mean", beta=1.0, delta=1.0):
        _no_legacy_reduction(size_average, reduce)
        x, y = cx.promote(input, target)
        return _reduction(cx, loss(cx, cx.rlx.sub(x, y), beta, delta),
                          reduction)
    return handler


def _huber(cx, diff, delta):
    """0.5 d^2 where |d| < delta, else delta (|d| - delta / 2)."""
    size = cx.rlx.abs(diff)
    return cx.rlx.where(cx.rlx.lt(size, float(delta)),
                        cx.rlx.mul(cx.rlx.mul(diff, diff), 0.5),
                        cx.rlx.mul(cx.rlx.sub(size, 0.5 * delta),
                                   float(delta)))


_handles(F.mse_loss)(_pointwise_loss(
    lambda cx, d, beta, delta: cx.rlx.mul(d, d)))
_handles(F.l1_loss)(_pointwise_loss(
    lambda cx, d, beta, delta: cx.rlx.abs(d)))
_handles(F.smooth_l1_loss)(_pointwise_loss(
    lambda cx, d, beta, delta: cx.rlx.abs(d) if beta == 0 else
    cx.rlx.div(_huber(cx, d, beta), float(beta))))
_handles(F.huber_loss)(_pointwise_loss(
    lambda cx, d, beta, delta: _huber(cx, d, delta)))


@_handles(F.binary_cross_entropy_with_logits)
def _bce_with_logits(cx, input, target, weight=None, size_average=None,
                     reduce=None, reduction="mean", pos_weight=None):
    _no_legacy_reduction(size_average, reduce)
    x, y = cx.promote(input, target)
    x = cx.tensor(x)
    y = cx.tensor(y, x)
    if pos_weight is None:
        loss = cx.rlx.sub(cx.rlx.softplus(x), cx.rlx.mul(x, y))
    else:
        # (1 - y) x + (1 + (pos_weight - 1) y) softplus(-x)
        scale = cx.rlx.add(cx.rlx.mul(
            cx.rlx.sub(cx.tensor(pos_weight, x), 1.0), y), 1.0)
        loss = cx.rlx.add(cx.rlx.mul(cx.rlx.sub(1.0, y), x),
                          cx.rlx.mul(scale, cx.rlx.softplus(cx.rlx.neg(x))))
    if weight is not None:
        loss = cx.rlx.mul(loss, cx.tensor(weight, x))
    return _reduction(cx, loss, reduction)


@_handles(F.binary_cross_entropy)
def _bce(cx, input, target, weight=None, size_average=None, reduce=None,
         reduction="mean"):
    _no_legacy_reduction(size_average, reduce)
    p = cx.tensor(input)
    y = cx.tensor(target, p)
    # torch clamps each log at -100, so p = 0 or 1 gives a finite loss.
    log_p = cx.rlx.clamp(cx.rlx.log(p), min=-100.0)
    log_q = cx.rlx.clamp(cx.rlx.log(cx.rlx.sub(1.0, p)), min=-100.0)
    loss = cx.rlx.neg(cx.rlx.add(cx.rlx.mul(y, log_p),
                                 cx.rlx.mul(cx.rlx.sub(1.0, y), log_q)))
    if weight is not None:
        loss = cx.rlx.mul(loss, cx.tensor(weight, p))
    return _reduction(cx, loss, reduction)


# -- the public API ----------------------------------------------------------

class ImportedModule:
    """A torch module imported as an rlx graph.

    - `graph`: the rlx.Graph, its outputs set (the module's outputs in
      order; tuples, lists and dicts of tensors are flattened).
    - `input_names`: the graph's input names: the module's inputs (its
      forward's parameter names), then one per parameter or buffer (its
      state_dict name with "." as "_").
    - `user_input_names`: the module's inputs, the first part of
      `input_names`.
    - `parameter_names`: the state_dict names of the parameters and buffers
      that the graph takes as inputs, in argument order (that of their
      first use in forward).
    - `parameters`: {state_dict name: numpy array}, their values.
    - `parameter_tensors`: {state_dict name: rlx.Tensor}, their graph
      inputs.
    - `trainable_names`: the names of the nn.Parameters that require
      gradients (not buffers), in argument order.
    """

    def __init__(self, graph, user_input_names, importer):
        self.graph = graph
        self.user_input_names = list(user_input_names)
        self.input_names = list(graph.input_names)
        self.parameter_names = list(importer.parameter_names)
        self.parameters = dict(importer.parameter_values)
        self.parameter_tensors = dict(importer.parameter_tensors)
        self.trainable_names = list(importer.trainable_names)

    def parameter_inputs(self, trainable_only=True):
        """{graph input Tensor: numpy array} of the trainable parameters
        (with `trainable_only=False`, of every parameter and buffer), in
        argument order: rlx.Trainer's `params`, and as a list rlx.grad's
        `wrt`."""
        names = self.trainable_names if trainable_only else \
            self.parameter_names
        return {self.parameter_tensors[n]: self.parameters[n] for n in names}

    def mlir(self):
        return self.graph.mlir()

    def compile(self, **options):
        """Compiles the graph (Graph.compile's options: target, threads and
        rlx.compile's) into a CompiledModule."""
        return CompiledModule(self, self.graph.compile(**options))


def _as_array(value):
    if isinstance(value, torch.Tensor):
        return value.detach().cpu().numpy()
    return np.asarray(value)


class CompiledModule:
    """`run(*inputs)` or `run(name=input, ...)` runs the imported module
    on its inputs (numpy arrays or torch tensors) and the parameters it
    holds; it returns a numpy array, or a tuple for several outputs.
    `parameters` ({state_dict name: numpy array}) may be updated between
    calls."""

    def __init__(self, imported, executable):
        self.executable = executable
        self.user_input_names = imported.user_input_names
        self.parameter_names = imported.parameter_names
        self.parameters = {name: np.ascontiguousarray(array)
                           for name, array in imported.parameters.items()}

    def __call__(self, *inputs, **named):
        names = self.user_input_names
        if named:
            if inputs or sorted(named) != sorted(names):
                raise TypeError(f"give the inputs ({', '.join(names)}) by "
                                "position or all by name")
            inputs = [named[n] for n in names]
        if len(inputs) != len(names):
            raise TypeError(f"takes {len(names)} input(s) "
                            f"({', '.join(names)}), got {len(inputs)}")
        return self.executable(*[_as_array(x) for x in inputs],
                               *[self.parameters[n]
                                 for n in self.parameter_names])


def _flat_outputs(value):
    if isinstance(value, (tuple, list)):
        return [t for item in value for t in _flat_outputs(item)]
    if isinstance(value, dict):
        return [t for item in value.values() for t in _flat_outputs(item)]
    return [value]


def from_torch(module, example_inputs, *, parameters="inputs",
               name="forward"):
    """Imports torch.nn.Module `module` as an rlx graph named `name`.

    `example_inputs` (a tuple of tensors or arrays, one per input of
    `forward`, or a single tensor) fix the graph's input shapes and dtypes:
    the graph is static. `parameters="inputs"` makes every parameter and
    buffer that forward reads a graph input after the module's inputs
    (ImportedModule.compile() supplies them); `"constants"` bakes them into
    the graph. Returns an ImportedModule.

    Raises UnsupportedTorchOp (a NotImplementedError and an rlx.GraphError)
    for a torch function, method or module with no mapping, and
    TorchImportError for a call whose arguments have none or whose rlx op
    rejects them; both name the torch call and the model's source line.
    """
    if not isinstance(module, nn.Module):
        raise TypeError(f"from_torch takes a torch.nn.Module, not "
                        f"{type(module).__name__}")
    if isinstance(example_inputs, (torch.Tensor, np.ndarray)):
        example_inputs = (example_inputs,)
    importer = _Importer(module, parameters, name)
    fx_graph = _Tracer().trace(module)
    placeholders = [n for n in fx_graph.nodes if n.op == "placeholder"]
    if len(example_inputs) > len(placeholders):
        raise TypeError(f"{len(example_inputs)} example inputs for a "
                        f"forward of {len(placeholders)} inputs")
    arguments, user_names = [], []
    for node, example in zip(placeholders, example_inputs):
        example = torch.as_tensor(_as_array(example))
        arguments.append(importer.graph.tensor(
            tuple(example.shape), example.dtype, name=node.target))
        user_names.append(node.target)
    for node in placeholders[len(example_inputs):]:
        if not node.args:
            raise TypeError(f"no example input for {node.target!r}")
        arguments.append(node.args[0])  # the forward's default value
    outputs = _flat_outputs(importer.run(module, fx_graph, arguments))
    if not all(isinstance(t, (Tensor, torch.Tensor)) for t in outputs):
        raise TorchImportError("the module's outputs must be tensors")
    importer.graph.output(*[importer.tensor(t) for t in outputs])
    return ImportedModule(importer.graph, user_names, importer)
