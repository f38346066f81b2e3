"""SPLBoostClassifier's default (growing age) against the fixed age and AdaBoost on the
bundled binary sets: rounds run, stopping reasons, mean test error clean and with flips.

Usage: PYTHONPATH=src python scripts/splboost_growing_age.py [--seeds 3] [--rates 0 0.2]
       [--regularizers hard linear ...]

Each data set with two classes is split 70/30 (stratified) per seed; a fraction of the
training labels is flipped (symmetric), the test labels stay clean. Every model has 100
rounds of histogram stumps and the default age ("auto").
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np
from sklearn.model_selection import train_test_split

from robust_boosting import AdaBoostClassifier, SPLBoostClassifier
from robust_boosting.datasets import list_datasets, load_dataset
from robust_boosting.noise import flip_labels

REGULARIZERS = ("hard", "linear", "polynomial", "mixture", "lowerconvex", "upperconvex")


def binary_sets() -> list[str]:
    names = []
    for name in list_datasets():
        _, y = load_dataset(name, return_X_y=True)
        if np.unique(y).size == 2:
            names.append(name)
    return names


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--rates", type=float, nargs="+", default=[0.0, 0.2])
    parser.add_argument("--regularizers", nargs="+", default=list(REGULARIZERS))
    parser.add_argument("--datasets", nargs="+")
    args = parser.parse_args(argv)
    sets = args.datasets or binary_sets()
    models = {"adaboost": lambda s: AdaBoostClassifier(random_state=s)}
    for reg in args.regularizers:
        models[f"{reg} growing"] = lambda s, r=reg: SPLBoostClassifier(regularizer=r,
                                                                         random_state=s)
        models[f"{reg} fixed"] = lambda s, r=reg: SPLBoostClassifier(
            regularizer=r, age_growth=None, random_state=s)
    err = {(m, r): [] for m in models for r in args.rates}
    short = {(m, r): [] for m in models for r in args.rates}
    for name in sets:
        X, y = load_dataset(name, return_X_y=True)
        for seed in range(args.seeds):
            Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, stratify=y,
                                                  random_state=seed)
            for rate in args.rates:
                yn = flip_labels(ytr, rate, random_state=seed)[0] if rate else ytr
                for m, make in models.items():
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        est = make(seed).fit(Xtr, yn)
                    err[m, rate].append(1 - est.score(Xte, yte))
                    reason = est.stopping_reason_
                    if "perfect only on the samples" in str(reason):
                        short[m, rate].append(f"{name}/{seed}: {len(est.estimators_)}")
    print(f"{len(sets)} binary sets x {args.seeds} splits: {', '.join(sets)}")
    print("| model | " + " | ".join(f"{r:.0%} error" for r in args.rates)
          + " | stopped 'perfect on the kept samples' |")
    print("|---|" + "---|" * (len(args.rates) + 1))
    for m in models:
        cells = [f"{100 * np.mean(err[m, r]):.2f} ± {100 * np.std(err[m, r], ddof=1) / np.sqrt(len(err[m, r])):.2f}"
                 for r in args.rates]
        stops = sum(len(short[m, r]) for r in args.rates)
        print(f"| {m} | " + " | ".join(cells) + f" | {stops} |")
    base = {r: np.asarray(err["adaboost", r]) for r in args.rates}
    print("\npaired difference to AdaBoost (points, mean ± se over set x split):")
    for m in models:
        if m == "adaboost":
            continue
        d = [np.asarray(err[m, r]) - base[r] for r in args.rates]
        print(f"  {m}: " + ", ".join(
            f"{r:.0%}: {100 * x.mean():+.2f} ± {100 * x.std(ddof=1) / np.sqrt(x.size):.2f}"
            for r, x in zip(args.rates, d, strict=True)))


if __name__ == "__main__":
    main()
