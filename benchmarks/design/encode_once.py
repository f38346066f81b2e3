"""The fit time of the CV estimators on real tables with categorical or boolean columns,
at two source trees (docs/design/0030-encode-once.md).

For every fourth table of the real-table benchmark (``bench_real_tables.py``'s rule, the
held-out packages excluded) that has a categorical or boolean column, one 70/30 split
(seed 0) with clean targets: ``SPLBoostRegressorCV()`` or ``SPLBoostClassifierCV()`` is
fitted in a fresh process with each tree's ``src`` on its path, alternately, ``--pairs``
times. It prints each tree's smallest process time and their ratio (new over old), and
checks that both trees predict the same test rows bit for bit.

    python benchmarks/design/encode_once.py --old /path/to/old/src --new src
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import bench_real_tables as tables  # noqa: E402

CHILD = """
import json, sys, time, warnings
import numpy as np
warnings.filterwarnings("ignore")
sys.path.insert(0, {bench!r})
import bench_real_tables as tables
from sklearn.model_selection import train_test_split
from robust_boosting import SPLBoostClassifierCV, SPLBoostRegressorCV
spec = tables.table_spec({package!r}, {item!r}, {task!r})
X, y = tables.load(spec)
Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, random_state=0)
model = (SPLBoostClassifierCV if {task!r} == "classification" else SPLBoostRegressorCV)(
    random_state=0, n_jobs=1)
start = time.process_time()
model.fit(Xtr, ytr)
print(json.dumps({{"time": time.process_time() - start,
                   "pred": np.asarray(model.predict(Xte)).astype(str).tolist()}}))
"""


def _fit(src: str, spec, task: str) -> dict:
    code = CHILD.format(bench=str(Path(__file__).resolve().parents[1]), package=spec.package,
                        item=spec.item, task=task)
    env = dict(os.environ, PYTHONPATH=str(Path(src).resolve()), OMP_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                         capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _has_categories(X) -> bool:
    return any(str(t) in ("category", "bool", "boolean", "object") for t in X.dtypes)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", required=True, help="the old tree's src directory")
    parser.add_argument("--new", required=True, help="the new tree's src directory")
    parser.add_argument("--pairs", type=int, default=2)
    args = parser.parse_args(argv)
    ratios: dict[str, list[float]] = {}
    for task in ("regression", "classification"):
        for spec in tables.select_tables(task)[::4]:
            X, _ = tables.load(spec)
            if not _has_categories(X):
                continue
            times: dict[str, list[float]] = {"old": [], "new": []}
            preds = {}
            for _ in range(args.pairs):
                for name in ("old", "new"):
                    got = _fit(getattr(args, name), spec, task)
                    times[name].append(got["time"])
                    preds[name] = got["pred"]
            ratio = min(times["new"]) / min(times["old"])
            ratios.setdefault(task, []).append(ratio)
            print(f"{task:14s} {spec.package}/{spec.item} {X.shape}: old {min(times['old']):.2f} s, "
                  f"new {min(times['new']):.2f} s, new/old {ratio:.3f}, same predictions: "
                  f"{preds['old'] == preds['new']}", flush=True)
    for task, values in ratios.items():
        print(f"{task}: geometric mean of new/old {np.exp(np.mean(np.log(values))):.3f} "
              f"over {len(values)} tables")


if __name__ == "__main__":
    main()
