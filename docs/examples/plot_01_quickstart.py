"""
Training on noisy labels: the quickstart
========================================

Flip 20 % of the training labels of a bundled data set, train the robust default
:class:`~robust_boosting.SPLBoostClassifierCV` and plain AdaBoost on them, and score both
on the clean test labels. The robust default also reports the training samples it
suspects, and most of them are indeed the flipped ones.
"""

# %%
# Data with wrong labels
# ----------------------
# The Wisconsin breast-cancer set ships with the library (no download). Only the
# training labels are flipped: the test labels stay clean, so the test error measures
# how well each model learned the true concept.
from sklearn.model_selection import train_test_split

from robust_boosting import AdaBoostClassifier, SPLBoostClassifierCV
from robust_boosting.datasets import load_dataset
from robust_boosting.noise import flip_labels

X, y = load_dataset("wdbc", return_X_y=True)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, random_state=0)
y_noisy, flipped = flip_labels(y_train, 0.2, random_state=0)
print(f"{flipped.sum()} of {len(y_train)} training labels flipped")

# %%
# Two models, one noisy training set
# ----------------------------------
clf = SPLBoostClassifierCV(random_state=0).fit(X_train, y_noisy)
ada = AdaBoostClassifier(n_estimators=200, random_state=0).fit(X_train, y_noisy)
print(f"SPLBoostClassifierCV test error: {1 - clf.score(X_test, y_test):.3f}")
print(f"AdaBoost (200 stumps) test error: {1 - ada.score(X_test, y_test):.3f}")

# %%
# What the search chose, and the suspects
# ---------------------------------------
# ``label_issues_`` holds the suspected label errors (confident learning on the
# out-of-fold probabilities); the final fit left out those of its count
# (``excluded_samples_``) when ``remove_label_issues_`` is True.
# ``label_issue_scores_`` ranks every training sample, most suspect first.
print("chosen:", {k: clf.best_params_[k] for k in ("max_depth", "learning_rate",
                                                 "n_estimators", "cv_n_estimators")})
# noise_rate_: the share of labels the out-of-fold model contradicts (here, where the
# classes separate, close to the share of flipped labels)
print(f"labels contradicted {clf.noise_rate_:.3f} (truly flipped: {flipped.mean():.3f})")
suspects = clf.label_issues_
print(f"{len(suspects)} suspects, {flipped[suspects].mean():.0%} of them truly flipped; "
      f"final fit without {len(clf.excluded_samples_)} of them: {clf.remove_label_issues_}")

# %%
# The ranking as a precision curve
# --------------------------------
# Going down ``label_issue_scores_``, the share of truly flipped labels among the
# samples reviewed so far.
import matplotlib.pyplot as plt
import numpy as np

order = np.argsort(clf.label_issue_scores_)[::-1]
precision = np.cumsum(flipped[order]) / np.arange(1, len(order) + 1)
fig, ax = plt.subplots(figsize=(6, 3.5))
ax.plot(np.arange(1, len(order) + 1), precision)
ax.axvline(len(suspects), color="gray", ls="--", label="number of suspects")
ax.axhline(flipped.mean(), color="gray", ls=":", label="share flipped overall")
ax.set(xlabel="samples reviewed, most suspect first", ylabel="share truly flipped",
       ylim=(0, 1.05))
ax.legend()
fig.tight_layout()
