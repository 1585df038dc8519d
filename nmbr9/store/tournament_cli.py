"""`nmbr9 tournament`: bot-only tournaments without a window, and the tournament history."""
from __future__ import annotations

import sqlite3
import sys

from ..ai import FORMER_STRENGTHS, STRENGTHS, current_strength
from ..i18n import _, ngettext
from ..match import default_name, seat_name, seat_told, stored_name
from ..rules import Ruleset, Seat
from ..rules.text import as_json
from . import Store, StoreError, Tournament, folder_problem
from .db import sqlite_reason
from .files import held_by, hold_folder, let_go
from .tournaments import COMMAND, RUMBUGZ, WINDOW, lock_name, unfinished_alike
from ..rumbugz.game import DEFAULT_ROUNDS
from ..rumbugz.play import GameRules


def bot_seats(spec: str) -> list[Seat]:
    """'hard,medium,easy' -> seats named as New game names bots ('Bot 1', a hard bot; ...); ValueError with a
    clear message. A former strength ("expert") plays as the strength that replaced it, and a note on stderr says so."""
    names = [s.strip().lower() for s in spec.split(",")]
    if not 1 <= len(names) <= 6:
        raise ValueError(_("--bots needs 1 to 6 strengths separated by commas, e.g. hard,medium,easy"))
    if "" in names:   # (dropped, "hard,,easy" played a bot fewer than asked, without a word)
        raise ValueError(_("--bots {bots} has an empty strength (two commas together, or one at an end): give 1 "
                           "to 6 strengths separated by commas, e.g. hard,medium,easy").format(bots=as_json(spec)))
    for n in names:
        if n not in STRENGTHS and n not in FORMER_STRENGTHS:
            raise ValueError(_("unknown bot strength {name} (choose from {known})").format(
                name=as_json(n), known=", ".join(STRENGTHS)))
    for n in sorted(set(names) & set(FORMER_STRENGTHS)):
        print(_("Note: {former} is now {strength} (the two played the same game): {strength} plays.").format(
            former=n, strength=current_strength(n)), file=sys.stderr)
    names = [current_strength(n) for n in names]
    return [Seat(stored_name(default_name(i, f"bot:{n}")), f"bot:{n}") for i, n in enumerate(names)]


def print_standings(t: Tournament) -> None:
    state = _("finished") if t.finished else ngettext("{played} of {games} game played",
                                                      "{played} of {games} games played", t.games).format(
        played=t.played, games=t.games)
    print(_("{name}: {games}, {best}, seed {seed} ({state})").format(
        name=t.name, games=t.games_told(), best=t.best_told(), seed=t.seed, state=state))
    if t.game == RUMBUGZ:
        print(t.ruleset.told())
    width = max([len(seat_told(s.name, s.kind)) for s in t.seats] + [6])
    print(f"{_('Place'):>5}  {_('Player'):<{width}}  {_('Best'):>5}  {_('Total'):>5}  {_('Wins'):>4}  {_('Games'):>5}")
    for s in t.standings():   # games played, as the Tournament screen counts them (each game's scores: --show)
        name = seat_told(s.name, s.kind)
        print(f"{s.place_told:>5}  {name:<{width}}  {s.best:>5}  {s.total:>5}  {s.wins:>4}  {s.played:>5}")


def play(t: Tournament) -> None:
    """Play the tournament's remaining games, all bots; progress on stderr.

    The database alone keeps the game in progress: the player's autosave is left alone.
    """
    tty = sys.stderr.isatty()
    if t.game == RUMBUGZ:
        play_rumbugz(t, tty)
        return
    while (match := t.next_match(threaded=False)) is not None:
        number = match.tournament["game"]

        def progress(m, number=number):
            if tty:
                print(f"\r{_('game {n}/{games}, round {r}/{rounds}').format(n=number, games=t.games, r=min(m.round, m.rounds), rounds=m.rounds)}",
                      end="", file=sys.stderr, flush=True)

        results = match.play_out(progress)
        if match.save_error:
            raise StoreError(match.save_error)
        scores = ", ".join(f"{seat_name(r.name, r.kind)} {r.score}" for r in sorted(results, key=lambda r: r.seat))
        print(("\r" if tty else "") + _("game {n}/{games}: {scores}").format(n=number, games=t.games, scores=scores),
              file=sys.stderr, flush=True)


def play_rumbugz(t: Tournament, tty: bool) -> None:
    """`play` for a RumBugz tournament: each round is stored once played (`--resume` goes on from it)."""
    from .rumbugz import play_tournament_game, tournament_game
    while (found := tournament_game(t)) is not None:
        number, record = found

        def progress(played, number=number):
            if tty:
                print(f"\r{_('game {n}/{games}, round {r}/{rounds}').format(n=number, games=t.games, r=played, rounds=t.ruleset.rounds)}",
                      end="", file=sys.stderr, flush=True)

        totals = play_tournament_game(t, number, record, progress)
        scores = ", ".join(f"{seat_name(s.name, s.kind)} {n}" for s, n in zip(t.seats, totals))
        print(("\r" if tty else "") + _("game {n}/{games}: {scores}").format(n=number, games=t.games, scores=scores),
              file=sys.stderr, flush=True)


