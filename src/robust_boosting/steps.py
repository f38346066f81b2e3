"""Boosting steps: how one round turns sample weights into a weak learner and its coefficient.

Each step is one of the independent parts the estimators are composed of
(see :mod:`robust_boosting._boosting`).
"""

from __future__ import annotations

import numpy as np

from ._boosting import ERROR_FLOOR, BoostingState, RoundResult, Step
from .losses import ExponentialLoss

__all__ = ["DiscreteStep"]


def _class_output(pred, n_classes: int) -> np.ndarray:
    """Learner votes as the raw output: ``{-1, +1}`` for two classes, one-hot for more."""
    pred = np.asarray(pred).astype(np.intp, copy=False)
    if n_classes == 2:
        return 2.0 * pred - 1.0
    out = np.zeros((pred.shape[0], n_classes))
    out[np.arange(pred.shape[0]), pred] = 1.0
    return out


class DiscreteStep(Step):
    """Discrete AdaBoost's step, SAMME for more than two classes.

    The weak learner is a classifier fitted on the class indices with the
    normalised weights ``w``; with ``err = sum_{miss} w_i`` its coefficient is
    ``alpha = learning_rate * (log((1 - err) / err) + log(K - 1)) / 2``
    (SPLBoost paper eq. (11) for ``K = 2``; Zhu et al. 2009, SAMME, for
    ``K > 2``; half of scikit-learn's ``estimator_weight``, so that the binary
    score is ``F = sum alpha_t f_t`` with ``f_t in {-1, +1}``). This ``alpha``
    minimises ``sum_i w_i exp(-alpha y_i f(x_i))``.

    A learner with ``err >= 1 - 1/K`` is rejected and the loop stops; a
    perfect learner (``err < 1e-10``) is kept with ``err`` floored at ``1e-10``
    (``alpha ~ 11.5``) and the loop stops.
    """

    native_multiclass = True

    def __init__(self, loss=None, learning_rate: float = 1.0):
        super().__init__(ExponentialLoss() if loss is None else loss)
        self.learning_rate = learning_rate

    def fit_round(self, learner, state: BoostingState, weights) -> RoundResult:
        n_classes = state.n_classes
        learner.fit(state.X, state.y_idx, sample_weight=weights)
        pred = np.asarray(learner.predict(state.X)).astype(np.intp, copy=False)
        err = float(weights[pred != state.y_idx].sum())
        chance = 1.0 - 1.0 / n_classes
        if err >= chance - ERROR_FLOOR:  # within rounding of chance counts as chance
            return RoundResult(
                learner,
                None,
                0.0,
                err,
                stop=(
                    f"the weak learner of round {state.round + 1} is no better than chance "
                    f"(weighted error {err:.4g} >= {chance:.4g}); it was discarded"
                ),
                keep=False,
            )
        stop = None
        if err < ERROR_FLOOR:
            stop = f"perfect weak learner at round {state.round + 1} (weighted training error 0)"
        e = max(err, ERROR_FLOOR)
        alpha = self.learning_rate * 0.5 * (np.log((1.0 - e) / e) + np.log(n_classes - 1.0))
        return RoundResult(learner, _class_output(pred, n_classes), alpha, err, stop=stop)

    def output(self, estimator, X, n_classes: int) -> np.ndarray:
        return _class_output(estimator.predict(X), n_classes)
