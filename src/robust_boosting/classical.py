"""The classical boosters of Friedman, Hastie & Tibshirani (2000): Real, Gentle and LogitBoost.

Each estimator is a thin composition on the shared loop
(:class:`~robust_boosting._boosting.BaseBoostingClassifier`): a margin loss
(:mod:`robust_boosting.losses`), a step (:mod:`robust_boosting.steps`) and a
weighting policy. All three are binary algorithms; for more than two classes
the shared one-vs-rest path of the base class fits one binary ensemble per
class (so the fitted attributes become lists with one entry per class).

:class:`SPLLogitBoostClassifier` and :class:`SPLGentleBoostClassifier` wrap
LogitBoost and GentleBoost in the self-paced weighting of SPLBoost (the
generalisation proposed in the SPLBoost paper's conclusion, [SPL]_ Sec. VI).

References
----------
.. [FHT] J. Friedman, T. Hastie, R. Tibshirani, "Additive logistic regression:
   a statistical view of boosting", Annals of Statistics 28(2), 2000.
.. [SPL] K. Wang, Y. Wang, Q. Zhao, D. Meng, Z. Xu, "SPLBoost: An Improved
   Robust Boosting Algorithm Based on Self-paced Learning", IEEE Trans.
   Cybernetics, 2019.
"""

from __future__ import annotations

from collections.abc import Callable

from ._boosting import BaseBoostingClassifier
from ._estimator_parts import (
    DEFAULT_WEIGHT_FLOOR,
    SP_PARAMS_DOC,
    ClassProbabilityBooster,
    GentleLossBooster,
    SelfPacedMixin,
)
from ._validation import (
    CLASS_WEIGHT_DOC,
    ID_COLUMNS_DOC,
    MONOTONIC_CST_DOC,
    check_choice,
    check_number,
)
from .losses import MarginLoss
from .self_paced import SPRegularizer
from .steps import LogitStep

__all__ = [
    "RealBoostClassifier",
    "GentleBoostClassifier",
    "LogitBoostClassifier",
    "SPLGentleBoostClassifier",
    "SPLLogitBoostClassifier",
]


class RealBoostClassifier(ClassProbabilityBooster):
    # the docstring is built from shared parts, so it is assigned
    __doc__ = ("""Real AdaBoost ([FHT]_ Algorithm 2): class-probability weak learners, exponential loss.

    Each round fits a class-probability estimator on the weights
    ``w_i ∝ s_i exp(-y_i F(x_i))`` (``s`` the ``sample_weight``), and adds
    ``f(x) = ½ log(p(x) / (1 - p(x)))`` with ``p = P_w(y = +1 | x)`` clipped to
    ``[clip, 1 - clip]`` ([FHT]_ eq. (12); the step is
    :class:`~robust_boosting.steps.RealStep`). Multiclass: one-vs-rest.

    Parameters
    ----------
    estimator : classifier with predict_proba, default=None
        Weak learner accepting ``sample_weight``; a decision stump if None.
    n_estimators : int, default=100
        Maximum number of rounds.
    learning_rate : float, default=1.0
        Shrinks each round's ``f``.
    clip : float in (0, 0.5), default=1e-4
        Probabilities are clipped to ``[clip, 1 - clip]``, so a pure leaf
        contributes ``±½ log((1 - clip)/clip)`` (about ±4.6) instead of ±inf.
    loss : str or MarginLoss, default="exponential"
        Margin loss ``phi`` whose weights ``-phi'(m)`` the rounds use: a name
        of :data:`~robust_boosting.losses.LOSSES` or a
        :class:`~robust_boosting.losses.MarginLoss` instance (see
        ``docs/extending.md``). ``"savage"`` gives SavageBoost's rounds (:class:`~robust_boosting.robust.SavageBoostClassifier`
        fixes it, with a larger default ``clip``).
    n_jobs : int or None, default=None
        Threads of the weak learners' compiled kernels (the histogram trees); -1: every
        core the process may use. None chooses one thread per 500,000 rows x features
        of the training data, at most every core (design record 0022). A weak learner's
        own explicit ``n_jobs`` wins over it. The model does not depend on it.
    random_state : int, RandomState or None, default=None
        Seeds the weak learners' ``random_state`` parameters, round by round.
""" + MONOTONIC_CST_DOC + CLASS_WEIGHT_DOC + """    unknown_categories : {"missing", "error"}, default="missing"
        What predict does with a category of a categorical column that no training
        row had: ``"missing"`` treats it as a missing value (the trees' learned
        missing-value branch, as scikit-learn's histogram boosting and LightGBM do);
        ``"error"`` raises a ValueError naming the column, the values and the rows.
""" + ID_COLUMNS_DOC + """
    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    estimators_ : list of fitted weak learners (one list per class for K > 2)
    estimator_weights_ : ndarray, ``learning_rate`` for every round
    estimator_errors_ : ndarray, weighted error of ``sign(f)`` per round
    n_estimators_ : int
    stopping_reason_ : str
    sample_weights_ : ndarray of shape (n_samples,), the next round's normalised weights
    feature_importances_ : ndarray of shape (n_features,)

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from robust_boosting import RealBoostClassifier
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> clf = RealBoostClassifier(n_estimators=50, random_state=0).fit(X, y)
    >>> clf.score(X, y) > 0.95
    True
    """)

    def __init__(self, estimator=None, *, n_estimators: int = 100, learning_rate: float = 1.0,
                 clip: float = 1e-4, loss: str | MarginLoss = "exponential",
                 random_state=None, unknown_categories: str = "missing",
                 id_columns: str = "drop",
                 n_jobs: int | None = None, monotonic_cst: dict | list | None = None,
                 class_weight: dict | str | None = None):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.learning_rate = learning_rate
        self.clip = clip
        self.loss = loss
        self.random_state = random_state
        self.unknown_categories = unknown_categories
        self.id_columns = id_columns
        self.n_jobs = n_jobs
        self.monotonic_cst = monotonic_cst
        self.class_weight = class_weight


