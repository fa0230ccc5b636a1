"""Pack what classifier training reads into .gpu/ for a lent GPU machine (64 MiB at most).

    python -m training.device_pack --out .gpu --checkpoint runs/clf_n/last.pt

The art cache is 256 MB, mostly CJK fonts of which the faces draw a few hundred characters:
each font is cut down to the characters the face renderers can draw (every non-ASCII
character in `datasets/` and `training/` plus printable ASCII), which keeps every glyph the
training faces use and drops the rest. Symbol fonts, the FluffyStuff SVGs and their raster
faces go whole. The crops pack comes from `training.crop_pack`. The cut fonts draw the same
outlines; FreeType's hinting of a few of them lands up to a pixel's antialiasing apart, which
the training augmentation's warps and blurs dwarf. fontTools comes with the `train` extra.
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

from datasets.faces import fonts
from datasets.faces.paths import REPO_ROOT, art_dir

# the pixel source reads two Debian packages' pixmap folders (2 MB, the XPMs and their notices)
WHOLE = ("fluffystuff-svg", "raster/fluffystuff", "pixel")


def drawn_characters() -> set[str]:
    """Every character the renderers could be asked to draw: all that the code spells."""
    chars = {chr(c) for c in range(32, 127)}
    for folder in ("datasets", "training"):
        for path in (REPO_ROOT / folder).rglob("*.py"):
            chars |= {c for c in path.read_text(encoding="utf-8") if ord(c) > 126}
    return chars


def _cut(font: TTFont, chars: set[str]) -> None:
    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.drop_tables = []  # keep embedded bitmaps and hinting tables: render as before
    cutter = subset.Subsetter(options)
    cutter.populate(unicodes=[ord(c) for c in chars])
    cutter.subset(font)


def cut_font(source: Path, target: Path, chars: set[str]) -> None:
    """The font file (every face of a .ttc collection) with only `chars` left in it."""
    target.parent.mkdir(parents=True, exist_ok=True)
    if source.suffix == ".ttc":
        collection = TTCollection(str(source))
        for font in collection.fonts:
            _cut(font, chars)
        collection.save(str(target))
    else:
        font = TTFont(str(source))
        _cut(font, chars)
        font.save(str(target))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default=".gpu")
    p.add_argument("--checkpoint", default=None, help="a run's last.pt to resume from")
    args = p.parse_args(argv)
    out = Path(args.out)
    chars = drawn_characters()
    for face in fonts.cjk_fonts()[0]:
        rel = face.path.relative_to(art_dir())
        target = out / "art" / rel
        if not target.is_file():
            cut_font(face.path, target, chars)
            print(f"{rel}: {face.path.stat().st_size >> 10} -> {target.stat().st_size >> 10} KiB")
    for rel in WHOLE:
        shutil.copytree(art_dir() / rel, out / "art" / rel, dirs_exist_ok=True)
    for face in fonts.symbol_fonts():  # the unicode source's Mahjong Tiles block
        target = out / "art" / face.path.relative_to(art_dir())
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(face.path, target)
    if args.checkpoint:
        shutil.copy(args.checkpoint, out / "resume.pt")
    total = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    print(f"{len(chars)} characters; {out}: {total / 2**20:.1f} MiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
