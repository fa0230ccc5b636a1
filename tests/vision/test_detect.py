"""The shipped detector on committed synthetic photos, and its numpy post-processing."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.classify import Classifier
from vision.detect import (
    FAINT_REACH,
    Detector,
    decode_heads,
    drop_specks,
    restore_collapsed,
)
from vision.load import Photo
from vision.nms import nms
from vision.registry import optional
from vision.sideways import LOOK_SIZE, cues, look_crops, sideways_flags
from vision.types import Tiles

DATA = Path(__file__).parent / "data"
SCENES = ["scene_declared_win.jpg", "scene_rows.jpg", "scene_scattered.jpg"]
# Tiles found per photo by the shipped model (vision/weights/detector.md), floors one tile
# below: 19 of 19, 3 of 13 and 12 of 12. The standing row is seen from along its length,
# its far faces narrowed to slivers; on fresh renders of such rows the model finds 89 % of
# the tiles (the card's limits), here only the three nearest upright faces.
FOUND_FLOOR = {"scene_declared_win.jpg": 18, "scene_rows.jpg": 2, "scene_scattered.jpg": 11}
EXTRA_FACTOR = 1.5  # measured 34 detections for 44 tiles
CODES_FLOOR = 30 / 44  # measured 31 of 44 named right through detect + classify

needs_model = pytest.mark.skipif(optional("detector") is None, reason="no shipped detector")


def truth(name: str) -> list[dict]:
    return list(json.loads((DATA / "labels.json").read_text())[name])


def photo_of(image: np.ndarray, scale: float = 1.0) -> Photo:
    h, w = image.shape[:2]
    return Photo(
        image=image, scale=scale, original_size=(round(w * scale), round(h * scale)), sha256=""
    )


def found_by(tiles: Tiles, label: dict) -> list[int]:
    """Detections whose face centre lies inside the labelled face: the tile was found.

    (The labels' boxes hold the whole 3-D body of the tile, which the detector's box
    regression under-reaches on tall standing tiles; the face is what the pipeline reads.)
    """
    quad = np.array(label["corners"], np.float32).reshape(-1, 1, 2)
    centres = tiles.corners.mean(axis=1)
    return [
        i
        for i, c in enumerate(centres)
        if cv2.pointPolygonTest(quad, (float(c[0]), float(c[1])), False) >= 0
    ]


def recall(tiles: Tiles, labels: list[dict]) -> float:
    return float(np.mean([bool(found_by(tiles, a)) for a in labels]))


@pytest.fixture(scope="module")
def detector() -> Detector:
    return Detector()


@pytest.fixture(scope="module")
def classifier() -> Classifier:
    return Classifier()


@needs_model
@pytest.mark.parametrize("name", SCENES)
def test_finds_the_tiles(detector: Detector, name: str) -> None:
    tiles = detector.detect(photo_of(cv2.imread(str(DATA / name))))
    assert recall(tiles, truth(name)) * len(truth(name)) >= FOUND_FLOOR[name]


@needs_model
def test_few_extra_detections(detector: Detector) -> None:
    found = sum(len(detector.detect(photo_of(cv2.imread(str(DATA / n))))) for n in SCENES)
    assert found <= EXTRA_FACTOR * sum(len(truth(n)) for n in SCENES)


@needs_model
@pytest.mark.parametrize("name", SCENES)
def test_the_faint_peaks_come_from_the_same_passes_and_leave_the_sure_tiles_alone(
    detector: Detector, name: str
) -> None:
    photo = photo_of(cv2.imread(str(DATA / name)))
    sure, faint = detector.detect_with_faint(photo, 0.1)
    alone = detector.detect(photo)
    for a, b in zip(
        (sure.xyxy, sure.corners, sure.confidence, sure.sideways, sure.face_down),
        (alone.xyxy, alone.corners, alone.confidence, alone.sideways, alone.face_down),
        strict=True,
    ):
        assert np.array_equal(a, b)
    assert ((faint.confidence >= 0.1) & (faint.confidence < detector.threshold)).all()
    assert len(faint.tileness) == len(faint)
    if len(faint) and len(sure):
        size = float(np.median(np.sqrt(np.prod(sure.xyxy[:, 2:] - sure.xyxy[:, :2], axis=1))))
        gaps = np.linalg.norm(faint.centers[:, None] - sure.centers[None], axis=2)
        assert (gaps.min(axis=1) <= FAINT_REACH * size * 1.001).all()


@needs_model
def test_boxes_are_in_original_pixels(detector: Detector) -> None:
    image = cv2.imread(str(DATA / "scene_scattered.jpg"))
    h, w = image.shape[:2]
    half = cv2.resize(image, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    tiles = detector.detect(photo_of(half, scale=2.0))
    labels = truth("scene_scattered.jpg")
    assert recall(tiles, labels) * len(labels) >= FOUND_FLOOR["scene_scattered.jpg"]


@needs_model
def test_detect_then_classify_names_the_tiles(detector: Detector, classifier: Classifier) -> None:
    right = total = 0
    for name in SCENES:
        photo = photo_of(cv2.imread(str(DATA / name)))
        tiles = classifier.classify(photo, detector.detect(photo))
        codes = ["back" if d else c for c, d in zip(tiles.codes, tiles.face_down, strict=True)]
        for label in truth(name):
            hits = found_by(tiles, label)
            if hits:
                best = max(hits, key=lambda i: float(tiles.confidence[i]))
                right += codes[best] == label["code"]
        total += len(truth(name))
    assert right / total >= CODES_FLOOR


@needs_model
def test_close_up_of_three_tiles_reads_the_tiles(
    detector: Detector, classifier: Classifier
) -> None:
    """Faces ~150 px at the first pass: the network alone found their characters and dots
    as tiles (5m, 7m, C came out C, W, 8m, 5m); the coarse look rescales the photo first.

    The photo: three tiles cut from a procedural declared win rendered at 4096 px
    (`mjlens synth --n 3 --seed 123 --size 4096 --sources procedural --kinds declared_win`,
    photo 0, its 3rd-5th leftmost upright hand tiles, 12 % margin).
    """
    name = "closeup_three.jpg"
    photo = photo_of(cv2.imread(str(DATA / name)))
    tiles = classifier.classify(photo, detector.detect(photo))
    assert len(tiles) <= len(truth(name)) + 1  # a neighbour's edge at most
    for label in truth(name):
        hits = found_by(tiles, label)
        assert len(hits) == 1
        assert tiles.codes[hits[0]] == label["code"]


def test_decode_heads_reads_one_peak() -> None:
    heat = np.zeros((2, 16, 16), np.float32)
    reg = np.zeros((12, 16, 16), np.float32)
    heat[0, 5, 7] = 0.9
    heat[0, 5, 8] = 0.5  # a shoulder, not a peak
    reg[:4, 5, 7] = 0.25  # 8 px to every box edge
    reg[4:, 5, 7] = np.array([-4, -6, 4, -6, 4, 6, -4, 6]) / 32.0
    tiles = decode_heads(heat, reg, threshold=0.3)
    assert len(tiles) == 1
    cx, cy = 7.5 * 4, 5.5 * 4
    np.testing.assert_allclose(tiles.xyxy[0], [cx - 8, cy - 8, cx + 8, cy + 8], atol=1e-4)
    np.testing.assert_allclose(tiles.corners[0, 0], [cx - 4, cy - 6], atol=1e-4)
    assert not tiles.face_down[0]


def test_nms_keeps_touching_tiles() -> None:
    boxes = np.array([[0, 0, 10, 14], [10, 0, 20, 14], [1, 0, 11, 14]], np.float32)
    kept = nms(boxes, np.array([0.9, 0.8, 0.7], np.float32), 0.5)
    assert kept.tolist() == [0, 1]


def test_sideways_tile_in_a_row() -> None:
    quads = []
    for i in range(5):  # upright faces 30 wide, 40 tall, side by side
        x = 32.0 * i
        quads.append([[x, 0], [x + 30, 0], [x + 30, 40], [x, 40]])
    x = 32.0 * 5  # a claimed tile lying sideways: 40 wide, 30 tall
    quads.append([[x, 40], [x, 10], [x + 40, 10], [x + 40, 40]])
    flags = sideways_flags(np.array(quads, np.float32))
    assert flags.tolist() == [False] * 5 + [True]


def test_sideways_tile_in_a_foreshortened_row() -> None:
    """A camera tilted over the row squashes upright faces to about square: their own long
    axes then point either way (real photos: 8 % of upright faces were flagged sideways when
    each face's own long axis decided). Only the tile wider than its neighbours is turned."""
    quads = []
    for i in range(6):  # upright faces 30 wide, 28 or 31 tall
        x, h = 32.0 * i, (28.0, 31.0)[i % 2]
        quads.append([[x, 40 - h], [x + 30, 40 - h], [x + 30, 40], [x, 40]])
    x = 32.0 * 6  # the claimed tile lying sideways, squashed alike: 40 wide, 21 tall
    quads.append([[x, 40], [x, 19], [x + 40, 19], [x + 40, 40]])
    flags = sideways_flags(np.array(quads, np.float32))
    assert flags.tolist() == [False] * 6 + [True]


def test_sideways_tile_with_a_loose_quad_reads_from_its_turn() -> None:
    """The detector's quads of sideways tiles are loose, often little wider than the upright
    faces beside them (a third of the real ones fell under a width bar alone). The corner
    order still tells the face's reading direction: a face turned a quarter and a little
    wider than its neighbours is sideways; an upright face as wide, or a turned reading on a
    clearly narrower quad, is not (on the training-source photos 12 % of turned faces
    narrower than their neighbours were sideways)."""

    def upright(x: float, w: float) -> list[list[float]]:
        return [[x, 0], [x + w, 0], [x + w, 40], [x, 40]]

    def turned(x: float, w: float) -> list[list[float]]:  # "up" points left
        return [[x, 40], [x, 0], [x + w, 0], [x + w, 40]]

    quads = [upright(32.0 * i, 30) for i in range(4)]
    quads.append(turned(128, 33))  # a claimed tile: only 1.1 times as wide, but turned
    quads += [upright(166 + 32.0 * i, 30) for i in range(2)]
    quads.append(upright(230, 34))  # as wide, upright: a loose quad of an upright face
    quads.append(turned(268, 22))  # a narrow face read turned: the reading is noise
    quads += [upright(299 + 32.0 * i, 30) for i in range(2)]
    flags = sideways_flags(np.array(quads, np.float32))
    assert flags.tolist() == [False] * 4 + [True] + [False] * 6


def test_the_detectors_boxes_are_a_cue_of_their_own() -> None:
    """A sideways tile's quad may come out upright-ordered and only somewhat wider than its
    neighbours', while its box, drawn round the tile's body, has a turned tile's shape: the
    box then carries the flag."""
    quads = [
        [[32.0 * i, 0], [32.0 * i + 30, 0], [32.0 * i + 30, 40], [32.0 * i, 40]] for i in range(7)
    ]
    # a loose quad, 36 by 34 (38 by 32 is flagged on its own by the geometry fitted on
    # refined corners: wide enough to be a turned face)
    quads[3] = [[94, 6], [130, 6], [130, 40], [94, 40]]
    corners = np.array(quads, np.float32)
    boxes = np.concatenate([corners.min(axis=1), corners.max(axis=1)], axis=1)
    assert not sideways_flags(corners, boxes).any()
    boxes[3] = [88, 12, 138, 40]  # the body: 50 wide, 28 tall
    assert sideways_flags(corners, boxes).tolist() == [False] * 3 + [True] + [False] * 3


def face(x: float, y: float, w: float, h: float) -> list[list[float]]:
    """An upright face's corners, clockwise from the top left."""
    return [[x, y], [x + w, y], [x + w, y + h], [x, y + h]]


def tiles_at(quads: list[list[list[float]]], confidence: list[float]) -> Tiles:
    """Face-up tiles with these corners, each boxed by its quad."""
    corners = np.array(quads, np.float32)
    boxes = np.concatenate([corners.min(axis=1), corners.max(axis=1)], axis=1)
    n = len(quads)
    return Tiles(
        boxes, corners, np.array(confidence, np.float32), np.zeros(n, bool), np.zeros(n, bool)
    )


def test_drop_specks_keeps_tiles_and_drops_texture() -> None:
    quads = [face(x, 0, w, 1.3 * w) for x, w in ((0, 40), (45, 38), (90, 36), (140, 6))]
    kept = drop_specks(tiles_at(quads, [0.9, 0.8, 0.7, 0.6]))
    assert len(kept) == 3 and kept.corners[:, 0, 0].tolist() == [0, 45, 90]


def test_drop_specks_keeps_a_tile_whose_quad_collapsed() -> None:
    """Run G's held-out KDE photos: a tile near 45 degrees whose corner regressions averaged
    toward its centre keeps its full box and is a tile, not a speck."""
    row = [face(x, 0, 40, 52) for x in (0, 45, 90)]
    tiles = tiles_at([*row, face(150, 20, 6, 8)], [0.9, 0.8, 0.7, 0.5])  # a sliver of a face
    tiles.xyxy[3] = [135, 0, 175, 52]  # ...whose box is a whole 40 x 52 face's
    assert len(drop_specks(tiles)) == 4


def test_restore_collapsed_lengthens_a_shrunk_face_and_leaves_others() -> None:
    """A face whose corner regressions averaged toward its centre (its diagonals a fifth of
    what its box implies) gets diagonals as long as its row's, along its own direction."""
    row = [face(x, 0, 40, 52) for x in (0, 45, 90)]
    sliver = face(153, 21, 8, 10)  # centre (157, 26); a 40 x 52 face's box around it
    corners = np.array([*row, sliver], np.float32)
    boxes = np.array([[0, 0, 40, 52], [45, 0, 85, 52], [90, 0, 130, 52], [137, 0, 177, 52]])
    out = restore_collapsed(corners, boxes.astype(np.float32))
    assert np.array_equal(out[:3], corners[:3])
    restored = out[3]
    assert np.allclose(restored.mean(axis=0), [157, 26])
    assert np.allclose(np.linalg.norm(restored[0] - restored[2]), np.hypot(40, 52), rtol=1e-4)
    # the sliver's own direction: its diagonal ran (8, 10), so the restored one does too
    d = restored[2] - restored[0]
    assert np.isclose(d[1] / d[0], 10 / 8)


def test_the_look_sees_a_row_alike_however_the_photo_is_turned() -> None:
    """The look crops each tile turned so its row runs across: a photo turned a quarter
    gives the same crops, up to the half turn and mirror the network is trained to ignore."""
    rng = np.random.default_rng(0)
    image = rng.integers(0, 255, (200, 300), dtype=np.uint8)
    image = cv2.GaussianBlur(image, (0, 0), 2)
    quads = np.array(
        [[[60.0 + 32 * i, 80], [90.0 + 32 * i, 80], [90.0 + 32 * i, 120], [60.0 + 32 * i, 120]]
         for i in range(5)],
        np.float32,
    )  # fmt: skip
    boxes = np.concatenate([quads.min(axis=1), quads.max(axis=1)], axis=1)
    crops = look_crops(image, quads, cues(quads, boxes))
    turned = np.ascontiguousarray(np.rot90(image))  # (x, y) -> (y, 299 - x)
    tquads = np.stack([quads[..., 1], 299 - quads[..., 0]], axis=-1).astype(np.float32)
    tboxes = np.concatenate([tquads.min(axis=1), tquads.max(axis=1)], axis=1)
    tcrops = look_crops(turned, tquads, cues(tquads, tboxes))
    assert crops.shape == tcrops.shape == (5, 1, LOOK_SIZE, LOOK_SIZE)
    inner = (slice(None), 0, slice(8, -8), slice(8, -8))
    variants = [tcrops, tcrops[..., ::-1, ::-1], tcrops[..., ::-1, :], tcrops[..., :, ::-1]]
    assert min(float(np.abs(v[inner] - crops[inner]).mean()) for v in variants) < 0.02
