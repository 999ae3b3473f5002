"""The typed reading of a ruleset: every key of every section is checked against
the declared language (dsl/schema), each problem is reported exactly once with the
span of the key or value concerned, and the structural limits refuse rulesets
that would build millions of nodes, items or set-ups."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from meeple.dsl.build import grid_column
from meeple.dsl.load import check_ruleset, read_ruleset
from meeple.dsl.schema import EFFECT, FLOW_STEP, LIMITS, RULESET, kinds

ROOT = Path(__file__).resolve().parent.parent

# A small valid ruleset, one section per line (game on line 1 ... end on line 5);
# a case replaces sections or adds new ones, which follow on lines 6, 7, ...
DEFAULT = {
    "game": "{name: r, players: 2}",
    "variables": "{n: {type: int, initial: 0}}",
    "flow": '[{loop: [{turns: "players()", do: [{choose: [go]}]}]}]',
    "actions": '{go: {effects: ["n += 1"]}}',
    "end": '[{when: "n >= 3"}]',
}


def ruleset(**sections) -> str:
    merged = {**DEFAULT, **sections}
    return "".join(f"{name}:{' ' + text if text else ''}\n" for name, text in merged.items())


# (name, ruleset text, [(code, line, the text the diagnostic points at)])
CASES = [
    # -- the corpus (../shared/reliability) ---------------------------------
    ("r15 a 10^6 x 3 grid", ruleset(boards="{grid: {grid: {rows: 1000000, cols: 3}}}"),
     [("S112", 6, "{rows")]),
    ("r16 a player range up to 10^8", ruleset(game="{name: r, players: 1-100000000}"),
     [("S111", 1, "1-1")]),
    ("r18 players: null", ruleset(game="{name: r, players: null}"), [("S103", 1, "null")]),
    ("r19 an unknown key inside move: {...}",
     ruleset(zones='{deck: {initial: "items(\'c\')"}, hand: {per: player}}',
             components="{c: {items: [{id: a}, {id: b}]}}",
             actions='{go: {effects: ["n += 1", {move: {from: deck, to: "hand[player]", fase: up}}]}}'),
     [("S101", 4, "fase")]),
    # -- labels and texts ---------------------------------------------------
    ("an action label that is a list", ruleset(actions='{go: {label: [1], effects: ["n += 1"]}}'),
     [("S103", 4, "[1]")]),
    ("a label table entry that is a list", ruleset(game="{name: r, players: 2, labels: {hu: {go: [x]}}}"),
     [("S103", 1, "[x]")]),
    ("a title that is a mapping", ruleset(game="{name: r, players: 2, title: {a: 1}}"),
     [("S103", 1, "{a: 1}")]),
    ("a rulebook section title that is a list",
     ruleset(game="{name: r, players: 2, rulebook: {sections: {p.1: [a]}}}"), [("S103", 1, "[a]")]),
    ("a game name that is a mapping", ruleset(game="{name: {x: 1}, players: 2}"), [("S103", 1, "{x: 1}")]),
    # -- players ------------------------------------------------------------
    ("players as text that is no range", ruleset(game="{name: r, players: two}"), [("S107", 1, "two")]),
    ("players as a list", ruleset(game="{name: r, players: [2]}"), [("S103", 1, "[2]")]),
    ("players {min} without max", ruleset(game="{name: r, players: {min: 2}}"), [("S102", 1, "{min")]),
    ("players beyond the limit", ruleset(game="{name: r, players: {min: 2, max: 65}}"),
     [("S111", 1, "{min")]),
    ("a game without players", ruleset(game="{name: r}"), [("S102", 1, "{name")]),
    # -- unknown keys everywhere, with the closest one suggested ------------------
    ("an unknown key in a zone", ruleset(zones="{z: {kind: stack, visibilty: all}}"), [("S101", 6, "visibilty")]),
    ("an unknown key in a variable", ruleset(variables="{n: {type: int, inital: 0}}"), [("S101", 2, "inital")]),
    ("an unknown key in a flow step", ruleset(flow='[{loop: [{turns: "players()", do: [{choose: [go]}]}], '
                                                'whle: "true"}]'), [("S101", 3, "whle")]),
    ("an unknown key in an effect", ruleset(actions='{go: {effects: [{if: "true", then: [], ele: []}]}}'),
     [("S101", 4, "ele")]),
    ("an unknown key in a grid", ruleset(boards="{b: {grid: {rows: 2, cols: 2, diagonals: true}}}"),
     [("S101", 6, "diagonals")]),
    ("an unknown key in an end rule", ruleset(end='[{when: "n >= 3", reson: x}]'), [("S101", 5, "reson")]),
    ("a count beside deal (it belongs inside deal: {...})",
     ruleset(zones="{deck: {}, hand: {per: player}}", setup="[{deal: 2, count: 3, from: deck, to: hand}]"),
     [("S101", 7, "count")]),
    # -- missing keys ---------------------------------------------------------
    ("an end rule without when", ruleset(end="[{reason: x}]"), [("S102", 5, "{reason")]),
    ("a trigger with neither on nor when", ruleset(triggers="{t: {effects: []}}"), [("S102", 6, "{effects")]),
    ("generate without an id template",
     ruleset(components="{c: {fields: {a: int}, generate: {a: [1, 2]}}}"), [("S102", 6, "{fields")]),
    ("move without to", ruleset(zones="{deck: {}}", setup="[{move: {from: deck}}]"), [("S102", 7, "{move")]),
    ("move without items or from", ruleset(zones="{deck: {}}", setup="[{move: true, to: deck}]"),
     [("S102", 7, "{move")]),
    ("an item without id", ruleset(components="{c: {items: [{count: 2}]}}"), [("S102", 6, "{count")]),
    ("an effect with no keyword", ruleset(actions="{go: {effects: [{then: []}]}}"), [("S106", 4, "{then")]),
    ("a loop with while and until",
     ruleset(flow='[{loop: [{choose: [go]}], while: "true", until: "false"}]'), [("S106", 3, "{loop")]),
    # -- wrong kinds, nothing included --------------------------------------------
    ("when: null", ruleset(end="[{when: null}]"), [("S103", 5, "null")]),
    ("expr: null", ruleset(define="{d: {expr: null}}"), [("S103", 6, "null")]),
    ("shuffle: null", ruleset(zones="{deck: {}}", setup="[{shuffle: null}]"), [("S103", 7, "null")]),
    ("an empty section", ruleset(setup=""), [("S103", 6, "setup")]),
    ("an empty condition", ruleset(invariants="[null]"), [("S103", 6, "null")]),
    ("diagonal: {x: 1}", ruleset(boards="{b: {grid: {rows: 2, cols: 2, diagonal: {x: 1}}}}"),
     [("S103", 6, "{x: 1}")]),
    ("node attributes given as a number", ruleset(boards="{b: {nodes: {a: 5, c: {x: 1}}}}"),
     [("S103", 6, "5")]),
    ("edge attributes given as a number", ruleset(boards="{b: {nodes: [a, c], edges: [[a, c, 5]]}}"),
     [("S103", 6, "5")]),
    ("an edge with one end", ruleset(boards="{b: {nodes: [a, c], edges: [[a]]}}"), [("S103", 6, "[a]]")]),
    ("an item id given as a list", ruleset(components="{c: {items: [{id: [a]}]}}"), [("S103", 6, "[a]")]),
    ("an item field value of nothing", ruleset(components="{c: {fields: {x: int}, items: [{id: a, x: }]}}"),
     [("S103", 6, " }]}}")]),  # nothing: the empty place after the colon
    ("a text where an integer is expected", ruleset(variables='{n: {type: int, initial: 0, max: "3"}}'),
     [("S103", 2, '"3"')]),
    ("an item count given as text", ruleset(components='{c: {items: [{id: a, count: "3"}]}}'),
     [("S103", 6, '"3"')]),
    ("choices given as a mapping", ruleset(variables="{n: {type: int, initial: 0, choices: {a: 1}}}"),
     [("S103", 2, "{a: 1}")]),
    ("choices holding a fraction", ruleset(variables="{n: {type: int, initial: 0, choices: [0, 2.5]}}"),
     [("S103", 2, "2.5")]),
    ("option choices holding a fraction",
     ruleset(game="{name: r, players: 2, options: {k: {default: 1, choices: [1, 1.5]}}}"), [("S125", 1, "1.5")]),
    ("an option without a default", ruleset(game="{name: r, players: 2, options: {k: {choices: [1]}}}"),
     [("S102", 1, "{choices")]),
    ("a variable given as a number", ruleset(variables="{n: 5}"), [("S103", 2, "5")]),
    ("a type that is not a text", ruleset(variables="{n: {type: 5, initial: 0}}"), [("S103", 2, "5")]),
    ("a field type that is a list", ruleset(components="{c: {fields: {x: [int]}}}"), [("S103", 6, "[int]")]),
    ("an expression that is a mapping", ruleset(zones="{z: {initial: {a: 1}}}"), [("S103", 6, "{a: 1}")]),
    ("effects given as true", ruleset(actions="{go: {effects: true}}"), [("S103", 4, "true")]),
    ("pass that is neither true/false nor a condition", ruleset(flow='[{loop: [{choose: [go], pass: {a: 1}}]}]'),
     [("S103", 3, "{a: 1}")]),
    ("params given as a list", ruleset(actions='{go: {params: [a], effects: ["n += 1"]}}'), [("S103", 4, "[a]")]),
    ("an action name that is a mapping", ruleset(flow='[{loop: [{choose: {go: 1}}]}]'), [("S103", 3, "{go: 1}")]),
    ("an effect that is a list", ruleset(actions='{go: {effects: [[a, b]]}}'), [("S103", 4, "[a, b]")]),
    ("a flow step that is a text", ruleset(flow='[{loop: [choose]}]'), [("S103", 3, "choose")]),
    ("end_game: false", ruleset(actions="{go: {effects: [{end_game: false}]}}"), [("S103", 4, "false")]),
    # -- choices ----------------------------------------------------------------
    ("a zone kind outside its choices", ruleset(zones="{z: {kind: heap}}"), [("S105", 6, "heap")]),
    ("a move position outside its choices", ruleset(zones="{z: {}}", setup="[{move: {from: z, to: z, at: middle}}]"),
     [("S105", 7, "middle")]),
    ("bounds outside its choices", ruleset(variables="{n: {type: int, initial: 0, bounds: wrap}}"),
     [("S105", 2, "wrap")]),
    # -- structural limits -----------------------------------------------------
    ("a grid with no rows", ruleset(boards="{b: {grid: {rows: 0, cols: 3}}}"), [("S112", 6, "{rows")]),
    ("a board with too many listed nodes", ruleset(boards="{b: {grid: {rows: 100, cols: 100}, nodes: [x]}}"),
     [("S112", 6, "[x]")]),
    ("boards with too many nodes together",
     ruleset(boards="{" + ", ".join(f"b{i}: {{grid: {{rows: 100, cols: 100}}}}" for i in range(6)) + "}"),
     [("S113", 6, "b5")]),
    ("an item count beyond the limit", ruleset(components="{c: {items: [{id: a, count: 20000}]}}"),
     [("S114", 6, "20000")]),
    ("a zero item count", ruleset(components="{c: {items: [{id: a, count: 0}]}}"), [("S114", 6, "0}")]),
    ("a generate product beyond the limit",
     ruleset(components='{c: {fields: {a: int, b: int}, generate: {a: {from: 1, to: 1000}, '
                        'b: {from: 1, to: 1000}}, id: "{a}-{b}"}}'), [("S115", 6, "{a: {from")]),
    ("a generate range of 10^17 values",
     ruleset(components='{c: {fields: {a: int}, generate: {a: {from: 1, to: 100000000000000000}}, id: "{a}"}}'),
     [("S115", 6, "{a: {from")]),
    ("too many items in one kind",
     ruleset(components="{c: {items: [" + ", ".join(f"{{id: i{k}, count: 10000}}" for k in range(6)) + "]}}"),
     [("S116", 6, "10000}]")]),
    ("too many items over several kinds",
     ruleset(components="{" + ", ".join(f"c{k}: {{items: [{{id: i{k}, count: 10000}}]}}" for k in range(6)) + "}"),
     [("S116", 6, "c5")]),
    # Numbers beyond the integer range are the YAML reader's (Y011): reported once, not again here.
    ("a bound beyond the integer range", ruleset(variables="{n: {type: int, initial: 0, max: 10000000000000000000}}"),
     [("Y011", 2, "1000")]),
    ("players beyond the integer range", ruleset(game="{name: r, players: 100000000000000000000}"),
     [("Y011", 1, "1000")]),
]


def errors_of(tmp_path, text: str):
    """What `meeple validate` reports before set-up: reading, then the static checks."""
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    rs, diags = read_ruleset(path)
    if rs is not None:
        diags += check_ruleset(rs)
    return sorted((d.code, d.span.line, d.span.col) for d in diags if d.severity == "error")


@pytest.mark.parametrize("name, text, expected", CASES, ids=[c[0] for c in CASES])
def test_each_problem_is_reported_once_where_it_is(tmp_path, name, text, expected):
    lines = text.split("\n")
    want = sorted((code, line, lines[line - 1].index(at) + 1) for code, line, at in expected)
    assert errors_of(tmp_path, text) == want


def test_the_default_ruleset_is_valid(tmp_path):
    assert errors_of(tmp_path, ruleset()) == []


def shipped() -> list[Path]:
    return sorted(p for folder in ("rulesets", "examples", "tests/games") for p in (ROOT / folder).iterdir()
                  if p.is_dir() and any(p.glob("*.yaml")))


@pytest.mark.parametrize("path", shipped(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_shipped_ruleset_reads_without_a_structure_diagnostic(path):
    rs, diags = read_ruleset(path)
    assert rs is not None
    assert [(d.code, str(d.span)) for d in diags] == []


def test_grid_columns_past_z_are_named_like_spreadsheet_columns(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(ruleset(boards="{b: {grid: {rows: 1, cols: 703}}}"), encoding="utf-8")
    rs, diags = read_ruleset(path)
    assert diags == []
    nodes = rs.boards["b"].nodes
    assert [grid_column(c) for c in (0, 25, 26, 27, 51, 52, 701, 702)] == \
        ["a", "z", "aa", "ab", "az", "ba", "zz", "aaa"]
    assert len(nodes) == 703 and nodes["aa1"] == {"row": 0, "col": 26} and nodes["aaa1"]["col"] == 702
    assert ("z1", "aa1", {}) in rs.boards["b"].edges


# -- the schema and the builders cannot drift apart -----------------------------------

def declarations():
    """Every Key and Variant the schema declares, anywhere (each kind visited once)."""
    out, seen = [], set()

    def visit(kind):
        if id(kind) in seen:
            return
        seen.add(id(kind))
        keys = []
        if isinstance(kind, kinds.Record):
            keys = list(kind.keys)
        elif isinstance(kind, kinds.Keyworded):
            out.extend(kind.variants)
            keys = list(kind.common) + [k for v in kind.variants for k in v.modifiers + v.inline]
            for v in kind.variants:
                visit(v.head)
        out.extend(keys)
        children = [k.kind for k in keys] + [getattr(kind, a) for a in ("item", "value", "extra")
                                              if isinstance(getattr(kind, a, None), kinds.Kind)]
        children += list(kind.options) if isinstance(kind, kinds.OneOf) else []
        children += list(kind.items) if isinstance(kind, kinds.Tuple) else []
        for child in children:
            visit(child)

    for root in (RULESET, EFFECT, FLOW_STEP):
        visit(root)
    return out


def declared_names() -> set[str]:
    return {d.keyword if isinstance(d, kinds.Variant) else d.name for d in declarations()}


def keys_read_by_builders() -> dict[str, int]:
    """Constant keys the builders read from YAML mappings: `node.get("k")`, `node["k"]`,
    `"k" in node` (the `args` dicts they fill are their output, not YAML)."""
    found: dict[str, int] = {}
    for file in ("build.py", "build_flow.py", "build_grid.py"):
        tree = ast.parse((ROOT / "dsl" / file).read_text(encoding="utf-8"))
        for n in ast.walk(tree):
            key = None
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "get" \
                    and n.args and isinstance(n.args[0], ast.Constant):
                key = n.args[0].value
            elif isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Load) \
                    and isinstance(n.slice, ast.Constant) and not (isinstance(n.value, ast.Name)
                                                                   and n.value.id == "args"):
                key = n.slice.value
            elif isinstance(n, ast.Compare) and isinstance(n.left, ast.Constant) \
                    and isinstance(n.ops[0], (ast.In, ast.NotIn)) and not isinstance(n.comparators[0], ast.Tuple):
                key = n.left.value
            if isinstance(key, str):
                found[key] = n.lineno
    return found


def test_every_key_the_builders_read_is_declared_in_the_schema():
    read = keys_read_by_builders()
    assert {"players", "diagonal", "from", "then_required", "count"} <= set(read)  # the scan sees them
    assert {k: line for k, line in read.items() if k not in declared_names()} == {}


def test_every_declared_key_has_a_description():
    assert len(declarations()) > 150
    assert [d for d in declarations() if not d.doc] == []


def test_limits_are_documented_with_their_codes_and_values():
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    for limit in LIMITS:
        row = next((line for line in text.split("\n") if line.startswith(f"| {limit.code} |")), "")
        assert f"{limit.value:,}" in row, limit


@pytest.mark.parametrize("ftype,value,ok", [
    ("map[str, int]", "3", False), ("map[str, int]", "{a: 1}", True), ("map[str, int]", "{a: x}", False),
    ("list[int]", "[1, 2]", True), ("list[int]", "[1, true]", False), ("list[int]", "1", False),
    ("int", "true", False), ("bool", "true", True), ("str", "7", False), ("any", "{a: [1]}", True),
])
def test_item_field_values_have_their_declared_type(tmp_path, ftype, value, ok):
    f = tmp_path / "g.yaml"
    f.write_text(f'game: {{name: r, players: 2}}\ncomponents: {{c: {{fields: {{m: "{ftype}"}}, '
                 f'items: [{{id: a, m: {value}}}]}}}}\nflow: [{{choose: [go]}}]\nactions: {{go: {{}}}}\n')
    rs, diags = read_ruleset(f)
    diags += check_ruleset(rs)
    assert [(d.code, d.span.line) for d in diags if d.severity == "error"] == ([] if ok else [("T407", 2)])


def test_a_deal_written_in_braces_needs_its_count(tmp_path):
    f = tmp_path / "g.yaml"
    f.write_text("game: {name: r, players: 2}\nzones: {deck: {}, hand: {per: player}}\n"
                 "setup: [{deal: {from: deck, to: hand}}]\nflow: [{choose: [go]}]\nactions: {go: {}}\n")
    rs, diags = read_ruleset(f)
    assert [(d.code, d.span.line) for d in diags if d.severity == "error"] == [("S102", 3)]
