"""Batched training (robust_boosting._batched, robust_boosting.trees.batched).

The promise: k models fitted together are bit-identical to the same k models
fitted one by one, whatever their weights (fold masks), ages, learning rates
and tree depths.
"""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.base import clone
from sklearn.tree import DecisionTreeClassifier

from robust_boosting import (
    GentleBoostClassifier,
    RealBoostClassifier,
    SPLBoostClassifier,
    SPLBoostRegressor,
    SPLLogitBoostClassifier,
)
from robust_boosting._batched import fit_batched, staged_decision_rows
from robust_boosting.steps import robust_scale
from robust_boosting.trees import HistTreeClassifier, HistTreeRegressor
from robust_boosting.trees.batched import fit_trees_batched, grow_batched, supports_batched

TREE_ARRAYS = ("children_left", "children_right", "feature", "threshold_bin", "threshold",
               "missing_go_left", "gain", "value", "weighted_n_node_samples",
               "n_node_samples", "depth")


def _data(n=150, p=4, n_classes=2, seed=0):
    rng = np.random.RandomState(seed)
    X = rng.randn(n, p)
    X[:, 0] = np.round(X[:, 0], 1)  # ties: many rows share a bin
    score = X[:, 0] + 0.5 * X[:, 1] ** 2 + 0.3 * rng.randn(n)
    y = np.digitize(score, np.quantile(score, np.linspace(0, 1, n_classes + 1)[1:-1]))
    flip = rng.rand(n) < 0.15
    y[flip] = rng.randint(0, n_classes, flip.sum())
    return X, y


def _fold_weights(n, k, seed=0):
    rng = np.random.RandomState(seed)
    fold = rng.permutation(n) % 3
    w = rng.uniform(0.5, 2.0, n)
    return np.array([w * (fold != j % 3) for j in range(k)])


def _separate(template, X, y, weights, overrides):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return [clone(template).set_params(**o).fit(X, y, sample_weight=w)
                for o, w in zip(overrides, weights, strict=True)]


def _batched(template, X, y, weights, overrides):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fit_batched(template, X, y, weights, overrides)


def _assert_same_models(batched, separate, X):
    for a, b in zip(batched, separate, strict=True):
        assert a.stopping_reason_ == b.stopping_reason_
        assert np.array_equal(a.decision_function(X), b.decision_function(X))
        assert np.array_equal(a.predict_proba(X), b.predict_proba(X))
        wa, wb = a.estimator_weights_, b.estimator_weights_
        if isinstance(wa, list):  # one-vs-rest
            for u, v in zip(wa, wb, strict=True):
                assert np.array_equal(u, v)
        else:
            assert np.array_equal(wa, wb)
        if hasattr(b, "self_paced_weights_"):
            va, vb = a.self_paced_weights_, b.self_paced_weights_
            assert np.array_equal(np.asarray(va), np.asarray(vb))


def _batched_equal_to_separate(template, X, y, weights, overrides):
    """Fit batched and one by one, assert the models are the same; the batched models."""
    batched = _batched(template, X, y, weights, overrides)
    _assert_same_models(batched, _separate(template, X, y, weights, overrides), X)
    return batched


def test_batched_logit_folds_ages_rates_depths_bit_identical():
    X, y = _data()
    overrides = [dict(age=a, learning_rate=lr, estimator__max_depth=d)
                 for a, lr, d in [(1.0, 0.1, 3), (np.inf, 0.2, 2), (1.5, 0.1, 4), (0.8, 0.3, 1),
                                  (2.0, 0.05, 3), (1.2, 0.1, 2)]]
    weights = _fold_weights(len(y), len(overrides))
    template = SPLLogitBoostClassifier(HistTreeRegressor(max_depth=3), n_estimators=30,
                                       random_state=3)
    batched = _batched_equal_to_separate(template, X, y, weights, overrides)
    # a model with finite age really dropped samples, and the held-out rows kept weight 0
    assert any(len(m.excluded_samples_) for m in batched[:1] + batched[2:])
    for m, w in zip(batched, weights, strict=True):
        assert np.all(m.sample_weights_[w == 0] == 0)


