"""Local sets of distributions (imprecise models) and the minimax choice of a weak learner.

RILBoost [UZ]_ replaces the precise weight vector ``p`` of a boosting round by a
closed convex set of distributions around it, and trains the round's weak
learner on the *least favourable* distribution of that set (the minimax, or
Gamma-minimax, strategy; [UZ]_ Sec. 2.1-2.3 and Algorithm 3).

This module holds the three independent parts of that idea:

* the sets of distributions (:class:`ImpreciseModel`; the ε-contaminated or
  linear-vacuous model :class:`EpsilonContaminationModel`
  ``M(p, ε) = {(1 - ε) p + ε q : q in the simplex}`` with its ``n`` extreme
  points ``h^(k) = (1 - ε) p + ε e_k``; other imprecise models, e.g. the
  pari-mutuel or Kolmogorov-Smirnov sets the paper names as future work, can
  implement the same interface);
* the objective of a fitted weak learner: for a weighted SVM the optimal value
  of its quadratic programme, computed from the dual coefficients
  (:func:`svm_dual_objective`) and, as a check, from the primal
  (:func:`svm_primal_objective`); for any other classifier its weighted
  training (0-1) loss (:func:`weighted_training_loss`);
* the choice of the extreme point (:func:`select_extreme_point`): the plain
  enumeration of every extreme point, and the exact shortcut for weighted SVMs.

Weighted SVMs and the C scale
-----------------------------
For an extreme point ``h`` the weak learner solves ([UZ]_ Sec. 2.2)

    min_{w, b, ξ}  ½ ||w||² + Σ_i B_i ξ_i,   y_i (<w, φ(x_i)> + b) >= 1 - ξ_i,  ξ_i >= 0,

whose dual is ``max_φ Σ φ_i - ½ Σ_ij φ_i φ_j y_i y_j K(x_i, x_j)`` subject to
``0 <= φ_i <= B_i`` and ``Σ φ_i y_i = 0``. scikit-learn's ``SVC`` implements
the per-sample box ``B_i = C * class_weight[y_i] * sample_weight_i``. The paper
writes ``B_i = C h_i`` with ``h`` a distribution (summing to 1), so its ``C``
is on a scale ``n`` times larger than the usual SVM ``C``: with ``C = 1`` every
box would be ``1/n`` and, for the paper-size sets, nearly every sample would
sit at its bound. The learners here are fitted with
``sample_weight = weight_scale * h``; RILBoost uses ``weight_scale = n`` (the
number of samples with positive weight) by default, so that ``ε = 0`` and a
uniform ``p`` give exactly ``SVC(C)``, and the paper's ``C`` is ``n`` times
ours. ``weight_scale = 1`` reproduces the paper's literal bounds ``C h_i``.

Minimax, minimin and the paper's "smallest Lagrangian"
------------------------------------------------------
By strong duality the optimal dual value ``V_k`` of problem ``k`` equals its
optimal primal value, the minimal *regularised weighted risk* under ``h^(k)``.
Our reading of [UZ]_ eq. (2)-(3) (the paper states the rule in words, not as a
formula): the minimax strategy picks the extreme point with the **largest**
``V_k`` (the least favourable distribution); the minimin strategy the smallest.
The paper does not say how ties are broken. Under minimin they are common (every
sample strictly inside its box at the base solution ties with it, see below), so
we break them uniformly at random with the estimator's ``random_state`` (a random
order of the candidates, the first tie in that order); minimax keeps the lowest
index among equal values. The paper's sentence that the largest risk "corresponds to the
smallest value of the Lagrangian" refers to the dual written as a minimisation
(``½ φᵀQφ - Σ φ_i``, whose optimum is ``-V_k``), as QP solvers state it; it is
the same choice.

The exact shortcut (weighted SVMs, single-mass models)
------------------------------------------------------
Every extreme point is ``lower + δ e_k`` (for ``M(p, ε)``: ``lower = (1-ε) p``,
``δ = ε``), so problem ``k`` is the *base* problem (boxes ``B⁰ = C lower``)
with the box of sample ``k`` raised by ``Δ_k = C δ``. Hence ``V_k >= V_0``, and

* if sample ``k`` is strictly below its bound at the base solution, the base
  solution stays optimal (KKT) and ``V_k = V_0``;
* in general, weak duality at the base ``(w, b)`` gives
  ``V_k <= P_0 + Δ_k ξ_k⁰`` (``P_0`` the base primal value, ``ξ⁰`` the base
  slacks), and any other solved problem ``j`` gives another upper bound
  ``V_k <= P_j - Δ_j ξ_j^(j) + Δ_k ξ_k^(j)``; a solved problem's dual value
  ``D_k`` is a lower bound.

The shortcut solves the base problem, then (minimax) only the samples whose
upper bound can still beat the best value found, largest bound first — these
are the samples at their bound with a positive slack, usually far fewer — and
(minimin) only until the first sample that ties with the base. To be robust to
the solver's tolerance, a gain ``V_k - V_0`` counts only when it is *certified*:
``D_k > P_0 + τ`` with ``τ = 2 tol max_k Δ_k`` (plus rounding), ``tol`` the SVM's
stopping tolerance (a sample within ``2 tol`` of the margin is at its bound only
to solver accuracy). Problems with no certified gain tie with the base problem,
and ties take the **base solution** (and, as chosen extreme point, the one with
the lowest index). The enumeration (``search="enumerate"``) solves the base
problem and all ``n`` extreme-point problems and applies the same rule to the
values; the skipped problems provably cannot be certified, and the solved ones
are the identical solver calls, so both searches choose the same extreme point
and return the same fitted SVM.

References
----------
.. [UZ] L. V. Utkin, Y. A. Zhuk, "Robust boosting classification models with
   local sets of probability distributions", Knowledge-Based Systems 61 (2014);
   Algorithms 3-5, Sec. 2.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.base import clone
from sklearn.metrics.pairwise import pairwise_kernels
from sklearn.svm import SVC
from sklearn.utils import check_random_state

__all__ = [
    "ImpreciseModel",
    "EpsilonContaminationModel",
    "ExtremePointChoice",
    "STRATEGIES",
    "SEARCHES",
    "is_weighted_svm",
    "svm_box_bounds",
    "svm_slacks",
    "svm_dual_objective",
    "svm_primal_objective",
    "weighted_training_loss",
    "select_extreme_point",
]

#: strategies of :func:`select_extreme_point`
STRATEGIES: tuple[str, ...] = ("minimax", "minimin")
#: searches of :func:`select_extreme_point`
SEARCHES: tuple[str, ...] = ("auto", "shortcut", "enumerate")

#: multiple of the SVM tolerance below which a gain ``V_k - V_0`` is a tie
_TIE_TOLERANCE = 2.0
#: relative rounding margin of the objective values
_ROUNDING = 1e-9


# ---------------------------------------------------------------------------
# sets of distributions
# ---------------------------------------------------------------------------
class ImpreciseModel:
    """A closed convex set of distributions around ``p``, given by its extreme points.

    Subclasses implement :meth:`extreme_point_ids` and :meth:`extreme_point`,
    and may implement :meth:`single_mass_form` (which enables the SVM shortcut).
    """

    def extreme_point_ids(self, p: NDArray[np.float64], support: NDArray[np.intp]) -> NDArray[np.intp]:
        """Identifiers ``k`` of the extreme points of the set around ``p``.

        ``support`` holds the indices of the samples that may carry weight.
        """
        raise NotImplementedError

    def extreme_point(self, p: NDArray[np.float64], k: int) -> NDArray[np.float64]:
        """The extreme point ``h^(k)`` (a distribution over the samples)."""
        raise NotImplementedError

    def single_mass_form(self, p: NDArray[np.float64]) -> tuple[NDArray[np.float64], float] | None:
        """``(lower, δ)`` if every extreme point is ``lower + δ e_k`` (``k`` a sample), else None."""
        return None

    @property
    def is_precise(self) -> bool:
        """True when the set is the single distribution ``p`` (all extreme points coincide)."""
        return False


class EpsilonContaminationModel(ImpreciseModel):
    """The imprecise ε-contaminated (linear-vacuous) model ``M(p, ε)`` ([UZ]_ Sec. 2.1, 2.3).

    ``M(p, ε) = {(1 - ε) p + ε q : q in the unit simplex}``; its extreme points
    are ``h^(k) = (1 - ε) p + ε e_k``, one per sample ``k`` (here: per sample of
    the support, the samples with positive prior weight, so that a zero
    ``sample_weight`` means "absent").

    Parameters
    ----------
    epsilon : float in [0, 1)
        The contamination rate; ``0`` is the precise distribution ``p``.
    """

    def __init__(self, epsilon: float):
        epsilon = float(epsilon)
        if not 0.0 <= epsilon < 1.0:
            raise ValueError(f"epsilon must be in [0, 1), got {epsilon!r}.")
        self.epsilon = epsilon

    def extreme_point_ids(self, p, support):
        return np.asarray(support, dtype=np.intp)

    def extreme_point(self, p, k):
        h = (1.0 - self.epsilon) * np.asarray(p, dtype=np.float64)
        h[k] += self.epsilon
        return h

    def single_mass_form(self, p):
        return (1.0 - self.epsilon) * np.asarray(p, dtype=np.float64), self.epsilon

    @property
    def is_precise(self) -> bool:
        return self.epsilon == 0.0

    def __repr__(self) -> str:
        return f"EpsilonContaminationModel(epsilon={self.epsilon!r})"


# ---------------------------------------------------------------------------
# objectives of fitted weak learners
# ---------------------------------------------------------------------------
def is_weighted_svm(estimator: Any) -> bool:
    """True for a scikit-learn ``SVC`` (C-SVM: per-sample box ``C * sample_weight``)."""
    return isinstance(estimator, SVC)


def _check_binary_svc(svc) -> None:
    if not hasattr(svc, "dual_coef_"):
        raise ValueError("The SVM is not fitted.")
    if len(svc.classes_) != 2:
        raise ValueError(f"Only binary SVMs are supported, got {len(svc.classes_)} classes.")
    if svc.kernel == "precomputed":
        raise ValueError("A precomputed kernel is not supported.")


def _signed(svc, y) -> NDArray[np.float64]:
    return np.where(np.asarray(y) == svc.classes_[1], 1.0, -1.0)


def svm_box_bounds(svc, y: ArrayLike, sample_weight: ArrayLike) -> NDArray[np.float64]:
    """Per-sample box bounds ``B_i = C * class_weight[y_i] * sample_weight_i`` of a fitted ``SVC``."""
    idx = np.searchsorted(svc.classes_, np.asarray(y))
    return svc.C * np.asarray(sample_weight, dtype=np.float64) * svc.class_weight_[idx]


def svm_slacks(svc, X: ArrayLike, y: ArrayLike) -> NDArray[np.float64]:
    """Hinge slacks ``ξ_i = max(0, 1 - y_i f(x_i))`` of a fitted binary ``SVC`` (``y`` in its labels)."""
    _check_binary_svc(svc)
    return np.maximum(0.0, 1.0 - _signed(svc, y) * svc.decision_function(X))


def _kernel(svc, A, B) -> NDArray[np.float64]:
    """The SVM's kernel matrix ``K(A, B)`` (plain NumPy for the built-in kernels)."""
    kernel = svc.kernel
    if callable(kernel):
        return np.asarray(kernel(A, B), dtype=np.float64)
    A = np.asarray(A, dtype=np.float64)
    B = np.asarray(B, dtype=np.float64)
    if kernel == "rbf":
        sq = (np.einsum("ij,ij->i", A, A)[:, None] + np.einsum("ij,ij->i", B, B)[None, :]
              - 2.0 * (A @ B.T))
        return np.exp(-svc._gamma * np.maximum(sq, 0.0))
    if kernel == "linear":
        return A @ B.T
    if kernel == "poly":
        return (svc._gamma * (A @ B.T) + svc.coef0) ** svc.degree
    if kernel == "sigmoid":
        return np.tanh(svc._gamma * (A @ B.T) + svc.coef0)
    return pairwise_kernels(A, B, metric=kernel, filter_params=True, gamma=svc._gamma,
                            degree=svc.degree, coef0=svc.coef0)


