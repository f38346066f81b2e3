"""Synthetic data sets of the papers: SPLBoost's and RILBoost's Gaussians, twonorm, ringnorm."""

from __future__ import annotations

import numpy as np
from scipy.stats import multivariate_normal
from sklearn.utils import check_random_state

__all__ = [
    "SPLBOOST_GAUSSIAN_PARAMS",
    "RILBOOST_GAUSSIAN_PARAMS",
    "make_splboost_gaussian",
    "splboost_gaussian_log_odds",
    "make_rilboost_gaussian",
    "rilboost_gaussian_log_odds",
    "make_twonorm",
    "make_ringnorm",
    "small_sample_split",
]

#: Class-conditional Gaussians of SPLBoost's synthetic experiment.
#: The paper does not say which mean belongs to which class; here class -1 has mean
#: (2, -2) and class +1 has mean (-2, 2).
SPLBOOST_GAUSSIAN_PARAMS: dict[int, tuple[np.ndarray, np.ndarray]] = {
    -1: (np.array([2.0, -2.0]), np.array([[2.5, 1.5], [1.5, 5.0]])),
    1: (np.array([-2.0, 2.0]), np.array([[2.3, -0.7], [-0.7, 2.3]])),
}

#: Class-conditional Gaussians of RILBoost's synthetic set (Utkin & Zhuk 2014, Fig. 13):
#: means (2, 2) and (3, 3), standard deviation 3 on both (independent) features.
#: Here class -1 has mean (2, 2) and class +1 has mean (3, 3).
RILBOOST_GAUSSIAN_PARAMS: dict[int, tuple[np.ndarray, np.ndarray]] = {
    -1: (np.array([2.0, 2.0]), 9.0 * np.eye(2)),
    1: (np.array([3.0, 3.0]), 9.0 * np.eye(2)),
}


