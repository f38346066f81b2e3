"""Benchmark of the histogram tree weak learner (robust_boosting.trees).

Prints, in one run:

* first-call time in a fresh process (twice);
* fit time of one depth-1 and one depth-3 tree on 20k x 20 and 100k x 50 for
  ours (pre-binned), scikit-learn's DecisionTreeClassifier and LightGBM (per-tree
  time of a 200-tree fit), with ratios;
* a boosting-shaped loop (200 rounds of "fit a tree with new weights, predict the
  training data", AdaBoost weight update), binning included, against LightGBM
  with the same number of trees, both on 2 threads; stumps on 20k x 20 against
  scikit-learn's AdaBoostClassifier with stumps;
* peak memory above the input for 1,000,000 x 50 float32, depth 3, 50 rounds
  (in a subprocess, from /proc/self/status VmHWM), as a multiple of the input.

Usage::

    python benchmarks/bench_trees.py            # everything (~2 minutes)
    python benchmarks/bench_trees.py --quick    # skip scikit-learn AdaBoost and memory
    python benchmarks/bench_trees.py --memory-only

The helpers :func:`best_time` and :func:`adaboost_loop` are meant to be reused by
the booster benchmarks.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

import numpy as np

N_THREADS = 2


def best_time(fn: Callable[[], object], repeats: int = 3) -> float:
    """Best wall time (seconds) of ``repeats`` calls of ``fn`` (noise-robust)."""
    best = np.inf
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def adaboost_loop(X, y, make_tree, n_rounds: int = 200, prepare: bool = True):
    """Discrete AdaBoost (SAMME, binary) written inline: each round fits a fresh
    tree with the current weights and predicts the training data.

    ``make_tree()`` returns an unfitted estimator; if it has ``prepare_data`` and
    ``prepare`` is true, the data are prepared once (the boosters' contract).
    Returns the list of (alpha, tree).
    """
    proto = make_tree()
    Xp = proto.prepare_data(X) if prepare and hasattr(proto, "prepare_data") else X
    n = len(y)
    w = np.full(n, 1.0 / n)
    ensemble = []
    for _ in range(n_rounds):
        tree = make_tree().fit(Xp, y, sample_weight=w)
        miss = tree.predict(Xp) != y
        err = float(np.dot(w, miss))
        if err <= 0 or err >= 0.5:
            break
        alpha = 0.5 * np.log((1 - err) / err)
        w = w * np.exp(np.where(miss, alpha, -alpha))
        w /= w.sum()
        ensemble.append((alpha, tree))
    return ensemble


def _data(n, d):
    from sklearn.datasets import make_classification

    return make_classification(n, d, n_informative=10, flip_y=0.1, random_state=0)


def compile_times() -> tuple[float, float]:
    """First-call time (import excluded) in a fresh process, cold then cached."""
    code = (
        "import time, numpy as np\n"
        "from robust_boosting.trees import HistTreeClassifier, HistTreeRegressor\n"
        "X = np.random.RandomState(0).rand(200, 3); X[::7, 1] = np.nan\n"
        "y = (X[:, 0] > .5).astype(int)\n"
        "t = time.perf_counter()\n"
        "c = HistTreeClassifier(max_depth=3); Xp = c.prepare_data(X)\n"
        "c.fit(Xp, y).predict(Xp); c.predict(X)\n"
        "HistTreeRegressor().fit(X, X[:, 0]).predict(X)\n"
        "print(time.perf_counter() - t)\n"
    )
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        out = []
        for _ in range(2):
            r = subprocess.run(
                [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
            )
            out.append(float(r.stdout.strip().splitlines()[-1]))
    return out[0], out[1]


def _single_tree_row(X, y, w, depth):
    import lightgbm as lgb
    from sklearn.tree import DecisionTreeClassifier

    from robust_boosting.trees import HistTreeClassifier

    est = HistTreeClassifier(max_depth=depth, n_jobs=N_THREADS)
    Xp = est.prepare_data(X)
    est.fit(Xp, y, sample_weight=w)
    t_fit = best_time(lambda: est.fit(Xp, y, sample_weight=w), 10)
    t_fp = best_time(lambda: est.fit(Xp, y, sample_weight=w).predict(Xp), 10)
    t_skl = best_time(
        lambda: DecisionTreeClassifier(max_depth=depth).fit(X, y, sample_weight=w), 2
    )
    lgbm = lgb.LGBMClassifier(
        n_estimators=200, max_depth=depth, num_leaves=2**depth, n_jobs=N_THREADS, verbose=-1
    )
    t_lgb = best_time(lambda: lgbm.fit(X, y), 2) / 200
    return t_fit, t_fp, t_skl, t_lgb


def single_tree_table() -> None:
    print(f"{'data':>10} {'depth':>5} {'ours fit':>10} {'ours f+p':>10} {'sklearn':>10} "
          f"{'lgbm/tree':>10} {'skl/ours':>9} {'ours/lgbm':>9}")
    for n, d in [(20_000, 20), (100_000, 50)]:
        X, y = _data(n, d)
        w = np.random.RandomState(0).rand(n)
        for depth in (1, 3):
            t_fit, t_fp, t_skl, t_lgb = _single_tree_row(X, y, w, depth)
            print(f"{n // 1000:>5}kx{d:<4} {depth:>5} {t_fit * 1e3:>8.2f}ms {t_fp * 1e3:>8.2f}ms "
                  f"{t_skl * 1e3:>8.1f}ms {t_lgb * 1e3:>8.2f}ms {t_skl / t_fit:>9.1f} "
                  f"{t_fp / t_lgb:>9.2f}")


def boosting_loops(with_sklearn: bool) -> None:
    import lightgbm as lgb

    from robust_boosting.trees import HistTreeClassifier

    X, y = _data(100_000, 50)

    def ours():
        adaboost_loop(X, y, lambda: HistTreeClassifier(max_depth=3, n_jobs=N_THREADS), 200)

    def lgbm():
        lgb.LGBMClassifier(
            n_estimators=200, max_depth=3, num_leaves=8, n_jobs=N_THREADS, verbose=-1
        ).fit(X, y)

    # interleave to share the machine's noise
    t_ours, t_lgb = np.inf, np.inf
    for _ in range(3):
        t_ours = min(t_ours, best_time(ours, 1))
        t_lgb = min(t_lgb, best_time(lgbm, 1))
    print(f"200 rounds depth 3, 100k x 50 (binning included): ours {t_ours:.2f}s, "
          f"LightGBM {t_lgb:.2f}s, ratio ours/LightGBM {t_ours / t_lgb:.2f} (target <= 1.5)")

    X, y = _data(20_000, 20)
    t_st = best_time(
        lambda: adaboost_loop(X, y, lambda: HistTreeClassifier(max_depth=1, n_jobs=N_THREADS),
                              200),
        3,
    )
    msg = f"200 rounds stumps, 20k x 20: ours {t_st:.2f}s"
    if with_sklearn:
        from sklearn.ensemble import AdaBoostClassifier
        from sklearn.tree import DecisionTreeClassifier

        t0 = time.perf_counter()
        AdaBoostClassifier(DecisionTreeClassifier(max_depth=1), n_estimators=200).fit(X, y)
        t_skl = time.perf_counter() - t0
        msg += (f", scikit-learn AdaBoostClassifier {t_skl:.2f}s, speed-up "
                f"{t_skl / t_st:.0f}x (target >= 30x)")
    print(msg)


def _vm(field: str) -> int:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    raise RuntimeError(field)


def memory_child() -> None:
    """Run in a subprocess: peak RSS above the input during binning + 50 rounds."""
    from robust_boosting.trees import HistTreeClassifier

    warm = np.random.RandomState(0).rand(500, 50).astype(np.float32)
    adaboost_loop(warm, (warm[:, 0] > 0.5).astype(int),
                  lambda: HistTreeClassifier(max_depth=3, n_jobs=N_THREADS), 2)
    rng = np.random.default_rng(0)
    X = rng.standard_normal((1_000_000, 50), dtype=np.float32)
    y = (X[:, 0] + X[:, 1] > 0).astype(np.int64)
    base = _vm("VmRSS")
    with open("/proc/self/clear_refs", "w") as fh:  # reset VmHWM to the current RSS
        fh.write("5")
    t0 = time.perf_counter()
    adaboost_loop(X, y, lambda: HistTreeClassifier(max_depth=3, n_jobs=N_THREADS), 50)
    elapsed = time.perf_counter() - t0
    peak = _vm("VmHWM")
    print(f"1M x 50 float32 depth 3, 50 rounds: {elapsed:.1f}s, input {X.nbytes / 2**20:.0f} MiB, "
          f"peak above input {(peak - base) / 2**20:.0f} MiB")
    print(f"peak_above_input/input {(peak - base) / X.nbytes:.2f}")


def memory() -> str:
    r = subprocess.run(
        [sys.executable, __file__, "--memory-child"], capture_output=True, text=True, check=True
    )
    return r.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--memory-only", action="store_true")
    parser.add_argument("--memory-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.memory_child:
        memory_child()
        return
    if args.memory_only:
        print(memory())
        return
    cold, cached = compile_times()
    print(f"first call in a fresh process: {cold:.2f}s, again {cached:.2f}s")
    single_tree_table()
    boosting_loops(with_sklearn=not args.quick)
    if not args.quick:
        print(memory())


if __name__ == "__main__":
    main()
