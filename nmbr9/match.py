"""A game at the table, without a window: whose turn, hand-offs, bots, take back, results.

The scene (or a test, or the headless tournament) drives a `Match`:

    m = Match.new([Seat("Ana"), Seat("Ben"), Seat("Bot", "bot:easy")], seed=7, savers=[autosave])
    while not m.over:
        m.update()                       # every frame: commits the bots' tiles when they are ready
        if m.phase == HANDOFF: ...       # show "Pass to <m.seats[m.current_human].name>", then m.hand_over()
        elif m.phase == PLACE: m.confirm(placement)   # the current human's tile; returns the Verdict

In every step (a round; in "2 of 3" each of its three cards) the humans act
in seat order (with NMBR 9 ++ rules `m.options().step` says what: place,
decide, choose, extras); the bots think in processes of their own (ai/worker.py),
watched by a thread, from the moment the card is turned and their tiles are
committed, in seat order, once every human
of the step is done. A bot's choice depends only on its board, the cards seen
and a seed derived from the match seed, its seat and the step, so the game is
the same whatever the timing, and after Continue. After every action that
changes the game each saver's `save(match)` is called.
"""
from __future__ import annotations

import copy
import functools
import hashlib
import random
import threading
from dataclasses import dataclass, replace
from datetime import datetime, timezone

from .ai import FORMER_STRENGTHS, STRENGTHS, View, current_strength
from .i18n import N_, _, as_english, as_now, in_every_language
from .puzzle import BOT_NAMES
from .rules import Board, Game, Move, Options, Placement, Ruleset, Seat, Verdict
from .rules.game import CHOOSE, DECIDE
from .rules.record import Record, RecordError, game_record, parse_record, record_game
from .rules.text import as_json, shown

# Match.phase: what the table is waiting for.
PLACE = "place"        # current_human acts (places a tile; options().step tells what else)
HANDOFF = "handoff"    # pass the table to current_human; hide it until hand_over()
BOTS = "bots"          # no human to place: the bots are thinking (call update())
OVER = "over"          # the last round has been played


OWN_FIELDS = ("seed", "created", "practice", "tournament", "decided")   # record fields a Match writes


def derive_seed(*parts) -> int:
    """A seed for one purpose (a bot's round, a rematch, a tournament game) from its parts."""
    digest = hashlib.sha256(repr(parts).encode("utf-8")).digest()
    return int.from_bytes(digest[:4], "big")  # in SEEDS


def save_to(savers, game) -> str | None:
    """Hand a game (NMBR 9's Match, a RumBugz game) to every saver; what went wrong, in words, or None."""
    problems = []
    for saver in savers:
        try:
            saver.save(game)
        except OSError as e:
            problems.append(getattr(e, "message", None) or str(e))
    return " ".join(problems) or None


SEEDS = range(2 ** 32)   # 32 bits: short enough to show and type in (docs/record-fields.md)


def fresh_seed() -> int:
    """A new seed when the player gave none (from the system's entropy, not module state)."""
    return random.SystemRandom().randrange(len(SEEDS))


def check_seed(seed: int) -> int:
    """The seed, if a game may be set up by it; else ValueError saying what a seed is."""
    if seed not in SEEDS:
        raise ValueError(_("The seed must be a whole number from 0 to {last}.").format(last=SEEDS[-1]))
    return seed


def utc_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def local_date(stamp: str) -> str:
    """The player's own date of a stored time (kept in UTC): the day the daily puzzle was theirs."""
    try:
        return datetime.fromisoformat(stamp).astimezone().date().isoformat()
    except (TypeError, ValueError):
        return str(stamp)[:10]


# the names New game gives seats nobody named, stored in English (older games: in the language of their day)
SEAT_NAMES = (N_("Player {number}"), N_("Bot {number}"))
# a bot's strength in words (New game's seats, a tournament's standings)
STRENGTH_NAMES = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard")}
# how `nmbr9 tournament --bots` named its bots before it named them as New game does ("Bot 1 (hard)", the
# strength in English): read as "Bot 1", so that its strength is told once (seat_told)
OLD_BOT_NAME = N_("Bot {n} ({strength})")
# the one seat of the best layout `nmbr9 analyse --out` writes (kind "analysis"): kept in English, shown in the
# language of the moment (replay in Polish said "Best found: 96")
BEST_FOUND = N_("Best found")


