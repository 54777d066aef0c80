"""End-to-end numeric tests of rlx programs against PyTorch.

A `Suite` collects cases. Each case is one MLIR function with its inputs and
a reference. `Suite.run()` puts every function into one module, compiles it
once with rlx-compile, runs each function with rlx-run on .npy inputs in a
temporary directory, and compares each output with the reference, which
PyTorch computes in float64 (int64 for integers) from the same inputs. It
prints one line per case, then `N passed, M failed`, and exits 1 if any case
failed.

    s = Suite()
    x = np.random.randn(4, 8).astype(np.float32)
    s.case("exp_f32", "%r = rlx.exp %a0 : tensor<4x8xf32>", [x], torch.exp,
           out="tensor<4x8xf32>")
    s.run()

The body refers to the arguments as %a0, %a1, ... (their types come from the
inputs) and defines the result %r, or %r0, %r1, ... when `out` is a list,
unless it ends with its own `return`. With Suite(fold=True) every case also
gets a twin `<name>_folded` that takes its inputs from rlx.constant ops, so
the compiler's folders are checked against the same reference.

If the module does not compile, the functions that fail alone are reported
as failed cases and the others still run. Suite(compile_args=[...]) passes
extra options to rlx-compile (e.g. tile sizes).

With RLX_TESTING_PTX=sm_80,sm_90 the cases are compiled for those GPUs and
their PTX assembled by ptxas instead of run (rlx_testing.ptx).

Tools come from $RLX_BUILD_DIR/bin (default: build/bin of this checkout). Set
RLX_TESTING_KEEP=1 to keep the temporary directory and print its path.

RLX_TEST_TARGET=cuda compiles the module with --target=cuda for the chip in
$RLX_TEST_CUDA_CHIP (default sm_80), so rlx-run runs every case on CUDA
device 0 (tools/gpu-check.sh); the references stay PyTorch on the CPU.
RLX_TEST_TARGET=gpu-blocks-ascending (or -descending) runs the GPU's kernels
with a block per row or tile on the CPU, threads taking turns between
barriers in that order (rlx-compile --gpu-blocks-on-cpu).

With RLX_TEST_RECORD=DIR the suite is compiled (for $RLX_TEST_TARGET) and
saved in DIR with every case's inputs, reference outputs and tolerance
instead of run; `python3 -m rlx_testing.recorded DIR` runs and checks it
later, on a machine that needs only rlx-run and numpy (rlx_testing.recorded).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

import numpy as np

try:
    import torch
except ImportError:  # Replaying recorded suites (rlx_testing.recorded).
    torch = None

SRC_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
BUILD_DIR = os.environ.get("RLX_BUILD_DIR", os.path.join(SRC_ROOT, "build"))
TOOLS = os.path.join(BUILD_DIR, "bin")

# Output comparison: |got - want| <= atol + rtol * |want|, where `want` is the
# float64 reference rounded to the output's dtype (so overflow to inf and
# underflow compare as the target type would give them). NaN must match NaN
# and infinities must match exactly. Keyed by the result's element type.
TOLERANCES = {
    # libm and reassociated sums cost a few ulp (2.2e-16 each); 1e-10 is far
    # below f32 precision, so an f64 op secretly computed in f32 fails.
    "f64": (1e-10, 1e-12),
    # ~80 ulp (1.2e-7 each): room for libm and the several roundings of the
    # composite formulas (gelu, mish, ...), tight enough to catch a wrong
    # constant or formula.
    "f32": (1e-5, 1e-6),
    # f16 math is done in f32 and rounded once: half an ulp is <= 4.9e-4.
    "f16": (1e-3, 1e-4),
    # bf16 keeps 8 significant bits: half an ulp is <= 3.9e-3.
    "bf16": (1e-2, 1e-3),
}
# Integer and bool outputs, and cases with tol="exact" (data movement, casts,
# rounding functions), must match bit for bit (NaN matches NaN; -0.0 == 0.0).

def target_args():
    """rlx-compile options for the target $RLX_TEST_TARGET names."""
    target = os.environ.get("RLX_TEST_TARGET", "cpu")
    if target == "cpu":
        return []
    if target == "cuda":
        return ["--target=cuda",
                "--chip=" + os.environ.get("RLX_TEST_CUDA_CHIP", "sm_80")]
    if target in ("gpu-blocks-ascending", "gpu-blocks-descending"):
        return ["--gpu-blocks-on-cpu=" + target.split("-")[-1]]
    raise ValueError(f"RLX_TEST_TARGET={target!r}: expected cpu, cuda, "
                     "gpu-blocks-ascending or gpu-blocks-descending")


# A hang guard, not a speed check: a suite's module (e.g. the 48 attention
# functions of E2E/attention.py, ~25 s of CPU) takes several times its CPU
# time on a shared, loaded machine.
COMPILE_TIMEOUT_S = 300

_NP_TO_MLIR = {np.float16: "f16", np.float32: "f32", np.float64: "f64",
               np.int8: "i8", np.int16: "i16", np.int32: "i32",
               np.int64: "i64", np.bool_: "i1"}


def ttype(shape, elem):
    """MLIR tensor type, e.g. ttype((2, 3), "f32") -> "tensor<2x3xf32>"."""
    return "tensor<" + "".join(f"{d}x" for d in shape) + elem + ">"


def elem_of(array):
    """MLIR element type of a numpy array."""
    return _NP_TO_MLIR[np.asarray(array).dtype.type]


def type_of(array):
    """MLIR tensor type of a numpy array."""
    return ttype(np.shape(array), elem_of(array))


def to_torch(array):
    """The reference's view of an input: float64, int64 or bool."""
    array = np.asarray(array)
    if array.dtype.kind == "f":
        array = array.astype(np.float64)
    elif array.dtype.kind in "iu":
        array = array.astype(np.int64)
    return torch.from_numpy(np.array(array, order="C"))  # keeps rank 0


