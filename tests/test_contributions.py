"""Exact per-row contributions: ``predict(X, pred_contrib=True)`` (path-dependent TreeSHAP).

What is promised: each row's contributions plus the expected value (last column) sum to
the raw score (``decision_function`` of a classifier, per class with more than two
classes; ``predict`` of a regressor) for every booster with tree learners and both CV
defaults; a feature no tree splits on gets exactly 0; on shallow trees they are the
brute-force Shapley values of the path-dependent value function (all subsets); they do
not depend on the thread count; model files without covers raise a clear error.
"""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.datasets import make_classification, make_regression
from sklearn.svm import SVC

import robust_boosting as rb
from robust_boosting import _contributions
from robust_boosting.trees.binning import _kernel_threads

pytestmark = pytest.mark.filterwarnings("ignore::robust_boosting.BoostingStoppedWarning")


def _data(k: int, n: int = 300, seed: int = 0, n_features: int = 6):
    X, y = make_classification(n_samples=n, n_features=n_features, n_informative=3,
                               n_redundant=1, n_classes=k, n_clusters_per_class=1,
                               random_state=seed)
    X[::7, 1] = np.nan
    return X, y


def _boosters(n_estimators: int = 8):
    small = dict(n_estimators=n_estimators, random_state=0)
    sym = rb.HistTreeRegressor(max_depth=3, grow_policy="symmetric")
    return [
        rb.AdaBoostClassifier(**small),
        rb.AdaBoostClassifier(estimator=rb.HistTreeClassifier(max_depth=3), **small),
        rb.SPLBoostClassifier(**small),
        rb.RealBoostClassifier(**small),
        rb.GentleBoostClassifier(**small),
        rb.LogitBoostClassifier(estimator=rb.HistTreeRegressor(max_depth=3), **small),
        rb.LogitBoostClassifier(estimator=sym, multiclass_trees="shared", **small),
        rb.LogitBoostClassifier(estimator=rb.HistTreeRegressor(max_depth=None,
                                                               max_leaf_nodes=7), **small),
        rb.SPLLogitBoostClassifier(**small),
        rb.SPLGentleBoostClassifier(**small),
        rb.SavageBoostClassifier(**small),
        rb.RBoostClassifier(**small),
        rb.RobustBoostClassifier(**small),
    ]


@pytest.mark.parametrize("k", [2, 3])
def test_contributions_sum_to_the_decision_function_of_every_booster(k):
    X, y = _data(k)
    for est in _boosters():
        est.fit(X, y)
        c = est.predict(X, pred_contrib=True)
        shape = (len(X), X.shape[1] + 1) if k == 2 else (len(X), k, X.shape[1] + 1)
        assert c.shape == shape, type(est).__name__
        np.testing.assert_allclose(c.sum(axis=-1), est.decision_function(X), rtol=0,
                                   atol=1e-6, err_msg=type(est).__name__)


def _table(n: int = 600, seed: int = 0):
    """A frame with a categorical column with missing values and an identifier column."""
    rng = np.random.default_rng(seed)
    X, y = make_classification(n_samples=n, n_features=4, n_informative=3, n_redundant=1,
                               n_classes=3, n_clusters_per_class=1, random_state=seed)
    df = pd.DataFrame(X, columns=["a", "b", "c", "d"])
    df["colour"] = pd.Categorical(rng.choice(["red", "green", "blue", "grey"], n))
    df.loc[::9, "colour"] = None
    df.loc[::11, "a"] = np.nan
    df["id"] = [f"row{i}" for i in range(n)]
    y = np.where(df["colour"] == "red", 0, y)
    return df, y


@pytest.mark.parametrize("k", [2, 3])
def test_the_classifier_default_on_a_categorical_table(k):
    df, y = _table()
    y = y if k == 3 else (y > 0).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = rb.SPLBoostClassifierCV(random_state=0).fit(df, y)
    c = model.predict(df, pred_contrib=True)
    assert c.shape[-1] == df.shape[1] + 1
    np.testing.assert_allclose(c.sum(axis=-1), model.decision_function(df), atol=1e-6)
    # the identifier column is left out of the model: exactly 0
    assert np.all(c[..., list(df.columns).index("id")] == 0)
    assert np.abs(c[..., list(df.columns).index("colour")]).max() > 0


def test_the_regressors_and_the_regression_default():
    X, y = make_regression(n_samples=300, n_features=5, noise=1.0, random_state=0)
    X[::5, 0] = np.nan
    df, _ = _table(300)
    for model, data in [(rb.SPLBoostRegressor(n_estimators=15), X),
                        (rb.SPLBoostRegressorCV(random_state=0), df)]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model.fit(data, y)
        c = model.predict(data, pred_contrib=True)
        assert c.shape == (300, data.shape[1] + 1)
        np.testing.assert_allclose(c.sum(axis=1), model.predict(data), atol=1e-6)


