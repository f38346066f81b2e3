"""Numba kernels of the histogram decision tree (private).

Conventions shared by every kernel, chosen to keep the number of compiled
specialisations small:

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
  regression: ``n_stat = 3`` (weight, weighted target, count).
* Split scores are "higher is better" and the impurity decrease of a split is
  ``score(left) + score(right) - score(parent)``:

  - gini: ``sum_k w_k**2 / W``
  - entropy: ``sum_k w_k log w_k - W log W``
  - squared error: ``S**2 / W``

Ties are broken towards the lowest bin (and missing values to the right before
missing values to the left) inside a feature; the caller breaks ties between
features towards the lowest feature index.  Histograms are built per feature by
a single thread, so results do not depend on the number of threads.
"""

import math

import numpy as np
from numba import njit, prange

GINI = 0
ENTROPY = 1
SQUARED_ERROR = 2

_BIN_CHUNK = 1024
_PRED_CHUNK = 16384


# --------------------------------------------------------------------------
# Binning
# --------------------------------------------------------------------------
@njit(parallel=True, cache=True, nogil=True)
def bin_matrix(X, thr, thr_off, missing_bin, out):
    """Write the bin code of ``X[i, f]`` into ``out[f, i]``.

    A value goes to the number of thresholds strictly below it, so
    ``x <= thr[b]`` if and only if ``code(x) <= b``.  NaN goes to ``missing_bin``.
    """
    n = X.shape[0]
    n_features = X.shape[1]
    n_chunks = (n + _BIN_CHUNK - 1) // _BIN_CHUNK
    for c in prange(n_chunks):
        lo = c * _BIN_CHUNK
        hi = min(n, lo + _BIN_CHUNK)
        for f in range(n_features):
            a = thr_off[f]
            b = thr_off[f + 1]
            for i in range(lo, hi):
                x = X[i, f]
                if np.isnan(x):
                    out[f, i] = missing_bin
                elif b == a:
                    out[f, i] = 0
                else:
                    # branch-free lower bound: number of thresholds < x
                    base = a
                    m = b - a
                    while m > 1:
                        half = m >> 1
                        base = base + half if thr[base + half] < x else base
                        m -= half
                    out[f, i] = base - a + (1 if thr[base] < x else 0)


# --------------------------------------------------------------------------
# Split scores
# --------------------------------------------------------------------------
# Coefficients of the minimax polynomial for log((1 + s) / (1 - s)) = 2 s + s R(s**2)
# (R(z) = LG1 z + LG2 z**2 + ... + LG7 z**7 on |s| <= 3 - 2 sqrt 2), the classic
# reduction of Cody & Waite used by most C libraries; error below 1 ulp.
_LG1 = 6.666666666666735130e-01
_LG2 = 3.999999999940941908e-01
_LG3 = 2.857142874366239149e-01
_LG4 = 2.222219843214978396e-01
_LG5 = 1.818357216161805012e-01
_LG6 = 1.531383769920937332e-01
_LG7 = 1.479819860511658591e-01
_LN2_HI = 6.93147180369123816490e-01
_LN2_LO = 1.90821492927058770002e-10
_SQRT2_MANT = 0x6A09E  # top 20 mantissa bits of sqrt(2)
_TINY = 2.2250738585072014e-308  # smallest normal double
_TWO52_BITS = 0x4330000000000000  # bits of 2.0**52
_TWO52_BIAS = 2.0**52 + 1023.0
# the scalar reduction splits where the vector one does: at the top 20 mantissa bits
_M_SPLIT = (1.0 + _SQRT2_MANT / 2**20) / 2.0


@njit(cache=True, nogil=True, inline="always", error_model="numpy")
def _log_reduced(m, k):
    """``log(m * 2**k)`` for ``m`` in ``[sqrt(2)/2, sqrt(2))`` (``k`` a float)."""
    f = m - 1.0
    s = f / (2.0 + f)
    z = s * s
    w = z * z
    t1 = w * (_LG2 + w * (_LG4 + w * _LG6))
    t2 = z * (_LG1 + w * (_LG3 + w * (_LG5 + w * _LG7)))
    r = t2 + t1
    hfsq = 0.5 * f * f
    return k * _LN2_HI - ((hfsq - (s * (hfsq + r) + k * _LN2_LO)) - f)


