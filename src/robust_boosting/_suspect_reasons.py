"""Why a row is a suspect: the features that push the final model away from its given label.

For each suspect of a cross-validated estimator (:attr:`label_issues_
<robust_boosting.SPLBoostClassifierCV.label_issues_>`), the exact per-feature
contributions of the final model (path-dependent TreeSHAP, ``predict(X,
pred_contrib=True)``; Lundberg et al., *Nature Machine Intelligence* 2 (2020),
Algorithm 2) are turned into each feature's **push** from the given label towards the
suggested one:

- two classes: the contribution to the raw score (``decision_function``, which is
  positive towards ``classes_[1]``), signed towards the suggested class;
- more classes: contribution(suggested class) − contribution(given class), both to the
  per-class raw scores;
- a regression target (:class:`~robust_boosting.SPLBoostRegressorCV`): the contribution
  to the prediction, signed towards the suggested target (the out-of-fold prediction),
  that is, away from the given target, in the target's units.

A suspect of confident learning's count can be one the out-of-fold model classifies as
its given label (its suggested label is then the given one); its push is towards the
likeliest other class of the out-of-fold probabilities (the ``towards`` column of
:func:`explain_suspects`).

Only the suspects' rows of ``X`` are read (``_safe_indexing``); the values shown are the
user's own (category labels of a categorical column).
"""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray
from sklearn.utils import _safe_indexing
from sklearn.utils.validation import check_is_fitted

from ._contributions import feature_names

__all__ = ["explain_suspects", "suspect_contributions"]


def _check_model(model) -> bool:
    """Whether ``model`` (a fitted estimator that ranks suspects) is a regressor."""
    check_is_fitted(model)
    missing = [a for a in ("label_issues_", "label_issue_scores_") if not hasattr(model, a)]
    regressor = hasattr(model, "suggested_targets_")
    if missing or not (regressor or hasattr(model, "suggested_labels_")):
        raise TypeError(
            f"explaining suspects needs an estimator that ranks suspect labels "
            f"(SPLBoostClassifierCV or SPLBoostRegressorCV); {type(model).__name__} has no "
            f"label_issues_ and suggested labels")
    issues = model.label_issues_
    if not (isinstance(issues, np.ndarray) and issues.dtype.kind in "iu"):
        raise TypeError(
            f"explaining suspects needs the suspects as row numbers in memory (label_issues_ "
            f"of SPLBoostClassifierCV or SPLBoostRegressorCV); {type(model).__name__}'s "
            f"label_issues_ is a {type(issues).__name__} of {getattr(issues, 'dtype', '?')}")
    return regressor


def _n_rows(X) -> int:
    return X.shape[0] if hasattr(X, "shape") else len(X)


def _given(model, X, y, rows: NDArray, regressor: bool) -> NDArray:
    """``y`` at ``rows``, checked against the model's training data."""
    n = model.label_issue_scores_.shape[0]
    if _n_rows(X) != n:
        raise ValueError(f"X has {_n_rows(X)} rows, but the model was fitted on {n}: pass the "
                         f"training data the suspects (label_issues_) are rows of")
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != n:
        raise ValueError(f"y must be the {n} training labels (one per row of X), got shape "
                         f"{y.shape}")
    given = y[rows]
    if regressor:
        scale = getattr(model, "residual_scale_", None)
        oof = getattr(model, "oof_predictions_", None)
        if scale is not None and oof is not None and rows.size and not np.allclose(
                np.abs(given.astype(np.float64) - oof[rows]) / scale,
                model.label_issue_scores_[rows]):
            raise ValueError("y is not the target the model was fitted on (the suspects' "
                             "out-of-fold residuals differ): pass the training targets")
        return given
    classes = model.classes_
    known = np.isin(given, classes)
    if not known.all():
        raise ValueError(f"y holds labels the model has no class for, e.g. "
                         f"{given[~known][0]!r}; pass the training labels")
    idx = np.searchsorted(classes, given)
    oof = getattr(model, "oof_proba_", None)
    if oof is not None and rows.size and not np.allclose(
            1.0 - oof[rows, idx], model.label_issue_scores_[rows]):
        raise ValueError("y is not the labels the model was fitted on (the suspects' "
                         "label-issue scores differ): pass the training labels")
    return given


def _towards(model, rows: NDArray, given: NDArray) -> NDArray:
    """The class each suspect's push is towards: the suggested label, or, where it is the
    given one, the likeliest other class out of fold."""
    towards = np.asarray(model.suggested_labels_)[rows].copy()
    same = np.flatnonzero(towards == given)
    oof = getattr(model, "oof_proba_", None)
    if same.size and oof is not None:
        p = oof[rows[same]].copy()
        p[np.arange(same.size), np.searchsorted(model.classes_, given[same])] = -np.inf
        towards[same] = model.classes_[np.argmax(p, axis=1)]
    return towards


