#!/usr/bin/env python3
"""GPU benchmarks (issue 7): representative models compiled with rlx-compile
--target=cuda and timed with rlx-run --bench, against baselines measured in
the same run. Never asserted anywhere: timings depend on the machine.

  python3 bench/gpu.py [--build build] [--chip sm_90] [--runs 20] [--quick]
  python3 bench/gpu.py --prepare DIR [--build build] --chip sm_90 [--quick]
  python3 bench/gpu.py --prepared DIR [--tools DIR/../bin] [--runs 20]
  python3 bench/gpu.py --dry-run [--build build]

The first form compiles and times; --prepare only compiles, into DIR (the
modules and bench.json, for a GPU machine without the toolchain:
tools/gpu-check.sh --prepare), and --prepared times such a directory with
the rlx-run of --tools. --dry-run runs the whole script on the runtime's
fake CUDA driver (build/lib/rlx_fake_cuda_driver.so) with tiny shapes: it
computes nothing and its times mean nothing, but every step runs. Without
a GPU (nvidia-smi lists none) the script says so and exits 77.

The models: matmul in f32 and f16 (square, 1024 to 4096), a ResNet-like 3x3
convolution (f32, f16), softmax and layer_norm over [4096, 4096] f32, a
6-op elementwise chain over 64M f32 elements and causal attention forward
(f32, bhsd). --quick keeps one of each kind.

What is timed. rlx: `rlx-run --bench N` (the median of N calls after a
warm-up call that also JIT-compiles the kernels). Its "device median" is
the number reported: CUDA events recorded on the module's stream around
the function's own work (its kernels and device copies, and the host's
launch gaps between them), not the runtime's copies of the inputs to the
device and of the outputs back, which its wall-clock median (the `wall`
column) includes. PyTorch (when torch.cuda.is_available()): the same op in
the same dtype on CUDA, the median of N calls timed with CUDA events after
3 warm-ups; TF32 is off (rlx computes f32 products in f32), attention is
F.scaled_dot_product_attention. Roofline: a device-to-device copy of 1 GiB
(torch's copy_, or without torch an rlx negation, which reads and writes
the same bytes), in GB/s counting bytes read and written; memory-bound
models report the fraction of it they reach. FLOP counts: 2mnk for a
matmul, 2·N·K·C·kh·kw·OH·OW for a convolution, 4·B·H·S²·D / 2 for causal
attention; bytes: the tensors read and written once.

The output is one table and one summary line starting `gpu-bench:`. Exit
status: 0 when every model ran, 1 when one failed, 77 without a GPU.
"""
import argparse
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

# Each model is a spec (a JSON-able dict) from which its MLIR, its work and
# its PyTorch baseline are made, so a prepared directory needs only the
# specs and the compiled modules.
FULL = (
    [{"kind": "matmul", "n": n, "dtype": t}
     for t in ("f32", "f16") for n in (1024, 2048, 4096)]
    + [{"kind": "conv", "n": 32, "c": 128, "hw": 28, "dtype": t}
       for t in ("f32", "f16")]
    + [{"kind": "softmax", "rows": 4096, "cols": 4096, "dtype": "f32"},
       {"kind": "layer_norm", "rows": 4096, "cols": 4096, "dtype": "f32"},
       {"kind": "chain", "n": 64 * 2**20, "dtype": "f32"}]
    + [{"kind": "attention", "b": 1, "h": h, "s": s, "d": d, "dtype": "f32"}
       for h, s, d in ((8, 1024, 64), (16, 2048, 128), (16, 4096, 64))])
QUICK = [FULL[i] for i in (1, 4, 6, 8, 9, 10, 11)]
# For the fake driver: the same models, small enough to compile and "run"
# in seconds.
TINY = (
    [{"kind": "matmul", "n": 64, "dtype": t} for t in ("f32", "f16")]
    + [{"kind": "conv", "n": 1, "c": 8, "hw": 8, "dtype": "f32"},
       {"kind": "softmax", "rows": 64, "cols": 64, "dtype": "f32"},
       {"kind": "layer_norm", "rows": 64, "cols": 64, "dtype": "f32"},
       {"kind": "chain", "n": 4096, "dtype": "f32"},
       {"kind": "attention", "b": 1, "h": 2, "s": 64, "d": 16,
        "dtype": "f32"}])
COPY_ELEMENTS = {"full": 256 * 2**20, "tiny": 4096}  # f32: 1 GiB / 16 KiB

BYTES = {"f32": 4, "f16": 2}
TORCH_WARMUPS = 3