@njit(cache=True, nogil=True)
def _xlogx(x):
    """``x log x`` (0 for ``x <= 0``), bit for bit what :func:`xlogx_many` gives."""
    if not x > 0.0:
        return 0.0
    m, e = math.frexp(x if x > _TINY else _TINY)  # m in [0.5, 1)
    if m < _M_SPLIT:
        m *= 2.0
        e -= 1
    return x * _log_reduced(m, np.float64(e))


@njit(cache=True, nogil=True, error_model="numpy")
def xlogx_many(v, mant, out):
    """``out[i] = v[i] * log(v[i])`` (0 where ``v[i] <= 0``) for a whole array.

    Split scans with the entropy criterion take six logarithms per candidate bin;
    a call to the C library's ``log`` per value cannot be vectorised, these loops
    can (integer exponent extraction, then a polynomial; ``error_model="numpy"``
    drops the zero-division check that would stop vectorisation), which makes the
    scan several times faster.  Same result as :func:`_xlogx`, bit for bit; within
    about 2 ulp of ``x * log(x)`` with the C library's ``log``.  Values are clamped
    below at the smallest normal double (a subnormal weight contributes ~1e-305
    either way).  ``mant`` is ``int64`` scratch of the same length.
    """
    n = v.shape[0]
    bits = out.view(np.int64)
    kf = mant.view(np.float64)
    for i in range(n):
        x = v[i]
        out[i] = x if x > _TINY else _TINY
    for i in range(n):  # x = m * 2**k with m in [sqrt(2)/2, sqrt(2))
        ix = bits[i]
        up = np.int64(((ix >> 32) & 0x000FFFFF) >= _SQRT2_MANT)
        # the biased exponent as the low bits of 2**52 (int -> float without a
        # conversion instruction, which AVX2 lacks for 64-bit integers)
        mant[i] = _TWO52_BITS + (ix >> 52) + up
        bits[i] = (ix & 0x000FFFFFFFFFFFFF) | ((0x3FF - up) << 52)
    for i in range(n):
        lg = _log_reduced(out[i], kf[i] - _TWO52_BIAS)
        x = v[i]
        out[i] = x * lg if x > 0.0 else 0.0


@njit(cache=True, nogil=True)
def node_score(tot, n_stat, crit):
    """Score of a whole node from its totals (see module docstring)."""
    if crit == SQUARED_ERROR:
        w = tot[0]
        if w <= 0.0:
            return 0.0
        return tot[1] * tot[1] / w
    n_cls = n_stat - 1
    w = 0.0
    s = 0.0
    for k in range(n_cls):
        a = tot[k]
        if a < 0.0:
            a = 0.0
        w += a
        if crit == GINI:
            s += a * a
        else:
            s += _xlogx(a)
    if w <= 0.0:
        return 0.0
    if crit == GINI:
        return s / w
    return s - _xlogx(w)


@njit(cache=True, nogil=True)
def _candidate(cum, tot, miss, add_miss, n_val, has_cnt, crit, min_cnt, min_w):
    """Score of the split (left = cum [+ miss], right = the rest).

    ``tot`` holds the node totals (``n_val`` values then the exact count);
    ``cum`` and ``miss`` are histogram rows (with a count if ``has_cnt``).
    Returns ``(valid, score, w_left, w_right)``.
    """
    if has_cnt:
        cl = cum[n_val]
        if add_miss:
            cl += miss[n_val]
        cr = tot[n_val] - cl
        if cl < min_cnt or cr < min_cnt:
            return False, 0.0, 0.0, 0.0
    if crit == SQUARED_ERROR:
        wl = cum[0]
        sl = cum[1]
        if add_miss:
            wl += miss[0]
            sl += miss[1]
        wr = tot[0] - wl
        sr = tot[1] - sl
        if wl <= 0.0 or wr <= 0.0 or wl < min_w or wr < min_w:
            return False, 0.0, 0.0, 0.0
        return True, sl * sl / wl + sr * sr / wr, wl, wr
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
        if crit == GINI:
            sl += a * a
            sr += c * c
        else:
            sl += _xlogx(a)
            sr += _xlogx(c)
    if wl <= 0.0 or wr <= 0.0 or wl < min_w or wr < min_w:
        return False, 0.0, 0.0, 0.0
    if crit == GINI:
        return True, sl / wl + sr / wr, wl, wr
    return True, sl - _xlogx(wl) + sr - _xlogx(wr), wl, wr


