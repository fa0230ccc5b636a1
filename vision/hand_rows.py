"""Which rows are the declared hand: grown from the row holding most of it while the count and
the rows' reach and alignment allow; other rows (discards, the wall) become strays. Also joins
an added kong's stray tile to its meld and fits the hand to 14 tiles.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from vision.geometry import Array, Frame, TileGeometry
from vision.notes import Note, NoteCode
from vision.roles import MELD_ROLES, Pose, Role
from vision.segment import TURNED, Group, claimed_from_position
from vision.types import FLOWER_SLICE, Tiles

_ALIGNED_DEG = 15.0  # a row of the hand lies within this of the main row's axis
# A lone upright tile (the winning tile set apart, a flower) is one noisy quad, not a row's
# mean: the detector's corners turned the winning tile of real-face photos past 15 degrees.
# (A lone sideways tile, an added kong's, keeps 15: looser, discards beside the hand joined.)
_LONE_ALIGNED_DEG = 25.0
# ...and one on the main row's own line, pushed out as the winning tile, lies askew further
# (27 degrees seen on a real-face photo).
_LONE_IN_LINE_DEG = 40.0
_ROW_REACH = 2.2  # tile heights between the hand's rows (melds or flowers on a second row)
# The share of a row's tiles that must lie along the hand's axis for the row to join; for a
# row of flowers alone, half: flowers are put aside loosely, and one askew (or its quad read
# askew beside a finger) kept out a row of three that lay 1.3 tile heights behind the hand
# (a training-source hand right but for its flowers then passed unflagged).
_ALIGNED_SHARE = 0.7
_FLOWERS_ALIGNED_SHARE = 0.5
HAND_TILES = 14
# A reading this sure at a row's end is not taken for a misread flower to fit the count (a
# winning 9p read with 1.0 had been put among the flowers and named 2h). Beside flowers or
# melds the guard cost right hands: flowers there are often misread with confidence.
_SURE_READING = 0.9
_HAND_ROLES = (Role.CONCEALED, *MELD_ROLES)


@dataclass(frozen=True)
class HandRows:
    """Which rows are the hand's, and what was decided on the way.

    Attributes:
        rows: the rows of the hand.
        crowded: one-tile rows on the main row's line that would take the hand past the count.
        askew: lone tiles that joined, short of the count, at an angle a row would not have.
        kept_out: other rows of hand tiles within reach and in line that the count kept out.
        segmented: each row's groups, with the flowers the count recognised among them.
    """

    rows: set[int]
    crowded: set[int]
    askew: set[int]
    kept_out: set[int]
    segmented: tuple[tuple[Group, ...], ...]


def select_hand_rows(
    rows: list[list[int]],
    split: list[list[Group]],
    tiles: Tiles,
    kinds: list[Pose],
    geometry: TileGeometry,
    frame: Frame,
    most: int = HAND_TILES,
) -> HandRows:
    """Rows of the declared hand, grown from the row holding most of it; the one-tile rows
    on its main row's line that would take it past `most` tiles (crowded out); the lone
    tiles that joined, short of `most`, at an angle a row of the hand would not have; and the
    other rows of hand tiles within reach and in line that the count alone kept out.

    Nearer rows join first (melds, flowers or the winning tile on a second row), as long as
    they stay within reach and the hand does not pass `most` tiles (14 for a win, 13 for a
    hand waiting to win): beyond that lie discards, a stretch of wall or another player's
    tiles. A row whose tiles the count shows to be flowers is split again as flowers
    (`HandRows.segmented`; `split` is left as it is).
    """
    segmented = [list(groups) for groups in split]
    counts = [hand_count(groups) for groups in segmented]

    def _flowers_after_all(r: int) -> bool:
        """A row the count keeps out, read as flowers on the whole, is the flowers: lone
        tiles among them misread, and a "meld" of tiles read mostly as flowers is flowers
        laid loosely (one askew taken for a claimed tile). A meld read as suit tiles is one."""
        for g in segmented[r]:
            if g.role in (Role.CONCEALED, Role.FLOWER):
                continue
            if g.role != Role.MELD or _flower_mass(g) < 0.5:
                return False
        mass = tiles.probs[rows[r], FLOWER_SLICE].sum(axis=1)
        if float(mass.mean()) < 0.3:
            return False
        segmented[r] = [Group(Role.FLOWER, tuple(rows[r]), r)]
        counts[r] = 0
        return True

    def _flower_mass(group: Group) -> float:
        return float(tiles.probs[list(group.tiles), FLOWER_SLICE].sum(axis=1).mean())

    def _lone_tiles_are_flowers(r: int, excess: int) -> bool:
        """A meld row holding lone tiles that take the hand past `most`: the lone tiles most
        like flowers are flowers (a flower laid beside the melds, misread)."""
        if not any(g.role in MELD_ROLES for g in segmented[r]):
            return False
        lone = [g for g in segmented[r] if g.role == Role.CONCEALED and len(g.tiles) == 1]
        if len(lone) < excess:
            return False
        mass = [_flower_mass(g) for g in lone]
        aside = {id(lone[k]) for k in np.argsort(mass)[::-1][:excess]}
        segmented[r] = [
            Group(Role.FLOWER, g.tiles, r) if id(g) in aside else g for g in segmented[r]
        ]
        counts[r] -= excess
        return True

    if not rows or max(counts) == 0:
        return HandRows(set(range(len(rows))), set(), set(), set(), _frozen(segmented))
    across = frame.across(geometry.centers)
    level = [float(np.median(across[row])) for row in rows]
    main = int(np.argmax(counts))
    keep, total = {main}, counts[main]
    crowded: set[int] = set()
    kept_out: set[int] = set()

    def on_main_line(r: int) -> bool:
        return abs(level[r] - level[main]) < 0.5 * geometry.face_height

    reach = _ROW_REACH * geometry.face_height
    # Each tile's edge that runs along its row (the top edge, or a sideways tile's side), as
    # an axis (angle x 2): perspective bends a quarter turn, but not a row's own direction.
    sideways = np.array([k == Pose.SIDEWAYS for k in kinds])
    edge = np.where(sideways[:, None], geometry.ups, geometry.rights)
    angle = 2 * np.arctan2(edge[:, 1], edge[:, 0])
    axis = np.stack([np.cos(angle), np.sin(angle)], axis=1)
    main_axis = axis[rows[main]].mean(axis=0)
    main_axis /= max(float(np.linalg.norm(main_axis)), 1e-9)

    def spare(kongs_only: bool = False) -> int:
        """Tiles `fit_count` takes off the count when the hand would pass `most`: lone tiles in
        the kept rows that hold flowers (a flower misread as a suit tile), and a kong's
        fourth tile standing apart from its three."""
        kept = [g for k in keep for g in segmented[k]]
        beside_flowers = 0 if kongs_only else _lone_tiles_to_flower_rows(kept, len(kept))[1]
        return beside_flowers + _join_split_kongs(kept, rows, tiles.codes, len(kept))[1]

    askew: list[int] = []  # lone tiles kept out by their angle alone
    for r in sorted(range(len(rows)), key=lambda r: abs(level[r] - level[main])):
        near = min(abs(level[r] - level[k]) for k in keep) < reach
        # Laid out, not strewn: discards lie at any angle, the hand's rows share one axis.
        lone = kinds[rows[r][0]] if len(rows[r]) == 1 else None  # a one-tile row's pose
        tol = _LONE_ALIGNED_DEG if lone == Pose.UPRIGHT else _ALIGNED_DEG
        if lone == Pose.UPRIGHT and on_main_line(r):
            tol = _LONE_IN_LINE_DEG
        aligned = float(np.mean(axis[rows[r]] @ main_axis > np.cos(2 * np.radians(tol))))
        if len(rows[r]) >= 3:
            # One askew tile must not keep out a row of three (a flower laid loosely, a
            # detector's noisy quad): such a row may instead lie along the axis on average.
            mean_axis = axis[rows[r]].mean(axis=0)
            mean_axis /= max(float(np.linalg.norm(mean_axis)), 1e-9)
            if float(mean_axis @ main_axis) > np.cos(2 * np.radians(tol)):
                aligned = 1.0
        # A row adding nothing to the hand joins only for flowers or a kong's added tile;
        # walls and other players' backs are rows of face-down tiles adding nothing.
        useful = (
            counts[r] > 0
            or any(g.role == Role.FLOWER for g in segmented[r])
            or lone == Pose.SIDEWAYS
        )
        fits = total + counts[r] <= most
        flowers_only = all(g.role == Role.FLOWER for g in segmented[r])
        needed = _FLOWERS_ALIGNED_SHARE if flowers_only else _ALIGNED_SHARE
        joinable = r not in keep and near and aligned >= needed
        if joinable and not fits and _flowers_after_all(r):
            useful = fits = True  # the count says these are the flowers, one of them misread
        if joinable and not fits and _lone_tiles_are_flowers(r, total + counts[r] - most):
            fits = True  # the count says the lone tiles beside the melds are flowers
        # ...or what the rows already in can spare (`spare`), when this row brings three
        # or more tiles: a row of them is the hand's, one or two may be discards, so they
        # count only on a kong's fourth tile standing apart (a kong's tile, not a flower's).
        room = spare() if counts[r] >= 3 else spare(kongs_only=True)
        if joinable and not fits and total + counts[r] - room <= most:
            fits = True
        if joinable and useful and fits:
            keep.add(r)
            total += counts[r]
        elif joinable and useful and lone is not None and on_main_line(r):
            # Kept out by the count, a lone tile on the hand's own line is likelier the
            # hand's (a flower misread as a suit tile) than a discard: worth a look.
            crowded.add(r)
        elif joinable and useful and counts[r] > 0:
            kept_out.add(r)
        elif r not in keep and near and useful and lone is not None and counts[r] > 0:
            askew.append(r)
    # Short of `most`, a lone tile within reach is likelier the hand's, laid down askew or its
    # corners read askew (a real-face concealed 1m at 31 degrees), than a discard:
    # the count lets it in, nearest first, as a guess worth a look.
    turned: set[int] = set()
    for r in askew:
        if total + counts[r] <= most:
            keep.add(r)
            turned.add(r)
            total += counts[r]
    return HandRows(keep, crowded, turned, kept_out - keep, _frozen(segmented))


def _frozen(segmented: list[list[Group]]) -> tuple[tuple[Group, ...], ...]:
    return tuple(tuple(groups) for groups in segmented)


def counted(n: int, one: str, many: str) -> str:
    """A note's subject: `one` for a single thing, else `many` after the number."""
    return one if n == 1 else f"{n} {many}"


