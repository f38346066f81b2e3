"""SPLBoost and AdaBoost: the promises of SPEC §2 and of the foundation issue."""

import pickle
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_breast_cancer, load_wine, make_classification
from sklearn.ensemble import AdaBoostClassifier as SkAdaBoost
from sklearn.tree import DecisionTreeClassifier

from robust_boosting import AdaBoostClassifier, BoostingStoppedWarning, SPLBoostClassifier
from robust_boosting.datasets import make_splboost_gaussian
from robust_boosting.noise import flip_labels_per_class
from robust_boosting.self_paced import AGE_REGULARIZER_NAMES
from robust_boosting.trees import HistTreeClassifier

STUMP = DecisionTreeClassifier(max_depth=1, random_state=0)


@pytest.mark.parametrize("loader", [load_breast_cancer, load_wine], ids=["binary", "3-class"])
def test_infinite_age_is_adaboost_is_sklearn_adaboost(loader):
    X, y = loader(return_X_y=True)
    ours = AdaBoostClassifier(STUMP, n_estimators=60, random_state=0).fit(X, y)
    spl = SPLBoostClassifier(STUMP, n_estimators=60, age=np.inf, random_state=0).fit(X, y)
    ref = SkAdaBoost(STUMP, n_estimators=60, random_state=0).fit(X, y)
    assert ours.n_estimators_ == spl.n_estimators_ == len(ref.estimators_)
    for model in (ours, spl):
        np.testing.assert_array_equal(model.predict(X), ref.predict(X))
        # our coefficients are half of scikit-learn's estimator weights
        np.testing.assert_allclose(2 * model.estimator_weights_, ref.estimator_weights_,
                                   rtol=1e-10)
        d_ours, d_ref = model.decision_function(X), ref.decision_function(X)
        ratio = d_ours / d_ref
        np.testing.assert_allclose(ratio, ratio.flat[0], rtol=1e-8)
    # SPLBoost with age = inf never drops a sample and reproduces AdaBoost's weights
    np.testing.assert_array_equal(spl.self_paced_weights_, 1.0)
    np.testing.assert_array_equal(spl.sample_weights_, ours.sample_weights_)


