"""Which tiles lie a quarter turn from their neighbours (a claimed tile laid sideways, 横放).

Each clue is weak alone on the detector's faces of real photos:

- Width. A sideways tile is wider along its row than the upright tiles beside it: a face is
  3 by 4, so turned it spans about 16/9 of its neighbours' width-to-height ratio. The row's
  direction is the main axis of the neighbours' centres; each face's ratio is its extent
  along that direction over its extent across it. Comparing with the neighbours, not reading
  a face's own long axis, matters: a camera tilted over a row foreshortens the upright faces
  until they are nearly square, and their own long axis flips at random. But the detector's
  quads of sideways tiles are loose (their width correlates only 0.26 with the true one).
  The detector's box gives the same ratio from the tile's body, with other errors.
- Turn. The detector's corners follow the face's reading direction (up to half a turn), so a
  face whose "up" is a quarter turn from its neighbours' is turned, however square it looks.
  Alone this flags too many upright faces (its read of the glyph's direction is noisy).
- Shape and place. A nearly square quad says little of its turn; a sideways face is shorter
  across the row than its neighbours and longer along it, stands further from the next tile,
  and lies flush with the row's near edge, off the neighbours' centre line.

A logistic model over these cues decides (`models/sideways.json`, fitted by
`python -m models.fit_sideways` on the detector's tiles of training-source photos: no held-out
or real photo). Until the fifth session's hand-set rule was replaced, a tile was sideways when
over 1.5 times as wide as its neighbours, or turned and at least as wide.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from vision.geometry import face_sides, face_ups
from vision.types import BoolArray, FloatArray

Array = npt.NDArray[np.float64]
MODEL_PATH = Path(__file__).resolve().parents[1] / "models" / "sideways.json"
NEIGHBOURS = 6
REACH = 3.0  # neighbours within this many tile lengths count
# The cues, in the model's order: each tile against the median of its neighbours.
CUES = (
    "log_wider",  # log of (extent along the row / across it) over the neighbours'
    "turn",  # the face's up from the neighbours' typical up, modulo half a turn, in quarters
    "log_elongation",  # log of the quad's long side over its short side
    "log_box_wider",  # log_wider from the detector's axis-aligned boxes
    "log_across",  # log of the extent across the row over the neighbours'
    "log_along",  # log of the extent along the row over the neighbours'
    "gap",  # distance along the row to the nearest neighbour, in neighbours' extents
    "offset",  # distance across the row from the neighbours' median centre, in their extents
)
# Terms built from the cues: a turned face (over two thirds of a quarter turn) and how much
# wider it is, and how much wider any face is, squared (the width clue grows past linear).
TERMS = (*CUES, "turned", "turned_log_wider", "wider_squared")


@dataclass(frozen=True)
class SidewaysModel:
    """A logistic model on TERMS: sideways when bias + weights . terms > threshold's logit."""

    weights: Array
    bias: float
    threshold: float

    @staticmethod
    def load(path: Path = MODEL_PATH) -> SidewaysModel:
        spec = json.loads(path.read_text())
        if tuple(spec["terms"]) != TERMS:
            raise ValueError(f"{path}: terms {spec['terms']} are not {list(TERMS)}")
        return SidewaysModel(
            np.array(spec["weights"], np.float64), float(spec["bias"]), float(spec["threshold"])
        )

    def probability(self, terms: Array) -> Array:
        logits = terms @ self.weights + self.bias
        out: Array = 1.0 / (1.0 + np.exp(-logits))
        return out


@cache
def shipped_model() -> SidewaysModel:
    return SidewaysModel.load()


def _row_ratio(quad: FloatArray, along: FloatArray, across: FloatArray) -> float:
    a, b = quad @ along, quad @ across
    return float((a.max() - a.min()) / max(float(b.max() - b.min()), 1e-6))


def _box_ratio(box: FloatArray, along: FloatArray, across: FloatArray) -> float:
    w, h = float(box[2] - box[0]), float(box[3] - box[1])
    a = w * abs(float(along[0])) + h * abs(float(along[1]))
    b = w * abs(float(across[0])) + h * abs(float(across[1]))
    return a / max(b, 1e-6)


