"""Design experiment: should ``SPLBoostClassifierCV`` decide by cross-validation whether to
remove its label-issue suspects?

On clean labels at 1,000 rows the confident-learning step flags up to 30 % of the rows
(the out-of-fold model's errors where the classes overlap), and removing them cost 1–5
points against fitting on every row. This script fits the default search (or the search
given as JSON keyword arguments) on each task and then simulates a decision:

* ``remove``: the estimator as fitted (suspects removed, the final model runs every round);
* ``keep``: the winner fitted on every row, at the search's early-stopped round count;
* ``cv``: per fold, the winner fitted on the fold's training rows without their suspects
  (the final fit's weights, every round) and scored by its accuracy on the fold's held-out
  rows *against their noisy labels*; the fold models' own out-of-fold accuracy is the
  ``keep`` side. ``decided``: ``keep`` where its accuracy is higher by more than
  ``margin`` (a fraction), else ``remove``. Under symmetric flips the accuracy against
  noisy labels is an increasing function of the clean accuracy, so it ranks the two.

It prints per flip rate the mean test error (%) of each and how often ``keep`` is chosen.

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/design/keep_or_remove.py synth 0 1000 mc,hard 2,5 0,0.1,0.2,0.35 '{}'
    PYTHONPATH=src python benchmarks/design/keep_or_remove.py bundled 0 0,1 '{}'

Results: ``docs/noisy-default-design.md``, evidence item 23.
"""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedKFold
from sklearn.utils import check_random_state

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _noisy_tasks import BUNDLED, bundled_tasks, noisy_tasks, task_args  # noqa: E402

from robust_boosting import SPLBoostClassifierCV  # noqa: E402
from robust_boosting.splboost_cv import _make_booster  # noqa: E402

MARGINS = (0.0, 0.005, 0.01)


def simulate(seed, params, X, y, Xt, yt) -> dict:
    est = SPLBoostClassifierCV(random_state=seed, **params).fit(X, y)
    rng = check_random_state(seed)
    fold_seed = int(rng.randint(np.iinfo(np.int32).max))
    fit_seed = int(rng.randint(np.iinfo(np.int32).max))
    classes = est.classes_
    y_idx = np.searchsorted(classes, y)
    p = est.best_params_
    rounds = est.best_estimator_.n_estimators
    folds = StratifiedKFold(3, shuffle=True, random_state=fold_seed).split(X, y_idx)
    weight = est._final_weight(np.ones(len(y)), est.oof_proba_, y_idx, est.label_issues_)
    hits_remove = 0
    for tr, te in folds:
        kept = tr[weight[tr] > 0]
        m = _make_booster(p, p["learning_rate"], p["drop_fraction"], rounds, fit_seed)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            m.fit(X[kept], y[kept], sample_weight=weight[kept])
        hits_remove += int(np.sum(m.predict(X[te]) == y[te]))
    acc_remove = hits_remove / len(y)
    acc_keep = float(np.mean(np.argmax(est.oof_proba_, axis=1) == y_idx))
    keep = _make_booster(p, p["learning_rate"], p["drop_fraction"], p["cv_n_estimators"],
                         fit_seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        keep.fit(X, y)
    out = dict(remove=100 * float(np.mean(est.predict(Xt) != yt)),
               keep=100 * float(np.mean(keep.predict(Xt) != yt)),
               acc_gap=acc_keep - acc_remove)
    for mg in MARGINS:
        out[f"decided_{mg}"] = out["keep"] if acc_keep - acc_remove > mg else out["remove"]
        out[f"picks_keep_{mg}"] = acc_keep - acc_remove > mg
    return out


def main(argv: list[str]) -> None:
    warnings.simplefilter("ignore")
    params = json.loads(argv[-1])
    rows = []
    if argv[0] == "bundled":
        tasks = ((rate, s, X, y, Xt, yt) for _, s, _, rate, X, y, Xt, yt, _ in bundled_tasks(
            BUNDLED, int(argv[1]), [int(v) for v in argv[2].split(",")]))
    else:
        seed, n, gens, ks, rates = task_args(argv[1:6])
        tasks = ((rate, seed, X, y, Xt, yt) for _, _, rate, X, y, Xt, yt, _ in
                 noisy_tasks(seed, n, gens, ks, rates))
    for rate, s, X, y, Xt, yt in tasks:
        rows.append(dict(rate=rate, **simulate(s, params, X, y, Xt, yt)))
    d = pd.DataFrame(rows)
    print(d.groupby("rate").mean().round(3).to_string())


if __name__ == "__main__":
    main(sys.argv[1:])
