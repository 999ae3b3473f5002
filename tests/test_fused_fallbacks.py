"""Three constructs issue 47 found keeping rulesets out of the fused tier (issue 43):
`has_edge` in a parameter's filter, an `end_game` effect, and a `then` step reading a
parameter whose choices read an earlier one.  Each is now inside the tier, playing the
same playouts as the loop; an effect still outside it is named at its place."""
from __future__ import annotations

import random

from flow_idiom_support import check_both_playout_tiers, check_lockstep, game_of

# Runners step along a four-node track, from a node they name to one next to it; one who
# reaches the end late ends the game at once (an effect), else an end rule does.
LATE_ARRIVAL = """game:
  name: three-fallbacks
  players: 2
boards:
  track:
    nodes: [a, b, c, d]
    edges: [[a, b], [b, c], [c, d]]
variables:
  at: {per: player, type: str, initial: "'a'"}
  moves_left: {type: int, initial: "9"}
  last: {type: str, initial: "''"}
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [go]
    while: "moves_left > 0"
actions:
  go:
    params:
      src: "['a', 'b', 'c']"
      dst: "[n for n in nodes('track') if has_edge('track', src, n)]"
    effects:
      - set: "moves_left -= 1"
      - set: "at[player] = dst"
      - if: "dst == 'd' and moves_left < 4"
        then:
          - end_game: "someone reached the end late"
    then:
      - effects:
          - set: "last = dst"
end:
  - when: "moves_left == 2"
    reason: "two moves left"
scoring:
  score: "1 if at[player] == 'd' else 0"
"""


def test_the_three_constructs_play_in_the_fused_tier_as_the_loop_plays(tmp_path, monkeypatch):
    check_both_playout_tiers(tmp_path, monkeypatch, LATE_ARRIVAL, "late-arrival", 2)


def test_both_back_ends_agree_at_every_step(tmp_path):
    check_lockstep(tmp_path, LATE_ARRIVAL, "late-arrival", 2, seed=3)


def test_the_effect_and_the_end_rule_each_end_some_games_with_their_own_reason(tmp_path):
    games = [game_of(tmp_path, LATE_ARRIVAL, backend, "late-arrival", 2) for backend in ("compiled", "reference")]
    reasons = set()
    for seed in range(60):
        ends = [g.playout(g.new_state(seed), rng=random.Random(seed)) for g in games]
        assert ends[0].to_data() == ends[1].to_data(), f"seed {seed}"
        reasons.add(ends[0].end_reason)
    assert reasons == {"someone reached the end late", "two moves left"}
    assert games[0].kernel_fallbacks == 0


def test_an_action_with_end_game_tried_for_then_required_is_named_at_its_place(tmp_path):
    from meeple.interpreter.codegen.fused import located_reasons
    text = LATE_ARRIVAL.replace("    then:\n      - effects:", "    then_required: true\n    then:\n      - choose: [rest]\n      - effects:")
    text = text.replace("end:\n", "  rest:\n    effects:\n      - set: \"last = 'r'\"\nend:\n")
    found = located_reasons(game_of(tmp_path, text, "compiled", "late-required", 2).rules)
    # Tried and undone, the action stays outside the tier, and what keeps it out is named at its place.
    assert found and all(span is not None and span.line for _, span in found)
