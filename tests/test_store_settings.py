"""Settings kept between runs; a missing, corrupt or odd file never stops the game."""
import json

import pytest

from nmbr9.store import Settings, Store, load_settings, save_settings


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("NMBR9_DATA", str(tmp_path))
    return tmp_path


def test_defaults_without_a_file(folder):
    s = load_settings()
    assert s == Settings()
    assert (s.window_size, s.fullscreen, s.sound, s.language) == ((1280, 720), False, True, None)


def test_settings_are_kept_between_runs(folder):
    chosen = Settings().changed(window_size=(1920, 1080), fullscreen=True, camera_sensitivity=2.5,
                                animation_speed=0.5, sound=False, language="pl")
    Store().save_settings(chosen)
    assert Store().settings() == chosen
    assert json.loads((folder / "settings.json").read_text())["window_size"] == [1920, 1080]
    assert sorted(p.name for p in folder.iterdir()) == ["settings.json"]


def test_a_settings_file_saved_with_a_byte_order_mark_is_read(folder):
    """Edited in Windows' Notepad (UTF-8 with a BOM first): the player's language, not the defaults."""
    (folder / "settings.json").write_bytes(b"\xef\xbb\xbf" + json.dumps({"language": "de"}).encode("utf-8"))
    assert Store().settings().language == "de"


def test_a_corrupt_file_gives_the_defaults(folder):
    (folder / "settings.json").write_text("{ not json")
    assert load_settings() == Settings()
    (folder / "settings.json").write_bytes(b"\xff\xfe")
    assert load_settings() == Settings()
    (folder / "settings.json").write_text("[1, 2]")
    assert load_settings() == Settings()


@pytest.mark.parametrize("content, reason", [
    (b'{"language": "pl", "sound": fal', "not valid JSON (the file ends part way through: cut off, line 1)"),
    (b"", "not valid JSON (the file is empty, line 1)"),
    (b'{"language": "pl", "sound" false}', "not valid JSON (Expecting ':' delimiter, line 1)"),
    (b'{"language": "\xe9"}', "not valid JSON: not UTF-8 text"),
    (b"[1, 2]", "not a JSON object of settings"),   # valid JSON, but no settings in it
    (b'"x"', "not a JSON object of settings"),
])
def test_a_settings_file_that_cannot_be_read_is_said_once_with_the_defaults(folder, content, reason):
    (folder / "settings.json").write_bytes(content)
    store = Store()
    assert store.settings() == Settings()
    assert store.settings_message == (f"The settings file settings.json could not be read ({reason}); the "
                                      "defaults are used. When settings are next saved, it is kept, renamed "
                                      "settings.json.corrupt-….")
    (folder / "settings.json").write_text(json.dumps({"sound": False}))
    assert store.settings() == Settings(sound=False) and store.settings_message is None


def test_a_settings_file_that_cannot_be_read_is_kept_when_settings_are_saved(folder):
    """A hand-edited settings file with one typo: starting a new game (which keeps its seats in the settings)
    or resizing the window wrote the defaults over it, and every setting in it was gone for good."""
    typo = b'{"language": "pl", "window_size": [1600, 900], "sound": false,}'
    (folder / "settings.json").write_bytes(typo)
    store = Store()
    store.save_settings(store.settings().changed(window_size=(1024, 768)))
    kept = list(folder.glob("settings.json.corrupt-*"))
    assert len(kept) == 1 and kept[0].read_bytes() == typo
    assert load_settings().window_size == (1024, 768)
    store.save_settings(load_settings().changed(sound=False))   # a readable file is simply rewritten
    assert len(list(folder.glob("settings.json.corrupt-*"))) == 1 and load_settings().sound is False


def test_a_file_nested_too_deep_or_with_a_huge_number_gives_the_defaults(folder):
    (folder / "settings.json").write_text("[" * 50000 + "]" * 50000)
    assert Store().settings() == Settings()
    (folder / "settings.json").write_text('{"sound": false, "fullscreen": ' + "1" * 5000 + "}")
    assert Store().settings() == Settings()


def test_each_bad_value_falls_back_alone(folder):
    (folder / "settings.json").write_text(json.dumps({
        "window_size": [10, "wide"], "fullscreen": "yes", "camera_sensitivity": 3,
        "animation_speed": 99, "sound": False, "language": "../../etc", "unknown": 1}))
    s = load_settings()
    assert s == Settings(camera_sensitivity=3.0, sound=False)


@pytest.mark.parametrize("offered", [["8619-YREF-BGGE"], ["8619-YREF-BGGE", "8619-YREF-BGGX"],
                                     ["8619-YREF-BGGE", "8619yrefbgge"], "8619-YREF-BGGE"])