def hand_count(groups: list[Group]) -> int:
    """Tiles toward the 14 of a hand (a kong counts 3; flowers and strays none)."""
    count = 0
    for g in groups:
        if g.role in MELD_ROLES:
            count += min(len(g.tiles), 3)
        elif g.role == Role.CONCEALED:
            count += len(g.tiles)
    return count


def join_added_kong_tiles(
    groups: list[Group], kinds: list[Pose], geometry: TileGeometry, frame: Frame
) -> list[Group]:
    """A kong made from an exposed pung (加杠): the added tile lies crosswise beside the
    claimed one, beyond it, rather than extending the row. Join such a stray sideways tile to
    the meld whose claimed tile it lies against."""
    along = frame.along(geometry.centers)
    across = frame.across(geometry.centers)
    w = geometry.face_width
    out = list(groups)
    for stray in groups:
        if stray.role != Role.STRAY:
            continue
        left = list(stray.tiles)
        for t in stray.tiles:
            if kinds[t] not in TURNED:
                continue
            for k, meld in enumerate(out):
                c = meld.claimed
                if meld.role != Role.MELD or c is None or len(meld.tiles) != 3:
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


def fit_count(
    groups: list[Group],
    rows: list[list[int]],
    tiles: Tiles,
    flowers: Array,
    most: int = HAND_TILES,
) -> tuple[list[Group], list[Note]]:
    """Let the count, not one tile's reading, decide when the hand is not `most` tiles (14
    for a win, 13 for a hand waiting to win; a kong counts as 3). Past it: lone tiles from
    the flower rows go back among the flowers, then a lone tile beside a meld of three of
    its code joins it as the kong's fourth tile, then unsure tiles at a row's end, alone or a
    run of them (the most flower-like), are flowers laid there and misread. One short: a
    lone flower in a row of the hand (the least flower-like) is the hand's tile. Returns the
    groups and a note for each kind of guess made (the count's, not the layout's: worth a
    person's look). `flowers` is each tile's flower probability (`vision.segment.flower_mass`).
    """
    hand = hand_count(groups)
    out, moved = _lone_tiles_to_flower_rows(groups, hand - most)
    hand -= moved
    notes: list[Note] = []
    out, joined = _join_split_kongs(out, rows, tiles.codes, hand - most)
    hand -= joined
    if joined:
        what = counted(joined, "a tile standing apart was", "tiles standing apart were")
        notes.append(Note(NoteCode.KONG_TILE_APART, f"{what} read as the fourth tile of a kong"))
    unsure = tiles.probs.max(axis=1) < _SURE_READING
    out, aside = _row_ends_to_flowers(out, rows, flowers, unsure, hand - most)
    hand -= aside
    if aside:
        what = counted(aside, "an unsure tile", "unsure tiles")
        message = f"{what} at a row's end taken for flowers: the hand had {hand + aside}"
        notes.append(Note(NoteCode.ROW_END_FLOWERS, message))
    out, taken = _lone_flowers_to_hand(out, flowers, most - hand)
    if taken:
        what = counted(taken, "a lone flower", "lone flowers")
        message = f"{what} in the hand's rows taken as its tiles: it had {most - taken}"
        notes.append(Note(NoteCode.FLOWER_TAKEN_AS_TILE, message))
        out = _claimed_runs_of_taken_flowers(out, rows, tiles, taken_from=groups)
    return out, notes


