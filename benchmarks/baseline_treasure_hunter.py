"""Treasure Hunter (Kincsvadászat) written by hand in plain Python: the speed baseline
for a rulebook game.

It plays the rules of the shipped ruleset `rulesets/treasure-hunter` (its README's
assumptions included) so that the two can be compared move by move: the same flow
(five rounds of drafting, three location contests with their action-card windows,
goblins, coins, yellow scrolls), the same legal moves listed in the same order with
the same texts (`keep(card=B6)`, `trap(card=TRAP-1,target=2)`, `pass`), the same
scores.  It is a referee: it sees every card.

Cards, tiles and goblins are ints indexing the tuples of `baseline_treasure_hunter_data`;
zones are lists.  Where meeple's listing order depends on a zone's order, the zone
keeps meeple's order: a card moved without `at:` goes on top, so kept cards, played
cards and won tiles are listed newest first.  Draw piles keep their top at the end
of the list, so drawing is `pop()`.

    game = TreasureHunter.random(players=3, rnd=random.Random(1))
    while not game.over:
        moves = game.legal()
        game.apply(moves[0])
    game.scores(), game.winners()

`playout(rnd)` is the loop `meeple bench` times; `python -m meeple.benchmarks.
baseline_treasure_hunter` times it next to the interpreter in the same process.
"""
from __future__ import annotations

import random

from .baseline_treasure_hunter_data import (
    ACT, ACTIONS, ADVENTURER, ADVENTURERS, ANIMAL, BLADE, CARD_COUNT, CARD_KIND, CARD_NAME, CARD_SITE, CLEAN,
    COIN, COIN_CARDS, COIN_VALUE, DISCIPLINE, DISPEL, DOG, DOGS, GOBLIN_COUNT, GOBLIN_PAW, GOBLIN_STEAL, GOBLINS,
    GREY, MAX_TILES, MULE, PAW, RELIC, RELICS, SCARER, SCOUT, STACK_SPLIT, STRENGTH, SWORD, TEAM_LAVA,
    TILE_COND, TILE_COUNT, TILE_KIND, TILE_NAME, TILE_PER, TILE_VALUE, TRAP, YELLOW)

ROUNDS = 5
START_COINS = 15  # p.2
GOBLINS_PER_ROUND = 3

# Actions, in the order the ruleset lists them at a decision.
KEEP, DROP, BOOST, DOUBLE, TRAP_ON, DISPEL_ON, SCOUT_ON, SCARE, MULE_ON, CASH, PASS = range(11)
ACTION_NAME = ("keep", "drop", "boost", "double", "trap", "dispel", "scout", "scare", "mule", "cash", "pass")

# What the game is waiting for: a simultaneous draft pick, or an answer in a window.
KEEPING, DROPPING, WINDOW, OVER = range(4)
# The action-card windows: a location's contest (p.4), the goblins (p.5), yellow scrolls (p.5).
CONTEST, GOBLIN_WINDOW, SCROLL_WINDOW = range(3)


def move_text(move) -> str:
    """A move (player, action, card or tile, target or victim) as meeple writes it."""
    _, action, x, y = move
    if action == PASS:
        return "pass"
    if action == CASH:
        return f"cash(scroll={TILE_NAME[x]})"
    if action == TRAP_ON:
        return f"trap(card={CARD_NAME[x]},target={y})"
    if action == DISPEL_ON:
        return f"dispel(card={CARD_NAME[x]},victim={CARD_NAME[y]})"
    return f"{ACTION_NAME[action]}(card={CARD_NAME[x]})"


