"""The suspects and the final fit of SPLBoostRegressorCV (docs/design/0025-regression-suspects.md).

Each cell: a training set whose targets are corrupted at a rate (0, 10, 20, 35 %) by one
kind of error (replace, shift, unit), a clean test set. It fits
``SPLBoostRegressorCV`` with the suspects removed and kept, the peers (LightGBM l2 and
huber, ``SPLBoostRegressor()``, cleanlab's regression ``CleanLearning`` around LightGBM),
and records the clean-test RMSE, the AUROC of the suspect scores and the suspects' F1 at
several thresholds of ``label_issue_scores_``. One JSON line per cell on stdout.

    python benchmarks/design/regression_suspects.py --datasets friedman1 friedman3  # choose
    python benchmarks/design/regression_suspects.py --datasets friedman2 diabetes   # confirm
    python benchmarks/design/regression_suspects.py --timing 10000                  # cost
"""

from __future__ import annotations

import argparse
import json
import time
import warnings

import numpy as np
from sklearn.datasets import load_diabetes, make_friedman1, make_friedman2, make_friedman3
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split

from robust_boosting import SPLBoostRegressor, SPLBoostRegressorCV

THRESHOLDS = (2.0, 2.5, 3.0, 3.5, 4.0, 5.0)


def corrupt_targets(y, rate, kind="replace", random_state=None):
    """The noise model of the issue (robust_boosting.noise.corrupt_targets, merged
    separately): an exact count round(rate n) of rows chosen uniformly; replace = a uniform
    draw from [min y, max y]; shift = +- (3 to 6) x std(y); unit = x 10 or x 1000."""
    rng = np.random.RandomState(random_state)
    y = np.asarray(y, dtype=np.float64)
    n = y.shape[0]
    m = int(round(rate * n))
    rows = np.sort(rng.choice(n, size=m, replace=False))
    out = y.copy()
    if kind == "replace":
        out[rows] = rng.uniform(y.min(), y.max(), size=m)
    elif kind == "shift":
        out[rows] += rng.choice([-1.0, 1.0], size=m) * rng.uniform(3, 6, size=m) * y.std()
    elif kind == "unit":
        out[rows] *= rng.choice([10.0, 1000.0], size=m)
    else:
        raise ValueError(kind)
    corrupted = np.zeros(n, dtype=bool)
    corrupted[rows] = True
    return out, corrupted


def data(name, seed):
    if name == "diabetes":
        X, y = load_diabetes(return_X_y=True)
        return train_test_split(X, y, test_size=0.3, random_state=seed)
    make, noise = {"friedman1": (make_friedman1, 1.0), "friedman2": (make_friedman2, 60.0),
                   "friedman3": (make_friedman3, 0.1)}[name]
    X, y = make(n_samples=2000, noise=noise, random_state=seed)
    Xt, yt = make(n_samples=2000, noise=0.0, random_state=seed + 1000)
    return X, Xt, y, yt


def rmse(model, Xt, yt):
    return float(np.sqrt(np.mean((model.predict(Xt) - yt) ** 2)))


def f1(found, truth):
    tp = truth[found].sum()
    if tp == 0:
        return 0.0
    return float(2 * tp / (found.size + truth.sum()))


