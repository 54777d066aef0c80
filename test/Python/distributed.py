# RUN: rm -rf %t && mkdir -p %t && env RLX_CACHE_DIR=%t/cache mpirun --allow-run-as-root --oversubscribe --mca btl self,vader -x RLX_CACHE_DIR -x PYTHONPATH -x RLX_BUILD_DIR -np 2 %oracle_python %s %t
# REQUIRES: mpi
# The Python package on a mesh (docs/distributed.md): every process of
# mpirun compiles the same text with rlx.compile(mesh=, data_parallel=),
# loads it and calls it with the whole inputs; each takes its block of the
# batch, and the replicated results (a linear model's loss and gradient,
# all-reduced inside the function) are the whole batch's on every process,
# against numpy in float64.

import numpy as np

import rlx
from rlx_testing.checks import check, check_close, finish

SOURCE = """
func.func @grad(%w: tensor<4x3xf32>, %x: tensor<8x4xf32>, %y: tensor<8x3xf32>)
    -> (tensor<f32>, tensor<4x3xf32>) {
  %p = rlx.matmul %x, %w : (tensor<8x4xf32>, tensor<4x3xf32>) -> tensor<8x3xf32>
  %d = rlx.sub %p, %y : (tensor<8x3xf32>, tensor<8x3xf32>) -> tensor<8x3xf32>
  %s = rlx.mul %d, %d : (tensor<8x3xf32>, tensor<8x3xf32>) -> tensor<8x3xf32>
  %l = rlx.reduce mean %s axes = [0, 1] : tensor<8x3xf32> -> tensor<f32>
  %xt = rlx.transpose %x [1, 0] : tensor<8x4xf32> -> tensor<4x8xf32>
  %g = rlx.matmul %xt, %d : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>
  return %l, %g : tensor<f32>, tensor<4x3xf32>
}
"""

module = rlx.compile(SOURCE, mesh=(2,), data_parallel={"grad": [1, 2]})
check("two processes", module.num_processes == 2, module.num_processes)
check("mesh", module.mesh == (2,), module.mesh)
rank = module.process

rng = np.random.default_rng(0)
w = rng.standard_normal((4, 3)).astype(np.float32)
x = rng.standard_normal((8, 4)).astype(np.float32)
y = rng.standard_normal((8, 3)).astype(np.float32)
loss, grad = module.grad(w, x, y)

d = x.astype(np.float64) @ w - y
check_close(f"process {rank}: loss", np.asarray(loss), np.mean(d * d),
            rtol=1e-5, atol=1e-6)
check_close(f"process {rank}: gradient", np.asarray(grad),
            x.astype(np.float64).T @ d, rtol=1e-5, atol=1e-5)
finish()
