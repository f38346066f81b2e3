"""The loop's overhead: the defaults' fit time over LightGBM's, and their models' hashes
(docs/design/0042-loop-overhead.md).

``--task regression`` or ``classification``: 16 real tables of the benchmark
(``bench_real_tables.py``), split 0 (70/30), clean labels, one thread. Each table's
``SPLBoostRegressorCV`` or ``SPLBoostClassifierCV`` (``n_jobs=1``) and LightGBM's default
are fitted ``--reps`` times in turn; printed: the least fit time of each, their ratio, and a
hash of the default's test predictions (and probabilities) and ``label_issue_scores_``,
then the geometric mean of the ratios. ``--hashes F`` writes the hashes as JSON;
``--compare A B`` lists the tables whose hashes differ (a change that keeps the models
lists none).

    PYTHONPATH=src python benchmarks/design/loop_overhead.py --task regression \\
        --hashes before.json                      # at the commit before
    PYTHONPATH=src python benchmarks/design/loop_overhead.py --task regression \\
        --hashes after.json                       # at this commit
    python benchmarks/design/loop_overhead.py --compare before.json after.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

TABLES = {
    "regression": [
        "HSAUR/Forbes2000", "Stat2Data/NCbirths", "causaldata/texas", "mlmRev/Exam",
        "mosaicData/SaratogaHouses", "openintro/acs12", "openintro/satgpa", "plm/Cigar",
        "plm/EmplUK", "plm/Wages", "stevedata/fakeTSCS", "wooldridge/beauty",
        "wooldridge/cps91", "wooldridge/htv", "wooldridge/loanapp", "nlme/MathAchieve"],
    "classification": [
        "causaldata/titanic", "pscl/vote92", "wooldridge/fertil2", "wooldridge/beauty",
        "plm/Wages", "wooldridge/wagepan", "Stat2Data/Airlines", "mlmRev/Socatt",
        "heplots/TIPI", "lme4/VerbAgg", "wooldridge/happiness", "Stat2Data/Whickham2",
        "openintro/email", "stevedata/voteincome", "mstate/prothr", "wooldridge/charity"],
}


def _hash(model, X_test) -> str:
    h = hashlib.sha1(np.ascontiguousarray(model.predict(X_test)).tobytes())
    if hasattr(model, "predict_proba"):
        h.update(np.ascontiguousarray(model.predict_proba(X_test)).tobytes())
    h.update(np.ascontiguousarray(model.label_issue_scores_).tobytes())
    return h.hexdigest()[:12]


def run(task: str, reps: int, hashes: str | None) -> None:
    import bench_real_tables as bench
    from sklearn.model_selection import train_test_split
    from threadpoolctl import threadpool_limits

    specs = {spec.name: spec for spec in bench.select_tables(task)}
    logs, out = [], {}
    with threadpool_limits(1):
        for name in TABLES[task]:
            X, y = bench.load(specs[name])
            X_tr, X_te, y_tr, _ = train_test_split(
                X, y, test_size=0.3, random_state=0,
                stratify=y if task == "classification" else None)
            ours, peer = [], []
            for _ in range(reps):
                lgbm = bench.make_model("lgbm", task, 0)
                start = time.perf_counter()
                lgbm.fit(X_tr, y_tr)
                peer.append(time.perf_counter() - start)
                model = bench.make_model("splcv", task, 0)
                start = time.perf_counter()
                model.fit(X_tr, y_tr)
                ours.append(time.perf_counter() - start)
            out[name] = _hash(model, X_te)
            logs.append(np.log(min(ours) / min(peer)))
            print(f"{name:28s} {min(ours):7.3f} s  LightGBM {min(peer):7.4f} s  "
                  f"{min(ours) / min(peer):6.2f}x  {out[name]}", flush=True)
    print(f"geometric mean over LightGBM's: {np.exp(np.mean(logs)):.3f}x")
    if hashes:
        Path(hashes).write_text(json.dumps(out, indent=1))


def compare(a: str, b: str) -> None:
    old, new = json.loads(Path(a).read_text()), json.loads(Path(b).read_text())
    differ = [name for name in old if old[name] != new.get(name)]
    print(f"{len(old)} tables, {len(differ)} with other models: {differ}")


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    warnings.simplefilter("ignore")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", choices=sorted(TABLES))
    parser.add_argument("--reps", type=int, default=2)
    parser.add_argument("--hashes")
    parser.add_argument("--compare", nargs=2, metavar=("A", "B"))
    args = parser.parse_args()
    if not (args.compare or args.task):
        parser.error("give --task or --compare")
    if args.compare:
        compare(*args.compare)
    else:
        run(args.task, args.reps, args.hashes)
