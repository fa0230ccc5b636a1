#!/usr/bin/env bash
# Fetch third-party tile art and fonts for the synthetic photo engine into .cache/art/.
# Everything comes from the Debian, npm and PyPI registries at build time; nothing is committed.
# Idempotent (a stamp per source) and non-fatal per source: a failed source prints why and
# the others still run. The face loaders in datasets/faces report missing art clearly.
set -u
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
ART="${MJLENS_ART_DIR:-$ROOT/.cache/art}"
mkdir -p "$ART/debs"
failed=()

SUDO=""
[ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && SUDO="sudo"

apt_lists_ready() {
    ls /var/lib/apt/lists/*_Packages* >/dev/null 2>&1
}

# fetch_deb NAME PACKAGE...: download the .debs and unpack them under $ART/NAME.
fetch_deb() {
    local name="$1"; shift
    local dest="$ART/$name"
    if [ -f "$dest/.done" ]; then
        return 0
    fi
    if ! apt_lists_ready; then
        echo "fetch_art: apt lists empty, running apt-get update" >&2
        $SUDO apt-get update -qq >/dev/null 2>&1 || true
    fi
    rm -rf "$dest" && mkdir -p "$dest"
    local pkg deb
    for pkg in "$@"; do
        deb="$(ls "$ART/debs/${pkg}"_*.deb 2>/dev/null | head -n1)"
        if [ -z "$deb" ]; then
            (cd "$ART/debs" && apt-get download -q "$pkg" >/dev/null 2>&1) || {
                echo "fetch_art: $name: 'apt-get download $pkg' failed (no network or no apt lists?)" >&2
                failed+=("$name")
                return 1
            }
            deb="$(ls "$ART/debs/${pkg}"_*.deb | head -n1)"
        fi
        dpkg -x "$deb" "$dest" || { echo "fetch_art: $name: dpkg -x $deb failed" >&2; failed+=("$name"); return 1; }
    done
    touch "$dest/.done"
    for pkg in "$@"; do rm -f "$ART/debs/${pkg}"_*.deb; done  # unpacked: the .deb is dead weight
    echo "fetch_art: $name ready in $dest"
}

# rsvg-convert rasterizes the SVG sources (fluffystuff, kde, gnome).
ensure_rsvg() {
    command -v rsvg-convert >/dev/null 2>&1 && return 0
    echo "fetch_art: installing librsvg2-bin for rsvg-convert" >&2
    apt_lists_ready || $SUDO apt-get update -qq >/dev/null 2>&1 || true
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq librsvg2-bin >/dev/null 2>&1 || {
        echo "fetch_art: could not install librsvg2-bin; SVG sources will be unavailable" >&2
        failed+=("rsvg")
        return 1
    }
}

# Fonts: CJK (procedural), Mahjong Tiles glyphs (unicode).
fetch_deb fonts-cjk fonts-noto-cjk fonts-arphic-ukai fonts-arphic-uming fonts-wqy-microhei fonts-wqy-zenhei
# More brush (kai), bold, round and Japanese mincho faces: glyph variety for the procedural sets.
fetch_deb fonts-cjk-more fonts-cwtex-kai fonts-cwtex-heib fonts-cwtex-yen fonts-cwtex-fs \
    fonts-arphic-bkai00mp fonts-ipaexfont-mincho
fetch_deb fonts-symbols fonts-noto-core fonts-symbola
# A third design of the Mahjong Tiles block: Hanazono Mincho (its own free licence or OFL-1.1).
fetch_deb fonts-tiles fonts-hanazono
# A fourth design of the block: Gutenberg Labo's GL-MahjongTile (free for any use, its licence
# field says), as the PyPI package mjx 0.1.0 ships it in its source archive.
fetch_gl_font() {
    local dest="$ART/fonts-gl"
    [ -f "$dest/.done" ] && return 0
    local tmp url
    tmp="$(mktemp -d)"
    mkdir -p "$dest"
    # The sdist's address from PyPI's simple index, fetched as a file: `pip download` of an sdist
    # builds its build requirements first (cmake from source, a quarter of an hour) only to read
    # metadata we do not need. The index's sha256 fragment is checked before the archive is opened.
    url="$(curl -fsSL --retry 3 https://pypi.org/simple/mjx/ \
        | grep -o 'https://[^"]*/mjx-0\.1\.0\.tar\.gz#sha256=[0-9a-f]*' | head -n 1)"
    if [ -n "$url" ] \
        && (cd "$tmp" && curl -fsSL --retry 3 -o mjx-0.1.0.tar.gz "${url%%#*}" \
            && echo "${url##*sha256=}  mjx-0.1.0.tar.gz" | sha256sum -c --quiet - \
            && tar xzf mjx-0.1.0.tar.gz mjx-0.1.0/mjx/visualizer/GL-MahjongTile.ttf) \
        && cp "$tmp/mjx-0.1.0/mjx/visualizer/GL-MahjongTile.ttf" "$dest/"; then
        touch "$dest/.done"
        echo "fetch_art: fonts-gl ready in $dest"
    else
        echo "fetch_art: fonts-gl: mjx-0.1.0.tar.gz from PyPI failed (no PyPI?)" >&2
        failed+=("fonts-gl")
    fi
    rm -rf "$tmp"
}
fetch_gl_font
# Pixel-art tiles (pixel): xshisen's s1 set (BSD-2-clause) and the flowers and seasons of
# Bradfield's mah-jong (public domain); only those files are read.
fetch_deb pixel xshisen mah-jong
# Tile sets (kde, gnome).
fetch_deb kde kdegames-mahjongg-data-kf5
fetch_deb gnome gnome-mahjongg
ensure_rsvg

# FluffyStuff's riichi art (CC0) from npm, for machines without ../shared/data/fluffystuff-tiles:
# the package holds the SVGs as React components, turned back into SVG files here.
fetch_npm_fluffystuff() {
    local dest="$ART/fluffystuff-svg"
    [ -f "$dest/.done" ] && return 0
    command -v npm >/dev/null 2>&1 || { echo "fetch_art: fluffystuff: npm not found" >&2; failed+=("fluffystuff-npm"); return 1; }
    local tmp
    tmp="$(mktemp -d)"
    if (cd "$tmp" && npm pack -q riichi-mahjong-tiles@0.1.0 >/dev/null 2>&1 && tar xzf riichi-mahjong-tiles-*.tgz) \
        && (cd "$ROOT" && python3 -m datasets.faces.fluffystuff_npm "$tmp/package" "$dest"); then
        touch "$dest/.done"
    else
        echo "fetch_art: fluffystuff: 'npm pack riichi-mahjong-tiles' or its conversion failed" >&2
        failed+=("fluffystuff-npm")
    fi
    rm -rf "$tmp"
}
fetch_npm_fluffystuff

# Rasterize once now so the first test run is quick (rasterized PNGs land in .cache/art/raster).
# Without rsvg-convert the SVG sources say so and the PNG ones (gnome smooth) still work.
(cd "$ROOT" && MJLENS_ART_DIR="$ART" python3 -m datasets.faces.rasterize) || {
    echo "fetch_art: rasterizing SVG sources failed" >&2
    failed+=("rasterize")
}

if [ "${#failed[@]}" -gt 0 ]; then
    echo "fetch_art: unavailable: ${failed[*]} (the face sources that need them report it)" >&2
fi
exit 0
