"""Synthetic photos of Mahjong tables: 3-D tile bodies, declared-win layouts, photo effects.

from datasets.scene import render_scene, Scene
scene = render_scene(np.random.default_rng(0), ("procedural",), "declared_win", 1280)
"""

from datasets.scene.render import KINDS, Scene, render_scene

__all__ = ["KINDS", "Scene", "render_scene"]
