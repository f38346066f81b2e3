"""Design experiment: the small-data search of ``SPLBoostClassifierCV`` joined with the
large-data candidate, the search's own held-out score choosing between them.

On at most 5,000 rows the ``"auto"`` search fits depth-1 and depth-3 trees (learning rate
0.3, at most 100 rounds); above, one candidate of symmetric depth-6 trees (learning rate
0.2, at most 300 rounds, an L2 penalty of 10 rows). This script fits both searches with
the same ``random_state`` (hence the same folds and seeds) and simulates their union:
the union's model is the one whose search reports the better held-out score
(``best_score_``), since the union's search would fit exactly these candidates and its
final fit depends only on the winner. It prints, per flip rate, the mean test error (%)
and label-issue F1 of the small search, the large candidate and the union, and how often
the union picks the large candidate; ``byacc``: the union choosing by the out-of-fold
accuracy against the given labels instead of the held-out log-loss.

Usage (from the repository root)::

    # bench_scale's synthetic data: seed, rows, generators, classes, rates
    PYTHONPATH=src python benchmarks/design/union_search.py synth 0 1000 mc,hard 2,5 0,0.1,0.2,0.35
    # the bundled sets, as bench_noisy_default.py makes its tasks: seed, splits
    PYTHONPATH=src python benchmarks/design/union_search.py bundled 0 0,1

Results: ``docs/design/0015-union-search.md``.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _noisy_tasks import BUNDLED, bundled_tasks, noisy_tasks, scores, task_args  # noqa: E402

from robust_boosting import SPLBoostClassifierCV  # noqa: E402

#: the small-data search alone (the default's own search is the union since 2e83b59)
SMALL = dict(grow_policy="depthwise")
#: the large-data candidate (``_AUTO_LARGE`` of ``splboost_cv.py``), given explicitly
LARGE = dict(max_depth=6, learning_rate=0.2, n_estimators=300, l2_regularization=10.0,
             grow_policy="symmetric", min_samples_leaf=1)


def both(seed, X, y_fit, X_test, y_test, flipped) -> dict:
    """Each search's test error, F1 and held-out score on one task."""
    out = {}
    for name, params in (("small", SMALL), ("large", LARGE)):
        est = SPLBoostClassifierCV(random_state=seed, **params).fit(X, y_fit)
        err, f1 = scores(est, X_test, y_test, flipped)
        y_idx = np.searchsorted(est.classes_, y_fit)
        acc = float(np.mean(np.argmax(est.oof_proba_, axis=1) == y_idx))
        out |= {f"{name}_err": err, f"{name}_f1": f1, f"{name}_score": est.best_score_,
                f"{name}_acc": acc}
    return out


def main(argv: list[str]) -> None:
    warnings.simplefilter("ignore")
    rows = []
    if argv[0] == "bundled":
        tasks = ((rate, seed, X, y, Xt, yt, np.flatnonzero(fl))
                 for _, seed, _, rate, X, y, Xt, yt, fl in bundled_tasks(
                     BUNDLED, int(argv[1]), [int(s) for s in argv[2].split(",")]))
    else:
        seed, n, gens, ks, rates = task_args(argv[1:])
        tasks = ((rate, seed, X, y, Xt, yt, fl)
                 for _, _, rate, X, y, Xt, yt, fl in noisy_tasks(seed, n, gens, ks, rates))
    for rate, seed, X, y_fit, Xt, yt, flipped in tasks:
        rows.append(dict(rate=rate, **both(seed, X, y_fit, Xt, yt, flipped)))
    d = pd.DataFrame(rows)
    d["pick_large"] = d.large_score > d.small_score
    # the alternative rule: the out-of-fold accuracy against the given (noisy) labels
    d["acc_large"] = d.large_acc > d.small_acc
    for m in ("err", "f1"):
        d[f"union_{m}"] = np.where(d.pick_large, d[f"large_{m}"], d[f"small_{m}"])
        d[f"byacc_{m}"] = np.where(d.acc_large, d[f"large_{m}"], d[f"small_{m}"])
    cols = ["small_err", "large_err", "union_err", "byacc_err", "small_f1", "large_f1",
            "union_f1", "byacc_f1", "pick_large", "acc_large"]
    print(d.groupby("rate")[cols].mean().round(3).to_string())


if __name__ == "__main__":
    main(sys.argv[1:])
