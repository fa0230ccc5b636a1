"""The training-time flower faces: every code, every style, drawn with ink and deterministic."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw

from models.flower_art import flower_face
from models.flower_icons import EMBLEMS, WORDS, _emblem, draw_icon_face

PAPER = (245, 242, 235)


@pytest.mark.parametrize("code", [f"{n}h" for n in range(1, 9)])
def test_flower_face_is_an_inked_upright_face(code: str) -> None:
    for seed in range(6):
        face = flower_face(code, np.random.default_rng(seed))
        assert face.shape == (160, 120, 3) and face.dtype == np.uint8
        paper = np.median(face.reshape(-1, 3), axis=0)
        ink = np.abs(face.astype(int) - paper).sum(axis=2) > 60
        assert ink.mean() > 0.01, f"{code} seed {seed}: a blank face"


def test_flower_face_is_deterministic_per_seed() -> None:
    a = flower_face("6h", np.random.default_rng(11))
    b = flower_face("6h", np.random.default_rng(11))
    assert np.array_equal(a, b)


@pytest.mark.parametrize("kind", EMBLEMS)
def test_each_emblem_draws_inside_its_box(kind: str) -> None:
    image = Image.new("RGB", (120, 160), PAPER)
    _emblem(
        ImageDraw.Draw(image),
        np.random.default_rng(0),
        kind,
        (20, 40, 100, 120),
        (200, 30, 30),
        (30, 30, 200),
    )
    ink = np.any(np.asarray(image) != PAPER, axis=2)
    ys, xs = np.nonzero(ink)
    assert len(xs) > 100, f"{kind} drew almost nothing"
    # a little slack for line caps: the emblem keeps to its box
    assert xs.min() >= 14 and xs.max() <= 106 and ys.min() >= 34 and ys.max() <= 130


def test_icon_face_draws_for_every_code() -> None:
    assert len(WORDS) == 8
    for index in range(8):
        image = Image.new("RGB", (120, 160), PAPER)
        draw_icon_face(ImageDraw.Draw(image), np.random.default_rng(index), index, 120, 160)
        assert np.any(np.asarray(image) != PAPER)
