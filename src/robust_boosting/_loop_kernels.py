"""Numba kernels of the boosting loop (private): the per-round work on n-vectors.

Each round of every booster normalises ``n`` sample weights; done with numpy this
takes several passes and temporaries over the data, which is a visible part of a
round when the weak learner is a histogram stump.
"""

import numpy as np
from numba import njit

# exp(x) = 2**k exp(r), x = k ln 2 + r, |r| <= ln(2)/2, with exp(r) from the
# minimax rational form of Cody & Waite (as in most C libraries; error below 1 ulp)
_P1 = 1.66666666666666019037e-01
_P2 = -2.77777777770155933842e-03
_P3 = 6.61375632143793436117e-05
_P4 = -1.65339022054652515390e-06
_P5 = 4.13813679705723846039e-08
_LN2_HI = 6.93147180369123816490e-01
_LN2_LO = 1.90821492927058770002e-10
_INV_LN2 = 1.44269504088896338700e00
_EXP_MAX = 709.782712893383973096  # exp overflows above
_EXP_MIN = -745.13321910194110842  # exp underflows to 0 below
_INF_BITS = 0x7FF0000000000000
_NAN_BITS = 0x7FF8000000000000


_EXP_BLOCK = 512


@njit(cache=True, nogil=True, error_model="numpy")
def _exp_block(xs, os, k1, k2):
    """``os = exp(xs)`` for one block (``k1``, ``k2``: int64 scratch of the same size).

    ``os`` must not overlap ``xs``: the compiler vectorises these loops only
    after checking at run time that the arrays do not overlap.
    """
    for i in range(xs.shape[0]):
        x0 = xs[i]
        v = x0 if x0 < _EXP_MAX else _EXP_MAX
        v = v if v > _EXP_MIN else _EXP_MIN  # NaN becomes _EXP_MIN here
        k = np.floor(v * _INV_LN2 + 0.5)
        hi = v - k * _LN2_HI
        lo = k * _LN2_LO
        r = hi - lo
        t = r * r
        c = r - t * (_P1 + t * (_P2 + t * (_P3 + t * (_P4 + t * _P5))))
        os[i] = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi)
        ki = np.int64(k)
        h = ki >> 1
        b1 = (h + 1023) << 52
        # out of range and NaN: the first factor is inf, 0 or NaN
        b1 = _INF_BITS if x0 > _EXP_MAX else b1
        b1 = 0 if x0 < _EXP_MIN else b1
        k1[i] = b1 if x0 == x0 else _NAN_BITS
        k2[i] = (ki - h + 1023) << 52
    s1 = k1.view(np.float64)
    s2 = k2.view(np.float64)
    for i in range(xs.shape[0]):
        os[i] = os[i] * s1[i] * s2[i]


@njit(cache=True, nogil=True)
def exp_many(x, out):
    """``out[i] = exp(x[i])`` for a whole array, in loops the compiler vectorises.

    A call to the C library's ``exp`` per value cannot be vectorised; this costs
    a third as much per value. Within 1 ulp of ``numpy.exp`` (tested); ``inf``
    above 709.78, 0 below -745.13, NaN stays NaN. The scale ``2**k`` is applied
    as two exact powers of two, so subnormal results are rounded once. ``out``
    may be ``x`` (blocks are copied into local buffers first).
    """
    n = x.shape[0]
    xb = np.empty(_EXP_BLOCK)
    ob = np.empty(_EXP_BLOCK)
    k1 = np.empty(_EXP_BLOCK, dtype=np.int64)
    k2 = np.empty(_EXP_BLOCK, dtype=np.int64)
    for a in range(0, n, _EXP_BLOCK):
        m = min(_EXP_BLOCK, n - a)
        for i in range(m):
            xb[i] = x[a + i]
        _exp_block(xb[:m], ob[:m], k1[:m], k2[:m])
        for i in range(m):
            out[a + i] = ob[i]


