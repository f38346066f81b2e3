"""Self-paced (SP) regularizers: closed-form weights ``v*(lambda; loss)`` and latent losses.

Self-paced learning minimises ``sum_i v_i loss_i + f(v_i; lambda)`` over
``v in [0, 1]^n``. For fixed losses the minimiser has a closed form
``v*(lambda; loss)`` (SPLBoost paper [SPL]_ Sec. II, eqs. (2) and the three
soft-weighting schemes), and alternating between ``v`` and the model is a
majorization-minimization algorithm on the *latent* objective
``sum_i F_lambda(loss_i)`` with ``F_lambda(l) = integral_0^l v*(lambda; u) du``
([SPL]_ Theorem 1, eqs. (15)-(16)).

``lambda`` is called the *age*. ``age = inf`` means "keep every sample"
(``v = 1`` for every built-in regularizer except ``mixture``).

References
----------
.. [SPL] K. Wang, Y. Wang, Q. Zhao, D. Meng, Z. Xu, "SPLBoost: An Improved
   Robust Boosting Algorithm Based on Self-paced Learning", IEEE Trans.
   Cybernetics, 2019.
.. [MZ] D. Meng, Q. Zhao, L. Jiang, "A theoretical understanding of self-paced
   learning", Information Sciences, 2017.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._boosting import WeightPolicy
from ._loop_kernels import fdot

__all__ = [
    "SPRegularizer",
    "HardRegularizer",
    "LinearRegularizer",
    "PolynomialRegularizer",
    "MixtureRegularizer",
    "CallableRegularizer",
    "DropFractionRegularizer",
    "AGE_REGULARIZER_NAMES",
    "REGULARIZER_NAMES",
    "get_regularizer",
    "default_age",
    "default_warm_start_rounds",
    "DEFAULT_PEAK_LOSS",
    "SelfPacedPolicy",
]


def _arr(x: ArrayLike) -> NDArray[np.float64]:
    return np.asarray(x, dtype=np.float64)


class SPRegularizer:
    """Base class of SP-regularizers.

    Subclasses implement :meth:`weight` (``v*``) and :meth:`latent_loss`
    (``F_lambda``), and :meth:`penalty` (``f(v; lambda)``) where the paper gives it.
    All methods are vectorised over ``loss`` (non-negative) and accept ``age = inf``.
    """

    name = "regularizer"

    def weight(self, loss: ArrayLike, age: float) -> NDArray[np.float64]:
        """Closed-form optimal weight ``v*(age; loss)`` in ``[0, 1]``."""
        raise NotImplementedError

    def latent_loss(self, loss: ArrayLike, age: float) -> NDArray[np.float64]:
        """Latent loss ``F_age(loss) = integral_0^loss v*(age; u) du``."""
        raise NotImplementedError

    def penalty(self, v: ArrayLike, age: float) -> NDArray[np.float64]:
        """The SP-regularizer ``f(v; age)`` whose minimiser of ``v*loss + f`` is :meth:`weight`."""
        raise NotImplementedError(f"{type(self).__name__} has no closed-form penalty.")

    def grown_age(self, loss: NDArray[np.float64], v: NDArray[np.float64], age: float,
                  growth: float) -> float | None:
        """A larger age that lets samples with ``v = 0`` back in (self-paced learning's growing
        age, Kumar, Packer & Koller 2010): ``growth * max(age, smallest loss with v = 0)``;
        None where the regularizer's age cannot grow.

        Every regularizer whose ``v*`` is 0 exactly from the age on (hard, linear,
        polynomial, mixture) gives the samples of loss below the new age a positive weight.
        """
        dropped = loss[v == 0]
        return growth * max(age, float(dropped.min())) if dropped.size else age

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in vars(self).items())
        return f"{type(self).__name__}({params})"

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and vars(self) == vars(other)

    def __hash__(self) -> int:
        return hash((type(self).__name__, tuple(sorted(vars(self).items()))))


class HardRegularizer(SPRegularizer):
    """Hard weighting, ``f(v; lambda) = -lambda v`` ([SPL]_ eqs. (1)-(2)).

    ``v* = 1`` if ``loss < lambda`` else 0; ``F_lambda(l) = min(l, lambda)``.
    """

    name = "hard"

    def weight(self, loss, age):
        return (_arr(loss) < age).astype(np.float64)

    def latent_loss(self, loss, age):
        return np.minimum(_arr(loss), age)

    def penalty(self, v, age):
        return -age * _arr(v)


class LinearRegularizer(SPRegularizer):
    """Linear soft weighting, ``f(v; lambda) = lambda (v**2 / 2 - v)`` ([SPL]_ Sec. II).

    ``v* = 1 - loss/lambda`` if ``loss < lambda`` else 0;
    ``F_lambda(l) = l - l**2 / (2 lambda)`` for ``l < lambda``, else ``lambda / 2``.
    """

    name = "linear"

    def weight(self, loss, age):
        loss = _arr(loss)
        return np.where(loss < age, 1.0 - loss / age, 0.0)

    def latent_loss(self, loss, age):
        loss = _arr(loss)
        if np.isinf(age):
            return loss.copy()
        return np.where(loss < age, loss - loss**2 / (2.0 * age), age / 2.0)

    def penalty(self, v, age):
        v = _arr(v)
        return age * (0.5 * v**2 - v)


class PolynomialRegularizer(SPRegularizer):
    """Polynomial soft weighting with order ``t > 1`` ([SPL]_ Sec. II, after Li et al.).

    Per sample ``f(v; lambda, t) = lambda (v**t / t - v)``, so
    ``v* = (1 - loss/lambda)**(1/(t-1))`` for ``loss < lambda`` else 0, and with
    ``p = 1/(t-1)``: ``F_lambda(l) = lambda/(p+1) (1 - (1 - l/lambda)**(p+1))``
    (``lambda/(p+1)`` beyond ``lambda``).

    The SPLBoost paper's ``lowerconvex`` is ``t = 1.3`` and ``upperconvex`` is ``t = 4``.
    """

    name = "polynomial"

    def __init__(self, t: float = 2.0):
        t = float(t)
        if not np.isfinite(t) or t <= 1.0:
            raise ValueError(f"The polynomial SP-regularizer needs t > 1, got t={t!r}.")
        self.t = t

    def weight(self, loss, age):
        loss = _arr(loss)
        p = 1.0 / (self.t - 1.0)
        base = np.clip(1.0 - loss / age, 0.0, 1.0)
        return np.where(loss < age, base**p, 0.0)

    def latent_loss(self, loss, age):
        loss = _arr(loss)
        if np.isinf(age):
            return loss.copy()
        q = 1.0 / (self.t - 1.0) + 1.0
        base = np.clip(1.0 - loss / age, 0.0, 1.0)
        return age / q * (1.0 - base**q)

    def penalty(self, v, age):
        v = _arr(v)
        return age * (v**self.t / self.t - v)


class MixtureRegularizer(SPRegularizer):
    """Mixture weighting, ``f(v; lambda, gamma) = gamma**2 / (v + gamma/lambda)`` (Zhao et al.).

    With ``a = lambda gamma / (lambda + gamma)``: ``v* = 1`` for ``loss <= a**2``,
    0 for ``loss >= lambda**2``, else ``gamma (1/sqrt(loss) - 1/lambda)``.
    Note the thresholds are on the scale ``lambda**2``, as in the paper.
    """

    name = "mixture"

    def __init__(self, gamma: float = 1.0):
        gamma = float(gamma)
        if not np.isfinite(gamma) or gamma <= 0.0:
            raise ValueError(f"The mixture SP-regularizer needs gamma > 0, got gamma={gamma!r}.")
        self.gamma = gamma

    def _a(self, age: float) -> float:
        return self.gamma / (1.0 + self.gamma / age)

    def weight(self, loss, age):
        loss = _arr(loss)
        g, a = self.gamma, self._a(age)
        with np.errstate(divide="ignore"):
            mid = g * (1.0 / np.sqrt(loss) - 1.0 / age)
        out = np.where(loss <= a * a, 1.0, np.where(loss >= age * age, 0.0, mid))
        return np.clip(out, 0.0, 1.0)

    def latent_loss(self, loss, age):
        loss = _arr(loss)
        g, a = self.gamma, self._a(age)

        def middle(u):
            # integral_{a^2}^{u} g (l^{-1/2} - 1/age) dl, plus the first piece a^2
            return a * a + 2.0 * g * (np.sqrt(u) - a) - g / age * (u - a * a)

        upper = np.minimum(loss, age * age)
        return np.where(loss <= a * a, loss, middle(np.maximum(upper, a * a)))

    def penalty(self, v, age):
        v = _arr(v)
        return self.gamma**2 / (v + self.gamma / age)


# Gauss-Legendre nodes for the numerical latent loss of user-supplied weights.
_GL_NODES, _GL_WEIGHTS = np.polynomial.legendre.leggauss(20)


class CallableRegularizer(SPRegularizer):
    """A user-supplied weight function ``v*(age, loss) -> [0, 1]`` (vectorised over ``loss``).

    The latent loss is integrated numerically: the losses (plus ``age`` and
    ``age**2``, where weights typically have a kink) are sorted and the
    integral is accumulated segment by segment with 20-point Gauss-Legendre
    quadrature: exact to rounding for polynomial pieces, very accurate for
    smooth weights, and accurate to the length of one segment around a jump
    elsewhere.
    """

    name = "callable"

    def __init__(self, func: Callable[[float, NDArray[np.float64]], ArrayLike]):
        if not callable(func):
            raise TypeError(f"regularizer must be callable, got {type(func).__name__}.")
        self.func = func

    def weight(self, loss, age):
        loss = _arr(loss)
        v = np.broadcast_to(np.asarray(self.func(age, loss), dtype=np.float64), loss.shape)
        if not np.all(np.isfinite(v)) or np.any(v < 0) or np.any(v > 1):
            raise ValueError(
                "The user-supplied SP weight function must return finite values in [0, 1]."
            )
        return np.array(v)

    def latent_loss(self, loss, age):
        loss = _arr(loss)
        flat = loss.ravel()
        # integrate between consecutive distinct losses, with age and age**2 (where
        # the built-in weights have their kinks) as extra break points
        kinks = [k for k in (age, age * age) if np.isfinite(k)]
        ends = np.unique(np.concatenate([flat, kinks]))
        starts = np.concatenate(([0.0], ends[:-1]))
        half = (ends - starts) / 2.0
        nodes = starts[:, None] + half[:, None] * (_GL_NODES[None, :] + 1.0)
        vals = self.weight(nodes.ravel(), age).reshape(nodes.shape)
        cumulative = np.cumsum(half * (vals @ _GL_WEIGHTS))
        return cumulative[np.searchsorted(ends, flat)].reshape(loss.shape)


class DropFractionRegularizer(SPRegularizer):
    """Hard weighting with the age read as a *fraction*: drop the ``age`` largest losses.

    ``v_i = 0`` for the ``floor(age * n)`` samples of largest loss (ties broken
    by index: the lower index is dropped first), ``v_i = 1`` for the others;
    ``age = 0`` keeps every sample and so does ``age >= 1`` (the warm-start
    rounds of :class:`SelfPacedPolicy`). It is the hard regularizer
    ([SPL]_ eqs. (1)-(2)) at the data-dependent age ``lambda`` = the largest
    kept loss, so ``F(l) = min(l, lambda)``: a threshold at a rank instead of
    at a value. The fraction means the same on every data set, where an
    absolute age does not (the margins, hence the losses, shrink as the noise
    rate grows), and it reads as an estimate of the noise rate.
    """

    name = "drop_fraction"

    @staticmethod
    def _dropped(loss: NDArray[np.float64], age: float) -> NDArray[np.intp]:
        if not 0 < age < 1 or loss.size == 0:
            return np.empty(0, dtype=np.intp)
        m = int(np.floor(age * loss.size))
        return np.argsort(-loss, kind="stable")[:m]

    def weight(self, loss, age):
        loss = _arr(loss)
        v = np.ones_like(loss)
        v.ravel()[self._dropped(loss.ravel(), age)] = 0.0
        return v

    def grown_age(self, loss, v, age, growth):
        """None: the age is the fraction to drop, the user's estimate of the noise rate,
        and it stays as given (boosting stops where the kept samples become separable)."""
        return None

    def latent_loss(self, loss, age):
        loss = _arr(loss)
        flat = loss.ravel()
        drop = self._dropped(flat, age)
        if drop.size == 0:
            return loss.copy()
        keep = np.ones(flat.size, dtype=bool)
        keep[drop] = False
        cut = flat[keep].max() if keep.any() else 0.0
        return np.minimum(loss, cut)


_BUILTIN: dict[str, Callable[[], SPRegularizer]] = {
    "hard": HardRegularizer,
    "linear": LinearRegularizer,
    "polynomial": PolynomialRegularizer,
    "mixture": MixtureRegularizer,
    "lowerconvex": lambda: PolynomialRegularizer(t=1.3),
    "upperconvex": lambda: PolynomialRegularizer(t=4.0),
    "drop_fraction": DropFractionRegularizer,
}

#: names accepted by :func:`get_regularizer`
REGULARIZER_NAMES: tuple[str, ...] = tuple(_BUILTIN)

#: the regularizers of Wang et al. (2019), whose age is a loss value (with a default age,
#: :func:`default_age`, and the latent objective of Theorem 1); ``drop_fraction``'s age
#: is a fraction of the samples and has no default
AGE_REGULARIZER_NAMES: tuple[str, ...] = tuple(n for n in _BUILTIN if n != "drop_fraction")


def get_regularizer(
    regularizer: str | SPRegularizer | Callable, params: dict | None = None
) -> SPRegularizer:
    """Build an SP-regularizer.

    Parameters
    ----------
    regularizer : str, SPRegularizer or callable
        One of ``"hard"``, ``"linear"``, ``"polynomial"`` (parameter ``t``),
        ``"mixture"`` (parameter ``gamma``), ``"lowerconvex"`` (polynomial,
        ``t = 1.3``), ``"upperconvex"`` (polynomial, ``t = 4``),
        ``"drop_fraction"`` (the age is the fraction of largest losses
        dropped, :class:`DropFractionRegularizer`); an
        :class:`SPRegularizer` instance; or a function ``v*(age, loss)``.
    params : dict, optional
        Keyword parameters for a named regularizer, e.g. ``{"t": 2.5}``.
    """
    params = dict(params or {})
    if isinstance(regularizer, SPRegularizer):
        if params:
            raise ValueError("regularizer_params can only be used with a regularizer name.")
        return regularizer
    if isinstance(regularizer, str):
        if regularizer not in _BUILTIN:
            raise ValueError(
                f"Unknown SP-regularizer {regularizer!r}; expected one of "
                f"{list(REGULARIZER_NAMES)}, an SPRegularizer or a callable v*(age, loss)."
            )
        factory = _BUILTIN[regularizer]
        if params:
            if regularizer not in ("polynomial", "mixture"):
                raise ValueError(
                    f"The {regularizer!r} SP-regularizer takes no parameters, got {sorted(params)}."
                )
            try:
                return factory(**params)
            except TypeError as exc:
                raise ValueError(f"Bad parameters for {regularizer!r}: {exc}") from None
        return factory()
    if callable(regularizer):
        if params:
            raise ValueError("regularizer_params can only be used with a regularizer name.")
        return CallableRegularizer(regularizer)
    raise TypeError(
        f"regularizer must be a name, an SPRegularizer or a callable, got {type(regularizer).__name__}."
    )


#: the loss at which the default age puts the peak of the boosting weight ``v*(age; l) l``
#: (the hard regularizer's default age: a sample is dropped once ``exp(-y F) >= 2``)
DEFAULT_PEAK_LOSS = 2.0


def default_warm_start_rounds(n_classes: int) -> int:
    """Warm-start rounds of ``warm_start_rounds="auto"``: 3 per class beyond the first.

    The warm start lets the ensemble learn something before its losses are
    compared with the age. Two classes get 3 rounds. A native ``K``-class step
    (SAMME, Zhu et al. 2009) gets ``3 (K - 1)``: each discrete learner votes
    for one class per leaf, so after 3 rounds of stumps some class may not
    have been voted for at all, and its samples, all with large losses, would
    be dropped together on clean data. On the reliability tables
    (``make_classification`` with 3 classes, 20 seeds, every regularizer at its
    default age) this cut SPLBoost's excess test error over AdaBoost on clean
    labels from about 0.011 to 0.004 (hard and upperconvex regularizers) and
    left the gain with 30 % flipped labels unchanged. An extension: the paper
    is binary.
    """
    return 3 * (int(n_classes) - 1)


def default_age(regularizer: SPRegularizer, peak_loss: float = DEFAULT_PEAK_LOSS) -> float:
    """The default age of ``regularizer``: its boosting weight ``v*(age; l) l`` peaks at ``peak_loss``.

    SPLBoost fits each weak learner on the weights ``v_i w_i`` with
    ``w_i = l_i = exp(-y_i F(x_i))`` (Wang et al. 2019, eq. (8) and Algorithm 1,
    step 1). AdaBoost's reweighting, which makes the next learner correct the
    current ensemble's mistakes, survives only where ``v*(age; l) l`` still
    increases with the loss ``l``. The hard regularizer's weight ``l`` increases
    up to ``l = age`` and is 0 beyond; a soft regularizer's weight peaks at a
    loss *below* its age, because ``v*`` decreases from the start:

    * hard: at ``l = age``;
    * linear: ``l (1 - l/age)`` peaks at ``l = age / 2``;
    * polynomial of order ``t``: ``l (1 - l/age)**(1/(t-1))`` peaks at
      ``l = age (t - 1) / t`` (lowerconvex, ``t = 1.3``: ``0.23 age``);
    * mixture: ``gamma (sqrt(l) - l/age)`` peaks at ``l = age**2 / 4`` (when
      ``age >= gamma``; else at ``l = (age gamma / (age + gamma))**2``, where ``v``
      leaves 1).

    At one common age a soft regularizer therefore fits the next learner
    mostly on samples the ensemble already classifies correctly (for
    lowerconvex at age 2, on margins near 0.8): the learner agrees with the
    ensemble, its weighted error is small, its coefficient large, the samples
    it misclassifies are pushed past the age, and within a few rounds the
    selected samples are those one stump separates (a collapse to one
    learner). The default age puts every regularizer's peak at the same loss,
    ``peak_loss`` (2, the hard regularizer's default age, so a sample is
    emphasised until its margin falls to ``-log 2``): hard 2, linear 4,
    polynomial ``2 t / (t - 1)`` (lowerconvex 8.67, upperconvex 2.67), mixture
    (``gamma = 1``) ``2 sqrt(2) = 2.83``. A user-supplied weight function has
    no closed form: its default age is ``peak_loss``.

    The paper tunes the age by cross-validation in ``[1, 6]`` for every
    regularizer (Sec. IV); this rule only chooses the value used when the user
    gives none.
    """
    peak = float(peak_loss)
    if isinstance(regularizer, PolynomialRegularizer):
        return peak * regularizer.t / (regularizer.t - 1.0)
    if isinstance(regularizer, LinearRegularizer):
        return 2.0 * peak
    if isinstance(regularizer, MixtureRegularizer):
        gamma, root = regularizer.gamma, np.sqrt(peak)
        if 2.0 * root >= gamma:
            return 2.0 * root  # the middle piece's peak, age**2 / 4 = peak
        return gamma * root / (gamma - root)  # the peak is where v leaves 1: a**2 = peak
    return peak


class SelfPacedPolicy(WeightPolicy):
    """Weighting policy that multiplies a booster's weights by ``v*(age_t; loss_i)``.

    This is the reusable part of SPLBoost ([SPL]_ Algorithm 1): ``loss_i`` is
    the wrapped algorithm's own per-sample loss on the absolute scale (for
    AdaBoost ``exp(-y_i F(x_i))``), ``v`` starts at 1, and after each pass of a
    round it is recomputed at the candidate scores ``F + alpha f``. A round is
    refitted ``inner_iterations`` times, or until ``v`` stops changing with
    ``"auto"`` (at most 50 passes). During the first ``warm_start_rounds``
    rounds the age is ``max(warm_start_age, age)``; ``warm_start_rounds="auto"``
    is :func:`default_warm_start_rounds` of the number of classes the loop boosts.

    When a round's weak learner is perfect on the samples with ``v > 0`` but not
    on all (the kept set has become separable, so the next round would see the
    same weights and fit the same learner), the age grows instead of boosting
    stopping: it becomes ``age_growth`` times the larger of the age and the
    smallest loss among the dropped samples (:meth:`SPRegularizer.grown_age`),
    repeated until some dropped sample has ``v > 0`` again. This is the growing
    age of self-paced learning (Kumar, Packer & Koller, NIPS 2010: "increase
    lambda so that more samples are included"). ``age_growth=None`` keeps the
    SPLBoost paper's fixed age, and boosting stops there with a recorded reason.

    Published quantities: ``self_paced_weights`` (final ``v``), ``final_age``
    (the age after any growth), ``ages`` (per round, the age of its latent
    objective: the age in force after the warm start),
    ``latent_objective`` (per round, ``sum_i s_i F_age(loss_i)`` with the
    normalised ``sample_weight`` ``s`` and the final age, so values are
    comparable across warm and regular rounds), ``n_selected`` (per round, the
    number of samples with ``v > 0``) and ``inner_passes`` (per round).
    """

    MAX_AUTO_PASSES = 50

    def __init__(self, regularizer: SPRegularizer, age: float,
                 warm_start_rounds: int | str = 3, warm_start_age: float = 1e6,
                 inner_iterations: int | str = 1, age_growth: float | None = None):
        self.regularizer = regularizer
        self.age = age
        self.warm_start_rounds = warm_start_rounds
        self.warm_start_age = warm_start_age
        self.inner_iterations = inner_iterations
        self.age_growth = age_growth

    def age_at(self, round_index: int) -> float:
        """Age used in round ``round_index`` (0-based) of the run :meth:`start` began."""
        if round_index < self._warm_rounds:
            return max(self.warm_start_age, self._age)
        return self._age

    def start(self, state, step):
        # one score per row (a binary problem, a regression): as two classes
        self._warm_rounds = (default_warm_start_rounds(max(state.n_classes, 2))
                             if self.warm_start_rounds == "auto" else int(self.warm_start_rounds))
        self.v = np.ones(state.sample_weight.shape[0])
        self._age = self.age  # grows within the run (admit_more); the parameter does not
        self._ages: list[float] = []
        self._objective: list[float] = []
        self._n_selected: list[int] = []
        self._passes: list[int] = []
        # a model that only predicts, at an infinite age whose weight is 1 for every finite
        # loss (the hard and linear regularizers): v stays 1, so the losses, needed only
        # for the latent objective, are not computed (it is NaN)
        self._fixed = bool(self.predict_only and self._age == np.inf and np.all(
            self.regularizer.weight(np.array([0.0, 1.0, 1e300]), np.inf) == 1.0))
        self._loss_at = None

    def factors(self, state):
        return self.v

    def refit(self, state, step, candidate_raw, n_done):
        if self._fixed:  # v*(inf, loss) = 1 whatever the (finite) losses: the same passes
            self._last_passes = n_done
            return self.inner_iterations != "auto" and n_done < self.inner_iterations
        loss = step.losses(state, candidate_raw)
        self._loss_at = (candidate_raw, loss)
        v_new = self.regularizer.weight(loss, self.age_at(state.round))
        v_old, self.v = self.v, v_new
        self._last_passes = n_done
        if self.inner_iterations == "auto":
            return n_done < self.MAX_AUTO_PASSES and not np.array_equal(v_new, v_old)
        return n_done < self.inner_iterations

    def end_round(self, state, step):
        if self._fixed:
            self._objective.append(np.nan)
            self._n_selected.append(int(np.count_nonzero(self.v)))
            self._passes.append(self._last_passes)
            self._ages.append(self._age)
            return
        raw, loss = self._loss_at
        if raw is not state.raw:  # the loop committed other scores than the last candidate
            loss = step.losses(state, state.raw)
        latent = self.regularizer.latent_loss(loss, self._age)
        self._objective.append(fdot(state.sample_weight, latent))
        self._n_selected.append(int(np.count_nonzero(self.v)))
        self._passes.append(self._last_passes)
        self._ages.append(self._age)

    #: most age increases one call of admit_more tries before giving up
    MAX_GROWTH_STEPS = 60

    def admit_more(self, state, step):
        """Grow the age until a dropped sample (``v = 0``, positive ``sample_weight``) is
        back in; False (boosting stops) with ``age_growth=None`` or when none can be."""
        if self.age_growth is None:
            return False
        loss = step.losses(state, state.raw)
        out = (self.v == 0) & (state.sample_weight > 0)
        if not out.any():
            return False
        age = self.age_at(state.round)
        for _ in range(self.MAX_GROWTH_STEPS):
            age = self.regularizer.grown_age(loss, self.v, age, self.age_growth)
            if age is None:
                return False
            v = self.regularizer.weight(loss, age)
            if np.any(v[out] > 0):
                self._age, self.v = age, v
                return True
        return False

    def results(self):
        return {
            "age": self.age,
            "final_age": self._age,
            "ages": np.asarray(self._ages),
            "warm_start_rounds": self._warm_rounds,
            "self_paced_weights": self.v.copy(),
            "latent_objective": np.asarray(self._objective),
            "n_selected": np.asarray(self._n_selected, dtype=np.intp),
            "inner_passes": np.asarray(self._passes, dtype=np.intp),
        }
