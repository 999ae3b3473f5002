"""The grid's geometry in the fused tier (issue 43): `directions` of a named set, `ray`,
`row_of` and `col_of` are functions of the board and their arguments, kept per call site
and arguments like the other board functions, so a ruleset that walks a grid's lines
plays its random playouts in the fastest tier, the same playouts as the loop's."""
from __future__ import annotations

from flow_idiom_support import check_both_playout_tiers, check_lockstep

# Two runners slide along a 5x5 grid's rows and columns, up to the first burnt or taken
# cell; the cell left behind burns.
GRID_RACE = """game: {name: grid-race, players: 2}
boards:
  field:
    grid: {rows: 5, cols: 5}
variables:
  at: {per: player, type: str, initial: "'a1' if player == 0 else 'e5'"}
  burnt: {type: "list[str]", initial: "[]"}
  moves: {type: int, initial: 0}
define:
  free: {params: [c], expr: "c not in burnt and c != at[0] and c != at[1]"}
  targets: {params: [p], expr: "[c for d in directions('orthogonal') for c in take_while(ray('field', at[p], d), x => free(x))]"}
  progress: {params: [p], expr: "(row_of('field', at[0]) if p == 0 else 4 - row_of('field', at[1])) * 10 + col_of('field', at[p])"}
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [slide, wait]
actions:
  slide:
    params: {to: "targets(player)"}
    effects: ["burnt = burnt + [at[player]]", "at[player] = to", "moves += 1"]
  wait:
    effects: ["moves += 1"]
end:
  - when: "row_of('field', at[0]) == 4 or row_of('field', at[1]) == 0 or moves >= 40"
scoring:
  score: "progress(player)"
"""


def test_a_grid_walking_ruleset_plays_in_the_fused_tier_as_the_loop_plays(tmp_path, monkeypatch):
    check_both_playout_tiers(tmp_path, monkeypatch, GRID_RACE, "grid-race", 2)


def test_both_back_ends_agree_at_every_step(tmp_path):
    check_lockstep(tmp_path, GRID_RACE, "grid-race", 2, seed=5)


def test_the_knights_moves_play_in_the_fused_tier_as_the_loop_plays(tmp_path, monkeypatch):
    """`directions('knight')` (pairs of ints) is a constant list of lists in the tier."""
    text = GRID_RACE.replace("directions('orthogonal')", "[d for d in directions('orthogonal') if len(directions('knight')) > 0]")
    check_both_playout_tiers(tmp_path, monkeypatch, text, "grid-knight", 2)

# Chess keeps what threatens a king in variables of lists: lines of squares, and for each
# pinned piece the squares it may still go to.  The tier holds them whole (a tuple of
# tuples, a dict of tuples), replaced on every write.
TRAILS = """game: {name: trails, players: 2}
boards:
  field:
    grid: {rows: 4, cols: 4}
variables:
  at: {per: player, type: str, initial: "'a1' if player == 0 else 'd4'"}
  trails: {type: "list[list[str]]", initial: "[]"}
  reach: {type: "map[str, list[str]]", initial: "{}"}
  moves: {type: int, initial: 0}
define:
  steps: {params: [p], expr: "[c for d in directions('orthogonal') for c in ray('field', at[p], d)[:1] if c != at[1 - p]]"}
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [go, wait]
actions:
  wait:
    effects: ["moves += 1"]
  go:
    params: {to: "steps(player)"}
    require:
      - {check: "len([t for t in trails if to in t]) < 3", reason: "a square is crossed at most three times"}
    effects:
      - "trails = trails + [[at[player], to]]"
      - "reach = {k: v for k, v in items(reach)}"
      - "reach[to] = [t[0] for t in trails if t[1] == to]"
      - "at[player] = to"
      - "moves += 1"
end:
  - when: "moves >= 30"
scoring:
  score: "len(get(reach, at[player], []))"
"""


def test_lists_of_lists_and_maps_of_lists_play_in_the_fused_tier_as_the_loop_plays(tmp_path, monkeypatch):
    check_both_playout_tiers(tmp_path, monkeypatch, TRAILS, "trails", 2)
