"""NMBR 9 ++ in the smallest window (640x480) and others with four seats and every module: "Level to Level"'s
piles and its question, and "2 of 3"'s question, cover no other part of the HUD (the cards still to come, the
round's caption, the scores, the Hint and Menu buttons, the Breaking Rules powers, the key help), nor the board.

Each window shape needs its own ShowBase: run as a script, this file is that subprocess; it prints, as JSON,
what each of those panels covers. With NMBR9_SHOTS=DIR it saves a picture of each there.
"""
from __future__ import annotations

import functools
import json
import os
import sys
from pathlib import Path

import pytest
from helpers import script_output


@functools.lru_cache(maxsize=None)
def _probe(size: str, language: str = "en") -> dict:
    return script_output([__file__, size], language)


@pytest.mark.render
@pytest.mark.parametrize("size", ["640x480", "800x600", "1024x576", "1024x768", "1280x720"])
def test_the_questions_and_the_piles_cover_nothing_else(size):
    """(At 1024x576 "2 of 3"'s question stood under the key help, over the Breaking Rules panel. At 1280x720
    the warnings of a reserved tile stood over the bottom of "Level to Level"'s piles.)"""
    found = _probe(size)
    assert set(found) == {"level_to_level choose", "two_of_three decide", "classic extras",
                          "level_to_level reserved"}
    for when, seen in found.items():
        assert seen["covered"] == {}, f"{size}, {when}: {seen['covered']}"


@pytest.mark.render
@pytest.mark.parametrize("language", ["de", "es", "pl"])
def test_in_every_language_at_640x480_nothing_covers_anything_and_no_word_breaks(language):
    """Longer words: in German the key help lay over the tile-dealt-with note, the "2 of 3" question over
    the cards to come (the scores' caption, above it, narrowed its room), and "Lückenfülle" / "r, 1 Feld".
    In German and Polish the verdict of the tile chosen in "Level to Level" lay over the piles (and Hint); in
    German, Spanish and Polish that of a "2 of 3" card built on the Breaking Rules panel's top edge."""
    found = _probe("640x480", language)
    for when, seen in found.items():
        assert seen["covered"] == {}, f"{language}, {when}: {seen['covered']}"
        for name, (text, wrapped) in seen["buttons"].items():
            assert wrapped.split() == text.split(), f"{language}, {when}, {name}: {wrapped!r}"
    # the tile-dealt-with note, above the buttons at the right, as wide as the room between: kept beside
    # them only where it stands at their height (in German it stood above them six lines tall, over the board)
    assert max(found["classic extras"]["note rows"]) <= 3, found["classic extras"]["note rows"]


def _apart(a, b) -> bool:
    """Two rectangles (left, right, bottom, top) that do not intersect."""
    return a[1] <= b[0] or b[1] <= a[0] or a[3] <= b[2] or b[3] <= a[2]


@pytest.mark.render
@pytest.mark.parametrize("size", ["640x480", "800x600", "1280x720"])
def test_the_piles_panel_keeps_off_the_breaking_rules_panel(size):
    """At 800x600 and 1280x720 the piles' panel reached a few pixels over the powers' top edge."""
    panels = _probe(size)["level_to_level choose"]["panels"]
    assert _apart(panels["piles"], panels["powers"]), (size, panels)


@pytest.mark.render
@pytest.mark.parametrize("size", ["640x480", "800x600", "1280x720"])
def test_the_key_help_offers_backspace_only_with_a_piece_in_hand(size):
    """With the turn's tile dealt with (only optional actions left) the key help still offered Backspace."""
    for when, seen in _probe(size).items():
        assert not any(line.startswith("Backspace") for line in seen["key items"]), (size, when)


@pytest.mark.render
@pytest.mark.parametrize("size", ["800x600", "1280x720"])
def test_the_key_help_stays_in_view_beside_the_piles(size):
    """Where the piles stand at the right, above the buttons there, the key help at the left keeps clear of
    them: it hid as soon as its bottom was lower than their top."""
    assert _probe(size)["level_to_level choose"]["keys"], size


