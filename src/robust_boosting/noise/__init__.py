"""Noise generators: flipped class labels and corrupted regression targets.

Every generator

- takes ``random_state`` (int, ``RandomState`` or None, scikit-learn style),
- leaves its input untouched and returns ``(y_noisy, flipped)``: a new array and the
  boolean mask of the rows it changed (for labels ``flipped == (y_noisy != y)``),
- corrupts an exact count, ``round(rate * n)`` (halves rounded up), where it draws rows
  uniformly, as the papers do: SPLBoost, SavageBoost and RILBoost all flip "a randomly
  selected proportion" of the training labels, and SPLBoost's synthetic experiment
  flips 15 % of each class.

Labels (:mod:`robust_boosting.noise.labels`) work in {-1, +1} and with arbitrary class
labels; with more than two classes a flipped label goes to a *different* class,
uniformly at random, as a transition matrix says, or to the class a reference model
finds closest. Rates must lie in [0, 1); a transition matrix must be square,
non-negative, with rows summing to 1 and diagonal entries > 0. Regression targets
(:mod:`robust_boosting.noise.targets`): :func:`corrupt_targets` replaces, shifts or
rescales (a unit error) a share of continuous targets.
"""

from .labels import (
    NOISE_MODELS,
    PMD_TYPES,
    apply_noise,
    flip_labels,
    flip_labels_class_conditional,
    flip_labels_hardest,
    flip_labels_instance_dependent,
    flip_labels_per_class,
    flip_labels_pmd,
    n_flips,
    reference_proba,
)
from .targets import TARGET_NOISE_KINDS, corrupt_targets

__all__ = [
    "NOISE_MODELS",
    "apply_noise",
    "n_flips",
    "flip_labels",
    "flip_labels_per_class",
    "flip_labels_class_conditional",
    "flip_labels_instance_dependent",
    "flip_labels_hardest",
    "flip_labels_pmd",
    "reference_proba",
    "PMD_TYPES",
    "TARGET_NOISE_KINDS",
    "corrupt_targets",
]
