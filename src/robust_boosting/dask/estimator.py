"""The estimator of the Dask package: :class:`DaskSPLBoostClassifierCV`.

The trees and the boosting loop are XGBoost's distributed engine
(``xgboost.dask``); this module adds the library's robust parts on top of it:

- **self-paced weights** ([SPL]_ Algorithm 1, the hard regularizer with the age
  read as a drop fraction): a custom objective multiplies each row's gradient
  and Hessian by ``v`` in ``{0, 1}``, recomputed every round from the row's
  current loss on the worker that holds the row. The age is a *global* quantile
  of the losses: the workers sum a fixed-width histogram of their losses with
  XGBoost's collective ``allreduce`` (twice, the second time within the first
  one's bin), never gathering rows (:func:`~robust_boosting.dask.objective.top_threshold`);
- **confident learning** ([CL]_): out-of-fold probabilities from ``cv``
  distributed fits (a fold's held-out rows weighted 0), the confident joint, the
  noise rate and the prune-by-noise-rate suspects as Dask reductions over the
  partitions, with the same functions as the single-machine estimator
  (:mod:`robust_boosting.label_issues`);
- the **final fit** with the suspects removed or down-weighted and classes
  reweighted exactly as :class:`~robust_boosting.SPLBoostClassifierCV` does.

Why XGBoost and not LightGBM (both train on Dask with a custom objective): an
XGBoost objective runs inside the engine's collective context, so the global
loss quantile of a drop-fraction age is one ``allreduce`` of a histogram; a
LightGBM objective sees only its worker's rows. ``docs/architecture.md`` has
the measurements.

References
----------
.. [SPL] K. Wang, Y. Wang, Q. Zhao, D. Meng, Z. Xu, "SPLBoost: An Improved
   Robust Boosting Algorithm Based on Self-paced Learning", IEEE Trans.
   Cybernetics, 2019.
.. [CL] C. Northcutt, L. Jiang, I. Chuang, "Confident learning: estimating
   uncertainty in dataset labels", Journal of Artificial Intelligence
   Research 70, 2021.
.. [XGB] T. Chen, C. Guestrin, "XGBoost: a scalable tree boosting system", KDD 2016.
"""

from __future__ import annotations

import gc
import numbers

import numpy as np
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import check_classification_targets

from .._auto_rules import DASK, PATIENCE, REVIEW_MARGIN
from .._boosting import check_two_classes
from .._progress import Progress, check_verbose
from .._validation import check_monotonic_cst, class_weight_sample_weight
from ..label_issues import (
    anchor_noise_rate,
    calibrated_joint,
    class_sums,
    class_thresholds,
    confident_guess,
    final_weights,
    label_retention,
    margin_suspects,
    noise_rate_of,
    prune_counts,
)
from ..splboost_cv import SPLBoostClassifierCV
from .data import (
    coded_frame,
    encode_block,
    fold_block,
    held_out_proba,
    losses_at,
    reduce_blocks,
    require,
    rowwise,
)
from .engine import install_quiet_start, train, xgb_params
from .keep import KeptWithoutCluster
from .objective import SelfPacedObjective, bin_counts, top_threshold
from .placement import (
    Placement,
    WorkerFailedError,
    check_workers,
    scheduler_workers,
    where_held,
)
from .predict import DaskPredictions

__all__ = ["DaskSPLBoostClassifierCV", "WorkerFailedError"]


