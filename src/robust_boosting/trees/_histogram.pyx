# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, nonecheck=False, cpow=True
"""Histogram kernels of the histogram tree (private), and the node kernels built on them:
a node's histograms (four features per pass over its rows), its sibling's by
subtraction, and the best split of each feature (``_splitting``), over groups of
features in parallel.

A histogram has shape ``(n_features, missing_bin + 1, n_stat)`` (``float64``).
Classification: ``n_stat = n_classes + 1`` (class weights, then the count);
regression: ``n_stat = 3`` (weight, weighted target, count). The count channel is
present only when ``min_samples_leaf > 1`` needs exact counts. Histograms are built
per group of features by a single thread, so results do not depend on the number of
threads.
"""

from cython.parallel cimport prange
from libc.math cimport INFINITY
from libc.stdint cimport int32_t, int64_t, uint8_t
from libc.stdlib cimport free, malloc

from robust_boosting.trees._common cimport *
from robust_boosting.trees._splitting cimport _best_split_feature

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
