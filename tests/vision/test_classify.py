"""The shipped classifier: crop shapes and probabilities, committed scenes, real crops."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from scoring.tiles import BACK, CLASSES, FLOWERS
from vision.classify import (
    FACE_MARGIN,
    QUARTER_LOOK_UNSURE,
    SECOND_LOOK_MARGINS,
    SURE_FIRST_LOOK,
    Classifier,
    rectify,
    widen,
)
from vision.geometry import face_sides
from vision.load import Photo
from vision.registry import optional
from vision.types import Tiles

DATA = Path(__file__).parent / "data"
CAMERASH = Path(__file__).resolve().parents[3] / "shared" / "data" / "camerash-crops"
# Measured with the shipped model (vision/weights/classifier.md); set a little below what it scored.
CAMERASH_TOP1_FLOOR = 0.92  # measured 0.963 (run L; 0.946 with run I)
CAMERASH_TOP1_34_FLOOR = 0.95  # measured 0.985
CAMERASH_FLOWER_AS_FLOWER_FLOOR = 0.93  # measured 0.955 (84 of 88; moves 2-3 tiles a run)
SCENE_CODES_FLOOR = 0.75  # measured 0.84, 1.0, 0.92 (run L; run K 0.95, 1.0, 0.92)

pytestmark = pytest.mark.skipif(optional("classifier") is None, reason="no shipped classifier")


@pytest.fixture(scope="module")
def classifier() -> Classifier:
    return Classifier()


def scene_tiles(name: str) -> tuple[Photo, Tiles, list[str]]:
    image = cv2.imread(str(DATA / name))
    labels = json.loads((DATA / "labels.json").read_text())[name]
    boxes = [
        [a["bbox"][0], a["bbox"][1], a["bbox"][0] + a["bbox"][2], a["bbox"][1] + a["bbox"][3]]
        for a in labels
    ]
    n = len(labels)
    tiles = Tiles(
        np.array(boxes),
        np.array([a["corners"] for a in labels]),
        np.ones(n),
        np.zeros(n),
        np.zeros(n),
    )
    photo = Photo(image=image, scale=1.0, original_size=(image.shape[1], image.shape[0]), sha256="")
    return photo, tiles, [a["code"] for a in labels]


def test_classify_crops_shapes_and_probabilities(classifier: Classifier) -> None:
    rng = np.random.default_rng(0)
    crops = [
        rng.integers(0, 256, (120, 90, 3), dtype=np.uint8),  # any size is resized
        rng.integers(0, 256, (80, 64, 3), dtype=np.uint8),
        rng.integers(0, 256, (50, 40), dtype=np.uint8),  # greyscale
    ]
    probs = classifier.classify_crops(crops)
    assert probs.shape == (3, len(CLASSES)) and probs.dtype == np.float32
    assert np.all(probs >= 0) and np.allclose(probs.sum(axis=1), 1.0, atol=1e-4)
    assert classifier.classify_crops([]).shape == (0, len(CLASSES))


def test_upside_down_face_reads_the_same(classifier: Classifier) -> None:
    photo, tiles, _ = scene_tiles("scene_scattered.jpg")
    upright = [rectify(photo.image, q) for q in tiles.corners]
    turned = [rectify(photo.image, np.roll(q, 2, axis=0)) for q in tiles.corners]
    a = classifier.classify_crops(upright).argmax(axis=1)
    b = classifier.classify_crops(turned).argmax(axis=1)
    assert np.mean(a == b) >= 0.8


@pytest.mark.parametrize(
    "name", ["scene_declared_win.jpg", "scene_rows.jpg", "scene_scattered.jpg"]
)
def test_codes_from_true_corners(classifier: Classifier, name: str) -> None:
    photo, tiles, codes = scene_tiles(name)
    named = classifier.classify(photo, tiles)
    assert named.probs.shape == (len(tiles), len(CLASSES))
    right = np.mean([p == t for p, t in zip(named.codes, codes, strict=True)])
    assert right >= SCENE_CODES_FLOOR, (named.codes, codes)


def test_only_unsure_faces_get_a_second_look() -> None:
    """Faces read sure at the first look keep that reading; the unsure ones are the mean of
    the first look and the looks through a tighter and a looser quad (the classifier's own
    reading: the flower and index readers' say is tested in test_flowers and test_indices)."""
    classifier = Classifier(flowers=False, index=False)
    photo, tiles, _ = scene_tiles("scene_scattered.jpg")
    tiles.corners[:3] += np.float32(6.0)  # quads off their faces: some readings unsure
    first = classifier.classify_crops([rectify(photo.image, q) for q in widen(tiles.corners)])
    named = classifier.classify(photo, tiles).probs
    sure = first.max(axis=1) >= SURE_FIRST_LOOK
    assert sure.any() and not sure.all()
    np.testing.assert_allclose(named[sure], first[sure], atol=1e-6)
    looks = [first[~sure]] + [
        classifier.classify_crops([rectify(photo.image, q) for q in widen(tiles.corners[~sure], m)])
        for m in SECOND_LOOK_MARGINS
    ]
    np.testing.assert_allclose(named[~sure], np.mean(looks, axis=0), atol=1e-6)


def test_rectify_averages_a_large_face_instead_of_aliasing() -> None:
    # one-pixel checks four times the crop's size: sampled pixel by pixel they come out
    # black or white at random; averaged, they are an even grey
    checks = (np.indices((320, 256)).sum(axis=0) % 2 * 255).astype(np.uint8)
    image = np.dstack([checks] * 3)
    corners = np.array([[0, 0], [256, 0], [256, 320], [0, 320]], np.float32)
    crop = rectify(image, corners)
    assert crop.shape == (80, 64, 3)
    assert abs(float(crop.mean()) - 127.5) < 3 and float(crop.std()) < 8


def test_rectify_keeps_a_face_near_the_crop_size() -> None:
    rng = np.random.default_rng(0)
    image = rng.integers(0, 256, (80, 64, 3), dtype=np.uint8)
    corners = np.array([[0, 0], [64, 0], [64, 80], [0, 80]], np.float32)
    assert np.array_equal(rectify(image, corners), image)


def test_widen_grows_each_quad_about_its_own_centre() -> None:
    quads = np.array(
        [[[0, 0], [30, 0], [30, 40], [0, 40]], [[100, 50], [140, 50], [140, 80], [100, 80]]],
        np.float32,
    )
    wide = widen(quads, 1.1)
    np.testing.assert_allclose(wide.mean(axis=1), quads.mean(axis=1), atol=1e-4)
    np.testing.assert_allclose(wide[0, 0], [-1.5, -2.0], atol=1e-4)
    np.testing.assert_allclose(wide[1, 2], [142.0, 81.5], atol=1e-4)


def test_back_is_a_class() -> None:
    assert CLASSES[-1] == BACK


@pytest.mark.skipif(not CAMERASH.is_dir(), reason="camerash-crops not present")
def test_camerash_accuracy(classifier: Classifier) -> None:
    from datasets.faces.camerash import read_camerash
    from scoring.tiles import PLAYING

    items = read_camerash(CAMERASH)
    probs = classifier.classify_crops([cv2.imread(str(p)) for p, _ in items])
    pred = [CLASSES[i] for i in probs.argmax(axis=1)]
    truth = [code for _, code in items]
    right = np.array([p == t for p, t in zip(pred, truth, strict=True)])
    playing = np.isin(truth, PLAYING)
    assert right.mean() >= CAMERASH_TOP1_FLOOR
    assert right[playing].mean() >= CAMERASH_TOP1_34_FLOOR
    flower = np.isin(truth, FLOWERS)
    assert np.isin(np.array(pred)[flower], FLOWERS).mean() >= CAMERASH_FLOWER_AS_FLOWER_FLOOR


def test_cli_classify(tmp_path: Path) -> None:
    photo, tiles, _ = scene_tiles("scene_scattered.jpg")
    crop = tmp_path / "tile.png"
    cv2.imwrite(str(crop), rectify(photo.image, tiles.corners[0]))
    done = subprocess.run(
        [sys.executable, "-m", "api.cli", "classify", str(crop), "--json", "--top", "2"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert record["code"] in CLASSES and len(record["alternatives"]) == 2
    bogus = tmp_path / "notes.txt"
    bogus.write_text("not a picture")
    done = subprocess.run(
        [sys.executable, "-m", "api.cli", "classify", str(bogus)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode != 0
    assert done.stderr.strip().count("\n") == 0 and "not an image" in done.stderr


def test_faces_with_corners_a_quarter_off_are_read_turned(classifier: Classifier) -> None:
    """Corners a quarter turn off their face (a claimed tile the detector took as upright)
    make a quad wider than tall; an unsure face there is read again a quarter round and,
    read sure that way, takes the turned corners. Each face turned back reads its code."""
    photo, tiles, codes = scene_tiles("scene_declared_win.jpg")
    off = replace(tiles, corners=np.roll(tiles.corners, -1, axis=1))
    named = classifier.classify(photo, off)
    sides = face_sides(named.corners)
    turned = sides[:, 0] < sides[:, 1]
    assert turned.sum() >= 5
    # What the quarter look weighs: the classifier's own reading, its looks averaged (the
    # flower and index readers have their say after it).
    plain = Classifier(flowers=False, index=False)
    looks = [
        plain.classify_crops([rectify(photo.image, q) for q in widen(off.corners[turned], m)])
        for m in (FACE_MARGIN, *SECOND_LOOK_MARGINS)
    ]
    assert all(looks[0].max(axis=1) < SURE_FIRST_LOOK)
    assert all(np.mean(looks, axis=0).max(axis=1) < QUARTER_LOOK_UNSURE)
    assert [c for c, t in zip(named.codes, turned, strict=True) if t] == [
        c for c, t in zip(codes, turned, strict=True) if t
    ]
    np.testing.assert_array_equal(named.corners[~turned], off.corners[~turned])


def test_a_chow_whose_claimed_tile_was_taken_as_upright_stays_a_chow() -> None:
    """A rendered win (training-source faces, `benchmarks/recognize.py render --n 400
    --sources procedural fluffystuff unicode --seed 79`, photo 93, saved at JPEG quality 70),
    with the detections a detector gave it, kept beside the photo: the claimed 2m's corners
    set upright. Read unsure that way, the 2m 3m 4m chow passed as concealed tiles in a
    wrong legal hand, unflagged. Read a quarter round, the tile is sure, crosswise, and the
    chow is exposed."""
    from vision.load import load_photo
    from vision.pipeline import interpret

    photo = load_photo(DATA / "claimed_tile_taken_upright.jpg")
    with np.load(DATA / "claimed_tile_taken_upright.detections.npz") as kept:
        detected = Tiles(**{name: kept[name] for name in kept.files})
    tiles = Classifier().classify(photo, detected)
    hand = interpret(tiles, image_size=photo.original_size).to_json()["hand"]
    assert hand is not None
    melds = sorted((m["type"], m["tiles"][0], m.get("claimed_tile")) for m in hand["melds"])
    assert melds == [
        ("chow", "2m", "2m"),
        ("chow", "2p", "2p"),
        ("chow", "2s", "2s"),
        ("pung", "4s", None),
    ]
    assert hand["concealed"] == ["7s"] and hand["winning_tile"] == "7s"


def test_the_photo_of_a_claimed_tile_is_read_right_or_flagged() -> None:
    """The same photo end to end with the shipped models: whatever they find, a wrong hand
    is never left unflagged."""
    from vision.pipeline import Recognizer

    result = Recognizer().recognize(DATA / "claimed_tile_taken_upright.jpg").to_json()
    hand = result["hand"] or {"melds": [], "concealed": []}
    melds = sorted((m["type"], m["tiles"][0], m.get("claimed_tile")) for m in hand["melds"])
    right = melds == [
        ("chow", "2m", "2m"),
        ("chow", "2p", "2p"),
        ("chow", "2s", "2s"),
        ("pung", "4s", None),
    ] and hand["concealed"] == ["7s"]
    assert right or result["review"]
