#!/usr/bin/env python3
"""CPU benchmarks (issue 14): rlx against baselines measured in the same run.
Never asserted anywhere: timings depend on the machine.

  make bench                                  # build, run, write the docs
  /usr/bin/python3 bench/cpu.py [--quick] [--only REGEX] [--build build] [--runs 10]
                                [--write docs/benchmarks.md] [--plots docs/bench]
                                [--json docs/bench/cpu.json]
  /usr/bin/python3 bench/cpu.py --render docs/bench/cpu.json --write ...
                                # redraw tables and plots, measuring nothing

Every row is timed at 1 thread and at all cores (`os.cpu_count()`):

- rlx: the row's function compiled by build/bin/rlx-compile (default -O
  level) into a .so, loaded with the rlx Python package (python/rlx, over
  build/lib/librlx_runtime.so) in a child process that imports neither
  PyTorch nor OpenBLAS (so no second OpenMP runtime is loaded next to the
  module's), thread count set with rlx.set_num_threads, and a bound call
  (Function.bind: inputs and outputs made once, each run one
  rlx_function_invoke) timed in-process.
- dynamic-shapes rows: the function with `?` sizes, its inputs made at the
  row's sizes (Function.input_shapes), against
  the same text with those sizes static, both timed as above.
- baselines: OpenBLAS cblas_sgemm called directly through ctypes
  (/usr/lib/x86_64-linux-gnu/libopenblas.so.0, openblas_set_num_threads;
  NumPy and PyTorch use the reference BLAS on this machine) for matmul;
  oneDNN through PyTorch 1.13 (torch.nn.functional.conv2d,
  torch.set_num_threads) for convolutions; OpenBLAS's LAPACK (dpotrf_,
  dgesv_, ... and BLAS dtrsm_) through ctypes for the linear-algebra rows,
  with numpy.linalg (SciPy for the triangular solve) as a second baseline
  in its own column (linear_algebra_rows()); numpy.fft for the FFT rows,
  torch.fft in the second column, and torch.stft + the mel matmul + log in
  PyTorch eager for log_mel, numpy in the second column (signal_rows());
  PyTorch eager for the rest. Rows with a `reference` (the signal rows)
  have their results checked once against numpy (check_results).
- rooflines, measured in the same run: OpenBLAS sgemm GFLOP/s on a square
  matmul at each thread count for compute-bound rows (dgemm's for the f64
  rows, whose `roofline` is "dgemm"); for memory-bound rows
  numpy.copyto of the same bytes (one thread: a copy is bound by memory).

Time is the median of up to --runs samples after one warm-up call, stopping
after about --budget seconds per measurement (so the largest shapes get
fewer runs; the table gives the count). A sample is one call, or for calls
under 2 ms, a batch of back-to-back calls lasting about 2 ms, divided by
their number. A row whose warm-up alone takes more
than 4x the budget is timed by that one call. `--quick` runs a small subset
with at most 3 runs each; `--only REGEX` the rows whose name matches (and
no compile-time measurement).

The machine may be shared: before each row the script waits (up to
--quiet-timeout seconds) until no other task is runnable, and marks the
rows during which one was.

OPENBLAS_CORETYPE, OPENBLAS_L2_SIZE and the *_NUM_THREADS variables are
removed from the environment before any library loads; threads are set
through each library's API.
"""
import argparse
import ctypes
import datetime
import hashlib
import json
import math
import os
import platform
import re
import statistics
import subprocess
import threading
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

from attention import module_text as attention_module_text  # noqa: E402

for _var in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "OPENBLAS_NUM_THREADS",
             "OMP_NUM_THREADS", "MKL_NUM_THREADS", "RLX_NUM_THREADS"):
    os.environ.pop(_var, None)

import numpy as np  # noqa: E402  (after the environment is set)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPENBLAS = "/usr/lib/x86_64-linux-gnu/libopenblas.so.0"
ALL_THREADS = os.cpu_count() or 1
THREADS = sorted({1, ALL_THREADS})
SECTION_TITLE = "## CPU (issue 14)"
# Shortest timed sample: shorter calls are timed in batches (see measure).
MIN_SAMPLE_S = 2e-3
MIN_WARM_S = 0.2  # warm-up of calls shorter than a sample

# ---- timing -----------------------------------------------------------------


def measure(fn, runs, budget, setup=None):
    """(median ms, runs) of fn() after a warm-up; setup() runs untimed
    before each call. Without a setup, a call shorter than MIN_SAMPLE_S is
    timed in batches of back-to-back calls that together take about that
    long, and the median is per call: a model is called in a loop, and one
    call of 0.1 ms alone is at the mercy of the timer and the scheduler.
    The warm-up repeats a short call for MIN_WARM_S and sizes the batch by
    its last call: the first calls of a module (its thread pool, its
    buffers, cold caches) are several times slower, and batches sized by
    the first one were so short that the samples were still warming up."""
    if setup:
        setup()
    start = time.perf_counter()
    fn()
    warm = time.perf_counter() - start
    if warm > 4 * budget:
        return warm * 1e3, 1
    if not setup:
        warm_start = time.perf_counter()
        while time.perf_counter() - warm_start < MIN_WARM_S:
            start = time.perf_counter()
            fn()
            warm = time.perf_counter() - start
    batch = 1
    if not setup and warm < MIN_SAMPLE_S:
        batch = min(1000, math.ceil(MIN_SAMPLE_S / max(warm, 1e-7)))
    times = []
    spent = 0.0
    while len(times) < runs and (not times or spent < budget):
        if setup:
            setup()
        start = time.perf_counter()
        for _ in range(batch):
            fn()
        elapsed = time.perf_counter() - start
        times.append(elapsed * 1e3 / batch)
        spent += elapsed
    return statistics.median(times), len(times)


def others_runnable():
    """Tasks other than this one that are runnable now (/proc/loadavg)."""
    with open("/proc/loadavg") as f:
        return int(f.read().split()[3].split("/")[0]) - 1


def wait_for_quiet(timeout):
    """Waits up to `timeout` seconds for half a second in which no other task
    is runnable (the machine is shared with builds); returns whether it
    came."""
    deadline = time.monotonic() + timeout
    while True:
        quiet = True
        for _ in range(10):
            quiet = quiet and others_runnable() <= 0
            time.sleep(0.05)
        if quiet or time.monotonic() > deadline:
            return quiet
        time.sleep(1)


# ---- rlx through the C runtime (child process) -------------------------------


def rlx_child(request):
    """Times the requested functions; prints one JSON line per job."""
    os.environ["RLX_BUILD_DIR"] = request["build"]
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import rlx
    rng = np.random.default_rng(0)
    for job in request["jobs"]:
        result = {"error": None, "times": {}}
        try:
            fn = rlx.load(job["module"])[job["function"]]
            # A function with `?` sizes runs at the job's symbol values.
            inputs = []
            for shape, (dtype, _) in zip(
                    fn.input_shapes(*job.get("symbols", [])), fn.inputs):
                if dtype in ("f32", "f64", "bf16"):
                    values = rng.uniform(-1, 1, shape)
                elif dtype in ("c64", "c128"):  # both parts uniform(-1, 1)
                    values = rng.uniform(-1, 1, shape) + \
                        1j * rng.uniform(-1, 1, shape)
                elif dtype == "i8":  # packed quantized weights: any byte
                    values = rng.integers(-128, 128, shape)
                else:  # class labels, indices and masks: small non-negative
                    values = rng.integers(0, 2, shape)
                kind = job.get("condition", {}).get(str(len(inputs)))
                if kind:  # matrices a solver's domain needs (see condition)
                    values = condition(values, kind)
                inputs.append(values.astype(
                    {"f64": np.float64, "i32": np.int32, "i64": np.int64,
                     "i8": np.int8, "i1": np.bool_, "c64": np.complex64,
                     "c128": np.complex128}.get(dtype, np.float32)))
            call = fn.bind(*inputs)
            if job.get("dump"):  # inputs and results of one call, checked
                call()           # by the parent (a row's `reference`)
                results = call.results()
                results = results if isinstance(results, tuple) else \
                    (results,)
                np.savez(job["dump"], *inputs, *results)
            for threads in job["threads"]:
                rlx.set_num_threads(threads)
                result["times"][threads] = measure(call, job["runs"],
                                                   job["budget"])
            call.close()
        except rlx.Error as e:
            result["error"] = str(e)
        print(json.dumps(result), flush=True)


def rlx_times(build, module, function, runs, budget, symbols=(),
              condition=None, dump=None):
    """{threads: (median ms, runs)} for one function (at these values of its
    symbols, if it has `?` sizes), or an error string. `condition` maps an
    input's index to the kind of matrices it gets (see condition()); with
    `dump`, the child first saves the inputs and results of one call there
    (numpy's .npz: arr_0, arr_1, ... inputs then results)."""
    request = {"build": build, "jobs": [{
        "module": module, "function": function, "threads": THREADS,
        "runs": runs, "budget": budget, "symbols": list(symbols),
        "condition": {str(k): v for k, v in (condition or {}).items()},
        "dump": dump}]}
    proc = subprocess.run([sys.executable, os.path.abspath(__file__),
                           "--rlx-child"], input=json.dumps(request),
                          capture_output=True, text=True)
    if proc.returncode != 0:
        tail = " ".join(proc.stderr.strip().splitlines()[-1:])
        return f"the timing process failed (exit {proc.returncode}): {tail}"
    result = json.loads(proc.stdout.splitlines()[-1])
    if result["error"]:
        return result["error"]
    return {int(k): v for k, v in result["times"].items()}


# ---- compiling --------------------------------------------------------------


