"""Where each tile lies on the table: declared wins as the rule book lays them out, rack rows,
scattered tiles and piles. Produces `Placement`s in world millimetres; nothing is drawn here.

A declared win (MCR): concealed tiles in a row; each exposed chow, pung or kong as a group with
the claimed tile turned a quarter turn at the end that points to the player it came from (left
player -> left end, opposite -> middle, right -> right end); a concealed kong face-down or with
its two ends face-down; the winning tile a little apart; flowers aside.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from datasets.scene.body import Pose, TileStyle, flat_pose, standing_pose

SUIT_ORDER = {"m": 0, "p": 1, "s": 2, "h": 4}


@dataclass
class Placement:
    code: str  # the tile's true identity
    pose: Pose
    face_down: bool
    sideways: bool
    role: str  # concealed | meld | winning | flower | loose
    meld_id: int | None = None


@dataclass
class _Slot:
    """A tile in a row before it has world coordinates."""

    code: str
    role: str
    meld_id: int | None = None
    sideways: bool = False
    face_down: bool = False
    stacked: bool = False  # lies beyond the previous tile (towards the far side), not after it


def _sort_key(code: str) -> tuple[int, int]:
    if code[0].isdigit():
        return SUIT_ORDER[code[1]], int(code[0])
    return 3, "ESWNCFP".index(code)


# Most players keep their concealed tiles sorted, by suit and rank; the others keep them as
# drawn, or sorted but for a tile or two pushed in anywhere.
SORTED_SHARE = 0.85
UNSORTED_SHUFFLED = 0.5  # of the unsorted hands, those in no order at all


def _as_kept(tiles: Sequence[str], draw: float) -> list[str]:
    """The concealed tiles in the order a player keeps them, chosen by `draw` (uniform in
    [0, 1)). The unsorted order comes from a generator seeded by `draw`, so that it takes
    nothing from the scene's own stream. The generator's hands come sorted, so the unsorted
    branch draws its own order (else every photo would show a sorted hand), and seeding it
    apart leaves the other photos of a seeded set as they would be without it."""
    kept = sorted((str(t) for t in tiles), key=_sort_key)
    if draw < SORTED_SHARE:
        return kept
    own = np.random.default_rng(int(draw * 2**32))
    if own.random() < UNSORTED_SHUFFLED:
        own.shuffle(kept)
        return kept
    for _ in range(int(own.integers(1, 3))):
        kept.insert(int(own.integers(len(kept))), kept.pop(int(own.integers(len(kept)))))
    return kept


def _meld_slots(meld: Mapping[str, Any], meld_id: int, rng: np.random.Generator) -> list[_Slot]:
    tiles = list(meld["tiles"])
    kind = meld["type"]
    if kind == "kong" and meld.get("concealed"):
        slots = [_Slot(t, "meld", meld_id) for t in tiles]
        ends_only = rng.random() < 0.5  # both customs are seen at tables
        for i, slot in enumerate(slots):
            slot.face_down = not ends_only or i in (0, 3)
        return slots
    side = meld.get("claimed_from", "left")
    # A kong made from an exposed pung (加杠) keeps the pung's three tiles in the row, with the
    # claimed tile where the pung had it; the added tile lies turned beside the claimed one.
    upgraded = kind == "kong" and rng.random() < 0.3
    in_row = 3 if upgraded else len(tiles)
    if kind == "chow":
        claimed = meld.get("claimed_tile", tiles[0])
        rest = list(tiles)
        rest.remove(claimed)
        # Some players move the claimed tile to the left end, others turn it in place.
        tiles = [claimed, *rest] if rng.random() < 0.6 else tiles
        turned = tiles.index(claimed)
    elif side == "left":
        turned = 0
    elif side == "right":
        turned = in_row - 1
    else:  # opposite: the middle, either middle tile of a kong
        turned = 1 if in_row == 3 else int(rng.integers(1, 3))
    slots = [_Slot(t, "meld", meld_id) for t in tiles[:in_row]]
    slots[turned].sideways = True
    if upgraded:
        added = _Slot(tiles[3], "meld", meld_id)
        added.sideways = added.stacked = True
        slots.insert(turned + 1, added)
    return slots


class _RowBuilder:
    """Lays slots left to right along x from a near edge at y, tiles touching their neighbours."""

    def __init__(
        self, style: TileStyle, rng: np.random.Generator, sideways_yaw: float, mess: float = 0.0
    ) -> None:
        self.style, self.rng, self.sideways_yaw = style, rng, sideways_yaw
        # 0 = squared up neatly, 1 = pushed together in a hurry: shifted and askew tiles.
        self.shift, self.turn = 0.25 + 1.0 * mess, 0.8 + 2.5 * mess
        self.out: list[Placement] = []

    def row(self, slots: list[_Slot], x: float, y: float, yaw: float = 0.0) -> float:
        """Place `slots` starting at x; return the x just past the last tile."""
        st, rng = self.style, self.rng
        for slot in slots:
            along, depth = (st.height, st.width) if slot.sideways else (st.width, st.height)
            askew = rng.normal(0, self.turn)
            # A tile turned a little needs that much more room not to cut into its neighbours.
            room = depth / 2 * abs(np.sin(np.radians(askew)))
            if slot.stacked and self.out:  # beside the tile just placed, on its far side
                below = self.out[-1].pose.origin
                cx = float(below[0]) + rng.normal(0, 0.25)
                cy = float(below[1]) + depth + 1.0 + 2 * room + abs(rng.normal(0, 0.3))
                end = max(x, cx + along / 2 + room)
            else:  # a gap of zero or more, never less: tiles touch, they do not overlap
                x += room + abs(rng.normal(0, self.shift)) * 0.5
                cx = x + along / 2
                cy = y + depth / 2 + float(np.clip(rng.normal(0, self.shift), -2, 2))
                end = x + along + room
            tile_yaw = yaw + (self.sideways_yaw if slot.sideways else 0.0) + askew
            pose = flat_pose(cx, cy, tile_yaw, st, face_down=slot.face_down)
            self.out.append(
                Placement(slot.code, pose, slot.face_down, slot.sideways, slot.role, slot.meld_id)
            )
            x = end
        return x

    def width(self, slots: list[_Slot]) -> float:
        st = self.style
        return sum(st.height if s.sideways else st.width for s in slots if not s.stacked)


def declared_win(
    hand: Mapping[str, Any], style: TileStyle, rng: np.random.Generator
) -> list[Placement]:
    """The winner's tiles laid out for the others to check, in one of the usual arrangements."""
    concealed = _as_kept(hand["concealed"], rng.random())
    hidden = [_Slot(t, "concealed") for t in concealed]
    melds = [_meld_slots(m, i, rng) for i, m in enumerate(hand.get("melds", []))]
    rng.shuffle(melds)  # the order they were claimed in
    flowers = hand.get("flowers", [])
    flower_slots = [_Slot(str(f), "flower") for f in flowers] if isinstance(flowers, list) else []
    winning = _Slot(str(hand["winning_tile"]), "winning")

    mess = float(rng.uniform(0, 1) ** 2)  # most tables are fairly tidy
    builder = _RowBuilder(style, rng, float(rng.choice([90.0, -90.0])), mess)
    w, h = style.width, style.height
    group_gap = lambda: w * rng.uniform(0.15, 0.8)  # noqa: E731 - short-lived helper
    arrangement = rng.choice(["melds_right", "melds_left", "melds_above"], p=[0.4, 0.25, 0.35])
    if not melds:
        arrangement = "melds_right"
    # Sometimes the winner draws it out towards themselves (never up into the row above).
    win_dy = rng.choice([0.0, 0.0, -0.3, -0.6]) * h
    x = 0.0
    if arrangement == "melds_left":
        for group in melds:
            x = builder.row(group, x, 0.0) + group_gap()
        x += w * rng.uniform(0.2, 1.0)
    x = builder.row(hidden, x, 0.0)
    x = builder.row([winning], x + w * rng.uniform(0.3, 1.2), win_dy)
    if arrangement == "melds_right":
        x += w * rng.uniform(0.4, 1.5)
        for group in melds:
            x = builder.row(group, x, 0.0) + group_gap()
    top = _far_edge(builder.out, style) + rng.uniform(5, 22)  # a second row, clear of the first
    if arrangement == "melds_above":
        total = sum(builder.width(g) for g in melds) + w * 0.5 * len(melds)
        mx = rng.uniform(0, max(x - total, 0.0)) if rng.random() < 0.5 else 0.0
        for group in melds:
            mx = builder.row(group, mx, top) + group_gap()
        fx = mx + w * rng.uniform(1, 3)
        fy = top
    else:
        fx, fy = rng.uniform(0, max(x - w * 4, 1)), top
    if flower_slots:
        if rng.random() < 0.35:  # flowers off to the left of the main row instead
            fx, fy = -w * (len(flower_slots) + rng.uniform(1, 2.5)), 0.0
        builder.row(flower_slots, fx, fy)
    return builder.out


