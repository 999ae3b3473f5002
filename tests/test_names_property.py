"""No text of a ruleset ever runs: a property test over every position of a ruleset that
holds a name or a free text, and over the folder it is loaded from.

One small game uses every kind of declared name (options, kinds, fields, properties,
variables, zones, boards, definitions and their parameters, actions and their parameters,
phases, flow labels, the names `for`, `turns ... as` and `chance` bind, `let` and effect
`for` names, triggers, `each` names, events and their `with` names) and every free text
(the game's name, title and description, an action's label, a reason, an item id, a board
node, a log message), and is loaded from a folder whose name is drawn too.  Hypothesis puts
generated texts in those places: names the grammar allows but Python or the generator
might trip on (keywords, builtins, dunders, the generator's own locals), and texts with
newlines, quotes, brackets, backslashes, `#`, non-ASCII letters and code.  Each example
either stops with a located N310 at the bad name, or loads and plays the same, move for
move and playout for playout, on both back ends; and the code planted in the texts (which
would create a file named SENTINEL) never runs."""
from __future__ import annotations

import ast
import json
import os
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from meeple.dsl.diagnostics import RulesetError
from meeple.dsl.functions import FUNCTIONS
from meeple.dsl.identifiers import is_name
from meeple.dsl.load import load_ruleset
from meeple.interpreter import load_game, load_rules
from meeple.interpreter.codegen.safe_source import UnsafeSource
from meeple.interpreter.runtime.game import Game
from meeple.interpreter.runtime.loading import rules_for

NAMES = dict(opt="bonus", kind="card", field="rank", prop="marks", var="total", var2="points", zone="hand",
             pile="deck", define="worth", dparam="n", act="play", param="pick", phase="main", label="round",
             fvar="lap", who="mover", roll="die", let="gain", efor="step", trig="noted", each="who2",
             event="played", with_="amount", board="track")
TEXTS = dict(gname="g", title="A Title", text="free text", itemid="c", node="n1", log="moved")
SENTINEL = "SENTINEL"
PAYLOADS = [
    f"x\n__import__('os').system('touch {SENTINEL}')",
    f"x') or open('{SENTINEL}', 'w') or ('",
    f"x = open('{SENTINEL}', 'w'); y",
    f'x"""\nopen("{SENTINEL}", "w")\n"""',
    f"p\n                open('{SENTINEL}', 'w')",
    f"x\\\nopen('{SENTINEL}', 'w')",
    f"# \nopen('{SENTINEL}', 'w')",
    f"q in [open('{SENTINEL}', 'w')]",
]
# Names the grammar allows that Python, the generator's prefixes or its own locals might trip on.
TRICKY = ["class", "def", "import", "lambda", "return", "None", "True", "False", "pass", "yield", "global",
          "open", "eval", "exec", "compile", "getattr", "globals", "print", "object", "__import__", "__init__",
          "__class__", "__builtins__", "__dict__", "self", "ctx", "S", "M", "B", "V", "Z", "L", "R", "out", "pc",
          "state", "game", "below", "limit", "played", "drawn", "lc", "p", "m", "a", "i", "x", "_c", "_t1", "_v",
          "E0", "D_x", "A_play", "l_x", "v_total", "k_gain", "b_x", "X0", "G0", "FUSED", "PLAYOUT", "Deopt",
          "Move", "Item", "COSTS", "_ref", "_seq", "_fz_FU", "F_len", "c1_x", "_e1", "w_total", "o_bonus", "x" * 64]
# Names a ruleset may not declare for other reasons: reserved words (S109), library functions.
TAKEN = {"player", "options", "key", "item"} | set(FUNCTIONS)
VALID = st.one_of(st.sampled_from(TRICKY), st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,12}", fullmatch=True)).filter(
    lambda n: is_name(n) and n not in TAKEN)
ODD = st.text(st.sampled_from(list("ab_\n\r'\"()[]{}\\#. -:=;é\t0$") + ["ő", "Ω", "𝔘"]), min_size=1, max_size=12)
INVALID = st.one_of(st.sampled_from(PAYLOADS + ["", "1x", "for", "none", "x" * 65, "a b", "a-b", "ÿ", "x\ny"]),
                    ODD.filter(lambda t: not is_name(t)))
FREE = st.one_of(st.sampled_from(PAYLOADS), st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp"),
                                                                  whitelist_characters="\n\t"), min_size=1, max_size=20))
