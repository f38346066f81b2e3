"""A fitted boosting run (:class:`Ensemble`) and the boosters' prediction from it.

:class:`Ensemble` holds one (binary or native multiclass) run's learners and
coefficients; :class:`EnsemblePrediction` is the boosters' prediction from their
fitted ensembles (``decision_function``, ``predict_proba``, the ``staged_*`` family,
``feature_importances_``), mixed into
:class:`~robust_boosting._boosting.BaseBoostingClassifier`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.special import expit
from sklearn.metrics import accuracy_score
from sklearn.utils import get_tags
from sklearn.utils.validation import check_is_fitted

from ._interfaces import MAX_ROUNDS_REASON
from ._validation import validated_X

__all__ = ["Ensemble", "EnsemblePrediction"]


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


class EnsemblePrediction:
    """Prediction of a fitted booster from its ensembles (``ensembles_``, ``step_``,
    ``classes_``, ``_ovr``)."""

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
