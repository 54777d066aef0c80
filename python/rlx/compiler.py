"""Compiling MLIR with rlx ops into a loaded module, cached on disk.

`compile(text)` runs rlx-compile once per distinct input: the .so is kept in
a cache directory under a key of the text, the options and the compiler
binary (its path, size and modification time), so compiling the same graph
again costs a hash and a dlopen.
"""

import hashlib
import json
import os
import subprocess
import tempfile

from .runtime import Error, build_dir, load

__all__ = ["compile", "compile_file", "cache_dir", "compiler_path"]


def compiler_path():
    """rlx-compile: $RLX_COMPILE, else bin/ of the build directory."""
    return os.environ.get("RLX_COMPILE") or os.path.join(
        build_dir(), "bin", "rlx-compile")


def cache_dir():
    """$RLX_CACHE_DIR, else $XDG_CACHE_HOME/rlx (~/.cache/rlx)."""
    if os.environ.get("RLX_CACHE_DIR"):
        return os.environ["RLX_CACHE_DIR"]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache")
    return os.path.join(base, "rlx")


def _options(target, fuse, opt_level, specialize, mesh, data_parallel,
             extra):
    args = [f"--target={target}"]
    if mesh:
        args.append("--mesh=" + ",".join(str(int(n)) for n in mesh))
    for function, arguments in sorted((data_parallel or {}).items()):
        args.append(f"--data-parallel={function}:" +
                    ":".join(str(int(i)) for i in arguments))
    if not fuse:
        args.append("--no-fuse")
    if opt_level is not None:
        args += ["-O", str(int(opt_level))]
    if specialize:
        args.append("--specialize=" + ",".join(
            f"{name}={int(value)}" for name, value in sorted(specialize.items())))
    return args + [str(a) for a in extra]


def compile(text, *, target="cpu", fuse=True, opt_level=None,
            specialize=None, mesh=None, data_parallel=None, link=(),
            options=(), cache=True):
    """Compiles MLIR `text` (a module of func.funcs on rlx ops) and loads it.

    target: "cpu" or "cuda". fuse: rlx's fusion passes (on by default).
    opt_level: LLVM's -O level (rlx-compile's default if None). specialize:
    {symbol: size} fixes `?` sizes (rlx-compile --specialize). link: object
    files, archives or shared libraries with the C functions of the
    module's rlx.custom_calls (rlx-compile --link). mesh: the shape of
    the mesh of MPI processes the module runs on, e.g. (2,) (rlx-compile
    --mesh; load it in every process of `mpirun -np 2`, docs/distributed.md).
    data_parallel: {function: argument indices} whose dimension 0 is split
    over the mesh (rlx-compile --data-parallel). options: more
    rlx-compile arguments. cache: reuse the on-disk cache entry if there
    is one (False compiles again and replaces it).
    A compile error is an `Error` with rlx-compile's diagnostics."""
    compiler = compiler_path()
    if not os.path.exists(compiler):
        raise Error("NOT_FOUND", f"rlx-compile is not at {compiler} (build "
                    "the project, or set RLX_BUILD_DIR or RLX_COMPILE)")
    link = [os.path.abspath(path) for path in link]
    args = _options(target, fuse, opt_level, specialize, mesh, data_parallel,
                    [f"--link={path}" for path in link] + list(options))
    st = os.stat(compiler)
    # A linked file that changes is a new module.
    linked = [(os.stat(path).st_size, os.stat(path).st_mtime_ns)
              for path in link if os.path.exists(path)]
    key = hashlib.sha256(json.dumps(
        [text, args, os.path.realpath(compiler), st.st_size,
         st.st_mtime_ns, linked]).encode()).hexdigest()[:32]
    directory = cache_dir()
    os.makedirs(directory, exist_ok=True)
    module = os.path.join(directory, key + ".so")
    if cache and os.path.exists(module):
        return load(module)
    with tempfile.TemporaryDirectory(dir=directory) as work:
        source = os.path.join(work, "input.mlir")
        with open(source, "w") as f:
            f.write(text)
        partial = os.path.join(work, "module.so")
        proc = subprocess.run([compiler, source, "-o", partial, *args],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise Error("INVALID_ARGUMENT", "rlx-compile failed:\n" +
                        proc.stderr.replace(source, "<input>").strip())
        # Whole files only: a concurrent compile of the same text replaces
        # it with an identical one.
        os.replace(partial, module)
    return load(module)


def compile_file(path, **kwargs):
    """`compile` of the MLIR file at `path`."""
    with open(path) as f:
        return compile(f.read(), **kwargs)
