"""Data helpers of the Dask estimator: folds, label codes, per-partition maps and reductions.

Each helper works on one partition at a time, or sums small per-partition results on
the client, so no row of ``X`` leaves the worker that holds it. The folds are a
seeded hash of each row's global position (:func:`fold_of_rows`): the same rows
get the same fold however the data are partitioned.
"""

from __future__ import annotations

import uuid

import numpy as np
from numpy.typing import NDArray

from .objective import class_proba, row_losses

__all__ = ["coded_frame", "encode_block", "fold_block", "fold_of_rows", "frame_codes",
           "held_out_proba", "losses_at", "margins", "reduce_blocks", "require", "rowwise"]


def require():
    """The optional dependencies, imported on use, with a clear error when missing."""
    try:
        import dask.array as da
        import distributed  # noqa: F401
        import xgboost
        import xgboost.dask  # noqa: F401
    except ImportError as exc:  # pragma: no cover - the extra is installed in CI
        raise ImportError(
            "robust_boosting.dask needs the optional extra: pip install 'robust-boosting[dask]' "
            f"(dask[array,dataframe], distributed, xgboost); {exc}") from exc
    return da, xgboost

# ---------------------------------------------------------------------------
# per-row pieces that do not depend on the partitioning


def fold_of_rows(start: int, stop: int, n_folds: int, seed: int) -> NDArray[np.int8]:
    """The fold of rows ``start`` to ``stop - 1`` (global positions): a seeded hash of the position.

    A row's fold depends only on its position and the seed, so the same data in
    one partition or in many get the same folds (splitmix64 finaliser).
    """
    with np.errstate(over="ignore"):
        z = np.arange(start, stop, dtype=np.uint64) + np.uint64(seed) * np.uint64(
            0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z ^= z >> np.uint64(31)
    return (z % np.uint64(n_folds)).astype(np.int8)


def fold_block(y_block, n_folds, seed, block_info=None):
    """:func:`fold_of_rows` of one partition (``map_blocks``, which passes ``block_info``)."""
    start, stop = block_info[0]["array-location"][0]
    return fold_of_rows(start, stop, n_folds, seed)


def encode_block(y_block, classes):
    """One partition's labels as class indices (float32, XGBoost's label dtype)."""
    idx = np.searchsorted(classes, y_block)
    idx = np.minimum(idx, classes.shape[0] - 1)
    if not np.array_equal(classes[idx], y_block):
        raise ValueError("y has a value that is not one of the classes found at fit.")
    return idx.astype(np.float32)


# ---------------------------------------------------------------------------
# per-partition maps and reductions


def rowwise(fn, *arrays, dtype, width: int | None = None, lengths=None):
    """A dask array, ``fn(block, ...)`` per partition: one value (or ``width`` values) per row.

    The arguments share their row partitions: dask arrays with one chunk along any
    other axis (``map_blocks`` would align a 1-D array with the last axis of a 2-D
    one), or dask frames (give their ``lengths``).
    """
    import dask
    import dask.array as da

    blocks = [list(np.ravel(a.to_delayed())) for a in arrays]
    lengths = arrays[0].chunks[0] if lengths is None else lengths
    tag = uuid.uuid4().hex  # keys of their own: the blocks' tokens do not see ``fn``'s closure
    return da.concatenate([
        da.from_delayed(dask.delayed(fn, pure=False)(*(b[i] for b in blocks)),
                        shape=(int(n),) if width is None else (int(n), width), dtype=dtype,
                        name=f"rowwise-{tag}-{i}")
        for i, n in enumerate(lengths)])


def margins(booster, x, stop: int, k: int) -> NDArray[np.float64]:
    """The first ``stop`` rounds' margins of ``booster`` on the rows ``x``: ``(n,)`` for two
    classes, ``(n, k)`` for more."""
    if x.shape[0] == 0:
        return np.zeros((0,) if k == 2 else (0, k))
    margin = booster.inplace_predict(x, iteration_range=(0, stop), predict_type="margin")
    margin = np.asarray(margin, dtype=np.float64).reshape(x.shape[0], -1)
    return margin[:, 0] if k == 2 else margin


def held_out_proba(x, fold, boosters, stops, k: int) -> NDArray[np.float32]:
    """Each row's class probabilities from the model of its own fold (out-of-fold)."""
    out = np.empty((x.shape[0], k), dtype=np.float32)
    for f, (booster, stop) in enumerate(zip(boosters, stops, strict=True)):
        rows = fold == f
        if rows.any():
            out[rows] = class_proba(margins(booster, x[rows], stop, k), k)
    return out


def losses_at(x, y, booster, stop: int, k: int) -> NDArray[np.float64]:
    """Each row's loss ``-log p_y`` after the first ``stop`` rounds of ``booster``."""
    return row_losses(margins(booster, x, stop, k), y, k)


def coded_frame(X, categories: dict, lengths: tuple):
    """A dask frame (partitions of ``lengths`` rows) as XGBoost's numeric input, a float32
    dask array (:func:`frame_codes` per partition)."""
    return rowwise(lambda df: frame_codes(df, categories), X, dtype=np.float32,
                    width=len(X.columns), lengths=lengths)


def frame_codes(df, categories: dict) -> NDArray[np.float32]:
    """A pandas frame as XGBoost's numeric input: categorical columns as their codes in the
    fitted ``categories`` (a category not among them, or a missing one, is NaN: missing)."""
    import pandas as pd

    out = np.empty((len(df), df.shape[1]), dtype=np.float32)
    for j, c in enumerate(df.columns):
        if str(c) in categories:
            codes = pd.Categorical(df[c], categories=categories[str(c)]).codes
            out[:, j] = np.where(codes < 0, np.nan, codes)
        else:
            try:
                out[:, j] = df[c].to_numpy(dtype=np.float32, na_value=np.nan)
            except (TypeError, ValueError) as exc:
                raise ValueError(f"Column {c!r} is neither numeric nor categorical "
                                 f"({df[c].dtype}); give it a category dtype.") from exc
    return out


def reduce_blocks(fn, *arrays) -> NDArray:
    """The sum over partitions of ``fn(block, ...)``, a small array per partition.

    The arrays share their row partitions (one chunk along any other axis); only
    the per-partition results travel to the client.
    """
    import dask

    blocks = [a.to_delayed().ravel() for a in arrays]
    parts = dask.compute(*[dask.delayed(fn)(*bs) for bs in zip(*blocks, strict=True)])
    return np.sum(parts, axis=0)
