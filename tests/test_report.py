"""The reports' statistics: Delta over epsilon > 0, the verdict rule, ± se and n in tables,
and the generated claims table."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robust_boosting.experiments.claims import rilboost_claims, savage_claims
from robust_boosting.experiments.report import (
    _savage_section,
    mean_se,
    rilboost_deltas,
    two_sided_t,
    verdict,
)


def _ril_rows(dataset, acc_at, reps=6, n_train=20, noise=0.01, seed=0):
    """RILBoost I/II rows: accuracy ``acc_at[eps]`` plus per-draw noise."""
    rng = np.random.default_rng(seed)
    rows = []
    for rep in range(reps):
        shift = noise * rng.standard_normal()
        for alg in ("rilboost-i", "rilboost-ii"):
            for eps, acc in acc_at.items():
                jitter = 0.0 if eps == 0 else 0.001 * rng.standard_normal()
                rows.append({"dataset": dataset, "algorithm": alg,
                             "params": {"epsilon": eps}, "split": {"n_train": n_train},
                             "test_error": 1 - (acc + shift + jitter), "repetition": rep,
                             "rounds": 10, "experiment": "rilboost-small-sample"})
    return rows


@settings(max_examples=25, deadline=None)
@given(st.lists(st.floats(0.01, 0.2), min_size=1, max_size=5))
def test_delta_is_negative_when_every_positive_epsilon_is_worse(losses):
    """Delta = max over eps > 0 (the paper's definition), so it is < 0 here, not clipped at 0."""
    acc = {0.0: 0.8, **{round(0.1 * (i + 1), 1): 0.8 - x for i, x in enumerate(losses)}}
    deltas = rilboost_deltas(pd.DataFrame(_ril_rows("a", acc)))
    for v in ("I", "II"):
        assert deltas.iloc[0][v] < 0
        assert deltas.iloc[0][v] == pytest.approx(-min(losses), abs=0.01)


def test_delta_picks_the_best_positive_epsilon_and_reports_draws():
    acc = {0.0: 0.7, 0.1: 0.72, 0.2: 0.69}
    d = rilboost_deltas(pd.DataFrame(_ril_rows("a", acc, reps=5))).iloc[0]
    assert d["eps_I"] == 0.1 and d["draws_I"] == 5
    assert d["I"] == pytest.approx(0.02, abs=0.005) and 0 < d["se_I"] < 0.01


@pytest.mark.parametrize(("paper_sign", "difference", "values", "expected"), [
    (+1, True, [0.03, 0.031, 0.029, 0.03], "reproduced"),       # same sign, significant
    (+1, True, [0.03, -0.02, 0.01, -0.005], "inconclusive"),    # same sign, not significant
    (+1, True, [-0.03, -0.031, -0.029, -0.03], "contradicted"),  # opposite, significant
    (-1, True, [0.03, 0.031, 0.029, 0.03], "contradicted"),     # the other way round
    (+1, True, [-0.03, 0.02, -0.01, 0.005], "inconclusive"),    # opposite, not significant
    (-1, True, [0.0, 0.0, 0.0], "inconclusive"),                # exactly 0: p = 1
    (+1, False, [0.03, -0.02, 0.01, -0.005], "reproduced"),     # no difference claimed, none
    (+1, False, [0.03, 0.031, 0.029, 0.03], "contradicted"),    # a difference where none is
    (+1, False, [-0.03, -0.031, -0.029, -0.03], "contradicted"),  # claimed, either sign
    (+1, True, [0.02], "inconclusive"),                         # one unit: no test
    (+1, True, [np.nan], "not testable offline"),               # no unit at all
])
def test_verdict_rule_uses_sign_and_two_sided_significance(paper_sign, difference, values,
                                                           expected):
    assert verdict(paper_sign, difference, *mean_se(values)) == expected


def test_verdict_partly_when_the_papers_size_is_outside_our_interval():
    stats = mean_se([0.03, 0.031, 0.029, 0.03])
    assert verdict(+1, True, *stats, paper_effect=0.03) == "reproduced"
    assert verdict(+1, True, *stats, paper_effect=0.12) == "partly"
    assert verdict(-1, True, *stats, paper_effect=-0.12) == "contradicted"


def test_no_difference_among_several_pairs_is_bonferroni_corrected():
    # the most different of 6 pairs at p = 0.045: one pair alone would contradict a
    # claim of no difference; chosen from 6, p x 6 = 0.27 does not
    values = [0.3, -0.2, 0.5, 0.1, 0.45, -0.15, 0.6, 0.0, 0.35, -0.1, 0.4, -0.05]
    m, se, n = mean_se(values)
    p = two_sided_t(m, se, n)[1]
    assert 0.05 / 6 < p < 0.05
    assert verdict(+1, False, m, se, n) == "contradicted"
    assert verdict(+1, False, m, se, n, comparisons=6) == "reproduced"
    from robust_boosting.experiments.analysis import VERDICT_RULE
    assert "Bonferroni" in VERDICT_RULE


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(-1, 1), min_size=2, max_size=30), st.sampled_from([-1, 1]),
       st.booleans())
