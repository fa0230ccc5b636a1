"""Writes api/static/fonts/page-cjk.woff: the Chinese characters the phone page can show, cut
from Noto Sans CJK SC Regular, so its 中文 words are never empty boxes on a device without a
Chinese font.

The characters are every CJK character (ideographs, CJK and full-width punctuation) in the
page's files (api/static/*.js, *.html) and in the fan names and units of every rule set's
fan table, which is where the Chinese names in the API's answers come from. The font is
Debian's `fonts-noto-cjk` (SIL Open Font License 1.1), unpacked under .cache/art/fonts-cjk
by scripts/fetch_art.sh. Run again whenever a Chinese word is added: `make page-font` or
`python scripts/make_page_font.py` (fontTools; the train extra); tests/api/test_page_font.py
fails until then. The subset is renamed (OFL: a modified font does not carry the original's
name) and is WOFF (zlib), which fontTools reads back without brotli.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "api" / "static"
FONT = ROOT / ".cache/art/fonts-cjk/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
FACE = "Noto Sans CJK SC"
OUT = STATIC / "fonts" / "page-cjk.woff"
# Debian's copyright file for the package holds the licence's full text.
COPYRIGHT = ROOT / ".cache/art/fonts-cjk/usr/share/doc/fonts-noto-cjk/copyright"
FAMILY = "mjlens CJK"  # the name style.css's @font-face gives it
# What the @font-face's unicode-range covers: CJK radicals, punctuation, ideographs (with
# extension A and compatibility forms) and the full-width forms (，：（）).
CJK = re.compile(
    r"[\u2e80-\u2fff\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]"
)


def page_characters() -> set[str]:
    """Every CJK character in the page's own files."""
    found: set[str] = set()
    for path in sorted(STATIC.glob("*.js")) + sorted(STATIC.glob("*.html")):
        found |= set(CJK.findall(path.read_text(encoding="utf-8")))
    return found


def fan_characters() -> set[str]:
    """Every CJK character of the names the page shows from every rule set's fan table: the
    fans' Chinese names (which Score JSON carries too) and the unit's."""
    sys.path.insert(0, str(ROOT))
    from scoring import RULESETS
    from scoring.fan_tables import fan_table

    found: set[str] = set()
    for ruleset in RULESETS:
        table = fan_table(ruleset).to_json()
        shown = [table["unit_zh"], *(fan["name_zh"] for fan in table["fans"])]
        found |= set(CJK.findall("".join(shown)))
    return found


def _face(path: Path) -> TTFont:
    for font in TTCollection(str(path)).fonts:
        if font["name"].getDebugName(4) == FACE:
            return font
    raise SystemExit(f"{FACE} is not in {path}: run scripts/fetch_art.sh")


def _rename(font: TTFont) -> None:
    """The OFL asks a modified font to drop the original's name; copyright and licence stay."""
    names = font["name"]
    for record in list(names.names):
        if record.nameID in (1, 3, 4, 6, 16, 17, 18, 21, 22):
            names.removeNames(nameID=record.nameID)
    names.setName(FAMILY, 1, 3, 1, 0x409)
    names.setName("Regular", 2, 3, 1, 0x409)
    names.setName(f"{FAMILY} subset of {FACE} Regular", 3, 3, 1, 0x409)
    names.setName(f"{FAMILY} Regular", 4, 3, 1, 0x409)
    names.setName(FAMILY.replace(" ", "") + "-Regular", 6, 3, 1, 0x409)
    if "CFF " in font:  # the CFF table carries the names too
        cff = font["CFF "].cff
        cff.fontNames = [FAMILY.replace(" ", "") + "-Regular"]
        top = cff.topDictIndex[0]
        for key in ("FamilyName", "FullName"):
            if hasattr(top, key):
                setattr(top, key, FAMILY)


def licence_text(font: TTFont) -> str:
    """The OFL, which travels with the font: the font's own copyright line, then the licence
    as Debian's copyright file quotes it (one space in front, "." for an empty line)."""
    lines = COPYRIGHT.read_text(encoding="utf-8").splitlines()
    start = lines.index("License: SIL-1.1", lines.index("License: SIL-1.1") + 1) + 1
    body = []
    for line in lines[start:]:
        if not line.startswith(" "):
            break
        body.append("" if line.strip() == "." else line[1:])
    notice = font["name"].getDebugName(0)
    return f"{FAMILY}: a subset of {FACE} Regular.\n{notice}\n\n" + "\n".join(body) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--font", type=Path, default=FONT)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    characters = sorted(page_characters() | fan_characters())
    font = _face(args.font)
    options = subset.Options()
    options.flavor = "woff"
    options.layout_features = []  # horizontal text only: no vertical forms, no locl
    options.hinting = False
    options.desubroutinize = True
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]  # copyright, names, version, licence
    options.name_languages = [0x409]
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[ord(c) for c in characters])
    subsetter.subset(font)
    _rename(font)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    font.flavor = "woff"
    font.save(str(args.out))
    (args.out.parent / "OFL.txt").write_text(licence_text(font), encoding="utf-8")
    print(f"{args.out}: {len(characters)} characters, {args.out.stat().st_size} bytes")


if __name__ == "__main__":
    main()