FOLDER = st.one_of(st.sampled_from(["r27\n__import__('os').system('touch SENTINEL')\n#", "a b", "ünï", "x'y\"z"]),
                   st.text(st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="/\\\0"),
                           min_size=1, max_size=16)).filter(lambda t: t not in (".", "..") and len(t.encode()) < 200)


def lit(x: str) -> str:
    """`x` as a string literal of the expression language."""
    return "'" + x.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n").replace("\r", "\\r") + "'"


def ruleset_text(n: dict, t: dict) -> str:
    """The game, every name and text written as a YAML double-quoted string (JSON's escapes)."""
    e = {k: json.dumps(v) for k, v in {
        "deck": f"items({lit(n['kind'])})",
        "worth": f"{n['dparam']} + options.{n['opt']} + len(nodes({lit(n['board'])}))",
        "while": f"{n['var']} < 30", "who": n["who"], "require": f"{n['param']} <= 3",
        "let": f"{n['define']}({n['param']})", "add": f"{n['var']} += {n['let']}",
        "for": f"{n['var2']}[player] += {n['efor']}", "with": n["param"],
        "log": f"{lit(t['log'])} + str({n['param']})", "trig": f"{n['var2']}[{n['each']}] += {n['with_']}",
        "end": f"{n['var']} >= 30", "score": f"{n['var2']}[player]"}.items()}
    n = {k: json.dumps(v) for k, v in n.items()}
    t = {k: json.dumps(v) for k, v in t.items()}
    return f"""
game:
  name: {t['gname']}
  title: {t['title']}
  description: {t['text']}
  players: 2
  options:
    {n['opt']}: {{default: 1}}
components:
  {n['kind']}:
    fields: {{{n['field']}: int}}
    props: {{{n['prop']}: {{type: int, initial: 0}}}}
    items:
      - {{id: {t['itemid']}, {n['field']}: 2, count: 6}}
boards:
  {n['board']}:
    nodes: [{t['node']}, "other node"]
    edges: [[{t['node']}, "other node"]]
variables:
  {n['var']}: {{type: int, initial: 0}}
  {n['var2']}: {{type: int, per: player, initial: 0}}
zones:
  {n['zone']}: {{per: player, visibility: owner}}
  {n['pile']}: {{initial: {e['deck']}}}
define:
  {n['define']}: {{params: [{n['dparam']}], expr: {e['worth']}}}
setup:
  - shuffle: {n['pile']}
  - deal: 2
    from: {n['pile']}
    to: {n['zone']}
flow:
  - phase: {n['phase']}
    do:
      - loop:
          - for: {n['fvar']}
            in: "[1, 2]"
            do:
              - turns: "players()"
                as: {n['who']}
                do:
                  - chance: {n['roll']}
                    from: "range(1, 4)"
                  - choose: [{n['act']}]
                    player: {e['who']}
        label: {n['label']}
        while: {e['while']}
actions:
  {n['act']}:
    label: {t['title']}
    params:
      {n['param']}: "range(1, 4)"
    require:
      - check: {e['require']}
        reason: {t['text']}
    effects:
      - let: {{{n['let']}: {e['let']}}}
      - {e['add']}
      - for: {n['efor']}
        in: "[1, 2]"
        do: [{e['for']}]
      - emit: {n['event']}
        with: {{{n['with_']}: {e['with']}}}
      - log: {e['log']}
triggers:
  {n['trig']}:
    on: {n['event']}
    each: {{{n['each']}: "players()"}}
    effects: [{e['trig']}]
end:
  - when: {e['end']}
    after: {n['label']}
scoring:
  score: {e['score']}
"""


def test_the_game_plays_in_the_fused_tier_as_written(tmp_path):
    """The template reaches every tier: its playouts run the fused playout."""
    path = tmp_path / "game.yaml"
    path.write_text(ruleset_text(NAMES, TEXTS), encoding="utf-8")
    assert load_rules(str(path), backend="compiled").playout_tier() == "fused"
    _same_play_on_both_back_ends(path)


