"""Label-noise generators for classification: flipped class labels.

The rules every generator follows (``random_state``, ``(y_noisy, flipped)``, exact
counts, valid rates and transition matrices) are stated in :mod:`robust_boosting.noise`.
"""

from __future__ import annotations

import math
import numbers
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
    "flip_labels_hardest",
    "flip_labels_pmd",
    "reference_proba",
    "PMD_TYPES",
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
    y, rate: float, *, kind: str = "symmetric", X=None, classes=None, random_state=None
) -> tuple[np.ndarray, np.ndarray]:
    """Symmetric label noise: flip exactly ``round(rate * n)`` labels chosen at random.

    ``kind`` names another noise model of :data:`NOISE_MODELS` instead (e.g.
    ``"hardest"`` or ``"pmd"``, which need ``X``), with its defaults.

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
    kind : str, default="symmetric"
        A name of :data:`NOISE_MODELS`.
    X : array-like or DataFrame, optional
        Features, for the kinds that depend on the row (``"instance"``, ``"hardest"``,
        ``"pmd"``).
    classes : array-like, optional
        The label set. Default: {-1, +1} if ``y`` only holds those values, otherwise
        the distinct values of ``y``. Symmetric noise only.
    random_state : int, RandomState instance or None

    Returns
    -------
    y_noisy : ndarray of shape (n_samples,)
    flipped : ndarray of bool, shape (n_samples,)
        ``flipped.sum() == round(rate * n)`` (for the kinds with an exact count) and
        ``flipped == (y_noisy != y)``.
    """
    if kind != "symmetric":
        if classes is not None:
            raise ValueError(f"classes= is for symmetric noise; kind={kind!r} takes its "
                             "classes from y")
        return apply_noise(kind, y, rate, X=X, random_state=random_state)
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


def _numeric(X) -> np.ndarray:
    """``X`` as a float matrix for the reference model: a DataFrame's non-numeric
    columns become their category codes (order of first sort), missing values NaN."""
    try:
        import pandas as pd
    except ImportError:  # pragma: no cover - pandas is a dependency
        pd = None
    if pd is not None and isinstance(X, pd.DataFrame):
        cols = []
        for name in X.columns:
            col = X[name]
            if pd.api.types.is_numeric_dtype(col) and not pd.api.types.is_bool_dtype(col):
                cols.append(col.to_numpy(dtype=np.float64, na_value=np.nan))
            else:
                codes = pd.Categorical(col.astype("object").where(col.notna(), None)).codes
                cols.append(np.where(codes < 0, np.nan, codes).astype(np.float64))
        return np.column_stack(cols) if cols else np.empty((len(X), 0))
    return np.asarray(X, dtype=np.float64)


def reference_proba(X, y, *, estimator=None, cv: int = 5, classes=None,
                    random_state=None) -> np.ndarray:
    """Out-of-fold class probabilities of a reference classifier trained on clean labels.

    The input of the instance-dependent generators :func:`flip_labels_hardest` and
    :func:`flip_labels_pmd`; compute it once and pass it as ``proba`` to generate
    several rates or seeds from the same reference.

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features)
        Features; a DataFrame's non-numeric columns enter as category codes.
    y : array-like of shape (n_samples,)
        Clean labels.
    estimator : scikit-learn classifier, optional
        The reference model, cloned for each fold. Default:
        ``HistGradientBoostingClassifier(random_state=0)``.
    cv : int, default=5
        Stratified folds (shuffled with ``random_state``); at least 2, and at most the
        smallest class's count.
    classes : array-like, optional
        See :func:`flip_labels`; the columns of the result follow it.
    random_state : int, RandomState instance or None

    Returns
    -------
    proba : ndarray of shape (n_samples, n_classes)
        Row ``i`` from the model that did not see row ``i``.
    """
    from sklearn.model_selection import StratifiedKFold, cross_val_predict

    y = _as_labels(y)
    cls = _resolve_classes(y, classes)
    ci = _class_index(y, cls)
    Xn = _numeric(X)
    if Xn.shape[0] != len(y):
        raise ValueError(f"X has {Xn.shape[0]} rows but y has {len(y)} labels")
    smallest = int(np.bincount(ci, minlength=len(cls))[np.unique(ci)].min())
    if not (isinstance(cv, numbers.Integral) and 2 <= cv <= smallest):
        raise ValueError(f"cv must be an integer from 2 to the smallest class's count "
                         f"({smallest}), got {cv!r}")
    if estimator is None:
        from sklearn.ensemble import HistGradientBoostingClassifier

        estimator = HistGradientBoostingClassifier(random_state=0)
    rng = check_random_state(random_state)
    folds = StratifiedKFold(cv, shuffle=True, random_state=rng.randint(np.iinfo(np.int32).max))
    fitted = cross_val_predict(clone(estimator), Xn, ci, cv=folds, method="predict_proba")
    proba = np.zeros((len(y), len(cls)))
    proba[:, np.unique(ci)] = fitted
    return proba


