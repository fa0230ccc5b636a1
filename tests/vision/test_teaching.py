"""Labels drawn by a person, matched to what the detector found."""

from __future__ import annotations

import numpy as np
import pytest

from vision.teaching import Label, label_corners
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
        Label(code, bbox)  # type: ignore[arg-type]
