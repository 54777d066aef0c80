"""The PTX check of a Suite: every case compiles for the GPU, and ptxas
assembles every kernel it gets, for each chip.

With RLX_TESTING_PTX set (e.g. "sm_80,sm_90"), Suite.run() does this instead
of running the cases: it compiles the suite's module with `rlx-compile
--target=cuda --chip=C --emit=ptx` for each chip C, splits the output into
its kernel modules (named `<function>_kernel[_N]` by gpu-kernel-outlining)
and assembles each with ptxas (RLX_PTXAS, else `ptxas` on PATH) for C. A
case passes when it compiled and all its kernels assembled for every chip;
a case that does not compile within the module is compiled alone to report
its own error. Nothing runs on a GPU: this is what a machine without one can
check.
"""
import os
import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor

from . import COMPILE_TIMEOUT_S, TOOLS, _failure

MODULE_SEPARATOR = re.compile(r"^//--- (\w+)\.ptx$", re.M)


def chips():
    value = os.environ.get("RLX_TESTING_PTX", "")
    return [c for c in value.split(",") if c]


def _ptxas():
    return os.environ.get("RLX_PTXAS") or shutil.which("ptxas")


def _compile(texts, path, chip, compile_args):
    """(PTX text, None) or (None, why rlx-compile failed) for the module
    of the distinct `texts`."""
    with open(path + ".mlir", "w") as f:
        f.write("\n".join(dict.fromkeys(texts)))
    try:
        proc = subprocess.run(
            [os.path.join(TOOLS, "rlx-compile"), path + ".mlir",
             "--target=cuda", f"--chip={chip}", "--emit=ptx",
             "-o", path + ".ptx"] + list(compile_args),
            capture_output=True, text=True, timeout=COMPILE_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return None, f"rlx-compile timed out after {COMPILE_TIMEOUT_S} s"
    if proc.returncode:
        return None, _failure("rlx-compile", proc)
    with open(path + ".ptx") as f:
        return f.read(), None


def _kernels(ptx):
    """{module name: PTX text} of an --emit=ptx output."""
    parts = MODULE_SEPARATOR.split(ptx)
    return dict(zip(parts[1::2], parts[2::2]))


def _owner(module, names):
    """The case whose function `module` was outlined from."""
    match = re.fullmatch(r"(\w+?)_kernel(_\d+)?", module)
    return match.group(1) if match and match.group(1) in names else None


def _assemble(ptxas, chip, path, text):
    with open(path, "w") as f:
        f.write(text)
    proc = subprocess.run([ptxas, f"-arch={chip}", path, "-o", path + ".cubin"],
                          capture_output=True, text=True)
    return None if proc.returncode == 0 else _failure("ptxas", proc)


def check_module(text, tmp, name, report):
    """Records as `name` whether module `text` compiles for every chip and
    ptxas assembles all its kernels: the check for tests that compile whole
    modules themselves rather than through a Suite."""
    ptxas = _ptxas()
    if not ptxas:
        report.record(name, "no ptxas (set RLX_PTXAS)")
        return
    failure = None
    for chip in chips():
        base = os.path.join(tmp, f"{name}_{chip}")
        ptx, failure = _compile([text], base, chip, [])
        if failure:
            failure = f"{chip}: {failure}"
            break
        for module, kernel in _kernels(ptx).items():
            failure = _assemble(ptxas, chip, f"{base}_{module}.ptx", kernel)
            if failure:
                failure = f"{chip} {module}: {failure}"
                break
        if failure:
            break
    report.record(name, failure)


def check(suite, tmp, report):
    ptxas = _ptxas()
    # Kernels are named after functions; the runs of a dynamic case share
    # one.
    names = {c.function for c in suite.cases}
    failures = {}
    if not ptxas:
        for c in suite.cases:
            report.record(c.name, "no ptxas (set RLX_PTXAS)")
        return
    for chip in chips():
        base = os.path.join(tmp, chip)
        ptx, error = _compile([c.text for c in suite.cases], base, chip,
                              suite.compile_args)
        if error:
            # Find the cases that fail alone; the rest make the module.
            with ThreadPoolExecutor(os.cpu_count()) as pool:
                errors = list(pool.map(lambda c: _compile(
                    [c.text], os.path.join(tmp, f"{chip}_{c.name}"), chip,
                    suite.compile_args)[1], suite.cases))
            for c, e in zip(suite.cases, errors):
                if e:
                    failures.setdefault(c.function, f"{chip}: {e}")
            good = [c for c in suite.cases if c.function not in failures]
            ptx, error = _compile([c.text for c in good], base, chip,
                                  suite.compile_args) if good else ("", None)
            if error:
                for c in good:
                    failures.setdefault(c.function, f"{chip}: {error}")
                continue
        kernels = _kernels(ptx)
        for module in kernels:
            if _owner(module, names) is None:
                raise RuntimeError(f"kernel module {module} has no case")
        with ThreadPoolExecutor(os.cpu_count()) as pool:
            errors = list(pool.map(
                lambda item: _assemble(ptxas, chip,
                                       os.path.join(tmp, item[0] + ".ptx"),
                                       item[1]), kernels.items()))
        for module, e in zip(kernels, errors):
            if e:
                failures.setdefault(_owner(module, names),
                                    f"{chip} {module}: {e}")
    for c in suite.cases:
        report.record(c.name, failures.get(c.function))
