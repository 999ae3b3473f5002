"""The ruleset language, declared as data: every section, every key of every
declaration, every effect and flow step, with its kind, whether it is required,
and a one-line description.

This is the single list of what keys exist.  The shape pass (`shape.py`) checks
every ruleset against it; the builders take their keyword tables from it
(`EFFECT_KINDS`, `FLOW_KINDS`, `SECTIONS` below); the docs describe the same
keys in prose (docs/language.md).
"""
from __future__ import annotations

from .kinds import (Assignment, Boolean, Choice, Data, Expression, Integer, Key, Keyworded, ListOf,
                    Literal, MapOf, Name, OneOf, OptionScalar, Record, Ref, Scalar, Target, Text, Tuple, TypeName,
                    Variant)

NAME = Name()  # a declared name or a reference to one (dsl/identifiers.py)
NODE = Text(label="a node name")  # board nodes are values of expressions, not names
RULE = Key("rule", Text(), doc="a rulebook citation such as \"p.7\"")
DESCRIPTION = Key("description", Text(), doc="free text for people")
FACE = Choice(values=("up", "down"))
EFFECTS = ListOf(Ref(name="effect", label="an effect"), label="a list of effects")
STEPS = ListOf(Ref(name="flow_step", label="a flow step"), label="a list of flow steps")
CHOICES = ListOf(Scalar(), label="a list of numbers, texts or booleans")

# -- game --------------------------------------------------------------------

PLAYERS = OneOf((
    Integer(),
    Text(label="a range such as '2-4'"),
    Record("players", (Key("min", Integer(), True, "the fewest players"),
                       Key("max", Integer(), True, "the most players"))),
), label="a number, a range such as '2-4', or {min, max}")

# An option's value is a value of the language: a whole number, a text, true/false, or
# lists and mappings of them.  A number with a fraction part (2.5) is refused here, where
# it is written (S125), rather than when an expression first combines it with an int.
_OPTION_PART = OneOf((OptionScalar(), ListOf(OptionScalar())),
                     label="a whole number, a text, true/false or a list of them")
OPTION_VALUE = OneOf((OptionScalar(), ListOf(_OPTION_PART), MapOf(_OPTION_PART)),
                     label="a whole number, a text, true/false, or a list or mapping of them")

OPTION = Record("an option", (
    Key("default", OPTION_VALUE, True, "the value when a game does not set the option; it fixes the option's type"),
    Key("choices", ListOf(OptionScalar(), label="a list of whole numbers, texts or booleans"),
        doc="the values the option may take, each of the default's type"),
    DESCRIPTION,
))

RULEBOOK = Record("the rulebook", (
    Key("title", Text(), doc="the rulebook's title"),
    Key("edition", Text(), doc="its edition"),
    Key("language", Text(), doc="its language"),
    Key("author", Text(), doc="its author"),
    Key("openspiel", Text(), doc="for a library game: the OpenSpiel game it follows, move for move"),
    Key("sections", MapOf(Text(), label="a mapping of citations to titles"),
        doc="citation -> short title of each section that states rules"),
))

GAME = Record("the game section", (
    Key("name", Text(label="the ruleset's name"), True, "the ruleset's name, recorded in saves and logs"),
    Key("title", Text(), doc="the name shown to people (default: name)"),
    Key("players", PLAYERS, True, "the player count: a number, a range '2-4' or {min, max}"),
    Key("rulebook", RULEBOOK, doc="the rulebook the rules transcribe"),
    Key("options", MapOf(OPTION, label="a mapping of option names to options", keys=NAME),
        doc="named settings of a game"),
    Key("labels", MapOf(MapOf(Text(), label="a mapping of names to texts"),
                        label="a mapping of languages to label tables"),
        doc="per language, display texts of names and messages"),
    DESCRIPTION,
))

# -- variables and properties ----------------------------------------------