def _check_proba(proba, n: int, n_classes: int) -> np.ndarray:
    proba = np.asarray(proba, dtype=np.float64)
    if proba.shape != (n, n_classes):
        raise ValueError(f"proba must have shape ({n}, {n_classes}), got {proba.shape}")
    if not np.isfinite(proba).all() or (proba < 0).any():
        raise ValueError("proba must hold finite non-negative probabilities")
    return proba


def _with_reference(y, rate, X, proba, estimator, cv, classes, random_state):
    """The common start of the generators that read a reference model: ``(y, k, classes,
    rng, class indices, proba)``, ``proba`` fitted from ``X`` when not given."""
    y = _as_labels(y)
    k = n_flips(rate, len(y))
    cls = _resolve_classes(y, classes)
    rng = check_random_state(random_state)
    ci = _class_index(y, cls)
    if proba is None:
        if X is None:
            raise ValueError("give X (to fit a reference classifier) or proba")
        proba = reference_proba(X, y, estimator=estimator, cv=cv, classes=cls,
                                random_state=rng)
    return y, k, cls, rng, ci, _check_proba(proba, len(y), len(cls))


def _closest_other(proba: np.ndarray, ci: np.ndarray):
    """Each row's likeliest class other than its own, and that class's probability."""
    others = proba.copy()
    others[np.arange(len(ci)), ci] = -np.inf
    best = np.argmax(others, axis=1)
    return best, others[np.arange(len(ci)), best]


def flip_labels_hardest(
    y, rate: float, *, X=None, proba=None, estimator=None, cv: int = 5, classes=None,
    random_state=None,
) -> tuple[np.ndarray, np.ndarray]:
    """Annotator-like noise: the hardest rows get the label of their most confusable class.

    The instance-dependent noise of Chen et al. (2021, Sec. 5): a reference model
    trained on the clean labels scores each row by the probability it gives the
    likeliest *other* class, ``s_i = max_{j != y_i} p_ij`` (out of fold, see
    :func:`reference_proba`); the ``round(rate * n)`` rows of largest ``s_i`` are
    flipped, each to its ``argmax_{j != y_i} p_ij``. Ties are broken at random.
    These are the flips that look most plausible, so they are the hardest case for
    confident learning.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Clean labels.
    rate : float in [0, 1)
    X : array-like or DataFrame, optional
        Features for the reference model (needed unless ``proba`` is given).
    proba : array-like of shape (n_samples, n_classes), optional
        The reference probabilities (columns in ``classes`` order), e.g. from
        :func:`reference_proba`.
    estimator, cv
        The reference model and its folds (:func:`reference_proba`).
    classes : array-like, optional
        See :func:`flip_labels`.
    random_state : int, RandomState instance or None

    Returns
    -------
    y_noisy, flipped : ndarray
        As :func:`flip_labels`.

    References
    ----------
    P. Chen, J. Ye, G. Chen, J. Zhao and P.-A. Heng, "Beyond class-conditional
    assumption: a primary attempt to combat instance-dependent label noise", AAAI 2021.
    """
    y, k, cls, rng, ci, proba = _with_reference(y, rate, X, proba, estimator, cv, classes,
                                                random_state)
    closest, score = _closest_other(proba, ci)
    tie_break = rng.permutation(len(y))
    order = np.lexsort((tie_break, -score))  # largest score first, ties at random
    idx = np.sort(order[:k])
    return _result(y, idx, cls[closest[idx]])


