"""Building rlx graphs from Python.

    g = rlx.Graph("mlp")
    x = g.tensor([32, 4], "f32", name="x")
    w = g.tensor([4, 16], name="w")
    y = g.tanh(g.matmul(x, w))
    g.output(y)
    exe = g.compile()
    out = exe(x=np.ones((32, 4), np.float32), w=np.ones((4, 16), np.float32))

A Graph is one func.func being built through MLIR's C API (_mlir.py). Its
op methods are not written here: one is made per op of the rlx dialect from
the op specifications that the build writes from the ODS definitions
(tools/rlx-op-specs), so an op added to the dialect is a method here with
no change to this file. Each op is created with its result types inferred
by the op itself and verified as it is added, so a shape error is raised at
the line that made it, with the verifier's message.
"""

import ctypes
import inspect
import json
import keyword
import os
import sys
import threading

import numpy as np

from . import _mlir
from .compiler import compile as _compile
from .runtime import build_dir, set_num_threads

__all__ = ["Graph", "GraphError", "Tensor", "Executable", "op_specs"]


class GraphError(ValueError):
    """An op that cannot be added: its verifier's or type inference's
    diagnostics, located at the Python line that added it."""

    def __init__(self, message, diagnostics=()):
        super().__init__(message)
        self.diagnostics = list(diagnostics)


# Element type names: MLIR's, with numpy's and torch's spellings accepted.
_DTYPE_ALIASES = {
    "float32": "f32", "float": "f32", "float16": "f16", "half": "f16",
    "bfloat16": "bf16", "float64": "f64", "double": "f64", "int8": "i8",
    "int16": "i16", "int32": "i32", "int64": "i64", "long": "i64",
    "int": "i32", "bool": "i1", "uint8": "ui8",
    # Complex elements: the runtime's c64 and c128, numpy's and torch's
    # complex64 and complex128.
    "c64": "complex<f32>", "complex64": "complex<f32>",
    "c128": "complex<f64>", "complex128": "complex<f64>",
}
_NUMPY_DTYPES = {"f32": np.float32, "f16": np.float16, "f64": np.float64,
                 "i8": np.int8, "i16": np.int16, "i32": np.int32,
                 "i64": np.int64, "i1": np.bool_, "ui8": np.uint8,
                 "bf16": np.float32}

# Attribute kinds whose ODS default values are plain numbers.
_NUMERIC = {"i64": int, "f64": float}


def dtype_name(dtype):
    """The MLIR element type name of `dtype` ("f32", np.float32,
    torch.float32, ...)."""
    if isinstance(dtype, str):
        return _DTYPE_ALIASES.get(dtype, dtype)
    text = str(dtype)
    if text.startswith("torch."):
        return _DTYPE_ALIASES.get(text[6:], text[6:])
    try:
        return _DTYPE_ALIASES[np.dtype(dtype).name]
    except TypeError:
        raise TypeError(f"not an element type: {dtype!r}") from None


def _is_float(dtype):
    return dtype.startswith("f") or dtype == "bf16"


class Tensor:
    """A value of a graph: an input, a constant or an op's result."""

    __slots__ = ("graph", "value", "shape", "dtype")

    def __init__(self, graph, value):
        a = _mlir.api()
        self.graph = graph
        self.value = value
        type_ = a.mlirValueGetType(value)
        dynamic = a.mlirShapedTypeGetDynamicSize()
        self.shape = tuple(
            None if d == dynamic else d
            for d in (a.mlirShapedTypeGetDimSize(type_, i)
                      for i in range(a.mlirShapedTypeGetRank(type_))))
        self.dtype = _mlir.print_type(a.mlirShapedTypeGetElementType(type_))

    @property
    def rank(self):
        return len(self.shape)

    def __repr__(self):
        dims = "x".join("?" if d is None else str(d) for d in self.shape)
        return f"Tensor<{dims + 'x' if dims else ''}{self.dtype}>"

    # Arithmetic builds rlx ops; Python numbers become constants of this
    # tensor's element type.
    def __add__(self, other):
        return self.graph.add(self, other)

    def __radd__(self, other):
        return self.graph.add(other, self)

    def __sub__(self, other):
        return self.graph.sub(self, other)

    def __rsub__(self, other):
        return self.graph.sub(other, self)

    def __mul__(self, other):
        return self.graph.mul(self, other)

    def __rmul__(self, other):
        return self.graph.mul(other, self)

    def __truediv__(self, other):
        return self.graph.div(self, other)

    def __rtruediv__(self, other):
        return self.graph.div(other, self)

    def __pow__(self, other):
        return self.graph.pow(self, other)

    def __matmul__(self, other):
        return self.graph.matmul(self, other)

    def __neg__(self):
        return self.graph.neg(self)


