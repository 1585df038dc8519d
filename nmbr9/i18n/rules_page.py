"""The rules page, in this game's own words (spec/rules.md, every ruling included).

Each heading and paragraph is one catalogue message, so the page comes from
the .po files like every other text; `rules_page(_)` gives it in the current
language. A paragraph that is one of this game's own rulings (where the
printed rules leave a choice) is marked so players can tell it apart.
"""
from __future__ import annotations

from typing import Callable

from . import N_
from .terms import named_power_rule

RULING = N_("This game's ruling: {ruling}")


def ruling(text: str) -> tuple[str, str]:
    return ("ruling", text)


def power(code: str) -> tuple[str, str]:
    return ("power", code)  # "Bridge: The tile may span ...", named as in menus (terms.py)


SECTIONS: list[tuple[str, list]] = [
    (N_("The aim"), [
        N_("Every player builds a table of their own from the same number tiles, in the same order. "
           "The higher a tile lies, the more it scores at the end: its number times its level. "
           "The highest score wins."),
    ]),
    (N_("Tiles, cards and squares"), [
        N_("Each player has two tiles of every number from 0 to 9. The deck holds 20 cards, "
           "two of each number, shuffled face down."),
        N_("Every tile is made of squares. How many squares a tile has has nothing to do with its number: "
           "the squares only form the grid on which tiles are laid next to and on top of each other."),
    ]),
    (N_("Levels"), [
        N_("A tile that lies directly on the table is on level 0. A tile laid on tiles of level 0 is on "
           "level 1, a tile laid on tiles of level 1 is on level 2, and so on."),
    ]),
    (N_("A round"), [
        N_("The game lasts 20 rounds. Each round one card is turned, and every player takes the tile with "
           "that number and builds it into their own table. Everybody does this at the same time; players "
           "sharing one screen take turns."),
        N_("In the first round you lay the tile anywhere you like, in any orientation. From then on the "
           "placement rules apply."),
    ]),
    (N_("Placement rules"), [
        N_("1. The number is always face up; the tile may be turned to any of the four orientations."),
        N_("2. If the level already holds tiles, the new tile must touch one of them along at least one "
           "side of a square. This holds on every level; only the first tile of a level touches nothing."),
        N_("3. On level 1 and higher, every square of the tile must rest on a square of the level below: "
           "nothing may overhang and no hole may be covered. The tile must also rest on at least two "
           "different tiles, never on a single one."),
    ]),
    (N_("Good to know"), [
        N_("A tile does not have to go as high as possible: you choose the level of every tile."),
        N_("Before you confirm a tile, try it in as many positions as you like. Once confirmed, it never "
           "moves again."),
        ruling(N_("The table has no edges; you can build as far in every direction as you like.")),
    ]),
    (N_("End of the game and scoring"), [
        N_("The game ends after the round in which the last card is turned. Every tile scores its number "
           "times its level, so tiles on level 0 score nothing. Example: an 8 on level 2 scores "
           "16 points (8 × 2 = 16)."),
        N_("The player with the highest score wins; tied players share the win."),
        N_("Solo, the rules are the same and you play to beat your own record. "
           "100 points or more is an excellent score."),
    ]),
    (N_("NMBR 9 ++"), [
        N_("The expansion adds tiles, so up to six people can play (12 tiles of each number in all; every "
           "player still builds two of each). It brings three modules, New start tiles, Gap fillers and "
           "Breaking Rules, and two variants, 2 of 3 and Level to Level."),
        N_("The rules of the base game apply unless a module or variant changes them. The modules can be "
           "combined with each other and with a variant; the two variants cannot be combined with each "
           "other."),
    ]),
    (N_("Module: New start tiles"), [
        N_("Before the game every player receives one of six start tiles at random and lays it on level 0 "
           "as the start of their table, so each player sets out from a different position."),
        N_("A start tile scores 0 and counts as a tile for every rule: it is a tile of level 0, so your first "
           "tile must already touch it, and it can be one of the two tiles a tile above rests on."),
        ruling(N_("The official start tiles have not been published, so this game uses six start tiles of "
                  "its own design: each has the value 0, between 10 and 14 squares and a shape of its own.")),
    ]),
    (N_("Module: Gap fillers"), [
        N_("Every player has one gap filler of one square and one of two squares. At any time, in addition "
           "to the round's tile, you may build one or both into your table. Once confirmed, a gap filler "
           "never moves."),
        ruling(N_("Gap fillers score 0. They follow placement rules 2 and 3, but need not rest on two "
                  "different tiles (a one-square piece could not). For the tiles above them they count "
                  "as tiles.")),
    ]),
    (N_("Module: Breaking Rules"), [
        N_("Before the game two of the six special powers are drawn at random (or chosen; you may also "
           "play with any number of them). Every player has two markers."),
        N_("When a card is turned you may use a power: put one of your markers on it, then place the tile "
           "under the changed rule. You may use each power only once, but you may use both markers in "
           "one turn on two different powers. Without markers you can use no more powers."),
        N_("Every power except Relocate applies to the tile just taken:"),
        power("relocate"),
        ruling(N_("Relocate moves number tiles only: start tiles and gap fillers never move. A moved tile keeps "
                  "its side up.")),
        power("flip"),
        ruling(N_("A flipped tile still counts as a tile for the tiles resting on it.")),
        power("single_support"),
        power("bridge"),
        ruling(N_("A hole is a group of empty squares on the level below, joined along their sides, that "
                  "does not reach the outside: a hole that meets the outside only at a corner is closed.")),
        power("loner"),
        power("reserve"),
        ruling(N_("The reserved tile must be built at the latest in the turn in which you first build on a "
                  "level higher than your highest level when you set it aside. After that turn it is "
                  "lost.")),
        N_("A lost reserved tile goes back to the supply: in Level to Level with 4 players, into your own."),
        N_("No power applies to your reserved tile when you build it in a later turn: building it is not "
           "taking it."),
        ruling(N_("Reserve can't be used on the game's last turn: there is no later turn to build the tile in "
                  "(in Level to Level, the last turn is the round that lays out the deck's last cards).")),
        ruling(N_("Your highest level is that of any of your pieces, gap fillers included, and any piece you "
                  "build higher counts, the reserved tile too. In Level to Level the reserved tile keeps its "
                  "marker's level limit.")),
        ruling(N_("A marker is spent only when you confirm: the tile placed (Relocate: moved; Reserve: set "
                  "aside). Choosing a power and changing your mind before that costs nothing.")),
    ]),
    (N_("Variant: 2 of 3"), [
        N_("For 1 to 4 players. The deck has 30 cards (the 20 of the base game and one more set from 0 "
           "to 9), and the game lasts 10 rounds."),
        N_("Each round three cards are laid face down and turned one at a time. After each card every "
           "player either builds that tile or rejects it with their marker. Decide first, then place: you "
           "may not try where the tile fits before deciding."),
        N_("Each round you build exactly two of the three tiles. If you reject the first, you must build "
           "the second and the third; if you build the first and reject the second, you must build the "
           "third; if you build the first two, you must reject the third."),
        N_("With Breaking Rules every player has three markers."),
        ruling(N_("These are the reject marker and the two markers for powers; a reserved tile counts as "
                  "built.")),
    ]),
    (N_("Variant: Level to Level"), [
        N_("For 1 to 4 players. All 40 cards are shuffled. Five level markers, 0 to 4, lie in a row; at "
           "the start only marker 0 is active."),
        N_("In rounds 1 and 2 one card is laid under marker 0 and everybody builds that tile. From round "
           "3 on, as soon as any player has two tiles on a level, one more marker becomes active the next "
           "round."),
        ruling(N_("The markers become active in the order 1, 2, 3, 4, at most one per round.")),
        ruling(N_("Marker k + 1 becomes active when a player has two number tiles on level k, k being the "
                  "highest active marker; start tiles and gap fillers do not count.")),
        N_("Each round one card is drawn for every active marker and laid under it. Every player chooses "
           "one of the shown tiles and builds it; once chosen, it must be built. A tile from under marker "
           "k may only be built on levels 0 to k. Nobody builds on level 5."),
        N_("The game ends after the round in which the deck runs out or can no longer fill every active "
           "marker."),
        ruling(N_("In that last round the cards left are laid under the markers from 0 upwards; a marker "
                  "left without a card offers nothing. Every card is played.")),
        N_("With 4 players every player has their own supply of three tiles of each number and can only "
           "choose what is left in it. A player who has none of the shown tiles, or cannot place any of "
           "them, skips the round."),
    ]),
    (N_("Puzzles"), [
        N_("A puzzle is a game with a fixed order of cards in which the first tile already lies in the "
           "middle of your table. Pick one of two random puzzles, the daily puzzle (the same for everyone "
           "that day) or a friend's code. Everyone who plays a puzzle goes on its leaderboard, and while "
           "you play you can look at earlier players' boards as they stood in the same round."),
    ]),
    (N_("Playing on screen"), [
        N_("\u201cStill to come\u201d on the left shows which tiles can still come; in the base game every number "
           "comes exactly twice."),
        N_("Move the tile, turn it and confirm it. The game accepts a tile only when every rule holds; "
           "otherwise it tells you why not."),
        N_("With the mouse the tile follows the pointer, a right click or the wheel turns it, and a click on "
           "Confirm or on your score lays it. With the keyboard the arrow keys move it, Q and E turn it and Enter lays it. A drag "
           "with the right mouse button turns and tilts the table; a double click sets the view back. At the "
           "table, H shows every key."),
        N_("You can look at your opponents' tables at any time. You see each one as it stood at the same "
           "point of the game as yours, even if that player is already further on."),
        N_("After a game you can ask for a rematch."),
    ]),
]


def rules_page(translate: Callable[[str], str]) -> list[tuple[str, list[str]]]:
    """[(heading, [paragraph, ...]), ...] in the language of `translate`."""
    page = []
    for heading, paragraphs in SECTIONS:
        texts = []
        for p in paragraphs:
            if isinstance(p, str):
                texts.append(translate(p))
            elif p[0] == "ruling":
                texts.append(translate(RULING).format(ruling=translate(p[1])))
            else:
                texts.append(named_power_rule(p[1], translate))
        page.append((translate(heading), texts))
    return page
