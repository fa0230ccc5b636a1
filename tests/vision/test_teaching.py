"""Labels drawn by a person, matched to what the detector found."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.layout import role_of_each
from vision.load import Photo, load_photo
from vision.pipeline import interpret
from vision.recognition import Recognition
from vision.roles import HAND_ROLES, Role
from vision.simulate import lay_out_hand, tiles_from_annotations
from vision.teaching import Label, in_photo_frame, label_corners, reading_looks
from vision.types import Tiles


def _tiles(boxes: list[list[float]]) -> Tiles:
    xyxy = np.array(boxes, np.float32)
    corners = np.stack(
        [xyxy[:, [0, 1]], xyxy[:, [2, 1]], xyxy[:, [2, 3]], xyxy[:, [0, 3]]], axis=1
    ) + np.float32(0.5)  # the detector's own corners, a little apart from the box
    n = len(boxes)
    return Tiles(xyxy, corners, np.ones(n), np.zeros(n, bool), np.zeros(n, bool))


def test_a_loose_box_takes_the_detections_corners_and_a_box_alone_is_read_as_drawn() -> None:
    tiles = _tiles([[100, 100, 160, 180], [300, 100, 360, 180]])
    labels = [
        Label("5p", (95.0, 104.0, 70.0, 80.0)),  # about the first tile
        Label("E", (500.0, 100.0, 80.0, 60.0)),  # no tile there, wider than tall
    ]
    corners, matched = label_corners(labels, tiles)
    assert matched == 1
    np.testing.assert_array_equal(corners[0], tiles.corners[0])
    # A box lying crosswise is read a quarter turn round: its first corner is the box's BL.
    np.testing.assert_array_equal(corners[1][0], [500.0, 160.0])


def test_two_boxes_on_one_tile_do_not_share_it() -> None:
    tiles = _tiles([[100, 100, 160, 180]])
    labels = [Label("5p", (100.0, 100.0, 60.0, 80.0)), Label("6p", (110.0, 110.0, 60.0, 80.0))]
    corners, matched = label_corners(labels, tiles)
    assert matched == 1
    np.testing.assert_array_equal(corners[0], tiles.corners[0])
    np.testing.assert_array_equal(corners[1][0], [110.0, 110.0])


@pytest.mark.parametrize(
    ("code", "bbox", "message"),
    [("Z", (0.0, 0.0, 5.0, 5.0), "unknown tile code"), ("5p", (0.0, 0.0, 0.0, 5.0), "empty box")],
)
def test_a_bad_label_says_why(code: str, bbox: tuple[float, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Label(code, bbox)


def _photo(size: tuple[int, int], orientation: int = 1) -> Photo:
    image = np.zeros((size[1] // 10, size[0] // 10, 3), np.uint8)
    return Photo(image, 10.0, size, "", orientation)


# Four tiles of a 1200 x 1600 photo (upright, as the phone showed it) and their codes.
_BOXES = [[100, 300, 190, 420], [200, 300, 290, 420], [300, 300, 390, 420], [700, 900, 790, 1020]]
_CODES = ["1s", "2s", "3s", "E"]


def _labels(boxes: list[list[float]]) -> list[Label]:
    return [
        Label(code, (float(x0), float(y0), float(x1 - x0), float(y1 - y0)))
        for code, (x0, y0, x1, y1) in zip(_CODES, boxes, strict=True)
    ]


def test_labels_measured_in_the_photos_frame_stay_as_given() -> None:
    labels = _labels(_BOXES)
    moved, why = in_photo_frame(labels, _tiles(_BOXES), _photo((1200, 1600), 6), (1200, 1600))
    assert moved == labels and why is None


def test_labels_measured_before_the_exif_turn_are_turned_onto_their_tiles() -> None:
    """A labelling tool that ignores EXIF measures a phone photo lying on its side (stored
    1600 x 1200, orientation 6: turned a quarter clockwise to show it)."""
    # Where each tile lies in the photo as stored: the clockwise turn sends (x, y) to
    # (1200 - y, x), so the stored point is (y', 1200 - x').
    stored = [[y0, 1200 - x1, y1, 1200 - x0] for x0, y0, x1, y1 in _BOXES]
    moved, why = in_photo_frame(_labels(stored), _tiles(_BOXES), _photo((1200, 1600), 6), None)
    assert why is not None and "before its EXIF turn" in why and "4 of 4" in why
    for label, box in zip(moved, _BOXES, strict=True):
        assert label.bbox is not None
        np.testing.assert_allclose(label.bbox, [box[0], box[1], box[2] - box[0], box[3] - box[1]])
    assert [label.code for label in moved] == _CODES


def test_labels_measured_on_a_smaller_copy_are_scaled_to_the_photo() -> None:
    half = [[v / 2 for v in box] for box in _BOXES]
    moved, why = in_photo_frame(_labels(half), _tiles(_BOXES), _photo((1200, 1600)), (600, 800))
    assert why is not None and "600x800 copy" in why
    assert label_corners(moved, _tiles(_BOXES))[1] == 4


def test_labels_that_fit_no_frame_better_are_left_as_drawn() -> None:
    """Boxes on no tile in any frame stay where the person drew them (read as drawn)."""
    nowhere = [[1000, 100, 1090, 220]] * 4
    labels = _labels(nowhere)
    moved, why = in_photo_frame(labels, _tiles(_BOXES), _photo((1200, 1600), 3), (600, 800))
    assert moved == labels and why is None


def test_one_box_that_falls_on_a_tile_only_in_another_frame_is_left_as_drawn() -> None:
    """One label on a tile the detector missed: that it lies on some tile once turned is
    chance, not a sign that the labels were measured turned."""
    box = _BOXES[3]
    stored_box = [box[1], 1200 - box[2], box[3], 1200 - box[0]]  # _BOXES[3] as stored
    labels = _labels([_BOXES[0], _BOXES[1], _BOXES[2], stored_box])[3:]
    moved, why = in_photo_frame(labels, _tiles(_BOXES), _photo((1200, 1600), 6), None)
    assert moved == labels and why is None


class _Reader:
    """A classifier as teaching asks of one: its top class for each crop, in the order
    asked (`answers`), and embeddings (the crops' mean colour)."""

    embedding_size = 4

    def __init__(self, answers: list[str]) -> None:
        self.answers = answers

    def read_crops(self, crops: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        from scoring.tiles import CLASSES

        assert len(crops) == len(self.answers)
        probs = np.full((len(crops), len(CLASSES)), 0.01, np.float32)
        embeddings = np.ones((len(crops), 4), np.float32)
        for i, crop in enumerate(crops):
            probs[i, CLASSES.index(self.answers[i])] = 0.6
            embeddings[i, :3] = crop.reshape(-1, 3).mean(axis=0) / 255
        return probs, embeddings


def _read_win(review: bool) -> tuple[Photo, Recognition]:
    """A win with a claimed pung, a concealed kong shown two faces down and a flower, read
    from simulated tiles; `review` as the review flag would have it."""
    hand = {
        "melds": [
            {"type": "pung", "tiles": ["C", "C", "C"], "claimed_from": "opposite"},
            {"type": "kong", "tiles": ["5s", "5s", "5s", "5s"], "concealed": True},
        ],
        "concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "W"],
        "winning_tile": "W",
        "flowers": ["3h"],
    }
    annotations = lay_out_hand(hand)
    tiles = tiles_from_annotations(annotations, np.random.default_rng(0), (6.0, 8.0))
    result = interpret(tiles, {"concealed_kongs": ["5s"]})
    far = tiles.xyxy.max(axis=0)
    image = np.full((int(far[3]) + 20, int(far[2]) + 20, 3), 200, np.uint8)
    photo = load_photo(cv2.imencode(".png", image)[1].tobytes())
    return photo, replace(result, review=review)


def test_a_reading_left_unflagged_teaches_the_faces_the_classifier_names_alike() -> None:
    """Each face-up tile of the hand and the flowers, under the code the hand gives it;
    not a face the classifier alone names otherwise (here the 4p, read as 4s), nor a
    face-down tile; a flagged reading teaches nothing."""
    photo, read = _read_win(review=False)
    assert read.decoded.hand is not None
    roles = role_of_each(read.layout, len(read.tiles))
    shown = [
        i
        for i, role in enumerate(roles)
        if role in (*HAND_ROLES, Role.FLOWER) and not read.tiles.face_down[i]
    ]
    codes = [read.decoded.codes[i] for i in shown]
    answers = ["4s" if code == "4p" else code for code in codes]
    looks = reading_looks(photo, read, "win.jpg", _Reader(answers))
    assert sorted(looks.codes) == sorted(c for c in codes if c != "4p")
    assert "back" not in looks.codes and "3h" in looks.codes and looks.codes.count("5s") == 2
    assert looks.origins == ["win.jpg"] * len(looks) and looks.embeddings.shape == (len(looks), 4)
    np.testing.assert_allclose(looks.own, 0.6)
    flagged = reading_looks(photo, replace(read, review=True), "win.jpg", _Reader(answers))
    assert len(flagged) == 0