WIN_FLAGS = ("self_drawn", "last_tile", "kong_replacement", "robbing_kong")


def without_winning_tile(hand: dict[str, Any], placements: list[Placement]) -> list[Placement]:
    """A hand waiting to win (听牌) as a player shows it: a declared win's tiles less the
    winning tile, which has not come yet, so nothing lies apart. `hand` loses its
    `winning_tile` and the flags of one win, and is then the Hand JSON of 13 tiles."""
    hand.pop("winning_tile", None)
    for flag in WIN_FLAGS:
        hand.pop(flag, None)
    return [p for p in placements if p.role != "winning"]


def _far_edge(placements: list[Placement], style: TileStyle) -> float:
    """The largest y any of these flat tiles reaches (their skew allowed for)."""
    reach = np.hypot(style.width, style.height) / 2
    far = [
        p.pose.origin[1]
        + min(reach, abs(p.pose.v[1]) * style.height / 2 + abs(p.pose.u[1]) * style.width / 2 + 0.5)
        for p in placements
    ]
    return float(max(far, default=style.height))


def hand_in_play(
    hand: Mapping[str, Any], style: TileStyle, rng: np.random.Generator, codes: frozenset[str]
) -> list[Placement]:
    """A hand mid-game: concealed tiles standing, exposed melds lying in front of them; or,
    half the time, all thirteen still standing (nothing claimed yet)."""
    melds = [_meld_slots(m, i, rng) for i, m in enumerate(hand.get("melds", []))]
    standing = [str(t) for t in hand["concealed"] if t in codes]
    if rng.random() < 0.5:
        standing += [str(t) for m in hand.get("melds", []) for t in m["tiles"][:3]]
        standing, melds = [t for t in standing if t in codes][:13], []
    if rng.random() < 0.85:
        standing.sort(key=_sort_key)
    out = rack_rows(standing, style, rng)
    if melds and rng.random() < 0.8:
        builder = _RowBuilder(style, rng, sideways_yaw=float(rng.choice([90.0, -90.0])))
        x = rng.uniform(-style.width, style.width * 4)
        y = -style.thickness - rng.uniform(3, 15) - style.height
        for group in melds:
            x = builder.row(group, x, y) + style.width * rng.uniform(0.15, 0.8)
        out += builder.out
    return out


