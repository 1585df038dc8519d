"""Rounds and games of RumBugz without a window: seats, the deal, asking each player (a bot) for moves."""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from ..i18n import _, ngettext
from ..match import derive_seed
from ..rules.text import as_json
from .rules import Round, default_set, round_record, set_of_bugs, who_starts
from .rules.round import DRAW

DEFAULT_ROUNDS = 3      # rounds a game (spec ruling)

# A round no one can finish (players taking each other's discards while the bag never runs out) stops at its
# turn past this, with no winner: far beyond any round the bots play (the longest seen are under 200 turns). The
# rules end a round only when someone goes out or no one can draw (rule 7), so its record stops part way there,
# as spec/rumbugz.md allows a record to.
TURN_LIMIT = 600


def round_done(r) -> bool:
    """Whether round `r` is done: over by the rules, or stopped at the draw of its turn past TURN_LIMIT."""
    return r.over or stopped(r)


def stopped(r) -> bool:
    """Whether round `r` was stopped at TURN_LIMIT, not ended by the rules (no winner, no points)."""
    return not r.over and r.turns > TURN_LIMIT and r.step == DRAW


@dataclass(frozen=True)
class GameRules:
    """What a RumBugz game is played under: its number of rounds (spec ruling: 3 by default). A tournament's
    rules, as NMBR 9's Ruleset is (`game` names the game)."""
    rounds: int = DEFAULT_ROUNDS
    game = "rumbugz"

    def to_json(self) -> dict:
        return {"rounds": self.rounds}

    def told(self) -> str:
        """"RumBugz, 3 rounds a game", in the player's language."""
        return ngettext("RumBugz, {rounds} round a game", "RumBugz, {rounds} rounds a game", self.rounds).format(
            rounds=self.rounds)

    @classmethod
    def from_json(cls, data) -> "GameRules":
        """ValueError, a sentence, for rules the game does not write."""
        rounds = data.get("rounds") if isinstance(data, dict) else None
        if not isinstance(rounds, int) or isinstance(rounds, bool) or rounds < 1:
            raise ValueError(_("a RumBugz game needs 1 round or more, not {rounds}").format(rounds=as_json(rounds)))
        return cls(rounds)


@dataclass
class Played:
    """A round played to its end: the round, its record, each player's seconds a move."""
    round: Round
    record: dict
    times: list[list[float]] = field(default_factory=list)
    turns: int = 0


def new_round(players: int, rng: random.Random, bugs: dict | None = None) -> tuple[Round, dict]:
    """Rule 1 (who starts) and the shuffle, from `rng`: a Round ready to play and its set."""
    bugs = bugs or default_set(players)
    whole = set_of_bugs(bugs["copies"], bugs["plyt"])
    first = who_starts(players, whole, rng)
    rng.shuffle(whole)
    return Round(players, first, whole), bugs


def round_seed(game_seed: int, played: int) -> int:
    """The seed that deals a game's round after `played` rounds: the window and `nmbr9 tournament` deal a
    tournament's rounds alike, whichever of them plays a round."""
    return derive_seed(game_seed, "rumbugz-round", played)


def reshuffle(game: Round, rng: random.Random) -> None:
    """Rule 7: a draw finds the bag empty: the pile but its top, shuffled, becomes the bag (where the rules allow
    it; else the draw's own verdict says why)."""
    bugs = list(game.pile[:-1])
    rng.shuffle(bugs)
    if game.check({"reshuffle": bugs}):
        game.apply({"reshuffle": bugs})


def play_round(bots: list, seats: list[dict], rng: random.Random, bugs: dict | None = None) -> Played:
    """One round to its end: each bot is given only its player's view. Bids are asked of every player who may
    bid, in seat order after the next player, before that player draws."""
    game, bugs = new_round(len(bots), rng, bugs)
    times = [[] for _ in bots]

    def ask(player: int, may_pass: bool = False) -> dict | None:
        view = game.view(player)
        started = time.perf_counter()
        move = bots[player].act(view)
        times[player].append(time.perf_counter() - started)
        if move is None:
            assert may_pass, f"bot {player} passed at step {game.step}"
            return None
        if "draw" in move and move["draw"] == "bag" and game.bag_size == 0:
            reshuffle(game, rng)
        verdict = game.apply(move)
        assert verdict, f"bot {player}'s move {move} refused: {verdict.code} {verdict.message}"
        return move

    while not round_done(game):
        if game.step == DRAW:
            if game.check({"end": "no_winner"}):   # no one can draw (rule 7)
                game.apply({"end": "no_winner"})
                break
            if game.bid_window:
                for offset in range(1, game.players):
                    bidder = (game.turn + offset) % game.players
                    if game.check({"player": bidder, "bid": True}):
                        ask(bidder, may_pass=True)
            if game.bids:
                if ask(game.turn, may_pass=True) is None:   # the next player declines the discard
                    ask(game.winning_bidder())
                continue
        ask(game.bidder if game.bidder is not None else game.turn)
    return Played(game, round_record(game, bugs, seats), times, game.turns)


def play_game(bots: list, seats: list[dict], rounds: int, seed: int, bugs: dict | None = None):
    """A game of `rounds` rounds (spec: the highest total wins, a tie shares the win); yields each Played."""
    rng = random.Random(seed)
    for _round in range(rounds):
        yield play_round(bots, seats, rng, bugs)
