"""Boosting steps: how one round turns sample weights into a weak learner and its coefficient.

Each step is one of the independent parts the estimators are composed of
(see :mod:`robust_boosting._boosting`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import brentq, least_squares
from scipy.special import erfc, erfcinv
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted

from ._boosting import ERROR_FLOOR, BoostingState, RoundResult, Step, unfitted_copy
from ._loop_kernels import (
    fdot,
    logistic_hessians,
    margin_round_stats,
    newton_round_stats,
    softmax_newton,
    weighted_miss,
)
from .losses import (
    MAX_EXPONENT,
    ExponentialLoss,
    LogisticLoss,
    MarginLoss,
    softmax_loss,
    softmax_rows,
)
from .trees.batched import fit_trees_batched
from .trees.shared import SharedSymmetricTree

__all__ = [
    "DiscreteStep",
    "RealStep",
    "GentleStep",
    "LogitStep",
    "PerClassRegressor",
    "RobustBoostStep",
    "RobustBoostState",
    "robustboost_rho",
]

#: a real-valued round whose weighted edge ``sum_i w_i r_i h_i`` is below this makes no progress
EDGE_FLOOR = 1e-12
#: a multiclass round's per-sample kernels use the learner's threads from this many scores on
_THREADED_ROUND_WORK = 40_000


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
        return RoundResult(learner, _class_output(pred, n_classes), alpha, err, stop=stop,
                           separable=separable)

    def output(self, estimator, X, n_classes: int) -> np.ndarray:
        return _class_output(estimator.predict(X), n_classes)


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


class PerClassRegressor(BaseEstimator):
    """One copy of a regressor per column of a ``(n, K)`` response: a multiclass Newton round.

    :class:`LogitStep` fits its ``K`` per-class regressors through this one
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


# ---------------------------------------------------------------------------
# RobustBoost (Freund 2009)
# ---------------------------------------------------------------------------

_E = float(np.e)
_SQRT_PI = float(np.sqrt(np.pi))


def _sigma0(margin_sigma: float) -> float:
    return float(np.sqrt(_E**2 * (margin_sigma**2 + 1.0) - 1.0))


def robustboost_rho(error_goal: float, max_margin: float, margin_sigma: float) -> float:
    """The ``rho`` of RobustBoost: the root of the equation

    ``1 - ½ (1 + erf((2 (e - 1) rho - e theta) / sqrt(e² (sigma² + 1) - 1))) = epsilon``,

    i.e. the potential of a zero margin at time 0 equals the error goal.
    Since ``1 - ½ (1 + erf(x)) = ½ erfc(x)``, the root is
    ``rho = (sigma_0 erfcinv(2 epsilon) + e theta) / (2 (e - 1))`` with
    ``sigma_0 = sqrt(e² (sigma² + 1) - 1)`` (exact up to rounding; MATLAB
    solves the same equation with ``fsolve``).
    """
    s0 = _sigma0(margin_sigma)
    return float((s0 * erfcinv(2.0 * error_goal) + _E * max_margin) / (2.0 * (_E - 1.0)))


def _round_residual(info: dict) -> float:
    """Largest residual a RobustBoost round had to satisfy (NaN for a perfect learner)."""
    res = np.asarray(info["residuals"], dtype=np.float64)
    if not np.all(np.isfinite(res)):
        return float("nan")
    return float(res[1] if info.get("potential_only") else res.max())


@dataclass
class RobustBoostState:
    """RobustBoost's own state across rounds: the time ``t`` and the kept steps."""

    #: the time ``t in [0, 1]`` after the last kept round
    t: float = 0.0
    #: ``(dm, dt, t)`` of every kept round (for the stall rule)
    history: list[tuple[float, float, float]] = field(default_factory=list)


