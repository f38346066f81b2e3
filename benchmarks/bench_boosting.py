"""Boosting speed and memory: ours against scikit-learn's AdaBoost and LightGBM, same run.

Run:  python benchmarks/bench_boosting.py            (about 2-3 minutes on 2 cores)
      python benchmarks/bench_boosting.py --memory   (adds the 1,000,000 x 50 memory check)
      python benchmarks/bench_boosting.py --grid [--sizes 10000x20 100000x50]
          every tree shape (stumps, depth 3, depth 6, 31 leaves best-first, symmetric
          depth 6 and 8 against LightGBM's trees of that depth) x booster
          (AdaBoost's classification trees, LogitBoost's Newton trees with 2 and 5
          classes) x size x 1 and 2 threads, ours / LightGBM in the same run
          (--shapes "sym 8" ... for some shapes only)
      python benchmarks/bench_boosting.py --grid-memory
          peak memory of a 1,000,000 x 50 fit, ours / LightGBM

Absolute times drift on shared machines; the ratios printed are what to compare
(issue 3's targets: stumps >= 30x faster than scikit-learn; depth-3 trees <= 1.5x
LightGBM's time; SPLBoost <= 1.05x AdaBoost's time per round; peak memory above the
input <= 2x the input's size).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import textwrap
import time
import warnings

import numpy as np
from sklearn.datasets import make_classification


def best_of(fn, repeat: int = 1) -> float:
    """Smallest wall time of ``repeat`` calls of ``fn``."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def compile_times() -> tuple[float, float]:
    """First-call time of a tiny boosted fit in a fresh process: cold cache, then warm cache."""
    code = textwrap.dedent(
        """
        import time, numpy as np
        start = time.perf_counter()
        from robust_boosting import AdaBoostClassifier, SPLBoostClassifier
        from robust_boosting.trees import HistTreeClassifier, HistTreeRegressor
        X = np.random.default_rng(0).normal(size=(200, 3)); y = (X[:, 0] > 0).astype(int)
        AdaBoostClassifier(HistTreeClassifier(max_depth=2), n_estimators=3).fit(X, y).predict(X)
        HistTreeRegressor(max_depth=2).fit(X, X[:, 1]).predict(X)
        print(time.perf_counter() - start)
        """
    )
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        runs = [
            float(subprocess.run([sys.executable, "-c", code], env=env, check=True,
                                 capture_output=True, text=True).stdout.strip())
            for _ in range(2)
        ]
    return runs[0], runs[1]


