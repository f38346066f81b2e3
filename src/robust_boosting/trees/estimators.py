"""The histogram tree estimators: :class:`HistTreeClassifier` and :class:`HistTreeRegressor`."""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.base import ClassifierMixin, RegressorMixin

from .._validation import CLASS_WEIGHT_DOC, ID_COLUMNS_DOC, MONOTONIC_CST_DOC
from ._base import (
    _CRITERIA_CLS,
    _CRITERIA_REG,
    DEFAULT_CAT_L2,
    DEFAULT_MIN_CATEGORY_COUNT,
    _BaseHistTree,
)


class HistTreeClassifier(ClassifierMixin, _BaseHistTree):
    # the docstring is built from shared parts, so it is assigned
    __doc__ = ("""Weighted decision tree on binned data, built for boosting.

    The data are binned once (see :meth:`prepare_data`); each fit builds class
    weight histograms with compiled kernels (parallel over features, histogram
    subtraction, zero-weight samples skipped), so that fitting hundreds of
    trees with different sample weights is cheap.

    Parameters
    ----------
    criterion : {"entropy", "gini"}, default="entropy"
        Impurity: Shannon entropy (C4.5-like information gain) or Gini.
    max_depth : int or None, default=1
        Maximum depth (1 = decision stump, the classical AdaBoost learner);
        None for unlimited.
    max_leaf_nodes : int or None, default=None
        If set, the tree grows best-first (largest impurity decrease first)
        until it has this many leaves.
    min_samples_leaf : int, default=1
        Minimum number of samples with non-zero weight in a leaf.
    min_weight_fraction_leaf : float, default=0.0
        Minimum fraction of the total sample weight in a leaf.
    sample_count : {"exact", "weight"}, default="exact"
        How ``min_samples_leaf`` counts a child's samples. ``"exact"``: its rows
        with non-zero weight (the histograms carry a count per bin).
        ``"weight"``: its weight times the node's rows per unit of weight, as
        LightGBM's ``min_data_in_leaf`` estimates counts from hessians; the
        histograms then carry no count (faster), and rows of small weight (for a
        booster's Newton tree, rows the model already fits well) count as less
        than one row. With unit weights both counts are the same.
    max_bins : int, default=255
        Maximum number of bins per feature when ``fit`` receives raw data
        (ignored for :class:`BinnedData`, which carries its own bins).
    min_category_count : int, default=10
        A category of a categorical column with fewer training rows (of non-zero
        weight) than this shares one bin, "other", with the other rare categories
        before any split is searched, so that a split cannot isolate a handful of
        rows by their category; a column with more than 254 categories of that many
        rows keeps the 254 most frequent and groups the rest (any number of
        categories is taken). 1: every category seen in training has its own bin
        (up to 255). See docs/design/0020.
    n_jobs : int or None, default=None
        Number of threads of the compiled kernels; -1: every core the process may
        use, -2 all but one, ... None chooses: inside a booster, the booster's
        ``n_jobs`` (an explicit ``n_jobs`` here wins over it); alone, one thread per
        500,000 rows x features of the training data, at most every core
        (``OMP_NUM_THREADS`` caps it; design record 0022). Results do not depend on it.
    random_state : None, int or RandomState, default=None
        Accepted for API compatibility; the algorithm is deterministic (ties go
        to the lowest feature, then the lowest bin).
""" + MONOTONIC_CST_DOC + CLASS_WEIGHT_DOC + """    unknown_categories : {"missing", "error"}, default="missing"
        What predict does with a category of a categorical column that no training
        row had: ``"missing"`` treats it as a missing value (the trees' learned
        missing-value branch, as scikit-learn's histogram boosting and LightGBM do);
        ``"error"`` raises a ValueError naming the column, the values and the rows.
""" + ID_COLUMNS_DOC + """
    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        Class labels.
    n_classes_ : int
        Number of classes.
    tree_ : HistTree
        The fitted tree arrays.
    bin_mapper_ : BinMapper
        Bins of the training data.
    feature_importances_ : ndarray of shape (n_features,)
        Normalised impurity decrease per feature.
    n_features_in_ : int
        Number of features seen in fit.
    feature_names_in_ : ndarray of str
        Feature names seen in fit (only if they were all strings).
    feature_schema_ : FeatureSchema
        Kind, dtype and categories of each column seen in fit (not set when fitted on
        :class:`BinnedData`, whose mapper knows the categorical features).

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from robust_boosting import HistTreeClassifier
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> tree = HistTreeClassifier(max_depth=3).fit(X, y)
    >>> tree.get_depth()
    3
    >>> tree.score(X, y) > 0.9
    True
    """)

    _criteria = _CRITERIA_CLS
    _is_reg = False

    __init__ = _BaseHistTree._init_with_defaults(criterion="entropy", max_depth=1)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # a decision stump (the default) cannot separate 3 classes
        tags.classifier_tags.poor_score = True
        return tags

    def predict_proba(self, X: Any) -> np.ndarray:
        """Weighted class fractions of the leaf of each sample, shape (n_samples, n_classes).

        ``X`` is raw data or a :class:`BinnedData`, as for :meth:`apply`.
        """
        leaves = self.apply(X)
        return self.tree_.value.take(leaves, axis=0)

    def predict_log_proba(self, X: Any) -> np.ndarray:
        """Logarithm of :meth:`predict_proba` (``-inf`` for zero probabilities)."""
        proba = self.predict_proba(X)
        with np.errstate(divide="ignore"):
            return np.log(proba)

    def predict(self, X: Any) -> np.ndarray:
        """Majority (largest weight) class of the leaf of each sample (``X`` as for :meth:`apply`)."""
        leaves = self.apply(X)
        leaf_class = np.argmax(self.tree_.value, axis=1)
        return self.classes_.take(leaf_class.take(leaves))


