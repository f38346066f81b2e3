"""Batched growth: many depth-limited histogram trees on the same binned rows in one call.

Cross-validation and parameter searches fit many boosting models on the same
binned training matrix; only the per-row statistics differ (a fold's held-out
rows have weight 0, each model has its own working response and weights). A
small tree costs a few histogram kernel calls, and on data sets of a few
thousand rows the Python control around them (validation, node bookkeeping,
one kernel call per node) costs more than the kernels. :func:`grow_batched`
grows the trees of k fit requests in one compiled call
(:func:`robust_boosting.trees._growing.grow_all`): the control of
:meth:`robust_boosting.trees.growing._Grower.grow` (depth-first, the larger
child of each split by histogram subtraction) runs compiled, around the same
node kernels.

The trees are exactly those of :meth:`HistTreeRegressor.fit
<robust_boosting.trees.HistTreeRegressor.fit>` / :meth:`HistTreeClassifier.fit
<robust_boosting.trees.HistTreeClassifier.fit>` (same kernels, same split
rule, tie-breaking, minimum-leaf rules, missing-value direction and node
numbering); ``tests/test_batched.py`` checks it. Setup and finishing are the
estimators' own (:meth:`_prepare_grower` and :meth:`_finish_fit`), so only the
growth loop is compiled here. Every tree goes through it: categorical set
splits (with the per-node rule for rare categories), trees of any depth (a
histogram slot is allocated at its first use, and the candidates' histograms
are kept under :data:`~robust_boosting.trees.growing._HIST_CACHE_BYTES` as
:class:`_Grower` keeps them) and symmetric trees; a single tree's :meth:`fit`
is a batch of one. :class:`_Grower` is the test reference it is checked
against, never called here.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .. import _loop_kernels as _lk
from . import _growing, growing
from ._checks import _check_sample_weight
from .binning import BinnedData, _kernel_threads, data_work
from .growing import _CLS_GAIN_RTOL, _REG_GAIN_RTOL, _Grower, _SymmetricGrower

__all__ = ["fit_trees_batched", "grow_batched", "supports_batched"]

#: the regression trees' row arrays that a batch lays out (row index, weight, weighted
#: residual), and their bytes per row and tree
_REGION_DTYPES = (np.int32, np.float64, np.float64)
_REGION_ROW_BYTES = sum(np.dtype(d).itemsize for d in _REGION_DTYPES)
#: most bytes of those row arrays that one batch lays out; larger batches grow in parts
_REGION_BYTES = 8 * 2**20


#: max_depth=None in the kernel's int64 depth limits
_NO_LIMIT = np.iinfo(np.int64).max


def _max_nodes(grower: _Grower) -> int:
    """Most nodes ``grower``'s tree can have.

    Besides its depth and leaf limits, a tree has at most ``2 n - 1`` nodes for ``n``
    rows of positive weight: a split's children both have positive weight (empty
    histogram bins are exact zeros, also after a subtraction), so every leaf holds at
    least one of the rows (a symmetric level's undivided node stays one node)."""
    bounds = [max(1, 2 * len(grower.idx) - 1)]
    if grower.max_depth is not None:
        bounds.append(2 ** (min(grower.max_depth, 62) + 1) - 1)
    if grower.max_leaf_nodes is not None:
        bounds.append(2 * grower.max_leaf_nodes - 1)
    return min(bounds)


def supports_batched(grower: _Grower) -> bool:
    """Whether :func:`grow_batched` grows ``grower``'s tree: every :class:`_Grower` and
    :class:`_SymmetricGrower` (depth-first, best-first or symmetric, to any depth, with
    categorical features or not, whatever the size of its histograms)."""
    return type(grower) in (_Grower, _SymmetricGrower)


def grow_batched(growers: Sequence[_Grower], n_threads: int = 1) -> None:
    """Grow every grower's tree, as ``grower.grow(grower.root_tot)`` would, in one compiled call.

    The growers come from :meth:`_prepare_grower` of trees fitted on the same
    :class:`~robust_boosting.trees.BinnedData` (same codes, same bins). Those
    share the kind of statistics (regression, or classification with the same number
    of classes) are grown together. Each grower ends as after its own
    ``grow``: its node records filled (with categorical features, also
    ``is_categorical`` and ``categories_left``), its ``idx`` partitioned by leaf. A node's
    kernels run on ``n_threads`` threads when its work is large enough (as in
    :meth:`_Grower._run_kernel`); the trees do not depend on it.
    """
    groups: dict[tuple, list[_Grower]] = {}
    for g in growers:
        if not supports_batched(g):
            raise TypeError(f"grow_batched grows _Grower and _SymmetricGrower trees, not {g!r}")
        codes = g.codes_t  # a fresh view of the same buffer for every tree
        key = (codes.ctypes.data, codes.shape, codes.strides, g.is_reg, g.n_stat, g.crit,
               g.hist_shape[2], g.cat_features.tobytes(),
               None if g.mono is None else g.mono.tobytes())
        groups.setdefault(key, []).append(g)
    for group in groups.values():
        _grow_group(group, n_threads)


def _own_arrays(g: _Grower) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """A single tree's own row arrays ``(idx, ow, owy or oc)`` when the kernel can
    partition them in place (contiguous, of the kernel's dtypes), else None."""
    arrays = (g.idx, g.ow, g.owy if g.is_reg else g.oc)
    dtypes = (np.int32, np.float64, np.float64 if g.is_reg else np.int32)
    if all(a.ndim == 1 and a.dtype == t and a.flags.c_contiguous
           for a, t in zip(arrays, dtypes, strict=True)):
        return arrays
    return None


def _shared_regions(group: list[_Grower]):
    """``(idx_all, ow_all, owy_all, starts)`` when every tree's row arrays are its region
    of the three arrays :func:`fit_trees_batched` lays out for regression trees
    (``grower.region``), else None."""
    tag = getattr(group[0], "region", None)
    if tag is None or not all(getattr(g, "region", (None,))[0] is tag[0] for g in group):
        return None
    starts = np.array([g.region[1] for g in group], dtype=np.int64)
    return (*tag[0], starts)


def _row_table(rows: list, n: int, dtype) -> np.ndarray:
    """Tree ``j``'s dense-root statistics in row ``j`` (zeros where it has none, and a
    single column when no tree has any: the kernel reads a row only if dense)."""
    if len(rows) == 1 and rows[0] is not None:
        return np.ascontiguousarray(rows[0], dtype=dtype)[None]
    out = np.zeros((len(rows), n if any(r is not None for r in rows) else 1), dtype=dtype)
    for j, r in enumerate(rows):
        if r is not None:
            out[j] = r
    return out


def _grow_group(group: list[_Grower], n_threads: int) -> None:
    g0 = group[0]
    k = len(group)
    is_reg = g0.is_reg
    n_stat = g0.n_stat
    n = g0.codes_t.shape[1]
    sizes = np.array([len(g.idx) for g in group], dtype=np.int64)
    own = _own_arrays(g0) if k == 1 else None
    layout = (*own, np.zeros(1, dtype=np.int64)) if own is not None else _shared_regions(group)
    # the trees' own arrays, partitioned in place: a single tree's, or regression trees'
    # regions of one array each (laid out by fit_trees_batched); else copies, end to end
    shared = layout is not None
    if shared:
        idx_all, ow_all, third, starts = layout
    else:
        columns = [([g.idx for g in group], np.int32), ([g.ow for g in group], np.float64),
                   ([g.owy for g in group], np.float64) if is_reg
                   else ([g.oc for g in group], np.int32)]
        idx_all, ow_all, third = [np.concatenate(arrays).astype(dtype, copy=False)
                                  for arrays, dtype in columns]
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    oc_all, owy_all = (np.empty(0, dtype=np.int32), third) if is_reg else (third, np.empty(0))
    ends = starts + sizes
    dense = np.array([g.dense_root is not None for g in group], dtype=np.uint8)
    roots = [g.dense_root or (None, None, None) for g in group]
    d_ow = _row_table([r[0] for r in roots], n, np.float64)
    d_oc = np.zeros((1, 1), dtype=np.int32) if is_reg else _row_table(
        [r[1] for r in roots], n, np.int32)
    d_owy = _row_table([r[2] for r in roots], n, np.float64) if is_reg else np.zeros((1, 1))
    root_tot = np.array([g.root_tot for g in group], dtype=np.float64)
    tol_scale = np.array([g.tol_scale for g in group], dtype=np.float64)
    max_depth = np.array([_NO_LIMIT if g.max_depth is None else g.max_depth for g in group],
                         dtype=np.int64)
    max_leaves = np.array([-1 if g.max_leaf_nodes is None else g.max_leaf_nodes
                           for g in group], dtype=np.int64)
    min_cnt = np.array([g.min_cnt for g in group], dtype=np.float64)
    min_w = np.array([g.min_w for g in group], dtype=np.float64)
    lam = np.array([g.lam for g in group], dtype=np.float64)
    symmetric = np.array([type(g) is _SymmetricGrower for g in group], dtype=np.uint8)
    rs = np.array([g.random_strength for g in group], dtype=np.float64)
    rs_seed = np.array([g.rs_seed for g in group], dtype=np.uint64)
    max_nodes = max(_max_nodes(g) for g in group)
    shape = (k, max_nodes)
    # every node's entries are written by the grower (np.empty: a bound of 2 n - 1
    # nodes reserves memory that only the tree's nodes touch)
    left = np.empty(shape, dtype=np.int32)
    right = np.empty(shape, dtype=np.int32)
    feature = np.empty(shape, dtype=np.int32)
    split_bin = np.empty(shape, dtype=np.int32)
    missing_left = np.empty(shape, dtype=np.uint8)
    gain = np.empty(shape)
    tot = np.empty((k, max_nodes, n_stat))
    depth = np.empty(shape, dtype=np.int32)
    start = np.empty(shape, dtype=np.int64)
    end = np.empty(shape, dtype=np.int64)
    n_nodes = np.empty(k, dtype=np.int64)
    has_cat = g0.cat_features.size > 0
    is_cat = np.zeros(g0.n_features if has_cat else 0, dtype=np.uint8)
    is_cat[g0.cat_features] = 1
    min_cat_cnt = np.array([g.min_cat_cnt for g in group], dtype=np.float64)
    # a set split's children are scored with lam + cat_lam (_Grower._categorical_scan)
    cat_lam = np.array([g.lam + g.cat_lam for g in group], dtype=np.float64)
    is_categorical = np.empty(shape if has_cat else (k, 0), dtype=np.uint8)
    categories_left = np.empty((*shape, 32) if has_cat else (k, 0, 32), dtype=np.uint8)
    # monotone constraints (the same for the group): each node's bounds
    bounds = {} if g0.mono is None else dict(mono=g0.mono, lower=np.empty(shape),
                                             upper=np.empty(shape))
    batch = _growing.TreeBatch(
        codes=g0.codes_t, n_bins=g0.n_bins, missing_bin=g0.missing_bin, is_reg=is_reg,
        crit=g0.crit, n_stat=n_stat, hist_stat=g0.hist_shape[2],
        idx_all=idx_all, ow_all=ow_all, oc_all=oc_all, owy_all=owy_all, starts=starts,
        ends=ends, dense=dense, d_ow=d_ow, d_oc=d_oc, d_owy=d_owy, root_tot=root_tot,
        tol_scale=tol_scale, max_depth=max_depth, min_cnt=min_cnt, min_w=min_w, lam=lam,
        max_leaves=max_leaves, symmetric=symmetric, rs=rs, rs_seed=rs_seed,
        is_cat=is_cat, min_cat_cnt=min_cat_cnt, cat_lam=cat_lam,
        cls_rtol=_CLS_GAIN_RTOL, reg_rtol=_REG_GAIN_RTOL, min_work=growing._PARALLEL_MIN_WORK,
        scan_work=growing._SCAN_WORK, cache_bytes=growing._HIST_CACHE_BYTES,
        left=left, right=right, feature=feature, split_bin=split_bin,
        missing_left=missing_left, gain=gain, tot=tot, depth=depth, start=start, end=end,
        is_categorical=is_categorical, categories_left=categories_left, n_nodes=n_nodes,
        **bounds,
    )
    _growing.grow_all(batch, n_threads)
    for j, g in enumerate(group):
        m = int(n_nodes[j])
        if not shared:
            g.idx[:] = idx_all[starts[j]:ends[j]]
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
        if has_cat:
            g.is_categorical = is_categorical[j, :m]
            g.categories_left = categories_left[j, :m]
        if bounds:
            g.lower = bounds["lower"][j, :m]
            g.upper = bounds["upper"][j, :m]


def _is_hist_tree(learner) -> bool:
    """Whether ``learner`` is a histogram tree (``_BaseHistTree``), whose fit this module can
    take over: it has the setup and finishing :func:`fit_trees_batched` calls."""
    return callable(getattr(learner, "_prepare_grower", None)) and callable(
        getattr(learner, "_finish_fit", None))


def _regression_roots(learners, targets, weights, regions, n: int, n_threads: int):
    """The regression trees' checked weights and roots (``regression_root``, into their
    regions of ``regions``), computed side by side: ``[(weights, root), ...]`` in the
    order of the regression trees, for :meth:`_prepare_grower`'s ``root``; None (each
    tree makes its own) unless every target is a float64 array of ``n`` entries."""
    ys, sws = [], []
    for learner, y, w in zip(learners, targets, weights, strict=True):
        if _is_hist_tree(learner) and learner._is_reg:
            if not (isinstance(y, np.ndarray) and y.shape == (n,) and y.dtype == np.float64):
                return None
            ys.append(np.ascontiguousarray(y))
            sw = _check_sample_weight(w, n)
            sws.append(None if sw is None else np.ascontiguousarray(sw))
    res = _lk.regression_roots(ys, sws, *regions, n_threads)
    return [(sw, (int(r[0]), float(r[1]), float(r[2]), float(r[3]), float(r[4])))
            for sw, r in zip(sws, res, strict=True)]


def fit_trees_batched(learners: Sequence, X: BinnedData, targets: Sequence, weights: Sequence,
                      n_jobs: int | None = 1):
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
    n_jobs : int or None, default=1
        Threads of the node kernels (as the trees' ``n_jobs``: None is the enclosing
        setting, else chosen from ``X``'s size; -1 every core). The default, one, suits callers that run several
        batches in parallel.
    """
    is_reg = [_is_hist_tree(learner) and learner._is_reg for learner in learners]
    n_reg = sum(is_reg)
    row_bytes = _REGION_ROW_BYTES * X.n_samples if isinstance(X, BinnedData) else 0
    if n_reg > 1 and n_reg * row_bytes > _REGION_BYTES:
        # in parts of at most _REGION_BYTES of row arrays (at least one tree): each tree
        # is the same whatever the batch it grows in, and the memory stays bounded
        per_part = max(1, _REGION_BYTES // row_bytes)
        ends = np.flatnonzero(np.cumsum(is_reg) % per_part == 0) + 1
        bounds = [0, *(int(e) for e in ends if e < len(learners)), len(learners)]
        for a, b in zip(bounds[:-1], bounds[1:], strict=True):
            _fit_part(learners[a:b], X, targets[a:b], weights[a:b], n_jobs, is_reg[a:b])
        return learners
    _fit_part(learners, X, targets, weights, n_jobs, is_reg)
    return learners


def _fit_part(learners, X, targets, weights, n_jobs, is_reg) -> None:
    """:func:`fit_trees_batched` of one batch, its regression trees' row arrays laid out
    together."""
    prepared = []
    growers = []
    # the regression trees' row arrays, laid out as regions of one array each, so that
    # the growth partitions them in place (no copies in and out)
    n_reg = sum(is_reg)
    regions = None
    if n_reg > 1 and isinstance(X, BinnedData):
        n = X.n_samples
        regions = tuple(np.empty(n_reg * n, dtype=d) for d in _REGION_DTYPES)
    j = 0
    with _kernel_threads(n_jobs, data_work(X)) as n_threads:
        roots = None if regions is None else _regression_roots(
            learners, targets, weights, regions, n, n_threads)
        for learner, y, w in zip(learners, targets, weights, strict=True):
            if not _is_hist_tree(learner) or not isinstance(X, BinnedData):
                learner.fit(X, y, sample_weight=w)
                continue
            out = root = None
            if regions is not None and learner._is_reg:
                # the j-th regression tree's region: rows j n .. (j + 1) n of each array
                out = tuple(r[j * n:(j + 1) * n] for r in regions)
                root = None if roots is None else roots[j]
            grower, binned, inactive, ybar = learner._prepare_grower(X, y, w, n_threads, out,
                                                                     root)
            if out is not None:
                grower.region = (regions, j * n)
                j += 1
            prepared.append((learner, grower, binned, inactive, ybar))
            growers.append(grower)
        grow_batched(growers, n_threads)
    for learner, grower, binned, inactive, ybar in prepared:
        learner._finish_fit(grower, binned, inactive, ybar)
