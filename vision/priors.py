"""What the table's layout makes likely before the faces are read: the layout search's priors.

Three logistic models, each fitted by maximum likelihood on the scene engine's own layouts
(`benchmarks/priors.py fit`: the shipped models' tiles of renders of one seed, matched to
the engine's labels), give each detection's probability of being one of the win's tiles
(not a discard, the wall, a duplicate or a false detection), of lying face down, and of
lying crosswise. `vision.search` adds their log-probabilities to the tiles' own.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from vision.layout import Layout, role_of_each
from vision.registry import optional
from vision.roles import Role
from vision.types import BACK_INDEX, FLOWER_SLICE, WHITE_INDEX, Tiles

Array = npt.NDArray[np.float64]

_FLOOR = 1e-4  # probabilities are taken in logs no lower than this
_SPREAD = 3.0  # standardized inputs are held within this many standard deviations
_FAR = 6.0  # distances, in face heights, are held under this
# Two detections whose faces' centres lie this close, in face heights, may be one tile seen
# twice (`vision.moves.merges` proposes them as one).
TWINS = 0.5


class Attribute(StrEnum):
    """What a prior is a probability of, per detection."""

    OF_THE_WIN = "of_the_win"  # a tile of the hand or its flowers (not stray, not false)
    FACE_DOWN = "face_down"
    CROSSWISE = "crosswise"


# Each model's inputs, in the order of its weights.
FEATURES: dict[Attribute, tuple[str, ...]] = {
    Attribute.OF_THE_WIN: (
        "laid_in_win",  # the layout as first read puts it in the hand or among its flowers
        "laid_as_flower",  # ...among its flowers: no legality defends a flower, its place does
        "log_detected",  # the detector's confidence
        "twin_gap",  # face heights to the nearest other detection's centre
        "win_gap",  # face heights to the nearest tile the first layout puts in the win
        "log_top",  # the classifier's top probability
        "flower_mass",
        "face_down_flag",
        "crosswise_flag",
        "fainter_twin",  # a more confident detection lies within TWINS: a duplicate?
    ),
    Attribute.FACE_DOWN: (
        "face_down_flag",  # the detector's flag
        "log_back",  # the classifier's probability of a back
        "log_white",  # ...of a white dragon, a blank face like a back
        "log_detected",
        "laid_in_win",
    ),
    Attribute.CROSSWISE: (
        "crosswise_flag",  # the sideways model's flag
        "log_detected",
        "twin_gap",
        "laid_in_win",
        "face_down_flag",
        "crosswise_twin",  # a detection within TWINS is flagged the other way
    ),
}


def detection_features(tiles: Tiles, found: Layout) -> dict[str, Array]:
    """Per detection, every named input of the priors, from the tiles and their layout as
    first read (before any move)."""
    n = len(tiles)
    roles = role_of_each(found, n)
    in_win = np.array([role != Role.STRAY for role in roles], dtype=bool)
    as_flower = np.array([role == Role.FLOWER for role in roles], dtype=bool)
    height = max(float(found.tile_size[1]), 1.0)
    centres = tiles.corners.mean(axis=1).astype(np.float64)
    gaps = np.linalg.norm(centres[:, None] - centres[None], axis=2) / height
    np.fill_diagonal(gaps, np.inf)
    twin = np.minimum(gaps.min(axis=1), _FAR) if n > 1 else np.full(n, _FAR)
    win = np.where(in_win[None], gaps, np.inf).min(axis=1) if in_win.any() else np.full(n, _FAR)
    probs = tiles.probs.astype(np.float64)
    twins = gaps < TWINS
    flagged = tiles.sideways.astype(bool)
    crosswise_twin = (twins & (flagged[:, None] != flagged[None])).any(axis=1)
    fainter_twin = (twins & (tiles.confidence[:, None] < tiles.confidence[None])).any(axis=1)
    return {
        "crosswise_twin": crosswise_twin.astype(np.float64),
        "fainter_twin": fainter_twin.astype(np.float64),
        "laid_in_win": in_win.astype(np.float64),
        "laid_as_flower": as_flower.astype(np.float64),
        "log_detected": _log(tiles.confidence),
        "twin_gap": twin,
        "win_gap": np.minimum(win, _FAR),
        "log_top": _log(probs.max(axis=1)) if n else np.zeros(0),
        "flower_mass": probs[:, FLOWER_SLICE].sum(axis=1),
        "face_down_flag": tiles.face_down.astype(np.float64),
        "crosswise_flag": tiles.sideways.astype(np.float64),
        "log_back": _log(probs[:, BACK_INDEX]),
        "log_white": _log(probs[:, WHITE_INDEX]),
    }


def _log(p: npt.ArrayLike) -> Array:
    return np.log(np.maximum(np.asarray(p, np.float64), _FLOOR))


def feature_matrix(named: dict[str, Array], attribute: Attribute) -> Array:
    """The (n, k) inputs of one attribute's model."""
    return np.stack([named[name] for name in FEATURES[attribute]], axis=1)


