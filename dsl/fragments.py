"""Named flow fragments: a list of flow steps written once (`fragments:`) and run from
several places of the flow by a `call` step, with arguments.

A call is expanded when the ruleset is read, into the ordinary flow: the fragment's
steps, copied, inside one `for` step per parameter whose list holds just the argument.
So each argument is worked out once, as the call starts, and its name ends with the
fragment's steps, exactly as a loop's name does; the reference interpreter, the compiled
back end and the fused tier see steps they already run, and nothing after reading knows
that fragments exist.  The copies keep the spans of the fragment's text, so a problem in a
fragment (and a run-time error) points at the line of the fragment where it is written.

What cannot be expanded is reported here, each at its place:

- F512  a `call` names no fragment;
- F513  a call's arguments are not the fragment's parameters (one missing, one unknown);
- F514  a fragment calls itself, directly or through other fragments;
- F515  (warning) a fragment is never called, so nothing checks its steps' expressions;
- F516  a fragment's parameter is written twice, or takes a name the ruleset declares
        (a variable, zone, board, component or definition), which its steps could then
        no longer read;
- F505  a labelled step inside a fragment that runs from more than one place: each run
        would be a step of that label.
"""
from __future__ import annotations

import copy
import difflib
from typing import Iterator

from . import expr_ast as A
from .build_flow import build_flow, rule_of
from .build_support import Reader
from .model import FlowNode, FragmentDecl
from .source import LDict


def build_fragment(r: Reader, name: str, value) -> FragmentDecl | None:
    node = r.mapping(value, f"fragment '{name}'")
    if node is None:
        return None
    params = []
    raw = r.sequence(node.get("params"), "params", node.span)
    spans = getattr(raw, "item_spans", None) or [node.span] * len(raw)
    for p, where in zip(raw, spans):
        if isinstance(p, str):  # anything else is reported by the shape pass
            params.append((str(p), where))
    return FragmentDecl(name, params, build_flow(r, node.get("do"), "do"), node.span, rule_of(r, node))


def build_fragments(r: Reader, values: list) -> dict[str, FragmentDecl]:
    """The `fragments` sections of every file; a name is declared once across them (S104)."""
    out: dict[str, FragmentDecl] = {}
    for value in values:
        if value is None or r.mapping(value, "the fragments section") is None:
            continue
        for name, decl in value.items():
            key_span = value.key_spans.get(name) if isinstance(value, LDict) else None
            name = str(name)
            if name in out:
                r.error("S104", f"fragment '{name}' is declared twice", key_span,
                        notes=[f"first declared at {out[name].span}"])
                continue
            built = build_fragment(r, name, decl)
            if built is not None:
                if key_span is not None:
                    built.span = key_span
                out[name] = built
    return out


def _calls(nodes: list[FlowNode]) -> Iterator[FlowNode]:
    for n in nodes:
        if n.kind == "call":
            yield n
        yield from _calls(n.body)
        yield from _calls(n.orelse)


def _labelled(nodes: list[FlowNode]) -> Iterator[FlowNode]:
    for n in nodes:
        if n.label and n.kind != "phase":  # phases may repeat their name
            yield n
        yield from _labelled(n.body)
        yield from _labelled(n.orelse)


