"""Bad input gets a clear error; degenerate runs finish with a usable model and a reason."""

import warnings

import numpy as np
import pytest
from sklearn.neighbors import KNeighborsClassifier
from sklearn.svm import LinearSVC
from sklearn.tree import DecisionTreeClassifier

from robust_boosting import (
    AdaBoostClassifier,
    BoostingStoppedWarning,
    GentleBoostClassifier,
    HistTreeClassifier,
    LogitBoostClassifier,
    RBoostClassifier,
    RealBoostClassifier,
    RILBoostClassifier,
    RobustBoostClassifier,
    SavageBoostClassifier,
    SPLBoostClassifier,
    SPLBoostClassifierCV,
    SPLGentleBoostClassifier,
    SPLLogitBoostClassifier,
)

ESTIMATORS = [AdaBoostClassifier, SPLBoostClassifier]
ALL_BOOSTERS = ESTIMATORS + [
    RealBoostClassifier, GentleBoostClassifier, LogitBoostClassifier, SavageBoostClassifier,
    RBoostClassifier, RobustBoostClassifier, SPLLogitBoostClassifier, SPLGentleBoostClassifier,
]


@pytest.mark.parametrize("cls", ALL_BOOSTERS)
def test_non_finite_X(cls, data):
    """Infinity is an error naming the column and the row; NaN means missing with the
    default weak learner (a histogram tree, which learns where missing values go)."""
    X, y = data
    X = X.copy()
    X[3, 1] = np.inf
    with pytest.raises(ValueError, match="column 1 has infinite values in row 3"):
        cls().fit(X, y)
    X[3, 1] = np.nan
    model = cls(n_estimators=5).fit(X, y)
    assert np.isfinite(model.decision_function(X)).all()


@pytest.mark.parametrize("cls", ALL_BOOSTERS)
def test_input_errors(cls, data):
    X, y = data
    with pytest.raises(ValueError, match="only one class"):
        cls().fit(X, np.ones(len(y)))
    with pytest.raises(ValueError, match=f"X has {len(y)} rows but y has {len(y) - 1} labels"):
        cls().fit(X, y[:-1])
    with pytest.raises(ValueError, match="Negative values in data passed to `sample_weight`"):
        cls().fit(X, y, sample_weight=-np.ones(len(y)))
    with pytest.raises(ValueError, match="at least one non-zero"):
        cls().fit(X, y, sample_weight=np.zeros(len(y)))
    with pytest.raises(ValueError, match="X must contain only numbers"):
        cls().fit(np.array([["a", "b"]] * len(y), dtype=object), y)
    with pytest.raises(ValueError, match="n_estimators must be >= 1"):
        cls(n_estimators=0).fit(X, y)
    with pytest.raises(TypeError, match="n_estimators must be an integer"):
        cls(n_estimators=2.5).fit(X, y)
    with pytest.raises(TypeError, match="does not accept sample_weight"):
        cls(estimator=KNeighborsClassifier()).fit(X, y)
    model = cls(n_estimators=5).fit(X, y)
    with pytest.raises(ValueError, match="3 features"):
        model.predict(X[:, :2])


@pytest.mark.parametrize(
    "params,error,match",
    [
        ({"age": 0.0}, ValueError, "age must be > 0"),
        ({"age": -1.0}, ValueError, "age must be > 0"),
        ({"age": np.nan}, ValueError, "age must be finite"),
        ({"age": "big"}, ValueError, 'age must be a number > 0 or "auto"'),
        ({"age": [2.0]}, TypeError, "age must be a real number"),
        ({"regularizer": "soft"}, ValueError, "Unknown SP-regularizer 'soft'"),
        ({"regularizer": "polynomial", "regularizer_params": {"t": 0.5}}, ValueError, "t > 1"),
        ({"inner_iterations": 0}, ValueError, "inner_iterations must be >= 1"),
        ({"inner_iterations": "forever"}, TypeError, "inner_iterations must be an integer"),
        ({"warm_start_rounds": -1}, ValueError, "warm_start_rounds must be >= 0"),
        ({"learning_rate": 0.0}, ValueError, "learning_rate must be > 0"),
    ],
)
def test_splboost_parameter_errors(data, params, error, match):
    X, y = data
    with pytest.raises(error, match=match):
        SPLBoostClassifier(**params).fit(X, y)


def test_auto_age_only_where_its_rule_holds(data):
    """``age="auto"`` is SPLBoost's (exponential loss: the weight is the loss); the
    logistic self-paced variant refuses it."""
    from robust_boosting import SPLLogitBoostClassifier

    X, y = data
    assert SPLBoostClassifier(n_estimators=5, regularizer="linear").fit(X, y).age_ == 4.0
    with pytest.raises(TypeError, match="age must be a real number"):
        SPLLogitBoostClassifier(n_estimators=5, age="auto").fit(X, y)


@pytest.mark.parametrize("cls", ALL_BOOSTERS)
def test_perfectly_separable_stops_after_one_perfect_learner(cls):
    X = np.arange(20, dtype=float).reshape(-1, 1)
    y = (X[:, 0] >= 10).astype(int)
    with pytest.warns(BoostingStoppedWarning, match="perfect weak learner at round 1"):
        model = cls(n_estimators=50).fit(X, y)
    assert model.n_estimators_ == 1
    assert "perfect" in model.stopping_reason_
    np.testing.assert_array_equal(model.predict(X), y)
    assert np.all(np.isfinite(model.decision_function(X)))
    assert np.all(np.isfinite(model.predict_proba(X)))


