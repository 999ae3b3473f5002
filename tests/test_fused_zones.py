"""The fused playout tier on zones, items, chance and board walks (the rest of its tests are
in test_fused.py): each plays as the move-by-move loop plays it with the same draws."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from meeple.interpreter import load_game
from meeple.interpreter.codegen.fused import unsupported

from fused_cases import INSIDE, fused_matches_the_loop, loop_policy
from ruleset_support import write_ruleset


# Every zone feature the tier writes: a chance draw from a zone, moves by item, by count
# (none when the count is not positive), of the front item alone (none from an empty
# place), to the top and the bottom, with and without a face; flips with and without a face; `let` holding a zone's contents while the zone
# changes; `for` over a zone that its body empties; zones kept per key; fields read from
# items; a value per player written with a bound; a `times` loop and a `for` loop in the
# flow; a decision that may be passed.  (Treasure Hunter, inside the tier too, brings
# respond windows, deals, passed hands, shuffles, moves without `from`, item properties,
# maps and options.)
MARKET = """
game: {name: market, players: {min: 2, max: 3}}
components:
  coin:
    fields: {worth: int, metal: str}
    generate: {worth: {from: 1, to: 9}, metal: [gold, tin]}
    id: "{metal}{worth}"
zones:
  stall: {kind: row, visibility: all, face: up,
          initial: "[c for c in items('coin') if c.worth <= 6]"}
  purse: {per: player, kind: hand, visibility: owner, face: down}
  pot: {kind: stack, visibility: all}
  lost: {kind: row, visibility: none, face: down}
  shelf: {per: [left, right], kind: row, visibility: all}
variables:
  wealth: {per: player, type: int, initial: 0, min: 0, max: 40, bounds: clamp}
  rounds: {type: int, initial: 0}
flow:
  - loop:
      - chance: pick
        from: "stall"
      - effects:
          - move: {items: pick, from: stall, to: pot, at: bottom}
          - let: {before: "pot"}
          - flip: "pot"
          - if: "len(before) > 2"
            then:
              - move: {from: pot, to: lost, count: "len(before) - 2"}
      - for: p
        in: "players()"
        do:
          - choose: [take, skip, pass]
            player: p
      - loop:
          - effects:
              - for: c
                in: "purse[0]"
                do:
                  - if: "c.metal == 'tin'"
                    then:
                      - move: {items: c, from: "purse[0]", to: lost, face: up}
                      - flip: c
                      - flip: c
                        face: down
        times: 1
      - effects:
          - set: "rounds += 1"
    while: "len(stall) > 0 and rounds < 12"
actions:
  take:
    params: {coin: "[c for c in pot if c.worth > 1]"}
    effects:
      - move: coin
        from: pot
        to: "purse[player]"
      - set: "wealth[player] += coin.worth * 3"
  skip:
    params: {n: "[0, -1]"}
    effects:
      - move: {from: stall, to: pot, count: n}
      - move: {from: stall, to: "shelf['right']", count: "n + 1"}
      - if: "len(shelf['right']) > 3"
        then:
          - move: {from: "shelf['right']", to: "shelf['left']", count: 2, at: bottom}
      # the front item, when there is one: none at first, some later
      - move: {from: "shelf['left']", to: lost, face: down}
      - move: {from: "shelf['left']", to: "shelf['right']", at: bottom}
scoring:
  score: "wealth[player]"
