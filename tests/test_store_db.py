"""The SQLite database: versioned schema, foreign keys, transactions, broken files, puzzle results,
personal bests."""
import sqlite3

import pytest

from nmbr9.rules import Seat
from nmbr9.store import Store, StoreError, add_puzzle_result, open_db, puzzle_results, record_score
from nmbr9.store.records import best_before
from nmbr9.store import db as db_module
from nmbr9.store.db import FILENAME, SCHEMA_VERSION, migrate, transaction
from helpers import damage_page_with, damage_table, read_only


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("NMBR9_DATA", str(tmp_path))
    return tmp_path



def sqlite_error(message: str, name: str) -> sqlite3.OperationalError:
    """An error as SQLite raises it, with the name it gives (`sqlite_errorname`, Python 3.11 on)."""
    e = sqlite3.OperationalError(message)
    e.sqlite_errorname = name
    return e

def test_a_new_database_has_the_current_schema_version_and_foreign_keys(folder):
    db, message = open_db()
    assert message is None
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    with pytest.raises(sqlite3.IntegrityError):
        with transaction(db):
            db.execute("INSERT INTO tournament_games (tournament_id, number, seed, record, started) "
                       "VALUES (999, 1, 1, '{}', 'now')")
    db.close()


def test_migrations_run_once_and_reopening_keeps_the_data(folder):
    store = Store()
    store.new_tournament([Seat("Ana")], games=2, seed=1, name="Spring")
    store.close()
    db, _ = open_db()
    assert migrate(db) == SCHEMA_VERSION          # nothing left to do
    assert [r["name"] for r in db.execute("SELECT name FROM tournaments")] == ["Spring"]
    db.close()


def test_a_transaction_is_all_or_nothing(folder):
    db, _ = open_db()
    with pytest.raises(ZeroDivisionError):
        with transaction(db):
            db.execute("INSERT INTO tournaments (name, created, seed, games, best, ruleset) "
                       "VALUES ('x', 'now', 1, 1, 1, '{}')")
            1 / 0
    assert db.execute("SELECT count(*) FROM tournaments").fetchone()[0] == 0
    db.close()


def test_a_database_from_a_newer_game_is_left_alone(folder):
    db, _ = open_db()
    db.execute("PRAGMA user_version = 99")
    db.close()
    before = (folder / FILENAME).read_bytes()
    with pytest.raises(StoreError, match="newer version"):
        open_db()
    assert (folder / FILENAME).read_bytes() == before


def test_a_full_disk_is_said_as_such_not_as_a_disk_i_o_error(folder, monkeypatch):
    """On a full disk SQLite can't grow the -shm file beside the database and says "disk I/O error": the
    menu said "Can't use the database ...: disk I/O error", as of a failing disk; it now says the disk is
    full, and the database is left as it is."""
    open_db()[0].close()
    before = (folder / FILENAME).read_bytes()

    def full(conn, read_only=False):
        raise sqlite_error("disk I/O error", "SQLITE_IOERR_SHMSIZE")
    monkeypatch.setattr(db_module, "_setup", full)
    with pytest.raises(StoreError) as found:
        open_db()
    assert found.value.message.endswith(": the disk is full (disk I/O error)"), found.value.message
    assert (folder / FILENAME).read_bytes() == before and not list(folder.glob("*.corrupt-*"))


def test_finished_games_whose_scores_were_on_a_damaged_page_are_scored_again(folder):
    """The page of the games' scores damaged: the games and their records were kept, but the Tournaments page
    said "scores in progress" of finished games and the standings counted none of them."""
    store = Store()
    t = store.new_tournament([Seat("E", "bot:easy"), Seat("M", "bot:medium")], games=2, seed=3, name="Cup")
    for _game in range(2):
        store.tournament_match(t, threaded=False).play_out()
    games, standings = store.tournament(t.id).entries(), store.tournament(t.id).standings()
    store.close()
    damage_table(folder / FILENAME, "game_scores")
    store = Store()
    cup = store.tournament(t.id)
    assert [(g.number, g.scores) for g in cup.entries()] == [(g.number, g.scores) for g in games]
    assert cup.standings() == standings
    store.close()


