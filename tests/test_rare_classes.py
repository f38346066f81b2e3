"""Classes with fewer rows than the search's folds (issue 56): they take no part in the
noise estimate, cannot turn the removal decision around, are named in a warning, and
every estimator still fits and predicts them."""

import warnings

import numpy as np
import pytest
from sklearn.model_selection import KFold, train_test_split

import robust_boosting as rb
from robust_boosting import SPLBoostClassifierCV
from robust_boosting.datasets import load_xy
from robust_boosting.label_issues import (
    anchor_noise_rate,
    confident_joint,
    estimate_noise_rate,
    find_label_issues,
    label_retention,
    rare_classes,
    without_classes,
)
from robust_boosting.noise import apply_noise

RARE_LABEL = 9


def _with_rare(X, y, m, seed=0):
    """``m`` more rows labelled :data:`RARE_LABEL`: copies of training rows, nudged."""
    rng = np.random.default_rng(seed)
    rows = rng.choice(X.shape[0], size=m, replace=False)
    X_new = X[rows] + rng.normal(scale=1e-3, size=(m, X.shape[1]))
    return np.vstack([X, X_new]), np.concatenate([y, np.full(m, RARE_LABEL)])


def _fit(X, y, **params):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        est = SPLBoostClassifierCV(random_state=0, n_jobs=1, **params).fit(X, y)
    return est, [w for w in caught]


@pytest.fixture(scope="module")
def wine_split():
    """The bundled three-class wine set, half of it as test rows, 20 % of the training
    labels flipped."""
    X, y = load_xy("wine")
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.5, stratify=y, random_state=0)
    y_tr, _ = apply_noise("symmetric", y_tr, 0.2, random_state=0)
    return X_tr, X_te, np.asarray(y_tr), y_te


# ---------------------------------------------------------------------------
# confident learning with excluded classes


def test_rare_classes_are_those_with_fewer_rows_than_folds():
    y = np.array([0] * 5 + [1] * 2 + [3] * 3)
    np.testing.assert_array_equal(rare_classes(y, 3), [1])
    np.testing.assert_array_equal(rare_classes(y, 4, n_classes=5), [1, 3])  # 2 has no row


def test_without_classes_rescales_the_other_classes():
    p = np.array([[0.5, 0.3, 0.2], [0.0, 0.0, 1.0]])
    np.testing.assert_allclose(without_classes(p, [2]), [[0.625, 0.375, 0.0], [0.5, 0.5, 0.0]])
    np.testing.assert_array_equal(without_classes(p), p)


def test_an_excluded_class_takes_no_part_in_the_estimates():
    """A class of two rows, unsure of itself (threshold near 0): without ``exclude`` the rows
    the model is unsure of count as it; with it, the estimates are those of the other
    classes alone, its rows are no suspects and its label retention is 1."""
    rng = np.random.default_rng(0)
    n = 300
    y = rng.integers(0, 2, n)
    p1 = np.clip(np.where(y == 1, 0.75, 0.25) + rng.normal(0, 0.15, n), 0.02, 0.98)
    common = np.column_stack([1 - p1, p1]) * 0.97
    proba = np.column_stack([common, np.full(n, 0.03)])
    y3 = np.concatenate([y, [2, 2]])
    proba3 = np.vstack([proba, [[0.5, 0.48, 0.02], [0.3, 0.68, 0.02]]])
    two = np.column_stack([1 - p1, p1])
    base = estimate_noise_rate(two, y)
    assert estimate_noise_rate(proba3, y3) > base + 0.1  # the failure excluded classes avoid
    assert estimate_noise_rate(proba3, y3, exclude=[2]) == pytest.approx(base, abs=0.01)
    joint = confident_joint(proba3, y3, exclude=[2])
    assert joint[2].sum() == 0 and joint[:, 2].sum() == 0
    assert label_retention(joint)[2] == 1.0
    suspects = find_label_issues(proba3, y3, only_misclassified=False, exclude=[2])
    assert not suspects[-2:].any()
    np.testing.assert_array_equal(suspects[:n], find_label_issues(two, y, only_misclassified=False))
    assert anchor_noise_rate(proba3, exclude=[2]) == pytest.approx(anchor_noise_rate(two))


# ---------------------------------------------------------------------------
# SPLBoostClassifierCV


