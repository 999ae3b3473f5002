"""Fuzzing saves and replay logs: seeded random mutations of real files, each read the
way the command line reads it.

A case is one real save or log (from a short seeded bot game of goofspiel, which has
items, hidden zones, a chance step, a simultaneous choice and invariants, or of
tic-tac-toe, whose board cells are a keyed variable) with one to three mutations:
values replaced by other JSON (other kinds, extreme numbers, deep nesting), keys and
list entries dropped, duplicated or swapped, numbers nudged, the text cut short or
given stray bytes, log lines dropped, doubled or swapped.  Each case must end in
"ok" (read, and play goes on: one more move is applied) or "corrupt" (CorruptFile);
anything else is a "traceback".  A third of the saves lose their moves first, so that
the field checks alone stand between the file and play ("unverified": the Python API
reads such a save, the command line refuses it).  A case over 10 s is also counted as "slow".

    python -m meeple.benchmarks.fuzz_files --kind save -n 1000 --seed 0
    python -m meeple.benchmarks.fuzz_files --kind log -n 1000 --seed 0
"""
from __future__ import annotations

import argparse
import copy
import json
import random
import tempfile
import time
import traceback
from collections import Counter
from functools import lru_cache
from pathlib import Path

from meeple.interpreter import load_game
from meeple.interpreter.runtime.context import RuleError
from meeple.interpreter.persistence.saves import CorruptFile, game_for_log, read_log, read_save, replay, save_state, write_log

SLOW_SECONDS = 10.0
BASES = (("goofspiel", 2, {"cards": 5}), ("tic-tac-toe", 2, {}))


# -- the real files mutated ------------------------------------------------------------------
@lru_cache(maxsize=None)
def base_files(which: int) -> tuple[str, str]:
    """A save taken in the middle of a seeded bot game, and the log of the whole game."""
    name, players, options = BASES[which]
    game = load_game(name, players, options)
    chooser = random.Random(which)
    state, moves, middle = game.new_state(7), [], None
    while not game.is_terminal(state):
        legal = game.legal_moves(state)
        moves.append(legal[chooser.randrange(len(legal))])
        state = game.apply(state, moves[-1])
        if len(moves) == 3:
            middle = (state, list(moves))
    with tempfile.TemporaryDirectory() as folder:
        save, log = Path(folder) / "s.json", Path(folder) / "g.jsonl"
        save_state(game, middle[0], save, 7, middle[1])
        write_log(log, game, 7, moves, state)
        return save.read_text(encoding="utf-8"), log.read_text(encoding="utf-8")


@lru_cache(maxsize=None)
def game_of(which: int):
    """One Game per base, as a long-running program keeps it (reading YAML is not the test)."""
    name, players, options = BASES[which]
    return load_game(name, players, options)


# -- mutations ---------------------------------------------------------------------------------
def random_json(rnd: random.Random, depth: int = 0):
    roll = rnd.randrange(12)
    if roll == 0:
        return None
    if roll == 1:
        return rnd.choice([True, False])
    if roll == 2:
        return rnd.choice([0, 1, -1, 2, 7, 2**63, 2**64, -2**64, 10**30])
    if roll == 3:
        return rnd.choice([0.5, -1.0, 1e308, 7.0])
    if roll == 4:
        return rnd.choice(["", "x", "R5", "up", "down", "no", "$item", "../../etc/passwd", "\u0000", "é" * 50])
    if roll == 5:
        return {rnd.choice(["$item", "$map", "$pairs", "$set", "$list", "$x"]): random_json(rnd, depth + 1)}
    if roll == 6:
        return {"$item": rnd.choice(["B1", "P3", "Z9", "", 5])}
    if roll == 7 and depth < 3:
        return [random_json(rnd, depth + 1) for _ in range(rnd.randrange(4))]
    if roll == 8 and depth < 3:
        return {rnd.choice(["a", "vars", "pc", "0"]): random_json(rnd, depth + 1) for _ in range(rnd.randrange(3))}
    if roll == 9:
        n = rnd.choice([50, 250, 5000])
        return json.loads("[" * n + "]" * n) if n < 900 else {"deep": "[" * n}
    return rnd.randrange(-3, 40)


