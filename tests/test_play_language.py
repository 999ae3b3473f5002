"""`--lang hu` speaks Hungarian everywhere a player looks: the table (also from Python,
`Game.render(state, p, "hu")`, with no CLI), the prompt's commands, refusals (the
ruleset's reasons and the interpreter's own), save and undo messages and the end screen;
and a mistyped move gets "did you mean" with the nearest legal move."""
from __future__ import annotations

import random
import re

from typer.testing import CliRunner

from meeple.cli.main import app
from meeple.cli.phrases import PHRASES
from meeple.interpreter import load_game
from meeple.interpreter.presentation.phrases import TABLE_WORDS


def _english(tables) -> dict:
    """Each English phrase whose Hungarian differs, as a pattern that finds it in text."""
    out = {}
    for english, hungarian in tables["hu"].items():
        if english == hungarian:
            continue
        parts = re.split(r"\{\w+\}", english)
        body = ".+?".join(re.escape(p) for p in parts)
        out[english] = re.compile(rf"(?<![\w']){body}(?![\w'])")
    return out


def _left_in_english(text: str, tables) -> list[str]:
    return [english for english, pattern in _english(tables).items() if pattern.search(text)]


def _play(*answers, game="treasure-hunter", lang="hu", extra=()):
    args = ["play", game, "--bots", "1", "--seed", "3", *extra] + (["--lang", lang] if lang else [])
    result = CliRunner().invoke(app, args, input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return result.output


def test_render_in_hungarian_needs_no_cli():
    """Before: `Game.render(..., 'hu')` kept "empty", "hidden" and "your area" in English."""
    game = load_game("treasure-hunter", 2)
    state, rnd = game.new_state(3), random.Random(3)
    for step in range(60):
        for p in range(game.player_count):
            text = game.render(state, p, "hu")
            assert not _left_in_english(text, TABLE_WORDS), (step, _left_in_english(text, TABLE_WORDS))
        moves = game.legal_moves(state)
        state = game.apply(state, moves[rnd.randrange(len(moves))])
    assert "a te területed (0. játékos)" in game.render(state, 0, "hu")
    assert re.search(r"\d+ rejtett", game.render(state, 0, "hu"))


def test_a_scripted_session_in_hungarian_leaves_no_english_phrase(tmp_path):
    save, log = tmp_path / "game.json", tmp_path / "game.log"
    answers = ["help", "kep(card=R7)", "keep(crd=R7)", "keep(card=ZZ)", "blah(", "why keep(card=ZZ)",
               "rules kep", "log", "u", f"s {save}", f"s {tmp_path}/missing/dir.json", "1", "u", "log",
               *["1"] * 400]
    out = _play(*answers, extra=["--option", "cards=3", "--log", str(log)])
    assert "vége a játéknak" in out and "a visszajátszási napló elkészült" in out  # played to the end
    assert "mentve ide:" in out and "nincs mentve:" in out
    assert "szabálytalan: nincs 'kep' nevű akció" in out
    left = _left_in_english(out, PHRASES) + _left_in_english(out, TABLE_WORDS)
    assert not left, left


def test_a_refusal_by_the_rules_speaks_the_rulesets_language():
    """A requirement's reason comes from the ruleset's labels; an interpreter refusal
    (a value that is not among the choices) from the CLI's phrases."""
    out = _play("place(at=z9)", "q", game="tic-tac-toe")
    assert "szabálytalan: at=z9 nem lehetséges; választható: a1" in out


def test_a_mistyped_action_gets_the_nearest_legal_move():
    out = _play("plce(at=a1)", "q", game="tic-tac-toe", lang=None)
    assert "there is no action 'plce'; possible now: place; did you mean place(at=a1)?" in out


def test_a_mistyped_parameter_gets_the_nearest_legal_move_in_the_chosen_language():
    out = _play("place(a=b2)", "q", game="tic-tac-toe")
    assert "'place' akciónak nincs 'a' paramétere; paraméterei: at; erre gondoltál: place(at=b2)?" in out


def test_a_name_alone_gets_the_nearest_action_and_a_rule_refusal_gets_no_guess():
    out = _play("plac", "place(at=z9)", "q", game="tic-tac-toe", lang=None)
    assert "there is no action 'plac'; possible now: place; did you mean place?" in out
    refused = [line for line in out.splitlines() if "at=z9 is not possible" in line]
    assert refused and "did you mean" not in refused[0]  # a real value refused, not a typo


def test_the_game_ending_by_its_flow_is_said_in_hungarian():
    out = _play(*["1"] * 400, extra=["--option", "cards=3"])
    assert "ok: a játékmenet véget ért" in out


def test_the_interpreters_refusals_carry_their_template_and_values():
    """A front end says a refusal in its own language from the template and the values,
    never by reading the English sentence back."""
    from meeple.interpreter import load_game
    game = load_game("tic-tac-toe")
    state = game.new_state(0)
    r = game.explain(state, "plce(at=a1)", 0)
    assert (r.code, r.template, dict(r.values)) == ("M801", "there is no action '{name}'; possible now: {known}",
                                                    {"name": "plce", "known": "place"})
    assert r.reason == r.template.format(**dict(r.values))
    taken = game.apply(state, "place(at=a1)")
    assert game.explain(taken, "place(at=a1)", 1).template is None  # the ruleset's own reason: its labels say it
