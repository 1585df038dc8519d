"""Game flow: the deck, the turns, every player's board, and who still has to act.

One class plays classic NMBR 9 and NMBR 9 ++: up to six players, the three
modules (start tiles, gap fillers, Breaking Rules) and the two variants
("2 of 3", "Level to Level"), all combinable (docs/record-plus.md).

A *step* is one card turn (classic: a round; "2 of 3": one of the round's
three cards; "Level to Level": a round with a card under each active level
marker). In a step every player has a *turn*: first the required action
(place the tile, or reject it in "2 of 3", or set it aside with Reserve),
then, if anything optional is left (gap fillers, a reserved tile to build,
Relocate), more actions until `end_turn`. A turn with nothing optional left
ends by itself, so the classic game needs no `end_turn` at all. The step
moves on when every turn has ended.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

from .board import (ALLOW_BRIDGE, ALLOW_LONER, ALLOW_SINGLE_SUPPORT, HIGHEST_LEVEL, Board, Placement,
                    Reason, Verdict, N_, refuse)
from .text import as_json, clean_name
from .tiles import FILLERS, START_TILES, is_filler

DIGITS = tuple(range(10))
MAX_PLAYERS = 6

CLASSIC, TWO_OF_THREE, LEVEL_TO_LEVEL = "classic", "two_of_three", "level_to_level"
VARIANTS = {CLASSIC: 20, TWO_OF_THREE: 30, LEVEL_TO_LEVEL: 40}   # variant -> cards in its deck
VARIANT_MAX_PLAYERS = {CLASSIC: MAX_PLAYERS, TWO_OF_THREE: 4, LEVEL_TO_LEVEL: 4}

START_TILES_MODULE, GAP_FILLERS, BREAKING_RULES = "start_tiles", "gap_fillers", "breaking_rules"
MODULES = (START_TILES_MODULE, GAP_FILLERS, BREAKING_RULES)

RELOCATE, FLIP, SINGLE_SUPPORT, BRIDGE, LONER, RESERVE = (
    "relocate", "flip", "single_support", "bridge", "loner", "reserve")
POWERS = (RELOCATE, FLIP, SINGLE_SUPPORT, BRIDGE, LONER, RESERVE)
RELAXATIONS = {SINGLE_SUPPORT: ALLOW_SINGLE_SUPPORT, BRIDGE: ALLOW_BRIDGE, LONER: ALLOW_LONER}
PLACING_POWERS = (FLIP, SINGLE_SUPPORT, BRIDGE, LONER)  # used with play(); the others are actions
MARKERS = 2              # Breaking Rules markers per player (plus the reject marker in "2 of 3")
CARDS_PER_ROUND = 3      # "2 of 3"
BUILDS_PER_ROUND = 2
LEVEL_MARKERS = 5        # "Level to Level": markers 0..4
PERSONAL_SUPPLY = 3      # "Level to Level" with 4 players: tiles of each number per player

# Move kinds in a record (docs/record-plus.md); "place" is the classic move.
PLACE, FILLER, RESERVE_MOVE, RELOCATE_MOVE, REJECT, END = "place", "filler", "reserve", "relocate", "reject", "end"
MOVE_KINDS = (PLACE, FILLER, RESERVE_MOVE, RELOCATE_MOVE, REJECT, END)

# What a player has to do now (Options.step).
OVER, DONE, DECIDE, CHOOSE, PLACE_TILE, EXTRAS = "over", "done", "decide", "choose", "place", "extras"

# Refusal codes of the NMBR 9 ++ rules (documented in docs/record-plus.md).
GAME_REFUSAL_CODES = ("power_not_in_play", "power_used", "no_marker", "bad_power", "no_filler",
                      "no_reserve", "reserve_expired", "must_build", "must_reject", "choose_first",
                      "already_chosen", "not_shown", "not_in_supply", "not_movable", "relocate_higher",
                      "not_moved", "tile_pending")


@dataclass(frozen=True)
class Seat:
    """A player at the table: a name and 'human' or 'bot:<strength>'."""
    name: str
    kind: str = "human"

    def __post_init__(self):   # every name typed or read from a file passes here: kept as it can be written
        if isinstance(self.name, str):
            object.__setattr__(self, "name", clean_name(self.name))

    @property
    def is_bot(self) -> bool:
        return self.kind.startswith("bot")

    @property
    def strength(self) -> str | None:
        return self.kind.split(":", 1)[1] if self.kind.startswith("bot:") else None


@dataclass(frozen=True)
class Ruleset:
    """The variant, the NMBR 9 ++ modules in play and, with Breaking Rules, its powers."""
    variant: str = CLASSIC
    modules: tuple[str, ...] = ()
    powers: tuple[str, ...] = ()

    def uses(self, module: str) -> bool:
        return module in self.modules

    def problem(self, players: int | None = None) -> Reason | None:
        """What is wrong with this ruleset (for `players` players), or None."""
        if self.variant not in VARIANTS:
            return Reason.of(N_("unknown variant {variant}"), variant=as_json(self.variant))
        for m in self.modules:
            if m not in MODULES:
                return Reason.of(N_("unknown module {module}"), module=as_json(m))
        if len(set(self.modules)) != len(self.modules):
            return Reason.of(N_("a module is listed twice"))
        for p in self.powers:
            if p not in POWERS:
                return Reason.of(N_("unknown power {power}"), power=as_json(p))
        if len(set(self.powers)) != len(self.powers):
            return Reason.of(N_("a power is listed twice"))
        if self.uses(BREAKING_RULES) != bool(self.powers):
            return Reason.of(N_("Breaking Rules needs at least one power, and powers need Breaking Rules"))
        top = VARIANT_MAX_PLAYERS[self.variant]
        if players is not None and not 1 <= players <= top:
            return Reason.of(N_("the {variant} game has 1 to {top} players"), variant=self.variant, top=top)
        return None

    def to_json(self) -> dict:
        out = {"variant": self.variant, "modules": list(self.modules)}
        if self.powers:
            out["powers"] = list(self.powers)
        return out


@dataclass(frozen=True)
class Move:
    """One action in a game, as the record stores it (docs/record-plus.md)."""
    round: int
    player: int
    placement: Placement | None = None      # place, filler, relocate: where the piece went
    kind: str = PLACE
    slot: int | None = None                 # "2 of 3": which of the round's three cards (0..2)
    marker: int | None = None               # "Level to Level": the level marker the tile was taken from
    powers: tuple[str, ...] = ()            # place: Breaking Rules powers used on this tile
    reserved: bool = False                  # place: this is the reserved tile, built as a second tile
    source: tuple[int, int, int] | None = None  # relocate: (x, y, level) of a square of the tile moved
    digit: int | None = None                # reserve: the tile set aside

    def to_json(self) -> dict:
        out = {"round": self.round, "player": self.player}
        if self.kind != PLACE:
            out = {"kind": self.kind, **out}
        if self.slot is not None:
            out["slot"] = self.slot
        if self.marker is not None:
            out["marker"] = self.marker
        if self.kind == RESERVE_MOVE:
            out["digit"] = self.digit
        if self.kind == RELOCATE_MOVE:
            out["from"] = list(self.source)
        p = self.placement
        if p is not None:
            out.update({"piece" if self.kind == FILLER else "digit": p.piece, "rotation": p.rotation,
                        "x": p.x, "y": p.y, "level": p.level})
            if p.flipped:
                out["flipped"] = True
        if self.powers:
            out["powers"] = list(self.powers)
        if self.reserved:
            out["reserved"] = True
        return out


@dataclass
class Reserve:
    """A tile set aside with the Reserve power."""
    digit: int
    below: int                 # the player's highest level when it was reserved
    max_level: int | None      # "Level to Level": the cap of the marker it came from
    step: int                  # the step it was reserved in (it is built in a later one)
    state: str = "waiting"     # waiting, built, lost
    lost_step: int | None = None   # lost: the step whose turn was its last


@dataclass
class Turn:
    """One player's turn in the current step."""
    decision: bool | None = None   # "2 of 3": True build (maybe not placed yet), False reject
    marker: int | None = None      # "Level to Level": the chosen level marker
    tile: str | None = None        # the turn's tile: placed, reserved, rejected or skipped
    highest: int = -1              # the highest level built on in this turn
    ended: bool = False


