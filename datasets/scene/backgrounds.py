"""Procedural table tops: felt, wood, cloth, stone, paper and cluttered tables, random colours.

Each texture is drawn flat (a square of table seen from above) and later laid on the table
plane through the camera, so its grain shrinks with distance like a real table top. No
third-party images.
"""

from __future__ import annotations

import cv2
import numpy as np

from datasets.scene.props import scatter_props

TEXTURE_PX = 1024
CLUTTER_MM_PER_TEXEL = 0.4  # the scale the props are drawn at; the renderer lays it so


def _noise(rng: np.random.Generator, size: int, cells: int) -> np.ndarray:
    """Smooth value noise in [0, 1]: random cells upscaled bicubically."""
    grid = rng.random((cells, cells), dtype=np.float32)
    return np.clip(cv2.resize(grid, (size, size), interpolation=cv2.INTER_CUBIC), 0, 1)


def _fractal(rng: np.random.Generator, size: int, octaves: tuple[int, ...]) -> np.ndarray:
    out = np.zeros((size, size), np.float32)
    weight = 1.0
    for cells in octaves:
        out += weight * (_noise(rng, size, cells) - 0.5)
        weight *= 0.55
    return out


def _muted(rng: np.random.Generator, saturation: tuple[float, float] = (0.1, 0.6)) -> np.ndarray:
    """A random BGR colour as rooms have them: any hue, moderate saturation and brightness."""
    hsv = np.uint8([[[rng.uniform(0, 180), rng.uniform(*saturation) * 255, rng.uniform(70, 230)]]])
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)


def _colourize(shade: np.ndarray, base: np.ndarray, spread: float) -> np.ndarray:
    """base * (1 + spread * shade) per channel, saturated to uint8 (OpenCV: fast)."""
    shade = np.maximum(shade.astype(np.float32, copy=False), -1.0 / spread)  # keep it >= 0
    channels = [cv2.convertScaleAbs(shade, alpha=spread * float(b), beta=float(b)) for b in base]
    return cv2.merge(channels)


def felt(rng: np.random.Generator, size: int) -> np.ndarray:
    # Mahjong mats: mostly green or blue, also wine, grey, black, purple; sometimes any colour.
    hues = [
        (60, 110, 30),
        (50, 120, 20),
        (110, 70, 20),
        (120, 60, 0),
        (30, 30, 110),
        (60, 60, 60),
        (30, 30, 30),
        (90, 40, 60),
    ]
    if rng.random() < 0.85:
        base = np.array(hues[rng.integers(len(hues))], np.float32) * rng.uniform(0.7, 1.3)
    else:
        base = _muted(rng, (0.3, 0.8))
    shade = _fractal(rng, size, (4, 16)) * 0.5 + (rng.random((size, size), np.float32) - 0.5) * 0.35
    img = _colourize(shade, base, 0.6)
    if rng.random() < 0.2:  # a mat laid out from its box still shows where it was folded
        folds(rng, img)
    return img