def main(args) -> int:
    try:
        store = Store()
    except OSError as e:   # the data folder can't be made or written
        print(_("Can't open the tournament database {path}: {reason}").format(path=e.filename,
                                                                              reason=folder_problem(e)))
        return 1
    try:
        store.db   # opened first, so a broken database set aside is said before anything else
        if store.db_message:
            print(store.db_message, file=sys.stderr)
        if args.list:
            for s in store.tournaments():
                state = _("finished") if s.finished else _("{played}/{games} played").format(
                    played=s.played, games=s.games)
                players = ", ".join(seat_told(p.name, p.kind) for p in s.players)
                game = "  RumBugz" if s.game == RUMBUGZ else ""
                print(f"{s.id:>4}  {s.created}  {s.name}{game}  ({state})  {players}")
            return 0
        if args.show is not None:
            t = store.tournament(args.show)
            print_standings(t)
            for e in t.entries():   # each score with its player, as the games are played ("Bot 1 102, ..."): the
                # standings above are in their places' order, a game's bare scores in the seats'
                scores = ", ".join(f"{seat_name(s.name, s.kind)} {n}" for s, n in zip(t.seats, e.scores)) \
                    if e.scores else _("in progress")
                print(_("  game {n}: seed {seed}, scores {scores}").format(n=e.number, seed=e.seed, scores=scores))
            return 0
        if args.resume is not None:
            t = store.tournament(args.resume)
            if not all(s.is_bot for s in t.seats):
                print(_("Tournament {id} has human players: continue it in the game.").format(id=t.id))
                return 2
        else:
            if not args.bots:
                print(_("Say which bots play, e.g. --bots hard,medium,easy (or --list, --show ID, --resume ID)."))
                return 2
            seats = bot_seats(args.bots)
            best = args.games if args.best is None else args.best
            if args.games < 1 or not 1 <= best <= args.games:
                print(_("--games must be at least 1 and --best between 1 and --games."))
                return 2
            if args.rounds is not None and args.game != RUMBUGZ:
                print(_("--rounds is for RumBugz tournaments (--game rumbugz): an NMBR 9 game is its 20 cards."))
                return 2
            rounds = DEFAULT_ROUNDS if args.rounds is None else args.rounds
            if rounds < 1:
                print(_("--rounds must be at least 1"))
                return 2
            ruleset = GameRules(rounds) if args.game == RUMBUGZ else Ruleset()
            t = store.new_tournament(seats, args.games, best, args.seed, args.name, ruleset)   # (the seed checked)
            print(_("{name} (id {id}), stored in {path}").format(name=t.name, id=t.id, path=store.folder),
                  file=sys.stderr)
            alike = unfinished_alike(store.db, seats, args.games, best, t.seed, ruleset) if args.seed is not None \
                else []   # (run again after a kill, the command started another without a word)
            for other in alike:
                if other.id != t.id:
                    print(_("{name} (id {id}) has the same bots, games and seed and is unfinished ({played}/{games} "
                            "played): this run starts a new tournament; to finish that one instead, stop this and "
                            "run nmbr9 tournament --resume {id}").format(name=other.name, id=other.id,
                                                                         played=other.played, games=other.games),
                          file=sys.stderr)
        # two commands (or the window) playing one tournament both started its next game: one ended in "UNIQUE
        # constraint failed"
        try:
            held, lock = hold_folder(store.folder, wait=0, name=lock_name(t.id), who=COMMAND)
        except OSError:   # its lock can't be opened: perhaps held, never played twice at once
            held = False
        if not held:
            if held_by(store.folder, lock_name(t.id)) == WINDOW:
                print(_("Tournament {id} is being played in the NMBR 9 3D window: go back to its menu there (the "
                        "game is saved), or quit it, then try again.").format(id=t.id))
            else:
                print(_("Tournament {id} is being played by another nmbr9 tournament command: let it finish, or "
                        "stop it first.").format(id=t.id))
            return 1
        try:
            play(t)
        finally:
            if lock is not None:
                let_go(lock)
        print_standings(t)
        return 0
    except ValueError as e:
        print(e)
        return 2
    except StoreError as e:
        print(e.message)
        return 1
    except sqlite3.Error as e:   # a full disk (what was stored before is kept), a database locked by another program
        if args.list or args.show is not None:
            print(_("Could not read the tournaments: {reason}").format(reason=e))
        else:
            print(_("Could not store the tournament: {reason}").format(reason=sqlite_reason(e, store.folder)))
        return 1
    finally:
        store.close()
