"""Figures of experiment results (the reports of :mod:`robust_boosting.experiments`).

Every ``plot_*`` function takes a results :class:`pandas.DataFrame` (one row per task,
as :meth:`robust_boosting.experiments.ResultStore.to_frame` returns) and returns a
:class:`matplotlib.figure.Figure` built with the object API (no ``pyplot`` state, no
backend selection): save it with ``fig.savefig("name.png")``.

- :func:`plot_error_vs_noise`: test error against the noise rate, one panel per data set
  (SPLBoost paper, Fig. 4).
- :func:`rank_fractions` + :func:`plot_rank_fractions`: fraction of (data set, noise
  rate) cases in which each algorithm ranks in the top k (SPLBoost paper, Fig. 5).
- :func:`plot_accuracy_vs_epsilon`: RILBoost I and II accuracy against epsilon per data
  set and training-set size (RILBoost paper, Figs. 4-9, 13).
- :func:`plot_accuracy_vs_mixing`: accuracy against epsilon for several mixing values a
  (RILBoost paper, Fig. 10).
- :func:`plot_errors_bar`: mean test error per algorithm with the Bayes error (SPLBoost
  synthetic set).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

__all__ = [
    "plot_accuracy_vs_epsilon",
    "plot_accuracy_vs_mixing",
    "plot_error_vs_noise",
    "plot_errors_bar",
    "plot_rank_fractions",
    "rank_fractions",
]


def _check(df: pd.DataFrame, columns: list[str]) -> None:
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"expected a pandas DataFrame, got {type(df).__name__}")
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ValueError(f"the results lack column(s) {', '.join(missing)}")
    if df.empty:
        raise ValueError("no results to plot")


def _grid(n: int, ncols: int | None = None, size: tuple[float, float] = (3.6, 2.8)):
    ncols = ncols or min(n, 4)
    nrows = math.ceil(n / ncols)
    fig = Figure(figsize=(size[0] * ncols, size[1] * nrows + 0.6), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False).ravel()
    for ax in axes[n:]:
        ax.set_visible(False)
    return fig, axes


def _style(i: int) -> dict:
    markers = "osD^v<>px*h"
    return {"marker": markers[i % len(markers)], "markersize": 4, "linewidth": 1.3}


def _panel(ax, title: str, xlabel: str, ylabel: str) -> None:
    """The small-multiple panel style shared by the per-data-set figures."""
    ax.set_title(title, fontsize=9)
    ax.set_xlabel(xlabel, fontsize=8)
    ax.set_ylabel(ylabel, fontsize=8)
    ax.tick_params(labelsize=7)
    ax.grid(alpha=0.3)


def _shared_legend(fig, axes, max_cols: int) -> None:
    """One legend under the panels, from the first panel's curves."""
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=min(len(labels), max_cols),
               fontsize=8)


def plot_error_vs_noise(df: pd.DataFrame, *, value: str = "test_error",
                        algorithm: str = "variant", title: str | None = None) -> Figure:
    """Mean test error against the noise rate, one panel per data set (SPLBoost Fig. 4).

    Error bars are one standard error of the mean over the repetitions.

    Parameters
    ----------
    df : DataFrame
        Columns ``dataset``, ``rate``, ``algorithm`` and ``value`` (one row per task).
    value : str, default="test_error"
    algorithm : str, default="variant"
        Column naming the curves.
    title : str, optional

    Returns
    -------
    fig : matplotlib.figure.Figure
    """
    _check(df, ["dataset", "rate", algorithm, value])
    grouped = df.groupby(["dataset", algorithm, "rate"])[value]
    means = grouped.mean().reset_index()
    # standard error of the mean over the repetitions (0 for a single one)
    means["sem"] = grouped.sem().fillna(0.0).to_numpy()
    datasets = sorted(means["dataset"].unique())
    algs = list(dict.fromkeys(df[algorithm]))
    fig, axes = _grid(len(datasets))
    for ax, d in zip(axes, datasets, strict=False):
        sub = means[means["dataset"] == d]
        for i, a in enumerate(algs):
            s = sub[sub[algorithm] == a].sort_values("rate")
            if len(s):
                ax.errorbar(100 * s["rate"], 100 * s[value], yerr=100 * s["sem"], label=a,
                            capsize=2, **_style(i))
        _panel(ax, d, "noise rate (%)", "test error (%)")
    _shared_legend(fig, axes, 5)
    if title:
        fig.suptitle(title, fontsize=10)
    return fig


