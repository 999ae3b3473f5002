"""Hidden identity: an item's id reaches a player only for an item that player sees
whole.  The almanac test game's ids name both sides of each page (`spring-4`), the
way a careless author would write them; the interpreter must still hide them."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from meeple.dsl.load import load_ruleset
from meeple.dsl.diagnostics import RulesetError
from meeple.interpreter import IllegalMove, load_game, load_rules
from meeple.interpreter.analysis.lint import lint
from meeple.interpreter.runtime.state import to_plain

from view_support import check_view_property

ALMANAC = Path(__file__).parent / "games" / "almanac"


def _game():
    return load_game(str(ALMANAC), 2)


def _ids_in(data) -> set:
    found = set()
    if isinstance(data, dict):
        for k, v in data.items():
            found |= _ids_in(k) | _ids_in(v)
    elif isinstance(data, list):
        for v in data:
            found |= _ids_in(v)
    elif isinstance(data, str):
        found.add(data)
    return found


def test_the_top_page_shows_only_its_upper_side():
    game = _game()
    s = game.new_state(1)
    top = s.zones["stack"][0]
    view = game.view(s, 0)
    assert view["zones"]["stack"] == {"count": 6, "top": {"side": "season", "season": top.fields["season"]}}
    assert not {i for i in game.items} & _ids_in(view)
    s = game.apply(s, "turn(page=stack@0)")
    assert game.view(s, 1)["zones"]["stack"]["top"] == {"side": "moons", "moons": top.fields["moons"]}


def test_moves_name_unseen_items_by_their_place_and_players_cannot_probe_ids():
    game = _game()
    s = game.new_state(1)
    top = s.zones["stack"][0]
    assert [str(m) for m in game.legal_moves(s)] == ["turn(page=stack@0)", "take(page=stack@0)"]
    refusals = []
    for guess in (top.id, next(i for i in game.items if i != top.id)):
        with pytest.raises(IllegalMove) as err:
            game.parse_move(s, f"take(page={guess})", 0)
        refusals.append((err.value.rejection.code, err.value.rejection.reason.replace(guess, "X")))
    # A right guess and a wrong one are refused alike, with the choices as handles.
    assert refusals[0] == refusals[1] == ("M803", "page=X is not possible; choices: stack@0")
    # A referee (a test, a replay) holds the whole state and may use the id.
    assert game.apply(s, f"take(page={top.id})").zones["hand"][0] == (top,)


def test_a_move_reads_differently_to_its_mover_and_to_the_others():
    game = _game()
    s = game.apply(game.new_state(1), "take(page=stack@0)")
    s = game.apply(s, "turn(page=stack@0)")  # player 1 turns the next page
    page = s.zones["hand"][0][0]
    lay = next(m for m in game.legal_moves(s) if m.action == "lay")
    assert str(lay) == f"lay(page={page.id})"  # the mover holds it, so names it
    assert game.move_text(s, lay, 0) == f"lay(page={page.id})"
    assert game.move_text(s, lay, 1) == "lay(page=hand[0]#0)"


def test_items_in_variables_and_locals_are_named_as_the_viewer_may():
    game = _game()
    s = game.apply(game.new_state(1), "take(page=stack@0)")
    page = s.zones["hand"][0][0]
    s.locals = {**s.locals, "chosen": page}  # as an open sub-decision would hold it
    # A view shows no flow names unless their step says `seen_by`; a bot's observation
    # holds where the flow stands, items named as its player names them.
    assert "chosen" not in game.view(s, 0)["locals"]
    assert game.observe(s, 0).bookkeeping["chosen"] == {"$item": page.id}
    assert game.observe(s, 1).bookkeeping["chosen"] == {"$hidden": "hand[0]#0"}


def _naive_view(game, state, viewer):
    """The view as it was before handles: every item in a seen place named by its id."""
    view = game.view(state, viewer)
    stack = state.zones["stack"]
    view["zones"]["stack"] = {"count": len(stack), "top": stack[0].id if stack else None}
    return view


def test_the_view_property_catches_a_view_that_shows_ids():
    """The property test of the foundation would fail on a leaky view: swapping two
    pages whose upper sides match changes an id-showing view, and not the real one."""
    game = _game()
    rnd = random.Random(3)
    caught = 0
    for seed in range(20):
        s = game.new_state(seed)
        for _ in range(6):
            if game.is_terminal(s):
                break
            check_view_property(game, s, 0, random.Random(seed), move=game.legal_moves(s)[0])
            try:
                check_view_property(game, s, 0, random.Random(seed),
                                    view=lambda state, viewer: _naive_view(game, state, viewer))
            except AssertionError:
                caught += 1
            s = game.apply(s, game.legal_moves(s)[rnd.randrange(len(game.legal_moves(s)))])
    assert caught > 0


BAD_SIDES = """
game: {name: bad, players: 2}
components:
  tile:
    fields: {name: str}
    props: {flipped: {type: bool, initial: "false"}}
    sides: {by: colour, up: [name]}
  card:
    fields: {title: str}
    props: {side: {type: str, initial: "'a'", choices: [a, b]}}
    sides: {by: side, a: [title], c: [nonesuch]}
