#!/usr/bin/env python3
"""Attention benchmark (issue 5), reported against PyTorch measured in the
same run. Never asserted anywhere: timings depend on the machine.

  /usr/bin/python3 bench/attention.py [--build build] [--runs 3] [--quick]

For each configuration (batch B, heads H, sequence S = S_q = S_k, head
dimension D, mask causal or none; f32, bhsd layout, H key/value heads):

- forward: rlx.attention against the PyTorch composition
  softmax(Q Kᵀ · scale + mask) V (mask additive, 0 or -inf, made once);
- backward: rlx.attention_backward (inputs: q, k, v, out, dout, logsumexp)
  against autograd's backward through that composition (the forward is run
  untimed before each timed backward, and its saved tensors count toward
  the peak memory).

Time: the median of --runs calls after one warm-up (rlx-run --bench for
rlx). Attained GFLOP/s counts 4·B·H·S_q·S_k·D for the forward, halved when
causal, and 2.5x that for the backward. Peak memory (GNU time's maximum
RSS): the peak of the process that ran the op minus the peak of the same
program only loading (rlx-run --list on the module; python importing
torch), so inputs, outputs and the op's working memory are counted.
PyTorch runs on one thread, as compiled rlx code does.
"""
import argparse
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

TIME = "/usr/bin/time"  # GNU time (Debian package `time`)
# (B, H, S, D, causal): the ends of the B, H, S and D ranges. The
# rlx side takes about a minute on 2 cores; PyTorch (generic BLAS on Debian)
# about ten, most of it at S = 4096.
CONFIGS = [
    (1, 8, 512, 64, True),
    (1, 8, 1024, 128, True),
    (2, 16, 1024, 64, False),
    (4, 32, 512, 64, True),
    (1, 8, 4096, 64, True),
]
QUICK_CONFIGS = CONFIGS[:2]


def gflop(b, h, s, d, causal):
    """Forward GFLOP (4·B·H·S_q·S_k·D, halved when causal)."""
    return 4 * b * h * s * s * d / (2 if causal else 1) / 1e9


def module_text(b, h, s, d, causal):
    t = f"tensor<{b}x{h}x{s}x{d}xf32>"
    lse = f"tensor<{b}x{h}x{s}xf32>"
    attrs = f"heads = {h} kv_heads = {h} mask = {'causal' if causal else 'none'}"
    return f"""
func.func @forward(%q: {t}, %k: {t}, %v: {t}) -> {t} {{
  %0 = rlx.attention bhsd %q, %k, %v {attrs}
      : ({t}, {t}, {t}) -> {t}
  return %0 : {t}
}}
func.func @backward(%q: {t}, %k: {t}, %v: {t}, %o: {t}, %do: {t},
                    %lse: {lse}) -> ({t}, {t}, {t}) {{
  %0:3 = rlx.attention_backward bhsd %q, %k, %v, %o, %do, %lse {attrs}
      : ({t}, {t}, {t}, {t}, {t}, {lse}) -> ({t}, {t}, {t})
  return %0#0, %0#1, %0#2 : {t}, {t}, {t}
}}
"""


def run_measured(args):
    """(stdout, peak RSS in MiB) of a command, measured by /usr/bin/time:
    the rusage Python gets for its own children starts from the peak of the
    forked Python process, which hides anything smaller."""
    with tempfile.NamedTemporaryFile("r") as rss:
        out = subprocess.run([TIME, "-f", "%M", "-o", rss.name, *args],
                             check=True, capture_output=True, text=True).stdout
        return out, int(rss.read().split()[-1]) / 1024


def rlx_measure(tools, module, function, runs):
    """(median ms, peak MiB over the loaded module) of rlx-run."""
    run = os.path.join(tools, "rlx-run")
    _, idle = run_measured([run, module, "--list"])
    out, peak = run_measured([run, module, "-f", function, "--random", "0",
                              "--bench", str(runs)])
    return float(re.search(r"median: ([0-9.]+) ms", out).group(1)), peak - idle


