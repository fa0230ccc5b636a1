"""Small paintings for flower and season tiles: plants in bloom, bamboo, orchids, figures.

What carries across real sets is that the face is a picture, not which picture: every set
paints its own (often the same plant on all eight tiles). So each painting is generated
from random parts the way tile painters build them up: a curving stem, leaves along it,
blossoms at its tips, roots or a pot at its foot; in the set's inks, mostly as bold lines.
Plants are in plants.py, their parts in plant_parts.py; figures and scenes are here.
"""

from __future__ import annotations

import math

import numpy as np

from datasets.faces.procedural import plants
from datasets.faces.procedural.canvas import Canvas
from datasets.faces.procedural.layout import Box
from datasets.faces.procedural.plant_parts import Brush, blossom, make_brush
from datasets.faces.procedural.style import Style

# Which painting a flower code prefers, when the set paints the named plant.
PLANT_OF_FLOWER = {1: "blossom", 2: "orchid", 3: "chrysanthemum", 4: "bamboo"}
PAINTINGS = (
    "rose",
    "stem",
    "blossom",
    "orchid",
    "chrysanthemum",
    "bamboo",
    "figure",
    "pot",
    "bird_branch",
    "landscape",
)
# The Hong Kong rose spray (a big blossom low in the middle, leafy twigs above, roots below)
# is what most real flower and season tiles show, so it leads.
PAINTING_WEIGHTS = (0.34, 0.16, 0.1, 0.08, 0.07, 0.06, 0.05, 0.06, 0.04, 0.04)


def draw_painting(
    canvas: Canvas, style: Style, box: Box, kind: str, rng: np.random.Generator
) -> None:
    brush = make_brush(style, box, rng)
    {
        "rose": plants.rose_spray,
        "stem": plants.flowering_stem,
        "blossom": plants.blossom_branch,
        "orchid": plants.orchid,
        "chrysanthemum": plants.chrysanthemum,
        "bamboo": plants.bamboo_plant,
        "figure": _figure,
        "pot": _potted_plant,
        "bird_branch": _bird_on_branch,
        "landscape": _landscape,
    }[kind](canvas, style, brush, box, rng)


# --- blossoms ----------------------------------------------------------------------------


