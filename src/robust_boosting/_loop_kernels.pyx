# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, nonecheck=False
"""Compiled kernels of the boosting loop (private): the per-round work on n-vectors.

Each round of every booster normalises ``n`` sample weights; done with numpy this
takes several passes and temporaries over the data, which is a visible part of a
round when the weak learner is a histogram stump.
"""

from cython.parallel cimport prange, threadid
from libc.math cimport INFINITY, exp, isfinite, log1p
from libc.stdint cimport int32_t, int64_t, uint8_t

import numpy as np


def normalise_log_weights(log_w_arr, const double[::1] base, double[::1] out):
    """``out = base * exp(log_w - max)`` normalised to sum 1; returns the unnormalised sum.

    The maximum is taken over the samples with ``base > 0`` only; samples with
    ``base == 0`` get weight 0 (and may have any ``log_w``, even ``inf``).
    Returns 0.0 when no sample has ``base > 0`` and NaN/inf when the sum overflows
    or a log-weight is NaN (the caller treats both as "no usable weights").
    ``log_w_arr`` None stands for zeros (the same weights within rounding, without
    the ``exp``; their sum is accumulated row by row, while with log-weights it is
    NumPy's pairwise sum, bit for bit). The ``exp`` is NumPy's (vectorised), in
    blocks of rows that stay in cache.
    """
    cdef Py_ssize_t n = base.shape[0]
    cdef Py_ssize_t block = 4096
    cdef Py_ssize_t i, a, b
    cdef double m = -INFINITY
    cdef double d, v, inv
    cdef double total = 0.0
    cdef const double[::1] log_w
    cdef double[::1] buf
    if log_w_arr is None:
        with nogil:
            for i in range(n):
                v = base[i] if base[i] > 0.0 else 0.0
                out[i] = v
                total += v
    else:
        log_w = log_w_arr
        with nogil:
            for i in range(n):
                if base[i] > 0.0 and log_w[i] > m:
                    m = log_w[i]
        if m > -INFINITY:  # else no sample has base > 0: all zeros, total 0
            buf_arr = np.empty(min(n, block))
            buf = buf_arr
            for a in range(0, n, block):
                b = min(n, a + block)
                with nogil:
                    for i in range(a, b):
                        d = log_w[i] - m
                        buf[i - a] = 0.0 if d > 0.0 else d  # NaN stays NaN
                np.exp(buf_arr[:b - a], out=buf_arr[:b - a])
                with nogil:
                    for i in range(a, b):
                        out[i] = base[i] * buf[i - a] if base[i] > 0.0 else 0.0
            total = _pairwise(&out[0], 0, n)
        else:
            out[:] = 0.0
    with nogil:
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


def active_rows(const double[::1] sw, int32_t[::1] idx, double[::1] w):
    """Rows with ``sw > 0`` into ``idx[:k]`` (in order) and their weights into ``w[:k]``;
    the other rows into ``idx[k:]`` (in reverse order). Returns ``k``."""
    cdef Py_ssize_t k = 0
    if sw.shape[0] > 0:
        with nogil:
            k = _active_rows(&sw[0], sw.shape[0], &idx[0], &w[0])
    return k


cdef Py_ssize_t _active_rows(const double* sw, Py_ssize_t n, int32_t* idx,
                             double* w) noexcept nogil:
    cdef Py_ssize_t k = 0
    cdef Py_ssize_t z = n
    cdef Py_ssize_t i
    cdef double v
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
    """``sum(w[pred != y])`` as ``numpy.add.reduce(w * (pred != y))`` computes it (the
    weighted error of a round; NumPy's pairwise order: no chain of dependent adds)."""
    return _weighted_miss(np.ascontiguousarray(w, dtype=np.float64),
                          np.ascontiguousarray(pred, dtype=np.int64),
                          np.ascontiguousarray(y, dtype=np.int64))


cdef double _weighted_miss(const double[::1] w, const int64_t[::1] pred,
                           const int64_t[::1] y):
    cdef Py_ssize_t i, n = w.shape[0]
    if pred.shape[0] != n or y.shape[0] != n:
        raise ValueError("weighted_miss needs arrays of one length")
    if n == 0:
        return 0.0
    cdef double[::1] buf = np.empty(n)
    cdef double total
    with nogil:
        for i in range(n):
            buf[i] = w[i] * (pred[i] != y[i])  # branch-free: misses are unpredictable
        total = _pairwise(&buf[0], 0, n)
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


