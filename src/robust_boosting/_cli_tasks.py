"""The task of ``robust-boosting fit`` (classification or regression) chosen from the label
column, the ``--label-issues`` file of both tasks, the lines of ``fit``'s summary that say
what its number measures and which identifier columns it left out, and ``predict``'s line
scoring a regressor against the label column."""

from __future__ import annotations

import numpy as np

__all__ = ["MAX_CLASSES", "check_regression_label", "choose_task", "fit_score_line",
           "identifier_line", "regression_score_line", "write_label_issues"]

#: ``--task auto``: a numeric label of integers with more distinct values than this is a
#: regression target
MAX_CLASSES = 50


def choose_task(column, task: str = "auto") -> tuple[str, str]:
    """The task of a ``fit`` on the label ``column`` and the reason, for the line ``fit``
    prints.

    The rule of ``task="auto"``: the label is a regression target when its column is
    numeric (not boolean) and either holds a non-integer value or has more than
    :data:`MAX_CLASSES` (50) distinct values; otherwise it is a class label.

    Parameters
    ----------
    column : pandas.Series
        The label column as read from the CSV file (without missing values), named by
        its ``name``.
    task : {"auto", "classification", "regression"}, default="auto"
        ``fit``'s ``--task``; an explicit task is returned as is (regression on a label
        that is not numeric is an error from :func:`check_regression_label`).

    Returns
    -------
    task : {"classification", "regression"}
    reason : str
        E.g. ``"label 'price' is numeric with non-integer values; --task classification
        to override"``.
    """
    import pandas as pd

    if task != "auto":
        return task, f"--task {task}"
    name = column.name
    if pd.api.types.is_bool_dtype(column):
        return "classification", f"label {name!r} is boolean"
    if not pd.api.types.is_numeric_dtype(column):
        return "classification", f"label {name!r} is not numeric"
    values = column.to_numpy(dtype=np.float64)
    finite = values[np.isfinite(values)]
    if (finite != np.round(finite)).any():
        return "regression", (f"label {name!r} is numeric with non-integer values; "
                              f"--task classification to override")
    levels = column.nunique()
    if levels > MAX_CLASSES:
        return "regression", (f"label {name!r} is numeric with {levels} distinct values, "
                              f"more than {MAX_CLASSES}; --task classification to override")
    return "classification", (f"label {name!r} has {levels} distinct integer values, at "
                              f"most {MAX_CLASSES}; --task regression to override")


def check_regression_label(column) -> None:
    """Raise a one-line ValueError unless the label ``column`` is a numeric, non-boolean
    column: a regression target. The message names the column and the (physical) line
    of the first cell that is not a number (the frame's index, as
    :func:`robust_boosting._cli_files.read_csv` sets it)."""
    import pandas as pd

    name = column.name
    if pd.api.types.is_bool_dtype(column):
        raise ValueError(f"--task regression needs a numeric label, but column {name!r} is "
                         f"boolean (e.g. {column.iloc[0]!r} on line {column.index[0]})")
    if pd.api.types.is_numeric_dtype(column):
        return
    bad = pd.to_numeric(column, errors="coerce").isna() & column.notna()
    line = column.index[int(np.argmax(bad.to_numpy()))] if bad.any() else column.index[0]
    raise ValueError(f"--task regression needs a numeric label, but column {name!r} holds "
                     f"text, e.g. {column.loc[line]!r} on line {line}: use --task "
                     f"classification, or make every cell of the column a number")


def write_label_issues(est, lines, y, path, task: str = "classification", *,
                       X=None) -> None:
    """Write one row per training row, most suspect first (ties by line).

    Each row holds its CSV line number, the given label (or target), the one the
    out-of-fold model suggests, the label-issue score, whether the estimator counts it
    as a suspect and, for a suspect, why (:func:`~robust_boosting.explain_suspects` on
    the training data ``X``: the 3 features that most push the final model from the
    given label towards the suggested one, ``name=value (+push); ...``; empty for the
    other rows, and for a suspect no feature pushes that way). The columns are ``line,
    given_label, suggested_label, score, suspect, why`` for a classifier
    (:class:`~robust_boosting.SPLBoostClassifierCV`: the score is 1 - the out-of-fold
    probability of the given label) and ``line, given_target, suggested_target, score,
    suspect, why`` for a regressor (:class:`~robust_boosting.SPLBoostRegressorCV`: the
    suggested target is the out-of-fold prediction, the score the out-of-fold residual
    in robust standard deviations, the pushes in the target's units). Without ``X``
    there is no ``why`` column. The file is replaced atomically: no
    half-written file if interrupted.
    """
    import pandas as pd

    from ._model_io import replaced_atomically
    from ._suspect_reasons import explain_suspects

    word = "target" if task == "regression" else "label"
    suspect = np.zeros(len(y), dtype=bool)
    suspect[est.label_issues_] = True
    table = pd.DataFrame({"line": np.asarray(lines), f"given_{word}": y,
                          f"suggested_{word}": getattr(est, f"suggested_{word}s_"),
                          "score": est.label_issue_scores_, "suspect": suspect})
    if X is not None:
        why = np.full(len(y), "", dtype=object)
        why[est.label_issues_] = explain_suspects(est, X, y, top=3)["why"].to_numpy()
        table["why"] = why
    order = np.lexsort((table["line"].to_numpy(), -table["score"].to_numpy()))
    with replaced_atomically(path) as tmp:
        table.iloc[order].to_csv(tmp, index=False)


