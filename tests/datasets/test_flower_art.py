"""The training-time flower faces: every code, every style, drawn with ink and deterministic."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw

from datasets.faces.flower_art import flower_face
from datasets.faces.flower_icons import EMBLEMS, WORDS, _emblem, draw_icon_face

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


def test_season_trees_carry_their_season_in_colour() -> None:
    from PIL import Image, ImageDraw

    from datasets.faces.season_trees import draw_season_tree

    paper = (245, 242, 230)
    for seed in range(12):
        inks = []
        for season in range(4):
            image = Image.new("RGB", (120, 160), paper)
            draw_season_tree(ImageDraw.Draw(image), np.random.default_rng(seed), season, 120, 160)
            rgb = np.asarray(image, float)
            inks.append(rgb[np.abs(rgb - paper).sum(axis=2) > 60])
        _, summer, autumn, winter = inks
        # With no numeral or character the tree alone names the season: blossom in spring,
        # a green crown in summer, warm leaves in autumn, dark bark and blue snow in winter.
        bright = [float((ink[:, 0] > 190).mean()) for ink in inks]
        assert bright[0] > 0.05 and bright[3] == 0.0, (seed, bright)
        green = summer.mean(axis=0)
        assert green[1] > green[0] and green[1] > green[2], seed
        warm = autumn.mean(axis=0)
        assert warm[0] > warm[1] > warm[2], seed
        assert not ((winter[:, 1] > winter[:, 0]) & (winter[:, 1] > winter[:, 2])).any(), seed
