"""SPLBoostClassifierCV: the cross-validated robust default and its label-issue output."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from joblib import parallel_config
from sklearn.base import clone
from sklearn.datasets import make_blobs, make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

from robust_boosting import SPLBoostClassifierCV, SPLLogitBoostClassifier
from robust_boosting._auto_rules import clean_anchor_threshold
from robust_boosting.label_issues import (
    anchor_noise_rate,
    confident_joint,
    estimate_noise_rate,
    find_label_issues,
    margin_suspects,
)
from robust_boosting.noise import flip_labels, flip_labels_class_conditional, flip_labels_hardest
from robust_boosting.self_paced import DropFractionRegularizer, get_regularizer
from robust_boosting.trees import HistTreeRegressor, SharedSymmetricTree

FAST = dict(n_estimators=40)


@pytest.fixture(scope="module")
def separated():
    """Two well-separated blobs, clean labels: 240 samples."""
    X, y = make_blobs(240, centers=[[-3, 0], [3, 0]], cluster_std=1.0, random_state=0)
    return X, y


@pytest.fixture(scope="module")
def noisy_fit(separated):
    """The separated blobs with 20 % symmetric flips, and the fitted estimator."""
    X, y = separated
    y_noisy, flipped = flip_labels(y, 0.2, random_state=1)
    est = SPLBoostClassifierCV(random_state=0, **FAST).fit(X, y_noisy)
    return X, y, np.asarray(y_noisy), np.asarray(flipped), est


# --------------------------------------------------------------------- drop-fraction weights
def test_drop_fraction_regularizer_drops_the_largest_losses_ties_by_index():
    reg = get_regularizer("drop_fraction")
    assert isinstance(reg, DropFractionRegularizer)
    loss = np.array([0.1, 5.0, 0.3, 5.0, 2.0, 0.2, 0.0, 1.0, 0.4, 0.5])
    v = reg.weight(loss, 0.25)  # floor(2.5) = 2 dropped: the two 5.0 (indices 1, 3)
    np.testing.assert_array_equal(np.flatnonzero(v == 0), [1, 3])
    v = reg.weight(loss, 0.15)  # one of the tied 5.0: the lower index
    np.testing.assert_array_equal(np.flatnonzero(v == 0), [1])
    for keep_all in (0.0, 1.0, 1e6):
        np.testing.assert_array_equal(reg.weight(loss, keep_all), np.ones(10))
    # latent loss: min(loss, largest kept loss)
    np.testing.assert_allclose(reg.latent_loss(loss, 0.3), np.minimum(loss, 1.0))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(0, 50), min_size=1, max_size=60), st.floats(0, 0.99))
def test_drop_fraction_drops_exactly_floor_fn_and_only_the_top(losses, fraction):
    loss = np.array(losses)
    v = DropFractionRegularizer().weight(loss, fraction)
    dropped = v == 0
    assert dropped.sum() == int(np.floor(fraction * loss.size))
    if dropped.any() and (~dropped).any():
        assert loss[dropped].min() >= loss[~dropped].max()


# --------------------------------------------------------------------- confident joint
def test_confident_joint_recovers_a_known_noise_rate():
    rng = np.random.default_rng(0)
    n = 2000
    true = rng.integers(0, 2, n)
    proba = np.where(true[:, None] == np.arange(2), 0.9, 0.1)  # a confident, correct model
    given_, flipped = flip_labels(true, 0.25, random_state=0)
    joint = confident_joint(proba, given_)
    assert joint.sum() == pytest.approx(n)
    assert estimate_noise_rate(proba, given_) == pytest.approx(np.mean(flipped), abs=1e-12)
    assert estimate_noise_rate(proba, true) == 0.0
    np.testing.assert_array_equal(find_label_issues(proba, given_), flipped)


# --------------------------------------------------------------------- anchor statistic
@settings(max_examples=40, deadline=None)
@given(st.integers(2, 6), st.floats(0.0, 0.5), st.integers(0, 2**31 - 1))
def test_anchor_noise_rate_is_one_minus_the_top_probability_of_the_most_confident_rows(
        k, rho, seed):
    # rows whose top probability is at most 1 - rho, some exactly: the statistic at
    # quantile 1 is rho for every class, and at a lower quantile it is at least rho
    rng = np.random.default_rng(seed)
    n = 40 * k
    guess = np.arange(n) % k
    top = (1.0 - rho) - rng.uniform(0.0, 0.3, n) * (1.0 - rho - 1.0 / k)
    top[:k] = 1.0 - rho  # one row per class exactly at the bound
    proba = np.zeros((n, k))
    proba[np.arange(n), guess] = top
    rest = (1.0 - top) / (k - 1)
    proba += np.where(proba == 0, rest[:, None], 0.0)
    assert anchor_noise_rate(proba, quantile=1.0) == pytest.approx(rho, abs=1e-12)
    assert anchor_noise_rate(proba) >= rho - 1e-12


def test_anchor_noise_rate_averages_the_predicted_classes_only():
    # class 2 is nobody's most probable class: the mean is over classes 0 and 1
    proba = np.array([[0.9, 0.05, 0.05], [0.7, 0.2, 0.1], [0.1, 0.6, 0.3], [0.2, 0.5, 0.3]])
    expected = np.mean([1 - 0.9, 1 - 0.6])
    assert anchor_noise_rate(proba, quantile=1.0) == pytest.approx(expected)


def test_removal_decision_auto_and_forced():
    est = SPLBoostClassifierCV()
    at_1k = clean_anchor_threshold(1000)
    assert at_1k == pytest.approx(0.015) == clean_anchor_threshold(300)
    assert clean_anchor_threshold(4000) == pytest.approx(0.015 * 0.25 ** 0.8)
    assert not est._removes(1000, 2, 0.99 * at_1k)
    assert est._removes(1000, 2, at_1k)
    assert not est._removes(1000, 5, 3.9 * at_1k)  # divided by K - 1
    assert est._removes(1000, 5, 4.0 * at_1k)
    assert est._removes(5001, 2, 0.0)  # above 5,000 rows: always
    assert not est._removes(5000, 2, 0.0)
    assert SPLBoostClassifierCV(remove_label_issues=True)._removes(1000, 2, 0.0)
    assert not SPLBoostClassifierCV(remove_label_issues=False)._removes(10**6, 2, 1.0)
    # a self-paced winner's out-of-fold model is confident whatever the labels
    assert est._removes(1000, 2, 0.0, drop_fraction=0.1)


def test_auto_removal_keeps_every_row_of_clean_labels_and_removes_under_flips():
    # overlapping blobs (not split by one stump): on clean labels the most confident
    # out-of-fold probabilities reach 1 within 0.01, under 20 % flips they stay 0.1 below
    X, y = make_blobs(300, centers=[[-3, 0], [3, 0]], cluster_std=2.0, random_state=0)
    clean = SPLBoostClassifierCV(random_state=0, **FAST).fit(X, y)
    assert clean.anchor_noise_rate_ < 0.01 and not clean.remove_label_issues_
    assert clean.excluded_samples_.size == 0
    assert clean.label_issues_.size > 0  # still reported
    kept = SPLBoostClassifierCV(remove_label_issues=False, random_state=0, **FAST).fit(X, y)
    np.testing.assert_array_equal(clean.predict_proba(X), kept.predict_proba(X))
    forced = SPLBoostClassifierCV(remove_label_issues=True, random_state=0, **FAST).fit(X, y)
    assert forced.remove_label_issues_
    # the count's suspects are removed; the margin rule's are listed besides them
    counted = find_label_issues(forced.oof_proba_, y, only_misclassified=False)
    np.testing.assert_array_equal(forced.excluded_samples_, np.flatnonzero(counted))
    listed = counted | margin_suspects(forced.oof_proba_, y, 0.2)
    np.testing.assert_array_equal(forced.label_issues_, np.flatnonzero(listed))
    assert not np.array_equal(forced.predict_proba(X), kept.predict_proba(X))
    # kept, the final model runs the search's early-stopped rounds; removed, all of them
    assert clean.best_estimator_.n_estimators == clean.best_params_["cv_n_estimators"] < 40
    assert clean.best_params_["n_estimators"] == clean.best_params_["cv_n_estimators"]
    assert kept.best_estimator_.n_estimators == kept.best_params_["cv_n_estimators"]
    assert forced.best_estimator_.n_estimators == forced.best_params_["n_estimators"] == 40
    y_noisy, _ = flip_labels(y, 0.2, random_state=1)
    noisy = SPLBoostClassifierCV(random_state=0, **FAST).fit(X, y_noisy)
    assert noisy.anchor_noise_rate_ > 0.05 and noisy.remove_label_issues_
    counted = find_label_issues(noisy.oof_proba_, y_noisy, only_misclassified=False)
    np.testing.assert_array_equal(noisy.excluded_samples_, np.flatnonzero(counted))
    assert np.isin(noisy.excluded_samples_, noisy.label_issues_).all()


# --------------------------------------------------------------------- estimator
@pytest.mark.parametrize("n_classes", [2, 3])
def test_listed_suspects_find_more_annotator_like_flips_than_the_count(n_classes):
    """Flips of the rows nearest another class (design record 0027): the count finds few
    of them; the margin rule's rows, listed besides the count's, raise the F1."""
    X, y = make_classification(600, 8, n_informative=5, n_classes=n_classes,
                               n_clusters_per_class=1, random_state=0)
    y_noisy, flipped = flip_labels_hardest(y, 0.2, X=X, estimator=LogisticRegression(),
                                           random_state=0)
    est = SPLBoostClassifierCV(random_state=0, **FAST).fit(X, y_noisy)
    counted = _counted(est, y_noisy)
    assert np.isin(counted, est.label_issues_).all()
    truth = np.zeros(len(y), bool)
    truth[flipped] = True

    def f1(rows):
        return 2 * truth[rows].sum() / (rows.size + truth.sum())

    assert f1(est.label_issues_) > f1(counted) + 0.1


def test_label_issue_scores_rank_flipped_samples_first(noisy_fit):
    X, y, y_noisy, flipped, est = noisy_fit
    assert est.label_issue_scores_.shape == (len(y),)
    np.testing.assert_allclose(est.label_issue_scores_,
                               1 - est.oof_proba_[np.arange(len(y)), est.classes_.searchsorted(y_noisy)])
    assert roc_auc_score(flipped, est.label_issue_scores_) > 0.9
    # the noise-rate estimate is near the 20 % flipped, and the removed samples are mostly flips
    assert 0.12 < est.noise_rate_ < 0.3
    exc = est.excluded_samples_
    np.testing.assert_array_equal(exc, _counted(est, y_noisy))
    assert np.isin(exc, est.label_issues_).all()
    assert np.mean(flipped[exc]) > 0.8 and np.mean(flipped & np.isin(np.arange(len(y)), exc)) > 0.1
    assert np.mean(est.predict(X) == y) > 0.95  # clean labels recovered


def test_suggested_labels_are_the_out_of_fold_models_choice(noisy_fit):
    X, y, y_noisy, flipped, est = noisy_fit
    np.testing.assert_array_equal(est.suggested_labels_,
                                  est.classes_[np.argmax(est.oof_proba_, axis=1)])
    # most suspects' suggestions undo the flip: the true label comes back
    suspects = est.label_issues_[flipped[est.label_issues_]]
    assert np.mean(est.suggested_labels_[suspects] == y[suspects]) > 0.9


def test_clean_separated_data_exclude_nothing(separated):
    X, y = separated
    est = SPLBoostClassifierCV(random_state=0, **FAST).fit(X, y)
    assert est.noise_rate_ < 0.02
    # at most a point or two that lies inside the other blob
    assert est.excluded_samples_.size <= 0.01 * len(y)
    assert est.score(X, y) >= 0.99


def _counted(est, y):
    """The count's suspects (those the final fit down-weights), as indices."""
    return np.flatnonzero(find_label_issues(est.oof_proba_, est.classes_.searchsorted(y),
                                            only_misclassified=False))