def test_batched_logit_native_multiclass_bit_identical():
    X, y = _data(n_classes=3, seed=1)
    overrides = [dict(age=a) for a in (1.0, 1.5, np.inf)]
    weights = _fold_weights(len(y), 3, seed=1)
    template = SPLLogitBoostClassifier(HistTreeRegressor(max_depth=2), n_estimators=15,
                                       learning_rate=0.2, random_state=0)
    batched = _batched_equal_to_separate(template, X, y, weights, overrides)
    # native multiclass: one ensemble of 15 rounds, each with one tree per class
    assert len(batched[0].estimators_) == 15
    assert len(batched[0].estimators_[0].estimators_) == 3


@pytest.mark.parametrize("n_classes", [2, 3])
def test_batched_random_split_scores_bit_identical(n_classes):
    """Symmetric trees with random split scores: each round's trees are seeded by the
    booster, so batched models equal separate fits; the noise changes the models, and a
    different booster seed gives different ones."""
    X, y = _data(n_classes=n_classes, seed=2)
    overrides = [dict(estimator__random_strength=s, random_state=r)
                 for s, r in ((1.0, 4), (1.0, 5), (0.0, 4), (2.0, 4))]
    weights = _fold_weights(len(y), len(overrides), seed=2)
    template = SPLLogitBoostClassifier(
        HistTreeRegressor(max_depth=4, grow_policy="symmetric", l2_regularization=1.0),
        n_estimators=12, learning_rate=0.3, random_state=4)
    batched = _batched_equal_to_separate(template, X, y, weights[[0, 0, 0, 0]], overrides)
    scores = [m.decision_function(X) for m in batched]
    assert not np.array_equal(scores[0], scores[1])  # another seed
    assert not np.array_equal(scores[0], scores[2])  # no noise
    assert not np.array_equal(scores[0], scores[3])  # more noise


@pytest.mark.parametrize("depth", [1, 3])
def test_batched_discrete_samme_multiclass_bit_identical(depth):
    X, y = _data(n_classes=3, seed=2)
    overrides = [dict(age=a, estimator__criterion=c)
                 for a, c in [(1.5, "gini"), (3.0, "entropy"), (np.inf, "gini"), (2.0, "gini")]]
    weights = _fold_weights(len(y), 4, seed=2)
    template = SPLBoostClassifier(HistTreeClassifier(max_depth=depth), n_estimators=20,
                                  random_state=1)
    _batched_equal_to_separate(template, X, y, weights, overrides)


@pytest.mark.parametrize("template", [
    RealBoostClassifier(HistTreeClassifier(max_depth=2), n_estimators=10, random_state=0),
    GentleBoostClassifier(HistTreeRegressor(max_depth=2, min_samples_leaf=3),
                          n_estimators=10, random_state=0),
    # not batched: best-first trees and scikit-learn trees are fitted one at a time
    SPLBoostClassifier(HistTreeClassifier(max_depth=None, max_leaf_nodes=4), n_estimators=8),
    SPLBoostClassifier(DecisionTreeClassifier(max_depth=2), n_estimators=8, random_state=0),
])
def test_batched_other_steps_and_learners_bit_identical(template):
    X, y = _data(seed=4)
    weights = _fold_weights(len(y), 3, seed=4)
    overrides = [dict(learning_rate=lr) for lr in (1.0, 0.5, 0.3)]
    _batched_equal_to_separate(template, X, y, weights, overrides)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(12, 60),
    p=st.integers(1, 3),
    k=st.integers(1, 4),
    depth=st.integers(1, 4),
    seed=st.integers(0, 2**16),
    logit=st.booleans(),
)
def test_batched_random_data_bit_identical(n, p, k, depth, seed, logit):
    rng = np.random.RandomState(seed)
    X = np.round(rng.randn(n, p), 1)
    y = rng.randint(0, 2, n)
    y[:2] = [0, 1]
    weights = rng.rand(k, n) * (rng.rand(k, n) < 0.7)
    weights[:, :2] = 1.0  # both classes keep weight
    if logit:
        template = SPLLogitBoostClassifier(HistTreeRegressor(max_depth=depth), n_estimators=6)
        overrides = [dict(age=float(a), learning_rate=float(lr))
                     for a, lr in zip(rng.uniform(0.5, 3, k), rng.uniform(0.05, 1, k),
                                      strict=True)]
    else:
        template = SPLBoostClassifier(HistTreeClassifier(max_depth=depth), n_estimators=6)
        overrides = [dict(age=float(a), estimator__min_samples_leaf=int(m))
                     for a, m in zip(rng.uniform(1, 4, k), rng.randint(1, 4, k), strict=True)]
    _batched_equal_to_separate(template, X, y, weights, overrides)


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(2, 80),
    p=st.integers(1, 4),
    depth=st.integers(0, 5),
    min_leaf=st.integers(1, 4),
    min_frac=st.sampled_from([0.0, 0.1]),
    regression=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_fit_trees_batched_equals_fit(n, p, depth, min_leaf, min_frac, regression, seed):
    """Every fitted tree array, and the kept training leaves, as in the tree's own fit."""
    rng = np.random.RandomState(seed)
    X = np.round(rng.randn(n, p), 1)
    X[rng.rand(n, p) < 0.1] = np.nan  # missing values: the learned direction must agree
    cls = HistTreeRegressor if regression else HistTreeClassifier
    proto = cls(max_depth=depth, min_samples_leaf=min_leaf, min_weight_fraction_leaf=min_frac)
    Xb = proto.prepare_data(X)
    targets = [rng.randn(n) if regression else rng.randint(0, 3, n) for _ in range(3)]
    weights = [rng.rand(n) * (rng.rand(n) < q) for q in (1.0, 0.7, 0.3)]
    for w in weights:
        w[0] = 1.0
    single = [clone(proto).fit(Xb, t, sample_weight=w)
              for t, w in zip(targets, weights, strict=True)]
    batched = fit_trees_batched([clone(proto) for _ in targets], Xb, targets, weights)
    for a, b in zip(single, batched, strict=True):
        for name in TREE_ARRAYS:
            assert np.array_equal(getattr(a.tree_, name), getattr(b.tree_, name),
                                  equal_nan=True), name
        assert np.array_equal(a.apply(Xb), b.apply(Xb))  # the kept training leaves
        assert np.array_equal(a.apply(X), b.apply(X))