def _claimed_runs_of_taken_flowers(
    groups: list[Group], rows: list[list[int]], tiles: Tiles, taken_from: list[Group]
) -> list[Group]:
    """Three lone flowers side by side taken as the hand's tiles, one of them crosswise, are
    a claimed pung or chow, not three concealed tiles (a real-face pung of 1s claimed from
    the opposite player, the birds read as flowers, came out right as 1s but concealed)."""
    were_flowers = {g.tiles[0] for g in taken_from if g.role == Role.FLOWER and len(g.tiles) == 1}
    out = list(groups)
    for r, row in enumerate(rows):
        lone = {
            g.tiles[0]: g
            for g in out
            if g.row == r
            and g.role == Role.CONCEALED
            and len(g.tiles) == 1
            and g.tiles[0] in were_flowers
        }
        for k in range(len(row) - 2):
            run = row[k : k + 3]
            turned = [i for i, t in enumerate(run) if tiles.sideways[t]]
            if all(t in lone for t in run) and len(turned) == 1:
                claimed = run[turned[0]]
                side = claimed_from_position(turned[0], 3)
                meld = Group(Role.MELD, tuple(run), r, side, claimed)
                members = {id(lone[t]) for t in run}
                at = next(j for j, g in enumerate(out) if id(g) in members)
                out = [g for g in out if id(g) not in members]
                out.insert(at, meld)
                break
    return out


