"""Binning: raw features to ``uint8`` quantile-bin codes, once per boosted fit.

:class:`BinMapper` finds at most 255 quantile bins per feature plus one bin for
missing values; :class:`BinnedData` holds the codes (feature-major) with the
mapper that made them. The thread-count helpers of the compiled kernels, used
by the whole package, live here too.
"""

from __future__ import annotations

import functools
import numbers
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import joblib
import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils import check_array, check_random_state
from sklearn.utils.validation import (
    check_is_fitted,
)

from . import _binning, _partition

# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------
_THREADS = threading.local()


@functools.cache
def _max_threads() -> int:
    """The cores this process may use (CPU affinity and container limits included;
    read once: joblib reads the container's limits from files)."""
    return max(1, int(joblib.cpu_count()))


def _default_threads() -> int:
    """Threads the kernels use when nothing sets them: every core this process may use, at
    most ``OMP_NUM_THREADS`` when that is set. joblib's worker processes set it to their
    share of the cores (1 for 2 workers on 2 cores); the kernels name their thread count
    themselves, so without this each worker ran as many threads as the machine has cores,
    and two such workers on 2 cores took 1.7x the time of one (an OpenMP team waits for
    threads that are not running). An explicit ``n_jobs`` is not capped by it."""
    n = _max_threads()
    omp = os.environ.get("OMP_NUM_THREADS", "").split(",")[0].strip()
    if omp.isdigit() and int(omp) > 0:
        n = min(n, int(omp))
    return n


#: rows x features of training data per thread of the default thread count (design
#: record 0022): a fit whose data has less work than this per core runs on fewer threads,
#: one below 2 x this; its kernels' parallel regions would be too short for a second
#: thread to pay for itself, and on a machine whose cores are busy with other work each
#: region waits for a descheduled thread (a 2,000-row AdaBoost fit took 8x the time of one
#: thread with two busy processes on two cores)
WORK_PER_THREAD = 500_000


