"""Tests of the histogram decision trees (robust_boosting.trees)."""

import pickle

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.base import clone
from sklearn.datasets import make_classification, make_regression
from sklearn.utils.estimator_checks import parametrize_with_checks

from robust_boosting.trees import (
    BinMapper,
    BinnedData,
    HistTreeClassifier,
    HistTreeRegressor,
)


def _tree_arrays(est):
    t = est.tree_
    return [
        t.children_left,
        t.children_right,
        t.feature,
        t.threshold_bin,
        t.threshold,
        t.missing_go_left,
        t.value,
        t.gain,
        t.weighted_n_node_samples,
        t.n_node_samples,
    ]


def _assert_same_tree(a, b):
    for x, y in zip(_tree_arrays(a), _tree_arrays(b), strict=True):
        np.testing.assert_array_equal(x, y)


# --------------------------------------------------------------------------
# scikit-learn compatibility
# --------------------------------------------------------------------------
@parametrize_with_checks(
    [
        HistTreeClassifier(),
        HistTreeClassifier(max_depth=3, criterion="gini", min_samples_leaf=2),
        HistTreeRegressor(),
        HistTreeRegressor(grow_policy="symmetric", max_depth=4, random_strength=1.0),
    ],
    expected_failed_checks=lambda est: (
        {
            "check_sample_weight_equivalence_on_dense_data": (
                "min_samples_leaf counts samples: a weight of 2 is not two samples"
            )
        }
        if est.min_samples_leaf > 1
        else {}
    ),
)
def test_sklearn_compatible(estimator, check):
    check(estimator)


# --------------------------------------------------------------------------
# binning
# --------------------------------------------------------------------------
def test_bin_mapper_few_values_and_missing():
    X = np.array([[0.0, 1.0], [1.0, np.nan], [2.0, 1.0], [np.nan, 3.0], [2.0, np.inf]])
    m = BinMapper().fit(X)
    np.testing.assert_array_equal(m.thresholds_[0], [0.5, 1.5])
    np.testing.assert_array_equal(m.thresholds_[1], [2.0, 3.0])
    Xb = m.transform(X)
    assert isinstance(Xb, BinnedData)
    assert Xb.codes.dtype == np.uint8 and Xb.codes.flags.f_contiguous
    mb = m.missing_bin_
    np.testing.assert_array_equal(Xb.codes[:, 0], [0, 1, 2, mb, 2])
    np.testing.assert_array_equal(Xb.codes[:, 1], [0, mb, 0, 1, 2])


def test_bin_mapper_max_bins_and_threshold_semantics():
    rng = np.random.RandomState(0)
    X = rng.randn(5000, 3).astype(np.float32)
    X[::11, 1] = np.nan
    m = BinMapper(max_bins=16).fit(X)
    assert m.n_bins_.max() <= 16
    codes = m.transform(X).codes
    for f in range(3):
        thr = m.thresholds_[f]
        x = X[:, f].astype(np.float64)
        ok = ~np.isnan(x)
        # code(x) <= b  <=>  x <= thr[b]
        for b in range(len(thr)):
            np.testing.assert_array_equal(codes[ok, f] <= b, x[ok] <= thr[b])
        assert np.all(codes[~ok, f] == m.missing_bin_)
    # roughly equal-frequency bins
    counts = np.bincount(codes[:, 0], minlength=16)
    assert counts.min() > 0.5 * 5000 / 16


def test_binned_data_row_selection():
    X, _ = make_classification(200, 4, random_state=0)
    Xp = HistTreeClassifier().prepare_data(X)
    sub = Xp[np.arange(0, 200, 3)]
    assert sub.shape == (67, 4) and sub.mapper is Xp.mapper
    np.testing.assert_array_equal(sub.codes, Xp.codes[::3])
    with pytest.raises(TypeError):
        Xp[:, 0]


# --------------------------------------------------------------------------
# prediction consistency, NaN, weights, determinism
# --------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["cls", "reg"])
@pytest.mark.parametrize("params", [{"max_depth": 3}, {"max_depth": None, "max_leaf_nodes": 12}])
def test_raw_and_binned_predictions_agree(kind, params):
    rng = np.random.RandomState(1)
    X = rng.randn(600, 5)
    X[rng.rand(*X.shape) < 0.1] = np.nan
    y = (np.nan_to_num(X[:, 0]) + np.nan_to_num(X[:, 1]) > 0).astype(int)
    est = HistTreeClassifier(**params) if kind == "cls" else HistTreeRegressor(**params)
    if kind == "reg":
        y = y + 0.1 * rng.randn(600)
    Xp = est.prepare_data(X)
    fitted_b = clone(est).fit(Xp, y)
    fitted_r = clone(est).fit(X, y)
    _assert_same_tree(fitted_b, fitted_r)
    # new data with values between / beyond the training ones
    Xn = rng.randn(400, 5) * 2
    Xn[rng.rand(*Xn.shape) < 0.1] = np.nan
    Xn[0, 0] = np.inf
    Xn[1, 0] = -np.inf
    Xnp = Xp.mapper.transform(Xn)
    np.testing.assert_array_equal(fitted_b.apply(Xn), fitted_b.apply(Xnp))
    np.testing.assert_array_equal(fitted_b.predict(Xn), fitted_b.predict(Xnp))
    np.testing.assert_array_equal(fitted_b.predict(X), fitted_b.predict(Xp))
    if kind == "cls":
        np.testing.assert_array_equal(fitted_b.predict_proba(Xn), fitted_b.predict_proba(Xnp))
    # float32 input gives the same binned codes path
    Xn32 = Xn.astype(np.float32)
    np.testing.assert_array_equal(
        fitted_b.predict(Xn32), fitted_b.predict(Xp.mapper.transform(Xn32))
    )


def test_training_leaf_cache_matches_traversal():
    X, y = make_classification(3000, 8, random_state=0)
    w = np.random.RandomState(0).rand(3000)
    w[::4] = 0.0
    est = HistTreeClassifier(max_depth=3)
    Xp = est.prepare_data(X)
    a = clone(est).fit(Xp, y, sample_weight=w)
    leaves_cached = a.apply(Xp)
    b = clone(est).fit(Xp, y, sample_weight=w[::-1].copy())  # overwrites the cache
    np.testing.assert_array_equal(leaves_cached, a.apply(Xp))  # traversal now
    np.testing.assert_array_equal(leaves_cached, a.apply(X))
    np.testing.assert_array_equal(b.apply(Xp), b.apply(X))


