"""Model sessions opened through the cache read exactly as sessions opened from the file."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import numpy as np
import pytest

from vision import sessions
from vision.registry import shipped

LOOK = shipped("sideways_look").path  # the smallest network shipped
TILENESS = shipped("tileness").path


def _inputs(session: object, seed: int = 0) -> dict[str, np.ndarray]:
    feeds = {}
    for i in session.get_inputs():  # type: ignore[attr-defined]
        shape = [d if isinstance(d, int) else 2 for d in i.shape]
        feeds[i.name] = np.random.default_rng(seed).random(shape, dtype=np.float32)
    return feeds


def _read(session: object) -> list[np.ndarray]:
    return session.run(None, _inputs(session))  # type: ignore[attr-defined,no-any-return]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(sessions.CACHE_ENV, str(folder))
    return folder


def test_the_cached_graph_reads_as_the_file_does_and_is_opened_next_time(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = Path(shutil.copy(TILENESS, cache.parent / "tileness.onnx"))
    opened: list[Path] = []
    session = sessions._session
    monkeypatch.setattr(sessions, "_session", lambda p, o: opened.append(p) or session(p, o))
    first = sessions.open_session(model, threads=1)
    graphs = list(cache.glob("tileness/*.onnx"))
    assert len(graphs) == 1
    second = sessions.open_session(model, threads=1)
    assert opened == [model, graphs[0]]
    assert sessions.source_of(first) == sessions.source_of(second) == model
    monkeypatch.setenv(sessions.CACHE_ENV, "")
    uncached = sessions.open_session(model, threads=1)
    for a, b, c in zip(_read(first), _read(second), _read(uncached), strict=True):
        np.testing.assert_array_equal(a, c)
        np.testing.assert_array_equal(b, c)
    graphs[0].write_bytes(b"not a graph")
    damaged = sessions.open_session(model, threads=1)  # the cache is off here: the file opens
    monkeypatch.setenv(sessions.CACHE_ENV, str(cache))
    rebuilt = sessions.open_session(model, threads=1)  # a damaged entry is replaced
    for a, b in zip(_read(damaged), _read(rebuilt), strict=True):
        np.testing.assert_array_equal(a, b)
    assert graphs[0].read_bytes()[:11] != b"not a graph"


def test_a_file_replaced_is_prepared_again_and_its_digest_follows(cache: Path) -> None:
    model = cache.parent / "model.onnx"
    shutil.copy(LOOK, model)
    assert sessions.digest(model) == hashlib.sha256(LOOK.read_bytes()).hexdigest()
    sessions.open_session(model, threads=1)
    shutil.copy(TILENESS, model)
    assert sessions.digest(model) == hashlib.sha256(TILENESS.read_bytes()).hexdigest()
    replaced = sessions.open_session(model, threads=1)
    fresh = sessions._session(TILENESS, sessions.session_options(1))
    assert [(i.name, i.shape) for i in replaced.get_inputs()] == [
        (i.name, i.shape) for i in fresh.get_inputs()
    ]
    assert len(list(cache.glob("model/*.onnx"))) == 2
    assert len(list(cache.glob("model/*.sha256"))) == 2


def test_a_stored_digest_is_read_back_and_a_garbled_one_is_computed_again(cache: Path) -> None:
    model = Path(shutil.copy(LOOK, cache.parent / "look.onnx"))
    true = hashlib.sha256(LOOK.read_bytes()).hexdigest()
    assert sessions.digest(model) == true
    (stored,) = cache.glob("look/*.sha256")
    assert stored.read_text(encoding="ascii") == true
    sessions._digest.cache_clear()
    stored.write_text("f" * 64, encoding="ascii")
    assert sessions.digest(model) == "f" * 64  # what the cache holds is what is read
    sessions._digest.cache_clear()
    stored.write_text("garbled", encoding="ascii")
    assert sessions.digest(model) == true
    sessions._digest.cache_clear()


def test_with_the_cache_off_or_unwritable_models_still_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    model = Path(shutil.copy(LOOK, tmp_path / "look.onnx"))
    monkeypatch.setenv(sessions.CACHE_ENV, "")
    assert sessions.folder() is None
    assert _read(sessions.open_session(model, threads=1))
    blocked = tmp_path / "a file, not a folder"
    blocked.write_text("x", encoding="utf-8")
    monkeypatch.setenv(sessions.CACHE_ENV, str(blocked))
    assert _read(sessions.open_session(model, threads=1))
    sessions._digest.cache_clear()
    assert sessions.digest(model) == hashlib.sha256(LOOK.read_bytes()).hexdigest()


def test_only_the_newest_entries_of_a_model_are_kept(cache: Path) -> None:
    model = cache.parent / "look.onnx"
    for k in range(sessions.KEPT_PER_MODEL + 2):
        model.write_bytes(LOOK.read_bytes() + b"\0" * k)  # another file each time
        sessions.digest(model)
    assert len(list(cache.glob("look/*.sha256"))) == sessions.KEPT_PER_MODEL
