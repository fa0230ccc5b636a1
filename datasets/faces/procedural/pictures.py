"""Small paintings for flower and season tiles: plants in bloom, bamboo, orchids, figures.

What carries across real sets is that the face is a picture, not which picture: every set
paints its own (often the same plant on all eight tiles). So each painting is generated
from random parts the way tile painters build them up: a curving stem, leaves along it,
blossoms at its tips, roots or a pot at its foot; in the set's inks, mostly as bold lines.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from datasets.faces.procedural.canvas import RGB, Canvas
from datasets.faces.procedural.layout import Box
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


@dataclass(frozen=True)
class Brush:
    """The inks and line weight one painting uses."""

    stem: RGB
    leaf: RGB
    petal: RGB
    centre: RGB
    roots: RGB
    width: float  # main stroke width in canvas pixels
    filled_leaves: bool


def _brush(style: Style, box: Box, rng: np.random.Generator) -> Brush:
    w = box[2] - box[0]
    petal_role = str(rng.choice(["r", "b", "r", "k"], p=[0.55, 0.2, 0.15, 0.1]))
    return Brush(
        stem=style.colour("g" if rng.random() < 0.8 else "k"),
        leaf=style.colour("g"),
        petal=style.colour(petal_role),
        centre=style.colour(str(rng.choice(["r", "k", "b", "g"]))),
        roots=style.colour("b" if rng.random() < 0.6 else "k"),
        width=max(2.5, w * float(rng.uniform(0.025, 0.045)) * style.stroke),
        filled_leaves=bool(rng.random() < 0.5),
    )


def draw_painting(
    canvas: Canvas, style: Style, box: Box, kind: str, rng: np.random.Generator
) -> None:
    brush = _brush(style, box, rng)
    {
        "rose": _rose_spray,
        "stem": _flowering_stem,
        "blossom": _blossom_branch,
        "orchid": _orchid,
        "chrysanthemum": _chrysanthemum,
        "bamboo": _bamboo_plant,
        "figure": _figure,
        "pot": _potted_plant,
        "bird_branch": _bird_on_branch,
        "landscape": _landscape,
    }[kind](canvas, style, brush, box, rng)


# --- blossoms ----------------------------------------------------------------------------


def _blossom(
    canvas: Canvas,
    style: Style,
    brush: Brush,
    x: float,
    y: float,
    r: float,
    rng: np.random.Generator,
    kind: str | None = None,
) -> None:
    kind = kind or str(rng.choice(["rose", "five", "chrys", "peony"], p=[0.4, 0.25, 0.15, 0.2]))
    bg = style.background
    lw = max(2.0, brush.width * 0.8)
    if kind == "rose":  # concentric scalloped rings, as most Hong Kong flower tiles paint it
        bumps = int(rng.integers(6, 10))
        for k in range(bumps):
            a = 2 * math.pi * k / bumps
            canvas.circle(
                x + r * 0.72 * math.cos(a), y + r * 0.72 * math.sin(a), r * 0.34, fill=brush.petal
            )
        canvas.circle(x, y, r * 0.8, fill=brush.petal)
        canvas.circle(x, y, r * 0.8 - lw, fill=bg)
        canvas.circle(x, y, r * 0.5, outline=brush.petal, width=lw)
        canvas.circle(x, y, r * 0.18, fill=brush.petal)
    elif kind == "five":  # plum blossom: five round petals
        rot = float(rng.uniform(0, 2 * math.pi))
        outline = rng.random() < 0.5
        for k in range(5):
            a = rot + 2 * math.pi * k / 5
            px, py = x + r * 0.55 * math.cos(a), y + r * 0.55 * math.sin(a)
            if outline:
                canvas.circle(px, py, r * 0.45, fill=bg, outline=brush.petal, width=lw)
            else:
                canvas.circle(px, py, r * 0.45, fill=brush.petal)
        canvas.circle(x, y, r * 0.22, fill=brush.centre)
    elif kind == "chrys":  # many thin rays
        n = int(rng.integers(14, 22))
        for k in range(n):
            a = 2 * math.pi * k / n
            canvas.line(
                [(x, y), (x + r * math.cos(a), y + r * math.sin(a))],
                brush.petal,
                max(2.0, r * 0.16),
            )
        canvas.circle(x, y, r * 0.3, fill=brush.centre)
    else:  # peony: a cup of overlapping petals seen from the side
        for k in range(5):
            a = math.pi + math.pi * k / 4
            canvas.circle(
                x + r * 0.55 * math.cos(a),
                y + r * 0.35 * math.sin(a) - r * 0.1,
                r * 0.42,
                fill=brush.petal,
            )
        canvas.ellipse(x, y + r * 0.2, r * 0.8, r * 0.45, 0, brush.petal)
        canvas.line(
            [(x - r * 0.4, y + r * 0.05), (x, y + r * 0.3), (x + r * 0.4, y + r * 0.05)],
            bg,
            lw * 0.7,
        )


def _leaves_along(
    canvas: Canvas,
    brush: Brush,
    pts: list[tuple[float, float]],
    size: float,
    rng: np.random.Generator,
    count: int,
) -> None:
    for _ in range(count):
        k = int(rng.integers(2, len(pts) - 2))
        (x0, y0), (x1, y1) = pts[k], pts[k + 1]
        along = math.degrees(math.atan2(y1 - y0, x1 - x0))
        side = 1 if rng.random() < 0.5 else -1
        angle = along + side * float(rng.uniform(35, 75))
        length = size * float(rng.uniform(0.7, 1.3))
        canvas.leaf(
            x0,
            y0,
            length,
            length * float(rng.uniform(0.22, 0.35)),
            angle,
            brush.leaf,
            outline_only=not brush.filled_leaves,
            line_width=brush.width * 0.6,
        )


def _roots_or_ground(
    canvas: Canvas, brush: Brush, x: float, y: float, w: float, rng: np.random.Generator
) -> None:
    kind = str(rng.choice(["roots", "grass", "none"], p=[0.4, 0.35, 0.25]))
    if kind == "roots":  # a fan of short strokes, blue on many Hong Kong sets
        for k in range(5):
            a = math.pi / 2 + (k - 2) * 0.4
            canvas.line(
                [(x, y - w * 0.04), (x + math.cos(a) * w * 0.14, y + math.sin(a) * w * 0.06)],
                brush.roots,
                brush.width * 0.8,
            )
    elif kind == "grass":
        for _ in range(int(rng.integers(3, 7))):
            gx = x + w * float(rng.uniform(-0.3, 0.3))
            canvas.curve(
                (gx, y),
                (gx, y - w * 0.1),
                (gx + w * float(rng.uniform(-0.15, 0.15)), y - w * 0.15),
                (gx + w * float(rng.uniform(-0.2, 0.2)), y - w * float(rng.uniform(0.12, 0.25))),
                brush.leaf,
                brush.width * 0.7,
                taper=0.3,
            )


# --- paintings ---------------------------------------------------------------------------


def _flowering_stem(
    canvas: Canvas, style: Style, brush: Brush, box: Box, rng: np.random.Generator
) -> None:
    """The commonest flower-tile picture: one or two curving stems, leaves, blossoms on top."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    base = (x0 + w * float(rng.uniform(0.4, 0.6)), y1 - h * 0.04)
    kind = str(rng.choice(["rose", "five", "chrys", "peony"], p=[0.5, 0.2, 0.1, 0.2]))
    tips = []
    for s in range(int(rng.choice([1, 2, 3], p=[0.45, 0.4, 0.15]))):
        top = (x0 + w * float(rng.uniform(0.25, 0.75)), y0 + h * float(rng.uniform(0.1, 0.45)))
        c1 = (base[0] + w * float(rng.uniform(-0.35, 0.35)), base[1] - h * 0.35)
        c2 = (top[0] + w * float(rng.uniform(-0.3, 0.3)), top[1] + h * 0.25)
        pts = canvas.curve(
            base, c1, c2, top, brush.stem, brush.width * (1 if s == 0 else 0.8), taper=0.6
        )
        _leaves_along(canvas, brush, pts, w * 0.2, rng, int(rng.integers(2, 6)))
        tips.append(top)
    for i, (tx, ty) in enumerate(tips):
        r = w * float(rng.uniform(0.13, 0.2)) * (1 if i == 0 else 0.75)
        _blossom(canvas, style, brush, tx, ty, r, rng, kind)
    if rng.random() < 0.5:  # a bud on a side shoot
        bx, by = x0 + w * float(rng.uniform(0.15, 0.85)), y0 + h * float(rng.uniform(0.1, 0.5))
        canvas.curve(
            base,
            (base[0], base[1] - h * 0.3),
            (bx, by + h * 0.2),
            (bx, by),
            brush.stem,
            brush.width * 0.6,
            taper=0.5,
        )
        canvas.ellipse(bx, by, w * 0.04, w * 0.07, float(rng.uniform(-30, 30)), brush.petal)
    _roots_or_ground(canvas, brush, base[0], base[1], w, rng)


