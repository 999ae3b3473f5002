"""Structural limits of a ruleset, checked while it is read.

Each limit keeps a hostile or mistyped ruleset from making the reader build
millions of nodes, items or player-count set-ups before anything is reported.
The values are generous for real board games (the largest shipped ruleset has
a few hundred items and a 7x6 board) and are documented, with their codes, in
docs/language.md ("How a ruleset is read").  Whole numbers beyond the integer
range are refused by the YAML reader itself (Y011, dsl/source.py).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limit:
    code: str
    value: int
    what: str


MAX_PLAYERS = Limit("S111", 64, "players in a game")
MAX_BOARD_NODES = Limit("S112", 10_000, "nodes of one board (a grid's rows x cols included)")
MAX_TOTAL_NODES = Limit("S113", 50_000, "nodes of all boards of a ruleset together")
MAX_ITEM_COUNT = Limit("S114", 10_000, "copies of one item (`count:`)")
MAX_GENERATED = Limit("S115", 10_000, "items one `generate` makes (the product of its value lists)")
MAX_TOTAL_ITEMS = Limit("S116", 50_000, "items of all components of a ruleset together")

LIMITS = (MAX_PLAYERS, MAX_BOARD_NODES, MAX_TOTAL_NODES, MAX_ITEM_COUNT, MAX_GENERATED, MAX_TOTAL_ITEMS)
