"""RILBoost I and II: boosting with local sets of distributions (Utkin & Zhuk 2014).

The estimator is a thin composition on the shared loop
(:mod:`robust_boosting._boosting`):

* :class:`RILBoostStep`, discrete AdaBoost's step (:class:`~robust_boosting.steps.DiscreteStep`,
  whose error, coefficient and stopping logic it reuses unchanged) whose weak
  learner is fitted on the minimax extreme point ``π`` of the ε-contaminated set
  around the current distribution ``p`` (:mod:`robust_boosting.imprecise`), and
  whose error is measured on the mixing base ``b = a p + (1 - a) π``;
* :class:`ImpreciseMixingPolicy`, which turns AdaBoost's update
  ``p ← p exp(-α y c)`` into ``p ← b exp(-α y c)`` (the paper's function G, eq. (4)).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray
from scipy.special import logsumexp
from sklearn.svm import SVC
from sklearn.utils import check_random_state

from ._boosting import (
    BaseBoostingClassifier,
    BoostingState,
    RoundResult,
    WeightPolicy,
)
from ._validation import (
    CLASS_WEIGHT_DOC,
    ID_COLUMNS_DOC,
    MONOTONIC_CST_DOC,
    check_choice,
    check_number,
)
from .imprecise import (
    SEARCHES,
    STRATEGIES,
    EpsilonContaminationModel,
    ExtremePointChoice,
    ImpreciseModel,
    is_weighted_svm,
    select_extreme_point,
)
from .steps import DiscreteStep

__all__ = ["RILBoostClassifier", "RILBoostStep", "ImpreciseMixingPolicy", "VARIANTS"]

#: names of the mixing parameter ``a``: RILBoost I (``a = 1``) and II (``a = 0``)
VARIANTS: dict[str, float] = {"I": 1.0, "II": 0.0}

@dataclass
class MixingState:
    """RILBoost's per-run state: the log-correction of AdaBoost's weights.

    ``log_correction[i]`` is the log of the product of the factors
    ``b_k0 / (c p_k0)`` that :class:`ImpreciseMixingPolicy` applied to sample
    ``i`` (None until the first correction: RILBoost I, or ``ε = 0``, never has one).
    """

    log_correction: NDArray[np.float64] | None = None

    def add(self, k0: int, log_factor: float, n_samples: int) -> None:
        """Multiply sample ``k0``'s weight by ``exp(log_factor)`` from the next round on."""
        if self.log_correction is None:
            self.log_correction = np.zeros(n_samples)
        self.log_correction[k0] += log_factor


@dataclass
class MixingRecord:
    """What :class:`ImpreciseMixingPolicy` records per round (published after the fit)."""

    chosen: list[int] = field(default_factory=list)
    solves: list[int] = field(default_factory=list)
    at_base: list[bool] = field(default_factory=list)
    #: the correction ``(k0, log factor)`` of the round being fitted, applied in ``end_round``
    pending: tuple[int, float] | None = None
    choice: ExtremePointChoice | None = None


class RILBoostStep(DiscreteStep):
    """One RILBoost round ([UZ]_ Algorithms 4-5, the body of the loop).

    1. with ``p`` the round's normalised weights, choose the extreme point
       ``π = h^(k0)`` of ``model`` around ``p`` by ``strategy`` and fit the weak
       learner on it (:func:`~robust_boosting.imprecise.select_extreme_point`);
    2. score that learner exactly as :class:`DiscreteStep` does, on the mixing
       base ``b = a p + (1 - a) π``: ``e = Σ_{miss} b_i``,
       ``α = ½ log((1 - e) / e)``; a learner with ``e >= ½`` is discarded and the
       loop stops (the paper stops when ``e > ½``; at ``e = ½`` ``α`` would be 0).

    ``c_t`` is the learner's ``predict`` (for an ``SVC``, the sign of its
    decision function). Binary only: more classes go through the shared
    one-vs-rest path. The weights the loop hands to the step include the
    policy's correction (:class:`ImpreciseMixingPolicy`), kept in the step's
    :class:`MixingState`.
    """

    native_multiclass = False

    def __init__(self, model: ImpreciseModel, mixing: float = 0.0, strategy: str = "minimax",
                 search: str = "auto", weight_scale: float | str = "n_samples",
                 random_state=None):
        super().__init__()
        self.random_state = random_state  # breaks minimin ties (select_extreme_point)
        self.model = model
        self.mixing = float(mixing)
        self.strategy = strategy
        self.search = search
        self.weight_scale = weight_scale
        self.last_choice: ExtremePointChoice | None = None
        self._kernel_cache: dict = {}  # the SVM's kernel matrix on the training set

    def init_state(self, state: BoostingState) -> MixingState:
        return MixingState()

    def log_weights(self, state: BoostingState) -> NDArray[np.float64]:
        log_w = super().log_weights(state)
        correction = state.step_state.log_correction
        return log_w if correction is None else log_w + correction

    def mixing_base(self, p: NDArray[np.float64], pi: NDArray[np.float64]) -> NDArray[np.float64]:
        """``b = a p + (1 - a) π`` (exactly ``p`` when ``a = 1`` or the model is precise)."""
        if self.mixing == 1.0 or self.model.is_precise:
            return p
        return self.mixing * p + (1.0 - self.mixing) * pi

    def fit_round(self, learner, state: BoostingState, weights) -> RoundResult:
        support = np.flatnonzero(state.sample_weight > 0)
        scale = (float(len(support)) if isinstance(self.weight_scale, str)
                 else float(self.weight_scale))
        choice = select_extreme_point(
            learner, state.X, state.y_idx, weights, self.model, support=support,
            strategy=self.strategy, search=self.search, weight_scale=scale,
            kernel_cache=self._kernel_cache, random_state=self.random_state)
        self.last_choice = choice
        pred = np.asarray(choice.estimator.predict(state.X)).astype(np.intp, copy=False)
        result = self.score_round(choice.estimator, pred, state,
                                  self.mixing_base(weights, choice.weights))
        result.info.update(extreme_point=choice.index, n_svm_solves=choice.n_solves,
                           at_base=choice.at_base)
        return result


