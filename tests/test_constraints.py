"""Monotone constraints and class weights on every estimator (issue 69, items 4 and 5).

``monotonic_cst``: the predictions of every booster with histogram trees, both
cross-validated defaults and the trees themselves never fall (or never rise) along a
grid of the constrained feature, where the unconstrained model does. ``class_weight``:
the bits of the same weights given as ``sample_weight``, and ``"balanced"`` raises the
rare class's predicted share.
"""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.base import ClassifierMixin, clone, is_regressor
from sklearn.utils.estimator_checks import check_class_weight_classifiers

import robust_boosting as rb
from robust_boosting._estimator_parts import CLASS_WEIGHT_DOC, MONOTONIC_CST_DOC
from robust_boosting.trees import HistTreeClassifier, HistTreeRegressor

pytestmark = pytest.mark.filterwarnings("ignore::robust_boosting.BoostingStoppedWarning")

FAST = dict(n_estimators=30, random_state=0)
CLASSIFIERS = {
    "ada": rb.AdaBoostClassifier(**FAST),
    "spl": rb.SPLBoostClassifier(**FAST),
    "real": rb.RealBoostClassifier(**FAST),
    "gentle": rb.GentleBoostClassifier(**FAST),
    "logit": rb.LogitBoostClassifier(**FAST),
    "spl-logit": rb.SPLLogitBoostClassifier(**FAST),
    "spl-gentle": rb.SPLGentleBoostClassifier(**FAST),
    "savage": rb.SavageBoostClassifier(**FAST),
    "rboost": rb.RBoostClassifier(**FAST),
    "robust": rb.RobustBoostClassifier(**FAST),
    "ril-tree": rb.RILBoostClassifier(HistTreeClassifier(max_depth=2), n_estimators=4,
                                      random_state=0),
    "logit-depth-3": rb.LogitBoostClassifier(HistTreeRegressor(max_depth=3), **FAST),
    "ada-depth-3": rb.AdaBoostClassifier(HistTreeClassifier(max_depth=3), **FAST),
    "cv": rb.SPLBoostClassifierCV(n_estimators=60, random_state=0),
    "tree": HistTreeClassifier(max_depth=5),
}
REGRESSORS = {
    "spl-regressor": rb.SPLBoostRegressor(n_estimators=60, random_state=0),
    "regressor-cv": rb.SPLBoostRegressorCV(n_estimators=30, random_state=0),
    "tree-regressor": HistTreeRegressor(max_depth=5),
}
GRID = np.linspace(-0.1, 1.1, 61)
#: the slowest cases (RILBoost enumerates extreme points each round) run with ``-m slow``
SLOW = {"ril-tree", "ril"}


def _names(names):
    return [pytest.param(n, marks=pytest.mark.slow) if n in SLOW else n for n in names]


def _data(n=500, seed=0):
    """A score that rises with feature 0 overall but wiggles (so that an unconstrained
    model falls somewhere along it), plus feature 1 and noise."""
    rng = np.random.RandomState(seed)
    X = rng.rand(n, 3)
    score = (3 * X[:, 0] + 1.5 * np.sin(4 * np.pi * X[:, 0]) + X[:, 1] - 2.0
             + 0.3 * rng.randn(n))
    return X, score


def _steps(model, X, sign):
    """``sign`` times the steps of the model's predictions along the grid of feature 0,
    the other features those of several training rows."""
    predict = model.predict if not hasattr(model, "decision_function") else \
        model.decision_function
    if isinstance(model, HistTreeClassifier):
        def predict(Z):
            return model.predict_proba(Z)[:, 1]
    steps = []
    for row in X[:8]:
        Z = np.repeat(row[None], GRID.size, axis=0)
        Z[:, 0] = GRID
        steps.append(sign * np.diff(predict(Z)))
    return np.concatenate(steps)


def _fit(est, sign, monotonic_cst, seed=0):
    X, score = _data(seed=seed)
    if sign < 0:  # the mirror image: the score falls with feature 0
        X = X.copy()
        X[:, 0] = 1.0 - X[:, 0]
    y = score if is_regressor(est) else (score > 0).astype(int)
    return clone(est).set_params(monotonic_cst=monotonic_cst).fit(X, y), X


