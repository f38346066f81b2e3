"""``robust-boosting plot <figure> --out FILE``: the papers' figures from the command line.

:func:`add_parser` adds the ``plot`` command to the ``robust-boosting`` parser
(``cli.build_parser`` calls it). Each figure is a sub-command whose handler
loads or generates the data, fits the models, calls the matching function of
:mod:`robust_boosting.plotting.diagnostics` and saves the figure; it returns
the exit code. ``scripts/make_figures.py`` runs these same command lines to
regenerate ``docs/figures/``.
"""

from __future__ import annotations

import argparse
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["add_parser", "FIGURES"]


# --------------------------------------------------------------------------
# argument types
# --------------------------------------------------------------------------
def _float_list(text: str) -> list[float]:
    """``"1,2,3"`` or an inclusive range ``"start:stop:step"`` -> list of floats."""
    text = text.strip()
    try:
        if ":" in text:
            start, stop, step = (float(p) for p in text.split(":"))
            if step <= 0:
                raise ValueError
            k = int(np.floor((stop - start) / step + 1e-9))
            return [round(start + i * step, 10) for i in range(k + 1)]
        return [float(p) for p in text.split(",") if p.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected comma-separated numbers or start:stop:step, got {text!r}"
        ) from None


def _int_list(text: str) -> list[int]:
    try:
        return [int(p) for p in text.split(",") if p.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected comma-separated integers, got {text!r}"
        ) from None


def _str_list(text: str) -> list[str]:
    return [p.strip() for p in text.split(",") if p.strip()]


# --------------------------------------------------------------------------
# data and models
# --------------------------------------------------------------------------
def _load_xy(name: str, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """:func:`~robust_boosting.datasets.load_xy`, binary data only."""
    from ..datasets import load_xy

    X, y = load_xy(name, random_state=seed)
    if np.unique(y).size != 2:
        raise ValueError(f"data set {name!r} is not binary; use one of the papers' tasks")
    return X, y


def _noisy_split(args: argparse.Namespace):
    """Load ``args.dataset``, subsample, split 70/30 (stratified) and flip training labels."""
    from sklearn.model_selection import train_test_split

    from ..noise import flip_labels

    X, y = _load_xy(args.dataset, args.seed)
    if args.max_samples and len(y) > args.max_samples:
        X, _, y, _ = train_test_split(X, y, train_size=args.max_samples, stratify=y,
                                      random_state=args.seed)
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=args.test_size, stratify=y, random_state=args.seed
    )
    y_noisy, flipped = flip_labels(y_train, args.noise, random_state=args.seed)
    print(f"{args.dataset}: {len(y_train)} training samples ({int(flipped.sum())} labels "
          f"flipped), {len(y_test)} clean test samples")
    return X_train, y_noisy, X_test, y_test


def _fit(model: Any, X, y) -> Any:
    from .._boosting import BoostingStoppedWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", BoostingStoppedWarning)
        return model.fit(X, y)


def _spl(args: argparse.Namespace, age: float):
    from ..splboost import SPLBoostClassifier

    # the paper's figures: its fixed age (no growth when the kept samples become separable)
    return SPLBoostClassifier(n_estimators=args.rounds, age=age, regularizer=args.regularizer,
                              age_growth=None, random_state=args.seed)


def _comparison_models(rounds: int, seed: int) -> dict[str, Any]:
    """AdaBoost and whichever of the SPLBoost paper's other algorithms the library has."""
    import importlib

    from ..adaboost import AdaBoostClassifier

    models: dict[str, Any] = {"AdaBoost": AdaBoostClassifier(n_estimators=rounds,
                                                             random_state=seed)}
    wanted = [
        ("LogitBoost", "classical", "LogitBoostClassifier"),
        ("SavageBoost", "robust", "SavageBoostClassifier"),
        ("RBoost", "robust", "RBoostClassifier"),
        ("RobustBoost", "robust", "RobustBoostClassifier"),
    ]
    for label, module, cls_name in wanted:
        try:
            cls = getattr(importlib.import_module(f"robust_boosting.{module}"), cls_name)
        except (ImportError, AttributeError):
            print(f"note: {label} ({module}.{cls_name}) is not available; skipped")
            continue
        model = cls(n_estimators=rounds)
        if "random_state" in model.get_params():
            model.set_params(random_state=seed)
        models[label] = model
    return models