@pytest.mark.parametrize("trees_per_part", [1, 2, 4])
def test_fit_trees_batched_in_parts(monkeypatch, trees_per_part):
    """Batches above the row-array budget are grown in parts: the same trees, and each
    part lays out at most its share of regression trees' rows."""
    import robust_boosting.trees.batched as tb

    rng = np.random.RandomState(3)
    n = 200
    X = np.round(rng.randn(n, 3), 1)
    protos = [HistTreeRegressor(max_depth=3), HistTreeClassifier(max_depth=2),
              HistTreeRegressor(max_leaf_nodes=5, l2_regularization=2.0),
              HistTreeRegressor(max_depth=2),
              HistTreeRegressor(max_depth=4, l2_regularization=0.5), HistTreeClassifier(max_depth=3),
              HistTreeRegressor(max_depth=1)]
    Xb = protos[0].prepare_data(X)
    targets = [rng.randn(n) if isinstance(p, HistTreeRegressor) else rng.randint(0, 3, n)
               for p in protos]
    weights = [rng.rand(n) * (rng.rand(n) < 0.8) for _ in protos]
    single = [clone(p).fit(Xb, t, sample_weight=w)
              for p, t, w in zip(protos, targets, weights, strict=True)]
    parts = []
    fit_part = tb._fit_part

    def recording_part(learners, *args):
        parts.append([isinstance(x, HistTreeRegressor) for x in learners])
        return fit_part(learners, *args)

    monkeypatch.setattr(tb, "_REGION_BYTES", tb._REGION_ROW_BYTES * n * trees_per_part)
    monkeypatch.setattr(tb, "_fit_part", recording_part)
    batched = fit_trees_batched([clone(p) for p in protos], Xb, targets, weights)
    assert len(parts) > 1
    assert sum(len(part) for part in parts) == len(protos)
    assert all(0 < sum(part) <= trees_per_part or not any(part) for part in parts)
    for a, b in zip(single, batched, strict=True):
        for name in TREE_ARRAYS:
            assert np.array_equal(getattr(a.tree_, name), getattr(b.tree_, name),
                                  equal_nan=True), name
        assert np.array_equal(a.apply(Xb), b.apply(Xb))