def compile_cached(tools, cache, text, flags=()):
    """Path of the .so of `text`, compiled once per compiler binary."""
    compiler = os.path.join(tools, "rlx-compile")
    st = os.stat(compiler)
    key = hashlib.sha256(json.dumps(
        [text, list(flags), st.st_mtime_ns, st.st_size]).encode()).hexdigest()
    so = os.path.join(cache, key[:24] + ".so")
    if os.path.exists(so):
        return so, None
    src = so[:-3] + ".mlir"
    with open(src, "w") as f:
        f.write(text)
    # Rows with the same text compile at once in the pool: each writes its
    # own file (rlx-compile picks the output kind by the suffix).
    partial = f"{so[:-3]}.{threading.get_ident()}.partial.so"
    proc = subprocess.run([compiler, src, "-o", partial, *flags],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        return None, (proc.stderr.strip().splitlines() or ["failed"])[0]
    os.replace(partial, so)
    return so, None


# ---- baselines ---------------------------------------------------------------


class OpenBlas:
    ROW_MAJOR, NO_TRANS = 101, 111

    def __init__(self):
        self.lib = ctypes.CDLL(OPENBLAS)
        self.lib.cblas_sgemm.restype = None
        self.lib.openblas_set_num_threads.argtypes = [ctypes.c_int]

    def set_threads(self, n):
        self.lib.openblas_set_num_threads(n)

    def sgemm(self, a, b, c):
        """c = a @ b for C-contiguous f32 2-D arrays."""
        m, k = a.shape
        n = b.shape[1]
        f = ctypes.c_float
        p = lambda x: x.ctypes.data_as(ctypes.POINTER(f))  # noqa: E731
        self.lib.cblas_sgemm(self.ROW_MAJOR, self.NO_TRANS, self.NO_TRANS,
                             m, n, k, f(1.0), p(a), k, p(b), n, f(0.0), p(c),
                             n)

    def dgemm(self, a, b, c):
        """c = a @ b for C-contiguous f64 2-D arrays."""
        m, k = a.shape
        n = b.shape[1]
        f = ctypes.c_double
        p = lambda x: x.ctypes.data_as(ctypes.POINTER(f))  # noqa: E731
        self.lib.cblas_dgemm.restype = None
        self.lib.cblas_dgemm(self.ROW_MAJOR, self.NO_TRANS, self.NO_TRANS,
                             m, n, k, f(1.0), p(a), k, p(b), n, f(0.0), p(c),
                             n)

    def fortran(self, name):
        """A Fortran-interface routine (dpotrf_, dtrsm_, ...) of this
        library's LAPACK and BLAS (32-bit integers, arguments by reference,
        a hidden length after the arguments for each character one)."""
        fn = getattr(self.lib, name)
        fn.restype = None
        return fn


# ---- rows -------------------------------------------------------------------
#
# A row: group, name, MLIR text and function, "compute" work in FLOP or
# "memory" work in bytes copied, the baseline's name, and make_baseline(ctx)
# returning (fn, setup) for the current thread count, or static_text: an
# rlx baseline (the function with static sizes), with `symbols`, the values
# the row's `?` sizes take.


def ttype(shape):
    return "tensor<" + "x".join(map(str, shape)) + "xf32>"


def matmul_text(a_shape, b_shape, out_shape):
    a, b, o = ttype(a_shape), ttype(b_shape), ttype(out_shape)
    return (f"func.func @main(%a: {a}, %b: {b}) -> {o} {{\n"
            f"  %0 = rlx.matmul %a, %b : ({a}, {b}) -> {o}\n"
            f"  return %0 : {o}\n}}\n")


def matmul_row(name, m, k, n, batch=None):
    pre = [batch] if batch else []
    text = matmul_text(pre + [m, k], pre + [k, n], pre + [m, n])
    flops = 2 * (batch or 1) * m * n * k

    def baseline(ctx):
        rng = np.random.default_rng(0)
        a = rng.uniform(-1, 1, pre + [m, k]).astype(np.float32)
        b = rng.uniform(-1, 1, pre + [k, n]).astype(np.float32)
        c = np.empty(pre + [m, n], np.float32)
        blas = ctx["blas"]
        if batch:
            return lambda: [blas.sgemm(a[i], b[i], c[i])
                            for i in range(batch)], None
        return lambda: blas.sgemm(a, b, c), None
    return dict(group="matmul", name=name, text=text, function="main",
                kind="compute", work=flops, baseline="OpenBLAS sgemm",
                make_baseline=baseline)


def conv_out(size, kernel, stride, pad):
    return (size + 2 * pad - kernel) // stride + 1


def conv_row(label, n, c, hw, k, kernel, stride, pad, groups=1):
    oh = conv_out(hw, kernel, stride, pad)
    x, w = [n, c, hw, hw], [k, c // groups, kernel, kernel]
    o = [n, k, oh, oh]
    tx, tw, to = ttype(x), ttype(w), ttype(o)
    text = (f"func.func @main(%x: {tx}, %w: {tw}) -> {to} {{\n"
            f"  %0 = rlx.conv %x, %w stride = [{stride}, {stride}] padding = "
            f"[{pad}, {pad}, {pad}, {pad}] dilation = [1, 1] groups = {groups}"
            f"\n      : ({tx}, {tw}) -> {to}\n  return %0 : {to}\n}}\n")
    flops = 2 * n * k * oh * oh * (c // groups) * kernel * kernel
    depthwise = groups > 1

    def baseline(ctx):
        torch = ctx["torch"]
        gen = torch.Generator().manual_seed(0)
        tx_ = torch.rand(*x, generator=gen) * 2 - 1
        tw_ = torch.rand(*w, generator=gen) * 2 - 1
        conv = torch.nn.functional.conv2d
        return lambda: conv(tx_, tw_, None, stride, pad, 1, groups), None
    row = dict(group="conv2d", name=f"{label} N={n}", text=text,
               function="main", kind="compute", work=flops,
               baseline="oneDNN (PyTorch conv2d)", make_baseline=baseline)
    if depthwise:  # 9 FMAs per output: bound by memory, not by FMAs
        row.update(kind="memory", work=4 * (n * c * hw * hw + n * k * oh * oh),
                   copy_bytes=4 * n * c * hw * hw, flops=flops)
    return row


def attention_rows(b, h, s, d, causal):
    mask = "causal" if causal else "none"
    # The module bench/attention.py measures for peak memory.
    text = attention_module_text(b, h, s, d, causal)
    flops = 4 * b * h * s * s * d / (2 if causal else 1)

    def baseline(direction):
        def make(ctx):
            torch = ctx["torch"]
            gen = torch.Generator().manual_seed(0)
            q, k, v, dout = (torch.rand(b, h, s, d, generator=gen) * 2 - 1
                             for _ in range(4))
            bias = torch.zeros(s, s)
            if causal:
                bias.masked_fill_(torch.ones(s, s, dtype=torch.bool).triu(1),
                                  float("-inf"))
            scale = 1 / math.sqrt(d)

            def forward():
                return torch.softmax(q @ k.transpose(-1, -2) * scale + bias,
                                     -1) @ v
            if direction == "forward":
                return forward, None
            for x in (q, k, v):
                x.requires_grad_()
            state = {}

            def setup():
                for x in (q, k, v):
                    x.grad = None
                state["out"] = forward()
            return lambda: state["out"].backward(dout), setup
        return make
    name = f"B{b} H{h} S{s} D{d} {mask}"
    return [dict(group="attention", name=f"{name} forward", text=text,
                 function="forward", kind="compute", work=flops,
                 baseline="PyTorch eager", make_baseline=baseline("forward")),
            dict(group="attention", name=f"{name} backward", text=text,
                 function="backward", kind="compute", work=2.5 * flops,
                 baseline="PyTorch eager", make_baseline=baseline("backward"))]


CHAIN_SIZE = 16 * 1024 * 1024  # 64 MiB of f32
ROWS, COLS = 8192, 1024


def chain_text(n):
    t = ttype([n])
    return f"""
func.func @chain(%x: {t}) -> {t} {{
  %c = rlx.constant dense<0.5> : tensor<f32>
  %0 = rlx.mul %x, %c : ({t}, tensor<f32>) -> {t}
  %1 = rlx.add %0, %x : ({t}, {t}) -> {t}
  %2 = rlx.relu %1 : {t}
  %3 = rlx.sub %2, %c : ({t}, tensor<f32>) -> {t}
  %4 = rlx.abs %3 : {t}
  %5 = rlx.min %4, %x : ({t}, {t}) -> {t}
  return %5 : {t}
}}
"""


def rowwise_text(rows, cols):
    x, v = ttype([rows, cols]), ttype([cols])
    return f"""
func.func @layer_norm(%x: {x}, %g: {v}, %b: {v}) -> {x} {{
  %0 = rlx.layer_norm %x, %g, %b axis = -1 eps = 1.0e-5
      : ({x}, {v}, {v}) -> {x}
  return %0 : {x}
}}
func.func @softmax(%x: {x}) -> {x} {{
  %0 = rlx.softmax %x axis = -1 : {x}
  return %0 : {x}
}}
"""


def memory_rows():
    def chain(ctx):
        torch = ctx["torch"]
        x = torch.rand(CHAIN_SIZE) * 2 - 1
        return lambda: torch.minimum(torch.abs(torch.relu(x * 0.5 + x) - 0.5),
                                     x), None

    def rowwise(op):
        def make(ctx):
            torch = ctx["torch"]
            x, g, b = torch.randn(ROWS, COLS), torch.randn(COLS), \
                torch.randn(COLS)
            if op == "softmax":
                return lambda: torch.softmax(x, -1), None
            return lambda: torch.nn.functional.layer_norm(x, (COLS,), g, b,
                                                          1e-5), None
        return make
    chain_bytes = 4 * CHAIN_SIZE
    row_bytes = 4 * ROWS * COLS
    common = dict(group="memory-bound", kind="memory",
                  baseline="PyTorch eager")
    return [
        dict(common, name="elementwise chain (6 ops, 16M f32)",
             text=chain_text(CHAIN_SIZE), function="chain",
             work=2 * chain_bytes, copy_bytes=chain_bytes,
             make_baseline=chain),
        dict(common, name="elementwise chain, --no-fuse",
             text=chain_text(CHAIN_SIZE), function="chain", flags=["--no-fuse"],
             work=2 * chain_bytes, copy_bytes=chain_bytes,
             make_baseline=chain),
        dict(common, name=f"softmax [{ROWS}, {COLS}]",
             text=rowwise_text(ROWS, COLS), function="softmax",
             work=2 * row_bytes, copy_bytes=row_bytes,
             make_baseline=rowwise("softmax")),
        dict(common, name=f"layer_norm [{ROWS}, {COLS}]",
             text=rowwise_text(ROWS, COLS), function="layer_norm",
             work=2 * row_bytes, copy_bytes=row_bytes,
             make_baseline=rowwise("layer_norm")),
    ]


def resnet_block_row(n):
    x, w = [n, 64, 56, 56], [64, 64, 3, 3]
    tx, tw, tv = ttype(x), ttype(w), ttype([64])
    bn_args = ", ".join(f"%{p}{i}: {tv}" for i in (1, 2)
                        for p in ("g", "b", "m", "v"))

    def conv_bn(src, i, dst):
        return (f"  %c{i} = rlx.conv {src}, %w{i} stride = [1, 1] padding = "
                f"[1, 1, 1, 1] dilation = [1, 1] groups = 1\n"
                f"      : ({tx}, {tw}) -> {tx}\n"
                f"  {dst} = rlx.batch_norm_inference %c{i}, %g{i}, %b{i}, "
                f"%m{i}, %v{i} eps = 1.0e-5\n"
                f"      : ({tx}, {tv}, {tv}, {tv}, {tv}) -> {tx}\n")
    text = (f"func.func @main(%x: {tx}, %w1: {tw}, %w2: {tw}, {bn_args})"
            f" -> {tx} {{\n" + conv_bn("%x", 1, "%n1") +
            f"  %r1 = rlx.relu %n1 : {tx}\n" + conv_bn("%r1", 2, "%n2") +
            f"  %s = rlx.add %n2, %x : ({tx}, {tx}) -> {tx}\n"
            f"  %r2 = rlx.relu %s : {tx}\n  return %r2 : {tx}\n}}\n")
    flops = 2 * (2 * n * 64 * 56 * 56 * 64 * 9)

    def baseline(ctx):
        torch = ctx["torch"]
        F = torch.nn.functional
        gen = torch.Generator().manual_seed(0)
        xt = torch.rand(*x, generator=gen) * 2 - 1
        w1, w2 = (torch.rand(*w, generator=gen) * 0.1 for _ in range(2))
        g, b, m = (torch.rand(64, generator=gen) for _ in range(3))
        v = torch.rand(64, generator=gen) + 0.5

        def block():
            h = F.relu(F.batch_norm(F.conv2d(xt, w1, None, 1, 1), m, v, g, b,
                                    False, 0.0, 1e-5))
            h = F.batch_norm(F.conv2d(h, w2, None, 1, 1), m, v, g, b, False,
                             0.0, 1e-5)
            return F.relu(h + xt)
        return block, None
    return dict(group="models", name=f"ResNet basic block [{n}, 64, 56, 56]",
                text=text, function="main", kind="compute", work=flops,
                baseline="PyTorch eager (oneDNN conv)", make_baseline=baseline)


def model_rows():
    with open(os.path.join(ROOT, "examples", "transformer_block.mlir")) as f:
        block = f.read()
    with open(os.path.join(ROOT, "examples", "train_mlp.mlir")) as f:
        train = f.read()

    def block_baseline(ctx):
        torch = ctx["torch"]
        from rlx_testing.examples import (transformer_block_inputs,
                                          transformer_block_reference)
        args = [torch.from_numpy(a) for a in transformer_block_inputs(0)]
        return lambda: transformer_block_reference(*args), None

    def train_baseline(ctx):
        torch = ctx["torch"]
        F = torch.nn.functional
        rng = np.random.default_rng(0)
        shapes = [(4, 16), (16,), (16, 3), (3,)]
        params = [torch.tensor(rng.uniform(-1, 1, s).astype(np.float32),
                               requires_grad=True) for s in shapes]
        x = torch.from_numpy(rng.uniform(-1, 1, (32, 4)).astype(np.float32))
        labels = torch.from_numpy(rng.integers(0, 3, 32))
        opt = torch.optim.SGD(params, lr=0.5)
        w1, b1, w2, b2 = params

        def step():
            opt.zero_grad()
            loss = F.cross_entropy(torch.tanh(x @ w1 + b1) @ w2 + b2, labels)
            loss.backward()
            opt.step()
            return loss
        return step, None
    # FLOPs of the block: its five matmuls and attention (2 x 32 tokens).
    tokens = 64
    block_flops = 2 * tokens * 128 * (192 + 128 + 512 + 128) + \
        2 * 4 * 2 * 8 * 32 * 32 * 16 / 2
    mlp_flops = 3 * 2 * 32 * (4 * 16 + 16 * 3)
    return [
        dict(group="models", name="examples/transformer_block.mlir forward",
             text=block, function="transformer_block", kind="compute",
             work=block_flops, baseline="PyTorch eager",
             make_baseline=block_baseline),
        dict(group="models", name="examples/train_mlp.mlir train_step (SGD)",
             text=train, function="train_step", kind="compute",
             work=mlp_flops, baseline="PyTorch eager (torch.optim.SGD)",
             make_baseline=train_baseline),
    ]


def dynamic_rows():
    """Functions with `?` sizes against the same text with static sizes, both
    rlx, at the benchmark sizes: the cost of one module for every size. Each
    text names its sizes @S0@, @S1@, ... in the order of the function's
    symbols; the dynamic version has `?` there, the static one the values."""
    def row(name, text, function, sizes, work):
        dynamic, static = text, text
        for i, size in enumerate(sizes):
            dynamic = dynamic.replace(f"@S{i}@", "?")
            static = static.replace(f"@S{i}@", str(size))
        return dict(group="dynamic shapes", kind="compute",
                    baseline="rlx, static shapes", name=name, text=dynamic,
                    static_text=static, function=function,
                    symbols=list(sizes), work=work)

    with open(os.path.join(ROOT, "examples", "transformer_block.mlir")) as f:
        block = f.read().replace("tensor<2x32x", "tensor<@S0@x@S1@x")
        block = block.replace("tensor<32x8xf32>", "tensor<@S1@x8xf32>")
    gpt2 = gpt2_stack_text(1, seq="@S0@")
    q, kv = "tensor<1x@S0@x8x64xf32>", "tensor<1x@S1@x8x64xf32>"
    attention = (f"func.func @attention(%q: {q}, %k: {kv}, %v: {kv}) -> {q} "
                 f"{{\n  %0 = rlx.attention bshd %q, %k, %v heads = 8 "
                 f"kv_heads = 8 mask = causal : ({q}, {kv}, {kv}) -> {q}\n"
                 f"  return %0 : {q}\n}}\n")
    tx, tw = "tensor<@S0@x64x56x56xf32>", "tensor<64x64x3x3xf32>"
    conv = (f"func.func @main(%x: {tx}, %w: {tw}) -> {tx} {{\n"
            f"  %0 = rlx.conv %x, %w stride = [1, 1] padding = [1, 1, 1, 1] "
            f"dilation = [1, 1] groups = 1 : ({tx}, {tw}) -> {tx}\n"
            f"  return %0 : {tx}\n}}\n")
    ix = "tensor<1x64x@S0@x@S1@xf32>"
    image_conv = (f"func.func @main(%x: {ix}, %w: {tw}) -> {ix} {{\n"
                  f"  %0 = rlx.conv %x, %w stride = [1, 1] padding = "
                  f"[1, 1, 1, 1] dilation = [1, 1] groups = 1 : ({ix}, {tw}) "
                  f"-> {ix}\n  return %0 : {ix}\n}}\n")
    seq, d = 128, 256
    return [
        row("matmul [?, 1024] @ [1024, 1024] at 512",
            matmul_text(["@S0@", 1024], [1024, 1024], ["@S0@", 1024]),
            "main", [512], 2 * 512 * 1024 * 1024),
        row("examples/transformer_block.mlir, ? batch and tokens at 2x32",
            block, "transformer_block", [2, 32],
            2 * 64 * 128 * (192 + 128 + 512 + 256) + 2 * 2 * 8 * 32 * 32 * 16),
        row("GPT-2-style layer (d 256), ? tokens at 128", gpt2, "gpt2",
            [seq], 2 * seq * d * (3 * d + d + 8 * d) + 2 * seq * seq * d),
        row("causal attention bshd [1, ?, 8, 64] at 1024", attention,
            "attention", [1024, 1024], 2 * 8 * 1024 * 1024 * 64),
        row("conv 3x3 64->64 @56, ? batch at 8", conv, "main", [8],
            2 * 8 * 64 * 56 * 56 * 64 * 9),
        row("conv 3x3 64->64, ? image at 56x56", image_conv, "main", [56, 56],
            2 * 64 * 56 * 56 * 64 * 9),
    ]


def tier2_rows():
    """The tier-2 ops of issue 18 against what a user would otherwise call:
    OpenBLAS sgemm on the f32 weights for the quantized and grouped
    matmuls, PyTorch eager for the sorts, scatters and sampling. Integer
    inputs are the harness's (0 or 1: the scatter writes two rows, the
    experts' ids pick two experts), and the torch scatter reads the same
    kind of indices."""
    def func(args, results, body):
        params = ", ".join(f"%a{i}: {t}" for i, t in enumerate(args))
        return (f"func.func @main({params}) -> ({', '.join(results)}) {{\n"
                f"  {body}\n}}\n")

    def sgemm(m, k, n):
        def make(ctx):
            rng = np.random.default_rng(0)
            a = rng.uniform(-1, 1, (m, k)).astype(np.float32)
            b = rng.uniform(-1, 1, (k, n)).astype(np.float32)
            c = np.empty((m, n), np.float32)
            return lambda: ctx["blas"].sgemm(a, b, c), None
        return make

    def torch_fn(build):
        def make(ctx):
            return build(ctx["torch"]), None
        return make

    rows = []
    for m in (1, 64):
        k = n = 4096
        x, w, sc = (ttype([m, k]), f"tensor<{n}x{k // 2}xi8>",
                    f"tensor<{n}x{k // 32}xf32>")
        y = ttype([m, n])
        rows.append(dict(
            group="tier 2", kind="compute", baseline="OpenBLAS sgemm (f32)",
            name=f"dequant_matmul int4/32 [{m}, {k}] x [{n}, {k}]",
            text=func([x, w, sc], [y],
                      f"%0 = rlx.dequant_matmul %a0, %a1, %a2 scheme = "
                      f"\"int4\" group_size = 32 : ({x}, {w}, {sc}) -> {y}\n"
                      f"  return %0 : {y}"),
            function="main", work=2 * m * n * k, make_baseline=sgemm(m, k, n)))
    t, k, n, e = 256, 512, 1024, 8
    x, w, ids, y = ttype([t, k]), ttype([e, k, n]), f"tensor<{t}xi64>", \
        ttype([t, n])
    rows.append(dict(
        group="tier 2", kind="compute", baseline="OpenBLAS sgemm (dense)",
        name=f"grouped_matmul [{t}, {k}] x {e} experts [{k}, {n}]",
        text=func([x, w, ids], [y],
                  f"%0 = rlx.grouped_matmul %a0, %a1, %a2 : ({x}, {w}, {ids}) "
                  f"-> {y}\n  return %0 : {y}"),
        function="main", work=2 * t * k * n, make_baseline=sgemm(t, k, n)))
    # int4 experts as a decode step routes to them: 16 (token, expert) pairs.
    t, k, n, e = 16, 2048, 2048, 8
    x, w, ids, sc, y = (ttype([t, k]), f"tensor<{e}x{n}x{k // 2}xi8>",
                        f"tensor<{t}xi64>", f"tensor<{e}x{n}x{k // 32}xf32>",
                        ttype([t, n]))
    rows.append(dict(
        group="tier 2", kind="compute", baseline="OpenBLAS sgemm (dense f32)",
        name=f"dequant_grouped_matmul int4/32 [{t}, {k}] x {e} experts "
             f"[{n}, {k}]",
        text=func([x, w, ids, sc], [y],
                  f"%0 = rlx.dequant_grouped_matmul %a0, %a1, %a2 scales %a3 "
                  f"scheme = \"int4\" : ({x}, {w}, {ids}, {sc}) -> {y}\n"
                  f"  return %0 : {y}"),
        function="main", work=2 * t * k * n, make_baseline=sgemm(t, k, n)))

    def memory_row(name, args, results, body, nbytes, baseline):
        return dict(group="tier 2", kind="memory", baseline="PyTorch eager",
                    name=name, text=func(args, results, body),
                    function="main", work=2 * nbytes, copy_bytes=nbytes,
                    make_baseline=torch_fn(baseline))
    x, i = ttype([64, 16384]), "tensor<64x16384xi64>"
    rows.append(memory_row(
        "sort [64, 16384] along the last axis", [x], [x, i],
        f"%v, %i = rlx.sort %a0 axis = 1 : {x} -> {x}, {i}\n"
        f"  return %v, %i : {x}, {i}", 4 * 64 * 16384,
        lambda torch: (lambda x: lambda: torch.sort(x, dim=1, stable=True))(
            torch.rand(64, 16384))))
    x, v, i = ttype([32, 32000]), ttype([32, 50]), "tensor<32x50xi64>"
    rows.append(memory_row(
        "topk k = 50 of [32, 32000]", [x], [v, i],
        f"%v, %i = rlx.topk %a0 k = 50 : {x} -> {v}, {i}\n"
        f"  return %v, %i : {v}, {i}", 4 * 32 * 32000,
        lambda torch: (lambda x: lambda: torch.topk(x, 50))(
            torch.rand(32, 32000))))
    d, i = ttype([4096, 1024]), "tensor<4096x1024xi64>"
    rows.append(memory_row(
        "scatter_add along axis 0, [4096, 1024]", [d, i, d], [d],
        f"%0 = rlx.scatter_add %a0, %a1, %a2 axis = 0 : ({d}, {i}, {d}) -> "
        f"{d}\n  return %0 : {d}", 4 * 3 * 4096 * 1024,
        lambda torch: (lambda d, i, u: lambda: d.scatter_add(0, i, u))(
            torch.rand(4096, 1024), torch.randint(0, 2, (4096, 1024)),
            torch.rand(4096, 1024))))
    x, r = ttype([32, 32000]), "tensor<32xi64>"

    def torch_sample(torch):
        logits = torch.rand(32, 32000)

        def sample():
            values, indices = torch.topk(logits / 0.8, 40)
            probs = torch.softmax(values, -1)
            keep = torch.cumsum(probs, -1) - probs < 0.9
            probs = torch.where(keep, probs, torch.zeros(()))
            return indices.gather(1, torch.multinomial(probs, 1))
        return sample
    rows.append(memory_row(
        "sample top_k 40, top_p 0.9 of [32, 32000]",
        [x, "tensor<i64>", "tensor<i64>"], [r],
        f"%0 = rlx.sample %a0, %a1, %a2 top_k = 40 top_p = 0.9 "
        f"temperature = 0.8 : {x} -> {r}\n  return %0 : {r}",
        4 * 32 * 32000, torch_sample))
    return rows


def sequence_rows():
    """The recurrent layers of issue 19 against PyTorch eager's
    torch.nn.LSTM / GRU (float32, the same shapes): a forward over a
    sequence, and an LSTM's forward and backward (rlx: the <name>_grad
    function --rlx-autodiff makes; torch: forward then backward of the
    same sum). PyTorch's LSTM calls its BLAS for the projections; on a
    fresh Debian machine that is the reference BLAS, which makes it a
    baseline of what a user gets there, not of the best LSTM kernels."""
    t, b, i, h = 64, 32, 256, 256
    x = ttype([t, b, i])

    def weights(gates):
        return [ttype([gates * h, i]), ttype([gates * h, h]),
                ttype([gates * h]), ttype([gates * h])]

    def torch_layer(kind, backward):
        def build(torch):
            cls = torch.nn.LSTM if kind == "lstm" else torch.nn.GRU
            layer = cls(i, h)
            inp = torch.rand(t, b, i, requires_grad=backward)

            def run():
                y, _ = layer(inp)
                if backward:
                    y.sum().backward()
            if not backward:
                return lambda: torch.no_grad()(run)()
            return run
        return lambda ctx: (build(ctx["torch"]), None)

    rows = []
    for kind, gates in (("lstm", 4), ("gru", 3)):
        w = weights(gates)
        states = 2 if kind == "lstm" else 1
        y, s = ttype([t, b, h]), ttype([1, b, h])
        args = [x] + w
        params = ", ".join(f"%a{n}: {ty}" for n, ty in enumerate(args))
        outs = ", ".join(f"%r{n}" for n in range(1 + states))
        types = ", ".join([y] + [s] * states)
        op = (f"rlx.{kind} %a0 weights(%a1, %a2, %a3, %a4 : "
              f"{', '.join(w)}) : {x} -> {types}")
        rows.append(dict(
            group="sequence", kind="compute", baseline="PyTorch eager",
            name=f"{kind} forward T={t} B={b} I={i} H={h}",
            text=(f"func.func @main({params}) -> ({types}) {{\n"
                  f"  {outs} = {op}\n  return {outs} : {types}\n}}\n"),
            function="main", work=2 * t * b * (i + h) * gates * h,
            make_baseline=torch_layer(kind, False)))
        if kind == "lstm":
            text = (f"func.func @main({params}) -> tensor<f32> attributes "
                    f"{{rlx.differentiate = array<i64: 0, 1, 2, 3, 4>}} {{\n"
                    f"  {outs} = {op}\n"
                    f"  %l = rlx.reduce sum %r0 axes = [0, 1, 2] : {y} -> "
                    f"tensor<f32>\n  return %l : tensor<f32>\n}}\n")
            rows.append(dict(
                group="sequence", kind="compute", baseline="PyTorch eager",
                name=f"lstm forward+backward T={t} B={b} I={i} H={h}",
                text=text, function="main_grad",
                work=3 * 2 * t * b * (i + h) * gates * h,
                make_baseline=torch_layer(kind, True)))
    return rows


def state_space_rows():
    """The state-space ops of issue 19 (float32) against PyTorch eager: the
    CPU has no mamba_ssm or flash-linear-attention kernels, so eager
    PyTorch is what a user runs there. Mamba-1 against mamba_ssm's
    selective_scan_ref (a loop over the steps, rlx_testing.sequence's
    selective_scan: its chunked twin's einsums are far slower in eager),
    Mamba-2 and Gated DeltaNet against the chunked algorithms with the same
    chunk lengths (rlx_testing.sequence's *_chunked). `work` counts the
    chunked algorithm's matmul flops."""
    rows = []
    # Mamba-1: batch 2, D = 256 channels, N = 16 states, L = 256, chunk 16.
    b, d, n, length, chunk = 2, 256, 16, 256, 16
    seq, mat, vec = ttype([b, d, length]), ttype([d, n]), ttype([d])
    bc = ttype([b, n, length])
    types = [seq, seq, mat, bc, bc, vec, seq, vec]
    params = ", ".join(f"%a{i}: {t}" for i, t in enumerate(types))
    op = (f"rlx.selective_scan %a0, %a1, %a2, %a3, %a4 D(%a5) z(%a6) "
          f"delta_bias(%a7) delta_softplus chunk = {chunk} : "
          f"({', '.join(types)}) -> ({seq}, {ttype([b, d, n])})")

    # (Sizes bound now: the later sections reuse the names.)
    def mamba1(torch, b=b, d=d, n=n, length=length):
        from rlx_testing.sequence import selective_scan
        u, delta, z = (torch.randn(b, d, length) for _ in range(3))
        a = -torch.rand(d, n) - 0.5
        bb, cc = torch.randn(b, n, length), torch.randn(b, n, length)
        dd, bias = torch.randn(d), torch.randn(d)
        return lambda: torch.no_grad()(selective_scan)(
            u, delta, a, bb, cc, dd, z, bias, True)

    work = 2 * b * d * n * length * chunk
    rows.append(dict(
        group="sequence", kind="compute", baseline="PyTorch eager (steps)",
        name=f"selective_scan forward B={b} D={d} N={n} L={length}",
        text=(f"func.func @main({params}) -> {seq} {{\n"
              f"  %y, %h = {op}\n  return %y : {seq}\n}}\n"),
        function="main", work=work,
        make_baseline=lambda ctx: (mamba1(ctx["torch"]), None)))

    # Mamba-2: batch 2, L = 512, H = 8 heads of P = 64, N = 64, chunk 64.
    b, length, h, p, n, chunk = 2, 512, 8, 64, 64, 64
    x, dt, heads = ttype([b, length, h, p]), ttype([b, length, h]), ttype([h])
    bc = ttype([b, length, 1, n])
    types = [x, dt, heads, bc, bc, heads, heads]
    params = ", ".join(f"%a{i}: {t}" for i, t in enumerate(types))
    op = (f"rlx.mamba2 %a0, %a1, %a2, %a3, %a4 D(%a5) dt_bias(%a6) "
          f"dt_softplus chunk = {chunk} : ({', '.join(types)}) -> "
          f"({x}, {ttype([b, h, p, n])})")

    def mamba2(torch, b=b, length=length, h=h, p=p, n=n, chunk=chunk):
        from rlx_testing.sequence import ssd_chunked
        xs, dts = torch.randn(b, length, h, p), torch.randn(b, length, h)
        a, dd, bias = -torch.rand(h) - 0.5, torch.randn(h), torch.randn(h)
        bb, cc = torch.randn(b, length, 1, n), torch.randn(b, length, 1, n)
        return lambda: torch.no_grad()(ssd_chunked)(
            xs, dts, a, bb, cc, dd, None, bias, True, chunk=chunk)

    rows.append(dict(
        group="sequence", kind="compute", baseline="PyTorch eager (chunked)",
        name=f"mamba2 forward B={b} L={length} H={h} P={p} N={n}",
        text=(f"func.func @main({params}) -> {x} {{\n"
              f"  %y, %s = {op}\n  return %y : {x}\n}}\n"),
        function="main",
        work=b * h * (2 * length * chunk * (n + p) + 4 * length * n * p),
        make_baseline=lambda ctx: (mamba2(ctx["torch"]), None)))

    # Gated DeltaNet: batch 2, L = 512, H = 8, K = V = 64, chunk 64.
    b, length, h, k, chunk = 2, 512, 8, 64, 64
    qk, g = ttype([b, length, h, k]), ttype([b, length, h])
    types = [qk, qk, qk, g, g]
    params = ", ".join(f"%a{i}: {t}" for i, t in enumerate(types))
    op = (f"rlx.gated_delta_net %a0, %a1, %a2, %a3, %a4 chunk = {chunk} : "
          f"({', '.join(types)}) -> ({qk}, {ttype([b, h, k, k])})")

    def gdn(torch, b=b, length=length, h=h, k=k, chunk=chunk):
        from rlx_testing.sequence import gated_delta_net_chunked
        q = torch.nn.functional.normalize(torch.randn(b, length, h, k), dim=-1)
        kk = torch.nn.functional.normalize(torch.randn(b, length, h, k),
                                           dim=-1)
        v = torch.randn(b, length, h, k)
        gs = torch.nn.functional.logsigmoid(torch.randn(b, length, h))
        beta = torch.sigmoid(torch.randn(b, length, h))
        return lambda: torch.no_grad()(gated_delta_net_chunked)(
            q, kk, v, gs, beta, chunk=chunk)

    squarings = max(1, math.ceil(math.log2(chunk)) - 1)
    per_chunk = (2 * chunk * chunk * k * 4 + 2 * chunk ** 3 * 2 * squarings
                 + 2 * chunk * k * k * 4)
    rows.append(dict(
        group="sequence", kind="compute", baseline="PyTorch eager (chunked)",
        name=f"gated_delta_net forward B={b} L={length} H={h} K=V={k}",
        text=(f"func.func @main({params}) -> {qk} {{\n"
              f"  %o, %s = {op}\n  return %o : {qk}\n}}\n"),
        function="main", work=b * h * (length // chunk) * per_chunk,
        make_baseline=lambda ctx: (gdn(ctx["torch"]), None)))
    return rows


# ---- dense linear algebra (issue 20) -----------------------------------------


def condition(values, kind):
    """Matrices in a solver's domain, made from uniform(-1, 1) `values`
    [..., n, n] (float64; the caller casts): "spd" gives a @ a^T / n + I
    (symmetric positive definite, condition number a few hundred), for
    rlx.cholesky; "dominant" adds n to the diagonal (well conditioned: a
    random triangular matrix's solution otherwise grows exponentially with
    n and overflows). Used by the rlx child and the baselines alike."""
    n = values.shape[-1]
    if kind == "spd":
        return values @ np.swapaxes(values, -1, -2) / n + np.eye(n)
    if kind == "dominant":
        return values + n * np.eye(n)
    raise ValueError(f"unknown input condition {kind!r}")


_NUMPY_LAPACK = []


def numpy_lapack():
    """Which LAPACK numpy.linalg runs in this process, by the library it
    mapped: Debian picks liblapack.so.3 by update-alternatives (the
    reference LAPACK, or OpenBLAS's when libopenblas0 is installed)."""
    if not _NUMPY_LAPACK:
        np.linalg.cholesky(np.eye(2))
        with open("/proc/self/maps") as f:
            paths = {os.path.realpath(line.split()[-1]) for line in f
                     if "liblapack" in line}
        _NUMPY_LAPACK.append(
            "OpenBLAS" if any("openblas" in p for p in paths) else
            "reference LAPACK" if paths else "its bundled LAPACK")
    return _NUMPY_LAPACK[0]


def linear_algebra_rows():
    """The dense solvers of issue 20 (RlxLinearAlgebraOps.td) against
    OpenBLAS's LAPACK (and BLAS dtrsm) called directly through ctypes at
    the same thread count, and numpy.linalg (SciPy for the triangular
    solve, which numpy lacks) as a second baseline: one C call per batch,
    where the ctypes baseline of a batch row is a Python loop of one call
    per matrix (the row's baseline name says so; OpenBLAS has no batched
    LAPACK).

    Layouts: rlx's matrices are row-major, LAPACK's column-major, and a
    row-major buffer read column-major is the transpose. cholesky: the
    symmetric input is its own transpose, and rlx's lower factor L is U =
    L^T of potrf('U') on the same buffer. triangular_solve (lower, A X =
    B): X^T A^T = B^T, dtrsm side 'R', uplo 'U' on the same buffers (as
    cblas's row-major dtrsm does). solve and logdet: A and B are
    transposed into column-major copies outside the timed region, so that
    dgesv and dgetrf factor A itself with rlx's row pivoting (X comes back
    column-major). Every timed baseline call first copies its inputs into
    the buffers LAPACK overwrites (rlx writes its result to a separate
    buffer and reads the input, the same traffic).

    Inputs: cholesky gets symmetric positive-definite matrices and the
    triangular solve a diagonally dominant one (condition(), in the rlx
    child too); solve and logdet take the harness's uniform(-1, 1)
    matrices, so partial pivoting swaps rows as it would on data. FLOPs:
    cholesky n^3/3, trsm n^2 k, getrf 2n^3/3 + getrs 2n^2 k, per matrix;
    the f64 rows' roofline is OpenBLAS dgemm, the f32 row's sgemm."""
    rows = []

    def tt(shape, dtype):
        return "tensor<" + "x".join(map(str, shape)) + f"x{dtype}>"

    def inputs(shapes, dtype, kinds):
        """The baseline's inputs: uniform(-1, 1), conditioned like rlx's."""
        rng = np.random.default_rng(0)
        out = []
        for shape, kind in zip(shapes, kinds):
            values = rng.uniform(-1, 1, shape)
            if kind:
                values = condition(values, kind)
            out.append(values.astype(np.float32 if dtype == "f32"
                                     else np.float64))
        return out

    def column_major(x):
        """Each [r, c] matrix of x stored column-major (a C-contiguous
        [..., c, r] buffer)."""
        return np.ascontiguousarray(np.swapaxes(x, -1, -2))

    def ptr(x):
        """A pointer to x's data that keeps x alive (numpy's data_as): the
        calls below are prepared once, and nothing else may hold x."""
        return x.ctypes.data_as(ctypes.c_void_p)

    ref = ctypes.byref
    char = {c: ctypes.c_char_p(c.encode()) for c in "LRUNT"}
    one = ctypes.c_size_t(1)  # a character argument's hidden length

    def describe(shape):
        return "[" + ", ".join(map(str, shape)) + "]"

    def add(op, dtype, shapes, work, text_body, results, make, make2,
            base_name, base2_name, condition_kinds, batch):
        names = {"cholesky": "cholesky", "trsm": "triangular_solve lower",
                 "solve": "solve", "logdet": "logdet"}
        args = [tt(s, dtype) for s in shapes]
        params = ", ".join(f"%a{i}: {t}" for i, t in enumerate(args))
        result_types = ", ".join(results)
        text = (f"func.func @main({params}) -> ({result_types}) {{\n"
                f"  {text_body}\n}}\n")
        loop = (f", Python loop of {batch} ctypes calls" if batch else "")
        rows.append(dict(
            group="linear algebra", kind="compute",
            name=f"{names[op]} {dtype} " + " x ".join(map(describe, shapes)),
            text=text, function="main", work=work,
            roofline="dgemm" if dtype == "f64" else "sgemm",
            condition={i: k for i, k in enumerate(condition_kinds) if k},
            baseline=base_name + " (OpenBLAS" + loop + ")",
            make_baseline=make, baseline2=base2_name, make_baseline2=make2))

    # ---- cholesky: potrf('U') of the row-major buffer, in place on a copy.
    for dtype, n, batch in (("f64", 64, None), ("f64", 256, None),
                            ("f64", 512, None), ("f32", 256, None),
                            ("f64", 16, 256)):
        shape = ([batch] if batch else []) + [n, n]
        routine = ("s" if dtype == "f32" else "d") + "potrf_"

        def potrf(ctx, shape=shape, dtype=dtype, n=n, routine=routine):
            a, = inputs([shape], dtype, ["spd"])
            work = np.empty_like(a)
            fn = ctx["blas"].fortran(routine)
            size, info = ctypes.c_int(n), ctypes.c_int(0)
            calls = [(char["U"], ref(size), ptr(m), ref(size), ref(info),
                      one) for m in work.reshape(-1, n, n)]

            def run():
                np.copyto(work, a)
                for call in calls:
                    fn(*call)
            return run, None

        def numpy_cholesky(ctx, shape=shape, dtype=dtype):
            a, = inputs([shape], dtype, ["spd"])
            return lambda: np.linalg.cholesky(a), None
        t = tt(shape, dtype)
        add("cholesky", dtype, [shape], (batch or 1) * n ** 3 / 3,
            f"%0 = rlx.cholesky %a0 : {t} -> {t}\n  return %0 : {t}",
            [t], potrf, numpy_cholesky, f"LAPACK {routine[:-1]}",
            "numpy.linalg.cholesky ({lapack})", ["spd"], batch)

    # ---- triangular_solve lower, A X = B: dtrsm('R', 'U', 'N', 'N') of
    # the row-major buffers (X^T A^T = B^T), in place on a copy of B.
    n, k = 512, 64

    def trsm(ctx, n=n, k=k):
        a, b = inputs([[n, n], [n, k]], "f64", ["dominant", None])
        work = np.empty_like(b)
        fn = ctx["blas"].fortran("dtrsm_")
        rows_, cols, alpha = ctypes.c_int(k), ctypes.c_int(n), \
            ctypes.c_double(1.0)
        call = (char["R"], char["U"], char["N"], char["N"], ref(rows_),
                ref(cols), ref(alpha), ptr(a), ref(cols), ptr(work),
                ref(rows_), one, one, one, one)

        def run():
            np.copyto(work, b)
            fn(*call)
        return run, None

    def scipy_trsm(ctx, n=n, k=k):
        import scipy.linalg
        a, b = inputs([[n, n], [n, k]], "f64", ["dominant", None])
        return lambda: scipy.linalg.solve_triangular(
            a, b, lower=True, check_finite=False), None
    ta, tb = tt([n, n], "f64"), tt([n, k], "f64")
    add("trsm", "f64", [[n, n], [n, k]], n * n * k,
        f"%0 = rlx.triangular_solve lower %a0, %a1 : {ta}, {tb} -> {tb}\n"
        f"  return %0 : {tb}", [tb], trsm, scipy_trsm, "BLAS dtrsm",
        "SciPy solve_triangular ({lapack})", ["dominant", None], None)

    # ---- solve: dgesv (getrf + getrs) of column-major copies.
    for n, k, batch in ((256, 16, None), (8, 1, 256)):
        pre = [batch] if batch else []

        def gesv(ctx, n=n, k=k, pre=pre):
            a, b = inputs([pre + [n, n], pre + [n, k]], "f64", [None, None])
            a_f, b_f = column_major(a), column_major(b)
            wa, wb = np.empty_like(a_f), np.empty_like(b_f)
            pivots = np.empty(pre + [n], np.int32)
            fn = ctx["blas"].fortran("dgesv_")
            size, rhs, info = ctypes.c_int(n), ctypes.c_int(k), \
                ctypes.c_int(0)
            calls = [(ref(size), ref(rhs), ptr(ma), ref(size), ptr(mp),
                      ptr(mb), ref(size), ref(info))
                     for ma, mb, mp in zip(wa.reshape(-1, n, n),
                                           wb.reshape(-1, k, n),
                                           pivots.reshape(-1, n))]

            def run():
                np.copyto(wa, a_f)
                np.copyto(wb, b_f)
                for call in calls:
                    fn(*call)
            return run, None

        def numpy_solve(ctx, n=n, k=k, pre=pre):
            a, b = inputs([pre + [n, n], pre + [n, k]], "f64", [None, None])
            return lambda: np.linalg.solve(a, b), None
        ta, tb = tt(pre + [n, n], "f64"), tt(pre + [n, k], "f64")
        add("solve", "f64", [pre + [n, n], pre + [n, k]],
            (batch or 1) * (2 * n ** 3 / 3 + 2 * n * n * k),
            f"%0 = rlx.solve %a0, %a1 : {ta}, {tb} -> {tb}\n"
            f"  return %0 : {tb}", [tb], gesv, numpy_solve, "LAPACK dgesv",
            "numpy.linalg.solve ({lapack})", [None, None], batch)

    # ---- logdet: dgetrf of a column-major copy, then the sign and the sum
    # of the logs of the pivots' magnitudes (O(n), in numpy).
    n = 256

    def getrf(ctx, n=n):
        a, = inputs([[n, n]], "f64", [None])
        a_f = column_major(a)
        wa = np.empty_like(a_f)
        pivots = np.empty(n, np.int32)
        unswapped = np.arange(1, n + 1, dtype=np.int32)
        fn = ctx["blas"].fortran("dgetrf_")
        size, info = ctypes.c_int(n), ctypes.c_int(0)
        call = (ref(size), ref(size), ptr(wa), ref(size), ptr(pivots),
                ref(info))

        def run():
            np.copyto(wa, a_f)
            fn(*call)
            diagonal = np.diagonal(wa)
            swaps = np.count_nonzero(pivots != unswapped)
            sign = np.prod(np.sign(diagonal)) * (-1.0) ** swaps
            return sign, np.sum(np.log(np.abs(diagonal)))
        return run, None

    def numpy_slogdet(ctx, n=n):
        a, = inputs([[n, n]], "f64", [None])
        return lambda: np.linalg.slogdet(a), None
    t, s = tt([n, n], "f64"), "tensor<f64>"
    add("logdet", "f64", [[n, n]], 2 * n ** 3 / 3,
        f"%s, %l = rlx.logdet %a0 : {t} -> {s}, {s}\n"
        f"  return %s, %l : {s}, {s}", [s, s], getrf, numpy_slogdet,
        "LAPACK dgetrf + sign, log-sum", "numpy.linalg.slogdet ({lapack})",
        [None], None)
    return rows


# ---- FFTs and spectra (issue 20) ---------------------------------------------


def hz_to_mel(f):
    return 2595.0 * np.log10(1.0 + f / 700.0)


def melscale_fbanks(n_freqs, f_min, f_max, n_mels, sample_rate):
    """torchaudio.functional.melscale_fbanks(n_freqs, f_min, f_max, n_mels,
    sample_rate, norm=None, mel_scale="htk") in float64: [n_freqs, n_mels]
    (test/E2E/signal_processing.py's, which checks rlx.log_mel with it)."""
    all_freqs = np.linspace(0, sample_rate // 2, n_freqs)
    m_pts = np.linspace(hz_to_mel(f_min), hz_to_mel(f_max), n_mels + 2)
    f_pts = 700.0 * (10.0 ** (m_pts / 2595.0) - 1.0)
    f_diff = f_pts[1:] - f_pts[:-1]
    slopes = f_pts[None, :] - all_freqs[:, None]
    down = -slopes[:, :-2] / f_diff[:-1]
    up = slopes[:, 2:] / f_diff[1:]
    return np.maximum(0.0, np.minimum(down, up))


def numpy_log_mel(x, n_fft, hop, fb, eps=1e-10):
    """torchaudio's MelSpectrogram(power=2) then log(mel + eps) in numpy:
    reflect padding by n_fft / 2, strided frames, a periodic Hann window,
    numpy.fft.rfft (float64), |.|^2, the filterbank fb [n_fft/2+1, mels];
    [..., mels, frames] like rlx.log_mel."""
    half = n_fft // 2
    padded = np.pad(x, [(0, 0)] * (x.ndim - 1) + [(half, half)],
                    mode="reflect")
    frames = np.lib.stride_tricks.sliding_window_view(
        padded, n_fft, axis=-1)[..., ::hop, :]
    window = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(n_fft) / n_fft)
    spec = np.fft.rfft(frames * window.astype(x.dtype), axis=-1)
    power = spec.real ** 2 + spec.imag ** 2
    return np.swapaxes(np.log(power @ fb + eps), -1, -2)


def torch_fft_backend():
    """The library behind torch.fft on the CPU: MKL where PyTorch was built
    with it, else pocketfft (C++; its times here do not change with
    torch.set_num_threads)."""
    import torch
    return "MKL" if torch.backends.mkl.is_available() else "pocketfft"


def signal_rows():
    """The FFTs and log-mel spectrogram of issue 20 (RlxSignalOps.td)
    against numpy.fft (pocketfft in C, one thread, always float64: numpy
    1.24 converts float32 inputs and returns complex128) and torch.fft
    (PyTorch 1.13's pocketfft when it lacks MKL, torch_fft_backend(); at
    the row's thread count by torch.set_num_threads, which its times do
    not follow) as the second baseline. Both allocate their result
    each call; rlx writes a buffer made once.

    Transforms along the last axis of a batch of signals (the harness's
    uniform(-1, 1) values; complex inputs get both parts so): rfft of f32
    and f64 signals, fft of complex<f64>, and rfft at n = 1000 (2^3 5^3:
    mixed radix) next to n = 1009 (prime: Bluestein's chirp-z, a forward
    and an inverse power-of-two FFT of 2048 points per line, the kernel's
    transform a constant). Every function takes and returns complex
    arrays as the baselines do (the runtime's c64 / c128).
    log_mel: 16 kHz, n_fft 400, hop 160, 80 mels of [16, 16000] f32 (101
    frames), against torch.stft + the mel matmul + log in torch eager
    (torchaudio's MelSpectrogram(power=2) step by step, its HTK filterbank
    computed in numpy once outside the timed region), and numpy_log_mel as
    the second baseline.

    FLOPs ("work"): 5 n log2 n per complex transform of n points, 2.5 n
    log2 n per real one (the usual counts, whatever the algorithm: the
    Bluestein row's rate is of the n-point transform it computes, and rlx's
    rfft, which transforms the n real points as n complex ones, does twice
    the arithmetic its count assumes); log_mel
    adds 2 (n_fft/2 + 1) n_mels per frame for the filterbank matmul. The
    f64 rows' roofline is dgemm, the f32 rows' sgemm.

    Every row's results are checked once against numpy in float64 (the
    rlx child saves one call's inputs and results; check_results)."""
    rows = []
    backend = torch_fft_backend()
    np_dtype = {"f32": np.float32, "f64": np.float64,
                "c128": np.complex128}
    elem = {"f32": "f32", "f64": "f64", "c128": "complex<f64>"}
    tolerance = {"f32": 1e-5, "f64": 1e-12, "c128": 1e-12}

    def tt(shape, dtype):
        return "tensor<" + "x".join(map(str, shape)) + f"x{elem[dtype]}>"

    def signals(shape, dtype):
        rng = np.random.default_rng(0)
        x = rng.uniform(-1, 1, shape)
        if dtype == "c128":
            x = x + 1j * rng.uniform(-1, 1, shape)
        return x.astype(np_dtype[dtype])

    def describe(shape):
        return "[" + ", ".join(map(str, shape)) + "]"

    def transform_row(op, dtype, shape, note=""):
        b, n = shape
        part = "f32" if dtype == "f32" else "f64"
        out_shape = [b, n // 2 + 1] if op == "rfft" else [b, n]
        t_in, t_part = tt(shape, dtype), tt(out_shape, part)
        t_out = t_part[:-len(part) - 1] + f"complex<{part}>>"
        signature = (f"{t_in} -> {t_out}" if op == "rfft" else t_in)
        text = (f"func.func @main(%a0: {t_in}) -> {t_out} {{\n"
                f"  %0 = rlx.{op} %a0 : {signature}\n"
                f"  return %0 : {t_out}\n}}\n")
        per = (2.5 if op == "rfft" else 5.0) * n * math.log2(n)

        def reference(x, op=op):
            x = x.astype(np.complex128 if np.iscomplexobj(x) else np.float64)
            return getattr(np.fft, op)(x)

        def numpy_fft(ctx, shape=shape, dtype=dtype, op=op):
            x = signals(shape, dtype)
            fn = getattr(np.fft, op)
            return lambda: fn(x), None

        def torch_fft(ctx, shape=shape, dtype=dtype, op=op):
            torch = ctx["torch"]
            x = torch.from_numpy(signals(shape, dtype))
            fn = getattr(torch.fft, op)
            return lambda: fn(x), None

        f64_note = "" if dtype != "f32" else ", f64 inside"
        rows.append(dict(
            group="signal", kind="compute",
            name=f"{op} {dtype} {describe(shape)}" + note,
            text=text, function="main", work=b * per,
            roofline="sgemm" if dtype == "f32" else "dgemm",
            baseline=f"numpy.fft.{op} (pocketfft C{f64_note})",
            make_baseline=numpy_fft,
            baseline2=f"torch.fft.{op} ({backend})",
            make_baseline2=torch_fft,
            inputs=1,
            tolerance=tolerance[dtype], reference=reference))

    for dtype in ("f32", "f64"):
        for shape in ([256, 1024], [64, 4096]):
            transform_row("rfft", dtype, shape)
    transform_row("fft", "c128", [256, 1024])
    transform_row("rfft", "f32", [256, 1000], " (mixed radix 2^3 5^3)")
    transform_row("rfft", "f32", [256, 1009], " (prime: Bluestein)")

    # ---- log_mel: 16 kHz speech front end.
    b, length, rate, n_fft, hop, mels = 16, 16000, 16000, 400, 160, 80
    frames = 1 + length // hop
    t_in = tt([b, length], "f32")
    t_out = tt([b, mels, frames], "f32")
    text = (f"func.func @main(%a0: {t_in}) -> {t_out} {{\n"
            f"  %0 = rlx.log_mel %a0 sample_rate = {float(rate)} "
            f"n_fft = {n_fft} hop_length = {hop} n_mels = {mels} : "
            f"{t_in} -> {t_out}\n  return %0 : {t_out}\n}}\n")
    fb = melscale_fbanks(n_fft // 2 + 1, 0.0, float(rate // 2), mels, rate)

    def torch_log_mel(ctx, b=b, length=length, n_fft=n_fft, hop=hop):
        torch = ctx["torch"]
        x = torch.from_numpy(signals([b, length], "f32"))
        window = torch.hann_window(n_fft, periodic=True)
        bank = torch.from_numpy(fb.astype(np.float32))

        def run():
            spec = torch.stft(x, n_fft, hop, window=window, center=True,
                              pad_mode="reflect", return_complex=True)
            power = spec.abs().pow(2.0)
            mel = torch.matmul(power.transpose(-1, -2), bank).transpose(
                -1, -2)
            return torch.log(mel + 1e-10)
        return run, None

    def numpy_mel(ctx, b=b, length=length, n_fft=n_fft, hop=hop):
        x = signals([b, length], "f32")
        return lambda: numpy_log_mel(x, n_fft, hop, fb), None

    rows.append(dict(
        group="signal", kind="compute",
        name=f"log_mel f32 {describe([b, length])} {rate // 1000} kHz "
             f"n_fft={n_fft} hop={hop} mels={mels}",
        text=text, function="main",
        work=b * frames * (2.5 * n_fft * math.log2(n_fft)
                           + 2 * (n_fft // 2 + 1) * mels),
        roofline="sgemm",
        baseline=f"torch.stft + mel matmul + log (eager, {backend})",
        make_baseline=torch_log_mel,
        baseline2="numpy (numpy.fft.rfft of strided frames, f64 inside)",
        make_baseline2=numpy_mel,
        inputs=1, tolerance=1e-4,
        reference=lambda x, n_fft=n_fft, hop=hop: numpy_log_mel(
            x.astype(np.float64), n_fft, hop, fb)))
    return rows


def all_rows(quick):
    if quick:
        return ([matmul_row("256", 256, 256, 256),
                 matmul_row("1024", 1024, 1024, 1024),
                 conv_row("3x3 64->64 @56", 1, 64, 56, 64, 3, 1, 1),
                 conv_row("7x7/2 stem 3->64 @224", 1, 3, 224, 64, 7, 2, 3)] +
                attention_rows(1, 8, 512, 64, True) +
                memory_rows()[0:1] + memory_rows()[2:4] +
                model_rows() + [resnet_block_row(1)] + dynamic_rows())
    rows = [matmul_row(str(s), s, s, s) for s in (256, 512, 1024, 2048)]
    rows += [matmul_row("128x4096 @ 4096x4096", 128, 4096, 4096),
             matmul_row("4096x1024 @ 1024x4096", 4096, 1024, 4096),
             matmul_row("[16,512,64] @ [16,64,512]", 512, 64, 512, batch=16)]
    for n in (1, 8):
        rows += [conv_row("7x7/2 stem 3->64 @224", n, 3, 224, 64, 7, 2, 3),
                 conv_row("1x1 256->64 @56", n, 256, 56, 64, 1, 1, 0),
                 conv_row("3x3 64->64 @56", n, 64, 56, 64, 3, 1, 1),
                 conv_row("3x3 128->128 @28", n, 128, 28, 128, 3, 1, 1),
                 conv_row("3x3 256->256 @14", n, 256, 14, 256, 3, 1, 1),
                 conv_row("depthwise 3x3 256 @28", n, 256, 28, 256, 3, 1, 1,
                          groups=256)]
    for config in ((1, 8, 512, 64, True), (1, 8, 1024, 64, False),
                   (1, 8, 1024, 128, True), (1, 8, 2048, 64, True),
                   (1, 8, 4096, 64, True)):
        rows += attention_rows(*config)
    return (rows + memory_rows() + model_rows() + [resnet_block_row(1)] +
            dynamic_rows() + tier2_rows() + sequence_rows() +
            state_space_rows() + linear_algebra_rows() + signal_rows())


def gpt2_stack_text(layers, d=256, seq=128, heads=4):
    """A GPT-2-style decoder stack: pre-norm attention and GELU MLP blocks,
    weights as arguments."""
    hd = d // heads
    x, x4 = ttype([1, seq, d]), ttype([1, seq, heads, hd])
    qkv, h4 = ttype([1, seq, 3 * d]), ttype([1, seq, 4 * d])
    v, v3, v4 = ttype([d]), ttype([3 * d]), ttype([4 * d])
    wqkv, wo = ttype([d, 3 * d]), ttype([d, d])
    w1, w2 = ttype([d, 4 * d]), ttype([4 * d, d])
    args, body = [f"%x: {x}"], []
    cur = "%x"
    for i in range(layers):
        args += [f"%ln1g{i}: {v}", f"%ln1b{i}: {v}", f"%wqkv{i}: {wqkv}",
                 f"%bqkv{i}: {v3}", f"%wo{i}: {wo}", f"%bo{i}: {v}",
                 f"%ln2g{i}: {v}", f"%ln2b{i}: {v}", f"%w1{i}: {w1}",
                 f"%b1{i}: {v4}", f"%w2{i}: {w2}", f"%b2{i}: {v}"]
        body.append(f"""
  %n1_{i} = rlx.layer_norm {cur}, %ln1g{i}, %ln1b{i} axis = -1 eps = 1.0e-5
      : ({x}, {v}, {v}) -> {x}
  %p_{i} = rlx.matmul %n1_{i}, %wqkv{i} : ({x}, {wqkv}) -> {qkv}
  %pb_{i} = rlx.add %p_{i}, %bqkv{i} : ({qkv}, {v3}) -> {qkv}
  %q_{i} = rlx.narrow %pb_{i} axis = -1, start = 0, length = {d} : {qkv} -> {x}
  %k_{i} = rlx.narrow %pb_{i} axis = -1, start = {d}, length = {d} : {qkv} -> {x}
  %v_{i} = rlx.narrow %pb_{i} axis = -1, start = {2 * d}, length = {d} : {qkv} -> {x}
  %q4_{i} = rlx.reshape %q_{i} : {x} -> {x4}
  %k4_{i} = rlx.reshape %k_{i} : {x} -> {x4}
  %v4_{i} = rlx.reshape %v_{i} : {x} -> {x4}
  %a4_{i} = rlx.attention bshd %q4_{i}, %k4_{i}, %v4_{i} heads = {heads} kv_heads = {heads} mask = causal
      : ({x4}, {x4}, {x4}) -> {x4}
  %a_{i} = rlx.reshape %a4_{i} : {x4} -> {x}
  %o_{i} = rlx.matmul %a_{i}, %wo{i} : ({x}, {wo}) -> {x}
  %ob_{i} = rlx.add %o_{i}, %bo{i} : ({x}, {v}) -> {x}
  %h_{i} = rlx.add {cur}, %ob_{i} : ({x}, {x}) -> {x}
  %n2_{i} = rlx.layer_norm %h_{i}, %ln2g{i}, %ln2b{i} axis = -1 eps = 1.0e-5
      : ({x}, {v}, {v}) -> {x}
  %u_{i} = rlx.matmul %n2_{i}, %w1{i} : ({x}, {w1}) -> {h4}
  %ub_{i} = rlx.add %u_{i}, %b1{i} : ({h4}, {v4}) -> {h4}
  %g_{i} = rlx.gelu %ub_{i} : {h4}
  %m_{i} = rlx.matmul %g_{i}, %w2{i} : ({h4}, {w2}) -> {x}
  %mb_{i} = rlx.add %m_{i}, %b2{i} : ({x}, {v}) -> {x}
  %y_{i} = rlx.add %h_{i}, %mb_{i} : ({x}, {x}) -> {x}""")
        cur = f"%y_{i}"
    args += [f"%lnfg: {v}", f"%lnfb: {v}"]
    body.append(f"""
  %out = rlx.layer_norm {cur}, %lnfg, %lnfb axis = -1 eps = 1.0e-5
      : ({x}, {v}, {v}) -> {x}
  return %out : {x}""")
    return ("func.func @gpt2(" + ",\n    ".join(args) + f") -> {x} {{" +
            "".join(body) + "\n}\n")


# ---- running ----------------------------------------------------------------


def sgemm_roofline(ctx, size, runs, budget):
    rng = np.random.default_rng(1)
    a, b = (rng.uniform(-1, 1, (size, size)).astype(np.float32)
            for _ in range(2))
    c = np.empty((size, size), np.float32)
    result = {}
    for threads in THREADS:
        ctx["blas"].set_threads(threads)
        ms, _ = measure(lambda: ctx["blas"].sgemm(a, b, c), runs, budget)
        result[threads] = 2 * size ** 3 / ms / 1e6
    return result


def dgemm_roofline(ctx, size, runs, budget):
    """OpenBLAS dgemm GFLOP/s at each thread count: the roofline of the f64
    rows (f64 FMAs are half as many per vector as f32's)."""
    rng = np.random.default_rng(1)
    a, b = (rng.uniform(-1, 1, (size, size)) for _ in range(2))
    c = np.empty((size, size))
    result = {}
    for threads in THREADS:
        ctx["blas"].set_threads(threads)
        ms, _ = measure(lambda: ctx["blas"].dgemm(a, b, c), runs, budget)
        result[threads] = 2 * size ** 3 / ms / 1e6
    return result


DGEMM_SIZE = 1024


def copy_ms(nbytes, runs, budget):
    src = np.random.default_rng(2).uniform(-1, 1, nbytes // 4).astype(
        np.float32)
    dst = np.empty_like(src)
    return measure(lambda: np.copyto(dst, src), runs, budget)[0]


def run_rows(args, rows, ctx, log):
    tools = os.path.join(args.build, "bin")
    cache = os.path.join(args.build, "bench-cache")
    os.makedirs(cache, exist_ok=True)
    log(f"compiling {len(rows)} rows (2 at a time; cached in {cache})")
    with ThreadPoolExecutor(max_workers=2) as pool:
        compiled = list(pool.map(
            lambda r: compile_cached(tools, cache, r["text"],
                                     r.get("flags", ())), rows))
        # Rows whose baseline is rlx itself on a static version of the text.
        static = list(pool.map(
            lambda r: compile_cached(tools, cache, r["static_text"])
            if "static_text" in r else (None, None), rows))
    torch, blas = ctx["torch"], ctx["blas"]
    if any(row.get("roofline") == "dgemm" for row in rows) and \
            "dgemm" not in ctx:
        wait_for_quiet(args.quiet_timeout)
        ctx["dgemm"] = dgemm_roofline(ctx, DGEMM_SIZE, args.runs, args.budget)
        log(f"OpenBLAS dgemm ({DGEMM_SIZE}^3): " + ", ".join(
            f"{t}T {g:.1f} GFLOP/s" for t, g in ctx["dgemm"].items()))
    results = []
    for row, (so, error), (static_so, static_error) in zip(rows, compiled,
                                                           static):
        res = {k: row[k] for k in ("group", "name", "kind", "work",
                                   "baseline")}
        res.update(flops=row.get("flops"), error=error or static_error,
                   rlx={}, base={})
        if row.get("roofline") == "dgemm":
            res["peak"] = dict(ctx["dgemm"])
        if "make_baseline2" in row:  # a second baseline, its own column
            res.update(baseline2=row["baseline2"].format(
                lapack=numpy_lapack()), base2={})
        res["busy"] = not wait_for_quiet(args.quiet_timeout)
        if so:
            with tempfile.TemporaryDirectory() as tmp:
                dump = (os.path.join(tmp, "call.npz") if "reference" in row
                        else None)
                timed = rlx_times(args.build, so, row["function"], args.runs,
                                  args.budget, row.get("symbols", ()),
                                  row.get("condition"), dump)
                if isinstance(timed, str):
                    res["error"] = timed
                else:
                    res["rlx"] = timed
                    if dump:
                        check_results(row, res, dump)
        if "static_text" in row:
            timed = rlx_times(args.build, static_so, row["function"],
                              args.runs, args.budget) if static_so else \
                static_error
            if isinstance(timed, str):
                res["error"] = res["error"] or timed
                timed = {t: (math.nan, 0) for t in THREADS}
            res["base"] = timed
        for threads in THREADS if "static_text" not in row else ():
            torch.set_num_threads(threads)
            blas.set_threads(threads)
            fn, setup = row["make_baseline"](ctx)
            res["base"][threads] = measure(fn, args.runs, args.budget, setup)
            if "make_baseline2" in row:
                fn, setup = row["make_baseline2"](ctx)
                res["base2"][threads] = measure(fn, args.runs, args.budget,
                                                setup)
        if row["kind"] == "memory":
            res["copy_ms"] = copy_ms(row["copy_bytes"], args.runs,
                                     args.budget)
        res["busy"] = res["busy"] or others_runnable() > 0
        results.append(res)
        log(summary_line(res, ctx["sgemm"]))
    return results


def check_results(row, res, dump):
    """Compares the results of the rlx child's first call (saved in `dump`)
    with row["reference"](*inputs), numpy in float64: res["check"] is the
    largest error relative to the largest magnitude of the reference, and
    an error above row["tolerance"] fails the row (its times stay in the
    JSON, not in the table)."""
    with np.load(dump) as saved:
        arrays = [saved[f"arr_{i}"] for i in range(len(saved.files))]
    wants = row["reference"](*arrays[:row["inputs"]])
    wants = wants if isinstance(wants, tuple) else (wants,)
    worst = 0.0
    for got, want in zip(arrays[row["inputs"]:], wants):
        if got.shape != want.shape:
            res["error"] = (f"wrong result: shape {list(got.shape)}, "
                            f"numpy's {list(want.shape)}")
            return
        scale = float(np.max(np.abs(want))) or 1.0
        err = float(np.max(np.abs(got.astype(want.dtype) - want))) / scale
        worst = max(worst, err if math.isfinite(err) else math.inf)
    res["check"] = worst
    if not worst <= row["tolerance"]:
        res["error"] = (f"wrong result: largest error {worst:.2e} of the "
                        f"reference's magnitude (tolerance "
                        f"{row['tolerance']:.0e})")


def compile_time(args, layers, log):
    tools = os.path.join(args.build, "bin")
    quiet = wait_for_quiet(args.quiet_timeout)
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "gpt2.mlir")
        with open(src, "w") as f:
            f.write(gpt2_stack_text(layers))
        start = time.perf_counter()
        proc = subprocess.run([os.path.join(tools, "rlx-compile"), src, "-o",
                               os.path.join(tmp, "gpt2.so")],
                              capture_output=True, text=True)
        seconds = time.perf_counter() - start
    error = None if proc.returncode == 0 else \
        (proc.stderr.strip().splitlines() or ["failed"])[0]
    busy = not quiet or others_runnable() > 0
    log(f"compile {layers}-layer GPT-2-style stack: {seconds:.1f} s"
        + (f" ({error})" if error else "") + (" (busy)" if busy else ""))
    return {"layers": layers, "seconds": seconds, "error": error,
            "busy": busy}


# ---- reporting --------------------------------------------------------------


def rate(res, ms):
    """GFLOP/s for compute rows, GB/s for memory rows."""
    return res["work"] / ms / 1e6


def fraction(res, threads, sgemm):
    """Of the roofline: sgemm's rate, or the row's own ("peak": dgemm's for
    the f64 rows), or for memory rows the time of a copy."""
    ms = res["rlx"].get(threads, [None])[0]
    if ms is None:
        return None
    if res["kind"] == "memory":
        return res["copy_ms"] / ms
    return rate(res, ms) / (res.get("peak") or sgemm)[threads]


def summary_line(res, sgemm):
    if res["error"]:
        timed = ", ".join(f"{t}T rlx {ms:.2f} ms" for t, (ms, _) in
                          sorted(res["rlx"].items()))
        return (f"{res['group']}: {res['name']}: rlx failed: {res['error']}"
                + (f" ({timed})" if timed else ""))
    parts = []
    for t in THREADS:
        ours, theirs = res["rlx"][t][0], res["base"][t][0]
        parts.append(f"{t}T rlx {ours:.2f} ms, base {theirs:.2f} ms, "
                     + (f"base2 {res['base2'][t][0]:.2f} ms, "
                        if res.get("base2") else "") +
                     f"ratio {theirs / ours:.2f}, "
                     f"{fraction(res, t, sgemm):.0%} roofline")
    checked = (f" (checked against numpy: error {res['check']:.1e} of the "
               "largest magnitude)" if res.get("check") is not None else "")
    return f"{res['group']}: {res['name']}: " + "; ".join(parts) + checked


def fmt_ms(ms):
    return f"{ms:.3g}" if ms < 100 else f"{ms:.0f}"


def table(results, sgemm):
    """A group's table; with the columns of a second baseline when a row
    of the group has one."""
    second = any(res.get("base2") for res in results)
    lines = ["| row | threads | rlx ms | baseline | baseline ms | ratio "
             "(baseline/rlx) | rlx rate | of roofline | runs |" +
             (" second baseline | its ms (ratio) |" if second else ""),
             "|---|---|---|---|---|---|---|---|---|" +
             ("---|---|" if second else "")]
    for res in results:
        name = res["name"] + (" (busy)" if res["busy"] else "")
        for t in THREADS:
            base_ms, base_runs = res["base"][t]
            ms, runs = res["rlx"][t] if not res["error"] else (None, 0)
            extra = ""
            if second and res.get("base2"):
                ms2 = res["base2"][t][0]
                extra = (f" {res['baseline2']} | {fmt_ms(ms2)}" +
                         (f" ({ms2 / ms:.2f}x)" if ms else "") + " |")
            elif second:
                extra = " — | — |"
            if res["error"]:
                lines.append(f"| {name} | {t} | failed | "
                             f"{res['baseline']} | {fmt_ms(base_ms)} | — | — "
                             f"| — | {base_runs} |" + extra)
                continue
            unit = "GB/s" if res["kind"] == "memory" else "GFLOP/s"
            lines.append(
                f"| {name} | {t} | {fmt_ms(ms)} | {res['baseline']} | "
                f"{fmt_ms(base_ms)} | {base_ms / ms:.2f}x | "
                f"{rate(res, ms):.1f} {unit} | "
                f"{fraction(res, t, sgemm):.0%} | {runs}/{base_runs} |" +
                extra)
    return "\n".join(lines)


def save_small_png(fig, path):
    """Saves the figure as a 64-colour PNG: a fifth of the RGBA size, for a
    file kept in git."""
    from io import BytesIO

    from PIL import Image  # python3-pil, a dependency of python3-matplotlib
    buffer = BytesIO()
    fig.savefig(buffer, format="png")
    buffer.seek(0)
    Image.open(buffer).convert("RGB").quantize(64).save(path, optimize=True)


def plots(results, sgemm, out_dir):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    os.makedirs(out_dir, exist_ok=True)
    written = []
    for group, fname in (("matmul", "cpu-matmul.png"),
                         ("conv2d", "cpu-conv2d.png"),
                         ("attention", "cpu-attention.png")):
        rows = [r for r in results if r["group"] == group and not r["error"]]
        if not rows:
            continue
        fig, ax = plt.subplots(figsize=(7, 0.35 * len(rows) + 1.4), dpi=90)
        y = np.arange(len(rows))
        height = 0.8 / (2 * len(THREADS))
        for i, t in enumerate(THREADS):
            ours = [rate(r, r["rlx"][t][0]) for r in rows]
            theirs = [rate(r, r["base"][t][0]) for r in rows]
            ax.barh(y + (2 * i) * height, ours, height, label=f"rlx, {t}T")
            ax.barh(y + (2 * i + 1) * height, theirs, height,
                    label=f"{rows[0]['baseline'].split(' (')[0]}, {t}T")
        for t in THREADS:
            ax.axvline(sgemm[t], color="gray", linestyle=":", linewidth=1)
        ax.set_yticks(y + 0.4 - height / 2)
        ax.set_yticklabels([r["name"] for r in rows], fontsize=7)
        ax.invert_yaxis()
        ax.set_xlabel("GFLOP/s (dotted: OpenBLAS sgemm roofline per thread "
                      "count)", fontsize=8)
        ax.legend(fontsize=7, loc="lower right")
        ax.set_title(f"{group}, f32", fontsize=9)
        fig.tight_layout()
        path = os.path.join(out_dir, fname)
        save_small_png(fig, path)
        plt.close(fig)
        written.append(path)

    rows = [r for r in results if not r["error"]]
    fig, ax = plt.subplots(figsize=(7, 0.2 * len(rows) + 1.2), dpi=90)
    y = np.arange(len(rows))
    for i, t in enumerate(THREADS):
        ratios = [r["base"][t][0] / r["rlx"][t][0] for r in rows]
        ax.barh(y + i * 0.4, ratios, 0.4, label=f"{t} thread(s)")
    ax.axvline(1, color="black", linewidth=1)
    ax.set_xscale("log")
    ax.set_yticks(y + 0.2)
    ax.set_yticklabels([f"{r['group']}: {r['name']}" for r in rows],
                       fontsize=6)
    ax.invert_yaxis()
    ax.set_xlabel("baseline time / rlx time (> 1: rlx faster)", fontsize=8)
    ax.legend(fontsize=7)
    fig.tight_layout()
    path = os.path.join(out_dir, "cpu-ratios.png")
    save_small_png(fig, path)
    plt.close(fig)
    written.append(path)
    return written


def git_describe():
    def git(*a):
        return subprocess.run(["git", "-C", ROOT, *a], capture_output=True,
                              text=True).stdout.strip()
    commit = git("rev-parse", "--short=12", "HEAD")
    dirty = bool(git("status", "--porcelain", "--untracked-files=no"))
    return commit + (" with uncommitted changes" if dirty else "")


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            model = re.search(r"model name\s*:\s*(.*)", f.read())
        return model.group(1).strip() if model else platform.processor()
    except OSError:
        return platform.processor()


def markdown(meta, results, sgemm, compile_result, plot_paths, doc_dir):
    groups = []
    for res in results:
        if res["group"] not in groups:
            groups.append(res["group"])
    out = [SECTION_TITLE, "",
           f"Measured {meta['date']} on commit {meta['commit']}: "
           f"{meta['cpu']}, {ALL_THREADS} cores "
           f"({'quick subset' if meta['quick'] else 'full run'}). "
           "Regenerate with `make bench` (this section and `docs/bench/`; "
           "`bench/cpu.py --quick` for a small subset); "
           "the method is in `bench/cpu.py`'s docstring.", "",
           "- rlx: the row compiled by `rlx-compile` at its default -O "
           "level, loaded with the `rlx` Python package (ctypes over "
           "`librlx_runtime.so`) in a process without PyTorch or OpenBLAS, "
           "threads set by `rlx.set_num_threads`, a bound call (one "
           "`rlx_function_invoke` per run, inputs and outputs made once) "
           "timed in-process.",
           "- Baselines in the same run: OpenBLAS `cblas_sgemm` through "
           "ctypes (threads by `openblas_set_num_threads`) for matmul, "
           "oneDNN through PyTorch 1.13 `conv2d` for convolutions, "
           "OpenBLAS's LAPACK for the linear-algebra rows and `numpy.fft` "
           "for the FFT rows (with `numpy.linalg` and `torch.fft` in a "
           "second column), PyTorch "
           "eager (`torch.set_num_threads`) for the rest. This PyTorch uses "
           "the reference BLAS for its matmuls, so its attention and model "
           "rows are a weak baseline; the roofline column is the fair one. "
           "The dynamic-shapes rows compare a function with `?` sizes, run "
           "at the given sizes, against the same text with those sizes "
           "static, both compiled by rlx (ratio > 0.9: within 10%).",
           f"- Time: median of up to {meta['runs']} samples after a warm-up, "
           f"stopping after ~{meta['budget']} s per measurement (runs: "
           "rlx/baseline); a sample is one call, or for calls under "
           f"{MIN_SAMPLE_S * 1e3:.0f} ms the mean of a batch of back-to-back "
           "calls lasting about that long; ratio = baseline time / rlx time (> 1: rlx "
           "faster).",
           "- Roofline: compute rows give rlx GFLOP/s as a fraction of "
           "OpenBLAS sgemm at the same thread count ("
           + ", ".join(f"{t} thread{'s' if t > 1 else ''}: "
                       f"{sgemm[t]:.0f} GFLOP/s" for t in THREADS)
           + f": the best of a {meta['sgemm_size']}³ sgemm and the matmul "
           "rows' baselines in this run); memory rows give the "
           "time of `numpy.copyto` of the same bytes (the op's input) divided "
           "by rlx's time, and their rate counts input + output bytes."
           + dgemm_note(results),
           "- Environment: `OPENBLAS_CORETYPE`, `OPENBLAS_L2_SIZE` and the "
           "`*_NUM_THREADS` variables unset. The machine is shared: each "
           "row waits for a moment when no other task is runnable; a row "
           "marked (busy) saw another task runnable before or right after "
           f"its measurements ({meta['busy_rows']} of {len(results)} rows)"
           + (": there the all-core rows shared a core with that task, so "
              "their thread scaling (rlx's and the baselines') is not "
              "measured." if meta["busy_rows"] else "."), ""]
    for group in groups:
        out += [f"### {group}", "",
                table([r for r in results if r["group"] == group], sgemm), ""]
    if compile_result:
        c = compile_result
        out += ["### compile time", "",
                f"`rlx-compile` (default -O level) on a {c['layers']}-layer "
                "GPT-2-style decoder stack (d=256, 4 heads, 128 tokens, "
                "pre-norm attention + GELU MLP, weights as arguments; "
                "generated by `bench/cpu.py`): "
                + (f"failed: {c['error']}" if c["error"]
                   else f"**{c['seconds']:.1f} s** wall clock"
                   + (" (busy: another task was runnable)." if c["busy"]
                      else ".")), ""]
    for path in plot_paths:
        rel = os.path.relpath(path, doc_dir)
        out.append(f"![{os.path.basename(path)}]({rel})")
    out.append("")
    return "\n".join(out)


def dgemm_note(results):
    """The roofline sentence's addition for rows measured against dgemm."""
    peak = next((r["peak"] for r in results if r.get("peak")), None)
    if not peak:
        return ""
    return (" The f64 rows' roofline is OpenBLAS dgemm instead (a "
            f"{DGEMM_SIZE}³ dgemm in the same run: " +
            ", ".join(f"{t} thread{'s' if t > 1 else ''}: {peak[t]:.0f} "
                      "GFLOP/s" for t in THREADS) + ").")


def write_section(doc, section):
    """Replaces the CPU section of `doc` (up to the next "## "), or puts it
    first after the introduction."""
    with open(doc) as f:
        text = f.read()
    pattern = re.compile(r"^" + re.escape(SECTION_TITLE) + r"\n.*?(?=^## |\Z)",
                         re.S | re.M)
    if pattern.search(text):
        text = pattern.sub(lambda _: section + "\n", text, count=1)
    else:
        first = re.search(r"^## ", text, re.M)
        at = first.start() if first else len(text)
        text = text[:at] + section + "\n" + text[at:]
    with open(doc, "w") as f:
        f.write(text)


def best_sgemm(measured, results):
    """The roofline at each thread count: the best OpenBLAS sgemm rate of
    the run (the dedicated measurement or a matmul row's baseline), so that
    one measurement disturbed by another task does not lower it."""
    best = dict(measured)
    for res in results:
        if res["group"] == "matmul":
            for t, (ms, _) in res["base"].items():
                best[t] = max(best[t], rate(res, ms))
    return best


def load_results(path):
    """The saved results of a run, with thread counts as integers again."""
    with open(path) as f:
        saved = json.load(f)
    by_threads = lambda d: {int(t): v for t, v in d.items()}  # noqa: E731
    for res in saved["rows"]:
        res["rlx"], res["base"] = by_threads(res["rlx"]), \
            by_threads(res["base"])
        for key in ("base2", "peak"):
            if key in res:
                res[key] = by_threads(res[key])
    return (saved["meta"], by_threads(saved["sgemm"]), saved["rows"],
            saved["compile"])


def render(args, meta, sgemm, results, compile_result):
    sgemm = best_sgemm(sgemm, results)
    plot_paths = plots(results, sgemm, args.plots) if args.plots else []
    doc_dir = os.path.dirname(os.path.abspath(args.write or "docs/x"))
    section = markdown(meta, results, sgemm, compile_result, plot_paths,
                       doc_dir)
    if args.write:
        write_section(args.write, section)
        print(f"wrote the CPU section of {args.write}")
    else:
        print(section)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--budget", type=float, default=3.0,
                        help="seconds of timed calls per measurement")
    parser.add_argument("--write", metavar="DOC",
                        help="replace the CPU section of DOC with the tables")
    parser.add_argument("--plots", metavar="DIR", help="write PNG plots here")
    parser.add_argument("--json", metavar="FILE", help="write raw results")
    parser.add_argument("--render", metavar="FILE",
                        help="measure nothing: write the tables and plots "
                             "of the results saved by --json")
    parser.add_argument("--only", metavar="REGEX",
                        help="measure only the rows whose name matches "
                             "(and not the compile time)")
    parser.add_argument("--quiet-timeout", type=float, default=60,
                        help="seconds each row waits for an idle machine")
    parser.add_argument("--rlx-child", action="store_true",
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.rlx_child:
        rlx_child(json.load(sys.stdin))
        return
    if args.render:
        render(args, *load_results(args.render))
        return
    if args.quick:
        args.runs, args.budget = min(args.runs, 3), min(args.budget, 1.0)
        args.quiet_timeout = min(args.quiet_timeout, 10)
    args.build = os.path.abspath(args.build)
    sys.path.insert(0, os.path.join(ROOT, "python"))
    meta = {"date": datetime.date.today().isoformat(),
            "commit": git_describe(), "cpu": cpu_name(), "quick": args.quick,
            "runs": args.runs, "budget": args.budget,
            "sgemm_size": 1024 if args.quick else 2048}

    import torch
    start = time.perf_counter()

    def log(msg):
        print(f"[{time.perf_counter() - start:6.0f} s] {msg}", flush=True)
    ctx = {"torch": torch, "blas": OpenBlas()}
    wait_for_quiet(args.quiet_timeout)
    ctx["sgemm"] = sgemm_roofline(ctx, meta["sgemm_size"], args.runs,
                                  args.budget)
    log("OpenBLAS sgemm: " + ", ".join(
        f"{t}T {g:.1f} GFLOP/s" for t, g in ctx["sgemm"].items()))
    rows = all_rows(args.quick)
    if args.only:
        rows = [row for row in rows if re.search(args.only, row["name"])]
    results = run_rows(args, rows, ctx, log)
    compile_result = (None if args.only else
                      compile_time(args, 2 if args.quick else 12, log))
    meta["busy_rows"] = sum(r["busy"] for r in results)
    if args.json:
        os.makedirs(os.path.dirname(os.path.abspath(args.json)),
                    exist_ok=True)
        with open(args.json, "w") as f:
            json.dump({"meta": meta, "sgemm": ctx["sgemm"],
                       "rows": results, "compile": compile_result}, f,
                      indent=1)
    render(args, meta, ctx["sgemm"], results, compile_result)


if __name__ == "__main__":
    main()
