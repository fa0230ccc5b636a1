"""What the room and the phone do to a picture: uneven light, glare on glossy faces, a finger in
the frame, white balance and exposure, defocus and hand shake, sensor noise, JPEG.

Full-frame fields are computed at low resolution and upscaled: they are smooth anyway, and this
keeps a 1280 px picture well under the frame budget.
"""

from __future__ import annotations

import cv2
import numpy as np

LOW = 64  # side of the low-resolution light fields


def _upscale(field: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    return cv2.resize(field, (shape[1], shape[0]), interpolation=cv2.INTER_LINEAR)


def light_field(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    """Gain per pixel (float32, ~0.5-1.2): a lamp's falloff and the lens's vignetting."""
    h, w = shape
    lh, lw = max(2, LOW * h // max(h, w)), max(2, LOW * w // max(h, w))
    y, x = np.mgrid[0:lh, 0:lw].astype(np.float32)
    x, y = x / lw - 0.5, y / lh - 0.5
    angle = rng.uniform(0, 2 * np.pi)
    gradient = (x * np.cos(angle) + y * np.sin(angle)) * rng.uniform(0.0, 0.6)
    lamp = rng.uniform(-0.5, 0.5, 2)
    spot = np.exp(-((x - lamp[0]) ** 2 + (y - lamp[1]) ** 2) / rng.uniform(0.05, 0.5))
    gain = 1.0 - gradient + 0.25 * rng.uniform(0, 1) * spot
    vignette = 1.0 - rng.uniform(0.0, 0.5) * (x**2 + y**2) * 2
    return _upscale((gain * vignette).astype(np.float32), shape)


def glare(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    """Specular highlight strength per pixel (float32 0..1): the lamp mirrored in glossy faces."""
    h, w = shape
    lh, lw = max(2, LOW * h // max(h, w)), max(2, LOW * w // max(h, w))
    y, x = np.mgrid[0:lh, 0:lw].astype(np.float32)
    cx, cy = rng.uniform(0.1, 0.9) * lw, rng.uniform(0.1, 0.9) * lh
    rx, ry = rng.uniform(0.05, 0.3) * lw, rng.uniform(0.05, 0.3) * lh
    blob = np.exp(-(((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2))
    return _upscale(blob.astype(np.float32), shape)


def finger(rng: np.random.Generator, canvas: np.ndarray, ids: np.ndarray) -> None:
    """A fingertip entering from the frame edge: skin-coloured, shaded, blurred (out of focus)."""
    h, w = canvas.shape[:2]
    side = rng.integers(4)
    t = rng.uniform(0.1, 0.9)
    base = {0: (t * w, 0), 1: (w, t * h), 2: (t * w, h), 3: (0, t * h)}[int(side)]
    inward = {0: 90, 1: 180, 2: 270, 3: 0}[int(side)] + rng.uniform(-35, 35)
    length = rng.uniform(0.12, 0.35) * max(h, w)
    width = rng.uniform(0.06, 0.1) * max(h, w)
    a = np.radians(inward)
    tip = np.array(base) + length * np.array([np.cos(a), np.sin(a)])
    mask = np.zeros((h, w), np.uint8)
    cv2.line(mask, (int(base[0]), int(base[1])), (int(tip[0]), int(tip[1])), 255, int(width))
    cv2.circle(mask, (int(tip[0]), int(tip[1])), int(width / 2), 255, -1, cv2.LINE_AA)
    ids[mask > 127] = 0  # whatever the finger covers is no longer visible
    skin = np.array(
        [rng.uniform(90, 170), rng.uniform(120, 190), rng.uniform(170, 240)], np.float32
    )
    soft = cv2.GaussianBlur(mask, (0, 0), width * 0.08 + 1).astype(np.float32)[..., None] / 255
    # Round shading across the finger: dimmer towards its edges.
    core = cv2.GaussianBlur(mask, (0, 0), width * 0.3).astype(np.float32)[..., None] / 255
    finger_img = skin * (0.55 + 0.5 * core)
    canvas[:] = np.clip(canvas * (1 - soft) + finger_img * soft, 0, 255).astype(np.uint8)


def camera_effects(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """White balance, exposure, blur, noise and JPEG, each drawn at random strength."""
    f = img.astype(np.float32)
    wb = rng.normal(1.0, 0.06, 3).astype(np.float32)
    exposure = rng.uniform(0.75, 1.25)
    f *= wb * exposure
    gamma = rng.uniform(0.8, 1.25)
    f = 255.0 * (np.clip(f, 0, 255) / 255.0) ** gamma
    if rng.random() < 0.5:  # defocus
        f = cv2.GaussianBlur(f, (0, 0), rng.uniform(0.4, 1.6))
    if rng.random() < 0.2:  # hand shake
        n = int(rng.integers(3, 10))
        kernel = np.zeros((n, n), np.float32)
        cv2.line(kernel, (0, n // 2), (n - 1, n // 2), 1.0, 1)
        rot = cv2.getRotationMatrix2D((n / 2 - 0.5, n / 2 - 0.5), rng.uniform(0, 180), 1.0)
        kernel = cv2.warpAffine(kernel, rot, (n, n))
        f = cv2.filter2D(f, -1, kernel / max(kernel.sum(), 1e-6))
    sigma = rng.uniform(0.5, 6.0)
    h, w = f.shape[:2]
    luma = rng.standard_normal((h, w), dtype=np.float32) * sigma
    chroma = cv2.resize(rng.standard_normal((h // 4, w // 4, 3), dtype=np.float32), (w, h))
    f += luma[..., None] + chroma * sigma * 0.5
    out = np.clip(f, 0, 255).astype(np.uint8)
    if rng.random() < 0.7:
        quality = int(rng.integers(35, 95))
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
        if ok:
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out