def _expected_final_weight(est, y, misclassified=0.0, classified=0.8):
    """The final fit's weights, written out: the count's suspects x label_issue_weight, then
    each sample / P(given label | true class) of its label (the confident joint's noise
    matrix)."""
    oof, s = est.oof_proba_, _counted(est, y)
    weight = np.ones(len(y)) / len(y)  # fit's validated weights: unit weights normalised
    weight[s] *= np.where(oof[s].argmax(axis=1) == y[s], classified, misclassified)
    joint = confident_joint(oof, y)
    return weight / (np.diag(joint) / joint.sum(axis=0))[y]


def _plain_refit(est, X, y_noisy, weight):
    """The final model, fitted by hand: the chosen parameters, on the rows of positive
    weight."""
    p = est.best_params_
    kept = weight > 0
    return SPLLogitBoostClassifier(
        HistTreeRegressor(max_depth=p["max_depth"]), n_estimators=est.n_estimators,
        learning_rate=p["learning_rate"], age=np.inf,
        random_state=est.best_estimator_.random_state,
    ).fit(X[kept], y_noisy[kept], sample_weight=weight[kept])


def test_refit_equals_a_plain_fit_with_the_chosen_params(noisy_fit):
    X, _, y_noisy, _, est = noisy_fit
    weight = _expected_final_weight(est, est.classes_.searchsorted(y_noisy))
    np.testing.assert_array_equal(_plain_refit(est, X, y_noisy, weight).predict_proba(X),
                                  est.predict_proba(X))


