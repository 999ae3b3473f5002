"""Seat links: who may see and do what at a table is decided by the token in the link.

A token is 32 random bytes (`secrets.token_urlsafe`), so a link cannot be guessed from
another: holding the link of seat 1 tells nothing about the link of seat 0.  Three kinds:
- a seat's link plays that one seat, from any browser;
- the hot-seat link plays every human seat of the table from one device, showing a
  "pass the device" screen whenever the seat to move changes in a game with secrets;
- the host's link (the page the lobby opens) lists the other links and sees no table.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass

TOKEN_BYTES = 32
SEAT, HOT_SEAT, HOST = "seat", "hot-seat", "host"


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


@dataclass
class Pass:
    """What one link may do: `seats` are the seats it plays (none for the host's)."""

    token: str
    table: object  # tables.Table
    kind: str
    seats: tuple[int, ...]
    seated: int | None = None  # hot-seat: the seat whose table the device shows now

    def __post_init__(self):
        if self.kind == SEAT:
            self.seated = self.seats[0]


class Passes:
    """Every link handed out, by token."""

    def __init__(self):
        self._by_token: dict[str, Pass] = {}

    def issue(self, table, kind: str, seats: tuple[int, ...] = ()) -> Pass:
        token = new_token()
        while token in self._by_token:  # never, with 256 random bits; but a link must be one seat's
            token = new_token()
        made = self._by_token[token] = Pass(token, table, kind, seats)
        return made

    def find(self, token: str) -> Pass | None:
        return self._by_token.get(token)

    def of_table(self, table) -> list[Pass]:
        # list() copies the links in one step: a table may be opened meanwhile in a worker thread
        return [p for p in list(self._by_token.values()) if p.table is table]

    def withdraw(self, table) -> None:
        """Every link of a table that is gone: they lead nowhere now (404)."""
        for made in self.of_table(table):
            del self._by_token[made.token]
