"""The printed numbers say what they are (issue 70): ``robust-boosting fit``'s summary
number names what it measures and on which rows, and the verbose log's final-fit line
says where its rounds come from."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import numpy as np
import pytest
from sklearn.datasets import make_classification, make_friedman1

from robust_boosting import SPLBoostClassifierCV, SPLBoostRegressorCV
from robust_boosting._cli_tasks import fit_score_line
from robust_boosting._progress import LOGGER_NAME

Y = np.array([1.0, 2.0, 3.0, 4.0, 50.0, 6.0])


def _rmse(r):
    return f"{np.sqrt(np.mean(np.square(r))):.4g}"


@pytest.mark.parametrize("removed", [True, False])
def test_cv_regressor_reports_the_out_of_fold_rmse_of_the_rows_not_suspect(removed):
    oof = np.array([1.5, 2.0, 2.0, 4.0, 5.0, 6.5])
    est = SimpleNamespace(oof_predictions_=oof, label_issues_=np.array([4]),
                          remove_label_issues_=removed)
    line = fit_score_line(est, None, Y, "regression")
    kept = np.arange(6) != 4
    tail = "left out" if removed else "left out of this measure (the model kept them)"
    assert line == (f"out-of-fold RMSE {_rmse(oof[kept] - Y[kept])} on the 5 rows not "
                    f"suspect, the 1 suspect target(s) {tail}")
    est.label_issues_ = np.array([], dtype=int)
    assert fit_score_line(est, None, Y, "regression") == (
        f"out-of-fold RMSE {_rmse(oof - Y)} on all 6 rows, none suspect")


def test_other_regressor_reports_its_training_rmse_on_the_rows_it_kept():
    pred = Y + 0.5
    pred[4] = 5.0
    est = SimpleNamespace(excluded_samples_=np.array([4]), predict=lambda X: pred)
    assert fit_score_line(est, None, Y, "regression") == (
        "training RMSE 0.5 against the given targets of the 5 rows the model kept, not the "
        "1 its self-paced weights left out")
    est = SimpleNamespace(predict=lambda X: pred)  # no self-paced weights
    assert fit_score_line(est, None, Y, "regression") == (
        f"training RMSE {_rmse(pred - Y)} against the given targets of all 6 rows")


def test_classifier_reports_its_training_error_against_the_given_labels():
    est = SimpleNamespace(score=lambda X, y: 0.75, label_issues_=np.array([1, 3]))
    y = np.arange(8) % 2
    assert fit_score_line(est, None, y) == (
        "training error 25.00% against the given labels of all 8 rows, the 2 suspect "
        "label(s) included")
    del est.label_issues_
    assert fit_score_line(est, None, y) == (
        "training error 25.00% against the given labels of all 8 rows")


def _final_fit_lines(caplog, model, X, y):
    caplog.clear()
    with caplog.at_level(logging.INFO, logger=LOGGER_NAME):
        model.fit(X, y)
    lines = [r.getMessage() for r in caplog.records if r.name == LOGGER_NAME]
    return lines, [m for m in lines if m.startswith("final fit: ")][0]


def test_classifier_log_says_why_the_final_fit_runs_n_estimators(caplog):
    X, y = make_classification(300, 5, n_informative=3, flip_y=0.0, random_state=0)
    y[::5] = 1 - y[::5]  # 20 % flipped labels
    model = SPLBoostClassifierCV(n_estimators=40, random_state=0, verbose=1)
    lines, final = _final_fit_lines(caplog, model, X, y)
    best = model.best_params_["cv_n_estimators"]
    assert best < 40 and model.remove_label_issues_
    assert any(f"lowest after {best} rounds" in m for m in lines), lines
    assert final.startswith("final fit: up to 40 rounds on ")
    assert (f": the winner's n_estimators, not the search's best round ({best}): a held-out "
            "loss on noisy labels stops improving once a model starts to fit the flipped "
            "ones, which the final model, without the suspects, mostly no longer sees") in final


def test_classifier_log_says_the_kept_fit_runs_the_searchs_rounds(caplog):
    X, y = make_classification(300, 5, n_informative=3, flip_y=0.0, random_state=0)
    model = SPLBoostClassifierCV(n_estimators=40, random_state=0, verbose=1)
    lines, final = _final_fit_lines(caplog, model, X, y)
    best = model.best_params_["cv_n_estimators"]
    assert not model.remove_label_issues_ and best < 40
    assert model.best_estimator_.n_estimators == best == model.best_params_["n_estimators"]
    assert final.startswith(f"final fit: up to {best} rounds on 300 rows: the search's best "
                            "round, every row kept"), final


@pytest.mark.parametrize("wrong", [True, False])
def test_regressor_log_says_where_the_final_fits_rounds_come_from(caplog, wrong):
    X, y = make_friedman1(300, noise=0.5, random_state=0)
    if wrong:
        y[:45] += 25.0
    model = SPLBoostRegressorCV(n_estimators=60, max_depth=3, loss="squared_error",
                                random_state=0, verbose=1)
    lines, final = _final_fit_lines(caplog, model, X, y)
    assert model.remove_label_issues_ == wrong
    rounds = model.refit_params_["n_estimators"]
    assert final.startswith(f"final fit: {rounds} rounds on ")
    # the searches' rounds, run twice over at half their rate and scaled by 3/2 for the
    # rows of all three folds (docs/design/0041-final-rounds.md)
    assert rounds % 3 == 0
    searched = (f"({rounds // 3} rounds at twice the rate), twice over and scaled to all "
                "the rows")
    if wrong:
        assert final.endswith(
            f": the refit search's best round on the rows without the suspects, not "
            f"the search's ({model.best_params_['n_estimators']}), which stops too early "
            f"for a model that no longer sees their wrong targets {searched}")
    else:
        assert final.endswith(f": the winner's best round in the search {searched}")
