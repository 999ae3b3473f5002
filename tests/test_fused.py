"""The fused playout tier (interpreter/codegen/fused.py): for rulesets whose state is plain
typed variables, a whole playout as one function over typed locals.  It must reach the
state the move-by-move loop reaches with the same draws, say why a ruleset is outside it,
and hand back to the loop on anything unusual (a state whose values break their declared
types, a write the declaration refuses)."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from meeple.interpreter import load_game
from meeple.interpreter.codegen.fused import unsupported
from meeple.interpreter.codegen.kernel import KernelStop

from ruleset_support import FOUR_REASONS, playout_errors, write_ruleset
from fused_cases import (INSIDE, TOLLS, ERRANDS, HARVEST, PANTRY, LEDGER, KEPT, WORKSHOP, RELAY, SEALED, BARTER,
                         TOKENS, CAVES, TALLY, ROWS, MARKS, WATCHERS, fast_and_loop_outcomes, fused_matches_the_loop,
                         loop_policy)


@pytest.mark.parametrize("name", INSIDE)
def test_the_small_games_run_in_the_fused_tier(name):
    game = load_game(name, backend="compiled")
    assert unsupported(game.rules) is None
    run, _ = game.rules.playout_kernel(False)
    assert run.__name__ == "FUSED"


def test_a_ruleset_outside_the_tier_says_why_and_keeps_the_kernel(tmp_path):
    game = load_game(write_ruleset(tmp_path, FOUR_REASONS, "four-reasons"), backend="compiled")
    assert unsupported(game.rules) == "variable 'stock' of type map[str, list[int]]"
    run, _ = game.rules.playout_kernel(False)
    assert run.__name__ == "PLAYOUT"


def test_every_reason_a_ruleset_is_outside_the_tier_is_listed(tmp_path):
    from meeple.interpreter.codegen.fused import reasons
    rules = load_game(write_ruleset(tmp_path, FOUR_REASONS, "four-reasons"), backend="compiled").rules
    found = reasons(rules)
    assert len(found) == 4, found
    assert [next(name for name in ("stock", "names", "buy", "first") if f"'{name}'" in why) for why in found] == \
        ["stock", "names", "buy", "first"]
    assert found[0].startswith(unsupported(rules) + ", at file 1, line ")  # the first, at its place
    assert reasons(load_game("nim", backend="compiled").rules) == []


@pytest.mark.parametrize("change,why", [
    (("effects: [\"tithe += q + 1\"]", "effects: [\"tithe += q + 1\"]\n  again:\n    on: full\n    effects:\n"
      "      - emit: full\n        with: {who: 0, much: 2}"), "the event 'full' is emitted inside its own triggers"),
    (("    on: season\n    each: {q: \"players()\", k: \"range(0, q + 1)\"}\n    when: \"n % 3 == 0 and k == 0\"",
      "    each: {q: \"players()\", k: \"range(0, q + 1)\"}\n    when: \"tithe > 999 + move_count() and k == 0\""),
     "trigger 'feast' runs on a condition that reads more than variables, zones and item properties"),
])
def test_triggers_the_tier_does_not_take_keep_the_kernel(tmp_path, change, why):
    game = load_game(write_ruleset(tmp_path, HARVEST.replace(*change), "harvest-outside"), backend="compiled")
    assert unsupported(game.rules) == why
    assert game.rules.playout_kernel(False)[0].__name__ == "PLAYOUT"


def test_tests_over_a_line_are_written_element_by_element(tmp_path):
    game = load_game(write_ruleset(tmp_path, ROWS, "rows"), 2, backend="compiled")
    game.rules.playout_kernel(False, 2)
    text = [p for p in game.rules.module.parts if "def FUSED" in p][-1]
    # three: the first node's own comparison is left out
    assert re.search(r"_q\d+ = \(\(v_cell\[(c\d+_e)\[1\]\] == (_h\d+)\)\) and \(\(v_cell\[\1\[2\]\] == \2\)\)\n", text)
    assert "[3]] == 'O'" in text and "[3]] == 'X'" in text  # crowded: any over a line of four
    assert not re.search(r"for c\d+_n in c\d+_(e|line)", text)  # no loop over a line's nodes is left
    fused_matches_the_loop(game, range(80), cut=9, go_on=True)


def test_sums_over_a_few_constants_are_written_out(tmp_path):
    game = load_game(write_ruleset(tmp_path, TALLY, "tally"), 3, backend="compiled")
    game.rules.playout_kernel(False, 3)
    text = [p for p in game.rules.module.parts if "def FUSED" in p][-1]
    assert text.count("sum(") == 1  # weighted's, which has two loops
    assert "(v_pots['a'] if (v_pots['a'] > 0) else 0) + (v_pots['b'] if (v_pots['b'] > 0) else 0)" in text
    assert "v_pots = V['pots'] = {'a': (_i" in text  # spread's map, key by key
    made = [v for k, v in game.rules.module.ns.items() if k.startswith("_fz_map")]
    assert {"c": 0, "a": 0, "b": 0} in made and list(made[made.index({"c": 0, "a": 0, "b": 0})]) == ["c", "a", "b"]
    assert "_fz_sized({" not in text  # no map made by a comprehension


@pytest.mark.parametrize("change,why", [
    (("      - log: \"'extra ' + str(n)\"", "      - log: \"'extra ' + str(n)\"\n      - shuffle: pile"),
     "action 'extra' has `then_required` and writes more than variables held whole"),
    (("scoring:", "end:\n  - when: \"pool > 20\"\nscoring:"),
     "action 'extra' has `then_required` and an end rule reads what it writes"),
])
def test_a_then_required_action_the_tier_cannot_try_keeps_the_kernel(tmp_path, change, why):
    """The tier tries such a move on its own locals: not one that changes a zone (here a
    shuffle), nor one after which an end rule could end the game at once."""
    text = TOKENS.replace(*change).replace("variables:", "zones:\n  pile: {kind: stack}\nvariables:", 1)
    game = load_game(write_ruleset(tmp_path, text, "tokens-outside"), backend="compiled")
    assert unsupported(game.rules) == why
    assert game.rules.playout_kernel(False)[0].__name__ == "PLAYOUT"

@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("name,cut,go_on", [("tolls", 7, False), ("errands", 11, True), ("harvest", 9, False),
                                            ("pantry", 13, False), ("ledger", 10, False),
                                            ("kept", 9, False), ("workshop", 7, False), ("relay", 5, False),
                                            ("tokens", 6, True), ("caves", 8, False), ("sealed", 5, True),
                                            ("barter", 7, False), ("tally", 6, True), ("watchers", 9, True)])
def test_each_feature_game_plays_in_the_fused_tier_as_the_loop_plays_it(tmp_path, players, name, cut, go_on):
    """TOLLS (costs), ERRANDS (`then` steps; go_on: a playout stopped inside them goes
    on from there), HARVEST (event triggers), PANTRY (map variables), LEDGER (lists) and
    KEPT (parts of tests kept across a listing, counts over constants), WORKSHOP (item
    properties), RELAY (who decides, read from the state), TOKENS (`then_required`) and
    CAVES (what freyas-folly brought: board walks, map properties, lists of lists) and
    SEALED (a simultaneous step with one mover or several, some with nothing to bid) and
    BARTER (choices built by a loop from a definition's filter) and TALLY (sums over a
    few constants, written out) and WATCHERS (condition triggers)."""
    text = {"tolls": TOLLS, "errands": ERRANDS, "harvest": HARVEST, "pantry": PANTRY, "ledger": LEDGER,
            "kept": KEPT, "workshop": WORKSHOP, "relay": RELAY, "tokens": TOKENS, "caves": CAVES,
            "sealed": SEALED, "barter": BARTER, "tally": TALLY, "watchers": WATCHERS}[name]
    fused_matches_the_loop(load_game(write_ruleset(tmp_path, text, name), players, backend="compiled"),
                            range(120), cut=cut, go_on=go_on)


def test_item_properties_are_read_through_columns_that_follow_every_write(tmp_path):
    """The tier reads an item's property from a column filled from the state on the
    first read (fused_zones.PropColumn), and writes go to the state and the column.
    The mixed variant adds a kind whose `charge` has other bounds, so that writes of
    `charge` go through the library's checked write: its column follows them too."""
    mixed = WORKSHOP.replace("""zones:""", """  gadget:
    fields: {power: int}
    generate: {power: {from: 1, to: 3}}
    id: "G{power}"
    props:
      charge: {type: int, initial: "1", min: 0, max: 9, bounds: clamp}
      mode: {type: str, initial: "'busy'", choices: [idle, busy]}
zones:""").replace("initial: \"items('tool')\"", "initial: \"items('tool') + items('gadget')\"")
    mixed = mixed.replace('last: {type: "item[tool]"', 'last: {type: "item"')
    for text, library_write in ((WORKSHOP, False), (mixed, True)):
        game = load_game(write_ruleset(tmp_path, text, "workshop"), 3, backend="compiled")
        game.rules.playout_kernel(False, 3)
        fused = [p for p in game.rules.module.parts if "def FUSED" in p][-1]
        assert "P.get(_pi" not in fused and re.search(r"col_\d+\[a_t\.id\]", fused)
        assert ("_fz_set_prop(ctx, " in fused) == library_write
        fused_matches_the_loop(game, range(80), cut=7)