def test_missing_values_learned_direction():
    rng = np.random.RandomState(0)
    n = 1000
    x = rng.rand(n)
    y = (x > 0.5).astype(int)
    # missing values only among positives: they must go with the positives
    x[(y == 1) & (rng.rand(n) < 0.3)] = np.nan
    X = np.c_[x]
    est = HistTreeClassifier().fit(X, y)
    assert est.predict(np.array([[np.nan]]))[0] == 1
    assert est.score(X, y) == 1.0
    # missing values now among negatives
    x2 = rng.rand(n)
    y2 = (x2 > 0.5).astype(int)
    x2[(y2 == 0) & (rng.rand(n) < 0.3)] = np.nan
    est2 = HistTreeClassifier().fit(np.c_[x2], y2)
    assert est2.predict(np.array([[np.nan]]))[0] == 0
    # a split that separates missing from non-missing values
    x3 = rng.rand(n)
    y3 = rng.rand(n) < 0.5
    x3[y3] = np.nan
    est3 = HistTreeClassifier().fit(np.c_[x3], y3)
    assert est3.score(np.c_[x3], y3) == 1.0


def test_unseen_missing_goes_to_heavier_child():
    X = np.c_[np.r_[np.zeros(30), np.ones(10)]]
    y = np.r_[np.zeros(30), np.ones(10)]
    est = HistTreeClassifier().fit(X, y)
    assert est.predict(np.array([[np.nan]]))[0] == 0.0
    est = HistTreeClassifier().fit(X, y, sample_weight=np.r_[np.ones(30), 10 * np.ones(10)])
    assert est.predict(np.array([[np.nan]]))[0] == 1.0


@pytest.mark.parametrize("Est", [HistTreeClassifier, HistTreeRegressor])
def test_zero_weights_equal_removal(Est):
    rng = np.random.RandomState(0)
    X = rng.randn(500, 4)
    X[rng.rand(*X.shape) < 0.05] = np.nan
    y = (X[:, 0] > 0).astype(int) if Est is HistTreeClassifier else rng.randn(500)
    w = rng.rand(500)
    w[rng.rand(500) < 0.4] = 0.0
    keep = w > 0
    est = Est(max_depth=4)
    # raw data: zero-weight rows do not even influence the bins
    a = clone(est).fit(X, y, sample_weight=w)
    b = clone(est).fit(X[keep], y[keep], sample_weight=w[keep])
    _assert_same_tree(a, b)
    # binned data: same bins, so the same tree
    Xp = est.prepare_data(X)
    a = clone(est).fit(Xp, y, sample_weight=w)
    b = clone(est).fit(Xp[keep], y[keep], sample_weight=w[keep])
    _assert_same_tree(a, b)
    np.testing.assert_array_equal(a.predict(Xp), b.predict(Xp))


def test_deterministic_whatever_the_thread_count():
    # large enough for the parallel (over features) histogram kernel
    X, y = make_classification(40_000, 30, n_informative=8, n_classes=3, random_state=0)
    X[::13, 2] = np.nan
    w = np.random.RandomState(0).rand(40_000)
    Xp = HistTreeClassifier().prepare_data(X)
    fits = [
        HistTreeClassifier(max_depth=5, n_jobs=n).fit(Xp, y, sample_weight=w) for n in (1, 2, 1)
    ]
    _assert_same_tree(fits[0], fits[1])
    _assert_same_tree(fits[0], fits[2])
    Xr, yr = make_regression(40_000, 30, random_state=0)
    regs = [HistTreeRegressor(max_depth=4, n_jobs=n).fit(Xr, yr) for n in (1, 2)]
    _assert_same_tree(regs[0], regs[1])


def test_multiclass_string_labels_and_proba():
    X, y = make_classification(
        900, 6, n_informative=4, n_classes=4, n_clusters_per_class=1, random_state=0
    )
    labels = np.array(["ant", "bee", "cat", "dog"])[y]
    est = HistTreeClassifier(max_depth=4, criterion="gini").fit(X, labels)
    np.testing.assert_array_equal(est.classes_, ["ant", "bee", "cat", "dog"])
    proba = est.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    np.testing.assert_array_equal(est.predict(X), est.classes_[np.argmax(proba, axis=1)])
    assert est.score(X, labels) > 0.7
    imp = est.feature_importances_
    assert imp.shape == (6,) and np.isclose(imp.sum(), 1.0)


def test_max_leaf_nodes_best_first():
    X, y = make_regression(2000, 5, noise=1.0, random_state=0)
    est = HistTreeRegressor(max_depth=None, max_leaf_nodes=7).fit(X, y)
    assert est.get_n_leaves() == 7
    gains = est.tree_.gain[est.tree_.feature >= 0]
    assert np.all(gains > 0)
    deep = HistTreeRegressor(max_depth=2, max_leaf_nodes=50).fit(X, y)
    assert deep.get_depth() == 2 and deep.get_n_leaves() == 4


def test_min_samples_leaf_and_min_weight_fraction():
    X, y = make_classification(400, 5, random_state=0)
    est = HistTreeClassifier(max_depth=None, min_samples_leaf=20).fit(X, y)
    t = est.tree_
    assert t.n_node_samples[t.children_left < 0].min() >= 20
    w = np.random.RandomState(0).rand(400)
    est = HistTreeClassifier(max_depth=None, min_weight_fraction_leaf=0.1).fit(
        X, y, sample_weight=w
    )
    t = est.tree_
    assert t.weighted_n_node_samples[t.children_left < 0].min() >= 0.1 * w.sum() * (1 - 1e-12)


@pytest.mark.parametrize("Est", [HistTreeClassifier, HistTreeRegressor])
def test_sample_count_by_weight(Est):
    """``sample_count="weight"`` counts a child as its weight times the node's rows per unit
    of weight: with unit weights that is the exact count (the same tree); with other
    weights every split's children meet the estimate, and some leaf has fewer rows."""
    X, y = make_classification(3000, 8, random_state=1)
    X[::13, 2] = np.nan
    target = y if Est is HistTreeClassifier else y + np.random.RandomState(0).normal(size=3000)
    params = dict(max_depth=None, max_leaf_nodes=40, min_samples_leaf=30)
    _assert_same_tree(Est(**params).fit(X, target),
                      Est(**params, sample_count="weight").fit(X, target))
    w = np.random.RandomState(2).exponential(size=3000)
    t = Est(**params, sample_count="weight").fit(X, target, sample_weight=w).tree_
    inner = np.flatnonzero(t.children_left >= 0)
    per_row = t.weighted_n_node_samples[inner] / t.n_node_samples[inner]
    for child in (t.children_left[inner], t.children_right[inner]):
        assert np.all(t.weighted_n_node_samples[child] >= 30 * per_row)
    assert t.n_node_samples[t.children_left < 0].min() < 30
    with pytest.raises(ValueError, match="sample_count"):
        Est(sample_count="rows").fit(X, target)


