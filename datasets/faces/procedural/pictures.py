"""Small paintings for flower and season tiles: plants in bloom, bamboo, orchids, figures.

What carries across real sets is that the face is a picture, not which picture: every set
paints its own. So each painting is generated from random parts, roughly in the way the
tile painters work (stems first, then leaves, then blossoms), in the set's colours.
"""

from __future__ import annotations

import math

import numpy as np

from datasets.faces.procedural.canvas import RGB, Canvas
from datasets.faces.procedural.layout import Box
from datasets.faces.procedural.style import Style

# Which painting a flower code prefers, when the set paints the named plant.
PLANT_OF_FLOWER = {1: "blossom", 2: "orchid", 3: "chrysanthemum", 4: "bamboo"}
PAINTINGS = ("blossom", "orchid", "chrysanthemum", "bamboo", "figure", "pot", "bird_branch")


def draw_painting(
    canvas: Canvas, style: Style, box: Box, kind: str, rng: np.random.Generator
) -> None:
    {
        "blossom": _blossom_branch,
        "orchid": _orchid,
        "chrysanthemum": _chrysanthemum,
        "bamboo": _bamboo_plant,
        "figure": _figure,
        "pot": _potted_flower,
        "bird_branch": _bird_on_branch,
    }[kind](canvas, style, box, rng)


def _petal_colour(style: Style, rng: np.random.Generator) -> RGB:
    return style.colour(str(rng.choice(["r", "b", "r", "k"], p=[0.45, 0.25, 0.2, 0.1])))


def _flower(
    canvas: Canvas,
    cx: float,
    cy: float,
    r: float,
    colour: RGB,
    centre: RGB,
    petals: int,
    bg: RGB,
    rng: np.random.Generator,
) -> None:
    rot = float(rng.uniform(0, 2 * math.pi))
    for k in range(petals):
        a = rot + 2 * math.pi * k / petals
        canvas.circle(cx + r * 0.6 * math.cos(a), cy + r * 0.6 * math.sin(a), r * 0.45, fill=colour)
    if rng.random() < 0.5:  # outlined petals look printed rather than filled
        for k in range(petals):
            a = rot + 2 * math.pi * k / petals
            canvas.circle(cx + r * 0.6 * math.cos(a), cy + r * 0.6 * math.sin(a), r * 0.28, fill=bg)
    canvas.circle(cx, cy, r * 0.28, fill=centre)


def _branch(
    canvas: Canvas,
    start: tuple[float, float],
    angle: float,
    length: float,
    width: float,
    colour: RGB,
    depth: int,
    rng: np.random.Generator,
    tips: list[tuple[float, float]],
) -> None:
    """A recursive crooked branch; tip positions are collected for blossoms and leaves."""
    x, y = start
    pts = [(x, y)]
    a = angle
    for _ in range(3):
        a += float(rng.uniform(-0.35, 0.35))
        x += math.cos(a) * length / 3
        y += math.sin(a) * length / 3
        pts.append((x, y))
    canvas.line(pts, colour, width)
    tips.append((x, y))
    if depth <= 0:
        return
    for _ in range(int(rng.integers(1, 3))):
        k = int(rng.integers(1, len(pts)))
        _branch(
            canvas,
            pts[k],
            a + float(rng.uniform(-1.0, 1.0)),
            length * float(rng.uniform(0.45, 0.7)),
            width * 0.65,
            colour,
            depth - 1,
            rng,
            tips,
        )


def _blossom_branch(canvas: Canvas, style: Style, box: Box, rng: np.random.Generator) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    tips: list[tuple[float, float]] = []
    stem = style.colour("k") if rng.random() < 0.5 else style.colour("g")
    _branch(
        canvas,
        (x0 + w * float(rng.uniform(0.3, 0.7)), y1),
        -math.pi / 2 + float(rng.uniform(-0.4, 0.4)),
        h * 0.55,
        w * 0.05,
        stem,
        2,
        rng,
        tips,
    )
    colour = _petal_colour(style, rng)
    for tx, ty in tips:
        if rng.random() < 0.8:
            _flower(
                canvas,
                tx,
                ty,
                w * float(rng.uniform(0.07, 0.12)),
                colour,
                style.colour("g"),
                5,
                style.background,
                rng,
            )


