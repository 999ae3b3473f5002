"""Study files: a sweep of player counts, option values and bot line-ups, each
combination a cell that plays the same seeds, all written to one records file.

    ruleset: treasure-hunter      # a shipped name, or a path relative to this file
    games: 100                    # per cell; the seeds are seed .. seed + games - 1
    seed: 0
    max_moves: 5000               # optional (100000)
    records: th-study.parquet     # optional (this file's name, .parquet), relative to this file
    options: {}                   # optional: options every cell plays with
    backend: compiled             # optional
    sweep:
      players: [3, 4]             # optional (the game's smallest count)
      options: {cards: [5, 9]}    # optional: the values to try, per option
      bots:                       # optional (random in every seat); a line-up is one
        - random                  #   bot for every seat, or one per seat, which then
        - mcts:50 random random   #   only plays at that many players

Every cell plays the same seeds: cells then differ only in what the sweep changed (the
same deals at the same player count), so their differences are paired comparisons, any
game can be replayed with `meeple simulate --seed`, and raising `games` later only adds
games.  The file is read with the rulesets' YAML reader, and every problem is reported
at its place in the file (codes E101-E106, docs/simulation.md), before any game is played.
"""
from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from pathlib import Path

from meeple.bots import BotSpecError, parse_bot_spec
from meeple.dsl.build_support import Reader
from meeple.dsl.diagnostics import Diagnostic, read_yaml_file
from meeple.dsl.source import Span, span_of
from meeple.interpreter.runtime.game import Game
from meeple.interpreter.runtime.loading import BACKENDS, load_rules

from .records import options_text
from .tasks import GameSpec, Task

STUDY_KEYS = {"ruleset", "games", "seed", "max_moves", "records", "options", "backend", "sweep"}
SWEEP_KEYS = {"players", "options", "bots"}
MAX_MOVES = 100_000


class StudyError(Exception):
    """A study file with problems, each a located diagnostic."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = diagnostics
        super().__init__("\n".join(d.render() for d in diagnostics))


@dataclass(frozen=True)
class Cell:
    """One combination of the sweep.  `id` names it in the records (`cell`); `options`
    and `ruleset` are what its records must say, so a records file from another study is
    told apart from this one's."""

    id: str
    spec: GameSpec
    bots: tuple
    ruleset: str
    options: str


@dataclass(frozen=True)
class Study:
    path: Path
    cells: tuple
    seeds: range
    max_moves: int
    records: Path

    def tasks(self) -> list[Task]:
        """Every game of the study, cell by cell in the sweep's order, then by seed."""
        return [Task(cell.spec, seed, cell.bots, self.max_moves, cell=cell.id)
                for cell in self.cells for seed in self.seeds]


def read_study(path: str | Path) -> Study:
    path = Path(path)
    doc, problem = read_yaml_file(path)
    if problem:
        raise StudyError([problem])
    return _Reading(path, Reader(str(path))).study(doc)


