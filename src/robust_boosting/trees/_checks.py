"""Input checks of the histogram trees' fits: sample weights and class labels.

Shared by :mod:`._base` (a tree's own ``fit``) and :mod:`.batched` (many trees
fitted together), which therefore need not import each other.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.utils.multiclass import check_classification_targets

from .. import _loop_kernels as _lk
from .._validation import rescaled_weights


def _check_sample_weight(sample_weight: Any, n_samples: int) -> np.ndarray | None:
    if sample_weight is None:
        return None
    sw = np.asarray(sample_weight)
    if sw.ndim == 0:
        sw = np.full(n_samples, float(sw))
    if sw.dtype.kind not in "biuf":
        raise TypeError(f"sample_weight must be numeric, got dtype {sw.dtype}")
    sw = np.asarray(sw, dtype=np.float64)
    if sw.ndim != 1:
        raise ValueError(f"sample_weight must be 1-D, got shape {sw.shape}")
    if sw.shape[0] != n_samples:
        raise ValueError(
            f"sample_weight has {sw.shape[0]} entries but X has {n_samples} samples"
        )
    sw = np.ascontiguousarray(sw)
    low, top, finite = _lk.finite_range(sw)  # one compiled pass
    if not finite:
        raise ValueError("sample_weight contains NaN or infinity")
    if sw.size and low < 0:
        raise ValueError("sample_weight must be non-negative")
    return rescaled_weights(sw, top if sw.size else 0.0)


def _encode_classes(y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return ``classes, codes`` (codes int32), fast for small integer labels."""
    yi = None
    if y.dtype.kind in "iub":
        yi = y.astype(np.int64, copy=False)
    elif y.dtype.kind == "f":
        if np.all(np.isfinite(y)) and np.array_equal(y, np.trunc(y)) and (
            y.size == 0 or np.abs(y).max() < 2**53
        ):
            yi = y.astype(np.int64)
        else:
            check_classification_targets(y)
    else:
        check_classification_targets(y)
    if yi is not None and yi.size:
        lo, present, codes = _lk.small_int_codes(np.ascontiguousarray(yi), 2**16)
        if present.size:
            classes = (np.flatnonzero(present) + lo).astype(y.dtype)
            return classes, codes
    classes, codes = np.unique(y, return_inverse=True)
    return classes, codes.astype(np.int32).ravel()
