"""Lint L108: who is asked must follow from what everyone may know.

Everyone at the table sees whose turn it is and who is asked to respond, so the
lists and players that decide it (`turns`, `choose: player`, `simultaneous` and
`respond` players) should read no hidden information.  Reading a hidden zone's
size (`len(hand[p])`) is fine — the table sees how many cards a player holds —
but reading its contents, a face-down zone's items or a private variable tells
the table something it should not learn.  The view property test finds such
leaks in play; this finds them in the text.
"""
from __future__ import annotations

from meeple.dsl import expr_ast as A
from meeple.dsl.checks.hidden import hidden_names, hidden_reads  # noqa: F401 - also read from here
from meeple.dsl.diagnostics import Diagnostic

_DECIDERS = {"turns": "players", "choose": "player", "simultaneous": "players", "respond": "players"}


def who_is_asked_diagnostics(rs) -> list[Diagnostic]:
    hidden = hidden_names(rs)
    out: list[Diagnostic] = []
    if not hidden:
        return out

    def walk(nodes):
        for node in nodes:
            key = _DECIDERS.get(node.kind)
            expr = node.args.get(key) if key else None
            if expr is not None:
                reads = hidden_reads(expr, rs, hidden)
                if reads:
                    out.append(Diagnostic(
                        "L108", f"who is asked here depends on hidden information ({', '.join(sorted(reads))}): "
                        "everyone sees who is asked, so the table would learn it; ask everyone who could act "
                        "and let them pass", expr.span, severity="warning", rule=node.rule))
            walk(node.body)
            walk(node.orelse)
    walk(rs.flow)
    return out


def exposed_secret_diagnostics(rs) -> list[Diagnostic]:
    """Lint L111: where an effect puts what a `chance` step drew out of everyone's sight,
    or a secret parameter, somewhere every player sees: a public variable, the log, a
    face-up item moved into a zone everyone sees.  That is how a draw is meant to be
    revealed, so it is a warning to read, naming each place, not an error: the author
    sees every spot where a hidden value reaches the table."""
    out: list[Diagnostic] = []
    public = {n for n, v in rs.variables.items() if v.visibility == "all"}
    shown = {n for n, z in rs.zones.items() if z.visibility == "all" and z.face == "up"}

    def flow(nodes, secret: frozenset):
        for node in nodes:
            if node.kind == "chance" and node.args.get("var") and node.args.get("seen_by") is None:
                secret = secret | {node.args["var"]}  # for the steps after it
            elif node.kind == "effects":
                effects(node.args.get("effects", []), secret, "a hidden draw")
            elif node.kind in ("choose", "simultaneous", "respond"):
                for name, _ in node.args.get("actions", ()):
                    action = rs.actions.get(name)
                    if action is not None:
                        own = action.secret if isinstance(action.secret, tuple) else \
                            tuple(p for p, _, _ in action.params) if action.secret else ()
                        effects(action.effects, secret | set(own), "a hidden draw or a secret choice")
            flow(node.body, secret)
            flow(node.orelse, secret)

    def reads(expr, secret) -> set:
        return A.names_read(expr) & secret if expr is not None else set()

    def warn(found, what, where, span):
        out.append(Diagnostic("L111", f"{where} takes {', '.join(sorted(found))}, {what} the others may not "
                              "see until here: every player now learns it", span, severity="warning"))

    def effects(block, secret: frozenset, what: str):
        for e in block:
            a = e.args
            if e.kind == "set":
                for assign in a.get("assignments", ()):
                    root = assign.target
                    while isinstance(root, (A.Index, A.Member)):
                        root = root.obj
                    found = reads(assign.value, secret)
                    if found and isinstance(root, A.Name) and root.name in public:
                        warn(found, what, f"the public variable '{root.name}'", assign.span)
            elif e.kind == "log":
                found = reads(a.get("message"), secret)
                if found:
                    warn(found, what, "the log", e.span)
            elif e.kind == "move":
                found = reads(a.get("items"), secret)
                dest = a.get("to")
                while isinstance(dest, A.Index):
                    dest = dest.obj
                if found and isinstance(dest, A.Name) and dest.name in shown and a.get("face") != "down":
                    warn(found, what, f"the zone '{dest.name}', face up", e.span)
            elif e.kind == "let":
                tainted = {n for n, v in a.get("bindings", {}).items() if reads(v, secret)}
                secret = secret | tainted
            elif e.kind == "for":
                inner = secret | ({a["var"]} if reads(a.get("in"), secret) else set())
                effects(a.get("do", []), inner, what)
            elif e.kind == "while":
                effects(a.get("do", []), secret, what)
            elif e.kind == "if":
                effects(a.get("then", []), secret, what)
                effects(a.get("else", []), secret, what)

    flow(rs.flow, frozenset())
    return out