def _save(fig, args: argparse.Namespace) -> int:
    out = Path(args.out)
    if out.parent and not out.parent.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=args.dpi)
    print(f"wrote {out}")
    return 0


# --------------------------------------------------------------------------
# handlers
# --------------------------------------------------------------------------
def _cmd_weights(args: argparse.Namespace) -> int:
    from .diagnostics import plot_weight_curves

    m = np.linspace(args.margin_min, args.margin_max, 801)
    return _save(plot_weight_curves(m, ages=args.ages, regularizer=args.regularizer,
                                    panel_b_age=args.panel_b_age), args)


def _cmd_losses(args: argparse.Namespace) -> int:
    from .diagnostics import plot_loss_curves

    m = np.linspace(args.margin_min, args.margin_max, 801)
    return _save(plot_loss_curves(m, ages=args.ages, regularizer=args.regularizer,
                                  panel_b_age=args.panel_b_age), args)


def _cmd_synthetic(args: argparse.Namespace) -> int:
    from ..datasets import make_splboost_gaussian, splboost_gaussian_log_odds
    from ..noise import flip_labels_per_class
    from .diagnostics import plot_synthetic_weights

    X, y = make_splboost_gaussian(args.n_per_class, random_state=args.seed)
    y_noisy, flipped = flip_labels_per_class(y, args.noise, random_state=args.seed)
    models = _comparison_models(args.rounds, args.seed)
    for age in args.ages:
        models[f"SPLBoost ({args.regularizer}) λ={age:g}"] = _spl(args, age)
    for model in models.values():
        _fit(model, X, y_noisy)
    fig = plot_synthetic_weights(models, X, y_noisy, flipped,
                                 log_odds=splboost_gaussian_log_odds)
    return _save(fig, args)


def _cmd_error_per_round(args: argparse.Namespace) -> int:
    from ..adaboost import AdaBoostClassifier
    from .diagnostics import plot_error_per_round

    X_train, y_train, X_test, y_test = _noisy_split(args)
    models = {"AdaBoost": AdaBoostClassifier(n_estimators=args.rounds, random_state=args.seed)}
    for age in args.ages:
        models[f"SPLBoost λ={age:g}"] = _spl(args, age)
    for model in models.values():
        _fit(model, X_train, y_train)
    return _save(plot_error_per_round(models, X_train, y_train, X_test, y_test), args)


def _cmd_latent_objective(args: argparse.Namespace) -> int:
    from .diagnostics import plot_latent_objective

    X_train, y_train, _, _ = _noisy_split(args)
    models = {f"SPLBoost λ={age:g}": _fit(_spl(args, age), X_train, y_train)
              for age in args.ages}
    return _save(plot_latent_objective(models, logy=args.logy), args)


def _cmd_error_vs_age(args: argparse.Namespace) -> int:
    from ..adaboost import AdaBoostClassifier
    from .diagnostics import error_vs_age, plot_error_vs_age

    X_train, y_train, X_test, y_test = _noisy_split(args)
    table = error_vs_age(_spl(args, 1.0), X_train, y_train, X_test, y_test, args.ages,
                         n_jobs=args.n_jobs)
    ada = _fit(AdaBoostClassifier(n_estimators=args.rounds, random_state=args.seed),
               X_train, y_train)
    reference = {"AdaBoost": float(np.mean(ada.predict(X_test) != y_test))}
    if args.table:
        table.to_csv(args.table, index=False)
        print(f"wrote {args.table}")
    return _save(plot_error_vs_age(table, reference=reference), args)


def _rilboost_estimator(args: argparse.Namespace) -> Any:
    from .diagnostics import _default_rilboost

    est = _default_rilboost(args.rounds)
    params = est.get_params()
    for name in ("C", "gamma"):
        value = getattr(args, name)
        if value is None:
            continue
        if name not in params:
            raise ValueError(f"{type(est).__name__} has no parameter {name!r}")
        est.set_params(**{name: value})
    return est