def test_l2_regularization_values_scale_and_paths():
    """``l2_regularization=λ``: every node predicts ``S / (W + λ w̄)`` (``w̄`` the mean
    weight of the training rows), on the compiled growth and on the categorical one; the
    tree does not depend on the scale of the weights; a huge λ shrinks every value to 0;
    λ = 0 is the plain tree."""
    import pandas as pd

    rng = np.random.RandomState(4)
    n = 600
    X = rng.randn(n, 4)
    y = 3.0 + X[:, 0] + 0.5 * rng.randn(n)  # a mean far from 0: no shrinkage to the mean
    w = rng.exponential(size=n) * (rng.rand(n) < 0.9)
    frame = pd.DataFrame({"a": X[:, 0], "c": pd.Categorical.from_codes(
        rng.randint(0, 6, n), list("uvwxyz"))})

    def check_values(est, data):
        t = est.tree_
        leaves = est.apply(data)
        wbar = w[w > 0].mean()
        for leaf in np.flatnonzero(t.children_left < 0):
            m = (leaves == leaf) & (w > 0)
            assert t.value[leaf] == pytest.approx(
                np.dot(w[m], y[m]) / (w[m].sum() + 4.0 * wbar), rel=1e-9)

    params = dict(max_depth=None, max_leaf_nodes=8)
    for data in (X, frame):
        est = HistTreeRegressor(**params, l2_regularization=4.0).fit(data, y, sample_weight=w)
        check_values(est, data)
        scaled = HistTreeRegressor(**params, l2_regularization=4.0).fit(
            data, y, sample_weight=7.0 * w)
        for name in ("feature", "threshold_bin", "children_left", "missing_go_left"):
            assert np.array_equal(getattr(est.tree_, name), getattr(scaled.tree_, name)), name
        np.testing.assert_allclose(scaled.tree_.value, est.tree_.value, rtol=1e-9)
        plain = HistTreeRegressor(**params).fit(data, y, sample_weight=w)
        zero = HistTreeRegressor(**params, l2_regularization=0.0).fit(data, y, sample_weight=w)
        _assert_same_tree(plain, zero)
        assert np.abs(est.tree_.value).max() < np.abs(plain.tree_.value).max()
    huge = HistTreeRegressor(max_depth=2, l2_regularization=1e12).fit(X, y, sample_weight=w)
    assert np.abs(huge.tree_.value).max() < 1e-6
    for bad in (-1.0, np.nan):
        with pytest.raises(ValueError, match="l2_regularization"):
            HistTreeRegressor(l2_regularization=bad).fit(X, y)
    with pytest.raises(TypeError, match="l2_regularization"):
        HistTreeRegressor(l2_regularization="big").fit(X, y)
    assert "l2_regularization" not in HistTreeClassifier().get_params()


@pytest.mark.parametrize("Est, params", [
    (HistTreeClassifier, {}),
    (HistTreeRegressor, {}),
    (HistTreeRegressor, {"grow_policy": "symmetric"}),
])
def test_fitted_tree_arrays_own_their_memory(Est, params):
    """No node array of a fitted tree is a view of a larger one (a view keeps all of its
    base alive: a boosted ensemble of thousands of trees would hold it thousands of
    times)."""
    X, y = make_classification(300, 6, random_state=2)
    w = np.where(np.arange(300) % 4 == 0, 0.0, 1.0)  # zero-weight rows: the routed path too
    est = Est(max_depth=4, sample_count="weight", **params).fit(X, y, sample_weight=w)
    arrays = {k: v for k, v in vars(est.tree_).items() if isinstance(v, np.ndarray)}
    assert {"value", "weighted_n_node_samples", "n_node_samples"} <= set(arrays)
    for name, arr in arrays.items():
        assert arr.base is None or arr.base.nbytes == arr.nbytes, name


def test_feature_names_from_dataframe():
    pd = pytest.importorskip("pandas")
    X, y = make_classification(200, 3, n_informative=2, n_redundant=0, random_state=0)
    df = pd.DataFrame(X, columns=["a", "b", "c"])
    est = HistTreeClassifier()
    Xp = est.prepare_data(df)
    est.fit(Xp, y)
    np.testing.assert_array_equal(est.feature_names_in_, ["a", "b", "c"])
    np.testing.assert_array_equal(est.predict(df), est.predict(Xp))


def test_pickle_roundtrip():
    X, y = make_classification(300, 4, random_state=0)
    est = HistTreeClassifier(max_depth=3)
    Xp = est.prepare_data(X)
    est.fit(Xp, y)
    est2 = pickle.loads(pickle.dumps(est))
    np.testing.assert_array_equal(est.predict_proba(X), est2.predict_proba(X))
    np.testing.assert_array_equal(est.predict(Xp), est2.predict(Xp))


def test_errors():
    X, y = make_classification(100, 4, random_state=0)
    with pytest.raises(ValueError, match="criterion"):
        HistTreeClassifier(criterion="squared_error").fit(X, y)
    with pytest.raises(ValueError, match="max_depth"):
        HistTreeClassifier(max_depth=-1).fit(X, y)
    with pytest.raises(ValueError, match="max_bins"):
        HistTreeClassifier(max_bins=256).fit(X, y)
    with pytest.raises(ValueError, match="max_leaf_nodes"):
        HistTreeRegressor(max_leaf_nodes=1).fit(X, y)
    with pytest.raises(ValueError, match="non-negative"):
        HistTreeClassifier().fit(X, y, sample_weight=-np.ones(100))
    with pytest.raises(ValueError, match="zero"):
        HistTreeClassifier().fit(X, y, sample_weight=np.zeros(100))
    with pytest.raises(ValueError, match="NaN"):
        HistTreeClassifier().fit(X, y, sample_weight=np.full(100, np.nan))
    with pytest.raises(ValueError, match="NaN"):  # one infinity among finite weights
        HistTreeClassifier().fit(X, y, sample_weight=np.r_[np.ones(99), np.inf])
    # weights whose sum overflows are finite: accepted (rescaled)
    HistTreeClassifier().fit(X, y, sample_weight=np.full(100, 1e307))
    est = HistTreeClassifier()
    Xp = est.prepare_data(X)
    with pytest.raises(ValueError):
        est.fit(Xp, y[:50])
    # parameters found valid once are remembered by value and type: a value equal to a
    # valid one but of another type is still checked (True == 1), as is an unhashable one
    tree = HistTreeRegressor(max_depth=1).fit(X, y)
    for bad in (True, 1.0, [1]):
        with pytest.raises(TypeError, match="max_depth"):
            tree.set_params(max_depth=bad).fit(X, y)
    tree.set_params(max_depth=np.int64(1)).fit(X, y)
    est.fit(Xp, y)
    other = BinMapper(max_bins=8).fit_transform(X)
    with pytest.raises(ValueError, match="different thresholds"):
        est.predict(other)
    with pytest.raises(ValueError, match="features"):
        est.predict(X[:, :3])
    with pytest.raises(ValueError, match="Unknown label type"):
        HistTreeClassifier().fit(X, np.linspace(0, 1, 100))
    with pytest.raises(ValueError, match="NaN or infinity"):
        HistTreeRegressor().fit(Xp, np.full(100, np.nan))


