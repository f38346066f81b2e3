"""SPLBoostClassifierCV: self-paced boosting that cross-validates itself and ranks suspect labels.

The estimator composes :class:`~robust_boosting.classical.SPLLogitBoostClassifier`
(Newton steps on the logistic loss, histogram regression trees, self-paced
weights from :class:`~robust_boosting.self_paced.SelfPacedPolicy`, optionally
with the age read as a drop fraction,
:class:`~robust_boosting.self_paced.DropFractionRegularizer`). One internal
cross-validation on the training labels

1. fits every candidate setting (tree depth x learning rate x drop fraction)
   on every fold and picks the setting and its number of rounds by the
   held-out log-loss of the staged predictions (early stopping);
2. gives the out-of-fold class probabilities of the chosen setting: the
   per-sample label-issue scores, the noise-rate estimate and the suspect set
   of confident learning (Northcutt, Jiang & Chuang 2021);
3. the final model is fitted on all the data with the suspects removed (or
   down-weighted, those the out-of-fold model still assigns to their given
   label) and each class's weights divided by the estimated fraction of its
   samples that kept their label (as cleanlab's ``CleanLearning`` does).

References
----------
.. [SPL] K. Wang, Y. Wang, Q. Zhao, D. Meng, Z. Xu, "SPLBoost: An Improved
   Robust Boosting Algorithm Based on Self-paced Learning", IEEE Trans.
   Cybernetics, 2019.
.. [FHT] J. Friedman, T. Hastie, R. Tibshirani, "Additive logistic regression:
   a statistical view of boosting", Annals of Statistics 28(2), 2000.
.. [CL] C. Northcutt, L. Jiang, I. Chuang, "Confident learning: estimating
   uncertainty in dataset labels", Journal of Artificial Intelligence
   Research 70, 2021 (Sec. 3.1, the confident joint, eqs. (1)-(2); Sec. 3.2,
   the pruning rules).
"""

from __future__ import annotations

import itertools
import numbers
import warnings
from collections.abc import Iterator, Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.model_selection import StratifiedKFold, check_cv
from sklearn.utils import _safe_indexing, check_random_state
from sklearn.utils.parallel import Parallel, delayed
from sklearn.utils.validation import check_is_fitted

from ._batched import fit_batched, staged_raw_binned_once
from ._boosting import validated_training_data
from ._validation import check_choice, check_number, check_optional_int, validated_X
from .classical import LogitBoostClassifier, SPLLogitBoostClassifier
from .losses import softmax_loss
from .trees import HistTreeRegressor
from .trees.binning import _kernel_threads

__all__ = ["SPLBoostClassifierCV", "anchor_noise_rate", "confident_joint", "estimate_noise_rate",
           "find_label_issues"]

#: probabilities are clipped to [_EPS, 1] inside the held-out log-loss
_EPS = 1e-12


def _as_tuple(name: str, value, check) -> tuple:
    values = tuple(value) if isinstance(value, (list, tuple, np.ndarray)) else (value,)
    if not values:
        raise ValueError(f"{name} must not be empty.")
    for v in values:
        check(v)
    return values


def confident_joint(proba: ArrayLike, y: ArrayLike, n_classes: int | None = None) -> NDArray:
    """Calibrated confident joint ``C[i, j]``: samples labelled ``i`` whose class is likely ``j``.

    Confident learning ([CL]_ eqs. (1)-(2)): the threshold of class ``j`` is the
    mean predicted probability of ``j`` over the samples labelled ``j``; a
    sample counts in ``C[label, j]`` for the class ``j`` of largest probability
    among those at or above their threshold (samples above none are not
    counted). Each row is then rescaled so that it sums to the number of
    samples with that label.

    Parameters
    ----------
    proba : array-like of shape (n_samples, n_classes)
        Out-of-sample class probabilities.
    y : array-like of shape (n_samples,)
        Given labels as class indices ``0 .. n_classes - 1``.
    n_classes : int, optional
        Defaults to ``proba.shape[1]``.

    Returns
    -------
    ndarray of shape (n_classes, n_classes)
    """
    proba = np.asarray(proba, dtype=np.float64)
    y = np.asarray(y, dtype=np.intp)
    k = proba.shape[1] if n_classes is None else n_classes
    sums, counts = class_sums(proba, y, k)
    guess, confident = confident_guess(proba, class_thresholds(sums, counts))
    joint = np.zeros((k, k))
    np.add.at(joint, (y[confident], guess[confident]), 1.0)
    return calibrated_joint(joint, counts)


def class_sums(proba: NDArray, y: NDArray, k: int) -> tuple[NDArray, NDArray]:
    """Per class ``j``: the sum of ``proba[:, j]`` over the samples labelled ``j``, and their count.

    The first pass of :func:`confident_joint`; sums over parts of the data add up
    (the Dask estimator reduces them over partitions).
    """
    counts = np.bincount(y, minlength=k).astype(np.float64)
    sums = np.bincount(y, weights=proba[np.arange(y.shape[0]), y], minlength=k)
    return sums, counts


def class_thresholds(sums: NDArray, counts: NDArray) -> NDArray:
    """Confident learning's per-class thresholds: mean ``P(j)`` over the samples labelled ``j``
    (infinite for a class without samples)."""
    return np.divide(sums, counts, out=np.full(sums.shape[0], np.inf), where=counts > 0)


def confident_guess(proba: NDArray, thresholds: NDArray) -> tuple[NDArray, NDArray]:
    """Per sample, the class of largest probability among those at or above their threshold,
    and whether there is one ([CL]_ eq. (1))."""
    above = proba >= thresholds
    guess = np.argmax(np.where(above, proba, -np.inf), axis=1)
    return guess, above.any(axis=1)


def calibrated_joint(joint: NDArray, counts: NDArray) -> NDArray:
    """The confident-joint counts ``joint`` with each row rescaled to its label's count ([CL]_ eq. (2))."""
    rows = joint.sum(axis=1)
    scale = np.divide(counts, rows, out=np.zeros(joint.shape[0]), where=rows > 0)
    return joint * scale[:, None]


def estimate_noise_rate(proba: ArrayLike, y: ArrayLike) -> float:
    """Fraction of labels estimated to be wrong: the off-diagonal mass of the :func:`confident_joint`."""
    return noise_rate_of(confident_joint(proba, y))


def noise_rate_of(joint: NDArray) -> float:
    """The off-diagonal share of a confident joint (0 for an empty one)."""
    n = joint.sum()
    return 0.0 if n == 0 else float((n - np.trace(joint)) / n)


def anchor_noise_rate(proba: ArrayLike, quantile: float = 0.99) -> float:
    """How far the most confident out-of-fold probabilities stay below 1, averaged over the classes.

    For each class ``k``, among the samples whose most probable class is ``k``,
    ``1 - q_k`` with ``q_k`` the ``quantile`` of their probability of ``k``; the
    mean over the classes that are some sample's most probable one. Where labels
    are flipped independently of the features at rate ``rho_k`` out of class
    ``k``, no sample's probability of its given label exceeds ``1 - rho_k``, so its
    most confident samples stay at ``rho_k`` below 1 (the flip rates are the extremes
    of the noisy class posterior, Liu & Tao 2016; its samples of a certain class are the
    "anchor points" of Patrini et al. 2017); on clean labels they approach 1 wherever
    the classes do not overlap. A fitted model's probabilities only estimate the
    bound (boosted models grow more confident with more rows), so the estimate is
    used as a signal, not as a noise rate.

    Parameters
    ----------
    proba : array-like of shape (n_samples, n_classes)
        Out-of-sample class probabilities.
    quantile : float, default=0.99
        Which of the most confident samples stand for the anchors.

    Returns
    -------
    float in ``[0, 1]``

    References
    ----------
    T. Liu, D. Tao, "Classification with noisy labels by importance reweighting",
    IEEE Trans. Pattern Analysis and Machine Intelligence 38(3), 2016.
    G. Patrini, A. Rozza, A. K. Menon, R. Nock, L. Qu, "Making deep neural networks
    robust to label noise: a loss correction approach", CVPR 2017.
    """
    floors = _anchor_floors(proba, quantile)
    return float(np.clip(np.mean(floors), 0.0, 1.0)) if floors else 0.0


