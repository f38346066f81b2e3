/* The C helpers of the compiled kernels (private), shared by the Cython modules of
   robust_boosting.trees (through _common.pxd) and by robust_boosting._loop_kernels.

   Included after Python.h (Cython's generated C includes it first): Py_ssize_t.
   Everything here is IEEE double arithmetic in the order written; the package is
   compiled with -ffp-contract=off, so no clone below fuses a multiply-add and every
   machine gives the same bits. */
#ifndef ROBUST_BOOSTING_KERNELS_H
#define ROBUST_BOOSTING_KERNELS_H

#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* The platform guard: on x86-64 Linux with GCC a function marked RB_CLONES is compiled
   twice, for AVX2 and for the baseline, and the clone is chosen at load time where the
   CPU has AVX2; RB_NOTRAP compiles a function without floating-point traps, so that GCC
   turns a select on a comparison into a vector blend (the values are IEEE's either
   way; nothing reads the flags). Elsewhere both are empty. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define RB_CLONES __attribute__((target_clones("avx2", "default")))
#define RB_NOTRAP __attribute__((optimize("no-trapping-math")))
#else
#define RB_CLONES
#define RB_NOTRAP
#endif
/* a helper a module including this header may leave unused (no warning) */
#if defined(__GNUC__)
#define RB_UNUSED __attribute__((unused))
#else
#define RB_UNUSED
#endif

#define RB_MANT_MASK 0x000FFFFFFFFFFFFFLL

/* Coefficients of the minimax polynomial for log((1 + s) / (1 - s)) = 2 s + s R(s**2)
   (R(z) = LG1 z + LG2 z**2 + ... + LG7 z**7 on |s| <= 3 - 2 sqrt 2), the classic
   reduction of Cody & Waite used by most C libraries; error below 1 ulp (the scalar
   _log_reduced of _common.pxd; rb_xlogx_block writes the same literals out). */
#define RB_LG1 6.666666666666735130e-01
#define RB_LG2 3.999999999940941908e-01
#define RB_LG3 2.857142874366239149e-01
#define RB_LG4 2.222219843214978396e-01
#define RB_LG5 1.818357216161805012e-01
#define RB_LG6 1.531383769920937332e-01
#define RB_LG7 1.479819860511658591e-01
#define RB_LN2_HI 6.93147180369123816490e-01
#define RB_LN2_LO 1.90821492927058770002e-10
#define RB_TINY 2.2250738585072014e-308  /* smallest normal double */
/* a histogram difference at most this share of the parent's value is rounding residue */
#define RB_SUB_RTOL 1e-12

/* x log x for a block of values, in three loops the compiler vectorises (the
   reduction of _xlogx: exponent and mantissa from the bits, then the same
   polynomial), so the result is bit for bit _xlogx's. On x86-64 Linux with GCC an
   AVX2 clone is chosen at load time where the CPU has it; no fused multiply-add
   is used (-ffp-contract=off), so every clone gives the same bits. */
RB_CLONES RB_UNUSED static void rb_xlogx_block(const double *restrict v, double *restrict out,
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
RB_CLONES RB_UNUSED static void rb_subtract_weights(const double *restrict ph,
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
RB_CLONES RB_UNUSED static void rb_subtract_pairs(const double *restrict ph,
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
RB_UNUSED static const unsigned char RB_POS[16][4] = {
    {0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0},
    {2, 0, 0, 0}, {0, 2, 0, 0}, {1, 2, 0, 0}, {0, 1, 2, 0},
    {3, 0, 0, 0}, {0, 3, 0, 0}, {1, 3, 0, 0}, {0, 1, 3, 0},
    {2, 3, 0, 0}, {0, 2, 3, 0}, {1, 2, 3, 0}, {0, 1, 2, 3}};
RB_UNUSED static const unsigned char RB_POP[16] = {0, 1, 1, 2, 1, 2, 2, 3,
                                         1, 2, 2, 3, 2, 3, 3, 4};
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
RB_UNUSED static int rb_used_bins(const double *h, int ns, int nb, int n_check, int *used) {
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
RB_CLONES RB_NOTRAP RB_UNUSED static void rb_sym_node_scan(
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

RB_CLONES RB_NOTRAP RB_UNUSED static int rb_entropy_bounds(
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
RB_CLONES RB_NOTRAP RB_UNUSED static void rb_xlogx_approx_block(const double *restrict v,
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
RB_CLONES RB_NOTRAP RB_UNUSED static void rb_subtract_counted(const double *restrict ph,
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

#endif  /* ROBUST_BOOSTING_KERNELS_H */