def test_a_feature_no_tree_uses_gets_exactly_zero():
    X, y = _data(3)
    X = np.column_stack([X, np.full(len(X), 2.5)])  # constant: never split
    for est in _boosters(5):
        est.fit(X, y)
        c = est.predict(X, pred_contrib=True)
        assert np.all(c[..., -2] == 0), type(est).__name__
        used = {int(f) for t in _contributions._model_trees(est)[0].arrays["feature"]
                for f in t[t >= 0]}
        for f in set(range(X.shape[1])) - used:
            assert np.all(c[..., f] == 0)


def test_pred_contrib_is_checked_and_needs_trees():
    X, y = _data(2, n=120)
    est = rb.LogitBoostClassifier(n_estimators=3).fit(X, y)
    with pytest.raises(TypeError, match="pred_contrib must be True or False"):
        est.predict(X, pred_contrib="yes")
    np.testing.assert_array_equal(est.predict(X, pred_contrib=False), est.predict(X))
    X = np.nan_to_num(X)
    ril = rb.RILBoostClassifier(n_estimators=2, random_state=0).fit(X, y)
    with pytest.raises(TypeError, match="histogram trees as weak learners.*SVC"):
        ril.predict(X, pred_contrib=True)
    ada = rb.AdaBoostClassifier(estimator=SVC(), n_estimators=2).fit(X, y)
    with pytest.raises(TypeError, match="histogram trees"):
        ada.predict(X, pred_contrib=True)


def test_a_model_without_covers_predicts_as_before_and_asks_for_a_refit(tmp_path):
    X, y = _data(3, n=200)
    for est in (rb.LogitBoostClassifier(n_estimators=2, random_state=0),
                rb.LogitBoostClassifier(n_estimators=2, random_state=0, multiclass_trees="shared",
                                        estimator=rb.HistTreeRegressor(
                                            max_depth=2, grow_policy="symmetric"))):
        est.fit(X, y)
        rb.save_model(est, tmp_path / "m.skops")
        loaded = rb.load_model(tmp_path / "m.skops")
        np.testing.assert_array_equal(loaded.predict(X, pred_contrib=True),
                                      est.predict(X, pred_contrib=True))
        proba = est.predict_proba(X)
        for learner in loaded.estimators_:  # as a file written before covers were kept
            for tree in getattr(learner, "estimators_", [learner]):
                if hasattr(tree, "tree_"):
                    del tree.tree_.weighted_n_node_samples
                else:
                    del tree.weighted_n_leaf_samples_
        np.testing.assert_array_equal(loaded.predict_proba(X), proba)
        with pytest.raises(ValueError, match="node weights.*refit the model"):
            loaded.predict(X, pred_contrib=True)


def test_identical_with_one_and_two_threads():
    X, y = _data(3, n=400)
    est = rb.LogitBoostClassifier(n_estimators=6, estimator=rb.HistTreeRegressor(
        max_depth=None, max_leaf_nodes=12), random_state=0).fit(X, y)
    X_big = np.tile(X, (8, 1))  # 25 blocks of rows
    with _kernel_threads(1):
        one = est.predict(X_big, pred_contrib=True)
    with _kernel_threads(2):
        two = est.predict(X_big, pred_contrib=True)
    np.testing.assert_array_equal(one, two)


# ----------------------------------------------------------------------------- brute force
def _route_left(s, node, x) -> bool:
    """The predictor's routing at ``node`` (see ``_predictor.apply_raw_cat``)."""
    v = x[s["feature"][node]]
    if np.isnan(v):
        return bool(s["missing_left"][node])
    if s["is_cat"] is not None and s["is_cat"][node]:
        c = int(v)
        return bool((s["cat_bits"][node, c >> 3] >> (c & 7)) & 1)
    return bool(v <= s["threshold"][node])


def _tree_value(s, cover, values, x, S, node=0) -> float:
    """The path-dependent value function ``E[f(x) | x_S]`` of one tree (Lundberg et al.
    2020, Algorithm 1): a feature in ``S`` follows the row, any other goes both ways
    weighted by the children's covers (a half each when both are 0)."""
    left, right = s["left"][node], s["right"][node]
    if left < 0:
        return float(values[node])
    if s["feature"][node] in S:
        return _tree_value(s, cover, values, x, S, left if _route_left(s, node, x) else right)
    total = cover[left] + cover[right]
    wl, wr = (cover[left] / total, cover[right] / total) if total > 0 else (0.5, 0.5)
    return (wl * _tree_value(s, cover, values, x, S, left)
            + wr * _tree_value(s, cover, values, x, S, right))


