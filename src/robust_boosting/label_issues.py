"""Confident learning: label issues from any model's out-of-fold class probabilities.

The functions take out-of-sample class probabilities ``proba`` (``(n, K)``, rows
summing to 1, each row predicted by a model that did not see it: cross-validated,
out-of-fold) and the given labels ``y`` as class indices ``0 .. K - 1``, as
cleanlab's ``find_label_issues(labels, pred_probs)`` does (note the order: ``proba``
first). They do not depend on the model: :class:`~robust_boosting.SPLBoostClassifierCV`
feeds them its search's out-of-fold probabilities, the Dask estimator
(:mod:`robust_boosting.dask`) applies the per-part functions to each partition and
sums.

- :func:`confident_joint`, the calibrated confident joint ``C[given, true]`` ([CL]_
  Sec. 3.1, eqs. (1)-(2)), and its passes over parts of the data:
  :func:`class_sums`, :func:`class_thresholds`, :func:`confident_guess`,
  :func:`calibrated_joint`;
- noise-rate estimates: :func:`estimate_noise_rate` and :func:`noise_rate_of` (the
  off-diagonal share of the joint), :func:`anchor_noise_rate` and
  :func:`anchor_floors` (how far the most confident probabilities stay below 1,
  [LT]_);
- the suspects: :func:`find_label_issues` ("prune by noise rate", [CL]_ Sec. 3.2,
  optionally with the rows of low margin) and :func:`prune_counts`, how many each pair
  of classes gives;
- the clean fit's weights: :func:`label_retention` (the noise matrix's diagonal) and
  :func:`final_weights`;
- rare classes: :func:`rare_classes`, the classes with fewer rows than the folds that
  predicted the probabilities, and :func:`without_classes`. Every estimate takes
  ``exclude``, classes that take no part in it: a class of one or two rows has a
  threshold ``t_j`` (the mean ``P(j)`` over its rows) of almost nothing, so that every
  row the model is unsure of counts as that class, and the estimated noise grows by
  the rows the model is unsure of.

Example
-------
Any classifier's out-of-fold probabilities will do::

    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_val_predict
    from robust_boosting.label_issues import estimate_noise_rate, find_label_issues

    proba = cross_val_predict(LogisticRegression(), X, y, cv=5, method="predict_proba")
    suspects = find_label_issues(proba, y)        # boolean mask, y as 0 .. K - 1
    noise = estimate_noise_rate(proba, y)         # share of labels the model contradicts

References
----------
.. [CL] C. Northcutt, L. Jiang, I. Chuang, "Confident learning: estimating
   uncertainty in dataset labels", Journal of Artificial Intelligence Research 70,
   2021 (Sec. 3.1, the confident joint, eqs. (1)-(2); Sec. 3.2, the pruning rules).
.. [LT] T. Liu, D. Tao, "Classification with noisy labels by importance
   reweighting", IEEE Trans. Pattern Analysis and Machine Intelligence 38(3), 2016.
.. [PA] G. Patrini, A. Rozza, A. K. Menon, R. Nock, L. Qu, "Making deep neural
   networks robust to label noise: a loss correction approach", CVPR 2017.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "anchor_floors",
    "anchor_noise_rate",
    "calibrated_joint",
    "class_sums",
    "class_thresholds",
    "confident_guess",
    "confident_joint",
    "estimate_noise_rate",
    "final_weights",
    "find_label_issues",
    "label_retention",
    "margin_suspects",
    "noise_rate_of",
    "prune_counts",
    "rare_classes",
    "without_classes",
]

#: the smallest :func:`label_retention` of a class (a class the joint says kept no label
#: would otherwise get an infinite weight)
RETENTION_FLOOR = 1e-3


# ---------------------------------------------------------------------------
# the confident joint


def confident_joint(proba: ArrayLike, y: ArrayLike, n_classes: int | None = None, *,
                    exclude: ArrayLike = ()) -> NDArray:
    """Calibrated confident joint ``C[i, j]``: samples labelled ``i`` whose class is likely ``j``.

    Confident learning ([CL]_ eqs. (1)-(2)): the threshold of class ``j`` is the
    mean predicted probability of ``j`` over the samples labelled ``j``; a
    sample counts in ``C[label, j]`` for the class ``j`` of largest probability
    among those at or above their threshold (samples above none are not
    counted). Each row is then rescaled so that it sums to the number of
    samples with that label; the whole joint sums to ``n`` when every class with
    samples has a confident one.

    Parameters
    ----------
    proba : array-like of shape (n_samples, n_classes)
        Out-of-sample class probabilities.
    y : array-like of shape (n_samples,)
        Given labels as class indices ``0 .. n_classes - 1``.
    n_classes : int, optional
        Defaults to ``proba.shape[1]``.
    exclude : array-like of int, default=()
        Classes that take no part (:func:`rare_classes`): the probabilities are those
        of the other classes (:func:`without_classes`), no row counts as an excluded
        class, and the rows and columns of the excluded classes are 0.

    Returns
    -------
    ndarray of shape (n_classes, n_classes)
        Rows: the given label; columns: the likely true class.

    See Also
    --------
    class_sums, class_thresholds, confident_guess, calibrated_joint : its passes, for
        data held in parts.
    """
    proba = without_classes(proba, exclude)
    y = np.asarray(y, dtype=np.intp)
    k = proba.shape[1] if n_classes is None else n_classes
    sums, counts = class_sums(proba, y, k)
    sums[_indices(exclude)] = counts[_indices(exclude)] = 0.0  # threshold inf, row scale 0
    guess, confident = confident_guess(proba, class_thresholds(sums, counts))
    joint = np.zeros((k, k))
    np.add.at(joint, (y[confident], guess[confident]), 1.0)
    return calibrated_joint(joint, counts)


def class_sums(proba: NDArray, y: NDArray, k: int) -> tuple[NDArray, NDArray]:
    """Per class ``j``: the sum of ``proba[:, j]`` over the samples labelled ``j``, and their count.

    The first pass of :func:`confident_joint`; sums over parts of the data add up
    (the Dask estimator reduces them over partitions).

    Parameters
    ----------
    proba : ndarray of shape (n_samples, k)
    y : ndarray of int, shape (n_samples,)
    k : int
        Number of classes.

    Returns
    -------
    sums, counts : ndarrays of shape (k,), float64
    """
    counts = np.bincount(y, minlength=k).astype(np.float64)
    sums = np.bincount(y, weights=proba[np.arange(y.shape[0]), y], minlength=k)
    return sums, counts


def class_thresholds(sums: NDArray, counts: NDArray) -> NDArray:
    """Confident learning's per-class thresholds ``t_j``: the mean ``P(j)`` over the samples
    labelled ``j`` ([CL]_ eq. (2)), from :func:`class_sums`; infinite for a class without
    samples."""
    return np.divide(sums, counts, out=np.full(sums.shape[0], np.inf), where=counts > 0)


def confident_guess(proba: NDArray, thresholds: NDArray) -> tuple[NDArray, NDArray]:
    """Per sample, the class of largest probability among those at or above their threshold,
    and whether there is one ([CL]_ eq. (1)).

    Returns
    -------
    guess : ndarray of int, shape (n_samples,)
    confident : ndarray of bool, shape (n_samples,)
        False where no class reaches its threshold (``guess`` is then meaningless).
    """
    above = proba >= thresholds
    guess = np.argmax(np.where(above, proba, -np.inf), axis=1)
    return guess, above.any(axis=1)


def calibrated_joint(joint: NDArray, counts: NDArray) -> NDArray:
    """The confident-joint counts ``joint`` with each row rescaled to its label's count
    ``counts`` ([CL]_ Sec. 3.1, calibration; a row without counts stays 0)."""
    rows = joint.sum(axis=1)
    scale = np.divide(counts, rows, out=np.zeros(joint.shape[0]), where=rows > 0)
    return joint * scale[:, None]


# ---------------------------------------------------------------------------
# noise rates


def estimate_noise_rate(proba: ArrayLike, y: ArrayLike, *, exclude: ArrayLike = ()) -> float:
    """Share of labels the out-of-sample model contradicts: the off-diagonal mass of the :func:`confident_joint`.

    Where the labels were flipped independently of the features and the classes
    separate, this estimates the share of wrong labels ([CL]_). Where the classes
    overlap, the rows on the minority side of the overlap are counted too, though
    their labels may be right: on clean labels the rate is then well above 0, and
    ``proba`` and ``y`` alone cannot tell overlap from wrong labels.

    Parameters
    ----------
    proba : array-like of shape (n_samples, n_classes)
        Out-of-sample class probabilities.
    y : array-like of shape (n_samples,)
        Given labels as class indices.
    exclude : array-like of int, default=()
        Classes that take no part (:func:`confident_joint`): the rate is that of the
        rows of the other classes.

    Returns
    -------
    float in ``[0, 1]``
        0 where every confident sample's likely class is its label.
    """
    return noise_rate_of(confident_joint(proba, y, exclude=exclude))


def noise_rate_of(joint: NDArray) -> float:
    """The off-diagonal share of a confident joint (0 for an empty one)."""
    n = joint.sum()
    return 0.0 if n == 0 else float((n - np.trace(joint)) / n)


def anchor_noise_rate(proba: ArrayLike, quantile: float = 0.99, *,
                      exclude: ArrayLike = ()) -> float:
    """How far the most confident out-of-fold probabilities stay below 1, averaged over the classes.

    For each class ``k``, among the samples whose most probable class is ``k``,
    ``1 - q_k`` with ``q_k`` the ``quantile`` of their probability of ``k``; the
    mean over the classes that are some sample's most probable one
    (:func:`anchor_floors`). Where labels are flipped independently of the features
    at rate ``rho_k`` out of class ``k``, no sample's probability of its given label
    exceeds ``1 - rho_k``, so its most confident samples stay at ``rho_k`` below 1
    (the flip rates are the extremes of the noisy class posterior, [LT]_; its samples
    of a certain class are the "anchor points" of [PA]_); on clean labels they
    approach 1 wherever the classes do not overlap. A fitted model's probabilities
    only estimate the bound (boosted models grow more confident with more rows), so
    the estimate is a signal, not a noise rate.

    Parameters
    ----------
    proba : array-like of shape (n_samples, n_classes)
        Out-of-sample class probabilities.
    quantile : float, default=0.99
        Which of the most confident samples stand for the anchors.
    exclude : array-like of int, default=()
        Classes that take no part: the probabilities are those of the other classes
        (:func:`without_classes`), and the mean is over the other classes.

    Returns
    -------
    float in ``[0, 1]``
    """
    floors = anchor_floors(proba, quantile, exclude=exclude)
    return float(np.clip(np.mean(floors), 0.0, 1.0)) if floors else 0.0


def anchor_floors(proba: ArrayLike, quantile: float = 0.99, *,
                  exclude: ArrayLike = ()) -> list[float]:
    """The per-class terms of :func:`anchor_noise_rate`: ``1 - q_k`` for each class ``k``
    (not in ``exclude``) that is some sample's most probable one, in class order."""
    proba = without_classes(proba, exclude)
    guess = np.argmax(proba, axis=1)
    top = proba[np.arange(proba.shape[0]), guess]
    return [1.0 - float(np.quantile(top[guess == k], quantile))
            for k in range(proba.shape[1]) if np.any(guess == k)]


