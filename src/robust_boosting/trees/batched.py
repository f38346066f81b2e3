"""Batched growth: many depth-limited histogram trees on the same binned rows in one call.

Cross-validation and parameter searches fit many boosting models on the same
binned training matrix; only the per-row statistics differ (a fold's held-out
rows have weight 0, each model has its own working response and weights). A
small tree costs a few histogram kernel calls, and on data sets of a few
thousand rows the Python control around them (validation, node bookkeeping,
one numba dispatch per node) costs more than the kernels. :func:`grow_batched`
grows the trees of k fit requests in one numba call: the control of
:meth:`robust_boosting.trees.growing._Grower.grow` (depth-first, the larger
child of each split by histogram subtraction) runs compiled, and the node
kernels of :mod:`robust_boosting._tree_kernels` are called without dispatch.

The trees are exactly those of :meth:`HistTreeRegressor.fit
<robust_boosting.trees.HistTreeRegressor.fit>` / :meth:`HistTreeClassifier.fit
<robust_boosting.trees.HistTreeClassifier.fit>` (same kernels, same split
rule, tie-breaking, minimum-leaf rules, missing-value direction and node
numbering); ``tests/test_batched.py`` checks it. Setup and finishing are the
estimators' own (:meth:`_prepare_grower` and :meth:`_finish_fit`), so only the
growth loop is compiled here. Trees the batched path does not support
(best-first growth with ``max_leaf_nodes``, unlimited depth, histograms over
the memory budget) are grown by their own :class:`_Grower`, one at a time.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit

from .. import _tree_kernels as _k
from .binning import BinnedData, _numba_threads
from .growing import _CLS_GAIN_RTOL, _HIST_CACHE_BYTES, _REG_GAIN_RTOL, _Grower

__all__ = ["fit_trees_batched", "grow_batched", "supports_batched"]

#: deepest tree the batched grower takes (its histogram pool has one slot per node)
MAX_BATCHED_DEPTH = 10
#: largest histogram pool (one histogram per node of the deepest tree) the batched grower uses
_POOL_BYTES = 64 * 2**20


@njit(cache=True, nogil=True)
def _can_split(tot, depth, max_depth, n_stat, min_cnt, min_w, is_reg):
    """:meth:`_Grower._can_split`."""
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


@njit(cache=True, nogil=True)
def _pick(scores, bins, mls, row, tot, n_stat, crit, is_reg, tol_scale, p_split, p_gain, node):
    """:meth:`_Grower._pick` for ``node``, from score row ``row``; returns the gain or -1.

    A split is recorded as ``p_split[node] = (feature, bin, missing_left)``,
    ``p_gain[node] = gain``.
    """
    f = np.argmax(scores[row])
    sc = scores[row, f]
    if not np.isfinite(sc):
        return -1.0
    gain = sc - _k.node_score(tot, n_stat, crit)
    if is_reg:
        tol = _REG_GAIN_RTOL * tol_scale * tot[0]
    else:
        s = 0.0
        for c in range(n_stat - 1):
            s += tot[c]
        tol = _CLS_GAIN_RTOL * s
    if not gain > tol:
        return -1.0
    p_split[node, 0] = f
    p_split[node, 1] = bins[row, f]
    p_split[node, 2] = mls[row, f]
    p_gain[node] = gain
    return gain


@njit(cache=True, nogil=True, inline="always")
def _new_node(j, nd, t, d, a, z, left, right, tot, depth, start, end):
    tot[j, nd, :] = t
    depth[j, nd] = d
    start[j, nd] = a
    end[j, nd] = z
    left[j, nd] = -1
    right[j, nd] = -1


@njit(cache=True, nogil=True)
def _grow_one(
    j, codes, n_bins, missing_bin, is_reg, crit, n_stat, idx, ow, oc, owy, dense, d_ow, d_oc,
    d_owy, root_tot, tol_scale, max_depth, min_cnt, min_w, pool, buf_i, buf_w, buf_c, buf_y,
    left, right, feature, split_bin, missing_left, gain, tot, depth, start, end,
):
    """Grow tree ``j`` depth-first, as :meth:`_Grower.grow` does; returns its node count."""
    n_features = codes.shape[0]
    n_act = idx.shape[0]
    scores = np.empty((2, n_features))
    bins = np.empty((2, n_features), dtype=np.int32)
    mls = np.empty((2, n_features), dtype=np.uint8)
    scratch = np.empty((n_features, n_stat))
    dummy = np.empty((1, 1, 1))
    max_nodes = left.shape[1]
    # the split found for every node on the stack: feature, bin, missing_left; gain
    p_split = np.empty((max_nodes, 3), dtype=np.int64)
    p_gain = np.empty(max_nodes)
    stack = np.empty(max_nodes, dtype=np.int64)

    n_nodes = 1
    _new_node(j, 0, root_tot, 0, 0, n_act, left, right, tot, depth, start, end)
    if not _can_split(root_tot, 0, max_depth, n_stat, min_cnt, min_w, is_reg):
        return n_nodes
    # the root: every row in order (``dense``) or the active rows
    scores[:] = -np.inf
    if dense:
        _k.node_pair_ser(codes, idx, d_ow, d_oc, d_owy, is_reg, crit, True, 0, d_ow.shape[0],
                         n_bins, missing_bin, dummy, pool[0], dummy, False, root_tot, root_tot,
                         True, False, min_cnt, min_w, scores, bins, mls, scratch)
    else:
        _k.node_pair_ser(codes, idx, ow, oc, owy, is_reg, crit, n_act == codes.shape[1], 0,
                         n_act, n_bins, missing_bin, dummy, pool[0], dummy, False, root_tot,
                         root_tot, True, False, min_cnt, min_w, scores, bins, mls, scratch)
    if _pick(scores, bins, mls, 0, root_tot, n_stat, crit, is_reg, tol_scale, p_split, p_gain,
             0) < 0:
        return n_nodes
    stack[0] = 0
    top = 1
    ltot = np.empty(n_stat)
    rtot = np.empty(n_stat)
    while top > 0:
        top -= 1
        node = stack[top]
        s0 = start[j, node]
        e0 = end[j, node]
        f = p_split[node, 0]
        b = p_split[node, 1]
        ml = p_split[node, 2]
        mid = _k.partition(codes, idx, ow, oc, owy, is_reg, s0, e0, f, b, ml != 0, missing_bin,
                           buf_i, buf_w, buf_c, buf_y, ltot, rtot)
        d = depth[j, node] + 1
        lnode = n_nodes
        rnode = n_nodes + 1
        n_nodes += 2
        _new_node(j, lnode, ltot, d, s0, mid, left, right, tot, depth, start, end)
        _new_node(j, rnode, rtot, d, mid, e0, left, right, tot, depth, start, end)
        left[j, node] = lnode
        right[j, node] = rnode
        feature[j, node] = f
        split_bin[j, node] = b
        missing_left[j, node] = ml
        gain[j, node] = p_gain[node]
        find_l = _can_split(tot[j, lnode], d, max_depth, n_stat, min_cnt, min_w, is_reg)
        find_r = _can_split(tot[j, rnode], d, max_depth, n_stat, min_cnt, min_w, is_reg)
        if not (find_l or find_r):
            continue
        small_is_left = (mid - s0) <= (e0 - mid)
        if small_is_left:
            small, large, ss, se, find_s, find_g = lnode, rnode, s0, mid, find_l, find_r
        else:
            small, large, ss, se, find_s, find_g = rnode, lnode, mid, e0, find_r, find_l
        scores[:] = -np.inf
        large_hist = pool[large] if find_g else dummy
        _k.node_pair_ser(codes, idx, ow, oc, owy, is_reg, crit, False, ss, se, n_bins,
                         missing_bin, pool[node], pool[small], large_hist,
                         find_g, tot[j, small], tot[j, large], find_s, find_g, min_cnt, min_w,
                         scores, bins, mls, scratch)
        got_s = -1.0
        got_g = -1.0
        if find_s:
            got_s = _pick(scores, bins, mls, 0, tot[j, small], n_stat, crit, is_reg, tol_scale,
                          p_split, p_gain, small)
        if find_g:
            got_g = _pick(scores, bins, mls, 1, tot[j, large], n_stat, crit, is_reg, tol_scale,
                          p_split, p_gain, large)
        # push the left child, then the right one (popped first), as _Grower.grow does
        got_l = got_s if small_is_left else got_g
        got_r = got_g if small_is_left else got_s
        if got_l >= 0:
            stack[top] = lnode
            top += 1
        if got_r >= 0:
            stack[top] = rnode
            top += 1
    return n_nodes


@njit(cache=True, nogil=True)
def _grow_all(
    codes, n_bins, missing_bin, is_reg, crit, n_stat, hist_stat, idx_all, ow_all, oc_all,
    owy_all, offsets, dense, d_ow, d_oc, d_owy, root_tot, tol_scale, max_depth, min_cnt, min_w,
    left, right, feature, split_bin, missing_left, gain, tot, depth, start, end, n_nodes,
):
    k = offsets.shape[0] - 1
    max_nodes = left.shape[1]
    pool = np.empty((max_nodes, codes.shape[0], missing_bin + 1, hist_stat))
    n_max = 0
    for j in range(k):
        n_max = max(n_max, offsets[j + 1] - offsets[j])
    buf_i = np.empty(n_max, dtype=np.int32)
    buf_w = np.empty(n_max)
    buf_c = np.empty(0 if is_reg else n_max, dtype=np.int32)
    buf_y = np.empty(n_max if is_reg else 0)
    for j in range(k):
        a = offsets[j]
        z = offsets[j + 1]
        idx = idx_all[a:z]
        ow = ow_all[a:z]
        oc = oc_all[0:0] if is_reg else oc_all[a:z]
        owy = owy_all[a:z] if is_reg else owy_all[0:0]
        j_oc = 0 if is_reg else j
        j_owy = j if is_reg else 0
        n_nodes[j] = _grow_one(
            j, codes, n_bins, missing_bin, is_reg, crit, n_stat, idx, ow, oc, owy, dense[j],
            d_ow[j], d_oc[j_oc], d_owy[j_owy],
            root_tot[j], tol_scale[j], max_depth[j], min_cnt[j], min_w[j], pool, buf_i, buf_w,
            buf_c, buf_y, left, right, feature, split_bin, missing_left, gain, tot, depth, start,
            end,
        )


def supports_batched(grower: _Grower) -> bool:
    """Whether :func:`grow_batched` grows ``grower``'s tree (else it grows itself).

    Depth-first growth (``max_leaf_nodes=None``) to a depth of at most
    :data:`MAX_BATCHED_DEPTH`, with one histogram per node fitting in 64 MiB
    (then :class:`_Grower` never drops a cached histogram either, so both
    take the same path through the subtraction).
    """
    depth = grower.max_depth
    return (
        type(grower) is _Grower
        and grower.max_leaf_nodes is None
        and depth is not None
        and depth <= MAX_BATCHED_DEPTH
        and (2 ** (depth + 1)) * grower.hist_bytes <= min(_POOL_BYTES, _HIST_CACHE_BYTES)
    )


def grow_batched(growers: Sequence[_Grower]) -> None:
    """Grow every grower's tree, as ``grower.grow(grower.root_tot)`` would, in one numba call.

    The growers come from :meth:`_prepare_grower` of trees fitted on the same
    :class:`~robust_boosting.trees.BinnedData` (same codes, same bins). Those
    :func:`supports_batched` accepts and that share the kind of statistics
    (regression, or classification with the same number of classes) are grown
    together; the others grow themselves. Each grower ends as after its own
    ``grow``: its node records filled, its ``idx`` partitioned by leaf.
    """
    groups: dict[tuple, list[_Grower]] = {}
    for g in growers:
        if supports_batched(g):
            codes = g.codes_t  # a fresh view of the same buffer for every tree
            key = (codes.ctypes.data, codes.shape, codes.strides, g.is_reg, g.n_stat, g.crit,
                   g.hist_shape[2])
            groups.setdefault(key, []).append(g)
        else:
            g.grow(g.root_tot)
    for group in groups.values():
        _grow_group(group)


def _grow_group(group: list[_Grower]) -> None:
    g0 = group[0]
    k = len(group)
    is_reg = g0.is_reg
    n_stat = g0.n_stat
    n = g0.codes_t.shape[1]
    sizes = np.array([len(g.idx) for g in group], dtype=np.int64)
    offsets = np.zeros(k + 1, dtype=np.int64)
    np.cumsum(sizes, out=offsets[1:])
    idx_all = np.concatenate([g.idx for g in group]).astype(np.int32, copy=False)
    ow_all = np.concatenate([g.ow for g in group])
    if is_reg:
        oc_all = np.empty(0, dtype=np.int32)
        owy_all = np.concatenate([g.owy for g in group])
    else:
        oc_all = np.concatenate([g.oc for g in group]).astype(np.int32, copy=False)
        owy_all = np.empty(0)
    dense = np.array([g.dense_root is not None for g in group])
    d_ow = np.zeros((k, n))
    d_oc = np.zeros((1 if is_reg else k, n), dtype=np.int32)
    d_owy = np.zeros((k if is_reg else 1, n))
    for j, g in enumerate(group):
        if g.dense_root is not None:
            w, c, y = g.dense_root
            d_ow[j] = w
            if is_reg:
                d_owy[j] = y
            else:
                d_oc[j] = c
    root_tot = np.array([g.root_tot for g in group], dtype=np.float64)
    tol_scale = np.array([g.tol_scale for g in group], dtype=np.float64)
    max_depth = np.array([g.max_depth for g in group], dtype=np.int64)
    min_cnt = np.array([g.min_cnt for g in group], dtype=np.float64)
    min_w = np.array([g.min_w for g in group], dtype=np.float64)
    max_nodes = 2 ** (int(max_depth.max()) + 1) - 1
    shape = (k, max_nodes)
    left = np.empty(shape, dtype=np.int32)
    right = np.empty(shape, dtype=np.int32)
    feature = np.full(shape, -1, dtype=np.int32)
    split_bin = np.full(shape, -1, dtype=np.int32)
    missing_left = np.zeros(shape, dtype=np.uint8)
    gain = np.zeros(shape)
    tot = np.empty((k, max_nodes, n_stat))
    depth = np.empty(shape, dtype=np.int32)
    start = np.empty(shape, dtype=np.int64)
    end = np.empty(shape, dtype=np.int64)
    n_nodes = np.empty(k, dtype=np.int64)
    with _numba_threads(1):
        _grow_all(
            g0.codes_t, g0.n_bins, g0.missing_bin, is_reg, g0.crit, n_stat, g0.hist_shape[2],
            idx_all, ow_all, oc_all, owy_all, offsets, dense, d_ow, d_oc, d_owy, root_tot,
            tol_scale, max_depth, min_cnt, min_w, left, right, feature, split_bin, missing_left,
            gain, tot, depth, start, end, n_nodes,
        )
    for j, g in enumerate(group):
        m = int(n_nodes[j])
        a, z = offsets[j], offsets[j + 1]
        g.idx[:] = idx_all[a:z]
        # arrays where _Grower keeps lists: _make_tree and _remember_train_leaves read both
        g.left = left[j, :m]
        g.right = right[j, :m]
        g.feature = feature[j, :m]
        g.split_bin = split_bin[j, :m]
        g.missing_left = missing_left[j, :m]
        g.gain = gain[j, :m]
        g.tot = tot[j, :m]
        g.depth = depth[j, :m]
        g.start = start[j, :m]
        g.end = end[j, :m]


def fit_trees_batched(learners: Sequence, X: BinnedData, targets: Sequence, weights: Sequence):
    """Fit ``learners[j]`` on ``(X, targets[j], weights[j])`` for every ``j``, trees grown together.

    Same result as ``learners[j].fit(X, targets[j], sample_weight=weights[j])``
    for each ``j`` (every fitted attribute, and the training leaves the tree
    keeps for the first ``predict(X)``), for :class:`HistTreeRegressor` and
    :class:`HistTreeClassifier` learners; other learners are fitted by their
    own ``fit``.

    Parameters
    ----------
    learners : sequence of unfitted tree estimators
    X : BinnedData
        The binned training rows (from ``learner.prepare_data``), shared by all.
    targets : sequence of arrays of shape (n_samples,)
    weights : sequence of arrays of shape (n_samples,)
    """
    from ._base import _BaseHistTree

    prepared = []
    growers = []
    for learner, y, w in zip(learners, targets, weights, strict=True):
        if not isinstance(learner, _BaseHistTree) or not isinstance(X, BinnedData):
            learner.fit(X, y, sample_weight=w)
            continue
        grower, binned, inactive, ybar = learner._prepare_grower(X, y, w, 1)
        prepared.append((learner, grower, binned, inactive, ybar))
        growers.append(grower)
    grow_batched(growers)
    for learner, grower, binned, inactive, ybar in prepared:
        learner._finish_fit(grower, binned, inactive, ybar)
    return learners
