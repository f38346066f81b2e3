# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, nonecheck=False, cpow=True
"""Compiled kernels of the histogram decision tree (private).

Built by ``pip install .`` (Cython, OpenMP where the compiler has it), so a new
install has nothing to compile at run time.

Conventions shared by every kernel:

* ``codes`` is the *transposed* binned matrix, shape ``(n_features, n_samples)``,
  C-contiguous ``uint8``; the missing-value bin is ``missing_bin`` (the same for
  every feature) and the non-missing bins of feature ``f`` are ``0 .. n_bins[f]-1``.
* ``idx`` (``int32``) lists the rows with non-zero weight; every node owns the
  contiguous slice ``idx[start:end]``.  ``ow`` (``float64``) and ``oc``
  (``int32`` class codes, classification) or ``owy`` (``float64`` weight times
  centred target, regression) are stored in the same node order, so histogram
  building reads them sequentially.
* A histogram has shape ``(n_features, missing_bin + 1, n_stat)`` (``float64``).
  Classification: ``n_stat = n_classes + 1`` (class weights, then the count);
  regression: ``n_stat = 3`` (weight, weighted target, count).  The count
  channel is present only when ``min_samples_leaf > 1`` needs exact counts; without
  it, ``min_samples_leaf`` applies to counts estimated from the weights
  (``_weight_for_count``).  Node totals always end with the exact count.
* Split scores are "higher is better" and the impurity decrease of a split is
  ``score(left) + score(right) - score(parent)``:

  - gini: ``sum_k w_k**2 / W``
  - entropy: ``sum_k w_k log w_k - W log W``
  - squared error: ``S**2 / W``

Ties are broken towards the lowest bin (and missing values to the right before
missing values to the left) inside a feature, and towards the lowest feature
index between features.  Histograms are built per group of features by a
single thread, so results do not depend on the number of threads.  No kernel
is compiled with fast-math or fused multiply-add contraction, so the arithmetic
is IEEE double precision in the order written here.
"""

from cython.parallel cimport prange, threadid
from libc.math cimport INFINITY, M_LN2, NAN, cos, fabs, floor, isfinite, isnan, log, sqrt
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy

import numpy as np

ctypedef fused floating:
    float
    double

GINI = 0
ENTROPY = 1
SQUARED_ERROR = 2

DEF C_GINI = 0
DEF C_ENTROPY = 1
DEF C_SQUARED = 2

#: features histogrammed together in one pass over a node's samples
GROUP = 4
DEF C_GROUP = 4
DEF APPROX_MIN = 8  # survivors of the Gini bound worth an approximate pass

DEF BIN_CHUNK = 1024
DEF PRED_CHUNK = 16384
DEF SUB_RTOL = 1e-12


# --------------------------------------------------------------------------
# Binning
# --------------------------------------------------------------------------
cdef inline uint8_t _bin_one(double x, const double* thr, int64_t a, int64_t b,
                             int missing_bin) noexcept nogil:
    cdef int64_t base, m, half
    if isnan(x):
        return <uint8_t>missing_bin
    if b == a:
        return 0
    base = a
    m = b - a
    while m > 1:
        half = m >> 1
        if thr[base + half] < x:
            base = base + half
        m -= half
    return <uint8_t>(base - a + (1 if thr[base] < x else 0))


def bin_matrix(const floating[:, :] X, const double[::1] thr, const int64_t[::1] thr_off,
               int missing_bin, uint8_t[:, ::1] out, int n_threads=1):
    """Write the bin code of ``X[i, f]`` into ``out[f, i]``.

    A value goes to the number of thresholds strictly below it, so
    ``x <= thr[b]`` if and only if ``code(x) <= b``.  NaN goes to ``missing_bin``.
    """
    cdef Py_ssize_t n = X.shape[0]
    cdef Py_ssize_t n_features = X.shape[1]
    cdef Py_ssize_t n_chunks = (n + BIN_CHUNK - 1) // BIN_CHUNK
    cdef Py_ssize_t c, lo, hi, f, i
    cdef const double* t = &thr[0] if thr.shape[0] > 0 else NULL
    if n == 0:
        return
    with nogil:
        for c in prange(n_chunks, num_threads=max(1, n_threads), schedule="static"):
            lo = c * BIN_CHUNK
            hi = min(n, lo + BIN_CHUNK)
            for f in range(n_features):
                for i in range(lo, hi):
                    out[f, i] = _bin_one(<double>X[i, f], t, thr_off[f], thr_off[f + 1],
                                         missing_bin)


# --------------------------------------------------------------------------
# Split scores
# --------------------------------------------------------------------------
# Coefficients of the minimax polynomial for log((1 + s) / (1 - s)) = 2 s + s R(s**2)
# (R(z) = LG1 z + LG2 z**2 + ... + LG7 z**7 on |s| <= 3 - 2 sqrt 2), the classic
# reduction of Cody & Waite used by most C libraries; error below 1 ulp.
DEF LG1 = 6.666666666666735130e-01
DEF LG2 = 3.999999999940941908e-01
DEF LG3 = 2.857142874366239149e-01
DEF LG4 = 2.222219843214978396e-01
DEF LG5 = 1.818357216161805012e-01
DEF LG6 = 1.531383769920937332e-01
DEF LG7 = 1.479819860511658591e-01
DEF LN2_HI = 6.93147180369123816490e-01
DEF LN2_LO = 1.90821492927058770002e-10
DEF SQRT2_MANT = 0x6A09E  # top 20 mantissa bits of sqrt(2)
DEF TINY = 2.2250738585072014e-308  # smallest normal double

cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>
    #define RB_MANT_MASK 0x000FFFFFFFFFFFFFLL
    /* x log x for a block of values, in three loops the compiler vectorises (the
       reduction of _xlogx: exponent and mantissa from the bits, then the same
       polynomial), so the result is bit for bit _xlogx's. On x86-64 Linux with GCC an
       AVX2 clone is chosen at load time where the CPU has it; no fused multiply-add
       is used (-ffp-contract=off), so every clone gives the same bits. */
    #if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
    #define RB_CLONES __attribute__((target_clones("avx2", "default")))
    /* no floating-point traps: GCC then turns a select on a comparison into a
       vector blend (the values are IEEE's either way; nothing reads the flags) */
    #define RB_NOTRAP __attribute__((optimize("no-trapping-math")))
    #else
    #define RB_CLONES
    #define RB_NOTRAP
    #endif
    RB_CLONES static void rb_xlogx_block(const double *restrict v, double *restrict out,
                                         double *restrict kf, Py_ssize_t n) {
        const double TINY = 2.2250738585072014e-308;
        const int64_t TWO52_BITS = 0x4330000000000000LL;
        const double TWO52_BIAS = 4503599627370496.0 + 1023.0;
        Py_ssize_t i;
        for (i = 0; i < n; i++) {
            double x = v[i];
            out[i] = x > TINY ? x : TINY;
        }
        for (i = 0; i < n; i++) {
            int64_t ix, up, kb;
            double m, k;
            memcpy(&ix, &out[i], 8);
            up = (int64_t)(((ix >> 32) & 0x000FFFFF) >= 0x6A09E);
            kb = TWO52_BITS + (ix >> 52) + up;
            ix = (ix & RB_MANT_MASK) | ((0x3FF - up) << 52);
            memcpy(&m, &ix, 8);
            memcpy(&k, &kb, 8);
            out[i] = m;
            kf[i] = k - TWO52_BIAS;
        }
        for (i = 0; i < n; i++) {
            double m = out[i], k = kf[i], x = v[i];
            double f = m - 1.0;
            double s = f / (2.0 + f);
            double z = s * s;
            double w = z * z;
            double t1 = w * (3.999999999940941908e-01 + w * (2.222219843214978396e-01
                        + w * 1.531383769920937332e-01));
            double t2 = z * (6.666666666666735130e-01 + w * (2.857142874366239149e-01
                        + w * (1.818357216161805012e-01 + w * 1.479819860511658591e-01)));
            double r = t2 + t1;
            double hfsq = 0.5 * f * f;
            double lg = k * 6.93147180369123816490e-01 - ((hfsq - (s * (hfsq + r)
                        + k * 1.90821492927058770002e-10)) - f);
            /* x > 0 ? x lg : +0, as a bit mask (a branch would stop vectorisation) */
            double p = x * lg;
            int64_t pb, mask = -(int64_t)(x > 0.0);
            memcpy(&pb, &p, 8);
            pb &= mask;
            memcpy(&p, &pb, 8);
            out[i] = p;
        }
    }

    /* Histogram subtraction, lh = ph - sh, in one pass without a branch per bin (the
       empty bins of a small node make such a branch unpredictable; vectorised). Here
       over n values of class weights: a difference that is rounding residue (at most
       rtol of the parent's value, or below) becomes exactly 0, so that bins empty in
       the larger child stay empty. */
    RB_CLONES static void rb_subtract_weights(const double *restrict ph,
                                              const double *restrict sh,
                                              double *restrict lh, Py_ssize_t n,
                                              double rtol) {
        Py_ssize_t i;
        for (i = 0; i < n; i++) {
            double v = ph[i] - sh[i];
            lh[i] = v > rtol * ph[i] ? v : 0.0;
        }
    }

    /* The same for nb bins of (weight, weighted target) pairs: a bin whose weight is
       residue becomes (0, 0). */
    RB_CLONES static void rb_subtract_pairs(const double *restrict ph,
                                            const double *restrict sh,
                                            double *restrict lh, Py_ssize_t nb,
                                            double rtol) {
        Py_ssize_t b;
        for (b = 0; b < nb; b++) {
            double w = ph[2 * b] - sh[2 * b];
            double v = ph[2 * b + 1] - sh[2 * b + 1];
            int keep = !(w <= rtol * ph[2 * b]);
            lh[2 * b] = keep ? w : 0.0;
            lh[2 * b + 1] = keep ? v : 0.0;
        }
    }

    /* The bins a split scan visits, in order: bin 0 and every bin whose first
       n_check statistics are not all zero (an empty bin makes the same partition as
       the bin before it, which ranks first). No branch on the histogram, whose empty
       bins follow no pattern a branch predictor could learn (at a small node half the
       bins are empty). Four bins per step: their flags make a 4-bit mask, a table
       gives the positions of its set bits, and four indices are written of which the
       first popcount(mask) are kept (used needs room for nb + 3 entries); the steps
       depend on each other only through the count. */
    static const unsigned char RB_POS[16][4] = {
        {0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0},
        {2, 0, 0, 0}, {0, 2, 0, 0}, {1, 2, 0, 0}, {0, 1, 2, 0},
        {3, 0, 0, 0}, {0, 3, 0, 0}, {1, 3, 0, 0}, {0, 1, 3, 0},
        {2, 3, 0, 0}, {0, 2, 3, 0}, {1, 2, 3, 0}, {0, 1, 2, 3}};
    static const unsigned char RB_POP[16] = {0, 1, 1, 2, 1, 2, 2, 3,
                                             1, 2, 2, 3, 2, 3, 3, 4};
    #if defined(__SSE2__)
    #include <emmintrin.h>
    #endif
    static inline unsigned rb_nonzero4(const double *h, int ns, int b, int n_check) {
        /* bit j: bin b + j has one of its first n_check statistics non-zero */
        unsigned k = 0;
        int j;
    #if defined(__SSE2__)
        if (ns == 2) {
            /* a bin's pair compared with zero at once: bit 0 of the movemask is the
               first statistic's flag, bit 1 the second's */
            const __m128d z = _mm_setzero_pd();
            const int sel = n_check > 1 ? 3 : 1;
            for (j = 0; j < 4; j++)
                k |= (unsigned)((_mm_movemask_pd(_mm_cmpneq_pd(
                         _mm_loadu_pd(h + 2 * (b + j)), z)) & sel) != 0) << j;
            return k;
        }
    #endif
        for (j = 0; j < 4; j++) {
            const double *p = h + (Py_ssize_t)(b + j) * ns;
            unsigned nz = p[0] != 0.0;
            if (n_check > 1)
                nz |= p[1] != 0.0;
            k |= nz << j;
        }
        return k;
    }
    static int rb_used_bins(const double *h, int ns, int nb, int n_check, int *used) {
        int b = 0, m = 0;
        for (; b + 4 <= nb; b += 4) {
            const unsigned k = rb_nonzero4(h, ns, b, n_check) | (unsigned)(b == 0);
            const unsigned char *pos = RB_POS[k];
            used[m] = b + pos[0];
            used[m + 1] = b + pos[1];
            used[m + 2] = b + pos[2];
            used[m + 3] = b + pos[3];
            m += RB_POP[k];
        }
        for (; b < nb; b++) {
            const double *p = h + (Py_ssize_t)b * ns;
            used[m] = b;
            m += (b == 0) | (p[0] != 0.0) | (n_check > 1 && p[1] != 0.0);
        }
        return m;
    }

    /* The bins a scan of a pair histogram h (nb bins of two statistics) visits
       (rb_used_bins with n_check: which statistics make a bin non-empty), into used,
       and the running sums of both statistics after each, into c0 and c1; returns their
       number. */
    static inline int rb_used_prefix(const double *restrict h, int nb, int n_check,
                                     int *restrict used, double *restrict c0,
                                     double *restrict c1) {
        double a0 = 0.0, a1 = 0.0;
        int j, n = rb_used_bins(h, 2, nb, n_check, used);
        for (j = 0; j < n; j++) {
            a0 += h[2 * used[j]];
            a1 += h[2 * used[j] + 1];
            c0[j] = a0;
            c1[j] = a1;
        }
        return n;
    }

    /* One node's part of a symmetric level's scan of a feature, for a node without
       missing values and histograms without a count channel (h holds (weight,
       weighted target) pairs): adds to acc[b], at each bin b the node visits
       (rb_used_bins), the change there of the node's score under the split "bins up
       to b go left": its children's S_L^2/(W_L+lam) + S_R^2/(W_R+lam) where both weigh
       at least min_w and that beats base by more than tol, else base. _sym_node's
       arithmetic, in loops that vectorise: the same bits. used, cw, cs, val: scratch
       of nb + 4 entries. */
    RB_CLONES RB_NOTRAP static void rb_sym_node_scan(
            const double *restrict h, int nb, double tw, double ts, double min_w,
            double lam, double base, double tol, double *restrict acc, int *restrict used,
            double *restrict cw, double *restrict cs, double *restrict val) {
        double prev = 0.0;
        int j, n = rb_used_prefix(h, nb, 1, used, cw, cs);
        for (j = 0; j < n; j++) {
            const double wl = cw[j], sl = cs[j];
            const double wr = tw - wl, sr = ts - sl;
            const double sc = sl * sl / (wl + lam) + sr * sr / (wr + lam);
            const int ok = !((wl <= 0.0) | (wr <= 0.0) | (wl < min_w) | (wr < min_w))
                           & (sc > base) & (sc - base > tol);
            val[j] = ok ? sc : base;
        }
        for (j = 0; j < n; j++) {
            acc[used[j]] += val[j] - prev;
            prev = val[j];
        }
    }

    /* The two-class entropy scan's first pass over a feature's nb bins (h holds
       (class 0, class 1) weight pairs): the bins it visits (used, n_used of them, as
       rb_used_bins), the running sums c0, c1 after each visited bin, and for each
       gb[j] = l0 l1 / wl + r0 r1 / wr, the Gini bound of the candidate "bins up to
       used[j] go left" (see _best_split_binary), or NaN where a child is below min_w
       or has no weight. The children's class weights are rb_children's, the
       arithmetic of _candidate. The bound loop has no branch and vectorises.
       Returns the number of valid candidates. */
    static inline void rb_children(double a0, double a1, double t0, double t1,
                                   double *l0, double *l1, double *wl,
                                   double *r0, double *r1, double *wr) {
        double x0 = t0 - a0, x1 = t1 - a1;
        *l0 = a0 > 0.0 ? a0 : 0.0;
        *l1 = a1 > 0.0 ? a1 : 0.0;
        *r0 = x0 < 0.0 ? 0.0 : x0;
        *r1 = x1 < 0.0 ? 0.0 : x1;
        *wl = 0.0 + *l0 + *l1;
        *wr = 0.0 + *r0 + *r1;
    }

    RB_CLONES RB_NOTRAP static int rb_entropy_bounds(
            const double *restrict h, int nb, double t0, double t1, double min_w,
            int *restrict used, int *n_used, double *restrict c0, double *restrict c1,
            double *restrict gb) {
        int j, n, m = 0;
        n = rb_used_prefix(h, nb, 2, used, c0, c1);
        *n_used = n;
        for (j = 0; j < n; j++) {
            /* rb_children's arithmetic, written out: called here, it would be compiled
               with traps (it is inlined into the scans too) and the loop would not
               vectorise */
            double a = c0[j], c = c1[j];
            double x0 = t0 - a, x1 = t1 - c;
            double l0 = a > 0.0 ? a : 0.0;
            double l1 = c > 0.0 ? c : 0.0;
            double r0 = x0 < 0.0 ? 0.0 : x0;
            double r1 = x1 < 0.0 ? 0.0 : x1;
            double wl = 0.0 + l0 + l1;
            double wr = 0.0 + r0 + r1;
            double g = l0 * l1 / wl + r0 * r1 / wr;
            int ok = (wl > 0.0) & (wr > 0.0) & (wl >= min_w) & (wr >= min_w);
            gb[j] = ok ? g : NAN;
            m += ok;
        }
        return m;
    }

    /* x log x for a block of values, approximately: log x = k ln 2 + p(m - 1) with
       x = m 2**k, m in [1, 2), and p the degree-5 Chebyshev fit of log1p on [0, 1]
       (largest error 2.2e-5, RB_APPROX_LOG_ERR with a margin; a test measures it).
       Values below the smallest normal double take its logarithm, as _xlogx's do.
       Vectorised; a filter only (see _best_split_binary), never a score. */
    #define RB_APPROX_LOG_ERR 4e-5
    RB_CLONES RB_NOTRAP static void rb_xlogx_approx_block(const double *restrict v,
                                                          double *restrict out,
                                                          Py_ssize_t n) {
        const double TINY = 2.2250738585072014e-308;
        Py_ssize_t i;
        for (i = 0; i < n; i++) {
            double x = v[i];
            double y = x > TINY ? x : TINY;
            int64_t ix, kb;
            double m, k, t, p;
            memcpy(&ix, &y, 8);
            kb = 0x4330000000000000LL + (ix >> 52);
            ix = (ix & RB_MANT_MASK) | 0x3FF0000000000000LL;
            memcpy(&m, &ix, 8);
            memcpy(&k, &kb, 8);
            k = k - (4503599627370496.0 + 1023.0);
            t = m - 1.0;
            p = 2.2132784000594707e-05 + t * (9.99010209e-01 + t * (-4.89155782e-01
                + t * (2.83302384e-01 + t * (-1.30117930e-01 + t * 3.01022476e-02))));
            out[i] = x * (k * 6.93147180559945286e-01 + p);
        }
    }

    /* Regression histograms of four features over n rows (rows ids[q], or q where ids
       is NULL): each bin a (weight, weighted target) pair, then a count if counted
       (bins of 3 statistics, else 2), to which a row adds its (w, v) with one two-lane
       add (SSE2, x86-64's baseline) instead of two scalar ones; the same sums in the
       same order. The codes are read before any store (bytes may alias the
       histograms). Called with a constant counted, so each form is compiled apart. */
    static inline void rb_hist4_reg(const uint8_t *ra, const uint8_t *rb,
                                    const uint8_t *rc, const uint8_t *rd,
                                    const int32_t *ids, const double *ws, const double *ys,
                                    Py_ssize_t n, double *ha, double *hb, double *hc,
                                    double *hd, const int counted) {
        const size_t ns = counted ? 3 : 2;
        Py_ssize_t q, i;
        for (q = 0; q < n; q++) {
            size_t ba, bb, bc, bd;
            i = ids != NULL ? ids[q] : q;
            ba = ns * (size_t)ra[i];
            bb = ns * (size_t)rb[i];
            bc = ns * (size_t)rc[i];
            bd = ns * (size_t)rd[i];
    #if defined(__SSE2__)
            {
                const __m128d wv = _mm_set_pd(ys[q], ws[q]);
                _mm_storeu_pd(ha + ba, _mm_add_pd(_mm_loadu_pd(ha + ba), wv));
                _mm_storeu_pd(hb + bb, _mm_add_pd(_mm_loadu_pd(hb + bb), wv));
                _mm_storeu_pd(hc + bc, _mm_add_pd(_mm_loadu_pd(hc + bc), wv));
                _mm_storeu_pd(hd + bd, _mm_add_pd(_mm_loadu_pd(hd + bd), wv));
            }
    #else
            {
                const double w = ws[q], v = ys[q];
                ha[ba] += w;
                ha[ba + 1] += v;
                hb[bb] += w;
                hb[bb + 1] += v;
                hc[bc] += w;
                hc[bc + 1] += v;
                hd[bd] += w;
                hd[bd + 1] += v;
            }
    #endif
            if (counted) {
                ha[ba + 2] += 1.0;
                hb[bb + 2] += 1.0;
                hc[bc + 2] += 1.0;
                hd[bd + 2] += 1.0;
            }
        }
    }

    /* The same with a count channel (the last of ns statistics): a bin whose count is
       the parent's is empty in the larger child (all 0). */
    RB_CLONES RB_NOTRAP static void rb_subtract_counted(const double *restrict ph,
                                                        const double *restrict sh,
                                                        double *restrict lh, Py_ssize_t nb,
                                                        int ns) {
        Py_ssize_t b;
        int s;
        for (b = 0; b < nb; b++) {
            const double *p = ph + b * ns, *q = sh + b * ns;
            const int keep = p[ns - 1] != q[ns - 1];
            for (s = 0; s < ns; s++) {
                double d = p[s] - q[s];
                lh[b * ns + s] = keep ? d : 0.0;
            }
        }
    }
    """
    void rb_hist4_reg(const uint8_t* ra, const uint8_t* rb, const uint8_t* rc,
                      const uint8_t* rd, const int32_t* ids, const double* ws,
                      const double* ys, Py_ssize_t n, double* ha, double* hb, double* hc,
                      double* hd, int counted) noexcept nogil
    void rb_subtract_counted(const double* ph, const double* sh, double* lh, Py_ssize_t nb,
                             int ns) noexcept nogil
    double RB_APPROX_LOG_ERR
    void rb_xlogx_approx_block(const double* v, double* out, Py_ssize_t n) noexcept nogil
    int64_t RB_MANT_MASK
    void rb_children(double a0, double a1, double t0, double t1, double* l0, double* l1,
                     double* wl, double* r0, double* r1, double* wr) noexcept nogil
    int rb_entropy_bounds(const double* h, int nb, double t0, double t1, double min_w,
                          int* used, int* n_used, double* c0, double* c1,
                          double* gb) noexcept nogil
    void rb_xlogx_block(const double* v, double* out, double* kf, Py_ssize_t n) noexcept nogil
    void rb_subtract_weights(const double* ph, const double* sh, double* lh, Py_ssize_t n,
                             double rtol) noexcept nogil
    void rb_subtract_pairs(const double* ph, const double* sh, double* lh, Py_ssize_t nb,
                           double rtol) noexcept nogil
    int rb_used_bins(const double* h, int ns, int nb, int n_check, int* used) noexcept nogil
    void rb_sym_node_scan(const double* h, int nb, double tw, double ts, double min_w,
                          double lam, double base, double tol, double* acc, int* used,
                          double* cw, double* cs, double* val) noexcept nogil


cdef inline double _log_reduced(double m, double k) noexcept nogil:
    """``log(m * 2**k)`` for ``m`` in ``[sqrt(2)/2, sqrt(2))``."""
    cdef double f = m - 1.0
    cdef double s = f / (2.0 + f)
    cdef double z = s * s
    cdef double w = z * z
    cdef double t1 = w * (LG2 + w * (LG4 + w * LG6))
    cdef double t2 = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7)))
    cdef double r = t2 + t1
    cdef double hfsq = 0.5 * f * f
    return k * LN2_HI - ((hfsq - (s * (hfsq + r) + k * LN2_LO)) - f)


cdef inline double _xlogx(double x) noexcept nogil:
    """``x log x`` (0 for ``x <= 0``), within about 2 ulp of the C library's.

    ``x`` (clamped below at the smallest normal double) is written ``m * 2**k`` with
    ``m`` in ``[sqrt(2)/2, sqrt(2))`` from its bits, then :func:`_log_reduced`.
    """
    cdef double y, m
    cdef int64_t ix, up
    if not x > 0.0:
        return 0.0
    y = x if x > TINY else TINY
    memcpy(&ix, &y, 8)
    up = 1 if ((ix >> 32) & 0x000FFFFF) >= SQRT2_MANT else 0
    cdef double k = <double>((ix >> 52) + up - 1023)
    ix = (ix & RB_MANT_MASK) | ((0x3FF - up) << 52)
    memcpy(&m, &ix, 8)
    return x * _log_reduced(m, k)


def xlogx_many(const double[::1] v, double[::1] out):
    """``out[i] = v[i] * log(v[i])`` (0 where ``v[i] <= 0``), as the entropy scans of
    two classes compute it (vectorised)."""
    cdef double[::1] kf = np.empty(v.shape[0])
    if v.shape[0]:
        rb_xlogx_block(&v[0], &out[0], &kf[0], v.shape[0])


def xlogx_approx_many(const double[::1] v, double[::1] out):
    """The entropy scans' approximate ``x log x`` (a filter; for the tests), and the
    bound on its error, ``|approx - x log x| <= err * x``, as ``err``."""
    if v.shape[0]:
        rb_xlogx_approx_block(&v[0], &out[0], v.shape[0])
    return RB_APPROX_LOG_ERR


def _xlogx_scalar_many(const double[::1] v, double[::1] out):
    """:func:`xlogx_many` by the scalar ``_xlogx`` of the other scans (for the tests)."""
    cdef Py_ssize_t i
    for i in range(v.shape[0]):
        out[i] = _xlogx(v[i])


cdef double _node_score(const double* tot, int n_stat, int crit, double lam) noexcept nogil:
    cdef double w, s, a
    cdef int k
    if crit == C_SQUARED:
        w = tot[0]
        if w <= 0.0:
            return 0.0
        return tot[1] * tot[1] / (w + lam)
    w = 0.0
    s = 0.0
    for k in range(n_stat - 1):
        a = tot[k]
        if a < 0.0:
            a = 0.0
        w += a
        if crit == C_GINI:
            s += a * a
        else:
            s += _xlogx(a)
    if w <= 0.0:
        return 0.0
    if crit == C_GINI:
        return s / w
    return s - _xlogx(w)


def node_score(const double[::1] tot, int n_stat, int crit, double lam=0.0):
    """Score of a whole node from its totals (see module docstring); ``lam``: the
    regression criterion's L2 penalty (``S^2 / (W + lam)``)."""
    return _node_score(&tot[0], n_stat, crit, lam)


