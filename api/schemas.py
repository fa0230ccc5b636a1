"""JSON Schemas of DESIGN.md's Hand and Score, for the OpenAPI page at /docs only.

Requests are validated by `scoring.parse_hand_or_waiting` (one source of truth for what a hand is);
these schemas document the contract and never reject anything themselves.
"""

from __future__ import annotations

from typing import Any

from api.context import CONTEXT_FIELDS

_TILE = {"type": "string", "description": "tile code: 1m-9m, 1p-9p, 1s-9s, E S W N, C F P"}
_FLAG = {"type": "boolean", "default": False}
_SEAT = {"enum": ["E", "S", "W", "N"]}

HAND_SCHEMA: dict[str, Any] = {
    "type": "object",
    "title": "Hand",
    "required": ["concealed"],
    "properties": {
        "melds": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["type", "tiles"],
                "additionalProperties": False,
                "properties": {
                    "type": {"enum": ["chow", "pung", "kong"]},
                    "tiles": {"type": "array", "items": _TILE, "minItems": 3, "maxItems": 4},
                    "concealed": _FLAG,
                    "claimed_from": {"enum": ["left", "opposite", "right"]},
                    "claimed_tile": _TILE,
                },
            },
        },
        "concealed": {"type": "array", "items": _TILE, "description": "without the winning tile"},
        "winning_tile": {
            **_TILE,
            "type": ["string", "null"],
            "description": "absent or null with 13 tiles (a kong counts 3): the answer lists "
            "the hand's waits instead of scoring a win",
        },
        "self_drawn": _FLAG,
        "seat_wind": {"enum": ["E", "S", "W", "N"], "default": "E"},
        "prevalent_wind": {"enum": ["E", "S", "W", "N"], "default": "E"},
        "flowers": {
            "oneOf": [
                {"type": "array", "items": {"type": "string", "pattern": "^[1-8]h$"}},
                {"type": "integer", "minimum": 0, "maximum": 8},
            ]
        },
        "last_tile": {**_FLAG, "description": "和绝张: the last tile of its kind"},
        "last_of_wall": {**_FLAG, "description": "妙手回春 / 海底捞月"},
        "kong_replacement": {**_FLAG, "description": "杠上开花"},
        "robbing_kong": {**_FLAG, "description": "抢杠和"},
        "ruleset": {
            "enum": ["mcr", "mcr-mil", "sichuan", "sichuan-ordinary", "shanghai", "beijing"],
            "description": "the rule set to score under; refused (422) when the request names "
            "another",
        },
        "dealer": {**_SEAT, "default": "E", "description": "the dealer's seat (庄)"},
        "discarder": {**_SEAT, "description": "the seat whose discard (or robbed kong) won"},
        "wild": {"type": "array", "items": _TILE, "description": "Beijing: wild 会 tiles"},
        "heavenly_win": {**_FLAG, "description": "Beijing, Sichuan: 天和 / 天胡"},
        "earthly_win": {**_FLAG, "description": "Beijing, Sichuan: 地和 / 地胡"},
        "kong_discard": {**_FLAG, "description": "Sichuan: 杠上炮"},
        "burned_rounds": {"type": "integer", "minimum": 0, "description": "Beijing: 烧庄"},
        "mutual_pay": {"type": "array", "items": _SEAT, "description": "Beijing: 互包 seats"},
        "kaibao": {**_FLAG, "description": "Shanghai: 开宝, doubles"},
        "huangfan": {**_FLAG, "description": "Shanghai: 荒番, doubles"},
    },
    "additionalProperties": False,
    "example": {
        "melds": [
            {"type": "chow", "tiles": ["4s", "5s", "6s"], "claimed_from": "left"},
            {"type": "pung", "tiles": ["E", "E", "E"], "claimed_from": "right"},
        ],
        "concealed": ["1m", "2m", "3m", "7p", "8p", "9p", "5p"],
        "winning_tile": "5p",
        "self_drawn": False,
        "seat_wind": "E",
        "prevalent_wind": "E",
        "flowers": ["1h"],
    },
}

SCORE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "title": "Score",
    "properties": {
        "ruleset": {"type": "string"},
        "valid": {"type": "boolean"},
        "total": {"type": "integer"},
        "meets_minimum": {"type": "boolean"},
        "fans": {"type": "array", "items": {"type": "object"}},
        "excluded": {"type": "array", "items": {"type": "object"}},
        "flower_points": {"type": "integer"},
        "payments": {"type": "object"},
        "error": {"type": ["string", "null"]},
        "pointer": {"type": "string", "description": "JSON pointer to the field at fault"},
        "unit": {
            "enum": ["points", "fan", "lezi"],
            "description": "what total counts: points (MCR, Shanghai, ordinary Sichuan), fan "
            "(番: Sichuan blood battle, Beijing), lezi (勒子)",
        },
        "capped_from": {
            "type": "integer",
            "description": "the sum a rule set's cap cut down to total (absent: no cap cut)",
        },
        "waits": {
            "type": "array",
            "description": "13 tiles without a winning tile: each tile that completes the "
            "hand, the copies not in it, and the win scored on a discard and self-drawn",
            "items": {
                "type": "object",
                "properties": {
                    "tile": {"type": "string"},
                    "unseen": {"type": "integer"},
                    "discard": {"type": "object", "description": "a Score"},
                    "self_drawn": {"type": "object", "description": "a Score"},
                },
            },
        },
        "discards": {
            "type": "array",
            "description": "14 tiles in no winning shape: each tile whose discard leaves the "
            "hand waiting, with those waits",
            "items": {
                "type": "object",
                "properties": {
                    "tile": {"type": "string"},
                    "unseen": {"type": "integer"},
                    "waits": {"type": "array", "items": {"type": "object"}},
                },
            },
        },
    },
}

