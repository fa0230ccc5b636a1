"""Which sense along the rows' axis the hand reads: the same tiles are laid out both ways, and
each reading is scored by how people lay a hand out (sorted tiles, the winning tile at the
right, where claimed tiles sit) and by face corners that know which way is up.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import TYPE_CHECKING

import numpy as np

from scoring.tiles import PLAYING
from vision.geometry import Array, Frame, TileGeometry
from vision.roles import Role
from vision.types import Tiles

if TYPE_CHECKING:  # layout imports this module: the types are only needed for annotations
    from vision.layout import Layout
    from vision.segment import Group

_CORNER_EVIDENCE = 6.0  # corners that know which way faces read outweigh sorting cues
_ORDER = {code: i for i, code in enumerate(PLAYING)}  # m, p, s by rank, then honours


def evidence_each_way(
    readings: Sequence[tuple[Layout, Frame]], tiles: Tiles, geometry: TileGeometry
) -> list[float]:
    """Evidence for each reading; the first must be read in the corners' own sense."""
    evidence = [_sense_evidence(found, tiles, geometry, f) for found, f in readings]
    if _corners_know_up(geometry, tiles):
        evidence[0] += _CORNER_EVIDENCE
    return evidence


def _corners_know_up(geometry: TileGeometry, tiles: Tiles) -> bool:
    """Do the face corners say which way faces read? A detector that cannot tell reports
    every face's up in the upper-left half-plane; any face clearly outside it shows that
    these corners carry the real reading direction."""
    upright = ~tiles.face_down
    return bool((geometry.ups[upright] @ np.array([-1.0, -1.0]) < -0.3).any())


def _sense_evidence(found: Layout, tiles: Tiles, geometry: TileGeometry, frame: Frame) -> float:
    """How well this reading sense fits how people lay a hand out.

    +1 per neighbouring pair in ascending order within a group (players sort their tiles,
    and lay chows out in order), -1 per descending pair, none within a pung or kong; +2 when
    the winning tile lies to the right of the concealed tiles, -2 when to the left.
    """
    codes = tiles.codes
    score = 0.0
    for group in found.groups:
        if group.role not in (Role.CONCEALED, Role.MELD):
            continue
        keys = [_ORDER.get(codes[i]) for i in group.tiles]
        if group.role == Role.MELD and len(set(keys)) < len(keys):
            continue  # a pung or kong has no order: a step in one is a misread tile
        for a, b in pairwise(keys):
            if a is not None and b is not None and a != b:
                score += 1.0 if b > a else -1.0
    if found.winning is not None and found.concealed:
        along = frame.along(geometry.centers)
        score += (
            2.0 if along[found.winning] > float(np.mean(along[list(found.concealed)])) else -2.0
        )
    across = frame.across(geometry.centers)
    for meld in found.of_role(Role.MELD):
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
