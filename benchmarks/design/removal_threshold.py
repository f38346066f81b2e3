"""Design experiment: when should the robust default leave its suspects out of the final fit?

For each task this fits ``SPLBoostClassifierCV()`` twice, keeping every row
(``remove_label_issues=False``: the search's early-stopped rounds on the given labels) and
removing the suspects (``remove_label_issues=True``: confident learning's suspects out, the
classes reweighted, the winner's ``n_estimators``), and prints one JSON line with both test
errors (%, on the clean test labels), ``anchor_noise_rate_``, the number of classes and of
training rows, from which ``--analyse`` scores every threshold of the rule "remove when
``anchor_noise_rate_`` is at least ``t``, or above 5,000 rows", and the rule of design record
0019 ("old": ``anchor_noise_rate_ / (K - 1)`` at least ``0.015 min(1, (1000 / n) ** 0.8)``,
or above 5,000 rows). The two fits share their search, so a rule's error is one of the two,
exactly.

Tasks:

- ``real``: the classification tables of ``bench_real_tables.select_tables()`` (or, with
  ``--acceptance``, of the held-out packages), 70/30 splits seeded 0, 1, 2, clean labels and
  20 % symmetric and annotator-like (``hardest``) flips, as ``bench_real_tables.py`` makes
  them;
- ``bundled``: the bundled sets of ``bench_noisy_default.py``, its 2 splits, flips of the
  given kinds and rates, as it makes them.

Usage (from the repository root)::

    PYTHONPATH=src python benchmarks/design/removal_threshold.py real > real.jsonl
    PYTHONPATH=src python benchmarks/design/removal_threshold.py bundled sym,cc 0,0.1,0.2,0.3,0.35,0.4 > b.jsonl
    PYTHONPATH=src python benchmarks/design/removal_threshold.py bundled hardest,pmd 0.1,0.2,0.35 wine > a.jsonl
    python benchmarks/design/removal_threshold.py --analyse real.jsonl b.jsonl a.jsonl

Results: ``docs/design/0028-real-tables.md``.
"""

from __future__ import annotations

import json
import os
import sys
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

THRESHOLDS = (0.0, 0.05, 0.08, 0.1, 0.12, 0.14, 0.16, 0.2, np.inf)


def _pair(X_tr, y_tr, X_te, y_te, seed):
    from robust_boosting import SPLBoostClassifierCV

    out = {}
    for name, remove in (("keep", False), ("remove", True)):
        est = SPLBoostClassifierCV(remove_label_issues=remove, random_state=seed, n_jobs=1)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            est.fit(X_tr, y_tr)
        out[name] = float(100 * np.mean(np.asarray(est.predict(X_te)) != np.asarray(y_te)))
    out.update(anchor=float(est.anchor_noise_rate_), K=int(est.classes_.size),
               n=int(len(y_tr)))
    return out


def real(acceptance: bool) -> None:
    from _noisy_tasks import real_tasks

    for name, s, noise, Xtr, yn, Xte, yte in real_tasks(range(3), acceptance):
        row = dict(task="real", dataset=name, split=s, noise=noise)
        row.update(_pair(Xtr, yn, Xte, yte, s))
        print(json.dumps(row), flush=True)


def bundled(kinds, rates, extra) -> None:
    from _noisy_tasks import BUNDLED, bundled_tasks

    # the clean task once, with the first kind
    cells = [(kind, rate) for kind in kinds for rate in rates if rate or kind == kinds[0]]
    for ds, split, kind, rate, Xtr, yn, Xte, yte, _ in bundled_tasks(
            BUNDLED + list(extra), 0, range(2), cells):
        row = dict(task="bundled", dataset=ds, split=split, noise=f"{kind}{rate:g}")
        row.update(_pair(Xtr, yn, Xte, yte, split))
        print(json.dumps(row), flush=True)


def analyse(files) -> None:
    import pandas as pd

    d = pd.DataFrame([json.loads(line) for f in files for line in open(f)])
    big = d["n"] > 5000
    old = d["anchor"] / (d["K"] - 1) >= 0.015 * np.minimum(1.0, (1000 / d["n"]) ** 0.8)
    cols = {"old": np.where(old | big, d["remove"], d["keep"])}
    for t in THRESHOLDS:
        cols[f"t={t:g}"] = np.where((d["anchor"] >= t) | big, d["remove"], d["keep"])
    cols["keep"] = d["keep"]
    table = d.assign(**cols).groupby(["task", "noise"])[list(cols)].mean()
    print("Mean test error (%) of the rule 'remove when anchor >= t or above 5,000 rows' "
          "(t=0: always remove; keep: every row kept at every size)\n")
    print(table.round(2).to_string())
    print("\ntasks:", d.groupby("task")["dataset"].nunique().to_dict(), "data sets")


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    args = sys.argv[1:]
    if args[:1] == ["--analyse"]:
        analyse(args[1:])
    elif args[:1] == ["real"]:
        real("--acceptance" in args)
    elif args[:1] == ["bundled"]:
        bundled(args[1].split(","), [float(r) for r in args[2].split(",")], args[3:])
    else:
        sys.exit(__doc__)
