"""Glyph faces: characters (numeral over 萬), winds, and the three dragons."""

from __future__ import annotations

import numpy as np

from datasets.faces.procedural.canvas import RGB, Canvas
from datasets.faces.procedural.layout import CHINESE_NUMERALS, Box, sub_box
from datasets.faces.procedural.style import Style

WIND_GLYPHS = {"E": "東", "S": "南", "W": "西", "N": "北"}
# Characters printed inside the white dragon's frame by some Hong Kong sets (seen on real
# tiles: a word of a phrase, different per set); any glyph will do, the frame is the cue.
# Never 發 or 中 (other tiles); not the words of the camerash sets we measure on.
FRAME_FILLERS = "福財壽喜龍鳳吉祥如意平安富貴興旺和順"


def draw_character(
    canvas: Canvas, style: Style, box: Box, rank: int, rng: np.random.Generator
) -> None:
    """Characters (萬): a dark numeral above a red 萬."""
    numeral = CHINESE_NUMERALS[rank - 1]
    if rank == 5 and rng.random() < 0.35:
        numeral = "伍"  # the formal five, common on Hong Kong and Japanese sets
    split = float(rng.uniform(0.3, 0.46))  # Hong Kong sets print a small numeral, a big 萬
    gap = 0.03
    top_role = str(rng.choice(["b", "k", "g"], p=[0.5, 0.45, 0.05]))
    if style.japanese:
        top_role = "k"  # riichi sets print the numeral black
    bottom_role = "r"
    if style.japanese and rank == 5 and rng.random() < 0.5:
        top_role = "r"
    # The simplified 万 on mainland and some digital sets: a quarter of the faces, so the
    # reader does not tie the suit to the one traditional glyph (held-out KDE sets print 万).
    wan = "萬" if rng.random() < 0.75 else "万"
    canvas.glyph(
        numeral,
        style.font,
        sub_box(box, 0.1, 0.0, 0.9, split - gap),
        style.colour(top_role),
        stroke=style.glyph_stroke,
    )
    canvas.glyph(
        wan,
        style.font,
        sub_box(box, 0.0, split + gap, 1.0, 1.0),
        style.colour(bottom_role),
        stroke=style.glyph_stroke,
        keep_aspect=rng.random() < 0.5,
    )


def draw_wind(canvas: Canvas, style: Style, box: Box, code: str, rng: np.random.Generator) -> None:
    role = str(rng.choice(["k", "b", "g"], p=[0.45, 0.5, 0.05]))  # blue on most Hong Kong sets
    if style.japanese:
        role = "k"
    canvas.glyph(
        WIND_GLYPHS[code],
        style.font,
        sub_box(box, 0.02, 0.08, 0.98, 0.92),
        style.colour(role),
        stroke=style.glyph_stroke,
        keep_aspect=rng.random() < 0.6,
    )


def draw_red_dragon(canvas: Canvas, style: Style, box: Box, rng: np.random.Generator) -> None:
    canvas.glyph(
        "中",
        style.font,
        sub_box(box, 0.05, 0.05, 0.95, 0.95),
        style.red,
        stroke=style.glyph_stroke,
        keep_aspect=rng.random() < 0.5,
    )


def draw_green_dragon(canvas: Canvas, style: Style, box: Box, rng: np.random.Generator) -> None:
    # Japanese sets sometimes print 發 in black with green, most sets all green.
    role = "k" if style.japanese and rng.random() < 0.2 else "g"
    canvas.glyph(
        "發",
        style.font,
        sub_box(box, 0.0, 0.05, 1.0, 0.95),
        style.colour(role),
        stroke=style.glyph_stroke,
        keep_aspect=rng.random() < 0.5,
    )


def draw_white_dragon(canvas: Canvas, style: Style, box: Box, rng: np.random.Generator) -> None:
    """白: blank (Japanese), a blue frame (Hong Kong, sometimes with a glyph inside), a frame
    of bars and blocks, or 白."""
    kind = (
        "blank"
        if style.japanese and rng.random() < 0.6
        else str(
            rng.choice(
                ["frame", "frame_glyph", "bars", "glyph", "blank"], p=[0.48, 0.18, 0.14, 0.1, 0.1]
            )
        )
    )
    if kind == "blank":
        return
    if kind == "bars":
        _frame_of_bars(canvas, style, box, rng)
        return
    if kind == "glyph":
        colour = style.colour("b" if rng.random() < 0.6 else "k")
        canvas.glyph(
            "白", style.font, sub_box(box, 0.05, 0.1, 0.95, 0.9), colour, stroke=style.glyph_stroke
        )
        return
    colour = style.colour(str(rng.choice(["b", "g", "k"], p=[0.75, 0.15, 0.1])))
    frame, outer = _frame(canvas, style, box, colour, rng)
    if kind == "frame" and rng.random() < 0.2:
        _tied_box(canvas, frame, colour, max(2.0, outer * 0.4))
    if kind == "frame_glyph":
        filler = FRAME_FILLERS[int(rng.integers(len(FRAME_FILLERS)))]
        role = "r" if rng.random() < 0.6 else "b"
        canvas.glyph(filler, style.font, sub_box(frame, 0.3, 0.3, 0.7, 0.7), style.colour(role))