class _Expander:
    def __init__(self, r: Reader, fragments: dict[str, FragmentDecl], declared: set[str]):
        self.r, self.fragments, self.declared = r, fragments, declared
        self.runs: dict[str, int] = {}  # fragment -> how many copies of it the flow holds
        self.labels_reported: set[str] = set()

    # -- checks before anything is expanded -------------------------------------------------
    def check_params(self) -> None:
        for frag in self.fragments.values():
            seen: set[str] = set()
            for name, where in frag.params:
                if name in seen:
                    self.r.error("F516", f"fragment '{frag.name}' names its parameter '{name}' twice", where)
                elif name in self.declared:
                    self.r.error("F516", f"the parameter '{name}' of fragment '{frag.name}' takes the name of "
                                 "something the ruleset declares, which the fragment's steps could then not "
                                 "read; give it another name", where)
                seen.add(name)

    def check_call(self, call: FlowNode) -> None:
        a = call.args
        name = a.get("name")
        where = a.get("name_span") or call.span
        if name is None:
            call.args["broken"] = True
            return
        frag = self.fragments.get(name)
        if frag is None:
            close = difflib.get_close_matches(name, list(self.fragments), n=1)
            self.r.error("F512", f"'{name}' is not a declared fragment" +
                         (f"; did you mean '{close[0]}'?" if close else ""), where, suggestions=close,
                         notes=[f"fragments: {', '.join(self.fragments) or '(none)'}"])
            call.args["broken"] = True
            return
        params = [p for p, _ in frag.params]
        for arg, arg_span in a.get("with_spans", {}).items():
            if arg not in params:
                close = difflib.get_close_matches(arg, params, n=1)
                self.r.error("F513", f"fragment '{name}' has no parameter '{arg}'" +
                             (f"; did you mean '{close[0]}'?" if close else ""), arg_span, suggestions=close,
                             notes=[f"its parameters: {', '.join(params) or '(none)'}"])
                call.args["broken"] = True
        missing = [p for p in params if p not in a.get("with", {})]
        if missing:
            self.r.error("F513", f"the call of '{name}' gives no value for its parameter"
                         f"{'s' if len(missing) > 1 else ''} {', '.join(repr(p) for p in missing)}",
                         where, notes=[f"write them under 'with:', as {{{', '.join(f'{p}: ...' for p in params)}}}"])
            call.args["broken"] = True

    def check_cycles(self) -> None:
        """A fragment whose steps call it again, through any chain of calls, would expand
        without end: F514 at the call that closes the cycle, once per cycle."""
        done: set[str] = set()

        def visit(name: str, path: list[str]) -> None:
            for call in _calls(self.fragments[name].body):
                target = call.args.get("name")
                if call.args.get("broken") or target not in self.fragments:
                    continue
                if target in path:
                    cycle = path[path.index(target):] + [target]
                    self.r.error("F514", f"fragment '{target}' is called inside its own steps "
                                 f"({' -> '.join(cycle)}), so its calls would never end; a repeat is a "
                                 "'loop' step inside the fragment", call.args.get("name_span") or call.span)
                    call.args["broken"] = True
                elif target not in done:
                    visit(target, path + [target])
            done.add(name)
        for name in self.fragments:
            if name not in done:
                visit(name, [name])

    def called_from(self, roots: list) -> set[str]:
        """The fragments some call reaches from these lists of steps, directly or through
        other fragments (a call that cannot be expanded still counts: it is reported)."""
        found: set[str] = set()
        todo = [call.args.get("name") for nodes in roots for call in _calls(nodes)]
        while todo:
            name = todo.pop()
            if name in self.fragments and name not in found:
                found.add(name)
                todo += [call.args.get("name") for call in _calls(self.fragments[name].body)]
        return found

    # -- expansion ------------------------------------------------------------------------
    def steps(self, nodes: list[FlowNode]) -> list[FlowNode]:
        out: list[FlowNode] = []
        for n in nodes:
            if n.kind == "call":
                if not n.args.get("broken"):  # reported where it is written
                    out.extend(self.expand(n))
                continue
            n.body = self.steps(n.body)
            n.orelse = self.steps(n.orelse)
            out.append(n)
        return out

    def expand(self, call: FlowNode) -> list[FlowNode]:
        frag = self.fragments[call.args["name"]]
        self.runs[frag.name] = self.runs.get(frag.name, 0) + 1
        body = copy.deepcopy(frag.body)  # every run its own nodes: the flow graph keys them by identity
        if self.runs[frag.name] > 1:
            self.repeated_labels(frag, body)
        body = self.steps(body)
        args = call.args["with"]
        if frag.params:
            for name in reversed(list(dict.fromkeys(p for p, _ in frag.params))):  # a name twice: F516
                value = args[name]
                step = {"var": name, "in": A.ListLit((value,), value.span)}
                if "seen_by" in call.args:
                    step["seen_by"] = copy.deepcopy(call.args["seen_by"])
                body = [FlowNode("for", step, body, call.span, rule=call.rule)]
            body[0].label = call.label
            body[0].args["call"] = frag.name  # for people reading the flow (`meeple explain`)
            return body
        if call.label or any(n.kind == "chance" for n in body):
            # One step around the fragment's steps: it carries the call's label, and the
            # names the fragment's own `chance` steps bind end with it.
            return [FlowNode("if", {"cond": A.Const(True, call.span), "call": frag.name}, body, call.span,
                             label=call.label, rule=call.rule)]
        return body

    def repeated_labels(self, frag: FragmentDecl, body: list[FlowNode]) -> None:
        for node in _labelled(body):
            if (frag.name, node.label) not in self.labels_reported:
                self.labels_reported.add((frag.name, node.label))
                self.r.error("F505", f"label '{node.label}' is inside fragment '{frag.name}', which runs from "
                             "more than one place: each run would be a step of that label; label the 'call' "
                             "steps instead", node.span)
            node.label = None  # reported once here, not again by the check of labels


def expand_fragments(r: Reader, fragments: dict[str, FragmentDecl], flow: list[FlowNode], actions: dict,
                     declared: set[str]) -> list[FlowNode]:
    """The flow with every `call` replaced by its fragment's steps (actions' `then` steps
    are expanded in place).  Calls that cannot be expanded are reported and left out."""
    x = _Expander(r, fragments, declared)
    x.check_params()
    for nodes in [flow, *(a.then for a in actions.values()), *(f.body for f in fragments.values())]:
        for call in _calls(nodes):
            x.check_call(call)
    x.check_cycles()
    called = x.called_from([flow, *(a.then for a in actions.values())])
    flow = x.steps(flow)
    for action in actions.values():
        action.then = x.steps(action.then)
    for frag in fragments.values():
        if frag.name not in called:
            r.warn("F515", f"fragment '{frag.name}' is never called, so its steps are not checked", frag.span)
    return flow


__all__ = ["build_fragments", "expand_fragments"]
