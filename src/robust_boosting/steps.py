"""Boosting steps: how one round turns sample weights into a weak learner and its coefficient.

Each step is one of the independent parts the estimators are composed of
(see :mod:`robust_boosting._boosting`).
"""

from __future__ import annotations

import numpy as np

from ._boosting import ERROR_FLOOR, BoostingState, RoundResult, Step
from ._loop_kernels import (
    fdot,
    logistic_hessians,
    margin_round_stats,
    newton_round_stats,
    softmax_newton,
    weighted_miss,
)
from .learners import PerClassRegressor
from .losses import (
    MAX_EXPONENT,
    ExponentialLoss,
    LogisticLoss,
    MarginLoss,
    softmax_loss,
    softmax_rows,
)
from .trees.shared import SharedSymmetricTree

__all__ = [
    "DiscreteStep",
    "RealStep",
    "GentleStep",
    "LogitStep",
    "RegressionStep",
    "REGRESSION_LOSSES",
    "class_output",
    "robust_scale",
    "weighted_median",
]

#: names that moved to other modules after release 0.1.0, resolved on access (PEP 562) so
#: that code, pickles and model files naming ``robust_boosting.steps.<name>`` still load;
#: RobustBoost's step lives with RobustBoost (which imports this module: a plain import
#: here would be a circle); PerClassRegressor, now in :mod:`robust_boosting.learners`, is
#: imported above under its old name
_MOVED = {"RobustBoostStep": "robust", "RobustBoostState": "robust", "robustboost_rho": "robust"}


