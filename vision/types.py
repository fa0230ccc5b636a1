"""The value that flows through vision: tiles found in one photo, as numpy arrays.

Modelled on supervision's `Detections`: one dataclass of parallel arrays, validated once,
filtered like numpy (`tiles[tiles.confidence > 0.5]`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from scoring.tiles import BACK, CLASSES, FLOWERS

FloatArray = npt.NDArray[np.float32]
BoolArray = npt.NDArray[np.bool_]
Index = int | slice | npt.NDArray[np.bool_] | npt.NDArray[np.int_]


# The flowers and seasons in the model's class order: one slice of every `probs` row.
FLOWER_SLICE = slice(CLASSES.index(FLOWERS[0]), CLASSES.index(FLOWERS[-1]) + 1)
# The classifier's `back` class: its second opinion on a tile the detector calls face-down.
BACK_INDEX = CLASSES.index(BACK)
WHITE_INDEX = CLASSES.index("P")  # the white dragon: a blank face on many sets, like a back


def _empty_probs(n: int) -> FloatArray:
    return np.zeros((n, len(CLASSES)), dtype=np.float32)


@dataclass
class Tiles:
    """Tiles in one photo; all coordinates in the original photo's pixels.

    Attributes:
        xyxy: (n, 4) axis-aligned boxes x1, y1, x2, y2.
        corners: (n, 4, 2) the face's corners top-left, top-right, bottom-right, bottom-left.
            Synthetic labels give them as the face reads upright. The shipped detector cannot
            tell a face from the same face turned half round, so it gives a canonical order
            (the face's "up" points into the photo's upper-left half-plane): a rectified crop
            may be upside down, the classifier reads both, and the layout decides the sense.
        confidence: (n,) detector confidence in [0, 1].
        sideways: (n,) the tile lies rotated a quarter turn relative to its row (a claimed tile).
        face_down: (n,) the back is up.
        probs: (n, 43) class probabilities in `scoring.tiles.CLASSES` order; zeros until
            classified.
        looks: (n, ...) each face as `vision.looks.describe` keeps it, to tell copies of one
            face from two faces (`vision.looks.alike`); (n, 0) until classified.
        embeddings: (n, d) the classifier's features of each face, which a taught tile set
            compares (`vision.tileset`); (n, 0) until classified, or from a classifier
            without them.
        tileness: (n,) each detection's log-odds of being a tile and no look-alike, from its
            pixels (`vision.tileness`); NaN where not judged.
    """

    xyxy: FloatArray
    corners: FloatArray
    confidence: FloatArray
    sideways: BoolArray
    face_down: BoolArray
    probs: FloatArray = field(default_factory=lambda: _empty_probs(0))
    looks: FloatArray = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    embeddings: FloatArray = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    tileness: FloatArray = field(default_factory=lambda: np.zeros(0, np.float32))

    def __post_init__(self) -> None:
        n = len(self.xyxy)
        self.xyxy = np.asarray(self.xyxy, dtype=np.float32).reshape(n, 4)
        self.corners = np.asarray(self.corners, dtype=np.float32).reshape(n, 4, 2)
        self.confidence = np.asarray(self.confidence, dtype=np.float32).reshape(n)
        self.sideways = np.asarray(self.sideways, dtype=bool).reshape(n)
        self.face_down = np.asarray(self.face_down, dtype=bool).reshape(n)
        if len(self.probs) == 0 and n:
            self.probs = _empty_probs(n)
        self.probs = np.asarray(self.probs, dtype=np.float32).reshape(n, len(CLASSES))
        if len(self.looks) == 0:
            self.looks = np.zeros((n, 0), np.float32)
        self.looks = np.asarray(self.looks, dtype=np.float32)
        if len(self.looks) != n:
            raise ValueError(f"{len(self.looks)} looks for {n} tiles")
        if len(self.embeddings) == 0:
            self.embeddings = np.zeros((n, 0), np.float32)
        self.embeddings = np.asarray(self.embeddings, dtype=np.float32)
        if len(self.embeddings) != n:
            raise ValueError(f"{len(self.embeddings)} embeddings for {n} tiles")
        if len(self.tileness) == 0:
            self.tileness = np.full(n, np.nan, np.float32)
        self.tileness = np.asarray(self.tileness, dtype=np.float32).reshape(n)

    @classmethod
    def empty(cls) -> Tiles:
        zeros = np.zeros((0,), dtype=np.float32)
        return cls(zeros.reshape(0, 4), zeros.reshape(0, 4, 2), zeros, zeros > 0, zeros > 0)

    def __len__(self) -> int:
        return len(self.xyxy)

    def __getitem__(self, index: Index) -> Tiles:
        if isinstance(index, int):
            index = np.array([index])
        return Tiles(
            self.xyxy[index],
            self.corners[index],
            self.confidence[index],
            self.sideways[index],
            self.face_down[index],
            self.probs[index],
            self.looks[index],
            self.embeddings[index],
            self.tileness[index],
        )

    @property
    def codes(self) -> list[str]:
        """Most probable code per tile (`back` for a face-down tile)."""
        return [CLASSES[i] for i in np.argmax(self.probs, axis=1)] if len(self) else []

    @property
    def centers(self) -> FloatArray:
        """(n, 2) the centres of the boxes, which hold a tile's body as well as its face."""
        return ((self.xyxy[:, :2] + self.xyxy[:, 2:]) / 2).astype(np.float32)

    @property
    def face_centres(self) -> FloatArray:
        """(n, 2) the centres of the faces: where a labelled face is to be found. A box's
        centre lies below a face seen from low down, off a crosswise one."""
        return np.asarray(self.corners.mean(axis=1), dtype=np.float32)


def concatenate(first: Tiles, second: Tiles) -> Tiles:
    """The tiles of both, `first`'s first (each field joined; both classified alike). No
    tiles join any: an empty side's looks and embeddings have no width to match."""
    if not len(first) or not len(second):
        return second if not len(first) else first
    return Tiles(
        np.concatenate([first.xyxy, second.xyxy]),
        np.concatenate([first.corners, second.corners]),
        np.concatenate([first.confidence, second.confidence]),
        np.concatenate([first.sideways, second.sideways]),
        np.concatenate([first.face_down, second.face_down]),
        np.concatenate([first.probs, second.probs]),
        np.concatenate([first.looks, second.looks]),
        np.concatenate([first.embeddings, second.embeddings]),
        np.concatenate([first.tileness, second.tileness]),
    )
