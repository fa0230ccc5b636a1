"""The layout search's moves: small typed edits of the detections, each proposing another
reading of how the tiles lie, never applied unconditionally.

What the fix-up rules knew becomes a proposal here: one tile detected twice (`MERGE_TWICE`),
a faint or false detection in the hand (`DROP`), a back taken for a face or a blank face for a
back (`TURN_FACE_DOWN`, `TURN_FACE_UP`), a false or missed crosswise flag (`TURN_UPRIGHT`,
`TURN_CROSSWISE`). `vision.search` weighs each hypothesis; a move's `log_odds` is the fitted
prior's gain for the flags it changes (a drop's cost is the membership prior's, counted on
the layout it leads to).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import StrEnum

import numpy as np
import numpy.typing as npt

from vision.layout import Layout, role_of_each
from vision.priors import TWINS, Attribute
from vision.roles import Role
from vision.types import BACK_INDEX, WHITE_INDEX, Tiles

Array = npt.NDArray[np.float64]
Mask = npt.NDArray[np.bool_]

# Proposals are pruned, not weighed, by these: the search's width, like the decoder's top-k.
# A flag is proposed flipped where the prior gives the flipped state at least this chance...
FLIP_FLOOR = 0.005
# ...a detection is proposed dropped where it is this faint or the prior doubts it is the
# win's at least this much...
FAINT = 0.5
DOUBTED = 0.1
# ...two detections are proposed as one tile seen twice within `vision.priors.TWINS` face
# heights, and at most this many moves are proposed, the likeliest first.
MAX_MOVES = 12
# A detection the first layout puts apart from the win, found under this, is too faint to
# report and is not read (one flagged face down stays: backs are faint to the detector, and
# may be a concealed kong's).
STRAY_MIN_CONFIDENCE = 0.4
# A tile is blank (a white dragon or a back: no print to tell which) where the classifier
# gives the two together at least this.
BLANK = 0.9


class MoveKind(StrEnum):
    """What a move changes."""

    DROP = "drop"  # a detection is no tile: a false one, a duplicate, a faint discard
    MERGE_TWICE = "merge_twice"  # one crosswise tile found twice: the fainter dropped
    TURN_FACE_DOWN = "turn_face_down"  # a pale back read as a face
    TURN_FACE_UP = "turn_face_up"  # a blank face (a white dragon) taken for a back
    TURN_UPRIGHT = "turn_upright"  # a false crosswise flag
    TURN_CROSSWISE = "turn_crosswise"  # a missed crosswise flag


@dataclass(frozen=True)
class Move:
    """One edit of the detections. `tiles` are indices into the tiles as detected (for
    `MERGE_TWICE`: the kept one, then the dropped one); `log_odds` is the flag priors'
    gain (negative: the prior is against it), 0 for a drop, whose cost the membership prior
    counts on the layout it leads to."""

    kind: MoveKind
    tiles: tuple[int, ...]
    log_odds: float = 0.0
    # The priors' log-odds that the move is right, membership included: the order in which
    # moves are proposed, not a term of the objective.
    order: float = 0.0

    @property
    def dropped(self) -> tuple[int, ...]:
        if self.kind is MoveKind.DROP:
            return self.tiles
        if self.kind is MoveKind.MERGE_TWICE:
            return self.tiles[1:]
        return ()


def apply_moves(tiles: Tiles, moves: Iterable[Move]) -> tuple[Tiles, npt.NDArray[np.int_]]:
    """The tiles as the moves read them, and each kept tile's index among `tiles`."""
    down = tiles.face_down.copy()
    crosswise = tiles.sideways.copy()
    keep = np.ones(len(tiles), dtype=bool)
    for move in moves:
        keep[list(move.dropped)] = False
        if move.kind is MoveKind.TURN_FACE_DOWN:
            down[list(move.tiles)] = True
        elif move.kind is MoveKind.TURN_FACE_UP:
            down[list(move.tiles)] = False
        elif move.kind is MoveKind.TURN_UPRIGHT:
            crosswise[list(move.tiles)] = False
        elif move.kind in (MoveKind.TURN_CROSSWISE, MoveKind.MERGE_TWICE):
            crosswise[move.tiles[0] if move.kind is MoveKind.MERGE_TWICE else list(move.tiles)] = (
                True
            )
    edited = replace(tiles, face_down=down, sideways=crosswise)
    kept = np.flatnonzero(keep)
    return edited[kept], kept


def propose(tiles: Tiles, found: Layout, odds: dict[Attribute, Array]) -> list[Move]:
    """The moves worth trying on these tiles, likeliest first (at most MAX_MOVES): each on
    tiles in the rows that hold the win as first laid out, where a slip changes the hand."""
    near = _in_win_rows(found, len(tiles))
    twins = merges(tiles, found, odds, near)
    # A detection with a twin is proposed merged into it, not dropped as a false one.
    paired = {t for move in twins for t in move.tiles}
    # Strays are dropped together (`faint_strays`); one by one, tiles the layout put in.
    in_win = np.array([r != Role.STRAY for r in role_of_each(found, len(tiles))], dtype=bool)
    single = in_win & ~np.isin(np.arange(len(tiles)), list(paired))
    turned = flips(tiles, odds, near)
    moves = [*twins, *drops(tiles, odds, single), *turned, *together(turned, found)]
    moves.sort(key=lambda m: -m.order)
    return [*faint_strays(tiles, found), *moves][:MAX_MOVES]


