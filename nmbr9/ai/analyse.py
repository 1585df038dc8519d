"""Best found for a known deck: a beam search that knows the whole card order.

After a game the order is public, so the search may plan for it: it keeps
the `width` most promising tables after each card (judged by the same board
evaluation the bots use, given the cards still to come as a composition: told
the very next card too, the tuned weights misjudge, and a width-8 beam scored 55
on deck 21 where the medium bot scores 89), each table offering only its
CHILDREN best placements, widening the beam pass by pass up to WIDEST, and returns the
layout with the highest score.

`nmbr9 analyse RECORD --out FILE` writes that layout as a one-player game
record (player kind "analysis") with one added field, documented here as
spec/game-record.md asks: "analysis": {"of": the analysed record's path,
"score": the layout's score}.
"""
from __future__ import annotations

from collections import Counter

import numpy as np

from ..rules import Board, Placement, tile_points
from .evaluate import values
from .weights import WEIGHTS
from .grid import Grid

# Placements each table offers the next beam. Two keep the beam varied (different tables,
# not one table's many near-equal placements): on training decks 20000..20071 at 10 s a
# deck the analysis found 107.0 on average, against 103.2 when each offered `width`.
CHILDREN = 2


# The widest beam the search runs, its passes doubling up to it from 1: the results screen's search and
# `nmbr9 analyse`'s. The work is counted, never timed, so a record gives the same best on any machine (10 s
# of wall-clock time gave 93 on a busy machine where a quiet one found 119). About 10 s on a quiet 2-core machine.
WIDEST = 24
MOST_WIDE = 1024   # what `--width` takes: its last pass alone some 3 minutes on a quiet machine


def widths(widest: int) -> list[int]:
    """The passes' beam widths: 1, 2, 4, ... below `widest`, then `widest`."""
    out = [1]
    while out[-1] * 2 < widest:
        out.append(out[-1] * 2)
    return out + [widest] if widest > 1 else out


def beam(deck: list[int], width: int, weights=None, each=None):
    """One beam search pass: (score, placements) of the best final table. each() is called after every card."""
    weights = np.array(WEIGHTS) if weights is None else weights
    states = [(Grid(), ())]
    left = Counter(deck)
    for digit in deck:
        left[digit] -= 1
        remaining = {d: n for d, n in left.items() if n > 0}
        pool = []  # (value, state index, candidate arrays, k)
        for s, (g, _) in enumerate(states):
            cand = g.candidates(digit)
            v = values(g, digit, cand, remaining, weights)
            top = np.argsort(-v, kind="stable")[:CHILDREN]
            pool.extend((float(v[k]), s, cand, int(k)) for k in top)
        pool.sort(key=lambda e: -e[0])
        nxt, seen = [], set()
        for value, s, cand, k in pool:
            g, moves = states[s]
            move = tuple(int(a[k]) for a in cand)
            g2 = g.copy()
            g2.place(digit, *move)
            key = (g2.H.tobytes(), g2.score, g2.ox, g2.oy)
            if key in seen:
                continue  # the same table reached another way
            seen.add(key)
            nxt.append((g2, moves + (g.placement(digit, *move),)))
            if len(nxt) >= width:
                break
        states = nxt
        if each:
            each()
    g, moves = max(states, key=lambda st: st[0].score)
    return g.score, list(moves)


def analyse(deck: list[int], progress=None, widest: int = WIDEST, weights=None, layouts=()) -> list[Placement]:
    """The best layout found for this card order by beams of doubling width up to `widest` (widths()).

    `layouts` (e.g. the players' own games, lists of placements) and a medium bot's game are returned
    instead if one scores more than the search. progress(fraction) is called as it goes, never backwards
    (from this thread; the caller hands it to its own): the share of the work done, each card of a pass
    counted as its width and each of the bot's moves as one, so it moves as steadily on a busy machine.
    """
    passes = widths(widest)
    total, done = len(deck) * (1 + sum(passes)), [0]
    if progress:
        report, shown = progress, [-1.0]

        def progress(work: int = 0):
            done[0] += work
            fraction = done[0] / max(total, 1)
            if fraction > shown[0] + 0.005 or fraction >= 1.0 > shown[0]:   # the end always told
                shown[0] = fraction
                report(fraction)
        # from the start, the bot's game too: on a busy machine it took seconds, and "0%" stood still as if stuck
        progress()
    layouts = (*layouts, bot_layout(deck, each=progress and (lambda: progress(1))))
    best = None
    for width in passes:
        # a beam's result is not monotone in its width: a narrower pass may still win
        found = beam(deck, width, weights, each=progress and (lambda width=width: progress(width)))
        if best is None or found[0] > best[0]:
            best = found
    if progress:
        progress(total - done[0])   # all of it (the bot may have laid fewer tiles than the deck has cards)
    for layout in layouts:
        layout = list(layout)
        if len(layout) == len(deck) and sum(tile_points(p) for p in layout) > best[0]:
            best = (sum(tile_points(p) for p in layout), layout)
    return _as_played(best[1])


