#!/usr/bin/env python3
"""Fits a Gaussian process's hyperparameters with examples/gaussian_process.mlir.

    gaussian_process.py [--steps N] [--check]

The data (seeded): 64 inputs uniform in [-3, 3]^2 and targets
f(x) = sin(1.5 x1) cos(x2) + 0.5 sin(0.5 x2) plus Gaussian noise of
standard deviation 0.1. Starting from lengthscale 1, signal variance 1 and
noise variance e^-2 (log-hyperparameters 0, 0, -2), each step runs
@nlml_grad (the negative log marginal likelihood of an exact GP with an RBF
kernel and its gradient with respect to the three log-hyperparameters,
through rlx.cholesky and rlx.triangular_solve), prints the NLML, and takes
an Adam step in numpy (torch.optim.Adam's update: lr 0.1, betas (0.9,
0.999), eps 1e-8). @predict then gives the posterior mean and variance on
a 10 x 10 grid of test points in [-2.5, 2.5]^2.

With --check the same fit runs in float64 PyTorch (torch.linalg.cholesky,
torch.linalg.solve_triangular, autograd, torch.optim.Adam from the same
start): every step's NLML and gradient, the final hyperparameters and the
posterior mean and variance must agree with rlx's within 1e-9, relative to
the magnitude of the value or 1, whichever is larger (the NLML is near 0
at the optimum). The NLML must also fall by three quarters of its initial
value at least, the fitted noise standard deviation must lie in
[0.05, 0.2] (the data's is 0.1) and the lengthscale and signal standard
deviation in [0.5, 2], and the posterior mean must be closer to the
noise-free f on the grid than the noise (RMS error below 0.1) and than the
initial hyperparameters' mean. The script exits 1 otherwise.
"""
import argparse
import math
import os
import sys

import numpy as np
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
import rlx  # noqa: E402

MLIR = os.path.join(ROOT, "examples", "gaussian_process.mlir")
N, DIM, NOISE_STD = 64, 2, 0.1
INITIAL = np.array([0.0, 0.0, -2.0])  # log ell, log sf2, log sn2
LEARNING_RATE, BETAS, EPS = 0.1, (0.9, 0.999), 1e-8
TOLERANCE = 1e-9
NAMES = ["log_ell", "log_sf2", "log_sn2"]


def target(x):
    """The noise-free function the data samples."""
    return np.sin(1.5 * x[:, 0]) * np.cos(x[:, 1]) + 0.5 * np.sin(0.5 * x[:, 1])


def dataset():
    """(x [64, 2], y [64, 1], test points [100, 2]), float64."""
    rng = np.random.default_rng(0)
    x = rng.uniform(-3, 3, (N, DIM))
    y = (target(x) + NOISE_STD * rng.standard_normal(N))[:, None]
    grid = np.linspace(-2.5, 2.5, 10)
    test = np.stack(np.meshgrid(grid, grid), -1).reshape(-1, DIM)
    return x, y, np.ascontiguousarray(test)


class Adam:
    """torch.optim.Adam's update (no weight decay, no amsgrad) in numpy."""

    def __init__(self, lr, betas, eps):
        self.lr, self.betas, self.eps = lr, betas, eps
        self.m = self.v = 0.0
        self.t = 0

    def step(self, theta, grad):
        b1, b2 = self.betas
        self.t += 1
        self.m = b1 * self.m + (1 - b1) * grad
        self.v = b2 * self.v + (1 - b2) * grad * grad
        denom = (np.sqrt(self.v) / math.sqrt(1 - b2 ** self.t)) + self.eps
        return theta - self.lr / (1 - b1 ** self.t) * self.m / denom


def fit_with_rlx(module, x, y, steps):
    """`steps` Adam steps on @nlml_grad from INITIAL; returns each step's
    NLML and gradient (at the hyperparameters before its update) and the
    final hyperparameters."""
    theta, adam = INITIAL.copy(), Adam(LEARNING_RATE, BETAS, EPS)
    losses, grads = [], []
    for step in range(steps):
        value, *grad = module["nlml_grad"](*theta, x, y)
        grad = np.array([float(g) for g in grad])
        losses.append(float(value))
        grads.append(grad)
        print(f"step {step:2d}  nlml {float(value):9.5f}  " + "  ".join(
            f"{name} {t:7.4f}" for name, t in zip(NAMES, theta)))
        theta = adam.step(theta, grad)
    return losses, grads, theta


def describe(theta):
    ell, sf, sn = np.exp(theta[0]), np.exp(theta[1] / 2), np.exp(theta[2] / 2)
    return ell, sf, sn


# PyTorch, float64.

def torch_nlml(theta, x, y):
    log_ell, log_sf2, log_sn2 = theta
    xs = x * torch.exp(-log_ell)
    diff = xs[:, None, :] - xs[None, :, :]
    k = (torch.exp(log_sf2) * torch.exp(-0.5 * (diff * diff).sum(2))
         + torch.exp(log_sn2) * torch.eye(N, dtype=torch.float64))
    lower = torch.linalg.cholesky(k)
    z = torch.linalg.solve_triangular(lower, y, upper=False)
    alpha = torch.linalg.solve_triangular(lower.mT, z, upper=True)
    return (0.5 * (y * alpha).sum() + torch.log(torch.diagonal(lower)).sum()
            + 0.5 * N * math.log(2 * math.pi))


