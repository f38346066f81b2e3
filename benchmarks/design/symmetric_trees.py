"""Design experiment: symmetric (oblivious) trees in ``SPLBoostClassifierCV``'s large-data search.

Fits ``SPLBoostClassifierCV`` with the leaf-wise search (``grow_policy="depthwise"``: 31
leaves of at least 20 rows, λ = 100) and with symmetric trees of the given depths and L2
penalties (``grow_policy="symmetric"``, ``min_samples_leaf=1``) on
``benchmarks/bench_scale.py``'s data, and prints, per task and variant, the error (%) on
20,000 clean test rows, the label-issue F1 of ``excluded_samples_`` against the flipped
rows and the fit time. Arguments: seed, rows, generators, class counts, flip rates and
variants (comma-separated lists; a variant is ``leafwise`` or ``d<depth>l<λ>``), for
example::

    PYTHONPATH=src python benchmarks/design/symmetric_trees.py 0 10000 hard,mc 2,5 0,0.2 \\
        leafwise,d6l3,d6l10,d6l30,d8l10
    PYTHONPATH=src python benchmarks/design/symmetric_trees.py 0 100000 mc,hard 2,5 0.2 \\
        leafwise,d7l10,d8l10

Results: ``docs/design/0012-symmetric-trees.md``.
"""

from __future__ import annotations

import re
import sys
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _noisy_tasks import fitted_variants, task_args  # noqa: E402

from robust_boosting import SPLBoostClassifierCV  # noqa: E402


def _estimator(variant: str, seed: int) -> SPLBoostClassifierCV:
    if variant == "leafwise":
        return SPLBoostClassifierCV(grow_policy="depthwise", random_state=seed)
    match = re.fullmatch(r"d(\d+)l([0-9.]+)", variant)
    if match is None:
        raise SystemExit(f"unknown variant {variant!r}: use leafwise or d<depth>l<lambda>")
    return SPLBoostClassifierCV(grow_policy="symmetric", max_depth=int(match[1]),
                                l2_regularization=float(match[2]), min_samples_leaf=1,
                                random_state=seed)


def main(argv: list[str]) -> None:
    warnings.simplefilter("ignore")
    seed, n, gens, ks, rates = task_args(argv)
    variants = argv[5].split(",")
    for gen, k, rate, variant, _, err, f1, secs in fitted_variants(
            seed, n, gens, ks, rates, variants, lambda v: _estimator(v, seed)):
        print(f"{gen:4s} n={n} K={k} flips={rate:.2f} {variant:9s} "
              f"error={err:6.2f} F1={f1:.3f} fit={secs:5.1f}s", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