# --------------------------------------------------------------------------
# exactness of the weighted splits against a brute-force search over the bins
# --------------------------------------------------------------------------
def _impurity(stats, crit, lam=0.0):
    """Weighted impurity (W * impurity) of a node from its class weights or
    (w, y) pairs; with an L2 penalty ``lam`` (regression), ``sum w y^2 - S^2 / (W + lam)``
    (``S = sum w y``: the penalized least-squares loss at the value ``S / (W + lam)``)."""
    if crit == "squared_error":
        w, yv = stats
        if w.sum() <= 0:
            return 0.0
        if lam > 0:
            return float(np.dot(w, yv**2) - np.dot(w, yv) ** 2 / (w.sum() + lam))
        mean = np.dot(w, yv) / w.sum()
        return float(np.dot(w, (yv - mean) ** 2))
    cw = stats
    W = cw.sum()
    if W <= 0:
        return 0.0
    p = cw[cw > 0] / W
    if crit == "gini":
        return float(W * (1.0 - np.sum(p**2)))
    return float(-W * np.sum(p * np.log(p)))


def _node_stats(rows, y, w, crit, n_classes):
    if crit == "squared_error":
        return (w[rows], y[rows])
    return np.bincount(y[rows], weights=w[rows], minlength=n_classes)


def _brute_force_best(rows, codes, y, w, crit, n_classes, n_bins, missing_bin, min_leaf,
                      sample_count="exact", lam=0.0):
    """All (gain, partition) candidates at a node, scanning every bin.

    ``sample_count="weight"``: a child counts ``its weight * n / W`` rows (``n``, ``W`` the
    node's rows and weight), written as the kernel compares it (``w >= min_leaf * (W / n)``).
    """
    parent = _impurity(_node_stats(rows, y, w, crit, n_classes), crit, lam)
    need = min_leaf * (w[rows].sum() / len(rows))
    cands = []
    for f in range(codes.shape[1]):
        c = codes[rows, f]
        for b in range(n_bins[f]):
            for ml in (False, True):
                go_left = np.where(c == missing_bin, ml, c <= b)
                left, right = rows[go_left], rows[~go_left]
                if sample_count == "exact" and (len(left) < min_leaf or len(right) < min_leaf):
                    continue
                if sample_count == "weight" and min_leaf > 1 and (
                        w[left].sum() < need or w[right].sum() < need):
                    continue
                g = (
                    parent
                    - _impurity(_node_stats(left, y, w, crit, n_classes), crit, lam)
                    - _impurity(_node_stats(right, y, w, crit, n_classes), crit, lam)
                )
                cands.append(g)
    return max(cands) if cands else -np.inf, parent


def _check_against_brute_force(est, Xp, y, w, crit, min_leaf, max_depth, n_classes,
                               sample_count="exact", l2=0.0):
    codes = Xp.codes.astype(np.int64)
    mapper = Xp.mapper
    t = est.tree_
    active = np.flatnonzero(w > 0)
    lam = l2 * w[active].mean()  # l2_regularization is counted in rows of mean weight
    scale = max(float(np.dot(w, np.asarray(y, float) ** 2) / w.sum()), 1e-300)

    def visit(node, rows, depth):
        W = w[rows].sum()
        assert t.n_node_samples[node] == len(rows)
        np.testing.assert_allclose(t.weighted_n_node_samples[node], W, rtol=1e-9)
        if crit == "squared_error":
            np.testing.assert_allclose(t.value[node], np.dot(w[rows], y[rows]) / (W + lam),
                                       rtol=1e-9, atol=1e-9 * np.sqrt(scale))
        else:
            np.testing.assert_allclose(
                t.value[node], np.bincount(y[rows], weights=w[rows], minlength=n_classes) / W,
                rtol=1e-9, atol=1e-12,
            )
        tol = 1e-8 * W * (scale if crit == "squared_error" else 1.0)
        best, parent = _brute_force_best(
            rows, codes, y, w, crit, n_classes, mapper.n_bins_, mapper.missing_bin_, min_leaf,
            sample_count, lam,
        )
        if t.children_left[node] < 0:
            if max_depth is None or depth < max_depth:
                assert best <= tol, (node, best)
            return
        f = t.feature[node]
        c = codes[rows, f]
        go_left = np.where(c == mapper.missing_bin_, t.missing_go_left[node] == 1,
                           c <= t.threshold_bin[node])
        left, right = rows[go_left], rows[~go_left]
        g = (
            parent
            - _impurity(_node_stats(left, y, w, crit, n_classes), crit, lam)
            - _impurity(_node_stats(right, y, w, crit, n_classes), crit, lam)
        )
        assert g >= best - tol, (node, g, best)
        assert g > 0
        np.testing.assert_allclose(t.gain[node], g, rtol=1e-6, atol=tol)
        visit(t.children_left[node], left, depth + 1)
        visit(t.children_right[node], right, depth + 1)

    visit(0, active, 0)


_values = st.sampled_from([0.0, 1.0, 2.0, 3.0, 4.0, 5.0, np.nan])
_weights = st.sampled_from([0.0, 0.25, 1.0, 1.0, 2.0, 3.5])