def _quadratic_term(svc) -> float:
    """``Σ_ij φ_i φ_j y_i y_j K(x_i, x_j) = ||w||²`` from the dual coefficients ``y_i φ_i``."""
    coef = svc.dual_coef_[0]
    sv = svc.support_vectors_
    return float(coef @ _kernel(svc, sv, sv) @ coef)


def svm_dual_objective(svc) -> float:
    """Dual objective ``Σ φ_i - ½ Σ_ij φ_i φ_j y_i y_j K(x_i, x_j)`` of a fitted binary ``SVC``.

    ``φ`` are the Lagrange multipliers of [UZ]_ Sec. 2.2, read from
    ``dual_coef_`` (which holds ``y_i φ_i`` for the support vectors); ``K`` is
    the SVM's kernel. At the optimum it equals :func:`svm_primal_objective`.
    """
    _check_binary_svc(svc)
    return float(np.abs(svc.dual_coef_[0]).sum() - 0.5 * _quadratic_term(svc))


def svm_primal_objective(svc, X: ArrayLike, y: ArrayLike, sample_weight: ArrayLike) -> float:
    """Primal objective ``½ ||w||² + Σ_i B_i ξ_i`` of a fitted binary ``SVC`` in kernel form.

    ``||w||² = Σ_ij φ_i φ_j y_i y_j K(x_i, x_j)``, ``ξ`` the hinge slacks at the
    fitted ``(w, b)`` and ``B`` the boxes (:func:`svm_box_bounds`);
    ``X, y, sample_weight`` are the training data the SVM was fitted on. Any
    ``(w, b)`` gives an upper bound of the optimal value.
    """
    bounds = svm_box_bounds(svc, y, sample_weight)
    return float(0.5 * _quadratic_term(svc) + bounds @ svm_slacks(svc, X, y))


