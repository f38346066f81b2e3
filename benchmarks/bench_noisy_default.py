"""Noisy-label benchmark: candidate robust boosters against the models a user would pick instead.

On bundled data sets, a fraction of the *training* labels is flipped (symmetric
noise, :func:`robust_boosting.noise.flip_labels`, or class-conditional noise,
:func:`robust_boosting.noise.flip_labels_class_conditional`); every model is fit
on the noisy labels and scored on the *clean* test labels. Reported per model:

* test error (%) and mean rank (1 = best) per noise rate, ranks taken within
  each (data set, noise kind, rate, split) task over the models that ran;
* median fit time, and the geometric mean of fit time / fit time of the
  cleanlab pipeline ``CleanLearning(LGBMClassifier())`` of the same task in the
  same run (``--rows`` files carry a ``run`` column, the run's start time, so that
  ``--table-from`` can merge several runs and still pair each row with its own
  run's cleanlab fit);
* precision / recall / F1 of the model's suspect set against the truly flipped
  samples: ``excluded_samples_`` for self-paced candidates, the issues found by
  ``cleanlab.filter.find_label_issues`` on 5-fold out-of-fold probabilities for
  the cleanlab pipeline (this is what ``CleanLearning.fit`` computes);
* for the first candidate, its error and rank minus those of the best other model
  of each rate, paired by task, averaged per data set, with their standard error
  over the data sets and whether the difference is more than 2 standard errors
  from 0 (:func:`paired_differences`).

Every model runs single-threaded (``n_jobs=1`` / ``thread_count=1`` and one
BLAS/OpenMP/kernel thread) so that the timings are comparable on a shared machine.

Usage::

    python benchmarks/bench_noisy_default.py --quick          # ~2 minutes
    python benchmarks/bench_noisy_default.py                  # full run
    python benchmarks/bench_noisy_default.py --candidates spl_default spl_grid \\
        --peers lgbm cleanlab --datasets pima german --rates 0 0.2 0.35 --kinds sym

The peers need the ``bench`` extra (lightgbm, xgboost, catboost, cleanlab).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from robust_boosting.datasets import load_dataset
from robust_boosting.noise import (
    flip_labels,
    flip_labels_class_conditional,
    flip_labels_hardest,
    flip_labels_pmd,
    reference_proba,
)

BINARY_QUICK = ["pima", "wdbc"]
MULTICLASS_QUICK = ["wine"]
BINARY_FULL = ["bupa", "german", "heart", "ionosphere", "mammographic", "pima",
               "tic-tac-toe", "titanic", "wdbc", "wisconsin", "yeast"]
MULTICLASS_FULL = ["wine"]


# ---------------------------------------------------------------------------
# models
# ---------------------------------------------------------------------------
@dataclass
class Model:
    """A named model factory; ``suspects(fitted, n)`` returns suspect indices or None."""

    name: str
    make: Callable[[int], object]
    suspects: Callable[[object, int], np.ndarray | None] = field(
        default=lambda est, n: None)


def _lgbm(seed):
    from lightgbm import LGBMClassifier
    return LGBMClassifier(n_jobs=1, num_threads=1, verbose=-1, random_state=seed)


def _cleanlab(seed):
    from cleanlab.classification import CleanLearning
    return CleanLearning(_lgbm(seed), seed=seed, verbose=False)


def _cleanlab_suspects(est, n):
    issues = est.get_label_issues()
    return np.flatnonzero(np.asarray(issues["is_label_issue"]))


def _xgb(seed):
    from xgboost import XGBClassifier
    return XGBClassifier(n_jobs=1, random_state=seed)


def _catboost(seed):
    from catboost import CatBoostClassifier
    return CatBoostClassifier(verbose=0, thread_count=1, random_seed=seed,
                              allow_writing_files=False)


def _rf(seed):
    from sklearn.ensemble import RandomForestClassifier
    return RandomForestClassifier(300, n_jobs=1, random_state=seed)


def _hgb(seed):
    from sklearn.ensemble import HistGradientBoostingClassifier
    return HistGradientBoostingClassifier(random_state=seed)


PEERS = {
    "lgbm": Model("LightGBM", _lgbm),
    "xgb": Model("XGBoost", _xgb),
    "catboost": Model("CatBoost", _catboost),
    "rf": Model("RandomForest(300)", _rf),
    "hgb": Model("HistGradientBoosting", _hgb),
    "cleanlab": Model("cleanlab+LightGBM", _cleanlab, _cleanlab_suspects),
}


def _excluded(est, n):
    """``excluded_samples_`` of a self-paced estimator, or of a search's refit best estimator."""
    if not hasattr(est, "label_issue_scores_"):  # SPLBoostClassifierCV has its own
        est = getattr(est, "best_estimator_", est)
    exc = est.excluded_samples_
    if isinstance(exc, list):  # one-vs-rest: a sample is suspect if excluded by its own class
        return np.unique(np.concatenate(exc)) if exc else np.array([], int)
    return np.asarray(exc)