def _spec_path():
    return os.environ.get("RLX_OP_SPECS") or os.path.join(
        build_dir(), "python", "rlx_ops.json")


_specs = None


def op_specs():
    """{op name: specification} of the rlx ops, as the build wrote them."""
    global _specs
    if _specs is None:
        path = _spec_path()
        if not os.path.exists(path):
            raise FileNotFoundError(
                f"{path} not found (build the project, or set RLX_BUILD_DIR "
                f"or RLX_OP_SPECS)")
        with open(path) as f:
            _specs = {spec["name"]: spec for spec in json.load(f)["ops"]}
    return _specs


_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def _caller_location():
    """file:line of the first frame outside this package."""
    frame = sys._getframe(1)
    while frame and os.path.dirname(
            os.path.abspath(frame.f_code.co_filename)) == _PACKAGE_DIR:
        frame = frame.f_back
    if frame is None:
        return None
    # The column of the call (Python 3.11's positions; 1-based as MLIR's).
    positions = list(frame.f_code.co_positions())
    index = frame.f_lasti // 2
    column = positions[index][2] if index < len(positions) else None
    return frame.f_code.co_filename, frame.f_lineno, (column or 0) + 1


class Graph:
    """One function of rlx ops under construction. `name` is its symbol
    (the compiled module's function)."""

    _lock = threading.RLock()

    def __init__(self, name="main"):
        if not name.isidentifier():
            raise ValueError(f"graph name {name!r} is not an identifier")
        _install_op_methods()
        self.name = name
        self._ctx = _mlir.context()
        a = _mlir.api()
        ctx = self._ctx.context
        self._module = a.mlirModuleCreateEmpty(a.mlirLocationUnknownGet(ctx))
        self._block = a.mlirBlockCreate(0, None, None)
        region = a.mlirRegionCreate()
        a.mlirRegionAppendOwnedBlock(region, self._block)
        state = _mlir.operation_state("func.func",
                                        self._location(None))
        attributes = (_mlir.NamedAttribute * 2)(
            self._named("sym_name", a.mlirStringAttrGet(
                ctx, _mlir.StringRef.of(name))),
            self._named("function_type", a.mlirTypeAttrGet(
                a.mlirFunctionTypeGet(ctx, 0, None, 0, None))))
        a.mlirOperationStateAddAttributes(ctypes.byref(state), 2, attributes)
        regions = (_mlir.Region * 1)(region)
        a.mlirOperationStateAddOwnedRegions(ctypes.byref(state), 1, regions)
        self._function = a.mlirOperationCreate(ctypes.byref(state))
        a.mlirBlockAppendOwnedOperation(a.mlirModuleGetBody(self._module),
                                        self._function)
        self._return = None
        self.inputs = []
        self.input_names = []
        self.outputs = []
        self._extra_functions = []

    def __del__(self):
        module = getattr(self, "_module", None)
        if module:
            _mlir.api().mlirModuleDestroy(module)

    # -- building -----------------------------------------------------------

    def _named(self, name, attribute):
        a = _mlir.api()
        return _mlir.NamedAttribute(
            a.mlirIdentifierGet(self._ctx.context, _mlir.StringRef.of(name)),
            attribute)

    def _location(self, loc):
        """An MLIR location: `loc` ((file, line[, column]) or a name), else
        the Python line that called into the package."""
        a = _mlir.api()
        ctx = self._ctx.context
        if isinstance(loc, str):
            return a.mlirLocationNameGet(ctx, _mlir.StringRef.of(loc),
                                         a.mlirLocationUnknownGet(ctx))
        if loc is None:
            loc = _caller_location()
            if loc is None:
                return a.mlirLocationUnknownGet(ctx)
        file, line, *column = loc
        return a.mlirLocationFileLineColGet(
            ctx, _mlir.StringRef.of(str(file)), int(line),
            int(column[0]) if column else 0)

    def _parse_attribute(self, text, what):
        """MLIR attribute `text`; a GraphError naming `what` if it does not
        parse."""
        a = _mlir.api()
        with Graph._lock, self._ctx.capture as capture:
            attribute = a.mlirAttributeParseGet(self._ctx.context,
                                                _mlir.StringRef.of(text))
        if not attribute:
            raise GraphError(f"{what} = {text!r} does not parse: " +
                             "; ".join(capture.messages), capture.messages)
        return attribute

    def tensor_type(self, shape, dtype):
        a = _mlir.api()
        dtype = dtype_name(dtype)
        with Graph._lock, self._ctx.capture:
            element = a.mlirTypeParseGet(self._ctx.context,
                                         _mlir.StringRef.of(dtype))
        if not element:
            raise TypeError(f"not an element type: {dtype!r}")
        dynamic = a.mlirShapedTypeGetDynamicSize()
        dims = [dynamic if d is None or d == "?" else int(d) for d in shape]
        if any(d < 0 and d != dynamic for d in dims):
            raise ValueError(f"negative size in shape {list(shape)}")
        array = (ctypes.c_int64 * len(dims))(*dims)
        return a.mlirRankedTensorTypeGet(len(dims), array, element,
                                         _mlir.Attribute())

    def tensor(self, shape, dtype="f32", name=None):
        """A new input of the graph: `shape` a list of sizes (None or "?"
        for a size known at run time), `dtype` an element type."""
        a = _mlir.api()
        if self._return is not None:
            raise GraphError(f"graph '{self.name}' has its outputs already; "
                             "add inputs before g.output()")
        name = name or f"arg{len(self.inputs)}"
        if not name.isidentifier() or name in self.input_names:
            raise ValueError(f"input name {name!r} is not a new identifier")
        value = a.mlirBlockAddArgument(
            self._block, self.tensor_type(shape, dtype),
            self._location(name))
        tensor = Tensor(self, value)
        self.inputs.append(tensor)
        self.input_names.append(name)
        return tensor

    def constant(self, value, dtype=None, loc=None):
        """A constant tensor of `value` (an array, a number or nested lists);
        `dtype` defaults to the array's."""
        array = np.asarray(value.detach().cpu().numpy()
                           if hasattr(value, "detach") else value)
        dtype = dtype_name(dtype) if dtype is not None else \
            _DTYPE_ALIASES.get(array.dtype.name, array.dtype.name)
        attribute = self._elements(array, dtype)
        return self.op("rlx.constant", [], {"value": attribute},
                       result_types=[(array.shape, dtype)], loc=loc)[0]

    def _elements(self, array, dtype):
        a = _mlir.api()
        type_ = self.tensor_type(array.shape, dtype)
        if dtype == "bf16":
            bits = np.require(array, np.float32, "C").view(np.uint32)
            # Round to nearest even, NaN kept quiet.
            rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16)
            rounded = np.where(np.isnan(array), 0x7FC0, rounded)
            data = np.require(rounded, np.uint16, "C")
        elif dtype == "i1":
            # i1 raw buffers are bit-packed, not a byte per element: text.
            text = np.array2string(
                np.asarray(array, bool), separator=",",
                threshold=sys.maxsize).replace("True", "true").replace(
                "False", "false")
            return self._parse_attribute(
                f"dense<{text}> : {_mlir.print_type(type_)}", "constant")
        else:
            if dtype not in _NUMPY_DTYPES:
                raise TypeError(f"no constants of element type {dtype}")
            data = np.require(array, _NUMPY_DTYPES[dtype], "C")
        return a.mlirDenseElementsAttrRawBufferGet(
            type_, data.nbytes, data.ctypes.data)

    def _as_tensor(self, value, like, loc):
        if isinstance(value, Tensor):
            if value.graph is not self:
                raise GraphError("a tensor of another graph was used")
            return value
        dtype = like.dtype if like is not None else None
        if dtype is None and isinstance(value, float):
            dtype = "f32"
        return self.constant(value, dtype=dtype, loc=loc)

    def op(self, name, operands, attributes=None, result_types=None,
           loc=None):
        """Adds op `name` ("rlx.add") with `operands` (Tensors), `attributes`
        ({name: MLIR attribute or attribute text}) and `result_types`
        ([(shape, dtype)], or None for the op to infer them). Returns its
        results. The op methods call this; it is public for ops made outside
        the rlx dialect's specifications."""
        a = _mlir.api()
        location = self._location(loc)
        named = []
        for key, attribute in (attributes or {}).items():
            if isinstance(attribute, str):
                attribute = self._parse_attribute(attribute,
                                                  f"{name}: attribute {key}")
            named.append(self._named(key, attribute))
        values = [t.value for t in operands]
        with Graph._lock, self._ctx.capture as capture:
            state = _mlir.operation_state(name, location)
            state_ptr = ctypes.byref(state)
            if values:
                a.mlirOperationStateAddOperands(
                    state_ptr, len(values), (_mlir.Value * len(values))(*values))
            if named:
                a.mlirOperationStateAddAttributes(
                    state_ptr, len(named),
                    (_mlir.NamedAttribute * len(named))(*named))
            if result_types is None:
                a.mlirOperationStateEnableResultTypeInference(state_ptr)
            else:
                types = [self.tensor_type(s, d) for s, d in result_types]
                a.mlirOperationStateAddResults(
                    state_ptr, len(types), (_mlir.Type * len(types))(*types))
            operation = a.mlirOperationCreate(state_ptr)
            if not operation:
                raise GraphError(self._message(name, capture),
                                 capture.messages)
            self._insert(operation)
            if not a.mlirOperationVerify(operation):
                a.mlirOperationRemoveFromParent(operation)
                a.mlirOperationDestroy(operation)
                raise GraphError(self._message(name, capture),
                                 capture.messages)
        results = [Tensor(self, a.mlirOperationGetResult(operation, i))
                   for i in range(a.mlirOperationGetNumResults(operation))]
        return results

    @staticmethod
    def _message(name, capture):
        if not capture.messages:
            return f"{name}: the op is not valid"
        return "\n".join(capture.messages)

    def _insert(self, operation):
        a = _mlir.api()
        if self._return is None:
            a.mlirBlockAppendOwnedOperation(self._block, operation)
        else:
            a.mlirBlockInsertOwnedOperationBefore(self._block, self._return,
                                                  operation)

    def output(self, *tensors):
        """Sets the graph's results (again replaces them)."""
        a = _mlir.api()
        if not tensors:
            raise GraphError("a graph needs at least one output")
        tensors = [self._as_tensor(t, None, None) for t in tensors]
        if self._return is not None:
            a.mlirOperationRemoveFromParent(self._return)
            a.mlirOperationDestroy(self._return)
            self._return = None
        state = _mlir.operation_state("func.return",
                                        self._location(None))
        values = [t.value for t in tensors]
        a.mlirOperationStateAddOperands(ctypes.byref(state), len(values),
                                        (_mlir.Value * len(values))(*values))
        self._return = a.mlirOperationCreate(ctypes.byref(state))
        a.mlirBlockAppendOwnedOperation(self._block, self._return)
        self.outputs = list(tensors)
        inputs = [a.mlirValueGetType(t.value) for t in self.inputs]
        results = [a.mlirValueGetType(t.value) for t in tensors]
        function_type = a.mlirFunctionTypeGet(
            self._ctx.context, len(inputs), (_mlir.Type * len(inputs))(*inputs),
            len(results), (_mlir.Type * len(results))(*results))
        a.mlirOperationSetInherentAttributeByName(
            self._function, _mlir.StringRef.of("function_type"),
            a.mlirTypeAttrGet(function_type))

    def function_text(self, attributes=None):
        """The graph's func.func as MLIR text, with the discardable
        `attributes` ({name: MLIR attribute text}) set on it in the text
        only (rlx.grad marks the function to differentiate this way)."""
        a = _mlir.api()
        self._check_outputs()
        names = []
        try:
            for name, text in (attributes or {}).items():
                attribute = self._parse_attribute(text, f"attribute {name}")
                a.mlirOperationSetDiscardableAttributeByName(
                    self._function, _mlir.StringRef.of(name), attribute)
                names.append(name)
            return _mlir.print_operation(self._function)
        finally:
            for name in names:
                a.mlirOperationRemoveDiscardableAttributeByName(
                    self._function, _mlir.StringRef.of(name))

    def add_function(self, text):
        """Adds MLIR text of functions to the graph's module, as written:
        a training step adds the loss function and its gradient's
        declaration this way."""
        self._extra_functions.append(text)

    def _check_outputs(self):
        if self._return is None:
            raise GraphError(f"graph '{self.name}' has no outputs: call "
                             "g.output(...) first")

    def mlir(self):
        """The graph's module as MLIR text."""
        self._check_outputs()
        text = _mlir.print_operation(
            _mlir.api().mlirModuleGetOperation(self._module))
        if self._extra_functions:
            # The printed module ends with its closing brace.
            body = text.rstrip()[:-1]
            text = body + "\n".join(self._extra_functions) + "\n}\n"
        return text

    def __str__(self):
        return self.mlir()

    def compile(self, target="cpu", fuse=True, threads=None, **options):
        """Compiles the graph (rlx.compile: cached on disk) into an
        Executable. `threads` is the runtime's thread count for its calls
        (None: the runtime's); `options` are rlx.compile's."""
        module = _compile(self.mlir(), target=target, fuse=fuse, **options)
        return Executable(module, self.name, list(self.input_names),
                          threads=threads)


