"""FluffyStuff's SVGs recovered from the npm package `riichi-mahjong-tiles` (MIT; art CC0).

The package ships each tile as an SVGR React component (`Regular/RegularMan1.tsx`): the SVG
written as JSX. Where no checkout of the SVG files is at hand (CI), scripts/fetch_art.sh
fetches the package and this module turns the JSX back into SVG files:

    python -m datasets.faces.fluffystuff_npm PACKAGE_DIR OUT_DIR   # OUT_DIR/{Regular,Black}/*.svg
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

_JSX = re.compile(r"=>\s*\((.*)\);\s*export default", re.S)
_STYLE = re.compile(r"style=\{\{(.*?)\}\}", re.S)
_BRACED = re.compile(r"(\w+)=\{([^{}]*)\}")
_RENAMED = {"xlinkHref": "xlink:href", "xmlnsXlink": "xmlns:xlink", "xmlSpace": "xml:space"}


def _kebab(name: str) -> str:
    return re.sub(r"([A-Z])", lambda m: "-" + m.group(1).lower(), name)


def _style(match: re.Match[str]) -> str:
    """style={{ fillOpacity: 1, fill: "#000" }} -> style="fill-opacity:1;fill:#000"."""
    pairs = re.findall(r'(\w+)\s*:\s*("[^"]*"|[^,\s]+)', match.group(1))
    return 'style="' + ";".join(f"{_kebab(k)}:{v.strip(chr(34))}" for k, v in pairs) + '"'


def jsx_to_svg(tsx: str) -> str:
    """The SVG inside one SVGR component."""
    found = _JSX.search(tsx)
    if found is None:
        raise ValueError("no JSX body found")
    body = found.group(1).replace("{...props}", "")
    body = _STYLE.sub(_style, body)
    body = _BRACED.sub(lambda m: f'{m.group(1)}="{m.group(2).strip().strip(chr(34))}"', body)
    for jsx_name, svg_name in _RENAMED.items():
        body = re.sub(rf"\b{jsx_name}=", f"{svg_name}=", body)
    if "xlink:href" in body and "xmlns:xlink" not in body:
        body = body.replace("<svg ", '<svg xmlns:xlink="http://www.w3.org/1999/xlink" ', 1)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + body.strip() + "\n"


def convert(package: Path, out: Path) -> int:
    """Write OUT/Regular/<Name>.svg and OUT/Black/<Name>.svg from the package's components."""
    count = 0
    for variant, folder in (("Regular", "regular"), ("Black", "black")):
        for tsx in sorted((package / "components" / folder / "regular").glob(f"{variant}*.tsx")):
            target = out / variant / (tsx.stem[len(variant) :] + ".svg")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(jsx_to_svg(tsx.read_text()))
            count += 1
    return count


if __name__ == "__main__":
    n = convert(Path(sys.argv[1]), Path(sys.argv[2]))
    print(f"fluffystuff_npm: {n} SVGs written to {sys.argv[2]}")
    raise SystemExit(0 if n else 1)