def _label_issues(est, n):
    """``label_issues_`` of an ``SPLBoostClassifierCV``: its suspect list, whether or not
    its final fit left them out (``remove_label_issues_``; with the removal and no drop
    fraction, the same rows as ``excluded_samples_``)."""
    return np.asarray(est.label_issues_)


def _spl(kind: str, depth: int, **params):
    """A self-paced booster of histogram trees: ``kind`` in {"discrete", "logit", "gentle"}."""
    from robust_boosting import (
        SPLBoostClassifier,
        SPLGentleBoostClassifier,
        SPLLogitBoostClassifier,
    )
    from robust_boosting.trees import HistTreeClassifier, HistTreeRegressor
    if kind == "discrete":
        return SPLBoostClassifier(HistTreeClassifier(max_depth=depth), **params)
    cls = SPLLogitBoostClassifier if kind == "logit" else SPLGentleBoostClassifier
    return cls(HistTreeRegressor(max_depth=depth), **params)


def _grid(kind: str, grid: dict, cv: int = 3, **params):
    """Stand-in for the future CV estimator: a 3-fold grid search over ``grid``."""
    def make(seed):
        from sklearn.model_selection import GridSearchCV, StratifiedKFold
        base = _spl(kind, 1, random_state=seed, **params)
        g = {("estimator__max_depth" if k == "depth" else k): v for k, v in grid.items()}
        return GridSearchCV(base, g, cv=StratifiedKFold(cv, shuffle=True, random_state=seed),
                            n_jobs=1, error_score="raise")
    return make


def quantile_weight(age, loss):
    """Self-paced weight with the age read as a fraction: drop the ``age`` largest losses.

    A stand-in for an age expressed as a quantile of the current losses; ``age >= 1``
    (the warm-start rounds) keeps every sample.
    """
    loss = np.asarray(loss, float)
    if age >= 1 or loss.size < 2:
        return np.ones_like(loss)
    return (loss <= np.quantile(loss, 1 - age)).astype(float)


QUANTILES = [0.05, 0.1, 0.2, 0.3]
AGES_EXP = [1.5, 2.0, 3.0, 6.0, 20.0]     # exponential loss exp(-yF): margin cut -log(age)
AGES_LOGIT = [0.7, 1.0, 1.5, 2.5, 5.0]    # logistic loss scale

def _splcv(**params):
    """``SPLBoostClassifierCV`` with its defaults, or with ``params`` changed (design runs)."""
    def make(seed):
        from robust_boosting import SPLBoostClassifierCV
        return SPLBoostClassifierCV(random_state=seed, **params)
    return make