def weighted_training_loss(estimator, X: ArrayLike, y: ArrayLike, h: ArrayLike) -> float:
    """Weighted training 0-1 loss ``Σ_i h_i 1[f(x_i) != y_i]`` of a fitted classifier."""
    return float(np.asarray(h)[np.asarray(estimator.predict(X)) != np.asarray(y)].sum())


# ---------------------------------------------------------------------------
# choice of the extreme point
# ---------------------------------------------------------------------------
@dataclass
class ExtremePointChoice:
    """Result of :func:`select_extreme_point`.

    Attributes
    ----------
    index : int
        Identifier ``k0`` of the chosen extreme point (a sample index for ``M(p, ε)``).
    weights : ndarray
        The chosen distribution ``π = h^(k0)``.
    estimator : fitted classifier
        The weak learner that solves the chosen problem.
    value : float
        Its objective (SVM: dual value; other learners: weighted training loss).
    n_solves : int
        Weak-learner fits (SVM solves) spent on the choice.
    at_base : bool
        True when the choice ties with the base problem and the base solution stands in.
    n_bounded : int
        Samples at their box bound in the base solution (SVM only; else 0).
    values : dict
        Objective value of every problem that was solved, by extreme-point id
        (``-1``: the base problem).
    """

    index: int
    weights: NDArray[np.float64]
    estimator: Any
    value: float
    n_solves: int
    at_base: bool = False
    n_bounded: int = 0
    values: dict = field(default_factory=dict)


