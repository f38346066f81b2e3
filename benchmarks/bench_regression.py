"""Regression benchmark: ``SPLBoostRegressorCV()`` against its peers on corrupted targets.

Data: scikit-learn's diabetes and the three Friedman generators (``--rows`` training rows
with the generator's noise, 2,000 clean test rows without it), and two bundled tables
whose UCI documentation names a continuous column as the target: ``bupa``'s ``x6``
(drinks per day; the UCI page warns that its class column is a train/test selector, not a
diagnosis, and names drinks as the dependent variable) and ``wine``'s ``x1`` (alcohol),
each from the other feature columns. Diabetes and the bundled tables are split 70/30 and
scored on their own test targets, which are not corrupted but are measured values.

A fraction of the *training* targets (``--rates``) is corrupted by each kind of
:func:`robust_boosting.noise.corrupt_targets` (``--kinds``: replaced by a uniform draw
from the target's range, shifted by 3-6 standard deviations, multiplied by 10 or 1,000).

Models (``--models``): ``SPLBoostRegressorCV()``; LightGBM with its ``l2`` and ``huber``
objectives (defaults otherwise); scikit-learn's ``HistGradientBoostingRegressor`` with the
squared and the absolute error; scikit-learn's ``HuberRegressor`` (standardised
features, ``max_iter=1000``); cleanlab's regression ``CleanLearning`` around
``LGBMRegressor()``. Every model gets ``--threads`` threads and the same seed.

Reported per cell (data, rate, kind, seed) and model, one JSON line each
(``--out``), then a Markdown table of the means: RMSE and MAE on the test targets, for
the two models that flag suspects the F1 of their suspect list and the AUROC of their
scores against the corrupted rows, and the fit time. ``--cost N ...`` instead fits
``SPLBoostRegressorCV()`` and cleanlab + LightGBM on Friedman #1 with ``N`` rows (20 %
shifted targets), each in its own freshly spawned process, alternating, and prints the
fit time and the peak resident memory above the process's baseline (``VmHWM``), with
their ratios to cleanlab's.

Usage::

    python benchmarks/bench_regression.py --quick                  # one seed, 3 data sets
    python benchmarks/bench_regression.py --seeds 0 1 2            # the full grid
    python benchmarks/bench_regression.py --cost 10000 100000      # time and memory
    python benchmarks/bench_regression.py --tables a.jsonl b.jsonl  # tables of earlier runs

The peers need the ``bench`` extra (lightgbm, cleanlab).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import sys
import time
import warnings

import numpy as np
from sklearn.datasets import load_diabetes, make_friedman1, make_friedman2, make_friedman3
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split

from robust_boosting import SPLBoostRegressorCV
from robust_boosting.datasets import load_dataset
from robust_boosting.noise import TARGET_NOISE_KINDS, corrupt_targets

sys.path.insert(0, os.path.dirname(__file__))
from bench_scale import rss_kb, run_in_child  # noqa: E402

FRIEDMAN = {"friedman1": (make_friedman1, 1.0), "friedman2": (make_friedman2, 60.0),
            "friedman3": (make_friedman3, 0.1)}
#: bundled table -> its target column (the UCI documentation's dependent variable)
BUNDLED = {"bupa": "x6", "wine": "x1"}
DATASETS = [*FRIEDMAN, "diabetes", *BUNDLED]


def make_data(name: str, rows: int, seed: int):
    """``X, y, X_test, y_test`` of data set ``name``."""
    if name in FRIEDMAN:
        make, noise = FRIEDMAN[name]
        X, y = make(n_samples=rows, noise=noise, random_state=seed)
        Xt, yt = make(n_samples=2000, noise=0.0, random_state=seed + 1000)
        return X, y, Xt, yt
    if name == "diabetes":
        X, y = load_diabetes(return_X_y=True)
    else:
        data = load_dataset(name)
        names = list(data.feature_names)
        j = names.index(BUNDLED[name])
        y = np.asarray(data.data[:, j], dtype=np.float64)
        X = np.delete(np.asarray(data.data, dtype=np.float64), j, axis=1)
    X, Xt, y, yt = train_test_split(X, y, test_size=0.3, random_state=seed)
    return X, y, Xt, yt


# ---------------------------------------------------------------------------
# models: name -> (label, factory(seed, threads), suspect scores, suspect rows)
# ---------------------------------------------------------------------------
def _ours(seed, threads):
    return SPLBoostRegressorCV(random_state=seed, n_jobs=threads)


def _lgbm(objective):
    def make(seed, threads):
        from lightgbm import LGBMRegressor
        return LGBMRegressor(objective=objective, n_jobs=threads, verbose=-1,
                             random_state=seed)
    return make


def _hgb(loss):
    def make(seed, threads):
        from sklearn.ensemble import HistGradientBoostingRegressor
        return HistGradientBoostingRegressor(loss=loss, random_state=seed)
    return make


def _huber(seed, threads):
    from sklearn.linear_model import HuberRegressor
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    return make_pipeline(StandardScaler(), HuberRegressor(max_iter=1000))


def _cleanlab(seed, threads):
    from cleanlab.regression.learn import CleanLearning
    return CleanLearning(model=_lgbm("l2")(seed, threads), seed=seed, verbose=False)


def _ours_flags(est):
    return est.label_issue_scores_, np.asarray(est.label_issues_)


def _cleanlab_flags(est):
    issues = est.get_label_issues()
    return (1.0 - issues["label_quality"].to_numpy(),
            np.flatnonzero(issues["is_label_issue"].to_numpy()))


MODELS = {
    "ours": ("SPLBoostRegressorCV()", _ours, _ours_flags),
    "lgbm": ("LightGBM l2", _lgbm("l2"), None),
    "lgbm-huber": ("LightGBM huber", _lgbm("huber"), None),
    "hgb": ("HGB squared_error", _hgb("squared_error"), None),
    "hgb-abs": ("HGB absolute_error", _hgb("absolute_error"), None),
    "huber": ("HuberRegressor", _huber, None),
    "cleanlab": ("cleanlab+LightGBM", _cleanlab, _cleanlab_flags),
}


def f1(found, truth) -> float:
    tp = int(truth[found].sum())
    return 0.0 if tp == 0 else 2.0 * tp / (found.size + int(truth.sum()))


def cell(name, rows, rate, kind, seed, models, threads):
    X, y, Xt, yt = make_data(name, rows, seed)
    wrong = np.zeros(y.shape[0], dtype=bool)
    if rate > 0:
        y_fit, wrong = corrupt_targets(y, rate, kind=kind, random_state=seed)
    else:
        y_fit = y
    out = []
    for key in models:
        label, make, flags = MODELS[key]
        est = make(seed, threads)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t0 = time.perf_counter()
            est.fit(X, y_fit)
            seconds = time.perf_counter() - t0
        err = np.asarray(est.predict(Xt), dtype=np.float64) - yt
        row = dict(data=name, rows=int(y.shape[0]), rate=rate, kind=kind if rate else "clean",
                   seed=seed, model=key, rmse=float(np.sqrt(np.mean(err ** 2))),
                   mae=float(np.mean(np.abs(err))), time=seconds)
        if flags is not None and wrong.any():
            scores, found = flags(est)
            row["auroc"] = float(roc_auc_score(wrong, scores))
            row["f1"] = f1(found, wrong)
        out.append(row)
    return out


def table(rows, models) -> str:
    """Markdown: per (rate, kind) the mean over data sets and seeds of each model's RMSE
    relative to the best peer's in its cell, with the raw mean RMSE/MAE of data set means."""
    lines = ["| rate | kind | model | RMSE / best peer (mean) | max | MAE / best peer (mean) "
             "| AUROC | F1 | fit s |", "|---|---|---|---|---|---|---|---|---|"]
    cells: dict = {}
    for r in rows:
        cells.setdefault((r["rate"], r["kind"], r["data"], r["seed"]), {})[r["model"]] = r
    for rate, kind in sorted({k[:2] for k in cells}):
        group = [c for k, c in cells.items() if k[:2] == (rate, kind)]
        for key in models:
            ratios, mae_ratios, au, f, t = [], [], [], [], []
            for c in group:
                if key not in c:
                    continue
                peers = [c[m] for m in c if m != key]
                if peers:
                    ratios.append(c[key]["rmse"] / min(p["rmse"] for p in peers))
                    mae_ratios.append(c[key]["mae"] / min(p["mae"] for p in peers))
                au += [c[key]["auroc"]] if "auroc" in c[key] else []
                f += [c[key]["f1"]] if "f1" in c[key] else []
                t.append(c[key]["time"])
            if not t:
                continue
            fmt = lambda v: f"{np.mean(v):.3f}" if v else ""  # noqa: E731
            lines.append(f"| {rate:.0%} | {kind} | {MODELS[key][0]} | {fmt(ratios)} | "
                         f"{max(ratios) if ratios else float('nan'):.3f} | {fmt(mae_ratios)} | "
                         f"{fmt(au)} | {fmt(f)} | {np.mean(t):.2f} |")
    return "\n".join(lines)


