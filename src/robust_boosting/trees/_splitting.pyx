# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, nonecheck=False, cpow=True
"""Split finding of the histogram tree (private): the best split of each feature from
its histogram (threshold splits, categorical set splits, the shared split of a
symmetric level), and the split scores.

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

from cython.parallel cimport prange
from libc.math cimport INFINITY, M_LN2, cos, fabs, isfinite, log, sqrt
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy

from robust_boosting.trees._common cimport *
from robust_boosting.trees._histogram cimport _build_hist_group

import numpy as np

GINI = C_GINI
ENTROPY = C_ENTROPY
SQUARED_ERROR = C_SQUARED


cdef inline double _log_reduced(double m, double k) noexcept nogil:
    """``log(m * 2**k)`` for ``m`` in ``[sqrt(2)/2, sqrt(2))``."""
    cdef double f = m - 1.0
    cdef double s = f / (2.0 + f)
    cdef double z = s * s
    cdef double w = z * z
    cdef double t1 = w * (RB_LG2 + w * (RB_LG4 + w * RB_LG6))
    cdef double t2 = z * (RB_LG1 + w * (RB_LG3 + w * (RB_LG5 + w * RB_LG7)))
    cdef double r = t2 + t1
    cdef double hfsq = 0.5 * f * f
    return k * RB_LN2_HI - ((hfsq - (s * (hfsq + r) + k * RB_LN2_LO)) - f)


cdef inline double _xlogx(double x) noexcept nogil:
    """``x log x`` (0 for ``x <= 0``), within about 2 ulp of the C library's.

    ``x`` (clamped below at the smallest normal double) is written ``m * 2**k`` with
    ``m`` in ``[sqrt(2)/2, sqrt(2))`` from its bits, then :func:`_log_reduced`.
    """
    cdef double y, m
    cdef int64_t ix, up
    if not x > 0.0:
        return 0.0
    y = x if x > RB_TINY else RB_TINY
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




# Monotone constraints (LightGBM's "basic" method)
cdef inline double _clip(double v, double lo, double hi) noexcept nogil:
    if v < lo:
        return lo
    if v > hi:
        return hi
    return v


cdef inline double _node_value(double a0, double a1, bint is_reg, double lam) noexcept nogil:
    """The value whose order a monotone constraint keeps: a regression node's
    ``S / (W + lam)`` (its leaf value, less the mean target), a binary classification
    node's class-1 share ``w_1 / (w_0 + w_1)`` (0 for a node of no weight)."""
    cdef double w = a0 + lam if is_reg else a0 + a1
    return a1 / w if w > 0.0 else 0.0


cdef void _child_bounds(const double* ltot, const double* rtot, bint is_reg, double lam,
                        int c, double lo, double hi, double* out) noexcept nogil:
    """The bounds ``(left lo, left hi, right lo, right hi)`` of the children of a split of
    a node bounded by ``[lo, hi]`` on a feature of constraint ``c``: the parent's, and for
    ``c != 0`` the midpoint of the children's clipped values as the upper bound of the
    child that must stay below and the lower bound of the other (LightGBM's "basic")."""
    cdef double mid
    out[0] = lo
    out[1] = hi
    out[2] = lo
    out[3] = hi
    if c == 0:
        return
    mid = (_clip(_node_value(ltot[0], ltot[1], is_reg, lam), lo, hi)
           + _clip(_node_value(rtot[0], rtot[1], is_reg, lam), lo, hi)) / 2.0
    if c > 0:
        out[1] = mid
        out[2] = mid
    else:
        out[0] = mid
        out[3] = mid


def child_bounds(const double[::1] ltot, const double[::1] rtot, bint is_reg, double lam,
                 int c, double lo, double hi):
    """:func:`_child_bounds` (for the tests)."""
    cdef double out[4]
    _child_bounds(&ltot[0], &rtot[0], is_reg, lam, c, lo, hi, out)
    return out[0], out[1], out[2], out[3]


