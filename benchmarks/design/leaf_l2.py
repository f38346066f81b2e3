"""Design experiment: an L2 penalty on the leaf values in ``SPLBoostClassifierCV``'s large-data search.

Fits ``SPLBoostClassifierCV(l2_regularization=λ)`` for each ``λ`` on
``benchmarks/bench_scale.py``'s data (``mc`` and ``hard`` generators, 2 and 5 classes)
and prints, per task and ``λ``, the error (%) on 20,000 clean test rows, the label-issue
F1 of ``excluded_samples_`` against the flipped rows, the fit time and the search's
chosen round count. Arguments: seed, rows, penalties, generators, class counts and
flip rates (comma-separated lists), for example::

    PYTHONPATH=src python benchmarks/design/leaf_l2.py 0 10000 0,3,10,30,100,300 mc,hard 2,5 0,0.2
    PYTHONPATH=src python benchmarks/design/leaf_l2.py 1 10000 0,100 mc,hard 2,5 0.1,0.35
    PYTHONPATH=src python benchmarks/design/leaf_l2.py 0 100000 0,100 mc,hard 2,5 0,0.1,0.2,0.35

Results: ``docs/design/0011-leaf-l2-penalty.md``.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _noisy_tasks import fitted_variants  # noqa: E402

from robust_boosting import SPLBoostClassifierCV  # noqa: E402


def _floats(arg: str) -> list[float]:
    return [float(v) for v in arg.split(",")]


def main(argv: list[str]) -> None:
    warnings.simplefilter("ignore")
    seed, n = int(argv[0]), int(argv[1])
    lams = _floats(argv[2])
    gens = argv[3].split(",") if len(argv) > 3 else ["mc", "hard"]
    ks = [int(v) for v in argv[4].split(",")] if len(argv) > 4 else [2, 5]
    rates = _floats(argv[5]) if len(argv) > 5 else [0.0, 0.2, 0.35]
    for gen, k, rate, lam, est, err, f1, secs in fitted_variants(
            seed, n, gens, ks, rates, lams,
            lambda v: SPLBoostClassifierCV(l2_regularization=v, random_state=seed)):
        print(f"{gen} n={n} K={k} flips {rate:.2f} seed {seed} l2 {lam:g}: "
              f"error {err:.2f} F1 {f1:.3f} {secs:.1f} s "
              f"{est.best_params_['cv_n_estimators']} rounds", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
