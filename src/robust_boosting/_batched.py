"""Batched training: k boosting models on the same training matrix in one pass.

Cross-validation and parameter searches fit k = folds x candidate settings
models on the same rows; they differ only in their sample weights (a fold's
held-out rows have weight 0) and their parameters (age, learning rate, tree
depth, ...). :func:`fit_batched` fits them together:

* the data are validated per model but binned once (per weak-learner type and
  ``max_bins``);
* each model runs the library's one boosting loop
  (:meth:`~robust_boosting._boosting.BaseBoosting._fit_requests`), a
  generator that hands out each weak-learner fit as a
  :class:`~robust_boosting._boosting.FitRequest` instead of fitting it;
* the requests of all k models in a round are answered together: histogram
  trees by :func:`robust_boosting.trees.batched.fit_trees_batched` (one compiled
  call grows all k trees), other learners by their own ``fit``.

So there is no second boosting loop and no second tree grower: each model is
exactly what ``clone(estimator).set_params(**params).fit(X, y, sample_weight=w)``
gives, bit for bit (``tests/test_batched.py``), only cheaper.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np
from joblib import effective_n_jobs
from numpy.typing import ArrayLike, NDArray
from sklearn.base import clone
from sklearn.utils.parallel import Parallel, delayed

from ._boosting import STOP_BOOSTING, BaseBoosting, BaseBoostingClassifier, FitRequest
from ._learners import unfitted_copy
from ._validation import frames_encoded_once
from .trees import BinnedData
from .trees.batched import fit_trees_batched

__all__ = ["fit_batched", "staged_decision_rows"]


def fit_batched(
    estimator: BaseBoosting,
    X: ArrayLike,
    y: ArrayLike,
    sample_weights: ArrayLike,
    param_overrides: Sequence[dict[str, Any]] | None = None,
    n_jobs: int | None = None,
    monitor: Callable[[int, FitRequest], bool] | None = None,
    prediction_only: bool = False,
    binned_cache: dict | None = None,
) -> list[BaseBoosting]:
    """Fit k boosting models on the same ``(X, y)`` in one pass; same models as k fits.

    Model ``j`` is ``clone(estimator).set_params(**param_overrides[j])``
    fitted with ``sample_weight=sample_weights[j]``, and it is bit-identical
    to what its own ``fit`` gives (every fitted attribute, hence every
    prediction). Cross-validation passes the fold's training mask as the
    weights (held-out rows weight 0): the held-out rows then influence neither
    the trees, nor the boosting or self-paced weights, nor the coefficients,
    but they do take part in the binning of ``X`` (quantile bins computed on
    all rows, as a single fit on the same ``X`` would).

    Parameters
    ----------
    estimator : BaseBoosting
        The template (not modified), e.g.
        ``SPLLogitBoostClassifier(HistTreeRegressor(max_depth=3), learning_rate=0.1)``.
        Any booster of the library works; the speed-up needs a step that
        hands out its fits (the discrete, real, gentle, logit, regression and RobustBoost
        steps do) and a :class:`~robust_boosting.trees.HistTreeRegressor` or
        :class:`~robust_boosting.trees.HistTreeClassifier` weak learner of
        limited depth (``max_leaf_nodes=None``).
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    sample_weights : array-like of shape (k, n_samples)
        One row of non-negative weights per model (each with a positive sum).
    param_overrides : sequence of k dicts, optional
        Parameters set on model ``j`` with ``set_params`` (nested names such
        as ``"estimator__max_depth"`` work); default: none.
    n_jobs : int or None, default=None
        Number of joblib workers; each fits a contiguous share of the k models
        in one batched pass. The models do not depend on it.
    monitor : callable, optional
        Early stopping: ``monitor(j, request)`` is called before each round of
        model ``j`` with its :class:`~robust_boosting._boosting.FitRequest`
        (``request.round`` rounds done, ``request.scores`` the model's current
        scores on every row of ``X``, held-out rows included: the staged
        held-out scores come for free). If it returns True, model ``j`` ends
        with ``request.round`` rounds (``stopping_reason_`` says "stopped by
        the caller"), and predicts exactly as the same model fitted with
        ``n_estimators=request.round``. One-vs-rest models are boosted one
        class after the other; the monitor then sees each class's binary
        problem in turn. Needs ``n_jobs=None`` or 1 (it runs in this process).
    prediction_only : bool, default=False
        The models will only predict: each histogram tree releases its fit
        statistics once fitted (node weights and counts, gains, depths; 40 % of
        its bytes), so the models have no ``feature_importances_``; and a self-paced
        model at an infinite age does not compute the per-round losses that only its
        ``latent_objective_`` needs (NaN). Their predictions are unchanged.
    binned_cache : dict, optional
        The binned data of ``X`` by weak-learner configuration (see
        :meth:`~robust_boosting._boosting.BaseBoosting._fit_requests`):
        pass the same dict to several calls on the same ``X`` to bin it once. In
        this process only (``n_jobs=None`` or 1).

    Returns
    -------
    list of k fitted estimators
        In the order of ``sample_weights``.
    """
    weights = np.asarray(sample_weights, dtype=np.float64)
    if weights.ndim != 2:
        raise ValueError(
            f"sample_weights must have shape (k, n_samples), got an array of shape {weights.shape}."
        )
    k = weights.shape[0]
    if param_overrides is None:
        param_overrides = [{}] * k
    if len(param_overrides) != k:
        raise ValueError(
            f"param_overrides has {len(param_overrides)} entries for {k} rows of sample_weights."
        )
    if not isinstance(estimator, BaseBoosting):  # a classifier or a regressor
        raise TypeError(
            f"estimator must be a booster of robust_boosting, got {type(estimator).__name__}."
        )
    n_workers = min(effective_n_jobs(n_jobs), k)
    if n_workers > 1 and monitor is not None:
        raise ValueError("monitor runs in this process: use n_jobs=None or 1 with it.")
    if n_workers > 1:
        shares = np.array_split(np.arange(k), n_workers)
        parts = Parallel(n_jobs=n_workers)(
            delayed(fit_batched)(estimator, X, y, weights[share],
                                 [param_overrides[j] for j in share],
                                 prediction_only=prediction_only)
            for share in shares
        )
        return [model for part in parts for model in part]
    # copies of one clone (each a clone of the template: see unfitted_copy)
    base = clone(estimator)
    models = [unfitted_copy(base).set_params(**params) for params in param_overrides]
    cache: dict = {} if binned_cache is None else binned_cache
    runs: dict[int, Iterator[FitRequest]] = {}
    pending: dict[int, FitRequest] = {}
    with frames_encoded_once():  # each model validates X as it starts: a frame once
        for j, model in enumerate(models):
            runs[j] = model._fit_requests(X, y, sample_weight=weights[j], binned_cache=cache,
                                          predict_only=prediction_only)
            _advance(j, runs, pending)
    while pending:
        if monitor is not None:
            for j in list(pending):
                while j in pending and pending[j].first_pass and monitor(j, pending[j]):
                    _advance(j, runs, pending, STOP_BOOSTING)
        _answer(list(pending.values()), prediction_only)
        for j in list(pending):
            _advance(j, runs, pending)
    return models


def _advance(j: int, runs: dict, pending: dict, reply: Any = None) -> None:
    """Resume model ``j``'s loop (with ``reply``) up to its next fit request (or its end)."""
    try:
        pending[j] = runs[j].send(reply) if j in pending else next(runs[j])
    except StopIteration:
        pending.pop(j, None)
        del runs[j]


def _answer(requests: list[FitRequest], prediction_only: bool = False) -> None:
    """Fit every request's learner; histogram trees on the same binned data together
    (with ``prediction_only``, each releases its fit statistics once fitted)."""
    by_data: dict[int, list[FitRequest]] = {}
    expanded = []
    for r in requests:
        if hasattr(r.learner, "split_fit"):  # one learner per class (multiclass Newton)
            expanded += [FitRequest(*fit) for fit in r.learner.split_fit(r.X, r.target, r.weights)]
        else:
            expanded.append(r)
    for r in expanded:
        if isinstance(r.X, BinnedData):
            by_data.setdefault(id(r.X), []).append(r)
        else:
            r.learner.fit(r.X, r.target, sample_weight=r.weights)
    for group in by_data.values():
        # the enclosing thread count (else chosen from X's size): the trees grow side by
        # side (the same trees)
        fit_trees_batched([r.learner for r in group], group[0].X,
                          [r.target for r in group], [r.weights for r in group], n_jobs=None)
    if prediction_only:
        for r in expanded:
            if hasattr(r.learner, "_drop_fit_statistics"):
                r.learner._drop_fit_statistics()


def staged_decision_rows(model: BaseBoostingClassifier, X: ArrayLike) -> NDArray[np.float64]:
    """``model``'s decision function after each round on ``X``, stacked: shape ``(T, n_rows, ...)``.

    The same values as ``np.array(list(model.staged_decision_function(X)))``,
    faster for histogram trees: ``X`` is validated and binned once (with the
    bins the trees were fitted on, which give exactly the predictions of the
    raw values) instead of once per tree. This is what a search reads on its
    held-out rows to choose the number of rounds.
    """
    X = model._check_X(X)
    return np.asarray([model._decision_from_raw(raw) for raw in staged_raw_binned_once(model, X)])


def staged_raw_binned_once(model: BaseBoostingClassifier, X) -> Iterator[NDArray[np.float64]]:
    """``model._staged_raw(X)`` for an ``X`` already checked (or encoded) for ``model``.

    When every tree shares one bin mapper (histogram trees fitted through the
    loop's binned data), ``X`` is binned once with it rather than once per tree.
    """
    trees = [est for ens in model.ensembles_ for est in ens.estimators]
    mapper = getattr(trees[0], "bin_mapper_", None) if trees else None
    if mapper is not None and all(getattr(t, "bin_mapper_", None) is mapper for t in trees):
        X = mapper.transform(X)
    return model._staged_raw(X)
