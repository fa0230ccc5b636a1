"""Extra training faces for flowers and seasons (花牌), drawn from scratch at training time.

Hong Kong and Chinese sets print a plant or scene, a corner numeral 1-4 and a corner
character (梅蘭菊竹 / 春夏秋冬, or in some sets an unrelated character). The faces sources give
few such designs, and the classifier then reads a numeral-and-picture tile as a suit tile.
These faces teach the cue that matters: numeral + character + picture = a flower. Every face
carries a cue that tells a flower from the season of the same number: its own character, or,
where the character is an unrelated word or missing, the picture (the flower's own plant; a
landscape for a season). A face with neither is a coin toss between two classes. (Classifier
run N, trained on faces that always carry the cue, named fewer held-out KDE flowers as the
season of their number or back than run L: 65 against 109; on the real-face wins 32 against
34: the real sets' swaps come from elsewhere.) Some sets
print no picture at all, only the flower's character large in the middle, often inside a
thin frame (which the classifier must not take for the framed white dragon): a share of the
faces are drawn that way. They are ours (no third-party art); fonts are the CJK fonts the faces
sources already use.
"""

from __future__ import annotations

import itertools

import numpy as np
from PIL import Image, ImageDraw

from datasets.faces.flower_icons import draw_icon_face
from datasets.faces.fonts import cjk_fonts, load_font
from datasets.faces.procedural.layout import CHINESE_NUMERALS
from datasets.faces.season_trees import draw_season_tree

Rng = np.random.Generator
FLOWER_CHARS = "梅蘭菊竹春夏秋冬"
LETTERED_SHARE = 0.2  # faces with the character alone, no picture
ICON_SHARE = 0.3  # faces with an emblem and a spelled-out name (datasets.faces.flower_icons)
FULL_BLOOM_SHARE = 0.35  # plants with one big peony-like bloom rather than small blossoms
# Plant faces with the numeral alone, no character: many Chinese sets print just 一二三四 (or
# 1-4) over the plant, and a lone red numeral on top otherwise reads as a characters tile.
NUMERAL_ALONE_SHARE = 0.3
# Season faces of the picture kind painted as a tree in that season (datasets.faces.season_trees);
# a share of those print no numeral and no character: the tree names the tile.
SEASON_TREE_SHARE = 0.3
TREE_ALONE_SHARE = 0.4
# Words printed on flower tiles beside the plant. Never take them from the camerash crops
# (such as 券才證首是選耀您): words seen in training flatter that validation measure.
DECOY_CHARS = "福祿壽喜財寶吉祥和平琴棋書畫漁樵耕讀"
INKS = [(200, 30, 30), (20, 20, 20), (30, 60, 180), (30, 120, 50), (220, 80, 120)]
GREENS = [(30, 120, 50), (20, 90, 40), (60, 140, 60), (40, 100, 90)]
BLOSSOMS = [(200, 30, 40), (220, 80, 120), (200, 40, 40), (40, 60, 180), (230, 150, 30)]


def _pick(rng: Rng, palette: list[tuple[int, int, int]]) -> tuple[int, int, int]:
    r, g, b = palette[rng.integers(len(palette))]
    jitter = rng.integers(-25, 26, 3)
    return (
        int(np.clip(r + jitter[0], 0, 255)),
        int(np.clip(g + jitter[1], 0, 255)),
        int(np.clip(b + jitter[2], 0, 255)),
    )


def _curve(
    draw: ImageDraw.ImageDraw,
    rng: Rng,
    p0: np.ndarray,
    p1: np.ndarray,
    colour: tuple[int, int, int],
    width: int,
) -> None:
    bend = rng.normal(0, 0.25) * np.array([-(p1 - p0)[1], (p1 - p0)[0]])
    ctrl = (p0 + p1) / 2 + bend
    t = np.linspace(0, 1, 16)[:, None]
    pts = (1 - t) ** 2 * p0 + 2 * (1 - t) * t * ctrl + t**2 * p1
    draw.line([tuple(p) for p in pts.tolist()], fill=colour, width=width, joint="curve")


def _blossom(
    draw: ImageDraw.ImageDraw, rng: Rng, c: np.ndarray, r: float, colour: tuple[int, int, int]
) -> None:
    petals = int(rng.integers(4, 9))
    phase = rng.uniform(0, 2 * np.pi)
    for k in range(petals):
        a = phase + 2 * np.pi * k / petals
        pc = c + 0.6 * r * np.array([np.cos(a), np.sin(a)])
        pr = r * rng.uniform(0.35, 0.55)
        draw.ellipse(
            [pc[0] - pr, pc[1] - pr, pc[0] + pr, pc[1] + pr],
            outline=colour,
            width=max(1, int(r / 6)),
            fill=colour if rng.random() < 0.5 else None,
        )
    cr = r * 0.25
    draw.ellipse([c[0] - cr, c[1] - cr, c[0] + cr, c[1] + cr], fill=colour)