def rank_fractions(df: pd.DataFrame, *, value: str = "test_error",
                   algorithm: str = "variant") -> pd.DataFrame:
    """Fraction of (data set, noise rate) cases in which each algorithm ranks in the top k.

    Algorithms are ranked within each case by mean ``value`` (1 = lowest; ties share
    the best rank, as ``rank(method="min")``). Cases missing an algorithm are skipped.

    Returns
    -------
    fractions : DataFrame
        Index: algorithms; columns ``top1 .. topK`` (K = number of algorithms).
    """
    _check(df, ["dataset", "rate", algorithm, value])
    means = df.groupby(["dataset", "rate", algorithm])[value].mean().unstack(algorithm)
    means = means.dropna()
    if means.empty:
        raise ValueError("no (data set, rate) case has results for every algorithm")
    ranks = means.rank(axis=1, method="min")
    k_max = ranks.shape[1]
    out = pd.DataFrame({f"top{k}": (ranks <= k).mean(axis=0) for k in range(1, k_max + 1)})
    order = list(dict.fromkeys(df[algorithm]))
    return out.loc[[a for a in order if a in out.index]]


def plot_rank_fractions(df: pd.DataFrame, *, value: str = "test_error",
                        algorithm: str = "variant", max_k: int | None = None) -> Figure:
    """Grouped bars of :func:`rank_fractions` (SPLBoost Fig. 5): one group per k."""
    frac = rank_fractions(df, value=value, algorithm=algorithm)
    ks = list(frac.columns)[: max_k or None]
    fig = Figure(figsize=(max(6.0, 0.9 * len(ks) + 2) + 2.0, 3.6), layout="constrained")
    ax = fig.subplots()
    n = len(frac.index)
    width = 0.8 / max(n, 1)
    x = np.arange(len(ks))
    for i, a in enumerate(frac.index):
        ax.bar(x + (i - (n - 1) / 2) * width, frac.loc[a, ks].to_numpy(), width, label=a)
    ax.set_xticks(x, ks)
    ax.set_xlabel("top k: ranked among the k lowest mean test errors of a case")
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("fraction of cases")
    n_cases = df.groupby(["dataset", "rate"]).ngroups
    ax.set_title(f"rank statistics over {n_cases} (data set, noise rate) cases", fontsize=10)
    # outside the axes: inside, the legend hid the top of the tallest bars
    fig.legend(fontsize=7, loc="outside right upper")
    ax.grid(axis="y", alpha=0.3)
    return fig


def _rilboost_frame(df: pd.DataFrame) -> pd.DataFrame:
    """Rows with ``epsilon``, ``mixing``, ``strategy``, ``n_train``, ``accuracy`` columns."""
    _check(df, ["dataset", "algorithm", "params", "split", "test_error"])
    out = df.copy()
    params = out["params"].map(lambda p: p if isinstance(p, dict) else {})
    out["epsilon"] = params.map(lambda p: float(p.get("epsilon", 0.0)))
    default_mix = out["algorithm"].map({"rilboost-i": 1.0, "rilboost-ii": 0.0})
    out["mixing"] = [float(p["mixing"]) if "mixing" in p else m
                     for p, m in zip(params, default_mix, strict=True)]
    out["strategy"] = params.map(lambda p: p.get("strategy", "minimax"))
    out["gamma"] = params.map(lambda p: str(float(p["gamma"])) if isinstance(
        p.get("gamma"), int | float) else str(p.get("gamma", "default")))
    out["n_train"] = out["split"].map(lambda s: int(s.get("n_train", 0))
                                      if isinstance(s, dict) else 0)
    out["accuracy"] = 1.0 - out["test_error"]
    return out


