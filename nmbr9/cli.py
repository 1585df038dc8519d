"""The `nmbr9` command: play (the default), and tools for records, art and benchmarks."""
from __future__ import annotations

import argparse
import json
import sys

from .i18n import _, ngettext


def _print_json(obj) -> None:
    print(json.dumps(obj))


def cmd_replay(args) -> int:
    from .match import seat_name
    from .rules.record import RecordError, load_record, replay
    try:
        result = replay(load_record(args.file))
    except RecordError as e:
        return _bad_record(args, e)
    out = result.to_json()
    if args.json:
        _print_json(out)
    elif result.ok:
        names = [seat_name(s.name, s.kind) for s in result.game.seats]
        state = _("complete") if out["complete"] else \
            ngettext("in progress, {rounds} round played", "in progress, {rounds} rounds played",
                     out["rounds"]).format(rounds=out["rounds"])
        print(_("Legal game ({state}). Scores: {scores}").format(
            state=state, scores=", ".join(f"{n}: {s}" for n, s in zip(names, out["scores"]))))   # as the table lists them
    else:
        print_illegal(result)
    return 0 if result.ok else 1


def print_illegal(result) -> None:
    """Which move of a record breaks a rule, and the rule, in the player's language."""
    print(_("Illegal move {move} (round {round}, player {player}): {code}").format(**result.error))
    print("  " + result.verdict.text(_))


def cmd_moves(args) -> int:
    from .rules.board import N_, refuse
    from .rules.game import LEVEL_TO_LEVEL, POWERS, no_player
    from .rules.record import RecordError, load_record, replay
    try:
        result = replay(load_record(args.file))
    except RecordError as e:
        return _bad_record(args, e)
    if not result.ok:
        _print_json(result.to_json()) if args.json else print_illegal(result)
        return 1
    game = result.game
    bad = [p for p in args.power or () if p not in POWERS]
    if bad:
        refusal = refuse("bad_power", N_("There is no power {power} (the powers are {powers})."),
                         power=bad[0], powers=", ".join(POWERS))
    elif not 0 <= args.player < len(game.seats):
        refusal = no_player(args.player, len(game.seats))
    else:   # a power the player can no longer use (or Relocate, Reserve) would list placements replay refuses
        refusal = game.placing_powers_verdict(args.player, tuple(args.power or ()))
    if not refusal:
        err = {"code": refusal.code, "move": None, "round": game.round, "player": args.player,
               "message": refusal.message}
        _print_json({"ok": False, "error": err}) if args.json else print(refusal.text(_))
        return 1
    player, powers = args.player, tuple(args.power or ())
    opts = game.options(player)
    out = []
    card_left = not game.over   # a card this player still has to place, now or later
    if opts.step in ("decide", "place"):                 # the turn's tile
        out = [p.to_json() for p in game.legal_placements(player, powers=powers)]
    elif opts.step == "choose":                          # "Level to Level": every tile the player may choose
        out = [{**p.to_json(), "marker": m} for m in opts.choices
               for p in game.legal_placements(player, powers=powers, marker=m)]
    elif not game.over and game.variant != LEVEL_TO_LEVEL:
        # this turn is done: the next card, as far as the deck says, on the table as it is
        index = len(game.seen())
        card_left = index < len(game.deck)     # done in the last round: nothing more for this player
        if card_left:
            out = [p.to_json() for p in game.boards[player].legal_placements(game.deck[index])]
    if game.variant == LEVEL_TO_LEVEL and opts.step == "place":
        out = [{**p, "marker": opts.marker} for p in out]
    if opts.reserve_ready:
        out += [{**p.to_json(), "reserved": True} for p in game.legal_placements(player, powers=powers, reserved=True)]
    if opts.step in ("decide", "choose", "place", "extras"):
        for piece in opts.fillers:
            out += [{"piece": p.piece, **{k: v for k, v in p.to_json().items() if k != "digit"}}
                    for p in game.legal_placements(player, piece=piece)]
    # "Level to Level", this player's turn over: the next round's tiles are laid out only once every turn is
    # over (which markers are active depends on them), so none is known to place yet ("No legal placement." said
    # the player was stuck)
    waiting = opts.step == "done" and game.variant == LEVEL_TO_LEVEL
    if waiting and game.is_last_step():
        waiting = card_left = False   # the round that laid out the deck's last cards: no next round
    if args.json:
        _print_json(out)
    elif not out and waiting:
        print(_("This player's turn in round {round} is over; the next round's tiles are not laid out yet.").format(
            round=game.round))
    elif not out:
        print(_("No legal placement.") if card_left else _("No card left to place."))
    else:
        what = sorted({str(p.get("digit", p.get("piece"))) for p in out})
        print(ngettext("{count} legal placement of {digit}:", "{count} legal placements of {digit}:",
                       len(out)).format(count=len(out), digit=", ".join(what)))
        for p in out:
            notes = [_("tile {piece}").format(piece=p.get("digit", p.get("piece")))] if len(what) > 1 else []
            if "marker" in p:
                notes.append(_("marker {marker}").format(marker=p["marker"]))
            if p.get("flipped"):
                notes.append(_("flipped"))
            if p.get("reserved"):
                notes.append(_("reserved tile"))
            print(_("  rotation {rotation:3d}  x {x:3d}  y {y:3d}  level {level}").format(**p)
                  + "".join("  " + n for n in notes))
    return 0


