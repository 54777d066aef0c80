"""rlx from Python: build rlx graphs, compile them (or MLIR text), load
compiled modules and call their functions on numpy arrays
(docs/python.md)."""

from .graph import Executable, Graph, GraphError, Tensor
from .onnx_import import OnnxImportError, UnsupportedOnnxError, from_onnx
from .compiler import cache_dir, compile, compile_file, compiler_path
from .train import SGD, Adam, Gradient, Trainer, grad, train_step
from .runtime import (BoundCall, Error, Function, Module, get_num_threads,
                      load, set_num_threads)

__all__ = ["Adam", "BoundCall", "Error", "Executable", "Function", "Gradient",
           "Graph", "GraphError", "Module", "OnnxImportError", "SGD", "Tensor",
           "Trainer", "UnsupportedOnnxError", "cache_dir", "compile",
           "compile_file", "compiler_path", "from_onnx", "from_torch",
           "get_num_threads", "grad", "load", "set_num_threads",
           "train_step"]


def __getattr__(name):
    # The PyTorch importer imports torch, which `import rlx` does not need.
    if name == "from_torch":
        from .torch_import import from_torch
        return from_torch
    raise AttributeError(f"module 'rlx' has no attribute {name!r}")
