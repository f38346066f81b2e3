"""Input and parameter validation shared by every estimator of the package.

* :func:`validated_X`: the one entry point that turns a user's ``X`` (and ``y``)
  into the numeric array a model fits or predicts on, with scikit-learn's
  ``validate_data`` bookkeeping (``n_features_in_``, ``feature_names_in_``);
* :func:`check_number`, :func:`check_optional_int`, :func:`check_choice`:
  parameter checks raising a TypeError (wrong type) or a ValueError (wrong
  value) that names the parameter.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from typing import Any

import numpy as np
from sklearn.utils.validation import validate_data

__all__ = ["check_choice", "check_number", "check_optional_int", "validated_X"]


def validated_X(estimator, X, y="no_validation", *, reset: bool, allow_nan: bool, y_numeric: bool = False):
    """``X`` (and ``y``, unless left out) as the model's numeric array (float64 or float32).

    ``reset=True`` at fit (records ``n_features_in_`` and the feature names),
    ``False`` at predict (checks them). ``allow_nan``: NaN means "missing"
    and, like infinite values, is binned by the histogram trees; the boosters
    refuse non-finite input. Non-numeric input raises an error that says so.
    """
    kwargs: dict[str, Any] = dict(reset=reset, dtype=[np.float64, np.float32],
                                  ensure_all_finite=not allow_nan)
    try:
        if isinstance(y, str) and y == "no_validation":  # scikit-learn's "X only"
            return validate_data(estimator, X, **kwargs)
        return validate_data(estimator, X, y, y_numeric=y_numeric, **kwargs)
    except (TypeError, ValueError) as exc:
        if "convert" in str(exc) or "number" in str(exc):
            raise type(exc)(f"X must contain only numbers: {exc}") from None
        raise


def check_number(name, value, *, low=None, high=None, low_open=True, integer=False, allow_inf=False):
    """Raise a clear error unless ``value`` is a real number within the bounds."""
    kind = numbers.Integral if integer else numbers.Real
    if isinstance(value, bool) or not isinstance(value, kind):
        what = "an integer" if integer else "a real number"
        raise TypeError(f"{name} must be {what}, got {value!r} of type {type(value).__name__}.")
    if np.isnan(value) or (np.isinf(value) and not allow_inf):
        raise ValueError(f"{name} must be finite, got {value!r}.")
    if low is not None and (value <= low if low_open else value < low):
        raise ValueError(f"{name} must be {'>' if low_open else '>='} {low}, got {value!r}.")
    if high is not None and value > high:
        raise ValueError(f"{name} must be <= {high}, got {value!r}.")


def check_optional_int(name: str, value, low: int) -> None:
    """Raise a clear error unless ``value`` is None or an integer ``>= low``."""
    if value is not None:
        check_number(name, value, low=low, low_open=False, integer=True)


def check_choice(name: str, value, choices: Iterable) -> None:
    """Raise a ValueError unless ``value`` is one of ``choices``."""
    choices = list(choices)
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name} must be one of {choices}, got {value!r}.")


#: sample weights whose largest entry lies outside this range are divided by it
WEIGHT_SCALE_RANGE = (1e-150, 1e150)


def rescaled_weights(sw: np.ndarray) -> np.ndarray:
    """``sw`` divided by its largest entry when that entry lies outside :data:`WEIGHT_SCALE_RANGE`.

    Finite non-negative weights whose sum (or whose products in the split gains) would
    overflow or underflow: only their ratios matter, so they are divided by the largest
    first. Other weights are returned unchanged (the same array).
    """
    top = sw.max() if sw.size else 0.0
    low, high = WEIGHT_SCALE_RANGE
    if top > 0 and not low <= top <= high:
        return sw / top
    return sw