class _Solve:
    """One fitted SVM: its dual value now, its slacks and primal value on demand.

    ``gram`` is the kernel matrix of the training set (the SVM's kernel), so
    that no solve evaluates the kernel again.
    """

    def __init__(self, estimator, X, y, weights, gram):
        svc = estimator
        _check_binary_svc(svc)
        self.estimator = estimator
        self._y, self._weights, self._gram = y, weights, gram
        # libsvm drops zero-weight samples: support_ indexes the positive-weight ones
        self.support = np.flatnonzero(weights > 0)[svc.support_]
        coef = svc.dual_coef_[0]
        self.quad = float(coef @ gram[np.ix_(self.support, self.support)] @ coef)
        self.dual = float(np.abs(coef).sum() - 0.5 * self.quad)
        self._slacks = None

    @property
    def decision(self) -> NDArray[np.float64]:
        """Decision values ``f(x_i)`` on the training set."""
        svc = self.estimator
        return self._gram[:, self.support] @ svc.dual_coef_[0] + svc.intercept_[0]

    @property
    def slacks(self) -> NDArray[np.float64]:
        if self._slacks is None:
            self._slacks = np.maximum(0.0, 1.0 - _signed(self.estimator, self._y) * self.decision)
        return self._slacks

    @property
    def primal(self) -> float:
        bounds = svm_box_bounds(self.estimator, self._y, self._weights)
        return float(0.5 * self.quad + bounds @ self.slacks)