VARIABLE_RECORD = Record("a variable", (
    Key("type", TypeName(), doc="the type (default int)"),
    Key("per", Expression(), doc="'player', or an expression giving the keys"),
    Key("initial", Expression(), doc="the starting value"),
    Key("min", Integer(), doc="inclusive lower bound of an int"),
    Key("max", Integer(), doc="inclusive upper bound of an int"),
    Key("bounds", Choice(values=("error", "clamp")), doc="what a write outside the bounds does"),
    Key("visibility", Choice(values=("all", "owner", "none")), doc="who sees it in a view"),
    RULE,
    Key("choices", CHOICES, doc="the values it may take"),
    DESCRIPTION,
    Key("show", Boolean(), doc="false: bookkeeping, left out of the play table (still in views)"),
))
VARIABLE = OneOf((TypeName(label="a type name (the short form)"), VARIABLE_RECORD),
                 label="a type name or a mapping")

# -- components --------------------------------------------------------------

ITEM = Record("an item", (
    Key("id", Text(), True, "the item's id"),
    Key("count", Integer(), doc="how many copies (ids get -1, -2, ...)"),
), extra=Data(), doc="other keys are values of the kind's fields")

GENERATED_FIELD = OneOf((
    ListOf(Scalar(), label="a list of values"),
    Record("a range", (Key("from", Expression(), True, "the first value: a number, or an expression over the "
                           "options and the player count"),
                       Key("to", Expression(), True, "the last value (inclusive), likewise"))),
    Expression(label="an expression giving the values, over the options and the player count"),
), label="a list of values, {from, to}, or an expression giving the values")

SIDES = Record("the sides", (
    Key("by", NAME, doc="the property saying which side is up (default face)"),
), extra=ListOf(NAME, label="a list of field names"),
    doc="other keys: a side value -> the fields printed only on that side")

COMPONENT = Record("a component", (
    Key("fields", MapOf(TypeName(), label="a mapping of field names to types", keys=NAME),
        doc="field name -> type"),
    Key("props", MapOf(VARIABLE, label="a mapping of property names to declarations", keys=NAME),
        doc="mutable per-item properties"),
    Key("items", ListOf(ITEM, label="a list of items"), doc="the items, each with an id"),
    Key("generate", MapOf(GENERATED_FIELD, label="a mapping of field names to values", keys=NAME),
        doc="items made for every combination of field values"),
    Key("id", Text(), doc="with generate: the id template such as \"{suit}{rank}\""),
    RULE,
    DESCRIPTION,
    Key("sides", SIDES, doc="which fields each side of an item shows"),
    Key("show", OneOf((Text(), MapOf(Text(), label="a mapping: by, then a text per value"))),
        doc="how an item is shown to players: a text with {field} and {property} places, or "
            "{by: field, <value>: text, ...} for kinds whose items differ by a field"),
    Key("text", MapOf(OneOf((Text(), MapOf(Text(), label="a mapping of languages to texts")),
                            label="a text, or a mapping of languages to texts"),
                      label="a mapping of languages to texts, or by: field and a mapping per value"),
        doc="what the items do, in words, per language ({field} places as in show), or "
            "{by: field, <value>: {language: text}, ...} for kinds whose items differ by a field"),
), needs=(("generate", "id"),))

# -- zones, boards, definitions ----------------------------------------------

ZONE = Record("a zone", (
    Key("per", Expression(), doc="'player', or an expression giving the keys"),
    Key("kind", Choice(values=("stack", "hand", "row", "bag")), doc="only bag changes behaviour"),
    Key("visibility", Choice(values=("all", "owner", "none", "top")), doc="who sees its items"),
    Key("face", FACE, doc="the face items take on entering"),
    Key("initial", Expression(), doc="the items it starts with"),
    RULE,
    DESCRIPTION,
    Key("show", Boolean(), doc="false: bookkeeping, left out of the play table (still in views)"),
))

ATTRIBUTES = MapOf(Data(), label="a mapping of attributes")

_COLOUR = Key("colour", Text(label="a colour: #rgb, #rrggbb or a name"),
              doc="#rgb, #rrggbb or a colour name such as black")
