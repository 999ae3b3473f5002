"""What a player may know, tested on every ruleset with hidden information: histories a
player cannot tell apart by the declarations look the same to them in their view, their
move texts, the narrated log, the adapters' observation tensor and the bots' observation (leak_support.py),
on both back ends.  The fixtures are the two leaks of issue 41 written as an author would
(a die rolled by a `chance` step kept in an owner-only variable; cards dealt with a
`chance` step in a loop), a game of secret bids, and the handles of issue 47: cards dealt
and picked blind from a deck laid out in a known order and never shuffled
(unshuffled_deck.yaml, known_deal.yaml), tiles dealt out of a bag and picked from it by
touch (bag_picks.yaml, bag_deal.yaml); the last tests show the check fails where the
engine leaks."""
from __future__ import annotations

import glob
import hashlib
from pathlib import Path

import pytest

from leak_support import Leak, check_no_leaks
from meeple.adapters.action_table import ActionTable
from meeple.adapters.observation import ObservationLayout
from meeple.interpreter import list_rulesets, load_game
from meeple.interpreter.runtime import knowledge
from meeple.interpreter.presentation import narration
from meeple.interpreter.runtime import views
from meeple.interpreter.runtime import game as game_module

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "leaks"
NARRATION = ROOT / "tests" / "fixtures" / "narration"
RULESETS = [*list_rulesets(), str(ROOT / "examples" / "high-card"), *sorted(glob.glob(str(ROOT / "tests/games/*"))),
            *sorted(str(p) for p in FIXTURES.glob("*.yaml")), str(NARRATION / "draws.yaml")]


def _cases():
    for name in RULESETS:
        game = load_game(name)
        if not game.hides_information:
            continue
        info = game.rules.ruleset.game
        # Both back ends at the fewest players; the most players on the compiled back end
        # (the default) only: the back ends agree on every view at every step
        # (test_backend_differential.py), and the reference at five players is the
        # slowest run of the file (freyas-folly, 26 s).
        for players in sorted({info.min_players, info.max_players}):
            for backend in ("reference", "compiled") if players == info.min_players else ("compiled",):
                yield pytest.param(name, players, backend, id=f"{Path(name).stem}-{players}p-{backend}")


def _extra(game):
    """What the adapters give p: the observation tensor (PettingZoo, OpenSpiel), the bots'
    observation, and p's action ids with their strings (PettingZoo's action mask, OpenSpiel's
    legal actions), as they are: `compare` erases ranks where it must.  The OpenSpiel
    observation and information-state strings are made of p's views with ranks erased,
    compared by `compare` itself."""
    layout = ObservationLayout(game)
    table = ActionTable(game)

    def tensor(state, p):
        return layout.tensor(state, p)

    def observation(state, p):
        return game.observe(state, p).to_data()

    def action_ids(state, p):
        if p not in game.current_players(state):
            return []
        return sorted([i, table.describe(i, state, p)] for i in table.legal(state, p))
    return tensor, observation, action_ids


@pytest.mark.parametrize("name, players, backend", list(_cases()))
def test_histories_a_player_cannot_tell_apart_look_the_same_to_them(name, players, backend):
    game = load_game(name, players, backend=backend)
    followed = check_no_leaks(game, range(2), limit=80, extra=_extra(game))
    assert followed >= 10, "the mirrored histories hardly got started: the test tested nothing"


def test_a_die_in_an_owner_only_variable_stays_its_owners():
    game = load_game(FIXTURES / "dice_duel.yaml")
    state = game.new_state(3)
    assert state.locals["r0"] != 0 and game.view(state, 1)["locals"] == {}
    assert game.view(state, 1)["vars"]["die"] == {"1": state.vars["die"][1]}


def test_a_chance_name_ends_with_its_list():
    game = load_game(FIXTURES / "deal_in_loop.yaml")
    state = game.new_state(3)
    assert not {"c", "k", "p"} & set(state.locals)  # bound in the deal's loops, which are over


def test_a_secret_parameter_is_a_question_mark_to_the_others():
    game = load_game(FIXTURES / "sealed_bid.yaml")
    state = game.new_state(1)
    move = game.legal_moves(state)[2]
    assert game.move_text(state, move, 0) == "offer(amount=3)"
    assert game.move_text(state, move, 1) == "offer(amount=?)"


