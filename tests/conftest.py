"""Shared test fixtures."""

import pytest

from robust_boosting.datasets import make_splboost_gaussian
from robust_boosting.noise import flip_labels_per_class


@pytest.fixture
def noisy_binary():
    """SPEC §8A set, 100 per class, 15 % of each class flipped: (X, y_noisy, y_clean, flipped)."""
    X, y = make_splboost_gaussian(100, random_state=0)
    y_noisy, flipped = flip_labels_per_class(y, 0.15, random_state=0)
    return X, y_noisy, y, flipped
