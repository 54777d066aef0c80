# RUN: rm -rf %t && env RLX_CACHE_DIR=%t %oracle_python %s
# REQUIRES: torch
# (Not signal.py: a script's directory leads sys.path, and scipy's `import
# signal` would import that file instead of the standard library's.)
# The signal-processing ops (RlxSignalOps.td) against PyTorch 1.13's torch.fft
# in float64, scipy.signal.welch and a float64 torchaudio MelSpectrogram
# written here; f64 and f32 (f32 against the float64 reference of the same
# f32-rounded inputs). Complex values cross the function boundary as their
# real and imaginary parts (rlx.complex in, rlx.real / rlx.imag out), and
# as numpy complex64 / complex128 arrays (the runtime's c64 / c128) in
# ComplexArgs.
# - rlx.fft, ifft, rfft, irfft: every length of LENGTHS (f32: F32_LENGTHS;
#   Stockham radices 4,
#   2, 3, 5 and their mixes; Bluestein for 7, 11, 13, 14, 49, 97, 997), f32
#   and f64, each op with each norm (rotating over the lengths, which puts
#   every norm on Stockham and Bluestein lengths), batches none, [3] and
#   [2, 3], `?` batches run at several sizes (an empty batch among them);
#   the round trips ifft(fft(z)) = z and irfft(rfft(x), n) = x; irfft's
#   input has random imaginary parts in its zero and Nyquist bins, which it
#   ignores as torch does (also checked against the same input with them
#   zeroed); irfft with the default n and explicit n smaller and larger than
#   2 (m - 1), odd and even, and n = 1.
# - rlx.complex, real, imag, conjugate, complex_norm_sq: values (exact, with
#   infinities and NaN) and gradients.
# - Gradients of real losses (weighted sums of the real and imaginary parts
#   and of the squared magnitudes) through each transform with respect to
#   the real inputs, against torch.autograd on the float64 torch program
#   built the same way (torch.complex of real leaves, .real / .imag at the
#   end): every norm at Stockham and Bluestein lengths, irfft with explicit n
#   below and above the default, a `?` batch, f32; central differences of
#   the compiled loss for one configuration per op.
# - rlx.log_mel against torch.stft + the HTK filterbank of
#   torchaudio.functional.melscale_fbanks (numpy, float64) + log(mel + eps):
#   16 kHz, n_fft 400 (radices 4, 4, 5, 5), hop 160, 80 mels; an odd n_fft
#   (255: Bluestein) with f_min, f_max and eps; f32 and f64, a `?` batch;
#   gradients w.r.t. the waveform against torch.autograd and central
#   differences.
# - rlx.welch_peaks against scipy.signal.welch's defaults followed by the top
#   k bins (descending, ties to the lower bin): powers and exact bins, the
#   default and explicit overlaps, even and odd (Bluestein) segments, batches
#   and a `?` batch, an all-zero signal (all ties: bins 0..k-1); the
#   gradient of a weighted sum of the powers against torch.autograd of a
#   torch Welch (itself checked against scipy) and central differences.
import concurrent.futures
import time

import numpy as np
import scipy.signal
import torch

import rlx
from rlx_testing.checks import check, finish

START = time.time()

# Tolerances: the largest error relative to the largest magnitude of the
# reference (of a complex result or of the gradients of a complex input's
# two parts: as complex numbers). Measured over several seeds: f64
# transforms and gradients 2e-15 (n up to 1000, Bluestein included); f32
# against float64 4.3e-7 (the f32 roundings of the inputs' transforms; the
# twiddles are rounded from double). Losses relative to the sum of their
# terms' magnitudes.
TOL = {"f64": 1e-12, "f32": 2e-6}
GRAD_TOL = {"f64": 1e-12, "f32": 2e-6}
# log_mel in the log domain: the error of log(mel + eps) is the relative
# error of the mel energies, and bands of one or two bins whose energy
# happens to be small (noise's power per bin is exponentially distributed)
# carry the rounding of their frames' loudest bins; its gradient divides by
# mel + eps, amplifying it again. Measured over several seeds: f64 1.6e-12
# (gradient 1.5e-11; two float64 implementations, torch's and a loop of
# rffts over the frames, differ by 1.3e-11), f32 2.4e-5 (gradient 5.8e-5).
LOG_MEL_TOL = {"f64": 1e-10, "f32": 2e-4}
LOG_MEL_GRAD_TOL = {"f64": 1e-9, "f32": 5e-4}
# welch_peaks' powers, relative to each (rtol; measured 1.7e-15 and 3.9e-7),
# and their gradient (relative to the largest; 3.2e-15 and 1.9e-6).
WELCH_TOL = {"f64": 1e-10, "f32": 1e-5}
WELCH_GRAD_TOL = {"f64": 1e-12, "f32": 2e-5}
# Central differences (h = 1e-6) against the compiled gradient, relative to
# max(1, |gradient|): rounding of the loss over h, and for log_mel h^2 times
# the third derivative of log near quiet bands.
FD_TOL = 1e-6
LOG_MEL_FD_TOL = 1e-5
NP = {"f64": np.float64, "f32": np.float32}
NORMS = ("backward", "forward", "ortho")
LENGTHS = (1, 2, 3, 4, 5, 6, 8, 12, 16, 30, 60, 64, 7, 11, 13, 14, 49, 97,
           100, 128, 1000, 997)
BATCHES = ((), (3,), (2, 3))

worst = {}  # (kind, dtype) -> the largest relative error measured


def flt(v):
    """An MLIR float literal (which needs a decimal point)."""
    s = repr(float(v))
    return s if "." in s else f"{float(v):.17e}"


def ttype(shape, elem):
    return "tensor<" + "".join(f"{'?' if d is None else d}x"
                               for d in shape) + f"{elem}>"


def complex_of(elem):
    return f"complex<{elem}>"


def part_of(elem):
    return elem[len("complex<"):-1] if elem.startswith("complex") else elem


