"""The ruleset as built from YAML: plain records, every one with its span.

Expressions are kept as parsed ASTs (`Expr`), not compiled; the checks read
these records, `normalize` fills defaults once, and the interpreter compiles
them.  A field holding `None` means "not given" only until normalize has run.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .source import Span

Expr = Any  # an AST node from expr_ast


@dataclass
class Rulebook:
    title: str = ""
    edition: str = ""
    language: str = ""
    author: str = ""
    openspiel: str = ""  # the OpenSpiel game a library game follows and is checked against
    # The rulebook's pages or sections that state rules: citation -> short title.
    # The conformance report checks that each is cited by the spec and by a scenario.
    sections: dict = field(default_factory=dict)
    file: str = ""  # the rulebook's text, relative to the ruleset, if shipped beside it


@dataclass
class OptionDecl:
    name: str
    default: Any
    choices: tuple | None
    span: Span
    description: str = ""


@dataclass
class GameInfo:
    name: str
    title: str
    min_players: int
    max_players: int
    rulebook: Rulebook
    options: dict[str, OptionDecl]
    labels: dict[str, dict[str, str]]
    span: Span
    description: str = ""


@dataclass
class ComponentKind:
    name: str
    fields: dict[str, Any]  # field -> Type
    props: dict[str, "VarDecl"]  # mutable per-item properties
    items: list[dict]  # each: {"id": str, field: value...}
    span: Span
    rule: str | None = None
    sides: "SidesDecl | None" = None
    show: str | None = None  # the display template, such as "{value} points"
    show_by: str | None = None  # with show_cases: the field or property that picks the text
    show_cases: dict | None = None  # value of show_by (as text) -> display template
    text: dict | None = None  # `text:` language -> what the items do, in words (dsl/build_texts.py)
    text_by: str | None = None  # or one text per value of this field or property:
    text_cases: dict | None = None  # value of text_by (as text) -> {language: text}
    # A `generate:` whose values are worked out at set-up (dsl/generate.py): `items` are then
    # those of the options' defaults and the fewest players, and a game makes its own.
    generated: Any = None


@dataclass
class SidesDecl:
    """Which fields each side of an item shows.  A field named under no side is
    printed on every side; `by` is the property that says which side is up."""
    by: str  # "face" (the built-in up/down) or a declared property
    shows: dict[str, tuple[str, ...]]  # side value -> the fields printed only there
    span: Span


@dataclass
class VarDecl:
    name: str
    type: Any  # Type
    per: str | Expr | None  # None: global; "player"; or an expression giving the keys
    initial: Expr | None
    min: int | None
    max: int | None
    bounds: str  # "error" | "clamp"
    visibility: str  # "all" | "owner" | "none"
    span: Span
    rule: str | None = None
    choices: tuple | None = None
    shown: bool = True  # false: bookkeeping, left out of the play table


@dataclass
class ZoneDecl:
    name: str
    per: str | Expr | None
    kind: str  # stack | hand | row | bag
    visibility: str  # all | owner | none | top
    face: str  # up | down: the face items take on entering
    initial: Expr | None
    span: Span
    rule: str | None = None
    shown: bool = True  # false: bookkeeping, left out of the play table


@dataclass
class BoardDisplay:
    """How a board is drawn (a board's `display:`): where its nodes sit, the text each node
    shows, and which state stands on its nodes.  Nodes without a position are laid out."""
    positions: dict[str, tuple[float, float]]
    span: Span
    show: str | None = None  # a text with {attribute} / {variable keyed by node} places
    show_by: str | None = None  # or one text per value of this node attribute
    show_cases: dict[str, str] | None = None
    texts: dict[str, str] = field(default_factory=dict)  # node -> its own text, in place of `show`
    pieces: list[str] | None = None  # per-player variables or 'kind.property'; None: inferred
    cells: str | None = None  # the variable keyed by node a grid draws in its cells; None: inferred
    marks: dict[str, "Mark"] = field(default_factory=dict)  # a cell's value (as text) -> how it is drawn
    kinds: dict[str, "Mark"] = field(default_factory=dict)  # an item kind -> how its pieces are drawn
    spans: dict[str, Span] = field(default_factory=dict)  # 'show', 'show:<case>', 'text:<node>', 'pieces:<name>',
    # 'cells', 'mark:<value>', 'kind:<kind>'


@dataclass
class Mark:
    """How one value on a grid's cell, or one item kind's piece, is drawn: a short glyph
    (for items a template of its fields), a colour (or a player's colour: `owner`), and a
    label that says what the glyph stands for (the legend, a tooltip).  For an item kind
    `owner` names the field or property holding the player it belongs to; on a cell it is
    the player number itself."""
    glyph: str | None = None
    colour: str | None = None
    label: str | None = None
    owner: int | str | None = None


@dataclass
class GridDecl:
    """A board's `grid:`, kept beside the nodes built from it: a grid whose size is an
    expression over the options is built again for a game whose options change it."""
    rows: Any  # an int, or an expression (Expr) over `options`
    cols: Any
    diagonal: bool
    shape: str  # square | hex
    span: Span
    built: tuple[int, int] | None = None  # the rows and cols of the board's nodes
    listed_nodes: dict = field(default_factory=dict)  # what the board's `nodes` add to the grid
    listed_edges: list = field(default_factory=list)  # and its `edges`

    @property
    def sized_by_options(self) -> bool:
        return not (isinstance(self.rows, int) and isinstance(self.cols, int))


@dataclass
class BoardDecl:
    name: str
    directed: bool
    nodes: dict[str, dict]  # node -> attributes
    edges: list[tuple[str, str, dict]]
    span: Span
    rule: str | None = None
    display: BoardDisplay | None = None
    grid: GridDecl | None = None
    lines: list[tuple[str, ...]] = field(default_factory=list)  # declared straight lines (`lines:`)


@dataclass
class DefineDecl:
    name: str
    params: list[str]
    expr: Expr
    span: Span
    rule: str | None = None


@dataclass
class Effect:
    """One effect statement.  `kind` names it; `args` holds parsed parts."""

    kind: str  # set | move | shuffle | deal | flip | pass_zones | if | for | while | emit | let | end_game | log | reveal
    args: dict[str, Any]
    span: Span
    rule: str | None = None
    # `narrate:` language -> dsl.narration.Template: the sentence the narrated log gets
    # once the effect has run (interpreter/narration.py)
    narrate: dict | None = None


@dataclass
class Check:
    cond: Expr
    reason: str
    span: Span
    rule: str | None = None


@dataclass
class ActionDecl:
    name: str
    params: list[tuple[str, Expr, Span]]  # (name, domain expression, span)
    require: list[Check]
    cost: list[tuple[Expr, Expr, Span]]  # (target, amount)
    effects: list[Effect]
    then: list["FlowNode"]
    span: Span
    rule: str | None = None
    label: str = ""
    description: str = ""
    then_required: bool = False  # offered only when its `then` reaches a decision
    secret: bool | tuple = False  # True: the others read the move as "?"; names: those parameters as "?"


@dataclass
class FlowNode:
    """One node of the structured flow.  kind: phase | loop | for | turns | choose |
    simultaneous | respond | effects | if | chance; and `call` until the fragments are
    expanded (dsl/fragments.py), which happens before anything else reads the flow."""

    kind: str
    args: dict[str, Any]
    body: list["FlowNode"]
    span: Span
    label: str | None = None
    rule: str | None = None
    orelse: list["FlowNode"] = field(default_factory=list)


@dataclass
class FragmentDecl:
    """A named list of flow steps (`fragments:`), run where a `call` step names it.  Calls
    are expanded into the flow when the ruleset is read (dsl/fragments.py), so nothing
    after reading sees a fragment or a call."""

    name: str
    params: list[tuple[str, Span]]  # (name, where it is written)
    body: list[FlowNode]
    span: Span
    rule: str | None = None


@dataclass
class TriggerDecl:
    name: str
    on: str | None  # event name, or None for a condition trigger
    each: list[tuple[str, Expr]]  # bindings: name -> domain
    when: Expr | None
    effects: list[Effect]
    span: Span
    rule: str | None = None


@dataclass
class EndRule:
    when: Expr
    after: str  # "now" or a flow label
    span: Span
    rule: str | None = None
    reason: str = ""


@dataclass
class Scoring:
    score: Expr | None
    tiebreak: list[Expr]
    winners: Expr | None
    span: Span
    rule: str | None = None
    estimate: Expr | None = None  # how far ahead a player is before the end (search bots)
    utility: str = "general"  # what finished games' scores add up to: general, zero_sum, constant_sum
    total: int | None = None  # the sum of the scores, with utility constant_sum
    utility_span: Span | None = None  # where `utility` is written, for the check at a game's end


@dataclass
class SummaryRow:
    """One labelled value of the player panel (`summary:`): `expr` is evaluated for each
    player with `player` bound, and reads only what every player sees (S130)."""
    name: str
    expr: Expr | None
    span: Span


@dataclass
class Ruleset:
    game: GameInfo
    components: dict[str, ComponentKind]
    variables: dict[str, VarDecl]
    zones: dict[str, ZoneDecl]
    boards: dict[str, BoardDecl]
    defines: dict[str, DefineDecl]
    setup: list[Effect]
    flow: list[FlowNode]
    actions: dict[str, ActionDecl]
    triggers: dict[str, TriggerDecl]
    end: list[EndRule]
    scoring: Scoring | None
    files: list[str]
    content_hash: str
    root: str  # the folder or file it was loaded from
    invariants: list = field(default_factory=list)  # [Check] that must hold after every move
    fragments: dict = field(default_factory=dict)  # name -> FragmentDecl, already expanded into the flow
    summary: list = field(default_factory=list)  # [SummaryRow]: the player panel, in order
