#!/usr/bin/env python3
"""Distributed benchmark (issue 21): one data-parallel SGD step on 1 and 2
processes, and the share of it spent in MPI_Allreduce. No timing is
asserted anywhere: they depend on the machine.

  make bench             # after bench/cpu.py: writes its section of the docs
  /usr/bin/python3 bench/distributed.py [--quick] [--only REGEX] [--build build]
        [--runs 10] [--rounds 3] [--write docs/benchmarks.md] [--json FILE]
  /usr/bin/python3 bench/distributed.py --render FILE --write ...
        # rewrite the section from saved results, measuring nothing

The workload is bench/data_parallel_mlp.mlir: one SGD step of a
256 -> 512 -> 512 -> 10 ReLU perceptron on a batch of 2048 (f32; the
gradient by rlx.differentiate). It is compiled twice:

- for one process: `rlx-opt --rlx-autodiff --inline`, then `rlx-compile`
  (the mesh pipeline inlines too, so both run the same graph);
- for two: `rlx-compile --mesh=2 --data-parallel=train_step:6:7` (x and the
  labels split by rows, every gradient and the loss all-reduced in the
  step).

Each configuration is timed by `rlx-run --bench RUNS` (the median of RUNS
calls after a warm-up call, printed by rank 0 under mpirun), `--rounds`
times, interleaved; the table gives the median of the rounds' medians:

- 1 process, RLX_NUM_THREADS=1 and =2 (the fair comparison for two
  processes on two cores is the one process with two threads);
- 2 processes under `mpirun --mca btl self,vader` (shared memory),
  RLX_NUM_THREADS=1 each, with a PMPI interposer (bench/allreduce_timer.c,
  built here with mpicc and loaded by LD_PRELOAD) that logs the wall time
  and bytes of every MPI_Allreduce. The calls are grouped into steps by the
  agreement (a one-int all-reduce) that begins every call of a mesh
  function; the per-step sum over the timed calls gives the communication
  time, whose median is divided by the step's median: the share. The time
  inside MPI_Allreduce includes waiting for the other process to arrive.
- the same all-reduces by themselves (bench/allreduce_bench.c: after a
  barrier, so nobody waits for anybody's computation) and a memcpy of
  their bytes: the all-reduce's own cost and bandwidth.

Every configuration runs twice: with glibc's default malloc, and with
GLIBC_TUNABLES raising its mmap and trim thresholds to 1 GiB. The module
allocates its intermediate buffers (4 MiB each here) per call; by default
glibc maps large ones freshly on every call, and the page faults that
follow cost more than the step's arithmetic (see docs/benchmarks.md).

OPENBLAS_CORETYPE, OPENBLAS_L2_SIZE and the *_NUM_THREADS variables are
removed from the environment (as bench/cpu.py does); each run gets its
RLX_NUM_THREADS. The machine may be shared: each round waits (up to
--quiet-timeout seconds) for no other runnable task, and marks rounds that
saw one.
"""
import argparse
import datetime
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

import cpu  # noqa: E402  (cleans the environment as it loads)
import numpy as np  # noqa: E402

ROOT = cpu.ROOT
HERE = os.path.dirname(os.path.abspath(__file__))
SECTION_TITLE = "## Distributed: data-parallel training step (issue 21)"
WORKLOAD = os.path.join(HERE, "data_parallel_mlp.mlir")
FUNCTION = "train_step"
DATA_PARALLEL = "train_step:6:7"
BATCH, SIZES = 2048, (256, 512, 512, 10)
MPIRUN = ["mpirun", "--allow-run-as-root", "--oversubscribe",
          "--mca", "btl", "self,vader"]
TUNED_MALLOC = ("glibc.malloc.mmap_threshold=1073741824:"
                "glibc.malloc.trim_threshold=1073741824")
ROW_NAME = "data-parallel MLP train_step"
TIMEOUT = 300


def flops():
    """Forward matmuls plus the backward's (weight gradients for every
    layer, input gradients for all but the first)."""
    layers = list(zip(SIZES[:-1], SIZES[1:]))
    forward = sum(2 * BATCH * k * n for k, n in layers)
    backward = sum(2 * BATCH * k * n * (1 if i == 0 else 2)
                   for i, (k, n) in enumerate(layers))
    return forward + backward


def parameter_count():
    return sum(k * n + n for k, n in zip(SIZES[:-1], SIZES[1:]))