CANDIDATES = {
    # the library's robust default
    "splcv": Model("SPLBoostClassifierCV()", _splcv(), _label_issues),
    # the library's defaults (stumps, age 2)
    "spl_default": Model("SPLBoost default (stumps, age 2)", lambda s: _spl("discrete", 1, random_state=s),
                         _excluded),
    # issue #15's tuned reference: age x {stump, depth-3}
    "spl_grid": Model("SPLBoost grid age x depth{1,3}",
                      _grid("discrete", {"age": AGES_EXP, "depth": [1, 3]}), _excluded),
    "spl_d3": Model("SPLBoost depth3 age3",
                    lambda s: _spl("discrete", 3, age=3.0, random_state=s), _excluded),
    "spl_d3_lr": Model("SPLBoost depth3 lr0.3 T200 age3",
                       lambda s: _spl("discrete", 3, age=3.0, learning_rate=0.3,
                                      n_estimators=200, random_state=s), _excluded),
    "logit_d4": Model("SPLLogit depth4 lr0.1 T200 age1.5",
                      lambda s: _spl("logit", 4, age=1.5, learning_rate=0.1, n_estimators=200,
                                     random_state=s), _excluded),
    "logit_grid": Model("SPLLogit grid age x depth{2,4} lr0.1 T200",
                        _grid("logit", {"age": AGES_LOGIT, "depth": [2, 4]},
                              learning_rate=0.1, n_estimators=200), _excluded),
    "gentle_d3": Model("SPLGentle depth3 lr0.3 T200 age3",
                       lambda s: _spl("gentle", 3, age=3.0, learning_rate=0.3,
                                      n_estimators=200, random_state=s), _excluded),
    "gentle_grid": Model("SPLGentle grid age x depth{1,3} lr0.3 T200",
                         _grid("gentle", {"age": AGES_EXP, "depth": [1, 3]},
                               learning_rate=0.3, n_estimators=200), _excluded),
    # the age as a quantile of the current losses (quantile_weight)
    "spl_q20": Model("SPLBoost stumps, drop top 20 % losses",
                     lambda s: _spl("discrete", 1, age=0.2, regularizer=quantile_weight,
                                    random_state=s), _excluded),
    "spl_qgrid": Model("SPLBoost stumps, grid drop-fraction",
                       _grid("discrete", {"age": QUANTILES}, regularizer=quantile_weight),
                       _excluded),
    "logit_q20": Model("SPLLogit depth2 lr0.1 T200, drop top 20 %",
                       lambda s: _spl("logit", 2, age=0.2, regularizer=quantile_weight,
                                      learning_rate=0.1, n_estimators=200, random_state=s),
                       _excluded),
    "logit_qgrid": Model("SPLLogit depth2 lr0.1 T200, grid drop-fraction",
                         _grid("logit", {"age": QUANTILES, "depth": [2]},
                               regularizer=quantile_weight, learning_rate=0.1,
                               n_estimators=200), _excluded),
}


# ---------------------------------------------------------------------------
# noise
# ---------------------------------------------------------------------------
KINDS = ["sym", "cc", "hardest", "pmd"]


def add_noise(y, kind: str, rate: float, seed: int, X=None, proba=None):
    """Flip ``rate`` of the labels ``y`` (encoded 0..K-1); returns ``(y_noisy, flipped_mask)``.

    ``sym``: uniform flips (:func:`flip_labels`). ``cc``: class-conditional flips at the
    same overall expected rate; two classes: class 0 flips at ``1.5 rate`` and class 1
    at ``0.5 rate`` (capped at 0.9); more classes: pair flipping, class ``k`` goes to
    ``k + 1 mod K`` with probability ``rate``. The annotator-like kinds read a reference
    model's out-of-fold probabilities ``proba`` on the clean labels
    (:func:`~robust_boosting.noise.reference_proba` of ``X``): ``hardest``, the rows it
    finds most confusable get that class (:func:`flip_labels_hardest`); ``pmd``, PMD noise
    of type I (:func:`flip_labels_pmd`).
    """
    classes = np.unique(y)
    if rate == 0:
        return y.copy(), np.zeros(len(y), bool)
    if kind in ("hardest", "pmd"):
        if proba is None:
            proba = reference_proba(X, y, classes=classes, random_state=seed)
        flip = flip_labels_hardest if kind == "hardest" else flip_labels_pmd
        y_noisy, _ = flip(y, rate, proba=proba, classes=classes, random_state=seed)
    elif kind == "sym":
        y_noisy, flipped = flip_labels(y, rate, classes=classes, random_state=seed)
    elif kind == "cc":
        k = len(classes)
        if k == 2:
            r = np.minimum([1.5 * rate, 0.5 * rate], 0.9)
            T = np.array([[1 - r[0], r[0]], [r[1], 1 - r[1]]])
        else:
            T = (1 - rate) * np.eye(k) + rate * np.roll(np.eye(k), 1, axis=1)
        y_noisy, flipped = flip_labels_class_conditional(y, T, classes=classes,
                                                          random_state=seed)
    else:
        raise ValueError(f"unknown noise kind {kind!r}; use one of {KINDS}")
    return np.asarray(y_noisy), np.asarray(y_noisy) != y


def prf(suspects, flipped_mask):
    """Precision, recall, F1 of the suspect indices against the truly flipped samples."""
    s = np.zeros(len(flipped_mask), bool)
    s[suspects] = True
    tp = np.sum(s & flipped_mask)
    p = tp / s.sum() if s.sum() else 0.0
    r = tp / flipped_mask.sum() if flipped_mask.sum() else np.nan
    f = 2 * p * r / (p + r) if p + r > 0 else 0.0
    return p, r, f