def test_final_model_is_fitted_on_the_rows_of_positive_weight(noisy_fit, monkeypatch):
    """The removed suspects (weight 0) are not rows of the final fit; a self-paced drop
    then counts the kept rows and its indices are the caller's; a class whose every row
    would be removed keeps all rows in the fit (and its place in ``classes_``)."""
    import robust_boosting.splboost_cv as cv
    X, _, y_noisy, _, est = noisy_fit
    weight = _expected_final_weight(est, est.classes_.searchsorted(y_noisy))
    n_kept = int(np.count_nonzero(weight))
    assert 0 < n_kept < len(y_noisy)
    assert est.best_estimator_.sample_weights_.shape == (n_kept,)
    # overlapping classes: the kept rows are not separable, so the self-paced model runs
    Xo, yo = make_classification(300, 6, n_informative=4, random_state=0)
    yo = np.asarray(flip_labels(yo, 0.2, random_state=1)[0])
    spl = SPLBoostClassifierCV(drop_fraction=0.2, max_depth=2, random_state=0, **FAST).fit(
        Xo, yo)
    kept = np.flatnonzero(spl._final_weight(
        np.full(len(yo), 1.0 / len(yo)), spl.oof_proba_, yo, _counted(spl, yo)) > 0)
    v = spl.best_estimator_.self_paced_weights_
    assert v.shape == kept.shape
    assert np.count_nonzero(v == 0) == int(0.2 * kept.size)
    np.testing.assert_array_equal(spl.excluded_samples_,
                                  np.union1d(_counted(spl, yo), kept[v == 0]))

    def without_class_0(self, sw, oof, y_idx, suspects, rare=()):
        return np.where(y_idx == 0, 0.0, sw)

    monkeypatch.setattr(cv.SPLBoostClassifierCV, "_final_weight", without_class_0)
    every = SPLBoostClassifierCV(random_state=0, **FAST).fit(X, y_noisy)
    assert every.best_estimator_.sample_weights_.shape == (len(y_noisy),)
    np.testing.assert_array_equal(every.classes_, est.classes_)


def test_class_conditional_noise_reweights_the_class_that_lost_labels(separated):
    """Class 0 loses 45 % of its labels, class 1 15 %: the final fit weights the remaining
    class-0 labels up (1 / P(label 0 | class 0) > 1 / P(label 1 | class 1)), and the
    suspects include flipped samples the out-of-fold model assigns to their wrong label."""
    X, y = separated
    T = np.array([[0.55, 0.45], [0.15, 0.85]])
    y_noisy, flipped = (np.asarray(a) for a in flip_labels_class_conditional(y, T, random_state=0))
    est = SPLBoostClassifierCV(random_state=0, label_issue_weight=0.0, **FAST).fit(X, y_noisy)
    joint = confident_joint(est.oof_proba_, y_noisy)
    retention = np.diag(joint) / joint.sum(axis=0)
    assert retention[0] < retention[1] < 1
    weight = _expected_final_weight(est, y_noisy, 0.0, 0.0)
    assert weight[(y_noisy == 0) & (weight > 0)].min() > weight[(y_noisy == 1) & (weight > 0)].max()
    np.testing.assert_array_equal(_plain_refit(est, X, y_noisy, weight).predict_proba(X),
                                  est.predict_proba(X))
    assert np.mean(flipped[est.excluded_samples_]) > 0.8
    assert est.score(X, y) > 0.95


def test_a_float_label_issue_weight_applies_to_every_suspect(noisy_fit):
    X, _, y_noisy, _, est = noisy_fit
    half = SPLBoostClassifierCV(random_state=0, label_issue_weight=0.5, **FAST).fit(X, y_noisy)
    np.testing.assert_array_equal(half.label_issues_, est.label_issues_)
    np.testing.assert_array_equal(half.excluded_samples_, est.excluded_samples_)
    weight = _expected_final_weight(est, est.classes_.searchsorted(y_noisy), 0.5, 0.5)
    np.testing.assert_array_equal(_plain_refit(est, X, y_noisy, weight).predict_proba(X),
                                  half.predict_proba(X))
    assert not np.array_equal(half.predict_proba(X), est.predict_proba(X))


