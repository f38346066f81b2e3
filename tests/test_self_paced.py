"""SP-regularizers: closed forms against numerical integration and minimisation (SPEC §2)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.integrate import quad

from robust_boosting.self_paced import (
    REGULARIZER_NAMES,
    CallableRegularizer,
    HardRegularizer,
    LinearRegularizer,
    MixtureRegularizer,
    PolynomialRegularizer,
    get_regularizer,
)

BUILTINS = [
    HardRegularizer(),
    LinearRegularizer(),
    PolynomialRegularizer(t=1.3),
    PolynomialRegularizer(t=2.5),
    PolynomialRegularizer(t=4.0),
    MixtureRegularizer(gamma=0.5),
    MixtureRegularizer(gamma=2.0),
]
AGES = [0.3, 1.0, 2.0, 6.0]


def _breakpoints(reg, age):
    if isinstance(reg, MixtureRegularizer):
        a = reg._a(age)
        return [a * a, age * age]
    return [age]


@pytest.mark.parametrize("reg", BUILTINS, ids=repr)
@pytest.mark.parametrize("age", AGES)
def test_latent_loss_is_integral_of_weight(reg, age):
    top = 1.5 * max(_breakpoints(reg, age))
    losses = np.concatenate([np.linspace(0.0, top, 41), _breakpoints(reg, age)])
    closed = reg.latent_loss(losses, age)
    for loss, value in zip(losses, closed, strict=True):
        points = [p for p in _breakpoints(reg, age) if 0 < p < loss]
        numeric, _ = quad(
            lambda u: float(reg.weight(np.array([u]), age)[0]),
            0.0,
            loss,
            points=points or None,
            epsabs=1e-12,
            epsrel=1e-12,
            limit=200,
        )
        assert value == pytest.approx(numeric, abs=1e-8)


@pytest.mark.parametrize("reg", BUILTINS, ids=repr)
@pytest.mark.parametrize("age", AGES)
def test_weight_minimises_penalised_loss(reg, age):
    """v* = argmin_{v in [0,1]} v*loss + f(v; age), with the f the paper gives."""
    grid = np.linspace(0.0, 1.0, 20001)
    top = 1.5 * max(_breakpoints(reg, age))
    for loss in np.linspace(1e-3, top, 37):
        v_star = float(reg.weight(np.array([loss]), age)[0])
        assert 0.0 <= v_star <= 1.0
        with np.errstate(divide="ignore"):
            objective = grid * loss + reg.penalty(grid, age)
        at_star = v_star * loss + float(reg.penalty(np.array([v_star]), age)[0])
        assert at_star <= objective.min() + 1e-9 * max(1.0, abs(objective.min()))


@pytest.mark.parametrize("reg", BUILTINS[:5], ids=repr)
def test_infinite_age_keeps_every_sample(reg):
    losses = np.array([0.0, 1.0, 1e3, 1e300])
    np.testing.assert_array_equal(reg.weight(losses, np.inf), 1.0)
    np.testing.assert_allclose(reg.latent_loss(losses, np.inf), losses)


@given(
    losses=st.lists(st.floats(0.0, 50.0), min_size=1, max_size=30),
    age=st.floats(0.1, 20.0),
)
@settings(max_examples=60, deadline=None)
def test_weights_non_increasing_in_loss(losses, age):
    ls = np.sort(np.asarray(losses))
    for reg in BUILTINS:
        v = reg.weight(ls, age)
        assert np.all(np.diff(v) <= 1e-15)
        latent = reg.latent_loss(ls, age)
        assert np.all(np.diff(latent) >= -1e-12)  # F is non-decreasing
        assert np.all(latent <= ls + 1e-12)  # F(l) <= l since v <= 1


def test_callable_regularizer_integrates_numerically():
    linear = LinearRegularizer()
    user = CallableRegularizer(lambda age, loss: np.where(loss < age, 1.0 - loss / age, 0.0))
    losses = np.array([3.0, 0.1, 1.7, 0.0, 2.5, 1.0])
    np.testing.assert_allclose(user.weight(losses, 2.0), linear.weight(losses, 2.0))
    np.testing.assert_allclose(user.latent_loss(losses, 2.0), linear.latent_loss(losses, 2.0),
                               atol=1e-10)


def test_callable_regularizer_rejects_bad_weights():
    user = CallableRegularizer(lambda age, loss: 2.0 * np.ones_like(loss))
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        user.weight(np.array([1.0]), 2.0)


def test_named_regularizers_and_aliases():
    assert get_regularizer("lowerconvex") == PolynomialRegularizer(t=1.3)
    assert get_regularizer("upperconvex") == PolynomialRegularizer(t=4.0)
    assert get_regularizer("polynomial", {"t": 3.0}) == PolynomialRegularizer(t=3.0)
    assert get_regularizer("mixture", {"gamma": 0.7}) == MixtureRegularizer(gamma=0.7)
    with pytest.raises(ValueError, match="Unknown SP-regularizer 'soft'"):
        get_regularizer("soft")
    with pytest.raises(ValueError, match="t > 1"):
        get_regularizer("polynomial", {"t": 1.0})
    with pytest.raises(ValueError, match="takes no parameters"):
        get_regularizer("hard", {"t": 2.0})
    with pytest.raises(ValueError, match="Bad parameters"):
        get_regularizer("polynomial", {"order": 2.0})
    with pytest.raises(TypeError, match="must be a name"):
        get_regularizer(3.0)


@settings(max_examples=60, deadline=None)
@given(kind=st.sampled_from(["hard", "linear", "polynomial", "mixture"]),
       param=st.floats(1.05, 10.0), peak=st.floats(0.1, 10.0))
def test_default_age_puts_the_boosting_weight_peak_at_the_given_loss(kind, param, peak):
    """``default_age``: ``l v*(age; l)`` (the weight SPLBoost fits its learner on) is
    largest at ``l = peak`` for every regularizer."""
    from robust_boosting.self_paced import default_age

    params = {"polynomial": {"t": param}, "mixture": {"gamma": param}}.get(kind)
    reg = get_regularizer(kind, params)
    age = default_age(reg, peak)
    losses = np.linspace(0.0, 3.0 * max(age, age * age), 200_001)[1:]
    weight = losses * reg.weight(losses, age)
    best = losses[np.argmax(weight)]
    if kind == "hard":  # increasing up to the age, 0 from it on
        assert age == peak and best < peak and peak - best < 1e-3 * peak + losses[0]
    else:
        np.testing.assert_allclose(best, peak, rtol=2e-3, atol=2 * losses[0])


def test_default_ages_of_the_named_regularizers():
    from robust_boosting.self_paced import default_age

    ages = {name: default_age(get_regularizer(name)) for name in REGULARIZER_NAMES}
    np.testing.assert_allclose(
        [ages[n] for n in ("hard", "linear", "polynomial", "mixture", "lowerconvex",
                           "upperconvex")],
        [2.0, 4.0, 4.0, 2.0 * np.sqrt(2.0), 2.0 * 1.3 / 0.3, 8.0 / 3.0])
    assert default_age(get_regularizer(lambda age, loss: np.ones_like(loss))) == 2.0
