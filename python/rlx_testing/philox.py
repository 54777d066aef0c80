"""A numpy Philox4x32-10 (Random123's definition), the reference the tests
of rlx's random ops and of rlx.sample compare the generated streams with."""

import numpy as np

MASK = np.uint64(0xFFFFFFFF)
M0, M1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
W0, W1 = np.uint64(0x9E3779B9), np.uint64(0xBB67AE85)


def philox(counter, key):
    """Philox4x32-10 of uint64 arrays holding 32-bit words."""
    c = [np.asarray(x, np.uint64) for x in counter]
    k0, k1 = (np.asarray(x, np.uint64) for x in key)
    for r in range(10):
        if r:
            k0, k1 = (k0 + W0) & MASK, (k1 + W1) & MASK
        p0, p1 = M0 * c[0], M1 * c[2]
        c = [(p1 >> np.uint64(32)) ^ c[1] ^ k0, p1 & MASK,
             (p0 >> np.uint64(32)) ^ c[3] ^ k1, p0 & MASK]
    return c


def words(seed, offset, n):
    """Word i of the stream of (seed, offset) for i < n, as uint32: the
    element formula of rlx.rng_bits."""
    seed, offset = np.uint64(seed % 2**64), np.uint64(offset % 2**64)
    index = np.arange(n, dtype=np.uint64)
    block = index >> np.uint64(2)
    counter = [block & MASK, block >> np.uint64(32),
               np.full(n, offset & MASK), np.full(n, offset >> np.uint64(32))]
    out = philox(counter, [seed & MASK, seed >> np.uint64(32)])
    lane = (index & np.uint64(3)).astype(np.int64)
    return np.choose(lane, out).astype(np.uint32)
