"""The estimators are compositions of public parts: a loss reaches the loop through ``loss=``."""

import numpy as np
import pytest

import robust_boosting as rb
from robust_boosting.losses import MarginLoss, SavageLoss


@pytest.mark.parametrize("n_classes", [2, 3])
def test_savageboost_and_rboost_are_presets_of_the_loss_parameter(n_classes, data):
    X, y = data
    if n_classes == 3:
        y = np.where(X[:, 1] > 0.5, 2, y)
    pairs = [
        (rb.SavageBoostClassifier(n_estimators=15, random_state=0),
         rb.RealBoostClassifier(n_estimators=15, loss="savage", clip=0.05, random_state=0)),
        (rb.RBoostClassifier(n_estimators=15, random_state=0),
         rb.GentleBoostClassifier(n_estimators=15, loss="savage2", random_state=0)),
    ]
    for preset, general in pairs:
        np.testing.assert_array_equal(preset.fit(X, y).decision_function(X),
                                      general.fit(X, y).decision_function(X))


def test_a_user_loss_instance_reaches_the_loop(data):
    """A MarginLoss subclass passed as ``loss=`` is the one whose weights the rounds use."""
    X, y = data

    class CountingSavage(SavageLoss):
        calls = 0

        def log_sample_weight(self, m):
            type(self).calls += 1
            return super().log_sample_weight(m)

    user = rb.RealBoostClassifier(n_estimators=5, loss=CountingSavage(), clip=0.05,
                                  random_state=0).fit(X, y)
    assert CountingSavage.calls >= 5
    named = rb.RealBoostClassifier(n_estimators=5, loss="savage", clip=0.05,
                                   random_state=0).fit(X, y)
    np.testing.assert_array_equal(user.decision_function(X), named.decision_function(X))


@pytest.mark.parametrize("bad", ["hinge", 3, MarginLoss])
def test_bad_loss_is_refused(bad, data):
    X, y = data
    with pytest.raises((ValueError, TypeError), match="loss"):
        rb.GentleBoostClassifier(loss=bad).fit(X, y)