# ---------------------------------------------------------------------------
# the suspects


def prune_counts(joint: NDArray) -> list[tuple[int, int, int]]:
    """``(i, j, count)`` for every pair of classes ``i != j`` with ``count = round(C[i, j]) > 0``:
    how many samples labelled ``i`` "prune by noise rate" ([CL]_ Sec. 3.2) takes as
    suspects of class ``j``."""
    k = joint.shape[0]
    return [(i, j, int(np.round(joint[i, j]))) for i in range(k) for j in range(k)
            if i != j and int(np.round(joint[i, j])) > 0]


def find_label_issues(proba: ArrayLike, y: ArrayLike, *, only_misclassified: bool = True,
                      min_margin: float | None = None,
                      exclude: ArrayLike = ()) -> NDArray[np.bool_]:
    """Suspected label errors by confident learning's "prune by noise rate" ([CL]_ Sec. 3.2).

    For every pair of classes ``i != j``, the ``round(C[i, j])`` samples labelled
    ``i`` of largest margin ``p_j - p_i`` are suspects (``C`` the
    :func:`confident_joint`). With ``only_misclassified`` (the rule of cleanlab's
    ``find_label_issues(..., filter_by="prune_by_noise_rate")``), those whose most
    probable class is their label are not. Ties are broken by index.

    Parameters
    ----------
    proba : array-like of shape (n_samples, n_classes)
        Out-of-sample class probabilities.
    y : array-like of shape (n_samples,)
        Given labels as class indices.
    only_misclassified : bool, default=True
        Keep only the suspects whose most probable class is not their label.
        ``False`` keeps every sample the count selects: where a class has lost
        most of its labels, its flipped samples are still classified as their
        (wrong) label, and only the count finds them.
    min_margin : float in ``[0, 1)`` or None, default=None
        When set, every row whose likeliest other class ``j`` has
        ``p_j - p_label > min_margin`` is a suspect too, whatever the count (the
        "low margin" rule of [CL]_ Sec. 3.2, applied besides the count). The count
        takes a row only where some class reaches its threshold ``t_j``; where
        labels are wrong on the rows a model finds hardest (annotator-like,
        instance-dependent noise, :func:`robust_boosting.noise.flip_labels_hardest`)
        few of them do, and the count finds a fraction of the flips.
    exclude : array-like of int, default=()
        Classes that take no part (:func:`confident_joint`): no row labelled one of
        them is a suspect, and no row is a suspect of being one of them.

    Returns
    -------
    ndarray of bool, shape (n_samples,)
        True for a suspect.
    """
    proba = without_classes(proba, exclude)
    y = np.asarray(y, dtype=np.intp)
    suspect = np.zeros(y.shape[0], dtype=bool)
    for i, j, count in prune_counts(confident_joint(proba, y, exclude=exclude)):
        rows = np.flatnonzero(y == i)
        margin = proba[rows, j] - proba[rows, i]
        suspect[rows[np.argsort(-margin, kind="stable")[:count]]] = True
    if only_misclassified:
        suspect &= np.argmax(proba, axis=1) != y
    if min_margin is not None:
        suspect |= margin_suspects(proba, y, min_margin, exclude=exclude)
    return suspect