@dataclass
class PlayerState:
    """What a player holds besides the board."""
    start_tile: str | None = None
    fillers: list[str] = field(default_factory=list)       # gap fillers not yet on the table
    powers_used: list[str] = field(default_factory=list)   # powers with this player's marker on them
    reserve: Reserve | None = None
    supply: dict[int, int] | None = None    # "Level to Level" with 4 players: tiles left per number
    decisions: list[bool] = field(default_factory=list)    # "2 of 3": this round's decisions
    skipped: tuple[int, tuple[int, ...]] | None = None     # "Level to Level": (round, shown numbers) last skipped

    @property
    def markers_left(self) -> int:
        return MARKERS - len(self.powers_used)


@dataclass(frozen=True)
class Options:
    """What a player may do now: the scene's HUD and the bots read this."""
    player: int
    round: int
    slot: int | None              # "2 of 3": which of the round's cards is turned (0..2)
    step: str                     # over, done, decide, choose, place, extras
    digit: int | None             # the turn's tile, once known
    max_level: int | None         # the highest level the turn's tile may reach (None: no cap)
    can_build: bool               # "2 of 3": building this card is allowed
    can_reject: bool              # "2 of 3": rejecting this card is allowed
    decisions: tuple[bool, ...]   # "2 of 3": this round's decisions so far (True: built)
    cards: tuple[int | None, ...]  # "2 of 3": the round's cards, None while face down
    choices: dict                 # "Level to Level": marker -> number this player may take (before placing)
    marker: int | None            # "Level to Level": the marker of the turn's tile (chosen, or the only one)
    fillers: tuple[str, ...]      # gap fillers not yet placed
    powers: tuple[str, ...]       # the powers in play
    powers_left: tuple[str, ...]  # powers this player may still use in this game
    powers_now: tuple[str, ...]   # of those, the ones that can be used at this moment
    markers_left: int
    reserved: int | None          # the number of the tile waiting beside the table
    reserve_ready: bool           # it may be built now
    reserve_level: int | None     # building on this level or higher makes this the reserve's last turn
    reserve_lost: bool            # it is lost when this turn ends (built higher in the turn it was set aside)
    warnings: tuple[Verdict, ...]  # sentences to show (their `code` says which)
    can_end: bool                 # end_turn() is possible now
    supply: dict | None           # "Level to Level" with 4 players: tiles left per number


def build_board(moves, start_tile: str | None = None, board: Board | None = None) -> Board:
    """The board one player's recorded moves (legal ones, in order) build, or `board` with them added: for a look
    at an opponent's table, and for a client of the server, which is sent moves, not boards."""
    if board is None:
        board = Board()
        if start_tile:
            board.place(Placement(start_tile, 0, 0, 0, 0))
    for m in moves:
        if m.placement is None:
            continue
        if m.kind == RELOCATE_MOVE:
            index = board.tile_at(*m.source)
            board.ids[board.ids == index] = -1
            board._write(m.placement, index)
            board.tiles[index] = m.placement
        else:
            board.tiles.append(m.placement)
            board._write(m.placement, len(board.tiles) - 1)
    return board