def _lone_tiles_to_flower_rows(groups: list[Group], excess: int) -> tuple[list[Group], int]:
    """Up to `excess` lone tiles of the rows that hold flowers go among those flowers."""
    flower_rows = {g.row: g for g in groups if g.role == Role.FLOWER}
    out, moved = list(groups), 0
    for g in groups:
        if moved >= excess:
            break
        if g.role == Role.CONCEALED and len(g.tiles) == 1 and g.row in flower_rows:
            aside = flower_rows[g.row]
            merged = Group(Role.FLOWER, (*aside.tiles, *g.tiles), g.row)
            out = [merged if x is aside else x for x in out if x is not g]
            flower_rows[g.row] = merged
            moved += 1
    return out, moved


def _join_split_kongs(
    groups: list[Group], rows: list[list[int]], codes: list[str], excess: int
) -> tuple[list[Group], int]:
    """Up to `excess` kongs read as a pung and a lone tile beside it made whole again."""
    out, joined = list(groups), 0
    for lone, meld in split_kongs(out, rows, codes):
        if joined >= excess or meld.claimed is None:
            continue
        row = rows[meld.row]
        members = tuple(sorted((*lone.tiles, *meld.tiles), key=row.index))
        side = members.index(meld.claimed)
        kong = replace(meld, tiles=members, claimed_from=claimed_from_position(side, 4))
        out = [kong if x is meld else x for x in out if x is not lone]
        joined += 1
    return out, joined