@njit(cache=True, nogil=True)
def _bin_empty(hb, n_val, has_cnt, is_reg):
    if has_cnt:
        return hb[n_val] == 0.0
    if is_reg:
        return hb[0] == 0.0
    for k in range(n_val):
        if hb[k] != 0.0:
            return False
    return True


@njit(cache=True, nogil=True)
def _best_split_binary(h, nb, tot, crit, min_w):
    """:func:`_best_split_feature` for two classes, no counts and no missing values.

    The boosters' common case, on scalars: the same arithmetic in the same order
    as :func:`_candidate`, so the same split is chosen.  With entropy the valid
    candidates are collected first and their ``x log x`` terms computed in one
    vectorised pass (:func:`xlogx_many`).
    """
    t0 = tot[0]
    t1 = tot[1]
    a0 = 0.0
    a1 = 0.0
    entropy = crit == ENTROPY
    # entropy: the six x log x arguments of candidate q at terms[j * nb + q]
    terms = np.empty(6 * nb if entropy else 0)
    cand = np.empty(nb if entropy else 0, dtype=np.int64)
    m = 0
    best = -np.inf
    best_bin = -1
    best_wl = 0.0
    best_wr = 0.0
    for b in range(nb):
        h0 = h[b, 0]
        h1 = h[b, 1]
        if b > 0 and h0 == 0.0 and h1 == 0.0:
            continue  # same partition as bin b - 1, which ranks first
        a0 += h0
        a1 += h1
        l0 = a0 if a0 > 0.0 else 0.0
        l1 = a1 if a1 > 0.0 else 0.0
        r0 = t0 - a0
        r1 = t1 - a1
        if r0 < 0.0:
            r0 = 0.0
        if r1 < 0.0:
            r1 = 0.0
        wl = 0.0 + l0 + l1
        wr = 0.0 + r0 + r1
        if wl <= 0.0 or wr <= 0.0 or wl < min_w or wr < min_w:
            continue
        if entropy:
            terms[m] = l0
            terms[nb + m] = l1
            terms[2 * nb + m] = wl
            terms[3 * nb + m] = r0
            terms[4 * nb + m] = r1
            terms[5 * nb + m] = wr
            cand[m] = b
            m += 1
            continue
        sc = (0.0 + l0 * l0 + l1 * l1) / wl + (0.0 + r0 * r0 + r1 * r1) / wr
        if sc > best:
            best = sc
            best_bin = b
            best_wl = wl
            best_wr = wr
    if entropy and m > 0:
        xl = np.empty(6 * nb)
        mant = np.empty(m, dtype=np.int64)
        for j in range(6):
            xlogx_many(terms[j * nb: j * nb + m], mant, xl[j * nb: j * nb + m])
        for q in range(m):
            sc = (0.0 + xl[q] + xl[nb + q]) - xl[2 * nb + q] + (
                0.0 + xl[3 * nb + q] + xl[4 * nb + q]) - xl[5 * nb + q]
            if sc > best:
                best = sc
                best_bin = cand[q]
                best_wl = terms[2 * nb + q]
                best_wr = terms[5 * nb + q]
    # no missing value reached this node: unseen NaN follows the heavier side
    return best, best_bin, best_bin >= 0 and best_wl >= best_wr


@njit(cache=True, nogil=True)
def _best_split_squared(h, nb, tot, min_w):
    """:func:`_best_split_feature` for regression with no counts and no missing values
    (same arithmetic as :func:`_candidate`)."""
    best = -np.inf
    best_bin = -1
    best_wl = 0.0
    best_wr = 0.0
    wl = 0.0
    sl = 0.0
    for b in range(nb):
        hw = h[b, 0]
        if b > 0 and hw == 0.0:
            continue  # same partition as bin b - 1, which ranks first
        wl += hw
        sl += h[b, 1]
        wr = tot[0] - wl
        sr = tot[1] - sl
        if wl <= 0.0 or wr <= 0.0 or wl < min_w or wr < min_w:
            continue
        sc = sl * sl / wl + sr * sr / wr
        if sc > best:
            best = sc
            best_bin = b
            best_wl = wl
            best_wr = wr
    return best, best_bin, best_bin >= 0 and best_wl >= best_wr