@pytest.mark.parametrize("sign", [1, -1])
@pytest.mark.parametrize("name", _names(list(CLASSIFIERS) + list(REGRESSORS)))
def test_constrained_predictions_never_go_against_the_constraint(name, sign):
    """With ``monotonic_cst={0: sign}`` the predictions (``decision_function``, the
    regressors' ``predict``, the tree's ``P(class 1)``) never step against ``sign``
    along feature 0, and still follow it somewhere (the feature is used)."""
    est = {**CLASSIFIERS, **REGRESSORS}[name]
    model, X = _fit(est, sign, {0: sign})
    steps = _steps(model, X, sign)
    assert steps.min() >= 0.0
    assert steps.max() > 0.0


@pytest.mark.parametrize("name", _names(list(CLASSIFIERS) + list(REGRESSORS)))
def test_unconstrained_models_fall_on_the_same_data(name):
    """The control: without the constraint the same models step down somewhere along
    the grid, so the test above can fail."""
    est = {**CLASSIFIERS, **REGRESSORS}[name]
    model, X = _fit(est, 1, None)
    assert _steps(model, X, 1).min() < 0.0


def test_constraints_by_name_index_and_array_are_the_same_model():
    X, score = _data()
    frame = pd.DataFrame(X, columns=["a", "b", "c"])
    y = (score > 0).astype(int)
    by = [rb.LogitBoostClassifier(**FAST, monotonic_cst=cst).fit(frame, y)
          .decision_function(frame)
          for cst in ({"a": 1}, {0: 1}, [1, 0, 0], np.array([1, 0, 0]))]
    for other in by[1:]:
        assert other.tobytes() == by[0].tobytes()
    # all zeros constrains nothing: the unconstrained model, bit for bit
    zero = rb.LogitBoostClassifier(**FAST, monotonic_cst=[0, 0, 0]).fit(X, y)
    plain = rb.LogitBoostClassifier(**FAST).fit(X, y)
    assert zero.decision_function(X).tobytes() == plain.decision_function(X).tobytes()


def test_constraint_errors():
    X, score = _data(200)
    y = (score > 0).astype(int)
    frame = pd.DataFrame(X, columns=["a", "b", "c"])
    frame["c"] = pd.Categorical(np.where(X[:, 2] > 0.5, "hi", "lo"))
    with pytest.raises(ValueError, match="a categorical feature cannot be constrained"):
        rb.LogitBoostClassifier(**FAST, monotonic_cst={"c": 1}).fit(frame, y)
    with pytest.raises(ValueError, match="a categorical feature cannot be constrained"):
        rb.SPLBoostClassifierCV(n_estimators=5, monotonic_cst={"c": -1}).fit(frame, y)
    y3 = np.digitize(score, [-0.5, 0.5])
    for est in (rb.AdaBoostClassifier(**FAST), rb.SPLBoostClassifierCV(n_estimators=5),
                HistTreeClassifier()):
        with pytest.raises(ValueError, match="3 classes"):
            clone(est).set_params(monotonic_cst={0: 1}).fit(X, y3)
    with pytest.raises(ValueError, match="grow_policy='symmetric'"):
        rb.LogitBoostClassifier(HistTreeRegressor(max_depth=2, grow_policy="symmetric"),
                                **FAST, monotonic_cst={0: 1}).fit(X, y)
    with pytest.raises(ValueError, match="grow_policy='symmetric'"):
        rb.SPLBoostClassifierCV(grow_policy="symmetric", monotonic_cst={0: 1}).fit(X, y)
    with pytest.raises(ValueError, match="needs the library's histogram tree"):
        rb.RILBoostClassifier(n_estimators=2, monotonic_cst={0: 1}).fit(X, y)
    with pytest.raises(ValueError, match="unknown feature 'd'"):
        rb.SPLBoostRegressor(monotonic_cst={"d": 1}).fit(frame[["a", "b"]], score)


