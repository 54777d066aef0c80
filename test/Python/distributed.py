# RUN: rm -rf %t && mkdir -p %t && env RLX_CACHE_DIR=%t/cache mpirun --allow-run-as-root --oversubscribe --mca btl self,vader -x RLX_CACHE_DIR -x PYTHONPATH -x RLX_BUILD_DIR -np 2 %oracle_python %s %t
# REQUIRES: mpi
# The Python package on a mesh (docs/distributed.md): every process of
# mpirun compiles the same text with rlx.compile(mesh=, data_parallel=),
# loads it and calls it with the whole inputs; each takes its block of the
# batch, and the replicated results (a linear model's loss and gradient,
# all-reduced inside the function) are the whole batch's on every process,
# against numpy in float64; a small CNN's gradients (convolution, pooling,
# their backward ops split by batch) against the module without a mesh.

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
# A convolutional network's training step, split by batch: the same results
# as the module compiled without a mesh, in this process.
CNN = """
func.func @cnn_loss(%x: tensor<4x3x8x8xf32>, %w: tensor<6x3x3x3xf32>, %v: tensor<6x2xf32>,
                    %t: tensor<4x2xf32>) -> tensor<f32>
    attributes {rlx.differentiate = array<i64: 1, 2>} {
  %y = rlx.conv %x, %w stride = [1, 1] padding = [1, 1, 1, 1] dilation = [1, 1] groups = 1
      : (tensor<4x3x8x8xf32>, tensor<6x3x3x3xf32>) -> tensor<4x6x8x8xf32>
  %r = rlx.relu %y : tensor<4x6x8x8xf32>
  %p = rlx.pool max %r kernel = [2, 2] stride = [2, 2] padding = [0, 0, 0, 0]
      : tensor<4x6x8x8xf32> -> tensor<4x6x4x4xf32>
  %g = rlx.global_pool avg %p : tensor<4x6x4x4xf32> -> tensor<4x6x1x1xf32>
  %f = rlx.reshape %g : tensor<4x6x1x1xf32> -> tensor<4x6xf32>
  %o = rlx.matmul %f, %v : (tensor<4x6xf32>, tensor<6x2xf32>) -> tensor<4x2xf32>
  %d = rlx.sub %o, %t : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  %s = rlx.mul %d, %d : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  %l = rlx.reduce mean %s axes = [0, 1] : tensor<4x2xf32> -> tensor<f32>
  return %l : tensor<f32>
}
"""
cnn_args = [rng.standard_normal(s).astype(np.float32)
            for s in [(4, 3, 8, 8), (6, 3, 3, 3), (6, 2), (4, 2)]]
whole = rlx.compile(CNN)
split = rlx.compile(CNN, mesh=(2,), data_parallel={"cnn_loss_grad": [0, 3]})
want = whole.cnn_loss_grad(*cnn_args)
got = split.cnn_loss_grad(*cnn_args)
for name, g, w in zip(["loss", "conv weight", "linear weight"], got, want):
    check_close(f"process {rank}: cnn {name}", np.asarray(g), np.asarray(w),
                rtol=1e-5, atol=1e-6)

finish()