def _figure(canvas: Canvas, style: Style, brush: Brush, box: Box, rng: np.random.Generator) -> None:
    """A standing figure in a robe, as season tiles often paint people at work or leisure."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cx = x0 + w * float(rng.uniform(0.4, 0.6))
    head_y = y0 + h * float(rng.uniform(0.15, 0.28))
    head_r = w * float(rng.uniform(0.08, 0.11))
    robe = brush.petal
    hem = y1 - h * 0.04
    if rng.random() < 0.5:
        canvas.draw.polygon(
            [
                (cx - head_r * 0.8, head_y + head_r),
                (cx + head_r * 0.8, head_y + head_r),
                (cx + w * 0.3, hem),
                (cx - w * 0.3, hem),
            ],
            fill=robe,
        )
    else:  # robe drawn as outline strokes
        for side in (-1, 1):
            canvas.curve(
                (cx + side * head_r * 0.8, head_y + head_r),
                (cx + side * w * 0.25, head_y + h * 0.3),
                (cx + side * w * 0.2, hem - h * 0.2),
                (cx + side * w * 0.3, hem),
                robe,
                brush.width,
            )
        canvas.line([(cx - w * 0.3, hem), (cx + w * 0.3, hem)], robe, brush.width)
        canvas.line([(cx, head_y + head_r), (cx, hem)], robe, brush.width * 0.5)
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
    canvas.line([(cx, head_y + head_r * 1.8), hand], robe, brush.width * 1.4)
    if rng.random() < 0.7:  # something carried: a flower, a staff
        canvas.line(
            [hand, (hand[0] + side * w * 0.05, hand[1] - h * 0.25)], brush.stem, brush.width * 0.7
        )
        blossom(canvas, style, brush, hand[0] + side * w * 0.05, hand[1] - h * 0.25, w * 0.09, rng)


def _potted_plant(
    canvas: Canvas, style: Style, brush: Brush, box: Box, rng: np.random.Generator
) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    pot_top = y1 - h * float(rng.uniform(0.18, 0.28))
    pot = style.colour("b" if rng.random() < 0.5 else "r")
    shape = [
        (x0 + w * 0.22, pot_top),
        (x1 - w * 0.22, pot_top),
        (x1 - w * 0.3, y1),
        (x0 + w * 0.3, y1),
    ]
    if rng.random() < 0.5:
        canvas.draw.polygon(shape, fill=pot)
    else:
        canvas.line([*shape, shape[0]], pot, brush.width * 0.8)
    inner = (x0 + w * 0.05, y0, x1 - w * 0.05, pot_top)
    kind = str(rng.choice(["stem", "chrysanthemum", "orchid", "blossom"]))
    draw_painting(canvas, style, inner, kind, rng)


def _bird_on_branch(
    canvas: Canvas, style: Style, brush: Brush, box: Box, rng: np.random.Generator
) -> None:
    from datasets.faces.procedural.birds import draw_bird

    x0, y0, x1, y1 = box
    h = y1 - y0
    plants.blossom_branch(canvas, style, brush, (x0, y0 + h * 0.35, x1, y1), rng)
    draw_bird(canvas, style, (x0, y0, x1, y0 + h * 0.7), rng)


def _landscape(
    canvas: Canvas, style: Style, brush: Brush, box: Box, rng: np.random.Generator
) -> None:
    """A small scene (sun or moon, hills, water, a tree), as some sets paint the seasons."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    sun = (x0 + w * float(rng.uniform(0.15, 0.85)), y0 + h * float(rng.uniform(0.1, 0.3)))
    r = w * float(rng.uniform(0.08, 0.14))
    if rng.random() < 0.5:
        canvas.circle(*sun, r, fill=brush.petal)
    else:
        canvas.circle(*sun, r, outline=brush.petal, width=brush.width * 0.7)
        for k in range(8):
            a = math.pi * k / 4
            canvas.line(
                [
                    (sun[0] + r * 1.3 * math.cos(a), sun[1] + r * 1.3 * math.sin(a)),
                    (sun[0] + r * 1.8 * math.cos(a), sun[1] + r * 1.8 * math.sin(a)),
                ],
                brush.petal,
                brush.width * 0.5,
            )
    horizon = y0 + h * float(rng.uniform(0.5, 0.7))
    hill = style.colour("b" if rng.random() < 0.5 else "g")
    for _ in range(int(rng.integers(1, 4))):
        px = x0 + w * float(rng.uniform(0.1, 0.9))
        peak = horizon - h * float(rng.uniform(0.15, 0.35))
        half = w * float(rng.uniform(0.2, 0.4))
        canvas.line([(px - half, horizon), (px, peak), (px + half, horizon)], hill, brush.width)
    for k in range(int(rng.integers(2, 4))):  # water lines
        y = horizon + h * 0.08 * (k + 1)
        xa = x0 + w * float(rng.uniform(0.0, 0.3))
        canvas.curve(
            (xa, y),
            (xa + w * 0.2, y - h * 0.03),
            (xa + w * 0.4, y + h * 0.03),
            (xa + w * 0.6, y),
            hill,
            brush.width * 0.6,
        )
    if rng.random() < 0.7:  # a tree or reeds on the shore
        tx = x0 + w * float(rng.uniform(0.1, 0.9))
        canvas.line([(tx, y1), (tx, horizon - h * 0.1)], brush.stem, brush.width)
        for _ in range(int(rng.integers(3, 6))):
            canvas.leaf(
                tx,
                horizon - h * float(rng.uniform(0.0, 0.15)),
                w * float(rng.uniform(0.12, 0.2)),
                w * 0.05,
                float(rng.uniform(-170, -10)),
                brush.leaf,
            )