def new_deck(rng: random.Random, variant: str = CLASSIC) -> list[int]:
    """The variant's cards (classic: two of each number), shuffled by the generator passed in."""
    deck = [d for d in DIGITS for _ in range(VARIANTS[variant] // 10)]
    rng.shuffle(deck)
    return deck


def draw_powers(rng: random.Random, count: int = 2) -> tuple[str, ...]:
    """Breaking Rules: `count` powers drawn at random, in the rules' order."""
    drawn = set(rng.sample(POWERS, count))
    return tuple(p for p in POWERS if p in drawn)


def deal_start_tiles(rng: random.Random, players: int) -> list[str]:
    """One different start tile per player, at random."""
    return rng.sample(sorted(START_TILES), players)


def _placing_only(powers) -> Verdict:
    if any(q in POWERS and q not in PLACING_POWERS for q in powers):
        return refuse("bad_power", N_("Relocate and Reserve are actions of their own, not used when placing a "
                                      "tile."))
    return OK


def _same_spot(p: Placement, tile: Placement) -> bool:
    """Would `p` cover exactly the squares `tile` covers, on its level (a 0 turned half way does)?"""
    return p.level == tile.level and sorted(p.squares()) == sorted(tile.squares())


def _wrong_turn(template: str = N_("It is not this player's turn to place a tile."), **params) -> Verdict:
    return refuse("wrong_turn", template, **params)


def no_player(player: int, players: int) -> Verdict:
    """A player the game does not have (a record's move, a command's --player); of a solo game, "players are 0
    to 0" read oddly."""
    if players == 1:
        return _wrong_turn(N_("There is no player {player} (the record has only player 0)."), player=player)
    return _wrong_turn(N_("There is no player {player} (players are 0 to {last})."), player=player, last=players - 1)


OK = Verdict(None)
# Reserve builds the tile "in one of your later turns": on the game's last turn there is none, and the tile
# set aside would never be built.
LAST_TURN_RESERVE = refuse("bad_power", N_("This is the game's last turn: a tile set aside with Reserve could "
                                           "never be built. Build it now."))


@dataclass
class Game:
    """A game for 1-6 players (1-4 in the variants), everyone building their own table."""
    seats: list[Seat]
    deck: list[int]
    ruleset: Ruleset = field(default_factory=Ruleset)
    start_tiles: list[str] | None = None     # with the start tiles module: one per seat
    boards: list[Board] = field(init=False)
    moves: list[Move] = field(default_factory=list, init=False)
    round: int = field(default=1, init=False)

    def __post_init__(self):
        problem = self.ruleset.problem(len(self.seats))
        if problem:
            raise ValueError(str(problem))
        if len(self.deck) != VARIANTS[self.ruleset.variant]:
            raise ValueError(f"the {self.ruleset.variant} deck has {VARIANTS[self.ruleset.variant]} cards")
        n = len(self.seats)
        if self.ruleset.uses(START_TILES_MODULE):
            if self.start_tiles is None or len(self.start_tiles) != n or \
                    any(t not in START_TILES for t in self.start_tiles):
                raise ValueError("the start tiles module needs one start tile per player")
        else:
            self.start_tiles = None
        self.boards = [Board() for _ in self.seats]
        self.players = [PlayerState() for _ in self.seats]
        for i, (board, state) in enumerate(zip(self.boards, self.players)):
            if self.start_tiles:
                state.start_tile = self.start_tiles[i]
                board.place(Placement(state.start_tile, 0, 0, 0, 0))  # the start of the table
            if self.ruleset.uses(GAP_FILLERS):
                state.fillers = list(FILLERS)
            if self.variant == LEVEL_TO_LEVEL and n == 4:
                state.supply = {d: PERSONAL_SUPPLY for d in DIGITS}
        self.slot = 0                 # "2 of 3"
        self.step = 0                 # steps begun so far
        self.active = 1               # "Level to Level": active level markers
        self.drawn = 0                # "Level to Level": cards drawn from the deck
        self.piles: list[list[int]] = [[] for _ in range(LEVEL_MARKERS)]
        self.shown: dict[int, int] = {}  # "Level to Level": marker -> card laid under it this round
        self._over = False
        self.turns: list[Turn] = []
        if self.variant == LEVEL_TO_LEVEL:
            self._deal_level_round()
        self._begin_step()
        self._settle()

    @classmethod
    def new(cls, seats: list[Seat], ruleset: Ruleset, rng: random.Random) -> "Game":
        """A fresh game: the deck shuffled, powers drawn (unless chosen), start tiles dealt."""
        if ruleset.uses(BREAKING_RULES) and not ruleset.powers:
            ruleset = Ruleset(ruleset.variant, ruleset.modules, draw_powers(rng))
        deck = new_deck(rng, ruleset.variant)
        tiles = deal_start_tiles(rng, len(seats)) if ruleset.uses(START_TILES_MODULE) else None
        return cls(list(seats), deck, ruleset, tiles)

    # ----- the state every player can see ------------------------------------
    @property
    def variant(self) -> str:
        return self.ruleset.variant

    @property
    def rounds(self) -> int | None:
        """Rounds in the game; None in "Level to Level", where it depends on play."""
        if self.variant == LEVEL_TO_LEVEL:
            return None
        return len(self.deck) // (CARDS_PER_ROUND if self.variant == TWO_OF_THREE else 1)

    @property
    def rounds_played(self) -> int:
        return self.round - 1

    @property
    def over(self) -> bool:
        return self._over

    @property
    def card(self) -> int | None:
        """The number turned in this step, or None after the end (and in "Level to
        Level" while more than one marker shows a card: see `shown`)."""
        if self._over:
            return None
        if self.variant == LEVEL_TO_LEVEL:
            return next(iter(self.shown.values())) if len(self.shown) == 1 else None
        return self.deck[self._card_index()]

    def _card_index(self) -> int:
        return (self.round - 1) * CARDS_PER_ROUND + self.slot if self.variant == TWO_OF_THREE else self.round - 1

    def round_cards(self) -> tuple[int | None, ...]:
        """The cards of this round: "2 of 3" its three (None while face down), else this step's."""
        if self._over:
            return ()
        if self.variant == TWO_OF_THREE:
            first = (self.round - 1) * CARDS_PER_ROUND
            return tuple(self.deck[first + k] if k <= self.slot else None for k in range(CARDS_PER_ROUND))
        if self.variant == LEVEL_TO_LEVEL:
            return tuple(self.shown.values())
        return (self.card,)

    @property
    def placed(self) -> set[int]:
        """Seats whose turn in this step has ended."""
        return {i for i, t in enumerate(self.turns) if t.ended}

    def waiting(self) -> list[int]:
        """Seats that still have to act in this step, in seat order."""
        return [] if self._over else [i for i, t in enumerate(self.turns) if not t.ended]

    def decided(self) -> dict[int, dict]:
        """Decisions of this step whose tile is not dealt with yet, by seat: {"build": True} ("2 of 3")
        or {"marker": k} ("Level to Level"). The record's moves don't hold them, yet they bind the player."""
        out = {}
        for i, t in enumerate(self.turns):
            if t.tile is None and not t.ended and (t.decision or t.marker is not None):
                out[i] = {"build": True} if t.decision else {"marker": t.marker}
        return out

    def supply(self) -> list[int]:
        """Cards not turned yet (what every player can work out)."""
        return sorted(self.deck[len(self.seen()):])

    def seen(self) -> list[int]:
        """Cards turned so far, this step's included."""
        if self.variant == LEVEL_TO_LEVEL:
            return list(self.deck[:self.drawn])
        return list(self.deck[:min(self._card_index() + 1, len(self.deck))])

    def scores(self) -> list[int]:
        return [b.score() for b in self.boards]

    def winners(self) -> list[int]:
        """Seats with the highest score: ties share the win."""
        s = self.scores()
        return [i for i, v in enumerate(s) if v == max(s)]

    # ----- what a player may do -------------------------------------------------
    def options(self, player: int) -> Options:
        st, turn = self.players[player], self._turn(player)
        can_build = can_reject = False
        digit, cap = self._turn_digit(player), self._turn_cap(player)
        if self._over:
            step = OVER
        elif turn.ended:
            step = DONE
        elif turn.tile is not None:
            step = EXTRAS
        elif self.variant == TWO_OF_THREE and turn.decision is None:
            step = DECIDE
        elif self.variant == LEVEL_TO_LEVEL and self._turn_marker(player) is None:
            step = CHOOSE   # more than one tile to choose from (with one, it is simply placed)
        else:
            step = PLACE_TILE
        if self.variant == TWO_OF_THREE and step in (DECIDE, PLACE_TILE):
            can_build, can_reject = self._may_build(player)
            can_reject = can_reject and turn.decision is None
        r = st.reserve
        waiting = r is not None and r.state == "waiting"
        ready = waiting and r.step < self.step and step in (PLACE_TILE, EXTRAS, DECIDE, CHOOSE)
        left = tuple(p for p in self.ruleset.powers if p not in st.powers_used) if st.markers_left else ()
        now = tuple(p for p in left if
                    (p == RELOCATE and step in (DECIDE, CHOOSE, PLACE_TILE, EXTRAS) and self.movable_tiles(player))
                    or (p == RESERVE and step == PLACE_TILE and not self.is_last_step())
                    or (p in PLACING_POWERS and step == PLACE_TILE))
        warnings = []
        # set aside in this very turn, then built higher: it can't be built before the turn ends
        lost = waiting and not self._over and not turn.ended and r.step == self.step and turn.highest > r.below
        if lost:   # (the rule for building it in time, said beside this, no longer helps)
            warnings.append(refuse("reserve_last_turn", N_(
                "You have built on level {level} in the turn you set your {digit} aside: it is lost "
                "at the end of this turn."), digit=r.digit, level=turn.highest))
        elif waiting and not self._over and not turn.ended and (
                turn.highest > r.below or (self.is_last_step() and r.step < self.step)):
            # built higher, or the game's last turn: it is never built after this turn (the rule for when it
            # must be built, said beside this, told the same twice)
            warnings.append(refuse("reserve_last_turn", N_(
                "This is the last turn for your reserved {digit}: build it now or it is lost."), digit=r.digit))
        elif waiting and not self._over:
            if r.below < 0:   # set aside with nothing built ("on level 0 or higher" read as a riddle)
                warnings.append(refuse("reserve_waiting", N_(
                    "Your reserved {digit} must be built at the latest in the turn in which you build your "
                    "first tile; after that turn it is lost."), digit=r.digit))
            else:
                warnings.append(refuse("reserve_waiting", N_(
                    "Your reserved {digit} must be built at the latest in the turn in which you first build "
                    "on level {level} or higher; after that turn it is lost."), digit=r.digit, level=r.below + 1))
        return Options(
            player=player, round=self.round, slot=self.slot if self.variant == TWO_OF_THREE else None,
            step=step, digit=digit, max_level=cap, can_build=can_build, can_reject=can_reject,
            decisions=tuple(st.decisions), cards=self.round_cards() if self.variant == TWO_OF_THREE else (),
            choices=self._choices(player) if step in (CHOOSE, PLACE_TILE) and self.variant == LEVEL_TO_LEVEL else {},
            marker=self._turn_marker(player) if self.variant == LEVEL_TO_LEVEL and not self._over else None,
            fillers=tuple(st.fillers), powers=self.ruleset.powers,
            powers_left=left, powers_now=now,
            markers_left=st.markers_left if self.ruleset.uses(BREAKING_RULES) else 0,
            reserved=r.digit if waiting else None,
            reserve_ready=ready,
            reserve_level=r.below + 1 if waiting else None, reserve_lost=lost, warnings=tuple(warnings),
            can_end=step == EXTRAS, supply=dict(st.supply) if st.supply is not None else None)

    def reserve_loss(self, player: int, level: int) -> Verdict | None:
        """Said before a piece is built on `level` now: would it lose `player`'s waiting reserved tile? It
        does when the tile was set aside in this very turn (it is built from the next one) and this is the
        turn's first building above the table's highest level then. A Verdict saying so, or None."""
        r, turn = self.players[player].reserve, self._turn(player)
        if r is None or r.state != "waiting" or turn.ended or r.step != self.step or turn.highest > r.below \
                or level <= r.below:
            return None
        return refuse("reserve_lost", N_("Careful: building on level {level} in the turn you set your {digit} "
                                         "aside loses that reserved tile."), level=level, digit=r.digit)

    def legal_placements(self, player: int, piece=None, powers=(), reserved: bool = False,
                         marker: int | None = None) -> list[Placement]:
        """Every legal placement of the turn's tile (or the reserved tile, or the gap
        filler `piece`) for `player`, under `powers` (flip lists mirrored placements).
        In "Level to Level" `marker` looks at a shown tile before choosing it."""
        flipped = FLIP in powers
        allow = frozenset(RELAXATIONS[p] for p in powers if p in RELAXATIONS)
        board = self.boards[player]
        if is_filler(piece):
            return board.legal_placements(piece, max_level=self._global_cap())
        if reserved:
            r = self.players[player].reserve
            if r is None or r.state != "waiting" or powers:   # no power changes the reserved tile
                return []
            return board.legal_placements(r.digit, flipped, allow, self._cap(r.max_level))
        if marker is not None:
            if marker not in self.shown:
                return []
            return board.legal_placements(self.shown[marker], flipped, allow, self._cap(marker))
        digit = self._turn_digit(player) if piece is None else piece
        if digit is None:
            return []
        return board.legal_placements(digit, flipped, allow, self._turn_cap(player))

    def power_verdict(self, player: int, power: str) -> Verdict:
        """Can `player` use `power` at this moment (is it in `options().powers_now`)? If not, why."""
        o = self.options(player)
        if power in o.powers_now:
            return OK
        v = self._check_powers(player, (power,))
        if not v:
            return v
        if o.step in (DONE, OVER):
            return _wrong_turn()
        if power == RELOCATE and not any(isinstance(t.piece, int) for t in self.boards[player].tiles):
            return refuse("not_movable", N_("You have no number tile to move yet."))
        if power == RELOCATE:
            return refuse("not_movable", N_("None of your number tiles can be moved: each has something on it "
                                            "(start tiles and gap fillers never move)."))
        if power == RESERVE and o.step == PLACE_TILE and self.is_last_step():
            return LAST_TURN_RESERVE
        # the turn's tile dealt with ("while a tile is to be placed" read, a gap filler in hand, as if it were one)
        if o.step == EXTRAS and self.is_last_step():
            return _wrong_turn(N_("The game's last tile is dealt with: this power can no longer be used."))
        if power == RESERVE and o.step == EXTRAS:
            return _wrong_turn(N_("This turn's tile is dealt with: Reserve can set a later turn's tile aside."))
        if power == RESERVE:
            return _wrong_turn(N_("Reserve sets this turn's tile aside: use it while that tile is to be placed."))
        if o.step == EXTRAS and o.fillers:
            return _wrong_turn(N_("This turn's tile is dealt with, and powers don't change gap fillers: use this "
                                  "power on a later turn's tile."))
        if o.step == EXTRAS:
            return _wrong_turn(N_("This turn's tile is dealt with: use this power on a later turn's tile."))
        return _wrong_turn(N_("This power changes the tile you place: use it while a tile is to be placed."))

    def movable_tiles(self, player: int) -> list[tuple[int, int, int]]:
        """Relocate: (x, y, level) of a square of each number tile of `player` that is free."""
        board = self.boards[player]
        return [(*t.squares()[0], t.level) for i, t in enumerate(board.tiles)
                if isinstance(t.piece, int) and board.free(i)]

    def relocation_targets(self, player: int, at: tuple[int, int, int]) -> list[Placement]:
        """Relocate: every place the free tile with a square at `at` may move to (its own level
        or lower, by the base rules, judged without it); [] if it can't move."""
        board = self.boards[player]
        index = board.tile_at(*at)
        if index < 0 or not isinstance(board.tiles[index].piece, int) or not board.free(index):
            return []
        t = board.tiles[index]
        return [p for p in board.lifted(index).legal_placements(t.piece, t.flipped, max_level=t.level)
                if not _same_spot(p, t)]

    # ----- actions -----------------------------------------------------------------
    def check(self, player: int, p: Placement, powers=(), reserved: bool = False) -> Verdict:
        """The verdict for `player` laying `p` now: the turn's tile (or with `reserved`
        the reserved tile, or a gap filler when `p.piece` is one), under `powers`."""
        return self._judge(player, p, powers, reserved)[0]

    def play(self, player: int, p: Placement, powers=(), reserved: bool = False) -> Verdict:
        """Commit `p` for `player` if legal (see check); the game moves on when all are done."""
        v, allow, cap, used = self._judge(player, p, powers, reserved)
        if not v:
            return v
        st, turn = self.players[player], self._turn(player)
        placed = self.boards[player].lay(p.at(v.level))   # judged just now
        turn.highest = max(turn.highest, placed.level)
        if is_filler(p.piece):
            st.fillers.remove(p.piece)
            self._record(Move(self.round, player, placed, FILLER))
        else:
            st.powers_used.extend(used)
            marker = None
            if reserved:
                st.reserve.state = "built"
            else:
                self._take_turn_tile(player, "placed")
                marker = turn.marker
            self._record(Move(self.round, player, placed, PLACE, marker=marker, powers=used, reserved=reserved))
        return self._after(player)

    def decide(self, player: int, build: bool) -> Verdict:
        """"2 of 3": build this card's tile (then place it) or reject it (recorded at once)."""
        v = self._open(player)
        if v and self.variant != TWO_OF_THREE:
            v = _wrong_turn(N_("Tiles are only rejected in the variant \"2 of 3\"."))
        turn = self._turn(player) if v else None
        if v and (turn.decision is not None or turn.tile is not None):
            v = _wrong_turn(N_("You have already decided about this tile."))
        if v:
            can_build, can_reject = self._may_build(player)
            if build and not can_build:
                v = refuse("must_reject", N_("You have built two of this round's three tiles: reject this one."))
            elif not build and not can_reject:
                v = refuse("must_build", N_("You have rejected a tile this round: build this one."))
        if not v:
            return v
        if build:
            turn.decision = True
            return OK
        self._take_turn_tile(player, "rejected")
        self._record(Move(self.round, player, kind=REJECT))
        return self._after(player)

    def reject(self, player: int) -> Verdict:
        return self.decide(player, False)

    def choose(self, player: int, marker: int) -> Verdict:
        """"Level to Level": take the tile shown under `marker`; it must then be built."""
        v = self._open(player)
        if v and self.variant != LEVEL_TO_LEVEL:
            v = _wrong_turn(N_("Tiles are only chosen in the variant \"Level to Level\"."))
        turn = self._turn(player) if v else None
        if v and turn.tile is not None:
            v = _wrong_turn(N_("You have already dealt with this turn's tile."))
        if v and turn.marker is not None and turn.marker != marker:
            v = refuse("already_chosen", N_("You have chosen the tile under marker {marker}: build it."),
                       marker=turn.marker)
        if v and marker not in self.shown:
            v = refuse("not_shown", N_("No tile is shown under level marker {marker} this round."), marker=marker)
        if v and marker not in self._choices(player):
            v = refuse("not_in_supply", N_("You have no {digit} left in your supply."), digit=self.shown[marker])
        if v:
            turn.marker = marker
        return v

    def reserve(self, player: int) -> Verdict:
        """Breaking Rules, Reserve: set the turn's tile aside to build it in a later turn."""
        v, digit, cap = self._turn_tile(player)
        if v:
            v = self._check_powers(player, (RESERVE,))
        if v and self.is_last_step():
            v = LAST_TURN_RESERVE
        if not v:
            return v
        st, turn = self.players[player], self._turn(player)
        st.powers_used.append(RESERVE)
        st.reserve = Reserve(digit, self.boards[player].top_level(), cap, self.step)
        self._take_turn_tile(player, "reserved")
        self._record(Move(self.round, player, kind=RESERVE_MOVE, marker=turn.marker, digit=digit))
        return self._after(player)

    def check_relocate(self, player: int, at: tuple[int, int, int], p: Placement) -> Verdict:
        """Breaking Rules, Relocate: move your free number tile with a square at (x, y, level)
        to `p`, by the base rules, on its own level or a lower one."""
        return self._judge_relocate(player, at, p)[0]

    def relocate(self, player: int, at: tuple[int, int, int], p: Placement) -> Verdict:
        v, index, p = self._judge_relocate(player, at, p)
        if not v:
            return v
        moved = self.boards[player].move_tile(index, p.at(v.level))
        self.players[player].powers_used.append(RELOCATE)
        self._record(Move(self.round, player, moved, RELOCATE_MOVE, source=tuple(at)))
        return self._after(player)

    def end_turn(self, player: int) -> Verdict:
        """End a turn that still has optional actions (gap fillers, reserved tile, Relocate)."""
        v = self._open(player)
        if v and self._turn(player).tile is None:
            v = refuse("tile_pending", N_("Deal with this turn's tile first."))
        if not v:
            return v
        self._record(Move(self.round, player, kind=END))
        self._end(player)
        self._settle()
        return OK

    def apply(self, m: Move) -> Verdict:
        """Replay one recorded move: it must belong to the current step. A move of another round or card
        says so: "not this player's turn" misled where the player's own move had a skipped round's number."""
        if self._over:
            return _wrong_turn(N_("The game is already over."))
        if m.round != self.round:
            return _wrong_turn(N_("This move is for round {round}, but the game is at round {current}."),
                               round=m.round, current=self.round)
        if not 0 <= m.player < len(self.seats):   # "not this player's turn" read as if the player existed
            return no_player(m.player, len(self.seats))
        if self.variant == TWO_OF_THREE and m.slot != self.slot:
            return _wrong_turn(N_("This move is for card {card} of the round, but the game is at card {current}."),
                               card=m.slot + 1, current=self.slot + 1)
        if m.kind in (PLACE, RESERVE_MOVE) and m.marker is not None and not m.reserved:
            v = self.choose(m.player, m.marker)
            if not v:
                return v
        if m.kind == PLACE:
            return self.play(m.player, m.placement, m.powers, m.reserved)
        if m.kind == FILLER:   # powers written on it are refused, as the game refuses them
            return self.play(m.player, m.placement, m.powers, m.reserved)
        if m.kind == RESERVE_MOVE:
            digit = self._turn_digit(m.player)
            if digit is not None and m.digit != digit:
                return refuse("wrong_digit", N_("This turn's tile is {card}, not {digit}."), card=digit, digit=m.digit)
            return self.reserve(m.player)
        if m.kind == RELOCATE_MOVE:
            return self.relocate(m.player, m.source, m.placement)
        if m.kind == REJECT:
            return self.decide(m.player, False)
        if m.kind == END:
            return self.end_turn(m.player)
        return _wrong_turn()

    def take_back(self) -> Move:
        """Undo the last action (solo practice only; the table has no undo): the game is
        played again without it, so every module and variant undoes the same way."""
        moves = list(self.moves)
        while moves and moves[-1].kind == END:
            moves.pop()
        last = moves.pop()
        again = Game(self.seats, self.deck, self.ruleset, self.start_tiles)
        for m in moves:
            if not again.apply(m):
                raise AssertionError(f"the game's own move does not replay: {m}")
        self.__dict__.clear()   # fields still at their class default (round 1) are not in again's dict
        self.__dict__.update(again.__dict__)
        return last

    def board_at_round(self, player: int, round_: int) -> Board:
        """A player's board as it stood before `round_` (for looking at opponents)."""
        return build_board([m for m in self.moves if m.player == player and m.round < round_],
                           self.start_tiles[player] if self.start_tiles else None)

    # ----- the rules behind the actions ----------------------------------------------
    def _turn(self, player: int) -> Turn:
        return self.turns[player] if self.turns else Turn(ended=True)

    def _open(self, player: int) -> Verdict:
        if self._over or not 0 <= player < len(self.seats) or self._turn(player).ended:
            return _wrong_turn()
        return OK

    def _global_cap(self) -> int | None:
        return HIGHEST_LEVEL if self.variant == LEVEL_TO_LEVEL else None

    def _cap(self, marker: int | None) -> int | None:
        return None if marker is None else min(marker, HIGHEST_LEVEL)

    def is_last_step(self) -> bool:
        """Is this step the game's last (no later turn follows)? In "Level to Level" the round that laid out
        the deck's last cards (all the active markers filled, or only some)."""
        if self._over:
            return False
        if self.variant == LEVEL_TO_LEVEL:
            return self.drawn == len(self.deck)
        return self._card_index() == len(self.deck) - 1

    def _turn_digit(self, player: int) -> int | None:
        if self._over:
            return None
        if self.variant == LEVEL_TO_LEVEL:
            marker = self._turn_marker(player)
            return None if marker is None else self.shown[marker]
        return self.card

    def _turn_marker(self, player: int) -> int | None:
        """The chosen marker, or the only one this player can choose."""
        turn = self._turn(player)
        if turn.marker is not None:
            return turn.marker
        choices = self._choices(player)
        return next(iter(choices)) if len(choices) == 1 else None

    def _turn_cap(self, player: int) -> int | None:
        return self._cap(self._turn_marker(player)) if self.variant == LEVEL_TO_LEVEL else None

    def _choices(self, player: int) -> dict[int, int]:
        supply = self.players[player].supply
        return {m: d for m, d in self.shown.items() if supply is None or supply[d] > 0}

    def _may_build(self, player: int) -> tuple[bool, bool]:
        """"2 of 3": whether building / rejecting this card keeps two builds in three."""
        d = self.players[player].decisions
        return d.count(True) < BUILDS_PER_ROUND, d.count(False) < CARDS_PER_ROUND - BUILDS_PER_ROUND

    def _turn_tile(self, player: int) -> tuple[Verdict, int | None, int | None]:
        """May `player` deal with the turn's tile now? (verdict, its number, its level cap)"""
        v = self._open(player)
        if not v:
            return v, None, None
        turn = self._turn(player)
        if self.variant == TWO_OF_THREE and turn.tile in (None, "rejected") and \
                (turn.decision is False or not self._may_build(player)[0]):
            if self.players[player].decisions.count(True) >= BUILDS_PER_ROUND:
                return refuse("must_reject", N_(
                    "You have built two of this round's three tiles: reject this one.")), None, None
            return _wrong_turn(N_("You have rejected this tile.")), None, None
        if turn.tile is not None:
            return _wrong_turn(N_("You have already dealt with this turn's tile.")), None, None
        digit = self._turn_digit(player)
        if digit is None:
            return refuse("choose_first", N_("Choose one of the shown tiles first.")), None, None
        return OK, digit, self._turn_cap(player)

    def placing_powers_verdict(self, player: int, powers) -> Verdict:
        """May `player` still lay a tile under all of `powers` (placing powers, in play, not used yet,
        a marker for each)? The rest of a placement's verdict comes from `check`."""
        v = _placing_only(powers)
        return self._check_powers(player, powers) if v else v

    def _check_powers(self, player: int, powers) -> Verdict:
        st = self.players[player]
        for p in powers:
            if p not in POWERS:
                return refuse("bad_power", N_("There is no such power."))
            if not self.ruleset.uses(BREAKING_RULES) or p not in self.ruleset.powers:
                return refuse("power_not_in_play", N_("This power is not in play in this game."))
            if p in st.powers_used:
                return refuse("power_used", N_("You have already used this power: each power once per player."))
        if len(st.powers_used) + len(powers) > MARKERS:
            return refuse("no_marker", N_("You have no marker left for this power."))
        return OK

    def _judge(self, player: int, p: Placement, powers, reserved: bool):
        """(verdict, relaxations, level cap, powers used) for laying `p`."""
        none = frozenset()
        if is_filler(p.piece):
            v = self._open(player)
            if v and (powers or reserved or p.flipped):
                v = refuse("bad_power", N_("Powers apply to number tiles, not to gap fillers."))
            if v and p.piece not in self.players[player].fillers:
                v = refuse("no_filler", N_("You have no such gap filler left to place.") if self.ruleset.uses(
                    GAP_FILLERS) else N_("Gap fillers are not in play in this game."))
            cap = self._global_cap()
            return (self.boards[player].verdict(p, none, cap) if v else v), none, cap, ()
        used = tuple(sorted(set(powers) | ({FLIP} if p.flipped else set()),
                            key=lambda q: POWERS.index(q) if q in POWERS else len(POWERS)))
        v = _placing_only(used)
        if not v:
            return v, none, None, ()
        if FLIP in powers and not p.flipped:
            return refuse("bad_power", N_("With Flip the tile lies black side up: turn it over.")), none, None, ()
        if reserved and used:   # the powers change the tile just taken; building the reserved one is not taking it
            return refuse("bad_power", N_("Powers change the tile just taken from the turn's card, not your "
                                          "reserved tile.")), none, None, ()
        if reserved:
            v = self._open(player)
            r = self.players[player].reserve
            if v and (r is None or r.state == "built"):
                v = refuse("no_reserve", N_("You have no reserved tile."))
            elif v and r.state == "lost":
                v = refuse("reserve_expired", N_("Your reserved tile is lost: it was not built in time."))
            elif v and r.step == self.step:
                v = refuse("no_reserve", N_("A reserved tile is built in a later turn, not the one it was "
                                            "reserved in."))
            digit, cap = (r.digit, self._cap(r.max_level)) if v else (None, None)
        else:
            v, digit, cap = self._turn_tile(player)
        if v:
            v = self._check_powers(player, used)
        if v and p.piece != digit:
            v = refuse("wrong_digit", N_("This round's card is {card}, not {digit}."), card=digit, digit=p.piece)
        if not v:
            return v, none, cap, used
        allow = frozenset(RELAXATIONS[q] for q in used if q in RELAXATIONS)
        return self.boards[player].verdict(p, allow, cap), allow, cap, used

    def _judge_relocate(self, player: int, at, p: Placement):
        v = self._open(player)
        if v:
            v = self._check_powers(player, (RELOCATE,))
        if not v:
            return v, -1, p
        board = self.boards[player]
        x, y, level = at
        index = board.tile_at(x, y, level)
        if index >= 0 and not isinstance(board.tiles[index].piece, int):
            return refuse("not_movable", N_("Start tiles and gap fillers never move: only number tiles can be "
                                            "relocated.")), -1, p
        if index < 0:
            return refuse("not_movable", N_("There is no number tile of yours on square ({x}, {y}) on level "
                                            "{level}."), x=x, y=y, level=level), -1, p
        if not board.free(index):
            return refuse("not_movable", N_("Something lies on that tile: only a free tile can be moved.")), -1, p
        src = board.tiles[index]
        p = p._replace(flipped=src.flipped)
        if p.piece != src.piece:
            return refuse("wrong_digit", N_("The tile there is a {card}, not a {digit}."),
                          card=src.piece, digit=p.piece), -1, p
        v = board.lifted(index).verdict(p)
        if v and v.level > src.level:
            v = refuse("relocate_higher", N_("A moved tile goes on its own level ({level}) or a lower one."),
                       level=src.level)
        elif v and _same_spot(p.at(v.level), src):   # no move, yet the marker would be spent
            v = refuse("not_moved", N_("The tile would lie where it lies now: move it somewhere else."))
        return v, index, p

    # ----- bookkeeping -------------------------------------------------------------
    def _record(self, m: Move) -> None:
        if self.variant == TWO_OF_THREE:
            m = replace(m, slot=self.slot)
        self.moves.append(m)

    def _take_turn_tile(self, player: int, how: str) -> None:
        turn, st = self._turn(player), self.players[player]
        turn.tile = how
        if self.variant == TWO_OF_THREE:
            turn.decision = how != "rejected"
            st.decisions.append(turn.decision)
        if self.variant == LEVEL_TO_LEVEL and how in ("placed", "reserved"):
            turn.marker = self._turn_marker(player)
            if st.supply is not None:
                st.supply[self.shown[turn.marker]] -= 1

    def _extras_left(self, player: int) -> bool:
        """Is anything optional left for this turn? Otherwise it ends by itself."""
        st = self.players[player]
        if st.fillers:
            return True
        r = st.reserve
        if r is not None and r.state == "waiting" and r.step < self.step:
            return True
        return RELOCATE in self.ruleset.powers and RELOCATE not in st.powers_used and st.markers_left > 0 \
            and bool(self.movable_tiles(player))

    def _after(self, player: int) -> Verdict:
        if self._turn(player).tile is not None and not self._extras_left(player):
            self._end(player)
        self._settle()
        return OK

    def _end(self, player: int) -> None:
        turn = self._turn(player)
        turn.ended = True
        r = self.players[player].reserve
        if r is not None and r.state == "waiting" and turn.highest > r.below:
            r.state, r.lost_step = "lost", self.step   # this was the turn it had to be built in
            supply = self.players[player].supply
            if supply is not None:   # the printed rule: a lost reserved tile goes back to the supply
                supply[r.digit] += 1

    def _settle(self) -> None:
        """Move on while every turn of the step has ended."""
        while not self._over and all(t.ended for t in self.turns):
            if self.variant == TWO_OF_THREE:
                self.slot += 1
                if self.slot == CARDS_PER_ROUND:
                    self.slot = 0
                    self.round += 1
                    for st in self.players:
                        st.decisions = []
                if self.round > self.rounds:
                    self._over = True
            else:
                self.round += 1
                if self.variant == LEVEL_TO_LEVEL:
                    self._deal_level_round()
                elif self.round > self.rounds:
                    self._over = True
            if not self._over:
                self._begin_step()
        if self._over:
            self.turns = []
            self.shown = {}

    def _begin_step(self) -> None:
        """New turns; forced rejects ("2 of 3") and skips ("Level to Level") happen at once."""
        self.step += 1
        self.turns = [Turn() for _ in self.seats]
        for i, turn in enumerate(self.turns):
            if self.variant == TWO_OF_THREE and not self._may_build(i)[0]:
                self._take_turn_tile(i, "rejected")   # two built: the third is rejected
                if not self._extras_left(i):
                    self._end(i)
            if self.variant == LEVEL_TO_LEVEL and not self._choices(i):
                turn.tile = "skipped"                 # none of the shown tiles left in the supply
                self.players[i].skipped = (self.round, tuple(self.shown.values()))
                self._end(i)

    def _deal_level_round(self) -> None:
        """"Level to Level": activate a marker if due, then lay a card under each active one.

        From round 3, marker k + 1 becomes active when a player has two number tiles
        on level k, k the highest active marker (so at most one a round). The cards go
        under the markers from the left; when too few are left, the markers at the right
        offer nothing that round. The game ends after the round that used up the deck (the
        printed rule: "after the round in which ... can no longer fill every active pile")."""
        if self.drawn == len(self.deck):
            self._over = True
            return
        if self.round >= 3 and self.active < LEVEL_MARKERS:
            k = self.active - 1
            if any(sum(1 for t in b.tiles if t.level == k and isinstance(t.piece, int)) >= 2 for b in self.boards):
                self.active += 1
        self.shown = {}
        for marker in range(min(self.active, len(self.deck) - self.drawn)):
            card = self.deck[self.drawn]
            self.drawn += 1
            self.piles[marker].append(card)
            self.shown[marker] = card
