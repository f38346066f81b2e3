"""The one boosting loop that every estimator of the library uses.

An estimator is a composition of

* a **step** (:class:`Step`): given normalised sample weights, fit one weak
  learner and choose its coefficient (discrete AdaBoost/SAMME, real, Newton /
  gentle, RobustBoost's time step, ...), and say how its output moves the
  training scores;
* a **weighting policy** (:class:`WeightPolicy`): multiply the step's own sample
  weights by extra factors (self-paced weights ``v``, ...) and, optionally, ask
  for the round to be refit (SPLBoost's inner iterations).

:class:`BaseBoostingClassifier` owns everything else, once: input validation,
label encoding, ``sample_weight``, random states of the weak learners, the
numerically safe weights (log space), stopping rules and reasons, the shared
one-vs-rest path for steps with no native multiclass form, prediction,
``predict_proba``, the ``staged_*`` family and ``feature_importances_``.

The loop is a generator (:meth:`BaseBoostingClassifier._fit_requests`) that
hands each weak-learner fit to its caller as a :class:`FitRequest`: ``fit``
answers them one at a time (:func:`answer_requests`), and
:func:`robust_boosting._batched.fit_batched` answers the requests of k models
together, so batched training runs this same loop.
"""

from __future__ import annotations

import copy
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.special import expit
from sklearn.base import BaseEstimator, ClassifierMixin, clone, is_classifier
from sklearn.metrics import accuracy_score
from sklearn.utils import check_random_state, get_tags
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import (
    _check_sample_weight,
    check_is_fitted,
    has_fit_parameter,
)

from . import _loop_kernels as _lk
from ._schema import prepared_data
from ._validation import check_number as _check_number
from ._validation import rescaled_weights, validated_X
from .losses import softmax_rows

__all__ = [
    "BaseBoostingClassifier",
    "BoostingStoppedWarning",
    "BoostingState",
    "FitRequest",
    "STOP_BOOSTING",
    "RoundResult",
    "answer_requests",
    "Step",
    "WeightPolicy",
    "Ensemble",
]

#: weighted errors below this count as a perfect weak learner
ERROR_FLOOR = 1e-10
MAX_ROUNDS_REASON = "reached n_estimators"


class BoostingStoppedWarning(UserWarning):
    """Boosting stopped before ``n_estimators`` rounds (see the estimator's ``stopping_reason_``)."""


@dataclass
class BoostingState:
    """What the loop knows about the training set during one fit.

    ``y`` holds labels in ``{-1, +1}`` for a binary problem and class indices
    for a native multiclass step; ``y_idx`` always holds class indices.
    ``raw`` is the ensemble's score on the training set: shape ``(n,)`` for a
    binary problem, ``(n, K)`` for a native multiclass step. A step that keeps
    state across rounds declares it as a dataclass returned by
    :meth:`Step.init_state`; it lives in ``step_state``.
    """

    X: Any
    y: NDArray
    y_idx: NDArray[np.intp]
    n_classes: int
    sample_weight: NDArray[np.float64]
    raw: NDArray[np.float64]
    round: int = 0
    #: the step's own per-run state: the small dataclass of :meth:`Step.init_state` (or None)
    step_state: Any = None
    #: threads the step's per-round kernels may use: those of the weak learner's compiled
    #: trees (its ``n_jobs``), 1 for other learners; no result depends on it
    n_threads: int = 1

    @property
    def margins(self) -> NDArray[np.float64]:
        """Per-sample margin ``y F(x)``.

        For ``K > 2`` classes (SAMME) the margin is
        ``2 (S_y - mean_k S_k) + log(K/2)`` with ``S_k`` the summed
        coefficients of the learners that voted for class ``k``. It equals
        ``y F(x)`` for two classes, and ``exp(-margin)`` is ``2/K`` times
        the SAMME exponential loss ``exp(-(1/K) y* . f)`` of Zhu, Zou,
        Rosset & Hastie (2009, eq. (4)) in their symmetric coding
        (``y*_k = 1`` for the true class, ``-1/(K-1)`` otherwise) with the
        sum-to-zero scores ``f = 2 (K-1) (S - mean_k S_k)``: since
        ``y* . f = K/(K-1) f_y``, the loss is ``exp(-f_y/(K-1))``. The weights
        ``exp(-margin)`` are SAMME's (``∝ exp(-2 S_y)``), and the SAMME
        coefficient of :class:`~robust_boosting.steps.DiscreteStep` is the
        exact minimiser of ``sum_i w_i exp(-margin_i)`` along the round's
        learner (a correct vote raises the margin by ``2 alpha (K-1)/K``, a
        wrong one lowers it by ``2 alpha/K``), so the self-paced MM argument
        of the SPLBoost paper (Theorem 1) carries over and an age ``lambda``
        has the binary meaning. A constant factor on the loss does not change
        the weights or that argument, only the scale ``age`` is compared
        with; the factor ``2/K`` (the offset ``log(K/2)``, 0 for ``K = 2``)
        puts the loss of the empty model at ``2/K`` (1 in the binary case) and
        is an empirical choice: in the reliability tables
        (``scripts/reliability_tables.py``) it keeps clean samples selected at
        the default age for ``K = 3, 5, 7``. (The former margin
        ``S_y - sum_{k != y} S_k`` added ``(1 - 2/K) sum_k S_k`` to every
        loss's exponent, which grows with every round and pushed every
        sample past any fixed age.)
        """
        return self.margins_of(self.raw)

    def margins_of(self, raw: NDArray[np.float64]) -> NDArray[np.float64]:
        """Margins the training samples would have with scores ``raw``."""
        if raw.ndim == 1:
            return self.y * raw
        own = raw[np.arange(raw.shape[0]), self.y_idx]
        k = raw.shape[1]
        return 2.0 * own - (2.0 / k) * raw.sum(axis=1) + np.log(k / 2.0)


