"""The bad-input corpus: every case must answer its exact 4xx status as problem+json, never 5xx.

Cases are data (a name, a request, the expected status); hands fuzzed with hypothesis follow.
The recognizer is the replaying stand-in, but photos pass through the real vision.load.
"""

from __future__ import annotations

import json
import random
import struct
import zlib
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.api.conftest import TEST_LIMITS

PROBLEM = "application/problem+json"
VALID_HAND: dict[str, Any] = {
    "melds": [
        {"type": "chow", "tiles": ["4s", "5s", "6s"], "claimed_from": "left"},
        {"type": "pung", "tiles": ["E", "E", "E"], "claimed_from": "right"},
    ],
    "concealed": ["1m", "2m", "3m", "7p", "8p", "9p", "5p"],
    "winning_tile": "5p",
    "flowers": ["1h"],
}


@dataclass
class Case:
    name: str
    expected: int
    method: str = "POST"
    url: str = "/v1/recognize"
    kwargs: dict[str, Any] = field(default_factory=dict)


# ---- photos ----------------------------------------------------------------------------------


def _image(fmt: str, width: int = 96, height: int = 64) -> bytes:
    rng = np.random.default_rng(0)
    image = rng.integers(0, 255, (height, width, 3), dtype=np.uint8)
    ok, encoded = cv2.imencode(fmt, image)
    assert ok
    return encoded.tobytes()


