"""The comparison boosters: weak-learner and parameter errors; degenerate runs give a usable model.

The input errors every booster shares are in test_validation.py.
"""

import numpy as np
import pytest
from sklearn.svm import LinearSVC
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from robust_boosting import BoostingStoppedWarning
from robust_boosting.classical import (
    GentleBoostClassifier,
    LogitBoostClassifier,
    RealBoostClassifier,
    SPLGentleBoostClassifier,
    SPLLogitBoostClassifier,
)
from robust_boosting.robust import RBoostClassifier, RobustBoostClassifier, SavageBoostClassifier

ESTIMATORS = [RealBoostClassifier, GentleBoostClassifier, LogitBoostClassifier,
              SavageBoostClassifier, RBoostClassifier, RobustBoostClassifier,
              SPLLogitBoostClassifier, SPLGentleBoostClassifier]
REGRESSION = {GentleBoostClassifier, LogitBoostClassifier, RBoostClassifier,
              SPLLogitBoostClassifier, SPLGentleBoostClassifier}


@pytest.mark.parametrize("cls", ESTIMATORS)
def test_wrong_kind_of_weak_learner(cls, data):
    X, y = data
    if cls in REGRESSION:
        with pytest.raises(TypeError, match="needs a regression weak learner"):
            cls(estimator=DecisionTreeClassifier()).fit(X, y)
    elif cls in (RealBoostClassifier, SavageBoostClassifier):
        with pytest.raises(TypeError, match="needs a weak learner with predict_proba"):
            cls(estimator=LinearSVC()).fit(X, y)
    else:  # RobustBoost only needs predict
        assert cls(estimator=LinearSVC(), n_estimators=3).fit(X, y).n_estimators_ >= 1


@pytest.mark.parametrize(
    "cls,params,error,match",
    [
        (RealBoostClassifier, {"clip": 0.0}, ValueError, "clip must be > 0"),
        (SavageBoostClassifier, {"clip": 0.7}, ValueError, "clip must be <="),
        (SavageBoostClassifier, {"clip": "tiny"}, TypeError, "clip must be a real number"),
        (LogitBoostClassifier, {"z_max": 0.5}, ValueError, "z_max must be >= 1"),
        (LogitBoostClassifier, {"weight_floor": -1.0}, ValueError, "weight_floor must be > 0"),
        (GentleBoostClassifier, {"learning_rate": 0.0}, ValueError, "learning_rate must be > 0"),
        (RBoostClassifier, {"learning_rate": np.inf}, ValueError, "learning_rate must be finite"),
        (RobustBoostClassifier, {"error_goal": 0.0}, ValueError, "error_goal must be > 0"),
        (RobustBoostClassifier, {"error_goal": 1.0}, ValueError, "error_goal must be < 1"),
        (RobustBoostClassifier, {"error_goal": 0.5}, ValueError, "too high"),
        (RobustBoostClassifier, {"max_margin": -1.0}, ValueError, "max_margin must be >= 0"),
        (RobustBoostClassifier, {"margin_sigma": 0.0}, ValueError, "margin_sigma must be > 0"),
    ],
)
def test_parameter_errors(data, cls, params, error, match):
    X, y = data
    with pytest.raises(error, match=match):
        cls(**params).fit(X, y)


@pytest.mark.parametrize("cls", ESTIMATORS)
def test_no_progress_gives_usable_prior_model(cls):
    # XOR: every stump's leaves are balanced, so no learner can make progress
    X = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]] * 5)
    y = np.array([0, 0, 1, 1] * 5)
    with pytest.warns(BoostingStoppedWarning, match="no progress|no better than chance"):
        model = cls(n_estimators=10).fit(X, y)
    assert model.n_estimators_ == 0
    assert "discarded" in model.stopping_reason_
    np.testing.assert_allclose(model.predict_proba(X), 0.5)
    assert set(model.predict(X)) <= {0, 1}


@pytest.mark.parametrize("cls", ESTIMATORS)
def test_multiclass_degenerate_class_and_sample_weight(cls):
    rng = np.random.default_rng(3)
    X = rng.normal(size=(90, 2))
    y = np.repeat([0, 1, 2], 30)
    X[y == 1] += 3.0
    X[y == 2] -= 3.0
    # one class has zero total weight: its one-vs-rest ensemble still gives a usable model
    sw = np.where(y == 2, 0.0, 1.0)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", BoostingStoppedWarning)
        model = cls(n_estimators=10, random_state=0).fit(X, y, sample_weight=sw)
    if model._ovr:
        assert len(model.stopping_reason_) == 3
    proba = model.predict_proba(X)
    assert np.all(np.isfinite(proba))
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert (model.predict(X)[y < 2] == y[y < 2]).mean() > 0.9


def test_regression_learners_work_with_their_own_random_states(data):
    X, y = data
    a = GentleBoostClassifier(DecisionTreeRegressor(max_depth=2, max_features=1),
                              n_estimators=10, random_state=7).fit(X, y)
    b = GentleBoostClassifier(DecisionTreeRegressor(max_depth=2, max_features=1),
                              n_estimators=10, random_state=7).fit(X, y)
    np.testing.assert_array_equal(a.decision_function(X), b.decision_function(X))
    seeds = {est.random_state for est in a.estimators_}
    assert len(seeds) == 10