@dataclass
class RoundResult:
    """One round's weak learner, its training output and its coefficient.

    ``output`` is the learner's raw output ``h`` on the training set (``(n,)``
    or ``(n, K)``); the ensemble adds ``coef * h``. ``stop`` names a reason to
    stop after this round; ``keep=False`` rejects the learner. ``separable``
    says the stop is because the learner is perfect on the samples of
    non-negligible weight but not on all: a weighting policy that has weighed
    samples out may let more in instead (:meth:`WeightPolicy.admit_more`).
    """

    estimator: Any
    output: NDArray[np.float64] | None
    coef: float
    error: float = np.nan
    stop: str | None = None
    keep: bool = True
    info: dict = field(default_factory=dict)
    separable: bool = False


@dataclass
class FitRequest:
    """A weak-learner fit the loop asks its caller for.

    The caller must fit ``learner`` in place, exactly as
    ``learner.fit(X, target, sample_weight=weights)`` would, then resume the
    loop (see :meth:`BaseBoostingClassifier._fit_requests`), or, at the first
    pass of a round (``first_pass``), resume it with :data:`STOP_BOOSTING` to
    end the ensemble with the ``round`` rounds it has. ``scores`` is the
    ensemble's current score on every training row (zero-weight rows
    included), shape ``(n,)`` or ``(n, K)``: for a one-vs-rest model, the
    score of the binary problem being boosted (classes in order).
    """

    learner: Any
    X: Any
    target: NDArray
    weights: NDArray[np.float64]
    scores: NDArray[np.float64] | None = None
    round: int = 0
    first_pass: bool = True


#: sent into the loop instead of a fitted learner: end the ensemble before this round
STOP_BOOSTING = "stop boosting"


def answer_requests(requests):
    """Run a generator of :class:`FitRequest`, fitting each learner itself; returns its value."""
    try:
        request = next(requests)
        while True:
            request.learner.fit(request.X, request.target, sample_weight=request.weights)
            request = next(requests)
    except StopIteration as stop:
        return stop.value


