"""Experiment configurations: a grid of data sets x noise x rates x algorithms x repetitions.

A configuration is a dictionary (from a preset, a TOML file, a
JSON file, or a YAML file when PyYAML is importable)::

    name = "my-grid"
    datasets = ["splboost-pima", "savageboost-wdbc"]
    noise = ["symmetric"]            # none, symmetric, per-class, class-conditional, instance
    rates = [0.0, 0.1, 0.2]
    repetitions = 3
    seed = 0
    rounds = 100                     # maximum boosting rounds
    tune_rounds = true               # rounds chosen by 5-fold CV (staged predictions)
    cv_folds = 5
    protocol = "holdout"             # holdout, kfold, small-sample, synthetic
    split = { test_size = 0.3 }

    [[algorithms]]
    name = "adaboost"

    [[algorithms]]
    name = "splboost-hard"
    tune = { age = "1:6:0.5" }       # grid chosen by CV; omitted = the paper's grid

    [[algorithms]]
    name = "rilboost-ii"
    params = { epsilon = [0.0, 0.1, 0.2] }   # a list = one variant per value

An algorithm entry may also set ``rounds``, ``tune_rounds``, ``weak_learner`` and
``datasets`` (only these data sets). A list in ``split`` (e.g. ``n_train = [20, 40]``)
also gives one task per value.
"""

from __future__ import annotations

import itertools
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .algorithms import get_algorithm, parse_grid
from .tasks import NOISE_MODELS, PROTOCOLS, Task

__all__ = ["AlgorithmConfig", "ExperimentConfig", "load_config", "yaml_available"]


def yaml_available() -> bool:
    """Whether YAML configuration files can be read (PyYAML importable)."""
    try:
        import yaml  # noqa: F401
    except ImportError:
        return False
    return True


def _expand(mapping: dict[str, Any]) -> list[dict[str, Any]]:
    """Cartesian product over the values that are lists."""
    keys = sorted(mapping)
    options = [v if isinstance(v, list) else [v] for v in (mapping[k] for k in keys)]
    return [dict(zip(keys, combo, strict=True)) for combo in itertools.product(*options)]


@dataclass
class AlgorithmConfig:
    """One algorithm of a configuration.

    Attributes
    ----------
    name : str
        Registry name.
    params : dict
        Fixed parameters; a list value gives one variant (and task) per value.
    tune : dict or None
        Grid chosen by CV (values: lists or ``"start:stop:step"`` strings); None uses
        the registry's default grid (the paper's), ``{}`` tunes nothing.
    rounds, tune_rounds, weak_learner : optional
        Override the configuration's values.
    datasets : list of str, optional
        Only run this algorithm on these data sets.
    """

    name: str
    params: dict = field(default_factory=dict)
    tune: dict | None = None
    rounds: int | None = None
    tune_rounds: bool | None = None
    weak_learner: str | None = None
    datasets: list[str] | None = None

    @classmethod
    def from_value(cls, value: str | dict) -> AlgorithmConfig:
        """From a registry name or a dictionary with the attributes."""
        if isinstance(value, str):
            value = {"name": value}
        if not isinstance(value, dict) or "name" not in value:
            raise ValueError(f"an algorithm entry needs a 'name', got {value!r}")
        unknown = set(value) - {"name", "params", "tune", "rounds", "tune_rounds",
                                "weak_learner", "datasets"}
        if unknown:
            raise ValueError(f"algorithm {value['name']!r}: unknown key(s) {sorted(unknown)}")
        get_algorithm(value["name"])  # fails early on unknown names
        return cls(**value)

    def resolved_tune(self) -> dict[str, list[float]]:
        """The CV grid as lists of numbers."""
        tune = get_algorithm(self.name).tune if self.tune is None else self.tune
        out = {}
        for k, v in tune.items():
            if isinstance(v, str) or isinstance(v, list | tuple) and all(
                    isinstance(x, int | float) for x in v):
                out[k] = parse_grid(v if not isinstance(v, tuple) else list(v))
            else:
                out[k] = list(v) if isinstance(v, list | tuple) else [v]
        return out