cdef double _monotone_split(const double* h, int ns, int nb, int missing_bin,
                            const double* tot, int n_val, bint has_cnt, bint is_reg, int crit,
                            double min_cnt, double min_w, double lam, int c, double lo,
                            double hi, double* cum, int* out_bin, bint* out_ml) noexcept nogil:
    """:func:`_best_split_feature` of a feature of monotone constraint ``c`` (+1: values
    increase with the feature, -1: decrease) at a node bounded by ``[lo, hi]``: the best
    split whose children's values, clipped to the bounds, are in that order (a split on
    any threshold, missing values on either side, scored as unconstrained). Regression or
    two classes (``n_val == 2``)."""
    cdef const double* miss = h + missing_bin * ns
    cdef bint has_miss = not _bin_empty(miss, n_val, has_cnt, is_reg)
    cdef int s, b, side
    cdef double best = -INFINITY
    cdef double sc, wl, wr, a0, a1, vl, vr
    cdef int best_bin = -1
    cdef bint best_ml = False
    cdef double best_wl = 0.0
    cdef double best_wr = 0.0
    cdef const double* hb
    if min_cnt > 1.0 and not has_cnt:
        min_w = _weight_for_count(tot, n_val, is_reg, min_cnt, min_w)
    for s in range(ns):
        cum[s] = 0.0
    for b in range(nb):
        hb = h + b * ns
        if b > 0 and _bin_empty(hb, n_val, has_cnt, is_reg):
            continue
        for s in range(ns):
            cum[s] += hb[s]
        for side in range(2 if has_miss else 1):
            if not (_candidate(cum, tot, miss, side == 1, n_val, has_cnt, crit, min_cnt,
                               min_w, lam, &sc, &wl, &wr) and sc > best):
                continue
            a0 = cum[0] + miss[0] if side == 1 else cum[0]
            a1 = cum[1] + miss[1] if side == 1 else cum[1]
            if is_reg:
                vl = _node_value(a0, a1, True, lam)
                vr = _node_value(tot[0] - a0, tot[1] - a1, True, lam)
            else:
                vl = _node_value(a0 if a0 > 0.0 else 0.0, a1 if a1 > 0.0 else 0.0, False, lam)
                a0 = tot[0] - a0
                a1 = tot[1] - a1
                vr = _node_value(a0 if a0 > 0.0 else 0.0, a1 if a1 > 0.0 else 0.0, False, lam)
            vl = _clip(vl, lo, hi)
            vr = _clip(vr, lo, hi)
            if (c > 0 and vl > vr) or (c < 0 and vl < vr):
                continue  # the children's values in the wrong order
            best = sc
            best_bin = b
            best_ml = side == 1
            best_wl = wl
            best_wr = wr
    if best_bin >= 0 and not has_miss:
        best_ml = best_wl >= best_wr
    out_bin[0] = best_bin
    out_ml[0] = best_ml
    return best


# Symmetric (oblivious) regression trees
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


cdef void _sym_orders(const NodeArgs* a, const double* root, const double* root_tot,
                      SymOrder* so) noexcept nogil:
    """Rank each categorical feature's categories at a symmetric tree's root (histogram
    ``root``, totals ``root_tot``) by their mean response ``S / W``, ties by code (a stable
    sort); empty ones, and with ``a.min_cat_cnt > 1`` rare ones (as
    :meth:`_Grower._without_rare_categories` finds them), are left unranked."""
    cdef int ns = a.ns, mb = a.missing_bin
    cdef Py_ssize_t hsz = (mb + 1) * ns
    cdef bint has_cnt = ns > 2
    cdef bint rare_rule = a.min_cat_cnt > 1.0 and (has_cnt or root_tot[0] > 0.0)
    cdef double per_w = root_tot[2] / root_tot[0] if root_tot[0] > 0.0 else 0.0
    cdef double key[256]
    cdef const double* h
    cdef uint8_t* o
    cdef double kv, cnt
    cdef int f, c, r, m, nb
    for f in range(a.n_features):
        if not a.is_cat[f]:
            so.n_ordered[f] = -1
            continue
        h = root + f * hsz
        o = so.order + f * (mb + 1)
        nb = a.n_bins[f] if a.n_bins[f] < mb else mb
        m = 0
        for c in range(nb):
            if not h[c * ns] > 0.0:
                continue
            if rare_rule:
                cnt = h[c * ns + 2] if has_cnt else h[c * ns] * per_w
                if cnt < a.min_cat_cnt:
                    continue
            kv = h[c * ns + 1] / h[c * ns]
            r = m
            while r > 0 and key[r - 1] > kv:
                key[r] = key[r - 1]
                o[r] = o[r - 1]
                r -= 1
            key[r] = kv
            o[r] = <uint8_t>c
            m += 1
        so.n_ordered[f] = m


