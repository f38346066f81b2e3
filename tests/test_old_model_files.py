"""Model files saved by release 0.1.0 still load and predict bit for bit.

``fixtures/models/*.skops`` were written by ``fixtures/models/make_fixtures.py`` before
the classes were moved between modules; ``expected.npz`` holds what they predicted then.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import robust_boosting as rb

HERE = Path(__file__).parent / "fixtures" / "models"
sys.path.insert(0, str(HERE))
from make_fixtures import frame  # noqa: E402

sys.path.remove(str(HERE))

NAMES = sorted(p.stem for p in HERE.glob("*.skops"))


def test_every_fixture_is_listed():
    assert set(NAMES) == set(np.load(HERE / "expected.npz").files)
    assert len(NAMES) >= 5


@pytest.mark.parametrize("name", NAMES)
def test_old_file_loads_and_predicts_bit_identically(name):
    expected = np.load(HERE / "expected.npz")[name]
    model = rb.load_model(HERE / f"{name}.skops")
    df, _ = frame()
    X = df if name == "splboost_cv_categorical" else df.drop(columns="colour").to_numpy()
    X = X[:150] if name == "rilboost" else X
    np.testing.assert_array_equal(model.predict_proba(X), expected)
