"""Tests of robust_boosting.plotting: what each figure draws, under the Agg backend."""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
import warnings

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest
from matplotlib.collections import PathCollection
from matplotlib.figure import Figure
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.linear_model import LogisticRegression

from robust_boosting import AdaBoostClassifier, BoostingStoppedWarning, SPLBoostClassifier
from robust_boosting.datasets import splboost_gaussian_log_odds
from robust_boosting.losses import get_loss
from robust_boosting.plotting import (
    SYNTHETIC_LABELS,
    _cli,
    diagnostics,
    error_vs_age,
    plot_accuracy_vs_epsilon,
    plot_accuracy_vs_mixing,
    plot_error_per_round,
    plot_error_vs_age,
    plot_latent_objective,
    plot_loss_curves,
    plot_synthetic_weights,
    plot_weight_curves,
    rilboost_epsilon_study,
    rilboost_mixing_study,
)
from robust_boosting.self_paced import get_regularizer


def _render(fig: Figure) -> bytes:
    """Render to PNG in memory (Agg) and return the bytes."""
    assert isinstance(fig, Figure)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=40)
    data = buf.getvalue()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return data


def _labels(ax) -> list[str]:
    return [line.get_label() for line in ax.get_lines()]


def _legend_texts(legend) -> list[str]:
    return [t.get_text() for t in legend.get_texts()]


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", BoostingStoppedWarning)
        yield


