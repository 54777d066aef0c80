"""The part of MLIR's C API the graph builder uses, through ctypes over
librlx-c (MLIR's C API with the rlx dialect, lib/CAPI).

Debian ships no MLIR Python bindings; this module declares the C functions
the builder calls (contexts, types, attributes, operation states, blocks,
verification, diagnostics and printing) and nothing else. The handles are
MLIR's one-pointer structs, passed and returned by value."""

import ctypes
import os
import threading

from .runtime import build_dir


class _Handle(ctypes.Structure):
    _fields_ = [("ptr", ctypes.c_void_p)]

    def __bool__(self):
        return bool(self.ptr)


class Context(_Handle):
    pass


class DialectRegistry(_Handle):
    pass


class DialectHandle(_Handle):
    pass


class Location(_Handle):
    pass


class Type(_Handle):
    pass


class Attribute(_Handle):
    pass


class Identifier(_Handle):
    pass


class Operation(_Handle):
    pass


class Block(_Handle):
    pass


class Region(_Handle):
    pass


class Value(_Handle):
    pass


class Module(_Handle):
    pass


class Diagnostic(_Handle):
    pass


class TypeID(_Handle):
    pass


class OpPrintingFlags(_Handle):
    pass


class StringRef(ctypes.Structure):
    _fields_ = [("data", ctypes.c_char_p), ("length", ctypes.c_size_t)]

    @staticmethod
    def of(text):
        data = text.encode() if isinstance(text, str) else text
        return StringRef(data, len(data))


class LogicalResult(ctypes.Structure):
    _fields_ = [("value", ctypes.c_int8)]


class NamedAttribute(ctypes.Structure):
    _fields_ = [("name", Identifier), ("attribute", Attribute)]


class OperationState(ctypes.Structure):
    _fields_ = [
        ("name", StringRef), ("location", Location),
        ("nResults", ctypes.c_ssize_t), ("results", ctypes.POINTER(Type)),
        ("nOperands", ctypes.c_ssize_t), ("operands", ctypes.POINTER(Value)),
        ("nRegions", ctypes.c_ssize_t), ("regions", ctypes.POINTER(Region)),
        ("nSuccessors", ctypes.c_ssize_t),
        ("successors", ctypes.POINTER(Block)),
        ("nAttributes", ctypes.c_ssize_t),
        ("attributes", ctypes.POINTER(NamedAttribute)),
        ("enableResultTypeInference", ctypes.c_bool),
    ]


# A string callback receives a StringRef by value. A diagnostic handler
# returns MlirLogicalResult, a one-byte struct, which the x86-64 and AArch64
# C ABIs return exactly as an int8_t (ctypes callbacks return no structs).
StringCallback = ctypes.CFUNCTYPE(None, StringRef, ctypes.c_void_p)
DiagnosticHandler = ctypes.CFUNCTYPE(ctypes.c_int8, Diagnostic,
                                     ctypes.c_void_p)