def test_supports_batched_bounded_trees():
    import robust_boosting.trees.batched as tb

    X, y = _data(n=30)
    Xb = HistTreeRegressor().prepare_data(X)
    yf = y.astype(float)
    ok = HistTreeRegressor(max_depth=3)._prepare_grower(Xb, yf, None, 1)[0]
    unlimited = HistTreeRegressor(max_depth=None)._prepare_grower(Xb, yf, None, 1)[0]
    best_first = HistTreeRegressor(max_depth=None, max_leaf_nodes=3)._prepare_grower(
        Xb, yf, None, 1)[0]
    sym = HistTreeRegressor(max_depth=12, grow_policy="symmetric")._prepare_grower(
        Xb, yf, None, 1)[0]
    assert supports_batched(ok)
    assert supports_batched(unlimited)  # 30 rows: at most 59 nodes
    assert supports_batched(best_first)
    assert supports_batched(sym)  # deeper than 10: compiled too
    assert tb._max_nodes(unlimited) == 59
    assert tb._max_nodes(sym) == 59  # a symmetric tree is bounded by its rows too
    assert tb._max_nodes(ok) == 15
    # unlimited depth on many rows: 2 n - 1 nodes' histograms would exceed any fixed
    # pool; the compiled grower allocates the histograms alive only
    X, y = _data(n=3000)
    Xb = HistTreeRegressor().prepare_data(X)
    big = HistTreeRegressor(max_depth=None)._prepare_grower(Xb, y.astype(float), None, 1)[0]
    assert supports_batched(big)
    assert tb._max_nodes(big) * big.hist_bytes > 64 * 2**20
    with pytest.raises(TypeError, match="grows _Grower"):
        grow_batched([object()])


_GROWER_ARRAYS = ("left", "right", "feature", "split_bin", "missing_left", "gain", "depth",
                  "start", "end")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(2, 300),
    p=st.integers(1, 5),
    depth=st.sampled_from([None, 0, 1, 3, 6, 12]),
    leaves=st.sampled_from([None, 2, 3, 7, 31]),
    min_leaf=st.integers(1, 3),
    regression=st.booleans(),
    drop=st.sampled_from([0.0, 0.2, 0.7]),
    n_threads=st.sampled_from([1, 2]),
    seed=st.integers(0, 2**16),
)
def test_compiled_grower_equals_python_grower(n, p, depth, leaves, min_leaf, regression, drop,
                                              n_threads, seed):
    """The compiled grower (depth-first and best-first, to any depth, unlimited too, any
    thread count) grows the reference :meth:`_Grower.grow`'s tree: same nodes, splits,
    gains and row partition."""
    from robust_boosting.trees import growing

    rng = np.random.RandomState(seed)
    X = np.round(rng.randn(n, p), 1)
    X[rng.rand(n, p) < 0.1] = np.nan
    cls = HistTreeRegressor if regression else HistTreeClassifier
    proto = cls(max_depth=depth, max_leaf_nodes=leaves, min_samples_leaf=min_leaf)
    Xb = proto.prepare_data(X)
    y = rng.randn(n) if regression else rng.randint(0, 3, n)
    w = rng.rand(n) * (rng.rand(n) >= drop)
    w[0] = 1.0
    old = growing._PARALLEL_MIN_WORK
    growing._PARALLEL_MIN_WORK = 0  # every node on the threads
    try:
        ref = clone(proto)._prepare_grower(Xb, y, w, n_threads)[0]
        ref.grow(ref.root_tot)
        got = clone(proto)._prepare_grower(Xb, y, w, n_threads)[0]
        assert supports_batched(got)
        grow_batched([got], n_threads)
    finally:
        growing._PARALLEL_MIN_WORK = old
    for name in _GROWER_ARRAYS:
        assert np.array_equal(np.asarray(getattr(ref, name)), np.asarray(getattr(got, name))), name
    assert np.array_equal(np.array(ref.tot), np.asarray(got.tot))
    assert np.array_equal(ref.idx, got.idx)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    k=st.integers(1, 5),
    n_threads=st.sampled_from([2, 3]),
    leaves=st.sampled_from([None, 7]),
    regression=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_trees_grown_side_by_side_equal_their_own_growth(k, n_threads, leaves, regression,
                                                         seed):
    """With several threads and several trees, grow_all grows trees side by side (one
    per thread) and the rest with threaded node kernels: every tree is still the one
    its own :meth:`_Grower.grow` grows, with its rows partitioned the same way."""
    from robust_boosting.trees import growing

    rng = np.random.RandomState(seed)
    n = int(rng.randint(20, 400))
    X = np.round(rng.randn(n, 6), 1)
    X[rng.rand(n, 6) < 0.1] = np.nan
    cls = HistTreeRegressor if regression else HistTreeClassifier
    proto = cls(max_depth=None if leaves else 4, max_leaf_nodes=leaves)
    Xb = proto.prepare_data(X)
    ys = [rng.randn(n) if regression else rng.randint(0, 3, n) for _ in range(k)]
    ws = [rng.rand(n) * (rng.rand(n) >= 0.3) + (np.arange(n) == 0) for _ in range(k)]
    old = growing._PARALLEL_MIN_WORK
    growing._PARALLEL_MIN_WORK = 0  # node kernels on the threads where they are threaded
    try:
        refs = [clone(proto)._prepare_grower(Xb, y, w, 1)[0] for y, w in zip(ys, ws, strict=True)]
        for r in refs:
            r.grow(r.root_tot)
        got = [clone(proto)._prepare_grower(Xb, y, w, n_threads)[0]
               for y, w in zip(ys, ws, strict=True)]
        grow_batched(got, n_threads)
    finally:
        growing._PARALLEL_MIN_WORK = old
    for ref, g in zip(refs, got, strict=True):
        for name in _GROWER_ARRAYS:
            assert np.array_equal(np.asarray(getattr(ref, name)), np.asarray(getattr(g, name)))
        assert np.array_equal(np.array(ref.tot), np.asarray(g.tot))
        assert np.array_equal(ref.idx, g.idx)