def _anchor_floors(proba: ArrayLike, quantile: float = 0.99) -> list[float]:
    """The per-class terms of :func:`anchor_noise_rate`: ``1 - q_k`` for each class ``k``
    that is some sample's most probable one, in class order."""
    proba = np.asarray(proba, dtype=np.float64)
    guess = np.argmax(proba, axis=1)
    top = proba[np.arange(proba.shape[0]), guess]
    return [1.0 - float(np.quantile(top[guess == k], quantile))
            for k in range(proba.shape[1]) if np.any(guess == k)]


def prune_counts(joint: NDArray) -> list[tuple[int, int, int]]:
    """``(i, j, count)`` for every pair of classes ``i != j`` with ``count = round(C[i, j]) > 0``:
    how many samples labelled ``i`` "prune by noise rate" takes as suspects of class ``j``."""
    k = joint.shape[0]
    return [(i, j, int(np.round(joint[i, j]))) for i in range(k) for j in range(k)
            if i != j and int(np.round(joint[i, j])) > 0]


def find_label_issues(proba: ArrayLike, y: ArrayLike, *,
                      only_misclassified: bool = True) -> NDArray[np.bool_]:
    """Suspected label errors by confident learning's "prune by noise rate" ([CL]_ Sec. 3.2).

    For every pair of classes ``i != j``, the ``round(C[i, j])`` samples labelled
    ``i`` of largest margin ``p_j - p_i`` are suspects (``C`` the
    :func:`confident_joint`). With ``only_misclassified`` (the rule of cleanlab's
    ``find_label_issues``), those whose most probable class is their label are
    not. Ties are broken by index.

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

    Returns
    -------
    ndarray of bool, shape (n_samples,)
    """
    proba = np.asarray(proba, dtype=np.float64)
    y = np.asarray(y, dtype=np.intp)
    suspect = np.zeros(y.shape[0], dtype=bool)
    for i, j, count in prune_counts(confident_joint(proba, y)):
        rows = np.flatnonzero(y == i)
        margin = proba[rows, j] - proba[rows, i]
        suspect[rows[np.argsort(-margin, kind="stable")[:count]]] = True
    if only_misclassified:
        suspect &= np.argmax(proba, axis=1) != y
    return suspect


def _label_retention(joint: NDArray) -> NDArray:
    """``P(given label k | true class k)`` for each ``k``, from a confident joint ``C[given, true]``.

    The diagonal of confident learning's noise matrix ([CL]_ Sec. 3.1; cleanlab's
    ``estimate_latent``), floored at 1e-3.
    """
    true_counts = joint.sum(axis=0)
    kept = np.divide(np.diag(joint), true_counts, out=np.ones(joint.shape[0]),
                     where=true_counts > 0)
    return np.maximum(kept, 1e-3)


def final_weights(sw: NDArray, agrees: NDArray, suspect: NDArray, retention: NDArray,
                  issue_weights: tuple[float, float]) -> NDArray[np.float64]:
    """The final fit's sample weights, per sample (any part of the data).

    ``sw`` times ``issue_weights[1]`` for a suspect the out-of-fold model assigns to
    its given label (``agrees``), ``issue_weights[0]`` for the other suspects, 1 for
    the rest; divided by ``retention``, the estimated ``P(given label | true class)``
    of each sample's label (:func:`_label_retention`).
    """
    misclassified, classified = issue_weights
    factor = np.where(suspect, np.where(agrees, classified, misclassified), 1.0)
    return sw * factor / retention


#: at most this many training rows: the small-data search (``"auto"`` parameters)
_SMALL_N = 5000

#: ``remove_label_issues="auto"`` on at most _SMALL_N rows keeps every row when the
#: out-of-fold model shows no sign of flipped labels: when ``anchor_noise_rate(oof) / (K -
#: 1)`` is below _CLEAN_ANCHOR at 1,000 rows or fewer, and below _CLEAN_ANCHOR * (1,000 /
#: n) ** _CLEAN_ANCHOR_POWER on more (the models grow more confident with more rows)
#: (docs/design/0019-keep-rows-when-labels-look-clean.md)
_CLEAN_ANCHOR = 0.015
_CLEAN_ANCHOR_POWER = 0.8


def _clean_anchor_threshold(n: int) -> float:
    """The largest ``anchor_noise_rate / (K - 1)`` that reads as clean labels on ``n`` rows."""
    return _CLEAN_ANCHOR * min(1.0, (1000.0 / n) ** _CLEAN_ANCHOR_POWER)


#: the ``"auto"`` search: (max_depth values, max_leaf_nodes, min_samples_leaf, learning
#: rates, n_estimators, l2_regularization values) for small data, for large data with
#: symmetric trees (numeric features), and for large data with trees grown leaf-wise
#: (categorical features, or ``grow_policy="depthwise"``) (docs/design/:
#: 0006-small-data-rate-and-rounds.md, 0009-large-data-rate-and-rounds.md,
#: 0011-leaf-l2-penalty.md, 0012-symmetric-trees.md)
_AUTO_SMALL = ((1, 3), None, 1, (0.3,), 100, (0.0,))
_AUTO_LARGE = ((6,), None, 1, (0.2,), 300, (10.0,))
_AUTO_LARGE_LEAFWISE = ((None,), 31, 20, (0.2,), 300, (100.0,))
#: the symmetric candidate that joins the small-data search, with more than two classes on
#: at most _SLOW_RATE_N rows: its trees are shared (one per round, cheaper than one per
#: class), at half the rate over twice the rounds (docs/design/0018-small-multiclass-schedule.md;
#: on 3,000-5,000 rows the clean fits then took 1.3-2.2x cleanlab's time)
_AUTO_SMALL_MULTICLASS = ((6,), None, 1, (0.1,), 600, (10.0,))
_SLOW_RATE_N = 2000
#: the random split scores (:class:`HistTreeRegressor`'s ``random_strength``, CatBoost's
#: default of 1) of the symmetric candidate that joins the small-data search; the other
#: candidates choose their splits without randomness (docs/design/0016-random-split-scores.md)
_SMALL_SYMMETRIC_STRENGTH = 1.0
#: the multiclass trees (:class:`LogitBoostClassifier`'s ``multiclass_trees``) of the symmetric
#: candidates below 50,000 rows (that one, and the large-data search): one shared symmetric
#: tree per round, a value per class (docs/design/0017-shared-multiclass-trees.md); from
#: 50,000 rows (depth 8) and for the other candidates one tree per class
_SHARED_TREES = "shared"
#: from this many rows the symmetric trees have depth 8 (more leaves for more rows; at
#: 10,000 rows depth 8 cost twice the time of depth 6)
_DEEP_N = 50_000


#: how the trees' ``min_samples_leaf`` counts rows (:class:`HistTreeRegressor`'s ``sample_count``)
_SAMPLE_COUNT = "weight"


def _auto_space(n: int, grow_policy: str) -> tuple:
    """The search of the ``"auto"`` parameters for ``n`` training rows and trees grown by
    ``grow_policy``."""
    if n <= _SMALL_N:
        return _AUTO_SMALL
    if grow_policy != "symmetric":
        return _AUTO_LARGE_LEAFWISE
    return ((8,), *_AUTO_LARGE[1:]) if n >= _DEEP_N else _AUTO_LARGE


def _make_booster(tree: dict, learning_rate: float, drop_fraction: float, n_estimators: int,
                  random_state: int, multiclass_trees: str = "per_class") -> LogitBoostClassifier:
    """The one configuration every candidate and the final fit use.

    ``tree`` holds the regression trees' ``max_depth``, ``max_leaf_nodes``,
    ``min_samples_leaf``, ``l2_regularization`` and ``grow_policy``. A drop fraction of 0 is the hard self-paced
    regularizer at infinite age, which keeps every sample: that is LogitBoost
    exactly (the same model bit for bit), so it is built as
    :class:`~robust_boosting.classical.LogitBoostClassifier`, without the
    self-paced bookkeeping (every sample's loss each round, for a latent
    objective that would only restate the training loss). A positive drop
    fraction is :class:`~robust_boosting.classical.SPLLogitBoostClassifier`
    with the drop-fraction regularizer. ``multiclass_trees`` is the boosters' (one
    tree per class and round, or one shared symmetric tree).
    """
    trees = HistTreeRegressor(**_tree_params(tree), sample_count=_SAMPLE_COUNT)
    if drop_fraction == 0:
        return LogitBoostClassifier(trees, n_estimators=n_estimators,
                                    learning_rate=learning_rate, random_state=random_state,
                                    multiclass_trees=multiclass_trees)
    return SPLLogitBoostClassifier(trees, n_estimators=n_estimators,
                                   learning_rate=learning_rate, random_state=random_state,
                                   regularizer="drop_fraction", age=float(drop_fraction),
                                   multiclass_trees=multiclass_trees)


