"""The compiled core: the MCR hot path built to C by mypyc at install, used only while current.

`setup.py` compiles the modules of `MODULES` into `scoring/_compiled/` (never beside their
sources, where Python would prefer them to the .py files) and writes a manifest with the
SHA-256 of every source they were built from: the modules themselves and every module of
`scoring` they import. `use_compiled()`, called first thing by `scoring/__init__.py`, loads
them from there only when every hash still matches and the interpreter is the one they were
built for; otherwise the pure-Python modules run, which are the reference the compiled ones
must agree with. A checkout where someone edits `scoring/mcr.py` therefore runs the edited
Python until the next `pip install -e .`, never a stale build.

Set MJLENS_PURE_PYTHON=1 to skip the compiled core at run time, or at install to skip
building it. This module is standard-library only and never compiled: setup.py loads it by
path, before the package can be imported.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import json
import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import ModuleType

try:  # the interpreter's own SHA-256: hashlib would load OpenSSL at every start
    from _sha2 import sha256 as _sha256  # Python 3.12 and later
except ImportError:
    try:
        from _sha256 import sha256 as _sha256
    except ImportError:
        from hashlib import sha256 as _sha256

PACKAGE = "scoring"
HERE = Path(__file__).resolve().parent
BUILD_DIR = HERE / "_compiled"  # where setup.py puts the extension modules and the manifest
MANIFEST = "manifest.json"
GROUP = "mjlens_scoring"  # mypyc's shared library is `GROUP + "__mypyc"`
OFF_SWITCH = "MJLENS_PURE_PYTHON"
# The path of a Hand JSON through MCR scoring, in import order: tiles and fans as numbers,
# the checks of Hand JSON, decomposition, fan evaluation, the reading, its text, the Score
# and its JSON text. hand.py stays Python: other code copies its classes with
# dataclasses.replace and builds them in ways a compiled class need not allow.
MODULES: tuple[str, ...] = (
    "tiles",
    "tile_index",
    "fan_ids",
    "fan_table",
    "profiles",
    "table",
    "rulesets",
    "parse",
    "shapes",
    "tally",
    "patterns",
    "combos",
    "traits",
    "deal",
    "plain",
    "mcr",
    "special",
    "reading",
    "explain",
    "score",
    "json_text",
    "win_text",
)

# Why the compiled core is not in use (None while it is); set by use_compiled().
reason: str | None = "not looked for yet"


def switched_off() -> bool:
    return os.environ.get(OFF_SWITCH, "").strip() not in ("", "0")


def source_path(module: str, root: Path = HERE) -> Path:
    return root.joinpath(*module.split(".")).with_suffix(".py")


def imported_modules(source: str) -> set[str]:
    """The modules of this package a source imports (relative or by `scoring.` name), at any
    depth of the file, TYPE_CHECKING blocks included: mypyc reads their types."""
    import ast  # only a build asks: kept out of every start of the scorer

    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1:
                base = node.module or ""
            elif node.level == 0 and node.module and node.module.startswith(PACKAGE + "."):
                base = node.module[len(PACKAGE) + 1 :]
            else:
                continue
            if base:
                found.add(base)
            else:  # `from . import x`
                found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(PACKAGE + "."):
                    found.add(alias.name[len(PACKAGE) + 1 :])
    return found


def sources_of(modules: Iterable[str], root: Path = HERE) -> list[str]:
    """The compiled modules and every module of the package they import, transitively: the
    sources whose change makes a build stale."""
    todo, seen = list(modules), set()
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        path = source_path(module, root)
        if not path.is_file():  # a subpackage (`other`) or a name inside a module
            continue
        seen.add(module)
        todo.extend(imported_modules(path.read_text(encoding="utf-8")))
    return sorted(seen)


def digest(path: Path) -> str:
    return str(_sha256(path.read_bytes()).hexdigest())


def manifest_for(root: Path = HERE) -> dict[str, object]:
    """What a build records: the interpreter it is for, the hash of each source, and each
    source's size and modification time beside its hash."""
    sources = {m: digest(source_path(m, root)) for m in sources_of(MODULES, root)}
    return {
        "cache_tag": sys.implementation.cache_tag,
        "modules": list(MODULES),
        "library": GROUP + "__mypyc",
        "sources": sources,
        "stats": {m: [*_stat(source_path(m, root)), sources[m]] for m in sources},
    }


