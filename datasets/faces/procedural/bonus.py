"""Flowers (1h-4h 梅蘭菊竹) and seasons (5h-8h 春夏秋冬): a painting, a corner numeral 1-4 and
the tile's name, the cues that carry across sets (the painting itself differs per set)."""

from __future__ import annotations

import numpy as np

from datasets.faces.procedural.canvas import Canvas
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
REBUS = "券才證是耀您選首福祿壽喜財"


def draw_bonus(
    canvas: Canvas, style: Style, box: Box, number: int, rng: np.random.Generator
) -> None:
    """`number` 1-8: 1-4 flowers, 5-8 seasons; the printed numeral is 1-4 for both."""
    rank = (number - 1) % 4 + 1
    is_season = number > 4
    # One ink per group in a set: flowers and seasons are printed in different colours.
    group_roles = ["r", "b", "k", "g"]
    rng.shuffle(group_roles[:3])
    role = group_roles[int(is_season)]
    numeral = str(rank) if rng.random() < 0.7 else CHINESE_NUMERALS[rank - 1]
    name_kind = str(rng.choice(["name", "rebus", "none"], p=[0.8, 0.1, 0.1]))
    name = NAMES[number - 1] if name_kind == "name" else REBUS[int(rng.integers(len(REBUS)))]
    if name == "蘭" and rng.random() < 0.25:
        name = "兰"  # simplified, as mainland sets print it

    numeral_left = rng.random() < 0.45
    label_h = float(rng.uniform(0.16, 0.24))
    num_w = float(rng.uniform(0.2, 0.3))
    num_box = (
        sub_box(box, 0.0, 0.0, num_w, label_h)
        if numeral_left
        else sub_box(box, 1 - num_w, 0.0, 1.0, label_h)
    )

    picture_top = label_h * float(rng.uniform(0.5, 1.0))
    picture = sub_box(box, 0.0, picture_top, 1.0, 1.0)
    if rng.random() < 0.35 and not is_season:
        kind = PLANT_OF_FLOWER[rank]
    else:
        kind = str(rng.choice(PAINTINGS, p=PAINTING_WEIGHTS))
    draw_painting(canvas, style, picture, kind, rng)  # first, so the labels print over it

    heavy = int(rng.choice([0, 1, 2, 3]))  # numerals are often printed bold
    drawn = canvas.glyph(numeral, style.small_font, num_box, style.colour(role), stroke=heavy)
    if rng.random() < 0.12:  # some sets ring the numeral
        nx0, ny0, nx1, ny1 = drawn
        r = max(nx1 - nx0, ny1 - ny0) * 0.7
        canvas.circle(
            (nx0 + nx1) / 2,
            (ny0 + ny1) / 2,
            r,
            outline=style.colour(role),
            width=max(2.0, r * 0.12),
        )
    if name_kind != "none":
        placement = str(rng.choice(["corner", "bottom", "side"], p=[0.8, 0.08, 0.12]))
        name_w = float(rng.uniform(0.26, 0.36))
        if placement == "corner":
            nb = (
                sub_box(box, 1 - name_w, 0.0, 1.0, label_h)
                if numeral_left
                else sub_box(box, 0.0, 0.0, name_w, label_h)
            )
        elif placement == "bottom":
            nb = sub_box(box, 0.32, 0.8, 0.68, 1.0)
        else:  # a column down the side opposite the numeral
            nb = (
                sub_box(box, 0.78, 0.05, 1.0, 0.4)
                if numeral_left
                else sub_box(box, 0.0, 0.05, 0.22, 0.4)
            )
        name_role = role if rng.random() < 0.6 else str(rng.choice(["k", "b", "r"]))
        slant = (
            float(rng.uniform(-0.35, 0.1)) if rng.random() < 0.5 else 0.0
        )  # brush-written names lean
        canvas.glyph(
            name,
            style.small_font,
            nb,
            style.colour(name_role),
            stroke=style.glyph_stroke,
            slant=slant,
        )