@pytest.fixture(scope="module")
def synthetic_models():
    from robust_boosting.datasets import make_splboost_gaussian
    from robust_boosting.noise import flip_labels_per_class

    X, y = make_splboost_gaussian(60, random_state=1)
    y_noisy, flipped = flip_labels_per_class(y, 0.15, random_state=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", BoostingStoppedWarning)
        models = {
            "AdaBoost": AdaBoostClassifier(n_estimators=30, random_state=0).fit(X, y_noisy),
            "SPLBoost 1.5": SPLBoostClassifier(n_estimators=30, age=1.5,
                                               random_state=0).fit(X, y_noisy),
            "SPLBoost 2.5": SPLBoostClassifier(n_estimators=30, age=2.5,
                                               random_state=0).fit(X, y_noisy),
        }
    return X, y_noisy, flipped, models


# ------------------------------------------------------------------ Figs. 1 and 2
def test_weight_curves_draw_every_algorithm_and_age():
    m = np.linspace(-2, 2, 201)
    fig = plot_weight_curves(m, ages=(2, 3, 4, 5, 6))
    _render(fig)
    ax_a, ax_b = fig.axes
    assert _labels(ax_a) == ["AdaBoost", "LogitBoost", "SavageBoost", "RBoost"] + [
        f"SPLBoost λ={a}" for a in (2, 3, 4, 5, 6)
    ]
    assert _labels(ax_b) == ["hard", "linear", "polynomial t=4", "polynomial t=1.3"]
    assert _legend_texts(ax_a.get_legend()) == _labels(ax_a)
    for ax in (ax_a, ax_b):
        assert ax.get_xlabel() == "margin y F(x)"
        assert ax.get_ylabel() == "sample weight"
    lines = {line.get_label(): line for line in ax_a.get_lines()}
    np.testing.assert_allclose(lines["AdaBoost"].get_ydata(), np.exp(-m))
    np.testing.assert_allclose(lines["SavageBoost"].get_ydata(), get_loss("savage").sample_weight(m))
    spl2 = lines["SPLBoost λ=2"].get_ydata()
    # linear weighting: v* e^{-m} = (1 - e^{-m}/2) e^{-m}, zero once e^{-m} >= 2
    np.testing.assert_allclose(spl2, np.clip(1 - np.exp(-m) / 2, 0, None) * np.exp(-m))
    assert np.all(spl2[m <= -np.log(2)] == 0) and np.all(spl2[m > -np.log(2)] > 0)
    hard = {line.get_label(): line for line in ax_b.get_lines()}["hard"].get_ydata()
    assert np.all(hard[m <= -np.log(3)] == 0)


def test_loss_curves_draw_losses_and_latent_losses():
    m = np.linspace(-3, 2, 301)
    fig = plot_loss_curves(m, ages=(2, 4), panel_b_age=3.0)
    _render(fig)
    ax_a, ax_b = fig.axes
    assert _labels(ax_a) == ["exponential", "logistic", "Savage", "Savage2", "0-1",
                             "SPLBoost λ=2", "SPLBoost λ=4"]
    assert len(ax_b.get_lines()) == 4
    assert ax_a.get_ylabel() == ax_b.get_ylabel() == "loss"
    lines = {line.get_label(): line for line in ax_a.get_lines()}
    # latent linear loss saturates at lambda / 2 once e^{-m} >= lambda
    latent4 = lines["SPLBoost λ=4"].get_ydata()
    np.testing.assert_allclose(latent4[m <= -np.log(4)], 2.0)
    np.testing.assert_allclose(
        latent4, get_regularizer("linear").latent_loss(np.exp(-m), 4.0))
    np.testing.assert_array_equal(lines["0-1"].get_ydata(), (m <= 0).astype(float))
    hard = {line.get_label(): line for line in ax_b.get_lines()}["hard"].get_ydata()
    np.testing.assert_allclose(hard, np.minimum(np.exp(-m), 3.0))


# ------------------------------------------------------------------------- Fig. 3
def test_synthetic_weights_marks_flipped_and_excluded_points(synthetic_models):
    X, y, flipped, models = synthetic_models
    n = len(y)
    fig = plot_synthetic_weights(models, X, y, flipped, log_odds=splboost_gaussian_log_odds)
    _render(fig)
    assert len(fig.axes) == 1 + len(models)
    assert [ax.get_title().split(" (")[0] for ax in fig.axes] == ["training data", *models]
    groups = {
        SYNTHETIC_LABELS["pos"]: (y == 1) & ~flipped,
        SYNTHETIC_LABELS["neg"]: (y == -1) & ~flipped,
        SYNTHETIC_LABELS["flipped_pos"]: (y == 1) & flipped,
        SYNTHETIC_LABELS["flipped_neg"]: (y == -1) & flipped,
    }
    for ax, (_title, model) in zip(fig.axes, [("training data", None), *models.items()],
                                  strict=True):
        scatters = {c.get_label(): c for c in ax.collections if isinstance(c, PathCollection)}
        # the four label groups partition the samples
        assert sum(len(scatters[label].get_offsets()) for label in groups) == n
        for label, mask in groups.items():
            np.testing.assert_allclose(scatters[label].get_offsets(), X[mask])
            if model is not None:
                # marker area proportional to the final normalised sample weight
                sizes = scatters[label].get_sizes()
                expected = np.minimum(20.0 * n * model.sample_weights_[mask], 400.0)
                np.testing.assert_allclose(sizes, expected)
        excluded = scatters.get(SYNTHETIC_LABELS["excluded"])
        if model is not None and hasattr(model, "self_paced_weights_"):
            v = model.self_paced_weights_
            assert (v == 0).any()
            np.testing.assert_allclose(excluded.get_offsets(), X[v == 0])
            assert f"({int((v == 0).sum())} excluded)" in ax.get_title()
        else:
            assert excluded is None
        # the Bayes boundary is drawn as one contour set
        assert sum(type(c).__name__ == "QuadContourSet" for c in ax.collections) == 1
    legend = _legend_texts(fig.legends[0])
    assert legend == [SYNTHETIC_LABELS[k] for k in
                      ("pos", "neg", "flipped_pos", "flipped_neg", "excluded", "bayes")]


def test_synthetic_weights_checks_inputs(synthetic_models):
    X, y, flipped, models = synthetic_models
    with pytest.raises(ValueError, match="shape"):
        plot_synthetic_weights(models, X[:, :1], y)
    with pytest.raises(ValueError, match="sample_weights_"):
        plot_synthetic_weights(models, X[:-1], y[:-1])
    fig = plot_synthetic_weights({"AdaBoost": models["AdaBoost"]}, X, y, show_data=False)
    assert len(fig.axes) == 1
    assert SYNTHETIC_LABELS["excluded"] not in _legend_texts(fig.legends[0])
    assert SYNTHETIC_LABELS["bayes"] not in _legend_texts(fig.legends[0])


# ------------------------------------------------------------------- Figs. 8 and 9
def test_error_per_round_one_curve_per_model(synthetic_models):
    X, y, _, models = synthetic_models
    X_test, y_test = X[::2], -y[::2]
    fig = plot_error_per_round(models, X, y, X_test, y_test)
    _render(fig)
    ax_tr, ax_te = fig.axes
    assert ax_tr.get_ylabel() == "training error" and ax_te.get_ylabel() == "test error"
    assert ax_tr.get_xlabel() == ax_te.get_xlabel() == "boosting round"
    for ax, (Xs, ys) in ((ax_tr, (X, y)), (ax_te, (X_test, y_test))):
        assert _labels(ax) == list(models)
        for line, model in zip(ax.get_lines(), models.values(), strict=True):
            assert len(line.get_xdata()) == model.n_estimators_
            assert line.get_ydata()[-1] == pytest.approx(1 - model.score(Xs, ys))


def test_latent_objective_curves(synthetic_models):
    _, _, _, models = synthetic_models
    spl = {k: v for k, v in models.items() if k.startswith("SPL")}
    fig = plot_latent_objective(spl)
    _render(fig)
    (ax,) = fig.axes
    assert _labels(ax) == [*spl, "end of warm start"]
    for line, model in zip(ax.get_lines(), spl.values(), strict=False):
        np.testing.assert_allclose(line.get_ydata(), model.latent_objective_)
        # Theorem 1: non-increasing after the warm start
        assert np.all(np.diff(model.latent_objective_[3:]) <= 1e-12)
    assert "latent objective" in ax.get_ylabel()
    fig = plot_latent_objective(spl, skip_warm_start=True, logy=True)
    (ax,) = fig.axes
    assert len(ax.get_lines()) == len(spl) and ax.get_yscale() == "log"
    assert len(ax.get_lines()[0].get_xdata()) == spl["SPLBoost 1.5"].n_estimators_ - 3
    with pytest.raises(ValueError, match="latent_objective_"):
        plot_latent_objective({"AdaBoost": models["AdaBoost"]})


# ------------------------------------------------------------------------ Fig. 10
def test_error_vs_age_table_and_plot(synthetic_models):
    X, y, _, _ = synthetic_models
    ages = [1.2, 2.0, 50.0]
    table = error_vs_age(SPLBoostClassifier(n_estimators=15, random_state=0), X, y, X, y, ages)
    assert list(table["age"]) == ages
    assert {"test_error", "train_error", "n_excluded", "n_rounds"} <= set(table.columns)
    # a huge age keeps every sample, a small one drops some
    assert table["n_excluded"].iloc[-1] == 0 and table["n_excluded"].iloc[0] > 0
    fig = plot_error_vs_age(table, reference={"AdaBoost": 0.2}, show_train=True)
    _render(fig)
    (ax,) = fig.axes
    assert _labels(ax) == ["SPLBoost test error", "SPLBoost training error", "AdaBoost"]
    np.testing.assert_allclose(ax.get_lines()[0].get_xdata(), ages)
    np.testing.assert_allclose(ax.get_lines()[0].get_ydata(), table["test_error"])
    assert ax.get_xlabel() == "age λ" and ax.get_ylabel() == "test error"
    # repetitions are averaged per age
    doubled = pd.concat([table, table.assign(test_error=table["test_error"] + 0.1)])
    (ax,) = plot_error_vs_age(doubled).axes
    np.testing.assert_allclose(ax.get_lines()[0].get_ydata(), table["test_error"] + 0.05)
    with pytest.raises(ValueError, match="columns"):
        plot_error_vs_age(pd.DataFrame({"x": [1]}))


# ---------------------------------------------------------------- RILBoost figures
class FakeRIL(ClassifierMixin, BaseEstimator):
    """Stand-in with RILBoost's epsilon/mixing parameters: logistic regression on X."""

    def __init__(self, epsilon=0.0, mixing=1.0, n_estimators=10, random_state=None):
        self.epsilon = epsilon
        self.mixing = mixing
        self.n_estimators = n_estimators
        self.random_state = random_state

    def fit(self, X, y):
        self.model_ = LogisticRegression(C=1.0 + self.mixing).fit(X, y)
        self.classes_ = self.model_.classes_
        return self

    def predict(self, X):
        return self.model_.predict(X)


@pytest.fixture(scope="module")
def blobs():
    rng = np.random.RandomState(0)
    X = np.vstack([rng.normal(0, 1, (60, 2)), rng.normal(1.5, 1, (60, 2))])
    y = np.repeat([-1, 1], 60)
    return X, y


def test_rilboost_epsilon_study_is_tidy_and_paired(blobs):
    X, y = blobs
    eps = [0.0, 0.1, 0.2]
    df = rilboost_epsilon_study(X, y, epsilons=eps, n_train=(10, 20), n_draws=3,
                                estimator=FakeRIL(), random_state=0)
    assert list(df.columns) == ["variant", "n", "epsilon", "mixing", "draw", "accuracy"]
    assert len(df) == 2 * 3 * len(eps) * 2
    assert set(df["variant"]) == {"I", "II"}
    assert set(df.loc[df["variant"] == "I", "mixing"]) == {1.0}
    assert set(df.loc[df["variant"] == "II", "mixing"]) == {0.0}
    assert df["accuracy"].between(0, 1).all()
    # every epsilon of a (variant, n, draw) sees the same split: the fake ignores epsilon
    spread = df.groupby(["variant", "n", "draw"])["accuracy"].nunique()
    assert (spread == 1).all()
    again = rilboost_epsilon_study(X, y, epsilons=eps, n_train=(10, 20), n_draws=3,
                                   estimator=FakeRIL(), random_state=0)
    pd.testing.assert_frame_equal(df, again)
    with pytest.raises(ValueError, match="variants"):
        rilboost_epsilon_study(X, y, variants=("III",), estimator=FakeRIL())
    with pytest.raises(ValueError, match="epsilons"):
        rilboost_epsilon_study(X, y, epsilons=[1.5], estimator=FakeRIL())


def test_plot_accuracy_vs_epsilon_layout(blobs):
    X, y = blobs
    parts = []
    for name in ("set A", "set B"):
        df = rilboost_epsilon_study(X, y, epsilons=[0.0, 0.1, 0.2, 0.3], n_train=(10, 20, 40),
                                    n_draws=2, estimator=FakeRIL(), random_state=1)
        parts.append(df.assign(dataset=name))
    table = pd.concat(parts, ignore_index=True)
    fig = plot_accuracy_vs_epsilon(table)
    _render(fig)
    assert len(fig.axes) == 2 * 2  # data sets x variants
    titles = [ax.get_title() for ax in fig.axes]
    assert titles == ["set A: RILBoost I", "set A: RILBoost II",
                      "set B: RILBoost I", "set B: RILBoost II"]
    for ax in fig.axes:
        assert _labels(ax) == ["n = 10", "n = 20", "n = 40"]
        assert ax.get_xlabel() == "ε" and ax.get_ylabel() == "accuracy"
        for line in ax.get_lines():
            np.testing.assert_allclose(line.get_xdata(), [0.0, 0.1, 0.2, 0.3])
    one = table[(table["dataset"] == "set A") & (table["variant"] == "II") & (table["n"] == 20)]
    expected = one.groupby("epsilon")["accuracy"].mean().to_numpy()
    np.testing.assert_allclose(fig.axes[1].get_lines()[1].get_ydata(), expected)
    # without a dataset column: one row of panels
    fig = plot_accuracy_vs_epsilon(parts[0].drop(columns="dataset"))
    assert len(fig.axes) == 2 and fig.axes[0].get_title() == "RILBoost I"


class FakeRILVariant(FakeRIL):
    """Stand-in naming the variant ("I"/"II") instead of a mixing parameter."""

    def __init__(self, epsilon=0.0, variant="I", n_estimators=10, random_state=None):
        self.epsilon = epsilon
        self.variant = variant
        self.n_estimators = n_estimators
        self.random_state = random_state

    def fit(self, X, y):
        self.mixing = {"I": 1.0, "II": 0.0}[self.variant]
        return super().fit(X, y)


def test_rilboost_study_accepts_a_variant_parameter(blobs):
    X, y = blobs
    df = rilboost_epsilon_study(X, y, epsilons=[0.0, 0.1], n_train=[10], n_draws=1,
                                estimator=FakeRILVariant(), random_state=0)
    assert list(df["variant"]) == ["I", "I", "II", "II"]
    with pytest.raises(ValueError, match="mixing_param"):
        rilboost_mixing_study(X, y, mixings=[0.5], epsilons=[0.0], n_train=[10], n_draws=1,
                              estimator=FakeRILVariant())


def test_mixing_study_and_plot(blobs):
    X, y = blobs
    mixings = [0.0, 0.5, 1.0]
    df = rilboost_mixing_study(X, y, mixings=mixings, epsilons=[0.0, 0.2], n_train=[10],
                               n_draws=2, estimator=FakeRIL(), random_state=0)
    assert len(df) == len(mixings) * 2 * 2
    assert list(dict.fromkeys(df["variant"])) == ["II", "a=0.5", "I"]
    fig = plot_accuracy_vs_mixing(df)
    _render(fig)
    (ax,) = fig.axes
    assert _labels(ax) == ["a = 0 (II)", "a = 0.5", "a = 1 (I)"]
    assert ax.get_xlabel() == "ε"
    (ax,) = plot_accuracy_vs_mixing(df, x="mixing").axes
    assert _labels(ax) == ["ε = 0", "ε = 0.2"]
    assert ax.get_xlabel() == "mixing parameter a"
    np.testing.assert_allclose(ax.get_lines()[0].get_xdata(), mixings)
    with pytest.raises(ValueError, match="x must be"):
        plot_accuracy_vs_mixing(df, x="n")


# ------------------------------------------------------------------------------ CLI
def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="robust-boosting")
    sub = parser.add_subparsers(dest="command")
    _cli.add_parser(sub)
    return parser


