"""How much does a fixed self-paced ``age`` exclude on different data sets?

For each binary data set and flip rate, a self-paced booster is run for its
warm-start rounds plus one round at each candidate age; the fraction of training
samples whose self-paced weight is 0 after that round (``1 - n_selected_[-1] / n``)
is the loss quantile that the age cuts at. If one age cuts at very different
quantiles on different data sets, a grid of ages does not transfer between data
sets, and expressing the age as a quantile of the current losses would. Run::

    python benchmarks/age_quantiles.py [--datasets pima german] [--rates 0 0.2 0.35]
"""

from __future__ import annotations

import argparse

import numpy as np
from bench_noisy_default import AGES_EXP, AGES_LOGIT, _spl, add_noise
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import LabelEncoder

from robust_boosting.datasets import load_dataset


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--datasets", nargs="*",
                   default=["pima", "german", "wdbc", "ionosphere", "bupa", "titanic"])
    p.add_argument("--rates", nargs="*", type=float, default=[0.0, 0.2, 0.35])
    a = p.parse_args(argv)
    steps = [("discrete", 1, AGES_EXP, {}), ("logit", 2, AGES_LOGIT, {"learning_rate": 0.1})]
    for kind, depth, ages, params in steps:
        print(f"\n{kind} step, depth {depth}: excluded fraction after warm start + 1 round")
        print("| data set | flips | " + " | ".join(f"age {g:g}" for g in ages) + " |")
        print("|---|---|" + "---|" * len(ages))
        for ds in a.datasets:
            X, y = load_dataset(ds, return_X_y=True)
            y = LabelEncoder().fit_transform(y)
            Xtr, _, ytr, _ = train_test_split(np.asarray(X, float), y, test_size=0.3,
                                              stratify=y, random_state=0)
            for rate in a.rates:
                yn, _ = add_noise(ytr, "sym", rate, 7)
                fr = []
                for age in ages:
                    est = _spl(kind, depth, age=age, n_estimators=4, random_state=0, **params)
                    est.fit(Xtr, yn)
                    fr.append(1 - est.n_selected_[-1] / len(yn))
                print(f"| {ds} | {100 * rate:g}% | " + " | ".join(f"{f:.2f}" for f in fr) + " |")


if __name__ == "__main__":
    main()
