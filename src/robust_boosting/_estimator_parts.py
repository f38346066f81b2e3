"""Estimator-level parts that the estimator modules compose (they never import each other).

* :class:`SelfPacedMixin`: the self-paced parameters of an estimator, validated
  and turned into its :class:`~robust_boosting.self_paced.SelfPacedPolicy`;
* :class:`ClassProbabilityBooster` and :class:`GentleLossBooster`: the shared
  loop with :class:`~robust_boosting.steps.RealStep` or
  :class:`~robust_boosting.steps.GentleStep` on a margin loss chosen by a
  ``loss`` parameter (a name of :data:`~robust_boosting.losses.LOSSES` or a
  :class:`~robust_boosting.losses.MarginLoss` instance). RealBoost and
  GentleBoost expose ``loss``; SavageBoost and RBoost are presets of them;
* :class:`SearchedFinalModel`: what the cross-validated estimators
  (:class:`~robust_boosting.SPLBoostClassifierCV`,
  :class:`~robust_boosting.SPLBoostRegressorCV`) share around their final model: the
  data their boosters take, the fit's seeds, the checks of ``X`` at prediction, and
  what is delegated to ``best_estimator_``.
"""

from __future__ import annotations

import copy
import warnings

import numpy as np
from numpy.typing import NDArray
from sklearn.utils import _safe_indexing, check_random_state
from sklearn.utils.validation import check_is_fitted

from ._boosting import BaseBoostingClassifier
from ._validation import CLASS_WEIGHT_DOC, MONOTONIC_CST_DOC, check_number, validated_X
from .interfaces import answer_requests
from .losses import MarginLoss, get_loss
from .self_paced import DropFractionRegularizer, SelfPacedPolicy, default_age, get_regularizer
from .steps import GentleStep, RealStep
from .trees.binning import _kernel_threads

__all__ = [
    "CLASS_WEIGHT_DOC",
    "DEFAULT_WEIGHT_FLOOR",
    "MONOTONIC_CST_DOC",
    "SP_PARAMS_DOC",
    "ClassProbabilityBooster",
    "GentleLossBooster",
    "SearchedFinalModel",
    "SelfPacedMixin",
]

#: LogitBoost's default weight floor (Friedman, Hastie & Tibshirani 2000: "2 x machine zero")
DEFAULT_WEIGHT_FLOOR = 2.0 * np.finfo(np.float64).eps

SP_PARAMS_DOC = """
    age : float, default=2.0
        Self-paced age ``lambda > 0``, compared with the wrapped algorithm's
        per-sample loss (``inf``: no sample is ever dropped, and the plain
        algorithm is reproduced exactly).
    regularizer : str, SPRegularizer or callable, default="hard"
        As in :class:`~robust_boosting.splboost.SPLBoostClassifier`.
    regularizer_params : dict, default=None
    warm_start_rounds : int or "auto", default=3
        ``"auto"``: 3 for two classes or a one-vs-rest problem, ``3 (K - 1)`` for a
        native ``K``-class step (:func:`~robust_boosting.self_paced.default_warm_start_rounds`).
    warm_start_age : float, default=1e6
    inner_iterations : int or "auto", default=1
"""

def _check_number_or_auto(name: str, value, what: str, **bounds) -> None:
    """``value`` is ``"auto"`` or a number passing :func:`check_number` with ``bounds``."""
    if isinstance(value, str):
        if value != "auto":
            raise ValueError(f'{name} must be {what} or "auto", got {value!r}.')
    else:
        check_number(name, value, **bounds)


