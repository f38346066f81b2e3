"""Design experiment: a cheaper large-data search (the fold models at a higher learning
rate, or with fewer rounds), the final fit unchanged (unless ``--final``).

Above 5,000 rows the search has one candidate: its fold models only give the out-of-fold
probabilities (the suspects) and the final model runs its own 300 rounds whatever the
search's best round. On clean labels the fold models' early stopping runs 200-300 rounds,
most of the fit's time. Each variant ``name=rate:cap`` fits the fold models at learning rate
``rate`` for at most ``cap`` rounds (the final model keeps the default's rate and rounds);
prints per task the test error (%), label-issue F1, fit seconds and the search's best round.
With ``--final=rate:rounds`` the final model runs that many rounds at that rate in every
variant (``final_rate.py``'s patch), for a search and a final fit cut together.

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/design/search_rounds.py 0 100000 mc,hard 2,5 \\
        0,0.1,0.2,0.35 base=0.2:300 fast=0.4:150

    PYTHONPATH=src python benchmarks/design/search_rounds.py 0 100000 mc,hard 5,2 \\
        0,0.1,0.35 c60=0.2:60 --final=0.2:150

Results: ``docs/noisy-default-design.md``, evidence items 31 and 41.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _noisy_tasks import pop_option, print_patched_variants  # noqa: E402

from robust_boosting import splboost_cv  # noqa: E402

_original = splboost_cv._fit_candidates


def _searching_with(rate: float, cap: int):
    def fit_candidates(X, y, sw, folds, candidates, seed, n_jobs, trim, *args, **kwargs):
        changed = [dict(c, learning_rate=rate, n_estimators=min(cap, c["n_estimators"]))
                   for c in candidates]
        return _original(X, y, sw, folds, changed, seed, n_jobs, trim, *args, **kwargs)
    return fit_candidates


def _describe(est, rate, cap, X_test, y_test) -> str:
    return (f"best={est.best_params_['cv_n_estimators']} "
            f"removed={len(est.label_issues_)}")


def main(argv: list[str]) -> None:
    warnings.simplefilter("ignore")
    final, argv = pop_option(argv, "final")
    extra = None
    if final:
        from final_rate import _final_at

        rate, _, rounds = final.partition(":")
        extra = {"_make_booster": _final_at(float(rate), int(rounds))}
    print_patched_variants(argv, "_fit_candidates", _searching_with, _describe, extra)


if __name__ == "__main__":
    main(sys.argv[1:])
