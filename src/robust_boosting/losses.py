"""Margin losses of the boosting algorithms.

Every loss is a function ``phi(m)`` of the margin ``m = y F(x)`` (labels in
``{-1, +1}``). Each loss exposes its value, its derivative and the *sample
weight* ``-phi'(m)`` that a gradient-type booster gives a sample with margin
``m``, plus the logarithm of that weight for numerically safe use over
thousands of rounds.

References
----------
.. [SPL] K. Wang, Y. Wang, Q. Zhao, D. Meng, Z. Xu, "SPLBoost: An Improved
   Robust Boosting Algorithm Based on Self-paced Learning", IEEE Trans.
   Cybernetics, 2019 (Fig. 1: sample weights; Fig. 2: losses).
.. [SAV] H. Masnadi-Shirazi, N. Vasconcelos, "On the Design of Loss Functions
   for Classification: theory, robustness to outliers, and SavageBoost",
   NIPS 2008 (eq. 26: the Savage loss).
.. [FHT] J. Friedman, T. Hastie, R. Tibshirani, "Additive logistic regression:
   a statistical view of boosting", Ann. Statist. 2000.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.special import expit, log_expit

from ._loop_kernels import softmax_losses

__all__ = [
    "MarginLoss",
    "ExponentialLoss",
    "LogisticLoss",
    "SavageLoss",
    "Savage2Loss",
    "ZeroOneLoss",
    "LOSSES",
    "get_loss",
    "softmax_loss",
    "softmax_rows",
]

#: Largest exponent used when a loss is evaluated on the absolute scale
#: (``exp(709)`` is still a finite float64).
MAX_EXPONENT = 700.0


def _as_float_array(m: ArrayLike) -> NDArray[np.float64]:
    return np.asarray(m, dtype=np.float64)


class MarginLoss:
    """A loss ``phi(m)`` of the margin ``m = y F(x)``.

    Subclasses implement :meth:`value`, :meth:`derivative` and
    :meth:`log_sample_weight`; :meth:`sample_weight` is ``-phi'(m)``.
    """

    #: short name used in reports and plots
    name: str = "loss"

    def value(self, m: ArrayLike) -> NDArray[np.float64]:
        """Loss ``phi(m)``."""
        raise NotImplementedError

    def derivative(self, m: ArrayLike) -> NDArray[np.float64]:
        """Derivative ``phi'(m)``."""
        raise NotImplementedError

    def sample_weight(self, m: ArrayLike) -> NDArray[np.float64]:
        """Sample weight ``-phi'(m)`` of a sample with margin ``m``."""
        return -self.derivative(m)

    def log_sample_weight(self, m: ArrayLike) -> NDArray[np.float64]:
        """``log(-phi'(m))``, finite wherever the weight is positive (``-inf`` where it is 0)."""
        with np.errstate(divide="ignore"):
            return np.log(self.sample_weight(m))

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class ExponentialLoss(MarginLoss):
    """``phi(m) = exp(-m)``: AdaBoost, RealBoost, GentleBoost, SPLBoost.

    The value is evaluated as ``exp(min(-m, 700))`` so that it stays finite;
    :meth:`log_sample_weight` (``-m``) is exact for every margin.
    """

    name = "exponential"

    def value(self, m: ArrayLike) -> NDArray[np.float64]:
        return np.exp(np.minimum(-_as_float_array(m), MAX_EXPONENT))

    def derivative(self, m: ArrayLike) -> NDArray[np.float64]:
        return -self.value(m)

    def log_sample_weight(self, m: ArrayLike) -> NDArray[np.float64]:
        return -_as_float_array(m)


class LogisticLoss(MarginLoss):
    """``phi(m) = log(1 + exp(-2 m))``, Friedman's scaling: LogitBoost [FHT]_.

    ``log(1 + exp(-m))`` is the same loss up to a rescaling of ``F``.
    """

    name = "logistic"

    def value(self, m: ArrayLike) -> NDArray[np.float64]:
        return np.logaddexp(0.0, -2.0 * _as_float_array(m))

    def derivative(self, m: ArrayLike) -> NDArray[np.float64]:
        return -2.0 * expit(-2.0 * _as_float_array(m))

    def log_sample_weight(self, m: ArrayLike) -> NDArray[np.float64]:
        return np.log(2.0) + log_expit(-2.0 * _as_float_array(m))


