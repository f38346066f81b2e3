# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, nonecheck=False, cpow=True
"""Tree growth of the histogram tree (private): the one grower of the package's trees.

:func:`grow_all` grows a batch of trees (:mod:`robust_boosting.trees.batched`; a single
tree is a batch of one) around the node kernels of ``_histogram`` and ``_splitting``
and the partition of ``_partition``: depth-first, best-first (``max_leaf_nodes``) or
level by level (symmetric regression trees). See ``_common.pxd`` for the layout.
"""

from cython.parallel cimport prange, threadid
from libc.math cimport INFINITY, isfinite, isnan
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memset

from robust_boosting.trees._common cimport *
from robust_boosting.trees._histogram cimport _build_hist_group
from robust_boosting.trees._partition cimport _partition, _partition_table
from robust_boosting.trees._pool cimport Pool, _keep_spares, _reserve, _slot, _take_spares
from robust_boosting.trees._splitting cimport (
    _child_bounds, _node_score, _run_groups, _sym_choice, _sym_feature_best, _sym_features_add, _sym_level,
    _sym_no_split, _sym_noisy_choice, _sym_noisy_level, _sym_orders, _tree_args)


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
    uint8_t* is_categorical  # (NULL: no categorical feature) 1: a set split
    uint8_t* cats            # its left set, 32 bytes per node (category c: bit c % 8
                             # of byte c // 8)
    double* lo               # (NULL: no monotone constraint) the bounds of each node's
    double* hi               # value (_splitting._child_bounds)


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
    t.feature[nd] = -1
    t.split_bin[nd] = -1
    t.missing_left[nd] = 0
    t.gain[nd] = 0.0
    if t.is_categorical != NULL:
        t.is_categorical[nd] = 0
        memset(t.cats + nd * CAT_SET_BYTES, 0, CAT_SET_BYTES)


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
    ``f`` (missing values left if ``ml``), or by its left set (``t.cats``) if ``f`` is
    categorical, record the split (of gain ``gain``) and make its children ``lnode`` and
    ``lnode + 1`` at depth ``d``; returns the first row of the right child. ``ltot`` and
    ``rtot`` are scratch."""
    cdef int64_t s0 = t.start[node]
    cdef int64_t e0 = t.end[node]
    cdef int64_t mid
    cdef uint8_t table[256]
    cdef const uint8_t* bits
    cdef int c
    cdef double bnd[4]
    if a.is_cat != NULL and a.is_cat[f]:
        bits = t.cats + node * CAT_SET_BYTES
        for c in range(a.missing_bin):
            table[c] = (bits[c >> 3] >> (c & 7)) & 1
        table[a.missing_bin] = ml != 0
        mid = _partition_table(a.codes + f * a.n_rows, idx, ow, oc, owy, a.is_reg, s0, e0,
                               table, buf_i, buf_w, buf_c, buf_y, ltot, rtot, n_stat)
        t.is_categorical[node] = 1
    else:
        mid = _partition(a.codes + f * a.n_rows, idx, ow, oc, owy, a.is_reg, s0, e0, b,
                         ml != 0, a.missing_bin, buf_i, buf_w, buf_c, buf_y, ltot, rtot,
                         n_stat)
    _new_node(t, lnode, ltot, n_stat, d, s0, mid)
    _new_node(t, lnode + 1, rtot, n_stat, d, mid, e0)
    t.left[node] = <int32_t>lnode
    t.right[node] = <int32_t>(lnode + 1)
    t.feature[node] = f
    t.split_bin[node] = b
    t.missing_left[node] = <uint8_t>ml
    t.gain[node] = gain
    if t.lo != NULL:  # the children's bounds (categorical features are never constrained)
        _child_bounds(ltot, rtot, a.is_reg, a.lam, a.mono[f], t.lo[node], t.hi[node], bnd)
        t.lo[lnode] = bnd[0]
        t.hi[lnode] = bnd[1]
        t.lo[lnode + 1] = bnd[2]
        t.hi[lnode + 1] = bnd[3]
    return mid


cdef void _keep_set(const NodeArgs* a, Tree* t, const int64_t* p_split, Py_ssize_t node,
                    int row) noexcept nogil:
    """After :func:`_pick` chose a split for ``node`` from score row ``row``: if its
    feature is categorical, its left set (``a.left_sets``) packed into ``node``'s 32
    bytes of ``t.cats`` (codes below the missing bin, as ``_make_tree`` packs them)."""
    cdef int f = <int>p_split[node * 3]
    cdef const uint8_t* ls
    cdef uint8_t* bits
    cdef int c, nb
    if a.is_cat == NULL or not a.is_cat[f]:
        return
    ls = a.left_sets + (row * a.n_features + f) * (a.missing_bin + 1)
    bits = t.cats + node * CAT_SET_BYTES
    memset(bits, 0, CAT_SET_BYTES)
    nb = a.n_bins[f] if a.n_bins[f] < a.missing_bin else a.missing_bin
    for c in range(nb):
        if ls[c]:
            bits[c >> 3] |= <uint8_t>(1 << (c & 7))


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


cdef double _single(NodeArgs* a, Tree* t, Py_ssize_t node, double* hist, int n_stat,
                    double tol_scale, double cls_rtol, double reg_rtol, int64_t* p_split,
                    double* p_gain, int n_threads, int64_t total_bins, int64_t min_work,
                    int64_t scan_work) noexcept nogil:
    """:meth:`_Grower._evaluate_single` of a node that is not the root (its parent's
    histogram was dropped): its histogram from its rows into ``hist``, its best split
    recorded by :func:`_pick`; returns the gain or -1."""
    cdef int nf = a.n_features
    cdef int q
    cdef double got
    for q in range(2 * nf):
        a.scores[q] = -INFINITY
    a.dense = False
    a.start = t.start[node]
    a.end = t.end[node]
    a.parent_hist = NULL
    a.small_hist = hist
    a.large_hist = NULL
    a.do_sub = False
    a.small_tot = t.tot + node * n_stat
    a.large_tot = a.small_tot
    a.find_small = True
    a.find_large = False
    if t.lo != NULL:
        a.small_lo = t.lo[node]
        a.small_hi = t.hi[node]
    _run_groups(a, _node_threads(a.end - a.start, nf, total_bins, 1, n_threads, min_work,
                                 scan_work))
    got = _pick(a.scores, a.bins, a.mls, nf, t.tot + node * n_stat, n_stat, a.crit, a.is_reg,
                tol_scale, cls_rtol, reg_rtol, p_split, p_gain, node, a.lam)
    if got >= 0:
        _keep_set(a, t, p_split, node, 0)
    return got


cdef inline int32_t _take(int32_t* free_slots, Py_ssize_t* n_free,
                          Py_ssize_t* n_made) noexcept nogil:
    """A free histogram slot: the last given back, else a new one."""
    if n_free[0] > 0:
        n_free[0] -= 1
        return free_slots[n_free[0]]
    n_made[0] += 1
    return <int32_t>(n_made[0] - 1)


cdef Py_ssize_t _grow_one(NodeArgs* a, int n_stat, int32_t* idx, double* ow, int32_t* oc,
                          double* owy, Py_ssize_t n_act, bint dense, const double* d_ow,
                          const int32_t* d_oc, const double* d_owy, const double* root_tot,
                          double tol_scale, int64_t max_depth, double cls_rtol,
                          double reg_rtol, Pool* pool, int64_t hist_bytes,
                          int64_t cache_bytes, int32_t* buf_i, double* buf_w, int32_t* buf_c,
                          double* buf_y, Tree* t, Py_ssize_t max_nodes, int64_t max_leaves,
                          int n_threads, int64_t total_bins, int64_t min_work,
                          int64_t scan_work) noexcept nogil:
    """Grow one tree as :meth:`_Grower.grow` does; returns its node count (0: out of
    memory).

    Depth-first (``max_leaves < 0``: the last pushed candidate is split first) or
    best-first (split the candidate of largest gain, the smallest node id on ties,
    until ``max_leaves`` leaves). A node's kernels run on ``n_threads`` threads when
    its work is at least ``min_work``, else on one (:func:`_node_threads`).

    Histograms follow :class:`_Grower`'s cache policy exactly: ``n_live`` counts the
    histograms it would hold (``_alloc_hist``, ``_release``); a candidate's histogram is
    kept only while ``n_live * hist_bytes`` does not exceed ``cache_bytes``
    (``_keep_hist``), else dropped, and a node whose histogram was dropped has each
    child histogrammed from its rows (``_evaluate_single``) instead of the smaller one
    and the larger by subtraction. A node's histogram lives in a pool slot
    (``slot_of``, -1 when dropped) until its children are built (the larger child's
    subtracted in place, into the same slot); slots given back are reused first, and a
    slot's memory is allocated at its first use, so memory follows the histograms
    alive, not the tree's size.
    """
    cdef int nf = a.n_features
    cdef double* scores = a.scores
    cdef int64_t* p_split = <int64_t*>malloc(max_nodes * 3 * sizeof(int64_t))
    cdef double* p_gain = <double*>malloc(max_nodes * sizeof(double))
    cdef int64_t* stack = <int64_t*>malloc(max_nodes * sizeof(int64_t))
    cdef double* ltot = <double*>malloc(n_stat * sizeof(double))
    cdef double* rtot = <double*>malloc(n_stat * sizeof(double))
    cdef int32_t* slot_of = <int32_t*>malloc(max_nodes * sizeof(int32_t))
    cdef int32_t* free_slots = <int32_t*>malloc(max_nodes * sizeof(int32_t))
    cdef Py_ssize_t n_free = 0
    cdef Py_ssize_t n_made = 0
    cdef int64_t n_live = 0
    cdef int32_t slot_p, slot_s
    cdef double* hist
    cdef Py_ssize_t n_nodes = 1
    cdef Py_ssize_t top, node, lnode, rnode, small, large, q, child
    cdef int64_t s0, e0, mid, ss, se
    cdef int32_t d
    cdef bint find_l, find_r, small_is_left, find_s, find_g
    cdef double got_s, got_g, got_l, got_r, got
    cdef double min_cnt = a.min_cnt
    cdef double min_w = a.min_w
    cdef bint is_reg = a.is_reg
    cdef bint best_first = max_leaves >= 0
    cdef int64_t n_leaves = 1
    cdef Py_ssize_t pick_at
    _new_node(t, 0, root_tot, n_stat, 0, 0, n_act)
    if t.lo != NULL:
        t.lo[0] = -INFINITY
        t.hi[0] = INFINITY
    if (p_split == NULL or p_gain == NULL or stack == NULL or ltot == NULL or rtot == NULL
            or slot_of == NULL or free_slots == NULL):
        n_nodes = 0
    elif _can_split(root_tot, 0, max_depth, n_stat, min_cnt, min_w, is_reg):
        for q in range(2 * nf):
            scores[q] = -INFINITY
        slot_of[0] = _take(free_slots, &n_free, &n_made)
        n_live = 1
        hist = _slot(pool, slot_of[0])
        top = 0
        if hist == NULL:
            n_nodes = 0
        else:
            _root_hist(a, idx, ow, oc, owy, n_act, dense, d_ow, d_oc, d_owy, root_tot, hist,
                       True, n_threads, total_bins, min_work, scan_work)
            if _pick(scores, a.bins, a.mls, nf, root_tot, n_stat, a.crit, is_reg, tol_scale,
                     cls_rtol, reg_rtol, p_split, p_gain, 0, a.lam) >= 0:
                _keep_set(a, t, p_split, 0, 0)
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
            if n_nodes + 2 > max_nodes:  # (never expected: max_nodes bounds the tree)
                n_nodes = 0
                break
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
            got_l = -1.0
            got_r = -1.0
            if not (find_l or find_r):
                if slot_p >= 0:  # _release(hist)
                    free_slots[n_free] = slot_p
                    n_free += 1
                    n_live -= 1
                continue
            if slot_p < 0:
                # the parent's histogram was dropped: each child from its rows, the left
                # one first (_evaluate_single)
                for child in range(lnode, lnode + 2):
                    if not (find_l if child == lnode else find_r):
                        continue
                    slot_s = _take(free_slots, &n_free, &n_made)
                    n_live += 1
                    hist = _slot(pool, slot_s)
                    if hist == NULL:
                        n_nodes = 0
                        break
                    got = _single(a, t, child, hist, n_stat, tol_scale, cls_rtol, reg_rtol,
                                  p_split, p_gain, n_threads, total_bins, min_work, scan_work)
                    slot_of[child] = slot_s
                    if got < 0:
                        free_slots[n_free] = slot_s
                        n_free += 1
                        n_live -= 1
                        slot_of[child] = -1
                    if child == lnode:
                        got_l = got
                    else:
                        got_r = got
                if n_nodes == 0:
                    break
            else:
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
                slot_s = _take(free_slots, &n_free, &n_made)
                hist = _slot(pool, slot_s)
                if hist == NULL:
                    n_nodes = 0
                    break
                a.parent_hist = pool.ptr[slot_p]
                a.small_hist = hist
                a.large_hist = pool.ptr[slot_p] if find_g else NULL  # in place
                a.do_sub = find_g
                a.small_tot = t.tot + small * n_stat
                a.large_tot = t.tot + large * n_stat
                a.find_small = find_s
                a.find_large = find_g
                if t.lo != NULL:
                    a.small_lo = t.lo[small]
                    a.small_hi = t.hi[small]
                    a.large_lo = t.lo[large]
                    a.large_hi = t.hi[large]
                _run_groups(a, _node_threads(se - ss, nf, total_bins,
                                             <int>find_s + <int>find_g, n_threads, min_work,
                                             scan_work))
                got_s = -1.0
                got_g = -1.0
                if find_s:
                    got_s = _pick(scores, a.bins, a.mls, nf, t.tot + small * n_stat, n_stat,
                                  a.crit, is_reg, tol_scale, cls_rtol, reg_rtol, p_split,
                                  p_gain, small, a.lam)
                    if got_s >= 0:
                        _keep_set(a, t, p_split, small, 0)
                if find_g:
                    got_g = _pick(scores + nf, a.bins + nf, a.mls + nf, nf,
                                  t.tot + large * n_stat, n_stat, a.crit, is_reg, tol_scale,
                                  cls_rtol, reg_rtol, p_split, p_gain, large, a.lam)
                    if got_g >= 0:
                        _keep_set(a, t, p_split, large, 1)
                # the count of _Grower: the small and large children's histograms allocated,
                # those without a split and the parent's released
                n_live += 1 + <int>find_g - 1
                slot_of[small] = slot_s
                slot_of[large] = slot_p
                if got_s < 0:
                    free_slots[n_free] = slot_s
                    n_free += 1
                    n_live -= 1
                    slot_of[small] = -1
                if got_g < 0:  # (also when not find_g: the parent's slot is free)
                    free_slots[n_free] = slot_p
                    n_free += 1
                    slot_of[large] = -1
                    if find_g:
                        n_live -= 1
                got_l = got_s if small_is_left else got_g
                got_r = got_g if small_is_left else got_s
            # push the left child, then the right one (popped first), as _Grower.grow
            # does, each keeping its histogram within the cache budget (_keep_hist)
            for child in range(lnode, lnode + 2):
                if (got_l if child == lnode else got_r) < 0:
                    continue
                if n_live * hist_bytes > cache_bytes:
                    n_live -= 1
                    free_slots[n_free] = slot_of[child]
                    n_free += 1
                    slot_of[child] = -1
                stack[top] = child
                top += 1
    if n_nodes > 0 and t.is_categorical != NULL:
        for q in range(n_nodes):  # the sets of candidates never divided
            if not t.is_categorical[q]:
                memset(t.cats + q * CAT_SET_BYTES, 0, CAT_SET_BYTES)
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
                      double* buf_y, double* tots, int n_stat, bint last, double** pool,
                      int32_t* slot_of, int32_t slot_s, int32_t slot_l,
                      int n_threads, int64_t total_bins, int64_t min_work,
                      int64_t scan_work, const SymOrder* so) noexcept nogil:
    """Divide ``node`` of a symmetric level at the level's split ``(f, b)``: partition its
    rows, make its children ``lnode`` and ``lnode + 1`` (:func:`_divide`) and, unless the
    level is the ``last``, histogram the smaller child into the pool's slot ``slot_s`` and
    subtract the larger one into slot ``slot_l`` (the parent's own: in place), on
    ``n_threads`` threads when the node's work is large enough. Touches only the node's
    rows (of the row arrays and of the ``buf_*`` scratch), its children's records and
    ``tots`` (``2 n_stat``), so the nodes of a level can be divided side by side. A
    categorical feature ``f`` of ``so`` sends its categories of rank up to ``b`` left
    (the node's set split, ``t.cats``)."""
    cdef NodeArgs a = a0[0]
    cdef int64_t s0 = t.start[node]
    cdef int64_t e0 = t.end[node]
    cdef int32_t slot_p = slot_of[node]
    cdef Py_ssize_t small, large
    cdef int64_t mid
    cdef uint8_t* bits
    cdef int r, c
    if so != NULL and so.n_ordered[f] >= 0:
        bits = t.cats + node * CAT_SET_BYTES
        memset(bits, 0, CAT_SET_BYTES)
        for r in range(b + 1 if b < so.n_ordered[f] else so.n_ordered[f]):
            c = so.order[f * (a.missing_bin + 1) + r]
            bits[c >> 3] |= <uint8_t>(1 << (c & 7))
    mid = _divide(&a, t, node, lnode, f, b, ml, gain, d, idx, ow, NULL, owy,
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
    a.parent_hist = pool[slot_p]
    a.small_hist = pool[slot_s]
    a.large_hist = pool[slot_l]
    a.do_sub = True
    a.small_tot = t.tot + small * n_stat
    a.large_tot = t.tot + large * n_stat
    _run_groups(&a, _node_threads(a.end - a.start, a.n_features, total_bins, 0, n_threads,
                                  min_work, scan_work))
    slot_of[small] = slot_s
    slot_of[large] = slot_l


cdef void _sym_divide_nodes(const NodeArgs* a, Tree* t, const int64_t* lvl,
                            const Py_ssize_t* div, const int* mlv, const double* gains,
                            Py_ssize_t q0, Py_ssize_t q1, Py_ssize_t n_nodes, int f, int b,
                            int64_t d, int32_t* idx, double* ow, double* owy, int32_t* buf_i,
                            double* buf_w, int32_t* buf_c, double* buf_y, double* tots,
                            int n_stat, bint last, double** pool,
                            int32_t* slot_of, const int32_t* pair_slots, int n_threads,
                            int64_t total_bins, int64_t min_work,
                            int64_t scan_work, const SymOrder* so) noexcept nogil:
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
    cdef int64_t work = 0
    cdef bint side = n_threads > 1 and q1 - q0 >= SYM_NODES_PER_THREAD * n_threads
    if side:
        # side by side only for the parallel minimum of work (a unit per row and
        # feature, scan_work per bin scanned): below it, waking the threads of a
        # team took longer than the nodes (design record 0045)
        for q in range(q0, q1):
            work += t.end[lvl[div[q]]] - t.start[lvl[div[q]]]
        side = work * a.n_features + scan_work * total_bins * (q1 - q0) >= min_work
    if side:
        for q in prange(q0, q1, num_threads=n_threads, schedule="dynamic"):
            _sym_divide(a, t, lvl[div[q]], n_nodes + 2 * q, f, b, mlv[div[q]], gains[div[q]],
                        <int32_t>d, idx, ow, owy, buf_i, buf_w, buf_c, buf_y,
                        tots + 2 * (q - q0) * n_stat, n_stat, last, pool, slot_of,
                        pair_slots[2 * (q - q0)], pair_slots[2 * (q - q0) + 1], 1, total_bins,
                        min_work, scan_work, so)
    else:
        for q in range(q0, q1):
            _sym_divide(a, t, lvl[div[q]], n_nodes + 2 * q, f, b, mlv[div[q]], gains[div[q]],
                        <int32_t>d, idx, ow, owy, buf_i, buf_w, buf_c, buf_y,
                        tots + 2 * (q - q0) * n_stat, n_stat, last, pool, slot_of,
                        pair_slots[2 * (q - q0)], pair_slots[2 * (q - q0) + 1], n_threads,
                        total_bins, min_work, scan_work, so)


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
                            double* buf_y, double* tots, Pool* pool,
                            int32_t* slot_of, int32_t* free_slots, Py_ssize_t* n_free,
                            int64_t* lvl, Py_ssize_t m, const int* mlv, const double* gains,
                            const Py_ssize_t* div, Py_ssize_t n_div, int f, int b, int64_t d,
                            int64_t max_depth, Py_ssize_t n_nodes, double reg_rtol,
                            double tol_scale, int64_t* nxt, const double** hp,
                            const double** tp, double* tol, int64_t* par, int64_t* small_of,
                            double* acc, int* used, double* scan, double* fscore,
                            int32_t* fbin, int n_threads, int64_t total_bins, int64_t min_work,
                            int64_t scan_work, const SymOrder* so) noexcept nogil:
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
        if _slot(pool, sc[k]) == NULL:
            n_free[0] += 2 * chunk
            free(sc)
            return -1
    for k in range(nf * (mb + 1)):
        acc[k] = 0.0
    lvl_threads = n_threads if 2 * n_div * total_bins * scan_work >= min_work else 1
    while q0 < n_div:
        q1 = q0 + chunk if q0 + chunk < n_div else n_div
        _sym_divide_nodes(a, t, lvl, div, mlv, gains, q0, q1, n_nodes, f, b, d, idx, ow, owy,
                          buf_i, buf_w, buf_c, buf_y, tots, n_stat, False, pool.ptr,
                          slot_of, sc, n_threads, total_bins, min_work, scan_work, so)
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
            hp[k] = pool.ptr[slot_of[nxt[k]]]
            tp[k] = t.tot + nxt[k] * n_stat
            tol[k] = reg_rtol * tol_scale * tp[k][0]
        if nm > m0:
            _sym_features_add(hp + m0, tp + m0, tol + m0, nm - m0, nf, a.n_bins, mb, ns,
                              a.min_cnt, a.min_w, a.lam, acc, used, scan, lvl_threads, so)
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
                          double reg_rtol, Pool* pool, Py_ssize_t n_slots, int32_t* buf_i,
                          double* buf_w, int32_t* buf_c, double* buf_y, Tree* t,
                          Py_ssize_t max_nodes, int n_threads, int64_t total_bins,
                          int64_t min_work, int64_t scan_work, SymOrder* so) noexcept nogil:
    """Grow one symmetric regression tree as :meth:`_SymmetricGrower.grow` does; returns
    its node count (0 when out of memory).

    Categorical features (``so``, NULL: none) are ranked once from the root's histogram
    (:func:`_sym_orders`); a level's split of one is a threshold on the ranks, stored as
    each divided node's set split.

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
        if not _reserve(pool, n_slots) or _slot(pool, free_slots[n_free - 1]) == NULL:
            n_nodes = 0
        elif _can_split(root_tot, 0, max_depth, n_stat, a.min_cnt, a.min_w, True):
            n_free -= 1
            slot_of[0] = free_slots[n_free]
            _root_hist(a, idx, ow, NULL, owy, n_act, dense, d_ow, NULL, d_owy, root_tot,
                       pool.ptr[slot_of[0]], False, n_threads, total_bins, min_work,
                       scan_work)
            if so != NULL:  # (before the root's slot is reused)
                _sym_orders(a, pool.ptr[slot_of[0]], root_tot, so)
            lvl[0] = 0
            m = 1
            d = 1
            while d <= max_depth and m > 0:
                if not streamed:  # (the stream has scored the last level)
                    for i in range(m):
                        hp[i] = pool.ptr[slot_of[lvl[i]]]
                        tp[i] = t.tot + lvl[i] * n_stat
                        tol[i] = reg_rtol * tol_scale * tp[i][0]
                    lvl_threads = n_threads if m * total_bins * scan_work >= min_work else 1
                    if a.rs > 0.0:
                        _sym_noisy_level(hp, tp, tol, m, nf, a.n_bins, a.missing_bin, ns,
                                         a.min_cnt, a.min_w, a.lam, a.rs, a.rs_seed, d, acc,
                                         sused, sscan, fscore, fbin, lvl_threads, so)
                    else:
                        _sym_level(hp, tp, tol, m, nf, a.n_bins, a.missing_bin, ns, a.min_cnt,
                                   a.min_w, a.lam, fscore, fbin, lvl_threads, so)
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
                                          pool.ptr[slot_of[p]] + f * hsz, grp,
                                          grp + C_GROUP * hsz, large, p != cur_p)
                        cur_p = p
                    else:
                        hf = pool.ptr[slot_of[lvl[i]]] + f * hsz
                    mlv[i] = _sym_choice(hf, tp[i], tol[i], b, a.missing_bin, ns,
                                         a.min_cnt, a.min_w, a.lam, &gains[i], so, f)
                    if mlv[i] >= 0:
                        div[n_div] = i
                        n_div += 1
                if n_div == 0:
                    break
                last = d == max_depth
                if d == max_depth - 1:
                    nm = _sym_stream(a, t, n_stat, idx, ow, owy, buf_i, buf_w, buf_c, buf_y,
                                     tots, pool, slot_of, free_slots, &n_free, lvl,
                                     m, mlv, gains, div, n_div, f, b, d, max_depth, n_nodes,
                                     reg_rtol, tol_scale, nxt, hp, tp, tol, par, small_of, acc,
                                     sused, sscan, fscore, fbin, n_threads, total_bins,
                                     min_work, scan_work, so)
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
                    if not last and _slot(pool, pair_slots[2 * q]) == NULL:
                        n_nodes = 0
                if n_nodes == 0:
                    break
                _sym_divide_nodes(a, t, lvl, div, mlv, gains, 0, n_div, n_nodes, f, b, d, idx,
                                  ow, owy, buf_i, buf_w, buf_c, buf_y, tots, n_stat, last,
                                  pool.ptr, slot_of, pair_slots, n_threads, total_bins,
                                  min_work, scan_work, so)
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
    Pool pool
    int32_t* buf_i
    double* buf_w
    int32_t* buf_c
    double* buf_y
    double* scores
    int32_t* bins
    uint8_t* mls
    double* scratch
    uint8_t* left_sets  # (2, nf, missing_bin + 1): trees with categorical features
    uint8_t* sym_order   # (nf, missing_bin + 1) and (nf,): a symmetric tree's ranked
    int32_t* sym_n       # categories (SymOrder), trees with categorical features


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
    Py_ssize_t pool_slots  # histogram slots of a symmetric tree's pool
    int64_t cache_bytes    # _HIST_CACHE_BYTES: histograms kept for subtraction
    const uint8_t* is_cat  # categorical features (NULL: none)
    const double* min_cat_cnt
    const double* cat_lam
    Tree trees  # the (k, max_nodes) arrays of the results (at tree 0)
    const int8_t* mono  # the features' monotone constraints (NULL: none)
    int64_t* n_nodes
    const int64_t* max_leaves
    const uint8_t* symmetric
    const double* rs
    const uint64_t* rs_seed
    int64_t min_work
    int64_t scan_work


cdef int _alloc_workspace(Workspace* w, const Batch* b, Py_ssize_t n_max) noexcept nogil:
    """Allocate ``w``'s buffers for trees of at most ``n_max`` rows; 0 on failure."""
    w.pool.ptr = NULL
    w.pool.cap = 0
    w.pool.hist_size = b.hist_size
    w.left_sets = NULL
    w.sym_order = NULL
    w.sym_n = NULL
    if b.is_cat != NULL:
        w.left_sets = <uint8_t*>malloc(2 * b.nf * (b.missing_bin + 1) * sizeof(uint8_t))
        w.sym_order = <uint8_t*>malloc(b.nf * (b.missing_bin + 1) * sizeof(uint8_t))
        w.sym_n = <int32_t*>malloc(b.nf * sizeof(int32_t))
        if w.left_sets == NULL or w.sym_order == NULL or w.sym_n == NULL:
            return 0
    w.buf_i = <int32_t*>malloc((n_max + 1) * sizeof(int32_t))
    w.buf_w = <double*>malloc((n_max + 1) * sizeof(double))
    w.buf_c = <int32_t*>malloc((n_max + 1) * sizeof(int32_t))
    w.buf_y = <double*>malloc((n_max + 1) * sizeof(double))
    w.scores = <double*>malloc(2 * b.nf * sizeof(double))
    w.bins = <int32_t*>malloc(2 * b.nf * sizeof(int32_t))
    w.mls = <uint8_t*>malloc(2 * b.nf * sizeof(uint8_t))
    w.scratch = <double*>malloc(b.nf * b.n_stat * sizeof(double))
    return (w.buf_i != NULL and w.buf_w != NULL and w.buf_c != NULL
            and w.buf_y != NULL and w.scores != NULL and w.bins != NULL and w.mls != NULL
            and w.scratch != NULL)


cdef void _free_workspace(Workspace* w) noexcept nogil:
    """Free ``w``'s buffers but its pool (``grow_all`` keeps its slots as spares)."""
    free(w.left_sets)
    free(w.sym_order)
    free(w.sym_n)
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
    cdef SymOrder so
    cdef Py_ssize_t a0 = b.starts[j]
    cdef Py_ssize_t z0 = b.ends[j]
    cdef Py_ssize_t m = b.max_nodes
    _tree_args(&a, b.codes, b.n_rows, b.nf, b.is_reg, b.crit, b.n_bins, b.missing_bin,
               b.hist_stat, b.n_stat - 1, b.min_cnt[j], b.min_w[j], b.lam[j], w.scores, w.bins,
               w.mls, w.scratch, b.n_stat)
    t.is_categorical = NULL
    t.cats = NULL
    t.lo = NULL
    t.hi = NULL
    if b.mono != NULL:
        a.mono = b.mono
        t.lo = b.trees.lo + j * m
        t.hi = b.trees.hi + j * m
    if b.is_cat != NULL:
        # set splits scanned in the node kernels; no scan skips a feature below another's
        # score, as in the Python grower (whose categorical scores replace the scan's)
        a.use_floor = False
        a.is_cat = b.is_cat
        a.min_cat_cnt = b.min_cat_cnt[j]
        a.cat_lam = b.cat_lam[j]
        a.left_sets = w.left_sets
        t.is_categorical = b.trees.is_categorical + j * m
        t.cats = b.trees.cats + j * m * CAT_SET_BYTES
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
        so.order = w.sym_order
        so.n_ordered = w.sym_n
        b.n_nodes[j] = _grow_sym(
            &a, b.n_stat, b.idx_all + a0 if z0 > a0 else NULL,
            b.ow_all + a0 if z0 > a0 else NULL, b.owy_all + a0 if z0 > a0 else NULL,
            z0 - a0, b.dense[j] != 0, b.d_ow + j * b.d_ow_stride, b.d_owy + j * b.d_owy_stride,
            b.root_tot + j * b.n_stat, b.tol_scale[j], b.max_depth[j], b.reg_rtol, &w.pool,
            min(b.pool_slots, m), w.buf_i, w.buf_w, w.buf_c, w.buf_y, &t, m, n_threads,
            b.total_bins, b.min_work, b.scan_work, &so if b.is_cat != NULL else NULL)
        return
    b.n_nodes[j] = _grow_one(
        &a, b.n_stat, b.idx_all + a0 if z0 > a0 else NULL,
        b.ow_all + a0 if z0 > a0 else NULL,
        NULL if b.is_reg or z0 == a0 else b.oc_all + a0,
        NULL if (not b.is_reg) or z0 == a0 else b.owy_all + a0,
        z0 - a0, b.dense[j] != 0, b.d_ow + j * b.d_ow_stride,
        <const int32_t*>NULL if b.is_reg else b.d_oc + j * b.d_oc_stride,
        b.d_owy + j * b.d_owy_stride if b.is_reg else NULL,
        b.root_tot + j * b.n_stat, b.tol_scale[j], b.max_depth[j], b.cls_rtol, b.reg_rtol,
        &w.pool, 8 * b.hist_size, b.cache_bytes, w.buf_i, w.buf_w, w.buf_c, w.buf_y, &t, m,
        b.max_leaves[j],
        n_threads, b.total_bins, b.min_work, b.scan_work)


cdef class TreeBatch:
    """The arrays and settings of :func:`grow_all`'s ``k`` trees, given by keyword (a
    tree's settings at its index ``j``; the result arrays ``(k, max_nodes)``, filled by
    :func:`grow_all`).

    The data: ``codes`` (transposed, ``(n_features, n_rows)``), ``n_bins``,
    ``missing_bin``, ``is_reg``, ``crit``, ``n_stat`` (the node totals' statistics) and
    ``hist_stat`` (the histograms'). The rows: tree ``j`` on ``starts[j]:ends[j]``
    (disjoint) of ``idx_all``, ``ow_all`` and ``oc_all``/``owy_all``, partitioned in
    place; with ``dense[j]`` its root is histogrammed from the per-row statistics
    ``d_ow[j]``, ``d_oc[j]``/``d_owy[j]`` (one row for all trees when there is one);
    ``root_tot[j]``: its root's totals. Per tree: ``tol_scale``, ``max_depth``,
    ``min_cnt``, ``min_w``, ``lam`` (the L2 penalty, regression), ``max_leaves``
    (best-first if not negative), ``symmetric`` (a symmetric regression tree) and its
    random split scores ``rs``/``rs_seed``. Categorical features: ``is_cat`` (a flag per
    feature, or empty: none), per tree ``min_cat_cnt`` (a category of fewer rows at a node
    takes no part in its split) and ``cat_lam`` (the L2 penalty of a set split's
    children). Monotone constraints: ``mono`` (-1, 0 or +1 per feature, or empty: none;
    not for symmetric trees), the bounds of each node's value in ``lower``/``upper``. The grower's constants: ``cls_rtol``, ``reg_rtol`` (the least gain),
    ``min_work``, ``scan_work`` (when a node's kernels run threaded), ``cache_bytes``
    (the most bytes of candidates' histograms kept for subtraction, ``_HIST_CACHE_BYTES``).
    The results: ``left``, ``right``, ``feature``, ``split_bin``, ``missing_left``,
    ``gain``, ``tot``, ``depth``, ``start``, ``end`` per node, with categorical features
    ``is_categorical`` and ``categories_left`` (32 bytes per node; else arrays of no
    node), and ``n_nodes`` per tree.
    """
    # the data
    cdef const uint8_t[:, ::1] codes
    cdef const int32_t[::1] n_bins
    cdef int missing_bin
    cdef bint is_reg
    cdef int crit
    cdef int n_stat
    cdef int hist_stat
    # the rows
    cdef int32_t[::1] idx_all
    cdef double[::1] ow_all
    cdef int32_t[::1] oc_all
    cdef double[::1] owy_all
    cdef const int64_t[::1] starts
    cdef const int64_t[::1] ends
    cdef const uint8_t[::1] dense
    cdef const double[:, ::1] d_ow
    cdef const int32_t[:, ::1] d_oc
    cdef const double[:, ::1] d_owy
    cdef const double[:, ::1] root_tot
    # per tree
    cdef const double[::1] tol_scale
    cdef const int64_t[::1] max_depth
    cdef const double[::1] min_cnt
    cdef const double[::1] min_w
    cdef const double[::1] lam
    cdef const int64_t[::1] max_leaves
    cdef const uint8_t[::1] symmetric
    cdef const double[::1] rs
    cdef const uint64_t[::1] rs_seed
    cdef const uint8_t[::1] is_cat
    cdef const double[::1] min_cat_cnt
    cdef const double[::1] cat_lam
    cdef bint has_mono
    cdef const int8_t[::1] mono
    # the grower's constants
    cdef double cls_rtol
    cdef double reg_rtol
    cdef int64_t min_work
    cdef int64_t scan_work
    cdef int64_t cache_bytes
    # the results
    cdef int32_t[:, ::1] left
    cdef int32_t[:, ::1] right
    cdef int32_t[:, ::1] feature
    cdef int32_t[:, ::1] split_bin
    cdef uint8_t[:, ::1] missing_left
    cdef double[:, ::1] gain
    cdef double[:, :, ::1] tot
    cdef int32_t[:, ::1] depth
    cdef int64_t[:, ::1] start
    cdef int64_t[:, ::1] end
    cdef uint8_t[:, ::1] is_categorical
    cdef uint8_t[:, :, ::1] categories_left
    cdef double[:, ::1] lower
    cdef double[:, ::1] upper
    cdef int64_t[::1] n_nodes

    def __init__(self, *, codes, n_bins, missing_bin, is_reg, crit, n_stat, hist_stat,
                 idx_all, ow_all, oc_all, owy_all, starts, ends, dense, d_ow, d_oc,
                 d_owy, root_tot, tol_scale, max_depth, min_cnt, min_w, lam, max_leaves,
                 symmetric, rs, rs_seed, is_cat, min_cat_cnt, cat_lam, cls_rtol, reg_rtol,
                 min_work, scan_work, cache_bytes, left, right, feature, split_bin,
                 missing_left, gain, tot, depth, start, end, is_categorical,
                 categories_left, n_nodes, mono=None, lower=None, upper=None):
        self.codes = codes
        self.n_bins = n_bins
        self.missing_bin = missing_bin
        self.is_reg = is_reg
        self.crit = crit
        self.n_stat = n_stat
        self.hist_stat = hist_stat
        self.idx_all = idx_all
        self.ow_all = ow_all
        self.oc_all = oc_all
        self.owy_all = owy_all
        self.starts = starts
        self.ends = ends
        self.dense = dense
        self.d_ow = d_ow
        self.d_oc = d_oc
        self.d_owy = d_owy
        self.root_tot = root_tot
        self.tol_scale = tol_scale
        self.max_depth = max_depth
        self.min_cnt = min_cnt
        self.min_w = min_w
        self.lam = lam
        self.max_leaves = max_leaves
        self.symmetric = symmetric
        self.rs = rs
        self.rs_seed = rs_seed
        self.is_cat = is_cat
        self.min_cat_cnt = min_cat_cnt
        self.cat_lam = cat_lam
        self.cache_bytes = cache_bytes
        self.is_categorical = is_categorical
        self.categories_left = categories_left
        self.cls_rtol = cls_rtol
        self.reg_rtol = reg_rtol
        self.min_work = min_work
        self.scan_work = scan_work
        self.left = left
        self.right = right
        self.feature = feature
        self.split_bin = split_bin
        self.missing_left = missing_left
        self.gain = gain
        self.tot = tot
        self.depth = depth
        self.start = start
        self.end = end
        self.n_nodes = n_nodes
        self.has_mono = mono is not None  # (else its memoryviews stay unset)
        if self.has_mono:
            self.mono = mono
            self.lower = lower
            self.upper = upper


def grow_all(TreeBatch s, int n_threads=1):
    """Grow the ``k`` trees of a :class:`TreeBatch` in one call
    (:func:`robust_boosting.trees.batched.grow_batched`): tree ``j`` best-first to
    ``s.max_leaves[j]`` leaves if that is not negative, else depth-first, or level by
    level if ``s.symmetric[j]`` (a symmetric regression tree, :func:`_grow_sym`).

    With ``n_threads > 1``, at least as many trees and at least ``s.min_work`` rows x
    features over the trees, the first ``n_threads * (k // n_threads)`` trees grow side
    by side, one per thread (their node kernels serial), and the rest one after the
    other with their node kernels on ``n_threads`` threads. Each tree is grown by the
    same serial code either way, so the trees do not depend on the number of threads.
    """
    cdef Py_ssize_t k = s.starts.shape[0]
    cdef Py_ssize_t n_max = 0
    cdef Py_ssize_t j, n_side
    cdef int64_t side_work
    cdef int n_work, wi, ok = 1
    cdef Batch b
    cdef Workspace* works
    if k == 0:
        return
    if (s.symmetric.shape[0] != k or s.rs.shape[0] != k or s.rs_seed.shape[0] != k
            or s.min_cat_cnt.shape[0] != k or s.cat_lam.shape[0] != k):
        raise ValueError("grow_all: one symmetric flag, random strength and categorical "
                         "setting per tree")
    for j in range(k):
        n_max = max(n_max, s.ends[j] - s.starts[j])
        if s.symmetric[j] and not s.is_reg:
            raise ValueError("grow_all: symmetric trees are regression trees")
    b.codes = &s.codes[0, 0]
    b.n_rows = s.codes.shape[1]
    b.nf = s.codes.shape[0]
    b.n_bins = &s.n_bins[0]
    b.missing_bin = s.missing_bin
    b.is_reg = s.is_reg
    b.crit = s.crit
    b.n_stat = s.n_stat
    b.hist_stat = s.hist_stat
    b.hist_size = b.nf * (s.missing_bin + 1) * s.hist_stat
    b.total_bins = 0
    for j in range(b.nf):
        b.total_bins += s.n_bins[j]
    b.idx_all = _iptr(s.idx_all)
    b.ow_all = _dptr(s.ow_all)
    b.oc_all = _iptr(s.oc_all)
    b.owy_all = _dptr(s.owy_all)
    b.starts = &s.starts[0]
    b.ends = &s.ends[0]
    b.dense = &s.dense[0]
    b.rs = &s.rs[0]
    b.rs_seed = &s.rs_seed[0]
    b.d_ow = &s.d_ow[0, 0]
    b.d_ow_stride = s.d_ow.shape[1] if s.d_ow.shape[0] == k else 0
    b.d_oc = &s.d_oc[0, 0]
    b.d_oc_stride = s.d_oc.shape[1] if s.d_oc.shape[0] == k else 0
    b.d_owy = &s.d_owy[0, 0]
    b.d_owy_stride = s.d_owy.shape[1] if s.d_owy.shape[0] == k else 0
    b.root_tot = &s.root_tot[0, 0]
    b.tol_scale = &s.tol_scale[0]
    b.max_depth = &s.max_depth[0]
    b.min_cnt = &s.min_cnt[0]
    b.min_w = &s.min_w[0]
    b.lam = &s.lam[0]
    b.cls_rtol = s.cls_rtol
    b.reg_rtol = s.reg_rtol
    b.max_nodes = s.left.shape[1]
    # a symmetric tree's free list has at most 2^(max_depth - 2) slots plus the stream's
    # scratch (_sym_stream: the level before the last is scored in chunks, the last
    # level's histograms are not kept), and never more than its nodes; every tree's slots
    # are allocated at their first use (_slot), so the pool holds the histograms alive
    b.pool_slots = 1
    for j in range(k):
        if s.symmetric[j] and s.max_depth[j] <= 31:
            b.pool_slots = max(b.pool_slots, min(b.max_nodes, _sym_pool_slots(
                s.max_depth[j], max(1, n_threads))))
        elif s.symmetric[j]:
            b.pool_slots = b.max_nodes
    b.cache_bytes = s.cache_bytes
    b.is_cat = NULL
    b.min_cat_cnt = &s.min_cat_cnt[0]
    b.cat_lam = &s.cat_lam[0]
    b.trees.is_categorical = NULL
    b.trees.cats = NULL
    b.mono = NULL
    b.trees.lo = NULL
    b.trees.hi = NULL
    if s.has_mono:
        if (s.mono.shape[0] != b.nf or s.lower.shape[0] != k or s.upper.shape[0] != k
                or s.lower.shape[1] != s.left.shape[1] or s.upper.shape[1] != s.left.shape[1]):
            raise ValueError("grow_all: inconsistent monotone constraint arrays")
        for j in range(k):
            if s.symmetric[j]:
                raise ValueError("grow_all: symmetric trees take no monotone constraint")
        b.mono = &s.mono[0]
        b.trees.lo = &s.lower[0, 0]
        b.trees.hi = &s.upper[0, 0]
    if s.is_cat.shape[0] > 0:
        if (s.is_cat.shape[0] != b.nf or s.is_categorical.shape[1] != s.left.shape[1]
                or s.categories_left.shape[1] != s.left.shape[1]
                or s.categories_left.shape[2] != CAT_SET_BYTES or s.missing_bin > 255):
            raise ValueError("grow_all: inconsistent categorical arrays")
        b.is_cat = &s.is_cat[0]
        b.trees.is_categorical = &s.is_categorical[0, 0]
        b.trees.cats = &s.categories_left[0, 0, 0]
    b.trees.left = &s.left[0, 0]
    b.trees.right = &s.right[0, 0]
    b.trees.feature = &s.feature[0, 0]
    b.trees.split_bin = &s.split_bin[0, 0]
    b.trees.missing_left = &s.missing_left[0, 0]
    b.trees.gain = &s.gain[0, 0]
    b.trees.tot = &s.tot[0, 0, 0]
    b.trees.depth = &s.depth[0, 0]
    b.trees.start = &s.start[0, 0]
    b.trees.end = &s.end[0, 0]
    b.n_nodes = &s.n_nodes[0]
    b.max_leaves = &s.max_leaves[0]
    b.symmetric = &s.symmetric[0]
    b.min_work = s.min_work
    b.scan_work = s.scan_work
    n_threads = max(1, n_threads)
    side_work = 0
    for j in range(k):
        side_work += (s.ends[j] - s.starts[j]) * b.nf
    # side by side only when the trees' rows x features reach the parallel minimum:
    # below it, waking the team's threads took longer than the trees (design record 0045)
    n_side = (k // n_threads) * n_threads if n_threads > 1 and side_work >= s.min_work else 0
    n_work = n_threads if n_side > 0 else 1
    works = <Workspace*>calloc(n_work, sizeof(Workspace))
    if works == NULL:
        raise MemoryError()
    for wi in range(n_work):
        ok = ok and _alloc_workspace(&works[wi], &b, n_max)
        _take_spares(&works[wi].pool)  # slots of the previous calls (_pool.pyx)
    with nogil:
        if ok:
            if n_side > 0:
                for j in prange(n_side, num_threads=n_threads, schedule="dynamic"):
                    _grow_tree(&b, &works[threadid()], j, 1)
            for j in range(n_side, k):
                _grow_tree(&b, &works[0], j, n_threads)
        for wi in range(n_work):
            _free_workspace(&works[wi])
    for wi in range(n_work):
        _keep_spares(&works[wi].pool)
    free(works)
    if not ok:
        raise MemoryError()
    for j in range(k):
        if s.n_nodes[j] == 0:
            raise MemoryError()
