"""Teaching a tile set: faces cut from photos as the classifier reads them, labelled by an
enrollment photo's order, by boxes a person drew, or by a reading left unflagged, added to
the set as looks."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from scoring.tiles import BACK, CLASSES
from vision.classify import Classifier, face_crops
from vision.enroll import Enrollment, read_filled, upright_corners
from vision.layout import role_of_each
from vision.load import Photo, oriented_points
from vision.nms import box_iou
from vision.recognition import Recognition
from vision.roles import HAND_ROLES, Role
from vision.tileset import TileSet, UInt8Array
from vision.types import FloatArray, Tiles

# A drawn box is matched to the detection it overlaps most, at least this much (IoU);
# boxes need not be exact, and a box no detection matches is read as drawn.
MATCH_IOU = 0.3


@dataclass(frozen=True)
class Label:
    """A person's label of one tile in a photo: its code and its box [x, y, w, h] or its
    face's corners (TL, TR, BR, BL), in the original photo's pixels."""

    code: str
    bbox: tuple[float, float, float, float] | None = None
    corners: tuple[tuple[float, float], ...] | None = None

    def __post_init__(self) -> None:
        if self.code not in CLASSES:
            raise ValueError(f"unknown tile code {self.code!r}")
        if (self.bbox is None) == (self.corners is None):
            raise ValueError("a label needs a box or corners, not both")
        if self.bbox is not None and (self.bbox[2] <= 0 or self.bbox[3] <= 0):
            raise ValueError(f"an empty box {list(self.bbox)}")
        if self.corners is not None and len(self.corners) != 4:
            raise ValueError("a label's corners are four [x, y] points")


@dataclass(frozen=True)
class Looks:
    """Faces to add to a set: what each shows, its embedding and crop, where it came from."""

    codes: list[str]
    embeddings: FloatArray
    crops: UInt8Array
    origins: list[str]
    own: FloatArray  # the classifier's probability of each look's code, read on its crop
    matched: int = 0  # labels whose box a detection matched
    as_drawn: int = 0  # labels read inside their own box
    warnings: tuple[str, ...] = ()

    def __len__(self) -> int:
        return len(self.codes)

    def added_to(self, tileset: TileSet, digest: str) -> TileSet:
        return tileset.with_looks(
            self.codes, self.embeddings, self.crops, self.origins, digest, self.own
        )


def read_looks(
    classifier: Classifier, crops: UInt8Array, codes: Sequence[str]
) -> tuple[FloatArray, FloatArray]:
    """The classifier's embeddings of face crops and its probability of each one's code;
    ValueError for a classifier without embeddings."""
    probs, embeddings = _read(classifier, crops)
    index = [CLASSES.index(code) for code in codes]
    return embeddings, probs[np.arange(len(index)), index].astype(np.float32)


def _read(classifier: Classifier, crops: UInt8Array) -> tuple[FloatArray, FloatArray]:
    """The classifier's (n, 43) reading of face crops and their embeddings; ValueError for a
    classifier without embeddings."""
    if classifier.embedding_size == 0:
        raise ValueError("this classifier has no embedding output: a set cannot be taught")
    return classifier.read_crops(list(crops))


def reembedded(tileset: TileSet, classifier: Classifier, digest: str) -> TileSet:
    """`tileset` with its looks read by `classifier` (digest `digest`) where another
    classifier read them, or where how the classifier reads them is not kept: the kept
    crops are read again."""
    if tileset.read_by(digest):
        return tileset
    embeddings, own = read_looks(classifier, tileset.crops, tileset.codes)
    looks = Looks(list(tileset.codes), embeddings, tileset.crops, list(tileset.origins), own)
    return looks.added_to(TileSet(tileset.name, created=tileset.created), digest)


def enrollment_looks(
    photo: Photo,
    tiles: Tiles,
    origin: str,
    classifier: Classifier,
    faint: Callable[[], Tiles] | None = None,
) -> tuple[Looks, Enrollment]:
    """Every face of an enrollment photo as a look (`vision.enroll`), cut standing as the
    rows stand; raises EnrollmentError naming the row that does not fit. Where the photo's
    tiles do not fit the order, `faint` (the photo's tiles found at a lower confidence) may
    fill the rows' gaps (`vision.enroll.read_filled`)."""
    enrollment, tiles = read_filled(tiles, faint)
    keep = [i for i, label in enumerate(enrollment.labels) if label is not None]
    corners = upright_corners(tiles)[0][keep]
    crops = face_crops(photo, corners)
    codes = [str(enrollment.labels[i]) for i in keep]
    # Each face is read again as it is kept, standing as its rows stand: one cornered a
    # quarter turn off was read lying on its side.
    embeddings, own = read_looks(classifier, crops, codes)
    looks = Looks(
        codes,
        embeddings,
        crops,
        [origin] * len(keep),
        own,
        warnings=tuple(enrollment.warnings),
    )
    return looks, enrollment


def _box_corners(bbox: tuple[float, float, float, float]) -> FloatArray:
    """A drawn box's corners as a face's: upright, and a quarter turn round when the box is
    wider than tall (a tile lying crosswise; which quarter does not matter, as the embedding
    is the same for a face turned half round)."""
    x, y, w, h = bbox
    quad = np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)
    return np.roll(quad, 1, axis=0) if w > h else quad