def _leaf(
    canvas: Canvas, x: float, y: float, length: float, angle: float, colour: RGB, width: float
) -> None:
    """A long curved leaf drawn as a tapered arc."""
    pts = []
    for t in np.linspace(0, 1, 8):
        a = angle + 0.6 * t
        pts.append((x + math.cos(a) * length * t, y + math.sin(a) * length * t))
    canvas.line(pts, colour, width)


def _orchid(canvas: Canvas, style: Style, box: Box, rng: np.random.Generator) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    bx, by = x0 + w * 0.5, y1 - h * 0.05
    green = style.colour("g")
    for _ in range(int(rng.integers(4, 8))):
        a = -math.pi / 2 + float(rng.uniform(-1.0, 1.0))
        _leaf(
            canvas,
            bx,
            by,
            h * float(rng.uniform(0.4, 0.75)),
            a - 0.3,
            green,
            w * 0.03 * style.stroke,
        )
    colour = _petal_colour(style, rng)
    for _ in range(int(rng.integers(2, 4))):
        fx, fy = bx + w * float(rng.uniform(-0.35, 0.35)), y0 + h * float(rng.uniform(0.15, 0.5))
        canvas.line([(bx, by), (fx, fy)], green, w * 0.015)
        for k in range(3):
            a = -math.pi / 2 + (k - 1) * 0.9
            canvas.ellipse(
                fx + math.cos(a) * w * 0.06,
                fy + math.sin(a) * w * 0.06,
                w * 0.07,
                w * 0.03,
                math.degrees(a),
                colour,
            )
    _roots(canvas, style, bx, by, w, rng)


def _chrysanthemum(canvas: Canvas, style: Style, box: Box, rng: np.random.Generator) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    green = style.colour("g")
    bx, by = x0 + w * 0.5, y1
    heads = [
        (x0 + w * float(rng.uniform(0.25, 0.75)), y0 + h * float(rng.uniform(0.15, 0.55)))
        for _ in range(int(rng.integers(1, 4)))
    ]
    for fx, fy in heads:
        canvas.line(
            [(bx, by), ((bx + fx) / 2 + w * 0.05, (by + fy) / 2), (fx, fy)], green, w * 0.03
        )
    for _ in range(int(rng.integers(2, 5))):
        canvas.ellipse(
            bx + w * float(rng.uniform(-0.25, 0.25)),
            y0 + h * float(rng.uniform(0.5, 0.85)),
            w * 0.12,
            w * 0.05,
            float(rng.uniform(-40, 40)),
            green,
        )
    colour = _petal_colour(style, rng)
    for fx, fy in heads:
        r = w * float(rng.uniform(0.1, 0.17))
        n = int(rng.integers(12, 20))
        for k in range(n):
            a = 2 * math.pi * k / n
            canvas.line(
                [(fx, fy), (fx + r * math.cos(a), fy + r * math.sin(a))], colour, max(2.0, r * 0.18)
            )
        canvas.circle(fx, fy, r * 0.3, fill=style.colour("k") if rng.random() < 0.3 else colour)


def _bamboo_plant(canvas: Canvas, style: Style, box: Box, rng: np.random.Generator) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    green = style.colour("g")
    for _ in range(int(rng.integers(1, 4))):
        cx = x0 + w * float(rng.uniform(0.25, 0.75))
        top = y0 + h * float(rng.uniform(0.0, 0.3))
        thick = w * float(rng.uniform(0.04, 0.08))
        canvas.line([(cx, y1), (cx + w * float(rng.uniform(-0.1, 0.1)), top)], green, thick)
        for t in np.linspace(0.2, 0.85, 4):
            y = y1 - (y1 - top) * t
            canvas.line(
                [(cx - thick, y), (cx + thick, y)], style.background, max(2.0, thick * 0.25)
            )
    for _ in range(int(rng.integers(3, 8))):
        lx, ly = x0 + w * float(rng.uniform(0.15, 0.85)), y0 + h * float(rng.uniform(0.1, 0.7))
        canvas.ellipse(lx, ly, w * 0.12, w * 0.035, float(rng.uniform(-60, 60)), green)


