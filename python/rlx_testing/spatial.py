"""Attribute text and PyTorch references for convolution and pooling tests
(convpool.py, grad_spatial.py, gpu_tiling.py)."""
import torch.nn.functional as F


def arr(values):
    """An rlx array attribute: [1, 2, 3]."""
    return "[" + ", ".join(str(v) for v in values) + "]"


def pairs(padding):
    """[lo0, hi0, lo1, hi1, ...] -> F.pad's (lo_last, hi_last, ..., lo0, hi0)."""
    out = []
    for i in reversed(range(0, len(padding), 2)):
        out += [padding[i], padding[i + 1]]
    return tuple(out)


_CONV = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}
_CONV_TRANSPOSE = {1: F.conv_transpose1d, 2: F.conv_transpose2d,
                   3: F.conv_transpose3d}


def conv(x, w, stride, padding, dilation, groups):
    """rlx.conv in PyTorch: [lo, hi] padding per spatial axis is an F.pad of
    the input before an unpadded convolution."""
    return _CONV[x.dim() - 2](F.pad(x, pairs(padding)), w, stride=stride,
                              dilation=dilation, groups=groups)


def conv_transpose(x, w, stride, padding, output_padding, dilation, groups):
    """rlx.conv_transpose in PyTorch: the unpadded transposed convolution
    cropped by [lo, hi] on each side of each spatial axis."""
    full = _CONV_TRANSPOSE[x.dim() - 2](x, w, stride=stride,
                                        output_padding=output_padding,
                                        dilation=dilation, groups=groups)
    index = [slice(None), slice(None)] + [
        slice(lo, full.shape[i + 2] - hi)
        for i, (lo, hi) in enumerate(zip(padding[0::2], padding[1::2]))]
    return full[tuple(index)]


_POOL = {("max", 1): F.max_pool1d, ("max", 2): F.max_pool2d,
         ("max", 3): F.max_pool3d, ("avg", 1): F.avg_pool1d,
         ("avg", 2): F.avg_pool2d, ("avg", 3): F.avg_pool3d}
_GLOBAL_POOL = {("max", 1): F.adaptive_max_pool1d,
                ("max", 2): F.adaptive_max_pool2d,
                ("max", 3): F.adaptive_max_pool3d,
                ("avg", 1): F.adaptive_avg_pool1d,
                ("avg", 2): F.adaptive_avg_pool2d,
                ("avg", 3): F.adaptive_avg_pool3d}


def pool(x, kind, kernel, stride, padding, ceil_mode=False,
         count_include_pad=False, pad_by_hand=False):
    """rlx.pool in PyTorch. PyTorch pads symmetrically; asymmetric padding
    (or `pad_by_hand`) is an F.pad with -inf for max, zeros (counted) for
    avg."""
    fn = _POOL[(kind, x.dim() - 2)]
    extra = {} if kind == "max" else {"count_include_pad": count_include_pad}
    if pad_by_hand or padding[0::2] != padding[1::2]:
        value = -float("inf") if kind == "max" else 0.0
        return fn(F.pad(x, pairs(padding), value=value), kernel, stride,
                  ceil_mode=ceil_mode, **extra)
    return fn(x, kernel, stride, padding=padding[0::2], ceil_mode=ceil_mode,
              **extra)


def global_pool(x, kind):
    """rlx.global_pool in PyTorch: adaptive pooling to one element."""
    return _GLOBAL_POOL[(kind, x.dim() - 2)](x, 1)
