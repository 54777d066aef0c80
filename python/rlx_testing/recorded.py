"""Suites compiled and given their references on one machine, run and checked
on another: the GPU machine of tools/gpu-check.sh --run has no LLVM/MLIR to
compile with and may have no PyTorch.

With RLX_TEST_RECORD=DIR set, the harnesses record instead of running:
Suite.run (record()) and rlx_testing.fusion.run_case compile their modules
as they would (for $RLX_TEST_TARGET, e.g. cuda), run the checks that need
no run (a compile error, fusion's op counts) and save in DIR

  m0.so.gz, ...              the compiled modules, compressed (their
                             embedded PTX is text: about 6x smaller)
  cases.json                 each case's function, modules, numbers of
                             inputs and outputs and tolerance, or why it
                             cannot run (a compile error, a broken reference)
  cases/NAME/in0.npy, ...    its inputs
  cases/NAME/want0.npy, ...  its reference outputs (PyTorch on the CPU, in
                             float64, int64 or bool, as the harness computes)

printing `RECORDED name` or `FAIL name: reason` per case and `N recorded,
M failed`. replay() runs every case of such a directory with rlx-run (from
$RLX_BUILD_DIR/bin) in each of its modules; the outputs of several modules
(fused and unfused) must be identical bit for bit, and each must match the
references through compare(), as in the live harness. It prints what the
harnesses print: `PASS name`, `FAIL name: reason`, `N passed, M failed`,
and exits 1 if a case failed. It needs numpy and rlx-run, nothing else:

  python3 -m rlx_testing.recorded [--jobs N] DIR

A harness that checks one run against another (autodiff.py's finite
differences) cannot be recorded.
"""
import argparse
import gzip
import json
import os
import shutil
import tempfile
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from . import Report, _to_numpy, check_outputs, run_saved, save_inputs

CASES = "cases.json"


class Recorder:
    """Writes a recording directory: cases.json is rewritten after each
    case, so a harness that never says it is done leaves a complete one."""

    def __init__(self, directory):
        self.directory = directory
        self.modules = {}  # path at record time -> name in the directory
        self.cases = []
        os.makedirs(directory, exist_ok=True)

    def module(self, path):
        """The name of the compiled module at `path` in the recording."""
        if path not in self.modules:
            name = f"m{len(self.modules)}.so.gz"
            with open(path, "rb") as src, gzip.open(
                    os.path.join(self.directory, name), "wb") as dst:
                shutil.copyfileobj(src, dst)
            self.modules[path] = name
        return self.modules[path]

    def case(self, name, function, modules, inputs, reference, tol,
             error=None):
        """Records a case: `function` of each of `modules` (paths) on
        `inputs` must give the outputs `reference()` returns (a list),
        within `tol`, or it fails with `error`. Returns the reason it
        cannot run, if any (a broken reference)."""
        entry = {"name": name, "function": function, "modules": [],
                 "inputs": len(inputs), "outputs": 0,
                 "tol": list(tol) if isinstance(tol, tuple) else tol}
        if error is None:
            try:
                want = [_to_numpy(w) for w in reference()]
                case_dir = os.path.join(self.directory, "cases", name)
                save_inputs(inputs, case_dir)
                for i, w in enumerate(want):
                    np.save(os.path.join(case_dir, f"want{i}.npy"), w)
                entry["outputs"] = len(want)
                entry["modules"] = [self.module(m) for m in modules]
            except Exception as e:  # a broken reference
                error = f"reference: {type(e).__name__}: {e}"
        if error:
            entry["error"] = error
        self.cases.append(entry)
        with open(os.path.join(self.directory, CASES), "w") as f:
            json.dump({"cases": self.cases}, f, indent=1)
        return error


_recorders = {}


def recorder(directory):
    """The process's recorder of `directory`."""
    if directory not in _recorders:
        _recorders[directory] = Recorder(directory)
    return _recorders[directory]


def record(suite, tmp, directory, report):
    """Records a Suite (Suite.run with RLX_TEST_RECORD set)."""
    module, broken = suite._build(tmp)
    rec = recorder(directory)
    for c in suite.cases:
        def reference(c=c):
            want = c.reference()
            if len(want) != c.num_outputs:
                raise RuntimeError(f"{len(want)} references, want "
                                   f"{c.num_outputs}")
            return want
        report.record(c.name, rec.case(c.name, c.function, [module], c.inputs,
                                       reference, c.tol, broken.get(c.name)))


def _unpack_modules(directory, cases, tmp):
    """{module name: path of the module uncompressed into tmp}."""
    paths = {}
    for name in sorted({m for c in cases for m in c["modules"]}):
        paths[name] = os.path.join(tmp, name[:-len(".gz")])
        with gzip.open(os.path.join(directory, name), "rb") as src, \
                open(paths[name], "wb") as dst:
            shutil.copyfileobj(src, dst)
    return paths


def _replay_case(directory, modules, entry, tmp):
    """None if the case's outputs match its references, else why not;
    `modules` maps the recording's module names to their paths."""
    if "error" in entry:
        return entry["error"]
    name = entry["name"]
    case_dir = os.path.join(directory, "cases", name)
    try:
        inputs = [os.path.join(case_dir, f"in{i}.npy")
                  for i in range(entry["inputs"])]
        want = [np.load(os.path.join(case_dir, f"want{i}.npy"))
                for i in range(entry["outputs"])]
        runs = [run_saved(modules[module], entry["function"], inputs,
                          os.path.join(tmp, f"{name}.{k}"))
                for k, module in enumerate(entry["modules"])]
        for k, got in enumerate(runs[1:], 1):
            for i, (a, b) in enumerate(zip(runs[0], got)):
                if (a.dtype, a.shape, a.tobytes()) != (b.dtype, b.shape,
                                                       b.tobytes()):
                    return (f"output {i} of {entry['modules'][0]} and "
                            f"{entry['modules'][k]} differ")
        tol = entry["tol"]
        tol = tuple(tol) if isinstance(tol, list) else tol  # JSON has lists
        for got in runs:
            reason = check_outputs(got, want, entry["outputs"], tol)
            if reason:
                return reason
        return None
    except Exception as e:  # a crash, a timeout, a missing file
        return f"{type(e).__name__}: {e}"


def replay(directory, jobs):
    with open(os.path.join(directory, CASES)) as f:
        cases = json.load(f)["cases"]
    report = Report(recording=False)
    tmp = tempfile.mkdtemp(prefix="rlx_replay_")
    try:
        modules = _unpack_modules(directory, cases, tmp)
        # rlx-run processes in parallel; map yields in case order.
        with ThreadPoolExecutor(jobs) as pool:
            reasons = pool.map(
                lambda c: _replay_case(directory, modules, c, tmp), cases)
            for entry, reason in zip(cases, reasons):
                report.record(entry["name"], reason)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    report.finish()


def main():
    parser = argparse.ArgumentParser(
        description="Runs a recorded suite and checks it (see the module's "
                    "docstring).")
    parser.add_argument("directory")
    parser.add_argument("--jobs", type=int,
                        default=min(16, os.cpu_count() or 1),
                        help="rlx-run processes at a time (default: one "
                             "per CPU, up to 16)")
    args = parser.parse_args()
    replay(args.directory, max(1, args.jobs))


if __name__ == "__main__":
    main()