def test_out_of_fold_probabilities_come_from_patience_rounds_past_the_best_round(noisy_fit):
    from sklearn.model_selection import StratifiedKFold
    from sklearn.utils import check_random_state

    from robust_boosting._auto_rules import PATIENCE as _PATIENCE
    from robust_boosting._cv_search import fit_candidates as _fit_candidates
    X, _, y_noisy, _, _ = noisy_fit
    folds = list(StratifiedKFold(3, shuffle=True, random_state=5).split(X, y_noisy))
    est = SPLBoostClassifierCV(cv=folds, random_state=0, n_estimators=60).fit(X, y_noisy)
    best = est.best_params_["cv_n_estimators"]
    assert est.oof_n_estimators_ == min(best + _PATIENCE, 60) > best
    rng = check_random_state(0)
    rng.randint(np.iinfo(np.int32).max)  # the fold seed (unused with explicit folds)
    seed = int(rng.randint(np.iinfo(np.int32).max))
    assert seed == est.best_estimator_.random_state
    models, _ = _fit_candidates((X, X), y_noisy, np.ones(len(y_noisy)), folds,
                                [est.cv_results_["params"][est.best_index_]], seed, None, 0.0)
    later = False
    for f, (_, te) in enumerate(folds):
        staged = _staged(models[0][f], X[te])
        at = staged[min(est.oof_n_estimators_, len(staged)) - 1]  # a stopped model: its last
        np.testing.assert_array_equal(est.oof_proba_[te], at)
        later |= not np.array_equal(staged[best - 1], at)
    assert later


def test_without_removal_and_with_a_self_paced_drop_fraction(noisy_fit):
    X, _, y_noisy, flipped, est = noisy_fit
    kept = SPLBoostClassifierCV(remove_label_issues=False, random_state=0, **FAST).fit(X, y_noisy)
    assert kept.excluded_samples_.size == 0
    np.testing.assert_array_equal(kept.label_issues_, est.label_issues_)
    spl = SPLBoostClassifierCV(drop_fraction=0.2, remove_label_issues=False, max_depth=2,
                               random_state=0, **FAST).fit(X, y_noisy)
    assert spl.best_estimator_.regularizer == "drop_fraction"
    assert spl.excluded_samples_.size == int(0.2 * len(y_noisy))
    assert np.mean(flipped[spl.excluded_samples_]) > 0.7


def test_cv_results_grid_and_best_candidate(separated):
    X, y = separated
    y_noisy, _ = flip_labels(y, 0.2, random_state=3)
    est = SPLBoostClassifierCV(drop_fraction=[0.0, 0.2], max_depth=[1, 2], n_estimators=20,
                               learning_rate=0.3, cv=2, random_state=0).fit(X, y_noisy)
    res = est.cv_results_
    assert len(res["params"]) == 4
    assert sorted(res["rank_test_score"]) == [1, 2, 3, 4]
    best = int(np.argmax(res["mean_test_score"]))
    assert est.best_index_ == best and res["rank_test_score"][best] == 1
    assert est.best_score_ == res["mean_test_score"][best]
    np.testing.assert_allclose(res["mean_test_score"],
                               (res["split0_test_score"] + res["split1_test_score"]) / 2)
    assert est.best_params_["cv_n_estimators"] == res["n_estimators"][best]
    assert est.best_params_["drop_fraction"] == res["param_drop_fraction"][best]
    assert est.best_estimator_.n_estimators == 20


def test_multiclass_class_conditional_noise():
    X, y = make_blobs(300, centers=[[-4, 0], [4, 0], [0, 5]], cluster_std=1.2, random_state=0)
    T = 0.8 * np.eye(3) + 0.2 * np.roll(np.eye(3), 1, axis=1)
    y_noisy, flipped = flip_labels_class_conditional(y, T, random_state=0)
    labels = np.array(["a", "b", "c"])[y_noisy]
    est = SPLBoostClassifierCV(random_state=0, **FAST).fit(X, labels)
    np.testing.assert_array_equal(est.classes_, ["a", "b", "c"])
    assert est.predict_proba(X).shape == (300, 3)
    assert np.mean(est.predict(X) == np.array(["a", "b", "c"])[y]) > 0.93
    assert roc_auc_score(flipped, est.label_issue_scores_) > 0.9
    assert est.excluded_samples_.ndim == 1 and np.mean(np.asarray(flipped)[est.excluded_samples_]) > 0.8


def test_sample_weight(noisy_fit):
    X, _, y_noisy, _, est = noisy_fit
    scaled = SPLBoostClassifierCV(random_state=0, **FAST).fit(
        X, y_noisy, sample_weight=np.full(len(y_noisy), 3.0))
    np.testing.assert_array_equal(scaled.predict_proba(X), est.predict_proba(X))
    w = np.where(np.arange(len(y_noisy)) % 2 == 0, 1.0, 0.05)
    weighted = SPLBoostClassifierCV(random_state=0, **FAST).fit(X, y_noisy, sample_weight=w)
    assert not np.array_equal(weighted.predict_proba(X), est.predict_proba(X))
    with pytest.raises(ValueError, match="(?i)sample.weight"):
        SPLBoostClassifierCV().fit(X, y_noisy, sample_weight=np.zeros(len(y_noisy)))


def test_deterministic_whatever_n_jobs(noisy_fit):
    X, _, y_noisy, _, est = noisy_fit
    with parallel_config(backend="threading"):  # no worker processes to start in a unit test
        again = SPLBoostClassifierCV(random_state=0, n_jobs=2, **FAST).fit(X, y_noisy)
    np.testing.assert_array_equal(again.predict_proba(X), est.predict_proba(X))
    np.testing.assert_array_equal(again.label_issue_scores_, est.label_issue_scores_)
    assert again.best_params_ == est.best_params_


def _staged(model, X):
    """Every stage's held-out probabilities of a search model, as the search computes them."""
    from robust_boosting._cv_search import staged_proba as _staged_proba
    return np.asarray(list(_staged_proba(model, X)))