@pytest.mark.render
@pytest.mark.parametrize("size", ["640x480", "800x600", "1280x720"])
def test_a_question_is_laid_out_once_a_redraw(size):
    """Where the piles stand above the buttons (800x600), "Level to Level"'s question was laid out twice a
    redraw: once to see whether it fits above them, then again to draw it."""
    for when, seen in _probe(size).items():
        assert seen["layouts"] == (0 if seen["question"] is None and not seen["folded"] else 1), (size, when)


@pytest.mark.render
def test_the_folded_choice_says_to_click_a_tile():
    """At 640x480 the shown tiles are the choice's buttons, and nothing said so."""
    seen = _probe("640x480")["level_to_level choose"]
    assert seen["folded"] and seen["question"] is None
    assert "Click a tile below to take it." in seen["lines"]


@pytest.mark.render
@pytest.mark.parametrize("size", ["640x480", "800x600", "1024x576", "1280x720"])
def test_the_board_keeps_off_the_panels_and_the_question(size):
    """At 1280x720 "Level to Level"'s question (which tile to take) stood over the board, at 1024x576 too. At
    640x480 the board reached under the Breaking Rules and "Level to Level" panels, and the "2 of 3" question
    stood over it (no part of the window was big enough: the table was framed across them)."""
    for when, seen in _probe(size).items():
        for name, box in [*seen["panels"].items(), ("question", seen["question"])]:
            if box is not None:
                assert _apart(box, seen["board"]), (size, when, name, box, seen["board"])


@pytest.mark.render
@pytest.mark.parametrize("size", ["1024x576", "1280x720"])
def test_the_board_glides_once_the_question_is_answered(size):
    """At 1280x720 the board stood beside "Level to Level"'s question, and jumped back to the middle in the
    frame the tile was chosen."""
    for when, seen in _probe(size).items():
        if "answered" in seen:
            before, after, settled = (((b[0] + b[1]) / 2, (b[2] + b[3]) / 2) for b in (
                seen["board"], seen["answered"], seen["settled"]))
            moved, way = (((p[0] - before[0]) ** 2 + (p[1] - before[1]) ** 2) ** 0.5 for p in (after, settled))
            assert moved <= 0.5 * way + 0.01, (size, when, before, after, settled)
    assert _probe("1280x720")["level_to_level choose"]["settled"][0] < 0.5, "moved to the middle"


@pytest.mark.render
@pytest.mark.parametrize("size, language", [("800x600", "en"), ("1024x576", "en"), ("1024x768", "en"),
                                            ("1280x720", "en"), ("640x480", "en"), ("640x480", "de"),
                                            ("640x480", "es"), ("640x480", "pl")])
def test_every_text_stays_inside_the_window(size, language):
    """At 640x480, with a reserved tile in "Level to Level", the row of actions ran off the right edge (in Spanish
    also with only gap fillers and End turn), and in German, Spanish and Polish the notes off the top."""
    for when, seen in _probe(size, language).items():
        assert seen["outside"] == [], (size, language, when, seen["outside"])


@pytest.mark.render
def test_the_board_with_the_tile_in_hand_gets_the_middle_of_a_4_3_window():
    """At 1024x768, once a "2 of 3" card was built, the verdict stood under the key help (which runs the whole
    width there), and the board was framed in a strip at the top, between the reject markers and the scores."""
    board = _probe("1024x768")["two_of_three decide"]["settled"]
    assert (board[2] + board[3]) / 2 < 0, board   # below the window's middle, not up in the top row


@pytest.mark.render
@pytest.mark.parametrize("size, language", [("640x480", "en"), ("800x600", "en"), ("1280x720", "en"),
                                            ("640x480", "de"), ("640x480", "es"), ("640x480", "pl")])
def test_the_notes_keep_off_the_scores_with_the_reserved_tile_in_hand(size, language):
    """At 640x480, the reserved tile taken in hand, the score box grew (the tile's gain), the scores under it
    moved down, and the notes, laid out beside them before, stood over them until the tile moved. In German,
    Spanish and Polish the warning stood on the verdict's last line."""
    seen = _probe(size, language)["level_to_level reserved"]
    assert seen["in hand covered"] == [], seen["in hand covered"]


