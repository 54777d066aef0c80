"""rlx from Python: compile MLIR with rlx ops, load compiled modules and call
their functions on numpy arrays (docs/python.md)."""

from .compiler import cache_dir, compile, compile_file, compiler_path
from .runtime import (BoundCall, Error, Function, Module, get_num_threads,
                      load, set_num_threads)

__all__ = ["BoundCall", "Error", "Function", "Module", "cache_dir", "compile",
           "compile_file", "compiler_path", "get_num_threads", "load",
           "set_num_threads"]