def _bad_record(args, e) -> int:
    if getattr(args, "json", False):
        _print_json({"ok": False, "error": {"code": "bad_record", "message": str(e)}})
    else:
        print(_("Not a usable game record: {reason}").format(reason=e.text(_)))
    return 2


def cmd_bench(args) -> int:
    from . import bench
    return bench.main(args)


def cmd_play(args) -> int:
    from .scene.game_app import main as play
    return play(args) or 0


def cmd_render(args) -> int:
    from .scene.render import main as render
    return render(args)


def cmd_assets(args) -> int:
    from .assets import main as assets
    return assets(args)


def cmd_analyse(args) -> int:
    from .ai.analyse import main as analyse
    return analyse(args)


def cmd_tournament(args) -> int:
    from .store.tournament_cli import main as tournament
    return tournament(args)


def cmd_serve(args) -> int:
    from .net.serve import main as serve
    return serve(args)


def cmd_i18n(args) -> int:
    from .i18n import tools
    return tools.main(args)


RECORD = "a game record: JSON as spec/game-record.md fixes it (a save, a tournament's game, analyse --out)"
EXIT_STATUS = "exit status: 0 legal, 1 a move breaks a rule (its code and move said), 2 not a usable record"


def build_parser() -> argparse.ArgumentParser:
    from .ai.analyse import WIDEST
    parser = argparse.ArgumentParser(prog="nmbr9", description="NMBR 9 3D: with no command, play.")
    sub = parser.add_subparsers(dest="command")

    p = sub.add_parser("play", help="play the game (the default)")
    p.add_argument("--seed", type=int, default=None,
                   help="skip the menu: a solo game whose deck is shuffled with this seed (0 to 4294967295)")
    p.add_argument("--size", default=None, help="window size WxH (default: the Settings' size)")
    p.add_argument("--record", help="with --seed: write the game record to this file after every move")
    p.add_argument("--first-frame", metavar="FILE",
                   help="draw the first frame offscreen, write it to this picture (.png, .jpg) and quit: checks a "
                        "build (nmbr9 bench build times it)")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("render", help="write a picture of a board from a game record, or of a RumBugz table")
    p.add_argument("file", help=RECORD + "; or a RumBugz round's record (spec/rumbugz.md)")
    p.add_argument("--out", required=True, help="picture to write: .png or .jpg")
    p.add_argument("--size", default="1280x720", help="image size WxH (default 1280x720)")
    p.add_argument("--player", type=int, default=0, help="whose board (RumBugz: whose view, the other hands hidden): "
                                                         "0 is the record's first player (default)")
    p.add_argument("--move", type=int, default=None, help="as after this many of the record's moves (default all)")
    p.add_argument("--angle", default="default", help="camera: default, top, low, side")
    p.add_argument("--levels", action="store_true", help="show each tile's level on it (as L does at the table)")
    p.set_defaults(func=cmd_render)

    p = sub.add_parser("assets", help="regenerate the tile models and textures (models/, textures/)")
    p.set_defaults(func=cmd_assets)

    p = sub.add_parser("replay", help="check a game record move by move", epilog=EXIT_STATUS)
    p.add_argument("file", help=RECORD)
    p.add_argument("--json", action="store_true",
                   help='one JSON object: {"ok", "complete", "rounds", "scores"}, or {"ok": false, "error": {"code", ...}}')
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("moves", help="legal placements of a player's next card",
                       epilog=EXIT_STATUS + "; 1 too for a player or power that can't place")
    p.add_argument("file", help=RECORD)
    p.add_argument("--player", type=int, required=True, help="0 is the record's first player")
    p.add_argument("--power", action="append",
                   help="NMBR 9 ++: list placements under this Breaking Rules power (repeatable)")
    p.add_argument("--json", action="store_true",
                   help='a JSON list of {"digit", "rotation", "x", "y", "level"}, each set of squares once')
    p.set_defaults(func=cmd_moves)

    p = sub.add_parser("bench", help="benchmarks")
    p.add_argument("what", choices=["rules", "render", "bots", "hints", "analysis", "build", "server", "rumbugz"],
                   help="rules: legal placements' speed; render: frame times; bots: a bot's solo scores and time "
                        "a move; hints: the strongest bot's hint at the table beside the same choice alone; analysis: "
                        "the best layout found knowing the card order beside a bot's score, deck by deck; build: the archives' sizes "
                        "in dist/ and the built game's start to its first frame beside this checkout's; server: bot "
                        "clients against a real server process (docs/serving.md); rumbugz: RumBugz bots against each "
                        "other, round by round")
    p.add_argument("--level", default="hard", help="bots, analysis: easy, medium or hard (default hard)")
    p.add_argument("--games", type=int, default=100, help="bots, hints, analysis: solo games (decks); server: games at once; "
                                                          "rumbugz: rounds (default 100)")
    p.add_argument("--width", type=int, default=WIDEST,
                   help=f"analysis: the widest beam searched a deck (default {WIDEST}, as the results screen)")
    p.add_argument("--seed", type=int, default=0, help="the first game's deck seed, the next seeds follow (default 0)")
    p.add_argument("--jobs", type=int, default=1, help="bots, rumbugz: games played at once, one a core (default 1)")
    p.add_argument("--variant", default="classic", help="bots: classic, two_of_three or level_to_level")
    p.add_argument("--modules", default="", help="bots: NMBR 9 ++ modules, e.g. start_tiles,gap_fillers,breaking_rules")
    p.add_argument("--players", type=int, help="server: players a game (default 4); rumbugz: players a round "
                                               "(default 2)")
    p.add_argument("--seconds", type=float, default=10.0, help="server: seconds to keep starting games (default 10)")
    p.add_argument("--pace", type=float, default=0.0, help="server: seconds each player thinks a move, on "
                                                           "average (default 0: full speed)")
    p.add_argument("--faults", action="store_true", help="server: kill -9 and restart the server mid-bench, drop "
                                                         "clients at random")
    p.add_argument("--bots", default="hard,medium", help="rumbugz: the bots' strengths, repeated to fill the seats")
    p.add_argument("--game", choices=["nmbr9", "rumbugz"], default="nmbr9",
                   help="render: NMBR 9's play screen (default) or the RumBugz table, 6 racks and 40 bugs")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("analyse", help="best layout found for a recorded game's deck, beside each score",
                       epilog="classic game only; exit status: 0 done, 1 a move of the record breaks a rule, "
                              "2 not a usable record or option")
    p.add_argument("file", help=RECORD)
    p.add_argument("--out", help="write the best layout as a game record to this file")
    p.add_argument("--player", type=int, default=None, help="compare with this player only")
    p.add_argument("--width", type=int, default=WIDEST,
                   help=f"the widest beam searched, passes doubling up to it (default {WIDEST}, as the results "
                        "screen searches: the same best on any machine; twice as wide takes about twice as long)")
    p.set_defaults(func=cmd_analyse)

    p = sub.add_parser("tournament", help="run a bot-only tournament headless; list or show past tournaments")
    p.add_argument("--bots", help="strengths of the bots, e.g. hard,medium,easy")
    p.add_argument("--games", type=int, default=5, help="games in the tournament (default 5)")
    p.add_argument("--best", type=int, default=None, help="count each player's best N games (default all)")
    p.add_argument("--seed", type=int, default=None, help="the games' decks follow from it (default: random)")
    p.add_argument("--name", default=None, help='its name (default "Tournament N")')
    p.add_argument("--game", choices=("nmbr9", "rumbugz"), default="nmbr9", help="the game played (default nmbr9)")
    p.add_argument("--rounds", type=int, default=None, help="RumBugz: rounds a game (default 3)")
    p.add_argument("--resume", type=int, metavar="ID", help="play the remaining games of a bot tournament")
    p.add_argument("--list", action="store_true", help="the history of tournaments")
    p.add_argument("--show", type=int, metavar="ID", help="standings and games of one tournament")
    p.set_defaults(func=cmd_tournament)

    p = sub.add_parser("serve", help="run a game server for playing across computers (docs/serving.md)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this computer "
                                                      "only; 0.0.0.0: every network it is on)")
    p.add_argument("--port", type=int, default=8779, help="port (default 8779; 0: any free one, logged)")
    p.add_argument("--data", help="folder of the server's database and records (default: the data folder's server/)")
    p.add_argument("--cert", help="TLS certificate (PEM), with --key: clients connect with wss://")
    p.add_argument("--key", help="TLS private key (PEM)")
    p.add_argument("--max-connections-per-address", type=int, default=None, metavar="N",
                   help="connections one address may hold at once (default 64; 0: no limit)")
    p.add_argument("--max-games-per-address", type=int, default=None, metavar="N",
                   help="games not over that one address may have hosted (default 16; 0: no limit)")
    p.add_argument("--verbose", action="store_true", help="log every move too")
    p.set_defaults(func=cmd_serve)

    from .rumbugz.cli import add_parser as add_rumbugz   # the second game's commands live beside it
    add_rumbugz(sub)

    p = sub.add_parser("i18n", help="translation catalogues: extract messages, check the catalogues")
    p.add_argument("action", choices=["extract", "check"],
                   help="extract: the source's messages into the .pot and every .po; check: what is missing, "
                        "untranslated or fuzzy (exit status 1 if anything is)")
    p.add_argument("--lang", action="append", help="extract: only this language (repeatable)")
    p.set_defaults(func=cmd_i18n)
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0].startswith("-") and argv[0] not in ("-h", "--help"):
        argv = ["play", *argv]
    args = parser.parse_args(argv)
    for stream in (sys.stdout, sys.stderr):   # a name the terminal's encoding lacks is escaped, not a traceback
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    try:
        return args.func(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:   # the reader went away (`nmbr9 moves ... | head`): stop quietly
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())   # no second error at exit
        return 141


if __name__ == "__main__":
    sys.exit(main())
