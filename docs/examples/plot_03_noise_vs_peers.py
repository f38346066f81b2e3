"""
The robust default against LightGBM and cleanlab as the noise grows
===================================================================

Flip 0 to 40 % of the training labels of the bundled Pima diabetes set and compare the
test error (on clean test labels) of

- :class:`~robust_boosting.SPLBoostClassifierCV` with its defaults,
- LightGBM's ``LGBMClassifier`` with its defaults, and
- cleanlab's ``CleanLearning`` around the same LightGBM model (it finds the label issues
  by cross-validation, removes them and refits).

Every model gets one thread. This is one data set and two splits, so that the example
runs in seconds: the differences here are not significant. The averages over 11 data
sets, two kinds of flips and the other peers (XGBoost, CatBoost, random forests) are in
:doc:`the results pages </results/noisy-default/README>`.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from robust_boosting import SPLBoostClassifierCV
from robust_boosting.datasets import load_dataset
from robust_boosting.noise import flip_labels

try:  # the docs extra installs both; without them the example shows our model alone
    from cleanlab.classification import CleanLearning
    from lightgbm import LGBMClassifier
except ImportError:
    LGBMClassifier = CleanLearning = None


def models(seed):
    out = {"SPLBoostClassifierCV": SPLBoostClassifierCV(n_jobs=1, random_state=seed)}
    if LGBMClassifier is not None:
        def lgbm():
            return LGBMClassifier(n_jobs=1, verbose=-1, random_state=seed)

        out["LightGBM"] = lgbm()
        out["cleanlab + LightGBM"] = CleanLearning(lgbm(), seed=seed, verbose=False)
    return out


X, y = load_dataset("pima", return_X_y=True)
y = (y == 1).astype(int)  # classes 0 / 1, as cleanlab wants them
rows = []
for seed in (0, 1):
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=0.3, stratify=y, random_state=seed)
    for rate in (0.0, 0.1, 0.2, 0.3, 0.4):
        y_noisy, _ = flip_labels(y_train, rate, random_state=seed)
        for name, model in models(seed).items():
            model.fit(X_train, y_noisy)
            error = np.mean(model.predict(X_test) != y_test)
            rows.append({"model": name, "rate": rate, "seed": seed, "error": error})

results = pd.DataFrame(rows)
table = results.pivot_table(index="rate", columns="model", values="error", aggfunc="mean")
print(table.round(3).to_string())

# %%
# Test error against the share of flipped training labels
# -------------------------------------------------------
fig, ax = plt.subplots(figsize=(6, 4))
for name, marker in zip(table.columns, "os^", strict=False):
    ax.plot(100 * table.index, 100 * table[name], marker=marker, label=name)
ax.set(xlabel="flipped training labels (%)", ylabel="test error (%)",
       title="Pima, mean of 2 splits")
ax.legend()
fig.tight_layout()