def _tree_params(candidate: dict) -> dict:
    return {key: candidate[key] for key in _TREE_KEYS}


#: the candidates' tree parameters (:class:`HistTreeRegressor`'s)
_TREE_KEYS = ("max_depth", "max_leaf_nodes", "min_samples_leaf", "l2_regularization",
              "grow_policy", "random_strength")


def _staged_proba(est, X) -> Iterator[NDArray[np.float32]]:
    """Class probabilities of a fitted booster after each round, ``(n, K)`` float32 each.

    A generator: one stage is held at a time. ``X`` is the validated numeric
    array (categories as codes); it is binned once with the trees' bin edges,
    so every tree reads codes instead of re-validating the raw data (the same
    predictions, cheaper).
    """
    for raw in staged_raw_binned_once(est, X):
        yield est._proba_from_raw(raw).astype(np.float32)


def _held_out_curve(est, X_test, y_test, w_test, trim) -> NDArray[np.float64]:
    """The held-out loss of ``est`` after each round (:func:`_trimmed_losses` of its stages),
    computed stage by stage: the staged probabilities are never all held at once (on
    100,000 rows, 500 stages would take 400 MB)."""
    return np.array([_trimmed_losses(p[None], y_test, w_test, trim)[0]
                     for p in _staged_proba(est, X_test)])


def _proba_at(est, X_test, t) -> NDArray[np.float32]:
    """The stage ``t`` probabilities of ``est`` (its last stage if it ran fewer rounds), as
    :func:`_staged_proba` gives them; only that stage's scores become probabilities."""
    raw = None
    for i, raw in enumerate(staged_raw_binned_once(est, X_test)):  # noqa: B007
        if i == t:
            break
    return est._proba_from_raw(raw).astype(np.float32)