def _fit(learner, X, y, h, scale):
    est = clone(learner)
    est.fit(X, y, sample_weight=scale * h)
    return est


def _training_gram(svc, X, cache: dict | None) -> NDArray[np.float64]:
    """Kernel matrix ``K(X, X)`` of a fitted SVM's kernel, cached per kernel parameters."""
    if callable(svc.kernel) or cache is None:
        return _kernel(svc, X, X)
    key = (svc.kernel, float(svc._gamma), svc.degree, float(svc.coef0), X.shape)
    if key not in cache:
        cache.clear()
        cache[key] = _kernel(svc, X, X)
    return cache[key]


class _SVMSearch:
    """Shared setup of the SVM searches: the base solve, ``Δ``, ``τ`` and the decision rule."""

    def __init__(self, learner, X, y, p, model, ids, scale, gram_cache=None):
        lower, mass = model.single_mass_form(p)
        self.learner, self.X, self.y, self.p, self.model, self.scale = learner, X, y, p, model, scale
        self.ids = ids
        svc = _fit(learner, X, y, lower, scale)
        self.gram = _training_gram(svc, X, gram_cache)
        self.base = _Solve(svc, X, y, scale * lower, self.gram)
        unit = svm_box_bounds(svc, y, np.full(len(y), scale * mass))  # Δ_k for every sample
        self.delta = unit
        d_max = float(unit[ids].max()) if len(ids) else 0.0
        self.p0 = p0 = self.base.primal
        self.rho = _ROUNDING * (abs(p0) + d_max) + 1e-300
        self.tau = _TIE_TOLERANCE * float(getattr(svc, "tol", 1e-3)) * d_max + self.rho
        self.bounds0 = bounds0 = svm_box_bounds(svc, y, scale * lower)
        self.ysign = _signed(svc, y)
        coef = np.zeros(len(y))
        coef[self.base.support] = np.abs(svc.dual_coef_[0])
        self.n_bounded = int(np.count_nonzero(coef >= bounds0 * (1.0 - 1e-12)))
        self.solves: dict[int, _Solve] = {}

    @property
    def base_decision(self) -> NDArray[np.float64]:
        return self.base.decision

    def solve(self, k) -> _Solve:
        h = self.model.extreme_point(self.p, k)
        s = _Solve(_fit(self.learner, self.X, self.y, h, self.scale), self.X, self.y,
                   self.scale * h, self.gram)
        self.solves[int(k)] = s
        return s

    def certified(self, s: _Solve) -> bool:
        return s.dual > self.p0 + self.tau

    def choice(self, k, solve: _Solve | None, n_solves) -> ExtremePointChoice:
        values = {-1: self.base.dual}
        values.update({k_: s.dual for k_, s in self.solves.items()})
        at_base = solve is None
        chosen = self.base if at_base else solve
        return ExtremePointChoice(
            index=int(k), weights=self.model.extreme_point(self.p, k), estimator=chosen.estimator,
            value=chosen.dual, n_solves=n_solves, at_base=at_base, n_bounded=self.n_bounded,
            values=values)

    def decide(self, strategy) -> ExtremePointChoice:
        """The rule on the solved problems (every unsolved one must be a tie with the base)."""
        n_solves = 1 + len(self.solves)
        certified = {k: s for k, s in self.solves.items() if self.certified(s)}
        ties = [k for k in self.ids if int(k) not in certified]
        if strategy == "minimax":
            if certified:
                best = max(certified, key=lambda k: (certified[k].dual, -k))
                return self.choice(best, certified[best], n_solves)
            return self.choice(self.ids[0], None, n_solves)
        if ties:
            return self.choice(ties[0], None, n_solves)
        best = min(certified, key=lambda k: (certified[k].dual, k))
        return self.choice(best, certified[best], n_solves)