class Executable:
    """A compiled graph: `exe(*arrays)` or `exe(name=array, ...)` runs it
    and returns numpy arrays (a tuple for several outputs)."""

    def __init__(self, module, function_name, input_names, threads=None):
        self.module = module
        self.function = module[function_name]
        self.input_names = input_names
        self.threads = threads

    def _arguments(self, args, kwargs):
        if not kwargs:
            return args
        if args:
            raise TypeError("give the inputs by position or by name, "
                            "not both")
        unknown = sorted(set(kwargs) - set(self.input_names))
        if unknown:
            raise TypeError(f"unknown input(s) {', '.join(unknown)}; the "
                            f"inputs are {', '.join(self.input_names)}")
        missing = [n for n in self.input_names if n not in kwargs]
        if missing:
            raise TypeError(f"missing input(s) {', '.join(missing)}")
        return [kwargs[n] for n in self.input_names]

    def __call__(self, *args, **kwargs):
        if self.threads is not None:
            set_num_threads(self.threads)
        return self.function(*self._arguments(args, kwargs))

    def bind(self, *args, **kwargs):
        """The runtime's bound call (Function.bind) on these inputs."""
        if self.threads is not None:
            set_num_threads(self.threads)
        return self.function.bind(*self._arguments(args, kwargs))

    def __repr__(self):
        return f"Executable({self.function.signature()})"


