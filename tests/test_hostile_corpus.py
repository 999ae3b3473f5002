"""The hostile-input corpus (tests/hostile/, from the issue-13 probes): every file ends
in located diagnostics (exit 2), or, where it is a valid ruleset, validates and plays
cleanly, within the wall-clock and memory budget, and never with a traceback."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from hostile_support import MEMORY_LIMIT, run_meeple

CORPUS = Path(__file__).parent / "hostile"

# file -> (command, code, line): `validate` must fail with that diagnostic; `demo` means the
# file is a valid ruleset (validate exits 0) and the game must fail with that runtime
# error, or, with no code, play to its end.
EXPECTED = {
    "r01_bad_utf8.yaml": ("validate", "Y004", 6),
    "r02_nul_char.yaml": ("validate", "Y005", 6),
    "r03_custom_tag.yaml": ("validate", "Y009", 1),
    "r04_merge_key.yaml": ("validate", "S101", 1),   # the merge works; 'base' is no section
    "r05_recursive_alias.yaml": ("validate", "Y007", 1),
    "r06_yaml_nesting_800.yaml": ("validate", "Y006", 2),
    "r07_cyclic_define.yaml": ("validate", "N308", 7),
    "r08_keyed_var_missing_board.yaml": ("validate", "N307", 4),
    "r09_deal_count_text.yaml": ("validate", "T403", 4),
    "r10_deep_type.yaml": ("validate", "T405", 2),
    "r11_lines_huge.yaml": ("demo", None, None),      # no line that long exists: []
    "r12_in_uncharged.yaml": ("validate", "R702", 3),
    "r13_define_exponential.yaml": ("validate", "R702", 2),
    "r14_deal_forever.yaml": ("demo", None, None),    # a deal to nobody deals nothing
    "r15_grid_huge.yaml": ("validate", "S112", 2),
    "r16_players_huge.yaml": ("validate", "S111", 1),
    "r17_deep_runtime_value.yaml": ("demo", "R702", 4),
    "r18_players_null.yaml": ("validate", "S103", 1),
    "r19_move_unknown_key.yaml": ("validate", "S101", 6),
    "r20_line100.yaml": ("validate", "S101", 100),
    "r21_no_move_ever.yaml": ("validate", "R709", 3),
    # Names holding Python text (issue 40): refused where they are written, before any code is made.
    "r22_param_name_code.yaml": ("validate", "N310", 11),
    "r23_action_name_code.yaml": ("validate", "N310", 4),
    "r24_let_name_code.yaml": ("validate", "N310", 8),
    "r25_for_name_code.yaml": ("validate", "N310", 8),
    "r26_phase_name_code.yaml": ("validate", "N310", 6),
    "r28_name_bare_newline.yaml": ("validate", "N310", 4),
    "r29_compiled_define_exponential.yaml": ("play", "R702", 4),  # on both back ends (PLAY)
    "r30_compiled_sort_key.yaml": ("play", "R702", 5),
    "r31_compiled_log_loop.yaml": ("play", "R702", 11),
}
# `play` means: the game, played by bots, must fail with that runtime error on each back end.
# `validate` compiles and sets up the game as `play` does (the default back end): it stops at the same place.
PLAY = [("validate", "{path}"), *(("play", "{path}", "--bots", "0,1", "--seed", "1", "--backend", backend)
                                  for backend in ("compiled", "reference"))]


def test_every_corpus_file_has_an_expectation():
    assert sorted(p.name for p in CORPUS.glob("r*.yaml")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_hostile_file_fails_cleanly(name):
    command, code, line = EXPECTED[name]
    path = str(CORPUS / name)
    if command == "demo":
        ok = run_meeple("validate", path)
        assert ok.code == 0, ok.stderr
    if command == "play":
        for args in PLAY:
            _fails_cleanly(name, run_meeple(*(a.format(path=path) for a in args)), " ".join(args), code, line)
        return
    _fails_cleanly(name, run_meeple(command, path), command, code, line)


def _fails_cleanly(name, out, command, code, line):
    assert out.code is not None, f"{command} {name} did not finish in time ({out.seconds:.1f} s)"
    assert not out.traceback, out.stderr
    assert out.max_rss < MEMORY_LIMIT, f"{out.max_rss / 2**20:.0f} MiB"
    if code is None:
        assert out.code == 0, out.stdout + out.stderr
        return
    assert out.code == 2, out.stdout + out.stderr
    located = re.findall(rf"^(\S+):(\d+):(\d+): error\[{code}\]", out.stderr, re.M)
    assert located, out.stderr
    assert [(Path(f).name, int(n)) for f, n, _ in located][0] == (name, line)
    assert "💯" not in out.stderr