JPEG = _image(".jpg")
PNG = _image(".png")
WEBP = _image(".webp")


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_claiming(width: int, height: int) -> bytes:
    """A tiny, complete PNG whose header claims width x height (a decompression bomb)."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    idat = zlib.compress(b"\x00" * 64)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _png_chunk(b"IHDR", ihdr)
        + _png_chunk(b"IDAT", idat)
        + _png_chunk(b"IEND", b"")
    )


def jpeg_claiming(width: int, height: int) -> bytes:
    """A real JPEG with its frame header (SOF0) rewritten to claim width x height."""
    data = bytearray(JPEG)
    sof = data.find(b"\xff\xc0")
    data[sof + 5 : sof + 9] = struct.pack(">HH", height, width)
    return bytes(data)


def webp_claiming(width: int, height: int) -> bytes:
    body = b"VP8X" + struct.pack("<I", 10) + b"\x00" * 4
    body += (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little")
    return b"RIFF" + struct.pack("<I", len(body) + 4) + b"WEBP" + body


def _photo(name: str, data: bytes, expected: int, **extra: Any) -> Case:
    files = {"photo": ("p.jpg", data, "image/jpeg")}
    return Case(name, expected, kwargs={"files": files, **extra})


def photo_cases() -> list[Case]:
    cases = [_photo("empty file", b"", 415)]
    rng = random.Random(1)
    for size in (1, 2, 3, 7, 16, 100, 1000, 4096, 20000, 100_000):
        noise = bytes(rng.randrange(256) for _ in range(size))
        noise = b"\x00" + noise[1:]  # never a magic number by chance
        cases.append(_photo(f"random {size} bytes", noise, 415))
    texts = {
        "plain text": b"hello, this is not a photo",
        "html": b"<!doctype html><html><body>hi</body></html>",
        "json": b'{"photo": "no"}',
        "svg": b'<svg xmlns="http://www.w3.org/2000/svg" width="10000" height="10000"/>',
        "pdf": b"%PDF-1.7\n1 0 obj\n<<>>\nendobj\n",
        "zip": b"PK\x03\x04" + b"\x00" * 40,
        "gzip": b"\x1f\x8b\x08\x00" + b"\x00" * 20,
        "gif87": b"GIF87a\x10\x00\x10\x00" + b"\x00" * 20,
        "gif89": b"GIF89a\x10\x27\x10\x27" + b"\x00" * 20,
        "bmp": b"BM" + b"\x00" * 60,
        "tiff le": b"II*\x00" + b"\x00" * 60,
        "tiff be": b"MM\x00*" + b"\x00" * 60,
        "ico": b"\x00\x00\x01\x00" + b"\x00" * 30,
        "heic": b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic",
        "avif": b"\x00\x00\x00\x1cftypavif\x00\x00\x00\x00avifmif1",
        "elf": b"\x7fELF" + b"\x00" * 60,
        "utf-16 text": "not a photo".encode("utf-16"),
        "jpeg magic reversed": b"\xff\xd8" + b"\x00" * 30,
        "png magic cut": b"\x89PNG\r\n",
        "riff not webp": b"RIFF\x10\x00\x00\x00WAVEfmt ",
    }
    cases += [_photo(name, data, 415) for name, data in texts.items()]
    for fraction in (0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99):
        cases.append(_photo(f"jpeg cut at {fraction:.0%}", JPEG[: int(len(JPEG) * fraction)], 422))
        cases.append(_photo(f"png cut at {fraction:.0%}", PNG[: int(len(PNG) * fraction)], 422))
    cases += [
        _photo("jpeg without EOI", JPEG[:-2], 422),
        _photo("jpeg header only", JPEG[:3], 422),
        _photo("png signature and half IHDR", PNG[:20], 422),
        _photo("webp cut", WEBP[: len(WEBP) // 2], 422),
        _photo("png claiming 0x0", png_claiming(0, 0), 422),
        _photo("png with garbage body", PNG[:33] + b"\x00" * 200 + PNG[-12:], 422),
    ]
    for width, height in ((10_000, 10_000), (50_000, 1_001), (65_535, 65_535), (8_000, 8_000)):
        cases.append(_photo(f"png bomb {width}x{height}", png_claiming(width, height), 413))
    for width, height in ((10_000, 10_000), (65_535, 65_535), (9_000, 6_000)):
        cases.append(_photo(f"jpeg bomb {width}x{height}", jpeg_claiming(width, height), 413))
    cases.append(_photo("webp bomb 16383x16383", webp_claiming(16_383, 16_383), 413))
    over = TEST_LIMITS.photo_bytes + 1
    cases.append(_photo("photo 1 byte over the cap", JPEG + b"\x00" * (over - len(JPEG)), 413))
    cases.append(_photo("photo 3x the cap", b"\xff\xd8\xff" + b"\x00" * (3 * over), 413))
    return cases


# ---- forms: request shape and context fields -------------------------------------------------


def form_cases() -> list[Case]:
    photo = {"photo": ("p.jpg", JPEG, "image/jpeg")}
    cases = [
        Case("no body", 415),
        Case("json body", 415, kwargs={"json": {"photo": "x"}}),
        Case("raw jpeg body", 415, kwargs={"content": JPEG, "headers": _ct("image/jpeg")}),
        Case("text body", 415, kwargs={"content": b"photo", "headers": _ct("text/plain")}),
        Case("urlencoded", 415, kwargs={"data": {"photo": "x"}}),
        Case(
            "multipart without boundary",
            400,
            kwargs={"content": b"--x", **_h("multipart/form-data")},
        ),
        Case("multipart garbage", 400, kwargs={"content": b"\x00garbage", **_h(_mp("zz"))}),
        Case(
            "multipart wrong boundary",
            400,
            kwargs={"content": _form_body("a", JPEG), **_h(_mp("other"))},
        ),
        Case(
            "missing photo field",
            400,
            kwargs={"data": {"seat_wind": "E"}, "files": {"x": ("", b"")}},
        ),
        Case("photo under another name", 400, kwargs={"files": {"image": ("p.jpg", JPEG)}}),
        Case(
            "photo as a short text field",
            400,
            kwargs={"content": _text_field("photo", b"abc"), **_h(_mp("b"))},
        ),
        Case(
            "photo as a long text field",
            413,
            kwargs={"content": _text_field("photo", JPEG), **_h(_mp("b"))},
        ),
        Case(
            "two photos",
            400,
            kwargs={"files": [("photo", ("a.jpg", JPEG)), ("photo", ("b.jpg", JPEG))]},
        ),
        Case(
            "a field given twice", 400, kwargs={"files": photo, "data": {"seat_wind": ["E", "S"]}}
        ),
        Case("a 2 KiB field", 413, kwargs={"files": photo, "data": {"seat_wind": "E" * 2048}}),
        Case("a 5000-digit count", 413, kwargs={"files": photo, "data": {"flowers": "9" * 5000}}),
        Case("a 40-digit count", 422, kwargs={"files": photo, "data": {"flowers": "9" * 40}}),
        Case(
            "a 1 MiB field",
            413,
            kwargs={"files": photo, "data": {"flowers": "1" * (1 << 20)}},
        ),
        Case(
            "too many fields",
            400,
            kwargs={"files": photo, "data": {f"f{i}": "1" for i in range(40)}},
        ),
        Case(
            "declared length over the cap",
            413,
            kwargs={"content": b"", "headers": {**_ct(_mp("b")), "content-length": str(10**9)}},
        ),
    ]
    bad_context = {
        "seat_wind": ["X", "east wind", "EE", "5", "Ｅ"],
        "prevalent_wind": ["Z", "中", "None"],
        "self_drawn": ["maybe", "2", "truee", "null"],
        "last_tile": ["y", "-1"],
        "last_of_wall": ["sometimes"],
        "kong_replacement": ["[]"],
        "robbing_kong": ["{}"],
        "flowers": ["-1", "9", "abc", "1h,1h", "9h", "1h,2x", "1.5", "1e3"],
        "concealed_kongs": ["1h", "5p,5p,5p,5p,5p", "back", "10p", "5p;6p"],
        "ruleset": ["nope", "MCR2", "riichi", "../../etc/passwd"],
        "unknown_field": ["1"],
        "photo_url": ["http://example.com/x.jpg"],
    }
    for name, values in bad_context.items():
        for value in values:
            data = {name: value}
            cases.append(Case(f"{name}={value!r}", 422, kwargs={"files": photo, "data": data}))
    return cases


def _ct(media: str) -> dict[str, str]:
    return {"content-type": media}


def _h(media: str) -> dict[str, Any]:
    return {"headers": _ct(media)}


def _mp(boundary: str) -> str:
    return f"multipart/form-data; boundary={boundary}"


def _form_body(boundary: str, data: bytes) -> bytes:
    head = f'--{boundary}\r\nContent-Disposition: form-data; name="photo"; filename="p.jpg"\r\n\r\n'
    return head.encode() + data + f"\r\n--{boundary}--\r\n".encode()


def _text_field(name: str, data: bytes) -> bytes:
    head = f'--b\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode()
    return head + data + b"\r\n--b--\r\n"


# ---- /v1/score ---------------------------------------------------------------------------------


def _score(name: str, expected: int, body: Any = None, raw: bytes | None = None, **kw: Any) -> Case:
    kwargs: dict[str, Any] = dict(kw)
    if raw is not None:
        kwargs.setdefault("headers", _ct("application/json"))
        kwargs["content"] = raw
    elif body is not None:
        kwargs["json"] = body
    return Case(name, expected, url=kw.pop("url", "/v1/score"), kwargs=kwargs)


def _with(path: str, value: Any) -> dict[str, Any]:
    """VALID_HAND with the field at `path` (a/b/0) replaced; `...` deletes it."""
    hand = json.loads(json.dumps(VALID_HAND))
    *parents, last = path.split("/")
    node: Any = hand
    for part in parents:
        node = node[int(part)] if isinstance(node, list) else node[part]
    key: Any = int(last) if isinstance(node, list) else last
    if value is ...:
        del node[key]
    else:
        node[key] = value
    return hand


def score_cases() -> list[Case]:
    raw_bad = {
        "empty body": b"",
        "whitespace": b"  \n ",
        "open brace": b"{",
        "open bracket": b"[",
        "nul": b"nul",
        "single quotes": b"{'melds': []}",
        "trailing comma": b'{"melds": [],}',
        "NaN": b'{"flowers": NaN}',
        "Infinity": b'{"flowers": Infinity}',
        "not utf-8": b'{"concealed": ["\xff\xfe"]}',
        "utf-16": json.dumps(VALID_HAND).encode("utf-16"),
        "two documents": b"{} {}",
        "comment": b'{"melds": [] /* no */}',
        "deep nesting 5000": b"[" * 5000 + b"]" * 5000,
        "deep nesting 40": b"[" * 40 + b"]" * 40,
        "deep objects 2500": b'{"a":' * 2500 + b"1" + b"}" * 2500,
        "deep nesting inside a hand": b'{"melds": [' + b"[" * 3000 + b"]" * 3000 + b"]}",
        "a 5000-digit integer": b'{"flowers": ' + b"9" * 5000 + b"}",
        "a 5000-digit negative integer": b'{"flowers": -' + b"9" * 5000 + b"}",
        "a 40-digit integer": b'{"flowers": ' + b"9" * 40 + b"}",
        "a float out of range": b'{"flowers": 1e999}',
        "a negative float out of range": b'{"concealed": [-1e999]}',
        "a 5000-digit fraction": b'{"flowers": 0.' + b"1" * 5000 + b"}",
        "control char in string": b'{"winning_tile": "5\x01p"}',
        "binary": bytes(range(256)),
    }
    cases = [_score(name, 400, raw=data) for name, data in raw_bad.items()]
    for name, media in (
        ("text/plain", "text/plain"),
        ("form", "application/x-www-form-urlencoded"),
        ("multipart", "multipart/form-data; boundary=b"),
        ("xml", "application/xml"),
        ("image", "image/jpeg"),
    ):
        cases.append(
            _score(
                f"content type {name}", 415, raw=json.dumps(VALID_HAND).encode(), headers=_ct(media)
            )
        )
    big = {**VALID_HAND, "padding": "x" * TEST_LIMITS.json_bytes}
    cases.append(_score("body over the cap", 413, big))
    for top in ([], [VALID_HAND], "hand", 14, 1.5, True, None):
        cases.append(
            _score(f"top-level {type(top).__name__} {top!r:.20}", 422, raw=json.dumps(top).encode())
        )
    wrong = {
        "melds": ["x", 1, {}, [1], None, [{"type": 1}], [{"type": "chow"}], [{"tiles": ["1m"]}]],
        "melds/0/type": ["triple", 3, None, ""],
        "melds/0/tiles": ["456s", [4, 5, 6], ["4s", "5s"], ["4s", "5s", "6s", "7s", "8s"], None],
        "melds/0/tiles/0": ["4x", 4, "", "back", None, "1h"],
        "melds/0/claimed_from": ["up", 3],
        "concealed": ["1m2m3m", None, 5, [1, 2, 3], {"a": 1}],
        "concealed/0": ["10m", "0m", "m1", "🀇", " 1m", "1M"],
        "winning_tile": [5, "", "1h", ["5p"], "back"],
        "self_drawn": ["yes", 1, None, [], "true"],
        "seat_wind": ["X", 0, None, "east", ["E"]],
        "prevalent_wind": ["Q", 1.5],
        "flowers": [-1, 9, "x", ["9h"], ["1h", "1h"], [1], 2.5],
        "last_tile": ["no"],
        "last_of_wall": [0],
        "kong_replacement": ["false"],
        "robbing_kong": [{}],
    }
    for path, values in wrong.items():
        for value in values:
            cases.append(_score(f"{path}={value!r}", 422, _with(path, value)))
    for path in ("concealed", "melds/0/tiles", "melds/0/type"):
        cases.append(_score(f"missing {path}", 422, _with(path, ...)))
    # Without a winning tile 13 tiles are a hand waiting to win (200, its waits); any other
    # count, or a flag that describes one win, is refused.
    fourteen = [*VALID_HAND["concealed"], "9p"]
    cases.append(
        _score(
            "missing winning_tile, 14 tiles",
            422,
            {**_with("winning_tile", ...), "concealed": fourteen},
        )
    )
    cases.append(
        _score(
            "winning_tile=None, 14 tiles",
            422,
            {**_with("winning_tile", None), "concealed": fourteen},
        )
    )
    for flag in ("self_drawn", "last_tile", "kong_replacement", "robbing_kong"):
        cases.append(
            _score(f"waiting with {flag}", 422, {**_with("winning_tile", ...), flag: True})
        )
    five = {**_with("winning_tile", ...), "concealed": ["5p"] * 5 + ["1m", "2m"]}
    cases.append(_score("waiting with five of a tile", 422, five))
    cases.append(
        _score("too many tiles", 422, _with("concealed", [*VALID_HAND["concealed"], "9p"]))
    )
    cases.append(_score("five of a tile", 422, _with("concealed", ["5p"] * 4 + ["1m", "2m", "3m"])))
    cases.append(_score("unknown field", 422, {**VALID_HAND, "dealer": True}))
    # A typo inside a meld must not be scored as if the field were absent (a concealed chow
    # read as exposed changes the points).
    for key, value in (("concealled", True), ("claimed", "left"), ("tile", ["4s"]), ("", 1)):
        cases.append(_score(f"meld key {key!r}", 422, _with(f"melds/0/{key}", value)))
    cases.append(_score("lone surrogate in a field name", 422, raw=b'{"\\ud800": 1}'))
    cases.append(_score("lone surrogate in a tile", 422, raw=b'{"concealed": ["\\udfff"]}'))
    for ruleset in ("nope", "", "mcr;drop", "riichi"):
        cases.append(
            Case(
                f"ruleset {ruleset!r}",
                422,
                url="/v1/score",
                kwargs={"json": VALID_HAND, "params": {"ruleset": ruleset}},
            )
        )
    return cases


def route_cases() -> list[Case]:
    return [
        Case("GET unknown path", 404, "GET", "/v2/score"),
        Case("GET static missing", 404, "GET", "/static/nope.js"),
        Case("GET static traversal", 404, "GET", "/static/..%2fapp.py"),
        Case("GET static traversal dots", 404, "GET", "/static/../app.py"),
        Case("GET problem type unknown", 404, "GET", "/problems/nope"),
        Case("GET /v1/score", 405, "GET", "/v1/score"),
        Case("PUT /v1/score", 405, "PUT", "/v1/score"),
        Case("DELETE /v1/recognize", 405, "DELETE", "/v1/recognize"),
        Case("GET /v1/recognize", 405, "GET", "/v1/recognize"),
        Case("POST /v1/fans", 405, "POST", "/v1/fans"),
        Case("POST /healthz", 405, "POST", "/healthz"),
        Case("PATCH /", 405, "PATCH", "/"),
    ]


CORPUS = photo_cases() + form_cases() + score_cases() + route_cases()


def test_the_corpus_is_big_enough() -> None:
    assert len(CORPUS) >= 200, len(CORPUS)
    assert len({c.name + c.url for c in CORPUS}) == len(CORPUS)


@pytest.mark.parametrize("case", CORPUS, ids=[c.name for c in CORPUS])
def test_bad_input(client: TestClient, case: Case) -> None:
    response = client.request(case.method, case.url, **case.kwargs)
    assert response.status_code < 500
    assert response.status_code == case.expected, response.text
    assert response.headers["content-type"] == PROBLEM
    problem = response.json()
    assert problem["status"] == case.expected
    assert problem["type"].startswith("/problems/") and problem["title"] and problem["detail"]
    assert problem["instance"] == response.request.url.path
    hand_error = case.url == "/v1/score" and "json" in case.kwargs and "params" not in case.kwargs
    if case.expected == 422 and hand_error:
        _assert_pointer_resolves(case.kwargs["json"], problem["pointer"])
    if case.expected == 422 and case.url == "/v1/recognize":
        assert problem["pointer"].lstrip("/") in {"photo", *case.kwargs.get("data", {})}


# Words of the interpreter that once reached clients ("maximum recursion depth exceeded",
# "use sys.set_int_max_str_digits()") or could: no detail may carry them.
PYTHON_WORDS = (
    "Traceback",
    "recursion",
    "sys.",
    "set_int_max_str_digits",
    "Exceeds the limit",
    "Errno",
    "bytearray",
    "NoneType",
    "object has no attribute",
    "invalid literal",
    "could not convert",
    "not subscriptable",
    "positional argument",
    "Error:",
    "Exception",
)


@pytest.mark.parametrize("case", CORPUS, ids=[c.name for c in CORPUS])
def test_no_python_in_the_detail(client: TestClient, case: Case) -> None:
    detail = client.request(case.method, case.url, **case.kwargs).json()["detail"]
    assert not [w for w in PYTHON_WORDS if w in detail], detail


def _assert_pointer_resolves(document: Any, pointer: str) -> None:
    """The pointer's parent exists in the document (the field itself may be the missing one)."""
    assert pointer == "" or pointer.startswith("/"), pointer
    parts = [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]]
    node = document
    for part in parts[:-1]:
        node = node[int(part)] if isinstance(node, list) else node[part]
    if parts and isinstance(node, list):
        assert 0 <= int(parts[-1]) <= len(node)
    elif parts:
        assert isinstance(node, dict), pointer