#: Polynomial margin-diminishing flip probabilities of Zhang et al. (2021), as functions
#: of the margin ``d = |p_y - p_s|`` between a row's class and its closest other class.
PMD_TYPES: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "I": lambda d: 0.5 * (1.0 - d ** 2),
    "II": lambda d: 1.0 - d ** 3,
    "III": lambda d: 1.0 - (d + d ** 2 + d ** 3) / 3.0,
}


def flip_labels_pmd(
    y, rate: float, *, X=None, proba=None, pmd_type: str = "I", estimator=None, cv: int = 5,
    classes=None, random_state=None,
) -> tuple[np.ndarray, np.ndarray]:
    """Polynomial margin-diminishing (PMD) noise: flips fade with the reference margin.

    The feature-dependent noise of Zhang et al. (2021, Sec. 3): a row of class ``y``
    whose closest other class is ``s`` (by the reference probabilities ``p``, out of
    fold, see :func:`reference_proba`) is mislabelled ``s`` with a probability that
    decreases polynomially in the margin ``d = |p_y - p_s|`` (:data:`PMD_TYPES`):
    type I ``(1 - d^2) / 2``, type II ``1 - d^3``, type III
    ``1 - (d + d^2 + d^3) / 3``. As in the other generators here the count is exact:
    ``round(rate * n)`` rows are drawn without replacement with probability
    proportional to that function (the paper scales it by a constant instead), each
    flipped to its ``s``.

    Parameters
    ----------
    y, rate, X, proba, estimator, cv, classes, random_state
        As :func:`flip_labels_hardest`.
    pmd_type : {"I", "II", "III"}, default="I"
        The polynomial.

    Returns
    -------
    y_noisy, flipped : ndarray
        As :func:`flip_labels`.

    References
    ----------
    Y. Zhang, S. Zheng, P. Wu, M. Goswami and C. Chen, "Learning with feature-dependent
    label noise: a progressive approach", ICLR 2021.
    """
    if pmd_type not in PMD_TYPES:
        raise ValueError(f"pmd_type must be one of {', '.join(PMD_TYPES)}, got {pmd_type!r}")
    y, k, cls, rng, ci, proba = _with_reference(y, rate, X, proba, estimator, cv, classes,
                                                random_state)
    closest, p_other = _closest_other(proba, ci)
    d = np.clip(np.abs(proba[np.arange(len(y)), ci] - p_other), 0.0, 1.0)
    weights = np.maximum(PMD_TYPES[pmd_type](d), 1e-12)  # every row can be drawn
    idx = np.sort(rng.choice(len(y), size=k, replace=False, p=weights / weights.sum()))
    return _result(y, idx, cls[closest[idx]])


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


def _hardest(y, rate, X, random_state):
    return flip_labels_hardest(y, rate, X=X, random_state=random_state)


def _pmd(y, rate, X, random_state):
    return flip_labels_pmd(y, rate, X=X, random_state=random_state)


#: The named noise models: ``name -> f(y, rate, X, random_state) -> (y_noisy, flipped)``.
#: ``"none"``: no flips; ``"symmetric"``: :func:`flip_labels`; ``"per-class"``:
#: :func:`flip_labels_per_class`; ``"class-conditional"``: binary, the first class
#: flipped at ``rate`` and the other at ``rate / 2`` (:func:`flip_labels_class_conditional`,
#: exact counts); ``"instance"``: :func:`flip_labels_instance_dependent`; ``"hardest"``:
#: :func:`flip_labels_hardest`; ``"pmd"``: :func:`flip_labels_pmd` (type I). The last
#: three need ``X``.
NOISE_MODELS: dict[str, Callable] = {
    "none": _no_noise,
    "symmetric": _symmetric,
    "per-class": _per_class,
    "class-conditional": _binary_class_conditional,
    "instance": _instance,
    "hardest": _hardest,
    "pmd": _pmd,
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
