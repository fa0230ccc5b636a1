"""Dragons drawn as beasts: some Western and novelty sets paint the three dragon tiles as
creatures (a red one for 中, a green one for 發, a white one, outlined, for 白) instead of
printing the characters. Each is a lizard-like body along a random curve, seen from the side
or from above, with a horned head, legs with claws and sometimes a spiny back.

The shape is drawn into a mask first, so a white beast can be drawn as an outline round a
face-coloured body.
"""

from __future__ import annotations

import math

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

from datasets.faces.procedural.canvas import RGB, Canvas, bezier
from datasets.faces.procedural.layout import Box

Point = tuple[float, float]


def draw_creature(
    canvas: Canvas,
    box: Box,
    body: RGB,
    outline: RGB | None,
    marks: RGB,
    rng: np.random.Generator,
) -> None:
    """One beast filling `box`: `body` ink, an `outline` round it (None: none), eye and
    scales in `marks`."""
    mask = Image.new("L", canvas.image.size, 0)
    pen = ImageDraw.Draw(mask)
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    spine = _spine(box, rng)
    girth = min(w, h) * float(rng.uniform(0.07, 0.11))
    for k, (x, y) in enumerate(spine):
        t = k / (len(spine) - 1)
        # thick behind the head, a neck, the belly, then a tail tapering to a point
        r = (
            girth
            * (0.75 + 0.45 * math.sin(math.pi * min(1.0, t / 0.7)))
            * (1 - 0.85 * max(0.0, t - 0.6) / 0.4)
        )
        pen.ellipse((x - r, y - r, x + r, y + r), fill=255)
    head_dir = _direction(spine[1], spine[0])
    head_len = girth * float(rng.uniform(2.2, 3.2))
    head = (
        spine[0][0] + head_dir[0] * head_len * 0.35,
        spine[0][1] + head_dir[1] * head_len * 0.35,
    )
    _polygon(pen, _ellipse_points(head, head_len * 0.6, girth * 1.1, head_dir), 255)
    lw = max(3.0, girth * 0.45)
    for t in (0.22, 0.55):
        k = round(t * (len(spine) - 1))
        d = _direction(spine[k - 1], spine[k + 1])
        for side in (1.0, -1.0):
            _leg(pen, spine[k], d, side, girth, lw, rng)
    horn_base = (head[0] - head_dir[0] * head_len * 0.2, head[1] - head_dir[1] * head_len * 0.2)
    for side in (1.0, -1.0):
        tip = _along(horn_base, head_dir, -head_len * 0.9, side * girth * 1.4)
        pen.line([horn_base, tip], fill=255, width=round(lw * 0.8))
    if rng.random() < 0.6:  # a spiny back
        for k in range(3, len(spine) - 4, 2):
            d = _direction(spine[k - 1], spine[k + 1])
            base = _along(spine[k], d, 0.0, -girth * 0.8)
            tip = _along(spine[k], d, girth * 0.3, -girth * 1.9)
            back = _along(spine[k], d, girth * 1.0, -girth * 0.8)
            _polygon(pen, [base, tip, back], 255)
    if outline is not None:
        size = 2 * max(1, round(lw * 0.6)) + 1
        canvas.image.paste(outline, mask=mask.filter(ImageFilter.MaxFilter(size)))
    canvas.image.paste(body, mask=mask)
    canvas.draw = ImageDraw.Draw(canvas.image)
    eye = _along(head, head_dir, head_len * 0.05, girth * 0.45)
    canvas.circle(*eye, max(2.0, girth * 0.35), fill=marks)
    for k in range(4, len(spine) - 6, 3):  # scales or stripes down the body
        canvas.circle(*spine[k], max(1.5, girth * 0.22), fill=marks)


def _spine(box: Box, rng: np.random.Generator) -> list[Point]:
    """A curve from the head to the tail tip: across the face (seen from the side) or down
    it (seen from above), bending once or twice."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0

    def at(u: float, v: float) -> Point:
        return x0 + w * u, y0 + h * v

    if rng.random() < 0.5:  # from the side: head high at one end, tail at the other
        flip = rng.random() < 0.5
        us = [0.18, 0.4, 0.65, 0.85]
        vs = [
            float(rng.uniform(0.15, 0.3)),
            float(rng.uniform(0.45, 0.7)),
            float(rng.uniform(0.3, 0.6)),
            float(rng.uniform(0.6, 0.85)),
        ]
        pts = [at(1 - u if flip else u, v) for u, v in zip(us, vs, strict=True)]
    else:  # from above: head at the top, the tail curling at the bottom
        sway = float(rng.uniform(-0.25, 0.25))
        pts = [at(0.5, 0.12), at(0.5 + sway, 0.4), at(0.5 - sway, 0.65), at(0.5 + 1.2 * sway, 0.9)]
    return bezier(pts[0], pts[1], pts[2], pts[3], 24)


def _leg(
    pen: ImageDraw.ImageDraw,
    hip: Point,
    d: Point,
    side: float,
    girth: float,
    lw: float,
    rng: np.random.Generator,
) -> None:
    """A bent leg out of the body on one side, with three claws."""
    knee = _along(hip, d, float(rng.uniform(-0.5, 0.5)) * girth, side * girth * 2.0)
    foot = _along(knee, d, float(rng.uniform(-1.2, 1.2)) * girth, side * girth * 1.0)
    pen.line([hip, knee, foot], fill=255, width=round(lw), joint="curve")
    for spread in (-0.8, 0.0, 0.8):
        claw = _along(foot, d, spread * girth, side * girth * 0.7)
        pen.line([foot, claw], fill=255, width=max(1, round(lw * 0.5)))


def _direction(a: Point, b: Point) -> Point:
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = math.hypot(dx, dy) or 1.0
    return dx / n, dy / n


def _along(p: Point, d: Point, ahead: float, across: float) -> Point:
    """`p` moved `ahead` along the unit direction `d` and `across` to its left."""
    return p[0] + d[0] * ahead - d[1] * across, p[1] + d[1] * ahead + d[0] * across


def _ellipse_points(centre: Point, rx: float, ry: float, d: Point) -> list[Point]:
    pts = []
    for k in range(20):
        t = 2 * math.pi * k / 20
        pts.append(_along(centre, d, rx * math.cos(t), ry * math.sin(t)))
    return pts


def _polygon(pen: ImageDraw.ImageDraw, pts: list[Point], fill: int) -> None:
    pen.polygon(pts, fill=fill)