def test_the_constrained_default_grows_depthwise_trees():
    """Above the small-data regime the default grows symmetric trees, which take no
    constraint: with one it grows depth-wise trees (and the model is monotone)."""
    X, score = _data(3000)
    y = (score > 0).astype(int)
    model = rb.SPLBoostClassifierCV(n_estimators=20, random_state=0,
                                    monotonic_cst={0: 1}).fit(X, y)
    assert {c["grow_policy"] for c in model.cv_results_["params"]} == {"depthwise"}
    assert model.best_params_["monotonic_cst"] == (1, 0, 0)
    assert _steps(model, X, 1).min() >= 0.0


# ---------------------------------------------------------------------------- class_weight
CW_CLASSIFIERS = {
    "ada": rb.AdaBoostClassifier(n_estimators=10, random_state=0),
    "spl": rb.SPLBoostClassifier(n_estimators=10, random_state=0),
    "real": rb.RealBoostClassifier(n_estimators=10, random_state=0),
    "gentle": rb.GentleBoostClassifier(n_estimators=10, random_state=0),
    "logit": rb.LogitBoostClassifier(n_estimators=10, random_state=0),
    "spl-logit": rb.SPLLogitBoostClassifier(n_estimators=10, random_state=0),
    "spl-gentle": rb.SPLGentleBoostClassifier(n_estimators=10, random_state=0),
    "savage": rb.SavageBoostClassifier(n_estimators=10, random_state=0),
    "rboost": rb.RBoostClassifier(n_estimators=10, random_state=0),
    "robust": rb.RobustBoostClassifier(n_estimators=10, random_state=0),
    "ril": rb.RILBoostClassifier(n_estimators=2, random_state=0),
    "cv": rb.SPLBoostClassifierCV(n_estimators=20, random_state=0),
    "tree": HistTreeClassifier(max_depth=3),
}


def _imbalanced(n, rare=0.08, seed=0):
    """Two overlapping classes, ``rare`` of the rows in class "r"."""
    rng = np.random.RandomState(seed)
    y = np.where(rng.rand(n) < rare, "r", "c")
    X = rng.randn(n, 4) + 0.8 * (y == "r")[:, None]
    return X, y


def _output(model, X):
    return model.predict_proba(X)


@pytest.mark.parametrize("name", _names(CW_CLASSIFIERS))
def test_class_weight_dict_is_that_sample_weight(name):
    """``class_weight={"r": 2}`` gives the bits of doubling the rare class's
    ``sample_weight`` (with and without a ``sample_weight``)."""
    X, y = _imbalanced(300)
    est = CW_CLASSIFIERS[name]
    sw = np.random.RandomState(1).uniform(0.5, 1.5, y.shape[0])
    doubled = np.where(y == "r", 2.0, 1.0)
    for given in (None, sw):
        a = clone(est).set_params(class_weight={"r": 2}).fit(X, y, sample_weight=given)
        b = clone(est).fit(X, y, sample_weight=doubled * (1.0 if given is None else given))
        assert _output(a, X).tobytes() == _output(b, X).tobytes()


@pytest.mark.parametrize("name", _names(CW_CLASSIFIERS))
def test_balanced_class_weight_raises_the_rare_class_share(name):
    """On 4,000 rows with 8 % in the rare class, ``"balanced"`` raises the share of rows
    predicted rare."""
    X, y = _imbalanced(4000 if name != "ril" else 600)
    est = CW_CLASSIFIERS[name]
    plain = np.mean(clone(est).fit(X, y).predict(X) == "r")
    balanced = np.mean(clone(est).set_params(class_weight="balanced").fit(X, y).predict(X)
                       == "r")
    assert balanced > plain + 0.05, (plain, balanced)


def test_class_weight_reaches_the_search_scores():
    """The default's held-out scores are weighted by the class weights (a different
    search score), and the same as giving those weights as ``sample_weight``."""
    X, y = _imbalanced(400)
    est = rb.SPLBoostClassifierCV(n_estimators=10, random_state=0)
    plain = clone(est).fit(X, y)
    weighted = clone(est).set_params(class_weight={"r": 5}).fit(X, y)
    given = clone(est).fit(X, y, sample_weight=np.where(y == "r", 5.0, 1.0))
    assert weighted.best_score_ != plain.best_score_
    assert weighted.best_score_ == given.best_score_