class GentleBoostClassifier(GentleLossBooster):
    # the docstring is built from shared parts, so it is assigned
    __doc__ = ("""Gentle AdaBoost ([FHT]_ Algorithm 4): weighted least-squares regression of ``y``.

    Each round fits a regressor to ``y in {-1, +1}`` by weighted least squares
    with ``w_i ∝ s_i exp(-y_i F(x_i))`` and adds its prediction ``f(x)``
    (a Newton step on the exponential risk, [FHT]_ Sec. 4.2; the step is
    :class:`~robust_boosting.steps.GentleStep`). Each round's output lies in
    ``[-1, 1]`` (a tree's leaf values are weighted means of ``±1``; other
    regressors are clipped). Multiclass: one-vs-rest.

    Parameters
    ----------
    estimator : regressor, default=None
        Weak learner accepting ``sample_weight``; a regression stump
        (a histogram regression stump, as in [FHT]_'s experiments) if None.
    n_estimators : int, default=100
    learning_rate : float, default=1.0
    loss : str or MarginLoss, default="exponential"
        Margin loss ``phi`` whose weights ``-phi'(m)`` the rounds use: a name
        of :data:`~robust_boosting.losses.LOSSES` or a
        :class:`~robust_boosting.losses.MarginLoss` instance (see
        ``docs/extending.md``). ``"savage2"`` gives RBoost
        (:class:`~robust_boosting.robust.RBoostClassifier`).
    n_jobs : int or None, default=None
        Threads of the weak learners' compiled kernels (the histogram trees); -1: every
        core the process may use. None chooses one thread per 500,000 rows x features
        of the training data, at most every core (design record 0022). A weak learner's
        own explicit ``n_jobs`` wins over it. The model does not depend on it.
    random_state : int, RandomState or None, default=None
""" + MONOTONIC_CST_DOC + CLASS_WEIGHT_DOC + """    unknown_categories : {"missing", "error"}, default="missing"
        What predict does with a category of a categorical column that no training
        row had: ``"missing"`` treats it as a missing value (the trees' learned
        missing-value branch, as scikit-learn's histogram boosting and LightGBM do);
        ``"error"`` raises a ValueError naming the column, the values and the rows.
""" + ID_COLUMNS_DOC + """
    Attributes
    ----------
    As for :class:`RealBoostClassifier`.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from robust_boosting import GentleBoostClassifier
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> clf = GentleBoostClassifier(n_estimators=50, random_state=0).fit(X, y)
    >>> clf.score(X, y) > 0.95
    True
    """)

    def __init__(self, estimator=None, *, n_estimators: int = 100, learning_rate: float = 1.0,
                 loss: str | MarginLoss = "exponential", random_state=None, unknown_categories: str = "missing",
                 id_columns: str = "drop",
                 n_jobs: int | None = None, monotonic_cst: dict | list | None = None,
                 class_weight: dict | str | None = None):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.learning_rate = learning_rate
        self.loss = loss
        self.random_state = random_state
        self.unknown_categories = unknown_categories
        self.id_columns = id_columns
        self.n_jobs = n_jobs
        self.monotonic_cst = monotonic_cst
        self.class_weight = class_weight


