"""The page's files as the server serves them (no browser): every script, style and icon the
page names is there, the service worker keeps each of them for offline use, the manifest
is one Chromium can install from, and the drawn tile art stays small."""

from __future__ import annotations

import json
import re
from pathlib import Path

from fastapi.testclient import TestClient

STATIC = Path(__file__).resolve().parents[2] / "api" / "static"


def _page_files() -> set[str]:
    page = (STATIC / "index.html").read_text(encoding="utf-8")
    return set(re.findall(r'(?:src|href)="(static/[^"]+)"', page))


def _kept_by_worker() -> set[str]:
    worker = (STATIC / "sw.js").read_text(encoding="utf-8")
    shell = worker[
        worker.index("const SHELL = [") : worker.index("];", worker.index("const SHELL"))
    ]
    return set(re.findall(r'"([^"]+)"', shell))


def test_every_file_the_page_names_is_served(client: TestClient) -> None:
    assert _page_files(), "index.html names no static file"
    for name in sorted(_page_files()):
        assert client.get("/" + name).status_code == 200, name


def test_the_worker_keeps_all_the_page_needs_offline(client: TestClient) -> None:
    kept = _kept_by_worker()
    assert "./" in kept
    missing = _page_files() - kept
    assert not missing, f"sw.js SHELL lacks {sorted(missing)}: offline the page would break"
    for name in sorted(kept - {"./"}):
        assert client.get("/" + name).status_code == 200, name


def test_the_worker_is_served_from_the_root(client: TestClient) -> None:
    # Its scope is the folder it is served from: /static/sw.js could not cover the page at /.
    worker = client.get("/sw.js")
    assert worker.status_code == 200
    assert worker.headers["content-type"].startswith("text/javascript")
    assert worker.headers["cache-control"] == "no-cache"  # a new page version is seen at once
    assert client.head("/sw.js").status_code == 200


def test_the_manifest_names_its_icons_and_scope() -> None:
    manifest = json.loads((STATIC / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["start_url"] == manifest["scope"] == "../"  # the page, wherever mounted
    assert manifest["display"] == "standalone" and manifest["short_name"]
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert (STATIC / icon["src"]).is_file(), icon["src"]


def test_the_drawn_tile_art_stays_small() -> None:
    glyphs = (STATIC / "glyphs.js").stat().st_size
    faces = (STATIC / "faces.js").stat().st_size
    assert glyphs + faces < 40_000, (glyphs, faces)