def test_players_on_a_damaged_page_are_read_again_from_their_games_records_and_the_rest_said_lost(folder, capsys):
    """The page of the tournaments' seats damaged: the tournament had no players, every game "scores in progress",
    and `--resume` failed, though each game's record names the players. They are seated again from the records;
    a tournament with no game to name them is said lost, and refused in a sentence."""
    from nmbr9 import cli
    store = Store()
    t = store.new_tournament([Seat("Bot 1", "bot:easy"), Seat("Bot 2", "bot:medium")], games=3, seed=3)
    for _game in range(2):
        store.tournament_match(t, threaded=False).play_out()
    empty = store.new_tournament([Seat("Ana"), Seat("Ben")], games=2, seed=4, name="Friday")
    games, standings = t.entries(), t.standings()
    store.close()
    damage_table(folder / FILENAME, "tournament_seats")
    store = Store()
    cup = store.tournament(t.id)
    assert [(s.name, s.kind) for s in cup.seats] == [("Bot 1", "bot:easy"), ("Bot 2", "bot:medium")]
    assert [(g.number, g.scores) for g in cup.entries()] == [(g.number, g.scores) for g in games]
    assert cup.standings() == standings
    assert store.db_message.endswith("from it. Tournament 1: its players were read again from its games' records. "
                                     "Friday: its players were lost, so it can't be continued.")
    with pytest.raises(StoreError, match="Friday has no players: they were lost when the database was damaged"):
        store.tournament_match(store.tournament(empty.id), threaded=False)
    store.close()
    assert cli.main(["tournament", "--resume", str(t.id)]) == 0, capsys.readouterr().out
    store = Store()
    assert store.tournament(t.id).finished and [s.played for s in store.tournament(t.id).standings()] == [3, 3]
    store.close()


