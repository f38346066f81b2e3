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
    (+1, True, [0.03, -0.02, 0.01, -0.005], "not reproduced"),  # same sign, not significant
    (+1, True, [-0.03, -0.031, -0.029, -0.03], "not reproduced"),  # opposite, significant
    (+1, True, [-0.03, 0.02, -0.01, 0.005], "not reproduced"),  # opposite, not significant
    (-1, True, [0.0, 0.0, 0.0], "not reproduced"),              # exactly 0 is not the sign
    (+1, False, [0.03, -0.02, 0.01, -0.005], "reproduced"),     # no difference claimed, none
    (+1, False, [0.03, 0.031, 0.029, 0.03], "partly"),
    (+1, False, [-0.03, -0.031, -0.029, -0.03], "not reproduced"),
    (+1, True, [0.02], "partly"),                               # one unit: no test
])
def test_verdict_rule_uses_sign_and_two_sided_significance(paper_sign, difference, values,
                                                           expected):
    assert verdict(paper_sign, difference, *mean_se(values)) == expected


def test_verdict_partly_when_the_papers_size_is_outside_our_interval():
    stats = mean_se([0.03, 0.031, 0.029, 0.03])
    assert verdict(+1, True, *stats, paper_effect=0.03) == "reproduced"
    assert verdict(+1, True, *stats, paper_effect=0.12) == "partly"
    assert verdict(-1, True, *stats, paper_effect=-0.12) == "not reproduced"


def test_two_sided_t_sees_significance_in_both_directions():
    t_up, p_up = two_sided_t(*mean_se([0.03, 0.031, 0.029, 0.03]))
    t_dn, p_dn = two_sided_t(*mean_se([-0.03, -0.031, -0.029, -0.03]))
    assert t_up > 0 > t_dn and p_up == pytest.approx(p_dn) and p_up < 0.001


def test_rilboost_claims_opposite_sign_is_not_reproduced():
    """Every bundled set worse than AdaBoost: Table 5's positive t is not reproduced."""
    rows = []
    for i, d in enumerate(["rilboost-pima", "rilboost-wine", "rilboost-ecoli",
                           "rilboost-haberman"]):
        rows += _ril_rows(d, {0.0: 0.8, 0.1: 0.8 - 0.03 - 0.005 * i}, seed=i)
    claims = rilboost_claims(pd.DataFrame(rows))
    t5 = [c for c in claims if c["location"] == "Sec. 5, Table 5" and "n = 20" in c["claim"]]
    assert len(t5) == 2
    for c in t5:
        assert c["verdict"] == "not reproduced"
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
    assert order["verdict"] == "not reproduced"  # ours is the reverse of the paper's order


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
    assert "## Verdict rule" in text and "not reproduced" in text
    assert "not testable offline" in text
    assert text.count("\n| ") >= 10


def test_sensitivity_rows_pair_each_reading_with_adaboost_of_the_same_learner():
    from robust_boosting.experiments.report import sensitivity_rows, sensitivity_summary

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
    """``robust-boosting report`` only reads: the store's bytes stay the same and no
    ``-wal``/``-shm`` file (nor a ``claims`` table) appears next to it."""
    import hashlib
    import shutil
    import sqlite3
    from pathlib import Path

    from robust_boosting.cli import main

    src = Path(__file__).parents[1] / "docs" / "results" / "quick" / "results.sqlite"
    store = tmp_path / "store" / "results.sqlite"
    store.parent.mkdir()
    shutil.copy(src, store)
    before = hashlib.sha256(store.read_bytes()).hexdigest()
    assert main(["report", str(store), "--out", str(tmp_path / "out")]) == 0
    assert hashlib.sha256(store.read_bytes()).hexdigest() == before
    assert sorted(p.name for p in store.parent.iterdir()) == ["results.sqlite"]
    con = sqlite3.connect(f"{store.as_uri()}?mode=ro&immutable=1", uri=True)
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    con.close()
    assert "claims" not in tables


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