# ---------------------------------------------------------------------------
# run
# ---------------------------------------------------------------------------
def _warm_up(models, dataset, seed):
    """Fit every model once on a small slice so that one-off start-up costs are not timed."""
    from sklearn.preprocessing import LabelEncoder
    X, y = load_dataset(dataset, return_X_y=True)
    idx = np.random.default_rng(seed).permutation(len(y))[:120]
    X, y = np.asarray(X, float)[idx], LabelEncoder().fit_transform(np.asarray(y)[idx])
    for m in models.values():
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                m.make(seed).fit(X, y)
        except Exception:  # reported by the timed run
            pass


def run(models: dict, datasets, rates, kinds, n_splits, test_size, seed, log=sys.stderr,
        oof_dir=None):
    """Fit every model on every task; returns a list of result rows (dicts)."""
    from sklearn.model_selection import train_test_split
    from sklearn.preprocessing import LabelEncoder
    rows = []
    _warm_up(models, datasets[0], seed)
    for ds in datasets:
        X, y = load_dataset(ds, return_X_y=True)
        X = np.asarray(X, float)
        y = LabelEncoder().fit_transform(y)
        for split in range(n_splits):
            Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=test_size, stratify=y,
                                                  random_state=seed + split)
            # the annotator-like kinds' reference model: once per split, on the clean labels
            ref = (reference_proba(Xtr, ytr, random_state=seed + split)
                   if {"hardest", "pmd"} & set(kinds) else None)
            for kind in kinds:
                for rate in rates:
                    if rate == 0 and kind != kinds[0]:
                        continue  # the clean task is the same for every kind
                    yn, flipped = add_noise(ytr, kind, rate, seed + 1000 * split + 7,
                                            proba=ref)
                    for key, m in models.items():
                        # the split is recorded as seed + split, so that runs with other
                        # seeds (--seed 100: splits 100, 101, ...) merge as new tasks
                        row = dict(dataset=ds, split=seed + split, kind=kind, rate=rate,
                                   model=key)
                        try:
                            est = m.make(seed + split)
                            t0 = time.perf_counter()
                            with warnings.catch_warnings():
                                warnings.simplefilter("ignore")
                                est.fit(Xtr, yn)
                                pred = est.predict(Xte)
                            row["time"] = time.perf_counter() - t0
                            row["error"] = 100 * np.mean(np.asarray(pred).ravel() != yte)
                            sus = m.suspects(est, len(yn))
                            if sus is not None and rate > 0:
                                row["p"], row["r"], row["f1"] = prf(sus, flipped)
                            best = getattr(est, "best_params_", None)
                            if best is not None:
                                row["best"] = best
                            if hasattr(est, "noise_rate_"):
                                row["noise_rate"] = est.noise_rate_
                                row["true_rate"] = float(np.mean(flipped))
                            if hasattr(est, "remove_label_issues_"):
                                row["removed"] = bool(est.remove_label_issues_)
                                row["anchor"] = est.anchor_noise_rate_
                                if oof_dir:
                                    np.savez_compressed(
                                        os.path.join(oof_dir, f"{ds}_{seed + split}_{kind}_"
                                                              f"{rate}_{key}.npz"),
                                        oof=est.oof_proba_, y=yn, flipped=flipped)
                            fitted = getattr(est, "best_estimator_", est)
                            if (hasattr(est, "excluded_samples_")
                                    or hasattr(fitted, "self_paced_weights_")):
                                row["excluded_frac"] = len(_excluded(est, 0)) / len(yn)
                        except Exception as exc:  # a failing candidate is reported, not fatal
                            row["failed"] = f"{type(exc).__name__}: {exc}"[:120]
                        rows.append(row)
                        print(row, file=log, flush=True)
    return rows


def _fmt(x, spec=".1f"):
    return "–" if x is None or not np.isfinite(x) else format(x, spec)


TASK = ["dataset", "split", "kind", "rate"]


def _succeeded(rows):
    """The rows (a list of dicts) that did not fail, as a DataFrame."""
    import pandas as pd
    df = pd.DataFrame(rows)
    return df[df.get("failed", pd.Series(np.nan, index=df.index)).isna()].copy()


def _ranked(ok):
    """One row per model and task (the first, when runs repeat a model), with the model's
    rank by error among the task's models (1 = best, ties averaged)."""
    ok = ok.drop_duplicates(["model", *TASK]).copy()
    ok["rank"] = ok.groupby(TASK)["error"].rank(method="average")
    return ok