def _brute_force(model, X) -> np.ndarray:
    """Shapley values over all subsets of the features, of the trees' value functions
    with the covers the model keeps (its HistTrees' ``weighted_n_node_samples``, its shared
    trees' ``weighted_n_leaf_samples_``) and the node values the kernel reads."""
    trees, init = _contributions._model_trees(model)
    covers = []
    for ens in model.ensembles_:
        for est in ens.estimators:
            for tree in _contributions._tree_learners(est):
                if hasattr(tree, "tree_"):
                    covers.append(tree.tree_.weighted_n_node_samples)
                    continue
                levels = len(tree.feature_)
                for k in range(tree.n_outputs_):
                    c = np.zeros(2 ** (levels + 1) - 1)
                    c[2**levels - 1:] = tree.weighted_n_leaf_samples_[:, k]
                    for node in range(2**levels - 2, -1, -1):
                        c[node] = c[2 * node + 1] + c[2 * node + 2]
                    covers.append(c)
    assert len(covers) == len(trees.counts)
    a = trees.arrays
    parts = [({name: a[name][t] for name in a}, covers[t],
              a["values"][t].reshape(trees.counts[t], -1), trees.out_class[t])
             for t in range(len(trees.counts))]
    n_features = X.shape[1]
    K = len(init)
    out = np.zeros((len(X), K, n_features + 1))
    for i, x in enumerate(X):
        for k in range(K):
            v = {}
            for r in range(n_features + 1):
                for S in itertools.combinations(range(n_features), r):
                    v[frozenset(S)] = init[k] + sum(
                        _tree_value(s, cover, vals[:, k - c0], x, frozenset(S))
                        for s, cover, vals, c0 in parts if 0 <= k - c0 < vals.shape[1])
            for j in range(n_features):
                for S, vs in v.items():
                    if j not in S:
                        w = (math.factorial(len(S)) * math.factorial(n_features - len(S) - 1)
                             / math.factorial(n_features))
                        out[i, k, j] += w * (v[S | {j}] - vs)
            out[i, k, -1] = v[frozenset()]
    if not model._ovr and K > 2:
        out -= out.mean(axis=1, keepdims=True)
    return out[:, 0] if K == 1 else out


_KINDS = ["depthwise", "leafwise", "symmetric", "shared", "categorical", "symmetric_categorical",
          "samme"]


@settings(max_examples=16, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(_KINDS), depth=st.integers(1, 4), k=st.sampled_from([2, 3]),
       missing=st.booleans(), method=st.sampled_from(["recursion", "patterns", "leaves"]),
       seed=st.integers(0, 10_000))
def test_equal_to_brute_force_shapley_values_on_shallow_trees(kind, depth, k, missing, method,
                                                              seed):
    """Each way of the kernel: the recursion (Algorithm 2), the pattern tables (with the
    leaf tables for trees of more conditions) and the leaf tables alone."""
    rng = np.random.default_rng(seed)
    n, n_features = 150, 4
    X = rng.normal(size=(n, n_features))
    X[:, 1] = np.round(X[:, 1])  # ties: several nodes on one feature
    if kind.endswith("categorical"):
        X[:, 2] = rng.integers(0, 4, n)
    if missing:
        X[rng.random((n, n_features)) < 0.15] = np.nan
        X[:, 0] = np.where(np.isnan(X[:, 0]), 0.3, X[:, 0])
    y = (np.nan_to_num(X[:, 0]) + 0.5 * np.nan_to_num(X[:, 1]) + rng.normal(size=n) > 0)
    y = y.astype(int) + (k == 3) * (np.nan_to_num(X[:, 3]) > 0.5)
    reg = dict(max_depth=depth)
    if kind.endswith("categorical"):
        X = pd.DataFrame(X, columns=list("abcd"))
        X["c"] = pd.Categorical(X["c"].map({0: "u", 1: "v", 2: "w", 3: "x"}))
    if kind == "leafwise":
        reg = dict(max_depth=depth, max_leaf_nodes=depth + 2)
    if kind in ("symmetric", "shared", "symmetric_categorical"):
        reg["grow_policy"] = "symmetric"
    if kind == "samme":
        est = rb.AdaBoostClassifier(estimator=rb.HistTreeClassifier(max_depth=depth),
                                    n_estimators=3, random_state=0)
    else:
        est = rb.LogitBoostClassifier(
            estimator=rb.HistTreeRegressor(min_category_count=1, **reg), n_estimators=3,
            multiclass_trees="shared" if kind == "shared" else "per_class", random_state=0)
    est.fit(X, y)
    rows = X.iloc[:6] if isinstance(X, pd.DataFrame) else X[:6]
    limits = _contributions.MAX_TABLE_CONDITIONS, _contributions.MAX_LEAF_FEATURES
    if method != "patterns":
        _contributions.MAX_TABLE_CONDITIONS = 0
    if method == "recursion":
        _contributions.MAX_LEAF_FEATURES = 0
    try:
        got = est.predict(rows, pred_contrib=True)
    finally:
        _contributions.MAX_TABLE_CONDITIONS, _contributions.MAX_LEAF_FEATURES = limits
    want = _brute_force(est, est._check_X(rows))
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-9)
    np.testing.assert_allclose(got.sum(axis=-1), est.decision_function(rows), atol=1e-9)