PROBLEM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "title": "Problem (RFC 9457)",
    "properties": {
        "type": {"type": "string"},
        "title": {"type": "string"},
        "status": {"type": "integer"},
        "detail": {"type": "string"},
        "instance": {"type": "string"},
        "pointer": {"type": "string", "description": "JSON pointer to the bad field (422)"},
    },
}

_CONTEXT_PROPS: dict[str, Any] = {name: {"type": "string"} for name in (*CONTEXT_FIELDS, "ruleset")}
_CONTEXT_PROPS["seat_wind"] = {"enum": ["E", "S", "W", "N"]}
_CONTEXT_PROPS["prevalent_wind"] = {"enum": ["E", "S", "W", "N"]}
_CONTEXT_PROPS["flowers"] = {"type": "string", "description": "a count 0-8 or codes like 1h,5h"}
_CONTEXT_PROPS["concealed_kongs"] = {
    "type": "string",
    "description": "the tiles of concealed kongs shown face down, e.g. 5p,9s",
}
for _flag in ("self_drawn", "last_tile", "last_of_wall", "kong_replacement", "robbing_kong"):
    _CONTEXT_PROPS[_flag] = {"type": "boolean"}

RECOGNIZE_FORM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["photo"],
    "properties": {
        "photo": {"type": "string", "format": "binary", "description": "JPEG, PNG or WebP"},
        **_CONTEXT_PROPS,
        "set": {"type": "string", "description": "read with this taught tile set (GET /v1/sets)"},
        "learn": {
            "type": "boolean",
            "description": "with set: a reading no review check flags teaches the set its "
            "hand's faces; the answer's `learned` counts the looks added",
        },
    },
}

_SET_NAME = {
    "type": "string",
    "pattern": "^[a-z0-9](?:[a-z0-9_-]{0,62}[a-z0-9])?$",
    "description": "1-64 of a-z, 0-9, '-' and '_', starting and ending with a letter or digit",
}
_PHOTOS = {"type": "string", "format": "binary", "description": "JPEG, PNG or WebP"}

ENROLL_FORM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["name", "photo"],
    "properties": {
        "name": _SET_NAME,
        "photo": {
            "type": "array",
            "items": _PHOTOS,
            "description": "enrollment photos, one face of each in the standard order: rows "
            "top to bottom characters 1-9, circles 1-9, bamboos 1-9, E S W N C F P, flowers",
        },
    },
}

CORRECTIONS_FORM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["photo", "labels"],
    "properties": {
        "photo": _PHOTOS,
        "labels": {
            "type": "string",
            "description": 'JSON: [{"code": "5p", "bbox": [x, y, w, h]} or '
            '{"code": "5p", "corners": [[x, y] x 4]}], in the photo\'s pixels',
        },
    },
}

SET_SCHEMA: dict[str, Any] = {
    "type": "object",
    "title": "TileSet",
    "properties": {
        "name": _SET_NAME,
        "faces": {"type": "integer"},
        "looks": {"type": "integer"},
        "counts": {"type": "object", "additionalProperties": {"type": "integer"}},
        "untaught": {"type": "array", "items": {"type": "string"}},
        "taught_from": {"type": "array", "items": {"type": "string"}},
        "created": {"type": "string"},
        "updated": {"type": "string"},
        "error": {"type": "string", "description": "only for a set whose file cannot be read"},
    },
}

SETS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"sets": {"type": "array", "items": SET_SCHEMA}},
}

REPORT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "title": "TeachReport",
    "properties": {
        "set": {"type": "string"},
        "looks_added": {"type": "integer"},
        "photos": {"type": "integer"},
        "labels_matched_to_a_tile": {"type": "integer"},
        "labels_read_inside_their_box": {"type": "integer"},
        "warnings": {"type": "array", "items": {"type": "string"}},
        "faces": {"type": "integer"},
        "looks": {"type": "integer"},
    },
}


def problem_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {
        status: {
            "description": "a problem (RFC 9457)",
            "content": {"application/problem+json": {"schema": PROBLEM_SCHEMA}},
        }
        for status in statuses
    }
