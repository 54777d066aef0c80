# -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "RLX"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test", ".py"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "Inputs", "lib"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.rlx_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%rlx_src_root", config.rlx_src_root))
# `--param rlx_runtime_dir=DIR` (make check-sanitize): the runtime's tools,
# test binaries and fixtures come from DIR, a sanitized build of runtime/;
# the compiler stays that of this build.
runtime_dir = lit_config.params.get("rlx_runtime_dir")
runtime_tools_dir = os.path.join(runtime_dir, "bin") if runtime_dir else config.rlx_tools_dir
if runtime_dir:
    config.rlx_lib_dir = os.path.join(runtime_dir, "lib")
    for name in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
        if name in os.environ:
            config.environment[name] = os.environ[name]
config.substitutions.append(("%rlx_lib_dir", config.rlx_lib_dir))
config.substitutions.append(("%rlx_obj_root", config.rlx_obj_root))
# The numerical oracle (PyTorch, numpy) lives in Debian's interpreter, not in
# whatever python3 comes first on PATH.
config.substitutions.append(("%oracle_python", "/usr/bin/python3"))
# The compilers of this build, for test/Integration's client project.
config.substitutions.append(("%cc", config.c_compiler))
config.substitutions.append(("%cxx", config.cxx_compiler))
config.substitutions.append(("%mlir_include_dir", config.mlir_include_dir))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

tool_dirs = [config.rlx_tools_dir, config.llvm_tools_dir]
tools = [
    "rlx-opt",
    "rlx-compile",
    "rlx-lsp-server",
    "rlx-reduce",
    ToolSubst("mlir-translate", unresolved="fatal"),
]
llvm_config.add_tool_substitutions(tools, tool_dirs)
llvm_config.add_tool_substitutions(
    ["rlx-run", "rlx-runtime-test", "rlx-cuda-test", "rlx-capi-test"],
    [runtime_tools_dir, config.rlx_tools_dir])
llvm_config.with_environment("PATH", config.rlx_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PYTHONPATH", os.path.join(config.rlx_src_root, "python"), append_path=True)
llvm_config.with_environment("RLX_BUILD_DIR", config.rlx_obj_root)

if config.ptxas and os.path.exists(config.ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", config.ptxas))
# GPU kernels link libdevice from the CUDA toolkit found at configure time.
if config.cuda_path and os.path.exists(
        os.path.join(config.cuda_path, "nvvm", "libdevice", "libdevice.10.bc")):
    config.available_features.add("cuda-toolkit")
# Mesh modules (rlx-compile --mesh) link the MPI found at configure time and
# run under its mpirun (docs/distributed.md).
if config.mpi_library and config.mpirun and os.path.exists(config.mpirun):
    config.available_features.add("mpi")
try:
    import subprocess
    subprocess.run(["/usr/bin/python3", "-c", "import torch, numpy"],
                   check=True, capture_output=True)
    config.available_features.add("torch")
except Exception:
    pass
# The ONNX importer's tests: Debian's python3-onnx, and libonnx-testdata's
# backend node tests.
try:
    subprocess.run(["/usr/bin/python3", "-c", "import onnx"],
                   check=True, capture_output=True)
    if os.path.isdir("/usr/share/libonnx-testdata/data/node"):
        config.available_features.add("onnx")
except Exception:
    pass