def _to_numpy(value):
    if torch is not None and isinstance(value, torch.Tensor):
        return value.detach().cpu().numpy()
    return np.asarray(value)


def compare(got, want, tol=None):
    """None if `got` matches the reference `want`, else a reason.

    tol: None (by got's dtype), a key of TOLERANCES, "exact", or (rtol, atol).
    """
    want = _to_numpy(want)
    if got.shape != want.shape:
        return f"shape {list(got.shape)}, want {list(want.shape)}"
    with np.errstate(over="ignore", invalid="ignore"):
        if got.dtype.kind == "b":
            want, tol = want.astype(bool), "exact"
        elif got.dtype.kind in "iu":  # Integers wrap to the result type.
            want, tol = want.astype(np.int64).astype(got.dtype), "exact"
        else:
            want = want.astype(np.float64).astype(got.dtype)
    if tol is None:
        tol = _NP_TO_MLIR[got.dtype.type]
    g, w = got.astype(np.float64), want.astype(np.float64)
    if tol == "exact":
        bad = ~((g == w) | (np.isnan(g) & np.isnan(w)))
        excess = bad.astype(np.float64)
    else:
        rtol, atol = TOLERANCES[tol] if isinstance(tol, str) else tol
        with np.errstate(invalid="ignore"):
            err = np.abs(g - w)
            finite = np.isfinite(g) & np.isfinite(w)
            excess = np.where(finite, err - (atol + rtol * np.abs(w)), 0.0)
            bad = (finite & (excess > 0)) | (
                ~finite & ~((g == w) | (np.isnan(g) & np.isnan(w))))
            excess = np.where(finite, excess, np.inf)
    if not bad.any():
        return None
    at = np.unravel_index(np.argmax(np.where(bad, excess, -np.inf)), g.shape)
    where = f" at {list(map(int, at))}" if g.ndim else ""
    return (f"{int(bad.sum())}/{bad.size} wrong ({tol}); worst{where}: "
            f"got {got[at].item()!r}, want {want[at].item()!r}")


def save_inputs(inputs, directory):
    """Saves `inputs` as directory/in0.npy, in1.npy, ...; their paths."""
    os.makedirs(directory, exist_ok=True)
    paths = [os.path.join(directory, f"in{i}.npy") for i in range(len(inputs))]
    for path, array in zip(paths, inputs):
        np.save(path, np.asarray(array))
    return paths


def run_saved(module, function, input_paths, outdir):
    """Runs `function` of the compiled `module` with rlx-run on .npy inputs;
    its outputs."""
    args = [os.path.join(TOOLS, "rlx-run"), module, "-f", function]
    for path in input_paths:
        args += ["-i", path]
    proc = subprocess.run(args + ["-o", outdir], capture_output=True,
                          text=True, timeout=300)
    if proc.returncode != 0:
        raise RuntimeError(_failure("rlx-run", proc))
    outputs = []
    while os.path.exists(os.path.join(outdir, f"out{len(outputs)}.npy")):
        outputs.append(np.load(os.path.join(outdir, f"out{len(outputs)}.npy")))
    return outputs


