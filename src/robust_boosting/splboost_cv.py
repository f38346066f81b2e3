"""SPLBoostClassifierCV: self-paced boosting that cross-validates itself and ranks suspect labels.

The estimator only; its parts live by job:

- :mod:`robust_boosting._cv_search`, the cross-validated search (candidates x folds,
  early stopping, held-out loss curves);
- :mod:`robust_boosting.label_issues`, confident learning on the out-of-fold
  probabilities (Northcutt, Jiang & Chuang 2021);
- :mod:`robust_boosting._auto_rules`, the ``"auto"`` parameters, one record per
  data-size regime.

``fit`` reads as those three steps: search, find the label issues, final fit.
The label-issue functions stay importable from here under their release-0.1.0 names.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import _safe_indexing

from ._auto_rules import (
    PATIENCE,
    REVIEW_MARGIN,
    SHARED_TREES,
    SINGLE_MACHINE,
    Regime,
    RuleSet,
    clean_anchor_threshold,
    regimes,
)
from ._boosting import checked_monotonic_cst, validated_training_data
from ._cv_search import (
    constrained,
    fit_candidates,
    make_booster,
    proba_at,
    results_table,
    search_folds,
    warn_rare_classes,
)
from ._estimator_parts import CLASS_WEIGHT_DOC, MONOTONIC_CST_DOC, SearchedFinalModel
from ._progress import Progress, check_verbose
from ._validation import (
    ID_COLUMNS_DOC,
    _constrains,
    candidate_values,
    check_choice,
    check_number,
    check_optional_int,
    class_weight_sample_weight,
)
from .label_issues import (  # noqa: F401 - the names of release 0.1.0
    anchor_noise_rate,
    calibrated_joint,
    class_sums,
    class_thresholds,
    confident_guess,
    confident_joint,
    estimate_noise_rate,
    final_weights,
    find_label_issues,
    label_retention,
    margin_suspects,
    noise_rate_of,
    prune_counts,
    rare_classes,
)
from .trees.binning import _kernel_threads, data_work

__all__ = ["SPLBoostClassifierCV", "anchor_noise_rate", "confident_joint", "estimate_noise_rate",
           "find_label_issues"]

#: private names of release 0.1.0 that moved, resolved on access (PEP 562): label-issue
#: functions made public in :mod:`robust_boosting.label_issues`, and the search's parts
#: (:mod:`robust_boosting._cv_search`)
_MOVED = {
    "_label_retention": ("label_issues", "label_retention"),
    "_anchor_floors": ("label_issues", "anchor_floors"),
    "_PATIENCE": ("_auto_rules", "PATIENCE"),
    "_SAMPLE_COUNT": ("_auto_rules", "SAMPLE_COUNT"),
    "_clean_anchor_threshold": ("_auto_rules", "clean_anchor_threshold"),
    "_make_booster": ("_cv_search", "make_booster"),
    "_tree_params": ("_cv_search", "tree_params"),
    "_TREE_KEYS": ("_cv_search", "TREE_KEYS"),
    "_staged_proba": ("_cv_search", "staged_proba"),
    "_proba_at": ("_cv_search", "proba_at"),
    "_fit_candidates": ("_cv_search", "fit_candidates"),
    "_PatienceMonitor": ("_cv_search", "_PatienceMonitor"),
}


def __getattr__(name: str):
    if name in _MOVED:
        import importlib

        module, attr = _MOVED[name]
        return getattr(importlib.import_module(f"robust_boosting.{module}"), attr)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class SPLBoostClassifierCV(SearchedFinalModel, ClassifierMixin, BaseEstimator):
    # the docstring is built from shared parts, so it is assigned
    __doc__ = ("""Self-paced LogitBoost of histogram trees, tuned by its own cross-validation.

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
    :class:`~robust_boosting.classical.LogitBoostClassifier`. Multiclass problems
    are boosted natively on the softmax loss.

    ``fit`` has three steps:

    1. **search**: a stratified ``cv``-fold split; every candidate (the product of
       the parameters given as sequences, and of the ``"auto"`` groups below) is
       fitted on every training part for at most its ``n_estimators`` rounds,
       stopping once its held-out loss has not improved for 10 rounds (a candidate
       with a drop fraction: the first fold runs all its rounds, the others at
       most ``2 r + 12``, ``r`` the first fold's best round). The held-out loss
       after each round is the weighted log-loss of the given labels without the
       largest ``trim`` fraction (``trim`` = the largest candidate drop fraction);
       the candidate and round of smallest mean over the folds win;
    2. **label issues**: the winner's out-of-fold probabilities 10 rounds past
       that round (the stopping rule's look-ahead) give
       :attr:`label_issue_scores_` (``1 - P(given label)``), confident learning's
       noise-rate estimate and its suspects ([CL]_, "prune by noise rate",
       :func:`~robust_boosting.label_issues.find_label_issues` with
       ``only_misclassified=False``: the suspects include those the out-of-fold
       model classifies as their given label, which is what a class that lost most
       of its labels looks like). :attr:`label_issues_` also lists, for review, the
       rows whose out-of-fold probability of another class exceeds their label's by
       more than 0.2 (:func:`~robust_boosting.label_issues.margin_suspects`, the
       low-margin rule of [CL]_); they keep their weight in the final fit;
    3. **final fit**: the winner's setting on all the data. With the suspects removed
       (:attr:`remove_label_issues_`) their weights are multiplied by ``label_issue_weight``,
       every weight is divided by the estimated ``P(given label | true class)`` of its label
       (:func:`~robust_boosting.label_issues.label_retention`, as cleanlab's
       ``CleanLearning``), rows of weight 0 are left out (unless a class would lose every
       row), and the model runs its ``n_estimators`` rounds (the held-out loss stopped
       where a model starts to fit the flipped labels, which this one mostly no longer
       sees); with every row kept it runs the search's early-stopped count
       (``docs/design/0028-real-tables.md``).

    **Rare classes.** A class with fewer rows than the search's folds (``cv``) takes
    no part in step 1 or step 2: its out-of-fold probabilities would come from models
    that saw at most one fewer of its rows, and its confident-learning threshold (the
    mean of its rows' probability of it) would be near 0. The search runs on the other
    rows and classes (an int ``cv`` splits them as it would without the class); the
    estimates of step 2 exclude it (``exclude`` of :mod:`~robust_boosting.label_issues`):
    no row is a suspect of being in it, its rows are no suspects, and the
    ``remove_label_issues="auto"`` rule counts the other classes only. Its rows train
    the final model at their given weight, so it predicts the class where its rows lie.
    A UserWarning names each such class and its rows
    (``docs/design/0021-rare-classes.md``).

    The ``"auto"`` parameters grow with the data (``robust_boosting._auto_rules``
    holds them as one record per regime; numeric data: numeric, boolean and categorical
    columns of at most two categories, which split as their codes 0 and 1,
    ``docs/design/0043-two-category-columns.md``):

    - at most 5,000 rows: depth-wise trees of depth 1 and 3, learning rate 0.3, at
      most 100 rounds; on numeric data (``grow_policy``, ``max_depth`` and
      ``max_leaf_nodes`` left to ``"auto"``) joined by one symmetric candidate
      (depth 6, rate 0.2, 300 rounds, an L2 penalty of 10 rows, random split
      scores of strength 1 and shared multiclass trees; with more than two classes
      on at most 2,000 rows rate 0.1 over 600 rounds), the held-out score choosing;
    - above 5,000 rows of numeric data: symmetric (oblivious) trees, one split per
      level as in CatBoost ([CB]_), of depth 6 (8 from 50,000 rows, with one tree
      per class), an L2 penalty of 10 rows, rate 0.2, at most 300 rounds;
    - above 5,000 rows with categorical columns (or ``grow_policy="depthwise"``):
      leaf-wise trees of 31 leaves of at least 20 rows (LightGBM's default tree,
      [LGB]_), an L2 penalty of 100 rows, rate 0.2, at most 300 rounds.

    The measurements behind these rules are in the design records
    (``docs/design/``, indexed in ``docs/design/README.md``).

    Parameters
    ----------
    max_depth : int, None, sequence of them or "auto", default="auto"
        Depth of the regression trees (a sequence: candidates of the search;
        None: no depth limit, with ``max_leaf_nodes``). ``"auto"``: ``(1, 3)``
        on at most 5,000 rows (and 6 for the symmetric candidate); above, with
        symmetric trees 6 (8 from 50,000 rows), and None (leaf-wise) otherwise.
    learning_rate : float, sequence of float or "auto", default="auto"
        Shrinkage of each Newton step (a sequence: candidates of the search).
        ``"auto"``: 0.3 on at most 5,000 rows (0.2 for the symmetric candidate,
        0.1 with more than two classes on at most 2,000 rows), 0.2 above.
    drop_fraction : float or sequence of floats, default=0.0
        Fraction in ``[0, 1)`` of training samples that each self-paced round
        drops (the age read as a quantile of the current losses,
        :class:`~robust_boosting.self_paced.DropFractionRegularizer`); ``0``
        is plain LogitBoost. A sequence: candidates of the search.
    n_estimators : int or "auto", default="auto"
        The most rounds the search tries, and the rounds of the final model when
        it removes the suspects (when it keeps every row: the search's
        early-stopped count). ``"auto"``: 100 on at most 5,000 rows (300 for the
        symmetric candidate, 600 with more than two classes on at most 2,000
        rows), 300 above; each candidate keeps its own.
    max_leaf_nodes : int, None or "auto", default="auto"
        Trees grow best-first (leaf-wise) to at most this many leaves; None:
        depth-first to ``max_depth``. ``"auto"``: 31 for leaf-wise trees above
        5,000 rows, else None.
    min_samples_leaf : int or "auto", default="auto"
        Fewest training rows in a leaf, counted from a child's weight (its Newton
        weight times the node's rows per unit of weight,
        ``HistTreeRegressor(sample_count="weight")``, as LightGBM's
        ``min_data_in_leaf``). ``"auto"``: 20 for leaf-wise trees above 5,000 rows,
        else 1.
    l2_regularization : float, sequence of float or "auto", default="auto"
        L2 penalty on the trees' leaf values (a sequence: candidates of the
        search), counted in training rows of average Newton weight: a leaf of
        gradient sum ``G`` and Hessian sum ``H`` moves the scores by
        ``-G / (H + λ h̄)``, ``h̄`` the mean Hessian of the round, and splits are
        scored with the same denominators ([XGB]_ eqs. 5-7). ``"auto"``: 0 for the
        depth-wise trees of at most 5,000 rows, 10 for symmetric trees, 100 for
        leaf-wise trees above 5,000 rows.
    grow_policy : {"auto", "depthwise", "symmetric"}, default="auto"
        How the regression trees grow (:class:`~robust_boosting.trees.HistTreeRegressor`'s
        ``grow_policy``): ``"depthwise"``, depth-first to ``max_depth`` or
        best-first to ``max_leaf_nodes``; ``"symmetric"``, one split per level
        shared by all the level's nodes, to an integer ``max_depth`` (a categorical
        column split at a rank of its categories, ranked at each tree's root by their
        mean response, ``docs/design/0038-symmetric-categorical-splits.md``).
        ``"auto"``: symmetric above 5,000 rows of numeric data (a categorical column
        of two categories is numeric), else depth-wise; on at most 5,000 rows of
        numeric data, with ``max_depth`` and ``max_leaf_nodes`` left to ``"auto"``,
        the search has both (the symmetric candidate joins the depth-wise ones).
    random_strength : float or "auto", default="auto"
        Random split scores of the symmetric trees (CatBoost's parameter of that
        name): each level's candidate splits are scored with added normal noise of
        this many standard deviations of the level's scores, seeded from
        ``random_state``. It applies to symmetric candidates only. ``"auto"``: 1
        for the symmetric candidate of the small-data search, 0 above 5,000 rows.
    multiclass_trees : {"auto", "per_class", "shared"}, default="auto"
        With more than two classes, how a round's Newton step is grown
        (:class:`~robust_boosting.classical.LogitBoostClassifier`'s
        ``multiclass_trees``): ``"per_class"``, one tree per class; ``"shared"``,
        one symmetric tree whose splits maximise the gain summed over the classes,
        with a value per class in each leaf
        (:class:`~robust_boosting.trees.SharedSymmetricTree`, CatBoost's multiclass
        trees; numeric columns only). It applies to symmetric candidates only.
        ``"auto"``: shared for symmetric trees on fewer than 50,000 rows of numeric data,
        else per class. Ignored for two classes.
    cv : int, cross-validation generator or iterable, default=3
        As in scikit-learn; an int gives a shuffled ``StratifiedKFold`` seeded from
        ``random_state``. Its test folds must hold each row once (else ``ValueError``).
    remove_label_issues : bool or "auto", default="auto"
        Whether the final model down-weights the suspected label errors (and
        reweights the classes, step 3 above); ``False``: the final model is
        fitted on the given weights, for the search's early-stopped rounds.
        ``"auto"``: True above 5,000 rows or when the winner has a drop fraction;
        else True when the labels look noisy, that is when
        :func:`~robust_boosting.label_issues.anchor_noise_rate` of the out-of-fold
        probabilities ([LT]_), divided by ``n_classes - 1``, is at least
        ``0.015 * min(1, (1000 / n) ** 0.8)`` for ``n`` rows (below it, the
        most confident out-of-fold probabilities reach 1 as closely as clean
        labels let them, and leaving the suspects out of a clean data set would
        remove the rows where the classes overlap). The decision is
        :attr:`remove_label_issues_`.
    label_issue_weight : float or pair of floats, default=(0.0, 0.8)
        Factors in ``[0, 1]`` on the sample weights of the count's suspects (step 2; not the
        margin rule's) in the final fit: the first for those that the out-of-fold model
        assigns to another class (the suspects of cleanlab's rule, removed by default), the
        second for those it assigns to their given label (found only by the count). A single
        float applies to both; ``0`` removes.
    n_jobs : int or None, default=None
        Threads of the tree kernels (the candidates without a drop fraction are fitted on every
        fold in one batched pass, and the final model), and joblib workers for the candidates
        with a drop fraction, which are fitted one by one; -1: every core the process may use.
        None chooses the kernels' threads from the data's size: one per 500,000 rows x features,
        at most every core (design record 0022), and one joblib worker. The result does not
        depend on it.
    random_state : int, RandomState or None, default=None
        Seeds the fold split and the weak learners.
""" + MONOTONIC_CST_DOC + CLASS_WEIGHT_DOC + """    unknown_categories : {"missing", "error"}, default="missing"
        What predict does with a category of a categorical column that no training
        row had: ``"missing"`` treats it as a missing value (the trees' learned
        missing-value branch, as scikit-learn's histogram boosting and LightGBM do);
        ``"error"`` raises a ValueError naming the column, the values and the rows.
""" + ID_COLUMNS_DOC + """    verbose : int, default=0
        Progress of the fit as :mod:`logging` records of the logger
        ``"robust_boosting.progress"``: 0 none; 1 ``INFO`` records, a line as each
        stage (search, label issues, final fit) starts and ends, and every few
        seconds its share done and an estimate of its time left; 2 also ``DEBUG``
        records (each search model's stopping round). It sets that logger's level
        for the fit when it has none, and prints on stderr when ``logging`` has no
        handler (:mod:`robust_boosting._progress`). The model does not depend on it.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    best_params_ : dict
        The winner's tree parameters (``max_depth``, ``max_leaf_nodes``,
        ``min_samples_leaf``, ``l2_regularization``, ``grow_policy``,
        ``random_strength``), ``learning_rate``, ``drop_fraction``,
        ``multiclass_trees`` and ``n_estimators`` (the rounds of the final model),
        and its early-stopped number of rounds ``cv_n_estimators``.
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
        ``cv_n_estimators``, ``n_estimators`` (best round),
        ``split{k}_test_score``, ``mean_test_score``, ``std_test_score``,
        ``rank_test_score`` (scores are minus the trimmed held-out log-loss).
    oof_proba_ : ndarray of shape (n_samples, n_classes)
        Out-of-fold class probabilities of the winner after ``oof_n_estimators_`` rounds.
    oof_n_estimators_ : int
        ``min(best_params_["cv_n_estimators"] + 10, best_params_["n_estimators"])``.
    label_issue_scores_ : ndarray of shape (n_samples,)
        ``1 - oof_proba_[i, given label]``: higher means more likely mislabelled.
    noise_rate_ : float
        The share of training labels the out-of-fold model contradicts: the
        off-diagonal share of confident learning's joint
        (:func:`~robust_boosting.label_issues.estimate_noise_rate`), over the rows of
        the classes not in :attr:`rare_classes_`. It estimates the share of wrong
        labels only where the classes separate; where they overlap, it also counts
        correct labels on the minority side of the overlap (on clean labels it can
        read 0.2-0.4), and the training rows alone cannot tell the two apart.
    anchor_noise_rate_ : float
        :func:`~robust_boosting.label_issues.anchor_noise_rate` of ``oof_proba_``:
        how far the most confident out-of-fold probabilities stay below 1.
    remove_label_issues_ : bool
        Whether the final fit left out (or down-weighted) the suspects:
        ``remove_label_issues`` with ``"auto"`` resolved.
    label_issues_ : ndarray of int
        The suspects, whatever ``remove_label_issues``: those of confident learning's
        count (step 2), which the final fit down-weights when
        :attr:`remove_label_issues_`, and the rows whose out-of-fold probability of
        another class exceeds their label's by more than 0.2, listed for review only.
    suggested_labels_ : ndarray of shape (n_samples,)
        For every training sample, the class the out-of-fold model prefers (``classes_[argmax
        oof_proba_[i]]``, in the original label values): the suggested correction of a suspect
        label. It equals the given label where the out-of-fold model agrees with it.
    rare_classes_ : ndarray
        The classes (labels) of fewer rows than the search's folds, left out of the search and
        of the label-issue estimates (empty: none; none either when every class has fewer rows
        than folds).
    excluded_samples_ : ndarray of int
        Training samples the final model down-weighted or ignored: the suspects (when
        :attr:`remove_label_issues_`: the count's, not the margin rule's) and those the
        self-paced weights dropped (for more than
        two classes, dropped by the one-vs-rest model of their own label).
    n_features_in_, feature_names_in_
        As in scikit-learn.

    See Also
    --------
    robust_boosting.label_issues : confident learning on any model's out-of-fold probabilities.
    robust_boosting.dask.DaskSPLBoostClassifierCV : this estimator on a Dask cluster.

    References
    ----------
    .. [SPL] K. Wang, Y. Wang, Q. Zhao, D. Meng, Z. Xu, "SPLBoost: An Improved Robust Boosting
       Algorithm Based on Self-paced Learning", IEEE Trans. Cybernetics, 2019.
    .. [FHT] J. Friedman, T. Hastie, R. Tibshirani, "Additive logistic regression: a
       statistical view of boosting", Annals of Statistics 28(2), 2000.
    .. [CL] C. Northcutt, L. Jiang, I. Chuang, "Confident learning: estimating uncertainty
       in dataset labels", Journal of Artificial Intelligence Research 70, 2021.
    .. [LT] T. Liu, D. Tao, "Classification with noisy labels by importance reweighting",
       IEEE Trans. Pattern Analysis and Machine Intelligence 38(3), 2016.
    .. [XGB] T. Chen, C. Guestrin, "XGBoost: a scalable tree boosting system", KDD 2016.
    .. [CB] L. Prokhorenkova, G. Gusev, A. Vorobev, A. V. Dorogush, A. Gulin,
       "CatBoost: unbiased boosting with categorical features", NeurIPS 2018.
    .. [LGB] G. Ke et al., "LightGBM: a highly efficient gradient boosting decision
       tree", NIPS 2017.

    Examples
    --------
    >>> from robust_boosting import SPLBoostClassifierCV, datasets, noise
    >>> X, y = datasets.load_dataset("wdbc", return_X_y=True)
    >>> y_noisy, flipped = noise.flip_labels(y, 0.2, random_state=0)  # 20 % wrong labels
    >>> clf = SPLBoostClassifierCV(random_state=0).fit(X, y_noisy)
    >>> clf.score(X, y) > 0.9  # accuracy on the true labels
    True
    >>> bool(flipped[clf.label_issues_].mean() > 0.6)  # most suspects were indeed flipped
    True
    """)

    #: ``unknown_categories`` of a model saved by release 0.1.0, which had no such
    #: parameter (its policy is read from its schema; this keeps ``get_params`` working)
    unknown_categories = "missing"
    #: ``id_columns`` of a model saved before it existed (no column was left out)
    id_columns = "keep"
    #: ``verbose``, ``monotonic_cst`` and ``class_weight`` of a model saved before they existed
    verbose = 0
    monotonic_cst = class_weight = None

    def __init__(self, *, max_depth: int | None | Sequence[int | None] | str = "auto",
                 learning_rate: float | Sequence[float] | str = "auto",
                 drop_fraction: float | Sequence[float] = 0.0,
                 n_estimators: int | str = "auto", max_leaf_nodes: int | None | str = "auto",
                 min_samples_leaf: int | str = "auto",
                 l2_regularization: float | Sequence[float] | str = "auto",
                 grow_policy: str = "auto", random_strength: float | str = "auto",
                 multiclass_trees: str = "auto", cv=3,
                 remove_label_issues: bool | str = "auto",
                 label_issue_weight: float | tuple[float, float] = (0.0, 0.8),
                 n_jobs: int | None = None, random_state=None, unknown_categories: str = "missing",
                 id_columns: str = "drop", verbose: int = 0,
                 monotonic_cst: dict | list | None = None, class_weight: dict | str | None = None):
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
        self.unknown_categories = unknown_categories
        self.id_columns = id_columns
        self.verbose = verbose
        self.monotonic_cst = monotonic_cst
        self.class_weight = class_weight

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
        for regime in self._regimes(n, n_classes):
            grow_policy = regime.grow_policy
            strength, trees = regime.random_strength, regime.multiclass_trees
            # random split scores and shared multiclass trees are the symmetric trees' (the
            # other groups' are 0 and one tree per class)
            if grow_policy == "symmetric":
                strength = float(auto(self.random_strength, strength))
                trees = auto(self.multiclass_trees, trees)
                if trees == SHARED_TREES and n_classes > 2 and not self._splits_as_numeric():
                    # shared trees split numeric columns only (docs/design/0038, 0043)
                    if self.multiclass_trees == SHARED_TREES:
                        raise ValueError(
                            "multiclass_trees='shared' splits numeric columns only, and X has "
                            "categorical columns of more than two categories; use "
                            "multiclass_trees='per_class' (or 'auto').")
                    trees = "per_class"
            depths = candidate_values("max_depth", auto(self.max_depth, regime.max_depth),
                               lambda v: check_optional_int("max_depth", v, low=1))
            rates = candidate_values("learning_rate", auto(self.learning_rate, regime.learning_rate),
                              lambda v: check_number("learning_rate", v, low=0))
            l2s = candidate_values("l2_regularization",
                            auto(self.l2_regularization, regime.l2_regularization),
                            lambda v: check_number("l2_regularization", v, low=0,
                                                   low_open=False))
            fractions = candidate_values("drop_fraction", self.drop_fraction, lambda v: check_number(
                "drop_fraction", v, low=0, low_open=False, high=np.nextafter(1.0, 0.0)))
            n_estimators = auto(self.n_estimators, regime.n_estimators)
            check_number("n_estimators", n_estimators, low=1, low_open=False, integer=True)
            leaves = auto(self.max_leaf_nodes, regime.max_leaf_nodes)
            check_optional_int("max_leaf_nodes", leaves, low=2)
            min_leaf = auto(self.min_samples_leaf, regime.min_samples_leaf)
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

    #: the ``"auto"`` rules of the engine (:mod:`robust_boosting._auto_rules`)
    _rules: RuleSet = SINGLE_MACHINE

    def _regimes(self, n: int, n_classes: int = 2) -> list[Regime]:
        """The groups of the search on ``n`` rows (:func:`~robust_boosting._auto_rules.regimes`):
        the regime of the resolved grow policy, joined on at most ``small_n`` rows by the
        symmetric candidate when ``grow_policy``, ``max_depth`` and ``max_leaf_nodes`` are
        left to ``"auto"`` and the data are numeric (:meth:`_splits_as_numeric`)."""
        rules = self._rules
        policy = self._resolved_grow_policy(n)
        join = (n <= rules.small_n and self.grow_policy == "auto"
                and all(isinstance(v, str) and v == "auto"
                        for v in (self.max_depth, self.max_leaf_nodes))
                and self._resolved_grow_policy(rules.small_n + 1) == "symmetric")
        return regimes(rules, n, n_classes, policy, join)

    def _resolved_grow_policy(self, n: int) -> str:
        """``grow_policy`` with ``"auto"`` resolved for ``n`` rows: symmetric trees above
        ``small_n`` rows of numeric data (where the engine has them), else depth-wise (or
        leaf-wise) growth."""
        policy = self.grow_policy
        rules = self._rules
        check_choice("grow_policy", policy, ["auto", "depthwise", "symmetric"])
        # monotone constraints are the depth-wise trees' (symmetric trees take none)
        monotone = _constrains(getattr(self, "monotonic_cst", None))
        if policy == "auto":
            return ("symmetric" if rules.symmetric and n > rules.small_n
                    and self._splits_as_numeric() and not monotone else "depthwise")
        if policy == "symmetric" and monotone:
            raise ValueError("monotonic_cst is not supported with grow_policy='symmetric'; "
                             "use grow_policy='depthwise' (or 'auto').")
        if policy == "symmetric" and not rules.symmetric:
            raise ValueError(f"{type(self).__name__} grows no symmetric trees; use "
                             "grow_policy='depthwise' (or 'auto').")
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
        return (n > self._rules.small_n or drop_fraction > 0
                or (n_classes > 1 and anchor / (n_classes - 1) >= clean_anchor_threshold(n)))

    def _issue_weights(self) -> tuple[float, float]:
        """``label_issue_weight`` as (misclassified suspects, suspects classified as their label)."""
        w = self.label_issue_weight
        pair = tuple(w) if isinstance(w, (list, tuple, np.ndarray)) else (w, w)
        if len(pair) != 2:
            raise ValueError(f"label_issue_weight must be a float or a pair of floats, got {w!r}.")
        for v in pair:
            check_number("label_issue_weight", v, low=0, low_open=False, high=1)
        return float(pair[0]), float(pair[1])

    def _rare_classes(self, y_idx, classes, n_folds: int) -> NDArray[np.intp]:
        """The classes of fewer rows than the search's folds, with a warning naming them
        (:func:`warn_rare_classes`); sets :attr:`rare_classes_`."""
        rare = warn_rare_classes(y_idx, classes, n_folds, stacklevel=4)
        self.rare_classes_ = classes[rare]
        return rare

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
        check_verbose(self.verbose)
        X_in = X
        # class_weight: each row's weight times its class's, in the search (its fits and
        # held-out scores) and the final fit
        sample_weight = class_weight_sample_weight(getattr(self, "class_weight", None), y,
                                                   sample_weight)
        X, classes, y_idx, sw = validated_training_data(self, X, y, sample_weight, allow_nan=True)
        self._search_space(X.shape[0], classes.shape[0])  # the parameters' checks first
        mono = checked_monotonic_cst(self, X, classes.shape[0])
        X_fit, fold_seed, fit_seed = self._fit_data_and_seeds(X_in, X)

        folds = search_folds(self.cv, X, y_idx, fold_seed)
        rare = self._rare_classes(y_idx, classes, len(folds))
        # the search's rows and classes: all but those of the rare classes
        common = np.flatnonzero(~np.isin(y_idx, rare))
        candidates = constrained(self._search_space(common.size, classes.shape[0] - rare.size),
                                 mono)
        # every kernel of the search and the final fit on n_jobs threads, chosen from X's
        # size when None (design record 0022)
        with _kernel_threads(self.n_jobs, data_work(X)) as threads, \
                Progress(self.verbose) as progress:
            progress.stage("search", f"{len(candidates)} candidate(s) x {len(folds)} folds "
                           f"on {X.shape[0]:,} rows x {X.shape[1]} features, {threads} "
                           f"thread(s)")
            winner, oof = self._search((X_fit, X), y_idx, sw, classes.shape[0], candidates,
                                       folds, fit_seed, rare, progress)
            progress.done(f"best candidate {self.best_index_ + 1}: held-out log-loss "
                          f"{-self.best_score_:.4f}, lowest after "
                          f"{self.best_params_['cv_n_estimators']} rounds")
            progress.stage("label issues", "confident learning on the out-of-fold probabilities")
            counted = self._find_label_issues(oof, y_idx, classes, winner, rare)
            progress.done(f"{self.label_issues_.size:,} suspect(s), contradicted labels "
                          f"{self.noise_rate_:.3f}, "
                          f"{'removed' if self.remove_label_issues_ else 'kept'}")
            self._final_fit(X_fit, classes[y_idx], y_idx, sw, oof, winner, fit_seed, counted,
                            rare, progress)
            progress.finished("search, label issues and final fit done")
        return self

    def _search(self, X, y_idx, sw, n_classes, candidates, folds, fit_seed,
                rare=(), progress=None) -> tuple[dict, NDArray]:
        """Step 1: the cross-validated search on ``folds``. Sets the search's attributes;
        returns the winning candidate and its out-of-fold probabilities. ``X``:
        ``(X_fit, X_num)``. The rows of the classes ``rare`` take no part: the search runs
        on the other rows and classes (a class of weight 0 still changes a multiclass
        model, whose Newton step scales by ``(K - 1) / K``), and their out-of-fold
        probabilities are 0 for the rare classes (for a rare row, those of the fold model
        that held it out)."""
        X_fit, X_num = X
        n = X_num.shape[0]
        trim = max(c["drop_fraction"] for c in candidates)
        keep = np.flatnonzero(~np.isin(y_idx, rare))
        cols = np.setdiff1d(np.arange(n_classes), rare)
        if keep.size < n:
            where = np.full(n, -1)
            where[keep] = np.arange(keep.size)
            held = [te for _, te in folds]
            folds = [(where[tr][where[tr] >= 0], where[te][where[te] >= 0]) for tr, te in folds]
            X = (_safe_indexing(X_fit, keep), X_num[keep])
            y_fit, sw = np.searchsorted(cols, y_idx[keep]), sw[keep]
        else:
            y_fit = y_idx
        models, curves = fit_candidates(X, y_fit, sw, folds, candidates, fit_seed,
                                        self.n_jobs, trim, progress=progress)  # (C, F, T)
        best_round = np.argmin(curves.mean(axis=1), axis=1)  # first minimum: fewest rounds
        scores = -curves[np.arange(len(candidates)), :, best_round]  # (C, F)
        best = int(np.argmax(scores.mean(axis=1)))
        p = candidates[best]

        # the out-of-fold probabilities PATIENCE rounds past the best round: the stopping
        # rule has run every fold's model that far (or stopped it: then its last round)
        oof_round = min(int(best_round[best]) + PATIENCE, p["n_estimators"] - 1)
        oof = np.zeros((n, n_classes))
        for f, (_, te) in enumerate(folds):
            te = keep[te] if keep.size < n else te
            if keep.size < n:  # and the rare rows this fold held out
                te = np.union1d(te, np.setdiff1d(held[f], keep))
            oof[np.ix_(te, cols)] = proba_at(models[best][f], X_num[te], oof_round)
        # the fold models are not held through the final fit (at 100,000 rows and 5
        # classes their trees are tens of megabytes): they go with this frame
        self.oof_proba_ = oof
        self.oof_n_estimators_ = oof_round + 1
        self.cv_results_ = self._results_table(candidates, scores, best_round)
        self.best_index_ = best
        self.best_score_ = float(scores[best].mean())
        self.best_params_ = dict(p, cv_n_estimators=int(best_round[best]) + 1)
        return p, oof

    def _find_label_issues(self, oof, y_idx, classes, winner, rare) -> NDArray[np.intp]:
        """Step 2: confident learning on the out-of-fold probabilities, the classes ``rare``
        excluded, and whether the final fit removes the suspects. Returns the count's
        suspects (the final fit's)."""
        n = y_idx.shape[0]
        self.label_issue_scores_ = 1.0 - oof[np.arange(n), y_idx]
        self.noise_rate_ = estimate_noise_rate(oof, y_idx, exclude=rare)
        counted = find_label_issues(oof, y_idx, only_misclassified=False, exclude=rare)
        # the margin rule's rows are listed, not removed (docs/design/0027-annotator-noise.md)
        self.label_issues_ = np.flatnonzero(
            counted | margin_suspects(oof, y_idx, REVIEW_MARGIN, exclude=rare))
        self.suggested_labels_ = classes[np.argmax(oof, axis=1)]
        self.anchor_noise_rate_ = anchor_noise_rate(oof, exclude=rare)
        self.remove_label_issues_ = self._removes(n, classes.shape[0] - rare.size,
                                                  self.anchor_noise_rate_,
                                                  winner["drop_fraction"])
        return np.flatnonzero(counted)

    def _final_fit(self, X_fit, y, y_idx, sw, oof, p, fit_seed, suspects, rare=(),
                   progress=None) -> None:
        """Step 3: the winner's setting on all the data, the ``suspects`` (the count's)
        removed or down-weighted (when :attr:`remove_label_issues_`) and the classes
        reweighted."""
        n, n_classes = y_idx.shape[0], oof.shape[1]
        removed, final_weight = np.empty(0, np.intp), sw
        if self.remove_label_issues_:
            removed = suspects
            final_weight = self._final_weight(sw, oof, y_idx, removed, rare)
            if not final_weight.sum() > 0:  # every weighted sample is a suspect: keep them all
                final_weight, removed = sw, np.empty(0, np.intp)
        # the final model is fitted on the rows it weighs: a row of weight 0 (a removed
        # suspect) would change nothing but its own training scores, computed every round;
        # its bins are those of these rows; every class keeps a row (else all rows)
        kept = np.flatnonzero(final_weight > 0)
        if np.unique(y_idx[kept]).size < n_classes:
            kept = np.arange(n)
        progress = Progress(0) if progress is None else progress
        rounds = self._final_rounds()
        self._fit_final_model(make_booster(p, p["learning_rate"], p["drop_fraction"],
                                           rounds, fit_seed, p["multiclass_trees"]),
                              X_fit, y, final_weight, kept, progress,
                              f"up to {rounds}", self._final_rounds_note())
        self.classes_ = self.best_estimator_.classes_
        dropped = kept[self._self_paced_dropped(y_idx[kept])]
        self.excluded_samples_ = np.union1d(removed, dropped).astype(np.intp)

    def _final_rounds(self) -> int:
        """The final model's rounds (step 3), also set as ``best_params_["n_estimators"]``."""
        if not self.remove_label_issues_:
            self.best_params_["n_estimators"] = self.best_params_["cv_n_estimators"]
        return int(self.best_params_["n_estimators"])

    def _final_rounds_note(self) -> str:
        """Where the final fit's rounds come from (step 3), for its progress record."""
        if not self.remove_label_issues_:
            return ("the search's best round, every row kept: the held-out loss stopped "
                    "improving where the model began to fit wrong or overlapping labels")
        best = self.best_params_["cv_n_estimators"]
        return (f"the winner's n_estimators, not the search's best round ({best}): a held-out "
                "loss on noisy labels stops improving once a model starts to fit the flipped "
                "ones, which the final model, without the suspects, mostly no longer sees")

    def _final_weight(self, sw, oof, y_idx, suspects, rare=()) -> NDArray[np.float64]:
        """The final fit's sample weights: the suspects' multiplied by ``label_issue_weight``,
        then each sample's divided by the estimated ``P(given label | true class)`` of its label
        (1 for the classes ``rare``, which take no part in the estimate)."""
        suspect = np.zeros(y_idx.shape[0], dtype=bool)
        suspect[suspects] = True
        return final_weights(sw, np.argmax(oof, axis=1) == y_idx, suspect,
                             label_retention(confident_joint(oof, y_idx, exclude=rare))[y_idx],
                             self._issue_weights())

    #: the ``cv_results_`` table (:func:`robust_boosting._cv_search.results_table`)
    _results_table = staticmethod(results_table)

    # ----------------------------------------------------------------- predict
    def decision_function(self, X: ArrayLike) -> NDArray[np.float64]:
        """Score of the final model (see :meth:`SPLLogitBoostClassifier.decision_function`)."""
        X = self._check_X(X)
        return self.best_estimator_.decision_function(X)

    def predict(self, X: ArrayLike, *, pred_contrib: bool = False) -> NDArray:
        """Predicted class labels of the final model, or with ``pred_contrib=True`` each
        row's feature contributions to :meth:`decision_function` (see
        :meth:`SPLLogitBoostClassifier.predict`)."""
        X = self._check_X(X)
        return self.best_estimator_.predict(X, pred_contrib=pred_contrib)

    def predict_proba(self, X: ArrayLike) -> NDArray[np.float64]:
        """Class probabilities of the final model."""
        X = self._check_X(X)
        return self.best_estimator_.predict_proba(X)

    def predict_log_proba(self, X: ArrayLike) -> NDArray[np.float64]:
        """Logarithm of :meth:`predict_proba`."""
        X = self._check_X(X)
        return self.best_estimator_.predict_log_proba(X)

    def staged_predict_proba(self, X: ArrayLike) -> Iterator[NDArray[np.float64]]:
        """:meth:`predict_proba` after each round of the final model."""
        X = self._check_X(X)
        return self.best_estimator_.staged_predict_proba(X)