class Step:
    """How a round turns weights into a weak learner and its coefficient.

    Parameters
    ----------
    loss : MarginLoss
        The margin loss whose sample weights ``-phi'(m)`` the step uses.
    """

    #: can the step handle K > 2 classes itself (else: one-vs-rest)
    native_multiclass = False
    #: does the weak learner need to be a classifier (else a regressor)
    needs_classifier = True
    #: does the weak learner need ``predict_proba`` (class-probability steps)
    needs_predict_proba = False

    def __init__(self, loss):
        self.loss = loss

    def init_state(self, state: BoostingState) -> Any:
        """The step's own per-run state (a small dataclass), or None if it needs none."""
        return None

    def log_weights(self, state: BoostingState) -> NDArray[np.float64] | None:
        """Log of the step's own sample weights (before ``sample_weight`` and the policy).

        None: the step has no per-sample weights of its own (all equal).
        """
        return self.loss.log_sample_weight(state.margins)

    def bounded_weights(self, state: BoostingState) -> NDArray[np.float64] | None:
        """The step's own sample weights themselves, when they are bounded (no overflow).

        The boosting loop then uses them instead of :meth:`log_weights` (same
        weights, without a logarithm and an exponential per sample). Default None.
        """
        return None

    def sample_loss(self, margins: NDArray[np.float64]) -> NDArray[np.float64]:
        """Per-sample loss on the absolute scale (what self-paced weights compare with ``age``)."""
        return self.loss.value(margins)

    def fit_target(self, state: BoostingState) -> NDArray:
        """The response the round's weak learner is fitted to (class indices, ``y``, ...)."""
        raise NotImplementedError

    def finish_round(self, learner, state: BoostingState, weights, target) -> RoundResult:
        """The round's result from ``learner`` fitted on ``(state.X, target, weights)``."""
        raise NotImplementedError

    def fit_round(self, learner, state: BoostingState, weights) -> RoundResult:
        """Fit ``learner`` on normalised ``weights`` and return the round's result.

        By default: ``learner.fit(state.X, fit_target(state), sample_weight=weights)``,
        then :meth:`finish_round`. A step that implements those two parts lets
        the loop hand the fit to its caller (a :class:`FitRequest`), which is
        how :mod:`robust_boosting._batched` fits many models' learners together;
        a step that overrides this method instead fits its learner itself.
        """
        target = self.fit_target(state)
        learner.fit(state.X, target, sample_weight=weights)
        return self.finish_round(learner, state, weights, target)

    def output(self, estimator, X, n_classes: int) -> NDArray[np.float64]:
        """Raw output ``h(X)`` of one fitted learner (the ensemble adds ``coef * h``)."""
        raise NotImplementedError

    def learner_for(self, estimator, n_classes: int):
        """The weak learner a round fits, from the user's (or default) ``estimator``.

        By default ``estimator`` itself; a step whose round fits one output per
        class (a native multiclass Newton step) wraps it.
        """
        return estimator

    def learner_weights(self, state: BoostingState, weights) -> NDArray[np.float64]:
        """The ``sample_weight`` the round's learner is fitted with, from the normalised weights.

        By default the weights themselves (shape ``(n,)``); a step with one
        output per class may give ``(n, K)`` weights (one column per output).
        """
        return weights

    def losses(self, state: BoostingState, raw) -> NDArray[np.float64]:
        """Per-sample loss at scores ``raw`` (what self-paced weights compare with ``age``)."""
        return self.sample_loss(state.margins_of(raw))

    def class_proba(self, raw) -> NDArray[np.float64]:
        """Class probabilities from the ensemble's scores (binary ``(n,)`` or native ``(n, K)``).

        Binary: ``P(y = +1 | x) = 1 / (1 + exp(-2 F(x)))``, the population
        minimiser of the exponential (and logistic, Savage) risk (Friedman,
        Hastie & Tibshirani 2000). Multiclass (SAMME): ``softmax(2 S / (K - 1))``,
        which reduces to the binary formula for two classes.
        """
        if raw.ndim == 1:
            p = expit(2.0 * raw)
            return np.column_stack([1.0 - p, p])
        return softmax_rows(2.0 * raw / (raw.shape[1] - 1))

    def update_raw(self, raw, result: RoundResult) -> NDArray[np.float64]:
        """Training scores after adding the round's learner (row-major, as the step's
        kernels read them, whatever the layout of the learner's output)."""
        out = result.output
        if raw.ndim == 2 and raw.flags.c_contiguous and out.T.flags.c_contiguous:
            # a multiclass output stacked class-major: one compiled pass, no strided copy
            new = np.empty_like(raw)
            _lk.add_scaled_transposed(raw, float(result.coef), out.T, new)
            return new
        return raw + result.coef * out

    def accept(self, state: BoostingState, result: RoundResult) -> None:
        """Called once the round's learner has been added (update ``state.step_state``)."""

    def finalize(self, ensemble: Ensemble) -> None:
        """Adjust the coefficients once the loop has ended (e.g. RobustBoost's ``beta``)."""


class WeightPolicy:
    """Plain weighting: the step's own weights, one pass per round."""

    def start(self, state: BoostingState, step: Step) -> None:
        """Called once before the first round."""

    def factors(self, state: BoostingState) -> NDArray[np.float64] | None:
        """Multiplicative factors in ``[0, 1]`` for the weights (``None``: all ones)."""
        return None

    def refit(self, state: BoostingState, step: Step, candidate_raw, n_done: int) -> bool:
        """After a pass of a round: update internal state; True asks for another pass."""
        return False

    def end_round(self, state: BoostingState, step: Step) -> None:
        """Called after the round's learner has been added."""

    def admit_more(self, state: BoostingState, step: Step) -> bool:
        """The round's learner separates the samples of non-negligible weight: let more in?

        Called at the current scores when a round ends with ``RoundResult.separable``.
        True means the policy changed its factors so that more samples have weight,
        and boosting goes on instead of stopping; the default never does.
        """
        return False

    def results(self) -> dict:
        """Fitted quantities to publish on the estimator (names without the trailing ``_``)."""
        return {}


@dataclass
class Ensemble:
    """The fitted learners of one (binary or native multiclass) boosting run."""

    estimators: list = field(default_factory=list)
    coefs: list = field(default_factory=list)
    errors: list = field(default_factory=list)
    rounds: list = field(default_factory=list)
    stopping_reason: str = MAX_ROUNDS_REASON
    init_score: NDArray[np.float64] | float = 0.0
    info: dict = field(default_factory=dict)


def _random_state_keys(estimator) -> list[str]:
    """The ``random_state`` parameters of ``estimator`` (nested ones too), in sorted order."""
    return [
        key
        for key in sorted(estimator.get_params(deep=True))
        if key == "random_state" or key.endswith("__random_state")
    ]


