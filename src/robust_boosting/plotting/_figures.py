"""Helpers shared by the figure modules: a Figure with an Axes grid, a quiet fit."""

from __future__ import annotations

from typing import Any

from matplotlib.figure import Figure
from numpy.typing import ArrayLike, NDArray


def _new_figure(nrows: int = 1, ncols: int = 1, *, width: float = 5.0, height: float = 4.0,
                **subplot_kw: Any) -> tuple[Figure, NDArray]:
    """A Figure with a grid of Axes (object API, no pyplot)."""
    fig = Figure(figsize=(width * ncols, height * nrows), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False, **subplot_kw)
    return fig, axes


def _fit_quietly(model: Any, X: ArrayLike, y: ArrayLike) -> Any:
    import warnings

    from .._boosting import BoostingStoppedWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", BoostingStoppedWarning)
        return model.fit(X, y)
