"""SPLBoostRegressorCV: self-paced regression boosting that cross-validates itself and
lists suspect targets.

The regression counterpart of :class:`~robust_boosting.SPLBoostClassifierCV`, on the same
parts: the search of :mod:`robust_boosting._cv_search` (candidates x folds in batched
passes, early stopping on the held-out loss), raced over the folds by
:mod:`robust_boosting._regression_search`, whose
:class:`~robust_boosting._regression_search.RegressionSearch` says which models it fits and
how it scores them; out-of-fold residuals scaled by a robust spread for the suspects; the
final fit without them.
"""

from __future__ import annotations

import itertools
import numbers
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.model_selection import KFold, check_cv
from sklearn.utils import _safe_indexing

from ._boosting import checked_monotonic_cst, checked_sample_weight, numeric_targets
from ._cv_search import (
    checked_partition,
    constrained,
    fit_candidates,
    raw_at,
    results_table,
)
from ._estimator_parts import SearchedFinalModel
from ._progress import Progress, check_verbose
from ._regression_search import (
    RACE_KEEP,
    REFIT_PATIENCE,
    REGRESSION_SEARCH,
    SEARCH_RATE,
    SYMMETRIC_DEPTH,
    _check_loss,
    _plain,
    final_rounds,
    held_out_loss,
    keeps_long_tail,
    long_tail,
    make_regressor,
    raced_candidates,
    read_residuals,
    refit_folds,
    removes,
    scaled_residuals,
    tail_race,
)
from ._validation import (
    MONOTONIC_CST_DOC,
    _constrains,
    candidate_values,
    check_choice,
    check_number,
    check_optional_int,
    validated_X,
)
from .trees.binning import _kernel_threads, data_work

__all__ = ["SPLBoostRegressorCV", "held_out_loss", "scaled_residuals"]


