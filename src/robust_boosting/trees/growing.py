"""Growing: a histogram tree from weighted binned data (the fitted :class:`HistTree`).

:class:`_Grower` holds a tree's growth settings and row arrays; every tree in
production is grown from it by the compiled grower
(:func:`robust_boosting.trees.batched.grow_batched`, ``_growing.grow_all``). Its
own :meth:`_Grower.grow` (and :meth:`_SymmetricGrower.grow`), Python control around
the compiled node kernels, is the test reference the compiled grower is checked
against node for node (``tests/test_batched.py``, ``tests/test_grower_reference.py``);
no production code path calls it.
"""

from __future__ import annotations

import heapq

import numpy as np

from . import _partition, _splitting

# A node is histogrammed with the parallel kernel when its work is at least this
# (smaller nodes use the serial twin: thread start-up dominates). Work counts one
# unit per (row, feature) histogram update and _SCAN_WORK units per (bin, feature)
# candidate of each split scan: with entropy, a candidate costs six logarithms, so
# the scan of a small node's large sibling (found by subtraction) is the larger part.
# The same minimum gates a symmetric level's nodes side by side, a batch's trees side
# by side (rows x features over its trees) and a shared tree's level scan. 10^6, not
# 10^5: waking a sleeping team's threads for work of 10^5 made fits of 10^3 rows on two
# threads up to 1.6x slower than on one (design record 0045).
_PARALLEL_MIN_WORK = 1_000_000
_SCAN_WORK = 16
# Histograms of candidate leaves are kept for subtraction up to this many bytes.
_HIST_CACHE_BYTES = 512 * 2**20
# Relative tolerance below which a split is considered not to decrease impurity.
_CLS_GAIN_RTOL = 1e-12
_REG_GAIN_RTOL = 1e-13


# --------------------------------------------------------------------------
# Fitted tree structure
# --------------------------------------------------------------------------
class HistTree:
    """Arrays of a fitted histogram tree (one row per node, root first).

    Attributes
    ----------
    children_left, children_right : ndarray of int32
        Child node ids, ``-1`` for leaves.
    feature : ndarray of int32
        Split feature (``-1`` for leaves).
    threshold_bin : ndarray of int32
        A sample goes left iff its bin code is ``<= threshold_bin``.
    threshold : ndarray of float64
        Same split on raw values: left iff ``x <= threshold`` (``inf`` when all
        non-missing values go left).
    missing_go_left : ndarray of uint8
        Direction of missing values (learned, or the heavier child if no
        missing value reached the node).
    is_categorical : ndarray of uint8 (only in trees with a categorical feature)
        1 where the node splits a categorical feature: a sample goes left iff its
        category is in the node's row of ``categories_left`` (``threshold`` is NaN,
        ``threshold_bin`` the number of left categories minus one).
    categories_left : ndarray of uint8, shape (node_count, 32) (idem)
        Bitset of the left categories of each categorical node: category ``c``
        goes left iff bit ``c % 8`` of byte ``c // 8`` is set.
    gain : ndarray of float64
        Weighted impurity decrease of the split (0 for leaves).
    value : ndarray of float64
        Class probabilities, shape (node_count, n_classes), for classifiers;
        weighted mean target, shape (node_count,), for regressors.
    weighted_n_node_samples : ndarray of float64
        Sum of sample weights in each node.
    n_node_samples : ndarray of int64
        Number of samples with non-zero weight in each node.
    depth : ndarray of int32
        Depth of each node.
    """

    def __init__(self, **arrays: np.ndarray) -> None:
        for name, arr in arrays.items():
            setattr(self, name, arr)

    @property
    def has_categorical(self) -> bool:
        """Whether the tree has categorical splits (then it is applied through
        :meth:`routing_table` on binned data, ``apply_raw_cat`` on raw data)."""
        cat = getattr(self, "is_categorical", None)
        return cat is not None and bool(cat.any())

    def routing_table(self, missing_bin: int) -> np.ndarray:
        """``table[n, c]`` (uint8): whether bin code ``c`` goes left at node ``n``.

        Threshold nodes: ``c <= threshold_bin``; categorical nodes: ``c`` in the left
        set; the missing code ``missing_bin`` follows ``missing_go_left``.
        """
        codes = np.arange(missing_bin + 1)
        table = (codes[None, :] <= self.threshold_bin[:, None]).astype(np.uint8)
        if self.has_categorical:
            cat = np.flatnonzero(self.is_categorical)
            bits = np.unpackbits(self.categories_left[cat], axis=1, bitorder="little")
            table[cat] = bits[:, : missing_bin + 1]
        table[:, missing_bin] = self.missing_go_left
        return table

    @property
    def node_count(self) -> int:
        """Number of nodes."""
        return len(self.children_left)

    @property
    def n_leaves(self) -> int:
        """Number of leaves."""
        return int(np.count_nonzero(self.children_left < 0))

    @property
    def max_depth(self) -> int:
        """Depth of the deepest leaf."""
        depth = getattr(self, "depth", None)  # not kept by a saved ensemble's trees
        if depth is not None:
            return int(depth.max())
        deepest, stack = 0, [(0, 0)]
        while stack:
            node, d = stack.pop()
            deepest = max(deepest, d)
            if self.children_left[node] >= 0:
                stack += [(int(self.children_left[node]), d + 1),
                          (int(self.children_right[node]), d + 1)]
        return deepest


