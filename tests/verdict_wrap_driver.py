"""Run by tests/test_screens.py (offscreen, a window of its own size): a game in each of German, Spanish and
Polish with three tiles laid, the tile in hand moved where the table refuses it for each reason (and where it
fits). Prints one JSON line: per language, each verdict's wrapped lines, their widths (ems) and how many lines
the verdict's room (its widest wrap) would have taken it in."""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main(size: str) -> None:
    from panda3d.core import TextNode
    from nmbr9.i18n import set_language
    from nmbr9.rules import Placement, Seat
    from tests.helpers import frames, game_app

    app = game_app(tuple(int(n) for n in size.split("x")))
    app.settings = app.settings.changed(animation_speed=0.0)
    found = {}
    for language in ("de", "es", "pl"):
        set_language(language)
        m = app.store.new_match([Seat("Ana")], seed=8)
        s = app.play(m)
        for _tile in range(4):   # three laid, the fourth in hand
            while s.ps is None or s.ps.ghost is None:
                frames(app, 1)
            if _tile == 3:
                break
            p = max(m.legal_placements(0), key=lambda q: (q.level, -abs(q.x) - abs(q.y)))
            s.ps.rotation, s.ps.x, s.ps.y, s.ps.held = p.rotation, p.x, p.y, False
            s.ps.update()
            app.base.messenger.send("enter")
            frames(app, 3)
        ps, hud = s.ps, s.hud
        x0, y0, x1, y1 = m.board(0).bounds()
        spots = {}   # the first spot of each verdict (by its code)
        for r in (0, 90, 180, 270):
            for x in range(x0 - 3, x1 + 4):
                for y in range(y0 - 3, y1 + 4):
                    spots.setdefault(m.game.check(0, Placement(m.card, r, x, y)).code, (r, x, y))
        verdicts = []
        for code, (r, x, y) in sorted(spots.items(), key=lambda kv: str(kv[0])):
            ps.rotation, ps.x, ps.y = r, x, y
            ps.update()
            frames(app, 2)
            node = hud.verdict.component("text0").textNode
            lines = node.getWordwrappedText().split("\n")
            room = TextNode("room")   # the verdict in its room's widest lines
            room.setFont(node.getFont())
            room.setWordwrap(hud.middle()[1] / hud.verdict["scale"] - 1)
            room.setText(node.getText())
            verdicts.append({"code": code, "lines": lines, "widths": [node.calcWidth(line) for line in lines],
                             "fewest": room.getNumRows()})
        found[language] = verdicts
        app.menu()
    print(json.dumps(found, ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv[1])