@njit(cache=True, nogil=True)
def _best_split_feature(h, nb, missing_bin, tot, n_val, has_cnt, is_reg, crit, min_cnt, min_w,
                        cum):
    """Best split of one feature from its histogram ``h`` (bins x stats).

    Returns ``(score, bin, missing_left)``; score is ``-inf`` if no valid split.
    """
    n_stat = h.shape[1]
    miss = h[missing_bin]
    has_miss = not _bin_empty(miss, n_val, has_cnt, is_reg)
    if not (has_cnt or has_miss):
        if is_reg:
            return _best_split_squared(h, nb, tot, min_w)
        if n_val == 2:
            return _best_split_binary(h, nb, tot, crit, min_w)
    for s in range(n_stat):
        cum[s] = 0.0
    best = -np.inf
    best_bin = -1
    best_ml = False
    best_wl = 0.0
    best_wr = 0.0
    for b in range(nb):
        hb = h[b]
        if b > 0 and _bin_empty(hb, n_val, has_cnt, is_reg):
            continue  # same partition as bin b - 1, which ranks first
        for s in range(n_stat):
            cum[s] += hb[s]
        ok, sc, wl, wr = _candidate(cum, tot, miss, False, n_val, has_cnt, crit, min_cnt, min_w)
        if ok and sc > best:
            best = sc
            best_bin = b
            best_ml = False
            best_wl = wl
            best_wr = wr
        if has_miss:
            ok, sc, wl, wr = _candidate(
                cum, tot, miss, True, n_val, has_cnt, crit, min_cnt, min_w
            )
            if ok and sc > best:
                best = sc
                best_bin = b
                best_ml = True
    if best_bin >= 0 and not has_miss:
        # no missing value reached this node: unseen NaN follows the heavier side
        best_ml = best_wl >= best_wr
    return best, best_bin, best_ml


# --------------------------------------------------------------------------
# Histograms
# --------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def _zero_hist(h, nb, missing_bin):
    n_stat = h.shape[1]
    for b in range(nb):
        for s in range(n_stat):
            h[b, s] = 0.0
    for s in range(n_stat):
        h[missing_bin, s] = 0.0


#: features histogrammed together in one pass over a node's samples (the sample
#: index, weight and class are read once for all of them)
GROUP = 4


@njit(cache=True, nogil=True)
def _build_hist_group(f0, codes, idx, ow, oc, owy, is_reg, has_cnt, dense, start, end, n_bins,
                      missing_bin, hist, spare):
    """Histograms of features ``f0 .. f0 + GROUP - 1`` over the node ``idx[start:end]``.

    One pass reads each sample's index and statistics once for the ``GROUP``
    features.  Features past the last one are histogrammed into ``spare``
    (thrown away), so every pass has the same shape.  ``dense``: the node is
    every row in order (``idx[q] == q``, the root of an unweighted fit), which
    saves the indirection.  The count channel (last) exists only if ``has_cnt``.
    """
    n_features = codes.shape[0]
    fa = f0
    fb = f0 + 1
    fc = f0 + 2
    fd = f0 + 3
    ha = hist[fa]
    hb = hist[fb] if fb < n_features else spare[0]
    hc = hist[fc] if fc < n_features else spare[1]
    hd = hist[fd] if fd < n_features else spare[2]
    ra = codes[fa]
    rb = codes[fb] if fb < n_features else ra
    rc = codes[fc] if fc < n_features else ra
    rd = codes[fd] if fd < n_features else ra
    _zero_hist(ha, n_bins[fa], missing_bin)
    _zero_hist(hb, n_bins[fb] if fb < n_features else missing_bin, missing_bin)
    _zero_hist(hc, n_bins[fc] if fc < n_features else missing_bin, missing_bin)
    _zero_hist(hd, n_bins[fd] if fd < n_features else missing_bin, missing_bin)
    # slices indexed from 0, unsigned row numbers: LLVM drops the negative-index checks
    ids = idx[start:end]
    ws = ow[start:end]
    n = end - start
    cnt = ha.shape[1] - 1
    if is_reg:
        ys = owy[start:end]
        for q in range(n):
            i = np.uint64(q) if dense else np.uint64(ids[q])
            w = ws[q]
            v = ys[q]
            b = ra[i]
            ha[b, 0] += w
            ha[b, 1] += v
            b = rb[i]
            hb[b, 0] += w
            hb[b, 1] += v
            b = rc[i]
            hc[b, 0] += w
            hc[b, 1] += v
            b = rd[i]
            hd[b, 0] += w
            hd[b, 1] += v
            if has_cnt:
                ha[ra[i], 2] += 1.0
                hb[rb[i], 2] += 1.0
                hc[rc[i], 2] += 1.0
                hd[rd[i], 2] += 1.0
        return
    cs = oc[start:end]
    if has_cnt:
        for q in range(n):
            i = np.uint64(q) if dense else np.uint64(ids[q])
            w = ws[q]
            c = np.uint64(cs[q])
            b = ra[i]
            ha[b, c] += w
            ha[b, cnt] += 1.0
            b = rb[i]
            hb[b, c] += w
            hb[b, cnt] += 1.0
            b = rc[i]
            hc[b, c] += w
            hc[b, cnt] += 1.0
            b = rd[i]
            hd[b, c] += w
            hd[b, cnt] += 1.0
    elif dense:
        for q in range(n):
            w = ws[q]
            c = np.uint64(cs[q])
            ha[ra[q], c] += w
            hb[rb[q], c] += w
            hc[rc[q], c] += w
            hd[rd[q], c] += w
    else:
        for q in range(n):
            i = np.uint64(ids[q])
            w = ws[q]
            c = np.uint64(cs[q])
            ha[ra[i], c] += w
            hb[rb[i], c] += w
            hc[rc[i], c] += w
            hd[rd[i], c] += w


