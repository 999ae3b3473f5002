"""Named flow fragments (`fragments:` and `call` steps, dsl/fragments.py): a call plays
exactly as the fragment's steps written where it stands, on both back ends and in the
fused tier; its arguments are worked out once as it starts and end with it; and what
cannot be expanded is a located diagnostic."""
from __future__ import annotations

import random
import textwrap

import pytest

from meeple.interpreter import load_game, load_rules
from meeple.interpreter.codegen.fused import located_reasons
from meeple.interpreter.analysis.differential import compare_backends

from ruleset_support import diagnostics_at

ROUNDS = """
game: {name: rounds, players: 2}
variables:
  chips: {per: player, type: int, initial: 5, min: 0}
  stake: {per: player, type: int, initial: 0}
  rounds_done: {type: int, initial: 0}
%s
actions:
  bid:
    params: {n: "range(0, 3)"}
    require: ["n <= chips[player]"]
    effects: ["chips[player] -= n", "stake[player] += n"]
end:
  - {when: "rounds_done == 2", after: second}
scoring:
  score: "chips[player]"
"""

ROUND = """
      - loop:
          - turns: "[opener, next_player(opener)]"
            do:
              - choose: [bid]
        times: "laps"
      - effects:
          - if: "stake[0] != stake[1]"
            then: ["chips[0 if stake[0] > stake[1] else 1] += stake[0] + stake[1]"]
            else: ["chips[0] += stake[0]", "chips[1] += stake[1]"]
          - for: p
            in: "players()"
            do: ["stake[p] = 0"]
          - "rounds_done += 1"
"""

CALLED = ROUNDS % ("""fragments:
  bidding:
    params: [opener, laps]
    do:""" + ROUND + """
flow:
  - call: bidding
    with: {opener: 0, laps: 1}
  - call: bidding
    with: {opener: 1, laps: "1 + 1"}
    label: second
""")

WRITTEN_OUT = ROUNDS % ("flow:\n" + "\n".join(
    f"  - for: opener\n    in: \"[{opener}]\"\n" + (f"    label: second\n" if opener else "") +
    "    do:\n      - for: laps\n        in: \"[" + laps + "]\"\n        do:" + textwrap.indent(ROUND, "    ")
    for opener, laps in ((0, "1"), (1, "1 + 1"))))


def _write(tmp_path, text: str, name: str = "game") -> str:
    path = tmp_path / f"{name}.yaml"
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return str(path)


def _moves_and_vars(game, seed: int):
    rnd = random.Random(seed)
    state = game.new_state(seed)
    seen = []
    while not game.is_terminal(state):
        legal = game.legal_moves(state)
        seen.append(([str(m) for m in legal], dict(state.vars)))
        state = game.apply(state, legal[rnd.randrange(len(legal))])
    return seen, game.outcome(state).scores


@pytest.mark.parametrize("backend", ["reference", "compiled"])
def test_a_call_plays_as_its_steps_written_where_it_stands(tmp_path, backend):
    called = load_game(_write(tmp_path, CALLED, "called"), 2, backend=backend)
    written = load_game(_write(tmp_path, WRITTEN_OUT, "written"), 2, backend=backend)
    for seed in range(8):
        assert _moves_and_vars(called, seed) == _moves_and_vars(written, seed)
    assert len(_moves_and_vars(called, 0)[0]) == 6  # one lap opened by 0, two laps opened by 1


def test_both_back_ends_and_the_fused_tier_take_a_call(tmp_path):
    path = _write(tmp_path, CALLED)
    report = compare_backends(path, 2, games=5, seed=3)
    assert report.ok and report.deopts == 0, str(report)
    assert located_reasons(load_rules(path, backend="compiled")) == []


def test_an_argument_is_worked_out_once_as_the_call_starts_and_ends_with_the_fragment(tmp_path):
    path = _write(tmp_path, """
        game: {name: once, players: 1}
        variables:
          total: {type: int, initial: 1}
          seen: {type: "list[int]", initial: "[]"}
        fragments:
          grow:
            params: [start]
            do:
              - effects: ["total += 10"]
              - choose: [look]
              - effects: ["seen = seen + [start, total]"]
        flow:
          - call: grow
            with: {start: "total"}
          - call: grow
            with: {start: "total * 2"}
        actions:
          look: {}
        scoring:
          score: "total"
        """)
    game = load_game(path, 1)
    state = game.new_state(0)
    assert state.locals["start"] == 1
    state = game.apply(state, "look")
    assert state.locals["start"] == 22  # the second call: total was 11 when it started
    state = game.apply(state, "look")
    assert state.vars["seen"] == (1, 11, 22, 21) and game.is_terminal(state)
    assert "start" not in state.locals


def test_a_fragment_sees_the_names_around_the_call_and_seen_by_shows_its_arguments(tmp_path):
    path = _write(tmp_path, """
        game: {name: around, players: 2}
        variables:
          marks: {per: player, type: int, initial: 0}
        fragments:
          mark:
            params: [weight]
            do:
              - choose: [tick]
              - effects: ["marks[player] += weight"]
        flow:
          - turns: "players()"
            do:
              - call: mark
                with: {weight: "player + 1"}
                seen_by: "players()"
        actions:
          tick: {}
        scoring:
          score: "marks[player]"
        """)
    game = load_game(path, 2)
    state = game.new_state(0)
    assert game.view(state, 1)["locals"]["weight"] == 1
    state = game.apply(state, "tick")
    assert game.current_players(state) == (1,) and game.view(state, 0)["locals"]["weight"] == 2
    state = game.apply(state, "tick")
    assert state.vars["marks"] == (1, 2)