@st.composite
def _problems(draw):
    n = draw(st.integers(2, 40))
    n_features = draw(st.integers(1, 3))
    X = np.array(draw(st.lists(_values, min_size=n * n_features, max_size=n * n_features)))
    X = X.reshape(n, n_features)
    w = np.array(draw(st.lists(_weights, min_size=n, max_size=n)))
    if not np.any(w > 0):
        w[0] = 1.0
    return X, w


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    problem=_problems(),
    crit=st.sampled_from(["entropy", "gini"]),
    n_classes=st.integers(2, 3),
    min_leaf=st.integers(1, 3),
    max_depth=st.sampled_from([1, 2, 3]),
    seed=st.integers(0, 2**16),
    sample_count=st.sampled_from(["exact", "weight"]),
)
def test_classifier_splits_match_brute_force(problem, crit, n_classes, min_leaf, max_depth, seed,
                                             sample_count):
    X, w = problem
    y = np.random.RandomState(seed).randint(0, n_classes, len(w))
    est = HistTreeClassifier(criterion=crit, max_depth=max_depth, min_samples_leaf=min_leaf,
                             sample_count=sample_count)
    Xp = est.prepare_data(X)
    est.fit(Xp, y, sample_weight=w)
    y_enc = np.searchsorted(est.classes_, y)
    _check_against_brute_force(est, Xp, y_enc, w, crit, min_leaf, max_depth, len(est.classes_),
                               sample_count)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    problem=_problems(),
    min_leaf=st.integers(1, 3),
    max_depth=st.sampled_from([1, 2, 3]),
    seed=st.integers(0, 2**16),
    offset=st.sampled_from([0.0, 10.0]),
    sample_count=st.sampled_from(["exact", "weight"]),
    l2=st.sampled_from([0.0, 0.5, 3.0]),
)
def test_regressor_splits_match_brute_force(problem, min_leaf, max_depth, seed, offset,
                                            sample_count, l2):
    """The regression tree's splits, gains and values are the best of every candidate,
    with or without the L2 penalty (values ``S / (W + λ w̄)``, gains of ``S² / (W + λ w̄)``,
    XGBoost's eqs. 5-7)."""
    X, w = problem
    y = np.random.RandomState(seed).randint(-3, 4, len(w)).astype(float) + offset
    est = HistTreeRegressor(max_depth=max_depth, min_samples_leaf=min_leaf,
                            sample_count=sample_count, l2_regularization=l2)
    Xp = est.prepare_data(X)
    est.fit(Xp, y, sample_weight=w)
    _check_against_brute_force(est, Xp, y, w, "squared_error", min_leaf, max_depth, 0,
                               sample_count, l2)


def _python_reference_fit(est, Xp, y, w):
    """A clone of ``est`` fitted by the Python grower, the test reference (``fit`` grows
    its tree by the compiled grower, ``grow_batched``, swapped here for the reference's
    ``grow``)."""
    from robust_boosting.trees import _base

    def reference_growth(growers, n_threads=1):
        for g in growers:
            g.grow(g.root_tot)

    compiled = _base.grow_batched
    _base.grow_batched = reference_growth
    try:
        return clone(est).fit(Xp, y, sample_weight=w)
    finally:
        _base.grow_batched = compiled


def _symmetric_level_score(groups, c_all, y, w, lam, missing_bin, b, min_leaf):
    """Per node of a symmetric level, the best score of splitting it at bin ``b`` of the
    feature whose codes are ``c_all`` (missing values either way), ``-inf`` if invalid."""
    out = []
    for rows in groups:
        c, yy, ww = c_all[rows], y[rows], w[rows]
        best = -np.inf
        for miss_left in (False, True):
            left = np.where(c == missing_bin, miss_left, c <= b)
            if min(left.sum(), (~left).sum()) < min_leaf:
                continue
            wl, wr = ww[left].sum(), ww[~left].sum()
            if not (wl > 0 and wr > 0):
                continue
            sl, sr = np.dot(ww[left], yy[left]), np.dot(ww[~left], yy[~left])
            best = max(best, sl * sl / (wl + lam) + sr * sr / (wr + lam))
        out.append(best)
    return np.array(out)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    problem=_problems(),
    min_leaf=st.integers(1, 3),
    max_depth=st.sampled_from([1, 2, 3, 4]),
    seed=st.integers(0, 2**16),
    l2=st.sampled_from([0.0, 0.5, 3.0]),
    nan_free=st.booleans(),
)
def test_symmetric_tree_levels_match_brute_force(problem, min_leaf, max_depth, seed, l2,
                                                 nan_free):
    """A symmetric tree splits each level's nodes at one (feature, bin): the one with the
    highest sum over the level's nodes of their best children's score ``S² / (W + λ w̄)``
    (or their own score, for a node the split cannot divide), found here by trying every
    feature, bin and missing-value side on the raw rows. A node is divided iff that gains;
    an undivided node goes on to the next level; the values are ``S / (W + λ w̄)``. The
    compiled growth (batched) and the Python reference grow the same tree. Without
    missing values (``nan_free``) every node is scored by the vectorised scan."""
    X, w = problem
    if nan_free:
        X = np.nan_to_num(X, nan=2.5)
    y = np.random.RandomState(seed).randint(-3, 4, len(w)).astype(float) + 0.5
    est = HistTreeRegressor(grow_policy="symmetric", max_depth=max_depth,
                            min_samples_leaf=min_leaf, l2_regularization=l2)
    Xp = est.prepare_data(X)
    est.fit(Xp, y, sample_weight=w)
    reference = _python_reference_fit(est, Xp, y, w)
    for a, b in zip(_tree_arrays(est), _tree_arrays(reference), strict=True):
        np.testing.assert_array_equal(a, b)
    t = est.tree_
    mapper = est.bin_mapper_
    codes = np.ascontiguousarray(Xp.codes_t.T)
    active = np.flatnonzero(w > 0)
    lam = l2 * w[active].mean()
    yc = y if l2 > 0 else y - np.dot(w, y) / w.sum()  # λ = 0: the centred residuals
    scale = max(float(np.dot(w, yc ** 2) / w.sum()), 1e-300)
    frontier = [(0, active)]
    for level in range(1, max_depth + 1):
        frontier = [(n, r) for n, r in frontier
                    if len(r) >= max(2, 2 * min_leaf) and w[r].sum() > 0]
        if not frontier:
            break
        groups = [r for _, r in frontier]
        base = np.array([np.dot(w[r], yc[r]) ** 2 / (w[r].sum() + lam) for r in groups])
        tol = 1e-8 * scale * sum(w[r].sum() for r in groups)

        def total(f, b, groups=groups, base=base):
            sc = _symmetric_level_score(groups, codes[:, f], yc, w, lam, mapper.missing_bin_,
                                        b, min_leaf)
            return np.maximum(sc, base).sum() - base.sum()

        best = max(total(f, b) for f in range(X.shape[1]) for b in range(mapper.n_bins_[f]))
        # divided by this level's split: the nodes whose children have its depth
        split = [n for n, _ in frontier
                 if t.children_left[n] >= 0 and t.depth[t.children_left[n]] == level]
        if not split:
            assert best <= tol
            break
        f, b = t.feature[split[0]], t.threshold_bin[split[0]]
        assert all(t.feature[n] == f and t.threshold_bin[n] == b for n in split)
        assert total(f, b) >= best - tol
        nxt = []
        for n, rows in frontier:
            if n not in split:  # undivided: on to the next level
                assert t.children_left[n] < 0 or t.depth[t.children_left[n]] > level
                nxt.append((n, rows))
                continue
            c = codes[rows, f]
            go_left = np.where(c == mapper.missing_bin_, t.missing_go_left[n] == 1, c <= b)
            nxt += [(t.children_left[n], rows[go_left]), (t.children_right[n], rows[~go_left])]
            assert t.gain[n] > 0
        frontier = nxt
    leaves = est.apply(Xp)
    for leaf in np.unique(leaves[active]):
        rows = active[leaves[active] == leaf]
        expected = np.dot(w[rows], yc[rows]) / (w[rows].sum() + lam) + (y - yc)[0]
        np.testing.assert_allclose(t.value[leaf], expected, rtol=1e-9, atol=1e-9)


