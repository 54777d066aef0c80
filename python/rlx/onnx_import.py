"""Importing ONNX models as rlx graphs (docs/onnx.md).

    g = from_onnx("model.onnx", input_shapes={"x": [1, 3, 224, 224]})
    exe = g.compile()
    y = exe(x=image)

Each ONNX node becomes one or a few rlx ops built through rlx.Graph, located
at the node's name, so a shape error or an unsupported attribute names the
node. Values that are known while importing (initializers, Constant nodes,
Shape of a tensor and what is computed from them) stay numpy arrays and are
folded here: shape subgraphs such as Shape -> Gather -> Concat -> Reshape
leave no op behind. A `?` size in such a shape is a _RunTimeSize entry,
which becomes a `?` of the Reshape it reaches. A folded value becomes an
rlx.constant where an op needs it as a tensor.

The onnx package (Debian's python3-onnx) is imported by from_onnx, not with
this module.
"""

import functools
import math
import re
import string

import numpy as np

from .graph import Graph, GraphError, Tensor

__all__ = ["from_onnx", "OnnxImportError", "UnsupportedOnnxError",
           "SUPPORTED_OPS"]


class OnnxImportError(ValueError):
    """A model that cannot be imported; `node` and `op_type` name the ONNX
    node where that is known."""

    def __init__(self, message, node=None, op_type=None):
        super().__init__(message)
        self.node = node
        self.op_type = op_type


class UnsupportedOnnxError(OnnxImportError):
    """An op, an attribute value or an element type the importer does not
    map to rlx (as opposed to a model that is invalid)."""


# ONNX TensorProto element types and their rlx names.
_ELEMENT_TYPES = {1: "f32", 3: "i8", 5: "i16", 6: "i32", 7: "i64", 9: "i1",
                  10: "f16", 11: "f64", 16: "bf16"}
_UNSIGNED_TYPES = {2, 4, 12, 13}
_NUMPY_TYPES = {"f32": np.float32, "i8": np.int8, "i16": np.int16,
                "i32": np.int32, "i64": np.int64, "i1": np.bool_,
                "f16": np.float16, "f64": np.float64}
_RLX_TYPES = {np.dtype(v): k for k, v in _NUMPY_TYPES.items()}

_UNARY = {"Abs": "abs", "Neg": "neg", "Exp": "exp", "Log": "log",
          "Sqrt": "sqrt", "Reciprocal": "recip", "Relu": "relu",
          "Sigmoid": "sigmoid", "Tanh": "tanh", "Softplus": "softplus",
          "Softsign": "softsign", "Erf": "erf", "Sin": "sin", "Cos": "cos",
          "Tan": "tan", "Atan": "atan", "Floor": "floor", "Ceil": "ceil",
          "Round": "round", "Sign": "sign", "HardSwish": "hard_swish",
          "Identity": None}
_BINARY = {"Add": "add", "Sub": "sub", "Mul": "mul", "Div": "div",
           "Equal": "eq", "Less": "lt", "LessOrEqual": "le",
           "Greater": "gt", "GreaterOrEqual": "ge", "And": "bit_and",
           "Or": "bit_or", "Xor": "bit_xor"}
_VARIADIC = {"Max": "max", "Min": "min", "Sum": "add", "Mean": "add"}
_REDUCE = {"ReduceSum": "sum", "ReduceMean": "mean", "ReduceMax": "max",
           "ReduceMin": "min", "ReduceProd": "prod", "ReduceL1": "sum",
           "ReduceL2": "sum", "ReduceSumSquare": "sum",
           "ReduceLogSum": "sum", "ReduceLogSumExp": "sum"}

_HANDLERS = {}


def _handles(*op_types):
    def register(function):
        for op_type in op_types:
            _HANDLERS[op_type] = function
        return function
    return register


class _RunTimeSize:
    """An entry of a Shape for a `?` size: known only when the function
    runs. Arithmetic on it gives another run-time size, so shape subgraphs
    fold with these entries in them; using one as a number (comparing it,
    making a constant of it) is an error. `source` and `axis` name the
    dimension of a graph value it is, None once computed from."""

    def __init__(self, source=None, axis=None):
        self.source = source
        self.axis = axis

    def _derived(self, *_):
        return _RunTimeSize()

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _derived
    __truediv__ = __rtruediv__ = __floordiv__ = __rfloordiv__ = _derived
    __neg__ = _derived

    def _not_a_number(self, *_):
        raise TypeError("a size known only at run time (a `?` of the input "
                        "shapes) is used as a number")

    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = _not_a_number
    __int__ = __index__ = __float__ = __bool__ = _not_a_number
    __hash__ = object.__hash__


