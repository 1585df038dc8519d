"""A game of RumBugz at one computer: its seats (humans and bots), its rounds, the totals, and who acts next.

The window plays it (scene/rumbugz_play.py); the autosave keeps it (`record()`, read back by `from_record`): the
seats, the seed, the rounds played and the round in progress, each a round record (spec/rumbugz.md) replayed
through the rules. Nothing here draws or waits: bots' moves are asked for by the window, off its thread.
"""
from __future__ import annotations

import random

from ..i18n import N_, _
from ..match import derive_seed, fresh_seed, save_to, seat_name, utc_now
from .bots import make_bot
from .rules import Round, legal_moves, replay, parse_record
from .rules.record import RecordError, round_record
from .rules.round import BIDDER, DRAW, PLAY, REPLACE, wrong_turn
from .play import DEFAULT_ROUNDS, TURN_LIMIT, new_round, reshuffle, round_done, round_seed, stopped

FORMAT = "rumbugz-game"
VERSION = 1
MOST_ROUNDS = 20
# what the game waits for (`waiting()`): a player's move, the bids after a discard, nothing (the round is over)
MOVE, BIDS, ROUND_OVER, OVER = "move", "bids", "round-over", "over"


class RumbugzGame:
    """Seats are dicts {"name", "kind"}: kind "human" or "bot:easy" / "bot:medium" / "bot:hard"."""

    tournament = None   # {"id": tournament id, "game": game number} for a tournament's game, else None
    extra: dict = {}

    def __init__(self, seats: list[dict], seed: int, rounds: int = DEFAULT_ROUNDS, savers=()):
        self.seats = [dict(s) for s in seats]
        self.seed, self.rounds = seed, rounds
        self.created = utc_now()           # the game's identity where it is stored (personal bests)
        self.savers = list(savers)
        self.save_error: str | None = None
        self.played: list[Round] = []      # the rounds over
        self.bids_asked = False            # the bids after the last discard have been asked for
        self.round = self._deal()

    @classmethod
    def new(cls, seats: list[dict], seed: int | None = None, rounds: int = DEFAULT_ROUNDS, savers=()):
        if not 2 <= len(seats) <= 6:
            raise ValueError(_("RumBugz is for 2 to 6 players."))
        check_rounds(rounds)
        game = cls(seats, fresh_seed() if seed is None else seed, rounds, savers)
        game.save()
        return game

    @classmethod
    def going_on(cls, seats: list[dict], seed: int, rounds: int, played: list[dict], savers=()) -> "RumbugzGame":
        """A game whose first rounds were played elsewhere (their records: a tournament's stored rounds), its
        next round dealt. RecordError when one of them does not replay."""
        game = cls(seats, seed, rounds, savers)
        game.played = [finished_round(r) for r in played]
        game.round = game._deal()
        return game

    @classmethod
    def looked_back(cls, seats: list[dict], played: list[Round], number: int) -> "RumbugzGame":
        """A finished game as it stood at the end of its round `number` (from 1), of its rounds `played`
        (finished_round each): a tournament's game reviewed. Nothing is dealt, saved or stored."""
        game = cls(seats, 0, len(played))
        game.played, game.round = played[:number - 1], played[number - 1]
        return game

    def _deal(self) -> Round:
        return new_round(len(self.seats), random.Random(round_seed(self.seed, len(self.played))))[0]

    # ----- who the players are ----------------------------------------------------------------------------
    @property
    def names(self) -> list[str]:
        return [s["name"] for s in self.seats]

    def told(self, seat: int) -> str:
        """A seat's name as the screens say it (a bot's with its strength)."""
        return seat_name(self.seats[seat]["name"], self.seats[seat]["kind"])

    @property
    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s["kind"] == "human"]

    def is_bot(self, seat: int) -> bool:
        return self.seats[seat]["kind"] != "human"

    @property
    def round_number(self) -> int:
        """The round in play (or just over), from 1."""
        return len(self.played) + 1

    # ----- the totals ----------------------------------------------------------------------------------
    def round_scores(self) -> list[list[int]]:
        """Each round's points, the rounds over and the one in play if it is over."""
        rounds = self.played + ([self.round] if round_done(self.round) else [])
        return [r.scores() for r in rounds]

    def totals(self) -> list[int]:
        return [sum(points) for points in zip(*self.round_scores())] or [0] * len(self.seats)

    @property
    def over(self) -> bool:
        return round_done(self.round) and self.round_number >= self.rounds

    def winners(self) -> list[int]:
        """The highest total wins; a tie shares the win."""
        totals = self.totals()
        return [i for i, t in enumerate(totals) if t == max(totals)]

    # ----- whose move ------------------------------------------------------------------------------------
    def bidders(self) -> list[int]:
        """The players who may bid for the discard now (3 or more players, before the next player draws)."""
        r = self.round
        if round_done(r) or self.bids_asked or not r.bid_window or r.step != DRAW or not r.pile:
            return []
        return [p for p in range(r.players) if r.check({"player": p, "bid": True})]

    def waiting(self) -> str:
        if round_done(self.round):
            return OVER if self.over else ROUND_OVER
        return BIDS if self.bidders() else MOVE

    def mover(self) -> int:
        """Whose move it is (the bids asked for and answered): the player drawing, laying or discarding, or the
        bidder drawing their bugs."""
        r = self.round
        return r.bidder if r.step == BIDDER else r.turn

    def forced(self) -> dict | None:
        """A move no one chooses, made by the game itself: replacement draws, the bidder's bag draw, the end of
        a round no one can draw in (rule 7). None also once the round is done (or stopped at play's TURN_LIMIT)."""
        r = self.round
        if round_done(r):
            return None
        if r.step in (REPLACE, BIDDER):
            return {"player": self.mover(), "draw": "bag"}
        if r.step == DRAW and not self.bidders() and r.check({"end": "no_winner"}):
            return {"end": "no_winner"}
        return None

    def view(self, seat: int):
        return self.round.view(seat)

    def bot_work(self, seat: int):
        """What a bot's move is worked out from (picklable, for the bots' processes): call it for the move."""
        import functools
        level = self.seats[seat]["kind"].split(":", 1)[1]
        bot = make_bot(level, derive_seed(self.seed, "rumbugz-bot", len(self.played), seat, len(self.round.moves)))
        return functools.partial(bot.act, self.view(seat))

    # ----- making moves -----------------------------------------------------------------------------------
    def check(self, move: dict):
        return self.round.check(move)

    def act(self, move: dict):
        """Judge and, if legal, make a move; an empty bag is refilled from the pile first (rule 7). Saved."""
        r = self.round
        if stopped(r):   # (the rules would go on: the game stops the round)
            return wrong_turn(N_("No one went out in {limit} turns: the round ends without a winner."),
                              limit=TURN_LIMIT)
        if move.get("draw") == "bag" and r.bag_size == 0:
            reshuffle(r, random.Random(derive_seed(self.seed, "rumbugz-reshuffle", len(self.played), len(r.moves))))
        verdict = r.apply(move)
        if verdict:
            if "draw" in move:
                self.bids_asked = False   # the next discard's bids are asked anew
            self.save()
        return verdict

    def bids_done(self) -> None:
        """The players who may bid have been asked (their bids made)."""
        self.bids_asked = True
        self.save()

    def can_undo(self, seat: int) -> bool:
        """A lay or a change of this turn may be taken back before the discard: no bug has been drawn since, so
        nothing hidden was seen."""
        r = self.round
        last = r.moves[-1] if r.moves else {}
        return r.step == PLAY and r.turn == seat and last.get("player") == seat and ("lay" in last or
                                                                                      "change" in last)

    def undo(self, seat: int) -> bool:
        if not self.can_undo(seat):
            return False
        r = self.round
        again = Round(r.players, r.first, r.start_bag)
        for m in r.moves[:-1]:
            again.apply(m)
        self.round = again
        self.save()
        return True

    def next_round(self) -> None:
        if round_done(self.round) and not self.over:
            self.played.append(self.round)
            self.bids_asked = False
            self.round = self._deal()
            self.save()

    def rematch(self, seed: int | None = None) -> "RumbugzGame":
        seed = derive_seed(self.seed, "rumbugz-rematch") if seed is None else seed
        return RumbugzGame.new(self.seats, seed, self.rounds, self.savers)

    def legal_moves(self, seat: int) -> list[dict]:
        return legal_moves(self.view(seat))

    # ----- saving --------------------------------------------------------------------------------------
    def record(self) -> dict:
        mark = {"tournament": dict(self.tournament)} if self.tournament else {}
        return {"format": FORMAT, "version": VERSION, "seed": self.seed, "rounds": self.rounds, "created": self.created,
                "seats": [dict(s) for s in self.seats], "bids_asked": self.bids_asked,
                "played": [self._round_record(r) for r in self.played], "round": self._round_record(self.round), **mark}

    def round_records(self) -> list[dict]:
        """Every round's record, in the order played (the one in play last)."""
        return [self._round_record(r) for r in [*self.played, self.round]]

    def _round_record(self, r: Round) -> dict:
        bugs = dict(r.bug_set)
        return round_record(r, bugs, [{"name": s["name"], "kind": s["kind"]} for s in self.seats])

    def save(self) -> str | None:
        self.save_error = save_to(self.savers, self)
        return self.save_error

    @classmethod
    def from_record(cls, data: dict, savers=()) -> "RumbugzGame":
        """A saved game read back; RecordError says what is wrong. A round whose moves break a rule goes on from
        before the first such move."""
        from ..rules.record import _need, need_format
        need_format(data, FORMAT, VERSION)
        for key in ("seed", "rounds", "seats", "played", "round"):
            _need(key in data, _("the saved game has no '{key}' field"), key=key)
        _need(isinstance(data["rounds"], int) and 1 <= data["rounds"] <= MOST_ROUNDS and isinstance(data["played"],
              list) and len(data["played"]) < data["rounds"], _("'rounds' and 'played' do not fit together"))
        game = cls.__new__(cls)
        game.seats = [{"name": s["name"], "kind": s["kind"]} for s in parse_record(data["round"]).players]
        game.seed, game.rounds, game.savers, game.save_error = data["seed"], data["rounds"], list(savers), None
        game.played = [finished_round(r) for r in data["played"]]
        game.round = replay(parse_record(data["round"])).game
        game.bids_asked = bool(data.get("bids_asked"))
        game.created = data["created"] if isinstance(data.get("created"), str) else utc_now()
        mark = data.get("tournament")
        if isinstance(mark, dict) and all(type(mark.get(k)) is int for k in ("id", "game")):
            game.tournament = {"id": mark["id"], "game": mark["game"]}
        return game


def finished_round(record: dict) -> Round:
    """A finished round's record replayed; RecordError when it does not replay to its end."""
    from ..rules.record import _need
    done = replay(parse_record(record))
    _need(done.error is None and round_done(done.game), _("a finished round of the saved game does not replay"))
    return done.game


def check_rounds(rounds: int) -> int:
    """The number of rounds, if a game may have it (a game of its own, a tournament's); else ValueError."""
    if not 1 <= rounds <= MOST_ROUNDS:
        raise ValueError(_("A game has 1 to {count} rounds.").format(count=MOST_ROUNDS))
    return rounds


def is_rumbugz(game) -> bool:
    return isinstance(game, RumbugzGame)


def saved_text(game: RumbugzGame) -> str:
    """What Continue resumes."""
    return _("RumBugz, round {round} of {rounds}: {players}").format(
        round=game.round_number, rounds=game.rounds, players=", ".join(game.names))


__all__ = ["RumbugzGame", "RecordError", "is_rumbugz", "saved_text", "FORMAT", "MOVE", "BIDS", "ROUND_OVER", "OVER"]
