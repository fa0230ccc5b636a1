"""A face a taught set finds unlike all its looks is cut again along its neighbours' shape,
and the cut the set finds likest kept (`vision.recut`)."""

from __future__ import annotations

from typing import cast

import cv2
import numpy as np

from scoring.tiles import CLASSES, FACES
from vision.classify import FACE_MARGIN, Classifier
from vision.load import Photo
from vision.looks import describe_crops
from vision.recut import recut
from vision.tileset import TileSet
from vision.types import FloatArray, Tiles

W, H = 40.0, 52.0
D = 16  # embedding width


def _embedding(code: str) -> FloatArray:
    """A distinct unit embedding per face."""
    rng = np.random.default_rng(CLASSES.index(code))
    v = rng.normal(size=D).astype(np.float32)
    return v / np.linalg.norm(v)


def _crop(code: str) -> np.ndarray:
    """A distinct print per face."""
    rng = np.random.default_rng(100 + CLASSES.index(code))
    small = rng.integers(0, 255, size=(10, 8, 3)).astype(np.uint8)
    return np.asarray(cv2.resize(small, (64, 80), interpolation=cv2.INTER_NEAREST))


def _look(code: str) -> FloatArray:
    return describe_crops(_crop(code)[None], FACE_MARGIN)[0]


def _unknown() -> tuple[FloatArray, FloatArray]:
    """The embedding and print of a crop cut across a face: like no face of the set."""
    rng = np.random.default_rng(99)
    v = rng.normal(size=D).astype(np.float32)
    small = rng.integers(0, 255, size=(10, 8, 3)).astype(np.uint8)
    crop = cv2.resize(small, (64, 80), interpolation=cv2.INTER_NEAREST)
    return v / np.linalg.norm(v), describe_crops(crop[None], FACE_MARGIN)[0]


def _set(faces: list[str]) -> TileSet:
    crops = np.stack([_crop(c) for c in faces])
    embeddings = np.stack([_embedding(c) for c in faces])
    return TileSet("s").with_looks(faces, embeddings, crops, ["t"] * len(faces), "m")


def _upright(cx: float, cy: float) -> FloatArray:
    return np.array(
        [
            [cx - W / 2, cy - H / 2],
            [cx + W / 2, cy - H / 2],
            [cx + W / 2, cy + H / 2],
            [cx - W / 2, cy + H / 2],
        ],
        np.float32,
    )


class _Classifier:
    """Reads a crop as 5m where it stands crosswise on the last tile's centre (the face a
    claimed tile shows), else as nothing the set knows."""

    def __init__(self, target: tuple[float, float]) -> None:
        self.target = np.array(target, np.float32)
        self.calls = 0

    def classify(self, photo: Photo, tiles: Tiles) -> Tiles:
        self.calls += 1
        n = len(tiles)
        top = tiles.corners[:, 1] - tiles.corners[:, 0]  # runs down the photo: crosswise
        on_target = np.linalg.norm(tiles.corners.mean(axis=1) - self.target, axis=1) < 2
        crosswise = on_target & (np.abs(top[:, 1]) > np.abs(top[:, 0]))
        embeddings = np.stack([_unknown()[0]] * n)
        looks = np.stack([_unknown()[1]] * n)
        embeddings[crosswise], looks[crosswise] = _embedding("5m"), _look("5m")
        probs = np.full((n, len(CLASSES)), 1 / len(CLASSES), np.float32)
        return Tiles(
            tiles.xyxy,
            tiles.corners,
            tiles.confidence,
            tiles.sideways,
            tiles.face_down,
            probs,
            looks,
            embeddings,
        )


def _table(bad_code_read: str = "") -> tuple[Tiles, tuple[float, float]]:
    """A row of five upright faces the set knows, and a claimed tile beside them whose
    detected corners lie twisted across its face."""
    codes = ["1m", "2m", "3m", "4m", "6m"]
    corners = [_upright(100 + k * (W + 4), 100) for k in range(len(codes))]
    centre = (100 + 5 * (W + 4) + 6, 100.0)
    twisted = np.array(
        [
            [centre[0] - 5, centre[1] - 20],
            [centre[0] + 25, centre[1] - 2],
            [centre[0] + 5, centre[1] + 20],
            [centre[0] - 25, centre[1] + 2],
        ],
        np.float32,
    )
    corners.append(twisted)
    quads = np.stack(corners)
    n = len(quads)
    xyxy = np.concatenate([quads.min(axis=1), quads.max(axis=1)], axis=1)
    xyxy[-1] = [centre[0] - H / 2, centre[1] - W / 2, centre[0] + H / 2, centre[1] + W / 2]
    embeddings = np.stack([_embedding(c) for c in codes] + [_unknown()[0]])
    looks = np.stack([_look(c) for c in codes] + [_unknown()[1]])
    probs = np.full((n, len(CLASSES)), 1 / len(CLASSES), np.float32)
    if bad_code_read:
        probs[-1] = 0.0
        probs[-1, CLASSES.index(bad_code_read)] = 1.0
    tiles = Tiles(
        xyxy, quads, np.ones(n), np.zeros(n, bool), np.zeros(n, bool), probs, looks, embeddings
    )
    return tiles, centre


def _photo() -> Photo:
    return Photo(np.full((300, 500, 3), 200, np.uint8), 1.0, (500, 300), "")


def _recut(tiles: Tiles, tileset: TileSet, classifier: _Classifier) -> Tiles:
    """`recut` as recognition calls it; its features checked against the tiles returned."""
    features = tileset.features(tiles.probs, tiles.embeddings, tiles.looks)
    out, kept = recut(_photo(), tiles, tileset, cast(Classifier, classifier), None, features)
    again = tileset.features(out.probs, out.embeddings, out.looks)
    np.testing.assert_allclose(kept, again, atol=1e-6)  # float32 sums in another order
    return out


def test_a_face_cut_through_a_twisted_quad_is_cut_again_crosswise() -> None:
    tiles, centre = _table()
    classifier = _Classifier(centre)
    out = _recut(tiles, _set(list(FACES)), classifier)
    assert classifier.calls == 1
    np.testing.assert_allclose(out.embeddings[-1], _embedding("5m"))
    top = out.corners[-1, 1] - out.corners[-1, 0]
    assert abs(top[0]) < 1e-3 and abs(abs(top[1]) - W) < 1e-3  # its neighbours' shape, crosswise
    np.testing.assert_allclose(out.corners[-1].mean(axis=0), centre, atol=1e-3)
    np.testing.assert_array_equal(out.corners[:-1], tiles.corners[:-1])  # the rest as they were


def test_a_blank_face_is_not_cut_again() -> None:
    """A blank white dragon has no print to fit; a cut reaching into a neighbour would."""
    tiles, centre = _table(bad_code_read="P")
    classifier = _Classifier(centre)
    out = _recut(tiles, _set(list(FACES)), classifier)
    assert classifier.calls == 0
    np.testing.assert_array_equal(out.corners, tiles.corners)


def test_a_set_shown_a_few_faces_cuts_nothing_again() -> None:
    """A face such a set was never shown fits it badly however it is cut."""
    tiles, centre = _table()
    classifier = _Classifier(centre)
    few = _set(["1m", "2m", "3m", "4m", "5m", "6m"])
    out = _recut(tiles, few, classifier)
    assert classifier.calls == 0
    np.testing.assert_array_equal(out.corners, tiles.corners)
