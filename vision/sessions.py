"""ONNX sessions on the model files, and a machine-local cache of what opening them costs.

onnxruntime's full graph optimization halves the classifier's run time but costs tens of
milliseconds each time a process opens the models, and a recognition names every file it
used by its SHA-256, another 27 MB hashed on every start. Both answers depend only on the
file, so the first process keeps them in a cache folder and later ones read them back:
`open_session` opens the optimized graph as it was saved (optimization off), `digest`
reads the stored hash. Every model opens through `open_session`.

The folder is `$MJLENS_CACHE`, else the platform's user cache folder (platformdirs:
~/.cache/mjlens on Linux); `MJLENS_CACHE=` (empty) turns the cache off. An entry is keyed
by the file's path, size and modification time, so a file replaced is prepared again; a
graph's key adds the onnxruntime version and the CPU's instruction sets, because the
optimized graph holds layouts for this CPU's vector width (onnxruntime warns it is only for
the machine that wrote it). Entries are written to a temporary name and renamed, so
processes starting together never read half a file; one that fails to open is removed and
the model opened from its file. A few entries a model are kept, the newest.
"""

from __future__ import annotations

import hashlib
import os
import platform
import tempfile
import weakref
from functools import cache
from pathlib import Path
from typing import Any

CACHE_ENV = "MJLENS_CACHE"
KEPT_PER_MODEL = 4  # entries of one model file kept: a few versions side by side
_SOURCES: weakref.WeakKeyDictionary[Any, Path] = weakref.WeakKeyDictionary()


def folder() -> Path | None:
    """Where entries live, or None where the cache is turned off."""
    value = os.environ.get(CACHE_ENV)
    if value is not None:
        return Path(value).expanduser() if value.strip() else None
    import platformdirs

    return Path(platformdirs.user_cache_dir("mjlens", appauthor=False)) / "models"


def digest(path: str | Path) -> str:
    """The file's SHA-256 (64 hex digits), read from the cache where a process stored it."""
    path = Path(path)
    return _digest(str(path.resolve()), *_identity(path))


@cache
def _digest(resolved: str, size: int, mtime_ns: int) -> str:
    base = folder()
    entry = _entry(base, Path(resolved), _key(resolved, size, mtime_ns)) if base else None
    if entry is not None:
        try:
            stored = entry.with_suffix(".sha256").read_text(encoding="ascii").strip()
        except OSError:
            stored = ""
        if len(stored) == 64 and all(c in "0123456789abcdef" for c in stored):
            return stored
    value = hashlib.sha256(Path(resolved).read_bytes()).hexdigest()
    if entry is not None:
        _store(entry.with_suffix(".sha256"), lambda tmp: tmp.write_text(value, encoding="ascii"))
    return value


def session_options(threads: int | None = None) -> Any:
    """One onnxruntime session per model, a few intra-op threads (the models are small)."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads or min(4, os.cpu_count() or 1)
    options.inter_op_num_threads = 1
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    # Spinning threads burn a shared CPU between the many small calls of one photo.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    # No memory arena: a process reading one photo pays for growing it (20 ms of a
    # `mjlens recognize` process, measured), and reads photo after photo no faster with it.
    options.enable_cpu_mem_arena = False
    return options


def source_of(session: Any) -> Path:
    """The model file a session of `open_session` was opened for (a cached graph's session
    reads another file); the session's own file for any other session."""
    return _SOURCES.get(session) or Path(getattr(session, "_model_path", "") or "model")


def open_session(path: str | Path, threads: int | None = None) -> Any:
    """One CPU onnxruntime session on `path` (`session_options`), opened from the cached
    optimized graph where there is one, else from the file, storing its optimized graph."""
    session = _open(Path(path), threads)
    _SOURCES[session] = Path(path)
    return session


def _open(path: Path, threads: int | None) -> Any:
    import onnxruntime as ort

    base = folder()
    if base is None:
        return _session(path, session_options(threads))
    key = _key(str(path.resolve()), *_identity(path), ort.__version__, _instruction_sets())
    graph = _entry(base, path, key).with_suffix(".onnx")
    if graph.is_file():
        prepared = session_options(threads)
        prepared.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
        try:
            return _session(graph, prepared)
        except Exception:  # a damaged entry: onnxruntime raises several kinds
            graph.unlink(missing_ok=True)
    opened: list[Any] = []

    def write(tmp: Path) -> None:
        saving = session_options(threads)
        saving.optimized_model_filepath = str(tmp)
        saving.log_severity_level = 3  # not its warning that the graph suits this CPU only
        opened.append(_session(path, saving))
        if tmp.stat().st_size == 0:
            raise OSError("onnxruntime wrote no optimized graph")

    _store(graph, write)
    return opened[0] if opened else _session(path, session_options(threads))


def _session(path: Path, options: Any) -> Any:
    import onnxruntime as ort

    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def _identity(path: Path) -> tuple[int, int]:
    stat = path.stat()
    return stat.st_size, stat.st_mtime_ns


def _key(*parts: object) -> str:
    return hashlib.sha256("|".join(str(p) for p in parts).encode()).hexdigest()[:24]


def _entry(base: Path, path: Path, key: str) -> Path:
    """The entry's path without its suffix: a folder per model file name."""
    return base / path.stem / key


@cache
def _instruction_sets() -> str:
    """What names this CPU's vector units: its flags on Linux, else the processor string."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as info:
            for line in info:
                if line.startswith(("flags", "Features")):
                    return hashlib.sha256(line.encode()).hexdigest()[:16]
    except OSError:
        pass
    return f"{platform.machine()} {platform.processor()}"


def _store(target: Path, write: Any) -> bool:
    """`write(tmp)` to a temporary file beside `target`, then renamed onto it; older
    entries of the same model pruned. False where the folder cannot be written."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(dir=target.parent, prefix=".", suffix=target.suffix)
        os.close(handle)
    except OSError:
        return False
    tmp = Path(name)
    try:
        write(tmp)
        os.replace(tmp, target)
    except Exception:  # a full disk, a read-only folder, a graph onnxruntime cannot save
        tmp.unlink(missing_ok=True)
        return False
    _prune(target.parent)
    return True


def _prune(model_folder: Path) -> None:
    """Keep the KEPT_PER_MODEL newest entries of each kind (graph, digest) of one model."""
    try:
        files = [f for f in model_folder.iterdir() if not f.name.startswith(".")]
        for suffix in {f.suffix for f in files}:
            same = sorted(
                (f for f in files if f.suffix == suffix),
                key=lambda f: f.stat().st_mtime,
                reverse=True,
            )
            for f in same[KEPT_PER_MODEL:]:
                f.unlink(missing_ok=True)
    except OSError:
        pass
