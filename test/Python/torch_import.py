# RUN: rm -rf %t && env RLX_CACHE_DIR=%t %oracle_python %s
# REQUIRES: torch
# rlx.torch_import.from_torch (issue 16): PyTorch modules traced with
# torch.fx and imported as rlx graphs. Four models (an MLP, ResNet-18, a
# 2-layer GPT-2-style decoder, a small U-Net), modules and functions
# covering the op mappings run against PyTorch in float64 on the same
# weights (error measured as |rlx - torch| / (1 + |torch|)); the
# parameters' gradients of a training loss (the MLP's, the GPT's, the
# U-Net's, a CNN's with batch norm in training mode), taken through
# rlx.grad, match torch.autograd's; unsupported ops, untraceable modules
# and rejected shapes are errors naming the torch call and the model's
# source line. Recurrent models: an LSTM language model (forward and
# gradients) and a bidirectional GRU feeding a relu RNN. Linear algebra
# (torch.linalg's solvers, factorizations and determinants, batch
# broadcasting) and FFTs with complex tensors run in float64 against torch
# with tolerance 1e-12, values and gradients; what rlx's ops do not compute
# (matrix_exp, complete QR of a tall matrix, ...) is refused by name.
import math
import os
import time
import warnings

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

import rlx
from rlx.torch_import import (TorchImportError, UnsupportedTorchOp,
                              from_torch)
from rlx_testing.checks import check, finish

torch.manual_seed(16)
SOURCE = open(__file__).read().splitlines()


def line_of(marker):
    """The line number of the source line ending in `# marker`."""
    return next(n for n, text in enumerate(SOURCE, 1)
                if text.rstrip().endswith("# " + marker))


def max_error(actual, expected):
    """max |actual - expected| / (1 + |expected|)."""
    expected = expected.detach().double().numpy()
    return float(np.max(np.abs(np.asarray(actual, np.float64) - expected) /
                        (1 + np.abs(expected))))


def compare_forward(name, model, inputs, tolerance, **options):
    """The imported model's outputs against the float64 module's."""
    start = time.perf_counter()
    imported = from_torch(model, inputs, **options)
    run = imported.compile()
    outputs = run(*inputs)
    elapsed = time.perf_counter() - start
    reference = model.double()(*[x.double() if x.is_floating_point() else x
                                 for x in inputs])
    model.float()
    outputs = outputs if isinstance(outputs, tuple) else (outputs,)
    references = reference if isinstance(reference, tuple) else (reference,)
    error = max(max_error(a, e) for a, e in zip(outputs, references))
    check(f"{name} forward", len(outputs) == len(references) and
          error < tolerance, f"error {error:.2e} >= {tolerance}")
    print(f"{name}: import+compile+run {elapsed:.1f} s, error {error:.1e}")
    return imported


def compare_gradients(name, loss_module, inputs, tolerance):
    """The parameters' gradients of a scalar loss, through rlx.grad (rlx's
    autodiff), against torch.autograd in float64."""
    imported = from_torch(loss_module, inputs)
    gradient = rlx.grad(imported.graph, wrt=list(imported.parameter_inputs()))
    start = time.perf_counter()
    loss_grad = gradient.compile()
    elapsed = time.perf_counter() - start
    results = loss_grad(
        *[x.numpy() for x in inputs],
        *[imported.parameters[n] for n in imported.parameter_names])
    loss, gradients = results[0], results[1:]

    loss_module.double().zero_grad()
    expected = loss_module(*[x.double() if x.is_floating_point() else x
                             for x in inputs])
    expected.backward()
    parameters = dict(loss_module.named_parameters())
    errors = {n: max_error(g, parameters[n].grad)
              for n, g in zip(imported.trainable_names, gradients)}
    loss_module.float()
    worst = max(errors, key=errors.get)
    check(f"{name} loss", max_error(loss, expected) < tolerance,
          f"{loss} vs {expected.item()}")
    check(f"{name} gradients",
          len(gradients) == len(parameters) and errors[worst] < tolerance,
          f"{len(gradients)} gradients for {len(parameters)} parameters; "
          f"{worst}: error {errors[worst]:.2e}")
    print(f"{name}: {len(gradients)} gradients, compile {elapsed:.1f} s, "
          f"worst error {errors[worst]:.1e} ({worst})")


# -- an MLP ------------------------------------------------------------------

class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(12, 32), nn.ReLU(),
                                    nn.Linear(32, 32), nn.Tanh(),
                                    nn.Dropout(0.1), nn.Linear(32, 5))

    def forward(self, x):
        return self.layers(x)


