"""Time of exact per-row contributions: the default's TreeSHAP against CatBoost's.

Run:  python benchmarks/bench_explain.py [--rows 100000] [--features 20] [--explain 20000]
          [--seed 0] [--threads N]

Fits the default ``SPLBoostClassifierCV()`` and CatBoost's default
``CatBoostClassifier()`` on the same ``--rows`` x ``--features`` binary table
(``make_classification``, 10 % of the labels flipped), then times, in the same run,
``predict(X[:explain], pred_contrib=True)`` of ours and
``get_feature_importance(Pool(X[:explain]), type="ShapValues")`` of CatBoost's (both
exact path-dependent TreeSHAP on each library's default model), and prints both times,
their ratio (ours / CatBoost's) and the largest gap between each library's row sums and
its raw score. The fits are not timed against each other. Public API only.
"""

from __future__ import annotations

import argparse
import os
import time
import warnings

import numpy as np
from sklearn.datasets import make_classification

from robust_boosting import SPLBoostClassifierCV


def table(rows: int, features: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A binary table with some structure and 10 % flipped labels."""
    X, y = make_classification(n_samples=rows, n_features=features,
                               n_informative=max(2, features // 2), n_redundant=2,
                               flip_y=0.0, random_state=seed)
    rng = np.random.default_rng(seed)
    flip = rng.random(rows) < 0.10
    y[flip] = 1 - y[flip]
    return X, y


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--features", type=int, default=20)
    parser.add_argument("--explain", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=None,
                        help="threads of both libraries (default: every core)")
    args = parser.parse_args(argv)
    from catboost import CatBoostClassifier, Pool

    threads = args.threads or os.cpu_count() or 1
    X, y = table(args.rows, args.features, args.seed)
    X_explain = X[: args.explain]

    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = SPLBoostClassifierCV(random_state=args.seed, n_jobs=threads).fit(X, y)
    fit_ours = time.perf_counter() - t0
    t0 = time.perf_counter()
    cat = CatBoostClassifier(random_seed=args.seed, thread_count=threads, verbose=0,
                             allow_writing_files=False).fit(X, y)
    fit_cat = time.perf_counter() - t0

    t0 = time.perf_counter()
    contrib = ours.predict(X_explain, pred_contrib=True)
    t_ours = time.perf_counter() - t0
    pool = Pool(X_explain)
    t0 = time.perf_counter()
    shap_cat = cat.get_feature_importance(pool, type="ShapValues", thread_count=threads)
    t_cat = time.perf_counter() - t0

    gap_ours = np.abs(contrib.sum(axis=1) - ours.decision_function(X_explain)).max()
    raw_cat = cat.predict(X_explain, prediction_type="RawFormulaVal")
    gap_cat = np.abs(shap_cat.sum(axis=1) - raw_cat).max()
    model = ours.best_estimator_
    depth = getattr(model.estimator_, "max_depth", None)
    print(f"{args.rows:,} rows x {args.features} features, contributions of "
          f"{args.explain:,} rows, {threads} threads")
    print(f"ours:     {model.n_estimators_} trees (max_depth {depth}), fit {fit_ours:.1f} s, "
          f"contributions {t_ours:.3f} s, largest |sum - decision_function| {gap_ours:.2e}")
    print(f"CatBoost: {cat.tree_count_} trees (depth {cat.get_all_params()['depth']}), "
          f"fit {fit_cat:.1f} s, ShapValues {t_cat:.3f} s, largest |sum - raw| {gap_cat:.2e}")
    print(f"ratio ours / CatBoost: {t_ours / t_cat:.2f}")


if __name__ == "__main__":
    main()
