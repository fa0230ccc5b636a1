"""Face sources: every source draws each of its faces under the right code, at the agreed
shape and dtype, deterministically per seed; mapping checks count dots where that is cheap.

Third-party art comes from scripts/fetch_art.sh. Without it these tests skip with the reason,
except under CI (CI=true), which runs fetch_art.sh first: there missing art is a failure.
"""

from __future__ import annotations

import os

import cv2
import numpy as np
import pytest

from datasets.faces import SOURCES, ArtMissing, FaceSource, get_source
from scoring.tiles import FACES, FLOWERS, PLAYING

# What each source must cover: FluffyStuff is a riichi set (no flowers or seasons).
EXPECTED_CODES = {
    "procedural": frozenset(FACES),
    "unicode": frozenset(FACES),
    "fluffystuff": frozenset(PLAYING),
    "pixel": frozenset(FACES),
    "kde": frozenset(FACES),
    "gnome": frozenset(FACES),
}


def _source(name: str) -> FaceSource:
    try:
        return get_source(name)
    except ArtMissing as e:
        if os.environ.get("CI") == "true":
            pytest.fail(f"face source {name!r} has no art in CI: {e}")
        pytest.skip(f"face source {name!r} unavailable: {e}")


def _count_blobs(face: np.ndarray, min_share: float = 0.25, erode: int = 0) -> int:
    """Ink blobs at least `min_share` of the largest one: coins on a dots face."""
    grey = cv2.cvtColor(face, cv2.COLOR_RGB2GRAY)
    background = int(np.median(grey[:4, :]))
    ink = (np.abs(grey.astype(int) - background) > 40).astype(np.uint8)
    if erode:  # art whose coins touch at this size: fill each coin, then shrink them apart
        contours, _ = cv2.findContours(ink, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        ink = cv2.drawContours(np.zeros_like(ink), contours, -1, 1, thickness=cv2.FILLED)
        ink = cv2.erode(ink, np.ones((2 * erode + 1, 2 * erode + 1), np.uint8))
    contours, _ = cv2.findContours(ink, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    areas = [cv2.contourArea(c) for c in contours]
    if not areas:
        return 0
    return sum(a >= min_share * max(areas) for a in areas)


@pytest.mark.parametrize("name", SOURCES)
def test_source_draws_every_face(name: str) -> None:
    source = _source(name)
    assert source.name == name
    assert source.license
    assert source.codes == EXPECTED_CODES[name]
    rng = np.random.default_rng(0)
    for code in sorted(source.codes):
        face = source.face(code, rng)
        assert face.dtype == np.uint8 and face.ndim == 3 and face.shape[2] == 3, code
        h, w = face.shape[:2]
        assert h >= 128 and w >= 96 and 1.2 <= h / w <= 1.45, (code, face.shape)
        if code != "P":  # a Japanese white dragon is blank; every other face has ink
            assert face.std() > 3, f"{name} {code}: face is blank"


@pytest.mark.parametrize("name", SOURCES)
def test_source_is_deterministic_per_seed(name: str) -> None:
    source = _source(name)
    for code in sorted(source.codes)[::5]:
        a = source.face(code, np.random.default_rng(7))
        b = source.face(code, np.random.default_rng(7))
        assert np.array_equal(a, b), code


def test_unknown_code_is_refused() -> None:
    source = _source("procedural")
    with pytest.raises(KeyError):
        source.face("0z", np.random.default_rng(0))


def test_procedural_varies_between_calls() -> None:
    source = _source("procedural")
    rng = np.random.default_rng(1)
    faces = [source.face("5p", rng) for _ in range(3)]
    assert not np.array_equal(faces[0], faces[1])


def test_procedural_frame_of_bars_inks_all_four_sides() -> None:
    from datasets.faces.procedural import glyphs
    from datasets.faces.procedural.canvas import Canvas
    from datasets.faces.procedural.layout import content_box
    from datasets.faces.procedural.style import random_style

    _source("procedural")  # skips without the CJK fonts the style picks from
    for seed in range(40):
        rng = np.random.default_rng(seed)
        style = random_style(rng)
        canvas = Canvas(style.background)
        glyphs._frame_of_bars(canvas, style, content_box(canvas, style, False), rng)
        ink = np.abs(np.asarray(canvas.image, int) - style.background).sum(axis=2) > 60
        rows, cols = np.nonzero(ink.any(axis=1))[0], np.nonzero(ink.any(axis=0))[0]
        top, bottom, left, right = rows[0], rows[-1], cols[0], cols[-1]
        edges = {
            "top": ink[top : top + 3, left : right + 1].any(axis=0),
            "bottom": ink[bottom - 2 : bottom + 1, left : right + 1].any(axis=0),
            "left": ink[top : bottom + 1, left : left + 3].any(axis=1),
            "right": ink[top : bottom + 1, right - 2 : right + 1].any(axis=1),
        }
        for side, inked in edges.items():
            # inked along most of each side: a frame, not bars down two sides (a cane face)
            assert inked.mean() > 0.4, (seed, side, inked.mean())


@pytest.mark.parametrize("rank", range(1, 10))
def test_procedural_dots_rank_n_has_n_coins(rank: int) -> None:
    from datasets.faces.procedural.canvas import Canvas
    from datasets.faces.procedural.dots import draw_dots
    from datasets.faces.procedural.layout import content_box
    from datasets.faces.procedural.style import random_style

    _source("procedural")  # skips (or fails in CI) when the fonts are not fetched
    for seed in range(4):
        rng = np.random.default_rng(seed)
        style = random_style(rng)
        canvas = Canvas(style.background)
        draw_dots(canvas, style, content_box(canvas, style, has_index=False), rank, rng)
        assert _count_blobs(canvas.to_array()) == rank, (rank, seed)


@pytest.mark.parametrize("cross", [False, True])
def test_procedural_one_dot_medallion_is_one_coin(cross: bool) -> None:
    from datasets.faces.procedural.canvas import Canvas
    from datasets.faces.procedural.dots import _medallion
    from datasets.faces.procedural.style import random_style

    _source("procedural")
    for seed in range(20):
        rng = np.random.default_rng(seed)
        style = random_style(rng)
        canvas = Canvas(style.background)
        r = canvas.W * 0.4
        inks = (style.blue, style.green, style.red)
        _medallion(canvas, style, canvas.W / 2, canvas.H / 2, r, cross, inks, r * 0.07, rng)
        # arms, lobes and petals hang together: the 1-dot is one figure, not a count of coins
        assert _count_blobs(canvas.to_array()) == 1, seed


@pytest.mark.parametrize("rank", range(3, 10))
def test_procedural_dots_in_another_arrangement_keep_n_coins(
    rank: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rows of other widths and rings: the count is what a rank's faces share."""
    from datasets.faces.procedural import dots
    from datasets.faces.procedural.canvas import Canvas
    from datasets.faces.procedural.layout import content_box
    from datasets.faces.procedural.style import random_style

    _source("procedural")
    monkeypatch.setattr(dots, "OTHER_SHARE", 1.0)
    for seed in range(6):
        rng = np.random.default_rng(seed)
        style = random_style(rng)
        canvas = Canvas(style.background)
        dots.draw_dots(canvas, style, content_box(canvas, style, has_index=False), rank, rng)
        # counted at the drawing's own scale: thin-ringed coins in a pale ink fall under the
        # counter's ink threshold once reduced (seed 4)
        assert _count_blobs(np.asarray(canvas.image)) == rank, (rank, seed)


@pytest.mark.parametrize("n", range(1, 10))
def test_other_arrangements_place_n_apart_inside_the_box(n: int) -> None:
    from datasets.faces.procedural.arrangements import other_arrangement

    for seed in range(20):
        for sticks in (False, True):
            placed = other_arrangement(n, np.random.default_rng(seed), sticks)
            if placed is None:
                assert n < 3 or (sticks and n < 4)
                continue
            centres = np.array(placed)
            assert len(centres) == n
            assert ((centres > 0) & (centres < 1)).all()
            gaps = np.linalg.norm(centres[:, None] - centres[None], axis=2) + np.eye(n)
            assert gaps.min() > 0.1, (n, seed, sticks)


@pytest.mark.parametrize("n", range(4, 10))
def test_sticks_in_another_arrangement_never_touch_along_a_column(n: int) -> None:
    """Two sticks end to end read as one long cane: the count would change."""
    from datasets.faces.procedural.arrangements import other_arrangement
    from datasets.faces.procedural.bamboo import _sticks_of

    for seed in range(40):
        placed = other_arrangement(n, np.random.default_rng(seed), sticks=True)
        assert placed is not None
        sticks = _sticks_of(placed, ["g"] * n)
        assert len(sticks) == n
        for i, (u, v, length, tilt, _) in enumerate(sticks):
            assert tilt == 0  # upright in rows: a ring of sticks looks like a dragon's frame
            for u2, v2, *_ in sticks[i + 1 :]:
                if abs(u - u2) < 0.05:
                    assert abs(v - v2) > length, (n, seed)


@pytest.mark.parametrize("right", [False, True])
def test_procedural_big_index_stands_in_its_own_column(right: bool) -> None:
    from dataclasses import replace

    from datasets.faces.procedural.canvas import Canvas
    from datasets.faces.procedural.layout import content_box, draw_corner_index
    from datasets.faces.procedural.style import random_style

    _source("procedural")
    for seed in range(8):
        style = replace(
            random_style(np.random.default_rng(seed)), index_big=True, index_right=right
        )
        canvas = Canvas(style.background)
        x0, y0, x1, _ = content_box(canvas, style, has_index=True)
        assert y0 == canvas.H * style.margin_y  # no strip off the top: a column instead
        draw_corner_index(canvas, style, "6")
        ink = np.abs(np.asarray(canvas.image, int) - style.background).sum(axis=2) > 60
        rows, cols = np.nonzero(ink.any(axis=1))[0], np.nonzero(ink.any(axis=0))[0]
        assert rows.max() - rows.min() > canvas.H * 0.16  # big: a small index is 0.13 high
        # beside the pattern: a face of two columns and a big 6 is not a face of three columns
        assert (cols.min() >= x1) if right else (cols.max() <= x0), seed


@pytest.mark.parametrize("rank", [2, 3, 4, 7])
def test_procedural_free_index_sits_in_a_gap(rank: int) -> None:
    """An index printed among the coins adds ink only where the coins left the face bare."""
    from datasets.faces.procedural.canvas import Canvas
    from datasets.faces.procedural.dots import draw_dots
    from datasets.faces.procedural.layout import content_box, draw_free_index
    from datasets.faces.procedural.style import random_style

    _source("procedural")
    drawn = 0
    for seed in range(6):
        rng = np.random.default_rng(seed)
        style = random_style(rng)
        canvas = Canvas(style.background)
        box = content_box(canvas, style, has_index=False)
        draw_dots(canvas, style, box, rank, rng)
        before = np.asarray(canvas.image).copy()
        coins = np.abs(before.astype(int) - style.background).max(axis=2) > 24
        drawn += draw_free_index(canvas, style, box, str(rank), rng)
        after = np.asarray(canvas.image)
        assert np.array_equal(before[coins], after[coins]), seed
    assert drawn >= 3  # most coin layouts leave a gap wide enough


@pytest.mark.parametrize("rank", range(1, 6))  # from 6 up its coins touch at face size
def test_fluffystuff_dots_rank_n_has_n_coins(rank: int) -> None:
    source = _source("fluffystuff")
    faces = [source.face(f"{rank}p", np.random.default_rng(seed)) for seed in range(12)]
    face = next(f for f in faces if f[:4].mean() > 128)  # the light variant: coins stand apart
    assert _count_blobs(face, min_share=0.5, erode=2) == rank


def _variant_faces(source: FaceSource, code: str) -> dict[str, np.ndarray]:
    """Each fixed design of `code`: per theme / variant folder, or per font for unicode."""
    from datasets.faces.raster_source import RasterSource, load_face
    from datasets.faces.unicode import UnicodeSource, glyph_face_mask

    if isinstance(source, RasterSource):
        return {path.parent.name: load_face(path) for path in set(source.paths(code))}
    assert isinstance(source, UnicodeSource)
    return {
        font.label: np.repeat(255 - glyph_face_mask(font, code)[:, :, None], 3, axis=2)
        for font in source.fonts
    }


@pytest.mark.parametrize("name", ["unicode", "fluffystuff", "kde", "gnome"])
@pytest.mark.parametrize("rank", range(1, 6))  # from 6 up some sets' coins touch at face size
def test_fixed_art_dots_rank_n_has_n_coins(name: str, rank: int) -> None:
    """The dots suit is mapped in order in every theme and font (a wrong id shows here)."""
    source = _source(name)
    for variant, face in _variant_faces(source, f"{rank}p").items():
        assert _count_blobs(face, min_share=0.5, erode=2) == rank, variant


@pytest.mark.parametrize("name", ["unicode", "fluffystuff", "kde", "gnome"])
def test_fixed_art_faces_are_all_different(name: str) -> None:
    """No two codes share a drawing within a theme: two codes on one element would."""
    source = _source(name)
    seen: dict[tuple[str, bytes], str] = {}
    for code in sorted(source.codes):
        for variant, face in _variant_faces(source, code).items():
            key = (variant, face.tobytes())
            assert key not in seen, f"{name}/{variant}: {code} draws like {seen[key]}"
            seen[key] = code


def test_stylize_ink_outlines_shadows_and_shades_only_where_it_should() -> None:
    """Outline and shadow fall outside the ink, on the face; the shading leaves the face
    colour alone and makes the ink lighter at the top than at the bottom."""
    from datasets.faces.procedural.canvas import Canvas

    background, ink_colour, dark = (240, 236, 220), (40, 120, 60), (10, 10, 10)

    def drawn() -> tuple[Canvas, np.ndarray]:
        canvas = Canvas(background)
        canvas.draw.rectangle((60, 40, 180, 280), fill=ink_colour)
        ink = np.abs(np.asarray(canvas.image).astype(int) - background).max(axis=2) > 20
        return canvas, ink

    canvas, ink = drawn()
    canvas.stylize_ink(background, outline=3, shadow=0, gradient=0.0, dark=dark)
    out = np.asarray(canvas.image)
    assert (out[ink] == ink_colour).all()
    rim = (out == dark).all(axis=2)
    assert rim.sum() > 0 and not (rim & ink).any()
    assert rim[40:281, 57].all() and not rim[40:281, 50].any()  # 3 px wide, no more

    canvas, ink = drawn()
    canvas.stylize_ink(background, outline=0, shadow=4, gradient=0.0, dark=dark)
    out = np.asarray(canvas.image).astype(int)
    changed = (out != background).any(axis=2) & ~ink
    assert changed.sum() > 0
    ys, xs = np.nonzero(changed)
    assert xs.min() > 60 and ys.min() > 40  # cast down and to the right

    canvas, ink = drawn()
    canvas.stylize_ink(background, outline=0, shadow=0, gradient=0.25, dark=dark)
    out = np.asarray(canvas.image).astype(int)
    assert (out[~ink] == background).all()
    assert out[45, 120].sum() > out[275, 120].sum()


def test_unicode_faces_keep_no_frame_along_their_sides() -> None:
    """The tile outline goes, and any frame inside it: Hanazono draws one round its characters
    only, a suit cue that no real set has."""
    source = _source("unicode")
    for code in sorted(source.codes):
        for font, face in _variant_faces(source, code).items():
            ink = face[:, :, 0] < 128
            h, w = ink.shape
            edge = max(1, int(0.1 * w))
            for side in (ink[:, :edge], ink[:, -edge:]):
                column = side.any(axis=1)
                longest = max(
                    (len(run) for run in "".join("1" if c else " " for c in column).split()),
                    default=0,
                )
                assert longest < 0.6 * h, f"{font} {code}: a bar {longest} of {h} px along a side"


def test_kde_source_fills_a_half_cached_raster_before_use(tmp_path, monkeypatch) -> None:
    """A first render beside fetch_art.sh found one theme cached and the others still being
    written, and drew its held-out photos from that theme alone: a theme that
    is fetched but not fully cached must be cached before the source is used."""
    from PIL import Image

    from datasets.faces import kde

    monkeypatch.setenv("MJLENS_ART_DIR", str(tmp_path))
    kde.tileset_dir().mkdir(parents=True)
    for theme in kde.THEMES:
        (kde.tileset_dir() / f"{theme}.svgz").write_bytes(b"")

    def cache(theme: str) -> None:
        for code in kde.ELEMENT_OF:
            out = tmp_path / "raster" / "kde" / theme / f"{code}.png"
            kde.save_png(Image.new("RGB", (120, 160), (250, 240, 220)), out)

    cache("traditional")
    calls = []
    monkeypatch.setattr(
        kde, "rasterize_all", lambda: calls.append(1) or [cache(t) for t in kde.THEMES]
    )
    source = kde.KdeSource()
    assert calls == [1]
    assert len(source.paths("1m")) == len(kde.THEMES)
    kde.KdeSource()  # a full cache is used as it is
    assert calls == [1]


def test_drawn_flowers_source_draws_flower_art_flowers_apart() -> None:
    """`drawnflowers`, never in SOURCES: procedural suits, `datasets.faces.flower_art` flowers, and
    one scene's seed drawing each flower its own way (one seed for all eight drew 1h and
    5h as the same emblem, a pair no reader can tell apart)."""
    from datasets.faces.flower_art import flower_face

    assert "drawnflowers" not in SOURCES
    drawn, procedural = _source("drawnflowers"), _source("procedural")
    assert drawn.codes == frozenset(FACES)
    # Seed 1 is one where `flower_face` alone draws each flower as the season of its number.
    same_seed = [drawn.face(code, np.random.default_rng(1)) for code in FLOWERS]
    assert all(f.shape == (160, 120, 3) and f.dtype == np.uint8 for f in same_seed)
    for a, b in zip(same_seed[:4], same_seed[4:], strict=True):
        assert not np.array_equal(a, b)  # a flower and the season of its number
    assert np.array_equal(
        flower_face("1h", np.random.default_rng(1)), flower_face("5h", np.random.default_rng(1))
    )
    assert np.array_equal(
        drawn.face("5p", np.random.default_rng(3)), procedural.face("5p", np.random.default_rng(3))
    )
    a = drawn.face("6h", np.random.default_rng(9))
    assert np.array_equal(a, drawn.face("6h", np.random.default_rng(9)))