def ttype(shape, dtype):
    return "tensor<" + "".join(f"{d}x" for d in shape) + dtype + ">"


def label(spec):
    k, t = spec["kind"], spec["dtype"]
    if k == "matmul":
        return f"matmul {spec['n']}^3 {t}"
    if k == "conv":
        return (f"conv 3x3 [{spec['n']},{spec['c']},{spec['hw']},"
                f"{spec['hw']}] {t}")
    if k in ("softmax", "layer_norm"):
        return f"{k} [{spec['rows']},{spec['cols']}] {t}"
    if k == "chain":
        return f"6-op chain [{spec['n']}] {t}"
    if k == "attention":
        return (f"attention B{spec['b']} H{spec['h']} S{spec['s']} "
                f"D{spec['d']} causal {t}")
    return f"copy [{spec['n']}] {t}"


def mlir(spec):
    """The model as an rlx function named after its kind."""
    k, t = spec["kind"], spec["dtype"]
    if k == "matmul":
        m = ttype([spec["n"]] * 2, t)
        return (f"func.func @matmul(%a: {m}, %b: {m}) -> {m} {{\n"
                f"  %0 = rlx.matmul %a, %b : ({m}, {m}) -> {m}\n"
                f"  return %0 : {m}\n}}\n")
    if k == "conv":
        n, c, hw = spec["n"], spec["c"], spec["hw"]
        x, w = ttype([n, c, hw, hw], t), ttype([c, c, 3, 3], t)
        return (f"func.func @conv(%x: {x}, %w: {w}) -> {x} {{\n"
                f"  %0 = rlx.conv %x, %w stride = [1, 1] padding = "
                f"[1, 1, 1, 1] dilation = [1, 1] groups = 1 : ({x}, {w}) -> "
                f"{x}\n  return %0 : {x}\n}}\n")
    if k == "softmax":
        x = ttype([spec["rows"], spec["cols"]], t)
        return (f"func.func @softmax(%x: {x}) -> {x} {{\n"
                f"  %0 = rlx.softmax %x axis = -1 : {x}\n"
                f"  return %0 : {x}\n}}\n")
    if k == "layer_norm":
        x, g = ttype([spec["rows"], spec["cols"]], t), ttype([spec["cols"]], t)
        return (f"func.func @layer_norm(%x: {x}, %g: {g}, %b: {g}) -> {x} {{\n"
                f"  %0 = rlx.layer_norm %x, %g, %b axis = -1 eps = 1.0e-5 : "
                f"({x}, {g}, {g}) -> {x}\n  return %0 : {x}\n}}\n")
    if k == "chain":  # bench/cpu.py's chain: min(|relu(0.5x + x) - 0.5|, x)
        x, s = ttype([spec["n"]], t), ttype([], t)
        return (f"func.func @chain(%x: {x}) -> {x} {{\n"
                f"  %c = rlx.constant dense<0.5> : {s}\n"
                f"  %0 = rlx.mul %x, %c : ({x}, {s}) -> {x}\n"
                f"  %1 = rlx.add %0, %x : ({x}, {x}) -> {x}\n"
                f"  %2 = rlx.relu %1 : {x}\n"
                f"  %3 = rlx.sub %2, %c : ({x}, {s}) -> {x}\n"
                f"  %4 = rlx.abs %3 : {x}\n"
                f"  %5 = rlx.min %4, %x : ({x}, {x}) -> {x}\n"
                f"  return %5 : {x}\n}}\n")
    if k == "attention":
        q = ttype([spec["b"], spec["h"], spec["s"], spec["d"]], t)
        return (f"func.func @attention(%q: {q}, %k: {q}, %v: {q}) -> {q} {{\n"
                f"  %0 = rlx.attention bhsd %q, %k, %v heads = {spec['h']} "
                f"kv_heads = {spec['h']} mask = causal : ({q}, {q}, {q}) -> "
                f"{q}\n  return %0 : {q}\n}}\n")
    x = ttype([spec["n"]], t)  # copy: read and write every element once
    return (f"func.func @copy(%x: {x}) -> {x} {{\n"
            f"  %0 = rlx.neg %x : {x}\n  return %0 : {x}\n}}\n")