def test_fit_batched_is_deterministic_and_staged_rows():
    X, y = _data(seed=5)
    weights = _fold_weights(len(y), 3, seed=5)
    template = SPLLogitBoostClassifier(HistTreeRegressor(max_depth=2), n_estimators=12,
                                       age=1.2, random_state=7)
    a = _batched(template, X, y, weights, None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        b = fit_batched(template, X, y, weights, n_jobs=2)
    _assert_same_models(a, b, X)
    test = np.flatnonzero(weights[0] == 0)
    staged = staged_decision_rows(a[0], X[test])
    assert staged.shape == (a[0].n_estimators_, test.size)
    assert np.array_equal(staged, np.array(list(a[0].staged_decision_function(X[test]))))
    assert np.array_equal(staged[-1], a[0].decision_function(X[test]))


@pytest.mark.parametrize("n_classes", [2, 3])
def test_staged_decision_rows_equals_staged_decision_function(n_classes):
    X, y = _data(n_classes=n_classes, seed=6)
    X_new = np.random.RandomState(1).randn(40, X.shape[1]) * 2  # outside the training range too
    for template in (SPLLogitBoostClassifier(HistTreeRegressor(max_depth=3), n_estimators=9),
                     SPLBoostClassifier(HistTreeClassifier(max_depth=2), n_estimators=9),
                     SPLBoostClassifier(DecisionTreeClassifier(max_depth=2), n_estimators=5,
                                        random_state=0)):
        (model,) = _batched(template, X, y, np.ones((1, len(y))), None)
        assert np.array_equal(staged_decision_rows(model, X_new),
                              np.array(list(model.staged_decision_function(X_new))))


def test_fit_batched_bad_input():
    X, y = _data(n=20)
    template = SPLLogitBoostClassifier(n_estimators=2)
    with pytest.raises(ValueError, match="shape \\(k, n_samples\\)"):
        fit_batched(template, X, y, np.ones(20))
    with pytest.raises(ValueError, match="param_overrides has 1 entries for 2 rows"):
        fit_batched(template, X, y, np.ones((2, 20)), [{}])
    with pytest.raises(TypeError, match="booster of robust_boosting"):
        fit_batched(DecisionTreeClassifier(), X, y, np.ones((1, 20)))
    with pytest.raises(ValueError, match="non-zero"):
        fit_batched(template, X, y, np.zeros((1, 20)))
    with pytest.raises(ValueError, match="age"):
        fit_batched(template, X, y, np.ones((1, 20)), [dict(age=-1.0)])


def test_monitor_stops_a_model_as_a_fit_with_that_many_rounds():
    """A model stopped by the monitor predicts as the same model fitted with that many rounds."""
    X, y = _data(seed=8)
    weights = _fold_weights(len(y), 3, seed=8)
    template = SPLLogitBoostClassifier(HistTreeRegressor(max_depth=2), n_estimators=25,
                                       age=1.5, learning_rate=0.3, random_state=2)
    stop_at = {0: 7, 1: 25, 2: 0}
    seen = {j: [] for j in stop_at}
    held_out = [w == 0 for w in weights]

    scores = {j: [] for j in stop_at}

    def monitor(j, request):
        seen[j].append(request.round)
        scores[j].append(request.scores[held_out[j]].copy())
        return request.round >= stop_at[j]

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a stop asked by the caller is no warning
        models = fit_batched(template, X, y, weights, monitor=monitor)
    for j, model in enumerate(models):
        rounds = stop_at[j]
        assert seen[j] == list(range(min(rounds, 24) + 1))
        if rounds == 0:
            assert model.n_estimators_ == 0
            continue
        ref = clone(template).set_params(n_estimators=rounds).fit(X, y, sample_weight=weights[j])
        assert model.n_estimators_ == rounds
        assert np.array_equal(model.decision_function(X), ref.decision_function(X))
        assert np.array_equal(model.self_paced_weights_, ref.self_paced_weights_)
        # the held-out scores the loop carried are the staged held-out decision values
        staged = staged_decision_rows(model, X[held_out[j]])
        seen_stages = np.array(scores[j][1:])  # after 1, 2, ... rounds
        assert np.array_equal(seen_stages, staged[:len(seen_stages)])
    assert models[0].stopping_reason_ == "stopped by the caller after 7 rounds"
    assert models[1].stopping_reason_ == "reached n_estimators"
    with pytest.raises(ValueError, match="n_jobs=None or 1"):
        fit_batched(template, X, y, weights, n_jobs=2, monitor=monitor)


def test_prediction_only_models_predict_the_same_without_fit_statistics():
    """fit_batched(prediction_only=True): the same predictions, staged ones included, from
    trees that no longer hold their node statistics."""
    X, y = _data(seed=9, n_classes=3)
    weights = _fold_weights(len(y), 3, seed=9)
    template = SPLLogitBoostClassifier(HistTreeRegressor(max_depth=3), n_estimators=12,
                                       age=np.inf, learning_rate=0.3, random_state=4)
    full = fit_batched(template, X, y, weights)
    slim = fit_batched(template, X, y, weights, prediction_only=True)
    for a, b in zip(full, slim, strict=True):
        np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))
        np.testing.assert_array_equal(staged_decision_rows(a, X), staged_decision_rows(b, X))
        trees = [t for ens in b.ensembles_ for per_class in ens.estimators
                 for t in per_class.estimators_]  # native multiclass: K trees a round
        assert trees and all(not hasattr(t.tree_, "gain") and hasattr(t.tree_, "value")
                             for t in trees)
        assert all(hasattr(t.tree_, "gain") for ens in a.ensembles_ for per_class in ens.estimators
                   for t in per_class.estimators_)


