"""Copies of one face look alike, two faces unlike, whatever the light, the turn or the quad."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.looks import alike, describe, log_likeness_ratio
from vision.types import Tiles

FACE_W, FACE_H = 64, 80


def _face(dots: list[tuple[int, int]], colour: tuple[int, int, int]) -> np.ndarray:
    face = np.full((FACE_H, FACE_W, 3), 235, np.uint8)
    for x, y in dots:
        cv2.circle(face, (x, y), 7, colour, -1)
        cv2.circle(face, (x, y), 3, (235, 235, 235), -1)
    return face


# A six of dots in two columns and a nine in three: alike enough to be misread one for the other.
SIX = _face([(x, y) for x in (20, 44) for y in (18, 40, 62)], (40, 120, 30))
NINE = _face([(x, y) for x in (14, 32, 50) for y in (18, 40, 62)], (40, 120, 30))


def _table(faces: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The faces laid in a row on a wooden table; their corners TL, TR, BR, BL."""
    table = np.full((140, 110 * len(faces) + 20, 3), (60, 90, 140), np.uint8)
    corners = []
    for k, face in enumerate(faces):
        x, y = 20 + 110 * k, 30
        table[y : y + FACE_H, x : x + FACE_W] = face
        corners.append([[x, y], [x + FACE_W, y], [x + FACE_W, y + FACE_H], [x, y + FACE_H]])
    return table, np.array(corners, np.float32)


def test_copies_look_alike_and_two_faces_unlike() -> None:
    dim = (SIX.astype(np.float32) * 0.7).astype(np.uint8)  # the same face under less light
    turned = SIX[::-1, ::-1].copy()  # the same face, corners half a turn round
    table, corners = _table([SIX, dim, turned, NINE])
    corners[1] += (1.5, -1.0)  # the detector's corners wander a little
    likeness = alike(describe(table, corners))
    assert likeness.shape == (4, 4)
    assert np.allclose(likeness, likeness.T)
    assert likeness[0, 1] > 0.9 and likeness[0, 2] > 0.9
    assert likeness[0, 3] < 0.7 and likeness[1, 3] < 0.7


def test_likeness_becomes_evidence_for_and_against_one_face() -> None:
    ratio = log_likeness_ratio(np.array([0.2, 0.75, 0.98], np.float32))
    assert ratio[0] < ratio[1] < 0 < ratio[2]
    assert np.all(np.abs(ratio) <= 4.0)  # clipped: no pair decides a hand alone


def test_tiles_carry_their_looks_when_filtered() -> None:
    table, corners = _table([SIX, NINE, SIX])
    looks = describe(table, corners)
    boxes = np.concatenate([corners.min(axis=1), corners.max(axis=1)], axis=1)
    n = len(corners)
    tiles = Tiles(boxes, corners, np.ones(n), np.zeros(n, bool), np.zeros(n, bool), looks=looks)
    kept = tiles[np.array([True, False, True])]
    assert np.array_equal(kept.looks, looks[[0, 2]])
    assert Tiles.empty().looks.shape == (0, 0)
    with pytest.raises(ValueError, match="looks"):
        Tiles(boxes, corners, np.ones(n), np.zeros(n, bool), np.zeros(n, bool), looks=looks[:2])