# the platform guard and clone macros (RB_CLONES, RB_NOTRAP) shared with the tree kernels
cdef extern from "trees/_kernels.h":
    pass


cdef extern from *:
    """
    /* exp(x) for x <= 0 (a positive x is taken as 0; NaN stays NaN), for a block of
       values, in loops the compiler vectorises: fdlibm's reduction x = k ln 2 + r
       (|r| <= ln 2 / 2, k by rounding x / ln 2) and its rational approximation of
       exp(r) (error below 1 ulp), then the scaling by 2**k in two exact steps so that
       results down to the subnormals round once. Only IEEE operations, no fused
       multiply-add (-ffp-contract=off): the same bits on every machine, in every
       clone (AVX2 where the CPU has it, on x86-64 Linux with GCC). */
    RB_CLONES static void rb_exp_block(const double *x, double *out,
                                       Py_ssize_t n) {
        const double SHIFT = 6755399441055744.0;  /* 1.5 * 2**52: round to integer */
        const double INV_LN2 = 1.44269504088896338700e+00;
        const double LN2_HI = 6.93147180369123816490e-01;
        const double LN2_LO = 1.90821492927058770002e-10;
        const double TWO_M600 = 2.409919865102884e-181;  /* 2**-600 */
        int64_t shift_bits;
        Py_ssize_t i;
        memcpy(&shift_bits, &SHIFT, 8);
        for (i = 0; i < n; i++) {  /* exp(-746) rounds to 0; NaN stays NaN */
            double v = x[i];
            out[i] = v < -746.0 ? -746.0 : v;
        }
        for (i = 0; i < n; i++) {
            double v = out[i];
            out[i] = v > 0.0 ? 0.0 : v;
        }
        for (i = 0; i < n; i++) {
            double v = out[i];
            double t, kd, hi, lo, r, rr, c, y, sc;
            int64_t tb, sb;
            t = v * INV_LN2 + SHIFT;
            kd = t - SHIFT;
            hi = v - kd * LN2_HI;  /* exact: LN2_HI has 32 trailing zero bits */
            lo = kd * LN2_LO;
            r = hi - lo;
            rr = r * r;
            c = r - rr * (1.66666666666666019037e-01 + rr * (-2.77777777770155933842e-03
                + rr * (6.61375632143793436117e-05 + rr * (-1.65339022054652515390e-06
                + rr * 4.13813679705723846039e-08))));
            y = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi);
            memcpy(&tb, &t, 8);
            sb = (tb - shift_bits + 1623) << 52;  /* 2**(k + 600), k >= -1076 */
            memcpy(&sc, &sb, 8);
            out[i] = (y * sc) * TWO_M600;
        }
    }
    /* The multiclass Newton terms of rows a..a+m of row-major (n, K) scores, in loops
       over the rows that the compiler vectorises: e (room for m K values) holds the
       block class-major, e[k m + r] for row a + r, and tot (m values) the row sums.
       Each row's values come from the same operations in the same order as a row at
       a time: the maximum over k = 0..K-1, the shifted exp, the sum from the first
       class to the last, two divisions. */
    RB_CLONES RB_NOTRAP static void rb_softmax_block(
            const double *raw, const int64_t *y, const double *w, Py_ssize_t n,
            Py_ssize_t K, Py_ssize_t a, Py_ssize_t m, double z_max, double h_floor,
            double *Z, double *W, double *e, double *tot) {
        Py_ssize_t r, k;
        for (k = 0; k < K; k++)
            for (r = 0; r < m; r++)
                e[k * m + r] = raw[(a + r) * K + k];
        for (r = 0; r < m; r++)
            tot[r] = e[r];  /* the row maximum, for now */
        for (k = 1; k < K; k++)
            for (r = 0; r < m; r++) {
                double v = e[k * m + r];
                tot[r] = v > tot[r] ? v : tot[r];
            }
        for (k = 0; k < K; k++)
            for (r = 0; r < m; r++)
                e[k * m + r] = e[k * m + r] - tot[r];
        rb_exp_block(e, e, K * m);
        for (r = 0; r < m; r++)
            tot[r] = e[r];
        for (k = 1; k < K; k++)
            for (r = 0; r < m; r++)
                tot[r] = tot[r] + e[k * m + r];
        for (k = 0; k < K; k++) {
            double *zk = Z + k * n + a;
            double *wk = W + k * n + a;
            const double *ek = e + k * m;
            for (r = 0; r < m; r++) {
                double p = ek[r] / tot[r];
                double h = p * (1.0 - p);
                double one, z;
                h = h > h_floor ? h : h_floor;
                one = y[a + r] == k ? 1.0 : 0.0;
                z = (one - p) / h;
                z = z < z_max ? z : z_max;
                z = z > -z_max ? z : -z_max;
                zk[r] = z;
                wk[r] = w[a + r] * h;
            }
        }
    }
    """
    void rb_exp_block(const double* x, double* out, Py_ssize_t n) noexcept nogil
    void rb_softmax_block(const double* raw, const int64_t* y, const double* w, Py_ssize_t n,
                          Py_ssize_t K, Py_ssize_t a, Py_ssize_t m, double z_max,
                          double h_floor, double* Z, double* W, double* e,
                          double* tot) noexcept nogil