class ImpreciseMixingPolicy(WeightPolicy):
    """Weight update of RILBoost with mixing ``a`` ([UZ]_ eq. (4), Algorithms 4-5).

    After a round with chosen extreme point ``π = (1 - ε) p + ε e_k0`` the next
    distribution is ``p' ∝ b exp(-α y c)`` with ``b = a p + (1 - a) π``. As
    ``b = c p + (1 - a) ε e_k0`` with ``c = 1 - (1 - a) ε``, this is AdaBoost's
    update of ``p`` times the factor ``b_k0 / (c p_k0)`` on sample ``k0`` alone.
    The policy keeps the log of these factors (the step's :class:`MixingState`), which
    :class:`RILBoostStep` adds to AdaBoost's log-weights ``-y F(x)``: the
    weights stay in log space, and with ``a = 1`` (RILBoost I) or ``ε = 0`` they
    are exactly AdaBoost's.

    Published: ``chosen_extreme_points`` (``k0`` per round), ``n_svm_solves``
    (weak-learner fits per round) and ``base_solution_chosen`` (per round: the
    choice tied with the base problem, see :mod:`robust_boosting.imprecise`).
    """

    def __init__(self, mixing: float, epsilon: float):
        self.mixing = float(mixing)
        self.epsilon = float(epsilon)

    @property
    def moved_mass(self) -> float:
        """``(1 - a) ε``: the mass that ``b`` puts on the chosen sample beyond ``c p``."""
        return (1.0 - self.mixing) * self.epsilon

    def start(self, state, step):
        self._record = MixingRecord()

    def refit(self, state, step, candidate_raw, n_done):
        # state.raw is still the pre-round score: p of this round, in log space
        choice = step.last_choice
        record = self._record
        record.pending = None
        shift = self.moved_mass
        if shift > 0.0:
            k0 = choice.index
            active = state.sample_weight > 0
            log_u = step.log_weights(state) + np.log(np.where(active, state.sample_weight, 1.0))
            log_p_k0 = log_u[k0] - logsumexp(log_u[active])
            log_cp = np.log1p(-shift) + log_p_k0
            record.pending = (k0, float(np.logaddexp(log_cp, np.log(shift)) - log_cp))
        record.choice = choice
        return False

    def end_round(self, state, step):
        record = self._record
        if record.pending is not None:
            k0, corr = record.pending
            state.step_state.add(k0, corr, state.y.shape[0])
        record.chosen.append(int(record.choice.index))
        record.solves.append(int(record.choice.n_solves))
        record.at_base.append(bool(record.choice.at_base))

    def results(self):
        record = self._record
        return {
            "chosen_extreme_points": np.asarray(record.chosen, dtype=np.intp),
            "n_svm_solves": np.asarray(record.solves, dtype=np.intp),
            "base_solution_chosen": np.asarray(record.at_base, dtype=bool),
        }


def _mixing_value(mixing) -> float:
    if isinstance(mixing, str):
        if mixing not in VARIANTS:
            raise ValueError(
                f"mixing must be a number in [0, 1] or one of {list(VARIANTS)}, got {mixing!r}."
            )
        return VARIANTS[mixing]
    check_number("mixing", mixing, low=0.0, low_open=False, high=1.0)
    return float(mixing)