def _svm_enumerate(search: _SVMSearch, strategy) -> ExtremePointChoice:
    for k in search.ids:
        search.solve(k)
    return search.decide(strategy)


#: step sizes, as fractions of the natural step, at which the path bound is evaluated
_PATH_GRID = np.concatenate(([0.0], np.geomspace(0.05, 1.0, 12), [1.25, 1.6, 2.0]))


def _path_upper_bounds(search: _SVMSearch, cand: NDArray[np.intp]) -> NDArray[np.float64]:
    """Upper bounds of ``V_j`` (``j`` in ``cand``) from primal points on the sensitivity path.

    Raising ``α_j`` by ``δ`` from the base solution while keeping the free
    multipliers on the margin and ``Σ y α = 0`` (the incremental-SVM step of
    Cauwenberghs & Poggio) gives, for every ``δ``, a point ``(w(δ), b(δ))``;
    any such point is primal feasible (with hinge slacks), so its primal value
    for problem ``j`` bounds ``V_j`` from above whatever the direction. Until the
    first change of the active set this point is the optimum, so the bound is
    usually tight. The best of a few step sizes is kept.
    """
    svc = search.base.estimator
    K, y = search.gram, search.ysign
    n = len(y)
    alpha = np.zeros(n)
    alpha[search.base.support] = np.abs(svc.dual_coef_[0])
    bounds0 = search.bounds0
    tol = 1e-8 * np.maximum(bounds0, 1e-300)
    free = np.flatnonzero((alpha > tol) & (alpha < bounds0 - tol))
    jj = cand
    Qcols = (y[:, None] * y[None, jj]) * K[:, jj]  # Q[:, J]
    if len(free):
        QF = (y[:, None] * y[None, free]) * K[:, free]  # Q[:, F]
        M = np.zeros((len(free) + 1, len(free) + 1))
        M[:-1, :-1] = QF[free]
        M[:-1, -1] = y[free]
        M[-1, :-1] = y[free]
        rhs = -np.vstack([Qcols[free], y[jj][None, :]])
        sol = np.linalg.lstsq(M, rhs, rcond=None)[0]
        beta, beta_b = sol[:-1], sol[-1]
        Qd = QF @ beta + Qcols  # Q d_j with d_j = e_j + beta_j
    else:
        beta, beta_b = np.zeros((0, len(jj))), np.zeros(len(jj))
        Qd = Qcols
    cols = np.arange(len(jj))
    dQd = np.maximum(Qd[jj, cols] + np.einsum("fj,fj->j", beta, Qd[free]), 0.0)
    gamma = Qd + y[:, None] * beta_b[None, :]  # y_i Δf_i per unit δ
    f = search.base_decision
    Qa = y * (f - svc.intercept_[0])  # (Q α)_i
    aQa = float(alpha @ Qa)
    dQa = Qa[jj] + beta.T @ Qa[free]
    margin = 1.0 - y * f  # signed slacks
    delta_j = search.delta[jj]
    g_jj = gamma[jj, cols]
    natural = np.where(g_jj > 0, np.clip(margin[jj] / np.where(g_jj > 0, g_jj, 1.0), 0.0, None),
                       delta_j)
    natural = np.minimum(natural, delta_j)
    best = np.full(len(jj), np.inf)
    for frac in _PATH_GRID:
        d = frac * natural
        hinge = np.maximum(0.0, margin[:, None] - d[None, :] * gamma)
        value = (0.5 * (aQa + 2.0 * d * dQa + d * d * dQd) + bounds0 @ hinge
                 + delta_j * hinge[jj, cols])
        np.minimum(best, value, out=best)
    return best