class SelfPacedMixin:
    """The self-paced parameters of an estimator, validated and turned into its policy.

    Mix it in *before* a booster class (``class X(SelfPacedMixin, Booster)``)
    whose ``__init__`` also stores ``age``, ``regularizer``,
    ``regularizer_params``, ``warm_start_rounds``, ``warm_start_age`` and
    ``inner_iterations`` (as :class:`~robust_boosting.splboost.SPLBoostClassifier`
    documents them). The wrapped booster's step supplies the per-sample loss
    (:meth:`~robust_boosting._boosting.Step.sample_loss`) that
    :class:`~robust_boosting.self_paced.SelfPacedPolicy` compares with ``age``
    and the weights it multiplies by ``v``; with ``age = inf`` (hard
    regularizer) every ``v`` is 1 and the booster is reproduced exactly.
    """

    #: does ``age="auto"`` (:func:`~robust_boosting.self_paced.default_age`) apply? Only
    #: where the boosting weight is the loss compared with ``age`` (``w = exp(-y F)``)
    _auto_age = False

    def _validate_params(self):
        super()._validate_params()
        if self._auto_age:
            _check_number_or_auto("age", self.age, "a number > 0", low=0, allow_inf=True)
        else:
            check_number("age", self.age, low=0, allow_inf=True)
        check_number("warm_start_age", self.warm_start_age, low=0, allow_inf=True)
        _check_number_or_auto("warm_start_rounds", self.warm_start_rounds, "an integer >= 0",
                              low=0, low_open=False, integer=True)
        if self.inner_iterations != "auto":
            check_number("inner_iterations", self.inner_iterations, low=1, low_open=False,
                          integer=True)
        growth = getattr(self, "age_growth", None)
        if growth is not None:
            check_number("age_growth", growth, low=1)
        regularizer = get_regularizer(self.regularizer, self.regularizer_params)
        if isinstance(regularizer, DropFractionRegularizer) and (
                isinstance(self.age, str) or not 0 <= self.age < 1):
            raise ValueError(
                "with regularizer='drop_fraction' the age is the fraction of largest losses "
                f"to drop, a number in [0, 1) (e.g. age=0.1); got age={self.age!r}.")

    def _make_policy(self):
        regularizer = get_regularizer(self.regularizer, self.regularizer_params)
        age = default_age(regularizer) if isinstance(self.age, str) else float(self.age)
        return SelfPacedPolicy(
            regularizer,
            age,
            warm_start_rounds=self.warm_start_rounds,
            warm_start_age=float(self.warm_start_age),
            inner_iterations=self.inner_iterations,
            # only estimators whose step can separate the kept samples (the discrete
            # step, SPLBoostClassifier) have the parameter; the others never need it
            age_growth=getattr(self, "age_growth", None),
        )

    @property
    def excluded_samples_(self) -> np.ndarray:
        """Indices of the training samples with self-paced weight 0 (suspected wrong labels or targets).

        With a one-vs-rest step and more than two classes: one array per class.
        """
        v = self.self_paced_weights_
        if isinstance(v, list):
            return [np.flatnonzero(vk == 0) for vk in v]
        return np.flatnonzero(v == 0)


class _MarginLossBooster(BaseBoostingClassifier):
    """A booster whose step uses a margin loss: the ``loss`` parameter, or the preset's."""

    #: the loss of an estimator without a ``loss`` parameter (a preset)
    _default_loss: str = "exponential"

    def _margin_loss(self) -> MarginLoss:
        # a private copy: the fitted step must not share state with the caller's object
        return copy.deepcopy(get_loss(getattr(self, "loss", self._default_loss)))

    def _validate_params(self):
        super()._validate_params()
        loss = getattr(self, "loss", self._default_loss)
        if not isinstance(loss, (str, MarginLoss)):
            raise TypeError(
                f"loss must be a loss name or a MarginLoss instance, got {type(loss).__name__}."
            )
        get_loss(loss)


class ClassProbabilityBooster(_MarginLossBooster):
    """:class:`~robust_boosting.steps.RealStep` on a margin loss: RealBoost, SavageBoost."""

    def _validate_params(self):
        super()._validate_params()
        check_number("clip", self.clip, low=0, high=0.4999)

    def _make_step(self):
        return RealStep(self._margin_loss(), learning_rate=self.learning_rate, clip=self.clip)


class GentleLossBooster(_MarginLossBooster):
    """:class:`~robust_boosting.steps.GentleStep` on a margin loss: GentleBoost, RBoost."""

    def _make_step(self):
        return GentleStep(self._margin_loss(), learning_rate=self.learning_rate)


