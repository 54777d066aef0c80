"""Random block-quantized weights in the byte layouts of rlx.dequant_matmul
and rlx.dequant_grouped_matmul (RlxQuantMatmulOps.td), packed here byte by
byte with the exact float64 matrix they stand for."""
import numpy as np


def f16_bytes(d):
    """[..., 2] little-endian bytes of the f16 values d."""
    return np.asarray(d, np.float16).view(np.uint8).reshape(*np.shape(d), 2)


def random_block_weight(rng, scheme, rows, k, g, scale_type=np.float32,
                        zero_points=False):
    """(operands, W) of a random weight of `scheme` with values
    [*rows, k] (rows = (N,) for dequant_matmul, (E, N) for a stack of
    experts) in groups of g: operands are the raw i8 weight [*rows, bytes],
    then for int8/int4 the scales [*rows, k / g] (`scale_type`) and with
    `zero_points` the i8 zero points; W is float64 [*rows, k]."""
    rows = tuple(rows)
    groups = k // g

    def spread(per_group):
        return np.repeat(per_group, g, axis=-1)

    if scheme == "int8":
        q = rng.integers(-128, 128, rows + (k,))
        s = (rng.random(rows + (groups,)) * 0.02 + 0.001).astype(scale_type)
        z = (rng.integers(-10, 10, rows + (groups,)) if zero_points
             else np.zeros(rows + (groups,), np.int64))
        w = (q - spread(z)) * spread(s.astype(np.float64))
        ops = [q.astype(np.int8), s] + ([z.astype(np.int8)] if zero_points
                                        else [])
        return ops, w
    if scheme == "int4":
        u = rng.integers(0, 16, rows + (k,))
        s = (rng.random(rows + (groups,)) * 0.1 + 0.01).astype(scale_type)
        z = (rng.integers(0, 16, rows + (groups,)) if zero_points
             else np.full(rows + (groups,), 8))
        w = (u - spread(z)) * spread(s.astype(np.float64))
        packed = (u[..., 0::2] | (u[..., 1::2] << 4)).astype(np.uint8)
        ops = [packed.view(np.int8), s] + ([z.astype(np.int8)] if zero_points
                                           else [])
        return ops, w
    blocks = k // 32
    d = (rng.random(rows + (blocks,)) * 0.1 + 0.01).astype(np.float16)
    d.flat[0] = -d.flat[0]  # a negative scale
    if scheme == "q8_0":
        qs = rng.integers(-128, 128, rows + (blocks, 32))
        raw = np.concatenate([f16_bytes(d), qs.astype(np.uint8)], axis=-1)
        w = (qs * d.astype(np.float64)[..., None]).reshape(rows + (k,))
    else:  # q4_0
        u = rng.integers(0, 16, rows + (blocks, 32))
        packed = (u[..., :16] | (u[..., 16:] << 4)).astype(np.uint8)
        raw = np.concatenate([f16_bytes(d), packed], axis=-1)
        w = ((u - 8) * d.astype(np.float64)[..., None]).reshape(rows + (k,))
    raw = raw.reshape(rows + (-1,)).astype(np.uint8).view(np.int8)
    return [raw], w