def test_every_verdict_follows_the_written_rule(values, sign, difference):
    """The rule as written in VERDICT_RULE, recomputed from t and p, on any input."""
    from robust_boosting.experiments.analysis import ALPHA, VERDICTS

    m, se, n = mean_se(values)
    t, p = two_sided_t(m, se, n)
    got = verdict(sign, difference, m, se, n)
    assert got in VERDICTS
    if not np.isfinite(p):
        assert got == "inconclusive"
    elif not difference:
        assert got == ("contradicted" if p < ALPHA else "reproduced")
    elif p >= ALPHA:
        assert got == "inconclusive"
    else:
        assert got == ("reproduced" if np.sign(m) == sign else "contradicted")


def test_detectable_difference_is_found_with_80_percent_power():
    """A true difference of the detectable size is significant in about 80 % of samples."""
    from robust_boosting.experiments.analysis import detectable_difference

    rng = np.random.default_rng(0)
    n, sd = 10, 1.0
    mdd = detectable_difference(sd / np.sqrt(n), n)
    assert mdd == pytest.approx((2.262 + 0.883) * sd / np.sqrt(n), rel=1e-3)
    hits = [two_sided_t(*mean_se(rng.normal(mdd, sd, n)))[1] < 0.05 for _ in range(4000)]
    assert np.mean(hits) == pytest.approx(0.8, abs=0.04)
    assert np.isnan(detectable_difference(0.1, 1))


def test_units_to_decide_is_the_smallest_n_with_80_percent_power():
    """At the returned n the measured effect is the detectable one; one unit fewer is not
    enough; and a simulated test at that n finds the effect about 80 % of the time."""
    from robust_boosting.experiments.analysis import detectable_difference, units_to_decide

    sd, n, m = 1.0, 10, 0.35
    se = sd / np.sqrt(n)
    need = units_to_decide(m, se, n)
    assert detectable_difference(sd / np.sqrt(need), need) <= m
    assert detectable_difference(sd / np.sqrt(need - 1), need - 1) > m
    # normal approximation: ((1.96 + 0.84) sd / m)^2 = 64, t adds about two units
    assert 64 <= need <= 68
    assert units_to_decide(-m, se, n) == need  # the sign does not matter
    rng = np.random.default_rng(1)
    hits = [two_sided_t(*mean_se(rng.normal(m, sd, need)))[1] < 0.05 for _ in range(3000)]
    assert np.mean(hits) == pytest.approx(0.8, abs=0.04)
    # a larger effect needs fewer units; nothing to say without an effect or a spread
    assert units_to_decide(2 * m, se, n) < need
    assert units_to_decide(0.0, se, n) is None
    assert units_to_decide(m, 0.0, n) is None
    assert units_to_decide(m, se, 1) is None
    assert units_to_decide(1e-9, se, n) is None  # beyond the limit


def test_two_sided_t_sees_significance_in_both_directions():
    t_up, p_up = two_sided_t(*mean_se([0.03, 0.031, 0.029, 0.03]))
    t_dn, p_dn = two_sided_t(*mean_se([-0.03, -0.031, -0.029, -0.03]))
    assert t_up > 0 > t_dn and p_up == pytest.approx(p_dn) and p_up < 0.001


def test_rilboost_claims_opposite_sign_is_contradicted():
    """Every bundled set worse than AdaBoost: Table 5's positive t is contradicted."""
    rows = []
    for i, d in enumerate(["rilboost-pima", "rilboost-wine", "rilboost-ecoli",
                           "rilboost-haberman"]):
        rows += _ril_rows(d, {0.0: 0.8, 0.1: 0.8 - 0.03 - 0.005 * i}, seed=i)
    claims = rilboost_claims(pd.DataFrame(rows))
    t5 = [c for c in claims if c["location"] == "Sec. 5, Table 5" and "n = 20" in c["claim"]]
    assert len(t5) == 2
    for c in t5:
        assert c["verdict"] == "contradicted"
        assert "t = -" in c["test"] and "p = " in c["test"]
        assert "± " in c["ours"] and "(n=4)" in c["ours"]