def test_a_fragment_without_parameters_may_be_called_inside_an_actions_then(tmp_path):
    path = _write(tmp_path, """
        game: {name: then-call, players: 1}
        variables:
          n: {type: int, initial: 0}
        fragments:
          bonus:
            do:
              - chance: roll
                from: "[1, 2]"
              - choose: [take]
              - effects: ["n += roll"]
        flow:
          - loop:
              - choose: [start]
            times: 2
        actions:
          start:
            then:
              - call: bonus
          take: {}
        scoring:
          score: "n"
        """)
    assert diagnostics_at(tmp_path, (tmp_path / "game.yaml").read_text()) == []
    game = load_game(path, 1)
    state = game.apply(game.new_state(1), "start")
    assert "roll" in state.locals
    state = game.apply(state, "take")
    assert "roll" not in state.locals and state.vars["n"] in (1, 2)  # the drawn name ends with the fragment


HEAD = """
game: {name: bad, players: 2}
variables:
  pot: {type: int, initial: 0}
actions:
  go: {}
scoring:
  score: "pot"
"""


@pytest.mark.parametrize("text,expected", [
    (HEAD + "flow:\n  - call: bidding\nfragments:\n  biding: {do: [{choose: [go]}]}\n",
     [("F512", 9, "bidding", "error"), ("F515", 11, "biding", "warning")]),
    (HEAD + "fragments:\n  f: {params: [a, b], do: [{choose: [go]}]}\n"
            "flow:\n  - call: f\n    with: {a: 1, c: 2}\n",
     [("F513", 11, "f", "error"), ("F513", 12, "c", "error")]),
    (HEAD + "fragments:\n  f: {do: [{choose: [go]}, {call: f}]}\nflow:\n  - call: f\n",
     [("F514", 9, "f", "error")]),
    (HEAD + "fragments:\n  f: {do: [{choose: [go]}, {call: g}]}\n  g: {do: [{call: f}]}\nflow:\n  - call: g\n",
     [("F514", 10, "f", "error")]),
    (HEAD + "fragments:\n  f: {params: [a, pot, a], do: [{choose: [go]}]}\n"
            "flow:\n  - call: f\n    with: {a: 1, pot: 2}\n",
     [("F516", 9, "a", "error"), ("F516", 9, "pot", "error")]),
    (HEAD + "fragments:\n  f: {do: [{choose: [go], label: done}]}\nflow:\n  - call: f\n  - call: f\n",
     [("F505", 9, "{choose: [go], label: done}", "error")]),
    (HEAD + "fragments:\n  f: {params: [player], do: [{choose: [go]}]}\n"
            "flow:\n  - turns: \"players()\"\n    do:\n      - call: f\n        with: {player: 0}\n",
     [("F511", 13, "call: f", "error")]),
    (HEAD + "fragments:\n  f: {do: [{effects: [\"pot += nope\"]}, {choose: [go]}]}\n"
            "flow:\n  - call: f\n  - call: f\n",
     [("N301", 9, "nope", "error")]),  # once, though the steps are checked at each call
])
def test_what_cannot_be_expanded_is_reported_where_it_is_written(tmp_path, text, expected):
    # (a call left out may leave an action unoffered, or no flow at all: F506, F507, F508)
    assert [d for d in diagnostics_at(tmp_path, text) if d[0] not in ("F506", "F507", "F508")] == expected


def test_a_label_on_the_call_is_the_whole_calls_and_a_fragment_called_once_may_hold_labels(tmp_path):
    text = HEAD + """
fragments:
  f: {do: [{choose: [go], label: inside}]}
  g: {do: [{choose: [go]}]}
flow:
  - call: f
  - call: g
    label: outside
  - call: g
end:
  - {when: "true", after: outside}
"""
    assert diagnostics_at(tmp_path, text) == []
    game = load_game(str(tmp_path / "game.yaml"), 2)
    state = game.apply(game.apply(game.new_state(0), "go"), "go")
    assert game.is_terminal(state)  # `after: outside` ends the game as the second call finishes


def test_an_editor_finds_a_fragment_from_its_calls(tmp_path):
    from meeple.authoring.analysis import analyse
    folder = tmp_path / "lsp"
    folder.mkdir()
    (folder / "game.yaml").write_text(CALLED, encoding="utf-8")
    analysis = analyse(folder.resolve(), {})
    found = [(o.span.line, o.declaration) for o in analysis.index.occurrences("fragment", "bidding")]
    lines = CALLED.split("\n")
    assert found == [(i + 1, "  bidding:" == line) for i, line in enumerate(lines)
                     if line in ("  bidding:", "  - call: bidding")]
    assert [(o.kind, o.declaration) for o in analysis.index.occurrences("label", "second")][0] == ("label", True)