# -- op methods, one per op specification -----------------------------------

def _python_name(name):
    return name + "_" if keyword.iskeyword(name) else name


def _attribute(graph, op, spec, value):
    """The MLIR attribute of Python `value` for attribute `spec`."""
    a = _mlir.api()
    ctx = graph._ctx.context
    kind = spec["kind"]
    if isinstance(value, _mlir.Attribute):
        return value
    if kind == "i64" or kind == "i32":
        return a.mlirIntegerAttrGet(a.mlirIntegerTypeGet(ctx, int(kind[1:])),
                                    int(value))
    if kind in ("f64", "f32"):
        return a.mlirFloatAttrDoubleGet(
            ctx, a.mlirF64TypeGet(ctx) if kind == "f64" else
            a.mlirTypeParseGet(ctx, _mlir.StringRef.of("f32")), float(value))
    if kind == "bool":
        return a.mlirBoolAttrGet(ctx, 1 if value else 0)
    if kind == "unit":
        return a.mlirUnitAttrGet(ctx) if value else None
    if kind == "string":
        return a.mlirStringAttrGet(ctx, _mlir.StringRef.of(str(value)))
    if kind == "i64_array":
        values = [int(v) for v in (value if np.ndim(value) else [value])]
        return a.mlirDenseI64ArrayGet(ctx, len(values),
                                      (ctypes.c_int64 * len(values))(*values))
    if kind == "enum":
        cases = spec["cases"]
        key = value if isinstance(value, str) else None
        if key is None or key not in cases:
            raise GraphError(
                f"rlx.{op}: {spec['name']} = {value!r} is not one of "
                f"{', '.join(cases)}")
        return a.mlirIntegerAttrGet(
            a.mlirIntegerTypeGet(ctx, spec.get("bitwidth", 32)), cases[key])
    if kind == "elements":
        array = np.asarray(value)
        return graph._elements(array, dtype_name(array.dtype))
    # Any other attribute: MLIR attribute text.
    return graph._parse_attribute(str(value), f"rlx.{op}: {spec['name']}")


