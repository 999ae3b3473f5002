"""What a player may type at the `meeple play` prompt besides a move (cli/prompt_commands.py):
help, the rule behind an action, why a move is refused, and the log as they may know it."""
from __future__ import annotations

import re

from typer.testing import CliRunner

from meeple.cli.main import app

HIGH_CARD = "examples/high-card"


def _play(*answers, lang=None, extra=()):
    args = ["play", HIGH_CARD, "--bots", "1", "--seed", "3", "--option", "hand_size=2", *extra]
    if lang:
        args += ["--lang", lang]
    result = CliRunner().invoke(app, args, input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return result.output


def test_help_lists_the_commands_and_then_the_moves():
    out = _play("help", "q")
    assert "rules ACTION" in out and "why MOVE" in out and "log" in out
    after_help = out.split("why MOVE", 1)[1]
    assert "1  play(card=B3)" in after_help  # the moves again
    assert "illegal" not in out  # `help` is not read as a move


def test_rules_gives_the_rule_and_its_reasons_and_a_near_name_is_suggested():
    out = _play("rules play", "rules pley", "q")
    assert re.search(r"rule follow: ", out)
    assert "you must follow the lead colour while you can" in out
    assert "no action is called pley; did you mean play?" in out


def test_why_explains_a_refused_move_without_naming_hidden_cards():
    out = _play("why play(card=R9)", "why play(card=B3)", "q")
    assert "card=R9 is not possible" in out and "(rule follow)" in out
    assert "that move is legal now" in out


def test_the_log_names_hidden_cards_by_their_place():
    out = _play("log", "2", "log", "q", extra=["--no-auto"])  # the second decision has one move
    assert "no moves yet" in out
    assert "1. player 0: play(card=R5)" in out
    # The bot's card was in its hand, unseen, when it was played: named by its place.
    assert re.search(r"2\. player 1: play\(card=hand\[1\]#[01]\)", out)


def test_the_commands_speak_hungarian():
    out = _play("help", "q", lang="hu")
    assert "az eddigi lépések, ahogy ismerheted őket" in out


def test_each_move_describes_the_cards_it_names():
    out = _play("q")
    assert "1  play(card=B3)  — B3: rank 3" in out and "2  play(card=R5)  — R5: rank 5" in out


def test_list_shows_each_shipped_game_with_its_title_players_and_rules():
    result = CliRunner().invoke(app, ["list"])
    assert result.exit_code == 0, result.output
    rows = {line.split()[0]: line for line in result.output.splitlines()[1:] if line.strip()}
    assert re.search(r"valdora +Valdora +3-5 +rulebook: Valdora \(Hungarian rules\), Abacusspiele 2009", rows["valdora"])
    assert re.search(r"nim +Nim +2 +example: Nim \(normal play convention\)", rows["nim"])
    assert {"tic-tac-toe", "treasure-hunter", "zavandor", "freyas-folly"} <= set(rows)


def test_list_tells_a_rulebook_transcription_from_a_library_game_and_an_example():
    """A rulebook with an author is a published one the ruleset transcribes; one that names
    an OpenSpiel game is a library game checked against it; the rest are examples of the
    language (traditional games).  Each group is listed apart, under its heading."""
    result = CliRunner().invoke(app, ["list"])
    sources = {line.split()[0]: line for line in result.output.splitlines()[1:] if line.strip()}
    assert result.output.splitlines()[0].split() == ["name", "title", "players", "source"]
    for name in ("valdora", "zavandor", "treasure-hunter", "freyas-folly"):
        assert "rulebook: " in sources[name], sources[name]
    for name in ("go", "tic-tac-toe", "blackjack", "2048"):
        assert "library: OpenSpiel's " in sources[name], sources[name]
    for name in ("connect-four", "nim", "goofspiel"):
        assert "example: " in sources[name], sources[name]
    lines = result.output.splitlines()
    heads = [lines.index(h) for h in ("Rulebook transcriptions:", "Classic games, checked against OpenSpiel:",
                                      "Small examples:")]
    assert heads == sorted(heads)
    assert heads[1] < lines.index(sources["go"]) < heads[2] < lines.index(sources["nim"])


def test_a_yes_or_no_choice_reads_yes_or_no_in_the_players_language(tmp_path):
    """The typed text stays `bet(double=false)`; the sentence says `no`, or `nem` in Hungarian."""
    path = tmp_path / "coin.yaml"
    path.write_text("""
game: {name: coin, players: 2, labels: {hu: {bet: Tét, double: dupla}}}
variables:
  pot: {initial: 0}
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [bet]
actions:
  bet:
    params: {double: "[false, true]"}
    effects:
      - set: ["pot += 2 if double else 1"]
end:
  - when: "pot >= 5"
""", encoding="utf-8")
    out = CliRunner().invoke(app, ["play", str(path), "--bots", "1", "--lang", "hu"], input="q\n").output
    assert "Tét: dupla=nem  (bet(double=false))" in out and "Tét: dupla=igen  (bet(double=true))" in out
