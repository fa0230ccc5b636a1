"""Reading an enrollment photo: the order labels the tiles, and a photo laid out otherwise is
refused with the row named."""

from __future__ import annotations

import numpy as np
import pytest

from scoring.tiles import CLASSES, FLOWERS, STANDARD_ROWS
from vision.enroll import (
    EnrollmentError,
    find_rows,
    read_enrollment,
    upright_corners,
    with_faint_faces,
)
from vision.types import Tiles, concatenate

W, H = 60.0, 80.0


def _tiles(rows: list[list[str]], turned: bool = False, tilt: float = 0.0) -> Tiles:
    """Upright faces in rows, each read as its code at 0.9; `turned`: the photo taken from
    across the table (the detector still gives corners with the face's up to the top);
    `tilt`: the rows run at this angle (radians)."""
    centres, codes = [], []
    for r, row in enumerate(rows):
        for k, code in enumerate(row):
            centres.append((100 + k * (W + 8), 100 + r * (H + 30)))
            codes.append(code)
    xy = np.array(centres, np.float64)
    if turned:
        xy = 2000 - xy
    c, s = np.cos(tilt), np.sin(tilt)
    xy = xy @ np.array([[c, s], [-s, c]])
    right, down = np.array([c, s]) * W / 2, np.array([-s, c]) * H / 2
    corners = np.stack(
        [xy - right - down, xy + right - down, xy + right + down, xy - right + down], axis=1
    )
    probs = np.full((len(codes), len(CLASSES)), 0.1 / (len(CLASSES) - 1), np.float32)
    for i, code in enumerate(codes):
        probs[i, CLASSES.index(code)] = 0.9
    n = len(codes)
    return Tiles(
        np.concatenate([corners.min(axis=1), corners.max(axis=1)], axis=1),
        corners,
        np.ones(n),
        np.zeros(n, bool),
        np.zeros(n, bool),
        probs,
    )


def _order(with_flowers: bool = True) -> list[list[str]]:
    return [list(r) for r in STANDARD_ROWS[: 5 if with_flowers else 4]]


@pytest.mark.parametrize("turned", [False, True])
@pytest.mark.parametrize("tilt", [0.0, 0.25, -0.3])
def test_the_order_labels_every_face(turned: bool, tilt: float) -> None:
    tiles = _tiles(_order(), turned, tilt)
    enrollment = read_enrollment(tiles)
    truth = [c for row in _order() for c in row]
    assert enrollment.labels == truth
    assert enrollment.warnings == []


def test_a_set_without_flowers_has_four_rows() -> None:
    assert read_enrollment(_tiles(_order(False))).labels == [c for r in _order(False) for c in r]


def test_four_seasons_alone_are_taught_as_seasons() -> None:
    rows = [*_order(False), list(FLOWERS[4:])]
    assert read_enrollment(_tiles(rows)).labels[-4:] == list(FLOWERS[4:])


def test_a_missing_tile_names_its_row_and_the_face() -> None:
    rows = _order()
    rows[1] = [c for c in rows[1] if c != "6p"]
    with pytest.raises(EnrollmentError, match=r"row 2 \(circles 1-9\) holds 8 tiles, not 9 \(6p"):
        read_enrollment(_tiles(rows))


def test_a_blank_white_dragon_not_found_is_named() -> None:
    rows = _order()
    rows[3] = rows[3][:-1]
    with pytest.raises(EnrollmentError, match=r"row 4 .* holds 6 tiles, not 7 \(P seems missing\)"):
        read_enrollment(_tiles(rows))


def test_an_extra_tile_is_pointed_at() -> None:
    rows = _order()
    rows[2] = [*rows[2][:4], "E", *rows[2][4:]]  # a stray tile in the bamboos
    with pytest.raises(EnrollmentError, match=r"row 3 .* \(tile 5 from the left seems extra\)"):
        read_enrollment(_tiles(rows))


@pytest.mark.parametrize("turned", [False, True])
def test_a_tile_beyond_a_rows_end_is_left_out_with_a_warning(turned: bool) -> None:
    """A pale patch of the cloth in line with the honours, read as a white dragon: the row
    of eight fits the order without its first tile, and the rest are taught."""
    rows = _order()
    rows[3] = ["P", *rows[3]]
    enrollment = read_enrollment(_tiles(rows, turned))
    truth = [c for row in _order() for c in row]
    assert enrollment.labels == [*truth[:27], None, *truth[27:]]
    # First in the order's direction, whichever side of the table the photo is taken from.
    assert enrollment.warnings == [
        "row 4 (honours E S W N C F P) holds 8 tiles: its first is taken for no face of "
        "the order and left out"
    ]


def test_rows_laid_in_another_order_are_refused() -> None:
    rows = _order()
    rows[1], rows[2] = rows[2], rows[1]
    with pytest.raises(EnrollmentError, match="row 2 reads as bamboos 1-9, not circles 1-9"):
        read_enrollment(_tiles(rows))


def test_a_row_laid_right_to_left_is_refused() -> None:
    rows = _order()
    rows[0] = rows[0][::-1]
    with pytest.raises(EnrollmentError, match=r"row 1 .* reads right to left"):
        read_enrollment(_tiles(rows))


def test_a_photo_of_a_hand_is_not_an_enrollment() -> None:
    with pytest.raises(EnrollmentError, match="found 3 rows"):
        read_enrollment(_tiles(_order()[:3]))
    with pytest.raises(EnrollmentError, match="no tiles found"):
        read_enrollment(Tiles.empty())