def rack_rows(
    codes: list[str],
    style: TileStyle,
    rng: np.random.Generator,
    origin: tuple[float, float] = (0.0, 0.0),
    facing_yaw: float = 0.0,
    role: str = "concealed",
) -> list[Placement]:
    """A hand still standing on the table; faces towards the camera at yaw 0, away at 180."""
    out = []
    yaw = facing_yaw + rng.normal(0, 2)
    along = np.array([np.cos(np.radians(yaw)), np.sin(np.radians(yaw))])
    lean = rng.uniform(-4, 12)  # tiles lean back a little (away from their player), or forward
    x = 0.0
    for code in codes:
        cx, cy = np.asarray(origin) + along * (x + style.width / 2)
        pose = standing_pose(float(cx), float(cy + rng.normal(0, 0.3)), yaw, style, lean)
        out.append(Placement(code, pose, False, False, role))
        x += style.width + abs(rng.normal(0, 0.3))
    return out


def enrollment(
    rows: Sequence[Sequence[str]], style: TileStyle, rng: np.random.Generator
) -> list[Placement]:
    """One face of each laid flat in rows, as a set is shown to be taught: rows top to bottom
    (away from the player first), each left to right, a little apart and a little askew."""
    out = []
    gap = rng.uniform(0.15, 0.6) * style.height
    for r, codes in enumerate(rows):
        y = -r * (style.height + gap) + rng.normal(0, 1.0)
        x = rng.normal(0, 1.5)
        for code in codes:
            x += style.width / 2
            pose = flat_pose(x, y + rng.normal(0, 0.5), rng.normal(0, 2.0), style)
            out.append(Placement(code, pose, False, False, "loose"))
            x += style.width / 2 + abs(rng.normal(0.3, 0.6))
    return out


