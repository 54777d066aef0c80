#!/usr/bin/env python3
"""Fusion benchmarks (issue 4), reported as ratios against baselines measured
in the same run. Never asserted anywhere: timings depend on the machine.

  /usr/bin/python3 bench/fusion.py [--build build] [--runs 20]

1. A 6-op elementwise chain over 64 MiB of f32 (16M elements), compiled
   fused (default) and unfused (--no-fuse), against
   - the memory-bandwidth roofline: a plain copy of the same bytes
     (numpy.copyto: read 64 MiB, write 64 MiB), and
   - PyTorch eager running the same chain op by op.
2. layer_norm and softmax on [8192, 1024] f32 against PyTorch.
3. A linear layer gelu(x @ w + b) on [512, 512] f32 (contraction with an
   epilogue), fused and unfused, against PyTorch (OpenBLAS/oneDNN).

rlx-run reports the median of N invocations (inputs made once, outputs
preallocated); the baselines report the median of N timed calls. PyTorch runs
with its default thread count and with one thread, since compiled rlx code is
single-threaded today.
"""
import argparse
import os
import re
import statistics
import subprocess
import tempfile
import time

import numpy as np
import torch

N_CHAIN = 16 * 1024 * 1024  # 64 MiB of f32
ROWS, COLS = 8192, 1024

CHAIN = f"""
func.func @chain(%x: tensor<{N_CHAIN}xf32>) -> tensor<{N_CHAIN}xf32> {{
  %c = rlx.constant dense<0.5> : tensor<f32>
  %0 = rlx.mul %x, %c : (tensor<{N_CHAIN}xf32>, tensor<f32>) -> tensor<{N_CHAIN}xf32>
  %1 = rlx.add %0, %x : (tensor<{N_CHAIN}xf32>, tensor<{N_CHAIN}xf32>) -> tensor<{N_CHAIN}xf32>
  %2 = rlx.relu %1 : tensor<{N_CHAIN}xf32>
  %3 = rlx.sub %2, %c : (tensor<{N_CHAIN}xf32>, tensor<f32>) -> tensor<{N_CHAIN}xf32>
  %4 = rlx.abs %3 : tensor<{N_CHAIN}xf32>
  %5 = rlx.min %4, %x : (tensor<{N_CHAIN}xf32>, tensor<{N_CHAIN}xf32>) -> tensor<{N_CHAIN}xf32>
  return %5 : tensor<{N_CHAIN}xf32>
}}
"""

ROWWISE = f"""
func.func @layer_norm(%x: tensor<{ROWS}x{COLS}xf32>, %g: tensor<{COLS}xf32>,
                      %b: tensor<{COLS}xf32>) -> tensor<{ROWS}x{COLS}xf32> {{
  %0 = rlx.layer_norm %x, %g, %b axis = -1 eps = 1.0e-5
      : (tensor<{ROWS}x{COLS}xf32>, tensor<{COLS}xf32>, tensor<{COLS}xf32>)
      -> tensor<{ROWS}x{COLS}xf32>
  return %0 : tensor<{ROWS}x{COLS}xf32>
}}
func.func @softmax(%x: tensor<{ROWS}x{COLS}xf32>) -> tensor<{ROWS}x{COLS}xf32> {{
  %0 = rlx.softmax %x axis = -1 : tensor<{ROWS}x{COLS}xf32>
  return %0 : tensor<{ROWS}x{COLS}xf32>
}}
"""


LINEAR = """
func.func @linear(%x: tensor<512x512xf32>, %w: tensor<512x512xf32>,
                  %b: tensor<512xf32>) -> tensor<512x512xf32> {
  %h = rlx.matmul %x, %w
      : (tensor<512x512xf32>, tensor<512x512xf32>) -> tensor<512x512xf32>
  %hb = rlx.add %h, %b
      : (tensor<512x512xf32>, tensor<512xf32>) -> tensor<512x512xf32>
  %a = rlx.gelu %hb : tensor<512x512xf32>
  return %a : tensor<512x512xf32>
}
"""


def torch_chain(x):
    c = 0.5
    return torch.minimum(torch.abs(torch.relu(x * c + x) - c), x)