def _nodes(data, path=()):
    """Every (container, key) in a JSON value, depth first."""
    if isinstance(data, dict):
        for k in list(data):
            yield data, k
            yield from _nodes(data[k], path + (k,))
    elif isinstance(data, list):
        for i in range(len(data)):
            yield data, i
            yield from _nodes(data[i], path + (i,))


def mutate_data(rnd: random.Random, data):
    """One structural mutation of parsed JSON, in place (the root itself is never replaced)."""
    nodes = list(_nodes(data))
    if not nodes:
        return
    parent, key = rnd.choice(nodes)
    old = parent[key]
    roll = rnd.randrange(10)
    if roll >= 8:  # a value from elsewhere in the same file: plausible, and wrong here
        source_parent, source_key = rnd.choice(nodes)
        parent[key] = copy.deepcopy(source_parent[source_key])
    elif roll == 0:
        del parent[key]
    elif roll == 1 and isinstance(parent, list):
        parent.insert(key, copy.deepcopy(old))  # a duplicate: an item in two places, say
    elif roll == 2 and isinstance(parent, list) and len(parent) > 1:
        other = rnd.randrange(len(parent))
        parent[key], parent[other] = parent[other], parent[key]
    elif roll == 3 and isinstance(old, int) and not isinstance(old, bool):
        parent[key] = old + rnd.choice([-1, 1, -old - 1, 2**64, 10**6])
    elif roll == 4 and isinstance(old, bool):
        parent[key] = rnd.choice([not old, int(old), str(old)])
    elif roll == 5 and isinstance(old, str):
        parent[key] = rnd.choice([old[:-1], old + "x", old.upper(), "", old.replace("=", "=9")])
    else:
        parent[key] = random_json(rnd)


def mutate_text(rnd: random.Random, text: str) -> bytes:
    """One mutation of the raw text: cut short, stray bytes, or deep nesting spliced in."""
    raw = text.encode("utf-8")
    at = rnd.randrange(len(raw) + 1)
    roll = rnd.randrange(4)
    if roll == 0:
        return raw[:at]
    if roll == 1:
        return raw[:at] + bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 4))) + raw[at:]
    if roll == 2:
        n = rnd.choice([300, 100_000])
        return raw[:at] + b"[" * n + b"]" * n + raw[at:]
    return raw[:at] + raw[at + rnd.randrange(1, 20):]


def mutated_save(rnd: random.Random, which: int) -> bytes:
    save, _ = base_files(which)
    if rnd.random() < 0.15:
        return mutate_text(rnd, save)
    data = json.loads(save)
    if rnd.random() < 0.3:
        del data["moves"]  # unverified: the field checks are all that stand in the way
    for _ in range(rnd.randrange(1, 4)):
        mutate_data(rnd, data)
    return json.dumps(data).encode("utf-8")


def mutated_log(rnd: random.Random, which: int) -> bytes:
    _, log = base_files(which)
    if rnd.random() < 0.15:
        return mutate_text(rnd, log)
    lines = log.splitlines()
    for _ in range(rnd.randrange(1, 4)):
        i = rnd.randrange(len(lines))
        roll = rnd.randrange(5)
        if roll == 0:
            del lines[i]
            if not lines:
                break
        elif roll == 1:
            lines.insert(i, lines[i])
        elif roll == 2:
            j = rnd.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        else:
            record = json.loads(lines[i])
            mutate_data(rnd, record)
            lines[i] = json.dumps(record)
    return ("\n".join(lines) + "\n").encode("utf-8")


