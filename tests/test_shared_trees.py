"""Shared multiclass trees: one symmetric tree per Newton round with a value per class
(:class:`~robust_boosting.trees.SharedSymmetricTree`, ``multiclass_trees="shared"``)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import make_classification

from robust_boosting import SPLBoostClassifierCV, load_model, save_model
from robust_boosting._batched import fit_batched
from robust_boosting.classical import LogitBoostClassifier, SPLLogitBoostClassifier
from robust_boosting.trees import HistTreeRegressor, SharedSymmetricTree


def _tree(**kw):
    params = dict(grow_policy="symmetric", max_depth=4, l2_regularization=2.0)
    return HistTreeRegressor(**{**params, **kw})


def _score(s, lam):
    k = s.shape[0] // 2
    den = s[k:] + lam
    return float(np.sum(np.where(den > 0, s[:k] ** 2 / np.where(den > 0, den, 1), 0.0)))


def _node_options(c, g, b, missing_bin, lam):
    """A node's scores at threshold ``b`` with its missing values right, then left (when it
    has some), from the definitions: the two children's ``sum_k G^2 / (H + lam)`` when both
    have rows, else the node's own score."""
    parent = _score(g.sum(axis=0), lam)
    miss = c == missing_bin
    options = []
    for go_left in (False, True):
        if go_left and not miss.any():
            continue
        lmask = (c <= b) | (miss & go_left)
        if lmask.any() and (~lmask).any():
            options.append(_score(g[lmask].sum(axis=0), lam) + _score(g[~lmask].sum(axis=0), lam))
        else:
            options.append(parent)
    return options


def _level_totals(codes, missing_bin, n_bins, node, m, gh, lam):
    """Reference scan of one level: the summed score of every ``(f, b)`` (each node at its
    better missing side) and the level's score without a split."""
    totals = {}
    for f in range(codes.shape[0]):
        for b in range(n_bins[f]):
            totals[f, b] = sum(max(_node_options(codes[f, node == nd], gh[node == nd], b,
                                                 missing_bin, lam))
                               for nd in range(m))
    no_split = sum(_score(gh[node == nd].sum(axis=0), lam) for nd in range(m))
    return totals, no_split


@settings(max_examples=40, deadline=None)
@given(n=st.integers(4, 60), n_features=st.integers(1, 3), k=st.integers(3, 4),
       depth=st.integers(1, 3), lam=st.sampled_from([0.0, 0.5, 4.0]),
       n_levels=st.integers(2, 6), missing=st.booleans(), seed=st.integers(0, 2**31 - 1))