def work(spec):
    """(amount, unit): the FLOPs or bytes one call does."""
    k, size = spec["kind"], BYTES[spec["dtype"]]
    if k == "matmul":
        return 2 * spec["n"] ** 3, "FLOP"
    if k == "conv":
        return 2 * spec["n"] * spec["c"] ** 2 * 9 * spec["hw"] ** 2, "FLOP"
    if k == "attention":
        return (4 * spec["b"] * spec["h"] * spec["s"] ** 2 * spec["d"] / 2,
                "FLOP")
    if k in ("softmax", "layer_norm"):
        return 2 * spec["rows"] * spec["cols"] * size, "B"
    return 2 * spec["n"] * size, "B"  # chain, copy


def torch_baseline(spec, torch):
    """A function running the model in PyTorch on CUDA."""
    import torch.nn.functional as F
    dtype = {"f32": torch.float32, "f16": torch.float16}[spec["dtype"]]

    def rand(*shape):
        return torch.rand(*shape, device="cuda", dtype=dtype) * 2 - 1
    k = spec["kind"]
    if k == "matmul":
        a, b = rand(spec["n"], spec["n"]), rand(spec["n"], spec["n"])
        return lambda: torch.matmul(a, b)
    if k == "conv":
        x = rand(spec["n"], spec["c"], spec["hw"], spec["hw"])
        w = rand(spec["c"], spec["c"], 3, 3)
        return lambda: F.conv2d(x, w, padding=1)
    if k == "softmax":
        x = rand(spec["rows"], spec["cols"])
        return lambda: torch.softmax(x, dim=-1)
    if k == "layer_norm":
        x, g, b = (rand(spec["rows"], spec["cols"]), rand(spec["cols"]),
                   rand(spec["cols"]))
        return lambda: F.layer_norm(x, (spec["cols"],), g, b, 1e-5)
    if k == "chain":
        x = rand(spec["n"])
        return lambda: torch.minimum(torch.abs(torch.relu(x * 0.5 + x) - 0.5),
                                     x)
    if k == "attention":
        q, kk, v = (rand(spec["b"], spec["h"], spec["s"], spec["d"])
                    for _ in range(3))
        return lambda: F.scaled_dot_product_attention(q, kk, v, is_causal=True)
    x = rand(spec["n"])
    y = torch.empty_like(x)
    return lambda: y.copy_(x)


def torch_ms(torch, spec, runs):
    """Median ms of `runs` calls of the model's PyTorch baseline, each timed
    with CUDA events, or why it could not be timed."""
    try:
        fn = torch_baseline(spec, torch)
        ms = _median_ms(torch, fn, runs)
    except Exception as e:  # out of memory, an op this PyTorch lacks, ...
        lines = str(e).splitlines()
        return None, (f"PyTorch failed: {type(e).__name__}: "
                      f"{lines[0] if lines else ''}")
    finally:
        torch.cuda.empty_cache()
    return ms, None


def _median_ms(torch, fn, runs):
    for _ in range(TORCH_WARMUPS):
        fn()
    times = []
    for _ in range(runs):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)


def rlx_ms(tools, module, function, runs, env):
    """(device median ms or None, wall median ms) of rlx-run --bench."""
    proc = subprocess.run(
        [os.path.join(tools, "rlx-run"), module, "-f", function,
         "--random", "0", "--bench", str(runs)],
        capture_output=True, text=True, env=env, timeout=600)
    if proc.returncode != 0:
        lines = [l for l in proc.stderr.splitlines() if l.strip()]
        raise RuntimeError(f"rlx-run exited {proc.returncode}: "
                           f"{lines[-1] if lines else '(no message)'}")
    wall = re.search(r"^median: ([0-9.]+) ms", proc.stdout, re.M)
    device = re.search(r"^device median: ([0-9.]+) ms", proc.stdout, re.M)
    if not wall:
        raise RuntimeError("rlx-run printed no median")
    return float(device.group(1)) if device else None, float(wall.group(1))


