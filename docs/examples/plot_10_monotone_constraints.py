"""
Monotone constraints
====================

In credit, insurance and medical scoring a model is often accepted only if its score
moves one way with some feature: a higher glucose, body-mass index or age never lowers
the predicted risk of diabetes. ``monotonic_cst`` (scikit-learn's name and format: an array of -1/0/1, or a
dict by feature name or index) asks every tree for it. As in LightGBM's "basic" method,
a split on a constrained feature is kept only if its children's values are in the
required order, and each child inherits bounds (the midpoint of the two values) that
clip every leaf below it. Every step of the library adds a positive coefficient times a
non-decreasing function of the tree's value, so the whole model is monotone.

A categorical feature cannot be constrained, nor a problem with more than two classes
(there is no single score to order); both raise a ``ValueError``.
"""

# %%
# The Pima diabetes table with 20 % flipped labels
# ------------------------------------------------
# The bundled ``pima`` set has UCI's eight columns, in UCI's order.
import numpy as np
from sklearn.model_selection import train_test_split

from robust_boosting import SPLBoostClassifierCV
from robust_boosting.datasets import load_dataset
from robust_boosting.noise import flip_labels

X, y = load_dataset("pima", return_X_y=True, as_frame=True)
X.columns = ["pregnancies", "glucose", "pressure", "skin", "insulin", "bmi",
             "pedigree", "age"]
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, random_state=0)
y_noisy, _ = flip_labels(y_train, 0.2, random_state=0)

free = SPLBoostClassifierCV(random_state=0).fit(X_train, y_noisy)
increasing = {"glucose": 1, "bmi": 1, "age": 1}
monotone = SPLBoostClassifierCV(monotonic_cst=increasing, random_state=0).fit(X_train, y_noisy)
for name, model in [("unconstrained", free), ("glucose, bmi, age increasing", monotone)]:
    print(f"{name}: test error {1 - model.score(X_test, y_test):.3f}")

# %%
# The predicted risk along age, row by row
# ----------------------------------------
# Each line is one test row with its age replaced by every value of a grid (an
# individual conditional expectation curve). Fitted on the noisy labels, the
# unconstrained model's risk falls with age in places; the constrained model's never
# does.
import matplotlib.pyplot as plt

grid = np.linspace(X["age"].min(), X["age"].max(), 60)
rows = X_test.iloc[:25]
fig, axes = plt.subplots(1, 2, figsize=(9, 3.5), sharey=True)
for ax, (name, model) in zip(axes, [("unconstrained", free),
                                    (f"monotonic_cst={increasing}", monotone)], strict=True):
    falls = 0
    for _, row in rows.iterrows():
        table = rows.iloc[[0] * len(grid)].copy()
        table.loc[:, :] = row.to_numpy()
        table["age"] = grid
        risk = model.predict_proba(table)[:, 1]
        falls += int(np.any(np.diff(risk) < 0))
        ax.plot(grid, risk, color="tab:blue", alpha=0.4, lw=1)
    ax.set_title(f"{name}\n{falls} of {len(rows)} curves fall somewhere", fontsize=9)
    ax.set_xlabel("age")
axes[0].set_ylabel("predicted probability of diabetes")
fig.tight_layout()
