"""Tiles, hands and their scores under MCR and the other rule sets. Standard library only."""

# First, before any other module of the package: importing `compiled` routes the hot path
# to the compiled core while that matches its sources.
from . import compiled  # noqa: F401
from .fan_table import FAN_TABLE, Fan, FanRow
from .hand import Hand, HandError, Meld, Waiting
from .notation import parse_notation, read_notation
from .parse import parse_hand, parse_hand_or_waiting, parse_waiting
from .score import RULESETS, Exclusion, FanScore, Score, score
from .waits import Discard, Wait, discards, waits, winning_tiles

__all__ = [
    "FAN_TABLE",
    "RULESETS",
    "Discard",
    "Exclusion",
    "Fan",
    "FanRow",
    "FanScore",
    "Hand",
    "HandError",
    "Meld",
    "Score",
    "Wait",
    "Waiting",
    "discards",
    "parse_hand",
    "parse_hand_or_waiting",
    "parse_notation",
    "parse_waiting",
    "read_notation",
    "score",
    "waits",
    "winning_tiles",
]