def exp_many(const double[::1] x, double[::1] out):
    """``out = exp(x)`` for ``x <= 0`` (a positive value is taken as 0), as the
    multiclass round computes it: within 1 ulp of the C library's (tested against
    ``math.exp``), the same bits on every machine."""
    if x.shape[0] != out.shape[0]:
        raise ValueError("exp_many needs arrays of one length")
    if x.shape[0]:
        with nogil:
            rb_exp_block(&x[0], &out[0], x.shape[0])


cdef enum:
    SOFTMAX_BLOCK = 2048  # rows per block of the multiclass round


def softmax_newton(const double[:, ::1] raw, const int64_t[::1] y, const double[::1] w,
                   double z_max, double h_floor, double[:, ::1] Z, double[:, ::1] W,
                   int n_threads=1):
    """The per-sample work of a multiclass Newton round (LogitBoost, K > 2) on ``(n, K)`` scores.

    With ``p = softmax(raw[i])`` (shift by the row maximum, :func:`exp_many`, divide
    by the sum accumulated from the first class to the last) and
    ``h_k = max(p_k (1 - p_k), h_floor)``, writes into the class-major ``(K, n)``
    arrays ``Z[k, i] = clip((1[y_i = k] - p_k) / h_k, ±z_max)`` (the working
    response) and ``W[k, i] = w_i h_k`` (the regressors' weights). The rows go in
    blocks of 2,048 that stay in cache, on ``n_threads`` threads, each block laid out
    class-major so that the loops over its rows vectorise; each row's values come
    from the same operations in the same order as a row at a time, and depend on
    that row only, so not on ``n_threads``.
    """
    cdef Py_ssize_t n = raw.shape[0]
    cdef Py_ssize_t K = raw.shape[1]
    cdef Py_ssize_t n_blocks = (n + SOFTMAX_BLOCK - 1) // SOFTMAX_BLOCK
    cdef Py_ssize_t q, a, m
    cdef Py_ssize_t room = min(n, SOFTMAX_BLOCK)
    cdef int nt = n_threads if n_threads > 1 and n_blocks > 1 else 1
    if (y.shape[0] != n or w.shape[0] != n or Z.shape[0] != K or Z.shape[1] != n
            or W.shape[0] != K or W.shape[1] != n):
        raise ValueError("softmax_newton needs n labels and weights and (K, n) outputs")
    if n == 0 or K == 0:
        return
    # per thread: a block's K values class-major, then its row sums
    buf_arr = np.empty((nt, room * (K + 1)))
    cdef double[:, ::1] buf = buf_arr
    cdef double* e
    with nogil:
        for q in prange(n_blocks, num_threads=nt, schedule="static"):
            a = q * SOFTMAX_BLOCK
            m = min(n - a, SOFTMAX_BLOCK)
            e = &buf[threadid(), 0]
            rb_softmax_block(&raw[0, 0], &y[0], &w[0], n, K, a, m, z_max, h_floor,
                             &Z[0, 0], &W[0, 0], e, e + room * K)


cdef enum:
    STATS_BLOCK = 8192
    # rows (over all trees) from which regression_roots runs its trees side by side
    PARALLEL_MIN_ROWS = 100_000


