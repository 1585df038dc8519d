"""`nmbr9` / `nmbr9 play`: a window with a solo classic game, played to the end.

Thin wiring: a Table, an OrbitCamera, a Hud and one PlayScreen for seat 0.
Menus, other players and saves build on the same pieces.
"""
from __future__ import annotations

import random

from ..i18n import _


class SoloApp:
    def __init__(self, base, seed: int, record_path=None):
        from ..rules.game import Game, Seat, new_deck
        from .camera import OrbitCamera
        from .hud import Hud
        from .play import PlayScreen
        from .table import Table
        self.base = base
        self.seed = seed
        self.record_path = record_path
        self.game = Game([Seat(_("You"))], new_deck(random.Random(seed)))
        self.table = Table(base)
        self.camera = OrbitCamera(base.camera, base.camLens, base.render)
        self.hud = Hud(base, on_confirm=lambda: self.screen.confirm())
        self.screen = PlayScreen(base, self.game, 0, self.table, self.camera, self.hud, self.committed)
        self.screen.bind()
        base.accept("window-event", lambda win: self.hud.fit_window())

    def committed(self, placement) -> None:
        if self.record_path:
            import json
            from ..rules.record import game_record
            with open(self.record_path, "w", encoding="utf-8") as f:
                json.dump(game_record(self.game), f)
        if self.game.over:
            score = self.game.scores()[0]
            self.hud.show_result(_("Game over: {score} points").format(score=score))
            print(f"Result: solo classic game, seed {self.seed}, score {score}, "
                  f"{len(self.game.boards[0].tiles)} tiles, levels {self.game.boards[0].levels}", flush=True)


def main(args) -> int:
    from .base import make_base, parse_size
    try:
        size = parse_size(getattr(args, "size", "1280x720"))
    except ValueError as e:
        print(f"Can't start: {e}")
        return 2
    seed = args.seed if getattr(args, "seed", None) is not None else random.SystemRandom().randrange(10 ** 6)
    print(f"NMBR 9 3D: solo game, deck seed {seed}", flush=True)
    base = make_base(offscreen=False, size=size)
    SoloApp(base, seed, getattr(args, "record", None))
    base.run()
    return 0
