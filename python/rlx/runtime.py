"""The rlx C runtime (librlx_runtime.so) from Python, through ctypes.

A module that rlx-compile produced is loaded with `load`; its functions take
numpy arrays (or CPU torch tensors) and return numpy arrays. Inputs are
passed without copies where they are C-contiguous already, and outputs are
numpy arrays the function writes into directly. Every check is the
runtime's (counts, dtypes, shapes against the manifest, symbolic sizes), and
its status becomes an `Error` carrying the runtime's message.

ctypes rather than a C extension: nothing to build against Python's headers,
and the call overhead is measured in docs/python.md.
"""

import ctypes
import os

import numpy as np

__all__ = ["Error", "Module", "Function", "BoundCall", "load", "set_num_threads",
           "get_num_threads", "library_path"]


class Error(RuntimeError):
    """A failed runtime call: `code` is the status name (e.g.
    "SHAPE_MISMATCH"), the message the runtime's."""

    def __init__(self, code, message):
        super().__init__(f"{code}: {message}")
        self.code = code


class _TensorType(ctypes.Structure):
    _fields_ = [("dtype", ctypes.c_int), ("rank", ctypes.c_size_t),
                ("dims", ctypes.POINTER(ctypes.c_int64))]


class _Mesh(ctypes.Structure):
    """rlx_mesh_t (RLX_MESH_MAX_RANK = 4)."""
    _fields_ = [("rank", ctypes.c_size_t),
                ("dims", ctypes.POINTER(ctypes.c_int64)),
                ("num_processes", ctypes.c_size_t),
                ("process", ctypes.c_size_t),
                ("coords", ctypes.c_int64 * 4)]


# rlx_dtype_t, in enum order, with the numpy type of each; bf16 has none and
# travels as float32 (converted by the runtime's rlx_convert). c64 and c128
# are numpy's complex64 and complex128: the same {real, imaginary} pairs.
_DTYPES = ["f32", "f16", "bf16", "f64", "i8", "i16", "i32", "i64", "i1",
           "c64", "c128"]
_NUMPY = {"f32": np.float32, "f16": np.float16, "bf16": np.float32,
          "f64": np.float64, "i8": np.int8, "i16": np.int16, "i32": np.int32,
          "i64": np.int64, "i1": np.bool_, "c64": np.complex64,
          "c128": np.complex128}
_FROM_NUMPY = {np.dtype(t): name for name, t in _NUMPY.items()
               if name != "bf16"}
_DIM_DYNAMIC = -1


def library_path():
    """The runtime library: $RLX_RUNTIME_LIBRARY, else lib/ of the build
    directory ($RLX_BUILD_DIR, else build/ beside this source tree)."""
    if os.environ.get("RLX_RUNTIME_LIBRARY"):
        return os.environ["RLX_RUNTIME_LIBRARY"]
    return os.path.join(build_dir(), "lib", "librlx_runtime.so")


def build_dir():
    """$RLX_BUILD_DIR; else the install prefix this package was installed
    into (`cmake --install`: PREFIX/python/rlx beside PREFIX/lib); else
    build/ at the root of this source tree."""
    if os.environ.get("RLX_BUILD_DIR"):
        return os.environ["RLX_BUILD_DIR"]
    root = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    if os.path.exists(os.path.join(root, "lib", "librlx_runtime.so")):
        return root
    return os.path.join(root, "build")


_lib = None


