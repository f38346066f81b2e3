"""Design experiment: which candidates the small-data search of ``SPLBoostClassifierCV``
needs to reach CatBoost at 1,000 rows.

Fits each named variant of ``SPLBoostClassifierCV`` (keyword arguments as JSON) and
CatBoost's defaults on ``benchmarks/bench_scale.py``'s data, and prints per variant and
flip rate the mean test error (%), label-issue F1 and fit seconds, the mean over the
tasks of (variant − CatBoost) in points, and, for every pair and the union of all the
variants, the union's error: the variant whose search reports the best held-out score
(``best_score_``; the variants share folds and seeds through ``random_state``, so the
union's search would fit exactly these candidates and its final model is the winner's).

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/design/small_candidates.py 0 1000 mc,hard 2,5 0,0.1,0.2,0.35 \\
        small='{}' large='{"max_depth": 6, "learning_rate": 0.2, "n_estimators": 300, \\
        "l2_regularization": 10, "grow_policy": "symmetric"}'

Results: ``docs/design/0016-random-split-scores.md``, ``0017-shared-multiclass-trees.md``,
``0018-small-multiclass-schedule.md``.
"""

from __future__ import annotations

import itertools
import json
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _noisy_tasks import noisy_tasks, scores, task_args  # noqa: E402

from robust_boosting import SPLBoostClassifierCV  # noqa: E402


def main(argv: list[str]) -> None:
    warnings.simplefilter("ignore")
    from catboost import CatBoostClassifier

    seed, n, gens, ks, rates = task_args(argv[:5])
    variants = {}
    for arg in argv[5:]:
        name, _, params = arg.partition("=")
        variants[name] = json.loads(params)
    rows = []
    for gen, k, rate, X, y_fit, Xt, yt, flipped in noisy_tasks(seed, n, gens, ks, rates):
        row = dict(gen=gen, K=k, rate=rate)
        cb = CatBoostClassifier(verbose=0, thread_count=2, random_seed=seed,
                                allow_writing_files=False)
        t = time.perf_counter()
        cb.fit(X, y_fit)
        row["catboost_s"] = time.perf_counter() - t
        row["catboost_err"] = 100 * float(np.mean(cb.predict(Xt).ravel() != yt))
        for name, params in variants.items():
            est = SPLBoostClassifierCV(random_state=seed, **params)
            t = time.perf_counter()
            est.fit(X, y_fit)
            row[f"{name}_s"] = time.perf_counter() - t
            row[f"{name}_err"], row[f"{name}_f1"] = scores(est, Xt, yt, flipped)
            row[f"{name}_score"] = est.best_score_
        rows.append(row)
        print(" ".join(f"{key}={v:.3f}" if isinstance(v, float) else f"{key}={v}"
                       for key, v in row.items() if not key.endswith("_score")), flush=True)
    d = pd.DataFrame(rows)
    names = list(variants)
    combos = list(itertools.combinations(names, 2))
    if len(names) > 2:
        combos.append(tuple(names))
    for combo in combos:
        if True:
            label = "+".join(combo)
            pick = np.argmax(d[[f"{c}_score" for c in combo]].to_numpy(), axis=1)
            for m in ("err", "f1"):
                d[f"{label}_{m}"] = d[[f"{c}_{m}" for c in combo]].to_numpy()[
                    np.arange(len(d)), pick]
            names.append(label)
    table = pd.DataFrame({name: d.groupby("rate")[f"{name}_err"].mean() for name in
                          ["catboost", *names]})
    print("\nmean error (%) by flip rate\n" + table.round(2).to_string())
    gap = pd.DataFrame({name: (d[f"{name}_err"] - d.catboost_err).groupby(d.rate).mean()
                        for name in names})
    print("\nmean (variant - CatBoost), points\n" + gap.round(2).to_string())
    wins = pd.DataFrame({name: (d[f"{name}_err"] < d.catboost_err).groupby(d.rate).sum()
                         for name in names})
    print("\ntasks below CatBoost\n" + wins.to_string())
    f1 = pd.DataFrame({name: d.groupby("rate")[f"{name}_f1"].mean() for name in names})
    print("\nmean F1\n" + f1.round(3).to_string())
    secs = pd.Series({name: d[f"{name}_s"].median() for name in ["catboost", *variants]})
    print("\nmedian fit seconds\n" + secs.round(3).to_string())
    by_cell = d.groupby(["gen", "K"])[[f"{c}_err" for c in ["catboost", *names]]].mean()
    print("\nmean error (%) by data\n" + by_cell.round(2).to_string())


if __name__ == "__main__":
    main(sys.argv[1:])