@dataclass(frozen=True)
class LogisticPrior:
    """P(attribute) per detection: a logistic model over standardized inputs."""

    weights: Array
    bias: float
    mean: Array
    scale: Array

    def log_odds(self, x: Array) -> Array:
        z = np.clip((x - self.mean) / self.scale, -_SPREAD, _SPREAD)
        return np.asarray(np.clip(z @ self.weights + self.bias, -40.0, 40.0), np.float64)

    def to_json(self) -> dict[str, Any]:
        return {
            "weights": [round(float(w), 6) for w in self.weights],
            "bias": round(self.bias, 6),
            "mean": [round(float(m), 6) for m in self.mean],
            "scale": [round(float(s), 6) for s in self.scale],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LogisticPrior:
        return cls(
            np.asarray(data["weights"], np.float64),
            float(data["bias"]),
            np.asarray(data["mean"], np.float64),
            np.asarray(data["scale"], np.float64),
        )


def log_probs(log_odds: Array) -> tuple[Array, Array]:
    """(log p, log (1 - p)) of probabilities given as log-odds."""
    return -np.logaddexp(0.0, -log_odds), -np.logaddexp(0.0, log_odds)


@dataclass(frozen=True)
class LayoutPriors:
    """The three fitted priors and what they were fitted on."""

    models: dict[Attribute, LogisticPrior]
    fitted_on: dict[str, Any]

    def log_odds(self, tiles: Tiles, found: Layout) -> dict[Attribute, Array]:
        """Per attribute, each detection's log-odds of having it."""
        named = detection_features(tiles, found)
        return {a: m.log_odds(feature_matrix(named, a)) for a, m in self.models.items()}

    def to_json(self) -> dict[str, Any]:
        return {
            "features": {a.value: list(FEATURES[a]) for a in Attribute},
            "models": {a.value: m.to_json() for a, m in self.models.items()},
            "fitted_on": self.fitted_on,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LayoutPriors:
        for attribute in Attribute:
            if list(data["features"][attribute.value]) != list(FEATURES[attribute]):
                raise ValueError(f"the {attribute} prior was fitted on other features")
        models = {a: LogisticPrior.from_json(data["models"][a.value]) for a in Attribute}
        return cls(models, dict(data.get("fitted_on", {})))


@cache
def shipped_priors() -> LayoutPriors | None:
    """The shipped priors (`vision/weights/layout_priors.json`), or None where absent."""
    path = optional("layout_priors")
    return load_priors(path) if path is not None else None


def load_priors(path: Path) -> LayoutPriors:
    return LayoutPriors.from_json(json.loads(path.read_text(encoding="utf-8")))


def fit_prior(x: Array, y: npt.NDArray[np.bool_], l2: float = 1.0) -> LogisticPrior:
    """Maximum likelihood (L2-penalised, the intercept free) by Newton's method."""
    from vision.calibration import fit_logistic

    fitted = fit_logistic(x, y, l2)
    return LogisticPrior(fitted.weights, fitted.bias, fitted.mean, fitted.scale)


def prior_probability(log_odds: float) -> float:
    return 1.0 / (1.0 + math.exp(-log_odds))
