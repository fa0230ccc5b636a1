"""Whole-plant paintings for flower and season tiles: the Hong Kong rose spray, flowering
stems, a plum branch, orchid, chrysanthemum and bamboo, each from random parts."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from datasets.faces.procedural.canvas import Canvas
from datasets.faces.procedural.layout import Box
from datasets.faces.procedural.plant_parts import Brush, blossom, leaves_along, roots_or_ground
from datasets.faces.procedural.style import Style


def flowering_stem(
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
        leaves_along(canvas, brush, pts, w * 0.2, rng, int(rng.integers(2, 6)))
        tips.append(top)
    for i, (tx, ty) in enumerate(tips):
        r = w * float(rng.uniform(0.13, 0.2)) * (1 if i == 0 else 0.75)
        blossom(canvas, style, brush, tx, ty, r, rng, kind)
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
    roots_or_ground(canvas, brush, base[0], base[1], w, rng)


def rose_spray(
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
    blossom(canvas, style, brush, cx, cy, r, rng, kind)
    roots_or_ground(canvas, brush, base[0], base[1], w, rng)


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


def blossom_branch(
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
            blossom(canvas, style, brush, tx, ty, w * float(rng.uniform(0.08, 0.13)), rng, "five")


def orchid(canvas: Canvas, style: Style, brush: Brush, box: Box, rng: np.random.Generator) -> None:
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
    roots_or_ground(canvas, brush, bx, by, w, rng)


def chrysanthemum(
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
        leaves_along(canvas, brush, pts, w * 0.18, rng, 2)
    for fx, fy in heads:
        blossom(canvas, style, brush, fx, fy, w * float(rng.uniform(0.12, 0.2)), rng, "chrys")
    roots_or_ground(canvas, brush, base[0], base[1], w, rng)


def bamboo_plant(
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
    roots_or_ground(canvas, brush, x0 + w * 0.5, y1, w, rng)
