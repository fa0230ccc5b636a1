"""How a declared win lies on the table: reading direction, rows, melds, winning tile, flowers.

The rule book lays a win out for the others to check: the concealed tiles in a row, each exposed
meld apart with the claimed tile turned a quarter turn at the end pointing to the player it came
from (left player: left end, opposite: middle, right player: right end), a concealed kong
(暗杠) face-down or with its two ends face-down, the winning tile a little apart, flowers aside.
This module recovers that structure from tile geometry (and the classifier's probabilities
where geometry alone is ambiguous); it names no tile codes, which is `vision.decode`'s job.
Its parts: `vision.segment` splits each row into groups, `vision.hand_rows` picks the hand's
rows, `vision.reading` weighs which way they read; here they are put together and the winning
tile is chosen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import numpy.typing as npt

from scoring.tiles import BACK
from vision.geometry import Frame, TileGeometry, reading_frame
from vision.hand_rows import (
    HAND_TILES,
    counted,
    fit_count,
    hand_count,
    join_added_kong_tiles,
    select_hand_rows,
)
from vision.notes import Note, NoteCode, messages
from vision.reading import evidence_each_way
from vision.roles import HAND_ROLES as HAND_ROLES  # re-exported: callers import it here
from vision.roles import MELD_ROLES, Pose, Role
from vision.segment import (
    TURNED,
    claimed_from_position,
    find_rows,
    flower_mass,
    segment_row,
    tile_kinds,
)
from vision.segment import Group as Group  # re-exported: callers import it from here
from vision.types import Tiles

ROLES = tuple(Role)
_SENSE_MARGIN = 2.0  # evidence gap under which the reading sense is called unsure
WAITING_TILES = HAND_TILES - 1  # a hand waiting to win: the winning tile not come yet


@dataclass(frozen=True)
class Layout:
    """The structure of a declared win; `doubt` says what was unsure, if anything (a note
    among `notes`, which a person should check)."""

    groups: tuple[Group, ...]
    rows: tuple[tuple[int, ...], ...]
    up: tuple[float, float]  # unit vector: the direction faces read upward, photo coordinates
    tile_size: tuple[float, float]  # typical face (width, height) in photo pixels
    notes: tuple[Note, ...] = ()
    doubt: Note | None = None
    kinds: tuple[Pose, ...] = field(default=())  # per tile

    @property
    def warnings(self) -> tuple[str, ...]:
        """The notes' English sentences."""
        return tuple(messages(self.notes))

    @property
    def ambiguity(self) -> str | None:
        """The doubt's English sentence."""
        return self.doubt.message if self.doubt is not None else None

    def noted(self, note: Note) -> Layout:
        """This layout with `note` among its notes and, unless it has one, as its doubt."""
        return replace(self, notes=(*self.notes, note), doubt=self.doubt or note)

    def of_role(self, role: Role) -> tuple[Group, ...]:
        return tuple(g for g in self.groups if g.role == role)

    @property
    def concealed(self) -> tuple[int, ...]:
        return tuple(i for g in self.of_role(Role.CONCEALED) for i in g.tiles)

    @property
    def winning(self) -> int | None:
        groups = self.of_role(Role.WINNING)
        return groups[0].tiles[0] if groups else None

    @property
    def melds(self) -> tuple[Group, ...]:
        return tuple(g for g in self.groups if g.role in MELD_ROLES)

    @property
    def flowers(self) -> tuple[int, ...]:
        return tuple(i for g in self.of_role(Role.FLOWER) for i in g.tiles)

    @property
    def angle_deg(self) -> float:
        """Rotation of the photo relative to upright reading, degrees clockwise."""
        return float(np.degrees(np.arctan2(self.up[0], -self.up[1])))