class Value:
    def __init__(self, name, shape, elem):
        self.name, self.shape, self.elem = name, tuple(shape), elem

    @property
    def type(self):
        return ttype(self.shape, self.elem)


class Fn:
    """One func.func under construction: arguments, ops, results."""

    def __init__(self):
        self.args, self.lines = [], []

    def arg(self, shape, elem):
        v = Value(f"%arg{len(self.args)}", shape, elem)
        self.args.append(v)
        return v

    def _new(self, shape, elem, text):
        v = Value(f"%v{len(self.lines)}", shape, elem)
        self.lines.append(f"{v.name} = " + text.replace("$T", v.type))
        return v

    def complex(self, re, im):
        return self._new(re.shape, complex_of(re.elem),
                         f"rlx.complex {re.name}, {im.name} : {re.type} -> $T")

    def real(self, z):
        return self._new(z.shape, part_of(z.elem),
                         f"rlx.real {z.name} : {z.type} -> $T")

    def imag(self, z):
        return self._new(z.shape, part_of(z.elem),
                         f"rlx.imag {z.name} : {z.type} -> $T")

    def parts(self, z):
        return [self.real(z), self.imag(z)]

    def conjugate(self, z):
        return self._new(z.shape, z.elem,
                         f"rlx.conjugate {z.name} : {z.type}")

    def norm_sq(self, z):
        return self._new(z.shape, part_of(z.elem),
                         f"rlx.complex_norm_sq {z.name} : {z.type} -> $T")

    @staticmethod
    def _norm(norm):
        # The default spelled out sometimes, left out otherwise.
        return "" if norm is None else f" norm = {norm}"

    def fft(self, z, norm, inverse=False):
        op = "ifft" if inverse else "fft"
        return self._new(z.shape, z.elem,
                         f"rlx.{op} {z.name}{self._norm(norm)} : {z.type}")

    def rfft(self, x, norm):
        shape = x.shape[:-1] + (x.shape[-1] // 2 + 1,)
        return self._new(shape, complex_of(x.elem),
                         f"rlx.rfft {x.name}{self._norm(norm)} : {x.type} "
                         "-> $T")

    def irfft(self, z, n, norm):
        out = n if n is not None else 2 * (z.shape[-1] - 1)
        attr = f" n = {n}" if n is not None else ""
        return self._new(z.shape[:-1] + (out,), part_of(z.elem),
                         f"rlx.irfft {z.name}{attr}{self._norm(norm)} : "
                         f"{z.type} -> $T")

    def mul(self, a, b):
        return self._new(a.shape, a.elem, f"rlx.mul {a.name}, {b.name} : "
                         f"({a.type}, {b.type}) -> $T")

    def add(self, a, b):
        return self._new(a.shape, a.elem, f"rlx.add {a.name}, {b.name} : "
                         f"({a.type}, {b.type}) -> $T")

    def total(self, a):
        axes = ", ".join(str(d) for d in range(len(a.shape)))
        return self._new((), a.elem, f"rlx.reduce sum {a.name} axes = "
                         f"[{axes}] : {a.type} -> $T")

    def weighted(self, values, weights):
        """sum(w0 * v0) + sum(w1 * v1) + ..."""
        total = None
        for v, w in zip(values, weights):
            t = self.total(self.mul(v, w))
            total = t if total is None else self.add(total, t)
        return total

    def log_mel(self, x, c):
        shape = x.shape[:-1] + (c.n_mels, c.frames)
        attrs = (f"sample_rate = {flt(c.sample_rate)} n_fft = {c.n_fft} "
                 f"hop_length = {c.hop} n_mels = {c.n_mels}")
        for name in ("f_min", "f_max", "eps"):
            if getattr(c, name) is not None:
                attrs += f" {name} = {flt(getattr(c, name))}"
        return self._new(shape, x.elem, f"rlx.log_mel {x.name} {attrs} : "
                         f"{x.type} -> $T")

    def welch_peaks(self, x, c):
        shape = x.shape[:-1] + (c.k,)
        name = f"%v{len(self.lines)}"
        power = Value(f"{name}#0", shape, x.elem)
        bins = Value(f"{name}#1", shape, "i64")
        attrs = f"segment = {c.segment}"
        if c.overlap is not None:
            attrs += f" overlap = {c.overlap}"
        attrs += f" k = {c.k}"
        if c.fs is not None:
            attrs += f" sample_rate = {flt(c.fs)}"
        self.lines.append(f"{name}:2 = rlx.welch_peaks {x.name} {attrs} : "
                          f"{x.type} -> {power.type}, {bins.type}")
        return power, bins

    def text(self, name, results, wrt=None):
        params = ", ".join(f"{a.name}: {a.type}" for a in self.args)
        types = ", ".join(r.type for r in results)
        attrs = ""
        if wrt is not None:
            attrs = (" attributes {rlx.differentiate = array<i64: "
                     + ", ".join(str(i) for i in wrt) + ">}")
        body = "".join(f"  {line}\n" for line in self.lines)
        return (f"func.func @{name}({params}) -> ({types}){attrs} {{\n{body}"
                f"  return {', '.join(r.name for r in results)} : {types}\n"
                "}\n")


# --- Comparisons -------------------------------------------------------------

def close(name, got, want, tol, kind, scale=None):
    """The largest error within tol of want's largest magnitude (or of
    `scale`; exact where it is 0); records the error under `kind`."""
    got, want = np.asarray(got), np.asarray(want)
    want = want.astype(np.complex128 if np.iscomplexobj(want)
                       else np.float64)
    if got.shape != want.shape:
        check(name, False, f"shape {got.shape}, expected {want.shape}")
        return
    if not want.size:
        check(name, True)
        return
    if scale is None:
        scale = float(np.abs(want).max())
    error = float(np.abs(got.astype(want.dtype) - want).max())
    relative = error / scale if scale > 0 else error
    if np.isfinite(relative):
        worst[kind] = max(worst.get(kind, 0.0), relative)
    check(name, bool(np.all(np.isfinite(got))) and relative <= tol,
          f"error {relative:.3g} of the largest magnitude {scale:.3g} "
          f"(tolerance {tol:g})")


def finite_differences(label, loss, args, wrt, grads, kind, count=3,
                       h=1e-6, tol=FD_TOL, seed=0):
    """Central differences of the compiled loss at `count` coordinates of
    each argument in `wrt` against the compiled gradients."""
    r = np.random.default_rng(seed)
    for g, i in zip(grads, wrt):
        for index in r.choice(args[i].size, min(count, args[i].size),
                              replace=False):
            f = []
            for step in (h, -h):
                moved = [a.copy() for a in args]
                moved[i].flat[index] += step
                f.append(float(loss(*moved)))
            numeric = (f[0] - f[1]) / (2 * h)
            analytic = float(np.asarray(g).flat[index])
            worst[(kind, "f64")] = max(worst.get((kind, "f64"), 0.0),
                                       abs(numeric - analytic)
                                       / max(1.0, abs(numeric)))
            check(f"{label}_fd_arg{i}_{index}",
                  abs(numeric - analytic) <= tol * max(1.0, abs(numeric)),
                  f"{analytic} vs {numeric}")


def magnitude(products):
    """The scale of a loss, a sum with cancellations: the sum of its terms'
    magnitudes."""
    return float(sum(p.detach().abs().sum() for p in products))


def t64(a, grad=False):
    return torch.tensor(np.asarray(a, dtype=np.float64), requires_grad=grad)


def parts(z):
    return [z.real, z.imag]


def as_list(got):
    return list(got) if isinstance(got, tuple) else [got]


# --- Cases -------------------------------------------------------------------
# A case writes functions (text()) and checks them in a compiled module
# (run(m)); `weight` estimates its compile time, to group cases into modules.

cases = []


def add(case):
    case.name = f"{type(case).__name__.lower()}_{case.dtype}_{len(cases)}"
    case.seed = 1000 + len(cases)
    cases.append(case)
    return case


class Transforms:
    """fft, ifft (of one complex input), rfft, irfft (irfft's input the
    n // 2 + 1 bins of a length-n signal, n explicit where 2 (m - 1) is not
    n), each with its own norm. The round trips by calling the function on
    its own fft and rfft results (ifft(fft(z)) and irfft(rfft(x)), scaled by
    the two norms), and with `roundtrip` also composed in the function."""

    def __init__(self, dtype, n, batch, norms, sizes=None, roundtrip=False):
        self.dtype, self.n, self.batch, self.norms = dtype, n, batch, norms
        self.sizes = sizes or [batch]
        self.roundtrip = roundtrip
        self.m = n // 2 + 1
        self.explicit_n = n if n % 2 else None
        self.weight = (8 if roundtrip else 4) * transform_cost(n) \
            * (2 if None in batch else 1)

    def text(self):
        f, dt, n, b = Fn(), self.dtype, self.n, self.batch
        re, im, x = (f.arg(b + (n,), dt) for _ in range(3))
        hre, him = (f.arg(b + (self.m,), dt) for _ in range(2))
        n0, n1, n2 = self.norms
        z = f.complex(re, im)
        results = f.parts(f.fft(z, n0)) + f.parts(f.fft(z, n1, inverse=True))
        results += f.parts(f.rfft(x, n2))
        results.append(f.irfft(f.complex(hre, him), self.explicit_n, n0))
        if self.roundtrip:
            results += f.parts(f.fft(f.fft(z, n1), n1, inverse=True))
            results.append(f.irfft(f.rfft(x, n2), n, n2))
        return f.text(self.name, results)

    def run(self, m):
        dt, n, tol = self.dtype, self.n, TOL[self.dtype]
        n0, n1, n2 = (v or "backward" for v in self.norms)
        for batch in self.sizes:
            label = f"{self.name}_n{n}_{'x'.join(map(str, batch)) or 'nb'}"
            r = np.random.default_rng([self.seed, *batch])
            args = [r.standard_normal(batch + (n,)).astype(NP[dt])
                    for _ in range(3)]
            args += [r.standard_normal(batch + (self.m,)).astype(NP[dt])
                     for _ in range(2)]
            got = as_list(m[self.name](*args))
            t = [t64(a) for a in args]
            z = torch.complex(t[0], t[1])
            h = torch.complex(t[3], t[4])
            # Complex results as complex numbers: the error of each part
            # relative to the largest magnitude.
            want = [torch.fft.fft(z, norm=n0), torch.fft.ifft(z, norm=n1),
                    torch.fft.rfft(t[2], norm=n2),
                    torch.fft.irfft(h, n=n, norm=n0)]
            results = [got[0] + 1j * got[1], got[2] + 1j * got[3],
                       got[4] + 1j * got[5], got[6]]
            for name, g, w in zip(["fft", "ifft", "rfft", "irfft"], results,
                                  want):
                close(f"{label}_{name}", g, w.numpy(), tol, (name, dt))
            if self.roundtrip:
                close(f"{label}_composed_roundtrip_complex",
                      got[7] + 1j * got[8], args[0] + 1j * args[1], tol,
                      ("roundtrip", dt))
                close(f"{label}_composed_roundtrip_real", got[9], args[2],
                      tol, ("roundtrip", dt))
            # ifft_n1(fft_n0(z)) = n s(n0) s'(n1) z and irfft_n0(rfft_n2(x))
            # = n s(n2) s'(n0) x, s and s' the forward and inverse scales.
            again = as_list(m[self.name](got[0], got[1], args[2], got[4],
                                         got[5]))
            scale_z = n * SCALE[n0](n) * INVERSE_SCALE[n1](n)
            scale_x = n * SCALE[n2](n) * INVERSE_SCALE[n0](n)
            close(f"{label}_roundtrip_complex", again[2] + 1j * again[3],
                  (args[0] + 1j * args[1].astype(np.float64)) * scale_z, tol,
                  ("roundtrip", dt))
            close(f"{label}_roundtrip_real", again[6], args[2] * scale_x,
                  tol, ("roundtrip", dt))
            # irfft ignores the imaginary parts of the zero and (even n)
            # Nyquist bins: the same result with them zeroed.
            zeroed = [a.copy() for a in args]
            zeroed[4][..., 0] = 0
            if n % 2 == 0:
                zeroed[4][..., n // 2] = 0
            again = as_list(m[self.name](*zeroed))
            close(f"{label}_irfft_ignores_dc_nyquist_imag", again[6],
                  got[6].astype(np.float64), tol, ("irfft", dt))


SCALE = {"backward": lambda n: 1.0, "forward": lambda n: 1.0 / n,
         "ortho": lambda n: 1.0 / np.sqrt(n)}
INVERSE_SCALE = {"backward": lambda n: 1.0 / n, "forward": lambda n: 1.0,
                 "ortho": lambda n: 1.0 / np.sqrt(n)}


def stages(n):
    """The radices of n's Stockham FFT, or None."""
    radices = []
    for p in (4, 2, 3, 5):
        while n % p == 0:
            radices.append(p)
            n //= p
    return radices if n == 1 else None


def bluestein(n):
    return stages(n) is None


def transform_cost(n):
    """A transform's compile cost, about its stages (Bluestein: three
    power-of-two transforms)."""
    if not bluestein(n):
        return 1 + len(stages(n))
    m = 1
    while m < 2 * n - 1:
        m *= 2
    return 2 + len(stages(m))


class Irfft:
    """irfft of m bins to explicit n (or the default, None) for each
    (m, n, norm) of `variants`."""

    def __init__(self, dtype, variants, batch):
        self.dtype, self.variants, self.batch = dtype, variants, batch
        self.weight = sum(transform_cost(n or 2 * (m - 1))
                          for m, n, _ in variants)

    def text(self):
        f, results = Fn(), []
        for m, n, norm in self.variants:
            re, im = (f.arg(self.batch + (m,), self.dtype) for _ in range(2))
            results.append(f.irfft(f.complex(re, im), n, norm))
        return f.text(self.name, results)

    def run(self, m):
        r = np.random.default_rng(self.seed)
        args, want = [], []
        for bins, n, norm in self.variants:
            re, im = (r.standard_normal(self.batch + (bins,)).astype(
                NP[self.dtype]) for _ in range(2))
            args += [re, im]
            want.append(torch.fft.irfft(torch.complex(t64(re), t64(im)), n=n,
                                        norm=norm or "backward").numpy())
        got = as_list(m[self.name](*args))
        for (bins, n, norm), g, w in zip(self.variants, got, want):
            close(f"{self.name}_m{bins}_n{n}_{norm}", g, w, TOL[self.dtype],
                  ("irfft", self.dtype))


class ComplexOps:
    """complex / real / imag / conjugate / complex_norm_sq values (with
    infinities, NaN, signed zeros) and a loss through them."""

    SHAPE = (3, 5)

    def __init__(self, dtype, fd=False):
        self.dtype, self.fd, self.weight = dtype, fd, 2

    def text(self):
        f, dt = Fn(), self.dtype
        re, im = (f.arg(self.SHAPE, dt) for _ in range(2))
        z = f.complex(re, im)
        c = f.conjugate(z)
        values = f.text(self.name, f.parts(z) + f.parts(c) + [f.norm_sq(z)])
        g = Fn()
        re, im = (g.arg(self.SHAPE, dt) for _ in range(2))
        w = [g.arg(self.SHAPE, dt) for _ in range(5)]
        z = g.complex(re, im)
        c = g.conjugate(z)
        # conj(conj(z)) too: the conjugate of a conjugate's gradient.
        cc = g.conjugate(c)
        loss = g.weighted(g.parts(c) + [g.norm_sq(z)] + g.parts(cc), w)
        return values + g.text(self.name + "_loss", [loss], wrt=[0, 1])

    def run(self, m):
        dt, r = self.dtype, np.random.default_rng(self.seed)
        re, im = (r.standard_normal(self.SHAPE).astype(NP[dt])
                  for _ in range(2))
        re[0, :4] = [np.inf, -np.inf, np.nan, -0.0]
        im[0, 1:5] = [np.nan, -0.0, np.inf, -np.inf]
        re[1, 0], im[1, 0], re[1, 1], im[1, 1] = 0.0, 0.0, -0.0, -0.0
        got = m[self.name](re, im)
        for name, g, w in (("real", got[0], re), ("imag", got[1], im),
                           ("conj_real", got[2], re),
                           ("conj_imag", got[3], -im)):
            check(f"{self.name}_{name}", g.dtype == NP[dt] and
                  np.array_equal(g, w, equal_nan=True), f"{g} vs {w}")
            # Signed zeros kept (and made by the conjugate); NaN's sign is
            # not specified.
            number = ~np.isnan(w)
            check(f"{self.name}_{name}_signs", np.array_equal(
                np.signbit(g[number]), np.signbit(w[number])), f"{g} vs {w}")
        want = re.astype(np.float64) ** 2 + im.astype(np.float64) ** 2
        finite = np.isfinite(want)
        check(f"{self.name}_norm_sq_nonfinite", np.array_equal(
            got[4][~finite], want[~finite].astype(NP[dt]), equal_nan=True),
            f"{got[4]} vs {want}")
        # Two roundings (products, sum) at most.
        eps = np.finfo(NP[dt]).eps
        close(f"{self.name}_norm_sq", got[4][finite], want[finite], 2 * eps,
              ("complex_ops", dt))
        # The loss on finite inputs.
        re, im = (r.standard_normal(self.SHAPE).astype(NP[dt])
                  for _ in range(2))
        w = [r.standard_normal(self.SHAPE).astype(NP[dt]) for _ in range(5)]
        tre, tim = t64(re, True), t64(im, True)
        z = torch.complex(tre, tim)
        c = torch.conj(z)
        terms = parts(c) + [z.abs() ** 2] + parts(torch.conj(c))
        products = [v * t64(wi) for v, wi in zip(terms, w)]
        loss = sum(p.sum() for p in products)
        loss.backward()
        args = [re, im] + w
        grads = m[self.name + "_loss_grad"](*args)
        tol = GRAD_TOL[dt]
        close(f"{self.name}_loss", grads[0], loss.detach().numpy(), tol,
              ("loss", dt), scale=magnitude(products))
        close(f"{self.name}_dz", grads[1] + 1j * grads[2],
              tre.grad.numpy() + 1j * tim.grad.numpy(), tol, ("grad", dt))
        if self.fd:
            finite_differences(self.name, m[self.name + "_loss"], args,
                               [0, 1], grads[1:], "complex_ops_fd",
                               seed=self.seed)


class ComplexArgs:
    """Complex arguments and results (numpy complex64 / complex128)."""

    def __init__(self, dtype, n, batch, norm):
        self.dtype, self.n, self.batch, self.norm = dtype, n, batch, norm
        self.weight = 5 * transform_cost(n)

    def text(self):
        f, dt, n, b = Fn(), self.dtype, self.n, self.batch
        z = f.arg(b + (n,), complex_of(dt))
        h = f.arg(b + (n // 2 + 1,), complex_of(dt))
        x = f.arg(b + (n,), dt)
        results = [f.fft(z, self.norm), f.fft(z, self.norm, inverse=True),
                   f.rfft(x, self.norm), f.irfft(h, n, self.norm),
                   f.conjugate(z), f.norm_sq(z),
                   f.complex(f.real(z), f.imag(z))]
        return f.text(self.name, results)

    def run(self, m):
        dt, n, b = self.dtype, self.n, self.batch
        r = np.random.default_rng(self.seed)
        ctype = np.complex64 if dt == "f32" else np.complex128
        z, h = ((r.standard_normal(b + (k,)) + 1j * r.standard_normal(
            b + (k,))).astype(ctype) for k in (n, n // 2 + 1))
        x = r.standard_normal(b + (n,)).astype(NP[dt])
        got = as_list(m[self.name](z, h, x))
        zt, ht, xt = (torch.tensor(a.astype(np.complex128)
                                   if np.iscomplexobj(a) else
                                   a.astype(np.float64)) for a in (z, h, x))
        norm = self.norm or "backward"
        want = [torch.fft.fft(zt, norm=norm), torch.fft.ifft(zt, norm=norm),
                torch.fft.rfft(xt, norm=norm),
                torch.fft.irfft(ht, n=n, norm=norm), torch.conj(zt),
                zt.abs() ** 2, zt]
        names = ["fft", "ifft", "rfft", "irfft", "conjugate", "norm_sq",
                 "complex"]
        for name, g, w in zip(names, got, want):
            w = w.resolve_conj().numpy()
            expected = ctype if np.iscomplexobj(w) else NP[dt]
            check(f"{self.name}_{name}_dtype", g.dtype == expected,
                  f"{g.dtype}, expected {np.dtype(expected)}")
            close(f"{self.name}_{name}", g, w, TOL[dt], ("complex_args", dt))


class Grads:
    """One loss through the four transforms, each on its own inputs:
    sum(w1 re fft(a) + w2 im fft(a) + w3 |fft(a)|^2)
    + sum(w4 re ifft(b) + w5 |ifft(b)|^2)
    + sum(w6 re rfft(x) + w7 im rfft(x))
    + sum(w8 irfft(h, n_out)), h of m bins;
    differentiated w.r.t. a, b (re and im), x, h (re and im)."""

    def __init__(self, dtype, n, norm, m, n_out, batch, sizes=None,
                 fd=False):
        self.dtype, self.n, self.norm, self.batch = dtype, n, norm, batch
        self.m, self.n_out, self.fd = m, n_out, fd
        self.sizes = sizes or [batch]
        self.weight = 8 * transform_cost(n) * (2 if None in batch else 1)

    def shapes(self, b):
        n, bins = self.n, self.n // 2 + 1
        out = self.n_out if self.n_out is not None else 2 * (self.m - 1)
        signal, half = b + (n,), b + (bins,)
        inputs = [signal] * 5 + [b + (self.m,)] * 2
        weights = [signal] * 5 + [half] * 2 + [b + (out,)]
        return inputs, weights

    def text(self):
        f, dt, norm = Fn(), self.dtype, self.norm
        inputs, weights = self.shapes(self.batch)
        a_re, a_im, b_re, b_im, x, h_re, h_im = (f.arg(s, dt) for s in inputs)
        w = [f.arg(s, dt) for s in weights]
        fa = f.fft(f.complex(a_re, a_im), norm)
        ib = f.fft(f.complex(b_re, b_im), norm, inverse=True)
        rx = f.rfft(x, norm)
        ih = f.irfft(f.complex(h_re, h_im), self.n_out, norm)
        loss = f.weighted(
            f.parts(fa) + [f.norm_sq(fa), f.real(ib), f.norm_sq(ib)]
            + f.parts(rx) + [ih], w)
        return f.text(self.name, [loss], wrt=range(7))

    def run(self, m):
        dt, norm = self.dtype, self.norm or "backward"
        tol = GRAD_TOL[dt]
        for batch in self.sizes:
            label = (f"{self.name}_n{self.n}_{norm}_m{self.m}_"
                     f"n{self.n_out}_{'x'.join(map(str, batch)) or 'nb'}")
            r = np.random.default_rng([self.seed, *batch])
            inputs, weights = self.shapes(batch)
            args = [r.standard_normal(s).astype(NP[dt])
                    for s in inputs + weights]
            t = [t64(a, i < 7) for i, a in enumerate(args)]
            fa = torch.fft.fft(torch.complex(t[0], t[1]), norm=norm)
            ib = torch.fft.ifft(torch.complex(t[2], t[3]), norm=norm)
            rx = torch.fft.rfft(t[4], norm=norm)
            ih = torch.fft.irfft(torch.complex(t[5], t[6]), n=self.n_out,
                                 norm=norm)
            terms = parts(fa) + [fa.abs() ** 2, ib.real, ib.abs() ** 2] \
                + parts(rx) + [ih]
            products = [v * w for v, w in zip(terms, t[7:])]
            loss = sum(p.sum() for p in products)
            loss.backward()
            grads = as_list(m[self.name + "_grad"](*args))
            close(f"{label}_loss", grads[0], loss.detach().numpy(), tol,
                  ("loss", dt), scale=magnitude(products))
            # The gradients of a complex input's two parts as one complex
            # number (each part's error relative to the largest magnitude).
            g = [t[i].grad.numpy() for i in range(7)]
            for name, got, want in (
                    ("a", grads[1] + 1j * grads[2], g[0] + 1j * g[1]),
                    ("b", grads[3] + 1j * grads[4], g[2] + 1j * g[3]),
                    ("x", grads[5], g[4]),
                    ("h", grads[6] + 1j * grads[7], g[5] + 1j * g[6])):
                close(f"{label}_d{name}", got, want, tol, ("grad", dt))
            if self.fd:
                finite_differences(label, m[self.name], args, range(7),
                                   grads[1:], "grad_fd", seed=self.seed)


# --- log_mel -----------------------------------------------------------------

def hz_to_mel(f):
    return 2595.0 * np.log10(1.0 + f / 700.0)


def mel_to_hz(mel):
    return 700.0 * (10.0 ** (mel / 2595.0) - 1.0)


def melscale_fbanks(n_freqs, f_min, f_max, n_mels, sample_rate):
    """torchaudio.functional.melscale_fbanks(n_freqs, f_min, f_max, n_mels,
    sample_rate, norm=None, mel_scale="htk") in float64: [n_freqs, n_mels]."""
    all_freqs = np.linspace(0, sample_rate // 2, n_freqs)
    m_pts = np.linspace(hz_to_mel(f_min), hz_to_mel(f_max), n_mels + 2)
    f_pts = mel_to_hz(m_pts)
    f_diff = f_pts[1:] - f_pts[:-1]
    slopes = f_pts[None, :] - all_freqs[:, None]
    down = -slopes[:, :-2] / f_diff[:-1]
    up = slopes[:, 2:] / f_diff[1:]
    return np.maximum(0.0, np.minimum(down, up))


def test_signal(r, shape, rate, tones):
    """Noise and a few tones of random frequency and phase."""
    t = np.arange(shape[-1]) / rate
    x = 0.1 * r.standard_normal(shape)
    for _ in range(tones):
        f = r.uniform(0.02, 0.45) * rate
        phase = r.uniform(0, 2 * np.pi, shape[:-1] + (1,))
        x = x + r.uniform(0.2, 1.0) * np.sin(2 * np.pi * f * t + phase)
    return x


class LogMel:
    def __init__(self, dtype, T, batch, sample_rate, n_fft, hop, n_mels,
                 f_min=None, f_max=None, eps=None, sizes=None, grad=False,
                 fd=False):
        self.dtype, self.T, self.batch = dtype, T, batch
        self.sample_rate, self.n_fft, self.hop = sample_rate, n_fft, hop
        self.n_mels, self.f_min, self.f_max = n_mels, f_min, f_max
        self.eps = eps
        self.sizes, self.grad, self.fd = sizes or [batch], grad, fd
        # torch.stft(center=True): n_fft // 2 samples on each side.
        self.frames = 1 + (T + 2 * (n_fft // 2) - n_fft) // hop
        self.weight = 3 * transform_cost(n_fft) * (3 if grad else 1) \
            * (2 if None in batch else 1)

    def text(self):
        f = Fn()
        x = f.arg(self.batch + (self.T,), self.dtype)
        text = f.text(self.name, [f.log_mel(x, self)])
        if self.grad:
            g = Fn()
            x = g.arg(self.batch + (self.T,), self.dtype)
            y = g.log_mel(x, self)
            w = g.arg(y.shape, self.dtype)
            text += g.text(self.name + "_loss", [g.weighted([y], [w])],
                           wrt=[0])
        return text

    def reference(self, x):
        """torchaudio's MelSpectrogram(power=2) then log(mel + eps), on the
        float64 torch tensor x [..., T]."""
        n_fft = self.n_fft
        batch = tuple(x.shape[:-1])
        spec = torch.stft(x.reshape(-1, self.T), n_fft, self.hop,
                          window=torch.hann_window(n_fft, periodic=True,
                                                   dtype=torch.float64),
                          center=True, pad_mode="reflect",
                          return_complex=True)
        power = spec.abs() ** 2
        f_max = self.f_max if self.f_max is not None else float(
            self.sample_rate // 2)
        fb = torch.tensor(melscale_fbanks(n_fft // 2 + 1, self.f_min or 0.0,
                                          f_max, self.n_mels,
                                          self.sample_rate))
        mel = torch.matmul(power.transpose(-1, -2), fb).transpose(-1, -2)
        eps = self.eps if self.eps is not None else 1e-10
        return torch.log(mel + eps).reshape(batch + (self.n_mels,
                                                     self.frames))

    def run(self, m):
        dt = self.dtype
        for batch in self.sizes:
            label = f"{self.name}_{'x'.join(map(str, batch)) or 'nb'}"
            r = np.random.default_rng([self.seed, *batch])
            x = test_signal(r, batch + (self.T,), self.sample_rate,
                            3).astype(NP[dt])
            xt = t64(x, True)
            want = self.reference(xt)
            got = m[self.name](x)
            close(f"{label}_log_mel", got, want.detach().numpy(),
                  LOG_MEL_TOL[dt], ("log_mel", dt))
            if not self.grad:
                continue
            w = r.standard_normal(want.shape).astype(NP[dt])
            product = want * t64(w)
            loss = product.sum()
            loss.backward()
            grads = m[self.name + "_loss_grad"](x, w)
            close(f"{label}_loss", grads[0], loss.detach().numpy(),
                  LOG_MEL_TOL[dt], ("log_mel_loss", dt),
                  scale=magnitude([product]))
            close(f"{label}_dx", grads[1], xt.grad.numpy(),
                  LOG_MEL_GRAD_TOL[dt], ("log_mel_grad", dt))
            if self.fd:
                finite_differences(label, m[self.name + "_loss"], [x, w],
                                   [0], grads[1:], "log_mel_fd", count=6,
                                   tol=LOG_MEL_FD_TOL, seed=self.seed)


# --- welch_peaks -------------------------------------------------------------

def welch_torch(x, fs, segment, overlap):
    """scipy.signal.welch's defaults in torch (differentiable): [..., bins]."""
    step = segment - overlap
    frames = x.unfold(-1, segment, step)
    frames = frames - frames.mean(-1, keepdim=True)
    w = torch.hann_window(segment, periodic=True, dtype=torch.float64)
    spec = torch.fft.rfft(frames * w)
    power = spec.real ** 2 + spec.imag ** 2
    bins = segment // 2 + 1
    scale = torch.full((bins,), 2.0 / (fs * float((w ** 2).sum())),
                       dtype=torch.float64)
    scale[0] /= 2
    if segment % 2 == 0:
        scale[-1] /= 2
    return (power * scale).mean(-2)


def top_k(power, k):
    """The k largest along the last axis, descending, ties to the lower
    index."""
    order = np.argsort(-power, axis=-1, kind="stable")[..., :k]
    return np.take_along_axis(power, order, -1), order


class Welch:
    def __init__(self, dtype, T, batch, segment, overlap, k, fs=None,
                 sizes=None, grad=False, fd=False, zero_row=False):
        self.dtype, self.T, self.batch = dtype, T, batch
        self.segment, self.overlap, self.k, self.fs = segment, overlap, k, fs
        self.sizes, self.grad, self.fd = sizes or [batch], grad, fd
        self.zero_row = zero_row
        self.weight = 3 * transform_cost(segment) * (3 if grad else 1) \
            * (2 if None in batch else 1)

    def text(self):
        f = Fn()
        x = f.arg(self.batch + (self.T,), self.dtype)
        text = f.text(self.name, list(f.welch_peaks(x, self)))
        if self.grad:
            g = Fn()
            x = g.arg(self.batch + (self.T,), self.dtype)
            power, _ = g.welch_peaks(x, self)
            w = g.arg(power.shape, self.dtype)
            text += g.text(self.name + "_loss", [g.weighted([power], [w])],
                           wrt=[0])
        return text

    def signal(self, r, batch):
        """Tones on distinct bins (not adjacent), amplitudes 2.0, 1.8, ...
        (each tone's power above its neighbours' leakage, a quarter of the
        strongest), and noise."""
        bins = self.segment // 2 + 1
        fs = self.fs or 1.0
        t = np.arange(self.T) / fs
        x = 0.05 * r.standard_normal(batch + (self.T,))
        flat = x.reshape(-1, self.T)
        for row in flat:
            chosen = r.choice(np.arange(2, bins - 2, 3), self.k + 1,
                              replace=False)
            for i, b in enumerate(chosen):
                f = b * fs / self.segment
                row += (2.0 - 0.2 * i) * np.sin(2 * np.pi * f * t
                                                + r.uniform(0, 2 * np.pi))
        if self.zero_row:
            flat[0] = 0.0
        return flat.reshape(x.shape)

    def run(self, m):
        dt, fs = self.dtype, self.fs or 1.0
        overlap = self.overlap if self.overlap is not None \
            else self.segment // 2
        for batch in self.sizes:
            label = f"{self.name}_{'x'.join(map(str, batch)) or 'nb'}"
            r = np.random.default_rng([self.seed, *batch])
            x = self.signal(r, batch).astype(NP[dt])
            _, density = scipy.signal.welch(
                x.astype(np.float64), fs=fs, nperseg=self.segment,
                noverlap=self.overlap)
            want_power, want_bins = top_k(density, self.k)
            xt = t64(x, True)
            mine = welch_torch(xt, fs, self.segment, overlap)
            close(f"{label}_torch_reference_vs_scipy", mine.detach().numpy(),
                  density, 1e-12, ("welch_reference", "f64"))
            power, bins = m[self.name](x)
            check(f"{label}_bins", bins.dtype == np.int64 and
                  np.array_equal(bins, want_bins), f"{bins} vs {want_bins}")
            tol = WELCH_TOL[dt]
            scale = float(np.abs(want_power).max()) if want_power.size else 0
            ok = power.shape == want_power.shape and np.allclose(
                power, want_power, rtol=tol, atol=tol * scale)
            nonzero = want_power != 0
            if power.shape == want_power.shape and nonzero.any():
                error = np.abs(power[nonzero] - want_power[nonzero]) \
                    / want_power[nonzero]
                worst[("welch", dt)] = max(worst.get(("welch", dt), 0.0),
                                           float(error.max()))
            check(f"{label}_power", ok, f"{power} vs {want_power}")
            if not self.grad:
                continue
            w = r.standard_normal(want_power.shape).astype(NP[dt])
            picked = torch.gather(mine, -1, torch.tensor(want_bins))
            product = picked * t64(w)
            loss = product.sum()
            loss.backward()
            grads = m[self.name + "_loss_grad"](x, w)
            close(f"{label}_loss", grads[0], loss.detach().numpy(),
                  WELCH_GRAD_TOL[dt], ("welch_loss", dt),
                  scale=magnitude([product]))
            close(f"{label}_dx", grads[1], xt.grad.numpy(),
                  WELCH_GRAD_TOL[dt], ("welch_grad", dt))
            if self.fd:
                finite_differences(label, m[self.name + "_loss"], [x, w],
                                   [0], grads[1:], "welch_fd", count=6,
                                   seed=self.seed)


# --- The configurations ------------------------------------------------------

# f32 at a subset that still covers every radix and Bluestein (the test's
# run time).
F32_LENGTHS = (2, 3, 5, 12, 16, 60, 7, 13, 97, 128, 1000, 997)
for d, dtype in enumerate(("f64", "f32")):
    for i, n in enumerate(LENGTHS if dtype == "f64" else F32_LENGTHS):
        # Each op's norm rotates over the lengths; `backward` is spelled out
        # on every other length, left to its default on the others.
        norms = tuple(NORMS[(i + j) % 3] for j in range(3))
        norms = tuple(None if v == "backward" and i % 2 else v for v in norms)
        # ifft(fft(z)) and irfft(rfft(x)) composed in the function at a few
        # lengths (the others by calling it on its results).
        roundtrip = n in ((12, 997) if dtype == "f64" else (16, 97))
        add(Transforms(dtype, n, BATCHES[(i + d) % 3], norms,
                       roundtrip=roundtrip))
# `?` batches, run at several sizes (an empty batch too).
add(Transforms("f64", 60, (None,), ("ortho", "forward", None),
               sizes=[(2,), (5,), (0,)], roundtrip=True))
add(Transforms("f64", 97, (None, 3), ("forward", "ortho", "backward"),
               sizes=[(2, 3), (1, 3)]))
add(Transforms("f32", 100, (None,), (None, "ortho", "forward"),
               sizes=[(1,), (4,)]))
add(Transforms("f32", 13, (2, None), ("ortho", None, "forward"),
               sizes=[(2, 4), (2, 1)]))

# irfft: default n (16 from 9 bins, 2 from 2), explicit n below 2 (m - 1)
# (10, 11, 7, 1) and above it (17 = 2m - 1, 25, 30, 3), 1 from 1 bin.
IRFFT_VARIANTS = [(9, None, None), (9, 10, "ortho"), (9, 11, "forward"),
                  (9, 7, "backward"), (9, 17, None), (9, 25, "ortho"),
                  (9, 30, "forward"), (2, None, "ortho"), (2, 3, "forward"),
                  (1, 1, None), (5, 1, "ortho")]
add(Irfft("f64", IRFFT_VARIANTS, (2,)))
add(Irfft("f32", IRFFT_VARIANTS, ()))

add(ComplexOps("f64", fd=True))
add(ComplexOps("f32"))
# Complex function arguments and results (numpy complex64 / complex128).
add(ComplexArgs("f32", 12, (2,), "ortho"))
add(ComplexArgs("f64", 13, (), None))

# Gradients: every norm at a radix-5, a mixed radix and a Bluestein length;
# irfft to its default n, below it and above it.
for n, norm, m, n_out, batch, fd in (
        (5, None, 3, None, (2,), False),
        (5, "ortho", 5, 13, (2,), False),
        (12, "forward", 9, 10, (2,), False),
        (12, "ortho", 4, 8, (), False),
        (13, None, 7, 13, (2,), False),
        (13, "forward", 5, 12, (), False),
        (13, "ortho", 9, 11, (2,), True)):
    add(Grads("f64", n, norm, m, n_out, batch, fd=fd))
add(Grads("f64", 30, "ortho", 16, None, (None,), sizes=[(2,), (3,)]))
add(Grads("f32", 12, "ortho", 7, 11, (2,)))
add(Grads("f32", 7, None, 4, None, (2,)))

# log_mel: Whisper's front end (shorter audio), an odd n_fft with every
# attribute.
add(LogMel("f64", 3200, (2,), 16000.0, 400, 160, 80, grad=True, fd=True))
add(LogMel("f32", 3200, (None,), 16000.0, 400, 160, 80,
           sizes=[(1,), (3,)], grad=True))
add(LogMel("f64", 2000, (), 8000.0, 255, 100, 40, f_min=50.0, f_max=3500.0,
           eps=1e-6, grad=True, fd=True))
add(LogMel("f32", 2000, (2, 1), 8000.0, 255, 100, 40, f_min=50.0,
           f_max=3500.0, eps=1e-6))

# welch_peaks.
add(Welch("f64", 4096, (4,), 256, None, 3, fs=1000.0, grad=True, fd=True))
add(Welch("f64", 1000, (2, 3), 200, 50, 5, fs=8000.0, grad=True))
add(Welch("f32", 2048, (None,), 127, 100, 4, sizes=[(2,), (3,)],
          grad=True))
add(Welch("f64", 500, (3,), 99, 0, 2, zero_row=True, grad=True, fd=True))
add(Welch("f32", 600, (), 64, 63, 3, fs=2.0))


# --- Compiling (2 threads) and running ---------------------------------------

def compile_text(text):
    try:
        return rlx.compile(text)
    except rlx.Error as e:
        return e


MODULE_WEIGHT = 96
groups = {}
for c in cases:
    chunks = groups.setdefault((type(c).__name__, c.dtype), [[]])
    if chunks[-1] and sum(x.weight for x in chunks[-1]) + c.weight \
            > MODULE_WEIGHT:
        chunks.append([])
    chunks[-1].append(c)
modules = [chunk for chunks in groups.values() for chunk in chunks]
# The costliest modules first, so that the two threads finish together.
modules.sort(key=lambda chunk: -sum(c.weight for c in chunk))
texts = ["\n".join(c.text() for c in chunk) for chunk in modules]

rlx.get_num_threads()  # loads the runtime before the compiling threads
with concurrent.futures.ThreadPoolExecutor(2) as pool:
    compiled = list(pool.map(compile_text, texts))
COMPILED = time.time()

for chunk, m in zip(modules, compiled):
    ok = not isinstance(m, rlx.Error)
    check(f"{chunk[0].name}.._compiles", ok, "" if ok else str(m)[:3000])
    if ok:
        for c in chunk:
            c.run(m)

print(f"{len(texts)} modules compiled in {COMPILED - START:.1f} s, run in "
      f"{time.time() - COMPILED:.1f} s")
for key in sorted(worst):
    print(f"largest relative error {key[0]} {key[1]}: {worst[key]:.2e}")
finish()