def summary(rows) -> str:
    """Markdown: per rate, the issue's criteria. RMSE: the mean over cells (data set x kind
    x seed) of ``SPLBoostRegressorCV()``'s RMSE over the best peer's in that cell, with its
    standard error and the cells where it is at most 1. Detection: the mean AUROC of its
    scores and of cleanlab's over the same cells, and the cells where its is at least
    cleanlab's. Then the RMSE ratio per data set (mean over kinds and seeds)."""
    cells: dict = {}
    for r in rows:
        cells.setdefault((r["rate"], r["kind"], r["data"], r["seed"]), {})[r["model"]] = r
    lines = ["| rate | cells | RMSE / best peer (mean ± se) | cells <= 1 | worst | AUROC ours "
             "| AUROC cleanlab | cells ours >= cleanlab |", "|---|---|---|---|---|---|---|---|"]
    per_data: dict = {}
    for rate in sorted({k[0] for k in cells}):
        ratios, au, auc, worst = [], [], [], ("", 0.0)
        for key, c in cells.items():
            if key[0] != rate or "ours" not in c or len(c) < 2:
                continue
            ratio = c["ours"]["rmse"] / min(v["rmse"] for m, v in c.items() if m != "ours")
            ratios.append(ratio)
            per_data.setdefault((rate, key[2]), []).append(ratio)
            if ratio > worst[1]:
                worst = (f"{key[2]} {key[1]}", ratio)
            if "auroc" in c["ours"] and "cleanlab" in c and "auroc" in c["cleanlab"]:
                au.append(c["ours"]["auroc"])
                auc.append(c["cleanlab"]["auroc"])
        if not ratios:
            continue
        r = np.asarray(ratios)
        se = r.std(ddof=1) / np.sqrt(r.size) if r.size > 1 else float("nan")
        a, b = np.asarray(au), np.asarray(auc)
        detect = (f"{a.mean():.3f} | {b.mean():.3f} | {int((a >= b).sum())} of {a.size}"
                  if a.size else " | | ")
        lines.append(f"| {rate:.0%} | {r.size} | {r.mean():.3f} ± {se:.3f} | "
                     f"{int((r <= 1).sum())} | {worst[0]} {worst[1]:.3f} | {detect} |")
    names = sorted({k[1] for k in per_data})
    lines += ["", "| rate | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
    for rate in sorted({k[0] for k in per_data}):
        lines.append(f"| {rate:.0%} | " + " | ".join(
            f"{np.mean(per_data[(rate, n)]):.3f}" if (rate, n) in per_data else ""
            for n in names) + " |")
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# cost: one fit per freshly spawned process
# ---------------------------------------------------------------------------
def _child(key, rows, seed, threads, queue):
    mp.set_start_method("fork", force=True)  # cleanlab's pools as a user's process has them
    try:
        X, y, _, _ = make_data("friedman1", rows, seed)
        y, _ = corrupt_targets(y, 0.2, kind="shift", random_state=seed)
        est = MODELS[key][1](seed, threads)
        base = rss_kb("VmRSS:")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t0 = time.perf_counter()
            est.fit(X, y)
            seconds = time.perf_counter() - t0
        queue.put(dict(time=seconds, peak_mb=(rss_kb("VmHWM:") - base) / 1024.0))
    except Exception as exc:  # reported, the run goes on
        queue.put(dict(failed=f"{type(exc).__name__}: {exc}"))


def fit_in_child(key, rows, seed, threads, timeout):
    return run_in_child(_child, (key, rows, seed, threads), timeout)


def cost(sizes, repeats, threads, timeout):
    print("| rows | pair | ours s | cleanlab s | time ratio | ours MB | cleanlab MB | "
          "memory ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for n in sizes:
        for rep in range(repeats):
            order = ("ours", "cleanlab") if rep % 2 == 0 else ("cleanlab", "ours")
            r = {key: fit_in_child(key, n, 0, threads, timeout) for key in order}
            if any("failed" in v for v in r.values()):
                print(f"| {n} | {rep} | {r} |", flush=True)
                continue
            o, c = r["ours"], r["cleanlab"]
            print(f"| {n} | {rep} | {o['time']:.1f} | {c['time']:.1f} | "
                  f"{o['time'] / c['time']:.2f} | {o['peak_mb']:.0f} | {c['peak_mb']:.0f} | "
                  f"{o['peak_mb'] / c['peak_mb']:.2f} |", flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true",
                    help="friedman1, diabetes and bupa, one seed, 20 %% of each kind")
    ap.add_argument("--datasets", nargs="+", default=DATASETS, choices=DATASETS)
    ap.add_argument("--rows", type=int, default=2000, help="Friedman training rows")
    ap.add_argument("--rates", type=float, nargs="+", default=[0.0, 0.1, 0.2, 0.35])
    ap.add_argument("--kinds", nargs="+", default=list(TARGET_NOISE_KINDS),
                    choices=list(TARGET_NOISE_KINDS))
    ap.add_argument("--models", nargs="+", default=list(MODELS), choices=list(MODELS))
    ap.add_argument("--seeds", type=int, nargs="+", default=[0])
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--out", help="JSON lines file of every (cell, model)")
    ap.add_argument("--cost", type=int, nargs="+", metavar="N",
                    help="row counts: fit time and peak memory against cleanlab only")
    ap.add_argument("--repeats", type=int, default=2, help="alternating pairs per --cost size")
    ap.add_argument("--timeout", type=float, default=7200.0)
    ap.add_argument("--tables", nargs="+", metavar="JSONL",
                    help="print the tables of earlier --out files (their last row of each "
                    "cell and model), fitting nothing")
    args = ap.parse_args(argv)
    if args.tables:
        last = {}
        for path in args.tables:
            with open(path) as f:
                for line in f:
                    r = json.loads(line)
                    last[(r["data"], r["rate"], r["kind"], r["seed"], r["model"])] = r
        rows = list(last.values())
        models = [m for m in MODELS if any(r["model"] == m for r in rows)]
        print(table(rows, models) + "\n\n" + summary(rows))
        return
    if args.cost:
        cost(args.cost, args.repeats, args.threads, args.timeout)
        return
    datasets, rates = args.datasets, args.rates
    if args.quick:
        datasets, rates, args.seeds = ["friedman1", "diabetes", "bupa"], [0.0, 0.2], [0]
    rows = []
    out = open(args.out, "a") if args.out else None
    try:
        for name in datasets:
            for seed in args.seeds:
                for rate in rates:
                    for kind in (args.kinds if rate > 0 else args.kinds[:1]):
                        for row in cell(name, args.rows, rate, kind, seed, args.models,
                                        args.threads):
                            rows.append(row)
                            if out is not None:
                                out.write(json.dumps(row) + "\n")
                                out.flush()
    finally:
        if out is not None:
            out.close()
    print(table(rows, args.models) + "\n\n" + summary(rows))


if __name__ == "__main__":
    main()
