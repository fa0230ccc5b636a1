"""Tile geometry for the layout: face sizes, up-vectors, and the photo's reading frame.

Everything is in photo pixels. The reading frame turns photo coordinates into "along the row"
(left to right as the faces read) and "across" (downward as the faces read), so a photo taken
at any rotation is handled like an upright one.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations

import numpy as np
import numpy.typing as npt

from scoring.tiles import CLASSES, PLAYING, SUITS
from vision.types import Tiles

Array = npt.NDArray[np.float64]
_BACK = CLASSES.index("back")
_CHOWS = tuple(
    tuple(PLAYING.index(f"{rank + k}{suit}") for k in range(3))
    for suit in SUITS
    for rank in range(1, 8)
)


@dataclass(frozen=True)
class TileGeometry:
    corners: Array  # (n, 4, 2) face TL, TR, BR, BL
    centers: Array  # (n, 2)
    ups: Array  # (n, 2) unit vectors from the face's bottom edge to its top edge
    face_width: float  # typical, pixels
    face_height: float

    @staticmethod
    def of(tiles: Tiles) -> TileGeometry:
        corners = tiles.corners.astype(np.float64).copy()
        boxes = tiles.xyxy.astype(np.float64)
        # A detector without corners (all zero) still gives boxes: read them as upright faces.
        flat = np.abs(np.cross(corners[:, 1] - corners[:, 0], corners[:, 3] - corners[:, 0])) < 1
        for i in np.flatnonzero(flat):
            x1, y1, x2, y2 = boxes[i]
            corners[i] = [[x1, y1], [x2, y1], [x2, y2], [x1, y2]]
        up = (corners[:, 0] + corners[:, 1]) / 2 - (corners[:, 3] + corners[:, 2]) / 2
        heights = np.linalg.norm(up, axis=1)
        widths = np.linalg.norm(corners[:, 1] - corners[:, 0], axis=1)
        ups = up / np.maximum(heights, 1e-9)[:, None]
        return TileGeometry(
            corners=corners,
            centers=corners.mean(axis=1),
            ups=ups,
            face_width=float(np.median(widths)) if len(widths) else 0.0,
            face_height=float(np.median(heights)) if len(heights) else 0.0,
        )


@dataclass(frozen=True)
class Frame:
    """The reading frame: `up` is where faces point; `right` is 90 degrees clockwise of it."""

    up: Array

    @property
    def right(self) -> Array:
        return np.array([-self.up[1], self.up[0]])

    def along(self, points: Array) -> Array:
        return np.asarray(points @ self.right, dtype=np.float64)

    def across(self, points: Array) -> Array:
        return np.asarray(points @ -self.up, dtype=np.float64)

    def extent_along(self, corners: Array) -> tuple[Array, Array]:
        projected = corners @ self.right
        return projected.min(axis=1), projected.max(axis=1)

    def quarter_turned(self, geometry: TileGeometry) -> npt.NDArray[np.bool_]:
        """Tiles whose face reads a quarter turn off the row's reading direction."""
        cosine = geometry.ups @ self.up
        return np.asarray(np.abs(cosine) < np.cos(np.radians(45)), dtype=np.bool_)


def reading_frame(geometry: TileGeometry, tiles: Tiles) -> tuple[Frame, list[str]]:
    """The dominant reading direction, voted by the up-vectors of upright face-up tiles.

    Sideways (claimed) tiles, face-down tiles and outliers (a flower thrown down at an angle)
    do not vote: each candidate direction is scored by how many tiles agree within ~20 degrees.
    """
    voters = ~tiles.face_down & ~tiles.sideways & (tiles.probs[:, _BACK] < 0.5)
    ups = geometry.ups[voters] if voters.any() else geometry.ups[~tiles.face_down]
    if len(ups) == 0:
        return _frame_from_spread(geometry.centers), [
            "no face-up tile shows which way the faces read; guessed from the row direction"
        ]
    agreement = np.clip(ups @ ups.T, 0.0, 1.0) ** 8
    seed = ups[int(np.argmax(agreement.sum(axis=1)))]
    close = ups[ups @ seed > np.cos(np.radians(30))]
    mean = close.sum(axis=0)
    up = mean / np.linalg.norm(mean)
    notes = []
    if len(close) < 0.6 * len(ups):
        notes.append("tiles read in different directions; the layout may be wrong")
    return Frame(up), notes


def _frame_from_spread(centers: Array) -> Frame:
    """Rows run along the longest spread of the tile centres; up is a guess (photo up)."""
    if len(centers) < 2:
        return Frame(np.array([0.0, -1.0]))
    spread = np.cov((centers - centers.mean(axis=0)).T)
    _, vectors = np.linalg.eigh(spread)
    right = vectors[:, -1]
    up = np.array([right[1], -right[0]])
    return Frame(up if up[1] <= 0 else -up)


def meld_log_likelihood(probs: npt.NDArray[np.float32], shape: str) -> float:
    """log P(these tiles form the meld shape) if each tile's code is drawn from its probs.

    shape: "same" (pung / kong / a concealed kong's visible faces), "kong" (four the same),
    or "chow_pung" (three tiles that are a chow in any order, or a pung).
    """
    # Mixed with a little uniform mass: a confidently misread tile lowers the meld's
    # likelihood but cannot veto it.
    p = 0.95 * probs.astype(np.float64) + 0.05 / probs.shape[1]
    same = float(np.prod(p, axis=0).sum())
    if shape != "chow_pung" or len(p) != 3:
        return float(np.log(max(same, 1e-30)))
    chow = 0.0
    for run in _CHOWS:
        for order in permutations(run):
            chow += float(p[0, order[0]] * p[1, order[1]] * p[2, order[2]])
    return float(np.log(max(same + chow, 1e-30)))