def cell(name, rate, kind, seed, peers):
    X, Xt, y, yt = data(name, seed)
    yn, wrong = corrupt_targets(y, rate, kind, random_state=seed) if rate else (y, None)
    out = dict(dataset=name, rate=rate, kind=kind if rate else "clean", seed=seed)
    t = time.perf_counter()
    cv = SPLBoostRegressorCV(random_state=seed, n_jobs=1).fit(X, yn)
    out["time_cv"] = time.perf_counter() - t
    out["rmse_cv"] = rmse(cv, Xt, yt)
    out["best"] = {k: cv.best_params_[k] for k in ("max_depth", "age", "n_estimators")}
    out["n_suspects"] = int(cv.label_issues_.size)
    for w in (0.5,):
        out[f"rmse_cv_w{w}"] = rmse(SPLBoostRegressorCV(random_state=seed, n_jobs=1,
                                                        label_issue_weight=w).fit(X, yn), Xt, yt)
    out["rmse_cv_keep"] = rmse(SPLBoostRegressorCV(random_state=seed, n_jobs=1,
                                                   remove_label_issues=False).fit(X, yn), Xt, yt)
    s = cv.label_issue_scores_
    if wrong is not None:
        out["auroc_cv"] = float(roc_auc_score(wrong, s))
        for th in THRESHOLDS:
            out[f"f1_{th}"] = f1(np.flatnonzero(s > th), wrong)
    else:
        for th in THRESHOLDS:
            out[f"flagged_{th}"] = float((s > th).mean())
    if peers:
        import lightgbm as lgb
        from cleanlab.regression.learn import CleanLearning

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for obj in ("l2", "huber"):
                m = lgb.LGBMRegressor(objective=obj, n_jobs=1, verbose=-1, random_state=seed)
                out[f"rmse_lgbm_{obj}"] = rmse(m.fit(X, yn), Xt, yt)
            out["rmse_spl"] = rmse(SPLBoostRegressor(random_state=seed).fit(X, yn), Xt, yt)
            out["rmse_plain"] = rmse(SPLBoostRegressor(age=np.inf, random_state=seed)
                                     .fit(X, yn), Xt, yt)
            t = time.perf_counter()
            cl = CleanLearning(model=lgb.LGBMRegressor(n_jobs=1, verbose=-1,
                                                      random_state=seed), seed=seed)
            cl.fit(X, yn)
            out["time_cleanlab"] = time.perf_counter() - t
            out["rmse_cleanlab"] = rmse(cl, Xt, yt)
            if wrong is not None:
                issues = cl.get_label_issues()
                out["auroc_cleanlab"] = float(roc_auc_score(wrong, 1 - issues["label_quality"]))
                out["f1_cleanlab"] = f1(np.flatnonzero(issues["is_label_issue"].to_numpy()),
                                        wrong)
    return out


def timing(n, seed=0):
    """Fit time of SPLBoostRegressorCV() and of cleanlab + LightGBM on the same data
    (Friedman #1, ``n`` rows, 20 % shifted targets), one thread each."""
    import lightgbm as lgb
    from cleanlab.regression.learn import CleanLearning

    X, y = make_friedman1(n_samples=n, noise=1.0, random_state=seed)
    yn, _ = corrupt_targets(y, 0.2, "shift", random_state=seed)
    out = dict(n=n)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(2):  # alternating, the second pair recorded
            t = time.perf_counter()
            SPLBoostRegressorCV(random_state=seed, n_jobs=1).fit(X, yn)
            out["time_cv"] = time.perf_counter() - t
            t = time.perf_counter()
            CleanLearning(model=lgb.LGBMRegressor(n_jobs=1, verbose=-1), seed=seed).fit(X, yn)
            out["time_cleanlab"] = time.perf_counter() - t
    out["ratio"] = out["time_cv"] / out["time_cleanlab"]
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--timing", nargs="*", type=int, help="row counts: fit times only")
    ap.add_argument("--datasets", nargs="+", default=["friedman1", "friedman3"])
    ap.add_argument("--seeds", nargs="+", type=int, default=[0])
    ap.add_argument("--no-peers", action="store_true")
    args = ap.parse_args()
    if args.timing:
        for n in args.timing:
            print(json.dumps(timing(n)), flush=True)
        return
    for name in args.datasets:
        for seed in args.seeds:
            cells = [(0.0, "clean")] + [(r, k) for r in (0.1, 0.2, 0.35)
                                        for k in ("replace", "shift", "unit")]
            for rate, kind in cells:
                print(json.dumps(cell(name, rate, kind, seed, not args.no_peers)), flush=True)


if __name__ == "__main__":
    main()
