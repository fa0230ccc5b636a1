"""The pixel-art source reads XPM files as their games draw them."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from datasets.faces.pixel import FILES, read_xpm

XPM = """/* XPM */
static char *tile[] = {
/* width height ncolors chars_per_pixel */
"3 2 3 1",
"  c #000000",
".\tc #0000BBBB0000",
"X c None",
/* pixels */
" .X",
"X. ",
};
"""


def test_xpm_colours_of_two_and_four_hex_digits_and_none(tmp_path: Path) -> None:
    path = tmp_path / "tile.xpm"
    path.write_text(XPM, encoding="latin-1")
    image = read_xpm(path)
    assert image.shape == (2, 3, 3) and image.dtype == np.uint8
    assert image[0].tolist() == [[0, 0, 0], [0, 187, 0], [255, 255, 255]]
    assert image[1].tolist() == [[255, 255, 255], [0, 187, 0], [0, 0, 0]]


def test_every_face_has_one_file_and_only_the_public_domain_flowers_come_from_mah_jong() -> None:
    assert len(FILES) == 42
    from_mah_jong = {code for code, rel in FILES.items() if "mah-jong" in rel}
    assert from_mah_jong == {f"{n}h" for n in range(1, 9)}
