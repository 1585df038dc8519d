"""Tune the evaluation's weights by direct policy search (cross-entropy method).

    python3 -m nmbr9.ai.tune [--generations 20] [--population 32] [--games 40] [--jobs 2]

Each generation draws `population` weight vectors around the current mean,
plays each greedily (the medium bot's policy) on the same `games` training
decks (common random numbers: the decks change every generation, never the
bench's seeds 0..), and moves the mean and spread to the best quarter. The
search measures what matters, the final score: a ridge regression to the final
scores of self-played games (the former learn.py) played about 76 on the bench;
this search plays better from the same start.
Writes nmbr9/ai/weights.py when the tuned mean beats the start on held-out decks.

The search only cares about the ranking of one move's candidates, so the terms that
are the same for all of them (the deck scales and the constant) drift freely. After
tuning, `--calibrate N` refits just those terms by least squares on N greedy games
(training decks CALIBRATE..): points + w . features then estimates the final score
(the NMBR 9 ++ bots compare such gains in points). The constant stays 0: with the
deck spent only points count. The ranking, hence the play, is unchanged.
"""
from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from ..rules import new_deck
from .evaluate import NBASE, NFEAT, deck_scales, features, hand_weights, reach_features, stamp, values
from .grid import Grid

TRAIN = 10_000      # training decks: seeds TRAIN + ... (the bench uses 0..)
HELD_OUT = 900_000  # decks that judge the result
CALIBRATE = 20_000  # training decks that calibrate the value as a final score


def greedy_moves(w, deck, g: Grid | None = None):
    """A greedy game (the medium bot, ties to the first) on table `g`, move by move: yields
    (table, number, candidates, their values, cards left after it, the chosen one) just
    before the chosen placement is laid."""
    g = Grid() if g is None else g
    left = Counter(deck)
    for digit in deck:
        left[digit] -= 1
        remaining = {d: n for d, n in left.items() if n > 0}
        cand = g.candidates(digit)
        v = values(g, digit, cand, remaining, w)
        k = int(np.argmax(v))
        yield g, digit, cand, v, remaining, k
        g.place(digit, *(int(a[k]) for a in cand))


def play(w, deck) -> int:
    """Final score of a greedy game."""
    g = Grid()
    for _ in greedy_moves(w, deck, g):
        pass
    return g.score


def _games(job):
    w, seeds = job
    return [play(w, new_deck(random.Random(s))) for s in seeds]


def _trace(job):
    """(points, value, deck scales, final score) after each greedy move of one game."""
    w, seed = job
    g = Grid()
    rows = [(table.score + digit * int(cand[3][k]), v[k], *deck_scales(remaining))
            for table, digit, cand, v, remaining, k in greedy_moves(w, new_deck(random.Random(seed)), g)]
    return [r + (g.score,) for r in rows]


def calibrate(w, games: int = 200, jobs: int = 2):
    """Refit the deck-scale terms (constant 0) so the value estimates the final score:
    (weights, rmse before, rmse after)."""
    w = np.array(w, np.float64)
    with Pool(jobs) as pool:
        out = pool.map(_trace, [(w, s) for s in range(CALIBRATE, CALIBRATE + games)])
    p, v, ls, lc, final = np.array([r for rows in out for r in rows]).T
    rest = v - p - (w[NBASE - 3] * ls + w[NBASE - 2] * lc + w[NBASE - 1])
    X = np.stack([ls, lc], axis=1)
    b = np.linalg.lstsq(X, final - p - rest, rcond=None)[0]
    new = w.copy()
    new[NBASE - 3:NBASE] = (b[0], b[1], 0.0)
    rmse = lambda pred: float(np.sqrt(np.mean((pred - final) ** 2)))
    return new, rmse(v), rmse(p + rest + X @ b)


