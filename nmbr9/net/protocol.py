"""The messages between client and server (docs/protocol.md): JSON text frames, one object each."""
from __future__ import annotations

import json

from ..rules.board import N_, Reason, Verdict

VERSION = 1                 # the protocol's version: host, join and resume carry it
MAX_MESSAGE = 16 * 1024     # bytes a client frame may hold (a move is under 300); larger closes the connection
MAX_NAME = 32               # characters of a player's name
RATE = 50.0                 # messages a second a connection may send on average ...
BURST = 100                 # ... and at once; beyond it the connection is closed (a flood)
CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"   # game codes read out loud: no 0/O, 1/I
CODE_LENGTH = 6

# Every error the server sends besides the rules' verdicts: code -> the sentence a player reads.
ERRORS = {
    "bad_json": N_("The server could not read the message (not a JSON object)."),
    "bad_message": N_("The message is missing a field or has one of the wrong type: {detail}."),
    "unknown_type": N_("The server does not know the message {type}."),
    "version": N_("This game speaks protocol version {found}, the server version {version}: update the game."),
    "not_joined": N_("Join or host a game first."),
    "no_game": N_("There is no game with the code {code}."),
    "bad_token": N_("This seat's secret does not match: you can't play it."),
    "not_host": N_("Only the host can do that."),
    "started": N_("The game has already started."),
    "not_started": N_("The game has not started yet."),
    "full": N_("The table is full."),
    "bad_rules": N_("These rules can't be played: {problem}."),
    "wrong_seat": N_("You play seat {seat}, not seat {player}."),
    "bad_seq": N_("Move number {seq} was not expected (the next is {expected})."),
    "not_over": N_("The game is not over yet."),
    "storage": N_("The server could not store the move; it was not made. Try again."),
    "flood": N_("Too many messages: the server closed the connection."),
    "too_many_connections": N_("Too many connections from your address (at most {most}): close one and try again."),
    "too_many_games": N_("Your address already hosts {most} games that are not over, the most it may: finish one "
                         "first."),
    "replaced": N_("Your seat is now played from another window or computer: this connection was closed."),
}


def error(error_code: str, **params) -> dict:
    """An error message: its code, the English sentence, and the template and fields to translate it."""
    return {"type": "error", **verdict_json(Verdict(error_code, ERRORS[error_code], tuple(sorted(params.items()))))}


def _plain(v):
    return str(v) if isinstance(v, (Reason, Verdict)) else v


def verdict_json(v: Verdict) -> dict:
    """A verdict as sent: {"ok": true} or the code, English message, template and fields."""
    if v.ok:
        return {"ok": True}
    return {"ok": False, "code": v.code, "message": v.message, "template": v.template,
            "params": {k: _plain(p) for k, p in v.params}}


def say(msg: dict, translate) -> str:
    """An error or refusal received, in the player's language (the English message if its fields don't fit)."""
    try:
        return translate(msg["template"]).format(**msg.get("params", {}))
    except (KeyError, IndexError, ValueError, TypeError):
        return str(msg.get("message", ""))


def encode(msg: dict) -> str:
    return json.dumps(msg, separators=(",", ":"))


def decode(text) -> dict | None:
    """A received frame as an object, or None if it is not one (binary, not JSON, not an object)."""
    if not isinstance(text, str):
        return None
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return msg if isinstance(msg, dict) else None