class Classified(nn.Module):
    """A model and its cross-entropy loss: a scalar to differentiate."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x, labels):
        logits = self.model(x)
        return F.cross_entropy(logits.reshape(-1, logits.shape[-1]),
                               labels.reshape(-1))


mlp = MLP().eval()
x = torch.randn(16, 12)
imported = compare_forward("mlp", mlp, (x,), 1e-5)
check("mlp names", imported.user_input_names == ["x"] and
      imported.parameter_names == [
          "layers.0.weight", "layers.0.bias", "layers.2.weight",
          "layers.2.bias", "layers.5.weight", "layers.5.bias"] and
      imported.input_names[1] == "layers_0_weight",
      (imported.input_names, imported.parameter_names))
run = imported.compile(threads=1)
check("mlp inputs", np.array_equal(run(x=x), run(x.numpy())) and
      np.array_equal(run(x), run(x.numpy())))
constants = from_torch(mlp, (x,), parameters="constants")
check("mlp constants", constants.parameter_names == [] and
      constants.input_names == ["x"] and
      np.allclose(constants.compile()(x), run(x), atol=1e-6))
compare_gradients("mlp", Classified(mlp), (x, torch.randint(0, 5, (16,))),
                  1e-5)


# -- ResNet-18 ---------------------------------------------------------------

class BasicBlock(nn.Module):
    def __init__(self, inputs, outputs, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(inputs, outputs, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(outputs)
        self.conv2 = nn.Conv2d(outputs, outputs, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(outputs)
        self.shortcut = nn.Sequential()
        if stride != 1 or inputs != outputs:
            self.shortcut = nn.Sequential(
                nn.Conv2d(inputs, outputs, 1, stride, bias=False),
                nn.BatchNorm2d(outputs))

    def forward(self, x):
        y = F.relu(self.bn1(self.conv1(x)), inplace=True)
        y = self.bn2(self.conv2(y))
        return F.relu(y + self.shortcut(x))


class ResNet18(nn.Module):
    def __init__(self, classes=10):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 64, 7, 2, 3, bias=False),
                                  nn.BatchNorm2d(64), nn.ReLU(inplace=True),
                                  nn.MaxPool2d(3, 2, 1))
        blocks, width = [], 64
        for outputs, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
            blocks += [BasicBlock(width, outputs, stride),
                       BasicBlock(outputs, outputs, 1)]
            width = outputs
        self.blocks = nn.Sequential(*blocks)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(512, classes)

    def forward(self, x):
        return self.fc(torch.flatten(self.pool(self.blocks(self.stem(x))), 1))


resnet = ResNet18()
for module in resnet.modules():
    if isinstance(module, nn.BatchNorm2d):
        # Statistics away from the identity, so that eval mode is tested.
        module.running_mean.uniform_(-0.2, 0.2)
        module.running_var.uniform_(0.5, 1.5)
        module.weight.data.uniform_(0.5, 1.5)
        module.bias.data.uniform_(-0.2, 0.2)
resnet.eval()
imported = compare_forward("resnet18", resnet, (torch.randn(1, 3, 64, 64),),
                           1e-5)
check("resnet18 parameters", len(imported.parameter_names) ==
      len(resnet.state_dict()) - 20 and
      len(imported.trainable_names) == len(list(resnet.parameters())),
      (len(imported.parameter_names), len(resnet.state_dict())))


# -- a GPT-2-style decoder ---------------------------------------------------

class CausalSelfAttention(nn.Module):
    def __init__(self, width, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(width, 3 * width)
        self.proj = nn.Linear(width, width)
        self.dropout = nn.Dropout(0.1)

    def forward(self, x):
        batch, length, width = x.size()
        q, k, v = self.qkv(x).split(width, dim=2)
        q = q.view(batch, length, self.heads, -1).transpose(1, 2)
        k = k.view(batch, length, self.heads, -1).transpose(1, 2)
        v = v.view(batch, length, self.heads, -1).transpose(1, 2)
        scores = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        mask = torch.tril(torch.ones(length, length)).view(1, 1, length,
                                                           length)
        scores = scores.masked_fill(mask == 0, float("-inf"))
        weights = self.dropout(F.softmax(scores, dim=-1))
        y = (weights @ v).transpose(1, 2).contiguous().view(batch, length,
                                                            width)
        return self.proj(y)


class GPTBlock(nn.Module):
    def __init__(self, width, heads):
        super().__init__()
        self.ln_1 = nn.LayerNorm(width)
        self.attn = CausalSelfAttention(width, heads)
        self.ln_2 = nn.LayerNorm(width)
        self.mlp = nn.Sequential(nn.Linear(width, 4 * width),
                                 nn.GELU(approximate="tanh"),
                                 nn.Linear(4 * width, width), nn.Dropout(0.1))

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Module):
    def __init__(self, vocabulary=64, context=16, width=32, heads=4,
                 layers=2):
        super().__init__()
        self.wte = nn.Embedding(vocabulary, width)
        self.wpe = nn.Embedding(context, width)
        self.blocks = nn.ModuleList(GPTBlock(width, heads)
                                    for _ in range(layers))
        self.ln_f = nn.LayerNorm(width)
        self.lm_head = nn.Linear(width, vocabulary, bias=False)
        self.lm_head.weight = self.wte.weight  # tied

    def forward(self, tokens):
        positions = torch.arange(0, tokens.size(1), dtype=torch.long)
        x = self.wte(tokens) + self.wpe(positions)
        for block in self.blocks:
            x = block(x)
        return self.lm_head(self.ln_f(x))


gpt = GPT().eval()
tokens = torch.randint(0, 64, (2, 16))
imported = compare_forward("gpt2", gpt, (tokens,), 1e-5)
check("gpt2 tied weight", "lm_head.weight" not in imported.parameter_names and
      imported.parameter_names[0] == "wte.weight",
      imported.parameter_names[:3])
compare_gradients("gpt2", Classified(gpt), (tokens,
                                            torch.randint(0, 64, (2, 16))),
                  1e-5)


# -- recurrent models ----------------------------------------------------------

class LstmLM(nn.Module):
    """An LSTM language model: embedding, a 2-layer LSTM, a head."""

    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(40, 16)
        self.lstm = nn.LSTM(16, 24, num_layers=2, batch_first=True)
        self.head = nn.Linear(24, 40)

    def forward(self, tokens):
        y, (h, c) = self.lstm(self.embed(tokens))
        return self.head(y)


class RecurrentClassifier(nn.Module):
    """A bidirectional GRU then a relu RNN from the GRU's final states."""

    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(6, 8, bidirectional=True)
        self.rnn = nn.RNN(16, 5, nonlinearity="relu", bias=False)

    def forward(self, x, h0):
        y, h = self.gru(x, h0)
        z, _ = self.rnn(y)
        return z[-1] + h.sum(0).sum(-1, keepdim=True)