def _pushes(model, X_rows, given: NDArray, towards: NDArray, regressor: bool) -> NDArray:
    """Each feature's push on each row of ``X_rows`` from ``given`` towards ``towards``."""
    contrib = np.asarray(model.predict(X_rows, pred_contrib=True), dtype=np.float64)
    if regressor:
        sign = np.sign(towards.astype(np.float64) - given.astype(np.float64))
        return sign[:, None] * contrib[:, :-1]
    classes = model.classes_
    if contrib.ndim == 2:  # two classes: the raw score is towards classes_[1]
        sign = np.where(towards == classes[1], 1.0, -1.0)
        return sign[:, None] * contrib[:, :-1]
    r = np.arange(contrib.shape[0])
    return (contrib[r, np.searchsorted(classes, towards), :-1]
            - contrib[r, np.searchsorted(classes, given), :-1])


def _suspects(model, X, y):
    """``(rows, X_rows, given, towards, push, regressor)`` of the suspects."""
    regressor = _check_model(model)
    rows = np.asarray(model.label_issues_, dtype=np.intp)
    given = _given(model, X, y, rows, regressor)
    towards = (np.asarray(model.suggested_targets_)[rows] if regressor
               else _towards(model, rows, given))
    X_rows = _safe_indexing(X, rows)
    if rows.size == 0:
        n_features = model.n_features_in_
        return rows, X_rows, given, towards, np.zeros((0, n_features)), regressor
    return rows, X_rows, given, towards, _pushes(model, X_rows, given, towards,
                                                 regressor), regressor


def suspect_contributions(model, X: ArrayLike, y: ArrayLike) -> pd.DataFrame:
    """Each feature's push from a suspect's given label towards the suggested one.

    The exact contributions of the final model (path-dependent TreeSHAP, ``predict(X,
    pred_contrib=True)``) on the suspects' rows, signed so that a positive value pushes
    the model away from the given label: for two classes, the contribution to the raw
    score towards the suggested class; for more, contribution(suggested) −
    contribution(given); for a regressor, the contribution to the prediction towards
    the suggested target (the out-of-fold prediction). Where a suspect's suggested label
    is its given label (a suspect of confident learning's count that the out-of-fold
    model still classifies as its label), the push is towards the likeliest other class
    (the ``towards`` column of :func:`explain_suspects`).

    Parameters
    ----------
    model : SPLBoostClassifierCV or SPLBoostRegressorCV
        Fitted, with the library's trees as weak learners.
    X : array-like or DataFrame of shape (n_samples, n_features)
        The training data the model was fitted on; only the suspects' rows are read.
    y : array-like of shape (n_samples,)
        The training labels (or targets) the model was fitted on.

    Returns
    -------
    DataFrame of shape (n_suspects, n_features)
        One row per suspect, indexed by its row number in ``X`` (``label_issues_``,
        index name ``"row"``), one column per feature (``feature_names_in_``, else
        ``x0``, ``x1``, ...), in raw-score units (a regressor: the target's units).

    Raises
    ------
    TypeError
        If ``model`` ranks no suspects, or its weak learners are not the library's trees.
    ValueError
        If ``X`` or ``y`` are not the model's training data (their lengths, or the
        suspects' label-issue scores, differ), or if the model was loaded from a file
        without the trees' covers (refit it).

    See Also
    --------
    explain_suspects : the top features of each suspect as a table.

    Examples
    --------
    >>> from robust_boosting import SPLBoostClassifierCV, datasets, noise
    >>> from robust_boosting import suspect_contributions
    >>> X, y = datasets.load_dataset("wdbc", return_X_y=True)
    >>> y_noisy, _ = noise.flip_labels(y, 0.2, random_state=0)
    >>> clf = SPLBoostClassifierCV(random_state=0).fit(X, y_noisy)
    >>> push = suspect_contributions(clf, X, y_noisy)
    >>> push.shape == (len(clf.label_issues_), X.shape[1])
    True
    """
    rows, _, _, _, push, _ = _suspects(model, X, y)
    names = feature_names(model, push.shape[1])
    return pd.DataFrame(push, index=pd.Index(rows, name="row"), columns=names)


def _value_text(value) -> str:
    """A feature value as the reasons show it: numbers to 4 significant digits."""
    if value is None or (isinstance(value, float | np.floating) and np.isnan(value)) \
            or value is pd.NA or value is pd.NaT:
        return "missing"
    if isinstance(value, bool | np.bool_):
        return str(bool(value))
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        return f"{float(value):.4g}"
    return str(value)