def torch_predict(theta, x, y, test):
    log_ell, log_sf2, log_sn2 = (torch.tensor(t) for t in theta)
    x, y, test = torch.tensor(x), torch.tensor(y), torch.tensor(test)

    def kernel(a, b):
        d = (a[:, None, :] - b[None, :, :]) * torch.exp(-log_ell)
        return torch.exp(log_sf2) * torch.exp(-0.5 * (d * d).sum(2))

    k = kernel(x, x) + torch.exp(log_sn2) * torch.eye(N, dtype=torch.float64)
    lower = torch.linalg.cholesky(k)
    alpha = torch.cholesky_solve(y, lower)
    ks = kernel(x, test)
    v = torch.linalg.solve_triangular(lower, ks, upper=False)
    var = torch.exp(log_sf2) - (v * v).sum(0)
    return (ks.T @ alpha).numpy(), var.numpy()


def difference(got, want):
    """|got - want| relative to max(|want|, 1), largest over elements."""
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    return float(np.max(np.abs(got - want) / np.maximum(np.abs(want), 1.0)))


def check(losses, grads, theta, posterior, x, y, test):
    """The --check: PyTorch's fit from the same start, the posterior and the
    quality of the fit. Prints what it found; returns the number of
    failures."""
    failures = 0
    xt, yt = torch.tensor(x), torch.tensor(y)
    param = torch.tensor(INITIAL, requires_grad=True)
    optimizer = torch.optim.Adam([param], lr=LEARNING_RATE, betas=BETAS,
                                 eps=EPS)
    worst_loss = worst_grad = 0.0
    for step in range(len(losses)):
        optimizer.zero_grad()
        loss = torch_nlml(param, xt, yt)
        loss.backward()
        want_grad = param.grad.numpy().copy()
        optimizer.step()
        e_loss = difference(losses[step], loss.item())
        e_grad = difference(grads[step], want_grad)
        worst_loss, worst_grad = max(worst_loss, e_loss), max(worst_grad,
                                                              e_grad)
        if e_loss > TOLERANCE or e_grad > TOLERANCE:
            print(f"step {step}: rlx nlml {losses[step]:.12f} gradient "
                  f"{grads[step]}, torch {loss.item():.12f} {want_grad}")
            failures += 1
    print(f"nlml: largest difference {worst_loss:.1e}, gradient: "
          f"{worst_grad:.1e} (tolerance {TOLERANCE:.0e})")
    e_theta = difference(theta, param.detach().numpy())
    print(f"final hyperparameters: largest difference {e_theta:.1e}")
    failures += e_theta > TOLERANCE

    mean, var = posterior
    want_mean, want_var = torch_predict(theta, x, y, test)
    e_mean, e_var = difference(mean, want_mean), difference(var, want_var)
    print(f"posterior: mean largest difference {e_mean:.1e}, variance "
          f"{e_var:.1e}")
    failures += e_mean > TOLERANCE or e_var > TOLERANCE

    if not losses[-1] < losses[0] - 0.75 * abs(losses[0]):
        print(f"the NLML did not fall: {losses[0]:.4f} -> {losses[-1]:.4f}")
        failures += 1
    ell, sf, sn = describe(theta)
    if not (0.05 <= sn <= 0.2 and 0.5 <= ell <= 2 and 0.5 <= sf <= 2):
        print("the fitted hyperparameters are not sensible")
        failures += 1
    truth = target(test)
    rms = np.sqrt(np.mean((mean[:, 0] - truth) ** 2))
    initial_mean, _ = torch_predict(INITIAL, x, y, test)
    rms0 = np.sqrt(np.mean((initial_mean[:, 0] - truth) ** 2))
    if not (rms < NOISE_STD and rms < rms0) or not np.all(var > 0):
        print(f"the posterior is not better: RMS error {rms:.4f}, "
              f"{rms0:.4f} at the start; smallest variance {var.min():.2e}")
        failures += 1
    print("check:", "FAILED" if failures else "the NLML, its gradient and "
          "the posterior match PyTorch's")
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()

    x, y, test = dataset()
    module = rlx.compile_file(MLIR)
    losses, grads, theta = fit_with_rlx(module, x, y, args.steps)
    final, *_ = module["nlml_grad"](*theta, x, y)
    ell, sf, sn = describe(theta)
    print(f"fitted: nlml {float(final):.5f}, lengthscale {ell:.3f}, signal "
          f"std {sf:.3f}, noise std {sn:.4f} (the data's: {NOISE_STD})")
    mean, var = module["predict"](*theta, x, y, test)
    rms = np.sqrt(np.mean((mean[:, 0] - target(test)) ** 2))
    print(f"posterior at {len(test)} test points: RMS error {rms:.4f} "
          f"against the noise-free function, mean std "
          f"{np.sqrt(np.maximum(var, 0)).mean():.4f}")

    if not args.check:
        return 0
    return 1 if check(losses, grads, theta, (mean, var), x, y, test) else 0


if __name__ == "__main__":
    sys.exit(main())