def test_any_and_all_over_a_maps_pairs_are_written_as_loops(tmp_path):
    """`all(m[k] >= v for k, v in items(need))` in a requirement, directly and through a
    definition, and `any` over the pairs with a filter: loops over `.items()` that stop
    at the decisive pair (freyas-folly's `has_all`), playing as the loop plays them; and
    a bool variable set to an `any`/`all` is set by such loops too."""
    orders = BARTER.replace("""  rest:""", """  order:
    params: {k: "kinds"}
    require:
      - "affords(goods[player], {'a': 1, 'b': 1} if k == 'a' else {'c': 1})"
      - "any(v > 1 for kk, v in items(market) if kk != k) or all(v > 0 or kk == k for kk, v in items(goods[player]))"
    effects: ["goods[player][k] += 1", "rounds += 1", "rich = any(v > 3 for kk, v in items(goods[player]))",
              "full = all(len(kept[q]) > 0 for q in players())"]
  rest:""").replace("""  kinds: "['a', 'b', 'c']"\n""", """  kinds: "['a', 'b', 'c']"
  affords: {params: [m, need], expr: "all(m[k] >= v for k, v in items(need))"}\n""")
    orders = orders.replace("choose: [swap, take, rest]", "choose: [swap, take, order, rest]").replace(
        "  rounds: {type: int, initial: 0}", "  rounds: {type: int, initial: 0}\n  rich: {type: bool, initial: false}\n"
        "  full: {type: bool, initial: false}")
    game = load_game(write_ruleset(tmp_path, orders, "orders"), 3, backend="compiled")
    game.rules.playout_kernel(False, 3)
    fused = [p for p in game.rules.module.parts if "def FUSED" in p][-1]
    assert re.search(r"for c\d+_k, c\d+_v in \w+\.items\(\):", fused)  # affords
    assert re.search(r"for c\d+_kk, c\d+_v in v_market\.items\(\):", fused)  # any, filtered
    assert len(re.findall(r"for c\d+_kk, c\d+_v in \S+\.items\(\):", fused)) >= 3  # and all, and `rich`
    assert "_v = any(" not in fused and "_v = all(" not in fused  # `rich` and `full` set by loops
    fused_matches_the_loop(game, range(80), cut=7)


