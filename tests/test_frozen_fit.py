"""A fitted estimator predicts from what was fitted: ``set_params`` after ``fit`` changes nothing.

The step, weighting policy and weak-learner prototype are built once in ``fit``
(``step_``, ``policy_``, ``estimator_``); every prediction path reads only
fitted attributes, as scikit-learn's ``clone`` / ``set_params`` contract needs.
"""

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, make_classification
from sklearn.svm import SVC

import robust_boosting as rb
from robust_boosting import HistTreeClassifier, HistTreeRegressor

pytestmark = pytest.mark.filterwarnings("ignore::robust_boosting.BoostingStoppedWarning")

#: small fits of every public estimator
ESTIMATORS = [
    rb.AdaBoostClassifier(n_estimators=8, random_state=0),
    rb.SPLBoostClassifier(n_estimators=8, random_state=0),
    rb.RealBoostClassifier(n_estimators=8, random_state=0),
    rb.GentleBoostClassifier(n_estimators=8, random_state=0),
    rb.LogitBoostClassifier(n_estimators=8, random_state=0),
    rb.SPLLogitBoostClassifier(n_estimators=8, random_state=0),
    rb.SPLGentleBoostClassifier(n_estimators=8, random_state=0),
    rb.SavageBoostClassifier(n_estimators=8, random_state=0),
    rb.RBoostClassifier(n_estimators=8, random_state=0),
    rb.RobustBoostClassifier(n_estimators=8, random_state=0),
    rb.RILBoostClassifier(n_estimators=3, random_state=0),
    HistTreeClassifier(max_depth=3),
    HistTreeRegressor(max_depth=3),
]


def _other_value(est, name, value):
    """A valid value of parameter ``name`` different from ``value``."""
    regression_learner = name == "estimator" and type(est).__name__ in (
        "GentleBoostClassifier", "LogitBoostClassifier", "SPLLogitBoostClassifier",
        "SPLGentleBoostClassifier", "RBoostClassifier")
    table = {
        "estimator": (SVC(C=7.0) if isinstance(est, rb.RILBoostClassifier)
                      else HistTreeRegressor(max_depth=2) if regression_learner
                      else HistTreeClassifier(max_depth=2)),
        "n_estimators": 2,
        "learning_rate": 0.3,
        "random_state": 12345,
        "clip": 0.45,
        "loss": "savage2",
        "z_max": 1.5,
        "weight_floor": 0.2,
        "age": 0.5,
        "regularizer": "linear",
        "regularizer_params": {"t": 3.0},
        "warm_start_rounds": 0,
        "warm_start_age": 3.0,
        "inner_iterations": "auto",
        "age_growth": None if value is not None else 3.0,
        "error_goal": 0.3,
        "max_margin": 0.2,
        "margin_sigma": 0.5,
        "epsilon": 0.4,
        "mixing": 1.0,
        "strategy": "minimin",
        "C": 9.0,
        "gamma": 3.0,
        "search": "enumerate",
        "weight_scale": 1.0,
        "criterion": "gini" if value == "entropy" else "entropy",
        "max_depth": 1 if value != 1 else 2,
        "max_leaf_nodes": 2,
        "min_samples_leaf": 20,
        "min_weight_fraction_leaf": 0.3,
        "l2_regularization": 5.0,
        "grow_policy": "depthwise" if value == "symmetric" else "symmetric",
        "random_strength": 0.5 if value != 0.5 else 1.0,
        "multiclass_trees": "shared" if value == "per_class" else "per_class",
        "sample_count": "weight",
        "max_bins": 3,
        "n_jobs": 2,
        "unknown_categories": "error",
        "id_columns": "keep" if value == "drop" else "drop",
        "min_category_count": 3,
        "cat_l2": 5.0,
        "monotonic_cst": {0: 1},
        "class_weight": "balanced",
    }
    return table[name]


def _outputs(est, X):
    out = {}
    for method in ("predict", "predict_proba", "decision_function"):
        if hasattr(est, method):
            out[method] = getattr(est, method)(X)
    if hasattr(est, "staged_decision_function"):
        out["staged"] = np.stack(list(est.staged_decision_function(X)))
    return out


def _data(n_classes):
    return make_classification(n_samples=80, n_features=4, n_informative=3, n_redundant=0,
                               n_classes=n_classes, n_clusters_per_class=1, flip_y=0.1,
                               random_state=1)


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("est", ESTIMATORS, ids=lambda e: type(e).__name__)
def test_set_params_after_fit_changes_no_prediction(est, n_classes):
    X, y = _data(n_classes)
    if isinstance(est, HistTreeRegressor):
        y = y.astype(float)
    if isinstance(est, rb.RILBoostClassifier) and n_classes == 3:
        pytest.skip("one-vs-rest of the SVM shortcut: the binary case covers the path")
    fitted = est.__class__(**est.get_params()).fit(X, y)
    before = _outputs(fitted, X)
    for name, value in est.get_params(deep=False).items():
        if isinstance(est, HistTreeRegressor) and name == "criterion":
            continue  # the only criterion of the regressor
        fitted.set_params(**{name: _other_value(est, name, value)})
        after = _outputs(fitted, X)
        for method, arr in before.items():
            np.testing.assert_array_equal(after[method], arr, err_msg=f"{name} -> {method}")


def test_issue_reproducer_realboost_clip():
    """RealBoost on breast cancer: ``set_params(clip=0.45)`` after fit moved the scores by 29.7."""
    X, y = load_breast_cancer(return_X_y=True)
    clf = rb.RealBoostClassifier(n_estimators=50, random_state=0).fit(X, y)
    before = clf.decision_function(X), clf.predict(X)
    clf.set_params(clip=0.45)
    np.testing.assert_array_equal(clf.decision_function(X), before[0])
    np.testing.assert_array_equal(clf.predict(X), before[1])
    # the parameter does act on the next fit
    refit = rb.RealBoostClassifier(n_estimators=50, random_state=0, clip=0.45).fit(X, y)
    assert np.abs(refit.decision_function(X) - before[0]).max() > 1.0


def test_logitboost_z_max_frozen():
    X, y = load_breast_cancer(return_X_y=True)
    clf = rb.LogitBoostClassifier(n_estimators=30, random_state=0).fit(X, y)
    before = clf.decision_function(X)
    clf.set_params(z_max=1.0)
    np.testing.assert_array_equal(clf.decision_function(X), before)