def _node_value(a0: float, a1: float, is_reg: bool, lam: float) -> float:
    """The value a monotone constraint orders: ``S / (W + lam)`` (regression: the leaf
    value less the mean target) or the class-1 share ``w_1 / (w_0 + w_1)``."""
    w = a0 + lam if is_reg else a0 + a1
    return a1 / w if w > 0.0 else 0.0


def _child_bounds(ltot, rtot, is_reg: bool, lam: float, c: int, lo: float, hi: float):
    """``(left lo, left hi, right lo, right hi)``: the bounds of the children of a split of
    a node bounded by ``[lo, hi]`` on a feature of constraint ``c`` (LightGBM's "basic"
    method): the parent's, and for ``c != 0`` the midpoint of the children's values,
    clipped to the parent's bounds, as the upper bound of the child that must stay below
    and the lower bound of the other. The compiled grower's ``_child_bounds``, in Python."""
    if c == 0:
        return lo, hi, lo, hi
    vl = min(max(_node_value(float(ltot[0]), float(ltot[1]), is_reg, lam), lo), hi)
    vr = min(max(_node_value(float(rtot[0]), float(rtot[1]), is_reg, lam), lo), hi)
    mid = (vl + vr) / 2.0
    return (lo, mid, mid, hi) if c > 0 else (mid, hi, lo, mid)