def _rilboost_table(args: argparse.Namespace, study: Callable, **kwargs: Any):
    import pandas as pd

    estimator = _rilboost_estimator(args)
    parts = []
    for name in args.dataset:
        X, y = _load_xy(name, args.seed)
        df = study(X, y, epsilons=args.epsilons, n_train=args.n_train, n_draws=args.draws,
                   estimator=estimator, random_state=args.seed, n_jobs=args.n_jobs, **kwargs)
        df.insert(0, "dataset", name)
        parts.append(df)
        print(f"{name}: {len(df)} fits")
    table = pd.concat(parts, ignore_index=True)
    if args.table:
        table.to_csv(args.table, index=False)
        print(f"wrote {args.table}")
    return table


def _cmd_rilboost_epsilon(args: argparse.Namespace) -> int:
    from .diagnostics import plot_accuracy_vs_epsilon, rilboost_epsilon_study

    table = _rilboost_table(args, rilboost_epsilon_study, variants=args.variants)
    return _save(plot_accuracy_vs_epsilon(table), args)


def _cmd_rilboost_mixing(args: argparse.Namespace) -> int:
    from .diagnostics import plot_accuracy_vs_mixing, rilboost_mixing_study

    table = _rilboost_table(args, rilboost_mixing_study, mixings=args.mixings)
    return _save(plot_accuracy_vs_mixing(table, x=args.x), args)


# --------------------------------------------------------------------------
# parser
# --------------------------------------------------------------------------
def _common(p: argparse.ArgumentParser, figure: str) -> None:
    p.add_argument("--out", default=f"{figure}.png",
                   help=f"output image; the format follows the suffix (default: {figure}.png)")
    p.add_argument("--dpi", type=int, default=120, help="resolution (default: 120)")


def _fitting(p: argparse.ArgumentParser, *, rounds: int, seed: bool = True) -> None:
    p.add_argument("--rounds", type=int, default=rounds,
                   help=f"boosting rounds T (default: {rounds})")
    if seed:
        p.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")


def _noisy_data(p: argparse.ArgumentParser) -> None:
    p.add_argument("--dataset", default="splboost-twonorm",
                   help="task, bundled binary data set or 'splboost-gaussian' "
                        "(default: splboost-twonorm)")
    p.add_argument("--max-samples", type=int, default=3000,
                   help="stratified subsample of the data set first; 0 keeps all (default: 3000)")
    p.add_argument("--test-size", type=float, default=0.3, help="test fraction (default: 0.3)")
    p.add_argument("--noise", type=float, default=0.2,
                   help="fraction of training labels flipped (default: 0.2)")
    p.add_argument("--regularizer", default="hard",
                   help="SPLBoost SP-regularizer (default: hard)")


def _curves(p: argparse.ArgumentParser) -> None:
    p.add_argument("--ages", type=_float_list, default=[2.0, 3.0, 4.0, 5.0, 6.0],
                   help="SPLBoost ages of panel (a) (default: 2,3,4,5,6)")
    p.add_argument("--regularizer", default="linear",
                   help="SP-regularizer of panel (a) (default: linear)")
    p.add_argument("--panel-b-age", type=float, default=3.0,
                   help="age of panel (b) (default: 3)")
    p.add_argument("--margin-min", type=float, default=-2.0,
                   help="left end of the margin axis (default: -2)")
    p.add_argument("--margin-max", type=float, default=2.0,
                   help="right end of the margin axis (default: 2)")


def _rilboost(p: argparse.ArgumentParser, *, dataset: str, n_train: str) -> None:
    p.add_argument("--dataset", type=_str_list, default=_str_list(dataset),
                   help=f"comma-separated tasks/data sets, one row of panels each "
                        f"(default: {dataset}); 'rilboost-gaussian' is its Fig. 13 set")
    p.add_argument("--n-train", type=_int_list, default=_int_list(n_train),
                   help=f"training-set sizes, n/2 per class (default: {n_train})")
    p.add_argument("--epsilons", type=_float_list, default=_float_list("0:0.5:0.05"),
                   help="epsilon grid (default: 0:0.5:0.05)")
    p.add_argument("--draws", type=int, default=20,
                   help="random training sets per n (default: 20)")
    p.add_argument("--C", type=float, default=None, help="SVM C (default: the estimator's)")
    p.add_argument("--gamma", type=float, default=None,
                   help="RBF kernel parameter (default: the estimator's)")
    p.add_argument("--n-jobs", type=int, default=None, help="parallel draws (joblib; default: 1, "
                   "-1 = all cores)")
    p.add_argument("--table", default=None, help="also write the results table (CSV)")
    _fitting(p, rounds=10)