cdef inline bint _children_ok(double wl, double wr, double min_w) noexcept nogil:
    """Whether a split's children both have positive weight of at least ``min_w``."""
    return not (wl <= 0.0 or wr <= 0.0 or wl < min_w or wr < min_w)


cdef struct Best:
    # the best split of a scan so far: its score, bin and children's weights
    double score
    int bin
    double wl
    double wr


cdef inline void _offer(Best* best, double sc, int b, double wl, double wr) noexcept nogil:
    """Keep the split of score ``sc`` at bin ``b`` if it beats the best so far (the first
    of equal scores stays)."""
    if sc > best.score:
        best.score = sc
        best.bin = b
        best.wl = wl
        best.wr = wr


cdef inline double _chosen(const Best* best, int* out_bin, bint* out_ml) noexcept nogil:
    """Write the best bin and where missing values go, and return its score: no missing
    value reached this node, so unseen NaN follows the heavier side."""
    out_bin[0] = best.bin
    out_ml[0] = best.bin >= 0 and best.wl >= best.wr
    return best.score


cdef inline bint _candidate(const double* cum, const double* tot, const double* miss,
                            bint add_miss, int n_val, bint has_cnt, int crit, double min_cnt,
                            double min_w, double lam, double* score, double* w_left,
                            double* w_right) noexcept nogil:
    """Score of the split (left = cum [+ miss], right = the rest); False if invalid.

    ``tot`` holds the node totals (``n_val`` values then the exact count);
    ``cum`` and ``miss`` are histogram rows (with a count if ``has_cnt``).
    """
    cdef double cl, cr, wl, wr, sl, sr, a, c
    cdef int k
    if has_cnt:
        cl = cum[n_val]
        if add_miss:
            cl += miss[n_val]
        cr = tot[n_val] - cl
        if cl < min_cnt or cr < min_cnt:
            return False
    if crit == C_SQUARED:
        wl = cum[0]
        sl = cum[1]
        if add_miss:
            wl += miss[0]
            sl += miss[1]
        wr = tot[0] - wl
        sr = tot[1] - sl
        if not _children_ok(wl, wr, min_w):
            return False
        score[0] = sl * sl / (wl + lam) + sr * sr / (wr + lam)
        w_left[0] = wl
        w_right[0] = wr
        return True
    wl = 0.0
    wr = 0.0
    sl = 0.0
    sr = 0.0
    for k in range(n_val):
        a = cum[k]
        if add_miss:
            a += miss[k]
        c = tot[k] - a
        if a < 0.0:
            a = 0.0
        if c < 0.0:
            c = 0.0
        wl += a
        wr += c
        if crit == C_GINI:
            sl += a * a
            sr += c * c
        else:
            sl += _xlogx(a)
            sr += _xlogx(c)
    if not _children_ok(wl, wr, min_w):
        return False
    if crit == C_GINI:
        score[0] = sl / wl + sr / wr
    else:
        score[0] = sl - _xlogx(wl) + sr - _xlogx(wr)
    w_left[0] = wl
    w_right[0] = wr
    return True


cdef inline bint _bin_empty(const double* hb, int n_val, bint has_cnt,
                            bint is_reg) noexcept nogil:
    cdef int k
    if has_cnt:
        return hb[n_val] == 0.0
    if is_reg:
        return hb[0] == 0.0
    for k in range(n_val):
        if hb[k] != 0.0:
            return False
    return True


cdef inline double _terms_score(const double* x, int q) noexcept nogil:
    """The entropy score of candidate ``q`` from its six ``x log x`` terms (stored 256
    apart: left class 0, class 1, left weight, right class 0, class 1, right weight),
    in :func:`_candidate`'s order."""
    return (0.0 + x[q] + x[256 + q]) - x[512 + q] + (
        0.0 + x[768 + q] + x[1024 + q]) - x[1280 + q]


cdef inline double _entropy_score(double l0, double l1, double wl, double r0, double r1,
                                 double wr) noexcept nogil:
    """:func:`_terms_score` of one candidate from its six ``x log x`` arguments, by the
    scalar ``_xlogx`` (bit for bit the block's)."""
    return (0.0 + _xlogx(l0) + _xlogx(l1)) - _xlogx(wl) + (
        0.0 + _xlogx(r0) + _xlogx(r1)) - _xlogx(wr)


cdef double _best_split_binary(const double* h, int ns, int nb, const double* tot, int crit,
                               double min_w, double floor_sc, int* out_bin,
                               bint* out_ml) noexcept nogil:
    """:func:`_best_split_feature` for two classes, no counts and no missing values
    (the boosters' common case; the same arithmetic in the same order as
    :func:`_candidate`, so the same split is chosen).

    With entropy every candidate's Gini bound is computed first, in one vectorised
    pass (``rb_entropy_bounds``): a child of weight ``w`` and class weights ``a``,
    ``c`` has entropy ``w H(a / w) >= 4 ln 2 a c / w`` (``H(p) >= 4 ln 2 p (1 - p)``,
    equality at ``p = 1/2``), so ``-4 ln 2 g`` with ``g = l0 l1 / wl + r0 r1 / wr``
    bounds the score above. The exact score ``s0`` of the first candidate with the
    least ``g`` is computed; only the candidates whose bound reaches
    ``max(s0, floor_sc)`` (less a tolerance far above the rounding of either) can
    win, and only their six ``x log x`` terms are computed, in one vectorised pass
    (``rb_xlogx_block``, bit for bit ``_xlogx``). ``floor_sc`` is a score the caller
    already holds for the same node (another feature's); when no candidate can reach
    it, the result is ``-inf`` (the feature cannot be chosen). The split chosen among
    the features is the one a scan of every candidate chooses."""
    cdef double t0 = tot[0]
    cdef double t1 = tot[1]
    cdef double a0 = 0.0
    cdef double a1 = 0.0
    cdef double h0, h1, l0, l1, r0, r1, wl, wr, sc, g
    cdef Best best = Best(-INFINITY, -1, 0.0, 0.0)
    cdef int b, q, j, n_used, m
    cdef int g_best
    cdef double g_min
    cdef double tt, cut, tol, s1, sa_best, lim
    cdef double s0 = -INFINITY
    cdef int qa
    # entropy: the six x log x arguments of surviving candidate q at terms[j * 256 + q]
    cdef double terms[6 * 256]
    cdef double xl[6 * 256]
    cdef double kf[6 * 256]
    cdef double c0[256]
    cdef double c1[256]
    cdef double gb[256]
    cdef int cand[260]
    cdef int used[260]
    if crit != C_ENTROPY:
        n_used = rb_used_bins(h, ns, nb, 2, cand)
        for j in range(n_used):
            b = cand[j]
            h0 = h[b * ns]
            h1 = h[b * ns + 1]
            a0 += h0
            a1 += h1
            rb_children(a0, a1, t0, t1, &l0, &l1, &wl, &r0, &r1, &wr)
            if _children_ok(wl, wr, min_w):
                _offer(&best, (0.0 + l0 * l0 + l1 * l1) / wl + (0.0 + r0 * r0 + r1 * r1) / wr,
                       b, wl, wr)
        return _chosen(&best, out_bin, out_ml)
    m = rb_entropy_bounds(h, nb, t0, t1, min_w, used, &n_used, c0, c1, gb)
    if m == 0:
        return _chosen(&best, out_bin, out_ml)
    # the first candidate with the least bound (NaN, not valid, is never below it)
    # and the first valid candidate
    g_min = INFINITY
    g_best = -1
    q = -1
    for j in range(n_used):
        g = gb[j]
        if g < g_min:
            g_min = g
            g_best = j
        if q < 0 and g == g:
            q = j
    # a candidate whose bound is below s_ref - tol cannot reach s_ref; tol is 1e-10 of
    # the largest |x log x| among values up to the node's total tt (the two children's
    # weights of the first valid candidate; tt log|tt| + tt bounds it), far above the
    # rounding of scores and bounds
    rb_children(c0[q], c1[q], t0, t1, &l0, &l1, &wl, &r0, &r1, &wr)
    tt = wl + wr
    tol = 1e-10 * (fabs(_xlogx(tt)) + tt)
    cut = (tol - floor_sc) / (4.0 * M_LN2)
    if isfinite(cut) and not g_min <= cut:
        return _chosen(&best, out_bin, out_ml)  # no split
    cut = INFINITY
    if m > 1:
        # s0: the exact score of the Gini-best candidate (bit for bit the block's)
        rb_children(c0[g_best], c1[g_best], t0, t1, &l0, &l1, &wl, &r0, &r1, &wr)
        s0 = _entropy_score(l0, l1, wl, r0, r1, wr)
        cut = (tol - (s0 if s0 > floor_sc else floor_sc)) / (4.0 * M_LN2)
        if not isfinite(cut):
            cut = INFINITY
    # the survivors, in bin order (no branch: the test follows no pattern)
    m = 0
    for j in range(n_used):
        cand[m] = j
        m += gb[j] <= cut
    for j in range(m):
        rb_children(c0[cand[j]], c1[cand[j]], t0, t1, &terms[j], &terms[256 + j],
                    &terms[512 + j], &terms[768 + j], &terms[1024 + j], &terms[1280 + j])
        cand[j] = used[cand[j]]
    if m > APPROX_MIN:
        # a second filter: approximate scores sa (each within 2 RB_APPROX_LOG_ERR tt
        # of the exact: six x log x terms, their arguments summing to 2 tt); the exact
        # score s1 of the approximately best survivor; only survivors whose sa reaches
        # max(s0, s1, floor_sc) less that error (and tol) can win
        for q in range(6):
            rb_xlogx_approx_block(terms + 256 * q, xl + 256 * q, m)
        sa_best = -INFINITY
        qa = 0
        for q in range(m):
            sc = _terms_score(xl, q)
            kf[q] = sc
            if sc > sa_best:
                sa_best = sc
                qa = q
        s1 = _entropy_score(terms[qa], terms[256 + qa], terms[512 + qa], terms[768 + qa],
                            terms[1024 + qa], terms[1280 + qa])
        if s0 > s1:
            s1 = s0
        if floor_sc > s1:
            s1 = floor_sc
        lim = s1 - tol - 4.0 * RB_APPROX_LOG_ERR * tt
        j = 0
        for q in range(m):
            if kf[q] >= lim:
                terms[j] = terms[q]
                terms[256 + j] = terms[256 + q]
                terms[512 + j] = terms[512 + q]
                terms[768 + j] = terms[768 + q]
                terms[1024 + j] = terms[1024 + q]
                terms[1280 + j] = terms[1280 + q]
                cand[j] = cand[q]
                j += 1
        m = j
    for q in range(6):
        rb_xlogx_block(terms + 256 * q, xl + 256 * q, kf + 256 * q, m)
    for q in range(m):
        _offer(&best, _terms_score(xl, q), cand[q], terms[512 + q], terms[1280 + q])
    return _chosen(&best, out_bin, out_ml)


def _binary_scan_pair(const double[:, ::1] h, const double[::1] tot, int crit, double min_w,
                      double floor_sc):
    """For the tests: ``(bin, score)`` of :func:`_best_split_binary` (bounded by
    ``floor_sc``) and of a scan of every bin by :func:`_candidate`."""
    cdef int fast_bin, b, full_bin = -1
    cdef bint ml
    cdef double fast, sc, wl, wr, full = -INFINITY
    cdef double cum[2]
    fast = _best_split_binary(&h[0, 0], 2, h.shape[0], &tot[0], crit, min_w, floor_sc,
                              &fast_bin, &ml)
    cum[0] = 0.0
    cum[1] = 0.0
    for b in range(h.shape[0]):
        cum[0] += h[b, 0]
        cum[1] += h[b, 1]
        if _candidate(cum, &tot[0], NULL, False, 2, False, crit, 0.0, min_w, 0.0, &sc,
                      &wl, &wr) and sc > full:
            full = sc
            full_bin = b
    return (fast_bin, fast), (full_bin, full)


cdef double _best_split_squared(const double* h, int ns, int nb, const double* tot,
                                double min_w, double lam, int* out_bin,
                                bint* out_ml) noexcept nogil:
    """:func:`_best_split_feature` for regression with no counts and no missing values."""
    cdef Best best = Best(-INFINITY, -1, 0.0, 0.0)
    cdef double wl = 0.0
    cdef double sl = 0.0
    cdef double wr, sr
    cdef int b, j, n_used
    cdef int used[260]
    n_used = rb_used_bins(h, ns, nb, 1, used)
    for j in range(n_used):
        b = used[j]
        wl += h[b * ns]
        sl += h[b * ns + 1]
        wr = tot[0] - wl
        sr = tot[1] - sl
        if _children_ok(wl, wr, min_w):
            _offer(&best, sl * sl / (wl + lam) + sr * sr / (wr + lam), b, wl, wr)
    return _chosen(&best, out_bin, out_ml)


cdef inline double _weight_for_count(const double* tot, int n_val, bint is_reg,
                                     double min_cnt, double min_w) noexcept nogil:
    """The least child weight that counts as ``min_cnt`` rows when counts are estimated
    from weights (histograms without a count channel, ``min_cnt > 1``): a child of
    weight ``w`` counts ``w * n / W`` rows, ``n`` and ``W`` the node's exact row count
    (``tot[n_val]``) and weight, as LightGBM's ``min_data_in_leaf`` counts from
    hessians. Returns ``max(min_w, min_cnt * W / n)``."""
    cdef double w = 0.0
    cdef double need
    cdef int k
    if is_reg:
        w = tot[0]
    else:
        for k in range(n_val):
            w += tot[k]
    if not tot[n_val] > 0.0:
        return min_w
    need = min_cnt * (w / tot[n_val])
    return need if need > min_w else min_w


cdef double _best_split_feature(const double* h, int ns, int nb, int missing_bin,
                                const double* tot, int n_val, bint has_cnt, bint is_reg,
                                int crit, double min_cnt, double min_w, double lam,
                                double floor_sc, double* cum, int* out_bin,
                                bint* out_ml) noexcept nogil:
    """Best split of one feature from its histogram ``h`` (bins x ``ns`` stats).

    Returns the score (``-inf`` if no valid split) and writes the bin and the
    missing-value direction. ``floor_sc`` is a score of another feature at the same
    node (or ``-inf``): a scan may return ``-inf`` where it proves that no split of
    this feature reaches it (:func:`_best_split_binary`).
    """
    cdef const double* miss = h + missing_bin * ns
    cdef bint has_miss = not _bin_empty(miss, n_val, has_cnt, is_reg)
    cdef int s, b
    cdef double best, sc, wl, wr
    cdef int best_bin
    cdef bint best_ml
    cdef double best_wl, best_wr
    cdef const double* hb
    if min_cnt > 1.0 and not has_cnt:
        min_w = _weight_for_count(tot, n_val, is_reg, min_cnt, min_w)
    if not (has_cnt or has_miss):
        if is_reg:
            return _best_split_squared(h, ns, nb, tot, min_w, lam, out_bin, out_ml)
        if n_val == 2:
            return _best_split_binary(h, ns, nb, tot, crit, min_w, floor_sc, out_bin, out_ml)
    for s in range(ns):
        cum[s] = 0.0
    best = -INFINITY
    best_bin = -1
    best_ml = False
    best_wl = 0.0
    best_wr = 0.0
    for b in range(nb):
        hb = h + b * ns
        if b > 0 and _bin_empty(hb, n_val, has_cnt, is_reg):
            continue  # same partition as bin b - 1, which ranks first
        for s in range(ns):
            cum[s] += hb[s]
        if _candidate(cum, tot, miss, False, n_val, has_cnt, crit, min_cnt, min_w, lam,
                      &sc, &wl, &wr) and sc > best:
            best = sc
            best_bin = b
            best_ml = False
            best_wl = wl
            best_wr = wr
        if has_miss:
            if _candidate(cum, tot, miss, True, n_val, has_cnt, crit, min_cnt, min_w, lam,
                          &sc, &wl, &wr) and sc > best:
                best = sc
                best_bin = b
                best_ml = True
    if best_bin >= 0 and not has_miss:
        # no missing value reached this node: unseen NaN follows the heavier side
        best_ml = best_wl >= best_wr
    out_bin[0] = best_bin
    out_ml[0] = best_ml
    return best