@pytest.mark.parametrize("age, loss", [(np.inf, "squared_error"), (np.inf, "huber"),
                                       (4.5, "squared_error")])
def test_prediction_only_self_paced_models_skip_only_their_losses(age, loss):
    """At an infinite age every self-paced weight is 1 whatever the losses, so a model that
    only predicts does not compute them: the same predictions, weights, counts and
    residual scale, and a latent objective of NaN. At a finite age nothing changes."""
    X, _ = _data(n=300, seed=3)
    y = X[:, 0] + np.sin(2 * X[:, 1]) + np.random.RandomState(3).standard_t(2, 300)
    weights = _fold_weights(len(y), 3, seed=3)
    template = SPLBoostRegressor(HistTreeRegressor(max_depth=3), n_estimators=15, age=age,
                                 loss=loss, learning_rate=0.3, random_state=2)
    full = fit_batched(template, X, y, weights)
    slim = fit_batched(template, X, y, weights, prediction_only=True)
    for a, b in zip(full, slim, strict=True):
        np.testing.assert_array_equal(a.predict(X), b.predict(X))
        for name in ("self_paced_weights_", "n_selected_", "inner_passes_", "ages_"):
            np.testing.assert_array_equal(getattr(a, name), getattr(b, name))
        assert a.residual_scale_ == b.residual_scale_
        assert np.isfinite(a.latent_objective_).all()
        if np.isfinite(age):
            np.testing.assert_array_equal(a.latent_objective_, b.latent_objective_)
            assert (a.self_paced_weights_ == 0).any()  # the age left rows out
        else:
            assert np.isnan(b.latent_objective_).all()
            assert b.latent_objective_.shape == a.latent_objective_.shape


