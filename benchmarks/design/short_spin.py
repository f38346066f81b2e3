"""The kernels' OpenMP wait (docs/design/0046-short-spin.md).

``--lightgbm``: LightGBM's default fits (every core) on the held-out classification
tables of the real-table benchmark (split 0, the least of 3 fits per table, summed), in
a process that imports ``robust_boosting`` first and in one that does not.
``--busy``: ``SPLBoostClassifierCV`` with ``n_jobs=2`` and ``n_jobs=1`` (alternating,
medians of ``--repeats``) on ``make_classification`` (20,000 × 20, 10 % flipped) while two
processes spin on the cores. Set ``GOMP_SPINCOUNT`` (or ``OMP_WAIT_POLICY``) in the
environment to measure another wait: the package keeps a setting the user made.

    PYTHONPATH=src python benchmarks/design/short_spin.py --lightgbm
    PYTHONPATH=src python benchmarks/design/short_spin.py --busy
    OMP_WAIT_POLICY=PASSIVE PYTHONPATH=src python benchmarks/design/short_spin.py --busy
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def lightgbm_fits(import_first: bool) -> float:
    """Seconds of LightGBM's default fits over the held-out tables (in this process)."""
    if import_first:
        import robust_boosting  # noqa: F401
    # LightGBM before bench_real_tables (which imports robust_boosting): without the
    # package first, LightGBM's runtime keeps libgomp's default wait
    import lightgbm  # noqa: I001
    import bench_real_tables as bench
    from sklearn.model_selection import train_test_split

    total = 0.0
    for spec in bench.select_tables("classification", acceptance=True):
        X, y = bench.load(spec)
        X_tr, _, y_tr, _ = train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)
        best = np.inf
        for _ in range(3):
            start = time.perf_counter()
            lightgbm.LGBMClassifier(verbose=-1, random_state=0).fit(X_tr, y_tr)
            best = min(best, time.perf_counter() - start)
        total += best
    return total


def busy(repeats: int) -> None:
    from sklearn.datasets import make_classification

    from robust_boosting import SPLBoostClassifierCV

    X, y = make_classification(20000, 20, random_state=0)
    flip = np.random.RandomState(1).rand(y.size) < 0.1
    y[flip] = 1 - y[flip]
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        times: dict = {1: [], 2: []}
        for _ in range(repeats):
            for n_jobs in (2, 1):
                start = time.perf_counter()
                SPLBoostClassifierCV(random_state=0, n_jobs=n_jobs).fit(X, y)
                times[n_jobs].append(time.perf_counter() - start)
    finally:
        for p in spinners:
            p.kill()
    two, one = statistics.median(times[2]), statistics.median(times[1])
    print(f"busy machine, 20,000 x 20: n_jobs=2 {two:.2f} s, n_jobs=1 {one:.2f} s, "
          f"ratio {two / one:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lightgbm", action="store_true")
    parser.add_argument("--busy", action="store_true")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--one", choices=["first", "without"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    if args.one:
        print(lightgbm_fits(args.one == "first"))
        return
    if args.lightgbm:
        for case in ("without", "first"):  # a fresh process each: the runtime starts once
            out = subprocess.run([sys.executable, __file__, "--one", case],
                                 capture_output=True, text=True, check=True).stdout
            label = ("after import robust_boosting" if case == "first"
                     else "without robust_boosting")
            print(f"LightGBM default fits, {label}: {float(out):.2f} s")
    if args.busy:
        busy(args.repeats)


if __name__ == "__main__":
    main()
