"""Label-noise generators: exact counts, masks, seeding, validation."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robust_boosting.noise import (
    flip_labels,
    flip_labels_class_conditional,
    flip_labels_instance_dependent,
    flip_labels_per_class,
    n_flips,
)

binary_labels = st.lists(st.sampled_from([-1, 1]), min_size=1, max_size=80).map(np.array)
rates = st.floats(0.0, 0.99)
seeds = st.integers(0, 2**31 - 1)


def _check_common(y, y_noisy, flipped):
    assert y_noisy.shape == y.shape and flipped.dtype == bool
    np.testing.assert_array_equal(flipped, y_noisy != y)


@settings(max_examples=60, deadline=None)
@given(y=binary_labels, rate=rates, seed=seeds)
def test_symmetric_binary_properties(y, rate, seed):
    original = y.copy()
    y_noisy, flipped = flip_labels(y, rate, random_state=seed)
    np.testing.assert_array_equal(y, original)  # input untouched
    _check_common(y, y_noisy, flipped)
    assert flipped.sum() == n_flips(rate, len(y))
    np.testing.assert_array_equal(y_noisy[flipped], -y[flipped])
    again = flip_labels(y, rate, random_state=seed)
    np.testing.assert_array_equal(again[0], y_noisy)
    np.testing.assert_array_equal(again[1], flipped)


@settings(max_examples=60, deadline=None)
@given(
    y=st.lists(st.sampled_from(["cat", "dog", "eel", "fox"]), min_size=2, max_size=60),
    rate=rates,
    seed=seeds,
)
def test_symmetric_multiclass_goes_to_other_class(y, rate, seed):
    y = np.array(y)
    classes = ["cat", "dog", "eel", "fox"]
    y_noisy, flipped = flip_labels(y, rate, classes=classes, random_state=seed)
    _check_common(y, y_noisy, flipped)
    assert flipped.sum() == n_flips(rate, len(y))
    assert set(y_noisy.tolist()) <= set(classes)


def test_n_flips_rounding():
    assert n_flips(0.15, 20) == 3
    assert n_flips(0.05, 50) == 3  # 2.5 rounds up
    assert n_flips(0.3, 7) == 2
    assert n_flips(0.0, 100) == 0
    assert n_flips(0.1, 0) == 0


def test_multiclass_target_is_uniform_over_other_classes():
    y = np.zeros(30000, dtype=int)
    y_noisy, flipped = flip_labels(y, 0.5, classes=[0, 1, 2, 3], random_state=0)
    counts = Counter(y_noisy[flipped].tolist())
    assert set(counts) == {1, 2, 3}
    for c in (1, 2, 3):
        assert counts[c] / 15000 == pytest.approx(1 / 3, abs=0.02)


def test_different_seeds_differ_and_flips_are_spread():
    y = np.tile([-1, 1], 500)
    a = flip_labels(y, 0.2, random_state=1)[1]
    b = flip_labels(y, 0.2, random_state=2)[1]
    assert not np.array_equal(a, b)
    total = sum(flip_labels(y, 0.2, random_state=s)[1].astype(int) for s in range(200))
    assert total.min() > 0  # every position can be chosen


@settings(max_examples=60, deadline=None)
@given(y=binary_labels, rate=rates, seed=seeds)
def test_per_class_exact_counts(y, rate, seed):
    y_noisy, flipped = flip_labels_per_class(y, rate, random_state=seed)
    _check_common(y, y_noisy, flipped)
    for c in (-1, 1):
        assert flipped[y == c].sum() == n_flips(rate, int((y == c).sum()))


def test_per_class_rates_by_mapping_and_sequence():
    y = np.array([-1] * 100 + [1] * 50)
    _, f = flip_labels_per_class(y, {-1: 0.1, 1: 0.3}, random_state=0)
    assert f[y == -1].sum() == 10 and f[y == 1].sum() == 15
    _, f = flip_labels_per_class(y, [0.0, 0.2], random_state=0)
    assert f[y == -1].sum() == 0 and f[y == 1].sum() == 10
    labels = np.array(["a"] * 40 + ["b"] * 20 + ["c"] * 10)
    y_noisy, f = flip_labels_per_class(labels, {"a": 0.25}, random_state=3)
    assert f[labels == "a"].sum() == 10 and not f[labels != "a"].any()
    assert set(y_noisy[f].tolist()) <= {"b", "c"}
    with pytest.raises(ValueError, match="unknown classes"):
        flip_labels_per_class(labels, {"z": 0.1})
    with pytest.raises(ValueError, match="3 rates given for 2 classes"):
        flip_labels_per_class(y, [0.1, 0.1, 0.1])


def test_splboost_synthetic_noise():
    from robust_boosting.datasets import make_splboost_gaussian

    _, y = make_splboost_gaussian(random_state=0)
    y_noisy, flipped = flip_labels_per_class(y, 0.15, random_state=0)
    assert flipped[y == -1].sum() == 15 and flipped[y == 1].sum() == 15


def test_class_conditional_rates_match_matrix():
    y = np.array([-1] * 20000 + [1] * 20000)
    T = [[0.9, 0.1], [0.3, 0.7]]
    y_noisy, flipped = flip_labels_class_conditional(y, T, random_state=0)
    _check_common(y, y_noisy, flipped)
    assert flipped[y == -1].mean() == pytest.approx(0.1, abs=0.01)
    assert flipped[y == 1].mean() == pytest.approx(0.3, abs=0.01)
    _, f = flip_labels_class_conditional(y, T, exact=True, random_state=0)
    assert f[y == -1].sum() == 2000 and f[y == 1].sum() == 6000


def test_class_conditional_multiclass_exact():
    y = np.repeat([0, 1, 2], [100, 60, 30])
    T = np.array([[0.8, 0.15, 0.05], [0.0, 1.0, 0.0], [0.5, 0.25, 0.25]])
    y_noisy, flipped = flip_labels_class_conditional(y, T, exact=True, random_state=1)
    _check_common(y, y_noisy, flipped)
    assert Counter(y_noisy[y == 0].tolist()) == {0: 80, 1: 15, 2: 5}
    assert not flipped[y == 1].any()
    assert Counter(y_noisy[y == 2].tolist()) == {0: 15, 1: 8, 2: 7}  # 7.5 / 7.5 rounded
    same = flip_labels_class_conditional(y, T, exact=True, random_state=1)
    np.testing.assert_array_equal(same[0], y_noisy)


@settings(max_examples=40, deadline=None)
@given(
    y=st.lists(st.sampled_from([3, 5, 7]), min_size=1, max_size=50).map(np.array),
    seed=seeds,
)
def test_class_conditional_properties(y, seed):
    T = [[0.6, 0.3, 0.1], [0.2, 0.7, 0.1], [0.1, 0.1, 0.8]]
    original = y.copy()
    y_noisy, flipped = flip_labels_class_conditional(y, T, classes=[3, 5, 7], random_state=seed)
    np.testing.assert_array_equal(y, original)
    _check_common(y, y_noisy, flipped)
    assert set(y_noisy.tolist()) <= {3, 5, 7}
    again = flip_labels_class_conditional(y, T, classes=[3, 5, 7], random_state=seed)
    np.testing.assert_array_equal(again[0], y_noisy)


def _boundary_data(n=400, seed=0):
    rng = np.random.RandomState(seed)
    X = rng.normal(size=(n, 2))
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=n) > 0, 1, -1)
    return X, y


def test_instance_dependent_flips_concentrate_near_boundary():
    X, y = _boundary_data()
    original = y.copy()
    y_noisy, flipped = flip_labels_instance_dependent(y, 0.2, X=X, random_state=0)
    np.testing.assert_array_equal(y, original)
    _check_common(y, y_noisy, flipped)
    assert flipped.sum() == 80
    dist = np.abs(X[:, 0])
    assert np.median(dist[flipped]) < 0.6 * np.median(dist[~flipped])
    # sharpness 0 is symmetric noise: no concentration
    _, uniform = flip_labels_instance_dependent(y, 0.2, X=X, sharpness=0, random_state=0)
    assert np.median(dist[uniform]) > np.median(dist[flipped])
    again = flip_labels_instance_dependent(y, 0.2, X=X, random_state=0)
    np.testing.assert_array_equal(again[1], flipped)


def test_instance_dependent_with_scores_and_multiclass():
    X, y = _boundary_data()
    _, f = flip_labels_instance_dependent(y, 0.1, scores=X[:, 0], sharpness=8, random_state=0)
    assert f.sum() == 40 and np.abs(X[f, 0]).max() < np.abs(X[:, 0]).max()
    labels = np.repeat(["a", "b", "c"], 50)
    scores = np.zeros((150, 3))
    scores[:, 0] = 1.0
    scores[:, 2] = 0.5  # for a and c the closest other class is fixed
    scores[:50, 2] = 0.9
    y_noisy, f = flip_labels_instance_dependent(labels, 0.4, scores=scores, random_state=0)
    _check_common(labels, y_noisy, f)
    assert f.sum() == 60
    assert set(y_noisy[f & (labels == "a")].tolist()) <= {"c"}
    assert set(y_noisy[f & (labels == "b")].tolist()) <= {"a"}
    assert set(y_noisy[f & (labels == "c")].tolist()) <= {"a"}
    y_u, f_u = flip_labels_instance_dependent(
        labels, 0.4, scores=scores, target="uniform", random_state=0
    )
    assert (y_u[f_u] != labels[f_u]).all()


# --- validation ----------------------------------------------------------------


@pytest.mark.parametrize("rate", [-0.1, 1.0, 1.5, float("nan"), "x"])
def test_rates_outside_unit_interval_are_refused(rate):
    y = np.array([-1, 1, 1, -1])
    for func in (flip_labels, flip_labels_per_class):
        with pytest.raises(ValueError, match=r"\[0, 1\)"):
            func(y, rate)
    with pytest.raises(ValueError, match=r"\[0, 1\)"):
        flip_labels_instance_dependent(y, rate, scores=np.zeros(4))
    with pytest.raises(ValueError, match=r"\[0, 1\)"):
        flip_labels_per_class(y, {-1: 0.1, 1: rate})


@pytest.mark.parametrize(
    "T, match",
    [
        ([[0.9, 0.2], [0.3, 0.7]], "rows must sum to 1; row\\(s\\) \\[0\\]"),
        ([[0.9, 0.1], [0.3, 0.6]], "rows must sum to 1; row\\(s\\) \\[1\\]"),
        ([[1.1, -0.1], [0.3, 0.7]], "probabilities in \\[0, 1\\]"),
        ([[0.9, 0.1, 0.0], [0.3, 0.7, 0.0]], "must be 2 x 2"),
        ([[0.0, 1.0], [0.3, 0.7]], "flip rate of class index 0"),
    ],
)
def test_bad_transition_matrices_are_refused(T, match):
    with pytest.raises(ValueError, match=match):
        flip_labels_class_conditional(np.array([-1, 1]), T)


def test_other_validation():
    with pytest.raises(ValueError, match="at least two classes"):
        flip_labels(np.array(["a", "a"]), 0.5)
    with pytest.raises(ValueError, match="not in classes"):
        flip_labels(np.array([0, 1, 2]), 0.5, classes=[0, 1])
    with pytest.raises(ValueError, match="one-dimensional"):
        flip_labels(np.ones((2, 2)), 0.5)
    with pytest.raises(ValueError, match="give X"):
        flip_labels_instance_dependent(np.array([-1, 1]), 0.5)
    # only +1 present: still binary, flipped to -1
    y_noisy, f = flip_labels(np.ones(10, dtype=int), 0.3, random_state=0)
    assert f.sum() == 3 and set(y_noisy[f].tolist()) == {-1}


def test_noise_registry_is_the_one_the_experiments_use():
    from robust_boosting.experiments.tasks import NOISE_MODELS as task_models
    from robust_boosting.noise import NOISE_MODELS, apply_noise

    assert tuple(NOISE_MODELS) == task_models
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 3))
    y = np.where(X[:, 0] > 0, 1, -1)
    for name in NOISE_MODELS:
        y_noisy, flipped = apply_noise(name, y, 0.2, X=X, random_state=0)
        np.testing.assert_array_equal(flipped, y_noisy != y)
        assert flipped.any() == (name != "none")
        assert not apply_noise(name, y, 0.0, X=X, random_state=0)[1].any()
    with pytest.raises(ValueError, match="unknown noise model"):
        apply_noise("gaussian", y, 0.1)


# ------------------------------------------------------------------ annotator-like kinds
def _blobs(n=600, k=3, seed=0):
    from sklearn.datasets import make_classification
    return make_classification(n, 6, n_informative=4, n_redundant=0, n_classes=k,
                               n_clusters_per_class=1, class_sep=0.8, random_state=seed)


@settings(max_examples=40, deadline=None)
@given(st.integers(20, 120), st.integers(2, 4), rates, seeds)
def test_hardest_flips_the_top_scores_to_the_closest_class(n, k, rate, seed):
    from robust_boosting.noise import flip_labels_hardest
    rng = np.random.default_rng(seed)
    y = np.arange(n) % k
    proba = rng.dirichlet(np.ones(k), size=n)
    y_noisy, flipped = flip_labels_hardest(y, rate, proba=proba, random_state=seed)
    _check_common(y, y_noisy, flipped)
    assert flipped.sum() == n_flips(rate, n)
    other = proba.copy()
    other[np.arange(n), y] = -np.inf
    score = other.max(axis=1)
    # every flipped row scores at least as high as every kept row, and goes to its closest
    if flipped.any() and (~flipped).any():
        assert score[flipped].min() >= score[~flipped].max()
    np.testing.assert_array_equal(y_noisy[flipped], other.argmax(axis=1)[flipped])
    again = flip_labels_hardest(y, rate, proba=proba, random_state=seed)
    np.testing.assert_array_equal(again[0], y_noisy)


@settings(max_examples=40, deadline=None)
@given(st.integers(20, 120), st.integers(2, 4), rates, seeds, st.sampled_from(["I", "II", "III"]))
def test_pmd_flips_an_exact_count_to_the_closest_class(n, k, rate, seed, pmd_type):
    from robust_boosting.noise import flip_labels_pmd
    rng = np.random.default_rng(seed)
    y = np.arange(n) % k
    proba = rng.dirichlet(np.ones(k), size=n)
    y_noisy, flipped = flip_labels_pmd(y, rate, proba=proba, pmd_type=pmd_type,
                                       random_state=seed)
    _check_common(y, y_noisy, flipped)
    assert flipped.sum() == n_flips(rate, n)
    other = proba.copy()
    other[np.arange(n), y] = -np.inf
    np.testing.assert_array_equal(y_noisy[flipped], other.argmax(axis=1)[flipped])
    again = flip_labels_pmd(y, rate, proba=proba, pmd_type=pmd_type, random_state=seed)
    np.testing.assert_array_equal(again[0], y_noisy)


@pytest.mark.parametrize("kind, gap", [("hardest", 0.15), ("pmd", 0.05)])
def test_row_dependent_kinds_flip_the_rows_near_another_class(kind, gap):
    """From a reference model's out-of-fold probabilities: the flipped rows are the ones
    another model finds ambiguous, far more than symmetric flips are, and most go to the
    class that model finds closest."""
    from sklearn.ensemble import HistGradientBoostingClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_val_predict

    from robust_boosting.noise import flip_labels_hardest, flip_labels_pmd, reference_proba

    X, y = _blobs()
    proba = reference_proba(X, y, estimator=HistGradientBoostingClassifier(max_iter=30),
                            random_state=0)
    flip = flip_labels_hardest if kind == "hardest" else flip_labels_pmd
    y_noisy, flipped = flip(y, 0.2, proba=proba, random_state=0)
    assert flipped.sum() == 120
    _, sym = flip_labels(y, 0.2, random_state=0)
    p = cross_val_predict(LogisticRegression(max_iter=1000), X, y, cv=5,
                          method="predict_proba")
    own = p[np.arange(len(y)), y]
    assert own[flipped].mean() < own[sym].mean() - gap  # PMD's polynomials are gentler
    other = p.copy()
    other[np.arange(len(y)), y] = -np.inf
    assert np.mean(y_noisy[flipped] == other.argmax(axis=1)[flipped]) > 0.7


@pytest.mark.parametrize("kind", ["hardest", "pmd"])
def test_flip_labels_kind_fits_the_reference_itself_deterministically(kind):
    X, y = _blobs(n=200)
    y_noisy, flipped = flip_labels(y, 0.1, kind=kind, X=X, random_state=0)
    assert flipped.sum() == 20
    np.testing.assert_array_equal(flip_labels(y, 0.1, kind=kind, X=X, random_state=0)[0],
                                  y_noisy)


def test_reference_proba_on_a_mixed_frame_and_bad_input():
    import pandas as pd

    from robust_boosting.noise import flip_labels_hardest, flip_labels_pmd, reference_proba
    X, y = _blobs(n=300, k=2)
    frame = pd.DataFrame(X, columns=[f"x{i}" for i in range(6)])
    frame["colour"] = np.where(X[:, 0] > 0, "red", None)
    from sklearn.ensemble import HistGradientBoostingClassifier
    quick = HistGradientBoostingClassifier(max_iter=20)
    p = reference_proba(frame, y, estimator=quick, random_state=0)
    assert p.shape == (300, 2) and np.allclose(p.sum(axis=1), 1.0)
    np.testing.assert_array_equal(p, reference_proba(frame, y, estimator=quick, random_state=0))
    with pytest.raises(ValueError, match="give X"):
        flip_labels_hardest(y, 0.1)
    with pytest.raises(ValueError, match="shape"):
        flip_labels_pmd(y, 0.1, proba=p[:, :1])
    with pytest.raises(ValueError, match="pmd_type"):
        flip_labels_pmd(y, 0.1, proba=p, pmd_type="IV")
    with pytest.raises(ValueError, match="cv must"):
        reference_proba(X, y, cv=1)
    with pytest.raises(ValueError, match="rows"):
        reference_proba(X[:10], y)
    with pytest.raises(ValueError, match="classes="):
        flip_labels(y, 0.1, kind="pmd", X=X, classes=[0, 1])
    with pytest.raises(ValueError, match="unknown noise model"):
        flip_labels(y, 0.1, kind="nope")
