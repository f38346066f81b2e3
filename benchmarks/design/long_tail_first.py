"""A long tail of true targets settles the regression search first
(docs/design/0047-long-tail-first.md).

``--out F``: every fit of the real-table benchmark's regression tables
(``bench_real_tables.py``'s rule; ``--acceptance``: the held-out packages), 70/30 splits
with seeds ``0 .. --splits - 1``, training targets clean or with 20 % replaced, as
``bench_real_tables.py`` draws them. Each fit of ``SPLBoostRegressorCV(n_jobs=1)`` records
its test predictions, its fit time, its suspects and how many candidates its search fitted
(``cv_results_``'s finite first-fold scores). The results are pickled to ``F``.

``--compare OLD NEW`` prints how many fits have the same predictions bit for bit and the
same suspects, how many NEW's search settled early (fewer candidates fitted), and NEW's fit
time over OLD's (geometric mean) for those fits and for the others, per noise setting.

    PYTHONPATH=src python benchmarks/design/long_tail_first.py --out old.pkl   # at 138143d
    PYTHONPATH=src python benchmarks/design/long_tail_first.py --out new.pkl   # here
    python benchmarks/design/long_tail_first.py --compare old.pkl new.pkl
"""

from __future__ import annotations

import argparse
import os
import pickle
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

NOISES = ("clean", "corrupt20")


def run(out: str, acceptance: bool, splits: int) -> None:
    os.environ["OMP_NUM_THREADS"] = "1"
    import bench_real_tables as tables
    from sklearn.model_selection import train_test_split
    from threadpoolctl import threadpool_limits

    from robust_boosting import SPLBoostRegressorCV

    rows = {}
    with threadpool_limits(1), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for spec in tables.select_tables("regression", acceptance=acceptance):
            X, y = tables.load(spec)
            for split in range(splits):
                X_tr, X_te, y_tr, _ = train_test_split(X, y, test_size=0.3,
                                                       random_state=split)
                for noise in NOISES:
                    y_fit, _ = tables._noisy("regression", y_tr, noise, split + 7, None,
                                             "replace")
                    start = time.perf_counter()
                    model = SPLBoostRegressorCV(random_state=split, n_jobs=1).fit(X_tr, y_fit)
                    seconds = time.perf_counter() - start
                    fitted = int(np.isfinite(model.cv_results_["split0_test_score"]).sum())
                    rows[spec.name, split, noise] = dict(
                        pred=model.predict(X_te), time=seconds, fitted=fitted,
                        candidates=len(model.cv_results_["params"]),
                        suspects=model.label_issues_.copy())
                    print(spec.name, split, noise, f"{seconds:.3f}s", fitted, flush=True)
    with open(out, "wb") as f:
        pickle.dump(rows, f)


def compare(old_path: str, new_path: str) -> None:
    with open(old_path, "rb") as f:
        old = pickle.load(f)
    with open(new_path, "rb") as f:
        new = pickle.load(f)
    keys = [k for k in old if k in new]
    same = sum(np.array_equal(old[k]["pred"], new[k]["pred"]) for k in keys)
    suspects = sum(np.array_equal(old[k]["suspects"], new[k]["suspects"]) for k in keys)
    print(f"{len(keys)} fits: predictions bit for bit the same in {same}, "
          f"the same suspects in {suspects}")
    print("| noise | settled fits | time new / old | other fits | time new / old |")
    print("|---|---|---|---|---|")
    for noise in NOISES:
        cells = []
        for settled in (True, False):
            ks = [k for k in keys if k[2] == noise
                  and (new[k]["fitted"] < new[k]["candidates"]) == settled]
            ratio = (np.exp(np.mean(np.log([new[k]["time"] / old[k]["time"] for k in ks])))
                     if ks else float("nan"))
            cells += [str(len(ks)), f"{ratio:.3f}"]
        print(f"| {noise} | " + " | ".join(cells) + " |")
    differ = [k for k in keys if not np.array_equal(old[k]["pred"], new[k]["pred"])]
    if differ:
        _rmse_change(old, new, differ)


def _rmse_change(old: dict, new: dict, keys: list) -> None:
    """The test RMSE of NEW over OLD (geometric mean) on the fits whose predictions
    differ, per noise setting, with the largest changes: the splits redrawn as
    :func:`run` draws them."""
    import bench_real_tables as tables
    from sklearn.model_selection import train_test_split

    specs = {s.name: s for acceptance in (False, True)
             for s in tables.select_tables("regression", acceptance=acceptance)}
    ratio = {}
    for name in sorted({k[0] for k in keys}):
        X, y = tables.load(specs[name])
        for k in [k for k in keys if k[0] == name]:
            _, _, _, y_te = train_test_split(X, y, test_size=0.3, random_state=k[1])
            ratio[k] = (np.sqrt(np.mean((new[k]["pred"] - y_te) ** 2))
                        / np.sqrt(np.mean((old[k]["pred"] - y_te) ** 2)))
    for noise in NOISES:
        ks = [k for k in keys if k[2] == noise]
        if ks:
            logs = np.log([ratio[k] for k in ks])
            print(f"{noise}: {len(ks)} fits with other predictions, test RMSE new / old "
                  f"{np.exp(logs.mean()):.4f} (geometric mean; "
                  f"{np.exp(logs.std(ddof=1) / np.sqrt(len(ks))) if len(ks) > 1 else 1:.4f}"
                  f"x standard error), {int((logs < 0).sum())} lower, "
                  f"{int((logs > 0).sum())} higher")
    worst = sorted(ratio, key=lambda k: -abs(np.log(ratio[k])))[:6]
    print("largest changes: " + ", ".join(f"{k[0]} split {k[1]} {k[2]} {ratio[k]:.3f}"
                                          for k in worst))


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", help="pickle the fits of this commit to this file")
    p.add_argument("--acceptance", action="store_true", help="the held-out packages")
    p.add_argument("--splits", type=int, default=3)
    p.add_argument("--compare", nargs=2, metavar=("OLD", "NEW"))
    args = p.parse_args(argv)
    if args.compare:
        compare(*args.compare)
    elif args.out:
        run(args.out, args.acceptance, args.splits)
    else:
        p.error("give --out or --compare")


if __name__ == "__main__":
    main()