# ----------------------------------------------------------------------------- against others
def _interventional(f, X, background) -> np.ndarray:
    """Exact interventional Shapley values of ``f`` (one output) on the rows ``X``: the
    value of ``S`` is the mean of ``f`` over ``background`` rows with ``x_S`` put in."""
    n, p = X.shape
    subsets = [frozenset(S) for r in range(p + 1) for S in itertools.combinations(range(p), r)]
    Z = np.repeat(np.repeat(background[None, None], len(subsets), axis=0), n, axis=1)
    for s, S in enumerate(subsets):
        Z[s][:, :, list(S)] = X[:, None, list(S)]
    values = f(Z.reshape(-1, p)).reshape(len(subsets), n, -1).mean(axis=2)  # one call
    v = dict(zip(subsets, values, strict=True))
    phi = np.zeros((n, p))
    for j in range(p):
        for S, vs in v.items():
            if j not in S:
                w = math.factorial(len(S)) * math.factorial(p - len(S) - 1) / math.factorial(p)
                phi[:, j] += w * (v[S | {j}] - vs)
    return phi


def _numeric_default(n: int = 800):
    X, y = make_classification(n_samples=n, n_features=6, n_informative=4, n_redundant=0,
                               n_clusters_per_class=2, flip_y=0.05, random_state=3)
    X[:, 4] *= 0.1  # features of different weights
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return X, rb.SPLBoostClassifierCV(random_state=0).fit(X, y)


def test_feature_ranking_agrees_with_exact_interventional_shapley_values():
    X, model = _numeric_default(400)
    rows, background = X[:60], X[-30:]
    ours = np.abs(model.predict(rows, pred_contrib=True)[:, :-1]).mean(axis=0)
    theirs = np.abs(_interventional(model.decision_function, rows, background)).mean(axis=0)
    assert np.corrcoef(ours, theirs)[0, 1] >= 0.9


@pytest.mark.slow
def test_feature_ranking_agrees_with_shaps_exact_explainer():
    shap = pytest.importorskip("shap")
    X, model = _numeric_default(2000)
    rows = X[:200]
    masker = shap.maskers.Independent(X[-200:], max_samples=200)
    exact = shap.explainers.Exact(model.decision_function, masker)(rows)
    ours = np.abs(model.predict(rows, pred_contrib=True)[:, :-1]).mean(axis=0)
    theirs = np.abs(exact.values).mean(axis=0)
    assert np.corrcoef(ours, theirs)[0, 1] >= 0.9


# ----------------------------------------------------------------------------- explain
@pytest.mark.parametrize("k", [2, 3])
def test_explain_gives_shap_an_explanation_of_the_users_columns(k):
    shap = pytest.importorskip("shap")
    df, y = _table(300)
    y = y if k == 3 else (y > 0).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = rb.SPLBoostClassifierCV(random_state=0).fit(df, y)
    e = rb.explain(model, df)
    assert isinstance(e, shap.Explanation)
    assert e.feature_names == list(df.columns)
    c = model.predict(df, pred_contrib=True)
    if k == 3:
        np.testing.assert_array_equal(e.values, c[:, :, :-1].transpose(0, 2, 1))
        np.testing.assert_array_equal(e.base_values, c[:, :, -1])
        assert e.output_names == [str(c) for c in model.classes_]
    else:
        np.testing.assert_array_equal(e.values, c[:, :-1])
        np.testing.assert_array_equal(e.base_values, c[:, -1])
    colour = list(df.columns).index("colour")
    assert list(e.data[:12, colour]) == list(df["colour"].astype(object)[:12])
    assert e.data[1, colour] in {"red", "green", "blue", "grey"}


def test_explain_works_with_shaps_plots():
    shap = pytest.importorskip("shap")
    plt = pytest.importorskip("matplotlib.pyplot")

    df, y = _table(200)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = rb.LogitBoostClassifier(n_estimators=5, random_state=0).fit(df, y > 0)
    e = rb.explain(model, df)
    shap.plots.waterfall(e[0], show=False)
    shap.plots.beeswarm(e, show=False)
    plt.close("all")


def test_explain_without_shap_names_the_extra(monkeypatch):
    import sys

    X, y = _data(2, n=100)
    model = rb.LogitBoostClassifier(n_estimators=2).fit(X, y)
    monkeypatch.setitem(sys.modules, "shap", None)
    with pytest.raises(ImportError, match=r"robust-boosting\[explain\]"):
        rb.explain(model, X)
