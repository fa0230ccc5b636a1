"""Things that look like tiles: drawn where they are put, turned with the thing, never
labelled; a table photo with no tiles has no labels and still shows things on the table."""

from __future__ import annotations

import numpy as np
import pytest

from datasets.scene import render_scene
from datasets.scene.lookalikes import LOOKALIKES
from datasets.scene.props import scatter_props

MM = 2.5  # texels per millimetre


@pytest.mark.parametrize("make", sorted(set(LOOKALIKES), key=lambda f: f.__name__))
def test_each_lookalike_draws_itself_and_its_shadow_around_where_it_is_put(make) -> None:
    img = np.full((1024, 1024, 3), 128, np.uint8)
    shadow = np.zeros((1024, 1024), np.uint8)
    centre = np.array([512.0, 512.0])
    make(np.random.default_rng(3), centre, MM)(img, shadow)
    changed = np.abs(img.astype(int) - 128).sum(axis=2) > 6
    assert changed.sum() > 200, "the thing shows"
    ys, xs = np.nonzero(shadow)
    assert len(xs) and abs(np.median(xs) - 512) < 300 and abs(np.median(ys) - 512) < 300
    assert (shadow[changed] > 0).mean() > 0.8, "what is drawn casts a shadow"


@pytest.mark.parametrize("make", sorted(set(LOOKALIKES), key=lambda f: f.__name__))
def test_a_lookalike_off_the_texture_edge_is_cut_not_an_error(make) -> None:
    img = np.full((256, 256, 3), 128, np.uint8)
    make(np.random.default_rng(5), np.array([-40.0, 250.0]), MM)(
        img, np.zeros((256, 256), np.uint8)
    )


def test_a_keyboard_shows_many_keys_with_legends() -> None:
    from datasets.scene.lookalikes import _keyboard

    img = np.full((1400, 1400, 3), 128, np.uint8)
    _keyboard(np.random.default_rng(11), np.array([700.0, 700.0]), 2.5)(
        img, np.zeros((1400, 1400), np.uint8)
    )
    assert img.std() > 20


def test_props_mix_everyday_things_and_lookalikes_by_share() -> None:
    img = np.full((512, 512, 3), 128, np.uint8)
    plain = img.copy()
    scatter_props(np.random.default_rng(2), img, px_per_mm=1.0, count=6, lookalike_share=1.0)
    assert not np.array_equal(img, plain)


@pytest.mark.parametrize("seed", range(4))
def test_a_table_with_no_tiles_has_no_labels_and_things_on_it(seed: int) -> None:
    scene = render_scene(np.random.default_rng(seed), ("procedural",), "no_tiles", 480)
    assert scene.annotations == [] and scene.hand is None
    assert scene.meta["table"] == "clutter"
    assert scene.image.std() > 10