def margin_suspects(proba: ArrayLike, y: ArrayLike, min_margin: float, *,
                    exclude: ArrayLike = ()) -> NDArray[np.bool_]:
    """The rows whose likeliest other class ``j`` has ``p_j - p_label > min_margin``.

    The "low margin" rule of [CL]_ Sec. 3.2 on its own (no count); the ``min_margin``
    of :func:`find_label_issues`. A row labelled one of the classes ``exclude`` is
    never a suspect, and their columns take no part.

    Parameters
    ----------
    proba : array-like of shape (n_samples, n_classes)
        Out-of-sample class probabilities.
    y : array-like of shape (n_samples,)
        Given labels as class indices.
    min_margin : float in ``[0, 1)``
    exclude : array-like of int, default=()

    Returns
    -------
    ndarray of bool, shape (n_samples,)
    """
    # docs/design/0027-annotator-noise.md: the margin rule's suspects under each kind of noise
    if not (isinstance(min_margin, (int, float, np.number)) and not isinstance(min_margin, bool)
            and 0 <= min_margin < 1):
        raise ValueError(f"min_margin must be a number in [0, 1) or None, got {min_margin!r}.")
    proba = without_classes(proba, exclude)
    y = np.asarray(y, dtype=np.intp)
    rows = np.arange(y.shape[0])
    others = proba.copy()
    others[rows, y] = -np.inf
    low = others.max(axis=1) - proba[rows, y] > min_margin
    return low & ~np.isin(y, _indices(exclude))


