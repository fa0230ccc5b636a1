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
- Look. Pixels the quads may have missed: a small network (`sideways_look.onnx`) looks at
  the tile's body and its neighbours, the picture turned so their row runs across, and says
  whether the middle tile lies crosswise. Its logit is one more term.

A logistic model over these cues decides (`sideways.json`, fitted by `python -m
training.fit_sideways` on the detector's tiles of training-source photos: no held-out or real
photo; both files shipped in vision/weights/, card `sideways.md`). Without the photo (callers
that have only corners) a second set of weights goes by the geometry alone. The model
replaced a hand-set rule: over 1.5 times as wide as the neighbours, or turned and at least
as wide.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.geometry import face_sides, face_ups
from vision.registry import require
from vision.types import BoolArray, FloatArray

Array = npt.NDArray[np.float64]
LOOK_SIZE = 48  # px, square, grey
LOOK_SPAN = 2.0  # the look's side, in the neighbours' extents across the row
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
LOOK_TERMS = (*TERMS, "look_logit")


@dataclass(frozen=True)
class SidewaysModel:
    """A logistic model: sideways when its probability passes `threshold`."""

    weights: Array
    bias: float
    threshold: float

    @staticmethod
    def of(spec: dict[str, Any], terms: tuple[str, ...], where: str) -> SidewaysModel:
        if tuple(spec["terms"]) != terms:
            raise ValueError(f"{where}: terms {spec['terms']} are not {list(terms)}")
        return SidewaysModel(
            np.array(spec["weights"], np.float64), float(spec["bias"]), float(spec["threshold"])
        )

    def probability(self, terms: Array) -> Array:
        logits = terms @ self.weights + self.bias
        out: Array = 1.0 / (1.0 + np.exp(-logits))
        return out


@dataclass(frozen=True)
class SidewaysModels:
    """The geometry alone (`geometry`), and with the look (`look`, None without its graph)."""

    geometry: SidewaysModel
    look: SidewaysModel | None

    @staticmethod
    def load(path: Path | None = None) -> SidewaysModels:
        """The models of `path`, else of the shipped `sideways.json`."""
        path = require("sideways", path)
        spec = json.loads(path.read_text())
        geometry = SidewaysModel.of(spec, TERMS, str(path))
        look = (
            SidewaysModel.of(spec["look"], LOOK_TERMS, f"{path} look") if "look" in spec else None
        )
        return SidewaysModels(geometry, look)


@cache
def shipped_models() -> SidewaysModels:
    return SidewaysModels.load()


@cache
def _look_session() -> Any:
    from vision.sessions import open_session

    return open_session(require("sideways_look"), threads=1)


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


@dataclass(frozen=True)
class Cues:
    """Per tile: `values` (n, len(CUES)); `known`, whether it has the two neighbours they
    need; the row's direction `along` (n, 2) and the neighbours' typical `extent` across it."""

    values: Array
    known: BoolArray
    along: Array
    extent: Array


def cues(corners: FloatArray, boxes: FloatArray) -> Cues:
    """Each tile's cues against its neighbours along their row."""
    n = len(corners)
    out = np.zeros((n, len(CUES)), np.float64)
    known = np.zeros(n, dtype=bool)
    axes = np.zeros((n, 2), np.float64)
    extents = np.zeros(n, np.float64)
    if n < 3:
        return Cues(out, known, axes, extents)
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
            np.log(max(wider, 1e-6)),
            _turn_from(float(angles[i]), angles[near]) / (np.pi / 2),
            np.log(max(float(sides[i].max()), 1e-6) / max(float(sides[i].min()), 1e-6)),
            np.log(max(box_wider, 1e-6)),
            np.log(max(float(extent_across[0]), 1e-6) / typical_across),
            np.log(max(float(extent_along[0]), 1e-6) / typical_along),
            gap / typical_along,
            offset / typical_across,
        )
        known[i] = True
        axes[i], extents[i] = along, typical_across
    return Cues(out, known, axes, extents)


def terms_of(cue_values: Array) -> Array:
    """The model's terms (TERMS) from the cues."""
    turned = (cue_values[:, 1] > 2 / 3).astype(np.float64)
    log_wider = cue_values[:, 0]
    return np.column_stack(
        [cue_values, turned, log_wider * turned, np.maximum(log_wider, 0.0) ** 2]
    )


def look_crops(image: npt.NDArray[np.uint8], corners: FloatArray, found: Cues) -> Array:
    """(k, 1, LOOK_SIZE, LOOK_SIZE) grey crops in [0, 1] for the tiles with cues: each tile's
    centre, turned so its row runs across, LOOK_SPAN neighbours' extents wide."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    crops = []
    for i in np.nonzero(found.known)[0]:
        centre = corners[i].mean(axis=0).astype(np.float64)
        angle = float(np.degrees(np.arctan2(found.along[i][1], found.along[i][0])))
        scale = LOOK_SIZE / max(LOOK_SPAN * float(found.extent[i]), 1e-6)
        turn = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), angle, scale)
        turn[:, 2] += np.array([LOOK_SIZE / 2, LOOK_SIZE / 2]) - centre
        crops.append(
            cv2.warpAffine(
                grey,
                turn,
                (LOOK_SIZE, LOOK_SIZE),
                flags=cv2.INTER_AREA,
                borderMode=cv2.BORDER_REPLICATE,
            )
        )
    if not crops:
        return np.zeros((0, 1, LOOK_SIZE, LOOK_SIZE), np.float64)
    return np.stack(crops)[:, None].astype(np.float64) / 255.0


def look_logits(crops: Array) -> Array:
    """The look network's logit per crop that its middle tile lies crosswise."""
    if len(crops) == 0:
        return np.zeros(0, np.float64)
    session = _look_session()
    name = session.get_inputs()[0].name
    out = session.run(None, {name: crops.astype(np.float32)})[0]
    return np.clip(np.asarray(out, np.float64).reshape(-1), -9.0, 9.0)


def _model_for(image: npt.NDArray[np.uint8] | None, models: SidewaysModels) -> SidewaysModel:
    return models.look if image is not None and models.look is not None else models.geometry


def sideways_probability(
    corners: FloatArray,
    boxes: FloatArray | None = None,
    image: npt.NDArray[np.uint8] | None = None,
    models: SidewaysModels | None = None,
) -> Array:
    """(n,) the probability that each tile lies a quarter turn from its neighbours (0 for a
    tile without two neighbours to compare with). `boxes` (n, 4) xyxy are the detector's;
    without them each quad's own bounding box stands in. With the `image` (the pixels the
    corners are in) the look joins the geometry."""
    models = models or shipped_models()
    model = _model_for(image, models)
    if boxes is None:
        boxes = np.concatenate([corners.min(axis=1), corners.max(axis=1)], axis=1)
    found = cues(corners, boxes)
    out = np.zeros(len(corners), np.float64)
    if not found.known.any():
        return out
    terms = terms_of(found.values[found.known])
    if model is not models.geometry and image is not None:
        terms = np.column_stack([terms, look_logits(look_crops(image, corners, found))])
    out[found.known] = model.probability(terms)
    return out


def sideways_flags(
    corners: FloatArray,
    boxes: FloatArray | None = None,
    image: npt.NDArray[np.uint8] | None = None,
    models: SidewaysModels | None = None,
) -> BoolArray:
    """(n,) True where a tile lies a quarter turn from its neighbours (`sideways_probability`)."""
    models = models or shipped_models()
    cut = _model_for(image, models).threshold
    flags: BoolArray = sideways_probability(corners, boxes, image, models) > cut
    return flags
