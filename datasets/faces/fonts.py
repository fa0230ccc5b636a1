"""The fonts the renderers draw with, unpacked from Debian packages by scripts/fetch_art.sh."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from datasets.faces.base import ArtMissing
from datasets.faces.paths import FETCH_HINT, art_dir


@dataclass(frozen=True)
class FontFace:
    path: Path
    index: int  # face inside a .ttc collection
    label: str  # short name for docs and debugging


# (package dir, file, ttc index, label, weight in the random choice). Brush (kai) and Ming
# faces are weighted up: printed tiles mostly look hand-brushed, not like a UI sans.
_CJK = (
    ("fonts-cjk", "usr/share/fonts/truetype/arphic/ukai.ttc", 2, "ukai-tw", 4.0),
    ("fonts-cjk", "usr/share/fonts/truetype/arphic/ukai.ttc", 1, "ukai-hk", 2.0),
    ("fonts-cjk", "usr/share/fonts/truetype/arphic/uming.ttc", 2, "uming-tw", 2.0),
    ("fonts-cjk", "usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc", 3, "serif-tc-bold", 2.0),
    ("fonts-cjk", "usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc", 3, "serif-tc", 1.5),
    ("fonts-cjk", "usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc", 0, "serif-jp-bold", 1.0),
    ("fonts-cjk", "usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc", 3, "sans-tc-bold", 1.0),
    ("fonts-cjk", "usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", 4, "sans-hk", 1.0),
    ("fonts-cjk", "usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc", 0, "sans-jp-bold", 0.7),
    ("fonts-cjk", "usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", 0, "wqy-zenhei", 0.7),
    ("fonts-cjk", "usr/share/fonts/truetype/wqy/wqy-microhei.ttc", 0, "wqy-microhei", 0.5),
    ("fonts-cjk-more", "usr/share/fonts/truetype/cwtex/cwkai.ttf", 0, "cwtex-kai", 2.0),
    ("fonts-cjk-more", "usr/share/fonts/truetype/arphic-bkai00mp/bkai00mp.ttf", 0, "bkai", 1.5),
    ("fonts-cjk-more", "usr/share/fonts/truetype/cwtex/cwheib.ttf", 0, "cwtex-heibold", 1.0),
    ("fonts-cjk-more", "usr/share/fonts/truetype/cwtex/cwyen.ttf", 0, "cwtex-yen", 0.6),
    ("fonts-cjk-more", "usr/share/fonts/truetype/cwtex/cwfs.ttf", 0, "cwtex-fangsong", 0.6),
    (
        "fonts-cjk-more",
        "usr/share/fonts/opentype/ipaexfont-mincho/ipaexm.ttf",
        0,
        "ipaex-mincho",
        1.0,
    ),
)

_SYMBOLS = (
    (
        "fonts-symbols",
        "usr/share/fonts/truetype/noto/NotoSansSymbols2-Regular.ttf",
        0,
        "noto-symbols2",
    ),
    ("fonts-symbols", "usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf", 0, "symbola"),
    ("fonts-tiles", "usr/share/fonts/truetype/hanazono/HanaMinA.ttf", 0, "hanazono-mincho"),
    # Gutenberg Labo's tile font, as the PyPI package mjx ships it (scripts/fetch_art.sh).
    ("fonts-gl", "GL-MahjongTile.ttf", 0, "gl-mahjongtile"),
)


def cjk_fonts() -> tuple[tuple[FontFace, ...], tuple[float, ...]]:
    """The CJK faces present on disk and their choice weights; ArtMissing if none is."""
    return _cjk_fonts(art_dir())


@lru_cache(maxsize=4)  # by folder: MJLENS_ART_DIR may point elsewhere later in the process
def _cjk_fonts(root: Path) -> tuple[tuple[FontFace, ...], tuple[float, ...]]:
    found = [
        (FontFace(root / pkg / rel, index, label), weight)
        for pkg, rel, index, label, weight in _CJK
        if (root / pkg / rel).is_file()
    ]
    if not found:
        raise ArtMissing(f"no CJK font under {root / 'fonts-cjk'}: {FETCH_HINT}")
    faces, weights = zip(*found, strict=True)
    total = sum(weights)
    return tuple(faces), tuple(w / total for w in weights)


def symbol_fonts() -> tuple[FontFace, ...]:
    """Fonts with the Mahjong Tiles block U+1F000-U+1F02B present on disk."""
    return tuple(
        FontFace(art_dir() / pkg / rel, index, label)
        for pkg, rel, index, label in _SYMBOLS
        if (art_dir() / pkg / rel).is_file()
    )


@lru_cache(maxsize=512)
def load_font(face: FontFace, size: int) -> ImageFont.FreeTypeFont:
    """A loaded font at a pixel size; cached because loading a .ttc costs milliseconds."""
    return ImageFont.truetype(str(face.path), size=size, index=face.index)


@lru_cache(maxsize=4096)
def has_glyph(face: FontFace, char: str) -> bool:
    """Whether the font draws `char` itself (not blank, not its missing-glyph box)."""
    font = load_font(face, 32)

    def ink(c: str) -> np.ndarray:
        image = Image.new("L", (48, 48), 0)
        ImageDraw.Draw(image).text((4, 4), c, font=font, fill=255)
        return np.asarray(image)

    drawn = ink(char)
    return bool(drawn.any()) and not np.array_equal(drawn, ink("\U0010fffd"))