def test_symmetric_tree_parameters_and_paths():
    """grow_policy='symmetric' needs an integer depth and no leaf limit, and its trees go
    through the batched growth with other trees."""

    from robust_boosting.trees.batched import fit_trees_batched
    X, y = make_regression(400, 5, noise=5.0, random_state=0)
    with pytest.raises(ValueError, match="integer max_depth"):
        HistTreeRegressor(grow_policy="symmetric", max_depth=None).fit(X, y)
    with pytest.raises(ValueError, match="max_leaf_nodes must be None"):
        HistTreeRegressor(grow_policy="symmetric", max_depth=3, max_leaf_nodes=4).fit(X, y)
    with pytest.raises(ValueError, match="grow_policy"):
        HistTreeRegressor(grow_policy="oblivious").fit(X, y)
    sym = HistTreeRegressor(grow_policy="symmetric", max_depth=4, l2_regularization=1.0)
    Xp = sym.prepare_data(X)
    sym.fit(Xp, y)
    assert sym.get_depth() <= 4 and sym.get_n_leaves() <= 16
    # at most one (feature, bin) per level: 4 distinct splits
    inner = sym.tree_.children_left >= 0
    assert len(set(zip(sym.tree_.feature[inner], sym.tree_.threshold_bin[inner],
                       strict=True))) <= 4
    together = [clone(sym), HistTreeRegressor(max_depth=3), clone(sym)]
    rng = np.random.RandomState(1)
    weights = [rng.rand(400) for _ in together]
    fit_trees_batched(together, Xp, [y, y, -y], weights)
    for tree, wt, target in zip(together, weights, [y, y, -y], strict=True):
        alone = clone(tree).fit(Xp, target, sample_weight=wt)
        np.testing.assert_array_equal(tree.predict(X), alone.predict(X))


def test_symmetric_tree_splits_categories_at_their_root_ranks():
    """A symmetric tree splits a categorical feature at a rank of its categories' mean
    targets at the root: the tree of the same data with the column replaced by those
    ranks (as numbers), leaf for leaf; a rare category (fewer than min_category_count
    rows) is unranked and always goes right."""
    pd = pytest.importorskip("pandas")
    rng = np.random.RandomState(0)
    n = 3000
    cat = rng.randint(0, 20, n)
    cat[:5] = 20  # a rare category, 5 rows
    x = rng.randn(n)
    y = 3 * rng.randn(21)[cat] + x + 0.3 * rng.randn(n)
    frame = pd.DataFrame({"x": x, "c": pd.Categorical(cat)})
    tree = HistTreeRegressor(grow_policy="symmetric", max_depth=5, min_category_count=10)
    tree.fit(frame, y)
    t = tree.tree_
    inner = t.children_left >= 0
    assert t.is_categorical[inner].any()  # the categories were split as sets
    rank = np.full(21, 20.0)  # the rare category: ranked past every other
    means = np.array([y[cat == c].mean() for c in range(20)])
    rank[:20] = np.argsort(np.argsort(means, kind="stable"), kind="stable")
    numeric = pd.DataFrame({"x": x, "c": rank[cat]})
    ranked = HistTreeRegressor(grow_policy="symmetric", max_depth=5).fit(numeric, y)
    np.testing.assert_array_equal(tree.predict(frame), ranked.predict(numeric))


def test_symmetric_tree_threads_and_reference_agree():
    """A deep symmetric tree divides a level's nodes side by side on several threads
    (one node per thread) and scores the nodes without missing values in vectorised
    loops: the same tree for every thread count as the serial Python reference, with
    and without missing values, zero weights and a count channel."""
    rng = np.random.RandomState(3)
    X, y = make_regression(3000, 8, noise=10.0, random_state=3)
    X[rng.rand(*X.shape) < 0.05] = np.nan  # a node may have missing values or none
    w = rng.rand(3000)
    w[rng.rand(3000) < 0.1] = 0.0
    for kw in (dict(), dict(min_samples_leaf=5, sample_count="exact"),
               dict(l2_regularization=10.0, sample_count="weight", min_samples_leaf=5)):
        for Xs in (X, np.nan_to_num(X)):
            trees = [HistTreeRegressor(grow_policy="symmetric", max_depth=7, n_jobs=n, **kw)
                     for n in (1, 2, 1)]
            Xp = trees[0].prepare_data(Xs)
            for tree in trees:
                tree.fit(Xp, y, sample_weight=w)
            reference = _python_reference_fit(trees[0], Xp, y, w)
            assert trees[0].tree_.node_count > 60  # levels of many nodes were divided
            for other in (*trees[1:], reference):
                for a, b in zip(_tree_arrays(trees[0]), _tree_arrays(other), strict=True):
                    np.testing.assert_array_equal(a, b)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(20, 700), p=st.integers(1, 9), depth=st.integers(1, 6),
       seed=st.integers(0, 10_000), nan=st.sampled_from([0.0, 0.1]),
       zeros=st.sampled_from([0.0, 0.3]), kind=st.integers(0, 2),
       strength=st.sampled_from([0.0, 0.0, 1.5]))
def test_symmetric_trees_of_any_depth_equal_the_reference(n, p, depth, seed, nan, zeros, kind,
                                                          strength):
    """The compiled symmetric grower (its last level scored without keeping histograms,
    each node's split feature rebuilt) grows the Python reference's tree, on one and two
    threads, for every depth, feature count (groups of four with a short last one), and
    with or without missing values, zero weights, counts and random split scores."""
    rng = np.random.RandomState(seed)
    X = np.round(rng.randn(n, p), 1)
    y = X[:, 0] + rng.randn(n)
    X[rng.rand(n, p) < nan] = np.nan
    w = rng.rand(n) + 0.1
    w[rng.rand(n) < zeros] = 0.0
    if not w.sum() > 0:
        w[0] = 1.0
    kw = [dict(), dict(min_samples_leaf=3, sample_count="exact"),
          dict(l2_regularization=5.0, sample_count="weight", min_samples_leaf=3)][kind]
    trees = [HistTreeRegressor(grow_policy="symmetric", max_depth=depth, n_jobs=j,
                               random_strength=strength, random_state=seed, **kw)
             for j in (1, 2)]
    Xp = trees[0].prepare_data(X)
    for tree in trees:
        tree.fit(Xp, y, sample_weight=w)
    reference = _python_reference_fit(trees[0], Xp, y, w)
    for other in (trees[1], reference):
        for a, b in zip(_tree_arrays(trees[0]), _tree_arrays(other), strict=True):
            np.testing.assert_array_equal(a, b)


