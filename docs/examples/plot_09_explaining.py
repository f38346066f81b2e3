"""
Explaining the model and its suspect labels
===========================================

Which features drove each prediction, and what makes a suspect label implausible?
:class:`~robust_boosting.SPLBoostClassifierCV` gives each row's exact feature
contributions (path-dependent TreeSHAP, ``predict(X, pred_contrib=True)``);
:func:`robust_boosting.explain` hands them to shap's plots, and
:func:`~robust_boosting.explain_suspects` names, for each suspect label, the features
that push the model from the given label towards the suggested one. The user guide
explains each of them: :doc:`/user_guide/explaining`.
"""

# %%
# The Wisconsin breast cancer data with 15 % of the labels flipped
# ----------------------------------------------------------------
# Nine cytological features of a breast mass, each scored 1-10; the label says whether
# it is malignant. The bundled copy names its columns ``x1 .. x9``; we give them their
# UCI names.
import numpy as np
import pandas as pd

import robust_boosting
from robust_boosting import SPLBoostClassifierCV
from robust_boosting.datasets import load_dataset
from robust_boosting.noise import flip_labels

bunch = load_dataset("wisconsin", as_frame=True)
X = bunch.data.set_axis(["clump_thickness", "cell_size", "cell_shape", "adhesion",
                         "epithelial_size", "bare_nuclei", "chromatin", "nucleoli",
                         "mitoses"], axis=1)
y = bunch.target.map({1: "malignant", -1: "benign"}).to_numpy()
y_noisy, flipped = flip_labels(y, 0.15, random_state=0)
clf = SPLBoostClassifierCV(random_state=0).fit(X, y_noisy)
print(f"{len(clf.label_issues_)} suspects of {len(y)} rows, "
      f"{flipped[clf.label_issues_].mean():.0%} of them flipped")

# %%
# Exact contributions
# -------------------
# One column per feature and a last one, the expected value; each row sums to the
# model's raw score, ``decision_function`` (towards ``classes_[1]``, here
# ``"malignant"``).
contrib = clf.predict(X.iloc[:5], pred_contrib=True)
print(contrib.shape, clf.classes_)
print(np.abs(contrib.sum(axis=1) - clf.decision_function(X.iloc[:5])).max())
pd.DataFrame(contrib, columns=[*X.columns, "expected value"]).round(3)

# %%
# One prediction: shap's waterfall plot
# -------------------------------------
# :func:`robust_boosting.explain` returns a ``shap.Explanation``; we explain 200 rows
# and look at the first suspect among them, from the expected value to its score.
import matplotlib.pyplot as plt
import shap

explanation = robust_boosting.explain(clf, X.iloc[:200])
first = int(clf.label_issues_[clf.label_issues_ < 200][0])
print(f"row {first}: given {y_noisy[first]!r}, suggested {clf.suggested_labels_[first]!r}")
shap.plots.waterfall(explanation[first], max_display=10, show=False)
plt.gcf().set_size_inches(7, 4.5)
plt.tight_layout()

# %%
# Every prediction: shap's beeswarm plot
# --------------------------------------
# Each dot is a row; its position is the feature's contribution, its colour the
# feature's value: high scores push towards ``"malignant"``.
shap.plots.beeswarm(explanation, max_display=9, show=False)
plt.gcf().set_size_inches(7, 4.5)
plt.tight_layout()

# %%
# Why each label is suspect
# -------------------------
# For each suspect, the given label, the suggested one, and the features that push the
# final model most from the first towards the second (in raw-score units). This is the
# ``why`` column that ``robust-boosting fit --label-issues`` writes.
reasons = robust_boosting.explain_suspects(clf, X, y_noisy, top=3)
pd.set_option("display.max_colwidth", 90)
reasons.sort_values("score", ascending=False).head(10)

# %%
# Which features the suspects' reasons name first, and how often the suspects were
# flipped:
first_reason = reasons["why"].str.split("=").str[0]
pd.DataFrame({"first reason": first_reason, "flipped": flipped[reasons.index]}).groupby(
    "first reason")["flipped"].agg(suspects="size", share_flipped="mean").round(2)

# %%
# Every feature's push, for your own tables and plots: one row per suspect.
push = robust_boosting.suspect_contributions(clf, X, y_noisy)
push.round(2).head()
