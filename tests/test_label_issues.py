"""robust_boosting.label_issues: what confident learning's math promises."""

import numpy as np
import pytest

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