def test_the_check_finds_a_view_that_shows_the_flows_names(monkeypatch):
    monkeypatch.setattr(views, "seen_locals", lambda game, state, viewer: {
        k for k in state.locals if not k.startswith("__")})  # what views showed before issue 41
    with pytest.raises(Leak, match="locals"):
        check_no_leaks(load_game(FIXTURES / "dice_duel.yaml"), range(3))


def test_the_check_finds_a_move_text_that_tells_a_secret(monkeypatch):
    monkeypatch.setattr(game_module.Game, "seen_move", lambda self, state, move, viewer: move)
    with pytest.raises(Leak, match="offer"):
        check_no_leaks(load_game(FIXTURES / "sealed_bid.yaml"), range(3))


def test_the_check_finds_a_narration_that_prints_a_hidden_field():
    with pytest.raises(Leak, match="narration"):
        check_no_leaks(load_game(NARRATION / "ranks_told.yaml"), range(3))


def test_the_check_finds_a_narration_that_names_hidden_items_by_id(monkeypatch):
    monkeypatch.setattr(narration.Words, "thing", lambda self, item: item.id)
    with pytest.raises(Leak, match="narration"):
        check_no_leaks(load_game(NARRATION / "draws.yaml"), range(3))


def test_the_check_finds_handles_that_are_places(monkeypatch):
    """Where a card's place in a hidden hand or deck is its handle (as before issue 47), a
    deck laid out in a known order tells which card a blind pick took."""
    def by_place(self, item):
        place = self.where.get(item.id)
        return None if place is None else (*place, "@")
    monkeypatch.setattr(knowledge.Namer, "handle", by_place)
    with pytest.raises(Leak, match="reads the move"):
        check_no_leaks(load_game(FIXTURES / "unshuffled_deck.yaml"), range(2), limit=80)


def test_the_check_finds_ranks_that_follow_the_items(monkeypatch):
    """Ranks keyed by the items rather than their places (the first answer to issue 47):
    exchanging two hidden cards changes the handle a public variable shows."""
    def by_item(self, name, key):
        secret = (self.state.rng & (2 ** 64 - 1)).to_bytes(8, "little")
        group = knowledge.zone_get(self.state, name, key)
        hidden = [i for n, i in enumerate(group) if self.sight(i) != knowledge.WHOLE and self.order_hidden(name, key, n)]
        hidden.sort(key=lambda i: hashlib.blake2b(i.id.encode(), key=secret, digest_size=8).digest())
        return {item.id: rank for rank, item in enumerate(hidden)}
    monkeypatch.setattr(knowledge.Namer, "_rank", by_item)
    with pytest.raises(Leak, match="held"):
        check_no_leaks(load_game(FIXTURES / "unshuffled_deck.yaml"), range(2), limit=80)


LINTED = """
game: {name: linted, players: 2}
variables:
  die: {type: int, per: player, visibility: owner, initial: 0}
  table: {type: int, initial: 0}
flow:
  - chance: roll
    from: "range(1, 7)"
  - chance: weather
    from: "range(1, 3)"
    seen_by: "players()"
  - effects: ["die[0] = roll", "table = weather", "table = roll"]
  - turns: "players()"
    do: [{choose: [bid]}]
actions:
  bid:
    params: {amount: "range(1, 4)"}
    secret: [amount]
    effects: [{log: "'bid ' + str(amount)"}]
end: [{when: "table > 100"}]
"""


def test_lint_names_each_place_a_hidden_value_reaches_the_table(tmp_path):
    from meeple.interpreter import load_rules
    from meeple.interpreter.analysis.lint import lint
    path = tmp_path / "game.yaml"
    path.write_text(LINTED, encoding="utf-8")
    found = [(d.code, d.span.line) for d in lint(load_rules(path))[0] if d.code == "L111"]
    # the owner's own die and a draw everyone sees are not reported; the public variable
    # taking the hidden roll and the log taking the secret bid are
    assert found == [("L111", 12), ("L111", 19)]
