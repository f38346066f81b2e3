"""Every public estimator passes scikit-learn's estimator checks.

Skipped checks are listed in ``EXPECTED_FAILED`` with their reason.

Not in this list: ``robust_boosting.dask.DaskSPLBoostClassifierCV``. Its ``fit`` takes
dask collections and a running cluster, and refuses in-memory arrays with a ``TypeError``
(pointing to ``SPLBoostClassifierCV``), while every check feeds NumPy arrays without a
cluster; ``tests/test_dask.py`` covers its contract on a real ``LocalCluster``.
"""

from sklearn.utils.estimator_checks import parametrize_with_checks

from robust_boosting import AdaBoostClassifier, SPLBoostClassifier, SPLBoostClassifierCV
from robust_boosting.classical import (
    GentleBoostClassifier,
    LogitBoostClassifier,
    RealBoostClassifier,
    SPLGentleBoostClassifier,
    SPLLogitBoostClassifier,
)
from robust_boosting.robust import RBoostClassifier, RobustBoostClassifier, SavageBoostClassifier
from robust_boosting.trees import HistTreeRegressor

ESTIMATORS = [
    AdaBoostClassifier(n_estimators=10),
    SPLBoostClassifier(n_estimators=10),
    SPLBoostClassifier(n_estimators=10, regularizer="linear", age=5.0),
    RealBoostClassifier(n_estimators=10),
    GentleBoostClassifier(n_estimators=10),
    LogitBoostClassifier(n_estimators=10),
    LogitBoostClassifier(HistTreeRegressor(grow_policy="symmetric", max_depth=3),
                         n_estimators=10, multiclass_trees="shared"),
    SavageBoostClassifier(n_estimators=10),
    RBoostClassifier(n_estimators=10),
    # RobustBoost stops once its error goal is reachable; with MATLAB's default goal (10 %)
    # its one-vs-rest model of the checks' 3-class blobs is just under their 0.83 accuracy bar
    RobustBoostClassifier(n_estimators=10, error_goal=0.05),
    SPLLogitBoostClassifier(n_estimators=10),
    SPLGentleBoostClassifier(n_estimators=10, regularizer="linear", age=5.0),
    SPLBoostClassifierCV(n_estimators=10),
]

# check name -> reason, per estimator class name
_WEIGHT_EQUIVALENCE = (
    "sample_weight is not equivalent to removing/repeating samples for tree weak learners: "
    "split thresholds are placed using every training sample, zero-weight ones included "
    "(quantile bin edges for the histogram trees, midpoints between neighbouring values for "
    "scikit-learn's trees), so removing a zero-weight sample can move a threshold. "
    "scikit-learn's own AdaBoostClassifier lists this check as an expected failure too."
)
EXPECTED_FAILED: dict[str, dict[str, str]] = {
    name: {
        "check_sample_weight_equivalence_on_dense_data": _WEIGHT_EQUIVALENCE,
        "check_sample_weight_equivalence_on_sparse_data": _WEIGHT_EQUIVALENCE,
    }
    for name in (
        "AdaBoostClassifier",
        "SPLBoostClassifier",
        "RealBoostClassifier",
        "SavageBoostClassifier",
        "RobustBoostClassifier",
        "GentleBoostClassifier",
        "LogitBoostClassifier",
        "RBoostClassifier",
        "SPLLogitBoostClassifier",
        "SPLGentleBoostClassifier",
    )
}

_CLASS_WEIGHT = (
    "check_class_weight_classifiers weighs the classes 1000 and 0.0001 on overlapping "
    "blobs: a tree weak learner's leaf may hold rows of a 0.0001 class only and predict it "
    "(a pure leaf wins whatever its weight), and a boosting round can fit such a leaf. The "
    "check gives scikit-learn's trees min_weight_fraction_leaf=0.01 against this; a booster "
    "has no such parameter. With that leaf minimum on the weak learner (min_samples_leaf=3 "
    "for SPLBoostClassifierCV, whose counts follow the weights) the check passes: "
    "tests/test_constraints.py::test_class_weight_check_passes_with_a_leaf_minimum."
)
for _name in ("AdaBoostClassifier", "SPLBoostClassifier", "RealBoostClassifier",
              "SavageBoostClassifier", "RobustBoostClassifier", "LogitBoostClassifier",
              "RBoostClassifier", "SPLLogitBoostClassifier", "SPLGentleBoostClassifier",
              "SPLBoostClassifierCV"):
    EXPECTED_FAILED.setdefault(_name, {})["check_class_weight_classifiers"] = _CLASS_WEIGHT


def _expected_failed(estimator):
    return EXPECTED_FAILED.get(type(estimator).__name__, {})


@parametrize_with_checks(ESTIMATORS, expected_failed_checks=_expected_failed)
def test_sklearn_compatible(estimator, check):
    check(estimator)