def _check_count(value: int, name: str, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def _two_gaussians(
    params: dict[int, tuple[np.ndarray, np.ndarray]],
    n_per_class: int,
    random_state,
    shuffle: bool,
) -> tuple[np.ndarray, np.ndarray]:
    n = _check_count(n_per_class, "n_per_class")
    rng = check_random_state(random_state)
    Xs, ys = [], []
    for label in (-1, 1):
        mean, cov = params[label]
        Xs.append(rng.multivariate_normal(mean, cov, size=n))
        ys.append(np.full(n, label, dtype=np.int64))
    X, y = np.vstack(Xs), np.concatenate(ys)
    if shuffle:
        order = rng.permutation(len(y))
        X, y = X[order], y[order]
    return X, y


def _log_odds(params: dict[int, tuple[np.ndarray, np.ndarray]], X) -> np.ndarray:
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(f"X must have shape (n_samples, 2), got {X.shape}")
    (m_neg, c_neg), (m_pos, c_pos) = params[-1], params[1]
    return multivariate_normal(m_pos, c_pos).logpdf(X) - multivariate_normal(m_neg, c_neg).logpdf(X)


def make_splboost_gaussian(
    n_per_class: int = 100, *, random_state=None, shuffle: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """SPLBoost's two-Gaussian synthetic set (Wang et al., SPLBoost, Sec. IV-A).

    Class -1 ~ N([2, -2], [[2.5, 1.5], [1.5, 5]]), class +1 ~ N([-2, 2],
    [[2.3, -0.7], [-0.7, 2.3]]) (the paper leaves the assignment of means to classes
    open; this one is fixed here). The paper then flips 15 % of each class, see
    :func:`robust_boosting.noise.flip_labels_per_class`.

    Parameters
    ----------
    n_per_class : int, default=100
        Samples drawn from each class.
    random_state : int, RandomState instance or None
        Seed.
    shuffle : bool, default=False
        Shuffle the rows (otherwise the -1 block comes first).

    Returns
    -------
    X : ndarray of shape (2 * n_per_class, 2)
    y : ndarray of shape (2 * n_per_class,), int64 in {-1, +1}
    """
    return _two_gaussians(SPLBOOST_GAUSSIAN_PARAMS, n_per_class, random_state, shuffle)


def splboost_gaussian_log_odds(X) -> np.ndarray:
    """Bayes log-odds ``log p(x | +1) - log p(x | -1)`` of SPLBoost's Gaussian set.

    With equal class priors the Bayes decision boundary is the zero level set; use it to
    draw the boundary of SPLBoost's Fig. 3.

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)

    Returns
    -------
    log_odds : ndarray of shape (n_samples,)
    """
    return _log_odds(SPLBOOST_GAUSSIAN_PARAMS, X)


def make_rilboost_gaussian(
    n_per_class: int = 100, *, random_state=None, shuffle: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """RILBoost's synthetic two-Gaussian set (Utkin & Zhuk, Fig. 13).

    Class -1 ~ N((2, 2), 9 I), class +1 ~ N((3, 3), 9 I) (standard deviation 3 on both
    features). The paper draws training sets of n = 20 and 40 from these 100 + 100
    points; see :func:`small_sample_split`.

    Parameters
    ----------
    n_per_class : int, default=100
    random_state : int, RandomState instance or None
    shuffle : bool, default=False

    Returns
    -------
    X : ndarray of shape (2 * n_per_class, 2)
    y : ndarray of shape (2 * n_per_class,), int64 in {-1, +1}
    """
    return _two_gaussians(RILBOOST_GAUSSIAN_PARAMS, n_per_class, random_state, shuffle)


def rilboost_gaussian_log_odds(X) -> np.ndarray:
    """Bayes log-odds of RILBoost's Gaussian set (boundary: the line x1 + x2 = 5).

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)

    Returns
    -------
    log_odds : ndarray of shape (n_samples,)
    """
    return _log_odds(RILBOOST_GAUSSIAN_PARAMS, X)


def _breiman_labels(n_samples: int, rng: np.random.RandomState) -> np.ndarray:
    return np.where(rng.random_sample(n_samples) < 0.5, -1, 1).astype(np.int64)


def make_twonorm(
    n_samples: int = 7400, n_features: int = 20, *, a: float | None = None, random_state=None
) -> tuple[np.ndarray, np.ndarray]:
    """Breiman's twonorm at any size (Breiman 1996, "Bias, variance and arcing classifiers").

    Each sample's class is drawn with probability 1/2; class +1 ~ N(-a 1, I),
    class -1 ~ N(a 1, I), matching the orientation of the bundled (DELVE/KEEL) copy
    where label "1" has the negative mean.

    Parameters
    ----------
    n_samples : int, default=7400
    n_features : int, default=20
    a : float, optional
        Mean offset per coordinate; default ``2 / sqrt(n_features)`` (Breiman's
        ``2 / sqrt(20)`` for 20 features, keeping the Bayes error at about 2.3 %).
    random_state : int, RandomState instance or None

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,), int64 in {-1, +1}
    """
    n = _check_count(n_samples, "n_samples")
    d = _check_count(n_features, "n_features")
    a = 2.0 / np.sqrt(d) if a is None else float(a)
    rng = check_random_state(random_state)
    y = _breiman_labels(n, rng)
    X = rng.standard_normal((n, d)) - a * y[:, None]
    return X, y


def make_ringnorm(
    n_samples: int = 7400, n_features: int = 20, *, a: float | None = None, random_state=None
) -> tuple[np.ndarray, np.ndarray]:
    """Breiman's ringnorm at any size (Breiman 1996, "Bias, variance and arcing classifiers").

    Each sample's class is drawn with probability 1/2; class -1 ~ N(0, 4 I),
    class +1 ~ N(a 1, I), matching the orientation of the bundled (DELVE/KEEL) copy
    (label "1" is the unit-covariance class).

    Parameters
    ----------
    n_samples : int, default=7400
    n_features : int, default=20
    a : float, optional
        Mean offset of class +1 per coordinate. Default ``2 / sqrt(n_features)``,
        which is what the bundled copy shows (its class "1" mean divided by its
        standard deviation is about 0.43 per coordinate); Breiman's report states
        ``1 / sqrt(20)`` -- pass ``a=1 / np.sqrt(20)`` for that variant.
    random_state : int, RandomState instance or None

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,), int64 in {-1, +1}
    """
    n = _check_count(n_samples, "n_samples")
    d = _check_count(n_features, "n_features")
    a = 2.0 / np.sqrt(d) if a is None else float(a)
    rng = check_random_state(random_state)
    y = _breiman_labels(n, rng)
    Z = rng.standard_normal((n, d))
    X = np.where((y == 1)[:, None], Z + a, 2.0 * Z)
    return X, y


def small_sample_split(y, n_train: int, *, random_state=None) -> tuple[np.ndarray, np.ndarray]:
    """Balanced small training set, the rest as test set (RILBoost's protocol, Utkin & Zhuk 2014).

    Draws ``n_train / 2`` training indices from each of the two classes at random; all
    other indices form the test set.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Binary labels (any two values).
    n_train : int
        Even training-set size (e.g. 20, 40 or 100).
    random_state : int, RandomState instance or None

    Returns
    -------
    train_idx, test_idx : ndarray of int
        Sorted index arrays that partition ``range(n_samples)``.
    """
    y = np.asarray(y)
    n = _check_count(n_train, "n_train", minimum=2)
    if n % 2:
        raise ValueError(f"n_train must be even (n_train / 2 per class), got {n}")
    classes = np.unique(y)
    if len(classes) != 2:
        raise ValueError(f"y must have exactly two classes, got {classes.tolist()}")
    rng = check_random_state(random_state)
    parts = []
    for c in classes:
        idx = np.flatnonzero(y == c)
        if len(idx) < n // 2:
            raise ValueError(f"class {c!r} has {len(idx)} samples, fewer than n_train/2 = {n // 2}")
        parts.append(rng.choice(idx, size=n // 2, replace=False))
    train = np.sort(np.concatenate(parts))
    test = np.setdiff1d(np.arange(len(y)), train)
    return train, test