# ---- hands fuzzed with hypothesis --------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-10, 100)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6)
    | st.sampled_from(["1m", "9p", "5s", "E", "C", "1h", "back", "chow", "pung", "kong", "left"]),
    # Keys may hold "/" and "~": the pointer must escape them (RFC 6901), which is checked.
    lambda children: (
        st.lists(children, max_size=5)
        | st.dictionaries(
            st.text(st.sampled_from("ab/~0") | st.characters(), max_size=8), children, max_size=5
        )
    ),
    max_leaves=20,
)
FIELDS = [
    *VALID_HAND,
    "melds/0",
    "melds/0/tiles",
    "melds/0/tiles/1",
    "melds/1/type",
    "concealed/3",
    "self_drawn",
    "seat_wind",
]

FUZZ = settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@FUZZ
@given(value=JSON_VALUES)
def test_fuzzed_json_documents(client: TestClient, value: Any) -> None:
    response = client.post("/v1/score", content=json.dumps(value), headers=_ct("application/json"))
    _assert_answer(response, value)


@FUZZ
@given(path=st.sampled_from(FIELDS), value=JSON_VALUES)
def test_fuzzed_hand_fields(client: TestClient, path: str, value: Any) -> None:
    hand = _with(path, value)
    response = client.post("/v1/score", content=json.dumps(hand), headers=_ct("application/json"))
    _assert_answer(response, hand)