def _search(X, y, patience, n_jobs=None):
    from sklearn.model_selection import StratifiedKFold

    from robust_boosting._cv_search import fit_candidates as _fit_candidates
    folds = list(StratifiedKFold(3, shuffle=True, random_state=0).split(X, y))
    candidates = [dict(max_depth=d, max_leaf_nodes=None, min_samples_leaf=1, learning_rate=0.5,
                       drop_fraction=0.0, l2_regularization=lam, grow_policy="depthwise",
                       random_strength=0.0, multiclass_trees="per_class", n_estimators=40)
                  for d, lam in ((1, 0.0), (3, 2.0))]
    w = np.ones(len(y))
    return folds, _fit_candidates((X, X), y, w, folds, candidates, 7, n_jobs, 0.0, patience)


def test_search_early_stopping_cuts_the_full_search_after_patience_rounds(noisy_fit):
    """Each early-stopped model is the full model's first rounds; its loss curve is the
    full one's, padded with its last value; it stops at the first round that is
    ``patience`` rounds past its best held-out loss. The curve is the logistic loss of
    the staged scores (the monitor's, in float64), within float32 rounding of the loss
    of the staged probabilities."""
    from robust_boosting._batched import staged_raw_binned_once
    from robust_boosting._cv_search import _trimmed_losses
    X, _, y_noisy, _, _ = noisy_fit
    y = (y_noisy == y_noisy.max()).astype(np.intp)
    patience = 5
    folds, (full, full_curves) = _search(X, y, None)
    _, (early, early_curves) = _search(X, y, patience)
    assert full_curves.shape == (2, 3, 40)
    stopped = 0
    for c in range(2):
        for f, (_, te) in enumerate(folds):
            staged = _staged(full[c][f], X[te])
            raw = np.array(list(staged_raw_binned_once(full[c][f], X[te])))
            curve = np.logaddexp(0.0, -2.0 * np.where(y[te] == 1, 1.0, -1.0) * raw).mean(axis=1)
            np.testing.assert_allclose(full_curves[c, f], curve, rtol=1e-12)
            np.testing.assert_allclose(
                full_curves[c, f], _trimmed_losses(staged, y[te], np.ones(len(te)), 0.0),
                rtol=1e-6)
            # held-out loss after t rounds, t = 0 .. 40 (0 rounds: P = 1/2)
            loss = np.r_[np.log(2.0), curve]
            best, stop = 0, len(loss) - 1
            for t in range(1, len(loss) - 1):
                if loss[t] < loss[best]:
                    best = t
                elif t - best >= patience:
                    stop = t
                    break
            stopped += stop < 40
            np.testing.assert_array_equal(_staged(early[c][f], X[te]), staged[:stop])
            np.testing.assert_array_equal(early_curves[c, f, :stop], full_curves[c, f, :stop])
            np.testing.assert_array_equal(early_curves[c, f, stop:], early_curves[c, f, stop - 1])
    assert early_curves.shape[2] < 40  # padded to the longest model's rounds only
    assert stopped  # the noisy labels do stop some models early


def test_search_early_stopping_does_not_depend_on_n_jobs_multiclass():
    X, y = make_blobs(210, centers=3, cluster_std=2.5, random_state=3)
    y_noisy = np.asarray(flip_labels(y, 0.25, random_state=0)[0])
    folds, (one, one_curves) = _search(X, y_noisy, 5)
    with parallel_config(backend="threading"):
        _, (two, two_curves) = _search(X, y_noisy, 5, n_jobs=2)
    _, (full, _) = _search(X, y_noisy, None)
    np.testing.assert_array_equal(one_curves, two_curves)
    differs = False
    for c in range(2):
        for f, (_, te) in enumerate(folds):
            a = _staged(one[c][f], X[te])
            np.testing.assert_array_equal(a, _staged(two[c][f], X[te]))
            differs |= len(a) < len(_staged(full[c][f], X[te]))
    assert differs


def test_search_in_successive_groups_is_the_same_search(monkeypatch):
    """Fitting the search's models a few at a time (large data: _IN_FLIGHT_BYTES) gives
    the same models, curves and suspects as fitting them all in one pass."""
    import robust_boosting._cv_search as cv
    X, y = make_blobs(240, centers=3, cluster_std=2.5, random_state=5)
    y_noisy = np.asarray(flip_labels(y, 0.2, random_state=1)[0])
    folds, (one_pass, curves) = _search(X, y_noisy, 5)
    per_model = 32 * len(y) * 3
    assert cv._models_in_flight(len(y), 3) >= 6  # one pass: two candidates, three folds
    monkeypatch.setattr(cv, "_IN_FLIGHT_BYTES", 2 * per_model)
    assert cv._models_in_flight(len(y), 3) == 2
    _, (grouped, grouped_curves) = _search(X, y_noisy, 5)
    np.testing.assert_array_equal(grouped_curves, curves)
    for c in range(2):
        for f, (_, te) in enumerate(folds):
            np.testing.assert_array_equal(_staged(grouped[c][f], X[te]),
                                          _staged(one_pass[c][f], X[te]))
    a = SPLBoostClassifierCV(random_state=0, **FAST).fit(X, y_noisy)
    monkeypatch.setattr(cv, "_IN_FLIGHT_BYTES", 1)  # one model at a time
    b = SPLBoostClassifierCV(random_state=0, **FAST).fit(X, y_noisy)
    np.testing.assert_array_equal(a.oof_proba_, b.oof_proba_)
    np.testing.assert_array_equal(a.label_issues_, b.label_issues_)
    np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))


def test_models_in_flight_budget():
    from robust_boosting._cv_search import _IN_FLIGHT_BYTES, _models_in_flight
    assert _models_in_flight(1_000, 2) == _IN_FLIGHT_BYTES // 32_000
    assert _models_in_flight(10_000, 5) >= 6  # the small-data search: one batched pass
    assert _models_in_flight(100_000, 2) >= 3  # binary folds together
    assert _models_in_flight(100_000, 5) == 1  # 5 classes: fold after fold
    assert _models_in_flight(10_000_000, 10) == 1