def run(args, **kw):
    proc = subprocess.run(args, capture_output=True, text=True,
                          timeout=TIMEOUT, **kw)
    if proc.returncode != 0:
        tail = (proc.stderr.strip() or proc.stdout.strip()).splitlines()[-3:]
        raise RuntimeError(f"{' '.join(args[:3])}... failed "
                           f"(exit {proc.returncode}): " + " | ".join(tail))
    return proc.stdout


def build(tools, work):
    """The two modules, the interposer and the all-reduce benchmark."""
    inlined = os.path.join(work, "inlined.mlir")
    run([os.path.join(tools, "rlx-opt"), WORKLOAD, "--rlx-autodiff",
         "--inline", "-o", inlined])
    single = os.path.join(work, "single.so")
    run([os.path.join(tools, "rlx-compile"), inlined, "-o", single])
    mesh = os.path.join(work, "mesh2.so")
    run([os.path.join(tools, "rlx-compile"), WORKLOAD, "--mesh=2",
         f"--data-parallel={DATA_PARALLEL}", "-o", mesh])
    timer = os.path.join(work, "allreduce_timer.so")
    run(["mpicc", "-shared", "-fPIC", "-O2", "-o", timer,
         os.path.join(HERE, "allreduce_timer.c")])
    bench = os.path.join(work, "allreduce_bench")
    run(["mpicc", "-O2", "-o", bench, os.path.join(HERE, "allreduce_bench.c")])
    return single, mesh, timer, bench


def make_inputs(work):
    rng = np.random.default_rng(0)
    arrays = []
    for k, n in zip(SIZES[:-1], SIZES[1:]):
        bound = 1 / np.sqrt(k)  # PyTorch's nn.Linear initialization
        arrays += [rng.uniform(-bound, bound, (k, n)).astype(np.float32),
                   rng.uniform(-bound, bound, n).astype(np.float32)]
    arrays.append(rng.standard_normal((BATCH, SIZES[0])).astype(np.float32))
    arrays.append(rng.integers(0, SIZES[-1], BATCH).astype(np.int64))
    flags = []
    for i, array in enumerate(arrays):
        path = os.path.join(work, f"in{i}.npy")
        np.save(path, array)
        flags += ["-i", path]
    return flags


def parse_run(out):
    median = re.search(r"^median: ([0-9.]+) ms", out, re.M)
    loss = re.search(r"^output 0: f32\[\] = (\S+)", out, re.M)
    if not median:
        raise RuntimeError("no median in rlx-run's output: " + out[-200:])
    return float(median.group(1)), float(loss.group(1)) if loss else None


def read_log(path, skip_steps=1):
    """Per step (after `skip_steps` warm-up steps): (all-reduce ns, bytes,
    calls) of the step's data all-reduces, and the agreements' ns. The
    agreement (one MPI_INT32_T) starts each call; a group without data
    all-reduces (the module's size query, rlx-run's agreement before
    --bench) is not a step."""
    steps, current = [], None
    with open(path) as f:
        for line in f:
            dtype, count, nbytes, ns = line.split()
            if dtype.startswith("MPI_INT") and count == "1":
                current = {"ns": 0, "bytes": 0, "calls": 0,
                           "agree_ns": int(ns), "sizes": []}
                steps.append(current)
            elif current is not None:
                current["ns"] += int(ns)
                current["bytes"] += int(nbytes)
                current["calls"] += 1
                current["sizes"].append(int(count))
    steps = [s for s in steps if s["calls"]]
    return steps[skip_steps:]


def configurations(single, mesh, timer, log):
    configs = []
    for malloc in ("default", "tuned"):
        env = {"GLIBC_TUNABLES": TUNED_MALLOC} if malloc == "tuned" else {}
        for threads in (1, 2):
            configs.append(dict(
                name=f"1 process, {threads} thread{'s' * (threads > 1)}",
                malloc=malloc, processes=1, threads=threads,
                command=lambda flags, runs, env=env, threads=threads: (
                    [os.path.join(TOOLS, "rlx-run"), single, "-f", FUNCTION,
                     *flags, "--bench", str(runs)],
                    dict(env, RLX_NUM_THREADS=str(threads)))))
        exports = ["-x", "RLX_NUM_THREADS=1", "-x", f"LD_PRELOAD={timer}",
                   "-x", f"RLX_BENCH_ALLREDUCE_LOG={log}.{malloc}"]
        if env:
            exports += ["-x", "GLIBC_TUNABLES"]
        configs.append(dict(
            name="2 processes, 1 thread each", malloc=malloc, processes=2,
            threads=1, log=f"{log}.{malloc}",
            command=lambda flags, runs, env=env, exports=exports: (
                MPIRUN + exports + ["-np", "2", os.path.join(TOOLS, "rlx-run"),
                                    mesh, "-f", FUNCTION, *flags, "--bench",
                                    str(runs)],
                dict(env, RLX_NUM_THREADS="1"))))
    return configs


