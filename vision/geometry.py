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

from scoring.tiles import PLAYING, SUITS
from vision.notes import Note, NoteCode
from vision.types import BACK_INDEX, Tiles

Array = npt.NDArray[np.float64]
_CHOWS = tuple(
    tuple(PLAYING.index(f"{rank + k}{suit}") for k in range(3))
    for suit in SUITS
    for rank in range(1, 8)
)


def face_ups(corners: npt.NDArray[np.floating]) -> npt.NDArray[np.floating]:
    """(n, 2) each face's up-vector from its corners (TL, TR, BR, BL): the top edge's midpoint
    minus the bottom edge's, not normalised."""
    return (corners[:, 0] + corners[:, 1]) / 2 - (corners[:, 3] + corners[:, 2]) / 2


def face_sides(corners: npt.NDArray[np.floating]) -> npt.NDArray[np.float32]:
    """(n, 2) each quad's top edge (TL-TR) and left edge (TL-BL) lengths."""
    top = np.linalg.norm(corners[:, 1] - corners[:, 0], axis=1)
    left = np.linalg.norm(corners[:, 3] - corners[:, 0], axis=1)
    return np.stack([top, left], axis=1).astype(np.float32)


def canonical_order(corners: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """(n, 4, 2) face corners as the shipped detector reports them: each face turned half
    round where its up points into the lower-right half-plane (the detector cannot tell a
    face from the same face upside down; its training targets are made by this function)."""
    out = np.array(corners, dtype=np.float32, copy=True)
    turn = face_ups(out) @ np.array([-1.0, -1.0]) < 0
    out[turn] = np.roll(out[turn], 2, axis=1)
    return out


@dataclass(frozen=True)
class TileGeometry:
    corners: Array  # (n, 4, 2) face TL, TR, BR, BL
    centers: Array  # (n, 2)
    ups: Array  # (n, 2) unit vectors from the face's bottom edge to its top edge
    rights: Array  # (n, 2) unit vectors along the face's top edge, left to right
    face_width: float  # typical, pixels
    face_height: float

    @staticmethod
    def of(tiles: Tiles) -> TileGeometry:
        corners = tiles.corners.astype(np.float64).copy()
        boxes = tiles.xyxy.astype(np.float64)
        # A detector without corners (all zero) still gives boxes: read them as upright faces.
        top, side = corners[:, 1] - corners[:, 0], corners[:, 3] - corners[:, 0]
        flat = np.abs(top[:, 0] * side[:, 1] - top[:, 1] * side[:, 0]) < 1  # zero area
        for i in np.flatnonzero(flat):
            x1, y1, x2, y2 = boxes[i]
            corners[i] = [[x1, y1], [x2, y1], [x2, y2], [x1, y2]]
        up = face_ups(corners)
        heights = np.linalg.norm(up, axis=1)
        widths = np.linalg.norm(corners[:, 1] - corners[:, 0], axis=1)
        ups = up / np.maximum(heights, 1e-9)[:, None]
        right = (corners[:, 1] + corners[:, 2]) / 2 - (corners[:, 0] + corners[:, 3]) / 2
        rights = right / np.maximum(np.linalg.norm(right, axis=1), 1e-9)[:, None]
        return TileGeometry(
            corners=corners,
            centers=corners.mean(axis=1),
            ups=ups,
            rights=rights,
            face_width=float(np.median(widths)) if len(widths) else 0.0,
            face_height=float(np.median(heights)) if len(heights) else 0.0,
        )


@dataclass(frozen=True)
class Frame:
    """The reading frame: `up` is where faces point, `right` the direction rows run.

    Under perspective the two are not perpendicular in the photo (a row's line and the faces'
    up-edges converge differently), so each is voted from the tiles' own edges: rows follow
    the faces' top edges, and "across" is measured perpendicular to the row.
    """

    up: Array
    right: Array

    def flipped(self) -> Frame:
        """The same axis read the other way round (a photo turned half round)."""
        return Frame(-self.up, -self.right)

    @property
    def down_normal(self) -> Array:
        normal = np.array([-self.right[1], self.right[0]])
        return normal if normal @ self.up < 0 else -normal

    def along(self, points: Array) -> Array:
        return np.asarray(points @ self.right, dtype=np.float64)

    def across(self, points: Array) -> Array:
        return np.asarray(points @ self.down_normal, dtype=np.float64)

    def extent_along(self, corners: Array) -> tuple[Array, Array]:
        projected = corners @ self.right
        return projected.min(axis=1), projected.max(axis=1)

    def quarter_turned(self, geometry: TileGeometry) -> npt.NDArray[np.bool_]:
        """Tiles whose face runs across the row: their up-edge lies along the row and their
        top edge across it. Both edges vote, since perspective and corner noise can skew one."""
        along_row = np.abs(geometry.ups @ self.right) + np.abs(geometry.rights @ self.up)
        with_row = np.abs(geometry.ups @ self.up) + np.abs(geometry.rights @ self.right)
        return np.asarray(along_row > with_row, dtype=np.bool_)


def reading_frame(geometry: TileGeometry, tiles: Tiles) -> tuple[Frame, list[Note]]:
    """The dominant reading direction, voted by the up-vectors of upright face-up tiles.

    Sideways (claimed) tiles, face-down tiles and outliers (a flower thrown down at an angle)
    do not vote: each candidate direction is scored by how many tiles agree within ~20 degrees.
    """
    voters = ~tiles.face_down & ~tiles.sideways & (tiles.probs[:, BACK_INDEX] < 0.5)
    ups = geometry.ups[voters] if voters.any() else geometry.ups[~tiles.face_down]
    if len(ups) == 0:
        message = "no face-up tile shows which way the faces read; guessed from the row direction"
        return _frame_from_spread(geometry.centers), [Note(NoteCode.NO_UPRIGHT_FACE, message)]
    agreement = np.clip(ups @ ups.T, 0.0, 1.0) ** 8
    seed = ups[int(np.argmax(agreement.sum(axis=1)))]
    agree = ups @ seed > np.cos(np.radians(30))
    mean = ups[agree].sum(axis=0)
    up = mean / np.linalg.norm(mean)
    rights = (geometry.rights[voters] if voters.any() else geometry.rights[~tiles.face_down])[agree]
    right = rights.sum(axis=0)
    right = right / max(float(np.linalg.norm(right)), 1e-9)
    if abs(float(right @ up)) > np.sin(np.radians(40)):  # degenerate: fall back to square
        right = np.array([-up[1], up[0]])
    notes = []
    if agree.sum() < 0.6 * len(ups):
        message = "tiles read in different directions; the layout may be wrong"
        notes.append(Note(NoteCode.MIXED_DIRECTIONS, message))
    return Frame(up, right), notes


def _frame_from_spread(centers: Array) -> Frame:
    """Rows run along the longest spread of the tile centres; up is a guess (photo up)."""
    if len(centers) < 2:
        return Frame(np.array([0.0, -1.0]), np.array([1.0, 0.0]))
    spread = np.cov((centers - centers.mean(axis=0)).T)
    _, vectors = np.linalg.eigh(spread)
    right = vectors[:, -1]
    up = np.array([right[1], -right[0]])
    up = up if up[1] <= 0 else -up
    return Frame(up, np.array([-up[1], up[0]]))


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
