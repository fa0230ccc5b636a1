"""A taught set as one picture, laid out as its enrollment photo is: a row per row of the
standard order (the back last), each face's newest looks side by side under its code and
count; a face never shown is an empty frame."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from scoring.tiles import BACK, STANDARD_ROWS
from vision.tileset import CROP_H, CROP_W, TileSet

PER_FACE = 3  # looks drawn per face, newest first; the count says how many it holds
_PAD = 6
_LABEL_H = 22
_FONT = cv2.FONT_HERSHEY_SIMPLEX


def contact_sheet(tileset: TileSet) -> npt.NDArray[np.uint8]:
    """BGR image of what `tileset` knows."""
    rows = [*STANDARD_ROWS, (BACK,)]
    cell_w = PER_FACE * (CROP_W + 2) + _PAD
    cell_h = _LABEL_H + CROP_H + _PAD
    width = _PAD + max(len(r) for r in rows) * cell_w
    height = _PAD + len(rows) * cell_h + 30
    sheet = np.full((height, width, 3), 245, np.uint8)
    for r, row in enumerate(rows):
        for k, code in enumerate(row):
            x, y = _PAD + k * cell_w, _PAD + r * cell_h
            looks = [i for i, c in enumerate(tileset.codes) if c == code][::-1]
            label = f"{code} x{len(looks)}" if looks else f"{code} -"
            cv2.putText(sheet, label, (x, y + 16), _FONT, 0.5, (20, 20, 20), 1, cv2.LINE_AA)
            top = y + _LABEL_H
            if not looks:
                cv2.rectangle(sheet, (x, top), (x + CROP_W, top + CROP_H), (180, 180, 180), 1)
            for j, i in enumerate(looks[:PER_FACE]):
                left = x + j * (CROP_W + 2)
                sheet[top : top + CROP_H, left : left + CROP_W] = tileset.crops[i]
    note = f"{tileset.name}: {len(tileset.faces)} faces, {len(tileset)} looks"
    cv2.putText(sheet, note, (_PAD, height - 10), _FONT, 0.5, (20, 20, 20), 1, cv2.LINE_AA)
    return sheet
