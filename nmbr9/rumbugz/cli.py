"""`nmbr9 rumbugz ...`: replay and check records, read a sequence, list a player's moves, play bots' games."""
from __future__ import annotations

import json
from pathlib import Path

from ..i18n import _

RECORD = "a RumBugz round record: JSON as spec/rumbugz.md fixes it"
EXIT_STATUS = "exit status: 0 legal, 1 a move breaks a rule (its code and move said), 2 not a usable record"


def add_parser(sub) -> None:
    """The `rumbugz` command and its own commands, under nmbr9's."""
    p = sub.add_parser("rumbugz", help="RumBugz, the rummy game with NumBugz: records, moves, bots' games")
    commands = p.add_subparsers(dest="rumbugz", required=True, help="what to do (each has its own --help)")
    c = commands.add_parser("replay", help="check a round's record move by move", epilog=EXIT_STATUS)
    c.add_argument("file", help=RECORD)
    c.add_argument("--json", action="store_true", help='{"ok", "complete", "winner", "scores", "hands"}, or '
                                                       '{"ok": false, "error": {"code", "move", "player", "message"}}')
    c = commands.add_parser("sequence", help="is this a sequence, and of which kind (exit status 1 if not)")
    c.add_argument("bugs", nargs="+", metavar="BUG", help='"1" to "12", a PLYT as "P" and the number it stands '
                                                          'for ("P7")')
    c.add_argument("--json", action="store_true", help='{"ok", "kind", "values"} or {"ok": false, "message"}')
    c = commands.add_parser("moves", help="what a player may do next, each as a record move",
                            epilog=EXIT_STATUS + "; 1 too for a player the round does not have")
    c.add_argument("file", help=RECORD)
    c.add_argument("--player", type=int, required=True, help="0 is the record's first player")
    c.add_argument("--json", action="store_true", help="a JSON list of record moves")
    c = commands.add_parser("play", help="a game of bots without a window: each round's winner and points, "
                                         "the totals; writes each round's record")
    c.add_argument("--bots", default="hard,medium", help="one strength a player: easy, medium, hard "
                                                         "(2 to 6 of them; default hard,medium)")
    c.add_argument("--rounds", type=int, default=3, help="rounds in the game (default 3)")
    c.add_argument("--seed", type=int, default=None, help="the game's shuffles and bots follow from it "
                                                          "(default: random)")
    c.add_argument("--out", default=None, help="folder for the records (default: rumbugz/ in the data folder)")
    p.set_defaults(func=main)


def main(args) -> int:
    return {"replay": cmd_replay, "sequence": cmd_sequence, "moves": cmd_moves, "play": cmd_play}[args.rumbugz](args)


def _print_json(obj) -> None:
    print(json.dumps(obj))


def _replayed(args):
    """The record's replay, or the exit status of a file that is not a usable record."""
    from ..cli import _bad_record
    from .rules import RecordError, load_record, replay
    try:
        return replay(load_record(args.file)), None
    except RecordError as e:
        return None, _bad_record(args, e)


def cmd_replay(args) -> int:
    from ..match import seat_told
    result, status = _replayed(args)
    if result is None:
        return status
    out = result.to_json()
    if args.json:
        _print_json(out)
    elif not result.ok:
        print_illegal(result)
    else:
        game, record = result.game, result.players
        if game.winner is not None:
            print(_("Legal round: {name} went out and wins {points} points.").format(
                name=seat_told(record[game.winner]["name"], record[game.winner]["kind"]), points=out["scores"][game.winner]))
        elif game.over:
            print(_("Legal round: it ended without a winner (the bag and the discard pile ran out)."))
        else:
            print(_("Legal round so far: it goes on."))
        print(_("Bugs in each hand: {hands}").format(
            hands=", ".join(f"{seat_told(p['name'], p['kind'])}: {n}" for p, n in zip(record, out["hands"]))))
    return 0 if result.ok else 1


def print_illegal(result) -> None:
    print(_("Illegal move {move} (player {player}): {code}").format(**result.error))
    print("  " + result.verdict.text(_))


