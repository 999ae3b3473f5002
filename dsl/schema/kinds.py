"""The vocabulary the ruleset language is described in: kinds of values and keys.

Plain frozen dataclasses, no behaviour: `language.py` uses them to declare every
section and key, `shape.py` walks a ruleset against them, and an exporter (issue
17) can turn them into JSON Schema.  A kind says which YAML shapes a value may
take; what the value *means* (a zone, a type, a node) is checked later, by the
builders and the static checks.
"""
from __future__ import annotations

from dataclasses import dataclass, field


class Kind:
    """Base of every kind; `label` is how a diagnostic names what was expected."""

    label = "a value"


@dataclass(frozen=True)
class Text(Kind):
    """A text.  YAML numbers are taken as their text (`edition: 2`, `id: 7`)."""

    label: str = "a text"


@dataclass(frozen=True)
class Name(Kind):
    """A name the ruleset declares or refers to (a variable, an action, a phase, a
    parameter...): the grammar of dsl/identifiers.py, N310 otherwise.  Names are
    what the compiled back end turns into identifiers, so no other text may be one."""

    label: str = "a name"


@dataclass(frozen=True)
class Integer(Kind):
    label: str = "an integer"


@dataclass(frozen=True)
class Boolean(Kind):
    label: str = "true or false"


@dataclass(frozen=True)
class Expression(Kind):
    """An expression of expressions.md: a text, or a YAML number, boolean or list
    of plain values (read as a literal)."""

    label: str = "an expression"


@dataclass(frozen=True)
class Target(Kind):
    """The left side of an assignment or a zone written to: a name with
    `[key]`/`.field` steps, as text."""

    label: str = "a target such as hand[player]"


@dataclass(frozen=True)
class Assignment(Kind):
    label: str = "an assignment such as \"x += 1\""


@dataclass(frozen=True)
class TypeName(Kind):
    """A declared type written as text: `int`, `list[str]`, `item[card]`."""

    label: str = "a type name"


@dataclass(frozen=True)
class Data(Kind):
    """A plain YAML value kept as data: a number, text, boolean, list or mapping."""

    label: str = "a value"


@dataclass(frozen=True)
class Scalar(Kind):
    """A plain number, text or boolean (not a fraction, a list or a mapping)."""

    label: str = "a number, a text or true/false"


@dataclass(frozen=True)
class OptionScalar(Scalar):
    """A plain value of a game's option.  Options are values of the language, whose
    numbers are whole, and an option's type is fixed by its default when the ruleset is
    read: a number with a fraction part (2.5) has a code of its own where it is written,
    rather than stopping a game when an expression first combines it with an int."""

    label: str = "a whole number, a text or true/false"
    fraction_code: str = "S125"


@dataclass(frozen=True)
class Choice(Kind):
    """One of a fixed set of words (S105 otherwise)."""

    values: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        return "one of " + ", ".join(self.values)


@dataclass(frozen=True)
class Literal(Kind):
    """Exactly this YAML value, e.g. `true` in `end_game: true`."""

    value: object = True

    @property
    def label(self) -> str:
        return {True: "true", False: "false", None: "nothing"}.get(self.value, repr(self.value))


@dataclass(frozen=True)
class ListOf(Kind):
    item: Kind = field(default_factory=Data)
    label: str = "a list"


@dataclass(frozen=True)
class MapOf(Kind):
    """A mapping from keys the author chooses to values of one kind.  `keys`: the kind
    of its keys when they are declared names (Name); None leaves them free text
    (citations, languages, node names)."""

    value: Kind = field(default_factory=Data)
    label: str = "a mapping"
    keys: Kind | None = None


@dataclass(frozen=True)
class Tuple(Kind):
    """A short list with a kind per position; the last `optional` ones may be left out."""

    items: tuple[Kind, ...] = ()
    optional: int = 0
    label: str = "a list"


@dataclass(frozen=True)
class OneOf(Kind):
    """Several accepted shapes; the first whose YAML form fits the value is used."""

    options: tuple[Kind, ...] = ()
    label: str = "a value"


@dataclass(frozen=True)
class Key:
    name: str
    kind: Kind
    required: bool = False
    doc: str = ""


@dataclass(frozen=True)
class Record(Kind):
    """A mapping with a fixed set of keys.  `extra`: the kind of any other key
    (item fields, sides); None means other keys are unknown (S101)."""

    what: str = "a mapping"
    keys: tuple[Key, ...] = ()
    extra: Kind | None = None
    doc: str = ""
    at_least_one: tuple[tuple[str, ...], ...] = ()  # S102 when none of these keys is given
    at_most_one: tuple[tuple[str, ...], ...] = ()  # S106 when several of these are given
    needs: tuple[tuple[str, str], ...] = ()  # (a, b): giving a requires b (S102)

    @property
    def label(self) -> str:
        return "a mapping"

    def key(self, name: str) -> Key | None:
        for k in self.keys:
            if k.name == name:
                return k
        return None

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(k.name for k in self.keys)


@dataclass(frozen=True)
class Variant:
    """One keyword of an effect or flow step: the kind of the keyword's own value
    (`head`) and its modifiers.  With `inline`, the head may instead be a mapping
    of the modifiers plus `inline` keys (`move: {from: deck, to: hand}`)."""

    keyword: str
    head: Kind
    modifiers: tuple[Key, ...] = ()
    doc: str = ""
    inline: tuple[Key, ...] = ()
    at_most_one: tuple[tuple[str, ...], ...] = ()  # S106 when several of these are given

    def modifier(self, name: str) -> Key | None:
        for k in self.modifiers + self.inline:
            if k.name == name:
                return k
        return None


@dataclass(frozen=True)
class Keyworded(Kind):
    """A mapping with exactly one keyword key plus that keyword's modifiers and the
    `common` keys (effects, flow steps).  `bare`: the kind of a value written
    without a mapping (a bare assignment string is a `set` effect)."""

    what: str = "a mapping"
    variants: tuple[Variant, ...] = ()
    common: tuple[Key, ...] = ()
    bare: Kind | None = None

    @property
    def label(self) -> str:
        return f"{self.what} such as {{{self.variants[0].keyword}: ...}}" if self.variants else self.what

    def variant(self, keyword: str) -> Variant | None:
        for v in self.variants:
            if v.keyword == keyword:
                return v
        return None

    @property
    def keywords(self) -> tuple[str, ...]:
        return tuple(v.keyword for v in self.variants)


@dataclass(frozen=True)
class Ref(Kind):
    """A kind declared elsewhere by name, for recursive kinds (a flow step holds flow steps)."""

    name: str = ""
    label: str = "a value"