def _frame(
    canvas: Canvas, style: Style, box: Box, colour: RGB, rng: np.random.Generator
) -> tuple[Box, float]:
    """A single or double frame, sometimes with notched corners; returns it and its weight."""
    inset = float(rng.uniform(0.0, 0.1))
    x0, y0, x1, y1 = sub_box(box, inset, inset * 0.75, 1 - inset, 1 - inset * 0.75)
    w = x1 - x0
    outer = w * float(rng.uniform(0.06, 0.12)) * style.stroke
    radius = w * float(rng.uniform(0.0, 0.12))
    canvas.rounded_rect((x0, y0, x1, y1), radius, outline=colour, width=outer)
    if rng.random() < 0.75:  # the inner thin line of a double frame
        g = outer + w * float(rng.uniform(0.04, 0.1))
        thin = max(2.0, outer * float(rng.uniform(0.25, 0.5)))
        canvas.rounded_rect(
            (x0 + g, y0 + g, x1 - g, y1 - g), radius * 0.6, outline=colour, width=thin
        )
    if rng.random() < 0.3:  # notched corners, a common ornament
        n = w * 0.1
        for cx, cy in ((x0, y0), (x1, y0), (x0, y1), (x1, y1)):
            canvas.draw.rectangle((cx - n / 2, cy - n / 2, cx + n / 2, cy + n / 2), fill=colour)
    return (x0, y0, x1, y1), outer


def _frame_of_bars(canvas: Canvas, style: Style, box: Box, rng: np.random.Generator) -> None:
    """A frame built of short bars with blocks (or gaps) between them, the blocks often in a
    second ink, as some sets print it."""
    inks = ["k", "b", "g", "r"]
    bar = style.colour(str(rng.choice(inks, p=[0.45, 0.35, 0.1, 0.1])))
    block = style.colour(str(rng.choice(inks, p=[0.2, 0.2, 0.1, 0.5])))
    inset = float(rng.uniform(0.0, 0.12))
    x0, y0, x1, y1 = sub_box(box, inset, inset * 0.75, 1 - inset, 1 - inset * 0.75)
    t = (x1 - x0) * float(rng.uniform(0.07, 0.13)) * style.stroke  # bar thickness
    square_blocks = rng.random() < 0.8  # else gaps only
    # Bars at least 1.5 blocks long, so each side keeps its bars (a frame of gaps with bars
    # down two sides only would look like a face of canes).
    most_across = max(1, int((x1 - x0) / (2.8 * t)))
    most_down = max(1, int((y1 - y0) / (2.8 * t)))
    across = min(int(rng.integers(2, 5)), most_across)
    down = min(int(rng.integers(3, 6)), most_down)
    for piece, is_block in _frame_rows((x0, y0, x1, y1), t, across, down):
        if is_block and not square_blocks:
            continue
        canvas.draw.rectangle(piece, fill=block if is_block else bar)
    if rng.random() < 0.5:  # an inner line
        g = t * float(rng.uniform(1.4, 2.2))
        canvas.draw.rectangle(
            (x0 + g, y0 + g, x1 - g, y1 - g), outline=bar, width=max(2, round(t * 0.3))
        )


def _frame_rows(frame: Box, t: float, across: int, down: int) -> list[tuple[Box, bool]]:
    """The frame's pieces: (rectangle, is a block) round `frame`, `across` bars along the top
    and bottom, `down` along the sides, a block of side `t` at each corner and between bars."""
    x0, y0, x1, y1 = frame
    pieces: list[tuple[Box, bool]] = []

    def side(a: float, b: float, n: int) -> list[tuple[float, float, bool]]:
        edges = np.linspace(a, b, n + 1)
        spans = []
        for k in range(n):
            lo, hi = float(edges[k]), float(edges[k + 1])
            spans.append((lo - t / 2, lo + t / 2, True))  # the block at each joint
            if hi - lo > t * 1.5:  # room for a bar between the blocks
                spans.append((lo + t / 2 + t * 0.15, hi - t / 2 - t * 0.15, False))
        spans.append((b - t / 2, b + t / 2, True))
        return spans

    for lo, hi, is_block in side(x0 + t / 2, x1 - t / 2, across):
        pieces.append(((lo, y0, hi, y0 + t), is_block))
        pieces.append(((lo, y1 - t, hi, y1), is_block))
    for lo, hi, is_block in side(y0 + t / 2, y1 - t / 2, down):
        if not is_block:
            pieces.append(((x0, lo, x0 + t, hi), False))
            pieces.append(((x1 - t, lo, x1, hi), False))
        elif y0 + t < lo and hi < y1 - t:  # the corners are done by the top and bottom
            pieces.append(((x0, lo, x0 + t, hi), True))
            pieces.append(((x1 - t, lo, x1, hi), True))
    return pieces


def _tied_box(canvas: Canvas, frame: Box, colour: RGB, thin: float) -> None:
    """回-like centre: a small box tied to the middle of each side of the frame."""
    x0, y0, x1, y1 = frame
    ix0, iy0, ix1, iy1 = sub_box(frame, 0.36, 0.38, 0.64, 0.62)
    canvas.draw.rectangle((ix0, iy0, ix1, iy1), outline=colour, width=round(thin))
    mx, my = (ix0 + ix1) / 2, (iy0 + iy1) / 2
    for a, b in (
        ((mx, y0), (mx, iy0)),
        ((mx, iy1), (mx, y1)),
        ((x0, my), (ix0, my)),
        ((ix1, my), (x1, my)),
    ):
        canvas.line([a, b], colour, thin)