class RobustBoostStep(Step):
    """RobustBoost's round (Freund 2009; MATLAB ``fitcensemble(..., 'Method', 'RobustBoost')``).

    The state is a time ``t in [0, 1]`` (a :class:`RobustBoostState`, the
    loop's ``state.step_state``) and the margins ``s_i = y_i F(x_i)``. With ``z = 1 - t``,
    ``sigma(t) = sqrt((sigma² + 1) e^{2z} - 1)`` and
    ``mu(t) = (theta - 2 rho) e^{z} + 2 rho`` (see :func:`robustboost_rho`):

    * potential ``Phi(s, t) = 1 - ½ (1 + erf((s - mu(t)) / sigma(t)))``;
    * sample weight ``w(s, t) = exp(-((s - mu(t)) / sigma(t))²) / (sqrt(pi) sigma(t))``
      ``= -dPhi/ds`` (:meth:`log_weights` returns its logarithm).

    Each round fits a classifier ``h in {-1, +1}`` on those weights and, with
    ``u_i = y_i h(x_i)`` and ``s_i' = s_i e^{-dt} + u_i dm``, solves the two
    equations (sums weighted by the normalised ``sample_weight``)

    * ``G(dm, dt) = sum_i u_i w(s_i', t + dt) = 0``
      (the new weights make ``h`` useless, as in AdaBoost),
    * ``P(dm, dt) = sum_i [Phi(s_i', t + dt) - Phi(s_i, t)] = 0``
      (the average potential stays at its initial value ``epsilon``),

    for ``dm >= 0`` and ``0 <= dt <= 1 - t`` with
    :func:`scipy.optimize.least_squares` (analytic Jacobian; from MATLAB's
    start ``(0, min((1 - t)/2, 0.01))`` and from an AdaBoost-like start).
    Then ``s <- s'`` (:meth:`update_raw`: ``F <- F e^{-dt} + dm h``) and
    ``t <- t + dt`` (:meth:`accept`). Every kept round solves both equations
    to ``tol`` (max absolute residual, recorded in the round's info), except:

    * the time reaches 1 (``dt = 1 - t``): only the potential equation can
      then hold; the round is kept if it does and the loop stops ("time t
      reached 1");
    * no solution, or ``dm = 0`` (no progress): the learner is discarded and
      the loop stops with the reason;
    * ``h`` no better than chance under ``w``: discarded, loop stops;
    * a perfect ``h`` (every ``u_i = +1``; ``G > 0`` for all ``dm``): it is
      kept with ``dt = 1 - t`` and the ``dm`` that puts every margin at
      least ``theta + 3 sigma`` above 0, and the loop stops;
    * progress stalls (the last 5 rounds all have ``dm < 1/n`` and
      ``dt < 1e-6 t``): the loop stops. This safeguard is ours: Freund (2009)
      gives no stall rule, and MATLAB's documentation of ``RobustBoost`` does
      not state the one its implementation uses.

    :meth:`finalize` turns the steps into the vote weights
    ``beta_j = dm_j exp(-(t_final - t_j))`` (``t_j`` the time after round
    ``j``), so that ``y_i sum_j beta_j h_j(x_i) = s_i`` exactly.
    """

    native_multiclass = False
    STALL_ROUNDS = 5

    def __init__(self, error_goal: float = 0.1, max_margin: float = 0.0,
                 margin_sigma: float = 0.1, tol: float = 1e-8):
        super().__init__(loss=None)
        self.error_goal = error_goal
        self.max_margin = max_margin
        self.margin_sigma = margin_sigma
        self.tol = tol
        self.rho = robustboost_rho(error_goal, max_margin, margin_sigma)

    # -- the potential and its weights --------------------------------------
    def mu_sigma(self, t: float) -> tuple[float, float]:
        """``(mu(t), sigma(t))``."""
        z = 1.0 - t
        sig = float(np.sqrt((self.margin_sigma**2 + 1.0) * np.exp(2.0 * z) - 1.0))
        mu = float((self.max_margin - 2.0 * self.rho) * np.exp(z) + 2.0 * self.rho)
        return mu, sig

    def potential(self, s, t: float) -> np.ndarray:
        """``Phi(s, t) = ½ erfc((s - mu(t)) / sigma(t))``."""
        mu, sig = self.mu_sigma(t)
        return 0.5 * erfc((np.asarray(s, dtype=np.float64) - mu) / sig)

    def weight(self, s, t: float) -> np.ndarray:
        """``w(s, t) = -dPhi/ds``."""
        return np.exp(self.log_weight(s, t))

    def log_weight(self, s, t: float) -> np.ndarray:
        mu, sig = self.mu_sigma(t)
        a = (np.asarray(s, dtype=np.float64) - mu) / sig
        return -(a * a) - np.log(_SQRT_PI * sig)

    def init_state(self, state: BoostingState) -> RobustBoostState:
        return RobustBoostState()

    def time(self, state: BoostingState) -> float:
        """The time ``t`` reached so far in this run."""
        return state.step_state.t

    def log_weights(self, state: BoostingState) -> np.ndarray:
        return self.log_weight(state.margins, self.time(state))

    def sample_loss(self, margins) -> np.ndarray:
        """RobustBoost's loss is its potential at time 0 (the policy-facing loss)."""
        return self.potential(margins, 0.0)

    # -- the round's two equations ---------------------------------------------
    def equations(self, x, s, u, sw, t):
        """Residuals ``(G, P)`` at ``x = (dm, dt)`` and their Jacobian."""
        dm, dt = float(x[0]), float(x[1])
        decay = np.exp(-dt)
        s_new = s * decay + u * dm
        t_new = t + dt
        mu, sig = self.mu_sigma(t_new)
        a = (s_new - mu) / sig
        w = np.exp(-(a * a)) / (_SQRT_PI * sig)
        sw_w = sw * w
        G = fdot(sw_w, u)
        P = fdot(sw, 0.5 * erfc(a)) - fdot(sw, self.potential(s, t))
        # derivatives: d mu/d dt = -(mu - 2 rho); d sigma/d dt = -(sigma² + 1)/sigma
        dsig = -(sig * sig + 1.0) / sig
        da_dm = u / sig
        da_dt = (-s * decay + (mu - 2.0 * self.rho)) / sig - a * dsig / sig
        # dPhi/da = -sigma w; dw/dx = w (-2 a da/dx - dsigma/dx / sigma)
        dP = np.array([-sig * fdot(sw_w, da_dm), -sig * fdot(sw_w, da_dt)])
        dG = np.array([
            fdot(sw_w * u, -2.0 * a * da_dm),
            fdot(sw_w * u, -2.0 * a * da_dt - dsig / sig),
        ])
        return np.array([G, P]), np.vstack([dG, dP])

    def solve(self, s, u, sw, t):
        """Find ``(dm, dt)``; returns ``(dm, dt, residuals)``."""
        t_room = 1.0 - t

        def fun(x):
            return self.equations(x, s, u, sw, t)[0]

        def jac(x):
            return self.equations(x, s, u, sw, t)[1]

        edge = fdot(sw * self.weight(s, t), u) / max(fdot(sw, self.weight(s, t)), 1e-300)
        mu, sig = self.mu_sigma(t)
        alpha = 0.5 * np.log((1.0 + edge) / max(1.0 - edge, 1e-12))
        starts = [
            (0.0, min(t_room / 2.0, 0.01)),
            (min(alpha, 1.0) * sig, min(t_room / 2.0, 0.01)),
            (0.5 * sig * max(edge, 1e-3), min(t_room / 4.0, 1e-3)),
        ]
        best = None
        for x0 in starts:
            try:
                sol = least_squares(
                    fun, np.asarray(x0), jac=jac, bounds=([0.0, 0.0], [np.inf, t_room]),
                    method="trf", xtol=1e-15, ftol=1e-15, gtol=1e-15, max_nfev=200,
                )
            except (ValueError, FloatingPointError):  # pragma: no cover - defensive
                continue
            res = np.abs(fun(sol.x))
            if best is None or res.max() < best[2].max():
                best = (float(sol.x[0]), float(sol.x[1]), res)
            if res.max() <= self.tol and sol.x[1] < t_room:
                break
        if best is None:
            return 0.0, 0.0, np.array([np.inf, np.inf])
        return best

    def fit_target(self, state: BoostingState) -> np.ndarray:
        return state.y_idx

    def finish_round(self, learner, state: BoostingState, weights, target) -> RoundResult:
        round_ = state.round + 1
        h = _class_output(learner.predict(state.X), 2)
        u = state.y * h
        err = float(weights[u < 0].sum())
        s = state.margins
        t = self.time(state)
        sw = state.sample_weight
        info = {"t_start": t}
        if err >= 0.5 - ERROR_FLOOR:
            return RoundResult(
                learner, None, 0.0, err, keep=False,
                stop=(
                    f"the weak learner of round {round_} is no better than chance "
                    f"(weighted error {err:.4g} >= 0.5); it was discarded"
                ),
            )
        support = sw > 0
        if np.all(u[support] > 0):
            dt = 1.0 - t
            target = self.max_margin + 3.0 * self.margin_sigma
            dm = float(max(np.max(target - s[support] * np.exp(-dt)), self.margin_sigma))
            info.update(dm=dm, dt=dt, t=1.0, residuals=np.full(2, np.nan))
            return RoundResult(
                learner, h, dm, err, info=info,
                stop=f"perfect weak learner at round {round_} (weighted training error 0)",
            )
        dm, dt, res = self.solve(s, u, sw, t)
        t_new = t + dt
        at_end = dt >= (1.0 - t) - 1e-12
        info.update(dm=dm, dt=dt, t=min(t_new, 1.0), residuals=res)
        if at_end or res.max() > self.tol:
            # no interior solution (or the solver ended on the boundary): at t + dt = 1
            # only the potential equation can hold (MATLAB drops G there too); a learner
            # good enough to bring the potential below the goal ends the time in one step
            if at_end and res[1] <= self.tol:
                dm_end, res_end = dm, res
            else:
                dm_end, res_end = self._potential_only(s, u, sw, t, max(dm, 1e-3))
            if res_end[1] <= self.tol and dm_end > 0:
                dm, res = dm_end, res_end
                info.update(dm=dm, dt=1.0 - t, residuals=res, potential_only=True)
                info["t"] = 1.0
                return RoundResult(
                    learner, h, dm, err, info=info,
                    stop=f"RobustBoost's time t reached 1 at round {round_}",
                )
        if res.max() > self.tol or not dm > 0:
            why = (
                f"no solution (residuals {res[0]:.2e}, {res[1]:.2e} > {self.tol:g})"
                if res.max() > self.tol else "a zero margin step dm"
            )
            return RoundResult(
                learner, None, 0.0, err, keep=False,
                stop=f"RobustBoost's step equations of round {round_} gave {why}; "
                     "the learner was discarded",
            )
        stop = None
        history = state.step_state.history
        recent = history[-(self.STALL_ROUNDS - 1):] + [(dm, dt, t_new)]
        n = s.shape[0]
        if len(recent) >= self.STALL_ROUNDS and all(
            r_dm < 1.0 / n and r_dt < 1e-6 * r_t for r_dm, r_dt, r_t in recent
        ):
            stop = f"RobustBoost's progress stalled at round {round_} (tiny steps dm and dt)"
        return RoundResult(learner, h, dm, err, stop=stop, info=info)

    def _potential_only(self, s, u, sw, t, dm_guess):
        """At ``dt = 1 - t``: the ``dm`` that keeps the potential (``brentq``), if bracketed."""
        dt = 1.0 - t

        def p_of(dm):
            return self.equations((dm, dt), s, u, sw, t)[0][1]

        grid = np.concatenate(([0.0, dm_guess], np.geomspace(1e-6, 1e3, 60)))
        grid = np.unique(grid[grid >= 0])
        vals = np.array([p_of(d) for d in grid])
        best_dm, best_res = dm_guess, self.equations((dm_guess, dt), s, u, sw, t)[0]
        for lo, hi, f_lo, f_hi in zip(grid[:-1], grid[1:], vals[:-1], vals[1:], strict=True):
            if f_lo == 0.0 and lo > 0:
                return float(lo), np.abs(self.equations((lo, dt), s, u, sw, t)[0])
            if f_lo * f_hi < 0:
                root = brentq(p_of, lo, hi, xtol=1e-15, rtol=4 * np.finfo(float).eps)
                return float(root), np.abs(self.equations((root, dt), s, u, sw, t)[0])
        return best_dm, np.abs(best_res)

    def output(self, estimator, X, n_classes: int) -> np.ndarray:
        return _class_output(estimator.predict(X), 2)

    def update_raw(self, raw, result: RoundResult) -> np.ndarray:
        return raw * np.exp(-result.info["dt"]) + result.coef * result.output

    def accept(self, state: BoostingState, result: RoundResult) -> None:
        state.step_state.t = float(result.info["t"])
        state.step_state.history.append(
            (result.info["dm"], result.info["dt"], result.info["t"])
        )

    def finalize(self, ensemble) -> None:
        times = np.array([r["t"] for r in ensemble.rounds], dtype=np.float64)
        steps = np.array([r["dm"] for r in ensemble.rounds], dtype=np.float64)
        t_final = float(times[-1]) if times.size else 0.0
        ensemble.coefs = list(steps * np.exp(-(t_final - times)))
        ensemble.info.update(
            rho=self.rho,
            final_time=t_final,
            times=times,
            margin_steps=steps,
            step_residuals=np.array([_round_residual(r) for r in ensemble.rounds]),
        )
