"""Mutations of ruleset files, as careless and hostile authors make them.

Text edits work on any file (even one that no longer parses); tree edits parse the
YAML, change one value, key or expression, and write it back.  Every choice comes
from the `random.Random` given, so a seed reproduces a mutant exactly.
"""
from __future__ import annotations

import random
import re

import yaml

HOSTILE_TEXT = ["[", "]", "{", "}", ":", ": ", "- ", "&a ", "*a", "!foo ", "!!binary ", "<<: ",
                "|", ">", "#", "'", '"', "\\", "%", "@", "`", "\t", "\x00", "\x1b[31m", "\ufeff",
                "\u202e", "é", "💯", ":100:", "[bold]", "\r", "\n", "    ", "~", "null", "?"]
HOSTILE_BYTES = [b"\xe9", b"\xff\xfe", b"\xc3", b"\x80", b"\xed\xa0\x80"]
NUMBERS = ["0", "-1", "1", "2", "99", "100000", "1000000", "10**18", "1000000000000000000",
           "10000000000000000000", "1e400", "-0", "1.5", ".inf", ".nan", "0x10", "true", "null", "''"]
EXPR_TOKENS = [" in ", " not in ", " == ", " != ", " + ", " - ", " * ", " // ", " % ", " ** ", " and ",
               " or ", "not ", "(", ")", "[", "]", "{", "}", ",", ".", ":", "'", "range(100000)",
               "range(10**18)", "len(", "count(", "sum(", "max(", "min(", "sorted(", "[x for x in range(1000)]",
               " for i in range(1000)", " if ", " else ", "none", "true", "false", "10**18", "-10**18",
               "__class__", "__import__('os')", "lambda: 1", "f'{1}'", "[::-1]", "players()", "player",
               "nodes('nowhere')", "lines('board', 100000000)", "items('nothing')", "repeat(", "concat(",
               "sum_maps([{'a': 10**18}, {'a': 10**18}])", "{true: 1, 1: 2}", "[[[[[[[[]]]]]]]]"]
SHAPES = [None, True, False, 0, -1, 10**18, 10**19, 1.5, "", "x", "not a thing", [], [None], {}, {"x": 1},
          [[[[[[[[[[]]]]]]]]]], list(range(50)), "a" * 5000, {"<<": None}, "players()", "range(100000)"]
KEY_WORDS = ["per", "type", "initial", "when", "expr", "do", "then", "else", "from", "to", "count",
             "items", "players", "face", "visibility", "choices", "params", "require", "effects", "rule",
             "label", "labels", "id", "generate", "fields", "props", "sides", "grid", "rows", "cols",
             "diagonal", "nodes", "edges", "move", "deal", "shuffle", "set", "if", "for", "emit", "let",
             "loop", "while", "until", "times", "turns", "choose", "respond", "simultaneous", "chance",
             "phase", "score", "winners", "tiebreak", "check", "reason", "after", "on", "each", "x-any",
             "bogus", "fase", "colour", "min", "max", "bounds", "kind", "cost", "then_required", "name"]


def mutate_files(files: dict[str, bytes], rng: random.Random) -> dict[str, bytes]:
    """One to three mutations, each on a file chosen with weight by its size."""
    out = dict(files)
    names = sorted(out)
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        name = rng.choices(names, weights=[len(out[n]) + 1 for n in names])[0]
        out[name] = mutate_bytes(out[name], rng)
    return out


def mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    if rng.random() < 0.08:
        return _byte_edit(data, rng)
    text = data.decode("utf-8", errors="replace")
    if rng.random() < 0.55:
        tree = _parse(text)
        if tree is not None:
            edited = _tree_edit(tree, rng)
            return yaml.safe_dump(edited, sort_keys=False, allow_unicode=True, width=10**6).encode()
    return _text_edit(text, rng).encode("utf-8", errors="surrogatepass")


def _parse(text: str):
    try:
        return yaml.safe_load(text)
    except (yaml.YAMLError, RecursionError):
        return None


# -- bytes and text ------------------------------------------------------------------------

def _byte_edit(data: bytes, rng: random.Random) -> bytes:
    at = rng.randrange(len(data) + 1)
    op = rng.randrange(3)
    if op == 0:
        return data[:at] + rng.choice(HOSTILE_BYTES) + data[at:]
    if op == 1:
        return data[:at]
    return data.decode("utf-8", errors="replace").encode(rng.choice(["utf-16", "utf-16-le", "latin-1"]),
                                                           errors="replace")