"""


@pytest.mark.parametrize("players", [2, 3])
def test_zones_items_and_chance_in_the_fused_tier_match_the_loop(tmp_path, players):
    path = write_ruleset(tmp_path, MARKET, "market")
    game = load_game(path, players, backend="compiled")
    assert unsupported(game.rules) is None
    for seed in range(150):
        start = game.new_state(seed)
        before = start.to_data()
        for limit in (None, seed % 9):
            fast_rng, loop_rng = random.Random(seed), random.Random(seed)
            fast = game.playout(start, rng=fast_rng, max_moves=limit)
            loop = game.playout(start, policy=loop_policy, rng=loop_rng, max_moves=limit)
            assert (fast.to_data(), fast.move_count, fast.end_reason) == \
                (loop.to_data(), loop.move_count, loop.end_reason), f"seed {seed}"
            assert fast_rng.getstate() == loop_rng.getstate()
        assert start.to_data() == before, "the playout changed its start"
    assert game.kernel_fallbacks == 0


def test_a_face_is_written_as_the_shared_record_unless_the_record_holds_more(tmp_path):
    """A face is written as one of the two shared records where the item's record held
    nothing but a face (the shared records are tested first), and as a copy with the face
    changed where it holds more: another property, or the players it was revealed to.
    Records the tier did not make (an equal but separate face record, an explicit `up`,
    a `seen_by` a save may carry in a game without `reveal`) are read by what they hold,
    as the loop reads them."""
    with_props = MARKET.replace('    id: "{metal}{worth}"\n', '    id: "{metal}{worth}"\n    props:\n'
                                '      polish: {type: int, initial: "0", min: 0, max: 3}\n')
    assert with_props != MARKET
    for text in (MARKET, with_props):
        game = load_game(write_ruleset(tmp_path, text, "market"), 2, backend="compiled")
        game.rules.playout_kernel(False, 2)
        fused = [p for p in game.rules.module.parts if "def FUSED" in p][-1]
        assert "_fz_FD if _pp is None or _pp is _fz_FU or (len(_pp) == 1 and " in fused
        for seed in range(60):
            start = game.new_state(seed)
            for n, item in enumerate(start.zones["stall"]):  # records the tier did not make
                record = dict(start.props.get(item.id, {}))
                if n % 2:
                    record["face"] = "down" if n % 3 == 0 else "up"
                if n % 5 == 0:
                    record["seen_by"] = (0,)
                start.props[item.id] = record
            fast = game.playout(start, rng=random.Random(seed))
            loop = game.playout(start, policy=loop_policy, rng=random.Random(seed))
            assert fast.to_data() == loop.to_data(), seed
            assert any("seen_by" in p for p in fast.props.values())
        assert game.kernel_fallbacks == 0


@pytest.mark.parametrize("players", [3, 4])
def test_goofspiel_at_more_players_matches_the_loop(players):
    game = load_game("goofspiel", players, backend="compiled")
    for seed in range(100):
        start = game.new_state(seed)
        fast_rng, loop_rng = random.Random(seed), random.Random(seed)
        fast = game.playout(start, rng=fast_rng)
        loop = game.playout(start, policy=loop_policy, rng=loop_rng)
        assert fast.to_data() == loop.to_data() and fast_rng.getstate() == loop_rng.getstate()
    assert game.kernel_fallbacks == 0


def test_a_zone_that_is_not_a_list_of_items_is_left_to_the_loop():
    game = load_game("goofspiel", backend="compiled")
    state = game.new_state(0)
    state.zones["discard"] = ("not an item",)
    fast = game.playout(state, rng=random.Random(4))
    loop = game.playout(state, policy=loop_policy, rng=random.Random(4))
    assert game.kernel_fallbacks == 1
    assert fast.to_data() == loop.to_data()


@pytest.mark.parametrize("name", INSIDE)
def test_the_tier_replaces_no_helper_of_the_other_generated_code(name):
    """The fused function shares its module's namespace with the effect blocks and
    listings; a helper of the same name there (`_deal` once did) would change them."""
    from meeple.interpreter.codegen.fused import build_fused
    from meeple.interpreter.codegen.kernel import build_kernel
    game = load_game(name, backend="compiled")
    build_kernel(game.rules, False)
    before = dict(game.rules.module.ns)
    assert build_fused(game.rules) is not None
    after = game.rules.module.ns
    assert [k for k in before if after[k] is not before[k] and k != "FUSED"] == []


SHIFTING = """
game: {name: shifting, players: 2}
components:
  card:
    fields: {n: int}
    generate: {n: {from: 1, to: 30}}
    id: "C{n}"
zones:
  deck: {kind: stack, visibility: none, initial: "items('card')"}
  hand: {per: player, kind: hand, visibility: owner}
  table: {kind: row, visibility: all}
setup:
  - shuffle: deck
  - deal: {from: deck, to: hand, count: 4}
flow:
  - loop:
      - chance: drawn
        from: "deck"
      - effects:
          # The draw's index is stale once another card left the deck before it.
          - if: "drawn.n % 2 == 0 and top(deck).n != drawn.n"
            then:
              - move: {from: deck, to: table, at: bottom}
          - move: {items: drawn, from: deck, to: "hand[0]"}
      - turns: "players()"
        do: [{choose: [play]}]
    while: "len(deck) > 2"
actions:
  play:
    params: {card: "hand[player]"}
    effects:
      # A card put on top of the hand first shifts the chosen card's place in it.
      - if: "card.n % 3 == 0 and len(deck) > 0"
        then:
          - move: {from: deck, to: "hand[player]"}
      - move: {items: card, from: "hand[player]", to: table}
scoring:
  score: "sum(c.n for c in table) * 0 + len(hand[player])"
