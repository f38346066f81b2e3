"""Readings of SavageBoost's re-weighting rule, for the sensitivity study of Table 4.

Masnadi-Shirazi & Vasconcelos (2008), Algorithm 1, prints the weight update
``w <- w exp(+y G(x))``. The library's :class:`~robust_boosting.SavageBoostClassifier`
uses the Savage loss's gradient weights instead (its docstring gives the
derivation). This module holds the two other readings, so that the experiment
runner can compare all three on the same splits:

- ``update="literal"``: the printed rule, ``w <- w exp(+y G)``: it *raises* the
  weight of the samples the round classifies correctly;
- ``update="reversed"``: the sign-reversed rule ``w <- w exp(-y G)``, which is
  RealBoost's update (Friedman, Hastie & Tibshirani 2000) with SavageBoost's clipping.

Both fit ``G = ½ log(p / (1 - p))`` per region with ``p = P_w(y = +1 | x)`` from a
class-probability weak learner (clipped to ``[clip, 1 - clip]``, as the library's
SavageBoost does) and add ``learning_rate * G`` to ``F``. These estimators are for
the experiments only (binary labels, no staged predictions).
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.utils.validation import check_is_fitted, validate_data

__all__ = ["SavageBoostReading"]


class SavageBoostReading(ClassifierMixin, BaseEstimator):
    """SavageBoost with the weight update of Algorithm 1 read literally or sign-reversed.

    Parameters
    ----------
    estimator : classifier with predict_proba, default=None
        Weak learner accepting ``sample_weight``; a histogram stump if None.
    n_estimators : int, default=50
    learning_rate : float, default=1.0
        Shrinks each round's ``G`` (in ``F`` and in the weight update).
    clip : float in (0, 0.5), default=0.05
    update : {"literal", "reversed"}, default="literal"
        ``w <- w exp(+y G)`` (as printed) or ``w <- w exp(-y G)``.
    random_state : int or None, default=None
        Passed to the weak learner if it has a ``random_state``.
    """

    def __init__(self, estimator=None, n_estimators: int = 50, learning_rate: float = 1.0,
                 clip: float = 0.05, update: str = "literal", random_state=None):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.learning_rate = learning_rate
        self.clip = clip
        self.update = update
        self.random_state = random_state

    def _default_estimator(self):
        from ..trees import HistTreeClassifier

        return HistTreeClassifier(max_depth=1)

    def _g(self, tree, X):
        p = tree.predict_proba(X)[:, list(tree.classes_).index(1)]
        p = np.clip(p, self.clip, 1 - self.clip)
        return self.learning_rate * 0.5 * np.log(p / (1 - p))

    def fit(self, X, y):
        """Fit ``n_estimators`` rounds on binary labels."""
        if self.update not in ("literal", "reversed"):
            raise ValueError(f"update must be 'literal' or 'reversed', got {self.update!r}")
        if not 0 < self.clip < 0.5:
            raise ValueError(f"clip must be in (0, 0.5), got {self.clip!r}")
        X, y = validate_data(self, X, y)
        self.classes_, yi = np.unique(y, return_inverse=True)
        if len(self.classes_) != 2:
            raise ValueError(f"SavageBoostReading is binary, got {len(self.classes_)} classes")
        ys = np.where(yi == 1, 1, -1)
        sign = 1.0 if self.update == "literal" else -1.0
        base = self._default_estimator() if self.estimator is None else self.estimator
        w = np.full(len(ys), 1.0 / len(ys))
        self.estimators_ = []
        for _ in range(int(self.n_estimators)):
            tree = clone(base)
            if "random_state" in tree.get_params():
                tree.set_params(random_state=self.random_state)
            tree.fit(X, ys, sample_weight=w)
            if len(tree.classes_) < 2:
                break
            self.estimators_.append(tree)
            w = w * np.exp(np.clip(sign * ys * self._g(tree, X), -700, 700))
            total = w.sum()
            if not np.isfinite(total) or total <= 0:
                break
            w /= total
        self.n_estimators_ = len(self.estimators_)
        return self

    def decision_function(self, X):
        """``F(x) = sum_t learning_rate * G_t(x)``."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        F = np.zeros(len(X))
        for tree in self.estimators_:
            F += self._g(tree, X)
        return F

    def predict(self, X):
        """The class of the sign of ``F``."""
        return self.classes_[(self.decision_function(X) >= 0).astype(int)]