def _up_angles(corners: FloatArray) -> FloatArray:
    """Each face's reading direction (top edge's midpoint minus bottom edge's), as an angle."""
    up = face_ups(corners)
    angles: FloatArray = np.arctan2(up[:, 1], up[:, 0])
    return angles


def _turn_from(angle: float, others: FloatArray) -> float:
    """How far `angle` is from the others' typical direction, modulo half a turn (radians)."""
    doubled = np.exp(2j * others)  # half a turn apart reads alike
    typical = np.angle(np.median(doubled.real) + 1j * np.median(doubled.imag)) / 2
    return float(abs((angle - typical + np.pi / 2) % np.pi - np.pi / 2))


def cues(corners: FloatArray, boxes: FloatArray) -> tuple[Array, BoolArray]:
    """(n, len(CUES)) each tile's cues and (n,) whether it has the two neighbours they need."""
    n = len(corners)
    out = np.zeros((n, len(CUES)), np.float64)
    known = np.zeros(n, dtype=bool)
    if n < 3:
        return out, known
    centres = corners.mean(axis=1)
    sides = face_sides(corners)
    dist = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    np.fill_diagonal(dist, np.inf)
    angles = _up_angles(corners)
    for i in range(n):
        order = np.argsort(dist[i])[:NEIGHBOURS]
        near = order[dist[i, order] < REACH * max(float(sides[i, 1]), 1.0)]
        if len(near) < 2:
            continue
        group = np.r_[i, near]
        spread = centres[group] - centres[group].mean(axis=0)
        along = np.linalg.svd(spread, full_matrices=False)[2][0]
        across = np.array([-along[1], along[0]], dtype=along.dtype)
        extent_along = np.ptp(corners[group] @ along, axis=1)
        extent_across = np.ptp(corners[group] @ across, axis=1)
        typical_along = max(float(np.median(extent_along[1:])), 1e-6)
        typical_across = max(float(np.median(extent_across[1:])), 1e-6)
        wider = _row_ratio(corners[i], along, across) / float(
            np.median([_row_ratio(corners[j], along, across) for j in near])
        )
        box_wider = _box_ratio(boxes[i], along, across) / float(
            np.median([_box_ratio(boxes[j], along, across) for j in near])
        )
        gap = float(np.abs((centres[near] - centres[i]) @ along).min())
        offset = abs(float((centres[i] - np.median(centres[near], axis=0)) @ across))
        out[i] = (
            np.log(wider),
            _turn_from(float(angles[i]), angles[near]) / (np.pi / 2),
            np.log(max(float(sides[i].max()), 1e-6) / max(float(sides[i].min()), 1e-6)),
            np.log(box_wider),
            np.log(max(float(extent_across[0]), 1e-6) / typical_across),
            np.log(max(float(extent_along[0]), 1e-6) / typical_along),
            gap / typical_along,
            offset / typical_across,
        )
        known[i] = True
    return out, known


def terms_of(cue_values: Array) -> Array:
    """The model's terms (TERMS) from the cues."""
    turned = (cue_values[:, 1] > 2 / 3).astype(np.float64)
    log_wider = cue_values[:, 0]
    return np.column_stack(
        [cue_values, turned, log_wider * turned, np.maximum(log_wider, 0.0) ** 2]
    )


def sideways_flags(
    corners: FloatArray, boxes: FloatArray | None = None, model: SidewaysModel | None = None
) -> BoolArray:
    """(n,) True where a tile is a quarter turn from its neighbours. `boxes` (n, 4) xyxy are
    the detector's; without them each quad's own bounding box stands in."""
    if boxes is None:
        boxes = np.concatenate([corners.min(axis=1), corners.max(axis=1)], axis=1)
    values, known = cues(corners, boxes)
    flags = np.zeros(len(corners), dtype=bool)
    if known.any():
        model = model or shipped_model()
        flags[known] = model.probability(terms_of(values[known])) > model.threshold
    return flags
