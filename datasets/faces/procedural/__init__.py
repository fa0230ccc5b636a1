"""Our own procedural tile faces: every call draws a new random set design (see style.py).

Covers all 42 faces in Chinese, Hong Kong and Japanese habits: dots and bamboo as geometry,
characters, winds and dragons from CJK fonts, flowers and seasons as numbered paintings.

The design is the first thing drawn from the rng, so faces drawn with generators seeded
alike share one set design (`face(code, np.random.default_rng(set_seed))` per tile gives a
whole matching set, flowers with the same painting, as on a real table).
"""

from __future__ import annotations

from types import EllipsisType

import numpy as np

from datasets.faces.base import check_code
from datasets.faces.fonts import cjk_fonts
from datasets.faces.procedural.bamboo import draw_bamboo
from datasets.faces.procedural.bonus import draw_bonus
from datasets.faces.procedural.canvas import Canvas
from datasets.faces.procedural.dots import draw_dots
from datasets.faces.procedural.glyphs import (
    draw_character,
    draw_green_dragon,
    draw_red_dragon,
    draw_white_dragon,
    draw_wind,
)
from datasets.faces.procedural.layout import (
    content_box,
    draw_corner_index,
    draw_free_index,
    index_text,
)
from datasets.faces.procedural.style import random_style
from scoring.tiles import FACES

WIND_LETTERS = {"E": "E", "S": "S", "W": "W", "N": "N"}


class ProceduralSource:
    name = "procedural"
    license = "MIT (this project); drawn with OFL, Arphic, IPA and GPL CJK fonts (docs/sources.md)"
    codes = frozenset(FACES)

    def __init__(self) -> None:
        cjk_fonts()  # raises ArtMissing now, not at the first face, when no CJK font is fetched

    def face(self, code: str, rng: np.random.Generator) -> np.ndarray:
        check_code(self, code)
        return draw_face(code, rng)


def draw_face(
    code: str,
    rng: np.random.Generator,
    index: str | EllipsisType | None = ...,
    index_colour: str = "k",
) -> np.ndarray:
    """One face of a new set design. `index` forces the corner index (its text, or None for
    none) whatever the design would print, in ink `index_colour` ("k", "r", "b", "g"): the
    index reader (`training/train_index_reader.py`) learns from faces whose index says
    nothing about the pattern. By default (...) the design decides, as on real sets."""
    style = random_style(rng)
    canvas = Canvas(style.background)
    suit = code[-1] if code[0].isdigit() else ""
    rank = int(code[0]) if suit else 0
    forced = index
    if index is ...:
        index = None
        if suit in ("m", "p", "s"):
            index = index_text(style, rank)
        elif code in WIND_LETTERS and style.corner_index != "none" and rng.random() < 0.7:
            index = WIND_LETTERS[code]
        index_colour = ""  # the design's: red on some characters
    free_index = index is not None and style.index_free and suit in ("p", "s")
    box = content_box(canvas, style, has_index=index is not None and not free_index)
    if suit == "p":
        draw_dots(canvas, style, box, rank, rng)
    elif suit == "s":
        draw_bamboo(canvas, style, box, rank, rng)
    elif suit == "m":
        draw_character(canvas, style, box, rank, rng)
    elif suit == "h":
        # A flower prints its numeral in its own label layout, not as a corner index.
        draw_bonus(canvas, style, content_box(canvas, style, has_index=False), rank, rng, forced)
        index = None
    elif code == "C":
        draw_red_dragon(canvas, style, box, rng)
    elif code == "F":
        draw_green_dragon(canvas, style, box, rng)
    elif code == "P":
        draw_white_dragon(canvas, style, box, rng)
    else:
        draw_wind(canvas, style, box, code, rng)
    if free_index and index is not None:
        draw_free_index(canvas, style, box, index, rng)
    elif index is not None:
        if not index_colour:
            index_colour = "r" if suit == "m" and rng.random() < 0.3 else "k"
        draw_corner_index(canvas, style, index, index_colour)
    if style.ink_outline or style.ink_shadow or style.ink_gradient:
        canvas.stylize_ink(
            style.background,
            style.ink_outline,
            style.ink_shadow,
            style.ink_gradient,
            style.black,
        )
    if style.ink_fade > 0 or style.ink_blur > 0:
        canvas.wear(style.background, style.ink_fade, style.ink_blur)
    if style.engrave_depth > 0:
        canvas.engrave(style.background, style.engrave_depth)
    return canvas.to_array()
