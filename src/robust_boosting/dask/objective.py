"""The robust parts that run inside XGBoost's distributed engine: a self-paced objective,
a held-out metric, and global quantiles from histograms summed over the workers.

- :class:`SelfPacedObjective`, XGBoost's custom objective: the logistic (softmax)
  loss with the self-paced weights of [SPL]_ (the hard regularizer, the age read as a
  drop fraction of the rows);
- :class:`HeldOutLogLoss`, XGBoost's custom metric: a fold's held-out log-loss read off
  the cached training predictions;
- :func:`top_threshold`, a global "``m`` largest" threshold from fixed-width histograms
  summed over the workers (XGBoost's collective ``allreduce``, or a Dask reduction):
  no row leaves its worker.

References
----------
.. [SPL] K. Wang, Y. Wang, Q. Zhao, D. Meng, Z. Xu, "SPLBoost: An Improved
   Robust Boosting Algorithm Based on Self-paced Learning", IEEE Trans.
   Cybernetics, 2019.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray
from scipy.special import expit, softmax

from ..losses import softmax_loss

__all__ = ["BINS", "HeldOutLogLoss", "SelfPacedObjective", "bin_counts", "class_proba",
           "row_losses", "top_threshold"]

#: bins of each level of the histogram behind :func:`top_threshold`
BINS = 2048


# ---------------------------------------------------------------------------
# global quantiles from mergeable histograms


def _edges(lo: float, hi: float) -> NDArray[np.float64]:
    """The ``BINS + 1`` edges of equal bins of ``[lo, hi)``: exactly ``lo`` and ``hi`` at the
    ends, so that a level of :func:`top_threshold` and the next agree on every value's bin."""
    edges = lo + np.arange(BINS + 1) * ((hi - lo) / BINS)
    edges[0], edges[-1] = lo, hi
    return edges


def bin_counts(values: NDArray, lo: NDArray, hi: NDArray) -> NDArray[np.float64]:
    """Counts of ``values[p]`` in ``BINS`` equal bins of ``[lo[p], hi[p])`` per row ``p``.

    ``values`` is a list (one array per ``p``); values outside the range are not counted.
    A value's bin is found by comparison with the edges (:func:`_edges`), not by
    division, so rounding cannot put it in a neighbouring bin.
    """
    out = np.zeros((len(values), BINS))
    for p, v in enumerate(values):
        width = hi[p] - lo[p]
        if not np.isfinite(width) or width <= 0 or v.size == 0:
            continue
        idx = np.searchsorted(_edges(lo[p], hi[p]), v, side="right") - 1
        idx = idx[(idx >= 0) & (idx < BINS)]
        out[p] = np.bincount(idx, minlength=BINS)
    return out


def top_threshold(histogram: Callable[[NDArray, NDArray], NDArray], m: NDArray,
                  lo: NDArray, hi: NDArray, levels: int = 2) -> NDArray[np.float64]:
    """Per problem ``p``, a threshold ``t`` such that about ``m[p]`` values are ``>= t``.

    ``histogram(lo, hi)`` returns the global counts ``(P, BINS)`` of each
    problem's values in the bins of ``[lo[p], hi[p])`` given by :func:`_edges`:
    sums of per-partition histograms, so no value leaves its worker. Every value
    must lie in ``[lo, hi)``. Each level narrows the range to the bin in which the
    count from the top reaches ``m``; the result is that bin's lower edge after
    ``levels`` levels, so the values ``>= t`` number at least ``m`` and exceed it
    only by the values within ``(hi - lo) / 2048**levels`` of the exact ``m``-th
    largest (ties). ``m[p] <= 0`` gives ``inf`` (nothing at or above).
    """
    m = np.asarray(m, dtype=np.float64)
    lo = np.array(lo, dtype=np.float64)
    hi = np.array(hi, dtype=np.float64)
    above = np.zeros_like(m)  # values >= hi, counted at the levels before
    active = m > 0
    rows = np.arange(m.shape[0])
    for _ in range(levels):
        counts = histogram(lo, hi)
        from_top = above[:, None] + np.cumsum(counts[:, ::-1], axis=1)[:, ::-1]
        enough = from_top >= m[:, None]
        b = np.where(enough.any(axis=1), BINS - 1 - np.argmax(enough[:, ::-1], axis=1), 0)
        above = np.where(b + 1 < BINS, from_top[rows, np.minimum(b + 1, BINS - 1)], above)
        edges = [_edges(lo_p, hi_p) for lo_p, hi_p in zip(lo, hi, strict=True)]
        lo = np.array([e[bp] for e, bp in zip(edges, b, strict=True)])
        hi = np.array([e[bp + 1] for e, bp in zip(edges, b, strict=True)])
    return np.where(active, lo, np.inf)

# ---------------------------------------------------------------------------
# per-row losses and probabilities from XGBoost's margins


def row_losses(margin: NDArray, y: NDArray, n_classes: int) -> NDArray:
    """Per row, the logistic (softmax) loss of the given label from XGBoost's margins:
    ``-log p_y`` (binary: in the margins' dtype; multiclass: float64)."""
    if n_classes == 2:
        return np.logaddexp(0.0, np.where(y == 1, -margin, margin))
    return softmax_loss(margin, np.asarray(y, dtype=np.intp))


def class_proba(margin: NDArray, n_classes: int) -> NDArray[np.float64]:
    """Class probabilities from XGBoost's margins: the log-odds, or per-class scores."""
    if n_classes == 2:
        p = expit(margin)
        return np.column_stack([1.0 - p, p])
    return softmax(margin, axis=1)

