"""The warnings and errors of robust-boosting's estimators.

- :class:`BoostingStoppedWarning`: a booster stopped before ``n_estimators`` rounds.
- :class:`IdentifierColumnWarning`: ``fit`` left a column of identifiers out of the
  features.

Both are importable from :mod:`robust_boosting` too (and the first from
``robust_boosting._boosting`` and ``robust_boosting.interfaces``, where it was defined
before).
"""

from __future__ import annotations

from ._schema import IdentifierColumnWarning

__all__ = ["BoostingStoppedWarning", "IdentifierColumnWarning"]


class BoostingStoppedWarning(UserWarning):
    """Boosting stopped before ``n_estimators`` rounds (see the estimator's ``stopping_reason_``)."""
