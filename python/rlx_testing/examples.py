"""Inputs and PyTorch references for the bundled examples (examples/*.mlir),
shared by their end-to-end checks and the fusion tests."""
import numpy as np
import torch
import torch.nn.functional as F


def mlp_inputs(seed):
    """x [8,64], w1 [64,128], b1 [128], w2 [128,10], b2 [10]; weights scaled
    like a trained layer (unit-variance activations)."""
    rng = np.random.default_rng(seed)
    shapes = [(8, 64), (64, 128), (128,), (128, 10), (10,)]
    inputs = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    inputs[1] /= np.sqrt(64)
    inputs[3] /= np.sqrt(128)
    return inputs


def mlp_reference(x, w1, b1, w2, b2):
    return torch.softmax(F.gelu(x @ w1 + b1) @ w2 + b2, dim=-1)


def cnn_inputs(seed):
    """An image batch, conv weights scaled like a trained layer, batch-norm
    statistics with positive variances, and a linear classifier."""
    rng = np.random.default_rng(seed)
    normal = lambda *s: rng.standard_normal(s).astype(np.float32)
    return [
        normal(2, 3, 16, 16),
        normal(8, 3, 3, 3) / np.sqrt(27),
        1 + 0.1 * normal(8),                          # gamma
        0.1 * normal(8),                              # beta
        0.1 * normal(8),                              # running mean
        rng.uniform(0.5, 1.5, 8).astype(np.float32),  # running var
        normal(16, 8, 3, 3) / np.sqrt(72),
        normal(16, 10) / 4,
        0.1 * normal(10),
    ]


def cnn_reference(x, w1, gamma, beta, mean, var, w2, w3, b3):
    y = F.conv2d(x, w1, stride=1, padding=1)
    y = F.batch_norm(y, mean, var, gamma, beta, training=False, eps=1e-5)
    y = F.max_pool2d(F.relu(y), kernel_size=2, stride=2)
    y = F.conv2d(y, w2, stride=2, padding=1)
    y = F.adaptive_avg_pool2d(y, 1).flatten(1)
    return torch.softmax(y @ w3 + b3, dim=-1)