class LogitBoostClassifier(BaseBoostingClassifier):
    # the docstring is built from shared parts, so it is assigned
    __doc__ = ("""LogitBoost, two classes ([FHT]_ Algorithm 3): Newton steps on the logistic loss.

    With ``p = 1 / (1 + e^{-2F})``: working response ``z = (y* - p)/(p (1 - p))``
    (``y* = (y+1)/2``), clipped to ``|z| <= z_max``; weights ``p (1 - p)``
    floored at ``weight_floor`` (times ``sample_weight``); a regressor is fitted
    to ``z`` by weighted least squares and ``F <- F + ½ f`` (the step is
    :class:`~robust_boosting.steps.LogitStep`). The loss is
    ``log(1 + exp(-2 y F))`` (the negative binomial log-likelihood of [FHT]_).

    Multiclass (K > 2) is native, not one-vs-rest: each round fits one
    regressor per class by Newton's method on the softmax loss ``-log p_y``,
    ``p = softmax(F)`` (Friedman 2001, Algorithm 6; [FHT]_ Algorithm 6; the
    multiclass objective of LightGBM and XGBoost): regressor ``k`` is fitted
    to ``(1[y = k] - p_k) / (p_k (1 - p_k))`` with weights ``p_k (1 - p_k)``
    and the round adds ``(K - 1)/K × learning_rate`` times it to ``F_k`` (see
    :class:`~robust_boosting.steps.LogitStep`); ``estimators_`` then holds one
    :class:`~robust_boosting.learners.PerClassRegressor` (K trees) per round.

    Parameters
    ----------
    estimator : regressor, default=None
        Weak learner accepting ``sample_weight``; a regression stump if None.
    n_estimators : int, default=100
    learning_rate : float, default=1.0
        Shrinks each round's ``½ f``.
    z_max : float, default=4.0
        Clipping bound of the working response (Friedman suggests 2 to 4).
    weight_floor : float, default=2 * machine epsilon (about 4.4e-16)
        Lower bound of the weights ``p (1 - p)`` (FHT: "2 x machine zero").
    multiclass_trees : {"per_class", "shared"}, default="per_class"
        For K > 2 classes: ``"per_class"``, one regressor per class and round (a
        copy of ``estimator``, Friedman's Algorithm 6); ``"shared"``, one symmetric
        tree per round whose splits maximise the Newton gain summed over the
        classes, with a value per class in each leaf
        (:class:`~robust_boosting.trees.SharedSymmetricTree`, CatBoost's
        multiclass trees; ``estimator`` must be a
        :class:`~robust_boosting.trees.HistTreeRegressor` with
        ``grow_policy="symmetric"``). Ignored for two classes.
    n_jobs : int or None, default=None
        Threads of the weak learners' compiled kernels (the histogram trees); -1: every
        core the process may use. None chooses one thread per 500,000 rows x features
        of the training data, at most every core (design record 0022). A weak learner's
        own explicit ``n_jobs`` wins over it. The model does not depend on it.
    random_state : int, RandomState or None, default=None
""" + MONOTONIC_CST_DOC + CLASS_WEIGHT_DOC + """    unknown_categories : {"missing", "error"}, default="missing"
        What predict does with a category of a categorical column that no training
        row had: ``"missing"`` treats it as a missing value (the trees' learned
        missing-value branch, as scikit-learn's histogram boosting and LightGBM do);
        ``"error"`` raises a ValueError naming the column, the values and the rows.
""" + ID_COLUMNS_DOC + """
    Attributes
    ----------
    As for :class:`RealBoostClassifier`; ``estimator_weights_`` holds
    ``learning_rate / 2`` per round.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from robust_boosting import LogitBoostClassifier
    >>> X, y = load_iris(return_X_y=True)  # three classes: native multiclass Newton steps
    >>> clf = LogitBoostClassifier(n_estimators=50, random_state=0).fit(X, y)
    >>> clf.predict_proba(X[:1]).shape
    (1, 3)
    >>> clf.score(X, y) > 0.95
    True
    """)

    def __init__(self, estimator=None, *, n_estimators: int = 100, learning_rate: float = 1.0,
                 z_max: float = 4.0, weight_floor: float = DEFAULT_WEIGHT_FLOOR,
                 multiclass_trees: str = "per_class", random_state=None, unknown_categories: str = "missing",
                 id_columns: str = "drop",
                 n_jobs: int | None = None, monotonic_cst: dict | list | None = None,
                 class_weight: dict | str | None = None):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.learning_rate = learning_rate
        self.z_max = z_max
        self.weight_floor = weight_floor
        self.multiclass_trees = multiclass_trees
        self.random_state = random_state
        self.unknown_categories = unknown_categories
        self.id_columns = id_columns
        self.n_jobs = n_jobs
        self.monotonic_cst = monotonic_cst
        self.class_weight = class_weight

    def _validate_params(self):
        super()._validate_params()
        check_number("z_max", self.z_max, low=1.0, low_open=False)
        check_number("weight_floor", self.weight_floor, low=0, high=0.25)
        check_choice("multiclass_trees", self.multiclass_trees, ["per_class", "shared"])

    def _make_step(self):
        return LogitStep(learning_rate=self.learning_rate, z_max=self.z_max,
                         weight_floor=self.weight_floor, multiclass_trees=self.multiclass_trees)