lm = LstmLM().eval()
tokens = torch.randint(0, 40, (3, 7))
compare_forward("lstm lm", lm, (tokens,), 1e-5)
compare_gradients("lstm lm", Classified(lm),
                  (tokens, torch.randint(0, 40, (3, 7))), 1e-5)
compare_forward("gru rnn", RecurrentClassifier().eval(),
                (torch.randn(9, 2, 6), torch.randn(2, 2, 8)), 1e-5)


# -- a small U-Net -----------------------------------------------------------

def double_conv(inputs, outputs):
    return nn.Sequential(nn.Conv2d(inputs, outputs, 3, padding=1),
                         nn.GroupNorm(4, outputs), nn.SiLU(),
                         nn.Conv2d(outputs, outputs, 3, padding=1),
                         nn.GroupNorm(4, outputs), nn.SiLU())


class UNet(nn.Module):
    def __init__(self, channels=3, width=8):
        super().__init__()
        self.down1 = double_conv(channels, width)
        self.down2 = double_conv(width, 2 * width)
        self.middle = double_conv(2 * width, 4 * width)
        self.up2 = nn.ConvTranspose2d(4 * width, 2 * width, 2, stride=2)
        self.merge2 = double_conv(4 * width, 2 * width)
        self.up1 = nn.ConvTranspose2d(2 * width, width, 2, stride=2)
        self.merge1 = double_conv(2 * width, width)
        self.out = nn.Conv2d(width, 1, 1)

    def forward(self, x):
        skip1 = self.down1(x)
        skip2 = self.down2(F.max_pool2d(skip1, 2))
        y = self.middle(F.avg_pool2d(skip2, 2))
        y = self.merge2(torch.cat([self.up2(y), skip2], dim=1))
        y = self.merge1(torch.cat([self.up1(y), skip1], dim=1))
        return self.out(y)


class Segmented(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x, target):
        return F.binary_cross_entropy_with_logits(self.model(x), target)


unet = UNet().eval()
image = torch.randn(2, 3, 16, 16)
compare_forward("unet", unet, (image,), 1e-5)
compare_gradients("unet", Segmented(unet),
                  (image, torch.rand(2, 1, 16, 16).round()), 1e-5)


# Batch norm in training mode normalizes with the batch's statistics.
class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)
        self.bn = nn.BatchNorm2d(4)
        self.fc = nn.Linear(4, 5)

    def forward(self, x):
        y = F.relu(self.bn(self.conv(x)))
        return self.fc(F.adaptive_avg_pool2d(y, 1).flatten(1))


compare_gradients("cnn training batch norm", Classified(SmallCNN().train()),
                  (torch.randn(4, 3, 8, 8), torch.randint(0, 5, (4,))),
                  1e-5)


# -- op mappings -------------------------------------------------------------

class Lambda(nn.Module):
    """function(x, *parameters) as a module (torch.fx does not trace a
    forward of *args)."""

    def __init__(self, function, *parameters):
        super().__init__()
        self.function = function
        self.weights = nn.ParameterList(nn.Parameter(p) for p in parameters)

    def forward(self, x):
        return self.function(x, *self.weights)


class Lambda2(Lambda):
    def forward(self, x, y):
        return self.function(x, y, *self.weights)


def rms_norm(x, w):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * w


