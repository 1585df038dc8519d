"""Run by tests/test_scene_plus_window.py in a real window (DISPLAY set): a NMBR 9 ++ game where xdotool
arms and drops Loner with Ctrl+2, clicks the Flip button, then the table where a flipped tile fits, then
presses Enter. Prints its trace lines (NMBR9_TRACE) and one JSON line with what happened."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from panda3d.core import Point3  # noqa: E402

from nmbr9.rules import Ruleset, Seat  # noqa: E402
from nmbr9.scene.camera import level_height  # noqa: E402
from tests.helpers import frames, game_app  # noqa: E402

W, H = 1280, 720


def main() -> None:
    app = game_app((W, H), offscreen=False)
    base, store = app.base, app.store
    match = store.new_match([Seat("Ana"), Seat("Bot", "bot:easy")], seed=8,
                            ruleset=Ruleset("classic", ("start_tiles", "gap_fillers", "breaking_rules"),
                                            ("flip", "loner")))
    session = app.play(match)

    frames(app, 20, pause=0.01)
    window = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--name", "NMBR 9 3D"],
                            capture_output=True, text=True, timeout=20).stdout.split()[0]

    def click(px: int, py: int) -> None:
        subprocess.run(["xdotool", "mousemove", "--window", window, str(px), str(py)], timeout=20)
        frames(app, 6, pause=0.01)
        subprocess.run(["xdotool", "click", "1"], timeout=20)
        frames(app, 8, pause=0.01)

    def pixel(sx: float, sy: float) -> tuple[int, int]:   # render2d (-1..1) -> window pixel
        return round((sx + 1) / 2 * W), round((1 - sy) / 2 * H)

    ps = session.ps
    out = {"start": ps.piece, "held": ps.held}
    for _ in range(2):
        subprocess.run(["xdotool", "key", "--window", window, "ctrl+2"], timeout=20)
        frames(app, 8, pause=0.01)
        out.setdefault("powers_after_key", []).append(sorted(ps.powers))
    flip = session.plus_hud.buttons["power_flip"].getPos(base.render2d)
    click(*pixel(flip.x + 0.1, flip.z + 0.01))
    out["flipped_after_button"] = ps.flipped
    out["still_held"] = ps.held
    target = match.game.legal_placements(0, powers=("flip",))[0]
    o = target.orientation()
    ps.rotation = target.rotation
    middle = Point3(target.x + (o.width - 1) // 2 + 0.5, -(target.y + (o.height - 1) // 2 + 0.5),
                    level_height(target.level))
    click(*pixel(*session.camera.screen_point(middle)))
    out["verdict_ok"] = bool(ps.verdict and ps.verdict.ok)
    subprocess.run(["xdotool", "key", "--window", window, "Return"], timeout=20)
    frames(app, 30, pause=0.01)
    out["tiles"] = [[t.piece, t.flipped] for t in match.board(0).tiles]
    out["powers"] = list(match.game.moves[-1].powers) if match.game.moves else []
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
