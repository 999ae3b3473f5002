"""How each library game reads in OpenSpiel's terms, for the lockstep harness
(openspiel_lockstep.py).

A ruleset holds no Python and the interpreter names no game, so what ties a meeple
ruleset to OpenSpiel's game of the same name lives here, one small entry per game:

- `move_text(state, player, action)`: how OpenSpiel's `action` for `player` (-1 for
  chance) in its `state` is written as a meeple move text.  Only the OpenSpiel side is
  read, so a ruleset that offers a different move shows up as a difference in the sets
  of legal moves rather than being translated into agreement;
- `returns(outcome)`: the meeple outcome as OpenSpiel's returns, one per player.

Each entry also names the OpenSpiel game and its parameters, and the ruleset with the
player count and options that correspond to them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

from meeple.dsl.build_grid import grid_node


@dataclass(frozen=True)
class Lockstep:
    """One meeple ruleset played beside one OpenSpiel game."""
    ruleset: str  # a shipped ruleset's name, or a path
    openspiel: str  # pyspiel.load_game's name
    players: int
    move_text: Callable  # (pyspiel state, player, action) -> meeple move text
    returns: Callable  # meeple Outcome -> OpenSpiel's returns, a tuple of numbers
    params: dict = field(default_factory=dict)  # OpenSpiel's parameters
    options: dict = field(default_factory=dict)  # the meeple options that match them


def _scores(outcome) -> tuple:
    return tuple(outcome.scores)


# -- tic-tac-toe ---------------------------------------------------------------------------------

def _tic_tac_toe_move(state, player, action) -> str:
    """OpenSpiel numbers the cells row by row from 0; meeple's grid names a cell by its
    column letter and row number, `a1` being column 0, row 0."""
    row, col = divmod(action, 3)
    return f"place(at={'abc'[col]}{row + 1})"


def _win_loss(outcome) -> tuple:
    """meeple scores 1 for three in a row and 0 otherwise; OpenSpiel +1, -1, or 0 each
    for a draw."""
    a, b = outcome.scores
    return (a - b, b - a)


# -- blackjack -----------------------------------------------------------------------------------

_BLACKJACK_OPENING = ("first", "second", "hole", "upcard")  # the ruleset's chance steps of the deal
_HIT, _STAND = 0, 1


def _blackjack_move(state, player, action) -> str:
    """A card is written the same on both sides (`CA`, `DT`): OpenSpiel's card text is the
    ruleset's item id.  Which chance step deals it is read from the history: the four
    cards of the deal, then the player's hits until a stand, then the dealer's draws."""
    if player >= 0:
        return "hit" if action == _HIT else "stand"
    card = state.action_to_string(player, action)
    history = state.full_history()
    if len(history) < len(_BLACKJACK_OPENING):
        return f"chance({_BLACKJACK_OPENING[len(history)]}={card})"
    stood = any(h.player == 0 and h.action == _STAND for h in history)
    return f"chance({'drawn' if stood else 'card'}={card})"


# -- 2048 ----------------------------------------------------------------------------------------

_DIRECTIONS = ("up", "right", "down", "left")  # OpenSpiel's actions 0..3


def _2048_move(state, player, action) -> str:
    """A chance action is (row, column, is a 4) in mixed base 4, 4, 2, OpenSpiel's row 0
    on top; the ruleset's grid has its row 4 on top, so OpenSpiel's row r is meeple's
    row 4 - r."""
    if player >= 0:
        return f"slide(direction={_DIRECTIONS[action]})"
    row, rest = divmod(action, 8)
    col, four = divmod(rest, 2)
    return f"chance(spawn='{4 if four else 2} on {'abcd'[col]}{4 - row}')"


# -- go ------------------------------------------------------------------------------------------

def _go_move(state, player, action) -> str:
    """OpenSpiel numbers the points row by row from a1 (row 0, column 0), the pass last; the
    grid names a point by column letter and row number, with no letter skipped (OpenSpiel
    writes `j1` for the ninth column, the ruleset `i1`)."""
    points = 9 * 9
    if action == points:
        return "pass_turn"
    row, col = divmod(action, 9)
    return f"play(at={'abcdefghi'[col]}{row + 1})"


# -- hex -----------------------------------------------------------------------------------------

def _hex_move(state, player, action) -> str:
    """OpenSpiel numbers the cells row by row, action = row * size + column, and draws row 0
    on top with each row half a cell further east; the ruleset's hex grid draws row 0 at the
    bottom with each row half a cell further east, the same neighbours (a mirror image).
    So the grid's cell name is OpenSpiel's own action text (`a1` is action 0)."""
    size = state.get_game().get_parameters()["board_size"]
    row, col = divmod(action, size)
    return f"place(at={grid_node(row, col)})"


# -- amazons -------------------------------------------------------------------------------------

_AMAZONS_STAGES = ("pick(queen={})", "move(to={})", "shoot(at={})")


def _amazons_move(state, player, action) -> str:
    """A turn is three OpenSpiel actions, each a cell, row * size + column with row 0 on top
    (`(1, 4)` in its text is row 0, column 3): which queen, where it goes, where its arrow
    lands.  The ruleset's grid has row 0 at the bottom.  Which of the three an action is,
    OpenSpiel's text says (`X From`, `X To`, `X Shoot:`)."""
    size = state.get_game().get_parameters()["board_size"]
    row, col = divmod(action, size)
    text = state.action_to_string(player, action)
    stage = 0 if " From " in text else 1 if " To " in text else 2
    return _AMAZONS_STAGES[stage].format(grid_node(size - 1 - row, col))