#: figure name -> (help, handler)
FIGURES: dict[str, tuple[str, Callable[[argparse.Namespace], int]]] = {
    "weights": ("sample weight against margin (SPLBoost Fig. 1)", _cmd_weights),
    "losses": ("losses and latent SPLBoost losses (SPLBoost Fig. 2)", _cmd_losses),
    "synthetic": ("final sample weights on the synthetic set (SPLBoost Fig. 3)",
                  _cmd_synthetic),
    "error-per-round": ("training and test error per round (SPLBoost Fig. 8)",
                        _cmd_error_per_round),
    "latent-objective": ("SPLBoost's latent objective per round (SPLBoost Fig. 9)",
                         _cmd_latent_objective),
    "error-vs-age": ("test error against the age (SPLBoost Fig. 10)", _cmd_error_vs_age),
    "rilboost-epsilon": ("RILBoost accuracy against epsilon (RILBoost Figs. 4-9, 11-13)",
                         _cmd_rilboost_epsilon),
    "rilboost-mixing": ("RILBoost accuracy for several mixing parameters a (RILBoost Fig. 10)",
                        _cmd_rilboost_mixing),
}


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``plot`` command (one sub-command per figure) to ``subparsers``.

    Each figure's parser sets ``func`` to a handler ``func(args) -> int``
    (the exit code) that writes the image to ``--out``.
    """
    plot = subparsers.add_parser(
        "plot",
        help="draw one of the papers' diagnostic figures",
        description="Draw one of the SPLBoost/RILBoost papers' diagnostic figures "
                    "(headless; the image format follows the --out suffix).",
    )
    figures = plot.add_subparsers(dest="figure", metavar="FIGURE")
    figures.required = True
    for name, (help_text, handler) in FIGURES.items():
        p = figures.add_parser(name, help=help_text, description=help_text)
        _common(p, name)
        if name in ("weights", "losses"):
            _curves(p)
        elif name == "synthetic":
            p.add_argument("--n-per-class", type=int, default=100,
                           help="samples per class (default: 100)")
            p.add_argument("--noise", type=float, default=0.15,
                           help="fraction of each class flipped (default: 0.15)")
            p.add_argument("--ages", type=_float_list, default=[1.5, 2.0, 2.5],
                           help="SPLBoost ages (default: 1.5,2,2.5)")
            p.add_argument("--regularizer", default="hard",
                           help="SPLBoost SP-regularizer (default: hard)")
            _fitting(p, rounds=200)
        elif name in ("error-per-round", "latent-objective"):
            _noisy_data(p)
            p.add_argument("--ages", type=_float_list, default=[1.5, 2.0, 3.0, 5.0],
                           help="SPLBoost ages (default: 1.5,2,3,5)")
            _fitting(p, rounds=300)
            if name == "latent-objective":
                p.add_argument("--logy", action="store_true", help="log-scaled y-axis")
        elif name == "error-vs-age":
            _noisy_data(p)
            p.add_argument("--ages", type=_float_list, default=_float_list("1:20:0.5"),
                           help="ages (default: 1:20:0.5)")
            p.add_argument("--n-jobs", type=int, default=None, help="parallel fits (joblib; "
                           "default: 1, -1 = all cores)")
            p.add_argument("--table", default=None, help="also write the results table (CSV)")
            _fitting(p, rounds=300)
        elif name == "rilboost-epsilon":
            _rilboost(p, dataset="rilboost-haberman", n_train="20,40")
            p.add_argument("--variants", type=_str_list, default=["I", "II"],
                           help="RILBoost variants (default: I,II)")
        elif name == "rilboost-mixing":
            _rilboost(p, dataset="rilboost-ionosphere", n_train="20")
            p.add_argument("--mixings", type=_float_list, default=[0.0, 0.25, 0.5, 0.75, 1.0],
                           help="mixing parameters a (default: 0,0.25,0.5,0.75,1)")
            p.add_argument("--x", choices=["epsilon", "mixing"], default="epsilon",
                           help="x-axis: epsilon (one curve per a) or a (one curve per "
                           "epsilon) (default: epsilon)")
        p.set_defaults(func=handler)