flow: [{turns: "players()", do: []}]
"""


def test_bad_sides_are_reported_with_their_places(tmp_path):
    (tmp_path / "game.yaml").write_text(BAD_SIDES)
    with pytest.raises(RulesetError) as err:
        load_ruleset(str(tmp_path))
    got = sorted((d.code, d.span.line) for d in err.value.diagnostics)
    assert ("N306", 7) in got  # `by` names no property
    assert ("S105", 11) in got  # `c` is not a value of `side`
    assert ("N303", 11) in got  # `nonesuch` is not a field


def test_to_plain_is_still_the_referee_form():
    game = _game()
    s = game.new_state(1)
    assert to_plain(s.zones["stack"][0]) == {"$item": s.zones["stack"][0].id}


def test_the_view_property_catches_who_is_asked_from_a_hidden_hand(tmp_path):
    """A window opened only for players holding a boost tells the table who holds one.
    The view property (who moves next may not depend on what the viewer cannot see)
    catches it on such a variant of the contest test game, and not on the game itself."""
    text = (Path(__file__).parent / "games" / "contest" / "game.yaml").read_text(encoding="utf-8")
    public = 'players: "[p for p in clockwise(leader) if len(tricks[p]) > 0]"'
    assert public in text
    (tmp_path / "game.yaml").write_text(text.replace(
        public, 'players: "[p for p in clockwise(leader) if any(t.effect == \'boost\' for t in tricks[p])]"'))

    def leaks(game):
        found = 0
        for seed in range(6):
            rnd, s = random.Random(seed), game.new_state(seed)
            while not game.is_terminal(s):
                move = game.legal_moves(s)[rnd.randrange(len(game.legal_moves(s)))]
                for viewer in range(game.player_count):
                    try:
                        check_view_property(game, s, viewer, random.Random(seed), move=move)
                    except AssertionError as exc:
                        assert "who moves next" in str(exc)
                        found += 1
                s = game.apply(s, move)
        return found
    assert leaks(load_game(str(tmp_path), 3)) > 0
    assert leaks(load_game(str(Path(__file__).parent / "games" / "contest"), 3)) == 0
    # Lint finds it in the text, at the list that decides who is asked; counting is fine.
    line = next(i for i, t in enumerate(text.splitlines(), 1) if public in t)
    found = [(d.code, d.span.line) for d in lint(load_rules(str(tmp_path)))[0] if d.code == "L108"]
    assert found == [("L108", line)]
    assert not [d for d in lint(load_rules(str(Path(__file__).parent / "games" / "contest")))[0]
                if d.code == "L108"]


@pytest.mark.parametrize("name", ["goofspiel", "valdora", "zavandor", "treasure-hunter", "freyas-folly"])
def test_the_place_index_follows_the_zones_step_by_step(name):
    """The item index a state derives from its parent's (only replaced zones are looked
    at again) equals one built from nothing, after every move of a random game."""
    from meeple.interpreter.runtime.knowledge import locate
    game = load_game(name, load_rules(name).ruleset.game.min_players)
    rnd, s = random.Random(5), game.new_state(5)
    for _ in range(300):
        if game.is_terminal(s):
            break
        derived = locate(game, s)
        fresh = s.copy()
        fresh._where = None
        assert derived == locate(game, fresh)
        moves = game.legal_moves(s)
        s = game.apply(s, moves[rnd.randrange(len(moves))])


# -- ranks: where the viewer does not see the order ------------------------------------------------

KNOWN_DEAL = Path(__file__).parent / "fixtures" / "leaks" / "known_deal.yaml"


def test_a_card_dealt_from_a_known_order_is_not_told_by_its_place_in_a_hidden_hand():
    """The deck lies open, c1 to c5, and is dealt into player 1's hand: a place in that hand
    would name the card.  Player 0 reads a rank instead, spread over every rank as the seed
    changes; with the hand in another order, player 0 reads the same texts place by place
    (the ranks go with the places, so no text tells which card lies where)."""
    from collections import Counter
    game = load_game(str(KNOWN_DEAL), 2)
    ranks = Counter()
    for seed in range(200):
        s = game.new_state(seed)
        play_c1 = next(m for m in game.legal_moves(s) if m.arg("card").id == "c1")
        ranks[game.move_text(s, play_c1, 0)] += 1
        assert str(play_c1) == "play(card=c1)"  # its holder names it
    assert set(ranks) == {f"play(card=hand[1]#{k})" for k in range(5)}
    assert min(ranks.values()) >= 20, ranks  # each of 5 ranks about 40 times in 200
    s = game.new_state(7)
    texts = [game.move_text(s, m, 0) for m in game.legal_moves(s)]  # in the hand's order
    (hand_0, hand_1) = s.zones["hand"]
    s = s.copy()  # its moves listed afresh, in the new order
    s.zones = {**s.zones, "hand": (hand_0, tuple(reversed(hand_1)))}
    assert [game.move_text(s, m, 0) for m in game.legal_moves(s)] == texts