def unreported(tiles: Tiles, found: Layout) -> Mask:
    """Per detection: apart from the win as first laid out, under STRAY_MIN_CONFIDENCE, and
    not flagged face down."""
    apart = np.array([r == Role.STRAY for r in role_of_each(found, len(tiles))], dtype=bool)
    faint = apart & (tiles.confidence < STRAY_MIN_CONFIDENCE)
    return np.asarray(faint & ~tiles.face_down.astype(bool), dtype=bool)


def faint_strays(tiles: Tiles, found: Layout) -> list[Move]:
    """All faint detections the layout leaves out of the win, dropped at once (one move, or
    none): out of the win either way they cost nothing, but a false one in a row of the
    hand misleads the split into melds."""
    roles = role_of_each(found, len(tiles))
    out = [t for t, role in enumerate(roles) if role == Role.STRAY and tiles.confidence[t] < FAINT]
    return [Move(MoveKind.DROP, tuple(out), 0.0, 0.0)] if out else []


def merges(tiles: Tiles, found: Layout, odds: dict[Attribute, Array], near: Mask) -> list[Move]:
    """One tile detected twice: two faces' centres within TWINS face heights, one of them
    flagged crosswise. The more confident detection is kept, crosswise: the tile's flag is
    the crosswise detection's, so the move changes no flag the priors weigh."""
    height = max(float(found.tile_size[1]), 1.0)
    centres = tiles.corners.mean(axis=1)
    gaps = np.linalg.norm(centres[:, None] - centres[None], axis=2) / height
    out = []
    for i, j in zip(*np.nonzero(np.triu(gaps < TWINS, 1)), strict=True):
        a, b = int(i), int(j)
        if not (near[a] or near[b]) or not (tiles.sideways[a] or tiles.sideways[b]):
            continue
        kept, dropped = (a, b) if tiles.confidence[a] >= tiles.confidence[b] else (b, a)
        doubt = -float(odds[Attribute.OF_THE_WIN][dropped])
        out.append(Move(MoveKind.MERGE_TWICE, (kept, dropped), 0.0, doubt))
    return out


def drops(tiles: Tiles, odds: dict[Attribute, Array], near: Mask) -> list[Move]:
    """Detections among `near` (the tiles laid in the win) that are faint or that the prior
    doubts: a false tile nearer the hand than a true one takes its place in the count."""
    of_win = odds[Attribute.OF_THE_WIN]
    doubted = (tiles.confidence < FAINT) | (of_win < _logit(1 - DOUBTED))
    return [
        Move(MoveKind.DROP, (int(t),), 0.0, -float(of_win[t]))
        for t in np.flatnonzero(doubted & near)
    ]


def flips(tiles: Tiles, odds: dict[Attribute, Array], near: Mask) -> list[Move]:
    """Face-down and crosswise flags the priors give the other state at least FLIP_FLOOR,
    and the face-down flag of every blank tile: a blank white dragon and a pale back look
    alike to every model, so which it is, the hand decides (the prior still weighs it)."""
    floor = _logit(FLIP_FLOOR)
    blank = _blank(tiles)
    out = []
    for attribute, flag, on, off in (
        (Attribute.FACE_DOWN, tiles.face_down, MoveKind.TURN_FACE_DOWN, MoveKind.TURN_FACE_UP),
        (Attribute.CROSSWISE, tiles.sideways, MoveKind.TURN_CROSSWISE, MoveKind.TURN_UPRIGHT),
    ):
        signed = np.where(flag, -odds[attribute], odds[attribute])  # log-odds of the flip
        either = blank if attribute is Attribute.FACE_DOWN else np.zeros(len(tiles), bool)
        for t in np.flatnonzero(near & ((signed >= floor) | either)):
            # The gain: log P(flipped) - log P(as flagged), the log-odds of the flip.
            gain = float(signed[t])
            out.append(Move(off if flag[t] else on, (int(t),), gain, gain))
    return out


def together(single: list[Move], found: Layout) -> list[Move]:
    """Flips of one kind in one row, all at once (a kong's backs, a pung of blank faces):
    each alone may leave the hand no legal reading, the move of all of them one."""
    row_of = {t: r for r, row in enumerate(found.rows) for t in row}
    groups: dict[tuple[MoveKind, int], list[Move]] = {}
    for move in single:
        if move.tiles[0] in row_of:
            groups.setdefault((move.kind, row_of[move.tiles[0]]), []).append(move)
    out = []
    for (kind, _), moves in sorted(groups.items()):
        if len(moves) >= 2:
            gain = sum(m.log_odds for m in moves)
            out.append(Move(kind, tuple(t for m in moves for t in m.tiles), gain, gain))
    return out


def _blank(tiles: Tiles) -> Mask:
    """Per tile: read as a white dragon or a back, together at least BLANK."""
    mass = tiles.probs[:, [WHITE_INDEX, BACK_INDEX]].sum(axis=1)
    return np.asarray(mass >= BLANK, dtype=bool)


def _logit(p: float) -> float:
    return float(np.log(p / (1 - p)))


def _in_win_rows(found: Layout, n: int) -> Mask:
    """Per tile: in a row that holds a tile of the win (its hand or flowers)."""
    roles = role_of_each(found, n)
    rows = {r for r, row in enumerate(found.rows) if any(roles[t] != Role.STRAY for t in row)}
    near = np.zeros(n, dtype=bool)
    for r in rows:
        near[list(found.rows[r])] = True
    for g in found.groups:
        if g.role != Role.STRAY:
            near[list(g.tiles)] = True
    return near