def same_run_ratios(df):
    """Each row's fit time divided by that of the cleanlab row of the same run and task.

    Rows are paired on ``(run, dataset, split, kind, rate)``: a time ratio is only
    meaningful between fits of the same run (the machine's load changes between
    runs). Rows without a ``run`` column count as one run. NaN where the run has
    no cleanlab row for the task.
    """
    import pandas as pd
    df = df.copy()
    if "run" not in df:
        df["run"] = ""
    df["run"] = df["run"].fillna("").astype(str)
    key = ["run", *TASK]
    cl = (df[df.model == "cleanlab"].drop_duplicates(key).set_index(key)["time"]
          .rename("cleanlab_time"))
    merged = df.join(cl, on=key)
    return pd.Series(merged["time"].to_numpy() / merged["cleanlab_time"].to_numpy(),
                     index=df.index)


def table(rows, models, rates) -> str:
    """One Markdown table: error (mean rank) per rate, P/R/F1 per rate > 0, time, time ratio.

    Rows may come from several runs (``run`` column): time ratios pair each row
    with the cleanlab row of its own run (:func:`same_run_ratios`); everything
    else uses one row per model and task (the first, when runs repeat a model).
    """
    import pandas as pd
    df = pd.DataFrame(rows)
    ok = _succeeded(rows)
    task = TASK
    ok["tratio"] = same_run_ratios(ok)
    ok = _ranked(ok)
    head = (["model"] + [f"err % (rank) {100 * r:g}%" for r in rates]
            + [f"P/R/F1 {100 * r:g}%" for r in rates if r > 0]
            + ["fit s (median)", "time / cleanlab", "failed"])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for key, m in models.items():
        d = ok[ok.model == key]
        cells = [m.name]
        for r in rates:
            e = d[d.rate == r]
            cells.append(f"{_fmt(e.error.mean())} ({_fmt(e['rank'].mean(), '.2f')})")
        for r in rates:
            if r == 0:
                continue
            e = d[d.rate == r]
            if "f1" in e and e["f1"].notna().any():
                cells.append("/".join(_fmt(e[c].mean(), ".2f") for c in ("p", "r", "f1")))
            else:
                cells.append("–")
        tr = d["tratio"].dropna()
        cells += [_fmt(d.time.median(), ".2f"),
                  _fmt(float(np.exp(np.log(tr).mean())) if len(tr) else np.nan, ".2f"),
                  str(len(df[df.model == key].drop_duplicates(task)) - len(d))]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def paired_differences(rows, models, rates, candidate=None) -> str:
    """How sure the comparison with the best other model is, as one Markdown table.

    For each rate, the "best other" model is the one with the lowest mean rank
    among the models other than ``candidate`` (default: the first of ``models``).
    The candidate's error and rank minus the best other's are paired by task,
    averaged per data set (the tasks of one data set, its splits and noise kinds,
    share its difficulty, so they are not independent), and summarised by their
    mean over the data sets and its standard error (standard deviation over the
    data sets / sqrt(number of data sets)). The rule: a difference counts when
    its mean is more than 2 standard errors from 0 ("lower" / "higher"); otherwise
    it is "within noise".
    """
    ok = _succeeded(rows)
    ok = _ranked(ok[ok.model.isin(list(models))])
    candidate = candidate or next(iter(models))
    head = ["rate", "best other (mean rank)", "data sets", "error diff (points) ± SE",
            "rank diff ± SE", "error", "rank"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]

    def verdict(mean, se):
        if not np.isfinite(se) or abs(mean) <= 2 * se:
            return "within noise"
        return "lower" if mean < 0 else "higher"

    for r in rates:
        d = ok[ok.rate == r]
        others = d[d.model != candidate].groupby("model")["rank"].mean()
        if candidate not in set(d.model) or others.empty:
            continue
        best = others.idxmin()
        wide = d.pivot_table(index=TASK, columns="model", values=["error", "rank"])
        stats = []
        for value in ("error", "rank"):
            diff = (wide[value][candidate] - wide[value][best]).dropna()
            per_set = diff.groupby(level="dataset").mean()
            se = per_set.std(ddof=1) / np.sqrt(len(per_set)) if len(per_set) > 1 else np.nan
            stats.append((per_set.mean(), se))
        n_sets = wide["error"][[candidate, best]].dropna().index.unique("dataset").size
        cells = [f"{100 * r:g} %", f"{models[best].name} ({others[best]:.2f})", str(n_sets)]
        cells += [f"{m:+.2f} ± {_fmt(se, '.2f')}" for m, se in stats]
        cells += [verdict(m, se) for m, se in stats]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true",
                   help="2 binary + 1 multiclass set, 1 split, rates 0/20/40 %%, symmetric only")
    p.add_argument("--candidates", nargs="*", default=["splcv"], choices=sorted(CANDIDATES))
    p.add_argument("--splcv-variants", nargs="*", default=[], metavar="NAME=JSON",
                   help="extra SPLBoostClassifierCV rows with changed parameters, "
                        "e.g. 'd2={\"max_depth\": 2}'")
    p.add_argument("--peers", nargs="*", default=list(PEERS), choices=list(PEERS))
    p.add_argument("--datasets", nargs="*")
    p.add_argument("--rates", nargs="*", type=float)
    p.add_argument("--kinds", nargs="*", choices=KINDS)
    p.add_argument("--splits", type=int)
    p.add_argument("--test-size", type=float, default=0.3)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--rows", help="also save the raw result rows to this CSV file")
    p.add_argument("--save-oof", metavar="DIR",
                   help="save each SPLBoostClassifierCV fit's out-of-fold probabilities, "
                        "noisy labels and flipped rows to DIR (one .npz per task)")
    p.add_argument("--table-from", nargs="*", metavar="CSV",
                   help="print the table of saved --rows files (e.g. of runs split by data set) "
                        "instead of running; --candidates/--peers/--rates select what to show")
    a = p.parse_args(argv)
    if a.quick:
        datasets = a.datasets or BINARY_QUICK + MULTICLASS_QUICK
        rates = a.rates or [0.0, 0.2, 0.4]
        kinds = a.kinds or ["sym"]
        splits = a.splits or 1
    else:
        datasets = a.datasets or BINARY_FULL + MULTICLASS_FULL
        rates = a.rates or [0.0, 0.1, 0.2, 0.3, 0.4]
        kinds = a.kinds or ["sym", "cc"]
        splits = a.splits or 3
    if "cleanlab" not in a.peers:
        a.peers.append("cleanlab")  # the time ratios need it
    models = {k: CANDIDATES[k] for k in a.candidates}
    for spec in a.splcv_variants:
        import json
        name, _, params = spec.partition("=")
        models[f"splcv_{name}"] = Model(f"SPLBoostClassifierCV({name})",
                                        _splcv(**json.loads(params)), _excluded)
    models |= {k: PEERS[k] for k in a.peers}

    if a.table_from:
        import pandas as pd
        # a file without a run column is one run
        rows = pd.concat([_read_rows(f) for f in a.table_from]).to_dict("records")
        rows = [{k: v for k, v in r.items() if not (isinstance(v, float) and np.isnan(v))}
                for r in rows]
        _print_tables(rows, models, rates)
        return rows
    from threadpoolctl import threadpool_limits

    # one kernel thread for the whole run: the kernels' default thread count is at most
    # OMP_NUM_THREADS (an explicit n_jobs still wins)
    os.environ["OMP_NUM_THREADS"] = "1"
    run_id = time.strftime("%Y-%m-%dT%H:%M:%S")  # pairs the time ratios in merged tables
    with threadpool_limits(1):
        rows = run(models, datasets, rates, kinds, splits, a.test_size, a.seed,
                   oof_dir=a.save_oof)
    for r in rows:
        r["run"] = run_id
    if a.rows:
        import pandas as pd
        pd.DataFrame(rows).to_csv(a.rows, index=False)
    print("```\n" + " ".join(["python", "benchmarks/bench_noisy_default.py", *sys.argv[1:]])
          + "\n```\n")
    _print_tables(rows, models, rates)
    return rows


def _read_rows(path):
    """A saved ``--rows`` file; without a ``run`` column, the file is one run named after it."""
    import pandas as pd
    df = pd.read_csv(path)
    if "run" not in df:
        df["run"] = str(path)
    return df


def _print_tables(rows, models, rates):
    """The table over every task, its paired differences, then one table per noise kind."""
    print(table(rows, models, rates))
    print(f"\n{next(iter(models.values())).name} against the best other model of each rate "
          "(paired by task, averaged per data set; a difference counts when it is more "
          "than 2 standard errors from 0):\n")
    print(paired_differences(rows, models, rates))
    kinds = sorted({r["kind"] for r in rows})
    if len(kinds) > 1:
        for kind in kinds:
            # the clean task (rate 0) belongs to every kind
            sub = [r for r in rows if r["kind"] == kind or r["rate"] == 0]
            print(f"\nNoise kind {kind!r} only (rate 0: the clean task):\n")
            print(table(sub, models, rates))


if __name__ == "__main__":
    main()
