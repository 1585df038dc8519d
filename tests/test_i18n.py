"""Translations: complete catalogues, language switching, the rules page in every language."""
from __future__ import annotations

import json

import pytest

import nmbr9.i18n as i18n
from nmbr9.i18n import _, ngettext, po, set_language, current_language, tools
from nmbr9.i18n.rules_page import SECTIONS, rules_page
from nmbr9.rules import Board, Placement

LANGS = ["de", "es", "pl"]


@pytest.fixture
def language():
    """Lets a test switch language and puts the previous one back."""
    before = current_language()
    yield set_language
    set_language(before)


@pytest.fixture(scope="module")
def source():
    return tools.extract()


@pytest.fixture(scope="module")
def template(source):
    return tools.template(source)


def _listing(messages):
    return "\n".join(f"  {m[:90]!r}" for m in messages)


@pytest.mark.parametrize("code", LANGS)
def test_every_message_of_the_game_is_translated(code, template):
    report = tools.check_catalogue(template, po.read(tools.catalogue_path(code)))
    assert not report.missing, f"{code}: messages not in the catalogue (run `nmbr9 i18n extract`):\n" \
        + _listing(report.missing)
    assert not report.untranslated, f"{code}: messages not translated:\n" + _listing(report.untranslated)
    assert not report.fuzzy, f"{code}: translations marked fuzzy (check and unmark):\n" + _listing(report.fuzzy)
    # messages no longer in the game do no harm to players: `nmbr9 i18n check` lists them


@pytest.mark.parametrize("code", LANGS)
def test_translations_use_the_same_fields_as_the_english(code, template):
    report = tools.check_catalogue(template, po.read(tools.catalogue_path(code)))
    assert not report.bad_fields, "\n".join(report.bad_fields)


def test_no_text_is_formatted_before_it_is_translated(source):
    assert not source.untranslatable, "\n".join(source.untranslatable)


def test_a_refusal_reads_in_the_chosen_language_without_restart(language):
    board = Board()
    board.place(Placement(8, 0, 0, 0))
    verdict = board.verdict(Placement(8, 0, 0, 0, level=0))
    assert verdict.code == "overlap"
    language("en")
    assert verdict.text(_) == "Square (1, 0) on level 0 is already taken."
    language("pl")
    assert verdict.text(_) == "Kwadrat (1, 0) na poziomie 0 jest już zajęty."
    language("de")
    assert verdict.text(_) == "Das Feld (1, 0) auf Ebene 0 ist schon belegt."
    language("es")
    assert verdict.text(_) == "El cuadrado (1, 0) del nivel 0 ya está ocupado."


def test_listeners_hear_each_change_once_until_they_unsubscribe(language):
    language("en")
    heard = []
    unsubscribe = i18n.on_language_change(heard.append)
    language("pl")
    language("pl")          # no change, no news
    language("de_DE.UTF-8")  # a locale name works too
    unsubscribe()
    language("es")
    assert heard == ["pl", "de"]
    assert current_language() == "es"


def test_an_unknown_language_is_refused_in_one_line_and_changes_nothing(language):
    language("pl")
    with pytest.raises(ValueError) as err:
        set_language("xx")
    assert "xx" in str(err.value) and "pl" in str(err.value) and "\n" not in str(err.value)
    assert current_language() == "pl"


