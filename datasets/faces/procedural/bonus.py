"""Flowers (1h-4h 梅蘭菊竹) and seasons (5h-8h 春夏秋冬): a painting, a corner numeral 1-4 and
the tile's name, the cues that carry across sets (the painting itself differs per set)."""

from __future__ import annotations

from types import EllipsisType

import numpy as np

from datasets.faces.procedural.canvas import RGB, Canvas
from datasets.faces.procedural.layout import CHINESE_NUMERALS, Box, sub_box
from datasets.faces.procedural.pictures import (
    PAINTING_WEIGHTS,
    PAINTINGS,
    PLANT_OF_FLOWER,
    draw_painting,
)
from datasets.faces.procedural.style import Style

NAMES = "梅蘭菊竹春夏秋冬"
# Some sets print a word of a phrase instead of the name (seen on real Hong Kong tiles).
# A broad pool of common words of good wishes, not the words of any one set we measure on
# (the camerash crops), so that measure stays honest.
REBUS = "福祿壽喜財吉祥如意平安富貴金玉滿堂龍鳳和順興旺恭賀新禧百年好合招寶進"
# Where the labels go: Hong Kong corners (numeral one side, name the other), the name at the
# bottom or down a side, or a mainland-style title (big name on top, small numeral or none).
LAYOUTS = ("corners", "bottom", "side", "title")
# Sets sold in the West print the name in English, whole or cut short (a set does one or the
# other), across the bottom or the top of the face (the numeral then in a bottom corner).
ENGLISH = (  # (whole, short)
    ("PLUM", "PLUM"),
    ("ORCHID", "ORC"),
    ("MUM", "MUM"),
    ("BAMBOO", "BAM"),
    ("SPRING", "SPR"),
    ("SUMMER", "SUM"),
    ("AUTUMN", "AUT"),
    ("WINTER", "WIN"),
)
LAYOUT_WEIGHTS = (0.7, 0.07, 0.11, 0.12)


def draw_bonus(
    canvas: Canvas,
    style: Style,
    box: Box,
    number: int,
    rng: np.random.Generator,
    numeral: str | EllipsisType | None = ...,
) -> None:
    """`number` 1-8: 1-4 flowers, 5-8 seasons; the printed numeral is 1-4 for both. `numeral`
    forces the numeral's text (or None for none) whatever the design prints; by default (...)
    the design decides."""
    rank = (number - 1) % 4 + 1
    is_season = number > 4
    # One ink per group in a set: flowers and seasons print in different colours, which one
    # in which differs between sets.
    group_roles = [str(r) for r in rng.permutation(["r", "b", "k"])]
    role = group_roles[int(is_season)]
    printed = str(rank) if rng.random() < 0.7 else CHINESE_NUMERALS[rank - 1]
    name_kind = str(rng.choice(["name", "rebus", "none", "english"], p=[0.72, 0.1, 0.08, 0.1]))
    name = NAMES[number - 1] if name_kind == "name" else REBUS[int(rng.integers(len(REBUS)))]
    short = rng.random() < 0.4  # drawn for every tile, as below: a set stays one set
    english_on_top = rng.random() < 0.4
    if name_kind == "english":
        name = ENGLISH[number - 1][int(short)]
    if rng.random() < 0.25 and name == "蘭":  # rng drawn for every tile: a set stays one set
        name = "兰"  # simplified, as mainland sets print it
    layout = str(rng.choice(LAYOUTS, p=LAYOUT_WEIGHTS)) if name_kind != "none" else "corners"
    num_box, name_box, label_h = _label_boxes(box, layout, rng)
    if numeral is ...:
        numeral = printed
    elif numeral is None:
        num_box = None
    elif num_box is None:  # a title printed without one: the forced numeral takes a corner
        num_box = sub_box(box, 0.0, 0.0, 0.2, label_h * 0.55)
    overlap = float(rng.uniform(0.5, 1.0)) if layout != "title" else 1.0  # a title stays clear
    picture = sub_box(box, 0.0, label_h * overlap, 1.0, 1.0)
    if name_kind == "english":  # a word needs the face's width: across the bottom or the top
        name_h = min(0.22, 0.05 + 0.9 / max(4, len(name)))
        if english_on_top:  # the numeral goes down to a bottom corner
            name_box = sub_box(box, 0.02, 0.0, 0.98, name_h)
            picture = sub_box(box, 0.0, name_h, 1.0, 1.0)
            if num_box is not None:
                nx0, ny0, nx1, ny1 = num_box
                num_box = (nx0, box[3] - (ny1 - ny0), nx1, box[3])
        else:
            name_box = sub_box(box, 0.02, 1 - name_h, 0.98, 1.0)
            picture = sub_box(box, 0.0, label_h * overlap, 1.0, 1.0 - name_h)
    kind = _painting_kind(rank, is_season, rng)
    # Label details are drawn before the painting, whose own draws differ per plant: so every
    # tile of a set (same seed) prints its labels alike.
    heavy = int(rng.choice([0, 1, 2]))  # numerals are often printed bold
    ringed = bool(rng.random() < 0.12)  # some sets ring the numeral
    name_role = role if rng.random() < 0.6 else str(rng.choice(["k", "b", "r"]))
    lean = rng.random() < 0.5  # brush-written names lean
    brushed = rng.random() < 0.5  # and their strokes wander
    wobble_seed = int(rng.integers(1 << 30))
    slant = float(rng.uniform(-0.35, 0.1)) if lean else 0.0
    if name_kind == "english":  # printed type, not a brush
        lean = brushed = False
        slant = 0.0
    draw_painting(canvas, style, picture, kind, rng)  # first, so the labels print over it

    if num_box is not None and numeral is not None:
        _numeral(canvas, style, num_box, numeral, style.colour(role), heavy, ringed)
    if name_kind != "none":
        # one wobble per set (seeded), so a set's eight names are brushed alike
        wobble = np.random.default_rng(wobble_seed) if brushed else None
        canvas.glyph(
            name,
            style.small_font,
            name_box,
            style.colour(name_role),
            stroke=min(style.glyph_stroke, 1),
            slant=slant,
            wobble=wobble,
        )


