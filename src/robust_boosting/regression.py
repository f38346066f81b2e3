"""Self-paced gradient boosting for real-valued targets (wrong targets left out)."""

from __future__ import annotations

from collections.abc import Callable

from ._boosting import BaseBoostingRegressor
from ._estimator_parts import SelfPacedMixin
from ._validation import ID_COLUMNS_DOC, MONOTONIC_CST_DOC, check_choice, check_number
from .self_paced import SPRegularizer
from .steps import REGRESSION_LOSSES, RegressionStep
from .trees import HistTreeRegressor

__all__ = ["SPLBoostRegressor"]


class SPLBoostRegressor(SelfPacedMixin, BaseBoostingRegressor):
    # the docstring is built from shared parts, so it is assigned
    __doc__ = ("""Self-paced gradient boosting for regression: rows of large loss are left out.

    The SPLBoost paper's self-paced weighting (K. Wang, Y. Wang, Q. Zhao, D. Meng,
    Z. Xu, "SPLBoost: An Improved Robust Boosting Algorithm Based on Self-paced
    Learning", IEEE Trans. Cybernetics 2019) around gradient boosting of a real-valued
    target: the generalisation its conclusion proposes ("SPLBoost can be treated as a
    general framework to improve the robustness of various boosting algorithms besides
    AdaBoost", naming LogitBoost and L2Boost), here L2Boost. Self-paced learning (Kumar,
    Packer & Koller, "Self-paced learning for latent variable models", NIPS 2010)
    minimises ``sum_i v_i l_i + f(v_i; age)`` over the model and ``v in [0, 1]^n``;
    for fixed losses ``l_i`` its minimiser is the closed form ``v*(age; l_i)`` of the
    SP-regularizer ``f`` (the paper's eqs. (1)-(2) for hard weighting and Sec. II for
    linear, polynomial and mixture weighting). Each round:

    1. the regression weak learner is fitted by weighted least squares to the
       negative gradient ``g_i`` of the loss at the current scores ``F(x_i)``, with
       the weights ``v_i s_i`` (``s`` the normalised ``sample_weight``): the row's
       gradient and Hessian are multiplied by ``v_i``, as the paper's eqs. (7)-(8)
       fit AdaBoost's Newton step on the weights ``v_i w_i``; this is eq. (4), the
       paper's self-paced objective, with the squared (or Huber) loss in place of
       the exponential one;
    2. ``v_i = v*(age; l_i)`` is recomputed from each row's loss at the candidate
       scores ``F + learning_rate f`` (the inner iteration of the alternating
       search on eq. (4); hard weighting: eq. (2)); steps 1-2 are repeated
       ``inner_iterations`` times;
    3. ``F <- F + learning_rate f`` (eq. (12)).

    The loss compared with ``age`` is that of the standardised residual
    ``u_i = (y_i - F(x_i)) / s``, with ``s`` the residuals' robust spread
    (``1.4826 ×`` their weighted median absolute deviation, at the same scores;
    the last one is ``residual_scale_``): ``½ u²`` for the squared loss, Huber's
    loss of ``u`` for ``loss="huber"``. The spread is unmoved by up to half of the
    rows being wrong, so an age means the same on any target's scale: with hard
    weighting, a row is left out of a round once ``|y - F| >= s sqrt(2 age)`` (the
    default age 4.5: three robust standard deviations). The scores start at the
    loss's best constant (the weighted mean of ``y``, or its weighted median for
    Huber's loss) and the first ``warm_start_rounds`` rounds keep every row (age
    ``warm_start_age``), as in :class:`~robust_boosting.splboost.SPLBoostClassifier`.
    With ``age=inf`` (hard weighting) no row is ever left out and the model is plain
    gradient boosting (Friedman 2001, LS_Boost on the squared loss), exactly. The
    latent objective ``sum_i s_i F_age(l_i)`` of the paper's Theorem 1 (eqs.
    (15)-(16)) is reported per round in ``latent_objective_``. The step is
    :class:`~robust_boosting.steps.RegressionStep`, which documents the Huber
    Hessian and ``delta``; the loop is the one every classifier of the library uses.

    Parameters
    ----------
    estimator : regressor, default=None
        Weak learner accepting ``sample_weight``; if None a
        :class:`~robust_boosting.trees.HistTreeRegressor` of depth 3.
    n_estimators : int, default=100
        Number of rounds.
    loss : {"squared_error", "huber"}, default="squared_error"
        The loss boosted and compared with ``age``.
    huber_delta : float > 0, default=1.345
        Huber's threshold in units of the residuals' robust spread (``delta =
        huber_delta × s``, ``s`` re-estimated each round); 1.345 is Huber's
        95 %-efficiency constant for normal errors. Used only with ``loss="huber"``.
    age : float, default=4.5
        The age ``lambda > 0`` the standardised loss is compared with (``inf``: every
        row is kept, plain gradient boosting). With ``regularizer="drop_fraction"`` the
        age is the fraction of rows of largest loss left out of each round, a number in
        ``[0, 1)`` (an estimate of the share of wrong targets).
    regularizer : str, SPRegularizer or callable, default="hard"
        ``"hard"``, ``"linear"``, ``"polynomial"`` (parameter ``t``), ``"mixture"``
        (parameter ``gamma``), ``"lowerconvex"``, ``"upperconvex"``,
        ``"drop_fraction"``, an :class:`~robust_boosting.self_paced.SPRegularizer` or a
        function ``v*(age, loss)`` returning weights in ``[0, 1]``, as for
        :class:`~robust_boosting.splboost.SPLBoostClassifier`.
    regularizer_params : dict, default=None
        Parameters of a named regularizer, e.g. ``{"t": 2.5}``.
    warm_start_rounds : int, default=3
        Rounds run with ``warm_start_age`` before ``age`` takes over (``"auto"``: 3).
    warm_start_age : float, default=1e6
        Age of the warm-start rounds (the larger of it and ``age`` is used).
    inner_iterations : int or "auto", default=1
        Passes of the alternating search per round; ``"auto"`` repeats until ``v``
        stops changing (at most 50).
    learning_rate : float, default=0.1
        Shrinks each round's contribution.
    n_jobs : int or None, default=None
        Threads of the weak learners' compiled kernels (the histogram trees); -1: every
        core the process may use. None chooses one thread per 500,000 rows x features
        of the training data, at most every core (design record 0022). A weak learner's
        own explicit ``n_jobs`` wins over it. The model does not depend on it.
    random_state : int, RandomState or None, default=None
        Seeds the weak learners.
""" + MONOTONIC_CST_DOC + """    unknown_categories : {"missing", "error"}, default="missing"
        What predict does with a category of a categorical column that no training
        row had: ``"missing"`` treats it as a missing value; ``"error"`` raises a
        ValueError naming the column, the values and the rows.
""" + ID_COLUMNS_DOC + """
    Attributes
    ----------
    self_paced_weights_ : ndarray of shape (n_samples,)
        Final ``v``: the self-paced weight of each row in the last round.
    excluded_samples_ : ndarray
        Indices of the rows with ``v = 0`` in the last round: the suspected wrong
        targets.
    residual_scale_ : float
        The robust spread ``s`` of the training residuals at the end of the fit.
    init_score_ : float
        The score every row starts at (weighted mean, or median for Huber's loss).
    age_, final_age_, ages_, warm_start_rounds_, latent_objective_, n_selected_, inner_passes_
        As for :class:`~robust_boosting.splboost.SPLBoostClassifier`.
    sample_weights_ : ndarray of shape (n_samples,)
        The last round's normalised weights ``v s``.
    estimators_ : list of fitted weak learners
    estimator_weights_ : ndarray, ``learning_rate`` per round
    estimator_errors_ : ndarray, NaN per round (no error rate for a real target)
    n_estimators_ : int
        Rounds kept.
    stopping_reason_ : str
        Why the loop ended (``"reached n_estimators"`` normally).
    n_features_in_, feature_names_in_, feature_schema_, feature_importances_
        As for the classifiers.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.datasets import make_friedman1
    >>> from robust_boosting import SPLBoostRegressor
    >>> X, y = make_friedman1(n_samples=600, noise=0.5, random_state=0)
    >>> rng = np.random.default_rng(0)
    >>> wrong = rng.choice(600, size=120, replace=False)  # 20 % wrong targets
    >>> y_noisy = y.copy()
    >>> y_noisy[wrong] += 30.0
    >>> reg = SPLBoostRegressor(n_estimators=200, random_state=0).fit(X, y_noisy)
    >>> bool(np.sqrt(np.mean((reg.predict(X) - y) ** 2)) < 2.0)
    True
    >>> caught = np.isin(wrong, reg.excluded_samples_).mean()  # share of wrong rows left out
    >>> bool(caught > 0.9)
    True
    """)

    def __init__(self, estimator=None, *, n_estimators: int = 100,
                 loss: str = "squared_error", huber_delta: float = 1.345, age: float = 4.5,
                 regularizer: str | SPRegularizer | Callable = "hard",
                 regularizer_params: dict | None = None, warm_start_rounds: int | str = 3,
                 warm_start_age: float = 1e6, inner_iterations: int | str = 1,
                 learning_rate: float = 0.1, random_state=None,
                 unknown_categories: str = "missing", id_columns: str = "drop",
                 n_jobs: int | None = None, monotonic_cst: dict | list | None = None):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.loss = loss
        self.huber_delta = huber_delta
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

    def _validate_params(self):
        super()._validate_params()
        if not isinstance(self.loss, str):
            raise TypeError(f"loss must be a loss name, got {type(self.loss).__name__}.")
        check_choice("loss", self.loss, REGRESSION_LOSSES)
        check_number("huber_delta", self.huber_delta, low=0)

    def _default_estimator(self):
        return HistTreeRegressor(max_depth=3)

    def _make_step(self):
        return RegressionStep(self.loss, learning_rate=self.learning_rate,
                              huber_delta=float(self.huber_delta))
