"""Long tails of true targets against wrong targets (docs/design/0029-long-tails.md).

Each cell: one regression table of the real-table benchmark (``bench_real_tables.py``'s
rule, the held-out packages excluded; at most 8,000 rows, subsampled with seed 0), one
70/30 split (seed 0), its training targets clean or 20 % corrupted by one kind of
``corrupt_targets`` (replace, shift, unit). It fits LightGBM, ``SPLBoostRegressorCV()``
and the plain candidates with every row kept
(``SPLBoostRegressorCV(age=inf, loss="squared_error", remove_label_issues=False)``),
and records their clean-test RMSE, their fit times, the default's suspects and the R²
of the suspects' targets on the plain model's out-of-fold predictions (``r2_p``) and on
the default's (``r2_d``). One JSON line per cell, appended to ``--out`` (a rerun skips
the cells already there).

``--sweep`` reads such a file and prints, for each threshold ``tau``, the mean RMSE over
LightGBM's of the rule "keep every row and take the plain model when the suspects are
more than 2 % of the rows and ``r2_p >= tau``", on the tables of even position in the
sorted list (chosen on) and of odd position (checked on).

    python benchmarks/design/long_tails.py --out long_tails.jsonl
    python benchmarks/design/long_tails.py --sweep long_tails.jsonl

Run with the code from before the rule (a812309) to get the old default's rows; with the
rule in place, ``SPLBoostRegressorCV()`` is the new default and ``suspects_r2_`` is
recorded as well.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from pathlib import Path

import numpy as np
from sklearn.model_selection import train_test_split

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import bench_real_tables as tables  # noqa: E402

from robust_boosting import SPLBoostRegressorCV  # noqa: E402
from robust_boosting.noise import corrupt_targets  # noqa: E402

NOISES = ("clean", "replace", "shift", "unit")
TAUS = (0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6)


def _rmse(model, X, y) -> float:
    return float(np.sqrt(np.mean((model.predict(X) - y) ** 2)))


def _r2(y, pred) -> float | None:
    if y.shape[0] < 3:
        return None
    return float(1 - np.sum((y - pred) ** 2) / np.sum((y - y.mean()) ** 2))


def _timed(model, X, y):
    start = time.process_time()
    model.fit(X, y)
    return model, time.process_time() - start


def cell(name, Xtr, Xte, ytr, yte, noise) -> dict:
    from lightgbm import LGBMRegressor
    y = ytr if noise == "clean" else corrupt_targets(ytr, 0.2, kind=noise, random_state=0)[0]
    rec = dict(table=name, noise=noise, n=int(y.shape[0]))
    lgbm, rec["t_l"] = _timed(LGBMRegressor(n_jobs=1, verbose=-1, random_state=0), Xtr, y)
    default, rec["t_d"] = _timed(SPLBoostRegressorCV(random_state=0, n_jobs=1), Xtr, y)
    plain, rec["t_p"] = _timed(
        SPLBoostRegressorCV(random_state=0, n_jobs=1, age=np.inf, loss="squared_error",
                            remove_label_issues=False), Xtr, y)
    rec.update(rmse_l=_rmse(lgbm, Xte, yte), rmse_d=_rmse(default, Xte, yte),
               rmse_p=_rmse(plain, Xte, yte))
    s = default.label_issues_
    rec["share"] = s.size / y.shape[0]
    rec["removed"] = bool(default.remove_label_issues_)
    rec["r2_p"] = _r2(y[s], plain.oof_predictions_[s])
    rec["r2_d"] = _r2(y[s], default.oof_predictions_[s])
    if hasattr(default, "suspects_r2_"):
        rec["suspects_r2"] = default.suspects_r2_
    return rec


def run(out: Path, only=None) -> None:
    done = set()
    if out.exists():
        done = {(r["table"], r["noise"]) for r in map(json.loads, out.read_text().splitlines())}
    with out.open("a") as f:
        for spec in tables.select_tables("regression"):
            name = f"{spec.package}/{spec.item}"
            if only and name not in only:
                continue
            if all((name, noise) in done for noise in NOISES):
                continue
            X, y = tables.load(spec)
            if y.shape[0] > 8000:
                rows = np.random.default_rng(0).choice(y.shape[0], 8000, replace=False)
                X, y = X.iloc[rows], y[rows]
            Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, random_state=0)
            for noise in NOISES:
                if (name, noise) not in done:
                    f.write(json.dumps(cell(name, Xtr, Xte, ytr, yte, noise)) + "\n")
                    f.flush()


def sweep(path: Path) -> None:
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    names = sorted({r["table"] for r in rows})
    halves = {"chosen on": set(names[0::2]), "checked on": set(names[1::2])}
    for half, members in halves.items():
        print(f"{half} ({len(members)} tables): mean RMSE / LightGBM's (cells where the rule fires)")
        for tau in (None, *TAUS):
            line = [f"  tau {'none' if tau is None else tau:>5}"]
            for noise in NOISES:
                cells = [r for r in rows if r["table"] in members and r["noise"] == noise]
                fires = [tau is not None and r["share"] > 0.02 and r["r2_p"] is not None
                         and r["r2_p"] >= tau for r in cells]
                ratio = [(r["rmse_p"] if fire else r["rmse_d"]) / r["rmse_l"]
                         for r, fire in zip(cells, fires, strict=True)]
                line.append(f"{noise} {np.mean(ratio):.3f} ({sum(fires)})")
            print(" | ".join(line))
    noisy = [r["r2_p"] for r in rows if r["noise"] != "clean" and r["r2_p"] is not None]
    print(f"largest r2_p of corrupted targets: {max(noisy):.3f}")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("long_tails.jsonl"))
    parser.add_argument("--sweep", type=Path, help="print the threshold sweep of this file")
    parser.add_argument("--tables", nargs="+", metavar="PACKAGE/ITEM",
                        help="only these tables (default: all of the benchmark's)")
    args = parser.parse_args(argv)
    warnings.filterwarnings("ignore")
    if args.sweep:
        sweep(args.sweep)
    else:
        run(args.out, args.tables)


if __name__ == "__main__":
    main()
