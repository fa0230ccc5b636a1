"""Whether each detection is a tile: two logistic models, one on the detection, one on its photo.

The detector learned "tile" from tables with tiles and some look-alikes; a keyboard key, a
domino or a card corner it has never seen can still peak in its heatmap. Two stacked linear
models judge each detection:

- the look: the classifier's embedding of the crop (restricted to its main directions, which
  carry over to tile designs the fit never saw; the full embedding tells the fit's own
  designs from everything else), the detector's confidence, the face-down flag, how many
  sure detections the photo holds, the detection's size against theirs and, where the model
  was fitted with it, the tileness network's log-odds (`vision.tileness`: a look-alike told
  by its pixels and surroundings, which the photo's many tiles do not lift);
- the photo: the look's log-odds beside those of the photo's other detections and, where
  the model was fitted with it, whether a face-down detection has any sure face-up one
  beside it. A declared win is many tiles that each look like one; a table with no tiles
  gives a few detections that each look a little wrong, and together say so.

Both are fitted on detections of synthetic photos of the training sources only (tiles
against detections of no tile), never on the designs held out for evaluation, and the
threshold keeps a set share of the true tiles (`benchmarks/objectness.py`,
`vision/weights/objectness.md`). Tiles without embeddings (tests' synthetic tiles, a
classifier without that output) pass untouched: there is nothing to judge them by.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from vision.geometry import face_sides
from vision.registry import optional
from vision.types import FloatArray, Tiles

Array = npt.NDArray[np.float64]
SURE = 0.5  # detections at least this confident count as the photo's tiles for the context
OWN = 4  # the look's features after the embedding (a fifth: the tileness log-odds)
_LOGIT_CAP = 20.0  # one look's log-odds counts no further than this in its photo's context
TILENESS_CAP = 30.0  # the tileness log-odds, clipped: a sure crop reaches 40 and more
_CONFIDENCE, _FACE_DOWN = 0, 1  # columns of the look's own features (`look_features`)


def look_features(tiles: Tiles, tileness: bool = False) -> Array:
    """Per tile: its embedding; the detector's confidence as a log-odds; the face-down
    flag; how many sure detections its photo holds (log); its size against theirs (log);
    with `tileness`, the tileness network's log-odds (clipped)."""
    confidence = np.clip(tiles.confidence.astype(np.float64), 1e-4, 1 - 1e-4)
    short = np.maximum(face_sides(tiles.corners).min(axis=1).astype(np.float64), 1.0)
    sure = tiles.confidence >= SURE
    median = float(np.median(short[sure] if sure.any() else short)) if len(tiles) else 1.0
    return np.hstack(
        [
            tiles.embeddings.astype(np.float64),
            np.log(confidence / (1 - confidence))[:, None],
            tiles.face_down.astype(np.float64)[:, None],
            np.full((len(tiles), 1), np.log1p(float(sure.sum()))),
            np.log(short / median)[:, None],
            *([np.clip(tiles.tileness, -TILENESS_CAP, TILENESS_CAP)[:, None]] if tileness else []),
        ]
    )


def photo_features(own: Array, look: Array, company: bool = False) -> Array:
    """Per tile: its own features and its look's log-odds, then the photo's other
    detections: their mean log-odds, how many of them look like tiles (log), whether there
    are any; with `company`, whether it is face down on a photo with no sure face-up
    detection. A tile lies face down in a wall or a concealed kong, beside face-up tiles; a
    card's back or a phone's icon read as a tile's back lies on a table that shows no face."""
    z = np.clip(look, -_LOGIT_CAP, _LOGIT_CAP)
    n = len(z)
    others = max(n - 1, 1)
    liked = int((z > 0).sum()) - (z > 0)
    columns = [
        own,
        z[:, None],
        ((z.sum() - z) / others)[:, None],
        np.log1p(liked)[:, None],
        np.full((n, 1), float(n > 1)),
    ]
    if company:
        face_down = own[:, _FACE_DOWN] > 0.5
        sure = own[:, _CONFIDENCE] >= np.log(SURE / (1 - SURE))
        alone = not bool((sure & ~face_down).any())
        columns.append((face_down & alone).astype(np.float64)[:, None])
    return np.hstack(columns)


@dataclass(frozen=True)
class Linear:
    """log-odds = x . weights + bias, on the raw features."""

    weights: Array
    bias: float

    def logit(self, x: Array) -> Array:
        out: Array = x @ self.weights + self.bias
        return out

    def to_json(self) -> dict[str, Any]:
        return {"weights": [float(f"{w:.7g}") for w in self.weights], "bias": self.bias}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Linear:
        return cls(np.asarray(data["weights"], np.float64), float(data["bias"]))