CELL_MARK = Record("a cell's mark", (
    Key("glyph", Text(), doc="what the cell shows: one or a few characters ('' for nothing)"),
    _COLOUR,
    Key("label", Text(), doc="what the glyph stands for, in the legend and tooltips"),
    Key("owner", Integer(), doc="the player the value belongs to: drawn in that player's colour"),
))
KIND_MARK = Record("an item kind's mark", (
    Key("glyph", Text(), doc="a short text over the item's fields and properties: \"{num}\""),
    _COLOUR,
    Key("label", Text(), doc="what the piece is, over its fields and properties: \"dwarf {num}\""),
    Key("owner", Text(label="a field or property"),
        doc="the field or property holding the player the item belongs to: drawn in that player's colour"),
))

BOARD_DISPLAY = Record("a board's display", (
    Key("positions", MapOf(Data(), label="a mapping of node names to [x, y]"),
        doc="node -> [x, y] (y up); nodes left out are laid out around the placed ones"),
    Key("show", OneOf((Text(), MapOf(Text(), label="a mapping: by, then a text per value"))),
        doc="a node's text: {attribute}, {node} and {variable or zone keyed by node} places, or "
            "{by: attribute, <value>: text, ...}"),
    Key("texts", MapOf(Text(), label="a mapping of node names to texts"),
        doc="node -> its own text, in place of `show` for that node (the same places)"),
    Key("pieces", ListOf(Text(label="a name or 'kind.property'"), label="a list of names"),
        doc="what stands on nodes: per-player variables holding a node, or 'kind.property'"),
    Key("cells", Text(label="a variable's name"),
        doc="the variable keyed by node whose values a grid board draws in its cells"),
    Key("marks", MapOf(OneOf((Text(label="a glyph"), CELL_MARK)), label="a mapping of values to marks"),
        doc="a cell's value -> its glyph, or {glyph, colour, label, owner}; a value left out is drawn as written"),
    Key("kinds", MapOf(KIND_MARK, label="a mapping of item kinds to marks"),
        doc="an item kind -> how its pieces on the board are drawn: {glyph, colour, label, owner}"),
))

BOARD = Record("a board", (
    Key("grid", Record("a grid", (
        Key("rows", Expression(), True, "how many rows: a number, or an expression over the options"),
        Key("cols", Expression(), True, "how many columns: a number, or an expression over the options"),
        Key("diagonal", Boolean(), doc="also connect diagonal neighbours (square grids)"),
        Key("shape", Choice(values=("square", "hex")),
            doc="square (default), or hex: a rhombus whose cells have six neighbours"),
    )), doc="a grid of nodes a1, b1, ..."),
    Key("nodes", OneOf((ListOf(NODE, label="a list of node names"),
                        MapOf(ATTRIBUTES, label="a mapping of node names to attributes")),
                       label="a list of node names or a mapping of names to attributes"),
        doc="node names, or node name -> attributes"),
    Key("edges", ListOf(Tuple((NODE, NODE, ATTRIBUTES), optional=1,
                              label="[from, to] or [from, to, {attributes}]"),
                        label="a list of edges"), doc="[a, b] or [a, b, {attributes}]"),
    Key("directed", Boolean(), doc="true for one-way edges"),
    Key("lines", ListOf(ListOf(NODE, label="a list of node names"), label="a list of lines"),
        doc="the board's straight lines, each its nodes in order: what lines(board, k) walks"),
    Key("display", BOARD_DISPLAY, doc="how the board is drawn: node positions, node text, pieces"),
    RULE,
    DESCRIPTION,
))

DEFINITION = OneOf((
    Record("a definition", (
        Key("params", ListOf(NAME, label="a list of parameter names"), doc="the parameters"),
        Key("expr", Expression(), True, "the body"),
        RULE,
        DESCRIPTION,
    )),
    Expression(),
), label="an expression or {params, expr}")

# -- effects -----------------------------------------------------------------