def _library():
    global _lib
    if _lib is not None:
        return _lib
    path = library_path()
    if not os.path.exists(path):
        raise Error("NOT_FOUND", f"the rlx runtime library is not at {path} "
                    "(build the project, or set RLX_BUILD_DIR or "
                    "RLX_RUNTIME_LIBRARY)")
    lib = ctypes.CDLL(path)
    status, ptr, size = ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t
    dims = ctypes.POINTER(ctypes.c_int64)
    signatures = {
        "rlx_status_code": (ctypes.c_int, [status]),
        "rlx_status_message": (ctypes.c_char_p, [status]),
        "rlx_status_free": (None, [status]),
        "rlx_status_code_name": (ctypes.c_char_p, [ctypes.c_int]),
        "rlx_set_num_threads": (status, [size]),
        "rlx_get_num_threads": (size, []),
        "rlx_module_load": (status, [ctypes.c_char_p, ctypes.POINTER(ptr)]),
        "rlx_module_free": (None, [ptr]),
        "rlx_module_mesh": (status, [ptr, ctypes.POINTER(_Mesh)]),
        "rlx_module_function_count": (size, [ptr]),
        "rlx_module_function_at": (status, [ptr, size, ctypes.POINTER(ptr)]),
        "rlx_module_lookup": (status, [ptr, ctypes.c_char_p,
                                       ctypes.POINTER(ptr)]),
        "rlx_function_name": (ctypes.c_char_p, [ptr]),
        "rlx_function_num_inputs": (size, [ptr]),
        "rlx_function_num_outputs": (size, [ptr]),
        "rlx_function_input_type": (status, [ptr, size,
                                             ctypes.POINTER(_TensorType)]),
        "rlx_function_output_type": (status, [ptr, size,
                                              ctypes.POINTER(_TensorType)]),
        "rlx_function_input_dim_expr": (ctypes.c_char_p, [ptr, size, size]),
        "rlx_function_output_dim_expr": (ctypes.c_char_p, [ptr, size, size]),
        "rlx_function_output_dims": (status, [ptr, ctypes.POINTER(ptr), size,
                                              size, dims]),
        "rlx_function_num_symbols": (size, [ptr]),
        "rlx_function_symbol_name": (ctypes.c_char_p, [ptr, size]),
        "rlx_function_input_dims": (status, [ptr, dims, size, size, dims]),
        "rlx_function_invoke": (status, [ptr, ctypes.POINTER(ptr), size,
                                         ctypes.POINTER(ptr), size]),
        "rlx_tensor_wrap": (status, [ctypes.c_int, size, dims, ptr, size,
                                     ctypes.POINTER(ptr)]),
        "rlx_tensor_free": (None, [ptr]),
        "rlx_convert": (status, [ctypes.c_int, ptr, ctypes.c_int, ptr, size]),
    }
    for name, (restype, argtypes) in signatures.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = restype, argtypes
    _lib = lib
    return lib


def _check(status):
    """Raises the `Error` of a non-NULL status (and frees it)."""
    if not status:
        return
    lib = _library()
    code = lib.rlx_status_code(status)
    name = lib.rlx_status_code_name(code).decode()
    message = lib.rlx_status_message(status).decode(errors="replace")
    lib.rlx_status_free(status)
    raise Error(name.removeprefix("RLX_STATUS_"), message)


def set_num_threads(count):
    """Threads of every later call (0: one per online core)."""
    _check(_library().rlx_set_num_threads(count))


def get_num_threads():
    return _library().rlx_get_num_threads()


def _as_array(value):
    """`value` as a numpy array: torch tensors are viewed (detached, on the
    CPU), anything else goes through numpy.asarray."""
    if type(value).__module__.startswith("torch"):
        value = value.detach().cpu().numpy()
    return np.asarray(value)


class _Wrapped:
    """rlx tensors wrapping numpy arrays, freed on close; the arrays are
    kept alive with them."""

    def __init__(self):
        self.handles, self.arrays = [], []

    def add(self, array, dtype_name):
        lib = _library()
        dims = (ctypes.c_int64 * max(array.ndim, 1))(*array.shape)
        handle = ctypes.c_void_p()
        _check(lib.rlx_tensor_wrap(
            _DTYPES.index(dtype_name), array.ndim, dims,
            array.ctypes.data if array.nbytes else None, array.nbytes,
            ctypes.byref(handle)))
        self.handles.append(handle)
        self.arrays.append(array)
        return handle

    def pointers(self):
        return (ctypes.c_void_p * max(len(self.handles), 1))(*self.handles)

    def close(self):
        for handle in self.handles:
            _library().rlx_tensor_free(handle)
        self.handles.clear()