_IMMUTABLE = frozenset({int, float, str, bool, type(None)})


def unfitted_copy(template):
    """A copy of the unfitted estimator ``template`` that shares no mutable state with it.

    A shallow copy when every parameter is a plain number, string, None or an estimator
    of such parameters (copied the same way, level by level: it is then a clone), else a
    deep copy: for an unfitted estimator both equal ``clone``'s result, at a fraction of
    its cost.
    """
    copied = _plain_copy(template)
    return copy.deepcopy(template) if copied is None else copied


def _plain_copy(est):
    """A shallow copy of ``est`` whose estimator-valued attributes are copied the same way,
    when every attribute is a plain number, string, None or such an estimator; else None."""
    out = copy.copy(est)
    for key, value in vars(est).items():
        if type(value) in _IMMUTABLE:
            continue
        if not isinstance(value, BaseEstimator):
            return None
        inner = _plain_copy(value)
        if inner is None:
            return None
        setattr(out, key, inner)
    return out


def _seeded_copy(template, keys: list[str], random_state: np.random.RandomState):
    """A fresh copy of the unfitted ``template`` whose ``random_state`` parameters are seeded.

    The parameters named in ``keys`` (from :func:`_random_state_keys`, sorted) are
    seeded with ``randint(2**31 - 1)`` in that order, as scikit-learn's ensembles
    do, so a weak learner gets the same seeds here as in
    :class:`sklearn.ensemble.AdaBoostClassifier`. ``template`` must be a
    ``clone`` of the user's estimator: a deep copy of it is then a clone too,
    at a fraction of ``clone``'s cost.
    """
    learner = unfitted_copy(template)
    seeds = {key: random_state.randint(np.iinfo(np.int32).max) for key in keys}
    nested = {key: seed for key, seed in seeds.items() if "__" in key}
    if "random_state" in seeds:
        learner.random_state = seeds["random_state"]
    if nested and not _set_nested(learner, nested):
        learner.set_params(**nested)
    return learner


def _set_nested(learner, params: dict) -> bool:
    """Set ``a__b__name`` parameters as attributes of the estimators they name when each
    of ``a``, ``a.b`` is an estimator attribute (what ``set_params`` does then, without
    its signature inspection); False, with nothing set, if one is not."""
    targets = []
    for key, value in params.items():
        *path, name = key.split("__")
        obj = learner
        for part in path:
            obj = vars(obj).get(part)
            if not isinstance(obj, BaseEstimator):
                return False
        if name not in vars(obj):
            return False
        targets.append((obj, name, value))
    for obj, name, value in targets:
        setattr(obj, name, value)
    return True


def _learner_threads(estimator) -> int:
    """Threads of a weak learner's compiled kernels (1 for a learner without them)."""
    from .trees import HistTreeClassifier, HistTreeRegressor
    from .trees.binning import _n_threads

    if isinstance(estimator, HistTreeClassifier | HistTreeRegressor):
        return _n_threads(estimator.n_jobs)
    return 1


def _round_weights(step: Step, state: BoostingState, factors) -> NDArray[np.float64] | None:
    """The normalised weights of a round: ``sample_weight * factors *`` the step's own."""
    own = step.bounded_weights(state)
    if own is None:
        return _normalised_weights(step.log_weights(state), state.sample_weight, factors)
    if np.isnan(own).any():  # as a NaN log-weight: no usable weights
        return None
    base = state.sample_weight * own
    if factors is not None:
        base *= factors
    return _normalised_weights(None, base, None)


def _normalised_weights(log_w, sample_weight, factors) -> NDArray[np.float64] | None:
    """``sample_weight * factors * exp(log_w)``, normalised, computed without overflow.

    ``log_w`` None stands for zeros (the step has no weights of its own). Returns
    ``None`` when every weight is zero (or a log-weight is NaN).
    """
    base = sample_weight if factors is None else sample_weight * factors
    base = np.ascontiguousarray(base, dtype=np.float64)
    if log_w is not None:
        log_w = np.ascontiguousarray(log_w, dtype=np.float64)
    w = np.empty_like(base)
    total = _lk.normalise_log_weights(log_w, base, w)
    if not (total > 0 and np.isfinite(total)):
        return None
    if total < _TINY_TOTAL:
        # the sample of largest log-weight has a tiny base weight: fold the base weights
        # into the log-weights so the largest product is exactly 1 before normalising
        with np.errstate(divide="ignore"):
            log_w = np.log(base) if log_w is None else log_w + np.log(base)
        support = (base > 0).astype(np.float64)
        total = _lk.normalise_log_weights(log_w, support, w)
        if not (total > 0 and np.isfinite(total)):
            return None
    return w


