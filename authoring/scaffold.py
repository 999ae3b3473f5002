"""`meeple new NAME`: a ruleset folder that validates, plays and passes its scenarios
at once, so an author starts from something that works and changes one thing at a
time.  The starting game is deliberately small (one pile, one action) but uses each
part an author needs first: options, variables, an action with a parameter and a
requirement, the flow, an end rule, scoring, rulebook citations and a scenario file.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from string import Template

from meeple.dsl.schema.json_schema import SCHEMA_FILE

SCHEMA_NAME = "meeple.schema.json"
NAME_PATTERN = re.compile(r"[a-z][a-z0-9_-]{0,63}")


class ScaffoldError(Exception):
    """A name or a place `meeple new` cannot use; the message says why."""


@dataclass(frozen=True)
class Scaffold:
    folder: Path
    files: tuple[Path, ...]


GAME = Template('''\
# yaml-language-server: $$schema=$schema
#
# $title: a starting point made by `meeple new`.  The rules: counters lie in one
# pile; in turn, each player takes one, two or three of them; whoever takes the
# last counter wins.  Change it into your game one step at a time, and run
# `meeple validate $name` after each step (docs/tutorial.md walks through a
# whole game; docs/language.md is the reference).
game:
  name: $name
  title: $title
  players: 2-4
  rulebook:
    title: "$title (rules by the author)"
    language: en
    sections:                       # each rule's citation: `rule:` keys below refer to these
      take: "on your turn, take one to three counters from the pile"
      end: "whoever takes the last counter wins"
  options:
    counters: {default: 15, choices: [10, 15, 20], description: "counters in the pile at the start"}

variables:
  pile: {type: int, initial: "options.counters", min: 0, rule: take}
  last_taker: {type: int, initial: -1, description: "the player who took last (-1: nobody yet)"}

actions:
  take:
    rule: take
    params: {count: "range(1, 4)"}  # offered as take(count=1), take(count=2), take(count=3)
    require:
      - check: "count <= pile"
        reason: "the pile does not hold that many counters"
        rule: take
    effects:
      - set: ["pile -= count", "last_taker = player"]

flow:
  - loop:
      - turns: "players()"
        do:
          - choose: take

end:
  - when: "pile == 0"
    reason: "the pile is empty"
    rule: end

scoring:
  score: "1 if player == last_taker else 0"
  rule: end
''')

SCENARIOS = Template('''\
# Scenario tests of $title: run them with `meeple test $name`.  Each scenario cites
# the rule it checks (`rule:`); `meeple conformance $name` lists the rules no
# scenario covers.
scenarios:
  - name: a player takes one, two or three counters
    rule: take
    players: 2
    expect:
      - {moves: ["take(count=1)", "take(count=2)", "take(count=3)"]}
      - {to_move: [0]}

  - name: nobody takes more counters than the pile holds
    rule: take
    players: 2
    options: {counters: 10}
    moves: ["take(count=3)", "take(count=3)", "take(count=3)"]
    expect:
      - "pile == 1"
      - {illegal: "take(count=2)", reason: "does not hold"}
      - {moves: ["take(count=1)"]}

  - name: whoever takes the last counter wins
    rule: end
    players: 2
    options: {counters: 10}
    moves: ["take(count=3)", "take(count=3)", "take(count=3)", "take(count=1)"]
    expect:
      - {over: true}
      - {outcome: {winners: [1], scores: [0, 1]}}
''')

README = Template('''\
# $title

A ruleset for meeple, made with `meeple new $name`.

```sh
meeple validate $name            # check every file; errors come as file:line:col
meeple play $name --bots all     # watch bots play it (drop --bots to play yourself)
meeple test $name                # run scenarios/*.yaml
meeple conformance $name         # which rules the scenarios cover
```

Editors: `game.yaml` names `$schema` (the language's JSON Schema, written by
`meeple schema`) on its first line, so an editor with a YAML language server
completes and explains every key; `meeple lsp` adds the checker's errors as you type
(docs/editors.md).

## Rules and where they are encoded

One row per rule of the rulebook, with its page (or section) and the part of the
ruleset that encodes it. Write where the rulebook is silent as an assumption below.

| rule | page | spec element |
| --- | --- | --- |
| on your turn, take one to three counters from the pile | take | action `take` (`require: count <= pile`) |
| whoever takes the last counter wins | end | `end` (`pile == 0`), `scoring` |

## Assumptions

| id | assumption | why | page |
| --- | --- | --- | --- |
| A1 | (none yet) | | |
''')


def check_name(name: str) -> str:
    if not NAME_PATTERN.fullmatch(name):
        raise ScaffoldError(f"'{name}' cannot name a ruleset: use lower-case letters, digits, '-' and '_', "
                            "starting with a letter (at most 64)")
    return name


def create(target: str | Path) -> Scaffold:
    """Write the folder `target` (its last part is the game's name); refuses to write into
    a folder that already holds files, so nothing of the author's is overwritten."""
    folder = Path(target)
    name = check_name(folder.name)
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise ScaffoldError(f"{folder} already exists and is not an empty folder; choose another name")
    title = " ".join(part.capitalize() for part in re.split(r"[-_]", name) if part)
    values = {"name": name, "title": title, "schema": SCHEMA_NAME}
    contents = {
        folder / "game.yaml": GAME.substitute(values),
        folder / "scenarios" / "rules.yaml": SCENARIOS.substitute(values),
        folder / "README.md": README.substitute(values),
        folder / SCHEMA_NAME: SCHEMA_FILE.read_text(encoding="utf-8"),
    }
    for path, text in contents.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return Scaffold(folder, tuple(contents))
