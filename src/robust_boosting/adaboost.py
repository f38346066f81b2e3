"""Discrete AdaBoost (SAMME for more than two classes) on the shared boosting loop."""

from __future__ import annotations

from ._boosting import BaseBoostingClassifier
from ._validation import CLASS_WEIGHT_DOC, ID_COLUMNS_DOC, MONOTONIC_CST_DOC
from .steps import DiscreteStep

__all__ = ["AdaBoostClassifier"]


class AdaBoostClassifier(BaseBoostingClassifier):
    # the docstring is built from shared parts, so it is assigned
    __doc__ = ("""Discrete AdaBoost (Freund & Schapire 1997); SAMME (Zhu et al. 2009) for K > 2 classes.

    Each round fits the weak learner on weights ``w_i ∝ s_i exp(-m_i)``
    (``s`` the ``sample_weight``, ``m`` the margin), and gives it the
    coefficient ``alpha = (log((1 - err)/err) + log(K - 1)) / 2`` (SPLBoost
    paper eqs. (9)-(11)). It is :class:`SPLBoostClassifier` with every
    self-paced weight ``v = 1``, and gives the same predictions as
    :class:`sklearn.ensemble.AdaBoostClassifier` with the same weak learner and
    ``random_state`` (our coefficients are half of scikit-learn's
    ``estimator_weights_``, so ``decision_function`` is on the margin scale).

    Parameters
    ----------
    estimator : classifier, default=None
        Weak learner accepting ``sample_weight``; a decision stump if None.
    n_estimators : int, default=100
        Maximum number of boosting rounds.
    learning_rate : float, default=1.0
        Shrinks each coefficient.
    n_jobs : int or None, default=None
        Threads of the weak learners' compiled kernels (the histogram trees); -1: every
        core the process may use. None chooses one thread per 500,000 rows x features
        of the training data, at most every core (design record 0022). A weak learner's
        own explicit ``n_jobs`` wins over it. The model does not depend on it.
    random_state : int, RandomState or None, default=None
        Seeds the weak learners' ``random_state`` parameters, round by round.
""" + MONOTONIC_CST_DOC + CLASS_WEIGHT_DOC + """    unknown_categories : {"missing", "error"}, default="missing"
        What predict does with a category of a categorical column that no training
        row had: ``"missing"`` treats it as a missing value (the trees' learned
        missing-value branch, as scikit-learn's histogram boosting and LightGBM do);
        ``"error"`` raises a ValueError naming the column, the values and the rows.
""" + ID_COLUMNS_DOC + """
    Attributes
    ----------
    classes_, estimators_, estimator_weights_, estimator_errors_,
    n_estimators_, stopping_reason_ : see :class:`BaseBoostingClassifier`.
    sample_weights_ : ndarray of shape (n_samples,)
        Normalised weights the next round would use.
    feature_importances_ : ndarray of shape (n_features,)

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from robust_boosting import AdaBoostClassifier
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> clf = AdaBoostClassifier(n_estimators=50, random_state=0).fit(X, y)
    >>> clf.score(X, y) > 0.95
    True
    """)

    def _make_step(self):
        return DiscreteStep(learning_rate=self.learning_rate)