def default_weak_learner(step: Step):
    """The library's one default weak learner: a histogram stump of the kind ``step`` needs.

    A decision stump (:class:`~robust_boosting.trees.HistTreeClassifier`,
    ``max_depth=1``) for steps that fit a classifier, a regression stump
    (:class:`~robust_boosting.trees.HistTreeRegressor`, as in the experiments of
    Friedman, Hastie & Tibshirani 2000) for steps that fit a real-valued
    working response.
    """
    from .trees import HistTreeClassifier, HistTreeRegressor

    if step.needs_classifier:
        return HistTreeClassifier(max_depth=1)
    return HistTreeRegressor(max_depth=1)


def check_two_classes(classes) -> None:
    """A ``ValueError`` unless ``classes`` (the distinct labels) has at least two."""
    if len(classes) < 2:
        raise ValueError(
            f"y contains only one class ({classes[0]!r}); a classifier needs at least 2 classes."
        )


def validated_training_data(estimator, X, y, sample_weight, *, allow_nan: bool = False):
    """``(X, classes, y_idx, sample_weight)`` of a classifier's ``fit``, checked.

    ``X`` through :func:`~robust_boosting._validation.validated_X` (recording
    ``n_features_in_``, ``feature_names_in_`` and ``feature_schema_`` on
    ``estimator``; NaN accepted as missing if ``allow_nan``, infinity never), at
    least two classes, and non-negative sample weights with a positive sum,
    normalised to sum 1.
    """
    X, y = validated_X(estimator, X, y, reset=True, allow_nan=allow_nan, allow_inf=False)
    check_classification_targets(y)
    classes, y_idx = np.unique(y, return_inverse=True)
    check_two_classes(classes)
    sample_weight = _check_sample_weight(
        sample_weight, X, dtype=np.float64, copy=True, ensure_non_negative=True
    )
    sample_weight = rescaled_weights(sample_weight)
    total = sample_weight.sum()
    if not total > 0:
        raise ValueError("sample_weight sums to zero: at least one sample needs a positive weight.")
    return X, classes, y_idx.astype(np.intp), sample_weight / total


#: below this unnormalised total, :func:`_normalised_weights` renormalises in log space
_TINY_TOTAL = 1e-200



