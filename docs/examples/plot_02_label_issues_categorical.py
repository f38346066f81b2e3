"""
Suspect labels and suggested corrections on a categorical table
===============================================================

The tic-tac-toe endgame data (bundled) has nine categorical columns, one per square of
the board, each ``x``, ``o`` or ``b`` (blank); the label says whether ``x`` has won.
Given as a pandas DataFrame with ``category`` columns, every estimator splits such a
column into sets of categories (no one-hot encoding needed). After a fit, :class:`~robust_boosting.SPLBoostClassifierCV`
lists the suspect labels, ranks them, and suggests a corrected label for each: the class
its out-of-fold model prefers. This is the table ``robust-boosting fit --label-issues``
writes.
"""

# %%
# A table with categorical columns
# --------------------------------
# The bundled copy stores each categorical column as codes; we turn them back into
# their category names.
import pandas as pd

from robust_boosting import SPLBoostClassifierCV
from robust_boosting.datasets import load_dataset
from robust_boosting.noise import flip_labels

bunch = load_dataset("tic-tac-toe", as_frame=True)
X = bunch.data.copy()
for col, names in bunch.categorical_encoding.items():
    X[col] = pd.Categorical.from_codes(X[col].astype(int), categories=names)
y = bunch.target.map({1: "x wins", -1: "no win"})
print(X.dtypes.astype(str).value_counts().to_string())
X.head()

# %%
# Flip 15 % of the labels, fit, list the suspects
# -----------------------------------------------
y_noisy, flipped = flip_labels(y.to_numpy(), 0.15, random_state=1)
clf = SPLBoostClassifierCV(random_state=0).fit(X, y_noisy)
print(f"{len(clf.label_issues_)} suspects of {len(y)} rows; "
      f"{flipped[clf.label_issues_].mean():.0%} of them were flipped")

# %%
# The review table: most suspect first
# ------------------------------------
# ``suggested_labels_`` is the out-of-fold model's class for every row; for a suspect it
# is the proposed correction. Here we can check it against the true label.
review = pd.DataFrame({
    "given": y_noisy,
    "suggested": clf.suggested_labels_,
    "score": clf.label_issue_scores_,
    "true": y.to_numpy(),
}).iloc[clf.label_issues_].sort_values("score", ascending=False)
review.head(10)

# %%
# The scores of the flipped and the kept labels
# ---------------------------------------------
import matplotlib.pyplot as plt

fig, ax = plt.subplots(figsize=(6, 3.5))
bins = [i / 20 for i in range(21)]
ax.hist(clf.label_issue_scores_[~flipped], bins=bins, alpha=0.6, label="label kept")
ax.hist(clf.label_issue_scores_[flipped], bins=bins, alpha=0.6, label="label flipped")
ax.set(xlabel="label_issue_scores_ = 1 - P(given label), out of fold", ylabel="rows")
ax.legend()
fig.tight_layout()

# %%
# How good are the suggestions?
# -----------------------------
# A suggestion that differs from the given label proposes a correction; how often it
# restores the true label:
changed = review[review["suggested"] != review["given"]]
print(f"{len(changed)} suspects with a different suggested label; "
      f"{(changed['suggested'] == changed['true']).mean():.0%} of these suggestions "
      "are the true label")

# %%
# Unknown categories at predict
# -----------------------------
# A category no training row had is treated as a missing value (the trees' learned
# missing-value branch), as in scikit-learn's histogram boosting and LightGBM.
# ``unknown_categories="error"`` makes it an error naming the column instead.
new = X.head(3).copy()
new["x5"] = new["x5"].cat.add_categories(["?"])
new.loc[new.index[0], "x5"] = "?"  # an unreadable square
print(clf.predict(new))
clf.set_params(unknown_categories="error")
try:
    clf.predict(new)
except ValueError as err:
    print("ValueError:", err)