@pytest.mark.parametrize("params, match", [
    (dict(drop_fraction="bogus"), "drop_fraction"),
    (dict(remove_label_issues="yes"), "remove_label_issues"),
    (dict(remove_label_issues=1), "remove_label_issues"),
    (dict(label_issue_weight=1.5), "label_issue_weight"),
    (dict(label_issue_weight=(0.5, 0.5, 0.5)), "label_issue_weight"),
    (dict(label_issue_weight=(0.5, -0.1)), "label_issue_weight"),
    (dict(drop_fraction=1.0), "drop_fraction"),
    (dict(drop_fraction=[0.1, -0.1]), "drop_fraction"),
    (dict(max_depth=0), "max_depth"),
    (dict(learning_rate=[]), "learning_rate"),
    (dict(n_estimators=0), "n_estimators"),
    (dict(cv=1), "cv"),
])
def test_bad_parameters(separated, params, match):
    X, y = separated
    with pytest.raises((ValueError, TypeError), match=match):
        SPLBoostClassifierCV(**params).fit(X, y)


def test_dataframe_with_categorical_column_and_missing_values():
    # the categorical column reaches the trees as categories (set splits), NaN is missing,
    # and predict checks a frame against the fitted schema
    pd = pytest.importorskip("pandas")
    rng = np.random.RandomState(0)
    n = 300
    colour = rng.choice(["red", "green", "blue", "grey", "pink"], size=n)
    x = rng.normal(size=n)
    y = (np.isin(colour, ["red", "blue", "pink"]) ^ (x > 1.0)).astype(int)
    x[rng.rand(n) < 0.1] = np.nan
    frame = pd.DataFrame({"x": x, "colour": pd.Categorical(colour)})
    clf = SPLBoostClassifierCV(random_state=0).fit(frame, y)
    trees = [t for t in clf.best_estimator_.estimators_]
    assert any(t.tree_.has_categorical for t in trees)
    assert clf.score(frame, y) > 0.9
    assert np.all(np.isfinite(clf.predict_proba(frame)))
    unseen = frame.assign(colour=pd.Categorical(["white"] * n))
    # an unknown category is a missing value (the trees' missing-value branch) ...
    np.testing.assert_array_equal(clf.predict_proba(unseen),
                                  clf.predict_proba(frame.assign(colour=np.nan)))
    clf.set_params(unknown_categories="error")  # ... or, if asked for, an error
    with pytest.raises(ValueError, match="colour"):
        clf.predict(unseen)
    with pytest.raises(ValueError):
        clf.predict(frame[["colour", "x"]])


@pytest.mark.parametrize("age", ["auto", 2.0, 1.0, 1.5])
def test_drop_fraction_needs_a_fraction_as_age(age):
    # an age of 1 or more would drop nothing: a silent AdaBoost; "auto" has no meaning here
    from robust_boosting import SPLBoostClassifier

    X, y = make_blobs(60, centers=2, random_state=0)
    with pytest.raises(ValueError, match="fraction"):
        SPLBoostClassifier(regularizer="drop_fraction", age=age).fit(X, y)
    with pytest.raises((ValueError, TypeError), match="fraction|real number"):
        SPLLogitBoostClassifier(regularizer="drop_fraction", age=age).fit(X, y)
    assert len(SPLBoostClassifier(regularizer="drop_fraction", age=0.2, n_estimators=10)
               .fit(X, y).excluded_samples_) == 12


@pytest.mark.parametrize("k", [2, 3])
def test_drop_fraction_zero_is_self_paced_logitboost_at_infinite_age(k):
    """At drop fraction 0 the search and the final fit build plain LogitBoost (no
    self-paced bookkeeping); with the same trees, rate and seed that is self-paced
    LogitBoost with the hard regularizer at infinite age bit for bit, the model the
    estimator documents."""
    from robust_boosting._cv_search import make_booster as _make_booster

    X, y = make_blobs(600, 5, centers=k, cluster_std=4.0, random_state=k)
    tree = dict(max_depth=None, max_leaf_nodes=7, min_samples_leaf=5, l2_regularization=3.0,
                grow_policy="depthwise", random_strength=0.0)
    plain = _make_booster(tree, 0.2, 0.0, 25, 11)
    assert not isinstance(plain, SPLLogitBoostClassifier)
    spl = SPLLogitBoostClassifier(clone(plain.estimator), n_estimators=25, learning_rate=0.2,
                                  regularizer="hard", age=np.inf, random_state=11)
    plain.fit(X, y)
    spl.fit(X, y)
    np.testing.assert_array_equal(plain.decision_function(X), spl.decision_function(X))
    np.testing.assert_array_equal(plain.estimator_weights_, spl.estimator_weights_)
    assert isinstance(_make_booster(tree, 0.2, 0.1, 25, 11), SPLLogitBoostClassifier)


def test_l2_regularization_auto_and_explicit():
    """``l2_regularization="auto"`` is 0 for the depth-wise trees of at most 5,000 rows,
    10 for symmetric trees and 100 for leaf-wise ones above; explicit values are candidates
    of the search (in each of its groups) and reach every tree of the final model."""
    est = SPLBoostClassifierCV()
    small = est._search_space(5000)
    large = est._search_space(5001)
    leafwise = SPLBoostClassifierCV(grow_policy="depthwise")._search_space(5001)
    assert {(c["grow_policy"], c["l2_regularization"]) for c in small} == {
        ("depthwise", 0.0), ("symmetric", 10.0)}
    assert {c["l2_regularization"] for c in large} == {10.0}
    assert {c["l2_regularization"] for c in leafwise} == {100.0}
    grid = SPLBoostClassifierCV(l2_regularization=(0.0, 7.0),
                                grow_policy="depthwise")._search_space(100)
    assert sorted(c["l2_regularization"] for c in grid) == [0.0, 0.0, 7.0, 7.0]  # x 2 depths
    union = SPLBoostClassifierCV(l2_regularization=(0.0, 7.0))._search_space(100)
    assert sorted(c["l2_regularization"] for c in union) == [0.0] * 3 + [7.0] * 3  # + depth 6
    with pytest.raises(ValueError, match="l2_regularization"):
        SPLBoostClassifierCV(l2_regularization=-1.0)._search_space(100)
    X, y = make_blobs(300, 4, centers=2, cluster_std=3.0, random_state=0)
    fitted = SPLBoostClassifierCV(l2_regularization=7.0, n_estimators=10,
                                  random_state=0).fit(X, y)
    assert fitted.best_params_["l2_regularization"] == 7.0
    assert fitted.best_estimator_.estimator.l2_regularization == 7.0
    assert all(t.l2_regularization == 7.0 for t in fitted.best_estimator_.estimators_)