@dataclass
class ExperimentConfig:
    """A grid of tasks (see the module docstring for the file format)."""

    name: str
    datasets: list[str]
    algorithms: list[AlgorithmConfig]
    experiment: str = "noise-grid"
    noise: list[str] = field(default_factory=lambda: ["symmetric"])
    rates: list[float] = field(default_factory=lambda: [0.0])
    repetitions: int = 1
    seed: int = 0
    rounds: int | None = 100
    tune_rounds: bool = True
    cv_folds: int = 5
    protocol: str = "holdout"
    split: dict = field(default_factory=dict)
    weak_learner: str | None = None
    scale: bool = False
    description: str = ""

    _KEYS = ("name", "datasets", "algorithms", "experiment", "noise", "rates", "repetitions",
             "seed", "rounds", "tune_rounds", "cv_folds", "protocol", "split", "weak_learner",
             "scale", "description")

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ExperimentConfig:
        """Build and check a configuration from a dictionary."""
        if not isinstance(data, dict):
            raise ValueError(f"a configuration must be a mapping, got {type(data).__name__}")
        unknown = set(data) - set(cls._KEYS)
        if unknown:
            raise ValueError(f"unknown configuration key(s): {', '.join(sorted(unknown))}; "
                             f"known: {', '.join(cls._KEYS)}")
        for key in ("datasets", "algorithms"):
            if not data.get(key):
                raise ValueError(f"the configuration needs a non-empty {key!r} list")
        data = dict(data)
        data.setdefault("name", "custom")
        data["algorithms"] = [AlgorithmConfig.from_value(a) for a in data["algorithms"]]
        if isinstance(data.get("noise"), str):
            data["noise"] = [data["noise"]]
        if isinstance(data.get("rates"), str | int | float):
            data["rates"] = parse_grid(data["rates"])
        if isinstance(data.get("datasets"), str):
            data["datasets"] = [data["datasets"]]
        cfg = cls(**data)
        cfg.check()
        return cfg

    def check(self) -> None:
        """Raise ValueError on values the runner would reject."""
        for n in self.noise:
            if n not in NOISE_MODELS:
                raise ValueError(f"unknown noise model {n!r}; use one of {', '.join(NOISE_MODELS)}")
        if self.protocol not in PROTOCOLS:
            raise ValueError(f"unknown protocol {self.protocol!r}; use one of {', '.join(PROTOCOLS)}")
        for r in self.rates:
            if not 0 <= float(r) < 1:
                raise ValueError(f"noise rates must be in [0, 1), got {r}")
        if int(self.repetitions) < 1:
            raise ValueError(f"repetitions must be >= 1, got {self.repetitions}")
        if self.protocol == "small-sample" and "n_train" not in self.split:
            raise ValueError("the small-sample protocol needs split.n_train")

    def to_dict(self) -> dict[str, Any]:
        """The configuration as plain data (for the store's run log)."""
        out = {k: getattr(self, k) for k in self._KEYS if k != "algorithms"}
        out["algorithms"] = [vars(a) for a in self.algorithms]
        return out

    def tasks(self) -> list[Task]:
        """Every task of the grid, in a deterministic order."""
        splits = _expand(self.split)
        if self.protocol == "kfold":
            n_folds = int(self.split.get("n_folds", 5))
            splits = [{**s, "n_folds": n_folds, "fold": f} for s in splits
                      for f in range(n_folds)]
        out: list[Task] = []
        for rep in range(int(self.repetitions)):
            for dataset in self.datasets:
                for split in splits:
                    for noise in self.noise:
                        rates = [0.0] if noise == "none" else [float(r) for r in self.rates]
                        for rate in rates:
                            for alg in self.algorithms:
                                if alg.datasets is not None and dataset not in alg.datasets:
                                    continue
                                tune = alg.resolved_tune()
                                rounds = self.rounds if alg.rounds is None else alg.rounds
                                tune_rounds = (self.tune_rounds if alg.tune_rounds is None
                                               else alg.tune_rounds)
                                if not get_algorithm(alg.name).boosting:
                                    rounds, tune_rounds = None, False
                                for params in _expand(alg.params):
                                    out.append(Task(
                                        experiment=self.experiment, dataset=dataset,
                                        algorithm=alg.name, protocol=self.protocol,
                                        split=split, noise=noise, rate=rate,
                                        params=params, tune=tune, rounds=rounds,
                                        tune_rounds=bool(tune_rounds), cv_folds=self.cv_folds,
                                        weak_learner=alg.weak_learner or self.weak_learner,
                                        scale=self.scale, repetition=rep,
                                        seed=int(self.seed) + rep))
        # identical tasks (e.g. epsilon = 0 listed twice) are run once
        unique: dict[str, Task] = {}
        for t in out:
            unique.setdefault(t.task_id, t)
        return list(unique.values())


def load_config(path: str | os.PathLike[str]) -> ExperimentConfig:
    """Read a configuration file: ``.toml``, ``.json``, ``.yaml``/``.yml``.

    YAML needs PyYAML, which is not a dependency; it is used when importable.
    """
    p = Path(path)
    if not p.is_file():
        raise ValueError(f"configuration file {str(p)!r} not found")
    suffix = p.suffix.lower()
    text = p.read_text(encoding="utf-8")
    if suffix == ".toml":
        try:
            import tomllib
        except ImportError:  # Python 3.10: the same parser, installed as a dependency
            import tomli as tomllib
        parse = tomllib.loads
    elif suffix == ".json":
        parse = json.loads
    elif suffix in (".yaml", ".yml"):
        if not yaml_available():
            raise ValueError("YAML configurations need PyYAML (pip install pyyaml); "
                             "or use TOML/JSON")
        import yaml

        parse = yaml.safe_load
    else:
        raise ValueError(f"unknown configuration format {suffix!r}; use .toml, .json or .yaml")
    try:
        data = parse(text)
    except Exception as exc:  # the parse errors of the three formats
        raise ValueError(f"cannot parse {str(p)!r}: {exc}") from None
    if isinstance(data, dict):
        data.setdefault("name", p.stem)
    return ExperimentConfig.from_dict(data)