_c_ssize = ctypes.c_ssize_t
_SIGNATURES = {
    "mlirContextCreateWithThreading": (Context, [ctypes.c_bool]),
    "mlirDialectRegistryCreate": (DialectRegistry, []),
    "mlirDialectRegistryDestroy": (None, [DialectRegistry]),
    "mlirContextAppendDialectRegistry": (None, [Context, DialectRegistry]),
    "mlirContextGetOrLoadDialect": (ctypes.c_void_p, [Context, StringRef]),
    "rlxRegisterDialects": (None, [DialectRegistry]),
    "mlirContextAttachDiagnosticHandler": (
        ctypes.c_uint64,
        [Context, DiagnosticHandler, ctypes.c_void_p, ctypes.c_void_p]),
    "mlirDiagnosticPrint": (None, [Diagnostic, StringCallback,
                                   ctypes.c_void_p]),
    "mlirDiagnosticGetLocation": (Location, [Diagnostic]),
    "mlirDiagnosticGetSeverity": (ctypes.c_int, [Diagnostic]),
    "mlirDiagnosticGetNumNotes": (_c_ssize, [Diagnostic]),
    "mlirDiagnosticGetNote": (Diagnostic, [Diagnostic, _c_ssize]),
    "mlirLocationPrint": (None, [Location, StringCallback, ctypes.c_void_p]),
    "mlirLocationUnknownGet": (Location, [Context]),
    "mlirLocationFileLineColGet": (Location, [Context, StringRef,
                                              ctypes.c_uint, ctypes.c_uint]),
    "mlirLocationNameGet": (Location, [Context, StringRef, Location]),
    "mlirTypeParseGet": (Type, [Context, StringRef]),
    "mlirTypePrint": (None, [Type, StringCallback, ctypes.c_void_p]),
    "mlirAttributeParseGet": (Attribute, [Context, StringRef]),
    "mlirAttributePrint": (None, [Attribute, StringCallback,
                                  ctypes.c_void_p]),
    "mlirIdentifierGet": (Identifier, [Context, StringRef]),
    "mlirIntegerTypeGet": (Type, [Context, ctypes.c_uint]),
    "mlirF64TypeGet": (Type, [Context]),
    "mlirIntegerAttrGet": (Attribute, [Type, ctypes.c_int64]),
    "mlirFloatAttrDoubleGet": (Attribute, [Context, Type, ctypes.c_double]),
    "mlirBoolAttrGet": (Attribute, [Context, ctypes.c_int]),
    "mlirUnitAttrGet": (Attribute, [Context]),
    "mlirStringAttrGet": (Attribute, [Context, StringRef]),
    "mlirTypeAttrGet": (Attribute, [Type]),
    "mlirDenseI64ArrayGet": (Attribute, [Context, _c_ssize,
                                         ctypes.POINTER(ctypes.c_int64)]),
    "mlirDenseElementsAttrRawBufferGet": (
        Attribute, [Type, ctypes.c_size_t, ctypes.c_void_p]),
    "mlirRankedTensorTypeGet": (Type, [_c_ssize,
                                       ctypes.POINTER(ctypes.c_int64), Type,
                                       Attribute]),
    "mlirShapedTypeGetRank": (_c_ssize, [Type]),
    "mlirShapedTypeGetDimSize": (ctypes.c_int64, [Type, _c_ssize]),
    "mlirShapedTypeGetElementType": (Type, [Type]),
    "mlirShapedTypeGetDynamicSize": (ctypes.c_int64, []),
    "mlirFunctionTypeGet": (Type, [Context, _c_ssize, ctypes.POINTER(Type),
                                   _c_ssize, ctypes.POINTER(Type)]),
    "mlirOperationStateGet": (OperationState, [StringRef, Location]),
    "mlirOperationStateAddResults": (None, [ctypes.POINTER(OperationState),
                                            _c_ssize, ctypes.POINTER(Type)]),
    "mlirOperationStateAddOperands": (None, [ctypes.POINTER(OperationState),
                                             _c_ssize,
                                             ctypes.POINTER(Value)]),
    "mlirOperationStateAddOwnedRegions": (
        None, [ctypes.POINTER(OperationState), _c_ssize,
               ctypes.POINTER(Region)]),
    "mlirOperationStateAddAttributes": (
        None, [ctypes.POINTER(OperationState), _c_ssize,
               ctypes.POINTER(NamedAttribute)]),
    "mlirOperationStateEnableResultTypeInference": (
        None, [ctypes.POINTER(OperationState)]),
    "mlirOperationCreate": (Operation, [ctypes.POINTER(OperationState)]),
    "mlirOperationDestroy": (None, [Operation]),
    "mlirOperationRemoveFromParent": (None, [Operation]),
    "mlirOperationVerify": (ctypes.c_bool, [Operation]),
    "mlirOperationGetNumResults": (_c_ssize, [Operation]),
    "mlirOperationGetResult": (Value, [Operation, _c_ssize]),
    "mlirOperationPrintWithFlags": (None, [Operation, OpPrintingFlags,
                                           StringCallback, ctypes.c_void_p]),
    "mlirOpPrintingFlagsCreate": (OpPrintingFlags, []),
    "mlirOpPrintingFlagsAssumeVerified": (None, [OpPrintingFlags]),
    "mlirOpPrintingFlagsDestroy": (None, [OpPrintingFlags]),
    "mlirOperationSetInherentAttributeByName": (
        None, [Operation, StringRef, Attribute]),
    "mlirOperationSetDiscardableAttributeByName": (
        None, [Operation, StringRef, Attribute]),
    "mlirOperationRemoveDiscardableAttributeByName": (
        ctypes.c_bool, [Operation, StringRef]),
    "mlirValueGetType": (Type, [Value]),
    "mlirBlockCreate": (Block, [_c_ssize, ctypes.POINTER(Type),
                                ctypes.POINTER(Location)]),
    "mlirBlockAddArgument": (Value, [Block, Type, Location]),
    "mlirBlockAppendOwnedOperation": (None, [Block, Operation]),
    "mlirBlockInsertOwnedOperationBefore": (None, [Block, Operation,
                                                   Operation]),
    "mlirRegionCreate": (Region, []),
    "mlirRegionAppendOwnedBlock": (None, [Region, Block]),
    "mlirModuleCreateEmpty": (Module, [Location]),
    "mlirModuleGetBody": (Block, [Module]),
    "mlirModuleGetOperation": (Operation, [Module]),
    "mlirModuleDestroy": (None, [Module]),
    "mlirInferTypeOpInterfaceTypeID": (TypeID, []),
    "mlirOperationImplementsInterfaceStatic": (ctypes.c_bool,
                                               [StringRef, Context, TypeID]),
}


def library_path():
    """librlx-c.so of the build directory ($RLX_CAPI_LIBRARY overrides)."""
    return os.environ.get("RLX_CAPI_LIBRARY") or os.path.join(
        build_dir(), "lib", "librlx-c.so")


class _Api:
    """The C functions, declared on first use of the library."""

    def __init__(self):
        path = library_path()
        if not os.path.exists(path):
            raise FileNotFoundError(
                f"{path} not found (build the project, or set RLX_BUILD_DIR "
                f"or RLX_CAPI_LIBRARY)")
        library = ctypes.CDLL(path)
        for name, (restype, argtypes) in _SIGNATURES.items():
            function = getattr(library, name)
            function.restype = restype
            function.argtypes = argtypes
            setattr(self, name, function)