# -- hearts --------------------------------------------------------------------------------------

_PASS_WAYS = ("no_pass", "left", "across", "right")  # OpenSpiel's first chance action, 0..3
_DEAL = 52
_PASSED = 4 * 3


def _hearts_move(state, player, action) -> str:
    """The first chance action is the pass direction, the next 52 the cards of the deal
    (OpenSpiel's card text, `2C`, `TD`, is the ruleset's item id); a player's card is passed
    while the twelve cards of a pass are being chosen (none when the hand is played without
    passing), and played after."""
    history = state.history()
    if not history:
        return f"chance(way={_PASS_WAYS[action]})"
    card = state.action_to_string(player, action)
    if player < 0:
        return f"chance(dealt={card})"
    passing = history[0] != 0 and len(history) < 1 + _DEAL + _PASSED
    return f"{'give' if passing else 'play'}(card={card})"
# -- backgammon ----------------------------------------------------------------------------------

_BAR, _NO_STEP = 24, 25  # OpenSpiel's digits for a checker on the bar and for no step
_BOTH_DICE = 26 * 26  # actions from here on play the lower die first


def _backgammon_dice(state) -> tuple:
    """The roll being played, lower die first: the last two numbers of OpenSpiel's
    observation tensor."""
    low, high = (int(v) for v in state.observation_tensor(0)[-2:])
    return low, high


def _backgammon_point(player, digit) -> int:
    """OpenSpiel's board position as the mover counts the points (24 where its checkers
    start, 1 the last of its home board, 25 the bar): X (player 0) moves up from position 0,
    O (player 1) down from position 23."""
    if digit == _BAR:
        return 25
    return 24 - digit if player == 0 else digit + 1


def _backgammon_move(state, player, action) -> str:
    """A chance action is its roll, as OpenSpiel writes it (`roll: 12`, the ruleset's 12);
    the ruleset's opening roll is X's die, then O's: OpenSpiel's outcome 2k (X starts) rolls
    the lower die first, so the ruleset's number is that roll turned round.  A move is two digits, the positions
    the two checkers leave (24 the bar, 25 no checker: both 25 is a pass), the first moving by the higher die
    below 676, by the lower from 676 on."""
    if player < 0:
        roll = re.search(r"roll: (\d)(\d)", state.action_to_string(player, action))
        a, b = int(roll.group(1)), int(roll.group(2))
        if state.move_number() == 0:
            return f"chance(opening={b}{a})"
        return f"chance(roll={a}{b})"
    low, high = _backgammon_dice(state)
    first_die = high if action < _BOTH_DICE else low
    first, second = (action % _BOTH_DICE) % 26, (action % _BOTH_DICE) // 26
    if first == _NO_STEP:
        return "pass"
    if second == _NO_STEP:
        return f"move_one(checker={_backgammon_point(player, first)},die={first_die})"
    return (f"move(first={_backgammon_point(player, first)},die={first_die},"
            f"second={_backgammon_point(player, second)})")


