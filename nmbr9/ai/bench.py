"""`nmbr9 bench bots`: solo games on seeded decks, scores and time per move."""
from __future__ import annotations

import random
import statistics
import time

from ..progress import Progress
from ..rules import BREAKING_RULES, MODULES, VARIANTS, Game, Ruleset, Seat, new_deck
from ..rules.text import as_json
from . import STRENGTHS, solo_game


def play_solo(level: str, seed: int) -> tuple[int, list[float], int]:
    """One solo game on deck seed `seed`: (score, seconds per move, refused moves)."""
    game, times = solo_game(level, new_deck(random.Random(seed)), seed)
    return game.boards[0].score(), times, 0 if game.over else 1


def play_plus(level: str, seed: int, ruleset: Ruleset) -> tuple[int, list[float], int]:
    """One solo game under NMBR 9 ++ rules (Game.new with random.Random(seed)): the bot plans each
    turn (ai/plus.py); time per move is per turn planned."""
    from .plus import plan_turn
    game = Game.new([Seat("bot", f"bot:{level}")], ruleset, random.Random(seed))
    times, refused = [], 0
    while not game.over:
        t = time.perf_counter()
        actions = plan_turn(game, 0, level, seed * 1000 + game.step)
        times.append(time.perf_counter() - t)
        for name, args in actions:
            if not getattr(game, name)(0, *args):
                refused += 1
        if refused:
            break   # counted, then the game cannot go on
    return game.boards[0].score(), times, refused


def _play(job):
    if len(job) == 3 and job[2] != Ruleset():
        return play_plus(*job)
    return play_solo(*job[:2])


def progress(show: Progress, done: int, total: int, started: float) -> None:
    width = 30
    fill = width * done // max(total, 1)
    spent = time.perf_counter() - started
    show(done / max(total, 1), f"[{'#' * fill}{'.' * (width - fill)}] {done}/{total} games  {spent:.0f} s")


def bench_bots(args) -> int:
    if args.level not in STRENGTHS:
        print(f"unknown bot level {as_json(args.level)} (choose from {', '.join(STRENGTHS)})")
        return 2
    modules = tuple(m for m in (getattr(args, "modules", None) or "").split(",") if m)
    ruleset = Ruleset(args.variant, modules)
    # powers are drawn per game (Game.new); check the rest, with a stand-in power for Breaking Rules
    problem = Ruleset(args.variant, modules, ("flip",) if BREAKING_RULES in modules else ()).problem(1)
    if problem:
        print(f"bad --variant/--modules: {problem} (variants: {', '.join(VARIANTS)}; "
              f"modules: {', '.join(MODULES)})")
        return 2
    if args.games < 1 or args.jobs < 1:
        print("--games and --jobs must be at least 1")
        return 2
    jobs = [(args.level, args.seed + i, ruleset) for i in range(args.games)]
    results = []
    started, show = time.perf_counter(), Progress()
    progress(show, 0, len(jobs), started)
    if args.jobs > 1:
        import multiprocessing
        with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
            for r in pool.imap(_play, jobs):
                results.append(r)
                progress(show, len(results), len(jobs), started)
    else:
        for job in jobs:
            results.append(_play(job))
            progress(show, len(results), len(jobs), started)
    wall = time.perf_counter() - started
    scores = [r[0] for r in results]
    times = sorted(t for r in results for t in r[1])
    refused = sum(r[2] for r in results)
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    rules = "" if ruleset == Ruleset() else f", {args.variant}" + "".join(f" +{m}" for m in modules)
    print(f"bots {args.level}: {args.games} solo game{'s' * (args.games != 1)}{rules}, "
          f"deck seeds {args.seed}..{args.seed + args.games - 1}, "
          f"{args.jobs} job(s)")
    print(f"  score        mean {statistics.mean(scores):.1f}  median {statistics.median(scores):g}  "
          f"min {min(scores)}  max {max(scores)}")
    print(f"  time/move    mean {statistics.mean(times) * 1000:.1f} ms  p95 {p95 * 1000:.1f} ms")
    print(f"  speed        {args.games / wall:.2f} games/s ({wall:.1f} s wall)")
    if refused:
        print(f"  REFUSED      {refused} illegal move(s)")
    return 0 if not refused else 1


def bench_analysis(args) -> int:
    """`nmbr9 bench analysis`: what the search that knows the whole card order finds on seeded decks, beside a bot
    (which never knows it) on the same decks: how far above the bots the cards allowed, deck by deck."""
    from ..rules import tile_points
    from .analyse import MOST_WIDE, analyse
    if args.level not in STRENGTHS:
        print(f"unknown bot level {as_json(args.level)} (choose from {', '.join(STRENGTHS)})")
        return 2
    if args.games < 1 or not 1 <= args.width <= MOST_WIDE:
        print(f"--games must be at least 1 and --width from 1 to {MOST_WIDE}")
        return 2
    found, bot = [], []
    started, show = time.perf_counter(), Progress()
    progress(show, 0, args.games, started)
    for seed in range(args.seed, args.seed + args.games):
        layout = analyse(new_deck(random.Random(seed)), widest=args.width)
        found.append(sum(tile_points(p) for p in layout))
        bot.append(play_solo(args.level, seed)[0])
        progress(show, len(found), args.games, started)
    print(f"analysis: {args.games} deck(s), seeds {args.seed}..{args.seed + args.games - 1}, beams up to "
          f"{args.width} wide, {(time.perf_counter() - started) / args.games:.1f} s a deck (it knows the card order; "
          f"the {args.level} bot does not)")
    for name, scores in (("best found", found), (f"{args.level} bot", bot)):
        print(f"  {name:<12} mean {statistics.mean(scores):.1f}  median {statistics.median(scores):g}  "
              f"min {min(scores)}  max {max(scores)}")
    print("  per deck     " + "  ".join(f"{s}: {f}/{b}" for s, f, b in zip(range(args.seed, args.seed + args.games),
                                                                          found, bot)))
    print(f"  the {args.level} bot scores {100 * sum(bot) / max(sum(found), 1):.0f}% of the best found")
    return 0

