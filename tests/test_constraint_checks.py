"""The checks of ``monotonic_cst`` and ``class_weight`` (issue 69, items 4 and 5)."""

import numpy as np
import pytest

from robust_boosting._validation import (
    check_monotonic_classes,
    check_monotonic_cst,
    class_weight_sample_weight,
)


def test_monotonic_cst_formats():
    names = ["a", "b", "c"]
    assert check_monotonic_cst(None, n_features=3, feature_names=names) is None
    assert check_monotonic_cst([0, 0, 0], n_features=3) is None
    assert check_monotonic_cst({}, n_features=3) is None
    out = check_monotonic_cst([1, 0, -1], n_features=3)
    assert out.dtype == np.int8 and out.tolist() == [1, 0, -1]
    assert check_monotonic_cst({"c": -1, 0: 1}, n_features=3, feature_names=names).tolist() \
        == [1, 0, -1]
    assert check_monotonic_cst(np.array([0, 1, 0]), n_features=3).tolist() == [0, 1, 0]


@pytest.mark.parametrize("cst, names, match", [
    ({"d": 1}, ["a", "b", "c"], "unknown feature 'd'"),
    ({"a": 1}, None, "no feature names"),
    ({3: 1}, None, "feature index 3"),
    ({-1: 1}, None, "feature index -1"),
    ({1.5: 1}, None, "keys must be"),
    ([1, 0], None, "one entry"),
    ([[1, 0, 0]], None, "one entry"),
    ([1, 2, 0], None, r"monotonic_cst\[1\] must be -1, 0 or 1"),
    ({0: 0.5}, None, r"monotonic_cst\[0\] must be"),
    ([True, 0, 0], None, "must be -1, 0 or 1"),
    ("increasing", None, "must be None, an array-like"),
])
def test_monotonic_cst_errors(cst, names, match):
    with pytest.raises(ValueError, match=match):
        check_monotonic_cst(cst, n_features=3, feature_names=names)


def test_categorical_feature_cannot_be_constrained():
    mask = np.array([False, True, False])
    assert check_monotonic_cst([1, 0, -1], n_features=3, categorical=mask).tolist() == [1, 0, -1]
    with pytest.raises(ValueError, match="a categorical feature cannot be constrained"):
        check_monotonic_cst({"b": 1}, n_features=3, feature_names=["a", "b", "c"],
                            categorical=mask)


def test_monotonic_classes():
    check_monotonic_classes({0: 1}, 2)
    check_monotonic_classes(None, 3)
    check_monotonic_classes([0, 0], 3)
    for cst in ({0: 1}, [0, -1], np.array([1, 0], dtype=np.int8)):
        with pytest.raises(ValueError, match="3 classes"):
            check_monotonic_classes(cst, 3)


def test_class_weight_sample_weight():
    y = np.array(["x", "y", "y", "y"])
    sw = np.array([1.0, 2.0, 3.0, 4.0])
    assert class_weight_sample_weight(None, y, sw) is sw
    assert class_weight_sample_weight(None, y, None) is None
    assert class_weight_sample_weight({"x": 2}, y, None).tolist() == [2, 1, 1, 1]
    assert class_weight_sample_weight({"x": 2}, y, sw).tolist() == [2, 2, 3, 4]
    balanced = class_weight_sample_weight("balanced", y, sw)
    np.testing.assert_allclose(balanced, sw * [2, 2 / 3, 2 / 3, 2 / 3])
    with pytest.raises(ValueError, match="'z'"):
        class_weight_sample_weight({"z": 2}, y, None)
    with pytest.raises(ValueError, match="class_weight must be one of"):
        class_weight_sample_weight("balance", y, None)
    with pytest.raises(ValueError, match="class_weight must be None"):
        class_weight_sample_weight([1, 2], y, None)
    with pytest.raises(ValueError, match=r"class_weight\['x'\] must be >= 0"):
        class_weight_sample_weight({"x": -1}, y, None)