@pytest.mark.render
@pytest.mark.parametrize("size", ["640x480", "800x600"])
def test_level_to_level_in_a_narrow_window_frames_the_board_in_the_middle(size):
    """At 640x480 the piles stood above Hint and Menu, one above the other, and the board, with a tile chosen,
    had only a patch beside the round's card (left of the cards still to come): Hint and Menu now stand side
    by side, the piles a button lower."""
    seen = _probe(size)["level_to_level choose"]
    hint, menu = seen["hint and menu"]
    assert abs(hint[2] - menu[2]) < 1e-3 and _apart(hint, menu), (hint, menu)
    assert seen["panels"]["piles"][2] > max(hint[3], menu[3]), seen["panels"]["piles"]
    assert seen["settled"][0] > seen["chips"][1], (seen["settled"], seen["chips"])


@pytest.mark.render
@pytest.mark.parametrize("language", ["en", "de", "es", "pl"])
def test_with_a_reserved_tile_the_board_keeps_the_middle_at_640x480(language):
    """In "Level to Level" at 640x480, a tile set aside and the turn's tile laid, the row of actions and two notes
    ("Your tile is dealt with ...", the reserved tile's warning, both beside the cards still to come and so many
    lines tall) left the board a patch beside the round's card."""
    seen = _probe("640x480", language)["level_to_level reserved"]
    assert seen["board"][0] > seen["chips"][1], (seen["board"], seen["chips"])
    assert all(_apart(seen["board"], note) for note in seen["notes"]), (seen["board"], seen["notes"])


@pytest.mark.render
@pytest.mark.parametrize("size, language", [("640x480", "en"), ("640x480", "de"), ("640x480", "es"),
                                            ("640x480", "pl"), ("800x600", "en"), ("800x600", "pl")])
def test_level_to_level_with_the_tile_taken_the_board_gets_the_middle_and_the_piles_still_say_it_all(size, language):
    """The tile taken in a narrow window, the board was framed in a strip between the verdict and the row of piles
    above Hint and Menu: at 640x480 140 px high (its tiles 80 px), in Polish 90 (50). The piles now stand in a
    column at the right, and the board gets about half the window's height (English 58%, German 52%, Spanish 52%:
    48% while the scores' caption, "Puntuaciones (haz clic para ver)", reached over the column, now "Puntos" as in
    the score box; Polish 52%: 44% with Hint and Menu one above the other, the column a button higher, the scores
    in two columns beside it); the column says each marker's level, card shown and cards left, the supply, and
    covers nothing (at 800x600 the board had 45% of the height, in Polish 39%)."""
    seen = _probe(size, language)["level_to_level choose"]
    room, board = seen["room"], seen["settled"]
    # (normalised: the window is 2 high)
    assert room[3] - room[2] >= (0.5 if size == "640x480" else 0.6) * 2, room
    assert board[3] - board[2] >= 0.2 * 2, board            # (aspect2d: 2 high; before: 0.35, in Polish 0.22)
    laid = seen["piles laid"]
    assert laid["unsaid"] == [] and laid["covered"] == [], laid
    assert len(laid["supply"]) == 1 and "\u00d7" in laid["supply"][0], laid["supply"]
    assert _apart(laid["panel"], board), (laid["panel"], board)


@pytest.mark.render
@pytest.mark.parametrize("language", ["en", "de", "es", "pl"])
def test_with_a_reserved_tile_and_nothing_in_hand_the_notes_hang_at_the_top_at_640x480(language):
    """The turn's tile laid, a tile set aside: the notes (what you may still do, the reserved tile's warning)
    stood above the row of piles, and the board had a strip above them at the top, 120 px high (in Polish 90).
    With the piles in a column at the right the notes hang at the top (no verdict there: nothing in hand), and
    the board gets the middle under them."""
    seen = _probe("640x480", language)["level_to_level reserved"]
    board = seen["board"]   # framed in the part of the window where it shows biggest (beside the piles, or under)
    assert board[1] - board[0] >= 0.3 and board[3] - board[2] >= 0.2, (board, seen["room"])   # (the window: 2 high)
    assert seen["notes"] and all(note[2] > seen["board"][3] for note in seen["notes"]), (seen["notes"], seen["board"])


