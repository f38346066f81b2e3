"""robust-boosting: boosting classifiers that stay accurate when training labels are wrong."""

__version__ = "0.1.0"