class RILBoostClassifier(BaseBoostingClassifier):
    # the docstring is built from shared parts, so it is assigned
    __doc__ = ("""RILBoost: AdaBoost with a minimax weak learner over a local set of distributions.

    Implements RILBoost I and II of L. V. Utkin, Y. A. Zhuk, "Robust boosting
    classification models with local sets of probability distributions",
    Knowledge-Based Systems 61 (2014) [UZ]_, Algorithms 3-5, and the paper's
    general mixing (its function G, eq. (4)). Each round, with ``p`` the
    current distribution over the training samples (initially the normalised
    ``sample_weight``):

    1. the precise ``p`` is replaced by the ε-contaminated set
       ``M(p, ε) = {(1 - ε) p + ε q}`` with extreme points
       ``h^(k) = (1 - ε) p + ε e_k`` (Sec. 2.3);
    2. a weighted SVM (box bounds ``∝ C h^(k)_i``) is solved for every extreme
       point and the one with the largest optimal objective — the least
       favourable distribution, ``π = h^(k0)`` — is chosen (``strategy="minimax"``;
       ``"minimin"`` takes the smallest, the paper's Table 6). An exact shortcut
       needs one base solve plus a solve per sample at its bound (see
       :mod:`robust_boosting.imprecise`);
    3. with ``c_t(x)`` the chosen SVM's sign and the base ``b = a p + (1 - a) π``:
       ``e = Σ_{c_t(x_i) != y_i} b_i``, stop if ``e >= ½``,
       ``α_t = ½ log((1 - e) / e)``, ``p ← b exp(-α_t y c_t(x))`` normalised.

    ``a = 1`` is RILBoost I (error and update on ``p``: Algorithm 4), ``a = 0`` is
    RILBoost II (on ``π``: Algorithm 5). With ``ε = 0`` both are discrete
    AdaBoost with the same weak learner. The classifier is
    ``sign(Σ_t α_t c_t(x))``. More than two classes: one-vs-rest.

    Parameters
    ----------
    estimator : classifier, default=None
        Weak learner accepting ``sample_weight``. None: ``SVC(kernel="rbf",
        C=C, gamma=gamma)``. Another ``SVC`` is compared by its optimal
        objective; any other classifier by its weighted training 0-1 loss under
        each extreme point (all ``n`` extreme points are then fitted).
    n_estimators : int, default=10
        Maximum number of rounds ``T`` (the paper uses 10). With ``ε > 0`` and
        a mixing below 1, long runs can drift to a constant prediction: the
        error on the base ``b`` is ``1 - (1 - a) ε`` times the error on ``p``
        when the learner classifies ``k0`` correctly (it was fitted with the
        extra mass on ``k0``), so a chance-level learner still gets ``α > 0``
        (``artanh ε`` for RILBoost II) and the stop ``e > ½`` never fires
        (Algorithm 5; measured in docs/reliability.md).
    epsilon : float in [0, 1), default=0.1
        Contamination rate ``ε`` of the local sets; ``0`` is AdaBoost.
    mixing : float in [0, 1] or {"I", "II"}, default=0.0
        Mixing parameter ``a`` of the base ``b = a p + (1 - a) π``; ``"I"`` is
        ``1`` (RILBoost I), ``"II"`` is ``0`` (RILBoost II, the paper's better
        variant).
    strategy : {"minimax", "minimin"}, default="minimax"
        Choice of the extreme point.
    C : float, default=1.0
        Box constraint of the default SVM. Its bounds are
        ``C * weight_scale * h_i``; with the default ``weight_scale`` a uniform
        ``p`` and ``ε = 0`` give exactly ``SVC(C)``, and the paper's ``C``
        (bounds ``C h_i``) is ``n`` times this one. Ignored if ``estimator`` is given.
    gamma : {"scale", "auto"} or float, default="scale"
        RBF kernel parameter of the default SVM, ``K = exp(-gamma ||x - x'||²)``.
        Ignored if ``estimator`` is given.
    search : {"auto", "shortcut", "enumerate"}, default="auto"
        ``"shortcut"``: the exact SVM shortcut; ``"enumerate"``: solve every
        extreme point (the reference); ``"auto"``: the shortcut for an ``SVC``,
        else the enumeration. Both give the same model.
    weight_scale : "n_samples" or float, default="n_samples"
        The weak learner gets ``sample_weight = weight_scale * h``;
        ``"n_samples"`` is the number of training samples with positive
        weight; ``1.0`` gives the paper's literal bounds ``C h_i``.
    n_jobs : int or None, default=None
        Threads of the weak learners' compiled kernels (the histogram trees); -1: every
        core the process may use. None chooses one thread per 500,000 rows x features
        of the training data, at most every core (design record 0022). A weak learner's
        own explicit ``n_jobs`` wins over it. The model does not depend on it.
    random_state : int, RandomState or None, default=None
        Seeds the weak learners' ``random_state`` parameters, round by round, and
        breaks minimin ties at random (the paper leaves tie-breaking open; see
        :func:`~robust_boosting.imprecise.select_extreme_point`).
""" + MONOTONIC_CST_DOC + CLASS_WEIGHT_DOC + """    unknown_categories : {"missing", "error"}, default="missing"
        What predict does with a category of a categorical column that no training
        row had: ``"missing"`` treats it as a missing value (the trees' learned
        missing-value branch, as scikit-learn's histogram boosting and LightGBM do);
        ``"error"`` raises a ValueError naming the column, the values and the rows.
""" + ID_COLUMNS_DOC + """
    Attributes
    ----------
    chosen_extreme_points_ : ndarray of int, shape (n_rounds,)
        Index ``k0`` of the training sample whose extreme point was chosen in
        each round (lists per class for one-vs-rest).
    n_svm_solves_ : ndarray of int, shape (n_rounds,)
        Weak-learner fits (SVM solves) spent in each round.
    base_solution_chosen_ : ndarray of bool, shape (n_rounds,)
        Whether the round's choice tied with the base problem (whose solution
        then stands in; with ``ε = 0`` always).
    sample_weights_ : ndarray of shape (n_samples,)
        The distribution ``p`` the next round would use.
    classes_, estimators_, estimator_weights_, estimator_errors_,
    n_estimators_, stopping_reason_ : see :class:`BaseBoostingClassifier`.

    References
    ----------
    .. [UZ] L. V. Utkin, Y. A. Zhuk, "Robust boosting classification models
       with local sets of probability distributions", Knowledge-Based Systems
       61 (2014) 59-75.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from robust_boosting.rilboost import RILBoostClassifier
    >>> X, y = make_classification(n_samples=60, random_state=0)
    >>> clf = RILBoostClassifier(epsilon=0.2, mixing="II", random_state=0).fit(X, y)
    >>> clf.n_svm_solves_.shape == clf.estimator_weights_.shape
    True
    """)

    def __init__(self, estimator=None, *, n_estimators: int = 10, epsilon: float = 0.1,
                 mixing: float | str = 0.0, strategy: str = "minimax", C: float = 1.0,
                 gamma: float | str = "scale", search: str = "auto",
                 weight_scale: float | str = "n_samples", random_state=None, unknown_categories: str = "missing",
                 id_columns: str = "drop",
                 n_jobs: int | None = None, monotonic_cst: dict | list | None = None,
                 class_weight: dict | str | None = None):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.epsilon = epsilon
        self.mixing = mixing
        self.strategy = strategy
        self.C = C
        self.gamma = gamma
        self.search = search
        self.weight_scale = weight_scale
        self.random_state = random_state
        self.unknown_categories = unknown_categories
        self.id_columns = id_columns
        self.n_jobs = n_jobs
        self.monotonic_cst = monotonic_cst
        self.class_weight = class_weight

    def _validate_params(self) -> None:
        super()._validate_params()
        check_number("epsilon", self.epsilon, low=0.0, low_open=False)
        if not self.epsilon < 1.0:
            raise ValueError(f"epsilon must be < 1, got {self.epsilon!r}.")
        _mixing_value(self.mixing)
        check_choice("strategy", self.strategy, STRATEGIES)
        check_choice("search", self.search, SEARCHES)
        check_number("C", self.C, low=0.0)
        if isinstance(self.gamma, str):
            check_choice("gamma", self.gamma, ("scale", "auto"))
        else:
            check_number("gamma", self.gamma, low=0.0)
        if isinstance(self.weight_scale, str):
            check_choice("weight_scale", self.weight_scale, ("n_samples",))
        else:
            check_number("weight_scale", self.weight_scale, low=0.0)
        if (self.search == "shortcut" and self.estimator is not None
                and not is_weighted_svm(self.estimator)):
            raise ValueError(
                "search='shortcut' needs an SVC weak learner (it is exact for weighted SVMs "
                f"only), got {type(self.estimator).__name__}; use search='auto' or 'enumerate'."
            )

    def _default_estimator(self):
        """``SVC(kernel="rbf", C=C, gamma=gamma)``."""
        return SVC(kernel="rbf", C=self.C, gamma=self.gamma)

    def _make_step(self) -> RILBoostStep:
        return RILBoostStep(EpsilonContaminationModel(self.epsilon), mixing=_mixing_value(self.mixing),
                            strategy=self.strategy, search=self.search,
                            weight_scale=self.weight_scale,
                            random_state=check_random_state(self.random_state))

    def _make_policy(self) -> ImpreciseMixingPolicy:
        return ImpreciseMixingPolicy(_mixing_value(self.mixing), float(self.epsilon))
