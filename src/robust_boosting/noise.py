"""Label-noise generators.

Every generator

- takes ``random_state`` (int, ``RandomState`` or None, scikit-learn style),
- leaves its input untouched and returns ``(y_noisy, flipped)``: a new label array of
  the same dtype and the boolean mask with ``flipped == (y_noisy != y)``,
- works with labels in {-1, +1} and with arbitrary class labels; with more than two
  classes a flipped label goes to a *different* class, uniformly at random or as a
  transition matrix says.

Rates must lie in [0, 1); a transition matrix must be square, non-negative, with rows
summing to 1 and diagonal entries > 0 (a per-class flip rate below 1). The symmetric,
per-class and instance-dependent generators flip an exact count, ``round(rate * n)``
(halves rounded up), as the papers do: SPLBoost, SavageBoost and RILBoost all flip
"a randomly selected proportion" of the training labels, and SPLBoost's synthetic
experiment flips 15 % of each class.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Literal

import numpy as np
from sklearn.base import clone
from sklearn.utils import check_random_state

__all__ = [
    "NOISE_MODELS",
    "apply_noise",
    "n_flips",
    "flip_labels",
    "flip_labels_per_class",
    "flip_labels_class_conditional",
    "flip_labels_instance_dependent",
]


# ---------------------------------------------------------------------------
# validation helpers
# ---------------------------------------------------------------------------


def _check_rate(rate, what: str = "rate") -> float:
    try:
        r = float(rate)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{what} must be a number in [0, 1), got {rate!r}") from exc
    if not (0.0 <= r < 1.0):  # also rejects NaN
        raise ValueError(f"{what} must be in [0, 1), got {rate!r}")
    return r


def n_flips(rate: float, n: int) -> int:
    """Number of labels flipped at noise rate ``rate`` among ``n``: ``round(rate * n)``.

    Halves are rounded up (``floor(rate * n + 0.5)``), with a tolerance of 1e-9 so that
    floating-point products such as ``0.15 * 20`` count as the exact value.

    Parameters
    ----------
    rate : float
        Noise rate in [0, 1).
    n : int
        Number of samples.

    Returns
    -------
    k : int
    """
    r = _check_rate(rate)
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    return min(int(math.floor(r * n + 0.5 + 1e-9)), n)


def _as_labels(y) -> np.ndarray:
    arr = np.asarray(y)
    if arr.ndim != 1:
        raise ValueError(f"y must be one-dimensional, got shape {arr.shape}")
    return arr


def _resolve_classes(y: np.ndarray, classes) -> np.ndarray:
    """The label set to flip among: given, else {-1, +1} for such labels, else unique(y)."""
    if classes is not None:
        cls = np.asarray(classes)
        if cls.ndim != 1 or len(np.unique(cls)) != len(cls):
            raise ValueError("classes must be a one-dimensional sequence of distinct labels")
        unknown = np.setdiff1d(np.unique(y), cls)
        if unknown.size:
            raise ValueError(f"labels {unknown.tolist()} of y are not in classes {cls.tolist()}")
    else:
        uniq = np.unique(y)
        if uniq.size and np.issubdtype(uniq.dtype, np.number) and set(uniq.tolist()) <= {-1, 1}:
            cls = np.array([-1, 1], dtype=y.dtype)
        else:
            cls = uniq
    if len(cls) < 2:
        raise ValueError(
            f"label noise needs at least two classes, got {np.asarray(cls).tolist()}; "
            "pass classes=... to name the others"
        )
    return cls


def _class_index(y: np.ndarray, classes: np.ndarray) -> np.ndarray:
    order = np.argsort(classes, kind="stable")
    pos = np.searchsorted(classes[order], y)
    return order[pos]


def _flip_to_other(
    y: np.ndarray, idx: np.ndarray, classes: np.ndarray, rng: np.random.RandomState
) -> np.ndarray:
    """New labels for y[idx], each uniformly among the other classes."""
    k = len(classes)
    current = _class_index(y[idx], classes)
    shift = rng.randint(1, k, size=len(idx)) if k > 2 else np.ones(len(idx), dtype=int)
    return classes[(current + shift) % k]


def _result(y: np.ndarray, idx: np.ndarray, new_labels: np.ndarray):
    # a dtype that holds every class (e.g. longer strings given in ``classes``)
    y_noisy = y.astype(np.result_type(y.dtype, new_labels.dtype), copy=True)
    y_noisy[idx] = new_labels
    flipped = np.zeros(len(y), dtype=bool)
    flipped[idx] = True
    return y_noisy, flipped


# ---------------------------------------------------------------------------
# generators
# ---------------------------------------------------------------------------


def flip_labels(
    y, rate: float, *, classes=None, random_state=None
) -> tuple[np.ndarray, np.ndarray]:
    """Symmetric label noise: flip exactly ``round(rate * n)`` labels chosen at random.

    The noise model of all three papers (SPLBoost Sec. IV-B, SavageBoost Sec. 6,
    RILBoost's experiments): a uniformly random subset of the training samples gets a
    wrong label. Binary labels are swapped; with more classes the new label is drawn
    uniformly among the other classes.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Clean labels ({-1, +1} or any class labels).
    rate : float in [0, 1)
        Fraction of samples to flip.
    classes : array-like, optional
        The label set. Default: {-1, +1} if ``y`` only holds those values, otherwise
        the distinct values of ``y``.
    random_state : int, RandomState instance or None

    Returns
    -------
    y_noisy : ndarray of shape (n_samples,)
    flipped : ndarray of bool, shape (n_samples,)
        ``flipped.sum() == round(rate * n)`` and ``flipped == (y_noisy != y)``.
    """
    y = _as_labels(y)
    k = n_flips(rate, len(y))
    cls = _resolve_classes(y, classes)
    rng = check_random_state(random_state)
    idx = np.sort(rng.choice(len(y), size=k, replace=False))
    return _result(y, idx, _flip_to_other(y, idx, cls, rng))


def flip_labels_per_class(
    y,
    rate: float | Mapping | Sequence[float],
    *,
    classes=None,
    random_state=None,
) -> tuple[np.ndarray, np.ndarray]:
    """Flip exactly ``round(rate_c * n_c)`` labels inside each class ``c``.

    SPLBoost's synthetic experiment (Sec. IV-A) flips 15 % of each class:
    ``flip_labels_per_class(y, 0.15)``. Different rates per class (asymmetric noise with
    exact counts) are given as a mapping ``{label: rate}`` or a sequence aligned with
    ``classes``.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
    rate : float, mapping or sequence of float, each in [0, 1)
        One rate for every class, ``{label: rate}`` (classes not listed: 0), or one rate
        per entry of ``classes``.
    classes : array-like, optional
        See :func:`flip_labels`.
    random_state : int, RandomState instance or None

    Returns
    -------
    y_noisy, flipped : ndarray
        As :func:`flip_labels`; class ``c`` has exactly ``round(rate_c * n_c)`` flips.
    """
    y = _as_labels(y)
    cls = _resolve_classes(y, classes)
    if isinstance(rate, Mapping):
        unknown = [c for c in rate if c not in set(cls.tolist())]
        if unknown:
            raise ValueError(
                f"rate given for unknown classes {unknown}; classes are {cls.tolist()}"
            )
        rates = [_check_rate(rate.get(c, 0.0), f"rate of class {c!r}") for c in cls.tolist()]
    elif np.ndim(rate) == 0:
        rates = [_check_rate(rate)] * len(cls)
    else:
        if len(rate) != len(cls):
            raise ValueError(f"{len(rate)} rates given for {len(cls)} classes {cls.tolist()}")
        rates = [
            _check_rate(r, f"rate of class {c!r}") for r, c in zip(rate, cls.tolist(), strict=True)
        ]
    rng = check_random_state(random_state)
    chosen = []
    for c, r in zip(cls, rates, strict=True):
        members = np.flatnonzero(y == c)
        chosen.append(rng.choice(members, size=n_flips(r, len(members)), replace=False))
    idx = np.sort(np.concatenate(chosen).astype(np.intp))
    return _result(y, idx, _flip_to_other(y, idx, cls, rng))


def _check_transition_matrix(T, n_classes: int) -> np.ndarray:
    T = np.asarray(T, dtype=np.float64)
    if T.shape != (n_classes, n_classes):
        raise ValueError(
            f"transition matrix must be {n_classes} x {n_classes} (one row and column per "
            f"class), got shape {T.shape}"
        )
    if not np.all(np.isfinite(T)) or np.any(T < 0) or np.any(T > 1):
        raise ValueError("transition matrix entries must be probabilities in [0, 1]")
    sums = T.sum(axis=1)
    bad = np.flatnonzero(~np.isclose(sums, 1.0, rtol=0, atol=1e-8))
    if bad.size:
        raise ValueError(
            f"transition matrix rows must sum to 1; row(s) {bad.tolist()} sum to "
            f"{sums[bad].tolist()}"
        )
    diag = np.diag(T)
    if np.any(diag <= 0):
        i = int(np.flatnonzero(diag <= 0)[0])
        raise ValueError(
            f"flip rate of class index {i} is 1 - T[{i}, {i}] = {1 - diag[i]}; rates must be "
            "in [0, 1)"
        )
    return T


def _apportion(probabilities: np.ndarray, n: int) -> np.ndarray:
    """Largest-remainder rounding of n * probabilities to integers summing to n."""
    raw = probabilities * n
    counts = np.floor(raw + 1e-9).astype(int)
    short = n - counts.sum()
    if short > 0:
        order = np.argsort(-(raw - counts), kind="stable")
        counts[order[:short]] += 1
    return counts


def flip_labels_class_conditional(
    y,
    transition_matrix,
    *,
    classes=None,
    exact: bool = False,
    random_state=None,
) -> tuple[np.ndarray, np.ndarray]:
    """Class-conditional (asymmetric) noise from a transition matrix.

    ``T[i, j]`` is the probability that a sample of class ``classes[i]`` gets label
    ``classes[j]``; ``1 - T[i, i]`` is class i's flip rate. For {-1, +1} labels the
    matrix is 2 x 2 with row/column 0 for -1, e.g. ``[[0.9, 0.1], [0.3, 0.7]]`` flips
    10 % of the negatives and 30 % of the positives.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
    transition_matrix : array-like of shape (K, K)
        Row-stochastic, entries in [0, 1], rows summing to 1, diagonal > 0.
    classes : array-like of length K, optional
        Order of rows/columns. Default: {-1, +1} for such labels, else the sorted
        distinct labels of ``y``.
    exact : bool, default=False
        False: each sample's new label is drawn independently from its row.
        True: class i gets exactly the largest-remainder rounding of ``T[i] * n_i``
        samples of each label (exact counts, like :func:`flip_labels_per_class`).
    random_state : int, RandomState instance or None

    Returns
    -------
    y_noisy, flipped : ndarray
        As :func:`flip_labels`.
    """
    y = _as_labels(y)
    cls = _resolve_classes(y, classes)
    T = _check_transition_matrix(transition_matrix, len(cls))
    rng = check_random_state(random_state)
    ci = _class_index(y, cls) if len(y) else np.zeros(0, dtype=int)
    new = ci.copy()
    for i in range(len(cls)):
        members = np.flatnonzero(ci == i)
        if not members.size:
            continue
        if exact:
            counts = _apportion(T[i], len(members))
            perm = rng.permutation(members)
            new[perm] = np.repeat(np.arange(len(cls)), counts)
        else:
            new[members] = rng.choice(len(cls), size=members.size, p=T[i])
    idx = np.flatnonzero(new != ci)
    return _result(y, idx, cls[new[idx]])


def _margins_from_scores(scores: np.ndarray, ci: np.ndarray, n_classes: int):
    """Margin of the true class and the best other class index from reference scores."""
    n = len(ci)
    if scores.ndim == 1:
        if n_classes != 2:
            raise ValueError("one-dimensional scores need exactly two classes")
        sign = np.where(ci == 1, 1.0, -1.0)
        return sign * scores, 1 - ci
    if scores.shape != (n, n_classes):
        raise ValueError(f"scores must have shape ({n}, {n_classes}), got {scores.shape}")
    own = scores[np.arange(n), ci]
    others = scores.copy().astype(np.float64)
    others[np.arange(n), ci] = -np.inf
    best_other = np.argmax(others, axis=1)
    return own - others[np.arange(n), best_other], best_other


def flip_labels_instance_dependent(
    y,
    rate: float,
    *,
    X=None,
    scores=None,
    estimator=None,
    sharpness: float = 2.0,
    target: Literal["closest", "uniform"] = "closest",
    classes=None,
    random_state=None,
) -> tuple[np.ndarray, np.ndarray]:
    """Instance-dependent noise: flips concentrate near a reference classifier's boundary.

    Exactly ``round(rate * n)`` samples are flipped, drawn without replacement with
    probability proportional to ``exp(-sharpness * |m_i| / mean|m|)``, where ``m_i`` is
    the reference margin of sample i: the score of its own class minus the best other
    class's score (for 1-d binary scores, ``s_i`` signed toward the sample's class).
    ``sharpness = 0`` gives symmetric noise; larger values put the flips closer to the
    boundary.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
    rate : float in [0, 1)
    X : array-like of shape (n_samples, n_features), optional
        Features on which the reference classifier is fitted (needed unless
        ``scores`` is given).
    scores : array-like, optional
        Precomputed reference scores: shape (n_samples,) for two classes (larger means
        ``classes[1]``, e.g. a decision function) or (n_samples, K) per-class scores or
        probabilities, columns in ``classes`` order.
    estimator : scikit-learn classifier, optional
        Reference classifier, cloned and fitted on ``(X, y)``; its ``predict_proba``
        gives the scores. Default: ``LogisticRegression(max_iter=1000)``.
    sharpness : float, default=2.0
        Concentration of the flips at the boundary (>= 0).
    target : {"closest", "uniform"}, default="closest"
        New label of a flipped multiclass sample: the reference classifier's best other
        class, or uniform among the other classes. Binary labels are always swapped.
    classes : array-like, optional
        See :func:`flip_labels`.
    random_state : int, RandomState instance or None

    Returns
    -------
    y_noisy, flipped : ndarray
        As :func:`flip_labels`.
    """
    y = _as_labels(y)
    k = n_flips(rate, len(y))
    cls = _resolve_classes(y, classes)
    if not (np.isfinite(sharpness) and sharpness >= 0):
        raise ValueError(f"sharpness must be a finite number >= 0, got {sharpness!r}")
    if target not in ("closest", "uniform"):
        raise ValueError(f"target must be 'closest' or 'uniform', got {target!r}")
    rng = check_random_state(random_state)
    ci = _class_index(y, cls)
    if scores is None:
        if X is None:
            raise ValueError("give X (to fit a reference classifier) or scores")
        X = np.asarray(X)
        if X.shape[0] != len(y):
            raise ValueError(f"X has {X.shape[0]} rows but y has {len(y)} labels")
        if estimator is None:
            from sklearn.linear_model import LogisticRegression

            estimator = LogisticRegression(max_iter=1000)
        model = clone(estimator).fit(X, ci)
        proba = np.zeros((len(y), len(cls)))
        proba[:, model.classes_] = model.predict_proba(X)
        scores = proba
    scores = np.asarray(scores, dtype=np.float64)
    if len(scores) != len(y):
        raise ValueError(f"scores has {len(scores)} rows but y has {len(y)} labels")
    margin, closest = _margins_from_scores(scores, ci, len(cls))
    scale = np.mean(np.abs(margin)) if len(margin) else 0.0
    if scale > 0 and np.isfinite(scale):
        logits = -sharpness * np.abs(margin) / scale
        weights = np.maximum(np.exp(logits - logits.max()), 1e-300)
    else:
        weights = np.ones(len(y))
    idx = np.sort(rng.choice(len(y), size=k, replace=False, p=weights / weights.sum()))
    if target == "closest" or len(cls) == 2:
        new = cls[closest[idx]]
    else:
        new = _flip_to_other(y, idx, cls, rng)
    return _result(y, idx, new)


# ---------------------------------------------------------------------------
# the registry of named noise models (used by the experiments and the CLI)
# ---------------------------------------------------------------------------


def _no_noise(y, rate, X, random_state):
    y = _as_labels(y)
    return y.copy(), np.zeros(len(y), dtype=bool)


def _symmetric(y, rate, X, random_state):
    return flip_labels(y, rate, random_state=random_state)


def _per_class(y, rate, X, random_state):
    return flip_labels_per_class(y, rate, random_state=random_state)


def _binary_class_conditional(y, rate, X, random_state):
    # the first class flipped at `rate`, the other at `rate / 2`, exact counts
    classes = np.unique(y)
    if len(classes) != 2:
        raise ValueError("the 'class-conditional' noise model needs a binary task")
    T = [[1 - rate, rate], [rate / 2, 1 - rate / 2]]
    return flip_labels_class_conditional(y, T, classes=classes, exact=True,
                                         random_state=random_state)


def _instance(y, rate, X, random_state):
    return flip_labels_instance_dependent(y, rate, X=X, random_state=random_state)


#: The named noise models: ``name -> f(y, rate, X, random_state) -> (y_noisy, flipped)``.
#: ``"none"``: no flips; ``"symmetric"``: :func:`flip_labels`; ``"per-class"``:
#: :func:`flip_labels_per_class`; ``"class-conditional"``: binary, the first class
#: flipped at ``rate`` and the other at ``rate / 2`` (:func:`flip_labels_class_conditional`,
#: exact counts); ``"instance"``: :func:`flip_labels_instance_dependent`.
NOISE_MODELS: dict[str, Callable] = {
    "none": _no_noise,
    "symmetric": _symmetric,
    "per-class": _per_class,
    "class-conditional": _binary_class_conditional,
    "instance": _instance,
}


def apply_noise(model: str, y, rate: float, *, X=None, random_state=None):
    """Corrupt ``y`` with the named noise model of :data:`NOISE_MODELS`.

    Returns ``(y_noisy, flipped)`` as every generator of this module; a rate
    of 0 flips nothing (whatever the model).
    """
    if model not in NOISE_MODELS:
        raise ValueError(f"unknown noise model {model!r}; use one of {', '.join(NOISE_MODELS)}")
    if rate == 0.0:
        model = "none"
    return NOISE_MODELS[model](y, rate, X, random_state)
