"""Shared parameters, fitting and prediction of the histogram tree estimators."""

from __future__ import annotations

import functools
import numbers
import types
import weakref
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils import check_random_state
from sklearn.utils.validation import (
    check_consistent_length,
    check_is_fitted,
    column_or_1d,
)

from .. import _loop_kernels as _lk
from .._learners import reseeded_rng
from .._schema import FeatureSchema, is_frame
from .._validation import (
    CachedParamNames,
    all_finite,
    check_choice,
    check_monotonic_cst,
    check_number,
    check_optional_int,
    class_weight_sample_weight,
    validated_X,
)
from . import _partition, _predictor, _splitting
from ._checks import _check_sample_weight, _encode_classes
from .batched import grow_batched
from .binning import BinMapper, BinnedData, _kernel_threads, _n_threads, data_work
from .growing import HistTree, _Grower, _SymmetricGrower

_CRITERIA_CLS = {"gini": _splitting.GINI, "entropy": _splitting.ENTROPY}
_CRITERIA_REG = {"squared_error": _splitting.SQUARED_ERROR}
# Parameter sets (type and value of each) that passed _validate_params.
_VALID_PARAMS: set = set()
# Prediction runs in parallel chunks from this many samples on.
_PARALLEL_MIN_PREDICT = 200_000
#: ``min_category_count`` of the trees: a category of fewer training rows shares the
#: bin "other" with the other rare ones (docs/design/0020)
DEFAULT_MIN_CATEGORY_COUNT = 10
#: ``cat_l2`` of the regression trees: the extra L2 penalty of categorical splits, in
#: rows of the mean weight (LightGBM's ``cat_l2``; docs/design/0020)
DEFAULT_CAT_L2 = 0.0


# --------------------------------------------------------------------------
# Estimators
# --------------------------------------------------------------------------

#: a fitted tree's arrays that prediction does not read (:meth:`_BaseHistTree._drop_fit_statistics`)
_FIT_STATISTICS = ("gain", "weighted_n_node_samples", "n_node_samples", "depth")


_INT64_MAX = int(np.iinfo(np.int64).max)


@functools.lru_cache(maxsize=4096)
def _noise_seed_of(seed: int) -> int:
    """The split-noise seed a tree of integer ``random_state`` ``seed`` draws: the first
    ``randint(2**63 - 1)`` of ``RandomState(seed)``. Cached: a booster seeds its trees
    from one sequence, which the search's fold models and the final model share."""
    return int(reseeded_rng(seed).randint(_INT64_MAX, dtype=np.int64))


