"""Fast histogram decision trees, the default weak learner of the boosters.

Boosting fits hundreds of small trees on the same data with different sample
weights.  This module bins the data once (:class:`BinMapper`, at most 255
quantile bins per feature plus one bin for missing values, ``uint8`` codes held
in a :class:`BinnedData`) and grows each tree from weighted histograms with
numba kernels (:mod:`robust_boosting._tree_kernels`).

Contract with the boosters: call ``Xp = estimator.prepare_data(X)`` once per
fit, then every round ``clone(estimator).fit(Xp, y, sample_weight=w)`` and
``predict(Xp)`` / ``predict_proba(Xp)``; new raw data can be passed to
``predict(X)`` directly and gives exactly the same result as its binned form.
"""

from __future__ import annotations

import heapq
import numbers
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numba
import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.utils import check_array, check_random_state
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import (
    check_consistent_length,
    check_is_fitted,
    column_or_1d,
    validate_data,
)

from . import _loop_kernels as _lk
from . import _tree_kernels as _k
from ._loop_kernels import fdot

__all__ = [
    "BinMapper",
    "BinnedData",
    "HistTree",
    "HistTreeClassifier",
    "HistTreeRegressor",
]

_CRITERIA_CLS = {"gini": _k.GINI, "entropy": _k.ENTROPY}
_CRITERIA_REG = {"squared_error": _k.SQUARED_ERROR}

# A node is histogrammed with the parallel kernel when its work is at least this
# (smaller nodes use the serial twin: thread start-up dominates). Work counts one
# unit per (row, feature) histogram update and _SCAN_WORK units per (bin, feature)
# candidate of each split scan: with entropy, a candidate costs six logarithms, so
# the scan of a small node's large sibling (found by subtraction) is the larger part.
_PARALLEL_MIN_WORK = 100_000
_SCAN_WORK = 16
# Prediction runs in parallel chunks from this many samples on.
_PARALLEL_MIN_PREDICT = 200_000
# Histograms of candidate leaves are kept for subtraction up to this many bytes.
_HIST_CACHE_BYTES = 512 * 2**20
# Relative tolerance below which a split is considered not to decrease impurity.
_CLS_GAIN_RTOL = 1e-12
_REG_GAIN_RTOL = 1e-13


# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------
def _n_threads(n_jobs: int | None) -> int:
    max_threads = numba.config.NUMBA_NUM_THREADS
    if n_jobs is None:
        return numba.get_num_threads()
    if n_jobs < 0:
        n = max_threads + 1 + n_jobs
    else:
        n = n_jobs
    return int(min(max(n, 1), max_threads))


@contextmanager
def _numba_threads(n_jobs: int | None) -> Iterator[int]:
    """Set the numba thread count for the duration of a block."""
    n = _n_threads(n_jobs)
    old = numba.get_num_threads()
    if n == old:
        yield n
        return
    numba.set_num_threads(n)
    try:
        yield n
    finally:
        numba.set_num_threads(old)


def _feature_names(X: Any) -> np.ndarray | None:
    columns = getattr(X, "columns", None)
    if columns is None:
        return None
    names = np.asarray(columns, dtype=object)
    if names.ndim != 1 or not all(isinstance(c, str) for c in names):
        return None
    return names


def _check_raw_X(X: Any, *, ensure_min_samples: int = 1) -> np.ndarray:
    return check_array(
        X,
        dtype=[np.float64, np.float32],
        ensure_all_finite=False,
        ensure_min_samples=ensure_min_samples,
    )