def test_class_weight_errors():
    X, y = _imbalanced(100)
    with pytest.raises(ValueError, match="not classes of y"):
        rb.AdaBoostClassifier(class_weight={"x": 2}).fit(X, y)
    with pytest.raises(ValueError, match="class_weight must be one of"):
        rb.SPLBoostClassifierCV(class_weight="balance").fit(X, y)


#: the classifiers that fail scikit-learn's check_class_weight_classifiers without a leaf
#: minimum (tests/test_estimator_checks.py lists them and why)
LEAF_MINIMUM = [
    rb.AdaBoostClassifier(HistTreeClassifier(min_weight_fraction_leaf=0.01), n_estimators=10),
    rb.SPLBoostClassifier(HistTreeClassifier(min_weight_fraction_leaf=0.01), n_estimators=10),
    rb.RealBoostClassifier(HistTreeClassifier(min_weight_fraction_leaf=0.01), n_estimators=10),
    rb.LogitBoostClassifier(HistTreeRegressor(max_depth=1, min_weight_fraction_leaf=0.01),
                            n_estimators=10),
    rb.SavageBoostClassifier(HistTreeClassifier(min_weight_fraction_leaf=0.01),
                             n_estimators=10),
    rb.RBoostClassifier(HistTreeRegressor(max_depth=1, min_weight_fraction_leaf=0.01),
                        n_estimators=10),
    rb.RobustBoostClassifier(HistTreeClassifier(min_weight_fraction_leaf=0.01),
                             n_estimators=10, error_goal=0.05),
    rb.SPLLogitBoostClassifier(HistTreeRegressor(max_depth=1, min_weight_fraction_leaf=0.01),
                               n_estimators=10),
    rb.SPLGentleBoostClassifier(HistTreeRegressor(max_depth=1, min_weight_fraction_leaf=0.01),
                                n_estimators=10, regularizer="linear", age=5.0),
    rb.SPLBoostClassifierCV(n_estimators=10, min_samples_leaf=3, multiclass_trees="per_class"),
]


@pytest.mark.parametrize("est", LEAF_MINIMUM, ids=lambda e: type(e).__name__)
def test_class_weight_check_passes_with_a_leaf_minimum(est):
    """The reason check_class_weight_classifiers is an expected failure: on its
    overlapping blobs with weights 1000 / 0.0001, a tree's leaf may hold rows of the
    0.0001 classes only and predict them. With a leaf minimum on the weak learner (the
    check gives scikit-learn's trees ``min_weight_fraction_leaf=0.01``) it passes."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_class_weight_classifiers(type(est).__name__, est)


# ---------------------------------------------------------------------------- parameters
MONOTONE = [rb.AdaBoostClassifier, rb.SPLBoostClassifier, rb.RealBoostClassifier,
            rb.GentleBoostClassifier, rb.LogitBoostClassifier, rb.SPLLogitBoostClassifier,
            rb.SPLGentleBoostClassifier, rb.SavageBoostClassifier, rb.RBoostClassifier,
            rb.RobustBoostClassifier, rb.RILBoostClassifier, rb.SPLBoostClassifierCV,
            HistTreeClassifier, rb.SPLBoostRegressor, rb.SPLBoostRegressorCV,
            HistTreeRegressor]
WEIGHTED = [cls for cls in MONOTONE if issubclass(cls, ClassifierMixin)]


@pytest.mark.parametrize("cls", MONOTONE, ids=lambda c: c.__name__)
def test_parameters_are_stored_and_documented(cls):
    """Keyword-only, default None, stored unchanged; the docstring has the shared text
    word for word."""
    params = inspect.signature(cls.__init__).parameters
    names = ["monotonic_cst"] + (["class_weight"] if cls in WEIGHTED else [])
    cst, cw = {"a": 1}, {0: 2.0}
    est = cls(**dict(zip(names, (cst, cw), strict=False)))
    for name, value in zip(names, (cst, cw), strict=False):
        assert params[name].kind is params[name].KEYWORD_ONLY and params[name].default is None
        assert est.get_params()[name] is value
    assert MONOTONIC_CST_DOC in cls.__doc__
    assert (CLASS_WEIGHT_DOC in cls.__doc__) == (cls in WEIGHTED)
    assert ("class_weight" in params) == (cls in WEIGHTED)
