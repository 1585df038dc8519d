"""`nmbr9 bench ...`: measurements named in the issues, printed for people."""
from __future__ import annotations

import random
import statistics
import time


def seeded_board(tiles: int, seed: int):
    """A board of `tiles` tiles from a seeded game played by a greedy builder."""
    from .rules import Game, Seat, new_deck
    rng = random.Random(seed)
    game = Game([Seat("bench")], new_deck(random.Random(seed)))
    for _ in range(tiles):
        options = game.boards[0].legal_placements(game.card)
        game.play(0, max(options, key=lambda p: (p.level, rng.random())))
    return game


def bench_rules(args) -> int:
    print("legal_placements: median time per call (seeded games, 30 boards each, next card)")
    print(f"{'tiles':>5} {'placements':>10} {'median ms':>9}")
    for tiles in (5, 10, 15, 20):
        times, counts = [], []
        for seed in range(args.seed, args.seed + 30):
            game = seeded_board(tiles, seed)
            board = game.boards[0]
            digit = game.deck[tiles % 20]
            for _ in range(5):
                t = time.perf_counter()
                found = board.legal_placements(digit)
                times.append(time.perf_counter() - t)
            counts.append(len(found))
        print(f"{tiles:>5} {statistics.median(counts):>10.0f} {statistics.median(times) * 1000:>9.3f}")
    return 0


def main(args) -> int:
    if args.what in ("bots", "hints", "analysis"):   # their games' decks are dealt by seed, as the game deals them
        from .match import check_seed
        try:
            for seed in (args.seed, args.seed + max(args.games, 1) - 1):
                check_seed(seed)
        except ValueError as e:   # (they printed "deck seeds -1..0" and played on)
            print(e)
            return 2
    if getattr(args, "players", 0) is None:   # (one option, two benches: a server game's seats, a round's)
        args.players = 2 if args.what == "rumbugz" else 4
    if args.what == "rumbugz":
        from .rumbugz.bench import bench_rumbugz
        return bench_rumbugz(args)
    if args.what == "rules":
        return bench_rules(args)
    if args.what == "render":
        from .scene.bench import bench_render
        return bench_render(args)
    if args.what == "hints":
        from .scene.bench import bench_hints
        return bench_hints(args)
    if args.what == "bots":
        from .ai.bench import bench_bots
        return bench_bots(args)
    if args.what == "server":
        from .net.bench import bench_server
        return bench_server(args)
    if args.what == "analysis":
        from .ai.bench import bench_analysis
        return bench_analysis(args)
    if args.what == "build":
        from .builds import bench_build
        return bench_build(args)
    return 2