cdef void _stats_block(const double[:, ::1] F, const double[:, ::1] Z, const double[:, ::1] W,
                       const int64_t[::1] y, Py_ssize_t a, Py_ssize_t b,
                       double* out) noexcept nogil:
    """``out = (edge, miss, total)`` of the rows ``a:b`` (see :func:`newton_round_stats`)."""
    cdef Py_ssize_t K = F.shape[0]
    cdef Py_ssize_t i, k, best
    cdef double edge = 0.0
    cdef double miss = 0.0
    cdef double total = 0.0
    cdef double top, row_w, row_edge
    for i in range(a, b):
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
    out[0] = edge
    out[1] = miss
    out[2] = total


def newton_round_stats(const double[:, ::1] F, const double[:, ::1] Z,
                       const double[:, ::1] W, const int64_t[::1] y, int n_threads=1):
    """``(edge, error)`` of a multiclass Newton round from class-major ``(K, n)`` arrays:
    the weighted edge ``sum_{k,i} W Z F`` and the weighted error of the class of
    largest output (first on ties), rows weighted by ``sum_k W[k, i]``.

    The rows are summed in fixed blocks of 8,192 (on ``n_threads`` threads), whose
    sums are added in order: the result does not depend on ``n_threads``.
    """
    cdef Py_ssize_t n = F.shape[1]
    cdef Py_ssize_t n_blocks = (n + STATS_BLOCK - 1) // STATS_BLOCK
    cdef Py_ssize_t q
    cdef double edge = 0.0
    cdef double miss = 0.0
    cdef double total = 0.0
    parts_arr = np.zeros((max(n_blocks, 1), 3))
    cdef double[:, ::1] parts = parts_arr
    with nogil:
        if n_threads > 1 and n_blocks > 1:
            for q in prange(n_blocks, num_threads=n_threads, schedule="static"):
                _stats_block(F, Z, W, y, q * STATS_BLOCK, min(n, (q + 1) * STATS_BLOCK),
                             &parts[q, 0])
        else:
            for q in range(n_blocks):
                _stats_block(F, Z, W, y, q * STATS_BLOCK, min(n, (q + 1) * STATS_BLOCK),
                             &parts[q, 0])
        for q in range(n_blocks):
            edge += parts[q, 0]
            miss += parts[q, 1]
            total += parts[q, 2]
    return edge, miss / (total if total > 1e-300 else 1e-300)


cdef double _pairwise(const double* w, Py_ssize_t a, Py_ssize_t n) noexcept nogil:
    """``sum(w[a:a + n])`` in NumPy's pairwise order: ``numpy.add.reduce`` of that slice,
    bit for bit (tested)."""
    cdef double r0, r1, r2, r3, r4, r5, r6, r7, res
    cdef Py_ssize_t i, n2
    if n < 8:
        res = 0.0
        for i in range(a, a + n):
            res += w[i]
        return res
    if n <= 128:
        r0 = w[a]
        r1 = w[a + 1]
        r2 = w[a + 2]
        r3 = w[a + 3]
        r4 = w[a + 4]
        r5 = w[a + 5]
        r6 = w[a + 6]
        r7 = w[a + 7]
        i = 8
        while i < n - n % 8:
            r0 += w[a + i]
            r1 += w[a + i + 1]
            r2 += w[a + i + 2]
            r3 += w[a + i + 3]
            r4 += w[a + i + 4]
            r5 += w[a + i + 5]
            r6 += w[a + i + 6]
            r7 += w[a + i + 7]
            i += 8
        res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
        while i < n:
            res += w[a + i]
            i += 1
        return res
    n2 = n // 2
    n2 -= n2 % 8
    return _pairwise(w, a, n2) + _pairwise(w, a + n2, n - n2)


