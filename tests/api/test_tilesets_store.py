"""The set store: one file per set, written whole, changes under a lock."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from api.tilesets import SetNotFound, SetStore, default_home
from vision.tileset import CROP_H, CROP_W, TileSet, TileSetError


def _add(code: str, origin: str) -> Callable[[TileSet], TileSet]:
    def change(tileset: TileSet) -> TileSet:
        e = np.random.default_rng(len(tileset)).random((1, 8)).astype(np.float32)
        crops = np.zeros((1, CROP_H, CROP_W, 3), np.uint8)
        return tileset.with_looks([code], e, crops, [origin], "m")

    return change


def test_home_is_mjlens_home_when_set(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MJLENS_HOME", str(tmp_path))
    assert default_home() == tmp_path
    monkeypatch.delenv("MJLENS_HOME")
    assert default_home().name == "mjlens"


def test_teaching_from_two_threads_keeps_every_look(tmp_path: Path) -> None:
    store = SetStore(tmp_path)
    codes = ["1m", "2m", "3m", "4m"]

    def teach(code: str) -> None:
        for k in range(6):
            store.update("club", _add(code, f"{code}#{k}"))

    threads = [threading.Thread(target=teach, args=(c,)) for c in codes]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert store.load("club").counts() == {c: 6 for c in codes}
    assert sorted(p.name for p in (tmp_path / "sets").iterdir()) == [".club.lock", "club.mjset"]


def test_a_reader_never_sees_half_a_set(tmp_path: Path) -> None:
    store = SetStore(tmp_path)
    store.update("club", _add("1m", "first"))
    done = threading.Event()
    seen: list[int] = []

    def read() -> None:
        while not done.is_set():
            seen.append(len(store.load("club")))  # raises on a half-written file

    reader = threading.Thread(target=read)
    reader.start()
    for k in range(20):
        store.update("club", _add("2m", str(k)))
    done.set()
    reader.join()
    assert seen and seen == sorted(seen)


def test_unknown_sets_and_foreign_files(tmp_path: Path) -> None:
    store = SetStore(tmp_path)
    with pytest.raises(SetNotFound):
        store.load("nobody")
    with pytest.raises(SetNotFound):
        store.remove("nobody")
    with pytest.raises(TileSetError, match="not a tile set file"):
        store.import_file(b"\x89PNG\r\n")
    with pytest.raises(TileSetError, match="bad set name"):
        store.path("../../etc/passwd")


def test_an_imported_set_takes_the_name_it_is_given(tmp_path: Path) -> None:
    store = SetStore(tmp_path)
    data = _add("E", "x")(TileSet("theirs")).to_bytes()
    assert store.import_file(data).name == "theirs"
    assert store.import_file(data, name="ours").name == "ours"
    assert store.names() == ["ours", "theirs"]
    with pytest.raises(TileSetError, match="exists"):
        store.import_file(data)


def test_a_set_written_before_its_looks_readings_were_kept_is_read_again_once(
    tmp_path: Path,
) -> None:
    """Opened for reading, a set whose file holds no record of how the classifier read its
    looks is read again from its crops and kept so: the next opening reads nothing."""
    from typing import cast

    from api.teach import open_set
    from tests.api.fakes import ReplayClassifier
    from vision.classify import Classifier

    class Reader(ReplayClassifier):  # the classifier that embedded the set, counting reads
        digest, calls = "m", 0

        def read_crops(self, crops: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
            self.calls += 1
            return super().read_crops(crops)

    store = SetStore(tmp_path)
    store.update("home", _add("1s", "a.jpg"))  # its looks' readings not given: not known
    assert np.isnan(store.load("home").own).all()
    reader = Reader()
    opened = open_set(store, "home", cast(Classifier, reader))
    assert reader.calls == 1 and np.isfinite(opened.own).all()
    assert np.isfinite(store.load("home").own).all()
    open_set(store, "home", cast(Classifier, reader))
    assert reader.calls == 1