class SPLLogitBoostClassifier(SelfPacedMixin, LogitBoostClassifier):
    # the docstring is built from shared parts, so it is assigned (a concatenation
    # is not a docstring: without this, help() would show SelfPacedMixin's)
    __doc__ = ("""Self-paced LogitBoost: LogitBoost's weights ``p (1 - p)`` times ``v*(age; loss_i)``.

    The SPLBoost paper's proposed generalisation ([SPL]_ Sec. VI):
    the self-paced weight ``v_i = v*(age; l_i)`` multiplies the wrapped
    algorithm's own per-sample weight, with ``l_i`` its own per-sample loss,
    here the logistic loss ``log(1 + exp(-2 y_i F(x_i)))`` at the candidate
    scores ``F + ½ f`` (the policy is
    :class:`~robust_boosting.self_paced.SelfPacedPolicy`, as in SPLBoost).
    With ``age=inf`` it is :class:`LogitBoostClassifier` exactly; with a finite
    age the latent objective ``sum_i s_i F_age(l_i)`` is reported per round
    in ``latent_objective_``. (LogitBoost's step is a Newton step, not an exact
    minimisation, so Theorem 1's monotonicity is not guaranteed here.)

    Parameters
    ----------
    estimator, n_estimators, learning_rate, z_max, weight_floor, multiclass_trees, random_state, n_jobs
        As for :class:`LogitBoostClassifier`.
""" + MONOTONIC_CST_DOC + CLASS_WEIGHT_DOC + """    """ + SP_PARAMS_DOC + """
    Attributes
    ----------
    self_paced_weights_, latent_objective_, n_selected_, inner_passes_, excluded_samples_
        As for :class:`~robust_boosting.splboost.SPLBoostClassifier`; for
        K > 2 the step is native (one model), and the per-sample loss the
        weights compare with ``age`` is the multiclass log-loss ``-log p_y``.
    classes_, estimators_, estimator_weights_, n_estimators_, stopping_reason_, feature_importances_
        As for :class:`LogitBoostClassifier`.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from robust_boosting import SPLLogitBoostClassifier
    >>> X, y = make_classification(n_samples=300, flip_y=0.1, random_state=0)
    >>> clf = SPLLogitBoostClassifier(n_estimators=50, age=2.0, random_state=0).fit(X, y)
    >>> clf.score(X, y) > 0.85
    True
    >>> len(clf.latent_objective_) == clf.n_estimators_
    True
    """)

    def __init__(self, estimator=None, *, n_estimators: int = 100, age: float = 2.0,
                 regularizer: str | SPRegularizer | Callable = "hard",
                 regularizer_params: dict | None = None, warm_start_rounds: int = 3,
                 warm_start_age: float = 1e6, inner_iterations: int | str = 1,
                 learning_rate: float = 1.0, z_max: float = 4.0,
                 weight_floor: float = DEFAULT_WEIGHT_FLOOR, multiclass_trees: str = "per_class",
                 random_state=None, unknown_categories: str = "missing",
                 id_columns: str = "drop",
                 n_jobs: int | None = None, monotonic_cst: dict | list | None = None,
                 class_weight: dict | str | None = None):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.age = age
        self.regularizer = regularizer
        self.regularizer_params = regularizer_params
        self.warm_start_rounds = warm_start_rounds
        self.warm_start_age = warm_start_age
        self.inner_iterations = inner_iterations
        self.learning_rate = learning_rate
        self.z_max = z_max
        self.weight_floor = weight_floor
        self.multiclass_trees = multiclass_trees
        self.random_state = random_state
        self.unknown_categories = unknown_categories
        self.id_columns = id_columns
        self.n_jobs = n_jobs
        self.monotonic_cst = monotonic_cst
        self.class_weight = class_weight