def _same_play_on_both_back_ends(path: Path) -> None:
    games = [load_game(str(path), 2, backend=b) for b in ("reference", "compiled")]
    load_rules(str(path), backend="compiled").source()  # what `meeple compile` writes, kernel and all
    states = [g.new_state(7) for g in games]
    rnd = random.Random(3)
    for _ in range(12):
        if games[0].is_terminal(states[0]):
            break
        moves = [g.legal_moves(s) for g, s in zip(games, states)]
        assert moves[0] == moves[1]
        pick = moves[0][rnd.randrange(len(moves[0]))]
        states = [g.apply(s, pick) for g, s in zip(games, states)]
        assert states[0].key() == states[1].key()
    ends = [g.playout(s, rng=random.Random(5)) for g, s in zip(games, states)]
    assert ends[0].key() == ends[1].key()
    assert games[0].outcome(ends[0]) == games[1].outcome(ends[1])


@st.composite
def placements(draw):
    """(names, texts, folder, the slots given a text outside the grammar)."""
    names, texts = dict(NAMES), dict(TEXTS)
    bad = []
    for slot in draw(st.lists(st.sampled_from(sorted(NAMES)), max_size=3, unique=True)):
        if draw(st.booleans()):
            names[slot] = draw(INVALID)
            bad.append(slot)
        else:
            names[slot] = draw(VALID)
    for slot in draw(st.lists(st.sampled_from(sorted(TEXTS)), max_size=2, unique=True)):
        texts[slot] = draw(FREE)
    folder = draw(st.one_of(st.just("game"), FOLDER))
    return names, texts, folder, bad


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(placements())
@example(placement=({**NAMES, "var": "class", "var2": "class", "act": "x\n__import__('os').system('touch SENTINEL')"},
                    TEXTS, "game", ["act"]))  # found by hypothesis: a duplicate key stops reading before names
def test_a_ruleset_text_is_refused_at_its_place_or_plays_the_same_and_never_runs(placement):
    names, texts, folder, bad = placement
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as work:
        os.chdir(work)  # where the planted code would leave its file
        try:
            root = Path(work) / folder
            root.mkdir()
            path = root / "game.yaml"
            text = ruleset_text(names, texts)
            path.write_text(text, encoding="utf-8")
            event(_refused_or_the_same(path, text, names, bad))
            assert not (Path(work) / SENTINEL).exists(), "text from the ruleset ran as code"
        finally:
            os.chdir(here)


def _refused_or_the_same(path: Path, text: str, names: dict, bad: list) -> str:
    distinct = len(set(names.values())) == len(names)
    try:
        load_rules(str(path), backend="compiled")
    except RulesetError as exc:
        assert all(d.span is not None and d.span.line >= 1 for d in exc.diagnostics), "an error without a place"
        lines = text.splitlines()
        refused = {lines[d.span.line - 1] for d in exc.diagnostics if d.code == "N310"}
        if not distinct and any(d.code == "Y001" for d in exc.diagnostics):
            return "refused as YAML: two names drawn alike made a duplicate key"  # reading stops before names are checked
        for slot in bad:  # each name outside the grammar is refused where it is written
            assert any(json.dumps(names[slot]) in line for line in refused), (slot, names[slot])
        assert bad or not distinct, [d.render() for d in exc.diagnostics]
        return "refused at its place"
    assert not bad, f"{bad} should have been refused"
    _same_play_on_both_back_ends(path)
    return "played the same on both back ends"


@pytest.mark.parametrize("slot", sorted(NAMES))
def test_every_name_position_refuses_a_name_with_code_in_it(slot, tmp_path, monkeypatch):
    """Each position, one at a time, with a text that would run if it reached the code."""
    monkeypatch.chdir(tmp_path)
    names = {**NAMES, slot: PAYLOADS[0]}
    text = ruleset_text(names, TEXTS)
    (tmp_path / "game.yaml").write_text(text, encoding="utf-8")
    assert _refused_or_the_same(tmp_path / "game.yaml", text, names, [slot]) == "refused at its place"
    assert not (tmp_path / SENTINEL).exists()


# Texts crafted for one place each of a generator that pasted names into its text (the
# reproducers r22-r26 of the reliability corpus), each creating SENTINEL if it ran.
PLANTED = {
    "parameter": f"q in [open('{SENTINEL}', 'w')]",
    "let": f"x = open('{SENTINEL}', 'w'); y",
    "effect for": f"x in [open('{SENTINEL}', 'w')]",
    "phase": f"p\n                open('{SENTINEL}', 'w')",
    "action": f"x\'\'\') -> \'\'\'\nopen('{SENTINEL}', 'w')\ndef A_y(a=\'\'\'",
}