def test_cli_has_one_subcommand_per_figure():
    parser = _parser()
    for figure in _cli.FIGURES:
        args = parser.parse_args(["plot", figure])
        assert args.func is _cli.FIGURES[figure][1] and args.out == f"{figure}.png"
    with pytest.raises(SystemExit):
        parser.parse_args(["plot"])
    with pytest.raises(SystemExit):
        parser.parse_args(["plot", "weights", "--ages", "a,b"])
    args = parser.parse_args(["plot", "error-vs-age", "--ages", "1:2:0.25"])
    assert args.ages == [1.0, 1.25, 1.5, 1.75, 2.0]


def test_cli_curves_and_synthetic(tmp_path):
    parser = _parser()
    out = tmp_path / "w.png"
    args = parser.parse_args(["plot", "weights", "--out", str(out), "--ages", "2,4", "--dpi", "30"])
    assert args.func(args) == 0
    assert out.read_bytes()[:4] == b"\x89PNG"
    out = tmp_path / "s.png"
    args = parser.parse_args(["plot", "synthetic", "--out", str(out), "--rounds", "10",
                              "--n-per-class", "40", "--ages", "1.5,2", "--dpi", "30"])
    assert args.func(args) == 0 and out.stat().st_size > 0


def test_cli_error_per_round_and_rilboost(tmp_path, monkeypatch):
    parser = _parser()
    out = tmp_path / "e.png"
    args = parser.parse_args(["plot", "error-per-round", "--out", str(out), "--dataset",
                              "splboost-gaussian", "--rounds", "10", "--ages", "2",
                              "--dpi", "30"])
    assert args.func(args) == 0 and out.exists()
    monkeypatch.setattr(diagnostics, "_default_rilboost", lambda n_estimators=10: FakeRIL())
    table = tmp_path / "r.csv"
    args = parser.parse_args(["plot", "rilboost-epsilon", "--out", str(tmp_path / "r.png"),
                              "--dataset", "rilboost-gaussian", "--n-train", "10",
                              "--epsilons", "0,0.2", "--draws", "2", "--table", str(table),
                              "--dpi", "30"])
    assert args.func(args) == 0
    df = pd.read_csv(table)
    assert len(df) == 2 * 2 * 2 and set(df["dataset"]) == {"rilboost-gaussian"}
    with pytest.raises(ValueError, match="unknown data set"):
        _cli._load_xy("no-such-set")


