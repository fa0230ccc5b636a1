"""What to run when a part of mjlens is not installed: the exact command, for this Python.

A missing package is a missing optional extra (pyproject.toml); the message names the extra
and the pip command of the interpreter that is running, so it installs where it is needed
(the project's .venv when `make` made it, another environment otherwise).
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]

# top-level module -> the extra that brings it (pyproject.toml [project.optional-dependencies])
EXTRA_OF_MODULE: dict[str, str] = {
    "fastapi": "api",
    "uvicorn": "api",
    "multipart": "api",
    "python_multipart": "api",
    "starlette": "api",
    "torch": "train",
    "onnx": "train",
    "PIL": "train",
    "tqdm": "train",
    "fontTools": "train",
    "pytest": "dev",
    "hypothesis": "dev",
    "httpx": "dev",
    "selenium": "dev",
    "pycocotools": "dev",
    "ray": "ray",
}


# import name -> the package pip installs it from, where the two differ
PACKAGE_OF_MODULE: dict[str, str] = {
    "PIL": "pillow",
    "fontTools": "fonttools",
    "multipart": "python-multipart",
    "python_multipart": "python-multipart",
}


def package(module: str) -> str:
    return PACKAGE_OF_MODULE.get(module, module)


def in_checkout() -> bool:
    """mjlens runs from its source checkout (an editable install), not an installed wheel."""
    return (REPO_ROOT / "pyproject.toml").is_file()


def install_command(extra: str) -> str:
    """The pip command that adds `extra` to the environment running now."""
    python = shlex.quote(sys.executable)
    if in_checkout():
        return f"{python} -m pip install -e {shlex.quote(f'{REPO_ROOT}[{extra}]')}"
    return f"{python} -m pip install {shlex.quote(f'mjlens[{extra}]')}"


def missing_extra(extra: str, modules: list[str], needed_for: str) -> str:
    """One line: what is missing, for what, and the command that installs it."""
    names = ", ".join(map(package, modules))
    return (
        f"{needed_for} needs {names} (the {extra} extra), not installed in this Python: "
        f"run `{install_command(extra)}`"
    )


def missing_module(exc: ModuleNotFoundError, needed_for: str) -> str | None:
    """The message for an import that failed on an extra's package; None for any other."""
    top = (exc.name or "").split(".")[0]
    extra = EXTRA_OF_MODULE.get(top)
    if extra is None:
        return None
    return missing_extra(extra, [top], needed_for)


def in_project_venv() -> bool:
    """This Python is the checkout's own .venv, the one `make` installs into."""
    return in_checkout() and Path(sys.prefix).resolve() == (REPO_ROOT / ".venv").resolve()


def synth_setup(exc: ModuleNotFoundError) -> str:
    """What `mjlens synth` needs when its face sources cannot be imported, and how to get it."""
    top = (exc.name or "").split(".")[0]
    extra = EXTRA_OF_MODULE.get(top)
    if extra is None:
        return (
            f"mjlens synth needs {top or 'a module'} (not installed): the synthetic engine "
            "runs from a checkout of mjlens, after `make art` there"
        )
    if in_project_venv():  # `make art` installs every extra into this very .venv first
        return (
            f"mjlens synth needs {package(top)} (the {extra} extra) and the tile art: run "
            f"{fetch_art_command()}, which installs both"
        )
    return (
        f"{missing_extra(extra, [top], 'mjlens synth')}; then run {fetch_art_command()} "
        "for the tile art"
    )


def fetch_art_command() -> str:
    """What to run to fetch the third-party tile art and fonts that the synthetic engine draws."""
    if in_checkout():
        return f"`make art` in {shlex.quote(str(REPO_ROOT))}"
    return "`make art` in a checkout of mjlens (the art goes to its .cache/art/)"


def given_model(option: str, name: str, path: str | None) -> None:
    """A model file named on the command line must be there; raises CliError saying which."""
    from api.errors import CliError

    if path is not None and not Path(path).is_file():
        raise CliError(
            f"{name} model not found at {path}: give {option} the path of an .onnx model,"
            " or leave it out for the shipped one"
        )


def missing_models(needed: tuple[str, ...] | None = None) -> str:
    """One line for shipped model files that are not on disk (of `needed`, by registry name;
    default every required one): which, and how to get them back."""
    from vision.registry import MODELS, located

    gone = [
        model
        for model in MODELS
        if (model.name in needed if needed else model.required)
        and not located(model.name).is_file()
    ]
    if not gone:
        return "a model file is missing"
    names = ", ".join(model.file for model in gone)
    if in_checkout() and all(model.path.is_relative_to(REPO_ROOT) for model in gone):
        files = " ".join(str(model.path.relative_to(REPO_ROOT)) for model in gone)
        restore = f"`git -C {shlex.quote(str(REPO_ROOT))} checkout HEAD -- {files}`"
    else:
        restore = "a reinstall of mjlens (the models are its package data)"
    trainers = sorted({model.trainer for model in gone})
    train = " or ".join(f"`mjlens train {t}`" for t in trainers)
    return f"shipped model file(s) missing: {names}: restore them with {restore}, or train: {train}"


def unknown_set(message: str) -> str:
    """A `--set NAME` that names no taught set: how to see the sets there are, or teach one."""
    return (
        f"{message}: `mjlens sets list` shows the taught sets, "
        "`mjlens sets enroll NAME PHOTO` teaches one"
    )
