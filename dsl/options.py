"""A game's options, typed when the ruleset is read.

An option's type is the type of its default: `rounds: {default: 5}` is an int, so
`options.rounds + 'x'` is T401 before any game runs, each of its `choices` must be an
int (T411) and the default one of them (S105), and a game given `rounds=2.5` or
`rounds='five'` is refused when it is created.  A number with a fraction part is S125
where it is written (schema/shape.py): the language's numbers are whole, and a score
that is not whole is made with `fraction(a, b)`.
"""
from __future__ import annotations

import itertools

from . import expr_ast as A
from .diagnostics import Diagnostic
from .scope import Symbol
from .source import plain, span_of
from .types import ANY, BOOL, INT, STR, Type, list_of, map_of


def is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def option_type(value) -> Type:
    """The language's type of an option's value as written (YAML, JSON or Python data):
    a list's (or mapping's) elements share a type when they all have one, else `any`."""
    if isinstance(value, bool):
        return BOOL
    if is_int(value):
        return INT
    if isinstance(value, str):
        return STR
    if isinstance(value, (list, tuple)):
        return list_of(_common(option_type(v) for v in value))
    if isinstance(value, dict):
        return map_of(_common(option_type(k) for k in value), _common(option_type(v) for v in value.values()))
    return ANY


def _common(types) -> Type:
    found = set(types)
    return found.pop() if len(found) == 1 else ANY


def fits_option(value, t: Type) -> bool:
    """Whether a value given for an option (from the command line, a scenario, Python)
    has the option's type, all the way down."""
    if t.name == "any":
        return not isinstance(value, float)
    if t.name == "int":
        return is_int(value)
    if t.name == "bool":
        return isinstance(value, bool)
    if t.name == "str":
        return isinstance(value, str)
    if t.name == "list":
        return isinstance(value, (list, tuple)) and all(fits_option(v, t.args[0]) for v in value)
    if t.name == "map":
        return isinstance(value, dict) and all(fits_option(k, t.args[0]) and fits_option(v, t.args[1])
                                               for k, v in value.items())
    return False


def type_name(t: Type) -> str:
    """How a message names an option's type to an author."""
    return {"int": "a whole number", "bool": "true or false", "str": "a text"}.get(t.name) or \
        ("a list" if t.name == "list" else "a mapping" if t.name == "map" else f"a value of type {t}")


def options_symbol(options: dict, span) -> Symbol:
    """The name `options` in expressions: a map of texts, whose declared keys (N305) and
    their types (`options.rounds` is an int) the checker knows.  `options` maps each
    name to its OptionDecl, or to its default value."""
    defaults = {name: getattr(o, "default", o) for name, o in options.items()}
    return Symbol("options", map_of(STR, ANY), lambda ctx: ctx.options, "const", span,
                  meta={"keys": sorted(defaults), "types": {n: option_type(v) for n, v in defaults.items()}})


MAX_CHOICE_SETS = 256  # the most combinations of option choices tried at load (a grid's size, a generate)


def options_read(expr) -> set[str] | None:
    """The options an expression reads by name (`options.size`, `options['size']`), or
    None when it reads `options` some other way (all of them, or by a computed key)."""
    named: set[str] = set()
    uses = reads = 0
    for n in A.walk(expr):
        if isinstance(n, A.Name) and n.name == "options":
            uses += 1
        elif isinstance(n, (A.Member, A.Index)) and isinstance(n.obj, A.Name) and n.obj.name == "options":
            key = n.name if isinstance(n, A.Member) else getattr(n.index, "value", None)
            if isinstance(key, str) and (isinstance(n, A.Member) or isinstance(n.index, A.Const)):
                named.add(key)
                reads += 1
    return named if uses == reads else None


def choice_sets(read: set, declared: dict) -> list[dict] | None:
    """Every combination of the declared choices of the options `read` (each choice of its
    option's type: another is T411 already), as {name: value}, for what the ruleset works
    out from the options to be tried with each when it is read.  None when one of them
    declares no choices (any value may come), or when there are more than MAX_CHOICE_SETS."""
    names = sorted(read)
    if any(n not in declared or declared[n].choices is None for n in names):
        return None
    kept = [[c for c in declared[n].choices if fits_option(c, option_type(declared[n].default))] for n in names]
    sets = list(itertools.islice(itertools.product(*kept), MAX_CHOICE_SETS + 1))
    if len(sets) > MAX_CHOICE_SETS:
        return None
    return [dict(zip(names, chosen)) for chosen in sets]


def check_option(name: str, decl, default_span) -> list[Diagnostic]:
    """An option's choices each of its default's type (T411), and the default one of them
    (S105).  `decl` is the option's mapping as read, whose values know where they stand."""
    default, choices = plain(decl.get("default")), decl.get("choices")
    if default is None or _has_fraction(default) or not isinstance(choices, list) or any(map(_has_fraction, choices)):
        return []  # nothing, or a number with a fraction part: reported by the shape pass
    t, out = option_type(default), []
    spans = getattr(choices, "item_spans", None) or [span_of(choices, decl.span)] * len(choices)
    for choice, span in zip(choices, spans):
        if not fits_option(plain(choice), t):
            out.append(Diagnostic("T411", f"option '{name}' is {type_name(t)} (its default is {default!r}), so "
                                  f"each of its choices must be one too, not {plain(choice)!r}", span))
    if not out and not any(type(plain(c)) is type(default) and plain(c) == default for c in choices):
        out.append(Diagnostic("S105", f"the default of option '{name}', {default!r}, is not one of its choices "
                              f"{plain(choices)}", default_span))
    return out


def _has_fraction(value) -> bool:
    if isinstance(value, float):
        return True
    if isinstance(value, (list, tuple)):
        return any(map(_has_fraction, value))
    if isinstance(value, dict):
        return any(map(_has_fraction, value.values()))
    return False


__all__ = ["MAX_CHOICE_SETS", "check_option", "choice_sets", "options_read", "fits_option", "option_type", "options_symbol", "type_name"]
