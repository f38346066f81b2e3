"""
The command line, end to end
============================

``robust-boosting fit`` trains on a CSV file and saves the model (a ``skops`` file that
loads without running code); ``--label-issues`` writes every training row, most suspect
first, with its line number in the file, the given label, the suggested label and its
score. ``robust-boosting predict`` applies a saved model to another CSV file. The
example calls the command's entry point, :func:`robust_boosting.cli.main`, with the
arguments a shell would pass; ``robust-boosting --help`` lists every command.
"""

# %%
# Two CSV files with a text column and wrong labels
# -------------------------------------------------
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from robust_boosting.cli import main
from robust_boosting.datasets import load_dataset
from robust_boosting.noise import flip_labels

bunch = load_dataset("mammographic", as_frame=True)
frame = bunch.frame.rename(columns={"target": "label"})
frame["label"] = frame["label"].map({1: "malignant", -1: "benign"})
rng = np.random.default_rng(0)
frame["site"] = rng.choice(["north", "south", "east"], size=len(frame))  # a text column
train, test = frame.iloc[:600].copy(), frame.iloc[600:]
train["label"], flipped = flip_labels(train["label"].to_numpy(), 0.15, random_state=0)

work = Path(tempfile.mkdtemp())
train.to_csv(work / "train.csv", index=False)
test.to_csv(work / "test.csv", index=False)
print((work / "train.csv").read_text().splitlines()[:3])

# %%
# ``robust-boosting fit``
# -----------------------
code = main(["fit", str(work / "train.csv"), "--label", "label",
             "--model", str(work / "model.skops"),
             "--label-issues", str(work / "issues.csv")])
print("exit code", code)

# %%
# The label-issue file: every training row, most suspect first
# ------------------------------------------------------------
# ``line`` is the row's line in ``train.csv`` (the header is line 1), so the file can
# be reviewed next to the data.
issues = pd.read_csv(work / "issues.csv")
issues.head(8)

# %%
# How many of the rows marked as suspects were flipped in this demo:
suspect_rows = issues.loc[issues["suspect"], "line"].to_numpy() - 2  # line 2 is row 0
print(f"{len(suspect_rows)} suspects, {flipped[suspect_rows].mean():.0%} truly flipped")

# %%
# ``robust-boosting predict``
# ---------------------------
# The label column of ``test.csv`` is left out of the features and the error against
# it is reported.
code = main(["predict", str(work / "test.csv"), "--model", str(work / "model.skops"),
             "--label", "label", "--output", str(work / "predictions.csv")])
print("exit code", code)
pd.read_csv(work / "predictions.csv").head()