def median_ms(fn, runs):
    fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def rlx_ms(tools, module, fn, runs):
    out = subprocess.run([os.path.join(tools, "rlx-run"), module, "-f", fn,
                          "--random", "0", "--bench", str(runs)],
                         check=True, capture_output=True, text=True).stdout
    return float(re.search(r"median: ([0-9.]+) ms", out).group(1))


def compile_module(tools, text, path, *flags):
    with open(path + ".mlir", "w") as f:
        f.write(text)
    subprocess.run([os.path.join(tools, "rlx-compile"), path + ".mlir", "-o",
                    path + ".so", *flags], check=True)
    return path + ".so"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    tools = os.path.join(args.build, "bin")
    threads = torch.get_num_threads()

    with tempfile.TemporaryDirectory() as tmp:
        fused = compile_module(tools, CHAIN, f"{tmp}/fused")
        unfused = compile_module(tools, CHAIN, f"{tmp}/unfused", "--no-fuse")
        rowwise = compile_module(tools, ROWWISE, f"{tmp}/rowwise")

        x = np.random.default_rng(0).standard_normal(N_CHAIN,
                                                     dtype=np.float32)
        dst = np.empty_like(x)
        copy = median_ms(lambda: np.copyto(dst, x), args.runs)
        xt = torch.from_numpy(x)
        eager = median_ms(lambda: torch_chain(xt), args.runs)
        torch.set_num_threads(1)
        eager1 = median_ms(lambda: torch_chain(xt), args.runs)
        torch.set_num_threads(threads)
        fused_ms = rlx_ms(tools, fused, "chain", args.runs)
        unfused_ms = rlx_ms(tools, unfused, "chain", args.runs)

        print(f"6-op elementwise chain, {N_CHAIN} f32 (64 MiB in, 64 MiB out)")
        print(f"  copy roofline (numpy.copyto)   {copy:8.2f} ms")
        print(f"  rlx fused                      {fused_ms:8.2f} ms"
              f"  = {fused_ms / copy:5.2f}x copy")
        print(f"  rlx unfused (--no-fuse)        {unfused_ms:8.2f} ms"
              f"  = {unfused_ms / copy:5.2f}x copy")
        print(f"  PyTorch eager ({threads} threads)       {eager:8.2f} ms"
              f"  fused is {eager / fused_ms:5.2f}x faster")
        print(f"  PyTorch eager (1 thread)       {eager1:8.2f} ms"
              f"  fused is {eager1 / fused_ms:5.2f}x faster")

        xr = torch.randn(ROWS, COLS)
        g, b = torch.randn(COLS), torch.randn(COLS)
        for name, ref in (
                ("layer_norm", lambda: torch.nn.functional.layer_norm(
                    xr, (COLS,), g, b, 1e-5)),
                ("softmax", lambda: torch.softmax(xr, dim=-1))):
            ours = rlx_ms(tools, rowwise, name, args.runs)
            theirs = median_ms(ref, args.runs)
            torch.set_num_threads(1)
            theirs1 = median_ms(ref, args.runs)
            torch.set_num_threads(threads)
            print(f"{name} [{ROWS}, {COLS}] f32: rlx {ours:.2f} ms, "
                  f"PyTorch {theirs:.2f} ms ({threads} threads, "
                  f"{theirs / ours:.2f}x), {theirs1:.2f} ms (1 thread, "
                  f"{theirs1 / ours:.2f}x)")

        linear = compile_module(tools, LINEAR, f"{tmp}/linear")
        linear_unfused = compile_module(tools, LINEAR, f"{tmp}/linear_nf",
                                        "--no-fuse")
        xl, wl, bl = torch.randn(512, 512), torch.randn(512, 512), torch.randn(512)
        ref = lambda: torch.nn.functional.gelu(xl @ wl + bl)
        theirs = median_ms(ref, args.runs)
        ours = rlx_ms(tools, linear, "linear", args.runs)
        ours_nf = rlx_ms(tools, linear_unfused, "linear", args.runs)
        print(f"linear gelu(x @ w + b) [512, 512] f32: rlx fused {ours:.2f} ms, "
              f"unfused {ours_nf:.2f} ms, PyTorch {theirs:.2f} ms "
              f"({threads} threads; rlx fused at {theirs / ours:.2f}x)")


if __name__ == "__main__":
    main()