class DaskSPLBoostClassifierCV(KeptWithoutCluster, DaskPredictions, SPLBoostClassifierCV):
    """:class:`~robust_boosting.SPLBoostClassifierCV` on a Dask cluster, through XGBoost.

    The same search, label-issue step and final fit as the single-machine
    estimator, on ``dask.array`` or ``dask.dataframe`` data that never leave
    the workers; the trees are XGBoost's distributed histogram trees
    ([XGB]_, ``tree_method="hist"``), the boosting is Newton boosting on the
    logistic loss (softmax for more than two classes), as the single-machine
    model's.

    1. Every candidate (``max_depth`` x ``learning_rate`` x ``drop_fraction``)
       is fitted on every fold (a fold's held-out rows weighted 0) for at most
       ``n_estimators`` rounds, stopping once the held-out log-loss has not
       improved for 10 rounds (XGBoost's early stopping on the held-out rows).
       The candidate and round of smallest mean held-out log-loss win.
    2. The winner's out-of-fold probabilities 10 rounds past its best round
       give :attr:`label_issue_scores_`, the confident joint and noise rate and
       the suspects of confident learning ([CL]_), all as Dask reductions.
    3. When the suspects are removed (``remove_label_issues``), the final model
       runs ``n_estimators`` rounds (not the early-stopped count, as the
       single-machine model: the held-out loss on noisy labels stops early, when
       the model starts to fit the flipped labels, which the final model mostly
       no longer sees) on all rows with the suspects' weights multiplied by
       ``label_issue_weight`` and every row's divided by the estimated
       ``P(given label | true class)`` of its label; when every row is kept, it
       runs the search's early-stopped count on the given weights.

    Differences from the single-machine estimator, each forced by the
    distributed setting:

    - **folds** are a seeded hash of each row's position
      (:func:`fold_of_rows`), not stratified: the same rows get the same fold
      however the data are partitioned;
    - a **drop fraction**'s loss quantile and the suspects' margin quantiles
      come from histograms summed over the partitions (:func:`top_threshold`),
      exact to within ``1e-6`` of the loss range; the held-out score is the
      untrimmed log-loss (:class:`HeldOutLogLoss`, read off XGBoost's cached
      training predictions, so no second matrix is built);
    - **trees**: ``max_leaf_nodes`` is XGBoost's ``max_leaves`` (leaf-wise growth,
      ``grow_policy="lossguide"``, when ``max_depth`` is None), and, as XGBoost has
      no minimum row count per leaf, ``min_samples_leaf`` is passed as its
      ``min_child_weight``, a minimum Hessian sum per leaf (each row contributes at
      most 1/4 with the logistic loss); ``"auto"`` keeps XGBoost's default of 1.
      Sample weights are rescaled to mean 1 so that this bound keeps its meaning.
      XGBoost has no symmetric trees, so the trees are depth-wise (or leaf-wise)
      at every size, and on at most 5,000 rows the search is the depth-wise one
      only (one machine adds its symmetric candidate there).
    - no staged predictions (``staged_predict`` raises ``NotImplementedError``);
      ``predict(X, pred_contrib=True)`` gives XGBoost's exact TreeSHAP contributions.

    **Determinism.** XGBoost's distributed model depends on which partitions each
    worker holds (each worker sketches its rows' quantiles; the histograms are summed
    in rank order), so ``fit`` places partition ``i`` of ``P`` on worker
    ``sorted(addresses)[i * W // P]`` (:class:`~robust_boosting.dask.placement.Placement`;
    partitions held elsewhere are copied there once). The same ``random_state``, data,
    partitions and workers then give the same model bytes; other workers (other
    addresses or another count) or another partitioning can give another model, which
    XGBoost does not promise to be the same.

    :func:`sklearn.base.clone` keeps ``client`` (shared, not copied). Pickling and
    :func:`~robust_boosting.save_model` drop the client and the per-row dask attributes
    (:data:`~robust_boosting.dask.keep.CLUSTER_ATTRIBUTES`, collections on the cluster of the fit; one computed to
    NumPy by the user is kept); the loaded model predicts bit-identically, on NumPy and
    pandas without a client, on dask collections with ``distributed.default_client()``
    or the client given by ``set_params(client=...)``.

    Parameters
    ----------
    max_depth, learning_rate, drop_fraction, n_estimators, max_leaf_nodes, \
remove_label_issues, label_issue_weight, random_state
        As in :class:`~robust_boosting.SPLBoostClassifierCV`, with ``"auto"``
        resolved from the number of rows by the Dask rules
        (``robust_boosting._auto_rules.DASK``): as one machine's depth-wise search,
        but above 5,000 rows ``learning_rate="auto"`` is 0.3 and
        ``n_estimators="auto"`` 160 (one machine: 0.2 and 300, about the same product
        of the two, at a cost that stays within eight plain fits).
    min_samples_leaf : int or "auto", default="auto"
        XGBoost's ``min_child_weight`` (see above); ``"auto"``: XGBoost's default of 1.
    l2_regularization : float, sequence of float or "auto", default="auto"
        XGBoost's ``reg_lambda``, the L2 penalty on the leaf values in its own
        units (a Hessian sum: each row contributes at most 1/4 with the logistic
        loss, weights rescaled to mean 1), not the single machine's rows of
        average Hessian; ``"auto"``: XGBoost's default of 1.
    grow_policy : {"auto", "depthwise"}, default="auto"
        Depth-wise (or, with ``max_depth=None``, leaf-wise) trees at every size:
        XGBoost has no symmetric trees, and ``"symmetric"`` raises ``ValueError``.
    random_strength : 0 or "auto", default="auto"
        Random split scores of symmetric trees, which this engine does not grow: a
        positive value raises ``ValueError``.
    multiclass_trees : {"auto", "per_class"}, default="auto"
        XGBoost grows one tree per class and round; ``"shared"`` (one symmetric
        tree for every class) raises ``ValueError``.
    cv : int, default=3
        The number of folds (at least 2). Splitters and index lists raise
        ``ValueError``: the folds are a hash of each row's position.
    n_jobs : int, optional
        Threads per worker for XGBoost (default: the worker's thread count).
    id_columns : {"drop", "keep"}, default="drop"
        Accepted for the single machine's parameter set; unused here: a Dask frame's
        categorical columns are ``category`` columns of known categories, which XGBoost
        splits as they are (counting each column's distinct values would be another
        pass over the data).
    monotonic_cst : array-like of {-1, 0, 1}, dict or None, default=None
        Monotone constraints, in scikit-learn's format (one entry per feature, or a dict
        by feature name or column index), passed to XGBoost as its
        ``monotone_constraints`` (enforced in its split search and leaf values). Refused
        with more than two classes and on a categorical column, as by the in-memory
        estimators.
    class_weight : "balanced", dict or None, default=None
        Class weights, as scikit-learn's classifiers take them: every row's weight is
        ``sample_weight`` times its class's weight (``"balanced"``: ``n / (n_classes *
        count)``, the counts summed on the cluster). They reach the search's held-out
        scores and the final fit (weights are then rescaled to mean 1, as above).
    client : distributed.Client, optional
        The cluster to use; default: the current client (``distributed.default_client()``).
    collective_timeout : int, default=600
        Seconds a worker waits for the others in one collective operation of
        XGBoost's engine. A worker lost during ``fit`` makes the others fail
        after at most this long, and ``fit`` raises :class:`WorkerFailedError`
        (no retry: a refit on the remaining workers would be a different model).
    device : str, default="cpu"
        XGBoost's ``device``: ``"cuda"`` trains on the workers' GPUs (with GPU
        data, e.g. cuDF or CuPy collections on a ``dask_cuda`` cluster).
    verbose : int, default=0
        Progress as :mod:`logging` records, by the rule of
        :class:`~robust_boosting.SPLBoostClassifierCV`'s ``verbose``: at 1, a line as
        each stage starts and ends and, in the search, after each distributed fit
        (candidate and fold) with an estimate of the search's time left (XGBoost's
        rounds run on the workers: the unit here is a fit, not a round); at 2, also
        each fit's rounds. The model does not depend on it. At 0 the fit prints
        nothing: the line XGBoost's collective writes as each worker joins a
        distributed fit (``... got rank N``) is dropped (:mod:`~robust_boosting.dask.engine`).

    Attributes
    ----------
    classes_, n_features_in_, feature_names_in_, best_score_, best_index_, \
oof_n_estimators_, noise_rate_, remove_label_issues_
        As in :class:`~robust_boosting.SPLBoostClassifierCV`, of the same types.
    best_params_, cv_results_
        As in :class:`~robust_boosting.SPLBoostClassifierCV`; ``min_samples_leaf``
        and ``l2_regularization`` are the values XGBoost trained with, in its units,
        and the scores are minus the untrimmed held-out log-loss.

    The per-row attributes below are dask arrays aligned with the input's
    partitions, where one machine has NumPy arrays: they stay on the workers,
    and a mask needs no gather.

    anchor_noise_rate_ : float
        As in :class:`~robust_boosting.SPLBoostClassifierCV` on at most 5,000 rows
        (where ``remove_label_issues="auto"`` reads it); NaN on more.
    best_estimator_ : xgboost.Booster
        The final model (XGBoost's booster, on the client; it predicts locally with
        ``inplace_predict`` or on the cluster with ``xgboost.dask.predict``).
    oof_proba_ : dask.array of float32, shape (n_samples, n_classes)
        Out-of-fold class probabilities (each row from the model of the fold that
        held it out), persisted on the workers.
    label_issue_scores_ : dask.array of shape (n_samples,)
        ``1 - oof_proba_[i, given label]``, aligned with the input's partitions.
    label_issues_ : dask.array of bool, shape (n_samples,)
        The suspects, as the single-machine estimator's (the count's, and the margin
        rule's for review), as a mask aligned with the input (the single-machine
        estimator returns indices; a mask needs no gather).
    suggested_labels_ : dask.array of shape (n_samples,)
        The class the out-of-fold model prefers for each row.
    feature_importances_ : ndarray of shape (n_features,)
        The final booster's total gain per feature, normalised to sum 1 (one
        machine: the trees' impurity decrease).
    feature_categories_ : dict
        Only on Dask. For a DataFrame with category columns: each such column's categories.
        XGBoost receives the columns as category codes (with ``feature_types``
        ``"c"``), so a worker may hold no rows; at predict a frame is coded with
        these categories, and a category not among them is a missing value.
    excluded_samples_ : dask.array of bool, shape (n_samples,)
        Rows the final model down-weighted or ignored (suspects, and rows the
        self-paced weights dropped in the final round), as a mask aligned with
        the input.

    Examples
    --------
    >>> from distributed import Client, LocalCluster  # doctest: +SKIP
    >>> import dask.array as da  # doctest: +SKIP
    >>> from robust_boosting.dask import DaskSPLBoostClassifierCV  # doctest: +SKIP
    >>> client = Client(LocalCluster(n_workers=2, processes=False))  # doctest: +SKIP
    >>> X = da.random.random((10_000, 10), chunks=2_500)  # doctest: +SKIP
    >>> y = (X[:, 0] > 0.5).astype(int)  # doctest: +SKIP
    >>> model = DaskSPLBoostClassifierCV(random_state=0, client=client).fit(X, y)  # doctest: +SKIP
    >>> model.label_issues_.sum().compute()  # a dask mask of the suspects  # doctest: +SKIP
    """

    def __init__(self, *, max_depth="auto", learning_rate="auto", drop_fraction=0.0,
                 n_estimators="auto", max_leaf_nodes="auto", min_samples_leaf="auto",
                 l2_regularization="auto", grow_policy: str = "auto",
                 random_strength: float | str = "auto", multiclass_trees: str = "auto", cv=3,
                 remove_label_issues: bool | str = "auto", label_issue_weight=(0.0, 0.8),
                 n_jobs: int | None = None, random_state=None, unknown_categories: str = "missing",
                 id_columns: str = "drop", monotonic_cst=None, class_weight=None, client=None,
                 collective_timeout: int = 600, device: str = "cpu", verbose: int = 0):
        super().__init__(max_depth=max_depth, learning_rate=learning_rate,
                         drop_fraction=drop_fraction, n_estimators=n_estimators,
                         max_leaf_nodes=max_leaf_nodes, min_samples_leaf=min_samples_leaf,
                         l2_regularization=l2_regularization, grow_policy=grow_policy,
                         random_strength=random_strength, multiclass_trees=multiclass_trees,
                         cv=cv, remove_label_issues=remove_label_issues,
                         label_issue_weight=label_issue_weight, n_jobs=n_jobs,
                         random_state=random_state,
                         unknown_categories=unknown_categories, id_columns=id_columns,
                         verbose=verbose, monotonic_cst=monotonic_cst,
                         class_weight=class_weight)
        self.client = client
        self.collective_timeout = collective_timeout
        self.device = device

    #: the ``"auto"`` rules of XGBoost's trees (:data:`robust_boosting._auto_rules.DASK`)
    _rules = DASK

    def _check_engine_params(self) -> None:
        """The parameters of the distributed engine (the others: :meth:`_search_space`)."""
        if not isinstance(self.collective_timeout, numbers.Integral) or self.collective_timeout < 1:
            raise ValueError("collective_timeout must be a positive integer (seconds); got "
                             f"{self.collective_timeout!r}.")
        if self.device not in ("cpu", "cuda") and not str(self.device).startswith("cuda:"):
            raise ValueError(f"device must be 'cpu', 'cuda' or 'cuda:N'; got {self.device!r}.")
        cv = self.cv if self.cv is not None else 3
        if isinstance(cv, bool) or not isinstance(cv, numbers.Integral) or cv < 2:
            raise ValueError("cv must be an integer >= 2 on Dask (the folds are a hash of each "
                             f"row's position; splitters and index lists are not); got {self.cv!r}.")

    # ------------------------------------------------------------ input
    def _client(self):
        if self.client is not None:
            return self.client
        from distributed import default_client
        try:
            return default_client()
        except ValueError as exc:
            raise ValueError("DaskSPLBoostClassifierCV needs a distributed.Client: pass client= "
                             "or create one first (distributed.Client(...)).") from exc

    def _prepare(self, X, y, sample_weight):
        """``(X, y, sample_weight, row_chunks)``: ``y``/weights as dask arrays aligned with ``X``."""
        da, _ = require()
        import dask.dataframe as dd

        for attr in ("feature_names_in_", "feature_categories_"):  # from an earlier fit
            if hasattr(self, attr):
                delattr(self, attr)
        if isinstance(X, dd.DataFrame):
            lengths = tuple(int(v) for v in X.map_partitions(len).compute())
            categories = {}
            for c, t in X.dtypes.items():
                if str(t) == "category":
                    if not X[c].cat.known:
                        raise ValueError(f"Categorical column {c!r} has unknown categories; call "
                                         "X[col] = X[col].cat.as_known() (or set_categories) "
                                         "first.")
                    categories[str(c)] = X[c].cat.categories
            self.feature_names_in_ = np.asarray([str(c) for c in X.columns], dtype=object)
            self.feature_categories_ = categories
            X = coded_frame(X, categories, lengths)
            n_features = len(self.feature_names_in_)
        elif isinstance(X, da.Array):
            if X.ndim != 2:
                raise ValueError(f"X must be 2-D (n_samples, n_features); got {X.ndim} dimension(s).")
            if any(np.isnan(c) for c in X.chunks[0]):
                X = X.compute_chunk_sizes()
            X = X.rechunk({1: -1})
            lengths = tuple(int(c) for c in X.chunks[0])
            n_features = X.shape[1]
            if not (np.issubdtype(X.dtype, np.number) or X.dtype == bool):
                raise TypeError(f"X must be numeric; got dtype {X.dtype}.")
        else:
            raise TypeError("DaskSPLBoostClassifierCV.fit takes a dask.array or a "
                            f"dask.dataframe.DataFrame; got {type(X).__name__} (use "
                            "SPLBoostClassifierCV for in-memory data).")

        def aligned(name, v):
            if isinstance(v, (dd.Series, dd.DataFrame)):
                if v.npartitions != len(lengths):
                    raise ValueError(f"{name} has {v.npartitions} partitions and X has "
                                     f"{len(lengths)}; they must be partitioned alike.")
                v = v.to_dask_array(lengths=True)
            elif not isinstance(v, da.Array):
                raise TypeError(f"{name} must be a dask array or series aligned with X; "
                                f"got {type(v).__name__}.")
            if v.ndim != 1:
                raise ValueError(f"{name} must be 1-D; got shape {v.shape}.")
            if any(np.isnan(c) for c in v.chunks[0]):
                v = v.compute_chunk_sizes()
            if tuple(int(c) for c in v.chunks[0]) != lengths:
                raise ValueError(f"The partitions of {name} (row counts {v.chunks[0][:5]}...) "
                                 f"do not match those of X ({lengths[:5]}...): X and {name} "
                                 "must have the same rows in the same partitions.")
            return v

        y = aligned("y", y)
        sw = None if sample_weight is None else aligned("sample_weight", sample_weight)
        self.n_features_in_ = int(n_features)
        return X, y, sw, lengths

    def _feature_types(self) -> list[str] | None:
        """XGBoost's feature types (``"c"`` for a categorical column), or None if all numeric."""
        categories = getattr(self, "feature_categories_", None)
        if not categories:
            return None
        return ["c" if name in categories else "q" for name in self.feature_names_in_]

    # ------------------------------------------------------------ engine
    def _monotone(self, n_classes: int):
        """``monotonic_cst`` checked (the in-memory estimators' rules and messages), as one
        -1/0/1 per feature, or None."""
        names = getattr(self, "feature_names_in_", None)
        categories = getattr(self, "feature_categories_", None) or {}
        cst = check_monotonic_cst(
            self.monotonic_cst, n_features=self.n_features_in_, feature_names=names,
            categorical=None if names is None else [str(c) in categories for c in names],
            n_classes=n_classes)
        return cst

    def _class_weights(self, classes, counts):
        """``class_weight`` as one factor per class (None without), by scikit-learn's rule
        (:func:`~robust_boosting._validation.class_weight_sample_weight`). ``"balanced"``
        reads the class counts (summed on the cluster): the helper sees one row per class
        and count divided by the counts' greatest common divisor, which leaves its
        ``n / (n_classes * count)`` unchanged."""
        if self.class_weight is None:
            return None
        if isinstance(self.class_weight, str):
            counts = np.asarray(counts, dtype=np.int64)
            counts = counts // np.gcd.reduce(counts)
            rows = np.repeat(np.arange(classes.shape[0]), counts)
            per_row = class_weight_sample_weight(self.class_weight, rows, None)
            return np.asarray(per_row)[np.cumsum(counts) - counts]
        return np.asarray(class_weight_sample_weight(self.class_weight, classes, None))

    def _train(self, client, params, dtrain, rounds, obj, k, held_out=False):
        """One distributed fit (:func:`~robust_boosting.dask.engine.train`), quiet unless
        ``verbose``."""
        return train(client, params, dtrain, rounds, obj, k, timeout=self.collective_timeout,
                     quiet=not self.verbose, held_out=held_out)

    # ------------------------------------------------------------ fit
    def fit(self, X, y, sample_weight=None):
        """Cross-validate on the cluster, find label issues, fit the final model.

        Parameters
        ----------
        X : dask.array of shape (n_samples, n_features) or dask.dataframe.DataFrame
            Training data, on the workers. NaN means missing. DataFrame
            columns of category dtype (with known categories) are split as
            categories by XGBoost.
        y : dask.array or dask.dataframe.Series of shape (n_samples,)
            Class labels, possibly noisy, partitioned as ``X``.
        sample_weight : dask.array or dask.dataframe.Series, optional
            Non-negative weights, partitioned as ``X``.

        Returns
        -------
        self
        """
        require()
        client = self._client()
        at_start = scheduler_workers(client)
        try:
            with Progress(check_verbose(self.verbose)) as progress, \
                    Placement(client, at_start) as placement:
                if not self.verbose:  # XGBoost's "got rank" lines: only when verbose
                    client.run(install_quiet_start)
                self._fit(client, X, y, sample_weight, placement, progress)
                progress.finished("search, label issues and final fit done")
        except Exception:
            check_workers(client, at_start)  # a lost worker explains it: say so
            raise
        check_workers(client, at_start)  # or a run that Dask repaired on the way
        return self

    def _fit(self, client, X, y, sample_weight, placement: Placement, progress):
        da, xgboost = require()
        import dask
        import xgboost.dask as dxgb

        X, y, sw, lengths = self._prepare(X, y, sample_weight)
        n = int(sum(lengths))
        candidates = self._search_space(n)
        self._check_engine_params()
        # the Dask search has one group (depth-wise trees): its candidates share their rounds
        n_estimators = max(c["n_estimators"] for c in candidates)
        cv = self.cv if self.cv is not None else 3

        checks = [da.unique(y, return_counts=self.class_weight is not None)]
        if sw is not None:
            checks += [sw.min(), sw.sum(), da.isnan(sw).any()]
        if isinstance(X, da.Array) and np.issubdtype(X.dtype, np.floating):
            checks.append(da.isinf(X).any())
        got = dask.compute(*checks)
        classes, counts = (got[0], None) if self.class_weight is None else got[0]
        classes = np.asarray(classes)
        if classes.dtype.kind == "f" and np.isnan(classes).any():
            raise ValueError("y contains NaN; every training row needs a label.")
        check_classification_targets(classes)
        check_two_classes(classes)
        if sw is not None:
            sw_min, sw_sum, sw_nan = got[1:4]
            if sw_nan or sw_min < 0:
                raise ValueError("sample_weight must be non-negative and not NaN.")
            if not sw_sum > 0:
                raise ValueError("sample_weight sums to zero: at least one sample needs a "
                                 "positive weight.")
        if isinstance(X, da.Array) and np.issubdtype(X.dtype, np.floating) and got[-1]:
            raise ValueError("X contains infinity; NaN (missing) is accepted, infinity is not.")
        k = classes.shape[0]
        self.classes_ = classes
        monotone = self._monotone(k)
        y_idx = y.map_blocks(encode_block, classes, dtype=np.float32)
        sw_total = None if sw is None else float(got[2])
        cw = self._class_weights(classes, counts)
        if cw is not None:  # sample weight x class weight (scikit-learn's rule), then as below
            base = (da.ones(n, chunks=(lengths,), dtype=np.float64) if sw is None
                    else sw.astype(np.float64))
            sw = base * y_idx.map_blocks(lambda t: cw[t.astype(np.intp)], dtype=np.float64)
            sw_total = float(sw.sum().compute())
            if not sw_total > 0:
                raise ValueError("sample_weight and class_weight together weigh every sample "
                                 "0: at least one sample needs a positive weight.")
        w = (da.ones(n, chunks=(lengths,), dtype=np.float32) if sw is None  # XGBoost's dtype
             else (sw.astype(np.float64) * (n / sw_total)).astype(np.float32))

        rng = check_random_state(self.random_state)
        fold_seed = int(rng.randint(np.iinfo(np.int32).max))
        fit_seed = int(rng.randint(np.iinfo(np.int32).max))
        fold = y_idx.map_blocks(fold_block, cv, fold_seed, dtype=np.int8)
        # each partition on a fixed worker: XGBoost's model depends on the placement
        X, y_idx, fold, w = placement.pin([X, y_idx, fold, w])
        at_start = placement.at_start
        types = self._feature_types()

        engine = dict(device=self.device, n_jobs=self.n_jobs, monotone=monotone)

        def matrix(weight, held_weight=None):
            return dxgb.DaskQuantileDMatrix(client, X, y_idx, weight=weight,
                                            label_upper_bound=held_weight,
                                            feature_types=types,
                                            enable_categorical=types is not None)

        # 1. the search: every candidate on every fold, early-stopped on its held-out rows
        progress.stage("search", f"{len(candidates)} candidate(s) x {cv} folds on {n:,} rows")
        progress.total(len(candidates) * cv)
        curves = np.full((len(candidates), cv, n_estimators), np.nan)
        boosters: dict = {}
        for f in range(cv):
            held = fold == f
            zero = np.float32(0.0)
            dtrain = matrix(da.where(held, zero, w), da.where(held, w, zero))
            for c, cand in enumerate(candidates):
                obj = (None if cand["drop_fraction"] == 0
                       else SelfPacedObjective(k, cand["drop_fraction"]))
                out = self._train(client, xgb_params(cand, k, fit_seed, **engine), dtrain,
                                  n_estimators, obj, k, held_out=True)
                curve = np.asarray(out["history"]["held_out"]["held_out_logloss"])
                curves[c, f, :curve.size] = curve
                curves[c, f, curve.size:] = curve[-1]
                boosters[c, f] = out["booster"]
                progress.debug(f"candidate {c + 1}, fold {f + 1}: {curve.size} rounds")
                progress.advance()
            del dtrain
            gc.collect()  # the matrix's partitions (held in reference cycles) leave the workers
        best_round = np.argmin(curves.mean(axis=1), axis=1)
        scores = -curves[np.arange(len(candidates)), :, best_round]
        best = int(np.argmax(scores.mean(axis=1)))
        oof_round = min(int(best_round[best]) + PATIENCE, n_estimators - 1)
        progress.done(f"best candidate {best + 1}: {int(best_round[best]) + 1} rounds")
        progress.stage("label issues", "out-of-fold probabilities and confident learning")

        # 2. out-of-fold probabilities and confident learning, as reductions
        models = [boosters[best, f] for f in range(cv)]
        stops = [min(oof_round + 1, b.num_boosted_rounds()) for b in models]
        models = client.scatter(models, broadcast=True)
        oof = where_held(client, at_start, held_out_proba, X, fold, models, stops, k,
                               dtype=np.float32, width=k)
        del models
        yi = y_idx.astype(np.intp)
        sums, counts = reduce_blocks(lambda p, t: np.stack(class_sums(p, t, k)), oof, yi)
        thresholds = class_thresholds(sums, counts)

        def joint_block(p, t):
            guess, confident = confident_guess(p, thresholds)
            return np.bincount(t[confident] * k + guess[confident],
                               minlength=k * k).astype(np.float64)

        raw = reduce_blocks(joint_block, oof, yi)
        joint = calibrated_joint(raw.reshape(k, k), counts)
        self.noise_rate_ = noise_rate_of(joint)
        # the removal decision reads the anchor statistic on at most 5,000 rows only, where
        # the out-of-fold probabilities are small enough to gather
        self.anchor_noise_rate_ = (anchor_noise_rate(oof.compute()) if n <= self._rules.small_n
                                   else float("nan"))
        self.remove_label_issues_ = self._removes(n, k, self.anchor_noise_rate_,
                                                  candidates[best]["drop_fraction"])
        # persisted (a byte a row): the final weights read it, and so does label_issues_
        # (re-optimized graphs of it get other alias keys)
        suspect = client.persist(self._suspects(oof, yi, joint, lengths))
        self.oof_proba_ = oof
        self.oof_n_estimators_ = oof_round + 1
        self.label_issue_scores_ = rowwise(
            lambda p, t: 1.0 - p[np.arange(t.shape[0]), t].astype(np.float64), oof, yi,
            dtype=np.float64)
        self.label_issues_ = client.persist(suspect | rowwise(  # the margin rule's, for review
            lambda p, t: margin_suspects(p, t, REVIEW_MARGIN), oof, yi, dtype=bool))
        self.suggested_labels_ = rowwise(lambda p: classes[np.argmax(p, axis=1)], oof,
                                          dtype=classes.dtype)
        self.cv_results_ = self._results_table(candidates, scores, best_round)
        self.best_index_ = best
        self.best_score_ = float(scores[best].mean())
        self.best_params_ = dict(candidates[best], cv_n_estimators=int(best_round[best]) + 1)

        suspects = (f"{int(self.label_issues_.sum().compute()):,} suspect(s), "
                    if progress.verbose else "")  # (a reduction: only when it is shown)
        progress.done(f"{suspects}contradicted labels {self.noise_rate_:.3f}, "
                      f"{'removed' if self.remove_label_issues_ else 'kept'}")
        rounds = self._final_rounds()
        progress.stage("final fit", f"up to {rounds} rounds: {self._final_rounds_note()}")
        # 3. the final fit
        p = candidates[best]
        final_w, removed = w, da.zeros(n, chunks=(lengths,), dtype=bool)
        if self.remove_label_issues_:
            retention = label_retention(joint)
            pair = self._issue_weights()
            final_w = rowwise(
                lambda ww, pp, t, s: final_weights(ww, np.argmax(pp, axis=1) == t, s,
                                                   retention[t], pair).astype(np.float32),
                w, oof, yi, suspect, dtype=np.float32)
            final_w = client.persist(final_w)
            if not float(final_w.sum(dtype=np.float64).compute()) > 0:  # every weighted row is a suspect
                final_w = w
            else:
                removed = suspect
        obj = None if p["drop_fraction"] == 0 else SelfPacedObjective(k, p["drop_fraction"])
        out = self._train(client, xgb_params(p, k, fit_seed, **engine), matrix(final_w),
                          rounds, obj, k)
        self.best_estimator_ = out["booster"]
        dropped = self._dropped(client, at_start, X, y_idx, final_w, p["drop_fraction"], k)
        self.excluded_samples_ = removed | dropped if dropped is not None else removed
        progress.done()

    def _suspects(self, oof, yi, joint, lengths):
        """Prune by noise rate on the cluster: per pair ``i != j``, the ``round(C[i, j])`` rows
        labelled ``i`` of largest ``p_j - p_i``, by a global margin threshold."""
        da, _ = require()
        counts = prune_counts(joint)
        if not counts:
            return da.zeros(oof.shape[0], chunks=(lengths,), dtype=bool)
        pairs = [(i, j) for i, j, _ in counts]
        m = np.array([count for _, _, count in counts], dtype=np.float64)

        def histogram(lo, hi):
            return reduce_blocks(
                lambda p, t: bin_counts([p[t == i, j] - p[t == i, i] for i, j in pairs], lo, hi),
                oof, yi)

        t = top_threshold(histogram, m, np.full(len(pairs), -1.0),
                          np.full(len(pairs), np.nextafter(1.0, 2.0)))

        def mark(p, yy):
            s = np.zeros(yy.shape[0], dtype=bool)
            for (i, j), ti in zip(pairs, t, strict=True):
                s |= (yy == i) & (p[:, j] - p[:, i] >= ti)
            return s

        return rowwise(mark, oof, yi, dtype=bool)

    def _dropped(self, client, at_start, X, y_idx, w, drop_fraction, k):
        """Rows the final model's self-paced weights dropped in its last round (a mask), or None.

        ``X`` and ``y_idx`` (the class indices) are persisted."""
        if drop_fraction == 0:
            return None
        da, _ = require()
        import dask

        booster = self.best_estimator_
        stop = max(booster.num_boosted_rounds() - 1, 1)
        loss = where_held(client, at_start, losses_at, X, y_idx, client.scatter(
            booster, broadcast=True), stop, k, dtype=np.float64)
        counted = w > 0
        total, top = dask.compute(counted.sum(), da.where(counted, loss, 0.0).max())
        m = np.floor(drop_fraction * float(total))

        def histogram(lo, hi):
            return reduce_blocks(lambda ll, c: bin_counts([ll[c]], lo, hi), loss, counted)

        t = top_threshold(histogram, np.array([m]), np.array([0.0]),
                          np.array([np.nextafter(float(top), np.inf)]))[0]
        return counted & (loss >= t)