# ---------------------------------------------------------------------------
# the self-paced objective


class SelfPacedObjective:
    """XGBoost custom objective: the logistic (softmax) loss with self-paced weights.

    Gradient and Hessian of the binary logistic loss (``p - y``, ``p (1 - p)``)
    or of the softmax loss (``p_k - 1[y = k]``, ``2 p_k (1 - p_k)``, XGBoost's
    own multiclass Hessian), times the row's sample weight and its self-paced
    weight ``v``. After ``warm_start_rounds`` rounds (3, as
    :class:`~robust_boosting.SPLLogitBoostClassifier`), ``v = 0`` for the
    ``drop_fraction`` of the weighted rows (weight > 0) with the largest loss
    ``-log p_y``, found by :func:`top_threshold` on histograms summed over the
    workers by XGBoost's collective ``allreduce``; ``v = 1`` for the others (the
    hard regularizer, [SPL]_ eqs. (1)-(2), at the age of that rank).

    Every worker holds its own copy and counts its own rounds; XGBoost calls
    the objective once per round on every worker.
    """

    def __init__(self, n_classes: int, drop_fraction: float, warm_start_rounds: int = 3):
        self.n_classes = n_classes
        self.drop_fraction = drop_fraction
        self.warm_start_rounds = warm_start_rounds
        self.round = 0

    def weights(self, margin: NDArray, y: NDArray, w: NDArray, reduce) -> NDArray:
        """The self-paced weights ``v`` of this worker's rows; ``reduce`` sums over workers."""
        v = np.ones(y.shape[0])
        if self.drop_fraction <= 0 or self.round < self.warm_start_rounds:
            return v
        loss = row_losses(margin, y, self.n_classes)
        counted = w > 0
        stats = reduce(np.array([counted.sum(), loss[counted].max(initial=0.0)]), "stats")
        total, top = stats
        m = np.floor(self.drop_fraction * total)
        hi = np.nextafter(top, np.inf)
        t = top_threshold(lambda lo_, hi_: reduce(bin_counts([loss[counted]], lo_, hi_), "sum"),
                          np.array([m]), np.array([0.0]), np.array([hi]))[0]
        v[loss >= t] = 0.0
        return v

    def __call__(self, predt, dtrain):
        from xgboost import collective

        def reduce(arr, kind):
            if kind == "stats":  # the count sums, the maximum is a maximum
                count = collective.allreduce(arr[:1].copy(), collective.Op.SUM)
                top = collective.allreduce(arr[1:].copy(), collective.Op.MAX)
                return np.concatenate([count, top])
            return collective.allreduce(np.ascontiguousarray(arr), collective.Op.SUM).reshape(
                arr.shape)

        y = dtrain.get_label().astype(np.intp)
        w = dtrain.get_weight()
        w = np.ones(y.shape[0]) if w.size == 0 else w.astype(np.float64)
        margin = np.asarray(predt, dtype=np.float64).reshape(y.shape[0], -1)
        if self.n_classes == 2:
            margin = margin[:, 0]
        scale = w * self.weights(margin, y, w, reduce)
        self.round += 1
        p = class_proba(margin, self.n_classes)
        if self.n_classes == 2:
            q = p[:, 1]
            return (q - y) * scale, np.maximum(q * (1.0 - q), 1e-16) * scale
        onehot = np.zeros_like(p)
        onehot[np.arange(y.shape[0]), y] = 1.0
        return ((p - onehot) * scale[:, None],
                np.maximum(2.0 * p * (1.0 - p), 1e-16) * scale[:, None])


class HeldOutLogLoss:
    """XGBoost custom metric: the weighted log-loss of a fold's held-out rows.

    Evaluated on the *training* matrix, whose held-out rows have weight 0 and
    carry their own weight in ``label_upper_bound`` (a field only XGBoost's
    survival objectives read): XGBoost's cached training predictions then
    give the held-out score, with no second matrix and no second prediction
    per round. The sums are added over the workers with the collective
    ``allreduce``, so every worker sees the global value (early stopping
    agrees everywhere).

    Parameters
    ----------
    n_classes : int
    margin : bool
        Whether XGBoost passes margins (it does with a custom objective) or
        probabilities (a built-in objective).
    """

    def __init__(self, n_classes: int, margin: bool):
        self.n_classes = n_classes
        self.margin = margin

    def __call__(self, predt, dmat):
        from xgboost import collective

        held = dmat.get_float_info("label_upper_bound")
        y = dmat.get_label()
        pr = np.asarray(predt, dtype=np.float32).reshape(y.shape[0], -1)
        # float32 per row where it can be (a partition may be large); the sums in float64
        if self.margin:
            loss = row_losses(pr[:, 0] if self.n_classes == 2 else pr, y, self.n_classes)
        else:
            p_y = (np.where(y == 1, pr[:, 0], 1.0 - pr[:, 0]) if self.n_classes == 2
                   else pr[np.arange(y.shape[0]), y.astype(np.intp)])
            loss = -np.log(np.maximum(p_y, np.float32(1e-16)))
        sums = np.array([np.sum(held * loss, dtype=np.float64), np.sum(held, dtype=np.float64)])
        if collective.is_distributed():
            sums = collective.allreduce(sums, collective.Op.SUM)
        return "held_out_logloss", float(sums[0] / sums[1]) if sums[1] > 0 else 0.0
