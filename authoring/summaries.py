"""Short texts about the things a ruleset names, for hover and for the details of a
completion: a declaration as the author wrote it, an action with its rulebook citation,
a library function with its signatures and result from docs/expressions.md."""
from __future__ import annotations

import yaml

from meeple.dsl.source import plain

from .function_docs import function_docs
from .index import Declaration

MAX_VALUE = 300  # characters of a declaration's YAML shown before it is cut

_TITLES = {"variable": "variable", "zone": "zone", "board": "board", "definition": "definition",
           "action": "action", "component": "component kind", "trigger": "trigger", "item": "item",
           "option": "option", "label": "flow label", "fragment": "flow fragment"}


def one_line(value) -> str:
    """A value on one line: a text as it is, anything else in YAML's flow style."""
    if isinstance(value, str):
        text = value
    else:
        text = yaml.safe_dump(plain(value), default_flow_style=True, width=10**6, allow_unicode=True,
                              sort_keys=False).strip().removesuffix("...").strip()
    return text if len(text) <= MAX_VALUE else text[:MAX_VALUE - 1] + "…"


def declaration_detail(d: Declaration) -> str:
    """One line: what the name is, and its declaration."""
    return f"{_TITLES.get(d.kind, d.kind)}: {one_line(d.value)}"


def declaration_markdown(d: Declaration, sections: dict[str, str]) -> str:
    """Hover text of a declaration; `sections` are the rulebook's section titles by citation."""
    head = f"**{_TITLES.get(d.kind, d.kind)}** `{d.name}`"
    if d.kind == "action" and isinstance(d.value, dict):
        return "\n\n".join([head] + _action_lines(d.value, sections) + [f"declared at {d.span}"])
    return f"{head}\n\n```yaml\n{one_line(d.value)}\n```\n\ndeclared at {d.span}"


def rule_line(rule, sections: dict[str, str]) -> str:
    """`rule p.3: *round structure*`: a citation with the rulebook's titles of its sections."""
    titles = [sections.get(part.strip()) for part in str(rule).split(",")]
    titled = "; ".join(t for t in titles if t)
    return f"rule {rule}" + (f": *{titled}*" if titled else "")


def _action_lines(action: dict, sections: dict[str, str]) -> list[str]:
    out = []
    if action.get("label"):
        out.append(str(action["label"]))
    if action.get("rule"):
        out.append(rule_line(action["rule"], sections))
    if action.get("description"):
        out.append(str(action["description"]))
    params = action.get("params")
    if isinstance(params, dict) and params:
        out.append("params: " + ", ".join(f"`{name}` in `{one_line(domain)}`" for name, domain in params.items()))
    for check in action.get("require") or []:
        if isinstance(check, dict):
            reason = f" — {check['reason']}" if check.get("reason") else ""
            cited = f" (rule {check['rule']})" if check.get("rule") else ""
            out.append(f"requires `{one_line(check.get('check'))}`{reason}{cited}")
        else:
            out.append(f"requires `{one_line(check)}`")
    return out



def function_markdown(name: str) -> str | None:
    entry = function_docs().get(name)
    if entry is None:
        return None
    signatures = "\n".join(entry["signatures"])
    results = "\n\n".join(entry["results"])
    examples = "".join(f"\n\nexample: {e}" for e in entry["examples"])
    return f"```\n{signatures}\n```\n\n{results}{examples}\n\n(docs/expressions.md, {entry['group']})"


def function_detail(name: str) -> str:
    entry = function_docs().get(name)
    return ", ".join(entry["signatures"]) if entry else name