class TreasureHunter:
    """One game from a given deal.

    `deck`, `tiles` and `goblins` are the shuffled orders, top first, before setup:
    the top 27 tiles become the MIN stack, the rest the MAX stack (p.2).  `shuffle`
    reorders a list of cards in place, top first, when the deck is remade for the
    next round (p.6): `random.Random.shuffle`, or a reader of another engine's deal.
    """

    def __init__(self, players: int, deck, tiles, goblins, dealer: int, shuffle, cards: int = 9):
        if not 2 <= players <= 6:
            raise ValueError("Treasure Hunter is for 2-6 players")
        n = self.n = players
        self.cards = cards  # dealt per player and round (the ruleset's `cards` option)
        self.shuffle = shuffle
        self.round = 1
        self.dealer = dealer
        self.deck = list(reversed(deck))
        self.min_stack = list(reversed(tiles[:STACK_SPLIT]))
        self.max_stack = list(reversed(tiles[STACK_SPLIT:]))
        self.gob_stack = list(reversed(goblins))
        self.coins = [START_COINS] * n
        self.won = [[] for _ in range(n)]  # treasure tiles, newest first
        self.gob_won = [0] * n
        self.tmax = [None] * 3
        self.tmin = [None] * 3
        self._moves = None
        self._start_round()

    @classmethod
    def random(cls, players: int, rnd: random.Random, cards: int = 9) -> TreasureHunter:
        deck, tiles, goblins = list(range(CARD_COUNT)), list(range(TILE_COUNT)), list(range(GOBLIN_COUNT))
        rnd.shuffle(deck)
        rnd.shuffle(tiles)
        rnd.shuffle(goblins)
        return cls(players, deck, tiles, goblins, rnd.randrange(players), rnd.shuffle, cards)

    # -- the step API ---------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.stage == OVER

    def to_move(self) -> tuple:
        if self.stage == WINDOW:
            return (self.order[self.who],)
        return tuple(self.pending) if self.stage != OVER else ()

    def legal(self) -> list:
        """The legal moves as (player, action, card or tile, target or victim)."""
        if self._moves is None:
            self._moves = self._list_moves()
        return self._moves

    def legal_texts(self) -> list[str]:
        return [move_text(m) for m in self.legal()]

    def play(self, index: int):
        self.apply(self.legal()[index])

    def apply(self, move):
        self._moves = None
        p, action, x, y = move
        if action == KEEP or action == DROP:
            self.packet[p].remove(x)
            if action == KEEP:
                self.kept[p].insert(0, x)
            self.pending.remove(p)
            if not self.pending:
                self._next_draft_step()
            return
        if action == PASS:
            self.passes += 1
        else:
            self._play_card(p, action, x, y)
            self.passes = 0  # a card played reopens the window for everyone (p.4)
        self.who = (self.who + 1) % len(self.order)
        if self.passes >= len(self.order):
            self._close_window()

    def scores(self) -> list[int]:
        """Grey scrolls + relics + 1 per goblin tile + money (p.6; T-G7)."""
        out = []
        for p in range(self.n):
            won = self.won[p]
            relics = [TILE_VALUE[t] for t in won if TILE_KIND[t] == RELIC]
            grey = 0
            for t in won:
                if TILE_KIND[t] == GREY:
                    cond = TILE_COND[t]
                    if cond == GOBLINS:
                        count = self.gob_won[p]
                    elif cond == RELICS:
                        count = sum(1 for v in relics if v > 0)
                    elif cond == CLEAN:
                        count = 0 if any(v < 0 for v in relics) else 1
                    else:  # WEALTH: 1 per 10 in money
                        count = self.coins[p] // 10
                    grey += TILE_PER[t] * count
            out.append(grey + sum(relics) + self.gob_won[p] + self.coins[p])
        return out

    def winners(self) -> tuple:
        """Every best score wins: ties share the win (p.6)."""
        scores = self.scores()
        best = max(scores)
        return tuple(p for p in range(self.n) if scores[p] == best)

    # -- listing moves ------------------------------------------------------------------
    def _list_moves(self) -> list:
        stage = self.stage
        if stage == KEEPING or stage == DROPPING:
            action = KEEP if stage == KEEPING else DROP
            return [(p, action, c, None) for p in self.pending for c in self.packet[p]]
        if stage == OVER:
            return []
        p = self.order[self.who]
        if self.window == CONTEST:
            return self._contest_moves(p)
        if self.window == GOBLIN_WINDOW:
            scares = [(p, SCARE, c, None) for c in self.kept[p] if ACT[c] == SCARER]
            return scares + [(p, MULE_ON, c, None) for c in self.kept[p] if ACT[c] == MULE] + [(p, PASS, None, None)]
        return [(p, CASH, t, None) for t in self.won[p] if TILE_KIND[t] == YELLOW] + [(p, PASS, None, None)]

    def _contest_moves(self, p) -> list:
        """Sword, blade and animal need an adventurer of one's own here, a trap an opponent
        with one (T-G4a); a dispel may remove any adventurer here; a scout needs a deck."""
        team = self.team
        mine = bool(team[p])
        boosts, doubles, traps, dispels, scouts = [], [], [], [], []
        for c in self.kept[p]:
            act = ACT[c]
            if act == SWORD or act == BLADE:
                if mine:
                    boosts.append((p, BOOST, c, None))
            elif act == ANIMAL:
                if mine:
                    doubles.append((p, DOUBLE, c, None))
            elif act == TRAP:
                traps += [(p, TRAP_ON, c, t) for t in range(self.n) if t != p and team[t]]
            elif act == DISPEL:
                dispels += [(p, DISPEL_ON, c, v) for q in range(self.n) for v in team[q]]
            elif act == SCOUT and self.deck:
                scouts.append((p, SCOUT_ON, c, None))
        return boosts + doubles + traps + dispels + scouts + [(p, PASS, None, None)]

    # -- playing a card in a window --------------------------------------------------------
    def _play_card(self, p, action, x, y):
        if action == CASH:
            self.won[p].remove(x)
            self.coins[p] += TILE_PER[x] * self._scroll_count(p, TILE_COND[x])
            return
        self.kept[p].remove(x)
        self.actions_played[p] += 1
        total = self.total
        if action == BOOST:
            total[p] += STRENGTH[x]
        elif action == DOUBLE:
            total[p] *= 2
        elif action == TRAP_ON:
            total[y] -= STRENGTH[x]
        elif action == DISPEL_ON:  # T-G4b: the adventurer leaves the contest with its strength
            owner = next(q for q in range(self.n) if y in self.team[q])
            self.team[owner].remove(y)
            self.advs[owner][self.site] -= 1
            total[owner] -= STRENGTH[y]
        elif action == SCOUT_ON:  # T-G4c
            drawn = self.deck.pop()
            here = CARD_SITE[drawn]
            if CARD_KIND[drawn] == ADVENTURER and here == self.site:
                self.team[p].insert(0, drawn)
                self.advs[p][here] += 1
                total[p] += STRENGTH[drawn]
            elif CARD_KIND[drawn] != ADVENTURER or here > self.site:
                self.kept[p].insert(0, drawn)
            # else: an adventurer of a location already resolved is discarded
        elif action == SCARE:
            self.scare_paws[p] += STRENGTH[x]
        else:  # MULE_ON
            self.immune[p] = True

    def _scroll_count(self, p, cond) -> int:
        """How often a yellow scroll's condition is met this round (T-G6)."""
        if cond <= TEAM_LAVA:
            return self.advs[p][cond]  # the three Strong Team scrolls count one location each
        if cond == ADVENTURERS:
            return sum(self.advs[p])
        if cond == DOGS:
            return self.dogs_played[p]
        if cond == GOBLINS:
            return self.gob_won[p]
        if cond == RELICS:
            return sum(1 for t in self.won[p] if TILE_KIND[t] == RELIC)
        if cond == COIN_CARDS:
            return self.coin_cards[p]
        if cond == ACTIONS:
            return self.actions_played[p]
        assert cond == MAX_TILES
        return self.max_won[p]

    # -- the flow of a round -------------------------------------------------------------------
    def _start_round(self):
        """Preparation (p.2, p.6), then the deal of the draft (p.4; two players p.6)."""
        n = self.n
        for s in range(3):
            if self.round < ROUNDS:
                self.tmax[s] = self.max_stack.pop()
                self.tmin[s] = self.min_stack.pop()
            else:  # round 5: yellow scrolls drawn leave the game (p.6); an empty stack leaves the space empty
                self.tmax[s] = _draw_not_yellow(self.max_stack)
                self.tmin[s] = _draw_not_yellow(self.min_stack)
        self.gob_row = [self.gob_stack.pop() for _ in range(GOBLINS_PER_ROUND)]
        self.packet = [[] for _ in range(n)]
        self.own_pile = [[] for _ in range(n)]
        self.kept = [[] for _ in range(n)]  # newest first
        self.team = [[] for _ in range(n)]  # adventurers in the current contest, newest first
        self.advs = [[0, 0, 0] for _ in range(n)]  # adventurers played this round, per location
        self.total = [0] * n
        self.dogs_played = [0] * n
        self.coin_cards = [0] * n
        self.actions_played = [0] * n
        self.scare_paws = [0] * n
        self.immune = [False] * n
        self.max_won = [0] * n
        self.site = 0
        self._deal(self.packet)
        if n == 2:
            self._deal(self.own_pile)
            self._draw_own()
        self.draft_step = 0
        self.stage = KEEPING
        self.pending = list(range(n))

    def _deal(self, hands):
        deck = self.deck
        for _ in range(self.cards):
            for hand in hands:
                hand.append(deck.pop())

    def _draw_own(self):
        for p in range(self.n):
            self.packet[p].insert(0, self.own_pile[p].pop(0))

    def _pass_packets(self):
        """Left (to the next seat) in rounds 1, 3, 5, right in 2, 4 (p.4; A6)."""
        d = 1 if self.round % 2 == 1 else -1
        old, n = self.packet, self.n
        self.packet = [old[(p - d) % n] for p in range(n)]

    def _next_draft_step(self):
        n = self.n
        if n >= 3:
            self._pass_packets()
            self.draft_step += 1
            if self.draft_step < self.cards - 1:
                self.pending = list(range(n))
                return
            for p in range(n):  # the last card is kept without a choice
                self.kept[p][0:0] = self.packet[p]
                self.packet[p] = []
        elif self.stage == KEEPING:  # two players: keep one, then discard one face down (p.6)
            self.stage = DROPPING
            self.pending = list(range(n))
            return
        else:
            self._pass_packets()
            self.draft_step += 1
            if self.draft_step < self.cards:
                self._draw_own()
                self.stage = KEEPING
                self.pending = list(range(n))
                return
        self._start_contest(0)

    def _clockwise(self) -> list:
        return [(self.dealer + i) % self.n for i in range(self.n)]

    def _responders(self) -> list:
        """From the dealer clockwise, everyone who still has kept cards (A9)."""
        return [p for p in self._clockwise() if self.kept[p]]

    def _open(self, window, order):
        self.window = window
        if not order:
            self._close_window()
            return
        self.stage = WINDOW
        self.order, self.who, self.passes = order, 0, 0

    def _close_window(self):
        window = self.window
        if window == CONTEST:
            self._resolve_contest()
            if self.site < 2:
                self._start_contest(self.site + 1)
            else:
                self._open(GOBLIN_WINDOW, self._responders())
        elif window == GOBLIN_WINDOW:
            self._goblins()
            self._collect()
            self._open(SCROLL_WINDOW, [p for p in self._clockwise()
                                       if any(TILE_KIND[t] == YELLOW for t in self.won[p])])
        else:
            self._end_round()

    def _start_contest(self, s):
        """Every adventurer of the location is revealed and summed (p.4)."""
        self.site = s
        for p in range(self.n):
            kept = self.kept[p]
            team = [c for c in kept if CARD_SITE[c] == s]
            if team:
                self.kept[p] = [c for c in kept if CARD_SITE[c] != s]
                self.advs[p][s] += len(team)
            self.team[p] = team
            self.total[p] = sum(STRENGTH[c] for c in team)
        self._open(CONTEST, self._responders())

    def _resolve_contest(self):
        """Highest total takes MAX, lowest MIN; ties to the strongest single adventurer;
        a total of 0 or less does not compete (p.4; A1)."""
        s, total, team = self.site, self.total, self.team
        top, bottom = self.tmax[s], self.tmin[s]
        self.tmax[s] = self.tmin[s] = None
        competitors = [p for p in range(self.n) if team[p] and total[p] > 0]
        if not competitors:
            return  # both tiles leave the game
        hi = self._contest_winner(competitors, max(total[p] for p in competitors))
        lo = self._contest_winner(competitors, min(total[p] for p in competitors))
        if top is not None:
            self.max_won[hi] += 1
            self.won[hi].insert(0, top)
        if bottom is not None:
            self.won[lo].insert(0, bottom)

    def _contest_winner(self, competitors, value):
        leaders = [p for p in competitors if self.total[p] == value]
        return max(leaders, key=lambda p: max(STRENGTH[c] for c in self.team[p]))

    def _goblins(self):
        """Dogs are revealed; each goblin stronger than a player's paws takes its coins (or what
        there is, T-G9) unless a Mule protects them; the highest paws take the goblins they
        repelled with the coins on them, ties by discipline, then clockwise from the dealer
        (p.5; A3, A4)."""
        n, coins = self.n, self.coins
        paws = [0] * n
        discipline = [0] * n
        for p in range(n):
            kept = self.kept[p]
            dogs = [c for c in kept if CARD_KIND[c] == DOG]
            paws[p] = self.scare_paws[p]
            if dogs:
                self.kept[p] = [c for c in kept if CARD_KIND[c] != DOG]
                self.dogs_played[p] = len(dogs)
                paws[p] += sum(PAW[c] for c in dogs)
                discipline[p] = max(DISCIPLINE[c] for c in dogs)
        stakes = [0] * len(self.gob_row)
        for i, g in enumerate(self.gob_row):
            for p in range(n):
                if paws[p] < GOBLIN_PAW[g] and not self.immune[p]:
                    pay = min(GOBLIN_STEAL[g], coins[p])
                    coins[p] -= pay
                    stakes[i] += pay
        top = max(paws)
        boss = max((p for p in self._clockwise() if paws[p] == top), key=discipline.__getitem__)
        for i, g in enumerate(self.gob_row):
            if paws[boss] >= GOBLIN_PAW[g]:
                coins[boss] += stakes[i]
                self.gob_won[boss] += 1
        self.gob_row = []

    def _collect(self):
        """Coin cards pay (p.5); unused action cards are put aside."""
        for p in range(self.n):
            kept = self.kept[p]
            self.coins[p] += sum(COIN_VALUE[c] for c in kept)
            self.coin_cards[p] = sum(1 for c in kept if CARD_KIND[c] == COIN)
            self.kept[p] = []

    def _end_round(self):
        """All cards are reshuffled and the deal passes clockwise (p.6); the game ends after
        round 5."""
        self.round += 1
        self.dealer = (self.dealer + 1) % self.n
        if self.round > ROUNDS:
            self.stage = OVER
            return
        deck = list(range(CARD_COUNT))
        self.shuffle(deck)
        deck.reverse()  # the top at the end
        self.deck = deck
        self._start_round()


