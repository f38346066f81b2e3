"""Robust boosters of the comparisons: SavageBoost, RBoost and RobustBoost.

Thin compositions on the shared loop
(:class:`~robust_boosting._boosting.BaseBoostingClassifier`). All three are
binary algorithms; for more than two classes the shared one-vs-rest path
fits one binary ensemble per class.

References
----------
.. [SAV] H. Masnadi-Shirazi, N. Vasconcelos, "On the Design of Loss Functions
   for Classification: theory, robustness to outliers, and SavageBoost",
   NIPS 2008.
.. [RB] Q. Miao, Y. Cao, G. Xia, M. Gong, J. Liu, J. Song, "RBoost: label
   noise-robust boosting algorithm based on a nonconvex loss function and the
   numerically stable base learners", IEEE TNNLS 27(11), 2016.
.. [FR] Y. Freund, "A more robust boosting algorithm", arXiv:0905.2138, 2009.
.. [SPL] K. Wang, Y. Wang, Q. Zhao, D. Meng, Z. Xu, "SPLBoost: An Improved
   Robust Boosting Algorithm Based on Self-paced Learning", IEEE Trans.
   Cybernetics, 2019 (the comparison these baselines come from).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import brentq, least_squares
from scipy.special import erfc, erfcinv

from ._boosting import ERROR_FLOOR, BaseBoostingClassifier, BoostingState, RoundResult, Step
from ._estimator_parts import ClassProbabilityBooster, GentleLossBooster
from ._loop_kernels import fdot
from ._validation import CLASS_WEIGHT_DOC, ID_COLUMNS_DOC, MONOTONIC_CST_DOC, check_number
from .steps import class_output

__all__ = ["SavageBoostClassifier", "RBoostClassifier", "RobustBoostClassifier",
           "RobustBoostStep", "RobustBoostState", "robustboost_rho"]


class SavageBoostClassifier(ClassProbabilityBooster):
    # the docstring is built from shared parts, so it is assigned
    __doc__ = ("""SavageBoost ([SAV]_ Algorithm 1): RealBoost-style fitting of the Savage loss.

    Loss ``phi(m) = 1 / (1 + e^{2m})²`` ([SAV]_ eq. (26)). Each round (our reading of [SAV]_ Algorithm 1, derived below):

    1. weights ``w_i ∝ s_i (-phi'(m_i)) = s_i 4 e^{2m_i} / (1 + e^{2m_i})³``
       (``s`` the ``sample_weight``, ``m_i = y_i F(x_i)``);
    2. a class-probability weak learner is fitted on them, giving in each
       region (tree leaf) ``p = P_w(y = +1 | x)``, clipped to ``[clip, 1 - clip]``;
    3. ``G(x) = ½ log(p / (1 - p))`` ([SAV]_ eq. (30)) and ``F <- F + G``.

    *Derivation of the weights* (ours: the paper gives the update through
    ``w(x, y) = e^{y F(x)}`` and the re-weighted conditional risk, eqs.
    (27)-(30), and its Algorithm 1 prints ``w <- w e^{+yG}``, which we do not
    follow). Consider, per region (tree leaf), the Savage risk
    ``sum_i phi(y_i (F_i + G))`` as a function of the constant ``G``: its
    derivative at ``G = 0`` is ``-sum_i y_i (-phi'(m_i))``. Weighting the
    samples by ``w_i = -phi'(m_i)`` makes ``G = ½ log(P_w(+1)/P_w(-1))`` zero
    exactly where that derivative is zero and gives ``G`` the sign of the
    descent direction elsewhere. The step does **not** minimise the Savage
    risk of the region: ``G`` is the minimiser of the *exponential* risk of the
    re-weighted region (the elicitation form of [SAV]_ eq. (30)), and its size
    is set by the clipping, not by a line search. The weights are bounded (at
    most ``16/27``, at ``m = -½ log 2``) and tend to 0 as ``m -> -inf``: a
    sample with a very wrong label stops pulling the model, the source of the
    robustness ([SPL]_ Fig. 1). They also tend to 0 for large positive
    margins. The paper's claim that SavageBoost converges in fewer rounds
    (about 25 of 50 at 0 % outliers) is not derived from these weights, and
    is not checked by our experiments.

    Parameters
    ----------
    estimator : classifier with predict_proba, default=None
        Weak learner accepting ``sample_weight``; a decision stump if None.
    n_estimators : int, default=100
    learning_rate : float, default=1.0
        Shrinks each round's ``G``.
    clip : float in (0, 0.5), default=0.05
        Probability clipping of step 3: a round moves a margin by at most
        ``½ log((1 - clip)/clip)`` (about 1.47). The default is larger than
        RealBoost's because the Savage weights decay like ``e^{-4m}`` for
        positive margins: with ``clip = 1e-4`` one pure leaf moves its samples
        by 4.6, their weights drop by ``e^{-18}``, the later learners see only
        a handful of samples and the fit oscillates (measured on the breast
        cancer data: 91 % test accuracy at ``1e-4``, 95 % at 0.05; AdaBoost 95 %).
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
    classes_, estimators_, estimator_weights_, estimator_errors_,
    n_estimators_, stopping_reason_, sample_weights_, feature_importances_
        As for :class:`~robust_boosting.classical.RealBoostClassifier`.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from robust_boosting import SavageBoostClassifier
    >>> from robust_boosting.noise import flip_labels
    >>> X, y = make_classification(n_samples=400, random_state=0)
    >>> y_noisy, flipped = flip_labels(y, 0.2, random_state=0)
    >>> clf = SavageBoostClassifier(n_estimators=50, random_state=0).fit(X, y_noisy)
    >>> round(clf.score(X, y), 2)  # accuracy on the true labels
    0.82
    """)

    _default_loss = "savage"

    def __init__(self, estimator=None, *, n_estimators: int = 100, learning_rate: float = 1.0,
                 clip: float = 0.05, random_state=None, unknown_categories: str = "missing",
                 id_columns: str = "drop",
                 n_jobs: int | None = None, monotonic_cst: dict | list | None = None,
                 class_weight: dict | str | None = None):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.learning_rate = learning_rate
        self.clip = clip
        self.random_state = random_state
        self.unknown_categories = unknown_categories
        self.id_columns = id_columns
        self.n_jobs = n_jobs
        self.monotonic_cst = monotonic_cst
        self.class_weight = class_weight


class RBoostClassifier(GentleLossBooster):
    # the docstring is built from shared parts, so it is assigned
    __doc__ = ("""RBoost (Miao et al. 2016), **a reconstruction**: GentleBoost's step on the Savage2 loss.

    The SPLBoost paper ([SPL]_ Sec. II) describes RBoost only as minimising
    the Savage2 loss ``phi(m) = 1 / (1 + e^{m})²`` with "a numerically
    stable" Newton-type step and regression weak learners; the original
    algorithm ([RB]_) is not reproduced here. Our version: each round
    fits a regressor to ``y`` by weighted least squares with the weights
    ``w_i ∝ s_i (-phi'(m_i)) = s_i 2 e^{m_i} / (1 + e^{m_i})³`` and adds its
    prediction ``f(x) in [-1, 1]`` (the step is
    :class:`~robust_boosting.steps.GentleStep`). The weights are bounded and
    vanish as ``m -> -inf``, and the bounded step keeps it numerically stable.

    Parameters
    ----------
    estimator : regressor, default=None
        Weak learner accepting ``sample_weight``; a regression stump if None.
    n_estimators : int, default=100
    learning_rate : float, default=1.0
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
    As for :class:`~robust_boosting.classical.GentleBoostClassifier`.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from robust_boosting import RBoostClassifier
    >>> X, y = make_classification(n_samples=300, flip_y=0.1, random_state=0)
    >>> clf = RBoostClassifier(n_estimators=50, random_state=0).fit(X, y)
    >>> clf.score(X, y) > 0.85
    True
    """)

    _default_loss = "savage2"


class RobustBoostClassifier(BaseBoostingClassifier):
    # the docstring is built from shared parts, so it is assigned
    __doc__ = ("""RobustBoost ([FR]_; MATLAB's ``fitcensemble(..., 'Method', 'RobustBoost')``).

    A boost-by-majority-type algorithm with a time variable ``t in [0, 1]``
    and a non-convex potential that changes with ``t`` ([FR]_; the round is
    :class:`RobustBoostStep`, which documents the
    equations, the solver and the stopping rules). It aims at a training set
    on which a fraction ``error_goal`` of the margins ends below
    ``max_margin``; samples that stay far on the wrong side get vanishing
    weight. The vote weights are ``beta_j = dm_j exp(-(t_final - t_j))``.

    Parameters
    ----------
    estimator : classifier, default=None
        Weak learner accepting ``sample_weight``; a decision stump if None
        (MATLAB's default ``'Tree'`` template is a shallow tree).
    n_estimators : int, default=100
        Maximum number of rounds (the loop usually stops earlier, when ``t``
        reaches 1).
    error_goal : float in (0, 1), default=0.1
        Target training error ``epsilon``. It must leave ``rho > 0`` (for
        ``max_margin = 0``: ``error_goal < 0.5``), else a ValueError, as in MATLAB.
    max_margin : float >= 0, default=0.0
        Margin ``theta`` the training margins should reach.
    margin_sigma : float > 0, default=0.1
        Spread ``sigma`` of the final margin distribution.
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
    rho_ : float
        Solution of the ``rho`` equation (:func:`robustboost_rho`).
    final_time_ : float
        Time ``t`` at the end (``<= 1``).
    times_ : ndarray
        ``t_j`` after each round.
    margin_steps_ : ndarray
        ``dm_j`` of each round.
    step_residuals_ : ndarray
        Largest absolute residual of the two equations per round (the last
        round's potential residual only when ``t`` reached 1; NaN for a perfect learner).
    estimator_weights_ : ndarray
        ``beta_j``.
    classes_, estimators_, estimator_errors_, n_estimators_, stopping_reason_,
    sample_weights_, feature_importances_
        As for :class:`~robust_boosting.adaboost.AdaBoostClassifier`. Each is a
        list with one entry per class for K > 2 (one-vs-rest).

    Notes
    -----
    The parameters with MATLAB's names and defaults side by side:

    ===============  ========================  =======
    ours             MATLAB                    default
    ===============  ========================  =======
    error_goal       ``RobustErrorGoal``       0.1
    max_margin       ``RobustMaxMargin``       0
    margin_sigma     ``RobustMarginSigma``     0.1
    n_estimators     ``NumLearningCycles``     100
    ===============  ========================  =======

    ``decision_function`` is ``F = sum_j beta_j h_j`` (on the training set
    ``y F`` equals the final RobustBoost margins); ``predict_proba`` applies
    the library's usual link ``1 / (1 + e^{-2F})`` to it and is not calibrated.
    The staged predictions are exact: after round ``k`` the RobustBoost score
    is ``e^{t_final - t_k} sum_{j <= k} beta_j h_j``, a positive multiple.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from robust_boosting import RobustBoostClassifier
    >>> X, y = make_classification(n_samples=300, flip_y=0.1, random_state=0)
    >>> clf = RobustBoostClassifier(error_goal=0.1, random_state=0).fit(X, y)
    >>> bool(0 < clf.final_time_ <= 1)
    True
    >>> clf.score(X, y) > 0.85
    True
    """)

    def __init__(self, estimator=None, *, n_estimators: int = 100, error_goal: float = 0.1,
                 max_margin: float = 0.0, margin_sigma: float = 0.1, random_state=None, unknown_categories: str = "missing",
                 id_columns: str = "drop",
                 n_jobs: int | None = None, monotonic_cst: dict | list | None = None,
                 class_weight: dict | str | None = None):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.error_goal = error_goal
        self.max_margin = max_margin
        self.margin_sigma = margin_sigma
        self.random_state = random_state
        self.unknown_categories = unknown_categories
        self.id_columns = id_columns
        self.n_jobs = n_jobs
        self.monotonic_cst = monotonic_cst
        self.class_weight = class_weight

    def _validate_params(self):
        super()._validate_params()
        check_number("error_goal", self.error_goal, low=0, high=1)
        if self.error_goal >= 1:
            raise ValueError(f"error_goal must be < 1, got {self.error_goal!r}.")
        check_number("max_margin", self.max_margin, low=0, low_open=False)
        check_number("margin_sigma", self.margin_sigma, low=0)
        rho = robustboost_rho(self.error_goal, self.max_margin, self.margin_sigma)
        if not rho > 0:
            raise ValueError(
                f"error_goal={self.error_goal!r} is too high for max_margin="
                f"{self.max_margin!r} and margin_sigma={self.margin_sigma!r}: RobustBoost's "
                f"rho would be {rho:.4g} <= 0 (MATLAB refuses it too)."
            )

    def _make_step(self):
        return RobustBoostStep(float(self.error_goal), float(self.max_margin),
                               float(self.margin_sigma))


# ---------------------------------------------------------------------------
# RobustBoost's step (Freund 2009): its time-dependent potential and round.
# Until release 0.1.0 these lived in robust_boosting.steps, which still resolves
# the old names (model files of that release name them so).

_E = float(np.e)
_SQRT_PI = float(np.sqrt(np.pi))


def _sigma0(margin_sigma: float) -> float:
    return float(np.sqrt(_E**2 * (margin_sigma**2 + 1.0) - 1.0))


def robustboost_rho(error_goal: float, max_margin: float, margin_sigma: float) -> float:
    """The ``rho`` of RobustBoost: the root of the equation

    ``1 - ½ (1 + erf((2 (e - 1) rho - e theta) / sqrt(e² (sigma² + 1) - 1))) = epsilon``,

    i.e. the potential of a zero margin at time 0 equals the error goal.
    Since ``1 - ½ (1 + erf(x)) = ½ erfc(x)``, the root is
    ``rho = (sigma_0 erfcinv(2 epsilon) + e theta) / (2 (e - 1))`` with
    ``sigma_0 = sqrt(e² (sigma² + 1) - 1)`` (exact up to rounding; MATLAB
    solves the same equation with ``fsolve``).
    """
    s0 = _sigma0(margin_sigma)
    return float((s0 * erfcinv(2.0 * error_goal) + _E * max_margin) / (2.0 * (_E - 1.0)))


def _round_residual(info: dict) -> float:
    """Largest residual a RobustBoost round had to satisfy (NaN for a perfect learner)."""
    res = np.asarray(info["residuals"], dtype=np.float64)
    if not np.all(np.isfinite(res)):
        return float("nan")
    return float(res[1] if info.get("potential_only") else res.max())


@dataclass
class RobustBoostState:
    """RobustBoost's own state across rounds: the time ``t`` and the kept steps."""

    #: the time ``t in [0, 1]`` after the last kept round
    t: float = 0.0
    #: ``(dm, dt, t)`` of every kept round (for the stall rule)
    history: list[tuple[float, float, float]] = field(default_factory=list)


class RobustBoostStep(Step):
    """RobustBoost's round (Freund 2009; MATLAB ``fitcensemble(..., 'Method', 'RobustBoost')``).

    The state is a time ``t in [0, 1]`` (a :class:`RobustBoostState`, the
    loop's ``state.step_state``) and the margins ``s_i = y_i F(x_i)``. With ``z = 1 - t``,
    ``sigma(t) = sqrt((sigma² + 1) e^{2z} - 1)`` and
    ``mu(t) = (theta - 2 rho) e^{z} + 2 rho`` (see :func:`robustboost_rho`):

    * potential ``Phi(s, t) = 1 - ½ (1 + erf((s - mu(t)) / sigma(t)))``;
    * sample weight ``w(s, t) = exp(-((s - mu(t)) / sigma(t))²) / (sqrt(pi) sigma(t))``
      ``= -dPhi/ds`` (:meth:`log_weights` returns its logarithm).

    Each round fits a classifier ``h in {-1, +1}`` on those weights and, with
    ``u_i = y_i h(x_i)`` and ``s_i' = s_i e^{-dt} + u_i dm``, solves the two
    equations (sums weighted by the normalised ``sample_weight``)

    * ``G(dm, dt) = sum_i u_i w(s_i', t + dt) = 0``
      (the new weights make ``h`` useless, as in AdaBoost),
    * ``P(dm, dt) = sum_i [Phi(s_i', t + dt) - Phi(s_i, t)] = 0``
      (the average potential stays at its initial value ``epsilon``),

    for ``dm >= 0`` and ``0 <= dt <= 1 - t`` with
    :func:`scipy.optimize.least_squares` (analytic Jacobian; from MATLAB's
    start ``(0, min((1 - t)/2, 0.01))`` and from an AdaBoost-like start).
    Then ``s <- s'`` (:meth:`update_raw`: ``F <- F e^{-dt} + dm h``) and
    ``t <- t + dt`` (:meth:`accept`). Every kept round solves both equations
    to ``tol`` (max absolute residual, recorded in the round's info), except:

    * the time reaches 1 (``dt = 1 - t``): only the potential equation can
      then hold; the round is kept if it does and the loop stops ("time t
      reached 1");
    * no solution, or ``dm = 0`` (no progress): the learner is discarded and
      the loop stops with the reason;
    * ``h`` no better than chance under ``w``: discarded, loop stops;
    * a perfect ``h`` (every ``u_i = +1``; ``G > 0`` for all ``dm``): it is
      kept with ``dt = 1 - t`` and the ``dm`` that puts every margin at
      least ``theta + 3 sigma`` above 0, and the loop stops;
    * progress stalls (the last 5 rounds all have ``dm < 1/n`` and
      ``dt < 1e-6 t``): the loop stops. This safeguard is ours: Freund (2009)
      gives no stall rule, and MATLAB's documentation of ``RobustBoost`` does
      not state the one its implementation uses.

    :meth:`finalize` turns the steps into the vote weights
    ``beta_j = dm_j exp(-(t_final - t_j))`` (``t_j`` the time after round
    ``j``), so that ``y_i sum_j beta_j h_j(x_i) = s_i`` exactly.
    """

    native_multiclass = False
    STALL_ROUNDS = 5

    def __init__(self, error_goal: float = 0.1, max_margin: float = 0.0,
                 margin_sigma: float = 0.1, tol: float = 1e-8):
        super().__init__(loss=None)
        self.error_goal = error_goal
        self.max_margin = max_margin
        self.margin_sigma = margin_sigma
        self.tol = tol
        self.rho = robustboost_rho(error_goal, max_margin, margin_sigma)

    # -- the potential and its weights --------------------------------------
    def mu_sigma(self, t: float) -> tuple[float, float]:
        """``(mu(t), sigma(t))``."""
        z = 1.0 - t
        sig = float(np.sqrt((self.margin_sigma**2 + 1.0) * np.exp(2.0 * z) - 1.0))
        mu = float((self.max_margin - 2.0 * self.rho) * np.exp(z) + 2.0 * self.rho)
        return mu, sig

    def potential(self, s, t: float) -> np.ndarray:
        """``Phi(s, t) = ½ erfc((s - mu(t)) / sigma(t))``."""
        mu, sig = self.mu_sigma(t)
        return 0.5 * erfc((np.asarray(s, dtype=np.float64) - mu) / sig)

    def weight(self, s, t: float) -> np.ndarray:
        """``w(s, t) = -dPhi/ds``."""
        return np.exp(self.log_weight(s, t))

    def log_weight(self, s, t: float) -> np.ndarray:
        mu, sig = self.mu_sigma(t)
        a = (np.asarray(s, dtype=np.float64) - mu) / sig
        return -(a * a) - np.log(_SQRT_PI * sig)

    def init_state(self, state: BoostingState) -> RobustBoostState:
        return RobustBoostState()

    def time(self, state: BoostingState) -> float:
        """The time ``t`` reached so far in this run."""
        return state.step_state.t

    def log_weights(self, state: BoostingState) -> np.ndarray:
        return self.log_weight(state.margins, self.time(state))

    def sample_loss(self, margins) -> np.ndarray:
        """RobustBoost's loss is its potential at time 0 (the policy-facing loss)."""
        return self.potential(margins, 0.0)

    # -- the round's two equations ---------------------------------------------
    def equations(self, x, s, u, sw, t):
        """Residuals ``(G, P)`` at ``x = (dm, dt)`` and their Jacobian."""
        dm, dt = float(x[0]), float(x[1])
        decay = np.exp(-dt)
        s_new = s * decay + u * dm
        t_new = t + dt
        mu, sig = self.mu_sigma(t_new)
        a = (s_new - mu) / sig
        w = np.exp(-(a * a)) / (_SQRT_PI * sig)
        sw_w = sw * w
        G = fdot(sw_w, u)
        P = fdot(sw, 0.5 * erfc(a)) - fdot(sw, self.potential(s, t))
        # derivatives: d mu/d dt = -(mu - 2 rho); d sigma/d dt = -(sigma² + 1)/sigma
        dsig = -(sig * sig + 1.0) / sig
        da_dm = u / sig
        da_dt = (-s * decay + (mu - 2.0 * self.rho)) / sig - a * dsig / sig
        # dPhi/da = -sigma w; dw/dx = w (-2 a da/dx - dsigma/dx / sigma)
        dP = np.array([-sig * fdot(sw_w, da_dm), -sig * fdot(sw_w, da_dt)])
        dG = np.array([
            fdot(sw_w * u, -2.0 * a * da_dm),
            fdot(sw_w * u, -2.0 * a * da_dt - dsig / sig),
        ])
        return np.array([G, P]), np.vstack([dG, dP])

    def solve(self, s, u, sw, t):
        """Find ``(dm, dt)``; returns ``(dm, dt, residuals)``."""
        t_room = 1.0 - t

        def fun(x):
            return self.equations(x, s, u, sw, t)[0]

        def jac(x):
            return self.equations(x, s, u, sw, t)[1]

        edge = fdot(sw * self.weight(s, t), u) / max(fdot(sw, self.weight(s, t)), 1e-300)
        mu, sig = self.mu_sigma(t)
        alpha = 0.5 * np.log((1.0 + edge) / max(1.0 - edge, 1e-12))
        starts = [
            (0.0, min(t_room / 2.0, 0.01)),
            (min(alpha, 1.0) * sig, min(t_room / 2.0, 0.01)),
            (0.5 * sig * max(edge, 1e-3), min(t_room / 4.0, 1e-3)),
        ]
        best = None
        for x0 in starts:
            try:
                sol = least_squares(
                    fun, np.asarray(x0), jac=jac, bounds=([0.0, 0.0], [np.inf, t_room]),
                    method="trf", xtol=1e-15, ftol=1e-15, gtol=1e-15, max_nfev=200,
                )
            except (ValueError, FloatingPointError):  # pragma: no cover - defensive
                continue
            res = np.abs(fun(sol.x))
            if best is None or res.max() < best[2].max():
                best = (float(sol.x[0]), float(sol.x[1]), res)
            if res.max() <= self.tol and sol.x[1] < t_room:
                break
        if best is None:
            return 0.0, 0.0, np.array([np.inf, np.inf])
        return best

    def fit_target(self, state: BoostingState) -> np.ndarray:
        return state.y_idx

    def finish_round(self, learner, state: BoostingState, weights, target) -> RoundResult:
        round_ = state.round + 1
        h = class_output(learner.predict(state.X), 2)
        u = state.y * h
        err = float(weights[u < 0].sum())
        s = state.margins
        t = self.time(state)
        sw = state.sample_weight
        info = {"t_start": t}
        if err >= 0.5 - ERROR_FLOOR:
            return RoundResult(
                learner, None, 0.0, err, keep=False,
                stop=(
                    f"the weak learner of round {round_} is no better than chance "
                    f"(weighted error {err:.4g} >= 0.5); it was discarded"
                ),
            )
        support = sw > 0
        if np.all(u[support] > 0):
            dt = 1.0 - t
            target = self.max_margin + 3.0 * self.margin_sigma
            dm = float(max(np.max(target - s[support] * np.exp(-dt)), self.margin_sigma))
            info.update(dm=dm, dt=dt, t=1.0, residuals=np.full(2, np.nan))
            return RoundResult(
                learner, h, dm, err, info=info,
                stop=f"perfect weak learner at round {round_} (weighted training error 0)",
            )
        dm, dt, res = self.solve(s, u, sw, t)
        t_new = t + dt
        at_end = dt >= (1.0 - t) - 1e-12
        info.update(dm=dm, dt=dt, t=min(t_new, 1.0), residuals=res)
        if at_end or res.max() > self.tol:
            # no interior solution (or the solver ended on the boundary): at t + dt = 1
            # only the potential equation can hold (MATLAB drops G there too); a learner
            # good enough to bring the potential below the goal ends the time in one step
            if at_end and res[1] <= self.tol:
                dm_end, res_end = dm, res
            else:
                dm_end, res_end = self._potential_only(s, u, sw, t, max(dm, 1e-3))
            if res_end[1] <= self.tol and dm_end > 0:
                dm, res = dm_end, res_end
                info.update(dm=dm, dt=1.0 - t, residuals=res, potential_only=True)
                info["t"] = 1.0
                return RoundResult(
                    learner, h, dm, err, info=info,
                    stop=f"RobustBoost's time t reached 1 at round {round_}",
                )
        if res.max() > self.tol or not dm > 0:
            why = (
                f"no solution (residuals {res[0]:.2e}, {res[1]:.2e} > {self.tol:g})"
                if res.max() > self.tol else "a zero margin step dm"
            )
            return RoundResult(
                learner, None, 0.0, err, keep=False,
                stop=f"RobustBoost's step equations of round {round_} gave {why}; "
                     "the learner was discarded",
            )
        stop = None
        history = state.step_state.history
        recent = history[-(self.STALL_ROUNDS - 1):] + [(dm, dt, t_new)]
        n = s.shape[0]
        if len(recent) >= self.STALL_ROUNDS and all(
            r_dm < 1.0 / n and r_dt < 1e-6 * r_t for r_dm, r_dt, r_t in recent
        ):
            stop = f"RobustBoost's progress stalled at round {round_} (tiny steps dm and dt)"
        return RoundResult(learner, h, dm, err, stop=stop, info=info)

    def _potential_only(self, s, u, sw, t, dm_guess):
        """At ``dt = 1 - t``: the ``dm`` that keeps the potential (``brentq``), if bracketed."""
        dt = 1.0 - t

        def p_of(dm):
            return self.equations((dm, dt), s, u, sw, t)[0][1]

        grid = np.concatenate(([0.0, dm_guess], np.geomspace(1e-6, 1e3, 60)))
        grid = np.unique(grid[grid >= 0])
        vals = np.array([p_of(d) for d in grid])
        best_dm, best_res = dm_guess, self.equations((dm_guess, dt), s, u, sw, t)[0]
        for lo, hi, f_lo, f_hi in zip(grid[:-1], grid[1:], vals[:-1], vals[1:], strict=True):
            if f_lo == 0.0 and lo > 0:
                return float(lo), np.abs(self.equations((lo, dt), s, u, sw, t)[0])
            if f_lo * f_hi < 0:
                root = brentq(p_of, lo, hi, xtol=1e-15, rtol=4 * np.finfo(float).eps)
                return float(root), np.abs(self.equations((root, dt), s, u, sw, t)[0])
        return best_dm, np.abs(best_res)

    def output(self, estimator, X, n_classes: int) -> np.ndarray:
        return class_output(estimator.predict(X), 2)

    def update_raw(self, raw, result: RoundResult) -> np.ndarray:
        return raw * np.exp(-result.info["dt"]) + result.coef * result.output

    def accept(self, state: BoostingState, result: RoundResult) -> None:
        state.step_state.t = float(result.info["t"])
        state.step_state.history.append(
            (result.info["dm"], result.info["dt"], result.info["t"])
        )

    def finalize(self, ensemble) -> None:
        times = np.array([r["t"] for r in ensemble.rounds], dtype=np.float64)
        steps = np.array([r["dm"] for r in ensemble.rounds], dtype=np.float64)
        t_final = float(times[-1]) if times.size else 0.0
        ensemble.coefs = list(steps * np.exp(-(t_final - times)))
        ensemble.info.update(
            rho=self.rho,
            final_time=t_final,
            times=times,
            margin_steps=steps,
            step_residuals=np.array([_round_residual(r) for r in ensemble.rounds]),
        )
