# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, nonecheck=False, cpow=True
"""Histogram kernels of the histogram tree (private): a node's histograms of a group of
features, four per pass over its rows (the node kernels of ``_splitting`` call it per
group of features, then derive the sibling's by subtraction and scan them).

A histogram has shape ``(n_features, missing_bin + 1, n_stat)`` (``float64``).
Classification: ``n_stat = n_classes + 1`` (class weights, then the count);
regression: ``n_stat = 3`` (weight, weighted target, count). The count channel is
present only when ``min_samples_leaf > 1`` needs exact counts. Histograms are built
per group of features by a single thread, so results do not depend on the number of
threads.
"""

from libc.stdint cimport int32_t, int64_t, uint8_t

from robust_boosting.trees._common cimport *

#: features histogrammed together in one pass over a node's samples
GROUP = C_GROUP


# Histograms
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