def _savage_rows(reps=2):
    rng = np.random.default_rng(0)
    base = {"savageboost": 0.30, "logitboost": 0.25, "realboost": 0.22, "adaboost": 0.20}
    rows = []
    for rate in (0.0, 0.05, 0.4):
        for d in range(5):
            for rep in range(reps):
                for alg, e in base.items():
                    rows.append({"experiment": "savageboost-table4", "dataset": f"d{d}",
                                 "algorithm": alg, "variant": alg, "rate": rate,
                                 "repetition": rep, "rounds": 50, "weak_learner": None,
                                 "test_error": e + rate / 4 + 0.01 * rng.standard_normal(),
                                 "noise": "symmetric", "params": {}, "tune": {},
                                 "n_rounds": 50, "task": {"tune_rounds": False}})
    return pd.DataFrame(rows)


def test_savage_report_tables_carry_se_and_n_and_the_ordering_verdict(tmp_path):
    df = _savage_rows()
    md = "\n".join(_savage_section(df, tmp_path, ""))
    assert "± " in md and "reps=2" in md and "(n=5)" in md
    rows = savage_claims(df)
    order = next(r for r in rows if "ordering" in r["claim"])
    assert order["verdict"] == "contradicted"  # ours is the reverse of the paper's order


def test_write_claims_from_stores(tmp_path):
    from robust_boosting.experiments.store import ResultStore

    df = _savage_rows()
    (tmp_path / "savageboost-table4").mkdir()
    with ResultStore(tmp_path / "savageboost-table4" / "results.sqlite") as store:
        for i, row in enumerate(df.to_dict("records")):
            store.add({**row, "task_id": f"t{i}", "task": "{}", "split": {},
                       "selected": {}, "fit_time": 0.0, "total_time": 0.0, "versions": {},
                       "host": "h", "train_error": 0.0, "cv_error": None,
                       "bayes_error": None, "n_train": 1, "n_test": 1, "n_flipped": 0,
                       "seed": 0})
    from robust_boosting.cli import main

    assert main(["report", str(tmp_path / "savageboost-table4" / "results.sqlite")]) == 0
    report = (tmp_path / "savageboost-table4" / "report.md").read_text()
    assert "Produced by:" in report and "robust-boosting report" in report
    assert report.index("### Protocol:") < report.index("## SavageBoost paper, Table 4")
    assert main(["report", "--claims", str(tmp_path)]) == 0
    path = tmp_path / "claims.md"
    text = path.read_text()
    assert "## Verdict rule" in text and "not reproduced" not in text
    assert "not testable offline" in text and "contradicted" in text
    summary = text[text.index("## Summary"):text.index("## Verdict rule")]
    assert "Contradicted (the published result does not hold in our runs):" in summary
    assert "ordering SavageBoost < LogitBoost" in summary
    assert text.count("\n| ") >= 10


def test_sensitivity_rows_pair_each_reading_with_adaboost_of_the_same_learner():
    from robust_boosting.experiments.analysis import sensitivity_rows, sensitivity_summary

    rng = np.random.default_rng(1)
    rows = []
    for d in range(6):
        for wl, ada in (("hist-stump", 0.30), ("hist-2", 0.35)):
            for alg, lr, err in (("adaboost", 1.0, ada), ("savageboost", 1.0, ada + 0.05),
                                 ("savageboost-reversed", 0.1, ada - 0.05)):
                rows.append({"dataset": f"d{d}", "algorithm": alg, "weak_learner": wl,
                             "params": {"learning_rate": lr} if alg != "adaboost" else {},
                             "rate": 0.4, "test_error": err + 0.002 * rng.standard_normal()})
    out = sensitivity_rows(pd.DataFrame(rows))
    rev = next(r for r in out if r["reading"] == "sign-reversed" and r["weak learner"] == "hist-2")
    m, se, n = rev["rates"][0.4]["minus"]
    assert m == pytest.approx(-0.05, abs=0.005) and n == 6
    text = sensitivity_summary(pd.DataFrame(rows), 0.4)
    assert text.startswith("2 of the 4 variants") and "sign-reversed" in text