def test_a_definition_walking_its_argument_with_count_if_is_remembered(tmp_path):
    """`count_if(pack, k => …)` walks the list it is given, as a comprehension over it
    would: a definition made of it is remembered on trial by its argument (freyas-folly's
    `shapes(g)`), and plays as the loop plays it."""
    counted = BARTER.replace("""  holds: {params: [m, pack], expr:""", """  weight: {params: [pack], expr: "[1, 2, 3, 4][count_if(pack, k => k == 'a')]"}
  holds: {params: [m, pack], expr:""").replace(
        "if holds(goods[p], pk) and", "if holds(goods[p], pk) and weight(pk) < 3 + rounds % 2 and")
    game = load_game(write_ruleset(tmp_path, counted, "counted"), 3, backend="compiled")
    game.rules.playout_kernel(False, 3)
    fused = [p for p in game.rules.module.parts if "def FUSED" in p][-1]
    assert "_fz_memo_on_trial(M, ('fused-define', 'weight'))" in fused
    fused_matches_the_loop(game, range(80), cut=7)


def test_a_text_made_of_its_arguments_is_looked_up_not_made_again():
    """A definition that joins its arguments into a text and reads nothing of the state
    (`'h-' + str(r) + '-' + str(c)`, tests/games/dot-boxes) is remembered by its
    arguments, as the other tiers remember it (issue 47): the playout finds the text
    instead of joining and checking it again at every use, and plays as the loop plays."""
    game = load_game(Path(__file__).parent / "games" / "dot-boxes", 2, backend="compiled")
    game.rules.playout_kernel(False, 2)
    fused = [p for p in game.rules.module.parts if "def FUSED" in p][-1]
    made = re.findall(r"(md_\d+)\.get\(\(_mk\d+ := \(\(?_a\d+\)?, \(?_a\d+\)?, \)\)", fused)
    assert len(made) >= 4  # the four sides of a box, each named by h(r, c) or v(r, c)
    assert "'h-' + str(" in fused  # the text is still made, once per (r, c), when missing
    fused_matches_the_loop(game, range(40), cut=9)