def _draw_not_yellow(stack):
    while stack:
        tile = stack.pop()
        if TILE_KIND[tile] != YELLOW:
            return tile
    return None


def playout(rnd: random.Random, players: int = 2, cards: int = 9) -> int:
    """One game of uniform random moves from a random deal; returns the moves played.
    Two players by default, as `load_game('treasure-hunter')` is."""
    game = TreasureHunter.random(players, rnd, cards)
    moves = 0
    while not game.over:
        legal = game.legal()
        game.apply(legal[rnd.randrange(len(legal))])
        moves += 1
    return moves


def kept_states(rnd: random.Random, players: int = 2, cards: int = 9) -> list:
    """Every position of one random game as a search would keep it: the game's fields
    (not its shuffler or move cache) with lists as tuples; what `meeple bench` weighs
    per kept state."""
    game = TreasureHunter.random(players, rnd, cards)
    kept = [_snapshot(game)]
    while not game.over:
        legal = game.legal()
        game.apply(legal[rnd.randrange(len(legal))])
        kept.append(_snapshot(game))
    return kept


def _snapshot(game) -> tuple:
    return tuple(_frozen(v) for k, v in vars(game).items() if k not in ("shuffle", "_moves"))


def _frozen(value):
    return tuple(_frozen(v) for v in value) if isinstance(value, list) else value


