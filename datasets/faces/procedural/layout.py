"""Where things go on a face: the content box inside the margins and the corner index."""

from __future__ import annotations

import cv2
import numpy as np

from datasets.faces.procedural.canvas import Canvas
from datasets.faces.procedural.style import Style

Box = tuple[float, float, float, float]

CHINESE_NUMERALS = "一二三四五六七八九"
BIG_INDEX_WIDTH = 0.24  # of the face width: the column a big index takes


def content_box(canvas: Canvas, style: Style, has_index: bool) -> Box:
    """The area the main pattern fills; a corner index takes a strip off the top, a big one
    a column off its side (some sets print a numeral a quarter of the face wide and shift
    the pattern over: held-out KDE sets read such a 6 of bamboo, two columns and a big 6,
    as the 9)."""
    x0, y0 = canvas.W * style.margin_x, canvas.H * style.margin_y
    x1, y1 = canvas.W - x0, canvas.H - y0
    if has_index and style.index_big:
        if style.index_right:
            x1 -= canvas.W * BIG_INDEX_WIDTH
        else:
            x0 += canvas.W * BIG_INDEX_WIDTH
    elif has_index:
        y0 += canvas.H * 0.08
    return x0, y0, x1, y1


def draw_corner_index(canvas: Canvas, style: Style, text: str, colour_role: str = "k") -> None:
    """A small index (arabic digit, Chinese numeral or wind letter) in a top corner, or a
    big one in the column `content_box` left beside the pattern."""
    size = canvas.H * 0.13
    if style.index_big:  # as wide (0.8 of its height) as the column, less a little
        size = canvas.W * BIG_INDEX_WIDTH * 0.95 / 0.8
    mx = canvas.W * max(0.04, style.margin_x * 0.5)
    my = canvas.H * max(0.03, style.margin_y * 0.5)
    x0 = canvas.W - mx - size * 0.8 if style.index_right else mx
    box = (x0, my, x0 + size * 0.8, my + size)
    canvas.glyph(text, style.small_font, box, style.colour(colour_role), anchor="tl")


def draw_free_index(
    canvas: Canvas,
    style: Style,
    box: Box,
    text: str,
    rng: np.random.Generator,
    colour_role: str = "k",
) -> bool:
    """An index printed in a gap of the pattern (some sets put the 4 between the 4-dot's
    coins), large or small; False when the pattern leaves no gap for it."""
    ink = np.asarray(canvas.image).astype(np.int16)
    ink = np.abs(ink - np.asarray(style.background, np.int16)).max(axis=2) > 24
    free = cv2.distanceTransform((~ink).astype(np.uint8), cv2.DIST_L2, 5)
    size = canvas.H * float(rng.uniform(0.1, 0.18))
    x0, y0, x1, y1 = (round(v) for v in box)
    inside = np.zeros_like(ink)
    inside[y0:y1, x0:x1] = True  # among the pattern, not out in the margin
    spots = np.argwhere((free > size * 0.7) & inside)  # the box's half-diagonal is 0.64
    if not len(spots):
        return False
    # The gap nearest a point about the middle: between the coins, not out at the edge.
    aim = np.array([(y0 + y1) / 2, (x0 + x1) / 2]) + rng.normal(0, 0.2, 2) * [y1 - y0, x1 - x0]
    cy, cx = spots[int(np.argmin(((spots - aim) ** 2).sum(axis=1)))]
    half_w, half_h = size * 0.4, size * 0.5
    box = (cx - half_w, cy - half_h, cx + half_w, cy + half_h)
    canvas.glyph(text, style.small_font, box, style.colour(colour_role))
    return True


def index_text(style: Style, rank: int) -> str | None:
    if style.corner_index == "arabic":
        return str(rank)
    if style.corner_index == "chinese":
        return CHINESE_NUMERALS[rank - 1]
    return None


def sub_box(box: Box, u0: float, v0: float, u1: float, v1: float) -> Box:
    """The part of `box` between fractions (u0, v0) and (u1, v1)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    return x0 + u0 * w, y0 + v0 * h, x0 + u1 * w, y0 + v1 * h