def test_import_is_headless_safe():
    """Importing and drawing never imports pyplot (so no backend is chosen or forced)."""
    code = ("import io, sys, robust_boosting.plotting as p; "
            "p.plot_loss_curves().savefig(io.BytesIO(), format='png', dpi=20); "
            "print('matplotlib.pyplot' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["False"]


def test_make_figures_commands_parse(monkeypatch):
    """Every command of scripts/make_figures.py (listed in docs/figures/README.md) is valid."""
    import importlib.util
    import shlex
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "scripts" / "make_figures.py"
    spec = importlib.util.spec_from_file_location("make_figures", path)
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "make_figures", module)  # dataclasses look it up
    spec.loader.exec_module(module)
    parser = _parser()
    for fig in module.FIGURES:
        cmd = shlex.split(module.command(fig))
        assert cmd[:2] == ["robust-boosting", "plot"]
        args = parser.parse_args(cmd[1:])
        assert args.out == f"docs/figures/{fig.file}"


def test_error_vs_noise_has_error_bars():
    import matplotlib
    import pandas as pd
    from matplotlib.container import ErrorbarContainer

    from robust_boosting.plotting.results import plot_error_vs_noise

    matplotlib.use("Agg")
    df = pd.DataFrame({"dataset": ["d"] * 4, "rate": [0.0, 0.0, 0.2, 0.2],
                       "variant": ["a"] * 4, "test_error": [0.1, 0.2, 0.3, 0.5]})
    fig = plot_error_vs_noise(df)
    bars = [c for c in fig.axes[0].containers if isinstance(c, ErrorbarContainer)]
    assert len(bars) == 1
    segments = bars[0].lines[2][0].get_segments()
    assert [round(seg[1][1] - seg[0][1], 6) for seg in segments] == [10.0, 20.0]  # 2 x sem (%)
