"""Two-category columns split as their codes (docs/design/0043-two-category-columns.md).

``--compare OLD NEW`` reads two row files of ``bench_real_tables.py --task
classification --models splcv lgbm`` (before and after the change, the same seeds) and
prints, per noise setting, the default's paired test-error difference (NEW - OLD, points;
the mean over tables of each table's mean over splits, ± its standard error over
tables), the tables whose errors changed, each changed table's clean-label gap to
LightGBM after the change, the tables more than 1.5 points behind LightGBM on clean labels
in each file, and each run's fit time over LightGBM's in the same run (geometric mean).

    python benchmarks/bench_real_tables.py --task classification --models splcv lgbm \\
        --noise clean sym20 hardest20 sym35 hardest35 --splits 3 --rows new.csv
    python benchmarks/design/two_category_columns.py --compare old.csv new.csv
"""

from __future__ import annotations

import argparse

import numpy as np
import pandas as pd

NOISES = ["clean", "sym20", "hardest20", "sym35", "hardest35"]


def _rows(path: str) -> pd.DataFrame:
    d = pd.read_csv(path)
    d["task"] = d["task"].replace({"c": "classification"})
    d = d[(d.task == "classification") & d.model.isin(["splcv", "lgbm"])]
    return d.drop_duplicates(["dataset", "split", "noise", "model"], keep="last")


def _clean_gap(d: pd.DataFrame) -> pd.Series:
    """Per table, the default's clean-label error minus LightGBM's (mean over splits)."""
    c = d[d.noise == "clean"].pivot_table(index=["dataset", "split"], columns="model",
                                          values="error")
    return (c.splcv - c.lgbm).groupby(level="dataset").mean()


def _behind(d: pd.DataFrame) -> dict:
    """Tables whose clean-label error is more than 1.5 points above LightGBM's."""
    gap = _clean_gap(d)
    return {k: round(float(v), 2) for k, v in gap[gap > 1.5].items()}


def _time(d: pd.DataFrame) -> str:
    t = d.pivot_table(index=["dataset", "split", "noise"], columns="model", values="time")
    r = np.log(t.splcv / t.lgbm)
    per = {k: round(float(np.exp(v.mean())), 2) for k, v in r.groupby(level="noise")}
    return f"{per}, all {np.exp(r.mean()):.2f}"


def compare(old_path: str, new_path: str) -> None:
    old, new = _rows(old_path), _rows(new_path)
    key = ["dataset", "split", "noise"]
    m = old[old.model == "splcv"].merge(new[new.model == "splcv"], on=key,
                                        suffixes=("_o", "_n"))
    m["d"] = m.error_n - m.error_o
    changed = sorted(m.loc[m.d != 0, "dataset"].unique())
    print(f"{len(m)} fits in both, {int((m.d == 0).sum())} with the same error; "
          f"{len(changed)} tables changed: {', '.join(changed)}")
    for noise in [n for n in NOISES if n in set(m.noise)]:
        t = m[m.noise == noise].groupby("dataset").d.mean()
        g = m[m.noise == noise]
        print(f"  {noise:9s} {t.mean():+.3f} ± {t.std(ddof=1) / np.sqrt(len(t)):.3f} "
              f"({len(t)} tables; mean error {g.error_o.mean():.2f} -> {g.error_n.mean():.2f})")
    gap = _clean_gap(new)
    for name in changed:
        per = m[m.dataset == name].groupby("noise").d.mean()
        print(f"  {name:30s} " + " ".join(f"{n} {per.get(n, np.nan):+.2f}" for n in NOISES)
              + f"; clean, after, minus LightGBM {gap.get(name, np.nan):+.2f}")
    print("more than 1.5 points behind LightGBM on clean labels: before", _behind(old),
          "after", _behind(new))
    print("fit time / LightGBM's: before", _time(old))
    print("                       after ", _time(new))


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--compare", nargs=2, metavar=("OLD", "NEW"), required=True)
    a = p.parse_args(argv)
    compare(*a.compare)


if __name__ == "__main__":
    main()
