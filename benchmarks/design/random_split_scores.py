"""Design experiment: randomised split scores (CatBoost's ``random_strength``) in our
symmetric trees, on small binary data.

A NumPy prototype of binary Newton boosting on the logistic loss with symmetric trees
(depth 6, rate 0.2, an L2 penalty of 10 rows of mean Hessian, 300 rounds: the large-data
candidate of ``SPLBoostClassifierCV``), fitted on every row (no label-issue step). At
each level the chosen split maximises ``score + ε``, ``ε`` normal with standard deviation
``strength ×`` the standard deviation of that level's candidate scores (over features and
bins), drawn from a seeded generator; ``strength = 0`` is the plain tree. Prints the test
error (%) per task and strength, and the means::

    PYTHONPATH=src python benchmarks/design/random_split_scores.py 0,1 1000 mc,hard 0,0.1,0.2 0,0.5,1,2
    # noise on each feature's best split only
    PYTHONPATH=src python benchmarks/design/random_split_scores.py 0,1 1000 mc,hard 0,0.1,0.2 0,0.5,1,2 feature

Results: ``docs/noisy-default-design.md``, evidence item 23.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _noisy_tasks import noisy_tasks  # noqa: E402
from multi_output_trees import grow, leaves, quantile_codes  # noqa: E402

DEPTH, RATE, L2, ROUNDS = 6, 0.2, 10.0, 300
#: "all": noise on every (feature, bin) candidate; "feature": on each feature's best split
#: (its score plus noise of ``strength ×`` the standard deviation over the features)
MODE = "all"


def noisy_choice(strength, rng):
    """A level's split chosen from :func:`multi_output_trees.level_scores` with random
    split scores (``MODE``)."""
    def choose(scores):
        if strength > 0 and MODE == "feature":  # noise on each feature's best split only
            best = scores.max(axis=1)
            noisy = best + rng.normal(0.0, strength * best.std(), best.shape)
            f = int(np.argmax(noisy))
            return f, int(np.argmax(scores[f]))
        if strength > 0:
            scores = scores + rng.normal(0.0, strength * scores.std(), scores.shape)
        f, b = np.unravel_index(int(np.argmax(scores)), scores.shape)
        return int(f), int(b)
    return choose


def boost(codes, y, test, strength, seed):
    choose = noisy_choice(strength, np.random.default_rng(seed))
    F, Ft = np.zeros(codes.shape[0]), np.zeros(test.shape[0])
    for _ in range(ROUNDS):
        p = 1.0 / (1.0 + np.exp(-F))
        g, h = y - p, np.maximum(p * (1 - p), 2 * np.finfo(float).eps)
        splits, values = grow(codes, g[:, None], h[:, None], L2 * h.mean(), DEPTH, choose)
        values = values[:, 0]
        F += RATE * values[leaves(codes, splits)]
        Ft += RATE * values[leaves(test, splits)]
    return (Ft > 0).astype(int)


def main(argv: list[str]) -> None:
    global MODE
    if argv[-1] in ("all", "feature"):
        MODE = argv.pop()
    seeds = [int(v) for v in argv[0].split(",")]
    n, gens = int(argv[1]), argv[2].split(",")
    rates = [float(v) for v in argv[3].split(",")]
    strengths = [float(v) for v in argv[4].split(",")]
    errors = {s: {} for s in strengths}
    for seed in seeds:
        for gen, _, rate, X, y, Xt, yt, _ in noisy_tasks(seed, n, gens, [2], rates):
            codes, test = quantile_codes(X, Xt)
            line = f"seed {seed} {gen} flips={rate:.2f}"
            for s in strengths:
                err = 100 * float(np.mean(boost(codes, y, test, s, seed) != yt))
                errors[s].setdefault(rate, []).append(err)
                line += f" | {s}: {err:.2f}"
            print(line, flush=True)
    for rate in rates:
        print(f"flips={rate:.2f} mean " + " | ".join(
            f"{s}: {np.mean(errors[s][rate]):.2f}" for s in strengths))


if __name__ == "__main__":
    main(sys.argv[1:])