def run_function(module, function, inputs, workdir):
    """Runs `function` of the compiled `module` with rlx-run; its outputs."""
    paths = save_inputs(inputs, workdir)
    return run_saved(module, function, paths, os.path.join(workdir, "out"))


def check_outputs(got, want, num_outputs, tol):
    """None if every output matches its reference, else the reasons."""
    if len(got) != num_outputs or len(want) != num_outputs:
        raise RuntimeError(f"{len(got)} outputs, {len(want)} "
                           f"references, want {num_outputs}")
    reasons = [compare(g, w, tol) for g, w in zip(got, want)]
    reasons = [f"out{i}: {r}" if num_outputs > 1 else r
               for i, r in enumerate(reasons) if r]
    return "; ".join(reasons) or None


class Report:
    """Counts cases and prints one line for each, `PASS name` or `FAIL name:
    reason`, and at the end `N passed, M failed`; when recording (RLX_TEST_
    RECORD), `RECORDED name` and `N recorded, M failed`."""

    def __init__(self, recording=None):
        """recording: by default, whether RLX_TEST_RECORD is set."""
        if recording is None:
            recording = bool(os.environ.get("RLX_TEST_RECORD"))
        self.passed = self.failed = 0
        self.tag, self.word = (("RECORDED", "recorded") if recording
                               else ("PASS", "passed"))

    def record(self, name, reason=None):
        if reason is None:
            self.passed += 1
            print(f"{self.tag} {name}")
        else:
            self.failed += 1
            print(f"FAIL {name}: {reason}")
        sys.stdout.flush()

    def finish(self):
        print(f"{self.passed} {self.word}, {self.failed} failed")
        sys.exit(1 if self.failed else 0)


class Case:
    def __init__(self, name, body, inputs, ref, out, tol, args, folded=False,
                 function=None):
        """`function` is the MLIR function the case runs (default: `name`);
        the runs of a dynamic case share one."""
        if not re.fullmatch(r"[A-Za-z_]\w*", name):
            raise ValueError(f"case name {name!r} is not an identifier")
        self.name, self.ref, self.tol, self.folded = name, ref, tol, folded
        self.function = function or name
        self.inputs = [np.asarray(x) for x in inputs]
        outs = out if isinstance(out, (list, tuple)) else [out]
        names = ["%r"] if isinstance(out, str) else \
            [f"%r{i}" for i in range(len(outs))]
        args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(
            args or [type_of(x) for x in self.inputs]))
        self.num_outputs = len(outs)
        ret = "" if re.search(r"^\s*return\b", body, re.M) else \
            f"  return {', '.join(names)} : {', '.join(outs)}\n"
        self.text = (f"func.func @{self.function}({args}) -> "
                     f"({', '.join(outs)}) {{\n"
                     f"  {body.strip()}\n{ret}}}\n")

    def reference(self):
        """The reference outputs, a list."""
        want = self.ref(*[to_torch(x) for x in self.inputs])
        return list(want) if isinstance(want, (tuple, list)) else [want]


def constant(array):
    """An rlx.constant holding `array` exactly (hex data; bools as list)."""
    a = np.asarray(array)
    if a.dtype == np.bool_:
        value = str(a.tolist()).replace("True", "true")
        value = value.replace("False", "false")
    else:
        value = f'"0x{a.astype(a.dtype.newbyteorder("<")).tobytes().hex()}"'
    return f"rlx.constant dense<{value}> : {type_of(a)}"