def torch_child(config, direction, runs):
    """Runs in a child process: times PyTorch's composition and prints the
    median in ms; direction "idle" only imports torch."""
    import torch
    if direction == "idle":
        return
    torch.set_num_threads(1)
    b, h, s, d, causal = config
    gen = torch.Generator().manual_seed(0)
    q, k, v = (torch.rand(b, h, s, d, generator=gen) * 2 - 1
               for _ in range(3))
    mask = torch.zeros(s, s)
    if causal:
        mask.masked_fill_(torch.ones(s, s, dtype=torch.bool).triu(1),
                          float("-inf"))
    scale = 1 / math.sqrt(d)

    def forward():
        return torch.softmax(q @ k.transpose(-1, -2) * scale + mask, -1) @ v

    times = []
    if direction == "forward":
        for _ in range(runs + 1):
            start = time.perf_counter()
            forward()
            times.append(time.perf_counter() - start)
    else:
        for t in (q, k, v):
            t.requires_grad_()
        dout = torch.rand(b, h, s, d, generator=gen) * 2 - 1
        for _ in range(runs + 1):
            out = forward()
            start = time.perf_counter()
            out.backward(dout)
            times.append(time.perf_counter() - start)
            for t in (q, k, v):
                t.grad = None
    print(statistics.median(times[1:]) * 1e3)


def torch_measure(config, direction, runs):
    """(median ms, peak MiB over a Python that imported torch)."""
    def child(direction):
        return run_measured([sys.executable, os.path.abspath(__file__),
                             "--torch-child", json.dumps([config, direction]),
                             "--runs", str(runs)])
    _, idle = child("idle")
    out, peak = child(direction)
    return float(out), peak - idle


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--quick", action="store_true",
                        help=f"only the first {len(QUICK_CONFIGS)} "
                             "configurations, one timed run each")
    parser.add_argument("--torch-child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.torch_child:
        config, direction = json.loads(args.torch_child)
        torch_child(tuple(config), direction, args.runs)
        return
    runs = 1 if args.quick else args.runs
    if not os.access(TIME, os.X_OK):
        sys.exit(f"{TIME} not found (Debian package `time`): it measures "
                 "the peak memory")
    tools = os.path.join(args.build, "bin")

    print(f"f32, bhsd, median of {runs} run(s); PyTorch on 1 thread")
    print(f"{'B':>2} {'H':>3} {'S':>5} {'D':>4} {'mask':>6} {'dir':>4} | "
          f"{'rlx ms':>9} {'GFLOP/s':>7} {'MiB':>7} | "
          f"{'torch ms':>9} {'GFLOP/s':>7} {'MiB':>7} | {'time':>6} {'mem':>6}")
    with tempfile.TemporaryDirectory() as tmp:
        for config in QUICK_CONFIGS if args.quick else CONFIGS:
            b, h, s, d, causal = config
            src = os.path.join(tmp, "attention.mlir")
            with open(src, "w") as f:
                f.write(module_text(*config))
            module = os.path.join(tmp, "attention.so")
            subprocess.run([os.path.join(tools, "rlx-compile"), src, "-o",
                            module], check=True)
            for direction, factor in (("forward", 1.0), ("backward", 2.5)):
                flops = gflop(*config) * factor
                ours, our_mib = rlx_measure(tools, module, direction, runs)
                theirs, their_mib = torch_measure(config, direction, runs)
                print(f"{b:>2} {h:>3} {s:>5} {d:>4} "
                      f"{'causal' if causal else 'none':>6} "
                      f"{direction[:3]:>4} | {ours:9.1f} "
                      f"{flops / ours * 1e3:7.2f} {our_mib:7.1f} | "
                      f"{theirs:9.1f} {flops / theirs * 1e3:7.2f} "
                      f"{their_mib:7.1f} | {ours / theirs:5.2f}x "
                      f"{our_mib / their_mib:5.2f}x", flush=True)
    print("time, mem: rlx / PyTorch (below 1: rlx faster or smaller)")


if __name__ == "__main__":
    main()
