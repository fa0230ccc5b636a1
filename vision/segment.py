"""One row of the hand at a time: each tile's pose, the rows tiles chain into, and the best
split of a row into melds, concealed kongs, loose runs and flowers.

Works from geometry and the classifier's probabilities; which rows belong to the hand is
`vision.hand_rows`'s call, and which way the rows read is `vision.reading`'s.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from scoring.tiles import PLAYING
from vision.geometry import Array, Frame, TileGeometry, meld_log_likelihood
from vision.notes import Note, NoteCode
from vision.roles import CROSSWISE, Pose, Role
from vision.types import FLOWER_SLICE, Tiles

# Scores of the row segmentation (log-likelihood units): a sideways tile that is not in a
# meld, or a face-down tile outside a concealed kong, contradicts the rule book's layout.
_LONE_SIDEWAYS = -6.0
_LONE_FACE_DOWN = -4.0
_MELD_BASE = 3.0
# A meld is laid with one tile crosswise; a second one in the window is a false sideways flag
# (the detector's quads of sideways tiles are loose): still a meld, at this cost.
_SECOND_SIDEWAYS = -3.0
_EDGE_AT_GAP, _EDGE_TOUCHING, _GAP_INSIDE = 1.0, -1.5, -2.0
# Geometry (gaps, poses) outweighs codes: one misread tile must not break up a meld.
_CODE_WEIGHT = 0.3
_NO_FLOWER = 0.05  # flower probability under which a tile never counts as a flower
# Flowers are laid aside together, not between a player's hand tiles: a tile read as a flower
# with tiles surely no flowers on both sides of it in its row is more likely a misread suit
# tile (the 1s's bird, a claimed tile's picture seen crosswise) than a flower put there. Its
# odds of being a flower are scaled by this (a sure flower, 0.99, stays one).
_INTERIOR_FLOWER_ODDS = 0.02
_GAP = 0.08  # tile widths: a gap this wide separates groups in a tightly packed row
_GAP_MAX = 0.14  # ...and in a loosely packed one (the rule book's groups stand further apart)
_KONG_FACE_DOWN = ((1, 1, 1, 1), (1, 0, 0, 1), (0, 1, 1, 0))
# Poses that lie a quarter turn from the row: a claimed tile, or a turned tile read as a
# flower (a flower lying askew, or a claimed suit tile misread as one: the melds decide).
TURNED = CROSSWISE


@dataclass(frozen=True)
class Group:
    """Tiles that belong together, as indices into `Tiles`, in reading order (left to right).

    `claimed_from` (left / opposite / right) is read from where the sideways tile sits in an
    exposed meld; `claimed` is that tile's index.
    """

    role: Role
    tiles: tuple[int, ...]
    row: int
    claimed_from: str | None = None
    claimed: int | None = None


def flower_mass(tiles: Tiles, rows: list[list[int]]) -> Array:
    """Per tile, the probability that it is a flower, given the classifier and where it lies:
    the classifier's flower mass, with the odds scaled down for a tile between two tiles of
    its row that are surely no flowers."""
    read: Array = tiles.probs[:, FLOWER_SLICE].sum(axis=1).astype(np.float64)
    mass: Array = read.copy()
    for row in rows:
        for left, tile, right in zip(row, row[1:], row[2:], strict=False):
            if read[left] < _NO_FLOWER and read[right] < _NO_FLOWER:
                odds = _INTERIOR_FLOWER_ODDS * read[tile] / max(1.0 - read[tile], 1e-9)
                mass[tile] = odds / (1.0 + odds)
    return mass


def tile_kinds(tiles: Tiles, geometry: TileGeometry, frame: Frame, flowers: Array) -> list[Pose]:
    """Pose per tile: upright face-up, sideways (a claimed tile), turned but read as a
    flower, face-down.

    The detector's face-down flag decides: it sees the tile's body, while the classifier's
    `back` class only sees a crop, and a face-up tile misread as a back would break the hand.
    `flowers` is each tile's flower probability (`flower_mass`). A flower is never claimed,
    so a turned flower is just lying askew; but a claimed tile seen crosswise is often misread
    as a flower (held-out KDE photos: 60 of 894 claimed tiles), so a turned flower may still
    complete a meld (T), where it must, and is not out of place on its own.
    """
    turned = frame.quarter_turned(geometry)
    flowery = flowers > 0.5
    kinds = []
    for i in range(len(tiles)):
        if tiles.face_down[i]:
            kinds.append(Pose.FACE_DOWN)
        elif tiles.sideways[i] or turned[i]:
            kinds.append(Pose.TURNED if flowery[i] else Pose.SIDEWAYS)
        else:
            kinds.append(Pose.UPRIGHT)
    return kinds


def find_rows(geometry: TileGeometry, frame: Frame) -> list[list[int]]:
    """Tiles chained by near neighbours at one depth; rows top to bottom, tiles left to right."""
    across = frame.across(geometry.centers)
    along = frame.along(geometry.centers)
    h = geometry.face_height
    c = geometry.corners
    widths = np.minimum(
        np.linalg.norm(c[:, 1] - c[:, 0], axis=1), np.linalg.norm(c[:, 3] - c[:, 0], axis=1)
    )
    n = len(across)
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(n):
        for j in range(i + 1, n):
            # Half a tile of depth tolerates a sideways tile aligned on the near edge; tiles
            # overlapping along the row are in different rows (a row's tiles never overlap).
            pair = 0.75 * min(widths[i], widths[j])  # the two tiles' own widths: perspective
            apart_along = pair < abs(along[i] - along[j]) < 3.0 * h
            if abs(across[i] - across[j]) < 0.5 * h and apart_along:
                parent[find(i)] = find(j)
    rows: dict[int, list[int]] = {}
    for i in range(n):
        rows.setdefault(find(i), []).append(i)
    ordered = sorted(rows.values(), key=lambda row: float(np.mean(across[row])))
    return [sorted(row, key=lambda i: float(along[i])) for row in ordered]


def _gaps_after(
    row: list[int], kinds: list[Pose], geometry: TileGeometry, frame: Frame
) -> list[float]:
    """For each tile but the last: the gap before the next tile, in local tile widths.

    gap = distance between the two centres along the row minus half of each tile's extent
    along the row. Centres average four corners and extents are medians over neighbours of
    the same pose, so a detector's corner noise is averaged down instead of opening or
    closing gaps; the extents follow the row, so perspective (far tiles look smaller) does
    not either.
    """
    if len(row) < 2:
        return []
    c = geometry.corners[row]
    width = (
        np.linalg.norm(c[:, 1] - c[:, 0], axis=1) + np.linalg.norm(c[:, 2] - c[:, 3], axis=1)
    ) / 2
    height = (
        np.linalg.norm(c[:, 3] - c[:, 0], axis=1) + np.linalg.norm(c[:, 2] - c[:, 1], axis=1)
    ) / 2
    turned = np.array([kinds[i] in TURNED for i in row])
    along = frame.along(geometry.centers[row])
    local_width = _width_along_row(along, width, ~turned)
    # A sideways tile spans its face height along the row: the set's height/width ratio
    # times the local width (measured from the sideways tiles themselves).
    ratio = float(np.median(height[turned] / local_width[turned])) if turned.any() else 1.0
    smooth = np.where(turned, ratio * local_width, local_width)
    out = []
    for k in range(len(row) - 1):
        gap = along[k + 1] - along[k] - (smooth[k] + smooth[k + 1]) / 2
        out.append(float(2 * gap / (local_width[k] + local_width[k + 1])))
    return out


def _width_along_row(along: Array, width: Array, upright: npt.NDArray[np.bool_]) -> Array:
    """Face width as a straight-line function of the position along the row.

    A fit over the row's upright tiles averages out corner noise, and the slope follows
    perspective (tiles farther from the camera look smaller).
    """
    if upright.sum() >= 3 and np.ptp(along[upright]) > 0:
        # A straight row under a pinhole camera: linear; a curve for lens distortion when
        # the row is long enough to show it.
        degree = 2 if upright.sum() >= 8 else 1
        fitted = np.polyval(np.polyfit(along[upright], width[upright], degree), along)
        return np.asarray(np.clip(fitted, 0.5 * width.min(), 2.0 * width.max()), dtype=np.float64)
    typical = float(np.median(width[upright])) if upright.any() else float(np.median(width))
    return np.full(len(along), typical)


def segment_row(
    row: list[int],
    r: int,
    kinds: list[Pose],
    tiles: Tiles,
    geometry: TileGeometry,
    frame: Frame,
    flowers: Array,
) -> tuple[list[Group], list[Note], dict[int, float]]:
    """Best split of one row into melds, concealed kongs and loose runs (dynamic programme):
    the groups, a note for each crosswise or face-down tile no meld takes, and how far each
    tile stands from its nearest row neighbour, in tile widths. `flowers` is each tile's
    flower probability (`flower_mass`).
    """
    sizes = _gaps_after(row, kinds, geometry, frame)
    # Touching tiles show ~0; the rule book's groups are >= ~0.15 tile width apart.
    # Hand-laid tiles are not packed tight: the row's own typical spacing sets the bar.
    typical = float(np.median(np.maximum(sizes, 0.0))) if sizes else 0.0
    bar = min(max(_GAP, 2.5 * typical), _GAP_MAX)
    gap = [g > bar for g in sizes]
    n = len(row)
    apart: dict[int, float] = {}
    for k, tile in enumerate(row):
        sides = sizes[max(k - 1, 0) : k + 1]
        apart[tile] = min(sides) if sides else np.inf
    empty: list[tuple[str, int, int]] = []
    best = [(0.0, empty)] + [(-np.inf, empty) for _ in range(n)]
    for i in range(n):
        score_i, plan_i = best[i]
        if score_i == -np.inf:
            continue
        lone = {Pose.SIDEWAYS: _LONE_SIDEWAYS, Pose.FACE_DOWN: _LONE_FACE_DOWN}.get(
            kinds[row[i]], 0.0
        )
        if score_i + lone > best[i + 1][0]:
            best[i + 1] = (score_i + lone, [*plan_i, ("single", i, i + 1)])
        for length in (3, 4):
            j = i + length
            if j > n:
                continue
            kind, value = _window(row[i:j], kinds, tiles, flowers)
            if kind is None:
                continue
            edges = [i == 0 or gap[i - 1], j == n or gap[j - 1]]
            value += sum(_EDGE_AT_GAP if e else _EDGE_TOUCHING for e in edges)
            value += _GAP_INSIDE * sum(gap[i : j - 1])
            if score_i + value > best[j][0]:
                best[j] = (score_i + value, [*plan_i, (kind, i, j)])
    groups, notes = _groups_from_plan(row, r, best[n][1], gap, kinds, flowers)
    return groups, notes, apart


def _window(
    members: list[int], kinds: list[Pose], tiles: Tiles, flowers: Array
) -> tuple[str | None, float]:
    """Is this run of 3-4 tiles a meld by pose? Returns its kind and pose+code score.

    A turned tile read as a flower (T) joins a meld only as far as it may be no flower: the
    meld pays the log of that chance, so a sure flower lying askew at a row's end stays out.
    """
    pose = [kinds[i] for i in members]
    down = tuple(int(k == Pose.FACE_DOWN) for k in pose)
    crosswise = sum(k in TURNED for k in pose)
    if crosswise in (1, 2) and not any(down):
        shape = "chow_pung" if len(members) == 3 else "kong"
        codes = meld_log_likelihood(tiles.probs[members][:, : len(PLAYING)], shape)
        second = _SECOND_SIDEWAYS if crosswise == 2 else 0.0
        no_flower = sum(
            float(np.log1p(-min(flowers[t], 0.999))) for t in members if kinds[t] == Pose.TURNED
        )
        return "meld", _MELD_BASE + _CODE_WEIGHT * codes + second + no_flower
    if len(members) == 4 and down in _KONG_FACE_DOWN and crosswise == 0:
        up = [m for m, d in zip(members, down, strict=True) if not d]
        codes = meld_log_likelihood(tiles.probs[up][:, : len(PLAYING)], "same") if up else 0.0
        return "concealed_kong", _MELD_BASE + _CODE_WEIGHT * codes
    return None, 0.0


def _groups_from_plan(
    row: list[int],
    r: int,
    plan: list[tuple[str, int, int]],
    gap: list[bool],
    kinds: list[Pose],
    flowers: Array,
) -> tuple[list[Group], list[Note]]:
    groups: list[Group] = []
    notes: list[Note] = []
    run: list[int] = []

    def close_run() -> None:
        nonlocal run
        if run:
            groups.extend(_split_flowers(run, r, flowers))
        run = []

    for kind, i, j in plan:
        members = tuple(row[i:j])
        if kind == "single":
            tile = row[i]
            if kinds[tile] in (Pose.SIDEWAYS, Pose.FACE_DOWN):
                close_run()
                what = "sideways" if kinds[tile] == Pose.SIDEWAYS else "face-down"
                message = f"a {what} tile (#{tile}) is not part of any meld"
                notes.append(Note(NoteCode.TILE_FITS_NO_MELD, message, (tile,)))
                groups.append(Group(Role.STRAY, members, r))
                continue
            if (
                kinds[tile] == Pose.TURNED
            ):  # turned, no meld's: a flower lying askew, not a hand tile
                close_run()
                groups.extend(_split_flowers([tile], r, flowers))
                continue
            if run and gap[i - 1]:
                close_run()
            run.append(tile)
            continue
        close_run()
        if kind == "meld":
            # Of two crosswise tiles (one a false flag), the claimed one is likelier at an end
            # (a chow's is always the left one) than in the middle.
            turned = [p for p, t in enumerate(members) if kinds[t] in TURNED]
            side = min(turned, key=lambda p: (0 < p < len(members) - 1, p))
            claimed_from = claimed_from_position(side, len(members))
            groups.append(Group(Role.MELD, members, r, claimed_from, members[side]))
        else:
            groups.append(Group(Role.CONCEALED_KONG, members, r))
    close_run()
    return groups, notes


def _split_flowers(run: list[int], r: int, flower_probs: Array) -> list[Group]:
    """A run of loose tiles is flowers if, taken together, it more likely is than not.

    Decided per run, not per tile: flowers are put aside as a group, so one misread tile must
    not split a run (its neighbours' evidence outweighs it). A tile that is clearly no flower
    (a winning tile nudged out towards the flowers) leaves the run on its own.
    """
    mass = 0.98 * flower_probs[run] + 0.01
    if float(np.log(mass).sum() - np.log(1 - mass).sum()) <= 0:
        return [Group(Role.CONCEALED, tuple(run), r)]
    groups: list[Group] = []
    flowers: list[int] = []
    for tile, m in zip(run, mass, strict=True):
        if m < _NO_FLOWER:
            groups.append(Group(Role.CONCEALED, (tile,), r))
        else:
            flowers.append(tile)
    return [Group(Role.FLOWER, tuple(flowers), r), *groups]


def claimed_from_position(position: int, length: int) -> str:
    """The rule book's layout: the claimed tile points at the player it came from."""
    if position == 0:
        return "left"
    if position == length - 1:
        return "right"
    return "opposite"
