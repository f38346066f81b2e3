"""The refit without the suspects as plain boosting (docs/design/0032-plain-refit.md).

``--out F``: synthetic cells, each a data set (Friedman #1 with noise 1, #2, #3 at 2,000
rows; scikit-learn's diabetes), a 70/30 split (seeds 0 and 1, or ``--seeds``), its
training targets clean or 20 % / 35 % corrupted by ``corrupt_targets`` (replace, shift,
unit). It fits
``SPLBoostRegressorCV(n_jobs=1)`` and records the clean-test RMSE and the final model's
age (``refit_params_["age"]``). One JSON line per cell, written to ``F``.

``--compare OLD NEW`` prints the geometric mean of NEW's RMSE over OLD's, by kind of
error and by data set, and the cells that moved most.

    python benchmarks/design/plain_refit.py --out before.jsonl    # at b3b14e1
    python benchmarks/design/plain_refit.py --out after.jsonl     # at this commit
    python benchmarks/design/plain_refit.py --compare before.jsonl after.jsonl

The real tables: ``benchmarks/design/regression_race.py --compare`` of
``bench_real_tables.py --task regression --models splcv lgbm`` rows before and after.
"""

from __future__ import annotations

import argparse
import json
import warnings

import numpy as np
import pandas as pd
from sklearn.datasets import load_diabetes, make_friedman1, make_friedman2, make_friedman3
from sklearn.model_selection import train_test_split

from robust_boosting import SPLBoostRegressorCV
from robust_boosting.noise import corrupt_targets

DATASETS = ("friedman1", "friedman2", "friedman3", "diabetes")
CELLS = [("clean", 0.0)] + [(k, r) for k in ("replace", "shift", "unit") for r in (0.2, 0.35)]
KEY = ["data", "seed", "kind", "rate"]


def _data(name: str, seed: int):
    if name == "diabetes":
        return load_diabetes(return_X_y=True)
    make = dict(friedman1=make_friedman1, friedman2=make_friedman2,
                friedman3=make_friedman3)[name]
    extra = dict(noise=1.0) if name == "friedman1" else {}
    return make(n_samples=2000, random_state=seed, **extra)


def record(out: str, seeds=(0, 1)) -> None:
    with open(out, "w") as f:
        for name in DATASETS:
            for seed in seeds:
                X, y = _data(name, seed)
                Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, random_state=seed)
                for kind, rate in CELLS:
                    yn = ytr if rate == 0 else corrupt_targets(ytr, rate, kind=kind,
                                                               random_state=seed)[0]
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        model = SPLBoostRegressorCV(random_state=seed, n_jobs=1).fit(Xtr, yn)
                    rmse = float(np.sqrt(np.mean((model.predict(Xte) - yte) ** 2)))
                    f.write(json.dumps(dict(data=name, seed=seed, kind=kind, rate=rate,
                                            rmse=rmse, age=model.refit_params_["age"])) + "\n")
                    f.flush()


def compare(old: str, new: str) -> None:
    a, b = (pd.read_json(p, lines=True) for p in (old, new))
    j = a.merge(b, on=KEY, suffixes=("_old", "_new"))
    j["ratio"] = j["rmse_new"] / j["rmse_old"]

    def geo(x):
        return float(np.exp(np.log(x).mean()))

    print(f"{len(j)} cells: RMSE new / old {geo(j['ratio']):.4f} (geometric mean); "
          f"worse by > 1 %: {(j['ratio'] > 1.01).sum()}, better: {(j['ratio'] < 0.99).sum()}")
    for col in ("kind", "data"):
        print(" ", ", ".join(f"{k} {geo(g):.4f}" for k, g in j.groupby(col)["ratio"]))
    cols = KEY + ["rmse_old", "age_old", "rmse_new", "ratio"]
    print(j.sort_values("ratio")[cols].iloc[[0, 1, 2, -3, -2, -1]].to_string(index=False))


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out")
    p.add_argument("--compare", nargs=2, metavar=("OLD", "NEW"))
    p.add_argument("--seeds", type=int, nargs="+", default=[0, 1],
                   help="the split and corruption seeds (default: 0 1)")
    a = p.parse_args(argv)
    if a.compare:
        compare(*a.compare)
    elif a.out:
        record(a.out, a.seeds)
    else:
        p.error("give --out or --compare")


if __name__ == "__main__":
    main()
