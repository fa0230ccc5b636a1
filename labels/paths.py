"""Paths named inside label files, kept inside the folder they are relative to.

A label file is data from elsewhere (a labeling team's export, a COCO file off the web):
a `file_name` of `../../.ssh/id_rsa` or `/etc/passwd` must neither be read as a photo nor
be written to. Checked on the text of the path, so that a link this project made itself
(`OUT/yolo/images/...`) does not count as leaving its folder.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath, PureWindowsPath


class UnsafePath(ValueError):
    """A path in a label file that would leave its folder."""


def inside(root: Path, relative: str) -> Path:
    """`root / relative`, or UnsafePath when `relative` is absolute, empty or climbs out."""
    posix = PurePosixPath(relative.replace("\\", "/"))
    if (
        not relative.strip()
        or posix.is_absolute()
        or PureWindowsPath(relative).drive
        or any(part in ("..", "") for part in posix.parts)
        or posix.parts in ((), (".",))
    ):
        raise UnsafePath(f"{relative!r} is not a path inside {root}")
    return root.joinpath(*posix.parts)