# -- chess -------------------------------------------------------------------------------------

_PROMOTIONS = {"QUEEN": "queen", "ROOK": "rook", "BISHOP": "bishop", "KNIGHT": "knight"}


def _chess_move(state, player, action) -> str:
    """OpenSpiel's own decoding of its action id (`pyspiel.chess.action_to_move`) gives the
    from and to squares in long algebraic notation (`e7e8`, file then rank, as the grid
    names its cells), whether it castles, and the piece a pawn becomes.  A move onto the
    last rank by a pawn is a promotion also when OpenSpiel's id is a plain move (its queen
    promotion); the ruleset names it `promote`.  Castling is the king's two-square move."""
    import pyspiel
    move = pyspiel.chess.action_to_move(action, state.board())
    lan = move.to_lan()
    if move.is_castling():
        return f"castle(side={'kingside' if lan[2] == 'g' else 'queenside'})"
    promotion = move.promotion_type.name
    if promotion in _PROMOTIONS:
        return f"promote(from={lan[:2]},to={lan[2:4]},into={_PROMOTIONS[promotion]})"
    return f"move(from={lan[:2]},to={lan[2:4]})"


# -- kalah (OpenSpiel's mancala) ------------------------------------------------------------------

def _kalah_move(state, player, action) -> str:
    """OpenSpiel's board is 14 places counter-clockwise: 0 is player 1's store, 1..6 player
    0's pits left to right, 7 player 0's store, 8..13 player 1's pits right to left.  The
    ruleset's grid has player 0's pits on row 1 and player 1's on row 2, a column's two
    pits facing each other: pit a is a1 .. f1 for 1 .. 6, and f2 .. a2 for 8 .. 13."""
    if action <= 6:
        return f"sow(pit={'abcdef'[action - 1]}1)"
    return f"sow(pit={'abcdef'[13 - action]}2)"


GAMES = {
    "tic-tac-toe": Lockstep("tic-tac-toe", "tic_tac_toe", 2, _tic_tac_toe_move, _win_loss),
    "blackjack": Lockstep("blackjack", "blackjack", 1, _blackjack_move, _scores),
    "2048": Lockstep("2048", "2048", 1, _2048_move, _scores),
    "go": Lockstep("go", "go", 2, _go_move, _scores, params={"board_size": 9, "komi": 7.5},
                   options={"komi_halves": 15}),
    "hex": Lockstep("hex", "hex", 2, _hex_move, _scores, params={"board_size": 11},
                    options={"board_size": 11}),
    # A small board, for a short game in CI and a check that the size comes from the option.
    "hex-5": Lockstep("hex", "hex", 2, _hex_move, _scores, params={"board_size": 5},
                      options={"board_size": 5}),
    "amazons": Lockstep("amazons", "amazons", 2, _amazons_move, _scores, params={"board_size": 10},
                        options={"board_size": 10}),
    # The smallest board, for short games in CI and a check that the size and the queens'
    # places come from the option.
    "amazons-6": Lockstep("amazons", "amazons", 2, _amazons_move, _scores, params={"board_size": 6},
                          options={"board_size": 6}),
    "hearts": Lockstep("hearts", "hearts", 4, _hearts_move, _scores),
    "backgammon": Lockstep("backgammon", "backgammon", 2, _backgammon_move, _scores),
    # Random games never reach 500 turns, and win/loss scoring never counts a gammon: these
    # end at 30 turns as a draw, and score gammons and backgammons.
    "backgammon-max-turns-30": Lockstep("backgammon", "backgammon", 2, _backgammon_move, _scores,
                                        params={"max_player_turns": 30}, options={"max_player_turns": 30}),
    "backgammon-full-scoring": Lockstep("backgammon", "backgammon", 2, _backgammon_move, _scores,
                                        params={"scoring_type": "full_scoring"},
                                        options={"scoring_type": "full_scoring"}),
    "chess": Lockstep("chess", "chess", 2, _chess_move, _scores),
    # Two goal tiles for the ends the default game's random play never meets: random games
    # reach a 32; no tile is ever 48, so that game ends when stuck or at its move limit,
    # 4 x 48 actions, which a random game often reaches.
    "2048-max-tile-32": Lockstep("2048", "2048", 1, _2048_move, _scores,
                                 params={"max_tile": 32}, options={"max_tile": 32}),
    "2048-max-tile-48": Lockstep("2048", "2048", 1, _2048_move, _scores,
                                 params={"max_tile": 48}, options={"max_tile": 48}),
    "kalah": Lockstep("kalah", "mancala", 2, _kalah_move, _scores),
}


