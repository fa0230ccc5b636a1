"""The 1-bamboo: every set draws its own bird (peacock, sparrow, phoenix...) or a single cane.

Birds are built from parametric parts (body, head, beak, crest, wing, tail, legs, perch)
with random proportions, pose and inks, drawn either as filled shapes or, like most Hong
Kong sets, as bold multi-coloured line art filling the face.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from datasets.faces.procedural.canvas import RGB, Canvas
from datasets.faces.procedural.layout import Box
from datasets.faces.procedural.style import Style


def _inks(style: Style, rng: np.random.Generator) -> list[RGB]:
    roles = ["g", "r", "b", "k", "g", "r"]
    rng.shuffle(roles)
    return [style.colour(r) for r in roles]


@dataclass(frozen=True)
class Pose:
    """Where one bird sits and how it is drawn (every part reads it)."""

    box: Box
    inks: list[RGB]
    facing: float  # +1 looks right, -1 left
    cx: float  # body centre
    cy: float
    rx: float  # body radii
    ry: float
    tilt: float  # body angle, degrees: head up
    lw: float  # line width
    line_art: bool  # outlines (most Hong Kong sets) rather than filled shapes

    @property
    def w(self) -> float:
        return self.box[2] - self.box[0]

    @property
    def h(self) -> float:
        return self.box[3] - self.box[1]


def draw_bird(canvas: Canvas, style: Style, box: Box, rng: np.random.Generator) -> None:
    kind = str(rng.choice(["line", "filled", "cane"], p=[0.5, 0.38, 0.12]))
    if kind == "cane":
        _big_cane(canvas, style, box, rng)
        return
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    inks = _inks(style, rng)
    facing = 1.0 if rng.random() < 0.5 else -1.0
    cx = x0 + w * float(rng.uniform(0.42, 0.58))
    cy = y0 + h * float(rng.uniform(0.4, 0.55))
    rx = w * float(rng.uniform(0.22, 0.32))
    ry = rx * float(rng.uniform(0.55, 0.85))
    tilt = -facing * float(rng.uniform(10, 50))
    lw = max(2.5, w * float(rng.uniform(0.022, 0.04)) * style.stroke)
    pose = Pose(box, inks, facing, cx, cy, rx, ry, tilt, lw, line_art=kind == "line")
    _tail(canvas, pose, rng)
    _body_and_wing(canvas, style, pose, rng)
    _head(canvas, style, pose, rng)
    foot_y = _legs(canvas, pose, rng)
    _perch(canvas, style, pose, foot_y, rng)


def _body_and_wing(canvas: Canvas, style: Style, p: Pose, rng: np.random.Generator) -> None:
    """An egg-shaped body; a leaf-shaped wing from the shoulder back, with feather lines."""
    if p.line_art:
        _ellipse_outline(canvas, p.cx, p.cy, p.rx, p.ry, p.tilt, p.inks[0], p.lw)
    else:
        canvas.ellipse(p.cx, p.cy, p.rx, p.ry, p.tilt, p.inks[0])
    wing_len = p.rx * float(rng.uniform(1.1, 1.6))
    wing_angle = 180 + p.tilt if p.facing > 0 else -p.tilt
    wing_angle += float(rng.uniform(-25, 25))
    sx, sy = p.cx + p.facing * p.rx * 0.2, p.cy - p.ry * 0.3
    canvas.leaf(
        sx,
        sy,
        wing_len,
        p.ry * 0.55,
        wing_angle,
        p.inks[1],
        outline_only=p.line_art,
        line_width=p.lw,
    )
    for k in range(int(rng.integers(2, 5))):
        a = math.radians(wing_angle + (k - 1.5) * 8)
        end = (sx + math.cos(a) * wing_len * 0.8, sy + math.sin(a) * wing_len * 0.8)
        canvas.line([(sx, sy), end], p.inks[2] if p.line_art else style.background, p.lw * 0.5)


def _head(canvas: Canvas, style: Style, p: Pose, rng: np.random.Generator) -> None:
    """Neck, head, beak (straight or hooked), eye and sometimes a crest."""
    head_r = p.ry * float(rng.uniform(0.45, 0.7))
    hx = p.cx + p.facing * p.rx * float(rng.uniform(0.7, 1.0))
    hy = p.cy - p.ry * float(rng.uniform(0.9, 1.6))
    neck = [(p.cx + p.facing * p.rx * 0.5, p.cy - p.ry * 0.4), (hx, hy)]
    canvas.line(neck, p.inks[0], p.lw if p.line_art else head_r * 1.1)
    if p.line_art:
        canvas.circle(hx, hy, head_r, outline=p.inks[0], width=p.lw)
    else:
        canvas.circle(hx, hy, head_r, fill=p.inks[0])
    beak = head_r * float(rng.uniform(0.7, 1.6))
    hooked = rng.random() < 0.3  # parrots and birds of prey
    tip = (hx + p.facing * (head_r + beak), hy + head_r * (0.5 if hooked else 0.1))
    base_x = hx + p.facing * head_r * 0.8
    canvas.draw.polygon(
        [(base_x, hy - head_r * 0.3), tip, (base_x, hy + head_r * 0.35)], fill=p.inks[3]
    )
    eye = (hx + p.facing * head_r * 0.3, hy - head_r * 0.15)
    canvas.circle(
        *eye,
        max(2.0, head_r * 0.28),
        fill=style.background,
        outline=style.black,
        width=max(1.0, p.lw * 0.4),
    )
    canvas.circle(*eye, max(1.0, head_r * 0.12), fill=style.black)
    if rng.random() < 0.6:  # crest
        for k in range(int(rng.integers(2, 5))):
            a = math.radians(-90 - p.facing * (5 + 18 * k))
            end = (hx + math.cos(a) * head_r * 1.6, hy - head_r * 0.6 + math.sin(a) * head_r * 1.4)
            canvas.line([(hx, hy - head_r * 0.7), end], p.inks[1], p.lw * 0.7)
            if rng.random() < 0.5:
                canvas.circle(*end, p.lw * 0.8, fill=p.inks[1])


def _ellipse_outline(
    canvas: Canvas,
    cx: float,
    cy: float,
    rx: float,
    ry: float,
    angle: float,
    colour: RGB,
    width: float,
) -> None:
    a = math.radians(angle)
    pts = []
    for k in range(25):
        t = 2 * math.pi * k / 24
        x, y = rx * math.cos(t), ry * math.sin(t)
        pts.append((cx + x * math.cos(a) - y * math.sin(a), cy + x * math.sin(a) + y * math.cos(a)))
    canvas.line(pts, colour, width)


def _tail(canvas: Canvas, p: Pose, rng: np.random.Generator) -> None:
    kind = str(rng.choice(["fan", "streamers", "short"], p=[0.3, 0.5, 0.2]))
    w, h = p.w, p.h
    if kind == "fan":  # peacock: eyed feathers fanned up behind the body
        n = int(rng.integers(5, 10))
        spread = float(rng.uniform(70, 150))
        for k in range(n):
            ang = math.radians(-90 - p.facing * 35 + spread * (k / max(1, n - 1) - 0.5))
            length = h * float(rng.uniform(0.3, 0.45))
            ex, ey = p.cx + math.cos(ang) * length, p.cy + math.sin(ang) * length
            canvas.line([(p.cx, p.cy), (ex, ey)], p.inks[1], p.lw * 0.8)
            canvas.ellipse(ex, ey, w * 0.075, w * 0.05, math.degrees(ang), p.inks[2])
            canvas.circle(ex, ey, w * 0.025, fill=p.inks[3])
        return
    count = int(rng.integers(3, 7)) if kind == "streamers" else int(rng.integers(2, 4))
    reach = h * (
        float(rng.uniform(0.3, 0.5)) if kind == "streamers" else float(rng.uniform(0.15, 0.25))
    )
    for k in range(count):
        start = (p.cx - p.facing * p.rx * 0.7, p.cy + p.rx * 0.1)
        spread = (k - count / 2) * float(rng.uniform(0.04, 0.09))
        end = (
            start[0] - p.facing * w * float(rng.uniform(0.05, 0.3)) + spread * w,
            start[1] + reach,
        )
        ctrl = (start[0] - p.facing * w * 0.25, start[1] + reach * 0.3)
        canvas.curve(
            start,
            ctrl,
            (end[0], end[1] - reach * 0.3),
            end,
            p.inks[1 + k % 3],
            p.lw * float(rng.uniform(0.8, 1.6)),
            taper=0.4,
        )


def _legs(canvas: Canvas, p: Pose, rng: np.random.Generator) -> float:
    """Two legs with three toes each; returns where the feet stand."""
    foot_y = min(p.box[3] - p.h * 0.02, p.cy + p.ry + p.h * float(rng.uniform(0.06, 0.14)))
    for dx in (-0.2, 0.2):
        lx = p.cx + dx * p.rx
        fx = lx + p.facing * p.w * 0.02
        canvas.line([(lx, p.cy + p.ry * 0.7), (fx, foot_y)], p.inks[3], p.lw * 0.6)
        for toe in (-1, 0, 1):
            canvas.line(
                [(fx, foot_y), (fx + toe * p.w * 0.04, foot_y + p.h * 0.015)], p.inks[3], p.lw * 0.5
            )
    return foot_y


def _perch(canvas: Canvas, style: Style, p: Pose, foot_y: float, rng: np.random.Generator) -> None:
    """A bamboo cane (the suit's emblem), a branch with leaves, tufts of grass, or nothing."""
    x0, _, x1, y1 = p.box
    w, h = p.w, p.h
    perch = str(rng.choice(["branch", "ground", "cane", "none"], p=[0.4, 0.25, 0.2, 0.15]))
    if perch == "cane":
        cane_x = p.cx + float(rng.uniform(-0.1, 0.1)) * w
        thick = w * float(rng.uniform(0.07, 0.11))
        colour = style.colour("g")
        canvas.line([(cane_x, foot_y), (cane_x, y1)], colour, thick)
        for t in (0.33, 0.66):
            y = foot_y + (y1 - foot_y) * t
            canvas.line([(cane_x - thick * 0.7, y), (cane_x + thick * 0.7, y)], colour, thick * 0.4)
        canvas.line(
            [(cane_x - thick * 0.8, foot_y), (cane_x + thick * 0.8, foot_y)], colour, thick * 0.5
        )
    elif perch == "branch":
        colour = style.colour("g" if rng.random() < 0.5 else "k")
        canvas.curve(
            (x0, foot_y + p.lw),
            (x0 + w * 0.3, foot_y - h * 0.03),
            (x1 - w * 0.3, foot_y + h * 0.03),
            (x1, foot_y - p.facing * h * 0.05),
            colour,
            p.lw * 1.5,
            taper=0.5,
        )
        for _ in range(int(rng.integers(1, 4))):
            lx = x0 + w * float(rng.uniform(0.1, 0.9))
            canvas.leaf(
                lx, foot_y, w * 0.16, w * 0.05, float(rng.uniform(20, 160)), style.colour("g")
            )
    elif perch == "ground":
        for _ in range(int(rng.integers(3, 6))):
            gx = x0 + w * float(rng.uniform(0.1, 0.9))
            top = (gx + w * float(rng.uniform(-0.05, 0.05)), foot_y - h * 0.06)
            canvas.line([(gx, foot_y + h * 0.02), top], style.colour("g"), p.lw * 0.6)


def _big_cane(canvas: Canvas, style: Style, box: Box, rng: np.random.Generator) -> None:
    """Some sets print the 1-bamboo as one large cane with leaves instead of a bird."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cx = x0 + w * 0.5
    thick = w * float(rng.uniform(0.14, 0.22))
    colour = style.colour("g" if rng.random() < 0.7 else "b")
    canvas.line([(cx, y0 + h * 0.08), (cx, y1 - h * 0.05)], colour, thick)
    for t in np.linspace(0.2, 0.85, int(rng.integers(3, 5))):
        y = y0 + h * t
        canvas.line([(cx - thick * 0.8, y), (cx + thick * 0.8, y)], style.colour("r"), thick * 0.25)
    for _ in range(int(rng.integers(2, 5))):
        side = 1 if rng.random() < 0.5 else -1
        y = y0 + h * float(rng.uniform(0.15, 0.7))
        canvas.leaf(
            cx + side * thick * 0.4,
            y,
            w * 0.3,
            w * 0.07,
            -90 + side * float(rng.uniform(30, 80)),
            style.colour("g"),
        )