def _label_boxes(box: Box, layout: str, rng: np.random.Generator) -> tuple[Box | None, Box, float]:
    """Numeral box (or None), name box, and the height of the label strip on top."""
    numeral_left = rng.random() < 0.45
    label_h = float(rng.uniform(0.17, 0.26))
    num_w = float(rng.uniform(0.2, 0.3))
    name_w = float(rng.uniform(0.28, 0.42))  # the name is the flower/season cue: not too small

    def corner(left: bool, width: float, height: float) -> Box:
        return (
            sub_box(box, 0.0, 0.0, width, height)
            if left
            else sub_box(box, 1 - width, 0.0, 1.0, height)
        )

    num_box: Box | None = corner(numeral_left, num_w, label_h)
    if layout == "corners":
        name_box = corner(not numeral_left, name_w, label_h)
    elif layout == "bottom":
        name_box = sub_box(box, 0.32, 0.8, 0.68, 1.0)
    elif layout == "side":  # a column down the side opposite the numeral
        name_box = (
            sub_box(box, 0.78, 0.05, 1.0, 0.4)
            if numeral_left
            else sub_box(box, 0.0, 0.05, 0.22, 0.4)
        )
    else:  # title: the name large and centred on top, the numeral small in a corner, or none
        label_h = float(rng.uniform(0.22, 0.3))
        name_box = sub_box(box, 0.3, 0.0, 0.7, label_h)
        num_box = corner(numeral_left, num_w * 0.7, label_h * 0.55) if rng.random() < 0.6 else None
    return num_box, name_box, label_h


def _painting_kind(rank: int, is_season: bool, rng: np.random.Generator) -> str:
    paints_named_plant = rng.random() < 0.35  # the set paints each flower's own plant
    flower_kind = str(rng.choice(PAINTINGS, p=PAINTING_WEIGHTS))
    season_kind = str(rng.choice(PAINTINGS, p=PAINTING_WEIGHTS))
    if rng.random() < 0.5:  # many sets paint all eight alike, others the two groups apart
        season_kind = flower_kind
    if paints_named_plant and not is_season:
        return PLANT_OF_FLOWER[rank]
    return season_kind if is_season else flower_kind


def _numeral(
    canvas: Canvas, style: Style, box: Box, numeral: str, colour: RGB, heavy: int, ringed: bool
) -> None:
    x0, y0, x1, y1 = canvas.glyph(numeral, style.small_font, box, colour, stroke=heavy)
    if ringed:
        r = max(x1 - x0, y1 - y0) * 0.7
        canvas.circle((x0 + x1) / 2, (y0 + y1) / 2, r, outline=colour, width=max(2.0, r * 0.12))