class _Reading:
    """One study file being read; problems are collected, so one reading reports all it can."""

    def __init__(self, path: Path, reader: Reader):
        self.path, self.r = path, reader

    def fail_if_any(self) -> None:
        if self.r.diagnostics:
            raise StudyError(self.r.diagnostics)

    def study(self, doc) -> Study:
        r = self.r
        if r.mapping(doc, "a study file", STUDY_KEYS, required={"ruleset", "games"}) is None:
            self.fail_if_any()
        ruleset_text = r.string(doc.get("ruleset"), "ruleset", doc.span)
        games = self.count(doc, "games", None, 1)
        seed = self.count(doc, "seed", 0, 0)
        max_moves = self.count(doc, "max_moves", MAX_MOVES, 1)
        records = self.records(doc.get("records"))
        backend = r.string(doc.get("backend"), "backend", doc.span, choices=BACKENDS)
        fixed = r.mapping(doc.get("options", {}), "options", parent_span=doc.span) or {}
        sweep = r.mapping(doc.get("sweep", {}), "sweep", SWEEP_KEYS, parent_span=doc.span) or {}
        sweep_span = span_of(sweep, doc.span)
        players = self.listed(sweep.get("players"), "sweep.players", sweep_span)
        for count in players:
            r.integer(count, "a player count", sweep_span)
        swept = r.mapping(sweep.get("options", {}), "sweep.options", parent_span=sweep_span) or {}
        swept_span = span_of(swept, sweep_span)
        values = {str(k): self.listed(v, f"the values of option '{k}'", swept_span, required=True)
                  for k, v in swept.items()}
        lineups = [self.lineup(entry, sweep_span)
                   for entry in self.listed(sweep.get("bots"), "sweep.bots", sweep_span)]
        self.fail_if_any()
        ruleset, rules = self.ruleset(ruleset_text, doc.get("ruleset"), backend)
        info = rules.ruleset.game
        players = players or [info.min_players]
        for count in players:
            if not info.min_players <= count <= info.max_players:
                r.error("E102", f"{info.name} is for {info.min_players}-{info.max_players} players, "
                                f"not {count}", span_of(count, sweep_span))
        self.twice([(count, span_of(count, sweep_span)) for count in players], "player count", "E102")
        lineups = [lineup for lineup in lineups if lineup is not None] or [(("random",), doc.span)]
        self.twice(lineups, "line-up", "E104")
        self.fit(players, lineups, sweep_span)
        self.fail_if_any()
        fixed = {str(k): _plain(v) for k, v in fixed.items()}
        self.options(rules, players[0], fixed, values, span_of(doc.get("options"), doc.span),
                     getattr(swept, "key_spans", {}))
        self.fail_if_any()
        cells = tuple(self.cells(rules, ruleset, backend, players, lineups, fixed, values, swept_span))
        self.fail_if_any()
        return Study(self.path, cells, range(seed, seed + games), max_moves, records)

    # -- the parts -------------------------------------------------------------
    def count(self, doc, key: str, default, minimum: int) -> int:
        value = self.r.integer(doc.get(key), key, doc.span)
        if value is None:
            return default
        if value < minimum:
            self.r.error("E105", f"{key} must be at least {minimum}, not {value}", span_of(doc.get(key)))
        return value

    def listed(self, value, what: str, parent_span: Span, required: bool = False) -> list:
        """A list, or one value standing for a list of one (`players: 3`)."""
        if value is None:
            return []
        if not isinstance(value, list):
            if required:
                self.r.error("S103", f"{what} must be a list of the values to try", span_of(value, parent_span))
                return []
            return [value]
        if not value:
            self.r.error("S103", f"{what} is an empty list; leave it out instead", span_of(value, parent_span))
        return value

    def records(self, value) -> Path:
        text = self.r.string(value, "records")
        if text is None:
            return self.path.with_suffix(".parquet")
        path = self.path.parent / text
        if path.suffix.lower() not in (".parquet", ".jsonl"):
            self.r.error("E106", f"a records file ends in .parquet or .jsonl, not '{path.suffix or text}'",
                         span_of(value))
        return path

    def lineup(self, entry, parent_span: Span):
        """A line-up: a text of bot specs (spaces or commas between them) or a list of them.
        (specs, span), or None when it is malformed (reported)."""
        span = span_of(entry, parent_span)
        texts = entry if isinstance(entry, list) else [entry]
        specs = [s for text in texts if isinstance(text, str) for s in text.replace(",", " ").split()]
        if not specs or any(not isinstance(t, str) for t in texts):
            self.r.error("S103", "a line-up is a text of bot specs, such as 'mcts:50 random random', "
                                 "or a list of them", span)
            return None
        try:
            return tuple(str(parse_bot_spec(s)) for s in specs), span
        except BotSpecError as exc:
            self.r.error("E104", str(exc), span)
            return None

    def ruleset(self, text: str, value, backend):
        """The ruleset's name as the workers will load it (a shipped name, or a path made
        from the study's folder), and its rules.  A broken ruleset raises its own errors."""
        local = self.path.parent / text
        name = str(local) if local.exists() else text
        try:
            return name, load_rules(name, backend)
        except (FileNotFoundError, ValueError) as exc:
            self.r.error("E101", str(exc), span_of(value))
            self.fail_if_any()

    def twice(self, entries: list, what: str, code: str) -> None:
        """(value, span) pairs: each value once, or the sweep would play a cell twice."""
        seen = set()
        for value, span in entries:
            if value in seen:
                shown = " ".join(value) if isinstance(value, tuple) else value
                self.r.error(code, f"the {what} {shown} is given twice", span)
            seen.add(value)

    def fit(self, players: list, lineups: list, sweep_span: Span) -> None:
        """A line-up of one bot fits every table; one of several, the table of that many."""
        for specs, span in lineups:
            if len(specs) > 1 and len(specs) not in players:
                self.r.error("E104", f"this line-up has {len(specs)} bots, but the study plays "
                                     f"{', '.join(map(str, players))} players", span)
        for count in players:
            if not any(len(specs) in (1, count) for specs, _ in lineups):
                self.r.error("E102", f"no line-up has one bot for every seat or {count} bots",
                             span_of(count, sweep_span))

    def options(self, rules, players: int, fixed: dict, values: dict, fixed_span: Span, key_spans: dict) -> None:
        """Each option and each value to try, alone, so a refusal points at its value."""
        try:
            Game(rules, players, fixed)
        except ValueError as exc:
            self.r.error("E103", str(exc), fixed_span)
            return
        for name, tried in values.items():
            if name not in rules.ruleset.game.options:
                known = ", ".join(rules.ruleset.game.options) or "(none)"
                self.r.error("E103", f"unknown option '{name}'; options: {known}", key_spans.get(name, fixed_span))
                continue
            for value in tried:
                try:
                    Game(rules, players, {**fixed, name: _plain(value)})
                except ValueError as exc:
                    self.r.error("E103", str(exc), span_of(value, fixed_span))

    def cells(self, rules, ruleset: str, backend, players, lineups, fixed, values, swept_span):
        names = list(values)
        for count in players:
            for specs, _ in lineups:
                if len(specs) not in (1, count):
                    continue
                bots = specs * count if len(specs) == 1 else specs
                for combination in itertools.product(*(values[n] for n in names)):
                    chosen = {**fixed, **{n: _plain(v) for n, v in zip(names, combination)}}
                    label = f"players={count} bots={','.join(bots)}"
                    try:
                        game = Game(rules, count, chosen)
                    except ValueError as exc:  # values that are refused only together
                        self.r.error("E103", f"{label} {_options_label(names, chosen)}: {exc}", swept_span)
                        continue
                    label += "".join(f" {n}={_id_value(game.options[n])}" for n in names)
                    spec = GameSpec(ruleset, count, tuple(sorted(game.options.items())), backend)
                    yield Cell(label, spec, bots, game.name, options_text(dict(game.options)))


def _plain(value):
    """A value read from YAML as the plain Python value a game's options take."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    for kind in (bool, int, float, str):
        if isinstance(value, kind):
            return kind(value)
    return value


def _id_value(value) -> str:
    return value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))


def _options_label(names: list, chosen: dict) -> str:
    return " ".join(f"{n}={_id_value(chosen[n])}" for n in names)
