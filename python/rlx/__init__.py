"""rlx from Python: build rlx graphs, compile them (or MLIR text), load
compiled modules and call their functions on numpy arrays
(docs/python.md)."""

from .graph import Executable, Graph, GraphError, Tensor
from .compiler import cache_dir, compile, compile_file, compiler_path
from .runtime import (BoundCall, Error, Function, Module, get_num_threads,
                      load, set_num_threads)

__all__ = ["BoundCall", "Error", "Executable", "Function", "Graph",
           "GraphError", "Module", "Tensor", "cache_dir", "compile",
           "compile_file", "compiler_path", "get_num_threads", "load",
           "set_num_threads"]