def _fit_one(X, y, sample_weight, train, test, params, n_estimators, seed, trim):
    """Fit one candidate on one fold; the fitted booster and its held-out loss curve.

    ``X`` is the pair ``(X_fit, X_num)`` of :func:`_fit_jobs`.
    """
    X_fit, X_num = X
    est = _make_booster(params, params["learning_rate"], params["drop_fraction"],
                        n_estimators, seed, params["multiclass_trees"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # early stops are handled by padding the curve
        est.fit(_safe_indexing(X_fit, train), y[train], sample_weight=sample_weight[train])
    return est, _held_out_curve(est, X_num[test], y[test], sample_weight[test], trim)


def _padded(curve, n_rounds):
    """``curve`` extended to ``n_rounds`` stages by repeating its last value (a stopped model)."""
    if curve.shape[0] >= n_rounds:
        return curve
    return np.concatenate([curve, np.repeat(curve[-1:], n_rounds - curve.shape[0])])


class _PatienceMonitor:
    """Early stopping and held-out loss curves for
    :func:`~robust_boosting._batched.fit_batched`: a model stops once its held-out loss
    has not improved for ``patience`` rounds (``None``: never), or at its ``caps[j]``
    rounds.

    The loss is the one the search scores (:func:`_trimmed_mean` of the logistic
    loss of the given labels on the model's held-out rows, weighted), computed
    from the scores each fit request carries (``P(y = 1) = 1 / (1 + exp(-2 F))``;
    native multiclass scores: ``-log`` of the softmax probability of the label).
    The loss after each round is kept: :meth:`curve` is the model's held-out loss
    curve, with no second pass over its stages. A one-vs-rest model boosts one
    binary problem (class ``k`` against the rest) after the other, each starting
    again at round 0; each stops on its own, and its curve is computed afterwards
    (:meth:`curve` is None). A decision depends only on the model's own scores,
    so the models do not depend on how they are batched.
    """

    def __init__(self, y, held_out, weights, trim, patience, caps):
        self.y, self.held_out, self.weights = y, held_out, weights
        self.trim, self.patience, self.caps = trim, patience, caps
        self.binary = int(y.max()) + 1 <= 2  # else one-vs-rest: problem k is class k vs rest
        self.problem: dict = {}  # model -> index of the binary problem being boosted
        self.best: dict = {}  # model -> (best loss, its round)
        self.losses: dict = {}  # model -> held-out loss after rounds 1, 2, ...
        self.one_vs_rest: set = set()

    def __call__(self, j, request) -> bool:
        rows = self.held_out[j]
        scores = request.scores[rows]
        if request.round == 0:  # a (new) binary problem starts
            self.problem[j] = self.problem.get(j, -1) + 1
            self.best[j] = (np.inf, 0)
            self.losses[j] = []
        if scores.ndim == 2:  # native multiclass (softmax) scores: -log p_y
            losses = softmax_loss(scores, self.y[rows])
        else:
            if not self.binary:
                self.one_vs_rest.add(j)
            positive = 1 if self.binary else self.problem[j]
            margin = np.where(self.y[rows] == positive, 1.0, -1.0) * scores
            losses = np.logaddexp(0.0, -2.0 * margin)
        loss = _trimmed_mean(losses[None, :], self.weights[rows], self.trim)[0]
        if request.round > 0:
            self.losses[j].append(loss)
        if request.round >= self.caps[j]:
            return True
        best_loss, best_round = self.best[j]
        if loss < best_loss:
            self.best[j] = (loss, request.round)
            return False
        return self.patience is not None and request.round - best_round >= self.patience

    def curve(self, j, model) -> NDArray[np.float64] | None:
        """Model ``j``'s held-out loss after each of its rounds, or None where the monitor
        did not see every round (one-vs-rest, or a model that ended on its own)."""
        curve = np.asarray(self.losses.get(j, []), dtype=np.float64)
        if j in self.one_vs_rest or curve.shape[0] != model.n_estimators_:
            return None
        return curve


def _fit_share(X, y, sample_weight, folds, candidates, jobs, seed, trim, patience,
               binned_cache=None):
    """Fit ``jobs`` (all plain LogitBoost) in one batched pass with early stopping.

    Returns each job's fitted booster and its held-out loss curve. Each model is
    asked for one round more than its job's and stopped by the monitor at the
    job's count (the same model: see :func:`~robust_boosting._batched.fit_batched`),
    so the monitor sees the scores after every round, the last included, and its
    losses are the curve. ``binned_cache``: :func:`fit_batched`'s, shared by the
    successive passes of one search so that ``X`` is binned once.
    """
    X_fit, X_num = X
    weights = np.zeros((len(jobs), X_num.shape[0]))
    overrides = []
    for row, (c, f, rounds) in enumerate(jobs):
        train = folds[f][0]
        weights[row, train] = sample_weight[train]
        overrides.append({**{f"estimator__{key}": value
                             for key, value in _tree_params(candidates[c]).items()},
                          "learning_rate": candidates[c]["learning_rate"],
                          "multiclass_trees": candidates[c]["multiclass_trees"],
                          "n_estimators": rounds + 1})
    monitor = _PatienceMonitor(y, [folds[f][1] for _, f, _ in jobs], sample_weight, trim,
                               patience, [rounds for _, _, rounds in jobs])
    template = _make_booster(dict(max_depth=1, max_leaf_nodes=None, min_samples_leaf=1,
                                  l2_regularization=0.0, grow_policy="depthwise",
                                  random_strength=0.0), 1.0, 0.0, 1,
                             seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # early stops are handled by padding the curves
        # the fold models only predict: their trees drop their fit statistics as they go
        # (at 100,000 rows and 5 classes, clean labels, three fold models held 70 MB of trees)
        models = fit_batched(template, X_fit, y, weights, overrides, monitor=monitor,
                             prediction_only=True, binned_cache=binned_cache)
    out = []
    for j, (model, (_, f, _)) in enumerate(zip(models, jobs, strict=True)):
        curve = monitor.curve(j, model)
        if curve is None or curve.shape[0] == 0:
            # (a model of no round, whose first learner made no progress: its one stage
            # is its initial prediction, which the monitor does not record as a round)
            te = folds[f][1]
            curve = _held_out_curve(model, X_num[te], y[te], sample_weight[te], trim)
        out.append((model, curve))
    return out


#: the search's batched models at once hold at most this many bytes of per-row arrays
#: (each model's scores, new scores, Newton response and weights: 32 bytes per row and
#: class, a row's one score for two classes); more models are fitted in successive
#: groups. At 100,000 rows and 5 classes the three folds at once held 24 MB of Newton
#: terms and 12 MB of scores, in a search whose peak was twice cleanlab's.
_IN_FLIGHT_BYTES = 16 * 2**20


def _models_in_flight(n: int, n_classes: int) -> int:
    """How many of the search's batched models to fit at once on ``n`` rows."""
    per_model = 32 * n * (n_classes if n_classes > 2 else 1)
    return max(1, _IN_FLIGHT_BYTES // per_model)


def _fit_jobs(X, y, sample_weight, folds, candidates, jobs, seed, n_jobs, trim=0.0,
              patience=None):
    """Fit ``(candidate, fold, rounds)`` jobs; each one's booster and held-out loss curve.

    Candidates without a drop fraction (plain LogitBoost) are fitted together by
    :func:`~robust_boosting._batched.fit_batched`: one pass in this process over
    the data binned once (on all rows, held-out ones included, which get weight
    0), the same models as separate fits on those weights, the tree kernels on
    ``n_jobs`` threads (in successive passes of :func:`_models_in_flight` models
    each when their per-row arrays would be large); with ``patience``, each stops
    once its held-out loss has not improved for ``patience`` rounds
    (:class:`_PatienceMonitor`, whose losses after each round are the curves: the
    logistic loss of the scores in float64). A drop
    fraction counts rows whatever their weight, so those candidates are fitted
    one by one on their fold's training rows, for their full number of rounds,
    in ``n_jobs`` joblib workers.

    ``X`` is a pair: ``X_fit``, what the boosters are fitted on (the caller's
    DataFrame when it has categorical columns, so the trees split them natively;
    else the validated array), and ``X_num``, the validated numeric array (the
    trees' bin edges apply to it, categories as codes), for the held-out scores.
    """
    out: list = [None] * len(jobs)
    batched = [j for j, (c, _, _) in enumerate(jobs) if candidates[c]["drop_fraction"] == 0]
    single = [j for j, (c, _, _) in enumerate(jobs) if candidates[c]["drop_fraction"] != 0]
    # in this process (the data binned once), its kernels on n_jobs threads: worker
    # processes would each bin the data and pay their start-up; as many models at once
    # as _IN_FLIGHT_BYTES of their per-row arrays allow (the same models however grouped)
    per_group = _models_in_flight(X[1].shape[0], int(np.max(y, initial=0)) + 1)
    binned: dict = {}  # X binned once for every pass
    for a in range(0, len(batched), per_group):
        share = batched[a:a + per_group]
        with _kernel_threads(n_jobs):
            fitted = _fit_share(X, y, sample_weight, folds, candidates,
                                [jobs[j] for j in share], seed, trim, patience, binned)
        for j, pair in zip(share, fitted, strict=True):
            out[j] = pair
    results = Parallel(n_jobs=n_jobs)(
        delayed(_fit_one)(X, y, sample_weight, folds[jobs[j][1]][0], folds[jobs[j][1]][1],
                          candidates[jobs[j][0]], jobs[j][2], seed, trim)
        for j in single) if single else []
    for j, pair in zip(single, results, strict=True):
        out[j] = pair
    return out


#: the search stops a plain candidate on a fold once its held-out loss has not improved
#: for this many rounds
_PATIENCE = 10


def _fit_candidates(X, y, sample_weight, folds, candidates, seed, n_jobs, trim,
                    patience=_PATIENCE):
    """Every candidate fitted on every fold, and its held-out loss curves.

    Returns ``(models, curves)``: ``models[c][f]`` the booster of candidate ``c``
    fitted on fold ``f``'s training rows, ``curves`` an array ``(C, F, T)`` of
    their held-out losses after each round (the trimmed mean held-out log-loss:
    the monitor's, from the scores, for plain candidates; :func:`_held_out_curve`,
    from the staged probabilities, for the others), ``T`` the
    most rounds any of these models ran (candidate ``c`` runs at most its
    ``candidates[c]["n_estimators"]``); the curve of a model stopped earlier is
    padded with its last value. Plain candidates run
    on every fold at once, each model stopping once its held-out loss has not
    improved for ``patience`` rounds (``None``: never). Candidates with a drop
    fraction are fitted one by one: the first fold runs all its
    ``n_estimators`` rounds, the other folds at most ``2 r + 12`` rounds, ``r`` the first fold's
    best round. This is the single place where the search trains models
    (through :func:`_fit_jobs`). Only the curves are kept of the staged
    predictions: the out-of-fold probabilities of the winner are predicted
    afterwards at the one round they are needed (:func:`_proba_at`).
    """
    def run(jobs):
        return _fit_jobs(X, y, sample_weight, folds, candidates, jobs, seed, n_jobs, trim,
                         patience)

    plain = [c for c, p in enumerate(candidates) if p["drop_fraction"] == 0]
    paced = [c for c, p in enumerate(candidates) if p["drop_fraction"] != 0]
    out = [[None] * len(folds) for _ in candidates]
    rounds = [p["n_estimators"] for p in candidates]
    jobs = [(c, f, rounds[c]) for c in plain for f in range(len(folds))]
    jobs += [(c, 0, rounds[c]) for c in paced]
    for (c, f, _), pair in zip(jobs, run(jobs), strict=True):
        out[c][f] = pair
    budget = {c: min(rounds[c], 2 * int(np.argmin(out[c][0][1])) + 12) for c in paced}
    jobs = [(c, f, budget[c]) for c in paced for f in range(1, len(folds))]
    for (c, f, _), pair in zip(jobs, run(jobs), strict=True):
        out[c][f] = pair
    longest = max(curve.shape[0] for row in out for _, curve in row)
    models = [[model for model, _ in row] for row in out]
    curves = np.array([[_padded(curve, longest) for _, curve in row] for row in out])
    return models, curves


def _trimmed_mean(loss, w, trim):
    """Per row of ``loss`` (T, n), the ``w``-weighted mean without the ``trim`` fraction largest."""
    keep = np.ones_like(loss, dtype=bool)
    m = int(np.floor(trim * loss.shape[1]))
    if m:
        np.put_along_axis(keep, np.argsort(-loss, axis=1, kind="stable")[:, :m], False, axis=1)
    w = np.where(keep, w[None, :], 0.0)
    total = w.sum(axis=1)
    return np.divide((w * loss).sum(axis=1), total, out=np.full(loss.shape[0], np.inf),
                     where=total > 0)


def _trimmed_losses(staged, y_test, w_test, trim):
    """Per stage, the weighted mean held-out log-loss without the ``trim`` fraction largest losses."""
    p = staged[:, np.arange(y_test.shape[0]), y_test].astype(np.float64)
    return _trimmed_mean(-np.log(np.clip(p, _EPS, 1.0)), w_test, trim)


class SPLBoostClassifierCV(ClassifierMixin, BaseEstimator):
    """Self-paced LogitBoost of histogram trees, tuned by its own cross-validation.

    The robust default of the library for noisy labels, in the manner of
    scikit-learn's ``LogisticRegressionCV``: ``fit`` runs an internal
    cross-validation on the (possibly noisy) training labels, chooses the tree
    depth, learning rate and number of rounds, finds the training samples whose
    label is probably wrong, and fits the chosen model on all the data without
    them (down-weighting those that the out-of-fold model still assigns to
    their given label). It also ranks every training sample by how likely its
    label is wrong.

    The model is :class:`~robust_boosting.classical.SPLLogitBoostClassifier`:
    Newton steps on the logistic loss ([FHT]_ Algorithm 3) with shrinkage and
    regression trees, with self-paced sample weights ([SPL]_ Algorithm 1). At
    the default drop fraction 0 the self-paced weights keep every sample, and
    the model is fitted as the identical
    :class:`~robust_boosting.classical.LogitBoostClassifier`.

    The search:

    1. stratified ``cv``-fold split; every candidate (``max_depth`` x
       ``learning_rate`` x ``drop_fraction``, and ``l2_regularization`` x
       ``grow_policy`` where they have several values) is fitted on every
       training part for at most its ``n_estimators`` rounds, stopping once its
       held-out loss (below) has not improved for 10 rounds (candidates with a
       drop fraction: the first fold runs all its rounds, the others at most
       ``2 r + 12``, ``r`` the first fold's best round);
    2. its score after each round is the weighted held-out log-loss of the
       given labels, without the largest ``trim`` fraction of held-out losses
       (``trim`` = the largest candidate drop fraction, 0 by default); the
       candidate and round of smallest mean over the folds win;
    3. the winner's out-of-fold probabilities 10 rounds after that round (the
       stopping rule's look-ahead; sharper than at the best round, which at
       heavy noise is often round 2-4, close to the class prior) give
       :attr:`label_issue_scores_` (``1 - P(given label)``), the confident
       joint and noise-rate estimate of confident learning ([CL]_ eqs. (1)-(2))
       and its suspects ("prune by noise rate", :func:`find_label_issues`
       with ``only_misclassified=False``: the suspects include those the
       out-of-fold model classifies as their given label, which is what a
       class that lost most of its labels looks like);
    4. the final model, with the winner's depth, learning rate and drop
       fraction, runs its ``n_estimators`` rounds on all the data
       (when the suspects are removed, see ``remove_label_issues``) with the
       suspects' sample weights
       multiplied by ``label_issue_weight`` (0 for those the out-of-fold
       model assigns to another class, 0.8 for the others, by default) and
       every sample's weight divided
       by the estimated ``P(given label | true class)`` of its label (the
       diagonal of confident learning's noise matrix, as cleanlab's
       ``CleanLearning`` reweights its final fit), so that a class that lost
       many labels keeps its weight. The rows whose weight is then 0 are
       left out of the final fit, as cleanlab's ``CleanLearning`` leaves out
       its label issues: the trees' bins are those of the kept rows, and a
       self-paced drop fraction counts the kept rows (unless a class would
       lose every row: then every row is kept, at weight 0 where removed).
       On at most 5,000 rows the suspects are removed only when the labels
       look noisy (``remove_label_issues="auto"``): when the out-of-fold
       model's most confident probabilities stay below 1
       (:func:`anchor_noise_rate`), as they do where labels are flipped;
       otherwise every row is fitted on its given weight.

    The final model runs its ``n_estimators`` rounds rather than the early-stopped
    count: the held-out loss on noisy labels stops boosting after a few rounds,
    when the model starts to fit the flipped labels, which the final model
    mostly no longer sees (the measurements: ``docs/design/0003-remove-out-of-fold-suspects.md``
    and ``docs/design/0007-label-issue-step.md``).

    The search grows with the data (the ``"auto"`` parameters): on at most
    5,000 training rows, depth-1 and depth-3 trees at learning rate 0.3 and
    at most 100 rounds (tuned on small tables, where it beats its peers),
    joined, on numeric data, by the large-data candidate below (symmetric
    trees of depth 6, learning rate 0.2, at most 300 rounds, an L2 penalty of
    10 rows), each candidate with its own round cap, the held-out score
    choosing (on 1,000-3,000 rows of two synthetic generators the larger
    trees were 1.7-3.9 points more accurate; on small tables the smaller
    ones win the held-out score in about three tasks of four); on more rows,
    symmetric (oblivious) trees of depth 6 (8 from 50,000 rows), one split
    per level as in CatBoost (Prokhorenkova et al. 2018), with an L2 penalty
    of 10 rows on the leaf values, at learning rate 0.2 and at most 300 rounds (a small search
    stops at its round cap while the held-out loss still falls on 100,000 rows;
    300 rounds at 0.2 were as accurate as 500 at 0.1 on 10,000-100,000 rows of
    two generators, at 0.6 of the final fit's cost; on those data symmetric
    trees were more accurate than LightGBM's leaf-wise trees in every task
    measured). Data with categorical columns get leaf-wise trees of 31 leaves
    of at least 20 rows with an L2 penalty of 100 rows instead (LightGBM's
    default tree), since symmetric trees split numeric features only.
    Multiclass problems are boosted natively on the softmax loss
    (:class:`~robust_boosting.classical.LogitBoostClassifier`): the symmetric
    trees on fewer than 50,000 rows grow one tree per round with a value per
    class in each leaf (CatBoost's multiclass trees, ``multiclass_trees``), the
    other trees one Newton tree per class and round.

    Parameters
    ----------
    max_depth : int, None, sequence of them or "auto", default="auto"
        Depth of the regression trees (a sequence: candidates of the search;
        None: no depth limit, with ``max_leaf_nodes``). ``"auto"``: ``(1, 3)``
        on at most 5,000 rows (and 6 for the symmetric candidate, see
        ``grow_policy``); above, with symmetric trees 6 (8 from 50,000 rows),
        and None (leaf-wise) otherwise.
    learning_rate : float, sequence of float or "auto", default="auto"
        Shrinkage of each Newton step (a sequence: candidates of the search).
        ``"auto"``: 0.3 on at most 5,000 rows (0.2 for the symmetric
        candidate, 0.1 with more than two classes on at most 2,000 rows), 0.2
        above.
    max_leaf_nodes : int, None or "auto", default="auto"
        Trees grow best-first (leaf-wise) to at most this many leaves; None:
        depth-first to ``max_depth``. ``"auto"``: 31 for leaf-wise trees above
        5,000 rows, else None.
    min_samples_leaf : int or "auto", default="auto"
        Fewest training rows in a leaf. ``"auto"``: 20 for leaf-wise trees above
        5,000 rows, else 1. As LightGBM's ``min_data_in_leaf``, the rows of a child are
        counted from its weight (its Newton weight times the node's rows per
        unit of weight: ``HistTreeRegressor(sample_count="weight")``), which
        needs no count in the trees' histograms.
    l2_regularization : float, sequence of float or "auto", default="auto"
        L2 penalty on the trees' leaf values (a sequence: candidates of the
        search), counted in training rows of average Newton weight: a leaf of
        gradient sum ``G`` and Hessian sum ``H`` moves the scores by
        ``-G / (H + λ h̄)``, ``h̄`` the mean Hessian of the round, and splits are
        scored with the same denominators (XGBoost's leaf weights and gains,
        Chen & Guestrin 2016, eqs. 5-7; :class:`HistTreeRegressor`'s
        ``l2_regularization``). ``"auto"``: 0 for the depth-wise trees of at
        most 5,000 rows; 10 with symmetric trees and, above 5,000 rows, 100
        with leaf-wise ones (for the leaf-wise
        trees, on 10,000-100,000 rows of two synthetic generators, clean and with
        10-35 % flipped labels, 100 lowered the error in 25 of 32 tasks, raised it
        in 6, and raised the label-issue F1 at 10,000 rows, for 5-40 % more
        rounds).
    grow_policy : {"auto", "depthwise", "symmetric"}, default="auto"
        How the regression trees grow (:class:`HistTreeRegressor`'s
        ``grow_policy``): ``"depthwise"``, depth-first to ``max_depth`` or
        best-first to ``max_leaf_nodes``; ``"symmetric"``, one split per level
        shared by all the level's nodes (CatBoost's oblivious trees), to an
        integer ``max_depth``, numeric features only. ``"auto"``: symmetric
        above 5,000 rows when every column is numeric, else depth-wise; on at
        most 5,000 rows of numeric data, with ``max_depth`` and
        ``max_leaf_nodes`` left to ``"auto"``, the search has both: the
        depth-wise candidates and one symmetric candidate.
    random_strength : float or "auto", default="auto"
        Random split scores of the symmetric trees (:class:`HistTreeRegressor`'s
        ``random_strength``, CatBoost's parameter of that name): each level's
        candidate splits are scored with added normal noise of this many standard
        deviations of the level's scores, seeded from ``random_state``. It applies
        to symmetric candidates only (depth-wise trees choose their splits without
        noise). ``"auto"``: 1 (CatBoost's default) for the symmetric candidate of
        the small-data search, 0 above 5,000 rows (on 1,000-3,000 rows of two
        synthetic generators, 0.03-1.0 points lower error at 0-35 % flips; on the
        bundled tables within 0.3 points, and 0.4-0.6 lower at 40 %).
    multiclass_trees : {"auto", "per_class", "shared"}, default="auto"
        With more than two classes, how a round's Newton step is grown
        (:class:`~robust_boosting.classical.LogitBoostClassifier`'s
        ``multiclass_trees``): ``"per_class"``, one tree per class;
        ``"shared"``, one symmetric tree whose splits maximise the gain summed
        over the classes, with a value per class in each leaf
        (:class:`~robust_boosting.trees.SharedSymmetricTree`). It applies to
        symmetric candidates only. ``"auto"``: shared for the symmetric trees on
        fewer than 50,000 rows (the symmetric candidate of the small-data search,
        the search of 5,000-50,000 rows, and ``grow_policy="symmetric"``), per class
        for the depth-8 trees from 50,000 rows and for the depth-wise candidates (on 1,000-10,000 rows of two synthetic
        generators with 3, 5 and 10 classes at 0-35 % flips, a lower mean error at
        every rate: by 0.3-3.3 points with 5 classes at 1,000 rows over three
        seeds, up to 4.6 with 10 classes, 0.4-1.0 at 10,000 rows over two seeds;
        at 100,000 rows no better). Ignored for two classes.
    drop_fraction : float or sequence of floats, default=0.0
        Fraction in ``[0, 1)`` of training samples that each self-paced round
        drops (the age read as a quantile of the current losses,
        :class:`~robust_boosting.self_paced.DropFractionRegularizer`); ``0``
        is plain LogitBoost. A sequence: candidates of the search.
    n_estimators : int or "auto", default="auto"
        Number of rounds of the final model, and the most rounds the search
        tries. ``"auto"``: 100 on at most 5,000 rows (300 for the symmetric
        candidate, 600 with more than two classes on at most 2,000 rows: its
        shared trees cost less per round than one tree per class, and at the
        lower rate its error was lower at 11 of 12 flip rates on 1,000-5,000 rows
        with 3, 5 and 10 classes, but the time doubles), 300 above: each
        candidate keeps its own.
    cv : int, cross-validation generator or iterable, default=3
        As in scikit-learn; an int gives a shuffled ``StratifiedKFold``
        seeded from ``random_state``.
    remove_label_issues : bool or "auto", default="auto"
        Whether the final model down-weights the suspected label errors (and
        reweights the classes, step 4 above); ``False``: the final model is
        fitted on the given weights. ``"auto"``: above 5,000 rows, or when the
        winner has a drop fraction, True; else True when the labels look noisy,
        that is when
        :func:`anchor_noise_rate` of the out-of-fold probabilities, divided by
        ``n_classes - 1``, is at least ``0.015 * min(1, (1000 / n) ** 0.8)`` for
        ``n`` rows (below it, the most confident out-of-fold probabilities reach
        1 as closely as clean labels let them). Leaving the suspects out of a
        clean data set removes the rows where the classes overlap: on 1,000-5,000
        rows of two synthetic generators with 2-10 classes, the rule kept every
        row in 33 of 34 clean tasks (a lower error by 0.2-4.1 points in 32, 0.4
        points higher in one) and the removal in 85 of 86 tasks with 10-35 %
        flipped labels (the other one's error was lower without it), and in all
        36 tasks with class-conditional flips at 10-35 %; on the bundled tables
        it changed little (``docs/design/0019-keep-rows-when-labels-look-clean.md``; the
        class-conditional check is indexed in ``docs/design/README.md``).
        The decision is :attr:`remove_label_issues_`.
    label_issue_weight : float or pair of floats, default=(0.0, 0.8)
        Factors in ``[0, 1]`` on the suspects' sample weights in the final fit:
        the first for the suspects that the out-of-fold model assigns to
        another class (the suspects of cleanlab's rule, removed by default),
        the second for those it assigns to their given label (found only by
        the count). A single float applies to both; ``0`` removes.
    n_jobs : int or None, default=None
        Threads of the tree kernels (the candidates without a drop fraction
        are fitted on every fold in one batched pass, and the final model), and
        joblib workers for the candidates with a drop fraction, which are
        fitted one by one. None: every core the process may use; -1: every
        core. The result does not depend on it.
    random_state : int, RandomState or None, default=None
        Seeds the fold split and the weak learners.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    best_params_ : dict
        The winner's tree parameters (``max_depth``, ``max_leaf_nodes``,
        ``min_samples_leaf``, ``l2_regularization``, ``grow_policy``,
        ``random_strength``), ``learning_rate``, ``drop_fraction``,
        ``multiclass_trees`` and ``n_estimators`` (the rounds of
        the final model), and its early-stopped number of rounds
        ``cv_n_estimators``.
    best_score_ : float
        Minus the trimmed held-out log-loss of the winner (higher is better).
    best_index_ : int
        Index of the winner in ``cv_results_``.
    best_estimator_ : LogitBoostClassifier or SPLLogitBoostClassifier
        The final model, fitted on all the data: LogitBoost when the winner's
        drop fraction is 0 (the self-paced model at infinite age, which keeps
        every sample, is that model bit for bit), else self-paced LogitBoost
        with the drop-fraction regularizer.
    cv_results_ : dict of ndarrays
        One entry per candidate, as in ``GridSearchCV``: ``params``,
        ``param_<name>`` for each parameter of ``best_params_`` but
        ``cv_n_estimators``,
        ``n_estimators`` (best round), ``split{k}_test_score``,
        ``mean_test_score``, ``std_test_score``, ``rank_test_score``
        (scores are minus the trimmed held-out log-loss).
    oof_proba_ : ndarray of shape (n_samples, n_classes)
        Out-of-fold class probabilities of the winner after
        ``oof_n_estimators_`` rounds.
    oof_n_estimators_ : int
        ``min(best_params_["cv_n_estimators"] + 10, best_params_["n_estimators"])``.
    label_issue_scores_ : ndarray of shape (n_samples,)
        ``1 - oof_proba_[i, given label]``: higher means more likely mislabelled.
    noise_rate_ : float
        Confident-learning estimate of the fraction of wrong training labels.
    anchor_noise_rate_ : float
        :func:`anchor_noise_rate` of ``oof_proba_``: how far the most confident
        out-of-fold probabilities stay below 1.
    remove_label_issues_ : bool
        Whether the final fit left out (or down-weighted) the suspects:
        ``remove_label_issues`` with ``"auto"`` resolved.
    label_issues_ : ndarray of int
        The suspects of confident learning (whatever ``remove_label_issues``).
    suggested_labels_ : ndarray of shape (n_samples,)
        For every training sample, the class the out-of-fold model prefers
        (``classes_[argmax oof_proba_[i]]``, in the original label values): the
        suggested correction of a suspect label. It equals the given label
        where the out-of-fold model agrees with it.
    excluded_samples_ : ndarray of int
        Training samples the final model down-weighted or ignored: the
        suspects (when :attr:`remove_label_issues_`) and those the self-paced
        weights dropped (for more than two classes, dropped by the one-vs-rest
        model of their own label).
    n_features_in_, feature_names_in_
        As in scikit-learn.
    """

    def __init__(self, max_depth: int | None | Sequence[int | None] | str = "auto",
                 learning_rate: float | Sequence[float] | str = "auto",
                 drop_fraction: float | Sequence[float] = 0.0,
                 n_estimators: int | str = "auto", max_leaf_nodes: int | None | str = "auto",
                 min_samples_leaf: int | str = "auto",
                 l2_regularization: float | Sequence[float] | str = "auto",
                 grow_policy: str = "auto", random_strength: float | str = "auto",
                 multiclass_trees: str = "auto", cv=3,
                 remove_label_issues: bool | str = "auto",
                 label_issue_weight: float | tuple[float, float] = (0.0, 0.8),
                 n_jobs: int | None = None, random_state=None):
        self.max_depth = max_depth
        self.learning_rate = learning_rate
        self.drop_fraction = drop_fraction
        self.n_estimators = n_estimators
        self.max_leaf_nodes = max_leaf_nodes
        self.min_samples_leaf = min_samples_leaf
        self.l2_regularization = l2_regularization
        self.grow_policy = grow_policy
        self.random_strength = random_strength
        self.multiclass_trees = multiclass_trees
        self.cv = cv
        self.remove_label_issues = remove_label_issues
        self.label_issue_weight = label_issue_weight
        self.n_jobs = n_jobs
        self.random_state = random_state

    # ------------------------------------------------------------------ params
    def _search_space(self, n: int, n_classes: int = 2) -> list[dict]:
        """The candidates, each with its ``n_estimators`` (the most rounds it runs), with every
        ``"auto"`` resolved for ``n`` rows of ``n_classes`` classes."""
        def auto(value, default):
            return default if isinstance(value, str) and value == "auto" else value

        candidates: list[dict] = []
        strength_given = not (isinstance(self.random_strength, str)
                              and self.random_strength == "auto")
        if strength_given:
            check_number("random_strength", self.random_strength, low=0, low_open=False)
        check_choice("multiclass_trees", self.multiclass_trees, ["auto", "per_class", "shared"])
        for grow_policy, space, strength, trees in self._auto_groups(n, n_classes):
            # random split scores and shared multiclass trees are the symmetric trees' (the
            # other groups' are 0 and one tree per class)
            if grow_policy == "symmetric":
                strength = float(auto(self.random_strength, strength))
                trees = auto(self.multiclass_trees, trees)
            auto_depths, auto_leaves, auto_min_leaf, auto_rates, auto_rounds, auto_l2 = space
            depths = _as_tuple("max_depth", auto(self.max_depth, auto_depths),
                               lambda v: check_optional_int("max_depth", v, low=1))
            rates = _as_tuple("learning_rate", auto(self.learning_rate, auto_rates),
                              lambda v: check_number("learning_rate", v, low=0))
            l2s = _as_tuple("l2_regularization", auto(self.l2_regularization, auto_l2),
                            lambda v: check_number("l2_regularization", v, low=0,
                                                   low_open=False))
            fractions = _as_tuple("drop_fraction", self.drop_fraction, lambda v: check_number(
                "drop_fraction", v, low=0, low_open=False, high=np.nextafter(1.0, 0.0)))
            n_estimators = auto(self.n_estimators, auto_rounds)
            check_number("n_estimators", n_estimators, low=1, low_open=False, integer=True)
            leaves = auto(self.max_leaf_nodes, auto_leaves)
            check_optional_int("max_leaf_nodes", leaves, low=2)
            min_leaf = auto(self.min_samples_leaf, auto_min_leaf)
            check_number("min_samples_leaf", min_leaf, low=1, low_open=False, integer=True)
            if leaves is None and None in depths:
                raise ValueError("max_depth=None needs max_leaf_nodes (trees grown leaf-wise to "
                                 "that many leaves); got max_leaf_nodes=None.")
            if grow_policy == "symmetric" and (leaves is not None or None in depths):
                raise ValueError("grow_policy='symmetric' grows whole levels to an integer "
                                 f"max_depth, without max_leaf_nodes; got max_depth={depths!r}, "
                                 f"max_leaf_nodes={leaves!r}.")
            for d, lam, r, f in itertools.product(depths, l2s, rates, fractions):
                c = dict(max_depth=None if d is None else int(d),
                         max_leaf_nodes=None if leaves is None else int(leaves),
                         min_samples_leaf=int(min_leaf), l2_regularization=float(lam),
                         grow_policy=grow_policy, random_strength=strength,
                         learning_rate=float(r), drop_fraction=float(f),
                         multiclass_trees=trees, n_estimators=int(n_estimators))
                if c not in candidates:
                    candidates.append(c)
        if strength_given and self.random_strength > 0 and not any(
                c["grow_policy"] == "symmetric" for c in candidates):
            raise ValueError("random_strength randomises the split scores of symmetric trees, "
                             "and this search has none (grow_policy="
                             f"{self.grow_policy!r}); leave it 'auto' or set 0.")
        if self.multiclass_trees == "shared" and not any(
                c["grow_policy"] == "symmetric" for c in candidates):
            raise ValueError("multiclass_trees='shared' grows symmetric trees, and this search "
                             f"has none (grow_policy={self.grow_policy!r}); leave it 'auto' or "
                             "set 'per_class'.")
        self._check_remove_label_issues()
        self._issue_weights()
        return candidates

    def _auto_groups(self, n: int, n_classes: int = 2) -> list[tuple[str, tuple, float, str]]:
        """The groups of the search on ``n`` rows: each one's grow policy, the values its
        ``"auto"`` parameters take (:func:`_auto_space`), its trees' random split scores
        (``random_strength``) and its multiclass trees (``multiclass_trees``: shared by the
        symmetric trees below 50,000 rows). On at most 5,000 rows with
        ``grow_policy="auto"``, the small-data search is joined by the large-data symmetric
        candidate (numeric data, and ``max_depth`` and ``max_leaf_nodes`` left to
        ``"auto"``): the held-out score chooses between them; with more than two classes on
        at most 2,000 rows that candidate's rate is 0.1 over 600 rounds
        (``_AUTO_SMALL_MULTICLASS``)."""
        policy = self._resolved_grow_policy(n)
        space = _auto_space(n, policy)
        shared = policy == "symmetric" and n < _DEEP_N
        groups = [(policy, space, 0.0, _SHARED_TREES if shared else "per_class")]
        if (n <= _SMALL_N and self.grow_policy == "auto"
                and all(isinstance(v, str) and v == "auto"
                        for v in (self.max_depth, self.max_leaf_nodes))
                and self._resolved_grow_policy(_SMALL_N + 1) == "symmetric"):
            groups.append(("symmetric",
                           _AUTO_SMALL_MULTICLASS if n_classes > 2 and n <= _SLOW_RATE_N
                           else _AUTO_LARGE,
                           _SMALL_SYMMETRIC_STRENGTH, _SHARED_TREES))
        return groups

    def _resolved_grow_policy(self, n: int) -> str:
        """``grow_policy`` with ``"auto"`` resolved for ``n`` rows: symmetric trees above
        5,000 rows of numeric data, else depth-wise (or leaf-wise) growth."""
        policy = self.grow_policy
        check_choice("grow_policy", policy, ["auto", "depthwise", "symmetric"])
        if policy == "auto":
            return "symmetric" if n > _SMALL_N and not self._has_categorical() else "depthwise"
        if policy == "symmetric" and self._has_categorical():
            raise ValueError("grow_policy='symmetric' splits numeric features only, and X has "
                             "categorical columns; use grow_policy='depthwise' (or 'auto').")
        return policy

    def _check_remove_label_issues(self) -> None:
        value = self.remove_label_issues
        if isinstance(value, str):
            check_choice("remove_label_issues", value, ["auto"])
        elif not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"remove_label_issues must be a bool or 'auto', got {value!r}.")

    def _removes(self, n: int, n_classes: int, anchor: float,
                 drop_fraction: float = 0.0) -> bool:
        """Whether the final fit leaves out the suspects: ``remove_label_issues``, with
        ``"auto"`` resolved for ``n`` rows of ``n_classes`` classes, the out-of-fold
        :func:`anchor_noise_rate` ``anchor`` and the winner's ``drop_fraction`` (a
        self-paced winner's out-of-fold model ignored its largest losses, which makes it
        confident whatever the labels: the suspects are then removed)."""
        if not isinstance(self.remove_label_issues, str):
            return bool(self.remove_label_issues)
        return (n > _SMALL_N or drop_fraction > 0
                or anchor / (n_classes - 1) >= _clean_anchor_threshold(n))

    def _issue_weights(self) -> tuple[float, float]:
        """``label_issue_weight`` as (misclassified suspects, suspects classified as their label)."""
        w = self.label_issue_weight
        pair = tuple(w) if isinstance(w, (list, tuple, np.ndarray)) else (w, w)
        if len(pair) != 2:
            raise ValueError(f"label_issue_weight must be a float or a pair of floats, got {w!r}.")
        for v in pair:
            check_number("label_issue_weight", v, low=0, low_open=False, high=1)
        return float(pair[0]), float(pair[1])

    def _folds(self, X, y, seed):
        cv = self.cv
        if cv is None or isinstance(cv, numbers.Integral):
            n_splits = 3 if cv is None else int(cv)
            if isinstance(cv, bool) or n_splits < 2:
                raise ValueError(f"cv must be an integer >= 2, a splitter or an iterable, got {cv!r}.")
            counts = np.bincount(y)
            if counts.max() < n_splits:
                raise ValueError(
                    f"cv={n_splits} folds need at least {n_splits} samples in some class; "
                    f"the largest class has {counts.max()}.")
            cv = StratifiedKFold(n_splits, shuffle=True, random_state=seed)
        cv = check_cv(cv, y, classifier=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # a class smaller than n_splits
            folds = [(np.asarray(tr), np.asarray(te)) for tr, te in cv.split(X, y)]
        if not folds:
            raise ValueError("cv produced no train/test split.")
        return folds

    # --------------------------------------------------------------------- fit
    def fit(self, X: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None = None):
        """Cross-validate the candidates, then fit the chosen model on all the data.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or DataFrame
            Training data. NaN means missing (the trees learn where missing
            values go); a DataFrame may have boolean and categorical columns,
            which the trees split into sets of categories.
        y : array-like of shape (n_samples,)
            Class labels, possibly noisy.
        sample_weight : array-like of shape (n_samples,), optional
            Non-negative weights, used by every fit and by the held-out scores.

        Returns
        -------
        self
        """
        X_in = X
        X, classes, y_idx, sw = validated_training_data(self, X, y, sample_weight, allow_nan=True)
        candidates = self._search_space(X.shape[0], classes.shape[0])
        # a frame with categorical columns goes to the boosters as it is, so that their
        # trees split those columns into sets of categories; anything else as validated
        X_fit = X_in if self._has_categorical() else X
        y = classes[y_idx]
        n, n_classes = X.shape[0], classes.shape[0]
        rng = check_random_state(self.random_state)
        fold_seed = int(rng.randint(np.iinfo(np.int32).max))
        fit_seed = int(rng.randint(np.iinfo(np.int32).max))
        folds = self._folds(X, y_idx, fold_seed)

        trim = max(c["drop_fraction"] for c in candidates)
        models, curves = _fit_candidates((X_fit, X), y_idx, sw, folds, candidates, fit_seed,
                                         self.n_jobs, trim)  # curves: (C, F, T)
        best_round = np.argmin(curves.mean(axis=1), axis=1)  # first minimum: fewest rounds
        scores = -curves[np.arange(len(candidates)), :, best_round]  # (C, F)
        best = int(np.argmax(scores.mean(axis=1)))
        p = candidates[best]

        # the out-of-fold probabilities _PATIENCE rounds past the best round: the stopping
        # rule has run every fold's model that far (or stopped it: then its last round)
        oof_round = min(int(best_round[best]) + _PATIENCE, p["n_estimators"] - 1)
        oof = np.zeros((n, n_classes))
        for f, (_, te) in enumerate(folds):
            oof[te] = _proba_at(models[best][f], X[te], oof_round)
        # the fold models and the folds' row indices are done with: not held through the
        # final fit (at 100,000 rows and 5 classes the trees are tens of megabytes)
        del models, folds
        self.oof_proba_ = oof
        self.oof_n_estimators_ = oof_round + 1
        self.label_issue_scores_ = 1.0 - oof[np.arange(n), y_idx]
        self.noise_rate_ = estimate_noise_rate(oof, y_idx)
        self.label_issues_ = np.flatnonzero(find_label_issues(oof, y_idx, only_misclassified=False))
        self.suggested_labels_ = classes[np.argmax(oof, axis=1)]
        self.anchor_noise_rate_ = anchor_noise_rate(oof)
        self.remove_label_issues_ = self._removes(n, n_classes, self.anchor_noise_rate_,
                                                  p["drop_fraction"])

        self.cv_results_ = self._results_table(candidates, scores, best_round)
        self.best_index_ = best
        self.best_score_ = float(scores[best].mean())
        self.best_params_ = dict(p, cv_n_estimators=int(best_round[best]) + 1)
        removed, final_weight = np.empty(0, np.intp), sw
        if self.remove_label_issues_:
            removed = self.label_issues_
            final_weight = self._final_weight(sw, oof, y_idx, removed)
            if not final_weight.sum() > 0:  # every weighted sample is a suspect: keep them all
                final_weight, removed = sw, np.empty(0, np.intp)
        # the final model is fitted on the rows it weighs: a row of weight 0 (a removed
        # suspect) would change nothing but its own training scores, computed every round
        # (at 100,000 rows, 5 classes and 20 % flips, the fit took 1.13x the time with them);
        # its bins are those of these rows; every class keeps a row (else all rows)
        kept = np.flatnonzero(final_weight > 0)
        if np.unique(y_idx[kept]).size < n_classes:
            kept = np.arange(n)
        X_final = X_fit if kept.size == n else _safe_indexing(X_fit, kept)
        self.best_estimator_ = _make_booster(p, p["learning_rate"], p["drop_fraction"],
                                             p["n_estimators"], fit_seed, p["multiclass_trees"])
        with warnings.catch_warnings(), _kernel_threads(self.n_jobs):
            warnings.simplefilter("ignore")
            self.best_estimator_.fit(X_final, y[kept], sample_weight=final_weight[kept])
        del X_final
        self.classes_ = self.best_estimator_.classes_
        dropped = kept[self._self_paced_dropped(y_idx[kept])]
        self.excluded_samples_ = np.union1d(removed, dropped).astype(np.intp)
        return self

    def _final_weight(self, sw, oof, y_idx, suspects) -> NDArray[np.float64]:
        """The final fit's sample weights: the suspects' multiplied by ``label_issue_weight``,
        then each sample's divided by the estimated ``P(given label | true class)`` of its label."""
        suspect = np.zeros(y_idx.shape[0], dtype=bool)
        suspect[suspects] = True
        return final_weights(sw, np.argmax(oof, axis=1) == y_idx, suspect,
                             _label_retention(confident_joint(oof, y_idx))[y_idx],
                             self._issue_weights())

    def _self_paced_dropped(self, y_idx) -> NDArray[np.intp]:
        v = getattr(self.best_estimator_, "self_paced_weights_", None)
        if v is None:  # plain LogitBoost (drop fraction 0) keeps every sample
            return np.empty(0, np.intp)
        if isinstance(v, list):  # one-vs-rest: the model of the sample's own label
            v = np.stack(v, axis=1)[np.arange(y_idx.shape[0]), y_idx]
        return np.flatnonzero(v == 0)

    @staticmethod
    def _results_table(candidates, scores, best_round) -> dict:
        mean = scores.mean(axis=1)
        order = np.argsort(-mean, kind="stable")
        rank = np.empty(len(candidates), dtype=np.int32)
        rank[order] = np.arange(1, len(candidates) + 1)
        res: dict = {"params": [dict(c) for c in candidates]}
        for key in (*_TREE_KEYS, "learning_rate", "drop_fraction", "multiclass_trees",
                    "n_estimators"):
            res[f"param_{key}"] = np.array([c[key] for c in candidates])
        res["n_estimators"] = best_round + 1
        for f in range(scores.shape[1]):
            res[f"split{f}_test_score"] = scores[:, f]
        res["mean_test_score"] = mean
        res["std_test_score"] = scores.std(axis=1)
        res["rank_test_score"] = rank
        return res

    # ----------------------------------------------------------------- predict
    def _has_categorical(self) -> bool:
        schema = getattr(self, "feature_schema_", None)
        return schema is not None and not schema.all_numeric

    def _check_X(self, X):
        """``X`` checked against the fitted schema, as the final model takes it."""
        check_is_fitted(self)
        X_num = validated_X(self, X, reset=False, allow_nan=True, allow_inf=False)
        return X if self._has_categorical() else X_num

    def decision_function(self, X: ArrayLike) -> NDArray[np.float64]:
        """Score of the final model (see :meth:`SPLLogitBoostClassifier.decision_function`)."""
        X = self._check_X(X)
        return self.best_estimator_.decision_function(X)

    def predict(self, X: ArrayLike) -> NDArray:
        """Predicted class labels of the final model."""
        X = self._check_X(X)
        return self.best_estimator_.predict(X)

    def predict_proba(self, X: ArrayLike) -> NDArray[np.float64]:
        """Class probabilities of the final model."""
        X = self._check_X(X)
        return self.best_estimator_.predict_proba(X)

    def predict_log_proba(self, X: ArrayLike) -> NDArray[np.float64]:
        """Logarithm of :meth:`predict_proba`."""
        X = self._check_X(X)
        return self.best_estimator_.predict_log_proba(X)

    def staged_predict(self, X: ArrayLike) -> Iterator[NDArray]:
        """:meth:`predict` after each round of the final model."""
        X = self._check_X(X)
        return self.best_estimator_.staged_predict(X)

    def staged_predict_proba(self, X: ArrayLike) -> Iterator[NDArray[np.float64]]:
        """:meth:`predict_proba` after each round of the final model."""
        X = self._check_X(X)
        return self.best_estimator_.staged_predict_proba(X)

    @property
    def feature_importances_(self) -> NDArray[np.float64]:
        """The final model's feature importances."""
        check_is_fitted(self)
        return self.best_estimator_.feature_importances_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True  # the histogram trees learn where missing values go
        return tags