def wood(rng: np.random.Generator, size: int) -> np.ndarray:
    """Planks with long, gently wavering grain: dark latewood bands, fine fibres, seams."""
    tone = rng.uniform(0.45, 1.25)  # from dark walnut to pale pine
    red = rng.uniform(120, 170)  # wood hues: green and blue follow red at fixed shares
    base = np.array([red * rng.uniform(0.35, 0.55), red * rng.uniform(0.6, 0.75), red]) * tone
    base = np.clip(base, 0, 255).astype(np.float32)
    rows = np.arange(size, dtype=np.float32)[:, None]
    planks = rng.random() < 0.6
    period = int(rng.uniform(100, 300)) if planks else size + 1
    plank = (np.arange(size) // period)[:, None]
    count = int(plank.max()) + 1
    # Grain wavers slowly along the plank (x), so the noise has few cells across x.
    wave = cv2.resize(
        rng.random((6, 3), dtype=np.float32), (size, size), interpolation=cv2.INTER_CUBIC
    )
    offset = rng.uniform(0, 200, count).astype(np.float32)[plank]
    warp = wave * np.float32(rng.uniform(5, 30)) + offset
    spacing = np.float32(rng.uniform(6, 25))  # texels between growth rings
    phase = (rows + warp) / spacing
    phase -= np.floor(phase)
    rings = cv2.pow(phase, float(rng.uniform(3, 8)))  # sharp dark latewood edge, soft earlywood
    fibres = cv2.resize(rng.random((size // 2, 10), dtype=np.float32), (size, size))
    tint = rng.normal(0, 0.06, count).astype(np.float32)[plank]
    shade = -0.3 * rings + 0.25 * (fibres - 0.5) + tint + _fractal(rng, size, (5,)) * 0.2
    if planks:
        shade[(np.arange(size) % period) < 2] -= 0.5
    return _colourize(shade, base, 0.6)


def cloth(rng: np.random.Generator, size: int) -> np.ndarray:
    base = _muted(rng)
    y, x = np.mgrid[0:size, 0:size].astype(np.float32)
    period = rng.uniform(3, 8)
    weave = np.sin(x * 2 * np.pi / period) * np.sin(y * 2 * np.pi / period)
    shade = 0.15 * weave + _fractal(rng, size, (3, 12)) * 0.3
    if rng.random() < 0.4:  # checks or stripes
        stripe = rng.uniform(20, 80)
        shade += 0.25 * (np.sin(x * 2 * np.pi / stripe) > 0.6)
        if rng.random() < 0.5:
            shade += 0.25 * (np.sin(y * 2 * np.pi / stripe) > 0.6)
    elif rng.random() < 0.25:  # a printed motif: squares, dots or flowers on a grid
        _motifs(rng, shade)
    img = _colourize(shade, base, 0.6)
    if rng.random() < 0.5:
        folds(rng, img)
    return img


def _motifs(rng: np.random.Generator, shade: np.ndarray) -> None:
    """Small shapes repeated on a grid, as printed table cloths have: tile-sized, on purpose."""
    size = shade.shape[0]
    step = rng.uniform(30, 90)
    r = step * rng.uniform(0.15, 0.35)
    square = rng.random() < 0.5
    for yy in np.arange(step / 2, size, step):
        for xx in np.arange(step / 2 + (step / 2 if rng.random() < 0.3 else 0), size, step):
            if square:
                p0, p1 = (int(xx - r), int(yy - r * 1.3)), (int(xx + r), int(yy + r * 1.3))
                cv2.rectangle(shade, p0, p1, 0.35, -1, cv2.LINE_AA)
            else:
                for k in range(5):  # five petals
                    a = 2 * np.pi * k / 5
                    petal = (int(xx + np.cos(a) * r * 0.6), int(yy + np.sin(a) * r * 0.6))
                    cv2.circle(shade, petal, max(1, int(r * 0.45)), 0.35, -1, cv2.LINE_AA)


def folds(rng: np.random.Generator, img: np.ndarray) -> None:
    """Creases of a cloth laid straight from its fold: each a lit band beside a shaded one,
    soft-edged, straight across the texture. In place."""
    size = img.shape[0]
    y, x = np.mgrid[0:size, 0:size].astype(np.float32)
    light = np.ones((size, size), np.float32)
    for _ in range(int(rng.integers(1, 4))):
        a = rng.uniform(0, np.pi)
        d = (x - size / 2) * np.cos(a) + (y - size / 2) * np.sin(a) - rng.uniform(-0.4, 0.4) * size
        width = rng.uniform(4, 25)
        ridge = np.exp(-((d / width) ** 2))
        light *= 1 + rng.uniform(0.15, 0.35) * ridge * np.tanh(d / (width * 0.4))
    img[:] = np.clip(img * light[..., None], 0, 255).astype(np.uint8)


def stone(rng: np.random.Generator, size: int) -> np.ndarray:
    base = np.full(3, rng.uniform(80, 235), np.float32) + rng.normal(0, 12, 3).astype(np.float32)
    half = size // 2  # veins are smooth: draw them at half size, speckle at full size
    y, x = np.mgrid[0:half, 0:half].astype(np.float32)
    turb = _fractal(rng, half, (3, 6, 12, 24))
    angle = rng.uniform(0, np.pi)
    veins = np.abs(
        np.sin((x * np.cos(angle) + y * np.sin(angle)) * rng.uniform(0.02, 0.08) + turb * 8)
    )
    shade = -0.5 * (veins < 0.08) * rng.uniform(0.3, 1) + turb * 0.25
    shade = cv2.resize(cv2.GaussianBlur(shade, (0, 0), 0.7), (size, size))
    shade += (rng.random((size, size), np.float32) - 0.5) * 0.08  # speckle
    return _colourize(shade, base, 0.6)


def paper(rng: np.random.Generator, size: int) -> np.ndarray:
    base = np.array(
        [rng.uniform(200, 245), rng.uniform(215, 250), rng.uniform(225, 252)], np.float32
    )
    shade = _fractal(rng, size, (2, 8)) * 0.1 + (rng.random((size, size), np.float32) - 0.5) * 0.05
    img = _colourize(shade, base, 1.0)
    if rng.random() < 0.5:  # ruled or printed lines
        step = int(rng.uniform(25, 60))
        for yy in range(step, size, step):
            cv2.line(img, (0, yy), (size, yy), (200, 170, 150), 1, cv2.LINE_AA)
    return img


def glass(rng: np.random.Generator, size: int) -> np.ndarray:
    """A glass table top: the dim floor seen through it, and the room mirrored in it (window
    panes with their bars, a lamp), soft and bright."""
    base = _muted(rng, (0.0, 0.3)) * rng.uniform(0.3, 0.7)
    img = _colourize(_fractal(rng, size, (2, 5)) * 0.6, base, 0.8).astype(np.float32)
    glow = np.zeros((size, size), np.float32)
    for _ in range(int(rng.integers(1, 4))):
        x0, y0 = rng.uniform(-0.2, 0.9, 2) * size
        w, h = rng.uniform(0.15, 0.6, 2) * size
        pane = np.zeros_like(glow)
        cv2.rectangle(pane, (int(x0), int(y0)), (int(x0 + w), int(y0 + h)), 1.0, -1)
        bars = max(2, int(size * 0.01))
        cv2.line(pane, (int(x0 + w / 2), int(y0)), (int(x0 + w / 2), int(y0 + h)), 0.0, bars)
        cv2.line(pane, (int(x0), int(y0 + h / 2)), (int(x0 + w), int(y0 + h / 2)), 0.0, bars)
        glow = np.maximum(glow, pane * rng.uniform(0.3, 0.8))
    if rng.random() < 0.5:
        centre = (int(rng.uniform(0, size)), int(rng.uniform(0, size)))
        cv2.circle(glow, centre, int(rng.uniform(0.03, 0.1) * size), 1.0, -1)
    glow = cv2.GaussianBlur(glow, (0, 0), rng.uniform(2, 12))[..., None]
    return np.clip(img * (1 - glow) + 240 * glow, 0, 255).astype(np.uint8)


def clutter(rng: np.random.Generator, size: int, count: int | None = None) -> np.ndarray:
    """Any table top with things on it: phones, coins, cups, sticks, score sheets, and things
    that look like tiles: keyboards, keypads, dominoes, cards, chips."""
    img = TABLES[rng.integers(len(TABLES))](rng, size)
    px_per_mm = size / TEXTURE_PX / CLUTTER_MM_PER_TEXEL  # smaller textures stand for the same mm
    scatter_props(rng, img, px_per_mm=px_per_mm, count=count or int(rng.integers(3, 12)))
    return img


TABLES = (felt, wood, cloth, stone, paper, glass)
KINDS = {
    "felt": felt,
    "wood": wood,
    "cloth": cloth,
    "stone": stone,
    "paper": paper,
    "glass": glass,
    "clutter": clutter,
}
WEIGHTS = {
    "felt": 0.28,
    "wood": 0.23,
    "cloth": 0.12,
    "stone": 0.08,
    "paper": 0.05,
    "glass": 0.04,
    "clutter": 0.2,
}


def table_texture(
    rng: np.random.Generator, kind: str | None = None, px: int = TEXTURE_PX
) -> tuple[np.ndarray, str]:
    """A square BGR texture of the table top (`px` on a side) and the kind drawn.

    Small pictures get small textures: a texel stays about a pixel near the tiles.
    """
    if kind is None:
        names = list(WEIGHTS)
        kind = str(rng.choice(names, p=np.array(list(WEIGHTS.values())) / sum(WEIGHTS.values())))
    texture = KINDS[kind](rng, px)
    if rng.random() < 0.3:
        _table_edge(rng, texture)
    return texture, kind


def _table_edge(rng: np.random.Generator, texture: np.ndarray) -> None:
    """Where the playing surface ends: a rim of another material past a straight seam (the
    raised frame of an automatic table, the edge of a mat), with a lit lip and a dark groove."""
    size = texture.shape[0]
    rim = (wood if rng.random() < 0.5 else cloth)(rng, size)
    if rng.random() < 0.5:  # plastic frames: flat, dark or light
        rim[:] = np.clip(rng.uniform(20, 230) + rng.normal(0, 8, 3), 0, 255).astype(np.uint8)
    seam = int(rng.uniform(0.6, 0.9) * size)  # the seam lies off the tiles, towards an edge
    texture[seam:] = rim[seam:]
    lip = max(2, int(rng.uniform(2, 8)))
    texture[seam : seam + lip] = np.clip(texture[seam : seam + lip] * 1.3 + 20, 0, 255)
    texture[max(seam - lip, 0) : seam] = (texture[max(seam - lip, 0) : seam] * 0.5).astype(np.uint8)
