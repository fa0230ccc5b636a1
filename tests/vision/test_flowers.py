"""The flower reader: how its answer joins the classifier's, and where it is asked."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from scoring.tiles import CLASSES, FLOWERS
from tests.vision.test_classify import scene_tiles
from vision.classify import FACE_MARGIN, Classifier, long_sides, rectify, widen
from vision.flowers import (
    FLOWER_GATE,
    FLOWER_IDS,
    READER_H,
    READER_MIN_SIDE,
    READER_W,
    candidates,
    join,
)
from vision.load import Photo
from vision.registry import optional
from vision.types import Tiles


def scaled_scene(name: str, factor: float) -> tuple[Photo, Tiles, list[str]]:
    """A committed scene photo and its labelled tiles, resized by `factor` (its faces are
    about 33 px long: under READER_MIN_SIDE, the reader is asked only when they are grown)."""
    photo, tiles, codes = scene_tiles(name)
    image = cv2.resize(photo.image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    tiles.corners *= np.float32(factor)
    tiles.xyxy *= np.float32(factor)
    return replace(photo, image=image), tiles, codes


def one_hot_ish(code: str, p: float) -> np.ndarray:
    row = np.full(len(CLASSES), (1 - p) / (len(CLASSES) - 1), np.float32)
    row[CLASSES.index(code)] = p
    return row


def test_join_keeps_the_flower_mass_and_every_other_class() -> None:
    probs = np.stack([one_hot_ish("1h", 0.6), one_hot_ish("5p", 0.7)])
    probs[0, CLASSES.index("5h")] += 0.2
    probs /= probs.sum(axis=1, keepdims=True)
    reader = np.full((2, 8), 0.02, np.float32)
    reader[:, FLOWERS.index("5h")] = 0.86
    joined = join(probs, reader)
    np.testing.assert_allclose(joined.sum(axis=1), 1.0, rtol=1e-5)
    np.testing.assert_allclose(
        joined[:, FLOWER_IDS].sum(axis=1), probs[:, FLOWER_IDS].sum(axis=1), rtol=1e-5
    )
    others = np.setdiff1d(np.arange(len(CLASSES)), FLOWER_IDS)
    np.testing.assert_allclose(joined[:, others], probs[:, others])


def test_join_weighs_the_two_readings() -> None:
    """1h against 5h: the classifier 3:1 for the plum, the reader 1:3 against it."""
    probs = np.zeros((1, len(CLASSES)), np.float32)
    probs[0, CLASSES.index("1h")], probs[0, CLASSES.index("5h")] = 0.75, 0.25
    reader = np.zeros((1, 8), np.float32)
    reader[0, FLOWERS.index("1h")], reader[0, FLOWERS.index("5h")] = 0.25, 0.75
    even = join(probs, reader, 0.5)[0]
    assert even[CLASSES.index("1h")] == pytest.approx(0.5, abs=1e-4)
    assert join(probs, reader, 1.0)[0, CLASSES.index("5h")] == pytest.approx(0.75, abs=1e-4)
    assert join(probs, reader, 0.0)[0, CLASSES.index("1h")] == pytest.approx(0.75, abs=1e-4)


def test_candidates_are_the_rows_with_flower_mass() -> None:
    flower = one_hot_ish("3h", 0.9)
    suit = one_hot_ish("3m", 0.999)
    assert suit[FLOWER_IDS].sum() < FLOWER_GATE <= flower[FLOWER_IDS].sum()
    assert candidates(np.stack([suit, flower, suit])).tolist() == [1]


def test_small_faces_are_left_to_the_classifier() -> None:
    flower = one_hot_ish("3h", 0.9)
    probs = np.stack([flower, flower])
    sides = np.array([READER_MIN_SIDE - 1, READER_MIN_SIDE], np.float32)
    assert candidates(probs, sides).tolist() == [1]


def test_long_sides_measure_the_longest_edge() -> None:
    quad = np.array([[[0, 0], [30, 0], [30, 40], [0, 40]]], np.float32)
    assert long_sides(quad).tolist() == [40.0]
    assert long_sides(quad[:, ::-1] * 2).tolist() == [80.0]


@pytest.mark.skipif(
    not (optional("classifier") and optional("flower_reader")), reason="no shipped models"
)
def test_the_reader_names_only_the_faces_read_as_flowers() -> None:
    """A photo's faces: the classifier's reading where it sees no flower; where it does,
    that reading joined with the reader's look at the face at the reader's size."""
    photo, tiles, codes = scaled_scene("scene_declared_win.jpg", 2.0)
    own = Classifier(flowers=False, index=False).classify(photo, tiles).probs
    with_reader = Classifier(index=False)
    named = with_reader.classify(photo, tiles).probs
    rows = candidates(own, long_sides(tiles.corners))
    assert 0 < len(rows) < len(tiles)
    assert any(codes[i] in FLOWERS for i in rows)
    rest = np.setdiff1d(np.arange(len(tiles)), rows)
    np.testing.assert_allclose(named[rest], own[rest])
    assert with_reader.flower_reader is not None
    quads = widen(tiles.corners, FACE_MARGIN)
    crops = [rectify(photo.image, quads[i], (READER_W, READER_H)) for i in rows]
    looks = with_reader.flower_reader.read(crops)
    np.testing.assert_allclose(named[rows], join(own[rows], looks), atol=1e-6)


@pytest.mark.skipif(
    not (optional("classifier") and optional("flower_reader")), reason="no shipped models"
)
def test_single_crops_get_the_readers_look_too() -> None:
    """`mjlens classify CROP...`: each crop read by the classifier, the flowers' by the
    reader as well, from the crop itself."""
    photo, tiles, _ = scene_tiles("scene_declared_win.jpg")
    quads = widen(tiles.corners, FACE_MARGIN)
    crops = [rectify(photo.image, q, (240, 320)) for q in quads]  # as a close-up photo
    own = Classifier(flowers=False, index=False).classify_crops(crops)
    with_reader = Classifier(index=False)
    named = with_reader.classify_crops(crops)
    rows = candidates(own, np.full(len(crops), 320, np.float32))
    assert len(rows) and with_reader.flower_reader is not None
    looks = with_reader.flower_reader.read([crops[i] for i in rows])
    np.testing.assert_allclose(named[rows], join(own[rows], looks), atol=1e-6)
    rest = np.setdiff1d(np.arange(len(crops)), rows)
    np.testing.assert_allclose(named[rest], own[rest])


@pytest.mark.skipif(
    not (optional("classifier") and optional("flower_reader")), reason="no shipped models"
)
def test_a_photo_too_small_for_the_reader_keeps_the_classifiers_flowers() -> None:
    photo, tiles, _ = scaled_scene("scene_declared_win.jpg", 1.0)
    assert long_sides(tiles.corners).max() < READER_MIN_SIDE
    own = Classifier(flowers=False, index=False).classify(photo, tiles).probs
    assert len(candidates(own)) > 0  # faces read as flowers, but small: no second look
    np.testing.assert_allclose(Classifier(index=False).classify(photo, tiles).probs, own)
