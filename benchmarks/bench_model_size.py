"""Model file sizes: ours (``robust_boosting.save_model``) / LightGBM's (``booster_.save_model``).

Two models, each fitted in the same run as a LightGBM model of the same rounds and
tree shape on the same data:

* ``SPLBoostClassifierCV(random_state=0)`` on 20,000 x 20 rows with 5 classes
  (``make_classification``, 10 informative features); LightGBM gets the final model's
  rounds (``best_estimator_.n_estimators_``), its depth (``best_params_["max_depth"]``,
  ``num_leaves = 2 ** depth``) and learning rate. Where our search picks one shared
  symmetric tree per round (a value per class in each leaf), LightGBM grows one tree
  per class and round;
* a 60-round ``AdaBoostClassifier`` of stumps (its default weak learner) on 1,500 x 20
  rows, two classes; LightGBM: 60 rounds of ``max_depth=1``, ``num_leaves=2``.

It prints, per model, the size of each file, the ratio ours / LightGBM, and the size of
our model's pickle for reference. Run::

    PYTHONPATH=src python benchmarks/bench_model_size.py [--rows 20000] [--stump-rows 1500]
"""

from __future__ import annotations

import argparse
import os
import pickle
import tempfile
import time

import lightgbm as lgb
from sklearn.datasets import make_classification

import robust_boosting as rb


def _sizes(ours, theirs, folder: str, name: str) -> tuple[int, int, int]:
    path = os.path.join(folder, f"{name}.skops")
    rb.save_model(ours, path)
    lgb_path = os.path.join(folder, f"{name}.lgb.txt")
    theirs.booster_.save_model(lgb_path)
    return os.path.getsize(path), os.path.getsize(lgb_path), len(pickle.dumps(ours))


def _row(label: str, shape: str, sizes: tuple[int, int, int]) -> str:
    ours, lgb_size, pickled = sizes
    return (f"| {label} | {shape} | {ours:,} | {lgb_size:,} | {ours / lgb_size:.2f} "
            f"| {pickled:,} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--stump-rows", type=int, default=1_500)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        X, y = make_classification(n_samples=args.rows, n_features=20, n_informative=10,
                                   n_classes=5, random_state=0)
        start = time.perf_counter()
        cv = rb.SPLBoostClassifierCV(random_state=0).fit(X, y)
        seconds = time.perf_counter() - start
        final = cv.best_estimator_
        rounds, depth = final.n_estimators_, cv.best_params_["max_depth"]
        theirs = lgb.LGBMClassifier(
            n_estimators=rounds, max_depth=depth, num_leaves=2**depth,
            learning_rate=cv.best_params_["learning_rate"], random_state=0, verbose=-1,
        ).fit(X, y)
        shape = (f"{rounds} rounds, depth {depth} ({cv.best_params_['grow_policy']}, "
                 f"multiclass trees {cv.best_params_['multiclass_trees']}); LightGBM "
                 f"{theirs.booster_.num_trees()} trees")
        rows.append(_row(f"SPLBoostClassifierCV, {args.rows:,} x 20, 5 classes "
                         f"(fit {seconds:.0f} s)", shape, _sizes(cv, theirs, folder, "cv")))

        X, y = make_classification(n_samples=args.stump_rows, n_features=20, random_state=0)
        ada = rb.AdaBoostClassifier(n_estimators=60, random_state=0).fit(X, y)
        theirs = lgb.LGBMClassifier(n_estimators=60, max_depth=1, num_leaves=2,
                                    random_state=0, verbose=-1).fit(X, y)
        shape = (f"{ada.n_estimators_} stumps; LightGBM {theirs.booster_.num_trees()} trees")
        rows.append(_row(f"AdaBoostClassifier, {args.stump_rows:,} x 20, 2 classes", shape,
                         _sizes(ada, theirs, folder, "stumps")))
    print("| model | rounds and trees | ours (bytes) | LightGBM (bytes) | ours / LightGBM "
          "| our pickle (bytes) |")
    print("|---|---|---:|---:|---:|---:|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
