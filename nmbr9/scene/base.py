"""Start Panda3D: one ShowBase per process, on screen or offscreen.

Configuration must be loaded before ShowBase is built, so everything that
opens a window or a buffer goes through `make_base`.
"""
from __future__ import annotations

import os
import sys

from ..i18n import _
from ..paths import ROOT
from ..rules.text import as_json

_base = None


def parse_size(text: str) -> tuple[int, int]:
    """'1280x720' -> (1280, 720); ValueError with a one-line message otherwise."""
    try:
        w, h = (int(v) for v in str(text).lower().split("x"))
    except ValueError:
        raise ValueError(_("size must look like 1280x720, not {text}").format(text=as_json(str(text)))) from None
    if not (16 <= w <= 8192 and 16 <= h <= 8192):
        raise ValueError(_("size {width}x{height} is out of range (16 to 8192 pixels a side)").format(
            width=w, height=h))
    return w, h


def default_multisamples() -> int:
    """4x antialiasing with a graphics card; none on software GL, where it costs more than all the tiles."""
    if os.environ.get("NMBR9_MULTISAMPLES", "").isdigit():
        return int(os.environ["NMBR9_MULTISAMPLES"])
    return 4 if os.path.exists("/dev/dri") or sys.platform in ("win32", "darwin") else 0


def make_base(offscreen: bool, size=(1280, 720), title: str = "NMBR 9 3D", software: bool = False,
              multisamples: int | None = None, audio: bool = False, frame_rate: int | None = None):
    """The process's ShowBase, built once. Offscreen uses EGL (headless GL), else tinydisplay.
    With `frame_rate` the frames are capped at that rate (the game's window: frames beyond what a
    screen shows would take the cores the bots and hints think on)."""
    global _base
    if _base is not None:
        return _base
    from panda3d.core import loadPrcFileData
    if multisamples is None:
        multisamples = default_multisamples()
    lines = [
        f"win-size {size[0]} {size[1]}",
        f"window-title {title}",
        "audio-library-name p3openal_audio" if audio else "audio-library-name null",
        "sync-video false",
        "notify-level-device fatal",
        "notify-level-display error",
        "notify-level-glgsg error",
        "notify-level-x11display fatal",  # the software renderer looks for X11 first, harmlessly
        "framebuffer-multisample 1" if multisamples else "framebuffer-multisample 0",
        f"multisamples {multisamples}",
        f"model-path {ROOT.as_posix()}",
        "default-directnotify-level error",
        "print-pipe-types false",   # ShowBase listed the graphics pipes on every start (render's output too)
    ]
    if frame_rate:
        lines += ["clock-mode limited", f"clock-frame-rate {frame_rate}"]
    if offscreen:
        software = software or os.environ.get("NMBR9_RENDERER") == "software"  # to test the fallback
        lines += ["window-type offscreen"]
        lines += ["load-display p3tinydisplay"] if software else \
                 ["load-display p3headlessgl", "aux-display p3tinydisplay"]
    else:
        lines += ["load-display pandagl", "aux-display p3tinydisplay"]
    loadPrcFileData("nmbr9", "\n".join(lines))
    from direct.showbase.ShowBase import ShowBase
    _base = ShowBase()
    _base.disableMouse()
    if _base.win is not None:
        # the 2-D overlay (HUD, screens) draws without the depth buffer, yet ShowBase clears it for that layer:
        # a second pass over every pixel, about a sixth of a frame's processor time on software GL
        _base.cam2d.node().getDisplayRegion(0).setClearDepthActive(False)
    if frame_rate and _base.win is not None and is_software(_base):
        # software GL draws a frame on the same cores the bots think on: 30 a second look smooth
        # enough for tiles and leave the bots and hints about half the machine
        from panda3d.core import ClockObject
        ClockObject.getGlobalClock().setFrameRate(min(frame_rate, SOFTWARE_FRAME_RATE))
    return _base


SOFTWARE_FRAME_RATE = 30


def is_software(base) -> bool:
    """Whether the frames are drawn by the processor (Mesa's llvmpipe or softpipe, Panda3D's tinydisplay)."""
    gsg = base.win.getGsg()
    renderer = gsg.getDriverRenderer().lower() if gsg is not None else ""
    return gsg is None or any(w in renderer for w in ("llvmpipe", "softpipe", "software", "tinydisplay"))
