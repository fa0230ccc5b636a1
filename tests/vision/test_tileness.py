"""The tileness network's crops, the log-odds tiles carry, and the objectness model that
weighs them."""

from __future__ import annotations

import cv2
import numpy as np

from vision.load import load_photo
from vision.objectness import OWN, Linear, Objectness
from vision.tileness import CONTEXT, CROP_H, CROP_W, context_crops
from vision.types import Tiles, concatenate


def _tiles(n: int, tileness: list[float] | None = None) -> Tiles:
    xyxy = np.array([[40.0 * i, 0, 40.0 * i + 30, 40] for i in range(n)], np.float32)
    corners = np.stack([[[x1, y1], [x2, y1], [x2, y2], [x1, y2]] for x1, y1, x2, y2 in xyxy])
    return Tiles(
        xyxy,
        corners,
        np.full(n, 0.9, np.float32),
        np.zeros(n, bool),
        np.zeros(n, bool),
        embeddings=np.ones((n, 2), np.float32),
        tileness=np.asarray(tileness if tileness is not None else [], np.float32),
    )


def test_tiles_not_judged_carry_no_tileness_and_judged_ones_keep_it_through_filters() -> None:
    assert np.isnan(_tiles(2).tileness).all()
    judged = _tiles(3, [1.0, -2.0, 3.0])
    assert judged[np.array([True, False, True])].tileness.tolist() == [1.0, 3.0]
    joined = concatenate(judged, _tiles(1))
    assert joined.tileness[:3].tolist() == [1.0, -2.0, 3.0] and np.isnan(joined.tileness[3])


def _model() -> Objectness:
    """The look's log-odds is the tileness; the photo model takes the look alone."""
    look = np.zeros(2 + OWN + 1)
    look[-1] = 1.0
    photo = np.zeros(OWN + 1 + 4)
    photo[OWN + 1] = 1.0
    return Objectness(Linear(look, 0.0), Linear(photo, 0.0), 0.5, tileness=True)


def test_a_model_fitted_with_tileness_drops_what_the_network_takes_for_no_tile() -> None:
    kept = _model().keep(_tiles(3, [4.0, -4.0, 2.0]))
    assert kept.tileness.tolist() == [4.0, 2.0]


def test_a_model_fitted_with_tileness_keeps_tiles_the_network_never_judged() -> None:
    assert len(_model().keep(_tiles(3))) == 3


def test_a_model_round_trips_its_tileness_through_json() -> None:
    model = _model()
    again = Objectness.from_json(model.to_json({}))
    assert again.tileness and again.own == OWN + 1 and again.embedding_size == 2


def test_the_context_crop_holds_the_face_in_its_middle_and_what_lies_round_it() -> None:
    image = np.full((300, 400, 3), 40, np.uint8)
    image[100:200, 150:230] = 250  # a bright face 80 wide, 100 high, on a dark table
    photo = load_photo(bytes(cv2.imencode(".png", image)[1]))
    corners = np.array([[[150, 100], [230, 100], [230, 200], [150, 200]]], np.float32)
    crop = context_crops(photo, corners)
    assert crop.shape == (1, CROP_H, CROP_W, 3)
    grey = crop[0].mean(axis=2)
    assert grey[CROP_H // 2, CROP_W // 2] > 200  # the face
    assert grey[1, 1] < 80 and grey[-2, -2] < 80  # the table round it
    # The face spans 1/CONTEXT of the crop's width.
    bright = (grey[CROP_H // 2] > 150).sum()
    assert abs(bright - CROP_W / CONTEXT) <= 2