def test_a_regressors_published_scale_is_its_final_residuals():
    """The published residual scale is the robust scale of the training residuals at the
    final scores, computed once when the loop ends."""
    X, _ = _data(n=200, seed=5)
    y = X[:, 0] + 0.3 * np.random.RandomState(5).randn(200)
    w = np.random.RandomState(6).uniform(0.5, 2.0, 200)
    for loss in ("squared_error", "huber"):
        model = SPLBoostRegressor(HistTreeRegressor(max_depth=2), n_estimators=8, age=np.inf,
                                  loss=loss, random_state=0).fit(X, y, sample_weight=w)
        assert model.residual_scale_ == robust_scale(y - model.predict(X), w)


def test_batched_dataframe_with_categorical_column_bit_identical():
    # trees with a categorical feature split it into sets of categories and are grown one
    # at a time (not by the batched grower); the models must still equal separate fits
    pd = pytest.importorskip("pandas")
    X, y = _data(n=160, p=3)
    rng = np.random.RandomState(1)
    colour = rng.choice(["red", "green", "blue", "grey"], size=len(y))
    y = np.where(np.isin(colour, ["red", "grey"]), 1 - y, y)  # a set split pays off
    frame = pd.DataFrame(X, columns=["a", "b", "c"]).assign(
        colour=pd.Categorical(colour))
    overrides = [dict(age=a) for a in (1.0, np.inf, 2.0)]
    weights = _fold_weights(len(y), len(overrides))
    template = SPLLogitBoostClassifier(HistTreeRegressor(max_depth=2), n_estimators=15,
                                       random_state=0)
    batched = _batched_equal_to_separate(template, frame, y, weights, overrides)
    assert any(t.tree_.has_categorical for m in batched for t in m.estimators_)


def test_batched_models_encode_a_frame_once(monkeypatch):
    # every model of a batch validates the same frame; its schema is built and its
    # categorical columns encoded once, and each model still gets what its own fit gives
    pd = pytest.importorskip("pandas")
    from robust_boosting import _validation
    from robust_boosting._schema import FeatureSchema

    X, y = _data(n=120, p=2)
    frame = pd.DataFrame(X, columns=["a", "b"]).assign(
        colour=pd.Categorical(np.random.RandomState(2).choice(["r", "g", "b"], len(y))),
        flag=np.arange(len(y)) % 3 == 0)
    calls = []
    encode = FeatureSchema.encode
    monkeypatch.setattr(FeatureSchema, "encode",
                        lambda self, *a, **k: calls.append(1) or encode(self, *a, **k))
    overrides = [dict(age=a) for a in (1.0, 2.0, np.inf, 3.0)]
    weights = _fold_weights(len(y), len(overrides))
    template = SPLLogitBoostClassifier(HistTreeRegressor(max_depth=2), n_estimators=8,
                                       random_state=0)
    batched = _batched(template, frame, y, weights, overrides)
    assert len(calls) == 1
    assert _validation._ENCODED.get() is None  # the memo lives only inside the batch
    separate = _separate(template, frame, y, weights, overrides)
    assert len(calls) == 1 + len(overrides)  # one fit: one encoding each
    _assert_same_models(batched, separate, frame)
    for a, b in zip(batched, separate, strict=True):
        assert pickle.dumps(a.feature_schema_) == pickle.dumps(b.feature_schema_)
        assert list(a.feature_names_in_) == list(b.feature_names_in_)


def test_spare_histogram_slots_give_the_same_trees():
    """The grower keeps a call's histogram slots for the next call of that size
    (docs/design/0044): a wide fit (slots above the C library's mapping threshold), a
    narrow one (another size: the spares are freed) and the wide one again give the same
    trees (a slot is written before it is read)."""
    rng = np.random.default_rng(5)
    Xw, Xn = rng.normal(size=(600, 60)), rng.normal(size=(300, 4))
    yw = (Xw[:, 0] + Xw[:, 1] * Xw[:, 2] + rng.normal(scale=0.5, size=600) > 0).astype(int)
    yn = (Xn[:, 0] > 0).astype(int)

    def wide():
        est = SPLLogitBoostClassifier(HistTreeRegressor(max_depth=6, grow_policy="symmetric"),
                                      n_estimators=15, random_state=0).fit(Xw, yw)
        return est.decision_function(Xw)

    first = wide()
    second = wide()  # the first fit's slots, taken as spares
    SPLLogitBoostClassifier(HistTreeRegressor(max_depth=3), n_estimators=5,
                            random_state=0).fit(Xn, yn)  # another slot size
    np.testing.assert_array_equal(first, second)
    np.testing.assert_array_equal(first, wide())