class SavageLoss(MarginLoss):
    """``phi(m) = 1 / (1 + exp(2 m))**2``: SavageBoost ([SAV]_ eq. 26).

    With ``s = 1 / (1 + exp(2m))`` the sample weight is ``4 s**2 (1 - s)``
    ``= 4 exp(2m) / (1 + exp(2m))**3``: bounded, and tending to 0 as ``m -> -inf``.
    """

    name = "savage"
    _scale = 2.0

    def value(self, m: ArrayLike) -> NDArray[np.float64]:
        return expit(-self._scale * _as_float_array(m)) ** 2

    def derivative(self, m: ArrayLike) -> NDArray[np.float64]:
        return -np.exp(self.log_sample_weight(m))

    def log_sample_weight(self, m: ArrayLike) -> NDArray[np.float64]:
        z = self._scale * _as_float_array(m)
        # -phi' = 2 c s^2 (1 - s) with s = expit(-z), 1 - s = expit(z), c = scale
        return np.log(2.0 * self._scale) + 2.0 * log_expit(-z) + log_expit(z)


class Savage2Loss(SavageLoss):
    """``phi(m) = 1 / (1 + exp(m))**2``: the loss of RBoost (Miao et al. 2016, [SPL]_ Fig. 2).

    Sample weight ``2 exp(m) / (1 + exp(m))**3``.
    """

    name = "savage2"
    _scale = 1.0


class ZeroOneLoss(MarginLoss):
    """``phi(m) = 1[m <= 0]``: for reporting only (its derivative is 0 almost everywhere)."""

    name = "zero-one"

    def value(self, m: ArrayLike) -> NDArray[np.float64]:
        return (_as_float_array(m) <= 0).astype(np.float64)

    def derivative(self, m: ArrayLike) -> NDArray[np.float64]:
        return np.zeros_like(_as_float_array(m))


LOSSES: dict[str, type[MarginLoss]] = {
    cls.name: cls
    for cls in (ExponentialLoss, LogisticLoss, SavageLoss, Savage2Loss, ZeroOneLoss)
}


def get_loss(loss: str | MarginLoss) -> MarginLoss:
    """Return a :class:`MarginLoss` from its name (one of :data:`LOSSES`) or an instance."""
    if isinstance(loss, MarginLoss):
        return loss
    if isinstance(loss, str) and loss in LOSSES:
        return LOSSES[loss]()
    raise ValueError(f"Unknown loss {loss!r}; expected one of {sorted(LOSSES)} or a MarginLoss.")


def softmax_rows(raw: ArrayLike) -> NDArray[np.float64]:
    """Row-wise softmax of ``(n, K)`` scores: ``scipy.special.softmax(raw, axis=1)``.

    The same arithmetic (shift by the row maximum, ``exp``, divide by the sum
    accumulated from the first column to the last), bit for bit, with the row
    reductions done column by column: NumPy's reductions along a short last axis
    cost more than the ``exp`` itself.
    """
    raw = np.asarray(raw, dtype=np.float64)
    top = raw[:, 0].copy()
    for k in range(1, raw.shape[1]):
        np.maximum(top, raw[:, k], out=top)
    e = np.exp(raw - top[:, None])
    e /= _row_sums(e)[:, None]
    return e


def _row_sums(e: NDArray[np.float64]) -> NDArray[np.float64]:
    """``e.sum(axis=1)`` bit for bit, column by column: NumPy's pairwise summation of a
    row (sequential below 8 terms; else 8 running sums over blocks of 8 combined as
    ``((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))``, then the remainder)."""
    k = e.shape[1]
    if k > 128:  # more than one block of NumPy's pairwise sum
        return e.sum(axis=1)
    if k < 8:
        total = e[:, 0].copy()
        for j in range(1, k):
            total += e[:, j]
        return total
    r = [e[:, j].copy() for j in range(8)]
    end = k - k % 8
    for i in range(8, end, 8):
        for j in range(8):
            r[j] += e[:, i + j]
    total = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
    for i in range(end, k):
        total += e[:, i]
    return total


def softmax_loss(raw: ArrayLike, y_idx: ArrayLike) -> NDArray[np.float64]:
    """Per-sample multiclass log-loss ``-log softmax(F)_y = logsumexp(F) - F_y``.

    ``raw`` holds the scores ``F``, shape ``(n, K)``; ``y_idx`` the class indices.
    The loss of multiclass LogitBoost (Friedman 2001, Algorithm 6), computed
    compiled in one pass per row as ``m + log1p(sum_{k != k*} exp(F_k - m)) - F_y``,
    ``m = F_{k*}`` the row maximum.
    """
    raw = np.ascontiguousarray(raw, dtype=np.float64)
    return softmax_losses(raw, np.ascontiguousarray(y_idx, dtype=np.int64),
                          np.empty(raw.shape[0]))