def _given_names(kind: str) -> tuple[str, ...]:
    """The names the game gives a seat of this kind: New game's, a puzzle's bot's, the best layout's."""
    own = (BOT_NAMES[kind],) if kind in BOT_NAMES else (BEST_FOUND,) if kind == "analysis" else ()
    return own + SEAT_NAMES


def default_name(index: int, kind: str) -> str:
    """The name New game gives seat `index` when nobody types one, in the language of the moment."""
    player, bot = SEAT_NAMES
    return _(player if kind == "human" else bot).format(number=index + 1)


def strength_name(kind: str) -> str:
    """A bot's strength in words ("hard" for "bot:hard", and for a former "bot:expert")."""
    strength = current_strength(kind.removeprefix("bot:"))
    return _(STRENGTH_NAMES[strength]) if strength in STRENGTH_NAMES else strength


def seat_name(name: str, kind: str) -> str:
    """A seat's name as shown: one the game gave (New game's "Player 2", a puzzle's "Easy bot") in the language of
    the moment, whichever language it was stored in; a name a player typed, as typed, cut short past
    SHOWN_LENGTH (a 50 MB name was printed whole)."""
    if kind != "human":
        name = _without_strength(name, kind)
    return shown(as_now(name, _given_names(kind)))


def seat_told(name: str, kind: str) -> str:
    """A seat's name with, for a bot, its strength, once: "Bot 1 (hard)", "Ana" (a tournament's standings)."""
    return with_strength(seat_name(name, kind), kind)


def with_strength(shown: str, kind: str) -> str:
    """A name as shown (perhaps cut short) with, for a bot, its strength: "Bot 1 (hard)"."""
    return shown if kind == "human" else _("{name} ({strength})").format(name=shown, strength=strength_name(kind))


def _without_strength(name: str, kind: str) -> str:
    """"Bot 1", for a bot `nmbr9 tournament --bots` named "Bot 1 (hard)" (OLD_BOT_NAME, in the language of its
    day); any other name as it is."""
    for form in in_every_language(OLD_BOT_NAME):
        head, _field, tail = form.replace("{strength}", kind.removeprefix("bot:")).partition("{n}")
        number = name[len(head):len(name) - len(tail)] if len(name) > len(head) + len(tail) else ""
        if name.startswith(head) and name.endswith(tail) and number.isdigit():
            return SEAT_NAMES[1].format(number=number)
    return name


def stored_name(name: str, kind: str = "human") -> str:
    """A seat's name as kept: one the game gives ("Player 1", or "Spieler 1" left in the field; a puzzle's
    "Easy bot") in English, so a player who typed no name is one player in every language (personal bests, a
    puzzle's best so far); a name a player typed, as typed."""
    return as_english(name, _given_names(kind))


def places(values: list) -> list[int]:
    """The place of each value, highest first; equal values share a place (1, 1, 3)."""
    return [1 + sum(1 for o in values if o > v) for v in values]


@dataclass(frozen=True)
class Result:
    """One player's line on the results screen."""
    place: int                 # 1 for every winner (ties share the win)
    seat: int
    name: str
    kind: str                  # "human" or "bot:<strength>"
    score: int
    winner: bool
    by_level: dict[int, int]   # points per level, for scoring the boards top level first


class _BotJob:
    """The bots' choices for one step: each a piece of work (None: nothing to place), worked out
    in the thinking processes (ai/worker.py, all bots at once) watched by a thread, or one bot
    per update()."""

    def __init__(self, key, tasks, threaded: bool, processes: bool = False):
        self.key = key
        self.results: dict[int, Placement | Exception | None] = {}   # None: nothing to place
        self._pending = list(tasks)    # (seat, work)
        self.count = len(self._pending)
        self._processes = processes
        self._done = threading.Event()
        self._thread = None
        if threaded:
            self._thread = threading.Thread(target=self._run, name="nmbr9-bots", daemon=True)
            self._thread.start()

    @property
    def done(self) -> bool:
        return self._done.is_set()

    def _think_one(self) -> None:
        seat, work = self._pending.pop(0)
        self._settle(seat, work)

    def _settle(self, seat, work) -> None:
        try:
            self.results[seat] = None if work is None else work()
        except Exception as e:  # judged on the main thread when committing (see Match._commit)
            self.results[seat] = e

    def _run(self) -> None:
        if self._processes:
            from .ai import worker
            started = [(seat, work if work is None else worker.start(work)) for seat, work in self._pending]
            self._pending = []
            for seat, result in started:
                self._settle(seat, result)
        while self._pending:
            self._think_one()
        self._done.set()

    def step(self) -> None:
        """Without a thread: think for one bot (the UI calls this once a frame)."""
        if self._thread is None and not self.done:
            self._think_one()
            if not self._pending:
                self._done.set()

    def wait(self) -> None:
        if self._thread is None:
            self._run()
        self._done.wait()