def _figure(canvas: Canvas, style: Style, box: Box, rng: np.random.Generator) -> None:
    """A standing figure in a robe, as season tiles often paint people at work or leisure."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cx = x0 + w * float(rng.uniform(0.4, 0.6))
    head_y = y0 + h * float(rng.uniform(0.15, 0.3))
    head_r = w * float(rng.uniform(0.08, 0.12))
    robe = _petal_colour(style, rng)
    canvas.draw.polygon(
        [
            (cx - head_r * 0.8, head_y + head_r),
            (cx + head_r * 0.8, head_y + head_r),
            (cx + w * 0.3, y1 - h * 0.05),
            (cx - w * 0.3, y1 - h * 0.05),
        ],
        fill=robe,
    )
    canvas.circle(
        cx, head_y, head_r, fill=style.background, outline=style.black, width=max(2.0, head_r * 0.2)
    )
    canvas.draw.polygon(
        [
            (cx - head_r * 1.2, head_y - head_r * 0.5),
            (cx + head_r * 1.2, head_y - head_r * 0.5),
            (cx, head_y - head_r * 1.8),
        ],
        fill=style.black,
    )
    side = 1 if rng.random() < 0.5 else -1
    hand = (cx + side * w * 0.3, head_y + h * float(rng.uniform(0.1, 0.3)))
    canvas.line([(cx, head_y + head_r * 1.8), hand], robe, w * 0.05)
    if rng.random() < 0.7:  # something carried: a fan, a flower, a staff
        canvas.line(
            [hand, (hand[0] + side * w * 0.05, hand[1] - h * 0.25)], style.colour("k"), w * 0.025
        )
        _flower(
            canvas,
            hand[0] + side * w * 0.05,
            hand[1] - h * 0.25,
            w * 0.08,
            _petal_colour(style, rng),
            style.colour("g"),
            5,
            style.background,
            rng,
        )


def _potted_flower(canvas: Canvas, style: Style, box: Box, rng: np.random.Generator) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    pot_top = y1 - h * 0.22
    pot = style.colour("b" if rng.random() < 0.5 else "g")
    canvas.draw.polygon(
        [
            (x0 + w * 0.25, pot_top),
            (x1 - w * 0.25, pot_top),
            (x1 - w * 0.32, y1),
            (x0 + w * 0.32, y1),
        ],
        fill=pot,
    )
    inner = (x0 + w * 0.1, y0, x1 - w * 0.1, pot_top)
    kind = str(rng.choice(["blossom", "chrysanthemum", "orchid"]))
    draw_painting(canvas, style, inner, kind, rng)


def _bird_on_branch(canvas: Canvas, style: Style, box: Box, rng: np.random.Generator) -> None:
    from datasets.faces.procedural.birds import draw_bird

    x0, y0, x1, y1 = box
    h = y1 - y0
    _blossom_branch(canvas, style, (x0, y0 + h * 0.3, x1, y1), rng)
    draw_bird(canvas, style, (x0, y0, x1, y0 + h * 0.7), rng)


def _roots(
    canvas: Canvas, style: Style, x: float, y: float, w: float, rng: np.random.Generator
) -> None:
    if rng.random() < 0.5:
        colour = style.colour("b" if rng.random() < 0.5 else "k")
        for k in range(5):
            a = math.pi / 2 + (k - 2) * 0.35
            canvas.line(
                [(x, y - w * 0.05), (x + math.cos(a) * w * 0.12, y + math.sin(a) * w * 0.08)],
                colour,
                w * 0.025,
            )
