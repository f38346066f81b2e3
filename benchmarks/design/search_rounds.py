"""Design experiment: a cheaper large-data search (the fold models at a higher learning
rate, or with fewer rounds), the final fit unchanged.

Above 5,000 rows the search has one candidate: its fold models only give the out-of-fold
probabilities (the suspects) and the final model runs its own 300 rounds whatever the
search's best round. On clean labels the fold models' early stopping runs 200-300 rounds,
most of the fit's time. Each variant ``name=rate:cap`` fits the fold models at learning rate
``rate`` for at most ``cap`` rounds (the final model keeps the default's rate and rounds);
prints per task the test error (%), label-issue F1, fit seconds and the search's best round.

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/design/search_rounds.py 0 100000 mc,hard 2,5 \\
        0,0.1,0.2,0.35 base=0.2:300 fast=0.4:150

Results: ``docs/noisy-default-design.md``, evidence item 31.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _noisy_tasks import fit_and_score, noisy_tasks, rate_variants, task_args  # noqa: E402

from robust_boosting import (
    SPLBoostClassifierCV,  # noqa: E402
    splboost_cv,  # noqa: E402
)

_original = splboost_cv._fit_candidates


def _searching_with(rate: float, cap: int):
    def fit_candidates(X, y, sw, folds, candidates, seed, n_jobs, trim, *args, **kwargs):
        changed = [dict(c, learning_rate=rate, n_estimators=min(cap, c["n_estimators"]))
                   for c in candidates]
        return _original(X, y, sw, folds, changed, seed, n_jobs, trim, *args, **kwargs)
    return fit_candidates


def main(argv: list[str]) -> None:
    warnings.simplefilter("ignore")
    seed, n, gens, ks, rates = task_args(argv[:5])
    variants = rate_variants(argv[5:])
    for gen, k, flip, X, y_fit, Xt, yt, flipped in noisy_tasks(seed, n, gens, ks, rates):
        out = [f"{gen} n={n} K={k} flips={flip:.2f}"]
        for name, (rate, cap) in variants.items():
            est = SPLBoostClassifierCV(random_state=seed)
            with mock.patch.object(splboost_cv, "_fit_candidates", _searching_with(rate, cap)):
                err, f1, seconds = fit_and_score(est, X, y_fit, Xt, yt, flipped)
            f1_text = "" if not flip else f" f1={f1:.3f}"
            out.append(f"{name}: err={err:.2f}{f1_text} s={seconds:.1f} "
                       f"best={est.best_params_['cv_n_estimators']} "
                       f"removed={len(est.label_issues_)}")
        print(" | ".join(out), flush=True)

if __name__ == "__main__":
    main(sys.argv[1:])