def _make_method(spec):
    name = spec["name"]
    operands = spec["operands"]
    attributes = {a["name"]: a for a in spec["attributes"]}
    op_name = "rlx." + name

    infers = _mlir.context().infers_result_types(op_name)

    def method(self, *args, loc=None, **kwargs):
        result_types = kwargs.pop("result_types", None)
        shape = kwargs.pop("shape", None) if not infers else None
        dtype = kwargs.pop("dtype", None) if not infers else None
        # Operands: positionally in ODS order, or by name.
        given = list(args)
        if len(operands) == 1 and operands[0]["kind"] == "variadic" and \
                len(given) > 1:
            given = [given]
        if len(given) > len(operands):
            raise TypeError(f"{name}() takes {len(operands)} operand(s), "
                            f"{len(given)} given")
        values = {}
        for spec_, arg in zip(operands, given):
            values[spec_["name"]] = arg
        for spec_ in operands[len(given):]:
            if spec_["name"] in kwargs:
                values[spec_["name"]] = kwargs.pop(spec_["name"])
        unknown = [k for k in kwargs if k not in attributes]
        if unknown:
            raise TypeError(
                f"{name}() has no attribute or operand {unknown[0]!r} "
                f"(operands: {', '.join(o['name'] for o in operands) or '-'}"
                f"; attributes: {', '.join(attributes) or '-'})")
        like = next((v for v in values.values() if isinstance(v, Tensor)),
                    None)
        flat, segments = [], []
        for spec_ in operands:
            value = values.get(spec_["name"])
            if spec_["kind"] == "variadic":
                group = [self._as_tensor(v, like, loc) for v in (value or [])]
            elif value is None:
                if spec_["kind"] != "optional":
                    raise TypeError(f"{name}() needs operand "
                                    f"{spec_['name']!r}")
                group = []
            else:
                group = [self._as_tensor(value, like, loc)]
            flat += group
            segments.append(len(group))
        mlir_attributes = {}
        for key, attribute_spec in attributes.items():
            value = kwargs.get(key)
            if value is None:
                if attribute_spec["required"]:
                    raise TypeError(f"{name}() needs attribute {key!r}")
                # The C API infers result types from the attributes given,
                # before an op fills in its default-valued ones: pass them.
                default = attribute_spec.get("default")
                if default is None or attribute_spec["kind"] not in _NUMERIC:
                    continue
                value = _NUMERIC[attribute_spec["kind"]](default)
            attribute = _attribute(self, name, attribute_spec, value)
            if attribute is not None:
                mlir_attributes[key] = attribute
        if spec["operand_segments"]:
            mlir_attributes["operandSegmentSizes"] = "array<i32: " + \
                ", ".join(str(s) for s in segments) + ">"
        if result_types is None and not infers:
            first = flat[0] if flat else None
            if shape is None and first is None:
                raise TypeError(f"{name}() needs shape= (its result type is "
                                "not inferred)")
            if dtype is None and first is None:
                raise TypeError(f"{name}() needs dtype= (its result type is "
                                "not inferred)")
            shape = list(first.shape if shape is None else shape)
            dtype = first.dtype if dtype is None else dtype_name(dtype)
            if shape.count(-1) == 1 and first is not None and \
                    None not in first.shape:
                known = int(np.prod([d for d in shape if d != -1]))
                shape[shape.index(-1)] = \
                    int(np.prod(first.shape)) // max(known, 1)
            result_types = [(shape, dtype)]
        results = self.op(op_name, flat, mlir_attributes,
                          result_types=result_types, loc=loc)
        return results[0] if len(results) == 1 else tuple(results)

    parameters = [inspect.Parameter("self",
                                    inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    # Optional and variadic operands default to None where no required
    # operand follows them.
    trailing = len(operands)
    while trailing and operands[trailing - 1]["kind"] != "single":
        trailing -= 1
    for i, operand in enumerate(operands):
        parameters.append(inspect.Parameter(
            operand["name"], inspect.Parameter.POSITIONAL_OR_KEYWORD,
            default=None if i >= trailing else inspect.Parameter.empty))
    for key, attribute_spec in attributes.items():
        parameters.append(inspect.Parameter(
            key, inspect.Parameter.KEYWORD_ONLY,
            default=inspect.Parameter.empty if attribute_spec["required"]
            else None))
    if not infers:
        for key in ("shape", "dtype", "result_types"):
            parameters.append(inspect.Parameter(
                key, inspect.Parameter.KEYWORD_ONLY, default=None))
    parameters.append(inspect.Parameter("loc", inspect.Parameter.KEYWORD_ONLY,
                                        default=None))
    method.__signature__ = inspect.Signature(parameters)
    method.__name__ = _python_name(name)
    method.__qualname__ = "Graph." + method.__name__
    lines = [f"rlx.{name}: {spec['summary']}."]
    for key, attribute_spec in attributes.items():
        detail = attribute_spec["kind"]
        if detail == "enum":
            detail = "one of " + ", ".join(attribute_spec["cases"])
        lines.append(f"  {key}: {detail}"
                     f"{'' if attribute_spec['required'] else ' (optional)'}")
    if not infers:
        lines.append("The result type is not inferred: shape= and dtype= "
                     "(default: the first operand's), or result_types=[(shape, "
                     "dtype), ...].")
    method.__doc__ = "\n".join(lines)
    return method


_installed = False


def _install_op_methods():
    """Adds the op methods to Graph: at import when the build's op
    specifications are there, else on the first Graph() (which then says
    where they were looked for)."""
    global _installed
    if _installed:
        return
    for spec in op_specs().values():
        if spec["regions"] or spec["name"] == "yield":
            continue  # region ops are formed by fusion, not built by hand
        if _python_name(spec["name"]) in Graph.__dict__:
            continue  # built by a method of its own (constant)
        setattr(Graph, _python_name(spec["name"]), _make_method(spec))
    _installed = True


if os.path.exists(_spec_path()):
    _install_op_methods()
