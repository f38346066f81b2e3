# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, nonecheck=False
"""Compiled kernels of the boosting loop (private): the per-round work on n-vectors.

Each round of every booster normalises ``n`` sample weights; done with numpy this
takes several passes and temporaries over the data, which is a visible part of a
round when the weak learner is a histogram stump.
"""

from libc.math cimport INFINITY, floor
from libc.stdint cimport int32_t, int64_t, uint8_t
from libc.string cimport memcpy

import numpy as np

# exp(x) = 2**k exp(r), x = k ln 2 + r, |r| <= ln(2)/2, with exp(r) from the
# minimax rational form of Cody & Waite (as in most C libraries; error below 1 ulp)
DEF P1 = 1.66666666666666019037e-01
DEF P2 = -2.77777777770155933842e-03
DEF P3 = 6.61375632143793436117e-05
DEF P4 = -1.65339022054652515390e-06
DEF P5 = 4.13813679705723846039e-08
DEF LN2_HI = 6.93147180369123816490e-01
DEF LN2_LO = 1.90821492927058770002e-10
DEF INV_LN2 = 1.44269504088896338700e00
DEF EXP_MAX = 709.782712893383973096  # exp overflows above
DEF EXP_MIN = -745.13321910194110842  # exp underflows to 0 below

cdef extern from *:
    """
    #define RB_INF_BITS 0x7FF0000000000000LL
    #define RB_NAN_BITS 0x7FF8000000000000LL
    """
    int64_t RB_INF_BITS
    int64_t RB_NAN_BITS


cdef inline double _exp(double x0) noexcept nogil:
    """``exp(x0)`` within 1 ulp of the C library's; ``inf`` above 709.78, 0 below
    -745.13, NaN stays NaN. The scale ``2**k`` is applied as two exact powers of
    two, so subnormal results are rounded once."""
    cdef double v = x0 if x0 < EXP_MAX else EXP_MAX
    v = v if v > EXP_MIN else EXP_MIN  # NaN becomes EXP_MIN here
    cdef double k = floor(v * INV_LN2 + 0.5)
    cdef double hi = v - k * LN2_HI
    cdef double lo = k * LN2_LO
    cdef double r = hi - lo
    cdef double t = r * r
    cdef double c = r - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))))
    cdef double y = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi)
    cdef int64_t ki = <int64_t>k
    cdef int64_t h = ki >> 1
    cdef int64_t b1 = (h + 1023) << 52
    cdef int64_t b2 = (ki - h + 1023) << 52
    cdef double s1, s2
    # out of range and NaN: the first factor is inf, 0 or NaN
    if x0 > EXP_MAX:
        b1 = RB_INF_BITS
    if x0 < EXP_MIN:
        b1 = 0
    if x0 != x0:
        b1 = RB_NAN_BITS
    memcpy(&s1, &b1, 8)
    memcpy(&s2, &b2, 8)
    return y * s1 * s2


def exp_many(const double[::1] x, double[::1] out):
    """``out[i] = exp(x[i])`` for a whole array (``out`` may be ``x``).

    Within 1 ulp of ``numpy.exp`` (tested); ``inf`` above 709.78, 0 below
    -745.13, NaN stays NaN.
    """
    cdef Py_ssize_t i
    with nogil:
        for i in range(x.shape[0]):
            out[i] = _exp(x[i])


