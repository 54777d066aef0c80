"""rlx from Python: build rlx graphs, compile them (or MLIR text), load
compiled modules and call their functions on numpy arrays
(docs/python.md)."""

from .graph import Executable, Graph, GraphError, Tensor
from .compiler import cache_dir, compile, compile_file, compiler_path
from .train import SGD, Adam, Gradient, Trainer, grad, train_step
from .runtime import (BoundCall, Error, Function, Module, get_num_threads,
                      load, set_num_threads)

__all__ = ["Adam", "BoundCall", "Error", "Executable", "Function", "Gradient",
           "Graph", "GraphError", "Module", "SGD", "Tensor", "Trainer",
           "cache_dir", "compile", "compile_file", "compiler_path",
           "get_num_threads", "grad", "load", "set_num_threads",
           "train_step"]
