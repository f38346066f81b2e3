"""Design experiment: out-of-fold probabilities averaged over the search's candidates.

On at most 5,000 rows the search has several candidates (depth-1 and depth-3 trees, the
symmetric candidate); the suspects and the removal decision come from the winner's
out-of-fold probabilities only. This compares three sources, per task (error % of the final
model on the clean test rows, label-issue F1 of ``label_issues_``): the winner's (``winner``,
the estimator as built), the mean over every candidate, each at its own best round plus the
patience (``all``), and the mean over the candidates whose held-out score is within 0.01 of
the best (``near``). JSON lines.

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/design/oof_average.py 0,1,2 1000 2,5

Results: ``docs/noisy-default-design.md``, evidence item 38.
"""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _noisy_tasks import noisy_tasks  # noqa: E402
from bench_noisy_default import prf  # noqa: E402

import robust_boosting.splboost_cv as sc  # noqa: E402
from robust_boosting import SPLBoostClassifierCV  # noqa: E402

#: ``near``: the candidates within this of the best mean held-out score
MARGIN = 0.01
_STASH: dict = {}
_fit_candidates, _proba_at = sc._fit_candidates, sc._proba_at
_MODE = ["winner"]


def _stashing_fit(X, y, sw, folds, cands, seed, n_jobs, trim, *args, **kwargs):
    models, curves = _fit_candidates(X, y, sw, folds, cands, seed, n_jobs, trim, *args, **kwargs)
    _STASH.update(models=models, curves=curves, cands=cands)
    return models, curves


def _averaged_proba(est, X, t):
    """The winner's fold model ``est`` at stage ``t``, or the chosen candidates' mean."""
    if _MODE[0] == "winner":
        return _proba_at(est, X, t)
    models, curves, cands = _STASH["models"], _STASH["curves"], _STASH["cands"]
    fold = next(j for row in models for j, m in enumerate(row) if m is est)
    best_round = np.argmin(curves.mean(axis=1), axis=1)
    score = -curves[np.arange(len(cands)), :, best_round].mean(axis=1)
    use = [c for c in range(len(models))
           if _MODE[0] == "all" or score[c] >= score.max() - MARGIN]
    return np.mean([_proba_at(models[c][fold], X, min(int(best_round[c]) + sc._PATIENCE,
                                                        cands[c]["n_estimators"] - 1))
                    for c in use], axis=0).astype(np.float32)


def main(argv: list[str]) -> None:
    warnings.simplefilter("ignore")
    sc._fit_candidates, sc._proba_at = _stashing_fit, _averaged_proba
    n, class_counts = int(argv[1]), [int(k) for k in argv[2].split(",")]
    for seed in [int(s) for s in argv[0].split(",")]:
        for gen, k, rate, X, y, Xt, yt, flipped in noisy_tasks(
                seed, n, ["mc", "hard"], class_counts, [0.0, 0.1, 0.2, 0.35]):
            row = dict(seed=seed, gen=gen, K=k, rate=rate)
            mask = np.zeros(len(y), bool)
            mask[flipped] = True
            for mode in ("winner", "all", "near"):
                _MODE[0] = mode
                est = SPLBoostClassifierCV(random_state=seed).fit(X, y)
                row[f"e_{mode}"] = round(100 * float(np.mean(est.predict(Xt) != yt)), 2)
                if rate:
                    row[f"f1_{mode}"] = round(prf(est.label_issues_, mask)[2], 3)
                row[f"kept_{mode}"] = not est.remove_label_issues_
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