@FUZZ
@given(seed=st.integers(0, 2**32 - 1), cuts=st.lists(st.integers(0, 13), max_size=3))
def test_fuzzed_generated_hands(client: TestClient, seed: int, cuts: list[int]) -> None:
    from scoring.generate import random_hand

    hand = random_hand(random.Random(seed))
    concealed = hand["concealed"]
    for cut in cuts:  # drop tiles: most such hands are no longer 14 tiles
        if concealed:
            concealed.pop(cut % len(concealed))
    response = client.post("/v1/score", json=hand)
    _assert_answer(response, hand)
    if not cuts:
        assert response.status_code == 200 and response.json()["valid"], response.text


def _assert_answer(response: Any, document: Any) -> None:
    assert response.status_code in (200, 422), response.text
    if response.status_code == 200:
        body = response.json()
        assert isinstance(body["valid"], bool)
        assert body["valid"] or body["error"]
    else:
        assert response.headers["content-type"] == PROBLEM
        _assert_pointer_resolves(document, response.json()["pointer"])


# parse_hand once put an unknown key into the pointer unescaped: "/a/b~c" points elsewhere.
def test_pointer_escapes_slash_and_tilde(client: TestClient) -> None:
    response = client.post("/v1/score", json={**VALID_HAND, "a/b~c": 1})
    assert response.json()["pointer"] == "/a~1b~0c"