def test_a_map_of_constants_keyed_by_ints_and_nested_is_made_once(tmp_path):
    """`mark[player][how]`: a map keyed by ints whose values are maps of texts, all
    constants, is one map of the module read by indexing (chess's `glyph[c]['N']`), and
    plays as the loop plays."""
    game = load_game(write_ruleset(tmp_path, MARKS, "marks"), 2, backend="compiled")
    game.rules.playout_kernel(False, 2)
    fused = [p for p in game.rules.module.parts if "def FUSED" in p][-1]
    assert re.search(r"_fz_map\d+\[", fused) and "{0: {" not in fused
    fused_matches_the_loop(game, range(30), cut=4)


def test_choices_built_by_a_loop_match_the_loop_whether_the_memo_is_kept_or_let_go(tmp_path, monkeypatch):
    """BARTER's `offers(player)` is remembered: while its memo is kept the listing asks
    it, once the game has let it go the listing builds the list itself (`built_list`).
    Here every memo is let go from the start, and the playouts still end as the loop's."""
    from meeple.interpreter.codegen import fused_runtime as fused
    game = load_game(write_ruleset(tmp_path, BARTER, "barter"), 3, backend="compiled")
    game.rules.playout_kernel(False, 3)
    text = [p for p in game.rules.module.parts if "def FUSED" in p][-1]
    assert "is _fz_NOT_REMEMBERED:" in text  # offers: the memo, or the loop
    monkeypatch.setitem(game.rules.module.ns, "_fz_memo_on_trial", lambda memo, key, *rule: fused._NOT_REMEMBERED)
    fused_matches_the_loop(game, range(60), cut=7)


def test_board_walks_match_the_loop_whether_their_memo_is_kept_or_let_go(tmp_path, monkeypatch):
    """CAVES walks its board through `hop_walk`, the library's walk without the type
    checks the tier has proven; once the game lets the walk's memo go, no key is made.
    Here it is let go from the start."""
    from meeple.interpreter.codegen import fused_runtime as fused
    game = load_game(write_ruleset(tmp_path, CAVES, "caves"), 3, backend="compiled")
    game.rules.playout_kernel(False, 3)
    text = [p for p in game.rules.module.parts if "def FUSED" in p][-1]
    assert "_fz_hop_walk(ctx, bw_0, " in text and "F_hop_targets(" not in text
    assert re.search(r"\(_fz_hop_walk\(ctx, bw_0, [^)]*\) if s_\d+ is _fz_NOT_REMEMBERED else ", text)
    monkeypatch.setitem(game.rules.module.ns, "_fz_memo_on_trial", lambda memo, key, *rule: fused._NOT_REMEMBERED)
    fused_matches_the_loop(game, range(60), cut=8)


