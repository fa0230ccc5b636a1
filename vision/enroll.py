"""An enrollment photo: one face of each laid in the standard order, read into labels.

The order labels the tiles (`scoring.tiles.STANDARD_ROWS`: rows top to bottom, characters,
circles, bamboos 1-9, the honours E S W N C F P, then the flowers and seasons the set has).
The faces' own corners say which way the rows run, so a photo taken at an angle or from
across the table reads the same. The reading is checked before anything is taught: the
number of rows and of tiles in each, and whether the classifier, which knows most designs
roughly, finds a row far better explained as another row or the same row the wrong way
round. A photo that fails is refused with a message naming the row.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from itertools import pairwise

import numpy as np
import numpy.typing as npt

from scoring.tiles import BACK, CLASSES, FLOWERS, STANDARD_ROWS
from vision.types import FloatArray, Tiles, concatenate

ROW_NAMES = ("characters 1-9", "circles 1-9", "bamboos 1-9", "honours E S W N C F P", "flowers")
ORDER_TEXT = (
    "rows top to bottom: characters 1-9, circles 1-9, bamboos 1-9, the honours "
    "E S W N C F P, then the flowers and seasons"
)
# Two rows of one photo are split where their centres lie this many face heights apart
# across the rows: rows lie about 1.2-1.6 heights apart, tiles of one row within 0.3.
ROW_SPLIT = 0.6
# A row is refused when another row of the order, or this one the wrong way round, explains
# the classifier's reading better by this many nats a tile: on a design it was never trained
# on, the classifier misreads a face or two of a row, never most of them.
DISPUTE_NATS_PER_TILE = 1.0
MIN_ROW = 4  # the shortest row of the order: a set's four flowers
# A single face is worth a warning when the classifier reads it as another face this surely.
SURE_OTHER = 0.99
_FLOOR = 1e-4


class EnrollmentError(ValueError):
    """The photo is not an enrollment photo as laid out; the message says which row."""


@dataclass(frozen=True)
class Enrollment:
    """Each detected tile's label (`labels[i]` is tile i's code, or None for a tile left
    out) and the warnings worth showing (single faces the classifier reads otherwise)."""

    labels: list[str | None]
    rows: list[list[int]]
    warnings: list[str]


def _downs(corners: np.ndarray) -> np.ndarray:
    """Twice each face's mean vector down its sides, from its (..., 4, 2) corners."""
    c = corners
    return np.asarray((c[..., 3, :] - c[..., 0, :]) + (c[..., 2, :] - c[..., 1, :]))


def _directions(tiles: Tiles) -> tuple[np.ndarray, np.ndarray, float]:
    """The unit vector along the rows and across them (down the faces), and the median
    face height, from the faces' corners."""
    c = tiles.corners
    right = ((c[:, 1] - c[:, 0]) + (c[:, 2] - c[:, 3])) / 2
    down = _downs(c) / 2
    angle = float(np.median(np.arctan2(right[:, 1], right[:, 0])))
    along = np.array([np.cos(angle), np.sin(angle)])
    across = np.array([-along[1], along[0]])  # a quarter turn on from `along`, image y down
    if float(np.median(down @ across)) < 0:
        across = -across
    height = float(np.median(np.linalg.norm(down, axis=1)))
    return along, across, max(height, 1.0)


def upright_corners(tiles: Tiles) -> tuple[FloatArray, npt.NDArray[np.bool_]]:
    """Each face's corners started at the one that puts its top edge along the rows, and
    which faces that turned a quarter: every face of an enrollment photo stands the same
    way, while the detector may start a lone face's corners a quarter turn off (then its
    crop, and the look taught, lie on their side)."""
    if len(tiles) == 0:
        return tiles.corners, np.zeros(0, dtype=bool)
    _, across, _ = _directions(tiles)
    turns = np.stack([np.roll(tiles.corners, -k, axis=1) for k in range(4)])  # (4, n, 4, 2)
    best = np.argmax(_downs(turns) @ across, axis=0)
    corners = np.asarray(turns[best, np.arange(len(tiles))], dtype=np.float32)
    return corners, best % 2 == 1