a = torch.randn(3, 8, 6)
image = torch.randn(2, 4, 9, 9)
labels = torch.randint(0, 6, (3, 8))
cases = {
    # name: (function, inputs, parameters)
    "activations": (lambda t: torch.cat([
        F.relu(t), F.gelu(t), F.gelu(t, approximate="tanh"), F.silu(t),
        torch.sigmoid(t), torch.tanh(t), F.softplus(t), F.softplus(t, 2.0),
        F.elu(t), F.elu(t, 0.5), F.leaky_relu(t, 0.2), F.hardswish(t),
        F.hardsigmoid(t), F.mish(t), F.relu6(3 * t), F.hardtanh(t),
        F.selu(t), F.logsigmoid(t), F.softsign(t)], dim=-1), (a,), ()),
    "elementwise": (lambda t: torch.stack([
        t + 1, 2 - t, t * t, t / 3, 1 / (t.abs() + 1), t ** 2, -t,
        torch.exp(t), torch.log(t.abs() + 1), torch.sqrt(t.abs()),
        torch.rsqrt(t.abs() + 1), t.clamp(-0.5, 0.5), torch.clamp(t, min=0),
        torch.where(t > 0, t, t * 0.1), torch.maximum(t, t.flip(0)),
        t.pow(3), torch.pow(2.0, t), t.add(t, alpha=2), t.sub(1.5),
        t // 0.5, t % 0.7, t.square(), torch.erf(t)]), (a,), ()),
    "reductions": (lambda t: torch.cat([
        t.mean(-1), t.sum(dim=1, keepdim=True).squeeze(1),
        t.amax(dim=(0, 2)).expand(6, 8).t()[:6].sum(0).expand(3, 6),
        torch.max(t, dim=1).values, t.var(-1), t.std(-1, unbiased=False),
        torch.logsumexp(t, dim=-1), t.prod(-1),
        torch.min(t, 1)[0]], dim=1), (a,), ()),
    "norms": (lambda t, w: torch.cat([
        rms_norm(t, w), F.layer_norm(t, (6,)),
        F.layer_norm(t, (8, 6), eps=1e-3), F.normalize(t, dim=-1),
        F.group_norm(t.transpose(1, 2), 2).transpose(1, 2),
        F.softmax(t, -1), F.log_softmax(t, dim=1)], dim=-1),
        (a,), (torch.randn(6),)),
    "views": (lambda t: torch.cat([
        t.view(3, -1)[:, ::3].reshape(3, 2, 8).permute(2, 0, 1)
        .flatten(1)[:6].repeat(1, 1)[None, ..., :1].squeeze().expand(4, 6)
        .unsqueeze(0).expand(3, 4, 6).contiguous(),
        torch.stack(t.chunk(2, dim=1), dim=1).reshape(3, 8, 6)[:, 4:]
        .transpose(0, 1)[:, :, 1::2].reshape(3, 4, 3).repeat(1, 1, 2),
        t[:, -3:-1].unflatten(1, (1, 2)).flatten(1, 2).repeat(1, 2, 1),
        t[..., 1:5:2][:, [0, 2, 2, 1]].expand(3, 4, 2).tile(1, 1, 3),
        t[:, None, 2, :].expand(3, 4, 6),
        torch.cat(torch.split(t, [2, 6], dim=1)[::-1], 1)[:, 1::2].flip(1),
        t.narrow(1, 2, 4).select(2, 0).unsqueeze(-1).expand(-1, -1, 6),
        F.pad(t, (1, 1, 0, 0))[:, :4, 1:7] * 1.0,
        torch.einsum("bij,bkj->bik", t, t)[:, :4, :6],
        torch.einsum("bij->bj", t).unsqueeze(1).expand(3, 4, 6),
        t[:, :4] * (t.shape[-1] // 2)], dim=1), (a,), ()),
    "spatial": (lambda t, w, v, u: torch.cat([
        F.conv2d(t, w, stride=2, padding=1).flatten(1),
        F.conv2d(t, w, padding="same", dilation=2).flatten(1),
        F.conv2d(t, v, groups=2).flatten(1),
        F.conv_transpose2d(t, u, stride=2, padding=1,
                           output_padding=1).flatten(1),
        F.conv1d(t.flatten(2), w[:, :, 0]).flatten(1),
        F.conv_transpose1d(t.flatten(2), u[:, :, 0], stride=3).flatten(1),
        F.max_pool2d(t, 3, 2, 1).flatten(1),
        F.max_pool2d(t, 2, ceil_mode=True).flatten(1),
        F.avg_pool2d(t, 3, 2, 1).flatten(1),
        F.avg_pool2d(t, 3, 2, 1, count_include_pad=False).flatten(1),
        F.adaptive_avg_pool2d(t, 1).flatten(1),
        F.adaptive_max_pool2d(t, (1, 1)).flatten(1),
        F.adaptive_avg_pool2d(t[..., :8, :8], 4).flatten(1),
        F.interpolate(t, scale_factor=2).flatten(1),
        F.batch_norm(t, None, None, training=True).flatten(1),
        F.instance_norm(t).flatten(1)], dim=1),
        (image,), (torch.randn(5, 4, 3, 3), torch.randn(6, 2, 3, 3),
                   torch.randn(4, 3, 3, 3))),
    "padding and scans": (lambda t: torch.cat([
        F.pad(t, (2, 1), mode="reflect")[..., :6],
        F.pad(t, (1, 2), mode="replicate")[..., 3:],
        F.pad(t.unsqueeze(0), (1, 1, 0, 0), mode="circular")[0, ..., 1:7],
        F.pad(t, (1, 1), value=0.5)[..., :6], torch.roll(t, 2, 1),
        torch.roll(t, (1, -1), (1, 2)), t.cumsum(1), t.flip(-1),
        F.softmax(t, 0),
        torch.gather(t, 2, t.argmax(2, keepdim=True) + torch.arange(6) * 0),
        torch.where(torch.ones(8, 6, dtype=torch.bool).tril(), t, 0.0),
        t.index_select(1, torch.tensor([7, 0, 3, 3, 1, 2, 4, 5])),
        F.interpolate(t[..., :4], size=6),
        F.avg_pool1d(t, 3, 2, ceil_mode=True).repeat(1, 1, 2)], dim=1),
        (a,), ()),
    "scatter and sort": (lambda t: torch.cat([
        t.scatter(2, t.argsort(2), t * 2), t.scatter_add(1, (t > 0).long(), t),
        t.scatter_reduce(2, t.abs().argsort(2)[..., :3] % 4, t[..., :3],
                         "amax"),
        t.sort(2, descending=True).values, t.sort(1)[1] * 1.0,
        t.topk(2)[0].repeat(1, 1, 3),
        t.topk(3, largest=False)[1].repeat(1, 1, 2) * 1.0,
        t.cummax(2).values, t.cummax(1).indices * 1.0], dim=1), (a,), ()),
    "histogram": (lambda t: torch.histc(t, 7, -1.5, 1.5), (a,), ()),
    "integers": (lambda t: t.argmax(-1) * 7 // 3 + t.argmin(-1) % 4 -
                 (t > 0).sum(-1) + torch.max(t, 2)[1] - t.argmax(),
                 (a,), ()),
    "losses": (lambda t, y, p: torch.stack([
        F.cross_entropy(t.transpose(1, 2), y),
        F.cross_entropy(t.reshape(-1, 6), y.reshape(-1), label_smoothing=0.1),
        F.cross_entropy(t.reshape(-1, 6), y.reshape(-1),
                        weight=p.abs().detach()),
        F.cross_entropy(t.reshape(-1, 6), torch.where(
            y.reshape(-1) == 2, -100, y.reshape(-1))),
        F.cross_entropy(t[0], F.softmax(t[1], -1)),
        F.nll_loss(F.log_softmax(t[0], -1), y[0], reduction="sum"),
        F.mse_loss(t[0], t[1]), F.l1_loss(t[0], t[2]),
        F.smooth_l1_loss(t[0], t[1] * 2), F.huber_loss(t[1], 2 * t[2]),
        F.binary_cross_entropy_with_logits(t[0], torch.sigmoid(t[1])),
        F.binary_cross_entropy_with_logits(t[0], torch.sigmoid(t[1]),
                                           pos_weight=p.abs().detach()),
        F.binary_cross_entropy(torch.sigmoid(t[0]), torch.sigmoid(t[2]))]),
        (a, labels), (torch.randn(6),)),
}
modules = {
    "modules 1d": (nn.Sequential(
        nn.Conv1d(4, 8, 3, padding=1), nn.BatchNorm1d(8), nn.PReLU(8),
        nn.ConvTranspose1d(8, 4, 4, stride=2, padding=1),
        nn.InstanceNorm1d(4, affine=True), nn.ELU(), nn.AvgPool1d(2),
        nn.MaxPool1d(2), nn.Flatten(), nn.Linear(16, 3), nn.Softmax(-1)),
        torch.randn(2, 4, 8)),
    "modules 3d": (nn.Sequential(
        nn.Conv3d(2, 4, 3, padding=(1, 0, 1), stride=(1, 2, 1)),
        nn.BatchNorm3d(4), nn.Hardswish(), nn.MaxPool3d(2),
        nn.ConvTranspose3d(4, 2, 2, stride=2), nn.GroupNorm(2, 2),
        nn.Upsample(scale_factor=2), nn.AdaptiveAvgPool3d(1),
        nn.Flatten()), torch.randn(1, 2, 6, 9, 6)),
}
for module in (modules["modules 1d"][0][1], modules["modules 3d"][0][1]):
    module.running_mean.uniform_(-0.2, 0.2)
    module.running_var.uniform_(0.5, 1.5)
for name, (module, x) in modules.items():
    compare_forward(name, module.eval(), (x,), 1e-5)
    compare_forward(name + " constants", module, (x,), 1e-5,
                    parameters="constants")

for name, (function, inputs, parameters) in cases.items():
    module = (Lambda if len(inputs) == 1 else Lambda2)(function, *parameters)
    compare_forward(name, module, inputs, 1e-5)


# -- linear algebra and Fourier transforms (float64) ---------------------------

# The deprecated torch.cholesky, torch.qr, torch.triangular_solve are mapped
# too; torch warns on each call of them.
warnings.filterwarnings("ignore", message=r"torch\.\w+ is deprecated")

def f64(*shape):
    return torch.randn(*shape, dtype=torch.float64)


def nan_aware_error(actual, expected):
    """max_error over the finite entries; NaN and inf where torch has them
    (the same inf)."""
    actual = np.asarray(actual, np.float64)
    expected = expected.detach().double().numpy()
    finite = np.isfinite(expected)
    if not np.array_equal(np.isnan(actual), np.isnan(expected)) or \
            not np.array_equal(actual[np.isinf(expected)],
                               expected[np.isinf(expected)]):
        return float("inf")
    if not finite.any():
        return 0.0
    return float(np.max(np.abs(actual[finite] - expected[finite]) /
                        (1 + np.abs(expected[finite]))))


class WeightedSum(nn.Module):
    """sum_i (function(x, *parameters)[i] * w_i).sum() with fixed random
    weights w_i (buffers): a scalar loss of every output, for
    compare_gradients."""

    def __init__(self, function, inputs, *parameters):
        super().__init__()
        self.function = function
        self.weights = nn.ParameterList(nn.Parameter(p) for p in parameters)
        outputs = function(*inputs, *self.weights)
        outputs = outputs if isinstance(outputs, tuple) else (outputs,)
        for n, output in enumerate(outputs):
            self.register_buffer(f"w{n}", torch.randn_like(output.detach()))
        self.count = len(outputs)

    def forward(self, x):
        outputs = self.function(x, *self.weights)
        outputs = outputs if isinstance(outputs, tuple) else (outputs,)
        return sum((o * getattr(self, f"w{n}")).sum()
                   for n, o in enumerate(outputs))


def compare_f64(name, function, inputs, parameters=(), tolerance=1e-12,
                gradient=None, normalize=None):
    """function(*inputs, *parameters) imported in float64 against torch;
    then the parameters' gradients of a weighted sum of the outputs of
    `gradient` (a function of the same arguments whose outputs do not
    depend on the signs of eigen- or singular vectors; None: none)."""
    module = (Lambda if len(inputs) == 1 else Lambda2)(function,
                                                       *parameters)
    imported = from_torch(module, inputs)
    outputs = imported.compile()(*inputs)
    expected = module(*inputs)
    outputs = outputs if isinstance(outputs, tuple) else (outputs,)
    expected = expected if isinstance(expected, tuple) else (expected,)
    if normalize is not None:
        outputs = normalize([np.asarray(o) for o in outputs])
        expected = [torch.from_numpy(e) for e in normalize(
            [e.detach().numpy() for e in expected])]
    errors = [nan_aware_error(a, e) for a, e in zip(outputs, expected)]
    error = max(errors)
    check(f"{name} forward", len(outputs) == len(expected) and
          all(np.shape(a) == tuple(e.shape)
              for a, e in zip(outputs, expected)) and error < tolerance,
          f"errors {['%.1e' % e for e in errors]}, shapes "
          f"{[np.shape(a) for a in outputs]} vs "
          f"{[tuple(e.shape) for e in expected]}")
    print(f"{name}: float64 error {error:.1e}")
    if gradient is not None:
        compare_gradients(name, WeightedSum(gradient, inputs, *parameters),
                          inputs, tolerance)


def fixed_signs(vectors, *others, rows=False):
    """Eigen- or singular vectors (columns, or rows with rows=True) scaled
    so that each one's first element of largest magnitude is positive,
    rlx's convention (torch leaves the sign to LAPACK); `others` (the
    other factor's matching rows or columns) scaled alike."""
    v = np.swapaxes(vectors, -1, -2) if rows else vectors
    largest = np.take_along_axis(v, np.abs(v).argmax(-2)[..., None, :], -2)
    sign = np.where(largest < 0, -1.0, 1.0)  # [..., 1, k]
    fixed = [v * sign]
    for other, other_rows in others:
        fixed.append(other * (np.swapaxes(sign, -1, -2) if other_rows
                              else sign))
    if rows:
        fixed[0] = np.swapaxes(fixed[0], -1, -2)
    return fixed


eye4 = torch.eye(4, dtype=torch.float64)


def spd(p):
    return p @ p.mT + 4 * eye4


compare_f64("cholesky", lambda x, p: (
    torch.linalg.cholesky(spd(p)),
    # upper=True reads the upper triangle only: x's lower part is ignored.
    torch.linalg.cholesky(spd(p) + x.tril(-1), upper=True),
    torch.cholesky(spd(p)[0])),
    (f64(2, 4, 4),), (f64(2, 4, 4),),
    gradient=lambda x, p: (torch.linalg.cholesky(spd(p)),
                           torch.linalg.cholesky(spd(p), upper=True)))

solve_cases = lambda b, a, v: (  # noqa: E731
    torch.linalg.solve(a, b),
    torch.linalg.solve(a, b[..., 0]),       # a batch of vectors
    torch.linalg.solve(a, v),               # one vector, broadcast
    torch.linalg.solve(a[0], b),            # A broadcast over B's batch
    torch.linalg.solve(a, b[1]),            # B broadcast over A's batch
    torch.linalg.solve(a, b.mT, left=False),
    torch.linalg.inv(a), a.inverse())
compare_f64("solve", solve_cases, (f64(3, 4, 2),),
            (f64(3, 4, 4) + 4 * eye4, f64(4)), gradient=solve_cases)

triangular_cases = lambda b, a: (  # noqa: E731
    torch.linalg.solve_triangular(a, b, upper=True),
    torch.linalg.solve_triangular(a, b, upper=False),
    torch.linalg.solve_triangular(a, b, upper=False, unitriangular=True),
    torch.linalg.solve_triangular(a, b.mT, upper=True, left=False),
    torch.linalg.solve_triangular(a[0], b, upper=False),
    torch.triangular_solve(b, a, upper=False, transpose=True).solution,
    torch.triangular_solve(b, a).solution)
compare_f64("solve_triangular", triangular_cases, (f64(3, 4, 2),),
            (f64(3, 4, 4) + 4 * eye4,), gradient=triangular_cases)

singular = f64(2, 3, 3)
singular[1, :, 0] = 0  # det exactly 0: sign 0, log|det| = logdet = -inf
signed = f64(6, 3, 3)
signed[1] = -signed[0]  # determinants of both signs
compare_f64("determinants", lambda x, a: (
    torch.linalg.det(a), a.det(), torch.linalg.slogdet(a).sign,
    torch.linalg.slogdet(a)[1], torch.slogdet(a).logabsdet,
    torch.logdet(a),                        # NaN where det < 0
    torch.linalg.det(x), torch.linalg.slogdet(x)[0],
    torch.linalg.slogdet(x)[1], torch.logdet(x)),
    (singular,), (signed,),
    gradient=lambda x, a: (torch.linalg.det(a),
                           torch.linalg.slogdet(a).logabsdet,
                           torch.logdet(a @ a.mT + eye4[:3, :3])))


def symmetric(p):
    return p + p.mT


def eigh_normalized(outputs):
    values, vectors, values_u, vectors_u, values_only = outputs
    return [values, *fixed_signs(vectors), values_u,
            *fixed_signs(vectors_u), values_only]


def pair(result):
    """A two-result op's results (fx does not trace `*result`)."""
    return result[0], result[1]


def triple(result):
    return result[0], result[1], result[2]


compare_f64("eigh", lambda x, p: (
    pair(torch.linalg.eigh(symmetric(p) + x.triu(1)))      # UPLO='L'
    + pair(torch.linalg.eigh(symmetric(p) + x.tril(-1), UPLO="U"))
    + (torch.linalg.eigvalsh(symmetric(p)),)),
    (f64(2, 5, 5),), (f64(2, 5, 5),), normalize=eigh_normalized,
    gradient=lambda x, p: (
        torch.linalg.eigvalsh(symmetric(p)),
        torch.linalg.eigh(symmetric(p)).eigenvectors ** 2,
        torch.linalg.eigh(symmetric(p), UPLO="U")[1] ** 2))

qr_cases = lambda x, a: (  # noqa: E731
    pair(torch.linalg.qr(a))                               # tall
    + pair(torch.linalg.qr(a[:, :4]))                      # square
    + pair(torch.qr(a[0])))
compare_f64("qr", lambda x, a: (
    qr_cases(x, a) + pair(torch.linalg.qr(x))              # wide
    + pair(torch.linalg.qr(x, mode="complete"))), (f64(2, 3, 5),),
    (f64(2, 6, 4),),
    gradient=qr_cases)  # wide matrices have no gradient (as in torch)


def svd_normalized(outputs):
    u, s, vh, uw, sw, vhw, uq, sq, vhq, values, ul, sl, vl = outputs
    return [*fixed_signs(vh, (u, False), rows=True), s,
            *fixed_signs(vhw, (uw, False), rows=True), sw,
            *fixed_signs(vhq, (uq, False), rows=True), sq, values,
            *fixed_signs(vl, (ul, False)), sl]


compare_f64("svd", lambda x, a: (
    triple(torch.linalg.svd(a, full_matrices=False))       # tall
    + triple(torch.linalg.svd(x, full_matrices=False))     # wide
    + triple(torch.linalg.svd(a[:, :4]))  # square: full_matrices=True
    + (torch.linalg.svdvals(a),) + triple(torch.svd(x))),  # torch.svd: V
    (f64(2, 3, 5),), (f64(2, 6, 4),), normalize=svd_normalized,
    gradient=lambda x, a: (
        torch.linalg.svdvals(a), torch.linalg.svdvals(a.mT),
        torch.linalg.svd(a, full_matrices=False).U ** 2,
        torch.linalg.svd(a, full_matrices=False).Vh ** 2))


def spectra(x, p):
    signal = x * p                               # [2, 3, 8]
    z = torch.complex(signal, signal.flip(-1))
    spectrum = torch.fft.rfft(signal)            # [2, 3, 5] complex
    return (
        torch.view_as_real(spectrum),
        torch.view_as_real(torch.fft.rfft(signal, norm="ortho")),
        torch.fft.rfft(signal, n=12, norm="forward").real,  # zero-padded
        torch.fft.rfft(signal, n=7).imag,        # trimmed, Bluestein
        torch.view_as_real(torch.fft.rfft(signal, dim=1)),
        torch.view_as_real(torch.fft.fft(signal)),      # of a real signal
        torch.view_as_real(torch.fft.fft(z, dim=0)),
        torch.view_as_real(torch.fft.fft(z, n=6, norm="ortho")),
        torch.view_as_real(torch.fft.ifft(z)),
        torch.view_as_real(torch.fft.ifft(z, dim=1, norm="forward")),
        torch.fft.irfft(spectrum),               # n = 2 (m - 1) = 8
        torch.fft.irfft(spectrum, n=9, norm="ortho"),
        torch.fft.irfft(z, n=5, dim=1),
        torch.real(z) + torch.imag(z), spectrum.abs(),
        torch.view_as_real(spectrum.conj().resolve_conj()),
        torch.fft.fft(torch.view_as_complex(
            torch.stack([signal, 2 * signal], -1))).imag,
        # Layout ops on complex tensors go part by part.
        torch.view_as_real(torch.cat([spectrum[:, 1:, ::2],
                                      spectrum[:, :2, 1:4]], 1)),
        torch.view_as_real(spectrum.transpose(0, 2).reshape(5, -1)),
        torch.view_as_real(torch.stack(spectrum.unbind(1))
                           .flip(0)[..., 2]),
        torch.view_as_real(spectrum.mT.unsqueeze(0).expand(2, 2, 5, 3)),
        torch.fft.irfft(spectrum.detach()))


compare_f64("fft", spectra, (f64(2, 3, 8),), (f64(8),), gradient=spectra)


# -- errors ------------------------------------------------------------------

def raises(name, module, inputs, kind, *fragments):
    try:
        from_torch(module, inputs)
    except kind as e:
        check(name, all(f in str(e) for f in fragments),
              f"{type(e).__name__}: {e}")
        return
    except Exception as e:
        check(name, False, f"{type(e).__name__}: {e}")
        return
    check(name, False, "no error")


class Unfolded(nn.Module):
    def forward(self, x):
        return F.unfold(x, 2)  # unfold


class CumulativeMax(nn.Module):
    def forward(self, x):
        return torch.cummin(x, dim=1).values  # cummin


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.attention = nn.MultiheadAttention(6, 2, batch_first=True)

    def forward(self, x):
        return self.attention(x, x, x)[0]  # multihead


class Branching(nn.Module):
    def forward(self, x):
        if x.sum() > 0:  # branch
            return x
        return -x


class Mismatched(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.randn(5, 3))

    def forward(self, x):
        return x @ self.w  # mismatch


here = os.path.abspath(__file__)
raises("unsupported function", Unfolded(), (image,), UnsupportedTorchOp,
       "torch.nn.functional.unfold", f"{here}:{line_of('unfold')}",
       "F.unfold(x, 2)")
raises("unsupported is NotImplementedError", CumulativeMax(), (a,),
       NotImplementedError, "torch.cummin", f":{line_of('cummin')}")
raises("unsupported module", Attention(), (a,), UnsupportedTorchOp,
       "torch.nn.MultiheadAttention does not trace with torch.fx",
       f"{here}:{line_of('multihead')}")
raises("control flow", Branching(), (a,), UnsupportedTorchOp,
       "Branching does not trace with torch.fx",
       f"{here}:{line_of('branch')}", "if x.sum() > 0:")
raises("training dropout", nn.Dropout(0.5), (a,), UnsupportedTorchOp,
       "dropout in training mode")
raises("rejected shapes", Mismatched(), (a,), TorchImportError,
       "operator.matmul",
       f"{here}:{line_of('mismatch')}", "contracting dimensions differ")

# Linear algebra and Fourier transforms: what rlx's ops do not compute.
tall, square = f64(4, 3), f64(3, 3)
raises("qr mode r", Lambda(lambda t: torch.linalg.qr(t, mode="r")[1]),
       (tall,), UnsupportedTorchOp, "torch.linalg.qr", "mode='r'")
raises("qr complete tall", Lambda(
    lambda t: torch.linalg.qr(t, mode="complete")[0]), (tall,),
    UnsupportedTorchOp, "mode='complete' of a tall matrix (4 x 3)")
raises("svd full matrices", Lambda(lambda t: torch.linalg.svd(t)[0]),
       (tall,), UnsupportedTorchOp,
       "full_matrices=True of a 4 x 3 matrix")
raises("svd without vectors", Lambda(
    lambda t: torch.svd(t, compute_uv=False)[1]), (tall,),
    UnsupportedTorchOp, "compute_uv=False")
raises("matrix_exp", Lambda(
    lambda t: torch.linalg.matrix_exp(t)),  # matrix_exp
    (square,), UnsupportedTorchOp, "torch.linalg.matrix_exp",
    f":{line_of('matrix_exp')}", "cannot know that the input is symmetric")
raises("solve batches", Lambda(
    lambda t: torch.linalg.solve(t, t[:2, :, :1])), (f64(3, 4, 4),),
    TorchImportError, "torch.linalg.solve",
    "batch dimensions [3] and [2] do not broadcast")
raises("eigh UPLO", Lambda(lambda t: torch.linalg.eigvalsh(t, UPLO="X")),
       (square,), TorchImportError, "UPLO='X' is not 'L' or 'U'")
raises("non-square", Lambda(lambda t: torch.linalg.det(t)), (tall,),
       TorchImportError, "det needs square matrices, got shape [4, 3]")
raises("rfft of complex", Lambda(
    lambda t: torch.fft.rfft(torch.fft.fft(t)).real), (tall,),
    TorchImportError, "torch.fft.rfft", "rfft of a complex tensor")
raises("fft2", Lambda(lambda t: torch.fft.fft2(t).real), (tall,),
       UnsupportedTorchOp, "torch.fft.fft2 is not supported")
raises("complex arithmetic", Lambda(
    lambda t: (torch.fft.rfft(t) * 2).real), (tall,), UnsupportedTorchOp,
    "operator.mul", "arithmetic on complex tensors")
check("errors are GraphErrors", issubclass(UnsupportedTorchOp,
                                           rlx.GraphError) and
      issubclass(TorchImportError, rlx.GraphError))

finish()