# ---------------------------------------------------------------------------
# rare classes


def rare_classes(y: ArrayLike, n_folds: int, n_classes: int | None = None) -> NDArray[np.intp]:
    """The classes with at least one and fewer than ``n_folds`` samples, as class indices.

    The out-of-fold probability of each row of a class of ``m < n_folds`` rows comes from
    a model that saw at most ``m - 1`` of them (none, for one row), so the class's
    confident-learning threshold, the mean of its rows' probability of it ([CL]_ eq. (2)),
    is near 0: every row whose own class is below its threshold and whose probability of
    the rare class is not negligible counts as that class, and the noise estimate grows
    by those rows. Pass the result as ``exclude`` to the estimates of this module.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Given labels as class indices.
    n_folds : int
        Number of folds of the out-of-fold probabilities.
    n_classes : int, optional
        Defaults to ``max(y) + 1``.

    Returns
    -------
    ndarray of int, sorted
    """
    y = np.asarray(y, dtype=np.intp)
    counts = np.bincount(y, minlength=0 if n_classes is None else n_classes)
    return np.flatnonzero((counts > 0) & (counts < n_folds)).astype(np.intp)


def without_classes(proba: ArrayLike, exclude: ArrayLike = ()) -> NDArray[np.float64]:
    """``proba`` with the columns of the classes ``exclude`` set to 0 and each row rescaled
    to sum 1 (the class probabilities given that the class is not one of ``exclude``;
    uniform over the other classes for a row that had no probability of them). Without
    ``exclude``, ``proba`` as float64."""
    proba = np.asarray(proba, dtype=np.float64)
    drop = _indices(exclude)
    if drop.size == 0:
        return proba
    proba = proba.copy()
    proba[:, drop] = 0.0
    total = proba.sum(axis=1, keepdims=True)
    k_left = proba.shape[1] - np.unique(drop).size
    uniform = np.full(proba.shape[1], 1.0 / max(k_left, 1))
    uniform[drop] = 0.0
    return np.where(total > 0, proba / np.where(total > 0, total, 1.0), uniform)