def with_faint_faces(tiles: Tiles, faint: Tiles) -> Tiles:
    """`tiles` and the `faint` detections (a pass at a lower confidence, classified) whose
    centre lies on no tile of `tiles` and on the line of one of its rows (within half the
    rows' split of the row's middle): a face the detector was unsure of (a blank white
    dragon on a pale cloth) where the order holds a face."""
    rows = [row for row in find_rows(tiles) if len(row) >= MIN_ROW]
    if not len(faint) or not rows:
        return tiles
    _, across, height = _directions(tiles)
    levels = np.array([np.median(tiles.centers[row] @ across) for row in rows])
    centres = faint.centers
    x, y = centres[:, 0:1], centres[:, 1:2]
    boxes = tiles.xyxy
    on_a_tile = (
        (boxes[:, 0] <= x) & (x <= boxes[:, 2]) & (boxes[:, 1] <= y) & (y <= boxes[:, 3])
    ).any(axis=1)
    off_line = np.abs((centres @ across)[:, None] - levels[None, :]).min(axis=1)
    keep = np.nonzero(~on_a_tile & (off_line < ROW_SPLIT / 2 * height))[0]
    return concatenate(tiles, faint[keep]) if len(keep) else tiles


def read_filled(tiles: Tiles, faint: Callable[[], Tiles] | None = None) -> tuple[Enrollment, Tiles]:
    """`read_enrollment` of `tiles`, and the tiles read: where they do not fit the order, of
    them with `faint()`'s faces in the rows' gaps (`with_faint_faces`), with a warning of how
    many such faces are taught. Raises the refusal of `tiles` themselves where that does not
    fit either: what the photo's sure tiles show names the row to mend."""
    try:
        return read_enrollment(tiles), tiles
    except EnrollmentError as refused:
        if faint is None:
            raise
        filled = with_faint_faces(tiles, faint())
        if len(filled) == len(tiles):
            raise
        try:
            enrollment = read_enrollment(filled)
        except EnrollmentError:
            raise refused from None
    added = len(filled) - len(tiles)
    note = f"{added} face{'s' if added != 1 else ''} the detector was unsure of taught"
    return replace(enrollment, warnings=[note, *enrollment.warnings]), filled


def find_rows(tiles: Tiles) -> list[list[int]]:
    """Tile indices in rows, rows top to bottom along the faces' own up, each left to right."""
    if len(tiles) == 0:
        return []
    along, across, height = _directions(tiles)
    centres = tiles.centers.astype(np.float64)
    y, x = centres @ across, centres @ along
    order = np.argsort(y, kind="stable")
    rows: list[list[int]] = [[int(order[0])]]
    for a, b in pairwise(order):
        if y[b] - y[a] > ROW_SPLIT * height:
            rows.append([])
        rows[-1].append(int(b))
    return [sorted(row, key=lambda i: x[i]) for row in rows]


def _faces_only(probs: FloatArray, rows: list[list[int]]) -> list[list[int]]:
    """`rows` (in the order's places) each without its tiles read face down, where only
    they keep it from the length its place in the order holds: an enrollment shows faces,
    and a face-down tile in line with a row (a wall or a hand beside the rows, a card or a
    pale patch of the cloth) is no face of it. A blank face read as a back in a row of its
    place's length stays."""
    back = CLASSES.index(BACK)
    out = []
    for place, row in enumerate(rows):
        wanted = _lengths_at(place)
        faces = [i for i in row if probs[i].argmax() != back]
        out.append(faces if len(row) not in wanted and len(faces) in wanted else row)
    return out


