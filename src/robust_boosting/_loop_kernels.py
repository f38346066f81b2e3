"""Numba kernels of the boosting loop (private): the per-round work on n-vectors.

Each round of every booster normalises ``n`` sample weights; done with numpy this
takes several passes and temporaries over the data, which is a visible part of a
round when the weak learner is a histogram stump.
"""

import numpy as np
from numba import njit


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
    total = 0.0
    for i in range(n):
        b = base[i]
        if b > 0.0:
            d = log_w[i] - m
            if d > 0.0:  # NaN propagates below
                d = 0.0
            v = b * np.exp(d)
        else:
            v = 0.0
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
        if v > cap:  # NaN stays NaN
            v = cap
        out[i] = np.exp(v)
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