class _Grower:
    """One tree's growth settings and row arrays (grown by the compiled grower,
    :func:`~robust_boosting.trees.batched.grow_batched`); :meth:`grow` is the test
    reference (Python control, compiled kernels), not used in production."""

    def __init__(
        self, codes_t, n_bins, missing_bin, idx, ow, oc, owy, is_reg, n_stat, crit,
        max_depth, max_leaf_nodes, min_samples_leaf, min_weight, tol_scale, n_threads,
        cat_features=None, count_by_weight=False, lam=0.0, random_strength=0.0, rs_seed=0,
        cat_lam=0.0, min_cat_cnt=1.0, monotonic_cst=None,
    ):
        self.codes_t = codes_t
        # monotone constraints: -1, 0 or +1 per feature (int8), or None; each node's
        # value is then kept within [lower, upper] (LightGBM's "basic" method)
        self.mono = None if monotonic_cst is None else np.ascontiguousarray(
            monotonic_cst, dtype=np.int8)
        # categorical features (int32 indices): split into sets of categories
        self.cat_features = (np.empty(0, dtype=np.int32) if cat_features is None
                             else np.asarray(cat_features, dtype=np.int32))
        self.n_bins = n_bins
        self.missing_bin = missing_bin
        self.idx = idx
        self.ow = ow
        self.oc = oc
        self.owy = owy
        self.is_reg = is_reg
        self.n_stat = n_stat
        self.crit = crit
        self.max_depth = max_depth
        self.max_leaf_nodes = max_leaf_nodes
        self.min_cnt = float(min_samples_leaf)
        self.min_w = float(min_weight)
        # regression: the L2 penalty of the criterion and the leaf values, in the units
        # of the weights (a child's score S^2 / (W + lam), its value S / (W + lam))
        self.lam = float(lam)
        # regression: the extra L2 penalty of a categorical split's children (their scores
        # S^2 / (W + lam + cat_lam)), LightGBM's cat_l2; the parent's score keeps lam
        self.cat_lam = float(cat_lam)
        # categorical features: a category (bin) with fewer rows at the node than this
        # takes no part in the node's search and goes with the right side (LightGBM's
        # cat_smooth threshold; rows estimated from the weights without a count channel)
        self.min_cat_cnt = float(min_cat_cnt)
        # symmetric trees: the strength and seed of the random split scores (0: none)
        self.random_strength = float(random_strength)
        self.rs_seed = int(rs_seed)
        self.tol_scale = tol_scale
        self.n_threads = int(n_threads)
        # (ow, oc, owy) per row of the data, zero weight for inactive rows: see _fit
        self.dense_root = None
        n_features = codes_t.shape[0]
        self.n_features = n_features
        # exact per-bin counts are only needed to enforce min_samples_leaf > 1 on exact
        # counts; estimated ones come from the weights (the kernels' _weight_for_count)
        hist_stat = n_stat if min_samples_leaf > 1 and not count_by_weight else n_stat - 1
        self.hist_shape = (n_features, missing_bin + 1, hist_stat)
        self.hist_bytes = 8 * n_features * (missing_bin + 1) * hist_stat
        self.n_live_hists = 0
        # node records
        self.left: list[int] = []
        self.right: list[int] = []
        self.feature: list[int] = []
        self.split_bin: list[int] = []
        self.missing_left: list[int] = []
        self.left_set: list[np.ndarray | None] = []  # categorical nodes: left categories
        self.gain: list[float] = []
        self.tot: list[np.ndarray] = []
        self.depth: list[int] = []
        self.start: list[int] = []
        self.end: list[int] = []
        self.lower: list[float] = []
        self.upper: list[float] = []

    def _buffers(self) -> None:
        """Make the buffers of :meth:`grow` (the compiled batched growth has its own)."""
        n_act = len(self.idx)
        n_features = self.n_features
        is_reg = self.is_reg
        self.total_bins = int(np.sum(self.n_bins))
        self.buf_i = np.empty(n_act, dtype=np.int32)
        self.buf_w = np.empty(n_act, dtype=np.float64)
        self.buf_c = np.empty(n_act if not is_reg else 0, dtype=np.int32)
        self.buf_y = np.empty(n_act if is_reg else 0, dtype=np.float64)
        self.scores = np.empty((2, n_features), dtype=np.float64)
        self.bins = np.empty((2, n_features), dtype=np.int32)
        self.mls = np.empty((2, n_features), dtype=np.uint8)
        self.scratch = np.empty((n_features, self.n_stat), dtype=np.float64)
        n_sets = n_features if self.cat_features.size else 0
        self.left_sets = np.zeros((2, n_sets, self.missing_bin + 1), dtype=np.uint8)
        self.is_cat = np.zeros(n_features, dtype=bool)
        self.is_cat[self.cat_features] = True
        self.dummy_hist = np.empty((1, 1, 1), dtype=np.float64)

    # -- node bookkeeping ------------------------------------------------
    def _new_node(self, tot, depth, start, end):
        self.start.append(start)
        self.end.append(end)
        self.left.append(-1)
        self.right.append(-1)
        self.feature.append(-1)
        self.split_bin.append(-1)
        self.missing_left.append(0)
        self.left_set.append(None)
        self.gain.append(0.0)
        self.tot.append(tot)
        self.depth.append(depth)
        self.lower.append(-np.inf)
        self.upper.append(np.inf)
        return len(self.left) - 1

    def _can_split(self, tot, depth):
        if self.max_depth is not None and depth >= self.max_depth:
            return False
        cnt = tot[self.n_stat - 1]
        if cnt < 2 * self.min_cnt or cnt < 2:
            return False
        if self.is_reg:
            w = tot[0]
        else:
            k = tot[: self.n_stat - 1]
            if np.count_nonzero(k > 0) < 2:
                return False
            w = k.sum()
        return w > 0 and w >= 2 * self.min_w

    def _tolerance(self, tot):
        if self.is_reg:
            return _REG_GAIN_RTOL * self.tol_scale * tot[0]
        return _CLS_GAIN_RTOL * tot[: self.n_stat - 1].sum()

    def _pick(self, row, tot):
        """Best split (feature, bin, missing_left, gain, left set) from a score row.

        The left set (a ``uint8`` table over the codes, missing code last) is
        None for a threshold split.
        """
        scores = self.scores[row]
        f = int(np.argmax(scores))
        sc = scores[f]
        if not np.isfinite(sc):
            return None
        gain = sc - _splitting.node_score(tot, self.n_stat, self.crit, self.lam)
        if not gain > self._tolerance(tot):
            return None
        ml = int(self.mls[row, f])
        left_set = None
        if self.is_cat[f]:
            left_set = self.left_sets[row, f].copy()
            left_set[self.missing_bin] = ml
        return f, int(self.bins[row, f]), ml, float(gain), left_set

    def _without_rare_categories(self, hist, tot):
        """``hist``, or a copy whose categorical features' bins of fewer than
        ``min_cat_cnt`` rows at the node are emptied (the missing bin is kept): the scan
        leaves them out of the ordered categories, and they go right with the rest.
        Only each feature's own bins are read (those past its last, up to the missing
        bin, are never written by the kernels)."""
        n_val = self.n_stat - 1
        own = np.arange(self.missing_bin + 1) < self.n_bins[self.cat_features][:, None]
        h = hist[self.cat_features]  # a copy
        unwritten = ~own
        unwritten[:, self.missing_bin] = False
        h[unwritten] = 0.0
        if h.shape[2] > n_val:  # the exact count channel
            cnt = h[:, :, n_val]
        else:
            w = h[:, :, 0] if self.is_reg else h[:, :, :n_val].sum(axis=2)
            node_w = tot[0] if self.is_reg else tot[:n_val].sum()
            if not node_w > 0:
                return hist
            cnt = w * (tot[n_val] / node_w)
        rare = (cnt < self.min_cat_cnt) & own
        if not rare.any():
            return hist
        h[rare] = 0.0
        out = hist.copy()
        out[self.cat_features] = h
        return out

    def _categorical_scan(self, hist, row, tot):
        """Overwrite the scores of the categorical features by their set splits."""
        if self.min_cat_cnt > 1:
            hist = self._without_rare_categories(hist, tot)
        _splitting.categorical_splits(
            hist, self.cat_features, self.n_bins, self.missing_bin, tot, self.crit,
            self.min_cnt, self.min_w, self.is_reg, self.scores[row], self.bins[row],
            self.mls[row], self.left_sets[row], self.scratch, self.lam + self.cat_lam,
        )

    def _run_kernel(self, start, end, parent_hist, small_hist, large_hist, do_sub,
                    small_tot, large_tot, find_small, find_large, bounds=None):
        self.scores.fill(-np.inf)
        work = (end - start) * self.n_features + _SCAN_WORK * self.total_bins * (
            int(find_small) + int(find_large))
        n_threads = self.n_threads if work >= _PARALLEL_MIN_WORK else 1
        ow, oc, owy = self.ow, self.oc, self.owy
        dense = False
        if start == 0 and end == len(self.idx):  # the root, before any partition
            # read the rows in order: every row has weight (idx is 0..n-1), or most
            # have and ``dense_root`` holds the per-row statistics
            if self.dense_root is not None:
                ow, oc, owy = self.dense_root
                end = self.codes_t.shape[1]
            dense = end == self.codes_t.shape[1]
        _splitting.node_pair(
            self.codes_t, self.idx, ow, oc, owy, self.is_reg, self.crit,
            dense, start, end, self.n_bins, self.missing_bin, parent_hist, small_hist, large_hist,
            do_sub, small_tot, large_tot, find_small, find_large, self.min_cnt, self.min_w,
            self.scores, self.bins, self.mls, self.scratch, n_threads,
            not self.cat_features.size, self.lam,
            *(() if self.mono is None else (self.mono, *bounds)),
        )
        if self.cat_features.size:
            if find_small:
                self._categorical_scan(small_hist, 0, small_tot)
            if find_large:
                self._categorical_scan(large_hist, 1, large_tot)

    def _alloc_hist(self):
        self.n_live_hists += 1
        return np.empty(self.hist_shape, dtype=np.float64)

    def _keep_hist(self, hist):
        """Keep a candidate's histogram unless the cache budget is exceeded."""
        if hist is None:
            return None
        if self.n_live_hists * self.hist_bytes > _HIST_CACHE_BYTES:
            self.n_live_hists -= 1
            return None
        return hist

    def _release(self, hist):
        if hist is not None:
            self.n_live_hists -= 1

    def _bounds(self, node):
        """``(lower, upper)`` of ``node``'s value (monotone constraints)."""
        return self.lower[node], self.upper[node]

    def _evaluate_single(self, start, end, tot, node=0):
        hist = self._alloc_hist()
        self._run_kernel(start, end, self.dummy_hist, hist, self.dummy_hist, False,
                         tot, tot, True, False, self._bounds(node) * 2)
        split = self._pick(0, tot)
        if split is None:
            self._release(hist)
            return None, None
        return hist, split

    def _evaluate_children(self, parent_hist, ls, le, rs, re_, ltot, rtot, find_l, find_r,
                           lnode=0):
        """Histograms and best splits of two new siblings (``lnode`` and ``lnode + 1``)."""
        if not (find_l or find_r):
            return (None, None), (None, None)
        if parent_hist is None:
            left = self._evaluate_single(ls, le, ltot, lnode) if find_l else (None, None)
            right = self._evaluate_single(rs, re_, rtot, lnode + 1) if find_r else (None, None)
            return left, right
        small_is_left = (le - ls) <= (re_ - rs)
        if small_is_left:
            s, e, stot, ltot_, find_s, find_g = ls, le, ltot, rtot, find_l, find_r
        else:
            s, e, stot, ltot_, find_s, find_g = rs, re_, rtot, ltot, find_r, find_l
        small_hist = self._alloc_hist()
        large_hist = self._alloc_hist() if find_g else self.dummy_hist
        small, large = (lnode, lnode + 1) if small_is_left else (lnode + 1, lnode)
        self._run_kernel(s, e, parent_hist, small_hist, large_hist, find_g,
                         stot, ltot_, find_s, find_g, self._bounds(small) + self._bounds(large))
        small = (None, None)
        large = (None, None)
        if find_s:
            sp = self._pick(0, stot)
            if sp is not None:
                small = (small_hist, sp)
        if find_g:
            sp = self._pick(1, ltot_)
            if sp is not None:
                large = (large_hist, sp)
            else:
                self._release(large_hist)
        if small[0] is None:
            self._release(small_hist)
        return (small, large) if small_is_left else (large, small)

    def _divide(self, node, f, b, ml, gain, left_set, d, ltot, rtot):
        """Partition ``node``'s rows by its split (threshold bin ``b`` of feature ``f``,
        missing values left if ``ml``; or the categorical ``left_set``), record the split
        and make its two children at depth ``d``; returns ``(left, right, mid)``, ``mid``
        the first row of the right child. ``ltot`` and ``rtot`` are scratch."""
        start, end = self.start[node], self.end[node]
        if left_set is None:
            mid = _partition.partition(
                self.codes_t, self.idx, self.ow, self.oc, self.owy, self.is_reg, start, end,
                f, b, bool(ml), self.missing_bin, self.buf_i, self.buf_w, self.buf_c,
                self.buf_y, ltot, rtot,
            )
        else:
            mid = _partition.partition_table(
                self.codes_t, self.idx, self.ow, self.oc, self.owy, self.is_reg, start, end,
                f, left_set, self.buf_i, self.buf_w, self.buf_c, self.buf_y, ltot, rtot,
            )
        lnode = self._new_node(ltot.copy(), d, start, mid)
        rnode = self._new_node(rtot.copy(), d, mid, end)
        self.left[node] = lnode
        self.right[node] = rnode
        self.feature[node] = f
        self.split_bin[node] = b
        self.missing_left[node] = ml
        self.left_set[node] = left_set
        self.gain[node] = gain
        if self.mono is not None:
            bounds = _child_bounds(ltot, rtot, self.is_reg, self.lam, int(self.mono[f]),
                                   self.lower[node], self.upper[node])
            self.lower[lnode], self.upper[lnode], self.lower[rnode], self.upper[rnode] = bounds
        return lnode, rnode, mid

    # -- growth (the test reference) ---------------------------------------
    def grow(self, root_tot):
        """Grow the tree (test reference: production trees are grown by
        :func:`~robust_boosting.trees.batched.grow_batched`); with categorical features,
        also ``is_categorical`` and ``categories_left`` as the compiled grower gives them."""
        self._grow(root_tot)
        if self.cat_features.size:
            sets = np.zeros((len(self.left), 256), dtype=np.uint8)
            for i, left_set in enumerate(self.left_set):
                if left_set is not None:
                    sets[i, : self.missing_bin] = left_set[: self.missing_bin]
            self.is_categorical = np.array([s is not None for s in self.left_set],
                                           dtype=np.uint8)
            self.categories_left = np.packbits(sets, axis=1, bitorder="little")

    def _grow(self, root_tot):
        self._buffers()
        n_act = len(self.idx)
        root = self._new_node(root_tot, 0, 0, n_act)
        if not self._can_split(root_tot, 0):
            return
        hist, split = self._evaluate_single(0, n_act, root_tot)
        if split is None:
            return
        best_first = self.max_leaf_nodes is not None
        counter = 0
        # entries: (priority, tiebreak, node, start, end, hist, split)
        heap = [((-split[3], root) if best_first else (0, -counter), root, 0, n_act, hist, split)]
        n_leaves = 1
        ltot = np.empty(self.n_stat, dtype=np.float64)
        rtot = np.empty(self.n_stat, dtype=np.float64)
        while heap:
            if best_first and n_leaves >= self.max_leaf_nodes:
                break
            _, node, start, end, hist, (f, b, ml, gain, left_set) = heapq.heappop(heap)
            d = self.depth[node] + 1
            lnode, rnode, mid = self._divide(node, f, b, ml, gain, left_set, d, ltot, rtot)
            lt, rt = self.tot[lnode], self.tot[rnode]
            n_leaves += 1
            find_l = self._can_split(lt, d)
            find_r = self._can_split(rt, d)
            if best_first and n_leaves >= self.max_leaf_nodes:
                find_l = find_r = False
            (lh, lsplit), (rh, rsplit) = self._evaluate_children(
                hist, start, mid, mid, end, lt, rt, find_l, find_r, lnode
            )
            self._release(hist)
            for child, ch_hist, ch_split, s, e in (
                (lnode, lh, lsplit, start, mid),
                (rnode, rh, rsplit, mid, end),
            ):
                if ch_split is None:
                    continue
                counter += 1
                key = (-ch_split[3], child) if best_first else (0, -counter)
                heapq.heappush(heap, (key, child, s, e, self._keep_hist(ch_hist), ch_split))