"""


def test_an_item_drawn_by_index_is_taken_by_index_only_where_it_still_lies(tmp_path):
    """A decision over one plain list and a chance draw note the index they drew; the
    move that takes the item deletes it there when it is still there, and otherwise
    searches the list (an earlier effect moved another item in or out first)."""
    game = load_game(write_ruleset(tmp_path, SHIFTING, "shifting"), backend="compiled")
    assert unsupported(game.rules) is None
    for seed in range(120):
        start = game.new_state(seed)
        fast_rng, loop_rng = random.Random(seed), random.Random(seed)
        fast = game.playout(start, rng=fast_rng)
        loop = game.playout(start, policy=loop_policy, rng=loop_rng)
        assert fast.to_data() == loop.to_data(), f"seed {seed}"
    assert game.kernel_fallbacks == 0
    assert "_org_seq, _org_i = _seq, i" in game.rules.source()  # both draws noted their index
    assert "_org_seq, _org_i = _o, _z % _n" in game.rules.source()


@pytest.mark.parametrize("options", [{"board_size": 5}, {}])
def test_a_walk_of_the_board_through_the_library_plays_in_the_fused_tier_as_the_loop_plays_it(options):
    """`reachable` (hex's chain of stones) is called from the tier through the library,
    which checks its arguments and charges as the reference does (issue 43): hex left the
    playout kernel for the fused tier."""
    game = load_game("hex", options=options, backend="compiled")
    assert game.rules.playout_tier() == "fused"
    fused_matches_the_loop(game, (3, 8, 21), cut=40)


@pytest.mark.parametrize("name,players,options", [("ludo", 2, {}), ("ludo", 4, {}), ("amazons", 2, {"board_size": 6}),
                                                  ("amazons", 2, {}), ("backgammon", 2, {})])
def test_has_move_plays_in_the_fused_tier_as_the_loop_plays_it(name, players, options):
    """`has_move` is written inside the tier as a listing of the asked actions that stops at
    its first move (ludo's pass when no piece can move, amazons' stuck player, backgammon's
    rule that both dice be played, with its counts per point changed by `-=` and `+=`), so
    these games left the playout kernel (issue 43)."""
    game = load_game(name, players, options=options, backend="compiled")
    assert game.rules.playout_tier() == "fused"
    fused_matches_the_loop(game, (2, 5, 13), cut=60)


HAS_MOVE_OF_ITSELF = """
game: {name: self-asking, players: {min: 2, max: 2}}
variables:
  left: {type: int, initial: 5}
flow:
  - loop:
      - turns: "players()"
        do: [{choose: [take]}]
    while: "left > 0"
actions:
  take:
    params: {n: "range(1, 3)"}
    require:
      - {check: "n <= left or not has_move(player, ['take'])", reason: "asks about itself"}
    effects: ["left -= min(n, left)"]
"""


def test_has_move_of_an_action_asking_has_move_of_itself_is_named(tmp_path):
    game = load_game(write_ruleset(tmp_path, HAS_MOVE_OF_ITSELF, "self-asking"), backend="compiled")
    assert game.rules.playout_tier() == "kernel"
    assert "has_move of action 'take'" in unsupported(game.rules)


@pytest.mark.parametrize("path,options", [("quoridor", {"board_size": 5}), ("quoridor", {}),
                                          (str(Path(__file__).parent / "games" / "ember-queens"), {})])
def test_a_step_off_the_board_plays_in_the_fused_tier_as_the_loop_plays_it(path, options):
    """`step` and `cell` give none off the board: the tier types such a value as a text or
    none, compared with `==`, `!=` and `in`, kept in lists and written into a text variable
    only after a check (issue 43).  Quoridor (a pawn's next square, maps of direction
    lists) and ember-queens (the knight's leaps) left the playout kernel."""
    game = load_game(path, options=options, backend="compiled")
    assert game.rules.playout_tier() == "fused"
    fused_matches_the_loop(game, (1, 4, 9), cut=50)


@pytest.mark.parametrize("path,cut", [("go", 70), (str(Path(__file__).parent / "games" / "pancake-duel"), 20)])
def test_a_set_of_positions_plays_in_the_fused_tier_as_the_loop_plays_it(path, cut):
    """A set variable of ints or texts held whole (a frozenset, replaced on every write),
    `set`, `union`, `intersection`, `difference`, `in` and `len` of sets, `sort` by a key and
    `reverse`, a map of lists built by a comprehension, and a whole per-key map read (a copy):
    go and pancake-duel, which remember every position seen, left the playout kernel
    (issue 43)."""
    game = load_game(path, backend="compiled")
    assert game.rules.playout_tier() == "fused"
    fused_matches_the_loop(game, (2, 7), cut=cut)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_side_an_item_shows_is_read_in_the_fused_tier_as_the_loop_reads_it(players):
    """`c.face` (a kept card counts only once turned up, tests/games/draft): read from the
    properties the tier keeps, up where no move or flip turned the item."""
    game = load_game(str(Path(__file__).parent / "games" / "draft"), players, backend="compiled")
    game.rules.playout_kernel(False, players)
    text = [p for p in game.rules.module.parts if "def FUSED" in p][-1]
    assert ".get('face', 'up')" in text
    fused_matches_the_loop(game, range(40), cut=11, go_on=True)