def _safe_midpoints(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Thresholds ``t`` with ``a <= t < b`` (falls back to ``a``)."""
    with np.errstate(invalid="ignore", over="ignore"):
        mid = a / 2.0 + b / 2.0
        bad = ~((a <= mid) & (mid < b))
    mid[bad] = a[bad]
    return mid


def _feature_thresholds(col: np.ndarray, max_bins: int) -> np.ndarray:
    """Upper bin edges of one feature from its sorted non-missing values."""
    n = col.size
    if n == 0:
        return np.empty(0, dtype=np.float64)
    distinct = np.empty(n, dtype=bool)
    distinct[0] = True
    np.not_equal(col[1:], col[:-1], out=distinct[1:])
    n_distinct = int(np.count_nonzero(distinct))
    if n_distinct <= max_bins:
        u = col[distinct]
        a, b = u[:-1], u[1:]
    else:
        ranks = (np.arange(1, max_bins, dtype=np.int64) * n) // max_bins
        a, b = col[ranks - 1], col[ranks]
    return np.unique(_safe_midpoints(a, b))


# --------------------------------------------------------------------------
# Binning
# --------------------------------------------------------------------------
class BinnedData:
    """Data binned by a :class:`BinMapper`, reusable by every boosting round.

    Parameters
    ----------
    codes : ndarray of shape (n_samples, n_features), dtype uint8
        Bin codes; stored Fortran-ordered (each feature contiguous), which is
        what the histogram kernels read.  ``mapper.missing_bin_`` marks NaN.
    mapper : BinMapper
        The fitted mapper that produced the codes.
    feature_names : ndarray of str or None
        Column names of the raw data, if it had string column names.

    Notes
    -----
    Rows can be selected with ``Xp[indices]`` (or :meth:`take`), which returns a
    new :class:`BinnedData` sharing the mapper.
    """

    def __init__(
        self, codes: np.ndarray, mapper: BinMapper, feature_names: np.ndarray | None = None
    ) -> None:
        codes = np.asarray(codes)
        if codes.dtype != np.uint8 or codes.ndim != 2:
            raise TypeError("codes must be a 2-D uint8 array")
        if codes.shape[1] != mapper.n_features_in_:
            raise ValueError(
                f"codes has {codes.shape[1]} features, the mapper {mapper.n_features_in_}"
            )
        self.codes = np.asfortranarray(codes)
        self.mapper = mapper
        self.feature_names = feature_names

    @property
    def n_samples(self) -> int:
        """Number of rows."""
        return self.codes.shape[0]

    @property
    def n_features(self) -> int:
        """Number of features."""
        return self.codes.shape[1]

    @property
    def shape(self) -> tuple[int, int]:
        """``(n_samples, n_features)``."""
        return self.codes.shape

    @property
    def codes_t(self) -> np.ndarray:
        """C-contiguous ``(n_features, n_samples)`` view used by the kernels."""
        return self.codes.T

    def __len__(self) -> int:
        return self.n_samples

    def take(self, indices: Any) -> BinnedData:
        """Return the rows ``indices`` (array of ints, boolean mask or slice)."""
        if isinstance(indices, tuple):
            raise TypeError("BinnedData supports row selection only")
        return BinnedData(self.codes[indices], self.mapper, self.feature_names)

    __getitem__ = take

    def __repr__(self) -> str:
        return f"BinnedData(n_samples={self.n_samples}, n_features={self.n_features})"


class BinMapper(BaseEstimator):
    """Quantile binning of continuous features into ``uint8`` codes.

    Each feature gets at most ``max_bins`` bins whose upper edges are midpoints
    between distinct values (all of them when there are at most ``max_bins``
    distinct values, otherwise quantiles).  A value ``x`` gets code ``b`` with
    ``thresholds_[f][b - 1] < x <= thresholds_[f][b]``; NaN gets
    ``missing_bin_``.  Infinite values are allowed.

    Parameters
    ----------
    max_bins : int, default=255
        Maximum number of bins for non-missing values (2 to 255).
    subsample : int or None, default=200_000
        Quantiles are computed on at most this many rows (chosen at random).
    random_state : int, RandomState or None, default=0
        Seed of the row subsample.

    Attributes
    ----------
    thresholds_ : list of ndarray of float64
        Upper edges of the bins of each feature (``n_bins_[f] - 1`` values).
    n_bins_ : ndarray of int32, shape (n_features,)
        Number of non-missing bins of each feature.
    missing_bin_ : int
        Code of missing values (``max(n_bins_)``), the same for every feature.
    n_features_in_ : int
        Number of features.
    """

    def __init__(
        self, max_bins: int = 255, subsample: int | None = 200_000, random_state: Any = 0
    ) -> None:
        self.max_bins = max_bins
        self.subsample = subsample
        self.random_state = random_state

    def fit(self, X: Any, y: Any = None, *, rows: np.ndarray | None = None) -> BinMapper:
        """Compute the bin thresholds.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data; NaN means missing.
        y : None
            Ignored.
        rows : array of int, optional
            Only these rows are used to place the thresholds (the trees pass the
            rows with non-zero sample weight).

        Returns
        -------
        self : BinMapper
        """
        if (
            not isinstance(self.max_bins, numbers.Integral)
            or isinstance(self.max_bins, bool)
            or not 2 <= self.max_bins <= 255
        ):
            raise ValueError(f"max_bins must be an integer in [2, 255], got {self.max_bins!r}")
        if self.subsample is not None and (
            not isinstance(self.subsample, numbers.Integral) or self.subsample < 1
        ):
            raise ValueError(f"subsample must be a positive integer or None, got {self.subsample!r}")
        X = _check_raw_X(X)
        n_rows = X.shape[0] if rows is None else len(rows)
        if self.subsample is not None and n_rows > self.subsample:
            rng = check_random_state(self.random_state)
            pick = np.sort(rng.choice(n_rows, self.subsample, replace=False))
            rows = pick if rows is None else np.asarray(rows)[pick]
        Xs = X if rows is None else X[rows]
        thresholds = []
        for f in range(X.shape[1]):
            col = np.array(Xs[:, f], dtype=np.float64)
            col = col[~np.isnan(col)]
            col.sort()
            thresholds.append(_feature_thresholds(col, int(self.max_bins)))
        self.thresholds_ = thresholds
        self.n_bins_ = np.array([len(t) + 1 for t in thresholds], dtype=np.int32)
        self.missing_bin_ = int(self.n_bins_.max()) if len(thresholds) else 1
        self._thr_flat = (
            np.concatenate(thresholds) if thresholds else np.empty(0, dtype=np.float64)
        ).astype(np.float64)
        self._thr_off = np.zeros(len(thresholds) + 1, dtype=np.int64)
        np.cumsum([len(t) for t in thresholds], out=self._thr_off[1:])
        self.n_features_in_ = X.shape[1]
        return self

    def transform(self, X: Any) -> BinnedData:
        """Bin ``X``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        BinnedData
        """
        check_is_fitted(self, "thresholds_")
        names = _feature_names(X)
        X = _check_raw_X(X)
        if X.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {X.shape[1]} features, but the BinMapper was fitted with "
                f"{self.n_features_in_} features"
            )
        codes = np.empty(X.shape, dtype=np.uint8, order="F")
        _k.bin_matrix(X, self._thr_flat, self._thr_off, self.missing_bin_, codes.T)
        return BinnedData(codes, self, names)

    def fit_transform(self, X: Any, y: Any = None) -> BinnedData:
        """Fit the thresholds on ``X`` and bin it."""
        return self.fit(X).transform(X)

    def split_threshold(self, feature: int, bin_: int) -> float:
        """Raw threshold of the split "code <= bin_" (``inf`` for the last bin)."""
        thr = self.thresholds_[feature]
        return float(thr[bin_]) if bin_ < len(thr) else np.inf

    def same_bins(self, other: BinMapper) -> bool:
        """Whether ``other`` bins data exactly like this mapper."""
        if other is self:
            return True
        return (
            getattr(other, "n_features_in_", None) == self.n_features_in_
            and other.missing_bin_ == self.missing_bin_
            and np.array_equal(other._thr_off, self._thr_off)
            and np.array_equal(other._thr_flat, self._thr_flat)
        )


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
        return int(self.depth.max())


class _Grower:
    """Grows one tree from binned codes (Python control, numba kernels)."""

    def __init__(
        self, codes_t, n_bins, missing_bin, idx, ow, oc, owy, is_reg, n_stat, crit,
        max_depth, max_leaf_nodes, min_samples_leaf, min_weight, tol_scale, n_threads,
    ):
        self.codes_t = codes_t
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
        self.tol_scale = tol_scale
        self.parallel = n_threads > 1
        # (ow, oc, owy) per row of the data, zero weight for inactive rows: see _fit
        self.dense_root = None
        n_act = len(idx)
        n_features = codes_t.shape[0]
        self.n_features = n_features
        self.total_bins = int(np.sum(n_bins))
        self.buf_i = np.empty(n_act, dtype=np.int32)
        self.buf_w = np.empty(n_act, dtype=np.float64)
        self.buf_c = np.empty(n_act if not is_reg else 0, dtype=np.int32)
        self.buf_y = np.empty(n_act if is_reg else 0, dtype=np.float64)
        self.scores = np.empty((2, n_features), dtype=np.float64)
        self.bins = np.empty((2, n_features), dtype=np.int32)
        self.mls = np.empty((2, n_features), dtype=np.uint8)
        self.scratch = np.empty((n_features, n_stat), dtype=np.float64)
        # exact per-bin counts are only needed to enforce min_samples_leaf > 1
        hist_stat = n_stat if min_samples_leaf > 1 else n_stat - 1
        self.hist_shape = (n_features, missing_bin + 1, hist_stat)
        self.hist_bytes = 8 * n_features * (missing_bin + 1) * hist_stat
        self.dummy_hist = np.empty((1, 1, 1), dtype=np.float64)
        self.n_live_hists = 0
        # node records
        self.left: list[int] = []
        self.right: list[int] = []
        self.feature: list[int] = []
        self.split_bin: list[int] = []
        self.missing_left: list[int] = []
        self.gain: list[float] = []
        self.tot: list[np.ndarray] = []
        self.depth: list[int] = []
        self.start: list[int] = []
        self.end: list[int] = []

    # -- node bookkeeping ------------------------------------------------
    def _new_node(self, tot, depth, start, end):
        self.start.append(start)
        self.end.append(end)
        self.left.append(-1)
        self.right.append(-1)
        self.feature.append(-1)
        self.split_bin.append(-1)
        self.missing_left.append(0)
        self.gain.append(0.0)
        self.tot.append(tot)
        self.depth.append(depth)
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
        """Best split (feature, bin, missing_left, gain) from a score row."""
        scores = self.scores[row]
        f = int(np.argmax(scores))
        sc = scores[f]
        if not np.isfinite(sc):
            return None
        gain = sc - _k.node_score(tot, self.n_stat, self.crit)
        if not gain > self._tolerance(tot):
            return None
        return f, int(self.bins[row, f]), int(self.mls[row, f]), float(gain)

    def _run_kernel(self, start, end, parent_hist, small_hist, large_hist, do_sub,
                    small_tot, large_tot, find_small, find_large):
        self.scores.fill(-np.inf)
        work = (end - start) * self.n_features + _SCAN_WORK * self.total_bins * (
            int(find_small) + int(find_large))
        kernel = (
            _k.node_pair_par if self.parallel and work >= _PARALLEL_MIN_WORK else _k.node_pair_ser
        )
        ow, oc, owy = self.ow, self.oc, self.owy
        dense = False
        if start == 0 and end == len(self.idx):  # the root, before any partition
            # read the rows in order: every row has weight (idx is 0..n-1), or most
            # have and ``dense_root`` holds the per-row statistics
            if self.dense_root is not None:
                ow, oc, owy = self.dense_root
                end = self.codes_t.shape[1]
            dense = end == self.codes_t.shape[1]
        kernel(
            self.codes_t, self.idx, ow, oc, owy, self.is_reg, self.crit,
            dense, start, end, self.n_bins, self.missing_bin, parent_hist, small_hist, large_hist,
            do_sub, small_tot, large_tot, find_small, find_large, self.min_cnt, self.min_w,
            self.scores, self.bins, self.mls, self.scratch,
        )

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

    def _evaluate_single(self, start, end, tot):
        hist = self._alloc_hist()
        self._run_kernel(start, end, self.dummy_hist, hist, self.dummy_hist, False,
                         tot, tot, True, False)
        split = self._pick(0, tot)
        if split is None:
            self._release(hist)
            return None, None
        return hist, split

    def _evaluate_children(self, parent_hist, ls, le, rs, re_, ltot, rtot, find_l, find_r):
        """Histograms and best splits of two new siblings."""
        if not (find_l or find_r):
            return (None, None), (None, None)
        if parent_hist is None:
            left = self._evaluate_single(ls, le, ltot) if find_l else (None, None)
            right = self._evaluate_single(rs, re_, rtot) if find_r else (None, None)
            return left, right
        small_is_left = (le - ls) <= (re_ - rs)
        if small_is_left:
            s, e, stot, ltot_, find_s, find_g = ls, le, ltot, rtot, find_l, find_r
        else:
            s, e, stot, ltot_, find_s, find_g = rs, re_, rtot, ltot, find_r, find_l
        small_hist = self._alloc_hist()
        large_hist = self._alloc_hist() if find_g else self.dummy_hist
        self._run_kernel(s, e, parent_hist, small_hist, large_hist, find_g,
                         stot, ltot_, find_s, find_g)
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

    # -- growth ------------------------------------------------------------
    def grow(self, root_tot):
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
            _, node, start, end, hist, (f, b, ml, gain) = heapq.heappop(heap)
            mid = _k.partition(
                self.codes_t, self.idx, self.ow, self.oc, self.owy, self.is_reg, start, end,
                f, b, bool(ml), self.missing_bin, self.buf_i, self.buf_w, self.buf_c,
                self.buf_y, ltot, rtot,
            )
            d = self.depth[node] + 1
            lt = ltot.copy()
            rt = rtot.copy()
            lnode = self._new_node(lt, d, start, mid)
            rnode = self._new_node(rt, d, mid, end)
            self.left[node] = lnode
            self.right[node] = rnode
            self.feature[node] = f
            self.split_bin[node] = b
            self.missing_left[node] = ml
            self.gain[node] = gain
            n_leaves += 1
            find_l = self._can_split(lt, d)
            find_r = self._can_split(rt, d)
            if best_first and n_leaves >= self.max_leaf_nodes:
                find_l = find_r = False
            (lh, lsplit), (rh, rsplit) = self._evaluate_children(
                hist, start, mid, mid, end, lt, rt, find_l, find_r
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


#: sample weights whose largest entry lies outside this range are divided by it
_WEIGHT_SCALE_LOW, _WEIGHT_SCALE_HIGH = 1e-150, 1e150


def _check_sample_weight(sample_weight: Any, n_samples: int) -> np.ndarray | None:
    if sample_weight is None:
        return None
    sw = np.asarray(sample_weight)
    if sw.ndim == 0:
        sw = np.full(n_samples, float(sw))
    if sw.dtype.kind not in "biuf":
        raise TypeError(f"sample_weight must be numeric, got dtype {sw.dtype}")
    sw = np.asarray(sw, dtype=np.float64)
    if sw.ndim != 1:
        raise ValueError(f"sample_weight must be 1-D, got shape {sw.shape}")
    if sw.shape[0] != n_samples:
        raise ValueError(
            f"sample_weight has {sw.shape[0]} entries but X has {n_samples} samples"
        )
    if not np.all(np.isfinite(sw)):
        raise ValueError("sample_weight contains NaN or infinity")
    if sw.size and sw.min() < 0:
        raise ValueError("sample_weight must be non-negative")
    top = sw.max() if sw.size else 0.0
    if top > 0 and not _WEIGHT_SCALE_LOW <= top <= _WEIGHT_SCALE_HIGH:
        # finite weights whose sum (or whose products in the split gains) would
        # overflow or underflow: only their ratios matter, so divide by the largest
        sw = sw / top
    return sw


def _encode_classes(y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return ``classes, codes`` (codes int32), fast for small integer labels."""
    yi = None
    if y.dtype.kind in "iub":
        yi = y.astype(np.int64, copy=False)
    elif y.dtype.kind == "f":
        if np.all(np.isfinite(y)) and np.array_equal(y, np.trunc(y)) and (
            y.size == 0 or np.abs(y).max() < 2**53
        ):
            yi = y.astype(np.int64)
        else:
            check_classification_targets(y)
    else:
        check_classification_targets(y)
    if yi is not None and yi.size:
        lo, present, codes = _lk.small_int_codes(np.ascontiguousarray(yi), 2**16)
        if present.size:
            classes = (np.flatnonzero(present) + lo).astype(y.dtype)
            return classes, codes
    classes, codes = np.unique(y, return_inverse=True)
    return classes, codes.astype(np.int32).ravel()


# --------------------------------------------------------------------------
# Estimators
# --------------------------------------------------------------------------
class _BaseHistTree(BaseEstimator):
    """Shared parameters and fitting of the histogram trees."""

    _criteria: dict[str, int] = {}
    _is_reg = False

    def __init__(
        self,
        *,
        criterion: str,
        max_depth: int | None,
        max_leaf_nodes: int | None = None,
        min_samples_leaf: int = 1,
        min_weight_fraction_leaf: float = 0.0,
        max_bins: int = 255,
        n_jobs: int | None = None,
        random_state: Any = None,
    ) -> None:
        self.criterion = criterion
        self.max_depth = max_depth
        self.max_leaf_nodes = max_leaf_nodes
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.max_bins = max_bins
        self.n_jobs = n_jobs
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        return tags

    # -- parameters -------------------------------------------------------
    def _validate_params(self) -> None:
        def _int(name, value, low, allow_none):
            if value is None and allow_none:
                return
            if not isinstance(value, numbers.Integral) or isinstance(value, bool) or value < low:
                extra = " or None" if allow_none else ""
                raise ValueError(f"{name} must be an integer >= {low}{extra}, got {value!r}")

        if self.criterion not in self._criteria:
            raise ValueError(
                f"criterion must be one of {sorted(self._criteria)}, got {self.criterion!r}"
            )
        _int("max_depth", self.max_depth, 0, True)
        _int("max_leaf_nodes", self.max_leaf_nodes, 2, True)
        _int("min_samples_leaf", self.min_samples_leaf, 1, False)
        _int("max_bins", self.max_bins, 2, False)
        if self.max_bins > 255:
            raise ValueError(f"max_bins must be at most 255, got {self.max_bins!r}")
        if self.n_jobs is not None and (
            not isinstance(self.n_jobs, numbers.Integral) or self.n_jobs == 0
        ):
            raise ValueError(f"n_jobs must be a non-zero integer or None, got {self.n_jobs!r}")
        mwf = self.min_weight_fraction_leaf
        if not isinstance(mwf, numbers.Real) or not 0.0 <= mwf <= 0.5:
            raise ValueError(f"min_weight_fraction_leaf must be in [0, 0.5], got {mwf!r}")

    # -- data -------------------------------------------------------------
    def prepare_data(self, X: Any) -> BinnedData:
        """Bin ``X`` once so that many trees can be fitted on it.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or BinnedData
            Raw data (NaN = missing); a :class:`BinnedData` is returned as is.

        Returns
        -------
        BinnedData
            Pass it to :meth:`fit`, :meth:`predict`, ... instead of ``X``.
        """
        if isinstance(X, BinnedData):
            return X
        mapper = BinMapper(max_bins=self.max_bins)
        with _numba_threads(self.n_jobs):
            return mapper.fit_transform(X)

    def _validate_X_y(self, X, y):
        if isinstance(X, BinnedData):
            self.n_features_in_ = X.n_features
            if X.feature_names is not None:
                self.feature_names_in_ = X.feature_names
            elif hasattr(self, "feature_names_in_"):
                del self.feature_names_in_
            if y is None:
                raise ValueError("y is required")
            if not (isinstance(y, np.ndarray) and y.ndim == 1):  # the boosters' case is cheap
                y = column_or_1d(y, warn=True)
            if y.shape[0] != X.n_samples:
                check_consistent_length(X.codes, y)
            if self._is_reg:
                y = np.asarray(y, dtype=np.float64)
                if not np.all(np.isfinite(y)):
                    raise ValueError("Input y contains NaN or infinity.")
            return X, y
        X, y = validate_data(
            self,
            X,
            y,
            dtype=[np.float64, np.float32],
            ensure_all_finite=False,
            y_numeric=self._is_reg,
        )
        return X, y

    def _fit(self, X, y, sample_weight):
        self._validate_params()
        X, y = self._validate_X_y(X, y)
        n_samples = X.shape[0]
        sw = _check_sample_weight(sample_weight, n_samples)
        if self._is_reg:
            y = np.asarray(y, dtype=np.float64)
        else:
            self.classes_, y_enc = _encode_classes(y)
            self.n_classes_ = len(self.classes_)
        active = inactive = None
        n_active = n_samples
        if sw is not None:
            sw = np.ascontiguousarray(sw)
            rows = np.empty(n_samples, dtype=np.int32)
            w_rows = np.empty(n_samples)
            n_active = int(_lk.active_rows(sw, rows, w_rows))
            if n_active < n_samples:
                active = rows[:n_active]
                inactive = rows[n_active:]
        if n_active == 0:
            raise ValueError("sample_weight is zero for every sample; no sample weight to fit")

        with _numba_threads(self.n_jobs) as n_threads:
            if isinstance(X, BinnedData):
                binned = X
            else:
                mapper = BinMapper(max_bins=self.max_bins).fit(X, rows=active)
                binned = mapper.transform(X)
            mapper = binned.mapper
            if active is None:
                idx = np.arange(n_samples, dtype=np.int32)
                # a copy: the partition reorders ow in place
                ow = np.ones(n_samples) if sw is None else sw.copy()
            else:
                idx = active
                ow = w_rows[:n_active]
            total_w = float(ow.sum())
            if not total_w > 0:
                raise ValueError("the sum of sample_weight must be positive (non-zero weight)")
            if self._is_reg:
                ya = y if active is None else y[idx]
                ybar = fdot(ow, ya) / total_w
                resid = ya - ybar
                owy = ow * resid
                oc = np.empty(0, dtype=np.int32)
                n_stat = 3
                # scale of gains: weighted mean of y**2
                tol_scale = fdot(ow, ya * ya) / total_w
                root_tot = np.array([total_w, owy.sum(), n_active], dtype=np.float64)
            else:
                ybar = 0.0
                oc = y_enc if active is None else y_enc[idx]
                oc = np.ascontiguousarray(oc, dtype=np.int32)
                owy = np.empty(0, dtype=np.float64)
                n_stat = self.n_classes_ + 1
                tol_scale = 1.0
                root_tot = np.zeros(n_stat, dtype=np.float64)
                root_tot[: self.n_classes_] = np.bincount(
                    oc, weights=ow, minlength=self.n_classes_
                )
                root_tot[-1] = n_active
            grower = _Grower(
                binned.codes_t, mapper.n_bins_, mapper.missing_bin_, idx, ow, oc, owy,
                self._is_reg, n_stat, self._criteria[self.criterion], self.max_depth,
                self.max_leaf_nodes, self.min_samples_leaf,
                self.min_weight_fraction_leaf * total_w, tol_scale, n_threads,
            )
            if active is not None and 2 * n_active >= n_samples and self.min_samples_leaf == 1:
                # Most rows have weight (SPLBoost drops a few): the root's histogram reads
                # every row in order, zero-weight rows adding exact zeros, which is faster
                # than following idx. Not with counts (zero-weight rows must not count).
                if self._is_reg:
                    owy_all = np.zeros(n_samples)
                    owy_all[idx] = owy
                    grower.dense_root = (sw, oc, owy_all)
                else:
                    grower.dense_root = (sw, np.ascontiguousarray(y_enc, dtype=np.int32), owy)
            grower.grow(root_tot)
        self.bin_mapper_ = mapper
        self.tree_ = self._make_tree(grower, mapper, ybar)
        if isinstance(X, BinnedData):
            self._remember_train_leaves(X, grower, inactive)
        return self

    def _remember_train_leaves(self, X: BinnedData, g: _Grower, inactive) -> None:
        """Store the leaf of every training row on ``X`` (boosters predict the
        training data right after each fit; the partition already knows it).

        Only the most recent fit on ``X`` is remembered, so memory stays bounded.
        """
        t = self.tree_
        leaves = np.flatnonzero(t.children_left < 0)
        out = np.empty(X.n_samples, dtype=np.int32)
        _k.leaves_of_partition(
            g.idx,
            np.array(g.start, dtype=np.int64)[leaves],
            np.array(g.end, dtype=np.int64)[leaves],
            leaves.astype(np.int32),
            out,
        )
        if inactive is not None:
            # zero-weight rows are not in the partition: route them through the tree
            _k.apply_binned_rows(
                X.codes_t, t.feature, t.threshold_bin, t.missing_go_left, t.children_left,
                t.children_right, g.missing_bin, inactive, out,
            )
        token = object()
        self._fit_token = token
        X._train_leaves = (token, out)

    def _make_tree(self, g: _Grower, mapper: BinMapper, ybar: float) -> HistTree:
        feature = np.array(g.feature, dtype=np.int32)
        split_bin = np.array(g.split_bin, dtype=np.int32)
        threshold = np.full(len(feature), np.nan)
        for i in np.flatnonzero(feature >= 0):
            threshold[i] = mapper.split_threshold(int(feature[i]), int(split_bin[i]))
        tot = np.array(g.tot, dtype=np.float64)
        if self._is_reg:
            w = tot[:, 0]
            value = tot[:, 1] / w + ybar
        else:
            w = tot[:, :-1].sum(axis=1)
            value = tot[:, :-1] / w[:, None]
        return HistTree(
            children_left=np.array(g.left, dtype=np.int32),
            children_right=np.array(g.right, dtype=np.int32),
            feature=feature,
            threshold_bin=split_bin,
            threshold=threshold,
            missing_go_left=np.array(g.missing_left, dtype=np.uint8),
            gain=np.array(g.gain, dtype=np.float64),
            value=value,
            weighted_n_node_samples=w,
            n_node_samples=tot[:, -1].astype(np.int64),
            depth=np.array(g.depth, dtype=np.int32),
        )

    # -- prediction -------------------------------------------------------
    def apply(self, X: Any) -> np.ndarray:
        """Index of the leaf reached by each sample.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or BinnedData

        Returns
        -------
        ndarray of int32, shape (n_samples,)
        """
        check_is_fitted(self, "tree_")
        t = self.tree_
        with _numba_threads(self.n_jobs) as n_threads:
            if isinstance(X, BinnedData):
                if X.n_features != self.n_features_in_:
                    raise ValueError(
                        f"X has {X.n_features} features, but {type(self).__name__} is "
                        f"expecting {self.n_features_in_} features as input"
                    )
                if not self.bin_mapper_.same_bins(X.mapper):
                    raise ValueError(
                        "BinnedData was binned with different thresholds than the "
                        "data the tree was fitted on; pass raw X instead"
                    )
                cached = getattr(X, "_train_leaves", None)
                if cached is not None and cached[0] is getattr(self, "_fit_token", None):
                    return cached[1].copy()
                out = np.empty(X.n_samples, dtype=np.int32)
                args = (X.codes_t, t.feature, t.threshold_bin, t.missing_go_left,
                        t.children_left, t.children_right, self.bin_mapper_.missing_bin_)
                if n_threads > 1 and X.n_samples >= _PARALLEL_MIN_PREDICT:
                    _k.apply_binned_par(*args, out)
                else:
                    _k.apply_binned(*args, 0, X.n_samples, out)
                return out
            X = validate_data(
                self, X, reset=False, dtype=[np.float64, np.float32], ensure_all_finite=False
            )
            out = np.empty(X.shape[0], dtype=np.int32)
            args = (X, t.feature, t.threshold, t.missing_go_left, t.children_left,
                    t.children_right)
            if n_threads > 1 and X.shape[0] >= _PARALLEL_MIN_PREDICT:
                _k.apply_raw_par(*args, out)
            else:
                _k.apply_raw(*args, 0, X.shape[0], out)
            return out

    @property
    def feature_importances_(self) -> np.ndarray:
        """Normalised total impurity decrease brought by each feature."""
        check_is_fitted(self, "tree_")
        t = self.tree_
        inner = t.feature >= 0
        imp = np.bincount(t.feature[inner], weights=t.gain[inner], minlength=self.n_features_in_)
        total = imp.sum()
        return imp / total if total > 0 else imp

    def get_depth(self) -> int:
        """Depth of the fitted tree."""
        check_is_fitted(self, "tree_")
        return self.tree_.max_depth

    def get_n_leaves(self) -> int:
        """Number of leaves of the fitted tree."""
        check_is_fitted(self, "tree_")
        return self.tree_.n_leaves


class HistTreeClassifier(ClassifierMixin, _BaseHistTree):
    """Weighted decision tree on binned data, built for boosting.

    The data are binned once (see :meth:`prepare_data`); each fit builds class
    weight histograms with numba (parallel over features, histogram
    subtraction, zero-weight samples skipped), so that fitting hundreds of
    trees with different sample weights is cheap.

    Parameters
    ----------
    criterion : {"entropy", "gini"}, default="entropy"
        Impurity: Shannon entropy (C4.5-like information gain) or Gini.
    max_depth : int or None, default=1
        Maximum depth (1 = decision stump, the classical AdaBoost learner);
        None for unlimited.
    max_leaf_nodes : int or None, default=None
        If set, the tree grows best-first (largest impurity decrease first)
        until it has this many leaves.
    min_samples_leaf : int, default=1
        Minimum number of samples with non-zero weight in a leaf.
    min_weight_fraction_leaf : float, default=0.0
        Minimum fraction of the total sample weight in a leaf.
    max_bins : int, default=255
        Maximum number of bins per feature when ``fit`` receives raw data
        (ignored for :class:`BinnedData`, which carries its own bins).
    n_jobs : int or None, default=None
        Number of numba threads (None: numba's current setting, -1: all).
        Results do not depend on it.
    random_state : None, int or RandomState, default=None
        Accepted for API compatibility; the algorithm is deterministic (ties go
        to the lowest feature, then the lowest bin).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        Class labels.
    n_classes_ : int
        Number of classes.
    tree_ : HistTree
        The fitted tree arrays.
    bin_mapper_ : BinMapper
        Bins of the training data.
    feature_importances_ : ndarray of shape (n_features,)
        Normalised impurity decrease per feature.
    n_features_in_ : int
        Number of features seen in fit.
    feature_names_in_ : ndarray of str
        Feature names seen in fit (only if they were all strings).
    """

    _criteria = _CRITERIA_CLS
    _is_reg = False

    def __init__(
        self,
        *,
        criterion: str = "entropy",
        max_depth: int | None = 1,
        max_leaf_nodes: int | None = None,
        min_samples_leaf: int = 1,
        min_weight_fraction_leaf: float = 0.0,
        max_bins: int = 255,
        n_jobs: int | None = None,
        random_state: Any = None,
    ) -> None:
        super().__init__(
            criterion=criterion,
            max_depth=max_depth,
            max_leaf_nodes=max_leaf_nodes,
            min_samples_leaf=min_samples_leaf,
            min_weight_fraction_leaf=min_weight_fraction_leaf,
            max_bins=max_bins,
            n_jobs=n_jobs,
            random_state=random_state,
        )

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # a decision stump (the default) cannot separate 3 classes
        tags.classifier_tags.poor_score = True
        return tags

    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> HistTreeClassifier:
        """Fit the tree.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or BinnedData
            Training data (NaN = missing), or data binned by :meth:`prepare_data`.
        y : array-like of shape (n_samples,)
            Class labels.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights; samples with zero weight are ignored (they do
            not influence the bins, the splits or the leaf values).

        Returns
        -------
        self : HistTreeClassifier
        """
        return self._fit(X, y, sample_weight)

    def predict_proba(self, X: Any) -> np.ndarray:
        """Weighted class fractions of the leaf of each sample.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or BinnedData

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        leaves = self.apply(X)
        return self.tree_.value[leaves]

    def predict_log_proba(self, X: Any) -> np.ndarray:
        """Logarithm of :meth:`predict_proba` (``-inf`` for zero probabilities)."""
        proba = self.predict_proba(X)
        with np.errstate(divide="ignore"):
            return np.log(proba)

    def predict(self, X: Any) -> np.ndarray:
        """Majority (largest weight) class of the leaf of each sample.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or BinnedData

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        leaves = self.apply(X)
        leaf_class = np.argmax(self.tree_.value, axis=1)
        return self.classes_[leaf_class[leaves]]


class HistTreeRegressor(RegressorMixin, _BaseHistTree):
    """Weighted least-squares decision tree on binned data, built for boosting.

    Used by GentleBoost, LogitBoost and RBoost, which fit a regression tree to
    working responses each round.  Same machinery as
    :class:`HistTreeClassifier`; leaves output the weighted mean target.

    Parameters
    ----------
    criterion : {"squared_error"}, default="squared_error"
        Weighted squared error.
    max_depth : int or None, default=3
        Maximum depth; None for unlimited.
    max_leaf_nodes : int or None, default=None
        If set, best-first growth until this many leaves.
    min_samples_leaf : int, default=1
        Minimum number of samples with non-zero weight in a leaf.
    min_weight_fraction_leaf : float, default=0.0
        Minimum fraction of the total sample weight in a leaf.
    max_bins : int, default=255
        Maximum number of bins per feature when ``fit`` receives raw data.
    n_jobs : int or None, default=None
        Number of numba threads (None: numba's current setting, -1: all).
    random_state : None, int or RandomState, default=None
        Accepted for API compatibility; the algorithm is deterministic.

    Attributes
    ----------
    tree_ : HistTree
        The fitted tree arrays (``value`` has shape (node_count,)).
    bin_mapper_ : BinMapper
        Bins of the training data.
    feature_importances_ : ndarray of shape (n_features,)
        Normalised impurity decrease per feature.
    n_features_in_ : int
        Number of features seen in fit.
    feature_names_in_ : ndarray of str
        Feature names seen in fit (only if they were all strings).
    """

    _criteria = _CRITERIA_REG
    _is_reg = True

    def __init__(
        self,
        *,
        criterion: str = "squared_error",
        max_depth: int | None = 3,
        max_leaf_nodes: int | None = None,
        min_samples_leaf: int = 1,
        min_weight_fraction_leaf: float = 0.0,
        max_bins: int = 255,
        n_jobs: int | None = None,
        random_state: Any = None,
    ) -> None:
        super().__init__(
            criterion=criterion,
            max_depth=max_depth,
            max_leaf_nodes=max_leaf_nodes,
            min_samples_leaf=min_samples_leaf,
            min_weight_fraction_leaf=min_weight_fraction_leaf,
            max_bins=max_bins,
            n_jobs=n_jobs,
            random_state=random_state,
        )

    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> HistTreeRegressor:
        """Fit the tree.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or BinnedData
            Training data (NaN = missing), or data binned by :meth:`prepare_data`.
        y : array-like of shape (n_samples,)
            Targets.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights; zero-weight samples are ignored.

        Returns
        -------
        self : HistTreeRegressor
        """
        return self._fit(X, y, sample_weight)

    def predict(self, X: Any) -> np.ndarray:
        """Weighted mean target of the leaf of each sample.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or BinnedData

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        leaves = self.apply(X)
        return self.tree_.value[leaves]