def feature_spread(w, games: int = 20) -> np.ndarray:
    """Typical size of each feature over the tables greedy play meets (to scale the search)."""
    rows = []
    for s in range(games):
        for g, digit, cand, v, remaining, k in greedy_moves(w, new_deck(random.Random(HELD_OUT + 500 + s))):
            one = [a[[k]] for a in cand]
            rows.append(np.hstack([features(stamp(g, digit, *one), remaining)[0],
                                   reach_features(g, digit, one, remaining)[0]]))
    return np.array(rows).std(axis=0) + 1e-3


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m nmbr9.ai.tune")
    ap.add_argument("--generations", type=int, default=20)
    ap.add_argument("--population", type=int, default=32)
    ap.add_argument("--games", type=int, default=40, help="training decks per generation")
    ap.add_argument("--elite", type=float, default=0.25)
    ap.add_argument("--sigma", type=float, default=0.5,
                    help="starting spread, in points of value per typical feature change")
    ap.add_argument("--start", choices=["current", "hand"], default="current")
    ap.add_argument("--held-out", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--calibrate", type=int, default=200,
                    help="games that calibrate the value as a final score (0: tune only); --generations 0 calibrates the current weights")
    ap.add_argument("--checkpoint", help="file to save the mean weights to after each generation (.npy)")
    args = ap.parse_args(argv)
    w0 = hand_weights()
    if args.start == "current":
        from .weights import WEIGHTS
        if len(WEIGHTS) == NFEAT:  # else the features changed: start again by hand
            w0 = np.array(WEIGHTS, np.float64)
    spread = feature_spread(w0)
    # features greedy play never moves (heights it never reaches, the constant) keep weight 0:
    # searched, their spread would be scaled by 1 / 0 and their weights by noise alone
    seen = spread > 1.5e-3
    w0 = np.where(seen, w0, 0.0)
    if args.generations == 0:
        w, before, after = calibrate(w0, args.calibrate, args.jobs)
        print(f"calibrated on {args.calibrate} games: rmse {before:.1f} -> {after:.1f}", flush=True)
        write_calibrated(w, args.calibrate, after)
        return 0
    rng = np.random.default_rng(args.seed)
    unit = np.where(seen, 1.0 / spread, 0.0)  # a weight change worth one point per typical feature change
    mean, sd = w0.copy(), args.sigma * unit
    held = range(HELD_OUT, HELD_OUT + args.held_out)
    started = time.perf_counter()
    with Pool(args.jobs) as pool:
        def score(ws, seeds):
            chunks = [(w, seeds[i::2]) for w in ws for i in range(2)]
            out = pool.map(_games, chunks)
            return np.array([np.mean(out[2 * j] + out[2 * j + 1]) for j in range(len(ws))])

        base = score([w0], list(held))[0]
        print(f"start: {base:.2f} on {args.held_out} held-out decks", flush=True)
        n_elite = max(2, int(args.population * args.elite))
        for gen in range(args.generations):
            seeds = list(range(TRAIN + gen * args.games, TRAIN + (gen + 1) * args.games))
            ws = mean + sd * rng.standard_normal((args.population, NFEAT))
            ws[0] = mean                       # the mean itself, for the record
            s = score(list(ws), seeds)
            elite = ws[np.argsort(-s)[:n_elite]]
            # a floor on the spread keeps the search from freezing on noise
            mean, sd = elite.mean(axis=0), np.maximum(elite.std(axis=0), 0.1 * unit)
            if args.checkpoint:
                np.save(args.checkpoint, mean)
            print(f"gen {gen + 1}: mean's score {s[0]:.2f}, best {s.max():.2f}, elite {np.sort(s)[-n_elite:].mean():.2f}"
                  f"  ({time.perf_counter() - started:.0f} s)", flush=True)
        final = score([mean], list(held))[0]
    print(f"tuned: {final:.2f} on held-out decks (start {base:.2f})", flush=True)
    if final > base:
        note = ""
        if args.calibrate:
            mean, before, after = calibrate(mean, args.calibrate, args.jobs)
            note = f" Deck-scale terms calibrated on {args.calibrate} greedy games (value rmse {after:.1f})."
        write(mean, final, args, note)
    return 0


def write(w, score, args, note: str = "") -> None:
    path = Path(__file__).with_name("weights.py")
    body = ",\n    ".join(f"{x:.6g}" for x in w)
    cmd = (f"python3 -m nmbr9.ai.tune --generations {args.generations} --population {args.population} "
           f"--games {args.games} --sigma {args.sigma} --start {args.start} --seed {args.seed}")
    path.write_text(f'"""Evaluation weights tuned by `{cmd}`\n'
                    f'(greedy mean {score:.1f} on held-out decks).{note} Generated: do not edit."""\n'
                    f"WEIGHTS = (\n    {body},\n)\n")


def write_calibrated(w, games: int, rmse: float) -> None:
    """Rewrite weights.py with the deck-scale terms calibrated, the rest as it was."""
    path = Path(__file__).with_name("weights.py")
    doc = path.read_text().split('"""')[1].split("\nThen calibrated")[0].replace("Generated: do not edit.", "").rstrip()
    body = ",\n    ".join(f"{x:.6g}" for x in w)
    path.write_text(f'"""{doc}\nThen calibrated by `python3 -m nmbr9.ai.tune --generations 0 --calibrate {games}`:'
                    f' the deck-scale terms refitted so the value estimates the final score'
                    f' (rmse {rmse:.1f} points over greedy games on training decks {CALIBRATE}+;'
                    f' the ranking is unchanged); weights of features greedy play never moves set to 0.'
                    f' Generated: do not edit."""\n'
                    f"WEIGHTS = (\n    {body},\n)\n")


if __name__ == "__main__":
    raise SystemExit(main())