def _full_bloom(
    draw: ImageDraw.ImageDraw, rng: Rng, c: np.ndarray, r: float, colour: tuple[int, int, int]
) -> None:
    """A peony or rose seen from above: rings of petal arcs, outlined, the heart filled."""
    outline = tuple(int(v * 0.55) for v in colour)
    rings = int(rng.integers(2, 4))
    for ring in range(rings, 0, -1):
        rr = r * ring / rings
        petals = int(rng.integers(5, 9))
        phase = rng.uniform(0, 2 * np.pi)
        for k in range(petals):
            a = phase + 2 * np.pi * k / petals
            pc = c + 0.45 * rr * np.array([np.cos(a), np.sin(a)])
            pr = rr * 0.55
            draw.ellipse(
                [pc[0] - pr, pc[1] - pr, pc[0] + pr, pc[1] + pr],
                fill=colour,
                outline=outline,
                width=max(1, int(r / 10)),
            )
    cr = r * 0.22
    draw.ellipse([c[0] - cr, c[1] - cr, c[0] + cr, c[1] + cr], fill=outline)


def _plant(draw: ImageDraw.ImageDraw, rng: Rng, kind: int, w: int, h: int) -> None:
    """kind 0 plum, 1 orchid, 2 chrysanthemum, 3 bamboo, 4 a loose scene of strokes."""
    green = _pick(rng, GREENS)
    base = np.array([w * rng.uniform(0.4, 0.6), h * rng.uniform(0.85, 0.95)])
    top = h * rng.uniform(0.3, 0.42)
    lw = max(2, int(w * rng.uniform(0.02, 0.045)))
    if kind == 3:  # bamboo: segmented stalks and narrow leaves
        for _ in range(int(rng.integers(1, 4))):
            x = w * rng.uniform(0.3, 0.7)
            ys = np.linspace(base[1], top, int(rng.integers(3, 6)))
            for y0, y1 in itertools.pairwise(ys):
                draw.line([(x, y0), (x, y1 + 3)], fill=green, width=lw + 2)
                draw.line([(x - lw * 1.5, y1 + 3), (x + lw * 1.5, y1 + 3)], fill=green, width=1)
        for _ in range(int(rng.integers(3, 8))):
            p0 = np.array([w * rng.uniform(0.3, 0.7), rng.uniform(top, base[1])])
            _curve(draw, rng, p0, p0 + rng.normal(0, w * 0.18, 2), green, lw)
        return
    blades = {0: (2, 5), 1: (5, 10), 2: (3, 7), 4: (2, 8)}[kind]
    for _ in range(int(rng.integers(*blades))):
        tip = np.array([w * rng.uniform(0.1, 0.9), rng.uniform(top, h * 0.7)])
        _curve(draw, rng, base, tip, green, lw)
        if kind != 1 and rng.random() < 0.6:
            leaf = (base + tip) / 2 + rng.normal(0, w * 0.05, 2)
            lr = w * rng.uniform(0.05, 0.1)
            dark = rng.random() < 0.3  # ink-outlined leaves, as many printed sets draw them
            draw.ellipse(
                [leaf[0] - lr, leaf[1] - lr / 2, leaf[0] + lr, leaf[1] + lr / 2],
                fill=green,
                outline=(20, 40, 20) if dark else None,
                width=max(1, lw // 2),
            )
    blossom = _pick(rng, BLOSSOMS)
    if kind != 3 and rng.random() < FULL_BLOOM_SHARE:  # one big bloom in the middle
        c = np.array([w * rng.uniform(0.35, 0.65), h * rng.uniform(0.45, 0.65)])
        _full_bloom(draw, rng, c, w * rng.uniform(0.13, 0.22), blossom)
        return
    count = {0: (2, 5), 1: (1, 3), 2: (1, 3), 4: (0, 4)}[kind]
    for _ in range(int(rng.integers(*count))):
        c = np.array([w * rng.uniform(0.25, 0.75), h * rng.uniform(0.38, 0.7)])
        r = w * (rng.uniform(0.12, 0.2) if kind == 2 else rng.uniform(0.06, 0.12))
        _blossom(draw, rng, c, r, blossom)
    if rng.random() < 0.4:  # a pot or a base stroke, as on many sets
        pot = _pick(rng, INKS)
        draw.polygon(
            [
                (base[0] - w * 0.15, base[1] - h * 0.06),
                (base[0] + w * 0.15, base[1] - h * 0.06),
                (base[0] + w * 0.08, base[1]),
                (base[0] - w * 0.08, base[1]),
            ],
            outline=pot,
            fill=pot if rng.random() < 0.5 else None,
        )


def _season_scene(draw: ImageDraw.ImageDraw, rng: Rng, w: int, h: int) -> None:
    """A season's picture: a landscape of sun or moon, hills, water, a roof, birds or snow.

    No plant on its own: with the character missing or an unrelated word, the scene is what
    tells a season from the flower of the same number.
    """
    ink = _pick(rng, [*INKS, *GREENS])
    lw = max(1, int(w * rng.uniform(0.015, 0.035)))
    horizon = h * rng.uniform(0.55, 0.75)
    elements = rng.permutation(["sky", "hills", "water", "roof", "birds", "snow"])
    for element in elements[: int(rng.integers(2, 5))]:
        if element == "sky":  # sun or moon
            c = (w * rng.uniform(0.25, 0.75), h * rng.uniform(0.3, 0.45))
            r = w * rng.uniform(0.08, 0.14)
            colour = _pick(rng, [(220, 60, 40), (230, 150, 30), (190, 150, 40)])
            fill = colour if rng.random() < 0.6 else None
            draw.ellipse(
                [c[0] - r, c[1] - r, c[0] + r, c[1] + r], outline=colour, fill=fill, width=lw
            )
        elif element == "hills":
            xs = np.linspace(0, w, int(rng.integers(4, 8)))
            ys = horizon - h * rng.uniform(0.02, 0.2, len(xs))
            ys[0] = ys[-1] = horizon
            draw.line(list(zip(xs.tolist(), ys.tolist(), strict=True)), fill=ink, width=lw + 1)
        elif element == "water":
            for k in range(int(rng.integers(2, 5))):
                y = horizon + h * 0.05 * (k + 1)
                xs = np.linspace(w * 0.1, w * 0.9, 12)
                ys = y + h * 0.015 * np.sin(xs / w * rng.uniform(10, 20) + rng.uniform(0, 6))
                draw.line(list(zip(xs.tolist(), ys.tolist(), strict=True)), fill=ink, width=lw)
        elif element == "roof":  # a pavilion's curved roof and posts
            cx, top = w * rng.uniform(0.35, 0.65), horizon - h * rng.uniform(0.2, 0.3)
            half = w * rng.uniform(0.15, 0.25)
            roof = _pick(rng, INKS)
            draw.polygon(
                [(cx - half, top + h * 0.08), (cx, top), (cx + half, top + h * 0.08)], fill=roof
            )
            for x in (cx - half * 0.6, cx + half * 0.6):
                draw.line([(x, top + h * 0.08), (x, horizon)], fill=roof, width=lw)
        elif element == "birds":
            for _ in range(int(rng.integers(1, 4))):
                x, y = w * rng.uniform(0.2, 0.8), h * rng.uniform(0.25, 0.45)
                s = w * rng.uniform(0.04, 0.08)
                draw.line(
                    [(x - s, y - s / 2), (x, y), (x + s, y - s / 2)], fill=(30, 30, 30), width=lw
                )
        else:  # snowflakes
            for _ in range(int(rng.integers(3, 8))):
                x, y = w * rng.uniform(0.1, 0.9), h * rng.uniform(0.25, 0.9)
                s = w * rng.uniform(0.02, 0.05)
                for a in (0, np.pi / 3, 2 * np.pi / 3):
                    dx, dy = s * np.cos(a), s * np.sin(a)
                    draw.line([(x - dx, y - dy), (x + dx, y + dy)], fill=(40, 80, 170), width=1)


def _lettered(draw: ImageDraw.ImageDraw, rng: Rng, index: int, w: int, h: int) -> None:
    """The flower's character large in the middle, maybe framed, maybe a small numeral."""
    fonts, weights = cjk_fonts()
    font_face = fonts[rng.choice(len(fonts), p=np.asarray(weights))]
    ink = _pick(rng, [*INKS, (190, 150, 40), (170, 120, 30)])  # gold is common on these
    if rng.random() < 0.6:
        m = w * rng.uniform(0.06, 0.14)
        draw.rectangle(
            [m, m * h / w, w - m, h - m * h / w], outline=ink, width=max(1, int(w * 0.015))
        )
    size = int(w * rng.uniform(0.45, 0.62))
    font = load_font(font_face, size)
    x = (w - size) / 2 + rng.normal(0, w * 0.03)
    y = (h - size) / 2 + rng.normal(0, h * 0.05)
    draw.text((x, y), FLOWER_CHARS[index], font=font, fill=ink)
    if rng.random() < 0.5:
        numeral = str(index % 4 + 1) if rng.random() < 0.6 else CHINESE_NUMERALS[index % 4]
        small = load_font(font_face, int(w * rng.uniform(0.18, 0.26)))
        corner = (w * 0.12, h * 0.08) if rng.random() < 0.5 else (w * 0.68, h * 0.08)
        draw.text(corner, numeral, font=small, fill=_pick(rng, INKS))


def flower_face(code: str, rng: Rng, size: tuple[int, int] = (120, 160)) -> np.ndarray:
    """A flower or season face (`1h`..`8h`): RGB uint8, upright."""
    index = int(code[0]) - 1
    numeral = str(index % 4 + 1) if rng.random() < 0.65 else CHINESE_NUMERALS[index % 4]
    w, h = size
    paper = tuple(int(v) for v in rng.integers(235, 256, 3))
    image = Image.new("RGB", size, paper)
    draw = ImageDraw.Draw(image)
    if rng.random() < LETTERED_SHARE:
        _lettered(draw, rng, index, w, h)
        return np.asarray(image, dtype=np.uint8).copy()
    if rng.random() < ICON_SHARE / (1 - LETTERED_SHARE):
        draw_icon_face(draw, rng, index, w, h)
        return np.asarray(image, dtype=np.uint8).copy()
    if index >= 4 and rng.random() < SEASON_TREE_SHARE:
        draw_season_tree(draw, rng, index - 4, w, h)
        if rng.random() < TREE_ALONE_SHARE:
            return np.asarray(image, dtype=np.uint8).copy()
        own_char, lettered = _naming(rng)
    else:
        own_char, lettered = _paint(draw, rng, index, w, h)
    _label(draw, rng, index, numeral, own_char, lettered, w)
    return np.asarray(image, dtype=np.uint8).copy()


def _naming(rng: Rng) -> tuple[bool, bool]:
    """Whether the face prints its own character, and whether that character (not the
    picture) is what names it."""
    own_char = rng.random() < 0.75
    return own_char, own_char and rng.random() >= NUMERAL_ALONE_SHARE


def _paint(draw: ImageDraw.ImageDraw, rng: Rng, index: int, w: int, h: int) -> tuple[bool, bool]:
    """A plant or a scene; returns `_naming`'s choice, which the picture follows."""
    own_char, lettered = _naming(rng)
    if lettered:  # the character names the tile; the picture may be any plant or scene
        kind = index if index < 4 and rng.random() < 0.7 else int(rng.integers(0, 5))
        if index >= 4 and rng.random() < 0.5:
            _season_scene(draw, rng, w, h)
        else:
            _plant(draw, rng, kind, w, h)
    elif index < 4:  # the picture names the tile: the flower's own plant
        _plant(draw, rng, index, w, h)
    else:
        _season_scene(draw, rng, w, h)
    return own_char, lettered


def _label(
    draw: ImageDraw.ImageDraw,
    rng: Rng,
    index: int,
    numeral: str,
    own_char: bool,
    lettered: bool,
    w: int,
) -> None:
    """The corner numeral and, unless the face goes without, a character (its own or not)."""
    fonts, weights = cjk_fonts()
    font_face = fonts[rng.choice(len(fonts), p=np.asarray(weights))]
    char = FLOWER_CHARS[index] if own_char else DECOY_CHARS[rng.integers(len(DECOY_CHARS))]
    char_size = int(w * rng.uniform(0.24, 0.34))
    num_size = int(w * rng.uniform(0.26, 0.38))
    numeral_left = rng.random() < 0.5
    pad = int(w * rng.uniform(0.03, 0.1))
    num_font = load_font(font_face, num_size)
    char_font = load_font(font_face, char_size)
    num_x = pad if numeral_left else w - pad - int(num_size * 0.6)
    char_x = w - pad - char_size if numeral_left else pad
    if rng.random() < 0.15:  # character under the numeral, both in one corner
        char_x, char_y = num_x, pad + num_size
    else:
        char_y = pad
    draw.text((num_x, pad), numeral, font=num_font, fill=_pick(rng, INKS))
    if lettered or (not own_char and rng.random() >= NUMERAL_ALONE_SHARE):
        draw.text((char_x, char_y), char, font=char_font, fill=_pick(rng, INKS))