def _svm_shortcut(search: _SVMSearch, strategy) -> ExtremePointChoice:
    ids = search.ids
    p0 = search.p0
    # upper bounds of V_k by weak duality at the base solution: P_0 + Δ_k ξ_k
    upper = p0 + search.delta[ids] * search.base.slacks[ids]
    tie_level = p0 + search.tau - search.rho  # at or below: cannot be certified (a tie)
    open_ = np.ones(len(ids), dtype=bool)
    live = np.flatnonzero(upper > tie_level)
    if len(live) > 1:
        np.minimum.at(upper, live, _path_upper_bounds(search, ids[live]))

    def tighten(s: _Solve, k):
        # weak duality at the solution of problem k, for every other problem j
        bound = s.primal - search.delta[k] * s.slacks[k] + search.delta[ids] * s.slacks[ids]
        np.minimum(upper, bound, out=upper)

    if strategy == "minimax":
        best = -np.inf
        while np.any(open_):
            cand = np.flatnonzero(open_)
            pos = cand[np.argmax(upper[cand])]  # first (lowest id) among equal bounds
            if upper[pos] < max(best - search.rho, tie_level) or upper[pos] <= tie_level:
                break  # nothing left can be certified or beat the best value
            open_[pos] = False
            s = search.solve(ids[pos])
            best = max(best, s.dual)
            tighten(s, ids[pos])
        return search.decide(strategy)
    # minimin: V_k >= V_0, so the first tie with the base (in the order of ``ids``,
    # randomised by select_extreme_point) is the choice
    for pos in range(len(ids)):
        if upper[pos] <= tie_level:
            break
        s = search.solve(ids[pos])
        if not search.certified(s):
            break
        tighten(s, ids[pos])
    return search.decide(strategy)


def _check_choice_args(strategy, search):
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy must be one of {list(STRATEGIES)}, got {strategy!r}.")
    if search not in SEARCHES:
        raise ValueError(f"search must be one of {list(SEARCHES)}, got {search!r}.")