class SPLGentleBoostClassifier(SelfPacedMixin, GentleBoostClassifier):
    # the docstring is built from shared parts, so it is assigned (a concatenation
    # is not a docstring: without this, help() would show SelfPacedMixin's)
    __doc__ = ("""Self-paced GentleBoost: GentleBoost's weights ``e^{-m}`` times ``v*(age; e^{-m})``.

    The self-paced weighting of SPLBoost ([SPL]_ Algorithm 1) around
    GentleBoost: the per-sample loss compared with ``age`` is the exponential
    loss ``exp(-y_i (F(x_i) + f(x_i)))`` on the absolute scale, as in SPLBoost,
    so ``age`` has the same meaning (hard weighting drops a sample whose margin
    falls below ``-log(age)``). With ``age=inf`` it is
    :class:`GentleBoostClassifier` exactly; with a finite age the latent
    objective is reported in ``latent_objective_``.

    Parameters
    ----------
    estimator, n_estimators, learning_rate, random_state, n_jobs
        As for :class:`GentleBoostClassifier`.
""" + MONOTONIC_CST_DOC + CLASS_WEIGHT_DOC + """    """ + SP_PARAMS_DOC + """
    Attributes
    ----------
    self_paced_weights_, latent_objective_, n_selected_, inner_passes_, excluded_samples_
        As for :class:`~robust_boosting.splboost.SPLBoostClassifier`.
    classes_, estimators_, estimator_weights_, n_estimators_, stopping_reason_, feature_importances_
        As for :class:`GentleBoostClassifier`.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from robust_boosting import SPLGentleBoostClassifier
    >>> X, y = make_classification(n_samples=300, flip_y=0.1, random_state=0)
    >>> clf = SPLGentleBoostClassifier(n_estimators=50, age=2.0, random_state=0).fit(X, y)
    >>> clf.score(X, y) > 0.85
    True
    """)

    def __init__(self, estimator=None, *, n_estimators: int = 100, age: float = 2.0,
                 regularizer: str | SPRegularizer | Callable = "hard",
                 regularizer_params: dict | None = None, warm_start_rounds: int = 3,
                 warm_start_age: float = 1e6, inner_iterations: int | str = 1,
                 learning_rate: float = 1.0, random_state=None, unknown_categories: str = "missing",
                 id_columns: str = "drop",
                 n_jobs: int | None = None, monotonic_cst: dict | list | None = None,
                 class_weight: dict | str | None = None):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.age = age
        self.regularizer = regularizer
        self.regularizer_params = regularizer_params
        self.warm_start_rounds = warm_start_rounds
        self.warm_start_age = warm_start_age
        self.inner_iterations = inner_iterations
        self.learning_rate = learning_rate
        self.random_state = random_state
        self.unknown_categories = unknown_categories
        self.id_columns = id_columns
        self.n_jobs = n_jobs
        self.monotonic_cst = monotonic_cst
        self.class_weight = class_weight