@pytest.mark.render
@pytest.mark.parametrize("language", ["en", "de", "es", "pl"])
def test_with_a_piece_in_hand_the_notes_hang_at_the_top_off_the_board_at_640x480(language):
    """The piles in a column at the right and a piece in hand (the turn's tile, a tile set aside waiting; the
    reserved tile taken), the notes (the reserved tile's warning) stood above the column in the middle of the
    window, and the board had a strip above them (in English 27% of the height, in German 21%, in Spanish 23%) or
    a patch beside the round's card (the reserved tile in hand: 23%, 19%, 21%). They hang at the top under the
    verdict, as they do with nothing in hand, and the board has the room under them (in Polish they stood there
    already: 29%)."""
    seen = _probe("640x480", language)["level_to_level reserved"]
    for when, laid in (("the turn's tile in hand", seen["laying"]), ("the reserved tile in hand", seen["in hand"])):
        room = laid["room"]
        assert laid["notes"], when
        assert all(note[2] >= room[3] for note in laid["notes"]), (when, laid["notes"], room)   # above it
        assert room[3] - room[2] >= 0.275 * 2, (when, room)   # (aspect2d: 2 high)
        assert min(laid["letters"]) >= 10, (when, laid["letters"])
    assert seen["laying"]["covered"] == [] and seen["in hand covered"] == [], seen


@pytest.mark.render
@pytest.mark.parametrize("language", ["en", "de", "es", "pl"])
def test_with_a_piece_in_hand_the_notes_follow_a_longer_verdict_down_but_not_back_up(language):
    """The notes hanging under the verdict (640x480, the turn's tile in hand, a tile set aside) go down as the verdict
    grows a line (a power armed where it is not needed), but not up again as it shrinks (the power dropped; the tile
    moved to a square of a shorter refusal): else the board, framed under them, would glide at each square the tile
    goes to. (Moved, they went up: the piece kept in hand was told by the verdict's own wrap, which even_wrap narrows
    to each text.)"""
    dealt, armed, dropped, moved = _probe("640x480", language)["level_to_level reserved"]["tile moved"]
    # (each: the verdict's lines, the notes' top)
    assert armed[0] > dealt[0] and armed[1] < dealt[1] - 0.01, (dealt, armed)      # followed it down
    assert dropped[0] == dealt[0] and dropped[1] == armed[1], (armed, dropped)     # and stayed there
    assert moved[0] < dealt[0] and moved[1] == armed[1], (armed, moved)


@pytest.mark.render
@pytest.mark.parametrize("language", ["en", "de", "es", "pl"])
def test_hint_and_menu_stand_side_by_side_with_their_words_whole(language):
    """In Polish "Podpowiedź (I)" is too long for half the column: Hint and Menu stood one above the other, the
    piles' column a button higher, and the board had 44% of the window's height. Side by side each is as wide as
    its words (no smaller, none cut), the two no wider than Confirm under them."""
    seen = _probe("640x480", language)["level_to_level choose"]
    (hint, menu), words, confirm = seen["hint and menu"], seen["hint and menu words"], seen["confirm"]
    assert abs(hint[2] - menu[2]) < 1e-3 and _apart(hint, menu), (hint, menu)
    for frame, (left, right, letters) in zip((hint, menu), words):
        assert frame[0] < left and right < frame[1] and letters >= 10, (frame, left, right, letters)
    assert hint[0] >= confirm[0] - 1e-3, (hint, confirm)


@pytest.mark.render
@pytest.mark.parametrize("language", ["en", "de"])
def test_a_long_verdict_of_a_built_card_stays_in_the_window_off_the_score_box(language):
    """"2 of 3" at 640x480, a card built with Flip and Single support armed (the verdict three lines) and a
    third power refused: in German the refusal's note, two lines in the bottom middle, sent the verdict to the
    top row, where the card slots and reject markers leave no room: its wrap was negative, so its lines were not
    wrapped at all, ran over the score box and off the window's right edge."""
    seen = script_output([Path(__file__).resolve().parent / "plus_verdict_room_driver.py", "640x480"], language)
    assert seen["lines"] == 3 and seen["note"], seen
    verdict, score, window = seen["verdict"], seen["score"], seen["window"]
    assert seen["wrap"] > 0, seen
    assert window[0] <= verdict[0] and verdict[1] <= window[1], (verdict, window)
    assert _apart(verdict, score), (verdict, score)