# -- quoridor ------------------------------------------------------------------------------------

def _quoridor_move(state, player, action) -> str:
    """OpenSpiel's board is a lattice of 2 * size - 1 columns x and rows y, y = 0 on top. A
    wall's action is the lattice cell of its first half, y * width + x (y odd: across the
    board, `h`; x odd: up it, `v`); a pawn's action is relative to where it stands, so its
    target is read from OpenSpiel's text (`c4`: x = 2 * column, y = 2 * (row - 1)).  The
    ruleset's lattice is the same picture with row 0 at the bottom, so OpenSpiel's (x, y) is
    its column x, row width - 1 - y; a wall is named by its middle, the cell after its first
    half.  The move onto the square the pawn stands on is OpenSpiel's forced pass."""
    width = 2 * state.get_game().get_parameters()["board_size"] - 1
    y, x = divmod(action, width)
    text = state.action_to_string(player, action)
    if text.endswith("v"):
        return f"wall(at={grid_node(width - 2 - y, x)},dir=v)"
    if text.endswith("h"):
        return f"wall(at={grid_node(width - 1 - y, x + 1)},dir=h)"
    x, y = 2 * (ord(text[0]) - ord("a")), 2 * (int(text[1:]) - 1)
    if state.observation_tensor(player)[player * width * width + y * width + x] == 1:
        return "pass"
    return f"move(to={grid_node(width - 1 - y, x)})"


GAMES["quoridor"] = Lockstep("quoridor", "quoridor", 2, _quoridor_move, _scores,
                             params={"board_size": 9}, options={"board_size": 9})
# A small board, for short games in CI and a check that the size comes from the option.
GAMES["quoridor-5"] = Lockstep("quoridor", "quoridor", 2, _quoridor_move, _scores,
                               params={"board_size": 5}, options={"board_size": 5})


# -- phantom tic-tac-toe -------------------------------------------------------------------------

# OpenSpiel numbers the cells as in tic_tac_toe. Its legal actions are the acting player's
# own: every cell not in that player's view (their marks and the marks they ran into),
# which is what the ruleset offers; the opponent's marks are not compared apart from that.
GAMES["phantom-tic-tac-toe"] = Lockstep("phantom-tic-tac-toe", "phantom_ttt", 2, _tic_tac_toe_move, _scores)
# -- battleship ----------------------------------------------------------------------------------

def _battleship_move(state, player, action) -> str:
    """OpenSpiel's action is a cell, row * width + column, and which hundred (of the sea's
    width * height cells) says what is done there: a shot, a ship placed horizontally, or
    vertically, from its top-left cell.  The ruleset's row is OpenSpiel's row, and a ship
    runs east or north (towards higher rows) from the cell it is placed at."""
    params = state.get_game().get_parameters()
    width, cells = params["board_width"], params["board_width"] * params["board_height"]
    kind, cell = divmod(action, cells)
    at = grid_node(*divmod(cell, width))
    return f"shoot(at={at})" if kind == 0 else f"place(at={at},heading={'e' if kind == 1 else 'n'})"


