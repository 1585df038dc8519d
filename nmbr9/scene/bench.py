"""`nmbr9 bench render`: frame time of the play screen, offscreen at 1280x720.

A 20-tile board from a seeded game (nmbr9.bench.seeded_board), the HUD and
the candidate tile following a moving pointer, so each frame does what a
frame in play does: picking, a verdict when the square changes, drawing.
"""
from __future__ import annotations

import os
import statistics
import time

FRAMES = 240
WARMUP = 30


def bench_render(args) -> int:
    from ..bench import seeded_board
    from ..rules.game import Game, Seat
    from .base import make_base
    from .camera import OrbitCamera
    from .hud import Hud
    from .play import PlayScreen
    from .table import Table
    seed = getattr(args, "seed", 0)
    if getattr(args, "game", "nmbr9") == "rumbugz":
        return bench_rumbugz_render(args)
    base = make_base(offscreen=True, size=(1280, 720))
    played = seeded_board(19, seed)  # 19 placed; the 20th is the candidate in hand
    game = Game([Seat("bench")], list(played.deck))
    for m in played.moves:
        game.play(0, m.placement)
    table = Table(base)
    camera = OrbitCamera(base.camera, base.camLens, base.render)
    hud = Hud(base, on_confirm=lambda: None)
    screen = PlayScreen(base, game, 0, table, camera, hud)
    hud.legend_for(laid=True)   # as in play at round 20: the controls' help folded since the first tile
    screen.pointer(0.0, 0.0)

    def step(i: int) -> None:
        # the pointer sweeps across the table and the view turns slowly
        screen.pointer(-0.6 + 1.2 * ((i * 7) % 100) / 100, -0.3 + 0.4 * ((i * 3) % 50) / 50)
        camera.orbit(0.5, 0)
        screen.step(1 / 60)
    _time_frames(base, step, f"{len(game.boards[0].tiles)} tiles + candidate + HUD")
    return 0


def _time_frames(base, step, drawn: str) -> None:
    """Time FRAMES frames (after WARMUP), each after `step(i)`, each read back; print the figures."""
    from panda3d.core import GraphicsOutput, Texture
    gsg = base.win.getGsg()
    # each frame read back into one image kept for the run: GL works asynchronously, and only a finished frame
    # counts (a new 3.7 MB screenshot a frame added 3 ms of the main thread's page faults, which a window's frames,
    # shown by a copy into one buffer, don't pay)
    frame = Texture("bench-frame")
    base.win.addRenderTexture(frame, GraphicsOutput.RTMCopyRam)
    times, cpu, main = [], [], []
    for i in range(FRAMES + WARMUP):
        t, c, m = time.perf_counter(), time.process_time(), time.thread_time()
        step(i)
        base.graphicsEngine.renderFrame()
        if i >= WARMUP:
            times.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
            main.append(time.thread_time() - m)
    base.win.clearRenderTextures()
    if frame.getXSize() != base.win.getXSize() or not frame.hasRamImage():
        raise RuntimeError("the frames were not read back")
    ms = sorted(t * 1000 for t in times)
    cpu_ms = statistics.median(cpu) * 1000
    print(f"render: {gsg.getDriverRenderer()}, 1280x720 offscreen, {drawn}, "
          f"{FRAMES} frames, each read back (so the GL work is counted)")
    print(f"frame time ms: median {statistics.median(ms):.2f}  p90 {ms[int(len(ms) * 0.9)]:.2f}  "
          f"max {ms[-1]:.2f}  (target: median < 16)")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"CPU time per frame (all threads of this process, GL included): median {cpu_ms:.2f} ms, of it the "
          f"main thread (the game's code, the scene's culling, GL's work that is not shared out) "
          f"{statistics.median(main) * 1000:.2f} ms; machine load average {load:.1f} on {os.cpu_count()} cores")


BENCH_SEQUENCES = (4, 5, 4, 6, 4, 4, 4, 5, 4)   # 40 bugs on the table
BENCH_HANDS = (8, 7, 9, 6, 8, 5)