def measure(args, configs, flags, bench, logf):
    for config in configs:
        config.update(medians=[], busy=False, comm=[], agree=[], steps=[])
    for round_ in range(args.rounds):
        for config in configs:
            config["busy"] |= not cpu.wait_for_quiet(args.quiet_timeout)
            command, extra = config["command"](flags, args.runs)
            env = dict(os.environ, **extra)
            out = run(command, env=env)
            ms, loss = parse_run(out)
            config["busy"] |= cpu.others_runnable() > 0
            config["medians"].append(ms)
            config["loss"] = loss
            if "log" in config:
                steps = []
                for rank in (0, 1):
                    path = f"{config['log']}.{rank}"
                    steps.append(read_log(path))
                    os.remove(path)
                config["steps"] = steps
                # Per rank: median over the timed steps.
                config["comm"].append([statistics.median(
                    s["ns"] for s in rank_steps) / 1e6 for rank_steps in steps])
                config["agree"].append([statistics.median(
                    s["agree_ns"] for s in rank_steps) / 1e6
                    for rank_steps in steps])
            logf(f"round {round_ + 1}: {config['name']} ({config['malloc']} "
                 f"malloc): {ms:.2f} ms" +
                 (f", all-reduce {config['comm'][-1][0]:.2f}/"
                  f"{config['comm'][-1][1]:.2f} ms (rank 0/1)"
                  if "log" in config else ""))
    results = []
    for config in configs:
        res = {k: config[k] for k in ("name", "malloc", "processes",
                                      "threads", "medians", "busy", "loss")}
        res["ms"] = statistics.median(config["medians"])
        if config["comm"]:
            res["comm_ms"] = [statistics.median(c[r] for c in config["comm"])
                              for r in (0, 1)]
            res["agree_ms"] = [statistics.median(c[r] for c in config["agree"])
                               for r in (0, 1)]
            step = config["steps"][0][0]
            res["bytes"], res["calls"] = step["bytes"], step["calls"]
            res["sizes"] = step["sizes"]
        results.append(res)
    # The all-reduces by themselves, and a memcpy of their bytes.
    sizes = next(r["sizes"] for r in results if "sizes" in r)
    out = run(MPIRUN + ["-np", "2", bench, str(max(args.runs, 20)),
                        *map(str, sizes)])
    alone = {k: int(v) for k, v in re.findall(r"^(\w+) (\d+)$", out, re.M)}
    logf(f"all-reduces alone: {alone['allreduce_ns'] / 1e6:.3f} ms, memcpy "
         f"{alone['copy_ns'] / 1e6:.3f} ms of {alone['bytes']} bytes")
    return results, alone


def fmt(ms):
    return f"{ms:.3g}" if ms < 100 else f"{ms:.0f}"