cdef void _pairwise3(const double* w, const double* y, const int32_t* idx, Py_ssize_t a,
                     Py_ssize_t n, double* out) noexcept nogil:
    """``out = (sum w, sum w y[idx], sum w y[idx]^2)`` over ``a:a + n`` in one pass, each in
    the pairwise order of :func:`_pairwise`: bit for bit ``numpy.add.reduce`` of the
    materialised terms."""
    cdef double r[3][8]
    cdef double lo[3]
    cdef double hi[3]
    cdef double v, t
    cdef Py_ssize_t i, j, c, n2
    if n < 8:
        out[0] = 0.0
        out[1] = 0.0
        out[2] = 0.0
        for i in range(a, a + n):
            v = y[idx[i]]
            out[0] += w[i]
            out[1] += w[i] * v
            out[2] += w[i] * (v * v)
        return
    if n <= 128:
        for j in range(8):
            v = y[idx[a + j]]
            r[0][j] = w[a + j]
            r[1][j] = w[a + j] * v
            r[2][j] = w[a + j] * (v * v)
        i = 8
        while i < n - n % 8:
            for j in range(8):
                v = y[idx[a + i + j]]
                t = w[a + i + j]
                r[0][j] += t
                r[1][j] += t * v
                r[2][j] += t * (v * v)
            i += 8
        for c in range(3):
            out[c] = ((r[c][0] + r[c][1]) + (r[c][2] + r[c][3])) + (
                (r[c][4] + r[c][5]) + (r[c][6] + r[c][7]))
        while i < n:
            v = y[idx[a + i]]
            out[0] += w[a + i]
            out[1] += w[a + i] * v
            out[2] += w[a + i] * (v * v)
            i += 1
        return
    n2 = n // 2
    n2 -= n2 % 8
    _pairwise3(w, y, idx, a, n2, lo)
    _pairwise3(w, y, idx, a + n2, n - n2, hi)
    for c in range(3):
        out[c] = lo[c] + hi[c]


def pairwise_sum(const double[::1] a):
    """``numpy.add.reduce(a)`` bit for bit (the order of :func:`_pairwise`; for tests)."""
    return _pairwise(&a[0] if a.shape[0] else NULL, 0, a.shape[0])


def margin_round_stats(const double[::1] w, const double[::1] r, const double[::1] f,
                       const double[::1] y, const double[::1] sw):
    """A real-valued round's statistics in two passes: ``(edge, error, missed)``.

    ``edge = sum(w * (r * f))``, ``error = sum(w[y * f <= 0])`` (both in NumPy's
    pairwise order: bit for bit ``numpy.add.reduce`` of those arrays, as
    ``fdot(w, r * f)`` and ``w[y * f <= 0].sum()``), ``missed``: some sample of
    positive ``sw`` has ``y * f <= 0``. Was five NumPy passes, two of them boolean
    indexing (60 us a round at 10,000 rows).
    """
    cdef Py_ssize_t n = w.shape[0]
    cdef Py_ssize_t i, k = 0
    cdef double edge = 0.0
    cdef double err = 0.0
    cdef int m, missed = 0
    if r.shape[0] != n or f.shape[0] != n or y.shape[0] != n or sw.shape[0] != n:
        raise ValueError("margin_round_stats needs arrays of one length")
    if n == 0:
        return 0.0, 0.0, False
    cdef double[::1] buf = np.empty(n)
    with nogil:
        for i in range(n):
            buf[i] = w[i] * (r[i] * f[i])
        edge = _pairwise(&buf[0], 0, n)
        for i in range(n):  # branch-free: misses are unpredictable
            m = y[i] * f[i] <= 0.0
            buf[k] = w[i]
            k += m
            missed |= m & (sw[i] > 0.0)
        err = _pairwise(&buf[0], 0, k)
    return edge, err, missed != 0


cdef void _regression_root(const double* y, const double* sw, Py_ssize_t n, int32_t* idx,
                           double* ow, double* owy, double* res) noexcept nogil:
    """:func:`regression_root` on raw pointers (``sw`` NULL: unit weights); ``res`` gets
    ``(k, total, ybar, sum(owy), tol_scale)``."""
    cdef Py_ssize_t k = n
    cdef Py_ssize_t i
    cdef double total, ybar
    cdef double sums[3]
    res[0] = 0.0
    res[1] = 0.0
    res[2] = 0.0
    res[3] = 0.0
    res[4] = 0.0
    if n == 0:
        return
    if sw == NULL:
        for i in range(n):
            idx[i] = <int32_t>i
            ow[i] = 1.0
    else:
        k = _active_rows(sw, n, idx, ow)
    if k == 0:
        return
    _pairwise3(ow, y, idx, 0, k, sums)
    total = sums[0]
    ybar = sums[1] / total
    for i in range(k):
        owy[i] = ow[i] * (y[idx[i]] - ybar)
    res[0] = <double>k
    res[1] = total
    res[2] = ybar
    res[3] = _pairwise(owy, 0, k)
    res[4] = sums[2] / total


