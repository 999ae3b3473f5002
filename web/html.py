"""HTML written by hand, safely: every text that did not come from this package is
escaped on the way in, and what is already markup says so by its type (`Markup`)."""
from __future__ import annotations

import html
import json


class Markup(str):
    """A fragment of HTML that is already safe to insert as it is."""


def esc(value) -> Markup:
    if isinstance(value, Markup):
        return value
    return Markup(html.escape(str(value), quote=True))


def attrs(**values) -> str:
    """` name="value"` pairs; `class_` is `class`, `data_x` is `data-x`; None or False
    leaves an attribute out, True writes it bare, a list or dict is written as JSON."""
    out = []
    for key, value in values.items():
        if value is None or value is False:
            continue
        name = key.rstrip("_").replace("_", "-")
        if value is True:
            out.append(f" {name}")
            continue
        if isinstance(value, (list, tuple, dict)):
            value = json.dumps(value, ensure_ascii=False)
        out.append(f' {name}="{html.escape(str(value), quote=True)}"')
    return "".join(out)


def tag(name: str, *children, **values) -> Markup:
    """An element with escaped text children and attributes."""
    return Markup(f"<{name}{attrs(**values)}>" + "".join(esc(c) for c in children if c is not None) + f"</{name}>")


def join(parts, sep: str = "") -> Markup:
    return Markup(esc(sep).join(esc(p) for p in parts))
