"""One symmetric tree for the ``K`` outputs of a multiclass Newton round (:class:`SharedSymmetricTree`)."""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted

from .._validation import all_finite
from . import _shared_growing, growing
from .binning import BinnedData, _kernel_threads, data_work


class SharedSymmetricTree(BaseEstimator):
    """A symmetric (oblivious) regression tree with one value per output in each leaf.

    The multiclass trees of CatBoost (Prokhorenkova et al. 2018; Dorogush et al.
    2018): where :class:`~robust_boosting.learners.PerClassRegressor` grows ``K``
    trees per multiclass Newton round, one per class, this grows one tree whose
    splits serve every class. ``fit(X, Y, sample_weight=W)`` takes the round's
    working response ``Y`` and weights ``W``, both of shape ``(n, K)`` (class
    ``k``'s Newton response and Hessian weights); with ``G_k``, ``H_k`` a node's
    sums of ``W[:, k] Y[:, k]`` and ``W[:, k]``, each level splits every node at the
    one ``(feature, bin)`` that maximises the sum over the nodes and classes of the
    children's ``G_k^2 / (H_k + λ_k)``, and leaf ``j`` predicts ``G_k / (H_k +
    λ_k)`` for each class (0 for a leaf without training rows). ``λ_k`` is
    ``l2_regularization`` rows of class ``k``'s mean weight, as in
    :class:`~robust_boosting.trees.HistTreeRegressor`, whose settings this reads from
    ``estimator``.

    Every node of a level is split (a node the split leaves whole keeps its rows in
    one child, the other is an empty leaf); only splits that divide at least one node
    with a higher summed score than none are candidates, and growth stops at
    ``max_depth`` levels or at a level without one. Each node sends missing values to
    its better side (the heavier child when it had none). With ``random_strength``,
    each candidate's sum gets that many standard deviations of the level's sums
    times a standard normal value hashed from the estimator's ``random_state``, the
    level, the feature and the bin (CatBoost's random split scores), so the tree does
    not depend on the number of threads.

    Parameters
    ----------
    estimator : HistTreeRegressor
        Unfitted; its ``max_depth``, ``l2_regularization``, ``random_strength``,
        ``max_bins``, ``n_jobs`` and ``random_state`` are used. It must have
        ``grow_policy="symmetric"``, ``min_samples_leaf=1`` and
        ``min_weight_fraction_leaf=0`` (CatBoost's symmetric trees have no leaf
        limits either).

    Attributes
    ----------
    bin_mapper_ : BinMapper
    n_outputs_ : int
    n_features_in_ : int
    feature_ : ndarray of int32, shape (levels,)
        Each level's split feature.
    threshold_bin_ : ndarray of int32, shape (levels,)
        A row goes left at a level iff its bin code is at most this (missing values:
        ``missing_go_left_``).
    missing_go_left_ : ndarray of uint8, shape (levels, 2**(levels - 1))
        Per level and node (numbered as the leaves below), where missing values go.
    gain_ : ndarray of float64, shape (levels,)
        Each level's increase of the summed score.
    value_ : ndarray of float64, shape (2**levels, n_outputs)
        The leaves' values; leaf ``j`` is the binary number of its path (1 = right,
        first level first).
    weighted_n_leaf_samples_ : ndarray of float64, shape (2**levels, n_outputs)
        Each leaf's sum of each output's weights ``H_k`` (the covers of its
        contributions, ``predict(X, pred_contrib=True)`` of a booster).
    """

    def __init__(self, estimator=None):
        self.estimator = estimator

    def _check_estimator(self):
        from .estimators import HistTreeRegressor

        est = self.estimator
        if not isinstance(est, HistTreeRegressor):
            raise TypeError("SharedSymmetricTree needs a HistTreeRegressor as its estimator, "
                            f"got {type(est).__name__}.")
        est._validate_params()
        if est.grow_policy != "symmetric":
            raise ValueError("shared multiclass trees are symmetric: the estimator needs "
                             f"grow_policy='symmetric', got {est.grow_policy!r}.")
        if est.min_samples_leaf != 1 or est.min_weight_fraction_leaf != 0:
            raise ValueError(
                "shared multiclass trees have no leaf limits: the estimator needs "
                f"min_samples_leaf=1 and min_weight_fraction_leaf=0, got "
                f"{est.min_samples_leaf!r} and {est.min_weight_fraction_leaf!r}.")
        return est

    def fit(self, X: Any, Y: Any, sample_weight: Any = None) -> SharedSymmetricTree:
        """Fit the tree.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or BinnedData
            Numeric data (NaN = missing), or data binned by the estimator's
            ``prepare_data``.
        Y : array-like of shape (n_samples, n_outputs)
            The response of each output.
        sample_weight : array-like of shape (n_samples, n_outputs), default=None
            Non-negative weights of each output (None: 1); a row whose weights are
            all 0 is ignored.

        Returns
        -------
        self
        """
        est = self._check_estimator()
        if not isinstance(X, BinnedData):
            X = est.prepare_data(np.asarray(X, dtype=np.float64))
        mapper = X.mapper
        if mapper.categorical_features_.size:
            raise ValueError(
                "shared multiclass trees split numeric features only; the data have "
                f"categorical features {mapper.categorical_features_.tolist()} (by position).")
        Y = np.asarray(Y, dtype=np.float64)
        W = np.ones_like(Y) if sample_weight is None else np.asarray(sample_weight,
                                                                     dtype=np.float64)
        if Y.ndim != 2 or W.shape != Y.shape or Y.shape[0] != X.n_samples:
            raise ValueError(
                "SharedSymmetricTree needs a 2-d response with one row per sample and "
                f"weights of its shape, got {Y.shape} and {W.shape} for {X.n_samples} rows.")
        if not (all_finite(Y) and all_finite(W)):
            raise ValueError("the response and the weights must be finite")
        if W.size and W.min() < 0:
            raise ValueError("sample_weight must be non-negative")
        k = Y.shape[1]
        idx = np.flatnonzero(W.sum(axis=1) > 0).astype(np.int32)
        if idx.size == 0:
            raise ValueError("sample_weight is zero for every sample; no sample weight to fit")
        gh = np.empty((idx.size, 2 * k))
        with np.errstate(over="ignore", invalid="ignore"):  # refused just below
            np.multiply(W[idx], Y[idx], out=gh[:, :k])
        gh[:, k:] = W[idx]
        if not all_finite(gh):
            raise ValueError("sample_weight times the response overflows (not finite); "
                             "rescale the weights or the response")
        lam = est.l2_regularization * gh[:, k:].sum(axis=0) / idx.size
        depth = int(est.max_depth)
        feature = np.full(depth, -1, dtype=np.int32)
        split_bin = np.full(depth, -1, dtype=np.int32)
        missing_left = np.zeros((depth, max(1, 2 ** (depth - 1))), dtype=np.uint8)
        gain = np.zeros(depth)
        starts = np.zeros(2**depth + 1, dtype=np.int64)
        leaf_sums = np.zeros((2**depth, 2 * k))
        with _kernel_threads(est.n_jobs, data_work(X)) as n_threads:
            # a level's scan on n_threads threads only when its work (a unit per row,
            # feature and class) is the depth-wise growers' parallel minimum: below it,
            # each level's thread team cost more than it saved (design record 0045)
            if idx.size * X.n_features * k < growing._PARALLEL_MIN_WORK:
                n_threads = 1
            levels = _shared_growing.grow_shared_symmetric(
                X.codes_t, idx, gh, lam, mapper.n_bins_, mapper.missing_bin_, depth,
                float(est.random_strength), est._split_noise_seed(), n_threads, feature, split_bin,
                missing_left, gain, starts, leaf_sums)
        self.bin_mapper_ = mapper
        self.n_features_in_ = X.n_features
        self.n_outputs_ = k
        self.feature_ = feature[:levels]
        self.threshold_bin_ = split_bin[:levels]
        self.missing_go_left_ = missing_left[:levels, : max(1, 2 ** (levels - 1))].copy()
        self.gain_ = gain[:levels]
        sums = leaf_sums[: 2**levels]
        den = sums[:, k:] + lam
        self.value_ = np.divide(sums[:, :k], den, out=np.zeros((2**levels, k)), where=den > 0)
        self.weighted_n_leaf_samples_ = sums[:, k:].copy()
        return self

    def apply(self, X: Any) -> np.ndarray:
        """The leaf of each row (int64, shape ``(n_samples,)``)."""
        check_is_fitted(self, "value_")
        if isinstance(X, BinnedData):
            if not self.bin_mapper_.same_bins(X.mapper):
                raise ValueError("BinnedData was binned with different thresholds than the "
                                 "data the tree was fitted on; pass raw X instead")
        else:
            X = np.asarray(X, dtype=np.float64)
            if X.ndim != 2 or X.shape[1] != self.n_features_in_:
                raise ValueError(f"X has shape {X.shape}, but SharedSymmetricTree is "
                                 f"expecting {self.n_features_in_} features as input")
            X = self.bin_mapper_.transform(X)
        codes = X.codes_t
        missing = self.bin_mapper_.missing_bin_
        leaf = np.zeros(X.n_samples, dtype=np.int64)
        for d, (f, b) in enumerate(zip(self.feature_, self.threshold_bin_, strict=True)):
            c = codes[f]
            right = c > b
            nan = c == missing
            if nan.any():
                right[nan] = self.missing_go_left_[d][leaf[nan]] == 0
            leaf = 2 * leaf + right
        return leaf

    def predict(self, X: Any) -> np.ndarray:
        """The leaves' values, shape ``(n_samples, n_outputs)``."""
        return self.value_[self.apply(X)]

    @property
    def feature_importances_(self) -> np.ndarray:
        """Normalised total gain of each feature's levels."""
        check_is_fitted(self, "value_")
        imp = np.bincount(self.feature_, weights=self.gain_, minlength=self.n_features_in_)
        total = imp.sum()
        return imp / total if total > 0 else imp
