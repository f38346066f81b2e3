"""Design experiment: the final fit of the large-data search at a higher learning rate over
fewer rounds (the search unchanged).

Above 5,000 rows the final model runs 300 rounds at rate 0.2 and takes more than half of a
fit's time at 100,000 rows with 5 classes (item 29). Each variant ``name=rate:rounds`` fits the
final model at that rate for that many rounds (``base=0.2:300`` is the default); with
``rounds`` 0, ``rate`` is a factor on the winner's own rate and its rounds are divided by it
(``half=0.5:0``: half the rate over twice the rounds, whichever candidate won); prints per
task the test error (%) after the variant's last round and after some earlier rounds (the
staged predictions), the label-issue F1 (the search is the same, so it is too) and the fit
seconds. With ``--depth=D`` every variant's final trees have depth ``D`` (the search's keep
theirs).

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/design/final_rate.py 0 10000 mc,hard 2,5 \\
        0,0.1,0.2,0.35 base=0.2:300 fast=0.3:200

    PYTHONPATH=src python benchmarks/design/final_rate.py 0 1000 mc,hard 2,5 \\
        0,0.1,0.2,0.35 base=1:0 half=0.5:0

    PYTHONPATH=src python benchmarks/design/final_rate.py 0 100000 hard,mc 5 0.1,0.35 \\
        d6=0.2:300 d6r1=0.1:600 --depth=6

Results: ``docs/noisy-default-design.md``, evidence items 33, 39 and 41.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _noisy_tasks import pop_option, print_patched_variants  # noqa: E402

from robust_boosting import splboost_cv  # noqa: E402

_original = splboost_cv._make_booster


def _final_at(rate: float, rounds: int, depth: int | None = None):
    def make(tree, learning_rate, drop_fraction, n_estimators, *args, **kwargs):
        if n_estimators > 1:  # the final fit (the search's template has one round)
            if depth is not None:
                tree = dict(tree, max_depth=depth)
            if rounds:
                learning_rate, n_estimators = rate, rounds
            else:
                learning_rate, n_estimators = (learning_rate * rate,
                                               int(round(n_estimators / rate)))
        return _original(tree, learning_rate, drop_fraction, n_estimators, *args, **kwargs)
    return make


def _staged_marks(est, rate, rounds, X_test, y_test) -> str:
    """The test error after some earlier rounds (half-way for a factor variant)."""
    staged = [100 * float(np.mean(p != y_test)) for p in est.staged_predict(X_test)]
    if not rounds:
        return f"@half={staged[len(staged) // 2 - 1]:.2f}"
    return " ".join(f"@{r}={staged[r - 1]:.2f}" for r in (100, 150, 200, 250)
                    if r < len(staged))


def main(argv: list[str]) -> None:
    warnings.simplefilter("ignore")
    depth, argv = pop_option(argv, "depth")

    def final_at(rate: float, rounds: int):
        return _final_at(rate, rounds, None if depth is None else int(depth))

    print_patched_variants(argv, "_make_booster", final_at, _staged_marks)


if __name__ == "__main__":
    main(sys.argv[1:])
