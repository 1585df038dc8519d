"""Fit the board evaluation's weights to self-play (approximate policy iteration).

    python3 -m nmbr9.ai.learn [--rounds 5] [--games 300]

Each round plays seeded solo games greedily with the current weights (a
little exploration among the best few moves), records the features of every
table reached and the points it went on to gain, fits the weights by ridge
regression to those gains, and keeps the new weights if they play better on
held-out decks. Writes nmbr9/ai/weights.py.
"""
from __future__ import annotations

import argparse
import random
from collections import Counter
from pathlib import Path

import numpy as np

from ..rules import new_deck
from .evaluate import NBASE, NFEAT, SHORTLIST, features, hand_weights, reach_features, stamp
from .grid import Grid


def self_play(w, deck, rng=None, bot=None):
    """Greedy game on the fast grid (or `bot`'s choices): (final score, [(features, points then)])."""
    g = Grid()
    left = Counter(deck)
    trace = []
    for digit in deck:
        left[digit] -= 1
        remaining = {d: n for d, n in left.items() if n > 0}
        cand = g.candidates(digit)
        Hs = stamp(g, digit, *cand)
        base = g.score + digit * cand[3] + features(Hs, remaining) @ w[:NBASE]
        top = np.argsort(-base, kind="stable")[:SHORTLIST]
        phi = np.hstack([features(Hs[top], remaining), reach_features(g, digit, [a[top] for a in cand], remaining)])
        v = g.score + digit * cand[3][top] + phi @ w
        order = np.argsort(-v, kind="stable")
        k = int(order[0])
        if bot is not None:
            chosen = bot.pick(g, digit, cand, remaining, rng or random.Random(0))
            hit = np.flatnonzero(top == chosen)
            if not len(hit):  # the bot chose outside the shortlist: measure that one too
                one = [a[[chosen]] for a in cand]
                phi = np.vstack([phi, np.hstack([features(stamp(g, digit, *one), remaining),
                                                 reach_features(g, digit, one, remaining)])])
                top = np.append(top, chosen)
                hit = [len(top) - 1]
            k = int(hit[0])
        elif rng is not None and rng.random() < 0.15:
            k = int(order[rng.randrange(min(4, len(order)))])
        trace.append((phi[k], g.score + digit * int(cand[3][top[k]])))
        g.place(digit, *(int(a[top[k]]) for a in cand))
    return g.score, trace


def mean_score(w, seeds) -> float:
    return float(np.mean([self_play(w, new_deck(random.Random(s)))[0] for s in seeds]))


def fit(w, games: int, seed: int, ridge: float = 1.0, policy: str = "greedy"):
    rng = random.Random(seed)
    bot = None
    if policy != "greedy":
        from .bots import BOTS
        bot = BOTS[policy](seed)
        bot.weights = w
        bot.cheap = w.copy()
        bot.cheap[NBASE:] = 0.0
    X, y = [], []
    for i in range(games):
        final, trace = self_play(w, new_deck(random.Random(seed * 100003 + i)), rng, bot)
        for phi, points in trace:
            X.append(phi)
            y.append(final - points)
    X, y = np.array(X), np.array(y)
    scale = np.abs(X).max(axis=0) + 1e-9
    Xs = X / scale
    A = Xs.T @ Xs + ridge * np.eye(X.shape[1])
    return np.linalg.solve(A, Xs.T @ y) / scale


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m nmbr9.ai.learn")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--start", choices=["hand", "current"], default="current")
    ap.add_argument("--policy", choices=["greedy", "hard"], default="greedy",
                    help="who plays the games the weights are fitted to")
    args = ap.parse_args(argv)
    held_out = range(900000, 900100)  # never the bench's decks (seeds 0..)
    if args.start == "current":
        from .weights import WEIGHTS
        w = np.array(WEIGHTS)
        if len(w) < NFEAT:
            w = np.concatenate([w, np.zeros(NFEAT - len(w))])
    else:
        w = hand_weights()
    best = mean_score(w, held_out)
    print(f"start: {best:.2f}", flush=True)
    for r in range(args.rounds):
        w_new = fit(w, args.games, seed=1000 + r, policy=args.policy)
        s = mean_score(w_new, held_out)
        print(f"round {r + 1}: {s:.2f}", flush=True)
        w = w_new  # policy iteration: always move on; keep the best seen
        if s > best:
            best = s
            _write(w_new, s)
    return 0


def _write(w, score):
    path = Path(__file__).with_name("weights.py")
    body = ",\n    ".join(f"{x:.6g}" for x in w)
    path.write_text('"""Evaluation weights fitted by `python3 -m nmbr9.ai.learn` '
                    f'(greedy mean {score:.1f} on held-out decks). Generated: do not edit."""\n'
                    f"WEIGHTS = (\n    {body},\n)\n")


if __name__ == "__main__":
    raise SystemExit(main())