class _BaseHistTree(CachedParamNames, BaseEstimator):
    """Shared parameters and fitting of the histogram trees."""

    #: ``unknown_categories`` of a model saved by release 0.1.0, which had no such
    #: parameter (its policy is read from its schema; this keeps ``get_params`` working)
    unknown_categories = "missing"
    #: of a model saved before these parameters existed: its categories were not grouped
    #: and no column was left out
    min_category_count = 1
    id_columns = "keep"
    cat_l2 = 0.0
    monotonic_cst = None
    class_weight = None
    _criteria: dict[str, int] = {}
    _is_reg = False
    #: the boosters pass ``n_categories`` to :meth:`prepare_data`: categorical features
    #: are split natively into sets of categories
    native_categorical = True
    #: the parameters :meth:`prepare_data` reads (batched fits bin once per value)
    _prepare_data_params = ("max_bins", "min_category_count")

    def __init__(
        self,
        *,
        criterion: str,
        max_depth: int | None,
        max_leaf_nodes: int | None = None,
        min_samples_leaf: int = 1,
        min_weight_fraction_leaf: float = 0.0,
        sample_count: str = "exact",
        max_bins: int = 255,
        min_category_count: int = DEFAULT_MIN_CATEGORY_COUNT,
        n_jobs: int | None = None,
        random_state: Any = None,
        unknown_categories: str = "missing",
        id_columns: str = "drop",
        monotonic_cst: Any = None,
        class_weight: Any = None,
    ) -> None:
        self.criterion = criterion
        self.max_depth = max_depth
        self.max_leaf_nodes = max_leaf_nodes
        self.min_samples_leaf = min_samples_leaf
        self.min_weight_fraction_leaf = min_weight_fraction_leaf
        self.sample_count = sample_count
        self.max_bins = max_bins
        self.min_category_count = min_category_count
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.unknown_categories = unknown_categories
        self.id_columns = id_columns
        self.monotonic_cst = monotonic_cst
        if not self._is_reg:  # a classifier's parameter only
            self.class_weight = class_weight

    @staticmethod
    def _init_with_defaults(**defaults):
        """The ``__init__`` of a tree estimator: this class's, with the subclass's defaults.

        One list of parameters for both trees; :func:`inspect.signature` (hence
        ``get_params`` and the repr) reads the new defaults.
        """
        base = _BaseHistTree.__init__
        init = types.FunctionType(base.__code__, base.__globals__, "__init__",
                                  base.__defaults__, base.__closure__)
        init.__kwdefaults__ = {**(base.__kwdefaults__ or {}), **defaults}
        init.__annotations__ = dict(base.__annotations__)
        init.__doc__ = base.__doc__
        return init

    def __getstate__(self):
        state = dict(super().__getstate__())  # a copy: object.__getstate__ may return __dict__
        state.pop("_train_leaves", None)  # a weak reference: not picklable, not part of the model
        return state

    # the state of a tree of plain attributes is its __dict__ (_learners._shallow_copy)
    __getstate__.plain_state = True

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        return tags

    # -- parameters -------------------------------------------------------
    def _validate_params(self) -> None:
        # a booster fits a copy of the same tree every round: parameters found valid
        # once (by value and type) are not checked again
        values = (self.criterion, self.max_depth, self.max_leaf_nodes, self.min_samples_leaf,
                  self.max_bins, self.min_category_count, self.n_jobs,
                  self.min_weight_fraction_leaf, self.sample_count, self._l2(), self._cat_l2(),
                  self._grow_policy(), self._strength())
        try:
            key = (type(self), values, tuple(map(type, values)))
            if key in _VALID_PARAMS:
                return
        except TypeError:  # an unhashable value: checked below (and rejected)
            key = None
        self._check_params()
        if key is not None and len(_VALID_PARAMS) < 1024:
            _VALID_PARAMS.add(key)

    def _check_params(self) -> None:
        check_choice("criterion", self.criterion, sorted(self._criteria))
        check_optional_int("max_depth", self.max_depth, 0)
        check_optional_int("max_leaf_nodes", self.max_leaf_nodes, 2)
        check_number("min_samples_leaf", self.min_samples_leaf, low=1, low_open=False,
                     integer=True)
        check_number("max_bins", self.max_bins, low=2, low_open=False, high=255, integer=True)
        check_number("min_category_count", self.min_category_count, low=1, low_open=False,
                     integer=True)
        check_optional_int("n_jobs", self.n_jobs, -(2**31))
        if self.n_jobs == 0:
            raise ValueError("n_jobs must be a non-zero integer or None, got 0.")
        check_number("min_weight_fraction_leaf", self.min_weight_fraction_leaf, low=0.0,
                     low_open=False, high=0.5)
        check_choice("sample_count", self.sample_count, ["exact", "weight"])
        if self._is_reg:
            check_number("l2_regularization", self.l2_regularization, low=0.0,
                         low_open=False)
            check_number("cat_l2", self.cat_l2, low=0.0, low_open=False)
            check_choice("grow_policy", self.grow_policy, ["depthwise", "symmetric"])
            if self.grow_policy == "symmetric":
                if self.max_depth is None:
                    raise ValueError("grow_policy='symmetric' needs an integer max_depth "
                                     "(a symmetric tree has 2**max_depth leaves at most), "
                                     "got None.")
                if self.max_leaf_nodes is not None:
                    raise ValueError("grow_policy='symmetric' grows whole levels to "
                                     "max_depth; max_leaf_nodes must be None, got "
                                     f"{self.max_leaf_nodes!r}.")
            check_number("random_strength", self.random_strength, low=0.0, low_open=False)
            if self.random_strength > 0 and self.grow_policy != "symmetric":
                raise ValueError("random_strength randomises the split scores of symmetric "
                                 "trees; it needs grow_policy='symmetric', got "
                                 f"grow_policy={self.grow_policy!r}.")

    def _grow_policy(self) -> str:
        """The regression trees' ``grow_policy`` ("depthwise" for the classification trees)."""
        return self.grow_policy if self._is_reg else "depthwise"

    def _strength(self) -> float:
        """The regression trees' ``random_strength`` (0 for the classification trees)."""
        return self.random_strength if self._is_reg else 0.0

    def _l2(self) -> float:
        """The regression trees' ``l2_regularization`` (0 for the classification trees)."""
        return self.l2_regularization if self._is_reg else 0.0

    def _cat_l2(self) -> float:
        """The regression trees' ``cat_l2`` (0 for the classification trees)."""
        return self.cat_l2 if self._is_reg else 0.0

    def _split_noise_seed(self) -> int:
        """The seed of the random split scores, from ``random_state``: drawn only when they
        are random (``random_strength > 0``), else 0."""
        if not self._strength() > 0:
            return 0
        seed = self.random_state
        if isinstance(seed, numbers.Integral) and not isinstance(seed, bool):
            return _noise_seed_of(int(seed))
        return int(check_random_state(seed).randint(np.iinfo(np.int64).max, dtype=np.int64))

    # -- data -------------------------------------------------------------
    def prepare_data(self, X: Any, *, n_categories: Any = None) -> BinnedData:
        """Bin ``X`` once so that many trees can be fitted on it.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or BinnedData
            Raw numeric data (NaN = missing); a :class:`BinnedData` is returned as is.
        n_categories : array of int of shape (n_features,), optional
            Number of categories of each categorical feature, whose values are then
            category codes ``0 .. k - 1`` (0 for the other features); see
            :class:`BinMapper`. The boosters pass it when they were fitted on a
            DataFrame with categorical columns.

        Returns
        -------
        BinnedData
            Pass it to :meth:`fit`, :meth:`predict`, ... instead of ``X``.
        """
        if isinstance(X, BinnedData):
            return X
        if is_frame(X) and not FeatureSchema.from_frame(X).all_numeric:
            raise TypeError("prepare_data takes numeric data; fit the estimator on the "
                            "DataFrame itself (its categorical columns are then encoded).")
        mapper = BinMapper(max_bins=self.max_bins, min_category_count=self.min_category_count)
        with _kernel_threads(self.n_jobs, data_work(X)):
            return mapper.fit_transform(X, n_categories=n_categories)

    def _validate_X_y(self, X, y):
        if isinstance(X, BinnedData):
            self.__dict__.pop("feature_schema_", None)  # the mapper knows the categories
            self.n_features_in_ = X.n_features
            if X.feature_names is not None:
                self.feature_names_in_ = X.feature_names
            elif hasattr(self, "feature_names_in_"):
                del self.feature_names_in_
            if y is None:
                raise ValueError("y is required")
            if not (isinstance(y, np.ndarray) and y.ndim == 1):  # the boosters' case is cheap
                y = column_or_1d(y, warn=True)
            if y.shape[0] != X.n_samples:
                check_consistent_length(X.codes, y)
            if self._is_reg:
                y = np.asarray(y, dtype=np.float64)
                if not all_finite(y):
                    raise ValueError("Input y contains NaN or infinity.")
            return X, y
        return validated_X(self, X, y, reset=True, allow_nan=True, y_numeric=self._is_reg)

    def fit(self, X: Any, y: Any, sample_weight: Any = None) -> _BaseHistTree:
        """Fit the tree.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), DataFrame or BinnedData
            Training data (NaN = missing), or data binned by :meth:`prepare_data`. A
            DataFrame may have boolean and categorical columns: they are read by the
            typed schema (``feature_schema_``, see :mod:`robust_boosting._schema`), and
            categorical features of more than two categories are split into sets of
            categories (one of two categories as its codes 0 and 1, the same partitions).
        y : array-like of shape (n_samples,)
            Class labels (classifier) or targets (regressor).
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights; samples with zero weight are ignored (they do
            not influence the bins, the splits or the leaf values).

        Returns
        -------
        self
        """
        return self._fit(X, y, sample_weight)

    def _fit(self, X, y, sample_weight):
        with _kernel_threads(self.n_jobs, data_work(X)) as n_threads:
            grower, binned, inactive, ybar = self._prepare_grower(X, y, sample_weight, n_threads)
            grow_batched([grower], n_threads)
        self._finish_fit(grower, binned, inactive, ybar)
        return self

    def _prepare_grower(self, X, y, sample_weight, n_threads, out=None, root=None):
        """Everything of :meth:`fit` before the growth: validation, binning, root statistics.

        Returns ``(grower, binned, inactive, ybar)`` for :meth:`_finish_fit`; the
        grower's ``root_tot`` holds the root's totals. ``inactive`` holds the
        zero-weight rows (None: there are none), or is False when ``X`` came
        raw (the training leaves are then not kept). Also used by the batched
        fits of :mod:`robust_boosting.trees.batched`, which grow many such
        growers in one call; a regression tree's row arrays (rows, weights,
        weighted residuals) are then views of ``out`` (three arrays of
        ``n_samples``), else new. ``root`` is None, or for a regression tree whose
        weights and root the caller has already made (:func:`fit_trees_batched`, in
        one call for many trees): ``(weights, result)``, the weights as
        :func:`_check_sample_weight` returns them and ``result`` as
        ``regression_root`` computes it into ``out``.
        """
        self._validate_params()
        X, y = self._validate_X_y(X, y)
        n_samples = X.shape[0]
        if not self._is_reg and root is None:
            sample_weight = class_weight_sample_weight(getattr(self, "class_weight", None), y,
                                                       sample_weight)
        sw = _check_sample_weight(sample_weight, n_samples) if root is None else root[0]
        if self._is_reg:
            y = np.asarray(y, dtype=np.float64)
        else:
            self.classes_, y_enc = _encode_classes(y)
            self.n_classes_ = len(self.classes_)
        active = inactive = None
        n_active = n_samples
        if sw is not None:
            sw = np.ascontiguousarray(sw)
        if self._is_reg:
            # the rows of positive weight and the root's sums in one compiled call
            y = np.ascontiguousarray(y)
            rows, w_rows, owy = out if out is not None else (
                np.empty(n_samples, dtype=np.int32), np.empty(n_samples), np.empty(n_samples))
            n_active, total_w, ybar, sum_owy, tol_scale = (
                _lk.regression_root(y, sw, rows, w_rows, owy) if root is None else root[1])
        elif sw is not None:
            rows = np.empty(n_samples, dtype=np.int32)
            w_rows = np.empty(n_samples)
            n_active = int(_lk.active_rows(sw, rows, w_rows))
        if n_active < n_samples:
            active = rows[:n_active]
            inactive = rows[n_active:]
        if n_active == 0:
            raise ValueError("sample_weight is zero for every sample; no sample weight to fit")

        if isinstance(X, BinnedData):
            binned = X
        else:
            mapper = BinMapper(max_bins=self.max_bins,
                               min_category_count=self.min_category_count).fit(
                X, rows=active, n_categories=self.feature_schema_.set_split_categories)
            binned = mapper.transform(X)
        mapper = binned.mapper
        if self._is_reg:
            # idx, ow: the rows of positive weight, reordered in place by the partition
            idx, ow = rows[:n_active], w_rows[:n_active]
        else:
            if active is None:
                idx = np.arange(n_samples, dtype=np.int32)
                # a copy: the partition reorders ow in place
                ow = np.ones(n_samples) if sw is None else sw.copy()
            else:
                idx = active
                ow = w_rows[:n_active]
            total_w = float(ow.sum())
        if not total_w > 0:
            raise ValueError("the sum of sample_weight must be positive (non-zero weight)")
        if self._is_reg:
            # from regression_root: ybar = sum(ow y) / total_w, owy = ow (y - ybar),
            # tol_scale (the scale of gains) = sum(ow y^2) / total_w
            owy = owy[:n_active]
            oc = np.empty(0, dtype=np.int32)
            n_stat = 3
            lam = float(self._l2()) * total_w / n_active
            cat_lam = float(self._cat_l2()) * total_w / n_active
            if lam > 0:
                # the penalty shrinks the values toward zero, not toward the mean
                # target: the residuals are taken about zero (no centring)
                owy += ow * ybar
                sum_owy += total_w * ybar
                ybar = 0.0
            root_tot = np.array([total_w, sum_owy, n_active], dtype=np.float64)
        else:
            ybar = 0.0
            oc = y_enc if active is None else y_enc[idx]
            oc = np.ascontiguousarray(oc, dtype=np.int32)
            owy = np.empty(0, dtype=np.float64)
            n_stat = self.n_classes_ + 1
            lam = cat_lam = 0.0
            tol_scale = 1.0
            root_tot = np.zeros(n_stat, dtype=np.float64)
            root_tot[: self.n_classes_] = np.bincount(
                oc, weights=ow, minlength=self.n_classes_
            )
            root_tot[-1] = n_active
        grower_cls = _SymmetricGrower if self._grow_policy() == "symmetric" else _Grower
        mono = self._monotone_constraints(mapper, grower_cls)
        strength = self._strength()
        grower = grower_cls(
            binned.codes_t, mapper.n_bins_, mapper.missing_bin_, idx, ow, oc, owy,
            self._is_reg, n_stat, self._criteria[self.criterion], self.max_depth,
            self.max_leaf_nodes, self.min_samples_leaf,
            self.min_weight_fraction_leaf * total_w, tol_scale, n_threads,
            cat_features=mapper.categorical_features_,
            count_by_weight=self.sample_count == "weight", lam=lam,
            random_strength=strength, rs_seed=self._split_noise_seed(), cat_lam=cat_lam,
            min_cat_cnt=self.min_category_count, monotonic_cst=mono,
        )
        if (active is not None and 2 * n_active >= n_samples and self.min_samples_leaf == 1
                and self.sample_count != "weight"):
            # Most rows have weight (SPLBoost drops a few): the root's histogram reads
            # every row in order, zero-weight rows adding exact zeros, which is faster
            # than following idx. Not with counts (zero-weight rows must not count), nor
            # with counts estimated from the weights: those trees (SPLBoostClassifierCV's)
            # took as long and more memory with it (a dense copy of each tree's
            # weights and residuals: 10 MB at 100k rows and 5 classes).
            if self._is_reg:
                owy_all = np.zeros(n_samples)
                owy_all[idx] = owy
                grower.dense_root = (sw, oc, owy_all)
            else:
                grower.dense_root = (sw, np.ascontiguousarray(y_enc, dtype=np.int32), owy)
        grower.root_tot = root_tot
        binned_by_caller = isinstance(X, BinnedData)
        return grower, binned, inactive if binned_by_caller else False, ybar

    def _monotone_constraints(self, mapper: BinMapper, grower_cls) -> np.ndarray | None:
        """``monotonic_cst`` checked (None: no constraint): scikit-learn's format, never on a
        categorical feature, for regression or two classes, and not for symmetric trees."""
        cst = getattr(self, "monotonic_cst", None)  # (None in a model file of 0.1.0)
        if cst is None or (not self._is_reg and self.n_classes_ < 2):
            return None
        categorical = np.zeros(mapper.n_bins_.shape[0], dtype=bool)
        categorical[mapper.categorical_features_] = True
        mono = check_monotonic_cst(cst, n_features=categorical.shape[0],
                                   feature_names=getattr(self, "feature_names_in_", None),
                                   categorical=categorical,
                                   n_classes=0 if self._is_reg else self.n_classes_)
        if mono is not None and grower_cls is _SymmetricGrower:
            raise ValueError("monotonic_cst is not supported with grow_policy='symmetric'; "
                             "use grow_policy='depthwise'.")
        return mono

    def _finish_fit(self, grower: _Grower, binned: BinnedData, inactive, ybar: float) -> None:
        """The fitted attributes from a grown ``grower`` (see :meth:`_prepare_grower`)."""
        self.bin_mapper_ = binned.mapper
        self.tree_ = self._make_tree(grower, binned.mapper, ybar)
        if inactive is not False:  # X came binned: its training leaves are kept
            self._remember_train_leaves(binned, grower, inactive)

    def _remember_train_leaves(self, X: BinnedData, g: _Grower, inactive) -> None:
        """Keep the leaf of every training row until the tree is first applied to ``X``.

        Boosters predict the training data right after each fit, and the
        partition already knows the answer. The tree keeps it (with a weak
        reference to ``X``, which is not modified) and hands it out, and drops
        it, at the first :meth:`apply` on that same ``X``, so a fitted ensemble
        holds no copies of it.
        """
        t = self.tree_
        out = np.empty(X.n_samples, dtype=np.int32)
        _partition.leaves_of_partition(g.idx, t.children_left, np.asarray(g.start, dtype=np.int64),
                               np.asarray(g.end, dtype=np.int64), out)
        if inactive is not None and t.has_categorical:
            _predictor.apply_binned_table(X.codes_t, t.feature, t.routing_table(g.missing_bin),
                                  t.children_left, t.children_right, inactive, out)
        elif inactive is not None:
            # zero-weight rows are not in the partition: route them through the tree
            _predictor.apply_binned_rows(
                X.codes_t, t.feature, t.threshold_bin, t.missing_go_left, t.children_left,
                t.children_right, g.missing_bin, inactive, out, _n_threads(self.n_jobs),
            )
        self._train_leaves = (weakref.ref(X), out)

    def _make_tree(self, g: _Grower, mapper: BinMapper, ybar: float) -> HistTree:
        feature = np.array(g.feature, dtype=np.int32)
        split_bin = np.array(g.split_bin, dtype=np.int32)
        threshold = mapper.node_thresholds(feature, split_bin)
        tot = np.array(g.tot, dtype=np.float64)
        if self._is_reg:
            w = tot[:, 0].copy()  # not a view: the tree would keep all of tot
            # a node whose weight cancelled to zero (histogram subtraction of a child of
            # negligible weight) predicts the mean, never NaN
            value = np.empty(len(w))
            _partition.regression_values(tot, ybar, value, g.lam)
        else:
            w = tot[:, :-1].sum(axis=1)
            value = tot[:, :-1] / w[:, None]
        if g.mono is not None:
            value = _bounded_values(tot, w, value, g, ybar, self._is_reg)
        categorical = {}
        if g.cat_features.size:
            # copies: the grower's arrays are views of the whole batch's
            categorical = dict(
                is_categorical=np.array(g.is_categorical, dtype=np.uint8),
                categories_left=np.array(g.categories_left, dtype=np.uint8),
            )
        return HistTree(
            **categorical,
            children_left=np.array(g.left, dtype=np.int32),
            children_right=np.array(g.right, dtype=np.int32),
            feature=feature,
            threshold_bin=split_bin,
            threshold=threshold,
            missing_go_left=np.array(g.missing_left, dtype=np.uint8),
            gain=np.array(g.gain, dtype=np.float64),
            value=value,
            weighted_n_node_samples=w,
            n_node_samples=tot[:, -1].astype(np.int64),
            depth=np.array(g.depth, dtype=np.int32),
        )

    def _drop_fit_statistics(self) -> None:
        """Release the fitted tree's arrays that prediction does not read
        (:data:`_FIT_STATISTICS`, 40 % of a node's bytes), for a tree that will only
        predict: its node statistics, depth and feature importances are then gone."""
        for name in _FIT_STATISTICS:
            self.tree_.__dict__.pop(name, None)

    # -- prediction -------------------------------------------------------
    def apply(self, X: Any) -> np.ndarray:
        """Index of the leaf reached by each sample.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or BinnedData

        Returns
        -------
        ndarray of int32, shape (n_samples,)
        """
        cached = self.__dict__.get("_train_leaves")
        if cached is not None and cached[0]() is X:
            # the training rows' leaves, kept by the fit on this same BinnedData (checked
            # then); handed out once
            del self.__dict__["_train_leaves"]
            return cached[1]
        check_is_fitted(self, "tree_")
        t = self.tree_
        with _kernel_threads(self.n_jobs) as n_threads:
            if isinstance(X, BinnedData):
                if X.n_features != self.n_features_in_:
                    raise ValueError(
                        f"X has {X.n_features} features, but {type(self).__name__} is "
                        f"expecting {self.n_features_in_} features as input"
                    )
                if not self.bin_mapper_.same_bins(X.mapper):
                    raise ValueError(
                        "BinnedData was binned with different thresholds than the "
                        "data the tree was fitted on; pass raw X instead"
                    )
                self.__dict__.pop("_train_leaves", None)  # kept for another X: dropped
                out = np.empty(X.n_samples, dtype=np.int32)
                if t.has_categorical:
                    _predictor.apply_binned_table(
                        X.codes_t, t.feature, t.routing_table(self.bin_mapper_.missing_bin_),
                        t.children_left, t.children_right, np.arange(X.n_samples, dtype=np.int32), out)
                    return out
                args = (X.codes_t, t.feature, t.threshold_bin, t.missing_go_left,
                        t.children_left, t.children_right, self.bin_mapper_.missing_bin_)
                _predictor.apply_binned(*args, out,
                                n_threads if X.n_samples >= _PARALLEL_MIN_PREDICT else 1)
                return out
            X = validated_X(self, X, reset=False, allow_nan=True)
            out = np.empty(X.shape[0], dtype=np.int32)
            if t.has_categorical:
                self.bin_mapper_._check_codes(X)
                X = self.bin_mapper_.category_bins(X)
                _predictor.apply_raw_cat(X, t.feature, t.threshold, t.missing_go_left, t.is_categorical,
                                 t.categories_left, t.children_left, t.children_right, out)
                return out
            args = (X, t.feature, t.threshold, t.missing_go_left, t.children_left,
                    t.children_right)
            _predictor.apply_raw(*args, out, n_threads if X.shape[0] >= _PARALLEL_MIN_PREDICT else 1)
            return out

    @property
    def feature_importances_(self) -> np.ndarray:
        """Normalised total impurity decrease brought by each feature."""
        check_is_fitted(self, "tree_")
        t = self.tree_
        inner = t.feature >= 0
        imp = np.bincount(t.feature[inner], weights=t.gain[inner], minlength=self.n_features_in_)
        total = imp.sum()
        return imp / total if total > 0 else imp

    def get_depth(self) -> int:
        """Depth of the fitted tree."""
        check_is_fitted(self, "tree_")
        return self.tree_.max_depth

    def get_n_leaves(self) -> int:
        """Number of leaves of the fitted tree."""
        check_is_fitted(self, "tree_")
        return self.tree_.n_leaves


def _bounded_values(tot, w, value, g: _Grower, ybar: float, is_reg: bool) -> np.ndarray:
    """A monotone-constrained tree's node values, each within its bounds ``[g.lower,
    g.upper]`` (LightGBM's "basic" method): a regression value ``ybar + S / (W + lam)``
    with ``S / (W + lam)`` clipped (nodes inside their bounds keep their value), a
    two-class node's ``(1 - p, p)`` with its class-1 share ``p`` clipped, so that the
    predicted class and probabilities follow the order of ``p``."""
    lower, upper = np.asarray(g.lower, dtype=np.float64), np.asarray(g.upper, dtype=np.float64)
    if is_reg:
        with np.errstate(divide="ignore", invalid="ignore"):
            v = np.where(w > 0, tot[:, 1] / (w + g.lam), 0.0)
        clipped = np.minimum(np.maximum(v, lower), upper)
        return np.where(clipped != v, clipped + ybar, value)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(w > 0, tot[:, 1] / w, 0.0)
    p = np.minimum(np.maximum(p, lower), upper)
    return np.column_stack([1.0 - p, p])
