"""What issue 68's benchmark accuracy asks of the removal decision (design index, item 55).

From saved ``bench_real_tables.py --rows`` files (compact or full), for each noise
setting: the mean test error over the tables of the default (``splcv``), of
``remove_label_issues=False`` (``splcv_keep``) and of CatBoost, and two bounds that no
rule choosing per table between removing the suspects and keeping every row can beat:

- ``oracle``: on each table, the better of the two on the clean test labels;
- ``oracle, removal on FORCED``: the same, but the ``--forced`` tables keep the default's
  removal (the tables whose out-of-fold model has no skill on clean labels, where the
  bundled class-conditional cells ask for removal, items 49, 50 and 54).

A row of a later file replaces that of an earlier one for the same model and cell.

    python benchmarks/design/criteria_conflict.py \\
        --rows docs/results/real-tables-rows.csv docs/results/real-tables-rows-0043.csv \\
               docs/results/real-tables-rows-item55-keep.csv
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import bench_real_tables as tables  # noqa: E402

FORCED = ("Stat2Data/Airlines", "geepack/muscatine")


def table_means(paths, noises) -> dict[str, pd.DataFrame]:
    """Per noise setting, the mean error per table (rows) of each model (columns)."""
    d = tables.saved_rows(paths)
    d = tables._ok(d[d.task == "classification"])
    out = {}
    for noise in noises:
        w = d[d.noise == noise].pivot_table(index=["dataset", "split"], columns="model",
                                            values="error")
        out[noise] = w.dropna(subset=["splcv", "splcv_keep"]).groupby("dataset").mean()
    return out


def summary(means: dict[str, pd.DataFrame], forced) -> str:
    lines = ["| noise | tables | default | keep every row | CatBoost | oracle | "
             f"oracle, removal on {len(forced)} tables | removal − keep there |",
             "|---|---|---|---|---|---|---|---|"]
    for noise, t in means.items():
        best = np.minimum(t["splcv"], t["splcv_keep"])
        held = best.copy()
        there = [f for f in forced if f in t.index]
        held[there] = t.loc[there, "splcv"]
        gap = ", ".join(f"{(t.splcv - t.splcv_keep)[f]:+.1f}" for f in there)
        lines.append(f"| {noise} | {len(t)} | {t.splcv.mean():.2f} | {t.splcv_keep.mean():.2f}"
                     f" | {t['catboost'].mean():.2f} | {best.mean():.2f} | {held.mean():.2f}"
                     f" | {gap} |")
    return "\n".join(lines)


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rows", nargs="+", required=True)
    p.add_argument("--noise", nargs="+", default=["clean", "sym20", "hardest20"])
    p.add_argument("--forced", nargs="+", default=list(FORCED))
    a = p.parse_args(argv)
    print(summary(table_means(a.rows, a.noise), a.forced))


if __name__ == "__main__":
    main()