def _text_edit(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    op = rng.randrange(9)
    if op == 0 and len(lines) > 1:
        del lines[i]
    elif op == 1:
        lines.insert(i, lines[i])
    elif op == 2:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif op == 3:
        lines[i] = " " * rng.choice((1, 2, 4)) + lines[i] if rng.random() < 0.5 else lines[i].lstrip()
    elif op == 4:
        at = rng.randrange(len(lines[i]) + 1)
        lines[i] = lines[i][:at] + rng.choice(HOSTILE_TEXT) + lines[i][at:]
    elif op == 5:
        numbers = list(re.finditer(r"\b\d+\b", lines[i]))
        if numbers:
            m = rng.choice(numbers)
            lines[i] = lines[i][:m.start()] + rng.choice(NUMBERS) + lines[i][m.end():]
    elif op == 6:
        words = list(re.finditer(r"\b[a-z_]{2,}\b", lines[i]))
        if words:
            m = rng.choice(words)
            lines[i] = lines[i][:m.start()] + rng.choice(KEY_WORDS + [_typo(m.group(), rng)]) + lines[i][m.end():]
    elif op == 7:
        return "\n".join(lines)[: rng.randrange(len(text) + 1)]
    else:
        block = rng.choice([
            "x-a: &a [1, 2, 3]\nzz: *a\n", "x-b: &b {players: 2}\n", "x-bomb: &c [*c]\n",
            "x-deep: " + "[" * 70 + "]" * 70 + "\n", "? [a, b]\n: c\n", "---\nsecond: doc\n",
            "game: {name: again, players: 2}\n", "%YAML 1.1\n", "x-tag: !!python/object/apply:os.system [ls]\n"])
        lines.insert(i, block)
    return "\n".join(lines)


def _typo(word: str, rng: random.Random) -> str:
    if len(word) < 2:
        return word + "x"
    i = rng.randrange(len(word) - 1)
    return word[:i] + word[i + 1] + word[i] + word[i + 2:]


# -- the parsed tree -----------------------------------------------------------------------

def _places(tree) -> list[tuple]:
    """Every (container, key) in the tree, the root's own slot included."""
    out, stack, seen = [], [tree], set()
    while stack:
        node = stack.pop()
        if id(node) in seen:  # an alias may make the tree a cycle
            continue
        seen.add(id(node))
        if isinstance(node, dict):
            for k, v in node.items():
                out.append((node, k))
                stack.append(v)
        elif isinstance(node, list):
            for i, v in enumerate(node):
                out.append((node, i))
                stack.append(v)
    return out


def _tree_edit(tree, rng: random.Random):
    places = _places(tree)
    if not places:
        return rng.choice(SHAPES)
    container, key = rng.choice(places)
    value = container[key]
    op = rng.randrange(8)
    if op == 0:
        container[key] = rng.choice(SHAPES)
    elif op == 1 and isinstance(container, dict):
        del container[key]
    elif op == 1:
        container.pop(key)
    elif op == 2 and isinstance(container, dict):
        container[rng.choice(KEY_WORDS)] = rng.choice(SHAPES + [value])
    elif op == 3 and isinstance(value, str):
        container[key] = _expr_edit(value, rng)
    elif op == 4:
        other_container, other_key = rng.choice(places)
        other = other_container[other_key]
        if other is not value and not _contains(value, other) and not _contains(other, value):
            container[key] = other  # a subtree copied somewhere it does not belong
    elif op == 5 and isinstance(value, (int, float)) and not isinstance(value, bool):
        container[key] = rng.choice([0, -1, -value, value * 1000, 10**18, 10**19, 2**63, 1.5])
    elif op == 6 and isinstance(container, dict):
        new = _typo(str(key), rng) if rng.random() < 0.5 else rng.choice(KEY_WORDS)
        container[new] = container.pop(key)
    elif isinstance(value, str):
        container[key] = _expr_edit(value, rng)
    else:
        container[key] = rng.choice(SHAPES)
    return tree


def _contains(tree, node) -> bool:
    stack, seen = [tree], set()
    while stack:
        t = stack.pop()
        if t is node:
            return True
        if id(t) in seen:
            continue
        seen.add(id(t))
        if isinstance(t, dict):
            stack += list(t.values())
        elif isinstance(t, list):
            stack += t
    return False


def _expr_edit(text: str, rng: random.Random) -> str:
    op = rng.randrange(5)
    at = rng.randrange(len(text) + 1)
    if op == 0 and text:
        end = min(len(text), at + rng.randrange(1, 4))
        return text[:at] + text[end:]
    if op == 1:
        return text[:at] + rng.choice(EXPR_TOKENS) + text[at:]
    if op == 2:
        tokens = re.findall(r"\w+|\S", text)
        if len(tokens) > 1:
            i, j = rng.randrange(len(tokens)), rng.randrange(len(tokens))
            tokens[i], tokens[j] = tokens[j], tokens[i]
            return " ".join(tokens)
    if op == 3:
        return rng.choice(["count(i for i in range(100000) if i in range(100000))",
                           f"[{text}] * 100000", f"({text}) == ({text})", f"sum_maps([{text}])",
                           f"{text} if {text} else {text}", "[[[[[[[[[[[[[[[[[[[[" + text + "]]]]]]]]]]]]]]]]]]]]"])
    return re.sub(r"\b\d+\b", lambda m: rng.choice(NUMBERS), text, count=1)