def _to_bf16(array):
    """float32 values as bf16 bits (uint16), rounded by the runtime."""
    source = np.require(array, np.float32, "C")
    bits = np.empty(source.shape, np.uint16)
    _check(_library().rlx_convert(
        _DTYPES.index("f32"), source.ctypes.data, _DTYPES.index("bf16"),
        bits.ctypes.data, source.size))
    return bits


def _from_bf16(bits):
    values = np.empty(bits.shape, np.float32)
    _check(_library().rlx_convert(
        _DTYPES.index("bf16"), bits.ctypes.data, _DTYPES.index("f32"),
        values.ctypes.data, bits.size))
    return values


class Function:
    """A function of a loaded module; call it with one array per input."""

    def __init__(self, module, handle):
        lib = _library()
        self._module, self._handle = module, handle
        self.name = lib.rlx_function_name(handle).decode()
        self.inputs = [self._type(lib.rlx_function_input_type, i, "input")
                       for i in range(lib.rlx_function_num_inputs(handle))]
        self.outputs = [self._type(lib.rlx_function_output_type, i, "output")
                        for i in range(lib.rlx_function_num_outputs(handle))]
        self.symbols = [lib.rlx_function_symbol_name(handle, i).decode()
                        for i in range(lib.rlx_function_num_symbols(handle))]

    def _type(self, getter, index, role):
        """(dtype name, dims with symbolic dims as their expression)."""
        lib = _library()
        ttype = _TensorType()
        _check(getter(self._handle, index, ctypes.byref(ttype)))
        expr = (lib.rlx_function_input_dim_expr if role == "input"
                else lib.rlx_function_output_dim_expr)
        dims = []
        for d in range(ttype.rank):
            size = ttype.dims[d]
            dims.append(expr(self._handle, index, d).decode()
                        if size == _DIM_DYNAMIC else size)
        return _DTYPES[ttype.dtype], tuple(dims)

    def input_shapes(self, *sizes):
        """The input shapes with the function's `?` sizes (its `symbols`, in
        that order) set to `sizes`: the shapes of arrays to call it with."""
        lib = _library()
        if len(sizes) != len(self.symbols):
            raise Error("INVALID_ARGUMENT",
                        f"'{self.name}' has {len(self.symbols)} symbols "
                        f"({', '.join(self.symbols)}), got {len(sizes)} sizes")
        values = (ctypes.c_int64 * max(len(sizes), 1))(*sizes)
        shapes = []
        for index, (_, dims) in enumerate(self.inputs):
            shape = (ctypes.c_int64 * max(len(dims), 1))()
            _check(lib.rlx_function_input_dims(self._handle, values,
                                               len(sizes), index, shape))
            shapes.append(tuple(shape[:len(dims)]))
        return shapes

    def signature(self):
        """e.g. "f(f32[S,4], f32[4]) -> (f32[S,4])"."""
        def fmt(types):
            return ", ".join(f"{d}[{','.join(map(str, s))}]" for d, s in types)
        return f"{self.name}({fmt(self.inputs)}) -> ({fmt(self.outputs)})"

    def __repr__(self):
        return f"<rlx.Function {self.signature()}>"

    def __call__(self, *args):
        """Runs the function; returns its output (a tuple of them when it has
        several). Arrays of the signature's dtype that are C-contiguous are
        read in place; others are copied to that layout first. bf16 inputs
        and outputs are float32 arrays."""
        call = self.bind(*args)
        try:
            call()
            return call.results()
        finally:
            call.close()

    def bind(self, *args):
        """A `BoundCall` of the function on these inputs: the inputs wrapped
        and the outputs allocated once, so that each run is one call into
        the runtime (for a function called in a loop on the same buffers)."""
        lib = _library()
        if len(args) != len(self.inputs):
            raise Error("INVALID_ARGUMENT",
                        f"'{self.name}' takes {len(self.inputs)} inputs, "
                        f"got {len(args)}")
        inputs, outputs = _Wrapped(), _Wrapped()
        try:
            for value, (dtype, _) in zip(args, self.inputs):
                array = _as_array(value)
                if dtype == "bf16" and array.dtype == np.float32:
                    inputs.add(_to_bf16(array), "bf16")
                    continue
                name = _FROM_NUMPY.get(array.dtype)
                if name is None:
                    raise Error("DTYPE_MISMATCH",
                                f"'{self.name}': numpy dtype {array.dtype} "
                                "has no rlx element type")
                inputs.add(np.require(array, requirements="C"), name)
            pointers = inputs.pointers()
            for index, (dtype, dims) in enumerate(self.outputs):
                shape = (ctypes.c_int64 * max(len(dims), 1))()
                _check(lib.rlx_function_output_dims(
                    self._handle, pointers, len(self.inputs), index, shape))
                storage = np.uint16 if dtype == "bf16" else _NUMPY[dtype]
                outputs.add(np.empty(tuple(shape[:len(dims)]), storage), dtype)
        except BaseException:
            inputs.close()
            outputs.close()
            raise
        return BoundCall(self, inputs, outputs)