def test_a_database_cut_off_part_way_keeps_what_it_holds(folder):
    """A database file cut off (a copy that stopped, a disk that filled): SQLite reads nothing of a file
    shorter than its header says, so every tournament and result was set aside with it. The pages that are
    there are read now: the tournaments and puzzle results in them are kept, the games past the cut are not."""
    store = Store()
    t = store.new_tournament([Seat("E", "bot:easy")], games=3, seed=1, name="Cup")
    add_puzzle_result(store.db, "0ABC-DEFG-HJKM", "Ana", 71, {"moves": []})
    for _game in range(3):
        store.tournament_match(t, threaded=False).play_out()
    store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    # the cut falls past the list of tables (grown past its first page, it has pages further on), in the games
    schema = max(p for (p,) in store.db.execute("SELECT pageno FROM dbstat "
                                                 "WHERE name IN ('sqlite_master', 'sqlite_schema')"))
    page = store.db.execute("PRAGMA page_size").fetchone()[0]
    store.close()
    whole = (folder / FILENAME).read_bytes()
    (folder / FILENAME).write_bytes(whole[:(schema * page + len(whole)) // 2 + 100])   # not at a page's end
    store = Store()
    assert [s.name for s in store.tournaments()] == ["Cup"]
    assert "a new one was started with everything that could still be read" in store.db_message
    assert [(r.player, r.score) for r in puzzle_results(store.db, "0ABC-DEFG-HJKM")] == [("Ana", 71)]
    assert len(store.tournament(t.id).entries()) < 3
    store.close()


def test_on_a_full_disk_the_history_is_shown_and_the_full_disk_said(folder, monkeypatch):
    """A full disk (SQLite can't grow the -shm file to open the database for writing): the Tournaments and
    Puzzles pages showed only "Can't use the database ...: the disk is full", no tournament, no result. The
    database is now read as from a read-only disk, and the message says why nothing new is stored."""
    store = Store()
    store.new_tournament([Seat("Ana")], games=1, seed=1, name="Cup")
    add_puzzle_result(store.db, "0ABC-DEFG-HJKM", "Ana", 71, {"moves": []})
    store.close()
    setup = db_module._setup

    def full(conn, read_only=False):   # reading needs no room
        if not read_only:
            raise sqlite_error("disk I/O error", "SQLITE_IOERR_SHMSIZE")
        setup(conn, read_only)
    monkeypatch.setattr(db_module, "_setup", full)
    store = Store()
    assert [t.name for t in store.tournaments()] == ["Cup"]
    assert [(r.player, r.score) for r in puzzle_results(store.db, "0ABC-DEFG-HJKM")] == [("Ana", 71)]
    assert store.db_message == (f"The disk holding the database {folder / FILENAME} is full: your tournaments and "
                                "bests are shown, but nothing new is stored: make room on it and start NMBR 9 3D "
                                "again.")
    with pytest.raises(StoreError):
        store.new_tournament([Seat("Ben")], games=1, seed=2)
    store.close()


def test_a_database_the_full_disk_left_unmade_says_the_disk_is_full(folder, monkeypatch):
    """A data folder on a disk too full for the new database's log (a 64 KB tmpfs): its tables were never
    made, and the menu, the Tournaments page and the results said "The database ... was written by an older
    version of NMBR 9 3D and can't be written", of the one this game had just begun. The full disk is said."""
    sqlite3.connect(folder / FILENAME).execute("PRAGMA journal_mode = WAL").fetchone()   # made, no table in it

    def migrate_on_a_full_disk(conn, upto=None):
        raise sqlite_error("database or disk is full", "SQLITE_FULL")
    monkeypatch.setattr(db_module, "migrate", migrate_on_a_full_disk)
    with pytest.raises(StoreError) as found:
        open_db()
    assert found.value.message == f"Can't use the database {folder / FILENAME}: database or disk is full"


def test_a_file_that_is_not_a_database_is_set_aside(folder):
    (folder / FILENAME).write_bytes(b"this is not sqlite" * 100)
    store = Store()
    assert store.tournaments() == []
    kept = [p for p in folder.iterdir() if p.name.startswith(FILENAME + ".corrupt-")]
    assert len(kept) == 1 and kept[0].read_bytes() == b"this is not sqlite" * 100
    assert kept[0].name in store.db_message
    store.new_tournament([Seat("Ana")], games=1, seed=1)
    assert len(store.tournaments()) == 1


def test_a_database_damaged_inside_is_set_aside_when_opened_not_met_later(folder):
    """A page overwritten in the middle (a bad sector): the file opens and the tournaments table reads, but
    the history failed with SQLite's "malformed" on the Tournaments page, nothing set aside. What still
    reads is kept: the tournament, not its games (the damaged page is their table's first)."""
    store = Store()
    t = store.new_tournament([Seat("E", "bot:easy")], games=2, seed=1)
    store.tournament_match(t, threaded=False).play_out()
    store.close()
    damaged = damage_table(folder / FILENAME, "tournament_games")
    store = Store()
    assert [s.name for s in store.tournaments()] == [t.name] and store.tournament(t.id).entries() == []
    kept = [p for p in folder.iterdir() if p.name.startswith(FILENAME + ".corrupt-")]
    assert len(kept) == 1 and kept[0].read_bytes() == damaged
    assert store.db_message == (f"The database was damaged (database disk image is malformed). It was kept as "
                                f"{kept[0].name}, and a new one was started with everything that could still "
                                f"be read from it.")
    store.new_tournament([Seat("Ana")], games=1, seed=1)
    assert len(store.tournaments()) == 2
    store.close()


def test_one_damaged_page_loses_the_rows_on_it_not_the_whole_history(folder):
    """A bad sector under one game of a tournament set the whole database aside: every tournament, puzzle
    result and personal best was gone from the game (kept only in the file set aside). Now the new database
    starts with every row that still reads; the lost game is the one played again."""
    from nmbr9.rules import Ruleset
    store = Store()
    t = store.new_tournament([Seat("E", "bot:easy"), Seat("M", "bot:easy")], games=4, seed=1, name="Cup")
    for _game in range(3):
        store.tournament_match(t, threaded=False).play_out()
    add_puzzle_result(store.db, "0ABC-DEFG-HJKM", "Ana", 71, {"moves": []})
    record_score(store.db, "Ana", Ruleset().to_json(), 97, "game 1", 0)
    games = store.tournament(t.id).entries()
    second = store.db.execute("SELECT record FROM tournament_games WHERE number = 2").fetchone()[0]
    store.close()
    damage_page_with(folder / FILENAME, second[:300])
    store = Store()
    assert [s.name for s in store.tournaments()] == ["Cup"]
    assert "a new one was started with everything that could still be read" in store.db_message
    cup = store.tournament(t.id)
    assert [(g.number, g.scores) for g in cup.entries()] == [(g.number, g.scores) for g in games if g.number != 2]
    assert [s.played for s in cup.standings()] == [2, 2]
    assert [(r.player, r.score) for r in puzzle_results(store.db, "0ABC-DEFG-HJKM")] == [("Ana", 71)]
    assert best_before(store.db, "Ana", Ruleset().to_json(), "game 2").score == 97
    assert store.tournament_match(cup, threaded=False).tournament["game"] == 2
    store.close()


def test_puzzle_results_share_the_database(folder):
    store = Store()
    add_puzzle_result(store.db, "0ABC-DEFG-HJKM", "Ana", 71, {"moves": []}, played="2026-01-01T10:00:00+00:00")
    add_puzzle_result(store.db, "0ABC-DEFG-HJKM", "Ben", 88, {"moves": [1]}, played="2026-01-02T10:00:00+00:00")
    add_puzzle_result(store.db, "0ABC-DEFG-HJKM", "Bot", 71, {}, kind="bot:hard", played="2026-01-03T10:00:00+00:00")
    add_puzzle_result(store.db, "ZZZZ-ZZZZ-ZZZZ", "Ana", 99, {})
    board = puzzle_results(store.db, "0ABC-DEFG-HJKM")
    assert [(r.player, r.score) for r in board] == [("Ben", 88), ("Ana", 71), ("Bot", 71)]
    assert board[0].record == {"moves": [1]} and board[2].kind == "bot:hard"


def test_an_upgrade_runs_once_and_keeps_the_data(folder, monkeypatch):
    store = Store()
    store.new_tournament([Seat("Ana")], games=1, seed=1, name="Old")
    store.close()
    upgrade = ["ALTER TABLE tournaments ADD COLUMN note TEXT", "UPDATE tournaments SET note = 'upgraded'"]
    monkeypatch.setattr(db_module, "MIGRATIONS", db_module.MIGRATIONS + [upgrade])
    monkeypatch.setattr(db_module, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    db, message = open_db()
    assert message is None and db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1
    assert [tuple(r) for r in db.execute("SELECT name, note FROM tournaments")] == [("Old", "upgraded")]
    db.close()


def test_a_failed_upgrade_leaves_the_old_database_untouched(folder, monkeypatch):
    store = Store()
    store.new_tournament([Seat("Ana")], games=1, seed=1, name="Old")
    store.close()
    broken = ["ALTER TABLE tournaments ADD COLUMN note TEXT", "UPDATE no_such_table SET x = 1"]
    monkeypatch.setattr(db_module, "MIGRATIONS", db_module.MIGRATIONS + [broken])
    monkeypatch.setattr(db_module, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    with pytest.raises(StoreError, match="no_such_table"):
        open_db()
    assert not [p for p in folder.iterdir() if "corrupt" in p.name], "a failed upgrade is not a damaged file"
    monkeypatch.setattr(db_module, "MIGRATIONS", db_module.MIGRATIONS[:-1])
    monkeypatch.setattr(db_module, "SCHEMA_VERSION", SCHEMA_VERSION)
    db, _ = open_db()
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert "note" not in [r["name"] for r in db.execute("PRAGMA table_info(tournaments)")], "rolled back"
    assert [r["name"] for r in db.execute("SELECT name FROM tournaments")] == ["Old"]
    db.close()


def test_personal_bests_are_per_player_and_rules_and_each_game_counts_once(folder):
    from nmbr9.rules import Ruleset
    db, _ = open_db()
    classic, plus = Ruleset().to_json(), Ruleset("two_of_three").to_json()
    def best(player, rules, score, game, seat, played=None):
        """What the results show beside this game (the best before it), then the game kept."""
        before = best_before(db, player, rules, game)
        record_score(db, player, rules, score, game, seat, played)
        return before and (before.score, before.played)

    assert best("Ana", classic, 80, "game 1", 0, "2026-01-01T10:00:00Z") is None   # her first
    assert best("Ana", classic, 95, "game 2", 0, "2026-01-02T10:00:00Z") == (80, "2026-01-01T10:00:00Z")
    assert best("Ana", classic, 95, "game 2", 0)[0] == 80       # the same game again: once
    assert best("Ana", classic, 70, "game 3", 0) == (95, "2026-01-02T10:00:00Z")
    assert best("Ana", plus, 50, "game 4", 0) is None              # other rules, other bests
    assert best("Ben", classic, 60, "game 3", 1) is None           # the same game, another seat
    assert db.execute("SELECT count(*) FROM personal_scores").fetchone()[0] == 5
    db.close()


def test_names_the_game_gave_in_another_language_join_their_english_name_on_upgrade(folder, monkeypatch):
    """Before version 3 a default name was kept as the language of the day had it: "Spieler 1"'s bests and a
    puzzle's "Bot fácil" were another player than "Player 1" and "Easy bot". Typed names stay as typed."""
    from nmbr9.rules import Ruleset
    classic = Ruleset().to_json()
    monkeypatch.setattr(db_module, "MIGRATIONS", db_module.MIGRATIONS[:2])
    monkeypatch.setattr(db_module, "SCHEMA_VERSION", 2)
    db, _ = open_db()
    record_score(db, "Spieler 1", classic, 97, "game 1", 0, "2026-01-01T10:00:00Z")
    record_score(db, "Gracz 2", classic, 64, "game 1", 1)
    record_score(db, "Spielerin", classic, 70, "game 1", 2)
    add_puzzle_result(db, "ABCD", "Jugador 1", 81, {"moves": []})
    add_puzzle_result(db, "ABCD", "Bot fácil", 40, {"moves": []}, kind="bot:easy")
    add_puzzle_result(db, "ABCD", "Bot fácil", 45, {"moves": []})   # a human who typed it: as typed
    db.close()
    monkeypatch.undo()
    monkeypatch.setenv("NMBR9_DATA", str(folder))
    db, _ = open_db()
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert best_before(db, "Player 1", classic, "game 2").score == 97    # one player in every language
    assert best_before(db, "Player 2", classic, "game 2").score == 64
    assert best_before(db, "Spielerin", classic, "game 2").score == 70
    assert sorted((r.player, r.kind) for r in puzzle_results(db, "ABCD")) == [
        ("Bot fácil", "human"), ("Easy bot", "bot:easy"), ("Player 1", "human")]
    db.close()


def test_a_damaged_personal_score_row_is_no_best(folder):
    """The results screen compares this game's score with the best: a damaged row (rules not JSON,
    a score that is no number) must neither crash it nor be called the best."""
    from nmbr9.rules import Ruleset
    db, _ = open_db()
    classic = Ruleset().to_json()
    record_score(db, "Ana", classic, 80, "game 1", 0)
    record_score(db, "Ana", classic, 90, "game 2", 0)
    record_score(db, "Ana", classic, 99, "game 3", 0)
    db.execute("UPDATE personal_scores SET score = '9x' WHERE game = 'game 2'")
    db.execute("UPDATE personal_scores SET ruleset = '{\"variant' WHERE game = 'game 3'")
    assert best_before(db, "Ana", classic, "game 4").score == 80
    db.close()


def test_a_database_on_a_read_only_disk_is_read_and_nothing_written(folder):
    """A read-only data folder hid every tournament and puzzle result ("unable to open database file")."""
    store = Store()
    store.new_tournament([Seat("Ana")], games=2, seed=1, name="Spring")
    add_puzzle_result(store.db, "0ABC-DEFG-HJKM", "Ana", 71, {"moves": []})
    store.close()
    files = {p.name: p.read_bytes() for p in folder.iterdir()}
    with read_only(folder):
        store = Store()
        assert [t.name for t in store.tournaments()] == ["Spring"]
        assert [r.score for r in puzzle_results(store.db, "0ABC-DEFG-HJKM")] == [71]
        assert store.db_message == (f"The database {folder / FILENAME} can't be written: your tournaments and bests "
                                    "are shown, but nothing new is stored.")
        with pytest.raises(StoreError) as why:
            store.new_tournament([Seat("Ben")], games=1, seed=2)
        assert why.value.message == f"Could not store the tournament: the data folder {folder} can't be written"
        store.close()
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == files


def test_a_read_only_data_folder_without_a_database_yet_is_said_in_words(folder):
    """An empty data folder on a read-only disk: "Can't open the database ...: unable to open database file"."""
    with read_only(folder):
        with pytest.raises(StoreError) as why:
            Store().tournaments()
    assert why.value.message == (f"Can't open the database {folder / FILENAME}: the data folder {folder} can't be "
                                 "written")


def test_games_left_in_the_write_ahead_log_are_read_from_a_read_only_disk(folder):
    """The game ended abruptly, its database's last writes still in the -wal file, then the disk became
    read-only: those are read too (immutable=1 would read the main file alone)."""
    writer = Store()
    writer.new_tournament([Seat("Ana")], games=2, seed=1, name="Spring")
    assert (folder / (FILENAME + "-wal")).stat().st_size > 0
    with read_only(folder):
        store = Store()
        assert [t.name for t in store.tournaments()] == ["Spring"]
        store.close()
    writer.close()


def test_an_older_database_on_a_read_only_disk_is_said_so_and_its_tournament_game_waits(folder):
    """An older game's database that can't be written: the menu said only "Can't use the database ...: attempt
    to write a readonly database", and Continue played the tournament's game on as a game of its own, its
    rounds never reaching the tournament. Now: a sentence saying why, and the game waits for its database."""
    from nmbr9.match import Match
    store = Store()
    t = store.new_tournament([Seat("Ana"), Seat("Bo", "bot:easy")], games=2, seed=1, name="Spring")
    m = store.play_tournament(t, threaded=False)
    p = m.legal_placements(0)[0]
    m.play(0, p)
    m.run_bots()
    store.close()
    db = sqlite3.connect(folder / FILENAME)                   # as the game before personal bests left it
    for later in ("personal_scores", "rumbugz_scores", "rumbugz_games"):
        db.execute(f"DROP TABLE {later}")
    db.execute("ALTER TABLE tournaments DROP COLUMN game")
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()
    files = {p.name: p.read_bytes() for p in folder.iterdir()}
    with read_only(folder):
        store = Store()
        found = store.continue_game(threaded=False)
        assert found.match is None and "Continue offers it again once it can" in found.message
        with pytest.raises(StoreError) as why:                 # the menu's other line
            store.tournaments()
        assert "written by an older version of NMBR 9 3D and can't be written" in why.value.message
        assert "attempt to write" not in why.value.message
        store.close()
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == files   # nothing changed
    store = Store()                                           # the disk writable again: upgraded, the game goes on
    found = store.continue_game(threaded=False)
    assert found.match.tournament == {"id": t.id, "game": 1} and len(found.match.game.moves) == 2
    store.close()