def _row_ends_to_flowers(
    groups: list[Group],
    rows: list[list[int]],
    flowers: Array,
    unsure: npt.NDArray[np.bool_],
    excess: int,
) -> tuple[list[Group], int]:
    """Up to `excess` unsure tiles at a row's end become flowers, a lone tile or a run of them
    (real-face flowers: two side by side at the row's end, one read 5m), the most
    flower-like first; one lone tile stays, for the winning tile."""
    out, aside = list(groups), 0
    while aside < excess:
        singles = [g for g in out if g.role == Role.CONCEALED and len(g.tiles) == 1]
        at_end = [
            g
            for g in out
            if g.role == Role.CONCEALED
            and len(g.tiles) <= excess - aside
            and (g.tiles[0] == rows[g.row][0] or g.tiles[-1] == rows[g.row][-1])
            and all(unsure[t] for t in g.tiles)
            and (len(g.tiles) > 1 or len(singles) >= 2)
        ]
        if not singles or not at_end:
            break
        end = max(at_end, key=lambda g: float(np.mean([flowers[t] for t in g.tiles])))
        out = _recast(out, end, Role.FLOWER)
        aside += len(end.tiles)
    return out, aside


def _lone_flowers_to_hand(
    groups: list[Group], flowers: Array, short: int
) -> tuple[list[Group], int]:
    """Up to `short` flowers alone in a row of the hand, the least flower-like first, become
    the hand's tiles (a 1s's bird read as a flower; the winning tile set apart)."""
    out, taken = list(groups), 0
    while taken < short:
        lone_flowers = [
            g
            for g in out
            if g.role == Role.FLOWER
            and len(g.tiles) == 1
            and any(x.row == g.row and x.role in _HAND_ROLES for x in out)
        ]
        if not lone_flowers:
            break
        end = min(lone_flowers, key=lambda g: float(flowers[g.tiles[0]]))
        out = _recast(out, end, Role.CONCEALED)
        taken += 1
    return out, taken


def _recast(groups: list[Group], group: Group, role: Role) -> list[Group]:
    return [Group(role, g.tiles, g.row) if g is group else g for g in groups]


def split_kongs(
    groups: list[Group], rows: list[list[int]], codes: list[str]
) -> list[tuple[Group, Group]]:
    """(lone tile, meld) pairs side by side in a row, the meld three tiles of the lone tile's
    code: a kong whose fourth tile stands a little apart (the detector's corners opened a
    gap), read as a pung and a loose tile."""
    pairs = []
    for lone in groups:
        if lone.role != Role.CONCEALED or len(lone.tiles) != 1:
            continue
        tile = lone.tiles[0]
        row = rows[lone.row]
        k = row.index(tile)
        beside = {row[j] for j in (k - 1, k + 1) if 0 <= j < len(row)}
        for meld in groups:
            if (
                meld.role == Role.MELD
                and meld.row == lone.row
                and len(meld.tiles) == 3
                and beside & {meld.tiles[0], meld.tiles[-1]}
                and all(codes[t] == codes[tile] for t in meld.tiles)
            ):
                pairs.append((lone, meld))
                break
    return pairs
