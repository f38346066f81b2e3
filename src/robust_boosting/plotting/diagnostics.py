"""Diagnostic figures of the SPLBoost and RILBoost papers, from the library's own parts.

Every ``plot_*`` function takes data or fitted estimators and returns a
:class:`matplotlib.figure.Figure` built with the object API (no ``pyplot``
state, no backend selection), so it works headless and under any backend;
save it with ``fig.savefig(path)``.

======================================  ==========================================
function                                paper figure
======================================  ==========================================
:func:`plot_weight_curves`              SPLBoost Fig. 1 (a), (b)
:func:`plot_loss_curves`                SPLBoost Fig. 2 (a), (b)
:func:`plot_synthetic_weights`          SPLBoost Fig. 3
:func:`plot_error_per_round`            SPLBoost Fig. 8 (journal version)
:func:`plot_latent_objective`           SPLBoost Fig. 9 (journal version)
:func:`error_vs_age`,                   SPLBoost Fig. 10 (journal version)
:func:`plot_error_vs_age`
:func:`rilboost_epsilon_study`,         RILBoost Figs. 4-9, 11-13
:func:`plot_accuracy_vs_epsilon`
:func:`rilboost_mixing_study`,          RILBoost Fig. 10
:func:`plot_accuracy_vs_mixing`
======================================  ==========================================

The loss and weight curves use :mod:`robust_boosting.losses` and
:mod:`robust_boosting.self_paced` directly, so the pictures show exactly what
the estimators compute.

References
----------
.. [SPL] K. Wang, Y. Wang, Q. Zhao, D. Meng, Z. Xu, "SPLBoost: An Improved
   Robust Boosting Algorithm Based on Self-paced Learning", IEEE Trans.
   Cybernetics, 2019 (arXiv: Figs. 1-3; journal version: Figs. 8-10).
.. [RIL] L. V. Utkin, Y. A. Zhuk, "Robust boosting classification models with
   local sets of probability distributions", Knowledge-Based Systems, 2014
   (Figs. 4-13).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from numpy.typing import ArrayLike, NDArray
from sklearn.base import clone

from ..losses import get_loss
from ..self_paced import PolynomialRegularizer, SPRegularizer, get_regularizer
from ._figures import _fit_quietly, _new_figure
from .rilboost_figures import (  # re-exported: the RILBoost studies moved there
    DEFAULT_EPSILONS,
    RILBOOST_VARIANTS,
    plot_accuracy_vs_epsilon,
    plot_accuracy_vs_mixing,
    rilboost_epsilon_study,
    rilboost_mixing_study,
)
from .rilboost_figures import (
    _default_rilboost as _default_rilboost,
)

__all__ = [
    "plot_weight_curves",
    "plot_loss_curves",
    "plot_synthetic_weights",
    "plot_error_per_round",
    "plot_latent_objective",
    "error_vs_age",
    "plot_error_vs_age",
    "rilboost_epsilon_study",
    "rilboost_mixing_study",
    "plot_accuracy_vs_epsilon",
    "plot_accuracy_vs_mixing",
    "DEFAULT_EPSILONS",
    "DEFAULT_REGULARIZERS",
    "RILBOOST_VARIANTS",
    "SYNTHETIC_LABELS",
]

#: The four SP-regularizers of SPLBoost's Figs. 1(b) and 2(b), by legend label.
DEFAULT_REGULARIZERS: dict[str, str | SPRegularizer] = {
    "hard": "hard",
    "linear": "linear",
    "polynomial t=4": PolynomialRegularizer(t=4.0),
    "polynomial t=1.3": PolynomialRegularizer(t=1.3),
}

#: The gradient-type algorithms of SPLBoost's Fig. 1(a) and the loss each one descends.
_ALGORITHM_LOSSES: dict[str, str] = {
    "AdaBoost": "exponential",
    "LogitBoost": "logistic",
    "SavageBoost": "savage",
    "RBoost": "savage2",
}

#: The margin losses of SPLBoost's Fig. 2(a), by legend label.
_LOSS_LABELS: dict[str, str] = {
    "exponential": "exponential",
    "logistic": "logistic",
    "savage": "Savage",
    "savage2": "Savage2",
    "zero-one": "0-1",
}


def _margins(margins: ArrayLike | None) -> NDArray[np.float64]:
    if margins is None:
        return np.linspace(-2.0, 2.0, 801)
    m = np.asarray(margins, dtype=np.float64).ravel()
    if m.size < 2 or not np.all(np.isfinite(m)):
        raise ValueError("margins must hold at least two finite values.")
    return np.sort(m)


def _regularizers(regularizers: Mapping[str, str | SPRegularizer] | None) -> dict[str, SPRegularizer]:
    regs = DEFAULT_REGULARIZERS if regularizers is None else regularizers
    return {label: get_regularizer(reg) for label, reg in regs.items()}


# --------------------------------------------------------------------------
# Fig. 1: sample weight against margin
# --------------------------------------------------------------------------
def plot_weight_curves(
    margins: ArrayLike | None = None,
    *,
    ages: Sequence[float] = (2.0, 3.0, 4.0, 5.0, 6.0),
    regularizer: str | SPRegularizer = "linear",
    regularizers: Mapping[str, str | SPRegularizer] | None = None,
    panel_b_age: float = 3.0,
    ylim: tuple[float, float] | None = (0.0, 3.0),
) -> Figure:
    """Sample weight as a function of the margin ``m = y F(x)`` (SPLBoost Fig. 1).

    Panel (a): the weight ``-phi'(m)`` of AdaBoost (exponential loss),
    LogitBoost (logistic), SavageBoost (Savage) and RBoost (Savage2), and
    SPLBoost's weight ``v*(lambda; e^{-m}) e^{-m}`` for each age in ``ages``
    with ``regularizer`` (the paper: linear soft weighting, ``lambda = 2..6``).
    Panel (b): SPLBoost's weight at ``panel_b_age`` for each SP-regularizer
    (the paper: hard, linear, polynomial ``t = 4`` and ``t = 1.3``, ``lambda = 3``).

    Parameters
    ----------
    margins : array-like, optional
        Margins on the x-axis; default 801 points in ``[-2, 2]``.
    ages : sequence of float, default=(2, 3, 4, 5, 6)
        SPLBoost ages of panel (a).
    regularizer : str or SPRegularizer, default="linear"
        SP-regularizer of panel (a).
    regularizers : mapping of label to str or SPRegularizer, optional
        Curves of panel (b); default :data:`DEFAULT_REGULARIZERS`.
    panel_b_age : float, default=3.0
        Age of panel (b).
    ylim : (float, float) or None, default=(0, 3)
        y-range of both panels (AdaBoost's ``e^{-m}`` would otherwise dwarf the
        others); None lets matplotlib choose.

    Returns
    -------
    fig : matplotlib.figure.Figure
        Two Axes; panel (a) has ``4 + len(ages)`` curves, panel (b) one per regularizer.
    """
    m = _margins(margins)
    reg_a = get_regularizer(regularizer)
    exp_loss = get_loss("exponential")
    ell = exp_loss.value(m)
    fig, axes = _new_figure(1, 2)
    ax_a, ax_b = axes[0]
    for label, loss in _ALGORITHM_LOSSES.items():
        ax_a.plot(m, get_loss(loss).sample_weight(m), label=label, lw=1.8)
    for age, color in zip(ages, _shades(len(ages)), strict=True):
        ax_a.plot(m, reg_a.weight(ell, age) * ell, label=f"SPLBoost λ={age:g}", color=color,
                  ls="--", lw=1.4)
    ax_a.set_title(f"(a) algorithms; SPLBoost with {reg_a.name} weighting")
    for label, reg in _regularizers(regularizers).items():
        ax_b.plot(m, reg.weight(ell, panel_b_age) * ell, label=label, lw=1.8)
    ax_b.set_title(f"(b) SPLBoost SP-regularizers, λ={panel_b_age:g}")
    _style_margin_axes((ax_a, ax_b), m, "sample weight", ylim)
    return fig


def _style_margin_axes(axes, m, ylabel: str, ylim) -> None:
    """Shared look of the curve-against-margin panels (Figs. 1 and 2)."""
    for ax in axes:
        ax.set_xlabel("margin y F(x)")
        ax.set_ylabel(ylabel)
        if ylim is not None:
            ax.set_ylim(*ylim)
        ax.set_xlim(m[0], m[-1])
        ax.grid(alpha=0.3)
        ax.legend(fontsize="small")


def _shades(k: int) -> list:
    """``k`` colours from one sequential colour map (the SPLBoost ages)."""
    from matplotlib import colormaps

    cmap = colormaps["viridis"]
    return [cmap(x) for x in np.linspace(0.15, 0.85, max(k, 1))][:k]


# --------------------------------------------------------------------------
# Fig. 2: losses and latent SPLBoost losses
# --------------------------------------------------------------------------
def plot_loss_curves(
    margins: ArrayLike | None = None,
    *,
    ages: Sequence[float] = (2.0, 3.0, 4.0, 5.0, 6.0),
    regularizer: str | SPRegularizer = "linear",
    regularizers: Mapping[str, str | SPRegularizer] | None = None,
    panel_b_age: float = 3.0,
    ylim: tuple[float, float] | None = (0.0, 4.0),
) -> Figure:
    """Loss curves of every margin loss and the latent SPLBoost losses (SPLBoost Fig. 2).

    Panel (a): exponential, logistic, Savage, Savage2 and 0-1 losses of
    :mod:`robust_boosting.losses`, and the latent SPLBoost loss
    ``F_lambda(e^{-m})`` (:meth:`SPRegularizer.latent_loss`) for each age in
    ``ages`` with ``regularizer`` (the paper: linear, ``lambda = 2..6``). Panel (b):
    the latent loss at ``panel_b_age`` for each SP-regularizer (the paper:
    hard, linear, polynomial ``t = 4`` and ``t = 1.3``, ``lambda = 3``). Every latent
    loss is constant once ``e^{-m} >= lambda``, which is the source of SPLBoost's
    robustness.

    Parameters
    ----------
    margins, ages, regularizer, regularizers, panel_b_age
        As :func:`plot_weight_curves`.
    ylim : (float, float) or None, default=(0, 4)

    Returns
    -------
    fig : matplotlib.figure.Figure
        Two Axes; panel (a) has ``5 + len(ages)`` curves, panel (b) one per regularizer.
    """
    m = _margins(margins)
    reg_a = get_regularizer(regularizer)
    ell = get_loss("exponential").value(m)
    fig, axes = _new_figure(1, 2)
    ax_a, ax_b = axes[0]
    for name, label in _LOSS_LABELS.items():
        ax_a.plot(m, get_loss(name).value(m), label=label, lw=1.8,
                  ls=":" if name == "zero-one" else "-")
    for age, color in zip(ages, _shades(len(ages)), strict=True):
        ax_a.plot(m, reg_a.latent_loss(ell, age), label=f"SPLBoost λ={age:g}", color=color,
                  ls="--", lw=1.4)
    ax_a.set_title(f"(a) losses; latent SPLBoost loss with {reg_a.name} weighting")
    for label, reg in _regularizers(regularizers).items():
        ax_b.plot(m, reg.latent_loss(ell, panel_b_age), label=label, lw=1.8)
    ax_b.set_title(f"(b) latent SPLBoost losses, λ={panel_b_age:g}")
    _style_margin_axes((ax_a, ax_b), m, "loss", ylim)
    return fig


# --------------------------------------------------------------------------
# Fig. 3: final sample weights on the synthetic set
# --------------------------------------------------------------------------
#: Legend labels of the point groups in :func:`plot_synthetic_weights` (tests use them).
SYNTHETIC_LABELS = {
    "pos": "label +1",
    "neg": "label -1",
    "flipped_pos": "flipped: class -1 labelled +1",
    "flipped_neg": "flipped: class +1 labelled -1",
    "excluded": "excluded by SPLBoost (v = 0)",
    "bayes": "Bayes boundary",
}


def _excluded_mask(model: Any, n: int) -> NDArray[np.bool_] | None:
    """Samples a fitted model gave self-paced weight 0, or None if it has no such weights."""
    v = getattr(model, "self_paced_weights_", None)
    if v is None:
        return None
    v = np.asarray(v)
    if v.shape != (n,):
        raise ValueError(f"self_paced_weights_ has shape {v.shape}; expected ({n},).")
    return v == 0


def plot_synthetic_weights(
    models: Mapping[str, Any],
    X: ArrayLike,
    y: ArrayLike,
    flipped: ArrayLike | None = None,
    *,
    log_odds: Callable[[NDArray], NDArray] | None = None,
    show_data: bool = True,
    ncols: int = 3,
    marker_size: float = 20.0,
    max_marker_size: float = 400.0,
    grid_points: int = 200,
) -> Figure:
    """A 2-D training set with each model's final sample weights as marker sizes (SPLBoost Fig. 3).

    One panel per fitted model (plus, first, the data alone when ``show_data``).
    In every panel, pluses are samples labelled +1 and crosses samples labelled
    -1; flipped samples are drawn instead as blue squares (class -1 labelled +1)
    and red circles (class +1 labelled -1), as in the paper. Marker *area* is
    proportional to the model's final normalised weight ``sample_weights_``
    (``marker_size`` for the mean weight ``1/n``, capped at ``max_marker_size``).
    For models with self-paced weights (SPLBoost) the samples with ``v = 0``
    (:attr:`~robust_boosting.SPLBoostClassifier.excluded_samples_`) are circled
    in black with a fixed size. The Bayes boundary is the zero level of ``log_odds``.

    Parameters
    ----------
    models : mapping of str to fitted estimator
        Panel title -> binary booster fitted on ``(X, y)``, with ``sample_weights_``.
    X : array-like of shape (n_samples, 2)
    y : array-like of shape (n_samples,)
        The (noisy) training labels, in {-1, +1} (or two values; the larger is +1).
    flipped : array-like of bool, shape (n_samples,), optional
        Which labels were flipped (e.g. from :func:`robust_boosting.noise.flip_labels_per_class`).
    log_odds : callable, optional
        ``log p(x|+1) - log p(x|-1)`` on an ``(m, 2)`` array, e.g.
        :func:`robust_boosting.datasets.splboost_gaussian_log_odds`; no boundary if None.
    show_data : bool, default=True
        Add a first panel with the data at equal marker sizes (the paper's panel (a)).
    ncols : int, default=3
    marker_size, max_marker_size : float
        Marker area (points²) of a sample with weight ``1/n``, and the cap.
    grid_points : int, default=200
        Grid resolution per axis for the Bayes boundary.

    Returns
    -------
    fig : matplotlib.figure.Figure
        One Axes per panel (unused grid cells removed). In each, every point
        group is a scatter collection labelled with :data:`SYNTHETIC_LABELS`
        (the four label groups partition the samples; the excluded samples are a
        fifth collection), the Bayes boundary a contour set; one figure legend.
    """
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(f"X must have shape (n_samples, 2), got {X.shape}.")
    n = X.shape[0]
    y = np.asarray(y)
    if y.shape != (n,):
        raise ValueError(f"y must have shape ({n},), got {y.shape}.")
    classes = np.unique(y)
    if classes.size != 2:
        raise ValueError(f"y must have two classes, got {classes.tolist()}.")
    positive = y == classes[1]
    flipped = np.zeros(n, dtype=bool) if flipped is None else np.asarray(flipped, dtype=bool)
    if flipped.shape != (n,):
        raise ValueError(f"flipped must have shape ({n},), got {flipped.shape}.")
    if not models and not show_data:
        raise ValueError("Nothing to draw: no models and show_data=False.")

    panels: list[tuple[str, Any]] = ([("training data", None)] if show_data else []) + list(
        models.items()
    )
    ncols = max(1, min(ncols, len(panels)))
    nrows = -(-len(panels) // ncols)
    fig, axes = _new_figure(nrows, ncols, width=4.2, height=4.0)
    flat = axes.ravel()
    for ax in flat[len(panels):]:
        fig.delaxes(ax)

    pad = 0.05 * (X.max(axis=0) - X.min(axis=0))
    lo, hi = X.min(axis=0) - pad, X.max(axis=0) + pad
    boundary = None
    if log_odds is not None:
        gx, gy = np.meshgrid(np.linspace(lo[0], hi[0], grid_points),
                             np.linspace(lo[1], hi[1], grid_points))
        gz = np.asarray(log_odds(np.column_stack([gx.ravel(), gy.ravel()]))).reshape(gx.shape)
        boundary = (gx, gy, gz)

    groups = {
        "pos": positive & ~flipped,
        "neg": ~positive & ~flipped,
        "flipped_pos": positive & flipped,
        "flipped_neg": ~positive & flipped,
    }
    style = {
        "pos": dict(marker="+", c="tab:red", linewidths=1.2),
        "neg": dict(marker="x", c="tab:blue", linewidths=1.2),
        "flipped_pos": dict(marker="s", facecolors="none", edgecolors="blue", linewidths=1.2),
        "flipped_neg": dict(marker="o", facecolors="none", edgecolors="red", linewidths=1.2),
    }
    for ax, (title, model) in zip(flat, panels, strict=False):
        if model is None:
            sizes = np.full(n, marker_size)
            excluded = None
        else:
            w = np.asarray(model.sample_weights_, dtype=np.float64)
            if w.shape != (n,):
                raise ValueError(
                    f"{title}: sample_weights_ has shape {w.shape}; the model must be "
                    f"fitted on the {n} samples of X."
                )
            sizes = np.minimum(marker_size * n * w, max_marker_size)
            excluded = _excluded_mask(model, n)
        for key, mask in groups.items():
            ax.scatter(X[mask, 0], X[mask, 1], s=sizes[mask], label=SYNTHETIC_LABELS[key],
                       **style[key])
        if excluded is not None:
            ax.scatter(X[excluded, 0], X[excluded, 1], s=3.0 * marker_size + 40.0,
                       facecolors="none", edgecolors="black", linewidths=1.0,
                       label=SYNTHETIC_LABELS["excluded"])
            title = f"{title} ({int(excluded.sum())} excluded)"
        if boundary is not None:
            ax.contour(*boundary, levels=[0.0], colors="k", linewidths=1.2)
        ax.set_xlim(lo[0], hi[0])
        ax.set_ylim(lo[1], hi[1])
        ax.set_title(title, fontsize="medium")
        ax.set_xlabel("x1")
        ax.set_ylabel("x2")
    # one legend for the figure, with fixed-size proxies (the scatter sizes vary, may be 0)
    proxies = [
        Line2D([], [], ls="none", marker="+", color="tab:red", ms=8, label=SYNTHETIC_LABELS["pos"]),
        Line2D([], [], ls="none", marker="x", color="tab:blue", ms=7, label=SYNTHETIC_LABELS["neg"]),
        Line2D([], [], ls="none", marker="s", mfc="none", mec="blue", ms=7,
               label=SYNTHETIC_LABELS["flipped_pos"]),
        Line2D([], [], ls="none", marker="o", mfc="none", mec="red", ms=7,
               label=SYNTHETIC_LABELS["flipped_neg"]),
    ]
    if any(_excluded_mask(model, n) is not None for model in models.values()):
        proxies.append(Line2D([], [], ls="none", marker="o", mfc="none", mec="black", ms=10,
                              label=SYNTHETIC_LABELS["excluded"]))
    if boundary is not None:
        proxies.append(Line2D([], [], color="k", lw=1.2, label=SYNTHETIC_LABELS["bayes"]))
    fig.legend(handles=proxies, loc="outside lower center", ncols=3, fontsize="small")
    return fig


# --------------------------------------------------------------------------
# Fig. 8: training and test error per round
# --------------------------------------------------------------------------
def _staged_errors(model: Any, X: ArrayLike, y: ArrayLike) -> NDArray[np.float64]:
    y = np.asarray(y)
    return np.array([np.mean(pred != y) for pred in model.staged_predict(X)])


def plot_error_per_round(
    models: Mapping[str, Any],
    X_train: ArrayLike,
    y_train: ArrayLike,
    X_test: ArrayLike,
    y_test: ArrayLike,
) -> Figure:
    """Training and test error after each boosting round (SPLBoost journal version, Fig. 8).

    With noisy training labels AdaBoost's training error keeps falling (it
    fits the flipped labels) while its test error rises; SPLBoost's training
    error levels off and its test error stays low.

    Parameters
    ----------
    models : mapping of str to fitted estimator
        Legend label -> fitted classifier with ``staged_predict`` (e.g.
        ``{"AdaBoost": ada, "SPLBoost λ=2": spl2, ...}``).
    X_train, y_train : array-like
        Training data with the labels the models were fitted on (noisy).
    X_test, y_test : array-like
        Test data with clean labels.

    Returns
    -------
    fig : matplotlib.figure.Figure
        Two Axes, "(a) training error" and "(b) test error", one curve per model.
    """
    if not models:
        raise ValueError("models is empty.")
    fig, axes = _new_figure(1, 2)
    ax_tr, ax_te = axes[0]
    for label, model in models.items():
        for ax, (Xs, ys) in ((ax_tr, (X_train, y_train)), (ax_te, (X_test, y_test))):
            err = _staged_errors(model, Xs, ys)
            ax.plot(np.arange(1, err.size + 1), err, label=label, lw=1.4)
    ax_tr.set_title("(a) training error (noisy labels)")
    ax_te.set_title("(b) test error (clean labels)")
    ax_tr.set_ylabel("training error")
    ax_te.set_ylabel("test error")
    for ax in (ax_tr, ax_te):
        ax.set_xlabel("boosting round")
        ax.grid(alpha=0.3)
        ax.legend(fontsize="small")
    return fig


# --------------------------------------------------------------------------
# Fig. 9: latent objective per round
# --------------------------------------------------------------------------
def plot_latent_objective(
    models: Mapping[str, Any],
    *,
    skip_warm_start: bool = False,
    mark_warm_start: bool = True,
    logy: bool = False,
) -> Figure:
    """SPLBoost's latent objective after each round (SPLBoost journal version, Fig. 9).

    Plots ``latent_objective_`` (``sum_i s_i F_lambda(exp(-y_i F(x_i)))``) of
    each fitted SPLBoost model. By Theorem 1 it never increases once the
    warm-start rounds are over and ``lambda`` is fixed.

    Parameters
    ----------
    models : mapping of str to fitted SPLBoostClassifier
        Legend label -> model with ``latent_objective_``.
    skip_warm_start : bool, default=False
        Start each curve after the model's ``warm_start_rounds_`` (the fitted count).
    mark_warm_start : bool, default=True
        Draw a dotted vertical line where the warm-start rounds end (if any).
    logy : bool, default=False
        Log-scaled y-axis.

    Returns
    -------
    fig : matplotlib.figure.Figure
        One Axes with one curve per model (plus the warm-start marker line).
    """
    if not models:
        raise ValueError("models is empty.")
    fig, axes = _new_figure(1, 1, width=6.0, height=4.2)
    ax = axes[0, 0]
    warm = 0
    for label, model in models.items():
        obj = getattr(model, "latent_objective_", None)
        if obj is None:
            raise ValueError(f"{label}: the model has no latent_objective_ (not SPLBoost?).")
        obj = np.asarray(obj, dtype=np.float64)
        # the fitted count ("auto" resolves at fit; one per class for one-vs-rest)
        model_warm = int(np.max(getattr(model, "warm_start_rounds_", 0) or 0))
        start = model_warm if skip_warm_start else 0
        rounds = np.arange(1, obj.size + 1)
        ax.plot(rounds[start:], obj[start:], label=label, lw=1.6)
        warm = max(warm, model_warm)
    if mark_warm_start and warm > 0 and not skip_warm_start:
        ax.axvline(warm + 0.5, color="0.4", ls=":", lw=1.0, label="end of warm start")
    ax.set_xlabel("boosting round")
    ax.set_ylabel("latent objective Σ s_i F_λ(exp(-y_i F(x_i)))")
    ax.set_title("SPLBoost latent objective (Theorem 1: non-increasing)")
    if logy:
        ax.set_yscale("log")
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small")
    return fig


# --------------------------------------------------------------------------
# Fig. 10: test error against the age
# --------------------------------------------------------------------------
def _age_point(estimator, age, X_train, y_train, X_test, y_test) -> dict:
    params = {"age": age}
    if "age_growth" in estimator.get_params(deep=False):
        params["age_growth"] = None  # the figure's age is the paper's fixed age
    model = _fit_quietly(clone(estimator).set_params(**params), X_train, y_train)
    excluded = _excluded_mask(model, np.asarray(y_train).shape[0])
    return {
        "age": float(age),
        "test_error": float(np.mean(model.predict(X_test) != np.asarray(y_test))),
        "train_error": float(np.mean(model.predict(X_train) != np.asarray(y_train))),
        "n_excluded": int(excluded.sum()) if excluded is not None else 0,
        "n_rounds": int(model.n_estimators_),
    }


def error_vs_age(
    estimator: Any,
    X_train: ArrayLike,
    y_train: ArrayLike,
    X_test: ArrayLike,
    y_test: ArrayLike,
    ages: ArrayLike,
    *,
    n_jobs: int | None = None,
) -> pd.DataFrame:
    """Fit ``estimator`` at every age and record its errors (data for SPLBoost Fig. 10).

    Parameters
    ----------
    estimator : SPLBoostClassifier (unfitted)
        Cloned and refitted with ``age`` set to each value of ``ages`` (and
        ``age_growth=None``, the paper's fixed age, where it has that parameter).
    X_train, y_train : array-like
        Training data (noisy labels).
    X_test, y_test : array-like
        Test data (clean labels).
    ages : array-like of float
        E.g. ``np.arange(1, 20.01, 0.2)`` as in the paper.
    n_jobs : int, optional
        Parallel fits (joblib).

    Returns
    -------
    results : pandas.DataFrame
        One row per age: ``age``, ``test_error``, ``train_error``,
        ``n_excluded`` (samples with ``v = 0`` at the end) and ``n_rounds``.
    """
    from joblib import Parallel, delayed

    ages = np.asarray(ages, dtype=np.float64).ravel()
    if ages.size == 0 or np.any(~(ages > 0)):
        raise ValueError("ages must be a non-empty array of positive numbers.")
    rows = Parallel(n_jobs=n_jobs)(
        delayed(_age_point)(estimator, a, X_train, y_train, X_test, y_test) for a in ages
    )
    return pd.DataFrame(rows)


def plot_error_vs_age(
    results: pd.DataFrame,
    *,
    reference: Mapping[str, float] | None = None,
    show_train: bool = False,
) -> Figure:
    """Test error of SPLBoost against its age ``lambda`` (SPLBoost journal version, Fig. 10).

    Parameters
    ----------
    results : pandas.DataFrame
        Columns ``age`` and ``test_error`` (and ``train_error`` for
        ``show_train``), e.g. from :func:`error_vs_age`. Several rows per age
        (repetitions) are averaged.
    reference : mapping of str to float, optional
        Horizontal reference lines, e.g. ``{"AdaBoost": 0.12}`` (SPLBoost
        becomes AdaBoost as ``lambda`` grows).
    show_train : bool, default=False
        Also draw the training error.

    Returns
    -------
    fig : matplotlib.figure.Figure
        One Axes: the test-error curve (one point per distinct age), then the
        training-error curve if asked, then one line per reference.
    """
    if not {"age", "test_error"} <= set(results.columns):
        raise ValueError("results needs the columns 'age' and 'test_error'.")
    if results.empty:
        raise ValueError("results is empty.")
    mean = results.groupby("age", sort=True).mean(numeric_only=True)
    fig, axes = _new_figure(1, 1, width=6.0, height=4.2)
    ax = axes[0, 0]
    ax.plot(mean.index, mean["test_error"], marker="o", ms=3, lw=1.6, label="SPLBoost test error")
    if show_train and "train_error" in mean:
        ax.plot(mean.index, mean["train_error"], marker=".", ms=3, lw=1.0, ls="--",
                label="SPLBoost training error")
    for (label, value), color in zip((reference or {}).items(), ("tab:red", "tab:gray", "tab:green",
                                                                  "tab:purple"), strict=False):
        ax.axhline(value, color=color, ls=":", lw=1.4, label=label)
    ax.set_xlabel("age λ")
    ax.set_ylabel("test error")
    ax.set_title("SPLBoost test error against λ")
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small")
    return fig