class SPLBoostRegressorCV(SearchedFinalModel, RegressorMixin, BaseEstimator):
    # the docstring is built from shared parts, so it is assigned
    __doc__ = ("""Self-paced gradient boosting of real targets, tuned by its own cross-validation,
    with a list of suspect targets.

    The regression counterpart of :class:`~robust_boosting.SPLBoostClassifierCV`, with
    no tuning: ``fit`` chooses the tree depth, the self-paced age and the number of
    rounds of :class:`~robust_boosting.SPLBoostRegressor` ([SPL]_ with the squared loss,
    as the paper's conclusion proposes for L2Boost) by cross-validation on the (possibly
    wrong) targets, ranks every training row by how far its target lies from its
    out-of-fold prediction, and fits the chosen model on all the rows without the
    suspects. It is the recipe of cleanlab's regression ``CleanLearning``
    (out-of-fold residuals of a model, the rows of largest residual left out of the final
    fit; the confident-learning idea of [CL]_ carried to real targets), with a robust
    scale in place of a searched fraction of rows and self-paced boosting as the model.

    ``fit`` has three steps:

    1. **search**: a shuffled ``cv``-fold split; every candidate (the product of
       ``max_depth``, ``loss`` and ``age``: 8 by default) is fitted on the first
       training part at twice ``learning_rate`` for at most ``n_estimators`` rounds
       (``docs/design/0033-regression-rate.md``), all at once on the data binned
       once, stopping once its held-out loss has not improved for 10 rounds. The
       held-out loss is :func:`held_out_loss`, the mean squared residual with each square
       truncated at ``(3 s)²``, ``s`` the robust spread of the held-out residuals: a
       wrong held-out target costs a bounded amount, so the search ranks the models on
       the rest. The search is a race: only the 2 candidates of least held-out loss on
       that first fold, and the plain candidate (``age=inf``, the squared loss) of least
       loss, are fitted on the other folds (``docs/design/0031-regression-race.md``).
       Of those, the candidate and round of smallest mean over the folds win. With
       ``remove_label_issues="auto"`` the plain candidates run first, and the others
       only when the best plain one's residuals are not a long tail of true targets
       (see ``remove_label_issues``);
    2. **suspects**: the winner's out-of-fold predictions at its best round give the
       residuals ``r_i = y_i - oof_i``; :attr:`label_issue_scores_` is ``|r_i| / s``,
       ``s`` the robust spread of the residuals (``1.4826 ×`` their weighted median
       absolute deviation, as :class:`~robust_boosting.SPLBoostRegressor` scales its
       losses), and the suspects are the rows whose score exceeds
       ``label_issue_threshold`` (``docs/design/0025-regression-suspects.md``);
    3. **final fit**: the winner's setting on all the rows, the suspects' weights
       multiplied by ``label_issue_weight`` (0: left out) when ``remove_label_issues``
       (``"auto"``: when they are more than 2 % of the rows, unless their targets are a
       long tail that the features predict: see ``remove_label_issues``).
       With suspects, its number of rounds is first cross-validated again on those
       weights, on the first two of the same folds, each model stopping after 20 rounds
       without improvement (:attr:`refit_params_`;
       ``docs/design/0034-refit-folds.md``): the search's rounds on the
       wrong targets stop too early for a model that no longer sees them. It is then
       plain gradient boosting, age ``inf`` with the squared loss (the suspects are out:
       the self-paced weights would leave out more true targets, and Huber's clipped
       gradients barely move the fit of a group of true targets far from the rest), or,
       when the suspects are down-weighted (``label_issue_weight > 0``), the better of
       the winner and plain boosting (``docs/design/0032-plain-refit.md``,
       ``docs/design/0035-squared-refit.md``). Without suspects the final model is the
       winner with its cross-validated number of rounds. The final model boosts at
       ``learning_rate``, half the searches' rate, for twice the rounds they chose,
       times the ratio of all the rows to a search model's training rows (3/2 with three
       folds, at most 2; ``docs/design/0041-final-rounds.md``).

    Parameters
    ----------
    max_depth : int or sequence of int, default=(3, 6)
        Depth of the regression trees; a sequence: the search's candidates.
    age : float or sequence of float, default=(4.5, inf)
        Self-paced age of :class:`~robust_boosting.SPLBoostRegressor` (a row is left out
        of a round once ``½ (r / s)² >= age``; ``inf``: plain gradient boosting); a
        sequence: the search's candidates.
    n_estimators : int, default=500
        The most rounds a search model runs (each stops early); the final model runs
        at most four times as many (twice, times the rows' ratio, 3/2 with three folds).
    learning_rate : float, default=0.1
        Shrinkage of each round of the final model; the searches' models boost at
        twice this rate (:attr:`best_params_`), and the final model runs twice the rounds
        they chose, times the ratio of all the rows to a search model's training rows
        (:attr:`refit_params_`).
    loss : {"squared_error", "huber"} or sequence of them, default=("squared_error", "huber")
        The boosted loss (:class:`~robust_boosting.SPLBoostRegressor`'s); a sequence: the
        search's candidates. Huber's loss starts at the median and clips each gradient,
        so that a few targets off by orders of magnitude (a unit error) cannot carry the
        first rounds; the squared loss is the better model of clean targets
        (``docs/design/0025-regression-suspects.md``).
    min_samples_leaf : int, default=10
        Fewest training rows in a leaf of a depth-wise tree (10 rather than LightGBM's
        20: finer leaves fit clean real targets better,
        ``docs/design/0036-regression-leaves.md``).
    grow_policy : {"auto", "depthwise"}, default="auto"
        How the trees grow. ``"depthwise"``: every candidate's trees split each node on
        its own best split. ``"auto"``: without monotone constraints, the plain
        candidates (``age=inf``, the squared loss) of depth 3 or more (both of the
        default depths) grow symmetric trees instead (CatBoost's oblivious trees [CB]_:
        one split for a whole level, leaves of any size), which fit targets close to a
        smooth function of a few columns better
        (``docs/design/0037-symmetric-regression-trees.md``,
        ``docs/design/0039-symmetric-depth-three.md``); a categorical column's
        categories are ranked once per tree by their mean residual and split at a rank
        (``docs/design/0038-symmetric-categorical-splits.md``). Every other candidate
        grows depth-wise. ``cv_results_`` and ``best_params_`` show each candidate's
        ``grow_policy``.
    l2_regularization : float, default=0.0
        L2 penalty on the leaf values, in rows (:class:`~robust_boosting.trees.HistTreeRegressor`).
    cv : int, cross-validation generator or iterable, default=3
        As in scikit-learn; an int gives a shuffled ``KFold`` seeded from ``random_state``.
        Its test folds must hold every row exactly once (a partition, as
        ``cross_val_predict`` needs; else ``ValueError``): each row's out-of-fold
        prediction comes from the one model that held it out.
    label_issue_threshold : float, default=3.0
        A row is a suspect when its :attr:`label_issue_scores_` (its out-of-fold
        residual in robust standard deviations) exceeds this.
    remove_label_issues : bool or "auto", default="auto"
        Whether the final fit multiplies the suspects' weights by ``label_issue_weight``.
        ``"auto"``: when the suspects hold more than 2 % of the weight (normal errors put
        0.27 % of the rows beyond 3 standard deviations; on clean targets the suspects are
        rows of large but true error, which the model should fit), unless the
        out-of-fold predictions of the best plain candidate (``age=inf``, the squared
        loss) explain at least a quarter of the spread of the suspects' targets
        (:attr:`suspects_r2_` >= 0.25). Such suspects are a long tail of true targets
        (prices, sales, incomes): a wrong target is not predicted by its row's features.
        The final model is then a plain candidate and its rounds, chosen by their held-out
        mean squared error (untruncated: the tail's errors count in full) on every row,
        as a race: the plain candidate of least error on the first fold, and its round of
        least mean error over the first two of the same folds (as the refit search). The
        search's plain models on those folds run on for it until that error has not
        improved for 20 rounds, where their held-out rows read a long tail
        (``docs/design/0048-tail-race.md``).
        With ``"auto"`` the search's plain candidates run first: when the best one's
        out-of-fold predictions, taken as the winner's, already give such a long tail,
        the final model is settled, and the other candidates are not fitted (their
        ``cv_results_`` scores are NaN; ``docs/design/0047-long-tail-first.md``).
    label_issue_weight : float in [0, 1], default=0.0
        The suspects' weight factor in the final fit (0: left out).
    n_jobs : int or None, default=None
        Threads of the tree kernels (None: chosen from the data's size). The model does
        not depend on it.
    random_state : int, RandomState or None, default=None
        Seeds the folds and the models.
""" + MONOTONIC_CST_DOC + """    unknown_categories : {"missing", "error"}, default="missing"
        What predict does with a category no training row had (see
        :class:`~robust_boosting.SPLBoostRegressor`).
    id_columns : {"drop", "keep"}, default="drop"
        What fit does with an identifier column (see
        :class:`~robust_boosting.SPLBoostRegressor`).
    verbose : int, default=0
        Progress of the fit as :mod:`logging` records of ``"robust_boosting.progress"``,
        as for :class:`~robust_boosting.SPLBoostClassifierCV`.

    Attributes
    ----------
    best_params_ : dict
        The winner's ``max_depth``, ``age``, ``learning_rate`` (the search's: twice
        ``learning_rate``), ``loss``, ``min_samples_leaf``, ``l2_regularization`` and its
        cross-validated number of rounds ``n_estimators`` at that rate.
    best_score_ : float
        Minus the winner's mean held-out loss (higher is better).
    best_index_ : int
        Index of the winner in ``cv_results_``.
    best_estimator_ : SPLBoostRegressor
        The final model, fitted on all the rows (the suspects left out or down-weighted),
        with ``refit_params_``.
    refit_params_ : dict
        The final model's setting: ``best_params_``, or, when suspects were removed or
        down-weighted, its rounds as plain boosting (age ``inf``, the squared loss, the
        plain candidates' trees; down-weighted: or the winner's age, loss and trees)
        searched again on the final weights, or, when ``"auto"`` kept a long tail of
        suspects, the plain candidate and rounds of the long-tail race; then at
        ``learning_rate`` (half
        the search's) with twice those rounds times the ratio of all the rows to a search
        model's training rows.
    cv_results_ : dict of ndarrays
        One entry per candidate, as in ``GridSearchCV``: ``params``, ``param_<name>``,
        ``n_estimators`` (best round), ``split{k}_test_score``, ``mean_test_score``,
        ``std_test_score``, ``rank_test_score`` (minus the held-out loss). A candidate
        the race left after the first fold has NaN scores on the other folds, NaN mean
        and spread, its best round on the first fold, and ranks after the others (among
        them by its first fold's score). A candidate a long tail left unfitted (see
        ``remove_label_issues``) has NaN scores, 0 rounds, and ranks last.
    oof_predictions_ : ndarray of shape (n_samples,)
        The winner's out-of-fold predictions at its best round.
    suggested_targets_ : ndarray of shape (n_samples,)
        The suggested value of every row's target: its out-of-fold prediction.
    residual_scale_ : float
        The robust spread ``s`` of the out-of-fold residuals.
    label_issue_scores_ : ndarray of shape (n_samples,)
        ``|y_i - oof_i| / s``, the out-of-fold residual in robust standard deviations
        (not bounded: higher means more likely wrong).
    label_issues_ : ndarray of int
        The suspects, sorted row indices: the rows of score above
        ``label_issue_threshold``.
    suspects_r2_ : float
        The share of the spread of the suspects' targets that the best plain candidate's
        out-of-fold predictions explain (``1 - Σ (y - oof)² / Σ (y - ȳ)²`` over the
        suspects, by weight; NaN with fewer than two suspects or no plain candidate).
        Near 0 or below when the suspects' targets are wrong; high when they are a long
        tail that the features predict.
    remove_label_issues_ : bool
        Whether the final fit removed (or down-weighted) the suspects:
        ``remove_label_issues`` with ``"auto"`` resolved.
    excluded_samples_ : ndarray of int
        The rows the final model left out or down-weighted: the suspects (when
        ``remove_label_issues_``) and those its self-paced weights left out of its last
        round.
    n_features_in_, feature_names_in_, feature_schema_
        As in scikit-learn.

    See Also
    --------
    robust_boosting.SPLBoostRegressor : the model, with its parameters set by hand.
    robust_boosting.SPLBoostClassifierCV : the robust default for class labels.

    References
    ----------
    .. [SPL] K. Wang, Y. Wang, Q. Zhao, D. Meng, Z. Xu, "SPLBoost: An Improved Robust Boosting
       Algorithm Based on Self-paced Learning", IEEE Trans. Cybernetics, 2019.
    .. [CL] C. Northcutt, L. Jiang, I. Chuang, "Confident learning: estimating uncertainty
       in dataset labels", Journal of Artificial Intelligence Research 70, 2021.
    .. [CB] L. Prokhorenkova, G. Gusev, A. Vorobev, A. V. Dorogush, A. Gulin,
       "CatBoost: unbiased boosting with categorical features", NeurIPS 2018.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.datasets import make_friedman1
    >>> from robust_boosting import SPLBoostRegressorCV
    >>> X, y = make_friedman1(n_samples=1000, noise=0.5, random_state=0)
    >>> rng = np.random.default_rng(0)
    >>> wrong = rng.choice(1000, size=200, replace=False)  # 20 % wrong targets
    >>> y_noisy = y.copy()
    >>> y_noisy[wrong] += rng.choice([-1, 1], size=200) * 20.0
    >>> reg = SPLBoostRegressorCV(random_state=0).fit(X, y_noisy)
    >>> bool(np.isin(wrong, reg.label_issues_).mean() > 0.9)  # most wrong rows are found
    True
    >>> bool(np.sqrt(np.mean((reg.predict(X) - y) ** 2)) < 1.5)  # RMSE on the true targets
    True
    """)

    def __init__(self, *, max_depth: int | Sequence[int] = (3, 6),
                 age: float | Sequence[float] = (4.5, np.inf), n_estimators: int = 500,
                 learning_rate: float = 0.1,
                 loss: str | Sequence[str] = ("squared_error", "huber"),
                 min_samples_leaf: int = 10, grow_policy: str = "auto",
                 l2_regularization: float = 0.0, cv=3,
                 label_issue_threshold: float = 3.0, remove_label_issues: bool | str = "auto",
                 label_issue_weight: float = 0.0, n_jobs: int | None = None,
                 random_state=None, unknown_categories: str = "missing",
                 id_columns: str = "drop", verbose: int = 0,
                 monotonic_cst: dict | list | None = None):
        self.max_depth = max_depth
        self.age = age
        self.n_estimators = n_estimators
        self.learning_rate = learning_rate
        self.loss = loss
        self.min_samples_leaf = min_samples_leaf
        self.grow_policy = grow_policy
        self.l2_regularization = l2_regularization
        self.cv = cv
        self.label_issue_threshold = label_issue_threshold
        self.remove_label_issues = remove_label_issues
        self.label_issue_weight = label_issue_weight
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.unknown_categories = unknown_categories
        self.id_columns = id_columns
        self.verbose = verbose
        self.monotonic_cst = monotonic_cst

    # ------------------------------------------------------------------ params
    def _search_space(self) -> list[dict]:
        """The candidates (the product of ``max_depth``, ``loss`` and ``age``), every
        parameter checked."""
        depths = candidate_values("max_depth", self.max_depth,
                           lambda v: check_optional_int("max_depth", v, low=1))
        ages = candidate_values("age", self.age,
                         lambda v: check_number("age", v, low=0, allow_inf=True))
        if None in depths:
            raise ValueError("max_depth must be integers >= 1, got None.")
        check_number("n_estimators", self.n_estimators, low=1, low_open=False, integer=True)
        check_number("learning_rate", self.learning_rate, low=0)
        losses = candidate_values("loss", self.loss, _check_loss)
        check_number("min_samples_leaf", self.min_samples_leaf, low=1, low_open=False,
                     integer=True)
        check_number("l2_regularization", self.l2_regularization, low=0, low_open=False)
        check_number("label_issue_threshold", self.label_issue_threshold, low=0)
        check_number("label_issue_weight", self.label_issue_weight, low=0, low_open=False,
                     high=1)
        value = self.remove_label_issues
        if not (isinstance(value, (bool, np.bool_)) or (isinstance(value, str)
                                                         and value == "auto")):
            raise ValueError(f"remove_label_issues must be a bool or 'auto', got {value!r}.")
        candidates = []
        for d, loss, a in itertools.product(depths, losses, ages):
            c = dict(max_depth=int(d), age=float(a),
                     learning_rate=SEARCH_RATE * float(self.learning_rate),
                     loss=loss, min_samples_leaf=int(self.min_samples_leaf),
                     l2_regularization=float(self.l2_regularization),
                     grow_policy="depthwise", n_estimators=int(self.n_estimators))
            if c not in candidates:
                candidates.append(c)
        return candidates

    def _shaped(self, candidates: list[dict], mono) -> list[dict]:
        """``candidates`` with ``grow_policy`` resolved: with ``"auto"``, the plain ones
        (:func:`_plain`) of depth :data:`SYMMETRIC_DEPTH` or more grow symmetric trees with
        leaves of any size, on data without monotone constraints ``mono``
        (docs/design/0037-symmetric-regression-trees.md,
        docs/design/0038-symmetric-categorical-splits.md)."""
        check_choice("grow_policy", self.grow_policy, ["auto", "depthwise"])
        if self.grow_policy == "depthwise" or _constrains(mono):
            return candidates
        plain = _plain(candidates)
        return [dict(c, grow_policy="symmetric", min_samples_leaf=1)
                if c["max_depth"] >= SYMMETRIC_DEPTH and i in plain else c
                for i, c in enumerate(candidates)]

    def _as_plain(self, candidate: dict) -> dict:
        """``candidate`` as plain boosting (``age=inf``, the squared loss) with the trees of
        the search's plain candidates (:meth:`_shaped`)."""
        plain = dict(candidate, age=np.inf, loss="squared_error", grow_policy="depthwise",
                     min_samples_leaf=int(self.min_samples_leaf))
        return self._shaped([plain], plain.get("monotonic_cst"))[0]

    def _folds(self, X, y, seed: int) -> list:
        cv = self.cv
        if cv is None or isinstance(cv, numbers.Integral):
            n_splits = 3 if cv is None else int(cv)
            if isinstance(cv, bool) or n_splits < 2:
                raise ValueError(f"cv must be an integer >= 2, a splitter or an iterable, "
                                 f"got {cv!r}.")
            if n_splits > y.shape[0]:
                raise ValueError(f"cv={n_splits} folds need at least {n_splits} samples; "
                                 f"got n_samples={y.shape[0]}.")
            cv = KFold(n_splits, shuffle=True, random_state=seed)
        else:
            cv = check_cv(cv, y, classifier=False)
        folds = [(np.asarray(tr), np.asarray(te)) for tr, te in cv.split(X, y)]
        return checked_partition(folds, y.shape[0])

    # --------------------------------------------------------------------- fit
    def fit(self, X: ArrayLike, y: ArrayLike, sample_weight: ArrayLike | None = None):
        """Cross-validate the candidates, find the suspect targets, fit the final model.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features) or DataFrame
            Training data; NaN means missing; a DataFrame may have boolean and
            categorical columns.
        y : array-like of shape (n_samples,)
            Real targets, possibly some wrong.
        sample_weight : array-like of shape (n_samples,), optional
            Non-negative weights, used by every fit, the held-out losses and the
            residuals' spread.

        Returns
        -------
        self
        """
        check_verbose(self.verbose)
        X_in = X
        X, y = validated_X(self, X, y, reset=True, allow_nan=True, allow_inf=False)
        y = numeric_targets(y)
        sw = checked_sample_weight(sample_weight, X)
        mono = checked_monotonic_cst(self, X, 0)
        candidates = self._shaped(constrained(self._search_space(), mono), mono)
        X_fit, fold_seed, fit_seed = self._fit_data_and_seeds(X_in, X)
        folds = self._folds(X, y, fold_seed)
        with _kernel_threads(self.n_jobs, data_work(X)) as threads, \
                Progress(self.verbose) as progress:
            progress.stage("search", f"{len(candidates)} candidate(s) on the first of "
                           f"{len(folds)} folds, the best {RACE_KEEP} and the best plain one "
                           f"on the others, on {X.shape[0]:,} rows x {X.shape[1]} features, "
                           f"{threads} thread(s)")
            race: dict = {"tail": {}, "binned": {}}  # what the long-tail search reuses
            winner, plain_oof = self._search((X_fit, X), y, sw, candidates, folds, fit_seed,
                                             progress, race)
            fitted = int(np.isfinite(self.cv_results_["split0_test_score"]).sum())
            progress.done(f"best candidate {self.best_index_ + 1}: held-out loss "
                          f"{-self.best_score_:.4g}, lowest after "
                          f"{self.best_params_['n_estimators']} rounds"
                          + ("" if fitted == len(candidates) else
                             f"; the plain candidates' residuals are a long tail of true "
                             f"targets, so the other {len(candidates) - fitted} candidates "
                             f"were not fitted"))
            (self.label_issue_scores_, self.residual_scale_, self.label_issues_,
             self.suspects_r2_) = read_residuals(y, self.oof_predictions_, plain_oof, sw,
                                                 self.label_issue_threshold)
            self.suggested_targets_ = self.oof_predictions_.copy()
            s = self.label_issues_
            progress.stage("suspects", f"{s.size:,} suspect(s), their targets "
                           f"{self.suspects_r2_:.2f} explained by the plain model")
            progress.done()
            self._final_fit((X_fit, X), y, sw, winner, folds, fit_seed, progress, candidates,
                            race)
            progress.finished("search, suspects and final fit done")
        return self

    def _search(self, X, y, sw, candidates, folds, fit_seed, progress, race):
        """Step 1; sets the search's attributes and the out-of-fold predictions. Returns
        the winner's parameters and the out-of-fold predictions of the best plain
        candidate (``age=inf``, the squared loss; None without one). ``race`` (a dict):
        its ``"tail"`` and ``"binned"`` are filled for :func:`tail_race`."""
        X_num = X[1]
        oofs: dict = {}  # (candidate, round): its out-of-fold predictions

        def oof_at(c, fold_models, best_round):
            if (c, best_round) not in oofs:
                oof = np.zeros(y.shape[0])
                for f, (_, te) in enumerate(folds):
                    oof[te] = raw_at(fold_models[f], X_num[te], best_round)
                oofs[c, best_round] = oof
            return oofs[c, best_round]

        def reads_tail(pred, y_part, w_part):  # predictions whose residuals: a long tail
            return long_tail(y_part, pred, w_part, self.label_issue_threshold)

        def settled(c, fold_models, curves):  # a plain candidate's out-of-fold predictions
            oof = oof_at(c, fold_models, int(np.argmin(curves.mean(axis=0))))
            return reads_tail(oof, y, sw)

        def promising(c, model, curve):  # the same on the first fold's held-out rows
            te = folds[0][1]
            return reads_tail(raw_at(model, X_num[te], int(np.argmin(curve))), y[te], sw[te])

        auto = isinstance(self.remove_label_issues, str)
        models, curves = raced_candidates(X, y, sw, folds, candidates, fit_seed, self.n_jobs,
                                          progress, settled=settled if auto else None,
                                          promising=promising if auto else None,
                                          tail=race["tail"], binned=race["binned"],
                                          reads_tail=reads_tail)
        # (C, F, T), NaN: raced out of a fold, or never fitted
        alive = ~np.isnan(curves[:, :, 0]).any(axis=1)  # fitted on every fold
        # first minimum (fewest rounds) of the mean curve; a raced-out candidate's: of
        # its first fold's; -1 for a candidate never fitted
        first = np.where(np.isnan(curves[:, 0]), np.inf, curves[:, 0])
        best_round = np.argmin(np.where(alive[:, None], curves.mean(axis=1), first), axis=1)
        best_round[np.isnan(curves[:, 0, 0])] = -1
        scores = -curves[np.arange(len(candidates)), :, best_round]  # (C, F)
        scores[best_round < 0] = np.nan
        best = int(np.argmax(np.where(alive, scores.mean(axis=1), -np.inf)))

        def oof_of(c):
            return oof_at(c, models[c], int(best_round[c]))

        self.oof_predictions_ = oof_of(best)
        plain = [c for c in _plain(candidates) if alive[c]]
        plain_oof = (None if not plain else self.oof_predictions_ if best in plain
                     else oof_of(max(plain, key=lambda c: scores[c].mean())))
        self.cv_results_ = self._results_table(candidates, scores, best_round)
        self.best_index_ = best
        self.best_score_ = float(scores[best].mean())
        self.best_params_ = dict(candidates[best], n_estimators=int(best_round[best]) + 1)
        return self.best_params_, plain_oof

    @staticmethod
    def _results_table(candidates, scores, best_round) -> dict:
        """``cv_results_`` (:func:`robust_boosting._cv_search.results_table`)."""
        return results_table(candidates, scores, best_round,
                             tuple(k for k in candidates[0] if k != "monotonic_cst"))

    def _final_fit(self, X, y, sw, p, folds, fit_seed, progress, candidates, race) -> None:
        """Step 3: the winner on all the rows, the suspects' weights multiplied by
        ``label_issue_weight`` when ``remove_label_issues``; then its rounds are searched
        again on those weights as plain boosting (and as the winner, the suspects
        down-weighted) (:meth:`_refit_search`). With ``"auto"`` and
        suspects whose targets are a long tail (:data:`TAIL_R2`), the plain candidates
        are raced again on every row under the mean squared error instead, on the curves
        the search kept (:func:`tail_race`)."""
        X_fit = X[0]
        weight, removed = sw, np.empty(0, np.intp)
        remove = self.remove_label_issues
        tail = False
        if isinstance(remove, str):  # "auto": when more suspects than clean targets give
            tail = keeps_long_tail(self.label_issues_, self.suspects_r2_, sw)
            remove = not tail and removes(self.label_issues_, sw)
        self.remove_label_issues_ = bool(remove)
        if self.remove_label_issues_ and self.label_issues_.size:
            weight = sw.copy()
            weight[self.label_issues_] *= self.label_issue_weight
            removed = self.label_issues_
            if not weight.sum() > 0:  # every weighted row is a suspect: keep them all
                weight, removed = sw, np.empty(0, np.intp)
        kept = np.flatnonzero(weight > 0)
        why = "the winner's best round in the search"
        if tail:
            progress.stage("long-tail search", "the plain candidates' held-out squared "
                           "errors on the first fold, the best one's on "
                           f"{len(refit_folds(folds, kept.size))} fold(s)")
            p = tail_race(X, y, weight, folds, candidates, race["tail"], fit_seed,
                          self.n_jobs, progress, race["binned"])
            progress.done()
            why = (f"the plain candidates' race under the mean squared error: the "
                   f"suspects' targets are {self.suspects_r2_:.2f} explained by the "
                   f"features, a long tail rather than wrong targets")
        elif removed.size:
            # plain boosting once the suspects are out: the winner's finite age chose
            # worse on both real and synthetic tables (docs/design/0032-plain-refit.md),
            # Huber's clipped gradients left groups of true targets far from the rest
            # unfitted (docs/design/0035-squared-refit.md), and its trees are the plain
            # candidates' (docs/design/0040-symmetric-refit.md)
            base = dict(p, n_estimators=int(self.n_estimators))
            plain = self._as_plain(base)
            p = self._refit_search(
                X, y, weight,
                [plain] if self.label_issue_weight == 0 or base == plain else [base, plain],
                folds, kept, fit_seed, progress)
            why = (f"the refit search's best round on the rows without the suspects, not "
                   f"the search's ({self.best_params_['n_estimators']}), which stops too "
                   f"early for a model that no longer sees their wrong targets")
        # the searches' rounds at their rate, run at half of it twice over
        # (docs/design/0033-regression-rate.md), and for the final model's more rows
        # (docs/design/0041-final-rounds.md)
        searched = p["n_estimators"]
        p = dict(p, learning_rate=p["learning_rate"] / SEARCH_RATE,
                 n_estimators=final_rounds(searched, folds, y.shape[0]))
        self.refit_params_ = p
        self._fit_final_model(make_regressor(p, p["n_estimators"], fit_seed), X_fit, y, weight,
                              kept, progress, str(p["n_estimators"]),
                              f"{why} ({searched} rounds at twice the rate), twice over and "
                              f"scaled to all the rows")
        dropped = kept[self.best_estimator_.excluded_samples_]
        self.excluded_samples_ = np.union1d(removed, dropped).astype(np.intp)

    def _refit_search(self, X, y, weight, candidates, folds, kept, fit_seed,
                      progress) -> dict:
        """The final fit's setting and rounds, cross-validated on the rows it keeps at
        their final weights (the first ``REFIT_FOLDS`` of the same folds, the suspects'
        rows out of them; the first fold only from ``REFIT_ONE_FOLD_ROWS`` kept rows),
        each candidate stopping after ``REFIT_PATIENCE`` rounds without improvement.
        Without the suspects the candidate is the winner as plain boosting, age ``inf``
        with the squared loss and the plain candidates' trees (:meth:`_as_plain`;
        down-weighted suspects: also the winner itself): the search's rounds on the
        noisy targets stop where the held-out loss has stopped improving on the rows the
        final model no longer sees (``docs/design/0025-regression-suspects.md``)."""
        X_fit, X_num = X
        where = np.full(y.shape[0], -1)
        where[kept] = np.arange(kept.size)
        folds = [(where[tr][where[tr] >= 0], where[te][where[te] >= 0]) for tr, te in folds]
        folds = refit_folds(folds, kept.size)
        progress.stage("refit search", f"{len(candidates)} candidate(s) x {len(folds)} fold(s) "
                       f"on {kept.size:,} rows")
        _, curves = fit_candidates((_safe_indexing(X_fit, kept), X_num[kept]), y[kept],
                                   weight[kept], folds, candidates, fit_seed, self.n_jobs,
                                   0.0, patience=REFIT_PATIENCE, progress=progress,
                                   search=REGRESSION_SEARCH)
        best_round = np.argmin(curves.mean(axis=1), axis=1)
        losses = curves[np.arange(len(candidates)), :, best_round].mean(axis=1)
        best = int(np.argmin(losses))
        progress.done()
        return dict(candidates[best], n_estimators=int(best_round[best]) + 1)

    # ----------------------------------------------------------------- predict
    def predict(self, X: ArrayLike, *, pred_contrib: bool = False) -> NDArray[np.float64]:
        """Predicted targets of the final model, or with ``pred_contrib=True`` each row's
        feature contributions to them (see :meth:`SPLBoostRegressor.predict`)."""
        X = self._check_X(X)
        return self.best_estimator_.predict(X, pred_contrib=pred_contrib)