def layout(tiles: Tiles, most: int = HAND_TILES) -> Layout:
    """Recover rows, melds, the winning tile and flowers from tile geometry: the hand grown
    to at most `most` tiles (a kong counting 3), 14 for a declared win; 13 reads it as a hand
    waiting to win, which sets no tile apart (a lone tile apart is one of the 13).

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
        nothing = Note(NoteCode.NO_TILES, "no tiles found in the photo")
        return Layout((), (), (0.0, -1.0), (0.0, 0.0), (nothing,))
    geometry = TileGeometry.of(tiles)
    frame, notes = reading_frame(geometry, tiles)
    readings = [_read_in(frame, tiles, geometry, notes, most) for frame in (frame, frame.flipped())]
    evidence = evidence_each_way(readings, tiles, geometry)
    # Ties keep the corners' own sense.
    flip = evidence[1] > evidence[0]
    found, _ = readings[1] if flip else readings[0]
    mirrored = [g for g in found.melds if g.claimed_from in ("left", "right")]
    if abs(evidence[1] - evidence[0]) < _SENSE_MARGIN and mirrored and found.doubt is None:
        message = "unsure which way the hand reads: left and right claims may be swapped"
        claimed = tuple(g.claimed for g in mirrored if g.claimed is not None)
        found = found.noted(Note(NoteCode.READING_SENSE_UNSURE, message, claimed))
    return found


def _read_in(
    frame: Frame, tiles: Tiles, geometry: TileGeometry, notes: list[Note], most: int
) -> tuple[Layout, Frame]:
    rows = find_rows(geometry, frame)
    flowers = flower_mass(tiles, rows)
    kinds = tile_kinds(tiles, geometry, frame, flowers)
    said = list(notes)
    apart: dict[int, float] = {}
    split: list[list[Group]] = []
    row_notes: list[list[Note]] = []
    for r, row in enumerate(rows):
        groups_of_row, notes_of_row, apart_of_row = segment_row(
            row, r, kinds, tiles, geometry, frame, flowers
        )
        split.append(groups_of_row)
        row_notes.append(notes_of_row)
        apart.update(apart_of_row)
    hand = select_hand_rows(rows, split, tiles, kinds, geometry, frame, most)
    groups: list[Group] = []
    for r, row in enumerate(rows):
        if r in hand.rows:
            groups += hand.segmented[r]
            said += row_notes[r]
        else:
            groups.append(Group(Role.STRAY, tuple(row), r))
    # Laid out, a chow or pung has one crosswise tile; two in one (the detector flagged one
    # falsely) leave which was claimed a guess. (A kong may show two: one added to a pung.)
    doubly_turned = [
        g
        for g in groups
        if g.role == Role.MELD
        and len(g.tiles) == 3
        and sum(kinds[t] in TURNED for t in g.tiles) == 2
    ]
    groups = join_added_kong_tiles(groups, kinds, geometry, frame)
    placed = {t for g in groups if g.role == Role.MELD for t in g.tiles}
    said = [n for n in said if not (n.code is NoteCode.TILE_FITS_NO_MELD and placed & {*n.tiles})]
    apart_rows = tuple(
        t for g in groups if g.role == Role.STRAY and g.row not in hand.rows for t in g.tiles
    )
    if apart_rows:
        message = counted(
            len(apart_rows),
            "a tile lies apart from the hand and was left out",
            "tiles lie apart from the hand and were left out",
        )
        said.append(Note(NoteCode.TILES_APART, message, apart_rows))
    groups, lone_crosswise = _lone_crosswise_tile(groups, kinds, hand.rows, most)
    misfits = tuple(
        t for g in groups if g.role == Role.STRAY and g.row in hand.rows for t in g.tiles
    )
    groups, guesses = fit_count(groups, rows, tiles, flowers, most)
    doubt: Note | None = None
    waiting = hand_count(groups) == WAITING_TILES
    if waiting and _set_apart(groups, apart) >= WINNING_TILE_GAP:
        # A tile set apart as a win's winning tile is, in a hand of 13: one of its tiles
        # unseen? (Thirteen tiles as held stand at most 0.18 widths apart in the renders.)
        doubt = Note(NoteCode.APART_IN_THIRTEEN, APART_IN_THIRTEEN)
        said.append(doubt)
    if not waiting:
        # Thirteen tiles are a hand waiting to win: the tile a win would set apart has not
        # come, so a lone tile apart is one of the thirteen.
        groups, winning_notes, doubt = _choose_winning(groups, geometry, frame, apart)
        said += winning_notes
    groups, recast = melds_without_crosswise_tile(groups, geometry, frame)
    if recast:
        message = counted(
            len(recast),
            "a run of tiles in the melds' row taken as a meld whose crosswise tile was not seen",
            "runs of tiles in the melds' row taken as melds whose crosswise tile was not seen",
        )
        recast_tiles = tuple(t for g in recast for t in g.tiles)
        said.append(Note(NoteCode.MELD_CROSSWISE_UNSEEN, message, recast_tiles))
    # Guesses a person should check: each is a note, and the first is the doubt.
    doubts = list(guesses)
    if hand.askew:
        what = counted(len(hand.askew), "a lone tile", "lone tiles")
        message = f"{what} lying askew near the hand taken as its tiles: it was short"
        askew = tuple(t for r in sorted(hand.askew) for t in rows[r])
        doubts.append(Note(NoteCode.ASKEW_TILE_TAKEN, message, askew))
    if doubly_turned:
        what = counted(len(doubly_turned), "a meld shows", "melds show")
        message = f"{what} two crosswise tiles: which was claimed is a guess"
        turned = tuple(t for g in doubly_turned for t in g.tiles)
        doubts.append(Note(NoteCode.TWO_CROSSWISE_TILES, message, turned))
    if lone_crosswise is not None:
        doubts.append(Note(NoteCode.LONE_CROSSWISE_TAKEN, LONE_CROSSWISE_TAKEN, (lone_crosswise,)))
    blank = tuple(t for g in groups if _blank_kong(g, kinds, tiles) for t in g.tiles)
    if blank:
        message = "a concealed kong's faces read as white dragons: they may be tile backs"
        doubts.append(Note(NoteCode.KONG_FACES_BLANK, message, blank))
    said += doubts
    doubt = doubt or (doubts[0] if doubts else None)
    if misfits and doubt is None:
        # A crosswise or face-down tile the melds cannot place: a meld may be misread.
        message = counted(
            len(misfits), "a tile among the hand fits no meld", "tiles among the hand fit no meld"
        )
        doubt = Note(NoteCode.TILE_FITS_NO_MELD, message, misfits)
    if hand.kept_out and waiting and doubt is None:
        # 13 tiles and, within reach and in line, tiles the count kept out: a win whose
        # true tile a false one (or a tile left unseen) kept out of the count?
        kept = tuple(t for r in sorted(hand.kept_out) for t in rows[r])
        doubt = Note(NoteCode.KEPT_OUT_OF_THIRTEEN, KEPT_OUT_OF_THIRTEEN, kept)
    crowded_out = tuple(t for r in sorted(hand.crowded) for t in rows[r])
    if crowded_out and doubt is None:
        message = counted(
            len(crowded_out),
            f"a tile in line with the hand was left out: it had {most}",
            f"tiles in line with the hand were left out: it had {most}",
        )
        doubt = Note(NoteCode.CROWDED_OUT, message, crowded_out)
    found = Layout(
        groups=tuple(groups),
        rows=tuple(tuple(row) for row in rows),
        up=(float(frame.up[0]), float(frame.up[1])),
        tile_size=(geometry.face_width, geometry.face_height),
        notes=tuple(said),
        doubt=doubt,
        kinds=tuple(kinds),
    )
    return found, frame


# The scene engine lays a win's winning tile 0.3-1.2 tile widths apart, "a third of a tile or
# more" (`_choose_winning`); a lone tile that far apart in a hand of 13 looks like a win's.
WINNING_TILE_GAP = 1 / 3
APART_IN_THIRTEEN = (
    "a tile stands apart as a winning tile does, yet the hand counts 13: one unseen?"
)
KEPT_OUT_OF_THIRTEEN = "tiles beside a hand of 13 were left out by the count: it may be a win"
LONE_CROSSWISE_TAKEN = "a lone crosswise tile taken among the hand's tiles: it was one short"


def _lone_crosswise_tile(
    groups: list[Group], kinds: list[Pose], hand_rows: set[int], most: int
) -> tuple[list[Group], int | None]:
    """A hand one tile short (of `most`) whose only misfit is one lone sideways tile takes
    that tile (returned with the groups) among its concealed ones: the winning tile laid
    down crosswise, apart (a real-face 1p flagged sideways on a row of its own, the hand
    13), or a concealed tile laid askew in
    the hand's row (a real-face pair's 1p at 30 degrees beside the melds). An added kong's
    tile would not be the one missing: a kong counts as the pung it was; and one lying
    against a claimed tile has joined its meld already (`join_added_kong_tiles`)."""
    strays = [g for g in groups if g.role == Role.STRAY and g.row in hand_rows]
    if len(strays) != 1 or len(strays[0].tiles) != 1:
        return groups, None
    lone = strays[0]
    if kinds[lone.tiles[0]] != Pose.SIDEWAYS or hand_count(groups) + 1 != most:
        return groups, None
    taken = [Group(Role.CONCEALED, g.tiles, g.row) if g is lone else g for g in groups]
    return taken, lone.tiles[0]


def _set_apart(groups: list[Group], apart: dict[int, float]) -> float:
    """How far the lone tile most clearly set apart from the concealed tiles (as a win's
    winning tile is) stands from its row neighbours, in tile widths (in a row of its own:
    2); 0 when no tile stands alone."""
    loose = [g for g in groups if g.role == Role.CONCEALED]
    if not loose:
        return 0.0
    main = max(loose, key=lambda g: len(g.tiles))
    singles = [g for g in loose if len(g.tiles) == 1 and g is not main]
    return max((min(apart.get(g.tiles[0], np.inf), 2.0) for g in singles), default=0.0)


def _choose_winning(
    groups: list[Group],
    geometry: TileGeometry,
    frame: Frame,
    apart: dict[int, float],
) -> tuple[list[Group], list[Note], Note | None]:
    """The winning tile is the lone tile most clearly set apart, near the concealed row;
    with the groups, the notes on the choice and the doubt, if any.

    Ranked by the width of the gap that isolates it (a detector's corner noise can open a
    small false gap; the winner stands a third of a tile or more apart), then by nearness.
    """
    loose = [g for g in groups if g.role == Role.CONCEALED]
    if not loose:
        return groups, [], None
    main = max(loose, key=lambda g: len(g.tiles))
    singles = [g for g in loose if len(g.tiles) == 1 and g is not main]
    if not singles:
        last = main.tiles[-1]
        said = "no tile is set apart as the winning tile; assuming the last one"
        rest = Group(Role.CONCEALED, main.tiles[:-1], main.row)
        won = Group(Role.WINNING, (last,), main.row)
        swapped = [x for g in groups for x in ((rest, won) if g is main else (g,))]
        guess = "winning tile not set apart: took the last concealed tile"
        notes = [Note(NoteCode.WINNING_TILE_NOT_APART, said, (last,))]
        return swapped, notes, Note(NoteCode.WINNING_TILE_NOT_APART, guess, (last,))
    along = frame.along(geometry.centers)
    across = frame.across(geometry.centers)
    ends = geometry.corners[[main.tiles[0], main.tiles[-1]]]
    w = float(np.linalg.norm(ends[:, 1] - ends[:, 0], axis=1).max())  # local, not global

    # Every loose tile of the concealed row, the lone ones too: false gaps may split that
    # row into many (a held-out KDE winning tile at the row's end was measured from the one
    # run of several tiles, six tiles away, and lost to one inside the row).
    concealed = [t for g in loose if g.row == main.row for t in g.tiles]

    def distance(g: Group) -> float:
        """From the nearest other tile of the concealed row."""
        t = g.tiles[0]
        others = [c for c in concealed if c != t] or list(main.tiles)
        return float(np.min(np.hypot(along[others] - along[t], across[others] - across[t])))

    near = [g for g in singles if distance(g) < 4 * w] or singles

    def separation(g: Group) -> float:
        return min(apart.get(g.tiles[0], np.inf), 2.0)  # another row counts as 2 widths

    # A lone tile in a row of flowers is more likely a misread flower than the winning tile.
    flower_rows = {g.row for g in groups if g.role == Role.FLOWER}
    ranked = sorted(near, key=lambda g: (g.row in flower_rows, -separation(g), distance(g)))
    winner = ranked[0]
    doubt = None
    if len(ranked) > 1 and separation(ranked[1]) > 0.6 * separation(winner):
        message = f"{len(ranked)} lone tiles could be the winning tile; took the most apart"
        candidates = tuple(g.tiles[0] for g in ranked)
        doubt = Note(NoteCode.WINNING_TILE_UNSURE, message, candidates)
    out = [Group(Role.WINNING, g.tiles, g.row) if g is winner else g for g in groups]
    return out, [doubt] if doubt else [], doubt


def melds_without_crosswise_tile(
    groups: list[Group], geometry: TileGeometry, frame: Frame
) -> tuple[list[Group], list[Group]]:
    """Runs of three or four concealed tiles in a row of exposed melds, recast as melds.

    Laid out, the concealed tiles stay together, the winning tile at their end; when they lie
    in a row of their own, a run of three or four in the melds' row is a claimed meld whose
    crosswise tile the detector did not see (training-source photos: a pung read as
    concealed, one hand passing unflagged; with it six photos of the three benchmark sets,
    all read wrong). Rows are only judged when the winning tile lies in another row beside
    concealed tiles, so a hand whose concealed tiles share the melds' row is left alone.
    The claimed tile is taken to be the run's widest along the row for its depth across it (a
    quarter turn spans the face's height): a weak clue, but the only one left. Returns the
    groups and the melds recast.
    """
    won = [g.row for g in groups if g.role == Role.WINNING]
    if not won or not any(g.role == Role.CONCEALED and g.row == won[0] for g in groups):
        return groups, []
    along = frame.along(geometry.centers)
    corners = geometry.corners.reshape(-1, 2)
    spans = frame.along(corners).reshape(-1, 4), frame.across(corners).reshape(-1, 4)
    ratio = np.ptp(spans[0], axis=1) / np.maximum(np.ptp(spans[1], axis=1), 1e-6)
    meld_rows = {g.row for g in groups if g.role in MELD_ROLES} - {won[0]}
    recast: dict[int, Group] = {}  # id of the first group of a run -> its meld
    gone: set[int] = set()
    placed_roles = tuple(role for role in Role if role != Role.STRAY)
    for row in meld_rows:
        for run in runs_along(groups, row, along, placed_roles):
            members = tuple(t for g in run for t in g.tiles)
            if run[0].role == Role.CONCEALED and len(members) in (3, 4):
                ordered = tuple(sorted(members, key=lambda t: float(along[t])))
                turned = int(np.argmax(ratio[list(ordered)]))
                side = claimed_from_position(turned, len(ordered))
                recast[id(run[0])] = Group(Role.MELD, ordered, row, side, ordered[turned])
                gone |= {id(g) for g in run[1:]}
    out = [recast.get(id(g), g) for g in groups if id(g) not in gone]
    return out, list(recast.values())


def runs_along(
    groups: Sequence[Group], row: int, along: npt.NDArray[np.float64], roles: tuple[Role, ...]
) -> list[list[Group]]:
    """The groups of `row` whose role is in `roles`, in order along the row (`along`: each
    tile's position), neighbouring concealed groups joined in one run: gaps may split the
    concealed tiles that lie together."""
    placed = sorted(
        (g for g in groups if g.row == row and g.tiles and g.role in roles),
        key=lambda g: float(along[list(g.tiles)].mean()),
    )
    runs: list[list[Group]] = []
    for g in placed:
        if g.role == Role.CONCEALED and runs and runs[-1][-1].role == Role.CONCEALED:
            runs[-1].append(g)
        else:
            runs.append([g])
    return runs


def _blank_kong(group: Group, kinds: list[Pose], tiles: Tiles) -> bool:
    """A concealed kong whose face-up tiles read as white dragons: a plain back the
    detector took for a face reads as a blank white dragon (four real-face backs, the ends
    read P, scored as a kong of white dragons)."""
    if group.role != Role.CONCEALED_KONG:
        return False
    shown = [t for t in group.tiles if kinds[t] != Pose.FACE_DOWN]
    return bool(shown) and all(tiles.codes[t] in ("P", BACK) for t in shown)


def role_of_each(found: Layout, n: int) -> list[Role]:
    """Role per tile index (stray for tiles outside every group)."""
    roles = [Role.STRAY] * n
    for g in found.groups:
        for i in g.tiles:
            roles[i] = g.role
    return roles
