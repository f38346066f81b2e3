"""Target-noise generators for regression: corrupted continuous targets.

:func:`corrupt_targets` corrupts an exact count of targets, ``round(rate * n)``
(halves rounded up, as :func:`~robust_boosting.noise.n_flips`), chosen uniformly at
random, in one of three ways that wrong targets take in practice:

- ``"replace"``: the value is replaced by one drawn uniformly from the clean targets'
  range ``[min(y), max(y)]`` (a mis-keyed or copied value: plausible, but unrelated to
  the row; the noise of cleanlab's regression benchmarks);
- ``"shift"``: the value moves by ``s`` standard deviations of the clean targets, ``s``
  uniform in ``shift`` (3 to 6 by default), up or down with equal probability (a sensor
  glitch, an outlier);
- ``"unit"``: the value is multiplied by a factor drawn uniformly from ``factors``
  (10 or 1,000 by default: a unit mix-up, grams for kilograms).

Like the label-noise generators, it takes ``random_state``, leaves its input untouched
and returns ``(y_noisy, corrupted)``: a new float64 array and the boolean mask of the
rows it corrupted. A corrupted value can equal its clean one (a ``"unit"`` error of a
zero target, a replacement that lands on the same value); the mask still marks the row.
"""

from __future__ import annotations

import numbers

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.utils import check_random_state

from .labels import _check_rate, n_flips

__all__ = ["TARGET_NOISE_KINDS", "corrupt_targets"]

#: the kinds of :func:`corrupt_targets`
TARGET_NOISE_KINDS = ("replace", "shift", "unit")


def _check_targets(y: ArrayLike) -> NDArray[np.float64]:
    arr = np.asarray(y)
    if arr.ndim != 1:
        raise ValueError(f"y must be a 1-D array of targets; got shape {arr.shape}.")
    if arr.dtype == bool or not np.issubdtype(arr.dtype, np.number):
        raise TypeError(f"y must hold numbers (continuous targets); got dtype {arr.dtype}.")
    arr = arr.astype(np.float64)
    bad = np.flatnonzero(~np.isfinite(arr))
    if bad.size:
        raise ValueError(f"y must be finite; row {int(bad[0])} is {arr[bad[0]]!r} "
                         f"({bad.size} row(s) in all).")
    return arr


def _check_pair(name: str, value, low: float) -> tuple[float, float]:
    try:
        a, b = (float(v) for v in value)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a pair of numbers (low, high); got {value!r}.") from exc
    if not (low < a <= b < np.inf):
        raise ValueError(f"{name} must satisfy {low} < low <= high < inf; got {value!r}.")
    return a, b


def corrupt_targets(y: ArrayLike, rate: float, *, kind: str = "replace",
                    shift: tuple[float, float] = (3.0, 6.0),
                    factors: tuple[float, ...] = (10.0, 1000.0),
                    random_state=None) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
    """Corrupt ``round(rate * n)`` continuous targets, chosen uniformly at random.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Clean, finite numeric targets (left untouched).
    rate : float in [0, 1)
        The share of rows to corrupt.
    kind : {"replace", "shift", "unit"}, default="replace"
        ``"replace"``: a value drawn uniformly from ``[min(y), max(y)]``; ``"shift"``:
        ``y + sign * s * std(y)`` with ``s`` uniform in ``shift`` and the sign ``+1`` or
        ``-1`` with probability 1/2 each; ``"unit"``: ``y * f`` with ``f`` drawn uniformly
        from ``factors``.
    shift : pair of float, default=(3.0, 6.0)
        The range of ``s`` of ``kind="shift"``, in standard deviations of ``y``
        (``0 < low <= high``).
    factors : sequence of float, default=(10.0, 1000.0)
        The factors of ``kind="unit"`` (positive, not 1).
    random_state : int, RandomState instance or None, default=None
        Which rows, and their new values.

    Returns
    -------
    y_noisy : ndarray of float64, shape (n_samples,)
    corrupted : ndarray of bool, shape (n_samples,)
        The rows whose target was corrupted.

    Raises
    ------
    ValueError
        If ``y`` is not 1-D or not finite, ``rate`` is outside [0, 1), ``kind`` is
        unknown, or ``shift``/``factors`` are invalid.
    TypeError
        If ``y`` is not numeric.

    Examples
    --------
    >>> import numpy as np
    >>> from robust_boosting.noise import corrupt_targets
    >>> y = np.linspace(0.0, 1.0, 10)
    >>> y_noisy, corrupted = corrupt_targets(y, 0.2, kind="unit", random_state=0)
    >>> int(corrupted.sum())
    2
    >>> bool(np.all(y_noisy[~corrupted] == y[~corrupted]))
    True
    """
    arr = _check_targets(y)
    r = _check_rate(rate)
    if kind not in TARGET_NOISE_KINDS:
        raise ValueError(f"kind must be one of {', '.join(TARGET_NOISE_KINDS)}; got {kind!r}.")
    low, high = _check_pair("shift", shift, 0.0)
    fac = np.asarray(factors, dtype=np.float64).ravel() if not isinstance(
        factors, numbers.Number) else np.array([float(factors)])
    if fac.size == 0 or not np.all(np.isfinite(fac)) or np.any(fac <= 0) or np.any(fac == 1):
        raise ValueError(f"factors must be positive numbers other than 1; got {factors!r}.")
    rng = check_random_state(random_state)
    n = arr.shape[0]
    idx = np.sort(rng.choice(n, size=n_flips(r, n), replace=False))
    out = arr.copy()
    if idx.size:
        if kind == "replace":
            out[idx] = rng.uniform(arr.min(), arr.max(), size=idx.size)
        elif kind == "shift":
            size = rng.uniform(low, high, size=idx.size) * arr.std()
            out[idx] = arr[idx] + np.where(rng.random_sample(idx.size) < 0.5, -size, size)
        else:
            out[idx] = arr[idx] * fac[rng.randint(fac.size, size=idx.size)]
    corrupted = np.zeros(n, dtype=bool)
    corrupted[idx] = True
    return out, corrupted