def _truncating_div(a, b):
    """ONNX's Div: integer quotients truncate toward zero."""
    if a.dtype == object or b.dtype == object:  # run-time sizes among them
        return np.frompyfunc(
            lambda p, q: p / q if isinstance(p, _RunTimeSize) or
            isinstance(q, _RunTimeSize) else int(p / q), 2, 1)(a, b)
    if np.issubdtype(a.dtype, np.integer):
        return (np.sign(a) * np.sign(b) * (np.abs(a) // np.abs(b))).astype(
            a.dtype)
    return np.asarray(a / b, a.dtype)


# Ops evaluated with numpy when all their inputs are known while importing
# (shape arithmetic): f(inputs, attributes) -> outputs.
_FOLDERS = {
    "Add": lambda i, a: [i[0] + i[1]],
    "Sub": lambda i, a: [i[0] - i[1]],
    "Mul": lambda i, a: [i[0] * i[1]],
    "Div": lambda i, a: [_truncating_div(i[0], i[1])],
    "Neg": lambda i, a: [-i[0]],
    "Abs": lambda i, a: [np.abs(i[0])],
    "Equal": lambda i, a: [i[0] == i[1]],
    "Less": lambda i, a: [i[0] < i[1]],
    "Greater": lambda i, a: [i[0] > i[1]],
    "Not": lambda i, a: [~i[0]],
    "Where": lambda i, a: [np.where(i[0], i[1], i[2])],
    "Max": lambda i, a: [functools.reduce(np.maximum, i)],
    "Min": lambda i, a: [functools.reduce(np.minimum, i)],
    "Identity": lambda i, a: [i[0]],
    "Gather": lambda i, a: [np.take(i[0], i[1], axis=a.get("axis", 0))],
    "Concat": lambda i, a: [np.concatenate(i, axis=a["axis"])],
    "Transpose": lambda i, a: [np.transpose(i[0], a.get("perm"))],
    "ReduceProd": lambda i, a: [np.prod(
        i[0], axis=tuple(a["axes"]) if "axes" in a else None,
        keepdims=bool(a.get("keepdims", 1)))],
    "Range": lambda i, a: [np.arange(i[0], i[1], i[2]).astype(i[0].dtype)],
}


def _dtype(elem_type, what):
    if elem_type not in _ELEMENT_TYPES:
        import onnx
        name = onnx.TensorProto.DataType.Name(elem_type)
        reason = "rlx ops take signless integers" \
            if elem_type in _UNSIGNED_TYPES else "it has no rlx equivalent"
        raise UnsupportedOnnxError(f"{what}: element type {name} is not "
                                   f"supported ({reason})")
    return _ELEMENT_TYPES[elem_type]


def _identifier(name, taken):
    """An identifier for ONNX value `name` ("input.1" -> "input_1"), not in
    `taken`."""
    text = re.sub(r"\W", "_", name) or "input"
    if text[0].isdigit():
        text = "v" + text
    candidate, suffix = text, 1
    while candidate in taken or not candidate.isidentifier():
        candidate, suffix = f"{text}_{suffix}", suffix + 1
    return candidate


class _Located:
    """The graph's op methods with every op located at one ONNX node."""

    def __init__(self, graph, loc):
        self._graph = graph
        self._loc = loc

    def __getattr__(self, name):
        return functools.partial(getattr(self._graph, name), loc=self._loc)


class _Importer:
    def __init__(self, model, input_shapes, constant_inputs, initializers,
                 name):
        import onnx
        import onnx.numpy_helper
        self.onnx = onnx
        self.model = model
        self.opset = max([o.version for o in model.opset_import
                          if o.domain in ("", "ai.onnx")] or [1])
        self.input_shapes = dict(input_shapes or {})
        self.constant_inputs = dict(constant_inputs or {})
        self.initializers = initializers
        self.graph = Graph(name)
        self.values = {}         # ONNX value name -> Tensor or numpy array
        self.constants = {}      # id(array) -> (array, its rlx.constant)
        self.node = None
        self.loc = None
        self.b = None

    # -- values ---------------------------------------------------------------

    def tensor(self, value):
        """`value` as a Tensor: a folded numpy array becomes an
        rlx.constant (one per array)."""
        if isinstance(value, Tensor):
            return value
        if value.dtype == object:
            raise self.unsupported("a shape holding sizes known only at run "
                                   "time is used as a tensor")
        key = id(value)
        if key not in self.constants:
            self.constants[key] = (value, self.graph.constant(
                value, loc=self.loc))
        return self.constants[key][1]

    def constant_of(self, values, dtype):
        """A constant of `values` with rlx element type `dtype` (bf16 from
        float32 values)."""
        return self.graph.constant(
            np.asarray(values, _NUMPY_TYPES.get(dtype, np.float32)),
            dtype=dtype, loc=self.loc)

    def scalar(self, number, like):
        """A rank-0 constant of Tensor `like`'s element type."""
        return self.constant_of(number, like.dtype)

    def known(self, value, what):
        """The numpy value of an input the importer needs to know (a shape,
        axes, pads): an initializer, a Constant or a folded subgraph."""
        if value is None or isinstance(value, Tensor):
            raise self.unsupported(f"{what} must be known while importing "
                                   "(a constant or computed from static "
                                   "shapes)")
        return value

    def unsupported(self, what):
        return UnsupportedOnnxError(
            f"node '{self.loc}' ({self.node.op_type}): {what}", self.loc,
            self.node.op_type)

    @staticmethod
    def shape(value):
        return tuple(value.shape)

    def static_shape(self, value):
        shape = self.shape(value)
        if None in shape:
            dims = ", ".join("?" if d is None else str(d) for d in shape)
            raise self.unsupported(f"needs an operand of static shape, got "
                                   f"[{dims}]")
        return shape

    @staticmethod
    def dtype(value):
        if isinstance(value, Tensor):
            return value.dtype
        return _RLX_TYPES[value.dtype]

    # -- the model ------------------------------------------------------------

    def run(self):
        graph = self.model.graph
        numpy_helper = self.onnx.numpy_helper
        initializer_names = {t.name for t in graph.initializer}
        taken = set()
        for value_info in graph.input:
            if value_info.name in initializer_names:
                continue
            if value_info.name in self.constant_inputs:
                self.values[value_info.name] = np.asarray(
                    self.constant_inputs[value_info.name])
                continue
            self.add_input(value_info.name, value_info.type, taken)
        for initializer in graph.initializer:
            array = numpy_helper.to_array(initializer)
            # Integer and bool initializers are shapes, axes and indices
            # that ops read while importing: they stay constants.
            if self.initializers == "inputs" and array.dtype.kind == "f":
                name = _identifier(initializer.name, taken)
                taken.add(name)
                self.values[initializer.name] = self.graph.tensor(
                    array.shape, _dtype(initializer.data_type,
                                        f"initializer '{initializer.name}'"),
                    name=name)
            else:
                self.values[initializer.name] = array
        for index, node in enumerate(graph.node):
            self.convert(node, node.name or f"{node.op_type}_{index}")
        outputs = []
        for value_info in graph.output:
            value = self.values.get(value_info.name)
            if value is None:
                raise OnnxImportError(f"graph output '{value_info.name}' is "
                                      "not computed by any node")
            if getattr(value, "dtype", None) == object:
                raise UnsupportedOnnxError(
                    f"graph output '{value_info.name}' holds sizes known "
                    "only at run time")
            self.loc = value_info.name
            outputs.append(self.tensor(value))
        self.graph.output(*outputs)
        return self.graph

    def add_input(self, onnx_name, type_proto, taken):
        if not type_proto.HasField("tensor_type"):
            raise UnsupportedOnnxError(f"input '{onnx_name}' is not a tensor")
        tensor_type = type_proto.tensor_type
        if onnx_name in self.input_shapes:
            shape = [None if d in (None, "?") or (isinstance(d, int) and d < 0)
                     else int(d) for d in self.input_shapes[onnx_name]]
        elif tensor_type.HasField("shape"):
            shape = [d.dim_value if d.HasField("dim_value") else None
                     for d in tensor_type.shape.dim]
        else:
            raise OnnxImportError(f"input '{onnx_name}' has no shape: give "
                                  "it in input_shapes")
        name = _identifier(onnx_name, taken)
        taken.add(name)
        self.values[onnx_name] = self.graph.tensor(
            shape, _dtype(tensor_type.elem_type, f"input '{onnx_name}'"),
            name=name)

    def convert(self, node, loc):
        self.node, self.loc = node, loc
        self.b = _Located(self.graph, loc)
        if node.domain not in ("", "ai.onnx"):
            raise self.unsupported(f"domain '{node.domain}' is not "
                                   "supported")
        handler = _HANDLERS.get(node.op_type)
        if handler is None:
            raise self.unsupported("the op is not supported")
        inputs = []
        for name in node.input:
            if name and name not in self.values:
                raise OnnxImportError(
                    f"node '{loc}' ({node.op_type}): input '{name}' is not "
                    "defined before it", loc, node.op_type)
            inputs.append(self.values[name] if name else None)
        attributes = {}
        for attribute in node.attribute:
            value = self.onnx.helper.get_attribute_value(attribute)
            attributes[attribute.name] = value.decode() \
                if isinstance(value, bytes) else value
        try:
            given = [v for v in inputs if v is not None]
            if node.op_type in _FOLDERS and given and \
                    all(isinstance(v, np.ndarray) for v in given):
                outputs = [np.asarray(v) for v in
                           _FOLDERS[node.op_type](inputs, attributes)]
            else:
                outputs = handler(self, inputs, attributes)
        except OnnxImportError as error:
            if error.node is not None:
                raise
            raise type(error)(f"node '{loc}' ({node.op_type}): {error}", loc,
                              node.op_type) from error
        except (GraphError, ValueError, TypeError, IndexError) as error:
            raise OnnxImportError(f"node '{loc}' ({node.op_type}): {error}",
                                  loc, node.op_type) from error
        except KeyError as error:
            raise OnnxImportError(f"node '{loc}' ({node.op_type}): missing "
                                  f"attribute {error}", loc,
                                  node.op_type) from error
        if not isinstance(outputs, (list, tuple)):
            outputs = [outputs]
        for index, name in enumerate(node.output):
            if not name:
                continue
            if index >= len(outputs) or outputs[index] is None:
                raise self.unsupported(f"output {index} ('{name}') is not "
                                       "supported")
            self.values[name] = outputs[index]

    # -- helpers for handlers -------------------------------------------------

    def opset_input_or_attribute(self, inputs, index, attributes, key):
        """An operand that moved from an attribute to an input in some
        opset (axes, split): whichever the node has, as a list."""
        if len(inputs) > index and inputs[index] is not None:
            return [int(v) for v in np.ravel(self.known(inputs[index], key))]
        if key in attributes:
            return list(attributes[key])
        return None

    def reshape(self, x, shape):
        if isinstance(x, np.ndarray):
            return x.reshape(shape)
        if tuple(shape) == self.shape(x):
            return x
        return self.b.reshape(x, shape=list(shape))

    def transpose(self, x, permutation):
        if isinstance(x, np.ndarray):
            return np.transpose(x, permutation)
        if list(permutation) == list(range(len(permutation))):
            return x
        return self.b.transpose(x, permutation=list(permutation))

    def where_negative(self, x, negative, positive):
        """x < 0 ? negative : positive."""
        b = self.b
        return b.where(b.lt(x, self.scalar(0, x)), negative, positive)

    def spatial_padding(self, attributes, in_sizes, kernel, strides,
                        dilations):
        """rlx's [lo0, hi0, lo1, hi1, ...] from ONNX pads or auto_pad."""
        rank = len(kernel)
        auto_pad = attributes.get("auto_pad", "NOTSET")
        if auto_pad in ("NOTSET", "VALID"):
            pads = list(attributes.get("pads", [0] * 2 * rank)) \
                if auto_pad == "NOTSET" else [0] * 2 * rank
            return [p for i in range(rank) for p in (pads[i], pads[i + rank])]
        if auto_pad not in ("SAME_UPPER", "SAME_LOWER"):
            raise self.unsupported(f"auto_pad = {auto_pad}")
        result = []
        for size, k, s, d in zip(in_sizes, kernel, strides, dilations):
            if size is None:
                raise self.unsupported(f"auto_pad = {auto_pad} needs static "
                                       "spatial sizes")
            total = max((-(-size // s) - 1) * s + (k - 1) * d + 1 - size, 0)
            small, large = total // 2, total - total // 2
            result += [small, large] if auto_pad == "SAME_UPPER" \
                else [large, small]
        return result

    def add_channel_bias(self, y, bias):
        """y [N, C, ...] + bias [C]."""
        bias = self.tensor(bias)
        shape = [bias.shape[0]] + [1] * (y.rank - 2)
        return self.b.add(y, self.reshape(bias, shape))

    def axis(self, axis, rank):
        return axis + rank if axis < 0 else axis


# -- elementwise --------------------------------------------------------------

@_handles(*_UNARY)
def _unary(self, inputs, attributes):
    op = _UNARY[self.node.op_type]
    if op is None:
        return inputs[0]
    return getattr(self.b, op)(self.tensor(inputs[0]))


@_handles(*_BINARY)
def _binary(self, inputs, attributes):
    op = _BINARY[self.node.op_type]
    return getattr(self.b, op)(self.tensor(inputs[0]), self.tensor(inputs[1]))


@_handles("Pow")
def _pow(self, inputs, attributes):
    b = self.b
    base, exponent = self.tensor(inputs[0]), self.tensor(inputs[1])
    # rlx.pow takes floats of one type; an integer base is raised in f64
    # (exact while the result fits 53 bits) and cast back, as ONNX gives
    # the base's type.
    computed = base.dtype if base.dtype.startswith(("f", "bf")) else "f64"
    if exponent.dtype != computed:
        exponent = b.cast(exponent, dtype=computed)
    if computed != base.dtype:
        return b.cast(b.pow(b.cast(base, dtype=computed), exponent),
                      dtype=base.dtype)
    return b.pow(base, exponent)


@_handles("Mod")
def _mod(self, inputs, attributes):
    b = self.b
    x, y = self.tensor(inputs[0]), self.tensor(inputs[1])
    fmod = attributes.get("fmod", 0)
    if not fmod and not x.dtype.startswith("i"):
        raise self.unsupported("fmod = 0 on floats (ONNX requires fmod = 1)")
    remainder = b.mod(x, y)
    if fmod:
        return remainder
    # Python's remainder has the divisor's sign: add the divisor where a
    # non-zero fmod remainder has the other sign.
    zero = self.scalar(0, x)
    differs = b.bit_and(b.ne(remainder, zero),
                        b.ne(b.lt(remainder, zero), b.lt(y, zero)))
    return b.where(differs, b.add(remainder, y), remainder)


@_handles("Not")
def _not(self, inputs, attributes):
    x = self.tensor(inputs[0])
    return self.b.bit_xor(x, self.tensor(np.array(True)))


@_handles(*_VARIADIC)
def _variadic(self, inputs, attributes):
    op = getattr(self.b, _VARIADIC[self.node.op_type])
    values = [self.tensor(v) for v in inputs]
    result = functools.reduce(op, values)
    if self.node.op_type == "Mean" and len(values) > 1:
        result = self.b.div(result, self.scalar(len(values), result))
    return result


@_handles("Where")
def _where(self, inputs, attributes):
    return self.b.where(*[self.tensor(v) for v in inputs])


@_handles("Clip")
def _clip(self, inputs, attributes):
    b = self.b
    x = self.tensor(inputs[0])
    if self.opset < 11:
        bounds = {"min": attributes.get("min"), "max": attributes.get("max")}
    else:
        bounds = {"min": inputs[1] if len(inputs) > 1 else None,
                  "max": inputs[2] if len(inputs) > 2 else None}
    if any(isinstance(v, Tensor) for v in bounds.values()):
        # A bound computed at run time: max/min ops.
        if bounds["min"] is not None:
            x = b.max(x, self.tensor(bounds["min"]))
        if bounds["max"] is not None:
            x = b.min(x, self.tensor(bounds["max"]))
        return x
    known = {k: float(v) for k, v in bounds.items() if v is not None}
    return b.clamp(x, **known) if known else x


@_handles("Cast")
def _cast(self, inputs, attributes):
    dtype = _dtype(attributes["to"], "to")
    if isinstance(inputs[0], np.ndarray) and inputs[0].dtype == object and \
            dtype in ("i32", "i64"):
        return inputs[0]  # sizes, some known only at run time
    if isinstance(inputs[0], np.ndarray) and dtype in _NUMPY_TYPES:
        return inputs[0].astype(_NUMPY_TYPES[dtype])
    x = self.tensor(inputs[0])
    return x if x.dtype == dtype else self.b.cast(x, dtype=dtype)


@_handles("CastLike")
def _cast_like(self, inputs, attributes):
    x, dtype = self.tensor(inputs[0]), self.dtype(inputs[1])
    return x if x.dtype == dtype else self.b.cast(x, dtype=dtype)


@_handles("IsNaN")
def _is_nan(self, inputs, attributes):
    x = self.tensor(inputs[0])
    return self.b.ne(x, x)


@_handles("IsInf")
def _is_inf(self, inputs, attributes):
    b = self.b
    x = self.tensor(inputs[0])
    tests = []
    if attributes.get("detect_positive", 1):
        tests.append(b.eq(x, self.scalar(np.inf, x)))
    if attributes.get("detect_negative", 1):
        tests.append(b.eq(x, self.scalar(-np.inf, x)))
    if not tests:
        return np.zeros(self.static_shape(x), np.bool_)
    return functools.reduce(b.bit_or, tests)


# -- activations --------------------------------------------------------------

def _scaled_elu(self, x, alpha):
    """x > 0 ? x : alpha * (exp(x) - 1), from rlx.elu."""
    b = self.b
    elu = b.elu(x)
    if alpha == 1.0:
        return elu
    return b.where(b.gt(x, self.scalar(0, x)), x,
                   b.mul(elu, self.scalar(alpha, x)))


@_handles("Elu")
def _elu(self, inputs, attributes):
    return _scaled_elu(self, self.tensor(inputs[0]),
                       attributes.get("alpha", 1.0))


@_handles("Selu")
def _selu(self, inputs, attributes):
    x = self.tensor(inputs[0])
    alpha = attributes.get("alpha", 1.67326319217681884765625)
    gamma = attributes.get("gamma", 1.05070102214813232421875)
    return self.b.mul(_scaled_elu(self, x, alpha), self.scalar(gamma, x))


@_handles("Celu")
def _celu(self, inputs, attributes):
    b = self.b
    x = self.tensor(inputs[0])
    alpha = attributes.get("alpha", 1.0)
    scaled = b.elu(b.div(x, self.scalar(alpha, x)))
    return b.where(b.gt(x, self.scalar(0, x)), x,
                   b.mul(scaled, self.scalar(alpha, x)))


@_handles("LeakyRelu")
def _leaky_relu(self, inputs, attributes):
    x = self.tensor(inputs[0])
    alpha = attributes.get("alpha", 0.01)
    return self.where_negative(x, self.b.mul(x, self.scalar(alpha, x)), x)


@_handles("PRelu")
def _prelu(self, inputs, attributes):
    x = self.tensor(inputs[0])
    return self.where_negative(x, self.b.mul(x, self.tensor(inputs[1])), x)


@_handles("ThresholdedRelu")
def _thresholded_relu(self, inputs, attributes):
    b = self.b
    x = self.tensor(inputs[0])
    alpha = attributes.get("alpha", 1.0)
    return b.where(b.gt(x, self.scalar(alpha, x)), x, self.scalar(0, x))


@_handles("HardSigmoid")
def _hard_sigmoid(self, inputs, attributes):
    b = self.b
    x = self.tensor(inputs[0])
    alpha, beta = attributes.get("alpha", 0.2), attributes.get("beta", 0.5)
    scaled = b.add(b.mul(x, self.scalar(alpha, x)), self.scalar(beta, x))
    return b.clamp(scaled, min=0.0, max=1.0)


@_handles("Shrink")
def _shrink(self, inputs, attributes):
    b = self.b
    x = self.tensor(inputs[0])
    bias, lambd = attributes.get("bias", 0.0), attributes.get("lambd", 0.5)
    above = b.where(b.gt(x, self.scalar(lambd, x)),
                    b.sub(x, self.scalar(bias, x)), self.scalar(0, x))
    return b.where(b.lt(x, self.scalar(-lambd, x)),
                   b.add(x, self.scalar(bias, x)), above)


@_handles("Sinh", "Cosh")
def _hyperbolic(self, inputs, attributes):
    b = self.b
    x = self.tensor(inputs[0])
    half = self.scalar(0.5, x)
    growing, decaying = b.exp(x), b.exp(b.neg(x))
    combine = b.sub if self.node.op_type == "Sinh" else b.add
    return b.mul(combine(growing, decaying), half)


@_handles("Asinh", "Acosh")
def _inverse_hyperbolic(self, inputs, attributes):
    # log(x + sqrt(x^2 +- 1))
    b = self.b
    x = self.tensor(inputs[0])
    one = self.scalar(1, x)
    square = b.mul(x, x)
    inner = b.add(square, one) if self.node.op_type == "Asinh" \
        else b.sub(square, one)
    return b.log(b.add(x, b.sqrt(inner)))


@_handles("Atanh")
def _atanh(self, inputs, attributes):
    b = self.b
    x = self.tensor(inputs[0])
    one = self.scalar(1, x)
    ratio = b.div(b.add(one, x), b.sub(one, x))
    return b.mul(b.log(ratio), self.scalar(0.5, x))


@_handles("Asin", "Acos")
def _inverse_trigonometric(self, inputs, attributes):
    # asin(x) = 2 atan(x / (1 + sqrt(1 - x^2))), exact at +-1;
    # acos(x) = pi/2 - asin(x).
    b = self.b
    x = self.tensor(inputs[0])
    one = self.scalar(1, x)
    root = b.sqrt(b.sub(one, b.mul(x, x)))
    asin = b.mul(b.atan(b.div(x, b.add(one, root))), self.scalar(2, x))
    if self.node.op_type == "Asin":
        return asin
    return b.sub(self.scalar(math.pi / 2, x), asin)


# -- matrix products and convolutions -----------------------------------------

@_handles("MatMul")
def _matmul(self, inputs, attributes):
    a, c = self.tensor(inputs[0]), self.tensor(inputs[1])
    # numpy's matmul: a 1-D operand is a row (lhs) or a column (rhs) whose
    # size-1 dimension is dropped from the result.
    if a.rank >= 2 and c.rank >= 2:
        return self.b.matmul(a, c)
    result = self.b.matmul(self.reshape(a, (1,) + a.shape) if a.rank == 1
                           else a,
                           self.reshape(c, c.shape + (1,)) if c.rank == 1
                           else c)
    shape = list(result.shape)
    if c.rank == 1:
        shape.pop(-1)
    if a.rank == 1:
        shape.pop(-1 if c.rank == 1 else -2)
    return self.reshape(result, shape)


@_handles("Gemm")
def _gemm(self, inputs, attributes):
    b = self.b
    a, c = inputs[0], inputs[1]
    if attributes.get("transA", 0):
        a = self.transpose(a, [1, 0])
    if attributes.get("transB", 0):
        c = self.transpose(c, [1, 0])
    result = b.matmul(self.tensor(a), self.tensor(c))
    alpha, beta = attributes.get("alpha", 1.0), attributes.get("beta", 1.0)
    if alpha != 1.0:
        result = b.mul(result, self.scalar(alpha, result))
    if len(inputs) > 2 and inputs[2] is not None:
        bias = inputs[2]
        if beta != 1.0 and isinstance(bias, np.ndarray):
            bias = (bias * beta).astype(bias.dtype)
        elif beta != 1.0:
            bias = b.mul(bias, self.scalar(beta, bias))
        result = b.add(result, self.tensor(bias))
    return result


def _conv_geometry(self, x, weight, attributes):
    rank = x.rank - 2
    kernel = list(attributes.get("kernel_shape", weight.shape[2:]))
    strides = list(attributes.get("strides", [1] * rank))
    dilations = list(attributes.get("dilations", [1] * rank))
    return kernel, strides, dilations


@_handles("Conv")
def _conv(self, inputs, attributes):
    x, weight = self.tensor(inputs[0]), self.tensor(inputs[1])
    kernel, strides, dilations = _conv_geometry(self, x, weight, attributes)
    padding = self.spatial_padding(attributes, x.shape[2:], kernel, strides,
                                   dilations)
    y = self.b.conv(x, weight, stride=strides, padding=padding,
                    dilation=dilations, groups=attributes.get("group", 1))
    if len(inputs) > 2 and inputs[2] is not None:
        y = self.add_channel_bias(y, inputs[2])
    return y


@_handles("ConvTranspose")
def _conv_transpose(self, inputs, attributes):
    x, weight = self.tensor(inputs[0]), self.tensor(inputs[1])
    kernel, strides, dilations = _conv_geometry(self, x, weight, attributes)
    rank = len(kernel)
    output_padding = list(attributes.get("output_padding", [0] * rank))
    auto_pad = attributes.get("auto_pad", "NOTSET")
    if "output_shape" in attributes or auto_pad in ("SAME_UPPER",
                                                   "SAME_LOWER"):
        in_sizes = self.static_shape(x)[2:]
        wanted = list(attributes["output_shape"])[-rank:] \
            if "output_shape" in attributes else \
            [size * s for size, s in zip(in_sizes, strides)]
        padding = []
        for i in range(rank):
            full = strides[i] * (in_sizes[i] - 1) + output_padding[i] + \
                (kernel[i] - 1) * dilations[i] + 1
            total = full - wanted[i]
            if total < 0:
                # A larger output than the full scatter: more output
                # padding at the high end.
                output_padding[i] -= total
                total = 0
            small, large = total // 2, total - total // 2
            padding += [small, large] if auto_pad == "SAME_UPPER" \
                else [large, small]
    else:
        padding = self.spatial_padding(attributes, x.shape[2:], kernel,
                                       strides, dilations)
    y = self.b.conv_transpose(x, weight, stride=strides, padding=padding,
                              output_padding=output_padding,
                              dilation=dilations,
                              groups=attributes.get("group", 1))
    if len(inputs) > 2 and inputs[2] is not None:
        y = self.add_channel_bias(y, inputs[2])
    return y


@_handles("MaxPool", "AveragePool")
def _pool(self, inputs, attributes):
    b = self.b
    x = self.tensor(inputs[0])
    if len(self.node.output) > 1 and self.node.output[1]:
        raise self.unsupported("the Indices output is not supported")
    kernel = list(attributes["kernel_shape"])
    rank = len(kernel)
    strides = list(attributes.get("strides", [1] * rank))
    dilations = list(attributes.get("dilations", [1] * rank))
    if any(d != 1 for d in dilations):
        raise self.unsupported(f"dilations = {dilations}")
    padding = self.spatial_padding(attributes, x.shape[2:], kernel, strides,
                                   dilations)
    kind = "max" if self.node.op_type == "MaxPool" else "avg"
    include_pad = kind == "avg" and attributes.get("count_include_pad", 0)
    ceil_mode = bool(attributes.get("ceil_mode", 0))

    def pool(value, pads, count_include_pad):
        return b.pool(value, kind=kind, kernel=kernel, stride=strides,
                      padding=pads, ceil_mode=ceil_mode,
                      count_include_pad=count_include_pad)

    if all(p <= k // 2 for p, k in zip(padding, np.repeat(kernel, 2))):
        return pool(x, padding, bool(include_pad))
    # rlx.pool pads at most half a kernel: pad explicitly first (-inf for
    # max), and divide an average by the pooled count of real elements
    # where the padding does not count.
    explicit = [0, 0, 0, 0] + padding
    border = -np.inf if kind == "max" else 0.0
    padded = b.pad(x, mode="constant", pads=explicit, value=border)
    result = pool(padded, [0] * len(padding), None)
    if kind == "max" or include_pad:
        return result
    ones = self.constant_of(np.ones((1, 1) + self.static_shape(x)[2:]),
                            x.dtype)
    counts = pool(b.pad(ones, mode="constant", pads=explicit, value=0.0),
                  [0] * len(padding), None)
    return b.div(result, counts)


@_handles("GlobalAveragePool", "GlobalMaxPool")
def _global_pool(self, inputs, attributes):
    kind = "avg" if self.node.op_type == "GlobalAveragePool" else "max"
    return self.b.global_pool(self.tensor(inputs[0]), kind=kind)


# -- normalization ------------------------------------------------------------

@_handles("BatchNormalization")
def _batch_norm(self, inputs, attributes):
    if attributes.get("training_mode", 0) or \
            len([o for o in self.node.output if o]) > 1:
        raise self.unsupported("training mode is not supported")
    x, scale, bias, mean, variance = [self.tensor(v) for v in inputs[:5]]
    return self.b.batch_norm_inference(x, scale, bias, mean, variance,
                                       eps=attributes.get("epsilon", 1e-5))


@_handles("InstanceNormalization")
def _instance_norm(self, inputs, attributes):
    x, scale, bias = [self.tensor(v) for v in inputs[:3]]
    return self.b.group_norm(x, scale, bias, groups=x.shape[1],
                             eps=attributes.get("epsilon", 1e-5))


@_handles("LayerNormalization")
def _layer_norm(self, inputs, attributes):
    b = self.b
    x = self.tensor(inputs[0])
    axis = self.axis(attributes.get("axis", -1), x.rank)
    eps = attributes.get("epsilon", 1e-5)
    scale = inputs[1]
    bias = inputs[2] if len(inputs) > 2 else None
    statistics = len(self.node.output) > 1 and any(self.node.output[1:])
    if axis == x.rank - 1 and len(self.shape(scale)) == 1 and \
            (bias is None or len(self.shape(bias)) == 1):
        # rlx.layer_norm's own case: one axis with [D] parameters.
        gamma = self.tensor(scale)
        beta = self.tensor(bias) if bias is not None else \
            self.constant_of(np.zeros(gamma.shape), x.dtype)
        results = b.layer_norm(x, gamma, beta, axis=axis, eps=eps,
                               with_statistics=statistics)
        return list(results) if statistics else results
    # ONNX normalizes the axes from `axis` on together: flatten them to one,
    # normalize with unit parameters, then apply Scale and B broadcasting.
    shape = self.static_shape(x)
    outer, inner = int(np.prod(shape[:axis])), int(np.prod(shape[axis:]))
    results = b.layer_norm(self.reshape(x, (outer, inner)),
                           self.constant_of(np.ones(inner), x.dtype),
                           self.constant_of(np.zeros(inner), x.dtype),
                           axis=1, eps=eps, with_statistics=statistics)
    normalized = results[0] if statistics else results
    y = b.mul(self.reshape(normalized, shape), self.tensor(scale))
    if bias is not None:
        y = b.add(y, self.tensor(bias))
    if not statistics:
        return y
    stat_shape = shape[:axis] + (1,) * (x.rank - axis)
    return [y] + [self.reshape(s, stat_shape) for s in results[1:]]


@_handles("MeanVarianceNormalization")
def _mean_variance_norm(self, inputs, attributes):
    b = self.b
    x = self.tensor(inputs[0])
    axes = list(attributes.get("axes", [0, 2, 3]))
    mean = b.reduce(x, kind="mean", axes=axes, keep_dim=True)
    centered = b.sub(x, mean)
    variance = b.reduce(b.mul(centered, centered), kind="mean", axes=axes,
                        keep_dim=True)
    return b.div(centered, b.add(b.sqrt(variance), self.scalar(1e-9, x)))


@_handles("LRN")
def _lrn(self, inputs, attributes):
    b = self.b
    x = self.tensor(inputs[0])
    shape = self.static_shape(x)
    size = attributes["size"]
    alpha, beta = attributes.get("alpha", 1e-4), attributes.get("beta", 0.75)
    bias = attributes.get("bias", 1.0)
    # The sum of squares over a window of channels: an average pool over
    # [N, 1, C, spatial] whose zero padding counts, times the window size.
    columns = (shape[0], 1, shape[1], int(np.prod(shape[2:])))
    low = (size - 1) // 2
    average = b.pool(self.reshape(b.mul(x, x), columns), kind="avg",
                     kernel=[size, 1], stride=[1, 1],
                     padding=[low, size - 1 - low, 0, 0],
                     count_include_pad=True)
    scale = b.add(self.scalar(bias, x),
                  b.mul(self.reshape(average, shape), self.scalar(alpha, x)))
    return b.div(x, b.pow(scale, self.scalar(beta, x)))


def _coerced_2d(self, x, axis, apply):
    """Opsets before 13: softmax-like ops act on x flattened to 2-D at
    `axis`."""
    axis = self.axis(axis, x.rank)
    shape = self.static_shape(x)
    flat = self.reshape(x, (int(np.prod(shape[:axis])),
                            int(np.prod(shape[axis:]))))
    return self.reshape(apply(flat, 1), shape)


@_handles("Softmax", "LogSoftmax", "Hardmax")
def _softmax(self, inputs, attributes):
    b = self.b
    x = self.tensor(inputs[0])

    def apply(value, axis):
        if self.node.op_type == "Softmax":
            return b.softmax(value, axis=axis)
        if self.node.op_type == "LogSoftmax":
            return b.log_softmax(value, axis=axis)
        # Hardmax: 1 at the first maximum along the axis.
        axis = self.axis(axis, value.rank)
        shape = list(value.shape)
        shape[axis] = 1
        winner = b.argmax(value, axis=axis, keep_dim=True, shape=shape,
                          dtype="i64")
        positions = b.iota(axis=axis, shape=list(value.shape), dtype="i64")
        return b.cast(b.eq(positions, winner), dtype=value.dtype)

    if self.opset >= 13:
        return apply(x, attributes.get("axis", -1))
    return _coerced_2d(self, x, attributes.get("axis", 1), apply)


# -- reductions ---------------------------------------------------------------

@_handles(*_REDUCE)
def _reduce(self, inputs, attributes):
    b = self.b
    op_type = self.node.op_type
    x = self.tensor(inputs[0])
    axes = self.opset_input_or_attribute(inputs, 1, attributes, "axes")
    if not axes:
        if attributes.get("noop_with_empty_axes", 0):
            return x
        axes = list(range(x.rank))
    keep = bool(attributes.get("keepdims", 1))
    if op_type in ("ReduceL2", "ReduceSumSquare"):
        x = b.mul(x, x)
    elif op_type == "ReduceL1":
        x = b.abs(x)
    elif op_type == "ReduceLogSumExp":
        x = b.exp(x)
    if x.rank == 0:
        result = x
    else:
        result = b.reduce(x, kind=_REDUCE[op_type], axes=axes,
                          keep_dim=keep)
    if op_type == "ReduceL2":
        result = b.sqrt(result)
    elif op_type in ("ReduceLogSum", "ReduceLogSumExp"):
        result = b.log(result)
    return result


@_handles("ArgMax", "ArgMin")
def _arg_reduce(self, inputs, attributes):
    b = self.b
    x = self.tensor(inputs[0])
    axis = self.axis(attributes.get("axis", 0), x.rank)
    keep = bool(attributes.get("keepdims", 1))
    last = attributes.get("select_last_index", 0)
    if last:
        # The last of equal entries is the first of the reversed axis.
        x = b.reverse(x, axes=[axis])
    shape = list(x.shape)
    if keep:
        shape[axis] = 1
    else:
        shape.pop(axis)
    op = b.argmax if self.node.op_type == "ArgMax" else b.argmin
    index = op(x, axis=axis, keep_dim=keep, shape=shape, dtype="i64")
    if last:
        size = self.static_shape(x)[axis]
        index = b.sub(self.scalar(size - 1, index), index)
    return index


# -- shapes -------------------------------------------------------------------

@_handles("Reshape")
def _reshape(self, inputs, attributes):
    x = inputs[0]
    shape = self.shape(x)
    copy_zeros = not attributes.get("allowzero", 0)
    # Each target entry: its size (None: known at run time) and the input
    # axis whose `?` size it carries, if it does.
    sizes, carried = [], []
    for i, v in enumerate(np.ravel(self.known(inputs[1], "the shape"))):
        if isinstance(v, _RunTimeSize):
            sizes.append(None)
            carried.append(v.axis if v.source is x else None)
        elif v == 0 and copy_zeros:
            sizes.append(shape[i])
            carried.append(i if shape[i] is None else None)
        else:
            sizes.append(int(v))
            carried.append(None)
    dynamic_axes = [axis for axis, d in enumerate(shape) if d is None]
    if -1 in sizes:
        others = [i for i, size in enumerate(sizes) if size != -1]
        if all(sizes[i] is not None or carried[i] is not None
               for i in others) and \
                sorted(c for c in carried if c is not None) == dynamic_axes:
            # Static, or the `?` sizes carried over: -1 is what the static
            # sizes leave.
            size = int(np.prod([d for d in shape if d is not None])) // \
                max(int(np.prod([sizes[i] for i in others
                                 if sizes[i] is not None])), 1)
        else:
            size = None
        sizes = [size if v == -1 else v for v in sizes]
    # rlx.reshape takes its first n - 1 `?` sizes from the input's, in
    # order, and the last from the element count.
    runtime = [i for i, size in enumerate(sizes) if size is None]
    if any(carried[i] != axis
           for i, axis in zip(runtime[:-1], dynamic_axes)) or \
            len(runtime) - 1 > len(dynamic_axes):
        raise self.unsupported(
            "a target shape whose sizes known only at run time are not the "
            "input's own `?` sizes in order, but for the last")
    return self.reshape(x, sizes)


@_handles("Flatten")
def _flatten(self, inputs, attributes):
    x = inputs[0]
    shape = self.shape(x)
    axis = self.axis(attributes.get("axis", 1), len(shape))

    def product(dims):
        return None if None in dims else int(np.prod(dims))
    return self.reshape(x, (product(shape[:axis]), product(shape[axis:])))


@_handles("Transpose")
def _transpose(self, inputs, attributes):
    x = inputs[0]
    rank = len(self.shape(x))
    return self.transpose(x, attributes.get("perm",
                                            list(range(rank))[::-1]))


@_handles("Squeeze")
def _squeeze(self, inputs, attributes):
    x = inputs[0]
    shape = self.shape(x)
    axes = self.opset_input_or_attribute(inputs, 1, attributes, "axes")
    if axes is None:
        axes = [i for i, d in enumerate(shape) if d == 1]
    axes = {self.axis(a, len(shape)) for a in axes}
    return self.reshape(x, [d for i, d in enumerate(shape) if i not in axes])


@_handles("Unsqueeze")
def _unsqueeze(self, inputs, attributes):
    x = inputs[0]
    shape = list(self.shape(x))
    axes = self.opset_input_or_attribute(inputs, 1, attributes, "axes")
    rank = len(shape) + len(axes)
    for axis in sorted(self.axis(a, rank) for a in axes):
        shape.insert(axis, 1)
    return self.reshape(x, shape)


@_handles("Expand")
def _expand(self, inputs, attributes):
    x = inputs[0]
    target = [int(v) for v in self.known(inputs[1], "the shape")]
    shape = list(self.shape(x))
    # ONNX broadcasts both ways: a 1 in the target keeps the input's size.
    rank = max(len(shape), len(target))
    shape = [1] * (rank - len(shape)) + shape
    target = [1] * (rank - len(target)) + target
    result = [s if t == 1 else t for s, t in zip(shape, target)]
    if isinstance(x, np.ndarray):
        return np.broadcast_to(x, result).copy()
    if result == list(x.shape):
        return x
    return self.b.expand(x, shape=result)


@_handles("Concat")
def _concat(self, inputs, attributes):
    return self.b.concat([self.tensor(v) for v in inputs],
                         axis=attributes["axis"])


@_handles("Split")
def _split(self, inputs, attributes):
    x = self.tensor(inputs[0])
    axis = self.axis(attributes.get("axis", 0), x.rank)
    size = self.static_shape(x)[axis]
    sizes = self.opset_input_or_attribute(inputs, 1, attributes, "split")
    if sizes is None:
        count = attributes.get("num_outputs", len(self.node.output))
        piece = -(-size // count)
        sizes = [min(piece, size - i * piece) for i in range(count)]
    outputs, start = [], 0
    for length in sizes:
        outputs.append(self.b.narrow(x, axis=axis, start=start,
                                     length=length))
        start += length
    return outputs


@_handles("Slice")
def _slice(self, inputs, attributes):
    x = inputs[0]
    shape = self.shape(x)
    if self.opset < 10:
        starts, ends = attributes["starts"], attributes["ends"]
        axes, steps = attributes.get("axes"), None
    else:
        starts, ends = [[int(v) for v in self.known(inputs[i], name)]
                        for i, name in ((1, "starts"), (2, "ends"))]
        axes, steps = [[int(v) for v in self.known(inputs[i], name)]
                       if len(inputs) > i and inputs[i] is not None else None
                       for i, name in ((3, "axes"), (4, "steps"))]
    axes = axes if axes is not None else list(range(len(starts)))
    steps = steps if steps is not None else [1] * len(starts)
    if isinstance(x, np.ndarray):
        index = [slice(None)] * x.ndim
        for start, end, axis, step in zip(starts, ends, axes, steps):
            index[self.axis(axis, x.ndim)] = slice(start, end, step)
        return x[tuple(index)]
    for start, end, axis, step in zip(starts, ends, axes, steps):
        axis = self.axis(axis, x.rank)
        size = shape[axis]
        if size is None:
            raise self.unsupported(f"slicing dynamic axis {axis}")
        # ONNX clamps starts and ends as Python's slices do.
        first, _, _ = slice(start, end, step).indices(size)
        length = len(range(*slice(start, end, step).indices(size)))
        if step == 1:
            x = self.b.narrow(x, axis=axis, start=first, length=length)
        else:
            x = self.b.slice(x, axis=axis, start=first, length=length,
                             step=step)
    return x


@_handles("Tile")
def _tile(self, inputs, attributes):
    reps = [int(v) for v in self.known(inputs[1], "the repeats")]
    if isinstance(inputs[0], np.ndarray):
        return np.tile(inputs[0], reps)
    return self.b.tile(inputs[0], reps=reps)


@_handles("Shape")
def _shape(self, inputs, attributes):
    x = inputs[0]
    shape = self.shape(x)
    start = attributes.get("start", 0)
    end = attributes.get("end", len(shape))
    if None not in shape:
        return np.array(shape[start:end], np.int64)
    entries = np.empty(len(shape), object)
    entries[:] = [_RunTimeSize(x, axis) if d is None else d
                  for axis, d in enumerate(shape)]
    return entries[start:end]


@_handles("Size")
def _size(self, inputs, attributes):
    return np.array(int(np.prod(self.static_shape(inputs[0]))), np.int64)


@_handles("ConstantOfShape")
def _constant_of_shape(self, inputs, attributes):
    shape = [int(v) for v in self.known(inputs[0], "the shape")]
    value = attributes.get("value")
    value = self.onnx.numpy_helper.to_array(value) if value is not None \
        else np.zeros(1, np.float32)
    return np.full(shape, value.ravel()[0], value.dtype)


@_handles("Constant")
def _constant(self, inputs, attributes):
    numpy_helper = self.onnx.numpy_helper
    if "value" in attributes:
        return numpy_helper.to_array(attributes["value"])
    kinds = {"value_float": np.float32, "value_floats": np.float32,
             "value_int": np.int64, "value_ints": np.int64}
    for key, dtype in kinds.items():
        if key in attributes:
            return np.array(attributes[key], dtype)
    raise self.unsupported(f"attribute {', '.join(attributes)}")


@_handles("Range")
def _range(self, inputs, attributes):
    # Folded (_FOLDERS) when its bounds are known; otherwise its length,
    # a size of its result's type, is not.
    raise self.unsupported("start, limit and delta must be known while "
                           "importing")


@_handles("EyeLike")
def _eye_like(self, inputs, attributes):
    rows, columns = self.static_shape(inputs[0])
    dtype = _dtype(attributes["dtype"], "dtype") if "dtype" in attributes \
        else self.dtype(inputs[0])
    return np.eye(rows, columns, attributes.get("k", 0),
                  dtype=_NUMPY_TYPES[dtype])


@_handles("Dropout")
def _dropout(self, inputs, attributes):
    if len(inputs) > 2 and inputs[2] is not None and \
            bool(self.known(inputs[2], "training_mode")):
        raise self.unsupported("training_mode = true is not supported")
    x = inputs[0]
    mask = np.ones(self.static_shape(x), np.bool_) \
        if len(self.node.output) > 1 and self.node.output[1] else None
    return [x, mask]


# -- indexing -----------------------------------------------------------------

@_handles("Gather")
def _gather(self, inputs, attributes):
    return self.b.gather(self.tensor(inputs[0]), self.tensor(inputs[1]),
                         axis=attributes.get("axis", 0))


@_handles("GatherElements")
def _gather_elements(self, inputs, attributes):
    return self.b.gather_elements(self.tensor(inputs[0]),
                                  self.tensor(inputs[1]),
                                  axis=attributes.get("axis", 0))


@_handles("Pad")
def _pad(self, inputs, attributes):
    x = self.tensor(inputs[0])
    if self.opset < 11:
        pads, value = list(attributes["pads"]), attributes.get("value", 0.0)
    else:
        pads = [int(v) for v in self.known(inputs[1], "the pads")]
        value = inputs[2] if len(inputs) > 2 else None
        value = float(self.known(value, "the constant value")) \
            if value is not None else 0.0
    rank = x.rank
    axes = [self.axis(int(a), rank) for a in
            self.known(inputs[3], "the axes")] \
        if len(inputs) > 3 and inputs[3] is not None else list(range(rank))
    lows, highs = pads[:len(axes)], pads[len(axes):]
    rlx_pads = [0] * (2 * rank)
    for axis, low, high in zip(axes, lows, highs):
        rlx_pads[2 * axis], rlx_pads[2 * axis + 1] = low, high
    mode = attributes.get("mode", "constant")
    modes = {"constant": "constant", "reflect": "reflect",
             "edge": "replicate", "wrap": "circular"}
    if mode not in modes:
        raise self.unsupported(f"mode = {mode}")
    return self.b.pad(x, mode=modes[mode], pads=rlx_pads,
                      value=value if mode == "constant" else None)


@_handles("TopK")
def _topk(self, inputs, attributes):
    x = self.tensor(inputs[0])
    k = int(np.ravel(self.known(inputs[1], "K"))[0]) if self.opset >= 10 \
        else attributes["k"]
    axis = self.axis(attributes.get("axis", -1), x.rank)
    # rlx.topk works on the last axis: move the axis there and back.
    permutation = [i for i in range(x.rank) if i != axis] + [axis]
    inverse = list(np.argsort(permutation))
    values, indices = self.b.topk(self.transpose(x, permutation), k=k,
                                  smallest=not attributes.get("largest", 1))
    return [self.transpose(values, inverse), self.transpose(indices, inverse)]


@_handles("CumSum")
def _cumsum(self, inputs, attributes):
    b = self.b
    x = self.tensor(inputs[0])
    axis = self.axis(int(self.known(inputs[1], "the axis")), x.rank)
    reverse = attributes.get("reverse", 0)
    if reverse:
        x = b.reverse(x, axes=[axis])
    result = b.cumsum(x, axis=axis,
                      exclusive=bool(attributes.get("exclusive", 0)))
    return b.reverse(result, axes=[axis]) if reverse else result


@_handles("Trilu")
def _trilu(self, inputs, attributes):
    k = int(self.known(inputs[1], "k")) \
        if len(inputs) > 1 and inputs[1] is not None else 0
    part = "upper" if attributes.get("upper", 1) else "lower"
    return self.b.trilu(self.tensor(inputs[0]), part=part, diagonal=k)


@_handles("Det")
def _det(self, inputs, attributes):
    return self.b.det(self.tensor(inputs[0]))


@_handles("DFT")
def _dft(self, inputs, attributes):
    """DFT: a real [..., N, 1] or complex [..., N, 2] signal along `axis`
    (an attribute, default 1, before opset 20; then a third input, default
    -2); the parts are moved to the last axis for rlx.fft, ifft or rfft
    and the result's back, its parts stacked in a last axis of 2."""
    b = self.b
    x = self.tensor(inputs[0])
    if x.rank < 2 or x.shape[-1] not in (1, 2):
        raise OnnxImportError(f"the input's last dimension must be 1 (real) "
                              f"or 2 (complex), got shape {list(x.shape)}")
    rank = x.rank - 1  # the signal's
    if self.opset >= 20:
        given = len(inputs) > 2 and inputs[2] is not None
        axis = int(np.ravel(self.known(inputs[2], "the axis"))[0]) \
            if given else -2
    else:
        axis = attributes.get("axis", 1)
    if not 0 <= (axis + x.rank if axis < 0 else axis) < rank:
        raise self.unsupported(f"axis = {axis} (the last axis holds the "
                               "parts)")
    axis = axis + x.rank if axis < 0 else axis
    inverse = bool(attributes.get("inverse", 0))
    onesided = bool(attributes.get("onesided", 0))
    if inverse and onesided:
        raise self.unsupported("inverse = 1 with onesided = 1")
    size = x.shape[axis]
    if size is None:
        raise self.unsupported("a signal axis of size ? (the transform's "
                               "length is fixed at compile time)")
    length = size
    if len(inputs) > 1 and inputs[1] is not None:
        length = int(np.ravel(self.known(inputs[1], "dft_length"))[0])
        if length < 1:
            raise OnnxImportError(f"dft_length = {length} is not positive")
    permutation = [i for i in range(rank) if i != axis] + [axis]
    inverse_permutation = [int(i) for i in np.argsort(permutation)]

    def part(index):
        """Part `index` of the signal, its axis last, trimmed or
        zero-padded to `length`."""
        signal = b.narrow(x, axis=rank, start=index, length=1) \
            if x.shape[-1] == 2 else x
        signal = self.transpose(self.reshape(signal, x.shape[:-1]),
                                permutation)
        if length < size:
            signal = b.narrow(signal, axis=rank - 1, start=0, length=length)
        elif length > size:
            signal = b.pad(signal, mode="constant",
                           pads=[0] * (2 * rank - 1) + [length - size])
        return signal

    real = part(0)
    if x.shape[-1] == 1 and onesided:
        spectrum = b.rfft(real)
    else:
        imag = part(1) if x.shape[-1] == 2 else b.expand(
            self.scalar(0, real), like=real, shape=list(real.shape))
        spectrum = getattr(b, "ifft" if inverse else "fft")(
            b.complex(real, imag))
    parts = [b.real(spectrum), b.imag(spectrum)]
    if onesided and x.shape[-1] == 2:
        parts = [b.narrow(p, axis=rank - 1, start=0, length=length // 2 + 1)
                 for p in parts]
    parts = [self.transpose(p, inverse_permutation) for p in parts]
    return b.concat([self.reshape(p, p.shape + (1,)) for p in parts],
                    axis=rank)


@_handles("DepthToSpace", "SpaceToDepth")
def _depth_space(self, inputs, attributes):
    x = self.tensor(inputs[0])
    n, c, h, w = self.static_shape(x)
    s = attributes["blocksize"]
    if self.node.op_type == "SpaceToDepth":
        blocks = self.reshape(x, (n, c, h // s, s, w // s, s))
        moved = self.transpose(blocks, [0, 3, 5, 1, 2, 4])
        return self.reshape(moved, (n, c * s * s, h // s, w // s))
    if attributes.get("mode", "DCR") == "DCR":
        blocks = self.reshape(x, (n, s, s, c // (s * s), h, w))
        moved = self.transpose(blocks, [0, 3, 4, 1, 5, 2])
    else:
        blocks = self.reshape(x, (n, c // (s * s), s, s, h, w))
        moved = self.transpose(blocks, [0, 1, 4, 2, 5, 3])
    return self.reshape(moved, (n, c // (s * s), h * s, w * s))


@_handles("GatherND")
def _gather_nd(self, inputs, attributes):
    return self.b.gather_nd(self.tensor(inputs[0]), self.tensor(inputs[1]),
                            batch_dims=attributes.get("batch_dims", 0))


@_handles("ScatterElements", "Scatter")
def _scatter_elements(self, inputs, attributes):
    data = self.tensor(inputs[0])
    return self.b.scatter_elements(
        data, self.tensor(inputs[1]), self.tensor(inputs[2]),
        axis=self.axis(attributes.get("axis", 0), data.rank),
        reduction=attributes.get("reduction", "none"))


@_handles("ScatterND")
def _scatter_nd(self, inputs, attributes):
    return self.b.scatter_nd(self.tensor(inputs[0]), self.tensor(inputs[1]),
                             self.tensor(inputs[2]),
                             reduction=attributes.get("reduction", "none"))


@_handles("OneHot")
def _one_hot(self, inputs, attributes):
    b = self.b
    indices = self.tensor(inputs[0])
    depth = int(np.ravel(self.known(inputs[1], "the depth"))[0])
    off, on = np.ravel(self.known(inputs[2], "the values"))
    if not indices.dtype.startswith("i"):
        indices = b.cast(indices, dtype="i64")
    axis = self.axis(attributes.get("axis", -1), indices.rank + 1)
    indices = self.where_negative(
        indices, b.add(indices, self.scalar(depth, indices)), indices)
    column = list(self.static_shape(indices))
    column.insert(axis, 1)
    shape = list(column)
    shape[axis] = depth
    positions = b.iota(axis=axis, shape=shape, dtype=indices.dtype)
    hot = b.eq(self.reshape(indices, column), positions)
    return b.where(hot, self.tensor(np.array(on)), self.tensor(np.array(off)))


# -- losses -------------------------------------------------------------------

def _negative_log_likelihood(self, log_prob, target, weight, attributes):
    """ONNX NegativeLogLikelihoodLoss of `log_prob` [N, C, d...] at integer
    `target` [N, d...]."""
    b = self.b
    target = self.tensor(target)
    index, weights = target, None
    if "ignore_index" in attributes:
        valid = b.ne(target, self.scalar(attributes["ignore_index"], target))
        index = b.where(valid, target, self.scalar(0, target))
        weights = b.cast(valid, dtype=log_prob.dtype)
    if weight is not None:
        picked = b.gather(self.tensor(weight), index, axis=0)
        weights = picked if weights is None else b.mul(picked, weights)
    column = list(self.shape(index))
    column.insert(1, 1)
    loss = b.neg(self.reshape(
        b.gather_elements(log_prob, self.reshape(index, column), axis=1),
        self.shape(target)))
    if weights is not None:
        loss = b.mul(loss, weights)
    reduction = attributes.get("reduction", "mean")
    if reduction == "none":
        return loss
    axes = list(range(loss.rank))
    if reduction == "sum":
        return b.reduce(loss, kind="sum", axes=axes)
    if reduction != "mean":
        raise self.unsupported(f"reduction = {reduction}")
    if weights is None:
        return b.reduce(loss, kind="mean", axes=axes)
    return b.div(b.reduce(loss, kind="sum", axes=axes),
                 b.reduce(weights, kind="sum", axes=axes))


@_handles("NegativeLogLikelihoodLoss")
def _nll_loss(self, inputs, attributes):
    weight = inputs[2] if len(inputs) > 2 else None
    return _negative_log_likelihood(self, self.tensor(inputs[0]), inputs[1],
                                    weight, attributes)


@_handles("SoftmaxCrossEntropyLoss")
def _softmax_cross_entropy(self, inputs, attributes):
    log_prob = self.b.log_softmax(self.tensor(inputs[0]), axis=1)
    weight = inputs[2] if len(inputs) > 2 else None
    return [_negative_log_likelihood(self, log_prob, inputs[1], weight,
                                     attributes), log_prob]


# -- Resize: nearest, linear and cubic, from source positions computed here ---

def _source_positions(out_size, in_size, scale, transform):
    """Where each output position samples the input along one axis (ONNX
    Resize's coordinate_transformation_mode), or None for a mode that is
    not supported."""
    positions = np.arange(out_size, dtype=np.float64)
    # ONNX's length of the output before rounding down to whole positions.
    length = in_size * scale
    if transform == "half_pixel":
        return (positions + 0.5) / scale - 0.5
    if transform == "pytorch_half_pixel":
        return (positions + 0.5) / scale - 0.5 if length != 1 \
            else np.zeros(out_size)
    if transform == "align_corners":
        return positions * (in_size - 1) / (length - 1) if length != 1 \
            else np.zeros(out_size)
    if transform == "asymmetric":
        return positions / scale
    if transform == "tf_half_pixel_for_nn":
        return (positions + 0.5) / scale
    return None


def _nearest(source, rounding):
    """ONNX Resize's nearest_mode, or None for one not supported."""
    halfway = source - np.floor(source) == 0.5
    if rounding == "round_prefer_floor":
        return np.where(halfway, np.floor(source), np.round(source))
    if rounding == "round_prefer_ceil":
        return np.where(halfway, np.ceil(source), np.round(source))
    if rounding == "floor":
        return np.floor(source)
    if rounding == "ceil":
        return np.ceil(source)
    return None


def _interpolation_taps(source, in_size, mode, cubic_a, exclude_outside):
    """[(source index, weight)] per tap of linear or cubic interpolation at
    `source` positions: ONNX Resize's, whose neighbours past an edge repeat
    the edge, or with exclude_outside weigh 0 (the rest renormalized)."""
    low = np.floor(source)
    t = source - low
    if mode == "linear":
        offsets, weights = [0, 1], [1 - t, t]
    else:
        def kernel(d):  # Keys' cubic convolution kernel at distance d
            a = cubic_a
            return np.where(
                d <= 1, ((a + 2) * d - (a + 3)) * d * d + 1,
                np.where(d < 2, ((a * d - 5 * a) * d + 8 * a) * d - 4 * a,
                         0.0))
        offsets = [-1, 0, 1, 2]
        weights = [kernel(np.abs(t - o)) for o in offsets]
    indices = [low + o for o in offsets]
    if exclude_outside:
        weights = [np.where((i >= 0) & (i < in_size), w, 0.0)
                   for i, w in zip(indices, weights)]
        total = sum(weights)
        weights = [w / total for w in weights]
    return [(np.clip(i, 0, in_size - 1).astype(np.int64), w)
            for i, w in zip(indices, weights)]


def _resize(self, x, scales, sizes, attributes, mode, transform):
    b = self.b
    shape = self.static_shape(x)
    sources = {}   # resized axis -> source position of each output position
    for axis, in_size in enumerate(shape):
        if sizes is not None:
            out_size = int(sizes[axis])
            scale = out_size / in_size
        else:
            scale = float(scales[axis])
            out_size = int(math.floor(in_size * scale))
        if out_size == in_size and scale == 1.0:
            continue
        sources[axis] = _source_positions(out_size, in_size, scale,
                                          transform)
        if sources[axis] is None:
            raise self.unsupported(
                f"coordinate_transformation_mode = {transform}")
    if mode != "nearest":
        # Separable: per axis, a weighted sum of gathered neighbours.
        for axis, source in sources.items():
            terms = []
            for index, weight in _interpolation_taps(
                    source, shape[axis], mode,
                    attributes.get("cubic_coeff_a", -0.75),
                    attributes.get("exclude_outside", 0)):
                weight = self.constant_of(weight.reshape(
                    [-1 if a == axis else 1 for a in range(len(shape))]),
                    x.dtype)
                terms.append(b.mul(b.gather(x, self.tensor(index),
                                            axis=axis), weight))
            x = functools.reduce(b.add, terms)
        return x
    rounding = attributes.get("nearest_mode", "round_prefer_floor")
    indices = {}
    for axis, source in sources.items():
        index = _nearest(source, rounding)
        if index is None:
            raise self.unsupported(f"nearest_mode = {rounding}")
        indices[axis] = np.clip(index, 0, shape[axis] - 1).astype(np.int64)
    # rlx.interpolate_nearest where its rule floor(o * X / O) gives the
    # same indices on spatial axes; else one gather per resized axis.
    if 3 <= len(shape) <= 5 and indices and min(indices) >= 2 and all(
            np.array_equal(index, np.arange(len(index)) * shape[axis] //
                           len(index)) for axis, index in indices.items()):
        size = [len(indices[a]) if a in indices else shape[a]
                for a in range(2, len(shape))]
        return b.interpolate_nearest(x, size=size)
    for axis, index in indices.items():
        x = b.gather(x, self.tensor(index), axis=axis)
    return x


@_handles("Resize", "Upsample")
def _resize_handler(self, inputs, attributes):
    x = self.tensor(inputs[0])
    mode = attributes.get("mode", "nearest")
    if mode not in ("nearest", "linear", "cubic"):
        raise self.unsupported(f"mode = {mode}")
    if self.node.op_type == "Upsample" or self.opset < 11:
        scales = attributes["scales"] if "scales" in attributes else \
            self.known(inputs[1], "the scales")
        return _resize(self, x, scales, None, {"nearest_mode": "floor"},
                       mode, "asymmetric")
    scales = inputs[2] if len(inputs) > 2 else None
    sizes = inputs[3] if len(inputs) > 3 else None
    if sizes is not None:
        sizes, scales = self.known(sizes, "the sizes"), None
    else:
        scales = self.known(scales, "the scales")
    return _resize(self, x, scales, sizes, attributes, mode,
                   attributes.get("coordinate_transformation_mode",
                                  "half_pixel"))


# -- Einsum: contractions of one or two operands ------------------------------

def _einsum_terms(self, equation, ranks):
    """Each operand's labels and the output's, with `...` expanded to
    capital letters."""
    equation = equation.replace(" ", "")
    left, arrow, output = equation.partition("->")
    terms = left.split(",")
    if len(terms) != len(ranks):
        raise self.unsupported(f"equation {equation!r} for {len(ranks)} "
                               "operands")
    spare = [c for c in string.ascii_uppercase if c not in equation]
    ellipsis_rank = max([r - len(t.replace("...", ""))
                         for t, r in zip(terms, ranks) if "..." in t] or [0])
    broadcast = "".join(spare[:ellipsis_rank])

    def expand(term, rank):
        if "..." not in term:
            return term
        fill = rank - len(term.replace("...", ""))
        return term.replace("...", broadcast[ellipsis_rank - fill:])
    terms = [expand(t, r) for t, r in zip(terms, ranks)]
    if arrow:
        output = output.replace("...", broadcast)
    else:
        # Implicit output: the broadcast labels, then the labels used once,
        # alphabetically.
        counts = {c: "".join(terms).count(c) for c in "".join(terms)}
        output = broadcast + "".join(sorted(
            c for c, n in counts.items() if n == 1 and c not in broadcast))
    for term in terms + [output]:
        if len(set(term)) != len(term):
            raise self.unsupported(f"equation {equation!r}: a repeated "
                                   "label (a diagonal)")
    return terms, output


@_handles("Einsum")
def _einsum(self, inputs, attributes):
    b = self.b
    operands = [self.tensor(v) for v in inputs]
    if len(operands) > 2:
        raise self.unsupported("more than two operands")
    terms, output = _einsum_terms(self, attributes["equation"],
                                  [o.rank for o in operands])
    # Sum each operand over the labels no other term has.
    for i, (term, operand) in enumerate(zip(terms, operands)):
        others = output + "".join(t for j, t in enumerate(terms) if j != i)
        summed = [axis for axis, c in enumerate(term) if c not in others]
        if summed:
            operands[i] = b.reduce(operand, kind="sum", axes=summed)
            terms[i] = "".join(c for c in term if c in others)
    if len(operands) == 1:
        result, labels = operands[0], terms[0]
    else:
        (lhs, rhs), (left, right) = operands, terms
        batch = [c for c in left if c in right and c in output]
        contracted = [c for c in left if c in right and c not in output]
        result = b.dot_general(
            lhs, rhs, lhs_batch_dims=[left.index(c) for c in batch],
            rhs_batch_dims=[right.index(c) for c in batch],
            lhs_contracting_dims=[left.index(c) for c in contracted],
            rhs_contracting_dims=[right.index(c) for c in contracted])
        labels = "".join(batch) + \
            "".join(c for c in left if c not in batch + contracted) + \
            "".join(c for c in right if c not in batch + contracted)
    return self.transpose(result, [labels.index(c) for c in output])


# -- recurrent layers: LSTM, GRU, RNN as rlx.lstm, rlx.gru, rlx.rnn ----------

# rlx's recurrent ops are torch.nn's: gate blocks i,f,g,o (LSTM) and r,z,n
# (GRU). ONNX's blocks, i,o,f,c and z,r,h, in that order:
_GATE_ORDER = {"LSTM": [0, 2, 3, 1], "GRU": [1, 0, 2], "RNN": [0]}
# The ONNX activations rlx's cells compute, per direction.
_CELL_ACTIVATIONS = {"LSTM": ["sigmoid", "tanh", "tanh"],
                     "GRU": ["sigmoid", "tanh"]}


def _gate_rows(self, value, direction, offset, hidden):
    """Rows offset .. offset + G*H of direction `direction` of ONNX weights
    `value` ([D, rows, ...]), their G blocks of H rows in rlx's gate order:
    reordered with numpy for a known value, with rlx.narrow and rlx.concat
    for one known at run time (weights as graph inputs)."""
    order = _GATE_ORDER[self.node.op_type]
    if isinstance(value, np.ndarray):
        rows = value[direction]
        return np.concatenate(
            [rows[offset + g * hidden:offset + (g + 1) * hidden]
             for g in order])
    b = self.b
    shape = self.static_shape(value)
    plane = self.reshape(b.narrow(value, axis=0, start=direction, length=1),
                         shape[1:])
    if offset == 0 and len(order) * hidden == shape[1] and \
            order == sorted(order):
        return plane
    blocks = [b.narrow(plane, axis=0, start=offset + g * hidden,
                       length=hidden) for g in order]
    return blocks[0] if len(blocks) == 1 else b.concat(blocks, axis=0)


def _recurrent_options(self, attributes, directions):
    """The rlx op's relu attribute (RNN), after refusing what the rlx ops
    do not model."""
    op_type = self.node.op_type
    if "clip" in attributes:
        raise self.unsupported(f"clip = {attributes['clip']} (cell clipping)"
                               " is not supported")
    if attributes.get("input_forget", 0):
        raise self.unsupported("input_forget = 1 (coupled input and forget "
                               "gates) is not supported")
    if op_type == "GRU" and not attributes.get("linear_before_reset", 0):
        raise self.unsupported(
            "linear_before_reset = 0 is not supported (rlx.gru, as "
            "torch.nn.GRU, applies the reset gate after the hidden "
            "projection: linear_before_reset = 1)")
    given = [a.decode() if isinstance(a, bytes) else a
             for a in attributes.get("activations", [])]
    names = [a.lower() for a in given]
    if op_type == "RNN":
        if len(set(names)) > 1 or not set(names) <= {"tanh", "relu"}:
            raise self.unsupported(f"activations = {given} (Tanh or Relu, "
                                   "the same for both directions)")
        return {"relu": True} if names and names[0] == "relu" else {}
    if names and names not in (_CELL_ACTIVATIONS[op_type],
                               _CELL_ACTIVATIONS[op_type] * directions):
        defaults = ", ".join(a.capitalize()
                             for a in _CELL_ACTIVATIONS[op_type])
        raise self.unsupported(f"activations = {given} (only the defaults, "
                               f"{defaults} per direction)")
    return {}


@_handles("LSTM", "GRU", "RNN")
def _recurrent(self, inputs, attributes):
    b = self.b
    op_type = self.node.op_type
    inputs = list(inputs) + [None] * (8 - len(inputs))
    x, w, r, bias, lengths, h0 = inputs[:6]
    c0 = inputs[6] if op_type == "LSTM" else None
    if op_type == "LSTM" and inputs[7] is not None:
        raise self.unsupported("peepholes (input P) are not supported")
    direction = attributes.get("direction", "forward")
    if direction not in ("forward", "reverse", "bidirectional"):
        raise self.unsupported(f"direction = {direction}")
    directions = 2 if direction == "bidirectional" else 1
    options = _recurrent_options(self, attributes, directions)
    x = self.tensor(x)
    if x.rank != 3:
        raise OnnxImportError(f"X has rank {x.rank}, expected 3")
    batch_first = bool(attributes.get("layout", 0))
    time_axis = 1 if batch_first else 0
    if lengths is not None:
        # Sequences of the full length are the op's; shorter ones are not.
        steps = x.shape[time_axis]
        if not isinstance(lengths, np.ndarray) or steps is None or \
                np.any(lengths != steps):
            raise self.unsupported("sequence_lens (sequences of different "
                                   "lengths) is not supported")
    w_shape, r_shape = self.static_shape(w), self.static_shape(r)
    gates = len(_GATE_ORDER[op_type])
    hidden = attributes.get("hidden_size", r_shape[-1])
    if len(w_shape) != 3 or len(r_shape) != 3 or \
            w_shape[0] != directions or r_shape != (directions,
                                                    gates * hidden, hidden):
        raise OnnxImportError(
            f"W {list(w_shape)} and R {list(r_shape)} do not fit direction "
            f"= {direction} and hidden_size = {hidden}: expected "
            f"[{directions}, {gates * hidden}, input size] and "
            f"[{directions}, {gates * hidden}, {hidden}]")
    weights = []
    for d in range(directions):
        weights += [_gate_rows(self, w, d, 0, hidden),
                    _gate_rows(self, r, d, 0, hidden)]
        if bias is not None:
            weights += [_gate_rows(self, bias, d, 0, hidden),
                        _gate_rows(self, bias, d, gates * hidden, hidden)]
    weights = [self.tensor(v) for v in weights]

    def state(value):
        # ONNX's [D, B, H], or [B, D, H] with layout = 1; rlx's [D, B, H].
        return self.transpose(self.tensor(value), [1, 0, 2]) \
            if batch_first else self.tensor(value)

    if h0 is not None:
        options["h0"] = state(h0)
    if op_type == "LSTM" and (h0 is not None or c0 is not None):
        # rlx.lstm takes both initial states or neither: zeros for the
        # one not given.
        given = state(h0 if h0 is not None else c0)
        zeros = b.expand(self.constant_of(np.zeros((1, 1, 1)), given.dtype),
                         like=given, shape=list(given.shape))
        options["h0"] = options.get("h0", zeros)
        options["c0"] = state(c0) if c0 is not None else zeros
    reverse = direction == "reverse"
    if reverse:
        # rlx's ops run one direction forward, or both: a lone reverse
        # direction is the forward one over the reversed sequence, its
        # output reversed back.
        x = b.reverse(x, axes=[time_axis])
    results = getattr(b, op_type.lower())(
        x, weights, bidirectional=directions == 2 or None,
        batch_first=batch_first or None, **options)
    outputs = []
    wanted = list(self.node.output) + [""] * 3
    if wanted[0]:
        # rlx's [T, B, D*H] ([B, T, D*H] batch first) as ONNX's Y,
        # [T, D, B, H] ([B, T, D, H] with layout = 1).
        y = results[0]
        if reverse:
            y = b.reverse(y, axes=[time_axis])
        y = self.reshape(y, list(y.shape[:2]) + [directions, hidden])
        outputs.append(y if batch_first else self.transpose(y, [0, 2, 1, 3]))
    else:
        outputs.append(None)
    for result in results[1:]:
        outputs.append(self.transpose(result, [1, 0, 2]) if batch_first
                       else result)
    return outputs


SUPPORTED_OPS = frozenset(_HANDLERS)


def from_onnx(model_or_path, *, input_shapes=None, constant_inputs=None,
              initializers="constants", name="main"):
    """An rlx.Graph computing ONNX model `model_or_path` (a ModelProto or a
    file path), its function named `name`.

    input_shapes: {input name: [sizes]} overriding the model's input shapes
      (None or "?" for a size known at run time).
    constant_inputs: {input name: array} fixing inputs to values, which
      become constants: for inputs that ops need to know while importing
      (a Reshape's shape, a TopK's K, a Resize's sizes).
    initializers: "constants" (weights become rlx.constant ops) or "inputs"
      (floating-point initializers become inputs of the graph after the
      model's own, under their names; integer ones stay constants, as they
      are shapes, axes and indices).

    Raises OnnxImportError naming the node, or its subclass
    UnsupportedOnnxError for an op, attribute value or element type the
    importer does not map to rlx."""
    import onnx
    if initializers not in ("constants", "inputs"):
        raise ValueError(f"initializers = {initializers!r}: expected "
                         "'constants' or 'inputs'")
    model = model_or_path if isinstance(model_or_path, onnx.ModelProto) \
        else onnx.load(model_or_path)
    return _Importer(model, input_shapes, constant_inputs, initializers,
                     name).run()