@dataclass(frozen=True)
class Objectness:
    """P(tile) from the photo model on the look model's log-odds; a detection under
    `threshold` is taken as not a tile."""

    look: Linear
    photo: Linear
    threshold: float
    tileness: bool = False  # fitted with the tileness network's log-odds among the look's
    company: bool = False  # fitted with the face-down detections' company (`photo_features`)

    def __post_init__(self) -> None:
        photo = self.own + 4 + self.company
        if len(self.look.weights) <= self.own or len(self.photo.weights) != photo:
            raise ValueError("objectness model: the look's or the photo's weights disagree")

    @property
    def own(self) -> int:
        """How many of the look's features follow the embedding."""
        return OWN + self.tileness

    @property
    def embedding_size(self) -> int:
        return len(self.look.weights) - self.own

    def p_tile(self, tiles: Tiles) -> FloatArray:
        """P(tile) per detection; ones where the tiles carry no embedding of this width, or
        no tileness where the model was fitted with it."""
        if len(tiles) == 0 or tiles.embeddings.shape[1] != self.embedding_size:
            return np.ones(len(tiles), np.float32)
        if self.tileness and np.isnan(tiles.tileness).any():
            return np.ones(len(tiles), np.float32)
        x = look_features(tiles, self.tileness)
        return self.p_tile_of(x[:, -self.own :], self.look.logit(x)).astype(np.float32)

    def p_tile_of(self, own: Array, look: Array) -> Array:
        """P(tile) of one photo's detections from their own features and looks' log-odds."""
        z = self.photo.logit(photo_features(own, look, self.company))
        return 1.0 / (1.0 + np.exp(-np.clip(z, -40, 40)))

    def keep(self, tiles: Tiles) -> Tiles:
        """The detections taken as tiles."""
        if len(tiles) == 0:
            return tiles
        return tiles[self.p_tile(tiles) >= self.threshold]

    def to_json(self, fitted_on: dict[str, Any]) -> dict[str, Any]:
        return {
            "look": self.look.to_json(),
            "photo": self.photo.to_json(),
            "threshold": self.threshold,
            "tileness": self.tileness,
            "face_down_company": self.company,
            "fitted_on": fitted_on,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Objectness:
        look, photo = Linear.from_json(data["look"]), Linear.from_json(data["photo"])
        tileness, company = data.get("tileness", False), data.get("face_down_company", False)
        return cls(look, photo, float(data["threshold"]), bool(tileness), bool(company))


def load(path: Path) -> Objectness:
    return Objectness.from_json(json.loads(path.read_text(encoding="utf-8")))


@cache
def shipped_objectness() -> Objectness | None:
    """The shipped model, or None where the file is absent (every detection is kept)."""
    path = optional("objectness")
    return load(path) if path is not None else None


def fit_linear(
    x: Array,
    is_tile: npt.NDArray[np.bool_],
    l2: float,
    weight: Array | None = None,
    basis: Array | None = None,
) -> Linear:
    """Weighted logistic regression by Newton's method on the L2-penalised likelihood, on
    inputs standardized by the fitting set's mean and spread (the intercept not penalised),
    returned on the raw inputs. With `basis` ((k, d) orthonormal rows), the first d inputs
    enter only through their projection on it: the weights live in that subspace."""
    d = 0 if basis is None else basis.shape[1]
    z = x if basis is None else np.hstack([x[:, :d] @ basis.T, x[:, d:]])
    mean = z.mean(axis=0)
    scale = z.std(axis=0)
    scale = np.where(scale > 1e-9, scale, 1.0)
    design = np.hstack([(z - mean) / scale, np.ones((len(z), 1))])
    y = is_tile.astype(np.float64)
    s = np.ones(len(z)) if weight is None else weight
    penalty = np.full(design.shape[1], l2)
    penalty[-1] = 0.0
    w = np.zeros(design.shape[1])
    for _ in range(60):
        p = 1.0 / (1.0 + np.exp(-np.clip(design @ w, -40, 40)))
        gradient = design.T @ (s * (p - y)) + penalty * w
        hessian = (design * (s * p * (1 - p))[:, None]).T @ design + np.diag(penalty)
        step = np.linalg.solve(hessian + 1e-9 * np.eye(len(w)), gradient)
        w -= step
        if float(np.abs(step).max()) < 1e-7:
            break
    raw = w[:-1] / scale
    bias = float(w[-1] - raw @ mean)
    if basis is not None:
        k = basis.shape[0]
        raw = np.concatenate([basis.T @ raw[:k], raw[k:]])
    return Linear(raw, bias)