def test_a_walk_memo_is_kept_only_where_most_walks_recur():
    """A memo on trial is judged after MEMO_TRIAL asks: a definition's is kept with a
    quarter as many values found as missed, a board walk's only with as many (its key
    costs about as much as the walk)."""
    from meeple.interpreter.codegen import fused_runtime as fused
    from meeple.interpreter.codegen.runtime import MEMO_TRIAL

    def kept(found_share: float, *rule) -> bool:
        memo = {}
        trial = fused._memo_on_trial(memo, "k", *rule)
        for i in range(MEMO_TRIAL):  # the first asks find nothing, the later ones find key 0
            if trial.get(0 if i >= (1 - found_share) * MEMO_TRIAL else -1 - i) is None:
                trial[0] = i
        assert trial.asked == MEMO_TRIAL and trial.missed == round((1 - found_share) * MEMO_TRIAL)
        return fused._memo_on_trial(memo, "k", *rule) is not fused._NOT_REMEMBERED

    assert kept(0.4) and not kept(0.4, fused._WALK_FOUND_PER_MISS)
    assert not kept(0.1) and kept(0.6, fused._WALK_FOUND_PER_MISS)


def test_a_memo_that_finds_almost_nothing_is_let_go_early():
    """After a few hundred asks, a memo that found less than one value in twenty misses
    is let go then; one that found more stays on trial until MEMO_TRIAL asks."""
    from meeple.interpreter.codegen import fused_runtime as fused

    def after(asks: int, found: int):
        memo = {}
        trial = fused._memo_on_trial(memo, "k")
        trial.get(0)
        trial[0] = 0  # the first ask misses and keeps its value
        for i in range(1, asks):  # then `found` asks find it, the others miss
            if trial.get(0 if i <= found else -i) is None:
                trial[-i] = i
        assert trial.asked == asks and trial.missed == asks - found
        return fused._memo_on_trial(memo, "k")

    assert type(after(fused._EARLY_TRIAL - 1, 0)) is fused._OnTrial  # too few asks to judge
    assert after(fused._EARLY_TRIAL, 1) is fused._NOT_REMEMBERED  # 1 found, 199 missed
    assert type(after(fused._EARLY_TRIAL, 40)) is fused._OnTrial  # 40 found: judged later


def test_a_walk_from_a_space_off_the_board_fails_as_in_the_loop(tmp_path):
    """The tier's walk reports the start it cannot find; the loop plays the game again and
    reports it in the language's terms, as the reference does."""
    broken = CAVES.replace('"m.at = to"', '"m.at = to if rounds < 2 else \'zz\'"')
    assert broken != CAVES
    errors = playout_errors(write_ruleset(tmp_path, broken, "caves-off-board"), 4)
    assert "reference" in errors and errors["compiled"] == errors["reference"]
    assert errors["fallbacks"] == 1