def markdown(meta, results, alone):
    def find(malloc, processes, threads):
        return next(r for r in results if r["malloc"] == malloc and
                    r["processes"] == processes and r["threads"] == threads)
    gflop = flops() / 1e9
    out = [SECTION_TITLE, "",
           f"Measured {meta['date']} on commit {meta['commit']}: "
           f"{meta['cpu']}, {cpu.ALL_THREADS} cores, OpenMPI "
           f"{meta['mpi']} ({'quick' if meta['quick'] else 'full run'}). "
           "Regenerate with `make bench` (after the CPU section) or "
           "`bench/distributed.py --write docs/benchmarks.md`; the method "
           "is in its docstring.", "",
           f"- Workload: `bench/data_parallel_mlp.mlir`, one SGD step of a "
           f"{' -> '.join(map(str, SIZES))} ReLU perceptron on a batch of "
           f"{BATCH}, f32 ({gflop:.2f} GFLOP of matmuls per step, "
           f"{parameter_count():,} parameters). Two processes: "
           f"`rlx-compile --mesh=2 --data-parallel={DATA_PARALLEL}`, each "
           f"process computing on {BATCH // 2} rows and all-reducing every "
           "gradient and the loss inside the step.",
           f"- Time: `rlx-run --bench {meta['runs']}` (median of "
           f"{meta['runs']} calls after a warm-up call; rank 0's under "
           f"mpirun), {meta['rounds']} interleaved rounds, median of the "
           "rounds. Communication: the time inside `MPI_Allreduce` per step "
           "(PMPI interposer, median over the timed steps), rank 0 / rank 1; "
           "it includes waiting for the other process.",
           "- malloc: glibc's default, or `GLIBC_TUNABLES` with the mmap and "
           "trim thresholds at 1 GiB, so that the intermediate buffers the "
           "step allocates on every call are reused instead of mapped "
           "afresh (page faults) each time.",
           ""]
    if meta.get("busy"):
        out += ["(busy): another task was runnable before or right after "
                "some of that configuration's runs; its times are not "
                "trustworthy.", ""]
    out += ["| malloc | configuration | step ms | GFLOP/s | speedup vs 1 "
            "process, 1 thread | vs 1 process, 2 threads | MPI_Allreduce "
            "ms per step | communication share |",
            "|---|---|---|---|---|---|---|---|"]
    for res in results:
        base1 = find(res["malloc"], 1, 1)["ms"]
        base2 = find(res["malloc"], 1, 2)["ms"]
        comm = share = ""
        if "comm_ms" in res:
            comm = " / ".join(f"{c:.2f}" for c in res["comm_ms"])
            share = " / ".join(f"{c / res['ms']:.0%}" for c in res["comm_ms"])
        out.append(
            f"| {res['malloc']} | {res['name']}"
            f"{' (busy)' if res['busy'] else ''} | {fmt(res['ms'])} | "
            f"{gflop / res['ms'] * 1e3:.0f} | {base1 / res['ms']:.2f}x | "
            f"{base2 / res['ms']:.2f}x | {comm} | {share} |")
    two = [r for r in results if "bytes" in r]
    if two:
        r = two[0]
        nbytes, calls = r["bytes"], r["calls"]
        ar_ms, copy_ms = alone["allreduce_ns"] / 1e6, alone["copy_ns"] / 1e6
        agree = max(max(x["agree_ms"]) for x in two)
        out += ["",
                f"Per step each process all-reduces **{nbytes:,} bytes** in "
                f"{calls} `MPI_Allreduce` calls (the six gradients, "
                f"{4 * parameter_count():,} bytes, and the 4-byte loss), "
                "plus the one-int agreement that begins every call of a "
                f"mesh function (at most {agree:.3f} ms).",
                f"The same all-reduces by themselves, both processes ready "
                f"(after a barrier): **{ar_ms:.3f} ms** "
                f"({nbytes / ar_ms / 1e6:.2f} GB/s of each process's data), "
                f"against {copy_ms:.3f} ms for a `memcpy` of the same bytes "
                f"({nbytes / copy_ms / 1e6:.1f} GB/s): "
                f"{ar_ms / copy_ms:.1f}x a copy."]
    tuned = [r for r in results if r["malloc"] == "tuned"]
    default = {(r["processes"], r["threads"]): r["ms"] for r in results
               if r["malloc"] == "default"}
    if tuned and default:
        slow = default[(1, 1)] / find("tuned", 1, 1)["ms"]
        out += ["", "Reading the table:", "",
                f"- This machine has {cpu.ALL_THREADS} cores. Two processes "
                "of one thread run on the same cores as one process of two "
                "threads and share the same caches and memory bandwidth, so "
                "the fair comparison is the \"vs 1 process, 2 threads\" "
                "column: data parallelism adds no compute here, it replaces "
                "threads that split every op (a fork and join per parallel "
                "loop) by processes that split the batch for the whole step "
                "and meet once per gradient. Neither measures scaling "
                "across machines.",
                "- The time inside `MPI_Allreduce` includes waiting for the "
                "other process to finish its backward pass (imbalance, the "
                "other tasks of a shared machine); the all-reduces by "
                "themselves are the lower bound. Over shared memory "
                "(`vader`) an all-reduce copies each block through a shared "
                "segment and adds it, several times the cost of a copy. "
                "Each gradient is all-reduced after the backward pass that "
                "produces it, one at a time: nothing overlaps communication "
                "with computation yet.",
                f"- With glibc's default malloc the same step is {slow:.1f}x "
                "slower on one thread: the module allocates its 4 MiB "
                "intermediates on every call, glibc maps each afresh, and "
                "the page faults (zeroing included) cost more than the "
                "matmuls. That is a property of the module's allocations, "
                "not of MPI (compare the GFLOP/s with the CPU section's "
                "sgemm roofline)."]
    return "\n".join(out) + "\n"


