"""Keeping every row when the out-of-fold model has no skill (design index, item 49).

``--out F``: for each classification table of the real-table benchmark
(``bench_real_tables.py``'s rule), 3 splits and the five noise settings, or with
``--bundled`` each bundled set of ``bench_noisy_default.py`` (2 splits; symmetric,
class-conditional and annotator-like flips at 0, 20 and 35 %), it fits
``SPLBoostClassifierCV(n_jobs=1)`` and the same with ``remove_label_issues=False``,
and writes one JSON line: both test errors on the clean test labels and the skill of
the default's out-of-fold probabilities on the given labels (``acc_gain``: accuracy of
their most probable class minus the largest class share; ``auc``: their ROC AUC, item
50; ``oof_major``: the share of rows where their most probable class is the largest
given class, item 55). ``--part i --parts m`` takes every m-th
table from the i-th; ``--tables`` and ``--noise`` keep only the cells named.

``--analyse F ...`` prints, for each threshold ``t``, the change of the mean test error
per noise setting (mean over tables ± standard error; the largest table) if the final
fit kept every row wherever the suspects were removed and ``acc_gain <= t``.

    python benchmarks/design/oof_skill.py --out real.jsonl
    python benchmarks/design/oof_skill.py --out bundled.jsonl --bundled
    python benchmarks/design/oof_skill.py --analyse real.jsonl
    python benchmarks/design/oof_skill.py --out twins.jsonl --noise clean \\
        --tables Stat2Data/Airlines geepack/muscatine
    python benchmarks/design/oof_skill.py --out twins.jsonl --bundled --noise cc35
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

REAL_NOISES = ["clean", "sym20", "hardest20", "sym35", "hardest35"]
BUNDLED_NOISES = [("sym", 0.0), ("sym", 0.2), ("sym", 0.35), ("cc", 0.2), ("cc", 0.35),
                  ("hardest", 0.2), ("hardest", 0.35)]


def _cells(bundled: bool, part: int, parts: int, tables=None, noises=None):
    """(name, split, noise, X_train, y_train, y_noisy, X_test, y_test) of each cell."""
    for cell in _all_cells(bundled, part, parts, tables):
        if noises is None or cell[2] in noises:
            yield cell


def _all_cells(bundled: bool, part: int, parts: int, names):
    from sklearn.model_selection import train_test_split

    from robust_boosting.noise import reference_proba
    if bundled:
        import bench_noisy_default as noisy

        from robust_boosting.datasets import load_dataset
        for name in (noisy.BINARY_FULL + noisy.MULTICLASS_FULL)[part::parts]:
            if names is not None and name not in names:
                continue
            b = load_dataset(name)
            X = np.asarray(b.data, float)
            y = np.unique(np.asarray(b.target), return_inverse=True)[1]
            for split in range(2):
                Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3,
                                                      random_state=split, stratify=y)
                proba = reference_proba(Xtr, ytr, random_state=split)
                for kind, rate in BUNDLED_NOISES:
                    yn, _ = noisy.add_noise(ytr, kind, rate, split + 7, X=Xtr, proba=proba)
                    yield name, split, f"{kind}{round(100 * rate)}", Xtr, yn, Xte, yte
        return
    import bench_real_tables as tables
    for spec in tables.select_tables("classification")[part::parts]:
        if names is not None and spec.name not in names:
            continue
        X, y = tables.load(spec)
        for split in range(3):
            Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, random_state=split,
                                                  stratify=y)
            proba = reference_proba(Xtr, ytr, random_state=split)
            for noise in REAL_NOISES:
                yn, _ = tables._noisy("classification", ytr, noise, split + 7, proba,
                                      "replace")
                yield spec.name, split, noise, Xtr, yn, Xte, yte


def _auc(proba, y_idx) -> float:
    """The ranking skill of out-of-fold probabilities on the given labels: ROC AUC (two
    classes), else the macro mean of one-vs-rest AUCs (design index, item 50)."""
    from sklearn.metrics import roc_auc_score
    if proba.shape[1] == 2:
        return float(roc_auc_score(y_idx, proba[:, 1]))
    return float(roc_auc_score(y_idx, proba, multi_class="ovr", average="macro"))


def run(out: str, bundled: bool, part: int, parts: int, tables=None, noises=None) -> None:
    from threadpoolctl import threadpool_limits

    from robust_boosting import SPLBoostClassifierCV
    with threadpool_limits(1), open(out, "a") as f, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, split, noise, Xtr, yn, Xte, yte in _cells(bundled, part, parts, tables, noises):
            model = SPLBoostClassifierCV(random_state=split, n_jobs=1).fit(Xtr, yn)
            keep = SPLBoostClassifierCV(random_state=split, n_jobs=1,
                                        remove_label_issues=False).fit(Xtr, yn)
            y_idx = np.searchsorted(model.classes_, yn)
            share = np.bincount(y_idx, minlength=len(model.classes_)) / len(y_idx)
            top = model.oof_proba_.argmax(1)
            row = dict(dataset=name, split=split, noise=noise, n=len(yn),
                       err=100 * float(np.mean(model.predict(Xte) != yte)),
                       err_keep=100 * float(np.mean(keep.predict(Xte) != yte)),
                       removed=bool(model.remove_label_issues_),
                       noise_rate=float(model.noise_rate_),
                       acc_gain=float(np.mean(top == y_idx) - share.max()),
                       auc=_auc(model.oof_proba_, y_idx),
                       oof_major=float(np.mean(top == share.argmax())))
            f.write(json.dumps(row) + "\n")
            f.flush()


def analyse(paths, thresholds=(0.0, 0.01, 0.02, 0.05)) -> None:
    import pandas as pd
    d = pd.concat([pd.read_json(p, lines=True) for p in paths], ignore_index=True)
    print(f"{len(d)} cells; the default removed the suspects in {d.removed.mean():.0%}")
    for t in thresholds:
        fire = d.removed & (d.acc_gain <= t)
        change = np.where(fire, d.err_keep, d.err) - d.err
        per = (d.assign(change=change).groupby(["noise", "dataset"]).change.mean()
               .groupby("noise").agg(["mean", "sem", "max"]))
        print(f"acc_gain <= {t}: fires in {fire.mean():.0%}; " + "; ".join(
            f"{n} {r['mean']:+.2f} ± {r['sem']:.2f} (largest {r['max']:+.1f})"
            for n, r in per.iterrows()))


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out")
    p.add_argument("--bundled", action="store_true")
    p.add_argument("--part", type=int, default=0)
    p.add_argument("--parts", type=int, default=1)
    p.add_argument("--tables", nargs="+")
    p.add_argument("--noise", nargs="+")
    p.add_argument("--analyse", nargs="+")
    a = p.parse_args(argv)
    if (a.out is None) == (a.analyse is None):
        p.error("give --out or --analyse")
    if a.analyse:
        analyse(a.analyse)
    else:
        run(a.out, a.bundled, a.part, a.parts, a.tables, a.noise)


if __name__ == "__main__":
    main()