def normalise_log_weights(const double[::1] log_w, const double[::1] base, double[::1] out):
    """``out = base * exp(log_w - max)`` normalised to sum 1; returns the unnormalised sum.

    The maximum is taken over the samples with ``base > 0`` only; samples with
    ``base == 0`` get weight 0 (and may have any ``log_w``, even ``inf``).
    Returns 0.0 when no sample has ``base > 0`` and NaN/inf when the sum overflows
    or a log-weight is NaN (the caller treats both as "no usable weights").
    """
    cdef Py_ssize_t n = log_w.shape[0]
    cdef Py_ssize_t i
    cdef double m = -INFINITY
    cdef double d, b, v, inv
    cdef double total = 0.0
    with nogil:
        for i in range(n):
            if base[i] > 0.0 and log_w[i] > m:
                m = log_w[i]
        if m == -INFINITY:
            for i in range(n):
                out[i] = 0.0
            total = 0.0
        else:
            for i in range(n):
                b = base[i]
                if b > 0.0:
                    d = log_w[i] - m
                    d = 0.0 if d > 0.0 else d  # NaN stays NaN
                    v = b * _exp(d)
                else:
                    v = 0.0
                out[i] = v
                total += v
            if total > 0.0 and total < INFINITY:
                inv = 1.0 / total
                for i in range(n):
                    out[i] *= inv
    return total


def fdot(a, b) -> float:
    """``sum(a * b)`` of two 1-D float arrays, without BLAS.

    For the n-vectors of a boosting round, a multi-threaded BLAS ``dot`` can cost
    milliseconds: its worker threads must be woken up (and wait for a core), far
    more than the arithmetic itself.
    """
    return float(np.add.reduce(np.multiply(a, b)))


def exp_neg_clipped(const double[::1] m, double cap, double[::1] out):
    """``out = exp(min(-m, cap))`` (the exponential loss, kept finite); returns ``out``."""
    cdef Py_ssize_t i
    cdef double v
    with nogil:
        for i in range(m.shape[0]):
            v = -m[i]
            out[i] = _exp(cap if v > cap else v)  # NaN stays NaN
    return out.base


def active_rows(const double[::1] sw, int32_t[::1] idx, double[::1] w):
    """Rows with ``sw > 0`` into ``idx[:k]`` (in order) and their weights into ``w[:k]``;
    the other rows into ``idx[k:]`` (in reverse order). Returns ``k``."""
    cdef Py_ssize_t n = sw.shape[0]
    cdef Py_ssize_t k = 0
    cdef Py_ssize_t z = n
    cdef Py_ssize_t i
    cdef double v
    with nogil:
        for i in range(n):
            v = sw[i]
            if v > 0.0:
                idx[k] = <int32_t>i
                w[k] = v
                k += 1
            else:
                z -= 1
                idx[z] = <int32_t>i
    return k


def weighted_miss(w, pred, y):
    """``sum(w[pred != y])`` in one pass (the weighted error of a round)."""
    return _weighted_miss(np.ascontiguousarray(w, dtype=np.float64),
                          np.ascontiguousarray(pred, dtype=np.int64),
                          np.ascontiguousarray(y, dtype=np.int64))


cdef double _weighted_miss(const double[::1] w, const int64_t[::1] pred,
                           const int64_t[::1] y):
    cdef double total = 0.0
    cdef Py_ssize_t i
    with nogil:
        for i in range(w.shape[0]):
            total += w[i] * (pred[i] != y[i])  # branch-free: misses are unpredictable
    return total


def small_int_codes(const int64_t[::1] y, int64_t max_span):
    """Codes of integer labels whose range is below ``max_span``.

    Returns ``(lo, present, codes)``: the smallest label, which of the labels
    ``lo .. lo + span - 1`` occur, and for every sample the rank of its label
    among the present ones (int32). ``present`` is empty when the range of ``y``
    is ``max_span`` or more (the caller then sorts).
    """
    cdef Py_ssize_t n = y.shape[0]
    cdef int64_t lo = y[0]
    cdef int64_t hi = y[0]
    cdef int64_t v, span, j
    cdef Py_ssize_t i
    cdef int32_t k
    codes_arr = np.empty(n, dtype=np.int32)
    cdef int32_t[::1] codes = codes_arr
    for i in range(n):
        v = y[i]
        if v < lo:
            lo = v
        elif v > hi:
            hi = v
    if hi - lo >= max_span:
        return lo, np.zeros(0, dtype=np.bool_), codes_arr
    span = hi - lo + 1
    present_arr = np.zeros(span, dtype=np.uint8)
    cdef uint8_t[::1] present = present_arr
    lut_arr = np.empty(span, dtype=np.int32)
    cdef int32_t[::1] lut = lut_arr
    with nogil:
        for i in range(n):
            present[y[i] - lo] = 1
        k = 0
        for j in range(span):
            lut[j] = k
            if present[j]:
                k += 1
        for i in range(n):
            codes[i] = lut[y[i] - lo]
    return lo, present_arr.view(np.bool_), codes_arr



