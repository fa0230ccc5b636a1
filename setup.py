"""Builds the compiled core of the scorer (scoring/compiled.py says what and why) at install.

Everything else about the package is in pyproject.toml. The core is optional: without mypyc
or a C compiler, or with MJLENS_PURE_PYTHON=1, the install goes on with the pure-Python
modules, which give the same answers more slowly.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def _compiled_module():  # type: ignore[no-untyped-def]
    """scoring/compiled.py, loaded by path: the package itself cannot be imported yet."""
    spec = importlib.util.spec_from_file_location("_mjlens_compiled", ROOT / "scoring/compiled.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


COMPILED = _compiled_module()
# Stands in for the mypyc extensions until build_ext runs, so that egg_info and sdist do not
# run mypyc and the wheel is still tagged for this platform.
PLACEHOLDER = Extension("scoring._compiled.placeholder", sources=[])


class BuildCompiledCore(build_ext):
    """mypyc's extensions, placed in scoring/_compiled/ with a manifest of source hashes;
    any failure leaves a pure-Python install and says why."""

    def finalize_options(self) -> None:
        # Here, not at import: only a build runs mypyc (its type check alone takes a while).
        # The manifest hashes the sources as mypyc reads them; run() checks they held still.
        self.manifest = COMPILED.manifest_for(ROOT / "scoring")
        self.distribution.ext_modules = self._mypyc_extensions()
        if COMPILED.manifest_for(ROOT / "scoring") != self.manifest:
            _not_built(RuntimeError("the sources changed while mypyc read them"))
            self.distribution.ext_modules = []
        super().finalize_options()

    def run(self) -> None:
        out_dir = Path(self.build_lib) / "scoring" / "_compiled"
        shutil.rmtree(out_dir, ignore_errors=True)
        in_tree = self.inplace or getattr(self, "editable_mode", False)
        if in_tree:  # an editable install: an old build must not outlive this one
            shutil.rmtree(COMPILED.BUILD_DIR, ignore_errors=True)
            COMPILED.BUILD_DIR.mkdir(parents=True)
        if not self.extensions:
            shutil.rmtree(COMPILED.BUILD_DIR, ignore_errors=True)
            return
        try:
            super().run()
        except Exception as exc:  # no C compiler, or it failed: stay pure Python
            _not_built(exc)
            shutil.rmtree(out_dir, ignore_errors=True)
            shutil.rmtree(COMPILED.BUILD_DIR, ignore_errors=True)
            return
        manifest = json.dumps(self.manifest, indent=1)
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / COMPILED.MANIFEST).write_text(manifest, encoding="utf-8")
        if in_tree:  # setuptools copied the extensions beside the sources; the manifest too
            COMPILED.BUILD_DIR.mkdir(parents=True, exist_ok=True)
            (COMPILED.BUILD_DIR / COMPILED.MANIFEST).write_text(manifest, encoding="utf-8")

    def _mypyc_extensions(self) -> list[Extension]:
        """The extensions mypyc generates for COMPILED.MODULES, or none (and why) when it is
        switched off, missing or refuses the sources."""
        if COMPILED.switched_off():
            print(f"{COMPILED.OFF_SWITCH} is set: the scorer stays pure Python")
            return []
        try:
            from mypyc.build import mypycify

            extensions = mypycify(
                [f"scoring/{m}.py" for m in COMPILED.MODULES],
                opt_level="3",
                debug_level="0",
                group_name=COMPILED.GROUP,
                target_dir=str(Path(self.build_temp or "build") / "mypyc"),
            )
        except (Exception, SystemExit) as exc:  # mypyc exits on a type error
            _not_built(exc)
            return []
        for ext in extensions:  # scoring.mcr -> scoring/_compiled/mcr.*.so, never beside mcr.py
            ext.name = "scoring._compiled." + ext.name.rsplit(".", 1)[-1]
        return list(extensions)

    def get_outputs(self) -> list[str]:
        outputs = list(super().get_outputs())
        manifest = Path(self.build_lib) / "scoring" / "_compiled" / COMPILED.MANIFEST
        if manifest.is_file():
            outputs.append(str(manifest))
        return outputs


def _not_built(exc: BaseException) -> None:
    print(
        f"warning: the scorer's compiled core was not built ({type(exc).__name__}: {exc}); "
        "the pure-Python scorer is installed instead",
        file=sys.stderr,
    )


setup(ext_modules=[PLACEHOLDER], cmdclass={"build_ext": BuildCompiledCore})