# ----- the subprocess ---------------------------------------------------------------------

def main(size: str) -> None:
    import time
    from direct.gui.DirectGuiBase import DirectGuiWidget
    from direct.gui.DirectGui import DirectButton
    from direct.showbase.MessengerGlobal import messenger
    from panda3d.core import Filename, Point2, Point3
    from nmbr9.rules import Ruleset, Seat
    from nmbr9.rules.game import POWERS
    from nmbr9.scene.base import parse_size
    from helpers import frames, game_app

    app = game_app(parse_size(size))
    base = app.base
    app.settings = app.settings.changed(animation_speed=0.0)
    shots = os.environ.get("NMBR9_SHOTS")
    a2d = base.aspect2d

    def shown(np):
        return not np.isEmpty() and not np.isHidden() and not any(p.isHidden() for p in np.getAncestors())

    def box(np, frame):
        left, right, bottom, top = frame
        a, b = (a2d.getRelativePoint(np, Point3(x, 0, z)) for x, z in ((left, bottom), (right, top)))
        return a.x, b.x, a.z, b.z

    def others(parts):
        """Every widget on screen outside `parts` (its frame; its words' where it has no frame), the cards
        still to come."""
        lo, hi = s.hud.supply.getTightBounds(a2d)
        out = {"Still to come (cards)": (lo.x, hi.x, lo.z, hi.z)}
        for w in list(DirectGuiWidget.guiDict.values()):
            if w.isEmpty() or not a2d.isAncestorOf(w) or not shown(w) or any(p.isAncestorOf(w) for p in parts):
                continue
            left, right, bottom, top = w.guiItem.getFrame()
            colour = w["frameColor"]
            colour = colour[0] if isinstance(colour[0], tuple) else colour
            text = w["text"] if w.hascomponent("text0") and isinstance(w["text"], str) else ""
            if right > left and (colour[3] > 0 or text):
                out[f"{w.guiId} {text.splitlines()[0] if text else ''}"] = box(w, (left, right, bottom, top))
        return out

    def overlap(a, b):
        return a[0] < b[1] - 1e-3 and b[0] < a[1] - 1e-3 and a[2] < b[3] - 1e-3 and b[2] < a[3] - 1e-3

    def board_box():
        low, high = s.table.tiles.getTightBounds(base.render)   # the board's corners, as the camera shows them
        seen = []
        for x, y, z in ((x, y, z) for x in (low.x, high.x) for y in (low.y, high.y) for z in (low.z, high.z)):
            film = Point2()
            base.camLens.project(base.cam.getRelativePoint(base.render, Point3(x, y, z)), film)
            seen.append(a2d.getRelativePoint(base.render2d, Point3(film.x, 0, film.y)))
        return min(p.x for p in seen), max(p.x for p in seen), min(p.z for p in seen), max(p.z for p in seen)

    def words(button):
        """A button's words: their left and right, and their letters' height in pixels."""
        text, k = button.component("text0").textNode, button["text_scale"] or 1
        k = k[1] if isinstance(k, tuple) else k
        left, right = (a2d.getRelativePoint(button, Point3(x * k, 0, 0)).x for x in (text.getLeft(), text.getRight()))
        return left, right, button.getScale(base.render2d).z * k * parse_size(size)[1] / 2   # (render2d: 2 high)

    found = {}
    seats = [Seat("Ana"), Seat("Ben"), Seat("Bot 1", "bot:easy"), Seat("Bot 2", "bot:easy")]
    for variant, step in (("level_to_level", "choose"), ("two_of_three", "decide"), ("classic", "extras"),
                          ("level_to_level", "reserved")):
        m = app.store.new_match(seats, seed=5, ruleset=Ruleset(variant, ("start_tiles", "gap_fillers",
                                                                         "breaking_rules"), POWERS))
        s = app.play(m)

        def play_until(done) -> None:
            """The humans lay their tiles (pass and play) until `done(ps, options)`."""
            for _ in range(3000):
                frames(app, 1)
                if s.overlay == "handoff":
                    messenger.send("enter")   # taken once the hand-off takes presses (session.HANDOFF_PAUSE)
                    time.sleep(0.003)
                    continue
                ps = s.ps
                if ps is None or s.overlay is not None or m.current_human != ps.seat or ps.settling:
                    time.sleep(0.003)
                    continue
                o = m.options(ps.seat)
                if done(ps, o):
                    return
                if step == "reserved" and "reserve" in o.powers_now and o.step == "place":   # its warnings shown
                    ps.act("toggle_power", "reserve")
                    ps.act("set_aside")
                elif o.step == "choose":
                    ps.act("choose", sorted(o.choices)[0])
                elif o.step == "place":
                    p = m.game.legal_placements(ps.seat)[0]
                    ps.rotation, ps.x, ps.y, ps.held = p.rotation, p.x, p.y, False
                    ps.update()
                    messenger.send("enter")
                else:
                    ps.act("end_turn")
        play_until(lambda ps, o: o.step == step or step == "reserved" and o.step == "extras" and o.warnings)
        frames(app, 10)
        if shots:
            base.graphicsEngine.renderFrame()
            base.win.saveScreenshot(Filename.fromOsSpecific(f"{shots}/{size}-{variant}-{step}.png"))
        hud = s.plus_hud

        def notes_covered():
            """What the notes in the bottom middle (the tile dealt with) cover (the key help: see below)."""
            return [n for note in hud.notes for n, o in others([note]).items()
                    if overlap(box(note, note.guiItem.getFrame()), o) and not n.startswith(s.keys.guiId)]
        # as drawn once the game went on (without the redraw below): beside the scores laid out meanwhile
        first_drawn = notes_covered()
        layouts, layout = [], type(hud)._layout
        hud._layout = lambda *args: layouts.append(args) or layout(hud, *args)
        hud.key = None   # drawn again, the layouts counted
        frames(app, 1)
        del hud._layout
        covered = {}
        if hud.question is not None:
            q = hud.question
            hits = [n for n, o in others([q.getParent()]).items() if overlap(box(q, q["frameSize"]), o)]
            if hits:
                covered["question"] = hits
        def piles_covered():
            """What "Level to Level"'s piles panel covers (in a row at the bottom middle, or in a column at the
            right once the tile is taken)."""
            frame = hud.piles_frame
            if frame is None or frame.isEmpty():
                return []
            return [n for n, o in others([frame.getParent()]).items() if overlap(box(frame, frame["frameSize"]), o)]
        hits = piles_covered()
        if hits:
            covered["piles"] = hits
        for name, hits in (("notes", notes_covered()), ("notes as first drawn", first_drawn)):
            if hits:
                covered[name] = hits
        keys = s.keys
        if not keys.isHidden():   # the notes in the bottom middle (the tile dealt with) and the key help
            help_box = box(keys, keys.guiItem.getFrame())
            hits = [n.guiId for n in hud.notes if overlap(box(n, n.guiItem.getFrame()), help_box)]
            # nor any button (at 640x480 in Polish it lay over the row of actions)
            hits += [f"{w.guiId} {w['text']}" for w in list(DirectGuiWidget.guiDict.values())
                     if isinstance(w, DirectButton) and not w.isEmpty() and a2d.isAncestorOf(w) and shown(w)
                     and overlap(box(w, w.guiItem.getFrame()), help_box)]
            if hits:
                covered["key help"] = hits
        window = (base.a2dLeft, base.a2dRight, base.a2dBottom, base.a2dTop)
        outside = [n for n, b in others([]).items()   # (in Polish at 640x480 the notes ran off the top, the
                   if b[0] < window[0] - 1e-3 or b[1] > window[1] + 1e-3   # actions off the right edge)
                   or b[2] < window[2] - 1e-3 or b[3] > window[3] + 1e-3]
        panels = {name: box(w, w.node().getFrame()) for name, w in (("piles", hud.piles_frame),
                                                                     ("powers", hud.powers_frame)) if w is not None}
        board = board_box()
        room = list(s.camera.room)
        found[f"{variant} {step}"] = {
            "covered": covered, "outside": outside, "panels": panels, "keys": not s.keys.isHidden(),
            "layouts": len(layouts), "folded": hud.folded_choice,
            "question": None if hud.question is None else box(hud.question, hud.question["frameSize"]),
            "lines": hud.lines,
            "board": board, "room": room,
            "key items": s.key_items,
            "chips": others([])["Still to come (cards)"],
            "hint and menu": [box(b, b.guiItem.getFrame()) for b in (s.hint_button, s.menu_button)],
            # their words: left, right and the letters' height in pixels (the window's height: 2 in render2d)
            "hint and menu words": [words(b) for b in (s.hint_button, s.menu_button)],
            "note rows": [n.component("text0").textNode.getNumRows() for n in hud.notes],
            "notes": [box(n, n.guiItem.getFrame()) for n in hud.notes],
            "buttons": {name: [b["text"], b.component("text0").textNode.getWordwrappedText()]
                        for name, b in hud.buttons.items() if not b.isEmpty()}}
        if step in ("choose", "decide"):   # answered (animations on): where the board is a frame later, and then
            s.ps.speed = 1.0
            s.ps.act(step, sorted(m.options(s.ps.seat).choices)[0] if step == "choose" else True)
            frames(app, 1)
            found[f"{variant} {step}"]["answered"] = board_box()
            if shots:
                base.win.saveScreenshot(Filename.fromOsSpecific(f"{shots}/{size}-{variant}-{step}-answered.png"))
            for _ in range(300):
                if not s.camera.gliding:
                    break
                frames(app, 1)
            found[f"{variant} {step}"]["settled"] = board_box()
            found[f"{variant} {step}"]["room"] = list(s.camera.room)   # the part of the window it is framed in
            found[f"{variant} {step}"]["confirm"] = box(s.hud.confirm, s.hud.confirm.guiItem.getFrame())
            if hud.piles_frame is not None:   # the piles as they stand while the tile is laid
                from nmbr9.i18n import _, ngettext
                g, o = m.game, m.options(s.ps.seat)
                said = [_("Level {level}").format(level=k) for k in range(5)] + \
                    [ngettext("{count} card", "{count} cards", len(p)).format(count=len(p)) for p in g.piles] + \
                    [str(d) for d in g.shown.values()] + [_("not active")] * (5 - g.active)
                found[f"{variant} {step}"]["piles laid"] = {
                    "panel": box(hud.piles_frame, hud.piles_frame["frameSize"]), "covered": piles_covered(),
                    # (each as often as the piles say it: "not active" once an inactive marker)
                    "unsaid": sorted({text for text in said if hud.lines.count(text) < said.count(text)}),
                    "supply": [line for line in hud.lines if line.startswith(_("Your supply: {tiles}").split("{")[0])],
                    "marker": o.marker}
            v = s.hud.verdict   # the tile's verdict, now shown (in German and Polish at 640x480 over the piles;
            if shown(v) and v["text"]:   # in "2 of 3" in German, Spanish and Polish on the Breaking Rules panel)
                hits = [n for n, o in others([v]).items()
                        if overlap(box(v, v.guiItem.getFrame()), o) and not n.startswith(v.guiId)]
                if hits:
                    found[f"{variant} {step}"]["covered"]["verdict"] = hits
            if shots:
                base.win.saveScreenshot(Filename.fromOsSpecific(f"{shots}/{size}-{variant}-{step}-settled.png"))
        if step == "reserved":   # the reserved tile in hand, next turn: the score box grows (the tile's gain)
            seat = s.ps.seat
            s.ps.act("end_turn")
            play_until(lambda ps, o: ps.seat == seat and o.step == "place")   # the turn's tile in hand
            frames(app, 10)
            room = s.camera.room   # (normalised; in aspect2d's units as the notes, below)
            found[f"{variant} {step}"]["laying"] = {
                "room": [room[0] * base.a2dRight, room[1] * base.a2dRight, room[2] * base.a2dTop,
                         room[3] * base.a2dTop],
                "notes": [box(n, n.guiItem.getFrame()) for n in hud.notes], "covered": notes_covered(),
                # each note's letters, in pixels (the window's height: 2 in render2d)
                "letters": [n.getScale(base.render2d).z * parse_size(size)[1] / 2 for n in hud.notes]}
            if shots:
                base.win.saveScreenshot(Filename.fromOsSpecific(f"{shots}/{size}-{variant}-reserved-laying.png"))
            if hud.hanging:   # the notes hang under the verdict: its lines change with the tile just dealt

                def verdict_and_notes():
                    """The verdict's lines, the notes' top (aspect2d)."""
                    frames(app, 2)
                    return (s.hud.verdict.component("text0").textNode.getNumRows(),
                            max(box(n, n.guiItem.getFrame())[3] for n in hud.hanging))
                dealt = verdict_and_notes()   # (a legal square: "Fits on level 0" and the marker's cap)
                power = next(p for p in ("single_support", "bridge", "loner") if p in m.options(s.ps.seat).powers_now)
                moved = [dealt]
                for _ in range(2):   # a power armed and dropped: a line more ("Not needed here: ..."), and not
                    s.ps.act("toggle_power", power)
                    moved.append(verdict_and_notes())
                for square in [(x, 0) for x in range(-6, 7)]:   # then the tile to a square of a shorter refusal
                    s.ps.x, s.ps.y, s.ps.held = *square, False
                    s.ps.update()
                    now = verdict_and_notes()
                    if now[0] < dealt[0]:
                        moved.append(now)
                        break
                found[f"{variant} {step}"]["tile moved"] = moved
            play_until(lambda ps, o: ps.seat == seat and o.reserve_ready and o.step == "extras")
            s.ps.act("hold_reserved")
            frames(app, 10)
            found[f"{variant} {step}"]["in hand covered"] = notes_covered()
            room = s.camera.room   # (normalised; in aspect2d's units as the notes, below)
            found[f"{variant} {step}"]["in hand"] = {
                "room": [room[0] * base.a2dRight, room[1] * base.a2dRight, room[2] * base.a2dTop,
                         room[3] * base.a2dTop],
                "notes": [box(n, n.guiItem.getFrame()) for n in hud.notes],
                # each note's letters, in pixels (the window's height: 2 in render2d)
                "letters": [n.getScale(base.render2d).z * parse_size(size)[1] / 2 for n in hud.notes]}
            if shots:
                base.win.saveScreenshot(Filename.fromOsSpecific(f"{shots}/{size}-{variant}-reserved-in-hand.png"))
        app.screen.exit()
        app.screen = None
    print(json.dumps(found))