_SUB_RTOL = 1e-12


@njit(cache=True, nogil=True)
def _subtract_bin(ph, sh, lh, n_val, has_cnt, is_reg):
    """``lh = ph - sh`` for one bin.  Without exact counts, values that are
    rounding residue (at most ``_SUB_RTOL`` of the parent's) become exactly 0,
    so that bins empty in the larger child stay empty."""
    n_stat = lh.shape[0]
    if has_cnt:
        if ph[n_val] == sh[n_val]:
            for s in range(n_stat):
                lh[s] = 0.0
        else:
            for s in range(n_stat):
                lh[s] = ph[s] - sh[s]
    elif is_reg:
        w = ph[0] - sh[0]
        if w <= _SUB_RTOL * ph[0]:
            lh[0] = 0.0
            lh[1] = 0.0
        else:
            lh[0] = w
            lh[1] = ph[1] - sh[1]
    else:
        for k in range(n_val):
            v = ph[k] - sh[k]
            lh[k] = v if v > _SUB_RTOL * ph[k] else 0.0


@njit(cache=True, nogil=True)
def _node_group(
    g, codes, idx, ow, oc, owy, is_reg, crit, dense, start, end, n_bins, missing_bin,
    parent_hist, small_hist, large_hist, do_sub, small_tot, large_tot,
    find_small, find_large, min_cnt, min_w, scores, bins, mls, scratch,
):
    f0 = GROUP * g
    n_val = small_tot.shape[0] - 1
    n_stat = small_hist.shape[2]
    has_cnt = n_stat > n_val
    last = min(f0 + GROUP, codes.shape[0])
    if last - f0 < GROUP:
        spare = np.empty((GROUP - 1, small_hist.shape[1], n_stat))
    else:
        spare = np.empty((0, 1, 1))
    _build_hist_group(
        f0, codes, idx, ow, oc, owy, is_reg, has_cnt, dense, start, end, n_bins, missing_bin,
        small_hist, spare,
    )
    for f in range(f0, last):
        nb = n_bins[f]
        if do_sub:
            ph = parent_hist[f]
            sh = small_hist[f]
            lh = large_hist[f]
            for b in range(nb):
                _subtract_bin(ph[b], sh[b], lh[b], n_val, has_cnt, is_reg)
            _subtract_bin(ph[missing_bin], sh[missing_bin], lh[missing_bin], n_val, has_cnt,
                          is_reg)
        cum = scratch[f]
        if find_small:
            sc, b, ml = _best_split_feature(
                small_hist[f], nb, missing_bin, small_tot, n_val, has_cnt, is_reg, crit,
                min_cnt, min_w, cum,
            )
            scores[0, f] = sc
            bins[0, f] = b
            mls[0, f] = ml
        if find_large:
            sc, b, ml = _best_split_feature(
                large_hist[f], nb, missing_bin, large_tot, n_val, has_cnt, is_reg, crit,
                min_cnt, min_w, cum,
            )
            scores[1, f] = sc
            bins[1, f] = b
            mls[1, f] = ml