def _indices(exclude: ArrayLike) -> NDArray[np.intp]:
    return np.asarray(exclude, dtype=np.intp).reshape(-1)


# ---------------------------------------------------------------------------
# the clean fit's weights


def label_retention(joint: NDArray) -> NDArray:
    """``P(given label k | true class k)`` for each ``k``, from a confident joint ``C[given, true]``.

    The diagonal of confident learning's noise matrix ([CL]_ Sec. 3.1; cleanlab's
    ``estimate_latent``): each column of the joint normalised to sum 1, floored at
    :data:`RETENTION_FLOOR`; 1 for a class that is no sample's likely class.
    Dividing a class's sample weights by it restores the weight the class lost to
    flips (the importance reweighting of [LT]_, as cleanlab's ``CleanLearning``
    reweights its final fit).

    Parameters
    ----------
    joint : ndarray of shape (n_classes, n_classes)

    Returns
    -------
    ndarray of shape (n_classes,), in ``[RETENTION_FLOOR, 1]``
    """
    true_counts = joint.sum(axis=0)
    kept = np.divide(np.diag(joint), true_counts, out=np.ones(joint.shape[0]),
                     where=true_counts > 0)
    return np.maximum(kept, RETENTION_FLOOR)


def final_weights(sw: NDArray, agrees: NDArray, suspect: NDArray, retention: NDArray,
                  issue_weights: tuple[float, float]) -> NDArray[np.float64]:
    """The clean fit's sample weights, per sample (any part of the data).

    Parameters
    ----------
    sw : ndarray of shape (n_samples,)
        The given sample weights.
    agrees : ndarray of bool, shape (n_samples,)
        Whether the out-of-fold model's most probable class is the given label.
    suspect : ndarray of bool, shape (n_samples,)
        The suspects (:func:`find_label_issues`).
    retention : ndarray of shape (n_samples,)
        :func:`label_retention` of each sample's given label.
    issue_weights : pair of float
        The factor of a suspect the out-of-fold model assigns to another class, and
        of one it assigns to its given label.

    Returns
    -------
    ndarray of shape (n_samples,)
        ``sw`` times ``issue_weights[1]`` for a suspect that ``agrees``,
        ``issue_weights[0]`` for the other suspects, 1 for the rest; divided by
        ``retention``.
    """
    misclassified, classified = issue_weights
    factor = np.where(suspect, np.where(agrees, classified, misclassified), 1.0)
    return sw * factor / retention