def compile_all(tools, specs, chip, directory):
    """Compiles each spec (and the copy model) into directory; writes and
    returns the manifest, bench.json."""
    os.makedirs(directory, exist_ok=True)
    models = []
    for i, spec in enumerate(specs):
        name = f"{i:02d}_{spec['kind']}"
        src = os.path.join(directory, name + ".mlir")
        with open(src, "w") as f:
            f.write(mlir(spec))
        proc = subprocess.run(
            [os.path.join(tools, "rlx-compile"), src, "--target=cuda",
             f"--chip={chip}", "-o", os.path.join(directory, name + ".so")],
            capture_output=True, text=True, timeout=600)
        os.remove(src)
        # The function is named after the kind (mlir()).
        model = {"spec": spec, "module": name + ".so",
                 "function": spec["kind"]}
        if proc.returncode != 0:
            lines = [l for l in proc.stderr.splitlines() if "error" in l]
            model["error"] = ("rlx-compile failed: " +
                              (lines[0] if lines else proc.stderr[-200:]))
        models.append(model)
    manifest = {"chip": chip, "models": models}
    with open(os.path.join(directory, "bench.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    return manifest


def gpu_name():
    """(name, chip) of CUDA device 0 from nvidia-smi, or None."""
    try:
        out = subprocess.run(
            ["nvidia-smi", "--query-gpu=name,compute_cap",
             "--format=csv,noheader"], capture_output=True, text=True,
            timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    line = out.strip().splitlines()[0] if out.strip() else ""
    if "," not in line:
        return None
    name, cap = line.rsplit(",", 1)
    return name.strip(), "sm_" + cap.strip().replace(".", "")


def load_torch():
    """torch if it can run on CUDA here, else None, and why not."""
    try:
        import torch
    except ImportError:
        return None, "no torch"
    if not torch.cuda.is_available():
        return None, f"torch {torch.__version__} sees no CUDA device"
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    return torch, None


def rate(amount, unit, ms):
    if ms <= 0:  # below rlx-run's resolution (the fake driver)
        return "-"
    per_s = amount / (ms / 1e3)
    return (f"{per_s / 1e12:7.2f} TFLOP/s" if unit == "FLOP"
            else f"{per_s / 1e9:7.1f} GB/s  ")


def run(manifest, directory, tools, runs, env, dry_run, gpu):
    torch, no_torch = (None, "dry run") if dry_run else load_torch()
    models = manifest["models"]
    copy = next(m for m in models if m["spec"]["kind"] == "copy")
    print(f"gpu-bench: {gpu}, modules for {manifest['chip']}; median of "
          f"{runs} runs")
    if dry_run:
        print("gpu-bench: DRY RUN on the fake CUDA driver: nothing is "
              "computed, the times mean nothing")
    print("  rlx ms: device time of the function (CUDA events around its "
          "kernels; input/output staging excluded)")
    print("  wall: rlx-run's median per call, which adds the host<->device "
          "copies of inputs and outputs")
    print(f"  torch: PyTorch CUDA, same op and dtype, CUDA events"
          f"{'' if torch else ' (not measured: ' + no_torch + ')'}")

    # The roofline first: memory-bound models are compared with it.
    copy_bw = None
    if torch:
        ms, error = torch_ms(torch, copy["spec"], runs)
        how = error or "torch copy_"
    elif "error" not in copy:
        try:
            device, wall = rlx_ms(tools, os.path.join(directory,
                                                      copy["module"]),
                                  copy["function"], runs, env)
            ms, how = (wall if device is None else device), "rlx negation"
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            ms, how = None, str(e)
    else:
        ms, how = None, copy["error"]
    if ms == 0:
        ms, how = None, f"{how}: below rlx-run's resolution"
    if ms:
        copy_bw = work(copy["spec"])[0] / (ms / 1e3)
        print(f"  roofline: device-to-device copy of "
              f"{work(copy['spec'])[0] / 2 / 2**20:g} MiB ({how}): "
              f"{ms:.3f} ms = {copy_bw / 1e9:.1f} GB/s (read + write)")
    else:
        print(f"  roofline: not measured ({how})")

    print(f"{'model':<38} {'rlx ms':>9} {'wall ms':>9} {'rlx rate':>15} "
          f"{'torch ms':>9} {'rlx/torch':>9} {'of copy':>7}")
    ratios, fractions, failed = [], [], []
    for model in models:
        spec = model["spec"]
        if spec["kind"] == "copy":
            continue
        name = label(spec)
        amount, unit = work(spec)
        try:
            if "error" in model:
                raise RuntimeError(model["error"])
            device, wall = rlx_ms(tools, os.path.join(directory,
                                                      model["module"]),
                                  model["function"], runs, env)
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            failed.append(name)
            print(f"{name:<38} FAILED: {e}")
            continue
        ours = wall if device is None else device
        theirs, torch_error = torch_ms(torch, spec, runs) if torch else \
            (None, None)
        row = (f"{name:<38} {'-' if device is None else f'{device:.3f}':>9} "
               f"{wall:9.3f} "
               f"{rate(amount, unit, ours):>15} ")
        row += f"{theirs:9.3f} " if theirs else f"{'-':>9} "
        row += f"{ours / theirs:8.2f}x " if theirs and ours > 0 else \
            f"{'-':>9} "
        if unit == "B" and copy_bw and ours > 0:
            fraction = amount / (ours / 1e3) / copy_bw
            fractions.append((fraction, name))
            row += f"{fraction * 100:6.0f}%"
        else:
            row += f"{'-':>7}"
        if theirs and ours > 0:
            ratios.append((ours / theirs, name))
        print(row + (f"  ({torch_error})" if torch_error else ""),
              flush=True)

    summary = f"gpu-bench: {len(models) - 1 - len(failed)} of " \
              f"{len(models) - 1} models ran on {gpu}"
    if dry_run:
        summary += " (dry run on the fake driver: times mean nothing)"
    if ratios:
        geomean = math.exp(sum(math.log(r) for r, _ in ratios) / len(ratios))
        best, worst = min(ratios), max(ratios)
        summary += (f"; rlx/PyTorch time: geomean {geomean:.2f}x, best "
                    f"{best[0]:.2f}x ({best[1]}), worst {worst[0]:.2f}x "
                    f"({worst[1]})")
    if fractions:
        low, high = (f"{f[0] * 100:.0f}%" for f in (min(fractions),
                                                   max(fractions)))
        span = low if low == high else f"{low}-{high}"
        summary += (f"; memory-bound at {span} of copy bandwidth "
                    f"({copy_bw / 1e9:.0f} GB/s)")
    if failed:
        summary += f"; FAILED: {', '.join(failed)}"
    print(summary)
    return 1 if failed else 0


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n", 1)[1])
    parser.add_argument("--build", default="build",
                        help="build directory (rlx-compile, rlx-run, the "
                             "fake driver)")
    parser.add_argument("--chip", help="compile for this chip (default: "
                                       "the GPU's; sm_90 with --dry-run)")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--quick", action="store_true",
                        help=f"{len(QUICK)} models, one of each kind")
    parser.add_argument("--tiny", action="store_true",
                        help="tiny shapes (for the fake driver; implied by "
                             "--dry-run)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--prepare", metavar="DIR",
                      help="only compile, into DIR")
    mode.add_argument("--prepared", metavar="DIR",
                      help="time the models --prepare compiled into DIR")
    mode.add_argument("--dry-run", action="store_true",
                      help="run on the fake CUDA driver, tiny shapes")
    parser.add_argument("--tools", help="directory of rlx-run for "
                                        "--prepared (default: DIR/../bin)")
    args = parser.parse_args()
    tiny = args.tiny or args.dry_run
    specs = TINY if tiny else QUICK if args.quick else FULL
    specs = specs + [{"kind": "copy", "dtype": "f32",
                      "n": COPY_ELEMENTS["tiny" if tiny else "full"]}]
    build_tools = os.path.join(args.build, "bin")
    runs = 3 if args.dry_run else args.runs

    if args.prepare:
        if not args.chip:
            parser.error("--prepare needs --chip")
        manifest = compile_all(build_tools, specs, args.chip, args.prepare)
        bad = [m for m in manifest["models"] if "error" in m]
        print(f"gpu-bench: {len(specs) - len(bad)} of {len(specs)} modules "
              f"(the models and the roofline's copy) compiled for "
              f"{args.chip} into {args.prepare}")
        for m in bad:
            print(f"  {label(m['spec'])}: {m['error']}")
        return 1 if bad else 0

    env = dict(os.environ)
    if args.dry_run:
        env["RLX_CUDA_DRIVER"] = os.path.abspath(
            os.path.join(args.build, "lib", "rlx_fake_cuda_driver.so"))
        gpu = ("the fake CUDA driver", args.chip or "sm_90")
    else:
        gpu = gpu_name()
        if not gpu:
            print("gpu-bench: no NVIDIA GPU on this machine (nvidia-smi lists "
                  "none): nothing was timed. --dry-run runs the script on "
                  "the fake driver.")
            print("gpu-bench: SKIPPED")
            return 77
    if args.prepared:
        with open(os.path.join(args.prepared, "bench.json")) as f:
            manifest = json.load(f)
        tools = args.tools or os.path.join(args.prepared, os.pardir, "bin")
        return run(manifest, args.prepared, tools, runs, env, False,
                   f"{gpu[0]} ({gpu[1]})")
    tmp = tempfile.mkdtemp(prefix="rlx_gpu_bench_")
    try:
        manifest = compile_all(build_tools, specs, args.chip or gpu[1], tmp)
        return run(manifest, tmp, build_tools, runs, env, args.dry_run,
                   f"{gpu[0]} ({gpu[1]})")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