def auto_threads(work: int | None) -> int:
    """The default thread count of a fit on ``work`` = rows x features of its data: one
    per :data:`WORK_PER_THREAD` units, at least 1 and at most :func:`_default_threads`
    (None: :func:`_default_threads`)."""
    if work is None:
        return _default_threads()
    return int(min(_default_threads(), max(1, int(work) // WORK_PER_THREAD)))


def data_work(X: Any) -> int | None:
    """Rows x features of ``X`` (an array, DataFrame or :class:`BinnedData`; None if
    ``X`` has no 2-d shape)."""
    if isinstance(X, BinnedData):
        return int(X.n_samples) * int(X.n_features)
    shape = getattr(X, "shape", None)
    if shape is None:  # a list of rows
        try:
            shape = (len(X), len(X[0]))
        except (TypeError, IndexError, KeyError):
            return None
    if len(shape) != 2:
        return None
    return int(shape[0]) * int(shape[1])


def current_threads() -> int:
    """Threads the compiled kernels use now: the innermost :func:`_kernel_threads`
    block of this thread, else :func:`_default_threads`."""
    n = getattr(_THREADS, "n", None)
    return _default_threads() if n is None else n


def _n_threads(n_jobs: int | None, work: int | None = None) -> int:
    """Thread count for ``n_jobs``. An integer is explicit (-1: every core, -2: all but
    one, ...). None chooses: the innermost enclosing :func:`_kernel_threads` block's
    count if there is one (an ensemble's setting reaches its weak learners), else
    :func:`auto_threads` of ``work`` (rows x features of the data to fit)."""
    max_threads = _max_threads()
    if n_jobs is None:
        n = getattr(_THREADS, "n", None)
        return auto_threads(work) if n is None else n
    if n_jobs < 0:
        n = max_threads + 1 + n_jobs
    else:
        n = n_jobs
    return int(min(max(n, 1), max_threads))


@contextmanager
def _kernel_threads(n_jobs: int | None, work: int | None = None) -> Iterator[int]:
    """Set the compiled kernels' thread count (of this Python thread) for a block:
    ``_n_threads(n_jobs, work)``, which the blocks and learners inside inherit when
    their own ``n_jobs`` is None."""
    n = _n_threads(n_jobs, work)
    old = getattr(_THREADS, "n", None)
    _THREADS.n = n
    try:
        yield n
    finally:
        _THREADS.n = old


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
    min_category_count : int, default=1
        A category of a categorical feature with fewer rows than this (among the rows
        the thresholds are placed on) shares one bin, "other", with the other such
        categories; so does a category with no row. Whatever this value, a feature
        with more categories than :data:`MAX_CATEGORY_BINS` bins keeps the most
        frequent ones (ties: the lower code) and groups the rest in "other".

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
    category_bins_ : list of (ndarray of float64 or None), or None
        For each categorical feature whose categories do not each have a bin, the bin
        of each category code (None for the other features: code ``c`` is bin ``c``);
        None when no feature's categories are grouped.
    """

    #: of a mapper saved before the parameter existed (it did not group categories)
    min_category_count = 1

    def __init__(
        self, max_bins: int = 255, subsample: int | None = 200_000, random_state: Any = 0,
        min_category_count: int = 1,
    ) -> None:
        self.max_bins = max_bins
        self.subsample = subsample
        self.random_state = random_state
        self.min_category_count = min_category_count

    def __getstate__(self):
        state = dict(super().__getstate__())  # a copy: object.__getstate__ may return __dict__
        if "_thr_flat" in state and "_thr_off" in state:
            # the same edges as _thr_flat, one array per feature: rebuilt on load (a model
            # file would hold them twice, and one archive entry per feature)
            state.pop("thresholds_", None)
        return state

    def __setstate__(self, state):
        super().__setstate__(state)
        if "thresholds_" not in self.__dict__ and "_thr_flat" in self.__dict__:
            off = self._thr_off.tolist()
            self.thresholds_ = [self._thr_flat[a:b].copy()
                                for a, b in zip(off[:-1], off[1:], strict=True)]

    def fit(self, X: Any, y: Any = None, *, rows: np.ndarray | None = None,
            n_categories: np.ndarray | None = None) -> BinMapper:
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
        n_categories : array of int of shape (n_features,), optional
            Number of categories of each categorical feature (0 for the others).
            A categorical feature's values are category codes ``0 .. k - 1`` (or
            NaN); each category gets its own bin, except the rare ones (see
            ``min_category_count``), and the trees split it into sets of bins
            rather than at a threshold.

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
        n_cat = np.zeros(X.shape[1], dtype=np.int32) if n_categories is None else (
            np.asarray(n_categories, dtype=np.int32))
        if n_cat.shape != (X.shape[1],):
            raise ValueError(f"n_categories must have one entry per feature ({X.shape[1]}), "
                             f"got shape {n_cat.shape}")
        min_count = self.min_category_count
        if isinstance(min_count, bool) or not isinstance(min_count, numbers.Integral) \
                or min_count < 1:
            raise ValueError(f"min_category_count must be an integer >= 1, got {min_count!r}")
        self.n_categories_ = n_cat
        self._categorical = np.flatnonzero(n_cat).astype(np.int32)
        self._check_codes(X)
        n_rows = X.shape[0] if rows is None else len(rows)
        if self.subsample is not None and n_rows > self.subsample:
            rng = check_random_state(self.random_state)
            pick = np.sort(rng.choice(n_rows, self.subsample, replace=False))
            rows = pick if rows is None else np.asarray(rows)[pick]
        Xs = X if rows is None else X[rows]
        thresholds = []
        category_bins: list[np.ndarray | None] = []
        for f in range(X.shape[1]):
            if n_cat[f]:  # a bin per category (code c: bin c) unless rare ones are grouped
                lut = category_bins_of(Xs[:, f], int(n_cat[f]), int(min_count))
                category_bins.append(lut)
                n_b = n_cat[f] if lut is None else int(lut.max()) + 1
                thresholds.append(np.arange(max(n_b - 1, 0), dtype=np.float64) + 0.5)
                continue
            category_bins.append(None)
            col = np.array(Xs[:, f], dtype=np.float64)
            col = col[~np.isnan(col)]
            col.sort()
            thresholds.append(_feature_thresholds(col, int(self.max_bins)))
        self.thresholds_ = thresholds
        self.category_bins_ = (category_bins if any(lut is not None for lut in category_bins)
                               else None)
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
        self._check_codes(X)
        X = self.category_bins(X)
        codes = np.empty(X.shape, dtype=np.uint8, order="F")
        _binning.bin_matrix(X, self._thr_flat, self._thr_off, self.missing_bin_, codes.T,
                      current_threads())
        return BinnedData(codes, self, names)

    def fit_transform(self, X: Any, y: Any = None, *,
                      n_categories: np.ndarray | None = None) -> BinnedData:
        """Fit the thresholds on ``X`` and bin it."""
        return self.fit(X, n_categories=n_categories).transform(X)

    @property
    def categorical_features_(self) -> np.ndarray:
        """Indices (int32) of the categorical features."""
        known = getattr(self, "_categorical", None)  # absent in mappers saved before it existed
        return np.flatnonzero(self._n_categories()).astype(np.int32) if known is None else known

    def category_bins(self, X: np.ndarray) -> np.ndarray:
        """``X`` (checked category codes) with each grouped categorical feature's codes
        replaced by their bins (``category_bins_``); ``X`` itself when none is grouped."""
        luts = getattr(self, "category_bins_", None)  # absent in mappers saved before it
        if luts is None:
            return X
        X = np.array(X, dtype=np.float64, order="F")
        for f, lut in enumerate(luts):
            if lut is not None:
                col = X[:, f]
                present = ~np.isnan(col)
                col[present] = lut[col[present].astype(np.intp)]
        return X

    def _n_categories(self) -> np.ndarray:
        n_cat = getattr(self, "n_categories_", None)  # absent in mappers saved before it existed
        return np.zeros(self.n_features_in_, dtype=np.int32) if n_cat is None else n_cat

    def _check_codes(self, X: np.ndarray) -> None:
        """ValueError unless every categorical column holds category codes (or NaN)."""
        n_cat = self._n_categories()
        for f in np.flatnonzero(n_cat):
            col = X[:, f]
            with np.errstate(invalid="ignore"):
                bad = ~(np.isnan(col) | ((col >= 0) & (col < n_cat[f]) & (col == np.floor(col))))
            if bad.any():
                i = int(np.flatnonzero(bad)[0])
                raise ValueError(
                    f"feature {f} is categorical with {n_cat[f]} categories but row {i} holds "
                    f"{col[i]!r}, which is not a category code 0..{n_cat[f] - 1}"
                )

    def node_thresholds(self, feature: np.ndarray, split_bin: np.ndarray) -> np.ndarray:
        """Raw thresholds of a tree's splits "code <= split_bin[j]" on ``feature[j]`` (int32
        arrays, one entry per node): ``inf`` for a feature's last bin, NaN for a leaf
        (``feature < 0``) and for a categorical feature, whose splits are sets of
        categories."""
        out = np.empty(len(feature))
        _partition.node_thresholds(np.ascontiguousarray(feature, dtype=np.int32),
                           np.ascontiguousarray(split_bin, dtype=np.int32), self._thr_off,
                           self._thr_flat, self._n_categories(), out)
        return out

    def same_bins(self, other: BinMapper) -> bool:
        """Whether ``other`` bins data exactly like this mapper."""
        if other is self:
            return True
        return (
            getattr(other, "n_features_in_", None) == self.n_features_in_
            and other.missing_bin_ == self.missing_bin_
            and np.array_equal(other._thr_off, self._thr_off)
            and np.array_equal(other._thr_flat, self._thr_flat)
            and np.array_equal(other._n_categories(), self._n_categories())
            and _same_luts(getattr(other, "category_bins_", None),
                           getattr(self, "category_bins_", None))
        )


#: the most bins a categorical feature gets (the codes are uint8; the missing bin is last)
MAX_CATEGORY_BINS = 255


def category_bins_of(codes: np.ndarray, n_categories: int, min_count: int) -> np.ndarray | None:
    """The bin of each category code of one feature (float64), or None: code ``c`` is bin ``c``.

    The categories with at least ``min_count`` of the ``codes`` (NaN: missing) keep a bin
    each, in code order, at most ``MAX_CATEGORY_BINS - 1`` of them when some are grouped
    (the most frequent; ties: the lower code); every other category (rare, or absent from
    ``codes``) goes to the last bin, "other".
    """
    present = codes[~np.isnan(codes)].astype(np.intp)
    counts = np.bincount(present, minlength=n_categories)
    keep = counts >= min_count
    if keep.all() and n_categories <= MAX_CATEGORY_BINS:
        return None
    if np.count_nonzero(keep) > MAX_CATEGORY_BINS - 1:
        order = np.argsort(-counts, kind="stable")  # most frequent first, ties by code
        keep = np.zeros(n_categories, dtype=bool)
        keep[order[:MAX_CATEGORY_BINS - 1]] = True
    n_kept = int(np.count_nonzero(keep))
    lut = np.full(n_categories, float(n_kept))
    lut[keep] = np.arange(n_kept, dtype=np.float64)
    return lut


def _same_luts(a, b) -> bool:
    if a is None or b is None:
        return a is None and b is None
    if len(a) != len(b):
        return False
    return all((x is None and y is None) or (x is not None and y is not None
                                             and np.array_equal(x, y))
               for x, y in zip(a, b, strict=True))
