"""``robust-boosting fit`` and ``predict`` on a regression target: the task chosen from the
label column, the regression counterpart of the registry, the --label-issues file of
targets and predict's RMSE line."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from robust_boosting.cli import main

FAST = ["--param", "n_estimators=60", "--param", "cv=2"]


@pytest.fixture(scope="module")
def friedman(tmp_path_factory):
    """400 training rows of Friedman #1, 20 % of the targets shifted by 3-6 standard
    deviations, and 200 clean held-out rows."""
    from sklearn.datasets import make_friedman1

    from robust_boosting.noise import corrupt_targets

    X, y = make_friedman1(n_samples=600, noise=0.5, random_state=0)
    y_noisy, corrupted = corrupt_targets(y[:400], 0.2, kind="shift", random_state=0)
    df = pd.DataFrame(X, columns=[f"x{i}" for i in range(X.shape[1])])
    folder = tmp_path_factory.mktemp("friedman")
    train, test = folder / "train.csv", folder / "test.csv"
    df.iloc[:400].assign(price=y_noisy).to_csv(train, index=False)
    df.iloc[400:].assign(price=y[400:]).to_csv(test, index=False)
    return train, test, corrupted


def test_fit_and_predict_a_regression_target(tmp_path, friedman, capsys):
    """Auto-detected regression: SPLBoostRegressorCV, the --label-issues file ranks every
    row with the shifted targets on top; predict reports the RMSE on clean targets."""
    from robust_boosting import SPLBoostRegressorCV
    from robust_boosting._model_io import load_bundle

    train, test, corrupted = friedman
    model, issues = tmp_path / "m.skops", tmp_path / "issues.csv"
    assert main(["fit", str(train), "--label", "price", "--model", str(model),
                 "--label-issues", str(issues), *FAST]) == 0
    out = capsys.readouterr().out
    assert ("task: regression (label 'price' is numeric with non-integer values; --task "
            "classification to override)") in out
    assert "training error" not in out
    bundle = load_bundle(model)
    est = bundle["model"]
    assert isinstance(est, SPLBoostRegressorCV) and bundle["task"] == "regression"
    # the RMSE of the out-of-fold predictions on the rows not suspect, which says so
    y_given = pd.read_csv(train)["price"].to_numpy()
    k = len(est.label_issues_)
    clean = ~np.isin(np.arange(400), est.label_issues_)
    rmse = np.sqrt(np.mean((est.oof_predictions_[clean] - y_given[clean]) ** 2))
    assert (f"(out-of-fold RMSE {rmse:.4g} on the {400 - k:,} rows not suspect, the {k} "
            f"suspect target(s) left out)") in out
    assert f"{len(est.label_issues_)} suspect target(s) of 400\n" in out
    assert "contradicts" not in out  # the classifier's noise_rate_ line
    table = pd.read_csv(issues)
    assert list(table.columns) == ["line", "given_target", "suggested_target", "score",
                                   "suspect", "why"]
    assert sorted(table["line"]) == list(range(2, 402))  # every row once
    assert (np.diff(table["score"].to_numpy()) <= 0).all()
    row = table.set_index("line").loc[np.arange(400) + 2]
    given = pd.read_csv(train)["price"].to_numpy()
    assert np.allclose(row["given_target"].to_numpy(), given)
    assert np.allclose(row["suggested_target"].to_numpy(), est.suggested_targets_)
    assert np.allclose(row["score"].to_numpy(), est.label_issue_scores_)
    assert sorted(np.flatnonzero(row["suspect"].to_numpy())) == list(est.label_issues_)
    # why: the features pushing the prediction from the given target towards the suggested
    why = row["why"].fillna("").to_numpy()
    assert (why[~row["suspect"].to_numpy()] == "").all()
    reason = r"x\d=-?\d[\d.e+-]* \(\+[\d.e+-]+\)"
    pattern = re.compile(rf"{reason}(; {reason}){{0,2}}")
    assert all(pattern.fullmatch(w) for w in why[est.label_issues_] if w), why
    assert (why[est.label_issues_] != "").mean() >= 0.9
    # measured: all 80 of the top 20 % are corrupted (shifts of 3-6 standard deviations)
    top = table["line"].head(80).to_numpy() - 2
    assert corrupted[top].mean() >= 0.9

    predictions = tmp_path / "pred.csv"
    assert main(["predict", str(test), "--model", str(model), "--output",
                 str(predictions)]) == 0
    err = capsys.readouterr().err
    pred = pd.read_csv(predictions)["prediction"].to_numpy()
    y_test = pd.read_csv(test)["price"].to_numpy()
    rmse = float(np.sqrt(np.mean((pred - y_test) ** 2)))
    assert len(pred) == 200 and rmse < 2.0  # clean targets' std is about 4.9
    last = err.strip().splitlines()[-1]
    assert last.startswith(f"RMSE against the 'price' column: {rmse:.4g}, MAE ")
    assert "error against" not in err


def _csv(path, label_values, n=120):
    rng = np.random.default_rng(0)
    pd.DataFrame({"a": rng.normal(size=n), "b": rng.normal(size=n),
                  "y": label_values}).to_csv(path, index=False)
    return path


@pytest.mark.parametrize("values, task, why", [
    (np.arange(120) % 3, "classification",
     "label 'y' has 3 distinct integer values, at most 50; --task regression to override"),
    (np.arange(120) % 50 - 10.0, "classification", "50 distinct integer values, at most 50"),
    (np.arange(120) % 51, "regression", "numeric with 51 distinct values, more than 50; "
                                        "--task classification to override"),
    (np.linspace(0, 1, 120) + 0.25 * (np.arange(120) % 2), "regression",
     "label 'y' is numeric with non-integer values; --task classification to override"),
    (np.where(np.arange(120) % 2, "yes", "no"), "classification", "label 'y' is not numeric"),
    (np.arange(120) % 2 == 0, "classification", "label 'y' is boolean"),
])
def test_auto_task_rule(values, task, why):
    from robust_boosting._cli_tasks import choose_task

    chosen, reason = choose_task(pd.Series(values, name="y"))
    assert chosen == task and why in reason, reason


@pytest.mark.parametrize("values, task", [(np.arange(120) % 3, "classification"),
                                          (np.arange(120) % 60 + 0.5, "regression")])
def test_fit_prints_the_task_it_chose(tmp_path, capsys, values, task):
    """The rule on a CSV file: fit's first line names the task; the model is of that task."""
    from sklearn.base import is_regressor

    from robust_boosting._model_io import load_bundle

    csv = _csv(tmp_path / "d.csv", values)
    model = tmp_path / "m.skops"
    assert main(["fit", str(csv), "--label", "y", "--algorithm", "splboost-hard",
                 "--rounds", "3", "--model", str(model)]) == 0
    line = capsys.readouterr().out.splitlines()[0]
    assert line.startswith(f"task: {task} (label 'y' ") and "to override)" in line, line
    bundle = load_bundle(model)
    assert bundle["task"] == task and is_regressor(bundle["model"]) == (task == "regression")


