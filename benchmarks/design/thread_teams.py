"""Two threads against one: the defaults' fit time with ``n_jobs=2`` over ``n_jobs=1``,
beside LightGBM's (docs/design/0045-thread-teams.md).

Each table of the real-table benchmark (``bench_real_tables.py``; ``--acceptance``: the
held-out ones), split 0 (70/30), clean labels: ``SPLBoostClassifierCV`` or
``SPLBoostRegressorCV`` and LightGBM's default, each with ``n_jobs=1`` and ``n_jobs=2``
(LightGBM's ``n_jobs``, the libraries' thread pools limited to as many), fitted ``--reps``
times in turn, one process, nothing else running. Printed per table: the least fit time of
each, then the geometric means of ours on two threads over ours on one, LightGBM's the
same, and ours over LightGBM's at one and at two threads each. Run at two commits to
compare them (the models do not depend on the threads: ``tests/test_determinism.py``).

LightGBM runs in a process of its own, imported before ``robust_boosting``, so that its
OpenMP runtime keeps LightGBM's own settings. Before record 0046 the package started that
shared runtime with passive waiting, and LightGBM then took 15 times as long on two threads.

    PYTHONPATH=src python benchmarks/design/thread_teams.py --task classification
    PYTHONPATH=src python benchmarks/design/thread_teams.py --task regression --acceptance
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def _model(name: str, task: str, threads: int):
    reg = task == "regression"
    if name == "lgbm":
        from lightgbm import LGBMClassifier, LGBMRegressor

        return (LGBMRegressor if reg else LGBMClassifier)(n_jobs=threads, verbose=-1,
                                                          random_state=0)
    from robust_boosting import SPLBoostClassifierCV, SPLBoostRegressorCV

    return (SPLBoostRegressorCV if reg else SPLBoostClassifierCV)(random_state=0,
                                                                  n_jobs=threads)


def _times(task: str, acceptance: bool, reps: int, name: str) -> dict:
    """The least fit time of ``name`` on one and on two threads, per table."""
    if name == "lgbm":
        import lightgbm  # noqa: F401  (first: its OpenMP runtime keeps its own waiting)
    import bench_real_tables as bench
    from sklearn.model_selection import train_test_split
    from threadpoolctl import threadpool_limits

    out = {}
    for spec in bench.select_tables(task, acceptance=acceptance):
        X, y = bench.load(spec)
        X_tr, _, y_tr, _ = train_test_split(
            X, y, test_size=0.3, random_state=0,
            stratify=y if task == "classification" else None)
        best = [np.inf, np.inf]
        for _ in range(reps):
            for i, threads in enumerate((1, 2)):
                model = _model(name, task, threads)
                with threadpool_limits(threads):
                    start = time.perf_counter()
                    model.fit(X_tr, y_tr)
                    best[i] = min(best[i], time.perf_counter() - start)
        out[spec.name] = [len(y_tr), *best]
    return out


def run(task: str, acceptance: bool, reps: int) -> None:
    res = {}
    for name in ("splcv", "lgbm"):  # one process each, one after the other
        cmd = [sys.executable, __file__, "--task", task, "--reps", str(reps), "--one", name]
        cmd += ["--acceptance"] if acceptance else []
        res[name] = json.loads(subprocess.run(cmd, capture_output=True, text=True,
                                              check=True).stdout)
    print(f"{'table':30s} {'rows':>6s}  ours x1  ours x2  LGBM x1  LGBM x2")
    for table, (rows, o1, o2) in res["splcv"].items():
        _, l1, l2 = res["lgbm"][table]
        print(f"{table:30s} {rows:6d}  {o1:7.3f}  {o2:7.3f}  {l1:7.3f}  {l2:7.3f}")
    t = {(name, i): np.array([v[i] for v in res[name].values()])
         for name in res for i in (1, 2)}

    def geo(a, b):
        return float(np.exp(np.mean(np.log(a / b))))

    print(f"\n{len(res['splcv'])} tables, geometric means:")
    print(f"  ours, 2 threads / 1 thread:  {geo(t['splcv', 2], t['splcv', 1]):.3f} "
          f"(worst table {float(np.max(t['splcv', 2] / t['splcv', 1])):.2f})")
    print(f"  LightGBM, 2 / 1:             {geo(t['lgbm', 2], t['lgbm', 1]):.3f}")
    print(f"  ours / LightGBM, 1 thread:   {geo(t['splcv', 1], t['lgbm', 1]):.3f}")
    print(f"  ours / LightGBM, 2 threads:  {geo(t['splcv', 2], t['lgbm', 2]):.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--task", choices=["classification", "regression"],
                        default="classification")
    parser.add_argument("--acceptance", action="store_true",
                        help="the held-out tables instead of the benchmark's")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--one", choices=["splcv", "lgbm"],
                        help="(internal) time one model in this process, print JSON")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    if args.one:
        print(json.dumps(_times(args.task, args.acceptance, args.reps, args.one)))
    else:
        run(args.task, args.acceptance, args.reps)


if __name__ == "__main__":
    main()