def fit_score_line(est, X, y, task: str = "classification") -> str:
    """The number of ``fit``'s summary, saying what it measures and on which rows.

    * a regressor with out-of-fold predictions (:class:`~robust_boosting.SPLBoostRegressorCV`):
      the RMSE of its ``oof_predictions_`` on the rows whose target is not a suspect
      (``label_issues_``), e.g. ``"out-of-fold RMSE 1.347 on the 1,795 rows not suspect,
      the 205 suspect target(s) left out"``: measured on all the rows, the wrong targets
      would make the RMSE of a good model large;
    * another regressor: its training RMSE against the targets as given, on the rows it did
      not leave out (``excluded_samples_``, the self-paced weights' of the last round);
    * a classifier: its training error against the labels as given, on every row (the
      suspects, whose labels the model is meant not to follow, included).
    """
    y_true = np.asarray(y)
    n = y_true.shape[0]
    if task != "regression":
        error = 1.0 - float(est.score(X, y_true))
        issues = getattr(est, "label_issues_", None)
        note = (f", the {len(issues):,} suspect label(s) included" if issues is not None
                and len(issues) else "")
        return f"training error {error:.2%} against the given labels of all {n:,} rows{note}"
    y_true = y_true.astype(np.float64)
    oof = getattr(est, "oof_predictions_", None)
    if oof is not None:
        suspect = np.zeros(n, dtype=bool)
        suspect[est.label_issues_] = True
        k = int(suspect.sum())
        r = oof[~suspect] - y_true[~suspect]
        rmse = np.sqrt(np.mean(r * r)) if r.size else np.nan
        if not k:
            return f"out-of-fold RMSE {rmse:.4g} on all {n:,} rows, none suspect"
        kept = ("left out" if getattr(est, "remove_label_issues_", True)
                else "left out of this measure (the model kept them)")
        return (f"out-of-fold RMSE {rmse:.4g} on the {n - k:,} rows not suspect, the {k:,} "
                f"suspect target(s) {kept}")
    left_out = np.zeros(n, dtype=bool)
    left_out[np.asarray(getattr(est, "excluded_samples_", []), dtype=np.intp)] = True
    k = int(left_out.sum())
    r = est.predict(X)[~left_out] - y_true[~left_out]
    rmse = np.sqrt(np.mean(r * r)) if r.size else np.nan
    if not k:
        return f"training RMSE {rmse:.4g} against the given targets of all {n:,} rows"
    return (f"training RMSE {rmse:.4g} against the given targets of the {n - k:,} rows the "
            f"model kept, not the {k:,} its self-paced weights left out")


def identifier_line(est) -> str | None:
    """``fit``'s line naming the identifier columns the model left out (its
    ``feature_schema_``'s ``ignored`` columns), or None when there are none: ``fit``
    silences the estimators' :class:`~robust_boosting.IdentifierColumnWarning`."""
    schema = getattr(est, "feature_schema_", None)
    ignored = schema.ignored if schema is not None and hasattr(schema, "kinds") else []
    if not ignored:
        return None
    return (f"identifier column(s) left out of the model: {', '.join(map(repr, ignored))} "
            f"(--param id_columns=keep keeps them)")


def regression_score_line(pred, column) -> str:
    """``predict``'s last line for a regressor: the RMSE and MAE of ``pred`` against the
    label ``column``, on its rows with a numeric target (the others are counted)."""
    import pandas as pd

    y = pd.to_numeric(column, errors="coerce").to_numpy(dtype=np.float64)
    ok = np.isfinite(y)
    if not ok.any():
        return f"no numeric target in the {column.name!r} column: no RMSE reported"
    r = np.asarray(pred, dtype=np.float64)[ok] - y[ok]
    left_out = int((~ok).sum())
    note = f" ({left_out} row(s) without a numeric target left out)" if left_out else ""
    return (f"RMSE against the {column.name!r} column: {np.sqrt(np.mean(r * r)):.4g}, "
            f"MAE {np.mean(np.abs(r)):.4g}{note}")