def test_task_classification_on_a_numeric_label_fits_a_classifier(tmp_path, capsys):
    from robust_boosting._model_io import load_bundle

    csv = _csv(tmp_path / "d.csv", np.arange(120) % 60)  # auto: regression
    model = tmp_path / "m.skops"
    assert main(["fit", str(csv), "--label", "y", "--task", "classification",
                 "--algorithm", "splboost-hard", "--rounds", "3", "--model", str(model)]) == 0
    out = capsys.readouterr().out
    assert "task: classification (--task classification)" in out
    assert "training error " in out and "% against the given labels of all 120 rows" in out
    bundle = load_bundle(model)
    assert bundle["task"] == "classification" and hasattr(bundle["model"], "classes_")


def test_task_regression_on_a_text_label_names_the_column_and_line(tmp_path, capsys):
    values = np.arange(120).astype(str).astype(object)
    values[7] = "about 3"  # line 9 of the file (header on line 1)
    csv = _csv(tmp_path / "d.csv", values)
    model = tmp_path / "m.skops"
    assert main(["fit", str(csv), "--label", "y", "--task", "regression",
                 "--model", str(model)]) == 2
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert len(err.splitlines()) == 1 and captured.out == ""
    assert "column 'y'" in err and "'about 3' on line 9" in err
    assert not model.exists()


def test_label_issues_need_the_cv_regressor(tmp_path, friedman, capsys):
    """splboost-hard fits a regression target (SPLBoostRegressor) but ranks no suspects."""
    train, _, _ = friedman
    issues = tmp_path / "i.csv"
    assert main(["fit", str(train), "--label", "price", "--algorithm", "splboost-hard",
                 "--model", str(tmp_path / "m.skops"), "--label-issues", str(issues)]) == 2
    err = capsys.readouterr().err
    assert "--label-issues needs an algorithm that ranks suspect targets" in err
    assert "'splboost-hard' does not" in err and not issues.exists()


def test_regression_with_a_classification_only_algorithm(tmp_path, friedman, capsys):
    train, _, _ = friedman
    assert main(["fit", str(train), "--label", "price", "--algorithm", "adaboost",
                 "--model", str(tmp_path / "m.skops")]) == 2
    err = capsys.readouterr().err
    assert "'adaboost' cannot fit a regression target" in err
    assert "--task classification to override" in err and "splboost-cv" in err


def test_registry_regression_counterparts():
    from robust_boosting import SPLBoostRegressor, SPLBoostRegressorCV
    from robust_boosting.experiments.algorithms import (
        make_estimator,
        regression_algorithms,
    )

    assert isinstance(make_estimator("splboost-cv", task="regression"), SPLBoostRegressorCV)
    hard = make_estimator("splboost-hard", {"n_estimators": 7}, random_state=3,
                          task="regression")
    assert isinstance(hard, SPLBoostRegressor)
    assert (hard.regularizer, hard.n_estimators, hard.random_state) == ("hard", 7, 3)
    assert regression_algorithms() == ["splboost-cv", "splboost-hard"]
    with pytest.raises(ValueError, match="'adaboost' cannot fit a regression target; the "
                                         "algorithms that can: splboost-cv, splboost-hard"):
        make_estimator("adaboost", task="regression")
    with pytest.raises(ValueError, match="task must be"):
        make_estimator("splboost-cv", task="ranking")
    # the default task is unchanged: the classifiers the experiments run
    assert type(make_estimator("splboost-cv")).__name__ == "SPLBoostClassifierCV"
