"""The regression search as a race over the folds (docs/design/0031-regression-race.md).

``--out F``: each cell is one regression table of the real-table benchmark
(``bench_real_tables.py``'s rule; ``--acceptance``: the held-out packages), one 70/30 split
(seeds ``0 .. --splits - 1``), its training targets clean or with 20 % of them replaced
(``corrupt_targets(kind="replace")``). It fits ``SPLBoostRegressorCV(n_jobs=1)`` and
records its clean-test RMSE, fit time, winner and ``cv_results_``'s per-fold scores. One
JSON line per cell, appended to ``F``. Run it with the code from before the race
(``RACE_KEEP`` absent) to record every candidate's score on every fold.

``--simulate F`` reads such a file of the search without a race and prints, for each rule
"keep the ``k`` candidates of best first-fold score and the best plain one", how often
the three-fold winner is kept, the mean and largest relative loss of the winner it gives
instead, and the share of the fold models it fits.

``--compare OLD NEW`` reads two row files of ``bench_real_tables.py --task regression
--models splcv lgbm`` (before and after) and prints, per noise, the geometric mean of the
new RMSE over the old, how many fits are unchanged, and each run's fit time over
LightGBM's in the same run.

    python benchmarks/design/regression_race.py --out race.jsonl      # at 070c23f
    python benchmarks/design/regression_race.py --simulate race.jsonl
    python benchmarks/bench_real_tables.py --task regression --models splcv lgbm \\
        --noise clean corrupt20 --rows new.csv                       # at each commit
    python benchmarks/design/regression_race.py --compare old.csv new.csv
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from pathlib import Path

import numpy as np
from sklearn.model_selection import train_test_split

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import bench_real_tables as tables  # noqa: E402

from robust_boosting import SPLBoostRegressorCV  # noqa: E402

NOISES = ("clean", "corrupt20")


def record(out: str, acceptance: bool, splits: int) -> None:
    with open(out, "a") as f:
        for spec in tables.select_tables("regression", acceptance=acceptance):
            X, y = tables.load(spec)
            for split in range(splits):
                Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, random_state=split)
                for noise in NOISES:
                    yn, _ = tables._noisy("regression", ytr, noise, split + 7, None, "replace")
                    model = SPLBoostRegressorCV(random_state=split, n_jobs=1)
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        t0 = time.perf_counter()
                        model.fit(Xtr, yn)
                        seconds = time.perf_counter() - t0
                    res = model.cv_results_
                    folds = sum(k.startswith("split") for k in res)
                    f.write(json.dumps(dict(
                        table=spec.name, split=split, noise=noise, time=seconds,
                        rmse=float(np.sqrt(np.mean((model.predict(Xte) - yte) ** 2))),
                        best=int(model.best_index_),
                        plain=[c for c, p in enumerate(res["params"])
                               if not np.isfinite(p["age"]) and p["loss"] == "squared_error"],
                        scores=[[float(res[f"split{k}_test_score"][c]) for k in range(folds)]
                                for c in range(len(res["params"]))])) + "\n")
                    f.flush()


def simulate(path: str) -> None:
    recs = [json.loads(line) for line in open(path)]
    print(f"{len(recs)} fits; loss = minus the score; regret = (loss of the winner kept - "
          "loss of the three-fold winner) / the latter")
    print("| kept on the other folds | winner changed | mean regret | largest regret | "
          "fold models fitted |")
    print("|---|---|---|---|---|")
    for k in (1, 2, 3, 4):
        changed, regret, cost = 0, [], []
        for r in recs:
            loss = -np.array(r["scores"])  # (C, F): at each candidate's best mean round
            mean = loss.mean(axis=1)
            win = int(np.argmin(mean))
            kept = set(np.argsort(loss[:, 0], kind="stable")[:k].tolist())
            kept.add(min(r["plain"], key=lambda c: loss[c, 0]))
            new = min(kept, key=lambda c: mean[c])
            changed += new != win
            regret.append((mean[new] - mean[win]) / mean[win])
            n_c, n_f = loss.shape
            cost.append((n_c + (n_f - 1) * len(kept)) / (n_c * n_f))
        print(f"| best {k} + best plain | {changed} of {len(recs)} | {np.mean(regret):.4f} "
              f"| {np.max(regret):.4f} | {np.mean(cost):.3f} |")


def compare(old_path: str, new_path: str) -> None:
    key = ["dataset", "split", "noise"]

    def rows(path):
        return tables._ok(tables.saved_rows([path])).pivot_table(
            index=key, columns="model", values=["error", "time"])

    old, new = rows(old_path), rows(new_path)
    both = old.index.intersection(new.index)
    old, new = old.loc[both], new.loc[both]
    ratio = new[("error", "splcv")] / old[("error", "splcv")]
    t_old = old[("time", "splcv")] / old[("time", "lgbm")]
    t_new = new[("time", "splcv")] / new[("time", "lgbm")]

    def geo(x):
        return float(np.exp(np.log(x).mean()))

    print("| noise | fits | RMSE new / old (geo) | unchanged | worse by > 1 % | "
          "better by > 1 % | time / LightGBM old | new | new / old time |")
    print("|---|---|---|---|---|---|---|---|---|")
    for noise in NOISES:
        m = ratio.index.get_level_values("noise") == noise
        r = ratio[m]
        print(f"| {noise} | {m.sum()} | {geo(r):.4f} | {(r == 1).sum()} | "
              f"{(r > 1.01).sum()} | {(r < 0.99).sum()} | {geo(t_old[m]):.2f} | "
              f"{geo(t_new[m]):.2f} | {geo(t_new[m] / t_old[m]):.3f} |")
    worst = ratio.sort_values().tail(5)
    print("largest RMSE ratios:", ", ".join(f"{i[0]} {i[1]} {i[2]} {v:.3f}"
                                            for i, v in worst.items()))


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out")
    p.add_argument("--acceptance", action="store_true")
    p.add_argument("--splits", type=int, default=1)
    p.add_argument("--simulate")
    p.add_argument("--compare", nargs=2, metavar=("OLD", "NEW"))
    a = p.parse_args(argv)
    if a.simulate:
        simulate(a.simulate)
    elif a.compare:
        compare(*a.compare)
    elif a.out:
        record(a.out, a.acceptance, a.splits)
    else:
        p.error("give --out, --simulate or --compare")


if __name__ == "__main__":
    main()
