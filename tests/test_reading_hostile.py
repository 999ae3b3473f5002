"""Reading a ruleset's files: encodings, control characters, YAML features and the
reading limits.  Each problem is one diagnostic with its code and exact position;
nothing is built before the limits are checked, so hostile files cost little."""
from __future__ import annotations

import pytest

from meeple.dsl.diagnostics import Diagnostic
from meeple.dsl.load import load_ruleset, read_ruleset
from meeple.dsl.source import MAX_FILE_BYTES, MAX_RULESET_FILES, MAX_YAML_DEPTH, MAX_YAML_VALUES

GAME = ('game: {name: r, players: 2}\nvariables: {n: {type: int, initial: 0}}\n'
        'flow: [{loop: [{turns: "players()", do: [{choose: [go]}]}]}]\n'
        'actions: {go: {effects: ["n += 1"]}}\nend: [{when: "n >= 3"}]\n')


def _read(tmp_path, data: bytes | str):
    f = tmp_path / "g.yaml"
    f.write_bytes(data.encode() if isinstance(data, str) else data)
    rs, diags = read_ruleset(f)
    return rs, [(d.code, d.span.line, d.span.col) for d in diags if d.severity == "error"]


@pytest.mark.parametrize("data,expected", [
    # encodings and characters
    (GAME.encode() + b"# caf\xe9\n", ("Y004", 6, 6)),
    (GAME.encode("utf-16"), ("Y004", 1, 1)),
    (GAME + "# \x00\n", ("Y005", 6, 3)),
    (GAME + "x-note: \x1b[31m\n", ("Y005", 6, 9)),
    # YAML features a ruleset does not use
    (GAME.replace("name: r", "name: !foo r"), ("Y009", 1, 14)),
    (GAME.replace("name: r", "name: !!python/object/apply:os.system [ls]"), ("Y009", 1, 14)),
    (GAME.replace("name: r", "name: !!binary aGk="), ("Y009", 1, 14)),
    ("game: &a {name: r, players: 2, self: *a}\n", ("Y007", 1, 38)),
    ("game: {<<: [1], name: r, players: 2}\n", ("Y010", 1, 13)),
    (GAME.replace("initial: 0", "initial: 1" + "0" * 30), ("Y011", 2, 37)),
    (GAME.replace("initial: 0", "initial: 1" + "0" * 5000), ("Y011", 2, 37)),
    # limits
    ("game: " + "[" * 100 + "]" * 100 + "\n", ("Y006", 1, 7 + MAX_YAML_DEPTH - 1)),
    ("flow: " + "[" * 900 + "]" * 900 + "\n", ("Y006", 1, 7 + MAX_YAML_DEPTH - 1)),
])
def test_bad_files_are_one_located_diagnostic(tmp_path, data, expected):
    rs, found = _read(tmp_path, data)
    assert rs is None or found
    assert found[0] == expected, found


def test_an_alias_bomb_is_refused_before_it_is_expanded(tmp_path):
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 10):  # 10**9 values once expanded, 10 lines on disk
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    rs, found = _read(tmp_path, "x-bomb:\n" + "\n".join("  " + line for line in lines) + "\n" + GAME)
    assert rs is None or found
    code, line, _ = found[0]
    assert code == "Y008" and line <= 7  # stopped where the count first passed the limit


def test_a_file_over_the_size_limit_is_refused_unread(tmp_path):
    rs, found = _read(tmp_path, GAME + "#" * MAX_FILE_BYTES + "\n")
    assert found == [("Y012", 1, 1)]


def test_a_folder_with_too_many_files_is_refused(tmp_path):
    for i in range(MAX_RULESET_FILES + 1):
        (tmp_path / f"part{i:03}.yaml").write_text("" if i else GAME)
    rs, diags = read_ruleset(tmp_path)
    assert rs is None and [d.code for d in diags] == ["Y012"]


def test_a_large_but_legal_file_reads(tmp_path):
    items = ", ".join(f"{{id: c{i}}}" for i in range(MAX_YAML_VALUES // 4))
    rs, found = _read(tmp_path, GAME + f"components: {{card: {{items: [{items}]}}}}\n")
    assert found == [] and len(rs.components["card"].items) == MAX_YAML_VALUES // 4


def test_a_utf8_byte_order_mark_is_accepted(tmp_path):
    rs, found = _read(tmp_path, b"\xef\xbb\xbf" + GAME.encode())
    assert found == [] and rs.game.name == "r"


def test_merge_keys_fill_in_what_the_mapping_does_not_set(tmp_path):
    text = GAME + (
        "x-card: &card {fields: {cost: int, colour: str}}\n"
        "x-red: &red {colour: red, cost: 9}\n"
        "x-blue: &blue {colour: blue, cost: 8}\n"
        "components:\n"
        "  spell: {<<: *card, items: [{id: fire, <<: [*red, *blue], cost: 3}]}\n")
    rs, found = _read(tmp_path, text)
    assert found == []
    item = rs.components["spell"].items[0]
    assert rs.components["spell"].fields.keys() == {"cost", "colour"}
    assert (item["cost"], item["colour"]) == (3, "red")  # its own key wins; then the first merged


def test_sections_starting_with_x_are_ignored(tmp_path):
    rs = load_ruleset(_write(tmp_path, GAME + "x-anything: {whatever: [1, 2]}\n"))
    assert rs.game.name == "r"


def test_a_date_is_read_as_the_text_written(tmp_path):
    rs, found = _read(tmp_path, GAME.replace("name: r,", "name: r, title: 2024-05-01,"))
    assert found == [] and rs.game.title == "2024-05-01"


def test_a_long_line_is_quoted_around_the_caret():
    d = Diagnostic("Y006", "deep", _span("g.yaml", 1, 500))
    head, quoted, caret = d.render(["[" * 1000]).split("\n")
    assert len(quoted) < 120 and caret.index("^") == quoted.index("|") + 2 + 51


def _span(file, line, col):
    from meeple.dsl.source import Span
    return Span(file, line, col, line, col + 1)


def _write(tmp_path, text):
    f = tmp_path / "g.yaml"
    f.write_text(text)
    return f


@pytest.mark.parametrize("text", ["# only a comment\n", "", "---\n", "x-templates: {a: 1}\n"])
def test_a_file_with_no_game_section_says_so(tmp_path, text):
    rs, found = _read(tmp_path, text)
    assert rs is None and found == [("S102", 1, 1)]