class HistTreeRegressor(RegressorMixin, _BaseHistTree):
    # the docstring is built from shared parts, so it is assigned
    __doc__ = ("""Weighted least-squares decision tree on binned data, built for boosting.

    Used by GentleBoost, LogitBoost and RBoost, which fit a regression tree to
    working responses each round.  Same machinery as
    :class:`HistTreeClassifier`; leaves output the weighted mean target.

    Parameters
    ----------
    criterion : {"squared_error"}, default="squared_error"
        Weighted squared error.
    max_depth : int or None, default=3
        Maximum depth; None for unlimited.
    max_leaf_nodes : int or None, default=None
        If set, best-first growth until this many leaves.
    min_samples_leaf : int, default=1
        Minimum number of samples with non-zero weight in a leaf.
    min_weight_fraction_leaf : float, default=0.0
        Minimum fraction of the total sample weight in a leaf.
    sample_count : {"exact", "weight"}, default="exact"
        How ``min_samples_leaf`` counts a child's samples: its rows, or its
        weight times the node's rows per unit of weight (LightGBM's estimate
        from hessians); see :class:`HistTreeClassifier`.
    l2_regularization : float, default=0.0
        L2 penalty ``λ`` on the leaf values, in rows of the mean training weight
        ``w̄``: a node of weight ``W`` and weighted target sum ``S`` predicts
        ``S / (W + λ w̄)`` and a split is scored by the children's
        ``S² / (W + λ w̄)``. For a boosting step (weights the loss's Hessians,
        targets the Newton responses) these are the leaf values ``-G / (H + λ')``
        and the split gains of XGBoost (Chen & Guestrin 2016, eqs. 5-7) and
        LightGBM, with ``λ' = λ w̄`` (their ``lambda`` counted in rows of average
        Hessian, so the penalty does not depend on how the weights are scaled).
        With ``λ > 0`` the values shrink toward zero, not toward the mean target.
        0 is the plain weighted least-squares tree.
    cat_l2 : float, default=0.0
        The extra L2 penalty of a split of a categorical feature, in rows of the mean
        training weight, as LightGBM's ``cat_l2`` (Ke et al. 2017): its children are
        scored by ``S² / (W + (λ + cat_l2) w̄)`` against the parent's
        ``S² / (W + λ w̄)``, so that a set of categories must gain more than a
        threshold on a numeric feature. 0: no extra penalty (the default: 10, LightGBM's,
        cost the robust default up to 1.6 points, docs/design/0020).
    grow_policy : {"depthwise", "symmetric"}, default="depthwise"
        ``"depthwise"``: depth-first to ``max_depth``, or best-first to
        ``max_leaf_nodes``. ``"symmetric"``: an oblivious tree, CatBoost's default
        (Prokhorenkova et al. 2018; Dorogush et al. 2018): every node of a level is
        split at the same feature and bin, the one with the highest sum over the
        level's nodes of their children's scores ``S² / (W + λ w̄)``, for
        ``max_depth`` levels (an integer; ``max_leaf_nodes`` must be None). A node
        that the level's split cannot divide (an empty child, a child below
        ``min_samples_leaf`` or ``min_weight_fraction_leaf``, or no gain) adds its
        own score and goes on undivided to the next level, where CatBoost would give
        it an empty leaf; ``tree_.depth`` is then each node's level. A categorical
        feature's categories are ranked once, at the root, by their mean response
        ``S / W`` (ties by code; rare and empty categories unranked), and a level
        splits it at a rank: each divided node sends the categories up to that rank
        left, the others right (LightGBM's ordering of a node's categories, Ke et al.
        2017, taken once per tree).
    max_bins : int, default=255
        Maximum number of bins per feature when ``fit`` receives raw data.
    min_category_count : int, default=10
        As for :class:`HistTreeClassifier`.
    n_jobs : int or None, default=None
        Number of threads of the compiled kernels; -1: every core the process may
        use, -2 all but one, ... None chooses: inside a booster, the booster's
        ``n_jobs`` (an explicit ``n_jobs`` here wins over it); alone, one thread per
        500,000 rows x features of the training data, at most every core
        (``OMP_NUM_THREADS`` caps it; design record 0022). Results do not depend on it.
    random_strength : float, default=0.0
        Symmetric trees only: randomise the choice of each level's split, as
        CatBoost's ``random_strength`` (Prokhorenkova et al. 2018): every candidate
        (feature, bin) is scored by its sum of the nodes' children's scores plus
        ``random_strength × σ × ε``, ``σ`` the standard deviation of the level's
        candidate scores and ``ε`` a standard normal value drawn from
        ``random_state``, the level and the candidate (so the tree does not depend
        on ``n_jobs``). 0: the best split (no randomness).
    random_state : None, int or RandomState, default=None
        Seeds the random split scores (``random_strength > 0``); otherwise unused:
        the algorithm is deterministic.
""" + MONOTONIC_CST_DOC + """    unknown_categories : {"missing", "error"}, default="missing"
        What predict does with a category of a categorical column that no training
        row had: ``"missing"`` treats it as a missing value (the trees' learned
        missing-value branch, as scikit-learn's histogram boosting and LightGBM do);
        ``"error"`` raises a ValueError naming the column, the values and the rows.
    id_columns : {"drop", "keep"}, default="drop"
        As for :class:`HistTreeClassifier`.

    Attributes
    ----------
    tree_ : HistTree
        The fitted tree arrays (``value`` has shape (node_count,)).
    bin_mapper_, feature_importances_, n_features_in_, feature_names_in_, feature_schema_
        As for :class:`HistTreeClassifier`.

    Examples
    --------
    >>> import numpy as np
    >>> from robust_boosting import HistTreeRegressor
    >>> X = np.linspace(0, 1, 200).reshape(-1, 1)
    >>> y = np.sin(6 * X[:, 0])
    >>> tree = HistTreeRegressor(max_depth=4).fit(X, y)
    >>> tree.score(X, y) > 0.9
    True
    """)

    _criteria = _CRITERIA_REG
    _is_reg = True

    def __init__(self, *, criterion: str = "squared_error", max_depth: int | None = 3,
                 max_leaf_nodes: int | None = None, min_samples_leaf: int = 1,
                 min_weight_fraction_leaf: float = 0.0, sample_count: str = "exact",
                 l2_regularization: float = 0.0, cat_l2: float = DEFAULT_CAT_L2,
                 grow_policy: str = "depthwise",
                 random_strength: float = 0.0, max_bins: int = 255,
                 min_category_count: int = DEFAULT_MIN_CATEGORY_COUNT,
                 n_jobs: int | None = None, random_state: Any = None,
                 unknown_categories: str = "missing", id_columns: str = "drop",
                 monotonic_cst: Any = None) -> None:
        super().__init__(criterion=criterion, max_depth=max_depth,
                         max_leaf_nodes=max_leaf_nodes, min_samples_leaf=min_samples_leaf,
                         min_weight_fraction_leaf=min_weight_fraction_leaf,
                         sample_count=sample_count, max_bins=max_bins,
                         min_category_count=min_category_count, n_jobs=n_jobs,
                         random_state=random_state, unknown_categories=unknown_categories,
                         id_columns=id_columns, monotonic_cst=monotonic_cst)
        self.l2_regularization = l2_regularization
        self.cat_l2 = cat_l2
        self.grow_policy = grow_policy
        self.random_strength = random_strength

    def predict(self, X: Any) -> np.ndarray:
        """Weighted mean target of the leaf of each sample (``X`` as for :meth:`apply`)."""
        leaves = self.apply(X)
        return self.tree_.value.take(leaves, axis=0)