# --------------------------------------------------------------------------
# Histograms
# --------------------------------------------------------------------------
cdef inline void _zero_hist(double* h, int ns, int nb, int missing_bin) noexcept nogil:
    cdef int i
    for i in range(nb * ns):
        h[i] = 0.0
    for i in range(ns):
        h[missing_bin * ns + i] = 0.0


cdef void _build_hist_group(int f0, const uint8_t* codes, Py_ssize_t n_rows, int n_features,
                            const int32_t* idx, const double* ow, const int32_t* oc,
                            const double* owy, bint is_reg, bint has_cnt, bint dense,
                            Py_ssize_t start, Py_ssize_t end, const int32_t* n_bins,
                            int missing_bin, double* hist, int ns,
                            double* spare) noexcept nogil:
    """Histograms of features ``f0 .. f0 + GROUP - 1`` over the node ``idx[start:end]``.

    One pass reads each sample's index and statistics once for the ``GROUP``
    features.  Features past the last one are histogrammed into ``spare``
    (thrown away), so every pass has the same shape.  ``dense``: the node is
    every row in order (``idx[q] == q``), which saves the indirection.  The
    count channel (last) exists only if ``has_cnt``.
    """
    cdef Py_ssize_t hsz = (missing_bin + 1) * ns
    cdef double* ha = hist + f0 * hsz
    cdef double* hb = hist + (f0 + 1) * hsz if f0 + 1 < n_features else spare
    cdef double* hc = hist + (f0 + 2) * hsz if f0 + 2 < n_features else spare + hsz
    cdef double* hd = hist + (f0 + 3) * hsz if f0 + 3 < n_features else spare + 2 * hsz
    cdef const uint8_t* ra = codes + f0 * n_rows
    cdef const uint8_t* rb = codes + (f0 + 1) * n_rows if f0 + 1 < n_features else ra
    cdef const uint8_t* rc = codes + (f0 + 2) * n_rows if f0 + 2 < n_features else ra
    cdef const uint8_t* rd = codes + (f0 + 3) * n_rows if f0 + 3 < n_features else ra
    _zero_hist(ha, ns, n_bins[f0], missing_bin)
    _zero_hist(hb, ns, n_bins[f0 + 1] if f0 + 1 < n_features else missing_bin, missing_bin)
    _zero_hist(hc, ns, n_bins[f0 + 2] if f0 + 2 < n_features else missing_bin, missing_bin)
    _zero_hist(hd, ns, n_bins[f0 + 3] if f0 + 3 < n_features else missing_bin, missing_bin)
    cdef const int32_t* ids = idx + start
    cdef const double* ws = ow + start
    cdef Py_ssize_t n = end - start
    cdef int cnt = ns - 1
    cdef Py_ssize_t q, i
    cdef double w
    cdef Py_ssize_t c
    cdef Py_ssize_t ba, bb, bc, bd
    cdef const int32_t* cs
    # the four codes are read into locals before any histogram store: the codes are
    # bytes, which C lets alias the histograms, so the compiler would otherwise
    # reload them after every store
    # regression: (weight, weighted target[, count]) pairs added two lanes at a time
    # (a constant last argument: the C compiler makes each form apart)
    if is_reg:
        if dense:
            ids = NULL
        if has_cnt:
            rb_hist4_reg(ra, rb, rc, rd, ids, ws, owy + start, n, ha, hb, hc, hd, 1)
        else:
            rb_hist4_reg(ra, rb, rc, rd, ids, ws, owy + start, n, ha, hb, hc, hd, 0)
        return
    cs = oc + start
    if has_cnt:
        for q in range(n):
            i = q if dense else ids[q]
            w = ws[q]
            c = cs[q]
            ba = ra[i] * ns
            bb = rb[i] * ns
            bc = rc[i] * ns
            bd = rd[i] * ns
            ha[ba + c] += w
            ha[ba + cnt] += 1.0
            hb[bb + c] += w
            hb[bb + cnt] += 1.0
            hc[bc + c] += w
            hc[bc + cnt] += 1.0
            hd[bd + c] += w
            hd[bd + cnt] += 1.0
    elif dense:
        for q in range(n):
            w = ws[q]
            c = cs[q]
            ba = ra[q] * ns + c
            bb = rb[q] * ns + c
            bc = rc[q] * ns + c
            bd = rd[q] * ns + c
            ha[ba] += w
            hb[bb] += w
            hc[bc] += w
            hd[bd] += w
    else:
        for q in range(n):
            i = ids[q]
            w = ws[q]
            c = cs[q]
            ba = ra[i] * ns + c
            bb = rb[i] * ns + c
            bc = rc[i] * ns + c
            bd = rd[i] * ns + c
            ha[ba] += w
            hb[bb] += w
            hc[bc] += w
            hd[bd] += w


cdef inline void _subtract_bins(const double* ph, const double* sh, double* lh, Py_ssize_t nb,
                                int ns, bint has_cnt, bint is_reg) noexcept nogil:
    """``lh = ph - sh`` for ``nb`` bins of ``ns`` statistics. Without exact counts,
    values that are rounding residue (at most ``SUB_RTOL`` of the parent's) become
    exactly 0, so that bins empty in the larger child stay empty."""
    if has_cnt:
        rb_subtract_counted(ph, sh, lh, nb, ns)
    elif is_reg:
        rb_subtract_pairs(ph, sh, lh, nb, SUB_RTOL)
    else:
        rb_subtract_weights(ph, sh, lh, nb * ns, SUB_RTOL)


cdef struct NodeArgs:
    const uint8_t* codes
    Py_ssize_t n_rows
    int n_features
    const int32_t* idx
    const double* ow
    const int32_t* oc
    const double* owy
    bint is_reg
    int crit
    bint dense
    Py_ssize_t start
    Py_ssize_t end
    const int32_t* n_bins
    int missing_bin
    int ns
    const double* parent_hist
    double* small_hist
    double* large_hist
    bint do_sub
    const double* small_tot
    const double* large_tot
    int n_val
    bint find_small
    bint find_large
    double min_cnt
    double min_w
    double lam         # the regression criterion's L2 penalty (0: none)
    double* scores     # (2, n_features)
    int32_t* bins      # (2, n_features)
    uint8_t* mls       # (2, n_features)
    double* scratch    # (n_features, >= ns)
    int scratch_stride
    bint use_floor     # a scan may skip a feature below the group's best so far
    double rs          # symmetric trees: the strength of the random split scores (0: none)
    uint64_t rs_seed   # and their seed (see _sym_noisy_choice)


cdef void _node_group(int g, NodeArgs* a) noexcept nogil:
    cdef int f0 = C_GROUP * g
    cdef int nf = a.n_features
    cdef int last = f0 + C_GROUP if f0 + C_GROUP < nf else nf
    cdef Py_ssize_t hsz = (a.missing_bin + 1) * a.ns
    cdef bint has_cnt = a.ns > a.n_val
    cdef double* spare = NULL
    cdef int f, b, nb, bi
    cdef bint ml
    cdef double sc
    cdef double floor_s = -INFINITY
    cdef double floor_l = -INFINITY
    cdef const double* ph
    cdef const double* sh
    cdef double* lh
    if last - f0 < C_GROUP:
        spare = <double*>malloc((C_GROUP - 1) * hsz * sizeof(double))
    _build_hist_group(f0, a.codes, a.n_rows, nf, a.idx, a.ow, a.oc, a.owy, a.is_reg, has_cnt,
                      a.dense, a.start, a.end, a.n_bins, a.missing_bin, a.small_hist, a.ns,
                      spare)
    if spare != NULL:
        free(spare)
    for f in range(f0, last):
        nb = a.n_bins[f]
        if a.do_sub:
            ph = a.parent_hist + f * hsz
            sh = a.small_hist + f * hsz
            lh = a.large_hist + f * hsz
            _subtract_bins(ph, sh, lh, nb, a.ns, has_cnt, a.is_reg)
            _subtract_bins(ph + a.missing_bin * a.ns, sh + a.missing_bin * a.ns,
                           lh + a.missing_bin * a.ns, 1, a.ns, has_cnt, a.is_reg)
        # floor_s / floor_l: the best score so far of the group's earlier features
        # (a real split's score, so a feature proven below it cannot be chosen; not
        # used where categorical features' scores are replaced after this scan)
        if a.find_small:
            sc = _best_split_feature(a.small_hist + f * hsz, a.ns, nb, a.missing_bin,
                                     a.small_tot, a.n_val, has_cnt, a.is_reg, a.crit,
                                     a.min_cnt, a.min_w, a.lam, floor_s,
                                     a.scratch + f * a.scratch_stride, &bi, &ml)
            a.scores[f] = sc
            a.bins[f] = bi
            a.mls[f] = ml
            if a.use_floor and sc > floor_s:
                floor_s = sc
        if a.find_large:
            sc = _best_split_feature(a.large_hist + f * hsz, a.ns, nb, a.missing_bin,
                                     a.large_tot, a.n_val, has_cnt, a.is_reg, a.crit,
                                     a.min_cnt, a.min_w, a.lam, floor_l,
                                     a.scratch + f * a.scratch_stride, &bi, &ml)
            a.scores[nf + f] = sc
            a.bins[nf + f] = bi
            a.mls[nf + f] = ml
            if a.use_floor and sc > floor_l:
                floor_l = sc


cdef inline const double* _ptr3(const double[:, :, ::1] h) noexcept nogil:
    return &h[0, 0, 0] if h.shape[0] > 0 and h.shape[1] > 0 and h.shape[2] > 0 else NULL


cdef void _tree_args(NodeArgs* a, const uint8_t* codes, Py_ssize_t n_rows, int n_features,
                     bint is_reg, int crit, const int32_t* n_bins, int missing_bin, int ns,
                     int n_val, double min_cnt, double min_w, double lam, double* scores,
                     int32_t* bins, uint8_t* mls, double* scratch,
                     int scratch_stride) noexcept nogil:
    """The fields of ``a`` that stay the same for every node of a tree (the data, the
    criterion, the leaf limits and the per-feature result buffers); the per-node fields
    are set by the caller. ``use_floor`` is True: the caller clears it where the scores
    of categorical features are replaced after the scan."""
    a.codes = codes
    a.n_rows = n_rows
    a.n_features = n_features
    a.is_reg = is_reg
    a.crit = crit
    a.n_bins = n_bins
    a.missing_bin = missing_bin
    a.ns = ns
    a.n_val = n_val
    a.min_cnt = min_cnt
    a.min_w = min_w
    a.lam = lam
    a.scores = scores
    a.bins = bins
    a.mls = mls
    a.scratch = scratch
    a.scratch_stride = scratch_stride
    a.use_floor = True
    a.rs = 0.0
    a.rs_seed = 0


cdef void _node_args(NodeArgs* a, const uint8_t[:, ::1] codes, const int32_t[::1] idx,
                     const double[::1] ow, const int32_t[::1] oc, const double[::1] owy,
                     bint is_reg, int crit, bint dense, Py_ssize_t start, Py_ssize_t end,
                     const int32_t[::1] n_bins, int missing_bin,
                     const double[:, :, ::1] parent_hist, double[:, :, ::1] small_hist,
                     double[:, :, ::1] large_hist, bint do_sub, const double[::1] small_tot,
                     const double[::1] large_tot, bint find_small, bint find_large,
                     double min_cnt, double min_w, double lam, double[:, ::1] scores,
                     int32_t[:, ::1] bins, uint8_t[:, ::1] mls, double[:, ::1] scratch):
    _tree_args(a, &codes[0, 0], codes.shape[1], codes.shape[0], is_reg, crit, &n_bins[0],
               missing_bin, small_hist.shape[2], small_tot.shape[0] - 1, min_cnt, min_w, lam,
               &scores[0, 0], &bins[0, 0], &mls[0, 0], &scratch[0, 0], scratch.shape[1])
    a.idx = &idx[0] if idx.shape[0] > 0 else NULL
    a.ow = &ow[0] if ow.shape[0] > 0 else NULL
    a.oc = &oc[0] if oc.shape[0] > 0 else NULL
    a.owy = &owy[0] if owy.shape[0] > 0 else NULL
    a.dense = dense
    a.start = start
    a.end = end
    a.parent_hist = _ptr3(parent_hist)
    a.small_hist = <double*>_ptr3(small_hist)
    a.large_hist = <double*>_ptr3(large_hist)
    a.do_sub = do_sub
    a.small_tot = &small_tot[0]
    a.large_tot = &large_tot[0]
    a.find_small = find_small
    a.find_large = find_large


cdef void _run_groups(NodeArgs* a, int n_threads) noexcept nogil:
    """:func:`_node_group` of every group of features, on ``n_threads`` threads."""
    cdef int g
    cdef int n_groups = (a.n_features + C_GROUP - 1) // C_GROUP
    if n_threads > 1 and n_groups > 1:
        for g in prange(n_groups, num_threads=n_threads, schedule="dynamic"):
            _node_group(g, a)
    else:
        for g in range(n_groups):
            _node_group(g, a)


def node_pair(const uint8_t[:, ::1] codes, const int32_t[::1] idx, const double[::1] ow,
              const int32_t[::1] oc, const double[::1] owy, bint is_reg, int crit,
              bint dense, Py_ssize_t start, Py_ssize_t end, const int32_t[::1] n_bins,
              int missing_bin, const double[:, :, ::1] parent_hist,
              double[:, :, ::1] small_hist, double[:, :, ::1] large_hist, bint do_sub,
              const double[::1] small_tot, const double[::1] large_tot, bint find_small,
              bint find_large, double min_cnt, double min_w, double[:, ::1] scores,
              int32_t[:, ::1] bins, uint8_t[:, ::1] mls, double[:, ::1] scratch,
              int n_threads=1, bint use_floor=True, double lam=0.0):
    """Build the histogram of ``idx[start:end]`` (the smaller child), derive the
    larger sibling by subtraction from the parent if ``do_sub``, and find the
    best split of each feature for the requested children (over groups of
    ``GROUP`` features, in parallel if ``n_threads > 1``).  ``dense``: the node
    is every row in order. ``use_floor``: a feature's scan may return ``-inf``
    where another feature of its group already scores higher (False where the
    scores of categorical features are replaced afterwards). ``lam``: the regression
    criterion's L2 penalty."""
    cdef NodeArgs a
    _node_args(&a, codes, idx, ow, oc, owy, is_reg, crit, dense, start, end, n_bins,
               missing_bin, parent_hist, small_hist, large_hist, do_sub, small_tot, large_tot,
               find_small, find_large, min_cnt, min_w, lam, scores, bins, mls, scratch)
    a.use_floor = use_floor
    with nogil:
        _run_groups(&a, n_threads)


# --------------------------------------------------------------------------
# Symmetric (oblivious) regression trees
# --------------------------------------------------------------------------
cdef inline double _sym_node(const double* cum, const double* miss, const double* tot,
                             bint has_cnt, bint has_miss, double min_cnt, double min_w,
                             double lam, double base, double tol, int* out_ml) noexcept nogil:
    """A node's score under the level's split at one bin: the better of its children's
    score ``S_L^2/(W_L+lam) + S_R^2/(W_R+lam)`` (missing values right, then left) and,
    when no valid split beats it by more than ``tol``, its own score ``base`` (the node
    stays a leaf). ``out_ml``: -1 (leaf), else whether missing values go left (the
    heavier side when none reached the node)."""
    cdef double best = base
    cdef int ml = -1
    cdef double wl, sl, wr, sr, cl, sc
    cdef int add
    for add in range(2 if has_miss else 1):
        wl = cum[0]
        sl = cum[1]
        if add:
            wl += miss[0]
            sl += miss[1]
        if has_cnt:
            cl = cum[2] + (miss[2] if add else 0.0)
            if cl < min_cnt or tot[2] - cl < min_cnt:
                continue
        wr = tot[0] - wl
        sr = tot[1] - sl
        if not _children_ok(wl, wr, min_w):
            continue
        sc = sl * sl / (wl + lam) + sr * sr / (wr + lam)
        if sc > best and sc - base > tol:
            best = sc
            ml = add if has_miss else (wl >= wr)
    out_ml[0] = ml
    return best


cdef inline double _sym_base(const double* tot, bint has_cnt, double min_cnt, double min_w,
                             double lam, double* node_min_w) noexcept nogil:
    """A node's own score, and (``node_min_w``) its least child weight (``min_w``, or
    ``min_cnt`` rows counted from the weights when the histograms have no counts)."""
    node_min_w[0] = min_w
    if min_cnt > 1.0 and not has_cnt:
        node_min_w[0] = _weight_for_count(tot, 2, True, min_cnt, min_w)
    return tot[1] * tot[1] / (tot[0] + lam) if tot[0] > 0.0 else 0.0


cdef void _sym_feature_add(const double** hp, const double** tp, const double* tol,
                           Py_ssize_t m, int f, Py_ssize_t hsz, int ns, bint has_cnt, int nb,
                           int missing_bin, double min_cnt, double min_w, double lam,
                           double* acc, int* used, double* scan) noexcept nogil:
    """Add the score changes of nodes ``0 .. m - 1`` (in order) at their non-empty bins of
    feature ``f`` to ``acc`` (see :func:`_sym_feature`); ``used`` (``nb + 4`` ints) and
    ``scan`` (``3 (nb + 4)`` doubles) are scratch."""
    cdef double cum[3]
    cdef const double* h
    cdef const double* tot
    cdef const double* miss
    cdef double base, mw, prev, val
    cdef bint has_miss
    cdef Py_ssize_t i
    cdef int b, j, s, ml, n_used
    for i in range(m):
        h = hp[i] + f * hsz
        tot = tp[i]
        miss = h + missing_bin * ns
        has_miss = not _bin_empty(miss, 2, has_cnt, True)
        base = _sym_base(tot, has_cnt, min_cnt, min_w, lam, &mw)
        if not has_cnt and not has_miss:  # the common case, vectorised
            rb_sym_node_scan(h, nb, tot[0], tot[1], mw, lam, base, tol[i], acc, used, scan,
                             scan + nb + 4, scan + 2 * (nb + 4))
            continue
        cum[0] = 0.0
        cum[1] = 0.0
        cum[2] = 0.0
        if has_cnt:  # a bin is empty where its count is 0
            n_used = 0
            for b in range(nb):
                if b == 0 or h[b * ns + 2] != 0.0:
                    used[n_used] = b
                    n_used += 1
        else:
            n_used = rb_used_bins(h, ns, nb, 1, used)
        prev = 0.0
        for j in range(n_used):
            b = used[j]
            for s in range(ns):
                cum[s] += h[b * ns + s]
            val = _sym_node(cum, miss, tot, has_cnt, has_miss, min_cnt, mw, lam, base, tol[i],
                            &ml)
            acc[b] += val - prev
            prev = val


cdef void _sym_feature_best(const double* acc, int nb, double* out_score,
                            int32_t* out_bin) noexcept nogil:
    """The best bin of a feature from its accumulated score changes ``acc`` (``nb >= 1``
    bins): one running sum over the bins, the lowest of equal sums."""
    cdef double run = acc[0]
    cdef double best = run
    cdef int b
    cdef int best_bin = 0
    for b in range(1, nb):
        run += acc[b]
        if run > best:
            best = run
            best_bin = b
    out_score[0] = best
    out_bin[0] = best_bin


cdef void _sym_feature(const double** hp, const double** tp, const double* tol, Py_ssize_t m,
                       int f, Py_ssize_t hsz, int ns, bint has_cnt, int nb, int missing_bin,
                       double min_cnt, double min_w, double lam, double* out_score,
                       int32_t* out_bin) noexcept nogil:
    """Feature ``f``'s best bin for a symmetric level (see :func:`symmetric_split`); node
    ``i``'s histogram starts at ``hp[i]`` and its totals at ``tp[i]``.

    A node's score is a step function of the bin (it changes only at its non-empty
    bins), so each node adds its changes at its non-empty bins only (``rb_used_bins``)
    and one running sum over the bins gives every bin's total: the work is the nodes'
    non-empty bins, not nodes times bins (a deep level has many small nodes).
    """
    cdef double* acc
    cdef double* scan
    cdef int* used
    out_score[0] = -INFINITY
    out_bin[0] = -1
    if nb <= 0:
        return
    acc = <double*>calloc(nb, sizeof(double))
    used = <int*>malloc((nb + 4) * sizeof(int))
    scan = <double*>malloc(3 * (nb + 4) * sizeof(double))
    if acc == NULL or used == NULL or scan == NULL:
        free(acc)
        free(used)
        free(scan)
        return
    _sym_feature_add(hp, tp, tol, m, f, hsz, ns, has_cnt, nb, missing_bin, min_cnt, min_w, lam,
                     acc, used, scan)
    free(used)
    free(scan)
    _sym_feature_best(acc, nb, out_score, out_bin)
    free(acc)