class SearchedFinalModel:
    """The parts of a cross-validated estimator around its final model ``best_estimator_``.

    The estimator sets ``feature_schema_`` in ``fit`` (by :func:`validated_X`); a frame
    with categorical columns goes to its boosters as it is, so that their trees split those
    columns into sets of categories, anything else as validated.
    """

    def _has_categorical(self) -> bool:
        schema = getattr(self, "feature_schema_", None)
        return schema is not None and not schema.all_numeric

    def _splits_as_numeric(self) -> bool:
        """Whether the trees split every column as numbers (no categorical column of more
        than two categories: :attr:`~robust_boosting._schema.FeatureSchema.splits_as_numeric`)."""
        schema = getattr(self, "feature_schema_", None)
        return schema is None or schema.splits_as_numeric

    def _fit_data_and_seeds(self, X_in, X) -> tuple:
        """``(X_fit, fold_seed, fit_seed)``: the data the boosters take (``X_in`` as given,
        ``X`` as validated) and the seeds of the folds and of the fits, drawn in that
        order from ``random_state``."""
        X_fit = self.feature_schema_.blank_ignored(X_in) if self._has_categorical() else X
        rng = check_random_state(self.random_state)
        fold_seed = int(rng.randint(np.iinfo(np.int32).max))
        fit_seed = int(rng.randint(np.iinfo(np.int32).max))
        return X_fit, fold_seed, fit_seed

    def _fit_final_model(self, booster, X_fit, y, weight, kept, progress, rounds: str,
                         why: str = "") -> None:
        """Fit ``booster`` as ``best_estimator_`` on the rows ``kept`` (of ``X_fit``, ``y``
        and ``weight``, all rows long), on ``n_jobs`` threads, a progress unit per round;
        ``rounds`` describes its rounds in the stage's record, ``why`` where they come from."""
        X_final = X_fit if kept.size == weight.shape[0] else _safe_indexing(X_fit, kept)
        self.best_estimator_ = booster
        progress.stage("final fit", f"{rounds} rounds on {kept.size:,} rows"
                       + (f": {why}" if why else ""))
        progress.total(booster.n_estimators)

        def round_done(request):  # the booster's fit, a progress unit per round
            if request.first_pass and request.round > 0:
                progress.advance()

        with warnings.catch_warnings(), _kernel_threads(self.n_jobs):
            warnings.simplefilter("ignore")
            # = booster.fit(...) (its threads are this block's), round by round
            answer_requests(booster._fit_requests(X_final, y[kept], sample_weight=weight[kept]),
                            round_done)
        progress.done()

    def _self_paced_dropped(self, y_idx) -> NDArray[np.intp]:
        """The rows (of those it was fitted on, with class indices ``y_idx``) that the final
        model's self-paced weights dropped in its last round."""
        v = getattr(self.best_estimator_, "self_paced_weights_", None)
        if v is None:  # plain LogitBoost (drop fraction 0) keeps every sample
            return np.empty(0, np.intp)
        if isinstance(v, list):  # one-vs-rest: the model of the sample's own label
            v = np.stack(v, axis=1)[np.arange(y_idx.shape[0]), y_idx]
        return np.flatnonzero(v == 0)

    def _check_X(self, X):
        """``X`` checked against the fitted schema, as the final model takes it."""
        check_is_fitted(self)
        X_num = validated_X(self, X, reset=False, allow_nan=True, allow_inf=False)
        return self.feature_schema_.blank_ignored(X) if self._has_categorical() else X_num

    def staged_predict(self, X):
        """:meth:`predict` after each round of the final model."""
        return self.best_estimator_.staged_predict(self._check_X(X))

    @property
    def feature_importances_(self) -> NDArray[np.float64]:
        """The final model's feature importances."""
        check_is_fitted(self)
        return self.best_estimator_.feature_importances_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True  # the histogram trees learn where missing values go
        return tags