_api = None
_context = None
_lock = threading.RLock()


def api():
    global _api
    if _api is None:
        with _lock:
            if _api is None:
                _api = _Api()
    return _api


class DiagnosticCapture:
    """Collects the diagnostics the context reports while active, as
    `location: severity: message` lines (notes indented below)."""

    SEVERITY = {0: "error", 1: "warning", 2: "note", 3: "remark"}

    def __init__(self):
        self.messages = []
        self.depth = 0

    def __enter__(self):
        if self.depth == 0:
            self.messages = []
        self.depth += 1
        return self

    def __exit__(self, *exc):
        self.depth -= 1

    def handle(self, diagnostic, _):
        if not self.depth:
            return 0  # not handled: MLIR prints it to stderr
        self.messages.append(format_diagnostic(diagnostic))
        return 1


def _collect(printer, handle):
    parts = []

    @StringCallback
    def append(text, _):
        parts.append(ctypes.string_at(text.data, text.length).decode())

    printer(handle, append, None)
    return "".join(parts)


def format_diagnostic(diagnostic, indent=""):
    a = api()
    location = _collect(a.mlirLocationPrint,
                        a.mlirDiagnosticGetLocation(diagnostic))
    severity = DiagnosticCapture.SEVERITY.get(
        a.mlirDiagnosticGetSeverity(diagnostic), "error")
    text = f"{indent}{location_text(location)}: {severity}: " \
        f"{_collect(a.mlirDiagnosticPrint, diagnostic)}"
    for i in range(a.mlirDiagnosticGetNumNotes(diagnostic)):
        text += "\n" + format_diagnostic(a.mlirDiagnosticGetNote(diagnostic, i),
                                         indent + "  ")
    return text


def location_text(printed):
    """`loc("file":3:4)` as file:3:4, `loc("name"("file":3:4))` as
    file:3:4 (name), `loc(unknown)` as <unknown>."""
    text = printed
    if text.startswith("loc(") and text.endswith(")"):
        text = text[4:-1]
    if text == "unknown":
        return "<unknown>"
    name = None
    if text.startswith('"') and '"(' in text:
        name, text = text[1:].split('"(', 1)
        text = text[:-1]
    if text.startswith('"'):
        file, _, rest = text[1:].partition('"')
        text = file + rest
    return f"{text} ({name})" if name else text


def operation_state(name, location):
    """An MlirOperationState for op `name` at `location`. The state points
    into the bytes of `name`, which it keeps alive."""
    name_ref = StringRef.of(name)
    state = api().mlirOperationStateGet(name_ref, location)
    state.name_bytes = name_ref
    return state


def print_operation(operation):
    """`operation` in its custom form. The builder verifies each op as it is
    added; the module as a whole may not verify (a training step calls a
    gradient function that rlx-compile defines), so the printer does not
    verify it again, which would fall back to the generic form."""
    a = api()
    flags = a.mlirOpPrintingFlagsCreate()
    a.mlirOpPrintingFlagsAssumeVerified(flags)
    try:
        return _collect(
            lambda op, callback, data: a.mlirOperationPrintWithFlags(
                op, flags, callback, data), operation)
    finally:
        a.mlirOpPrintingFlagsDestroy(flags)


def print_type(type_):
    return _collect(api().mlirTypePrint, type_)


def print_attribute(attribute):
    return _collect(api().mlirAttributePrint, attribute)


class _SharedContext:
    """One MLIR context for the process, with rlx's dialects loaded and a
    diagnostic handler that a DiagnosticCapture switches on. MLIR's own
    threading stays off: the builder creates one op at a time."""

    def __init__(self):
        a = api()
        self.context = a.mlirContextCreateWithThreading(False)
        registry = a.mlirDialectRegistryCreate()
        a.rlxRegisterDialects(registry)
        a.mlirContextAppendDialectRegistry(self.context, registry)
        a.mlirDialectRegistryDestroy(registry)
        # The registry holds what rlx's pipelines lower through; a graph is
        # written with these.
        for dialect in ("rlx", "func", "arith", "tensor"):
            a.mlirContextGetOrLoadDialect(self.context,
                                          StringRef.of(dialect))
        self.capture = DiagnosticCapture()
        self._handler = DiagnosticHandler(self.capture.handle)
        a.mlirContextAttachDiagnosticHandler(self.context, self._handler,
                                             None, None)
        self._infers = {}

    def infers_result_types(self, op_name):
        if op_name not in self._infers:
            a = api()
            self._infers[op_name] = a.mlirOperationImplementsInterfaceStatic(
                StringRef.of(op_name), self.context,
                a.mlirInferTypeOpInterfaceTypeID())
        return self._infers[op_name]


def context():
    """The process's shared context (created on first use)."""
    global _context
    if _context is None:
        with _lock:
            if _context is None:
                _context = _SharedContext()
    return _context