def test_a_listing_keeps_the_parts_of_its_tests_that_read_no_candidate(tmp_path):
    """Each is worked out on first use (the playouts above start with spread 0 and never
    fall back), and kept in a name of its own for the other candidates, until the loop
    whose variable it reads goes on."""
    source = load_game(write_ruleset(tmp_path, KEPT, "kept"), 2, backend="compiled").rules.source()
    fused = source[source.index("def FUSED"):]
    kept = set(re.findall(r"\((_h\d+) if \1 is not None else \(\1 := ", fused))
    # take: spread == 0, 10 // spread, coins[player] + player_count() > 4; mark: the count;
    # swap: coins[player] % 5, reach(a); trade: rounds % 3; swap and trade: upto(reach(2)),
    # kept once for both
    assert len(kept) == 8
    assert all(fused.count(f"{name} = None") == 1 for name in kept)
    shared = re.findall(r"for a_[ac] in \((_h\d+) if ", fused)
    assert len(shared) == 2 and shared[0] == shared[1]
    # reach(a) is kept inside the loop over `a` (set to None as each `a` begins), and
    # b's choices and the requirement share it
    inner = re.search(r"\n( +)for a_a in .*\n\1    (_h\d+) = None\n", fused)
    assert inner and fused.count(f"({inner.group(2)} if {inner.group(2)} is not None") == 2
    assert "len([" not in fused  # every count over the colours is a sum of tests


def test_an_end_rule_is_tested_only_after_blocks_that_write_what_it_reads(tmp_path):
    """KEPT's end rule reads `tally`: it is tested after a move (`mark` writes it) and not
    after the round's effects (`rounds`, `spread`); the playouts above end where the
    loop's do."""
    source = load_game(write_ruleset(tmp_path, KEPT, "kept"), 2, backend="compiled").rules.source()
    fused = source[source.index("def FUSED"):]
    assert fused.count("state.end_reason = 'tallied'") == 1
    assert fused.count("v_rounds = V['rounds'] =") >= 1


def test_a_playout_is_written_for_its_number_of_players(tmp_path):
    """Game.playout asks for the fused playout of its own player count: `players()` is a
    written tuple there, so RELAY's loops over the players are written out; a game of
    another count is refused on entry (and the loop plays it)."""
    path = write_ruleset(tmp_path, RELAY, "relay")
    game = load_game(path, 3, backend="compiled")
    generic, _ = game.rules.playout_kernel(False)
    for_three, _ = game.rules.playout_kernel(False, 3)
    assert for_three is not generic and for_three.__name__ == generic.__name__ == "FUSED"
    assert game.rules.playout_kernel(False, 3)[0] is for_three  # made once
    text = next(p for p in game.rules.module.parts if "if ctx.player_count != 3:" in p)
    assert "v_laps[2]" in text and "max(v_laps[0], v_laps[1], v_laps[2])" in text
    assert "v_laps[2]" not in next(p for p in game.rules.module.parts if "def FUSED" in p)  # the generic one
    other = load_game(path, 2, backend="compiled")
    with pytest.raises(KernelStop):
        for_three(other, other.new_state(1).copy(), random.Random(1)._randbelow, 10, 0, [])


def test_a_cost_paid_from_anything_but_an_int_variable_keeps_the_kernel(tmp_path):
    text = TOLLS.replace('"pool": "-far"', '"pool": "-far", "rounds": "0"').replace(
        "  rounds: {type: int, initial: 0}", "  rounds: {per: [a], type: int, initial: 0}").replace(
        "rounds += 1", "rounds['a'] += 1").replace("rounds % 3", "rounds['a'] % 3").replace(
        "rounds < 15", "rounds['a'] < 15").replace('"rounds": "0"', '"rounds[\'a\']": "0"')
    game = load_game(write_ruleset(tmp_path, text, "tolls-by-key"), backend="compiled")
    assert "a cost paid from something other than" in unsupported(game.rules)
    assert game.rules.playout_kernel(False)[0].__name__ == "PLAYOUT"


@pytest.mark.parametrize("name,players", [("zavandor", 2), ("zavandor", 3), ("zavandor", 4), ("valdora", 3),
                                          ("valdora", 4), ("freyas-folly", 3), ("freyas-folly", 4),
                                          ("freyas-folly", 5)])
def test_a_rulebook_game_plays_in_the_fused_tier_as_the_loop_plays_it(name, players):
    """Rulebook games in the tier (maps per player and per key, lists, map and list
    fields, board attributes, costs, `then` steps, an event trigger, sided cards,
    remembered definitions; freyas-folly: `then_required`, a board walk, map properties,
    lists of lists): a few long games, whole and cut."""
    game = load_game(name, players, backend="compiled")
    assert game.rules.playout_tier() == "fused"
    fused_matches_the_loop(game, (40, 81, 125), cut=97)  # cut after 40, 81 and 28 moves


