"""`nmbr9 bench rumbugz`: bots against each other, rounds on seeded bags; win rates, points, time a move."""
from __future__ import annotations

import json
import math
import random
import statistics
import time

from ..progress import Progress
from .bots import STRENGTHS, make_bot
from .play import play_round
from .rules import parse_record, replay


def seats_for(levels: list[str], players: int, game: int) -> list[str]:
    """The bots listed, repeated to fill the seats, turned one seat further each round (no bot keeps a seat)."""
    filled = [levels[i % len(levels)] for i in range(players)]
    shift = game % players
    return filled[shift:] + filled[:shift]


def bench_round(job: tuple) -> dict:
    """One round: who won, the points, turns, each seat's seconds a move, and whether its record replays legal."""
    players, levels, seed, game = job
    seats = seats_for(levels, players, game)
    bots = [make_bot(level, seed * 10 + i) for i, level in enumerate(seats)]
    played = play_round(bots, [{"name": f"{level} {i}", "kind": f"bot:{level}"} for i, level in enumerate(seats)],
                        random.Random(seed))
    again = replay(parse_record(json.loads(json.dumps(played.record))))
    legal = again.ok and again.to_json()["scores"] == played.round.scores()
    return {"seats": seats, "winner": played.round.winner, "scores": played.round.scores(), "turns": played.turns,
            "times": played.times, "legal": legal}


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% interval of a win rate (Wilson's, sound near 0% and 100%)."""
    if not n:
        return 0.0, 1.0
    p = wins / n
    middle = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(middle - half, 0.0), min(middle + half, 1.0)


def bench_rumbugz(args) -> int:
    levels = [b.strip() for b in (args.bots or "hard,medium").split(",") if b.strip()]
    bad = [b for b in levels if b not in STRENGTHS]
    if bad or not 2 <= args.players <= 6 or not 1 <= len(levels) <= args.players:
        print(f"--players must be 2 to 6 and --bots 1 to that many of {', '.join(STRENGTHS)}")
        return 2
    if args.games < 1 or args.jobs < 1 or args.seed < 0:
        print("--games and --jobs must be at least 1, --seed 0 or more")
        return 2
    jobs = [(args.players, levels, args.seed + i, i) for i in range(args.games)]
    results, started, show = [], time.perf_counter(), Progress()

    def progress():
        done, width = len(results), 30
        fill = width * done // len(jobs)
        show(done / len(jobs), f"[{'#' * fill}{'.' * (width - fill)}] {done}/{len(jobs)} rounds  "
                               f"{time.perf_counter() - started:.0f} s")
    progress()
    if args.jobs > 1:
        import multiprocessing
        with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
            for r in pool.imap(bench_round, jobs):
                results.append(r)
                progress()
    else:
        for job in jobs:
            results.append(bench_round(job))
            progress()
    wall = time.perf_counter() - started
    print(report(args, levels, results, wall))
    return 0 if all(r["legal"] for r in results) else 1


def report(args, levels: list[str], results: list[dict], wall: float) -> str:
    decided = [r for r in results if r["winner"] is not None]
    legal = sum(r["legal"] for r in results)
    lines = [f"rumbugz: {args.players} players ({', '.join(seats_for(levels, args.players, 0))}), "
             f"{len(results)} rounds, seeds {args.seed}..{args.seed + len(results) - 1}, {args.jobs} job(s); "
             f"records replayed legal: {legal}/{len(results)}",
             f"  {'bot':<7} {'seats':>5} {'wins':>5}  {'win rate (95% interval)':<24} {'mean points':>11} "
             f"{'ms/move mean':>12} {'p95':>7}"]
    for level in dict.fromkeys(levels):
        wins = sum(r["seats"][r["winner"]] == level for r in decided)
        low, high = wilson(wins, len(decided))
        points = [s for r in results for seat, s in zip(r["seats"], r["scores"]) if seat == level]
        times = sorted(t for r in results for seat, ts in zip(r["seats"], r["times"]) if seat == level for t in ts)
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))] if times else 0.0
        rate = wins / len(decided) if decided else 0.0
        lines.append(f"  {level:<7} {levels.count(level) * args.players // len(levels):>5} {wins:>5}  "
                     f"{rate:>6.1%} ({low:.1%}-{high:.1%}){'':<5} {statistics.mean(points):>11.1f} "
                     f"{statistics.mean(times) * 1000 if times else 0:>12.2f} {p95 * 1000:>7.2f}")
    lines.append(f"  rounds with no winner: {len(results) - len(decided)} (left out of the win rates)")
    lines.append(f"  turns per round: mean {statistics.mean(r['turns'] for r in results):.1f}")
    lines.append(f"  speed: {len(results) / wall:.2f} rounds/s ({wall:.1f} s wall)")
    return "\n".join(lines)