def test_two_rows_of_an_extra_class_do_not_move_the_noise_estimate(wine_split):
    """The issue's case on the bundled wine set (three classes, 20 % flips): two rows of a
    fourth class. Before the rule, such rows moved noise_rate_ by 0.06-0.22 (record 0021)."""
    X_tr, X_te, y_tr, y_te = wine_split
    base, _ = _fit(X_tr, y_tr)
    X_x, y_x = _with_rare(X_tr, y_tr, 2)
    est, caught = _fit(X_x, y_x)
    assert abs(est.noise_rate_ - base.noise_rate_) <= 0.05
    assert est.remove_label_issues_ == base.remove_label_issues_
    error = np.mean(est.predict(X_te) != y_te)
    assert abs(error - np.mean(base.predict(X_te) != y_te)) <= 0.01
    rare = np.flatnonzero(y_x == RARE_LABEL)
    assert not np.isin(rare, est.label_issues_).any()
    np.testing.assert_array_equal(est.rare_classes_, [RARE_LABEL])
    assert list(base.rare_classes_) == []
    assert list(est.classes_) == [1, 2, 3, RARE_LABEL]
    assert np.all(est.predict(X_x[rare]) == RARE_LABEL)  # its rows are still learnt
    messages = [str(w.message) for w in caught]
    assert [m for m in messages if "class 9 (2 rows)" in m and "3 folds" in m
            and "noise_rate_" in m], messages
    assert all(issubclass(w.category, UserWarning) for w in caught)
    assert not [m for m in messages if "least populated class" in m]  # scikit-learn's


def test_clean_labels_stay_kept_with_an_extra_class():
    """On clean labels the final fit keeps every row (remove_label_issues_ False); two rows
    of a fourth class turned that around on 3 of 5 such splits before the rule."""
    X, y = load_xy("wine")
    X_tr, _, y_tr, _ = train_test_split(X, y, test_size=0.5, stratify=y, random_state=0)
    base, _ = _fit(X_tr, y_tr)
    est, _ = _fit(*_with_rare(X_tr, y_tr, 2))
    assert not base.remove_label_issues_ and not est.remove_label_issues_
    assert est.noise_rate_ == pytest.approx(base.noise_rate_, abs=0.05)


@pytest.mark.parametrize("params", [{}, {"drop_fraction": 0.1},
                                    {"cv": KFold(3, shuffle=True, random_state=0)}])
def test_a_one_row_class_fits(params):
    """One row of a class: in one fold no training row has it (a self-paced candidate fitted
    on its fold's rows once failed there); the class is predicted and warned about."""
    X, y = load_xy("wine")
    X, y = _with_rare(X[::2], y[::2], 1)
    est, caught = _fit(X, y, n_estimators=30, **params)
    assert list(est.classes_) == [1, 2, 3, RARE_LABEL]
    assert est.predict_proba(X).shape == (X.shape[0], 4)
    assert np.isfinite(est.noise_rate_)
    assert any("class 9 (1 row)" in str(w.message) for w in caught)


def test_the_other_classes_keep_their_folds():
    """An int ``cv`` splits the classes of at least ``cv`` rows as it would without the
    rare ones, and puts each rare class's rows in distinct test folds."""
    y = np.repeat([0, 1, 2], 20)
    y_rare = np.concatenate([y, [3, 3]])
    from robust_boosting._cv_search import search_folds

    folds = search_folds(3, np.zeros((60, 1)), y, 7)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # scikit-learn's warning about a small class
        folds_rare = search_folds(3, np.zeros((62, 1)), y_rare, 7)
    tests = [te for _, te in folds_rare]
    for (_, te), (tr_r, te_r) in zip(folds, folds_rare, strict=True):
        np.testing.assert_array_equal(te, te_r[te_r < 60])
        np.testing.assert_array_equal(np.sort(np.concatenate([tr_r, te_r])), np.arange(62))
    assert sorted(sum(int(np.isin(r, te)) for te in tests) for r in (60, 61)) == [1, 1]
    assert sum(np.isin(60, te) and np.isin(61, te) for te in tests) == 0


# ---------------------------------------------------------------------------
# the other estimators


@pytest.mark.parametrize("name", ["AdaBoostClassifier", "SPLBoostClassifier",
                                  "RealBoostClassifier", "GentleBoostClassifier",
                                  "LogitBoostClassifier", "SPLLogitBoostClassifier",
                                  "SPLGentleBoostClassifier", "SavageBoostClassifier",
                                  "RBoostClassifier", "RobustBoostClassifier",
                                  "RILBoostClassifier", "HistTreeClassifier"])
@pytest.mark.parametrize("m", [1, 2])
def test_every_estimator_fits_a_class_of_one_or_two_rows(name, m):
    X, y = load_xy("wine")
    X, y = _with_rare(X[::2], y[::2], m)
    cls = getattr(rb, name)
    est = cls(random_state=0) if name == "HistTreeClassifier" else cls(n_estimators=10,
                                                                       random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rb.BoostingStoppedWarning)
        est.fit(X, y)
    assert list(est.classes_) == [1, 2, 3, RARE_LABEL]
    proba = est.predict_proba(X)
    assert proba.shape == (X.shape[0], 4) and np.allclose(proba.sum(axis=1), 1)