cdef inline const double* _ranked_hist(const double* h, const SymOrder* so, int f, int nb,
                                       int ns, int missing_bin, double* buf) noexcept nogil:
    """Feature ``f``'s histogram ``h``, or for a categorical feature of ``so`` its ``nb``
    bins in rank order copied to ``buf`` (:func:`_sym_orders`; the ranks past
    ``so.n_ordered[f]`` empty); the missing bin is not copied."""
    cdef const uint8_t* o
    cdef int k, r, s
    if so == NULL or so.n_ordered[f] < 0:
        return h
    o = so.order + f * (missing_bin + 1)
    k = so.n_ordered[f]
    for r in range(nb):
        for s in range(ns):
            buf[r * ns + s] = h[o[r] * ns + s] if r < k else 0.0
    return buf


cdef void _sym_feature_add(const double** hp, const double** tp, const double* tol,
                           Py_ssize_t m, int f, Py_ssize_t hsz, int ns, bint has_cnt, int nb,
                           int missing_bin, double min_cnt, double min_w, double lam,
                           double* acc, int* used, double* scan,
                           const SymOrder* so) noexcept nogil:
    """Add the score changes of nodes ``0 .. m - 1`` (in order) at their non-empty bins of
    feature ``f`` to ``acc`` (see :func:`_sym_feature`); ``used`` (``nb + 4`` ints) and
    ``scan`` (``3 (nb + 4)`` doubles) are scratch; ``acc`` by rank for a ranked feature."""
    cdef double cum[3]
    cdef double ranked[SYM_RANKED_HIST]
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
        h = _ranked_hist(h, so, f, nb, ns, missing_bin, ranked)
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
                       int32_t* out_bin, const SymOrder* so) noexcept nogil:
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
                     acc, used, scan, so)
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
                            double* scan, int n_threads, const SymOrder* so) noexcept nogil:
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
                                 used + f * (missing_bin + 5), scan + 3 * f * (missing_bin + 5),
                                 so)
    else:
        for f in range(nf):
            if n_bins[f] > 0:
                _sym_feature_add(hp, tp, tol, m, f, hsz, ns, has_cnt, n_bins[f], missing_bin,
                                 min_cnt, min_w, lam, acc + f * (missing_bin + 1),
                                 used + f * (missing_bin + 5), scan + 3 * f * (missing_bin + 5),
                                 so)


cdef void _sym_noisy_level(const double** hp, const double** tp, const double* tol,
                           Py_ssize_t m, int nf, const int32_t* n_bins, int missing_bin, int ns,
                           double min_cnt, double min_w, double lam, double strength,
                           uint64_t seed, int64_t level, double* acc, int* used, double* scan,
                           double* scores, int32_t* bins, int n_threads,
                           const SymOrder* so) noexcept nogil:
    """:func:`_sym_level` with random split scores: every feature's score changes into
    ``acc`` (:func:`_sym_features_add`), then :func:`_sym_noisy_choice`."""
    cdef Py_ssize_t k
    for k in range(nf * (missing_bin + 1)):
        acc[k] = 0.0
    _sym_features_add(hp, tp, tol, m, nf, n_bins, missing_bin, ns, min_cnt, min_w, lam, acc,
                      used, scan, n_threads, so)
    _sym_noisy_choice(acc, missing_bin + 1, nf, n_bins, strength, seed, level,
                      _sym_no_split(tp, m, ns > 2, min_cnt, min_w, lam), scores, bins)


