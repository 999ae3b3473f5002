"""Treasure Hunter's component data as plain tuples, for the hand-written baseline.

The same 75 cards, 54 treasure tiles and 22 goblins as `rulesets/treasure-hunter/
components.yaml` (README assumptions T-G1 to T-G7), in the same order, so that
index i here is the i-th item of `items('card')` there.  An item printed more than
once is named `ID-1`, `ID-2`, ... as the ruleset names it.  Columns are parallel
tuples indexed by the item's number, which is what the rules module reads in its
inner loops.
"""
from __future__ import annotations

SITES = ("frost", "jungle", "lava")  # resolved in this order (p.4)
NO_SITE = -1

# Card kinds and action-card acts.
ADVENTURER, COIN, DOG, ACTION = range(4)
NO_ACT, SWORD, BLADE, ANIMAL, TRAP, DISPEL, SCOUT, SCARER, MULE = range(9)


def _named(name: str, count: int) -> list[str]:
    return [name] if count == 1 else [f"{name}-{k}" for k in range(1, count + 1)]


def _cards():
    """(name, kind, site, strength, coin, paw, discipline, act) for the 75 cards."""
    out = []
    for site, letter in enumerate("BGR"):  # adventurers 1-12 per location (p.1, p.3)
        out += [(f"{letter}{s}", ADVENTURER, site, s, 0, 0, 0, NO_ACT) for s in range(1, 13)]
    for name, value in (("CU", 1), ("AG", 2), ("AU", 3)):  # coin cards, T-G1
        out += [(n, COIN, NO_SITE, 0, value, 0, 0, NO_ACT) for n in _named(name, 4)]
    dogs = ((1, 12), (1, 11), (1, 10), (2, 9), (2, 8), (2, 7), (2, 6), (3, 5), (3, 4), (3, 3), (4, 2), (4, 1))
    out += [(f"D{i}", DOG, NO_SITE, 0, 0, paw, disc, NO_ACT) for i, (paw, disc) in enumerate(dogs, 1)]  # T-G2
    actions = (("SWORD", 3, 4, SWORD), ("BLADE", 1, 8, BLADE), ("ANIMAL", 2, 0, ANIMAL), ("TRAP", 2, 2, TRAP),
               ("DISPEL", 2, 0, DISPEL), ("SCOUT", 2, 0, SCOUT), ("SCARER", 2, 3, SCARER), ("MULE", 1, 0, MULE))
    for name, count, strength, act in actions:  # T-G4; a sword's or blade's bonus is its strength
        out += [(n, ACTION, NO_SITE, strength, 0, 0, 0, act) for n in _named(name, count)]
    return out


CARD_NAME, CARD_KIND, CARD_SITE, STRENGTH, COIN_VALUE, PAW, DISCIPLINE, ACT = (tuple(col) for col in zip(*_cards()))
CARD_COUNT = len(CARD_NAME)  # 75

# Treasure tiles.
RELIC, YELLOW, GREY = range(3)
# What a scroll counts (T-G6 yellow, T-G7 grey).
(TEAM_FROST, TEAM_JUNGLE, TEAM_LAVA, ADVENTURERS, DOGS, GOBLINS, RELICS, COIN_CARDS, ACTIONS, MAX_TILES,
 CLEAN, WEALTH) = range(12)


def _treasures():
    """(name, kind, value, condition, coins per count) for the 54 tiles."""
    relics = (1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 7, 7, 8, 8, 9, 10, 11, 12)  # T-G5
    out = [(f"RELIC{i:02d}", RELIC, v, -1, 0) for i, v in enumerate(relics, 1)]
    out += [(f"JUNK{i}", RELIC, -i, -1, 0) for i in range(1, 6)]
    yellows = (("TEAM-B", TEAM_FROST, 2), ("TEAM-G", TEAM_JUNGLE, 2), ("TEAM-R", TEAM_LAVA, 2),
               ("CREW", ADVENTURERS, 1), ("KENNEL", DOGS, 2), ("HUNT", GOBLINS, 2), ("MUSEUM", RELICS, 1),
               ("MINT", COIN_CARDS, 2), ("TRICKS", ACTIONS, 2), ("GLORY", MAX_TILES, 3))
    for name, cond, per in yellows:
        out += [(n, YELLOW, 0, cond, per) for n in _named(name, 2)]
    out += [("GREY-GOB", GREY, 0, GOBLINS, 2), ("GREY-REL", GREY, 0, RELICS, 1), ("GREY-CLEAN", GREY, 0, CLEAN, 5),
            ("GREY-RICH", GREY, 0, WEALTH, 1)]
    return out


TILE_NAME, TILE_KIND, TILE_VALUE, TILE_COND, TILE_PER = (tuple(col) for col in zip(*_treasures()))
TILE_COUNT = len(TILE_NAME)  # 54
STACK_SPLIT = 27  # two equal stacks (p.2): the top 27 become the MIN stack


def _goblins():
    """(name, paw, coins stolen) for the 22 goblins, T-G3."""
    out = []
    for paw, (count, steal) in enumerate(((4, 1), (5, 1), (5, 2), (4, 2), (3, 3), (1, 3)), 1):
        out += [(n, paw, steal) for n in _named(f"GOB{paw}", count)]
    return out


GOBLIN_NAME, GOBLIN_PAW, GOBLIN_STEAL = (tuple(col) for col in zip(*_goblins()))
GOBLIN_COUNT = len(GOBLIN_NAME)  # 22
