"""Fusion checks: a module compiled fused (the default) and with --no-fuse
must give the same bits in the strict floating-point mode (--strict-fp),
and match a PyTorch reference, as must the fused module in the default mode
(which contracts multiply-adds into FMAs, so its bits may differ).

Each `Case` names a function of a .mlir file, input draws and a float64
reference. `run_case` compiles the file three ways (once per file), checks
with --kernel-report that fusion did not add loop nests (and removed some,
unless told otherwise), optionally checks what --rlx-form-regions and
--rlx-fuse-patterns form, then runs every draw both ways: the outputs must
be identical bit for bit (same dtype, shape and bytes, so NaN positions and
signed zeros too) and match the reference within tolerance.

With RLX_TEST_TARGET=cuda (see rlx_testing) the modules are compiled for
CUDA; the loop-nest counts come from the CPU pipeline's kernel report, so
that check is skipped, and every other check applies. With RLX_TEST_RECORD
the checks that need no run are made and the runs are recorded
(rlx_testing.recorded).
"""
import os
import re
import subprocess
from collections import Counter

import numpy as np
import torch

from rlx_testing import TOOLS, compare, recorded, run_function, target_args

RECORD_DIR = os.environ.get("RLX_TEST_RECORD")


def compile_module(src, so, fuse, strict):
    """Compiles `src` to `so`; returns {function: loop nests}, which only
    the CPU pipeline reports (empty for other targets). `strict`: with
    --strict-fp, which only the CPU pipeline has (other targets round every
    operation as written already)."""
    args = [os.path.join(TOOLS, "rlx-compile"), src, "-o", so] + (
        target_args() or ["--kernel-report"])
    if not fuse:
        args.append("--no-fuse")
    if strict and not target_args():
        args.append("--strict-fp")
    proc = subprocess.run(args, capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        raise RuntimeError(f"rlx-compile failed:\n{proc.stderr[-2000:]}")
    return {m[0]: int(m[1]) for m in
            re.findall(r"remark: '(\w+)' has (\d+) loop nests?", proc.stderr)}


def region_result_counts(src):
    """Result counts of the rlx.regions --rlx-form-regions makes in `src`."""
    proc = subprocess.run([os.path.join(TOOLS, "rlx-opt"), src,
                           "--rlx-form-regions"],
                          capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        raise RuntimeError(f"rlx-opt failed:\n{proc.stderr[-2000:]}")
    return [int(m.group(1) or 1) for m in
            re.finditer(r"%\w+(?::(\d+))? = rlx\.region", proc.stdout)]


def identical(a, b):
    """None if a and b are the same array bit for bit, else a reason."""
    if a.dtype != b.dtype or a.shape != b.shape:
        return f"fused {a.dtype}{list(a.shape)} vs unfused {b.dtype}{list(b.shape)}"
    if a.tobytes() == b.tobytes():
        return None
    bad = np.frombuffer(a.tobytes(), np.uint8).reshape(a.size, -1) != \
        np.frombuffer(b.tobytes(), np.uint8).reshape(b.size, -1)
    bad = bad.any(axis=1)
    i = int(np.argmax(bad))
    return (f"fused != unfused at {int(bad.sum())}/{a.size} elements; first "
            f"at flat index {i}: {a.flat[i]!r} vs {b.flat[i]!r}")


def fused_op_counts(src, function):
    """{op name: count} of the named fused ops --rlx-fuse-patterns makes in
    `function` of `src`."""
    proc = subprocess.run([os.path.join(TOOLS, "rlx-opt"), src,
                           "--rlx-fuse-patterns"],
                          capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        raise RuntimeError(f"rlx-opt failed:\n{proc.stderr[-2000:]}")
    parts = proc.stdout.split(f"func.func @{function}(", 1)
    if len(parts) != 2:
        raise RuntimeError(f"no function @{function} in {src}")
    body = parts[1].split("func.func @", 1)[0]
    return Counter(re.findall(r"= (rlx\.\w+)", body))


class Case:
    def __init__(self, name, src, function, draws, reference, tol,
                 fewer_nests=True, min_region_results=None, fused_ops=()):
        """draws: list of input lists (one run each); reference(*float64
        torch tensors) -> output or tuple; tol per compare(); fewer_nests:
        fusion must reduce the loop-nest count; min_region_results: the
        formed regions must include one with at least this many results;
        fused_ops: ops --rlx-fuse-patterns must form in the function (each
        as often as listed). Cases may share `src`: it compiles once."""
        self.name, self.src, self.function = name, src, function
        self.draws, self.reference, self.tol = draws, reference, tol
        self.fewer_nests = fewer_nests
        self.min_region_results = min_region_results
        self.fused_ops = Counter(fused_ops)


_compiled = {}  # (src, fuse, strict) -> (.so, {function: loop nests})


def compiled(src, tmp, fuse, strict=True):
    """`src` compiled fused or not, in the strict floating-point mode or
    not (once each): the .so and its loop-nest counts."""
    key = (src, fuse, strict)
    if key not in _compiled:
        so = (f"{tmp}/m{len(_compiled)}_{'fused' if fuse else 'unfused'}"
              f"{'_strict' if strict else ''}.so")
        _compiled[key] = so, compile_module(src, so, fuse, strict)
    return _compiled[key]


def run_case(case, tmp, report):
    try:
        so, nests = {}, {}
        for fuse in (True, False):
            so[fuse], nests[fuse] = compiled(case.src, tmp, fuse)
        # The default floating-point mode, fused (the same module as the
        # strict one where no target has a strict mode).
        so["default"] = (compiled(case.src, tmp, True, strict=False)[0]
                         if not target_args() else so[True])
        fused_n = nests[True].get(case.function)
        unfused_n = nests[False].get(case.function)
        if not target_args():  # Only the CPU pipeline counts loop nests.
            if fused_n is None or unfused_n is None:
                raise RuntimeError(f"no kernel report for {case.function}")
            if fused_n > unfused_n or (case.fewer_nests and
                                       fused_n >= unfused_n):
                raise RuntimeError(f"fused has {fused_n} loop nests, "
                                   f"unfused {unfused_n}")
        if case.min_region_results:
            counts = region_result_counts(case.src)
            if not counts or max(counts) < case.min_region_results:
                raise RuntimeError(f"expected a region with >= "
                                   f"{case.min_region_results} results, "
                                   f"got result counts {counts}")
        if case.fused_ops:
            formed = fused_op_counts(case.src, case.function)
            missing = case.fused_ops - formed
            if missing:
                raise RuntimeError(f"--rlx-fuse-patterns formed "
                                   f"{dict(formed)}, missing {dict(missing)}")
    except Exception as e:
        error = f"{type(e).__name__}: {e}"
        if RECORD_DIR:
            recorded.recorder(RECORD_DIR).case(case.name, case.function, [],
                                               [], None, case.tol, error)
        report.record(case.name, error)
        return
    for k, inputs in enumerate(case.draws):
        if RECORD_DIR:
            def reference(inputs=inputs):
                want = case.reference(*[torch.from_numpy(
                    np.asarray(x, dtype=np.float64)) for x in inputs])
                return list(want) if isinstance(want, tuple) else [want]
            name = f"{case.name}_{k}"
            report.record(name, recorded.recorder(RECORD_DIR).case(
                name, case.function, [so[True], so[False]], inputs,
                reference, case.tol))
            continue
        name = f"{case.name}_{k}" + (
            "" if target_args() else
            f" ({fused_n} vs {unfused_n} loop nests)")
        try:
            got = {mode: run_function(so[mode], case.function, inputs,
                                      f"{tmp}/{case.name}_{k}_{mode}")
                   for mode in (True, False, "default")}
            want = case.reference(*[torch.from_numpy(
                np.asarray(x, dtype=np.float64)) for x in inputs])
            want = want if isinstance(want, tuple) else (want,)
            reason = None
            if len(got[True]) != len(want) or len(got[False]) != len(want):
                reason = (f"{len(got[True])} fused / {len(got[False])} "
                          f"unfused outputs, want {len(want)}")
            for i in range(len(want)):
                if reason:
                    break
                reason = identical(got[True][i], got[False][i])
                for mode, label in ((True, "fused, strict"),
                                    (False, "unfused, strict"),
                                    ("default", "fused")):
                    reason = reason or compare(got[mode][i], want[i],
                                               case.tol)
                    if reason:
                        reason = f"output {i} ({label}): {reason}"
                        break
            report.record(name, reason)
        except Exception as e:
            report.record(name, f"{type(e).__name__}: {e}")