MOVE_KEYS = (
    Key("from", Target(), doc="the zone to take from"),
    Key("to", Target(), True, "the zone to put the items in"),
    Key("count", Expression(), doc="without items: how many to take from the top of from"),
    Key("at", Choice(values=("top", "bottom")), doc="where in to"),
    Key("face", FACE, doc="the face the items take"),
)
DEAL_KEYS = (
    Key("from", Target(), True, "the zone to deal from"),
    Key("to", NAME, True, "the NAME of the per-player zone to deal to"),
    Key("players", Expression(), doc="who receives, in order (default players())"),
    Key("face", FACE, doc="the face the items take"),
)

NARRATE = Key("narrate", MapOf(Text(label="a sentence with {expression} places"),
                              label="a mapping of languages to sentences"),
              doc="the sentence the narrated log gets once the effect has run, per language; "
                  "each {place} is an expression (`{who|player}` names a player)")

EFFECT = Keyworded("an effect", (
    Variant("set", OneOf((Assignment(), ListOf(Assignment(), label="a list of assignments")),
                         label="an assignment or a list of them"),
            doc="assigns variables and item properties"),
    Variant("move", Expression(label="the items to move"), MOVE_KEYS, "moves items between zones",
            inline=(Key("items", Expression(), doc="the items to move"),)),
    Variant("shuffle", Target(label="the zone to shuffle"), doc="puts a zone in random order"),
    Variant("deal", Expression(label="how many items each player receives"), DEAL_KEYS,
            "gives items one at a time to players in turn",
            inline=(Key("count", Expression(), doc="how many items each player receives"),)),
    Variant("flip", Expression(label="the items to flip"), (Key("face", FACE, doc="up or down; default: turn over"),),
            "turns items face up or down"),
    Variant("pass_zones", NAME, (Key("direction", Expression(), doc="1 (default) or -1"),),
            "hands every player's zone to a neighbour"),
    Variant("if", Expression(label="a condition"), (Key("then", EFFECTS, True, "effects run when it holds"),
                                                     Key("else", EFFECTS, doc="effects run otherwise")),
            "runs effects conditionally"),
    Variant("for", NAME, (Key("in", Expression(), True, "the list to loop over"),
                          Key("do", EFFECTS, True, "effects run for each element")),
            "repeats effects for each element"),
    Variant("while", Expression(label="a condition"),
            (Key("max", Expression(), True, "the most rounds it may run: one more is an error (R713)"),
             Key("do", EFFECTS, True, "effects run while the condition holds")),
            "repeats effects while a condition holds, at most max rounds"),
    Variant("emit", NAME, (Key("with", MapOf(Expression(), label="a mapping of names to expressions", keys=NAME),
                               doc="names bound in the triggers"),),
            "fires the event triggers of that event"),
    Variant("let", MapOf(Expression(), label="a mapping of names to expressions", keys=NAME),
            doc="binds local names for the following effects"),
    Variant("end_game", OneOf((Text(label="the reason"), Literal(True)), label="a reason or true"),
            doc="ends the game"),
    Variant("log", Expression(label="the message"), doc="adds a line to the game's log"),
    Variant("reveal", Expression(label="the items to reveal"),
            (Key("to", Expression(), doc="the players who may now see them"),), "lets players see items"),
), common=(RULE, NARRATE), bare=Assignment())

# -- flow --------------------------------------------------------------------

SEEN_BY = Key("seen_by", Expression(), doc="the players who may know the value the step binds (default: nobody)")

ACTION_NAMES = OneOf((NAME, ListOf(NAME, label="a list of action names")),
                     label="an action name or a list of them")

