"""`python -m datasets.faces`: which face sources are ready and how many faces each draws;
for the others, what is missing. Exits 1 if any source is missing."""

from __future__ import annotations

from datasets.faces import SOURCES, ArtMissing, get_source


def main() -> int:
    missing = 0
    for name in SOURCES:
        try:
            source = get_source(name)
        except ArtMissing as e:
            missing += 1
            print(f"{name:12s} MISSING  {e}")
            continue
        print(f"{name:12s} ready    {len(source.codes):2d} faces  {source.license}")
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