def test_training_leaves_of_zero_weight_rows_on_threads():
    """A tree fitted on binned data routes its zero-weight training rows through the tree
    for the training leaves it hands out, on several threads from 16,384 such rows: the
    leaves :meth:`apply` finds, for every thread count."""
    from robust_boosting.trees import _predictor as _k
    rng = np.random.RandomState(5)
    X, y = make_regression(50_000, 6, noise=5.0, random_state=5)
    w = (rng.rand(50_000) < 0.5).astype(float)  # 25,000 rows of weight 0
    tree = HistTreeRegressor(grow_policy="symmetric", max_depth=6)
    Xp = tree.prepare_data(X)
    for n in (1, 2):
        tree.set_params(n_jobs=n).fit(Xp, y, sample_weight=w)
        handed = tree.apply(Xp)  # the kept training leaves
        np.testing.assert_array_equal(handed, tree.apply(X))
    t, rows = tree.tree_, np.flatnonzero(w == 0).astype(np.int32)
    outs = []
    for n in (1, 2):
        out = np.full(50_000, -1, dtype=np.int32)
        _k.apply_binned_rows(Xp.codes_t, t.feature, t.threshold_bin, t.missing_go_left,
                             t.children_left, t.children_right, tree.bin_mapper_.missing_bin_,
                             rows, out, n)
        outs.append(out)
    np.testing.assert_array_equal(outs[0], outs[1])
    np.testing.assert_array_equal(outs[0][rows], tree.apply(X)[rows])


# --------------------------------------------------------------------------
# slow: acceptance-size checks
# --------------------------------------------------------------------------
@pytest.mark.slow
def test_memory_million_rows():
    import subprocess
    import sys
    from pathlib import Path

    bench = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_trees.py"
    out = subprocess.run(
        [sys.executable, str(bench), "--memory-only"], capture_output=True, text=True, check=True
    ).stdout
    ratio = float(out.strip().splitlines()[-1].split()[-1])
    assert ratio <= 2.0, out


@pytest.mark.parametrize("Est", [HistTreeClassifier, HistTreeRegressor])
@pytest.mark.parametrize("zero_fraction", [0.0, 0.3])
def test_fit_leaves_sample_weight_untouched(Est, zero_fraction):
    # the partition reorders the weights in place: it must work on a copy
    rng = np.random.RandomState(0)
    X = rng.randn(300, 3)
    y = (X[:, 0] > 0).astype(int) if Est is HistTreeClassifier else rng.randn(300)
    w = rng.rand(300)
    w[rng.rand(300) < zero_fraction] = 0.0
    before = w.copy()
    est = Est(max_depth=3)
    est.fit(est.prepare_data(X), y, sample_weight=w)
    np.testing.assert_array_equal(w, before)


def test_fit_writes_nothing_onto_the_callers_data():
    """The training-leaf shortcut lives on the tree, not on the caller's BinnedData."""
    import pickle

    X, y = make_classification(n_samples=200, n_features=4, random_state=0)
    tree = HistTreeClassifier(max_depth=3)
    Xb = tree.prepare_data(X)
    before = dict(vars(Xb))
    w = np.r_[np.zeros(20), np.ones(180)]  # inactive rows take the other path
    tree.fit(Xb, y, sample_weight=w)
    assert vars(Xb).keys() == before.keys()
    assert all(vars(Xb)[k] is v for k, v in before.items())
    pickle.loads(pickle.dumps(tree))  # a fitted, not yet applied tree pickles
    # the shortcut gives what the walk gives, and is used once
    np.testing.assert_array_equal(tree.apply(Xb), tree.apply(Xb))
    np.testing.assert_array_equal(tree.apply(Xb), tree.apply(X))


@st.composite
def _binary_histograms(draw):
    """Two-class histograms with empty bins, repeated bins (exact ties) and skewed
    children, and a floor near the best score."""
    n_bins = draw(st.integers(1, 40))
    scale = draw(st.sampled_from([1e-6, 1e-3, 1.0, 7.0, 1e4]))
    cells = st.sampled_from([0.0, 0.0, 1.0, 2.0, 0.5, 3.0, 1e-3, 10.0])
    h = np.array(draw(st.lists(cells, min_size=2 * n_bins, max_size=2 * n_bins)))
    h = h.reshape(n_bins, 2) * scale
    if draw(st.booleans()):  # a mirrored copy: ties between bins
        h = np.concatenate([h, h[::-1]])
    return np.ascontiguousarray(h)


@st.composite
def _wide_binary_histograms(draw):
    """Up to 255 bins of continuous class weights, some empty, with near-tied
    candidates: enough survivors of the Gini bound for the approximate-score filter."""
    n_bins = draw(st.integers(9, 255))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    h = rng.gamma(draw(st.sampled_from([0.3, 1.0, 5.0])), size=(n_bins, 2))
    h[rng.random(n_bins) < draw(st.sampled_from([0.0, 0.3, 0.7]))] = 0.0
    h[:, draw(st.integers(0, 1))] *= draw(st.sampled_from([1.0, 0.2, 1e-3]))
    # bins that change the class balance little: close scores (an all-empty histogram
    # has no balance to keep)
    if draw(st.booleans()) and h.sum() > 0:
        h[1::2] = h[1::2].sum(axis=1, keepdims=True) * (h.sum(axis=0) / h.sum())
    return np.ascontiguousarray(h * draw(st.sampled_from([1e-9, 1.0, 1e6])))


@settings(max_examples=300, deadline=None)
@given(h=st.one_of(_binary_histograms(), _wide_binary_histograms()), shift=st.sampled_from([None, 0.0, -1e-12, 1e-12, -0.1, 0.1]),
       min_w=st.sampled_from([0.0, 0.5]))
