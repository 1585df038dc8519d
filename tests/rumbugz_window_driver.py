"""A RumBugz game offscreen at a window size, as a player would play it: New game's RumBugz tab, then a round for
Ann and Ben (humans) and Carl (hard bot) on the table, through hand-offs and bids, to the final standings and a
rematch. The humans follow a hard bot's advice from their own view (rumbugz_drive.py). Prints JSON: what each
step showed; writes a picture of each step into the folder given.

    python tests/rumbugz_window_driver.py 1280x800 [language] [folder] [seed]
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

SEED = 26   # a short round (34 turns) with a human's bid, the bot going out, when the humans follow the advice


def main(size: tuple[int, int], language: str, shots: Path | None, seed: int) -> dict:
    from direct.gui import DirectGuiGlobals as DGG
    from direct.gui.DirectGuiBase import DirectGuiWidget
    from direct.showbase.MessengerGlobal import messenger
    from panda3d.core import PNMImage

    from helpers import frames, game_app
    from rumbugz_drive import act, advice_for
    app = game_app(size)
    app.settings = app.settings.changed(animation_speed=0.0)
    if language != "en":
        from nmbr9.i18n import set_language
        set_language(language)
    out: dict = {"shots": []}

    def buttons() -> dict:
        found = {}
        roots = [app.screen.root, *getattr(app.screen, "anchors", {}).values()]
        for w in list(DirectGuiWidget.guiDict.values()):
            if w.__class__.__name__ != "DirectButton" or w.isEmpty() or w["state"] == DGG.DISABLED:
                continue
            if any(r is not None and not r.isEmpty() and r.isAncestorOf(w) for r in roots) and not w.isHidden() \
                    and all(not p.isHidden() for p in w.getAncestors()):
                found[w["text"]] = w
        return found

    def click(text: str) -> None:
        messenger.send(DGG.B1CLICK + buttons()[text].guiId, [None])
        frames(app, 3)

    def shot(name: str) -> None:
        frames(app, 3)
        image = PNMImage()
        app.base.win.getScreenshot(image)
        if shots:
            path = shots / f"{name}-{size[0]}x{size[1]}-{language}.png"
            image.write(str(path))
            out["shots"].append(path.name)

    def colour_at(spot) -> list[int]:
        """The frame's colour at a window point (-1..1 each way), 0-255 each."""
        frames(app, 2)
        image = PNMImage()
        app.base.win.getScreenshot(image)
        x = min(image.getXSize() - 1, round((spot[0] + 1) / 2 * image.getXSize()))
        y = min(image.getYSize() - 1, round((1 - spot[1]) / 2 * image.getYSize()))
        return [round(c * 255) for c in image.getXel(x, y)]

    def keys(name: str) -> None:
        messenger.send(name)
        frames(app, 2)

    def until(predicate, seconds: float = 60):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            frames(app, 1)
            if predicate():
                return
            time.sleep(0.003)
        raise AssertionError("timed out")

    app.menu()
    keys("enter")   # New game (no saved game: the first button)
    click("RumBugz")
    shot("setup")
    out["setup"] = sorted(buttons())
    seats = [{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}, {"name": "Carl", "kind": "bot:hard"}]
    app.play(app.store.new_rumbugz(seats, seed=seed, rounds=1))
    screen = app.screen

    def drag(start, end) -> None:
        screen.press_at(*start)
        frames(app, 1)
        screen.release_at(*end)
        frames(app, 2)

    done, seen = [], set()
    while app.screen is screen and len(done) < 600:
        frames(app, 1)
        if screen.overlay == "handoff":
            if "handoff" not in seen:
                seen.add("handoff")
                shot("handoff")
                out["hidden_rack"], out["backdrop"] = colour_at(screen.rack_spot(0)), colour_at((0.95, -0.95))
            if screen.handoff.is_ready:
                keys("enter")
        elif screen.overlay == "bids":
            if "bids" not in seen:
                seen.add("bids")
                shot("bids")
            humans = [p for p in screen.game.bidders() if not screen.game.is_bot(p)]
            bidding = [i for i, p in enumerate(humans) if advice_for(screen.game, p)]
            keys(str(bidding[0] + 1) if bidding else "enter")   # a human who wants it bids; else No bids
            done.append("bid" if bidding else "no-bid")
        elif screen._my_move() and "picked" not in seen and screen.game.round.step == "play":
            seen.add("picked")   # three bugs are no sequence: the rules' sentence is shown, nothing laid
            for place in range(3):
                keys(str(place + 1))
            shot("picked")
            out["picked"] = screen.picked_bugs()
            keys("enter")
            out["lay_said"] = screen.verdict
            shot("lay-refused")
            keys("backspace")
        elif screen._my_move():
            if screen.game.round.step == "draw" and "draw" not in seen:
                out["draw_status"] = screen.status["text"]
            if "shown_rack" not in out:
                frames(app, 2)
                out["shown_rack"] = colour_at(screen.rack_spot(0))
            what = act(screen, keys, drag)
            if screen.overlay == "choose" and "choose" not in seen:
                seen.add("choose")
                shot("choose")
            if what not in seen:
                seen.add(what)
                shot("did-" + what)
            if screen.verdict:
                out.setdefault("refused", []).append(screen.verdict)
                keys("backspace")
                keys("escape") if screen.overlay == "choose" else None
            done.append(what)
    out["done"] = {w: done.count(w) for w in sorted(set(done))}
    shot("results")
    out["results"] = sorted(buttons())
    out["totals"] = screen.game.totals()
    out["last"] = screen.game.round.moves[-8:]
    out["bag"] = (screen.game.round.bag_size, len(screen.game.round.pile))
    keys("enter")   # the last round: a rematch
    frames(app, 5)
    out["after"] = app.screen.name
    app._leave()
    return out


if __name__ == "__main__":
    size = tuple(int(n) for n in sys.argv[1].split("x"))
    language = sys.argv[2] if len(sys.argv) > 2 else "en"
    shots = Path(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[3] != "-" else None
    print(json.dumps(main(size, language, shots, int(sys.argv[4]) if len(sys.argv) > 4 else SEED)))