def plot_accuracy_vs_epsilon(df: pd.DataFrame, *, strategy: str = "minimax") -> Figure:
    """Mean accuracy against epsilon for RILBoost I (a = 1) and II (a = 0), per data set.

    One panel per data set, one curve per (variant, n). Epsilon = 0 is AdaBoost with
    the same weighted SVMs (RILBoost paper, Figs. 4-9 and 13).
    """
    r = _rilboost_frame(df)
    r = r[(r["strategy"] == strategy) & r["mixing"].isin([0.0, 1.0])]
    if r.empty:
        raise ValueError(f"no RILBoost I/II results with strategy {strategy!r}")
    r = r.assign(variant=np.where(r["mixing"] == 1.0, "I", "II"))
    means = r.groupby(["dataset", "variant", "n_train", "epsilon"])["accuracy"].mean()
    means = means.reset_index()
    datasets = sorted(means["dataset"].unique())
    fig, axes = _grid(len(datasets))
    for ax, d in zip(axes, datasets, strict=False):
        sub = means[means["dataset"] == d]
        i = 0
        for (v, n), s in sub.groupby(["variant", "n_train"]):
            s = s.sort_values("epsilon")
            ax.plot(s["epsilon"], s["accuracy"], label=f"RILBoost {v}, n={n}",
                    linestyle="-" if v == "I" else "--", **_style(i))
            i += 1
        _panel(ax, d, "epsilon", "accuracy")
    _shared_legend(fig, axes, 4)
    return fig


def plot_accuracy_vs_mixing(df: pd.DataFrame, *, dataset: str | None = None,
                            n_train: int | None = None) -> Figure:
    """Mean accuracy against epsilon, one curve per mixing value a (RILBoost Fig. 10)."""
    r = _rilboost_frame(df)
    r = r[r["strategy"] == "minimax"]
    if dataset is not None:
        r = r[r["dataset"] == dataset]
    if n_train is not None:
        r = r[r["n_train"] == n_train]
    if r.empty or r["mixing"].nunique() < 2:
        raise ValueError("the mixing plot needs results for at least two mixing values")
    means = r.groupby(["mixing", "epsilon"])["accuracy"].mean().reset_index()
    fig = Figure(figsize=(5.0, 3.6), layout="constrained")
    ax = fig.subplots()
    for i, (a, s) in enumerate(means.groupby("mixing")):
        s = s.sort_values("epsilon")
        ax.plot(s["epsilon"], s["accuracy"], label=f"a = {a:g}", **_style(i))
    ax.set_xlabel("epsilon")
    ax.set_ylabel("accuracy")
    where = ", ".join(x for x in [dataset, f"n = {n_train}" if n_train else None] if x)
    ax.set_title(f"RILBoost, mixing a ({where})" if where else "RILBoost, mixing a", fontsize=10)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    return fig


def plot_errors_bar(df: pd.DataFrame, *, algorithm: str = "variant") -> Figure:
    """Mean test error (± one standard error) per algorithm; the Bayes error as a line."""
    _check(df, [algorithm, "test_error"])
    g = df.groupby(algorithm, sort=False)["test_error"]
    mean, sd = 100 * g.mean(), 100 * g.sem().fillna(0.0)
    fig = Figure(figsize=(max(5.0, 0.8 * len(mean) + 1.5), 3.6), layout="constrained")
    ax = fig.subplots()
    ax.bar(range(len(mean)), mean.to_numpy(), yerr=sd.to_numpy(), capsize=3, color="C0")
    ax.set_xticks(range(len(mean)), list(mean.index), rotation=30, ha="right", fontsize=8)
    ax.set_ylabel("test error (%)")
    if "bayes_error" in df and df["bayes_error"].notna().any():
        ax.axhline(100 * df["bayes_error"].mean(), color="k", linestyle=":",
                   label="Bayes error")
        fig.legend(fontsize=8, loc="outside upper center")
    ax.grid(axis="y", alpha=0.3)
    return fig