def _rose_spray(
    canvas: Canvas, style: Style, brush: Brush, box: Box, rng: np.random.Generator
) -> None:
    """A big blossom low in the middle, leafy twigs fanning up from it, roots or grass below."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cx = x0 + w * float(rng.uniform(0.4, 0.6))
    cy = y0 + h * float(rng.uniform(0.5, 0.68))
    r = w * float(rng.uniform(0.14, 0.22))
    for _ in range(int(rng.integers(1, 4))):  # twigs with paired leaves, drawn first (behind)
        end = (x0 + w * float(rng.uniform(0.0, 1.0)), y0 + h * float(rng.uniform(0.0, 0.45)))
        mid = ((cx + end[0]) / 2 + w * float(rng.uniform(-0.2, 0.2)), (cy + end[1]) / 2)
        pts = canvas.curve((cx, cy), mid, mid, end, brush.stem, brush.width * 0.8, taper=0.5)
        leaf_len = w * float(rng.uniform(0.06, 0.1))
        step = int(rng.integers(3, 5))
        for k in range(3, len(pts) - 1, step):
            (ax, ay), (bx, by) = pts[k], pts[k + 1]
            along = math.degrees(math.atan2(by - ay, bx - ax))
            for side in (-1, 1):
                canvas.leaf(
                    ax,
                    ay,
                    leaf_len,
                    leaf_len * 0.4,
                    along + side * 55,
                    brush.leaf,
                    outline_only=not brush.filled_leaves,
                    line_width=brush.width * 0.5,
                )
        if rng.random() < 0.5:
            canvas.circle(*end, w * 0.035, fill=brush.petal)
    base = (cx + w * float(rng.uniform(-0.1, 0.1)), y1 - h * 0.03)
    canvas.curve((cx, cy), (cx, (cy + base[1]) / 2), base, base, brush.stem, brush.width)
    for side in (-1, 1):  # a pair of big leaves under the blossom
        if rng.random() < 0.7:
            canvas.leaf(
                cx,
                cy + r * 0.6,
                w * float(rng.uniform(0.18, 0.28)),
                w * 0.07,
                90 + side * float(rng.uniform(40, 75)),
                brush.leaf,
                outline_only=not brush.filled_leaves,
                line_width=brush.width * 0.6,
            )
    kind = str(rng.choice(["rose", "peony", "five"], p=[0.6, 0.25, 0.15]))
    _blossom(canvas, style, brush, cx, cy, r, rng, kind)
    _roots_or_ground(canvas, brush, base[0], base[1], w, rng)


def _branch(
    canvas: Canvas,
    brush: Brush,
    start: tuple[float, float],
    angle: float,
    length: float,
    width: float,
    depth: int,
    rng: np.random.Generator,
    tips: list[tuple[float, float]],
) -> None:
    """A recursive crooked branch (plum); tip positions are collected for blossoms."""
    x, y = start
    pts = [(x, y)]
    a = angle
    for _ in range(3):
        a += float(rng.uniform(-0.35, 0.35))
        x += math.cos(a) * length / 3
        y += math.sin(a) * length / 3
        pts.append((x, y))
    canvas.line(pts, brush.stem, width)
    tips.append((x, y))
    if depth <= 0:
        return
    for _ in range(int(rng.integers(1, 3))):
        k = int(rng.integers(1, len(pts)))
        tips.append(pts[k])
        _branch(
            canvas,
            brush,
            pts[k],
            a + float(rng.uniform(-1.0, 1.0)),
            length * float(rng.uniform(0.45, 0.7)),
            width * 0.65,
            depth - 1,
            rng,
            tips,
        )


def _blossom_branch(
    canvas: Canvas, style: Style, brush: Brush, box: Box, rng: np.random.Generator
) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    tips: list[tuple[float, float]] = []
    start = (x0 + w * float(rng.uniform(0.35, 0.65)), y1)
    stem_brush = replace(brush, stem=style.colour("k")) if rng.random() < 0.6 else brush
    _branch(
        canvas,
        stem_brush,
        start,
        -math.pi / 2 + float(rng.uniform(-0.5, 0.5)),
        h * 0.6,
        brush.width * 1.3,
        2,
        rng,
        tips,
    )
    for tx, ty in tips:
        if rng.random() < 0.75:
            _blossom(canvas, style, brush, tx, ty, w * float(rng.uniform(0.08, 0.13)), rng, "five")


def _orchid(canvas: Canvas, style: Style, brush: Brush, box: Box, rng: np.random.Generator) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    bx, by = x0 + w * float(rng.uniform(0.4, 0.6)), y1 - h * 0.04
    for _ in range(int(rng.integers(4, 8))):
        ex = x0 + w * float(rng.uniform(-0.05, 1.05))
        ey = y0 + h * float(rng.uniform(0.05, 0.6))
        canvas.curve(
            (bx, by),
            (bx + (ex - bx) * 0.2, by - h * 0.5),
            (ex, ey + h * 0.1),
            (ex, ey),
            brush.leaf,
            brush.width,
            taper=0.2,
        )
    for _ in range(int(rng.integers(1, 4))):
        fx, fy = x0 + w * float(rng.uniform(0.2, 0.8)), y0 + h * float(rng.uniform(0.15, 0.55))
        canvas.curve(
            (bx, by),
            (bx, by - h * 0.3),
            (fx, fy + h * 0.2),
            (fx, fy),
            brush.stem,
            brush.width * 0.5,
        )
        for k in range(3):
            a = -math.pi / 2 + (k - 1) * 1.0
            canvas.leaf(fx, fy, w * 0.12, w * 0.05, math.degrees(a), brush.petal)
    _roots_or_ground(canvas, brush, bx, by, w, rng)


def _chrysanthemum(
    canvas: Canvas, style: Style, brush: Brush, box: Box, rng: np.random.Generator
) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    base = (x0 + w * 0.5, y1 - h * 0.03)
    heads = [
        (x0 + w * float(rng.uniform(0.25, 0.75)), y0 + h * float(rng.uniform(0.12, 0.5)))
        for _ in range(int(rng.integers(1, 4)))
    ]
    for fx, fy in heads:
        pts = canvas.curve(
            base,
            (base[0], base[1] - h * 0.3),
            (fx, fy + h * 0.2),
            (fx, fy),
            brush.stem,
            brush.width,
        )
        _leaves_along(canvas, brush, pts, w * 0.18, rng, 2)
    for fx, fy in heads:
        _blossom(canvas, style, brush, fx, fy, w * float(rng.uniform(0.12, 0.2)), rng, "chrys")
    _roots_or_ground(canvas, brush, base[0], base[1], w, rng)


def _bamboo_plant(
    canvas: Canvas, style: Style, brush: Brush, box: Box, rng: np.random.Generator
) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    canes = int(rng.integers(1, 4))
    for _ in range(canes):
        cx = x0 + w * float(rng.uniform(0.2, 0.8))
        top = y0 + h * float(rng.uniform(0.0, 0.3))
        lean = w * float(rng.uniform(-0.15, 0.15))
        thick = brush.width * float(rng.uniform(1.3, 2.2))
        canvas.line([(cx, y1), (cx + lean, top)], brush.leaf, thick)
        for t in np.linspace(0.15, 0.9, int(rng.integers(3, 6))):
            y = y1 - (y1 - top) * t
            x = cx + lean * t
            canvas.line(
                [(x - thick * 0.7, y), (x + thick * 0.7, y)],
                style.background,
                max(2.0, thick * 0.25),
            )
    for _ in range(int(rng.integers(2, 5))):  # leaf clusters of three, like a brush painting
        lx, ly = x0 + w * float(rng.uniform(0.1, 0.9)), y0 + h * float(rng.uniform(0.05, 0.7))
        base_angle = float(rng.uniform(-180, 0))
        for k in range(3):
            canvas.leaf(
                lx,
                ly,
                w * float(rng.uniform(0.18, 0.3)),
                w * 0.05,
                base_angle + (k - 1) * 30,
                brush.leaf,
            )
    _roots_or_ground(canvas, brush, x0 + w * 0.5, y1, w, rng)


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
        _blossom(canvas, style, brush, hand[0] + side * w * 0.05, hand[1] - h * 0.25, w * 0.09, rng)


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
    _blossom_branch(canvas, style, brush, (x0, y0 + h * 0.35, x1, y1), rng)
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