@pytest.mark.parametrize("name", INSIDE)
@pytest.mark.parametrize("limit", [None, 1, 5])
def test_fused_playouts_end_where_the_loop_ends(name, limit):
    """300 seeded games each (the incremental end rule is tested after every move)."""
    game = load_game(name, backend="compiled")
    for seed in range(300 if limit is None else 40):
        start = game.new_state(seed)
        before = start.to_data()
        fast_rng, loop_rng = random.Random(seed), random.Random(seed)
        fast = game.playout(start, rng=fast_rng, max_moves=limit)
        loop = game.playout(start, policy=loop_policy, rng=loop_rng, max_moves=limit)
        assert (fast.to_data(), fast.move_count, fast.over, fast.end_reason) == \
            (loop.to_data(), loop.move_count, loop.over, loop.end_reason), f"seed {seed}"
        assert fast_rng.getstate() == loop_rng.getstate()
        assert start.to_data() == before, "the playout changed its start"
    assert game.kernel_fallbacks == 0


def test_a_game_continued_from_the_middle_matches_too():
    """The first end check of a playout tests every line; later ones only the lines
    through the cells written since."""
    game = load_game("connect-four", backend="compiled")
    for seed in range(60):
        mid = game.playout(game.new_state(seed), rng=random.Random(seed), max_moves=seed % 17)
        a, b = random.Random(seed + 1), random.Random(seed + 1)
        assert game.playout(mid, rng=a).to_data() == game.playout(mid, policy=loop_policy, rng=b).to_data()


def test_a_state_whose_values_break_their_types_is_left_to_the_loop():
    game = load_game("tic-tac-toe", backend="compiled")
    state = game.new_state(0)
    state.vars["cell"] = {**state.vars["cell"], "a1": 7}  # an int where the declaration says str
    fast = game.playout(state, rng=random.Random(2))
    loop = game.playout(state, policy=loop_policy, rng=random.Random(2))
    assert game.kernel_fallbacks == 1
    assert fast.to_data() == loop.to_data()


def test_a_variable_outside_its_declared_bounds_is_left_to_the_loop():
    """The writer leaves out the range check of sums whose operands' declared bounds keep
    them small (valdora's `silver[player] - 1`, silver being 0..6); the bounds are proven
    on entry, so a state that breaks them is played by the loop."""
    game = load_game("valdora", 3, backend="compiled")
    fused = game.rules.source()
    assert "_v = (v_silver[" in fused and "max(v_silver) > 6" in fused
    state = game.new_state(4)
    state.vars["silver"] = (9, *state.vars["silver"][1:])  # more than the declared 6
    # Both play on until a write meets the bound, and report it alike.
    outcomes = fast_and_loop_outcomes(game, state, 3, max_moves=40)
    assert game.kernel_fallbacks == 1
    assert outcomes[0] == outcomes[1]


REFUSED_WRITE = """
game: {name: refused-write, players: 2}
variables:
  mark: {type: str, initial: "'a'", choices: [a, b]}
  turns: {type: int, initial: 0}
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [write]
actions:
  write:
    params: {to: "['a', 'b', 'c']"}
    effects:
      - set: ["mark = to", "turns += 1"]
end:
  - when: "turns > 50"
"""


def test_a_write_the_declaration_refuses_gives_the_languages_error(tmp_path):
    path = write_ruleset(tmp_path, REFUSED_WRITE, "refused-write")
    assert unsupported(load_game(path, backend="compiled").rules) is None
    errors = playout_errors(path, 5)
    assert errors["compiled"] == errors["reference"] and errors["compiled"][0] == "R703"
    assert errors["fallbacks"] == 1