def bot_layout(deck: list[int], strength: str = "medium", each=None) -> list[Placement]:
    """A bot's solo game on this deck: the analysis never shows less than a decent player would find.
    each() is called after every move."""
    from . import solo_game
    return list(solo_game(strength, deck, each=each)[0].boards[0].tiles)


def _as_played(moves: list[Placement]) -> list[Placement]:
    """The placements checked through the rules, levels filled in, first tile at (0, 0)."""
    board = Board()
    if moves:
        dx, dy = moves[0].x, moves[0].y
        moves = [Placement(p.piece, p.rotation, p.x - dx, p.y - dy, p.level) for p in moves]
    return [board.place(p) for p in moves]


def best_game(deck: list[int], placements: list[Placement]):
    """A one-seat Game holding the best layout, for game_record() and the viewer."""
    from ..match import BEST_FOUND
    from ..rules import Game, Seat
    game = Game([Seat(BEST_FOUND, "analysis")], list(deck))
    for p in placements:
        v = game.play(0, p)
        assert v, v.message  # the layout was checked through the rules already
    return game


def main(args) -> int:
    """`nmbr9 analyse RECORD [--out FILE] [--player P] [--width W]`."""
    import json
    import os
    import time

    from ..cli import print_illegal
    from ..i18n import _
    from ..progress import Progress
    from ..rules.record import NOT_A_FILE, RecordError, game_record, load_record, replay, special_file
    try:
        record = load_record(args.file)
        if record.ruleset.variant != "classic" or record.ruleset.modules:
            print(_("Analysis covers the classic game only, not this record's rules."))
            return 2
        result = replay(record)
    except RecordError as e:
        print(_("Not a usable game record: {reason}").format(reason=e.text(_)))
        return 2
    if not result.ok:
        print_illegal(result)
        return 1
    game = result.game
    players = range(len(game.seats)) if args.player is None else [args.player]
    if args.player is not None and not 0 <= args.player < len(game.seats):
        from ..rules.game import no_player
        print(no_player(args.player, len(game.seats)).text(_))
        return 2
    if not 1 <= args.width <= MOST_WIDE:
        print(_("--width must be a whole number from 1 to {most}.").format(most=MOST_WIDE))
        return 2
    if args.out:   # before the long search: can the file be written? (nothing of it is truncated)
        existed = os.path.exists(args.out)
        if special_file(args.out):   # a pipe: opened, it waited for a reader for ever
            print(_("Can't write {path}: {reason}").format(path=args.out, reason=_(NOT_A_FILE)))
            return 2
        try:
            open(args.out, "a").close()
        except OSError as e:
            print(_("Can't write {path}: {reason}").format(path=args.out, reason=e.strerror))
            return 2
        if not existed:
            os.remove(args.out)

    show = Progress()

    def bar(fraction: float) -> None:
        fill = int(30 * fraction)
        show(fraction, f"[{'#' * fill}{'.' * (30 - fill)}] {int(100 * fraction):3d}%")

    started = time.perf_counter()
    own = [[m.placement for m in game.moves if m.player == i] for i in range(len(game.seats))]
    placements = analyse(record.deck, progress=bar, widest=args.width, layouts=own)
    best = best_game(record.deck, placements)
    found = best.boards[0].score()
    print(_("Best found for this deck: {score} points ({seconds:.0f} s of search)").format(
        score=found, seconds=time.perf_counter() - started))
    from ..match import seat_name
    for i in players:   # named as replay and the table name them ("Hard bot" in the language of the moment)
        name, board = seat_name(game.seats[i].name, game.seats[i].kind), game.boards[i]
        if len(board.tiles) < len(record.deck):   # a game not over (a save): "Ana: 0" read as her final score
            print(_("  {name}: {score} so far ({tiles} of {count} tiles laid)").format(
                name=name, score=board.score(), tiles=len(board.tiles), count=len(record.deck)))
        else:
            print(_("  {name}: {score}").format(name=name, score=board.score()))
    if args.out:
        from ..store import SaveError, write_atomic
        data = game_record(best, {"analysis": {"of": str(args.file), "score": found}})
        try:   # whole or not at all: a full disk or a kill keeps the file that was there
            write_atomic(args.out, json.dumps(data, indent=1))
        except SaveError as e:
            print(e.message)
            return 2
        print(_("Best layout written to {path}").format(path=args.out))
    return 0