@njit(parallel=True, cache=True, nogil=True)
def node_pair_par(
    codes, idx, ow, oc, owy, is_reg, crit, dense, start, end, n_bins, missing_bin,
    parent_hist, small_hist, large_hist, do_sub, small_tot, large_tot,
    find_small, find_large, min_cnt, min_w, scores, bins, mls, scratch,
):
    """Build the histogram of ``idx[start:end]`` (the smaller child), derive the
    larger sibling by subtraction from the parent if ``do_sub``, and find the
    best split of each feature for the requested children (parallel over
    groups of ``GROUP`` features).  ``dense``: the node is every row in order."""
    for g in prange((codes.shape[0] + GROUP - 1) // GROUP):
        _node_group(
            g, codes, idx, ow, oc, owy, is_reg, crit, dense, start, end, n_bins, missing_bin,
            parent_hist, small_hist, large_hist, do_sub, small_tot, large_tot,
            find_small, find_large, min_cnt, min_w, scores, bins, mls, scratch,
        )


@njit(cache=True, nogil=True)
def node_pair_ser(
    codes, idx, ow, oc, owy, is_reg, crit, dense, start, end, n_bins, missing_bin,
    parent_hist, small_hist, large_hist, do_sub, small_tot, large_tot,
    find_small, find_large, min_cnt, min_w, scores, bins, mls, scratch,
):
    """Serial twin of :func:`node_pair_par` for small nodes."""
    for g in range((codes.shape[0] + GROUP - 1) // GROUP):
        _node_group(
            g, codes, idx, ow, oc, owy, is_reg, crit, dense, start, end, n_bins, missing_bin,
            parent_hist, small_hist, large_hist, do_sub, small_tot, large_tot,
            find_small, find_large, min_cnt, min_w, scores, bins, mls, scratch,
        )


# --------------------------------------------------------------------------
# Categorical splits
# --------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def categorical_split(h, nb, missing_bin, tot, n_val, has_cnt, is_reg, crit, min_cnt, min_w,
                      cum, left):
    """Best split of a categorical feature into a set of categories and the rest.

    LightGBM-style category partitioning (Ke et al. 2017; Fisher 1958): the
    non-empty categories (bins) of the node are ordered by their statistic (the
    mean target for regression, the share of class 1 for two classes; for K > 2
    classes each class's share in turn, keeping the best of the K orderings) and
    every prefix of that order is scored as a threshold split would be (with
    missing values on either side), by :func:`_best_split_feature`. For two
    classes with gini or entropy and for squared error, the best prefix is the
    best of all ``2**(k-1) - 1`` subsets (Fisher 1958; Breiman et al. 1984). Ties
    keep the lower category code first (a stable sort), so the result is
    deterministic.

    Returns ``(score, n_left - 1, missing_left)`` (score ``-inf`` if no valid
    split) and writes ``left[c] = 1`` for the categories that go left.
    """
    n_stat = h.shape[1]
    present = np.empty(nb, dtype=np.int64)
    m = 0
    for b in range(nb):
        left[b] = 0
        if not _bin_empty(h[b], n_val, has_cnt, is_reg):
            present[m] = b
            m += 1
    best = -np.inf
    best_k = -1
    best_ml = False
    if m < 1:
        return best, best_k, best_ml
    h2 = np.zeros((missing_bin + 1, n_stat))
    for s in range(n_stat):
        h2[missing_bin, s] = h[missing_bin, s]
    key = np.empty(m)
    best_order = np.empty(m, dtype=np.int64)
    n_orders = 1 if (is_reg or n_val == 2) else n_val
    for o in range(n_orders):
        for q in range(m):
            hb = h[present[q]]
            if is_reg:
                key[q] = hb[1] / hb[0] if hb[0] > 0.0 else 0.0
            else:
                w = 0.0
                for k in range(n_val):
                    w += hb[k]
                cls = 1 if n_val == 2 else o
                key[q] = hb[cls] / w if w > 0.0 else 0.0
        order = np.argsort(key, kind="mergesort")
        for q in range(m):
            for s in range(n_stat):
                h2[q, s] = h[present[order[q]], s]
        sc, b, ml = _best_split_feature(h2, m, missing_bin, tot, n_val, has_cnt, is_reg, crit,
                                        min_cnt, min_w, cum)
        if sc > best:
            best = sc
            best_k = b
            best_ml = ml
            for q in range(m):
                best_order[q] = present[order[q]]
    for q in range(best_k + 1):
        left[best_order[q]] = 1
    return best, best_k, best_ml


@njit(cache=True, nogil=True)
def categorical_splits(hist, cat_features, n_bins, missing_bin, tot, crit, min_cnt, min_w,
                       is_reg, scores, bins, mls, left_sets, scratch):
    """:func:`categorical_split` of every feature in ``cat_features`` from a node's
    histogram (shape ``(n_features, missing_bin + 1, n_stat)``), overwriting that
    feature's entries of ``scores``, ``bins`` and ``mls`` (one row of the grower's
    arrays) and writing its left set to ``left_sets[f]``."""
    n_val = tot.shape[0] - 1
    has_cnt = hist.shape[2] > n_val
    for j in range(cat_features.shape[0]):
        f = cat_features[j]
        sc, b, ml = categorical_split(hist[f], n_bins[f], missing_bin, tot, n_val, has_cnt,
                                      is_reg, crit, min_cnt, min_w, scratch[f], left_sets[f])
        scores[f] = sc
        bins[f] = b
        mls[f] = ml


# --------------------------------------------------------------------------
# Partition and totals
# --------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def partition(
    codes, idx, ow, oc, owy, is_reg, start, end, feat, split_bin, missing_left,
    missing_bin, buf_i, buf_w, buf_c, buf_y, left_tot, right_tot,
):
    """Stable in-place partition of ``idx[start:end]`` (and the node-ordered
    statistics) into left then right (left: code ``<= split_bin``, missing codes
    by ``missing_left``); also sums the children's statistics.

    Returns the position where the right child starts.
    """
    table = np.empty(missing_bin + 1, dtype=np.uint8)
    for b in range(missing_bin):
        table[b] = b <= split_bin
    table[missing_bin] = missing_left
    return partition_table(codes, idx, ow, oc, owy, is_reg, start, end, feat, table, buf_i,
                           buf_w, buf_c, buf_y, left_tot, right_tot)


