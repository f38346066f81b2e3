"""Figures of the papers, from fitted estimators or data (matplotlib, headless-safe).

matplotlib comes with the ``plot`` extra (``pip install "robust-boosting[plot]"``);
without it, importing this package is an ImportError that says so.

Every ``plot_*`` function returns a :class:`matplotlib.figure.Figure` built
with the object API: nothing here selects a backend or touches ``pyplot``'s
global state, so the functions work on servers (Agg) and in notebooks alike.
Save a figure with ``fig.savefig("name.png")``. The same figures are available
from the command line as ``robust-boosting plot <figure> --out FILE``.

- :func:`plot_weight_curves`, :func:`plot_loss_curves`: SPLBoost Figs. 1 and 2.
- :func:`plot_synthetic_weights`: SPLBoost Fig. 3.
- :func:`plot_error_per_round`, :func:`plot_latent_objective`,
  :func:`error_vs_age` + :func:`plot_error_vs_age`: SPLBoost Figs. 8, 9, 10.
- :func:`rilboost_epsilon_study` + :func:`plot_accuracy_vs_epsilon`,
  :func:`rilboost_mixing_study` + :func:`plot_accuracy_vs_mixing`: RILBoost Figs. 4-13.
"""

from .._extras import require_matplotlib as _require_matplotlib

_require_matplotlib("robust_boosting.plotting")  # the 'plot' extra: an error naming it

from .diagnostics import (  # noqa: E402 - after the check of the extra
    DEFAULT_REGULARIZERS,
    RILBOOST_VARIANTS,
    SYNTHETIC_LABELS,
    error_vs_age,
    plot_accuracy_vs_epsilon,
    plot_accuracy_vs_mixing,
    plot_error_per_round,
    plot_error_vs_age,
    plot_latent_objective,
    plot_loss_curves,
    plot_synthetic_weights,
    plot_weight_curves,
    rilboost_epsilon_study,
    rilboost_mixing_study,
)

__all__ = [
    "DEFAULT_REGULARIZERS",
    "RILBOOST_VARIANTS",
    "SYNTHETIC_LABELS",
    "error_vs_age",
    "plot_accuracy_vs_epsilon",
    "plot_accuracy_vs_mixing",
    "plot_error_per_round",
    "plot_error_vs_age",
    "plot_latent_objective",
    "plot_loss_curves",
    "plot_synthetic_weights",
    "plot_weight_curves",
    "rilboost_epsilon_study",
    "rilboost_mixing_study",
]