def test_small_data_search_is_the_union_of_its_two_groups():
    """On at most 5,000 numeric rows the "auto" search is the depth-wise search joined by
    the symmetric large-data candidate, each with its own round cap: its held-out score
    is the better of the two searches' and its model the winner's, bit for bit (the
    searches share folds and seeds, and batched models equal separate fits)."""
    import pandas as pd

    X, y = make_classification(400, 8, n_informative=5, random_state=1)
    y_noisy, _ = flip_labels(y, 0.2, random_state=1)
    union = SPLBoostClassifierCV(random_state=0).fit(X, y_noisy)
    small = SPLBoostClassifierCV(grow_policy="depthwise", random_state=0).fit(X, y_noisy)
    large = SPLBoostClassifierCV(max_depth=6, learning_rate=0.2, n_estimators=300,
                                 l2_regularization=10.0, grow_policy="symmetric",
                                 random_strength=1.0, random_state=0).fit(X, y_noisy)
    res = union.cv_results_
    assert list(res["param_grow_policy"]) == ["depthwise", "depthwise", "symmetric"]
    assert list(res["param_n_estimators"]) == [100, 100, 300]
    assert list(res["param_random_strength"]) == [0.0, 0.0, 1.0]
    assert np.all(res["n_estimators"] <= res["param_n_estimators"])
    np.testing.assert_array_equal(res["mean_test_score"][:2],
                                  small.cv_results_["mean_test_score"])
    assert res["mean_test_score"][2] == large.best_score_
    assert union.best_score_ == max(small.best_score_, large.best_score_)
    for a, b in ((union, small), (union, large)):
        if a.best_score_ == b.best_score_:
            np.testing.assert_array_equal(a.predict_proba(X), b.predict_proba(X))
            np.testing.assert_array_equal(a.oof_proba_, b.oof_proba_)
    assert union.best_estimator_.n_estimators == union.best_params_["n_estimators"]
    assert (union.best_estimator_.estimator.random_strength
            == union.best_params_["random_strength"])
    # a slow rate: the depth-wise candidates stop at their cap of 100 rounds, the
    # symmetric one runs on, and wins with its own 300 rounds in the final model
    slow = SPLBoostClassifierCV(learning_rate=0.02, random_state=0).fit(X, y)
    assert list(slow.cv_results_["n_estimators"][:2]) == [100, 100]
    assert 100 < slow.cv_results_["n_estimators"][2] <= 300
    assert slow.best_index_ == 2 and slow.best_estimator_.n_estimators == 300
    # categorical columns, or a tree shape given explicitly: the depth-wise search only
    frame = pd.DataFrame({"a": X[:, 0], "c": pd.Categorical(np.arange(400) % 3)})
    assert {c["grow_policy"] for c in SPLBoostClassifierCV().fit(
        frame, y_noisy).cv_results_["params"]} == {"depthwise"}
    assert {c["grow_policy"] for c in SPLBoostClassifierCV(
        max_depth=(1, 3))._search_space(400)} == {"depthwise"}
    # random_strength: "auto" is 0 above 5,000 rows; a value reaches the symmetric
    # candidates only, and is refused where the search has none
    assert [c["random_strength"] for c in SPLBoostClassifierCV()._search_space(5001)] == [0.0]
    # multiclass_trees likewise: shared for the small search's symmetric candidate only
    assert [c["multiclass_trees"] for c in SPLBoostClassifierCV()._search_space(400)] == [
        "per_class", "per_class", "shared"]
    # and for the depth-6 symmetric trees of 5,000-50,000 rows; per class at depth 8
    assert [c["multiclass_trees"] for c in SPLBoostClassifierCV()._search_space(5001)] == [
        "shared"]
    assert [(c["max_depth"], c["multiclass_trees"])
            for c in SPLBoostClassifierCV()._search_space(50_000)] == [(8, "per_class")]
    assert [c["multiclass_trees"] for c in SPLBoostClassifierCV(
        multiclass_trees="shared")._search_space(50_000)] == ["shared"]
    assert [c["multiclass_trees"] for c in SPLBoostClassifierCV(
        grow_policy="depthwise")._search_space(10_000)] == ["per_class"]
    assert {c["multiclass_trees"] for c in SPLBoostClassifierCV(
        grow_policy="symmetric")._search_space(400)} == {"shared"}
    # the small search's symmetric candidate: rate 0.1 over 600 rounds with more than two
    # classes on at most 2,000 rows, else 0.2 over 300
    for n, k, rate, rounds in ((400, 2, 0.2, 300), (400, 3, 0.1, 600), (2000, 5, 0.1, 600),
                               (2001, 5, 0.2, 300)):
        sym = [c for c in SPLBoostClassifierCV()._search_space(n, k)
               if c["grow_policy"] == "symmetric"]
        assert [(c["learning_rate"], c["n_estimators"]) for c in sym] == [(rate, rounds)]
    assert [c["random_strength"] for c in SPLBoostClassifierCV(
        random_strength=0.5)._search_space(400)] == [0.0, 0.0, 0.5]
    with pytest.raises(ValueError, match="random_strength"):
        SPLBoostClassifierCV(random_strength=1.0, grow_policy="depthwise")._search_space(400)
    with pytest.raises(ValueError, match="random_strength"):
        SPLBoostClassifierCV(random_strength=-1.0)._search_space(400)


