"""Shared fixtures. Scene tests share one offscreen ShowBase (Panda3D allows one per process)."""
from __future__ import annotations

import os

import pytest

# a "Can't start" message opens no window of its own in tests (the game runs on pipes, maybe with a display)
os.environ["NMBR9_NO_DIALOG"] = "1"


@pytest.fixture(scope="session")
def scene_base():
    """The process's offscreen ShowBase (EGL, or the software renderer), 640x360."""
    from nmbr9.scene.base import make_base
    base = make_base(offscreen=True, size=(640, 360), multisamples=0)
    if base.win is None:
        pytest.skip("no offscreen rendering on this machine")
    return base


@pytest.fixture
def scene(scene_base):
    """The shared base, with everything a test added to the scene removed afterwards."""
    yield scene_base
    for parent in (scene_base.render, *(getattr(scene_base, a) for a in (
            "a2dTopLeft", "a2dTopRight", "a2dBottomLeft", "a2dBottomRight", "a2dBottomCenter", "a2dTopCenter"))):
        for child in parent.getChildren():
            if child != scene_base.camera and not child.getName().startswith("a2d"):
                child.removeNode()
    scene_base.taskMgr.remove("play-screen")
    scene_base.taskMgr.remove("store-later")   # a GameApp's (it runs while the game does)
    scene_base.taskMgr.remove("level-badges")   # a table's, its badges shown


@pytest.fixture
def app(scene, tmp_path):
    """The whole game offscreen (no sound, no animations), its data in the test's folder (the screens' tests)."""
    from nmbr9.i18n import set_language
    from nmbr9.scene.game_app import GameApp
    from nmbr9.store import Store
    store = Store(tmp_path / "data")
    a = GameApp(scene, store, audio=False)
    a.settings = a.settings.changed(animation_speed=0.0)   # no waiting for animations
    yield a
    if a.screen is not None:
        a.screen.exit()
    a._unsubscribe()
    a._unsay()
    set_language("en")
    store.close()
    a.ignoreAll()
    scene.exitFunc = None