def __getattr__(name: str):
    if name in _MOVED:
        import importlib

        return getattr(importlib.import_module(f"robust_boosting.{_MOVED[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: a real-valued round whose weighted edge ``sum_i w_i r_i h_i`` is below this makes no progress
EDGE_FLOOR = 1e-12
#: a multiclass round's per-sample kernels use the learner's threads from this many scores on
_THREADED_ROUND_WORK = 40_000


def class_output(pred, n_classes: int) -> np.ndarray:
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

    A learner with ``err >= 1 - 1/K`` is rejected and the loop stops.

    A learner that looks perfect (``err < 1e-10``) is checked against every
    sample with positive ``sample_weight`` (its error ``err_all`` weighted by
    ``sample_weight`` alone, without the boosting weights and the self-paced
    ``v``). This is the *no-collapse rule*:

    * ``err_all < 1e-10``: the learner is genuinely perfect; it is kept with
      ``err`` floored at ``1e-10`` (``alpha ~ 11.5``: it decides every
      prediction, which is what a perfect classifier should do) and the loop
      stops;
    * otherwise the learner is perfect only on the samples with
      non-negligible weight (self-paced weight ``v > 0``, or exponential
      weights that underflowed). Its coefficient is bounded by what the data
      supports: ``alpha`` computed from ``err_all`` (if ``err_all`` is below
      chance; else the learner is discarded), and the loop stops, because the
      next round would see the same weights up to a common factor and refit
      the same learner, unless the weighting policy lets more samples in
      (``RoundResult.separable``; SPLBoost's growing age,
      :meth:`~robust_boosting.self_paced.SelfPacedPolicy.admit_more`).
    """

    native_multiclass = True

    def __init__(self, loss=None, learning_rate: float = 1.0):
        super().__init__(ExponentialLoss() if loss is None else loss)
        self.learning_rate = learning_rate

    def fit_target(self, state: BoostingState) -> np.ndarray:
        return state.y_idx

    def finish_round(self, learner, state: BoostingState, weights, target) -> RoundResult:
        pred = np.asarray(learner.predict(state.X)).astype(np.intp, copy=False)
        return self.score_round(learner, pred, state, weights)

    def score_round(self, learner, pred, state: BoostingState, weights) -> RoundResult:
        """Error, coefficient and stopping rule of a fitted learner with class predictions ``pred``.

        ``weights`` are the normalised weights the error is measured on.
        """
        n_classes = state.n_classes
        err = float(weighted_miss(weights, pred, state.y_idx))
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
        stop, separable = None, False
        if err < ERROR_FLOOR:
            err_all = float(weighted_miss(state.sample_weight, pred, state.y_idx))
            if err_all < ERROR_FLOOR:
                stop = f"perfect weak learner at round {state.round + 1} (weighted training error 0)"
            elif err_all >= chance - ERROR_FLOOR:
                return RoundResult(
                    learner, None, 0.0, err, keep=False, separable=True,
                    stop=(
                        f"the weak learner of round {state.round + 1} is perfect only on the "
                        f"samples with non-negligible weight and no better than chance on all "
                        f"samples (error {err_all:.4g}); it was discarded"
                    ),
                )
            else:
                stop = (
                    f"the weak learner of round {state.round + 1} is perfect only on the samples "
                    f"with non-negligible weight (error {err_all:.4g} on all samples); it was "
                    "kept with the coefficient that error supports and boosting stopped"
                )
                err, separable = err_all, True
        e = max(err, ERROR_FLOOR)
        alpha = self.learning_rate * 0.5 * (np.log((1.0 - e) / e) + np.log(n_classes - 1.0))
        return RoundResult(learner, class_output(pred, n_classes), alpha, err, stop=stop,
                           separable=separable)

    def output(self, estimator, X, n_classes: int) -> np.ndarray:
        return class_output(estimator.predict(X), n_classes)


# ---------------------------------------------------------------------------
# real-valued steps (binary; more classes go through the shared one-vs-rest path)
# ---------------------------------------------------------------------------


class _RealValuedStep(Step):
    """Shared bookkeeping of the steps whose learner outputs a real number per sample.

    A round is *rejected* (the loop stops, the earlier learners are kept) when
    the learner makes no progress: its weighted edge ``sum_i w_i r_i h(x_i)``
    (``r`` the response it was fitted to) is not positive, i.e. it does not
    decrease the loss to first order (for instance a stump on XOR data, whose
    leaves all predict 0). A round whose output classifies every sample of
    positive ``sample_weight`` correctly (``y h > 0``) is kept and ends the
    loop, as a perfect learner does in :class:`DiscreteStep`. A round that is
    perfect only on the samples of positive boosting weight (self-paced
    ``v > 0``, or weights that underflowed) does not end the loop: its output
    is bounded (``|f|`` is clipped by each step), so it cannot dominate the
    ensemble, and the next round's weights differ (the no-collapse rule).
    ``error`` is the weighted fraction of samples with ``y h <= 0``.
    """

    native_multiclass = False

    def __init__(self, loss: MarginLoss, learning_rate: float = 1.0):
        super().__init__(loss)
        self.learning_rate = learning_rate

    def _result(self, learner, state: BoostingState, weights, output, response, coef):
        round_ = state.round + 1
        arrays = (weights, response, output, state.y, state.sample_weight)
        edge, err, missed = margin_round_stats(
            *(np.ascontiguousarray(a, dtype=np.float64) for a in arrays))
        if not edge > EDGE_FLOOR:
            return RoundResult(
                learner, None, 0.0, err, keep=False,
                stop=(
                    f"the weak learner of round {round_} makes no progress (weighted edge "
                    f"{edge:.3g} <= 0: it does not decrease the loss); it was discarded"
                ),
            )
        stop = None
        if not missed:
            stop = f"perfect weak learner at round {round_} (weighted training error 0)"
        return RoundResult(learner, output, coef, err, stop=stop, info={"edge": edge})


def _positive_proba(estimator, X) -> np.ndarray:
    """``P(class index 1 | x)`` from a classifier fitted on class indices ``{0, 1}``."""
    proba = np.asarray(estimator.predict_proba(X), dtype=np.float64)
    classes = np.asarray(estimator.classes_)
    col = np.flatnonzero(classes == 1)
    if col.size == 0:  # the learner saw only class 0
        return np.zeros(proba.shape[0])
    return proba[:, col[0]]


class RealStep(_RealValuedStep):
    """Real AdaBoost's step (Friedman, Hastie & Tibshirani 2000, Algorithm 2), any margin loss.

    The weak learner is a class-probability estimator (``predict_proba``)
    fitted on the normalised weights ``w_i ∝ -phi'(m_i)``; with its weighted
    class probability ``p(x) = P_w(y = +1 | x)``, clipped to
    ``[clip, 1 - clip]``, the round adds

    ``f(x) = ½ log(p(x) / (1 - p(x)))`` (FHT eq. (12); SavageBoost paper eq. (30)),

    times ``learning_rate``. The clipping keeps pure tree leaves (``p = 0`` or
    1) finite: ``|f| <= ½ log((1 - clip) / clip)`` (about 4.6 for the default
    ``clip = 1e-4``).

    * exponential loss: RealBoost (``w ∝ e^{-m}``; ``f`` then minimises
      ``sum_i w_i exp(-y_i f(x_i))`` leaf by leaf).
    * Savage loss: SavageBoost (Masnadi-Shirazi & Vasconcelos 2008, eq. (26); see
      :class:`~robust_boosting.robust.SavageBoostClassifier` for the derivation
      of the weights).
    """

    needs_predict_proba = True

    def __init__(self, loss: MarginLoss | None = None, learning_rate: float = 1.0,
                 clip: float = 1e-4):
        super().__init__(ExponentialLoss() if loss is None else loss, learning_rate)
        self.clip = clip

    def _f(self, estimator, X) -> np.ndarray:
        p = np.clip(_positive_proba(estimator, X), self.clip, 1.0 - self.clip)
        return 0.5 * (np.log(p) - np.log1p(-p))

    def fit_target(self, state: BoostingState) -> np.ndarray:
        return state.y_idx

    def finish_round(self, learner, state: BoostingState, weights, target) -> RoundResult:
        f = self._f(learner, state.X)
        return self._result(learner, state, weights, f, state.y, self.learning_rate)

    def output(self, estimator, X, n_classes: int) -> np.ndarray:
        return self._f(estimator, X)


class GentleStep(_RealValuedStep):
    """Gentle AdaBoost's step (FHT 2000, Algorithm 4): a weighted least-squares fit of ``y``.

    The weak learner is a *regressor* fitted to ``y in {-1, +1}`` with the
    normalised weights ``w_i ∝ -phi'(m_i)``; the round adds its prediction
    ``f(x)`` (an estimate of ``E_w[y | x]``) times ``learning_rate``. For a
    regression tree ``f`` is a weighted mean of ``±1`` in each leaf, so it lies
    in ``[-1, 1]``; other regressors are clipped to ``[-1, 1]``, the range of
    the population step. This is one Newton step on the exponential risk
    ``E[exp(-y (F + f))]`` (FHT Sec. 4.2), hence "Newton"/"gentle" step.

    * exponential loss: GentleBoost.
    * Savage2 loss: our RBoost (a reconstruction of Miao et al. 2016).
    """

    needs_classifier = False

    def __init__(self, loss: MarginLoss | None = None, learning_rate: float = 1.0):
        super().__init__(ExponentialLoss() if loss is None else loss, learning_rate)

    def fit_target(self, state: BoostingState) -> np.ndarray:
        return state.y

    def finish_round(self, learner, state: BoostingState, weights, target) -> RoundResult:
        f = self.output(learner, state.X, 2)
        return self._result(learner, state, weights, f, state.y, self.learning_rate)

    def output(self, estimator, X, n_classes: int) -> np.ndarray:
        return np.clip(np.asarray(estimator.predict(X), dtype=np.float64).ravel(), -1.0, 1.0)


class LogitStep(_RealValuedStep):
    """LogitBoost's Newton step (FHT 2000, Algorithm 3), and its native multiclass form.

    **Two classes.** With ``p = P(y = +1 | x) = 1 / (1 + e^{-2F})`` and ``y* = (y + 1)/2``, the
    working response is ``z = (y* - p) / (p (1 - p))`` and the weights are
    ``p (1 - p)``; a regressor is fitted to ``z`` by weighted least squares and
    the round adds ``½ f`` (times ``learning_rate``). In terms of the margin
    ``m = y F``: ``z = y (1 + e^{-2m})`` and ``p (1 - p) = σ(2m) σ(-2m)``.

    For stability (FHT p. 352) ``|z|`` is clipped at ``z_max`` (Friedman
    suggests 2 to 4; default 4) and the weights are floored at
    ``weight_floor`` (default ``2 × machine epsilon``, FHT's "2 × machine
    zero"); predictions of the regressor are clipped to ``[-z_max, z_max]``.
    These base weights are the Hessian of the logistic loss, not its gradient,
    so :meth:`log_weights` is overridden; the per-sample loss that a
    self-paced policy compares with ``age`` is the logistic loss
    ``log(1 + e^{-2m})``.

    **K > 2 classes** (native, not one-vs-rest): the scores ``F_k`` give
    ``p_k = softmax(F)_k``, and each round fits ``K`` regressors, one per
    class, by Newton's method on the multiclass log-loss ``-log p_y``
    (Friedman 2001, Algorithm 6; FHT 2000, Algorithm 6; the multiclass
    objective of LightGBM and XGBoost): regressor ``k`` is fitted to
    ``z_k = (1[y = k] - p_k) / (p_k (1 - p_k))`` (clipped at ``z_max``) with
    weights ``w_i p_k (1 - p_k)`` (floored at ``weight_floor``), so that its
    leaves are the diagonal Newton steps ``-G/H``, and the round adds
    ``(K - 1)/K × learning_rate × f_k`` to ``F_k`` (Friedman's factor). The
    row weights ``w_i`` are ``sample_weight`` (times a policy's factors); the
    per-sample loss a self-paced policy compares with ``age`` is ``-log p_y``.
    For two classes the binary form above is used.

    ``multiclass_trees="shared"`` fits one
    :class:`~robust_boosting.trees.SharedSymmetricTree` per round instead of the
    ``K`` per-class regressors: a symmetric tree whose splits maximise the Newton
    gain summed over the classes and whose leaves hold each class's step
    ``G_k / (H_k + λ_k)`` (CatBoost's multiclass trees; the weak learner must then be
    a symmetric :class:`~robust_boosting.trees.HistTreeRegressor`).
    """

    needs_classifier = False
    native_multiclass = True

    def __init__(self, learning_rate: float = 1.0, z_max: float = 4.0,
                 weight_floor: float = 2.0 * np.finfo(np.float64).eps,
                 multiclass_trees: str = "per_class"):
        super().__init__(LogisticLoss(), learning_rate)
        self.z_max = z_max
        self.weight_floor = weight_floor
        self.multiclass_trees = multiclass_trees
        self._response = None  # (scores, class-major response) of the round, multiclass

    def log_weights(self, state: BoostingState) -> np.ndarray | None:
        # multiclass: None (the Hessians go into the per-class weights)
        own = self.bounded_weights(state)
        return None if own is None else np.log(own)

    def bounded_weights(self, state: BoostingState) -> np.ndarray | None:
        """Binary: the weights ``max(p (1 - p), weight_floor)`` themselves (in ``(0, ¼]``)."""
        if state.raw.ndim == 2:
            return None
        return logistic_hessians(np.ascontiguousarray(state.margins, dtype=np.float64),
                                 self.weight_floor, np.empty(state.raw.shape[0]))

    def learner_for(self, estimator, n_classes: int):
        if n_classes == 2:
            return estimator
        if self.multiclass_trees == "shared":
            shared = SharedSymmetricTree(estimator)
            shared._check_estimator()  # a wrong weak learner fails before the first round
            return shared
        return PerClassRegressor(estimator)

    def _newton_terms(self, state: BoostingState, weights) -> tuple[np.ndarray, np.ndarray]:
        """Multiclass working response and regressor weights, class-major ``(K, n)``.

        One compiled pass (softmax, Hessians, response, weights); the response is
        kept for :meth:`working_response` at the same scores (the loop asks for the
        weights first), so the softmax is computed once per round.
        """
        raw = np.ascontiguousarray(state.raw, dtype=np.float64)
        n, k = raw.shape
        z, w = np.empty((k, n)), np.empty((k, n))
        args = (raw, np.ascontiguousarray(state.y_idx, dtype=np.int64),
                np.ascontiguousarray(weights, dtype=np.float64), self.z_max,
                self.weight_floor, z, w)
        softmax_newton(*args, state.n_threads if n * k >= _THREADED_ROUND_WORK else 1)
        self._response = (state.raw, z)
        return z, w

    def learner_weights(self, state: BoostingState, weights) -> np.ndarray:
        """Binary: ``weights``; multiclass: ``w_i p_k (1 - p_k)`` (floored), shape ``(n, K)``."""
        if state.raw.ndim == 1:
            return weights
        return self._newton_terms(state, weights)[1].T

    def losses(self, state: BoostingState, raw) -> np.ndarray:
        if raw.ndim == 1:
            return self.sample_loss(state.margins_of(raw))
        return softmax_loss(raw, state.y_idx)

    def class_proba(self, raw) -> np.ndarray:
        if raw.ndim == 1:
            return super().class_proba(raw)
        return softmax_rows(raw)

    def working_response(self, state: BoostingState) -> np.ndarray:
        """Binary: ``z = y (1 + e^{-2m})``; multiclass: ``z_k = (1[y = k] - p_k) / (p_k (1 - p_k))``;
        ``|z|`` clipped at ``z_max``."""
        if state.raw.ndim == 2:
            cached = self._response
            if cached is not None and cached[0] is state.raw:
                return cached[1].T
            return self._newton_terms(state, np.ones(state.raw.shape[0]))[0].T
        e = np.exp(np.minimum(-2.0 * state.margins, MAX_EXPONENT))
        return state.y * np.minimum(1.0 + e, self.z_max)

    def fit_target(self, state: BoostingState) -> np.ndarray:
        return self.working_response(state)

    def finish_round(self, learner, state: BoostingState, weights, target) -> RoundResult:
        if state.raw.ndim == 1:
            f = self.output(learner, state.X, 2)
            return self._result(learner, state, weights, f, target, 0.5 * self.learning_rate)
        k = state.n_classes
        f = self.output(learner, state.X, k)
        # class-major (K, n) views: the per-class fits' own arrays (no copies)
        edge, err = newton_round_stats(
            *(np.ascontiguousarray(a.T, dtype=np.float64) for a in (f, target, weights)),
            np.ascontiguousarray(state.y_idx, dtype=np.int64),
            state.n_threads if f.size >= _THREADED_ROUND_WORK else 1)
        if not edge > EDGE_FLOOR:
            return RoundResult(
                learner, None, 0.0, err, keep=False,
                stop=(f"the weak learners of round {state.round + 1} make no progress (weighted "
                      f"edge {edge:.3g} <= 0: they do not decrease the loss); discarded"),
            )
        return RoundResult(learner, f, (k - 1) / k * self.learning_rate, err,
                           info={"edge": edge})

    def output(self, estimator, X, n_classes: int) -> np.ndarray:
        f = np.asarray(estimator.predict(X), dtype=np.float64)
        if n_classes == 2:
            f = f.ravel()
        return np.clip(f, -self.z_max, self.z_max)


# ---------------------------------------------------------------------------
# real-valued targets (regression)
# ---------------------------------------------------------------------------

#: the losses of :class:`RegressionStep`
REGRESSION_LOSSES = ("squared_error", "huber")
#: a regression round whose edge is below this fraction of ``sum_i w_i g_i**2`` makes no progress
RELATIVE_EDGE_FLOOR = 1e-12
#: 1 / Phi^{-1}(3/4): the median absolute deviation of a normal sample times this is its
#: standard deviation
MAD_TO_SD = 1.482602218505602
#: sqrt(pi / 2): the mean absolute deviation of a normal sample times this is its deviation
MEAN_AD_TO_SD = 1.2533141373155001


def _positive_rows(values, weights) -> tuple[np.ndarray, np.ndarray, bool]:
    """``values`` and ``weights`` (float64) of the rows of positive weight (copies when some
    weight is 0, else the arrays as given), and whether those weights are all equal."""
    values = np.asarray(values, dtype=np.float64)
    weights = np.asarray(weights, dtype=np.float64)
    positive = weights > 0
    if not positive.all():
        values, weights = values[positive], weights[positive]
    return values, weights, weights.shape[0] > 0 and weights.min() == weights.max()


def _median_of_positive(values, weights, equal: bool, owned: bool) -> float:
    """:func:`weighted_median` of rows whose weights are all positive; ``equal``: all the same
    (the lower median, linear time); ``owned``: ``values`` may be reordered in place."""
    if values.shape[0] == 0:
        return 0.0
    if equal:
        k = (values.shape[0] + 1) // 2 - 1  # the first position of half the weight
        if not owned:
            values = values.copy()
        values.partition(k)
        return float(values[k])
    order = np.argsort(values, kind="stable")
    cumulative = np.cumsum(weights[order])
    i = int(np.searchsorted(cumulative, 0.5 * cumulative[-1]))
    return float(values[order[min(i, values.shape[0] - 1)]])


def weighted_median(values, weights) -> float:
    """The smallest value whose cumulative weight (values in increasing order) reaches half
    of the total weight.

    When the positive weights are all equal (no ``sample_weight``, or weights 0 and 1)
    it is the lower median of the rows of positive weight, found in linear time
    (``np.partition``); otherwise the values are sorted (ties in order of the rows).
    """
    return _median_of_positive(*_positive_rows(values, weights), owned=False)


def robust_scale(y, sample_weight) -> float:
    """A robust spread of the targets: ``1.4826 ×`` their weighted median absolute deviation
    from their weighted median (the standard deviation for normal targets, unmoved by a
    minority of wrong ones). When more than half the weight sits on one value (the
    deviation is 0): ``1.2533 ×`` the weighted mean absolute deviation; 1 for constant
    targets."""
    # the two weighted medians of weighted_median, sharing its selection of rows
    return _scale_of_positive(*_positive_rows(y, sample_weight))


def _scale_of_positive(v, w, equal: bool) -> float:
    """:func:`robust_scale` of rows whose weights ``w`` are all positive (``equal``: all the
    same)."""
    if v.shape[0] == 0:
        return 1.0
    dev = np.abs(v - _median_of_positive(v, w, equal, owned=False))
    scale = MAD_TO_SD * _median_of_positive(dev, w, equal, owned=True)
    if not scale > 0:
        scale = MEAN_AD_TO_SD * fdot(w, dev) / float(w.sum())
    return scale if scale > 0 and np.isfinite(scale) else 1.0


class RegressionStep(Step):
    """Gradient boosting's step on a real-valued target: the squared or the Huber loss.

    The scores start at the loss's best constant (:meth:`init_score`: the weighted
    mean of ``y`` for the squared loss, the weighted median for Huber's, as
    scikit-learn's ``GradientBoostingRegressor`` starts). Each round fits the
    regression weak learner by weighted least squares to the negative gradient
    ``g_i`` of the loss at the current score ``F(x_i)``, with the round's weights
    (``sample_weight`` times a policy's factors, e.g. self-paced ``v``), and adds
    ``learning_rate`` times its prediction:

    * ``"squared_error"``, ``L = ½ (y - F)²``: ``g = y - F`` and the Hessian is 1, so a
      tree's leaf value, the weighted mean of ``g`` in the leaf, is the exact Newton
      step ``sum w g / sum w`` (Friedman 2001, LS_Boost);
    * ``"huber"``, ``L = ½ r²`` for ``|r| <= delta`` else ``delta (|r| - delta/2)``
      with ``r = y - F``: ``g = clip(r, -delta, delta)``. Its Hessian (1 inside, 0
      outside) would make a leaf of outliers an undefined Newton step; the step uses
      the Hessian 1 everywhere (LightGBM's ``huber`` objective does the same), so a
      leaf holds the weighted mean of the clipped residuals. ``delta`` is
      ``huber_delta`` times the :func:`robust_scale` of the current residuals,
      re-estimated each round (Huber's "Proposal 2" reading: a robust scale
      estimated with the fit); with the default 1.345, Huber's 95 %-efficiency
      constant for normal errors in units of their standard deviation (Huber
      1981). scikit-learn's ``GradientBoostingRegressor`` takes the 0.9-quantile
      of ``|r|`` instead, which moves with the share of wrong targets; LightGBM
      takes an absolute ``alpha``, which depends on the target's units.

    The per-row loss a self-paced policy compares with ``age`` (:meth:`losses`) is
    the loss of the standardised residual ``u = (y - F) / s``, ``s`` the
    :func:`robust_scale` of the residuals at the same scores (``½ u²``, or Huber's
    loss of ``u`` at ``huber_delta``): a robust spread, unmoved by up to half of
    the rows being wrong, so an age means the same on every target's scale and at
    every noise level (hard weighting at age ``a`` leaves out a row once
    ``|y - F| >= s sqrt(2 a)``: at the default 4.5, three robust standard
    deviations). The scale of the targets themselves was tried and left out: it
    is the spread of ``y``, not of the errors, and left most wrong targets in
    (Friedman #1, 20 % of the targets shifted by 10 to 30: clean-test RMSE 2.23
    against 0.85 with the residuals' scale, at age 4.5).

    A round is rejected (boosting stops, with the earlier rounds kept) when the
    learner makes no progress: its weighted edge ``sum_i w_i g_i f(x_i)`` is not
    above ``1e-12 sum_i w_i g_i²`` (every residual of positive weight is 0, or the
    learner cannot fit them).
    """

    needs_classifier = False

    def __init__(self, loss: str = "squared_error", learning_rate: float = 0.1,
                 huber_delta: float = 1.345):
        super().__init__(loss)
        self.learning_rate = learning_rate
        self.huber_delta = huber_delta
        self._scale = 1.0
        self._rows = None  # the run's (y, sample_weight) and _positive_selection's result
        self._last = None  # (the last scores array, their residuals' scale)
        self._accepted = None  # (state, scores) of the last accepted round

    def init_score(self, state: BoostingState) -> float:
        if self.loss == "huber":
            return weighted_median(state.y, state.sample_weight)
        sw = state.sample_weight
        return fdot(sw, state.y) / float(sw.sum())

    def _positive_selection(self, state: BoostingState):
        """The run's rows of positive weight (a search's fold models give their held-out
        rows weight 0), selected once: their indices (None: every row), targets and
        weights, and whether those weights are all equal."""
        if (self._rows is None or self._rows[0] is not state.y
                or self._rows[1] is not state.sample_weight):
            sw = np.asarray(state.sample_weight, dtype=np.float64)
            y, w, equal = _positive_rows(state.y, sw)
            rows = None if w.shape[0] == sw.shape[0] else np.flatnonzero(sw > 0)
            self._rows = (state.y, state.sample_weight, (rows, y, w, equal))
            self._last = None
        return self._rows[2]

    def residual_scale(self, state: BoostingState, raw) -> float:
        """The :func:`robust_scale` of the residuals ``y - raw`` (weighted by ``sample_weight``).

        A round asks for it three times at the same scores (the self-paced losses of the
        candidate scores, the published scale and the next round's Huber ``delta`` once
        the loop has committed them); the last value is kept with its scores array and
        returned for that same array, which changes no number: the loop never modifies
        scores in place (each round's are a new array), and neither may a caller that
        passes them here twice."""
        rows, y, w, equal = self._positive_selection(state)
        if self._last is not None and self._last[0] is raw:
            return self._last[1]
        scale = _scale_of_positive(y - (raw if rows is None else raw[rows]), w, equal)
        self._last = (raw, scale)
        return scale

    def init_state(self, state: BoostingState) -> None:
        # per run (this step is the loop's private copy): the residuals' scale, published
        self._scale = self.residual_scale(state, state.raw)
        return None

    def log_weights(self, state: BoostingState) -> None:
        return None  # Hessian 1: no weights of the step's own

    def fit_target(self, state: BoostingState) -> np.ndarray:
        r = state.y - state.raw
        if self.loss == "huber":
            delta = self.huber_delta * self.residual_scale(state, state.raw)
            np.clip(r, -delta, delta, out=r)
        return r

    def finish_round(self, learner, state: BoostingState, weights, target) -> RoundResult:
        f = self.output(learner, state.X, 1)
        w = np.ascontiguousarray(weights, dtype=np.float64)
        wg = w * target
        edge, total = fdot(wg, f), fdot(wg, target)
        if not (total > 0 and edge > RELATIVE_EDGE_FLOOR * total):
            why = ("every training residual of positive weight is 0" if not total > 0 else
                   f"weighted edge {edge:.3g}: it does not decrease the loss")
            return RoundResult(
                learner, None, 0.0, keep=False,
                stop=f"the weak learner of round {state.round + 1} makes no progress ({why}); "
                     "it was discarded",
            )
        return RoundResult(learner, f, self.learning_rate, info={"edge": edge})

    def output(self, estimator, X, n_classes: int) -> np.ndarray:
        return np.asarray(estimator.predict(X), dtype=np.float64).ravel()

    def losses(self, state: BoostingState, raw) -> np.ndarray:
        """Per-row loss of the standardised residual ``(y - raw) / s`` (see the class)."""
        u = (state.y - raw) / self.residual_scale(state, raw)
        if self.loss == "huber":
            np.abs(u, out=u)
            d = self.huber_delta
            return np.where(u <= d, 0.5 * u * u, d * (u - 0.5 * d))
        half = 0.5 * u  # (½ u) u as before: |r| / s and r / s have the same square
        half *= u
        return half

    def accept(self, state: BoostingState, result: RoundResult) -> None:
        # the published scale is the last round's: computed once, at the end, from these
        # scores (no round reads it; Huber's delta and the losses ask residual_scale)
        self._accepted = (state, state.raw)

    def finalize(self, ensemble) -> None:
        if self._accepted is not None:
            self._scale = self.residual_scale(*self._accepted)
        self._rows = self._last = self._accepted = None  # the run's arrays are not the model's
        ensemble.info["residual_scale"] = self._scale
        ensemble.info["init_score"] = ensemble.init_score


#: the name of :func:`class_output` until release 0.1.0
_class_output = class_output