class Suite:
    def __init__(self, fold=False, compile_args=()):
        """fold: give each case a twin `<name>_folded` whose inputs are
        rlx.constant ops, so the compiler folds it: the folders must agree
        with the generated code. compile_args: extra rlx-compile options."""
        self.cases, self.fold = [], fold
        self.compile_args = list(compile_args) + target_args()

    def case(self, name, body, inputs, ref, out, tol=None, args=None):
        """Adds a case. ref(*torch_inputs) returns the expected output (or a
        tuple of them); tol applies to every output (see compare()); args
        overrides the argument types (e.g. bf16, fed from f32 .npy)."""
        if any(c.name == name for c in self.cases):
            raise ValueError(f"duplicate case {name}")
        self.cases.append(Case(name, body, inputs, ref, out, tol, args))
        if self.fold and not args and all(np.size(x) for x in inputs):
            consts = "".join(f"%a{i} = {constant(x)}\n  "
                             for i, x in enumerate(inputs))
            self.cases.append(Case(
                name + "_folded", consts + body.strip(), [],
                lambda: ref(*[to_torch(x) for x in inputs]), out, tol, None,
                folded=True))

    def dynamic_case(self, name, body, args, out, runs, ref, tol=None):
        """Adds a function whose argument types `args` have `?` sizes, run
        once per input list in `runs` from one compiled module: each run is
        a case `<name>_<i>_<sizes of its first input>`."""
        for i, inputs in enumerate(runs):
            sizes = "x".join(str(d) for d in np.shape(inputs[0]))
            label = f"{name}_{i}_{sizes}"
            if any(c.name == label for c in self.cases):
                raise ValueError(f"duplicate case {label}")
            self.cases.append(Case(label, body, inputs, ref, out, tol, args,
                                   function=name))

    def _compile(self, cases, path):
        """None, or why rlx-compile failed on a module of these cases."""
        with open(path + ".mlir", "w") as f:
            f.write("\n".join(dict.fromkeys(c.text for c in cases)))
        try:
            proc = subprocess.run([os.path.join(TOOLS, "rlx-compile"),
                                   path + ".mlir", "-o", path + ".so"]
                                  + self.compile_args,
                                  capture_output=True, text=True,
                                  timeout=COMPILE_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            return f"rlx-compile timed out after {COMPILE_TIMEOUT_S} s"
        return None if proc.returncode == 0 else _failure("rlx-compile", proc)

    def run(self):
        record_dir = os.environ.get("RLX_TEST_RECORD")
        report = Report()
        tmp = tempfile.mkdtemp(prefix="rlx_testing_")
        try:
            if ptx.chips():
                ptx.check(self, tmp, report)
            elif record_dir:
                from . import recorded  # It imports this module.
                recorded.record(self, tmp, record_dir, report)
            else:
                self._run(tmp, report)
        finally:
            if os.environ.get("RLX_TESTING_KEEP"):
                print(f"kept {tmp}")
            else:
                shutil.rmtree(tmp, ignore_errors=True)
        report.finish()

    def _build(self, tmp):
        """Compiles every case into one module. If that fails, tries the
        plain cases and the folded twins apart, then each function of a
        failing group alone, and builds the module from those that compile.
        Returns the module's path and {case name: compile error}."""
        module, broken = os.path.join(tmp, "module"), {}
        try:
            if not self._compile(self.cases, module):
                return module + ".so", broken
            for folded in (False, True):
                group = [c for c in self.cases if c.folded == folded]
                if group and self._compile(group, os.path.join(tmp, "group")):
                    with ThreadPoolExecutor(os.cpu_count()) as pool:
                        errors = list(pool.map(lambda c: self._compile(
                            [c], os.path.join(tmp, c.name)), group))
                    broken.update((c.name, e)
                                  for c, e in zip(group, errors) if e)
            good = [c for c in self.cases if c.name not in broken]
            error = good and self._compile(good, module)
        except OSError as e:  # no usable rlx-compile
            good, error = self.cases, f"rlx-compile: {e}"
        if error:
            broken.update((c.name, error) for c in good)
        return module + ".so", broken

    def _run(self, tmp, report):
        module, broken = self._build(tmp)
        for c in self.cases:
            if c.name in broken:
                report.record(c.name, broken[c.name])
                continue
            try:
                got = run_function(module, c.function, c.inputs,
                                   os.path.join(tmp, c.name))
                report.record(c.name, check_outputs(
                    got, c.reference(), c.num_outputs, c.tol))
            except Exception as e:  # a crash, a timeout, a broken reference
                report.record(c.name, f"{type(e).__name__}: {e}")


def _failure(tool, proc):
    """One line on why `tool` failed: its first error, or where it crashed."""
    lines = [l.strip() for l in proc.stderr.splitlines() if l.strip()]
    if proc.returncode < 0:  # killed by a signal: name the first MLIR frame
        frames = [m.group(0) for m in map(
            lambda l: re.search(r"mlir::[\w:~]+", l), lines) if m]
        rlx = [f for f in frames if f.startswith("mlir::rlx::")]
        return (f"{tool} crashed (signal {-proc.returncode}) in "
                + " < ".join(dict.fromkeys(frames[:1] + rlx[:1])))
    error = next((l for l in lines if "error" in l), lines[-1] if lines else
                 "(no message)")
    return f"{tool} exited {proc.returncode}: {error}"


# After the definitions it uses.
from . import ptx  # noqa: E402