@pytest.mark.parametrize("env, expected", [
    ({"LANG": "pl_PL.UTF-8"}, "pl"),
    ({"LC_ALL": "de_AT.UTF-8", "LANG": "pl_PL.UTF-8"}, "de"),
    ({"LANGUAGE": "fr:es", "LANG": "de_DE.UTF-8"}, "es"),
    ({"LC_MESSAGES": "es_ES@euro"}, "es"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LANG": "fr_FR.UTF-8"}, "en"),
    ({}, "en"),
])
def test_the_language_follows_the_system_locale(env, expected):
    assert i18n.system_language(env) == expected


def test_the_languages_name_themselves():
    assert i18n.available_languages() == ["en", "de", "es", "pl"]
    assert [i18n.language_name(c) for c in i18n.available_languages()] == \
        ["English", "Deutsch", "Español", "Polski"]


@pytest.mark.parametrize("code", LANGS)
def test_the_hand_off_and_a_boards_name_read_well_with_a_default_name(code, language):
    """Polish said "Przekaż graczowi Gracz 2" ("pass to the player Player 2") and "Konstrukcja gracza Gracz 2":
    the name New game gives was put after a declined "player". A name, typed or given, stands undeclined."""
    from nmbr9.match import default_name
    language(code)
    name = default_name(1, "human")                      # "Gracz 2"
    player = name.split()[0].lower()                     # "gracz"
    for line in (_("Pass to {name}"), _("I am {name}: show my table"), _("{name}'s board")):
        shown = line.format(name=name)
        assert shown.lower().count(player) == 1, shown


def test_polish_has_three_plural_forms():
    cat = po.parse('msgid ""\nmsgstr ""\n"Plural-Forms: ' + tools.PLURAL_FORMS["pl"] + '\\n"\n\n'
                   'msgid "{n} point"\nmsgid_plural "{n} points"\n'
                   'msgstr[0] "{n} punkt"\nmsgstr[1] "{n} punkty"\nmsgstr[2] "{n} punktów"\n')
    t = po.translations(cat)
    forms = {n: t.ngettext("{n} point", "{n} points", n).format(n=n) for n in (1, 2, 5, 12, 22, 25, 101)}
    assert forms == {1: "1 punkt", 2: "2 punkty", 5: "5 punktów", 12: "12 punktów", 22: "22 punkty",
                     25: "25 punktów", 101: "101 punktów"}


def test_ngettext_in_english_picks_by_count(language):
    language("en")
    assert ngettext("{n} point", "{n} points", 1).format(n=1) == "1 point"
    assert ngettext("{n} point", "{n} points", 3).format(n=3) == "3 points"


@pytest.mark.parametrize("code", LANGS)
def test_catalogues_survive_being_read_and_written(code):
    text = tools.catalogue_path(code).read_text(encoding="utf-8")
    cat = po.parse(text)
    again = po.parse(po.format_catalogue(cat))
    assert [(e.msgid, e.msgstr, e.flags, e.obsolete) for e in again.entries] == \
        [(e.msgid, e.msgstr, e.flags, e.obsolete) for e in cat.entries]
    assert again.header == cat.header


def test_extract_keeps_translations_and_marks_changed_messages_fuzzy():
    old = po.parse('msgid ""\nmsgstr ""\n"Language: de\\n"\n\n'
                   'msgid "Confirm the tile"\nmsgstr "Plättchen bestätigen"\n\n'
                   'msgid "Round {round} of {rounds}"\nmsgstr "Runde {round} von {rounds}"\n\n'
                   'msgid "Gone from the game"\nmsgstr "Nicht mehr im Spiel"\n')
    pot = po.Catalogue({}, [po.Entry("Confirm the tile"), po.Entry("Round {round} of {rounds}:"),
                            po.Entry("Brand new")])
    new = tools.merge(pot, old, "de")
    by = {e.msgid: e for e in new.entries}
    assert by["Confirm the tile"].msgstr == ["Plättchen bestätigen"] and by["Confirm the tile"].translated
    changed = by["Round {round} of {rounds}:"]
    assert changed.fuzzy and changed.previous == "Round {round} of {rounds}" and not changed.translated
    assert by["Brand new"].msgstr == [""]
    assert by["Gone from the game"].obsolete
    report = tools.check_catalogue(pot, new)
    assert report.untranslated == ["Brand new"] and report.fuzzy == ["Round {round} of {rounds}:"]
    # fuzzy and empty messages fall back to English at run time
    t = po.translations(new)
    assert t.gettext("Round {round} of {rounds}:") == "Round {round} of {rounds}:"
    assert t.gettext("Confirm the tile") == "Plättchen bestätigen"


# ----- the rules page ---------------------------------------------------------------------

# Terms the printed rules of each language use (seeds 000 es, 001 pl, 003/004 de).
TERMS = {
    "de": ["Plättchen", "Ebene", "Karte", "Feld", "Auslage", "Legeregeln", "Lückenfüller", "Startplättchen"],
    "es": ["loseta", "nivel", "carta", "cuadrado", "ronda", "mazo", "reglas de colocación"],
    "pl": ["kafel", "poziom", "kart", "kwadrat", "rund", "stos do dobierania", "zasady dokładania"],
}


def _all_text(page):
    return " ".join([h for h, _ps in page] + [p for _h, ps in page for p in ps])


def test_the_rules_page_covers_the_rules_and_says_the_start_tiles_are_our_own(language):
    language("en")
    page = rules_page(_)
    text = _all_text(page)
    for topic in ("level 0", "at least two different tiles", "New start tiles", "Gap fillers", "Breaking Rules",
                  "Relocate", "Flip", "Single support", "Bridge", "Loner", "Reserve", "2 of 3",
                  "Level to Level", "puzzle", "rematch", "100 points", "own design"):
        assert topic in text, topic
    rulings = [p for _, ps in page for p in ps if p.startswith("This game's ruling: ")]
    # spec/rules.md marks seven rulings: table edges, start tiles, gap fillers, flip, bridge hole,
    # reserve, level markers; and this game's reading of "Level to Level"'s last round, of the three
    # markers of "2 of 3" with Breaking Rules, and those of docs/record-plus.md a player meets at the
    # table (what Relocate moves, the reserve's highest level, when a marker is spent, which tiles
    # activate a level marker, no Reserve on the game's last turn)
    assert len(rulings) == 14
    # the last round is played with the cards left (the game ended before it); no power changes a reserved tile
    assert any("a marker left without a card offers nothing. Every card is played." in r for r in rulings)
    assert "No power applies to your reserved tile when you build it in a later turn" in text


def test_the_rules_page_says_what_the_puzzles_screen_offers(language):
    """The page said "You are offered two random puzzles and pick one": the Puzzles screen offers the daily puzzle
    and a friend's code too, and during the game the earlier players' boards round by round."""
    language("en")
    text = " ".join(dict(rules_page(_))["Puzzles"])
    assert "daily puzzle" in text and "a friend's code" in text and "leaderboard" in text
    assert "earlier players' boards as they stood in the same round" in text


def test_the_rules_page_says_how_to_move_turn_and_lay_a_tile(language):
    """A newcomer learning from the rules page read "Move the tile, turn it and confirm it." and nothing about
    how: not the mouse nor the keys, nor that a click on one's score confirms (spec/rules.md, online edition); nor,
    for a touchpad without a wheel, that a right click turns the tile (the online edition's "turned by a click")."""
    language("en")
    text = " ".join(dict(rules_page(_))["Playing on screen"])
    for words in ("follows the pointer", "a right click or the wheel turns it", "a click on Confirm or on your score",
                  "the arrow keys move it", "Q and E turn it", "Enter lays it", "a double click sets the view back",
                  "H shows every key"):
        assert words in text, words


def test_the_rules_page_says_which_three_markers_2_of_3_gives_with_breaking_rules(language):
    """The page said "every player has three markers" while the powers panel shows two: the game's
    reading (the reject marker and two for powers) was only in docs/record-plus.md."""
    import random
    from nmbr9.rules import Game, Ruleset, Seat
    language("en")
    section = dict(rules_page(_))["Variant: 2 of 3"]
    assert ("This game's ruling: These are the reject marker and the two markers for powers; a reserved "
            "tile counts as built.") in section
    g = Game.new([Seat("A")], Ruleset("two_of_three", ("breaking_rules",), ("flip", "loner", "bridge")),
                 random.Random(1))
    assert g.options(0).markers_left == 2 and g.options(0).can_reject   # two for powers, the reject marker


def test_the_rules_page_says_a_lost_reserved_tile_goes_back_to_the_supply(language):
    """The printed Reserve rule returns a tile not built in time to the supply; with a 4-player supply of
    one's own in Level to Level a player sees that number's count go up again, which the page did not say."""
    language("en")
    section = dict(rules_page(_))["Module: Breaking Rules"]
    assert "A lost reserved tile goes back to the supply: in Level to Level with 4 players, into your own." \
        in section


def test_the_rules_page_says_the_first_tile_must_touch_the_start_tile(language):
    """The base game's "In the first round you lay the tile anywhere" does not hold with a start
    tile: it is a tile of level 0, so the rules refuse a first tile that does not touch it."""
    from nmbr9.rules import Game, Placement, Ruleset, Seat
    language("en")
    section = dict(rules_page(_))["Module: New start tiles"]
    assert any("your first tile must already touch it" in p for p in section)
    g = Game([Seat("A")], list(range(10)) * 2, Ruleset(modules=("start_tiles",)), ["S3"])
    assert g.check(0, Placement(0, 0, 20, 20)).code == "not_adjacent"


def test_the_rules_page_says_what_relocate_moves_and_when_a_marker_is_spent(language):
    """docs/record-plus.md's rulings a player meets at the table were not in the game: Relocate refused a
    gap filler with no rule saying why, and the page did not say what "your highest level" counts."""
    from nmbr9.rules import Game, Placement, Ruleset, Seat
    language("en")
    text = " ".join(dict(rules_page(_))["Module: Breaking Rules"])
    assert "start tiles and gap fillers never move" in text
    assert "gap fillers included" in text and "costs nothing" in text and "only when you confirm" in text
    assert "start tiles and gap fillers do not count" in " ".join(dict(rules_page(_))["Variant: Level to Level"])
    g = Game([Seat("A")], list(range(10)) * 2, Ruleset(modules=("gap_fillers", "breaking_rules"),
                                                       powers=("relocate", "flip")))
    assert g.play(0, Placement(0, 0, 0, 0)) and g.play(0, Placement("F1", 0, 3, 0))
    assert g.check_relocate(0, (3, 0, 0), Placement("F1", 0, 5, 0)).code == "not_movable"


@pytest.mark.parametrize("code", LANGS)
def test_the_rules_page_is_written_in_each_language_with_its_printed_terms(code, language):
    language("en")
    english = rules_page(_)
    language(code)
    page = rules_page(_)
    assert len(page) == len(english) == len(SECTIONS)
    for (heading, paragraphs), (en_heading, en_paragraphs) in zip(page, english):
        assert len(paragraphs) == len(en_paragraphs)
        assert heading != en_heading or heading == "NMBR 9 ++"
        for p, en in zip(paragraphs, en_paragraphs):
            assert p != en, f"{code}: not translated: {en[:60]!r}"
    text = _all_text(page)
    for term in TERMS[code]:
        assert term in text, f"{code}: the rules page never says {term!r}"
    label = _("This game's ruling: {ruling}").split("{ruling}")[0]
    assert sum(1 for _heading, ps in page for p in ps if p.startswith(label)) == 14


def test_every_variant_module_and_power_has_one_name_used_on_the_rules_page(language):
    from nmbr9.i18n import terms
    from nmbr9.rules.game import MODULES, POWERS, VARIANTS
    codes = list(VARIANTS) + list(MODULES) + list(POWERS)
    assert set(terms.NAMES) == set(codes) and set(terms.POWER_RULES) == set(POWERS)
    for code in ["en"] + LANGS:
        language(code)
        names = [terms.name(c) for c in codes]
        assert len(set(names)) == len(names), f"{code}: two codes share a name"
        text = _all_text(rules_page(_))
        for p in POWERS:
            assert f"{terms.name(p)}: {terms.power_rule(p)}" in text, f"{code}: {p} not on the rules page"


def test_a_damaged_catalogue_shows_english_with_one_line_of_explanation(tmp_path, monkeypatch, capsys):
    bad = tmp_path / "de" / "LC_MESSAGES" / "nmbr9.po"
    bad.parent.mkdir(parents=True)
    bad.write_text('msgid "Round {round} of {rounds}"\nmsgstr "Runde {round} von {rounds}\n', encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    monkeypatch.setattr(i18n, "_translations", {})
    monkeypatch.setattr(i18n, "_current", "en")
    set_language("de")
    assert _("Round {round} of {rounds}") == "Round {round} of {rounds}"
    err = capsys.readouterr().err.strip()
    assert "de" in err and "English" in err and "nmbr9.po:2" in err and len(err.splitlines()) == 1


def test_the_same_english_word_can_mean_two_things(language):
    from nmbr9.i18n import pgettext
    language("de")
    assert _("Wins") == "Siege"                        # the tournament column: how many wins
    assert pgettext("result", "Wins") == "Gewinnt"     # beside the winner's name
    language("en")
    assert pgettext("result", "Wins") == "Wins"


def test_a_bad_records_reason_reads_in_the_players_language_and_its_json_stays_english(
        tmp_path, monkeypatch, capsys, language):
    """The reasons and ruleset problems are marked in the rules and translated where a person reads them
    (replay, moves, analyse). A stand-in Spanish catalogue holds them, as the translators' may not yet."""
    from nmbr9 import cli
    stand_in = po.translations(po.parse(
        'msgid "bad ruleset: {problem}"\nmsgstr "reglas erróneas: {problem}"\n\n'
        'msgid "a module is listed twice"\nmsgstr "un módulo aparece dos veces"\n'))
    stand_in.add_fallback(i18n._load("es"))
    monkeypatch.setitem(i18n._translations, "es", stand_in)
    language("es")
    record = tmp_path / "game.json"
    record.write_text(json.dumps({"format": "nmbr9-record", "version": 1, "players": [{"name": "Ana", "kind": "human"}],
                                  "ruleset": {"variant": "classic", "modules": ["gap_fillers", "gap_fillers"]},
                                  "deck": list(range(10)) * 2, "moves": []}))
    said = _("Not a usable game record: {reason}").format(reason="reglas erróneas: un módulo aparece dos veces")
    assert said.startswith("No es un registro")   # the real Spanish around the stand-in's reason
    for command in (["replay", record], ["moves", record, "--player", "0"], ["analyse", record]):
        assert cli.main([*map(str, command)]) == 2
        assert capsys.readouterr().out == said + "\n"
    assert cli.main(["replay", str(record), "--json"]) == 2   # read by programs (spec/game-record.md)
    assert json.loads(capsys.readouterr().out)["error"]["message"] == "bad ruleset: a module is listed twice"


@pytest.mark.parametrize("kept_in", ["autosave", "tournament"])
def test_a_corrupt_save_says_the_rule_its_move_breaks_in_the_players_language(tmp_path, language, kept_in):
    from nmbr9.rules import Seat
    from nmbr9.rules.record import parse_record, replay
    from nmbr9.store import Store, StoreError
    store = Store(tmp_path)
    if kept_in == "tournament":
        t = store.new_tournament([Seat("E", "bot:easy")], games=2, seed=1)
        rec = store.tournament_match(t, threaded=False).record()
    else:
        rec = store.new_match([Seat("Ana")], seed=6).record()
    rec["moves"] = [{"round": 1, "player": 0, "digit": (rec["deck"][0] + 1) % 10, "rotation": 0, "x": 0, "y": 0}]
    language("es")
    rule = replay(parse_record(rec)).verdict
    assert rule.text(_) != rule.message
    if kept_in == "tournament":
        store.db.execute("UPDATE tournament_games SET record = ?", (json.dumps(rec),))
        with pytest.raises(StoreError) as e:
            store.tournament_match(t, threaded=False)
        message = e.value.message
    else:
        store.autosave.path.write_text(json.dumps(rec))
        message = store.continue_game().message
    store.close()
    assert rule.text(_) in message and rule.message not in message


def test_a_full_disk_keeps_the_catalogue_a_translator_was_working_on(tmp_path, monkeypatch):
    """`nmbr9 i18n extract` rewrote each .po in place: cut short, the translations in it were lost."""
    import errno
    import os
    path = tmp_path / "de.po"
    path.write_text("# my translations, not committed yet\n", encoding="utf-8")

    def full(fd, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr("nmbr9.store.files.os.write", full)
    with pytest.raises(OSError, match="No space left on device"):
        po.write(path, po.read(tools.POT))
    assert path.read_text(encoding="utf-8") == "# my translations, not committed yet\n"
    assert os.listdir(tmp_path) == ["de.po"]