cdef void _sym_level(const double** hp, const double** tp, const double* tol, Py_ssize_t m,
                     int nf, const int32_t* n_bins, int missing_bin, int ns, double min_cnt,
                     double min_w, double lam, double* scores, int32_t* bins,
                     int n_threads, const SymOrder* so) noexcept nogil:
    """:func:`_sym_feature` of every feature (on ``n_threads`` threads, one feature each)."""
    cdef Py_ssize_t hsz = (missing_bin + 1) * ns
    cdef bint has_cnt = ns > 2
    cdef int f
    if n_threads > 1 and nf > 1:
        for f in prange(nf, num_threads=n_threads, schedule="dynamic"):
            _sym_feature(hp, tp, tol, m, f, hsz, ns, has_cnt, n_bins[f], missing_bin,
                         min_cnt, min_w, lam, &scores[f], &bins[f], so)
    else:
        for f in range(nf):
            _sym_feature(hp, tp, tol, m, f, hsz, ns, has_cnt, n_bins[f], missing_bin,
                         min_cnt, min_w, lam, &scores[f], &bins[f], so)


cdef int _sym_choice(const double* hf, const double* tot, double tol, int b,
                     int missing_bin, int ns, double min_cnt, double min_w, double lam,
                     double* gain, const SymOrder* so, int f) noexcept nogil:
    """A node's choice under its level's split ``(f, b)`` as :func:`_sym_feature` scores it:
    -1 (it stays undivided; ``gain`` 0), else whether missing values go left (``gain``:
    the score the split adds). ``hf``: the node's histogram of feature ``f`` (``b``: a
    rank of a ranked feature of ``so``)."""
    cdef bint has_cnt = ns > 2
    cdef double cum[3]
    cdef double ranked[SYM_RANKED_HIST]
    cdef const double* miss = hf + missing_bin * ns
    cdef double base, mw, sc
    cdef int c, s, ml
    base = _sym_base(tot, has_cnt, min_cnt, min_w, lam, &mw)
    cum[0] = 0.0
    cum[1] = 0.0
    cum[2] = 0.0
    hf = _ranked_hist(hf, so, f, b + 1, ns, missing_bin, ranked)  # bins 0 .. b, ranked
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
                             &bins[0], n_threads, NULL)
        else:
            _sym_level(hp, tp, &tol[0], m, nf, &n_bins[0], missing_bin, ns, min_cnt, min_w,
                       lam, &scores[0], &bins[0], n_threads, NULL)
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
                                    ns, min_cnt, min_w, lam, &out_gain[i], NULL, f)


# Categorical splits
cdef double _np_sum(const double* a, Py_ssize_t n) noexcept nogil:
    """``numpy.sum`` of ``n`` contiguous doubles, bit for bit: NumPy's pairwise sum (eight
    partial sums per block of up to 128, halves beyond), a plain loop below 8."""
    cdef double r[8]
    cdef double res
    cdef Py_ssize_t i, j, n2
    if n < 8:
        res = 0.0
        for i in range(n):
            res += a[i]
        return res
    if n <= 128:
        for j in range(8):
            r[j] = a[j]
        i = 8
        while i < n - (n % 8):
            for j in range(8):
                r[j] += a[i + j]
            i += 8
        res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        while i < n:
            res += a[i]
            i += 1
        return res
    n2 = n // 2
    n2 -= n2 % 8
    return _np_sum(a, n2) + _np_sum(a + n2, n - n2)