@njit(cache=True, nogil=True)
def partition_table(
    codes, idx, ow, oc, owy, is_reg, start, end, feat, table, buf_i, buf_w, buf_c, buf_y,
    left_tot, right_tot,
):
    """:func:`partition` for any split of the codes: a row goes left iff
    ``table[code]`` is 1 (``table`` has ``missing_bin + 1`` entries; categorical
    splits pass their set of left categories, plus the missing-value direction)."""
    row = codes[feat]
    n_stat = left_tot.shape[0]
    cnt = n_stat - 1
    for s in range(n_stat):
        left_tot[s] = 0.0
        right_tot[s] = 0.0
    ids = idx[start:end]
    ws = ow[start:end]
    if is_reg:
        ys = owy[start:end]
        cs = oc[0:0]
    else:
        ys = owy[0:0]
        cs = oc[start:end]
    n = end - start
    nl = 0
    nr = 0
    # branch-free: write to both sides, advance one (the side is unpredictable)
    for q in range(n):
        i = ids[q]
        gi = np.int64(table[row[i]])
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
            left_tot[0] += wl
            right_tot[0] += wr
            left_tot[1] += vl
            right_tot[1] += v - vl
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
    left_tot[cnt] = nl
    right_tot[cnt] = nr
    return start + nl


@njit(cache=True, nogil=True)
def leaves_of_partition(idx, starts, ends, leaf_ids, out):
    """``out[idx[starts[j]:ends[j]]] = leaf_ids[j]`` for every leaf ``j``."""
    for j in range(starts.shape[0]):
        v = leaf_ids[j]
        ids = idx[starts[j]:ends[j]]
        for q in range(ids.shape[0]):
            out[ids[q]] = v


# --------------------------------------------------------------------------
# Prediction
# --------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def leaf_of_binned(codes, feature, split_bin, missing_left, left, right, missing_bin, i):
    """The leaf reached by column ``i`` of ``codes`` (n_features, n_samples)."""
    node = 0
    while left[node] >= 0:
        v = codes[feature[node], i]
        if v == missing_bin:
            go_left = missing_left[node] != 0
        else:
            go_left = v <= split_bin[node]
        node = left[node] if go_left else right[node]
    return node


