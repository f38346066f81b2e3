"""The contracts of the boosting loop's parts (:mod:`robust_boosting._boosting`).

A **step** (:class:`Step`) turns a round's normalised sample weights into a weak
learner and its coefficient; a **weighting policy** (:class:`WeightPolicy`)
multiplies the step's weights by extra factors and may ask for a round to be
refit. :class:`BoostingState` is what the loop knows about the training set during
one fit, :class:`RoundResult` one round's outcome, and :class:`FitRequest` a
weak-learner fit the loop hands to its caller (:func:`answer_requests` answers them
one by one; :data:`STOP_BOOSTING` ends an ensemble early). A new step or policy
implements one of these (the guide: ``docs/extending.md``).

These names are also importable from :mod:`robust_boosting._boosting`, where they
were defined up to release 0.1.0 (model files of that release name
``robust_boosting._boosting.WeightPolicy``), and from ``robust_boosting._interfaces``,
this module's name before it was public (files saved then name
``robust_boosting._interfaces.WeightPolicy``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray
from scipy.special import expit

from . import _loop_kernels as _lk
from .exceptions import BoostingStoppedWarning  # noqa: F401 - importable from here as before
from .losses import softmax_rows

if TYPE_CHECKING:
    from ._ensemble import Ensemble

__all__ = [
    "ERROR_FLOOR",
    "MAX_ROUNDS_REASON",
    "STOP_BOOSTING",
    "BoostingState",
    "FitRequest",
    "RoundResult",
    "Step",
    "WeightPolicy",
    "answer_requests",
]

#: weighted errors below this count as a perfect weak learner
ERROR_FLOOR = 1e-10
MAX_ROUNDS_REASON = "reached n_estimators"


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
    ``learner.fit(X, target, sample_weight=weights)`` would, then resume the loop
    (see :meth:`~robust_boosting._boosting.BaseBoostingClassifier._fit_requests`), or, at
    the first pass of a round (``first_pass``), resume it with :data:`STOP_BOOSTING` to
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


def answer_requests(requests, on_request=None):
    """Run a generator of :class:`FitRequest`, fitting each learner itself; returns its value.
    ``on_request(request)``, if given, sees each request before its fit (progress)."""
    try:
        request = next(requests)
        while True:
            if on_request is not None:
                on_request(request)
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

    def init_score(self, state: BoostingState) -> float | None:
        """The score every training row starts at (a regression step: the best constant of
        its loss), or None: the scores start at 0, and an ensemble that keeps no learner
        scores the estimator's prior (a classifier's class prior)."""
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

    #: set by the loop when its model will only predict (a search's fold models,
    #: :func:`~robust_boosting._batched.fit_batched`'s ``prediction_only``): a policy may
    #: then skip work that only its published quantities need, never its weights
    predict_only = False

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
