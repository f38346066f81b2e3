"""Shared test fixtures."""

import os

# Under pytest-xdist each worker process takes its share of the cores, as joblib's
# workers do (robust_boosting.trees.binning._default_threads reads OMP_NUM_THREADS):
# two workers with two OpenMP threads each on two cores wait on each other's threads.
# Tests that need several threads pass n_jobs, which this does not cap.
if os.environ.get("PYTEST_XDIST_WORKER") and "OMP_NUM_THREADS" not in os.environ:
    _workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    os.environ["OMP_NUM_THREADS"] = str(max(1, (os.cpu_count() or 1) // max(1, _workers)))

import numpy as np  # noqa: E402
import pytest

from robust_boosting.datasets import make_splboost_gaussian
from robust_boosting.noise import flip_labels_per_class


@pytest.fixture
def noisy_binary():
    """SPEC §8A set, 100 per class, 15 % of each class flipped: (X, y_noisy, y_clean, flipped)."""
    X, y = make_splboost_gaussian(100, random_state=0)
    y_noisy, flipped = flip_labels_per_class(y, 0.15, random_state=0)
    return X, y_noisy, y, flipped


@pytest.fixture
def data():
    """A small, well-separated binary problem: 60 samples, 3 features, labels -1/+1."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=60) > 0, 1, -1)
    return X, y