def test_age_so_small_every_sample_is_dropped(data):
    X, y = data
    with pytest.warns(BoostingStoppedWarning, match="every sample has zero weight"):
        model = SPLBoostClassifier(n_estimators=50, age=1e-3).fit(X, y)
    # the warm-start rounds (age 1e6) and the first round at age 1e-3 are kept
    assert model.n_estimators_ == 4
    assert "zero weight" in model.stopping_reason_
    np.testing.assert_array_equal(model.self_paced_weights_, 0.0)
    np.testing.assert_array_equal(model.sample_weights_, 0.0)
    assert model.score(X, y) > 0.7
    assert np.all(np.isfinite(model.predict_proba(X)))


@pytest.mark.parametrize("cls", ESTIMATORS)
def test_error_at_least_half_gives_usable_prior_model(cls):
    # XOR: every stump has weighted error exactly 1/2
    X = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]] * 5)
    y = np.array([0, 0, 1, 1] * 5)
    weights = np.array([1.0, 1.0, 1.0, 1.0] * 4 + [1.0, 1.0, 1.0, 1.0])
    with pytest.warns(BoostingStoppedWarning, match="no better than chance"):
        model = cls(n_estimators=10).fit(X, y, sample_weight=weights)
    assert model.n_estimators_ == 0
    assert "no better than chance" in model.stopping_reason_
    proba = model.predict_proba(X)
    np.testing.assert_allclose(proba, 0.5)
    assert set(model.predict(X)) <= {0, 1}


def test_error_at_least_half_later_keeps_earlier_learners():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(200, 2))
    y = (X[:, 0] > 0).astype(int)
    y[rng.choice(200, 40, replace=False)] ^= 1
    # a linear SVM with a tiny C cannot beat chance once weights concentrate
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = AdaBoostClassifier(LinearSVC(C=1e-4), n_estimators=30).fit(X, y)
    assert model.n_estimators_ >= 1
    assert np.all(np.isfinite(model.decision_function(X)))


def test_weak_learner_without_predict_proba_is_fine_for_discrete_step(data):
    X, y = data
    model = AdaBoostClassifier(DecisionTreeClassifier(max_depth=1), n_estimators=5).fit(X, y)
    assert model.predict_proba(X).shape == (len(y), 2)


@pytest.mark.parametrize("cls", ALL_BOOSTERS + [SPLBoostClassifierCV, RILBoostClassifier,
                                                HistTreeClassifier])
def test_y_of_the_wrong_length_says_so(cls, data):
    """A ``y`` of another length than ``X`` is named as such, not as non-numeric X (issue 56),
    for arrays and frames, and the error is raised before any fitting."""
    import pandas as pd

    X, y = data
    for X_in in (X, pd.DataFrame(X, columns=["a", "b", "c"])):
        with pytest.raises(ValueError, match=f"X has {len(y)} rows but y has {len(y) + 2} labels") \
                as info:
            cls().fit(X_in, np.concatenate([y, y[:2]]))
        assert "only numbers" not in str(info.value)


def _missing_labels(n: int):
    """Labels of every kind with missing values at rows 3 and 7 (issue 70)."""
    import pandas as pd

    text = np.where(np.arange(n) % 2 == 0, "a", "b").astype(object)
    kinds = {"float": np.where(np.arange(n) % 2 == 0, 0.0, 1.0)}
    kinds["text, NaN"] = text.copy()
    kinds["text, None"] = text.copy()
    kinds["float"][[3, 7]] = np.nan
    kinds["text, NaN"][[3, 7]] = np.nan
    kinds["text, None"][[3, 7]] = None
    mask = pd.Series(np.isin(np.arange(n), [3, 7]))
    kinds["pandas string, NA"] = pd.Series(text, dtype="string").mask(mask)
    kinds["pandas category, NaN"] = pd.Series(text, dtype="category").mask(mask)
    kinds["pandas Int64, NA"] = pd.Series(np.arange(n) % 2, dtype="Int64").mask(mask)
    return kinds


@pytest.mark.parametrize("cls", ALL_BOOSTERS + [SPLBoostClassifierCV, RILBoostClassifier,
                                                HistTreeClassifier])
def test_missing_labels_are_refused_naming_y_and_the_rows(cls, data):
    """A missing label, of any dtype (text labels with NaN or None once gave "Input contains
    NaN" without naming y, or a TypeError), is a ValueError naming y and the rows, raised by
    the shared validation before any fitting."""
    X, _ = data
    for kind, y in _missing_labels(len(X)).items():
        with pytest.raises(ValueError, match=r"Input y contains NaN: the labels of rows 3, 7 "
                                             r"are missing") as info:
            cls().fit(X, y)
        assert "give them a label" in str(info.value), kind


@pytest.mark.parametrize("name", ["SPLBoostRegressor", "SPLBoostRegressorCV", "HistTreeRegressor"])
def test_missing_targets_are_refused_naming_y(name, data):
    import pandas as pd

    import robust_boosting as rb

    X, _ = data
    target = X[:, 0].copy()
    target[5] = np.nan
    for y in (target, pd.Series(target, dtype="Float64"), target.astype(object)):
        with pytest.raises(ValueError, match="Input y contains NaN: the target of row 5 is "
                                             "missing"):
            getattr(rb, name)().fit(X, y)