def test_bounded_entropy_scan_picks_the_full_scans_split(h, shift, min_w):
    """The two-class entropy scan computes exact scores only for candidates whose
    Gini bound can reach the best (and a caller's floor); it must choose the split
    a scan of every candidate chooses, with the same bits, or report -inf or a
    lower score only where the whole feature is below the floor."""
    from robust_boosting.trees._splitting import _binary_scan_pair

    tot = h.sum(axis=0)
    _, full = _binary_scan_pair(h, tot, 1, min_w, -np.inf)[1]  # the full scan's score
    floor = -np.inf if shift is None or not np.isfinite(full) else full + shift * abs(full)
    (fb, fs), (gb, gs) = _binary_scan_pair(h, tot, 1, min_w, floor)
    assert gs == full
    if not np.isfinite(gs) or gs >= floor:
        assert (fb, fs) == (gb, gs)
    else:  # the feature cannot beat the floor: any lower score (or none) is fine
        assert fs < floor
    # Gini has no bound step: always the full scan's split
    assert _binary_scan_pair(h, tot, 0, min_w, floor)[0] == _binary_scan_pair(
        h, tot, 0, min_w, -np.inf)[1]


def test_node_thresholds_and_values_are_their_definitions():
    """A tree's raw thresholds (compiled, per node) are the mapper's thresholds at the
    split bins: ``inf`` past a feature's last threshold, NaN for leaves and categorical
    features; a regression node's value is ``sum / weight + ybar``, ``ybar`` at zero weight."""
    from robust_boosting.trees import _partition as tk

    rng = np.random.RandomState(3)
    X = rng.randn(400, 4)
    X[:, 1] = rng.randint(0, 3, 400)  # few values: few thresholds
    X[:, 2] = rng.randint(0, 5, 400)  # categorical
    m = BinMapper(max_bins=32).fit(X, n_categories=np.array([0, 0, 5, 0]))
    feature = np.array([-1, 0, 1, 1, 1, 2, 3, 3, -1], dtype=np.int32)
    split_bin = np.array([-1, 3, 0, 1, 2, 1, 0, 31, -1], dtype=np.int32)
    got = m.node_thresholds(feature, split_bin)
    want = []
    for f, b in zip(feature, split_bin, strict=True):
        if f < 0 or f == 2:
            want.append(np.nan)
        else:
            thr = m.thresholds_[f]
            want.append(thr[b] if b < len(thr) else np.inf)
    np.testing.assert_array_equal(got, np.array(want))
    assert len(m.thresholds_[1]) == 2 and got[4] == np.inf and got[7] == np.inf

    tot = np.array([[2.0, 1.0, 5], [0.0, 3.0, 1], [3.0, -1.5, 2], [1e-300, 1e-300, 1]])
    out = np.empty(4)
    tk.regression_values(tot, 0.25, out)
    np.testing.assert_array_equal(out, [1.0 / 2.0 + 0.25, 0.25, -1.5 / 3.0 + 0.25, 1.25])


def test_random_split_scores_are_validated_and_seeded():
    """``random_strength`` randomises symmetric trees only (a clear error otherwise, and
    for a negative value); the tree depends on ``random_state`` and the strength, and
    strength 0 is the tree without noise whatever the seed."""
    X, y = make_regression(600, 8, noise=20.0, random_state=0)
    with pytest.raises(ValueError, match="random_strength"):
        HistTreeRegressor(random_strength=1.0).fit(X, y)
    with pytest.raises(ValueError, match="random_strength"):
        HistTreeRegressor(grow_policy="symmetric", random_strength=-0.5).fit(X, y)

    def tree(strength, seed):
        return HistTreeRegressor(grow_policy="symmetric", max_depth=5, random_strength=strength,
                                 random_state=seed).fit(X, y)

    plain = [tree(0.0, s).predict(X) for s in (1, 2)]
    np.testing.assert_array_equal(plain[0], plain[1])
    noisy = [tree(3.0, s).predict(X) for s in (1, 1, 2)]
    np.testing.assert_array_equal(noisy[0], noisy[1])
    assert not np.array_equal(noisy[0], noisy[2])
    assert not np.array_equal(noisy[0], plain[0])


def test_random_split_scores_never_pick_a_split_that_divides_no_node():
    """The noise chooses among the splits that divide a node: on data a split can divide,
    every seed grows a root split (a split dividing no node would stop the tree at its
    root, and SPLBoostClassifierCV's search would get a model of no round: scikit-learn's
    estimator checks found it on 12 rows in 1 seed of 10)."""
    from robust_boosting import SPLBoostClassifierCV

    X = np.array([[a, b] for a in (1, 2, 3) for b in (1, 2, 3, 4)], dtype=float)
    y = np.array([1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 2, 2])
    for seed in range(60):
        tree = HistTreeRegressor(grow_policy="symmetric", max_depth=6, random_strength=3.0,
                                 random_state=seed).fit(X, y.astype(float))
        assert tree.tree_.node_count > 1, seed
    for seed in range(40):
        est = SPLBoostClassifierCV(n_estimators=10, random_state=seed).fit(X, y)
        assert np.isfinite(est.best_score_)


def test_default_threads_respect_omp_num_threads(monkeypatch):
    """By default the kernels use at most ``OMP_NUM_THREADS`` threads (joblib's workers set
    it to their share of the cores); an explicit thread count is capped only by the cores,
    and a value OpenMP would not read leaves every core."""
    from robust_boosting.trees.binning import _max_threads, _n_threads, current_threads

    cores = _max_threads()
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    assert current_threads() == 1 and _n_threads(None) == 1
    assert _n_threads(cores) == cores and _n_threads(-1) == cores
    monkeypatch.setenv("OMP_NUM_THREADS", "1,4")  # nested levels: the outer one counts
    assert current_threads() == 1
    for unread in ("", "0", "many"):
        monkeypatch.setenv("OMP_NUM_THREADS", unread)
        assert current_threads() == cores
    monkeypatch.delenv("OMP_NUM_THREADS")
    assert current_threads() == cores


def test_parameter_names_are_read_once_per_class():
    """``get_params`` reads each class's parameter names once (``CachedParamNames``): the
    names scikit-learn reads from ``__init__``, and a subclass with its own ``__init__``
    gets its own, its parent keeps its."""
    from sklearn.base import BaseEstimator

    import robust_boosting as rb

    def uncached(cls):
        return BaseEstimator._get_param_names.__func__(cls)

    for cls in (HistTreeRegressor, rb.SPLBoostRegressor, rb.AdaBoostClassifier):
        assert cls._get_param_names() == uncached(cls)

    class Wider(HistTreeRegressor):
        def __init__(self, max_depth=3, extra=1):
            super().__init__(max_depth=max_depth)
            self.extra = extra

    assert Wider._get_param_names() == ["extra", "max_depth"] == uncached(Wider)
    assert "extra" not in HistTreeRegressor._get_param_names()
    assert Wider(extra=5).get_params() == {"extra": 5, "max_depth": 3}