FLOW_STEP = Keyworded("a flow step", (
    Variant("phase", NAME, (Key("do", STEPS, True, "the steps of the phase"),), "a named part of the game"),
    Variant("loop", STEPS, (Key("while", Expression(), doc="repeat while it holds"),
                            Key("until", Expression(), doc="repeat until it holds"),
                            Key("times", Expression(), doc="repeat this many times")), "repeats steps",
            at_most_one=(("while", "until", "times"),)),
    Variant("for", NAME, (Key("in", Expression(), True, "the list to loop over"),
                          Key("do", STEPS, True, "steps run for each element"), SEEN_BY),
            "runs steps for each element of a list"),
    Variant("turns", Expression(label="the players, in order"),
            (Key("as", NAME, doc="the name bound to the player (default player)"),
             Key("do", STEPS, True, "the steps of each turn"), SEEN_BY,
             Key("until", Expression(label="a condition"),
                 doc="the turns end when it holds, tested before each player's turn")),
            "runs steps once for each player"),
    Variant("choose", ACTION_NAMES, (Key("player", Expression(), doc="the deciding player"),
                                     Key("pass", OneOf((Boolean(), Expression(label="a condition")),
                                                       label="true, false or a condition"),
                                         doc="also offer the move pass: always (true), or only when the "
                                             "condition holds, with player the deciding player"),
                                     Key("again", Expression(label="a condition"),
                                         doc="after the move, the same player decides here again while it "
                                             "holds (player is the deciding player)")),
            "one player picks one move"),
    Variant("simultaneous", ACTION_NAMES, (Key("players", Expression(), doc="who moves (default all)"),),
            "several players each pick one move"),
    Variant("respond", ACTION_NAMES, (Key("players", Expression(), doc="the responders, in order"),),
            "players in order may act or pass"),
    Variant("effects", EFFECTS, doc="changes the state"),
    Variant("if", Expression(label="a condition"), (Key("then", STEPS, True, "steps run when it holds"),
                                                     Key("else", STEPS, doc="steps run otherwise")),
            "runs steps conditionally"),
    Variant("chance", NAME, (Key("from", Expression(), True, "the equally likely outcomes"), SEEN_BY),
            "draws a random outcome"),
    Variant("call", NAME, (Key("with", MapOf(Expression(), label="a mapping of parameter names to expressions",
                                             keys=NAME),
                               doc="the fragment's arguments: parameter name -> its value, worked out as the call starts"),
                           SEEN_BY),
            "runs the steps of a named fragment (the fragments section)"),
), common=(Key("label", NAME, doc="a name for end rules' after"), RULE,
           Key("name", Text(), doc="free text, ignored")))

FRAGMENT = Record("a fragment", (
    Key("params", ListOf(NAME, label="a list of parameter names"),
        doc="the names its steps read, bound to the arguments of each call"),
    Key("do", STEPS, True, "the steps a call runs"),
    RULE,
    DESCRIPTION,
))

# -- actions, triggers, end, scoring, invariants -----------------------------

CHECK = OneOf((
    Record("a condition", (Key("check", Expression(), True, "the condition"),
                           Key("reason", Text(), doc="what a refused player is told"),
                           RULE)),
    Expression(label="a condition"),
), label="a condition or {check, reason, rule}")

ACTION = Record("an action", (
    Key("params", MapOf(Expression(), label="a mapping of parameter names to domains", keys=NAME),
        doc="parameter name -> the expression giving its possible values"),
    Key("require", ListOf(CHECK, label="a list of conditions"), doc="conditions that must all hold"),
    Key("cost", MapOf(Expression(), label="a mapping of targets to amounts"),
        doc="int variable -> amount paid before the effects"),
    Key("effects", EFFECTS, doc="effects run when the move is played"),
    Key("then", STEPS, doc="flow steps run right after the effects"),
    RULE,
    Key("label", Text(), doc="a display name"),
    DESCRIPTION,
    Key("then_required", Boolean(), doc="offered only when its then reaches a possible decision"),
    Key("secret", OneOf((Boolean(), ListOf(NAME, label="a list of parameter names")),
                        label="true or a list of parameter names"),
        doc="hidden from the other players: true, the whole move; a list, those parameters"),
))

TRIGGER = Record("a trigger", (
    Key("on", NAME, doc="the event it waits for"),
    Key("when", Expression(), doc="the condition it waits for"),
    Key("each", MapOf(Expression(), label="a mapping of names to lists", keys=NAME),
        doc="name -> list: tried for every combination"),
    Key("effects", EFFECTS, True, "what it does"),
    RULE,
    DESCRIPTION,
), at_least_one=(("on", "when"),))