cdef double _categorical_split(const double* h, int ns, int nb, int missing_bin,
                               const double* tot, int n_val, bint has_cnt, bint is_reg,
                               int crit, double min_cnt, double min_w, double lam,
                               double min_cat_cnt, double* cum, uint8_t* left, int* out_k,
                               bint* out_ml) noexcept nogil:
    """Best split of a categorical feature into a set of categories and the rest.

    LightGBM-style category partitioning (Ke et al. 2017; Fisher 1958): the
    non-empty categories (bins) of the node are ordered by their statistic (the
    mean target for regression, the share of class 1 for two classes; for K > 2
    classes each class's share in turn, keeping the best of the K orderings) and
    every prefix of that order is scored as a threshold split would be (with
    missing values on either side), by :func:`_best_split_feature`. Ties keep
    the lower category code first (a stable sort), so the result is
    deterministic.

    With ``min_cat_cnt > 1``, a category of fewer rows at the node (its count, or
    without a count channel its weight times the node's rows per unit of weight, as
    :meth:`_Grower._without_rare_categories` estimates it) takes no part: it is left
    out of the order and goes right with the rest (docs/design/0020).
    """
    cdef int b, m, q, r, o, k, s, n_orders, cls, bk
    cdef double w, kv, sc, best, per_w, node_w
    cdef bint ml
    cdef bint rare_rule = min_cat_cnt > 1.0
    cdef int best_k = -1
    cdef bint best_ml = False
    cdef int* present = <int*>malloc((nb + 1) * sizeof(int))
    cdef int* order = <int*>malloc((nb + 1) * sizeof(int))
    cdef int* best_order = <int*>malloc((nb + 1) * sizeof(int))
    cdef double* key = <double*>malloc((nb + 1) * sizeof(double))
    cdef double* h2 = <double*>malloc((missing_bin + 1) * ns * sizeof(double))
    cdef const double* hb
    per_w = 0.0
    if rare_rule and not has_cnt:
        node_w = tot[0] if is_reg else _np_sum(tot, n_val)
        if node_w > 0.0:
            per_w = tot[n_val] / node_w
        else:
            rare_rule = False
    m = 0
    for b in range(nb):
        left[b] = 0
        hb = h + b * ns
        if _bin_empty(hb, n_val, has_cnt, is_reg):
            continue
        if rare_rule:
            if has_cnt:
                w = hb[n_val]
            else:
                w = (hb[0] if is_reg else _np_sum(hb, n_val)) * per_w
            if w < min_cat_cnt:
                continue
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
                       double[:, ::1] scratch, double lam=0.0, double min_cat_cnt=1.0):
    """:func:`_categorical_split` of every feature in ``cat_features`` from a node's
    histogram (shape ``(n_features, missing_bin + 1, n_stat)``), overwriting that
    feature's entries of ``scores``, ``bins`` and ``mls`` (one row of the grower's
    arrays) and writing its left set to ``left_sets[f]``. The Python reference grower
    empties the rare categories' bins itself and leaves ``min_cat_cnt`` at 1."""
    cdef int n_val = tot.shape[0] - 1
    cdef int ns = hist.shape[2]
    cdef bint has_cnt = ns > n_val
    cdef int j, f, k
    cdef bint ml
    for j in range(cat_features.shape[0]):
        f = cat_features[j]
        scores[f] = _categorical_split(&hist[f, 0, 0], ns, n_bins[f], missing_bin, &tot[0],
                                       n_val, has_cnt, is_reg, crit, min_cnt, min_w, lam,
                                       min_cat_cnt, &scratch[f, 0], &left_sets[f, 0], &k, &ml)
        bins[f] = k
        mls[f] = ml


# Node kernels: a node's histograms (_histogram), its sibling's by subtraction, and the
# best split of each feature, over groups of features in parallel
cdef void _node_categorical(NodeArgs* a, int f, Py_ssize_t hsz, bint has_cnt) noexcept nogil:
    """The set split of categorical feature ``f`` (:func:`_categorical_split`) of each
    requested child, into its scores and its row of ``a.left_sets``."""
    cdef int nf = a.n_features
    cdef Py_ssize_t sets = a.missing_bin + 1
    cdef int k
    cdef bint ml
    if a.find_small:
        a.scores[f] = _categorical_split(
            a.small_hist + f * hsz, a.ns, a.n_bins[f], a.missing_bin, a.small_tot, a.n_val,
            has_cnt, a.is_reg, a.crit, a.min_cnt, a.min_w, a.cat_lam, a.min_cat_cnt,
            a.scratch + f * a.scratch_stride, a.left_sets + f * sets, &k, &ml)
        a.bins[f] = k
        a.mls[f] = ml
    if a.find_large:
        a.scores[nf + f] = _categorical_split(
            a.large_hist + f * hsz, a.ns, a.n_bins[f], a.missing_bin, a.large_tot, a.n_val,
            has_cnt, a.is_reg, a.crit, a.min_cnt, a.min_w, a.cat_lam, a.min_cat_cnt,
            a.scratch + f * a.scratch_stride, a.left_sets + (nf + f) * sets, &k, &ml)
        a.bins[nf + f] = k
        a.mls[nf + f] = ml