def _row_values(X_rows, i: int, columns: NDArray) -> list:
    """The user's values of row ``i`` of ``X_rows`` at ``columns``."""
    if hasattr(X_rows, "iloc"):
        return [X_rows.iloc[i, j] for j in columns]
    row = X_rows[i]
    if hasattr(row, "toarray"):  # a sparse row
        row = row.toarray().ravel()
    return [row[j] for j in columns]


def format_reasons(names, values, push, *, top: int = 3) -> str:
    """The ``why`` text of one row: its ``top`` largest positive pushes, largest first.

    Parameters
    ----------
    names : sequence of str
        The features' names.
    values : sequence
        The row's values of those features.
    push : array-like of float
        Each feature's push (:func:`suspect_contributions`).
    top : int, default=3

    Returns
    -------
    str
        ``"name=value (+push); ..."``, e.g. ``"lvrat=0.93 (+1.21); insurance=yes
        (+0.84)"``: values to 4 significant digits (a category as its label, a
        missing value as ``missing``), pushes to 3 with their sign; empty when no
        feature pushes away from the given label.
    """
    push = np.asarray(push, dtype=np.float64)
    order = np.argsort(-push, kind="stable")[:top]
    return "; ".join(f"{names[j]}={_value_text(values[j])} ({push[j]:+.3g})"
                     for j in order if push[j] > 0)


def explain_suspects(model, X: ArrayLike, y: ArrayLike, *, top: int = 3) -> pd.DataFrame:
    """Why each suspect label is suspect: its given and suggested label, and the features
    that most push the final model from the one towards the other.

    The pushes are those of :func:`suspect_contributions`; ``why`` lists the ``top``
    largest positive ones with the row's values, as the ``why`` column of
    ``robust-boosting fit --label-issues`` does.

    Parameters
    ----------
    model : SPLBoostClassifierCV or SPLBoostRegressorCV
        Fitted, with the library's trees as weak learners.
    X : array-like or DataFrame of shape (n_samples, n_features)
        The training data the model was fitted on; only the suspects' rows are read.
    y : array-like of shape (n_samples,)
        The training labels (or targets) the model was fitted on.
    top : int, default=3
        How many features each ``why`` names at most.

    Returns
    -------
    DataFrame
        One row per suspect, in the order of ``label_issues_``, indexed by its row
        number in ``X`` (index name ``"row"``). A classifier's columns:
        ``given_label``, ``suggested_label``, ``towards`` (the class the push is
        towards: the suggested label, or the likeliest other class where the
        suggested label is the given one), ``score`` (``label_issue_scores_``) and
        ``why``, e.g. ``"lvrat=0.93 (+1.21); insurance=yes (+0.84)"`` (see
        :func:`format_reasons`). A regressor's: ``given_target``,
        ``suggested_target``, ``score`` and ``why`` (pushes in the target's units).

    Raises
    ------
    TypeError, ValueError
        As :func:`suspect_contributions`; ValueError if ``top`` is not a positive
        integer.

    Examples
    --------
    >>> from robust_boosting import SPLBoostClassifierCV, datasets, explain_suspects, noise
    >>> X, y = datasets.load_dataset("wdbc", return_X_y=True)
    >>> y_noisy, _ = noise.flip_labels(y, 0.2, random_state=0)
    >>> clf = SPLBoostClassifierCV(random_state=0).fit(X, y_noisy)
    >>> table = explain_suspects(clf, X, y_noisy, top=2)
    >>> list(table.columns)
    ['given_label', 'suggested_label', 'towards', 'score', 'why']
    """
    if not (isinstance(top, numbers.Integral) and not isinstance(top, bool) and top >= 1):
        raise ValueError(f"top must be a positive integer, got {top!r}.")
    rows, X_rows, given, towards, push, regressor = _suspects(model, X, y)
    names = feature_names(model, push.shape[1])
    why = []
    for i in range(rows.size):
        order = np.argsort(-push[i], kind="stable")[:top]
        values = dict(zip(order.tolist(), _row_values(X_rows, i, order), strict=True))
        why.append(format_reasons(names, [values.get(j) for j in range(len(names))],
                                  push[i], top=top))
    word = "target" if regressor else "label"
    suggested = getattr(model, f"suggested_{word}s_")
    table = {f"given_{word}": given, f"suggested_{word}": np.asarray(suggested)[rows]}
    if not regressor:
        table["towards"] = towards
    table["score"] = model.label_issue_scores_[rows]
    table["why"] = why
    return pd.DataFrame(table, index=pd.Index(rows, name="row"))
