"""Scenario tests: a ruleset, players, a seed, optional overrides of the state,
a list of moves and expectations.  This is the format of the rulebook
conformance tests: every worked example of a rulebook becomes one.

    ruleset: tic-tac-toe          # a shipped name or a path relative to this file
    scenarios:
      - name: a row wins
        rule: "three in a row"
        players: 2
        seed: 1
        given: ["cell['a1'] = 'X'"]           # effects, run after setup; `player` is the first to move
        moves: ["place(at=b1)", {player: 1, move: "place(at=c3)"},
                {move: "place(at=a1)", illegal: M804},
                {move: "place(at=c1)", narrates: ["..."], seat: 0, lang: en}]
        expect:
          - "cell['b1'] == 'X'"               # an expression on the final state
          - {illegal: "place(at=a1)", code: M804}
          - {legal: "place(at=c1)"}
          - {outcome: {winners: [0]}}
          - {over: true}
          - {to_move: [1]}

Inside `rulesets/<name>/scenarios/`, `ruleset:` may be left out.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from meeple.dsl.build_flow import build_effects
from meeple.dsl.schema.kinds import ListOf, Ref
from meeple.dsl.schema.shape import check_value
from meeple.dsl.build_support import Reader
from meeple.dsl.diagnostics import Diagnostic, read_yaml_file
from meeple.dsl.eval_errors import EvalError
from meeple.dsl.source import Span

from ..runtime.context import Ctx, RuleError
from ..runtime.loading import load_rules
from ..runtime.game import Game
from ..runtime.moves import IllegalMove, move_text

SCENARIO_KEYS = {"name", "rule", "players", "seed", "options", "given", "moves", "expect", "description"}


@dataclass
class Scenario:
    name: str
    file: str
    span: Span
    ruleset: str
    data: dict
    rule: str | None = None


@dataclass
class ScenarioResult:
    scenario: Scenario
    failures: list = field(default_factory=list)  # Diagnostics

    @property
    def passed(self) -> bool:
        return not self.failures


class ScenarioFileError(Exception):
    def __init__(self, diagnostics):
        self.diagnostics = diagnostics
        super().__init__("\n".join(d.render() for d in diagnostics))


def load_scenarios(path: str | Path) -> list[Scenario]:
    path = Path(path)
    name = str(path)
    doc, problem = read_yaml_file(path)
    if problem:
        raise ScenarioFileError([problem])
    r = Reader(name)
    if r.mapping(doc, "a scenario file", {"ruleset", "scenarios"}, required={"scenarios"}) is None:
        raise ScenarioFileError(r.diagnostics)
    ruleset = doc.get("ruleset")
    if ruleset is None:
        if path.parent.name == "scenarios":
            ruleset = str(path.parent.parent)
        else:
            r.error("S102", "a scenario file outside rulesets/<name>/scenarios/ needs 'ruleset'", doc.span)
    elif (path.parent / str(ruleset)).exists():
        ruleset = str(path.parent / str(ruleset))
    out = []
    for entry in r.sequence(doc.get("scenarios"), "scenarios"):
        if r.mapping(entry, "a scenario", SCENARIO_KEYS, required={"name", "players"}) is None:
            continue
        out.append(Scenario(str(entry.get("name")), name, entry.span, str(ruleset), entry,
                            r.string(entry.get("rule"), "rule")))
    if r.diagnostics:
        raise ScenarioFileError(r.diagnostics)
    return out


def _fail(result, code, message, span, rule=None):
    result.failures.append(Diagnostic(code, message, span, rule=rule or result.scenario.rule))


def run_scenario(sc: Scenario) -> ScenarioResult:
    result = ScenarioResult(sc)
    d = sc.data
    r = Reader(sc.file)
    try:
        rules = load_rules(sc.ruleset)
    except Exception as exc:  # the ruleset's own diagnostics are the useful report here
        _fail(result, "C901", f"the ruleset '{sc.ruleset}' does not load: {exc}", sc.span)
        return result
    try:
        game = Game(rules, int(d.get("players")), {str(k): v for k, v in (d.get("options") or {}).items()})
    except ValueError as exc:
        _fail(result, "C902", str(exc), sc.span)
        return result
    try:
        state = game.new_state(int(d.get("seed", 0)))
        # The `given` effects are read like a ruleset's: the shape pass first, then the builder.
        if "given" in d:
            check_value(r, d["given"], ListOf(Ref(name="effect")), sc.span, "given")
        r.shape_checked = True
        given = build_effects(r, d.get("given"), "given")
        if r.diagnostics:
            result.failures += r.diagnostics
            return result
        if given:
            state = state.copy()
            run = rules.effects.block(given, rules.scope.bind({"player": None}))
            ctx = Ctx(game, state)
            acting = game.current_players(state)
            ctx.bindings["player"] = acting[0] if acting else None  # `player`: the first to move
            run(ctx)
            game._check_end(ctx)
            game._advance(state)
        _check_invariants(result, game, state, sc.span, "after setup and 'given'")
        for entry, span in zip(r.sequence(d.get("moves"), "moves"), getattr(d.get("moves"), "item_spans", [])):
            state = _play(result, game, state, entry, span, r)
            if state is None:
                return result
            _check_invariants(result, game, state, span, "after this move")
        for entry, span in zip(r.sequence(d.get("expect"), "expect"), getattr(d.get("expect"), "item_spans", [])):
            _expect(result, game, state, entry, span, r)
    except RuleError as exc:
        _fail(result, exc.code, f"the ruleset failed at run time: {exc.message}", exc.span or sc.span, exc.rule)
    except EvalError as exc:
        _fail(result, exc.code, exc.message, exc.span or sc.span)
    result.failures += [x for x in r.diagnostics if x not in result.failures]
    return result


def _check_invariants(result, game, state, span, when):
    for failure in game.invariant_failures(state):
        _fail(result, "I901", f"invariant broken {when}: {failure.reason}", span, failure.rule)


def _play(result, game, state, entry, span, r):
    if isinstance(entry, str):
        entry = {"move": entry}
    if not isinstance(entry, dict) or "move" not in entry:
        _fail(result, "S103", "a move is a text or {move: ..., player: ..., illegal: CODE}", span)
        return None
    text, player, illegal = str(entry["move"]), entry.get("player"), entry.get("illegal")
    try:
        new = game.apply(state, text, player)
    except IllegalMove as exc:
        if illegal is None:
            _fail(result, "C903", f"move '{text}' was rejected: {exc.rejection.reason} "
                  f"[{exc.rejection.code}]", span, exc.rejection.rule)
            return None
        if illegal is not True and str(illegal) != exc.rejection.code:
            _fail(result, "C904", f"move '{text}' was rejected with {exc.rejection.code} "
                  f"({exc.rejection.reason}), expected {illegal}", span)
        return state
    if illegal is not None:
        _fail(result, "C905", f"move '{text}' was accepted, but it should be illegal ({illegal})", span)
        return None
    if "narrates" in entry:
        _narrates(result, game, state, text, entry, span)
    return new


def _narrates(result, game, state, text, entry, span):
    """Each sentence listed must be one `seat` (default: the mover) reads of the move, in
    `lang` (default English): the narrated log of a resolution, checked like a state."""
    move = game.parse_move(state, text, entry.get("player"), referee=True)
    seat = entry.get("seat", move.player)
    said = game.narrate(state, move, int(seat), entry.get("lang"))
    wanted = entry["narrates"] if isinstance(entry["narrates"], list) else [entry["narrates"]]
    for sentence in wanted:
        if str(sentence) not in said:
            _fail(result, "C911", f"'{text}' does not narrate '{sentence}' to player {seat}; it narrates "
                  f"{said}", span)


# Each kind of expectation written as a mapping (named by its first key met, in this
# order) and the keys it may hold: any other key would be an assertion nobody checks
# (`{over: true, scores: [3, 6]}` once passed whatever the scores were), so it is S101.
EXPECTATION_KEYS = {"illegal": {"illegal", "player", "code", "reason"}, "legal": {"legal", "player"},
                    "outcome": {"outcome"}, "over": {"over"}, "to_move": {"to_move"}, "moves": {"moves"}}


def _unknown_keys(result, entry: dict, what: str, allowed: set, span) -> list:
    """S101 at each key of `entry` outside `allowed` (the reader's own check is the shape
    pass's, which scenario expectations, read after it, do not go through)."""
    unknown = [k for k in entry if k not in allowed]
    for key in unknown:
        _fail(result, "S101", f"unknown key '{key}' in {what}; expected one of: {', '.join(sorted(allowed))}",
              entry.key_spans.get(key, span) if hasattr(entry, "key_spans") else span)
    return unknown


def _expect(result, game, state, entry, span, r):
    if isinstance(entry, dict):
        kind = next((k for k in EXPECTATION_KEYS if k in entry), None)
        allowed = EXPECTATION_KEYS[kind] if kind else set().union(*EXPECTATION_KEYS.values())
        unknown = _unknown_keys(result, entry, f"a '{kind}' expectation" if kind else "an expectation", allowed, span)
        if kind == "outcome" and isinstance(entry["outcome"], dict):
            unknown += _unknown_keys(result, entry["outcome"], "an outcome", {"winners", "scores", "ranks", "reason"},
                                     span)
        if unknown or kind is None:
            return
    if isinstance(entry, dict) and ("illegal" in entry or "legal" in entry):
        text = str(entry.get("illegal", entry.get("legal")))
        player = entry.get("player")
        try:
            game.parse_move(state, text, player, referee=True)  # a scenario is the referee
            if "illegal" in entry:
                _fail(result, "C905", f"'{text}' is legal, but it should not be", span)
        except IllegalMove as exc:
            if "legal" in entry:
                _fail(result, "C903", f"'{text}' should be legal: {exc.rejection}", span)
            elif entry.get("code") and str(entry["code"]) != exc.rejection.code:
                _fail(result, "C904", f"'{text}' is illegal with {exc.rejection.code} "
                      f"({exc.rejection.reason}), expected {entry['code']}", span)
            elif entry.get("reason") and str(entry["reason"]) not in exc.rejection.reason:
                _fail(result, "C904", f"'{text}' is illegal because '{exc.rejection.reason}', "
                      f"expected a reason containing '{entry['reason']}'", span)
        return
    if isinstance(entry, dict) and "outcome" in entry:
        out = game.outcome(state)
        if out is None:
            _fail(result, "C906", "the game is not over, so it has no outcome", span)
            return
        want = entry["outcome"] or {}
        for key in ("winners", "scores", "ranks"):
            if key in want and list(getattr(out, key)) != list(want[key]):
                _fail(result, "C906", f"{key} are {list(getattr(out, key))}, expected {list(want[key])}", span)
        if "reason" in want and out.reason != str(want["reason"]):
            _fail(result, "C906", f"the game ended because '{out.reason}', expected '{want['reason']}'", span)
        return
    if isinstance(entry, dict) and "over" in entry:
        if state.over != bool(entry["over"]):
            _fail(result, "C907", f"the game is {'over' if state.over else 'not over'}", span)
        return
    if isinstance(entry, dict) and "to_move" in entry:
        got = list(game.current_players(state))
        if got != list(entry["to_move"]):
            _fail(result, "C908", f"players to move are {got}, expected {list(entry['to_move'])}", span)
        return
    if isinstance(entry, dict) and "moves" in entry:
        got = [str(m) for m in game.legal_moves(state)]
        by_id = [move_text(m) for m in game.legal_moves(state)]  # the referee may list hidden items by id
        if [str(x) for x in entry["moves"]] not in (got, by_id):
            _fail(result, "C909", f"legal moves are {got}, expected {list(entry['moves'])}", span)
        return
    expr = r.expr(entry, "an expectation", span)
    if expr is None:
        return
    from meeple.dsl.compile_expr import compile_expr
    from meeple.dsl.typecheck import infer_type
    _, diags = infer_type(expr, game.rules.scope)
    if any(x.severity == "error" for x in diags):
        result.failures += diags
        return
    value = compile_expr(expr, game.rules.scope)(Ctx(game, state))
    if value is not True:
        _fail(result, "C910", f"expected true, got {value!r}", expr.span)