class BaseBoostingClassifier(ClassifierMixin, BaseEstimator):
    """Base class of every boosting classifier in the library: the shared loop.

    Subclasses define ``__init__`` (storing their parameters unchanged) unless
    they have only the parameters of this class's,
    :meth:`_make_step` and, optionally, :meth:`_make_policy`,
    :meth:`_validate_params` and :meth:`_default_estimator`.

    Fitted attributes (binary problems and native multiclass steps)
    ----------------------------------------------------------------
    classes_ : ndarray of shape (n_classes,)
    estimators_ : list of fitted weak learners
    estimator_weights_ : ndarray, coefficient of each learner
    estimator_errors_ : ndarray, weighted training error of each learner (NaN if not defined)
    stopping_reason_ : str, why the loop ended (``"reached n_estimators"`` normally)
    n_estimators_ : int, number of learners kept
    feature_schema_ : FeatureSchema, each column's kind, dtype and categories (see
        :mod:`robust_boosting._schema`; categorical columns reach the weak learners as
        category codes, split natively by the histogram trees)

    For steps with no native multiclass form and more than two classes, one
    binary ensemble is fitted per class (one-vs-rest) and these attributes
    are lists with one entry per class.
    """

    # the parameters every booster has; estimators with more define their own __init__
    def __init__(self, estimator=None, n_estimators: int = 100, learning_rate: float = 1.0,
                 random_state=None):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.learning_rate = learning_rate
        self.random_state = random_state

    def _make_step(self) -> Step:
        raise NotImplementedError

    def _make_policy(self) -> WeightPolicy:
        return WeightPolicy()

    def _default_estimator(self):
        """The weak learner used when ``estimator=None`` (see :func:`default_weak_learner`)."""
        return default_weak_learner(self._make_step())

    def _validate_params(self) -> None:
        """Check the parameters; subclasses extend it (and call ``super()``)."""
        _check_number("n_estimators", self.n_estimators, low=1, low_open=False, integer=True)
        _check_number("learning_rate", getattr(self, "learning_rate", 1.0), low=0)

    # ------------------------------------------------------------------ fit
    def _check_estimator(self, step: Step):
        estimator = self._default_estimator() if self.estimator is None else self.estimator
        if not hasattr(estimator, "fit") or not hasattr(estimator, "get_params"):
            raise TypeError(
                f"estimator must be a scikit-learn estimator, got {type(estimator).__name__}."
            )
        if not has_fit_parameter(estimator, "sample_weight"):
            raise TypeError(
                f"{type(estimator).__name__} does not accept sample_weight in fit; "
                f"{type(self).__name__} needs a weak learner that does."
            )
        if not hasattr(estimator, "predict"):
            raise TypeError(f"{type(estimator).__name__} has no predict method.")
        if step.needs_predict_proba and not hasattr(estimator, "predict_proba"):
            raise TypeError(
                f"{type(self).__name__} needs a weak learner with predict_proba (a class-"
                f"probability estimator); {type(estimator).__name__} has none."
            )
        if not step.needs_classifier and is_classifier(estimator):
            raise TypeError(
                f"{type(self).__name__} needs a regression weak learner (it fits a real-valued "
                f"working response); got the classifier {type(estimator).__name__}."
            )
        return estimator

    def _validate_training_data(self, X, y, sample_weight):
        return validated_training_data(self, X, y, sample_weight,
                                       allow_nan=self._allows_nan(fitted=False))

    def fit(self, X: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None = None):
        """Fit the boosted ensemble.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data: an array of numbers, or a DataFrame with numeric, boolean
            and categorical columns (see :mod:`robust_boosting._schema`). NaN means
            missing when the weak learner handles it (the default histogram trees).
        y : array-like of shape (n_samples,)
            Class labels (possibly noisy: that is what these algorithms are for).
        sample_weight : array-like of shape (n_samples,), optional
            Non-negative weights; uniform if omitted.

        Returns
        -------
        self
        """
        return answer_requests(self._fit_requests(X, y, sample_weight))

    def _fit_requests(self, X, y, sample_weight=None, binned_cache: dict | None = None):
        """:meth:`fit` as a generator that yields each weak-learner fit as a :class:`FitRequest`.

        :meth:`fit` answers the requests one by one (:func:`answer_requests`);
        :func:`robust_boosting._batched.fit_batched` runs many of these
        generators and answers their requests together. ``binned_cache`` maps
        the weak learner's type and the parameters its ``prepare_data`` reads
        (its ``_prepare_data_params``; without it, all but ``random_state`` and
        ``n_jobs``) to its ``prepare_data(X)``, so that models fitted on the
        same ``X`` bin it once. Returns ``self``, fitted.
        """
        self._validate_params()
        X, classes, y_idx, sample_weight = self._validate_training_data(X, y, sample_weight)
        # the composition is built once, here, from the parameters as they are now;
        # the loop and every prediction use only these fitted attributes, so a later
        # set_params cannot change what this fit predicts
        step = self._make_step()
        estimator = self._check_estimator(step)
        self.step_ = step
        self.policy_ = self._make_policy()
        self.classes_ = classes
        n_classes = classes.shape[0]
        self.estimator_ = estimator
        if binned_cache is None:
            X_fit = prepared_data(estimator, X, self.feature_schema_)
        else:
            # the parameters prepare_data reads (declared by the learner, else all but the
            # seed and the thread count)
            params = estimator.get_params(deep=False)
            names = getattr(estimator, "_prepare_data_params", None)
            if names is None:
                names = [name for name in params if name not in ("random_state", "n_jobs")]
            key = (type(estimator), repr(sorted((name, repr(params[name])) for name in names)))
            if key not in binned_cache:
                binned_cache[key] = prepared_data(estimator, X, self.feature_schema_)
            X_fit = binned_cache[key]
        rng = check_random_state(self.random_state)

        self._ovr = n_classes > 2 and not step.native_multiclass
        if self._ovr:
            ensembles, policies = [], []
            for k in range(n_classes):
                y_k = (y_idx == k).astype(np.intp)
                ens, pol = yield from self._boost_rounds(X_fit, y_k, 2, sample_weight, estimator,
                                                         rng)
                ensembles.append(ens)
                policies.append(pol)
        else:
            ens, pol = yield from self._boost_rounds(X_fit, y_idx, n_classes, sample_weight,
                                                     estimator, rng)
            ensembles, policies = [ens], [pol]
        self.ensembles_ = ensembles
        self._publish(ensembles, policies)
        return self

    def _boost_rounds(self, X, y_idx, n_classes, sample_weight, estimator, rng):
        """The boosting loop: one (binary or native multiclass) ensemble.

        A generator: each weak-learner fit of a step that splits its round into
        :meth:`Step.fit_target` and :meth:`Step.finish_round` is yielded as a
        :class:`FitRequest` for the caller to answer; returns ``(ensemble, policy)``.
        Runs on fresh copies of the fitted prototypes ``step_`` and ``policy_``
        (steps and policies keep per-run state), never on the parameters.
        """
        hands_out_fits = type(self.step_).fit_round is Step.fit_round
        stopped_by_caller = False
        step = copy.deepcopy(self.step_)
        policy = copy.deepcopy(self.policy_)
        n = y_idx.shape[0]
        binary = n_classes == 2
        state = BoostingState(
            X=X,
            y=(2.0 * y_idx - 1.0) if binary else y_idx,
            y_idx=y_idx,
            n_classes=n_classes,
            sample_weight=sample_weight,
            raw=np.zeros(n) if binary else np.zeros((n, n_classes)),
            n_threads=_learner_threads(estimator),
        )
        state.step_state = step.init_state(state)
        policy.start(state, step)
        ens = Ensemble()
        template = clone(step.learner_for(estimator, n_classes))
        seed_keys = _random_state_keys(template)
        for t in range(self.n_estimators):
            state.round = t
            learner = _seeded_copy(template, seed_keys, rng)
            result = None
            n_pass = 0
            while True:
                w = _round_weights(step, state, policy.factors(state))
                if w is None:
                    if result is None:
                        ens.stopping_reason = (
                            f"every sample has zero weight at round {t + 1} "
                            "(all samples dropped by the weighting policy)"
                        )
                    break
                fit_learner = learner if n_pass == 0 else clone(learner)
                w = step.learner_weights(state, w)
                if hands_out_fits:
                    target = step.fit_target(state)
                    reply = yield FitRequest(fit_learner, state.X, target, w, state.raw, t,
                                             n_pass == 0)
                    if reply is STOP_BOOSTING and n_pass == 0:
                        ens.stopping_reason = f"stopped by the caller after {t} rounds"
                        stopped_by_caller = True
                        break
                    result = step.finish_round(fit_learner, state, w, target)
                else:
                    result = step.fit_round(fit_learner, state, w)
                n_pass += 1
                if not result.keep:
                    break
                candidate = step.update_raw(state.raw, result)
                if not policy.refit(state, step, candidate, n_pass):
                    break
            if result is None:
                break
            if not result.keep:
                if result.separable and policy.admit_more(state, step):
                    continue  # no learner this round; the next sees more samples
                ens.stopping_reason = result.stop or f"weak learner rejected at round {t + 1}"
                break
            ens.estimators.append(result.estimator)
            ens.coefs.append(float(result.coef))
            ens.errors.append(float(result.error))
            ens.rounds.append(result.info)
            state.raw = candidate
            step.accept(state, result)
            policy.end_round(state, step)
            if result.stop and not (result.separable and policy.admit_more(state, step)):
                ens.stopping_reason = result.stop
                break
        step.finalize(ens)
        final_w = _round_weights(step, state, policy.factors(state))
        ens.info["sample_weights"] = np.zeros(n) if final_w is None else final_w
        if not ens.estimators:
            ens.init_score = self._prior_score(y_idx, n_classes, sample_weight)
        if ens.stopping_reason != MAX_ROUNDS_REASON and not stopped_by_caller:
            warnings.warn(
                f"{type(self).__name__} stopped after {len(ens.estimators)} of "
                f"{self.n_estimators} rounds: {ens.stopping_reason}.",
                BoostingStoppedWarning,
                stacklevel=5,  # the caller of fit (through the generators)
            )
        ens.info.update(policy.results())
        return ens, policy

    @staticmethod
    def _prior_score(y_idx, n_classes, sample_weight):
        """Score of an empty ensemble: the weighted class prior (so it predicts the majority)."""
        prior = np.bincount(y_idx, weights=sample_weight, minlength=n_classes)
        prior = np.clip(prior / prior.sum(), 1e-12, 1.0)
        if n_classes == 2:
            return 0.5 * float(np.log(prior[1] / prior[0]))
        return np.log(prior)

    def _publish(self, ensembles, policies) -> None:
        def pick(values):
            return values[0] if not self._ovr else values

        self.estimators_ = pick([e.estimators for e in ensembles])
        self.estimator_weights_ = pick([np.asarray(e.coefs, dtype=np.float64) for e in ensembles])
        self.estimator_errors_ = pick([np.asarray(e.errors, dtype=np.float64) for e in ensembles])
        self.stopping_reason_ = pick([e.stopping_reason for e in ensembles])
        self.n_estimators_ = pick([len(e.estimators) for e in ensembles])
        keys = set().union(*(e.info for e in ensembles))
        for key in sorted(keys):
            setattr(self, key + "_", pick([e.info.get(key) for e in ensembles]))

    # -------------------------------------------------------------- predict
    def _check_X(self, X):
        check_is_fitted(self)
        return validated_X(self, X, reset=False, allow_nan=self._allows_nan(fitted=True),
                           allow_inf=False)

    def _allows_nan(self, fitted: bool) -> bool:
        """Whether the weak learner (the fitted ``estimator_`` if ``fitted``, else the one the
        parameters give) handles NaN: then so does the booster (NaN means missing);
        otherwise a NaN is an error naming the column and the rows."""
        try:
            est = getattr(self, "estimator_", None) if fitted else None
            if est is None:
                est = self._default_estimator() if self.estimator is None else self.estimator
            return bool(get_tags(est).input_tags.allow_nan)
        except Exception:  # invalid parameters: the fit reports them
            return False

    def _staged_raw(self, X) -> Iterator[NDArray[np.float64]]:
        """Raw scores after each round (one-vs-rest: shape ``(n, K)``, one column per class).

        Uses the fitted step ``step_`` only (not the current parameters).
        """
        step = self.step_
        n_classes = len(self.classes_)
        n = X.shape[0]
        if not self._ovr:
            ens = self.ensembles_[0]
            shape = (n,) if n_classes == 2 else (n, n_classes)
            raw = np.zeros(shape) + ens.init_score
            if not ens.estimators:
                yield raw
            for est, coef in zip(ens.estimators, ens.coefs, strict=True):
                raw = raw + coef * step.output(est, X, n_classes)
                yield raw
            return
        raw = np.zeros((n, n_classes))
        for k, ens in enumerate(self.ensembles_):
            raw[:, k] += ens.init_score
        longest = max(max(len(e.estimators) for e in self.ensembles_), 1)
        for t in range(longest):
            raw = raw.copy()
            for k, ens in enumerate(self.ensembles_):
                if t < len(ens.estimators):
                    raw[:, k] += ens.coefs[t] * step.output(ens.estimators[t], X, 2)
            yield raw

    def _raw(self, X) -> NDArray[np.float64]:
        raw = None
        for raw in self._staged_raw(X):  # noqa: B007 - the last stage is the model
            pass
        return raw

    def _decision_from_raw(self, raw):
        if raw.ndim == 2 and not self._ovr:
            return raw - raw.mean(axis=1, keepdims=True)
        return raw

    def _proba_from_raw(self, raw):
        """Class probabilities from scores.

        Binary and native multiclass: the fitted step's link
        (:meth:`Step.class_proba`; binary ``P(y = +1 | x) = 1 / (1 + exp(-2 F(x)))``,
        SAMME ``softmax(2 S / (K - 1))``, multiclass LogitBoost ``softmax(F)``).
        One-vs-rest: the per-class binary probabilities, normalised.
        """
        if not self._ovr:
            return self.step_.class_proba(raw)
        p = expit(2.0 * raw)
        total = p.sum(axis=1, keepdims=True)
        return np.where(total > 0, p / np.where(total > 0, total, 1.0), 1.0 / raw.shape[1])

    def _label_from_raw(self, raw):
        if raw.ndim == 1:
            return self.classes_[(raw > 0).astype(np.intp)]
        return self.classes_[np.argmax(raw, axis=1)]

    def decision_function(self, X: ArrayLike) -> NDArray[np.float64]:
        """Ensemble score.

        Binary problems: ``F(x) = sum_t alpha_t f_t(x)`` (positive means
        ``classes_[1]``), on the margin scale the losses and ``age`` use.
        Multiclass: shape ``(n_samples, n_classes)``, the class scores
        (centred for SAMME).
        """
        return self._decision_from_raw(self._raw(self._check_X(X)))

    def predict(self, X: ArrayLike) -> NDArray:
        """Predicted class labels."""
        return self._label_from_raw(self._raw(self._check_X(X)))

    def predict_proba(self, X: ArrayLike) -> NDArray[np.float64]:
        """Class probabilities (see :meth:`_proba_from_raw` for the link)."""
        return self._proba_from_raw(self._raw(self._check_X(X)))

    def predict_log_proba(self, X: ArrayLike) -> NDArray[np.float64]:
        """Logarithm of :meth:`predict_proba`."""
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

    def staged_decision_function(self, X: ArrayLike) -> Iterator[NDArray[np.float64]]:
        """:meth:`decision_function` after each boosting round."""
        for raw in self._staged_raw(self._check_X(X)):
            yield self._decision_from_raw(raw)

    def staged_predict(self, X: ArrayLike) -> Iterator[NDArray]:
        """:meth:`predict` after each boosting round (rounds cost nothing extra)."""
        for raw in self._staged_raw(self._check_X(X)):
            yield self._label_from_raw(raw)

    def staged_predict_proba(self, X: ArrayLike) -> Iterator[NDArray[np.float64]]:
        """:meth:`predict_proba` after each boosting round."""
        for raw in self._staged_raw(self._check_X(X)):
            yield self._proba_from_raw(raw)

    def staged_score(self, X: ArrayLike, y: ArrayLike, sample_weight=None) -> Iterator[float]:
        """Accuracy after each boosting round."""
        for pred in self.staged_predict(X):
            yield accuracy_score(y, pred, sample_weight=sample_weight)

    @property
    def feature_importances_(self) -> NDArray[np.float64]:
        """Coefficient-weighted mean of the weak learners' ``feature_importances_``."""
        check_is_fitted(self)
        parts = []
        for ens in self.ensembles_:
            if not ens.estimators:
                continue
            try:
                imp = [est.feature_importances_ for est in ens.estimators]
            except AttributeError as exc:
                raise AttributeError(
                    "Unable to compute feature importances: the weak learner has no "
                    "feature_importances_ attribute."
                ) from exc
            coefs = np.abs(np.asarray(ens.coefs))
            if coefs.sum() > 0:
                parts.append(coefs @ np.asarray(imp) / coefs.sum())
        if not parts:
            return np.zeros(self.n_features_in_)
        return np.mean(parts, axis=0)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = self._allows_nan(fitted=False)
        return tags
