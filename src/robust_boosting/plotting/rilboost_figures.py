"""RILBoost's accuracy studies and their figures (Utkin & Zhuk 2014, Figs. 4-13).

:func:`rilboost_epsilon_study` and :func:`rilboost_mixing_study` fit a RILBoost
estimator over a grid of ``epsilon`` (and mixing) values on repeated small
training samples; :func:`plot_accuracy_vs_epsilon` and
:func:`plot_accuracy_vs_mixing` draw their tables. Also importable from
:mod:`robust_boosting.plotting.diagnostics` and :mod:`robust_boosting.plotting`.

References
----------
.. [RIL] L. V. Utkin, Y. A. Zhuk, "Robust boosting classification models with
   local sets of probability distributions", Knowledge-Based Systems, 2014
   (Figs. 4-13).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from numpy.typing import ArrayLike
from sklearn.base import clone
from sklearn.preprocessing import StandardScaler
from sklearn.utils import check_random_state

from ._figures import _fit_quietly, _new_figure

__all__ = [
    "rilboost_epsilon_study",
    "rilboost_mixing_study",
    "plot_accuracy_vs_epsilon",
    "plot_accuracy_vs_mixing",
    "DEFAULT_EPSILONS",
    "RILBOOST_VARIANTS",
]


# --------------------------------------------------------------------------
# RILBoost Figs. 4-13: accuracy against epsilon and the mixing parameter
# --------------------------------------------------------------------------
#: The epsilon grid of the RILBoost studies: 0, 0.05, ..., 0.5.
DEFAULT_EPSILONS: tuple[float, ...] = tuple(round(0.05 * k, 2) for k in range(11))

#: Mixing parameter ``a`` of RILBoost's variants (Utkin & Zhuk 2014, Algorithms 4-5): I is ``a = 1``, II is ``a = 0``.
RILBOOST_VARIANTS: dict[str, float] = {"I": 1.0, "II": 0.0}


def _variant_name(a: float) -> str:
    for name, value in RILBOOST_VARIANTS.items():
        if a == value:
            return name
    return f"a={a:g}"


def _default_rilboost(n_estimators: int = 10) -> Any:
    try:
        from ..rilboost import RILBoostClassifier
    except ImportError as exc:  # pragma: no cover - depends on the other module
        raise ImportError(
            "robust_boosting.rilboost.RILBoostClassifier is not available; pass `estimator=` "
            "(any classifier with the epsilon and mixing parameters)."
        ) from exc
    return RILBoostClassifier(n_estimators=n_estimators)


def _mixing_params(estimator: Any, mixing_param: str, a: float) -> dict:
    """Parameters that select mixing ``a``: ``{mixing_param: a}``, or a ``variant`` I/II."""
    params = estimator.get_params()
    if mixing_param in params:
        return {mixing_param: a}
    if "variant" in params and a in RILBOOST_VARIANTS.values():
        return {"variant": _variant_name(a)}
    raise ValueError(
        f"{type(estimator).__name__} has no parameter {mixing_param!r} (nor 'variant' for "
        f"a = 0 or 1); pass mixing_param= with the name of its mixing parameter."
    )


def _rilboost_draw(estimator, X, y, n, draw, seed, epsilons, mixings, scale,
                   epsilon_param, mixing_param) -> list[dict]:
    from ..datasets import small_sample_split

    train, test = small_sample_split(y, n, random_state=seed)
    X_train, X_test = X[train], X[test]
    if scale:
        scaler = StandardScaler().fit(X_train)
        X_train, X_test = scaler.transform(X_train), scaler.transform(X_test)
    rows = []
    for a in mixings:
        for eps in epsilons:
            model = clone(estimator).set_params(**{epsilon_param: eps},
                                                **_mixing_params(estimator, mixing_param, a))
            if "random_state" in model.get_params():
                model.set_params(random_state=seed)
            _fit_quietly(model, X_train, y[train])
            acc = float(np.mean(model.predict(X_test) == y[test]))
            rows.append({"variant": _variant_name(a), "n": n, "epsilon": float(eps),
                         "mixing": float(a), "draw": draw, "accuracy": acc})
    return rows


def _rilboost_study(X, y, *, epsilons, mixings, n_train, n_draws, estimator, scale,
                    epsilon_param, mixing_param, random_state, n_jobs) -> pd.DataFrame:
    from joblib import Parallel, delayed

    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y)
    epsilons = [float(e) for e in np.atleast_1d(epsilons)]
    mixings = [float(a) for a in np.atleast_1d(mixings)]
    n_train = [int(k) for k in np.atleast_1d(n_train)]
    if not epsilons or any(not 0.0 <= e < 1.0 for e in epsilons):
        raise ValueError("epsilons must be a non-empty list of values in [0, 1).")
    if not mixings or any(not 0.0 <= a <= 1.0 for a in mixings):
        raise ValueError("mixings must be a non-empty list of values in [0, 1].")
    if int(n_draws) < 1:
        raise ValueError(f"n_draws must be >= 1, got {n_draws!r}.")
    estimator = _default_rilboost() if estimator is None else estimator
    rng = check_random_state(random_state)
    # one seed per (n, draw): every epsilon and variant sees the same split (paired curves)
    jobs = [(n, d, int(rng.randint(np.iinfo(np.int32).max)))
            for n in n_train for d in range(int(n_draws))]
    parts = Parallel(n_jobs=n_jobs)(
        delayed(_rilboost_draw)(estimator, X, y, n, d, seed, epsilons, mixings, scale,
                                epsilon_param, mixing_param)
        for n, d, seed in jobs
    )
    return pd.DataFrame([row for part in parts for row in part],
                        columns=["variant", "n", "epsilon", "mixing", "draw", "accuracy"])


def rilboost_epsilon_study(
    X: ArrayLike,
    y: ArrayLike,
    *,
    epsilons: ArrayLike = DEFAULT_EPSILONS,
    n_train: Sequence[int] = (20, 40),
    variants: Sequence[str] = ("I", "II"),
    n_draws: int = 20,
    estimator: Any = None,
    scale: bool = True,
    epsilon_param: str = "epsilon",
    mixing_param: str = "mixing",
    random_state: Any = None,
    n_jobs: int | None = None,
) -> pd.DataFrame:
    """RILBoost's small-sample study: accuracy against ``epsilon`` (RILBoost Figs. 4-9, 11-13).

    For each training size ``n`` and draw, :func:`~robust_boosting.datasets.small_sample_split`
    takes ``n/2`` samples per class for training and leaves the rest for testing;
    every ``epsilon`` and variant is fitted on that same split (so the curves
    are paired, and ``epsilon = 0``, AdaBoost with the same SVMs, is the common
    starting point).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
        Binary labels.
    epsilons : array-like of float in [0, 1), default=DEFAULT_EPSILONS (0, 0.05, ..., 0.5)
    n_train : sequence of int, default=(20, 40)
        Even training-set sizes.
    variants : sequence of {"I", "II"}, default=("I", "II")
        RILBoost I (mixing ``a = 1``) and II (``a = 0``).
    n_draws : int, default=20
        Random training sets per ``n`` (the paper averages over "many times").
    estimator : classifier, optional
        Unfitted RILBoost-like classifier, cloned for each fit with
        ``epsilon_param`` and ``mixing_param`` set; default
        ``RILBoostClassifier(n_estimators=10)`` (``T = 10`` as in the paper).
    scale : bool, default=True
        Standardise the features with the training part's mean and standard
        deviation (the RBF kernel needs comparable scales; the paper does not say).
    epsilon_param, mixing_param : str, default="epsilon", "mixing"
        Names of the estimator's parameters for ``epsilon`` and ``a``.
    random_state : int, RandomState or None
        Seeds the draws (and the estimator's ``random_state``, if it has one).
    n_jobs : int, optional
        Draws run in parallel (joblib).

    Returns
    -------
    results : pandas.DataFrame
        One row per fit: ``variant`` ("I"/"II"), ``n``, ``epsilon``, ``mixing``,
        ``draw``, ``accuracy`` (on the test part).
    """
    unknown = [v for v in variants if v not in RILBOOST_VARIANTS]
    if unknown or not variants:
        raise ValueError(f"variants must be among {list(RILBOOST_VARIANTS)}, got {list(variants)}.")
    return _rilboost_study(
        X, y, epsilons=epsilons, mixings=[RILBOOST_VARIANTS[v] for v in variants],
        n_train=n_train, n_draws=n_draws, estimator=estimator, scale=scale,
        epsilon_param=epsilon_param, mixing_param=mixing_param, random_state=random_state,
        n_jobs=n_jobs,
    )


def rilboost_mixing_study(
    X: ArrayLike,
    y: ArrayLike,
    *,
    mixings: ArrayLike = (0.0, 0.25, 0.5, 0.75, 1.0),
    epsilons: ArrayLike = DEFAULT_EPSILONS,
    n_train: Sequence[int] | int = (20,),
    n_draws: int = 20,
    estimator: Any = None,
    scale: bool = True,
    epsilon_param: str = "epsilon",
    mixing_param: str = "mixing",
    random_state: Any = None,
    n_jobs: int | None = None,
) -> pd.DataFrame:
    """Accuracy against ``epsilon`` for several values of the mixing parameter ``a`` (RILBoost Fig. 10).

    The paper's function ``G`` (its eq. 4) mixes the current distribution and the
    least favourable one: ``a = 1`` is RILBoost I, ``a = 0`` RILBoost II; its
    Fig. 10 uses ``a = 0, 0.25, 0.5, 0.75, 1`` with ``n = 20`` on Ionosphere.
    Parameters and protocol as :func:`rilboost_epsilon_study`.

    Returns
    -------
    results : pandas.DataFrame
        Columns ``variant`` ("I", "II" or "a=<value>"), ``n``, ``epsilon``,
        ``mixing``, ``draw``, ``accuracy``.
    """
    return _rilboost_study(
        X, y, epsilons=epsilons, mixings=mixings, n_train=n_train, n_draws=n_draws,
        estimator=estimator, scale=scale, epsilon_param=epsilon_param,
        mixing_param=mixing_param, random_state=random_state, n_jobs=n_jobs,
    )


_STUDY_COLUMNS = {"n", "epsilon", "accuracy"}


def _check_study(df: pd.DataFrame, extra: set[str]) -> None:
    missing = (_STUDY_COLUMNS | extra) - set(df.columns)
    if missing:
        raise ValueError(f"results is missing the columns {sorted(missing)}.")
    if df.empty:
        raise ValueError("results is empty.")


def _panel_rows(df: pd.DataFrame) -> list[tuple[str | None, pd.DataFrame]]:
    if "dataset" in df.columns and df["dataset"].nunique() > 0:
        return [(str(name), part) for name, part in df.groupby("dataset", sort=False)]
    return [(None, df)]


def plot_accuracy_vs_epsilon(results: pd.DataFrame) -> Figure:
    """Mean accuracy against ``epsilon``, per RILBoost variant and training size (RILBoost Figs. 4-9).

    Layout as in the paper: RILBoost I on the left, RILBoost II on the right,
    one curve per training size ``n``; with a ``dataset`` column, one row of
    panels per data set. The point at ``epsilon = 0`` is AdaBoost.

    Parameters
    ----------
    results : pandas.DataFrame
        Columns ``variant``, ``n``, ``epsilon``, ``accuracy`` (optionally
        ``dataset``; extra columns are ignored), e.g. from
        :func:`rilboost_epsilon_study`. Accuracy is averaged over the other columns (draws).

    Returns
    -------
    fig : matplotlib.figure.Figure
        ``n_datasets x n_variants`` Axes, each with one curve per ``n``.
    """
    _check_study(results, {"variant"})
    rows = _panel_rows(results)
    variants = list(dict.fromkeys(results["variant"]))
    fig, axes = _new_figure(len(rows), len(variants), width=4.5, height=3.6, sharey="row")
    for r, (dataset, part) in enumerate(rows):
        for c, variant in enumerate(variants):
            ax = axes[r, c]
            sub = part[part["variant"] == variant]
            for n, by_n in sub.groupby("n", sort=True):
                mean = by_n.groupby("epsilon", sort=True)["accuracy"].mean()
                ax.plot(mean.index, mean.values, marker="o", ms=3, lw=1.5, label=f"n = {n}")
            name = f"RILBoost {variant}" if variant in RILBOOST_VARIANTS else variant
            ax.set_title(name if dataset is None else f"{dataset}: {name}", fontsize="medium")
            ax.set_xlabel("ε")
            ax.set_ylabel("accuracy")
            ax.grid(alpha=0.3)
            if sub.size:
                ax.legend(fontsize="small")
    return fig


def plot_accuracy_vs_mixing(results: pd.DataFrame, *, x: str = "epsilon") -> Figure:
    """Mean accuracy for several values of the mixing parameter ``a`` (RILBoost Fig. 10).

    Parameters
    ----------
    results : pandas.DataFrame
        Columns ``mixing``, ``n``, ``epsilon``, ``accuracy`` (optionally
        ``dataset``), e.g. from :func:`rilboost_mixing_study`.
    x : {"epsilon", "mixing"}, default="epsilon"
        ``"epsilon"``: accuracy against ``epsilon``, one curve per ``a`` (the
        paper's layout); ``"mixing"``: accuracy against ``a``, one curve per
        ``epsilon``.

    Returns
    -------
    fig : matplotlib.figure.Figure
        One Axes per (data set, ``n``), one curve per ``a`` (or per ``epsilon``).
    """
    if x not in ("epsilon", "mixing"):
        raise ValueError(f"x must be 'epsilon' or 'mixing', got {x!r}.")
    _check_study(results, {"mixing"})
    curve = "mixing" if x == "epsilon" else "epsilon"
    rows = _panel_rows(results)
    sizes = sorted(results["n"].unique())
    fig, axes = _new_figure(len(rows), len(sizes), width=5.0, height=3.8, sharey="row")
    for r, (dataset, part) in enumerate(rows):
        for c, n in enumerate(sizes):
            ax: Axes = axes[r, c]
            sub = part[part["n"] == n]
            for value, by_curve in sub.groupby(curve, sort=True):
                mean = by_curve.groupby(x, sort=True)["accuracy"].mean()
                label = (f"a = {value:g}" + (f" ({_variant_name(value)})"
                                              if value in RILBOOST_VARIANTS.values() else "")
                         if curve == "mixing" else f"ε = {value:g}")
                ax.plot(mean.index, mean.values, marker="o", ms=3, lw=1.5, label=label)
            title = f"RILBoost, n = {n}"
            ax.set_title(title if dataset is None else f"{dataset}: {title}", fontsize="medium")
            ax.set_xlabel("ε" if x == "epsilon" else "mixing parameter a")
            ax.set_ylabel("accuracy")
            ax.grid(alpha=0.3)
            if sub.size:
                ax.legend(fontsize="small")
    return fig
