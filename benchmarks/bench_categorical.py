"""Categorical columns that should not hurt: test error with an unrelated text column added.

Run:  python benchmarks/bench_categorical.py [--sets german tic-tac-toe mixed]
          [--levels 0 20 150 2000] [--splits 3] [--models spl lgbm catboost]

For each bundled set with text (categorical) columns, and a synthetic 2,000-row mixed
table (``mixed``: 4 numeric and 4 categorical columns that matter), a column of random
text levels ``"t0" .. "t<L-1>"`` that has nothing to do with the label is appended
(``--levels 0``: none). Each cell is the test error (%) of ``SPLBoostClassifierCV()``
(defaults, pandas frame with text columns), LightGBM (``LGBMClassifier()`` on pandas
``category`` columns) and CatBoost (``CatBoostClassifier()`` with ``cat_features``),
mean over ``--splits`` stratified 70/30 splits (seeds 0, 1, 2, ...), in the same run.
Public API only.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from robust_boosting import SPLBoostClassifierCV
from robust_boosting.datasets import load_dataset


def bundled(name: str) -> tuple[pd.DataFrame, np.ndarray]:
    """A bundled set as a frame whose categorical columns hold their text values."""
    b = load_dataset(name)
    X = pd.DataFrame(b.data, columns=b.feature_names)
    for col, cats in b.categorical_encoding.items():
        codes = X[col].to_numpy()
        X[col] = pd.Series([None if np.isnan(c) else str(cats[int(c)]) for c in codes],
                           dtype=object)
    return X, np.asarray(b.target)


def mixed(n: int = 2000, seed: int = 0) -> tuple[pd.DataFrame, np.ndarray]:
    """A mixed table: 4 numeric and 4 text columns that matter, 10 % of labels flipped."""
    rng = np.random.default_rng(seed)
    num = rng.normal(size=(n, 4))
    cats = [rng.integers(0, k, n) for k in (3, 5, 8, 12)]
    effects = [rng.normal(size=k) for k in (3, 5, 8, 12)]
    score = num[:, 0] - 0.8 * num[:, 1] + 0.5 * num[:, 2] * num[:, 3]
    score = score + sum(e[c] for e, c in zip(effects, cats, strict=True))
    y = (score + 0.3 * rng.normal(size=n) > np.median(score)).astype(int)
    flip = rng.random(n) < 0.10
    y[flip] = 1 - y[flip]
    X = pd.DataFrame(num, columns=[f"n{j}" for j in range(4)])
    for j, c in enumerate(cats):
        X[f"c{j}"] = pd.Series([f"v{v}" for v in c], dtype=object)
    return X, y


def with_noise_column(X: pd.DataFrame, levels: int, seed: int) -> pd.DataFrame:
    """``X`` with a column of ``levels`` random text levels (unrelated to the label)."""
    if not levels:
        return X
    rng = np.random.default_rng(1000 + seed)
    X = X.copy()
    X["noise"] = pd.Series([f"t{v}" for v in rng.integers(0, levels, len(X))], dtype=object)
    return X


def text_columns(X: pd.DataFrame) -> list[str]:
    return [c for c in X.columns if X[c].dtype == object]


def fit_spl(Xtr, ytr, Xte, seed):
    model = SPLBoostClassifierCV(random_state=seed).fit(Xtr, ytr)
    return model.predict(Xte)


def fit_lgbm(Xtr, ytr, Xte, seed):
    import lightgbm as lgb

    cols = text_columns(Xtr)
    Xtr, Xte = Xtr.copy(), Xte.copy()
    for c in cols:
        cat = pd.CategoricalDtype(sorted(set(Xtr[c].dropna())))
        Xtr[c] = Xtr[c].astype(cat)
        Xte[c] = Xte[c].astype(cat)
    model = lgb.LGBMClassifier(random_state=seed, verbose=-1, n_jobs=1).fit(Xtr, ytr)
    return model.predict(Xte)


def fit_catboost(Xtr, ytr, Xte, seed):
    from catboost import CatBoostClassifier

    cols = text_columns(Xtr)
    Xtr, Xte = Xtr.copy(), Xte.copy()
    for c in cols:
        Xtr[c] = Xtr[c].fillna("NA")
        Xte[c] = Xte[c].fillna("NA")
    model = CatBoostClassifier(random_seed=seed, verbose=0, thread_count=1,
                               cat_features=cols).fit(Xtr, ytr)
    return np.asarray(model.predict(Xte)).ravel().astype(ytr.dtype)


MODELS = {"spl": fit_spl, "lgbm": fit_lgbm, "catboost": fit_catboost}
SETS = {"german": lambda: bundled("german"), "tic-tac-toe": lambda: bundled("tic-tac-toe"),
        "mixed": mixed}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", nargs="+", default=list(SETS), choices=list(SETS))
    parser.add_argument("--levels", nargs="+", type=int, default=[0, 20, 150, 2000])
    parser.add_argument("--splits", type=int, default=3)
    parser.add_argument("--models", nargs="+", default=list(MODELS), choices=list(MODELS))
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")
    print("| set | added levels | " + " | ".join(args.models) + " |")
    print("|---|---:|" + "---:|" * len(args.models))
    for name in args.sets:
        X0, y = SETS[name]()
        for levels in args.levels:
            errs = {m: [] for m in args.models}
            secs = {m: 0.0 for m in args.models}
            for seed in range(args.splits):
                X = with_noise_column(X0, levels, seed)
                Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, stratify=y,
                                                      random_state=seed)
                for m in args.models:
                    t0 = time.perf_counter()
                    try:
                        pred = MODELS[m](Xtr, ytr, Xte, seed)
                    except ValueError as exc:  # e.g. too many categories
                        print(f"  {m} failed: {exc}", flush=True)
                        errs[m].append(np.nan)
                        continue
                    secs[m] += time.perf_counter() - t0
                    errs[m].append(100.0 * np.mean(pred != yte))
            cells = " | ".join("error" if np.isnan(np.mean(errs[m])) else f"{np.mean(errs[m]):.1f}"
                               for m in args.models)
            print(f"| {name} | {levels} | {cells} |", flush=True)
            print("  seconds: " + ", ".join(f"{m} {secs[m]:.1f}" for m in args.models),
                  flush=True)


if __name__ == "__main__":
    main()