@njit(cache=True, nogil=True)
def apply_binned_rows(codes, feature, split_bin, missing_left, left, right, missing_bin, rows,
                      out):
    """``out[r] = leaf of column r of codes`` for every ``r`` in ``rows``."""
    for q in range(rows.shape[0]):
        i = rows[q]
        out[i] = leaf_of_binned(codes, feature, split_bin, missing_left, left, right,
                                missing_bin, i)


@njit(cache=True, nogil=True)
def apply_binned(codes, feature, split_bin, missing_left, left, right, missing_bin, lo, hi, out):
    """Leaf index of columns ``lo:hi`` of ``codes`` (n_features, n_samples)."""
    for i in range(lo, hi):
        out[i] = leaf_of_binned(codes, feature, split_bin, missing_left, left, right,
                                missing_bin, i)


@njit(cache=True, nogil=True)
def apply_raw(X, feature, threshold, missing_left, left, right, lo, hi, out):
    """Leaf index of rows ``lo:hi`` of raw ``X``: left iff ``x <= threshold``;
    NaN follows ``missing_left``."""
    for i in range(lo, hi):
        node = 0
        while left[node] >= 0:
            x = X[i, feature[node]]
            if np.isnan(x):
                go_left = missing_left[node] != 0
            else:
                go_left = x <= threshold[node]
            node = left[node] if go_left else right[node]
        out[i] = node


@njit(parallel=True, cache=True, nogil=True)
def apply_binned_par(codes, feature, split_bin, missing_left, left, right, missing_bin, out):
    """Parallel (over chunks of samples) :func:`apply_binned` of all samples."""
    n = codes.shape[1]
    n_chunks = (n + _PRED_CHUNK - 1) // _PRED_CHUNK
    for c in prange(n_chunks):
        lo = c * _PRED_CHUNK
        hi = min(n, lo + _PRED_CHUNK)
        apply_binned(codes, feature, split_bin, missing_left, left, right, missing_bin, lo, hi,
                     out)


@njit(parallel=True, cache=True, nogil=True)
def apply_raw_par(X, feature, threshold, missing_left, left, right, out):
    """Parallel (over chunks of samples) :func:`apply_raw` of all rows."""
    n = X.shape[0]
    n_chunks = (n + _PRED_CHUNK - 1) // _PRED_CHUNK
    for c in prange(n_chunks):
        lo = c * _PRED_CHUNK
        hi = min(n, lo + _PRED_CHUNK)
        apply_raw(X, feature, threshold, missing_left, left, right, lo, hi, out)


# --------------------------------------------------------------------------
# Prediction with categorical splits
# --------------------------------------------------------------------------
@njit(cache=True, nogil=True, inline="always")
def _in_set(bits, node, c):
    """Whether category code ``c`` is in the left set of ``node`` (a bitset row)."""
    return (bits[node, c >> 3] >> (c & 7)) & 1 != 0


@njit(cache=True, nogil=True)
def apply_binned_table(codes, feature, table, left, right, rows, out):
    """``out[r] = leaf of column r of codes`` for every ``r`` in ``rows``, for a tree
    given as routing tables: at node ``n`` a code ``c`` goes left iff ``table[n, c]``
    (see :meth:`~robust_boosting.trees.HistTree.routing_table`; any split kind)."""
    for q in range(rows.shape[0]):
        i = rows[q]
        node = 0
        while left[node] >= 0:
            node = left[node] if table[node, codes[feature[node], i]] else right[node]
        out[i] = node


@njit(cache=True, nogil=True)
def apply_raw_cat(X, feature, threshold, missing_left, is_cat, bits, left, right, out):
    """:func:`apply_raw` for a tree with categorical splits: a categorical
    feature's value is its category code (checked by the caller)."""
    for i in range(X.shape[0]):
        node = 0
        while left[node] >= 0:
            x = X[i, feature[node]]
            if np.isnan(x):
                go_left = missing_left[node] != 0
            elif is_cat[node]:
                go_left = _in_set(bits, node, np.int64(x))
            else:
                go_left = x <= threshold[node]
            node = left[node] if go_left else right[node]
        out[i] = node
