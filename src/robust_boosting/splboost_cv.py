"""SPLBoostClassifierCV: self-paced boosting that cross-validates itself and ranks suspect labels.

The estimator composes :class:`~robust_boosting.classical.SPLLogitBoostClassifier`
(Newton steps on the logistic loss, histogram regression trees, self-paced
weights from :class:`~robust_boosting.self_paced.SelfPacedPolicy`) with the
age read as a *drop fraction* (:class:`~robust_boosting.self_paced.DropFractionRegularizer`):
each round ignores the given fraction of training samples of largest current
loss. One internal cross-validation on the training labels

1. fits every candidate setting (tree depth x learning rate x cross-validation
   drop fraction) on every fold, and picks the setting and the number of rounds
   by the trimmed held-out log-loss of the staged predictions (early stopping);
2. gives the out-of-fold class probabilities of the chosen setting: the
   per-sample label-issue scores, and, with ``drop_fraction="auto"``, the
   estimated noise rate from the confident joint of Northcutt, Jiang & Chuang
   (2021), which becomes the drop fraction of the final fit on all the data.

References
----------
.. [SPL] K. Wang, Y. Wang, Q. Zhao, D. Meng, Z. Xu, "SPLBoost: An Improved
   Robust Boosting Algorithm Based on Self-paced Learning", IEEE Trans.
   Cybernetics, 2019.
.. [FHT] J. Friedman, T. Hastie, R. Tibshirani, "Additive logistic regression:
   a statistical view of boosting", Annals of Statistics 28(2), 2000.
.. [CL] C. Northcutt, L. Jiang, I. Chuang, "Confident learning: estimating
   uncertainty in dataset labels", Journal of Artificial Intelligence
   Research 70, 2021 (Sec. 3.1, the confident joint, eqs. (1)-(2)).
"""

from __future__ import annotations

import itertools
import numbers
import warnings
from collections.abc import Iterator, Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.model_selection import StratifiedKFold, check_cv
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.parallel import Parallel, delayed
from sklearn.utils.validation import _check_sample_weight, check_is_fitted

from ._validation import check_number, validated_X
from .classical import SPLLogitBoostClassifier
from .trees import HistTreeRegressor

__all__ = ["SPLBoostClassifierCV", "confident_joint", "estimate_noise_rate"]

#: drop fraction of the cross-validation models when ``drop_fraction="auto"``
AUTO_CV_FRACTION = 0.1
#: largest drop fraction ``"auto"`` may choose (beyond it the labels carry little signal)
MAX_AUTO_FRACTION = 0.45
#: estimated noise rates below this are treated as clean labels (drop fraction 0)
MIN_AUTO_FRACTION = 0.02
#: probabilities are clipped to [_EPS, 1] inside the held-out log-loss
_EPS = 1e-12


def _as_tuple(name: str, value, check) -> tuple:
    values = tuple(value) if isinstance(value, (list, tuple, np.ndarray)) else (value,)
    if not values:
        raise ValueError(f"{name} must not be empty.")
    for v in values:
        check(v)
    return values


def confident_joint(proba: ArrayLike, y: ArrayLike, n_classes: int | None = None) -> NDArray:
    """Calibrated confident joint ``C[i, j]``: samples labelled ``i`` whose class is likely ``j``.

    Confident learning ([CL]_ eqs. (1)-(2)): the threshold of class ``j`` is the
    mean predicted probability of ``j`` over the samples labelled ``j``; a
    sample counts in ``C[label, j]`` for the class ``j`` of largest probability
    among those at or above their threshold (samples above none are not
    counted). Each row is then rescaled so that it sums to the number of
    samples with that label.

    Parameters
    ----------
    proba : array-like of shape (n_samples, n_classes)
        Out-of-sample class probabilities.
    y : array-like of shape (n_samples,)
        Given labels as class indices ``0 .. n_classes - 1``.
    n_classes : int, optional
        Defaults to ``proba.shape[1]``.

    Returns
    -------
    ndarray of shape (n_classes, n_classes)
    """
    proba = np.asarray(proba, dtype=np.float64)
    y = np.asarray(y, dtype=np.intp)
    k = proba.shape[1] if n_classes is None else n_classes
    counts = np.bincount(y, minlength=k).astype(np.float64)
    thresholds = np.array([proba[y == j, j].mean() if counts[j] else np.inf for j in range(k)])
    above = proba >= thresholds
    guess = np.argmax(np.where(above, proba, -np.inf), axis=1)
    confident = above.any(axis=1)
    joint = np.zeros((k, k))
    np.add.at(joint, (y[confident], guess[confident]), 1.0)
    rows = joint.sum(axis=1)
    scale = np.divide(counts, rows, out=np.zeros(k), where=rows > 0)
    return joint * scale[:, None]