def _fit_peak(imports: str, model: str, n: int, d: int) -> tuple[float, float]:
    """(input MB, peak RSS growth in MB) of ``model.fit`` on n x d float32 data, in a fresh
    process: ``imports`` are run first, ``model`` is the expression of the unfitted model
    (fitted once on 500 rows first: one-off allocations are not the model's)."""
    code = textwrap.dedent(
        """
        import numpy as np
        def hwm():
            for line in open("/proc/self/status"):
                if line.startswith("VmHWM"):
                    return int(line.split()[1]) / 1024
        """
    ) + imports + textwrap.dedent(
        f"""
        make = lambda: {model}
        Xs = np.random.default_rng(1).normal(size=(500, 4)).astype(np.float32)
        make().fit(Xs, (Xs[:, 0] > 0).astype(int))
        rng = np.random.default_rng(0)
        X = np.empty(({n}, {d}), dtype=np.float32)
        for j in range(0, {d}, 10):
            X[:, j:j + 10] = rng.standard_normal(({n}, min(10, {d} - j)), dtype=np.float32)
        y = (X[:, :5].sum(axis=1) + rng.standard_normal({n}, dtype=np.float32) > 0).astype(np.int8)
        before = hwm()
        make().fit(X, y)
        print(X.nbytes / 2**20, hwm() - before)
        """
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    data_mb, growth = map(float, out.stdout.split())
    return data_mb, growth


def peak_memory(n: int, d: int, depth: int, rounds: int) -> tuple[float, float]:
    """(input MB, peak RSS growth during fit in MB) for float32 input, in a fresh process."""
    return _fit_peak(
        "from robust_boosting import AdaBoostClassifier\n"
        "from robust_boosting.trees import HistTreeClassifier\n",
        f"AdaBoostClassifier(HistTreeClassifier(max_depth={depth}), n_estimators={rounds}, "
        "random_state=0)", n, d)


SHAPES = {  # name: (our tree's parameters, LightGBM's)
    "stumps": (dict(max_depth=1), dict(max_depth=1, num_leaves=2)),
    "depth 3": (dict(max_depth=3), dict(max_depth=3, num_leaves=8)),
    "depth 6": (dict(max_depth=6), dict(max_depth=6, num_leaves=64)),
    "31 leaves": (dict(max_depth=None, max_leaf_nodes=31), dict(max_depth=-1, num_leaves=31)),
    # symmetric (oblivious) regression trees, SPLBoostClassifierCV's above 5,000 rows;
    # LightGBM has none: its trees of the same depth and as many leaves
    "sym 6": (dict(max_depth=6, grow_policy="symmetric"), dict(max_depth=6, num_leaves=64)),
    "sym 8": (dict(max_depth=8, grow_policy="symmetric"), dict(max_depth=8, num_leaves=256)),
}
#: the shapes that are regression trees only (not for AdaBoost's classification trees)
REGRESSION_ONLY = {"sym 6", "sym 8"}
KINDS = {  # name: (number of classes, our booster)
    "AdaBoost (classification trees)": (2, "ada"),
    "LogitBoost (Newton trees), 2 classes": (2, "logit"),
    "LogitBoost (Newton trees), 5 classes": (5, "logit"),
}


def _grid_data(n: int, d: int, n_classes: int):
    return make_classification(n, d, n_informative=min(10, d), n_classes=n_classes,
                               flip_y=0.05, random_state=0)


def _grid_models(kind: str, shape: str, threads: int, rounds: int):
    from lightgbm import LGBMClassifier

    from robust_boosting import AdaBoostClassifier, LogitBoostClassifier
    from robust_boosting.trees import HistTreeClassifier, HistTreeRegressor

    ours_tree, lgb_tree = SHAPES[shape]
    if kind == "ada":
        ours = AdaBoostClassifier(HistTreeClassifier(**ours_tree, n_jobs=threads),
                                  n_estimators=rounds, random_state=0)
    else:
        ours = LogitBoostClassifier(HistTreeRegressor(**ours_tree, n_jobs=threads),
                                    n_estimators=rounds, learning_rate=0.1)
    # the same tree shape and leaf rules as ours (min_samples_leaf=1)
    lgb = LGBMClassifier(n_estimators=rounds, learning_rate=0.1, n_jobs=threads, verbose=-1,
                         min_child_samples=1, **lgb_tree)
    return ours, lgb


def grid(sizes, threads_list, pairs: int, shapes=None) -> None:
    """ours / LightGBM for every tree shape, booster kind, size and thread count.

    Each cell fits both models (binning included) ``pairs`` times, alternating, and
    prints the best time of each and the ratio; 1,000,000-row cells run 20 rounds,
    the others 100 (the ratio is per round either way: both run the same rounds)."""
    warnings.simplefilter("ignore")
    print(f"{'rows x features':>16} | {'booster':<38} | {'tree':<9} | thr | rounds | "
          f"{'ours s':>7} | {'LightGBM s':>10} | ours / LightGBM")
    for n, d in sizes:
        rounds = 20 if n >= 1_000_000 else 100
        for kind_name, (n_classes, kind) in KINDS.items():
            X, y = _grid_data(n, d, n_classes)
            for shape in shapes or SHAPES:
                if kind == "ada" and shape in REGRESSION_ONLY:
                    continue
                for threads in threads_list:
                    ours, lgb = _grid_models(kind, shape, threads, rounds)
                    if n < 1_000_000:  # warm-up
                        _grid_models(kind, shape, threads, 2)[0].fit(X[:2000], y[:2000])
                    t_ours, t_lgb = [], []
                    for _ in range(pairs):
                        t_ours.append(best_of(lambda: ours.fit(X, y)))  # noqa: B023
                        t_lgb.append(best_of(lambda: lgb.fit(X, y)))  # noqa: B023
                    a, b = min(t_ours), min(t_lgb)
                    print(f"{n:>8,} x {d:<5} | {kind_name:<38} | {shape:<9} | {threads:>3} | "
                          f"{rounds:>6} | {a:7.3f} | {b:10.3f} | {a / b:.2f}", flush=True)


def peak_memory_vs_lightgbm(n: int, d: int, rounds: int) -> None:
    """Peak RSS growth of a fit on n x d float32 (fresh process each), ours / LightGBM."""
    ours_mb = _fit_peak(
        "from robust_boosting import LogitBoostClassifier\n"
        "from robust_boosting.trees import HistTreeRegressor\n",
        f"LogitBoostClassifier(HistTreeRegressor(max_depth=6, n_jobs=2), n_estimators={rounds}, "
        "learning_rate=0.1)", n, d)
    lgb_mb = _fit_peak(
        "from lightgbm import LGBMClassifier\n",
        f"LGBMClassifier(n_estimators={rounds}, max_depth=6, num_leaves=64, "
        "min_child_samples=1, n_jobs=2, verbose=-1)", n, d)
    print(f"peak RSS growth of a fit, {n:,} x {d} float32 ({ours_mb[0]:.0f} MB), depth-6 "
          f"LogitBoost / LightGBM, {rounds} rounds: ours {ours_mb[1]:.0f} MB, LightGBM "
          f"{lgb_mb[1]:.0f} MB, ours / LightGBM {ours_mb[1] / lgb_mb[1]:.2f}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--memory", action="store_true", help="also run the 1e6 x 50 memory check")
    parser.add_argument("--threads", type=int, default=2, help="threads for both libraries")
    parser.add_argument("--pairs", type=int, default=5,
                        help="alternating fits of each pair compared (machine noise)")
    parser.add_argument("--grid", action="store_true",
                        help="only the grid: every tree shape x booster x size x threads")
    parser.add_argument("--sizes", nargs="+", default=["10000x20", "100000x50", "1000000x50"],
                        help="grid sizes, rows x features")
    parser.add_argument("--threads-list", nargs="+", type=int, default=[1, 2],
                        help="grid thread counts")
    parser.add_argument("--shapes", nargs="+", choices=list(SHAPES), default=None,
                        help="grid tree shapes (default: all)")
    parser.add_argument("--grid-memory", action="store_true",
                        help="only the peak memory at 1,000,000 x 50, ours / LightGBM")
    args = parser.parse_args(argv)
    if args.grid_memory:
        peak_memory_vs_lightgbm(1_000_000, 50, 20)
        return 0
    if args.grid:
        sizes = [tuple(int(v) for v in s.split("x")) for s in args.sizes]
        grid(sizes, args.threads_list, min(args.pairs, 2), args.shapes)
        return 0

    from lightgbm import LGBMClassifier
    from sklearn.ensemble import AdaBoostClassifier as SkAdaBoost
    from sklearn.tree import DecisionTreeClassifier

    from robust_boosting import AdaBoostClassifier, BoostingStoppedWarning, SPLBoostClassifier
    from robust_boosting.trees import HistTreeClassifier

    warnings.simplefilter("ignore", BoostingStoppedWarning)
    cold, warm = compile_times()
    print(f"first call in a fresh process: {cold:.2f} s, again {warm:.2f} s")

    # warm-up in this process
    Xw, yw = make_classification(500, 5, random_state=0)
    AdaBoostClassifier(HistTreeClassifier(max_depth=3), n_estimators=2).fit(Xw, yw)

    print("\n1. stumps, 200 rounds, make_classification(20000, 20, n_informative=10, flip_y=0.1)")
    X, y = make_classification(20000, 20, n_informative=10, flip_y=0.1, random_state=0)
    ours = best_of(lambda: AdaBoostClassifier(HistTreeClassifier(max_depth=1), n_estimators=200,
                                              random_state=0).fit(X, y), repeat=3)
    sk = best_of(lambda: SkAdaBoost(DecisionTreeClassifier(max_depth=1), n_estimators=200,
                                    random_state=0).fit(X, y))
    lgb = best_of(lambda: LGBMClassifier(n_estimators=200, max_depth=1, num_leaves=2,
                                         n_jobs=args.threads, verbose=-1).fit(X, y), repeat=3)
    print(f"   ours {ours:.3f} s | scikit-learn AdaBoost {sk:.2f} s | LightGBM {lgb:.3f} s")
    print(f"   speed-up over scikit-learn: {sk / ours:.1f}x (target >= 30x); "
          f"ours / LightGBM: {ours / lgb:.2f}")

    print("\n2. depth-3 trees, 200 rounds, 100,000 x 50")
    X, y = make_classification(100_000, 50, n_informative=20, flip_y=0.1, random_state=0)
    ada = AdaBoostClassifier(HistTreeClassifier(max_depth=3), n_estimators=200, random_state=0)
    t_ours, t_lgb = [], []
    for _ in range(args.pairs):  # alternate, so that both see the same machine load
        t_ours.append(best_of(lambda: ada.fit(X, y)))
        t_lgb.append(best_of(lambda: LGBMClassifier(n_estimators=200, max_depth=3, num_leaves=8,
                                                    n_jobs=args.threads, verbose=-1).fit(X, y)))
    ours, lgb = min(t_ours), min(t_lgb)
    paired = np.median(np.array(t_ours) / np.array(t_lgb))
    print(f"   ours {ours:.3f} s ({ada.n_estimators_} rounds) | LightGBM {lgb:.3f} s")
    print(f"   ours / LightGBM: {ours / lgb:.2f} (best of each; median of the {args.pairs} "
          f"paired ratios {paired:.2f}) (target <= 1.5)")

    print("\n3. SPLBoost (hard) vs AdaBoost, cost per round, same data and trees")
    spl = SPLBoostClassifier(HistTreeClassifier(max_depth=3), n_estimators=200, age=3.0,
                             random_state=0)
    # alternate the two fits so that both see the same machine load
    t_ada, t_spl = [], []
    for _ in range(args.pairs):
        t_ada.append(best_of(lambda: ada.fit(X, y)) / ada.n_estimators_)
        t_spl.append(best_of(lambda: spl.fit(X, y)) / spl.n_estimators_)
    per_ada, per_spl = min(t_ada), min(t_spl)
    paired = np.median(np.array(t_spl) / np.array(t_ada))
    print(f"   AdaBoost {1e3 * per_ada:.2f} ms/round | SPLBoost {1e3 * per_spl:.2f} ms/round "
          f"({spl.n_estimators_} rounds, {int(spl.n_selected_[-1])} of {len(y)} samples kept)")
    print(f"   SPLBoost / AdaBoost per round: {per_spl / per_ada:.3f} (best of each; median of "
          f"the {args.pairs} paired ratios {paired:.3f}) (target <= 1.05)")

    if args.memory:
        print("\n4. peak memory, 1,000,000 x 50 float32, depth 3, 50 rounds")
        data_mb, growth = peak_memory(1_000_000, 50, 3, 50)
        print(f"   input {data_mb:.0f} MB, peak growth during fit {growth:.0f} MB: "
              f"{growth / data_mb:.2f}x the input (target <= 2)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