def regression_root(const double[::1] y, sw, int32_t[::1] idx, double[::1] ow,
                    double[::1] owy):
    """The root of a weighted regression tree in a few passes over the rows.

    The rows of positive weight (all rows if ``sw`` is None, with weight 1) go, in
    order, to ``idx[:k]`` and their weights to ``ow[:k]``; the others to ``idx[k:]``
    in reverse order. With ``ya = y[idx[:k]]``, writes ``owy[:k] = ow (ya - ybar)``
    and returns ``(k, total, ybar, sum(owy), tol_scale)``: ``total = sum(ow)``,
    ``ybar = sum(ow ya) / total``, ``tol_scale = sum(ow ya^2) / total``, every sum
    in NumPy's pairwise order, so each value is bit for bit what NumPy gives from
    the materialised arrays (``ow.sum()``, ``np.add.reduce(ow * ya)``, ...).
    """
    cdef Py_ssize_t n = y.shape[0]
    cdef const double[::1] w
    cdef const double* swp = NULL
    cdef double res[5]
    if sw is not None:
        w = sw
        if n:
            swp = &w[0]
    with nogil:
        _regression_root(&y[0] if n else NULL, swp, n, &idx[0] if n else NULL,
                         &ow[0] if n else NULL, &owy[0] if n else NULL, res)
    return int(res[0]), res[1], res[2], res[3], res[4]


cdef size_t _data_pointer(obj, Py_ssize_t n, str what) except? 0:
    """The address of the float64 array ``obj``'s data (0 if empty), which must have ``n``
    entries."""
    cdef const double[::1] v = obj
    if v.shape[0] != n:
        raise ValueError(f"regression_roots needs {what} of n rows")
    return <size_t>&v[0] if n else 0


def regression_roots(list ys, list sws, int32_t[::1] idx, double[::1] ow, double[::1] owy,
                     int n_threads=1, Py_ssize_t min_rows=PARALLEL_MIN_ROWS):
    """:func:`regression_root` of ``k`` trees on the same ``n`` rows, side by side on
    ``n_threads`` threads: tree ``j`` with target ``ys[j]`` and weights ``sws[j]``
    (float64, contiguous, length ``n``; None for unit weights) writes to
    ``idx[j n:(j + 1) n]``, ``ow[...]`` and ``owy[...]``. Returns the ``(k, 5)``
    array of the trees' ``(k, total, ybar, sum(owy), tol_scale)``; each tree's values
    are those of its own :func:`regression_root` call (the same code), whatever
    ``n_threads``. Side by side only from ``min_rows`` rows over the trees.
    """
    cdef Py_ssize_t k = len(ys)
    cdef Py_ssize_t n = idx.shape[0] // k if k else 0
    cdef Py_ssize_t j
    if k == 0:
        return np.zeros((0, 5))
    if len(sws) != k or idx.shape[0] != k * n or ow.shape[0] != k * n or owy.shape[0] != k * n:
        raise ValueError("regression_roots needs k targets, k weights and k n rows")
    out_arr = np.zeros((k, 5))
    cdef double[:, ::1] out = out_arr
    y_ptr_arr = np.zeros(k, dtype=np.uintp)
    w_ptr_arr = np.zeros(k, dtype=np.uintp)
    cdef size_t[::1] y_ptr = y_ptr_arr
    cdef size_t[::1] w_ptr = w_ptr_arr
    for j in range(k):  # the lists hold the arrays: their data stay where they are
        y_ptr[j] = _data_pointer(ys[j], n, "targets")
        if sws[j] is not None:
            w_ptr[j] = _data_pointer(sws[j], n, "weights")
    if n == 0:
        return out_arr
    # side by side only when the trees' rows are many: below, waking a team's threads
    # cost more than the sums (design record 0045)
    cdef int nt = max(1, min(n_threads, k)) if k * n >= min_rows else 1
    with nogil:
        if nt > 1:
            for j in prange(k, num_threads=nt, schedule="static"):
                _regression_root(<const double*>y_ptr[j], <const double*>w_ptr[j], n,
                                 &idx[j * n], &ow[j * n], &owy[j * n], &out[j, 0])
        else:
            for j in range(k):
                _regression_root(<const double*>y_ptr[j], <const double*>w_ptr[j], n,
                                 &idx[j * n], &ow[j * n], &owy[j * n], &out[j, 0])
    return out_arr