if __name__ == "__main__":  # PYTHONPATH holds the checkout (see _probe)
    main(sys.argv[1])


@pytest.mark.render
def test_a_hint_under_a_built_cards_verdict_keeps_off_the_breaking_rules_panel():
    """"2 of 3" at 640x480, a card built, I: the hint's two lines hung under the verdict, under the key help,
    behind the Breaking Rules panel ("...the see-through blue tile is" hidden by "markers left")."""
    found = script_output([os.path.join(os.path.dirname(__file__), "plus_hint_status_driver.py"), "640x480"])
    assert found["status"].startswith("Hint:")
    assert _apart(found["status box"], found["powers"]), found


@pytest.mark.render
@pytest.mark.parametrize("language", ["en", "pl"])
def test_the_note_that_reserve_is_off_keeps_off_the_hint_it_was_turned_off_for(language):
    """"2 of 3" at 640x480, a card built, Reserve armed for it, I: the note "Reserve is off: the hint is where to
    lay your 1." stood on the hint's second line ("the see-through blue tile is (level 0)"). Both read whole,
    clear of the verdict and the Breaking Rules panel."""
    found = script_output([os.path.join(os.path.dirname(__file__), "plus_hint_status_driver.py"), "640x480",
                           "reserve"], language)
    assert found["status"] and len(found["notes"]) == 1, found
    note = next(iter(found["notes"].values()))
    for other in ("status box", "verdict", "powers"):
        assert _apart(note, found[other]), (other, found)