class _SymmetricGrower(_Grower):
    """A symmetric (oblivious) regression tree's settings; :meth:`grow` is the test
    reference of the compiled symmetric growth (``_growing._grow_sym``): one split per
    level.

    Every node of a level is split on the same feature and bin, the one that maximises
    the sum over the level's nodes of their children's scores ``S^2 / (W + lam)``
    (CatBoost's default tree, Prokhorenkova et al. 2018; Dorogush et al. 2018). A node
    that the level's split cannot divide (a child would be empty or below the leaf
    limits, or the split would gain nothing) adds its own score and goes on to the next
    level undivided, as its rows would in CatBoost's table of ``2**depth`` leaves (where
    one of its two leaves would be empty). The fitted tree is an ordinary
    :class:`HistTree`, predicted like any other; a node's ``depth`` is its level (the
    children of a node divided by level ``d``'s split have depth ``d``), so a path has
    at most ``max_depth`` splits. Growth stops at ``max_depth`` levels or at the first level whose best split
    divides no node. Histograms come from the same kernels as :class:`_Grower`'s (the
    smaller child built, the larger by subtraction); the level's split from
    ``symmetric_split`` (with ``random_strength``, each candidate's score plus seeded
    noise keyed by the level's number ``d``).

    A categorical feature's categories are ranked once, at the root, by their mean
    response ``S / W`` (ties by code; rare categories, as :meth:`_without_rare_categories`
    finds them at the root, and empty ones unranked); the levels scan it as a numeric
    feature of those ranks, and a split of it is stored as each divided node's set of
    the categories of rank up to the level's bin (the unranked ones go right): LightGBM's
    ordering of a node's categories by their gradient statistic (Ke et al. 2017), taken
    once for the whole tree, as CatBoost's symmetric trees split a categorical feature
    on one numeric statistic (Prokhorenkova et al. 2018).
    """

    def _rank_categories(self, hist, root_tot):
        """Each categorical feature's categories by rank (see the class docstring) from
        the root's histogram ``hist``."""
        if self.min_cat_cnt > 1:
            hist = self._without_rare_categories(hist, root_tot)
        orders = {}
        for f in self.cat_features.tolist():
            nb = min(int(self.n_bins[f]), self.missing_bin)
            w, sy = hist[f, :nb, 0], hist[f, :nb, 1]
            present = np.flatnonzero(w > 0)
            key = sy[present] / w[present]
            orders[f] = present[np.argsort(key, kind="stable")]
        return orders

    def _ranked(self, hists, orders):
        """The level's histograms with each categorical feature's bins in rank order."""
        if not orders:
            return hists
        out = hists.copy()
        for f, order in orders.items():
            out[:, f, : self.missing_bin] = 0.0
            out[:, f, : order.size] = hists[:, f, order]
        return out

    def _grow(self, root_tot):
        self._buffers()
        n_act = len(self.idx)
        root = self._new_node(root_tot, 0, 0, n_act)
        if not self._can_split(root_tot, 0):
            return
        level = [root]
        hists = np.empty((1, *self.hist_shape))
        self._run_kernel(0, n_act, self.dummy_hist, hists[0], self.dummy_hist, False,
                         root_tot, root_tot, False, False)
        orders = self._rank_categories(hists[0], root_tot)
        n_features = self.n_features
        scores = np.empty(n_features)
        bins = np.empty(n_features, dtype=np.int32)
        ltot = np.empty(self.n_stat)
        rtot = np.empty(self.n_stat)
        lam = self.lam
        for d in range(1, self.max_depth + 1):
            m = len(level)
            tots = np.array([self.tot[n] for n in level])
            tol = np.array([self._tolerance(t) for t in tots])
            work = m * int(self.total_bins)
            ranked = self._ranked(hists, orders)
            _splitting.symmetric_split(ranked, tots, tol, self.n_bins, self.missing_bin, self.min_cnt,
                               self.min_w, lam, scores, bins,
                               self.n_threads if work >= _PARALLEL_MIN_WORK else 1,
                               self.random_strength, self.rs_seed, d)
            f = int(np.argmax(scores))
            if not np.isfinite(scores[f]) or bins[f] < 0:
                return
            b = int(bins[f])
            mls = np.empty(m, dtype=np.int32)
            gains = np.empty(m)
            _splitting.symmetric_nodes(ranked, tots, tol, f, b, self.missing_bin, self.min_cnt,
                               self.min_w, lam, mls, gains)
            n_split = int(np.count_nonzero(mls >= 0))
            left = None
            if f in orders:  # the categories of rank up to b
                left = np.zeros(self.missing_bin + 1, dtype=np.uint8)
                left[orders[f][: b + 1]] = 1
            if n_split == 0 or d == self.max_depth:
                if n_split:
                    self._split_level(d, level, hists, mls, gains, f, b, left, None, ltot,
                                      rtot)
                return
            new_hists = np.empty((m + n_split, *self.hist_shape))
            nodes = self._split_level(d, level, hists, mls, gains, f, b, left, new_hists, ltot,
                                      rtot)
            keep = [j for j, node in enumerate(nodes) if self._can_split(self.tot[node], d)]
            if not keep:
                return
            level = [nodes[j] for j in keep]
            hists = new_hists if len(keep) == len(nodes) else new_hists[keep]

    def _split_level(self, d, level, hists, mls, gains, f, b, left, new_hists, ltot, rtot):
        """Split level ``d``'s nodes where ``mls >= 0`` at ``(f, b)`` (their children's depth
        is ``d``; a categorical ``f``: by the set ``left``, with each node's missing-value
        direction); the next level's nodes (children, and the undivided nodes) in order,
        their histograms in ``new_hists`` (None: the last level, no histograms)."""
        nodes = []
        for i, node in enumerate(level):
            if mls[i] < 0:
                if new_hists is not None:
                    new_hists[len(nodes)] = hists[i]
                nodes.append(node)
                continue
            node_set = None
            if left is not None:
                node_set = left.copy()
                node_set[self.missing_bin] = mls[i]
            lnode, rnode, mid = self._divide(node, f, b, int(mls[i]), float(gains[i]), node_set,
                                             d, ltot, rtot)
            start, end = self.start[node], self.end[node]
            lt, rt = self.tot[lnode], self.tot[rnode]
            if new_hists is not None:
                lh, rh = new_hists[len(nodes)], new_hists[len(nodes) + 1]
                if mid - start <= end - mid:
                    self._run_kernel(start, mid, hists[i], lh, rh, True, lt, rt, False, False)
                else:
                    self._run_kernel(mid, end, hists[i], rh, lh, True, rt, lt, False, False)
            nodes += [lnode, rnode]
        return nodes