def cmd_sequence(args) -> int:
    from .rules import read_sequence
    from .rules.bugs import KIND_NAMES
    kind, values, verdict = read_sequence(args.bugs)
    if args.json:
        _print_json({"ok": True, "kind": kind, "values": values} if verdict else
                    {"ok": False, "message": verdict.message})
    elif verdict:
        print(_("A {kind} sequence: {values}").format(kind=_(KIND_NAMES[kind]),
                                                      values=" ".join(map(str, values))))
    else:
        print(verdict.text(_))
    return 0 if verdict else 1


def cmd_moves(args) -> int:
    from ..rules.game import no_player
    from .rules import legal_moves
    result, status = _replayed(args)
    if result is None:
        return status
    if not result.ok:
        _print_json(result.to_json()) if args.json else print_illegal(result)
        return 1
    game = result.game
    if not 0 <= args.player < game.players:
        refusal = no_player(args.player, game.players)
        _print_json({"ok": False, "error": {"code": refusal.code, "move": None, "player": args.player,
                                            "message": refusal.message}}) if args.json else print(refusal.text(_))
        return 1
    moves = legal_moves(game.view(args.player))
    if args.json:
        _print_json(moves)
    elif not moves:
        print(_("Nothing to do now: it is not this player's move."))
    else:
        for move in moves:
            print(describe(move))
    return 0


def describe(move: dict) -> str:
    """A record move in words."""
    if "draw" in move:
        return _("draw a bug from the bag") if move["draw"] == "bag" else _("take the top of the discard pile")
    if "bid" in move:
        return _("bid for the discard")
    if "lay" in move:
        return _("lay {bugs}").format(bugs=" ".join(move["lay"]))
    if "change" in move:
        return _("change sequence {index} to {bugs}").format(index=move["change"], bugs=" ".join(move["to"]))
    return _("discard {bug}").format(bug=move["discard"])


def cmd_play(args) -> int:
    import random

    from ..match import seat_told
    from ..paths import data_dir
    from .bots import STRENGTHS, make_bot
    from .play import play_game
    levels = [b.strip() for b in args.bots.split(",") if b.strip()]
    if not 2 <= len(levels) <= 6 or any(b not in STRENGTHS for b in levels):
        print(_("--bots needs 2 to 6 strengths, each one of: {strengths}").format(strengths=", ".join(STRENGTHS)))
        return 2
    if args.rounds < 1:
        print(_("--rounds must be at least 1"))
        return 2
    seed = random.SystemRandom().randrange(2 ** 32) if args.seed is None else args.seed
    folder = Path(args.out) if args.out else data_dir() / "rumbugz"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        print(_("Can't write the records to {folder}: {error}").format(folder=folder, error=e.strerror or e))
        return 2
    seats = [{"name": f"Bot {i + 1}", "kind": f"bot:{level}"} for i, level in enumerate(levels)]
    names = [seat_told(s["name"], s["kind"]) for s in seats]
    bots = [make_bot(level, seed * 10 + i) for i, level in enumerate(levels)]
    totals = [0] * len(seats)
    for number, played in enumerate(play_game(bots, seats, args.rounds, seed), start=1):
        path = folder / f"rumbugz-{seed}-round-{number}.json"
        path.write_text(json.dumps(played.record))
        game = played.round
        if game.winner is None:
            print(_("Round {round}: no winner ({turns} turns).").format(round=number, turns=played.turns))
        else:
            points = game.scores()[game.winner]
            print(_("Round {round}: {name} went out and wins {points} points ({turns} turns).").format(
                round=number, name=names[game.winner], points=points, turns=played.turns))
        totals = [t + s for t, s in zip(totals, game.scores())]
    print(_("Totals: {totals}").format(totals=", ".join(f"{n}: {t}" for n, t in zip(names, totals))))
    best = [n for n, t in zip(names, totals) if t == max(totals)]
    print(_("{name} wins the game.").format(name=best[0]) if len(best) == 1 else
          _("{names} share the win.").format(names=", ".join(best)))
    print(_("Records (seed {seed}): {folder}").format(seed=seed, folder=folder))
    return 0