def estimate_noise_rate(proba: ArrayLike, y: ArrayLike, one_vs_rest: bool = False) -> float:
    """Fraction of labels estimated to be wrong, from the :func:`confident_joint`.

    ``one_vs_rest=True`` (more than two classes): the mean over classes ``k``
    of the fraction of samples whose "class ``k`` or not" label is wrong,
    ``(sum_{j != k} C[k, j] + sum_{i != k} C[i, k]) / n``: the noise rate each
    binary one-vs-rest problem sees.
    """
    joint = confident_joint(proba, y)
    n = joint.sum()
    if n == 0:
        return 0.0
    off = joint - np.diag(np.diag(joint))
    if not one_vs_rest or joint.shape[0] == 2:
        return float(off.sum() / n)
    per_class = (off.sum(axis=1) + off.sum(axis=0)) / n
    return float(per_class.mean())


def _make_booster(max_depth: int, learning_rate: float, drop_fraction: float, n_estimators: int,
                  random_state: int) -> SPLLogitBoostClassifier:
    """The one configuration every candidate and the final fit use.

    A drop fraction of 0 is the hard regularizer at infinite age: LogitBoost exactly.
    """
    sp = (dict(regularizer="hard", age=np.inf) if drop_fraction == 0
          else dict(regularizer="drop_fraction", age=float(drop_fraction)))
    return SPLLogitBoostClassifier(HistTreeRegressor(max_depth=max_depth),
                                   n_estimators=n_estimators, learning_rate=learning_rate,
                                   random_state=random_state, **sp)