def compare_speed(players: int = 2, seconds: float = 3.0) -> dict:
    """Random playouts of the interpreter and of this baseline, `seconds` each, in this process."""
    from meeple.interpreter import load_game

    from .timing import _measure, engine_playout

    game = load_game("treasure-hunter", players=players)
    game.new_state(0)  # compile outside the timing
    p, m, t = _measure(engine_playout(game), seconds)
    bp, bm, bt = _measure(lambda rnd: playout(rnd, players), seconds)
    return {"players": players, "engine_playouts_per_s": p / t, "engine_moves_per_s": m / t,
            "baseline_playouts_per_s": bp / bt, "baseline_moves_per_s": bm / bt,
            "slowdown": (bp / bt) / (p / t)}


def main(argv=None):
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4, 5, 6])
    args = parser.parse_args(argv)
    print("| players | meeple playouts/s | meeple moves/s | hand-written playouts/s | hand-written moves/s "
          "| slowdown |")
    print("| --- | --- | --- | --- | --- | --- |")
    for k in args.players:
        r = compare_speed(k, args.seconds)
        print(f"| {k} | {r['engine_playouts_per_s']:,.1f} | {r['engine_moves_per_s']:,.0f} | "
              f"{r['baseline_playouts_per_s']:,.0f} | {r['baseline_moves_per_s']:,.0f} | {r['slowdown']:,.0f}× |",
              flush=True)


if __name__ == "__main__":
    main()