def bench_view(seed: int):
    """A seeded 6-player RumBugz view (player 0's) with 40 bugs laid in sequences of every kind, PLYT among them."""
    import random
    from collections import Counter

    from ..rumbugz.rules import PLYT, Laid, View
    from ..rumbugz.rules.bugs import STEPS, set_of_bugs
    rng = random.Random(seed)
    table = []
    for i, length in enumerate(BENCH_SEQUENCES):
        kind = ("single", "double", "triple", "match")[i % 4]
        step = STEPS[kind]
        start = rng.randint(1, 12 - step * (length - 1))
        bugs = [str(start + step * k) for k in range(length)]
        wild = rng.randrange(length)
        bugs[wild] = PLYT + bugs[wild] if rng.random() < 0.4 else bugs[wild]
        table.append(Laid(i % len(BENCH_HANDS), tuple(bugs), kind))
    whole = set_of_bugs(8, 8)
    rng.shuffle(whole)
    hand = Counter(whole[:BENCH_HANDS[0]])
    return View(players=len(BENCH_HANDS), first=0, table=table, pile=whole[-5:], bag_size=30,
                kinds=[set() for _ in BENCH_HANDS], hand_sizes=list(BENCH_HANDS), me=0, my_hand=hand)


def bench_rumbugz_render(args) -> int:
    """`nmbr9 bench render --game rumbugz`: the RumBugz table with 6 racks and 40 bugs in sequences (seeded),
    the view turning slowly."""
    from .base import make_base
    from .rumbugz_table import BugPicture
    base = make_base(offscreen=True, size=(1280, 720))
    view = bench_view(getattr(args, "seed", 0))
    picture = BugPicture(base)
    picture.table.show(view, [f"Player {i + 1}" for i in range(view.players)])
    picture.frame()
    laid = sum(len(s.bugs) for s in view.table)
    _time_frames(base, lambda i: picture.camera.orbit(0.5, 0),
                 f"{view.players} racks, {laid} bugs in {len(view.table)} sequences, "
                 f"{len(picture.table.placed)} bugs in all")
    return 0


def bench_hints(args) -> int:
    """`nmbr9 bench hints`: how long the strongest bot's hint takes at the table, beside the same choice
    worked out alone. Solo games on seeded decks (game i: seed + i) in a 1280x720 offscreen window
    that keeps drawing frames at the game's rate; every hint is taken and laid."""
    import tempfile
    from pathlib import Path

    from direct.showbase.MessengerGlobal import messenger

    from ..ai import STRONGEST, View, make_bot
    from ..match import derive_seed
    from ..progress import Progress
    from ..rules import Seat
    from ..store import Store
    from .base import make_base
    from .game_app import FRAME_RATE, GameApp
    if args.games < 1:
        print("--games must be at least 1")
        return 2
    base = make_base(offscreen=True, size=(1280, 720), frame_rate=FRAME_RATE)   # as the game's window
    at_table, alone, show = [], [], Progress()
    with tempfile.TemporaryDirectory() as folder:
        app = GameApp(base, Store(Path(folder)), audio=False)
        app.settings = app.settings.changed(animation_speed=0.0)

        def until(ready):
            while not ready():
                base.taskMgr.step()
        for g in range(args.games):
            m = app.store.new_match([Seat("bench")], seed=args.seed + g)
            s = app.play(m)
            for round_ in range(1, m.rounds + 1):
                until(lambda: s.ps is not None and s.ps.ghost is not None and m.round == round_)
                view = View(s.ps.board.copy(), m.card, tuple(m.seen()), m.game.ruleset, len(m.game.deck))
                t = time.perf_counter()
                make_bot(STRONGEST, derive_seed(m.seed, "hint", 0, m.round)).choose(view)
                alone.append(time.perf_counter() - t)
                t = time.perf_counter()
                messenger.send("i")
                until(lambda: s.hint is not None and s.hint["ghost"] is not None)
                at_table.append(time.perf_counter() - t)
                messenger.send("i")    # the tile onto the hint
                messenger.send("enter")
                show((g + round_ / m.rounds) / args.games, f"game {g + 1}/{args.games}, round {round_}/{m.rounds}")
            until(lambda: m.over)
        app.screen.exit()
        app.store.close()

    def line(name, xs):
        ms = sorted(x * 1000 for x in xs)
        return f"{name}: mean {statistics.mean(ms):.0f} ms, p95 {ms[int(len(ms) * 0.95)]:.0f} ms, max {ms[-1]:.0f} ms"
    games = f"{args.games} solo game{'s' * (args.games != 1)}"
    print(f"{STRONGEST} bot's hints, {len(at_table)} in {games} (seed {args.seed}..), "
          "1280x720 offscreen")
    print(line("at the table (asked to shown)", at_table))
    print(line("the same choices alone", alone))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"machine load average {load:.1f} on {os.cpu_count()} cores")
    return 0
