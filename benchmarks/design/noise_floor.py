"""Design experiment: does the out-of-fold model's confidence tell clean labels from noisy ones?

Under flips that do not depend on the features, the probability of the given label is at most
``1 - rho`` everywhere (``rho`` the flip rate of the true class), so the most confident
out-of-fold probabilities stay below 1 (the "anchor points" of Liu & Tao 2016); on clean labels
they reach it wherever the classes do not overlap. For each task this fits
``SPLBoostClassifierCV()`` twice, with and without the removal of its suspects, and prints the
test error (%) of both, the confident-learning noise-rate estimate and, per quantile ``q``, the
floor ``1 - quantile_q(p_k)`` over the rows whose out-of-fold argmax is ``k``, averaged over the
classes (as JSON lines, for ``--analyse``).

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/design/noise_floor.py synthetic 0 1000 mc,hard 2,5 0,0.1,0.2,0.35
    PYTHONPATH=src python benchmarks/design/noise_floor.py bundled 0 0,1
    python benchmarks/design/noise_floor.py --analyse FILE [FILE ...]

Results: ``docs/design/0019-keep-rows-when-labels-look-clean.md``.
"""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

QUANTILES = (0.8, 0.9, 0.95, 0.99)


def floors(proba: np.ndarray) -> dict:
    from robust_boosting.splboost_cv import anchor_noise_rate

    return {f"floor{q}": float(anchor_noise_rate(proba, q)) for q in QUANTILES}


def run(tasks) -> None:
    from _noisy_tasks import fit_and_score

    from robust_boosting import SPLBoostClassifierCV

    for name, seed, kind, rate, X, y, Xt, yt, flipped in tasks:
        row = dict(task=name, seed=seed, kind=kind, rate=rate, K=int(np.unique(y).size))
        for remove in (True, False):
            est = SPLBoostClassifierCV(random_state=seed, remove_label_issues=remove)
            row[f"err_{remove}"], _, row[f"s_{remove}"] = fit_and_score(est, X, y, Xt, yt,
                                                                        flipped)
            if remove:
                row.update(floors(est.oof_proba_), noise_rate=est.noise_rate_,
                           removed=len(est.label_issues_) / len(y))
        print(json.dumps(row), flush=True)


def analyse(paths) -> None:
    import pandas as pd

    d = pd.concat([pd.read_json(p, lines=True) for p in paths], ignore_index=True)
    d["gain"] = d["err_True"] - d["err_False"]  # > 0: keeping every row is better
    cols = [c for c in d.columns if c.startswith("floor")] + ["noise_rate", "removed"]
    for group, g in d.groupby(["task" if d["task"].str.startswith("bundled").all() else "K",
                                "rate"]):
        print(group, f"n={len(g)} keep-better={np.mean(g['gain'] > 0):.2f} "
              f"gain={g['gain'].mean():+.2f} " + " ".join(
                  f"{c}={g[c].mean():.3f}" for c in cols))


def main(argv: list[str]) -> None:
    warnings.simplefilter("ignore")
    if argv[0] == "--analyse":
        analyse(argv[1:])
        return
    from _noisy_tasks import bundled_tasks, noisy_tasks, task_args

    if argv[0] == "synthetic":
        seed, n, gens, ks, rates = task_args(argv[1:6])
        run((f"{g}-{n}", seed, "sym", r, X, y, Xt, yt, fl)
            for g, k, r, X, y, Xt, yt, fl in noisy_tasks(seed, n, gens, ks, rates))
    else:
        from _noisy_tasks import BUNDLED
        seed, splits = int(argv[1]), [int(s) for s in argv[2].split(",")]
        run((f"bundled-{ds}", s, kind, r, X, y, Xt, yt, np.flatnonzero(fl))
            for ds, s, kind, r, X, y, Xt, yt, fl in bundled_tasks(BUNDLED, seed, splits))


if __name__ == "__main__":
    main(sys.argv[1:])