def _latent_objective_case(seed, age, regularizer, n):
    X, y = make_classification(n, 4, n_informative=3, n_redundant=0, random_state=seed)
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.2, 1 - y, y)
    model = SPLBoostClassifier(
        DecisionTreeClassifier(max_depth=2), n_estimators=25, age=age,
        regularizer=regularizer, random_state=seed,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", BoostingStoppedWarning)
        model.fit(X, y)
    return model


@given(
    seed=st.integers(0, 10_000),
    age=st.floats(1.0, 6.0),
    regularizer=st.sampled_from(AGE_REGULARIZER_NAMES),
    n=st.integers(30, 120),
)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_latent_objective_never_increases_after_warm_start(seed, age, regularizer, n):
    """Theorem 1: SPLBoost is MM on sum_i F_age(exp(-y_i F(x_i)))."""
    model = _latent_objective_case(seed, age, regularizer, n)
    objective = model.latent_objective_[model.warm_start_rounds_:]
    ages = model.ages_[model.warm_start_rounds_:]
    assert np.all(np.isfinite(model.latent_objective_))
    # Theorem 1 is for a fixed age: no increase between rounds of the same age
    # (the growing age, age_growth, changes the objective itself where it grows)
    same_age = ages[1:] == ages[:-1]
    rises = np.diff(objective) > 1e-12 * np.maximum(1.0, np.abs(objective[:-1]))
    assert not np.any(rises & same_age)
    assert np.all(np.diff(ages) >= 0)


def test_latent_objective_can_increase_without_self_paced_weights():
    """The monotonicity test can fail: AdaBoost's exponential loss, read through F_age, goes up."""
    X, y = make_classification(200, 4, n_informative=3, n_redundant=0, random_state=1)
    y = np.where(np.random.default_rng(1).random(200) < 0.25, 1 - y, y)
    spl = SPLBoostClassifier(DecisionTreeClassifier(max_depth=2), n_estimators=60,
                             age=np.inf, random_state=0).fit(X, y)
    from robust_boosting.self_paced import HardRegularizer

    margins = []
    for raw in spl._staged_raw(X):
        margins.append((2 * y - 1) * raw)
    hard = HardRegularizer()
    objective = [hard.latent_loss(np.exp(-m), 2.0).mean() for m in margins]
    assert np.any(np.diff(objective) > 1e-6)


def test_synthetic_gaussian_splboost_beats_adaboost_and_finds_flipped_labels():
    """SPEC §8A: 15 % flips per class, 20 seeds, depth-2 trees, 200 rounds."""
    err_ada, err_spl, excluded_flipped, excluded = [], [], 0, 0
    for seed in range(20):
        X, y = make_splboost_gaussian(100, random_state=seed)
        X_test, y_test = make_splboost_gaussian(1000, random_state=10_000 + seed)
        y_noisy, flipped = flip_labels_per_class(y, 0.15, random_state=seed)
        tree = DecisionTreeClassifier(max_depth=2)
        ada = AdaBoostClassifier(tree, n_estimators=200, random_state=seed).fit(X, y_noisy)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", BoostingStoppedWarning)
            spl = SPLBoostClassifier(tree, n_estimators=200, age=2.0, regularizer="hard",
                                     random_state=seed).fit(X, y_noisy)
        err_ada.append(1 - ada.score(X_test, y_test))
        err_spl.append(1 - spl.score(X_test, y_test))
        excluded_flipped += int(flipped[spl.excluded_samples_].sum())
        excluded += spl.excluded_samples_.size
    assert np.mean(err_spl) <= 0.8 * np.mean(err_ada)
    assert excluded > 0 and excluded_flipped / excluded >= 0.8


@pytest.mark.parametrize("regularizer", ["hard", "linear", "lowerconvex", "upperconvex"])
def test_self_paced_weights_exposed(noisy_binary, regularizer):
    X, y, _, flipped = noisy_binary
    spl = SPLBoostClassifier(n_estimators=50, age=3.0, regularizer=regularizer,
                             random_state=0).fit(X, y)
    v = spl.self_paced_weights_
    assert v.shape == (X.shape[0],) and np.all((v >= 0) & (v <= 1))
    np.testing.assert_array_equal(spl.excluded_samples_, np.flatnonzero(v == 0))
    assert spl.latent_objective_.shape == (spl.n_estimators_,)
    assert spl.n_selected_.shape == (spl.n_estimators_,)
    assert spl.sample_weights_.sum() == pytest.approx(1.0)
    np.testing.assert_array_equal(spl.sample_weights_[v == 0], 0.0)
    # flipped samples get smaller self-paced weights on average than clean ones
    assert v[flipped].mean() < v[~flipped].mean()


def test_inner_iterations_until_v_stops_changing(noisy_binary):
    X, y, _, _ = noisy_binary
    one = SPLBoostClassifier(n_estimators=30, random_state=0).fit(X, y)
    auto = SPLBoostClassifier(n_estimators=30, inner_iterations="auto", random_state=0).fit(X, y)
    three = SPLBoostClassifier(n_estimators=30, inner_iterations=3, random_state=0).fit(X, y)
    np.testing.assert_array_equal(one.inner_passes_, 1)
    np.testing.assert_array_equal(three.inner_passes_, 3)
    assert auto.inner_passes_.max() > 1
    assert auto.inner_passes_.max() <= 50


def test_user_callable_regularizer(noisy_binary):
    X, y, _, _ = noisy_binary
    def hard(age, loss):
        return (loss < age).astype(float)
    a = SPLBoostClassifier(n_estimators=30, regularizer=hard, age=2.0, random_state=0).fit(X, y)
    b = SPLBoostClassifier(n_estimators=30, regularizer="hard", age=2.0, random_state=0).fit(X, y)
    np.testing.assert_array_equal(a.predict(X), b.predict(X))
    np.testing.assert_allclose(a.latent_objective_, b.latent_objective_, rtol=1e-9)


def test_multiclass_splboost_on_noisy_wine():
    X, y = load_wine(return_X_y=True)
    rng = np.random.default_rng(0)
    noisy = y.copy()
    flip = rng.choice(len(y), 30, replace=False)
    noisy[flip] = (y[flip] + rng.integers(1, 3, size=30)) % 3
    spl = SPLBoostClassifier(n_estimators=50, age=2.0, random_state=0).fit(X, noisy)
    proba = spl.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert spl.decision_function(X).shape == (len(y), 3)
    assert spl.excluded_samples_.size > 0
    flipped = np.zeros(len(y), bool)
    flipped[flip] = True
    assert flipped[spl.excluded_samples_].mean() > flipped.mean()


def test_staged_methods_match_final(noisy_binary):
    X, y, _, _ = noisy_binary
    model = SPLBoostClassifier(n_estimators=20, random_state=0).fit(X, y)
    staged = list(model.staged_decision_function(X))
    assert len(staged) == model.n_estimators_
    np.testing.assert_allclose(staged[-1], model.decision_function(X))
    np.testing.assert_array_equal(list(model.staged_predict(X))[-1], model.predict(X))
    np.testing.assert_allclose(list(model.staged_predict_proba(X))[-1], model.predict_proba(X))
    scores = list(model.staged_score(X, y))
    assert scores[-1] == pytest.approx(model.score(X, y))
    # the first stage is the first learner alone
    first = model.estimator_weights_[0] * (2 * model.estimators_[0].predict(X) - 1)
    np.testing.assert_allclose(staged[0], first)


def test_feature_importances(noisy_binary):
    X, y, _, _ = noisy_binary
    X = np.column_stack([X, np.random.default_rng(0).normal(size=len(y))])
    model = AdaBoostClassifier(n_estimators=20, random_state=0).fit(X, y)
    imp = model.feature_importances_
    assert imp.shape == (3,) and imp.sum() == pytest.approx(1.0)


def test_many_rounds_no_overflow_no_warning(noisy_binary):
    X, y, _, _ = noisy_binary
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with np.errstate(all="raise"):
            for model in (
                AdaBoostClassifier(HistTreeClassifier(max_depth=2), n_estimators=5000,
                                   random_state=0),
                SPLBoostClassifier(HistTreeClassifier(max_depth=1), n_estimators=5000,
                                   age=20.0, regularizer="linear", random_state=0),
            ):
                model.fit(X, y)
                assert model.n_estimators_ == 5000, model.stopping_reason_
                assert model.stopping_reason_ == "reached n_estimators"
                for arr in (model.decision_function(X), model.predict_proba(X),
                            model.sample_weights_, model.estimator_weights_):
                    assert np.all(np.isfinite(arr))


def test_pickle_round_trip_and_bit_identical_refit(noisy_binary):
    X, y, _, _ = noisy_binary
    make = lambda: SPLBoostClassifier(  # noqa: E731
        DecisionTreeClassifier(max_depth=2, max_features=1), n_estimators=40,
        regularizer="linear", random_state=7,
    )
    a, b = make().fit(X, y), make().fit(X, y)
    assert pickle.dumps(a) == pickle.dumps(b)
    restored = pickle.loads(pickle.dumps(a))
    np.testing.assert_array_equal(restored.decision_function(X), a.decision_function(X))
    np.testing.assert_array_equal(restored.self_paced_weights_, a.self_paced_weights_)
    # a different seed gives a different model (the seeds reach the learners)
    c = SPLBoostClassifier(DecisionTreeClassifier(max_depth=2, max_features=1), n_estimators=40,
                           regularizer="linear", random_state=8).fit(X, y)
    assert not np.array_equal(c.decision_function(X), a.decision_function(X))


def _separable_case():
    """wisconsin, 70/30 split (seed 1), 20 % flips: with the fixed default age the kept
    samples become separable by one stump after 8 rounds."""
    from sklearn.model_selection import train_test_split

    from robust_boosting.datasets import load_dataset
    from robust_boosting.noise import flip_labels

    X, y = load_dataset("wisconsin", return_X_y=True)
    X, X_test, y, y_test = train_test_split(X, y, test_size=0.3, stratify=y, random_state=1)
    return X, flip_labels(y, 0.2, random_state=1)[0], X_test, y_test


def test_growing_age_goes_on_where_the_fixed_age_stops():
    """The default lets more samples in (a growing age) where the paper's fixed age stops
    with a learner perfect on the kept samples; before the first increase both fits agree
    bit for bit."""
    X, y, X_test, y_test = _separable_case()
    with pytest.warns(BoostingStoppedWarning, match="perfect only on the samples"):
        fixed = SPLBoostClassifier(age_growth=None, random_state=1).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error", BoostingStoppedWarning)
        grown = SPLBoostClassifier(random_state=1).fit(X, y)
    k = len(fixed.estimators_)
    assert k < 20 and fixed.final_age_ == fixed.age_ and np.all(fixed.ages_ == fixed.age_)
    assert len(grown.estimators_) == grown.n_estimators == 100
    assert grown.stopping_reason_ == "reached n_estimators"
    np.testing.assert_array_equal(grown.estimator_weights_[:k], fixed.estimator_weights_)
    np.testing.assert_array_equal(grown.latent_objective_[:k], fixed.latent_objective_)
    # the age grew right after the round the fixed fit stopped at, and never shrank
    assert grown.ages_[k - 1] == grown.age_ < grown.ages_[k] <= grown.final_age_
    assert np.all(np.diff(grown.ages_) >= 0)
    assert grown.n_selected_[k] > fixed.n_selected_[-1]
    assert grown.score(X_test, y_test) >= fixed.score(X_test, y_test) - 0.02


def test_age_growth_is_checked():
    X, y = make_classification(60, 4, random_state=0)
    for bad, err in ((1.0, ValueError), (0.5, ValueError), ("x", TypeError), (np.nan, ValueError)):
        with pytest.raises(err, match="age_growth"):
            SPLBoostClassifier(age_growth=bad).fit(X, y)


def test_grown_age_lets_a_dropped_sample_back_in():
    from robust_boosting.self_paced import DropFractionRegularizer, get_regularizer

    loss = np.array([0.5, 1.0, 3.0, 50.0])
    for name in ("hard", "linear", "polynomial", "mixture"):
        reg = get_regularizer(name)
        v = reg.weight(loss, 2.0)
        dropped = v == 0
        assert dropped.any() and not dropped.all()
        age = reg.grown_age(loss, v, 2.0, 2.0)
        assert age == 2.0 * max(2.0, loss[dropped].min())
        assert np.any(reg.weight(loss, age)[dropped] > 0)
    # the age read as the fraction to drop is the user's estimate of the noise rate: it stays
    assert DropFractionRegularizer().grown_age(loss, None, 0.4, 2.0) is None
