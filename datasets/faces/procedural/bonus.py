"""Flowers (1h-4h 梅蘭菊竹) and seasons (5h-8h 春夏秋冬): a painting, a corner numeral 1-4 and
the tile's name, the cues that carry across sets (the painting itself differs per set)."""

from __future__ import annotations

import numpy as np

from datasets.faces.procedural.canvas import Canvas
from datasets.faces.procedural.layout import CHINESE_NUMERALS, Box, sub_box
from datasets.faces.procedural.pictures import PAINTINGS, PLANT_OF_FLOWER, draw_painting
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
    # One colour per group in a set: flowers and seasons are printed in different inks.
    group_roles = ["r", "b", "g", "k"]
    rng.shuffle(group_roles)
    role = group_roles[int(is_season)]
    numeral = str(rank) if rng.random() < 0.65 else CHINESE_NUMERALS[rank - 1]
    name_kind = str(rng.choice(["name", "rebus", "none"], p=[0.8, 0.1, 0.1]))
    name = NAMES[number - 1] if name_kind == "name" else REBUS[int(rng.integers(len(REBUS)))]

    numeral_left = rng.random() < 0.5
    label_h = float(rng.uniform(0.13, 0.2))
    num_box = (
        sub_box(box, 0.0, 0.0, 0.28, label_h)
        if numeral_left
        else sub_box(box, 0.72, 0.0, 1.0, label_h)
    )
    picture = sub_box(box, 0.08, label_h * 0.6, 0.92, 0.97)
    if rng.random() < 0.45 and number <= 4:
        kind = PLANT_OF_FLOWER[rank]
    else:
        kind = str(rng.choice(PAINTINGS, p=[0.25, 0.15, 0.15, 0.1, 0.15, 0.1, 0.1]))
    draw_painting(canvas, style, picture, kind, rng)  # first, so the labels print over it
    canvas.glyph(numeral, style.small_font, num_box, style.colour(role), stroke=style.glyph_stroke)
    if name_kind != "none":
        placement = str(rng.choice(["corner", "bottom", "side"], p=[0.7, 0.15, 0.15]))
        if placement == "corner":
            nb = (
                sub_box(box, 0.68, 0.0, 1.0, label_h)
                if numeral_left
                else sub_box(box, 0.0, 0.0, 0.32, label_h)
            )
        elif placement == "bottom":
            nb = sub_box(box, 0.3, 0.8, 0.7, 1.0)
        else:  # a column down the side opposite the numeral
            nb = (
                sub_box(box, 0.78, 0.1, 1.0, 0.45)
                if numeral_left
                else sub_box(box, 0.0, 0.1, 0.22, 0.45)
            )
        name_role = role if rng.random() < 0.7 else "k"
        canvas.glyph(name, style.small_font, nb, style.colour(name_role), stroke=style.glyph_stroke)