def scattered(
    codes: list[str],
    style: TileStyle,
    rng: np.random.Generator,
    face_down_share: float = 0.2,
    origin: tuple[float, float] = (0.0, 0.0),
) -> list[Placement]:
    """Tiles strewn flat over the table at any angle, some face-down, none overlapping."""
    reach = style.height * 0.55 * np.sqrt(2)
    side = reach * 2 * np.sqrt(len(codes)) * rng.uniform(1.1, 1.8)
    centres: list[np.ndarray] = []
    out = []
    for code in codes:
        for _ in range(60):
            c = rng.uniform(0, side, 2)
            if all(np.linalg.norm(c - o) > reach * 2 for o in centres):
                break
        else:
            continue  # table is full: drop the tile rather than overlap it
        centres.append(c)
        down = bool(rng.random() < face_down_share)
        x, y = float(c[0] + origin[0]), float(c[1] + origin[1])
        pose = flat_pose(x, y, rng.uniform(0, 360), style, face_down=down)
        out.append(Placement(code, pose, down, False, "loose"))
    return out


def pile(codes: list[str], style: TileStyle, rng: np.random.Generator) -> list[Placement]:
    """Tiles heaped in a small area: later tiles rest on earlier ones, tipped a little."""
    side = style.height * np.sqrt(len(codes)) * rng.uniform(0.7, 1.1)
    placed: list[tuple[np.ndarray, float]] = []
    out = []
    for code in codes:
        c = rng.uniform(0, side, 2)
        # Anything within a tile's diagonal may lie under this one: rest on the highest.
        below = [z for o, z in placed if np.linalg.norm(c - o) < style.height * 1.25]
        z = (max(below) + style.thickness) if below else 0.0
        if z > style.thickness * 2.5:
            z = 0.0  # a heap this size stays low: slide it to the table
        down = bool(rng.random() < 0.3)
        tip_u, tip_v = rng.uniform(-10, 10, 2) if z > 0 else (0.0, 0.0)
        # A tipped tile rests on its low edge: lift it so it does not sink into the one below.
        lift = style.height / 2 * abs(np.sin(np.radians(tip_u)))
        lift += style.width / 2 * abs(np.sin(np.radians(tip_v)))
        pose = flat_pose(float(c[0]), float(c[1]), rng.uniform(0, 360), style, down, z + lift)
        if z > 0:
            pose = _tipped(pose, tip_u, tip_v)
        placed.append((c, z + lift))
        out.append(Placement(code, pose, down, False, "loose"))
    return out


def _tipped(pose: Pose, about_u_deg: float, about_v_deg: float) -> Pose:
    """Tip a resting tile about its own axes (it lies on an uneven heap)."""
    a, b = np.radians(about_u_deg), np.radians(about_v_deg)
    v = np.cos(a) * pose.v + np.sin(a) * pose.w
    w = -np.sin(a) * pose.v + np.cos(a) * pose.w
    u = np.cos(b) * pose.u - np.sin(b) * w
    w = np.sin(b) * pose.u + np.cos(b) * w
    return Pose(pose.origin, u, v, w)


def table_extras(
    spare: list[str], style: TileStyle, rng: np.random.Generator, bounds: np.ndarray
) -> list[Placement]:
    """What else lies on the table beyond the winner's hand: discards, or a stretch of wall.

    `spare` holds tiles not in the hand; `bounds` is the hand's (min xy, max xy) in mm.
    """
    (x0, _), (_, y1) = bounds
    n = int(rng.integers(3, 15))
    picked = [spare[i] for i in rng.choice(len(spare), size=min(n, len(spare)), replace=False)]
    # Beyond the hand's far edge by a tile's half-diagonal (discards lie at any angle) and more.
    far = y1 + style.height / 2 + np.hypot(style.width, style.height) / 2
    far += style.height * rng.uniform(0.3, 1.8)
    choice = rng.random()
    if choice < 0.55:  # discards, strewn face-up in the middle of the table
        return scattered(picked, style, rng, 0.05, origin=(x0 + rng.uniform(-40, 40), far))
    if choice < 0.75:  # the opposite player's hand, still standing: we see its backs
        far += style.height * rng.uniform(1.5, 4)
        return rack_rows(picked, style, rng, (x0 + rng.uniform(-30, 80), far), 180.0, "loose")
    # A stretch of wall: face-down tiles stacked two high, the top row a little askew.
    out = []
    x = x0 + rng.uniform(-30, 60)
    yaw = rng.normal(0, 3)
    for i, code in enumerate(picked):
        layer = i % 2
        # Stacks a little apart, each tile a little askew, never into its neighbour.
        cx = x + (i // 2) * (style.width + 1.2) + layer * rng.uniform(-0.3, 0.3)
        askew = float(np.clip(rng.normal(0, 1), -1.5, 1.5))
        pose = flat_pose(cx, far, yaw + askew, style, True, layer * style.thickness)
        out.append(Placement(code, pose, True, False, "loose"))
    return out
