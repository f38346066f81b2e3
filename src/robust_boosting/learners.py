"""Weak-learner wrappers: how a boosting step's learner is built from a user's regressor.

:class:`PerClassRegressor` is the learner of a multiclass Newton round
(:class:`~robust_boosting.steps.LogitStep` with ``multiclass_trees="per_class"``):
``K`` copies of one regressor, one per class. (Until release 0.1.0 it lived in
:mod:`robust_boosting.steps`, which still exports it under that name.)
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted

from ._boosting import unfitted_copy
from .trees.batched import fit_trees_batched

__all__ = ["PerClassRegressor"]


class PerClassRegressor(BaseEstimator):
    """One copy of a regressor per column of a ``(n, K)`` response: a multiclass Newton round.

    :class:`~robust_boosting.steps.LogitStep` fits its ``K`` per-class regressors through this one
    learner: ``fit(X, Z, sample_weight=W)`` fits copy ``k`` of ``estimator`` on
    ``(X, Z[:, k], W[:, k])`` and ``predict`` stacks their predictions. The
    batched trainer (:mod:`robust_boosting._batched`) grows the ``K`` trees
    together with the other models' (:meth:`split_fit`).

    Parameters
    ----------
    estimator : regressor
        The per-class weak learner (unfitted, accepting ``sample_weight``).

    Attributes
    ----------
    estimators_ : list of K fitted regressors
    """

    def __init__(self, estimator=None):
        self.estimator = estimator

    def split_fit(self, X, Y, sample_weight) -> list[tuple]:
        """Make the ``K`` unfitted copies and return their ``(learner, X, y_k, w_k)`` fits."""
        Y = np.asarray(Y, dtype=np.float64)
        W = np.asarray(sample_weight, dtype=np.float64)
        if Y.ndim != 2 or W.shape != Y.shape:
            raise ValueError(
                f"PerClassRegressor needs a 2-d response and sample weights of its shape, got "
                f"{Y.shape} and {W.shape}.")
        self.estimators_ = [unfitted_copy(self.estimator) for _ in range(Y.shape[1])]
        self.n_outputs_ = Y.shape[1]
        return [(est, X, np.ascontiguousarray(Y[:, k]), np.ascontiguousarray(W[:, k]))
                for k, est in enumerate(self.estimators_)]

    def fit(self, X, Y, sample_weight=None):
        """Fit one copy of ``estimator`` per column of ``Y`` (weights: the same column of
        ``sample_weight``, shape ``(n, K)``)."""
        if sample_weight is None:
            sample_weight = np.ones(np.shape(Y))
        fits = self.split_fit(X, Y, sample_weight)
        # histogram trees on binned rows: the K trees grow in one compiled call
        # (the same trees as K separate fits)
        fit_trees_batched([f[0] for f in fits], X, [f[2] for f in fits], [f[3] for f in fits],
                          n_jobs=getattr(self.estimator, "n_jobs", 1))
        return self

    def predict(self, X) -> np.ndarray:
        """The copies' predictions, shape ``(n, K)``."""
        check_is_fitted(self, "estimators_")
        # stacked class-major: each copy's output is one contiguous column of the result
        return np.array([np.asarray(est.predict(X), dtype=np.float64).ravel()
                         for est in self.estimators_]).T

    @property
    def bin_mapper_(self):
        """The bin mapper the copies share (histogram trees fitted on the same binned data)."""
        mappers = {id(getattr(est, "bin_mapper_", None)) for est in self.estimators_}
        return getattr(self.estimators_[0], "bin_mapper_", None) if len(mappers) == 1 else None

    @property
    def feature_importances_(self) -> np.ndarray:
        """Mean of the copies' ``feature_importances_``."""
        return np.mean([est.feature_importances_ for est in self.estimators_], axis=0)