def label_corners(labels: Sequence[Label], tiles: Tiles) -> tuple[FloatArray, int]:
    """(n, 4, 2) the face corners to read for each label: its own corners where given, else
    the detection its box overlaps most (one detection per box, larger overlaps first),
    else the box itself. Returns the corners and how many labels a detection matched."""
    out = np.zeros((len(labels), 4, 2), np.float32)
    pairs = []
    for j, label in enumerate(labels):
        if label.corners is not None:
            out[j] = np.asarray(label.corners, np.float32)
            continue
        assert label.bbox is not None
        x, y, w, h = label.bbox
        box = np.array([x, y, x + w, y + h], np.float32)
        out[j] = _box_corners(label.bbox)
        if len(tiles):
            overlaps = box_iou(box, tiles.xyxy)
            pairs += [(float(overlaps[i]), j, int(i)) for i in np.nonzero(overlaps >= MATCH_IOU)[0]]
    used_labels: set[int] = set()
    used_tiles: set[int] = set()
    for _, j, i in sorted(pairs, reverse=True):
        if j in used_labels or i in used_tiles:
            continue
        out[j] = tiles.corners[i]
        used_labels.add(j)
        used_tiles.add(i)
    return out, len(used_labels)


def _moved(label: Label, move: Callable[[FloatArray], FloatArray]) -> Label:
    """`label` with its box or corners moved by `move` (points (n, 2) to points)."""
    if label.corners is not None:
        points = move(np.asarray(label.corners, np.float32))
        return Label(label.code, corners=tuple((float(x), float(y)) for x, y in points))
    assert label.bbox is not None
    x, y, w, h = label.bbox
    points = move(np.array([[x, y], [x + w, y + h]], np.float32))
    (x0, y0), (x1, y1) = points.min(axis=0), points.max(axis=0)
    return Label(label.code, (float(x0), float(y0), float(x1 - x0), float(y1 - y0)))


def _frames(
    photo: Photo, measured_on: tuple[int, int] | None
) -> list[tuple[str, Callable[[FloatArray], FloatArray]]]:
    """The frames a person's boxes may be measured in, each with the move into the photo's
    own (after its EXIF turn): that frame itself; a copy of another size (`measured_on`,
    as a labelling file records it); the photo as stored, before its EXIF turn, at its own
    size or `measured_on`'s. A labelling tool that ignores EXIF, or labels a smaller copy,
    measures its boxes so."""
    width, height = photo.original_size
    frames: list[tuple[str, Callable[[FloatArray], FloatArray]]] = [("as given", lambda p: p)]
    size = measured_on if measured_on is not None and min(measured_on) > 0 else None

    def scaled(size: tuple[int, int], to: tuple[int, int]) -> FloatArray:
        return np.array([to[0] / size[0], to[1] / size[1]], np.float32)

    if size is not None and size != (width, height):
        factor = scaled(size, (width, height))
        frames.append((f"measured on a {size[0]}x{size[1]} copy", lambda p: p * factor))
    if photo.orientation != 1:
        turned = photo.orientation in (5, 6, 7, 8)
        stored = (height, width) if turned else (width, height)
        source = size if size is not None else stored
        back = scaled(source, stored)
        orientation = photo.orientation
        frames.append(
            (
                f"measured on the photo as stored, before its EXIF turn ({orientation})",
                lambda p: oriented_points(p * back, orientation, stored),
            )
        )
    return frames