def finite_range(const double[::1] a):
    """``(min, max, finite)`` of ``a`` in one pass: ``finite`` is whether every entry is
    finite (when it is False, ``min`` and ``max`` are unspecified); ``(inf, -inf, True)``
    for an empty array."""
    cdef Py_ssize_t n = a.shape[0]
    cdef Py_ssize_t i
    cdef double lo = INFINITY
    cdef double hi = -INFINITY
    cdef double v
    cdef bint finite = True
    with nogil:
        for i in range(n):
            v = a[i]
            if not isfinite(v):
                finite = False
                break
            if v < lo:
                lo = v
            if v > hi:
                hi = v
    return lo, hi, finite


def logistic_hessians(const double[::1] m, double h_floor, double[::1] out):
    """``out = max(σ(2m) σ(-2m), h_floor)``, the binary LogitBoost weights ``p (1 - p)``
    at margins ``m``, as ``e / (1 + e)^2`` with ``e = exp(-|2m|)`` (no cancellation;
    NumPy's vectorised ``exp``, in blocks that stay in cache). Returns ``out``."""
    cdef Py_ssize_t n = m.shape[0]
    cdef Py_ssize_t block = 4096
    cdef Py_ssize_t a, b, i
    cdef double v, e
    buf_arr = np.empty(min(n, block))
    cdef double[::1] buf = buf_arr
    for a in range(0, n, block):
        b = min(n, a + block)
        with nogil:
            for i in range(a, b):
                v = 2.0 * m[i]
                buf[i - a] = v if v < 0.0 else -v  # NaN stays NaN
        np.exp(buf_arr[:b - a], out=buf_arr[:b - a])
        with nogil:
            for i in range(a, b):
                e = buf[i - a]
                v = e / ((1.0 + e) * (1.0 + e))
                out[i] = h_floor if v <= h_floor else v  # NaN stays NaN
    return out.base


def softmax_losses(const double[:, ::1] raw, const int64_t[::1] y, double[::1] out):
    """``out[i] = logsumexp(raw[i]) - raw[i, y[i]]``, the multiclass log-loss ``-log p_y``.

    ``logsumexp`` as ``m + log1p(s)``: ``m`` the row maximum, ``s`` the sum of
    ``exp(raw[i, k] - m)`` over the other entries (the first maximum left out, so no
    digits are lost to ``log(1 + s)``). A NaN score gives NaN. One pass per row, the
    C library's ``exp`` and ``log1p``. Returns ``out``.
    """
    cdef Py_ssize_t n = raw.shape[0]
    cdef Py_ssize_t K = raw.shape[1]
    cdef Py_ssize_t i, k, j
    cdef double m, s
    with nogil:
        for i in range(n):
            m = raw[i, 0]
            j = 0
            for k in range(1, K):
                if raw[i, k] > m:
                    m = raw[i, k]
                    j = k
            s = 0.0
            for k in range(K):
                if k != j:
                    s = s + exp(raw[i, k] - m)
            out[i] = m + log1p(s) - raw[i, y[i]]
    return out.base


def add_scaled_transposed(const double[:, ::1] raw, double coef, const double[:, ::1] F,
                          double[:, ::1] out):
    """``out = raw + coef * F.T`` for row-major ``(n, K)`` scores ``raw`` and a
    class-major ``(K, n)`` output ``F`` (each entry rounded as NumPy's
    ``raw + coef * F.T``: the product, then the sum), in one pass."""
    cdef Py_ssize_t n = raw.shape[0]
    cdef Py_ssize_t K = raw.shape[1]
    cdef Py_ssize_t i, k
    if F.shape[0] != K or F.shape[1] != n or out.shape[0] != n or out.shape[1] != K:
        raise ValueError("add_scaled_transposed needs raw and out of shape (n, K), F (K, n)")
    with nogil:
        for i in range(n):
            for k in range(K):
                out[i, k] = raw[i, k] + coef * F[k, i]