def write_section(doc, section):
    """Replaces this section of `doc`, or puts it after the CPU section."""
    with open(doc) as f:
        text = f.read()
    pattern = re.compile(r"^" + re.escape(SECTION_TITLE) +
                         r"\n.*?(?=^## |\Z)", re.S | re.M)
    if pattern.search(text):
        text = pattern.sub(lambda _: section + "\n", text, count=1)
    else:
        cpu_section = re.search(r"^" + re.escape(cpu.SECTION_TITLE) + r"\n",
                                text, re.M)
        start = cpu_section.end() if cpu_section else 0
        after = re.compile(r"^## ", re.M).search(text, start)
        at = after.start() if after else len(text)
        text = text[:at] + section + "\n" + text[at:]
    with open(doc, "w") as f:
        f.write(text)


def mpi_version():
    try:
        out = subprocess.run(["mpirun", "--version"], capture_output=True,
                             text=True).stdout
    except OSError:
        return None
    match = re.search(r"\(Open MPI\) (\S+)", out)
    return match.group(1) if match else "unknown"


TOOLS = None


def main():
    global TOOLS
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--runs", type=int, default=10,
                        help="timed calls per rlx-run (--bench)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--write", metavar="DOC",
                        help="replace this benchmark's section of DOC")
    parser.add_argument("--json", metavar="FILE", help="write raw results")
    parser.add_argument("--render", metavar="FILE",
                        help="measure nothing: write the section from the "
                             "results saved by --json")
    parser.add_argument("--only", metavar="REGEX",
                        help="run only if the row's name "
                             f"('{ROW_NAME}') matches")
    parser.add_argument("--quiet-timeout", type=float, default=60,
                        help="seconds each round waits for an idle machine")
    # bench/cpu.py's options, accepted so that BENCH_FLAGS serves both.
    parser.add_argument("--budget", type=float, help=argparse.SUPPRESS)
    parser.add_argument("--plots", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.render:
        with open(args.render) as f:
            saved = json.load(f)
        section = markdown(saved["meta"], saved["rows"], saved["alone"])
        if args.write:
            write_section(args.write, section)
            print(f"wrote the distributed section of {args.write}")
        else:
            print(section)
        return
    if args.only and not re.search(args.only, ROW_NAME):
        print(f"distributed: '{ROW_NAME}' does not match --only; skipped")
        return
    if args.quick:
        args.runs, args.rounds = min(args.runs, 5), 1
        args.quiet_timeout = min(args.quiet_timeout, 10)
    missing = [t for t in ("mpirun", "mpicc") if not shutil.which(t)]
    if missing:
        print(f"distributed: no {' or '.join(missing)}; skipped")
        return
    args.build = os.path.abspath(args.build)
    TOOLS = os.path.join(args.build, "bin")
    meta = {"date": datetime.date.today().isoformat(),
            "commit": cpu.git_describe(), "cpu": cpu.cpu_name(),
            "mpi": mpi_version(), "quick": args.quick, "runs": args.runs,
            "rounds": args.rounds}

    def logf(msg):
        print(f"[distributed] {msg}", flush=True)
    with tempfile.TemporaryDirectory() as work:
        logf("compiling the one-process and the 2-process modules")
        single, mesh, timer, bench = build(TOOLS, work)
        flags = make_inputs(work)
        configs = configurations(single, mesh, timer,
                                 os.path.join(work, "allreduce"))
        results, alone = measure(args, configs, flags, bench, logf)
    losses = {r["loss"] for r in results}
    if max(losses) - min(losses) > 1e-4 * max(abs(x) for x in losses):
        logf(f"warning: the configurations' losses differ: {sorted(losses)}")
    meta["busy"] = any(r["busy"] for r in results)
    if args.json:
        os.makedirs(os.path.dirname(os.path.abspath(args.json)),
                    exist_ok=True)
        with open(args.json, "w") as f:
            json.dump({"meta": meta, "rows": results, "alone": alone}, f,
                      indent=1)
    section = markdown(meta, results, alone)
    if args.write:
        write_section(args.write, section)
        print(f"wrote the distributed section of {args.write}")
    else:
        print(section)


if __name__ == "__main__":
    main()