# -- one case ----------------------------------------------------------------------------------
def check_save(raw: bytes, which: int, folder: Path) -> str:
    """'ok' (read and verified, and one more move applied), 'unverified' (a save without
    its moves, which only the Python API reads: read, and one more move applied; the
    command line refuses it with D010) or 'corrupt'; any other exception escapes."""
    game = game_of(which)
    path = folder / "case.json"
    path.write_bytes(raw)
    try:
        saved = read_save(game, path)
    except CorruptFile as exc:
        return f"corrupt {exc.code}"
    if not game.is_terminal(saved.state):
        game.apply(saved.state, game.legal_moves(saved.state)[0])
    return "ok" if saved.verified else "unverified"


def check_log(raw: bytes, which: int, folder: Path) -> str:
    """'ok' (replayed to the end), 'diverged' (a move no longer legal, or another final
    state: exit 1) or 'corrupt'; any other exception escapes to the caller."""
    path = folder / "case.jsonl"
    path.write_bytes(raw)
    try:
        log = read_log(path)
        game = game_for_log(log, path)
    except CorruptFile as exc:
        return f"corrupt {exc.code}"
    result = replay(game, log)
    return "diverged" if result.diverged_at is not None or result.final_matches is False else "ok"


def run(kind: str, n: int, seed: int) -> dict:
    """`n` seeded cases of `kind` ('save' or 'log'): counts of each outcome, the codes of
    the corrupt ones, the slowest case, and the first few tracebacks (with their case)."""
    mutate, check = (mutated_save, check_save) if kind == "save" else (mutated_log, check_log)
    counts, codes, failures = Counter(), Counter(), []
    worst = (0.0, None)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for case in range(n):
            rnd = random.Random(f"{seed}:{case}")
            which = rnd.randrange(len(BASES))
            raw = mutate(rnd, which)
            started = time.perf_counter()
            try:
                outcome = check(raw, which, folder)
            except RuleError as exc:  # the rules failed: a clean error, not the file's fault
                outcome = f"rule error {exc.code}"
            except Exception:  # noqa: BLE001 - the fuzzer's job is to count these
                outcome = "traceback"
                if len(failures) < 5:
                    failures.append({"case": case, "base": BASES[which][0], "error": traceback.format_exc(limit=3)})
            took = time.perf_counter() - started
            worst = max(worst, (took, case), key=lambda w: w[0])
            head = outcome.split(" ")[0] if outcome.startswith("corrupt") else outcome
            counts[head] += 1
            if outcome.startswith("corrupt"):
                codes[outcome.split(" ")[1]] += 1
            if took > SLOW_SECONDS:
                counts["slow"] += 1
    return {"kind": kind, "cases": n, "seed": seed,
            **{k: counts.get(k, 0) for k in ("ok", "unverified", "diverged", "corrupt", "traceback", "slow")},
            "rule_errors": sum(v for k, v in counts.items() if k.startswith("rule error")),
            "corrupt_by_code": dict(sorted(codes.items())), "worst_seconds": round(worst[0], 3),
            "worst_case": worst[1], "tracebacks": failures}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kind", choices=("save", "log"), default="save")
    parser.add_argument("-n", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    summary = run(args.kind, args.n, args.seed)
    summary["total_seconds"] = round(time.perf_counter() - started, 1)
    if args.json:
        print(json.dumps(summary, indent=1))
        return
    print(f"{summary['cases']} mutated {args.kind}s (seed {args.seed}) in {summary['total_seconds']} s: "
          f"ok {summary['ok']}, " + (f"unverified {summary['unverified']}, " if args.kind == "save" else
                                    f"diverged {summary['diverged']}, ") + f"corrupt {summary['corrupt']}, "
          f"traceback {summary['traceback']}, slow (> {SLOW_SECONDS:g} s) {summary['slow']}, "
          f"rule errors {summary['rule_errors']}")
    print(f"worst case: {summary['worst_seconds']} s (case {summary['worst_case']})")
    print("corrupt by code: " + ", ".join(f"{k} {v}" for k, v in summary["corrupt_by_code"].items()))
    for f in summary["tracebacks"]:
        print(f"\ncase {f['case']} ({f['base']}):\n{f['error']}")


if __name__ == "__main__":
    main()
