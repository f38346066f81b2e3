"""RILBoost: the exact SVM shortcut against the plain enumeration of the extreme points.

Run:  python benchmarks/bench_rilboost.py     (about 2-3 minutes on 2 cores)

For paper-size training sets (n = 40, 100, 200; RILBoost's synthetic two-Gaussian
set, SPEC 8D, n/2 per class) it fits RILBoost II (minimax, epsilon = 0.1, T = 10,
default RBF SVM) once with ``search="shortcut"`` and once with
``search="enumerate"`` and prints, from that one run, the SVM solves per round
and the fit times with their ratio. Both searches must choose the same extreme
points (checked). Absolute times drift on shared machines; compare the ratios
(issue 5's target: the shortcut at least 5x faster at n = 200).
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np

from robust_boosting.datasets import make_rilboost_gaussian
from robust_boosting.rilboost import RILBoostClassifier


def fit_timed(search: str, X, y, **params):
    """Fit RILBoost with ``search``; return (model, seconds)."""
    model = RILBoostClassifier(search=search, **params)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        start = time.perf_counter()
        model.fit(X, y)
    return model, time.perf_counter() - start


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="40,100,200", help="training-set sizes (default 40,100,200)")
    parser.add_argument("--epsilon", type=float, default=0.1)
    parser.add_argument("--mixing", default="II")
    parser.add_argument("--strategy", default="minimax")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    params = dict(epsilon=args.epsilon, mixing=args.mixing, strategy=args.strategy,
                  n_estimators=args.rounds, random_state=args.seed)
    print(f"RILBoost {args.mixing}, {args.strategy}, epsilon={args.epsilon}, T={args.rounds}, "
          f"SVC(rbf, C=1, gamma='scale'); RILBoost Gaussian set, seed {args.seed}")
    header = (f"{'n':>5} {'search':>10} {'rounds':>6} {'solves/round (mean)':>20} "
              f"{'fit time (s)':>13} {'ratio':>7}  solves per round")
    print(header)
    print("-" * len(header))
    for n in (int(s) for s in args.sizes.split(",")):
        X, y = make_rilboost_gaussian(n // 2, random_state=args.seed, shuffle=True)
        fast, t_fast = fit_timed("shortcut", X, y, **params)
        slow, t_slow = fit_timed("enumerate", X, y, **params)
        same = (np.array_equal(fast.chosen_extreme_points_, slow.chosen_extreme_points_)
                and np.array_equal(fast.predict(X), slow.predict(X)))
        for name, model, t in (("shortcut", fast, t_fast), ("enumerate", slow, t_slow)):
            solves = model.n_svm_solves_
            ratio = f"{t_slow / t_fast:6.1f}x" if name == "shortcut" else ""
            print(f"{n:>5} {name:>10} {len(solves):>6} {solves.mean():>20.1f} {t:>13.2f} "
                  f"{ratio:>7}  {solves.tolist()}")
        print(f"{'':>5} same extreme points and predictions: {same}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