def test_levels_and_leaves_follow_their_definitions(n, n_features, k, depth, lam, n_levels,
                                                    missing, seed):
    """Every level's split is a candidate that divides (its total above the level's score
    without a split) with the highest total (up to rounding), each node's missing values go
    to its better side, growth stops only when no candidate is left, and the leaves are
    ``G_k / (H_k + λ_k)``; the raw data predict as their binned form."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, n_levels, size=(n, n_features)).astype(float)
    if missing:
        X[rng.random(X.shape) < 0.2] = np.nan
    Y = rng.normal(size=(n, k))
    W = rng.uniform(0.05, 1.0, size=(n, k))
    W[rng.random(n) < 0.2] = 0.0
    if not W.any():
        W[0] = 1.0
    _check_against_reference(X, Y, W, depth, lam)


def _check_against_reference(X, Y, W, depth, lam):
    """The checks of :func:`test_levels_and_leaves_follow_their_definitions`."""
    est = _tree(max_depth=depth, l2_regularization=lam)
    Xb = est.prepare_data(X)
    tree = SharedSymmetricTree(est).fit(Xb, Y, W)
    mapper = Xb.mapper
    active = W.sum(axis=1) > 0
    codes = Xb.codes_t[:, active]
    gh = np.hstack([W * Y, W])[active]
    lam_k = lam * W[active].sum(axis=0) / active.sum()
    node = np.zeros(codes.shape[1], dtype=np.int64)
    levels = len(tree.feature_)
    for d in range(depth):
        totals, no_split = _level_totals(codes, mapper.missing_bin_, mapper.n_bins_,
                                                node, 2**d, gh, lam_k)
        valid = {key: t for key, t in totals.items() if t > no_split + 1e-12 * abs(no_split)}
        tol = 1e-9 * (1 + abs(no_split))
        if d == levels:  # growth stopped: no candidate divides (up to rounding)
            assert all(t <= no_split + tol for t in totals.values())
            break
        f, b = int(tree.feature_[d]), int(tree.threshold_bin_[d])
        assert totals[f, b] > no_split - tol
        assert totals[f, b] >= max(valid.values(), default=-np.inf) - tol
        np.testing.assert_allclose(tree.gain_[d], totals[f, b] - no_split, rtol=1e-9, atol=tol)
        c = codes[f]
        ml = tree.missing_go_left_[d][node]
        right = np.where(c == mapper.missing_bin_, ml == 0, c > b)
        for nd in range(2**d):
            rows = node == nd
            if (c[rows] == mapper.missing_bin_).any():
                right_score, left_score = _node_options(c[rows], gh[rows], b,
                                                        mapper.missing_bin_, lam_k)
                chosen = left_score if tree.missing_go_left_[d][nd] else right_score
                assert chosen >= max(right_score, left_score) - tol
        node = 2 * node + right
    k_ = Y.shape[1]
    G = np.stack([np.bincount(node, gh[:, j], 2**levels) for j in range(k_)], 1)
    H = np.stack([np.bincount(node, gh[:, k_ + j], 2**levels) for j in range(k_)], 1)
    den = H + lam_k
    expected = np.where(den > 0, G / np.where(den > 0, den, 1), 0.0)
    np.testing.assert_allclose(tree.value_, expected, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(tree.predict(X), tree.predict(Xb))
    np.testing.assert_array_equal(tree.apply(Xb)[active], node)


def test_subtracted_histograms_follow_the_definitions():
    """On enough rows per node the grower builds each smaller child's histogram from its
    rows and the larger one's by subtraction (from the root to the last level, and
    streamed at the last level); the levels and leaves still follow the definitions."""
    rng = np.random.default_rng(3)
    n = 3000
    X = rng.integers(0, 5, size=(n, 3)).astype(float)
    X[rng.random(X.shape) < 0.1] = np.nan
    Y = rng.normal(size=(n, 3)) + np.nan_to_num(X[:, :1]) % 2
    W = rng.uniform(0.05, 1.0, size=(n, 3))
    W[rng.random(n) < 0.1] = 0.0
    for lam in (0.0, 3.0):
        _check_against_reference(X, Y, W, 5, lam)


def test_missing_values_go_to_the_better_side():
    """A node whose missing rows look like its right rows sends them right, and left when
    they look like its left rows."""
    x = np.r_[np.zeros(20), np.ones(20), np.full(10, np.nan)]
    X = x[:, None]
    Y = np.zeros((50, 3))
    Y[:20, 0] = 1.0
    Y[20:, 1] = 1.0
    for like, side in ((1, 0), (0, 1)):
        Y[40:] = 0.0
        Y[40:, like] = 1.0
        tree = SharedSymmetricTree(_tree(max_depth=1)).fit(X, Y, np.ones_like(Y))
        assert tree.missing_go_left_[0, 0] == side
        pred = tree.predict(np.array([[np.nan]]))
        assert pred.argmax() == like


def test_random_split_scores_do_not_depend_on_threads_and_are_seeded(monkeypatch):
    from robust_boosting.trees import growing

    monkeypatch.setattr(growing, "_PARALLEL_MIN_WORK", 0)  # every level's scan on the threads
    X, _ = make_classification(400, 8, random_state=0)
    rng = np.random.default_rng(1)
    Y, W = rng.normal(size=(400, 4)), rng.uniform(0.1, 1.0, size=(400, 4))
    fits = [SharedSymmetricTree(_tree(random_strength=1.0, random_state=7, n_jobs=j))
            .fit(X, Y, W) for j in (1, 2, 1)]
    for other in fits[1:]:
        np.testing.assert_array_equal(fits[0].value_, other.value_)
        np.testing.assert_array_equal(fits[0].feature_, other.feature_)
    plain = SharedSymmetricTree(_tree(random_state=7)).fit(X, Y, W)
    seeds = {tuple(SharedSymmetricTree(_tree(random_strength=1.0, random_state=s))
                   .fit(X, Y, W).threshold_bin_) for s in range(5)}
    assert len(seeds) > 1  # the noise changes the splits
    zero = SharedSymmetricTree(_tree(random_strength=0.0, random_state=3)).fit(X, Y, W)
    np.testing.assert_array_equal(zero.value_, plain.value_)


def test_bad_learners_and_inputs_are_refused():
    X, y = make_classification(60, 4, n_informative=3, n_redundant=0, n_classes=3,
                               random_state=0)
    with pytest.raises(ValueError, match="grow_policy='symmetric'"):
        LogitBoostClassifier(HistTreeRegressor(max_depth=3), multiclass_trees="shared").fit(X, y)
    with pytest.raises(ValueError, match="grow_policy='symmetric'"):
        LogitBoostClassifier(multiclass_trees="shared").fit(X, y)  # the default stump
    with pytest.raises(ValueError, match="min_samples_leaf=1"):
        LogitBoostClassifier(_tree(min_samples_leaf=5), multiclass_trees="shared").fit(X, y)
    with pytest.raises(TypeError, match="HistTreeRegressor"):
        SharedSymmetricTree(None).fit(X, np.zeros((60, 3)))
    with pytest.raises(ValueError, match="multiclass_trees"):
        LogitBoostClassifier(_tree(), multiclass_trees="one").fit(X, y)
    tree = SharedSymmetricTree(_tree())
    with pytest.raises(ValueError, match="2-d response"):
        tree.fit(X, np.zeros(60))
    with pytest.raises(ValueError, match="finite"):
        tree.fit(X, np.full((60, 3), np.nan))
    with pytest.raises(ValueError, match="overflows"):
        tree.fit(X, np.full((60, 3), 1e300), np.full((60, 3), 1e300))
    with pytest.raises(ValueError, match="zero for every sample"):
        tree.fit(X, np.zeros((60, 3)), np.zeros((60, 3)))
    fitted = tree.fit(X, np.ones((60, 3)))
    with pytest.raises(ValueError, match="features"):
        fitted.predict(X[:, :2])


def _data(k=4, n=300, seed=0):
    return make_classification(n, 8, n_informative=5, n_classes=k, n_clusters_per_class=1,
                               random_state=seed)


def test_booster_is_seeded_batched_and_saved_exactly(tmp_path, monkeypatch):
    """The same models whatever the threads, in a batched fit as alone, and after a
    save/load round trip; two classes ignore the option (the binary path, bit for bit)."""
    from robust_boosting.trees import growing

    monkeypatch.setattr(growing, "_PARALLEL_MIN_WORK", 0)  # every level's scan on the threads
    X, y = _data()
    def make():
        return LogitBoostClassifier(_tree(random_strength=1.0), n_estimators=20,
                                    learning_rate=0.3, random_state=3, multiclass_trees="shared")

    est = make().fit(X, y)
    assert all(isinstance(e, SharedSymmetricTree) for ens in est.ensembles_
               for e in ens.estimators)
    est1 = make()
    est1.estimator.n_jobs = 1
    est1.fit(X, y)
    np.testing.assert_array_equal(est.predict_proba(X), est1.predict_proba(X))
    w = np.ones((2, len(y)))
    w[0, ::3] = 0.0
    batched = fit_batched(make(), X, y, w)
    alone = make().fit(X, y, sample_weight=w[0])
    np.testing.assert_array_equal(batched[0].predict_proba(X), alone.predict_proba(X))
    np.testing.assert_array_equal(batched[1].predict_proba(X), est.predict_proba(X))
    path = tmp_path / "shared.skops"
    save_model(est, path)
    np.testing.assert_array_equal(load_model(path).predict_proba(X), est.predict_proba(X))
    assert est.feature_importances_.shape == (8,)
    np.testing.assert_allclose(est.feature_importances_.sum(), 1.0)
    Xb, yb = _data(k=2)
    binary = [LogitBoostClassifier(_tree(), n_estimators=10, random_state=0,
                                   multiclass_trees=m).fit(Xb, yb) for m in ("per_class", "shared")]
    np.testing.assert_array_equal(binary[0].predict_proba(Xb), binary[1].predict_proba(Xb))


def test_self_paced_booster_takes_shared_trees():
    X, y = _data(k=3)
    est = SPLLogitBoostClassifier(_tree(), n_estimators=15, age=3.0, random_state=0,
                                  multiclass_trees="shared").fit(X, y)
    assert isinstance(est.ensembles_[0].estimators[0], SharedSymmetricTree)
    assert est.score(X, y) > 0.8


def test_first_round_leaves_are_newton_steps():
    """Round 1 from F = 0 (p_k = 1/K): leaf j's value for class k is the penalised Newton
    step sum(w z_k) / (sum(w) + λ) over its rows, z_k = (1[y = k] - p_k) / (p_k (1 - p_k))
    and w = p_k (1 - p_k), and the round adds (K - 1)/K times it, as the per-class trees'
    leaves (Friedman 2001, Algorithm 6)."""
    X, y = _data(k=3, n=300)
    k, lam = 3, 2.0
    model = LogitBoostClassifier(_tree(max_depth=2, l2_regularization=lam), n_estimators=1,
                                 learning_rate=1.0, random_state=0,
                                 multiclass_trees="shared").fit(X, y)
    tree = model.estimators_[0]
    leaves = tree.apply(X)
    p = 1.0 / k
    w = p * (1 - p)
    expected = np.zeros((len(y), k))
    for c in range(k):
        z = ((y == c) - p) / w
        for leaf in np.unique(leaves):
            rows = leaves == leaf
            expected[rows, c] = (w * z[rows]).sum() / (w * rows.sum() + lam * w)
    np.testing.assert_allclose(tree.predict(X), expected, rtol=1e-12, atol=1e-15)
    raw = model.decision_function(X)
    full = (k - 1) / k * expected
    np.testing.assert_allclose(raw - raw.mean(axis=1, keepdims=True),
                               full - full.mean(axis=1, keepdims=True), atol=1e-12)
    assert len(np.unique(leaves)) == 4


def test_search_uses_shared_trees_for_its_small_symmetric_candidate():
    X, y = _data(k=3, n=240)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est = SPLBoostClassifierCV(random_state=0, n_estimators=20).fit(X, y)
    table = est.cv_results_
    trees = dict(zip(table["param_grow_policy"], table["param_multiclass_trees"], strict=True))
    assert trees == {"depthwise": "per_class", "symmetric": "shared"}
    per_class = SPLBoostClassifierCV(random_state=0, n_estimators=20,
                                     multiclass_trees="per_class")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        per_class.fit(X, y)
    assert set(per_class.cv_results_["param_multiclass_trees"]) == {"per_class"}
    with pytest.raises(ValueError, match="multiclass_trees='shared'"):
        SPLBoostClassifierCV(grow_policy="depthwise", multiclass_trees="shared").fit(X, y)
    with pytest.raises(ValueError, match="multiclass_trees"):
        SPLBoostClassifierCV(multiclass_trees="both").fit(X, y)