def _lengths_at(place: int) -> frozenset[int]:
    """The lengths the order's row at `place` may have: a suit's nine, the honours' seven,
    then the flowers and seasons, eight or a set's four."""
    if place < 4:
        return frozenset({len(STANDARD_ROWS[place])})
    return frozenset({len(FLOWERS), len(FLOWERS) // 2})


def _end_trimmed(probs: FloatArray, rows: list[list[int]]) -> tuple[list[list[int]], list[str]]:
    """`rows` (in the order's places) each without a tile at one of its ends where it holds
    one more than its place of the four suits' and honours' rows and the order fits the
    classifier's reading best without that end tile (a prop, a pale patch of the cloth or a
    tile of a wall in line with the row); and a warning for each tile so left out. A row one
    long whose odd tile lies inside it stays as it is, to be refused."""
    out, warnings = [], []
    for place, row in enumerate(rows):
        want = STANDARD_ROWS[place] if place < 4 else ()
        if len(row) != len(want) + 1:
            out.append(row)
            continue
        fits = [row[:k] + row[k + 1 :] for k in range(len(row))]
        best = max(range(len(row)), key=lambda k: _log_likelihood(probs, fits[k], want))
        if best not in (0, len(row) - 1):
            out.append(row)
            continue
        out.append(fits[best])
        end = "first" if best == 0 else "last"
        warnings.append(
            f"row {place + 1} ({ROW_NAMES[place]}) holds {len(row)} tiles: its {end} is "
            "taken for no face of the order and left out"
        )
    return out, warnings


def _log_likelihood(probs: FloatArray, row: list[int], codes: tuple[str, ...]) -> float:
    cols = [CLASSES.index(c) for c in codes]
    return float(np.log(np.maximum(probs[row, cols], _FLOOR)).sum())


def _rows_likelihood(
    probs: FloatArray, rows: list[list[int]], codes: list[tuple[str, ...]]
) -> float:
    return sum(_log_likelihood(probs, r, c) for r, c in zip(rows, codes, strict=True))


def _odd_one(probs: FloatArray, row: list[int], want: tuple[str, ...]) -> str:
    """Which face of a row one short seems missing, or which tile of a row one long seems
    extra: the placing under which the classifier's reading fits the order best."""
    if len(row) == len(want) - 1:
        gaps = [want[:k] + want[k + 1 :] for k in range(len(want))]
        best = max(range(len(want)), key=lambda k: _log_likelihood(probs, row, gaps[k]))
        return f"{want[best]} seems missing"
    if len(row) == len(want) + 1:
        fits = [row[:k] + row[k + 1 :] for k in range(len(row))]
        best = max(range(len(row)), key=lambda k: _log_likelihood(probs, fits[k], want))
        return f"tile {best + 1} from the left seems extra"
    return "tiles are missing or extra"


def _row_codes(
    n_rows: int, lengths: list[int], probs: FloatArray, rows: list[list[int]]
) -> list[tuple[str, ...]]:
    """What each row should hold; EnrollmentError when the counts do not fit the order."""
    wanted = [len(r) for r in STANDARD_ROWS[:4]]
    if n_rows not in (4, 5):
        raise EnrollmentError(
            f"found {n_rows} row{'s' if n_rows != 1 else ''} of tiles; an enrollment photo "
            f"holds 4 or 5, one face of each: {ORDER_TEXT}"
        )
    for r, (got, want) in enumerate(zip(lengths, wanted, strict=False)):
        if got != want:
            odd = _odd_one(probs, rows[r], STANDARD_ROWS[r])
            raise EnrollmentError(
                f"row {r + 1} ({ROW_NAMES[r]}) holds {got} tile{'s' if got != 1 else ''}, "
                f"not {want} ({odd}): lay the row with a little space between tiles, on a "
                "cloth darker than the faces (a blank face is easily missed)"
            )
    codes = [tuple(row) for row in STANDARD_ROWS[:4]]
    if n_rows == 5:
        if lengths[4] not in _lengths_at(4):
            raise EnrollmentError(
                f"row 5 (flowers) holds {lengths[4]} tiles: lay all eight flowers and "
                "seasons (or a set's four), 1 to 4 then 1 to 4, or leave the row out"
            )
        codes.append(FLOWERS if lengths[4] == 8 else FLOWERS[:4])
    return codes


def read_enrollment(tiles: Tiles) -> Enrollment:
    """Label the tiles of an enrollment photo (module docstring); raises EnrollmentError."""
    if len(tiles) == 0:
        raise EnrollmentError(f"no tiles found; lay one face of each, {ORDER_TEXT}")
    # A row of the order holds 4 tiles at least: fewer are strays (a prop, a tile aside).
    seen = [row for row in find_rows(tiles) if len(row) >= MIN_ROW]
    # The same photo taken from across the table: the rows and each row the other way.
    turned = [row[::-1] for row in seen[::-1]]
    fits: list[tuple[list[list[int]], list[tuple[str, ...]], list[str]]] = []
    refusals: list[EnrollmentError] = []
    for laid in (seen, turned):
        faces = _faces_only(tiles.probs, laid)
        # A row one too long is refused as laid; trimmed at an end, it may fit.
        for rows, trims in ((faces, []), _end_trimmed(tiles.probs, faces)):
            try:
                codes = _row_codes(len(rows), [len(r) for r in rows], tiles.probs, rows)
            except EnrollmentError as exc:
                refusals.append(exc)
                continue
            fits.append((rows, codes, trims))
            break
    if not fits:
        raise refusals[0]  # as the photo shows it: the row a person can find
    rows, codes, trims = max(fits, key=lambda fit: _rows_likelihood(tiles.probs, *fit[:2]))
    strays = len(tiles) - sum(len(row) for row in rows) - len(trims)
    if len(codes) == 5 and len(codes[4]) == 4:  # four flowers, or four seasons?
        seasons = _log_likelihood(tiles.probs, rows[4], FLOWERS[4:])
        if seasons > _log_likelihood(tiles.probs, rows[4], FLOWERS[:4]):
            codes[4] = FLOWERS[4:]
    _check_rows(tiles.probs, rows, codes)
    labels: list[str | None] = [None] * len(tiles)
    warnings = list(trims)
    if strays:
        warnings.append(
            f"{strays} tile{'s' if strays != 1 else ''} outside the rows or face down left out"
        )
    for r, (row, row_codes) in enumerate(zip(rows, codes, strict=True)):
        for k, (i, code) in enumerate(zip(row, row_codes, strict=True)):
            labels[i] = code
            best = int(np.argmax(tiles.probs[i]))
            if CLASSES[best] != code and tiles.probs[i, best] >= SURE_OTHER:
                warnings.append(
                    f"row {r + 1} tile {k + 1} is taught as {code}; "
                    f"the base reading says {CLASSES[best]}"
                )
    return Enrollment(labels, rows, warnings)


def _check_rows(probs: FloatArray, rows: list[list[int]], codes: list[tuple[str, ...]]) -> None:
    """EnrollmentError for the first row that reads far better as another row of the order
    or as itself the wrong way round."""
    for r, (row, want) in enumerate(zip(rows, codes, strict=True)):
        expected = _log_likelihood(probs, row, want)
        margin = DISPUTE_NATS_PER_TILE * len(row)
        reversed_ = _log_likelihood(probs, row, want[::-1])
        if reversed_ > expected + margin:
            raise EnrollmentError(
                f"row {r + 1} ({ROW_NAMES[r]}) reads right to left: lay each row from the "
                "left, 1 to 9 (E S W N C F P for the honours)"
            )
        for other, other_codes in enumerate(STANDARD_ROWS):
            if other == r or len(other_codes) != len(row):
                continue
            if _log_likelihood(probs, row, other_codes) > expected + margin:
                raise EnrollmentError(
                    f"row {r + 1} reads as {ROW_NAMES[other]}, not {ROW_NAMES[r]}: "
                    f"lay the {ORDER_TEXT}"
                )
