"""Design experiment: decide the removal of the suspects by a nested cross-validation.

Item 23 found no signal to decide whether the final fit should leave out the suspected
label errors (better from about 10 % flips up, 3-5 points worse on clean 5-class data):
its cross-validated check chose the suspects with the held-out rows' own labels. Here the
check is nested: on each of 3 outer folds, ``SPLBoostClassifierCV`` is fitted on the
training part twice, with and without the removal (its own inner search and suspects, so
no held-out label is seen), and both are scored on the held-out part's *noisy* labels
(accuracy, and log-loss). Under flips that do not depend on the features, a model's
accuracy on noisy labels is an increasing affine function of its clean accuracy, so the
comparison is unbiased for which of the two is better. The decision keeps every row when
the keep models' summed held-out noisy accuracy is higher. Per task it prints the test
error of the default (removal), of the model without removal, and of the decided one::

    PYTHONPATH=src python benchmarks/design/nested_removal.py 0 1000 mc,hard 2,5 0,0.1,0.2,0.35

or, on the bundled sets (``bench_noisy_default.py``'s splits)::

    PYTHONPATH=src python benchmarks/design/nested_removal.py bundled 0 0,1

Results: ``docs/noisy-default-design.md``, evidence item 26.
"""

from __future__ import annotations

import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedKFold

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _noisy_tasks import BUNDLED, bundled_tasks, noisy_tasks, task_args  # noqa: E402

from robust_boosting import SPLBoostClassifierCV  # noqa: E402


def _noisy_scores(model, X, y):
    """Accuracy and log-loss of ``model`` on ``(X, y)`` (the given, noisy labels)."""
    p = np.clip(model.predict_proba(X), 1e-12, 1.0)
    idx = np.searchsorted(model.classes_, y)
    return float(np.mean(model.classes_[p.argmax(1)] == y)), float(-np.mean(np.log(p[np.arange(len(y)), idx])))


def decide(X, y, seed):
    """The nested check: summed held-out noisy accuracy and log-loss, keep and remove, and
    ``z``, the mean over the rows of (keep right - remove right) over its standard error
    (a paired comparison)."""
    acc = {"keep": 0.0, "remove": 0.0}
    loss = {"keep": 0.0, "remove": 0.0}
    diff = np.zeros(len(y))
    folds = StratifiedKFold(3, shuffle=True, random_state=seed + 17).split(X, y)
    for train, test in folds:
        for name, remove in (("remove", True), ("keep", False)):
            m = SPLBoostClassifierCV(random_state=seed, remove_label_issues=remove)
            m.fit(X[train], y[train])
            a, ll = _noisy_scores(m, X[test], y[test])
            acc[name] += a * len(test)
            loss[name] += ll * len(test)
            diff[test] += (1 if name == "keep" else -1) * (m.predict(X[test]) == y[test])
    n = len(y)
    se = diff.std() / np.sqrt(n)
    z = float(diff.mean() / se) if se > 0 else 0.0
    return ({f"acc_{k}": v / n for k, v in acc.items()} | {f"ll_{k}": v / n for k, v in loss.items()}
            | {"z": z})


def run(task_iter, keys):
    rows = []
    for task in task_iter:
        *ids, X, y_fit, Xt, yt, _ = task
        X, Xt = np.asarray(X, float), np.asarray(Xt, float)
        row = dict(zip(keys, ids, strict=True))
        t = time.perf_counter()
        for name, remove in (("remove", True), ("keep", False)):
            m = SPLBoostClassifierCV(random_state=row.get("seed", 0),
                                     remove_label_issues=remove).fit(X, y_fit)
            row[f"err_{name}"] = 100 * float(np.mean(m.predict(Xt) != yt))
        row.update(decide(X, y_fit, row.get("seed", 0)))
        row["err_acc"] = row["err_keep"] if row["acc_keep"] > row["acc_remove"] else row["err_remove"]
        row["err_ll"] = row["err_keep"] if row["ll_keep"] < row["ll_remove"] else row["err_remove"]
        row["err_z1"] = row["err_keep"] if row["z"] > 1 else row["err_remove"]
        row["err_z2"] = row["err_keep"] if row["z"] > 2 else row["err_remove"]
        row["err_best"] = min(row["err_keep"], row["err_remove"])
        row["s"] = time.perf_counter() - t
        rows.append(row)
        print(" ".join(f"{k}={v:.4f}" if isinstance(v, float) else f"{k}={v}"
                       for k, v in row.items()), flush=True)
    d = pd.DataFrame(rows)
    cols = ["err_remove", "err_keep", "err_acc", "err_ll", "err_z1", "err_z2", "err_best"]
    by = [k for k in ("K", "rate") if k in d]
    print("\nmean test error (%)\n" + d.groupby(by)[cols].mean().round(2).to_string())
    d["keep_acc"] = d.acc_keep > d.acc_remove
    d["keep_ll"] = d.ll_keep < d.ll_remove
    d["keep_z1"] = d.z > 1
    d["keep_z2"] = d.z > 2
    print("\nfraction of tasks decided 'keep'\n" + d.groupby(by)[
        ["keep_acc", "keep_ll", "keep_z1", "keep_z2"]].mean().round(2).to_string())


def main(argv):
    warnings.simplefilter("ignore")
    if argv[0] == "bundled":
        seed, splits = int(argv[1]), [int(s) for s in argv[2].split(",")]
        datasets = argv[3].split(",") if len(argv) > 3 else BUNDLED
        tasks = ((ds, s, kind, rate, X, y, Xt, yt, fl)
                 for ds, s, kind, rate, X, y, Xt, yt, fl in bundled_tasks(datasets, seed, splits))
        run(tasks, ["dataset", "seed", "kind", "rate"])
        return
    seed, n, gens, ks, rates = task_args(argv[:5])
    tasks = ((gen, k, rate, seed, X, y, Xt, yt, fl)
             for gen, k, rate, X, y, Xt, yt, fl in noisy_tasks(seed, n, gens, ks, rates))
    run(tasks, ["gen", "K", "rate", "seed"])


if __name__ == "__main__":
    main(sys.argv[1:])