cdef void _node_group(int g, NodeArgs* a) noexcept nogil:
    cdef int f0 = C_GROUP * g
    cdef int nf = a.n_features
    cdef int last = f0 + C_GROUP if f0 + C_GROUP < nf else nf
    cdef Py_ssize_t hsz = (a.missing_bin + 1) * a.ns
    cdef bint has_cnt = a.ns > a.n_val
    cdef double* spare = NULL
    cdef int f, b, nb, bi, c
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
        if a.is_cat != NULL and a.is_cat[f]:
            _node_categorical(a, f, hsz, has_cnt)
            continue
        # floor_s / floor_l: the best score so far of the group's earlier features
        # (a real split's score, so a feature proven below it cannot be chosen; not
        # used in trees with categorical features, as the Python grower's scans)
        c = a.mono[f] if a.mono != NULL else 0
        if a.find_small and c != 0:
            sc = _monotone_split(a.small_hist + f * hsz, a.ns, nb, a.missing_bin, a.small_tot,
                                 a.n_val, has_cnt, a.is_reg, a.crit, a.min_cnt, a.min_w,
                                 a.lam, c, a.small_lo, a.small_hi,
                                 a.scratch + f * a.scratch_stride, &bi, &ml)
        elif a.find_small:
            sc = _best_split_feature(a.small_hist + f * hsz, a.ns, nb, a.missing_bin,
                                     a.small_tot, a.n_val, has_cnt, a.is_reg, a.crit,
                                     a.min_cnt, a.min_w, a.lam, floor_s,
                                     a.scratch + f * a.scratch_stride, &bi, &ml)
        if a.find_small:
            a.scores[f] = sc
            a.bins[f] = bi
            a.mls[f] = ml
            if a.use_floor and sc > floor_s:
                floor_s = sc
        if a.find_large and c != 0:
            sc = _monotone_split(a.large_hist + f * hsz, a.ns, nb, a.missing_bin, a.large_tot,
                                 a.n_val, has_cnt, a.is_reg, a.crit, a.min_cnt, a.min_w,
                                 a.lam, c, a.large_lo, a.large_hi,
                                 a.scratch + f * a.scratch_stride, &bi, &ml)
        elif a.find_large:
            sc = _best_split_feature(a.large_hist + f * hsz, a.ns, nb, a.missing_bin,
                                     a.large_tot, a.n_val, has_cnt, a.is_reg, a.crit,
                                     a.min_cnt, a.min_w, a.lam, floor_l,
                                     a.scratch + f * a.scratch_stride, &bi, &ml)
        if a.find_large:
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
    a.is_cat = NULL
    a.min_cat_cnt = 1.0
    a.cat_lam = lam
    a.left_sets = NULL
    a.mono = NULL
    a.small_lo = -INFINITY
    a.small_hi = INFINITY
    a.large_lo = -INFINITY
    a.large_hi = INFINITY


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
              int n_threads=1, bint use_floor=True, double lam=0.0,
              const int8_t[::1] mono=None, double small_lo=-INFINITY,
              double small_hi=INFINITY, double large_lo=-INFINITY,
              double large_hi=INFINITY):
    """Build the histogram of ``idx[start:end]`` (the smaller child), derive the
    larger sibling by subtraction from the parent if ``do_sub``, and find the
    best split of each feature for the requested children (over groups of
    ``GROUP`` features, in parallel if ``n_threads > 1``).  ``dense``: the node
    is every row in order. ``use_floor``: a feature's scan may return ``-inf``
    where another feature of its group already scores higher (False where the
    scores of categorical features are replaced afterwards). ``lam``: the regression
    criterion's L2 penalty. ``mono``: each feature's monotone constraint (None: none),
    and the bounds of the small and large nodes' values (:func:`_monotone_split`)."""
    cdef NodeArgs a
    _node_args(&a, codes, idx, ow, oc, owy, is_reg, crit, dense, start, end, n_bins,
               missing_bin, parent_hist, small_hist, large_hist, do_sub, small_tot, large_tot,
               find_small, find_large, min_cnt, min_w, lam, scores, bins, mls, scratch)
    a.use_floor = use_floor
    if mono is not None and mono.shape[0] > 0:
        if mono.shape[0] != codes.shape[0]:
            raise ValueError("node_pair: one monotone constraint per feature")
        a.mono = &mono[0]
        a.small_lo = small_lo
        a.small_hi = small_hi
        a.large_lo = large_lo
        a.large_hi = large_hi
    with nogil:
        _run_groups(&a, n_threads)