def _fit_one(X, y, sample_weight, train, test, params, n_estimators, seed):
    """Fit one candidate on one fold; its staged held-out probabilities, ``(T, n_test, K)`` float32."""
    est = _make_booster(params["max_depth"], params["learning_rate"], params["drop_fraction"],
                        n_estimators, seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # early stops are handled by padding below
        est.fit(X[train], y[train], sample_weight=sample_weight[train])
    staged = np.asarray(list(est.staged_predict_proba(X[test])), dtype=np.float32)
    if staged.shape[0] < n_estimators:  # stopped early: the model stays as it is
        pad = np.repeat(staged[-1:], n_estimators - staged.shape[0], axis=0)
        staged = np.concatenate([staged, pad])
    return staged


def _fit_candidates(X, y, sample_weight, folds, candidates, n_estimators, seed, n_jobs):
    """Staged held-out class probabilities of every candidate on every fold.

    Returns ``out[c][f]``: array ``(n_estimators, len(folds[f][1]), n_classes)``.
    The single place where the search trains models, so a batched engine that
    fits the folds x candidates in one pass over the binned data can replace it.
    """
    jobs = [(c, f) for c in range(len(candidates)) for f in range(len(folds))]
    results = Parallel(n_jobs=n_jobs)(
        delayed(_fit_one)(X, y, sample_weight, folds[f][0], folds[f][1], candidates[c],
                          n_estimators, seed)
        for c, f in jobs
    )
    out = [[None] * len(folds) for _ in candidates]
    for (c, f), staged in zip(jobs, results, strict=True):
        out[c][f] = staged
    return out


def _trimmed_losses(staged, y_test, w_test, trim):
    """Per stage, the weighted mean held-out log-loss without the ``trim`` fraction largest losses."""
    p = staged[:, np.arange(y_test.shape[0]), y_test].astype(np.float64)
    loss = -np.log(np.clip(p, _EPS, 1.0))  # (T, n_test)
    m = int(np.floor(trim * loss.shape[1]))
    if m:
        order = np.argsort(-loss, axis=1, kind="stable")[:, :m]
        keep = np.ones_like(loss, dtype=bool)
        np.put_along_axis(keep, order, False, axis=1)
    else:
        keep = np.ones_like(loss, dtype=bool)
    w = np.where(keep, w_test[None, :], 0.0)
    total = w.sum(axis=1)
    return np.divide((w * loss).sum(axis=1), total, out=np.full(loss.shape[0], np.inf),
                     where=total > 0)


class SPLBoostClassifierCV(ClassifierMixin, BaseEstimator):
    """Self-paced LogitBoost of histogram trees, tuned by its own cross-validation.

    The robust default of the library for noisy labels, in the manner of
    scikit-learn's ``LogisticRegressionCV``: ``fit`` runs an internal
    cross-validation on the (possibly noisy) training labels, chooses the tree
    depth, learning rate, number of rounds and the fraction of training samples
    the self-paced weights drop, then refits the chosen model on all the data.
    It also ranks the training samples by how likely their label is wrong.

    The model is :class:`~robust_boosting.classical.SPLLogitBoostClassifier`:
    Newton steps on the logistic loss ([FHT]_ Algorithm 3) with shrinkage and
    regression trees, and hard self-paced weights ([SPL]_ Algorithm 1) whose
    age is a fraction: every round drops the ``drop_fraction`` training samples
    of largest logistic loss (:class:`~robust_boosting.self_paced.DropFractionRegularizer`),
    after ``warm_start_rounds`` rounds that keep every sample.

    The search:

    1. stratified ``cv``-fold split; every candidate (``max_depth`` x
       ``learning_rate`` x drop fraction) is fitted on every training part for
       ``n_estimators`` rounds;
    2. its score after each round is the held-out log-loss of the given labels
       without the largest ``trim`` fraction of held-out losses (``trim`` = the
       largest candidate drop fraction), so that mislabelled held-out samples
       do not decide; the best candidate and round minimise the mean over folds;
    3. the best candidate's out-of-fold probabilities at that round give
       :attr:`label_issue_scores_` (``1 - P(given label)``); with
       ``drop_fraction="auto"`` they also give the noise-rate estimate of
       confident learning ([CL]_, :func:`estimate_noise_rate`), which is the
       drop fraction of the final fit (0 below 2 %, at most 45 %);
    4. the final model is fitted on all the data with the chosen parameters.

    Parameters
    ----------
    drop_fraction : "auto", float or sequence of floats, default="auto"
        Fraction in ``[0, 1)`` of training samples that each self-paced round
        drops. ``"auto"``: the cross-validation models drop 10 % and the final
        fraction is the estimated noise rate. A sequence: candidates of the
        search (chosen by the trimmed held-out loss). ``0`` is plain LogitBoost.
    max_depth : int or sequence of int, default=3
        Depth of the regression trees (a sequence: candidates of the search).
    learning_rate : float or sequence of float, default=0.1
        Shrinkage of each Newton step (a sequence: candidates of the search).
    n_estimators : int, default=200
        Maximum number of rounds; the search picks the number of rounds of
        the final model (early stopping on the held-out folds).
    cv : int, cross-validation generator or iterable, default=3
        As in scikit-learn; an int gives a shuffled ``StratifiedKFold``
        seeded from ``random_state``.
    n_jobs : int or None, default=None
        Number of candidate x fold fits run in parallel (joblib). The result
        does not depend on it.
    random_state : int, RandomState or None, default=None
        Seeds the fold split and the weak learners.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    best_params_ : dict
        ``max_depth``, ``learning_rate``, ``n_estimators`` (rounds) and
        ``drop_fraction`` of the final model.
    best_score_ : float
        Minus the trimmed held-out log-loss of the best candidate (higher is better).
    best_estimator_ : SPLLogitBoostClassifier
        The final model, fitted on all the data.
    cv_results_ : dict of ndarrays
        One entry per candidate, as in ``GridSearchCV``: ``params``,
        ``param_max_depth``, ``param_learning_rate``, ``param_drop_fraction``,
        ``n_estimators`` (best round), ``split{k}_test_score``,
        ``mean_test_score``, ``std_test_score``, ``rank_test_score``
        (scores are minus the trimmed held-out log-loss).
    noise_rate_ : float
        Confident-learning estimate of the fraction of wrong training labels
        (one-vs-rest rate for more than two classes).
    oof_proba_ : ndarray of shape (n_samples, n_classes)
        Out-of-fold class probabilities of the best candidate at its best round.
    label_issue_scores_ : ndarray of shape (n_samples,)
        ``1 - oof_proba_[i, given label]``: higher means more likely mislabelled.
    excluded_samples_ : ndarray of int
        Training samples the final model's self-paced weights dropped (for
        more than two classes: dropped by the one-vs-rest model of their own label).
    n_features_in_, feature_names_in_
        As in scikit-learn.
    """

    def __init__(self, drop_fraction: str | float | Sequence[float] = "auto",
                 max_depth: int | Sequence[int] = 3,
                 learning_rate: float | Sequence[float] = 0.1, n_estimators: int = 200,
                 cv=3, n_jobs: int | None = None, random_state=None):
        self.drop_fraction = drop_fraction
        self.max_depth = max_depth
        self.learning_rate = learning_rate
        self.n_estimators = n_estimators
        self.cv = cv
        self.n_jobs = n_jobs
        self.random_state = random_state

    # ------------------------------------------------------------------ params
    def _candidates(self) -> tuple[list[dict], bool]:
        depths = _as_tuple("max_depth", self.max_depth, lambda v: check_number(
            "max_depth", v, low=1, low_open=False, integer=True))
        rates = _as_tuple("learning_rate", self.learning_rate,
                          lambda v: check_number("learning_rate", v, low=0))
        auto = isinstance(self.drop_fraction, str)
        if auto:
            if self.drop_fraction != "auto":
                raise ValueError(
                    f"drop_fraction must be 'auto', a float in [0, 1) or a sequence of them, "
                    f"got {self.drop_fraction!r}.")
            fractions = (AUTO_CV_FRACTION,)
        else:
            fractions = _as_tuple("drop_fraction", self.drop_fraction, lambda v: check_number(
                "drop_fraction", v, low=0, low_open=False, high=np.nextafter(1.0, 0.0)))
        check_number("n_estimators", self.n_estimators, low=1, low_open=False, integer=True)
        grid = [dict(max_depth=int(d), learning_rate=float(r), drop_fraction=float(f))
                for d, r, f in itertools.product(depths, rates, fractions)]
        return grid, auto

    def _folds(self, X, y, seed):
        cv = self.cv
        if cv is None or isinstance(cv, numbers.Integral):
            n_splits = 3 if cv is None else int(cv)
            if isinstance(cv, bool) or n_splits < 2:
                raise ValueError(f"cv must be an integer >= 2, a splitter or an iterable, got {cv!r}.")
            counts = np.bincount(y)
            if counts.max() < n_splits:
                raise ValueError(
                    f"cv={n_splits} folds need at least {n_splits} samples in some class; "
                    f"the largest class has {counts.max()}.")
            cv = StratifiedKFold(n_splits, shuffle=True, random_state=seed)
        cv = check_cv(cv, y, classifier=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # a class smaller than n_splits
            folds = [(np.asarray(tr), np.asarray(te)) for tr, te in cv.split(X, y)]
        if not folds:
            raise ValueError("cv produced no train/test split.")
        return folds

    # --------------------------------------------------------------------- fit
    def fit(self, X: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None = None):
        """Cross-validate the candidates, then fit the chosen model on all the data.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data (numeric, finite).
        y : array-like of shape (n_samples,)
            Class labels, possibly noisy.
        sample_weight : array-like of shape (n_samples,), optional
            Non-negative weights, used by every fit and by the held-out scores.

        Returns
        -------
        self
        """
        candidates, auto = self._candidates()
        X, y = validated_X(self, X, y, reset=True, allow_nan=False)
        check_classification_targets(y)
        classes, y_idx = np.unique(y, return_inverse=True)
        y_idx = y_idx.astype(np.intp)
        if classes.shape[0] < 2:
            raise ValueError(
                f"y contains only one class ({classes[0]!r}); a classifier needs at least 2 classes."
            )
        sw = _check_sample_weight(sample_weight, X, dtype=np.float64, ensure_non_negative=True)
        if not sw.sum() > 0:
            raise ValueError("sample_weight sums to zero: at least one sample needs a positive weight.")
        n_classes = classes.shape[0]
        rng = check_random_state(self.random_state)
        fold_seed = int(rng.randint(np.iinfo(np.int32).max))
        fit_seed = int(rng.randint(np.iinfo(np.int32).max))
        folds = self._folds(X, y_idx, fold_seed)

        staged = _fit_candidates(X, y_idx, sw, folds, candidates, self.n_estimators, fit_seed,
                                 self.n_jobs)

        trim = max(c["drop_fraction"] for c in candidates)
        curves = np.array([[_trimmed_losses(staged[c][f], y_idx[te], sw[te], trim)
                            for f, (_, te) in enumerate(folds)]
                           for c in range(len(candidates))])  # (C, F, T)
        mean_curve = curves.mean(axis=1)
        best_round = np.argmin(mean_curve, axis=1)  # first minimum: fewest rounds
        scores = -curves[np.arange(len(candidates)), :, best_round]  # (C, F)
        mean_scores = scores.mean(axis=1)
        best = int(np.argmax(mean_scores))
        rounds = int(best_round[best]) + 1

        oof = np.zeros((X.shape[0], n_classes))
        for f, (_, te) in enumerate(folds):
            oof[te] = staged[best][f][best_round[best]]
        self.oof_proba_ = oof
        self.label_issue_scores_ = 1.0 - oof[np.arange(X.shape[0]), y_idx]
        self.noise_rate_ = estimate_noise_rate(oof, y_idx, one_vs_rest=n_classes > 2)
        if auto:
            fraction = self.noise_rate_ if self.noise_rate_ >= MIN_AUTO_FRACTION else 0.0
            fraction = float(min(fraction, MAX_AUTO_FRACTION))
        else:
            fraction = candidates[best]["drop_fraction"]

        self.cv_results_ = self._results_table(candidates, scores, best_round)
        self.best_score_ = float(mean_scores[best])
        self.best_params_ = dict(candidates[best], n_estimators=rounds, drop_fraction=fraction)
        self.best_index_ = best
        p = self.best_params_
        self.best_estimator_ = _make_booster(p["max_depth"], p["learning_rate"], fraction, rounds,
                                             fit_seed)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            self.best_estimator_.fit(X, y, sample_weight=sw)
        self.classes_ = self.best_estimator_.classes_
        self.excluded_samples_ = self._own_label_excluded(y_idx)
        return self

    def _own_label_excluded(self, y_idx) -> NDArray[np.intp]:
        v = self.best_estimator_.self_paced_weights_
        if isinstance(v, list):  # one-vs-rest: the model of the sample's own label
            v = np.stack(v, axis=1)[np.arange(y_idx.shape[0]), y_idx]
        return np.flatnonzero(v == 0)

    @staticmethod
    def _results_table(candidates, scores, best_round) -> dict:
        mean = scores.mean(axis=1)
        order = np.argsort(-mean, kind="stable")
        rank = np.empty(len(candidates), dtype=np.int32)
        rank[order] = np.arange(1, len(candidates) + 1)
        res: dict = {"params": [dict(c) for c in candidates]}
        for key in ("max_depth", "learning_rate", "drop_fraction"):
            res[f"param_{key}"] = np.array([c[key] for c in candidates])
        res["n_estimators"] = best_round + 1
        for f in range(scores.shape[1]):
            res[f"split{f}_test_score"] = scores[:, f]
        res["mean_test_score"] = mean
        res["std_test_score"] = scores.std(axis=1)
        res["rank_test_score"] = rank
        return res

    # ----------------------------------------------------------------- predict
    def _check_X(self, X):
        check_is_fitted(self)
        return validated_X(self, X, reset=False, allow_nan=False)

    def decision_function(self, X: ArrayLike) -> NDArray[np.float64]:
        """Score of the final model (see :meth:`SPLLogitBoostClassifier.decision_function`)."""
        X = self._check_X(X)
        return self.best_estimator_.decision_function(X)

    def predict(self, X: ArrayLike) -> NDArray:
        """Predicted class labels of the final model."""
        X = self._check_X(X)
        return self.best_estimator_.predict(X)

    def predict_proba(self, X: ArrayLike) -> NDArray[np.float64]:
        """Class probabilities of the final model."""
        X = self._check_X(X)
        return self.best_estimator_.predict_proba(X)

    def predict_log_proba(self, X: ArrayLike) -> NDArray[np.float64]:
        """Logarithm of :meth:`predict_proba`."""
        X = self._check_X(X)
        return self.best_estimator_.predict_log_proba(X)

    def staged_predict(self, X: ArrayLike) -> Iterator[NDArray]:
        """:meth:`predict` after each round of the final model."""
        X = self._check_X(X)
        return self.best_estimator_.staged_predict(X)

    def staged_predict_proba(self, X: ArrayLike) -> Iterator[NDArray[np.float64]]:
        """:meth:`predict_proba` after each round of the final model."""
        X = self._check_X(X)
        return self.best_estimator_.staged_predict_proba(X)

    @property
    def feature_importances_(self) -> NDArray[np.float64]:
        """The final model's feature importances."""
        check_is_fitted(self)
        return self.best_estimator_.feature_importances_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = False
        return tags