def softmax_newton(const double[:, ::1] raw, const int64_t[::1] y, const double[::1] w,
                   double z_max, double h_floor, Z_arr, W_arr):
    """The per-sample work of a multiclass Newton round (LogitBoost, K > 2) on ``(n, K)`` scores.

    With ``p = softmax(raw[i])`` (shift by the row maximum, ``exp``, divide by the
    sum accumulated from the first class to the last: bit for bit
    ``scipy.special.softmax`` below 8 classes, within rounding from 8 on) and ``h_k = max(p_k (1 - p_k), h_floor)``, writes into the
    class-major ``(K, n)`` arrays ``Z[k, i] = clip((1[y_i = k] - p_k) / h_k, ±z_max)``
    (the working response) and ``W[k, i] = w_i h_k`` (the regressors' weights).
    The ``exp`` is NumPy's (vectorised, and bit for bit what ``softmax_rows`` uses).
    """
    cdef double[:, ::1] Z = Z_arr
    cdef double[:, ::1] W = W_arr
    cdef Py_ssize_t n = raw.shape[0]
    cdef Py_ssize_t K = raw.shape[1]
    cdef Py_ssize_t i, k
    cdef double m, p, h, z, one, tot
    with nogil:
        for i in range(n):
            m = raw[i, 0]
            for k in range(1, K):
                m = raw[i, k] if raw[i, k] > m else m
            for k in range(K):
                Z[k, i] = raw[i, k] - m
    np.exp(Z_arr, out=Z_arr)
    with nogil:
        for i in range(n):
            tot = Z[0, i]
            for k in range(1, K):
                tot = tot + Z[k, i]
            for k in range(K):
                p = Z[k, i] / tot
                h = p * (1.0 - p)
                h = h if h > h_floor else h_floor
                one = 1.0 if y[i] == k else 0.0
                z = (one - p) / h
                z = z if z < z_max else z_max
                z = z if z > -z_max else -z_max
                Z[k, i] = z
                W[k, i] = w[i] * h

def newton_round_stats(const double[:, ::1] F, const double[:, ::1] Z,
                       const double[:, ::1] W, const int64_t[::1] y):
    """``(edge, error)`` of a multiclass Newton round from class-major ``(K, n)`` arrays:
    the weighted edge ``sum_{k,i} W Z F`` and the weighted error of the class of
    largest output (first on ties), rows weighted by ``sum_k W[k, i]``."""
    cdef Py_ssize_t K = F.shape[0]
    cdef Py_ssize_t n = F.shape[1]
    cdef Py_ssize_t i, k, best
    cdef double edge = 0.0
    cdef double miss = 0.0
    cdef double total = 0.0
    cdef double top, row_w, row_edge
    with nogil:
        for i in range(n):
            best = 0
            top = F[0, i]
            row_w = W[0, i]
            row_edge = W[0, i] * Z[0, i] * F[0, i]
            for k in range(1, K):
                row_edge = row_edge + W[k, i] * Z[k, i] * F[k, i]
                row_w = row_w + W[k, i]
                if F[k, i] > top:
                    top = F[k, i]
                    best = k
            edge += row_edge
            total += row_w
            if best != y[i]:
                miss += row_w
    return edge, miss / (total if total > 1e-300 else 1e-300)