def _stat(path: Path) -> list[int]:
    found = path.stat()
    return [found.st_size, found.st_mtime_ns]


def stale_reason(build_dir: Path = BUILD_DIR, root: Path = HERE) -> str | None:
    """Why the build in `build_dir` must not be used, or None when it is current."""
    try:
        manifest = json.loads((build_dir / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return "not built (no manifest)"
    if manifest.get("cache_tag") != sys.implementation.cache_tag:
        return f"built for {manifest.get('cache_tag')}, running {sys.implementation.cache_tag}"
    if manifest.get("modules") != list(MODULES):
        return "built for another list of modules"
    sources = manifest.get("sources")
    if not isinstance(sources, dict):
        return "manifest without source hashes"
    stats = manifest.get("stats")
    if not isinstance(stats, dict):
        stats = {}
    base = str(root)
    for module, want in sources.items():
        # A file whose size and modification time (to the nanosecond) are those it had when
        # its hash was taken is that file, as the interpreter's own .pyc check assumes; any
        # other is hashed again. (os.stat on a string path: this runs at every start.)
        try:
            found = os.stat(os.path.join(base, *module.split(".")) + ".py")
            if stats.get(module) != [found.st_size, found.st_mtime_ns, want] and (
                digest(source_path(module, root)) != want
            ):
                return f"{PACKAGE}/{module}.py changed since the build"
        except OSError:
            return f"{PACKAGE}/{module}.py changed since the build"
    names = _listing(build_dir)
    for name in (*MODULES, str(manifest.get("library"))):
        if _extension(build_dir, name.rsplit(".", 1)[-1], names) is None:
            return f"{name} missing from {build_dir}"
    return None


def _listing(build_dir: Path) -> frozenset[str]:
    """The names of the files in the build folder, read once (none if it cannot be read)."""
    try:
        return frozenset(os.listdir(build_dir))
    except OSError:
        return frozenset()


def _extension(build_dir: Path, stem: str, names: frozenset[str] | None = None) -> Path | None:
    """The extension module `stem` in the build folder (`names`: its listing, if read)."""
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        if names is not None:  # the folder's listing: no stat for each name
            if f"{stem}{suffix}" in names:
                return build_dir / f"{stem}{suffix}"
            continue
        path = build_dir / f"{stem}{suffix}"
        if path.is_file():
            return path
    return None


class _Finder:
    """Finds the compiled modules (and mypyc's shared library) in the build folder under
    their own names, so `import scoring.mcr` gets the extension instead of mcr.py."""

    def __init__(self, paths: dict[str, Path]) -> None:
        self.paths = paths

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        found = self.paths.get(fullname)
        if found is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(found))
        return importlib.machinery.ModuleSpec(fullname, loader, origin=str(found))


def use_compiled(build_dir: Path = BUILD_DIR) -> bool:
    """Route the imports of MODULES to the compiled build when it is current; say whether."""
    global reason
    if any(isinstance(f, _Finder) for f in sys.meta_path):
        reason = None
        return True
    if switched_off():
        reason = f"{OFF_SWITCH} is set"
        return False
    reason = stale_reason(build_dir)
    if reason is not None:
        return False
    library = GROUP + "__mypyc"
    names = _listing(build_dir)
    paths = {f"{PACKAGE}.{m}": _extension(build_dir, m, names) for m in MODULES}
    paths[library] = _extension(build_dir, library, names)
    finder = _Finder({k: v for k, v in paths.items() if v is not None})
    sys.meta_path.insert(0, finder)
    try:  # all or nothing: a library the loader refuses leaves every module in Python
        importlib.import_module(library)
    except (ImportError, OSError) as exc:
        sys.meta_path.remove(finder)
        reason = f"the build does not load: {exc}"
        return False
    return True


def in_use() -> bool:
    """Whether the compiled core answers (its modules are extension modules)."""
    module = sys.modules.get(f"{PACKAGE}.mcr")  # imported with the package
    spec = getattr(module, "__spec__", None)
    return spec is not None and isinstance(spec.loader, importlib.machinery.ExtensionFileLoader)


if __name__ == f"{PACKAGE}.compiled":  # imported with the package, not loaded by setup.py
    use_compiled()
