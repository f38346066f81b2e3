"""Design experiment: how many folds the large-data search of ``SPLBoostClassifierCV`` needs.

Fits ``SPLBoostClassifierCV(cv=c)`` for each fold count ``c`` on
``benchmarks/bench_scale.py``'s data and prints, per task and fold count, the error (%)
on 20,000 clean test rows, the label-issue F1 of ``excluded_samples_`` against the
flipped rows, the fit time and the search's time (the fold models' batched pass).
Arguments: seed, rows, generators, class counts, flip rates and fold counts
(comma-separated lists), for example::

    PYTHONPATH=src python benchmarks/design/search_folds.py 0 100000 mc,hard 2,5 \\
        0,0.1,0.2,0.35 3,2

Results: ``docs/noisy-default-design.md``, evidence item 20.
"""

from __future__ import annotations

import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _noisy_tasks import fitted_variants, task_args  # noqa: E402

import robust_boosting.splboost_cv as _cv  # noqa: E402
from robust_boosting import SPLBoostClassifierCV  # noqa: E402


def main(argv: list[str]) -> None:
    warnings.simplefilter("ignore")
    seed, n, gens, ks, rates = task_args(argv)
    fold_counts = [int(v) for v in argv[5].split(",")]
    search_secs = []
    inner = _cv._fit_candidates

    def timed(*args, **kwargs):
        t = time.perf_counter()
        out = inner(*args, **kwargs)
        search_secs.append(time.perf_counter() - t)
        return out

    _cv._fit_candidates = timed
    for gen, k, rate, folds, _, err, f1, secs in fitted_variants(
            seed, n, gens, ks, rates, fold_counts,
            lambda c: SPLBoostClassifierCV(cv=c, random_state=seed)):
        print(f"{gen:4s} n={n} K={k} flips={rate:.2f} cv={folds} "
              f"error={err:6.2f} F1={f1:.3f} fit={secs:5.1f}s "
              f"search={search_secs[-1]:5.1f}s", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
