"""SPLBoost: AdaBoost with self-paced sample selection (Wang et al. 2019)."""

from __future__ import annotations

from collections.abc import Callable

from ._boosting import BaseBoostingClassifier
from ._estimator_parts import SelfPacedMixin
from ._validation import CLASS_WEIGHT_DOC, ID_COLUMNS_DOC, MONOTONIC_CST_DOC
from .self_paced import SPRegularizer
from .steps import DiscreteStep

__all__ = ["SPLBoostClassifier", "SelfPacedMixin"]


class SPLBoostClassifier(SelfPacedMixin, BaseBoostingClassifier):
    # the docstring is built from shared parts, so it is assigned
    __doc__ = ("""SPLBoost: discrete AdaBoost whose sample weights are multiplied by self-paced weights.

    Implements Algorithm 1 of K. Wang, Y. Wang, Q. Zhao, D. Meng, Z. Xu,
    "SPLBoost: An Improved Robust Boosting Algorithm Based on Self-paced
    Learning", IEEE Trans. Cybernetics 2019. Each round (eqs. (4)-(13)):

    1. fit the weak learner ``f`` on weights ``v_i w_i / sum_j v_j w_j`` with
       ``w_i ∝ exp(-y_i F(x_i))``;
    2. ``err = sum_{miss} v_i w_i / sum_j v_j w_j``, ``alpha = ½ log((1 - err)/err)``;
    3. ``v_i = v*(age; l_i)`` with the *unnormalised* loss
       ``l_i = exp(-y_i (F(x_i) + alpha f(x_i)))``: with hard weighting a
       sample is dropped once its margin falls below ``-log(age)``;
    4. steps 1-3 are repeated ``inner_iterations`` times, then ``F += alpha f``.

    This is a majorization-minimization algorithm on the latent objective
    ``sum_i F_age(exp(-y_i F(x_i)))`` (Theorem 1), recorded per round in
    ``latent_objective_``; after the warm-start rounds it never increases while
    the age is fixed (it may jump where the age grows, see ``ages_``).
    With ``age=inf`` (hard weighting) SPLBoost is exactly discrete AdaBoost.
    For ``K > 2`` classes the step is SAMME and the loss compared with
    ``age`` is ``2/K`` times the SAMME exponential loss of Zhu et al. (2009),
    ``exp(-2 (S_y - mean_k S_k))``; it is ``exp(-y F)`` for two classes and the
    SAMME coefficient minimises its self-paced surrogate, so Theorem 1 still
    holds (an extension: the paper is binary; derivation in
    :attr:`~robust_boosting._boosting.BoostingState.margins`).

    Parameters
    ----------
    estimator : classifier, default=None
        Weak learner accepting ``sample_weight``; a decision stump if None.
    n_estimators : int, default=100
        Maximum number of rounds ``T``.
    age : float or "auto", default="auto"
        The age parameter ``lambda > 0`` of the regularizer (``inf`` keeps
        every sample). The paper tunes it in ``[1, 6]`` by cross-validation.
        ``"auto"`` (:func:`~robust_boosting.self_paced.default_age`) puts the
        peak of the boosting weight ``v*(age; l) l`` at the loss ``l = 2`` for
        every regularizer: ``2`` for ``"hard"`` (a sample is dropped once its
        margin falls below ``-log 2``), ``4`` for ``"linear"``, ``2 t/(t - 1)``
        for ``"polynomial"`` (``8.67`` for ``"lowerconvex"``, ``2.67`` for
        ``"upperconvex"``), ``2 sqrt(2)`` for ``"mixture"`` with ``gamma = 1``,
        and ``2`` for a user-supplied function. At one common age the soft
        regularizers weight the samples the ensemble already classifies
        correctly most and collapse to a single learner within a few rounds
        (see ``docs/reliability.md``). The value used is ``age_``.
    regularizer : str, SPRegularizer or callable, default="hard"
        ``"hard"``, ``"linear"``, ``"polynomial"`` (parameter ``t``),
        ``"mixture"`` (parameter ``gamma``), ``"lowerconvex"``
        (polynomial, ``t = 1.3``), ``"upperconvex"`` (polynomial, ``t = 4``),
        an :class:`~robust_boosting.self_paced.SPRegularizer`, or a function
        ``v*(age, loss)`` returning weights in ``[0, 1]``.
    regularizer_params : dict, default=None
        Parameters of a named regularizer, e.g. ``{"t": 2.5}``.
    warm_start_rounds : int or "auto", default="auto"
        Rounds run with ``warm_start_age`` before ``age`` takes over.
        ``"auto"`` (:func:`~robust_boosting.self_paced.default_warm_start_rounds`)
        is 3 for two classes and ``3 (K - 1)`` for ``K > 2``: after 3 SAMME
        stumps some class may not have been voted for yet, and on clean labels
        its samples would be dropped together. The value used is
        ``warm_start_rounds_``.
    warm_start_age : float, default=1e6
        Age of the warm-start rounds (the larger of it and ``age`` is used).
    inner_iterations : int or "auto", default=1
        Passes of the alternating search per round (the paper found one
        enough); ``"auto"`` repeats until ``v`` stops changing (at most 50).
    learning_rate : float, default=1.0
        Shrinks each coefficient (Theorem 1 assumes 1).
    age_growth : float > 1 or None, default=2.0
        What happens when the kept samples become separable: a round's weak
        learner is perfect on every sample with ``v > 0`` but not on all, so the
        next round would see the same weights and fit the same learner. With a
        number, the age grows to ``age_growth`` times the larger of the age and
        the smallest loss of a dropped sample (repeated until a dropped sample
        is back in) and boosting goes on: self-paced learning's growing age
        (Kumar, Packer & Koller, "Self-paced learning for latent variable
        models", NIPS 2010), which lets more samples in rather than ending the
        fit. The learner of that round is kept with the coefficient its error on
        all samples supports. ``None`` keeps the paper's fixed age: boosting
        stops there, with the reason in ``stopping_reason_``. Before the first
        increase the fit is the fixed-age fit, bit for bit. The age of
        ``regularizer="drop_fraction"`` (a fraction to drop, the user's estimate of
        the noise rate) never grows.
    n_jobs : int or None, default=None
        Threads of the weak learners' compiled kernels (the histogram trees); -1: every
        core the process may use. None chooses one thread per 500,000 rows x features
        of the training data, at most every core (design record 0022). A weak learner's
        own explicit ``n_jobs`` wins over it. The model does not depend on it.
    random_state : int, RandomState or None, default=None
        Seeds the weak learners.
""" + MONOTONIC_CST_DOC + CLASS_WEIGHT_DOC + """    unknown_categories : {"missing", "error"}, default="missing"
        What predict does with a category of a categorical column that no training
        row had: ``"missing"`` treats it as a missing value (the trees' learned
        missing-value branch, as scikit-learn's histogram boosting and LightGBM do);
        ``"error"`` raises a ValueError naming the column, the values and the rows.
""" + ID_COLUMNS_DOC + """
    Attributes
    ----------
    age_ : float
        The age used after the warm start (``age``, or the value ``"auto"`` chose).
    final_age_ : float
        The age at the end of the fit: ``age_`` unless it grew (``age_growth``).
    ages_ : ndarray of shape (n_rounds,)
        The age of each round's ``latent_objective_`` entry (``age_`` until it grows).
    warm_start_rounds_ : int
        The number of warm-start rounds used.
    self_paced_weights_ : ndarray of shape (n_samples,)
        Final ``v``. Samples with ``v = 0`` were excluded: they are SPLBoost's
        suspected label errors (see :attr:`excluded_samples_`).
    latent_objective_ : ndarray of shape (n_rounds,)
        ``sum_i s_i F_age(l_i)`` after each round (``s`` the normalised ``sample_weight``).
    n_selected_ : ndarray of shape (n_rounds,)
        Number of samples with ``v > 0`` after each round.
    inner_passes_ : ndarray of shape (n_rounds,)
    sample_weights_ : ndarray of shape (n_samples,)
        Final normalised weights ``v w``.
    classes_, estimators_, estimator_weights_, estimator_errors_,
    n_estimators_, stopping_reason_, feature_importances_
        As for :class:`AdaBoostClassifier`.

    Examples
    --------
    >>> from robust_boosting import SPLBoostClassifier
    >>> from robust_boosting.datasets import load_dataset
    >>> from robust_boosting.noise import flip_labels
    >>> X, y = load_dataset("wdbc", return_X_y=True)
    >>> y_noisy, flipped = flip_labels(y, 0.2, random_state=0)
    >>> clf = SPLBoostClassifier(n_estimators=50, age=2.0, random_state=0).fit(X, y_noisy)
    >>> clf.score(X, y) > 0.9
    True
    >>> dropped = clf.excluded_samples_  # self-paced weight 0 in the last round
    >>> bool(flipped[dropped].mean() > 0.5)
    True
    """)

    _auto_age = True

    def __init__(self, estimator=None, *, n_estimators: int = 100, age: float | str = "auto",
                 regularizer: str | SPRegularizer | Callable = "hard",
                 regularizer_params: dict | None = None, warm_start_rounds: int | str = "auto",
                 warm_start_age: float = 1e6, inner_iterations: int | str = 1,
                 learning_rate: float = 1.0, age_growth: float | None = 2.0,
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
        self.age_growth = age_growth
        self.random_state = random_state
        self.unknown_categories = unknown_categories
        self.id_columns = id_columns
        self.n_jobs = n_jobs
        self.monotonic_cst = monotonic_cst
        self.class_weight = class_weight

    def _make_step(self):
        return DiscreteStep(learning_rate=self.learning_rate)