@njit(cache=True, nogil=True)
def normalise_log_weights(log_w, base, out):
    """``out = base * exp(log_w - max)`` normalised to sum 1; returns the unnormalised sum.

    The maximum is taken over the samples with ``base > 0`` only; samples with
    ``base == 0`` get weight 0 (and may have any ``log_w``, even ``inf``).
    Returns 0.0 when no sample has ``base > 0`` and NaN/inf when the sum overflows
    or a log-weight is NaN (the caller treats both as "no usable weights").
    """
    n = log_w.shape[0]
    m = -np.inf
    for i in range(n):
        if base[i] > 0.0 and log_w[i] > m:
            m = log_w[i]
    if m == -np.inf:
        for i in range(n):
            out[i] = 0.0
        return 0.0
    for i in range(n):
        d = log_w[i] - m
        d = 0.0 if d > 0.0 else d  # NaN stays NaN
        out[i] = d if base[i] > 0.0 else -np.inf
    exp_many(out, out)
    total = 0.0
    for i in range(n):
        b = base[i]
        v = b * out[i] if b > 0.0 else 0.0
        out[i] = v
        total += v
    if total > 0.0 and total < np.inf:
        inv = 1.0 / total
        for i in range(n):
            out[i] *= inv
    return total


def fdot(a, b) -> float:
    """``sum(a * b)`` of two 1-D float arrays, without BLAS.

    For the n-vectors of a boosting round, a multi-threaded BLAS ``dot`` can cost
    milliseconds: its worker threads must be woken up (and wait for a core while
    numba's threads hold them), far more than the arithmetic itself.
    """
    return float(np.add.reduce(np.multiply(a, b)))


@njit(cache=True, nogil=True)
def exp_neg_clipped(m, cap, out):
    """``out = exp(min(-m, cap))`` (the exponential loss, kept finite)."""
    for i in range(m.shape[0]):
        v = -m[i]
        out[i] = cap if v > cap else v  # NaN stays NaN
    exp_many(out, out)
    return out


@njit(cache=True, nogil=True)
def active_rows(sw, idx, w):
    """Rows with ``sw > 0`` into ``idx[:k]`` (in order) and their weights into ``w[:k]``;
    the other rows into ``idx[k:]`` (in reverse order). Returns ``k``."""
    n = sw.shape[0]
    k = 0
    z = n
    for i in range(n):
        v = sw[i]
        if v > 0.0:
            idx[k] = i
            w[k] = v
            k += 1
        else:
            z -= 1
            idx[z] = i
    return k


@njit(cache=True, nogil=True)
def weighted_miss(w, pred, y):
    """``sum(w[pred != y])`` in one pass (the weighted error of a round)."""
    total = 0.0
    for i in range(w.shape[0]):
        total += w[i] * (pred[i] != y[i])  # branch-free: misses are unpredictable
    return total


@njit(cache=True, nogil=True)
def small_int_codes(y, max_span):
    """Codes of integer labels whose range is below ``max_span``.

    Returns ``(lo, present, codes)``: the smallest label, which of the labels
    ``lo .. lo + span - 1`` occur, and for every sample the rank of its label
    among the present ones (int32). ``present`` is empty when the range of ``y``
    is ``max_span`` or more (the caller then sorts).
    """
    n = y.shape[0]
    lo = y[0]
    hi = y[0]
    for i in range(n):
        v = y[i]
        if v < lo:
            lo = v
        elif v > hi:
            hi = v
    codes = np.empty(n, dtype=np.int32)
    if hi - lo >= max_span:
        return lo, np.zeros(0, dtype=np.bool_), codes
    span = hi - lo + 1
    present = np.zeros(span, dtype=np.bool_)
    for i in range(n):
        present[y[i] - lo] = True
    lut = np.empty(span, dtype=np.int32)
    k = 0
    for j in range(span):
        lut[j] = k
        if present[j]:
            k += 1
    for i in range(n):
        codes[i] = lut[y[i] - lo]
    return lo, present, codes
