"""GNOME Mahjongg's tile themes (GPL-2.0-or-later): `smooth` (PNG) and `postmodern` (SVG).

Each theme is one strip of 43 tiles (top row plain, bottom row highlighted), in the order
below; we cut the flat face out of each plain tile, leaving the drawn bevel behind.
The third theme, edu_kang_xi, shows Kangxi radicals instead of Mahjong faces: not used.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from datasets.faces.base import FACE_HEIGHT, FACE_WIDTH, ArtMissing
from datasets.faces.paths import FETCH_HINT, art_dir, raster_dir
from datasets.faces.raster_source import RasterSource
from datasets.faces.rasterize import rsvg_convert, save_png

LICENSE = "GPL-2.0-or-later (GNOME Mahjongg themes)"
# Strip order, read off the smooth theme: dots, winds N W S E, red and green dragons,
# characters, bamboo, flowers 蘭 菊 梅 竹, the white dragon, seasons 春 夏 秋 冬, a blank.
STRIP: tuple[str, ...] = (
    *(f"{n}p" for n in range(1, 10)),
    "N", "W", "S", "E", "C", "F",
    *(f"{n}m" for n in range(1, 10)),
    *(f"{n}s" for n in range(1, 10)),
    "2h", "3h", "1h", "4h", "P", "5h", "6h", "7h", "8h",
)  # fmt: skip
# postmodern paints seasons as weather where smooth has its flowers, and numbers both 一..四.
POSTMODERN_STRIP: tuple[str, ...] = (
    *STRIP[:33], "5h", "6h", "7h", "8h", "P", "1h", "2h", "3h", "4h",
)  # fmt: skip
TILES_IN_STRIP = 43
# Theme file, pixel width to render the strip at, and the face box inside one tile
# (x0, y0, x1, y1) at that width, measured on the blank last tile.
THEMES = {
    "smooth": ("smooth.png", 4128, (7, 2, 93, 115), STRIP),
    "postmodern": ("postmodern.svg", 5504, (17, 2, 126, 160), POSTMODERN_STRIP),
}


def themes_dir() -> Path:
    return art_dir() / "gnome" / "usr" / "share" / "gnome-mahjongg" / "themes"


def rasterize_all(force: bool = False) -> int:
    if not themes_dir().is_dir():
        raise ArtMissing(f"GNOME Mahjongg themes not found under {themes_dir()}: {FETCH_HINT}")
    count = 0
    for theme, (file, width, (fx0, fy0, fx1, fy1), order) in THEMES.items():
        out_dir = raster_dir() / "gnome" / theme
        if not force and all((out_dir / f"{c}.png").is_file() for c in STRIP):
            count += len(STRIP)
            continue
        source = themes_dir() / file
        if source.suffix == ".svg":
            strip_png = out_dir / "_strip.png"
            try:
                rsvg_convert(source, strip_png, width)
            except ArtMissing:
                continue  # no rsvg-convert: the PNG theme still works
            strip = Image.open(strip_png).convert("RGBA")
        else:
            strip = Image.open(source).convert("RGBA")
        tile_w = strip.width // TILES_IN_STRIP
        for k, code in enumerate(order):
            face = strip.crop((k * tile_w + fx0, fy0, k * tile_w + fx1, fy1)).convert("RGB")
            face = face.resize((FACE_WIDTH, FACE_HEIGHT), Image.Resampling.LANCZOS)
            save_png(face, out_dir / f"{code}.png")
            count += 1
    return count


def _cached_files() -> dict[str, list[Path]]:
    files: dict[str, list[Path]] = {}
    for theme in THEMES:
        for code in STRIP:
            png = raster_dir() / "gnome" / theme / f"{code}.png"
            if png.is_file():
                files.setdefault(code, []).append(png)
    return files


class GnomeSource(RasterSource):
    def __init__(self) -> None:
        files = _cached_files()
        cached = sum(len(paths) for paths in files.values())
        # every theme in full (as in kde.py): a half-cached theme must not thin the source
        if cached < len(STRIP) * len(THEMES) and themes_dir().is_dir():
            rasterize_all()
            files = _cached_files()
        if not files:
            raise ArtMissing(f"GNOME Mahjongg themes not fetched nor rasterized: {FETCH_HINT}")
        super().__init__("gnome", LICENSE, files)
