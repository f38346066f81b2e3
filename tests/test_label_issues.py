"""robust_boosting.label_issues: what confident learning's math promises."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robust_boosting.label_issues import (
    anchor_floors,
    anchor_noise_rate,
    calibrated_joint,
    class_sums,
    class_thresholds,
    confident_guess,
    confident_joint,
    estimate_noise_rate,
    final_weights,
    find_label_issues,
    label_retention,
    margin_suspects,
    noise_rate_of,
    prune_counts,
)


def _separable(n=300, k=3, flips=12, seed=0):
    """Out-of-fold probabilities that separate the true classes perfectly (0.9 on the true
    class), and given labels with ``flips`` of them changed to another class."""
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, k, n)
    proba = np.full((n, k), 0.1 / (k - 1))
    proba[np.arange(n), y_true] = 0.9
    flipped = np.zeros(n, dtype=bool)
    flipped[rng.choice(n, flips, replace=False)] = True
    y = np.where(flipped, (y_true + rng.integers(1, k, n)) % k, y_true)
    return proba, y, y_true, flipped


@pytest.mark.parametrize("only_misclassified", [True, False])
def test_known_flips_on_separable_probabilities_are_found(only_misclassified):
    proba, y, _, flipped = _separable()
    found = find_label_issues(proba, y, only_misclassified=only_misclassified)
    np.testing.assert_array_equal(found, flipped)
    assert estimate_noise_rate(proba, y) == pytest.approx(flipped.mean())


def test_confident_joint_counts_given_against_true_class_and_sums_to_n():
    proba, y, y_true, _ = _separable(k=4, flips=30, seed=1)
    counts = np.zeros((4, 4))
    np.add.at(counts, (y, y_true), 1.0)
    np.testing.assert_allclose(confident_joint(proba, y), counts)
    # any probabilities: each row is calibrated to its label's count
    rng = np.random.default_rng(2)
    p = rng.dirichlet(np.ones(4), 500)
    labels = rng.integers(0, 4, 500)
    joint = confident_joint(p, labels)
    np.testing.assert_allclose(joint.sum(axis=1), np.bincount(labels, minlength=4))
    assert joint.sum() == pytest.approx(500)
    assert 0.0 <= noise_rate_of(joint) <= 1.0


def test_clean_labels_have_no_issues_and_noise_rate_zero():
    proba, _, y_true, _ = _separable(flips=0)
    assert estimate_noise_rate(proba, y_true) == 0.0
    assert not find_label_issues(proba, y_true, only_misclassified=False).any()
    assert prune_counts(confident_joint(proba, y_true)) == []
    np.testing.assert_array_equal(label_retention(confident_joint(proba, y_true)), np.ones(3))


def test_partition_wise_reductions_add_up_to_the_whole():
    rng = np.random.default_rng(3)
    p = rng.dirichlet(np.ones(3), 400)
    y = rng.integers(0, 3, 400)
    parts = [slice(0, 150), slice(150, 400)]
    sums = sum(class_sums(p[s], y[s], 3)[0] for s in parts)
    counts = sum(class_sums(p[s], y[s], 3)[1] for s in parts)
    thresholds = class_thresholds(sums, counts)
    raw = np.zeros((3, 3))
    for s in parts:
        guess, confident = confident_guess(p[s], thresholds)
        np.add.at(raw, (y[s][confident], guess[confident]), 1.0)
    np.testing.assert_allclose(calibrated_joint(raw, counts), confident_joint(p, y))
    assert np.isinf(class_thresholds(np.zeros(2), np.array([0.0, 1.0]))[0])


def test_label_retention_is_the_share_of_each_true_class_that_kept_its_label():
    proba, y, y_true, _ = _separable(n=400, flips=40, seed=4)
    kept = np.array([np.mean(y[y_true == j] == j) for j in range(3)])
    np.testing.assert_allclose(label_retention(confident_joint(proba, y)), kept)
    assert label_retention(np.zeros((2, 2)))[0] == 1.0  # no sample of that class: 1
    assert label_retention(np.array([[0.0, 5.0], [5.0, 0.0]]))[0] == 1e-3  # the floor


def test_final_weights():
    sw = np.array([1.0, 2.0, 3.0, 4.0])
    suspect = np.array([True, True, False, False])
    agrees = np.array([False, True, False, True])
    retention = np.array([0.5, 1.0, 0.8, 1.0])
    np.testing.assert_allclose(final_weights(sw, agrees, suspect, retention, (0.0, 0.8)),
                               [0.0, 1.6, 3.75, 4.0])


def test_anchor_noise_rate_reads_the_ceiling_of_the_most_confident_rows():
    proba, _, _, _ = _separable(flips=0)
    assert anchor_noise_rate(proba) == pytest.approx(0.1)
    np.testing.assert_allclose(anchor_floors(proba), [0.1, 0.1, 0.1])
    assert anchor_noise_rate(np.eye(3)[[0, 1, 2, 0]]) == 0.0


def test_agrees_with_cleanlab_on_a_seeded_example():
    cleanlab_filter = pytest.importorskip("cleanlab.filter")
    cleanlab_count = pytest.importorskip("cleanlab.count")
    from sklearn.datasets import make_classification
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_val_predict

    X, y = make_classification(600, 6, n_informative=4, n_classes=3, random_state=0)
    rng = np.random.default_rng(0)
    flip = rng.random(600) < 0.2
    y = np.where(flip, (y + rng.integers(1, 3, 600)) % 3, y)
    proba = cross_val_predict(LogisticRegression(max_iter=500), X, y, cv=5,
                              method="predict_proba")
    ours = find_label_issues(proba, y)
    theirs = cleanlab_filter.find_label_issues(y, proba, filter_by="prune_by_noise_rate")
    np.testing.assert_array_equal(ours, theirs)
    # cleanlab's thresholds carry a 1e-6 tolerance: the joints agree within a sample
    np.testing.assert_allclose(confident_joint(proba, y),
                               cleanlab_count.compute_confident_joint(y, proba, calibrate=True),
                               atol=1.0)


# ---------------------------------------------------------------------------
# the low-margin rule (min_margin)

_probabilities = st.integers(2, 4).flatmap(lambda k: st.tuples(
    st.just(k), st.integers(0, 2**31 - 1), st.floats(0.0, 0.9)))


@given(_probabilities)
@settings(max_examples=60, deadline=None)
def test_min_margin_adds_exactly_the_rows_of_low_margin(case):
    k, seed, m = case
    rng = np.random.default_rng(seed)
    proba = rng.dirichlet(np.full(k, 0.5), 80)
    y = rng.integers(0, k, 80)
    plain = find_label_issues(proba, y, only_misclassified=False)
    with_margin = find_label_issues(proba, y, only_misclassified=False, min_margin=m)
    others = proba.copy()
    others[np.arange(80), y] = -np.inf
    low = others.max(axis=1) - proba[np.arange(80), y] > m
    np.testing.assert_array_equal(with_margin, plain | low)
    np.testing.assert_array_equal(margin_suspects(proba, y, m), low)


def test_min_margin_leaves_the_excluded_classes_alone():
    proba, y, _, _ = _separable(k=3, flips=40, seed=3)
    found = find_label_issues(proba, y, min_margin=0.0, exclude=[2])
    assert not found[y == 2].any()
    assert found[y != 2].any()


@pytest.mark.parametrize("bad", [-0.1, 1.0, "0.2", np.nan, True])
def test_min_margin_outside_0_1_is_an_error(bad):
    proba, y, _, _ = _separable()
    with pytest.raises(ValueError, match="min_margin"):
        find_label_issues(proba, y, min_margin=bad)
    with pytest.raises(ValueError, match="min_margin"):
        margin_suspects(proba, y, bad)


def test_min_margin_finds_more_of_the_hardest_rows_flips():
    """Annotator-like flips (the rows a reference model finds hardest, to their closest
    class) mostly stay below the count's thresholds: the margin rule finds more of them,
    at a better F1."""
    from sklearn.datasets import make_classification
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_val_predict

    from robust_boosting.noise import flip_labels_hardest

    X, y = make_classification(1500, 10, n_informative=6, random_state=0)
    y_noisy, flipped = flip_labels_hardest(y, 0.2, X=X, estimator=LogisticRegression(),
                                           random_state=0)
    proba = cross_val_predict(LogisticRegression(), X, y_noisy, cv=5, method="predict_proba")

    def f1(found):
        tp = np.sum(found & flipped)
        return 2 * tp / (found.sum() + flipped.sum())

    plain = f1(find_label_issues(proba, y_noisy, only_misclassified=False))
    margin = f1(find_label_issues(proba, y_noisy, only_misclassified=False, min_margin=0.2))
    assert margin > plain + 0.05, (plain, margin)
