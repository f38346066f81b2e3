"""
A Dask fit on a local cluster
=============================

:class:`robust_boosting.dask.DaskSPLBoostClassifierCV` is the robust default on a Dask
cluster: the trees are XGBoost's distributed engine, the library adds the self-paced
weights, the confident-learning step and the final fit without the suspects. The data
and the per-row results stay on the workers.

A real cluster is ``Client("tcp://scheduler:8786")``; here a one-worker cluster in this
process (``processes=False``) keeps the example small. It needs the ``dask`` extra
(``pip install "robust-boosting[dask]"``).
"""

# %%
import dask.array as da
from distributed import Client, LocalCluster

from robust_boosting.dask import DaskSPLBoostClassifierCV
from robust_boosting.datasets import load_dataset
from robust_boosting.noise import flip_labels

cluster = LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                       dashboard_address=None)
client = Client(cluster)

# %%
# Dask arrays in four partitions, with 20 % of the labels flipped
# ---------------------------------------------------------------
X, y = load_dataset("wdbc", return_X_y=True)
y = (y == 1).astype(int)
y_noisy, flipped = flip_labels(y, 0.2, random_state=0)
dX = da.from_array(X, chunks=(150, X.shape[1]))
dy = da.from_array(y_noisy, chunks=150)

model = DaskSPLBoostClassifierCV(random_state=0, client=client).fit(dX, dy)
print("chosen:", model.best_params_)
print(f"labels contradicted {model.noise_rate_:.3f} (truly flipped {flipped.mean():.3f})")

# %%
# The per-row results are dask arrays, partitioned as ``X``
# ---------------------------------------------------------
# ``label_issues_`` is a boolean mask (one machine's estimator gives indices);
# compute it to bring it to this process.
suspects = model.label_issues_.compute()
print(type(model.label_issues_).__name__, "->", type(suspects).__name__)
print(f"{suspects.sum()} suspects, {flipped[suspects].mean():.0%} of them truly flipped")

# %%
# The suspects' out-of-fold scores, computed on the worker and drawn here:
import matplotlib.pyplot as plt

scores = model.label_issue_scores_.compute()
fig, ax = plt.subplots(figsize=(6, 3.5))
ax.hist([scores[~flipped], scores[flipped]], bins=20, stacked=True,
        label=["label kept", "label flipped"])
ax.set(xlabel="label_issue_scores_ (out of fold)", ylabel="rows")
ax.legend()
fig.tight_layout()

# %%
# Dask in, dask out; NumPy in, NumPy out
# --------------------------------------
print(type(model.predict(dX)).__name__, type(model.predict(X)).__name__)
print(f"accuracy on the true labels: {(model.predict(X) == y).mean():.3f}")

# %%
client.close()
cluster.close()
