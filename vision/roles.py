"""The names the layout gives tiles: each tile's pose on the table and its role in the win.

Both are string enums, so a role serializes as its name in the recognition JSON
(`tiles[].role`) and compares equal to it.
"""

from __future__ import annotations

from enum import StrEnum


class Pose(StrEnum):
    """How a tile lies, as the layout reads it."""

    UPRIGHT = "U"  # face up, along its row
    SIDEWAYS = "S"  # face up, a quarter turn: a claimed tile
    TURNED = "T"  # a quarter turn and read as a flower: a flower askew, or a claimed tile misread
    FACE_DOWN = "D"


# Poses that lie a quarter turn from the row.
CROSSWISE = (Pose.SIDEWAYS, Pose.TURNED)


class Role(StrEnum):
    """What a tile is to the declared win."""

    CONCEALED = "concealed"
    WINNING = "winning"
    MELD = "meld"  # an exposed meld: a chow, pung or kong claimed from a player
    CONCEALED_KONG = "concealed_kong"  # 暗杠
    FLOWER = "flower"
    STRAY = "stray"  # not the hand's: a discard, the wall, another player's tile


HAND_ROLES = (Role.CONCEALED, Role.WINNING, Role.MELD, Role.CONCEALED_KONG)
MELD_ROLES = (Role.MELD, Role.CONCEALED_KONG)