def test_grow_policy_auto_and_explicit():
    """``grow_policy="auto"``: depth-wise trees on at most 5,000 rows; above, symmetric
    trees of depth 6 (8 from 50,000 rows; λ = 10, no leaf minimum) on numeric data, and
    the leaf-wise search on data with categorical columns. An explicit policy reaches
    every tree of the final model, on categorical columns too."""
    import pandas as pd

    from robust_boosting._auto_rules import SINGLE_MACHINE

    est = SPLBoostClassifierCV()
    small = est._search_space(5000)
    large = est._search_space(5001)
    rounds = max(c["n_estimators"] for c in large)
    assert {c["grow_policy"] for c in small} == {"depthwise", "symmetric"}
    assert {c["grow_policy"] for c in SPLBoostClassifierCV(
        grow_policy="depthwise")._search_space(5000)} == {"depthwise"}
    assert [(c["grow_policy"], c["max_depth"], c["max_leaf_nodes"], c["min_samples_leaf"],
             c["l2_regularization"]) for c in large] == [("symmetric", 6, None, 1, 10.0)]
    assert rounds == 300
    assert [c["max_depth"] for c in est._search_space(49_999)] == [6]
    assert [c["max_depth"] for c in est._search_space(50_000)] == [8]
    # categorical columns (of more than two categories)
    est.feature_schema_ = type("Schema", (), {"all_numeric": False,
                                              "splits_as_numeric": False})()
    leafwise = est._search_space(5001)
    leafwise_rules = SINGLE_MACHINE.large_leafwise
    depths, leaves, min_leaf, l2s = (leafwise_rules.max_depth, leafwise_rules.max_leaf_nodes,
                                     leafwise_rules.min_samples_leaf,
                                     leafwise_rules.l2_regularization)
    assert [(c["grow_policy"], c["max_depth"], c["max_leaf_nodes"], c["min_samples_leaf"],
             c["l2_regularization"]) for c in leafwise] == [
        ("depthwise", depths[0], leaves, min_leaf, l2s[0])]
    # an explicit symmetric policy splits categorical columns too (at the ranks of their
    # categories), with one tree per class for more than two classes
    rng = np.random.RandomState(0)
    frame = pd.DataFrame({"a": rng.randn(300), "c": pd.Categorical(rng.randint(0, 5, 300))})
    y3 = (frame["c"].cat.codes.to_numpy() + (frame["a"] > 0)) % 3
    kw = dict(grow_policy="symmetric", max_depth=2, n_estimators=5, random_state=0)
    binary = SPLBoostClassifierCV(**kw).fit(frame, y3 == 0)
    assert any(t.tree_.is_categorical[t.tree_.children_left >= 0].any()
               for t in binary.best_estimator_.estimators_)
    three = SPLBoostClassifierCV(**kw).fit(frame, y3)
    assert three.best_params_["multiclass_trees"] == "per_class"
    assert not any(isinstance(t, SharedSymmetricTree) for t in three.best_estimator_.estimators_)
    with pytest.raises(ValueError, match="multiclass_trees='shared' splits numeric columns"):
        SPLBoostClassifierCV(multiclass_trees="shared", **kw).fit(frame, y3)
    with pytest.raises(ValueError, match="grow_policy"):
        SPLBoostClassifierCV(grow_policy="lossguide")._search_space(100)
    with pytest.raises(ValueError, match="integer max_depth"):
        SPLBoostClassifierCV(grow_policy="symmetric", max_depth=None,
                             max_leaf_nodes=8)._search_space(100)
    X, y = make_blobs(400, 4, centers=3, cluster_std=3.0, random_state=0)
    fitted = SPLBoostClassifierCV(grow_policy="symmetric", max_depth=3, n_estimators=8,
                                  random_state=0).fit(X, y)
    assert fitted.best_params_["grow_policy"] == "symmetric"
    assert list(fitted.cv_results_["param_grow_policy"]) == ["symmetric"]
    for tree in fitted.best_estimator_.estimators_:  # 3 classes: one shared tree per round
        assert isinstance(tree, SharedSymmetricTree) and len(tree.feature_) <= 3
        assert tree.estimator.grow_policy == "symmetric"


@pytest.mark.parametrize("k", [2, 3])
def test_features_that_cannot_split_give_models_of_no_round_not_a_crash(k):
    """Constant features: every fold model's first learner makes no progress, so it has no
    round; its held-out curve is its initial prediction's loss (the search crashed on an
    empty curve array before), and the fit ends with a model that predicts probabilities."""
    X = np.ones((60, 3))
    y = np.arange(60) % k
    est = SPLBoostClassifierCV(random_state=0).fit(X, y)
    assert np.isfinite(est.best_score_)
    proba = est.predict_proba(X)
    assert proba.shape == (60, k) and np.allclose(proba.sum(axis=1), 1.0)
    assert est.best_estimator_.stopping_reason_ != "reached n_estimators"


@pytest.mark.parametrize("splits", ["shuffle", "overlap"])
def test_folds_that_are_not_a_partition_are_refused(splits):
    """Every row's out-of-fold probabilities come from the one model that held it out: a
    ``cv`` that leaves a row out of every test fold, or puts it in two, is a ValueError
    naming a row (not out-of-fold probabilities of 0 for the rows never held out)."""
    from sklearn.model_selection import ShuffleSplit

    X, y = make_classification(200, 5, random_state=0)
    idx = np.arange(200)
    cv = (ShuffleSplit(3, test_size=0.2, random_state=0) if splits == "shuffle"
          else [(idx[100:], idx[:120]), (idx[:100], idx[100:])])
    with pytest.raises(ValueError, match="exactly one test fold.*row"):
        SPLBoostClassifierCV(cv=cv, n_estimators=10, random_state=0).fit(X, y)


def test_a_cv_without_splits_is_refused():
    X, y = make_classification(60, 4, random_state=0)
    with pytest.raises(ValueError, match="no train/test split"):
        SPLBoostClassifierCV(cv=[], n_estimators=5).fit(X, y)
