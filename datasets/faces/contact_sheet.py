"""Contact sheets: every face of every source in a labelled grid, to check mappings by eye.

    python -m datasets.faces.contact_sheet --out docs/sources/
        [--camerash ../shared/data/camerash-crops] [--camerash-out .cache/contact/]

One PNG per source (kept under 300 KB), plus a sheet of real Hong Kong style crops for
comparison, written only under .cache/ because those photos are third-party.
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from datasets.faces import SOURCES, ArtMissing, FaceSource, get_source
from datasets.faces.raster_source import RasterSource, load_face
from scoring.tiles import FACES

THUMB = (60, 80)
LABEL_H = 14
PER_ROW = 21
MAX_BYTES = 300_000
# camerash labels are 1-based: dots, bamboo, characters, winds, dragons, seasons, flowers
CAMERASH_CODES = (
    *(f"{n}{suit}" for suit in "psm" for n in range(1, 10)),
    *("E", "S", "W", "N", "C", "F", "P", "5h", "6h", "7h", "8h", "1h", "2h", "3h", "4h"),
)


def _label_font() -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    return ImageFont.load_default()


def grid(cells: list[tuple[np.ndarray | None, str]], per_row: int = PER_ROW) -> Image.Image:
    """Thumbnails with their label underneath, `per_row` to a row."""
    rows = (len(cells) + per_row - 1) // per_row
    cw, ch = THUMB[0] + 4, THUMB[1] + LABEL_H + 4
    sheet = Image.new("RGB", (per_row * cw, rows * ch), (90, 90, 90))
    draw = ImageDraw.Draw(sheet)
    font = _label_font()
    for i, (face, label) in enumerate(cells):
        x, y = (i % per_row) * cw + 2, (i // per_row) * ch + 2
        if face is not None:
            sheet.paste(Image.fromarray(face).resize(THUMB, Image.Resampling.LANCZOS), (x, y))
        draw.text((x + 2, y + THUMB[1] + 1), label, fill=(255, 255, 255), font=font)
    return sheet


def source_cells(source: FaceSource, samples: int) -> list[tuple[np.ndarray | None, str]]:
    """Every code of FACES order, once per variant (fixed art) or per sample (random art)."""
    cells: list[tuple[np.ndarray | None, str]] = []
    if isinstance(source, RasterSource):
        # one block per theme (the folder a drawing sits in); extra drawings of a code in a
        # theme (FluffyStuff's red fives) in a last block
        themes = sorted({p.parent.name for code in source.codes for p in source.paths(code)})
        extras: list[tuple[np.ndarray | None, str]] = []
        for theme in themes:
            for code in FACES:
                paths = (
                    sorted({p for p in source.paths(code) if p.parent.name == theme})
                    if code in source.codes
                    else []
                )
                cells.append((load_face(paths[0]) if paths else None, code))
                extras.extend((load_face(p), code) for p in paths[1:])
        return cells + extras
    for seed in range(samples):
        rng = np.random.default_rng(seed)
        cells.extend(
            (source.face(code, rng) if code in source.codes else None, code) for code in FACES
        )
    return cells


def save_small(image: Image.Image, path: Path) -> None:
    """Save as PNG, quantizing colours until it fits MAX_BYTES."""
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path, optimize=True)
    for colours in (256, 128, 64, 32):
        if path.stat().st_size <= MAX_BYTES:
            return
        image.quantize(colours, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)


def camerash_sheet(root: Path, count: int = 24) -> Image.Image:
    """`count` real crops spread over the classes, labelled with our codes."""
    with open(root / "data.csv", newline="") as f:
        rows = [(r["image-name"], int(r["label"])) for r in csv.DictReader(f)]
    by_code: dict[str, list[str]] = {}
    for name, label in rows:
        by_code.setdefault(CAMERASH_CODES[label - 1], []).append(name)
    # every flower and season, the white dragon, then one of a spread of suited tiles
    wanted = [c for c in FACES if c.endswith("h")] + ["P", "C", "F", "E", "N"]
    wanted += [
        c
        for c in ("1s", "1p", "5m", "9p", "8s", "3m", "7s", "2p", "9m", "5s", "6p")
        if c not in wanted
    ]
    cells: list[tuple[np.ndarray | None, str]] = []
    for code in wanted[:count]:
        image = Image.open(root / "images" / by_code[code][0]).convert("RGB")
        cells.append((np.asarray(image.resize((120, 160))), code))
    return grid(cells, per_row=12)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", type=Path, default=Path("docs/sources"))
    parser.add_argument("--sources", nargs="*", default=list(SOURCES))
    parser.add_argument(
        "--samples", type=int, default=4, help="random designs shown per procedural face"
    )
    parser.add_argument("--camerash", type=Path, default=Path("/work/shared/data/camerash-crops"))
    parser.add_argument("--camerash-out", type=Path, default=Path(".cache/contact"))
    args = parser.parse_args(argv)
    for name in args.sources:
        try:
            source = get_source(name)
        except ArtMissing as e:
            print(f"{name}: skipped: {e}")
            continue
        samples = args.samples if name == "procedural" else 2
        path = args.out / f"{name}.png"
        save_small(grid(source_cells(source, samples)), path)
        print(f"{name}: {path} ({path.stat().st_size // 1024} KB)")
    if (args.camerash / "data.csv").is_file():
        path = args.camerash_out / "camerash.png"
        save_small(camerash_sheet(args.camerash), path)
        print(f"camerash (third-party, not for the repo): {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
