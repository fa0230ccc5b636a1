"""A season painted as a tree in that season: blossom in spring, a full green crown in
summer, red and gold leaves falling in autumn, bare branches and snow in winter.

Some sets (Western ones and screen sets among them) paint the four seasons this way, with a
small numeral or with none: the tree is then what names the tile. Drawn for
`datasets.faces.flower_art`; ours, no third-party art.
"""

from __future__ import annotations

import numpy as np
from PIL import ImageDraw

from datasets.faces.procedural.style import pick_shade

Rng = np.random.Generator
RGB = tuple[int, int, int]

BARK = [(90, 60, 30), (110, 70, 40), (70, 45, 25), (60, 50, 45), (130, 80, 40)]
SPRING = [(240, 150, 180), (230, 90, 130), (250, 200, 210), (220, 60, 80), (245, 245, 245)]
SUMMER = [(40, 130, 40), (30, 100, 30), (70, 160, 50), (20, 110, 70), (90, 150, 40)]
AUTUMN = [(210, 60, 30), (230, 120, 20), (240, 180, 30), (180, 40, 30), (200, 90, 40)]
SNOW = [(120, 160, 210), (90, 130, 190), (150, 170, 200)]


def _branches(
    draw: ImageDraw.ImageDraw, rng: Rng, w: int, h: int, bark: RGB, twiggy: bool
) -> list[tuple[float, float]]:
    """A trunk forking two or three times; returns the twig tips."""
    x = w * rng.uniform(0.4, 0.6)
    base, fork = (
        (x, h * rng.uniform(0.86, 0.95)),
        (x + rng.normal(0, w * 0.03), h * rng.uniform(0.5, 0.62)),
    )
    width = max(3, int(w * rng.uniform(0.05, 0.09)))
    draw.line([base, fork], fill=bark, width=width)
    tips = []
    stack = [(fork, -np.pi / 2, h * rng.uniform(0.16, 0.22), width, 0)]
    depth = 3 if twiggy else 2
    while stack:
        (px, py), angle, length, lw, level = stack.pop()
        for _ in range(int(rng.integers(2, 4))):
            a = angle + rng.uniform(-0.75, 0.75)
            end = (px + np.cos(a) * length, py + np.sin(a) * length)
            end = (float(np.clip(end[0], w * 0.06, w * 0.94)), float(np.clip(end[1], h * 0.12, h)))
            thinner = max(1, int(lw * 0.65))
            draw.line([(px, py), end], fill=bark, width=thinner)
            if level + 1 < depth:
                stack.append((end, a, length * 0.7, thinner, level + 1))
            else:
                tips.append(end)
    return tips


def draw_season_tree(draw: ImageDraw.ImageDraw, rng: Rng, season: int, w: int, h: int) -> None:
    """`season` 0 spring, 1 summer, 2 autumn, 3 winter."""
    bark = pick_shade(rng, BARK, 20)
    tips = _branches(draw, rng, w, h, bark, twiggy=season in (0, 3))
    if season == 0:  # blossom along the twigs, a few young leaves
        colour = pick_shade(rng, SPRING, 20)
        for x, y in tips:
            for _ in range(int(rng.integers(1, 4))):
                cx, cy = x + rng.normal(0, w * 0.04), y + rng.normal(0, w * 0.04)
                r = w * rng.uniform(0.025, 0.045)
                draw.ellipse(
                    [cx - r, cy - r, cx + r, cy + r],
                    fill=colour,
                    outline=bark if rng.random() < 0.3 else None,
                )
                draw.ellipse(
                    [cx - r * 0.3, cy - r * 0.3, cx + r * 0.3, cy + r * 0.3], fill=(230, 190, 40)
                )
    elif season == 1:  # a full green crown hiding the branches
        greens = [pick_shade(rng, SUMMER, 20) for _ in range(3)]
        for _ in range(2):
            for x, y in tips:
                r = w * rng.uniform(0.09, 0.15)
                cx, cy = x + rng.normal(0, w * 0.03), y + rng.normal(0, w * 0.03)
                draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=greens[int(rng.integers(3))])
    elif season == 2:  # a thinner crown of warm leaves, some falling, some on the ground
        for x, y in tips:
            for _ in range(int(rng.integers(2, 5))):
                r = w * rng.uniform(0.03, 0.07)
                cx, cy = x + rng.normal(0, w * 0.05), y + rng.normal(0, w * 0.05)
                draw.ellipse(
                    [cx - r, cy - r * 0.7, cx + r, cy + r * 0.7], fill=pick_shade(rng, AUTUMN, 20)
                )
        for _ in range(int(rng.integers(3, 9))):
            cx, cy = w * rng.uniform(0.1, 0.9), h * rng.uniform(0.6, 0.95)
            r = w * rng.uniform(0.02, 0.04)
            draw.ellipse(
                [cx - r, cy - r * 0.6, cx + r, cy + r * 0.6], fill=pick_shade(rng, AUTUMN, 20)
            )
    else:  # bare, with snow on the ground and in the air
        snow = pick_shade(rng, SNOW, 20)
        ground = h * rng.uniform(0.88, 0.95)
        xs = np.linspace(0, w, 8)
        ys = ground + rng.normal(0, h * 0.01, 8)
        draw.line(
            list(zip(xs.tolist(), ys.tolist(), strict=True)), fill=snow, width=max(2, int(w * 0.02))
        )
        for _ in range(int(rng.integers(0, 10))):
            x, y = w * rng.uniform(0.05, 0.95), h * rng.uniform(0.1, 0.85)
            s = w * rng.uniform(0.012, 0.03)
            for a in (0, np.pi / 3, 2 * np.pi / 3):
                dx, dy = s * np.cos(a), s * np.sin(a)
                draw.line([(x - dx, y - dy), (x + dx, y + dy)], fill=snow, width=1)