def _battleship_options(params: dict) -> dict:
    """The ruleset's options for OpenSpiel's parameters: lists for its `[a;b]` texts, and the
    loss multiplier as a fraction [numerator, denominator]."""
    def numbers(text):
        return [int(x) for x in text.strip("[]").split(";")]
    multiplier = Fraction(str(params.get("loss_multiplier", 1.0)))
    out = {"loss_multiplier": [multiplier.numerator, multiplier.denominator]}
    out.update({k: numbers(v) for k, v in params.items() if k in ("ship_sizes", "ship_values")})
    out.update({k: v for k, v in params.items() if k in ("board_width", "board_height", "num_shots",
                                                         "allow_repeated_shots")})
    return out


def _battleship(params: dict) -> Lockstep:
    return Lockstep("battleship", "battleship", 2, _battleship_move, _scores, params=params,
                    options=_battleship_options(params))


GAMES.update({
    "battleship": _battleship({}),
    # A loss multiplier of 1/2 (fractional returns), ships worth 1 to 3, no repeated shots.
    "battleship-half-loss": _battleship({"loss_multiplier": 0.5, "ship_values": "[1;2;3;1;2]",
                                         "allow_repeated_shots": False}),
    # A 5 x 3 sea that four ships of 3 nearly fill: a placement that leaves no room for the
    # ships still to place is refused (one placement in five in random games), and firing at
    # every cell once sinks a fleet; short games for CI.
    "battleship-crowded": _battleship({"board_width": 5, "board_height": 3, "ship_sizes": "[3;3;3;3]",
                                       "ship_values": "[1;1;1;1]", "num_shots": 15,
                                       "allow_repeated_shots": False}),
})


# -- ludo (OpenSpiel's maedn) ----------------------------------------------------------------------

_LUDO_PASS, _LUDO_BRING_IN, _LUDO_FIELD_OFFSET = 0, 1, 2


def _ludo_move(state, player, action) -> str:
    """A chance action a rolls a + 1. Action 0 passes, 1 brings a piece in, and 2 + k moves
    the piece on field k counted from the mover's own start field (40 to 43 its goal
    fields), which is how the ruleset counts a player's fields too."""
    if player < 0:
        return f"chance(roll={action + 1})"
    if action == _LUDO_PASS:
        return "pass"
    if action == _LUDO_BRING_IN:
        return "bring_in"
    return f"move(field={action - _LUDO_FIELD_OFFSET})"


# OpenSpiel's returns are the ruleset's scores: player count - 1 to the winner, -1 to the rest.
GAMES["ludo"] = Lockstep("ludo", "maedn", 2, _ludo_move, _scores)
GAMES["ludo-side-by-side"] = Lockstep("ludo", "maedn", 2, _ludo_move, _scores,
                                      params={"twoPlayersOpposite": False},
                                      options={"two_players_opposite": False})
GAMES["ludo-3"] = Lockstep("ludo", "maedn", 3, _ludo_move, _scores, params={"players": 3})
GAMES["ludo-4"] = Lockstep("ludo", "maedn", 4, _ludo_move, _scores, params={"players": 4})

# -- goofspiel: simultaneous nodes, and a known difference ----------------------------------------

def _goofspiel_move(state, player, action) -> str:
    """OpenSpiel's action a deals the prize worth a + 1, or bids the card worth a + 1;
    the ruleset names them by item id: prize P5, player 1's bid card S1-5."""
    if player < 0:
        return f"chance(drawn=P{action + 1})"
    return f"bid(card=S{player}-{action + 1})"


def _win_loss_by_points(outcome) -> tuple:
    """OpenSpiel's default returns_type win_loss: +1 for more points, -1 for fewer."""
    a, b = outcome.scores
    sign = (a > b) - (a < b)
    return (sign, -sign)


# Not one of GAMES: the shipped example plays all 13 rounds as decisions, while OpenSpiel
# resolves the last one by itself (each player has one card left) and is over after 12.
# The two agree through 12 rounds of chance and simultaneous bids, which is what the
# harness's own test uses it for, and then differ on whether the game is over.
DIFFERING = {"goofspiel": Lockstep("goofspiel", "goofspiel", 2, _goofspiel_move, _win_loss_by_points)}