def _default_bot_factory(strength: str, seed: int):
    from .ai import make_bot
    return make_bot(strength, seed)


class Match:
    """One game being played: a `Game` plus turn order, bots, saving and results."""

    def __init__(self, game: Game, seed: int, *, practice: bool = False, tournament: dict | None = None,
                 created: str | None = None, extra: dict | None = None, savers=(), threaded: bool = True,
                 bot_factory=None):
        """RecordError (a ValueError) if a seat is a bot this game doesn't have."""
        for s in game.seats:
            if s.is_bot and s.strength not in STRENGTHS and s.strength not in FORMER_STRENGTHS:   # a newer game's
                raise RecordError(N_("unknown bot strength {kind} for {name} (known: {known})"),
                                  kind=as_json(s.kind), name=as_json(s.name), known=", ".join("bot:" + x for x in STRENGTHS))
        self.game = game
        self.seed = seed
        self.practice = practice
        self.tournament = tournament      # {"id": tournament id, "game": game number} or None
        self.tournament_games: int | None = None   # how many games its tournament has (Tournament.attach)
        self.created = created or utc_now()
        self.extra = dict(extra or {})      # other record fields (e.g. a puzzle's code), kept on every save
        self.savers = list(savers)
        self.save_error: str | None = None   # the last save's problem, a sentence for the player
        self.repaired: list[str] = []        # its record's fields it could not use (from_record), by name
        self.threaded = threaded
        self.bot_factory = bot_factory or _default_bot_factory
        self._at_table: int | None = None    # the human who last had the table
        self._job: _BotJob | None = None
        self._ensure_job()

    # ----- making matches ----------------------------------------------------
    @classmethod
    def new(cls, seats: list[Seat], seed: int, ruleset: Ruleset = Ruleset(), deck: list[int] | None = None,
            **kw) -> "Match":
        """A new game set up by random.Random(seed) (deck, powers, start tiles), or with the deck given."""
        check_seed(seed)
        if deck is not None:
            return cls(Game(list(seats), list(deck), ruleset), seed, **kw)
        return cls(Game.new(list(seats), ruleset, random.Random(seed)), seed, **kw)

    @classmethod
    def from_record(cls, data, **kw) -> "Match":
        """The match a record (dict or parsed Record) describes, replayed through the rules.

        RecordError if it is not a usable record of this game.
        """
        rec = data if isinstance(data, Record) else parse_record(data)
        # a seat without a name (a hand-edited save): "Pass to " with nothing after it; it gets the name New
        # game gives a seat nobody named
        nameless = [i for i, s in enumerate(rec.seats) if not s.name.strip()]
        if nameless:
            rec = replace(rec, seats=[Seat(stored_name(default_name(i, s.kind)), s.kind) if i in nameless else s
                                      for i, s in enumerate(rec.seats)])
        game = record_game(rec)
        extra = rec.extra
        seed = extra.get("seed")
        usable = {"seed": isinstance(seed, int) and not isinstance(seed, bool)}
        if not usable["seed"]:
            seed = derive_seed("deck", *rec.deck)  # a record from elsewhere: bots still deterministic
        t = extra.get("tournament")
        usable["tournament"] = isinstance(t, dict) and isinstance(t.get("id"), int) and isinstance(t.get("game"), int)
        tournament = t if usable["tournament"] else None
        usable["created"] = isinstance(extra.get("created"), str)
        created = extra.get("created") if usable["created"] else None
        usable["practice"] = isinstance(extra.get("practice"), bool)
        others = {k: v for k, v in extra.items() if k not in OWN_FIELDS}
        decided = extra.get("decided")
        usable["decided"] = isinstance(decided, list)
        for d in decided if isinstance(decided, list) else []:   # a stale entry is refused, an odd one skipped
            if isinstance(d, dict) and isinstance(d.get("player"), int):
                if d.get("build") is True:
                    game.decide(d["player"], True)
                    continue
                elif isinstance(d.get("marker"), int) and not isinstance(d["marker"], bool):
                    game.choose(d["player"], d["marker"])
                    continue
            usable["decided"] = False
        match = cls(game, seed, practice=extra.get("practice") is True, tournament=tournament,
                    created=created, extra=others, **kw)
        # a field of its own there but not of a usable kind (a hand-edited save: "practice": "yes"): the game
        # goes on without it, and whoever loads it says so
        match.repaired = ["name"] * bool(nameless) + [k for k in OWN_FIELDS if k in extra and not usable[k]]
        return match

    def rematch(self, seed: int | None = None) -> "Match":
        """Same seats and rules, a new deck (seed derived from this one unless given); saved at once."""
        seed = derive_seed(self.seed, "rematch") if seed is None else seed
        match = Match.new(self.seats, seed, self.game.ruleset, practice=self.practice, savers=self.savers,
                          threaded=self.threaded, bot_factory=self.bot_factory)
        match.save()
        return match

    # ----- the state of the table -----------------------------------------------
    @property
    def seats(self) -> list[Seat]:
        return self.game.seats

    @property
    def names(self) -> list[str]:
        """The seats' names as shown (seat_name)."""
        return [seat_name(s.name, s.kind) for s in self.seats]

    @property
    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if not s.is_bot]

    @property
    def round(self) -> int:
        return self.game.round

    @property
    def rounds(self) -> int:
        return self.game.rounds

    @property
    def card(self) -> int | None:
        return self.game.card

    @property
    def over(self) -> bool:
        return self.game.over

    def supply(self) -> list[int]:
        return self.game.supply()

    def seen(self) -> list[int]:
        return self.game.seen()

    @property
    def current_human(self) -> int | None:
        """The seat of the human who places next this round (seat order), or None."""
        return next((i for i in self.game.waiting() if not self.seats[i].is_bot), None)

    @property
    def needs_handoff(self) -> bool:
        """True when the table must be passed to current_human (hide it until hand_over())."""
        h = self.current_human
        return h is not None and len(self.humans) > 1 and h != self._at_table

    def hand_over(self) -> None:
        """current_human has taken the table (clicked the hand-off screen)."""
        self._at_table = self.current_human

    @property
    def phase(self) -> str:
        if self.over:
            return OVER
        if self.current_human is None:
            return BOTS
        return HANDOFF if self.needs_handoff else PLACE

    @property
    def bots_thinking(self) -> bool:
        return self._job is not None and not self._job.done

    @property
    def bots_ready(self) -> tuple[int, int]:
        """How many of the bots of this step have chosen, of how many (0 of 0: none thinks)."""
        job = self._job
        return (len(job.results), job.count) if job is not None else (0, 0)

    def board(self, seat: int) -> Board:
        """A player's board as it is now (their own view)."""
        return self.game.boards[seat]

    def board_at_round(self, seat: int, round_: int | None = None) -> Board:
        """A player's board as it stood at the start of `round_` (default: the current round)."""
        return self.game.board_at_round(seat, self.round if round_ is None else round_)

    def board_view(self, seat: int, viewer: int | None) -> Board:
        """What `viewer` sees of `seat`'s board: their own as it is, others' as at this round."""
        return self.board(seat) if seat == viewer else self.board_at_round(seat)

    # ----- a human's actions ----------------------------------------------------------
    # They read like Game's (player first), so a screen written for a Game can drive a Match.
    # Only current_human may act (pass-and-play order); every action that changes the game
    # is saved at once.
    def options(self, player: int | None = None) -> Options:
        """What a player (default: the current human) may do now: step, digit, fillers, powers..."""
        return self.game.options(self.current_human if player is None else player)

    def legal_placements(self, player: int | None = None, *args, **kw) -> list[Placement]:
        """Where a player (default: the current human) can lay the turn's tile (arguments as Game's)."""
        player = self.current_human if player is None else player
        return [] if player is None else self.game.legal_placements(player, *args, **kw)

    def check(self, player: int, p: Placement, powers=(), reserved: bool = False) -> Verdict:
        """The verdict for `player` laying `p` now (for the green or red ghost); nothing changes."""
        return self.game.check(self._turn_of(player), p, powers, reserved)

    def play(self, player: int, p: Placement, powers=(), reserved: bool = False) -> Verdict:
        """Commit `player`'s tile (or gap filler) if it is their turn and legal; returns the verdict."""
        return self._act(self.game.play, player, p, powers, reserved)

    def confirm(self, p: Placement, powers=(), reserved: bool = False) -> Verdict:
        """play() for the current human."""
        return self.play(self.current_human, p, powers, reserved)

    def decide(self, player: int, build: bool) -> Verdict:
        """"2 of 3": build this card's tile or reject it."""
        return self._act(self.game.decide, player, build)

    def choose(self, player: int, marker: int) -> Verdict:
        """"Level to Level": take the tile shown under `marker`."""
        return self._act(self.game.choose, player, marker)

    def reserve(self, player: int) -> Verdict:
        """Breaking Rules, Reserve: set the turn's tile aside."""
        return self._act(self.game.reserve, player)

    def check_relocate(self, player: int, at: tuple[int, int, int], p: Placement) -> Verdict:
        return self.game.check_relocate(self._turn_of(player), at, p)

    def relocate(self, player: int, at: tuple[int, int, int], p: Placement) -> Verdict:
        """Breaking Rules, Relocate: move a free tile with a square at `at` to `p`."""
        return self._act(self.game.relocate, player, at, p)

    def end_turn(self, player: int) -> Verdict:
        """End a turn that still offers optional actions (gap fillers, reserved tile, Relocate)."""
        return self._act(self.game.end_turn, player)

    def waiting(self) -> list[int]:
        return self.game.waiting()

    def scores(self) -> list[int]:
        return self.game.scores()

    @property
    def boards(self) -> list[Board]:
        return self.game.boards

    def _turn_of(self, player: int | None) -> int:
        """`player` if it is their turn to act, else -1 (which every Game action refuses as wrong_turn)."""
        return player if player is not None and player == self.current_human else -1

    def _act(self, action, player, *args) -> Verdict:
        v = action(self._turn_of(player), *args)
        if v:
            self._at_table = player
            self._changed()
        return v

    def update(self) -> bool:
        """Call every frame: commits the bots' tiles once they and the round's humans are done.

        Never blocks for long (threaded bots; without a thread, one bot thinks per call).
        Returns True when tiles were committed.
        """
        job = self._ensure_job()
        if job is None:
            return False
        job.step()
        if self.current_human is not None or not job.done:
            return False
        self._commit(job)
        return True

    def run_bots(self) -> bool:
        """Wait for this round's bots and commit their tiles (headless play, tests).

        False when there is nothing to do or a human must place first.
        """
        job = self._ensure_job()
        if job is None or self.current_human is not None:
            return False
        job.wait()
        self._commit(job)
        return True

    def play_out(self, progress=None) -> list[Result]:
        """Play a game without humans to the end; progress(match) after every round."""
        if self.humans and not self.over:
            raise ValueError("play_out needs a game without humans")
        while self.run_bots():
            if progress:
                progress(self)
        return self.results()

    @property
    def can_take_back(self) -> bool:
        """Take back is for solo practice: one human, and a tile of theirs to take back."""
        return (self.practice and len(self.humans) == 1
                and any(not self.seats[m.player].is_bot for m in self.game.moves))

    def take_back(self) -> list[Move]:
        """Undo the human's last confirmed tile (and the bots' tiles laid after it)."""
        if not self.can_take_back:
            return []
        undone = []
        while True:
            m = self.game.take_back()
            undone.append(m)
            if not self.seats[m.player].is_bot:
                break
        self._changed()
        return undone

    # ----- the end ------------------------------------------------------------------
    def results(self) -> list[Result]:
        """Everyone's score, best first; ties share a place and the win."""
        scores = self.game.scores()
        pl = places(scores)
        out = [Result(pl[i], i, s.name, s.kind, scores[i], pl[i] == 1, self.game.boards[i].score_by_level())
               for i, s in enumerate(self.seats)]
        return sorted(out, key=lambda r: (r.place, r.seat))

    # ----- saving ---------------------------------------------------------------------
    def record(self) -> dict:
        """The game record (spec/game-record.md) with this game's extra fields (docs/record-fields.md)."""
        extra = {**self.extra, "seed": self.seed, "created": self.created, "practice": self.practice}
        if self.tournament:
            extra["tournament"] = dict(self.tournament)
        decided = self.game.decided()
        if decided:   # a decision to build or a tile chosen binds after Continue too
            extra["decided"] = [{"player": i, **d} for i, d in sorted(decided.items())]
        return game_record(self.game, extra)

    def save(self) -> str | None:
        """Hand the record to every saver; returns (and keeps in save_error) any problem."""
        self.save_error = save_to(self.savers, self)
        return self.save_error

    # ----- inside -------------------------------------------------------------------------
    def _changed(self) -> None:
        self.save()
        self._ensure_job()

    def _ensure_job(self) -> _BotJob | None:
        """The bots' job for this step, started as soon as its card is turned."""
        g = self.game
        bots = [i for i in g.waiting() if self.seats[i].is_bot]
        if not bots:
            self._job = None
            return None
        key = (g.step, tuple(bots))
        if self._job is None or self._job.key != key:
            seen = tuple(g.seen())
            tasks = []
            for i in bots:
                strength, seed = self.seats[i].strength, derive_seed(self.seed, "bot", i, g.step)
                bot = self.bot_factory(strength, seed)
                if g.ruleset != Ruleset():   # NMBR 9 ++: the whole turn, planned on a copy of the game
                    from .ai.plus import plan_turn
                    work = functools.partial(plan_turn, copy.deepcopy(g), i, strength, seed, bot)
                else:
                    digit = self._bot_plan(i)[1]
                    work = None if digit is None else functools.partial(
                        bot.choose, View(g.boards[i].copy(), digit, seen, g.ruleset, len(g.deck)))
                tasks.append((i, work))
            # the game's own bots think in processes of their own; a test's stand-ins here
            own = self.bot_factory is _default_bot_factory
            self._job = _BotJob(key, tasks, self.threaded, processes=self.threaded and own)
        return self._job

    def _bot_plan(self, seat: int) -> tuple[int | None, int | None]:
        """(marker to choose, digit to place) for a classic bot's turn; digit None: it rejects the card.
        (Under NMBR 9 ++ rules a bot plans its whole turn instead: ai/plus.py.)"""
        o = self.game.options(seat)
        if o.step == DECIDE and not o.can_build:
            return None, None
        if o.step == CHOOSE:
            marker = max(o.choices)
            return marker, o.choices[marker]
        return None, o.digit

    def _commit(self, job: _BotJob) -> None:
        self._job = None
        g = self.game
        for seat in sorted(job.results):
            if g.ruleset != Ruleset():
                self._commit_plus(seat, job.results[seat])
                continue
            marker, digit = self._bot_plan(seat)
            if g.options(seat).step == DECIDE:
                g.decide(seat, digit is not None)
            if marker is not None:
                g.choose(seat, marker)
            if digit is not None:
                p = job.results[seat]
                v = g.play(seat, p) if isinstance(p, Placement) else None
                if not v:
                    why = v.message if v is not None else repr(p)
                    raise RuntimeError(f"the bot of {as_json(self.seats[seat].name)} failed: {why}") from (
                        p if isinstance(p, Exception) else None)
            if seat in g.waiting() and g.options(seat).can_end:
                g.end_turn(seat)   # bots skip optional actions
        self._changed()

    def _commit_plus(self, seat: int, plan) -> None:
        """NMBR 9 ++: do the bot's planned turn (ai/plus.py), each action already checked on a copy."""
        from .ai.plus import apply_plan
        if isinstance(plan, Exception):
            raise RuntimeError(f"the bot of {as_json(self.seats[seat].name)} failed: {plan}") from plan
        apply_plan(self.game, seat, plan)