def _planted(rs, where: str, text: str) -> None:
    """Put `text` where the loader would never let it be: into the built ruleset itself,
    as a name nothing else refers to."""
    action = rs.actions[NAMES["act"]]
    if where == "parameter":
        action.params.append((text, *action.params[0][1:]))
    elif where == "let":
        let = action.effects[0]
        let.args["bindings"] = {**let.args["bindings"], text: next(iter(let.args["bindings"].values()))}
    elif where == "effect for":
        loop = action.effects[2]
        action.effects[2] = type(loop)(loop.kind, {**loop.args, "var": text, "do": [action.effects[1]]}, loop.span)
    elif where == "phase":
        rs.flow[0].args["name"] = text
    elif where == "action":
        rs.actions = {text: action}
        action.name = text
        for node in _flow_nodes(rs.flow):
            if node.kind == "choose":
                node.args["actions"] = [(text, span) for _, span in node.args["actions"]]


def _planted_ruleset(tmp_path, monkeypatch, where: str):
    """The game built from its YAML in `tmp_path` (where the planted code would leave its
    file), then given PLANTED[where] by hand."""
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "game.yaml"
    path.write_text(ruleset_text(NAMES, TEXTS), encoding="utf-8")
    rs = load_ruleset(path)
    _planted(rs, where, PLANTED[where])
    return rs


def _flow_nodes(nodes):
    for node in nodes:
        yield node
        yield from _flow_nodes(node.body)
        yield from _flow_nodes(node.orelse)


@pytest.mark.parametrize("where", sorted(PLANTED))
def test_the_generator_refuses_a_name_the_loader_did_not_check(where, tmp_path, monkeypatch):
    """Behind the loader's N310 stands safe_source: a name that reached the generator
    unchecked stops it (UnsafeSource), or, where the generator writes no identifier of it
    (a phase), stays a literal; either way nothing of it runs."""
    rs = _planted_ruleset(tmp_path, monkeypatch, where)
    try:
        game = Game(rules_for(rs, "compiled"), 2)
        game.playout(game.new_state(1), rng=random.Random(2))
        refused = False
    except UnsafeSource:
        refused = True
    assert not (tmp_path / SENTINEL).exists(), f"a {where} name ran as code"
    assert refused == (where != "phase")


WALLS = ("the names ident takes", "the text check makes", "the builtins the module sees")


@pytest.mark.parametrize("wall", WALLS)
@pytest.mark.parametrize("where", ["parameter", "effect for"])
def test_each_wall_alone_keeps_a_planted_name_from_running(wall, where, tmp_path, monkeypatch):
    """The three walls of safe_source, each alone: with the other two taken down, code
    planted in a name (which runs when all three are down) still does not run."""
    import builtins

    from meeple.interpreter.codegen import safe_source
    if wall != WALLS[0]:
        monkeypatch.setattr(safe_source, "is_name", lambda name: True)
    if wall != WALLS[1]:
        monkeypatch.setattr(safe_source, "check", ast.parse)
    if wall != WALLS[2]:
        monkeypatch.setattr(safe_source, "_SAFE_BUILTINS_DICT", vars(builtins))
    rs = _planted_ruleset(tmp_path, monkeypatch, where)
    try:
        game = Game(rules_for(rs, "compiled"), 2)
        game.playout(game.new_state(1), rng=random.Random(2))
    except UnsafeSource:
        assert wall != WALLS[2]  # the first two walls refuse; the third lets it fail by itself
    assert not (tmp_path / SENTINEL).exists(), f"a {where} name ran as code behind {wall} alone"


def test_with_every_wall_down_the_planted_name_runs(tmp_path, monkeypatch):
    """What the walls hold back (so the tests above would see it if they fell)."""
    import builtins

    from meeple.interpreter.codegen import safe_source
    monkeypatch.setattr(safe_source, "is_name", lambda name: True)
    monkeypatch.setattr(safe_source, "check", ast.parse)
    monkeypatch.setattr(safe_source, "_SAFE_BUILTINS_DICT", vars(builtins))
    rs = _planted_ruleset(tmp_path, monkeypatch, "parameter")
    game = Game(rules_for(rs, "compiled"), 2)
    game.playout(game.new_state(1), rng=random.Random(2))
    assert (tmp_path / SENTINEL).exists()