class BoundCall:
    """A function bound to its inputs and output buffers (`Function.bind`):
    calling it runs the function again; `results()` are the outputs of the
    last run. The input arrays must not change shape; their values may."""

    def __init__(self, function, inputs, outputs):
        self._function, self._inputs, self._outputs = function, inputs, outputs
        self._args = (function._handle, inputs.pointers(),
                      len(inputs.handles), outputs.pointers(),
                      len(outputs.handles))

    def __call__(self):
        if self._args is None:
            raise Error("INVALID_ARGUMENT",
                        f"a closed call of '{self._function.name}'")
        _check(_library().rlx_function_invoke(*self._args))

    def results(self):
        """The outputs (a tuple when there are several): the buffers the
        function writes, as numpy arrays (bf16 ones converted to float32)."""
        outputs = [_from_bf16(a) if dtype == "bf16" else a
                   for a, (dtype, _) in zip(self._outputs.arrays,
                                            self._function.outputs)]
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    def close(self):
        """Frees the runtime's tensors (the arrays stay valid); the call
        cannot run again."""
        self._args = None
        self._inputs.close()
        self._outputs.close()

    def __del__(self):
        if _lib is not None and "_inputs" in self.__dict__:
            self.close()


class Module:
    """A compiled module (the .so rlx-compile writes), loaded; its functions
    are `module["name"]` or attributes, valid while the module is.

    A mesh module runs once per MPI process (`mpirun -np N python ...`):
    `mesh` is its shape (`()` for an ordinary module), `num_processes` its
    size and `process` this process's rank. Its functions take whole
    inputs; an output split over the mesh is this process's block."""

    def __init__(self, path):
        lib = _library()
        self.path = os.fspath(path)
        handle = ctypes.c_void_p()
        _check(lib.rlx_module_load(self.path.encode(), ctypes.byref(handle)))
        self._handle = handle
        mesh = _Mesh()
        _check(lib.rlx_module_mesh(handle, ctypes.byref(mesh)))
        self.mesh = tuple(mesh.dims[i] for i in range(mesh.rank))
        self.num_processes, self.process = mesh.num_processes, mesh.process
        self.functions = {}
        for i in range(lib.rlx_module_function_count(handle)):
            fn = ctypes.c_void_p()
            _check(lib.rlx_module_function_at(handle, i, ctypes.byref(fn)))
            function = Function(self, fn)
            self.functions[function.name] = function

    def __getitem__(self, name):
        if name not in self.functions:
            raise Error("NOT_FOUND", f"no function '{name}' in {self.path} "
                        f"(it has: {', '.join(self.functions)})")
        return self.functions[name]

    def __getattr__(self, name):
        if name.startswith("_") or name not in self.__dict__.get(
                "functions", {}):
            raise AttributeError(name)
        return self.functions[name]

    def __repr__(self):
        return f"<rlx.Module {self.path}: {', '.join(self.functions)}>"

    def __del__(self):
        handle = self.__dict__.get("_handle")
        if handle and _lib is not None:
            _lib.rlx_module_free(handle)
            self._handle = None


def load(path):
    """Loads a module that rlx-compile produced."""
    return Module(path)
