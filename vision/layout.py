"""How a declared win lies on the table: reading direction, rows, melds, winning tile, flowers.

The rule book lays a win out for the others to check: the concealed tiles in a row, each exposed
meld apart with the claimed tile turned a quarter turn at the end pointing to the player it came
from (left player: left end, opposite: middle, right player: right end), a concealed kong
(暗杠) face-down or with its two ends face-down, the winning tile a little apart, flowers aside.
This module recovers that structure from tile geometry (and the classifier's probabilities
where geometry alone is ambiguous); it names no tile codes, which is `vision.decode`'s job.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import pairwise

import numpy as np
import numpy.typing as npt

from scoring.tiles import CLASSES, FLOWERS, PLAYING
from vision.geometry import Array, Frame, TileGeometry, meld_log_likelihood, reading_frame
from vision.types import Tiles

ROLES = ("concealed", "winning", "meld", "concealed_kong", "flower", "stray")
_FLOWER_SLICE = slice(CLASSES.index(FLOWERS[0]), CLASSES.index(FLOWERS[-1]) + 1)
# Scores of the row segmentation (log-likelihood units): a sideways tile that is not in a
# meld, or a face-down tile outside a concealed kong, contradicts the rule book's layout.
_LONE_SIDEWAYS = -6.0
_LONE_FACE_DOWN = -4.0
_MELD_BASE = 3.0
_EDGE_AT_GAP, _EDGE_TOUCHING, _GAP_INSIDE = 1.0, -1.5, -2.0
# Geometry (gaps, poses) outweighs codes: one misread tile must not break up a meld.
_CODE_WEIGHT = 0.3
_ALIGNED_DEG = 15.0  # a row of the hand lies within this of the main row's axis
_ROW_REACH = 2.2  # tile heights between the hand's rows (melds or flowers on a second row)
_CORNER_EVIDENCE = 6.0  # corners that know which way faces read outweigh sorting cues
_SENSE_MARGIN = 2.0  # evidence gap under which the reading sense is called unsure
_HAND_TILES = 14
_ORDER = {code: i for i, code in enumerate(PLAYING)}  # m, p, s by rank, then honours
_NO_FLOWER = 0.05  # flower probability under which a tile never counts as a flower
_GAP = 0.08  # tile widths: a gap this wide separates groups in a tightly packed row
_GAP_MAX = 0.14  # ...and in a loosely packed one (the rule book's groups stand further apart)
_KONG_FACE_DOWN = ((1, 1, 1, 1), (1, 0, 0, 1), (0, 1, 1, 0))


@dataclass(frozen=True)
class Group:
    """Tiles that belong together, as indices into `Tiles`, in reading order (left to right).

    `claimed_from` (left / opposite / right) is read from where the sideways tile sits in an
    exposed meld; `claimed` is that tile's index.
    """

    role: str
    tiles: tuple[int, ...]
    row: int
    claimed_from: str | None = None
    claimed: int | None = None


@dataclass(frozen=True)
class Layout:
    """The structure of a declared win; `ambiguity` says what was unsure, if anything."""

    groups: tuple[Group, ...]
    rows: tuple[tuple[int, ...], ...]
    up: tuple[float, float]  # unit vector: the direction faces read upward, photo coordinates
    tile_size: tuple[float, float]  # typical face (width, height) in photo pixels
    warnings: tuple[str, ...] = ()
    ambiguity: str | None = None
    kinds: tuple[str, ...] = field(default=())  # per tile: U upright, S sideways, D face-down

    def of_role(self, role: str) -> tuple[Group, ...]:
        return tuple(g for g in self.groups if g.role == role)

    @property
    def concealed(self) -> tuple[int, ...]:
        return tuple(i for g in self.of_role("concealed") for i in g.tiles)

    @property
    def winning(self) -> int | None:
        groups = self.of_role("winning")
        return groups[0].tiles[0] if groups else None

    @property
    def melds(self) -> tuple[Group, ...]:
        return tuple(g for g in self.groups if g.role in ("meld", "concealed_kong"))

    @property
    def flowers(self) -> tuple[int, ...]:
        return tuple(i for g in self.of_role("flower") for i in g.tiles)

    @property
    def angle_deg(self) -> float:
        """Rotation of the photo relative to upright reading, degrees clockwise."""
        return float(np.degrees(np.arctan2(self.up[0], -self.up[1])))


def layout(tiles: Tiles) -> Layout:
    """Recover rows, melds, the winning tile and flowers from tile geometry.

    The faces' corners fix the rows' axis but not always their sense: a detector that cannot
    tell a face from the same face upside down reports corners in a canonical order. So the
    layout is read both ways along the axis and the sense the hand itself supports wins:
    tiles sorted left to right, the winning tile at the right end of the concealed row.

    Example:
        >>> found = layout(tiles)  # doctest: +SKIP
        >>> [g.role for g in found.groups]
        ['meld', 'concealed', 'winning', 'flower']
    """
    if len(tiles) == 0:
        return Layout((), (), (0.0, -1.0), (0.0, 0.0), ("no tiles found in the photo",))
    geometry = TileGeometry.of(tiles)
    frame, notes = reading_frame(geometry, tiles)
    readings = [_read_in(frame, tiles, geometry, notes) for frame in (frame, frame.flipped())]
    evidence = [_sense_evidence(found, tiles, geometry, f) for found, f in readings]
    if _corners_know_up(geometry, tiles):
        evidence[0] += _CORNER_EVIDENCE
    # Ties keep the corners' own sense.
    flip = evidence[1] > evidence[0]
    found, _ = readings[1] if flip else readings[0]
    mirrored = [g for g in found.melds if g.claimed_from in ("left", "right")]
    if abs(evidence[1] - evidence[0]) < _SENSE_MARGIN and mirrored and found.ambiguity is None:
        note = "unsure which way the hand reads: left and right claims may be swapped"
        found = replace(found, warnings=(*found.warnings, note), ambiguity=note)
    return found


def _corners_know_up(geometry: TileGeometry, tiles: Tiles) -> bool:
    """Do the face corners say which way faces read? A detector that cannot tell reports
    every face's up in the upper-left half-plane; any face clearly outside it shows that
    these corners carry the real reading direction."""
    upright = ~tiles.face_down
    return bool((geometry.ups[upright] @ np.array([-1.0, -1.0]) < -0.3).any())


def _read_in(
    frame: Frame, tiles: Tiles, geometry: TileGeometry, notes: list[str]
) -> tuple[Layout, Frame]:
    kinds = _kinds(tiles, geometry, frame)
    rows = _rows(geometry, frame)
    warnings = list(notes)
    apart: dict[int, float] = {}
    notes_of: list[list[str]] = [[] for _ in rows]
    segmented = [
        _segment_row(row, r, kinds, tiles, geometry, frame, notes_of[r], apart)
        for r, row in enumerate(rows)
    ]
    hand_rows = _hand_rows(rows, segmented, tiles, kinds, geometry, frame)
    groups: list[Group] = []
    for r, row in enumerate(rows):
        if r in hand_rows:
            groups += segmented[r]
            warnings += notes_of[r]
        else:
            groups.append(Group("stray", tuple(row), r))
    groups = _added_kong_tiles(groups, kinds, geometry, frame)
    placed = {t for g in groups if g.role == "meld" for t in g.tiles}
    warnings = [w for w in warnings if not any(f"(#{t})" in w for t in placed)]
    apart_rows = sum(len(g.tiles) for g in groups if g.role == "stray" and g.row not in hand_rows)
    if apart_rows:
        warnings.append(f"{apart_rows} tiles lie apart from the hand and were left out")
    misfits = [t for g in groups if g.role == "stray" and g.row in hand_rows for t in g.tiles]
    groups = _fit_count(groups)
    groups, ambiguity = _choose_winning(groups, geometry, frame, warnings, apart)
    if misfits and ambiguity is None:
        # A crosswise or face-down tile the melds cannot place: a meld may be misread.
        ambiguity = f"{len(misfits)} tiles among the hand fit no meld"
    found = Layout(
        groups=tuple(groups),
        rows=tuple(tuple(row) for row in rows),
        up=(float(frame.up[0]), float(frame.up[1])),
        tile_size=(geometry.face_width, geometry.face_height),
        warnings=tuple(warnings),
        ambiguity=ambiguity,
        kinds=tuple(kinds),
    )
    return found, frame


def _sense_evidence(found: Layout, tiles: Tiles, geometry: TileGeometry, frame: Frame) -> float:
    """How well this reading sense fits how people lay a hand out.

    +1 per neighbouring pair in ascending order within a group (players sort their tiles,
    and lay melds out in order), -1 per descending pair; +2 when the winning tile lies to the
    right of the concealed tiles, -2 when to the left.
    """
    codes = tiles.codes
    score = 0.0
    for group in found.groups:
        if group.role not in ("concealed", "meld"):
            continue
        keys = [_ORDER.get(codes[i]) for i in group.tiles]
        for a, b in pairwise(keys):
            if a is not None and b is not None and a != b:
                score += 1.0 if b > a else -1.0
    if found.winning is not None and found.concealed:
        along = frame.along(geometry.centers)
        score += (
            2.0 if along[found.winning] > float(np.mean(along[list(found.concealed)])) else -2.0
        )
    across = frame.across(geometry.centers)
    for meld in found.of_role("meld"):
        score += _claimed_tile_evidence(meld, across, geometry.face_height)
    return score


def _claimed_tile_evidence(meld: Group, across: Array, face_height: float) -> float:
    """A claimed tile is pushed to the left end of a chow and, lying crosswise, sits flush with
    the row's near edge: its centre is nearer the player than its neighbours'."""
    if meld.claimed is None:
        return 0.0
    score = 0.0
    position = meld.tiles.index(meld.claimed)
    if len(meld.tiles) == 3 and position in (0, 2):
        score += 0.5 if position == 0 else -0.5
    others = [t for t in meld.tiles if t != meld.claimed]
    offset = float(across[meld.claimed] - np.mean(across[others]))
    if abs(offset) > 0.05 * face_height:
        score += 1.0 if offset > 0 else -1.0
    return score


def _kinds(tiles: Tiles, geometry: TileGeometry, frame: Frame) -> list[str]:
    """Pose per tile: U upright face-up, S sideways (a claimed tile), D face-down.

    The detector's face-down flag decides: it sees the tile's body, while the classifier's
    `back` class only sees a crop, and a face-up tile misread as a back would break the hand.
    """
    turned = frame.quarter_turned(geometry)
    # A flower is never claimed, so a turned flower is just lying askew.
    flowery = tiles.probs[:, _FLOWER_SLICE].sum(axis=1) > 0.5
    kinds = []
    for i in range(len(tiles)):
        if tiles.face_down[i]:
            kinds.append("D")
        elif (tiles.sideways[i] or turned[i]) and not flowery[i]:
            kinds.append("S")
        else:
            kinds.append("U")
    return kinds


def _rows(geometry: TileGeometry, frame: Frame) -> list[list[int]]:
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


def _hand_rows(
    rows: list[list[int]],
    segmented: list[list[Group]],
    tiles: Tiles,
    kinds: list[str],
    geometry: TileGeometry,
    frame: Frame,
) -> set[int]:
    """Rows of the declared hand, grown from the row holding most of it.

    Nearer rows join first (melds, flowers or the winning tile on a second row), as long as
    they stay within reach and the hand does not pass 14 tiles: beyond that lie discards, a
    stretch of wall or another player's tiles.
    """
    counts = [_hand_count(groups) for groups in segmented]

    def _flowers_after_all(r: int) -> bool:
        if any(g.role not in ("concealed", "flower") for g in segmented[r]):
            return False
        mass = tiles.probs[rows[r], _FLOWER_SLICE].sum(axis=1)
        if float(mass.mean()) < 0.3:
            return False
        segmented[r] = [Group("flower", tuple(rows[r]), r)]
        counts[r] = 0
        return True

    if not rows or max(counts) == 0:
        return set(range(len(rows)))
    across = frame.across(geometry.centers)
    level = [float(np.median(across[row])) for row in rows]
    main = int(np.argmax(counts))
    keep, total = {main}, counts[main]
    reach = _ROW_REACH * geometry.face_height
    # Each tile's edge that runs along its row (the top edge, or a sideways tile's side), as
    # an axis (angle x 2): perspective bends a quarter turn, but not a row's own direction.
    edge = np.where(np.array([k == "S" for k in kinds])[:, None], geometry.ups, geometry.rights)
    angle = 2 * np.arctan2(edge[:, 1], edge[:, 0])
    axis = np.stack([np.cos(angle), np.sin(angle)], axis=1)
    main_axis = axis[rows[main]].mean(axis=0)
    main_axis /= max(float(np.linalg.norm(main_axis)), 1e-9)
    for r in sorted(range(len(rows)), key=lambda r: abs(level[r] - level[main])):
        near = min(abs(level[r] - level[k]) for k in keep) < reach
        # Laid out, not strewn: discards lie at any angle, the hand's rows share one axis.
        aligned = float(np.mean(axis[rows[r]] @ main_axis > np.cos(2 * np.radians(_ALIGNED_DEG))))
        # A row adding nothing to the hand joins only for flowers or a kong's added tile;
        # walls and other players' backs are rows of face-down tiles adding nothing.
        useful = (
            counts[r] > 0
            or any(g.role == "flower" for g in segmented[r])
            or (len(rows[r]) == 1 and kinds[rows[r][0]] == "S")
        )
        fits = total + counts[r] <= _HAND_TILES
        if r not in keep and near and aligned >= 0.7 and not fits and _flowers_after_all(r):
            useful = fits = True  # the count says these are the flowers, one of them misread
        if r not in keep and near and useful and aligned >= 0.7 and fits:
            keep.add(r)
            total += counts[r]
    return keep


def _hand_count(groups: list[Group]) -> int:
    """Tiles toward the 14 of a hand (a kong counts 3; flowers and strays none)."""
    count = 0
    for g in groups:
        if g.role in ("meld", "concealed_kong"):
            count += min(len(g.tiles), 3)
        elif g.role == "concealed":
            count += len(g.tiles)
    return count


def _added_kong_tiles(
    groups: list[Group], kinds: list[str], geometry: TileGeometry, frame: Frame
) -> list[Group]:
    """A kong made from an exposed pung (加杠): the added tile lies crosswise beside the
    claimed one, beyond it, rather than extending the row. Join such a stray sideways tile to
    the meld whose claimed tile it lies against."""
    along = frame.along(geometry.centers)
    across = frame.across(geometry.centers)
    w = geometry.face_width
    out = list(groups)
    for stray in groups:
        if stray.role != "stray":
            continue
        left = list(stray.tiles)
        for t in stray.tiles:
            if kinds[t] != "S":
                continue
            for k, meld in enumerate(out):
                c = meld.claimed
                if meld.role != "meld" or c is None or len(meld.tiles) != 3:
                    continue
                if abs(along[t] - along[c]) < 0.6 * w and abs(across[t] - across[c]) < 1.6 * w:
                    at = meld.tiles.index(c) + 1
                    out[k] = replace(meld, tiles=(*meld.tiles[:at], t, *meld.tiles[at:]))
                    left.remove(t)
                    break
        if len(left) < len(stray.tiles):
            rest = [replace(stray, tiles=tuple(left))] if left else []
            i = next(i for i, g in enumerate(out) if g is stray)
            out[i : i + 1] = rest
    return out


def _gaps_after(
    row: list[int], kinds: list[str], geometry: TileGeometry, frame: Frame
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
    turned = np.array([kinds[i] == "S" for i in row])
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


def _segment_row(
    row: list[int],
    r: int,
    kinds: list[str],
    tiles: Tiles,
    geometry: TileGeometry,
    frame: Frame,
    warnings: list[str],
    apart: dict[int, float],
) -> list[Group]:
    """Best split of one row into melds, concealed kongs and loose runs (dynamic programme).

    Fills `apart`: how far each tile stands from its nearest row neighbour, in tile widths.
    """
    sizes = _gaps_after(row, kinds, geometry, frame)
    # Touching tiles show ~0; the rule book's groups are >= ~0.15 tile width apart.
    # Hand-laid tiles are not packed tight: the row's own typical spacing sets the bar.
    typical = float(np.median(np.maximum(sizes, 0.0))) if sizes else 0.0
    bar = min(max(_GAP, 2.5 * typical), _GAP_MAX)
    gap = [g > bar for g in sizes]
    n = len(row)
    for k, tile in enumerate(row):
        sides = sizes[max(k - 1, 0) : k + 1]
        apart[tile] = min(sides) if sides else np.inf
    empty: list[tuple[str, int, int]] = []
    best = [(0.0, empty)] + [(-np.inf, empty) for _ in range(n)]
    for i in range(n):
        score_i, plan_i = best[i]
        if score_i == -np.inf:
            continue
        lone = {"S": _LONE_SIDEWAYS, "D": _LONE_FACE_DOWN}.get(kinds[row[i]], 0.0)
        if score_i + lone > best[i + 1][0]:
            best[i + 1] = (score_i + lone, [*plan_i, ("single", i, i + 1)])
        for length in (3, 4):
            j = i + length
            if j > n:
                continue
            kind, value = _window(row[i:j], kinds, tiles)
            if kind is None:
                continue
            edges = [i == 0 or gap[i - 1], j == n or gap[j - 1]]
            value += sum(_EDGE_AT_GAP if e else _EDGE_TOUCHING for e in edges)
            value += _GAP_INSIDE * sum(gap[i : j - 1])
            if score_i + value > best[j][0]:
                best[j] = (score_i + value, [*plan_i, (kind, i, j)])
    return _groups_from_plan(row, r, best[n][1], gap, kinds, tiles, warnings)


def _window(members: list[int], kinds: list[str], tiles: Tiles) -> tuple[str | None, float]:
    """Is this run of 3-4 tiles a meld by pose? Returns its kind and pose+code score."""
    pose = [kinds[i] for i in members]
    down = tuple(int(k == "D") for k in pose)
    if pose.count("S") == 1 and not any(down):
        shape = "chow_pung" if len(members) == 3 else "kong"
        codes = meld_log_likelihood(tiles.probs[members][:, : len(PLAYING)], shape)
        return "meld", _MELD_BASE + _CODE_WEIGHT * codes
    if len(members) == 4 and down in _KONG_FACE_DOWN and "S" not in pose:
        up = [m for m, d in zip(members, down, strict=True) if not d]
        codes = meld_log_likelihood(tiles.probs[up][:, : len(PLAYING)], "same") if up else 0.0
        return "concealed_kong", _MELD_BASE + _CODE_WEIGHT * codes
    return None, 0.0


def _groups_from_plan(
    row: list[int],
    r: int,
    plan: list[tuple[str, int, int]],
    gap: list[bool],
    kinds: list[str],
    tiles: Tiles,
    warnings: list[str],
) -> list[Group]:
    groups: list[Group] = []
    run: list[int] = []

    def close_run() -> None:
        nonlocal run
        if run:
            groups.extend(_split_flowers(run, r, tiles))
        run = []

    for kind, i, j in plan:
        members = tuple(row[i:j])
        if kind == "single":
            tile = row[i]
            if kinds[tile] in ("S", "D"):
                close_run()
                what = "sideways" if kinds[tile] == "S" else "face-down"
                warnings.append(f"a {what} tile (#{tile}) is not part of any meld")
                groups.append(Group("stray", members, r))
                continue
            if run and gap[i - 1]:
                close_run()
            run.append(tile)
            continue
        close_run()
        if kind == "meld":
            side = next(p for p, t in enumerate(members) if kinds[t] == "S")
            claimed_from = _claimed_from(side, len(members))
            groups.append(Group("meld", members, r, claimed_from, members[side]))
        else:
            groups.append(Group("concealed_kong", members, r))
    close_run()
    return groups


def _split_flowers(run: list[int], r: int, tiles: Tiles) -> list[Group]:
    """A run of loose tiles is flowers if, taken together, it more likely is than not.

    Decided per run, not per tile: flowers are put aside as a group, so one misread tile must
    not split a run (its neighbours' evidence outweighs it). A tile that is clearly no flower
    (a winning tile nudged out towards the flowers) leaves the run on its own.
    """
    mass = 0.98 * tiles.probs[run, _FLOWER_SLICE].sum(axis=1).astype(np.float64) + 0.01
    if float(np.log(mass).sum() - np.log(1 - mass).sum()) <= 0:
        return [Group("concealed", tuple(run), r)]
    groups: list[Group] = []
    flowers: list[int] = []
    for tile, m in zip(run, mass, strict=True):
        if m < _NO_FLOWER:
            groups.append(Group("concealed", (tile,), r))
        else:
            flowers.append(tile)
    return [Group("flower", tuple(flowers), r), *groups]


def _fit_count(groups: list[Group]) -> list[Group]:
    """Put lone tiles from the flower rows back among the flowers while the hand has more
    than 14 tiles: the count, not one tile's reading, decides (a kong counts as 3)."""
    hand = sum(
        min(len(g.tiles), 3) if g.role in ("meld", "concealed_kong") else len(g.tiles)
        for g in groups
        if g.role in ("meld", "concealed_kong", "concealed")
    )
    flower_rows = {g.row: g for g in groups if g.role == "flower"}
    out = list(groups)
    for g in groups:
        if hand <= _HAND_TILES:
            break
        if g.role == "concealed" and len(g.tiles) == 1 and g.row in flower_rows:
            aside = flower_rows[g.row]
            merged = Group("flower", (*aside.tiles, *g.tiles), g.row)
            out = [merged if x is aside else x for x in out if x is not g]
            flower_rows[g.row] = merged
            hand -= 1
    return out


def _claimed_from(position: int, length: int) -> str:
    """The rule book's layout: the claimed tile points at the player it came from."""
    if position == 0:
        return "left"
    if position == length - 1:
        return "right"
    return "opposite"


def _choose_winning(
    groups: list[Group],
    geometry: TileGeometry,
    frame: Frame,
    warnings: list[str],
    apart: dict[int, float],
) -> tuple[list[Group], str | None]:
    """The winning tile is the lone tile most clearly set apart, near the concealed row.

    Ranked by the width of the gap that isolates it (a detector's corner noise can open a
    small false gap; the winner stands a third of a tile or more apart), then by nearness.
    """
    loose = [g for g in groups if g.role == "concealed"]
    if not loose:
        return groups, None
    main = max(loose, key=lambda g: len(g.tiles))
    singles = [g for g in loose if len(g.tiles) == 1 and g is not main]
    if not singles:
        last = main.tiles[-1]
        warnings.append("no tile is set apart as the winning tile; assuming the last one")
        rest = Group("concealed", main.tiles[:-1], main.row)
        won = Group("winning", (last,), main.row)
        swapped = [x for g in groups for x in ((rest, won) if g is main else (g,))]
        return swapped, "winning tile not set apart: took the last concealed tile"
    along = frame.along(geometry.centers)
    across = frame.across(geometry.centers)
    ends = geometry.corners[[main.tiles[0], main.tiles[-1]]]
    w = float(np.linalg.norm(ends[:, 1] - ends[:, 0], axis=1).max())  # local, not global

    concealed = [t for g in loose if g.row == main.row and len(g.tiles) > 1 for t in g.tiles]

    def distance(g: Group) -> float:
        """From the nearest tile of the concealed row (a false gap may split that row)."""
        t = g.tiles[0]
        others = [c for c in concealed if c != t] or list(main.tiles)
        return float(np.min(np.hypot(along[others] - along[t], across[others] - across[t])))

    near = [g for g in singles if distance(g) < 4 * w] or singles

    def separation(g: Group) -> float:
        return min(apart.get(g.tiles[0], np.inf), 2.0)  # another row counts as 2 widths

    # A lone tile in a row of flowers is more likely a misread flower than the winning tile.
    flower_rows = {g.row for g in groups if g.role == "flower"}
    ranked = sorted(near, key=lambda g: (g.row in flower_rows, -separation(g), distance(g)))
    winner = ranked[0]
    ambiguity = None
    if len(ranked) > 1 and separation(ranked[1]) > 0.6 * separation(winner):
        ambiguity = f"{len(ranked)} lone tiles could be the winning tile; took the most apart"
        warnings.append(ambiguity)
    out = [Group("winning", g.tiles, g.row) if g is winner else g for g in groups]
    return out, ambiguity


def role_of_each(found: Layout, n: int) -> list[str]:
    """Role name per tile index ("stray" for tiles outside every group)."""
    roles = ["stray"] * n
    for g in found.groups:
        for i in g.tiles:
            roles[i] = g.role
    return roles