def select_extreme_point(
    learner,
    X: ArrayLike,
    y: ArrayLike,
    p: ArrayLike,
    model: ImpreciseModel,
    *,
    support: ArrayLike | None = None,
    strategy: str = "minimax",
    search: str = "auto",
    weight_scale: float = 1.0,
    kernel_cache: dict | None = None,
    random_state=None,
) -> ExtremePointChoice:
    """Fit the weak learner on the minimax (or minimin) extreme point of ``model`` around ``p``.

    Implements the "build classifiers for every extreme point, select the one
    maximising the expected loss" step of [UZ]_ Algorithms 3-5, with the exact
    shortcut for weighted SVMs described in the module docstring.

    Parameters
    ----------
    learner : classifier
        Unfitted weak learner accepting ``sample_weight`` (cloned for every fit).
        A scikit-learn ``SVC`` is compared by its optimal objective value
        (:func:`svm_dual_objective`); any other classifier by its weighted
        training loss (:func:`weighted_training_loss`).
    X, y : array-like
        Training data (binary ``y`` for an SVM).
    p : array-like of shape (n_samples,)
        The current distribution (non-negative, summing to 1).
    model : ImpreciseModel
        The set of distributions, e.g. :class:`EpsilonContaminationModel`.
    support : array-like of int, optional
        Samples that may carry weight (default: all).
    strategy : {"minimax", "minimin"}, default="minimax"
        Largest (least favourable) or smallest optimal objective.
    search : {"auto", "shortcut", "enumerate"}, default="auto"
        ``"enumerate"`` fits every extreme point (and, for an SVM, the base
        problem, whose solution stands for ties); ``"shortcut"`` is the exact
        SVM shortcut (SVM and single-mass models only); ``"auto"`` is the
        shortcut where it applies, else the enumeration, with a single fit when
        all extreme points coincide.
    weight_scale : float, default=1.0
        The learner is fitted with ``sample_weight = weight_scale * h``.
    kernel_cache : dict, optional
        A dict kept by the caller across calls on the same ``X`` (e.g. the
        rounds of one boosting fit): the SVM's kernel matrix on ``X`` is
        computed once and stored there.
    random_state : int, RandomState or None, default=None
        Breaks minimin ties: the candidates are visited in a random order drawn
        from it and the first tie in that order is chosen (uniform among the ties;
        the paper leaves tie-breaking open). Not used by minimax.

    Returns
    -------
    ExtremePointChoice
    """
    _check_choice_args(strategy, search)
    p = np.asarray(p, dtype=np.float64)
    y = np.asarray(y)
    ids = np.arange(len(p)) if support is None else np.asarray(support, dtype=np.intp)
    ids = np.asarray(model.extreme_point_ids(p, ids), dtype=np.intp)
    if len(ids) == 0:
        raise ValueError("The set of distributions has no extreme point (empty support).")
    if strategy == "minimin":  # ties: the first in a random order, not the lowest row
        ids = ids[check_random_state(random_state).permutation(len(ids))]
    svm = is_weighted_svm(learner)
    single = model.single_mass_form(p) is not None
    if search == "shortcut" and not (svm and single):
        raise ValueError(
            "search='shortcut' needs a scikit-learn SVC weak learner and an imprecise model "
            "whose extreme points put extra mass on one sample; use search='enumerate'."
        )
    if svm and single:
        state = _SVMSearch(learner, X, y, p, model, ids, weight_scale, kernel_cache)
        if search == "enumerate":
            return _svm_enumerate(state, strategy)
        return _svm_shortcut(state, strategy)
    if search == "auto" and model.is_precise:
        k = int(ids[0])
        h = model.extreme_point(p, k)
        est = _fit(learner, X, y, h, weight_scale)
        value = weighted_training_loss(est, X, y, h)
        return ExtremePointChoice(k, h, est, value, 1, values={k: value})
    values, fits = {}, {}
    for k in ids:
        h = model.extreme_point(p, k)
        fits[int(k)] = _fit(learner, X, y, h, weight_scale)
        values[int(k)] = weighted_training_loss(fits[int(k)], X, y, h)
    if strategy == "minimax":
        k0 = max(values, key=lambda k: (values[k], -k))
    else:
        order = {int(k): i for i, k in enumerate(ids)}
        k0 = min(values, key=lambda k: (values[k], order[k]))
    return ExtremePointChoice(k0, model.extreme_point(p, k0), fits[k0], values[k0], len(ids),
                              values=values)