cdef inline uint64_t _splitmix64(uint64_t x) noexcept nogil:
    """SplitMix64's output function (Steele, Lea & Flood 2014): a well-mixed 64-bit value
    of ``x``."""
    x += <uint64_t>0x9E3779B97F4A7C15
    x = (x ^ (x >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    x = (x ^ (x >> 27)) * <uint64_t>0x94D049BB133111EB
    return x ^ (x >> 31)


DEF N_NORMALS = 4096  # the table of standard normal values the split noise draws from

cdef double _NORMALS[N_NORMALS]


cdef void _fill_normals() noexcept nogil:
    """``_NORMALS``: 4,096 standard normal values (Box-Muller on uniforms hashed from the
    index), filled once when the module loads."""
    cdef int i
    cdef uint64_t k1, k2
    cdef double u1, u2
    for i in range(N_NORMALS):
        k1 = _splitmix64(<uint64_t>(2 * i))
        k2 = _splitmix64(<uint64_t>(2 * i + 1))
        u1 = ((k1 >> 11) + 0.5) * (1.0 / 9007199254740992.0)
        u2 = ((k2 >> 11) + 0.5) * (1.0 / 9007199254740992.0)
        _NORMALS[i] = sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2)


_fill_normals()


cdef inline double _split_noise(uint64_t seed, int64_t level, int f, int b) noexcept nogil:
    """A standard normal value that depends only on ``(seed, level, f, b)``: an entry of
    ``_NORMALS`` chosen by a hash of them (a level scores thousands of candidates, so a
    table costs a hash where Box-Muller would cost a logarithm and a cosine), so that a
    split's noise does not depend on the threads or on the order of the candidates."""
    return _NORMALS[_splitmix64(seed ^ _splitmix64(
        (<uint64_t>level << 40) ^ (<uint64_t>f << 20) ^ <uint64_t>b)) >> 52]


cdef double _sym_no_split(const double** tp, Py_ssize_t m, bint has_cnt, double min_cnt,
                          double min_w, double lam) noexcept nogil:
    """The level's total score when no node is divided: the sum of its ``m`` nodes' own
    scores (:func:`_sym_base`), in node order."""
    cdef double total = 0.0
    cdef double mw
    cdef Py_ssize_t i
    for i in range(m):
        total += _sym_base(tp[i], has_cnt, min_cnt, min_w, lam, &mw)
    return total


cdef void _sym_noisy_choice(double* acc, Py_ssize_t stride, int nf, const int32_t* n_bins,
                            double strength, uint64_t seed, int64_t level, double no_split,
                            double* scores, int32_t* bins) noexcept nogil:
    """A symmetric level's split with random split scores (CatBoost's ``random_strength``,
    Prokhorenkova et al. 2018): from every feature's score changes ``acc + f * stride``
    (:func:`_sym_feature_add`, turned into each bin's total score here, in place), each
    candidate ``(f, b)`` scores its total plus ``strength × σ × ε``, ``σ`` the standard
    deviation of all the level's candidate totals and ``ε`` :func:`_split_noise`;
    ``scores[f]``/``bins[f]`` are each feature's best noisy score and its bin (the lowest
    of equal ones), -inf/-1 for a feature without such a bin. Only candidates whose total
    exceeds ``no_split`` (the level's score with no node divided, :func:`_sym_no_split`)
    compete: those divide a node, so the noise never picks a split that stops the tree.
    One thread, in feature and bin order: the result depends only on the scores and the
    seed. The shared multiclass trees (:func:`grow_shared_symmetric`) choose their levels'
    splits by it too, with or without noise."""
    cdef double total = 0.0
    cdef double sq = 0.0
    cdef double count = 0.0
    cdef double mean, sigma, run, val, best
    cdef double* row
    cdef int f, b, nb, best_bin
    for f in range(nf):
        nb = n_bins[f]
        row = acc + f * stride
        run = 0.0
        for b in range(nb):
            run += row[b]
            row[b] = run
            total += run
            count += 1.0
    if count <= 0.0:
        for f in range(nf):
            scores[f] = -INFINITY
            bins[f] = -1
        return
    mean = total / count
    for f in range(nf):
        row = acc + f * stride
        for b in range(n_bins[f]):
            sq += (row[b] - mean) * (row[b] - mean)
    sigma = strength * sqrt(sq / count)
    no_split += 1e-12 * fabs(no_split)  # (a total only rounding lifts above it divides none)
    for f in range(nf):
        nb = n_bins[f]
        row = acc + f * stride
        best = -INFINITY
        best_bin = -1
        for b in range(nb):
            if not row[b] > no_split:
                continue
            val = row[b] + sigma * _split_noise(seed, level, f, b)
            if val > best:
                best = val
                best_bin = b
        scores[f] = best
        bins[f] = best_bin


cdef void _sym_features_add(const double** hp, const double** tp, const double* tol,
                            Py_ssize_t m, int nf, const int32_t* n_bins, int missing_bin, int ns,
                            double min_cnt, double min_w, double lam, double* acc, int* used,
                            double* scan, int n_threads) noexcept nogil:
    """:func:`_sym_feature_add` of nodes ``0 .. m - 1`` for every feature (on ``n_threads``
    threads, one feature each), into ``acc + f (missing_bin + 1)``; ``used``/``scan``:
    ``missing_bin + 5`` ints and ``3 (missing_bin + 5)`` doubles of scratch per feature."""
    cdef Py_ssize_t hsz = (missing_bin + 1) * ns
    cdef bint has_cnt = ns > 2
    cdef int f
    if n_threads > 1 and nf > 1:
        for f in prange(nf, num_threads=n_threads, schedule="dynamic"):
            if n_bins[f] > 0:
                _sym_feature_add(hp, tp, tol, m, f, hsz, ns, has_cnt, n_bins[f], missing_bin,
                                 min_cnt, min_w, lam, acc + f * (missing_bin + 1),
                                 used + f * (missing_bin + 5), scan + 3 * f * (missing_bin + 5))
    else:
        for f in range(nf):
            if n_bins[f] > 0:
                _sym_feature_add(hp, tp, tol, m, f, hsz, ns, has_cnt, n_bins[f], missing_bin,
                                 min_cnt, min_w, lam, acc + f * (missing_bin + 1),
                                 used + f * (missing_bin + 5), scan + 3 * f * (missing_bin + 5))


cdef void _sym_noisy_level(const double** hp, const double** tp, const double* tol,
                           Py_ssize_t m, int nf, const int32_t* n_bins, int missing_bin, int ns,
                           double min_cnt, double min_w, double lam, double strength,
                           uint64_t seed, int64_t level, double* acc, int* used, double* scan,
                           double* scores, int32_t* bins, int n_threads) noexcept nogil:
    """:func:`_sym_level` with random split scores: every feature's score changes into
    ``acc`` (:func:`_sym_features_add`), then :func:`_sym_noisy_choice`."""
    cdef Py_ssize_t k
    for k in range(nf * (missing_bin + 1)):
        acc[k] = 0.0
    _sym_features_add(hp, tp, tol, m, nf, n_bins, missing_bin, ns, min_cnt, min_w, lam, acc,
                      used, scan, n_threads)
    _sym_noisy_choice(acc, missing_bin + 1, nf, n_bins, strength, seed, level,
                      _sym_no_split(tp, m, ns > 2, min_cnt, min_w, lam), scores, bins)


cdef void _sym_level(const double** hp, const double** tp, const double* tol, Py_ssize_t m,
                     int nf, const int32_t* n_bins, int missing_bin, int ns, double min_cnt,
                     double min_w, double lam, double* scores, int32_t* bins,
                     int n_threads) noexcept nogil:
    """:func:`_sym_feature` of every feature (on ``n_threads`` threads, one feature each)."""
    cdef Py_ssize_t hsz = (missing_bin + 1) * ns
    cdef bint has_cnt = ns > 2
    cdef int f
    if n_threads > 1 and nf > 1:
        for f in prange(nf, num_threads=n_threads, schedule="dynamic"):
            _sym_feature(hp, tp, tol, m, f, hsz, ns, has_cnt, n_bins[f], missing_bin,
                         min_cnt, min_w, lam, &scores[f], &bins[f])
    else:
        for f in range(nf):
            _sym_feature(hp, tp, tol, m, f, hsz, ns, has_cnt, n_bins[f], missing_bin,
                         min_cnt, min_w, lam, &scores[f], &bins[f])


cdef int _sym_choice(const double* hf, const double* tot, double tol, int b,
                     int missing_bin, int ns, double min_cnt, double min_w, double lam,
                     double* gain) noexcept nogil:
    """A node's choice under its level's split ``(f, b)`` as :func:`_sym_feature` scores it:
    -1 (it stays undivided; ``gain`` 0), else whether missing values go left (``gain``:
    the score the split adds). ``hf``: the node's histogram of feature ``f``."""
    cdef bint has_cnt = ns > 2
    cdef double cum[3]
    cdef const double* miss = hf + missing_bin * ns
    cdef double base, mw, sc
    cdef int c, s, ml
    base = _sym_base(tot, has_cnt, min_cnt, min_w, lam, &mw)
    cum[0] = 0.0
    cum[1] = 0.0
    cum[2] = 0.0
    for c in range(b + 1):
        for s in range(ns):
            cum[s] += hf[c * ns + s]
    sc = _sym_node(cum, miss, tot, has_cnt, not _bin_empty(miss, 2, has_cnt, True), min_cnt,
                   mw, lam, base, tol, &ml)
    gain[0] = sc - base if ml >= 0 else 0.0
    return ml


def symmetric_split(const double[:, :, :, ::1] hists, const double[:, ::1] tots,
                    const double[::1] tol, const int32_t[::1] n_bins, int missing_bin,
                    double min_cnt, double min_w, double lam, double[::1] scores,
                    int32_t[::1] bins, int n_threads=1, double strength=0.0,
                    uint64_t seed=0, int64_t level=0):
    """The best split of a symmetric tree's level, per feature.

    ``hists[i]`` is the regression histogram of the level's node ``i`` (weight, weighted
    target, and the count if present) and ``tots[i]`` its totals; one split (feature,
    bin) is shared by every node. For each feature, ``scores[f]`` is the highest sum over
    the nodes of :func:`_sym_node` (each node split there, or left undivided when that
    is no better by more than ``tol[i]``) and ``bins[f]`` its bin (the lowest of equal
    sums; -1 when the feature has no bin). The nodes are summed in order, one feature per
    thread, so the result does not depend on ``n_threads``. With ``strength > 0`` each
    candidate's score gets random noise keyed by ``(seed, level)``
    (:func:`_sym_noisy_choice`), and ``scores[f]`` is the feature's best noisy score.
    """
    cdef Py_ssize_t m = hists.shape[0]
    cdef int nf = hists.shape[1]
    cdef int ns = hists.shape[3]
    cdef Py_ssize_t i
    if (tots.shape[0] != m or tol.shape[0] != m or n_bins.shape[0] != nf
            or scores.shape[0] != nf or bins.shape[0] != nf or hists.shape[2] != missing_bin + 1
            or not 2 <= ns <= 3 or m == 0 or tots.shape[1] < 3):
        raise ValueError("symmetric_split: inconsistent shapes")
    cdef const double** hp = <const double**>malloc(m * sizeof(double*))
    cdef const double** tp = <const double**>malloc(m * sizeof(double*))
    if hp == NULL or tp == NULL:
        free(hp)
        free(tp)
        raise MemoryError()
    for i in range(m):
        hp[i] = &hists[i, 0, 0, 0]
        tp[i] = &tots[i, 0]
    cdef double* acc = NULL
    cdef int* used = NULL
    cdef double* scan = NULL
    if strength > 0.0:
        acc = <double*>malloc(nf * (missing_bin + 1) * sizeof(double))
        used = <int*>malloc(nf * (missing_bin + 5) * sizeof(int))
        scan = <double*>malloc(3 * nf * (missing_bin + 5) * sizeof(double))
        if acc == NULL or used == NULL or scan == NULL:
            free(acc)
            free(used)
            free(scan)
            free(hp)
            free(tp)
            raise MemoryError()
    with nogil:
        if strength > 0.0:
            _sym_noisy_level(hp, tp, &tol[0], m, nf, &n_bins[0], missing_bin, ns, min_cnt,
                             min_w, lam, strength, seed, level, acc, used, scan, &scores[0],
                             &bins[0], n_threads)
        else:
            _sym_level(hp, tp, &tol[0], m, nf, &n_bins[0], missing_bin, ns, min_cnt, min_w,
                       lam, &scores[0], &bins[0], n_threads)
    free(acc)
    free(used)
    free(scan)
    free(hp)
    free(tp)


def symmetric_nodes(const double[:, :, :, ::1] hists, const double[:, ::1] tots,
                    const double[::1] tol, int f, int b, int missing_bin, double min_cnt,
                    double min_w, double lam, int32_t[::1] out_ml, double[::1] out_gain):
    """Each node's choice under the level's split ``(f, b)`` (:func:`_sym_choice`):
    ``out_ml[i]`` -1 for a node left undivided, else whether missing values go left, and
    ``out_gain[i]`` the score gained by the split (0 when undivided)."""
    cdef Py_ssize_t m = hists.shape[0]
    cdef int ns = hists.shape[3]
    cdef Py_ssize_t i
    if (tots.shape[0] != m or tol.shape[0] != m or out_ml.shape[0] != m
            or out_gain.shape[0] != m or not 0 <= f < hists.shape[1]
            or not 0 <= b < missing_bin or hists.shape[2] != missing_bin + 1
            or not 2 <= ns <= 3 or tots.shape[1] < 3):
        raise ValueError("symmetric_nodes: inconsistent shapes or split")
    with nogil:
        for i in range(m):
            out_ml[i] = _sym_choice(&hists[i, f, 0, 0], &tots[i, 0], tol[i], b, missing_bin,
                                    ns, min_cnt, min_w, lam, &out_gain[i])


# --------------------------------------------------------------------------
# Categorical splits
# --------------------------------------------------------------------------
cdef double _categorical_split(const double* h, int ns, int nb, int missing_bin,
                               const double* tot, int n_val, bint has_cnt, bint is_reg,
                               int crit, double min_cnt, double min_w, double lam, double* cum,
                               uint8_t* left, int* out_k, bint* out_ml) noexcept nogil:
    """Best split of a categorical feature into a set of categories and the rest.

    LightGBM-style category partitioning (Ke et al. 2017; Fisher 1958): the
    non-empty categories (bins) of the node are ordered by their statistic (the
    mean target for regression, the share of class 1 for two classes; for K > 2
    classes each class's share in turn, keeping the best of the K orderings) and
    every prefix of that order is scored as a threshold split would be (with
    missing values on either side), by :func:`_best_split_feature`. Ties keep
    the lower category code first (a stable sort), so the result is
    deterministic.
    """
    cdef int b, m, q, r, o, k, s, n_orders, cls, bk
    cdef double w, kv, sc, best
    cdef bint ml
    cdef int best_k = -1
    cdef bint best_ml = False
    cdef int* present = <int*>malloc((nb + 1) * sizeof(int))
    cdef int* order = <int*>malloc((nb + 1) * sizeof(int))
    cdef int* best_order = <int*>malloc((nb + 1) * sizeof(int))
    cdef double* key = <double*>malloc((nb + 1) * sizeof(double))
    cdef double* h2 = <double*>malloc((missing_bin + 1) * ns * sizeof(double))
    cdef const double* hb
    m = 0
    for b in range(nb):
        left[b] = 0
        if not _bin_empty(h + b * ns, n_val, has_cnt, is_reg):
            present[m] = b
            m += 1
    best = -INFINITY
    if m >= 1:
        for q in range((missing_bin + 1) * ns):
            h2[q] = 0.0
        for s in range(ns):
            h2[missing_bin * ns + s] = h[missing_bin * ns + s]
        n_orders = 1 if (is_reg or n_val == 2) else n_val
        for o in range(n_orders):
            for q in range(m):
                hb = h + present[q] * ns
                if is_reg:
                    key[q] = hb[1] / hb[0] if hb[0] > 0.0 else 0.0
                else:
                    w = 0.0
                    for k in range(n_val):
                        w += hb[k]
                    cls = 1 if n_val == 2 else o
                    key[q] = hb[cls] / w if w > 0.0 else 0.0
            # stable insertion sort of 0..m-1 by key (a mergesort's order)
            for q in range(m):
                kv = key[q]
                r = q
                while r > 0 and key[order[r - 1]] > kv:
                    order[r] = order[r - 1]
                    r -= 1
                order[r] = q
            for q in range(m):
                for s in range(ns):
                    h2[q * ns + s] = h[present[order[q]] * ns + s]
            sc = _best_split_feature(h2, ns, m, missing_bin, tot, n_val, has_cnt, is_reg, crit,
                                     min_cnt, min_w, lam, -INFINITY, cum, &bk, &ml)
            if sc > best:
                best = sc
                best_k = bk
                best_ml = ml
                for q in range(m):
                    best_order[q] = present[order[q]]
        for q in range(best_k + 1):
            left[best_order[q]] = 1
    free(present)
    free(order)
    free(best_order)
    free(key)
    free(h2)
    out_k[0] = best_k
    out_ml[0] = best_ml
    return best


def categorical_splits(const double[:, :, ::1] hist, const int32_t[::1] cat_features,
                       const int32_t[::1] n_bins, int missing_bin, const double[::1] tot,
                       int crit, double min_cnt, double min_w, bint is_reg, double[::1] scores,
                       int32_t[::1] bins, uint8_t[::1] mls, uint8_t[:, ::1] left_sets,
                       double[:, ::1] scratch, double lam=0.0):
    """:func:`categorical_split` of every feature in ``cat_features`` from a node's
    histogram (shape ``(n_features, missing_bin + 1, n_stat)``), overwriting that
    feature's entries of ``scores``, ``bins`` and ``mls`` (one row of the grower's
    arrays) and writing its left set to ``left_sets[f]``."""
    cdef int n_val = tot.shape[0] - 1
    cdef int ns = hist.shape[2]
    cdef bint has_cnt = ns > n_val
    cdef int j, f, k
    cdef bint ml
    for j in range(cat_features.shape[0]):
        f = cat_features[j]
        scores[f] = _categorical_split(&hist[f, 0, 0], ns, n_bins[f], missing_bin, &tot[0],
                                       n_val, has_cnt, is_reg, crit, min_cnt, min_w, lam,
                                       &scratch[f, 0], &left_sets[f, 0], &k, &ml)
        bins[f] = k
        mls[f] = ml


# --------------------------------------------------------------------------
# Partition and totals
# --------------------------------------------------------------------------
cdef Py_ssize_t _partition_table(const uint8_t* row, int32_t* idx, double* ow, int32_t* oc,
                                 double* owy, bint is_reg, Py_ssize_t start, Py_ssize_t end,
                                 const uint8_t* table, int32_t* buf_i, double* buf_w,
                                 int32_t* buf_c, double* buf_y, double* left_tot,
                                 double* right_tot, int ns) noexcept nogil:
    cdef int cnt = ns - 1
    cdef int s
    cdef Py_ssize_t q, nl, nr, gi
    cdef int32_t i, k
    cdef double w, wl, wr, v, vl
    cdef int32_t* ids = idx + start
    cdef double* ws = ow + start
    cdef double* ys = NULL
    cdef int32_t* cs = NULL
    cdef double lw = 0.0, rw = 0.0, ly = 0.0, ry = 0.0
    for s in range(ns):
        left_tot[s] = 0.0
        right_tot[s] = 0.0
    if is_reg:
        ys = owy + start
    else:
        cs = oc + start
    nl = 0
    nr = 0
    # branch-free: write to both sides, advance one (the side is unpredictable); the
    # regression sums in locals (registers: the totals of nodes divided side by side
    # may share a cache line)
    for q in range(end - start):
        i = ids[q]
        gi = table[row[i]]
        w = ws[q]
        wl = w * gi
        wr = w - wl
        ids[nl] = i
        buf_i[nr] = i
        ws[nl] = w
        buf_w[nr] = w
        if is_reg:
            v = ys[q]
            ys[nl] = v
            buf_y[nr] = v
            vl = v * gi
            lw += wl
            rw += wr
            ly += vl
            ry += v - vl
        else:
            k = cs[q]
            cs[nl] = k
            buf_c[nr] = k
            left_tot[k] += wl
            right_tot[k] += wr
        nl += gi
        nr += 1 - gi
    for q in range(nr):
        ids[nl + q] = buf_i[q]
        ws[nl + q] = buf_w[q]
        if is_reg:
            ys[nl + q] = buf_y[q]
        else:
            cs[nl + q] = buf_c[q]
    if is_reg:
        left_tot[0] = lw
        right_tot[0] = rw
        left_tot[1] = ly
        right_tot[1] = ry
    left_tot[cnt] = nl
    right_tot[cnt] = nr
    return start + nl


cdef Py_ssize_t _partition(const uint8_t* row, int32_t* idx, double* ow, int32_t* oc,
                           double* owy, bint is_reg, Py_ssize_t start, Py_ssize_t end,
                           int split_bin, bint missing_left, int missing_bin, int32_t* buf_i,
                           double* buf_w, int32_t* buf_c, double* buf_y, double* left_tot,
                           double* right_tot, int ns) noexcept nogil:
    cdef uint8_t table[256]
    cdef int b
    for b in range(missing_bin):
        table[b] = b <= split_bin
    table[missing_bin] = missing_left
    return _partition_table(row, idx, ow, oc, owy, is_reg, start, end, table, buf_i, buf_w,
                            buf_c, buf_y, left_tot, right_tot, ns)


cdef inline int32_t* _iptr(int32_t[::1] a) noexcept nogil:
    return &a[0] if a.shape[0] > 0 else NULL


cdef inline double* _dptr(double[::1] a) noexcept nogil:
    return &a[0] if a.shape[0] > 0 else NULL


def partition(const uint8_t[:, ::1] codes, int32_t[::1] idx, double[::1] ow, int32_t[::1] oc,
              double[::1] owy, bint is_reg, Py_ssize_t start, Py_ssize_t end, int feat,
              int split_bin, bint missing_left, int missing_bin, int32_t[::1] buf_i,
              double[::1] buf_w, int32_t[::1] buf_c, double[::1] buf_y, double[::1] left_tot,
              double[::1] right_tot):
    """Stable in-place partition of ``idx[start:end]`` (and the node-ordered
    statistics) into left then right (left: code ``<= split_bin``, missing codes
    by ``missing_left``); also sums the children's statistics.

    Returns the position where the right child starts.
    """
    return _partition(&codes[feat, 0], _iptr(idx), _dptr(ow), _iptr(oc), _dptr(owy), is_reg,
                      start, end, split_bin, missing_left, missing_bin, _iptr(buf_i),
                      _dptr(buf_w), _iptr(buf_c), _dptr(buf_y), &left_tot[0], &right_tot[0],
                      left_tot.shape[0])


def partition_table(const uint8_t[:, ::1] codes, int32_t[::1] idx, double[::1] ow,
                    int32_t[::1] oc, double[::1] owy, bint is_reg, Py_ssize_t start,
                    Py_ssize_t end, int feat, const uint8_t[::1] table, int32_t[::1] buf_i,
                    double[::1] buf_w, int32_t[::1] buf_c, double[::1] buf_y,
                    double[::1] left_tot, double[::1] right_tot):
    """:func:`partition` for any split of the codes: a row goes left iff
    ``table[code]`` is 1 (``table`` has ``missing_bin + 1`` entries; categorical
    splits pass their set of left categories, plus the missing-value direction)."""
    return _partition_table(&codes[feat, 0], _iptr(idx), _dptr(ow), _iptr(oc), _dptr(owy),
                            is_reg, start, end, &table[0], _iptr(buf_i), _dptr(buf_w),
                            _iptr(buf_c), _dptr(buf_y), &left_tot[0], &right_tot[0],
                            left_tot.shape[0])


def leaves_of_partition(const int32_t[::1] idx, const int32_t[::1] children_left,
                        const int64_t[::1] starts, const int64_t[::1] ends, int32_t[::1] out):
    """``out[idx[starts[j]:ends[j]]] = j`` for every leaf ``j`` (``children_left[j] < 0``)
    of a grown tree whose node ``j`` holds the rows ``idx[starts[j]:ends[j]]``."""
    cdef Py_ssize_t m = children_left.shape[0]
    cdef Py_ssize_t j, q
    if starts.shape[0] < m or ends.shape[0] < m:
        raise ValueError("leaves_of_partition needs a start and an end for every node")
    with nogil:
        for j in range(m):
            if children_left[j] < 0:
                for q in range(starts[j], ends[j]):
                    out[idx[q]] = <int32_t>j


def regression_values(const double[:, ::1] tot, double ybar, double[::1] out,
                      double lam=0.0):
    """A regression tree's node values from its node totals ``(weight, weighted residual
    sum, count)``: ``tot[j, 1] / (tot[j, 0] + lam) + ybar``, and ``ybar`` for a node of
    no positive weight (one whose weight cancelled in a histogram subtraction)."""
    cdef Py_ssize_t m = tot.shape[0]
    cdef Py_ssize_t j
    if out.shape[0] != m or (m and tot.shape[1] < 2):
        raise ValueError("regression_values needs (weight, sum) totals and an output per node")
    with nogil:
        for j in range(m):
            out[j] = (tot[j, 1] / (tot[j, 0] + lam) if tot[j, 0] > 0.0 else 0.0) + ybar


def node_thresholds(const int32_t[::1] feature, const int32_t[::1] split_bin,
                    const int64_t[::1] thr_off, const double[::1] thr_flat,
                    const int32_t[::1] n_categories, double[::1] out):
    """The raw threshold of each node's split "code <= split_bin[j]" on ``feature[j]``:
    ``thr_flat[thr_off[f] + b]``, ``inf`` for a bin past the feature's last threshold,
    NaN for a leaf (``feature[j] < 0``) and for a categorical feature (set splits)."""
    cdef Py_ssize_t m = feature.shape[0]
    cdef Py_ssize_t j
    cdef int32_t f, b
    if split_bin.shape[0] != m or out.shape[0] != m:
        raise ValueError("node_thresholds needs a split bin and an output for every node")
    with nogil:
        for j in range(m):
            f = feature[j]
            b = split_bin[j]
            if f < 0 or n_categories[f] > 0:
                out[j] = NAN
            elif 0 <= b < thr_off[f + 1] - thr_off[f]:
                out[j] = thr_flat[thr_off[f] + b]
            else:
                out[j] = INFINITY


# --------------------------------------------------------------------------
# Prediction
# --------------------------------------------------------------------------
cdef inline int32_t _leaf_of_binned(const uint8_t* codes, Py_ssize_t n_rows,
                                    const int32_t* feature, const int32_t* split_bin,
                                    const uint8_t* missing_left, const int32_t* left,
                                    const int32_t* right, int missing_bin,
                                    Py_ssize_t i) noexcept nogil:
    cdef int32_t node = 0
    cdef int v
    cdef bint go_left
    while left[node] >= 0:
        v = codes[feature[node] * n_rows + i]
        if v == missing_bin:
            go_left = missing_left[node] != 0
        else:
            go_left = v <= split_bin[node]
        node = left[node] if go_left else right[node]
    return node


def apply_binned_rows(const uint8_t[:, ::1] codes, const int32_t[::1] feature,
                      const int32_t[::1] split_bin, const uint8_t[::1] missing_left,
                      const int32_t[::1] left, const int32_t[::1] right, int missing_bin,
                      const int32_t[::1] rows, int32_t[::1] out, int n_threads=1):
    """``out[r] = leaf of column r of codes`` for every ``r`` in ``rows`` (on ``n_threads``
    threads from ``PRED_CHUNK`` rows on: each row on its own, so the same result)."""
    cdef Py_ssize_t q
    cdef Py_ssize_t m = rows.shape[0]
    cdef int threads = n_threads if m >= PRED_CHUNK else 1
    with nogil:
        for q in prange(m, num_threads=max(1, threads), schedule="static"):
            out[rows[q]] = _leaf_of_binned(&codes[0, 0], codes.shape[1], &feature[0],
                                           &split_bin[0], &missing_left[0], &left[0],
                                           &right[0], missing_bin, rows[q])


def apply_binned(const uint8_t[:, ::1] codes, const int32_t[::1] feature,
                 const int32_t[::1] split_bin, const uint8_t[::1] missing_left,
                 const int32_t[::1] left, const int32_t[::1] right, int missing_bin,
                 int32_t[::1] out, int n_threads=1):
    """Leaf index of every column of ``codes`` (n_features, n_samples), in parallel
    over chunks of samples if ``n_threads > 1``."""
    cdef Py_ssize_t n = codes.shape[1]
    cdef Py_ssize_t n_chunks = (n + PRED_CHUNK - 1) // PRED_CHUNK
    cdef Py_ssize_t c, i, lo, hi
    if n == 0:
        return
    with nogil:
        for c in prange(n_chunks, num_threads=max(1, n_threads), schedule="static",
                        use_threads_if=n_threads > 1):
            lo = c * PRED_CHUNK
            hi = min(n, lo + PRED_CHUNK)
            for i in range(lo, hi):
                out[i] = _leaf_of_binned(&codes[0, 0], n, &feature[0], &split_bin[0],
                                         &missing_left[0], &left[0], &right[0], missing_bin,
                                         i)


cdef inline int32_t _leaf_of_raw(const floating[:, :] X, Py_ssize_t i, const int32_t* feature,
                                 const double* threshold, const uint8_t* missing_left,
                                 const int32_t* left, const int32_t* right) noexcept nogil:
    cdef int32_t node = 0
    cdef double x
    cdef bint go_left
    while left[node] >= 0:
        x = X[i, feature[node]]
        if isnan(x):
            go_left = missing_left[node] != 0
        else:
            go_left = x <= threshold[node]
        node = left[node] if go_left else right[node]
    return node


def apply_raw(const floating[:, :] X, const int32_t[::1] feature, const double[::1] threshold,
              const uint8_t[::1] missing_left, const int32_t[::1] left,
              const int32_t[::1] right, int32_t[::1] out, int n_threads=1):
    """Leaf index of every row of raw ``X``: left iff ``x <= threshold``; NaN follows
    ``missing_left``.  In parallel over chunks of rows if ``n_threads > 1``."""
    cdef Py_ssize_t n = X.shape[0]
    cdef Py_ssize_t n_chunks = (n + PRED_CHUNK - 1) // PRED_CHUNK
    cdef Py_ssize_t c, i, lo, hi
    if n == 0:
        return
    with nogil:
        for c in prange(n_chunks, num_threads=max(1, n_threads), schedule="static",
                        use_threads_if=n_threads > 1):
            lo = c * PRED_CHUNK
            hi = min(n, lo + PRED_CHUNK)
            for i in range(lo, hi):
                out[i] = _leaf_of_raw(X, i, &feature[0], &threshold[0], &missing_left[0],
                                      &left[0], &right[0])


# --------------------------------------------------------------------------
# Prediction with categorical splits
# --------------------------------------------------------------------------
def apply_binned_table(const uint8_t[:, ::1] codes, const int32_t[::1] feature,
                       const uint8_t[:, ::1] table, const int32_t[::1] left,
                       const int32_t[::1] right, const int32_t[::1] rows, int32_t[::1] out):
    """``out[r] = leaf of column r of codes`` for every ``r`` in ``rows``, for a tree
    given as routing tables: at node ``n`` a code ``c`` goes left iff ``table[n, c]``
    (see :meth:`~robust_boosting.trees.HistTree.routing_table`; any split kind)."""
    cdef Py_ssize_t q, i
    cdef int32_t node
    with nogil:
        for q in range(rows.shape[0]):
            i = rows[q]
            node = 0
            while left[node] >= 0:
                if table[node, codes[feature[node], i]]:
                    node = left[node]
                else:
                    node = right[node]
            out[i] = node


def apply_raw_cat(const floating[:, :] X, const int32_t[::1] feature,
                  const double[::1] threshold, const uint8_t[::1] missing_left,
                  const uint8_t[::1] is_cat, const uint8_t[:, ::1] bits,
                  const int32_t[::1] left, const int32_t[::1] right, int32_t[::1] out):
    """:func:`apply_raw` for a tree with categorical splits: a categorical
    feature's value is its category code (checked by the caller); code ``c`` goes
    left at node ``n`` iff bit ``c % 8`` of ``bits[n, c // 8]`` is set."""
    cdef Py_ssize_t i
    cdef int32_t node
    cdef double x
    cdef int64_t c
    cdef bint go_left
    with nogil:
        for i in range(X.shape[0]):
            node = 0
            while left[node] >= 0:
                x = X[i, feature[node]]
                if isnan(x):
                    go_left = missing_left[node] != 0
                elif is_cat[node]:
                    c = <int64_t>x
                    go_left = (bits[node, c >> 3] >> (c & 7)) & 1 != 0
                else:
                    go_left = x <= threshold[node]
                node = left[node] if go_left else right[node]
            out[i] = node


# --------------------------------------------------------------------------
# Batched growth (robust_boosting.trees.batched)
# --------------------------------------------------------------------------
cdef bint _can_split(const double* tot, int64_t depth, int64_t max_depth, int n_stat,
                     double min_cnt, double min_w, bint is_reg) noexcept nogil:
    """:meth:`_Grower._can_split`."""
    cdef double cnt, w
    cdef int n_pos, c
    if depth >= max_depth:
        return False
    cnt = tot[n_stat - 1]
    if cnt < 2 * min_cnt or cnt < 2:
        return False
    if is_reg:
        w = tot[0]
    else:
        n_pos = 0
        w = 0.0
        for c in range(n_stat - 1):
            if tot[c] > 0:
                n_pos += 1
            w += tot[c]
        if n_pos < 2:
            return False
    return w > 0 and w >= 2 * min_w


cdef double _pick(const double* scores, const int32_t* bins, const uint8_t* mls,
                  int n_features, const double* tot, int n_stat, int crit, bint is_reg,
                  double tol_scale, double cls_rtol, double reg_rtol, int64_t* p_split,
                  double* p_gain, Py_ssize_t node, double lam) noexcept nogil:
    """:meth:`_Grower._pick` for ``node`` from one score row; returns the gain or -1.

    A split is recorded as ``p_split[node] = (feature, bin, missing_left)``,
    ``p_gain[node] = gain``.
    """
    cdef int f = 0
    cdef int q
    cdef double sc, gain, tol, s
    cdef int c
    # numpy.argmax: the first maximum, or the first NaN
    for q in range(n_features):
        if isnan(scores[q]):
            f = q
            break
        if scores[q] > scores[f]:
            f = q
    sc = scores[f]
    if not isfinite(sc):
        return -1.0
    gain = sc - _node_score(tot, n_stat, crit, lam)
    if is_reg:
        tol = reg_rtol * tol_scale * tot[0]
    else:
        s = 0.0
        for c in range(n_stat - 1):
            s += tot[c]
        tol = cls_rtol * s
    if not gain > tol:
        return -1.0
    p_split[node * 3] = f
    p_split[node * 3 + 1] = bins[f]
    p_split[node * 3 + 2] = mls[f]
    p_gain[node] = gain
    return gain


cdef struct Tree:
    int32_t* left
    int32_t* right
    int32_t* feature
    int32_t* split_bin
    uint8_t* missing_left
    double* gain
    double* tot
    int32_t* depth
    int64_t* start
    int64_t* end


cdef inline void _new_node(Tree* t, Py_ssize_t nd, const double* tt, int n_stat, int32_t d,
                           int64_t a, int64_t z) noexcept nogil:
    cdef int s
    for s in range(n_stat):
        t.tot[nd * n_stat + s] = tt[s]
    t.depth[nd] = d
    t.start[nd] = a
    t.end[nd] = z
    t.left[nd] = -1
    t.right[nd] = -1


cdef inline int _node_threads(int64_t n_rows, int nf, int64_t total_bins, int n_scans,
                              int n_threads, int64_t min_work, int64_t scan_work) noexcept nogil:
    """Threads for a node's kernels, as :meth:`_Grower._run_kernel` decides: all when its
    work (one unit per row and feature, ``scan_work`` per bin scanned) reaches
    ``min_work``, else one."""
    if n_rows * nf + scan_work * total_bins * n_scans >= min_work:
        return n_threads
    return 1


cdef int64_t _divide(NodeArgs* a, Tree* t, Py_ssize_t node, Py_ssize_t lnode, int f, int b,
                     int ml, double gain, int32_t d, int32_t* idx, double* ow, int32_t* oc,
                     double* owy, int32_t* buf_i, double* buf_w, int32_t* buf_c,
                     double* buf_y, double* ltot, double* rtot, int n_stat) noexcept nogil:
    """:meth:`_Grower._divide` compiled: partition ``node``'s rows at bin ``b`` of feature
    ``f`` (missing values left if ``ml``), record the split (of gain ``gain``) and make its
    children ``lnode`` and ``lnode + 1`` at depth ``d``; returns the first row of the right
    child. ``ltot`` and ``rtot`` are scratch."""
    cdef int64_t s0 = t.start[node]
    cdef int64_t e0 = t.end[node]
    cdef int64_t mid = _partition(a.codes + f * a.n_rows, idx, ow, oc, owy, a.is_reg, s0, e0,
                                  b, ml != 0, a.missing_bin, buf_i, buf_w, buf_c, buf_y, ltot,
                                  rtot, n_stat)
    _new_node(t, lnode, ltot, n_stat, d, s0, mid)
    _new_node(t, lnode + 1, rtot, n_stat, d, mid, e0)
    t.left[node] = <int32_t>lnode
    t.right[node] = <int32_t>(lnode + 1)
    t.feature[node] = f
    t.split_bin[node] = b
    t.missing_left[node] = <uint8_t>ml
    t.gain[node] = gain
    return mid


cdef void _root_hist(NodeArgs* a, int32_t* idx, double* ow, int32_t* oc, double* owy,
                     Py_ssize_t n_act, bint dense, const double* d_ow, const int32_t* d_oc,
                     const double* d_owy, const double* root_tot, double* hist, bint find,
                     int n_threads, int64_t total_bins, int64_t min_work,
                     int64_t scan_work) noexcept nogil:
    """The root's histogram into ``hist``, and its best split of each feature if ``find``:
    every row in order (``dense``, the per-row statistics ``d_*``) or the active rows.
    Leaves ``a`` reading the partitioned row arrays (``idx``, ``ow``, ``oc``/``owy``)."""
    a.idx = idx
    if dense:
        a.ow = d_ow
        a.oc = d_oc
        a.owy = d_owy
        a.dense = True
        a.end = a.n_rows
    else:
        a.ow = ow
        a.oc = oc
        a.owy = owy
        a.dense = n_act == a.n_rows
        a.end = n_act
    a.start = 0
    a.parent_hist = NULL
    a.small_hist = hist
    a.large_hist = NULL
    a.do_sub = False
    a.small_tot = root_tot
    a.large_tot = root_tot
    a.find_small = find
    a.find_large = False
    _run_groups(a, _node_threads(a.end - a.start, a.n_features, total_bins, 1 if find else 0,
                                 n_threads, min_work, scan_work))
    a.ow = ow
    a.oc = oc
    a.owy = owy
    a.dense = False


cdef Py_ssize_t _grow_one(NodeArgs* a, int n_stat, int32_t* idx, double* ow, int32_t* oc,
                          double* owy, Py_ssize_t n_act, bint dense, const double* d_ow,
                          const int32_t* d_oc, const double* d_owy, const double* root_tot,
                          double tol_scale, int64_t max_depth, double cls_rtol,
                          double reg_rtol, double* pool, Py_ssize_t hist_size,
                          int32_t* buf_i, double* buf_w, int32_t* buf_c, double* buf_y,
                          Tree* t, Py_ssize_t max_nodes, int64_t max_leaves, int n_threads,
                          int64_t total_bins, int64_t min_work, int64_t scan_work) noexcept nogil:
    """Grow one tree as :meth:`_Grower.grow` does; returns its node count.

    Depth-first (``max_leaves < 0``: the last pushed candidate is split first) or
    best-first (split the candidate of largest gain, the smallest node id on ties,
    until ``max_leaves`` leaves). A node's kernels run on ``n_threads`` threads when
    its work is at least ``min_work``, else on one (:func:`_node_threads`).
    """
    cdef int nf = a.n_features
    cdef double* scores = a.scores
    cdef int64_t* p_split = <int64_t*>malloc(max_nodes * 3 * sizeof(int64_t))
    cdef double* p_gain = <double*>malloc(max_nodes * sizeof(double))
    cdef int64_t* stack = <int64_t*>malloc(max_nodes * sizeof(int64_t))
    cdef double* ltot = <double*>malloc(n_stat * sizeof(double))
    cdef double* rtot = <double*>malloc(n_stat * sizeof(double))
    # histogram slots of the pool: a node's histogram lives in slot_of[node] until its
    # children are built (the larger child's is subtracted in place, into the same slot);
    # freed slots are reused first, so only as many slots are touched as histograms are
    # alive at once (a few per level depth-first; the candidates best-first)
    cdef int32_t* slot_of = <int32_t*>malloc(max_nodes * sizeof(int32_t))
    cdef int32_t* free_slots = <int32_t*>malloc(max_nodes * sizeof(int32_t))
    cdef Py_ssize_t n_free = max_nodes
    cdef int32_t slot_p, slot_s
    cdef Py_ssize_t n_nodes = 1
    cdef Py_ssize_t top, node, lnode, rnode, small, large, q
    cdef int64_t s0, e0, mid, ss, se
    cdef int32_t d
    cdef bint find_l, find_r, small_is_left, find_s, find_g
    cdef double got_s, got_g, got_l, got_r
    cdef double min_cnt = a.min_cnt
    cdef double min_w = a.min_w
    cdef bint is_reg = a.is_reg
    cdef bint best_first = max_leaves >= 0
    cdef int64_t n_leaves = 1
    cdef Py_ssize_t pick_at
    for q in range(max_nodes):
        free_slots[q] = <int32_t>(max_nodes - 1 - q)  # slot 0 is taken first
    _new_node(t, 0, root_tot, n_stat, 0, 0, n_act)
    if not _can_split(root_tot, 0, max_depth, n_stat, min_cnt, min_w, is_reg):
        n_nodes = 1
    else:
        for q in range(2 * nf):
            scores[q] = -INFINITY
        n_free -= 1
        slot_of[0] = free_slots[n_free]
        _root_hist(a, idx, ow, oc, owy, n_act, dense, d_ow, d_oc, d_owy, root_tot,
                   pool + slot_of[0] * hist_size, True, n_threads, total_bins, min_work,
                   scan_work)
        top = 0
        if _pick(scores, a.bins, a.mls, nf, root_tot, n_stat, a.crit, is_reg, tol_scale,
                 cls_rtol, reg_rtol, p_split, p_gain, 0, a.lam) >= 0:
            stack[0] = 0
            top = 1
        while top > 0:
            if best_first:
                if n_leaves >= max_leaves:
                    break
                # the largest gain, the smallest node id on ties (the heap's order)
                pick_at = 0
                for q in range(1, top):
                    if p_gain[stack[q]] > p_gain[stack[pick_at]] or (
                            p_gain[stack[q]] == p_gain[stack[pick_at]]
                            and stack[q] < stack[pick_at]):
                        pick_at = q
                node = stack[pick_at]
                top -= 1
                stack[pick_at] = stack[top]
            else:
                top -= 1
                node = stack[top]
            s0 = t.start[node]
            e0 = t.end[node]
            d = t.depth[node] + 1
            lnode = n_nodes
            rnode = n_nodes + 1
            n_nodes += 2
            mid = _divide(a, t, node, lnode, <int>p_split[node * 3], <int>p_split[node * 3 + 1],
                          <int>p_split[node * 3 + 2], p_gain[node], d, idx, ow, oc, owy,
                          buf_i, buf_w, buf_c, buf_y, ltot, rtot, n_stat)
            n_leaves += 1
            find_l = _can_split(t.tot + lnode * n_stat, d, max_depth, n_stat, min_cnt, min_w,
                                is_reg)
            find_r = _can_split(t.tot + rnode * n_stat, d, max_depth, n_stat, min_cnt, min_w,
                                is_reg)
            if best_first and n_leaves >= max_leaves:
                find_l = False
                find_r = False
            slot_p = slot_of[node]
            if not (find_l or find_r):
                free_slots[n_free] = slot_p
                n_free += 1
                continue
            small_is_left = (mid - s0) <= (e0 - mid)
            if small_is_left:
                small = lnode
                large = rnode
                ss = s0
                se = mid
                find_s = find_l
                find_g = find_r
            else:
                small = rnode
                large = lnode
                ss = mid
                se = e0
                find_s = find_r
                find_g = find_l
            for q in range(2 * nf):
                scores[q] = -INFINITY
            a.start = ss
            a.end = se
            n_free -= 1
            slot_s = free_slots[n_free]
            a.parent_hist = pool + slot_p * hist_size
            a.small_hist = pool + slot_s * hist_size
            a.large_hist = pool + slot_p * hist_size if find_g else NULL  # in place
            a.do_sub = find_g
            a.small_tot = t.tot + small * n_stat
            a.large_tot = t.tot + large * n_stat
            a.find_small = find_s
            a.find_large = find_g
            _run_groups(a, _node_threads(se - ss, nf, total_bins, <int>find_s + <int>find_g,
                                         n_threads, min_work, scan_work))
            got_s = -1.0
            got_g = -1.0
            if find_s:
                got_s = _pick(scores, a.bins, a.mls, nf, t.tot + small * n_stat, n_stat,
                              a.crit, is_reg, tol_scale, cls_rtol, reg_rtol, p_split, p_gain,
                              small, a.lam)
            if find_g:
                got_g = _pick(scores + nf, a.bins + nf, a.mls + nf, nf,
                              t.tot + large * n_stat, n_stat, a.crit, is_reg, tol_scale,
                              cls_rtol, reg_rtol, p_split, p_gain, large, a.lam)
            # a child that is not a candidate gives its slot back (the parent's is the
            # larger child's)
            slot_of[small] = slot_s
            slot_of[large] = slot_p
            if got_s < 0:
                free_slots[n_free] = slot_s
                n_free += 1
            if got_g < 0:
                free_slots[n_free] = slot_p
                n_free += 1
            # push the left child, then the right one (popped first), as _Grower.grow does
            got_l = got_s if small_is_left else got_g
            got_r = got_g if small_is_left else got_s
            if got_l >= 0:
                stack[top] = lnode
                top += 1
            if got_r >= 0:
                stack[top] = rnode
                top += 1
    free(slot_of)
    free(free_slots)
    free(p_split)
    free(p_gain)
    free(stack)
    free(ltot)
    free(rtot)
    return n_nodes


cdef void _sym_divide(const NodeArgs* a0, Tree* t, Py_ssize_t node, Py_ssize_t lnode, int f,
                      int b, int ml, double gain, int32_t d, int32_t* idx, double* ow,
                      double* owy, int32_t* buf_i, double* buf_w, int32_t* buf_c,
                      double* buf_y, double* tots, int n_stat, bint last, double* pool,
                      Py_ssize_t hist_size, int32_t* slot_of, int32_t slot_s, int32_t slot_l,
                      int n_threads, int64_t total_bins, int64_t min_work,
                      int64_t scan_work) noexcept nogil:
    """Divide ``node`` of a symmetric level at the level's split ``(f, b)``: partition its
    rows, make its children ``lnode`` and ``lnode + 1`` (:func:`_divide`) and, unless the
    level is the ``last``, histogram the smaller child into the pool's slot ``slot_s`` and
    subtract the larger one into slot ``slot_l`` (the parent's own: in place), on
    ``n_threads`` threads when the node's work is large enough. Touches only the node's
    rows (of the row arrays and of the ``buf_*`` scratch), its children's records and
    ``tots`` (``2 n_stat``), so the nodes of a level can be divided side by side."""
    cdef NodeArgs a = a0[0]
    cdef int64_t s0 = t.start[node]
    cdef int64_t e0 = t.end[node]
    cdef int32_t slot_p = slot_of[node]
    cdef Py_ssize_t small, large
    cdef int64_t mid = _divide(&a, t, node, lnode, f, b, ml, gain, d, idx, ow, NULL, owy,
                               buf_i + s0, buf_w + s0, buf_c + s0, buf_y + s0, tots,
                               tots + n_stat, n_stat)
    if last:
        return
    if (mid - s0) <= (e0 - mid):
        small = lnode
        large = lnode + 1
        a.start = s0
        a.end = mid
    else:
        small = lnode + 1
        large = lnode
        a.start = mid
        a.end = e0
    a.parent_hist = pool + slot_p * hist_size
    a.small_hist = pool + slot_s * hist_size
    a.large_hist = pool + slot_l * hist_size
    a.do_sub = True
    a.small_tot = t.tot + small * n_stat
    a.large_tot = t.tot + large * n_stat
    _run_groups(&a, _node_threads(a.end - a.start, a.n_features, total_bins, 0, n_threads,
                                  min_work, scan_work))
    slot_of[small] = slot_s
    slot_of[large] = slot_l


#: a symmetric level's nodes are divided side by side (one per thread, serial kernels)
#: once there are this many per thread; fewer, larger nodes run one after the other with
#: their kernels threaded
DEF SYM_NODES_PER_THREAD = 2
#: the level before a symmetric tree's last is divided in chunks of this many nodes per
#: thread, each chunk's children histogrammed into scratch slots and scanned before the
#: next chunk (:func:`_sym_stream`)
DEF SYM_CHUNK_PER_THREAD = 4


cdef void _sym_divide_nodes(const NodeArgs* a, Tree* t, const int64_t* lvl,
                            const Py_ssize_t* div, const int* mlv, const double* gains,
                            Py_ssize_t q0, Py_ssize_t q1, Py_ssize_t n_nodes, int f, int b,
                            int64_t d, int32_t* idx, double* ow, double* owy, int32_t* buf_i,
                            double* buf_w, int32_t* buf_c, double* buf_y, double* tots,
                            int n_stat, bint last, double* pool, Py_ssize_t hist_size,
                            int32_t* slot_of, const int32_t* pair_slots, int n_threads,
                            int64_t total_bins, int64_t min_work,
                            int64_t scan_work) noexcept nogil:
    """:func:`_sym_divide` of a level's divided nodes ``div[q0:q1]`` (node ``lvl[div[q]]``,
    children ``n_nodes + 2q`` and ``+ 1``): its smaller child's histogram into slot
    ``pair_slots[2 (q - q0)]``, its larger one's into ``pair_slots[2 (q - q0) + 1]``, its
    scratch ``tots`` at ``2 (q - q0) n_stat``. At least ``SYM_NODES_PER_THREAD`` nodes per
    thread are divided side by side, one per thread with serial kernels; fewer one after
    the other with threaded kernels (each node's work the same either way).

    Two loops, not one prange with a team of one for few nodes: inside such a team the
    nodes' own threaded kernels would run serially (nested regions; a depth-8 fit took
    1.6-2x the time)."""
    cdef Py_ssize_t q
    if n_threads > 1 and q1 - q0 >= SYM_NODES_PER_THREAD * n_threads:
        for q in prange(q0, q1, num_threads=n_threads, schedule="dynamic"):
            _sym_divide(a, t, lvl[div[q]], n_nodes + 2 * q, f, b, mlv[div[q]], gains[div[q]],
                        <int32_t>d, idx, ow, owy, buf_i, buf_w, buf_c, buf_y,
                        tots + 2 * (q - q0) * n_stat, n_stat, last, pool, hist_size, slot_of,
                        pair_slots[2 * (q - q0)], pair_slots[2 * (q - q0) + 1], 1, total_bins,
                        min_work, scan_work)
    else:
        for q in range(q0, q1):
            _sym_divide(a, t, lvl[div[q]], n_nodes + 2 * q, f, b, mlv[div[q]], gains[div[q]],
                        <int32_t>d, idx, ow, owy, buf_i, buf_w, buf_c, buf_y,
                        tots + 2 * (q - q0) * n_stat, n_stat, last, pool, hist_size, slot_of,
                        pair_slots[2 * (q - q0)], pair_slots[2 * (q - q0) + 1], n_threads,
                        total_bins, min_work, scan_work)


cdef Py_ssize_t _sym_pool_slots(int64_t max_depth, int n_threads) noexcept nogil:
    """Histogram slots a symmetric tree of ``max_depth`` needs (:func:`_grow_sym`): the
    root's alone at depth 1; else the level before the last's ``2^(max_depth - 2)`` and
    the scratch of :func:`_sym_stream` (two per chunk node, at least one chunk node;
    never more than the ``2^(max_depth - 1)`` of every level kept)."""
    cdef Py_ssize_t level, stream
    if max_depth <= 1:
        return 1
    level = <Py_ssize_t>1 << (max_depth - 2)
    stream = 2 * SYM_CHUNK_PER_THREAD * n_threads
    return max(level + 2, min(2 * level, level + stream))


cdef Py_ssize_t _sym_stream(NodeArgs* a, Tree* t, int n_stat, int32_t* idx, double* ow,
                            double* owy, int32_t* buf_i, double* buf_w, int32_t* buf_c,
                            double* buf_y, double* tots, double* pool, Py_ssize_t hist_size,
                            int32_t* slot_of, int32_t* free_slots, Py_ssize_t* n_free,
                            int64_t* lvl, Py_ssize_t m, const int* mlv, const double* gains,
                            const Py_ssize_t* div, Py_ssize_t n_div, int f, int b, int64_t d,
                            int64_t max_depth, Py_ssize_t n_nodes, double reg_rtol,
                            double tol_scale, int64_t* nxt, const double** hp,
                            const double** tp, double* tol, int64_t* par, int64_t* small_of,
                            double* acc, int* used, double* scan, double* fscore,
                            int32_t* fbin, int n_threads, int64_t total_bins, int64_t min_work,
                            int64_t scan_work) noexcept nogil:
    """Divide the level before a symmetric tree's last (its ``m`` nodes ``lvl``, the
    divided ones ``div``) and score the last level's split, without keeping the last
    level's histograms: returns the last level's node count (its nodes into ``lvl``, their
    totals ``tp`` and tolerances ``tol``, ``fscore``/``fbin`` as :func:`_sym_level` gives
    them), -1 when the pool has no two free slots.

    The divided nodes go in chunks of ``SYM_CHUNK_PER_THREAD`` per thread: each chunk's
    children are histogrammed into scratch slots (the parents keep theirs), and the
    last level's nodes so far are added to every feature's score changes ``acc`` in their
    order (:func:`_sym_feature_add`), which is the order :func:`_sym_level` adds them in:
    the same sums. A child's histogram is then dropped (``slot_of`` -1; ``par`` its parent,
    ``small_of`` the parent's smaller child): its one feature the last level needs is
    rebuilt exactly (:func:`_sym_rebuilt`). The pool needs the level's slots and two per
    chunk node, not one per last-level node: 80 slots instead of 128 at depth 8 on two
    threads.
    """
    cdef int nf = a.n_features
    cdef int ns = a.ns
    cdef int mb = a.missing_bin
    cdef Py_ssize_t chunk = SYM_CHUNK_PER_THREAD * n_threads
    cdef Py_ssize_t nm = 0
    cdef Py_ssize_t i_cur = 0
    cdef Py_ssize_t q0 = 0
    cdef Py_ssize_t q1, q, i, i_end, k, m0
    cdef int64_t node, c
    cdef int f2, lvl_threads
    cdef int32_t* sc
    if 2 * chunk > n_free[0]:
        chunk = n_free[0] // 2
    if chunk < 1:
        return -1
    sc = <int32_t*>malloc(2 * chunk * sizeof(int32_t))  # taken for the stream, given back
    if sc == NULL:
        return -1
    n_free[0] -= 2 * chunk
    for k in range(2 * chunk):
        sc[k] = free_slots[n_free[0] + k]
    for k in range(nf * (mb + 1)):
        acc[k] = 0.0
    lvl_threads = n_threads if 2 * n_div * total_bins * scan_work >= min_work else 1
    while q0 < n_div:
        q1 = q0 + chunk if q0 + chunk < n_div else n_div
        _sym_divide_nodes(a, t, lvl, div, mlv, gains, q0, q1, n_nodes, f, b, d, idx, ow, owy,
                          buf_i, buf_w, buf_c, buf_y, tots, n_stat, False, pool, hist_size,
                          slot_of, sc, n_threads, total_bins, min_work, scan_work)
        # the last level's nodes up to the chunk's last divided node (the last chunk: to
        # the level's end), in order: an undivided node with its own histogram, a divided
        # one's children with theirs in the scratch slots
        m0 = nm
        i_end = div[q1 - 1] + 1 if q1 < n_div else m
        q = q0
        for i in range(i_cur, i_end):
            node = lvl[i]
            if mlv[i] < 0:
                if _can_split(t.tot + node * n_stat, d, max_depth, n_stat, a.min_cnt, a.min_w,
                              True):
                    nxt[nm] = node
                    nm += 1
                else:
                    free_slots[n_free[0]] = slot_of[node]
                    n_free[0] += 1
                continue
            small_of[node] = n_nodes + 2 * q if slot_of[n_nodes + 2 * q] == sc[2 * (q - q0)] \
                else n_nodes + 2 * q + 1
            for c in range(n_nodes + 2 * q, n_nodes + 2 * q + 2):
                par[c] = node
                if _can_split(t.tot + c * n_stat, d, max_depth, n_stat, a.min_cnt, a.min_w,
                              True):
                    nxt[nm] = c
                    nm += 1
            q += 1
        i_cur = i_end
        for k in range(m0, nm):
            hp[k] = pool + slot_of[nxt[k]] * hist_size
            tp[k] = t.tot + nxt[k] * n_stat
            tol[k] = reg_rtol * tol_scale * tp[k][0]
        if nm > m0:
            _sym_features_add(hp + m0, tp + m0, tol + m0, nm - m0, nf, a.n_bins, mb, ns,
                              a.min_cnt, a.min_w, a.lam, acc, used, scan, lvl_threads)
        for c in range(n_nodes + 2 * q0, n_nodes + 2 * q1):  # the scratch is reused
            slot_of[c] = -1
        q0 = q1
    if a.rs > 0.0:  # the last level is level d + 1
        _sym_noisy_choice(acc, mb + 1, nf, a.n_bins, a.rs, a.rs_seed, d + 1,
                          _sym_no_split(tp, nm, ns > 2, a.min_cnt, a.min_w, a.lam), fscore, fbin)
    else:
        for f2 in range(nf):
            if a.n_bins[f2] > 0:
                _sym_feature_best(acc + f2 * (mb + 1), a.n_bins[f2], &fscore[f2], &fbin[f2])
            else:
                fscore[f2] = -INFINITY
                fbin[f2] = -1
    for k in range(2 * chunk):
        free_slots[n_free[0]] = sc[k]
        n_free[0] += 1
    free(sc)
    for k in range(nm):
        lvl[k] = nxt[k]
    return nm


cdef const double* _sym_rebuilt(const NodeArgs* a, Tree* t, int64_t node, int64_t small,
                                int f, const double* parent, double* grp,
                                double* spare, double* large, bint fresh) noexcept nogil:
    """Feature ``f``'s histogram of ``node``, whose histogram :func:`_sym_stream` dropped,
    exactly as it was: its parent's smaller child ``small``'s histograms of ``f``'s group
    of features built by the same call over the same rows (into ``grp``), the larger
    child's by the same subtraction from the parent's (``parent``: its feature ``f``)
    into ``large``. ``fresh``: ``grp`` and ``large`` do not yet hold this parent's."""
    cdef int mb = a.missing_bin
    cdef int ns = a.ns
    cdef Py_ssize_t hsz = (mb + 1) * ns
    cdef bint has_cnt = ns > a.n_val
    cdef int f0 = C_GROUP * (f // C_GROUP)
    cdef const double* sh = grp + (f - f0) * hsz
    if fresh:
        # the group's features from f0 on, as _node_group builds them (feature f0 first)
        _build_hist_group(0, a.codes + f0 * a.n_rows, a.n_rows, a.n_features - f0, a.idx,
                          a.ow, a.oc, a.owy, a.is_reg, has_cnt, a.dense, t.start[small],
                          t.end[small], a.n_bins + f0, mb, grp, ns, spare)
        _subtract_bins(parent, sh, large, a.n_bins[f], ns, has_cnt, a.is_reg)
        _subtract_bins(parent + mb * ns, sh + mb * ns, large + mb * ns, 1, ns, has_cnt,
                       a.is_reg)
    return sh if node == small else large


cdef Py_ssize_t _grow_sym(NodeArgs* a, int n_stat, int32_t* idx, double* ow, double* owy,
                          Py_ssize_t n_act, bint dense, const double* d_ow, const double* d_owy,
                          const double* root_tot, double tol_scale, int64_t max_depth,
                          double reg_rtol, double* pool, Py_ssize_t n_slots,
                          Py_ssize_t hist_size, int32_t* buf_i,
                          double* buf_w, int32_t* buf_c, double* buf_y, Tree* t,
                          Py_ssize_t max_nodes, int n_threads, int64_t total_bins,
                          int64_t min_work, int64_t scan_work) noexcept nogil:
    """Grow one symmetric regression tree as :meth:`_SymmetricGrower.grow` does; returns
    its node count (0 when out of memory).

    Level by level: the level's split from :func:`_sym_level`, each node's choice from
    :func:`_sym_choice`; each divided node's rows are partitioned, its smaller child is
    histogrammed and the larger one subtracted in place (into the parent's pool slot)
    (:func:`_sym_divide`); an undivided node keeps its slot for the next level. A level of
    at least ``SYM_NODES_PER_THREAD * n_threads`` divided nodes divides them side by side,
    one per thread; each node's work is the same either way, so the tree does not depend
    on ``n_threads``. The level before the last is divided and the last one scored
    without keeping the last level's histograms (:func:`_sym_stream`; the nodes' choices
    rebuild the one feature they need, :func:`_sym_rebuilt`), so the pool needs
    ``2^(max_depth - 2)`` slots and two per chunk node (``2 SYM_CHUNK_PER_THREAD
    n_threads``) rather than ``2^(max_depth - 1)``.
    """
    cdef int nf = a.n_features
    cdef int ns = a.ns
    cdef int mb = a.missing_bin
    cdef Py_ssize_t hsz = (mb + 1) * ns
    cdef int64_t* lvl = <int64_t*>malloc(max_nodes * sizeof(int64_t))
    cdef int64_t* nxt = <int64_t*>malloc(max_nodes * sizeof(int64_t))
    cdef int32_t* slot_of = <int32_t*>malloc(max_nodes * sizeof(int32_t))
    cdef int32_t* free_slots = <int32_t*>malloc(n_slots * sizeof(int32_t))
    cdef const double** hp = <const double**>malloc(max_nodes * sizeof(double*))
    cdef const double** tp = <const double**>malloc(max_nodes * sizeof(double*))
    cdef double* tol = <double*>malloc(max_nodes * sizeof(double))
    cdef int* mlv = <int*>malloc(max_nodes * sizeof(int))
    cdef double* gains = <double*>malloc(max_nodes * sizeof(double))
    cdef Py_ssize_t* div = <Py_ssize_t*>malloc(max_nodes * sizeof(Py_ssize_t))
    cdef double* tots = <double*>malloc(max_nodes * 2 * n_stat * sizeof(double))
    cdef double* fscore = <double*>malloc(nf * sizeof(double))
    cdef int32_t* fbin = <int32_t*>malloc(nf * sizeof(int32_t))
    # the stream's buffers (the level before the last)
    cdef int64_t* par = <int64_t*>malloc(max_nodes * sizeof(int64_t))
    cdef int64_t* small_of = <int64_t*>malloc(max_nodes * sizeof(int64_t))
    cdef double* acc = <double*>malloc(nf * (mb + 1) * sizeof(double))
    cdef int* sused = <int*>malloc(nf * (mb + 5) * sizeof(int))
    cdef double* sscan = <double*>malloc(3 * nf * (mb + 5) * sizeof(double))
    cdef double* grp = <double*>malloc((2 * C_GROUP) * hsz * sizeof(double))
    cdef double* large = <double*>malloc(hsz * sizeof(double))
    cdef int32_t* pair_slots = <int32_t*>malloc(2 * max_nodes * sizeof(int32_t))
    cdef Py_ssize_t n_free = n_slots
    cdef Py_ssize_t n_nodes = 1
    cdef Py_ssize_t m, nm, i, q, n_div
    cdef int64_t d, p, cur_p
    cdef int f, b, lvl_threads
    cdef bint last
    cdef bint streamed = False
    cdef const double* hf
    if (lvl == NULL or nxt == NULL or slot_of == NULL or free_slots == NULL or hp == NULL
            or tp == NULL or tol == NULL or mlv == NULL or gains == NULL or div == NULL
            or tots == NULL or fscore == NULL or fbin == NULL or par == NULL
            or small_of == NULL or acc == NULL or sused == NULL or sscan == NULL
            or grp == NULL or large == NULL or pair_slots == NULL or n_slots < 1):
        n_nodes = 0
    else:
        for q in range(n_slots):
            free_slots[q] = <int32_t>(n_slots - 1 - q)
        _new_node(t, 0, root_tot, n_stat, 0, 0, n_act)
        if _can_split(root_tot, 0, max_depth, n_stat, a.min_cnt, a.min_w, True):
            n_free -= 1
            slot_of[0] = free_slots[n_free]
            _root_hist(a, idx, ow, NULL, owy, n_act, dense, d_ow, NULL, d_owy, root_tot,
                       pool + slot_of[0] * hist_size, False, n_threads, total_bins, min_work,
                       scan_work)
            lvl[0] = 0
            m = 1
            d = 1
            while d <= max_depth and m > 0:
                if not streamed:  # (the stream has scored the last level)
                    for i in range(m):
                        hp[i] = pool + slot_of[lvl[i]] * hist_size
                        tp[i] = t.tot + lvl[i] * n_stat
                        tol[i] = reg_rtol * tol_scale * tp[i][0]
                    lvl_threads = n_threads if m * total_bins * scan_work >= min_work else 1
                    if a.rs > 0.0:
                        _sym_noisy_level(hp, tp, tol, m, nf, a.n_bins, a.missing_bin, ns,
                                         a.min_cnt, a.min_w, a.lam, a.rs, a.rs_seed, d, acc,
                                         sused, sscan, fscore, fbin, lvl_threads)
                    else:
                        _sym_level(hp, tp, tol, m, nf, a.n_bins, a.missing_bin, ns, a.min_cnt,
                                   a.min_w, a.lam, fscore, fbin, lvl_threads)
                # numpy.argmax: the first maximum, or the first NaN
                f = 0
                for q in range(nf):
                    if isnan(fscore[q]):
                        f = <int>q
                        break
                    if fscore[q] > fscore[f]:
                        f = <int>q
                if not isfinite(fscore[f]) or fbin[f] < 0:
                    break
                b = fbin[f]
                n_div = 0
                cur_p = -1
                for i in range(m):
                    if streamed and slot_of[lvl[i]] < 0:
                        p = par[lvl[i]]
                        hf = _sym_rebuilt(a, t, lvl[i], small_of[p], f,
                                          pool + slot_of[p] * hist_size + f * hsz, grp,
                                          grp + C_GROUP * hsz, large, p != cur_p)
                        cur_p = p
                    else:
                        hf = pool + slot_of[lvl[i]] * hist_size + f * hsz
                    mlv[i] = _sym_choice(hf, tp[i], tol[i], b, a.missing_bin, ns,
                                         a.min_cnt, a.min_w, a.lam, &gains[i])
                    if mlv[i] >= 0:
                        div[n_div] = i
                        n_div += 1
                if n_div == 0:
                    break
                last = d == max_depth
                if d == max_depth - 1:
                    nm = _sym_stream(a, t, n_stat, idx, ow, owy, buf_i, buf_w, buf_c, buf_y,
                                     tots, pool, hist_size, slot_of, free_slots, &n_free, lvl,
                                     m, mlv, gains, div, n_div, f, b, d, max_depth, n_nodes,
                                     reg_rtol, tol_scale, nxt, hp, tp, tol, par, small_of, acc,
                                     sused, sscan, fscore, fbin, n_threads, total_bins,
                                     min_work, scan_work)
                    if nm < 0:  # the pool is too small (never expected)
                        n_nodes = 0
                        break
                    n_nodes += 2 * n_div
                    m = nm
                    streamed = True
                    d += 1
                    continue
                if not last and n_free < n_div:  # the pool is too small (never expected)
                    n_nodes = 0
                    break
                # the q-th divided node: children n_nodes + 2q and + 1, its smaller child in
                # the slot free_slots[n_free - 1 - q], the larger in its own (in place)
                for q in range(n_div):
                    pair_slots[2 * q] = -1 if last else free_slots[n_free - 1 - q]
                    pair_slots[2 * q + 1] = slot_of[lvl[div[q]]]
                _sym_divide_nodes(a, t, lvl, div, mlv, gains, 0, n_div, n_nodes, f, b, d, idx,
                                  ow, owy, buf_i, buf_w, buf_c, buf_y, tots, n_stat, last, pool,
                                  hist_size, slot_of, pair_slots, n_threads, total_bins,
                                  min_work, scan_work)
                if last:
                    n_nodes += 2 * n_div
                    break
                n_free -= n_div
                nm = 0
                q = 0
                for i in range(m):
                    if mlv[i] < 0:
                        nxt[nm] = lvl[i]
                        nm += 1
                    else:
                        nxt[nm] = n_nodes + 2 * q
                        nxt[nm + 1] = n_nodes + 2 * q + 1
                        nm += 2
                        q += 1
                n_nodes += 2 * n_div
                m = 0
                for i in range(nm):
                    if _can_split(t.tot + nxt[i] * n_stat, d, max_depth, n_stat, a.min_cnt,
                                  a.min_w, True):
                        lvl[m] = nxt[i]
                        m += 1
                    else:
                        free_slots[n_free] = slot_of[nxt[i]]
                        n_free += 1
                d += 1
    free(lvl)
    free(nxt)
    free(slot_of)
    free(free_slots)
    free(hp)
    free(tp)
    free(tol)
    free(mlv)
    free(gains)
    free(div)
    free(tots)
    free(fscore)
    free(fbin)
    free(par)
    free(small_of)
    free(acc)
    free(sused)
    free(sscan)
    free(grp)
    free(large)
    free(pair_slots)
    return n_nodes


cdef struct Workspace:
    # one thread's buffers for growing trees (see grow_all)
    double* pool
    int32_t* buf_i
    double* buf_w
    int32_t* buf_c
    double* buf_y
    double* scores
    int32_t* bins
    uint8_t* mls
    double* scratch


cdef struct Batch:
    # the read-only description of grow_all's k trees and where their results go
    const uint8_t* codes
    Py_ssize_t n_rows
    int nf
    const int32_t* n_bins
    int missing_bin
    bint is_reg
    int crit
    int n_stat
    int hist_stat
    Py_ssize_t hist_size
    int64_t total_bins
    int32_t* idx_all
    double* ow_all
    int32_t* oc_all
    double* owy_all
    const int64_t* starts
    const int64_t* ends
    const uint8_t* dense
    const double* d_ow
    Py_ssize_t d_ow_stride
    const int32_t* d_oc
    Py_ssize_t d_oc_stride
    const double* d_owy
    Py_ssize_t d_owy_stride
    const double* root_tot
    const double* tol_scale
    const int64_t* max_depth
    const double* min_cnt
    const double* min_w
    const double* lam
    double cls_rtol
    double reg_rtol
    Py_ssize_t max_nodes
    Py_ssize_t pool_slots  # histogram slots of a workspace's pool
    Tree trees  # the (k, max_nodes) arrays of the results (at tree 0)
    int64_t* n_nodes
    const int64_t* max_leaves
    const uint8_t* symmetric
    const double* rs
    const uint64_t* rs_seed
    int64_t min_work
    int64_t scan_work


cdef int _alloc_workspace(Workspace* w, const Batch* b, Py_ssize_t n_max) noexcept nogil:
    """Allocate ``w``'s buffers for trees of at most ``n_max`` rows; 0 on failure."""
    w.pool = <double*>malloc(b.pool_slots * b.hist_size * sizeof(double))
    w.buf_i = <int32_t*>malloc((n_max + 1) * sizeof(int32_t))
    w.buf_w = <double*>malloc((n_max + 1) * sizeof(double))
    w.buf_c = <int32_t*>malloc((n_max + 1) * sizeof(int32_t))
    w.buf_y = <double*>malloc((n_max + 1) * sizeof(double))
    w.scores = <double*>malloc(2 * b.nf * sizeof(double))
    w.bins = <int32_t*>malloc(2 * b.nf * sizeof(int32_t))
    w.mls = <uint8_t*>malloc(2 * b.nf * sizeof(uint8_t))
    w.scratch = <double*>malloc(b.nf * b.n_stat * sizeof(double))
    return (w.pool != NULL and w.buf_i != NULL and w.buf_w != NULL and w.buf_c != NULL
            and w.buf_y != NULL and w.scores != NULL and w.bins != NULL and w.mls != NULL
            and w.scratch != NULL)


cdef void _free_workspace(Workspace* w) noexcept nogil:
    free(w.pool)
    free(w.buf_i)
    free(w.buf_w)
    free(w.buf_c)
    free(w.buf_y)
    free(w.scores)
    free(w.bins)
    free(w.mls)
    free(w.scratch)


cdef void _grow_tree(const Batch* b, Workspace* w, Py_ssize_t j, int n_threads) noexcept nogil:
    """Grow tree ``j`` of the batch ``b`` in the buffers ``w``, its node kernels on
    ``n_threads`` threads (the tree does not depend on it)."""
    cdef NodeArgs a
    cdef Tree t
    cdef Py_ssize_t a0 = b.starts[j]
    cdef Py_ssize_t z0 = b.ends[j]
    cdef Py_ssize_t m = b.max_nodes
    # use_floor stays True: no categorical feature here (supports_batched)
    _tree_args(&a, b.codes, b.n_rows, b.nf, b.is_reg, b.crit, b.n_bins, b.missing_bin,
               b.hist_stat, b.n_stat - 1, b.min_cnt[j], b.min_w[j], b.lam[j], w.scores, w.bins,
               w.mls, w.scratch, b.n_stat)
    t.left = b.trees.left + j * m
    t.right = b.trees.right + j * m
    t.feature = b.trees.feature + j * m
    t.split_bin = b.trees.split_bin + j * m
    t.missing_left = b.trees.missing_left + j * m
    t.gain = b.trees.gain + j * m
    t.tot = b.trees.tot + j * m * b.n_stat
    t.depth = b.trees.depth + j * m
    t.start = b.trees.start + j * m
    t.end = b.trees.end + j * m
    if b.symmetric[j]:
        a.rs = b.rs[j]
        a.rs_seed = b.rs_seed[j]
        b.n_nodes[j] = _grow_sym(
            &a, b.n_stat, b.idx_all + a0 if z0 > a0 else NULL,
            b.ow_all + a0 if z0 > a0 else NULL, b.owy_all + a0 if z0 > a0 else NULL,
            z0 - a0, b.dense[j] != 0, b.d_ow + j * b.d_ow_stride, b.d_owy + j * b.d_owy_stride,
            b.root_tot + j * b.n_stat, b.tol_scale[j], b.max_depth[j], b.reg_rtol, w.pool,
            b.pool_slots, b.hist_size, w.buf_i, w.buf_w, w.buf_c, w.buf_y, &t, m, n_threads,
            b.total_bins, b.min_work, b.scan_work)
        return
    b.n_nodes[j] = _grow_one(
        &a, b.n_stat, b.idx_all + a0 if z0 > a0 else NULL,
        b.ow_all + a0 if z0 > a0 else NULL,
        NULL if b.is_reg or z0 == a0 else b.oc_all + a0,
        NULL if (not b.is_reg) or z0 == a0 else b.owy_all + a0,
        z0 - a0, b.dense[j] != 0, b.d_ow + j * b.d_ow_stride,
        NULL if b.is_reg else b.d_oc + j * b.d_oc_stride,
        b.d_owy + j * b.d_owy_stride if b.is_reg else NULL,
        b.root_tot + j * b.n_stat, b.tol_scale[j], b.max_depth[j], b.cls_rtol, b.reg_rtol,
        w.pool, b.hist_size, w.buf_i, w.buf_w, w.buf_c, w.buf_y, &t, m, b.max_leaves[j],
        n_threads, b.total_bins, b.min_work, b.scan_work)


def grow_all(const uint8_t[:, ::1] codes, const int32_t[::1] n_bins, int missing_bin,
             bint is_reg, int crit, int n_stat, int hist_stat, int32_t[::1] idx_all,
             double[::1] ow_all, int32_t[::1] oc_all, double[::1] owy_all,
             const int64_t[::1] starts, const int64_t[::1] ends, const uint8_t[::1] dense,
             const double[:, ::1] d_ow,
             const int32_t[:, ::1] d_oc, const double[:, ::1] d_owy,
             const double[:, ::1] root_tot, const double[::1] tol_scale,
             const int64_t[::1] max_depth, const double[::1] min_cnt,
             const double[::1] min_w, const double[::1] lam, double cls_rtol,
             double reg_rtol, int32_t[:, ::1] left, int32_t[:, ::1] right, int32_t[:, ::1] feature,
             int32_t[:, ::1] split_bin, uint8_t[:, ::1] missing_left, double[:, ::1] gain,
             double[:, :, ::1] tot, int32_t[:, ::1] depth, int64_t[:, ::1] start,
             int64_t[:, ::1] end, int64_t[::1] n_nodes, const int64_t[::1] max_leaves,
             const uint8_t[::1] symmetric, const double[::1] rs, const uint64_t[::1] rs_seed,
             int n_threads, int64_t min_work, int64_t scan_work):
    """Grow the ``k`` trees of :func:`robust_boosting.trees.batched.grow_batched` in one
    call: tree ``j`` on the rows ``starts[j]:ends[j]`` (disjoint) of ``idx_all``,
    ``ow_all`` and ``oc_all``/``owy_all``, best-first to ``max_leaves[j]`` leaves if that
    is not negative, else depth-first, or level by level if ``symmetric[j]`` (a symmetric
    regression tree, :func:`_grow_sym`); ``lam[j]``: tree ``j``'s L2 penalty
    (regression); ``rs[j]``, ``rs_seed[j]``: a symmetric tree's random split scores
    (:func:`_sym_noisy_choice`; 0: none).

    With ``n_threads > 1`` and at least as many trees, the first
    ``n_threads * (k // n_threads)`` trees grow side by side, one per thread (their
    node kernels serial), and the rest one after the other with their node kernels
    on ``n_threads`` threads. Each tree is grown by the same serial code either way,
    so the trees do not depend on the number of threads.
    """
    cdef Py_ssize_t k = starts.shape[0]
    cdef Py_ssize_t n_max = 0
    cdef Py_ssize_t j, n_side
    cdef int n_work, wi, ok = 1
    cdef Batch b
    cdef Workspace* works
    if k == 0:
        return
    if symmetric.shape[0] != k or rs.shape[0] != k or rs_seed.shape[0] != k:
        raise ValueError("grow_all: one symmetric flag and random strength per tree")
    for j in range(k):
        n_max = max(n_max, ends[j] - starts[j])
        if symmetric[j] and not is_reg:
            raise ValueError("grow_all: symmetric trees are regression trees")
    b.codes = &codes[0, 0]
    b.n_rows = codes.shape[1]
    b.nf = codes.shape[0]
    b.n_bins = &n_bins[0]
    b.missing_bin = missing_bin
    b.is_reg = is_reg
    b.crit = crit
    b.n_stat = n_stat
    b.hist_stat = hist_stat
    b.hist_size = b.nf * (missing_bin + 1) * hist_stat
    b.total_bins = 0
    for j in range(b.nf):
        b.total_bins += n_bins[j]
    b.idx_all = _iptr(idx_all)
    b.ow_all = _dptr(ow_all)
    b.oc_all = _iptr(oc_all)
    b.owy_all = _dptr(owy_all)
    b.starts = &starts[0]
    b.ends = &ends[0]
    b.dense = &dense[0]
    b.rs = &rs[0]
    b.rs_seed = &rs_seed[0]
    b.d_ow = &d_ow[0, 0]
    b.d_ow_stride = d_ow.shape[1] if d_ow.shape[0] == k else 0
    b.d_oc = &d_oc[0, 0]
    b.d_oc_stride = d_oc.shape[1] if d_oc.shape[0] == k else 0
    b.d_owy = &d_owy[0, 0]
    b.d_owy_stride = d_owy.shape[1] if d_owy.shape[0] == k else 0
    b.root_tot = &root_tot[0, 0]
    b.tol_scale = &tol_scale[0]
    b.max_depth = &max_depth[0]
    b.min_cnt = &min_cnt[0]
    b.min_w = &min_w[0]
    b.lam = &lam[0]
    b.cls_rtol = cls_rtol
    b.reg_rtol = reg_rtol
    b.max_nodes = left.shape[1]
    # a symmetric tree needs 2^(max_depth - 1) histogram slots (none for the last level's
    # children), any other tree up to one per node: a pool of max_nodes slots for depth-8
    # symmetric trees was 42 MB, above glibc's largest mmap threshold, so every call
    # mapped it anew and paid a page fault per page it touched
    # (and at most 2^(max_depth - 2) plus the stream's scratch, _sym_stream: the level
    # before the last is scored in chunks, the last level's histograms are not kept)
    b.pool_slots = 1
    for j in range(k):
        if symmetric[j] and max_depth[j] <= 31:
            b.pool_slots = max(b.pool_slots, min(b.max_nodes, _sym_pool_slots(
                max_depth[j], max(1, n_threads))))
        else:
            b.pool_slots = b.max_nodes
    b.trees.left = &left[0, 0]
    b.trees.right = &right[0, 0]
    b.trees.feature = &feature[0, 0]
    b.trees.split_bin = &split_bin[0, 0]
    b.trees.missing_left = &missing_left[0, 0]
    b.trees.gain = &gain[0, 0]
    b.trees.tot = &tot[0, 0, 0]
    b.trees.depth = &depth[0, 0]
    b.trees.start = &start[0, 0]
    b.trees.end = &end[0, 0]
    b.n_nodes = &n_nodes[0]
    b.max_leaves = &max_leaves[0]
    b.symmetric = &symmetric[0]
    b.min_work = min_work
    b.scan_work = scan_work
    n_threads = max(1, n_threads)
    n_side = (k // n_threads) * n_threads if n_threads > 1 else 0
    n_work = n_threads if n_side > 0 else 1
    works = <Workspace*>calloc(n_work, sizeof(Workspace))
    if works == NULL:
        raise MemoryError()
    with nogil:
        for wi in range(n_work):
            ok = ok and _alloc_workspace(&works[wi], &b, n_max)
        if ok:
            if n_side > 0:
                for j in prange(n_side, num_threads=n_threads, schedule="dynamic"):
                    _grow_tree(&b, &works[threadid()], j, 1)
            for j in range(n_side, k):
                _grow_tree(&b, &works[0], j, n_threads)
        for wi in range(n_work):
            _free_workspace(&works[wi])
    free(works)
    if not ok:
        raise MemoryError()
    for j in range(k):
        if n_nodes[j] == 0:
            raise MemoryError()


# --------------------------------------------------------------------------
# Multi-output symmetric trees: one tree per multiclass round, a value per class
# --------------------------------------------------------------------------

cdef inline double _mo_score(const double* s, int K, const double* lam) noexcept nogil:
    """``sum_k G_k^2 / (H_k + lam_k)`` of a block ``(G_0 .. G_{K-1}, H_0 .. H_{K-1})``
    (a class whose ``H_k + lam_k`` is not positive adds 0)."""
    cdef double total = 0.0
    cdef double d
    cdef int k
    for k in range(K):
        d = s[K + k] + lam[k]
        # a weight of 0 has a sum of 0 (the weights are not negative): 0 / 1
        total += s[k] * s[k] / (d if d > 0.0 else 1.0)
    return total


cdef inline double _mo_split(const double* left, const double* miss, const double* tot,
                             int64_t nl, int64_t nm, int64_t n, int K, const double* lam,
                             double parent, double* buf, int* miss_left) noexcept nogil:
    """A node's score when its non-missing rows at or below the threshold (sums ``left``,
    ``nl`` rows) go left: the better of missing values right and missing values left
    (``miss``: their sums, ``nm`` rows), each the two children's summed
    :func:`_mo_score` when both have rows, else ``parent`` (the node's own score).
    ``miss_left`` is set to 1 when the missing values go left (ties: right)."""
    cdef int j
    cdef int K2 = 2 * K
    cdef double right_score, left_score
    cdef double* rbuf = buf + K2
    if nl > 0 and n - nl > 0:
        for j in range(K2):
            rbuf[j] = tot[j] - left[j]
        right_score = _mo_score(left, K, lam) + _mo_score(rbuf, K, lam)
    else:
        right_score = parent
    miss_left[0] = 0
    if nm == 0:
        return right_score
    if n - nl - nm > 0:
        for j in range(K2):
            buf[j] = left[j] + miss[j]
            rbuf[j] = tot[j] - buf[j]
        left_score = _mo_score(buf, K, lam) + _mo_score(rbuf, K, lam)
    else:
        left_score = parent
    if left_score > right_score:
        miss_left[0] = 1
        return left_score
    return right_score


cdef inline void _mo_build(const uint8_t* col, const int32_t* idx, const double* gh,
                           int64_t s, int64_t e, int K2, double* hist,
                           int64_t* cnt) noexcept nogil:
    """Add rows ``s .. e - 1`` of ``idx``/``gh`` to one feature's histogram (``2K`` sums
    and a count per bin)."""
    cdef int64_t i
    cdef int j, c
    cdef double* h
    cdef const double* row
    for i in range(s, e):
        c = col[idx[i]]
        cnt[c] += 1
        h = hist + c * K2
        row = gh + i * K2
        for j in range(K2):
            h[j] += row[j]


cdef inline void _mo_zero(double* hist, int64_t* cnt, int nb, int K2) noexcept nogil:
    cdef int j
    for j in range(nb * K2):
        hist[j] = 0.0
    for j in range(nb):
        cnt[j] = 0


cdef inline void _mo_subtract(const double* ph, const int64_t* pc, const double* sh,
                              const int64_t* sc, double* out, int64_t* outc, int nb,
                              int K2) noexcept nogil:
    """``out = parent - small`` over every bin (sums and counts): a sibling's histogram."""
    cdef int j
    for j in range(nb * K2):
        out[j] = ph[j] - sh[j]
    for j in range(nb):
        outc[j] = pc[j] - sc[j]


cdef void _mo_scan(double* hist, int64_t* cnt, int nbf, int missing_bin, int64_t n,
                   const double* tot, double parent, int K, const double* lam, double* cum,
                   double* buf, double* acc, double* base, bint clear) noexcept nogil:
    """One node's scan of one feature: its :func:`_mo_split` score at each non-empty bin,
    added to ``acc`` as changes (so the level's score at threshold ``b`` is ``base + acc[0]
    + ... + acc[b]``, ``base`` summing the nodes' scores with no non-missing row left);
    with ``clear``, each bin read (and the missing bin) is reset to zero."""
    cdef int b, j, ml
    cdef int K2 = 2 * K
    cdef int64_t nl = 0
    cdef int64_t nm = cnt[missing_bin]
    cdef double s, prev
    cdef double* h
    cdef double* miss = hist + missing_bin * K2
    for j in range(K2):
        cum[j] = 0.0
    prev = _mo_split(cum, miss, tot, 0, nm, n, K, lam, parent, buf, &ml)
    base[0] += prev
    for b in range(nbf):
        if cnt[b] == 0:
            continue
        nl += cnt[b]
        h = hist + b * K2
        for j in range(K2):
            cum[j] += h[j]
        if clear:
            cnt[b] = 0
            for j in range(K2):
                h[j] = 0.0
        s = _mo_split(cum, miss, tot, nl, nm, n, K, lam, parent, buf, &ml)
        acc[b] += s - prev
        prev = s
    if clear:
        cnt[missing_bin] = 0
        for j in range(K2):
            miss[j] = 0.0


cdef void _mo_level_feature(const uint8_t* col, const int32_t* idx, const double* gh,
                            const int64_t* starts, Py_ssize_t m, const double* ntot,
                            const double* nscore, int K, const double* lam, int nbf,
                            int missing_bin, bint sub, bint store, double* S, int64_t* SC,
                            Py_ssize_t stride, Py_ssize_t cstride, double* X, int64_t* XC,
                            double* Y, int64_t* YC, double* cum, double* buf, double* acc,
                            double* base) noexcept nogil:
    """One feature's scan of a level of ``m`` nodes (rows ``starts[nd]`` to ``starts[nd +
    1]``), the nodes in order. Each node's histogram comes from its rows, or, with ``sub``
    (the parent level's histograms are in the slots ``S``/``SC``, node ``p``'s at ``p *
    stride``), the smaller child's from its rows and the larger's by subtraction from the
    parent's. With ``store`` the level's histograms are left in the slots (for the next
    level), else they go through the scratch ``X`` (kept zeroed) and ``Y``."""
    cdef int nb = missing_bin + 1
    cdef int K2 = 2 * K
    cdef Py_ssize_t nd, p, a, small, large
    cdef double* hs
    cdef int64_t* cs
    cdef double* hl
    cdef int64_t* cl
    base[0] = 0.0
    if not sub:
        if store:
            for nd in range(m):
                hs = S + nd * stride
                cs = SC + nd * cstride
                _mo_zero(hs, cs, nb, K2)
                _mo_build(col, idx, gh, starts[nd], starts[nd + 1], K2, hs, cs)
            for nd in range(m):
                _mo_scan(S + nd * stride, SC + nd * cstride, nbf, missing_bin,
                         starts[nd + 1] - starts[nd], ntot + nd * K2, nscore[nd], K, lam, cum,
                         buf, acc, base, False)
        else:
            for nd in range(m):
                _mo_build(col, idx, gh, starts[nd], starts[nd + 1], K2, X, XC)
                _mo_scan(X, XC, nbf, missing_bin, starts[nd + 1] - starts[nd], ntot + nd * K2,
                         nscore[nd], K, lam, cum, buf, acc, base, True)
        return
    if store:
        # the children's histograms into their slots, the last parent first (a child's
        # slot 2p or 2p + 1 is never a parent still to be read)
        for p in range(m // 2 - 1, -1, -1):
            a = 2 * p
            if starts[a + 1] - starts[a] <= starts[a + 2] - starts[a + 1]:
                small = a
                large = a + 1
            else:
                small = a + 1
                large = a
            if small == p:  # p = 0 and the left child is the smaller: slot 0 is the parent
                _mo_build(col, idx, gh, starts[small], starts[small + 1], K2, X, XC)
                _mo_subtract(S, SC, X, XC, S + large * stride, SC + large * cstride, nb, K2)
                memcpy(S, X, nb * K2 * sizeof(double))
                memcpy(SC, XC, nb * sizeof(int64_t))
                _mo_zero(X, XC, nb, K2)
            else:
                hs = S + small * stride
                cs = SC + small * cstride
                _mo_zero(hs, cs, nb, K2)
                _mo_build(col, idx, gh, starts[small], starts[small + 1], K2, hs, cs)
                _mo_subtract(S + p * stride, SC + p * cstride, hs, cs, S + large * stride,
                             SC + large * cstride, nb, K2)
        for nd in range(m):
            _mo_scan(S + nd * stride, SC + nd * cstride, nbf, missing_bin,
                     starts[nd + 1] - starts[nd], ntot + nd * K2, nscore[nd], K, lam, cum, buf,
                     acc, base, False)
        return
    # streamed: each pair's smaller child into X (from its rows), the larger into Y
    for p in range(m // 2):
        a = 2 * p
        if starts[a + 1] - starts[a] <= starts[a + 2] - starts[a + 1]:
            small = a
        else:
            small = a + 1
        _mo_build(col, idx, gh, starts[small], starts[small + 1], K2, X, XC)
        _mo_subtract(S + p * stride, SC + p * cstride, X, XC, Y, YC, nb, K2)
        for nd in range(a, a + 2):
            hl = X if nd == small else Y
            cl = XC if nd == small else YC
            _mo_scan(hl, cl, nbf, missing_bin, starts[nd + 1] - starts[nd], ntot + nd * K2,
                     nscore[nd], K, lam, cum, buf, acc, base, nd == small)


#: the most bytes of histograms a shared tree keeps for subtraction
DEF MO_SLOT_BYTES = 64 * 1024 * 1024


def grow_shared_symmetric(const uint8_t[:, ::1] codes_t, int32_t[::1] idx, double[:, ::1] gh,
                          const double[::1] lam, const int32_t[::1] n_bins, int missing_bin,
                          int max_depth, double strength, uint64_t seed, int n_threads,
                          int32_t[::1] feature, int32_t[::1] split_bin,
                          uint8_t[:, ::1] missing_left, double[::1] gain, int64_t[::1] starts,
                          double[:, ::1] leaf_sums):
    """Grow a multi-output symmetric (oblivious) tree; return its number of levels.

    The rows ``idx`` (of positive weight) carry ``gh[i] = (G_0 .. G_{K-1}, H_0 ..
    H_{K-1})``, class ``k``'s weighted response and weight (the Newton gradient and
    Hessian of a multiclass round). Each level splits every node at the same ``(feature,
    bin)``: the one maximising the sum over the nodes of their children's
    ``sum_k G_k^2 / (H_k + lam_k)`` (a node the split leaves whole adds its own score),
    among the candidates whose sum exceeds the level's score without a split (they
    divide a node); with ``strength > 0`` each candidate's sum plus ``strength`` standard
    deviations of the level's sums times :func:`_split_noise` ``(seed, level, f, b)``
    (CatBoost's ``random_strength``). Each node sends its missing values to the better
    side (the heavier child when it has none). Growth stops at ``max_depth`` levels or
    at a level without a candidate. Rows and sums are partitioned in place, node by node
    (``starts``: the ``2**levels`` leaves' row ranges, leaf ``j`` the binary number of its
    path, right = 1, first level first); ``leaf_sums[j]`` the leaves' sums. Features
    are scanned in parallel, each by one thread: the tree does not depend on
    ``n_threads``.
    """
    cdef int nf = codes_t.shape[0]
    cdef Py_ssize_t n_act = idx.shape[0]
    cdef int K2 = gh.shape[1]
    cdef int K = K2 // 2
    cdef int nb = missing_bin + 1
    cdef int n_work = max(1, n_threads)
    cdef Py_ssize_t m, nd, i, j, s, e, w
    cdef int d, f, c, ml, best_f, best_b, levels = 0
    cdef int64_t nl, nm
    cdef double no_split, best
    cdef double wl, wr
    if gh.shape[0] != n_act or K2 % 2 or K < 1:
        raise ValueError("gh must have one row of 2K sums per row of idx")
    if (feature.shape[0] < max_depth or split_bin.shape[0] < max_depth
            or gain.shape[0] < max_depth or starts.shape[0] < (1 << max_depth) + 1
            or missing_left.shape[0] < max_depth
            or missing_left.shape[1] < max(1, 1 << max(0, max_depth - 1))
            or leaf_sums.shape[0] < (1 << max_depth) or leaf_sums.shape[1] != K2):
        raise ValueError("output arrays too small for max_depth")
    cdef double* acc = <double*>calloc(nf * nb + nf, sizeof(double))
    cdef double* ntot = <double*>malloc((1 << max_depth) * K2 * sizeof(double))
    cdef double* nscore = <double*>malloc((1 << max(0, max_depth - 1)) * sizeof(double))
    # the levels whose histograms are kept for the next level's subtraction: 0 .. d_store,
    # while the next level has at least 2 nb rows per node (building a larger child from
    # its rows then costs more than subtracting) and the slots fit in MO_SLOT_BYTES
    cdef int d_store = -1
    cdef Py_ssize_t stride = <Py_ssize_t>nf * nb * K2
    cdef Py_ssize_t cstride = <Py_ssize_t>nf * nb
    while (d_store + 2 < max_depth and n_act >= (<int64_t>2 << (d_store + 1)) * 2 * nb
           and (<double>(1 << (d_store + 1))) * (stride * 8 + cstride * 8) <= MO_SLOT_BYTES):
        d_store += 1
    cdef Py_ssize_t n_slots = (1 << d_store) if d_store >= 0 else 0
    cdef double* S = <double*>malloc(max(1, n_slots * stride) * sizeof(double))
    cdef int64_t* SC = <int64_t*>malloc(max(1, n_slots * cstride) * sizeof(int64_t))
    cdef Py_ssize_t wsz = 2 * nb * K2 + 7 * K2
    cdef double* work = <double*>calloc(n_work * wsz, sizeof(double))
    cdef int64_t* cnts = <int64_t*>calloc(n_work * 2 * nb, sizeof(int64_t))
    cdef int32_t* idx2 = <int32_t*>malloc(max(1, n_act) * sizeof(int32_t))
    cdef double* gh2 = <double*>malloc(max(1, n_act) * K2 * sizeof(double))
    cdef double* part = <double*>malloc(5 * K2 * sizeof(double))
    cdef int64_t* mids = <int64_t*>malloc((1 << max(0, max_depth - 1)) * sizeof(int64_t))
    cdef double* base = acc + nf * nb
    cdef double* wk
    cdef int32_t* ci
    cdef int32_t* ni
    cdef double* cg
    cdef double* ng
    cdef const uint8_t* col
    cdef uint8_t* side = <uint8_t*>malloc(max(1, n_act) * sizeof(uint8_t))
    cdef double* ntot2 = <double*>malloc((1 << max_depth) * K2 * sizeof(double))
    cdef double* fscore = <double*>malloc(max(1, nf) * sizeof(double))
    cdef int32_t* fbin = <int32_t*>malloc(max(1, nf) * sizeof(int32_t))
    if (fscore == NULL or fbin == NULL or acc == NULL or ntot == NULL or nscore == NULL or work == NULL or cnts == NULL
            or idx2 == NULL or gh2 == NULL or part == NULL or mids == NULL or S == NULL
            or SC == NULL or side == NULL or ntot2 == NULL):
        free(acc); free(ntot); free(nscore); free(work); free(cnts); free(idx2); free(gh2)
        free(part); free(mids); free(S); free(SC); free(side); free(ntot2); free(fscore)
        free(fbin)
        raise MemoryError()
    with nogil:
        starts[0] = 0
        starts[1] = n_act
        ci = &idx[0]
        cg = &gh[0, 0]
        ni = idx2
        ng = gh2
        for j in range(K2):
            ntot[j] = 0.0
        for i in range(n_act):
            for j in range(K2):
                ntot[j] += cg[i * K2 + j]
        for d in range(max_depth):
            m = 1 << d
            no_split = 0.0
            for nd in range(m):
                nscore[nd] = _mo_score(ntot + nd * K2, K, &lam[0])
                no_split += nscore[nd]
            for i in range(nf * nb):
                acc[i] = 0.0
            for f in prange(nf, num_threads=n_work, schedule="dynamic"):
                w = threadid()
                wk = work + w * wsz
                _mo_level_feature(&codes_t[f, 0], ci, cg, &starts[0], m, ntot,
                                  nscore, K, &lam[0], n_bins[f], missing_bin,
                                  0 < d <= d_store + 1, d <= d_store, S + f * nb * K2,
                                  SC + f * nb, stride, cstride, wk, cnts + w * 2 * nb,
                                  wk + nb * K2, cnts + w * 2 * nb + nb, wk + 2 * nb * K2,
                                  wk + 2 * nb * K2 + K2, acc + f * nb, base + f)
            # each threshold's level score (the changes summed from the feature's base),
            # and the level's split: the best candidate that divides a node, with its
            # random split score when strength > 0 (the single-output trees' choice)
            for f in range(nf):
                acc[f * nb] += base[f]
            _sym_noisy_choice(acc, nb, nf, &n_bins[0], strength, seed, d, no_split, fscore,
                              fbin)
            best_f = -1
            best = -INFINITY
            for f in range(nf):
                if fscore[f] > best:
                    best = fscore[f]
                    best_f = f
            if best_f < 0 or fbin[best_f] < 0:
                break
            best_b = fbin[best_f]
            feature[d] = best_f
            split_bin[d] = best_b
            gain[d] = acc[best_f * nb + best_b] - no_split
            levels = d + 1
            col = &codes_t[best_f, 0]
            # each node: its rows' sides (0 left, 1 right, 2 missing) and sums, its missing
            # values' side, its children's totals, then its rows partitioned (stable)
            wk = part
            for nd in range(m):
                s = starts[nd]
                e = starts[nd + 1]
                for j in range(2 * K2):
                    wk[j] = 0.0  # the left rows' sums, the missing rows' sums
                nl = 0
                nm = 0
                for i in range(s, e):
                    c = col[ci[i]]
                    if c == missing_bin:
                        side[i] = 2
                        nm += 1
                        for j in range(K2):
                            wk[K2 + j] += cg[i * K2 + j]
                    elif c <= best_b:
                        side[i] = 0
                        nl += 1
                        for j in range(K2):
                            wk[j] += cg[i * K2 + j]
                    else:
                        side[i] = 1
                if nm > 0:
                    _mo_split(wk, wk + K2, ntot + nd * K2, nl, nm, e - s, K, &lam[0],
                              nscore[nd], wk + 2 * K2, &ml)
                else:
                    wl = 0.0
                    wr = 0.0
                    for j in range(K):
                        wl = wl + wk[K + j]
                        wr = wr + ntot[nd * K2 + K + j] - wk[K + j]
                    ml = 1 if wl >= wr else 0
                missing_left[d, nd] = ml
                if ml:
                    nl += nm
                    for j in range(K2):
                        wk[j] += wk[K2 + j]
                # the children's totals (exact zeros and the parent's for an empty child)
                for j in range(K2):
                    if nl == 0:
                        ntot2[2 * nd * K2 + j] = 0.0
                        ntot2[(2 * nd + 1) * K2 + j] = ntot[nd * K2 + j]
                    elif nl == e - s:
                        ntot2[2 * nd * K2 + j] = ntot[nd * K2 + j]
                        ntot2[(2 * nd + 1) * K2 + j] = 0.0
                    else:
                        ntot2[2 * nd * K2 + j] = wk[j]
                        ntot2[(2 * nd + 1) * K2 + j] = ntot[nd * K2 + j] - wk[j]
                # left rows at s, right rows after them, each in their order
                j = s
                mids[nd] = s + nl
                for i in range(s, e):
                    if side[i] == 0 or (side[i] == 2 and ml):
                        ni[j] = ci[i]
                        memcpy(ng + j * K2, cg + i * K2, K2 * sizeof(double))
                        j += 1
                    else:
                        ni[mids[nd] + (i - s) - (j - s)] = ci[i]
                        memcpy(ng + (mids[nd] + (i - s) - (j - s)) * K2, cg + i * K2,
                               K2 * sizeof(double))
            ci, ni = ni, ci
            cg, ng = ng, cg
            ntot, ntot2 = ntot2, ntot
            # the children's ranges: node nd's left child is slot 2 nd of the next level,
            # its right child 2 nd + 1 (written from the back: slot nd is read first)
            starts[2 * m] = starts[m]
            for nd in range(m - 1, -1, -1):
                starts[2 * nd + 1] = mids[nd]
                starts[2 * nd] = starts[nd]
        if ci != &idx[0]:
            memcpy(&idx[0], ci, n_act * sizeof(int32_t))
            memcpy(&gh[0, 0], cg, n_act * K2 * sizeof(double))
        m = 1 << levels
        for nd in range(m):
            for j in range(K2):
                leaf_sums[nd, j] = 0.0
            for i in range(starts[nd], starts[nd + 1]):
                for j in range(K2):
                    leaf_sums[nd, j] += gh[i, j]
    free(acc); free(ntot); free(nscore); free(work); free(cnts); free(idx2); free(gh2)
    free(part); free(mids); free(S); free(SC); free(side); free(ntot2); free(fscore)
    free(fbin)
    return levels
