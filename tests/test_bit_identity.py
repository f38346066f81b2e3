"""Every estimator's ``predict_proba`` is bit-identical to the recorded fingerprints.

The fingerprints in ``fixtures/bit_identity.json`` were recorded before the
redesign that split the robust default by job and the kernels by file; a refactor
must leave every model bit for bit the same. After a deliberate model change,
rerecord them with ``ROBUST_BOOSTING_RECORD=1 python -m pytest tests/test_bit_identity.py``
and say why in the commit body.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_classification

import robust_boosting as rb

pytestmark = pytest.mark.filterwarnings("ignore::robust_boosting.BoostingStoppedWarning")

FINGERPRINTS = Path(__file__).parent / "fixtures" / "bit_identity.json"
RECORD = os.environ.get("ROBUST_BOOSTING_RECORD") == "1"


def _data(n: int, k: int, seed: int = 0):
    X, y = make_classification(n_samples=n, n_features=10, n_informative=6,
                               n_classes=k, n_clusters_per_class=1, flip_y=0.1,
                               random_state=seed)
    return X, y


def _estimators():
    """(name, estimator, n, k): every public estimator, binary and multiclass."""
    small = dict(n_estimators=10, random_state=0)
    out = []
    for k in (2, 3):
        out += [
            (f"ada-{k}", rb.AdaBoostClassifier(**small), 300, k),
            (f"spl-{k}", rb.SPLBoostClassifier(**small), 300, k),
            (f"real-{k}", rb.RealBoostClassifier(**small), 300, k),
            (f"gentle-{k}", rb.GentleBoostClassifier(**small), 300, k),
            (f"logit-{k}", rb.LogitBoostClassifier(**small), 300, k),
            (f"spl-logit-{k}", rb.SPLLogitBoostClassifier(**small), 300, k),
            (f"spl-gentle-{k}", rb.SPLGentleBoostClassifier(**small), 300, k),
            (f"savage-{k}", rb.SavageBoostClassifier(**small), 300, k),
            (f"rboost-{k}", rb.RBoostClassifier(**small), 300, k),
            (f"robust-{k}", rb.RobustBoostClassifier(**small), 300, k),
            (f"ril-{k}", rb.RILBoostClassifier(n_estimators=3, random_state=0), 120, k),
            (f"tree-{k}", rb.HistTreeClassifier(max_depth=4, random_state=0), 300, k),
        ]
    out += [
        ("logit-shared-3", rb.LogitBoostClassifier(
            n_estimators=10, random_state=0,
            estimator=rb.HistTreeRegressor(max_depth=3, grow_policy="symmetric"),
            multiclass_trees="shared"), 300, 3),
        ("logit-symmetric-2", rb.LogitBoostClassifier(
            n_estimators=10, random_state=0,
            estimator=rb.HistTreeRegressor(max_depth=4, grow_policy="symmetric")), 300, 2),
    ]
    for n in (1000, 20000):
        for k in (2, 5):
            out.append((f"cv-{n}-{k}", rb.SPLBoostClassifierCV(random_state=0), n, k))
    return out


def _fingerprint(name, est, n, k) -> str:
    X, y = _data(n, k)
    est.fit(X, y)
    proba = np.ascontiguousarray(est.predict_proba(X[: min(n, 2000)]), dtype=np.float64)
    return hashlib.sha256(proba.tobytes()).hexdigest()


def _categorical_fingerprint() -> str:
    """The default on a table with a categorical column (leaf-wise trees, category sets)."""
    X, y = _data(1000, 3, seed=1)
    frame = pd.DataFrame(X, columns=[f"x{i}" for i in range(X.shape[1])])
    frame["c"] = pd.Categorical(np.array(list("abcdefg"))[(np.abs(X[:, 0]) * 3).astype(int) % 7])
    est = rb.SPLBoostClassifierCV(random_state=0).fit(frame, y)
    proba = np.ascontiguousarray(est.predict_proba(frame), dtype=np.float64)
    return hashlib.sha256(proba.tobytes()).hexdigest()


CASES = _estimators()


def _recorded() -> dict:
    return json.loads(FINGERPRINTS.read_text()) if FINGERPRINTS.exists() else {}


@pytest.mark.parametrize("name,est,n,k", CASES, ids=[c[0] for c in CASES])
def test_predict_proba_is_bit_identical(name, est, n, k):
    got = _fingerprint(name, est, n, k)
    _check(name, got)


def test_categorical_default_is_bit_identical():
    _check("cv-categorical-1000-3", _categorical_fingerprint())


def _check(name: str, got: str) -> None:
    if RECORD:
        table = _recorded()
        table[name] = got
        FINGERPRINTS.write_text(json.dumps(dict(sorted(table.items())), indent=1) + "\n")
        return
    assert _recorded()[name] == got, f"{name}: predict_proba changed"