def test_report_of_a_committed_store_does_not_modify_it(tmp_path):
    """``robust-boosting report`` only reads: the store's bytes and tables stay the same
    and no ``-wal``/``-shm`` file (nor a ``claims`` table, in a store without one)
    appears next to it."""
    import hashlib
    import shutil
    import sqlite3
    from pathlib import Path

    from robust_boosting.cli import main

    def tables(path):
        con = sqlite3.connect(f"{path.as_uri()}?mode=ro&immutable=1", uri=True)
        names = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        con.close()
        return names

    src = Path(__file__).parents[1] / "docs" / "results" / "quick" / "results.sqlite"
    store = tmp_path / "store" / "results.sqlite"
    store.parent.mkdir()
    shutil.copy(src, store)
    con = sqlite3.connect(store)  # a store written before report --claims made the table
    con.execute("DROP TABLE IF EXISTS claims")
    con.commit()
    con.close()
    before = hashlib.sha256(store.read_bytes()).hexdigest()
    tables_before = tables(store)
    assert "claims" not in tables_before
    assert main(["report", str(store), "--out", str(tmp_path / "out")]) == 0
    assert hashlib.sha256(store.read_bytes()).hexdigest() == before
    assert sorted(p.name for p in store.parent.iterdir()) == ["results.sqlite"]
    assert tables(store) == tables_before


def test_readonly_store_reads_rows_still_in_the_write_ahead_log(tmp_path):
    import sqlite3

    from robust_boosting.experiments import ResultStore

    path = tmp_path / "r.sqlite"
    with ResultStore(path) as writer:  # open: its rows may still be in the -wal file
        writer.add({"task_id": "t1", "test_error": 0.25})
        with ResultStore(path, readonly=True) as reader:
            assert reader.done_ids() == {"t1"}
            with pytest.raises(sqlite3.OperationalError):
                reader.add({"task_id": "t2"})
    with pytest.raises(ValueError, match="not found"):
        ResultStore(tmp_path / "missing.sqlite", readonly=True)


def test_inconclusive_rows_print_the_detectable_difference():
    from robust_boosting.experiments.claims import _row

    row = _row("P", "L", "c", "1.00", [0.01, -0.02, 0.015, -0.01], sign=+1,
               design="4 of the paper's 17 sets", reason="Why.")
    assert row["verdict"] == "inconclusive"
    assert "detectable at 80 % power: ±" in row["test"]
    assert "units would decide it" in row["test"]
    assert row["reason"] == "n: 4 of the paper's 17 sets. Why."
    row = _row("P", "L", "c", "1.00", [0.03, 0.031, 0.029, 0.03], sign=+1,
               design="4 of the paper's 17 sets", reason="Why.")
    assert row["verdict"] == "reproduced" and "detectable" not in row["test"]
    assert "decide" not in row["test"] and row["reason"] == "Why."


def test_summary_counts_every_verdict_and_names_the_contradicted():
    from robust_boosting.experiments.claims import summary_lines, verdict_counts

    rows = [{"paper": "P", "location": f"L{i}", "claim": f"claim {i}", "paper_value": "1",
             "ours": "2", "test": "t", "verdict": v}
            for i, v in enumerate(["reproduced", "contradicted", "inconclusive",
                                   "inconclusive", "not testable offline"])]
    assert verdict_counts(rows) == {"contradicted": 1, "inconclusive": 2, "partly": 0,
                                    "reproduced": 1, "not testable offline": 1}
    text = "\n".join(summary_lines(rows))
    assert text.startswith("5 claims: 1 contradicted, 2 inconclusive, 0 partly, 1 reproduced")
    assert "claim 1" in text and "claim 0" not in text
    with pytest.raises(ValueError, match="not reproduced"):
        verdict_counts([{**rows[0], "verdict": "not reproduced"}])


def test_claims_and_report_do_not_import_each_other():
    """One direction: report -> claims -> analysis; claims never imports report."""
    import ast
    import inspect

    import robust_boosting.experiments.analysis as analysis
    import robust_boosting.experiments.claims as claims

    def imported(module):
        names = set()
        for node in ast.walk(ast.parse(inspect.getsource(module))):
            if isinstance(node, ast.ImportFrom):
                names.add((node.module or "").split(".")[-1])
        return names

    assert "report" not in imported(claims)
    assert not {"report", "claims"} & imported(analysis)