def test_puzzles_offered_that_are_not_two_different_puzzle_codes_are_drawn_anew(folder, offered):
    """The Puzzles page's two offered puzzles, kept in the file: a damaged entry is none (two new ones are drawn)."""
    (folder / "settings.json").write_text(json.dumps({"puzzles": {"offered": offered, "player": "Zoe"}}))
    assert load_settings().puzzles is None
    (folder / "settings.json").write_text(json.dumps({"puzzles": {"offered": ["8619yrefbgge", "5HZC-4FV0-E0HR"],
                                                                  "player": "Zoe"}}))
    assert load_settings().puzzles == {"offered": ["8619-YREF-BGGE", "5HZC-4FV0-E0HR"], "player": "Zoe"}


def test_a_language_without_a_translation_is_the_systems_and_kept_for_a_version_that_has_it(folder):
    """"language": "fr" typed in the file: the game spoke English while Settings' Language button said "fr"."""
    (folder / "settings.json").write_text(json.dumps({"language": "fr", "sound": False}))
    store = Store()
    assert store.settings() == Settings(sound=False)          # the button says "System (English)"
    store.save_settings(store.settings().changed(fullscreen=True))
    assert json.loads((folder / "settings.json").read_text())["language"] == "fr"
    assert load_settings().changed(language="pl_PL").language == "pl_PL"


def test_changed_checks_values_like_the_file(folder):
    s = Settings().changed(animation_speed=-1, sound=False)
    assert s.animation_speed == Settings().animation_speed and s.sound is False
    save_settings(s)
    assert load_settings() == s


def test_the_last_new_game_is_kept_and_a_bad_one_falls_back_alone(folder):
    table = {"seats": [{"name": "Ana", "kind": "human"}, {"name": "", "kind": "bot:hard"}], "variant": "two_of_three",
             "modules": ["gap_fillers"], "powers": [], "practice": False}
    save_settings(Settings().changed(new_game=table, sound=False))
    assert load_settings().new_game == table
    for bad in ({**table, "seats": []}, {**table, "seats": [{"name": "Ana", "kind": "bot:genius"}]},
                {**table, "variant": "chess"}, {**table, "modules": ["dice"]}, {**table, "practice": "no"}, [table]):
        (folder / "settings.json").write_text(json.dumps({"sound": False, "new_game": bad}))
        assert load_settings() == Settings(sound=False)


def test_a_new_game_kept_with_the_former_expert_bot_is_offered_with_the_hard_bot(folder):
    """Expert played hard's game and is folded into it: New game offers the seat as hard, not as a strength it
    no longer has (nor drops the whole table)."""
    table = {"seats": [{"name": "Ana", "kind": "human"}, {"name": "", "kind": "bot:expert"}], "variant": "classic",
             "modules": [], "powers": [], "practice": False}
    (folder / "settings.json").write_text(json.dumps({"new_game": table}))
    assert [s["kind"] for s in load_settings().new_game["seats"]] == ["human", "bot:hard"]


def test_settings_a_newer_version_wrote_survive_a_change_made_in_this_one(folder):
    """Keys this version doesn't know were dropped at the next save: a newer version's settings lost."""
    newer = {"colour_blind": True, "table": {"cloth": "green"}}
    (folder / "settings.json").write_text(json.dumps({"sound": False, **newer}))
    store = Store()
    store.save_settings(store.settings().changed(fullscreen=True))
    written = json.loads((folder / "settings.json").read_text())
    assert {k: written[k] for k in newer} == newer and (written["sound"], written["fullscreen"]) == (False, True)
    assert store.settings() == Settings(sound=False, fullscreen=True)


def test_a_settings_file_far_larger_than_the_game_writes_is_not_read(folder):
    """A 1 GB settings file was read whole (26 s, 2 GB of memory) before the window opened."""
    (folder / "settings.json").write_text('{"sound": false}' + " " * 2 ** 20)
    store = Store()
    assert store.settings() == Settings()
    assert store.settings_message == ("The settings file settings.json could not be read (more than 1 MB: far more "
                                      "than the game ever writes); the defaults are used. When settings are next saved, "
                                      "it is kept, renamed settings.json.corrupt-….")


def test_a_newer_versions_value_for_a_known_setting_is_kept_until_the_player_changes_that_setting(folder):
    """A faster animation speed or a New game with a newer module, written by a newer version, was played with
    the default and overwritten by it at the next save of any setting."""
    table = {"seats": [{"name": "Ana", "kind": "human"}], "variant": "two_of_three", "modules": ["time_warp"],
             "powers": [], "practice": False}
    (folder / "settings.json").write_text(json.dumps({"animation_speed": 8, "new_game": table, "sound": True}))
    store = Store()
    assert store.settings() == Settings()                                  # played with the defaults
    store.save_settings(store.settings().changed(sound=False))
    written = json.loads((folder / "settings.json").read_text())
    assert (written["animation_speed"], written["new_game"], written["sound"]) == (8, table, False)
    store.save_settings(store.settings().changed(animation_speed=2))      # the player's own choice wins
    written = json.loads((folder / "settings.json").read_text())
    assert (written["animation_speed"], written["new_game"]) == (2.0, table)