def in_photo_frame(
    labels: Sequence[Label], tiles: Tiles, photo: Photo, measured_on: tuple[int, int] | None
) -> tuple[list[Label], str | None]:
    """The labels in the photo's own frame: of the frames they may be measured in
    (`_frames`), the one where most boxes match a detection (the frame as given on a tie),
    and a sentence saying so where it is not the frame as given. Another frame must match
    most of the labels, two at least: a box or two on a tile the detector missed may fall
    on some tile in another frame by chance."""
    given = label_corners(labels, tiles)[1]
    best, best_matched, why = list(labels), given, None
    for name, move in _frames(photo, measured_on)[1:]:
        moved = [_moved(label, move) for label in labels]
        matched = label_corners(moved, tiles)[1]
        if matched > best_matched and matched >= 2 and 2 * matched > len(labels):
            best, best_matched = moved, matched
            why = (
                f"labels {name}: moved into the photo's frame ({matched} of {len(labels)}"
                f" boxes on a found tile, {given} as given)"
            )
    return best, why


def label_looks(
    photo: Photo,
    tiles: Tiles,
    labels: Sequence[Label],
    origin: str,
    classifier: Classifier,
    measured_on: tuple[int, int] | None = None,
) -> Looks:
    """One look per label of one photo (`label_corners`), its labels first moved into the
    photo's frame where they fit its tiles better so (`in_photo_frame`)."""
    labels, moved = in_photo_frame(labels, tiles, photo, measured_on)
    corners, matched = label_corners(labels, tiles)
    crops = face_crops(photo, corners)
    drawn = sum(label.bbox is not None for label in labels) - matched
    codes = [label.code for label in labels]
    embeddings, own = read_looks(classifier, crops, codes)
    return Looks(
        codes,
        embeddings,
        crops,
        [origin] * len(labels),
        own,
        matched,
        drawn,
        (f"{origin}: {moved}",) if moved else (),
    )


# The roles of the tiles a reading teaches: the hand's and the flowers'; a stray tile's code
# is the classifier's alone, not the hand's.
_TAUGHT_ROLES = frozenset({*HAND_ROLES, Role.FLOWER})


def reading_looks(
    photo: Photo, recognition: Recognition, origin: str, classifier: Classifier
) -> Looks:
    """One look per face-up tile of a reading's hand and flowers, under the code its hand
    gives it, cut along the corners it was read through: what a reading no review check
    flagged (right 98-100 times in 100 on fresh renders, `vision/weights/review.md`) teaches
    its table's set. Empty where the reading has no hand or was flagged for review.

    Only faces the classifier alone names as the hand does are taught. A face the set drew
    to a taught look-alike, or the rules renamed, waits for a person (an enrollment, a
    correction): taught, one such reading left unflagged would teach the set its mistake,
    and every later copy of that face would be read so, surely."""
    tiles, decoded = recognition.tiles, recognition.decoded
    if recognition.review or decoded.hand is None or not len(tiles):
        return _no_looks()
    roles = role_of_each(recognition.layout, len(tiles))
    left_out = set(decoded.left_out)  # laid in the hand's rows, yet no tile of the hand
    keep = [
        i
        for i, role in enumerate(roles)
        if role in _TAUGHT_ROLES
        and i not in left_out
        and not tiles.face_down[i]
        and decoded.codes[i] != BACK
    ]
    crops = face_crops(photo, tiles.corners[keep])
    probs, embeddings = _read(classifier, crops)
    index = np.array([CLASSES.index(decoded.codes[i]) for i in keep], dtype=int)
    agreed = np.flatnonzero(probs.argmax(axis=1) == index) if len(keep) else np.zeros(0, int)
    if not len(agreed):
        return _no_looks()
    own = probs[agreed, index[agreed]].astype(np.float32)
    codes = [decoded.codes[keep[k]] for k in agreed]
    return Looks(codes, embeddings[agreed], crops[agreed], [origin] * len(agreed), own)


def _no_looks() -> Looks:
    return Looks(
        [],
        np.zeros((0, 0), np.float32),
        np.zeros((0, 0, 0, 3), np.uint8),
        [],
        np.zeros(0, np.float32),
    )