END_RULE = Record("an end rule", (
    Key("when", Expression(), True, "the condition that ends the game"),
    Key("after", NAME, doc="now (default) or a flow label to finish first"),
    RULE,
    Key("reason", Text(), doc="the text of outcome.reason"),
))

UTILITIES = ("general", "zero_sum", "constant_sum")  # scoring.utility; checked at each game's end

SCORING = Record("the scoring section", (
    Key("score", Expression(), doc="each player's score"),
    Key("tiebreak", ListOf(Expression(), label="a list of expressions"), doc="tie-breakers, in order"),
    Key("winners", Expression(), doc="the winners (default: every player ranked first)"),
    Key("estimate", Expression(), doc="each player's standing before the end, for a search that stops a playout short"),
    Key("utility", Choice(values=UTILITIES),
        doc="what every finished game's scores add up to: anything (general), 0 (zero_sum) or total (constant_sum)"),
    Key("total", Integer(), doc="with utility: constant_sum, the sum of every finished game's scores"),
    RULE,
))

# -- the sections ------------------------------------------------------------

RULESET = Record("a ruleset file", (
    Key("game", GAME, doc="name, player count, options, rulebook, labels"),
    Key("components", MapOf(COMPONENT, label="a mapping of kind names to components", keys=NAME),
        doc="kinds of items: cards, tiles, tokens"),
    Key("variables", MapOf(VARIABLE, label="a mapping of names to variables", keys=NAME),
        doc="values the game keeps"),
    Key("zones", MapOf(ZONE, label="a mapping of names to zones", keys=NAME), doc="ordered places that hold items"),
    Key("boards", MapOf(BOARD, label="a mapping of names to boards", keys=NAME), doc="graphs of nodes and edges"),
    Key("define", MapOf(DEFINITION, label="a mapping of names to definitions", keys=NAME),
        doc="named expressions and functions"),
    Key("setup", EFFECTS, doc="effects run once when a game starts"),
    Key("flow", STEPS, doc="the order of play"),
    Key("fragments", MapOf(FRAGMENT, label="a mapping of names to fragments", keys=NAME),
        doc="named lists of flow steps, run by `call` steps from several places"),
    Key("actions", MapOf(ACTION, label="a mapping of names to actions", keys=NAME), doc="what players may do"),
    Key("triggers", MapOf(TRIGGER, label="a mapping of names to triggers", keys=NAME),
        doc="effects run when a condition holds or an event happens"),
    Key("end", ListOf(END_RULE, label="a list of end rules"), doc="conditions that end the game"),
    Key("scoring", SCORING, doc="scores, tie-breakers, winners"),
    Key("invariants", ListOf(CHECK, label="a list of conditions"),
        doc="conditions that must hold after every move (for testing)"),
    Key("summary", MapOf(Expression(), label="a mapping of names to expressions", keys=NAME),
        doc="the player panel: a few public values per player (points, money), `player` bound"),
), doc="a file's top level: its sections")

# Kinds referred to by name (the recursive ones).
NAMED_KINDS = {"effect": EFFECT, "flow_step": FLOW_STEP}

# -- tables the builders use, derived from the declarations above -------------

SECTIONS = RULESET.names
SINGLE_SECTIONS = ("game", "flow", "scoring", "summary")


def _modifier_table(kinds: Keyworded) -> dict[str, tuple[set[str], set[str]]]:
    return {v.keyword: ({k.name for k in v.modifiers + v.inline}, {k.name for k in v.modifiers if k.required})
            for v in kinds.variants}


# keyword -> (allowed modifier keys, required modifier keys)
EFFECT_KINDS = _modifier_table(EFFECT)
FLOW_KINDS = _modifier_table(FLOW_STEP)
COMMON_EFFECT_KEYS = {k.name for k in EFFECT.common}
COMMON_FLOW_KEYS = {k.name for k in FLOW_STEP.common}
