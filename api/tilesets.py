"""Where taught tile sets live: one file per set, `$MJLENS_HOME/sets/NAME.mjset`.

`MJLENS_HOME` defaults to the platform's user data folder (platformdirs: ~/.local/share/mjlens
on Linux, ~/Library/Application Support/mjlens on macOS, %LOCALAPPDATA%\\mjlens on Windows).
A set file is what `mjlens sets export` writes and `import` reads: a person can copy it.

Every write goes to a temporary file in the same folder and is renamed over the old one, so a
reader sees the old set or the new one, never half of one; a change (read, add, write) holds
the set's lock file, so two teachers at once both keep their looks.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from vision.tileset import TileSet, TileSetError, check_name

SUFFIX = ".mjset"
MAX_SET_BYTES = 32 * 1024 * 1024  # a full set (24 looks of 43 faces) is under 10 MB
MAX_SETS = 200


def default_home() -> Path:
    """`$MJLENS_HOME`, else the platform's user data folder for mjlens."""
    home = os.environ.get("MJLENS_HOME")
    if home:
        return Path(home).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("mjlens", appauthor=False))


class SetNotFound(TileSetError):
    """No set of that name."""


class SetStore:
    """The sets under one home folder."""

    def __init__(self, home: Path | None = None) -> None:
        self.root = (home if home is not None else default_home()) / "sets"

    def path(self, name: str) -> Path:
        return self.root / f"{check_name(name)}{SUFFIX}"

    def names(self) -> list[str]:
        if not self.root.is_dir():
            return []
        return sorted(p.stem for p in self.root.glob(f"*{SUFFIX}") if p.is_file())

    def exists(self, name: str) -> bool:
        return self.path(name).is_file()

    def load(self, name: str) -> TileSet:
        """The set called `name`; SetNotFound, or TileSetError for a damaged file."""
        path = self.path(name)
        try:
            data = path.read_bytes()
        except FileNotFoundError as exc:
            raise SetNotFound(f"no tile set named {name!r}") from exc
        if len(data) > MAX_SET_BYTES:
            raise TileSetError(f"tile set {name!r} is larger than {MAX_SET_BYTES} bytes")
        tileset = TileSet.from_bytes(data)
        return tileset if tileset.name == name else tileset.renamed(name)

    def save(self, tileset: TileSet) -> Path:
        """Write the set atomically (module docstring)."""
        path = self.path(tileset.name)
        if not path.exists() and len(self.names()) >= MAX_SETS:
            raise TileSetError(f"already {MAX_SETS} tile sets: remove one first")
        self.root.mkdir(parents=True, exist_ok=True)
        _write_atomically(path, tileset.to_bytes())
        return path

    def update(self, name: str, change: Callable[[TileSet], TileSet]) -> TileSet:
        """Load the set (a new, empty one if there is none), apply `change`, save it; under
        the set's lock, so concurrent changes each see the other's."""
        with self._locked(name):
            before = self.load(name) if self.exists(name) else TileSet(name)
            after = change(before)
            self.save(after)
            return after

    def remove(self, name: str) -> None:
        path = self.path(name)
        with self._locked(name):
            try:
                path.unlink()
            except FileNotFoundError as exc:
                raise SetNotFound(f"no tile set named {name!r}") from exc

    def export(self, name: str, out: Path) -> None:
        """Copy the set's file to `out` (checked first: a damaged set is not passed on)."""
        self.load(name)
        _write_atomically(out, self.path(name).read_bytes())

    def import_file(self, data: bytes, name: str | None = None, replace: bool = False) -> TileSet:
        """A set file's content stored under its own name (or `name`); an existing set of
        that name is kept unless `replace`."""
        if len(data) > MAX_SET_BYTES:
            raise TileSetError(f"a tile set file is at most {MAX_SET_BYTES} bytes")
        tileset = TileSet.from_bytes(data)
        if name is not None:
            tileset = tileset.renamed(check_name(name))
        with self._locked(tileset.name):
            if self.exists(tileset.name) and not replace:
                raise TileSetError(
                    f"a tile set named {tileset.name!r} exists: remove it or import under "
                    "another name"
                )
            self.save(tileset)
        return tileset

    @contextlib.contextmanager
    def _locked(self, name: str) -> Iterator[None]:
        """An exclusive lock on the set's lock file (where the system has fcntl)."""
        self.root.mkdir(parents=True, exist_ok=True)
        lock = self.root / f".{check_name(name)}.lock"
        with lock.open("a") as handle:
            try:
                import fcntl
            except ImportError:  # Windows: the atomic rename still keeps each file whole
                yield
                return
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)


def _write_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