def test_the_writer_meets_every_shipped_and_test_ruleset_without_failing():
    """Each ruleset is inside the tier or told why not; none makes the writer itself fail."""
    from ruleset_support import every_configuration
    seen = {}
    for param in every_configuration():
        name, players = param.values
        if name not in seen:
            seen[name] = unsupported(load_game(name, players, backend="compiled").rules)
    assert not [n for n, why in seen.items() if why and why.startswith("the writer failed")], seen
    assert {Path(n).name for n, why in seen.items() if why is None} >= {Path(n).name for n in INSIDE}


def test_a_condition_trigger_that_keeps_running_gives_the_languages_error(tmp_path):
    """The 200th round in a row that still runs a trigger gives the fused playout up; the
    loop then reports R706 at the trigger, as the reference does."""
    path = write_ruleset(tmp_path, WATCHERS.replace('effects: ["seen[\'gem\'] = 0", "level += 1"]',
                                                    'effects: ["level += 0"]'), "watchers-forever")
    assert unsupported(load_game(path, backend="compiled").rules) is None
    errors = playout_errors(path, 3)
    assert errors["compiled"] == errors["reference"] and errors["compiled"][0] == "R706"
    assert errors["fallbacks"] == 1


@pytest.mark.parametrize("change,why", [
    (("  spend:\n    require:", "  spend:\n    cost: {\"level\": 1}\n    require:"),
     "trigger 'overflow' runs on a condition over a variable that a cost pays ('level')"),
    (('when: "seen[\'gem\'] >= 3"', 'when: "seen[\'gem\'] >= 3 + move_count()"'),
     "trigger 'tally' runs on a condition that reads more than variables, zones and item properties"),
])
def test_a_condition_trigger_the_tier_cannot_follow_is_named(tmp_path, change, why):
    """The tier tries condition triggers only after the effects that write what they read:
    a condition over what changes outside any effect (a cost, the move counter) keeps the
    ruleset in the kernel, named at the trigger."""
    text = WATCHERS.replace(*change)
    assert text != WATCHERS
    game = load_game(write_ruleset(tmp_path, text, "watchers-outside"), backend="compiled")
    assert unsupported(game.rules) == why
    assert game.rules.playout_kernel(False)[0].__name__ == "PLAYOUT"


LOCAL_BOUNDS = """
game: {name: local-bounds, players: 2}
variables:
  pool: {type: int, initial: 1}
  tally: {type: int, initial: 0, min: 0}
  steps: {type: int, initial: 0}
flow:
  - loop:
      - turns: "players()"
        do:
          - choose: [grow]
actions:
  grow:
    params: {by: "[1, 2, 3]"}
    effects:
      - let: {start: "index_of([3, 2, 1], by)"}
      - for: j
        in: "range(1, 6)"
        do:
          - "tally += (start + j) % 5"
      - let: {twice: "pool + pool"}
      - "pool = twice - pool + pool * by"
      - "steps += 1"
end:
  - when: "steps >= 90"
    reason: "enough"
"""


def test_arithmetic_on_bounded_locals_is_written_without_range_checks(tmp_path):
    """A `let` and a loop over `range(...)` carry bounds into the arithmetic on them: the
    place of `index_of` plus the loop's count needs no check of the language's range.
    `pool + pool` may pass it and keeps its check: the pool outgrows the range within a
    game, and the tier stops there as the loop does."""
    game = load_game(write_ruleset(tmp_path, LOCAL_BOUNDS, "local-bounds"), backend="compiled")
    assert game.rules.playout_tier() == "fused"
    game.rules.playout_kernel(False, 2)
    fused = [part for part in game.rules.module.parts if "def FUSED" in part][-1]
    assert re.search(r"\(\(_l\d+_start \+ _f\d+_j\) % 5\)", fused)  # no check around it
    assert re.search(r":= _l\d+_start \+ _f\d+_j\)", fused) is None
    assert re.search(r":= v_pool \+ v_pool\)", fused)  # checked
    outcomes = fast_and_loop_outcomes(game, game.new_state(1), 5)
    assert outcomes[0] == outcomes[1] and isinstance(outcomes[0], tuple)  # the range was passed, and said alike
