"""Statistics, the verdict rule and the derived tables that the reports and the claims
table share.

Both :mod:`robust_boosting.experiments.report` (the per-store reports) and
:mod:`robust_boosting.experiments.claims` (``claims.md``) import from here, and this
module imports neither, so the imports run one way: ``claims -> analysis``,
``report -> claims, analysis``.

* the statistics: :func:`mean_se`, :func:`two_sided_t`, :func:`t_test` and
  :func:`detectable_difference` (the smallest difference a test of ``n`` units detects
  with 80 % power);
* the one verdict rule, :data:`VERDICT_RULE`, and :func:`verdict` / :func:`worst`;
* formatting: :func:`fmt_mse`, :func:`fmt_test`, :func:`_md_table`;
* reading a store (:func:`load_results`) and the derived tables both read:
  :func:`sensitivity_rows`, :func:`sensitivity_summary`, :func:`rilboost_deltas`,
  :func:`weak_learner_text`.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from . import published
from .algorithms import beyond_the_papers
from .store import ResultStore

__all__ = ["ALPHA", "POWER", "VERDICTS", "VERDICT_RULE", "detectable_difference", "fmt_mse",
           "fmt_test", "load_results", "mean_se", "rilboost_deltas", "sensitivity_rows",
           "sensitivity_summary", "t_test", "two_sided_t", "units_to_decide", "verdict",
           "weak_learner_text", "worst"]

#: Significance level of every comparison with a paper.
ALPHA = 0.05

#: Power at which an inconclusive test's smallest detectable difference is given.
POWER = 0.8

#: The verdicts, worst first (an ordering takes the worst of its pairs).
VERDICTS = ("contradicted", "inconclusive", "partly", "reproduced", "not testable offline")

#: The one rule behind every verdict of the reports and of ``claims.md``.
VERDICT_RULE = (
    "Each claim is a signed difference d (ours: mean ± standard error over n independent "
    "units, the unit named in the row), tested two-sided against 0 with Student's t at the "
    "5 % level (t = d / se, n - 1 degrees of freedom; t and p are printed). The paper's "
    "claim is the sign of its number and whether it claims a difference (a significant "
    "test, or a number presented as an advantage) or no difference (a non-significant "
    "test, or words such as 'comparable' or 'no significant difference').\n"
    "- Claim of a difference: **reproduced** = same sign and p < 0.05 (and, where the "
    "paper gives the size of the difference, that size inside our 95 % confidence "
    "interval); **partly** = same sign and p < 0.05 but the paper's size outside our 95 % "
    "interval; **contradicted** = the opposite sign and p < 0.05; **inconclusive** = "
    "p >= 0.05, whatever the sign.\n"
    "- Claim of no difference: **reproduced** = p >= 0.05; **contradicted** = p < 0.05 "
    "(a significant difference where the paper claims none), whatever the sign. A claim "
    "of no difference among several algorithms is tested on its most different pair, "
    "with p multiplied by the number of pairs (Bonferroni), so that k pairs do not give "
    "k chances of a contradiction.\n"
    "- Every inconclusive row gives the smallest difference our n could detect: "
    "(t(0.975; n - 1) + t(0.80; n - 1)) x se, the difference a two-sided 5 % test of n "
    "units with this standard error finds with 80 % power. Had the true difference been "
    "as large as a paper's number above it, our test would most likely have found it; "
    "a smaller difference needs more units to settle. It also gives the units that would "
    "decide it: the smallest n' for which (t(0.975; n' - 1) + t(0.80; n' - 1)) x sd / "
    "sqrt(n') <= |d| (sd = se x sqrt(n), the spread of our units), i.e. how many units of "
    "the same spread a test at our measured effect needs for 80 % power; and whether our "
    "n is the paper's own.\n"
    "- An ordering (A < B < C) is the worst verdict of its consecutive pairs (contradicted, "
    "then inconclusive, then partly, then reproduced).\n"
    "- With fewer than two units no test is possible: **inconclusive**.\n"
    "- **not testable offline**: the data or the setting is not available here."
)

_ORDER = {v: i for i, v in enumerate(VERDICTS[:-1])}


def mean_se(values) -> tuple[float, float, int]:
    """Mean, standard error (``sd / sqrt(n)``, ddof 1) and the number of finite values."""
    x = np.asarray(values, dtype=float)
    x = x[np.isfinite(x)]
    n = len(x)
    if n == 0:
        return float("nan"), float("nan"), 0
    se = float(x.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan")
    return float(x.mean()), se, n


def two_sided_t(mean: float, se: float, n: int) -> tuple[float, float]:
    """``t = mean / se`` and its two-sided p-value with ``n - 1`` degrees of freedom."""
    from scipy import stats

    if n < 2 or not np.isfinite(se) or not np.isfinite(mean):
        return float("nan"), float("nan")
    if se == 0:
        return (0.0, 1.0) if mean == 0 else (math.copysign(math.inf, mean), 0.0)
    t = mean / se
    return float(t), float(2 * stats.t.sf(abs(t), n - 1))


def verdict(paper_sign: float, paper_claims_difference: bool, mean: float, se: float,
            n: int, paper_effect: float | None = None, comparisons: int = 1) -> str:
    """The verdict of :data:`VERDICT_RULE` for our ``mean ± se`` over ``n`` units.

    ``paper_effect``: the size of the paper's difference on our scale, if it gives one.
    ``comparisons``: the number of pairs the difference was chosen from (the most
    different of them); its p is multiplied by it (Bonferroni). One of :data:`VERDICTS`.
    """
    from scipy import stats

    s = np.sign(paper_sign)
    if not np.isfinite(mean):
        return "not testable offline"
    same = np.sign(mean) == s and mean != 0
    t, p = two_sided_t(mean, se, n)
    if not np.isfinite(p):
        return "inconclusive"
    significant = min(1.0, p * comparisons) < ALPHA
    if not paper_claims_difference:
        return "contradicted" if significant else "reproduced"
    if not significant:
        return "inconclusive"
    if not same:
        return "contradicted"
    if paper_effect is not None and np.isfinite(paper_effect):
        half = stats.t.ppf(1 - ALPHA / 2, n - 1) * se
        if abs(paper_effect - mean) > half:
            return "partly"
    return "reproduced"


def detectable_difference(se: float, n: int, power: float = POWER) -> float:
    """The smallest difference a two-sided level-:data:`ALPHA` t-test of ``n`` units with
    standard error ``se`` detects with probability ``power``:
    ``(t(1 - alpha/2; n - 1) + t(power; n - 1)) * se`` (NaN for ``n < 2``)."""
    from scipy import stats

    if n < 2 or not np.isfinite(se):
        return float("nan")
    return float((stats.t.ppf(1 - ALPHA / 2, n - 1) + stats.t.ppf(power, n - 1)) * se)


def units_to_decide(mean: float, se: float, n: int, power: float = POWER,
                    limit: int = 10**7) -> int | None:
    """How many units a two-sided level-:data:`ALPHA` t-test needs to find a true
    difference of ``|mean|`` with probability ``power``, for units as spread as ours
    (``sd = se * sqrt(n)``): the smallest ``m >= 2`` with ``(t(1 - alpha/2; m - 1) +
    t(power; m - 1)) * sd / sqrt(m) <= |mean|``.

    None when it cannot be said (``n < 2``, no spread or no effect measured) or needs
    more than ``limit`` units.
    """
    if n < 2 or not (np.isfinite(se) and np.isfinite(mean)) or se <= 0 or mean == 0:
        return None
    sd = se * math.sqrt(n)

    def enough(m: int) -> bool:
        return detectable_difference(sd / math.sqrt(m), m, power) <= abs(mean)

    if not enough(limit):
        return None
    hi = 2
    while not enough(hi):
        hi *= 2
    lo = hi // 2 if hi > 2 else 1  # enough(lo) is False (or lo = 1 < 2)
    while hi - lo > 1:  # detectable_difference falls as m grows
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if enough(mid) else (mid, hi)
    return hi


def worst(verdicts) -> str:
    """The worst of several verdicts (for an ordering), in the order of :data:`VERDICTS`."""
    v = [x for x in verdicts if x in _ORDER]
    return min(v, key=_ORDER.get) if v else "not testable offline"


def fmt_mse(mean: float, se: float, n: int, scale: float = 1.0, digits: int = 2) -> str:
    """``"12.34 ± 0.56 (n=10)"``."""
    if not np.isfinite(mean):
        return "-"
    se_text = f"{scale * se:.{digits}f}" if np.isfinite(se) else "n/a"
    return f"{scale * mean:.{digits}f} ± {se_text} (n={n})"


def fmt_test(mean: float, se: float, n: int) -> str:
    """``"t = 2.10, p = 0.041"``."""
    t, p = two_sided_t(mean, se, n)
    if not np.isfinite(t):
        return "no test (n < 2)"
    return f"t = {t:.2f}, p = {p:.3g}"


def t_test(values) -> tuple[float, float, float, int]:
    """One-sample t-test against 0 as in the RILBoost paper (Demsar 2006).

    Returns
    -------
    t, ci_low, ci_high, M : float, float, float, int
        ``t = mean * sqrt(M) / sd`` and the 95 % confidence interval of the mean.
    """
    from scipy import stats

    m, se, n = mean_se(values)
    if n < 2:
        return float("nan"), float("nan"), float("nan"), n
    t, _ = two_sided_t(m, se, n)
    half = stats.t.ppf(1 - ALPHA / 2, n - 1) * se
    return float(t), float(m - half), float(m + half), n


# ---------------------------------------------------------------------------
# formatting
# ---------------------------------------------------------------------------
def _md_table(df: pd.DataFrame, index: bool = True, floatfmt: str = "{:.2f}") -> str:
    """A DataFrame as a GitHub Markdown table (no tabulate dependency)."""
    d = df.reset_index() if index else df
    cols = [str(c) for c in d.columns]

    def fmt(v):
        if isinstance(v, float | np.floating):
            return "" if np.isnan(v) else floatfmt.format(v)
        return str(v).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(fmt(v) for v in row) + " |" for row in d.itertuples(index=False)]
    return "\n".join(lines)




def weak_learner_text(df: pd.DataFrame) -> str:
    """The weak learners of the results, named (the estimators' defaults spelled out)."""
    names = {"hist-stump": "histogram stump (depth 1)", None: "the estimator's default"}
    out = []
    for wl, sub in df.groupby(df["weak_learner"].astype(object).where(
            df["weak_learner"].notna(), None), dropna=False):
        algs = sorted(set(sub["algorithm"]))
        if wl is None or (isinstance(wl, float) and np.isnan(wl)):
            # models that are not boosters of a weak learner (SPLBoostClassifierCV, peers)
            own = [a for a in algs if beyond_the_papers(a)]
            if own:
                out.append("their own trees, with their defaults (SPLBoostClassifierCV "
                           "searches histogram trees; peers as their library sets them): "
                           + ", ".join(own))
            algs = [a for a in algs if a not in own]
            if not algs:
                continue
            if any(a.startswith("rilboost") for a in algs):
                text = "RBF SVM (scikit-learn SVC)"
            else:
                text = "histogram stump (depth 1; a regression stump for LogitBoost/RBoost)"
        elif str(wl).startswith("hist-") and str(wl)[5:].isdigit():
            text = (f"histogram tree of depth {str(wl)[5:]} (entropy criterion; a regression "
                    "tree of that depth, squared error, for LogitBoost/RBoost)")
        else:
            text = names.get(wl, str(wl))
        out.append(f"{text}: {', '.join(algs)}")
    return "; ".join(out)



def _reps(df: pd.DataFrame) -> str:
    reps = df.groupby(["dataset", "variant"] + (["rate"] if "rate" in df else []))[
        "repetition"].nunique()
    return f"{reps.min()}" if reps.min() == reps.max() else f"{reps.min()}-{reps.max()}"



_READINGS = {"savageboost": "ours", "savageboost-literal": "literal",
             "savageboost-reversed": "sign-reversed", "adaboost": "AdaBoost"}


def sensitivity_rows(df: pd.DataFrame) -> list[dict]:
    """Per (reading, weak learner, learning rate): per rate the mean error over data sets
    (``"error"``: mean, se, n) and its paired difference from AdaBoost with the same weak
    learner (``"minus"``), each data set's error the mean over folds and repetitions."""
    d = df.assign(lr=df["params"].map(lambda p: float(p.get("learning_rate", 1.0))
                                      if isinstance(p, dict) else 1.0),
                  wl=df["weak_learner"].fillna("default"))
    per = d.groupby(["algorithm", "wl", "lr", "rate", "dataset"])["test_error"].mean()
    ada = per.xs("adaboost", level="algorithm") if "adaboost" in set(d["algorithm"]) else None
    out = []
    keys = sorted(per.groupby(level=["algorithm", "wl", "lr"]).groups,
                  key=lambda k: (k[0] == "adaboost", k[0], k[1], -k[2]))
    for alg, wl, lr in keys:
        sub = per.loc[(alg, wl, lr)]
        row = {"algorithm": alg, "reading": _READINGS.get(alg, alg), "weak learner": wl,
               "learning rate": lr, "rates": {}}
        for rate in sorted(d["rate"].unique()):
            if rate not in sub.index.get_level_values("rate"):
                continue
            s = sub.xs(rate, level="rate")
            cell = {"error": mean_se(s)}
            if alg != "adaboost" and ada is not None and (wl, 1.0, rate) in ada.index.droplevel(
                    "dataset"):
                cell["minus"] = mean_se((s - ada.loc[(wl, 1.0, rate)]).dropna())
            row["rates"][float(rate)] = cell
        out.append(row)
    return out



def sensitivity_summary(df: pd.DataFrame, rate: float = 0.4) -> str:
    """Which readings beat AdaBoost significantly at ``rate`` (one sentence)."""
    hits, total, gains = [], 0, []
    for r in sensitivity_rows(df):
        cell = r["rates"].get(float(rate), {})
        if "minus" not in cell:
            continue
        total += 1
        m, se, n = cell["minus"]
        t, p = two_sided_t(m, se, n)
        if m < 0 and p < ALPHA:
            gains.append(-100 * m)
            hits.append(f"{r['reading']} with {r['weak learner']} at learning rate "
                        f"{r['learning rate']:g} ({100 * m:+.2f} points, p = {p:.2g})")
    if not total:
        return ""
    pub = published.SAVAGEBOOST_TABLE4.get(round(float(rate), 2), {})
    paper_gap = (pub["adaboost"][1] - pub["savageboost"][1]) if pub else float("nan")
    if not hits:
        return (f"None of the {total} variants has a significantly lower error than "
                f"AdaBoost at {100 * rate:g} %.")
    return (f"{len(hits)} of the {total} variants have a significantly lower error than "
            f"AdaBoost at {100 * rate:g} %: " + "; ".join(hits) + f". The largest gain, "
            f"{max(gains):.1f} points, is to be set against the paper's {paper_gap:.1f}.")



def rilboost_deltas(df: pd.DataFrame, strategy: str = "minimax") -> pd.DataFrame:
    """``Delta = max_{eps > 0} mean ACC(eps) - mean ACC(0)`` per data set, n and variant.

    RILBoost paper, Tables 2-4 and 8: the maximum runs over the *positive* epsilons of
    the grid only (epsilon = 0 is the AdaBoost it is compared with), so Delta is negative
    when every epsilon > 0 is worse than AdaBoost. Besides Delta, the epsilon that
    attains the maximum and the paired standard error of ``ACC(eps*) - ACC(0)`` over the
    random draws (the same training set is used for every epsilon of a draw) are
    returned; taking the maximum biases Delta upwards.

    Returns
    -------
    deltas : DataFrame
        Columns ``dataset``, ``n_train``, ``gamma`` (the kernel parameter, "default" if
        not set), ``I``, ``II`` (Delta), ``eps_I``, ``eps_II`` (the maximising epsilon),
        ``se_I``, ``se_II`` and ``draws_I``, ``draws_II`` (NaN where missing; the standard
        error is NaN for a single draw).
    """
    from ..plotting.results import _rilboost_frame

    r = _rilboost_frame(df)
    r = r[(r["strategy"] == strategy) & r["mixing"].isin([0.0, 1.0])]
    r = r.assign(variant=np.where(r["mixing"] == 1.0, "I", "II"))
    columns = ["dataset", "n_train", "gamma", "I", "II", "eps_I", "eps_II", "se_I", "se_II",
               "draws_I", "draws_II"]
    rows = []
    for (d, n, gm, v), g in r.groupby(["dataset", "n_train", "gamma", "variant"]):
        delta = _delta(g)
        if delta is not None:
            rows.append({"dataset": d, "n_train": n, "gamma": gm, "variant": v, **delta})
    if not rows:
        return pd.DataFrame(columns=columns)
    out = pd.DataFrame(rows).pivot_table(index=["dataset", "n_train", "gamma"],
                                         columns="variant",
                                         values=["delta", "eps", "se", "draws"], dropna=False)
    flat = pd.DataFrame({"dataset": out.index.get_level_values(0),
                         "n_train": out.index.get_level_values(1),
                         "gamma": out.index.get_level_values(2)})
    for v in ("I", "II"):
        for key, name in (("delta", v), ("eps", f"eps_{v}"), ("se", f"se_{v}"),
                          ("draws", f"draws_{v}")):
            flat[name] = out[(key, v)].to_numpy() if (key, v) in out else np.nan
    return flat[columns][flat[["I", "II"]].notna().any(axis=1)].reset_index(drop=True)


def _delta(g: pd.DataFrame) -> dict | None:
    """Delta, eps*, paired se and draws of one (data set, n, kernel, variant, mixing)."""
    s = g.groupby("epsilon")["accuracy"].mean()
    pos = s[s.index > 0]
    if 0.0 not in s.index or pos.empty:
        return None
    best = float(pos.idxmax())
    se, draws = np.nan, g["repetition"].nunique() if "repetition" in g else 1
    if "repetition" in g:
        paired = g.pivot_table(index="repetition", columns="epsilon",
                               values="accuracy")[[0.0, best]].dropna()
        if len(paired) > 1:
            diff = paired[best] - paired[0.0]
            se = float(diff.std(ddof=1) / np.sqrt(len(diff)))
        draws = len(paired)
    return {"delta": float(pos.max() - s.loc[0.0]), "eps": best, "se": se, "draws": draws}



def load_results(results) -> tuple[pd.DataFrame, list, list]:
    """``(frame, runs, failures)`` of a results path, ResultStore or frame."""
    if isinstance(results, pd.DataFrame):
        return results, [], []
    store = results if isinstance(results, ResultStore) else None
    if store is None:  # reading a report never modifies the store's file
        store = ResultStore(results, readonly=True)
    df, runs, failures = store.to_frame(), store.runs(), store.failures()
    if not isinstance(results, ResultStore):
        store.close()
    return df, runs, failures