def test_a_face_the_classifier_misreads_is_taught_as_laid_with_a_warning() -> None:
    """A design it never saw: its 8s read as 8p, surely. The order says 8s; one face does not
    dispute a row."""
    tiles = _tiles(_order())
    i = [c for row in _order() for c in row].index("8s")
    tiles.probs[i] = 1e-5
    tiles.probs[i, CLASSES.index("8p")] = 1.0
    enrollment = read_enrollment(tiles)
    assert enrollment.labels[i] == "8s"
    assert enrollment.warnings == ["row 3 tile 8 is taught as 8s; the base reading says 8p"]


def test_rows_are_found_along_the_faces_own_up() -> None:
    rows = find_rows(_tiles(_order(), tilt=0.35))
    assert [len(r) for r in rows] == [9, 9, 9, 7, 8]
    assert rows[0] == list(range(9))


@pytest.mark.parametrize("tilt", [0.0, 0.35])
def test_a_face_cornered_a_quarter_turn_off_is_cut_standing(tilt: float) -> None:
    """The detector started the first flower's corners at its bottom-left: cut as given,
    its look lay on its side, and the set was taught a face no later photo shows."""
    tiles = _tiles(_order(), tilt=tilt)
    truth = tiles.corners.copy()
    first_flower = 34
    tiles.corners[first_flower] = np.roll(truth[first_flower], 1, axis=0)
    tiles.corners[3] = np.roll(truth[3], 2, axis=0)  # upside down: the classifier reads both
    corners, turned = upright_corners(tiles)
    np.testing.assert_allclose(corners, truth, atol=1e-4)
    assert np.nonzero(turned)[0].tolist() == [first_flower]


def test_a_stray_tile_beside_the_rows_is_left_out_with_a_warning() -> None:
    """A tile set aside (or a prop the detector took for one) makes a row of its own."""
    rows = [*_order(), ["5s"]]
    enrollment = read_enrollment(_tiles(rows))
    assert enrollment.labels[:-1] == [c for row in _order() for c in row]
    assert enrollment.labels[-1] is None
    assert enrollment.warnings == ["1 tile outside the rows or face down left out"]


@pytest.mark.parametrize("turned", [False, True])
def test_a_face_down_tile_at_a_rows_end_is_left_out(turned: bool) -> None:
    """A face-down tile beside the rows (a wall, a hand) in line with the characters: the
    row of ten is nine faces and a back."""
    rows = _order()
    rows[0] = ["back", *rows[0]]
    enrollment = read_enrollment(_tiles(rows, turned))
    truth = [c for row in _order() for c in row]
    assert enrollment.labels == [None, *truth]
    assert enrollment.warnings == ["1 tile outside the rows or face down left out"]


@pytest.mark.parametrize("turned", [False, True])
def test_a_face_down_tile_making_a_row_as_long_as_another_is_left_out(turned: bool) -> None:
    """A pale patch of the cloth read as a back in line with the honours: eight tiles, as
    long as the flowers' row, yet the honours' place holds seven."""
    rows = _order()
    rows[3] = ["back", *rows[3]]
    enrollment = read_enrollment(_tiles(rows, turned))
    truth = [c for row in _order() for c in row]
    assert enrollment.labels == [*truth[:27], None, *truth[27:]]
    assert enrollment.warnings == ["1 tile outside the rows or face down left out"]


def test_a_blank_face_read_as_a_back_in_a_row_of_its_length_stays() -> None:
    rows = _order()
    rows[3][-1] = "back"  # the white dragon, blank, read as a back
    enrollment = read_enrollment(_tiles(rows))
    assert enrollment.labels[33] == "P"
    assert enrollment.warnings == []


def _without(tiles: Tiles, index: int) -> Tiles:
    return tiles[np.array([i for i in range(len(tiles)) if i != index])]


def test_a_face_the_detector_was_unsure_of_fills_its_rows_gap() -> None:
    """A blank white dragon on a pale cloth, found only at a lower confidence: it fills the
    gap in the honours' row; a faint stray beside the rows and a faint second peak on a
    face already found do not join."""
    full = _tiles(_order())
    order = [c for row in _order() for c in row]
    white = order.index("P")
    sure = _without(full, white)
    with pytest.raises(EnrollmentError, match="P seems missing"):
        read_enrollment(sure)
    stray = _tiles([["5m"]])
    stray.xyxy += 2000
    stray.corners += 2000
    faint = concatenate(concatenate(full[np.array([white])], full[np.array([3])]), stray)
    filled = with_faint_faces(sure, faint)
    assert len(filled) == len(sure) + 1
    assert read_enrollment(filled).labels == [*order[:white], *order[white + 1 :], "P"]


def test_teaching_takes_faint_faces_only_where_the_sure_ones_do_not_fit() -> None:
    from typing import cast

    from vision.classify import Classifier
    from vision.load import Photo
    from vision.teaching import enrollment_looks

    full = _tiles(_order())
    white = [c for row in _order() for c in row].index("P")
    sure = _without(full, white)
    photo = Photo(np.full((800, 900, 3), 180, np.uint8), 1.0, (900, 800), "")

    from tests.api.fakes import ReplayClassifier

    classifier = cast(Classifier, ReplayClassifier())  # each crop's reading and features
    asked = []

    def faint() -> Tiles:
        asked.append(1)
        return full[np.array([white])]

    looks, enrollment = enrollment_looks(photo, full, "e.jpg", classifier, faint)
    assert not asked and len(looks) == 42
    looks, enrollment = enrollment_looks(photo, sure, "e.jpg", classifier, faint)
    assert asked and len(looks) == 42 and "P" in looks.codes
    assert enrollment.warnings[0] == "1 face the detector was unsure of taught"
    with pytest.raises(EnrollmentError, match="P seems missing"):
        enrollment_looks(photo, sure, "e.jpg", classifier, lambda: Tiles.empty())
