"""scikit-learn's conventions for every public estimator: keyword-only parameters, and
the unknown-category policy and the thread count as constructor parameters."""

from __future__ import annotations

import inspect

import pytest

import robust_boosting as rb

ESTIMATORS = [getattr(rb, name) for name in rb.__all__
              if inspect.isclass(getattr(rb, name)) and hasattr(getattr(rb, name), "fit")]


def _dask_estimator():
    try:
        from robust_boosting.dask import DaskSPLBoostClassifierCV
    except ImportError:  # the optional extra
        return []
    return [DaskSPLBoostClassifierCV]


@pytest.mark.parametrize("cls", ESTIMATORS + _dask_estimator(), ids=lambda c: c.__name__)
def test_parameters_are_keyword_only(cls):
    """As in scikit-learn: only a meta-estimator's ``estimator`` may be positional."""
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    positional = [p.name for p in params if p.kind is not p.KEYWORD_ONLY]
    assert positional in ([], ["estimator"]), positional
    with pytest.raises(TypeError):
        cls(None, 10) if positional else cls(10)


@pytest.mark.parametrize("cls", ESTIMATORS + _dask_estimator(), ids=lambda c: c.__name__)
def test_unknown_categories_is_a_parameter(cls):
    est = cls()
    assert est.get_params()["unknown_categories"] == "missing"
    assert est.set_params(unknown_categories="error").unknown_categories == "error"


@pytest.mark.parametrize("cls", ESTIMATORS + _dask_estimator(), ids=lambda c: c.__name__)
def test_n_jobs_is_a_parameter(cls):
    """Every public estimator takes ``n_jobs`` (default None: chosen at fit)."""
    est = cls()
    assert est.get_params()["n_jobs"] is None
    assert est.set_params(n_jobs=1).n_jobs == 1
